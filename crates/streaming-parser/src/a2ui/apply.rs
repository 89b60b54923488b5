//! A complete message applied to the stream's surfaces: a start emits, with
//! the updates that waited for it; component updates emit the reachable
//! tree when something in it changed; data updates emit only what is new.

use super::sniff::bare_start;
use super::tree::{absolute_paths, child_ids, component_name, placeholder, with_placeholders};
use super::{envelope, A2uiStream, Undo, Version};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Map, Value};
use surfaces_core::sorted;

impl A2uiStream {
    /// Whether a streaming component has what its schema requires.
    pub(super) fn has_required(&self, component: &Value) -> bool {
        component_name(component).is_some() && self.missing_required(component).is_none()
    }

    /// The first property the catalog requires that `component` lacks.
    fn missing_required(&self, component: &Value) -> Option<&str> {
        let (name, props) = component_name(component)?;
        let fields = self.catalog.get(name)?.get("required")?.as_array()?;
        let mut fields = fields.iter().filter_map(Value::as_str);
        fields.find(|f| *f != "component" && props.get(*f).is_none())
    }

    /// Applies one complete message, read as its version; returns what to
    /// emit now.
    pub(super) fn handle(&mut self, message: Value) -> Result<Vec<Value>, String> {
        let version = self.version_of(&message);
        let (kind, body) = envelope(&message, version)?;
        let [start, update, data, delete, ..] = version.kinds() else {
            return Ok(Vec::new());
        };
        if ![start, update, data, delete].contains(&&kind) {
            // A function call or response: it names no surface.
            return match body.get("functionCallId").and_then(Value::as_str) {
                Some(_) => Ok(alloc::vec![message.clone()]),
                None => Err(["Validation failed: ", kind, " needs a functionCallId"].concat()),
            };
        }
        let Some(surface_id) = body
            .get("surfaceId")
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Err(["Validation failed: ", kind, " needs a surfaceId"].concat());
        };
        let kind = kind.to_string();
        if kind == *start {
            if version == Version::V09 && body.get("catalogId").is_none() {
                return Err(
                    "createSurface is missing the required property 'catalogId'".to_string()
                );
            }
            let root = match version {
                Version::V08 => body.get("root").and_then(Value::as_str).map(String::from),
                _ => Some(String::from("root")),
            };
            let read = self.undo.iter().find_map(|u| match u {
                Undo::Started(s, start) if *s == surface_id => Some(start.clone()),
                _ => None,
            });
            let state = self.surfaces.entry(&surface_id);
            state.started = true;
            state.root = root;
            state.reach_again(self.version)?;
            let mut out = match read {
                Some(shown) => self.rest_of_start(&surface_id, message, &shown)?,
                None => alloc::vec![self.start_message(&surface_id, message)?],
            };
            let state = self.surfaces.entry(&surface_id);
            let pending = core::mem::take(&mut state.pending);
            for waiting in pending {
                out.extend(self.handle(waiting)?);
            }
            return Ok(out);
        }
        if kind == *data {
            if version == Version::V10 && body.get("value").is_none() {
                return Err("updateDataModel is missing the required property 'value'".to_string());
            }
            // Data may arrive before its surface: a renderer keeps it.
            return Ok(self.data_delta(&message, data).into_iter().collect());
        }
        if kind == *update {
            self.check_required(body)?;
        }
        let started = self.surfaces.get(&surface_id).is_some_and(|s| s.started);
        if kind == *delete && !started {
            // Nothing was shown of it: there is nothing to delete.
            return Ok(Vec::new());
        }
        let body = body.clone();
        let state = self.surfaces.entry(&surface_id);
        if !state.started {
            state.pending.push(message);
            return Ok(Vec::new());
        }
        self.components_of(
            &kind,
            &surface_id,
            &body,
            &message,
            sorted::ByName::default(),
        )
    }

    /// The first component of `body`'s list lacking a property its catalog
    /// requires, as the error.
    fn check_required(&self, body: &Value) -> Result<(), String> {
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
        Ok(())
    }

    /// A start message as emitted. A v1.0 `createSurface` may carry the
    /// surface's first components and data: they are taken as an update
    /// and a data update would be, the message keeping of its components
    /// only those shown (reachable, children not streamed yet pointed at
    /// placeholders), and its data marked as emitted.
    fn start_message(&mut self, surface_id: &str, mut message: Value) -> Result<Value, String> {
        let Some(body) = message.get_mut("createSurface") else {
            return Ok(message);
        };
        if let Some(Value::Object(data)) = body.get("dataModel") {
            let seen = seen(&mut self.data_seen, &data_scope(body));
            seen.extend(data.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if body.get("components").is_none() {
            return Ok(message);
        }
        self.check_required(body)?;
        let shown = self.shown_components(surface_id, body, sorted::ByName::default())?;
        if let Some(body) = body.as_object_mut() {
            if shown.is_empty() {
                body.remove("components");
            } else {
                body.insert("components".into(), Value::Array(shown));
            }
        }
        Ok(message)
    }

    /// What is left to emit of a start whose readings started its surface
    /// (`shown`, the start they sent) and showed its components as they
    /// streamed: the components that changed since, as an update, its data
    /// as a data update, and the start again first if it says more than
    /// the readings did (a member after the components).
    fn rest_of_start(
        &mut self,
        surface_id: &str,
        message: Value,
        shown: &Value,
    ) -> Result<Vec<Value>, String> {
        let body = message.get("createSurface").cloned().unwrap_or_default();
        self.check_required(&body)?;
        let start = bare_start(&message);
        let mut out = Vec::new();
        if start != *shown {
            out.push(start);
        }
        let [_, update, data, ..] = Version::V10.kinds() else {
            return Ok(out);
        };
        out.extend(self.components_of(
            update,
            surface_id,
            &body,
            &message,
            sorted::ByName::default(),
        )?);
        if let Some(value) = body.get("dataModel") {
            let tag = message.get("version").cloned();
            let update = json!({"version": tag, *data: {"surfaceId": surface_id, "value": value}});
            out.extend(self.data_delta(&update, data));
        }
        Ok(out)
    }

    /// Takes an update (or a delete) for a started surface, after the
    /// changes `before` records (a reading of the unfinished message taking
    /// back the one before); returns the update of the components that
    /// became reachable or changed, and of the placeholders not shown yet.
    pub(super) fn components_of(
        &mut self,
        kind: &str,
        surface_id: &str,
        body: &Value,
        message: &Value,
        before: sorted::ByName<Value>,
    ) -> Result<Vec<Value>, String> {
        if kind == "deleteSurface" {
            self.surfaces.remove(surface_id);
            return Ok(alloc::vec![message.clone()]);
        }
        let fresh = self.shown_components(surface_id, body, before)?;
        if fresh.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Map::new();
        let tag = message.get("version").cloned();
        let tag = tag.or_else(|| self.version.tag().map(Value::from));
        if let Some(tag) = tag {
            out.insert("version".into(), tag);
        }
        out.insert(
            kind.to_string(),
            validator_wasm::object([
                ("surfaceId", surface_id.into()),
                ("components", Value::Array(fresh)),
            ]),
        );
        Ok(alloc::vec![Value::Object(out)])
    }

    /// Takes `body`'s components into a started surface, after the changes
    /// `before` records; returns the components that became reachable or
    /// changed, and the placeholders not shown yet, as shown.
    fn shown_components(
        &mut self,
        surface_id: &str,
        body: &Value,
        mut before: sorted::ByName<Value>,
    ) -> Result<Vec<Value>, String> {
        let version = self.version;
        let Some(state) = self.surfaces.get_mut(surface_id) else {
            return Ok(Vec::new());
        };
        let components = body.get("components").and_then(Value::as_array);
        for component in components.into_iter().flatten() {
            let Some(id) = component.get("id").and_then(Value::as_str) else {
                continue;
            };
            let mut component = component.clone();
            if version.nests_properties() {
                absolute_paths(&mut component);
            }
            state.set(id, Some(component), &mut before);
        }
        // Each component as shown, its children not streamed yet pointed at
        // placeholders; only what differs from what was emitted goes out.
        let mut fresh: Vec<Value> = Vec::new();
        // The children not streamed yet, in the order first named.
        let mut stand_ins: Vec<String> = Vec::new();
        let mut named = sorted::Names::default();
        for id in state.update(&before, version)? {
            let Some(component) = state
                .components
                .get(&id)
                .filter(|_| state.reach.contains(&id))
            else {
                continue;
            };
            let missing: Vec<String> = child_ids(component, version)
                .into_iter()
                .filter(|c| !state.components.contains_key(c))
                .collect();
            let shown = if missing.is_empty() {
                component.clone()
            } else if self.placeholders {
                for child in &missing {
                    if named.insert(child.clone()) {
                        stand_ins.push(child.clone());
                    }
                }
                with_placeholders(component, &sorted::Names::from_iter(missing), version)
            } else {
                // A reference a renderer cannot resolve: the parent waits.
                continue;
            };
            if state.emitted.get(&id) != Some(&shown) {
                self.undo.push(Undo::Shown(
                    surface_id.into(),
                    id.clone(),
                    state.emitted.insert(id, shown.clone()),
                ));
                fresh.push(shown);
            }
        }
        for child in stand_ins {
            // A placeholder never changes: each is built and sent once.
            let id = ["loading_", &child].concat();
            if !state.emitted.contains_key(&id) {
                let shown = placeholder(&child, version);
                state.emitted.insert(id.clone(), shown.clone());
                self.undo.push(Undo::Shown(surface_id.into(), id, None));
                fresh.push(shown);
            }
        }
        Ok(fresh)
    }

    /// A v0.9 or v1.0 data update with only the top-level values not emitted yet
    /// (or changed); `None` when nothing changed.
    pub(super) fn data_delta(&mut self, message: &Value, kind: &str) -> Option<Value> {
        let body = message.get(kind)?;
        if self.version == Version::V08 {
            return self.contents_update(body);
        }
        let Some(Value::Object(value)) = body.get("value") else {
            // A value that is no object replaces what was at its path (or,
            // `null` or left out, deletes it): nothing at or below the path
            // counts as emitted any more, so what comes again goes out.
            self.forget_below(&data_scope(body));
            return Some(message.clone());
        };
        let scope = data_scope(body);
        let seen = seen(&mut self.data_seen, &scope);
        let delta: Map<String, Value> = value
            .iter()
            .filter(|(k, v)| seen.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if delta.is_empty() {
            return None;
        }
        for (k, v) in &delta {
            let old = seen.insert(k.clone(), v.clone());
            self.undo.push(Undo::Data(scope.clone(), k.clone(), old));
        }
        let mut out = body.as_object().cloned().unwrap_or_default();
        out.insert("value".into(), Value::Object(delta));
        let tag = self.version_of(message).tag().unwrap_or("v0.9");
        Some(json!({"version": tag, kind: out}))
    }

    /// Forgets the data values emitted at or below a surface's path: every
    /// value of a scope at or below it, and of a scope above it the member
    /// the path goes through.
    fn forget_below(&mut self, (surface, path): &(String, String)) {
        let path = path.trim_end_matches('/');
        let Some(Value::Object(scopes)) = self.data_seen.get_mut(surface) else {
            return;
        };
        for (scope, seen) in scopes.iter_mut() {
            let Value::Object(seen) = seen else {
                continue;
            };
            let at = scope.trim_end_matches('/');
            let forget: Vec<String> = match path.strip_prefix(at) {
                _ if at == path || at.strip_prefix(path).is_some_and(|r| r.starts_with('/')) => {
                    seen.keys().cloned().collect()
                }
                Some(rest) if rest.starts_with('/') => {
                    let rest = rest.get(1..).unwrap_or_default();
                    let segment = rest.split('/').next().unwrap_or_default();
                    alloc::vec![segment.replace("~1", "/").replace("~0", "~")]
                }
                _ => Vec::new(),
            };
            for key in forget {
                if let Some(old) = seen.remove(&key) {
                    let scope = (surface.clone(), scope.clone());
                    self.undo.push(Undo::Data(scope, key, Some(old)));
                }
            }
        }
    }

    /// A v0.8 data update with its entries that have a key and a value (the
    /// last one per key), when one of their values was not emitted yet;
    /// `None` when none changed.
    fn contents_update(&mut self, body: &Value) -> Option<Value> {
        let Some(entries) = body.get("contents").and_then(Value::as_array) else {
            return Some(json!({ "dataModelUpdate": body }));
        };
        let values = contents_map(entries);
        let scope = data_scope(body);
        let seen = seen(&mut self.data_seen, &scope);
        if values.iter().all(|(k, v)| seen.get(k) == Some(v)) {
            return None;
        }
        for (k, v) in &values {
            let old = seen.insert(k.clone(), v.clone());
            self.undo.push(Undo::Data(scope.clone(), k.clone(), old));
        }
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
}

/// The data values emitted at a surface's path, in `data_seen`
/// ([`A2uiStream`]'s).
pub(super) fn seen<'s>(
    data_seen: &'s mut Map<String, Value>,
    (surface, path): &(String, String),
) -> &'s mut Map<String, Value> {
    let scopes = object(data_seen.entry(surface.as_str()).or_insert(Value::Null));
    object(scopes.entry(path.as_str()).or_insert(Value::Null))
}

/// `value` as an object, made an empty one when it is something else.
fn object(value: &mut Value) -> &mut Map<String, Value> {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    value.as_object_mut().expect("made an object above")
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
