//! A surface's conversion kept as the tree of what each component's
//! conversion gave (its component, its notes and the children it named, in
//! walk order), so that a streaming import can follow a message in place:
//! convert again only what the message changed, and say so in operations
//! proportional to the change.
//!
//! [`Tree::new`] walks the whole surface ([`Walk`]); flattened in order,
//! the tree gives exactly the components and notes of the conversion
//! ([`Tree::components`], [`Tree::notes`]). [`Tree::update`] takes the
//! changes messages made ([`Touch`]):
//!
//! - a component defined again, or one whose conversion read a definition
//!   that changed (a label, a wrapper), is converted again, its unchanged
//!   children kept as they are (in any order: an ancestor converted after
//!   a descendant keeps it, or converts it again under its new parent);
//! - a component defined for the first time that one converted component
//!   names is converted into that place;
//! - the operations are a `replace` of each component that changed, the
//!   `add`s of new components, then the `add` of their ids to their
//!   parent's `children` (at most three new components at once, which a
//!   `Draft` holds until the link arrives: SPEC.md section 7), and the data
//!   compared along the paths written only; a child dropped or moved, or
//!   more new components, make one `replace` of the component list.
//!
//! Past the count limit ([`MAX_COMPONENTS`]) the whole walk leaves the
//! rest out, and [`Tree::cut`] records where it stopped: a component
//! defined for the first time past that point is left out in place too
//! (nothing changes in the surface), so a stream far over the limit costs
//! per message what one under it does.
//!
//! What else depends on the order of the whole walk (a template, tab
//! panels, a component named twice, the depth limit, a component defined
//! before the cut or converted again while the limit holds) makes `update`
//! give `None`: the caller converts the surface again whole. So the result
//! is always the whole conversion's (`testkit::properties::a2ui_import`
//! checks it after every message, and a test here past the limit).
//!
//! [`MAX_COMPONENTS`]: super::import::MAX_COMPONENTS

use super::import::{in_templates, is_basic, other_catalog, Walk, MAX_DEPTH};
use super::messages::{SurfaceState, Touch};
use super::values::Scope;
use crate::ids::Ids;
use crate::note::{at, Note};
use crate::shown::{self, op};
use serde_json::{json, Value};
use surfaces_core::pointer;
use surfaces_core::sorted;

/// A component's place in the walk: its A2UI id and its copy (`""` outside
/// templates).
pub type Key = (String, String);

/// What a conversion gave, in walk order.
#[derive(Debug, Clone)]
pub enum Item {
    Note(Note),
    /// A component named here: converted (its node, of `size` components
    /// in the surface, itself among them when `shown`), or never defined
    /// (the `missing_child` note at `at_ref`, made when flattening).
    Child {
        key: Key,
        at_ref: String,
        size: usize,
        shown: bool,
    },
    /// A component of this conversion's own (a TabPanel), once made.
    Slot(Option<Value>),
}

/// A conversion in progress.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// The component converted (`None` above root).
    pub key: Option<Key>,
    pub items: Vec<Item>,
    /// The definitions read besides the children's.
    pub reads: Vec<String>,
    /// The components consumed (labels, wrappers).
    pub consumed: Vec<Key>,
}

/// One component's conversion.
#[derive(Debug, Clone)]
pub struct Node {
    pub parent: Option<Key>,
    pub depth: usize,
    /// Where its parent names it.
    pub at_ref: String,
    /// Ours, or `None` when it is left out.
    pub value: Option<Value>,
    pub items: Vec<Item>,
    pub reads: Vec<String>,
    pub consumed: Vec<Key>,
    /// How many of the surface's components come from this subtree.
    pub size: usize,
    /// Where its parent's items (or the top's) name it.
    pub slot: usize,
    /// Whether its `children` are the ids of the children it names that
    /// are in the surface, in order (so a child defined later is one more
    /// id there).
    pub plain: bool,
}

