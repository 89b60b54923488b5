//! A2UI answers: `<a2ui-json>[...]</a2ui-json>` blocks between prose.
//!
//! [`A2uiStream`] reads the blocks incrementally: prose outside the tags is
//! passed on as text (a tag cut by a chunk boundary is held back), each
//! message of the block's list is taken as it completes (repaired like JSON
//! Lines: trailing commas, raw control characters), and components are
//! emitted only once they are reachable from the surface's root, in id
//! order (the order of A2UI's reference parser: the protocol lets
//! components come in any order, a client keeping them by id). Only what
//! changed goes out: a component when it becomes reachable or its shown
//! form changes, where A2UI's reference parser sends the whole reachable
//! tree again (so a root naming 1,000 children, then 1,000 messages of one
//! child each, emits each child and the root it changes, not the tree 1,000
//! times); reachability is kept up to date incrementally, a new reference
//! walking only what is below it. A child not streamed yet shows as a
//! `loading_<id>` placeholder row when the catalog has `Row` (the
//! placeholders follow the components, in the order they are first named,
//! each sent once), else its parent waits; its parent is sent again when it
//! arrives. A component that references itself or closes a cycle is an
//! error, the cycle named by its least id. A refused message (and the error stops
//! the reader) leaves nothing of itself in [`A2uiReader`]'s document: what
//! its readings while it streamed showed is withdrawn, the messages before
//! it stay, so the document does not depend on where the text was cut; so
//! too each reading of a message replaces the one before (a component
//! hidden again, a value of it just cut to `{}`, is missing again); when the
//! text ends inside a message, [`A2uiReader::finish`] replaces what its
//! readings showed with one reading of all of it. The unfinished message is read leniently
//! after each chunk while it is at most [`SNIFF_EVERY_CHUNK_UP_TO`] bytes
//! long, then each time it has grown by an eighth (reading it costs its
//! length: this keeps a long message linear in the text, about 0.4 s for
//! 95 KB in 20-byte chunks natively, where reading it after every chunk
//! took 37 s), so a component shows as soon as its id and name are
//! whole (a cut string closed only under A2UI's cuttable keys such as
//! `text` and `literalString`, or a catalog's own
//! ([`A2uiStream::with_cuttable_keys`]), never an id or a path, nor a
//! `valueString` that may be a URL). A v0.9 or v1.0 data update carries only the top-level values
//! not emitted before, so a data model streams value by value; a v0.8 one
//! (`contents`) shows its entries that have a key and a value whenever one
//! of them changed. Updates for a surface wait until its `createSurface`
//! (`beginRendering` in v0.8) has been emitted.
//!
//! A v0.9 or v1.0 stream reads each message as the version its `version`
//! names ([`Version::of`]; one naming none as the stream's), so
//! [`A2uiReader`] reads either. A v1.0 `createSurface` may leave out its
//! `catalogId` and carry the surface's first `components` and `dataModel`:
//! the components are taken as an update's are, the message keeping of
//! them those shown; while it streams, its start goes out once its
//! components have begun, they follow as an update's would, and its data
//! goes out as a data update once it is whole. A v1.0 `updateDataModel`
//! needs a `value` (`null` deletes); `callRendererFunction` and
//! `agentFunctionResponse` name no surface and go out as they complete. A
//! message whose envelope key is none of its version's kinds is an error
//! ([`envelope`]); [`parse_full_as`] also holds a whole answer's messages to
//! one version.
//!
//! A message that names a key twice in one object is an error: JSON
//! readers disagree on which one counts, and its readings while it
//! streamed showed the first, where reading it whole would take the last.
//!
//! Models' slips are read as meant: a closer past a dropped one closes it too, a message whose last
//! brace was dropped ends where the next one starts or where the block
//! ends.
//!
//! [`parse_full`] ([`parse_full_as`] holding each message to a version's
//! envelope), [`fix_payload`] and [`has_parts`] read a whole answer.
//!
//! ```
//! use streaming_parser::a2ui::{parse_full, A2uiStream, Version};
//!
//! let answer = concat!(
//!     "Here it is <a2ui-json>[",
//!     r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},"#,
//!     r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["#,
//!     r#"{"id":"root","component":"Text","text":"Hello"}]}}]</a2ui-json>"#,
//! );
//! let mut stream = A2uiStream::new(Version::V09);
//! let mut parts = Vec::new();
//! for chunk in answer.as_bytes().chunks(16) {
//!     parts.extend(stream.process_chunk(std::str::from_utf8(chunk).unwrap()).unwrap());
//! }
//! assert_eq!(parts[0].text.as_deref(), Some("Here it is "));
//! let messages: Vec<_> = parts.iter().flat_map(|p| p.a2ui.iter().flatten()).collect();
//! assert!(messages[0].get("createSurface").is_some());
//! // The root shows as soon as its id and name are whole, before its text
//! // arrives, and again once it changed.
//! let root = |m: &serde_json::Value| m["updateComponents"]["components"][0].clone();
//! assert_eq!(root(messages[1]), serde_json::json!({"id": "root", "component": "Text"}));
//! assert_eq!(root(messages[2])["text"], "Hello");
//!
//! // The whole answer at once: the same messages, as one part.
//! let whole = parse_full(answer).unwrap();
//! assert_eq!(whole[0].a2ui.as_ref().map(Vec::len), Some(2));
//! ```
//!
//! # Layout
//!
//! - `scan`: the block scanner: prose and tags, a tag cut by a chunk held
//!   back, each message of a block taken as it completes, the closers a model
//!   dropped restored;
//! - `apply`: a complete message applied to its surface (starts, component
//!   and data updates, deletes), and what of it to emit;
//! - `tree`: the component tree: reachability from the root, cycles,
//!   children named, `loading_<id>` placeholders;
//! - `sniff`: the unfinished message read leniently, so a component shows
//!   while its message streams;
//! - `whole`: whole answers ([`parse_full`], [`fix_payload`], [`has_parts`]);
//! - `reader`: [`A2uiReader`], the stream behind the crate's common face.

