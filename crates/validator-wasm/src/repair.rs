//! Repairs (SPEC.md section 7): deterministic, reported fixes.

use crate::catalog::{Catalog, Entry};
use crate::lookup::nearest;
use crate::patch::get;
use crate::surface::section_path;
use serde_json::{Map, Value};
use surfaces_core::function::is_dynamic;
use surfaces_core::pointer::{self, array_index};

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
    let unknown: Vec<String> = map.keys().filter(|k| unknown(entry, k)).cloned().collect();
    for key in unknown {
        let from = map.shift_remove(&key).unwrap_or(Value::Null);
        out.push(dropped(entry, at, &key, from, op));
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

/// Whether `entry` has no prop `key` and takes no other props than its own.
fn unknown(entry: &Entry, key: &str) -> bool {
    let schema = &entry.props;
    let open = matches!(
        schema.get("additionalProperties"),
        Some(Value::Bool(true)) | Some(Value::Object(_))
    );
    let properties = schema.get("properties").and_then(Value::as_object);
    !open && properties.is_some_and(|known| !known.contains_key(key))
}

/// `drop_prop`: prop `key` (`from`) of the props at `at` left out.
fn dropped(entry: &Entry, at: &str, key: &str, from: Value, op: usize) -> Repair {
    let mut path = at.to_string();
    pointer::push(&mut path, key);
    let message = [
        "\"",
        &entry.name,
        "\" has no prop \"",
        key,
        "\"; dropped it",
    ]
    .concat();
    Repair {
        code: "drop_prop",
        op,
        path,
        from,
        to: Value::Null,
        message,
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
    // Through a chain of `$ref`s, as the validator follows them.
    let schema = crate::schema::resolved(root, schema).unwrap_or(schema);
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
    // (Ties go to the first in byte order: nearest's own rule.)
    if let Some(near) = nearest(text, candidates) {
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

/// Repairs one operation of a patch (the `index`th) against `doc`:
/// `rewrite_path` for its pointers, then the value an `add` or `replace`
/// writes, by what it is (a surface, a component, a name, props). Gives
/// the repaired operation and what was repaired.
pub fn operation(doc: &Value, op: &Value, index: usize, catalog: &Catalog) -> (Value, Vec<Repair>) {
    let mut op = op.clone();
    let mut repairs = Vec::new();
    for key in ["path", "from"] {
        let Some(path) = op.get(key).and_then(Value::as_str) else {
            continue;
        };
        if let Some(rewritten) = rewrite_path(doc, path) {
            repairs.push(Repair {
                code: "rewrite_path",
                op: index,
                path: rewritten.clone(),
                from: path.into(),
                to: rewritten.as_str().into(),
                message: [
                    "addressed a component by id; \"",
                    path,
                    "\" is \"",
                    &rewritten,
                    "\"",
                ]
                .concat(),
            });
            if let Some(map) = op.as_object_mut() {
                map.insert(key.into(), rewritten.into());
            }
        }
    }
    let path = op
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let writes = matches!(
        op.get("op").and_then(Value::as_str),
        Some("add" | "replace")
    );
    if writes {
        if let Some(value) = op.get_mut("value") {
            if let Some(none) = repair_value(doc, &path, value, catalog, index, &mut repairs) {
                op = none;
            }
        }
    }
    (op, repairs)
}

/// `/sections/<i>/components/<id>/...` (or `/components/<id>/...`) with an
/// id instead of an index: the path with the component's position.
fn rewrite_path(doc: &Value, path: &str) -> Option<String> {
    let segments = pointer::parse(path).ok()?;
    let at = segments.iter().position(|s| s == "components")?;
    let id = segments.get(at + 1)?;
    if id == "-" || array_index(id).is_some() {
        return None;
    }
    let prefix = &segments[..at];
    let surface_ok = prefix.is_empty()
        || (prefix.len() == 2 && prefix[0] == "sections" && array_index(&prefix[1]).is_some());
    if !surface_ok {
        return None;
    }
    let components = get(doc, &segments[..=at])?.as_array()?;
    let position = components
        .iter()
        .position(|c| c.get("id").and_then(Value::as_str) == Some(id.as_ref()))?;
    let mut out = String::new();
    for (i, seg) in segments.iter().enumerate() {
        if i == at + 1 {
            pointer::push_index(&mut out, position);
        } else {
            pointer::push(&mut out, seg);
        }
    }
    Some(out)
}

/// Repairs the value an `add`/`replace` writes at `path`, by what it is.
/// When nothing is left to write (one prop the component does not have),
/// gives the operation that replaces it: a `test` that the component is as
/// it is, which changes nothing.
fn repair_value(
    doc: &Value,
    path: &str,
    value: &mut Value,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) -> Option<Value> {
    let Ok(segments) = pointer::parse(path) else {
        return None;
    };
    let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
    let Some(at) = segs.iter().position(|s| *s == "components") else {
        // A whole surface (a section, or the document).
        match segs.as_slice() {
            [] => repair_surface(value, "", catalog, op, out),
            ["sections", i] => {
                let count = doc
                    .get("sections")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let index = if *i == "-" {
                    Some(count)
                } else {
                    array_index(i)
                };
                if let Some(index) = index {
                    repair_surface(value, &section_path(index), catalog, op, out);
                }
            }
            _ => {}
        }
        return None;
    };
    let list = get(doc, &segments[..=at]).and_then(Value::as_array);
    let base = segs[..=at].iter().fold(String::new(), |mut acc, s| {
        pointer::push(&mut acc, s);
        acc
    });
    match &segs[at + 1..] {
        [] => {
            if let Value::Array(items) = value {
                for (i, item) in items.iter_mut().enumerate() {
                    let mut here = base.clone();
                    pointer::push_index(&mut here, i);
                    component(item, &here, catalog, op, out);
                }
            }
        }
        [i] => {
            let index = if *i == "-" {
                list.map_or(0, Vec::len)
            } else {
                array_index(i).unwrap_or(0)
            };
            let mut here = base;
            pointer::push_index(&mut here, index);
            component(value, &here, catalog, op, out);
        }
        [i, rest @ ..] => {
            let component = array_index(i).and_then(|i| list.and_then(|l| l.get(i)))?;
            let mut here = base;
            pointer::push(&mut here, i);
            match rest {
                ["component"] => component_name(
                    value,
                    &[here.as_str(), "/component"].concat(),
                    catalog,
                    op,
                    out,
                ),
                ["props"] | ["props", _] => {
                    let entry = component
                        .get("component")
                        .and_then(Value::as_str)
                        .and_then(|n| catalog.entry(n))?;
                    here.push_str("/props");
                    match rest {
                        ["props", name] if unknown(entry, name) => {
                            out.push(dropped(entry, &here, name, value.clone(), op));
                            here.truncate(here.len() - "/props".len());
                            let path = ("path", here.into());
                            let test = [("op", "test".into()), path, ("value", component.clone())];
                            return Some(crate::object(test));
                        }
                        ["props", name] => {
                            let properties = entry.props.get("properties");
                            let schema = properties.and_then(|p| p.get(*name))?;
                            pointer::push(&mut here, name);
                            prop(value, schema, &entry.props, &here, catalog, op, out);
                        }
                        _ => props(value, entry, &here, catalog, op, out),
                    }
                }
                _ => {}
            }
        }
    }
    None
}

fn repair_surface(
    value: &mut Value,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Some(items) = value.get_mut("components").and_then(Value::as_array_mut) else {
        return;
    };
    for (i, item) in items.iter_mut().enumerate() {
        let here = [at, "/components/", &i.to_string()].concat();
        component(item, &here, catalog, op, out);
    }
}