/// A surface's conversion, as a tree.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// The surface converted (where it was created).
    at: String,
    pub ids: Ids,
    /// How many of the surface's ids `ids` was given, in definition order.
    registered: usize,
    /// The components converted: at most [`MAX_COMPONENTS`] and their
    /// panels, so sorted lists (`sorted::Map`, `sorted::Set`) serve here.
    pub nodes: sorted::Map<Key, Node>,
    /// What the walk above root gave.
    top: Vec<Item>,
    /// The components converted or consumed.
    pub used: sorted::Set<Key>,
    /// The components templates copy.
    pub templates: Vec<String>,
    /// Whether a change can be followed in place (see the module's docs).
    pub local: bool,
    /// The components converted so far (with panels), against the limit.
    pub count: usize,
    /// Where the limit cut the whole walk, when it did: the component whose
    /// child the limit first left out, and how many items it had then. Its
    /// items from there on are past the cut (children never defined, and
    /// notes), and so are its ancestors' after the child leading to it.
    pub cut: Option<(Key, usize)>,
    /// Which nodes read a definition, and which name a component (one
    /// map type for both: each is code in the WebAssembly module).
    readers: sorted::ByName<sorted::Set<Key>>,
    pub named: sorted::ByName<sorted::Set<Key>>,
}

fn root() -> Key {
    ("root".to_string(), String::new())
}

impl Tree {
    /// The whole surface converted.
    pub fn new(state: &SurfaceState) -> Tree {
        let mut tree = Tree {
            at: state.at.clone(),
            local: true,
            ..Tree::default()
        };
        for raw in &state.order {
            tree.ids.original(raw);
        }
        tree.registered = state.order.len();
        if state.components.contains_key("root") {
            let mut walk = Walk::whole(state, &mut tree);
            walk.component("root", &Scope::default(), &at(&state.at, "surfaceId"), 1);
            tree.top = walk.finish().items;
        }
        tree
    }

    /// Whether this is the conversion of `state` (not of a surface of the
    /// same id deleted since).
    pub fn converts(&self, state: &SurfaceState) -> bool {
        self.at == state.at
    }

    /// Records a converted component (its children recorded before it).
    pub fn insert(&mut self, key: Key, mut node: Node) {
        node.size = usize::from(node.value.is_some());
        for item in &node.items {
            node.size += size(item);
            if let Item::Child { key: child, .. } = item {
                let named = self
                    .named
                    .get_or_insert_with(child.0.clone(), Default::default);
                named.insert(key.clone());
            }
        }
        for raw in &node.reads {
            let readers = self
                .readers
                .get_or_insert_with(raw.clone(), Default::default);
            readers.insert(key.clone());
        }
        let children = node.value.as_ref().and_then(|v| v["children"].as_array());
        node.plain = children.is_some_and(|ids| {
            let mut ids = ids.iter();
            let mut named = node.items.iter().filter_map(|item| match item {
                Item::Child { key, .. } => self.shown_id(key),
                _ => None,
            });
            named.all(|id| ids.next().and_then(Value::as_str) == Some(id.as_str()))
                && ids.next().is_none()
        });
        self.nodes.insert(key, node);
    }

    /// Takes a node out of the tree (its children stay).
    fn take(&mut self, key: &Key) -> Option<Node> {
        let node = self.nodes.remove(key)?;
        for item in &node.items {
            if let Item::Child { key: child, .. } = item {
                if let Some(named) = self.named.get_mut(&child.0) {
                    named.remove(key);
                }
            }
        }
        for raw in &node.reads {
            if let Some(readers) = self.readers.get_mut(raw) {
                readers.remove(key);
            }
        }
        self.used.remove(key);
        for consumed in &node.consumed {
            self.used.remove(consumed);
        }
        self.count -= 1;
        Some(node)
    }

    /// Takes a node and everything under it out of the tree.
    fn take_tree(&mut self, key: &Key) {
        let Some(node) = self.take(key) else {
            return;
        };
        for item in node.items {
            match item {
                // Its own children (one it named while it was missing may
                // have been converted under another since).
                Item::Child { key: child, .. }
                    if self.nodes.get(&child).and_then(|n| n.parent.as_ref()) == Some(key) =>
                {
                    self.take_tree(&child)
                }
                Item::Slot(_) => self.count -= 1,
                _ => {}
            }
        }
    }

