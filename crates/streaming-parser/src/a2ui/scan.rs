//! The block scanner: prose outside the tags passes as text (a tag cut by a
//! chunk boundary held back), and inside a block each message of the list
//! is taken as soon as its last closer arrives, with the closers a model
//! dropped restored.

use super::{push_message, A2uiStream, Part, CLOSE_TAG, OPEN_TAG};
use crate::jsonl::repair;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::Value;

impl A2uiStream {
    /// Reads a chunk; returns the parts it completes, or the error that
    /// stops the stream.
    pub fn process_chunk(&mut self, chunk: &str) -> Result<Vec<Part>, String> {
        let mut parts = Vec::new();
        self.read_chunk(chunk, &mut parts)?;
        Ok(parts)
    }

    /// Reads a chunk into `parts`; on an error, `parts` keeps what came
    /// before it in the chunk (as it would had the chunk been cut there).
    pub(super) fn read_chunk(&mut self, chunk: &str, parts: &mut Vec<Part>) -> Result<(), String> {
        self.buffer.push_str(chunk);
        loop {
            if !self.in_block {
                if let Some(at) = self.buffer.find(OPEN_TAG) {
                    let text = self.buffer.get(..at).unwrap_or_default().to_string();
                    if !text.is_empty() {
                        parts.push(Part {
                            text: Some(text),
                            a2ui: None,
                        });
                    }
                    self.buffer = self
                        .buffer
                        .get(at + OPEN_TAG.len()..)
                        .unwrap_or_default()
                        .to_string();
                    self.in_block = true;
                    continue;
                }
                let keep = held_tag_prefix(&self.buffer, OPEN_TAG);
                let cut = self.buffer.len() - keep;
                if cut > 0 {
                    let text = self.buffer.get(..cut).unwrap_or_default().to_string();
                    parts.push(Part {
                        text: Some(text),
                        a2ui: None,
                    });
                    self.buffer = self.buffer.get(cut..).unwrap_or_default().to_string();
                }
                break;
            }
            if let Some(at) = self.buffer.find(CLOSE_TAG) {
                let json = self.buffer.get(..at).unwrap_or_default().to_string();
                self.read_json(&json, parts)?;
                if !self.message.trim().is_empty() {
                    // The block has ended, so has its last message: the
                    // closers a model dropped are restored (never a cut
                    // string's quote).
                    let mut rest = core::mem::take(&mut self.message);
                    if !self.in_string {
                        rest.extend(self.open.iter().rev());
                    }
                    self.take_message(&rest, parts)?;
                }
                self.reset_block();
                self.buffer = self
                    .buffer
                    .get(at + CLOSE_TAG.len()..)
                    .unwrap_or_default()
                    .to_string();
                continue;
            }
            let keep = held_tag_prefix(&self.buffer, CLOSE_TAG);
            let cut = self.buffer.len() - keep;
            let json = self.buffer.get(..cut).unwrap_or_default().to_string();
            self.buffer = self.buffer.get(cut..).unwrap_or_default().to_string();
            self.read_json(&json, parts)?;
            self.sniff(parts)?;
            break;
        }
        Ok(())
    }

    fn reset_block(&mut self) {
        self.in_block = false;
        self.message.clear();
        self.open.clear();
        self.in_list = false;
        self.in_string = false;
        self.escaped = false;
        self.sniffed = 0;
    }

    fn read_json(&mut self, json: &str, parts: &mut Vec<Part>) -> Result<(), String> {
        for c in json.chars() {
            if self.in_string {
                self.message.push(c);
                if self.escaped {
                    self.escaped = false;
                } else if c == '\\' {
                    self.escaped = true;
                } else if c == '"' {
                    self.in_string = false;
                }
                continue;
            }
            match c {
                '[' if self.open.is_empty() && !self.in_list => self.in_list = true,
                ']' if self.open.is_empty() => self.in_list = false,
                // Separators, and closers a model wrote once too often.
                ',' | '}' if self.open.is_empty() => {}
                '{' if self.open.last() == Some(&'}') && self.message.trim_end().ends_with(',') => {
                    // An object where a key should be: the message before
                    // it was left open (a model dropped its last brace).
                    let mut before = core::mem::take(&mut self.message);
                    before.extend(self.open.drain(..).rev());
                    self.take_message(&before, parts)?;
                    self.open.push('}');
                    self.message.push(c);
                }
                '{' => {
                    self.open.push('}');
                    self.message.push(c);
                }
                '[' => {
                    self.open.push(']');
                    self.message.push(c);
                }
                '}' | ']' => {
                    self.message.push(c);
                    // As `balance` reads it: a closer also closes what a
                    // model forgot to close inside it; one of the wrong
                    // kind closes the innermost.
                    if self.open.contains(&c) {
                        while self.open.pop().is_some_and(|want| want != c) {}
                    } else {
                        self.open.pop();
                    }
                    if self.open.is_empty() {
                        let message = core::mem::take(&mut self.message);
                        self.take_message(&message, parts)?;
                    }
                }
                '"' => {
                    self.in_string = true;
                    self.string_start = self.message.len();
                    self.message.push(c);
                }
                c if self.open.is_empty() && c.is_whitespace() => {}
                c => self.message.push(c),
            }
        }
        Ok(())
    }

    fn take_message(&mut self, text: &str, parts: &mut Vec<Part>) -> Result<(), String> {
        // The next message is read from its start again.
        self.sniffed = 0;
        self.read.clear();
        // A repeated key would count as its last here and as its first in
        // the readings that showed the message while it streamed.
        if crate::partial::repeats_a_key(text) {
            return Err(String::from(
                "Failed to parse JSON: a message names a key twice",
            ));
        }
        let value: Value = surfaces_core::json::parse(text)
            .or_else(|_| surfaces_core::json::parse(&repair(text)))
            .or_else(|_| surfaces_core::json::parse(&balance(&repair(text))))
            .map_err(|e| ["Failed to parse JSON: ", &e.to_string()].concat())?;
        let messages = self.handle(value)?;
        self.provisional = 0;
        self.undo.clear();
        for message in messages {
            push_message(parts, message);
        }
        Ok(())
    }
}

/// Closes what a closer skips over: `{"a": [{"b": 1]}` becomes
/// `{"a": [{"b": 1}]}` (models drop a brace before a bracket); a closer of
/// the wrong kind closes the innermost, one for nothing open is dropped.
pub(super) fn balance(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut open: Vec<char> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
            out.push(c);
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => open.push('}'),
            '[' => open.push(']'),
            '}' | ']' => {
                if !open.contains(&c) {
                    // A closer of the wrong kind closes the innermost; one
                    // for nothing open is dropped.
                    if let Some(want) = open.pop() {
                        out.push(want);
                    }
                    continue;
                }
                while let Some(&want) = open.last() {
                    if want == c {
                        break;
                    }
                    out.push(want);
                    open.pop();
                }
                open.pop();
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// How many bytes at the end of `buffer` could begin `tag`.
fn held_tag_prefix(buffer: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| tag.get(..n).is_some_and(|prefix| buffer.ends_with(prefix)))
        .unwrap_or(0)
}
