//! What the interop tests share: the validator's fixture surfaces,
//! components compared as json-render writes them, and what a round trip
//! through A2UI keeps of a component.

// Each test file uses what it needs of this module.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::path::Path;
use validator_wasm::{validate_surface, Catalog, Severity};

/// The validator's fixture surfaces (built-in catalog) with no error or
/// flag, each with its case's name.
pub fn fixture_surfaces() -> Vec<(String, Value)> {
    let catalog = Catalog::default_blog();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../validator-wasm/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
    {
        let suite: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for case in suite["cases"].as_array().into_iter().flatten() {
            let input = &case["input"];
            let usable = case["kind"] == "surface"
                && case.get("catalog").is_none()
                && input["components"].is_array()
                && validate_surface(input, &catalog)
                    .iter()
                    .all(|i| i.severity == Severity::Warning);
            if usable {
                out.push((
                    case["name"].as_str().unwrap_or_default().to_string(),
                    input.clone(),
                ));
            }
        }
    }
    out
}

/// A component without empty `props` or `children` (json-render always
/// writes both, and reads both back as none).
pub fn normalized(component: &Value) -> Value {
    let mut map = component.as_object().cloned().unwrap_or_default();
    map.retain(|k, v| !((k == "props" && v == &json!({})) || (k == "children" && v == &json!([]))));
    Value::Object(map)
}

/// The bindings in a value, in document order.
pub fn bindings(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) if map.len() == 1 && map.get("path").is_some_and(Value::is_string) => {
            out.push(value.clone())
        }
        Value::Object(map) => map.values().for_each(|v| bindings(v, out)),
        Value::Array(items) => items.iter().for_each(|v| bindings(v, out)),
        _ => {}
    }
}

/// What a round trip through A2UI keeps of a component: its id, its
/// children and its bindings.
pub fn kept(component: &Value) -> (Value, Value, Vec<Value>) {
    let mut found = Vec::new();
    bindings(&component["props"], &mut found);
    let children = component.get("children").cloned().unwrap_or(json!([]));
    (component["id"].clone(), children, found)
}
