//! `surfaces heal` and `surfaces stream`, run as the built binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn surfaces(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_surfaces"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the surfaces binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin takes the input");
    child.wait_with_output().expect("the binary ends")
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("surfaces-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file");
    path
}

fn lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

const ANSWER: &str = "Our plans changed.\n\n```surface {\"id\":\"pricing\",\"catalog\":\"blog@1\"}\n{\"data\":{\"billing\":\"monthly\"}}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"t\"]}\n{\"id\":\"t\",\"component\":\"Heading\",\"props\":{\"text\":\"Pri";

#[test]
fn heal_prints_the_healed_text() {
    let out = surfaces(&["heal"], "Some **bold and `code");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Some **bold and `code`**"
    );
    let out = surfaces(&["heal"], "done.\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done.\n");
}

#[test]
fn heal_refuses_arguments() {
    let out = surfaces(&["heal", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn stream_prints_changes_then_the_final_document() {
    let file = temp_file("answer.md", ANSWER);
    let out = surfaces(&["stream", "--chunk", "7", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0));
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
    let file = temp_file("final.md", ANSWER);
    let path = file.to_str().unwrap();
    let whole = surfaces(&["stream", "--final-only", path], "");
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
            "",
        );
        assert_eq!(chunked.stdout, whole.stdout, "chunk {n}");
    }
}

#[test]
fn jsonl_mode_reads_steps_text_and_the_partial_object() {
    let file = temp_file(
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
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
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
    let file = temp_file(
        "answer.a2ui",
        "Here: <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> done",
    );
    let out = surfaces(
        &[
            "stream",
            "--mode",
            "a2ui",
            "--chunk",
            "4",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
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
fn stream_usage_errors_exit_2() {
    let file = temp_file("u.md", "x");
    let path = file.to_str().unwrap();
    for args in [
        vec!["stream"],
        vec!["stream", "--chunk", "0", path],
        vec!["stream", "--chunk", "x", path],
        vec!["stream", "--mode", "html", path],
        vec!["stream", "--mode"],
        vec!["stream", "--bogus", path],
        vec!["stream", path, path],
        vec!["stream", "/nonexistent/answer.md"],
    ] {
        let out = surfaces(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
}
