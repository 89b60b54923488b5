//! Studio's preview morph: merges fresh HTML into the live preview, keeping
//! the person's place.
//!
//! As a model writes, Studio renders the page again and again. Each render
//! must land *in place*: the person keeps their scroll, focus, caret, the
//! disclosure they opened and what they typed; changed parts are outlined;
//! nothing in the HTML ever runs. SPEC.md section 12 fixes the interface.
//!
//! # JavaScript
//!
//! ```js
//! import init, { morph, Preview } from "@cloudhal/surfaces/morph";
//! await init();
//! morph(document.querySelector("#preview"), html);             // children
//! morph(sectionElement, sectionHtml, { outer: true });          // the element itself
//! const preview = new Preview(document.querySelector("#preview"), {
//!   outline: 1200,                 // ms that changed elements carry data-morph-changed
//!   follow: true,                  // scroll the last changed element into view
//!   onMorph: (keys) => console.log("changed sections", keys),
//! });
//! preview.update(wholeDocumentOrFragment); // at most 4 morphs a second, latest wins
//! preview.section("pricing", "<section data-section-id=\"pricing\">...</section>");
//! preview.flush();                          // morph what is pending now; returns keys
//! preview.free();                           // done with it: drops what it keeps
//! ```
//!
//! # Rust
//!
//! The decisions that need no DOM are plain Rust, tested natively:
//!
//! ```
//! use morph::{digest::Ledger, gate::{Decision, Gate}, rules};
//!
//! // What incoming HTML may keep.
//! assert!(!rules::attribute_allowed("onerror", "alert(1)"));
//! assert!(!rules::attribute_allowed("href", "javascript:alert(1)"));
//!
//! // The scheduler's rate: the first update runs, the next waits its turn.
//! let mut gate = Gate::default();
//! assert_eq!(gate.offer(0.0), Decision::RunNow);
//! gate.ran(0.0);
//! assert_eq!(gate.offer(100.0), Decision::RunAt(250.0));
//!
//! // Change detection: a section whose HTML did not change is skipped.
//! let mut ledger = Ledger::default();
//! assert!(ledger.record("hero", "<section>v1</section>"));
//! assert!(!ledger.record("hero", "<section>v1</section>"));
//! ```
//!
//! # Speed and size
//!
//! The DOM work is plumbing in one small JavaScript module, the loader
//! `js/morph.js`: walks, the attribute copy loop, inserts, the inert parse
//! and the suspect search, saving and restoring focus. Wasm calls it
//! through plain imports (`dom.rs`) with numeric node handles (an index into
//! a table the loader keeps for one morph), so each call is a plain `i32`
//! call, and every decision (matching, keys, id sets, what is kept, the URL
//! rule, the scheduler's) stays in Rust. Tags, attribute values, text and
//! section HTML are compared in JS, never copied into wasm memory; the few
//! strings the rules judge (names, URLs, keys) cross a UTF-16 unit at a
//! time. Per-node facts are a vector indexed by handle. `bench/` times it
//! against idiomorph and morphdom (see `bench/README.md`).
//!
//! # Why a hand-written loader instead of wasm-bindgen
//!
//! The whole npm entry (entry, loader, wasm) must fit its gzip budget
//! (`size-budget/budgets.json`). With wasm-bindgen it was 15.3 KB: its glue and class wrappers (about 2 KB gzip
//! beside the DOM helpers), and in the wasm the externref table, a shim per
//! export and a long hashed name per import. The morph needs no JS object in
//! Rust beyond handles, so, as the interaction runtime does, the loader
//! imports the helpers into the wasm with one-letter names and gives the
//! JavaScript face itself: `init`, `morph` (reads the options, calls the
//! export `m`) and a `Preview` class over the exports `p`, `u`, `s`, `f`, `d`
//! (its state, the scheduler and the ledger, stays in Rust, numbered). JS
//! values that outlive a morph (the target, the HTML a preview keeps, the
//! `onMorph` callback) sit in the loader's value store; Rust owns their
//! slots and frees them on drop (`dom::Js`). The import names live in
//! `dom.rs` and `js/morph.js` only, the export names in `wasm.rs` and
//! `js/morph.js` only.
//!
//! The wasm is `no_std` (a trapping panic handler, a size-class allocator
//! of its own in `wasm.rs`). Built as `scripts/build` does (`build_morph` in
//! `scripts/parts`):
//!
//! ```text
//! cargo build --release --target wasm32-unknown-unknown -p morph
//! node scripts/panics.mjs traps $TARGET/wasm32-unknown-unknown/release/morph.wasm traps.wasm
//! wasm-opt --flatten --rereloop -Oz -Oz --converge --strip-debug --strip-producers \
//!   --strip-target-features traps.wasm -o opt.wasm
//! node scripts/panics.mjs tail opt.wasm $OUT/morph_bg.wasm
//! esbuild --minify --tree-shaking=true --format=esm crates/morph/js/morph.js --outfile=$OUT/morph.js
//! ```
//!
//! What that comes to, wasm, loader and entry apart, is in `docs/size.md`,
//! which `size-budget/check.mjs` writes (`scripts/panics.mjs` took 107 B
//! off: the panic entry points trap at once; its data keeps several
//! segments, so no tail is cut); it was 15,382 B gzip with
//! wasm-bindgen and 27.6 KB with ~120 web-sys imports. The browser tests
//! (`tests/browser/e2e/morph.test.mjs`) load exactly these files in
//! Chromium.
//!
//! # The algorithm
//!
//! It is idiomorph's (bigskysoftware/idiomorph, `CONCEPT.md`), extended to
//! three kinds of key, with a state-keeping rule for form controls and
//! disclosures. Read this before changing `live.rs`.
//!
//! ## 1. Parse inert, strip
//!
//! The HTML is parsed into a `<template>` (a fragment) or, for a whole
//! document (`<!doctype` or `<html` first), into a detached `<html>` element
//! (an element of the template's inert document) whose `<body>` is taken.
//! Neither runs scripts nor loads resources. Then the loader walks the
//! parsed elements, template contents included, for the suspects (elements
//! named `script`, `base`, `meta`, `style`, `link`, `animate`, `set`;
//! attributes named `on*`, `form*`, `srcdoc`, `id`, `name` or a URL
//! attribute), which [`rules`] judges:
//! `<script>`, `<base>` and `<meta>` are removed, `<style>` and `<link>`
//! too unless the target is in a shadow root or a frame's document (one
//! that is not the document of the page that loaded the morph), and so is
//! an SVG `<animate>`/`<set>` targeting an `href`; `on*` attributes,
//! `srcdoc`, `form` and the `form*` overrides, an `id` or `name` the
//! browser says would shadow a property of the target's `document` or
//! `window`, and URL attributes (`href`, `src`, `action`, `xlink:href`,
//! `data`) with a scheme other than http, https, mailto and tel are
//! dropped; template contents are cleaned the same way. Only then does
//! anything get
//! near the live document, so an `<img onerror>` has nothing to fire.
//!
//! ## 2. Keys and id sets
//!
//! An element's key is its `id`, else `data-section-id`, else
//! `data-component-id` (three namespaces). A key is *persistent* when exactly
//! one element carries it in the old tree and one in the new, with the same
//! tag ([`keys::Keys`]). Every element has an *id set*: the persistent keys of
//! itself and its descendants that no new node has claimed yet (a new node
//! claims its key when it is morphed). The id sets let a decision at the top
//! of the tree see the keyed nodes deep below.
//!
//! They are never listed (that costs keys × depth: an id on each of N
//! nested elements would make N²/2 entries). The persistent keyed elements
//! of each tree, found with one `querySelectorAll`, are ranked in document
//! order, so the keys at and below an element are the ranks of one range;
//! each element gets its range by walks up from the ranked elements, each
//! stopping at a node an earlier walk reached, so every node is walked at
//! most twice. [`keys::Ranks`] holds, by old rank, the new rank of each key
//! not claimed yet, and gives the least over a range in O(log n). Since the
//! new tree is morphed in document order, every key of a lower new rank than
//! a new node's is claimed when that node is matched: an old element's id set
//! meets the new node's exactly when the least new rank over the old
//! element's range falls in the new node's range, and it holds a key when
//! that least is not "none".
//!
//! ## 3. Morph children, left to right
//!
//! For each new child, with a cursor on the old children:
//!
//! 1. **Best match** among the old siblings from the cursor on: the first
//!    that *soft-matches* (same node type and tag, and if the old node has a
//!    key, the same key) and whose id set intersects the new child's. Failing
//!    that, the first soft match holding no persistent key, unless two of the
//!    upcoming new siblings soft-match old nodes before it (then inserting is
//!    cheaper than consuming their matches). The search stops at the focused
//!    element, so focus is never moved away (the focused element's ancestors
//!    are marked once per morph, and unmarked as the focus moves out of them:
//!    `contains` at every level would climb the whole depth each time), and,
//!    for a new child holding no
//!    key, at an old node holding some (a departure from idiomorph 0.8):
//!    reaching past it would park that keyed subtree in the pantry and
//!    rebuild its keyless parents around it, where creating the keyless
//!    child is one insert (on idiomorph's html5 pair, 76 nodes inserted
//!    instead of 129). Old nodes skipped over are removed; the match is
//!    morphed (step 4); the cursor moves past it. A search for a new child
//!    with no key and holding none that finds no soft match is remembered
//!    for its node name until a new child with a key or holding some, or a
//!    match on an old element that is keyed or holds keys or the focus,
//!    could change what lies ahead: the next such child of that name skips the search, which would
//!    find nothing again, so a list whose tags all change costs one scan,
//!    not one per new child.
//! 2. Else, if the new child's key is persistent, the old element with that key
//!    is **moved** here from wherever it is, then morphed.
//! 3. Else a node is **created**: the new node itself (it is clean and inert),
//!    or, if it holds persistent keys, an empty element of its tag that is then
//!    morphed, so the keyed old nodes move into it.
//!
//! Old children left after the cursor are removed. A removed node still
//! holding a persistent key goes to a hidden *pantry* just after `<body>`
//! instead, so a later new node can still claim it; the pantry is dropped at
//! the end. Moves use `moveBefore` where the browser has it (feature-detected
//! on the node), which keeps focus, iframe documents, media playback, scroll
//! and animations; else `insertBefore`.
//!
//! ## 4. Morph one node
//!
//! An element equal to its new counterpart (`isEqualNode`: tag, attributes
//! and the whole subtree, compared natively) is left alone: the live state
//! the person changed is in properties, which that does not compare. A plain
//! element whose new counterpart has a single child is not compared (its
//! child is, one level down): comparing at every level of a deep chain would
//! walk everything below each level again. (Before
//! anything, a range whose nodes all equal the new ones returns at once, not
//! even indexing keys.) Otherwise: text and comments take the new text;
//! elements take the new attributes (namespaced ones with `setAttributeNS`)
//! and lose the others, except `data-morph-changed` (the outline). Then the
//! person's state:
//!
//! - `value`, `checked`, `selected` attributes are the server's *defaults*.
//!   Only when a default changed (old attribute vs new) is the live property
//!   (`value`, `checked`, `selected`) set; otherwise what the person typed,
//!   ticked or picked stays. A `<textarea>`'s default is its text: it is
//!   entered only when that text changed, and then its value follows.
//! - `open` on `<details>` and `<dialog>` is both default and live state, so
//!   the server's last `open` is remembered on the element (a JS property,
//!   `__morphServerOpen`, invisible to serialization). The element follows
//!   the server only when the server's own `open` changed;
//!   a dialog is closed with `close()`, so a modal one leaves the top layer.
//!   An element first seen by a morph (content the morph did not write)
//!   keeps the state it shows, which the person may have set: its markup
//!   is not known, so the new markup's `open` is taken as the server's
//!   (SPEC.md section 12's first morph); a server change to it then shows
//!   from the next morph on.
//! - A `data-section-id` the caller knows unchanged (the `Preview` passes
//!   them) is matched but never entered.
//!
//! Then its children are morphed (step 3).
//!
//! ## 5. Around the morph
//!
//! Before: the focused element within the target, its selection range and
//! the document selection (a caret in a contenteditable) are saved. After:
//! focus is given back if it was lost (with `preventScroll`), the ranges are
//! restored (offsets clamped to the nodes' new lengths). The morph never reads
//! layout, so nothing clamps the window's scroll half-way; containers keep
//! theirs because they are reused or moved with `moveBefore`. Changed elements (attributes changed, created, text changed,
//! a child removed) are outlined with `data-morph-changed` for
//! `options.outline` ms, and with `options.follow` the last one is scrolled
//! into view (`block: "nearest"`).
//!
//! ## 6. The scheduler
//!
//! `Preview` queues updates ([`gate::Pending`]: a whole document supersedes
//! everything pending; a section supersedes its own earlier version) and
//! morphs at once if the last morph ended 250 ms ago or more, else sets one
//! timer for that moment ([`gate::Gate`]): at most 4 morphs a second, the
//! latest update winning. A [`digest::Ledger`] keeps each section's HTML as
//! last applied, as a JS string compared with `===` (copying a page into wasm
//! memory to hash it would cost more): a section whose HTML is the same is
//! skipped (not entered for a whole document, not even parsed for a single
//! section), so a one-section change costs that section. The keys that
//! changed (added, changed, removed) go to `onMorph` and are returned by
//! `flush()`. An update sent while a morph runs (a custom element's
//! callback fires inside the morph's insertions) waits in the inbox and gets
//! its own turn after it.
#![cfg_attr(target_arch = "wasm32", no_std)]
// Allowed only for the import block (`dom.rs`) and the exports and the
// one global (`wasm.rs`).
#![deny(unsafe_code)]
extern crate alloc;

pub mod digest;
pub mod gate;
pub mod keys;
pub mod rules;

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(target_arch = "wasm32")]
pub mod live;
#[cfg(target_arch = "wasm32")]
mod wasm;
