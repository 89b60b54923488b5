//! The properties every reader of model-written text keeps, one function
//! per fuzz target (`fuzz/fuzz_targets/<name>.rs` calls `<name>`), each
//! judged by a trusted oracle where one exists. A property takes arbitrary
//! bytes and panics, with what differed, when the code under test breaks it;
//! the ordinary suite replays the seed corpora and every input a fuzzer ever
//! found through the same functions (`tests/replay.rs`), so a crash found
//! once stays a test.
//!
//! | property | oracle |
//! |---|---|
//! | [`json`] | `serde_json::from_str` and `to_string`: the same value, key order, text, size and error |
//! | [`partial_json`] | `serde_json` on complete text; on every prefix, the complete text's value |
//! | [`jsonl`] | the same reader fed the text whole |
//! | [`markdown_stream`] | the stream fed whole; `heal` again; pulldown-cmark's parse of the healed text |
//! | [`a2ui`] | the reader fed the text whole |
//! | [`a2ui_import`] | `from_a2ui` of the messages so far, after every one; the import fed whole |
//! | [`pointer`] | `serde_json::Value::pointer` |
//! | [`apply_patch`] | the `json-patch` crate; the document before a refused patch |
//! | [`validate`] | the documented codes; the document (every path points into it); the draft before a refused operation |
//! | [`fence_lines`] | `validate_markdown` against the stream, line for line |
//! | [`render`] | html5ever (through `scraper`), as a browser parses the HTML |
//! | [`functions`] | termination, and the documented depth bounds |
//!
//! Inputs that carry a document and operations are JSON texts `[doc, ops]`
//! (or `[expression, data]`); text that does not parse is still fed to the
//! readers that take text, so a mutated seed is never wasted.
//!
//! ```
//! // Any bytes: a property returns quietly or panics saying what broke.
//! testkit::properties::pointer(b"/a~1b\n{\"a/b\": [1, 2]}");
//! testkit::properties::markdown_stream(b"Hello **wor");
//! ```

extern crate std;

use crate::Rng;
use interop::a2ui::A2uiImport;
use interop::{from_a2ui, from_a2ui_value};
use pulldown_cmark::{Event, Options as CmarkOptions, Parser, Tag, TagEnd};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;
use streaming_parser::{MarkdownStream, Stream};
use validator_wasm::markdown::{read_body, validate_markdown};
use validator_wasm::{patch, Catalog, Issue, Severity};

/// Inputs larger than this are cut: the properties feed every prefix or
/// several chunkings, and libFuzzer's own default is 4,096 bytes.
const MAX_INPUT: usize = 16 * 1024;

fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// Cut points for `len` bytes, drawn from a generator seeded by the input
/// itself, so a failing input fails again on the same cuts. `mode` 0 is
/// whole, 1 a byte at a time (short inputs), else a handful anywhere.
pub fn cuts(data: &[u8], len: usize, mode: u8) -> Vec<usize> {
    match mode {
        0 => Vec::new(),
        1 if len <= 2048 => (1..len).collect(),
        _ => {
            let seed = data
                .iter()
                .fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
                })
                .wrapping_add(u64::from(mode));
            let mut rng = Rng::new(seed);
            let mut cuts: Vec<usize> = (0..1 + rng.below(16)).map(|_| rng.below(len)).collect();
            cuts.sort_unstable();
            cuts.dedup();
            cuts
        }
    }
}

/// Feeds `bytes` to `stream` cut at `cuts`; returns the final document.
pub fn feed(mut stream: Stream, bytes: &[u8], cuts: &[usize]) -> Value {
    let mut at = 0;
    for &cut in cuts.iter().chain(core::iter::once(&bytes.len())) {
        stream.push_bytes(&bytes[at..cut]);
        at = cut;
    }
    stream.finish();
    stream.document()
}

/// The same final document for the whole text and three other chunkings.
fn chunk_invariant(mode: &str, data: &[u8]) {
    let bytes = &data[..data.len().min(MAX_INPUT)];
    let whole = feed(Stream::new(mode).expect("a mode"), bytes, &[]);
    for how in 1..4 {
        let cuts = cuts(bytes, bytes.len(), how);
        let chunked = feed(Stream::new(mode).expect("a mode"), bytes, &cuts);
        assert_eq!(
            whole, chunked,
            "{mode}: chunking {cuts:?} differs from whole"
        );
    }
}

