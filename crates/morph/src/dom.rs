//! The DOM plumbing, in JavaScript (browser only): plain wasm imports from
//! the loader (`js/morph.js`, module `e`, one-letter names), a few coarse
//! calls over numeric handles. Everything there is mechanical (walk, copy,
//! insert, save and restore); every decision (matching, keys, id sets, what
//! is kept, the URL rule) is made in Rust by [`crate::live`].
//!
//! Two kinds of handle cross, both plain `i32`s:
//!
//! - A node handle ([`H`]) is a node's index in a table that lives from the
//!   outermost [`begin`] to its [`end`] (a morph started inside a morph, by a
//!   custom element's callback, shares it); 0 is no node. The same node
//!   always has the same handle, so per-node facts are a vector indexed by
//!   handle.
//! - A value ([`Js`]) is a slot in the loader's value store holding a JS
//!   value that outlives a morph: the target, HTML kept by the preview, the
//!   `onMorph` callback. Rust owns it: dropping a [`Js`] frees the slot.
//!
//! Short strings the rules judge (names, URLs, keys) cross a UTF-16 unit at
//! a time: an import that yields one stages it in the loader and returns its
//! length (-1: none), and [`string`] reads it with `u`. Keys go back the same
//! way ([`out`]). The loader never touches wasm memory, so every import is
//! declared `safe`: none can break Rust's memory safety, whatever it does.
//! No helper throws (what can is caught): an exception unwinding through the
//! morph would leave the table open and the preview's state borrowed.

use alloc::string::String;

/// A node handle (0: none).
pub type H = i32;

/// What [`nav`] follows.
pub const FIRST: i32 = 0;
pub const NEXT: i32 = 1;
pub const PARENT: i32 = 2;
/// The node itself if an element, else its parent element.
pub const ELEMENT: i32 = 3;

/// What [`test()`] compares.
pub const EQUAL: i32 = 0;
pub const TEXT_DIFFERS: i32 = 2;

/// What [`select`] finds.
pub const KEYED: i32 = 0;
pub const SECTIONS: i32 = 1;

/// Which live state [`set_state`] sets from the new element.
pub const SET_VALUE: i32 = 0;
pub const SET_CHECKED: i32 = 1;
pub const SET_SELECTED: i32 = 2;
pub const SET_TEXTAREA: i32 = 3;

/// [`attrs`]' result bits: an attribute changed; `value`, `checked`,
/// `selected` changed (the latter two in presence).
pub const ANY: i32 = 8;

