//! A2UI answers: `<a2ui-json>[...]</a2ui-json>` blocks between prose.
//!
//! [`A2uiStream`] reads the blocks incrementally: prose outside the tags is
//! passed on as text (a tag cut by a chunk boundary is held back), each
//! message of the block's list is taken as it completes (repaired like JSON
//! Lines: trailing commas, raw control characters), and components are
//! emitted only once they are reachable from the surface's root, in id
//! order (the order of A2UI's reference parser: the protocol lets
//! components come in any order, a client keeping them by id); when any of
//! them changes, the whole reachable tree is emitted again. A child not
//! streamed yet shows as a `loading_<id>` placeholder row when the catalog
//! has `Row` (the placeholders follow the components, in the order they are
//! first named), else its parent waits; a component that references itself
//! or closes a cycle is an error. The unfinished message is read leniently
//! after each chunk while it is at most [`SNIFF_EVERY_CHUNK_UP_TO`] bytes
//! long, then each time it has grown by an eighth (reading it costs its
//! length: this keeps a long message linear in the text, about 0.4 s for
//! 95 KB in 20-byte chunks natively, where reading it after every chunk
//! took 37 s), so a component shows as soon as its id and name are
//! whole (a cut string closed only under A2UI's cuttable keys such as
//! `text` and `literalString`, never an id or a path, nor a `valueString`
//! that may be a URL). A v0.9 data update carries only the top-level values
//! not emitted before, so a data model streams value by value; a v0.8 one
//! (`contents`) shows its entries that have a key and a value whenever one
//! of them changed. Updates for a surface wait until its `createSurface`
//! (`beginRendering` in v0.8) has been emitted. Models' slips are read as
//! meant: a closer past a dropped one closes it too, a message whose last
//! brace was dropped ends where the next one starts or where the block
//! ends.
//!
//! [`parse_full`], [`fix_payload`] and [`has_parts`] read a whole answer.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Map, Value};

use crate::jsonl::repair;

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

/// Whether `text` holds a complete A2UI block (both tags, in order).
pub fn has_parts(text: &str) -> bool {
    text.find(OPEN_TAG).is_some_and(|at| {
        text.get(at + OPEN_TAG.len()..)
            .is_some_and(|rest| rest.contains(CLOSE_TAG))
    })
}

/// Repairs an A2UI payload and parses it as a list of messages: typographic
/// quotes normalized, trailing commas dropped, a single object wrapped.
pub fn fix_payload(payload: &str) -> Result<Vec<Value>, String> {
    let normalized: String = payload
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            c => c,
        })
        .collect();
    let value: Value = serde_json::from_str(&repair(normalized.trim()))
        .map_err(|e| ["Failed to parse the A2UI JSON: ", &e.to_string()].concat())?;
    Ok(match value {
        Value::Array(items) => items,
        other => alloc::vec![other],
    })
}

/// Reads a whole answer: each block's messages with the prose before it,
/// and the prose after the last block.
pub fn parse_full(text: &str) -> Result<Vec<Part>, String> {
    if !text.contains(OPEN_TAG) {
        return Err(["the A2UI tag ", OPEN_TAG, " was not found in response"].concat());
    }
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(OPEN_TAG) {
        let before = rest.get(..at).unwrap_or_default().trim();
        let after = rest.get(at + OPEN_TAG.len()..).unwrap_or_default();
        let (body, next) = match after.find(CLOSE_TAG) {
            Some(end) => (
                after.get(..end).unwrap_or_default(),
                after.get(end + CLOSE_TAG.len()..).unwrap_or_default(),
            ),
            None => (after, ""),
        };
        let body = strip_code_fence(body.trim());
        if body.is_empty() {
            return Err("the A2UI JSON part is empty".to_string());
        }
        parts.push(Part {
            text: Some(before.to_string()),
            a2ui: Some(fix_payload(body)?),
        });
        rest = next;
    }
    let tail = rest.trim();
    if !tail.is_empty() {
        parts.push(Part {
            text: Some(tail.to_string()),
            a2ui: None,
        });
    }
    Ok(parts)
}

/// The content of a ```` ```json ```` fence around a payload, if any.
fn strip_code_fence(body: &str) -> &str {
    let Some(open) = surfaces_core::fence::opening_fence(body.lines().next().unwrap_or_default())
    else {
        return body;
    };
    let inner = body.split_once('\n').map_or("", |(_, rest)| rest);
    let inner = inner.trim_end();
    match inner.rfind('\n') {
        Some(i) if open.is_closed_by(inner.get(i + 1..).unwrap_or_default()) => {
            inner.get(..i).unwrap_or_default()
        }
        None if open.is_closed_by(inner) => "",
        _ => inner,
    }
}

/// The A2UI protocol version of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`.
    V08,
    /// `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`.
    V09,
}

