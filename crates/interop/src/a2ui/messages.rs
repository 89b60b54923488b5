//! A2UI messages read from their input and applied in order to the
//! surfaces they build (the A2UI side of the conversion; mapping to our
//! components is `import`).
//!
//! A message is applied whole or not at all: one that is not A2UI, has an
//! unknown version, breaks its envelope's rules (a v0.9 surface without
//! `catalogId`, a data path that is not a JSON Pointer, ...), updates a
//! surface not created (or creates one twice), holds a malformed component
//! or one id twice, would close a component cycle or writes data at a
//! prototype path is refused with a note, and the messages after it are
//! still read. Deleting a surface that is not there changes nothing.

use super::Version;
use crate::note::{at, at_index, too_deep, unsafe_key, Note};
use serde_json::{Map, Value};
use streaming_parser::a2ui::{parse_full, OPEN_TAG};
use streaming_parser::JsonlStream;
use surfaces_core::pointer::{self, PointerError};
use surfaces_core::sorted;

/// A component as A2UI last defined it, and the pointer of that definition.
#[derive(Debug, Clone)]
pub struct Defined {
    pub value: Value,
    pub at: String,
}

/// One surface as its messages built it.
#[derive(Debug, Clone)]
pub struct SurfaceState {
    pub id: String,
    /// The surface's default catalog.
    pub catalog: Option<String>,
    /// Where it was created.
    pub at: String,
    /// Components by id; `order` keeps their first definition order.
    pub components: sorted::ByName<Defined>,
    pub order: Vec<String>,
    pub data: Value,
    /// What the messages applied changed, in order, for a streaming import
    /// to follow ([`A2uiImport`](super::A2uiImport) takes it after each push).
    pub touched: Vec<Touch>,
}

/// A change a message made to a surface.
#[derive(Debug, Clone)]
pub enum Touch {
    /// The component of this id was defined (again).
    Component(String),
    /// The data at these segments was written or removed.
    Data(Vec<String>),
}

impl SurfaceState {
    /// Defines component `id`; gives the definition it replaced.
    fn define(&mut self, id: &str, value: Value, at: String) -> Option<Defined> {
        let before = self
            .components
            .insert(id.to_string(), Defined { value, at });
        if before.is_none() {
            self.order.push(id.to_string());
        }
        before
    }
}

/// The surfaces built so far, in creation order.
#[derive(Debug, Clone, Default)]
pub struct Model {
    pub surfaces: Vec<SurfaceState>,
}

/// The envelopes that change no surface document (function calls between
/// agent and renderer), left out with a note.
const CALL_ENVELOPES: [&str; 4] = [
    "callFunction",
    "callRendererFunction",
    "actionResponse",
    "agentFunctionResponse",
];
const SURFACE_ENVELOPES: [&str; 4] = [
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
];

/// The messages of `text`: a JSON value (a list of messages, one message,
/// or `{"messages": [...]}`) or JSON Lines when its first character that is
/// not white space is `[` or `{` (whatever its strings hold), else
/// `<a2ui-json>` blocks; each with its pointer (`/i`, the messages counted
/// from 0 across blocks and lines).
pub fn read_text(text: &str, notes: &mut Vec<Note>) -> Vec<(String, Value)> {
    let numbered = |list: Vec<Value>| -> Vec<(String, Value)> {
        let list = list.into_iter().enumerate();
        list.map(|(i, m)| (at_index("", i), m)).collect()
    };
    if !starts_json(text) && text.contains(OPEN_TAG) {
        return numbered(from_blocks(text, notes));
    }
    if let Ok(value) = surfaces_core::json::parse(text) {
        return read_value(&value);
    }
    let mut lines = JsonlStream::new();
    let mut items = lines.push(text);
    items.extend(lines.finish());
    let messages = numbered(from_lines(items, 0, notes));
    if messages.is_empty() && notes.is_empty() {
        notes.push(Note::new(
            "not_a2ui",
            "",
            "no A2UI message found: give a list of messages, JSON Lines, or <a2ui-json> blocks",
        ));
    }
    messages
}

