//! Our surface as A2UI basic-catalog messages (SPEC.md section 14's
//! export rules), walked from `root`, a parent before its children.

use super::import::basic_catalog;
use super::values;
use super::{ToA2ui, Version, SELECTIONS};
use crate::note::{at, at_index, safe_href, surface_exported, unsafe_link, Note};
use serde_json::{json, Map, Value};
use surfaces_core::sorted;

pub fn messages(surface: &Value, version: Version) -> ToA2ui {
    let mut notes = Vec::new();
    surface_exported(surface, &["id"], "A2UI", &mut notes);
    let id = surface
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("surface");
    let list = surface.get("components").and_then(Value::as_array);
    let list = list.map(Vec::as_slice).unwrap_or_default();
    let mut by_id = sorted::Index::new();
    for (i, component) in list.iter().enumerate() {
        if let Some(id) = component.get("id").and_then(Value::as_str) {
            by_id.entry(id.to_string()).or_insert(i);
        }
    }
    let mut walk = Walk {
        list,
        taken: by_id.keys().cloned().collect(),
        by_id,
        out: Vec::new(),
        seen: sorted::Names::default(),
        version,
        notes: &mut notes,
    };
    walk.component("root", 1);
    for (i, component) in list.iter().enumerate() {
        let id = component
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !walk.seen.contains(id) {
            walk.notes.push(Note::new(
                "not_reachable",
                at_index("/components", i),
                ["component ", id, " is not reachable from root; left out"].concat(),
            ));
        }
    }
    let components = walk.out;
    let v = version.as_str();
    let mut messages = vec![
        json!({"version": v, "createSurface": {"surfaceId": id, "catalogId": basic_catalog(version)}}),
        json!({"version": v, "updateComponents": {"surfaceId": id, "components": components}}),
    ];
    let data = surface
        .get("data")
        .filter(|d| d.as_object().is_some_and(|m| !m.is_empty()));
    if let Some(data) = data {
        messages.push(
            json!({"version": v, "updateDataModel": {"surfaceId": id, "path": "/", "value": data}}),
        );
    }
    ToA2ui { messages, notes }
}

struct Walk<'a, 'n> {
    list: &'a [Value],
    by_id: sorted::Index,
    /// Ids in use: ours and those made for labels and wrappers.
    taken: sorted::Names,
    out: Vec<Value>,
    seen: sorted::Names,
    version: Version,
    notes: &'n mut Vec<Note>,
}

/// One of our components being written: its props, each taken at most
/// once (what is left is noted as dropped).
struct Props<'a> {
    map: Option<&'a Map<String, Value>>,
    at: String,
    taken: Vec<&'a str>,
}

