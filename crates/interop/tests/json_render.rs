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

    // Export: json-render orders numbers only, so a text compared in order
    // (written, or what the data holds at a path) is left out and noted; a
    // number, or a path to one or to nothing yet, compared in order is kept.
    let ordered = |operand: Value| {
        let visible = json!({"lt": [{"path": "/name"}, operand]});
        let surface = json!({"id": "s", "components": [{"id": "root", "component": "Text",
            "props": {"text": "hi"}, "visible": visible}], "data": {"label": "x", "max": 9}});
        to_json_render(&surface)
    };
    let path_to_text = ordered(json!({"path": "/label"}));
    assert_eq!(path_to_text.spec["elements"]["root"].get("visible"), None);
    assert_eq!(path_to_text.notes[0].code, "prop_dropped");
    let text = ordered(json!("m"));
    assert_eq!(text.spec["elements"]["root"].get("visible"), None);
    let codes: Vec<_> = text
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert_eq!(codes, [("prop_dropped", "/components/0/visible")]);
    for (operand, written) in [
        (json!(3), json!(3)),
        (json!({"path": "/max"}), json!({"$state": "/max"})),
    ] {
        let out = ordered(operand);
        assert_eq!(
            out.spec["elements"]["root"]["visible"],
            json!({"$state": "/name", "lt": written})
        );
        assert!(out.notes.is_empty(), "{:?}", out.notes);
    }
}

/// A spec as json-render's models stream it: `/root`, then each element,
/// then each state member, one RFC 6902 `add` per line.
fn spec_stream(spec: &Value) -> String {
    let mut lines = vec![json!({"op": "add", "path": "/root", "value": spec["root"]})];
    for (key, element) in spec["elements"].as_object().into_iter().flatten() {
        let path = ["/elements/", &key.replace('~', "~0").replace('/', "~1")].concat();
        lines.push(json!({"op": "add", "path": path, "value": element}));
    }
    for (key, value) in spec["state"].as_object().into_iter().flatten() {
        let path = ["/state/", &key.replace('~', "~0").replace('/', "~1")].concat();
        lines.push(json!({"op": "add", "path": path, "value": value}));
    }
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

#[test]
fn a_spec_stream_drives_a_draft_to_the_surface_of_the_whole_spec() {
    use interop::json_render::JsonRenderImport;
    use validator_wasm::patch::apply_patch;
    use validator_wasm::pipeline::Draft;
    let catalog = Catalog::default_blog();
    let mut driven = 0;
    for (name, surface) in fixture_surfaces() {
        let spec = to_json_render(&surface).spec;
        let expected = from_json_render(&spec).surface;
        let text = spec_stream(&spec);
        let mut reference = Draft::new(json!({}));
        reference.apply(
            &json!([{"op": "replace", "path": "", "value": expected}]),
            &catalog,
        );
        for chunk in [text.len(), 1, 17] {
            let mut import = JsonRenderImport::new("");
            let (mut plain, mut draft) = (json!({}), Draft::new(json!({})));
            let mut pushes: Vec<Vec<Value>> = text
                .as_bytes()
                .chunks(chunk)
                .map(|c| import.push_bytes(c))
                .collect();
            pushes.push(import.finish());
            for ops in pushes {
                let ops = Value::Array(ops);
                plain = apply_patch(&plain, &ops).unwrap_or_else(|e| panic!("{name}: {e:?}"));
                draft.apply(&ops, &catalog);
            }
            assert_eq!(plain, expected, "{name} (chunk {chunk})");
            assert_eq!(import.notes(), [], "{name}");
            assert_eq!(
                draft.document(),
                reference.document(),
                "{name} (chunk {chunk})"
            );
        }
        driven += 1;
    }
    assert!(driven >= 10, "{driven}");
}

#[test]
fn a_spec_stream_creates_what_is_missing_and_notes_what_does_not_apply() {
    use interop::json_render::JsonRenderImport;
    let mut import = JsonRenderImport::new("/sections/1");
    let ops = import.push_value(&json!([
        {"op": "add", "path": "/root", "value": "main"},
        // json-render creates `/elements` and `/state/user` on the way.
        {"op": "add", "path": "/elements/main", "value": {"type": "Heading", "props": {"text": {"$state": "/user/name"}}}},
        {"op": "replace", "path": "/state/user/name", "value": "Ada"},
    ]));
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0]["path"], "/sections/1");
    assert_eq!(ops[0]["value"]["data"], json!({"user": {"name": "Ada"}}));
    // One that does not apply is noted at its line; the spec is as it was.
    let before = import.spec().clone();
    let ops = import.push_text(concat!(
        r#"{"op": "remove", "path": "/elements/gone"}"#,
        "\n",
        r#"{"op": "add", "path": "/state/__proto__/x", "value": 1}"#,
        "\n",
        "{\"op\": \"add\", \"path\": }\n",
        r#"{"op": "replace", "path": "/state/user/name", "value": "Grace"}"#,
        "\n",
    ));
    assert_eq!(
        ops,
        [json!({"op": "replace", "path": "/sections/1/data/user/name", "value": "Grace"})]
    );
    let notes = import.notes();
    let codes: Vec<(&str, &str)> = notes.iter().map(|n| (n.code, n.path.as_str())).collect();
    assert_eq!(
        codes[..2],
        [("path_not_found", "/3"), ("unsafe_path", "/4")],
        "{notes:?}"
    );
    assert_eq!(import.spec()["state"]["user"]["name"], "Grace");
    assert_eq!(import.spec()["elements"], before["elements"]);
}

