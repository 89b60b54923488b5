//! The morph over the live DOM (browser only). The algorithm is described in
//! the crate docs; this file follows them step by step, deciding everything
//! and leaving the DOM calls to `dom.rs` (nodes are handles there).

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::dom::{self, Js, H};
use crate::keys::{Keys, Ranks};
use crate::rules;

/// The attribute that outlines a changed element for a while.
pub const OUTLINE_ATTRIBUTE: &str = "data-morph-changed";

const ELEMENT_NODE: i32 = 1;

/// How to morph.
#[derive(Debug, Default, Clone, Copy)]
pub struct Options {
    /// Morph the target itself instead of its children.
    pub outer: bool,
    /// Outline changed elements with [`OUTLINE_ATTRIBUTE`] for this many
    /// milliseconds (0: no outline).
    pub outline_ms: u32,
    /// Scroll the last changed element into view.
    pub follow: bool,
}

/// Parses `html` inert in `target`'s document and strips whatever could
/// run. A whole document yields its `<body>`; a fragment, a `<body>` holding
/// what a template parsed. Neither runs scripts nor loads anything until
/// inserted.
pub fn parse(target: H, html: &Js) -> Option<H> {
    // The HTML stays a JS string: only its first characters cross into wasm.
    let whole = rules::is_whole_document(&dom::string(dom::head(html.slot())).unwrap_or_default());
    let root = dom::parse(target, html.slot(), i32::from(whole));
    if root == 0 {
        return None;
    }
    sanitize(root, target);
    Some(root)
}

/// Removes from the parsed tree, template contents included, whatever
/// [`rules`] refuses: what runs (`<script>`, `on*`, `srcdoc`, unsafe URLs,
/// href animations) and what would reach outside `target` (`<base>`,
/// `<meta>`, `form*` attributes, invokers, a label's `for` and a `target`
/// naming what is outside, clobbering names, and styles that would
/// apply to the host). The loader finds the suspects (a walk of the elements)
/// and answers the facts only it knows; [`rules`] judges.
fn sanitize(root: H, target: H) {
    let contained = dom::styles_contained(target) != 0;
    for i in 0..dom::stage(root, 0) {
        let name = dom::string(dom::s_name(i)).unwrap_or_default();
        if rules::is_forbidden_element(&name, contained)
            || rules::is_forbidden_animation(&name, dom::string(dom::s_value(i)).as_deref())
        {
            dom::s_drop(i);
        }
    }
    for i in 0..dom::stage(root, 1) {
        let name = dom::string(dom::s_name(i)).unwrap_or_default();
        let refused = if rules::is_name_attribute(&name) || rules::is_reference(&name) {
            dom::s_shadows(i, target) != 0
        } else {
            // Only URL attributes and targets need their value read.
            let value = match rules::reads_value(&name) {
                true => dom::string(dom::s_value(i)).unwrap_or_default(),
                false => String::new(),
            };
            !rules::attribute_allowed(&name, &value)
        };
        if refused {
            dom::s_drop(i);
        }
    }
}

/// The elements below `root` matching `dom::KEYED` or `dom::SECTIONS`.
fn select(root: H, what: i32) -> Vec<H> {
    (0..dom::select(root, what))
        .map(|i| dom::s_node(i))
        .collect()
}

/// Per-node facts: the node's own key, and its id set: the ranks of its
/// tree's persistent keyed elements at and below it, from `first - 1` up to
/// `end` (both 0: none).
#[derive(Default, Clone)]
struct Info {
    key: Option<u32>,
    /// [`FIRST`], [`END`], and [`FOCUS`]: 1 if it holds the focused element
    /// (known here: `contains` would climb the whole depth each time).
    marks: [u32; 3],
}

/// The marks of [`Info`].
const FIRST: usize = 0;
const END: usize = 1;
const FOCUS: usize = 2;

impl Info {
    fn ranks(&self) -> Range<u32> {
        self.marks[FIRST].saturating_sub(1)..self.marks[END]
    }
}

/// A new node as matching sees it.
struct Probe<'a> {
    node: H,
    /// Its node name's number (`dom::key` of kind 3).
    name: i32,
    /// Its key and id set, if it has either.
    facts: Option<&'a Info>,
}