mod apply;
mod reader;
mod scan;
mod sniff;
mod tree;
mod whole;

pub use reader::A2uiReader;
pub use whole::{fix_payload, has_parts, parse_full, parse_full_as};

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Map, Value};
use surfaces_core::sorted;

/// The opening tag of an A2UI block.
pub const OPEN_TAG: &str = "<a2ui-json>";
/// The closing tag of an A2UI block.
pub const CLOSE_TAG: &str = "</a2ui-json>";

/// An unfinished message up to this long (bytes) is read after every chunk;
/// a longer one each time it has grown by an eighth.
pub const SNIFF_EVERY_CHUNK_UP_TO: usize = 4096;

/// One part of an answer: prose, the A2UI messages after it, or both.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Part {
    /// Prose before the messages.
    pub text: Option<String>,
    /// A2UI messages.
    pub a2ui: Option<Vec<Value>>,
}

impl Part {
    /// As `{"text"?, "a2ui"?}`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(text) = &self.text {
            out.insert("text".into(), json!(text));
        }
        if let Some(a2ui) = &self.a2ui {
            out.insert("a2ui".into(), json!(a2ui));
        }
        Value::Object(out)
    }
}

/// The A2UI protocol version of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`.
    V08,
    /// `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`.
    V09,
    /// v0.9's messages (`createSurface` may carry the surface's first
    /// `components` and `dataModel`, its `catalogId` optional;
    /// `updateDataModel` needs a `value`, `null` deleting), and
    /// `callRendererFunction`, `agentFunctionResponse`, which name no
    /// surface.
    V10,
}

