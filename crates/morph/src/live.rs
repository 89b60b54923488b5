//! The morph over the live DOM (browser only). The algorithm is described in
//! the crate docs; this file follows them step by step.

use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};

use js_sys::{JsString, Map, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Attr, Document, Element, FocusOptions, HtmlDialogElement, HtmlElement, HtmlInputElement,
    HtmlOptionElement, HtmlTemplateElement, HtmlTextAreaElement, Node, NodeList,
    ScrollIntoViewOptions, ScrollLogicalPosition, XPathResult,
};

use crate::keys::{IdSet, Keys, KEY_ATTRIBUTES};
use crate::rules;

/// The attribute that outlines a changed element for a while.
pub const OUTLINE_ATTRIBUTE: &str = "data-morph-changed";

const KEYED: &str = "[id],[data-section-id],[data-component-id]";

#[wasm_bindgen]
extern "C" {
    /// A node seen as having `moveBefore` (checked before use).
    #[wasm_bindgen(extends = Node)]
    type Movable;

    /// A node, element or attribute read through JS values: names, values
    /// and tags stay JS strings, compared with `===`, never copied into
    /// wasm memory.
    pub(crate) type Raw;

    #[wasm_bindgen(method, getter = tagName)]
    fn tag(this: &Raw) -> JsValue;
    #[wasm_bindgen(method, getter = nodeValue)]
    fn data(this: &Raw) -> JsValue;
    #[wasm_bindgen(method, setter = nodeValue)]
    fn set_data(this: &Raw, value: &JsValue);
    #[wasm_bindgen(method, getter)]
    fn name(this: &Raw) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn value(this: &Raw) -> JsValue;
    #[wasm_bindgen(method, setter = innerHTML, catch)]
    fn set_inner_html(this: &Raw, html: &JsString) -> Result<(), JsValue>;
    /// `outerHTML`, left a JS string.
    #[wasm_bindgen(method, getter = outerHTML)]
    pub(crate) fn outer_html(this: &Raw) -> JsString;
    #[wasm_bindgen(method, getter = ownerElement)]
    fn owner(this: &Raw) -> Option<Element>;
    #[wasm_bindgen(method, getter = namespaceURI)]
    fn namespace(this: &Raw) -> JsValue;
    #[wasm_bindgen(method, js_name = getAttribute)]
    fn attribute(this: &Raw, name: &JsValue) -> JsValue;
    #[wasm_bindgen(method, js_name = hasAttribute)]
    fn has(this: &Raw, name: &JsValue) -> bool;
    #[wasm_bindgen(method, js_name = setAttribute, catch)]
    fn set(this: &Raw, name: &JsValue, value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, js_name = setAttributeNS, catch)]
    fn set_ns(this: &Raw, ns: &JsValue, name: &JsValue, value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, js_name = removeAttribute)]
    fn unset(this: &Raw, name: &JsValue);

    /// A `Map` from nodes to indices, read without boxing the number.
    #[wasm_bindgen(extends = Map)]
    type Index;
    #[wasm_bindgen(method, js_name = get)]
    fn at(this: &Index, key: &JsValue) -> Option<u32>;

    /// An `<input>` or `<textarea>`: its value and selection (null where
    /// the type has none).
    type Field;
    #[wasm_bindgen(method, getter = selectionStart)]
    fn selection_start(this: &Field) -> Option<u32>;
    #[wasm_bindgen(method, getter = selectionEnd)]
    fn selection_end(this: &Field) -> Option<u32>;
    #[wasm_bindgen(method, getter = selectionDirection)]
    fn selection_direction(this: &Field) -> Option<String>;
    /// `value`: throws for a file input given anything but "".
    #[wasm_bindgen(method, setter = value, catch)]
    fn set_value(this: &Field, value: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(method, js_name = setSelectionRange, catch)]
    fn set_selection_range(this: &Field, start: u32, end: u32, dir: &str) -> Result<(), JsValue>;

    /// `Node.prototype.moveBefore`: moves a connected node keeping its state
    /// (focus, iframe documents, media playback, scroll, animations).
    #[wasm_bindgen(method, js_name = moveBefore, catch)]
    fn move_before(this: &Movable, node: &Node, child: Option<&Node>) -> Result<(), JsValue>;
}

