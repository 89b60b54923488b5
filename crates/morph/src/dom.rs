//! The DOM plumbing, in JavaScript (browser only): a few coarse calls over
//! numeric node handles, so the wasm carries no per-call `externref`
//! bookkeeping around a hundred DOM methods. Everything here is mechanical
//! (walk, copy, insert, save and restore); every decision (matching, keys,
//! id sets, what is kept, the URL rule) is made in Rust by [`crate::live`].
//!
//! A handle is a node's index in a table that lives from the outermost
//! [`begin`] to its [`end`] (a morph started inside a morph, by a custom
//! element's callback, shares it); 0 is no node. The same node always has
//! the same handle, so per-node facts are a vector indexed by handle.
//! No helper throws (what can is caught, as the `let _ =` of web-sys calls
//! were): an exception unwinding through the morph would leave the table
//! open and the preview's state borrowed.
//!
//! Every parameter and result is an `i32` (booleans 0 or 1), an `f64` or a
//! JS value: wasm-bindgen then imports the functions as they are, with no
//! conversion shim in the glue for each.

use alloc::string::String;

use js_sys::JsString;
use wasm_bindgen::prelude::*;

/// A node handle (0: none).
pub type H = i32;

/// What [`nav`] follows.
pub const FIRST: i32 = 0;
pub const NEXT: i32 = 1;
pub const PARENT: i32 = 2;
/// The node itself if an element, else its parent element.
pub const ELEMENT: i32 = 3;

/// What [`test`] compares.
pub const EQUAL: i32 = 0;
pub const SAME_TAG: i32 = 1;
pub const TEXT_DIFFERS: i32 = 2;
pub const CONTAINS: i32 = 3;

/// What [`select`] finds.
pub const KEYED: i32 = 0;
pub const SECTIONS: i32 = 1;

/// Which live state [`set_state`] sets from the new element.
pub const SET_VALUE: i32 = 0;
pub const SET_CHECKED: i32 = 1;
pub const SET_SELECTED: i32 = 2;
pub const SET_TEXTAREA: i32 = 3;

/// Which option [`option`] reads.
pub const OUTER: i32 = 0;
pub const OUTLINE: i32 = 1;
pub const FOLLOW: i32 = 2;

/// [`attrs`]' result bits: an attribute changed; `value`, `checked`,
/// `selected` changed (the latter two in presence).
pub const ANY: i32 = 8;

