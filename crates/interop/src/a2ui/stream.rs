//! Streaming import: A2UI messages as they arrive, turned into the RFC 6902
//! operations that bring one surface document up to date (SPEC.md section
//! 14, `A2uiImport`), for a `Draft` to repair, validate and apply like any
//! other operation.
//!
//! Messages come as values ([`A2uiImport::push_value`]: one message or a
//! list) or as text in any chunking ([`A2uiImport::push_text`],
//! [`A2uiImport::push_bytes`], then [`A2uiImport::finish`]): JSON Lines
//! (the tolerant reader: an object is read when it closes, whatever its
//! lines), an answer with `<a2ui-json>` blocks (a block is read when its
//! closing tag arrives), or one JSON list (read at the end). The kind is
//! decided by the text's first character that is not white space (`{`
//! lines, `[` a list, whatever their strings hold; as `from_a2ui` reads
//! the whole) or by an opening tag, and prose before it waits. Each
//! message is applied to the A2UI model in order, as [`from_a2ui`] applies
//! the whole (refused ones noted, the rest read), so the operations of all
//! pushes, applied in order, build [`from_a2ui`]'s surface of the whole.
//!
//! The followed surface (the `surfaceId` asked for, or the first one
//! created) is converted the first time it has a `root`: one `replace` of
//! the whole surface at `at`. After that, a push's changes are followed in
//! place where they can be ([`Tree::update`]: what a message defined or
//! wrote converted and compared, at a cost proportional to the message and
//! the siblings of what it changed); where the change depends on the
//! whole walk (templates, tab panels, a component named twice, a subtree
//! moved), the surface is converted again and compared with what the
//! operations so far built ([`Shown`]), at a cost proportional to the
//! surface.
//!
//! ```
//! use interop::a2ui::A2uiImport;
//! use serde_json::json;
//!
//! let mut import = A2uiImport::new(None, "");
//! let ops = import.push_text(concat!(
//!     r#"{"version": "v1.0", "createSurface": {"surfaceId": "s", "components": ["#,
//!     r#"{"id": "root", "component": "Text", "text": "Hi"}]}}"#, "\n"));
//! assert_eq!(ops[0]["op"], "replace");
//! assert_eq!(ops[0]["value"]["components"][0]["props"]["text"], "Hi");
//! let ops = import.push_text(concat!(
//!     r#"{"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 2}}"#,
//!     "\n"));
//! assert_eq!(ops, vec![json!({"op": "add", "path": "/data/n", "value": 2})]);
//! ```
//!
//! [`from_a2ui`]: super::from_a2ui

use super::messages;
use super::tree::Tree;
use crate::note::{at_index, Note};
use crate::shown::Shown;
use serde_json::Value;
use streaming_parser::a2ui::{CLOSE_TAG, OPEN_TAG};
use streaming_parser::{Decoder, JsonlStream};

/// How the text is read, once its kind is known.
#[derive(Debug, Clone)]
enum Text {
    /// Nothing but white space or prose yet.
    Undecided(String),
    /// JSON Lines.
    Lines(Box<JsonlStream>),
    /// An answer with `<a2ui-json>` blocks: the text after the last block.
    Blocks(String),
    /// One JSON value, read at the end.
    Whole(String),
}

/// A2UI messages in, RFC 6902 operations on one surface document out.
#[derive(Debug, Clone)]
pub struct A2uiImport {
    follow: Option<String>,
    model: messages::Model,
    decoder: Decoder,
    text: Text,
    /// Messages read so far: the next one's pointer is `/<read>`.
    read: usize,
    /// Notes of reading and applying the messages.
    notes: Vec<Note>,
    /// The followed surface's conversion, once it has a root.
    tree: Option<Tree>,
    /// The surface the operations so far build.
    shown: Shown,
}

impl A2uiImport {
    /// An import following the surface `surface` (by default the first one
    /// created), which sits at `at` in the draft's document (`""` when the
    /// draft is that surface).
    pub fn new(surface: Option<&str>, at: &str) -> A2uiImport {
        A2uiImport {
            follow: surface.map(str::to_string),
            model: messages::Model::default(),
            decoder: Decoder::default(),
            text: Text::Undecided(String::new()),
            read: 0,
            notes: Vec::new(),
            tree: None,
            shown: Shown::new(at),
        }
    }

    /// One message, or a list of them (or `{"messages": [...]}`).
    pub fn push_value(&mut self, value: &Value) -> Vec<Value> {
        let list = messages::read_value(value);
        self.apply(list.into_iter().map(|(_, message)| message).collect())
    }

