//! The component tree of a surface: what is reachable from its root (in id
//! order), what a component names as children, cycles, and the
//! `loading_<id>` placeholders for children not streamed yet.

use super::{SurfaceState, Version};
use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Value};

/// The `loading_<id>` stand-in for a child not streamed yet.
pub(super) fn placeholder(id: &str, version: Version) -> Value {
    let id = ["loading_", id].concat();
    match version {
        Version::V09 => json!({"id": id, "component": "Row", "children": []}),
        Version::V08 => json!({"id": id, "component": {"Row": {"children": {"explicitList": []}}}}),
    }
}

/// `component` with its references to `missing` children pointed at their
/// placeholders.
pub(super) fn with_placeholders(component: &Value, missing: &[String], version: Version) -> Value {
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
pub(super) fn component_name(component: &Value) -> Option<(&str, &Value)> {
    match component.get("component")? {
        Value::String(name) => Some((name, component)),
        Value::Object(m) => m.iter().next().map(|(name, props)| (name.as_str(), props)),
        _ => None,
    }
}

/// Whether a value holds an empty object anywhere (a value cut short).
pub(super) fn has_empty_object(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.is_empty() || map.values().any(has_empty_object),
        Value::Array(items) => items.iter().any(has_empty_object),
        _ => false,
    }
}

/// The ids of the components reachable from the surface's root, in id
/// order, or the cycle error.
pub(super) fn reachable(
    state: &SurfaceState,
    version: Version,
) -> Result<BTreeSet<String>, String> {
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
pub(super) fn child_ids(component: &Value, version: Version) -> Vec<String> {
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
pub(super) fn absolute_paths(value: &mut Value) {
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