    /// The id a converted component has in the surface.
    pub fn shown_id(&self, key: &Key) -> Option<String> {
        let value = self.nodes.get(key)?.value.as_ref()?;
        value["id"].as_str().map(String::from)
    }

    /// The surface's components, in document order.
    pub fn components(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.push_components(&self.top, &mut out);
        out
    }

    fn push_components(&self, items: &[Item], out: &mut Vec<Value>) {
        for item in items {
            match item {
                Item::Slot(Some(value)) => out.push(value.clone()),
                Item::Child { key, .. } => {
                    if let Some(node) = self.nodes.get(key) {
                        out.extend(node.value.clone());
                        self.push_components(&node.items, out);
                    }
                }
                _ => {}
            }
        }
    }

    /// The conversion's notes: in walk order, then the components root
    /// does not reach.
    pub fn notes(&self, state: &SurfaceState) -> Vec<Note> {
        let mut out = Vec::new();
        if let Some(catalog) = state.catalog.as_deref().filter(|c| !is_basic(c)) {
            let kept = "components of it are kept as they are";
            out.push(other_catalog(catalog, at(&state.at, "catalogId"), kept));
        }
        self.push_notes(&self.top, &mut out);
        let in_templates = in_templates(state, &self.templates);
        for raw in &state.order {
            let Some(defined) = state.components.get(raw) else {
                continue;
            };
            if !self.used.contains(&(raw.clone(), String::new()))
                && !in_templates.contains(raw.as_str())
            {
                out.push(Note::new(
                    "not_reachable",
                    defined.at.clone(),
                    ["component ", raw, " is not reachable from root; left out"].concat(),
                ));
            }
        }
        out
    }

    fn push_notes(&self, items: &[Item], out: &mut Vec<Note>) {
        for item in items {
            match item {
                Item::Note(note) => out.push(note.clone()),
                Item::Child { key, at_ref, .. } => match self.nodes.get(key) {
                    Some(node) => self.push_notes(&node.items, out),
                    None => out.push(Note::new(
                        "missing_child",
                        at_ref.clone(),
                        [
                            "component ",
                            &key.0,
                            " was never defined; left out of its parent",
                        ]
                        .concat(),
                    )),
                },
                Item::Slot(_) => {}
            }
        }
    }

    /// Our surface.
    pub fn surface(&self, state: &SurfaceState) -> Value {
        json!({
            "id": state.id,
            "kind": "surface",
            "catalog": "blog@1",
            "components": self.components(),
            "data": state.data,
        })
    }