#[wasm_bindgen(inline_js = r#"
let N = [null], M = new Map(), K = new Map(), D = 0, S = [], V = [], C = [], T = 0;
const h = n => { if (!n) return 0; let i = M.get(n); if (i === undefined) { i = N.push(n) - 1; M.set(n, i); } return i; };
const OUT = 'data-morph-changed', OPEN = '__morphServerOpen';
const XE = "descendant-or-self::*[local-name()='script' or local-name()='animate' or local-name()='set' or local-name()='template']";
const XA = "descendant-or-self::*/@*[starts-with(name(),'on') or name()='srcdoc' or name()='href' or name()='src' or name()='action' or name()='formaction' or name()='xlink:href' or name()='data']";
const SEL = ['[id],[data-section-id],[data-component-id]', '[data-section-id]'];
const KA = ['id', 'data-section-id', 'data-component-id'];
const SPECIAL = ['INPUT', 'OPTION', 'DETAILS', 'TEXTAREA', 'DIALOG'];
const xp = (x, r) => { const s = r.ownerDocument.evaluate(x, r, null, 7, null), o = []; for (let i = 0; i < s.snapshotLength; i++) o.push(s.snapshotItem(i)); return o; };
const walk = (r, a, out) => {
  const els = xp(XE, r);
  for (const n of a ? xp(XA, r) : els) out.push(n);
  for (const e of els) if (e.localName == 'template' && e.content) for (const c of e.content.children) walk(c, a, out);
};
const openAll = r => { for (const e of [r, ...r.querySelectorAll('details,dialog')]) if (e.matches('details,dialog') && !(OPEN in e)) e[OPEN] = e.hasAttribute('open'); };
export function begin(t) { if (!D++) { N = [null]; M = new Map(); K = new Map(); } return h(t); }
export function end() { if (!--D) { N = [null]; M = new Map(); K = new Map(); } }
export function units(s, j) { return typeof s != 'string' ? -1 : j < 0 ? s.length : s.charCodeAt(j); }
export function head(s) { return s.trimStart().slice(0, 9); }
export function parse(t, s, whole) {
  try {
    const tp = N[t].ownerDocument.createElement('template'), d = tp.content.ownerDocument;
    if (whole) { const e = d.createElement('html'); e.innerHTML = s; return h(e.querySelector('body') ?? e); }
    tp.innerHTML = s; const b = d.createElement('body'); b.append(tp.content); return h(b);
  } catch { return 0; }
}
export function stage(r, a) { S = []; walk(N[r], a, S); return S.length; }
export function s_name(i) { const n = S[i]; return n.nodeType == 1 ? n.localName : n.name; }
export function s_value(i) { const n = S[i]; return n.nodeType == 1 ? n.getAttribute('attributeName') : n.value; }
export function s_drop(i) { const n = S[i]; n.nodeType == 1 ? n.remove() : n.ownerElement?.removeAttribute(n.name); }
export function select(r, k) { const n = N[r]; S = n.nodeType == 1 ? [...n.querySelectorAll(SEL[k])] : []; return S.length; }
export function s_node(i) { return h(S[i]); }
export function kind(n) { return N[n].nodeType; }
export function nav(n, w) { const x = N[n]; return h(w == 0 ? x.firstChild : w == 1 ? x.nextSibling : w == 2 ? x.parentNode : x.nodeType == 1 ? x : x.parentElement); }
export function test(a, b, w) {
  const x = N[a], y = N[b];
  return w == 0 ? x.isEqualNode(y) : w == 1 ? x.tagName === y.tagName : w == 2 ? x.textContent !== y.textContent : !!y && x.contains(y);
}
export function key(n, k) { const v = k == 3 ? N[n].tagName : N[n].getAttribute(KA[k]); if (!v) return -1; const s = k + v; let i = K.get(s); if (i === undefined) K.set(s, i = K.size); return i; }
export function section_key(n) { return N[n].getAttribute('data-section-id'); }
export function html(n) { return N[n].outerHTML; }
export function special(n) { return SPECIAL.indexOf(N[n].tagName) + 1; }
export function text(o, n) { const x = N[o], v = N[n].nodeValue; if (x.nodeValue === v) return false; x.nodeValue = v; return true; }
export function attrs(o, n, openIsState) {
  const x = N[o], y = N[n];
  if (!x.hasAttributes() && !y.hasAttributes()) return 0;
  let c = 0;
  const flag = (a, presence) => a == 'value' ? 1 : a == 'checked' && presence ? 2 : a == 'selected' && presence ? 4 : 0;
  for (const a of y.attributes) {
    const before = x.getAttribute(a.name);
    if (before === a.value || (openIsState && a.name == 'open')) continue;
    try { a.namespaceURI === null ? x.setAttribute(a.name, a.value) : x.setAttributeNS(a.namespaceURI, a.name, a.value); } catch {}
    c |= 8 | flag(a.name, before === null);
  }
  for (const a of [...x.attributes].reverse()) {
    if (y.hasAttribute(a.name) || a.name == OUT || (openIsState && a.name == 'open')) continue;
    x.removeAttribute(a.name);
    c |= 8 | flag(a.name, true);
  }
  return c;
}
export function set_state(o, n, w) {
  const x = N[o], y = N[n];
  try {
    if (w == 0) x.value = y.getAttribute('value') ?? '';
    else if (w == 1) x.checked = y.hasAttribute('checked');
    else if (w == 2) x.selected = y.hasAttribute('selected');
    else x.value = y.textContent;
  } catch {}
}
export function open_state(o, n) { const x = N[o]; return +N[n].hasAttribute('open') | (x[OPEN] ?? x.hasAttribute('open')) << 1; }
export function set_open(o, server, dialog, apply) {
  const x = N[o];
  if (apply) dialog && !server ? x.close() : x.toggleAttribute('open', server);
  x[OPEN] = server;
}
export function record_open(n) { const x = N[n]; if (x.nodeType == 1) openAll(x); }
export function insert(p, n, b) {
  const x = N[p], y = N[n], z = N[b] ?? null;
  if ('moveBefore' in x && y.isConnected) try { x.moveBefore(y, z); return; } catch {}
  try { x.insertBefore(y, z); } catch {}
}
export function remove(n) { N[n].parentNode?.removeChild(N[n]); }
export function pantry(t) {
  const d = N[t].ownerDocument, p = d.createElement('div');
  p.setAttribute('hidden', '');
  d.body ? d.body.after(p) : d.documentElement.append(p);
  return h(p);
}
export function shell(t, n) { const y = N[n]; try { return h(N[t].ownerDocument.createElementNS(y.namespaceURI, y.localName)); } catch { return 0; } }
export function mark(n) { C.push(N[n]); }
export function finish(ms, follow) {
  const c = C; C = [];
  if (!c.length) return;
  if (follow) c[c.length - 1].scrollIntoView({ block: 'nearest' });
  if (ms) {
    const s = String(T++);
    for (const e of c) e.setAttribute(OUT, s);
    (c[0].ownerDocument.defaultView ?? globalThis).setTimeout(() => { for (const e of c) if (e.getAttribute(OUT) === s) e.removeAttribute(OUT); }, ms);
  }
}
export function save(t, a) {
  const x = N[t], e = N[a] ?? null, d = x.ownerDocument;
  let r = null, sel = null;
  try {
    if (e && (e.tagName == 'INPUT' || e.tagName == 'TEXTAREA') && e.selectionStart !== null) r = [e.selectionStart, e.selectionEnd, e.selectionDirection];
    const s = d.getSelection();
    if (e && !r && s && s.anchorNode && s.focusNode && x.contains(s.anchorNode)) sel = [s.anchorNode, s.anchorOffset, s.focusNode, s.focusOffset];
  } catch {}
  V.push([e, r, sel]);
}
export function restore(t) {
  const [e, r, sel] = V.pop(), d = N[t].ownerDocument;
  const len = n => n.nodeType == 3 || n.nodeType == 4 || n.nodeType == 7 || n.nodeType == 8 ? n.length : n.childNodes.length;
  if (e && e.isConnected) {
    if (d.activeElement !== e) try { e.focus({ preventScroll: true }); } catch {}
    if (r) try { e.setSelectionRange(r[0], r[1], r[2]); } catch {}
  }
  if (sel && sel[0].isConnected && sel[2].isConnected) {
    const s = d.getSelection();
    if (s && (s.anchorNode !== sel[0] || s.focusNode !== sel[2] || s.anchorOffset !== sel[1] || s.focusOffset !== sel[3]))
      try { s.setBaseAndExtent(sel[0], Math.min(sel[1], len(sel[0])), sel[2], Math.min(sel[3], len(sel[2]))); } catch {}
  }
}
export function option(o, w) { const v = o?.[['outer', 'outline', 'follow'][w]]; return w == 1 ? (typeof v == 'number' ? v : NaN) : +!!v; }
export function on_morph(o) { const f = o?.onMorph; return typeof f == 'function' ? f : undefined; }
export function report(f, keys) { if (f) try { f.call(null, keys); } catch {} }
export function later(t, ms) { setTimeout(() => t.fire(), ms); }
export function active(t) { const x = N[t], a = x.ownerDocument.activeElement; return a && x.contains(a) ? h(a) : 0; }
"#)]
extern "C" {
    /// Opens the handle table (if not open) and gives `target`'s handle.
    pub fn begin(target: &JsValue) -> H;
    /// Closes what [`begin`] opened.
    pub fn end();
    /// With `at` -1, the length of `s` in UTF-16 units, or -1 if `s` is no
    /// string; else the unit at `at`. See [`string`].
    fn units(s: &JsValue, at: i32) -> i32;
    /// The first nine characters of `html` after leading white space.
    pub fn head(html: &JsString) -> JsValue;
    /// Parses `html` inert in `target`'s document: a whole document
    /// (`whole`) into a detached `<html>` whose `<body>` is returned, a
    /// fragment through a `<template>` into a detached `<body>`. 0 if the
    /// parser threw.
    pub fn parse(target: H, html: &JsString, whole: i32) -> H;
    /// Stages the suspect elements (`attrs` false) or attributes (true) of
    /// `root` and of every template content below it; returns how many.
    pub fn stage(root: H, attrs: i32) -> i32;
    /// A staged element's local name, or a staged attribute's name.
    pub fn s_name(i: i32) -> JsValue;
    /// A staged element's `attributeName` attribute, or an attribute's value.
    pub fn s_value(i: i32) -> JsValue;
    /// Removes a staged element, or a staged attribute from its element.
    pub fn s_drop(i: i32);
    /// Stages the elements below `root` matching [`KEYED`] or [`SECTIONS`].
    pub fn select(root: H, what: i32) -> i32;
    /// A staged node's handle.
    pub fn s_node(i: i32) -> H;
    /// `nodeType`.
    pub fn kind(node: H) -> i32;
    /// [`FIRST`] child, [`NEXT`] sibling, [`PARENT`] or [`ELEMENT`].
    pub fn nav(node: H, way: i32) -> H;
    /// [`EQUAL`], [`SAME_TAG`], [`TEXT_DIFFERS`], `a` [`CONTAINS`] `b`.
    pub fn test(a: H, b: H, what: i32) -> i32;
    /// The number of the element's key of kind `kind` (0 `id`, 1
    /// `data-section-id`, 2 `data-component-id`), -1 if absent or empty.
    /// Kind 3 numbers the element's `tagName`. Numbers are dense and shared
    /// by every morph of one table.
    pub fn key(el: H, kind: i32) -> i32;
    /// The element's `data-section-id` (null if none).
    pub fn section_key(el: H) -> JsValue;
    /// `outerHTML`, left a JS string.
    pub fn html(el: H) -> JsString;
    /// 1 `<input>`, 2 `<option>`, 3 `<details>`, 4 `<textarea>`, 5
    /// `<dialog>`, else 0.
    pub fn special(el: H) -> i32;
    /// Gives `old` (text or comment) `new`'s text; whether it differed.
    pub fn text(old: H, new: H) -> i32;
    /// Copies `new`'s attributes to `old` and removes the others, except
    /// the outline and (with `open_is_state`) `open`; returns [`ANY`] and
    /// the form-state bits.
    pub fn attrs(old: H, new: H, open_is_state: i32) -> i32;
    /// Sets a live property of `old` from `new`'s default ([`SET_VALUE`]...).
    pub fn set_state(old: H, new: H, what: i32);
    /// Bit 0: `new` has `open`; bit 1: the server's last `open` on `old`
    /// (its attribute if never recorded).
    pub fn open_state(old: H, new: H) -> i32;
    /// Applies `server` as `old`'s `open` if `apply` (`close()` for a
    /// dialog), and records it as the server's.
    pub fn set_open(old: H, server: i32, dialog: i32, apply: i32);
    /// Records the server's `open` on the disclosures and dialogs at and
    /// below `node` that have none recorded.
    pub fn record_open(node: H);
    /// Inserts or moves `node` before `before` (`moveBefore` where it can).
    pub fn insert(parent: H, node: H, before: H);
    /// Removes `node` from its parent.
    pub fn remove(node: H);
    /// A hidden element just after `target`'s document's `<body>`.
    pub fn pantry(target: H) -> H;
    /// An empty element of `new`'s tag in `target`'s document (0 if its
    /// name is one `createElementNS` refuses).
    pub fn shell(target: H, new: H) -> H;
    /// Queues `el` for [`finish`].
    pub fn mark(el: H);
    /// Outlines the queued elements for `ms` milliseconds, and scrolls the
    /// last into view with `follow`.
    pub fn finish(ms: i32, follow: i32);
    /// Saves the focused element `active` (0: none) within `target`, its
    /// selection range, or the document selection within `target`.
    pub fn save(target: H, active: H);
    /// Gives back the focus and selection [`save`] saved last.
    pub fn restore(target: H);
    /// An option: [`OUTER`] or [`FOLLOW`] as 1 (truthy) or 0, [`OUTLINE`]
    /// as given if a number, else NaN.
    pub fn option(options: &JsValue, which: i32) -> f64;
    /// `options.onMorph` if a function, else undefined.
    pub fn on_morph(options: &JsValue) -> JsValue;
    /// Calls `on_morph` (if a function) with `keys`; what it throws is
    /// its own.
    pub fn report(on_morph: &JsValue, keys: &JsValue);
    /// Calls `tick.fire()` after `ms` milliseconds.
    pub fn later(tick: JsValue, ms: i32);
    /// The focused element if within `target`, else 0.
    pub fn active(target: H) -> H;
}

/// A JS string's text (None if `s` is no string), read a UTF-16 unit at a
/// time: the few short strings the rules judge (names, URLs, keys) cross
/// without wasm-bindgen's string passing (an allocator export and its glue).
pub fn string(s: &JsValue) -> Option<String> {
    let len = units(s, -1);
    if len < 0 {
        return None;
    }
    let mut out = String::new();
    let mut at = 0;
    while at < len {
        let unit = units(s, at) as u32;
        at += 1;
        let mut code = unit;
        if (0xD800..0xDC00).contains(&unit) {
            // A high surrogate: with the low one after it, one character.
            let low = units(s, at) as u32;
            code = match (0xDC00..0xE000).contains(&low) {
                true => {
                    at += 1;
                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                false => 0xFFFD,
            };
        }
        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    Some(out)
}
