//! A fence line means one thing to every reader (SPEC.md section 8): for
//! every answer of the streaming corpus and every markdown fixture of the
//! validator, the stream fed in random chunkings gives the surfaces, the
//! refused lines and the codes that `validate_markdown` reports on the
//! whole body.

use serde_json::Value;
use std::collections::BTreeSet;
use streaming_parser::MarkdownStream;
use testkit::Rng;
use validator_wasm::markdown::{read_body, validate_markdown};
use validator_wasm::{Catalog, Issue};

/// Codes a reader gives a line by its text alone (or a fence info line).
const LINE_CODES: [&str; 3] = ["invalid_line", "line_too_long", "data_too_large"];
/// Codes about the body rather than one surface.
const BODY_CODES: [&str; 3] = [
    "too_many_surfaces",
    "duplicate_surface_id",
    "unclosed_fence",
];

fn bodies() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("the corpus directory exists")
        .map(|e| e.expect("a directory entry").path())
        .map(|p| {
            let text = std::fs::read(&p).expect("a corpus file");
            let name = p.display().to_string();
            (name, String::from_utf8_lossy(&text).into_owned())
        })
        .collect();
    out.sort();
    let fixtures = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../validator-wasm/fixtures/markdown.json"
    );
    let text = std::fs::read_to_string(fixtures).expect("the markdown fixtures");
    let suite: Value = serde_json::from_str(&text).expect("fixtures are JSON");
    for case in suite["cases"].as_array().expect("cases") {
        if case.get("catalog").is_none() {
            let name = ["fixture: ", case["name"].as_str().unwrap_or_default()].concat();
            let input = case["input"].as_str().unwrap_or_default();
            // The last line ends the text, with or without a line ending.
            let trimmed = input.trim_end_matches('\n');
            if trimmed != input {
                out.push(([&name, " (no final newline)"].concat(), trimmed.to_string()));
            }
            out.push((name, input.to_string()));
        }
    }
    out
}

/// The final blocks of `text` fed in chunks cut at `cuts` (byte offsets,
/// anywhere, inside a character too).
fn stream(text: &str, cuts: &[usize]) -> Vec<Value> {
    let mut stream = MarkdownStream::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        stream.push_bytes(&bytes[at..cut]);
        at = cut;
    }
    stream.finish();
    let doc = stream.document();
    doc["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .filter(|b| b["kind"] == "surface")
        .cloned()
        .collect()
}

type Verdict = (u64, String, String, String);

fn verdict(line: u64, code: &str, path: &str, severity: &str) -> Verdict {
    (line, code.into(), path.into(), severity.into())
}

fn issue_verdict(i: &Issue) -> Verdict {
    verdict(
        i.line.unwrap_or(0) as u64,
        i.code,
        &i.path,
        i.severity.as_str(),
    )
}