    /// Follows the changes `touched` made to `state` in place, giving the
    /// operations (paths in the surface) that take the surface as it was
    /// (`data`: its data then) to the surface now, or `None` when the tree
    /// is to be built again (see the module's docs).
    pub fn update(
        &mut self,
        state: &SurfaceState,
        touched: &[Touch],
        data: &Value,
    ) -> Option<Vec<Value>> {
        if !self.local || !self.converts(state) || !self.nodes.contains_key(&root()) {
            return None;
        }
        for raw in state.order.get(self.registered..).unwrap_or_default() {
            self.ids.original(raw);
        }
        self.registered = state.order.len();
        let mut dirty = sorted::Names::default();
        let mut paths: Vec<&[String]> = Vec::new();
        for touch in touched {
            match touch {
                Touch::Component(raw) => {
                    dirty.insert(raw.clone());
                }
                Touch::Data(segments) => paths.push(segments),
            }
        }
        let mut ops = Vec::new();
        // Converted again: what was defined again, and what read a changed
        // definition, outermost first.
        // Any order does: converting an ancestor again after a descendant
        // keeps the descendant as converted, or converts it again with its
        // changed parent.
        let mut again: sorted::Set<Key> = sorted::Set::default();
        for raw in &dirty {
            let key = (raw.clone(), String::new());
            if self.nodes.contains_key(&key) {
                again.insert(key);
            }
            again.extend(self.readers.get(raw).into_iter().flatten().cloned());
        }
        let full = self.cut.is_some();
        if full && !again.is_empty() {
            // Its size may move the cut.
            return None;
        }
        let mut fresh = sorted::Set::default();
        let mut whole = false;
        for key in &again {
            if !fresh.contains(key) && self.nodes.contains_key(key) {
                whole |= !self.convert_again(state, key, &dirty, &mut fresh, &mut ops)?;
            }
        }
        // Defined for the first time where a converted component names it.
        for raw in &dirty {
            let key = (raw.clone(), String::new());
            if self.nodes.contains_key(&key) || !state.components.contains_key(raw) {
                continue;
            }
            let parents: Vec<&Key> = self.named.get(raw).into_iter().flatten().collect();
            match parents.as_slice() {
                [] => {}
                [parent] if full => {
                    let parent = (*parent).clone();
                    self.past_cut(&parent, &key)?;
                }
                [parent] => {
                    let parent = (*parent).clone();
                    whole |= !self.add(state, &parent, &key, &mut fresh, &mut ops)?;
                }
                // The first parent in document order keeps it.
                _ => return None,
            }
        }
        if !self.local {
            return None;
        }
        if whole {
            let components = self.components();
            ops = vec![op(
                "replace",
                "/components".into(),
                Some(Value::Array(components)),
            )];
        }
        // The data along the paths written (the widest of overlapping ones,
        // and each once).
        let widest = paths.iter().enumerate().filter(|&(i, path)| {
            let wider = |(j, other): (usize, &&[String])| {
                path.starts_with(other) && (other.len() < path.len() || j < i)
            };
            !paths.iter().enumerate().any(wider)
        });
        for (_, path) in widest {
            data_along(data, &state.data, path, "/data".to_string(), &mut ops);
        }
        Some(ops)
    }

    /// Converts `key` again where it is, its unchanged children kept:
    /// `Some(true)` when `ops` says what changed, `Some(false)` when the
    /// components are to be replaced whole, `None` when the tree is to be
    /// built again.
    fn convert_again(
        &mut self,
        state: &SurfaceState,
        key: &Key,
        dirty: &sorted::Names,
        fresh: &mut sorted::Set<Key>,
        ops: &mut Vec<Value>,
    ) -> Option<bool> {
        let old = self.take(key)?;
        let before = self.children(&old.items);
        let mut kept = sorted::Set::default();
        for child in &before {
            if dirty.contains(&child.0) {
                self.take_tree(child);
            } else {
                kept.insert(child.clone());
            }
        }
        let mut walk = Walk::new(state, self);
        walk.frames[0].key = old.parent.clone();
        walk.kept = kept;
        walk.component(&key.0, &Scope::default(), &old.at_ref, old.depth);
        let left = core::mem::take(&mut walk.kept);
        let made = walk.finish();
        fresh.extend(made.made);
        for child in &left {
            self.take_tree(child);
        }
        let node = self.nodes.get_mut(key)?;
        node.slot = old.slot;
        let value = node.value.clone();
        let after = self.children(&self.nodes.get(key)?.items);
        self.resize(key, old.size);
        if !self.local || made.items.len() != 1 {
            return None;
        }
        if old.value.is_some() != value.is_some() {
            // In the surface now, or no longer: so in its parent's children.
            self.relink(key)?;
            return Some(false);
        }
        // Every child kept, in its order, and nothing but new components
        // between them.
        if !left.is_empty() || before.iter().any(|c| dirty.contains(&c.0)) {
            return Some(false);
        }
        let mut kept = before.iter();
        let mut new = Vec::new();
        for child in &after {
            if !before.contains(child) {
                new.push(child);
            } else if kept.next() != Some(child) {
                return Some(false);
            }
        }
        if kept.next().is_some() {
            return Some(false);
        }
        let added: usize = new
            .iter()
            .filter_map(|c| self.nodes.get(*c))
            .map(|n| n.size)
            .sum();
        if added > 3 {
            return Some(false);
        }
        for child in new {
            self.push_adds(child, ops)?;
        }
        if let (Some(old), Some(value)) = (old.value, value) {
            value_ops(self.position(key)?, old, value, ops);
        }
        Some(true)
    }

