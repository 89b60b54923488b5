//! A surface as A2UI built it, mapped to ours (SPEC.md section 14):
//! walked from `root`, each component converted once, in document order
//! (a parent before its children), template children expanded from the
//! data.

use super::messages::{self, Defined, SurfaceState};
use super::tree::{Frame, Item, Key, Node, Tree};
use super::values::{self, Scope};
use super::{Version, SELECTIONS};
use crate::note::{at, at_index, safe_href, unsafe_link, Note};
use serde_json::{json, Map, Value};
use surfaces_core::sorted;

/// The basic catalog's components: a name outside it, or a component of
/// another catalog, keeps its name and props.
const BASIC: [&str; 18] = [
    "Text",
    "Image",
    "Icon",
    "Video",
    "AudioPlayer",
    "Row",
    "Column",
    "List",
    "Card",
    "Tabs",
    "Modal",
    "Divider",
    "Button",
    "TextField",
    "CheckBox",
    "ChoicePicker",
    "Slider",
    "DateTimeInput",
];

/// Deeper than this, a component is left out (the validator allows 8).
pub(super) const MAX_DEPTH: usize = 64;

/// More components than this (templates expanded, nested templates
/// multiplying) are left out: the validator allows 200, so a surface that
/// large is refused anyway, and the output stays proportional to it.
pub const MAX_COMPONENTS: usize = 1000;

/// Whether a catalog id is A2UI's basic catalog (any version).
/// A surface without one is read as basic.
pub fn is_basic(catalog: &str) -> bool {
    catalog.is_empty() || catalog.contains("catalogs/basic") || catalog == "basic"
}

/// The `other_catalog` note of `catalog` (not the basic one) at `at`, whose
/// components (`kept`: which) keep their names and props.
pub fn other_catalog(catalog: &str, at: String, kept: &str) -> Note {
    let message = [
        "catalog ",
        catalog,
        " is not A2UI's basic one: ",
        kept,
        ", for blog@1 to check",
    ];
    Note::new("other_catalog", at, message.concat())
}

/// Our surface for `state`, its conversion's notes added to `notes`.
pub fn surface(state: &SurfaceState, notes: &mut Vec<Note>) -> Value {
    let tree = Tree::new(state);
    notes.extend(tree.notes(state));
    tree.surface(state)
}

/// The components under a template: its component and those it names
/// ([`messages::references`]), through any depth; reachable, though copied
/// once per item only (maybe never, while the data has no items).
pub(super) fn in_templates(state: &SurfaceState, templates: &[String]) -> sorted::Names {
    let mut found = sorted::Names::default();
    let mut pending: Vec<&str> = templates.iter().map(String::as_str).collect();
    while let Some(raw) = pending.pop() {
        let Some(defined) = state.components.get(raw) else {
            continue;
        };
        if found.insert(raw.to_string()) {
            pending.extend(messages::references(&defined.value));
        }
    }
    found
}

/// The conversion in progress: the tree it builds, and the component being
/// converted on top of `frames`.
pub(super) struct Walk<'a, 't> {
    pub state: &'a SurfaceState,
    pub tree: &'t mut Tree,
    /// The conversions in progress, the innermost last.
    pub frames: Vec<Frame>,
    /// Notes not yet moved into the innermost frame.
    notes: Vec<Note>,
    /// Children kept as they are when they are named again by the
    /// component converted (the unchanged children of a component
    /// converted again, the walk's first).
    pub kept: sorted::Set<Key>,
    /// The components converted, innermost first.
    made: Vec<Key>,
    /// Whether this walks the whole surface from root ([`Tree::new`]),
    /// so that where the count limit cuts it is recorded, not a reason
    /// to convert again whole.
    whole: bool,
}

/// What a walk gave above the components it converted.
pub(super) struct Walked {
    pub items: Vec<Item>,
    pub made: Vec<Key>,
}

/// A component's A2UI properties, each taken at most once; what is left
/// untaken is noted as dropped.
struct Props<'a> {
    map: &'a Map<String, Value>,
    at: &'a str,
    taken: Vec<&'a str>,
}

