//! json-render both ways: `$state` bindings, `visible` with `neq`, `gte`
//! and `lte` mapped (SPEC.md section 4), `state` as `data`, actions; a
//! round trip over the validator's fixture surfaces; bad specs noted.

mod common;

use common::{fixture_surfaces, normalized};
use interop::json_render::{from_json_render, to_json_render};
use serde_json::{json, Value};
use validator_wasm::{validate_surface, Catalog};

#[test]
fn a_round_trip_through_json_render_keeps_the_surface() {
    let mut whole = 0;
    for (name, surface) in fixture_surfaces() {
        let out = to_json_render(&surface);
        let back = from_json_render(&out.spec);
        assert_eq!(back.notes, [], "{name}: {:#}", out.spec);
        assert_eq!(
            back.surface["data"],
            surface.get("data").cloned().unwrap_or(json!({})),
            "{name}"
        );
        if out.notes.is_empty() {
            let mine: Vec<Value> = surface["components"]
                .as_array()
                .unwrap()
                .iter()
                .map(normalized)
                .collect();
            let theirs: Vec<Value> = back.surface["components"]
                .as_array()
                .unwrap()
                .iter()
                .map(normalized)
                .collect();
            assert_eq!(theirs, mine, "{name}: {:#}", out.spec);
            whole += 1;
        }
    }
    assert!(whole >= 40, "{whole} surfaces came back whole");
}

#[test]
fn state_bindings_conditions_and_actions_map_both_ways() {
    let spec = json!({
        "root": "page",
        "elements": {
            "page": {"type": "Stack", "props": {"gap": "small"}, "children": ["plan", "save", "big"]},
            "plan": {"type": "Toggle", "props": {"options": ["a", "b"], "value": {"$bindState": "/plan"}},
                     "visible": [{"$state": "/plan", "neq": "c"}, {"$state": "/n", "lte": {"$state": "/max"}}]},
            "save": {"type": "Button", "props": {"label": {"$template": "Save ${/plan}"}},
                     "on": {"press": {"action": "setState", "params": {"statePath": "/saved", "value": true}}},
                     "visible": {"$or": [{"$state": "/admin"}, {"$state": "/saved", "not": true}]}},
            "big": {"type": "Text", "props": {"text": "Big", "tone": null}, "visible": {"$state": "/n", "gt": 3}}
        },
        "state": {"plan": "a", "n": 1, "max": 5, "admin": false, "saved": false}
    });
    let out = from_json_render(&spec);
    // The root element is component `root`, whatever its key.
    let codes: Vec<_> = out
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert_eq!(codes, [("renamed_id", "/elements/page")]);
    let surface = &out.surface;
    assert_eq!(surface["data"], spec["state"]);
    assert_eq!(
        surface["components"][0],
        json!({"id": "root", "component": "Stack", "props": {"gap": "small"}, "children": ["plan", "save", "big"]})
    );
    assert_eq!(
        surface["components"][1]["props"]["value"],
        json!({"path": "/plan"})
    );
    assert_eq!(
        surface["components"][1]["visible"],
        json!({"and": [{"ne": [{"path": "/plan"}, "c"]}, {"not": {"gt": [{"path": "/n"}, {"path": "/max"}]}}]})
    );
    assert_eq!(
        surface["components"][2]["props"],
        json!({"label": {"call": "concat", "args": {"values": ["Save ", {"path": "/plan"}]}},
               "onClick": {"action": "set", "path": "/saved", "value": true}})
    );
    assert_eq!(
        surface["components"][2]["visible"],
        json!({"or": [{"path": "/admin"}, {"not": {"path": "/saved"}}]})
    );
    assert_eq!(
        surface["components"][3]["visible"],
        json!({"gt": [{"path": "/n"}, 3]})
    );
    let issues = validate_surface(surface, &Catalog::default_blog());
    assert!(issues.iter().all(|i| !i.is_error()), "{issues:?}");

    let back = to_json_render(surface);
    assert_eq!(back.notes, []);
    let elements = &back.spec["elements"];
    assert_eq!(back.spec["root"], "root");
    assert_eq!(
        elements["plan"]["props"]["value"],
        json!({"$bindState": "/plan"})
    );
    assert_eq!(
        elements["plan"]["visible"],
        json!({"$and": [{"$state": "/plan", "neq": "c"}, {"$state": "/n", "lte": {"$state": "/max"}}]})
    );
    assert_eq!(
        elements["save"]["props"]["label"],
        json!({"$template": "Save ${/plan}"})
    );
    assert_eq!(
        elements["save"]["on"]["press"],
        spec["elements"]["save"]["on"]["press"]
    );
    assert_eq!(back.spec["state"], spec["state"]);
}

#[test]
fn what_has_no_equivalent_is_noted() {
    let spec = json!({
        "root": "Main",
        "elements": {
            "Main": {"type": "Stack", "props": {}, "children": ["t", "ghost"], "repeat": {"statePath": "/items"}},
            "t": {"type": "Text", "props": {"text": {"$cond": {"if": true, "then": "a", "else": "b"}}},
                  "on": {"press": {"action": "fetchData"}}, "visible": {"$item": "done"}}
        },
        "state": {"ok": 1}
    });
    let out = from_json_render(&spec);
    let codes: Vec<_> = out
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert_eq!(
        codes,
        [
            ("renamed_id", "/elements/Main"),
            ("prop_dropped", "/elements/Main/repeat"),
            ("missing_child", "/elements/Main/children/1"),
            ("unsupported_function", "/elements/t/props/text/$cond"),
            ("event_dropped", "/elements/t/on/press/action"),
            ("prop_dropped", "/elements/t/visible"),
        ]
    );
    assert_eq!(out.surface["components"][0]["children"], json!(["t"]));

    let unsafe_condition = json!({"root": "root", "elements": {"root": {"type": "Stack", "visible": {"$state": "/constructor"}}}});
    let codes: Vec<_> = from_json_render(&unsafe_condition)
        .notes
        .iter()
        .map(|n| (n.code, n.path.clone()))
        .collect();
    assert_eq!(
        codes,
        [
            ("unsafe_path", "/elements/root/visible/$state".to_string()),
            ("prop_dropped", "/elements/root/visible".to_string())
        ]
    );
    let bad = from_json_render(&json!({"elements": {}}));
    assert_eq!(bad.notes[0].code, "not_json_render");
    let polluted = from_json_render(
        &json!({"root": "r", "elements": {"r": {"type": "Stack"}}, "state": {"a": {"__proto__": {}}}}),
    );
    let last = polluted.notes.last().unwrap();
    assert_eq!(
        (last.code, last.path.as_str()),
        ("unsafe_path", "/state/a/__proto__")
    );
    assert_eq!(polluted.surface["data"], json!({}));
}
