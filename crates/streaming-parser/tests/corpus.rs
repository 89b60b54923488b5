//! Chunking invariance and healing properties over `tests/corpus/`, a corpus
//! of realistic answers (prose, lists, code, math, links, tables, surfaces,
//! directives, multi-byte text).

use pulldown_cmark::{Event, Parser, Tag};
use serde_json::{Map, Value};
use streaming_parser::MarkdownStream;
use testkit::properties::dangling;
use testkit::Rng;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus directory exists")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    let corpus: Vec<_> = files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("a corpus file"))
        })
        .collect();
    assert!(corpus.len() >= 100, "at least 100 answers");
    corpus
}

/// Feeds `bytes` cut at `cuts`; returns the final document and every change.
fn feed(bytes: &[u8], cuts: &[usize]) -> (Value, Vec<Value>) {
    let mut stream = MarkdownStream::new();
    let mut changes = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        changes.extend(stream.push_bytes(&bytes[at..cut]));
        at = cut;
    }
    changes.extend(stream.finish());
    (stream.document(), changes)
}

/// A renderer: rebuilds the blocks from the change list alone.
#[derive(Default)]
struct Replay {
    blocks: Vec<(Map<String, Value>, Option<Heal>)>,
}

/// UTF-16 units hidden at the end, and the suffix added.
type Heal = (u64, String);

fn drop_utf16(text: &str, units: u64) -> usize {
    let mut left = units;
    let mut cut = text.len();
    for c in text.chars().rev() {
        if left == 0 {
            break;
        }
        left = left.saturating_sub(c.len_utf16() as u64);
        cut -= c.len_utf8();
    }
    cut
}

fn heal_state(heal: &Value) -> Option<Heal> {
    Some((heal["drop"].as_u64()?, heal["add"].as_str()?.to_string()))
}

impl Replay {
    fn apply(&mut self, change: &Value) {
        let i = change["block"].as_u64().unwrap() as usize;
        match change["op"].as_str().unwrap() {
            "add" => {
                let block = change["value"].as_object().unwrap().clone();
                assert_eq!(
                    i,
                    self.blocks.len(),
                    "blocks are added at the end: {change}"
                );
                let heal = change.get("heal").and_then(heal_state);
                assert_eq!(heal.is_some(), block.contains_key("healed"), "{change}");
                self.blocks.push((block, heal));
            }
            "remove" => {
                assert_eq!(
                    i + 1,
                    self.blocks.len(),
                    "only the last block is removed: {change}"
                );
                self.blocks.pop();
            }
            "update" => {
                let (b, heal) = &mut self.blocks[i];
                let mut text = b["text"].as_str().unwrap().to_string();
                if let Some(append) = change.get("append") {
                    text.push_str(append.as_str().unwrap());
                }
                b.insert("text".into(), Value::String(text.clone()));
                for (key, value) in change.as_object().unwrap() {
                    match key.as_str() {
                        "op" | "block" | "append" => {}
                        "heal" => *heal = heal_state(value),
                        "components" | "refused" => {
                            let list = b.get_mut(key).unwrap().as_array_mut().unwrap();
                            list.extend(value.as_array().unwrap().iter().cloned());
                        }
                        _ => {
                            b.insert(key.clone(), value.clone());
                        }
                    }
                }
                match heal {
                    Some((units, add)) => {
                        let cut = drop_utf16(&text, *units);
                        b.insert(
                            "healed".into(),
                            Value::String(format!("{}{add}", &text[..cut])),
                        );
                    }
                    None => {
                        b.remove("healed");
                    }
                }
            }
            other => panic!("unknown op {other}"),
        }
    }

    fn document(&self) -> Value {
        Value::Array(
            self.blocks
                .iter()
                .map(|(b, _)| Value::Object(b.clone()))
                .collect(),
        )
    }
}

fn assert_same(name: &str, how: &str, whole: &Value, other: &Value) {
    if whole != other {
        panic!("{name}: {how} differs\nwhole: {whole}\nother: {other}");
    }
}

#[test]
fn every_chunking_yields_the_same_final_blocks() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for (name, bytes) in corpus() {
        let (whole, _) = feed(&bytes, &[]);
        if bytes.len() <= 800 {
            for cut in 1..bytes.len() {
                let (doc, _) = feed(&bytes, &[cut]);
                assert_same(&name, &format!("split at byte {cut}"), &whole, &doc);
            }
        }
        for size in [1, 2, 3, 5, 7, 20, 64] {
            let cuts: Vec<usize> = (size..bytes.len()).step_by(size).collect();
            let (doc, _) = feed(&bytes, &cuts);
            assert_same(&name, &format!("chunks of {size}"), &whole, &doc);
        }
        for trial in 0..8 {
            let mut cuts = Vec::new();
            let mut at = 0;
            loop {
                at += 1 + rng.below(40);
                if at >= bytes.len() {
                    break;
                }
                cuts.push(at);
            }
            let (doc, _) = feed(&bytes, &cuts);
            assert_same(&name, &format!("random trial {trial}"), &whole, &doc);
        }
    }
}

#[test]
fn the_change_list_rebuilds_the_document() {
    for (name, bytes) in corpus() {
        for size in [1, 13, bytes.len().max(1)] {
            let cuts: Vec<usize> = (size..bytes.len()).step_by(size).collect();
            let (doc, changes) = feed(&bytes, &cuts);
            let mut replay = Replay::default();
            for change in &changes {
                replay.apply(change);
            }
            assert_same(
                &name,
                &format!("replay of chunks of {size}"),
                &doc["blocks"],
                &replay.document(),
            );
        }
    }
}

#[test]
fn the_corpus_itself_has_no_dangling_markers() {
    for (name, bytes) in corpus() {
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(dangling(&text), Vec::<String>::new(), "{name}");
    }
}