impl<'a> Props<'a> {
    fn take(&mut self, key: &'a str) -> Option<&'a Value> {
        self.taken.push(key);
        self.map.get(key)
    }

    fn str(&mut self, key: &'a str) -> Option<&'a str> {
        self.take(key).and_then(Value::as_str)
    }

    fn pointer(&self, key: &str) -> String {
        at(self.at, key)
    }

    fn leftover(&self, notes: &mut Vec<Note>) {
        for key in self.map.keys() {
            let silent = ["id", "component", "catalogId"].contains(&key.as_str());
            if !silent && !self.taken.contains(&key.as_str()) {
                notes.push(Note::new(
                    "prop_dropped",
                    at(self.at, key),
                    ["property ", key, " has no equivalent here; left out"].concat(),
                ));
            }
        }
    }
}

impl<'a, 't> Walk<'a, 't> {
    pub fn new(state: &'a SurfaceState, tree: &'t mut Tree) -> Walk<'a, 't> {
        Walk {
            state,
            tree,
            frames: vec![Frame::default()],
            notes: Vec::new(),
            kept: sorted::Set::default(),
            made: Vec::new(),
            whole: false,
        }
    }

    /// A walk of the whole surface, from root ([`Tree::new`]'s).
    pub fn whole(state: &'a SurfaceState, tree: &'t mut Tree) -> Walk<'a, 't> {
        Walk {
            whole: true,
            ..Walk::new(state, tree)
        }
    }

    /// The walk's items above what it converted, and what it converted.
    pub fn finish(mut self) -> Walked {
        self.frame();
        let top = self.frames.swap_remove(0);
        Walked {
            items: top.items,
            made: self.made,
        }
    }

    /// The innermost frame, the notes so far moved into it.
    fn frame(&mut self) -> &mut Frame {
        let frame = self.frames.last_mut().expect("a walk has a frame");
        frame
            .items
            .extend(core::mem::take(&mut self.notes).into_iter().map(Item::Note));
        frame
    }

    /// A definition the component being converted reads (besides its
    /// children's, which its [`Item::Child`] entries stand for), recorded
    /// even when it is missing: defining it changes the conversion.
    fn definition(&mut self, raw: &str) -> Option<&'a Defined> {
        self.frame().reads.push(raw.to_string());
        self.state.components.get(raw)
    }

    /// A component this conversion consumes (a label, a wrapper).
    fn consume(&mut self, raw: &str, scope: &Scope) {
        let key = (raw.to_string(), scope.copy.clone());
        if self.tree.used.insert(key.clone()) {
            self.frame().consumed.push(key);
        } else {
            // Consumed where something else holds it: which one wins is
            // the walk's order.
            self.tree.local = false;
        }
    }

    fn note(&mut self, code: &'static str, path: String, message: String) {
        self.notes.push(Note::new(code, path, message));
    }

    /// A dynamic value of the component, imported.
    fn value(&mut self, props: &mut Props, key: &'static str, scope: &Scope) -> Option<Value> {
        let value = props.take(key)?;
        values::import(value, &props.pointer(key), scope, &mut self.notes)
    }

    /// A prop our catalog holds as a plain string.
    fn literal(&mut self, props: &mut Props, key: &'static str) -> Option<String> {
        let value = props.take(key)?;
        if let Some(text) = value.as_str() {
            return Some(text.to_string());
        }
        self.note(
            "prop_dropped",
            props.pointer(key),
            [
                "property ",
                key,
                " is a plain string here, not a binding or call; left out",
            ]
            .concat(),
        );
        None
    }

    /// Converts component `raw` (as the copy of `scope`), returning our id,
    /// or `None` when it is left out (with a note).
    pub fn component(
        &mut self,
        raw: &str,
        scope: &Scope,
        at_ref: &str,
        depth: usize,
    ) -> Option<String> {
        let key = (raw.to_string(), scope.copy.clone());
        // Kept only where it was: named by the component converted again.
        if self.frames.len() == 2 && self.kept.remove(&key) {
            return self.attach(key, at_ref);
        }
        let Some(found) = self.state.components.get(raw) else {
            // The note is the flattening's (Tree::notes), so that a
            // definition arriving later needs no second walk.
            return self.attach(key, at_ref);
        };
        // Named elsewhere too: which parent has it is the walk's order.
        let current = self.frames.last().and_then(|f| f.key.as_ref());
        let mut elsewhere = self.tree.named.get(raw).into_iter().flatten();
        if elsewhere.any(|parent| Some(parent) != current) {
            self.tree.local = false;
        }
        if !self.tree.used.insert(key.clone()) {
            self.tree.local = false;
            self.note(
                "shared_child",
                at_ref.to_string(),
                [
                    "component ",
                    raw,
                    " is named by a second parent; kept under the first",
                ]
                .concat(),
            );
            return None;
        }
        if depth > MAX_DEPTH {
            self.tree.local = false;
            self.note(
                "too_deep",
                found.at.clone(),
                "components nested deeper than 64 are left out".to_string(),
            );
            return None;
        }
        if self.tree.count >= MAX_COMPONENTS {
            // A part walked again reaching the limit moves where it cuts.
            self.tree.local &= self.whole;
            if self.tree.count == MAX_COMPONENTS {
                self.tree.count += 1;
                if self.whole {
                    let frame = self.frame();
                    let items = frame.items.len();
                    self.tree.cut = frame.key.clone().map(|key| (key, items));
                }
                self.note(
                    "too_many_components",
                    at_ref.to_string(),
                    "past 1,000 components (templates expanded) the rest are left out".to_string(),
                );
            }
            return None;
        }
        let parent = self.frame().key.clone();
        self.frames.push(Frame {
            key: Some(key.clone()),
            ..Frame::default()
        });
        let id = self.tree.ids.get(raw, &scope.copy, &scope.suffix);
        if scope.copy.is_empty() && id != raw {
            self.note(
                "renamed_id",
                at(&found.at, "id"),
                [
                    "id ",
                    raw,
                    " is ",
                    &id,
                    " here (ids match ^[a-z][a-z0-9-]{0,40}$)",
                ]
                .concat(),
            );
        }
        self.tree.count += 1;
        let value = self
            .convert(found, &id, scope, depth)
            .map(|(name, mut props, children)| {
                crate::required_as_null(&name, &mut props);
                let mut component = Map::new();
                component.insert("id".into(), json!(id));
                component.insert("component".into(), json!(name));
                if !props.is_empty() {
                    component.insert("props".into(), Value::Object(props));
                }
                if let Some(children) = children {
                    component.insert("children".into(), json!(children));
                }
                Value::Object(component)
            });
        self.frame();
        let frame = self.frames.pop().expect("the component's own frame");
        self.made.push(key.clone());
        self.tree.insert(
            key.clone(),
            Node {
                parent,
                depth,
                at_ref: at_ref.to_string(),
                value,
                items: frame.items,
                reads: frame.reads,
                consumed: frame.consumed,
                size: 0,
                slot: 0,
                plain: false,
            },
        );
        self.attach(key, at_ref)
    }

    /// Names component `key` (converted, or missing) in the innermost
    /// frame, giving its id in the surface.
    fn attach(&mut self, key: Key, at_ref: &str) -> Option<String> {
        let slot = self.frame().items.len();
        let (size, id) = match self.tree.nodes.get_mut(&key) {
            Some(node) => {
                node.slot = slot;
                let id = node.value.as_ref().and_then(|v| v["id"].as_str());
                (node.size, id.map(String::from))
            }
            None => (0, None),
        };
        self.frame().items.push(Item::Child {
            key,
            at_ref: at_ref.to_string(),
            size,
            shown: id.is_some(),
        });
        id
    }

    /// The children named by `children` (a list or a template) and `child`.
    fn children(&mut self, props: &mut Props, scope: &Scope, depth: usize) -> Vec<String> {
        let mut out = Vec::new();
        match props.take("children") {
            Some(Value::Array(ids)) => {
                for (i, child) in ids.iter().enumerate() {
                    let at_child = at_index(&props.pointer("children"), i);
                    if let Some(raw) = child.as_str() {
                        out.extend(self.component(raw, scope, &at_child, depth + 1));
                    }
                }
            }
            Some(Value::Object(template)) => {
                let at_children = props.pointer("children");
                out.extend(self.template(template, &at_children, scope, depth));
            }
            _ => {}
        }
        if let Some(raw) = props.str("child") {
            let at_child = props.pointer("child");
            out.extend(self.component(raw, scope, &at_child, depth + 1));
        }
        out
    }

    /// A template's copies, one per item of the list (or object) at its
    /// path in the data as it is now.
    fn template(
        &mut self,
        template: &Map<String, Value>,
        at_children: &str,
        scope: &Scope,
        depth: usize,
    ) -> Vec<String> {
        let raw = template
            .get("componentId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let path = template
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let path = values::absolute(path, scope);
        self.tree.templates.push(raw.to_string());
        self.tree.local = false;
        let items: Vec<String> = match self.state.data.pointer(&path) {
            Some(Value::Array(items)) => (0..items.len()).map(|i| i.to_string()).collect(),
            Some(Value::Object(map)) => map.keys().cloned().collect(),
            _ => Vec::new(),
        };
        self.note(
            "template_expanded",
            at_children.to_string(),
            [
                "the template is expanded once from the data at ",
                &path,
                " (",
                &items.len().to_string(),
                " items); later data changes do not add or remove children",
            ]
            .concat(),
        );
        let mut out = Vec::new();
        for (i, key) in items.iter().enumerate() {
            let mut item = path.clone();
            surfaces_core::pointer::push(&mut item, key);
            let copy = Scope {
                item: Some(item),
                index: Some(i),
                suffix: [scope.suffix.as_str(), "-", &i.to_string()].concat(),
                copy: [scope.copy.as_str(), "/", at_children, "/", &i.to_string()].concat(),
            };
            out.extend(self.component(raw, &copy, &at(at_children, "componentId"), depth + 1));
        }
        out
    }

    /// The text a Button or Modal trigger shows: its Text child's `text`
    /// (the child consumed), or the trigger's own.
    fn label(&mut self, raw: &str, scope: &Scope, at_ref: &str) -> Option<Value> {
        let found = self.definition(raw)?;
        let map = found.value.as_object()?;
        let name = map.get("component").and_then(Value::as_str);
        let (text, at_text) = match name {
            Some("Text") => (map.get("text")?, at(&found.at, "text")),
            Some("Button") => {
                let child = map.get("child").and_then(Value::as_str)?;
                self.consume(raw, scope);
                if map.contains_key("action") {
                    self.note(
                        "event_dropped",
                        at(&found.at, "action"),
                        "a Modal's trigger opens the Disclosure here; its own action is left out"
                            .to_string(),
                    );
                }
                return self.label(child, scope, &at(&found.at, "child"));
            }
            _ => {
                self.note(
                    "no_label",
                    at_ref.to_string(),
                    ["component ", raw, " shows no Text; its label is left out"].concat(),
                );
                return None;
            }
        };
        self.consume(raw, scope);
        values::import(text, &at_text, scope, &mut self.notes)
    }

    /// One component as (name, props, children).
    #[allow(clippy::type_complexity)]
    fn convert(
        &mut self,
        found: &Defined,
        id: &str,
        scope: &Scope,
        depth: usize,
    ) -> Option<(String, Map<String, Value>, Option<Vec<String>>)> {
        let map = found.value.as_object()?;
        let name = map
            .get("component")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut props = Props {
            map,
            at: &found.at,
            taken: Vec::new(),
        };
        let own = map.get("catalogId").and_then(Value::as_str);
        let surface_catalog = self.state.catalog.as_deref();
        if let Some(other) = own.filter(|c| !is_basic(c) && Some(*c) != surface_catalog) {
            let at_catalog = at(&found.at, "catalogId");
            let note = other_catalog(other, at_catalog, "this component is kept as it is");
            self.notes.push(note);
        }
        let catalog = own.or(surface_catalog).unwrap_or_default();
        let mut out = Map::new();
        if !is_basic(catalog) || !BASIC.contains(&name) {
            // Another catalog's component: its name and props kept, and
            // the components it names (`messages::references`: children
            // and child, trigger, content, tabs[].child) its children.
            let mut children = self.children(&mut props, scope, depth);
            let mut named: Vec<(&str, String)> = Vec::new();
            for key in ["trigger", "content"] {
                let raw = map.get(key).and_then(Value::as_str);
                named.extend(raw.map(|raw| (raw, at(&found.at, key))));
            }
            let tabs = map.get("tabs").and_then(Value::as_array);
            for (i, tab) in tabs.into_iter().flatten().enumerate() {
                let raw = tab.get("child").and_then(Value::as_str);
                let at_tab = at_index(&at(&found.at, "tabs"), i);
                named.extend(raw.map(|raw| (raw, at(&at_tab, "child"))));
            }
            for (raw, at_ref) in &named {
                children.extend(self.component(raw, scope, at_ref, depth + 1));
            }
            for (key, value) in map {
                let at_key = at(&found.at, key);
                let own =
                    !["id", "component", "catalogId", "children", "child"].contains(&key.as_str());
                if own && !unsafe_link(key, value, &at_key, &mut self.notes) {
                    if let Some(value) = values::kept(value, &at_key, scope, &mut self.notes) {
                        out.insert(key.clone(), value);
                    }
                }
            }
            let has_children =
                map.contains_key("children") || map.contains_key("child") || !named.is_empty();
            return Some((name.to_string(), out, has_children.then_some(children)));
        }
        let converted = match name {
            "Text" => Some(self.text(&mut props, &mut out, scope)),
            "Column" | "List" | "Row" => {
                let align = props.str("align");
                if let Some(align @ ("start" | "center" | "end" | "stretch")) = align {
                    out.insert("align".into(), json!(align));
                }
                let justify = props.str("justify");
                let row = name == "Row"
                    || (name == "List" && props.str("direction") == Some("horizontal"));
                match (row, justify) {
                    (_, None | Some("start")) => {}
                    (true, Some(j @ ("center" | "end"))) => {
                        out.insert("justify".into(), json!(j));
                    }
                    (true, Some("spaceBetween")) => {
                        out.insert("justify".into(), json!("between"));
                    }
                    (_, Some(j)) => self.note(
                        "prop_dropped",
                        props.pointer("justify"),
                        ["justify ", j, " has no equivalent here; left out"].concat(),
                    ),
                }
                let children = self.children(&mut props, scope, depth);
                Some((if row { "Row" } else { "Stack" }, Some(children)))
            }
            "Card" => {
                let body = [found.value["id"].as_str().unwrap_or_default(), "-body"].concat();
                let unwrap = props.map.get("child").and_then(Value::as_str) == Some(body.as_str())
                    && self.is_wrapper(&body);
                let children = if unwrap {
                    props.take("child");
                    self.consume(&body, scope);
                    let wrapper = self.definition(&body)?;
                    let mut inner = Props {
                        map: wrapper.value.as_object()?,
                        at: &wrapper.at,
                        taken: Vec::new(),
                    };
                    self.children(&mut inner, scope, depth)
                } else {
                    self.children(&mut props, scope, depth)
                };
                Some(("Card", Some(children)))
            }
            "Tabs" => {
                let children = self.tabs(&mut props, id, scope, depth);
                Some(("Tabs", Some(children)))
            }
            "Modal" => {
                if let Some(trigger) = props.str("trigger") {
                    match self.label(trigger, scope, &props.pointer("trigger")) {
                        Some(Value::String(summary)) => {
                            out.insert("summary".into(), json!(summary));
                        }
                        Some(_) => self.note(
                            "prop_dropped",
                            props.pointer("trigger"),
                            "a Disclosure's summary is plain text; the trigger's bound text is left out".into(),
                        ),
                        None => {}
                    }
                }
                let mut children = Vec::new();
                if let Some(content) = props.str("content") {
                    let at_content = props.pointer("content");
                    children.extend(self.component(content, scope, &at_content, depth + 1));
                }
                Some(("Disclosure", Some(children)))
            }
            "Divider" => {
                if props.str("axis") == Some("vertical") {
                    self.note(
                        "prop_dropped",
                        props.pointer("axis"),
                        "a vertical Divider is horizontal here".into(),
                    );
                }
                Some(("Divider", None))
            }
            "Button" => Some(self.button(&mut props, &mut out, scope)),
            "TextField" => {
                if let Some(label) = self.literal(&mut props, "label") {
                    out.insert("label".into(), json!(label));
                }
                if let Some(value) = self.value(&mut props, "value", scope) {
                    out.insert("value".into(), value);
                }
                let variant = props.str("variant");
                let long = variant == Some("longText");
                if variant == Some("number") {
                    out.insert("type".into(), json!("number"));
                } else if variant == Some("obscured") {
                    self.note(
                        "prop_dropped",
                        props.pointer("variant"),
                        "an obscured field is a plain text field here".into(),
                    );
                }
                if !long {
                    if let Some(placeholder) = self.literal(&mut props, "placeholder") {
                        out.insert("placeholder".into(), json!(placeholder));
                    }
                }
                self.checks(&mut props, &mut out, scope);
                Some((if long { "TextArea" } else { "TextField" }, None))
            }
            "CheckBox" => {
                if let Some(label) = self.literal(&mut props, "label") {
                    out.insert("label".into(), json!(label));
                }
                if let Some(value) = self.value(&mut props, "value", scope) {
                    out.insert("checked".into(), value);
                }
                self.checks(&mut props, &mut out, scope);
                Some(("Checkbox", None))
            }
            "ChoicePicker" => Some(self.choice(&mut props, &mut out, scope)),
            "Slider" => {
                if let Some(label) = self.literal(&mut props, "label") {
                    out.insert("label".into(), json!(label));
                }
                let min = props.take("min").and_then(Value::as_f64).unwrap_or(0.0);
                out.insert("min".into(), json!(min));
                let max = props.take("max").and_then(Value::as_f64);
                if let Some(max) = max {
                    out.insert("max".into(), json!(max));
                }
                if let (Some(steps), Some(max)) = (props.take("steps").and_then(Value::as_f64), max)
                {
                    if steps >= 1.0 && max > min {
                        out.insert("step".into(), json!((max - min) / steps));
                    }
                }
                if let Some(value) = self.value(&mut props, "value", scope) {
                    out.insert("value".into(), value);
                }
                Some(("Slider", None))
            }
            // Image, Icon, Video, AudioPlayer, DateTimeInput: URLs and names
            // our catalog cannot check, and a date input it does not have.
            _ => None,
        };
        let Some((ours, children)) = converted else {
            self.note(
                "no_equivalent",
                found.at.clone(),
                ["component ", name, " has no equivalent here; left out"].concat(),
            );
            return None;
        };
        props.leftover(&mut self.notes);
        Some((ours.to_string(), out, children))
    }

    /// A Column that only holds children (what `to_a2ui` wraps a Card's
    /// children in).
    fn is_wrapper(&mut self, raw: &str) -> bool {
        let Some(found) = self.definition(raw) else {
            return false;
        };
        let map = found.value.as_object();
        map.is_some_and(|m| {
            m.get("component").and_then(Value::as_str) == Some("Column")
                && m.keys()
                    .all(|k| ["id", "component", "children"].contains(&k.as_str()))
        })
    }

    /// Text: a heading (a v0.9 variant h1 to h5, or one line starting with
    /// markdown's `#` to `######`), markdown (a literal of several lines:
    /// A2UI's Text renders simple markdown, whose blocks only our Markdown
    /// holds), a caption (small), or plain.
    fn text(
        &mut self,
        props: &mut Props,
        out: &mut Map<String, Value>,
        scope: &Scope,
    ) -> (&'static str, Option<Vec<String>>) {
        let variant = props.str("variant");
        let mut level = variant
            .and_then(|v| v.strip_prefix('h'))
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=5).contains(n));
        let raw = props.take("text");
        if let Some(source) = raw
            .and_then(Value::as_str)
            .filter(|s| s.contains('\n') && level.is_none() && variant.is_none_or(|v| v == "body"))
        {
            out.insert("source".into(), json!(source));
            return ("Markdown", None);
        }
        let mut text = raw.cloned();
        // `## Title` (v1.0 has no heading variants), also as formatString's
        // literal start.
        let literal = text.as_mut().and_then(super::leading_text);
        if let Some(s) = literal {
            match super::heading_marker(s) {
                Some(hashes) if level.is_none() => {
                    level = Some(hashes as u8);
                    *s = s
                        .get(hashes + 1..)
                        .unwrap_or_default()
                        .trim_start()
                        .to_string();
                }
                // An escaped marker (`\# `) is the text it escapes, as
                // markdown reads it.
                _ if s
                    .strip_prefix('\\')
                    .and_then(super::heading_marker)
                    .is_some() =>
                {
                    s.remove(0);
                }
                _ => {}
            }
        }
        if let Some(text) =
            text.and_then(|t| values::import(&t, &props.pointer("text"), scope, &mut self.notes))
        {
            out.insert("text".into(), text);
        }
        match (level, variant) {
            (Some(level), _) => {
                out.insert("level".into(), json!(level));
                // Heading's props: level first, as the catalog writes them.
                let text = out.shift_remove("text");
                out.extend(text.map(|t| ("text".to_string(), t)));
                ("Heading", None)
            }
            (None, Some("caption")) => {
                out.insert("tone".into(), json!("small"));
                ("Text", None)
            }
            (None, Some(v)) if v != "body" => {
                self.note(
                    "prop_dropped",
                    props.pointer("variant"),
                    ["variant ", v, " has no equivalent here"].concat(),
                );
                ("Text", None)
            }
            _ => ("Text", None),
        }
    }

