//! Seed inputs for each property, read from what the repository already
//! holds: the validator's fixtures, the streaming corpus, the vendored
//! json-patch and A2UI suites, the built-in catalog's examples. `scripts/fuzz`
//! writes them where libFuzzer starts from (`fuzz/corpus/<target>/`, through
//! `cargo run -p testkit --features properties --bin seeds`), and
//! `tests/replay.rs` runs every one through its property.

extern crate std;

use crate::Rng;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json_file(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The files of a folder, sorted, as text.
fn folder(path: &str) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("a file")).into_owned())
        .collect()
}

/// Every case of the validator's fixture files.
fn fixture_cases() -> Vec<Value> {
    let mut cases = Vec::new();
    for name in [
        "actions",
        "apply_patch",
        "catalogs",
        "conditions",
        "data",
        "evaluate",
        "functions",
        "markdown",
        "pages",
        "patch",
        "props",
        "structure",
    ] {
        let file = json_file(&std::format!("crates/validator-wasm/fixtures/{name}.json"));
        cases.extend(file["cases"].as_array().cloned().unwrap_or_default());
    }
    cases
}

fn of_kind<'a>(cases: &'a [Value], kinds: &'a [&str]) -> impl Iterator<Item = &'a Value> + 'a {
    cases
        .iter()
        .filter(move |c| kinds.iter().any(|k| c["kind"] == *k))
}

/// The markdown answers: the streaming corpus and the markdown fixtures.
fn markdown(cases: &[Value]) -> Vec<String> {
    let mut out = folder("crates/streaming-parser/tests/corpus");
    out.extend(of_kind(cases, &["markdown"]).filter_map(|c| c["input"].as_str().map(String::from)));
    out
}

/// The lines inside the corpus' surface fences: complete JSON lines.
fn fence_lines(answers: &[String]) -> Vec<String> {
    answers
        .iter()
        .flat_map(|a| a.lines())
        .filter(|l| l.starts_with('{'))
        .map(String::from)
        .collect()
}

/// The text of each case of an A2UI streaming suite, its chunks joined.
fn a2ui_texts() -> Vec<String> {
    let suite: Value = serde_yaml::from_str(&read(
        "tests/conformance/a2ui-v0.9/suites/streaming_parser.yaml",
    ))
    .expect("the A2UI streaming suite is YAML");
    suite
        .as_array()
        .into_iter()
        .flatten()
        .map(|case| {
            case["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["input"].as_str())
                .collect()
        })
        .collect()
}

/// A random A2UI v1.0 stream: a surface, then components defined and
/// defined again (containers, labels, wrappers, templates, missing and
/// shared children, ids to rename) and data written and removed.
pub fn a2ui_stream(rng: &mut Rng) -> Vec<Value> {
    const IDS: [&str; 12] = [
        "root", "a", "b", "c", "d", "e", "box", "box-body", "Tab_1", "f", "g", "h",
    ];
    const PATHS: [&str; 7] = ["/a", "/a/b", "/list", "/list/0", "/t", "/u/v", ""];
    let v = "v1.0";
    let mut out = std::vec![json!({"version": v, "createSurface": {"surfaceId": "s"}})];
    for _ in 0..30 {
        if rng.below(4) == 0 {
            let values = [
                json!("x"),
                json!(1),
                json!({"b": "y"}),
                json!([{"t": "one"}, {"t": "two"}]),
                json!({"list": ["p"], "t": "q"}),
                Value::Null,
            ];
            let value = values[rng.below(values.len())].clone();
            let path = rng.pick(&PATHS);
            out.push(json!({"version": v, "updateDataModel": {"surfaceId": "s", "path": path, "value": value}}));
            continue;
        }
        let mut components = Vec::new();
        let mut ids: Vec<&str> = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let id = rng.pick(&IDS);
            if ids.contains(&id) {
                continue;
            }
            ids.push(id);
            let mut children =
                || -> Vec<&str> { (0..rng.below(4)).map(|_| rng.pick(&IDS)).collect() };
            let kids = children();
            let one = rng.pick(&IDS);
            let text = if rng.below(2) == 0 {
                json!(std::format!("text {id}"))
            } else {
                json!({"path": "/t"})
            };
            components.push(match rng.below(11) {
                0 | 1 => json!({"id": id, "component": "Column", "children": kids}),
                2 => json!({"id": id, "component": "Row", "children": kids, "justify": "center"}),
                3 | 4 => json!({"id": id, "component": "Text", "text": text}),
                5 => json!({"id": id, "component": "Button", "child": one, "action": {"event": {"name": "go"}}}),
                6 => json!({"id": id, "component": "Card", "child": std::format!("{id}-body")}),
                7 => json!({"id": id, "component": "Modal", "trigger": one, "content": rng.pick(&IDS)}),
                8 => json!({"id": id, "component": if rng.below(2) == 0 { "Divider" } else { "Image" }}),
                9 => json!({"id": id, "component": "List", "children": {"componentId": one, "path": "/list"}}),
                _ => json!({"id": id, "component": "Tabs", "tabs": [{"title": "T", "child": one}]}),
            });
        }
        out.push(
            json!({"version": v, "updateComponents": {"surfaceId": "s", "components": components}}),
        );
    }
    out
}