impl Probe<'_> {
    fn holds_keys(&self) -> bool {
        self.facts.is_some_and(|f| f.marks[FIRST] != 0)
    }
}

/// Where the preferred match search stands (idiomorph's `softMatch`), and
/// what it found.
enum Soft {
    /// Nothing yet; as the answer, nothing soft-matched.
    None,
    Found(H),
    /// Two upcoming new siblings match here: leave this stretch to them. As
    /// the answer, no match, though something soft-matched.
    Blocked,
}

/// Elements with live state of their own (see `dom::special`).
const INPUT: i32 = 1;
const OPTION: i32 = 2;
const DETAILS: i32 = 3;
const TEXTAREA: i32 = 4;
const DIALOG: i32 = 5;

/// Attributes whose change moves a form control's live state.
const VALUE: i32 = 1;
const CHECKED: i32 = 2;
const SELECTED: i32 = 4;

struct Morph<'a> {
    /// The morph's target: new nodes are made in its document.
    target: H,
    options: &'a Options,
    /// Sections (`data-section-id`) known unchanged: matched, never entered.
    skip: &'a [String],
    /// The old tree's boundary: ancestor walks stop here.
    root: H,
    keys: Keys<i32>,
    /// Facts by node handle, for keyed nodes and their ancestors.
    facts: Vec<Option<Info>>,
    /// The persistent keys not claimed yet, by old rank.
    ranks: Ranks,
    /// Old elements by persistent key number.
    old_by_key: Vec<H>,
    /// By node name number ([`Probe::name`]), the last `epoch` in which
    /// a new node of that name with no facts found no soft match (see
    /// `morph_children`).
    misses: Vec<i32>,
    epoch: i32,
    pantry: H,
    changed: Vec<H>,
    /// Elements inserted as they came (not morphed): their disclosures are
    /// recorded at the end.
    created: Vec<H>,
}

/// Morphs `target` toward the parsed `new_root` (from [`parse`]); returns
/// the elements that changed (empty unless `options` outline or follow).
/// The sections in `skip` (`data-section-id`s known unchanged) are matched
/// but never entered.
pub fn morph(target: H, new_root: H, options: &Options, skip: &[String]) -> Vec<H> {
    if options.outer {
        match dom::nav(target, dom::PARENT) {
            0 => Vec::new(),
            parent => {
                // The target alone: what the new HTML holds beside its first
                // element (siblings, text) would land outside the target.
                let mut node = dom::nav(new_root, dom::FIRST);
                let mut kept = false;
                while node != 0 {
                    let next = dom::nav(node, dom::NEXT);
                    if kept || dom::kind(node) != ELEMENT_NODE {
                        dom::remove(node);
                    } else {
                        kept = true;
                    }
                    node = next;
                }
                let end = dom::nav(target, dom::NEXT);
                morph_range(target, parent, target, end, new_root, options, skip)
            }
        }
    } else {
        let start = dom::nav(target, dom::FIRST);
        morph_range(target, target, start, 0, new_root, options, skip)
    }
}

/// Appends the parsed `new_root`'s nodes to `target`'s children (a section
/// the preview has not shown yet), moving keyed nodes as [`morph`] does.
pub fn append(target: H, new_root: H, options: &Options) -> Vec<H> {
    let inner = Options {
        outer: false,
        ..*options
    };
    morph_range(target, target, 0, 0, new_root, &inner, &[])
}

/// The sections (`data-section-id`) under `root`, with their keys.
pub fn sections(root: H) -> impl Iterator<Item = (String, H)> {
    select(root, dom::SECTIONS)
        .into_iter()
        .filter_map(|el| Some((dom::string(dom::section_key(el))?, el)))
}

/// Morphs the old children of `root` from `start` up to `end` (the subtree
/// of `target`) toward the children of `new_root`.
fn morph_range(
    target: H,
    root: H,
    start: H,
    end: H,
    new_root: H,
    options: &Options,
    skip: &[String],
) -> Vec<H> {
    if unchanged(start, end, new_root) {
        return Vec::new();
    }
    let active = dom::active(target);
    dom::save(target, active);
    let mut m = Morph {
        target,
        options,
        skip,
        root,
        keys: Keys::default(),
        facts: Vec::new(),
        ranks: Ranks::default(),
        old_by_key: Vec::new(),
        misses: Vec::new(),
        epoch: 0,
        pantry: 0,
        changed: Vec::new(),
        created: Vec::new(),
    };
    m.index_trees(target, new_root);
    // The focused element and its ancestors: looking past one would move it.
    m.climb(active, root, FOCUS, 0, 1);
    m.morph_children(root, dom::nav(new_root, dom::FIRST), start, end);
    if m.pantry != 0 {
        dom::remove(m.pantry);
    }
    for &node in &m.created {
        dom::record_open(node);
    }
    dom::restore(target);
    m.finish()
}