    /// Button: its Text child as the label, an event naming one of our
    /// actions as that action, `openUrl` as `href`.
    fn button(
        &mut self,
        props: &mut Props,
        out: &mut Map<String, Value>,
        scope: &Scope,
    ) -> (&'static str, Option<Vec<String>>) {
        if let Some(child) = props.str("child") {
            if let Some(label) = self.label(child, scope, &props.pointer("child")) {
                out.insert("label".into(), label);
            }
        }
        match props.str("variant") {
            Some("primary") => {
                out.insert("variant".into(), json!("primary"));
            }
            Some("borderless") => {
                out.insert("variant".into(), json!("ghost"));
            }
            _ => {
                out.insert("variant".into(), json!("secondary"));
            }
        }
        let at_action = props.pointer("action");
        let Some(action) = props.take("action") else {
            return ("Button", None);
        };
        if let Some(event) = action.get("event") {
            let name = event
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            // `navigate` is A2UI's `openUrl`, read apart.
            if crate::is_action(name) && name != "navigate" {
                let mut ours = Map::new();
                ours.insert("action".into(), json!(name));
                let context = event.get("context").and_then(Value::as_object);
                for (key, value) in context.into_iter().flatten() {
                    let at_value = at(&at(&at(&at_action, "event"), "context"), key);
                    if unsafe_link(key, value, &at_value, &mut self.notes) {
                        continue;
                    }
                    if let Some(value) = values::import(value, &at_value, scope, &mut self.notes) {
                        ours.insert(key.clone(), value);
                    }
                }
                out.insert("onClick".into(), Value::Object(ours));
            } else {
                self.note(
                    "event_dropped",
                    at(&at_action, "event"),
                    [
                        "event ",
                        name,
                        " goes to the agent; surfaces have no server events, so it is left out",
                    ]
                    .concat(),
                );
            }
        } else if let Some(call) = action.get("functionCall") {
            let name = call.get("call").and_then(Value::as_str).unwrap_or_default();
            let url = call
                .get("args")
                .and_then(|a| a.get("url"))
                .and_then(Value::as_str);
            match (name, url) {
                ("openUrl", Some(url)) => {
                    let at_url = at(&at(&at(&at_action, "functionCall"), "args"), "url");
                    if safe_href(url, at_url, &mut self.notes) {
                        out.insert("href".into(), json!(url));
                    }
                }
                ("openUrl", None) => self.note(
                    "unsafe_href",
                    at(&at(&at(&at_action, "functionCall"), "args"), "url"),
                    "openUrl without a url string; left out".into(),
                ),
                _ => self.note(
                    "unsupported_function",
                    at(&at(&at_action, "functionCall"), "call"),
                    ["function ", name, " is not an action here; left out"].concat(),
                ),
            }
        }
        ("Button", None)
    }

