//! json-render specs (`{root, elements, state?}`) to and from surfaces.
//!
//! An element becomes a component of its `type` with its key as id (the
//! root's key is `root`; keys made to match our id rule), its `children`
//! kept. Props: `{"$state": p}` and `{"$bindState": p}` become `{"path": p}`
//! bindings, `{"$template": "..."}` with plain `${/path}` interpolation
//! `concat` (as A2UI's `formatString`); `$cond`, `$computed`, `$item` and
//! `$index` are left out. `visible` maps by SPEC.md section 4 (`neq` is
//! `ne`, `gte` is `not lt`, `lte` is `not gt`, a list or `$and` is `and`,
//! `$or` is `or`, `not: true` is `not`). `on.press` becomes `onClick`:
//! `setState` is `set`, an action named as one of ours keeps its params as
//! fields. `state` becomes `data`. Back, each rule the other way (`not lt`
//! is `gte`, `not gt` `lte`); bindings of input values are `$bindState`.

mod stream;
pub use stream::JsonRenderImport;

use crate::a2ui::values::{self, Scope};
use crate::ids::Ids;
use crate::note::{at, at_index, surface_exported, unsafe_key, unsafe_link, Note};
use serde_json::{json, Map, Value};
use surfaces_core::sorted;

/// What [`from_json_render`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct FromJsonRender {
    pub surface: Value,
    pub notes: Vec<Note>,
}

/// What [`to_json_render`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct ToJsonRender {
    pub spec: Value,
    pub notes: Vec<Note>,
}

/// The props two-way bound (`$bindState`) in json-render.
const INPUTS: [&str; 4] = ["value", "checked", "open", "selected"];

/// A json-render spec as a surface (id `surface`).
///
/// ```
/// use serde_json::json;
/// let spec = json!({"root": "main", "elements": {
///     "main": {"type": "Stack", "props": {}, "children": ["hi"]},
///     "hi": {"type": "Text", "props": {"text": {"$state": "/greeting"}},
///            "visible": {"$state": "/count", "gte": 2}}},
///   "state": {"greeting": "Hello", "count": 3}});
/// let out = interop::json_render::from_json_render(&spec);
/// assert_eq!(out.surface["components"][1], json!({"id": "hi", "component": "Text",
///     "props": {"text": {"path": "/greeting"}},
///     "visible": {"not": {"lt": [{"path": "/count"}, 2]}}}));
/// assert_eq!(out.surface["data"], json!({"greeting": "Hello", "count": 3}));
/// let back = interop::json_render::to_json_render(&out.surface);
/// assert_eq!(back.spec["elements"]["hi"]["visible"], json!({"$state": "/count", "gte": 2}));
/// ```
pub fn from_json_render(spec: &Value) -> FromJsonRender {
    let mut notes = Vec::new();
    let root = spec.get("root").and_then(Value::as_str);
    let elements = spec.get("elements").and_then(Value::as_object);
    let (Some(root), Some(elements)) = (root, elements) else {
        notes.push(Note::new(
            "not_json_render",
            "",
            "a json-render spec is an object {\"root\": key, \"elements\": {key: element}, \"state\"?: {...}}",
        ));
        let surface = json!({"id": "surface", "kind": "surface", "catalog": "blog@1", "components": [], "data": {}});
        return FromJsonRender { surface, notes };
    };
    let mut ids = Ids::default();
    ids.assign(root, "root");
    for key in elements.keys() {
        ids.original(key);
    }
    let mut components = Vec::new();
    let mut keys = Vec::new();
    // The root first, then the rest in the spec's order.
    let order = elements
        .keys()
        .filter(|k| *k == root)
        .chain(elements.keys().filter(|k| *k != root));
    for key in order {
        keys.push(key);
        let element = &elements[key];
        let at_element = at(&at("", "elements"), key);
        let id = ids.original(key);
        if id != *key {
            notes.push(Note::new(
                "renamed_id",
                at_element.clone(),
                ["element ", key, " is component ", &id, " here"].concat(),
            ));
        }
        components.push(element_in(
            element,
            &id,
            elements,
            &mut ids,
            &at_element,
            &mut notes,
        ));
    }
    // What root does not reach is left out, noted, as an A2UI import leaves
    // it: so a SpecStream's element added before the one naming it waits in
    // the import, not in a Draft, which would hold it as unreachable. (The
    // walk is by key, through the spec's `children`, as the components'
    // children name the elements' components.)
    let mut reached = sorted::Names::default();
    let mut next = vec![root.to_string()];
    while let Some(key) = next.pop() {
        let Some(element) = elements.get(&key) else {
            continue;
        };
        if reached.insert(key) {
            let children = element.get("children").and_then(Value::as_array);
            let children = children.into_iter().flatten().filter_map(Value::as_str);
            next.extend(children.map(String::from));
        }
    }
    let mut kept = Vec::new();
    for (component, key) in components.into_iter().zip(keys) {
        if reached.contains(key) {
            kept.push(component);
        } else {
            let message = ["element ", key, " is not reachable from root; left out"].concat();
            notes.push(Note::new(
                "not_reachable",
                at(&at("", "elements"), key),
                message,
            ));
        }
    }
    let components = kept;
    let mut data = Value::Object(Map::new());
    match spec.get("state") {
        Some(state @ Value::Object(_)) => match unsafe_key(state, "/state") {
            Some(key) => notes.push(Note::new(
                "unsafe_path",
                key,
                "a state key may not be __proto__, constructor or prototype; the state is left out",
            )),
            None => data = state.clone(),
        },
        Some(_) => notes.push(Note::new(
            "prop_dropped",
            "/state",
            "state is an object; left out",
        )),
        None => {}
    }
    let surface = json!({"id": "surface", "kind": "surface", "catalog": "blog@1", "components": components, "data": data});
    FromJsonRender { surface, notes }
}