    /// Converts `key`, defined for the first time, where `parent` names it
    /// (once).
    fn add(
        &mut self,
        state: &SurfaceState,
        parent: &Key,
        key: &Key,
        fresh: &mut sorted::Set<Key>,
        ops: &mut Vec<Value>,
    ) -> Option<bool> {
        let node = self.nodes.get(parent).filter(|n| n.plain)?;
        let (slot, at_ref) = named_once(&node.items, key)?;
        let (at_ref, depth) = (at_ref.to_string(), node.depth);
        let k = node.items[..slot].iter().filter(|i| shown(i)).count();
        let mut walk = Walk::new(state, self);
        walk.frames[0].key = Some(parent.clone());
        walk.component(&key.0, &Scope::default(), &at_ref, depth + 1);
        let made = walk.finish();
        fresh.extend(made.made);
        if !self.local {
            return None;
        }
        let node = self.nodes.get_mut(key)?;
        node.slot = slot;
        let size = node.size;
        self.resize(key, 0);
        let Some(id) = self.shown_id(key) else {
            // Left out: its notes change, and the components if it held any.
            return Some(size == 0);
        };
        self.relink(key)?;
        if size > 3 {
            return Some(false);
        }
        self.push_adds(key, ops)?;
        let mut path = "/components".to_string();
        pointer::push_index(&mut path, self.position(parent)?);
        path.push_str("/children");
        pointer::push_index(&mut path, k);
        ops.push(op("add", path, Some(Value::String(id))));
        Some(true)
    }

    /// `key`, defined for the first time where `parent` names it (once)
    /// past the limit's cut, is left out as the whole walk leaves it:
    /// used, and named nowhere. `None` when it is before the cut (so it
    /// moves the cut) or deeper than the depth limit.
    fn past_cut(&mut self, parent: &Key, key: &Key) -> Option<()> {
        let (mut at, mut boundary) = self.cut.as_ref().map(|(at, items)| (at, *items))?;
        while at != parent {
            let node = self.nodes.get(at)?;
            boundary = node.slot + 1;
            at = node.parent.as_ref()?;
        }
        let node = self.nodes.get(parent)?;
        let (slot, _) = named_once(&node.items, key)?;
        if slot < boundary || node.depth >= MAX_DEPTH || !self.used.insert(key.clone()) {
            return None;
        }
        self.nodes.get_mut(parent)?.items.remove(slot);
        if let Some(named) = self.named.get_mut(&key.0) {
            named.remove(parent);
        }
        Some(())
    }

    /// `key` came into the surface or left it: its id is put in its
    /// parent's children, or taken out (`None` when the parent's children
    /// are not simply those ids).
    fn relink(&mut self, key: &Key) -> Option<()> {
        let node = self.nodes.get(key)?;
        let id = self.shown_id(key);
        let Some(parent) = node.parent.clone() else {
            return Some(());
        };
        let slot = node.slot;
        let parent = self.nodes.get_mut(&parent).filter(|p| p.plain)?;
        let k = parent.items[..slot].iter().filter(|i| shown(i)).count();
        let children = parent.value.as_mut()?["children"].as_array_mut()?;
        match id {
            Some(id) => children.insert(k, Value::String(id)),
            None => {
                children.remove(k);
            }
        }
        Some(())
    }

    /// The converted children named in `items`.
    fn children(&self, items: &[Item]) -> Vec<Key> {
        let keys = items.iter().filter_map(|item| match item {
            Item::Child { key, .. } if self.nodes.contains_key(key) => Some(key.clone()),
            _ => None,
        });
        keys.collect()
    }

    /// `key`'s subtree was `old` components and is its node's size now:
    /// so are the items naming it and its ancestors.
    fn resize(&mut self, key: &Key, old: usize) {
        let Some(new) = self.nodes.get(key).map(|n| n.size) else {
            return;
        };
        let mut key = key.clone();
        while let Some(node) = self.nodes.get(&key) {
            let (size, is_shown) = (node.size, node.value.is_some());
            let (slot, parent) = (node.slot, node.parent.clone());
            let items = match &parent {
                Some(p) => self.nodes.get_mut(p).map(|n| &mut n.items),
                None => Some(&mut self.top),
            };
            if let Some(Item::Child {
                size: s, shown: sh, ..
            }) = items.and_then(|items| items.get_mut(slot))
            {
                (*s, *sh) = (size, is_shown);
            }
            let Some(node) = parent.as_ref().and_then(|p| self.nodes.get_mut(p)) else {
                return;
            };
            node.size = (node.size + new).saturating_sub(old);
            key = parent.unwrap_or_default();
        }
    }