/// Whether the old nodes from `start` up to `end` equal the children of
/// `new_root` one for one (native comparisons): then there is nothing to do,
/// not even to index the keys.
fn unchanged(start: H, end: H, new_root: H) -> bool {
    let mut old = if start == end { 0 } else { start };
    let mut new = dom::nav(new_root, dom::FIRST);
    loop {
        match (old, new) {
            (0, 0) => return true,
            (o, n) if o != 0 && n != 0 && test(o, n, dom::EQUAL) => {
                old = dom::nav(o, dom::NEXT);
                if old == end {
                    old = 0;
                }
                new = dom::nav(n, dom::NEXT);
            }
            _ => return false,
        }
    }
}

impl Morph<'_> {
    /// Numbers every key of both trees (old first), then ranks each tree's
    /// persistent keyed elements in document order and gives them and their
    /// ancestors below the tree's root the range of ranks below them.
    fn index_trees(&mut self, target: H, new_root: H) {
        let mut old = select(target, dom::KEYED);
        // In document order: the target (if morphed and keyed) first.
        if self.options.outer && element_key(target).is_some() {
            old.insert(0, target);
        }
        let new = select(new_root, dom::KEYED);
        let mut numbered = Vec::with_capacity(old.len() + new.len());
        for (list, is_old) in [(&old, true), (&new, false)] {
            for &el in list {
                if let Some(id) = element_key(el) {
                    // Tags are numbered like keys (kind 3), so they compare
                    // as numbers.
                    self.keys.note(id, dom::key(el, 3), is_old);
                    numbered.push((el, id, is_old));
                }
            }
        }
        self.old_by_key.resize(self.keys.len(), 0);
        let (mut old_ranked, mut new_ranked) = (Vec::new(), Vec::new());
        for (el, id, is_old) in numbered {
            if let Some(info) = self.facts_mut(el) {
                info.key = Some(id);
            }
            if !self.keys.persistent(id) {
                continue;
            }
            if is_old {
                if let Some(slot) = self.old_by_key.get_mut(id as usize) {
                    *slot = el;
                }
                old_ranked.push(el);
            } else {
                new_ranked.push(el);
            }
        }
        self.ranges(&old_ranked, self.root);
        self.ranges(&new_ranked, new_root);
        // By old rank, the new rank of the key.
        self.ranks = Ranks::new(old_ranked.len());
        for (new, &el) in (0..).zip(&new_ranked) {
            if let Some(f) = self.persistent_old(el).and_then(|o| self.facts(o)) {
                self.ranks.set(f.ranks().start, new);
            }
        }
    }

    /// Gives `els` (ranked, in document order) and their ancestors below
    /// `stop` their ranges. A node's first rank is that of the first
    /// element to reach it walking up, its end that of the last walking up
    /// in reverse order; each walk stops at a node reached before (its
    /// ancestors were too), so every node is walked twice at most.
    fn ranges(&mut self, els: &[H], stop: H) {
        for (rank, &el) in (1..).zip(els) {
            self.climb(el, stop, FIRST, 0, rank);
        }
        for (rank, &el) in els.iter().enumerate().rev() {
            self.climb(el, stop, END, 0, rank as u32 + 1);
        }
    }

    /// Walks up from `el` to below `stop`, turning each node's `mark` from
    /// `from` to `to`, until one is not `from` (it was reached before).
    fn climb(&mut self, el: H, stop: H, mark: usize, from: u32, to: u32) {
        let mut node = el;
        while node != 0 && node != stop {
            match self.facts_mut(node).and_then(|f| f.marks.get_mut(mark)) {
                Some(m) if *m == from => *m = to,
                _ => break,
            }
            node = dom::nav(node, dom::PARENT);
        }
    }

    fn facts_mut(&mut self, node: H) -> Option<&mut Info> {
        let at = usize::try_from(node).ok()?;
        while self.facts.len() <= at {
            self.facts.push(None);
        }
        Some(self.facts.get_mut(at)?.get_or_insert_with(Info::default))
    }

    fn facts(&self, node: H) -> Option<&Info> {
        self.facts.get(usize::try_from(node).ok()?)?.as_ref()
    }

    /// Makes the children of `old_parent` from `start` up to `end` match
    /// `new_first` and its next siblings, the new parent's children (idiomorph's
    /// `morphChildren`; the caller has asked for the first already).
    ///
    /// A search for a new node with no facts (no key, holding none) that
    /// finds no soft match is remembered for its node name until `epoch`
    /// moves: the next one of that name is created without a search, so a
    /// list whose tags all change costs no scan of every old sibling per new
    /// child. It
    /// would find nothing again: the old siblings from the cursor on only
    /// lose nodes (inserts go before the cursor), and the node where the
    /// search stopped (the focus, one holding keys, or the end) stays, the
    /// cursor never passing it, until a new node with facts (which may
    /// claim keys or move the focus) or a match having facts (keyed, or
    /// holding keys or the focus, which the cursor may so pass) moves
    /// `epoch`.
    fn morph_children(&mut self, old_parent: H, new_first: H, start: H, end: H) {
        let mut cursor = start;
        let mut next_new = new_first;
        let mut epoch = self.next_epoch();
        while next_new != 0 {
            let new_child = next_new;
            next_new = dom::nav(new_child, dom::NEXT);
            let slot = match self.facts(new_child) {
                None => dom::key(new_child, 3) as usize,
                Some(_) => {
                    epoch = self.next_epoch();
                    usize::MAX
                }
            };
            if cursor != 0 && cursor != end && self.misses.get(slot) != Some(&epoch) {
                match self.find_best_match(new_child, cursor, end) {
                    Soft::Found(best) => {
                        if self.facts(best).is_some() {
                            epoch = self.next_epoch();
                        }
                        self.remove_between(cursor, best);
                        self.morph_node(best, new_child);
                        cursor = dom::nav(best, dom::NEXT);
                        continue;
                    }
                    Soft::None if slot != usize::MAX => {
                        if self.misses.len() <= slot {
                            self.misses.resize(slot + 1, 0);
                        }
                        if let Some(miss) = self.misses.get_mut(slot) {
                            *miss = epoch;
                        }
                    }
                    _ => {}
                }
            }
            if let Some(old) = self.persistent_old(new_child) {
                // Its old ancestors no longer hold the focus, if it does.
                if self.facts(old).is_some_and(|f| f.marks[FOCUS] != 0) {
                    self.climb(dom::nav(old, dom::PARENT), 0, FOCUS, 1, 0);
                }
                dom::insert(old_parent, old, cursor);
                self.morph_node(old, new_child);
                cursor = dom::nav(old, dom::NEXT);
                continue;
            }
            let created = self.create(old_parent, new_child, cursor);
            cursor = dom::nav(created, dom::NEXT);
        }
        while cursor != 0 && cursor != end {
            let old = cursor;
            cursor = dom::nav(old, dom::NEXT);
            self.remove(old);
        }
    }

    /// The old sibling (from `start`, before `end`) that `new` should
    /// become: the first one sharing an id set with it, else the first
    /// plain match holding no persistent key, unless two upcoming new
    /// siblings match old nodes first or (for a new node holding no key)
    /// an old node holding keys comes first. With no match, [`Soft::None`]
    /// if nothing soft-matched.
    fn find_best_match(&self, new: H, start: H, end: H) -> Soft {
        let probe = self.probe(new);
        let mut soft = Soft::None;
        let mut seen = false;
        // The upcoming new sibling, read only once it is needed.
        let mut upcoming: Option<Option<Probe<'_>>> = None;
        let mut sibling_matches = 0;
        let mut old = start;
        while old != 0 && old != end {
            let facts = self.facts(old);
            if self.is_soft_match(old, facts, &probe) {
                seen = true;
                let shared = facts
                    .zip(probe.facts)
                    .is_some_and(|(o, n)| n.ranks().contains(&self.ranks.least(o.ranks())));
                if shared {
                    return Soft::Found(old);
                }
                if matches!(soft, Soft::None) && !self.holds(facts) {
                    if !probe.holds_keys() {
                        // No id set match can come: this one is final.
                        return Soft::Found(old);
                    }
                    soft = Soft::Found(old);
                }
            }
            if matches!(soft, Soft::None) {
                let next = upcoming.get_or_insert_with(|| self.probe_next(new));
                if next
                    .as_ref()
                    .is_some_and(|p| self.is_soft_match(old, facts, p))
                {
                    sibling_matches += 1;
                    *next = next.take().and_then(|p| self.probe_next(p.node));
                    if sibling_matches >= 2 {
                        soft = Soft::Blocked;
                    }
                }
            }
            // Looking past the focused element would move it: stop here.
            if facts.is_some_and(|f| f.marks[FOCUS] != 0) {
                break;
            }
            // A new node holding no key never reaches past an old one that
            // holds some: matching beyond it would park that whole subtree
            // in the pantry and rebuild its parents as shells, where
            // creating the one keyless node costs a single insert.
            if !probe.holds_keys() && self.holds(facts) {
                break;
            }
            old = dom::nav(old, dom::NEXT);
        }
        match soft {
            Soft::Found(_) => soft,
            _ if seen => Soft::Blocked,
            _ => Soft::None,
        }
    }

    fn next_epoch(&mut self) -> i32 {
        self.epoch += 1;
        self.epoch
    }

    /// What matching needs to know of a new node, read once.
    fn probe(&self, new: H) -> Probe<'_> {
        Probe {
            node: new,
            name: dom::key(new, 3),
            facts: self.facts(new),
        }
    }

    /// The probe of `new`'s next sibling, if any.
    fn probe_next(&self, new: H) -> Option<Probe<'_>> {
        match dom::nav(new, dom::NEXT) {
            0 => None,
            next => Some(self.probe(next)),
        }
    }

    /// Whether an old node holds a persistent key not claimed yet.
    fn holds(&self, facts: Option<&Info>) -> bool {
        facts.is_some_and(|f| self.ranks.least(f.ranks()) != u32::MAX)
    }

    /// Same node name (an element's tag, else the node type's `#text` or
    /// `#comment`), and an old key (if any) equal to the new one.
    fn is_soft_match(&self, old: H, old_facts: Option<&Info>, new: &Probe) -> bool {
        dom::key(old, 3) == new.name
            && old_facts
                .and_then(|f| f.key)
                .is_none_or(|k| new.facts.and_then(|f| f.key) == Some(k))
    }

    /// The old element carrying `new`'s key, if that key persists.
    fn persistent_old(&self, new: H) -> Option<H> {
        let key = self.facts(new)?.key?;
        if !self.keys.persistent(key) {
            return None;
        }
        self.old_by_key.get(key as usize).copied()
    }

    fn remove_between(&mut self, from: H, to: H) {
        let mut cursor = from;
        while cursor != 0 && cursor != to {
            let old = cursor;
            cursor = dom::nav(old, dom::NEXT);
            self.remove(old);
        }
    }

    /// Removes an old node, or parks it in the pantry while it still holds
    /// a persistent key that a later new node will ask for.
    fn remove(&mut self, old: H) {
        self.mark(dom::nav(old, dom::PARENT));
        if self.holds(self.facts(old)) {
            // A hidden element just outside the body, so parked nodes stay
            // connected and `moveBefore` keeps their state.
            if self.pantry == 0 {
                self.pantry = dom::pantry(self.target);
            }
            dom::insert(self.pantry, old, 0);
        } else {
            dom::remove(old);
        }
    }

    /// Inserts a node for `new`: the new node itself when it holds no
    /// persistent key (it is sanitized and inert until now), else an empty
    /// shell morphed toward it, so the keyed old nodes move into it.
    fn create(&mut self, parent: H, new: H, before: H) -> H {
        let is_element = dom::kind(new) == ELEMENT_NODE;
        if is_element && self.facts(new).is_some_and(|f| f.marks[FIRST] != 0) {
            let shell = dom::shell(self.target, new);
            if shell != 0 {
                dom::insert(parent, shell, before);
                self.mark(shell);
                self.morph_node(shell, new);
                return shell;
            }
        }
        dom::insert(parent, new, before);
        self.mark(new);
        if is_element {
            self.created.push(new);
        }
        new
    }

    /// Makes `old` like `new`: attributes, live form state, then children.
    fn morph_node(&mut self, old: H, new: H) {
        // `new` is claimed: its key counts in no old element's set now.
        if let Some(f) = self.persistent_old(new).and_then(|o| self.facts(o)) {
            self.ranks.set(f.ranks().start, u32::MAX);
        }
        // Soft-matched or created from `new`: both have the same node type.
        if dom::kind(old) != ELEMENT_NODE {
            if dom::text(old, new) != 0 {
                self.mark(old);
            }
            return;
        }
        let special = dom::special(old);
        let new_first = dom::nav(new, dom::FIRST);
        // Nothing to do for a subtree the server left as it was (one native
        // comparison instead of a call per node; it stops at the first
        // difference). What the person changed lives in properties, which
        // this does not compare, so it stays. A plain element whose new
        // counterpart has one child only is not compared: the question is
        // its child's (asked there), and asking it at every level of a deep
        // chain would walk the chain below each level again (quadratic).
        if self.is_skipped(new)
            || (!(special == 0 && is_only(new_first)) && test(old, new, dom::EQUAL))
        {
            return;
        }
        let open_is_state = special == DETAILS || special == DIALOG;
        let changed = dom::attrs(old, new, i32::from(open_is_state));
        if changed & dom::ANY != 0 {
            self.mark(old);
        }
        match special {
            INPUT => {
                if changed & VALUE != 0 {
                    dom::set_state(old, new, dom::SET_VALUE);
                }
                if changed & CHECKED != 0 {
                    dom::set_state(old, new, dom::SET_CHECKED);
                }
            }
            OPTION if changed & SELECTED != 0 => dom::set_state(old, new, dom::SET_SELECTED),
            DETAILS | DIALOG => self.morph_open(old, new, special == DIALOG),
            TEXTAREA => {
                // Its text is its default value: typed text stays unless the
                // server's default changed.
                if test(old, new, dom::TEXT_DIFFERS) {
                    self.morph_children(old, new_first, dom::nav(old, dom::FIRST), 0);
                    dom::set_state(old, new, dom::SET_TEXTAREA);
                }
                return;
            }
            _ => {}
        }
        self.morph_children(old, new_first, dom::nav(old, dom::FIRST), 0);
    }

    fn is_skipped(&self, new: H) -> bool {
        !self.skip.is_empty()
            && dom::string(dom::section_key(new)).is_some_and(|k| self.skip.contains(&k))
    }

    /// `open` follows the server only when the server changed it; a
    /// disclosure or dialog the person opened or closed stays so otherwise.
    fn morph_open(&mut self, old: H, new: H, dialog: bool) {
        let state = dom::open_state(old, new);
        let server = state & 1 != 0;
        let before = state & 2 != 0;
        dom::set_open(
            old,
            i32::from(server),
            i32::from(dialog),
            i32::from(server != before),
        );
        if server != before {
            self.mark(old);
        }
    }

    /// Notes a change at `node` (its element, or its parent for text),
    /// unless the change is at the morph's root.
    fn mark(&mut self, node: H) {
        if (self.options.outline_ms == 0 && !self.options.follow) || node == 0 {
            return;
        }
        let el = dom::nav(node, dom::ELEMENT);
        if el != 0 && el != self.root {
            self.changed.push(el);
        }
    }

    /// Outlines the changed elements and follows the last one.
    fn finish(self) -> Vec<H> {
        for &el in &self.changed {
            dom::mark(el);
        }
        // The outline is at most an hour: it fits an i32.
        dom::finish(
            self.options.outline_ms as i32,
            i32::from(self.options.follow),
        );
        self.changed
    }
}

/// Whether `first`, a first child, is its parent's only child.
fn is_only(first: H) -> bool {
    first != 0 && dom::nav(first, dom::NEXT) == 0
}

/// A comparison of `dom::test`, as a boolean.
fn test(a: H, b: H, what: i32) -> bool {
    dom::test(a, b, what) != 0
}

/// The number of `el`'s key: its `id`, else `data-section-id`, else
/// `data-component-id` (empty values are no key). Numbered in JS, so the
/// text never leaves it.
fn element_key(el: H) -> Option<u32> {
    (0..3).find_map(|kind| u32::try_from(dom::key(el, kind)).ok())
}
