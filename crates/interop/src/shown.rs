//! What the operations of a streaming import have built so far, and the
//! operations that bring it up to a newer conversion: the one comparison
//! [`A2uiImport`](crate::A2uiImport) and
//! [`JsonRenderImport`](crate::json_render::JsonRenderImport) share.
//!
//! The first surface is one `replace` of the whole at `at`; then a
//! `replace` per top-level key that changed, the data compared member by
//! member (`add`, `remove`, `replace` of the deepest member that changed; a
//! list replaced whole), and the components compared by position when
//! their ids and children are the same (a `replace` of each one that
//! changed) or replaced as one list when the tree changed, so that no
//! operation leaves a component unreachable or a child undefined for the
//! validator to refuse.

use serde_json::{json, Value};
use surfaces_core::pointer;

/// The surface the operations so far build, at `at` in the draft's
/// document.
#[derive(Debug, Clone)]
pub struct Shown {
    at: String,
    surface: Option<Value>,
}

impl Shown {
    pub fn new(at: &str) -> Shown {
        Shown {
            at: at.to_string(),
            surface: None,
        }
    }

    /// The surface built so far.
    pub fn surface(&self) -> Option<&Value> {
        self.surface.as_ref()
    }

    /// The operations that take what was built to `surface`.
    pub fn update(&mut self, surface: Value) -> Vec<Value> {
        let mut ops = Vec::new();
        match &self.surface {
            None => ops.push(json!({"op": "replace", "path": self.at, "value": surface})),
            Some(shown) => diff_surface(shown, &surface, &self.at, &mut ops),
        }
        self.surface = Some(surface);
        ops
    }
}

/// The operations taking surface `old` to `new`, at `at`.
fn diff_surface(old: &Value, new: &Value, at: &str, ops: &mut Vec<Value>) {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return diff(&Value::Null, new, at, ops);
    };
    for (key, value) in new {
        let mut path = at.to_string();
        pointer::push(&mut path, key);
        match (key.as_str(), old.get(key)) {
            ("components", Some(before)) => diff_components(before, value, &path, ops),
            ("data", Some(before)) => diff(before, value, &path, ops),
            (_, Some(before)) if before == value => {}
            (_, Some(_)) => ops.push(json!({"op": "replace", "path": path, "value": value})),
            (_, None) => ops.push(json!({"op": "add", "path": path, "value": value})),
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        let mut path = at.to_string();
        pointer::push(&mut path, key);
        ops.push(json!({"op": "remove", "path": path}));
    }
}

/// Components by position when the tree is the same, else the whole list.
fn diff_components(old: &Value, new: &Value, at: &str, ops: &mut Vec<Value>) {
    let shape = |list: &Value| -> Vec<(Value, Value)> {
        let items = list.as_array().map(Vec::as_slice).unwrap_or_default();
        items
            .iter()
            .map(|c| (c["id"].clone(), c["children"].clone()))
            .collect()
    };
    if shape(old) != shape(new) {
        return ops.push(json!({"op": "replace", "path": at, "value": new}));
    }
    let pairs = old
        .as_array()
        .into_iter()
        .flatten()
        .zip(new.as_array().into_iter().flatten());
    for (i, (before, after)) in pairs.enumerate() {
        if before != after {
            let mut path = at.to_string();
            pointer::push_index(&mut path, i);
            ops.push(json!({"op": "replace", "path": path, "value": after}));
        }
    }
}

/// A value compared member by member where both are objects.
fn diff(old: &Value, new: &Value, at: &str, ops: &mut Vec<Value>) {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        if old != new {
            ops.push(json!({"op": "replace", "path": at, "value": new}));
        }
        return;
    };
    let member = |key: &str| {
        let mut path = at.to_string();
        pointer::push(&mut path, key);
        path
    };
    for (key, value) in new {
        match old.get(key) {
            Some(before) => diff(before, value, &member(key), ops),
            None => ops.push(json!({"op": "add", "path": member(key), "value": value})),
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        ops.push(json!({"op": "remove", "path": member(key)}));
    }
}
