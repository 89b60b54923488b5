//! `surfaces validate`, `surfaces patch` and `surfaces prompt`, run as the built binary.

mod common;

use common::{file, surfaces, Run};
use serde_json::{json, Value};

fn good_surface() -> Value {
    json!({"id": "pricing", "kind": "surface", "catalog": "blog@1",
        "components": [
            {"id": "root", "component": "Stack", "children": ["title"]},
            {"id": "title", "component": "Heading", "props": {"text": {"path": "/headline"}}}
        ],
        "data": {"headline": "Pricing"}})
}

fn json_out(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", run.stdout))
}

#[test]
fn validate_accepts_a_good_surface() {
    let f = file("good/good.json", good_surface().to_string());
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        json_out(&run),
        json!({"ok": true, "files": [{"file": f, "ok": true, "issues": []}]})
    );
}

#[test]
fn validate_reports_errors_with_exit_1() {
    let mut doc = good_surface();
    doc["components"][1]["props"]["level"] = json!(9);
    doc["components"][1]["extra"] = json!(1);
    let bad = file("bad/bad.json", doc.to_string());
    let good = file("bad/good.json", good_surface().to_string());
    let run = surfaces(&["validate", &good, &bad], b"");
    assert_eq!(run.code, 1);
    let out = json_out(&run);
    assert_eq!(out["ok"], false);
    assert_eq!(out["files"][0]["ok"], true);
    assert_eq!(out["files"][1]["ok"], false);
    assert_eq!(
        out["files"][1]["issues"],
        json!([
            {"severity": "flag", "code": "invalid_prop", "path": "/components/1/props/level", "message": "must be at most 6"},
            {"severity": "error", "code": "unknown_field", "path": "/components/1/extra",
             "message": "a component has only id, component, props, children and visible; move \"extra\" into props or remove it"}
        ])
    );
}

#[test]
fn flags_and_warnings_alone_exit_0() {
    let mut doc = good_surface();
    doc["data"] = json!({});
    let f = file("warn/warn.json", doc.to_string());
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 0);
    assert_eq!(
        json_out(&run)["files"][0]["issues"][0]["code"],
        "missing_data"
    );
}

#[test]
fn validate_reads_markdown_bodies_with_surface_and_line() {
    let body = "# Post\n\n```surface {\"id\":\"pricing\"}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"x\"]}\nnot json\n```\n";
    let f = file("md/post.md", body);
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 1);
    let issues = json_out(&run)["files"][0]["issues"].clone();
    assert_eq!(issues[0]["code"], "unresolved_child");
    assert_eq!(issues[0]["surface"], "pricing");
    assert_eq!(issues[0]["line"], 4);
    assert_eq!(issues[1]["code"], "invalid_line");
    assert_eq!(issues[1]["line"], 5);
}

#[test]
fn validate_with_a_user_catalog() {
    let catalog = json!({"catalog": "mini@1", "components": {
        "Box": {"children": "any", "props": {"type": "object"}, "example": {}}}});
    let c = file("cat/catalog.json", catalog.to_string());
    let doc = json!({"components": [{"id": "root", "component": "Box"}, {"id": "h", "component": "Heading"}]});
    let f = file("cat/doc.json", doc.to_string());
    let run = surfaces(&["validate", "--catalog", &c, &f], b"");
    assert_eq!(run.code, 1);
    let issues = json_out(&run)["files"][0]["issues"].clone();
    let codes: Vec<&str> = issues
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["unreachable", "unknown_component"]);
}

#[test]
fn validate_reads_page_documents() {
    let mut bad = good_surface();
    bad["components"][0]["children"] = json!(["title", "gone"]);
    let page = json!({"sections": [{"kind": "prose", "text": "Hi"}, bad]});
    let f = file("page/page.json", page.to_string());
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 1);
    let issue = json_out(&run)["files"][0]["issues"][0].clone();
    assert_eq!(issue["code"], "unresolved_child");
    assert_eq!(issue["path"], "/sections/1/components/0/children/1");
    assert_eq!(issue["surface"], "pricing");
}

#[test]
fn broken_json_is_an_issue_not_a_crash() {
    let f = file("broken/broken.json", "{\"components\": [");
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 1);
    assert_eq!(
        json_out(&run)["files"][0]["issues"][0]["code"],
        "invalid_json"
    );
    let deep = file("broken/deep.json", "[".repeat(100_000));
    let run = surfaces(&["validate", &deep], b"");
    assert_eq!(run.code, 1);
    assert_eq!(
        json_out(&run)["files"][0]["issues"][0]["code"],
        "invalid_json"
    );
}

