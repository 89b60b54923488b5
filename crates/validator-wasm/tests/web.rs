//! The fixture suite through the WASM build, in Chromium: the exports must
//! agree with the native core case for case. Run with
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -p validator-wasm --test web`.
#![cfg(target_arch = "wasm32")]

use serde_json::{json, Value};
use validator_wasm::wasm::{
    apply_patch, patch, validate, validate_component, validate_markdown, Draft, LoadedCatalog,
};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const FILES: [(&str, &str); 10] = [
    ("pages", include_str!("../fixtures/pages.json")),
    ("structure", include_str!("../fixtures/structure.json")),
    ("props", include_str!("../fixtures/props.json")),
    ("functions", include_str!("../fixtures/functions.json")),
    ("conditions", include_str!("../fixtures/conditions.json")),
    ("actions", include_str!("../fixtures/actions.json")),
    ("data", include_str!("../fixtures/data.json")),
    ("markdown", include_str!("../fixtures/markdown.json")),
    ("patch", include_str!("../fixtures/patch.json")),
    ("apply_patch", include_str!("../fixtures/apply_patch.json")),
];

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The pinned fields of the issues the export returned.
fn pinned(issues: &Value, expected: &Value) -> Value {
    let with_place = expected.as_array().is_some_and(|e| {
        e.iter()
            .any(|i| i.get("line").is_some() || i.get("surface").is_some())
    });
    let list = issues.as_array().cloned().unwrap_or_default();
    Value::Array(
        list.iter()
            .map(|i| {
                let mut v =
                    json!({"code": i["code"], "severity": i["severity"], "path": i["path"]});
                if with_place {
                    for key in ["line", "surface"] {
                        if let Some(x) = i.get(key) {
                            v[key] = x.clone();
                        }
                    }
                }
                v
            })
            .collect(),
    )
}

fn run(case: &Value) -> Result<(), String> {
    let catalog = LoadedCatalog::new(case.get("catalog").map(Value::to_string))
        .map_err(|_| "the catalog threw".to_string())?;
    let catalog = &catalog;
    let expect = &case["expect"];
    let input = &case["input"];
    let got = match case["kind"].as_str().unwrap_or_default() {
        "surface" | "document" => {
            let out = validate(&input.to_string(), catalog);
            json!({"issues": pinned(&parse(&out), &expect["issues"])})
        }
        "markdown" => {
            let out = validate_markdown(input.as_str().unwrap_or_default(), catalog);
            json!({"issues": pinned(&parse(&out), &expect["issues"])})
        }
        "patch" => {
            let out = parse(
                &patch(&input.to_string(), &case["ops"].to_string(), catalog)
                    .map_err(|_| "threw".to_string())?,
            );
            let repairs: Vec<Value> = out["repairs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| json!({"code": r["code"], "path": r["path"], "from": r["from"], "to": r["to"]}))
                .collect();
            let refused: Vec<Value> = out["refused"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    let codes: Vec<Value> = r["issues"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|i| i["code"].clone())
                        .collect();
                    json!({"op": r["op"], "codes": codes})
                })
                .collect();
            let mut got =
                json!({"applied": out["applied"], "repairs": repairs, "refused": refused});
            if expect.get("document").is_some() {
                got["document"] = out["document"].clone();
            }
            got
        }
        "apply_patch" => {
            let out = parse(
                &apply_patch(&input.to_string(), &case["ops"].to_string())
                    .map_err(|_| "threw".to_string())?,
            );
            if out["ok"] == true {
                json!({"document": out["document"]})
            } else {
                json!({"error": {"op": out["error"]["op"], "code": out["error"]["code"]}})
            }
        }
        other => return Err(format!("kind {other} is not run here")),
    };
    if &got == expect {
        Ok(())
    } else {
        Err(format!("got {got}, want {expect}"))
    }
}

#[wasm_bindgen_test]
fn fixtures_agree_with_the_native_core() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (file, text) in FILES {
        for case in parse(text)["cases"].as_array().into_iter().flatten() {
            total += 1;
            if let Err(e) = run(case) {
                failures.push(format!("{file} / {}: {e}", case["name"]));
            }
        }
    }
    assert!(total > 250, "{total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[wasm_bindgen_test]
fn json_patch_suite_through_apply_patch() {
    for text in [
        include_str!("../../../tests/conformance/json-patch-tests/tests.json"),
        include_str!("../../../tests/conformance/json-patch-tests/spec_tests.json"),
    ] {
        for case in parse(text).as_array().into_iter().flatten() {
            if case["disabled"] == true {
                continue;
            }
            let out = parse(
                &apply_patch(&case["doc"].to_string(), &case["patch"].to_string())
                    .unwrap_or_default(),
            );
            match case.get("expected") {
                Some(expected) => assert_eq!(&out["document"], expected, "{}", case["comment"]),
                None if case.get("error").is_some() => {
                    assert_eq!(out["ok"], false, "{}", case["comment"])
                }
                None => assert_eq!(out["ok"], true, "{}", case["comment"]),
            }
        }
    }
}

fn builtin() -> LoadedCatalog {
    LoadedCatalog::new(None).unwrap_or_else(|_| panic!("the built-in catalog loads"))
}

#[wasm_bindgen_test]
fn bad_catalogs_throw_and_bad_documents_do_not() {
    assert!(LoadedCatalog::new(Some("{\"catalog\":\"x\",\"components\":{\"A\":{\"props\":{\"type\":\"object\",\"pattern\":\"a\"}}}}".into())).is_err());
    let out = parse(&validate(&"[".repeat(100_000), &builtin()));
    assert_eq!(out[0]["code"], "invalid_json");
    let huge = format!("\"{}\"", "x".repeat(10 * 1024 * 1024));
    let out = parse(&validate(&huge, &builtin()));
    assert_eq!(out[0]["code"], "document_too_large");
    assert!(patch("{", "[]", &builtin()).is_err());
}

#[wasm_bindgen_test]
fn prompt_and_component_checks() {
    let catalog = builtin();
    assert_eq!(catalog.name(), "blog@1");
    assert!(catalog.components().iter().any(|c| c == "Heading"));
    let prompt = catalog.prompt();
    assert!(prompt.starts_with("# Writing surfaces for the catalog blog@1"));
    assert_eq!(prompt, builtin().prompt());
    let out = parse(
        &validate_component(
            r#"{"id":"t","component":"Heading","props":{"text":{"path":"/x"}}}"#,
            "/components/3",
            &catalog,
            Some("{}".into()),
        )
        .unwrap_or_default(),
    );
    assert_eq!(
        out,
        json!([{"severity": "warning", "code": "missing_data", "path": "/components/3/props/text/path",
        "message": "the bound path \"/x\" does not resolve in data; add it to data or fix the path"}])
    );
}

#[wasm_bindgen_test]
fn a_draft_applies_operations_in_memory() {
    let doc = r#"{"components":[{"id":"root","component":"Stack","children":["t"]},{"id":"t","component":"Heading","props":{"text":"Hi"}}]}"#;
    let mut draft = Draft::new(doc, &builtin()).unwrap_or_else(|_| panic!("loads"));
    let report = parse(&draft.apply(r#"[{"op":"replace","path":"/components/t/props/text","value":"Yo"},{"op":"add","path":"/components/1/props/text","value":{"path":"/__proto__"}}]"#).unwrap_or_default());
    assert_eq!(report["applied"], json!([0]));
    assert_eq!(report["refused"][0]["issues"][0]["code"], "unsafe_path");
    assert_eq!(
        parse(&draft.document())["components"][1]["props"]["text"],
        "Yo"
    );
    assert_eq!(draft.issues(), "[]");
    // A child whose link comes in the next call waits; settle ends the round.
    let report = parse(&draft.apply(r#"{"op":"add","path":"/components/-","value":{"id":"u","component":"Text","props":{"text":"u"}}}"#).unwrap_or_default());
    assert_eq!(report["held"], json!([2]));
    assert_eq!(parse(&draft.settle())["refused"][0]["op"], 2);
    assert!(Draft::new("{", &builtin()).is_err());
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function surfaceWithLoneSurrogate() {
  return '{\"components\":[{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"t\"]},' +
    '{\"id\":\"t\",\"component\":\"Heading\",\"props\":{\"text\":\"a\\uD800b\\\\u0000c\"}}]}';
}
export function escapedLoneSurrogate() {
  return '{\"components\":[],\"data\":{\"x\":\"\\\\uDC00\"}}';
}")]
extern "C" {
    #[wasm_bindgen(js_name = surfaceWithLoneSurrogate)]
    fn surface_with_lone_surrogate() -> String;
    #[wasm_bindgen(js_name = escapedLoneSurrogate)]
    fn escaped_lone_surrogate() -> String;
}

#[wasm_bindgen_test]
fn strings_from_js_with_lone_surrogates_and_nul_do_not_break_anything() {
    // The raw surrogate arrives as U+FFFD; an escaped NUL is an ordinary character.
    let text = surface_with_lone_surrogate();
    assert!(
        text.contains('\u{fffd}') && text.contains("\\u0000"),
        "{text}"
    );
    assert_eq!(validate(&text, &builtin()), "[]");
    // An escaped lone surrogate is not valid JSON text: an issue, no panic.
    let out = parse(&validate(&escaped_lone_surrogate(), &builtin()));
    assert_eq!(out[0]["code"], "invalid_json");
}
