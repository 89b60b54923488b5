//! The morph over the live DOM (browser only). The algorithm is described in
//! the crate docs; this file follows them step by step.

use alloc::string::String;
use core::sync::atomic::{AtomicU32, Ordering};
use alloc::vec::Vec;

use js_sys::{Map, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Document, DocumentFragment, Element, HtmlDialogElement, HtmlElement, HtmlInputElement,
    HtmlOptionElement, HtmlTemplateElement, HtmlTextAreaElement, Node, NodeList,
    ScrollIntoViewOptions, ScrollLogicalPosition,
};

use crate::keys::{key, IdSet, Keys, KEY_ATTRIBUTES};
use crate::rules;

/// The attribute that outlines a changed element for a while.
pub const OUTLINE_ATTRIBUTE: &str = "data-morph-changed";

const KEYED: &str = "[id],[data-section-id],[data-component-id]";

#[wasm_bindgen]
extern "C" {
    /// A node seen as having `moveBefore` (checked before use).
    #[wasm_bindgen(extends = Node)]
    type Movable;

    /// `Node.prototype.moveBefore`: moves a connected node keeping its state
    /// (focus, iframe documents, media playback, scroll, animations).
    #[wasm_bindgen(method, js_name = moveBefore, catch)]
    fn move_before(this: &Movable, node: &Node, child: Option<&Node>) -> Result<(), JsValue>;
}

/// Where the server's `open` for a `<details>` or `<dialog>`, as last
/// applied, is kept on the element, to tell the person's toggling from the
/// server's.
const SERVER_OPEN: &str = "__morphServerOpen";

/// Tells one morph's outlines from the next.
static OUTLINE_STAMP: AtomicU32 = AtomicU32::new(0);

/// How to morph.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Morph the target itself instead of its children.
    pub outer: bool,
    /// Outline changed elements with [`OUTLINE_ATTRIBUTE`] for this many
    /// milliseconds (0: no outline).
    pub outline_ms: u32,
    /// Scroll the last changed element into view.
    pub follow: bool,
    /// Sections (`data-section-id`) known unchanged: matched, never entered.
    pub skip: Vec<String>,
}

/// Parses `html` inert and strips whatever could run. A whole document
/// yields its `<body>`; a fragment yields a template's content. Neither runs
/// scripts nor loads anything until inserted.
pub fn parse(doc: &Document, html: &str) -> Option<Node> {
    let template: HtmlTemplateElement = doc.create_element("template").ok()?.dyn_into().ok()?;
    let root: Node = if rules::is_whole_document(html) {
        // A template drops <html>, <head> and <body> but keeps their
        // content; the preview wants the body's only, so parse the document
        // into an inert <html> element and take its body.
        let html_el = doc.create_element("html").ok()?;
        html_el.set_inner_html(html);
        html_el
            .query_selector("body")
            .ok()
            .flatten()
            .map(Node::from)
            .unwrap_or_else(|| html_el.into())
    } else {
        template.set_inner_html(html);
        template.content().into()
    };
    sanitize(&root);
    Some(root)
}

fn select_all(root: &Node, selector: &str) -> Option<NodeList> {
    if let Some(el) = root.dyn_ref::<Element>() {
        el.query_selector_all(selector).ok()
    } else if let Some(fragment) = root.dyn_ref::<DocumentFragment>() {
        fragment.query_selector_all(selector).ok()
    } else {
        None
    }
}

fn elements(list: &Option<NodeList>) -> impl Iterator<Item = Element> + '_ {
    let len = list.as_ref().map_or(0, NodeList::length);
    (0..len).filter_map(move |i| list.as_ref()?.item(i)?.dyn_into().ok())
}

