//! A2UI v0.9 and v1.0 messages to surfaces and back (SPEC.md section 14).
//!
//! - `messages`: the input read as messages and applied in order to the
//!   surfaces they build (each message whole or refused with a note);
//! - `values`: bindings, function calls and checks, both ways;
//! - `import`: a built surface mapped to ours, walked into
//!   - `tree`: the conversion kept, to follow a message in place;
//! - `export`: our surface as basic-catalog messages;
//! - `stream`: messages as they arrive, as operations on one surface.

mod export;
mod import;
// Public for A2UI's conformance suites (tests/a2ui_core.rs), which judge
// the message model itself.
#[doc(hidden)]
pub mod messages;
mod stream;
mod tree;
pub(crate) mod values;

use crate::note::Note;
use serde_json::Value;

/// The note `value_shape` of a bound choice, both ways.
const SELECTIONS: &str = "A2UI keeps a ChoicePicker's selections as a list, ours one string: the data at this binding is not converted";

pub use import::basic_catalog;
pub use stream::A2uiImport;

/// An A2UI protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `v0.9` (and `v0.9.1`).
    V09,
    /// `v1.0`.
    V10,
}

impl Version {
    /// The version a message's `version` names, if read here.
    pub fn parse(version: &str) -> Option<Version> {
        match version {
            "v0.9" | "v0.9.1" => Some(Version::V09),
            "v1.0" => Some(Version::V10),
            _ => None,
        }
    }

    /// As messages write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V09 => "v0.9",
            Version::V10 => "v1.0",
        }
    }
}

/// What [`from_a2ui`] gives: the surfaces the messages left, in creation
/// order, and the notes.
#[derive(Debug, Clone, PartialEq)]
pub struct FromA2ui {
    pub surfaces: Vec<Value>,
    pub notes: Vec<Note>,
}

/// What [`to_a2ui`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct ToA2ui {
    pub messages: Vec<Value>,
    pub notes: Vec<Note>,
}

/// A2UI messages, given as text: a JSON list (or `{"messages": [...]}`, or
/// one message), JSON Lines, or an answer with `<a2ui-json>` blocks.
pub fn from_a2ui(text: &str) -> FromA2ui {
    let mut notes = Vec::new();
    let messages = messages::read_text(text, &mut notes);
    convert(messages, notes)
}

/// A2UI messages given as a value: a list, `{"messages": [...]}`, or one
/// message.
pub fn from_a2ui_value(value: &Value) -> FromA2ui {
    convert(messages::read_value(value), Vec::new())
}

fn convert(list: Vec<(String, Value)>, mut notes: Vec<Note>) -> FromA2ui {
    let mut model = messages::Model::default();
    for (at, message) in &list {
        messages::apply(&mut model, message, at, &mut notes);
    }
    let surfaces = model
        .surfaces
        .iter()
        .map(|s| import::surface(s, &mut notes))
        .collect();
    FromA2ui { surfaces, notes }
}

/// Our surface as A2UI basic-catalog messages of `version`:
/// `createSurface`, `updateComponents`, and `updateDataModel` when it has
/// data; notes point into the surface.
pub fn to_a2ui(surface: &Value, version: Version) -> ToA2ui {
    export::messages(surface, version)
}

/// The level of the markdown heading marker `text` starts with (one to
/// six `#` then a space), which A2UI's Text reads as a heading and v1.0
/// writes a heading with.
fn heading_marker(text: &str) -> Option<usize> {
    let hashes = text.bytes().take_while(|b| *b == b'#').count();
    ((1..=6).contains(&hashes) && text.as_bytes().get(hashes) == Some(&b' ')).then_some(hashes)
}

/// The text a Text's value starts with, to read or mark: a plain string,
/// or a `formatString`'s template (whose start, before any `${`, is text).
fn leading_text(text: &mut Value) -> Option<&mut String> {
    match text {
        Value::String(s) => Some(s),
        Value::Object(call) if call.get("call").and_then(Value::as_str) == Some("formatString") => {
            match call.get_mut("args")?.get_mut("value")? {
                Value::String(s) => Some(s),
                _ => None,
            }
        }
        _ => None,
    }
}
