//! The json-patch-tests conformance suite, vendored in `tests/conformance/json-patch-tests/`.

use serde_json::Value;
use validator_wasm::patch::{apply_patch, apply_patch_in_place};

fn run(file: &str) -> usize {
    let path = [
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/conformance/json-patch-tests/",
        file,
    ]
    .concat();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Vec<Value> = serde_json::from_str(&text).expect("suite is JSON");
    let mut ran = 0;
    for case in &cases {
        if case.get("disabled").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        ran += 1;
        let comment = case
            .get("comment")
            .and_then(Value::as_str)
            .unwrap_or("(no comment)");
        let doc = &case["doc"];
        let result = apply_patch(doc, &case["patch"]);
        if let Some(expected) = case.get("expected") {
            assert_eq!(
                result.as_ref().ok(),
                Some(expected),
                "{file}: {comment}: {result:?}"
            );
        } else if case.get("error").is_some() {
            assert!(
                result.is_err(),
                "{file}: {comment}: expected an error, got {result:?}"
            );
        } else {
            assert!(result.is_ok(), "{file}: {comment}: {result:?}");
        }
    }
    ran
}

#[test]
fn failed_patches_are_undone_in_place_even_after_several_operations() {
    let doc = serde_json::json!({"a": {"x": 1, "y": 2, "z": 3}, "l": [1, 2, 3]});
    let patch = serde_json::json!([
        {"op": "remove", "path": "/a/y"},
        {"op": "add", "path": "/a/x", "value": 9},
        {"op": "move", "from": "/l/0", "path": "/a/w"},
        {"op": "copy", "from": "/a", "path": "/l/1"},
        {"op": "replace", "path": "", "value": 1},
        {"op": "test", "path": "", "value": 2}
    ]);
    let mut work = doc.clone();
    let e = apply_patch_in_place(&mut work, &patch).unwrap_err();
    assert_eq!(e.op, 5);
    assert_eq!(work, doc);
    // Key order is restored too.
    assert_eq!(
        work["a"]
            .as_object()
            .map(|m| m.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["x".into(), "y".into(), "z".into()])
    );
}

#[test]
fn every_enabled_case_of_tests_json() {
    assert_eq!(run("tests.json"), 92);
}

#[test]
fn every_enabled_case_of_spec_tests_json() {
    assert_eq!(run("spec_tests.json"), 16);
}