/// The ghost reader: on complete JSON, serde_json's value; on every prefix,
/// nothing the complete text does not say (no invented key, no cut string
/// but under a display key, no number that may still grow).
pub fn partial_json(data: &[u8]) {
    use streaming_parser::partial::{is_display_key, parse};
    let text = text_of(data);
    let Ok(full) = serde_json::from_str::<Value>(&text) else {
        let _ = parse(&text, is_display_key); // any text: no panic
        return;
    };
    let read = parse(&text, is_display_key);
    // A bare number may still grow however it ends; anything else that is
    // complete reads as serde_json reads it.
    if depth(&full) <= 64 && !full.is_number() {
        let read = read.expect("complete JSON reads");
        assert!(read.complete, "complete JSON reads as complete");
        assert_eq!(read.value, full, "the complete text's value");
    }
    if serde_json::from_str::<Unique>(&text).is_err() {
        return; // a later duplicate key overrides what a prefix showed
    }
    let ends: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let step = (ends.len() / 512).max(1);
    for &end in ends.iter().step_by(step) {
        if let Some(read) = parse(&text[..end], is_display_key) {
            if let Err(why) = within(&read.value, &full, false) {
                panic!("prefix {:?} reads {}: {why}", &text[..end], read.value);
            }
        }
    }
}

/// JSON whose objects have no duplicate key: deserializing fails on one.
struct Unique;

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut keys = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<Unique>()?;
            if !keys.insert(key) {
                return Err(serde::de::Error::custom("a duplicate key"));
            }
        }
        Ok(Unique)
    }
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Whether `part` (read from a prefix) says nothing `full` does not.
fn within(part: &Value, full: &Value, cuttable: bool) -> Result<(), String> {
    match (part, full) {
        (Value::Object(p), Value::Object(f)) => {
            for (key, value) in p {
                let Some(whole) = f.get(key) else {
                    return Err(format!("invented key {key:?}"));
                };
                let cut = streaming_parser::partial::cut_as(p, key);
                within(value, whole, streaming_parser::partial::is_display_key(cut))?;
            }
            Ok(())
        }
        (Value::Array(p), Value::Array(f)) => {
            if p.len() > f.len() {
                return Err(format!("{} items of {}", p.len(), f.len()));
            }
            p.iter().zip(f).try_for_each(|(p, f)| within(p, f, false))
        }
        (Value::String(p), Value::String(f)) if cuttable && f.starts_with(p.as_str()) => Ok(()),
        _ if part == full => Ok(()),
        _ => Err(format!("{part} where the text says {full}")),
    }
}

/// The tolerant JSON Lines reader: the items read from a text are those
/// read from any split of it.
pub fn jsonl(data: &[u8]) {
    chunk_invariant("jsonl", data);
}

/// The markdown stream: any chunking gives the final blocks of feeding the
/// text whole; the healed view heals to itself and leaves no delimiter run
/// CommonMark reads as literal text that the text itself did not have.
pub fn markdown_stream(data: &[u8]) {
    chunk_invariant("markdown", data);
    let text = text_of(data);
    let healed = streaming_parser::heal(&text);
    assert_eq!(
        streaming_parser::heal(&healed),
        healed,
        "healing is idempotent"
    );
    let before = dangling(&text).len();
    let after = dangling(&healed);
    assert!(
        after.len() <= before,
        "healing {text:?} left {after:?} (the text had {before})"
    );
}

/// Literal delimiter runs in the text CommonMark (pulldown-cmark, with
/// strikethrough, tables and task lists) reads from `markdown`, outside code
/// blocks: markers that open or close nothing, one entry per marker (so a
/// link that splits a run of text changes no count).
pub fn dangling(markdown: &str) -> Vec<String> {
    let mut options = CmarkOptions::empty();
    options.insert(CmarkOptions::ENABLE_STRIKETHROUGH);
    options.insert(CmarkOptions::ENABLE_TABLES);
    options.insert(CmarkOptions::ENABLE_TASKLISTS);
    let mut found = Vec::new();
    let mut in_code = 0usize;
    let mut text = String::new();
    let flush = |text: &mut String, found: &mut Vec<String>| {
        for marker in ["**", "__", "~~", "`"] {
            for _ in text.matches(marker) {
                found.push(format!("{marker} in {text:?}"));
            }
        }
        text.clear();
    };
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Text(t) if in_code == 0 => text.push_str(&t),
            Event::Text(_) => {}
            _ => flush(&mut text, &mut found),
        }
    }
    flush(&mut text, &mut found);
    found
}

