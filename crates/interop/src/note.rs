//! Notes: what a conversion left out or refused, with a code and a JSON
//! Pointer into its input.

use serde_json::{json, Value};
use surfaces_core::href::is_safe_href;
use surfaces_core::{json, pointer};

/// One thing a conversion could not carry over, or input it refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// What happened, e.g. `no_equivalent`, `cycle`, `unsafe_path`.
    pub code: &'static str,
    /// A JSON Pointer into the input the conversion read.
    pub path: String,
    /// A sentence a person or a model can act on.
    pub message: String,
}

impl Note {
    /// A note at `path`.
    pub fn new(code: &'static str, path: impl Into<String>, message: impl Into<String>) -> Note {
        Note {
            code,
            path: path.into(),
            message: message.into(),
        }
    }

    /// The note `code` for a line the tolerant JSON Lines reader could not
    /// read (its `{"kind": "error", "line", "message"}` item), at the
    /// pointer of the item it would have been, `/index`.
    pub fn bad_line(code: &'static str, index: usize, item: &Value) -> Note {
        let message = item["message"].as_str().unwrap_or_default();
        let line = validator_wasm::json_text(&item["line"]);
        let text = ["line ", &line, " is not JSON: ", message].concat();
        Note::new(code, at_index("", index), text)
    }

    /// As `{code, path, message}`.
    pub fn to_json(&self) -> Value {
        json!({"code": self.code, "path": self.path, "message": self.message})
    }
}

/// The notes as a JSON list.
pub fn notes_json(notes: &[Note]) -> Value {
    Value::Array(notes.iter().map(Note::to_json).collect())
}

/// Whether `href` (at `path` in the input) follows the safe-href rule; an
/// unsafe one is noted `unsafe_href`, and the caller leaves it out.
pub fn safe_href(href: &str, path: String, notes: &mut Vec<Note>) -> bool {
    let safe = is_safe_href(href);
    if !safe {
        let message = "only a safe href (a /path, #fragment, http: or https: URL) is carried over; this one is left out";
        notes.push(Note::new("unsafe_href", path, message));
    }
    safe
}

/// Whether `key` names a link (`href`, as a Link's or a `navigate`'s, or
/// `url`, as a `share`'s) whose string breaks the safe-href rule: noted
/// `unsafe_href` at `at`, and the caller leaves the value out. One rule
/// for every conversion, both ways, so no converted document holds an
/// unsafe URL.
pub fn unsafe_link(key: &str, value: &Value, at: &str, notes: &mut Vec<Note>) -> bool {
    matches!(key, "href" | "url")
        && value
            .as_str()
            .is_some_and(|h| !safe_href(h, at.into(), notes))
}

/// Notes `not_a_surface` (at `""`) when an export's input has no list of
/// components: a page, or no document of ours. What the export writes then
/// holds nothing of it.
pub fn not_a_surface(surface: &Value, notes: &mut Vec<Note>) {
    if !surface.get("components").is_some_and(Value::is_array) {
        let message = match surface.get("sections") {
            Some(_) => "a page: export each of its surface sections on its own",
            None => "not a surface (no list of components): nothing is exported",
        };
        notes.push(Note::new("not_a_surface", "", message));
    }
}

/// Notes what an export to `to` leaves out of the surface itself:
/// `not_a_surface` when it has no list of components, else each field but
/// `kept` and those every export writes in its own terms (`kind`,
/// `catalog`, `components`, `data`) as `prop_dropped` (a surface's `style`,
/// say).
pub fn surface_exported(surface: &Value, kept: &[&str], to: &str, notes: &mut Vec<Note>) {
    not_a_surface(surface, notes);
    let fields = surface.as_object().filter(|_| notes.is_empty());
    for key in fields.into_iter().flat_map(|map| map.keys()) {
        if !["kind", "catalog", "components", "data"].contains(&key.as_str())
            && !kept.contains(&key.as_str())
        {
            let message = [
                "the surface's ",
                key,
                " has no equivalent in ",
                to,
                "; left out",
            ];
            notes.push(Note::new("prop_dropped", at("", key), message.concat()));
        }
    }
}

/// `at` with `segment` appended.
pub fn at(base: &str, segment: &str) -> String {
    let mut out = String::from(base);
    pointer::push(&mut out, segment);
    out
}

/// `at` with an array index appended.
pub fn at_index(base: &str, index: usize) -> String {
    let mut out = String::from(base);
    pointer::push_index(&mut out, index);
    out
}

/// A write of `value` through a path of `segments` into a container at
/// level `level` (1 for the outermost) that would nest past what a JSON
/// reader reads back ([`json::MAX_LEVELS`]): noted `too_deep` at `at`, the
/// path. The containers a path creates on its way count, so no message
/// builds a document that has no text (a data path of thousands of
/// segments, or a value written deep enough to pass the limit).
pub fn too_deep(level: usize, segments: usize, value: &Value, at: &str) -> Option<Note> {
    let deepest = level + segments - 1 + json::levels(value);
    // (The message names the limit: it cannot drift from it.)
    const _: () = assert!(json::MAX_LEVELS == 127);
    let message = "the write would nest past the 127 levels a JSON document holds; it is left out";
    (deepest > json::MAX_LEVELS).then(|| Note::new("too_deep", at, message))
}

/// The first key, at any depth of `value`, that JavaScript would read as a
/// prototype (`__proto__`, `constructor`, `prototype`), as a pointer below
/// `base`.
pub fn unsafe_key(value: &Value, base: &str) -> Option<String> {
    match value {
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            if pointer::UNSAFE_SEGMENTS.contains(&key.as_str()) {
                Some(at(base, key))
            } else {
                unsafe_key(item, &at(base, key))
            }
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| unsafe_key(item, &at_index(base, i))),
        _ => None,
    }
}