fn element_in(
    element: &Value,
    id: &str,
    elements: &Map<String, Value>,
    ids: &mut Ids,
    at_element: &str,
    notes: &mut Vec<Note>,
) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(id));
    let name = element
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    out.insert("component".into(), json!(name));
    let mut props = Map::new();
    let at_props = at(at_element, "props");
    for (key, value) in element
        .get("props")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let at_value = at(&at_props, key);
        if value.is_null() || unsafe_link(key, value, &at_value, notes) {
            continue;
        }
        if let Some(v) = prop_in(value, &at_value, notes) {
            props.insert(key.clone(), v);
        }
    }
    if let Some(on) = element.get("on").and_then(Value::as_object) {
        for (event, handler) in on {
            let at_event = at(&at(at_element, "on"), event);
            if event != "press" {
                notes.push(Note::new(
                    "event_dropped",
                    at_event,
                    ["event ", event, " has no equivalent here; left out"].concat(),
                ));
                continue;
            }
            let list: Vec<&Value> = match handler {
                Value::Array(items) => items.iter().collect(),
                one => vec![one],
            };
            let actions: Vec<Value> = list
                .iter()
                .enumerate()
                .filter_map(|(i, a)| {
                    let at_action = if handler.is_array() {
                        at_index(&at_event, i)
                    } else {
                        at_event.clone()
                    };
                    action_in(a, &at_action, notes)
                })
                .collect();
            match actions.len() {
                0 => {}
                1 => {
                    props.insert("onClick".into(), actions[0].clone());
                }
                _ => {
                    props.insert("onClick".into(), Value::Array(actions));
                }
            }
        }
    }
    for key in ["repeat", "watch"] {
        if element.get(key).is_some() {
            notes.push(Note::new(
                "prop_dropped",
                at(at_element, key),
                [key, " has no equivalent here; left out"].concat(),
            ));
        }
    }
    crate::required_as_null(name, &mut props);
    if !props.is_empty() {
        out.insert("props".into(), Value::Object(props));
    }
    let children = element.get("children").and_then(Value::as_array);
    if let Some(children) = children.filter(|c| !c.is_empty()) {
        let mut kept = Vec::new();
        for (i, child) in children.iter().enumerate() {
            match child.as_str() {
                Some(key) if elements.contains_key(key) => kept.push(json!(ids.original(key))),
                _ => notes.push(Note::new(
                    "missing_child",
                    at_index(&at(at_element, "children"), i),
                    "a child names no element of the spec; left out",
                )),
            }
        }
        out.insert("children".into(), Value::Array(kept));
    }
    if let Some(visible) = element.get("visible") {
        match condition_in(visible, &at(at_element, "visible"), notes) {
            Some(condition) => {
                out.insert("visible".into(), condition);
            }
            None => notes.push(Note::new(
                "prop_dropped",
                at(at_element, "visible"),
                "the visibility condition has no equivalent here; the component is always shown",
            )),
        }
    }
    Value::Object(out)
}