/// A2UI's basic-catalog examples (v0.9 and v1.0) as JSON Lines, and
/// random streams ([`a2ui_stream`]).
fn a2ui_streams() -> Vec<String> {
    let lines =
        |messages: &[Value]| -> String { messages.iter().map(|m| m.to_string() + "\n").collect() };
    let mut out = Vec::new();
    for dir in [
        "tests/conformance/a2ui-v0.9/specification/v0_9/catalogs/basic/examples",
        "tests/conformance/a2ui-v1/specification/v1_0/catalogs/basic/examples",
    ] {
        for text in folder(dir) {
            let value: Value = serde_json::from_str(&text).expect("an example is JSON");
            let list = match value {
                Value::Array(list) => list,
                other => other["messages"].as_array().cloned().unwrap_or_default(),
            };
            out.push(lines(&list));
        }
    }
    for seed in 0..40 {
        out.push(lines(&a2ui_stream(&mut Rng::new(seed))));
    }
    out
}

/// The `[doc, patch]` of every json-patch-tests case.
fn json_patch_cases() -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for file in ["tests.json", "spec_tests.json"] {
        let suite = json_file(&std::format!("tests/conformance/json-patch-tests/{file}"));
        for case in suite.as_array().into_iter().flatten() {
            out.push((case["doc"].clone(), case["patch"].clone()));
        }
    }
    out
}

/// The seeds of the property `target` (a name of [`crate::properties::ALL`]).
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let cases = fixture_cases();
    let surfaces = || {
        of_kind(&cases, &["surface", "document", "page"])
            .map(|c| c["input"].to_string())
            .collect::<Vec<_>>()
    };
    let texts: Vec<String> = match target {
        "partial_json" | "json" => {
            let mut out = fence_lines(&markdown(&cases));
            out.extend(surfaces());
            // Operations, whose value is cut as the prop they write.
            out.extend(of_kind(&cases, &["patch"]).map(|c| c["ops"].to_string()));
            out
        }
        "jsonl" => {
            let mut out = markdown(&cases);
            out.extend(of_kind(&cases, &["patch"]).map(|c| {
                c["ops"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|op| op.to_string() + "\n")
                    .collect()
            }));
            out
        }
        "markdown_stream" | "fence_lines" => markdown(&cases),
        "a2ui" => a2ui_texts(),
        "a2ui_import" => a2ui_streams(),
        // Each path of a json-patch-tests operation, with the document it
        // applies to.
        "pointer" => json_patch_cases()
            .iter()
            .flat_map(|(doc, patch)| {
                let ops = patch.as_array().cloned().unwrap_or_default();
                ops.into_iter()
                    .filter_map(|op| Some(std::format!("{}\n{doc}", op["path"].as_str()?)))
                    .collect::<Vec<_>>()
            })
            .collect(),
        "apply_patch" => {
            let mut out: Vec<String> = json_patch_cases()
                .iter()
                .map(|(doc, patch)| json!([doc, patch]).to_string())
                .collect();
            out.extend(
                of_kind(&cases, &["apply_patch"])
                    .map(|c| json!([c["input"], c["ops"]]).to_string()),
            );
            out
        }
        "validate" => {
            let mut out = surfaces();
            out.extend(
                of_kind(&cases, &["patch"]).map(|c| json!([c["input"], c["ops"]]).to_string()),
            );
            out
        }
        "render" => {
            let mut out = surfaces();
            out.extend(markdown(&cases).into_iter().take(40));
            out
        }
        "functions" => of_kind(&cases, &["condition", "function", "call", "evaluate"])
            .map(|c| json!([c["input"], c["data"]]).to_string())
            .collect(),
        other => panic!("no property {other}"),
    };
    texts.into_iter().map(String::into_bytes).collect()
}