    /// The next chunk of UTF-8 bytes, split anywhere.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<Value> {
        let text = self.decoder.push(bytes);
        self.push_text(&text)
    }

    /// The next chunk of text.
    pub fn push_text(&mut self, chunk: &str) -> Vec<Value> {
        let found = self.read_text(chunk, false);
        self.apply(found)
    }

    /// The text ended: what is still open is read (the last line, a list).
    pub fn finish(&mut self) -> Vec<Value> {
        let rest = self.decoder.finish();
        let found = self.read_text(&rest, true);
        self.apply(found)
    }

    /// The notes so far: of reading and applying every message (pointers
    /// `/i`, the messages counted from 0), then of converting the surface
    /// as it is now.
    pub fn notes(&self) -> Vec<Note> {
        let mut notes = self.notes.clone();
        let followed = self.followed_index();
        // Every surface's, in order, as `from_a2ui` gives them: the one
        // followed from its tree kept in place, the others (left out of the
        // document) converted here.
        for (i, state) in self.model.surfaces.iter().enumerate() {
            if Some(i) != followed {
                notes.extend(Tree::new(state).notes(state));
            } else if let Some(tree) = self.tree.as_ref().filter(|t| t.converts(state)) {
                notes.extend(tree.notes(state));
            }
        }
        notes
    }

    fn followed_index(&self) -> Option<usize> {
        let id = self.follow.as_ref()?;
        self.model.surfaces.iter().position(|s| &s.id == id)
    }

    /// The surface the operations so far build, once it has a root.
    pub fn surface(&self) -> Option<&Value> {
        self.shown.surface()
    }

    /// The complete messages of `chunk` (and of what waited before it).
    fn read_text(&mut self, chunk: &str, end: bool) -> Vec<Value> {
        if let Text::Undecided(waiting) = &mut self.text {
            waiting.push_str(chunk);
            let first = waiting.trim_start().chars().next();
            let text = core::mem::take(waiting);
            self.text = if !messages::starts_json(&text) && text.contains(OPEN_TAG) {
                Text::Blocks(String::new())
            } else {
                match first {
                    Some('{') => Text::Lines(Box::new(JsonlStream::new())),
                    Some('[') => Text::Whole(String::new()),
                    // No text at all after messages pushed as values: nothing to read.
                    None if end && self.read > 0 => return Vec::new(),
                    _ if end => {
                        // Prose and nothing else: read as the whole would be.
                        let list = messages::read_text(&text, &mut self.notes);
                        return list.into_iter().map(|(_, m)| m).collect();
                    }
                    _ => {
                        self.text = Text::Undecided(text);
                        return Vec::new();
                    }
                }
            };
            return self.read_text(&text, end);
        }
        let mut found = Vec::new();
        match &mut self.text {
            Text::Undecided(_) => {}
            Text::Lines(lines) => {
                let mut items = lines.push(chunk);
                if end {
                    items.extend(lines.finish());
                }
                found = messages::from_lines(items, self.read, &mut self.notes);
            }
            Text::Blocks(after) => {
                // Only the new text can hold the closing tag (or finish it):
                // from a tag's length back, on a character's first byte.
                let mut from = after.len().saturating_sub(CLOSE_TAG.len());
                while !after.is_char_boundary(from) {
                    from -= 1;
                }
                after.push_str(chunk);
                let mut start = 0;
                let mut search = from;
                while let Some(i) = after.get(search..).and_then(|rest| rest.find(CLOSE_TAG)) {
                    let close = search + i + CLOSE_TAG.len();
                    let block = after.get(start..close).unwrap_or_default();
                    found.extend(messages::from_blocks(block, &mut self.notes));
                    (start, search) = (close, close);
                }
                after.drain(..start);
                // A block the text ends in, unclosed, is read as the whole
                // reads it.
                if end && after.contains(OPEN_TAG) {
                    found.extend(messages::from_blocks(after, &mut self.notes));
                    after.clear();
                }
            }
            Text::Whole(text) => {
                text.push_str(chunk);
                if end {
                    let list = messages::read_text(text, &mut self.notes);
                    found.extend(list.into_iter().map(|(_, m)| m));
                }
            }
        }
        found
    }

    /// Applies `found` in order, then gives the operations that bring the
    /// followed surface up to date.
    fn apply(&mut self, found: Vec<Value>) -> Vec<Value> {
        if found.is_empty() {
            return Vec::new();
        }
        for message in &found {
            let at = at_index("", self.read);
            messages::apply(&mut self.model, message, &at, &mut self.notes);
            self.read += 1;
        }
        let touched: Vec<Vec<messages::Touch>> = (self.model.surfaces.iter_mut())
            .map(|s| core::mem::take(&mut s.touched))
            .collect();
        // The first surface created is the one followed from then on.
        if self.follow.is_none() {
            self.follow = self.model.surfaces.first().map(|s| s.id.clone());
        }
        let Some(i) = self.followed_index() else {
            if self.shown.surface().is_some() {
                // Deleted: said, and what the operations built is no longer
                // this import's (one created again under the id starts anew).
                let message = "deleteSurface removed the surface this import follows; the draft keeps what it holds";
                self.notes.push(Note::new(
                    "surface_deleted",
                    at_index("", self.read - 1),
                    message,
                ));
                self.shown.clear();
                self.tree = None;
            }
            return Vec::new();
        };
        let state = &self.model.surfaces[i];
        if !state.components.contains_key("root") {
            return Vec::new();
        }
        if let (Some(tree), Some(shown)) = (&mut self.tree, self.shown.surface()) {
            let ops = tree.update(state, &touched[i], &shown["data"]);
            if let Some(ops) = ops.and_then(|ops| self.shown.apply(ops)) {
                return ops;
            }
        }
        let tree = Tree::new(state);
        let ops = self.shown.update(tree.surface(state));
        self.tree = Some(tree);
        ops
    }
}