#[derive(Debug, Clone, Default)]
struct SurfaceState {
    started: bool,
    root: Option<String>,
    /// Components by id.
    components: BTreeMap<String, Value>,
    /// What was emitted of each component, to re-emit it when it changes.
    emitted: BTreeMap<String, Value>,
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
    surfaces: BTreeMap<String, SurfaceState>,
    /// The data values emitted per surface and path, so an update shows
    /// only when something changed.
    data_seen: BTreeMap<(String, String), Map<String, Value>>,
    /// Whether a child not yet streamed may be shown as a `loading_<id>`
    /// placeholder (a `Row`; the catalog must have one).
    placeholders: bool,
    /// The catalog's required properties per component name: a component
    /// still streaming is shown only once it has them.
    required: BTreeMap<String, Vec<String>>,
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
            surfaces: BTreeMap::new(),
            data_seen: BTreeMap::new(),
            placeholders: true,
            required: BTreeMap::new(),
        }
    }

    /// A reader for a catalog, given its `components` object (a JSON Schema
    /// per component name): a component still streaming is shown once it
    /// has the properties its schema requires, and a whole message with a
    /// component lacking one is an error; without `Row` in the
    /// catalog, a component whose children have not arrived waits instead
    /// of showing `loading_<id>` placeholders.
    pub fn with_catalog_components(version: Version, components: &Value) -> A2uiStream {
        let entries = components.as_object().into_iter().flatten();
        let required = entries
            .map(|(name, schema)| {
                let fields = schema.get("required").and_then(Value::as_array);
                let fields = fields.into_iter().flatten().filter_map(Value::as_str);
                let fields = fields.filter(|f| *f != "component").map(String::from);
                (name.clone(), fields.collect())
            })
            .collect();
        A2uiStream {
            placeholders: components.get("Row").is_some(),
            required,
            ..A2uiStream::new(version)
        }
    }

    /// Whether a streaming component has what its schema requires.
    fn has_required(&self, component: &Value) -> bool {
        component_name(component).is_some() && self.missing_required(component).is_none()
    }

    /// The first property the catalog requires that `component` lacks.
    fn missing_required(&self, component: &Value) -> Option<&str> {
        let (name, props) = component_name(component)?;
        let fields = self.required.get(name)?;
        fields
            .iter()
            .find(|f| props.get(f.as_str()).is_none())
            .map(String::as_str)
    }

    /// Reads a chunk; returns the parts it completes, or the error that
    /// stops the stream.
    pub fn process_chunk(&mut self, chunk: &str) -> Result<Vec<Part>, String> {
        let mut parts: Vec<Part> = Vec::new();
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
                self.read_json(&json, &mut parts)?;
                if !self.message.trim().is_empty() {
                    // The block has ended, so has its last message: the
                    // closers a model dropped are restored (never a cut
                    // string's quote).
                    let mut rest = core::mem::take(&mut self.message);
                    if !self.in_string {
                        rest.extend(self.open.iter().rev());
                    }
                    self.take_message(&rest, &mut parts)?;
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
            self.read_json(&json, &mut parts)?;
            self.sniff(&mut parts)?;
            break;
        }
        Ok(parts)
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
        let value: Value = serde_json::from_str(text)
            .or_else(|_| serde_json::from_str(&repair(text)))
            .or_else(|_| serde_json::from_str(&balance(&repair(text))))
            .map_err(|e| ["Failed to parse JSON: ", &e.to_string()].concat())?;
        for message in self.handle(value)? {
            push_message(parts, message);
        }
        Ok(())
    }

    /// Applies one complete message; returns what to emit now.
    fn handle(&mut self, message: Value) -> Result<Vec<Value>, String> {
        let (start, update, data, delete) = match self.version {
            Version::V08 => (
                "beginRendering",
                "surfaceUpdate",
                "dataModelUpdate",
                "deleteSurface",
            ),
            Version::V09 => (
                "createSurface",
                "updateComponents",
                "updateDataModel",
                "deleteSurface",
            ),
        };
        let Some((kind, body)) = message.as_object().and_then(|m| {
            m.iter()
                .find(|(k, _)| [start, update, data, delete].contains(&k.as_str()))
        }) else {
            return Err([
                "Validation failed: not an A2UI message: ",
                &message.to_string(),
            ]
            .concat());
        };
        let Some(surface_id) = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Err(["Validation failed: ", kind, " needs a surfaceId"].concat());
        };
        let kind = kind.clone();
        if kind == start {
            if self.version == Version::V09 && body.get("catalogId").is_none() {
                return Err(
                    "createSurface is missing the required property 'catalogId'".to_string()
                );
            }
            let root = match self.version {
                Version::V08 => body.get("root").and_then(Value::as_str).map(String::from),
                Version::V09 => Some(String::from("root")),
            };
            let state = self.surfaces.entry(surface_id.clone()).or_default();
            state.started = true;
            state.root = root;
            let pending = core::mem::take(&mut state.pending);
            let mut out = alloc::vec![message];
            for waiting in pending {
                out.extend(self.handle(waiting)?);
            }
            return Ok(out);
        }
        if kind == data {
            // Data may arrive before its surface: a renderer keeps it.
            return Ok(self.data_delta(&message, data).into_iter().collect());
        }
        if kind == update {
            let components = body.get("components").and_then(Value::as_array);
            for component in components.into_iter().flatten() {
                if let Some(field) = self.missing_required(component) {
                    let id = component.get("id").and_then(Value::as_str);
                    return Err([
                        "Validation failed: component \"",
                        id.unwrap_or_default(),
                        "\" lacks the property \"",
                        field,
                        "\" its catalog requires",
                    ]
                    .concat());
                }
            }
        }
        let started = self.surfaces.get(&surface_id).is_some_and(|s| s.started);
        if kind == delete && !started {
            // Nothing was shown of it: there is nothing to delete.
            return Ok(Vec::new());
        }
        let state = self.surfaces.entry(surface_id.clone()).or_default();
        if !state.started {
            state.pending.push(message);
            return Ok(Vec::new());
        }
        self.components_of(&kind, &surface_id, body, &message)
    }

    /// Takes an update (or a delete) for a started surface; returns the
    /// update of the components that became reachable or changed.
    fn components_of(
        &mut self,
        kind: &str,
        surface_id: &str,
        body: &Value,
        message: &Value,
    ) -> Result<Vec<Value>, String> {
        if kind == "deleteSurface" {
            self.surfaces.remove(surface_id);
            return Ok(alloc::vec![message.clone()]);
        }
        let version = self.version;
        let Some(state) = self.surfaces.get_mut(surface_id) else {
            return Ok(Vec::new());
        };
        let components = body
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for mut component in components {
            let Some(id) = component
                .get("id")
                .and_then(Value::as_str)
                .map(String::from)
            else {
                continue;
            };
            if version == Version::V08 {
                absolute_paths(&mut component);
            }
            state.components.insert(id, component);
        }
        let ready = reachable(state, version)?;
        // Each component as shown, its children not streamed yet pointed at
        // placeholders.
        let mut shown: Vec<Value> = Vec::new();
        let mut stand_ins: Vec<String> = Vec::new();
        for id in &ready {
            let Some(component) = state.components.get(id) else {
                continue;
            };
            let missing: Vec<String> = child_ids(component, version)
                .into_iter()
                .filter(|c| !state.components.contains_key(c))
                .collect();
            if missing.is_empty() {
                shown.push(component.clone());
            } else if self.placeholders {
                shown.push(with_placeholders(component, &missing, version));
                for child in missing {
                    if !stand_ins.contains(&child) {
                        stand_ins.push(child);
                    }
                }
            } else {
                // A reference a renderer cannot resolve: wait for it.
                return Ok(Vec::new());
            }
        }
        // When anything changed, the whole reachable tree goes out again, so
        // a renderer can replace the surface's components in one step.
        let changed = shown.iter().any(|c| {
            let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
            state.emitted.get(id) != Some(c)
        });
        if !changed {
            return Ok(Vec::new());
        }
        for component in &shown {
            let id = component
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            state.emitted.insert(id.to_string(), component.clone());
        }
        let mut fresh = shown;
        fresh.extend(stand_ins.iter().map(|c| placeholder(c, version)));
        let mut out = Map::new();
        match (message.get("version"), version) {
            (Some(v), _) => {
                out.insert("version".into(), v.clone());
            }
            (None, Version::V09) => {
                out.insert("version".into(), json!("v0.9"));
            }
            (None, Version::V08) => {}
        }
        out.insert(
            kind.to_string(),
            json!({"surfaceId": surface_id, "components": fresh}),
        );
        Ok(alloc::vec![Value::Object(out)])
    }

    /// Reads the unfinished message leniently: components already whole
    /// enough (a complete id and name, no value cut to `{}`; cut strings
    /// closed only under A2UI's cuttable keys) are shown once reachable.
    /// A v0.9 data update with only the top-level values not emitted yet
    /// (or changed); `None` when nothing changed.
    fn data_delta(&mut self, message: &Value, kind: &str) -> Option<Value> {
        let body = message.get(kind)?;
        if self.version == Version::V08 {
            return self.contents_update(body);
        }
        let Some(Value::Object(value)) = body.get("value") else {
            return Some(message.clone());
        };
        let seen = self.data_seen.entry(data_scope(body)).or_default();
        let delta: Map<String, Value> = value
            .iter()
            .filter(|(k, v)| seen.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if delta.is_empty() {
            return None;
        }
        seen.extend(delta.clone());
        let mut out = body.as_object().cloned().unwrap_or_default();
        out.insert("value".into(), Value::Object(delta));
        Some(json!({"version": "v0.9", kind: out}))
    }

    /// A v0.8 data update with its entries that have a key and a value (the
    /// last one per key), when one of their values was not emitted yet;
    /// `None` when none changed.
    fn contents_update(&mut self, body: &Value) -> Option<Value> {
        let Some(entries) = body.get("contents").and_then(Value::as_array) else {
            return Some(json!({ "dataModelUpdate": body }));
        };
        let values = contents_map(entries);
        let seen = self.data_seen.entry(data_scope(body)).or_default();
        if values.iter().all(|(k, v)| seen.get(k) == Some(v)) {
            return None;
        }
        seen.extend(values.clone());
        let mut last: Vec<Value> = Vec::new();
        for entry in entries.iter().rev() {
            let key = entry.get("key").and_then(Value::as_str);
            let fresh = !last
                .iter()
                .any(|e| e.get("key").and_then(Value::as_str) == key);
            if key.is_some_and(|k| values.contains_key(k)) && fresh {
                last.insert(0, entry.clone());
            }
        }
        let mut out = body.as_object().cloned().unwrap_or_default();
        out.insert("contents".into(), Value::Array(complete_entries(&last)));
        Some(json!({ "dataModelUpdate": out }))
    }

    /// Whether the string the message was cut in may be a URL: it starts
    /// like one, or its entry's key names one. A cut URL would lead
    /// somewhere else, so it is not shown closed.
    fn cut_may_be_url(&self) -> bool {
        let at = self.string_start;
        let (Some(before), Some(cut)) = (self.message.get(..at), self.message.get(at + 1..)) else {
            return false;
        };
        if ["http://", "https://", "data:", "/"]
            .iter()
            .any(|p| cut.starts_with(p))
        {
            return true;
        }
        let entry = before.rfind('{').and_then(|i| before.get(i..));
        let key = entry
            .and_then(|e| e.find("\"key\"").and_then(|i| e.get(i + 5..)))
            .and_then(|rest| rest.trim_start().strip_prefix(':'))
            .and_then(|rest| rest.trim_start().strip_prefix('"'))
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_ascii_lowercase();
        ["url", "link", "src", "href", "image"]
            .iter()
            .any(|w| key.contains(w))
    }

    fn sniff(&mut self, parts: &mut Vec<Part>) -> Result<(), String> {
        if self.open.is_empty() {
            return Ok(());
        }
        // Reading the unfinished message costs its length: past a few KB it
        // is read again only once it has grown by an eighth, so a long
        // message costs a constant number of readings per doubling
        // (linear in the text) instead of one per chunk (quadratic).
        let len = self.message.len();
        if len > SNIFF_EVERY_CHUNK_UP_TO && len < self.sniffed + self.sniffed / 8 {
            return Ok(());
        }
        self.sniffed = len;
        let cuttable = if self.in_string && self.cut_may_be_url() {
            is_cuttable_but_a_value
        } else {
            is_cuttable
        };
        let data = match self.version {
            Version::V08 => "dataModelUpdate",
            Version::V09 => "updateDataModel",
        };
        if self.message.contains(&["\"", data, "\""].concat()) {
            let partial = crate::partial::parse(&self.message, cuttable);
            let complete_id = partial
                .as_ref()
                .and_then(|p| p.value.get(data))
                .and_then(|b| b.get("surfaceId"))
                .is_some_and(Value::is_string);
            if let Some(partial) = partial.filter(|_| complete_id) {
                if let Some(m) = self.data_delta(&partial.value, data) {
                    push_message(parts, m);
                }
            }
            return Ok(());
        }
        if !self.message.contains("\"components\"") {
            return Ok(());
        }
        let update = match self.version {
            Version::V08 => "surfaceUpdate",
            Version::V09 => "updateComponents",
        };
        let Some(partial) = crate::partial::parse(&self.message, cuttable) else {
            return Ok(());
        };
        let Some(body) = partial.value.get(update) else {
            return Ok(());
        };
        let Some(surface_id) = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Ok(());
        };
        if !self.surfaces.get(&surface_id).is_some_and(|s| s.started) {
            return Ok(());
        }
        let listed = body.get("components").and_then(Value::as_array);
        let mut listed: Vec<Value> = listed.cloned().unwrap_or_default();
        if self.message.trim_end().ends_with('[') {
            // The last component's children list has just opened: show it
            // with one placeholder child until the first id arrives.
            if let Some(last) = listed.last_mut() {
                let id = last.get("id").and_then(Value::as_str).map(String::from);
                if let (Some(id), Some(children)) = (id, last.get_mut("children")) {
                    if children.as_array().is_some_and(Vec::is_empty) {
                        let stand_in = ["children_", &id].concat();
                        *children = json!([stand_in]);
                    }
                }
            }
        }
        let whole: Vec<Value> = listed
            .into_iter()
            .filter(|c| {
                c.get("id").and_then(Value::as_str).is_some()
                    && c.get("component").is_some_and(|n| {
                        n.is_string() || n.as_object().is_some_and(|m| !m.is_empty())
                    })
                    && !has_empty_object(c)
                    && self.has_required(c)
            })
            .collect();
        if whole.is_empty() {
            return Ok(());
        }
        let body = json!({"surfaceId": surface_id, "components": whole});
        for m in self.components_of(update, &surface_id, &body, &partial.value)? {
            push_message(parts, m);
        }
        Ok(())
    }
}

