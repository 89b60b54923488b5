//! `surfaces convert`: A2UI, json-render and surfaces into one another,
//! `{"document", "notes", "issues"}` on standard output, exit 1 when the
//! surfaces have validation errors, 2 on bad usage.

mod common;

use common::{file, surfaces};
use serde_json::{json, Value};

fn example(relative: &str) -> String {
    [
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/conformance/",
        relative,
    ]
    .concat()
}

fn output(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn an_a2ui_example_becomes_a_surface_and_goes_back() {
    let modal = example("a2ui-v0.9/specification/v0_9/catalogs/basic/examples/36_modal.json");
    let run = surfaces(
        &["convert", "--from", "a2ui", "--to", "surface", &modal],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = output(&run.stdout);
    assert_eq!(out["document"]["id"], "modal-sample-surface");
    assert_eq!(out["document"]["components"][2]["component"], "Disclosure");
    // The surface's sendDataModel has no place in a surface document, and
    // the trigger's own action none on a Disclosure's summary.
    let codes: Vec<&str> = out["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n["code"].as_str())
        .collect();
    assert_eq!(codes, ["prop_dropped", "event_dropped"], "{}", out["notes"]);
    assert_eq!(out["issues"], json!([]));

    let surface = file("convert/modal.json", out["document"].to_string());
    let run = surfaces(
        &[
            "convert",
            "--from",
            "surface",
            "--to",
            "a2ui",
            "--version",
            "v0.9",
            &surface,
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let messages = output(&run.stdout)["document"].clone();
    assert_eq!(messages[0]["version"], "v0.9");
    assert_eq!(
        messages[1]["updateComponents"]["components"][0]["component"],
        "Column"
    );

    let run = surfaces(
        &[
            "convert",
            "--from",
            "surface",
            "--to",
            "json-render",
            &surface,
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(output(&run.stdout)["document"]["root"], "root");
}

#[test]
fn json_render_and_a2ui_lines_convert_with_their_notes() {
    let spec = json!({"root": "main", "elements": {
        "main": {"type": "Stack", "props": {}, "children": ["t"]},
        "t": {"type": "Text", "props": {"text": {"$state": "/x"}}, "visible": {"$state": "/x", "neq": ""}}},
        "state": {"x": "hi"}});
    let path = file("convert/spec.json", spec.to_string());
    let run = surfaces(
        &["convert", "--from", "json-render", "--to", "surface", &path],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = output(&run.stdout);
    assert_eq!(
        out["document"]["components"][1]["visible"],
        json!({"ne": [{"path": "/x"}, ""]})
    );
    assert_eq!(
        out["notes"],
        json!([{"code": "renamed_id", "path": "/elements/main", "message": "element main is component root here"}])
    );

    let lines = [
        r#"{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}}"#,
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Image","url":"https://x"}]}}"#,
    ]
    .join("\n");
    let path = file("convert/lines.jsonl", lines);
    let run = surfaces(
        &["convert", "--from", "a2ui", "--to", "surface", &path],
        b"",
    );
    // The only component has no equivalent: no root, an error.
    assert_eq!(run.code, 1, "{}", run.stdout);
    let out = output(&run.stdout);
    assert_eq!(out["notes"][0]["code"], "no_equivalent");
    assert_eq!(out["notes"][0]["path"], "/1/updateComponents/components/0");
    assert!(
        out["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["code"] == "no_root"),
        "{out}"
    );
}

#[test]
fn bad_usage_exits_2_and_refused_input_1() {
    let path = file(
        "convert/surface.json",
        r#"{"id":"s","components":[{"id":"root","component":"Stack"}]}"#,
    );
    for args in [
        &["convert", "--to", "surface", path.as_str()][..],
        &["convert", "--from", "a2ui", "--to", "html", path.as_str()],
        &[
            "convert",
            "--from",
            "surface",
            "--to",
            "surface",
            "--version",
            "v1.0",
            path.as_str(),
        ],
        &[
            "convert",
            "--from",
            "surface",
            "--to",
            "a2ui",
            "--version",
            "v0.8",
            path.as_str(),
        ],
        &["convert", "--from", "surface", "--to", "a2ui"],
        &[
            "convert",
            "--from",
            "surface",
            "--to",
            "a2ui",
            "missing-file.json",
        ],
    ] {
        let run = surfaces(args, b"");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(
            run.stderr.starts_with("surfaces convert: "),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
    let broken = file("convert/broken.json", "{not json");
    let run = surfaces(
        &["convert", "--from", "surface", "--to", "a2ui", &broken],
        b"",
    );
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("invalid_json"), "{}", run.stderr);
}
