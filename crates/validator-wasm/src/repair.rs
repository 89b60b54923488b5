//! Repairs (SPEC.md section 7): deterministic, reported fixes.

/// Levenshtein distance over Unicode scalar values.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate nearest to `name` by Levenshtein distance, at most 2; ties
/// go to the candidate first in byte order.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if name.chars().count().abs_diff(candidate.chars().count()) > 2 {
            continue;
        }
        let d = levenshtein(name, candidate);
        if d > 2 {
            continue;
        }
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && candidate.as_bytes() < bc.as_bytes()),
        };
        if better {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

use crate::catalog::{Catalog, Entry};
use serde_json::{Map, Value};
use surfaces_core::function::is_dynamic;
use surfaces_core::pointer;

/// One reported repair: `{code, op, path, from, to, message}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Repair {
    /// `snap_component`, `snap_enum`, `snap_icon`, `fill_required`, `drop_prop` or `rewrite_path`.
    pub code: &'static str,
    /// The index of the operation repaired.
    pub op: usize,
    /// Where the repair applies in the resulting document (for
    /// `rewrite_path`, the operation's new path).
    pub path: String,
    /// The value before (`null` for a filled prop).
    pub from: Value,
    /// The value after (`null` for a dropped prop).
    pub to: Value,
    /// What was done and why.
    pub message: String,
}

impl Repair {
    /// The repair as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"code": self.code, "op": self.op, "path": self.path, "from": self.from, "to": self.to, "message": self.message})
    }
}

/// Repairs one component value sitting at `at`.
pub(crate) fn component(
    value: &mut Value,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    if let Some(name) = map.get_mut("component") {
        component_name(name, &[at, "/component"].concat(), catalog, op, out);
    }
    let Some(entry) = map
        .get("component")
        .and_then(Value::as_str)
        .and_then(|n| catalog.entry(n))
    else {
        return;
    };
    let props_at = [at, "/props"].concat();
    let needs_fill = missing_required(entry, map.get("props"));
    if map.get("props").is_none() && needs_fill {
        map.insert("props".into(), Value::Object(Map::new()));
    }
    if let Some(props) = map.get_mut("props") {
        self::props(props, entry, &props_at, catalog, op, out);
    }
}

/// Snaps a component name (at `at`) to the nearest catalog name.
pub(crate) fn component_name(
    value: &mut Value,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Value::String(name) = &*value else { return };
    if catalog.entry(name).is_some() {
        return;
    }
    if let Some(near) = nearest(name, catalog.names()) {
        out.push(Repair {
            code: "snap_component",
            op,
            path: at.to_string(),
            from: name.as_str().into(),
            to: near.into(),
            message: [
                "\"",
                name,
                "\" is not in the catalog; used the nearest component \"",
                near,
                "\"",
            ]
            .concat(),
        });
        *value = near.into();
    }
}

fn missing_required(entry: &Entry, props: Option<&Value>) -> bool {
    let required = entry.props.get("required").and_then(Value::as_array);
    required.is_some_and(|r| {
        r.iter()
            .filter_map(Value::as_str)
            .any(|name| props.and_then(|p| p.get(name)).is_none())
    })
}

/// Repairs a props object of `entry` sitting at `at`.
pub(crate) fn props(
    value: &mut Value,
    entry: &Entry,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    let schema = &entry.props;
    let properties = schema.get("properties").and_then(Value::as_object);
    let open = matches!(
        schema.get("additionalProperties"),
        Some(Value::Bool(true)) | Some(Value::Object(_))
    );
    if let (Some(known), false) = (properties, open) {
        let unknown: Vec<String> = map
            .keys()
            .filter(|k| !known.contains_key(*k))
            .cloned()
            .collect();
        for key in unknown {
            let mut path = at.to_string();
            pointer::push(&mut path, &key);
            let from = map.shift_remove(&key).unwrap_or(Value::Null);
            out.push(Repair {
                code: "drop_prop",
                op,
                path,
                from,
                to: Value::Null,
                message: [
                    "\"",
                    entry.name.as_str(),
                    "\" has no prop \"",
                    &key,
                    "\"; dropped it",
                ]
                .concat(),
            });
        }
    }
    let keys: Vec<String> = map.keys().cloned().collect();
    for key in keys {
        if let (Some(prop_schema), Some(v)) =
            (properties.and_then(|p| p.get(&key)), map.get_mut(&key))
        {
            let mut path = at.to_string();
            pointer::push(&mut path, &key);
            prop(v, prop_schema, &entry.props, &path, catalog, op, out);
        }
    }
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if map.contains_key(name) {
                continue;
            }
            let Some(example) = entry.example.get(name) else {
                continue;
            };
            let mut path = at.to_string();
            pointer::push(&mut path, name);
            out.push(Repair {
                code: "fill_required",
                op,
                path,
                from: Value::Null,
                to: example.clone(),
                message: [
                    "the required prop \"",
                    name,
                    "\" was missing; filled it from the catalog example",
                ]
                .concat(),
            });
            map.insert(name.into(), example.clone());
        }
    }
}

/// Snaps one prop value to its enum or the catalog's icons.
pub(crate) fn prop(
    value: &mut Value,
    schema: &Value,
    root: &Value,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let schema = match schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| crate::schema::resolve_ref(root, r))
    {
        Some(target) => target,
        None => schema,
    };
    let Value::String(text) = &*value else { return };
    if is_dynamic(&&*value) {
        return;
    }
    let (code, candidates): (&'static str, Vec<&str>) =
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            if options.iter().any(|o| o.as_str() == Some(text)) {
                return;
            }
            (
                "snap_enum",
                options.iter().filter_map(Value::as_str).collect(),
            )
        } else if schema.get("format").and_then(Value::as_str) == Some("icon") {
            if catalog.icons().iter().any(|i| i == text) {
                return;
            }
            (
                "snap_icon",
                catalog.icons().iter().map(String::as_str).collect(),
            )
        } else {
            return;
        };
    let mut sorted = candidates;
    sorted.sort_unstable();
    if let Some(near) = nearest(text, sorted) {
        out.push(Repair {
            code,
            op,
            path: at.to_string(),
            from: text.as_str().into(),
            to: near.into(),
            message: [
                "\"",
                text,
                "\" is not allowed here; used the nearest allowed value \"",
                near,
                "\"",
            ]
            .concat(),
        });
        *value = near.into();
    }
}