    fn checks(&mut self, props: &mut Props, out: &mut Map<String, Value>, scope: &Scope) {
        if let Some(checks) = props.take("checks") {
            let found =
                values::import_checks(checks, &props.pointer("checks"), scope, &mut self.notes);
            out.extend(found.map(|c| ("checks".to_string(), c)));
        }
    }

    /// ChoicePicker: Toggle for 2 to 8 exclusive options, else Select; the
    /// options' values kept (the data holds them), their labels noted where
    /// they differ; a bound value noted, as A2UI holds the selections as a
    /// list where ours is one string.
    fn choice(
        &mut self,
        props: &mut Props,
        out: &mut Map<String, Value>,
        scope: &Scope,
    ) -> (&'static str, Option<Vec<String>>) {
        let label = self.literal(props, "label");
        let given = props.take("options").and_then(Value::as_array);
        let value_of = |o: &Value| o.get("value").and_then(Value::as_str).map(String::from);
        let options: Vec<Value> = given
            .into_iter()
            .flatten()
            .filter_map(value_of)
            .map(Value::from)
            .collect();
        let labelled = |o: &Value| {
            o.get("label")
                .is_some_and(|l| l.as_str() != o.get("value").and_then(Value::as_str))
        };
        if given.into_iter().flatten().any(labelled) {
            self.note(
                "prop_dropped",
                props.pointer("options"),
                "options show their values here; labels left out".into(),
            );
        }
        let multiple = props.str("variant") == Some("multipleSelection");
        if multiple {
            self.note(
                "prop_dropped",
                props.pointer("variant"),
                "several selections are one here: the first selected value is kept".into(),
            );
        }
        let toggle = !multiple && (2..=8).contains(&options.len());
        out.extend(label.map(|l| ("label".to_string(), json!(l))));
        out.insert("options".into(), Value::Array(options));
        match props.take("value") {
            Some(Value::Array(selected)) => {
                out.extend(selected.first().map(|v| ("value".to_string(), v.clone())));
            }
            Some(value) => {
                let at_value = props.pointer("value");
                let found = values::import(value, &at_value, scope, &mut self.notes);
                if found.as_ref().is_some_and(|v| v.get("path").is_some()) {
                    self.note("value_shape", at_value, SELECTIONS.into());
                }
                out.extend(found.map(|v| ("value".to_string(), v)));
            }
            None => {}
        }
        (if toggle { "Toggle" } else { "Select" }, None)
    }

