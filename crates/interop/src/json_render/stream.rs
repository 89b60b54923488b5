//! json-render's SpecStream read into operations on a surface: JSON Lines,
//! each an RFC 6902 operation on a json-render spec (`/root`,
//! `/elements/<key>`, `/state/...`), as `@json-render/core`'s
//! `createSpecStreamCompiler` reads them.
//!
//! Each operation is applied to the spec whole or not at all (one that does
//! not apply is noted with its `applyPatch` code and the line's pointer,
//! and the spec stays as it was). As json-render applies them, `add` and
//! `replace` create what is missing on their way (a list before a position
//! segment, else an object, over a value that is neither) and `replace`
//! of a missing member adds it; after each push, once the spec has a
//! `root` and `elements`, it is converted ([`from_json_render`]) and
//! compared with what the operations so far built, giving the operations
//! that bring the surface up to date (the comparison `A2uiImport` makes).
//!
//! ```
//! use interop::json_render::JsonRenderImport;
//!
//! let mut import = JsonRenderImport::new("");
//! let ops = import.push_text(concat!(
//!     r#"{"op": "add", "path": "/root", "value": "main"}"#, "\n",
//!     r#"{"op": "add", "path": "/elements/main", "value": {"type": "Heading", "props": {"text": "Hi"}}}"#, "\n"));
//! assert_eq!(ops[0]["value"]["components"][0]["props"]["text"], "Hi");
//! let ops = import.push_text(concat!(
//!     r#"{"op": "replace", "path": "/elements/main/props/text", "value": "Hello"}"#, "\n"));
//! assert_eq!(ops[0]["path"], "/components/0");
//! ```

use super::from_json_render;
use crate::note::{at_index, too_deep, Note};
use crate::shown::Shown;
use serde_json::{json, Value};
use streaming_parser::JsonlStream;
use surfaces_core::pointer;
use validator_wasm::patch::apply_patch_in_place;

/// A SpecStream in, RFC 6902 operations on one surface document out.
#[derive(Debug, Clone)]
pub struct JsonRenderImport {
    lines: JsonlStream,
    spec: Value,
    /// Operations read so far: the next one's pointer is `/<read>`.
    read: usize,
    notes: Vec<Note>,
    converted: Vec<Note>,
    /// `read` when the spec was last converted.
    converted_at: usize,
    shown: Shown,
}

impl JsonRenderImport {
    /// An import whose surface sits at `at` in the draft's document.
    pub fn new(at: &str) -> JsonRenderImport {
        JsonRenderImport {
            lines: JsonlStream::new(),
            spec: json!({}),
            read: 0,
            notes: Vec::new(),
            converted: Vec::new(),
            converted_at: 0,
            shown: Shown::new(at),
        }
    }

    /// The next chunk of the SpecStream's text.
    pub fn push_text(&mut self, chunk: &str) -> Vec<Value> {
        let items = self.lines.push(chunk);
        self.read_items(items)
    }

