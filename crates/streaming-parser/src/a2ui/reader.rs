//! An A2UI stream behind the crate's common face: bytes in, JSON changes
//! out, and the document of every part so far.

use super::{A2uiStream, Part, Version};
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Value};

/// An A2UI stream behind the common face: bytes in, JSON changes out.
#[derive(Debug, Clone)]
pub struct A2uiReader {
    decoder: crate::utf8::Decoder,
    stream: A2uiStream,
    parts: Vec<Value>,
    error: Option<String>,
}

impl A2uiReader {
    /// A reader of v0.9 and v1.0 messages, each read as the version it
    /// names (one naming none as v0.9).
    pub fn new() -> A2uiReader {
        A2uiReader {
            decoder: crate::utf8::Decoder::default(),
            stream: A2uiStream::new(Version::V09),
            parts: Vec::new(),
            error: None,
        }
    }

    /// Reads text; returns the new parts (`{"text"?, "a2ui"?}`) or, once,
    /// `{"error": message}`, after which input is ignored.
    pub fn push(&mut self, text: &str) -> Vec<Value> {
        if self.error.is_some() {
            return Vec::new();
        }
        let mut parts = Vec::new();
        let result = self.stream.read_chunk(text, &mut parts);
        self.take(parts, result)
    }

    /// Adds the parts a read gave to the document; on its error, takes out
    /// what the readings of the refused message showed.
    fn take(&mut self, parts: Vec<Part>, result: Result<(), String>) -> Vec<Value> {
        for part in &parts {
            self.merge(part);
        }
        let mut out: Vec<Value> = parts.iter().map(Part::to_json).collect();
        if let Err(e) = result {
            self.withdraw(self.stream.provisional);
            out.push(json!({"error": e}));
            self.error = Some(e);
        }
        out
    }

    /// Reads bytes split anywhere.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Value> {
        let text = self.decoder.push(bytes);
        self.push(&text)
    }

    /// Adds a part to the document so that any chunking yields the same
    /// parts: prose joins the prose before it until messages follow.
    fn merge(&mut self, part: &Part) {
        let last = self.parts.last_mut().and_then(Value::as_object_mut);
        match (last, &part.text) {
            (Some(last), Some(text)) if !last.contains_key("a2ui") => {
                let joined = [
                    last.get("text").and_then(Value::as_str).unwrap_or_default(),
                    text,
                ]
                .concat();
                last.insert("text".into(), json!(joined));
                if let Some(a2ui) = &part.a2ui {
                    last.insert("a2ui".into(), json!(a2ui));
                }
            }
            (Some(last), None) => {
                let list = last.entry("a2ui").or_insert_with(|| json!([]));
                if let (Some(list), Some(more)) = (list.as_array_mut(), &part.a2ui) {
                    list.extend(more.iter().cloned());
                }
            }
            _ => self.parts.push(part.to_json()),
        }
    }

    /// Takes the last `n` messages out of the document: what the readings
    /// of a refused message showed (they were the last emitted, as nothing
    /// else is emitted while a message streams). A refused message then
    /// leaves nothing of itself, however the text was cut: the messages
    /// before it stay.
    fn withdraw(&mut self, n: usize) -> Vec<Value> {
        let Some(part) = self.parts.last_mut().and_then(Value::as_object_mut) else {
            return Vec::new();
        };
        let mut taken = Vec::new();
        if let Some(list) = part.get_mut("a2ui").and_then(Value::as_array_mut) {
            taken = list.split_off(list.len().saturating_sub(n));
            if list.is_empty() {
                part.remove("a2ui");
            }
        }
        if part.is_empty() {
            self.parts.pop();
        }
        taken
    }

    /// Ends the input. When the text ended inside a message, what its
    /// readings showed is replaced in the document by one reading of all of
    /// it (so the document is the one the whole text gives, however it was
    /// cut); the change is returned only when that reading differs.
    pub fn finish(&mut self) -> Vec<Value> {
        let rest = self.decoder.finish();
        let mut out = self.push(&rest);
        if self.error.is_some() || !self.stream.in_message() {
            return out;
        }
        let shown = self.withdraw(self.stream.provisional);
        let mut parts = Vec::new();
        let result = self.stream.read_again(&mut parts);
        let again: Vec<&Value> = parts.iter().flat_map(|p| p.a2ui.iter().flatten()).collect();
        let same = result.is_ok() && again.iter().copied().eq(shown.iter());
        let changes = self.take(parts, result);
        if !same {
            out.extend(changes);
        }
        out
    }

    /// `{"parts": [...], "error": null | message}`.
    pub fn document(&self) -> Value {
        json!({"parts": self.parts, "error": self.error})
    }
}

impl Default for A2uiReader {
    fn default() -> Self {
        A2uiReader::new()
    }
}