    /// Tabs: a TabPanel per tab, labelled with its title; a tab whose child
    /// is a Column holding only children is that panel (what `to_a2ui`
    /// writes), else the panel holds the child.
    fn tabs(&mut self, props: &mut Props, id: &str, scope: &Scope, depth: usize) -> Vec<String> {
        let at_tabs = props.pointer("tabs");
        let tabs = props.take("tabs").and_then(Value::as_array);
        let mut panels = Vec::new();
        for (i, tab) in tabs.into_iter().flatten().enumerate() {
            let at_tab = at_index(&at_tabs, i);
            // A panel goes before its children.
            self.tree.local = false;
            self.tree.count += 1;
            let slot = self.frame().items.len();
            self.frame().items.push(Item::Slot(None));
            let mut panel_props = Map::new();
            match tab.get("title") {
                Some(Value::String(title)) => {
                    panel_props.insert("label".into(), json!(title));
                }
                _ => self.note(
                    "prop_dropped",
                    at(&at_tab, "title"),
                    "a tab's label is plain text here; left out".into(),
                ),
            }
            let child = tab.get("child").and_then(Value::as_str);
            let at_child = at(&at_tab, "child");
            let (panel_id, children) = match child {
                Some(raw)
                    if self.is_wrapper(raw)
                        && !self
                            .tree
                            .used
                            .contains(&(raw.to_string(), scope.copy.clone())) =>
                {
                    self.consume(raw, scope);
                    let Some(wrapper) = self.definition(raw) else {
                        continue;
                    };
                    let panel_id = self.tree.ids.get(raw, &scope.copy, &scope.suffix);
                    let Some(map) = wrapper.value.as_object() else {
                        continue;
                    };
                    let mut inner = Props {
                        map,
                        at: &wrapper.at,
                        taken: Vec::new(),
                    };
                    (panel_id, self.children(&mut inner, scope, depth + 1))
                }
                _ => {
                    let tab = ["-tab-", &i.to_string()].concat();
                    let copy = [scope.copy.as_str(), &tab].concat();
                    let panel_id =
                        self.tree
                            .ids
                            .get(id, &copy, &[scope.suffix.as_str(), &tab].concat());
                    let children =
                        child.and_then(|raw| self.component(raw, scope, &at_child, depth + 2));
                    (panel_id, children.into_iter().collect())
                }
            };
            let mut panel = Map::new();
            panel.insert("id".into(), json!(panel_id));
            panel.insert("component".into(), json!("TabPanel"));
            panel.insert("props".into(), Value::Object(panel_props));
            panel.insert("children".into(), json!(children));
            self.frame().items[slot] = Item::Slot(Some(Value::Object(panel)));
            panels.push(panel_id);
        }
        panels
    }
}