/// Closes what a closer skips over: `{"a": [{"b": 1]}` becomes
/// `{"a": [{"b": 1}]}` (models drop a brace before a bracket); a closer of
/// the wrong kind closes the innermost, one for nothing open is dropped.
fn balance(text: &str) -> String {
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

/// The `loading_<id>` stand-in for a child not streamed yet.
fn placeholder(id: &str, version: Version) -> Value {
    let id = ["loading_", id].concat();
    match version {
        Version::V09 => json!({"id": id, "component": "Row", "children": []}),
        Version::V08 => json!({"id": id, "component": {"Row": {"children": {"explicitList": []}}}}),
    }
}

/// `component` with its references to `missing` children pointed at their
/// placeholders.
fn with_placeholders(component: &Value, missing: &[String], version: Version) -> Value {
    let mut out = component.clone();
    let body = match version {
        Version::V09 => Some(&mut out),
        Version::V08 => out
            .get_mut("component")
            .and_then(Value::as_object_mut)
            .and_then(|m| m.values_mut().next()),
    };
    let Some(body) = body else { return out };
    let swap = |v: &mut Value| {
        if let Some(id) = v.as_str().filter(|id| missing.iter().any(|m| m == id)) {
            *v = json!(["loading_", id].concat());
        }
    };
    if let Some(child) = body.get_mut("child") {
        swap(child);
    }
    if let Some(children) = body.get_mut("children") {
        if let Some(list) = children.as_array_mut() {
            list.iter_mut().for_each(swap);
        }
        if let Some(list) = children
            .get_mut("explicitList")
            .and_then(Value::as_array_mut)
        {
            list.iter_mut().for_each(swap);
        }
        if let Some(id) = children.get_mut("componentId") {
            swap(id);
        }
        if let Some(id) = children
            .get_mut("template")
            .and_then(|t| t.get_mut("componentId"))
        {
            swap(id);
        }
    }
    out
}

/// A component's name and the object holding its properties: the
/// component itself in v0.9 (`"component": "Text"`), the value under the
/// name in v0.8 (`"component": {"Text": {...}}`).
fn component_name(component: &Value) -> Option<(&str, &Value)> {
    match component.get("component")? {
        Value::String(name) => Some((name, component)),
        Value::Object(m) => m.iter().next().map(|(name, props)| (name.as_str(), props)),
        _ => None,
    }
}

/// A2UI's keys whose cut strings may be shown closed.
fn is_cuttable(key: &str) -> bool {
    matches!(
        key,
        "literalString" | "valueString" | "label" | "hint" | "caption" | "altText" | "text"
    )
}

/// [`is_cuttable`] but for `valueString`, a data value that may be a URL.
fn is_cuttable_but_a_value(key: &str) -> bool {
    key != "valueString" && is_cuttable(key)
}

/// Which data a data update addresses: its surface and path.
fn data_scope(body: &Value) -> (String, String) {
    let text = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or_default();
    (text("surfaceId").to_string(), text("path").to_string())
}

/// The values of v0.8 data entries by key: `value`, `valueString`,
/// `valueNumber`, `valueBoolean`, or a `valueMap` read the same way.
fn contents_map(entries: &[Value]) -> Map<String, Value> {
    let mut out = Map::new();
    for entry in entries {
        let Some(key) = entry.get("key").and_then(Value::as_str) else {
            continue;
        };
        let value = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .find_map(|k| entry.get(*k))
            .cloned()
            .or_else(|| {
                let map = entry.get("valueMap").and_then(Value::as_array);
                map.map(|m| Value::Object(contents_map(m)))
            });
        if let Some(value) = value {
            out.insert(key.to_string(), value);
        }
    }
    out
}

/// The v0.8 data entries that have a key and a value (an entry still
/// streaming may have neither); a `valueMap` keeps its complete entries,
/// and is dropped when it had only unfinished ones.
fn complete_entries(entries: &[Value]) -> Vec<Value> {
    let complete = |entry: &Value| -> Option<Value> {
        let mut entry = entry.as_object()?.clone();
        let mut has_value = ["value", "valueString", "valueNumber", "valueBoolean"]
            .iter()
            .any(|k| entry.contains_key(*k));
        if let Some(list) = entry.get("valueMap").and_then(Value::as_array) {
            let kept = complete_entries(list);
            if kept.is_empty() && !list.is_empty() {
                entry.remove("valueMap");
            } else {
                entry.insert("valueMap".into(), Value::Array(kept));
                has_value = true;
            }
        }
        (has_value && entry.contains_key("key")).then_some(Value::Object(entry))
    };
    entries.iter().filter_map(complete).collect()
}

/// Whether a value holds an empty object anywhere (a value cut short).
fn has_empty_object(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.is_empty() || map.values().any(has_empty_object),
        Value::Array(items) => items.iter().any(has_empty_object),
        _ => false,
    }
}