#[test]
fn bad_usage_and_unreadable_input_exit_2_with_one_line() {
    for args in [
        vec!["validate"],
        vec!["validate", "/nonexistent/x.json"],
        vec!["validate", "--catalog"],
        vec!["validate", "--colour", "x", "a.json"],
        vec!["patch", "--doc", "x.json"],
        vec!["prompt", "extra"],
        vec!["prompt", "--catalog", "/nonexistent/c.json"],
    ] {
        let run = surfaces(&args, b"");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let bad_catalog = file(
        "usage/bad-catalog.json",
        r#"{"catalog":"x","components":{"A":{"props":{"type":"object","pattern":"x"}}}}"#,
    );
    let doc = file("usage/doc.json", "{}");
    let run = surfaces(&["validate", "--catalog", &bad_catalog, &doc], b"");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown_keyword"), "{}", run.stderr);
}

#[test]
fn patch_applies_repairs_and_refuses() {
    let doc = file(
        "patch/doc.json",
        json!({"sections": [{"kind": "prose", "text": "hi"}, good_surface()]}).to_string(),
    );
    let ops = json!([
        {"op": "add", "path": "/sections/1/components/title/props/level", "value": 3},
        {"op": "add", "path": "/sections/1/components/-", "value": {"id": "note", "component": "Text", "props": {"text": "x"}}},
        {"op": "add", "path": "/sections/1/components/0/children/-", "value": "note"},
        {"op": "add", "path": "/sections/1/components/0/children/-", "value": "ghost"}
    ]);
    let ops = file("patch/ops.json", ops.to_string());
    let run = surfaces(&["patch", "--doc", &doc, "--ops", &ops], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = json_out(&run);
    assert_eq!(out["applied"], json!([0, 1, 2]));
    assert_eq!(out["repairs"][0]["code"], "rewrite_path");
    assert_eq!(
        out["repairs"][0]["to"],
        "/sections/1/components/1/props/level"
    );
    assert_eq!(
        out["document"]["sections"][1]["components"][0]["children"],
        json!(["title", "note"])
    );
    assert_eq!(out["refused"][0]["code"], "VALIDATION_FAILED");
    assert_eq!(out["refused"][0]["op"], 3);
    assert_eq!(out["refused"][0]["issues"][0]["code"], "unresolved_child");
    assert_eq!(
        out["refused"][0]["issues"][0]["path"],
        "/sections/1/components/0/children/2"
    );

    let clean = file(
        "patch/clean.json",
        json!([{"op": "test", "path": "/sections/0/kind", "value": "prose"}]).to_string(),
    );
    let run = surfaces(&["patch", "--doc", &doc, "--ops", &clean], b"");
    assert_eq!(run.code, 0);
    assert_eq!(json_out(&run)["applied"], json!([0]));
}

#[test]
fn prompt_is_deterministic_text_for_any_catalog() {
    let a = surfaces(&["prompt"], b"");
    let b = surfaces(&["prompt"], b"");
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout);
    for needle in ["### pricing-table", "- formatCurrency:", "## Conditions", "## Actions", "```surface {\"id\":\"example\",\"catalog\":\"blog@1\"}\n{\"id\":\"root\",\"component\":\"Stack\""] {
        assert!(a.stdout.contains(needle), "{needle}");
    }
    let catalog = json!({"catalog": "mini@1", "components": {
        "Box": {"description": "A box.", "children": "any", "props": {"type": "object", "properties": {"pad": {"type": "integer", "minimum": 0, "maximum": 4}}}, "example": {"pad": 1}}}});
    let c = file("prompt/catalog.json", catalog.to_string());
    let run = surfaces(&["prompt", "--catalog", &c], b"");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("### Box\nA box.\nChildren: any components.\nProps:\n- pad: integer, 0 to 4\nExample props: {\"pad\":1}"), "{}", run.stdout);
    assert!(!run.stdout.contains("Heading"));
}