/// Removes `<script>`, `on*` handlers, `srcdoc`, unsafe URLs and href
/// animations from the parsed tree, template contents included.
fn sanitize(root: &Node) {
    for el in elements(&select_all(root, "*")) {
        let name = el.local_name();
        if rules::is_forbidden_element(&name)
            || rules::is_forbidden_animation(&name, el.get_attribute("attributeName").as_deref())
        {
            el.remove();
            continue;
        }
        if let Some(template) = el.dyn_ref::<HtmlTemplateElement>() {
            sanitize(&template.content());
        }
        let attrs = el.attributes();
        for i in (0..attrs.length()).rev() {
            if let Some(attr) = attrs.item(i) {
                let name = attr.name();
                if !rules::attribute_allowed(&name, &attr.value()) {
                    let _ = el.remove_attribute(&name);
                }
            }
        }
    }
}

fn element_key(el: &Element) -> Option<String> {
    KEY_ATTRIBUTES.iter().enumerate().find_map(|(kind, attr)| {
        el.get_attribute(attr)
            .filter(|v| !v.is_empty())
            .map(|v| key(kind, &v))
    })
}

/// Per-node facts: the node's own key, and its id set.
struct Info {
    key: Option<u32>,
    set: IdSet,
}

/// Where the preferred match search stands (idiomorph's `softMatch`).
enum Soft {
    None,
    Found(Node),
    /// Two upcoming new siblings match here: leave this stretch to them.
    Blocked,
}

/// Attributes whose change moves a form control's live state.
const VALUE: u8 = 1;
const CHECKED: u8 = 2;
const SELECTED: u8 = 4;

struct Morph<'a> {
    doc: Document,
    options: &'a Options,
    /// The old tree's boundary: ancestor walks stop here.
    root: Node,
    keys: Keys,
    /// Node to index into `facts`, for keyed nodes and their ancestors.
    index: Map,
    facts: Vec<Info>,
    /// Old elements by persistent key number.
    old_by_key: Vec<Option<Element>>,
    pantry: Option<Element>,
    has_move_before: bool,
    active: Option<Element>,
    changed: Vec<Element>,
}

/// Morphs `target` toward the parsed `new_root` (from [`parse`]); returns
/// the elements that changed (empty unless `options` outline or follow).
pub fn morph(target: &Element, new_root: &Node, options: &Options) -> Vec<Element> {
    if options.outer {
        match target.parent_node() {
            Some(parent) => {
                let start = Some(target.clone().into());
                let end = target.next_sibling();
                morph_range(target, parent, start, end, new_root, options)
            }
            None => Vec::new(),
        }
    } else {
        let start = target.first_child();
        morph_range(
            target,
            target.clone().into(),
            start,
            None,
            new_root,
            options,
        )
    }
}

/// Appends the parsed `new_root`'s nodes to `target`'s children (a section
/// the preview has not shown yet), moving keyed nodes as [`morph`] does.
pub fn append(target: &Element, new_root: &Node, options: &Options) -> Vec<Element> {
    let inner = Options {
        outer: false,
        ..options.clone()
    };
    morph_range(target, target.clone().into(), None, None, new_root, &inner)
}

/// The sections (`data-section-id`) under `root`, with their keys.
pub fn sections(root: &Node) -> impl Iterator<Item = (String, Element)> {
    let list = select_all(root, "[data-section-id]");
    let len = list.as_ref().map_or(0, NodeList::length);
    (0..len).filter_map(move |i| {
        let el: Element = list.as_ref()?.item(i)?.dyn_into().ok()?;
        Some((el.get_attribute("data-section-id")?, el))
    })
}

/// Morphs the old children of `root` from `start` up to `end` (the subtree
/// of `target`) toward the children of `new_root`.
fn morph_range(
    target: &Element,
    root: Node,
    start: Option<Node>,
    end: Option<Node>,
    new_root: &Node,
    options: &Options,
) -> Vec<Element> {
    let Some(doc) = target.owner_document() else {
        return Vec::new();
    };
    let active = doc.active_element().filter(|a| target.contains(Some(a)));
    let saved = Saved::take(&doc, target, active.as_ref());
    let mut m = Morph {
        has_move_before: Reflect::has(&root, &"moveBefore".into()).unwrap_or(false),
        doc,
        options,
        root: root.clone(),
        keys: Keys::default(),
        index: Map::new(),
        facts: Vec::new(),
        old_by_key: Vec::new(),
        pantry: None,
        active,
        changed: Vec::new(),
    };
    m.index_trees(target, new_root);
    m.morph_children(&root, new_root, start, end.as_ref());
    if let Some(pantry) = m.pantry.take() {
        pantry.remove();
    }
    record_unseen_open(&root);
    saved.restore(&m.doc);
    m.finish()
}