/// A prop value: `$state`/`$bindState` as bindings, `$template` as
/// `concat`, other expressions left out; nested objects and lists read
/// through.
fn prop_in(value: &Value, at_value: &str, notes: &mut Vec<Note>) -> Option<Value> {
    match value {
        Value::Object(map) => {
            for key in ["$state", "$bindState"] {
                if let Some(Value::String(path)) = map.get(key) {
                    return values::binding(path, &at(at_value, key), &Scope::default(), notes);
                }
            }
            if let Some(Value::String(template)) = map.get("$template") {
                return values::interpolate(
                    template,
                    &at(at_value, "$template"),
                    &Scope::default(),
                    notes,
                );
            }
            if let Some(key) = map.keys().find(|k| k.starts_with('$')) {
                notes.push(Note::new(
                    "unsupported_function",
                    at(at_value, key),
                    [key, " has no equivalent here; the value is left out"].concat(),
                ));
                return None;
            }
            let items = map
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), prop_in(v, &at(at_value, k), notes)?)));
            Some(Value::Object(items.collect()))
        }
        Value::Array(items) => {
            let items = items.iter().enumerate();
            Some(
                items
                    .filter_map(|(i, v)| prop_in(v, &at_index(at_value, i), notes))
                    .collect(),
            )
        }
        other => Some(other.clone()),
    }
}

fn action_in(action: &Value, at_action: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let name = action
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let empty = Map::new();
    let params = action
        .get("params")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let at_params = at(at_action, "params");
    let mut out = Map::new();
    if name == "setState" {
        out.insert("action".into(), json!("set"));
        out.extend(
            params
                .get("statePath")
                .map(|p| ("path".to_string(), p.clone())),
        );
        let value = params.get("value").cloned().unwrap_or(Value::Null);
        out.insert(
            "value".into(),
            prop_in(&value, &at(&at_params, "value"), notes)?,
        );
    } else if crate::is_action(name) && name != "set" {
        out.insert("action".into(), json!(name));
        for (key, value) in params {
            let at_value = at(&at_params, key);
            if !unsafe_link(key, value, &at_value, notes) {
                out.insert(key.clone(), prop_in(value, &at_value, notes)?);
            }
        }
    } else {
        notes.push(Note::new(
            "event_dropped",
            at(at_action, "action"),
            ["action ", name, " has no equivalent here; left out"].concat(),
        ));
        return None;
    }
    // What an action binding holds beside its action and params (confirm,
    // onSuccess, onError, preventDefault), and a setState's params beside
    // its path and value: ours have none, so each is noted, never dropped
    // unsaid (a confirm left out runs the action without asking).
    let map = action.as_object().unwrap_or(&empty);
    for key in map
        .keys()
        .filter(|k| !matches!(k.as_str(), "action" | "params"))
    {
        let message = [
            key,
            " has no equivalent here; the action is kept without it",
        ]
        .concat();
        notes.push(Note::new("prop_dropped", at(at_action, key), message));
    }
    if name == "setState" {
        for key in params
            .keys()
            .filter(|k| !matches!(k.as_str(), "statePath" | "value"))
        {
            let message = [key, " is no param of setState here; left out"].concat();
            notes.push(Note::new("prop_dropped", at(&at_params, key), message));
        }
    }
    Some(Value::Object(out))
}

/// A comparison's operand: `{"$state": p}` as a binding, a literal as is.
fn operand_in(value: &Value) -> Value {
    match value.get("$state").and_then(Value::as_str) {
        Some(path) => json!({ "path": path }),
        None => value.clone(),
    }
}

