//! `surfaces heal` and `surfaces stream`, run as the built binary.

mod common;

use common::{file, surfaces, Run};

fn lines(run: &Run) -> Vec<serde_json::Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

const ANSWER: &str = "Our plans changed.\n\n```surface {\"id\":\"pricing\",\"catalog\":\"blog@1\"}\n{\"data\":{\"billing\":\"monthly\"}}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"t\"]}\n{\"id\":\"t\",\"component\":\"Heading\",\"props\":{\"text\":\"Pri";

#[test]
fn heal_prints_the_healed_text() {
    let out = surfaces(&["heal"], b"Some **bold and `code");
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "Some **bold and `code`**");
    let out = surfaces(&["heal"], b"done.\n");
    assert_eq!(out.stdout, "done.\n");
}

#[test]
fn heal_refuses_arguments() {
    let out = surfaces(&["heal", "x"], b"");
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1);
}

#[test]
fn stream_prints_changes_then_the_final_document() {
    let path = file("answer.md", ANSWER);
    let out = surfaces(&["stream", "--chunk", "7", &path], b"");
    assert_eq!(out.code, 0);
    let lines = lines(&out);
    assert!(lines.len() > 3);
    let (last, changes) = lines.split_last().unwrap();
    assert!(changes
        .iter()
        .all(|c| c["op"].is_string() && c["block"].is_u64()));
    let blocks = last["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0]["kind"], "prose");
    assert_eq!(blocks[0]["complete"], true);
    let s = &blocks[1];
    assert_eq!(s["kind"], "surface");
    assert_eq!(s["complete"], false);
    assert_eq!(s["id"], "pricing");
    assert_eq!(s["catalog"], "blog@1");
    assert_eq!(s["data"], serde_json::json!({"billing":"monthly"}));
    assert_eq!(s["components"][0]["id"], "root");
    // The text ended inside a line: that line is read as the validator
    // reads it (not JSON), and no ghost is left once nothing more comes.
    assert_eq!(s["refused"][0]["line"], 6);
    assert_eq!(s["refused"][0]["code"], "invalid_line");
    assert_eq!(s["ghost"], serde_json::Value::Null);
    assert!(s["healed"].as_str().unwrap().ends_with("\n```"));
    // While it streams, the cut line is the ghost.
    let ghosts: Vec<_> = changes.iter().filter(|c| !c["ghost"].is_null()).collect();
    assert_eq!(
        ghosts.last().map(|c| &c["ghost"]),
        Some(
            &serde_json::json!({"id":"t","component":"Heading","props":{"text":"Pri"},"partial":true})
        )
    );
}

#[test]
fn final_only_prints_one_line_equal_for_any_chunking() {
    let path = &file("final.md", ANSWER);
    let whole = surfaces(&["stream", "--final-only", path], b"");
    assert_eq!(lines(&whole).len(), 1);
    for n in ["1", "3", "64"] {
        let chunked = surfaces(
            &[
                "stream",
                "--final-only",
                "--chunk",
                n,
                "--mode",
                "markdown",
                path,
            ],
            b"",
        );
        assert_eq!(chunked.stdout, whole.stdout, "chunk {n}");
    }
}

#[test]
fn jsonl_mode_reads_steps_text_and_the_partial_object() {
    let path = file(
        "answer.jsonl",
        "Sure:\n{\"op\":\"add\",\"path\":\"/a\",\"value\":1,}\n{\"ops\":[]} {\"op\":\"remove\",\"path\":\"/b\"}\n{\"op\":\"add\",\"value\":{\"text\":\"Hel",
    );
    let out = surfaces(
        &[
            "stream",
            "--mode",
            "jsonl",
            "--chunk",
            "5",
            "--final-only",
            &path,
        ],
        b"",
    );
    assert_eq!(out.code, 0);
    let doc = &lines(&out)[0];
    let kinds: Vec<_> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "step", "step", "step"]);
    assert_eq!(
        doc["partial"],
        serde_json::json!({"op":"add","value":{"text":"Hel"}})
    );
}

#[test]
fn a2ui_mode_reads_blocks_between_prose() {
    let path = file(
        "answer.a2ui",
        "Here: <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> done",
    );
    let out = surfaces(&["stream", "--mode", "a2ui", "--chunk", "4", &path], b"");
    assert_eq!(out.code, 0);
    let lines = lines(&out);
    let doc = lines.last().unwrap();
    assert_eq!(doc["parts"][0]["text"], "Here: ");
    assert_eq!(
        doc["parts"][0]["a2ui"][0]["createSurface"]["surfaceId"],
        "s"
    );
    assert_eq!(doc["error"], serde_json::Value::Null);
}

#[test]
fn a2ui_ops_bring_the_surface_up_to_date_message_by_message() {
    let v1 = |body: &str| format!("{{\"version\":\"v1.0\",{body}}}\n");
    let text = [
        v1(r#""createSurface":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["t"]},{"id":"t","component":"Text","text":{"path":"/name"}}]}"#),
        v1(r#""updateDataModel":{"surfaceId":"s","path":"/name","value":"Ada"}"#),
        v1(r#""updateDataModel":{"surfaceId":"s","path":"/__proto__/x","value":1}"#),
    ]
    .concat();
    let path = file("agent.jsonl", &text);
    let whole = surfaces(
        &["convert", "--from", "a2ui", "--to", "surface", &path],
        b"",
    );
    let whole: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
    for chunk in ["1", "9", "4096"] {
        let out = surfaces(
            &["stream", "--mode", "a2ui", "--ops", "--chunk", chunk, &path],
            b"",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let lines = lines(&out);
        let (last, ops) = lines.split_last().unwrap();
        // The whole surface once it has a root, then the one data member
        // (read whole, the messages come in one push: one operation).
        assert_eq!(
            (&ops[0]["op"], &ops[0]["path"]),
            (&"replace".into(), &"".into())
        );
        if chunk == "4096" {
            assert_eq!(ops.len(), 1);
        } else {
            assert_eq!(
                ops[1..],
                [serde_json::json!({"op": "add", "path": "/data/name", "value": "Ada"})]
            );
        }
        assert_eq!(last["document"], whole["document"], "chunk {chunk}");
        // The prototype path is refused and said so, with the message's pointer.
        assert_eq!(last["notes"][0]["code"], "unsafe_path");
        assert!(last["notes"][0]["path"].as_str().unwrap().starts_with("/2"));
    }
    let out = surfaces(
        &["stream", "--mode", "a2ui", "--ops", "--final-only", &path],
        b"",
    );
    assert_eq!(lines(&out).len(), 1);
}

#[test]
fn stream_usage_errors_exit_2() {
    let path = &file("u.md", "x");
    for args in [
        vec!["stream"],
        vec!["stream", "--chunk", "0", path],
        vec!["stream", "--chunk", "x", path],
        vec!["stream", "--mode", "html", path],
        vec!["stream", "--mode"],
        vec!["stream", "--bogus", path],
        vec!["stream", path, path],
        vec!["stream", "/nonexistent/answer.md"],
        vec!["stream", "--ops", path],
        vec!["stream", "--mode", "jsonl", "--ops", path],
    ] {
        let out = surfaces(&args, b"");
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}
