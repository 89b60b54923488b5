//! The unfinished message, read leniently after a chunk (at most once per
//! eighth of growth past [`SNIFF_EVERY_CHUNK_UP_TO`] bytes): a component
//! shows as soon as its id and name are whole, a cut string closed only
//! under A2UI's cuttable keys, never a cut URL.

use super::apply::seen;
use super::tree::has_empty_object;
use super::{push_message, A2uiStream, Part, Undo, Version, SNIFF_EVERY_CHUNK_UP_TO};
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Value};
use surfaces_core::sorted;

impl A2uiStream {
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

    /// The message with the string it was cut in closed, when that string
    /// is the value of one of the catalog's own cuttable keys (and may not
    /// be a URL); a cut escape is dropped.
    fn close_cut_string(&self) -> Option<String> {
        if !self.in_string || self.cuttable.is_empty() || self.cut_may_be_url() {
            return None;
        }
        let before = self.message.get(..self.string_start)?.trim_end();
        let key = before.strip_suffix(':')?.trim_end().strip_suffix('"')?;
        let key = key.get(key.rfind('"')? + 1..)?;
        if !self.cuttable.iter().any(|k| k == key) {
            return None;
        }
        let mut text = String::from(&self.message);
        if self.escaped {
            text.pop();
        } else if let Some(at) = text.get(text.len().saturating_sub(5)..).and_then(|t| {
            let at = t.rfind("\\u")?;
            let hex = t.get(at + 2..)?;
            (hex.len() < 4 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .then_some(text.len() - t.len() + at)
        }) {
            text.truncate(at);
        }
        text.push('"');
        Some(text)
    }

    /// Reads the unfinished message leniently: components already whole
    /// enough (a complete id and name, no value cut to `{}`; cut strings
    /// closed only under A2UI's cuttable keys) are shown once reachable.
    pub(super) fn sniff(&mut self, parts: &mut Vec<Part>) -> Result<(), String> {
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
        let [_, update, data, ..] = self.version.kinds() else {
            return Ok(());
        };
        // A cut string under one of the catalog's own cuttable keys is
        // closed here, A2UI's under `partial::parse`'s rule.
        let closed = self.close_cut_string();
        let text = closed.as_deref().unwrap_or(&self.message);
        if self.message.contains(&["\"", data, "\""].concat()) {
            let partial = crate::partial::parse(text, cuttable);
            // Shown once its surface is named and (but in v0.8, whose
            // entries say their values) its value has begun: an update
            // without one would read as a deletion.
            let body = partial.as_ref().and_then(|p| p.value.get(data));
            let complete_id = body
                .and_then(|b| b.get("surfaceId"))
                .is_some_and(Value::is_string)
                && (self.version == Version::V08 || body.is_some_and(|b| b.get("value").is_some()));
            if let Some(partial) = partial.filter(|_| complete_id) {
                if let Some(m) = self.data_delta(&partial.value, data) {
                    self.provisional += 1;
                    push_message(parts, m);
                }
            }
            return Ok(());
        }
        if !self.message.contains("\"components\"") {
            return Ok(());
        }
        let Some(partial) = crate::partial::parse(text, cuttable) else {
            return Ok(());
        };
        // A v1.0 `createSurface` carrying components streams them as an
        // update would, its surface started once they have begun.
        let starting = self.version_of(&partial.value) == Version::V10
            && partial.value["createSurface"]["components"].is_array();
        let key = if starting { "createSurface" } else { update };
        let Some(body) = partial.value.get(key) else {
            return Ok(());
        };
        let Some(surface_id) = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Ok(());
        };
        if starting {
            self.start_reading(&surface_id, &partial.value, parts)?;
        }
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
        // Each reading replaces the one before: what only the one before
        // showed is taken back, so a component hidden again (a value of it
        // just cut to `{}`) is missing as in a reading of the text whole.
        let mut before = sorted::ByName::default();
        for (surface, id, value) in self.read.drain(..).rev() {
            if let Some(state) = self.surfaces.get_mut(&surface) {
                state.set(&id, value, &mut before);
            }
        }
        let state = self.surfaces.entry(&surface_id);
        for c in &whole {
            let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
            let value = state.components.get(id).cloned();
            self.read.push((surface_id.clone(), id.into(), value));
        }
        // Moved in, not copied through serde (json! would copy every component).
        let body = validator_wasm::object([
            ("surfaceId", surface_id.as_str().into()),
            ("components", Value::Array(whole)),
        ]);
        match self.components_of(update, &surface_id, &body, &partial.value, before) {
            Ok(messages) => {
                for m in messages {
                    self.provisional += 1;
                    push_message(parts, m);
                }
                Ok(())
            }
            // A reading that closes a cycle shows nothing of itself: only a
            // whole message is refused (a reading of the whole text may not
            // read this one at all), so it is taken back and reading goes on.
            Err(_) => self.take_back_reading(),
        }
    }