/// Healing, checked on the open last block after every character of every
/// answer: additions only (or a hidden trailing construct), idempotent, code
/// untouched, and no dangling markers in the parse.
#[test]
fn every_prefix_heals_cleanly() {
    for (name, bytes) in corpus() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut stream = MarkdownStream::new();
        let mut replay = Replay::default();
        let mut buf = [0u8; 4];
        for (at, c) in text.char_indices() {
            for change in stream.push(c.encode_utf8(&mut buf)) {
                replay.apply(&change);
            }
            let Some((last, Some((units, added)))) = replay.blocks.last() else {
                continue;
            };
            let healed = last["healed"].as_str().unwrap();
            let stored = last["text"].as_str().unwrap();
            let kept = drop_utf16(stored, *units);
            let hidden = &stored[kept..];
            assert_eq!(healed, format!("{}{added}", &stored[..kept]));
            let prefix = &text[..at + c.len_utf8()];
            match last["kind"].as_str().unwrap() {
                "prose" => {
                    // (Or a link's unfinished destination, after its `(`:
                    // the placeholder target stands for it.)
                    let hidden_ok = hidden.trim_start().is_empty()
                        || hidden
                            .trim_start()
                            .starts_with(['<', '!', '*', '_', '~', '`', '[', '$'])
                        || (stored[..kept].ends_with('(')
                            && added.starts_with(streaming_parser::INCOMPLETE_LINK));
                    assert!(hidden_ok, "{name}: hides {hidden:?} of {prefix:?}");
                    assert_eq!(
                        streaming_parser::heal(healed),
                        healed,
                        "{name}: idempotent on {prefix:?}"
                    );
                    assert_eq!(
                        dangling(healed),
                        Vec::<String>::new(),
                        "{name}: healed {healed:?} of {prefix:?}"
                    );
                }
                "code" | "surface" => {
                    assert!(hidden.is_empty(), "{name}: code untouched in {prefix:?}");
                    assert!(
                        added
                            .trim_start_matches('\n')
                            .chars()
                            .all(|c| c == '`' || c == '~'),
                        "{name}: only a closing fence is added to {prefix:?}: {added:?}"
                    );
                }
                _ => assert!(hidden.is_empty()),
            }
        }
    }
}

#[test]
fn arbitrary_input_never_panics_and_stays_chunk_invariant() {
    const PIECES: [&str; 32] = [
        "*",
        "**",
        "_",
        "~~",
        "`",
        "```",
        "~~~",
        "$$",
        "[",
        "](",
        ")",
        "![",
        "<",
        "<div ",
        ">",
        "\"",
        "\n",
        "\n\n",
        " ",
        "::",
        ":::",
        "#",
        "- ",
        "1. ",
        "{",
        "}",
        "\\",
        "é",
        "한",
        "😀",
        "```surface {\"id\":\"a\"}\n",
        "{\"id\":\"root\",\"component\":\"Stack\",\"props\":{\"text\":\"x",
    ];
    let mut rng = Rng::new(42);
    for _ in 0..1500 {
        let mut bytes = Vec::new();
        for _ in 0..rng.below(60) {
            if rng.below(10) == 0 {
                bytes.push(rng.next_u64() as u8);
            } else {
                bytes.extend_from_slice(rng.pick(&PIECES).as_bytes());
            }
        }
        let (whole, _) = feed(&bytes, &[]);
        let cuts: Vec<usize> = (1..bytes.len()).filter(|_| rng.below(4) == 0).collect();
        let (doc, changes) = feed(&bytes, &cuts);
        assert_same(&format!("{bytes:?}"), "random chunks", &whole, &doc);
        let mut replay = Replay::default();
        for change in &changes {
            replay.apply(change);
        }
        assert_same(
            &format!("{bytes:?}"),
            "replay",
            &doc["blocks"],
            &replay.document(),
        );
        let text = String::from_utf8_lossy(&bytes);
        let healed = streaming_parser::heal(&text);
        assert_eq!(
            streaming_parser::heal(&healed),
            healed,
            "idempotent on {text:?}"
        );
    }
}

/// Indented code and thematic breaks are not healed: nothing added inside
/// code, a rule kept whole. pulldown-cmark says what each text is, and the
/// healed text (the text plus what was added) has no unmatched closer.
#[test]
fn code_and_rules_are_left_as_written() {
    let is = |text: &str, block: fn(&Event) -> bool| Parser::new(text).any(|e| block(&e));
    let code = |e: &Event| matches!(e, Event::Start(Tag::CodeBlock(_)));
    let rule = |e: &Event| matches!(e, Event::Rule);
    for text in [
        "a\n\n    **x",
        "    **x",
        "\t**x",
        "a\n\n\t`x",
        "    ``` a\n    *b",
        "# T\n    _x",
    ] {
        assert!(is(text, code), "{text:?} is code");
        assert_eq!(streaming_parser::heal(text), text, "{text:?}");
    }
    for text in [
        "* * *",
        "***",
        "_ _ _",
        "___",
        "a\n\n* * *",
        " *  *  * ",
        "**a\n***",
    ] {
        assert!(is(text, rule), "{text:?} is a rule");
        let healed = streaming_parser::heal(text);
        assert_eq!(healed, text, "{text:?}");
    }
    // Still healed: a list item's indented paragraph, emphasis after code.
    for (text, healed) in [
        ("- a\n\n    **x", "- a\n\n    **x**"),
        ("    x\n\n**y", "    x\n\n**y**"),
        ("a\n    **x", "a\n    **x**"),
        ("* *", "* "),
    ] {
        assert_eq!(streaming_parser::heal(text), healed, "{text:?}");
        assert_eq!(dangling(healed), Vec::<String>::new(), "{healed:?}");
    }
}
