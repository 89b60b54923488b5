//! A draft re-checks only what an operation can change; what it reports must
//! equal a full validation after every operation.

use serde_json::{json, Value};
use testkit::Rng;
use validator_wasm::pipeline::Draft;
use validator_wasm::{validate_surface, Catalog};

fn surface() -> Value {
    let mut components =
        vec![json!({"id": "root", "component": "Stack", "children": ["h", "b", "t", "f", "x"]})];
    components
        .push(json!({"id": "h", "component": "Heading", "props": {"text": {"path": "/title"}}}));
    components.push(json!({"id": "b", "component": "Button", "props": {"label": "Go", "onClick": {"action": "toggle", "path": "/open"}}}));
    components.push(json!({"id": "t", "component": "Toggle", "props": {"options": ["a", "b"], "value": {"path": "/plan"}}, "visible": {"path": "/open"}}));
    components.push(json!({"id": "f", "component": "TextField", "props": {"label": "E", "value": {"path": "/email"}}}));
    components.push(json!({"id": "x", "component": "Nope", "props": {"a": 1}}));
    json!({"id": "s", "kind": "surface", "components": components, "data": {"title": "T", "open": true, "plan": "a", "email": ""}})
}

fn random_value(rng: &mut Rng) -> Value {
    let values = [
        json!("text"),
        json!(""),
        json!(3),
        json!(9),
        json!({"path": "/title"}),
        json!({"path": "/missing"}),
        json!({"path": "nope"}),
        json!({"path": "/__proto__"}),
        json!({"call": "concat", "args": {"values": ["a", {"path": "/plan"}]}}),
        json!({"call": "eval", "args": {}}),
        json!({"eq": [{"path": "/plan"}, "b"]}),
        json!({"gte": [1, 2]}),
        json!({"action": "set", "path": "/plan", "value": "b"}),
        json!({"action": "navigate", "href": "javascript:x"}),
        json!([{"call": "email", "args": {"value": {"path": "/email"}}, "message": "m"}]),
        json!(true),
        json!(null),
        json!({"text": "x"}),
    ];
    values[rng.below(values.len())].clone()
}

#[test]
fn incremental_checks_equal_full_validation() {
    let catalog = Catalog::default_blog();
    let keys = [
        "text", "level", "label", "onClick", "value", "options", "checks", "a", "href",
    ];
    for seed in 1..40u64 {
        let mut rng = Rng::new(seed * 0x9E37_79B9);
        let mut draft = Draft::new(surface());
        for _ in 0..40 {
            let index = 1 + rng.below(5);
            let op = match rng.below(5) {
                0 => {
                    json!({"op": "replace", "path": format!("/components/{index}/visible"), "value": random_value(&mut rng)})
                }
                1 => {
                    json!({"op": "remove", "path": format!("/components/{index}/props/{}", keys[rng.below(keys.len())])})
                }
                2 => {
                    json!({"op": "replace", "path": format!("/components/{index}/props"), "value": {"text": random_value(&mut rng)}})
                }
                3 => json!({"op": "test", "path": format!("/components/{index}/id"), "value": "h"}),
                _ => {
                    json!({"op": "add", "path": format!("/components/{index}/props/{}", keys[rng.below(keys.len())]), "value": random_value(&mut rng)})
                }
            };
            draft.apply(&json!([op]), &catalog);
            let full = validate_surface(draft.document(), &catalog);
            assert_eq!(draft.issues(&catalog), full, "after {op}");
        }
    }
}

#[test]
fn refused_operations_leave_the_draft_unchanged() {
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(surface());
    let before = draft.document().clone();
    let report = draft.apply(
        &json!([
            {"op": "replace", "path": "/components/1/props/text", "value": {"path": "/__proto__"}},
            {"op": "replace", "path": "/components/2/props/onClick", "value": {"action": "navigate", "href": "javascript:x"}},
            {"op": "remove", "path": "/components/0"}
        ]),
        &catalog,
    );
    assert!(report.applied.is_empty(), "{report:?}");
    assert_eq!(report.refused.len(), 3);
    assert_eq!(draft.document(), &before);
}

#[test]
fn pages_keep_their_other_sections_checked() {
    let catalog = Catalog::default_blog();
    let mut draft =
        Draft::new(json!({"sections": [surface(), {"kind": "prose", "text": "x"}, surface()]}));
    let ops = json!([
        {"op": "add", "path": "/sections/2/components/1/props/level", "value": 9},
        {"op": "add", "path": "/sections/0", "value": {"kind": "prose", "text": "new first"}},
        {"op": "replace", "path": "/sections/1/components/5/props", "value": {}}
    ]);
    let report = draft.apply(&ops, &catalog);
    assert_eq!(report.applied, [0, 1, 2]);
    let mut full = Vec::new();
    for (i, section) in draft.document()["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if section["kind"] == "surface" {
            for mut issue in validate_surface(section, &catalog) {
                issue.path = format!("/sections/{i}{}", issue.path);
                full.push(issue);
            }
        }
    }
    assert_eq!(draft.issues(&catalog), full);
}