/// The ids of the components reachable from the surface's root, in id
/// order, or the cycle error.
fn reachable(state: &SurfaceState, version: Version) -> Result<BTreeSet<String>, String> {
    let mut seen = BTreeSet::new();
    let Some(root) = state.root.clone() else {
        return Ok(seen);
    };
    if !state.components.contains_key(&root) {
        return Ok(seen);
    }
    // Depth-first, with the path kept to tell a cycle from a shared child.
    let mut path: Vec<(String, Vec<String>)> = Vec::new();
    seen.insert(root.clone());
    let children = |id: &str| -> Vec<String> {
        state
            .components
            .get(id)
            .map(|c| {
                let mut ids = child_ids(c, version);
                ids.reverse();
                ids
            })
            .unwrap_or_default()
    };
    path.push((root.clone(), children(&root)));
    while let Some((id, mut left)) = path.pop() {
        let Some(child) = left.pop() else {
            continue;
        };
        path.push((id.clone(), left));
        if child == id {
            return Err([
                "Self-reference detected: component \"",
                &id,
                "\" lists itself as a child",
            ]
            .concat());
        }
        if path.iter().any(|(p, _)| *p == child) {
            return Err([
                "Circular reference detected: component \"",
                &child,
                "\" is its own ancestor",
            ]
            .concat());
        }
        if state.components.contains_key(&child) && seen.insert(child.clone()) {
            let next = children(&child);
            path.push((child, next));
        }
    }
    Ok(seen)
}