/// The A2UI reader: any chunking leaves what feeding the text whole
/// leaves, once its parts are applied in order (a chunked feed may show
/// more intermediate states on the way): the same prose, the same error,
/// and per surface the same created surface, data and components
/// reachable from `root`.
pub fn a2ui(data: &[u8]) {
    let bytes = &data[..data.len().min(MAX_INPUT)];
    let whole = a2ui_state(&feed(Stream::new("a2ui").expect("a2ui"), bytes, &[]));
    for how in 1..4 {
        let cuts = cuts(bytes, bytes.len(), how);
        let chunked = a2ui_state(&feed(Stream::new("a2ui").expect("a2ui"), bytes, &cuts));
        assert_eq!(whole, chunked, "a2ui: chunking {cuts:?} differs from whole");
    }
}

/// `A2uiImport` (which follows a push in place where it can) against
/// `from_a2ui` (which converts the whole): the messages of the text (JSON
/// Lines; at most 64) pushed one at a time build, after every one, the
/// surface of `from_a2ui` of the messages so far, with its notes once the
/// surface has a root; the text pushed in chunks ends where it ends pushed
/// whole, and there as `from_a2ui` of the text.
pub fn a2ui_import(data: &[u8]) {
    a2ui_import_followed(data);
}

/// [`a2ui_import`], giving how many pushes changed the surface and how
/// many of them did so in place (no operation replacing the surface or its
/// component list).
pub fn a2ui_import_followed(data: &[u8]) -> (usize, usize) {
    let text = text_of(data);
    let lines = text.lines().filter_map(|l| serde_json::from_str(l).ok());
    let messages: Vec<Value> = lines.take(64).collect();
    let (mut pushes, mut in_place) = (0, 0);
    let mut import = A2uiImport::new(None, "");
    let mut doc = json!({});
    for (i, message) in messages.iter().enumerate() {
        let ops = import.push_value(message);
        doc = patch::apply_patch(&doc, &Value::Array(ops.clone()))
            .unwrap_or_else(|e| panic!("a2ui_import: message {i}'s operations apply: {e:?}"));
        let whole = from_a2ui_value(&Value::Array(messages[..=i].to_vec()));
        let expected = whole.surfaces.first().filter(|_| doc != json!({}));
        assert_eq!(
            doc,
            expected.cloned().unwrap_or(json!({})),
            "a2ui_import: after message {i} ({message})"
        );
        if doc == json!({}) {
            continue;
        }
        assert_eq!(
            import.notes(),
            whole.notes,
            "a2ui_import: notes after message {i}"
        );
        if !ops.is_empty() {
            pushes += 1;
            let whole_list = |op: &Value| op["path"] == "" || op["path"] == "/components";
            in_place += usize::from(!ops.iter().any(whole_list));
        }
    }
    let bytes = text.as_bytes();
    let fed = |cuts: &[usize]| {
        let mut import = A2uiImport::new(None, "");
        let mut doc = json!({});
        let mut from = 0;
        for &to in cuts.iter().chain([&bytes.len()]) {
            let ops = import.push_bytes(&bytes[from..to]);
            doc = patch::apply_patch(&doc, &Value::Array(ops)).expect("the operations apply");
            from = to;
        }
        patch::apply_patch(&doc, &Value::Array(import.finish())).expect("the operations apply")
    };
    let whole = fed(&[]);
    for how in 1..4 {
        let cuts = cuts(bytes, bytes.len(), how);
        assert_eq!(
            fed(&cuts),
            whole,
            "a2ui_import: chunking {cuts:?} differs from whole"
        );
    }
    let converted = from_a2ui(&text);
    if whole != json!({}) {
        assert_eq!(
            converted.surfaces.first(),
            Some(&whole),
            "a2ui_import: the text whole"
        );
    }
    (pushes, in_place)
}