fn condition_in(condition: &Value, at_condition: &str, notes: &mut Vec<Note>) -> Option<Value> {
    match condition {
        Value::Bool(_) => Some(condition.clone()),
        Value::Array(items) => {
            let parts: Option<Vec<Value>> = items
                .iter()
                .enumerate()
                .map(|(i, c)| condition_in(c, &at_index(at_condition, i), notes))
                .collect();
            let mut parts = parts?;
            Some(if parts.len() == 1 {
                parts.remove(0)
            } else {
                json!({ "and": parts })
            })
        }
        Value::Object(map) => {
            for (key, ours) in [("$and", "and"), ("$or", "or")] {
                if let Some(Value::Array(items)) = map.get(key) {
                    let at_list = at(at_condition, key);
                    let parts: Option<Vec<Value>> = items
                        .iter()
                        .enumerate()
                        .map(|(i, c)| condition_in(c, &at_index(&at_list, i), notes))
                        .collect();
                    return Some(json!({ ours: parts? }));
                }
            }
            let path = map.get("$state").and_then(Value::as_str)?;
            if let Err(e) = surfaces_core::pointer::check(path) {
                notes.push(Note::new(e.code(), at(at_condition, "$state"), e.message()));
                return None;
            }
            let left = json!({ "path": path });
            let compared = ["eq", "neq", "gt", "gte", "lt", "lte"]
                .iter()
                .find_map(|op| Some((*op, map.get(*op)?)));
            let base = match compared {
                None => left,
                Some(("eq", v)) => json!({"eq": [left, operand_in(v)]}),
                Some(("neq", v)) => json!({"ne": [left, operand_in(v)]}),
                Some(("gt", v)) => json!({"gt": [left, operand_in(v)]}),
                Some(("lt", v)) => json!({"lt": [left, operand_in(v)]}),
                Some(("gte", v)) => json!({"not": {"lt": [left, operand_in(v)]}}),
                Some((_, v)) => json!({"not": {"gt": [left, operand_in(v)]}}),
            };
            Some(match map.get("not") {
                Some(Value::Bool(true)) => negate(base),
                _ => base,
            })
        }
        _ => None,
    }
}

/// `not` of a condition, a double `not` removed.
fn negate(condition: Value) -> Value {
    match condition {
        Value::Object(mut map) if map.len() == 1 && map.contains_key("not") => {
            map.remove("not").unwrap_or_default()
        }
        other => json!({ "not": other }),
    }
}

/// A surface as a json-render spec (root `root`, elements in document
/// order).
pub fn to_json_render(surface: &Value) -> ToJsonRender {
    let mut notes = Vec::new();
    surface_exported(surface, &["id"], "json-render", &mut notes);
    let mut elements = Map::new();
    let data = surface.get("data").unwrap_or(&Value::Null);
    let list = surface.get("components").and_then(Value::as_array);
    for (i, component) in list.into_iter().flatten().enumerate() {
        let at_component = at_index("/components", i);
        let Some(id) = component.get("id").and_then(Value::as_str) else {
            continue;
        };
        let mut element = Map::new();
        element.insert(
            "type".into(),
            component.get("component").cloned().unwrap_or(json!("")),
        );
        let mut props = Map::new();
        let mut on = Map::new();
        let at_props = at(&at_component, "props");
        for (key, value) in component
            .get("props")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            // (A null prop is one an import had no value for: none.)
            if value.is_null() {
                continue;
            }
            let at_value = at(&at_props, key);
            if key == "onClick" {
                let handlers = action_out(value, &at_value, &mut notes);
                if !handlers.is_empty() {
                    let press = if handlers.len() == 1 {
                        handlers[0].clone()
                    } else {
                        Value::Array(handlers)
                    };
                    on.insert("press".into(), press);
                }
                continue;
            }
            if unsafe_link(key, value, &at_value, &mut notes) {
                continue;
            }
            let bind = INPUTS.contains(&key.as_str());
            if let Some(v) = prop_out(value, bind, &at_value, &mut notes) {
                props.insert(key.clone(), v);
            }
        }
        element.insert("props".into(), Value::Object(props));
        let children = component.get("children").cloned().unwrap_or(json!([]));
        element.insert("children".into(), children);
        if let Some(visible) = component.get("visible") {
            match condition_out(visible, data) {
                Some(v) => {
                    element.insert("visible".into(), v);
                }
                None => notes.push(Note::new(
                    "prop_dropped",
                    at(&at_component, "visible"),
                    "json-render compares a state path with a value, and orders numbers only; this condition is left out",
                )),
            }
        }
        if !on.is_empty() {
            element.insert("on".into(), Value::Object(on));
        }
        elements.insert(id.to_string(), Value::Object(element));
    }
    let mut spec = Map::new();
    spec.insert("root".into(), json!("root"));
    spec.insert("elements".into(), Value::Object(elements));
    if data.as_object().is_some_and(|m| !m.is_empty()) {
        spec.insert("state".into(), data.clone());
    }
    ToJsonRender {
        spec: Value::Object(spec),
        notes,
    }
}