pub(crate) fn raw(value: &JsValue) -> &Raw {
    value.unchecked_ref()
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
/// yields its `<body>`; a fragment, a `<body>` holding what a template
/// parsed. Neither runs
/// scripts nor loads anything until inserted.
pub fn parse(doc: &Document, html: &JsString) -> Option<Node> {
    // Casts are unchecked on purpose: `instanceof` fails across realms (a
    // node of a same-origin iframe's document is no instance of this
    // window's classes). Node types and tag names say what a node is.
    let template: HtmlTemplateElement = doc.create_element("template").ok()?.unchecked_into();
    // The HTML stays a JS string: only its first bytes cross into wasm.
    let head = String::from(html.trim_start().slice(0, 9));
    let root: Node = if rules::is_whole_document(&head) {
        // A template drops <html>, <head> and <body> but keeps their
        // content; the preview wants the body's only, so parse the document
        // into an <html> element of the template's inert document (one of
        // the live document would load images at once) and take its body.
        let inert = template.content().owner_document()?;
        let html_el = inert.create_element("html").ok()?;
        raw(&html_el).set_inner_html(html).ok()?;
        html_el
            .query_selector("body")
            .ok()
            .flatten()
            .map(Node::from)
            .unwrap_or_else(|| html_el.into())
    } else {
        // Parsed as a template (so table parts and the like survive), then
        // moved in one call into an element of the same inert document: an
        // element, unlike a fragment, can be an XPath context node.
        raw(&template).set_inner_html(html).ok()?;
        let content = template.content();
        let root = content.owner_document()?.create_element("body").ok()?;
        root.append_with_node_1(&content).ok()?;
        root.into()
    };
    sanitize(doc, &root);
    Some(root)
}

fn select_all(root: &Node, selector: &str) -> Option<NodeList> {
    if root.node_type() != Node::ELEMENT_NODE {
        return None;
    }
    root.unchecked_ref::<Element>()
        .query_selector_all(selector)
        .ok()
}

fn elements(list: &Option<NodeList>) -> impl Iterator<Item = Element> + '_ {
    let len = list.as_ref().map_or(0, NodeList::length);
    (0..len).filter_map(move |i| Some(list.as_ref()?.item(i)?.unchecked_into()))
}

/// The elements [`sanitize`] looks at (XPath, so the browser finds them
/// without a call per element).
const SUSPECT_ELEMENTS: &str = "descendant-or-self::*[local-name()='script' or local-name()='animate' or local-name()='set' or local-name()='template']";

/// The attributes [`sanitize`] looks at: `on*`, `srcdoc` and the URL
/// attributes. The HTML parser lowercases every attribute name these can be,
/// so the query compares lowercase; [`rules`] then decides, in any case.
const SUSPECT_ATTRIBUTES: &str = "descendant-or-self::*/@*[starts-with(name(),'on') or name()='srcdoc' or name()='href' or name()='src' or name()='action' or name()='formaction' or name()='xlink:href' or name()='data']";

/// The nodes an XPath expression selects from `root`, in document order.
fn snapshot(doc: &Document, xpath: &str, root: &Node) -> Vec<Node> {
    let Ok(found) = doc.evaluate_with_opt_callback_and_type(
        xpath,
        root,
        None,
        XPathResult::ORDERED_NODE_SNAPSHOT_TYPE,
    ) else {
        return Vec::new();
    };
    let len = found.snapshot_length().unwrap_or(0);
    (0..len)
        .filter_map(|i| found.snapshot_item(i).ok().flatten())
        .collect()
}