    /// Where `key`'s component is (or would be) in the surface's list.
    fn position(&self, key: &Key) -> Option<usize> {
        let mut pos = 0;
        let mut node = self.nodes.get(key)?;
        loop {
            let items = match &node.parent {
                Some(p) => {
                    let parent = self.nodes.get(p)?;
                    pos += usize::from(parent.value.is_some());
                    &parent.items
                }
                None => &self.top,
            };
            pos += items.get(..node.slot)?.iter().map(size).sum::<usize>();
            match &node.parent {
                Some(p) => node = self.nodes.get(p)?,
                None => return Some(pos),
            }
        }
    }

    /// The `add`s of a new subtree's components, in order.
    fn push_adds(&self, key: &Key, ops: &mut Vec<Value>) -> Option<()> {
        let mut components = Vec::new();
        let node = self.nodes.get(key)?;
        components.extend(node.value.clone());
        self.push_components(&node.items, &mut components);
        let start = self.position(key)?;
        for (i, component) in components.into_iter().enumerate() {
            let path = ["/components/", &(start + i).to_string()].concat();
            ops.push(op("add", path, Some(component)));
        }
        Some(())
    }
}

/// The slot and `at_ref` where `items` name `key`, when they name it
/// exactly once.
fn named_once<'i>(items: &'i [Item], key: &Key) -> Option<(usize, &'i str)> {
    let mut named = items
        .iter()
        .enumerate()
        .filter_map(|(slot, item)| match item {
            Item::Child { key: k, at_ref, .. } if k == key => Some((slot, at_ref.as_str())),
            _ => None,
        });
    match (named.next(), named.next()) {
        (Some(found), None) => Some(found),
        _ => None,
    }
}

/// How many of the surface's components an item gives.
fn size(item: &Item) -> usize {
    match item {
        Item::Child { size, .. } => *size,
        Item::Slot(Some(_)) => 1,
        _ => 0,
    }
}

/// Whether an item names a component in the surface.
fn shown(item: &Item) -> bool {
    matches!(item, Item::Child { shown: true, .. })
}

/// The operations taking the component at `pos` from `old` to `new`: the
/// `add`s of new children ids when nothing else changed, else a `replace`.
fn value_ops(pos: usize, old: Value, new: Value, ops: &mut Vec<Value>) {
    if old == new {
        return;
    }
    let mut path = "/components".to_string();
    pointer::push_index(&mut path, pos);
    let (Some(before), Some(after)) = (old.as_object(), new.as_object()) else {
        return ops.push(op("replace", path, Some(new)));
    };
    let rest_same = before.len() == after.len()
        && before
            .iter()
            .all(|(k, v)| k == "children" || after.get(k) == Some(v));
    let ids = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let (was, now) = (ids(&old["children"]), ids(&new["children"]));
    let mut inserted = Vec::new();
    let mut rest = was.iter().peekable();
    for (k, id) in now.iter().enumerate() {
        if rest.peek() == Some(&id) {
            rest.next();
        } else {
            inserted.push((k, id));
        }
    }
    if !rest_same || rest.peek().is_some() || !before.contains_key("children") {
        return ops.push(op("replace", path, Some(new)));
    }
    path.push_str("/children");
    for (k, id) in inserted {
        let mut at_k = path.clone();
        pointer::push_index(&mut at_k, k);
        ops.push(op("add", at_k, Some(id.clone())));
    }
}