#[test]
fn a_child_streamed_before_its_parent_names_it_waits_in_the_import_not_in_the_draft() {
    // The element first, then the link to it: every operation the import
    // gives applies, and nothing is left held for the end of the round.
    use interop::json_render::JsonRenderImport;
    use validator_wasm::pipeline::Draft;
    let catalog = Catalog::default_blog();
    let mut import = JsonRenderImport::new("");
    let mut draft = Draft::new(json!({}));
    let lines = [
        json!({"op": "add", "path": "/root", "value": "main"}),
        json!({"op": "add", "path": "/elements/main", "value": {"type": "Stack", "props": {}, "children": []}}),
        json!({"op": "add", "path": "/elements/title", "value": {"type": "Heading", "props": {"text": "Hi"}, "children": []}}),
        json!({"op": "add", "path": "/elements/main/children/-", "value": "title"}),
    ];
    for line in &lines {
        let report = draft.apply(&Value::Array(import.push_value(line)), &catalog);
        assert_eq!((report.refused.len(), report.held.len()), (0, 0), "{line}");
    }
    draft.apply(&Value::Array(import.finish()), &catalog);
    assert_eq!(draft.settle(&catalog), []);
    assert_eq!(draft.document()["components"][1]["id"], "title");
    // The whole spec with an element nothing names: left out, noted.
    let spec = json!({"root": "main", "elements": {
        "main": {"type": "Stack", "props": {}, "children": []},
        "lost": {"type": "Text", "props": {"text": "x"}, "children": []}}});
    let out = from_json_render(&spec);
    assert_eq!(out.surface["components"].as_array().unwrap().len(), 1);
    let notes: Vec<_> = out
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert!(
        notes.contains(&("not_reachable", "/elements/lost")),
        "{notes:?}"
    );
}

#[test]
fn a_replace_just_past_a_list_end_appends_as_json_render_does() {
    // @json-render/core's applySpecStreamPatch: replace /state/list/0 makes
    // the list, replace /state/arr/- and /state/arr/<length> append, and
    // one further past the end is not applied (noted here).
    use interop::json_render::JsonRenderImport;
    let mut import = JsonRenderImport::new("");
    for op in [
        json!({"op": "add", "path": "/state", "value": {"arr": [1]}}),
        json!({"op": "replace", "path": "/state/list/0", "value": "x"}),
        json!({"op": "replace", "path": "/state/arr/-", "value": 2}),
        json!({"op": "replace", "path": "/state/arr/2", "value": 3}),
        json!({"op": "replace", "path": "/state/arr/9", "value": 9}),
    ] {
        import.push_value(&op);
    }
    assert_eq!(
        import.spec()["state"],
        json!({"arr": [1, 2, 3], "list": ["x"]})
    );
    let codes: Vec<_> = import
        .notes()
        .iter()
        .map(|n| (n.code, n.path.clone()))
        .collect();
    assert_eq!(codes, [("path_not_found", "/4".to_string())]);
}

#[test]
fn a_write_past_the_json_nesting_limit_is_noted_too_deep_and_left_out() {
    use interop::json_render::JsonRenderImport;
    let mut import = JsonRenderImport::new("");
    import.push_value(&json!({"op": "add", "path": "/root", "value": "main"}));
    import.push_value(&json!({"op": "add", "path": "/elements/main", "value": {"type": "Text", "props": {"text": "Hi"}}}));
    // The spec is level 1, its state 2: /state then 126 segments nest 127.
    for (segments, kept) in [(126, true), (127, false), (5_000, false)] {
        let path = ["/state", &"/a".repeat(segments)].concat();
        import.push_value(&json!({"op": "add", "path": path, "value": 1}));
        assert_eq!(
            import.spec()["state"].get("a").is_some(),
            kept,
            "{segments}"
        );
        import.push_value(&json!({"op": "remove", "path": "/state"}));
    }
    let deep: Vec<_> = import
        .notes()
        .into_iter()
        .filter(|n| n.code == "too_deep")
        .collect();
    assert_eq!(
        deep.iter().map(|n| n.path.as_str()).collect::<Vec<_>>(),
        ["/4", "/6"]
    );
    // Still working: the surface converts, its text reads back.
    let surface = import.surface().expect("a surface").clone();
    let text = surfaces_core::json::text(&surface);
    assert_eq!(surfaces_core::json::parse(&text).unwrap(), surface);
}
