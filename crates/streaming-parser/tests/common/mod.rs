//! The harness of A2UI's agent conformance suites (`parser.yaml`,
//! `streaming_parser.yaml`), shared by the v0.9 suites' test
//! (`a2ui_conformance.rs`) and the v1.0 ones' (`a2ui_v1_conformance.rs`).
//!
//! A case names its protocol version (`catalog.version: "0.9"` in the v0.9
//! suites, `catalog.protocol_version: "v0.9"` in the v1.0 ones; none is
//! v0.8) and its error as a string or as `{category, message}`. An error
//! passes when it contains the reference's message and is of its category
//! ([`category`]). A streaming case is judged by what a renderer holds after
//! each step (`a2ui_state`: prose, and per surface its start, data and the
//! components reachable from its root), since the reference sends the whole
//! reachable tree again on each change and this reader only what changed
//! (SPEC.md section 11: work per chunk proportional to the chunk).

use serde_json::{json, Value};
use std::collections::BTreeMap;
use streaming_parser::a2ui::{
    fix_payload, has_parts, parse_full, parse_full_as, A2uiStream, Part, Version,
};
use testkit::properties::a2ui_state;

/// The cases of a vendored suite, by its path under `tests/conformance/`.
pub fn suite(path: &str) -> Vec<Value> {
    let path = format!(
        "{}/../../tests/conformance/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_yaml::from_str(&text).expect("the suite is YAML")
}

/// The protocol version a case's catalog names, if any.
fn version_of(case: &Value) -> Option<Version> {
    let catalog = &case["catalog"];
    let named = catalog["protocol_version"]
        .as_str()
        .or(catalog["version"].as_str())?;
    Some(match named.trim_start_matches('v') {
        "0.8" => Version::V08,
        "1.0" => Version::V10,
        _ => Version::V09,
    })
}

/// The version a case is counted under: its catalog's, else v0.8 (a
/// streaming case without one) or none (a whole-answer case).
fn label(case: &Value) -> &'static str {
    match version_of(case) {
        Some(Version::V08) => "v0.8",
        Some(Version::V09) => "v0.9",
        Some(Version::V10) => "v1.0",
        None if case["action"] == "process_chunk" => "v0.8",
        None => "no version",
    }
}

/// The reference's error category of one of this reader's errors, told by
/// its wording (the reader says its errors as sentences, SPEC.md section 11).
pub fn category(error: &str) -> &'static str {
    if ["Circular reference detected", "Self-reference detected"]
        .iter()
        .any(|p| error.starts_with(p))
    {
        "RecursionError"
    } else if ["not found in response", "part is empty", "Failed to parse"]
        .iter()
        .any(|p| error.contains(p))
    {
        "ParseError"
    } else {
        "ValidationError"
    }
}

/// Whether `error` is the one `want` (`expect_error`) describes.
fn is_expected(error: &str, want: &Value) -> bool {
    let (message, kind) = match want {
        Value::String(message) => (message.as_str(), None),
        other => (
            other["message"].as_str().unwrap_or_default(),
            other["category"].as_str(),
        ),
    };
    error.contains(message) && kind.is_none_or(|k| k == category(error))
}

fn parts_json(parts: &[Part]) -> Value {
    Value::Array(parts.iter().map(Part::to_json).collect())
}

fn same(got: &Value, want: &Value) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("got {got}, want {want}"))
    }
}