/// The operations taking data `old` to `new` where they differ along
/// `path` (only there can a write have changed them), at `at`.
fn data_along(old: &Value, new: &Value, path: &[String], at: String, ops: &mut Vec<Value>) {
    let Some((segment, rest)) = path.split_first() else {
        return shown::diff(old, new, &at, ops);
    };
    let same_kind = match (old, new) {
        (Value::Object(_), Value::Object(_)) => true,
        (Value::Array(a), Value::Array(b)) => a.len() == b.len(),
        _ => false,
    };
    if !same_kind {
        return shown::diff(old, new, &at, ops);
    }
    let mut at_child = at;
    pointer::push(&mut at_child, segment);
    match (member(old, segment), member(new, segment)) {
        (Some(old), Some(new)) => data_along(old, new, rest, at_child, ops),
        (None, Some(new)) => ops.push(op("add", at_child, Some(new.clone()))),
        (Some(_), None) => ops.push(op("remove", at_child, None)),
        (None, None) => {}
    }
}

/// A member of an object, or an item of an array.
fn member<'v>(value: &'v Value, segment: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) => map.get(segment),
        Value::Array(items) => pointer::array_index(segment).and_then(|i| items.get(i)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2ui::import::MAX_COMPONENTS;
    use crate::a2ui::messages::{self, Model};

    fn define(components: Vec<Value>) -> Value {
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}})
    }

    fn text(id: &str) -> Value {
        json!({"id": id, "component": "Text", "text": id})
    }

    /// Applies `message` to the surface, then follows it in `tree`:
    /// whether it was followed in place, and the tree equal to the whole
    /// walk's either way.
    fn follow(model: &mut Model, tree: &mut Tree, message: Value) -> bool {
        let mut notes = Vec::new();
        messages::apply(model, &message, "", &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        let state = &mut model.surfaces[0];
        let touched = core::mem::take(&mut state.touched);
        let data = state.data.clone();
        let in_place = tree.update(state, &touched, &data).is_some();
        let whole = Tree::new(state);
        if !in_place {
            *tree = whole.clone();
        }
        assert_eq!(tree.components(), whole.components(), "after {message}");
        assert_eq!(tree.notes(state), whole.notes(state), "after {message}");
        in_place
    }

    #[test]
    fn components_defined_past_the_count_limit_are_followed_in_place() {
        // root names c0.. (c7 not yet defined) then box, which the limit
        // cuts at its first child, then late0..: box's children and root's
        // after box are past the cut.
        let early = MAX_COMPONENTS - 1;
        let c = |i: usize| format!("c{i}");
        let mut root_children: Vec<String> = (0..early).map(c).collect();
        root_children.push("box".into());
        root_children.extend((0..4).map(|i| format!("late{i}")));
        let mut model = Model::default();
        let mut notes = Vec::new();
        let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}});
        messages::apply(&mut model, &create, "", &mut notes);
        let mut first =
            vec![json!({"id": "root", "component": "Column", "children": root_children})];
        first.extend((0..early).filter(|&i| i != 7).map(|i| text(&c(i))));
        first.push(json!({"id": "box", "component": "Column", "children": ["b0", "b1", "b2"]}));
        first.push(text("b0"));
        messages::apply(&mut model, &define(first), "", &mut notes);
        let mut tree = Tree::new(&model.surfaces[0]);
        model.surfaces[0].touched.clear();
        assert_eq!(tree.count, MAX_COMPONENTS + 1, "the limit is reached");
        // Past the cut, in the cut component and in its ancestor: left out,
        // in place, whatever they hold.
        assert!(follow(&mut model, &mut tree, define(vec![text("b1")])));
        assert!(follow(&mut model, &mut tree, define(vec![text("late2")])));
        let column = json!({"id": "late0", "component": "Column", "children": ["deep"]});
        assert!(follow(
            &mut model,
            &mut tree,
            define(vec![column, text("deep")])
        ));
        let write = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 1}});
        assert!(follow(&mut model, &mut tree, write));
        // Defined again: nothing changes, in place.
        assert!(follow(&mut model, &mut tree, define(vec![text("b1")])));
        // Before the cut: it takes a place the limit gave another.
        assert!(!follow(&mut model, &mut tree, define(vec![text(&c(7))])));
        assert!(tree.components().iter().any(|v| v["id"] == "c7"));
        assert!(follow(&mut model, &mut tree, define(vec![text("b2")])));
    }
}
