//! The tolerant reader for a model's JSON Lines answer.
//!
//! Models asked for one JSON object per line write objects across lines,
//! several on a line, prose between them, code fences around them, raw
//! control characters inside strings and trailing commas. This reader takes
//! each balanced `{...}` as it completes, repairs those slips (never the
//! values), and reports:
//!
//! - `{"kind": "step", "line", "ops": [...]}` for a bare operation (an
//!   object with `op`) or `{"ops": [...]}`, each read as one step;
//! - `{"kind": "value", "line", "value"}` for any other object;
//! - `{"kind": "text", "line", "text"}` for prose and fence lines set aside;
//! - `{"kind": "error", "line", "code", "message"}` for an object that does
//!   not parse even after repair (`invalid_json`) or is larger than
//!   [`OBJECT_LIMIT`] (`object_too_large`, skipped unread).
//!
//! `line` is where the item starts, counted from 1. The unfinished object is
//! shown as `partial` (lenient, cut strings closed only for display keys).

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Value};
use surfaces_core::fence::opening_fence;

use crate::partial::{is_display_key, parse};
use crate::utf8::Decoder;

/// An object longer than this (in bytes) is skipped with `object_too_large`.
pub const OBJECT_LIMIT: usize = 1024 * 1024;
/// An unfinished object longer than this shows no partial view.
pub const PARTIAL_LIMIT: usize = 8 * 1024;

/// Reads a JSON Lines answer chunk by chunk.
#[derive(Debug, Default, Clone)]
pub struct JsonlStream {
    decoder: Decoder,
    items: Vec<Value>,
    /// Prose of the current line outside objects.
    text: String,
    text_line: usize,
    line: usize,
    /// The object being read, its nesting depth and string state.
    object: Option<Object>,
    partial_seen: Option<Value>,
}

#[derive(Debug, Clone, Default)]
struct Object {
    text: String,
    line: usize,
    depth: usize,
    /// Inside a string, and the quote that closes it.
    quote: Option<char>,
    escaped: bool,
    too_large: bool,
}

impl JsonlStream {
    /// A reader with nothing read yet.
    pub fn new() -> JsonlStream {
        JsonlStream {
            line: 1,
            text_line: 1,
            ..JsonlStream::default()
        }
    }

    /// Reads UTF-8 bytes split anywhere; returns the new items and, when it
    /// changed, the partial object (`{"kind": "partial", "value"}`).
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Value> {
        let text = self.decoder.push(bytes);
        self.push(&text)
    }

    /// Reads the next chunk of text.
    pub fn push(&mut self, text: &str) -> Vec<Value> {
        let from = self.items.len();
        for c in text.chars() {
            self.step(c);
        }
        self.changes(from)
    }

    /// The input ended: prose left over is reported; an unfinished object
    /// stays partial.
    pub fn finish(&mut self) -> Vec<Value> {
        let from = self.items.len();
        let rest = self.decoder.finish();
        for c in rest.chars() {
            self.step(c);
        }
        self.flush_text();
        self.changes(from)
    }

    /// `{"items": [...], "partial": null | value}`.
    pub fn document(&self) -> Value {
        validator_wasm::object([
            ("items", self.items.clone().into()),
            ("partial", self.partial().into()),
        ])
    }

    fn changes(&mut self, from: usize) -> Vec<Value> {
        let mut out: Vec<Value> = self.items.get(from..).unwrap_or_default().to_vec();
        let partial = self.partial();
        if partial != self.partial_seen {
            self.partial_seen = partial.clone();
            out.push(validator_wasm::object([
                ("kind", "partial".into()),
                ("value", partial.into()),
            ]));
        }
        out
    }

    fn partial(&self) -> Option<Value> {
        let object = self.object.as_ref()?;
        if object.too_large || object.text.len() > PARTIAL_LIMIT {
            return None;
        }
        parse(&object.text, is_display_key).map(|p| p.value)
    }