/// The A2UI basic catalog's id for `version`.
pub fn basic_catalog(version: Version) -> &'static str {
    match version {
        Version::V09 => "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
        Version::V10 => "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our components' ids and the notes' codes for `components` on a
    /// surface of `catalog`, with `data`.
    fn read(catalog: &str, components: Value, data: Value) -> (Vec<String>, Vec<&'static str>) {
        let list = json!([
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": catalog}},
            {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/", "value": data}}
        ]);
        let result = crate::from_a2ui_value(&list);
        let components = result.surfaces[0]["components"].as_array().cloned();
        let ids = components.into_iter().flatten();
        let ids = ids.map(|c| c["id"].as_str().unwrap_or_default().to_string());
        (ids.collect(), result.notes.iter().map(|n| n.code).collect())
    }

    #[test]
    fn another_catalogs_component_has_every_component_it_names_as_children() {
        let root = json!({"id": "root", "component": "Pane", "children": ["a"], "child": "b",
            "trigger": "c", "content": "d",
            "tabs": [{"title": "One", "child": "e"}, {"title": "Two", "child": "f"}]});
        let named: Vec<String> = messages::references(&root)
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(named, ["a", "b", "c", "d", "e", "f"]);
        let mut components = vec![root];
        components.extend(
            named
                .iter()
                .map(|id| json!({"id": id, "component": "Divider"})),
        );
        let (ids, codes) = read("other", json!(components), json!({}));
        assert_eq!(ids, ["root", "a", "b", "c", "d", "e", "f"]);
        assert!(!codes.contains(&"not_reachable"), "{codes:?}");
    }

    #[test]
    fn a_template_over_no_items_leaves_its_components_reachable() {
        let components = json!([
            {"id": "root", "component": "List", "children": {"path": "/items", "componentId": "row"}},
            {"id": "row", "component": "Card", "child": "cell"},
            {"id": "cell", "component": "Text", "text": {"path": "name"}},
            {"id": "stray", "component": "Text", "text": "x"}
        ]);
        let (ids, codes) = read("basic", components.clone(), json!({}));
        assert_eq!(ids, ["root"]);
        // Only the component no one names is unreachable.
        assert_eq!(
            codes.iter().filter(|c| **c == "not_reachable").count(),
            1,
            "{codes:?}"
        );
        let (ids, codes) = read("basic", components, json!({"items": [{"name": "n"}]}));
        assert_eq!(ids, ["root", "row-0", "cell-0"]);
        assert_eq!(
            codes.iter().filter(|c| **c == "not_reachable").count(),
            1,
            "{codes:?}"
        );
    }
}