/// What the A2UI reader's parts leave once applied, as a renderer keeps
/// them: prose, error, and per surface its start message (`createSurface`,
/// v0.8's `beginRendering`; a v1.0 `createSurface`'s `components` and
/// `dataModel` taken as an update and a data update), data (v0.9's and
/// v1.0's values merged at their path, top-level members one by one, a
/// `null` deleting; v0.8's entries by key) and the components reachable from
/// its root (latest by id); and, when there are any, the `calls` that name
/// no surface (v1.0's `callRendererFunction`, `agentFunctionResponse`), in
/// order. A message is its first member whose value is an object
/// (`{"version", "updateComponents": {...}}`).
pub fn a2ui_state(document: &Value) -> Value {
    /// Applies a data update's `value` at `path` (a JSON Pointer, `""` or `/`
    /// the whole model): an object's members set one by one (the reader sends a
    /// value's changed members only), a `null` deleting the value at the path,
    /// anything else replacing it.
    fn set_data(data: &mut Value, path: &str, value: &Value) {
        let segments: Vec<String> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        if let (Value::Null, Some((last, above))) = (value, segments.split_last()) {
            let parent = above.iter().try_fold(data, |at, s| at.get_mut(s.as_str()));
            if let Some(Value::Object(parent)) = parent {
                parent.remove(last.as_str());
            }
            return;
        }
        let mut at = data;
        for segment in &segments {
            if !at.is_object() {
                *at = serde_json::json!({});
            }
            at = &mut at[segment.as_str()];
        }
        match value {
            Value::Object(members) => {
                if !at.is_object() {
                    *at = serde_json::json!({});
                }
                for (k, v) in members {
                    at[k.as_str()] = v.clone();
                }
            }
            _ => *at = value.clone(),
        }
    }
    let mut text = String::new();
    let mut surfaces = serde_json::Map::new();
    let mut calls = Vec::new();
    for part in document["parts"].as_array().into_iter().flatten() {
        text.push_str(part["text"].as_str().unwrap_or_default());
        for message in part["a2ui"].as_array().into_iter().flatten() {
            let Some((kind, body)) = message
                .as_object()
                .and_then(|m| m.iter().find(|(_, body)| body.is_object()))
            else {
                continue;
            };
            let Some(id) = body["surfaceId"].as_str() else {
                calls.push(message.clone());
                continue;
            };
            let surface = surfaces.entry(id).or_insert_with(
                || serde_json::json!({"created": null, "data": {}, "components": {}}),
            );
            let mut add = |components: &Value| {
                for c in components.as_array().into_iter().flatten() {
                    let cid = c["id"].as_str().unwrap_or_default().to_string();
                    surface["components"][cid] = c.clone();
                }
            };
            match kind.as_str() {
                "createSurface" | "beginRendering" => {
                    add(&body["components"]);
                    let mut created = body.clone();
                    if let Some(created) = created.as_object_mut() {
                        created.remove("components");
                        if let Some(data) = created.remove("dataModel") {
                            set_data(&mut surface["data"], "", &data);
                        }
                    }
                    surface["created"] = created;
                }
                "updateComponents" | "surfaceUpdate" => add(&body["components"]),
                "updateDataModel" => {
                    if let Some(value) = body.get("value") {
                        let path = body["path"].as_str().unwrap_or_default();
                        set_data(&mut surface["data"], path, value);
                    }
                }
                "dataModelUpdate" => {
                    for entry in body["contents"].as_array().into_iter().flatten() {
                        let key = entry["key"].as_str().unwrap_or_default();
                        surface["data"][key] = entry.clone();
                    }
                }
                _ => surface[kind.as_str()] = body.clone(),
            }
        }
    }
    for surface in surfaces.values_mut() {
        let all = surface["components"].take();
        let mut reachable = serde_json::Map::new();
        let root = surface["created"]["root"].as_str().unwrap_or("root");
        let mut todo = std::vec![String::from(root)];
        while let Some(id) = todo.pop() {
            let Some(c) = all.get(&id).filter(|_| !reachable.contains_key(&id)) else {
                continue;
            };
            // v0.9 and v1.0 hold its properties beside `component`, v0.8
            // under its name.
            let body = match &c["component"] {
                Value::Object(named) => named.values().next().unwrap_or(&Value::Null),
                _ => c,
            };
            let children = &body["children"];
            let template = &children["template"];
            let named = [
                &body["child"],
                &children["componentId"],
                &template["componentId"],
            ];
            let lists = [children, &children["explicitList"]];
            let ids = lists.iter().filter_map(|l| l.as_array()).flatten();
            todo.extend(
                named
                    .into_iter()
                    .chain(ids)
                    .filter_map(|c| c.as_str().map(String::from)),
            );
            reachable.insert(id, c.clone());
        }
        surface["components"] = Value::Object(reachable);
    }
    // A surface that nothing created, filled or drew is no surface (a reading
    // of a cut message may name one before it says anything).
    let empty = serde_json::json!({"created": null, "data": {}, "components": {}});
    surfaces.retain(|_, surface| *surface != empty);
    let mut state =
        serde_json::json!({"text": text, "error": document["error"], "surfaces": surfaces});
    if !calls.is_empty() {
        state["calls"] = Value::Array(calls);
    }
    state
}