    fn step(&mut self, c: char) {
        if let Some(object) = self.object.as_mut() {
            let done = object.read(c);
            if done {
                if let Some(object) = self.object.take() {
                    self.finish_object(object);
                }
            }
        } else if c == '{' {
            self.flush_text();
            self.object = Some(Object {
                text: String::from("{"),
                line: self.line,
                depth: 1,
                ..Object::default()
            });
        } else if c != '\n' {
            if self.text.is_empty() {
                self.text_line = self.line;
            }
            self.text.push(c);
        }
        if c == '\n' {
            self.flush_text();
            self.line += 1;
        }
    }

    /// Reports the prose of the line so far, unless it is only separators.
    fn flush_text(&mut self) {
        let text = core::mem::take(&mut self.text);
        let trimmed = text.trim();
        if trimmed
            .chars()
            .all(|c| matches!(c, '[' | ']' | ',') || c.is_whitespace())
        {
            return;
        }
        let kind = if opening_fence(&text).is_some() {
            "fence"
        } else {
            "prose"
        };
        self.items
            .push(json!({"kind": "text", "line": self.text_line, "text": trimmed, "as": kind}));
    }

    fn finish_object(&mut self, object: Object) {
        let line = object.line;
        if object.too_large {
            self.items.push(json!({"kind": "error", "line": line, "code": "object_too_large",
                "message": alloc::format!("an object may hold at most {OBJECT_LIMIT} bytes; split it into several")}));
            return;
        }
        let value: Value = match surfaces_core::json::parse(&object.text)
            .or_else(|_| surfaces_core::json::parse(&repair(&object.text)))
        {
            Ok(value) => value,
            Err(e) => {
                self.items.push(json!({"kind": "error", "line": line, "code": "invalid_json",
                    "message": alloc::format!("this object is not valid JSON ({e}); write one JSON object per line")}));
                return;
            }
        };
        // The line's value moved in (json! would copy it through to_value).
        let step = |ops: Value| {
            validator_wasm::object([("kind", "step".into()), ("line", line.into()), ("ops", ops)])
        };
        let item = match value.get("ops").filter(|ops| ops.is_array()) {
            Some(ops) => step(ops.clone()),
            None if value.get("op").is_some_and(Value::is_string) => {
                step(Value::Array(Vec::from([value])))
            }
            None => validator_wasm::object([
                ("kind", "value".into()),
                ("line", line.into()),
                ("value", value),
            ]),
        };
        self.items.push(item);
    }
}

impl Object {
    /// Takes one character; `true` when the object just closed.
    fn read(&mut self, c: char) -> bool {
        if self.text.len() < OBJECT_LIMIT {
            self.text.push(c);
        } else {
            self.too_large = true;
        }
        match self.quote {
            Some(_) if self.escaped => self.escaped = false,
            Some(_) if c == '\\' => self.escaped = true,
            Some(q) if c == q => self.quote = None,
            Some(_) => {}
            None => match c {
                '"' => self.quote = Some('"'),
                '{' | '[' => self.depth += 1,
                '}' | ']' => {
                    self.depth = self.depth.saturating_sub(1);
                    return self.depth == 0;
                }
                _ => {}
            },
        }
        false
    }
}