impl<'a> Props<'a> {
    /// Prop `key`, taken (a null is none: a prop an import had no value for).
    fn take(&mut self, key: &'a str) -> Option<&'a Value> {
        self.taken.push(key);
        self.map?.get(key).filter(|v| !v.is_null())
    }

    fn str(&mut self, key: &'a str) -> Option<&'a str> {
        self.take(key).and_then(Value::as_str)
    }

    fn leftover(&self, notes: &mut Vec<Note>) {
        for key in self.map.into_iter().flat_map(Map::keys) {
            if !self.taken.contains(&key.as_str()) {
                notes.push(Note::new(
                    "prop_dropped",
                    at(&self.at, key),
                    [
                        "property ",
                        key,
                        " has no equivalent in A2UI's basic catalog; left out",
                    ]
                    .concat(),
                ));
            }
        }
    }
}

impl Walk<'_, '_> {
    /// An id not yet used, from `base`.
    fn fresh(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        let mut n = 2usize;
        while self.taken.contains(&id) {
            id = [base, "-", &n.to_string()].concat();
            n += 1;
        }
        self.taken.insert(id.clone());
        id
    }

    fn push(&mut self, component: Map<String, Value>) {
        self.out.push(Value::Object(component));
    }

    /// A Text component of its own (a label, a flattened prop).
    fn text(&mut self, id: String, text: Value, variant: Option<&str>) -> String {
        let mut map = Map::new();
        map.insert("id".into(), json!(id));
        map.insert("component".into(), json!("Text"));
        map.insert("text".into(), text);
        if let Some(variant) = variant {
            map.insert("variant".into(), json!(variant));
        }
        self.push(map);
        id
    }

    /// Writes our component `id` (and what it flattens to); its A2UI id, or
    /// `None` when it is left out.
    fn component(&mut self, id: &str, depth: usize) -> Option<String> {
        let index = *self.by_id.get(id)?;
        if !self.seen.insert(id.to_string()) {
            return None;
        }
        if depth > 64 {
            // Left out with what it holds, said once here (the components
            // below it are reachable, only too deep with it).
            let message = "nested past 64 levels; left out with the components it holds";
            self.notes.push(Note::new(
                "too_deep",
                at_index("/components", index),
                message,
            ));
            let mut pending = vec![index];
            while let Some(i) = pending.pop() {
                let children = self.list[i].get("children").and_then(Value::as_array);
                for child in children.into_iter().flatten().filter_map(Value::as_str) {
                    match self.by_id.get(child) {
                        Some(&j) if self.seen.insert(child.to_string()) => pending.push(j),
                        _ => {}
                    }
                }
            }
            return None;
        }
        let component = &self.list[index];
        let at_component = at_index("/components", index);
        let name = component
            .get("component")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut props = Props {
            map: component.get("props").and_then(Value::as_object),
            at: at(&at_component, "props"),
            taken: Vec::new(),
        };
        if component.get("visible").is_some() {
            self.notes.push(Note::new(
                "prop_dropped",
                at(&at_component, "visible"),
                "A2UI has no visibility condition; the component is always shown",
            ));
        }
        let children: Vec<&str> = component
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let at_children = at(&at_component, "children");
        let mut out = Map::new();
        out.insert("id".into(), json!(id));
        let slot = self.out.len();
        self.out.push(Value::Null);
        let theirs = match name {
            "Stack" | "Band" | "Accordion" | "Carousel" | "Form" | "TabPanel" => {
                if name == "Stack" {
                    out.extend(props.str("align").map(|a| ("align".to_string(), json!(a))));
                }
                let ids = self.children(&children, &at_children, depth);
                out.insert("children".into(), json!(ids));
                "Column"
            }
            "Row" | "Grid" | "Columns" => {
                if name == "Row" {
                    out.extend(props.str("align").map(|a| ("align".to_string(), json!(a))));
                    let justify =
                        props
                            .str("justify")
                            .map(|j| if j == "between" { "spaceBetween" } else { j });
                    out.extend(justify.map(|j| ("justify".to_string(), json!(j))));
                }
                let ids = self.children(&children, &at_children, depth);
                out.insert("children".into(), json!(ids));
                "Row"
            }
            "Card" => {
                let ids = self.children(&children, &at_children, depth);
                let child = match ids.as_slice() {
                    [one] => one.clone(),
                    _ => {
                        let body = self.fresh(&[id, "-body"].concat());
                        self.push(json_map(
                            json!({"id": body, "component": "Column", "children": ids}),
                        ));
                        body
                    }
                };
                out.insert("child".into(), json!(child));
                "Card"
            }
            "Heading" | "Text" | "Markdown" | "Badge" => {
                let key = if name == "Markdown" { "source" } else { "text" };
                let text = props
                    .take(key)
                    .and_then(|t| values::export(t, &at(&props.at, key), self.notes));
                let level = props.take("level").and_then(Value::as_u64);
                let tone = if name == "Text" {
                    props.str("tone")
                } else {
                    None
                };
                let text = text.map(|t| match name {
                    "Heading" => self.heading(t, level.unwrap_or(2), &props.at, &mut out),
                    "Markdown" => t,
                    _ => unmarked(t),
                });
                // A2UI's Text has a text: one left out is empty.
                out.insert("text".into(), text.unwrap_or_else(|| json!("")));
                if name == "Badge" || tone == Some("small") {
                    out.insert("variant".into(), json!("caption"));
                } else if tone == Some("muted") {
                    self.notes.push(Note::new(
                        "prop_dropped",
                        at(&props.at, "tone"),
                        "a muted tone is plain text in A2UI",
                    ));
                }
                // (A Badge's tone, info to danger, has no equivalent in a
                // caption: noted with what is left.)
                "Text"
            }
            "Button" | "Link" => {
                let key = if name == "Link" { "text" } else { "label" };
                let label = props
                    .take(key)
                    .and_then(|t| values::export(t, &at(&props.at, key), self.notes));
                let variant = match (name, props.str("variant")) {
                    ("Link", _) | (_, Some("ghost")) => "borderless",
                    (_, Some("secondary")) => "default",
                    _ => "primary",
                };
                let label_id = self.fresh(&[id, "-label"].concat());
                let label = label.unwrap_or_else(|| json!(""));
                let label_id = self.text(label_id, label, None);
                out.insert("child".into(), json!(label_id));
                out.insert("variant".into(), json!(variant));
                let at_href = at(&props.at, "href");
                let href = props
                    .str("href")
                    .filter(|h| safe_href(h, at_href, self.notes));
                let action = props.take("onClick");
                let at_click = at(&props.at, "onClick");
                // A2UI's Button has an action: one without ours sends the
                // event `click`.
                let action = self.action(action, href, &at_click);
                let action = action.unwrap_or_else(|| json!({"event": {"name": "click"}}));
                out.insert("action".into(), action);
                "Button"
            }
            "Stat" | "Quote" | "List" | "Disclosure" | "AccordionItem" => {
                let ids = self.flatten(name, id, &mut props, &children, &at_children, depth);
                out.insert("children".into(), json!(ids));
                "Column"
            }
            "Tabs" => {
                let mut tabs = Vec::new();
                for (i, child) in children.iter().enumerate() {
                    let at_child = at_index(&at_children, i);
                    let panel = self.by_id.get(*child).map(|&n| &self.list[n]);
                    let label = panel.and_then(|p| p.pointer("/props/label")).cloned();
                    match (
                        panel
                            .and_then(|p| p.get("component"))
                            .and_then(Value::as_str),
                        label,
                    ) {
                        (Some("TabPanel"), Some(label)) => {
                            if let Some(child) = self.component(child, depth + 1) {
                                tabs.push(json!({"title": label, "child": child}));
                            }
                        }
                        _ => self.notes.push(Note::new(
                            "no_equivalent",
                            at_child,
                            "a tab is a TabPanel with a label; left out",
                        )),
                    }
                }
                out.insert("tabs".into(), Value::Array(tabs));
                "Tabs"
            }
            "Toggle" | "Select" => {
                let options: Vec<Value> = props
                    .take("options")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|o| json!({"label": o, "value": o}))
                    .collect();
                out.extend(
                    props
                        .take("label")
                        .map(|l| ("label".to_string(), l.clone())),
                );
                out.insert("variant".into(), json!("mutuallyExclusive"));
                out.insert("options".into(), Value::Array(options));
                let value = match props.take("value") {
                    Some(Value::String(v)) => Some(json!([v])),
                    Some(v) => {
                        let at_value = at(&props.at, "value");
                        let bound = values::export(v, &at_value, self.notes);
                        if bound.is_some() {
                            self.notes
                                .push(Note::new("value_shape", at_value, SELECTIONS));
                        }
                        bound
                    }
                    None => None,
                };
                out.extend(value.map(|v| ("value".to_string(), v)));
                "ChoicePicker"
            }
            "Slider" => {
                out.extend(
                    props
                        .take("label")
                        .map(|l| ("label".to_string(), l.clone())),
                );
                let min = props.take("min").and_then(Value::as_f64);
                let max = props.take("max").and_then(Value::as_f64);
                out.extend(min.map(|m| ("min".to_string(), json!(m))));
                out.extend(max.map(|m| ("max".to_string(), json!(m))));
                let step = props.take("step").and_then(Value::as_f64);
                if let (Some(step), Some(min), Some(max)) = (step, min, max) {
                    let steps = (max - min) / step;
                    if self.version == Version::V10 && steps >= 1.0 && steps.fract() == 0.0 {
                        out.insert("steps".into(), json!(steps as u64));
                    } else {
                        self.notes.push(Note::new(
                            "prop_dropped",
                            at(&props.at, "step"),
                            "the step is not a whole division of the range here",
                        ));
                    }
                }
                let value = props
                    .take("value")
                    .and_then(|v| values::export(v, &at(&props.at, "value"), self.notes));
                out.extend(value.map(|v| ("value".to_string(), v)));
                "Slider"
            }
            "TextField" | "TextArea" | "Checkbox" => {
                out.extend(
                    props
                        .take("label")
                        .map(|l| ("label".to_string(), l.clone())),
                );
                let key = if name == "Checkbox" {
                    "checked"
                } else {
                    "value"
                };
                let value = props
                    .take(key)
                    .and_then(|v| values::export(v, &at(&props.at, key), self.notes));
                out.extend(value.map(|v| ("value".to_string(), v)));
                if name == "TextArea" {
                    // (Its rows have no equivalent: noted with what is left.)
                    out.insert("variant".into(), json!("longText"));
                } else if name == "TextField"
                    && props.map.and_then(|m| m.get("type")) == Some(&json!("number"))
                {
                    props.take("type");
                    out.insert("variant".into(), json!("number"));
                }
                if name == "TextField" && self.version == Version::V10 {
                    out.extend(
                        props
                            .take("placeholder")
                            .map(|p| ("placeholder".to_string(), p.clone())),
                    );
                }
                if let Some(checks) = props.take("checks").and_then(Value::as_array) {
                    let at_checks = at(&props.at, "checks");
                    let checks: Vec<Value> = checks
                        .iter()
                        .enumerate()
                        .filter_map(|(i, check)| {
                            let call =
                                json!({"call": check.get("call")?, "args": check.get("args")?});
                            let condition =
                                values::export(&call, &at_index(&at_checks, i), self.notes)?;
                            Some(json!({"condition": condition, "message": check.get("message")?}))
                        })
                        .collect();
                    if !checks.is_empty() {
                        out.insert("checks".into(), Value::Array(checks));
                    }
                }
                if name == "Checkbox" {
                    "CheckBox"
                } else {
                    "TextField"
                }
            }
            "Divider" => "Divider",
            _ => {
                self.notes.push(Note::new(
                    "no_equivalent",
                    at_component,
                    [
                        "component ",
                        name,
                        " has no equivalent in A2UI's basic catalog; left out",
                    ]
                    .concat(),
                ));
                self.out.remove(slot);
                return None;
            }
        };
        props.leftover(self.notes);
        let mut written = Map::new();
        written.insert("id".into(), json!(id));
        written.insert("component".into(), json!(theirs));
        out.remove("id");
        written.extend(out);
        self.out[slot] = Value::Object(written);
        Some(id.to_string())
    }

    fn children(&mut self, children: &[&str], at_children: &str, depth: usize) -> Vec<String> {
        let mut ids = Vec::new();
        for (i, child) in children.iter().enumerate() {
            if !self.by_id.contains_key(*child) {
                self.notes.push(Note::new(
                    "missing_child",
                    at_index(at_children, i),
                    ["component ", child, " is not in the surface; left out"].concat(),
                ));
            }
            ids.extend(self.component(child, depth + 1));
        }
        ids
    }

    /// A heading's text: v0.9's variant, or (v1.0, which has none) the
    /// markdown heading marker before it.
    fn heading(
        &mut self,
        mut text: Value,
        level: u64,
        at_props: &str,
        out: &mut Map<String, Value>,
    ) -> Value {
        let level = level.clamp(1, 6) as usize;
        if self.version == Version::V09 {
            out.insert(
                "variant".into(),
                json!(["h", &level.min(5).to_string()].concat()),
            );
            if level == 6 {
                let message = "A2UI v0.9's heading variants stop at h5: level 6 is exported as h5";
                self.notes
                    .push(Note::new("prop_dropped", at(at_props, "level"), message));
            }
            return text;
        }
        let marker = ["#".repeat(level).as_str(), " "].concat();
        // (A plain string is never interpolated: its ${ is text as it is.)
        if let Some(s) = super::leading_text(&mut text) {
            s.insert_str(0, &marker);
            return text;
        }
        match text {
            Value::Object(map) if map.contains_key("path") => {
                let path = map["path"].as_str().unwrap_or_default();
                let value = [marker.as_str(), "${", path, "}"].concat();
                json!({"call": "formatString", "args": {"value": value}})
            }
            // A call's text cannot begin with the marker: plain text, noted.
            other => {
                let message = "A2UI v1.0 marks a heading with # in its text, which a call's text cannot hold: exported as plain Text";
                self.notes
                    .push(Note::new("prop_dropped", at(at_props, "level"), message));
                other
            }
        }
    }

    /// Our action (or list: the first, the rest noted) and `href` as one
    /// A2UI action: an event named after the action, `openUrl` for
    /// `navigate` and `href`.
    fn action(
        &mut self,
        action: Option<&Value>,
        href: Option<&str>,
        at_click: &str,
    ) -> Option<Value> {
        let first = match action {
            Some(Value::Array(list)) => {
                for i in 1..list.len() {
                    self.notes.push(Note::new(
                        "prop_dropped",
                        at_index(at_click, i),
                        "an A2UI Button has one action; this one is left out",
                    ));
                }
                list.first()
            }
            other => other,
        };
        let open = |url: &Value| json!({"functionCall": {"call": "openUrl", "args": {"url": url}}});
        let Some(Value::Object(first)) = first else {
            return href.map(|h| open(&json!(h)));
        };
        if href.is_some() {
            self.notes.push(Note::new(
                "prop_dropped",
                at(
                    at_click.strip_suffix("/onClick").unwrap_or(at_click),
                    "href",
                ),
                "an A2UI Button has one action: its onClick is kept, its href left out",
            ));
        }
        let name = first
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if name == "navigate" {
            let href = first.get("href").and_then(Value::as_str);
            let href = href.filter(|h| safe_href(h, at(at_click, "href"), self.notes));
            return href.map(|h| open(&json!(h)));
        }
        if !crate::is_action(name) {
            return None;
        }
        let mut context = Map::new();
        for (key, value) in first.iter().filter(|(k, _)| *k != "action") {
            let at_value = at(at_click, key);
            if unsafe_link(key, value, &at_value, self.notes) {
                continue;
            }
            if let Some(value) = values::export(value, &at_value, self.notes) {
                context.insert(key.clone(), value);
            }
        }
        Some(json!({"event": {"name": name, "context": context}}))
    }

    /// Stat, Quote, List, Disclosure and AccordionItem as a Column of Text
    /// (a Disclosure's children after its summary).
    fn flatten(
        &mut self,
        name: &str,
        id: &str,
        props: &mut Props,
        children: &[&str],
        at_children: &str,
        depth: usize,
    ) -> Vec<String> {
        let mut ids = Vec::new();
        let parts: &[(&str, Option<&str>)] = match name {
            "Stat" => &[
                ("label", Some("caption")),
                ("value", None),
                ("caption", Some("caption")),
            ],
            "Quote" => &[("text", None), ("cite", Some("caption"))],
            "Disclosure" => &[("summary", None)],
            "AccordionItem" => &[("title", None)],
            _ => &[],
        };
        for (key, variant) in parts {
            let Some(value) = props.take(key) else {
                continue;
            };
            let value = match value {
                Value::Number(n) => Some(json!(n.to_string())),
                other => values::export(other, &at(&props.at, key), self.notes),
            };
            if let Some(value) = value {
                let part = self.fresh(&[id, "-", key].concat());
                ids.push(self.text(part, value, *variant));
            }
        }
        if name == "List" {
            let ordered = props.take("ordered") == Some(&json!(true));
            match props.take("items") {
                Some(Value::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        let text = item.as_str().unwrap_or_default();
                        let text = if ordered {
                            [&(i + 1).to_string(), ". ", text].concat()
                        } else {
                            ["- ", text].concat()
                        };
                        let part = self.fresh(&[id, "-", &i.to_string()].concat());
                        ids.push(self.text(part, json!(text), None));
                    }
                }
                Some(_) => self.notes.push(Note::new(
                    "prop_dropped",
                    at(&props.at, "items"),
                    "bound list items are left out",
                )),
                None => {}
            }
        }
        ids.extend(self.children(children, at_children, depth));
        ids
    }
}

fn json_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A Text's or Badge's text as A2UI's, whose Text reads markdown: a
/// heading marker it starts with (`# `, up to six) escaped, `\# `, so it
/// shows as the text it is, not as a heading (the import takes the
/// backslash back).
fn unmarked(mut text: Value) -> Value {
    let literal = super::leading_text(&mut text);
    if let Some(s) = literal.filter(|s| super::heading_marker(s).is_some()) {
        s.insert(0, '\\');
    }
    text
}
