//! The component tree of a surface: what is reachable from its root (kept
//! up to date incrementally), what a component names as children, cycles,
//! and the
//! `loading_<id>` placeholders for children not streamed yet.

use super::{SurfaceState, Version};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Value};
use surfaces_core::sorted;

/// The `loading_<id>` stand-in for a child not streamed yet.
pub(super) fn placeholder(id: &str, version: Version) -> Value {
    let id = ["loading_", id].concat();
    if version.nests_properties() {
        json!({"id": id, "component": {"Row": {"children": {"explicitList": []}}}})
    } else {
        json!({"id": id, "component": "Row", "children": []})
    }
}

/// `component` with its references to `missing` children pointed at their
/// placeholders.
pub(super) fn with_placeholders(
    component: &Value,
    missing: &sorted::Names,
    version: Version,
) -> Value {
    let mut out = component.clone();
    let body = if version.nests_properties() {
        out.get_mut("component")
            .and_then(Value::as_object_mut)
            .and_then(|m| m.values_mut().next())
    } else {
        Some(&mut out)
    };
    let Some(body) = body else { return out };
    let swap = |v: &mut Value| {
        if let Some(id) = v.as_str().filter(|id| missing.contains(id)) {
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
/// component itself in v0.9 and v1.0 (`"component": "Text"`), the value under the
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

/// Every component below `from` (itself included, only those present), in
/// the order a depth-first walk meets them, or the cycle error: a component
/// met again on the path to it, or `above` (the parent whose new reference
/// to `from` is being walked) met at all.
fn walk(
    state: &SurfaceState,
    version: Version,
    from: &str,
    above: Option<&str>,
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    if !state.components.contains_key(from) {
        return Ok(out);
    }
    let children = |id: &str| -> Vec<String> {
        let mut ids = state
            .components
            .get(id)
            .map(|c| child_ids(c, version))
            .unwrap_or_default();
        ids.reverse();
        ids
    };
    // A cycle is named by its least id, so the error does not depend on
    // which of its references came last.
    let cycle = |path: &[(String, Vec<String>)], from: &str| {
        let at = path.iter().position(|(p, _)| p == from).unwrap_or(0);
        let members = path[at..].iter().map(|(p, _)| p.as_str());
        let least = members.chain(above).min().unwrap_or(from);
        [
            "Circular reference detected: component \"",
            least,
            "\" is its own ancestor",
        ]
        .concat()
    };
    // Depth-first, with the path kept (and indexed) to tell a cycle from a
    // shared child.
    let mut seen = sorted::Names::from_iter([String::from(from)]);
    let mut on_path = seen.clone();
    let mut path: Vec<(String, Vec<String>)> = alloc::vec![(from.into(), children(from))];
    out.push(String::from(from));
    while let Some((id, mut left)) = path.pop() {
        let Some(child) = left.pop() else {
            on_path.remove(&id);
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
        if on_path.contains(&child) {
            return Err(cycle(&path, &child));
        }
        if above == Some(child.as_str()) {
            return Err(cycle(&path, from));
        }
        if state.components.contains_key(&child) && seen.insert(child.clone()) {
            let next = children(&child);
            on_path.insert(child.clone());
            out.push(child.clone());
            path.push((child, next));
        }
    }
    Ok(out)
}

impl SurfaceState {
    /// Sets (or, with `None`, removes) a component, keeping in `before` what
    /// each id held before the first change of this update (null for none:
    /// a component is an object; a map of a type the module has already).
    pub(super) fn set(
        &mut self,
        id: &str,
        value: Option<Value>,
        before: &mut sorted::ByName<Value>,
    ) {
        let old = match value {
            Some(v) => self.components.insert(id.into(), v),
            None => self.components.remove(id),
        };
        before.get_or_insert_with(id.into(), || old.unwrap_or(Value::Null));
    }

    /// Brings what is reachable from the root up to date after the changes
    /// `before` records; returns the ids whose shown form may have changed:
    /// the reachable ones changed, those that became reachable, and the
    /// parents of a component that arrived or went (their placeholders).
    ///
    /// Incremental: each new reference from a reachable component (and each
    /// arrival a reachable parent names) walks only what is below it, which
    /// also finds the cycle it may close; everything is walked again only
    /// when a reachable component lost a reference to another reachable one
    /// or went, as either may leave something unreachable.
    pub(super) fn update(
        &mut self,
        before: &sorted::ByName<Value>,
        version: Version,
    ) -> Result<sorted::Names, String> {
        let mut changed = sorted::Names::default();
        let Some(root) = self.root.clone() else {
            return Ok(changed);
        };
        let mut again = false;
        // New references into what may become reachable: (parent, child).
        let mut entries: Vec<(Option<String>, String)> = Vec::new();
        for (id, old) in before.iter() {
            let (old, now) = (Some(old).filter(|o| !o.is_null()), self.components.get(id));
            if old == now {
                continue;
            }
            let ids = |c: Option<&Value>| {
                sorted::Names::from_iter(c.map(|c| child_ids(c, version)).unwrap_or_default())
            };
            let (was, is) = (ids(old), ids(now));
            let reached = self.reach.contains(id);
            for child in was.difference(&is) {
                if let Some(parents) = self.parents.get_mut(child) {
                    parents.remove(id);
                }
                again |= reached && self.reach.contains(child);
            }
            for child in is.difference(&was) {
                let parents = self
                    .parents
                    .get_or_insert_with(child.clone(), Default::default);
                parents.insert(id.clone());
                if reached {
                    entries.push((Some(id.clone()), child.clone()));
                }
            }
            if old.is_none() != now.is_none() {
                let parents = self.parents.get(id).into_iter().flatten();
                changed.extend(parents.filter(|p| self.reach.contains(p)).cloned());
                again |= now.is_none() && reached;
                if now.is_some() && !reached {
                    if *id == root {
                        entries.push((None, id.clone()));
                    }
                    let parents = self.parents.get(id).into_iter().flatten();
                    let reaching = parents.filter(|p| self.reach.contains(p));
                    entries.extend(reaching.map(|p| (Some(p.clone()), id.clone())));
                }
            }
            if reached {
                changed.insert(id.clone());
            }
        }
        if again {
            self.reach = sorted::Names::from_iter(walk(self, version, &root, None)?);
            changed.extend(self.reach.iter().cloned());
            return Ok(changed);
        }
        for (parent, child) in entries {
            for id in walk(self, version, &child, parent.as_deref())? {
                if self.reach.insert(id.clone()) {
                    changed.insert(id);
                }
            }
        }
        Ok(changed)
    }

    /// Indexes every component's children again and walks everything
    /// reachable from the root again (a reading taken back), or the cycle
    /// error.
    pub(super) fn rebuild(&mut self, version: Version) -> Result<(), String> {
        self.parents.clear();
        for (id, component) in self.components.iter() {
            for child in child_ids(component, version) {
                let parents = self.parents.get_or_insert_with(child, Default::default);
                parents.insert(id.clone());
            }
        }
        self.reach_again(version)
    }

    /// Walks everything reachable from the root again (a surface started
    /// again), or the cycle error.
    pub(super) fn reach_again(&mut self, version: Version) -> Result<(), String> {
        self.reach = match self.root.clone() {
            Some(root) => sorted::Names::from_iter(walk(self, version, &root, None)?),
            None => sorted::Names::default(),
        };
        Ok(())
    }
}

/// The ids a component names as children.
pub(super) fn child_ids(component: &Value, version: Version) -> Vec<String> {
    let body = if version.nests_properties() {
        component
            .get("component")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next())
    } else {
        Some(component)
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
    // `{"componentId", "path"}` (v0.9, v1.0).
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