/// Runs one case; `Err` says why it failed.
pub fn run(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().unwrap_or_default();
    let want_error = &case["expect_error"];
    let check_error = |err: String| match is_expected(&err, want_error) {
        true => Ok(()),
        false => Err(format!("error {err:?}, want {want_error}")),
    };
    match case["action"].as_str().unwrap_or_default() {
        "parse_full" => {
            // A case with a catalog is read as its version's messages.
            let parsed = match version_of(case) {
                Some(version) => parse_full_as(input, version),
                None => parse_full(input),
            };
            match parsed {
                Ok(parts) if want_error.is_null() => same(&parts_json(&parts), &case["expect"]),
                Ok(parts) => Err(format!("expected an error, got {}", parts_json(&parts))),
                Err(e) => check_error(e),
            }
        }
        "fix_payload" => match fix_payload(input) {
            Ok(items) => same(&Value::Array(items), &case["expect"]),
            Err(e) => check_error(e),
        },
        "has_parts" => same(&Value::Bool(has_parts(input)), &case["expect"]),
        "process_chunk" => run_chunks(case),
        other => Err(format!("unknown action {other}")),
    }
}

/// A streaming case: after every step, a renderer holding the messages of
/// each side holds the same surfaces.
fn run_chunks(case: &Value) -> Result<(), String> {
    let version = version_of(case).unwrap_or(Version::V08);
    let catalog = &case["catalog"];
    let mut stream = if case["disable_validation"] == true {
        A2uiStream::new(version)
    } else {
        A2uiStream::with_catalog_components(version, &catalog["catalog_schema"]["components"])
    };
    let keys = catalog["custom_cuttable_keys"].as_array();
    let keys: Vec<&str> = keys
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if !keys.is_empty() {
        stream = stream.with_cuttable_keys(&keys);
    }
    let (mut ours, mut want) = (Vec::new(), Vec::new());
    let held = |parts: &[Value]| a2ui_state(&json!({"parts": parts, "error": null}));
    for (i, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let chunk = step["input"].as_str().unwrap_or_default();
        let want_error = &step["expect_error"];
        match (stream.process_chunk(chunk), want_error.is_null()) {
            (Ok(parts), true) => {
                ours.extend(parts.iter().map(Part::to_json));
                want.extend(step["expect"].as_array().into_iter().flatten().cloned());
                same(&held(&ours), &held(&want)).map_err(|e| format!("step {i}: {e}"))?
            }
            (Err(e), false) if is_expected(&e, want_error) => return Ok(()),
            (Err(e), _) => return Err(format!("step {i}: error {e:?}, want {want_error}")),
            (Ok(parts), false) => {
                return Err(format!(
                    "step {i}: expected error {want_error}, got {}",
                    parts_json(&parts)
                ))
            }
        }
    }
    Ok(())
}

/// Runs every case of a suite and prints its pass count (in all and per
/// protocol version); fails when fewer than `floor` pass, or a case fails
/// that `known` does not list with its reason (a rule A2UI has that this
/// reader does not, by design). Returns the passes per version.
pub fn report(path: &str, floor: usize, known: &[(&str, &str)]) -> BTreeMap<&'static str, usize> {
    let cases = suite(path);
    let mut passed = 0;
    let mut by_version: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let tally = by_version.entry(label(case)).or_default();
        tally.1 += 1;
        match run(case) {
            Ok(()) => {
                passed += 1;
                tally.0 += 1;
                if let Some((_, why)) = known.iter().find(|(n, _)| *n == name) {
                    println!("PASS {path} {name}, listed as failing: {why}");
                }
            }
            Err(e) => match known.iter().find(|(n, _)| *n == name) {
                Some((_, why)) => println!("KNOWN {path} {name}: {why} ({e})"),
                None => {
                    println!("FAIL {path} {name}: {e}");
                    unexplained.push(name);
                }
            },
        }
    }
    let versions: Vec<String> = by_version
        .iter()
        .map(|(v, (p, n))| format!("{p}/{n} {v}"))
        .collect();
    println!(
        "{path}: {passed}/{} pass ({})",
        cases.len(),
        versions.join(", ")
    );
    assert!(
        passed >= floor,
        "{path}: {passed} pass, fewer than the {floor} recorded"
    );
    assert!(
        unexplained.is_empty(),
        "{path}: failing without a reason listed: {unexplained:?}"
    );
    by_version.into_iter().map(|(v, (p, _))| (v, p)).collect()
}