/// Removes `<script>`, `on*` handlers, `srcdoc`, unsafe URLs and href
/// animations from the parsed tree, template contents included.
fn sanitize(doc: &Document, root: &Node) {
    for node in snapshot(doc, SUSPECT_ELEMENTS, root) {
        let el: &Element = node.unchecked_ref();
        let name = el.local_name();
        if rules::is_forbidden_element(&name)
            || rules::is_forbidden_animation(&name, el.get_attribute("attributeName").as_deref())
        {
            el.remove();
        } else if name == "template" {
            let template: &HtmlTemplateElement = el.unchecked_ref();
            // A fragment is no XPath context node: clean its elements one
            // by one (each query includes the element itself).
            let mut child = template.content().first_child();
            while let Some(top) = child {
                child = top.next_sibling();
                if top.node_type() == Node::ELEMENT_NODE {
                    sanitize(doc, &top);
                }
            }
        }
    }
    for node in snapshot(doc, SUSPECT_ATTRIBUTES, root) {
        let attr: &Attr = node.unchecked_ref();
        let name = attr.name();
        // Only URL attributes need their value read.
        let value = match rules::is_url_attribute(&name) {
            true => attr.value(),
            false => String::new(),
        };
        if !rules::attribute_allowed(&name, &value) {
            if let Some(el) = raw(attr).owner() {
                let _ = el.remove_attribute(&name);
            }
        }
    }
}

/// Per-node facts: the node's own key, and its id set.
struct Info {
    key: Option<u32>,
    set: IdSet,
}

/// A new node as matching sees it.
struct Probe<'a> {
    kind: u16,
    /// `tagName` as a JS string (undefined for other nodes).
    tag: JsValue,
    /// Its key and id set, if it has either.
    facts: Option<&'a Info>,
}

impl Probe<'_> {
    fn holds_keys(&self) -> bool {
        self.facts.is_some_and(|f| !f.set.is_empty())
    }
}

/// Where the preferred match search stands (idiomorph's `softMatch`).
enum Soft {
    None,
    Found(Node),
    /// Two upcoming new siblings match here: leave this stretch to them.
    Blocked,
}

/// Elements with live state of their own, by `tagName` (see
/// [`Morph::special`]).
const INPUT: u8 = 1;
const OPTION: u8 = 2;
const DETAILS: u8 = 3;
const DIALOG: u8 = 5;
const TEXTAREA: u8 = 4;

/// Attributes whose change moves a form control's live state.
const VALUE: u8 = 1;
const CHECKED: u8 = 2;
const SELECTED: u8 = 4;

struct Morph<'a> {
    doc: Document,
    options: &'a Options,
    /// The old tree's boundary: ancestor walks stop here.
    root: Node,
    keys: Keys<JsValue>,
    /// Per key kind, key value to key number.
    key_names: [Index; 3],
    /// [`KEY_ATTRIBUTES`] as JS strings, made once.
    key_attributes: [JsValue; 3],
    next_key: u32,
    /// Node to index into `facts`, for keyed nodes and their ancestors.
    index: Index,
    facts: Vec<Info>,
    /// Old elements by persistent key number.
    old_by_key: Vec<Option<Element>>,
    pantry: Option<Element>,
    has_move_before: bool,
    /// `tagName` to INPUT, OPTION, DETAILS, DIALOG or TEXTAREA.
    special: Map,
    active: Option<Element>,
    changed: Vec<Element>,
    /// Elements inserted as they came (not morphed): their disclosures are
    /// recorded at the end.
    created: Vec<Element>,
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
        let el: Element = list.as_ref()?.item(i)?.unchecked_into();
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
    if unchanged(start.clone(), end.as_ref(), new_root) {
        return Vec::new();
    }
    let active = doc.active_element().filter(|a| target.contains(Some(a)));
    let saved = Saved::take(&doc, target, active.as_ref());
    let mut m = Morph {
        has_move_before: Reflect::has(&root, &"moveBefore".into()).unwrap_or(false),
        doc,
        options,
        root: root.clone(),
        keys: Keys::default(),
        key_names: [(); 3].map(|_| Map::new().unchecked_into()),
        key_attributes: KEY_ATTRIBUTES.map(JsValue::from),
        next_key: 0,
        index: Map::new().unchecked_into(),
        facts: Vec::new(),
        old_by_key: Vec::new(),
        pantry: None,
        special: special_tags(),
        active,
        changed: Vec::new(),
        created: Vec::new(),
    };
    m.index_trees(target, new_root);
    m.morph_children(&root, new_root, start, end.as_ref());
    if let Some(pantry) = m.pantry.take() {
        pantry.remove();
    }
    for node in core::mem::take(&mut m.created) {
        record_unseen_open(&node);
    }
    saved.restore(&m.doc);
    m.finish()
}