/// The one JSON reader and writer (`surfaces_core::json`, under every
/// part) against serde_json's: the same text taken, the same value with its
/// keys in the same order (compared as written out, since maps compare
/// unordered), written out as serde_json writes it, with the size counted
/// its length; and the same error, kind, line and column, for text refused
/// (a number out of range: its line).
pub fn json(data: &[u8]) {
    use surfaces_core::json::ErrorKind;
    let text = text_of(data);
    match (
        surfaces_core::json::parse(&text),
        serde_json::from_str::<Value>(&text),
    ) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours, theirs, "{text:?}");
            let written = theirs.to_string();
            assert_eq!(
                surfaces_core::json::text(&ours),
                written,
                "key order: {text:?}"
            );
            let size = surfaces_core::json::size(&ours, usize::MAX);
            assert_eq!(size, Some(written.len()), "{text:?}");
        }
        (Err(ours), Err(theirs)) if ours.kind == ErrorKind::NumberOutOfRange => {
            let line = theirs.line();
            let theirs = theirs.to_string();
            assert!(
                theirs.starts_with("number out of range at line "),
                "{text:?}: {theirs}"
            );
            assert_eq!(ours.line, line, "{text:?}");
        }
        (Err(ours), Err(theirs)) => {
            assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}")
        }
        (ours, theirs) => panic!("{text:?}: ours {ours:?}, serde_json {theirs:?}"),
    }
}

/// JSON Pointer: the first line is the pointer, the rest the document.
/// Where the core parses it, it resolves to what `serde_json` resolves.
pub fn pointer(data: &[u8]) {
    use surfaces_core::pointer::{parse, resolve, UNSAFE_SEGMENTS};
    let text = text_of(data);
    let (pointer, rest) = text.split_once('\n').unwrap_or((&text, "null"));
    let doc: Value = serde_json::from_str(rest).unwrap_or(Value::Null);
    match parse(pointer) {
        Ok(segments) => {
            assert!(!segments
                .iter()
                .any(|s| UNSAFE_SEGMENTS.contains(&s.as_str())));
            let ours = resolve(&&doc, pointer).cloned();
            assert_eq!(ours.as_ref(), doc.pointer(pointer), "{pointer:?} in {doc}");
        }
        Err(e) => assert!(["invalid_pointer", "unsafe_path"].contains(&e.code())),
    }
}

/// The input as `[doc, ops]`, or `None`.
fn doc_and_ops(data: &[u8]) -> Option<(Value, Value)> {
    let value: Value = serde_json::from_slice(&data[..data.len().min(MAX_INPUT)]).ok()?;
    let Value::Array(mut pair) = value else {
        return None;
    };
    if pair.len() != 2 {
        return None;
    }
    let ops = pair.pop()?;
    Some((pair.pop()?, ops))
}

/// `apply_patch` against the `json-patch` crate, on `[doc, ops]`: the same
/// document where both apply the patch, a refusal where it refuses (beyond
/// it, ours refuses prototype segments and `-` where RFC 6902 allows no
/// index), and a refused patch leaves the document byte-identical.
pub fn apply_patch(data: &[u8]) {
    use validator_wasm::patch::apply_patch_in_place;
    let Some((doc, ops)) = doc_and_ops(data) else {
        return;
    };
    let before = doc.to_string();
    let mut ours = doc.clone();
    let result = apply_patch_in_place(&mut ours, &ops);
    if let Err(e) = &result {
        assert_eq!(ours.to_string(), before, "refused ({}) yet changed", e.code);
    }
    // Past the copy budget json-patch would go on doubling what we refuse.
    if result
        .as_ref()
        .is_err_and(|e| e.code == "document_too_large")
    {
        return;
    }
    // RFC 6902 compares numbers by value (`1` equals `1.0`); json-patch
    // compares serde_json's representations, so both sides see every
    // number as a float.
    // One operation at a time on a copy: json-patch's own undo of a failed
    // patch panics on some moves (4.2: "unable to undo applied patches"),
    // and atomicity is ours to check, not the oracle's.
    // A move onto its own location has no effect when something is there
    // (RFC 6902's suite: "Move to same location has no effect"; fast-json-patch
    // agrees); json-patch refuses it at the root, having no whole document
    // to remove, so the oracle reads that move itself.
    let theirs = serde_json::from_value::<json_patch::Patch>(floats(&ops)).map(|patch| {
        let mut theirs = floats(&doc);
        patch
            .0
            .into_iter()
            .try_for_each(|op| match &op {
                json_patch::PatchOperation::Move(m) if m.from == m.path => theirs
                    .pointer(m.from.as_str())
                    .map(|_| ())
                    .ok_or_else(|| format!("nothing to move at {}", m.from)),
                _ => json_patch::patch(&mut theirs, &[op]).map_err(|e| e.to_string()),
            })
            .map(|()| theirs)
    });
    match (&result, theirs) {
        (Ok(()), Ok(Ok(theirs))) => assert_eq!(floats(&ours), theirs, "{ops} on {before}"),
        (Ok(()), other) => panic!("{ops} on {before}: we apply it, json-patch gives {other:?}"),
        (Err(e), Ok(Ok(theirs))) => assert!(
            ["unsafe_path", "too_deep", "invalid_pointer"].contains(&e.code),
            "{ops} on {before}: json-patch gives {theirs}, we refuse: {e:?}"
        ),
        (Err(_), _) => {}
    }
}