    /// Puts back what the components of the last reading replaced, and
    /// what each surface reaches from its root with them.
    fn take_back_reading(&mut self) -> Result<(), String> {
        let mut touched = sorted::Names::default();
        for (surface, id, value) in self.read.drain(..).rev() {
            if let Some(state) = self.surfaces.get_mut(&surface) {
                state.set(&id, value, &mut sorted::ByName::default());
                touched.insert(surface);
            }
        }
        for surface in touched {
            if let Some(state) = self.surfaces.get_mut(&surface) {
                state.rebuild(self.version)?;
            }
        }
        Ok(())
    }
}

impl A2uiStream {
    /// Starts, from a reading of its unfinished `createSurface`, a surface
    /// not started yet (and with no update waiting for it): its start goes
    /// out without the components and data, which follow as they stream.
    fn start_reading(
        &mut self,
        surface_id: &str,
        message: &Value,
        parts: &mut Vec<Part>,
    ) -> Result<(), String> {
        let state = self.surfaces.entry(surface_id);
        if state.started || !state.pending.is_empty() {
            return Ok(());
        }
        state.started = true;
        state.root = Some(String::from("root"));
        state.reach_again(self.version)?;
        let start = bare_start(message);
        self.undo
            .push(Undo::Started(surface_id.into(), start.clone()));
        self.provisional += 1;
        push_message(parts, start);
        Ok(())
    }

    /// Whether the text so far ends inside a message.
    pub(super) fn in_message(&self) -> bool {
        !self.open.is_empty()
    }

    /// The text ended inside a message: takes back what its readings
    /// changed (the reader takes their messages out of its document) and
    /// reads all of it once, so what it shows is what a reading of the whole
    /// text shows, however the text was cut.
    pub(super) fn read_again(&mut self, parts: &mut Vec<Part>) -> Result<(), String> {
        for undo in self.undo.drain(..).rev() {
            match undo {
                Undo::Started(surface, _) => {
                    if let Some(state) = self.surfaces.get_mut(&surface) {
                        state.started = false;
                        state.root = None;
                        state.reach.clear();
                    }
                }
                Undo::Shown(surface, id, old) => {
                    if let Some(state) = self.surfaces.get_mut(&surface) {
                        match old {
                            Some(v) => state.emitted.insert(id, v),
                            None => state.emitted.remove(&id),
                        };
                    }
                }
                Undo::Data(scope, key, old) => {
                    let seen = seen(&mut self.data_seen, &scope);
                    match old {
                        Some(v) => seen.insert(key, v),
                        None => seen.remove(&key),
                    };
                }
            }
        }
        // What each surface had before, the surfaces in order (a list, not
        // a map of maps: each map type is code in the WebAssembly module).
        let mut before: Vec<(String, sorted::ByName<Value>)> = Vec::new();
        for (surface, id, value) in self.read.drain(..).rev() {
            if let Some(state) = self.surfaces.get_mut(&surface) {
                let i = match before.binary_search_by(|(s, _)| s.cmp(&surface)) {
                    Ok(i) => i,
                    Err(i) => {
                        before.insert(i, (surface, sorted::ByName::default()));
                        i
                    }
                };
                state.set(&id, value, &mut before[i].1);
            }
        }
        for (surface, before) in before {
            if let Some(state) = self.surfaces.get_mut(&surface) {
                state.update(&before, self.version)?;
            }
        }
        self.provisional = 0;
        self.sniffed = 0;
        self.sniff(parts)
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

/// A `createSurface` message without the components and data it carries.
pub(super) fn bare_start(message: &Value) -> Value {
    let mut start = message.clone();
    if let Some(body) = start
        .get_mut("createSurface")
        .and_then(Value::as_object_mut)
    {
        body.remove("components");
        body.remove("dataModel");
    }
    start
}