/// Whether the old nodes from `start` up to `end` equal the children of
/// `new_root` one for one (native comparisons): then there is nothing to do,
/// not even to index the keys.
fn unchanged(start: Option<Node>, end: Option<&Node>, new_root: &Node) -> bool {
    let mut old = start.filter(|o| Some(o) != end);
    let mut new = new_root.first_child();
    loop {
        match (old, new) {
            (None, None) => return true,
            (Some(o), Some(n)) if o.is_equal_node(Some(&n)) => {
                old = o.next_sibling().filter(|o| Some(o) != end);
                new = n.next_sibling();
            }
            _ => return false,
        }
    }
}

impl Morph<'_> {
    /// Interns every key of both trees (old first), then builds the id
    /// sets: each persistent key is added to its element and every ancestor
    /// below the tree's root.
    fn index_trees(&mut self, target: &Element, new_root: &Node) {
        let mut old: Vec<Element> = elements(&select_all(target, KEYED)).collect();
        if self.options.outer && self.element_key(target).is_some() {
            old.push(target.clone());
        }
        let new: Vec<Element> = elements(&select_all(new_root, KEYED)).collect();
        let mut numbered = Vec::with_capacity(old.len() + new.len());
        for (list, is_old) in [(&old, true), (&new, false)] {
            for el in list {
                if let Some(id) = self.element_key(el) {
                    self.keys.note(id, raw(el).tag(), is_old);
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

    /// The number of `el`'s key: its `id`, else `data-section-id`, else
    /// `data-component-id` (empty values are no key). Each kind has its own
    /// JS `Map` from value to number, so the text never leaves JS.
    fn element_key(&mut self, el: &Element) -> Option<u32> {
        for (names, attr) in self.key_names.iter().zip(&self.key_attributes) {
            let value = raw(el).attribute(attr);
            if !value.is_truthy() {
                continue;
            }
            if let Some(id) = names.at(&value) {
                return Some(id);
            }
            let id = self.next_key;
            self.next_key += 1;
            names.set(&value, &id.into());
            return Some(id);
        }
        None
    }

    fn facts_mut(&mut self, node: &Node) -> Option<&mut Info> {
        let at = match self.index.at(node) {
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
        self.facts.get(self.index.at(node)? as usize)
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
        let probe = self.probe(new);
        let mut soft = Soft::None;
        // The upcoming new sibling, read only once it is needed.
        let mut upcoming: Option<Option<(Probe<'_>, Node)>> = None;
        let mut sibling_matches = 0;
        let mut cursor = Some(start.clone());
        while let Some(old) = cursor.filter(|c| Some(c) != end) {
            let facts = self.facts(&old);
            if self.is_soft_match(&old, facts, &probe) {
                let shared = facts
                    .zip(probe.facts)
                    .is_some_and(|(o, n)| o.set.intersects(&n.set));
                if shared {
                    return Some(old);
                }
                if matches!(soft, Soft::None) && facts.map_or(true, |f| f.set.is_empty()) {
                    if !probe.holds_keys() {
                        // No id set match can come: this one is final.
                        return Some(old);
                    }
                    soft = Soft::Found(old.clone());
                }
            }
            if matches!(soft, Soft::None) {
                let next =
                    upcoming.get_or_insert_with(|| new.next_sibling().map(|n| (self.probe(&n), n)));
                if next
                    .as_ref()
                    .is_some_and(|(p, _)| self.is_soft_match(&old, facts, p))
                {
                    sibling_matches += 1;
                    *next = next
                        .take()
                        .and_then(|(_, n)| n.next_sibling())
                        .map(|n| (self.probe(&n), n));
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

    /// What matching needs to know of a new node, read once.
    fn probe(&self, new: &Node) -> Probe<'_> {
        let kind = new.node_type();
        Probe {
            kind,
            tag: match kind {
                Node::ELEMENT_NODE => raw(new).tag(),
                _ => JsValue::UNDEFINED,
            },
            facts: self.facts(new),
        }
    }

    fn holds_keys(&self, node: &Node) -> bool {
        self.facts(node).is_some_and(|f| !f.set.is_empty())
    }

    /// Same node type and tag, and an old key (if any) equal to the new one.
    fn is_soft_match(&self, old: &Node, old_facts: Option<&Info>, new: &Probe) -> bool {
        let kind = old.node_type();
        if kind != new.kind {
            return false;
        }
        if kind != Node::ELEMENT_NODE {
            return true;
        }
        if raw(old).tag() != new.tag {
            return false;
        }
        match old_facts.and_then(|f| f.key) {
            None => true,
            Some(k) => new.facts.and_then(|f| f.key) == Some(k),
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
            if let Some(at) = self.index.at(&n) {
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
        let shell = Some(new.unchecked_ref::<Element>())
            .filter(|_| new.node_type() == Node::ELEMENT_NODE && self.holds_keys(new))
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
                if new.node_type() == Node::ELEMENT_NODE {
                    self.created.push(new.clone().unchecked_into());
                }
                new.clone()
            }
        }
    }

    /// Makes `old` like `new`: attributes, live form state, then children.
    fn morph_node(&mut self, old: &Node, new: &Node) {
        // Soft-matched or created from `new`: both have the same node type.
        if old.node_type() != Node::ELEMENT_NODE {
            let data = raw(new).data();
            if raw(old).data() != data {
                raw(old).set_data(&data);
                self.mark(old);
            }
            return;
        }
        let (o, n): (&Element, &Element) = (old.unchecked_ref(), new.unchecked_ref());
        // Nothing to do for a subtree the server left as it was (one native
        // comparison instead of a call per node; it stops at the first
        // difference). What the person changed lives in properties, which
        // this does not compare, so it stays.
        if self.is_skipped(n) || o.is_equal_node(Some(n)) {
            return;
        }
        let special = self
            .special
            .get(&raw(o).tag())
            .as_f64()
            .map_or(0, |k| k as u8);
        let changed = self.morph_attributes(o, n, special == DETAILS || special == DIALOG);
        match special {
            INPUT => {
                let input: &HtmlInputElement = o.unchecked_ref();
                if changed & VALUE != 0 {
                    let field: &Field = o.unchecked_ref();
                    let _ = field.set_value(&n.get_attribute("value").unwrap_or_default());
                }
                if changed & CHECKED != 0 {
                    input.set_checked(n.has_attribute("checked"));
                }
            }
            OPTION if changed & SELECTED != 0 => {
                let option: &HtmlOptionElement = o.unchecked_ref();
                option.set_selected(n.has_attribute("selected"));
            }
            DETAILS | DIALOG => self.morph_open(o, n, special == DIALOG),
            TEXTAREA => {
                // Its text is its default value: typed text stays unless the
                // server's default changed.
                let server = n.text_content();
                if o.text_content() != server {
                    self.morph_children(old, new, old.first_child(), None);
                    let area: &HtmlTextAreaElement = o.unchecked_ref();
                    area.set_value(&server.unwrap_or_default());
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
    fn morph_attributes(&mut self, old: &Element, new: &Element, open_is_state: bool) -> u8 {
        if !new.has_attributes() && !old.has_attributes() {
            return 0;
        }
        let mut changed = 0;
        let mut any = false;
        let attrs = new.attributes();
        for i in 0..attrs.length() {
            let Some(attr) = attrs.item(i) else { continue };
            let (name, value) = (raw(&attr).name(), raw(&attr).value());
            let before = raw(old).attribute(&name);
            if before == value {
                continue;
            }
            let text = name.as_string().unwrap_or_default();
            if open_is_state && text == "open" {
                continue;
            }
            let ns = raw(&attr).namespace();
            let _ = match ns.is_null() {
                true => raw(old).set(&name, &value),
                false => raw(old).set_ns(&ns, &name, &value),
            };
            changed |= state_flag(&text, before.is_null());
            any = true;
        }
        let attrs = old.attributes();
        for i in (0..attrs.length()).rev() {
            let Some(attr) = attrs.item(i) else { continue };
            let name = raw(&attr).name();
            if raw(new).has(&name) {
                continue;
            }
            let text = name.as_string().unwrap_or_default();
            if text == OUTLINE_ATTRIBUTE || (open_is_state && text == "open") {
                continue;
            }
            raw(old).unset(&name);
            changed |= state_flag(&text, true);
            any = true;
        }
        if any {
            self.mark(old);
        }
        changed
    }

    /// `open` follows the server only when the server changed it; a
    /// disclosure or dialog the person opened or closed stays so otherwise.
    fn morph_open(&mut self, old: &Element, new: &Element, dialog: bool) {
        let server = new.has_attribute("open");
        let before = Reflect::get(old, &SERVER_OPEN.into())
            .ok()
            .and_then(|v| v.as_bool());
        let before = before.unwrap_or_else(|| old.has_attribute("open"));
        if server != before {
            if dialog && !server {
                old.unchecked_ref::<HtmlDialogElement>().close();
            } else {
                let _ = old.toggle_attribute_with_force("open", server);
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
        let el = match node.node_type() {
            Node::ELEMENT_NODE => Some(node.clone().unchecked_into()),
            _ => node.parent_element(),
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

fn special_tags() -> Map {
    let map = Map::new();
    for (tag, kind) in [
        ("INPUT", INPUT),
        ("OPTION", OPTION),
        ("DETAILS", DETAILS),
        ("DIALOG", DIALOG),
        ("TEXTAREA", TEXTAREA),
    ] {
        map.set(&tag.into(), &kind.into());
    }
    map
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
fn record_unseen_open(root: &Element) {
    let key = JsValue::from(SERVER_OPEN);
    let below = select_all(root, "details,dialog");
    let own = root
        .matches("details,dialog")
        .unwrap_or(false)
        .then(|| root.clone());
    for el in own.into_iter().chain(elements(&below)) {
        if !Reflect::has(&el, &key).unwrap_or(true) {
            let _ = Reflect::set(&el, &key, &JsValue::from_bool(el.has_attribute("open")));
        }
    }
}

/// Focus and caret as the person left them. (The morph never reads layout,
/// so nothing can clamp the window's scroll mid-way, and focus comes back
/// with `preventScroll`: the scroll needs no saving.)
struct Saved {
    active: Option<Element>,
    /// `selectionStart`, `selectionEnd`, `selectionDirection` of a text
    /// input or textarea.
    range: Option<(u32, u32, String)>,
    /// Anchor and focus of the selection inside a contenteditable.
    selection: Option<(Node, u32, Node, u32)>,
}

impl Saved {
    fn take(doc: &Document, target: &Element, active: Option<&Element>) -> Saved {
        let range = active
            .filter(|a| matches!(a.tag_name().as_str(), "INPUT" | "TEXTAREA"))
            .and_then(|a| {
                let field: &Field = a.unchecked_ref();
                Some((
                    field.selection_start()?,
                    field.selection_end()?,
                    field.selection_direction()?,
                ))
            });
        // The document's selection (a caret in a contenteditable, text the
        // person selected); an input's own selection is `range`'s.
        let selection = doc
            .get_selection()
            .ok()
            .flatten()
            .filter(|_| active.is_some() && range.is_none())
            .and_then(|s| {
                let anchor = s.anchor_node()?;
                let focus = s.focus_node()?;
                target
                    .contains(Some(&anchor))
                    .then(|| (anchor, s.anchor_offset(), focus, s.focus_offset()))
            });
        Saved {
            active: active.cloned(),
            range,
            selection,
        }
    }

    fn restore(self, doc: &Document) {
        if let Some(active) = self.active.filter(|a| a.is_connected()) {
            if doc.active_element().as_ref() != Some(&active) {
                // Without scrolling: the person's scroll stays as it was.
                let options = FocusOptions::new();
                options.set_prevent_scroll(true);
                let el: &HtmlElement = active.unchecked_ref();
                let _ = el.focus_with_options(&options);
            }
            if let Some((start, end, dir)) = self.range {
                let field: &Field = active.unchecked_ref();
                let _ = field.set_selection_range(start, end, &dir);
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
    }
}

/// A node's length in the DOM's sense: UTF-16 units of text, or children.
fn node_length(node: &Node) -> u32 {
    match node.node_type() {
        Node::TEXT_NODE
        | Node::COMMENT_NODE
        | Node::CDATA_SECTION_NODE
        | Node::PROCESSING_INSTRUCTION_NODE => {
            node.unchecked_ref::<web_sys::CharacterData>().length()
        }
        _ => node.child_nodes().length(),
    }
}