impl Morph<'_> {
    /// Interns every key of both trees (old first), then builds the id
    /// sets: each persistent key is added to its element and every ancestor
    /// below the tree's root.
    fn index_trees(&mut self, target: &Element, new_root: &Node) {
        let mut old: Vec<Element> = elements(&select_all(target, KEYED)).collect();
        if self.options.outer && element_key(target).is_some() {
            old.push(target.clone());
        }
        let new: Vec<Element> = elements(&select_all(new_root, KEYED)).collect();
        let mut numbered = Vec::with_capacity(old.len() + new.len());
        for (list, is_old) in [(&old, true), (&new, false)] {
            for el in list {
                if let Some(k) = element_key(el) {
                    let id = self.keys.intern(&k, &el.tag_name(), is_old);
                    numbered.push((el.clone(), id, is_old));
                }
            }
        }
        self.old_by_key.resize(self.keys.len(), None);
        for (el, id, is_old) in numbered {
            if let Some(info) = self.facts_mut(&el) {
                info.key = Some(id);
            }
            if !self.keys.persistent(id) {
                continue;
            }
            if is_old {
                if let Some(slot) = self.old_by_key.get_mut(id as usize) {
                    *slot = Some(el.clone());
                }
            }
            let stop: Node = if is_old {
                self.root.clone()
            } else {
                new_root.clone()
            };
            let mut node: Option<Node> = Some(el.into());
            while let Some(n) = node.filter(|n| *n != stop) {
                if let Some(info) = self.facts_mut(&n) {
                    info.set.insert(id);
                }
                node = n.parent_node();
            }
        }
    }

    fn facts_mut(&mut self, node: &Node) -> Option<&mut Info> {
        let at = match self.index.get(node).as_f64() {
            Some(i) => i as usize,
            None => {
                self.index
                    .set(node, &JsValue::from(self.facts.len() as u32));
                self.facts.push(Info {
                    key: None,
                    set: IdSet::default(),
                });
                self.facts.len() - 1
            }
        };
        self.facts.get_mut(at)
    }

    fn facts(&self, node: &Node) -> Option<&Info> {
        self.facts.get(self.index.get(node).as_f64()? as usize)
    }

    /// Makes the children of `old_parent` from `start` up to `end` match the
    /// children of `new_parent` (idiomorph's `morphChildren`).
    fn morph_children(
        &mut self,
        old_parent: &Node,
        new_parent: &Node,
        start: Option<Node>,
        end: Option<&Node>,
    ) {
        let mut cursor = start;
        let mut next_new = new_parent.first_child();
        while let Some(new_child) = next_new {
            next_new = new_child.next_sibling();
            if let Some(at) = cursor.clone().filter(|c| Some(c) != end) {
                if let Some(best) = self.find_best_match(&new_child, &at, end) {
                    self.remove_between(&at, &best);
                    self.morph_node(&best, &new_child);
                    cursor = best.next_sibling();
                    continue;
                }
            }
            if let Some(old) = self.persistent_old(&new_child) {
                self.detach_key(&old);
                self.insert(old_parent, &old, cursor.as_ref());
                self.morph_node(&old, &new_child);
                cursor = old.next_sibling();
                continue;
            }
            let created = self.create(old_parent, &new_child, cursor.as_ref());
            cursor = created.next_sibling();
        }
        while let Some(old) = cursor.filter(|c| Some(c) != end) {
            cursor = old.next_sibling();
            self.remove(&old);
        }
    }

    /// The old sibling (from `start`, before `end`) that `new` should
    /// become: the first one sharing an id set with it, else the first
    /// plain match holding no persistent key, unless two upcoming new
    /// siblings match old nodes first.
    fn find_best_match(&self, new: &Node, start: &Node, end: Option<&Node>) -> Option<Node> {
        let mut soft = Soft::None;
        let mut next_new = new.next_sibling();
        let mut sibling_matches = 0;
        let mut cursor = Some(start.clone());
        while let Some(old) = cursor.filter(|c| Some(c) != end) {
            if self.is_soft_match(&old, new) {
                if self.is_id_set_match(&old, new) {
                    return Some(old);
                }
                if matches!(soft, Soft::None) && self.facts(&old).map_or(true, |f| f.set.is_empty())
                {
                    soft = Soft::Found(old.clone());
                }
            }
            if matches!(soft, Soft::None) {
                if let Some(upcoming) = next_new.as_ref().filter(|n| self.is_soft_match(&old, n)) {
                    sibling_matches += 1;
                    next_new = upcoming.next_sibling();
                    if sibling_matches >= 2 {
                        soft = Soft::Blocked;
                    }
                }
            }
            // Looking past the focused element would move it: stop here.
            if self.active.as_ref().is_some_and(|a| old.contains(Some(a))) {
                break;
            }
            cursor = old.next_sibling();
        }
        match soft {
            Soft::Found(node) => Some(node),
            Soft::None | Soft::Blocked => None,
        }
    }

    /// Same node type and tag, and an old key (if any) equal to the new one.
    fn is_soft_match(&self, old: &Node, new: &Node) -> bool {
        let kind = old.node_type();
        if kind != new.node_type() {
            return false;
        }
        if kind != Node::ELEMENT_NODE {
            return true;
        }
        let (Some(o), Some(n)) = (old.dyn_ref::<Element>(), new.dyn_ref::<Element>()) else {
            return false;
        };
        if o.tag_name() != n.tag_name() {
            return false;
        }
        match self.facts(old).and_then(|f| f.key) {
            None => true,
            Some(k) => self.facts(new).and_then(|f| f.key) == Some(k),
        }
    }

    fn is_id_set_match(&self, old: &Node, new: &Node) -> bool {
        match (self.facts(old), self.facts(new)) {
            (Some(o), Some(n)) => o.set.intersects(&n.set),
            _ => false,
        }
    }

    /// The old element carrying `new`'s key, if that key persists.
    fn persistent_old(&self, new: &Node) -> Option<Element> {
        let key = self.facts(new)?.key?;
        if !self.keys.persistent(key) {
            return None;
        }
        self.old_by_key.get(key as usize)?.clone()
    }

    /// The element leaves its old place: its ancestors no longer hold its key.
    fn detach_key(&mut self, el: &Element) {
        let Some(key) = self.facts(el).and_then(|f| f.key) else {
            return;
        };
        let mut node = el.parent_node();
        while let Some(n) = node {
            if let Some(at) = self.index.get(&n).as_f64() {
                if let Some(info) = self.facts.get_mut(at as usize) {
                    info.set.remove(key);
                }
            }
            node = n.parent_node();
        }
    }

    /// Inserts or moves `node` before `before`, keeping its state where the
    /// browser can (`moveBefore`).
    fn insert(&self, parent: &Node, node: &Node, before: Option<&Node>) {
        if self.has_move_before
            && node.is_connected()
            && parent
                .unchecked_ref::<Movable>()
                .move_before(node, before)
                .is_ok()
        {
            return;
        }
        let _ = parent.insert_before(node, before);
    }

    fn remove_between(&mut self, from: &Node, to: &Node) {
        let mut cursor = Some(from.clone());
        while let Some(old) = cursor.filter(|c| c != to) {
            cursor = old.next_sibling();
            self.remove(&old);
        }
    }

    /// Removes an old node, or parks it in the pantry while it still holds
    /// a persistent key that a later new node will ask for.
    fn remove(&mut self, old: &Node) {
        if let Some(parent) = old.parent_node() {
            self.mark(&parent);
        }
        let parked = self.facts(old).is_some_and(|f| !f.set.is_empty());
        let pantry = if parked { self.pantry() } else { None };
        match pantry {
            Some(pantry) => self.insert(&pantry, old, None),
            None => {
                if let Some(parent) = old.parent_node() {
                    let _ = parent.remove_child(old);
                }
            }
        }
    }

    /// A hidden element just outside the body, so parked nodes stay
    /// connected and `moveBefore` keeps their state.
    fn pantry(&mut self) -> Option<Element> {
        if self.pantry.is_none() {
            let pantry = self.doc.create_element("div").ok()?;
            let _ = pantry.set_attribute("hidden", "");
            match self.doc.body() {
                Some(body) => {
                    let _ = body.after_with_node_1(&pantry);
                }
                None => {
                    let _ = self.doc.document_element()?.append_child(&pantry);
                }
            }
            self.pantry = Some(pantry);
        }
        self.pantry.clone()
    }

    /// Inserts a node for `new`: the new node itself when it holds no
    /// persistent key (it is sanitized and inert until now), else an empty
    /// shell morphed toward it, so the keyed old nodes move into it.
    fn create(&mut self, parent: &Node, new: &Node, before: Option<&Node>) -> Node {
        let shell = new
            .dyn_ref::<Element>()
            .filter(|_| self.facts(new).is_some_and(|f| !f.set.is_empty()))
            .and_then(|el| {
                self.doc
                    .create_element_ns(el.namespace_uri().as_deref(), &el.local_name())
                    .ok()
            });
        match shell {
            Some(shell) => {
                self.insert(parent, &shell, before);
                self.mark(&shell);
                self.morph_node(&shell, new);
                shell.into()
            }
            None => {
                self.insert(parent, new, before);
                self.mark(new);
                new.clone()
            }
        }
    }

    /// Makes `old` like `new`: attributes, live form state, then children.
    fn morph_node(&mut self, old: &Node, new: &Node) {
        let (Some(o), Some(n)) = (old.dyn_ref::<Element>(), new.dyn_ref::<Element>()) else {
            if old.node_value() != new.node_value() {
                old.set_node_value(new.node_value().as_deref());
                self.mark(old);
            }
            return;
        };
        if self.is_skipped(n) {
            return;
        }
        let tag = o.tag_name();
        let changed = self.morph_attributes(o, n, &tag);
        match tag.as_str() {
            "INPUT" => {
                if let Some(input) = o.dyn_ref::<HtmlInputElement>() {
                    if changed & VALUE != 0 {
                        input.set_value(&n.get_attribute("value").unwrap_or_default());
                    }
                    if changed & CHECKED != 0 {
                        input.set_checked(n.has_attribute("checked"));
                    }
                }
            }
            "OPTION" => {
                if let Some(option) = o.dyn_ref::<HtmlOptionElement>() {
                    if changed & SELECTED != 0 {
                        option.set_selected(n.has_attribute("selected"));
                    }
                }
            }
            "DETAILS" | "DIALOG" => self.morph_open(o, n),
            "TEXTAREA" => {
                // Its text is its default value: typed text stays unless the
                // server's default changed.
                let server = n.text_content();
                if o.text_content() != server {
                    self.morph_children(old, new, old.first_child(), None);
                    if let Some(area) = o.dyn_ref::<HtmlTextAreaElement>() {
                        area.set_value(&server.unwrap_or_default());
                    }
                }
                return;
            }
            _ => {}
        }
        self.morph_children(old, new, old.first_child(), None);
    }

    fn is_skipped(&self, new: &Element) -> bool {
        !self.options.skip.is_empty()
            && new
                .get_attribute("data-section-id")
                .is_some_and(|k| self.options.skip.contains(&k))
    }

    /// Copies `new`'s attributes onto `old` and removes the others; returns
    /// which form-state attributes changed. `open` on `<details>` and
    /// `<dialog>` is left to [`Self::morph_open`]; the outline stays.
    fn morph_attributes(&mut self, old: &Element, new: &Element, tag: &str) -> u8 {
        let open_is_state = tag == "DETAILS" || tag == "DIALOG";
        let mut changed = 0;
        let mut any = false;
        let attrs = new.attributes();
        for i in 0..attrs.length() {
            let Some(attr) = attrs.item(i) else { continue };
            let name = attr.name();
            if open_is_state && name == "open" {
                continue;
            }
            let value = attr.value();
            let before = old.get_attribute(&name);
            if before.as_deref() == Some(value.as_str()) {
                continue;
            }
            let _ = match attr.namespace_uri() {
                Some(ns) => old.set_attribute_ns(Some(&ns), &name, &value),
                None => old.set_attribute(&name, &value),
            };
            changed |= state_flag(&name, before.is_none());
            any = true;
        }
        let attrs = old.attributes();
        for i in (0..attrs.length()).rev() {
            let Some(attr) = attrs.item(i) else { continue };
            let name = attr.name();
            if name == OUTLINE_ATTRIBUTE || (open_is_state && name == "open") {
                continue;
            }
            if !new.has_attribute(&name) {
                let _ = old.remove_attribute(&name);
                changed |= state_flag(&name, true);
                any = true;
            }
        }
        if any {
            self.mark(old);
        }
        changed
    }

    /// `open` follows the server only when the server changed it; a
    /// disclosure or dialog the person opened or closed stays so otherwise.
    fn morph_open(&mut self, old: &Element, new: &Element) {
        let server = new.has_attribute("open");
        let before = Reflect::get(old, &SERVER_OPEN.into())
            .ok()
            .and_then(|v| v.as_bool());
        let before = before.unwrap_or_else(|| old.has_attribute("open"));
        if server != before {
            match old.dyn_ref::<HtmlDialogElement>() {
                Some(dialog) if !server => dialog.close(),
                _ => {
                    let _ = old.toggle_attribute_with_force("open", server);
                }
            }
            self.mark(old);
        }
        let _ = Reflect::set(old, &SERVER_OPEN.into(), &JsValue::from_bool(server));
    }

    /// Notes a change at `node` (its element, or its parent for text),
    /// unless the change is at the morph's root.
    fn mark(&mut self, node: &Node) {
        if self.options.outline_ms == 0 && !self.options.follow {
            return;
        }
        let el = match node.dyn_ref::<Element>() {
            Some(el) => Some(el.clone()),
            None => node.parent_element(),
        };
        if let Some(el) = el.filter(|e| **e != self.root) {
            self.changed.push(el);
        }
    }

    /// Outlines the changed elements and follows the last one.
    fn finish(self) -> Vec<Element> {
        let changed = self.changed;
        if let (Some(last), true) = (changed.last(), self.options.follow) {
            let opts = ScrollIntoViewOptions::new();
            opts.set_block(ScrollLogicalPosition::Nearest);
            last.scroll_into_view_with_scroll_into_view_options(&opts);
        }
        let ms = self.options.outline_ms;
        if ms > 0 && !changed.is_empty() {
            let stamp = decimal(OUTLINE_STAMP.fetch_add(1, Ordering::Relaxed));
            for el in &changed {
                let _ = el.set_attribute(OUTLINE_ATTRIBUTE, &stamp);
            }
            let marked = changed.clone();
            let clear = Closure::once_into_js(move || {
                for el in &marked {
                    if el.get_attribute(OUTLINE_ATTRIBUTE).as_deref() == Some(stamp.as_str()) {
                        let _ = el.remove_attribute(OUTLINE_ATTRIBUTE);
                    }
                }
            });
            if let Some(win) = self.doc.default_view() {
                let _ = win.set_timeout_with_callback_and_timeout_and_arguments_0(
                    clear.unchecked_ref(),
                    ms.min(i32::MAX as u32) as i32,
                );
            }
        }
        changed
    }
}