// The import block is `unsafe extern` by syntax; every function in it is
// `safe` (see the module docs).
#[allow(unsafe_code)]
#[link(wasm_import_module = "e")]
unsafe extern "C" {
    /// Opens the handle table (if not open) and gives the node in `target`'s
    /// slot a handle.
    #[link_name = "b"]
    pub safe fn begin(target: i32) -> H;
    /// Closes what [`begin`] opened.
    #[link_name = "c"]
    pub safe fn end();
    /// Frees a value slot (see [`Js`]).
    #[link_name = "F"]
    safe fn free(value: i32);
    /// Whether two value slots hold the same string (`===`).
    #[link_name = "q"]
    safe fn same(a: i32, b: i32) -> i32;
    /// The UTF-16 unit at `at` of the staged string. See [`string`].
    #[link_name = "u"]
    safe fn unit(at: i32) -> i32;
    /// Appends a UTF-16 unit to the key being written, or with -1 ends it
    /// and adds it to the list [`report`] hands over.
    #[link_name = "o"]
    safe fn out_unit(unit: i32);
    /// Stages the first nine characters of the string in `html` after
    /// leading white space; their length.
    #[link_name = "w"]
    pub safe fn head(html: i32) -> i32;
    /// Parses the string in `html` inert in `target`'s document: a whole
    /// document (`whole`) into a detached `<html>` whose `<body>` is
    /// returned, a fragment through a `<template>` into a detached `<body>`.
    /// 0 if the parser threw.
    #[link_name = "P"]
    pub safe fn parse(target: H, html: i32, whole: i32) -> H;
    /// Stages the suspect elements (`attrs` 0) of `root` and of every
    /// template content below it, or (1) the suspect attributes of the
    /// elements the last call with 0 walked (one walk finds both); returns
    /// how many.
    #[link_name = "x"]
    pub safe fn stage(root: H, attrs: i32) -> i32;
    /// Stages a staged element's local name, or a staged attribute's name.
    #[link_name = "N"]
    pub safe fn s_name(i: i32) -> i32;
    /// Stages a staged element's `attributeName` attribute, or an
    /// attribute's value (-1: none).
    #[link_name = "v"]
    pub safe fn s_value(i: i32) -> i32;
    /// Whether a staged attribute's value `v` would shadow a property of
    /// `target`'s document `d` or window `w`: `v` is a property of `d`'s
    /// prototype chain (not one of its named properties, so an id the morph
    /// wrote before is no clobbering), or of the chain below `w`'s named
    /// properties object (`EventTarget` and `Object`'s prototypes: what a
    /// named property of the window hides). See `rules::is_name_attribute`.
    /// For a `for` (`rules::is_reference`): whether it names an element of
    /// `d` outside `target`.
    #[link_name = "C"]
    pub safe fn s_shadows(i: i32, target: H) -> i32;
    /// 1 if `<style>` and `<link>` inserted in `target` cannot apply
    /// outside it: its root is a shadow root, or its document is not the
    /// loader's `document` (a frame's). Not a detached element or a
    /// fragment: once attached, their styles would apply to the page.
    #[link_name = "Y"]
    pub safe fn styles_contained(target: H) -> i32;
    /// Removes a staged element, or a staged attribute from its element.
    #[link_name = "X"]
    pub safe fn s_drop(i: i32);
    /// Stages the elements below `root` matching [`KEYED`] or [`SECTIONS`].
    #[link_name = "Q"]
    pub safe fn select(root: H, what: i32) -> i32;
    /// A staged node's handle.
    #[link_name = "h"]
    pub safe fn s_node(i: i32) -> H;
    /// `nodeType`.
    #[link_name = "k"]
    pub safe fn kind(node: H) -> i32;
    /// [`FIRST`] child, [`NEXT`] sibling, [`PARENT`] or [`ELEMENT`].
    #[link_name = "n"]
    pub safe fn nav(node: H, way: i32) -> H;
    /// [`EQUAL`] or [`TEXT_DIFFERS`].
    #[link_name = "t"]
    pub safe fn test(a: H, b: H, what: i32) -> i32;
    /// The number of the element's key of kind `kind` (0 `id`, 1
    /// `data-section-id`, 2 `data-component-id`), -1 if absent or empty.
    /// Kind 3 numbers the node's `nodeName` (an element's `tagName`; any
    /// node). Numbers are dense and shared by every morph of one table.
    #[link_name = "K"]
    pub safe fn key(el: H, kind: i32) -> i32;
    /// Stages the element's `data-section-id` (-1: none).
    #[link_name = "y"]
    pub safe fn section_key(el: H) -> i32;
    /// `outerHTML`, kept in a new value slot.
    #[link_name = "H"]
    safe fn outer_html(el: H) -> i32;
    /// 1 `<input>`, 2 `<option>`, 3 `<details>`, 4 `<textarea>`, 5
    /// `<dialog>`, else 0.
    #[link_name = "z"]
    pub safe fn special(el: H) -> i32;
    /// Gives `old` (text or comment) `new`'s text; whether it differed.
    #[link_name = "T"]
    pub safe fn text(old: H, new: H) -> i32;
    /// Copies `new`'s attributes to `old` and removes the others, except
    /// the outline and (with `open_is_state`) `open`; returns [`ANY`] and
    /// the form-state bits.
    #[link_name = "a"]
    pub safe fn attrs(old: H, new: H, open_is_state: i32) -> i32;
    /// Sets a live property of `old` from `new`'s default ([`SET_VALUE`]...).
    #[link_name = "S"]
    pub safe fn set_state(old: H, new: H, what: i32);
    /// Bit 0: `new` has `open`; bit 1: the server's last `open` on `old`
    /// (its attribute if never recorded).
    #[link_name = "O"]
    pub safe fn open_state(old: H, new: H) -> i32;
    /// Applies `server` as `old`'s `open` if `apply` (`close()` for a
    /// dialog), and records it as the server's.
    #[link_name = "B"]
    pub safe fn set_open(old: H, server: i32, dialog: i32, apply: i32);
    /// Records the server's `open` on the disclosures and dialogs at and
    /// below `node` that have none recorded.
    #[link_name = "R"]
    pub safe fn record_open(node: H);
    /// Inserts or moves `node` before `before` (`moveBefore` where it can).
    #[link_name = "i"]
    pub safe fn insert(parent: H, node: H, before: H);
    /// Removes `node` from its parent.
    #[link_name = "r"]
    pub safe fn remove(node: H);
    /// A hidden element just after `target`'s document's `<body>`.
    #[link_name = "p"]
    pub safe fn pantry(target: H) -> H;
    /// An empty element of `new`'s tag in `target`'s document (0 if its
    /// name is one `createElementNS` refuses).
    #[link_name = "E"]
    pub safe fn shell(target: H, new: H) -> H;
    /// Queues `el` for [`finish`].
    #[link_name = "m"]
    pub safe fn mark(el: H);
    /// Outlines the queued elements for `ms` milliseconds, and scrolls the
    /// last into view with `follow`.
    #[link_name = "f"]
    pub safe fn finish(ms: i32, follow: i32);
    /// Saves the focused element `active` (0: none) within `target`, its
    /// selection range, or the document selection within `target`.
    #[link_name = "s"]
    pub safe fn save(target: H, active: H);
    /// Gives back the focus and selection [`save`] saved last.
    #[link_name = "g"]
    pub safe fn restore(target: H);
    /// The focused element if within `target`, else 0.
    #[link_name = "A"]
    pub safe fn active(target: H) -> H;
    /// Calls the function in `on_morph`'s slot (if one) with the keys
    /// written since the last report, unless there are none; returns a new
    /// value slot holding them (an array of strings). What the callback
    /// throws is caught: it never unwinds through the preview.
    #[link_name = "M"]
    safe fn report_keys(on_morph: i32) -> i32;
    /// Calls the export `t` with `preview` after `ms` milliseconds.
    #[link_name = "L"]
    pub safe fn later(preview: i32, ms: i32);
    /// `Date.now()`.
    #[link_name = "D"]
    pub safe fn now() -> f64;
}

