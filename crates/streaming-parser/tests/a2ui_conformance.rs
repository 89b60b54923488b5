//! A2UI's own conformance suites (`parser.yaml`, `streaming_parser.yaml`),
//! vendored in `tests/conformance/a2ui-v0.9/` and run against [`streaming_parser::a2ui`].
//! Prints the pass counts; fails if fewer cases pass than recorded here
//! (today every case of both suites, v0.8 and v0.9). A streaming case is
//! judged by what a renderer holds after each step (`a2ui_state`: prose, and
//! per surface its start, data and the components reachable from its root),
//! since the reference sends the whole reachable tree again on each change
//! and this reader only what changed.

use serde_json::{json, Value};
use streaming_parser::a2ui::{fix_payload, has_parts, parse_full, A2uiStream, Part, Version};
use testkit::properties::a2ui_state;

fn suite(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/../../tests/conformance/a2ui-v0.9/suites/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_yaml::from_str(&text).expect("the suite is YAML")
}

fn parts_json(parts: &[Part]) -> Value {
    Value::Array(parts.iter().map(Part::to_json).collect())
}

/// Runs one case; `Err` says why it failed.
fn run(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().unwrap_or_default();
    let expect_error = case["expect_error"].as_str();
    let check_error = |err: String| match expect_error {
        Some(want) if err.contains(want) => Ok(()),
        _ => Err(format!("error {err:?}")),
    };
    match case["action"].as_str().unwrap_or_default() {
        "parse_full" => match parse_full(input) {
            Ok(parts) if expect_error.is_none() => same(&parts_json(&parts), &case["expect"]),
            Ok(parts) => Err(format!("expected an error, got {}", parts_json(&parts))),
            Err(e) => check_error(e),
        },
        "fix_payload" => match fix_payload(input) {
            Ok(items) => same(&Value::Array(items), &case["expect"]),
            Err(e) => check_error(e),
        },
        "has_parts" => same(&Value::Bool(has_parts(input)), &case["expect"]),
        "process_chunk" => {
            let version = match case["catalog"]["version"].as_str() {
                Some("0.9") => Version::V09,
                _ => Version::V08,
            };
            let components = &case["catalog"]["catalog_schema"]["components"];
            let mut stream = A2uiStream::with_catalog_components(version, components);
            // The reference re-emits the whole reachable tree on each change,
            // this reader only what changed (SPEC.md section 11: work per
            // chunk proportional to the chunk): after every step, a renderer
            // holding the messages of each side holds the same surfaces.
            let (mut ours, mut want) = (Vec::new(), Vec::new());
            let held = |parts: &[Value]| a2ui_state(&json!({"parts": parts, "error": null}));
            for (i, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
                let chunk = step["input"].as_str().unwrap_or_default();
                match (stream.process_chunk(chunk), step["expect_error"].as_str()) {
                    (Ok(parts), None) => {
                        ours.extend(parts.iter().map(Part::to_json));
                        want.extend(step["expect"].as_array().into_iter().flatten().cloned());
                        same(&held(&ours), &held(&want)).map_err(|e| format!("step {i}: {e}"))?
                    }
                    (Err(e), Some(want)) if e.contains(want) => return Ok(()),
                    (Err(e), _) => return Err(format!("step {i}: error {e:?}")),
                    (Ok(parts), Some(want)) => {
                        return Err(format!(
                            "step {i}: expected error {want:?}, got {}",
                            parts_json(&parts)
                        ))
                    }
                }
            }
            Ok(())
        }
        other => Err(format!("unknown action {other}")),
    }
}

fn same(got: &Value, want: &Value) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("got {got}, want {want}"))
    }
}

fn report(name: &str, floor: usize, floor_v09: usize) {
    let cases = suite(name);
    let mut passed = 0;
    let (mut v09, mut v09_passed) = (0, 0);
    for case in &cases {
        let is_v09 = case["catalog"]["version"].as_str() == Some("0.9");
        let result = run(case);
        if is_v09 {
            v09 += 1;
        }
        match result {
            Ok(()) => {
                passed += 1;
                if is_v09 {
                    v09_passed += 1;
                }
            }
            Err(e) => println!("FAIL {name} {}: {e}", case["name"].as_str().unwrap_or("?")),
        }
    }
    println!(
        "{name}: {passed}/{} pass ({v09_passed}/{v09} of the v0.9 cases)",
        cases.len()
    );
    assert!(
        passed >= floor,
        "{name}: {passed} pass, fewer than the {floor} recorded"
    );
    assert!(
        v09_passed >= floor_v09,
        "{name}: {v09_passed} v0.9 cases pass, fewer than {floor_v09}"
    );
}

#[test]
fn parser_suite() {
    report("parser.yaml", 17, 0);
}

#[test]
fn streaming_parser_suite() {
    report("streaming_parser.yaml", 80, 42);
}