/// The messages of `<a2ui-json>` blocks (text holding whole blocks); a
/// block that does not read is noted.
pub fn from_blocks(text: &str, notes: &mut Vec<Note>) -> Vec<Value> {
    match parse_full(text) {
        Ok(parts) => parts
            .into_iter()
            .flat_map(|p| p.a2ui.unwrap_or_default())
            .collect(),
        Err(message) => {
            notes.push(Note::new("not_a2ui", "", message));
            Vec::new()
        }
    }
}

/// The messages among the tolerant JSON Lines reader's `items`, the first
/// one message number `read`; a line that is not JSON is noted at the
/// pointer of the message it would have been. A line may be a message or
/// `{"messages": [...]}` (a whole file of A2UI's examples on one line).
pub fn from_lines(items: Vec<Value>, read: usize, notes: &mut Vec<Note>) -> Vec<Value> {
    let mut found = Vec::new();
    for item in items {
        match item["kind"].as_str() {
            Some("value") => {
                for (_, message) in read_value(&item["value"]) {
                    found.push(message);
                }
            }
            Some("error") => notes.push(Note::bad_line("not_a2ui", read + found.len(), &item)),
            _ => {}
        }
    }
    found
}

/// Whether a text's first character that is not white space opens JSON
/// (`{`: a message or JSON Lines; `[`: a list): the kind of an A2UI text,
/// decided by that character alone so that any chunking decides the same.
pub fn starts_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{' | '['))
}

/// The messages of a JSON value: a list, `{"messages": [...]}` (A2UI's list
/// wrapper and its examples' files), or one message.
pub fn read_value(value: &Value) -> Vec<(String, Value)> {
    let (base, list) = match value {
        Value::Array(items) => ("", items.as_slice()),
        Value::Object(map) => match map.get("messages") {
            Some(Value::Array(items)) => ("/messages", items.as_slice()),
            _ => return vec![(String::new(), value.clone())],
        },
        _ => return vec![(String::new(), value.clone())],
    };
    let items = list.iter().enumerate();
    items.map(|(i, m)| (at_index(base, i), m.clone())).collect()
}

/// Applies one message to `model`, or refuses it with a note (the model as
/// it was).
pub fn apply(model: &mut Model, message: &Value, at_msg: &str, notes: &mut Vec<Note>) {
    if let Err(note) = try_apply(model, message, at_msg) {
        notes.push(note);
        return;
    }
    // A surface's settings that a surface document has no place for (its
    // theme, whether the renderer sends the data back, v1.0's metadata):
    // noted, never dropped unsaid.
    let body = message.get("createSurface").and_then(Value::as_object);
    for key in ["theme", "sendDataModel", "metadata"] {
        if body.is_some_and(|b| b.contains_key(key)) {
            let message = [key, " has no equivalent in a surface document; left out"].concat();
            notes.push(Note::new(
                "prop_dropped",
                at(&at(at_msg, "createSurface"), key),
                message,
            ));
        }
    }
}

fn try_apply(model: &mut Model, message: &Value, at_msg: &str) -> Result<(), Note> {
    let Some(map) = message.as_object() else {
        return Err(Note::new(
            "not_a2ui",
            at_msg,
            "an A2UI message is a JSON object such as {\"version\": \"v1.0\", \"createSurface\": {...}}",
        ));
    };
    let envelopes: Vec<&String> = map
        .keys()
        .filter(|k| SURFACE_ENVELOPES.contains(&k.as_str()) || CALL_ENVELOPES.contains(&k.as_str()))
        .collect();
    let [envelope] = envelopes.as_slice() else {
        return Err(Note::new(
            "not_a2ui",
            at_msg,
            "an A2UI message holds exactly one of createSurface, updateComponents, updateDataModel, deleteSurface (or a function call)",
        ));
    };
    let version = match map.get("version") {
        Some(Value::String(v)) => Version::parse(v),
        _ => None,
    };
    let Some(version) = version else {
        return Err(Note::new(
            "unknown_version",
            at(at_msg, "version"),
            "the message's version is not one read here: \"v0.9\" or \"v1.0\"",
        ));
    };
    let at_body = at(at_msg, envelope);
    if CALL_ENVELOPES.contains(&envelope.as_str()) {
        return Err(Note::new(
            "no_equivalent",
            at_body,
            "a function call between agent and renderer changes no surface document; left out",
        ));
    }
    let body = map.get(envelope.as_str()).and_then(Value::as_object);
    let Some(body) = body else {
        return Err(invalid(&at_body, "the envelope's value is an object"));
    };
    let Some(surface_id) = body.get("surfaceId").and_then(Value::as_str) else {
        return Err(invalid(&at(&at_body, "surfaceId"), "surfaceId is a string"));
    };
    check_body(envelope, body, version, &at_body)?;
    let found = model.surfaces.iter().position(|s| s.id == surface_id);
    match (envelope.as_str(), found) {
        ("createSurface", Some(_)) => Err(Note::new(
            "duplicate_surface",
            at(&at_body, "surfaceId"),
            [
                "surface ",
                surface_id,
                " exists already: delete it before creating it again",
            ]
            .concat(),
        )),
        ("createSurface", None) => {
            let mut surface = SurfaceState {
                id: surface_id.to_string(),
                catalog: body
                    .get("catalogId")
                    .and_then(Value::as_str)
                    .map(String::from),
                at: at_body.clone(),
                components: sorted::ByName::default(),
                order: Vec::new(),
                data: Value::Object(Map::new()),
                touched: Vec::new(),
            };
            // v1.0: the first components and data may come with the surface.
            if let Some(components) = body.get("components") {
                let at_list = at(&at_body, "components");
                update_components(&mut surface, components, &at_list)?;
            }
            if let Some(data) = body.get("dataModel") {
                set_data(&mut surface, &[], Some(data), &at(&at_body, "dataModel"))?;
            }
            model.surfaces.push(surface);
            Ok(())
        }
        // Deleting a surface that is not there changes nothing (A2UI's
        // processors treat it as a no-op).
        ("deleteSurface", None) => Ok(()),
        (_, None) => Err(Note::new(
            "unknown_surface",
            at(&at_body, "surfaceId"),
            [
                "no surface ",
                surface_id,
                " was created before this message (send createSurface first)",
            ]
            .concat(),
        )),
        ("deleteSurface", Some(i)) => {
            model.surfaces.remove(i);
            Ok(())
        }
        ("updateComponents", Some(i)) => {
            let at_list = at(&at_body, "components");
            let components = body.get("components").unwrap_or(&Value::Null);
            update_components(&mut model.surfaces[i], components, &at_list)
        }
        (_, Some(i)) => {
            let segments = data_path(body, &at_body)?;
            let value = body.get("value").filter(|v| !v.is_null());
            let surface = &mut model.surfaces[i];
            // What the write may change, kept to take it back if it is
            // refused half-way: the top-level member it goes through (not
            // the whole data, which would make each update cost the data).
            let saved = match (&surface.data, segments.first()) {
                (_, None) => None,
                (Value::Object(map), Some(key)) => Some((Some(key.clone()), map.get(key).cloned())),
                (data, Some(_)) => Some((None, Some(data.clone()))),
            };
            let result = set_data(surface, &segments, value, &at_body);
            if result.is_ok() {
                surface.touched.push(Touch::Data(segments));
                return result;
            }
            if let Some((key, before)) = saved {
                match (key, before, &mut surface.data) {
                    (Some(key), Some(before), Value::Object(map)) => {
                        map.insert(key, before);
                    }
                    (Some(key), None, Value::Object(map)) => {
                        map.remove(&key);
                    }
                    (_, before, data) => *data = before.unwrap_or(Value::Null),
                }
            }
            result
        }
    }
}

/// The envelope's own rules, checked before its surface is looked up: a
/// v0.9 surface names its catalog, a v1.0 one may not (but a `catalogId`
/// is a string), v1.0's `metadata` holds only `extensions` keyed by
/// identifiers; a data update's path is a JSON Pointer and (v1.0) it has a
/// `value`.
fn check_body(
    envelope: &str,
    body: &Map<String, Value>,
    version: Version,
    at_body: &str,
) -> Result<(), Note> {
    match envelope {
        "createSurface" => {
            let catalog = body.get("catalogId");
            let at_catalog = at(at_body, "catalogId");
            match (catalog, version) {
                (None, Version::V09) => {
                    return Err(invalid(&at_catalog, "a v0.9 surface names its catalogId"))
                }
                (Some(id), _) if !id.is_string() => {
                    return Err(invalid(&at_catalog, "catalogId is a string"))
                }
                _ => {}
            }
            if let (Some(metadata), Version::V10) = (body.get("metadata"), version) {
                check_metadata(metadata, &at(at_body, "metadata"))?;
            }
            Ok(())
        }
        "updateDataModel" => {
            data_path(body, at_body)?;
            if version == Version::V10 && !body.contains_key("value") {
                return Err(invalid(
                    at_body,
                    "a v1.0 data update has a value (null deletes)",
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// v1.0's surface metadata: an object holding only `extensions`, an object
/// whose keys are identifiers (a letter or `_`, then letters, digits and
/// `_`: UAX #31's XID classes as Rust's alphabetic and alphanumeric).
fn check_metadata(metadata: &Value, at_metadata: &str) -> Result<(), Note> {
    let Some(map) = metadata.as_object() else {
        return Err(invalid(at_metadata, "metadata is an object"));
    };
    if let Some(key) = map.keys().find(|k| *k != "extensions") {
        return Err(invalid(
            &at(at_metadata, key),
            "metadata holds only extensions",
        ));
    }
    let at_extensions = at(at_metadata, "extensions");
    let Some(extensions) = map.get("extensions") else {
        return Ok(());
    };
    let Some(extensions) = extensions.as_object() else {
        return Err(invalid(&at_extensions, "extensions is an object"));
    };
    let identifier = |key: &str| {
        let mut chars = key.chars();
        chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
            && chars.all(|c| c == '_' || c.is_alphanumeric())
    };
    match extensions.keys().find(|k| !identifier(k)) {
        Some(key) => Err(invalid(
            &at(&at_extensions, key),
            "an extension's key is an identifier (letters, digits and _)",
        )),
        None => Ok(()),
    }
}

/// The segments of a data update's `path` (none for a missing path or `/`,
/// the whole data), or the note refusing it.
fn data_path(body: &Map<String, Value>, at_body: &str) -> Result<Vec<String>, Note> {
    let at_path = at(at_body, "path");
    let path = match body.get("path") {
        None => "",
        Some(Value::String(p)) if p == "/" => "",
        Some(Value::String(p)) => p.as_str(),
        Some(_) => return Err(invalid(&at_path, "path is a JSON Pointer")),
    };
    pointer::parse(path).map_err(|e| {
        let code = match e {
            PointerError::Invalid => "invalid_pointer",
            PointerError::Unsafe => "unsafe_path",
        };
        Note::new(code, at_path, e.message())
    })
}

fn invalid(at: &str, rule: &str) -> Note {
    Note::new(
        "invalid_message",
        at,
        ["not an A2UI message: ", rule].concat(),
    )
}

/// The components of one message defined on `surface`, or refused whole: a
/// component that is not an object with a string `id` and `component`, an
/// id given twice in the message, a `catalogId` (of the component or of a
/// function call in it) that is not a string, or a cycle the message would
/// close.
fn update_components(surface: &mut SurfaceState, list: &Value, at_list: &str) -> Result<(), Note> {
    let Some(items) = list.as_array() else {
        return Err(invalid(at_list, "components is a list"));
    };
    // Every item checked before any is defined, and what the definitions
    // replaced kept to take them back if the message closes a cycle (not a
    // copy of the surface, which would make each message cost the surface).
    let mut mine: Vec<(String, String)> = Vec::new();
    let mut once = sorted::Names::default();
    for (i, item) in items.iter().enumerate() {
        let at_item = at_index(at_list, i);
        let id = item.get("id").and_then(Value::as_str);
        let name = item.get("component").and_then(Value::as_str);
        let (Some(id), Some(_)) = (id, name) else {
            return Err(invalid(
                &at_item,
                "a component is an object with a string id and component",
            ));
        };
        if !once.insert(id.to_string()) {
            return Err(invalid(
                &at(&at_item, "id"),
                "a message defines each component id once",
            ));
        }
        if let Some(at_bad) = non_string_catalog(item, &at_item, true) {
            return Err(invalid(&at_bad, "catalogId is a string"));
        }
        mine.push((id.to_string(), at_item));
    }
    let order = surface.order.len();
    let replaced: Vec<Option<Defined>> = items
        .iter()
        .zip(&mine)
        .map(|(item, (id, at_item))| surface.define(id, item.clone(), at_item.clone()))
        .collect();
    if let Some(closing) = cycle(surface, &mine) {
        for ((id, _), before) in mine.iter().zip(replaced).rev() {
            match before {
                Some(before) => surface.components.insert(id.clone(), before),
                None => surface.components.remove(id),
            };
        }
        surface.order.truncate(order);
        return Err(Note::new(
            "cycle",
            closing.1.clone(),
            [
                "component ",
                &closing.0,
                " reaches itself through its children; the message is refused",
            ]
            .concat(),
        ));
    }
    let touched = mine.into_iter().map(|(id, _)| Touch::Component(id));
    surface.touched.extend(touched);
    Ok(())
}

/// The pointer of the first `catalogId` that is not a string in `value`:
/// the component's own (`own`) or a function call's (an object with
/// `call` or `@call`), at any depth.
fn non_string_catalog(value: &Value, at_value: &str, own: bool) -> Option<String> {
    match value {
        Value::Object(map) => {
            let call = own || map.contains_key("call") || map.contains_key("@call");
            match map.get("catalogId") {
                Some(id) if call && !id.is_string() => Some(at(at_value, "catalogId")),
                _ => map
                    .iter()
                    .find_map(|(key, item)| non_string_catalog(item, &at(at_value, key), false)),
            }
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| non_string_catalog(item, &at_index(at_value, i), false)),
        _ => None,
    }
}

/// The ids a component names: `children` (a list, or a template's
/// `componentId`), `child`, Tabs' `tabs[].child`, Modal's `trigger` and
/// `content`.
pub fn references(component: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    match component.get("children") {
        Some(Value::Array(ids)) => out.extend(ids.iter().filter_map(Value::as_str)),
        Some(template) => out.extend(template.get("componentId").and_then(Value::as_str)),
        None => {}
    }
    for key in ["child", "trigger", "content"] {
        out.extend(component.get(key).and_then(Value::as_str));
    }
    let tabs = component.get("tabs").and_then(Value::as_array);
    out.extend(
        tabs.into_iter()
            .flatten()
            .filter_map(|t| t.get("child")?.as_str()),
    );
    out
}

/// The first of `mine` (in message order) that lies on a cycle, if any:
/// the surface had none before the message, so every cycle passes through
/// one of its components.
fn cycle<'a>(surface: &SurfaceState, mine: &'a [(String, String)]) -> Option<&'a (String, String)> {
    // Iterative depth-first search colouring each id once. (Sets of owned
    // ids, as elsewhere in the crate: each set type is code in the
    // WebAssembly module.)
    let mut done = sorted::Names::default();
    let mut on_cycle = sorted::Names::default();
    for (start, _) in mine {
        if done.contains(start.as_str()) {
            continue;
        }
        let mut path: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut open = sorted::Names::default();
        let refs = |id: &str| {
            let found = surface.components.get(id);
            found.map(|c| references(&c.value)).unwrap_or_default()
        };
        path.push((start.as_str(), refs(start)));
        open.insert(start.clone());
        while let Some((id, pending)) = path.last_mut() {
            let id = *id;
            match pending.pop() {
                Some(next) if open.contains(next) => {
                    let from = path.iter().position(|(p, _)| *p == next).unwrap_or(0);
                    on_cycle.extend(path[from..].iter().map(|(p, _)| p.to_string()));
                }
                Some(next) if done.contains(next) || !surface.components.contains_key(next) => {}
                Some(next) => {
                    let (key, _) = surface.components.get_key_value(next)?;
                    open.insert(key.clone());
                    path.push((key.as_str(), refs(key)));
                }
                None => {
                    open.remove(id);
                    done.insert(id.to_string());
                    path.pop();
                }
            }
        }
    }
    mine.iter().find(|(id, _)| on_cycle.contains(id.as_str()))
}

/// Writes `value` at the path of `segments` in the surface's data
/// (creating what is missing on the way: a list where the next segment is
/// a position, else an object), or removes what is there when `value` is
/// `None` (nothing when nothing is); the whole data when there are no
/// segments (then an object). Refused: a value holding a prototype key,
/// and a write through a value that is no object or list, or past a list's
/// end.
fn set_data(
    surface: &mut SurfaceState,
    segments: &[String],
    value: Option<&Value>,
    at_body: &str,
) -> Result<(), Note> {
    let at_value = if at_body.ends_with("/dataModel") {
        at_body.to_string()
    } else {
        at(at_body, "value")
    };
    if let Some(key) = value.and_then(|v| unsafe_key(v, &at_value)) {
        return Err(Note::new(
            "unsafe_path",
            key,
            "a data key may not be __proto__, constructor or prototype",
        ));
    }
    // (The surface is level 1, its data level 2.)
    if let Some(note) = value.and_then(|v| too_deep(2, segments.len(), v, &at(at_body, "path"))) {
        return Err(note);
    }
    let Some((last, parents)) = segments.split_last() else {
        return match value {
            Some(Value::Object(map)) => {
                surface.data = Value::Object(map.clone());
                Ok(())
            }
            None => {
                surface.data = Value::Object(Map::new());
                Ok(())
            }
            Some(_) => Err(invalid(&at_value, "the whole data model is an object")),
        };
    };
    let Some(value) = value else {
        remove(&mut surface.data, parents, last);
        return Ok(());
    };
    let through = || {
        invalid(
            &at(at_body, "path"),
            "a path goes through objects and lists, not through a value",
        )
    };
    let past_end = || {
        invalid(
            &at(at_body, "path"),
            "a list is indexed by a position it has (or its length, to append)",
        )
    };
    let mut node = &mut surface.data;
    for segment in parents {
        if node.is_null() {
            *node = container(segment);
        }
        node = match node {
            Value::Array(items) => match pointer::array_index(segment) {
                Some(i) if i < items.len() => &mut items[i],
                Some(i) if i == items.len() => {
                    items.push(Value::Null);
                    &mut items[i]
                }
                _ => return Err(past_end()),
            },
            Value::Object(map) => map.entry(segment.clone()).or_insert(Value::Null),
            _ => return Err(through()),
        };
    }
    if node.is_null() {
        *node = container(last);
    }
    match node {
        Value::Object(map) => {
            map.insert(last.clone(), value.clone());
        }
        Value::Array(items) => match pointer::array_index(last) {
            Some(i) if i < items.len() => items[i] = value.clone(),
            Some(i) if i == items.len() => items.push(value.clone()),
            _ => return Err(past_end()),
        },
        _ => return Err(through()),
    }
    Ok(())
}

/// The container a missing place becomes when `segment` indexes it: a
/// list for a position (`0`, `1`, ...), else an object.
fn container(segment: &str) -> Value {
    match pointer::array_index(segment) {
        Some(_) => Value::Array(Vec::new()),
        None => Value::Object(Map::new()),
    }
}

/// Removes what is at `parents` then `last` in `data`; nothing when nothing
/// is there. A list's item becomes `null` and the list keeps its length, as
/// A2UI says (v0.9: "for arrays, the value at the index is set to
/// `undefined`, preserving length", which JSON writes as `null`), so a later
/// write by position lands on the item the agent means.
fn remove(data: &mut Value, parents: &[String], last: &str) {
    let mut node = data;
    for segment in parents {
        let next = match node {
            Value::Object(map) => map.get_mut(segment),
            Value::Array(items) => pointer::array_index(segment).and_then(|i| items.get_mut(i)),
            _ => None,
        };
        let Some(next) = next else {
            return;
        };
        node = next;
    }
    match node {
        Value::Object(map) => {
            map.shift_remove(last);
        }
        Value::Array(items) => {
            if let Some(item) = pointer::array_index(last).and_then(|i| items.get_mut(i)) {
                *item = Value::Null;
            }
        }
        _ => {}
    }
}
