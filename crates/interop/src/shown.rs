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

use serde_json::{Map, Value};
use surfaces_core::pointer;
use validator_wasm::patch::apply_patch_in_place;

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

    /// Forgets what was built: the next update is one `replace` of the whole.
    pub fn clear(&mut self) {
        self.surface = None;
    }

    /// Applies `ops` (paths in the surface) to what was built, giving them
    /// at `at`; `None`, and nothing applied, when one does not apply.
    pub fn apply(&mut self, ops: Vec<Value>) -> Option<Vec<Value>> {
        let patch = Value::Array(ops);
        apply_patch_in_place(self.surface.as_mut()?, &patch).ok()?;
        let Value::Array(mut ops) = patch else {
            return None;
        };
        for op in &mut ops {
            if let Some(Value::String(path)) = op.get_mut("path") {
                path.insert_str(0, &self.at);
            }
        }
        Some(ops)
    }

    /// The operations that take what was built to `surface`.
    pub fn update(&mut self, surface: Value) -> Vec<Value> {
        let mut ops = Vec::new();
        match &self.surface {
            None => ops.push(op("replace", self.at.clone(), Some(surface.clone()))),
            Some(shown) => diff_surface(shown, &surface, &self.at, &mut ops),
        }
        self.surface = Some(surface);
        ops
    }
}

/// An RFC 6902 operation (one function, not a `json!` per kind: each is
/// code in the WebAssembly module).
#[inline(never)]
pub fn op(kind: &str, path: String, value: Option<Value>) -> Value {
    let mut op = Map::new();
    op.insert("op".into(), kind.into());
    op.insert("path".into(), path.into());
    if let Some(value) = value {
        op.insert("value".into(), value);
    }
    Value::Object(op)
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
            (_, Some(_)) => ops.push(op("replace", path.clone(), Some(value.clone()))),
            (_, None) => ops.push(op("add", path.clone(), Some(value.clone()))),
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        let mut path = at.to_string();
        pointer::push(&mut path, key);
        ops.push(op("remove", path, None));
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
        return ops.push(op("replace", at.to_string(), Some(new.clone())));
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
            ops.push(op("replace", path, Some(after.clone())));
        }
    }
}

/// A value compared member by member where both are objects.
pub fn diff(old: &Value, new: &Value, at: &str, ops: &mut Vec<Value>) {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        if old != new {
            ops.push(op("replace", at.to_string(), Some(new.clone())));
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
            None => ops.push(op("add", member(key), Some(value.clone()))),
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        ops.push(op("remove", member(key), None));
    }
}