/// `value` with every number as a float.
fn floats(value: &Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(floats).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), floats(v))).collect())
        }
        other => other.clone(),
    }
}

/// Every code `docs/reference.md` documents under "Error codes".
pub fn documented_codes() -> BTreeSet<&'static str> {
    let text = include_str!("../../../docs/reference.md");
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Error codes"))
        .expect("a section ## Error codes");
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .collect()
}

/// Whether `path` resolves in `doc`, or names a member missing from an
/// object that is there (where the missing part would go).
pub fn points_into(doc: &Value, path: &str) -> bool {
    if doc.pointer(path).is_some() {
        return true;
    }
    let Some((parent, last)) = path.rsplit_once('/') else {
        return false;
    };
    let key = last.replace("~1", "/").replace("~0", "~");
    doc.pointer(parent)
        .and_then(Value::as_object)
        .is_some_and(|object| !object.contains_key(&key))
}

fn assert_issues(doc: &Value, issues: &[Issue], known: &BTreeSet<&str>) {
    for issue in issues {
        assert!(known.contains(issue.code), "undocumented code {issue:?}");
        assert!(
            points_into(doc, &issue.path),
            "{issue:?}: the path is not in {doc}"
        );
    }
}

/// The validator and the patch pipeline on `[doc, ops]` (or a document
/// alone): no panic, every issue has a documented code and a path that
/// points into the document ([`points_into`]), and each operation the draft does not apply
/// leaves it byte-identical.
pub fn validate(data: &[u8]) {
    use validator_wasm::pipeline::Draft;
    use validator_wasm::validate_document_text;
    let catalog = Catalog::default_blog();
    let known = documented_codes();
    let text = text_of(data);
    let (doc, ops) = match doc_and_ops(data) {
        Some(pair) => pair,
        None => {
            let issues = validate_document_text(&text, &catalog);
            if let Ok(doc) = serde_json::from_str::<Value>(&text) {
                assert_issues(&doc, &issues, &known);
            }
            return;
        }
    };
    let issues = validator_wasm::validate_document(&doc, &catalog);
    assert_issues(&doc, &issues, &known);
    let mut draft = Draft::new(doc);
    let ops: Vec<Value> = match ops {
        Value::Array(ops) => ops,
        op => std::vec![op],
    };
    for op in ops.iter().take(32) {
        let before = draft.document().to_string();
        let report = draft.apply(op, &catalog);
        for issue in report.refused.iter().flat_map(|r| &r.issues) {
            assert!(known.contains(issue.code), "undocumented {issue:?}");
        }
        if report.applied.is_empty() {
            assert_eq!(
                draft.document().to_string(),
                before,
                "{op} not applied, yet changed"
            );
        }
    }
    let after = draft.document().clone();
    draft.settle(&catalog);
    assert_issues(&after, &draft.issues(&catalog), &known);
}

/// Codes a reader gives a fence line by its text alone (or a fence info line).
const LINE_CODES: [&str; 3] = ["invalid_line", "line_too_long", "data_too_large"];
/// Codes about the body rather than one surface.
const BODY_CODES: [&str; 3] = [
    "too_many_surfaces",
    "duplicate_surface_id",
    "unclosed_fence",
];