    /// The next chunk of its UTF-8 bytes, split anywhere.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Vec<Value> {
        let items = self.lines.push_bytes(chunk);
        self.read_items(items)
    }

    /// One operation, or a list of them, as values.
    pub fn push_value(&mut self, value: &Value) -> Vec<Value> {
        let ops = match value {
            Value::Array(ops) => ops.clone(),
            op => vec![op.clone()],
        };
        self.apply(ops)
    }

    /// The text ended: its last line is read.
    pub fn finish(&mut self) -> Vec<Value> {
        let items = self.lines.finish();
        self.read_items(items)
    }

    /// The notes so far: of the operations that did not apply, then of
    /// converting the spec as it is now.
    pub fn notes(&self) -> Vec<Note> {
        self.notes.iter().chain(&self.converted).cloned().collect()
    }

    /// The surface the operations so far build, once the spec has a root.
    pub fn surface(&self) -> Option<&Value> {
        self.shown.surface()
    }

    /// The spec so far.
    pub fn spec(&self) -> &Value {
        &self.spec
    }

    fn read_items(&mut self, items: Vec<Value>) -> Vec<Value> {
        let mut ops = Vec::new();
        for item in items {
            match item["kind"].as_str() {
                // A bare operation is a step of one; any other object is
                // read as an operation too (and refused if it is none).
                Some("step") => ops.extend(item["ops"].as_array().into_iter().flatten().cloned()),
                Some("value") => ops.push(item["value"].clone()),
                Some("error") => {
                    // Notes in the text's order: what came before first.
                    ops.drain(..).for_each(|op| self.apply_op(op));
                    self.note_line(&item);
                }
                _ => {}
            }
        }
        self.apply(ops)
    }

    /// A line that is no JSON, noted at the pointer the next operation
    /// would have.
    fn note_line(&mut self, item: &Value) {
        let note = Note::bad_line("invalid_operation", self.read, item);
        self.notes.push(note);
    }

    fn apply(&mut self, ops: Vec<Value>) -> Vec<Value> {
        let changed = !ops.is_empty() || self.read > self.converted_at;
        ops.into_iter().for_each(|op| self.apply_op(op));
        if !changed {
            return Vec::new();
        }
        self.converted_at = self.read;
        if self.spec.get("root").is_none() || self.spec.get("elements").is_none() {
            return Vec::new();
        }
        let read = from_json_render(&self.spec);
        self.converted = read.notes;
        self.shown.update(read.surface)
    }

    /// Applies one operation to the spec, or notes why not.
    fn apply_op(&mut self, mut op: Value) {
        let at = at_index("", self.read);
        self.read += 1;
        let mut work = None;
        if matches!(op["op"].as_str(), Some("add" | "replace")) {
            let path = op["path"].as_str().unwrap_or_default();
            let segments = pointer::parse(path).unwrap_or_default();
            // (The spec is level 1.)
            if let Some(note) = too_deep(1, segments.len(), &op["value"], &at) {
                self.notes.push(note);
                return;
            }
            if let Some((last, parents)) = segments.split_last() {
                match container(&self.spec, parents) {
                    Some(Value::Object(map)) if !map.contains_key(last) => {
                        op["op"] = json!("add");
                    }
                    Some(Value::Array(items)) if at_end(items, last) => {
                        op["op"] = json!("add");
                    }
                    Some(_) => {}
                    None => {
                        // Containers to make first: on a copy, so that a
                        // refused operation leaves the spec as it was.
                        let mut spec = self.spec.clone();
                        if make_parents(&mut spec, &segments) {
                            op["op"] = json!("add");
                        }
                        work = Some(spec);
                    }
                }
            }
        }
        let target = work.as_mut().unwrap_or(&mut self.spec);
        match apply_patch_in_place(target, &Value::Array(vec![op])) {
            Ok(()) => {
                if let Some(spec) = work {
                    self.spec = spec;
                }
            }
            Err(e) => {
                let message = [&e.message, " (", &e.path, "); the operation is left out"].concat();
                self.notes.push(Note::new(e.code, at, message));
            }
        }
    }
}

/// The object or list at `segments`, if there is one.
fn container<'a>(spec: &'a Value, segments: &[String]) -> Option<&'a Value> {
    let mut node = spec;
    for segment in segments {
        node = match node {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(pointer::array_index(segment)?)?,
            _ => return None,
        };
    }
    (node.is_object() || node.is_array()).then_some(node)
}

/// Creates the containers `segments` go through where they are missing or
/// not containers (a list before a position or `-`, else an object), as
/// json-render's `setByPath` does; whether the last one is missing (a
/// `replace` of it is then an `add`).
fn make_parents(spec: &mut Value, segments: &[String]) -> bool {
    let Some((last, parents)) = segments.split_last() else {
        return false;
    };
    let mut node = spec;
    for (i, segment) in parents.iter().enumerate() {
        let next = segments.get(i + 1).map_or("", String::as_str);
        let list = next == "-" || pointer::array_index(next).is_some();
        let empty = || if list { json!([]) } else { json!({}) };
        node = match node {
            Value::Object(map) => {
                let child = map.entry(segment.clone()).or_insert_with(empty);
                if !child.is_object() && !child.is_array() {
                    *child = empty();
                }
                child
            }
            Value::Array(items) => match pointer::array_index(segment) {
                Some(index) if index < items.len() => {
                    let child = &mut items[index];
                    if !child.is_object() && !child.is_array() {
                        *child = empty();
                    }
                    child
                }
                _ => return false,
            },
            _ => return false,
        };
    }
    match node {
        Value::Object(map) => !map.contains_key(last),
        Value::Array(items) => at_end(items, last),
        _ => false,
    }
}

/// Whether `segment` names the place just past a list's end (`-`, or its
/// length): json-render's `setByPath` writes there, as an `add` appends.
fn at_end(items: &[Value], segment: &str) -> bool {
    segment == "-" || pointer::array_index(segment) == Some(items.len())
}