fn prop_out(value: &Value, bind: bool, at_value: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let Value::Object(map) = value else {
        return match value {
            Value::Array(items) => {
                let items = items.iter().enumerate();
                Some(
                    items
                        .filter_map(|(i, v)| prop_out(v, false, &at_index(at_value, i), notes))
                        .collect(),
                )
            }
            other => Some(other.clone()),
        };
    };
    if let Some(Value::String(path)) = map.get("path").filter(|_| map.len() == 1) {
        let key = if bind { "$bindState" } else { "$state" };
        return Some(json!({ key: path }));
    }
    if map.contains_key("call") {
        // concat of text and paths is a $template, as formatString is.
        let exported = values::export(value, at_value, notes)?;
        if exported["call"] == "formatString" {
            return Some(json!({"$template": exported["args"]["value"]}));
        }
        notes.push(Note::new(
            "unsupported_function",
            at(at_value, "call"),
            "json-render has no function calls but $template; the value is left out",
        ));
        return None;
    }
    let items = map
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), prop_out(v, false, &at(at_value, k), notes)?)));
    Some(Value::Object(items.collect()))
}

fn action_out(value: &Value, at_value: &str, notes: &mut Vec<Note>) -> Vec<Value> {
    let list: Vec<(String, &Value)> = match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, a)| (at_index(at_value, i), a))
            .collect(),
        one => vec![(at_value.to_string(), one)],
    };
    let mut out = Vec::new();
    for (at_action, action) in list {
        let Some(map) = action.as_object() else {
            continue;
        };
        let name = map
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut params = Map::new();
        for (key, field) in map.iter().filter(|(k, _)| *k != "action") {
            let at_field = at(&at_action, key);
            if unsafe_link(key, field, &at_field, notes) {
                continue;
            }
            if let Some(v) = prop_out(field, false, &at_field, notes) {
                params.insert(key.clone(), v);
            }
        }
        if name == "set" {
            let path = params.remove("path").unwrap_or_default();
            let value = params.remove("value").unwrap_or_default();
            out.push(json!({"action": "setState", "params": {"statePath": path, "value": value}}));
        } else {
            out.push(json!({"action": name, "params": params}));
        }
    }
    out
}

/// Our condition as json-render's; `None` where it compares no path.
/// A condition in json-render's terms, `None` where it has none. `data`
/// (the surface's) tells whether a path compared in order holds a text.
fn condition_out(condition: &Value, data: &Value) -> Option<Value> {
    let Value::Object(map) = condition else {
        return condition.is_boolean().then(|| condition.clone());
    };
    let (op, operands) = map.iter().next()?;
    let operand_out = |v: &Value| match v.get("path").and_then(Value::as_str) {
        Some(p) => json!({ "$state": p }),
        None => v.clone(),
    };
    match (op.as_str(), operands) {
        ("path", Value::String(p)) => Some(json!({ "$state": p })),
        ("and" | "or", Value::Array(items)) => {
            let parts: Option<Vec<Value>> = items.iter().map(|c| condition_out(c, data)).collect();
            Some(json!({ ["$", op].concat(): parts? }))
        }
        ("not", inner) => {
            // json-render negates a single comparison: not lt is gte, not
            // gt is lte, else `not: true` (twice is none).
            let mut map = condition_out(inner, data)?.as_object()?.clone();
            map.get("$state")?;
            if let Some(v) = map.remove("lt") {
                map.insert("gte".into(), v);
            } else if let Some(v) = map.remove("gt") {
                map.insert("lte".into(), v);
            } else if map.remove("not").is_none() {
                map.insert("not".into(), json!(true));
            }
            Some(Value::Object(map))
        }
        ("eq" | "ne" | "gt" | "lt", Value::Array(pair)) if pair.len() == 2 => {
            let (left, right, swapped) = match (pair[0].get("path"), pair[1].get("path")) {
                (Some(_), _) => (&pair[0], &pair[1], false),
                (None, Some(_)) => (&pair[1], &pair[0], true),
                _ => return None,
            };
            let op = match (op.as_str(), swapped) {
                ("ne", _) => "neq",
                ("gt", true) => "lt",
                ("lt", true) => "gt",
                (op, _) => op,
            };
            let path = left.get("path").and_then(Value::as_str)?;
            // json-render orders numbers only: a text compared in order
            // (written, or what the data holds at a path) has no equivalent.
            let text = |v: &Value| match v.get("path").and_then(Value::as_str) {
                Some(p) => surfaces_core::pointer::resolve(&data, p).is_some_and(|v| v.is_string()),
                None => !v.is_number(),
            };
            if ["gt", "lt"].contains(&op) && (text(left) || text(right)) {
                return None;
            }
            Some(json!({"$state": path, op: operand_out(right)}))
        }
        _ => None,
    }
}