/// A JS value kept in the loader's value store, owned here: dropping it
/// frees the slot. Equal when both hold the same string.
#[derive(Debug)]
pub struct Js(i32);

impl Js {
    /// Takes over a slot the loader filled.
    pub fn own(slot: i32) -> Js {
        Js(slot)
    }

    /// The slot, still owned here.
    pub fn slot(&self) -> i32 {
        self.0
    }

    /// Gives the slot to the loader, which frees it once read.
    pub fn give(self) -> i32 {
        let slot = self.0;
        core::mem::forget(self);
        slot
    }
}

impl Drop for Js {
    fn drop(&mut self) {
        free(self.0);
    }
}

impl PartialEq for Js {
    fn eq(&self, other: &Js) -> bool {
        same(self.0, other.0) != 0
    }
}

/// `el`'s `outerHTML`, left in JS.
pub fn html(el: H) -> Js {
    Js(outer_html(el))
}

/// Writes `key` for the next [`report`].
pub fn out(key: &str) {
    for unit in key.encode_utf16() {
        out_unit(i32::from(unit));
    }
    out_unit(-1);
}

/// Hands the keys written with [`out`] to the callback in the slot
/// `on_morph` (-1: none; not called if there are no keys); the array of them.
pub fn report(on_morph: i32) -> Js {
    Js(report_keys(on_morph))
}

/// The text of the string an import staged, given the `len` it returned
/// (None for -1), read a UTF-16 unit at a time: the few short strings the
/// rules judge (names, URLs, keys) need no allocator export or decoder.
pub fn string(len: i32) -> Option<String> {
    if len < 0 {
        return None;
    }
    let mut out = String::new();
    let mut at = 0;
    while at < len {
        let first = unit(at) as u32;
        at += 1;
        let mut code = first;
        if (0xD800..0xDC00).contains(&first) {
            // A high surrogate: with the low one after it, one character.
            let low = unit(at) as u32;
            code = match (0xDC00..0xE000).contains(&low) {
                true => {
                    at += 1;
                    0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
                }
                false => 0xFFFD,
            };
        }
        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    Some(out)
}