/// `n` in decimal (without `core::fmt`, which the wasm leaves out).
fn decimal(mut n: u32) -> String {
    let mut digits = alloc::vec::Vec::new();
    loop {
        digits.push(b'0' + (n % 10) as u8);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

fn state_flag(name: &str, presence_changed: bool) -> u8 {
    match name {
        "value" => VALUE,
        "checked" if presence_changed => CHECKED,
        "selected" if presence_changed => SELECTED,
        _ => 0,
    }
}

/// Records the server's `open` for disclosures and dialogs the morph has not
/// seen yet (new ones, or the page's first render): at this moment their
/// live state is the server's.
fn record_unseen_open(root: &Node) {
    let key = JsValue::from(SERVER_OPEN);
    for el in elements(&select_all(root, "details,dialog")) {
        if !Reflect::has(&el, &key).unwrap_or(true) {
            let _ = Reflect::set(&el, &key, &JsValue::from_bool(el.has_attribute("open")));
        }
    }
}

/// Focus, caret and scroll as the person left them.
struct Saved {
    active: Option<Element>,
    /// `selectionStart`, `selectionEnd`, `selectionDirection` of a text
    /// input or textarea.
    range: Option<(u32, u32, String)>,
    /// Anchor and focus of the selection inside a contenteditable.
    selection: Option<(Node, u32, Node, u32)>,
    scroll: Option<(f64, f64)>,
}

impl Saved {
    fn take(doc: &Document, target: &Element, active: Option<&Element>) -> Saved {
        let range = active.and_then(|a| {
            if let Some(i) = a.dyn_ref::<HtmlInputElement>() {
                Some((
                    i.selection_start().ok()??,
                    i.selection_end().ok()??,
                    i.selection_direction().ok()??,
                ))
            } else {
                let t = a.dyn_ref::<HtmlTextAreaElement>()?;
                Some((
                    t.selection_start().ok()??,
                    t.selection_end().ok()??,
                    t.selection_direction().ok()??,
                ))
            }
        });
        // The document's selection (a caret in a contenteditable, text the
        // person selected); an input's own selection is `range`'s.
        let selection = doc
            .get_selection()
            .ok()
            .flatten()
            .filter(|_| range.is_none())
            .and_then(|s| {
                let anchor = s.anchor_node()?;
                let focus = s.focus_node()?;
                target
                    .contains(Some(&anchor))
                    .then(|| (anchor, s.anchor_offset(), focus, s.focus_offset()))
            });
        let scroll = doc
            .default_view()
            .and_then(|w| Some((w.scroll_x().ok()?, w.scroll_y().ok()?)));
        Saved {
            active: active.cloned(),
            range,
            selection,
            scroll,
        }
    }

    fn restore(self, doc: &Document) {
        if let Some(active) = self.active.filter(|a| a.is_connected()) {
            if doc.active_element().as_ref() != Some(&active) {
                if let Some(el) = active.dyn_ref::<HtmlElement>() {
                    let _ = el.focus();
                }
            }
            if let Some((start, end, dir)) = self.range {
                if let Some(i) = active.dyn_ref::<HtmlInputElement>() {
                    let _ = i.set_selection_range_with_direction(start, end, &dir);
                } else if let Some(t) = active.dyn_ref::<HtmlTextAreaElement>() {
                    let _ = t.set_selection_range_with_direction(start, end, &dir);
                }
            }
        }
        if let Some((anchor, a_off, focus, f_off)) = self.selection {
            if anchor.is_connected() && focus.is_connected() {
                let moved = |sel: &web_sys::Selection| {
                    sel.anchor_node().as_ref() != Some(&anchor)
                        || sel.focus_node().as_ref() != Some(&focus)
                        || sel.anchor_offset() != a_off
                        || sel.focus_offset() != f_off
                };
                if let Some(sel) = doc.get_selection().ok().flatten().filter(moved) {
                    let _ = sel.set_base_and_extent(
                        &anchor,
                        a_off.min(node_length(&anchor)),
                        &focus,
                        f_off.min(node_length(&focus)),
                    );
                }
            }
        }
        if let (Some((x, y)), Some(win)) = (self.scroll, doc.default_view()) {
            if win.scroll_x().ok() != Some(x) || win.scroll_y().ok() != Some(y) {
                win.scroll_to_with_x_and_y(x, y);
            }
        }
    }
}

/// A node's length in the DOM's sense: UTF-16 units of text, or children.
fn node_length(node: &Node) -> u32 {
    match node.dyn_ref::<web_sys::CharacterData>() {
        Some(text) => text.length(),
        None => node.child_nodes().length(),
    }
}
