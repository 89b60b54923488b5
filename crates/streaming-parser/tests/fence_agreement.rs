//! A fence line means one thing to every reader (SPEC.md section 8): for
//! every answer of the streaming corpus and every markdown fixture of the
//! validator, the stream fed in random chunkings gives the surfaces, the
//! refused lines and the codes that `validate_markdown` reports on the
//! whole body, as `testkit::properties::fence_agreement` compares them (the
//! fuzz target `fence_lines` checks the same on any input).

use serde_json::Value;
use streaming_parser::{MarkdownStream, Stream};
use testkit::properties::{feed, fence_agreement, surface_blocks};
use testkit::Rng;
use validator_wasm::markdown::validate_markdown;
use validator_wasm::Catalog;

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

/// The surface blocks of the stream's final document for `text` fed in
/// chunks cut at `cuts` (byte offsets, anywhere, inside a character too).
fn stream(text: &str, cuts: &[usize]) -> Vec<Value> {
    let markdown = Stream::new("markdown").expect("the markdown mode");
    surface_blocks(&feed(markdown, text.as_bytes(), cuts))
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
            if let Err(why) = fence_agreement(&text, &blocks, &issues) {
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
                if let Err(why) = fence_agreement(&text, &blocks, &issues) {
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
            if let Err(why) = fence_agreement(text, &blocks, &issues) {
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