impl Version {
    /// The `version` its messages carry; v0.8's carry none.
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Version::V08 => None,
            Version::V09 => Some("v0.9"),
            Version::V10 => Some("v1.0"),
        }
    }

    /// The version a message's `version` names, if one of [`Version::tag`].
    pub fn of(message: &Value) -> Option<Version> {
        let tag = message.get("version")?.as_str()?;
        [Version::V09, Version::V10]
            .into_iter()
            .find(|v| v.tag() == Some(tag))
    }

    /// Its message kinds (each message's one envelope key): the start, the
    /// component update, the data update, the delete, then those that name
    /// no surface.
    pub fn kinds(self) -> &'static [&'static str] {
        match self {
            Version::V08 => &[
                "beginRendering",
                "surfaceUpdate",
                "dataModelUpdate",
                "deleteSurface",
            ],
            Version::V09 => &[
                "createSurface",
                "updateComponents",
                "updateDataModel",
                "deleteSurface",
            ],
            Version::V10 => &[
                "createSurface",
                "updateComponents",
                "updateDataModel",
                "deleteSurface",
                "callRendererFunction",
                "agentFunctionResponse",
            ],
        }
    }

    /// Whether components hold their properties under their name
    /// (`"component": {"Text": {...}}`, v0.8) rather than beside it.
    fn nests_properties(self) -> bool {
        self == Version::V08
    }
}

/// A message's kind and body: its member named by one of `version`'s
/// [`Version::kinds`], or the error naming it no A2UI message.
pub fn envelope(message: &Value, version: Version) -> Result<(&str, &Value), String> {
    let kinds = version.kinds();
    message
        .as_object()
        .and_then(|m| m.iter().find(|(k, _)| kinds.contains(&k.as_str())))
        .map(|(k, body)| (k.as_str(), body))
        .ok_or_else(|| {
            [
                "Validation failed: Unknown A2UI message type: ",
                &validator_wasm::json_text(message),
            ]
            .concat()
        })
}

/// One change a reading made to what was emitted, with the value before.
#[derive(Debug, Clone)]
enum Undo {
    /// A surface started by a reading of its `createSurface`, and the start
    /// message that went out.
    Started(String, Value),
    /// A component (or placeholder) shown: surface, id.
    Shown(String, String, Option<Value>),
    /// A data value shown: scope (surface, path), key.
    Data((String, String), String, Option<Value>),
}

/// Each surface's state by id: a list sorted by id (a map would be one
/// more map type in the WebAssembly module; an answer names few surfaces,
/// and each state is boxed, so that one inserted among many moves little).
#[derive(Debug, Clone, Default)]
struct Surfaces(Vec<(String, Box<SurfaceState>)>);

