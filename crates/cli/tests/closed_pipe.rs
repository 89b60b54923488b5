//! Every command that prints, run as the built binary with a reader that
//! stops reading (`surfaces validate big.json | head -c1`): the command ends
//! quietly with the exit code it would have had, with nothing on standard
//! error (no panic, no abort, no "Broken pipe").
//!
//! Each output is far larger than a pipe's buffer (64 KiB on Linux), so the
//! command is still writing when the reader is gone, whenever that happens.

mod common;

use common::{command, file, finish, surfaces};
use serde_json::json;

/// The smallest output each command must print here.
const LARGE: usize = 256 * 1024;

/// Runs `surfaces args` with `stdin` on standard input: once reading all of
/// its output (which must be larger than [`LARGE`]; its exit code is
/// returned), and once with standard output closed before it is read (its
/// exit code and standard error are returned; the command must still take
/// all of `stdin`).
fn exit_codes(args: &[&str], stdin: &str) -> (i32, i32, String) {
    let full = surfaces(args, stdin.as_bytes());
    assert!(
        full.stdout.len() > LARGE,
        "{args:?}: only {} bytes of output",
        full.stdout.len()
    );
    let mut child = command(args).spawn().expect("the surfaces binary runs");
    drop(child.stdout.take());
    let (closed, written) = finish(child, stdin.as_bytes());
    written.expect("stdin takes the input");
    (full.code, closed.code, closed.stderr)
}

#[test]
fn a_closed_standard_output_ends_every_command_quietly() {
    let prose = "Some **bold** words, `code` and a [link](https://example.com).\n\n";
    let body = prose.repeat(LARGE / prose.len() + 1);
    let md = file("body.md", &body);
    let bad = file(
        "bad.json",
        json!({"components": [{"id": "root", "component": "Stack", "children": ["gone"]}]})
            .to_string(),
    );
    let texts: Vec<String> = (0..199).map(|i| format!("t{i}")).collect();
    let mut components = vec![json!({"id": "root", "component": "Stack", "children": texts})];
    components.extend(
        texts.iter().map(
            |id| json!({"id": id, "component": "Text", "props": {"text": "word ".repeat(398)}}),
        ),
    );
    let surface = file(
        "surface.json",
        json!({"id": "s", "components": components}).to_string(),
    );
    let page = file(
        "page.json",
        json!({"sections": [{"kind": "prose", "text": body}]}).to_string(),
    );
    let ops = file("ops.json", "[]");
    let entries: serde_json::Map<String, serde_json::Value> = (0..5_000)
        .map(|i| {
            let entry = json!({"children": "none", "description": "Says it loudly.",
                "props": {"type": "object", "properties": {"text": {"type": "string"}}},
                "example": {"text": "x"}});
            (format!("Shout{i}"), entry)
        })
        .collect();
    let catalog = file(
        "catalog.json",
        json!({"catalog": "mine@1", "components": entries}).to_string(),
    );
    let many_bad: Vec<&str> = std::iter::repeat_n(bad.as_str(), 3_000).collect();

    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        ([&["validate"][..], &many_bad].concat(), "", 1),
        (vec!["render", &surface], "", 0),
        (vec!["patch", "--doc", &page, "--ops", &ops], "", 0),
        (vec!["heal"], &body, 0),
        (vec!["stream", "--chunk", "64", &md], "", 0),
        (vec!["prompt", "--catalog", &catalog], "", 0),
    ];
    for (args, stdin, code) in cases {
        let (full, closed, stderr) = exit_codes(&args, stdin);
        assert_eq!(full, code, "{}", args[0]);
        assert_eq!(closed, code, "{}: {stderr}", args[0]);
        assert!(stderr.is_empty(), "{}: {stderr}", args[0]);
    }
}