/// The ids a component names as children.
fn child_ids(component: &Value, version: Version) -> Vec<String> {
    let body = match version {
        Version::V09 => Some(component),
        Version::V08 => component
            .get("component")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next()),
    };
    let mut out = Vec::new();
    let Some(body) = body else { return out };
    if let Some(child) = body.get("child").and_then(Value::as_str) {
        out.push(child.to_string());
    }
    let children = body.get("children");
    let list = children.and_then(|c| {
        c.as_array()
            .or_else(|| c.get("explicitList").and_then(Value::as_array))
    });
    for child in list.into_iter().flatten() {
        if let Some(id) = child.as_str() {
            out.push(id.to_string());
        }
    }
    // A template: `{"template": {"componentId"}}` (v0.8) or
    // `{"componentId", "path"}` (v0.9).
    let template = children.and_then(|c| c.get("template").or(Some(c)));
    if let Some(id) = template
        .and_then(|t| t.get("componentId"))
        .and_then(Value::as_str)
    {
        out.push(id.to_string());
    }
    out
}

/// v0.8 paths are absolute: `a/b` becomes `/a/b`.
fn absolute_paths(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(s) if key == "path" && !s.starts_with('/') => s.insert(0, '/'),
                    other => absolute_paths(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(absolute_paths),
        _ => {}
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

/// An A2UI stream behind the common face: bytes in, JSON changes out.
#[derive(Debug, Clone)]
pub struct A2uiReader {
    decoder: crate::utf8::Decoder,
    stream: A2uiStream,
    parts: Vec<Value>,
    error: Option<String>,
}

impl A2uiReader {
    /// A reader of v0.9 messages.
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
        match self.stream.process_chunk(text) {
            Ok(parts) => {
                for part in &parts {
                    self.merge(part);
                }
                parts.iter().map(Part::to_json).collect()
            }
            Err(e) => {
                self.error = Some(e.clone());
                alloc::vec![json!({"error": e})]
            }
        }
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

    /// Ends the input.
    pub fn finish(&mut self) -> Vec<Value> {
        let rest = self.decoder.finish();
        self.push(&rest)
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

/// How many bytes at the end of `buffer` could begin `tag`.
fn held_tag_prefix(buffer: &str, tag: &str) -> usize {
    (1..tag.len())
        .rev()
        .find(|&n| tag.get(..n).is_some_and(|prefix| buffer.ends_with(prefix)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids of the components the first message of `parts` emits, in order.
    fn emitted_ids(parts: &[Part]) -> Vec<String> {
        parts[0].a2ui.as_ref().unwrap()[0]["updateComponents"]["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_cut_tag_is_held_back() {
        let mut s = A2uiStream::new(Version::V09);
        let parts = s.process_chunk("Talking <a2u").unwrap();
        assert_eq!(
            parts,
            [Part {
                text: Some("Talking ".into()),
                a2ui: None
            }]
        );
        assert!(s.process_chunk("i-json>").unwrap().is_empty());
    }

    #[test]
    fn components_wait_for_root_and_cycles_are_errors() {
        let mut s = A2uiStream::new(Version::V09);
        s.process_chunk(
            r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
        )
        .unwrap();
        let parts = s
            .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text"}]}},"#)
            .unwrap();
        assert!(parts.is_empty());
        let parts = s
            .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"}]}},"#)
            .unwrap();
        let ids = emitted_ids(&parts);
        assert_eq!(ids, ["a", "root"]);
        let err = s
            .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Card","child":"root"}]}}"#)
            .unwrap_err();
        assert!(err.contains("Circular reference detected"));
    }

    #[test]
    fn the_reader_keeps_parts_and_stops_at_an_error() {
        let mut r = A2uiReader::new();
        let text = "Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}, oops]</a2ui-json> more";
        let mut changes = Vec::new();
        for chunk in text.as_bytes().chunks(3) {
            changes.extend(r.push_bytes(chunk));
        }
        changes.extend(r.finish());
        let doc = r.document();
        assert_eq!(doc["parts"][0]["text"], "Hi ");
        assert!(doc["error"].as_str().unwrap().contains("Failed to parse"));
        assert_eq!(changes.last().unwrap()["error"], doc["error"]);
        assert!(r.push("more").is_empty(), "input after an error is ignored");
        let whole = {
            let mut r = A2uiReader::new();
            r.push("Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> bye");
            r.finish();
            r.document()
        };
        let mut r = A2uiReader::new();
        for chunk in "Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> bye".as_bytes().chunks(2) {
            r.push_bytes(chunk);
        }
        r.finish();
        assert_eq!(r.document(), whole, "the same parts for any chunking");
        assert_eq!(whole["parts"][1]["text"], " bye");
    }

    #[test]
    fn children_not_streamed_yet_show_placeholders_or_wait() {
        let start =
            r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#;
        let root = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"c1"}]}},"#;
        let mut s =
            A2uiStream::with_catalog_components(Version::V09, &json!({"Card": {}, "Row": {}}));
        s.process_chunk(start).unwrap();
        let parts = s.process_chunk(root).unwrap();
        let components = &parts[0].a2ui.as_ref().unwrap()[0]["updateComponents"]["components"];
        assert_eq!(components[0]["child"], "loading_c1");
        assert_eq!(
            components[1],
            json!({"id":"loading_c1","component":"Row","children":[]})
        );
        let mut s = A2uiStream::with_catalog_components(Version::V09, &json!({"Card": {}}));
        s.process_chunk(start).unwrap();
        assert!(
            s.process_chunk(root).unwrap().is_empty(),
            "no Row: the parent waits"
        );
    }

    #[test]
    fn components_go_out_in_id_order_and_placeholders_last_once() {
        let mut s =
            A2uiStream::with_catalog_components(Version::V09, &json!({"Column": {}, "Row": {}}));
        s.process_chunk(
            r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
        )
        .unwrap();
        let parts = s
            .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["z","b"]},{"id":"z","component":"Row","children":["x"]},{"id":"b","component":"Row","children":["x"]}]}},"#)
            .unwrap();
        let ids = emitted_ids(&parts);
        assert_eq!(ids, ["b", "root", "z", "loading_x"]);
    }

    #[test]
    fn a_long_message_is_read_again_only_as_it_grows() {
        // One updateComponents message: a root and its 1,000 children
        // (about 95 KB).
        let ids: Vec<String> = (0..1000)
            .map(|i| ["\"c", &i.to_string(), "\""].concat())
            .collect();
        let mut components = alloc::vec![[
            r#"{"id":"root","component":"Column","children":["#,
            &ids.join(","),
            "]}"
        ]
        .concat()];
        for i in 0..1000 {
            components.push(
                [
                    r#"{"id":"c"#,
                    &i.to_string(),
                    r#"","component":"Text","text":"an item of the list"}"#,
                ]
                .concat(),
            );
        }
        let text = [
            r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
            r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["#,
            &components.join(","),
            "]}}]</a2ui-json>",
        ]
        .concat();
        let mut chunked = A2uiStream::new(Version::V09);
        let mut updates = 0;
        for chunk in text.as_bytes().chunks(20) {
            updates += chunked
                .process_chunk(core::str::from_utf8(chunk).unwrap())
                .unwrap()
                .len();
        }
        // Read after every chunk while short, then once per eighth of
        // growth: components still show while the message streams (about
        // 4,800 chunks; read on each, it showed about 4,200 updates).
        assert!((20..400).contains(&updates), "{updates} updates");
        let mut whole = A2uiStream::new(Version::V09);
        whole.process_chunk(&text).unwrap();
        assert_eq!(chunked.surfaces["s"].components.len(), 1001);
        assert_eq!(
            chunked.surfaces["s"].components,
            whole.surfaces["s"].components
        );
    }

    #[test]
    fn a_streaming_component_waits_for_its_required_properties() {
        let catalog = json!({"Audio": {"required": ["component", "url"]}});
        let mut s = A2uiStream::with_catalog_components(Version::V09, &catalog);
        s.process_chunk(
            r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
        )
        .unwrap();
        let partial = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Audio","title":"x""#;
        assert!(
            s.process_chunk(partial).unwrap().is_empty(),
            "the url is missing"
        );
        assert_eq!(s.process_chunk(r#","url":"/a.mp3"}]}}"#).unwrap().len(), 1);
        let err = s
            .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Audio"}]}}"#)
            .unwrap_err();
        assert_eq!(
            err,
            r#"Validation failed: component "root" lacks the property "url" its catalog requires"#,
            "a whole message is held to its catalog"
        );
    }

    #[test]
    fn dropped_closers_end_a_message_and_the_block_closes_the_last() {
        let mut s = A2uiStream::new(Version::V08);
        s.process_chunk(r#"<a2ui-json>[{"beginRendering": {"root": "root", "surfaceId": "s"}},"#)
            .unwrap();
        // The `]` of the components is missing: the next `}` closes it.
        let parts = s
            .process_chunk(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "a"}}}}}}, "#)
            .unwrap();
        assert_eq!(parts.len(), 1);
        let parts = s
            .process_chunk(r#"{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "x"}]}}, {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "b"}}}}]}</a2ui-json>"#)
            .unwrap();
        let messages = parts[0].a2ui.as_ref().unwrap();
        assert!(messages[0].get("dataModelUpdate").is_some());
        assert_eq!(
            messages[1]["surfaceUpdate"]["components"][0]["component"]["Text"]["text"]
                ["literalString"],
            "b",
            "the message left open by the end of the block is closed"
        );
        let mut s = A2uiStream::new(Version::V08);
        s.process_chunk(r#"<a2ui-json>[{"beginRendering": {"root": "root", "surfaceId": "s"}},"#)
            .unwrap();
        let err = s
            .process_chunk(
                r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "ro</a2ui-json>"#,
            )
            .unwrap_err();
        assert!(err.contains("Failed to parse"), "a cut id is never closed");
    }

    #[test]
    fn v08_data_streams_entry_by_entry_and_never_shows_a_cut_url() {
        let mut s = A2uiStream::new(Version::V08);
        let step = |s: &mut A2uiStream, chunk: &str| -> Vec<Value> {
            let parts = s.process_chunk(chunk).unwrap();
            parts
                .into_iter()
                .flat_map(|p| p.a2ui.unwrap_or_default())
                .collect()
        };
        let got = step(
            &mut s,
            r#"<a2ui-json>[{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "name", "valueString": "Al"#,
        );
        assert_eq!(
            got[0]["dataModelUpdate"]["contents"],
            json!([{"key": "name", "valueString": "Al"}])
        );
        let got = step(
            &mut s,
            r#"ice"}, {"key": "photo", "valueString": "https://x"#,
        );
        assert_eq!(
            got[0]["dataModelUpdate"]["contents"],
            json!([{"key": "name", "valueString": "Alice"}]),
            "the cut URL's entry has no value yet: left out"
        );
        assert!(step(&mut s, "/a.p").is_empty(), "nothing changed");
        let got = step(&mut s, r#"ng"}, {"key": "note", "valueString": "/tm"#);
        assert_eq!(
            got[0]["dataModelUpdate"]["contents"][1]["valueString"],
            "https://x/a.png"
        );
        assert_eq!(
            got[0]["dataModelUpdate"]["contents"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        // The message's last brace is missing: it ends where the next starts,
        // and is not shown again since nothing in it changed.
        let got = step(
            &mut s,
            r#"p"}]}, {"beginRendering": {"surfaceId": "s", "root": "r"}}"#,
        );
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0]["dataModelUpdate"]["contents"][2]["valueString"],
            "/tmp"
        );
        assert!(got[1].get("beginRendering").is_some());
    }

    #[test]
    fn data_is_told_apart_by_its_path() {
        let mut s = A2uiStream::new(Version::V09);
        s.process_chunk("<a2ui-json>[").unwrap();
        let update = |path: &str| {
            [
                r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":""#,
                path,
                r#"","value":{"name":"A"}}},"#,
            ]
            .concat()
        };
        assert_eq!(s.process_chunk(&update("/a")).unwrap().len(), 1);
        assert_eq!(s.process_chunk(&update("/b")).unwrap().len(), 1);
        assert!(s.process_chunk(&update("/a")).unwrap().is_empty());
    }

    #[test]
    fn a_dropped_brace_is_restored() {
        assert_eq!(balance(r#"{"a": [{"b": "}]"]}"#), r#"{"a": [{"b": "}]"}]}"#);
        assert_eq!(balance(r#"{"a": [{"b": 1}]}]"#), r#"{"a": [{"b": 1}]}"#);
        assert_eq!(balance(r#"{"a": {"b": 1}]"#), r#"{"a": {"b": 1}}"#);
        assert_eq!(balance(r#"{"a": {"b": 1]}"#), r#"{"a": {"b": 1}}"#);
    }

    #[test]
    fn whole_answers() {
        assert!(has_parts("a <a2ui-json>[]</a2ui-json>"));
        assert!(!has_parts("a <a2ui-json> b"));
        let parts =
            parse_full("Hi\n<a2ui-json>\n```json\n[{\"id\": 1},]\n```\n</a2ui-json>\nBye").unwrap();
        assert_eq!(parts[0].a2ui, Some(alloc::vec![json!({"id": 1})]));
        assert_eq!(parts[1].text.as_deref(), Some("Bye"));
        assert!(parse_full("none").unwrap_err().contains("not found"));
        assert!(parse_full("<a2ui-json></a2ui-json>")
            .unwrap_err()
            .contains("empty"));
        assert_eq!(
            fix_payload("{\"a\": \u{201C}x\u{2019}s\u{201D}}").unwrap(),
            [json!({"a": "x's"})]
        );
    }
}