impl Surfaces {
    /// Where `id` is, or where it would go.
    fn find(&self, id: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(s, _)| s.as_str().cmp(id))
    }

    fn get(&self, id: &str) -> Option<&SurfaceState> {
        let i = self.find(id).ok()?;
        self.0.get(i).map(|(_, s)| &**s)
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut SurfaceState> {
        let i = self.find(id).ok()?;
        self.0.get_mut(i).map(|(_, s)| &mut **s)
    }

    /// `id`'s state, a new one if it had none.
    fn entry(&mut self, id: &str) -> &mut SurfaceState {
        let i = match self.find(id) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (id.into(), Box::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    fn remove(&mut self, id: &str) {
        if let Ok(i) = self.find(id) {
            self.0.remove(i);
        }
    }
}

#[derive(Debug, Clone, Default)]
struct SurfaceState {
    started: bool,
    root: Option<String>,
    /// Components by id.
    components: sorted::ByName<Value>,
    /// What was emitted of each component (and placeholder), so only what
    /// changed goes out.
    emitted: sorted::ByName<Value>,
    /// The ids reachable from the root.
    reach: sorted::Names,
    /// The components naming each id as a child.
    parents: sorted::ByName<sorted::Names>,
    /// Updates waiting for the start message.
    pending: Vec<Value>,
}

/// Reads an A2UI answer chunk by chunk.
#[derive(Debug, Clone)]
pub struct A2uiStream {
    version: Version,
    buffer: String,
    in_block: bool,
    /// The message being read: its text, the closers it still needs
    /// (innermost last), string state.
    message: String,
    open: Vec<char>,
    in_list: bool,
    in_string: bool,
    escaped: bool,
    /// Where in `message` the string being read began.
    string_start: usize,
    /// How long `message` was when it was last read as a partial message.
    sniffed: usize,
    /// How many messages the readings of the unfinished message emitted:
    /// withdrawn from the document when that message is refused.
    provisional: usize,
    /// The components the last reading of the unfinished message set, each
    /// with its surface and what it replaced.
    read: Vec<(String, String, Option<Value>)>,
    /// What the readings of the unfinished message changed in what was
    /// emitted, newest last: taken back when the text ends inside it.
    undo: Vec<Undo>,
    surfaces: Surfaces,
    /// The data values emitted per surface and path (`{surface: {path:
    /// {key: value}}}`), so an update shows only when something changed.
    /// (JSON objects, not a map type of its own: each is code in the
    /// WebAssembly module.)
    data_seen: Map<String, Value>,
    /// Whether a child not yet streamed may be shown as a `loading_<id>`
    /// placeholder (a `Row`; the catalog must have one).
    placeholders: bool,
    /// The catalog's components (a schema per name): a component still
    /// streaming is shown only once it has the properties its schema
    /// requires. (Read there each time, not copied into a map of its own:
    /// a map type is code in the WebAssembly module.)
    catalog: Value,
    /// Keys besides A2UI's own whose cut strings may be shown closed.
    cuttable: Vec<String>,
}

impl A2uiStream {
    /// A reader for `version`.
    pub fn new(version: Version) -> A2uiStream {
        A2uiStream {
            version,
            buffer: String::new(),
            in_block: false,
            message: String::new(),
            open: Vec::new(),
            in_list: false,
            in_string: false,
            escaped: false,
            string_start: 0,
            sniffed: 0,
            provisional: 0,
            read: Vec::new(),
            undo: Vec::new(),
            surfaces: Surfaces::default(),
            data_seen: Map::new(),
            placeholders: true,
            catalog: Value::Null,
            cuttable: Vec::new(),
        }
    }

    /// A reader for a catalog, given its `components` object (a JSON Schema
    /// per component name): a component still streaming is shown once it
    /// has the properties its schema requires, and a whole message with a
    /// component lacking one is an error; without `Row` in the
    /// catalog, a component whose children have not arrived waits instead
    /// of showing `loading_<id>` placeholders.
    pub fn with_catalog_components(version: Version, components: &Value) -> A2uiStream {
        A2uiStream {
            placeholders: components.get("Row").is_some(),
            catalog: components.clone(),
            ..A2uiStream::new(version)
        }
    }
}

impl A2uiStream {
    /// The same reader, also showing closed the cut strings of `keys` (a
    /// catalog's own display properties, like A2UI's `text`).
    pub fn with_cuttable_keys(self, keys: &[&str]) -> A2uiStream {
        A2uiStream {
            cuttable: keys.iter().map(|k| String::from(*k)).collect(),
            ..self
        }
    }

    /// The version a message is read as: the one its `version` names, else
    /// the stream's (a v0.8 stream reads every message as v0.8).
    fn version_of(&self, message: &Value) -> Version {
        match self.version {
            Version::V08 => Version::V08,
            other => Version::of(message).unwrap_or(other),
        }
    }
}

/// Appends a message to the last part if it has none yet, else a new part.
fn push_message(parts: &mut Vec<Part>, message: Value) {
    match parts.last_mut() {
        Some(Part {
            a2ui: a2ui @ None, ..
        }) => *a2ui = Some(alloc::vec![message]),
        Some(Part {
            a2ui: Some(list), ..
        }) => list.push(message),
        None => parts.push(Part {
            text: None,
            a2ui: Some(alloc::vec![message]),
        }),
    }
}

#[cfg(test)]
mod tests;
