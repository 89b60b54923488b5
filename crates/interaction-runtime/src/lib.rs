//! The script on published pages: hydrates server-rendered surfaces.
//!
//! A published page is complete without JavaScript: the server renders every
//! surface with its initial state (SPEC.md section 10, `surfaces render`).
//! This crate, compiled to WebAssembly and started by a small ES module
//! loader (`js/surface.js`), makes those surfaces interactive: it reads each
//! `[data-ch-surface]`'s state from its `data-ch-state` script and applies
//! `data-ch-text`, `data-ch-attr`, `data-ch-model`, `data-ch-visible`,
//! `data-ch-checks` and `data-ch-action`.
//!
//! Conditions, functions, JSON Pointer and the safe-href rule are
//! [`surfaces_core`]'s, the same code the validator runs, so a page and
//! Studio never disagree; locale-dependent formatting goes to the browser's
//! `Intl` through [`surfaces_core::function::Host`].
//!
//! # How it works
//!
//! The work is split by what is shared. What the validator also decides
//! (conditions, the function set, JSON Pointer, the safe-href rule, JSON
//! equality, how a value reads as text) runs here, in Rust, as
//! [`surfaces_core`]'s own code: the module's exports. What only a
//! published page does is the loader's (`js/surface.js`), in JavaScript, the
//! language of the DOM: finding bound elements, reading the `data-ch-*`
//! attributes, the `data-ch-model` coercions, the `data-ch-attr`
//! allowlist, actions and which bindings an update touches.
//!
//! - **State** stays where `JSON.parse` put it, in the loader, as do the
//!   bound expressions and every computed value: the exports take and give
//!   handles, and Rust reads values through [`surfaces_core::JsonView`], so
//!   the shared rules run on them unchanged and Rust never parses or prints
//!   a float. A write goes to where [`state::place`] finds it (a deep copy);
//!   `reset` parses the state script again and goes back to that.
//! - **Hydration** binds every element of each surface (innermost surfaces
//!   first, so an element belongs to the surface nearest to it), records
//!   which pointers each binding reads, and applies each binding once.
//!   Every DOM write compares first, so where the server rendered the right
//!   text nothing changes (no flash). Checks run from the first change on,
//!   so an untouched form shows no errors.
//! - **Events**: one delegated listener per event type (`input`, `click`) on
//!   the document walks from the target up to the first bound element that
//!   handles it. A write re-applies only the bindings of the same surface
//!   whose read pointers overlap the written one, segment-wise; the field
//!   being typed in is left alone.
//! - **Safety**: bound values are set as `textContent`, never HTML;
//!   `data-ch-attr` writes only `value`, `checked`, `disabled`, `aria-*`,
//!   `data-*` (exactly, in lower case) and a safe `href`; pointers with
//!   `__proto__`, `constructor` or `prototype` are refused; a surface whose
//!   state does not parse is left as rendered while the others run. No
//!   walk over an expression recurses, so no nesting depth breaks hydration.
//! - **CSP**: compiling WebAssembly needs `'wasm-unsafe-eval'` in
//!   `script-src`. Without it the loader catches the refusal, logs one
//!   warning naming it, and the page stays as rendered.
//! - **Two modules**: the crate builds with its default `functions`
//!   feature (`surface.wasm`) and without it (`surface.nocalls.wasm`, whose
//!   [`surfaces_core::function::Host`] answers `calls() == false`, so the
//!   function set is left out, its table too, as a check asks the host
//!   before it looks a function up: 4.2 KB gzip against 7.5 KB). The loader reads
//!   the markup before fetching: a `data-ch-checks`, or `call` or a
//!   backslash (a `\u` escape could spell the key) in a `data-ch-text`,
//!   `data-ch-attr` or `data-ch-action`, takes `surface.wasm`. A surface
//!   added later that holds a call, on a page that loaded the other, is
//!   hydrated once `surface.wasm` has replaced it: the values all live in
//!   the loader, so nothing is lost in the swap.
//! - **One expression, computed once**: bound expressions are parsed once
//!   per distinct text (with their handle and the pointers they read), and
//!   in one round of showing (a surface's hydration, or a write) bindings
//!   of one kind with the same expression share one result.
//!
//! ```
//! use interaction_runtime::state::place;
//!
//! let state = serde_json::json!({"plan": {"seats": 3}, "tags": ["a"]});
//! let mut at = None;
//! assert!(place(&&state, "/tags/-", |parent, _, index| at = Some((parent.is_some(), index))));
//! assert_eq!(at, Some((true, Some(1)))); // appended to the array
//! assert!(!place(&&state, "/plan/__proto__", |_, _, _| {})); // refused
//! assert!(!place(&&state, "/missing/seats", |_, _, _| {})); // no parent
//! ```
//!
//! # Why a hand-written loader instead of wasm-bindgen
//!
//! The runtime must cost a page at most 12,288 bytes gzip, loader and wasm
//! together (its budget in `size-budget/budgets.json` now holds it lower),
//! with 8,192 the goal. wasm-bindgen's fixed cost (its generated glue and externref
//! table, about 1.3 to 1.6 KB gzip, plus a long hashed name per import) is
//! a fifth of that goal before the runtime does anything. The module needs
//! no JS objects beyond handles into the loader's value array, so a loader
//! over plain wasm imports and exports (`js/surface.js`, one-letter names)
//! does the job for a fraction of the bytes. Only this crate and `morph` do
//! this; the others use wasm-bindgen. The import and export names live in
//! two files only, `src/wasm.rs` and `js/surface.js`.
//!
//! # Building (what `scripts/build` runs for this crate)
//!
//! ```text
//! cargo build --release --target wasm32-unknown-unknown -p interaction-runtime
//! node scripts/panics.mjs traps $TARGET/wasm32-unknown-unknown/release/interaction_runtime.wasm traps.wasm
//! wasm-opt --flatten --rereloop -Oz -Oz --converge --low-memory-unused --strip-debug \
//!   --strip-producers --strip-target-features traps.wasm -o opt.wasm
//! node scripts/panics.mjs tail opt.wasm $OUT/surface.wasm
//! # the same three steps again after
//! cargo build --release --target wasm32-unknown-unknown -p interaction-runtime --no-default-features
//! # into $OUT/surface.nocalls.wasm; then the loader:
//! esbuild --tree-shaking=true --format=esm --define:WASM='"surface.wasm"' \
//!   --define:NOCALLS='"surface.nocalls.wasm"' crates/interaction-runtime/js/surface.js --outfile=surface.js
//! terser surface.js --module --mangle \
//!   --compress passes=3,pure_getters=true,sequences=false -o $OUT/surface.js
//! ```
//!
//! `scripts/panics.mjs` makes core's and alloc's panic entry points trap
//! at once (they trap anyway, through the panic handler, after formatting
//! a message nobody reads), so that wasm-opt drops the formatting, and then
//! cuts the panic data nothing addresses any more (file paths of panic
//! locations, the allocator's messages, the digit table) off the data
//! segment's end: 457 B gzip.
//!
//! `build.rs` links the module with its stack after its data
//! (`--no-stack-first`): static strings then sit below 2 KiB, where their
//! addresses are two-byte constants (-60 B gzip), and the loader knows one
//! by its address alone. Nothing lives below 1 KiB then, which is what
//! wasm-opt's `--low-memory-unused` assumes to fold more address
//! arithmetic into loads and stores (-48 B). The loader finds its wasm as
//! `new URL(WASM, import.meta.url)`; `WASM` is the define above, so hashing
//! the wasm name afterwards (`sed` over the minified loader) or passing the
//! hashed name to `--define` both work. The loader exports nothing and
//! starts itself.
//!
//! # Size
//!
//! Release profile (`opt-level = "z"`, LTO, one codegen unit,
//! `panic = "abort"`), `#![no_std]` on wasm32, a bump allocator emptied when
//! an export starts (in `src/wasm.rs`: Rust keeps nothing between calls, so
//! memory stays at what the largest call needed however many events run; a
//! browser test runs 3,000 rounds of five events and fails if the memory
//! grew; it took 85 B gzip off a free list per size class), a panic handler
//! that traps, wasm-opt `-Oz` after `--flatten --rereloop`, with
//! `--low-memory-unused`, and the loader minified by terser (54 B under
//! esbuild's minifier). What that comes to, loader and wasm apart, is in
//! `docs/size.md`, which the size-budget check writes from the hashed files.
//!
//! It was 12,919 B gzip, 631 B over the budget, while the page's own work
//! was in Rust too: every DOM read and write then crossed to the loader
//! through an import, and the code around each crossing (strings passed
//! both ways, handles registered, results matched) cost more in wasm than
//! the DOM call it made costs in JavaScript. Moving that work to the loader
//! took 2,830 B off the wasm for 1,147 B more loader; the link and wasm-opt
//! flags above another 108 B. Issue 16's goal of 9,216 B for a page with
//! every feature is not reached (10,931 B: the loader 3.5 KB, the module
//! 7.5 KB); a page whose surfaces hold no call downloads 7,639 B, with the
//! module without the function set. What is left in the wasm is the shared
//! rules themselves, and the function set alone is about 3 KB of it: a
//! further cut would move a shared rule into JavaScript, a second
//! implementation, which the project does not do. Where the wasm's
//! bytes go now (`twiggy top`, wasm-opt'd with names kept; functions called
//! once are inlined into their caller, so `call_level` holds the whole
//! function set with its Intl call, and the one-letter exports their rule):
//!
//! ```text
//!  Shallow Bytes │ Item
//!           4765 ┊ surfaces_core::function::evaluate::call_level
//!           1495 ┊ data segment ".rodata" (names, the function table)
//!            960 ┊ surfaces_core::condition::evaluate_level
//!            818 ┊ surfaces_core::view::json_equal
//!            579 ┊ surfaces_core::pointer::parse
//!            554 ┊ s (href::is_safe_href)
//!            537 ┊ w (state::place)
//!            387 ┊ alloc::raw_vec::RawVecInner::grow_amortized
//! ```
//!
//! By feature, measured by stubbing each out of a copy (gzip of the whole
//! wasm, before the split): the function set about 3.5 KB (formatDate 0.9,
//! email and pluralize 0.4 each, formatNumber 0.3, formatCurrency 0.23),
//! conditions 0.75 KB, `json_equal` 0.4 KB, the safe-href rule 0.26 KB.
//!
//! What keeps the shared rules small in wasm (it holds for any code built
//! into this module): no code path that formats a panic message (string
//! slicing by index, `contains`/`replace`/`split` on `&str`, char-pattern
//! `strip_prefix`, `chars().count()`, `char::is_whitespace`, `str::parse`,
//! slice indexing): each pulls `core::fmt` or a string searcher, and one of
//! them the Unicode printable tables (4.5 KB gzip). `surfaces-core`'s rules
//! are written as byte loops for this (same results; its tests compare them
//! with the standard library's). Allocation code is generic, so fewer
//! instantiations pay too: vectors started empty and pushed to (not `vec!`,
//! `collect`, `extend`, `resize_with`), loops that borrow rather than
//! consume. The thin wrappers over imports (`J`'s `kind`, `index`, `get`,
//! `len`, the `Host` methods) are inlined: a call to a wrapper costs more
//! than the import call it wraps. What remains in the data segment from
//! `alloc`'s own panics (capacity overflow, allocation failure: about 400
//! bytes raw) goes only with a nightly `build-std` and
//! `panic_immediate_abort`. Tried and dropped (larger or no gain):
//! dispatching `call_level` by table position instead of by name;
//! `opt-level = "s"`; other `target-cpu`s and inline thresholds; more
//! wasm-opt passes (`--gufa-optimizing`, `--monomorphize`,
//! `--inlining-optimizing`, a second `--flatten --rereloop`: 0 to +33 B).
//!
//! # Speed
//!
//! `bench/run.mjs` (a benchmark, not a test) hydrates 30 surfaces of 200
//! components each, and times an `input` event to all bindings updated,
//! side by side with petite-vue wired to equivalent markup (which needs
//! `'unsafe-eval'`). The goals: hydration no slower than petite-vue, an
//! update under 1 ms. The figures of the last run, with how much of our
//! hydration is fetching and compiling the wasm, are in
//! `docs/performance.md` (`scripts/bench --write`). An update's time goes mostly to the DOM writes and to strings crossing
//! (a bound pointer is read by Rust, a shown text made by it). The loader
//! decodes the strings of the module's data segment (names such as
//! `path`, `call`, `args`: below `__data_end`, never rewritten) once and
//! keeps them, which took an update from 1.7 to 0.8 ms; it reads and
//! writes a short ASCII string itself, byte by byte, since a
//! `TextDecoder.decode` or `encodeInto` call costs more than such a string
//! takes (in a CPU profile of the benchmark page they were two fifths of
//! an update: 0.70 ms became 0.46, against petite-vue's 0.50 in the same
//! harness). Removing either measured slower again (0.46 and 0.57 ms) on
//! the benchmark page, whose first updates run cold. Bound expressions are
//! parsed once per distinct text, and a round of showing computes each
//! (kind, expression) once: hydration 210 to about 135 ms, where the page
//! shows one value in sixty places. An update is then mostly the DOM's
//! work (setting sixty texts: a third of it in a profile) and the forty
//! conditions' crossings; it is at about petite-vue's, within the fifth by
//! which the figure moves from run to run. Intl
//! formatters are built once per kind,
//! locale and options; other strings cross through one reused scratch
//! buffer. Run it with `node crates/interaction-runtime/bench/run.mjs [page
//! loads]` after `scripts/build`; it loads the runtime from where the build
//! put it (`dist/artifacts.json`).
#![cfg_attr(target_arch = "wasm32", no_std)]
extern crate alloc;

pub mod state;

#[cfg(target_arch = "wasm32")]
mod wasm;