/// Compares what the stream gave with what the validator reports; `Err`
/// says how they differ.
fn agree(text: &str, blocks: &[Value], issues: &[Issue]) -> Result<(), String> {
    // The same surfaces, in order.
    let streamed: Vec<(Value, Value)> = blocks
        .iter()
        .filter(|b| !b["id"].is_null())
        .map(|b| (b["id"].clone(), b["catalog"].clone()))
        .collect();
    let body = read_body(text);
    let read: Vec<(Value, Value)> = body
        .surfaces
        .iter()
        .map(|s| (Value::from(s.id.clone()), s.catalog.clone().into()))
        .collect();
    if streamed != read {
        return Err(format!("surfaces: stream {streamed:?}, validator {read:?}"));
    }
    // The same fences closed.
    let closed: Vec<bool> = blocks
        .iter()
        .filter(|b| !b["id"].is_null())
        .map(|b| b["complete"] == true)
        .collect();
    let read_closed: Vec<bool> = body.surfaces.iter().map(|s| s.closed).collect();
    if closed != read_closed {
        return Err(format!(
            "closed: stream {closed:?}, validator {read_closed:?}"
        ));
    }
    // The same lines refused by their text, with the same codes.
    let mut line_refusals: Vec<(u64, String)> = Vec::new();
    for b in blocks {
        for r in b["refused"].as_array().into_iter().flatten() {
            let code = r["code"].as_str().unwrap_or_default();
            // A refused fence info refuses the whole fence; otherwise only
            // the line-level codes are the text's verdict.
            if b["id"].is_null() || LINE_CODES.contains(&code) {
                line_refusals.push((r["line"].as_u64().unwrap_or(0), code.into()));
            }
        }
    }
    let mut body_issues: Vec<(u64, String)> = issues
        .iter()
        .filter(|i| i.path.is_empty() && !BODY_CODES.contains(&i.code))
        .map(|i| (i.line.unwrap_or(0) as u64, i.code.to_string()))
        .collect();
    line_refusals.sort();
    body_issues.sort();
    if line_refusals != body_issues {
        return Err(format!(
            "refused lines: stream {line_refusals:?}, validator {body_issues:?}"
        ));
    }
    // Each closed surface: the checks the stream ran at its close are the
    // validator's issues for it; what the stream kept out of its live view
    // as it went, the validator reports too.
    for b in blocks {
        let Some(id) = b["id"].as_str() else { continue };
        if streamed.iter().filter(|(s, _)| s == id).count() > 1 {
            continue; // duplicate ids: the validator's issues cannot be told apart
        }
        let theirs: BTreeSet<Verdict> = issues
            .iter()
            .filter(|i| i.surface.as_deref() == Some(id) && !i.path.is_empty())
            .map(issue_verdict)
            .collect();
        if let Some(closed) = b["issues"].as_array() {
            let ours: BTreeSet<Verdict> = closed
                .iter()
                .map(|i| {
                    verdict(
                        i["line"].as_u64().unwrap_or(0),
                        i["code"].as_str().unwrap_or_default(),
                        i["path"].as_str().unwrap_or_default(),
                        i["severity"].as_str().unwrap_or_default(),
                    )
                })
                .collect();
            if ours != theirs {
                return Err(format!(
                    "surface {id}: stream {ours:?}, validator {theirs:?}"
                ));
            }
            // The flags raised line by line are the closed surface's, path
            // for path.
            for f in b["flags"].as_array().into_iter().flatten() {
                let flag = verdict(
                    f["line"].as_u64().unwrap_or(0),
                    f["code"].as_str().unwrap_or_default(),
                    f["path"].as_str().unwrap_or_default(),
                    f["severity"].as_str().unwrap_or_default(),
                );
                if !ours.contains(&flag) {
                    return Err(format!("surface {id}: flag {flag:?} not among {ours:?}"));
                }
            }
        }
        let codes: BTreeSet<&str> = theirs.iter().map(|v| v.1.as_str()).collect();
        for r in b["refused"].as_array().into_iter().flatten() {
            let code = r["code"].as_str().unwrap_or_default();
            if !LINE_CODES.contains(&code) && !codes.contains(code) {
                return Err(format!(
                    "surface {id}: the stream refused line {} ({code}), the validator reports no {code}",
                    r["line"]
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn streamed_and_validated_fence_verdicts_agree() {
    let catalog = Catalog::default_blog();
    let mut rng = Rng::new(0x5EED_F3AC);
    let mut checked = 0;
    let mut surfaces = 0;
    for (name, text) in bodies() {
        let issues = validate_markdown(&text, &catalog);
        for round in 0..4 {
            let cuts: Vec<usize> = match round {
                0 => Vec::new(),
                1 => (1..text.len()).collect(), // a byte at a time
                _ => {
                    let mut cuts: Vec<usize> =
                        (0..rng.below(12)).map(|_| rng.below(text.len())).collect();
                    cuts.sort_unstable();
                    cuts
                }
            };
            let blocks = stream(&text, &cuts);
            if let Err(why) = agree(&text, &blocks, &issues) {
                panic!("{name} (cuts {cuts:?}):\n{why}");
            }
            surfaces += blocks.len();
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked} feeds");
    assert!(surfaces > 200, "{surfaces} surfaces compared");
}

/// `text` with its line endings rewritten: every `\n` as `\r\n`, as a
/// lone `\r`, or the three in turn, each also after a byte order mark.
fn line_ending_variants(text: &str) -> Vec<(&'static str, String)> {
    let mut turn = 0;
    let mixed: String = text
        .chars()
        .map(|c| match c {
            '\n' => {
                turn += 1;
                ["\n", "\r\n", "\r"][turn % 3].to_string()
            }
            c => c.to_string(),
        })
        .collect();
    let mut out = Vec::new();
    for (name, body) in [
        ("LF", text.to_string()),
        ("CRLF", text.replace('\n', "\r\n")),
        ("CR", text.replace('\n', "\r")),
        ("mixed", mixed),
    ] {
        if name != "LF" {
            out.push((name, body.clone()));
        }
        out.push((name, ["\u{feff}", &body].concat()));
    }
    out
}

/// SPEC.md section 8: one meaning per fence line, whatever ends the lines
/// (and a leading byte order mark is no text): the stream, fed in any
/// chunking (a `\r` and the `\n` after it in two chunks too), gives the
/// validator's surfaces and refused lines.
#[test]
fn every_line_ending_and_a_byte_order_mark_read_alike() {
    let catalog = Catalog::default_blog();
    let mut rng = Rng::new(0x0C0D_E0CE);
    let mut checked = 0;
    let mut surfaces = 0;
    for (name, text) in bodies()
        .into_iter()
        .filter(|(n, _)| n.starts_with("fixture"))
    {
        for (ending, text) in line_ending_variants(&text) {
            let issues = validate_markdown(&text, &catalog);
            // Cut after every `\r`, and at random.
            let after_cr: Vec<usize> = text.match_indices('\r').map(|(i, _)| i + 1).collect();
            let mut random: Vec<usize> =
                (0..rng.below(12)).map(|_| rng.below(text.len())).collect();
            random.sort_unstable();
            for cuts in [Vec::new(), vec![1, 2], after_cr, random] {
                let blocks = stream(&text, &cuts);
                if let Err(why) = agree(&text, &blocks, &issues) {
                    panic!("{name}, {ending} (cuts {cuts:?}):\n{why}");
                }
                surfaces += blocks.len();
                checked += 1;
            }
        }
    }
    assert!(checked > 400, "{checked} feeds");
    assert!(surfaces > 200, "{surfaces} surfaces compared");
}

/// The stream's line numbers, block texts and surfaces for `\r` endings
/// and a byte order mark, cut where a reader waits (between `\r` and `\n`,
/// inside the mark).
#[test]
fn a_lone_cr_ends_a_line_and_a_leading_mark_is_no_text() {
    let text = "\u{feff}Intro\r\r```surface {\"id\":\"s\"}\r\n{\"id\":\"root\",\"component\":\"Stack\"}\rbroken\r```\rAfter";
    for cuts in [vec![], vec![1, 2, 3], vec![9], vec![10, 11], vec![52, 53]] {
        let mut s = MarkdownStream::new();
        let bytes = text.as_bytes();
        let mut at = 0;
        for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
            s.push_bytes(&bytes[at..cut]);
            at = cut;
        }
        s.finish();
        let doc = s.document();
        let blocks = doc["blocks"].as_array().unwrap();
        let texts: Vec<&str> = blocks.iter().map(|b| b["text"].as_str().unwrap()).collect();
        assert_eq!(
            texts,
            [
                "Intro\r",
                "```surface {\"id\":\"s\"}\r\n{\"id\":\"root\",\"component\":\"Stack\"}\rbroken\r```\r",
                "After"
            ],
            "{cuts:?}"
        );
        let surface = &blocks[1];
        assert_eq!(surface["complete"], true);
        assert_eq!(surface["components"].as_array().unwrap().len(), 1);
        assert_eq!(surface["refused"][0]["line"], 5, "{cuts:?}");
        assert_eq!(surface["refused"][0]["code"], "invalid_line");
    }
    assert_eq!(
        streaming_parser::heal("\u{feff}a **b\rc"),
        "\u{feff}a **b\rc**"
    );
}

/// A fence inside a container directive counts (only code blocks hide
/// fences, SPEC.md section 8): the stream gives it a block of its own,
/// the container going on after it, and a fence inside a code block in the
/// container still does not count. The first body is the fuzzer's
/// (`fence_lines`: the stream swallowed the surface into the directive).
#[test]
fn a_fence_inside_a_container_directive_counts() {
    let catalog = Catalog::default_blog();
    let found = "## Overview\n\n:::details[More]\nOu\n```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"t\"]}\n{\"id\":\"t\",\"component\":\"Heading\",\"props\":{\"level\":9,\"text\":\"x\"ter text.\n:::note\nInner note.\n:::\nBack in the outer container.\n:::\n\nLet me know.\n";
    let closed = ":::details\nintro\n```surface {\"id\":\"a\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\n:::\n```\n:::inner\n~~~\n:::\n```surface {\"id\":\"hidden\"}\n~~~\n:::\n``` a`b\nafter\n:::\n\n```surface {\"id\":\"b\"}\n```\n";
    for text in [found, closed] {
        let issues = validate_markdown(text, &catalog);
        for cuts in [vec![], (1..text.len()).collect()] {
            let blocks = stream(text, &cuts);
            if let Err(why) = agree(text, &blocks, &issues) {
                panic!("{text:?} (cuts {cuts:?}):\n{why}");
            }
        }
    }
    let mut s = MarkdownStream::new();
    s.push(closed);
    s.finish();
    let doc = s.document();
    let blocks: Vec<(&str, bool)> = doc["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["kind"].as_str().unwrap(), b["complete"] == true))
        .collect();
    assert_eq!(
        blocks,
        [
            ("directive", true),
            ("surface", true),
            ("directive", true),
            ("code", true),
            ("directive", true),
            ("surface", true)
        ]
    );
    assert_eq!(doc["blocks"][2]["name"], "details");
    assert_eq!(doc["blocks"][4]["text"], ":::\n``` a`b\nafter\n:::\n");
}

#[test]
fn the_issues_examples_get_one_code_each() {
    let catalog = Catalog::default_blog();
    for (line, code) in [
        ("[1]", "invalid_line"),
        (r#"{"data":{},"x":1}"#, "invalid_line"),
    ] {
        let text = ["```surface {\"id\":\"a\"}\n", line, "\n```\n"].concat();
        let validated: Vec<_> = validate_markdown(&text, &catalog)
            .iter()
            .map(|i| (i.line, i.code))
            .collect();
        let blocks = stream(&text, &[5]);
        let streamed: Vec<_> = blocks[0]["refused"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["line"].as_u64().map(|l| l as usize),
                    r["code"].as_str().unwrap(),
                )
            })
            .collect();
        assert!(
            validated.contains(&(Some(2), code)),
            "{line}: {validated:?}"
        );
        assert_eq!(streamed, [(Some(2), code)], "{line}");
    }
}
