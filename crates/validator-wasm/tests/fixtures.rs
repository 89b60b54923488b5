//! Runs the language-neutral fixture suite in `fixtures/` natively.

use serde_json::{json, Value};
use std::path::Path;
use surfaces_core::function::{evaluate, PlainHost, Value as Out};
use validator_wasm::markdown::validate_markdown;
use validator_wasm::patch::apply_patch;
use validator_wasm::pipeline::patch;
use validator_wasm::{validate_document, validate_surface, Catalog, Issue};

fn catalog_of(case: &Value) -> Result<Catalog, String> {
    match case.get("catalog") {
        None => Ok(Catalog::default_blog()),
        Some(c) => Catalog::from_value(c).map_err(|e| e.to_string()),
    }
}

/// The issue fields a fixture pins: code, severity, path, and line and
/// surface when the fixture gives them.
fn pinned(issues: &[Issue], expected: &Value) -> Value {
    let with_place = expected.as_array().is_some_and(|e| {
        e.iter()
            .any(|i| i.get("line").is_some() || i.get("surface").is_some())
    });
    Value::Array(
        issues
            .iter()
            .map(|i| {
                let mut v =
                    json!({"code": i.code, "severity": i.severity.as_str(), "path": i.path});
                if with_place {
                    if let Some(line) = i.line {
                        v["line"] = line.into();
                    }
                    if let Some(surface) = &i.surface {
                        v["surface"] = surface.clone().into();
                    }
                }
                v
            })
            .collect(),
    )
}

fn run(case: &Value) -> Result<(), String> {
    let kind = case["kind"].as_str().unwrap_or_default();
    let expect = &case["expect"];
    let input = &case["input"];
    let check = |got: Value, want: &Value| {
        if &got == want {
            Ok(())
        } else {
            Err(format!("got  {got}\nwant {want}"))
        }
    };
    match kind {
        "surface" => {
            let issues = validate_surface(input, &catalog_of(case)?);
            check(pinned(&issues, &expect["issues"]), &expect["issues"])
        }
        "document" => {
            let issues = validate_document(input, &catalog_of(case)?);
            check(pinned(&issues, &expect["issues"]), &expect["issues"])
        }
        "markdown" => {
            let issues = validate_markdown(input.as_str().unwrap_or_default(), &catalog_of(case)?);
            check(pinned(&issues, &expect["issues"]), &expect["issues"])
        }
        "patch" => {
            let out = patch(input, &case["ops"], &catalog_of(case)?);
            let repairs: Vec<Value> = out
                .repairs
                .iter()
                .map(|r| json!({"code": r.code, "path": r.path, "from": r.from, "to": r.to}))
                .collect();
            let refused: Vec<Value> =
                out.refused.iter().map(|r| json!({"op": r.op, "codes": r.issues.iter().map(|i| i.code).collect::<Vec<_>>()})).collect();
            let mut got = json!({"applied": out.applied, "repairs": repairs, "refused": refused});
            if expect.get("document").is_some() {
                got["document"] = out.document;
            }
            check(got, expect)
        }
        "apply_patch" => {
            let got = match apply_patch(input, &case["ops"]) {
                Ok(doc) => json!({"document": doc}),
                Err(e) => json!({"error": {"op": e.op, "code": e.code}}),
            };
            check(got, expect)
        }
        "catalog" => {
            let got = match Catalog::from_value(input) {
                Ok(_) => json!({"error": null}),
                Err(e) => json!({"error": {"code": e.code, "path": e.path}}),
            };
            check(got, expect)
        }
        "condition" => {
            let got = surfaces_core::condition::evaluate(&input, &&case["data"]);
            check(json!({"result": got}), expect)
        }
        "function" => {
            let got = match evaluate(&input, &&case["data"], &PlainHost) {
                None | Some(Out::Missing) => Value::Null,
                Some(Out::Data(v)) => v.clone(),
                Some(Out::Text(t)) => t.into(),
                Some(Out::Number(n)) => json!(n),
                Some(Out::Bool(b)) => b.into(),
            };
            // Numbers compare by value (3 == 3.0).
            let same = surfaces_core::json_equal(&&got, &&expect["result"]);
            if same {
                Ok(())
            } else {
                Err(format!("got {got}, want {}", expect["result"]))
            }
        }
        other => Err(format!("unknown fixture kind {other:?}")),
    }
}

#[test]
fn every_fixture_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    let mut codes = std::collections::BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let suite: Value = serde_json::from_str(&text).expect("fixture file is JSON");
        for case in suite["cases"].as_array().expect("cases") {
            total += 1;
            for issue in case["expect"]["issues"].as_array().into_iter().flatten() {
                codes.insert(issue["code"].as_str().unwrap_or_default().to_string());
            }
            if let Err(e) = run(case) {
                failures.push(format!(
                    "{} / {}:\n{e}",
                    file.file_name().unwrap_or_default().to_string_lossy(),
                    case["name"]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} fixtures failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(total >= 150, "only {total} fixtures");
    // Every code of SPEC.md section 1 (and the body codes of section 8) appears.
    for code in [
        "invalid_id",
        "duplicate_id",
        "no_root",
        "unresolved_child",
        "multiple_parents",
        "cycle",
        "unreachable",
        "too_deep",
        "too_many_components",
        "data_too_large",
        "too_many_surfaces",
        "unknown_field",
        "unknown_component",
        "invalid_prop",
        "children_not_allowed",
        "invalid_pointer",
        "unsafe_path",
        "missing_data",
        "unknown_function",
        "invalid_args",
        "invalid_condition",
        "unknown_action",
        "invalid_action",
        "unsafe_href",
        "unknown_source",
        "invalid_query",
        "source_not_allowed",
        "unclosed_fence",
        "duplicate_surface_id",
        "invalid_line",
    ] {
        assert!(codes.contains(code), "no fixture covers {code}");
    }
}
