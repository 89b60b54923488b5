//! One size rule for every command, run as the built binary: input that
//! `surfaces validate` refuses as `document_too_large` (over
//! `MAX_DOCUMENT_BYTES`) is refused by `render`, `patch`, `heal` (on
//! standard input) and `stream` too, with the same code and exit 1, and no
//! command reads further than one byte past the limit.

mod common;

use common::{file, surfaces};
use validator_wasm::surface::MAX_DOCUMENT_BYTES;

/// A markdown body of exactly `len` bytes (prose, then spaces).
fn body(len: usize) -> Vec<u8> {
    let mut text = "Some **bold** words.\n\n".repeat(len / 22).into_bytes();
    text.resize(len, b' ');
    text
}

/// A surface of exactly `len` bytes (white space pads it).
fn surface(len: usize) -> Vec<u8> {
    let mut text =
        br#"{"components":[{"id":"root","component":"Text","props":{"text":"hi"}}]}"#.to_vec();
    text.resize(len, b' ');
    text
}

/// The code `surfaces validate` gives the file (its first issue), if any.
fn validate_code(path: &str) -> Option<String> {
    let run = surfaces(&["validate", path], b"");
    let out: serde_json::Value = serde_json::from_str(&run.stdout).expect("validate prints JSON");
    out["files"][0]["issues"][0]["code"]
        .as_str()
        .map(str::to_string)
}

#[test]
fn every_command_refuses_what_validate_refuses_for_its_size() {
    for (len, refused) in [(MAX_DOCUMENT_BYTES, false), (MAX_DOCUMENT_BYTES + 1, true)] {
        let md = file(&format!("body-{len}.md"), body(len));
        let json = file(&format!("surface-{len}.json"), surface(len));
        let ops = file("ops.json", b"[]");
        assert_eq!(
            validate_code(&md).as_deref() == Some("document_too_large"),
            refused,
            "{len}"
        );
        assert_eq!(
            validate_code(&json).as_deref() == Some("document_too_large"),
            refused,
            "{len}"
        );
        let stdin = body(len);
        for (args, input) in [
            (vec!["render", &md], &b""[..]),
            (vec!["render", &json], b""),
            (vec!["patch", "--doc", &json, "--ops", &ops], b""),
            (vec!["heal"], &stdin),
            (vec!["stream", "--final-only", &md], b""),
            (vec!["stream", "--mode", "jsonl", &md], b""),
        ] {
            let run = surfaces(&args, input);
            if !refused {
                assert_eq!(run.code, 0, "{args:?} {len}: {}", run.stderr);
                continue;
            }
            assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
            let said = [run.stdout.as_str(), &run.stderr].concat();
            assert!(said.contains("document_too_large"), "{args:?}: {said}");
            assert!(!run.stdout.contains("<div"), "{args:?}: rendered");
            if args[0] != "render" {
                // Only render prints its issues (as JSON) on standard output.
                assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
                assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
            }
        }
    }
}

/// Standard input far past the limit (64 MiB) is refused, not healed; the
/// command reads one byte past the limit, so an endless pipe ends too.
#[test]
fn heal_refuses_a_huge_standard_input() {
    let run = surfaces(&["heal"], &vec![b'x'; 64 * 1024 * 1024]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("document_too_large"), "{}", run.stderr);
}

/// A `--doc` that validate refuses as not JSON is refused by patch with
/// the same code and exit code (it was exit 2 with no code).
#[test]
fn patch_refuses_a_document_validate_refuses_with_its_code() {
    let doc = file("notjson.json", b"{not json");
    let ops = file("ops2.json", b"[]");
    assert_eq!(validate_code(&doc).as_deref(), Some("invalid_json"));
    let run = surfaces(&["patch", "--doc", &doc, "--ops", &ops], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("invalid_json"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let run = surfaces(&["patch", "--doc", &ops, "--ops", &doc], b"");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("invalid_json"), "{}", run.stderr);
}