/// The surface blocks of the stream's final document.
pub fn surface_blocks(document: &Value) -> Vec<Value> {
    document["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .filter(|b| b["kind"] == "surface")
        .cloned()
        .collect()
}

/// One meaning per fence line (SPEC.md section 8): the stream, fed in three
/// chunkings, gives the surfaces, refused lines and codes `validate_markdown`
/// reports on the whole body.
pub fn fence_lines(data: &[u8]) {
    let text = text_of(data);
    let issues = validate_markdown(&text, &Catalog::default_blog());
    for how in 0..3 {
        let cuts = cuts(text.as_bytes(), text.len(), how);
        let stream = Stream::Markdown(std::boxed::Box::new(MarkdownStream::new()));
        let blocks = surface_blocks(&feed(stream, text.as_bytes(), &cuts));
        if let Err(why) = fence_agreement(&text, &blocks, &issues) {
            panic!("{text:?} (cuts {cuts:?}):\n{why}");
        }
    }
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

fn json_verdict(i: &Value) -> Verdict {
    verdict(
        i["line"].as_u64().unwrap_or(0),
        i["code"].as_str().unwrap_or_default(),
        i["path"].as_str().unwrap_or_default(),
        i["severity"].as_str().unwrap_or_default(),
    )
}

/// Compares the stream's surface `blocks` for `text` with the validator's
/// `issues` for it; `Err` says how they differ.
pub fn fence_agreement(text: &str, blocks: &[Value], issues: &[Issue]) -> Result<(), String> {
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
    // The body's own codes (a duplicate id, one surface too many, a fence
    // the text leaves open), with the checks of the fence they concern.
    let mut body_codes: Vec<Verdict> = blocks
        .iter()
        .flat_map(|b| b["issues"].as_array().into_iter().flatten())
        .filter(|i| BODY_CODES.contains(&i["code"].as_str().unwrap_or_default()))
        .map(json_verdict)
        .collect();
    let mut theirs_body: Vec<Verdict> = issues
        .iter()
        .filter(|i| BODY_CODES.contains(&i.code))
        .map(issue_verdict)
        .collect();
    body_codes.sort();
    theirs_body.sort();
    if body_codes != theirs_body {
        return Err(format!(
            "body codes: stream {body_codes:?}, validator {theirs_body:?}"
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
                .filter(|i| i["path"] != "")
                .map(json_verdict)
                .collect();
            if ours != theirs {
                return Err(format!(
                    "surface {id}: stream {ours:?}, validator {theirs:?}"
                ));
            }
            // The flags raised line by line are the closed surface's, path
            // for path.
            for flag in b["flags"]
                .as_array()
                .into_iter()
                .flatten()
                .map(json_verdict)
            {
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

/// Attributes whose value is a URL a browser would load or navigate to.
const URL_ATTRIBUTES: [&str; 6] = ["href", "src", "action", "formaction", "poster", "srcset"];

/// Whether `url`, read as a browser reads an attribute value (tab and
/// newline removed, control characters and spaces trimmed), names a
/// scheme that runs or embeds content.
fn runs_code(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .trim_matches(|c: char| c <= ' ')
        .to_ascii_lowercase();
    ["javascript:", "data:", "vbscript:"]
        .iter()
        .any(|s| cleaned.starts_with(s))
}

/// Text as an HTML parser hands it back: line ends normalized, NUL replaced.
fn as_parsed(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}")
}

/// The renderer, on any surface (or markdown body): the HTML it writes,
/// parsed by html5ever, holds no script but the state's JSON, no `on*`
/// attribute, no URL that runs code, no `style` but the visibility
/// wrapper's, and the literal text of every rendered Heading is a text
/// node of it, unchanged; the preview's markup (placeholders, a ghost)
/// holds none of these either.
pub fn render(data: &[u8]) {
    use surfaces_render::{render_markdown, render_surface_text, Ghost, Mode, Options};
    let catalog = Catalog::default_blog();
    let text = text_of(data);
    let parsed: Option<Value> = serde_json::from_str(&text).ok();
    let with = |mode| {
        let options = Options {
            mode,
            ..Options::default()
        };
        if parsed.is_some() {
            render_surface_text(&text, &catalog, options)
        } else {
            render_markdown(&text, &catalog, options)
        }
    };
    // The preview too, its placeholders' labels and a ghost drawn from the
    // first component, whatever it holds.
    let ghost = parsed.as_ref().and_then(|d| d.pointer("/components/0"));
    let ghost = ghost.map(|c| Ghost {
        op: "add",
        path: "/components/-",
        component: Some(c),
    });
    if let Some(html) = with(Mode::Preview { ghost }).html {
        safe_markup(&html);
    }
    let rendered = with(Mode::Published);
    let Some(html) = rendered.html else { return };
    let texts = safe_markup(&html);
    // Escaping: a rendered Heading's literal text comes back as one text node.
    let Some(doc) = parsed else { return };
    // With nothing flagged, every component reachable from root is rendered.
    if rendered.issues.iter().any(|i| i.severity == Severity::Flag) {
        return;
    }
    for c in doc["components"].as_array().into_iter().flatten() {
        if c["component"] != "Heading" {
            continue;
        }
        if let Some(title) = c["props"]["text"].as_str().filter(|t| !t.is_empty()) {
            assert!(texts.contains(&as_parsed(title)), "{title:?} in {html}");
        }
    }
}

/// Checks `html` as [`render`] says (no script but the state, no element
/// that reaches outside, no handler, no style of the content's, no URL that
/// runs code); gives its text nodes.
fn safe_markup(html: &str) -> BTreeSet<String> {
    use scraper::{Html, Node};
    let fragment = Html::parse_fragment(html);
    let mut texts = BTreeSet::new();
    for node in fragment.tree.nodes() {
        match node.value() {
            Node::Element(element) => {
                let name = element.name();
                if name == "script" {
                    assert_eq!(element.attr("type"), Some("application/json"), "{html}");
                    assert!(element.attr("data-ch-state").is_some(), "{html}");
                    let state: String = node
                        .children()
                        .filter_map(|c| c.value().as_text().map(|t| t.to_string()))
                        .collect();
                    assert!(
                        serde_json::from_str::<Value>(&state).is_ok(),
                        "state {state:?}"
                    );
                }
                assert!(
                    !["iframe", "object", "embed", "base", "meta", "style", "link"].contains(&name)
                );
                for (attr, value) in element.attrs() {
                    assert!(!attr.starts_with("on"), "{attr} in {html}");
                    assert!(attr != "srcdoc", "{html}");
                    assert!(
                        attr != "style" || value == "display:contents",
                        "{attr}={value:?}"
                    );
                    if URL_ATTRIBUTES.contains(&attr) {
                        assert!(!runs_code(value), "{attr}={value:?} in {html}");
                    }
                }
            }
            Node::Text(t) => {
                texts.insert(t.to_string());
            }
            _ => {}
        }
    }
    texts
}

/// The function set and conditions over arbitrary `[expression, data]`:
/// checking and evaluating end without panic, a condition evaluates only
/// when it checks clean, and the checker's pointers resolve in the
/// expression.
pub fn functions(data: &[u8]) {
    use surfaces_core::function::{check_value, evaluate, PlainHost};
    use surfaces_core::{condition, problem::Findings};
    let (expr, state) = match doc_and_ops(data) {
        Some(pair) => pair,
        None => (
            serde_json::from_slice(data).unwrap_or(Value::Null),
            Value::Null,
        ),
    };
    let mut found = Findings::default();
    check_value(&&expr, &mut String::new(), &mut found);
    let _ = evaluate(&&expr, &&state, &PlainHost);
    let mut conditions = Findings::default();
    condition::check(&&expr, &mut String::new(), &mut conditions);
    let verdict = condition::evaluate(&&expr, &&state);
    if conditions.problems.is_empty() {
        assert!(
            verdict.is_some(),
            "a condition that checks clean evaluates: {expr}"
        );
    }
    for problem in found.problems.iter().chain(&conditions.problems) {
        assert!(
            problem.pointer.is_empty() || expr.pointer(&problem.pointer).is_some(),
            "{problem:?} in {expr}"
        );
    }
}

/// A property: any bytes in, a panic when it breaks.
pub type Property = fn(&[u8]);

/// Every property by its fuzz target's name.
pub const ALL: [(&str, Property); 12] = [
    ("json", json),
    ("partial_json", partial_json),
    ("jsonl", jsonl),
    ("markdown_stream", markdown_stream),
    ("a2ui", a2ui),
    ("a2ui_import", a2ui_import),
    ("pointer", pointer),
    ("apply_patch", apply_patch),
    ("validate", validate),
    ("fence_lines", fence_lines),
    ("render", render),
    ("functions", functions),
];