/// Repairs the slips models make in JSON, outside of what values mean:
/// raw control characters in strings are escaped, trailing commas before
/// `}` or `]` are dropped, and typographic double quotes used as string
/// delimiters become `"`.
pub fn repair(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            if escaped {
                escaped = false;
                out.push(c);
            } else if c == '\\' {
                escaped = true;
                out.push(c);
            } else if c == '"' || c == '\u{201D}' {
                in_string = false;
                out.push('"');
            } else if (c as u32) < 0x20 {
                match c {
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    _ => out.push_str(&alloc::format!("\\u{:04x}", c as u32)),
                }
            } else {
                out.push(c);
            }
            continue;
        }
        match c {
            '"' | '\u{201C}' | '\u{201D}' => {
                in_string = true;
                out.push('"');
            }
            ',' => {
                let mut ahead = chars.clone();
                while ahead.peek().is_some_and(|c| c.is_whitespace()) {
                    ahead.next();
                }
                if !matches!(ahead.peek(), Some('}' | ']')) {
                    out.push(',');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Value {
        let mut s = JsonlStream::new();
        s.push(text);
        s.finish();
        s.document()
    }

    fn kinds(doc: &Value) -> Vec<&str> {
        doc["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["kind"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn objects_across_lines_and_several_on_a_line() {
        let doc = read("{\"op\":\"add\",\n \"path\":\"/a\",\"value\":1}\n{\"a\":1} {\"b\":2}\n");
        assert_eq!(kinds(&doc), ["step", "value", "value"]);
        assert_eq!(doc["items"][0]["ops"][0]["path"], "/a");
        assert_eq!(doc["items"][2]["line"], 3);
    }

    #[test]
    fn prose_and_fences_are_set_aside_as_text() {
        let doc = read("Here you go:\n```jsonl\n{\"a\":1}\n```\nDone.");
        assert_eq!(kinds(&doc), ["text", "text", "value", "text", "text"]);
        assert_eq!(doc["items"][1]["as"], "fence");
        assert_eq!(doc["items"][0]["text"], "Here you go:");
        assert_eq!(doc["items"][4]["text"], "Done.");
    }

    #[test]
    fn repairs_control_characters_trailing_commas_and_smart_quotes() {
        let doc = read("{\"text\":\"a\tb\nc\",\"list\":[1,2,],}\n");
        assert_eq!(
            doc["items"][0]["value"],
            json!({"text":"a\tb\nc","list":[1,2]})
        );
        assert_eq!(
            repair("{\u{201C}a\u{201D}: \"x, y\",}"),
            "{\"a\": \"x, y\"}"
        );
        assert_eq!(repair("[\"\u{1}\"]"), "[\"\\u0001\"]");
    }

    #[test]
    fn ops_lists_are_one_step() {
        let doc = read("{\"ops\":[{\"op\":\"add\",\"path\":\"/x\",\"value\":1},{\"op\":\"remove\",\"path\":\"/y\"}]}");
        assert_eq!(kinds(&doc), ["step"]);
        assert_eq!(doc["items"][0]["ops"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn arrays_of_objects_drop_their_separators() {
        let doc = read("[\n{\"a\":1},\n{\"b\":2}\n]\n");
        assert_eq!(kinds(&doc), ["value", "value"]);
    }

    #[test]
    fn broken_objects_are_errors_and_the_next_ones_still_read() {
        let doc = read("{\"a\": nope}\n{\"b\":1}\n");
        assert_eq!(kinds(&doc), ["error", "value"]);
        assert_eq!(doc["items"][0]["code"], "invalid_json");
    }

    #[test]
    fn the_unfinished_object_is_partial() {
        let mut s = JsonlStream::new();
        let changes = s.push("{\"op\":\"add\",\"value\":{\"text\":\"Hel");
        assert_eq!(
            changes,
            [json!({"kind":"partial","value":{"op":"add","value":{"text":"Hel"}}})]
        );
        let changes = s.push("lo\"}}");
        assert_eq!(changes[0]["kind"], "step");
        assert_eq!(changes[1], json!({"kind":"partial","value":null}));
    }

    #[test]
    fn an_oversized_object_is_skipped_with_a_code() {
        let big = alloc::format!("{{\"a\":\"{}\"}}\n{{\"b\":1}}", "x".repeat(OBJECT_LIMIT));
        let doc = read(&big);
        assert_eq!(kinds(&doc), ["error", "value"]);
        assert_eq!(doc["items"][0]["code"], "object_too_large");
    }

    #[test]
    fn any_chunking_reads_the_same() {
        let text = "Intro é\n```json\n{\"op\":\"add\",\"path\":\"/a\",\n\"value\":\"x\ty\"}{\"ops\":[]}\n```\n{\"a\":[1,],}\nbye 😀";
        let whole = read(text);
        for size in 1..8 {
            let mut s = JsonlStream::new();
            for chunk in text.as_bytes().chunks(size) {
                s.push_bytes(chunk);
            }
            s.finish();
            assert_eq!(s.document(), whole, "chunks of {size}");
        }
    }
}