#[test]
fn render_reports_a_surface_file_that_is_not_json_as_validate_does() {
    // Exit 1 with the issues on standard output, never HTML (docs/reference.md).
    let broken = file("render/broken.json", "{\"components\": [");
    let run = surfaces(&["render", &broken], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = json_out(&run);
    assert_eq!(
        (&out["ok"], &out["issues"][0]["code"]),
        (&json!(false), &json!("invalid_json"))
    );
}

#[test]
fn render_formats_in_the_locale_given_and_refuses_a_tag_intl_would_throw_on() {
    let surface = json!({"components": [
        {"id": "root", "component": "Stack", "children": ["p"]},
        {"id": "p", "component": "Text", "props": {"text": {"call": "formatNumber", "args": {"value": 1.005, "style": "percent"}}}}]});
    let f = file("render/locale.json", surface.to_string());
    let run = surfaces(&["render", "--locale", "de-DE", &f], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("lang=\"de-DE\""), "{}", run.stdout);
    // A percent scales in decimal, as Intl does: 100.5, so 101.
    assert!(run.stdout.contains(">101\u{a0}%<"), "{}", run.stdout);
    for tag in ["en_US", "x", "root", "en-a"] {
        let run = surfaces(&["render", "--locale", tag, &f], b"");
        assert_eq!(run.code, 2, "{tag}: {}", run.stdout);
        assert!(
            run.stderr.contains("is no language tag"),
            "{tag}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_json_file_that_is_not_utf8_is_its_own_invalid_json_issue_and_the_others_are_still_read() {
    let bad = file("utf8/latin1.json", b"{\"components\":[{\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":\"caf\xe9\"}}]}");
    let good = file(
        "utf8/good.json",
        json!({"components": [{"id": "root", "component": "Stack"}]}).to_string(),
    );
    let run = surfaces(&["validate", &bad, &good], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = json_out(&run);
    assert_eq!(out["files"][0]["issues"][0]["code"], "invalid_json");
    assert_eq!(out["files"][0]["issues"][0]["path"], "");
    assert!(out["files"][0]["issues"][0]["message"]
        .as_str()
        .unwrap()
        .contains("offset 67"));
    assert_eq!(out["files"][1]["ok"], true);
    // One file: render and patch refuse it with that issue (exit 1), not as bad usage.
    let run = surfaces(&["render", &bad], b"");
    assert_eq!(
        (run.code, json_out(&run)["issues"][0]["code"].clone()),
        (1, json!("invalid_json"))
    );
    let ops = file("utf8/ops.json", "[]");
    assert_eq!(
        surfaces(&["patch", "--doc", &bad, "--ops", &ops], b"").code,
        1
    );
    // A markdown body is read as the stream reads it: the bad byte as U+FFFD.
    let body = file("utf8/body.md", b"Caf\xe9 prices.\n");
    let run = surfaces(&["validate", &body], b"");
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn bad_usage_is_one_line_on_standard_error_and_help_lists_the_commands() {
    let run = surfaces(&[], b"");
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
    let help = surfaces(&["--help"], b"");
    assert_eq!(help.code, 0);
    for command in [
        "render", "heal", "stream", "validate", "patch", "prompt", "convert",
    ] {
        assert!(
            run.stderr.contains(command) && help.stdout.contains(command),
            "{command}"
        );
    }
}

#[test]
fn a_markdown_body_is_known_by_its_extension_in_any_case() {
    let body = "```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[]}\n```\n";
    for name in ["upper/BODY.MD", "upper/Body.Markdown"] {
        let run = surfaces(&["validate", &file(name, body)], b"");
        assert_eq!(run.code, 0, "{name}: {}", run.stdout);
    }
}

#[test]
fn a_byte_order_mark_that_opens_a_file_is_not_read() {
    // As a Windows editor saves files: the BOM, then the text.
    let bom = |text: String| [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat();
    let f = file("bom/surface.json", bom(good_surface().to_string()));
    let run = surfaces(&["validate", &f], b"");
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(json_out(&run)["files"][0]["issues"], json!([]));
    let catalog = json!({"catalog": "mini@1", "components": {
        "Box": {"children": "any", "props": {"type": "object"}, "example": {}}}});
    let c = file("bom/catalog.json", bom(catalog.to_string()));
    let doc = json!({"components": [{"id": "root", "component": "Box"}]});
    let d = file("bom/doc.json", bom(doc.to_string()));
    let run = surfaces(&["validate", "--catalog", &c, &d], b"");
    assert_eq!(run.code, 0, "{} {}", run.stdout, run.stderr);
    let md = file("bom/post.md", bom("# Title\n\nText.\n".into()));
    let run = surfaces(&["render", &md], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('\u{feff}'), "{}", run.stdout);
    // Only one that opens the file: elsewhere it is the text's own.
    let inside = file("bom/inside.json", format!("[\u{feff}{}]", good_surface()));
    let run = surfaces(&["validate", &inside], b"");
    assert_eq!(run.code, 1);
    assert_eq!(
        json_out(&run)["files"][0]["issues"][0]["code"],
        "invalid_json"
    );
}
