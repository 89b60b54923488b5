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
//! - **State** stays where `JSON.parse` put it, in the loader, as do the
//!   bound expressions: Rust holds handles and reads them through
//!   [`surfaces_core::JsonView`], so the shared rules run on them
//!   unchanged and Rust never parses or prints a float. Writes go through
//!   [`runtime::Page::assign`] (a deep copy, at a pointer Rust resolved);
//!   `reset` parses the state script again and goes back to that.
//! - **Hydration** ([`runtime::Runtime::hydrate`]) registers every bound
//!   element, records which pointers each binding reads, and applies each
//!   binding once. Every DOM write compares first, so where the server
//!   rendered the right text nothing changes (no flash). Checks run from
//!   the first change on, so an untouched form shows no errors.
//! - **Events**: one delegated listener per event type (`input`, `click`) on
//!   the document walks from the target up to the first element the runtime
//!   registered that handles it. A write re-applies only the bindings of the
//!   same surface whose read pointers overlap the written one
//!   ([`binding::overlaps`]); the field being typed in is left alone.
//! - **Safety**: bound values are set as `textContent`, never HTML;
//!   `data-ch-attr` writes only `value`, `checked`, `disabled`, `aria-*`,
//!   `data-*` and a safe `href` ([`binding::attr_rule`]); pointers with
//!   `__proto__`, `constructor` or `prototype` are refused; a surface whose
//!   state does not parse is left as rendered while the others run.
//! - **CSP**: compiling WebAssembly needs `'wasm-unsafe-eval'` in
//!   `script-src`. Without it the loader catches the refusal, logs one
//!   warning naming it, and the page stays as rendered.
//!
//! ```
//! use interaction_runtime::binding::{attr_rule, overlaps, reads, AttrRule};
//!
//! assert_eq!(attr_rule("aria-pressed"), Some(AttrRule::Text));
//! assert_eq!(attr_rule("onclick"), None);
//! assert!(overlaps("/plan/price", "/plan"));
//!
//! let text = serde_json::json!({"call": "formatNumber", "args": {"value": {"path": "/seats"}}});
//! let mut read = Vec::new();
//! reads(&&text, &mut read);
//! assert_eq!(read, ["/seats"]);
//! ```
//!
//! # Why a hand-written loader instead of wasm-bindgen
//!
//! The runtime must cost a page at most 12,288 bytes gzip, loader and wasm
//! together, with 8,192 the goal. wasm-bindgen's fixed cost (its generated
//! glue and externref table, about 1.3 to 1.6 KB gzip, plus a long hashed
//! name per import) is a fifth of that goal before the runtime does
//! anything. The runtime needs no JS objects in Rust beyond element handles,
//! so a loader over plain wasm imports (`js/surface.js`, one-letter import
//! names, handles as indices into one array) does the same job for a
//! fraction of the bytes (1,707 B gzip, loader and glue in one). Only this
//! crate does this; the others use wasm-bindgen. The import and export
//! names live in two files only, `src/wasm.rs` and `js/surface.js`.
//!
//! # Building (what `scripts/build` runs for this crate)
//!
//! ```text
//! cargo build --release --target wasm32-unknown-unknown -p interaction-runtime
//! wasm-opt --flatten --rereloop -Oz -Oz --converge --strip-debug --strip-producers \
//!   --strip-target-features $TARGET/wasm32-unknown-unknown/release/interaction_runtime.wasm \
//!   -o $OUT/surface.wasm
//! esbuild --minify --format=esm --define:WASM='"surface.wasm"' \
//!   crates/interaction-runtime/js/surface.js --outfile=$OUT/surface.js
//! ```
//!
//! The loader finds its wasm as `new URL(WASM, import.meta.url)`; `WASM` is
//! the define above, so hashing the wasm name afterwards (`sed` over the
//! minified loader) or passing the hashed name to `--define` both work. The
//! loader exports nothing and starts itself.
//!
//! # Size
//!
//! Release profile (`opt-level = "z"`, LTO, one codegen unit,
//! `panic = "abort"`), `#![no_std]` on wasm32, a free list per power-of-two
//! size class as the allocator (in `src/wasm.rs`: freed blocks are reused,
//! so memory stays flat however many events run; 6,000 rounds of input,
//! click and radio events leave the memory at its size after the first
//! 100), a panic handler that traps, wasm-opt `-Oz` after
//! `--flatten --rereloop` (about 200 B less than `-Oz` alone); measured as
//! the size-budget check does (hashed files, Node's zlib):
//!
//! | file | raw | gzip -9 | brotli 11 |
//! |---|---|---|---|
//! | `surface.<hash>.js` (loader and glue) | 3,220 | 1,707 | 1,527 |
//! | `surface.<hash>.wasm` | 22,597 | 11,212 | 9,965 |
//! | together | 25,817 | 12,919 | 11,492 |
//!
//! Down from 22,141 B gzip (15,449 before the state moved to the loader,
//! 15,082, 14,341 and 12,990 at the start of the last three passes), still
//! 631 B over the 12,288 budget.
//! Where the bytes go (`twiggy top`, wasm-opt'd with names kept; functions
//! called once are inlined into their caller, so `h` holds hydration and
//! binding and `call_level` the whole function set with its Intl call):
//!
//! ```text
//!  Shallow Bytes │ Item
//!           4859 ┊ surfaces_core::function::call_level
//!           1893 ┊ interaction_runtime::runtime::Runtime::apply (with compute)
//!           1893 ┊ data segment ".rodata" (names, selectors, function table)
//!           1412 ┊ interaction_runtime::runtime::Runtime::run (actions)
//!           1311 ┊ h (hydrate, bind)
//!            780 ┊ surfaces_core::condition::evaluate_level
//!            755 ┊ interaction_runtime::runtime::Runtime::write (runtime::place)
//!            663 ┊ surfaces_core::view::json_equal
//!            638 ┊ interaction_runtime::runtime::Runtime::push (binding::reads)
//!            581 ┊ surfaces_core::pointer::parse
//!            528 ┊ e (events)
//! ```
//!
//! By feature, measured by stubbing each out of a copy (gzip of the whole
//! wasm, at 14.6 KB): the function set about 3.5 KB (formatDate 0.9, email
//! and pluralize 0.4 each, formatNumber 0.3, formatCurrency 0.23, the rest
//! 0.02 to 0.18), actions 1.1 KB, conditions 0.75 KB, `json_equal` 0.4 KB,
//! checks 0.3 KB, the safe-href rule 0.26 KB. The rest (hydration,
//! bindings, events, pointers, the loader's imports, the allocator) was
//! about 7.5 KB before the last pass, which took 1,211 B off it.
//!
//! What got it here: the state and bound expressions held by the loader
//! as `JSON.parse` made them (Rust reads them through `JsonView` over
//! handles: no value tree, builder, clone or drop code in the wasm; it cost
//! the loader about 110 bytes and saved the wasm about 470); radios handled
//! as a select of one option; no code path that
//! formats a panic message (string
//! slicing by index, `contains`/`replace`/`split` on `&str`, char-pattern
//! `strip_prefix`, `chars().count()`, `char::is_whitespace`, `str::parse`,
//! slice indexing): each pulls `core::fmt` or a string searcher, and one
//! of them the Unicode printable tables (4.5 KB gzip). `surfaces-core`'s
//! rules are written as byte loops for this (same results; its tests
//! compare them with the standard library's), call arguments are read by
//! shared readers. Allocation code is generic, so fewer instantiations pay
//! too: vectors started empty and pushed to (not `vec!`, `collect`,
//! `extend`, `resize_with`), loops that borrow rather than consume. What
//! remains in the data segment from `alloc`'s own panics (capacity
//! overflow, allocation failure: about 400 bytes raw) goes only with a
//! nightly `build-std` and `panic_immediate_abort`. wasm-opt flags barely
//! matter (`--converge`, `--low-memory-unused`: under 60 bytes). Tried and
//! dropped (larger): dispatching `call_level` by table position instead of
//! by name, and a `chars()`-based pointer unescape; `opt-level = "s"` (+200
//! B), other `target-cpu`s and inline thresholds (no gain). The last pass
//! took 740 B: pointers parsed into owned segments in one byte loop, the
//! function set reading its declared arguments once into slots, one `Intl`
//! import instead of three, the loader reading `data-ch-*` attributes, the
//! wasm-opt flags. The pass after it took 1,357 B (14,341 to 12,984 B
//! gzip; 6 B came back with the allocator refusing alignments past a
//! page): 146 from two `surfaces-core` commits made meanwhile (ISO dates,
//! `{count}`, currency codes), 1,211 from the runtime's own code: values
//! that only pass through Rust made or parsed by the loader (a field's
//! `value` as a JSON string, a `data-ch-value` attribute parsed where it is
//! read: -131); the thin wrappers over imports inlined (`J`'s `kind`,
//! `index`, `get`, `len`, the `Page` and `Host` methods of `Browser` but
//! `set_attr`: -470 B; a call to a wrapper costs more than the import call
//! it wraps); the loader answering "none" for an item or member of what is
//! no array or object, and past the last key, so Rust asks no kind first
//! (-148); storing less at hydration and reading it when needed (an
//! element's action at its click, a check's message element when written,
//! what a radio or option stands for: -159); one binding per `data-ch-attr`
//! object instead of one per attribute with its name copied (-48); the
//! runtime stored without drop code (-46); `reset` parsing the state script
//! when it runs (-7); the size-class allocator instead of lol_alloc's
//! first-fit list (-54); actions computing what they write and writing once
//! (-35); one out-of-line `text_of` for the four places a value is shown
//! (-36); fewer and merged imports, `data-ch-` added by the loader, a
//! shorter CSP warning (-36). Tried and dropped (larger, in B gzip): no
//! per-handle table, the model or action binding found by scanning (+9 to
//! +40); the model's path held as its binding's read (+24) or read from its
//! expression (+46); the model binding and surface set in one `element`
//! call (+28); actions matched by table position (+11); text bindings
//! through `Value::to_text` without making a value (+53); one "one or a
//! list" helper for actions and checks (+88); `place` with one exit (+6);
//! reads in one runtime-wide vector (+2); `Vec::resize` for the handle
//! table (+107); `apply` taking a binding by reference (+22);
//! `as_f64`/`as_bool` through one import answering `NaN` (+17); inlining
//! `as_str`, `keys`, `take` or `formatted` (+18 to +101). The pass after
//! that took 71 B (12,990 to 12,919): an element's model binding as an
//! index with a sentinel instead of an `Option` (-25); a model binding's
//! reads found in its `{"path"}` expression by `binding::reads`, like the
//! other bindings', instead of a copy of its path (-27); the control's
//! `type` through the one "empty for none" helper (-11); what a radio or
//! option stands for answered by one loader call (-2: wasm -24, loader
//! +22); no kind test before `get` on the model and attr expressions
//! (-6). Tried and dropped there: one uniform binding record (`What`
//! without values, the expression in `Binding`: +54, raw -3); "one or a
//! list" made by the loader for actions and checks (+26); a check's
//! message borrowed instead of owned (+14); an attribute's text made only
//! for the rules that show it (+35); `inline` hints on `bind`,
//! `read_field`, `update`, `compute`, `set`, `push`, `element`, and the
//! allocator's class from `leading_zeros` (no change to the byte); the
//! element entry written once per bind (raw -9, gzip 0); `--remap-path-prefix`
//! for the `alloc` paths left in the data segment (no effect: they come
//! from the standard library's metadata). Reaching the
//! budget needs more than trimming: every feature of sections 3 to 5 costs
//! 0.1 to 0.9 KB here, and the function set alone is a quarter of the
//! budget.
//!
//! # Speed
//!
//! `bench/run.mjs` (a benchmark, not a test) hydrates 30 surfaces of 200
//! components each, and times an `input` event to all bindings updated,
//! side by side with petite-vue wired to equivalent markup (which needs
//! `'unsafe-eval'`). On the shared 2-core build machine, 11 page loads,
//! medians (absolute figures are noisy, the ratio less so):
//!
//! | measure | ours (ms) | petite-vue (ms) | ours / petite-vue |
//! |---|---|---|---|
//! | hydrate (import to all surfaces hydrated) | 352.1 | 628.6 | 0.56 |
//! | update (`input` on a slider to its 100 bindings updated) | 0.8 | 0.8 | 1.00 |
//!
//! Every read of a value crosses to the loader, and strings cross through
//! `TextDecoder`/`TextEncoder`. The loader decodes the strings of the
//! module's data segment (names such as `path`, `call`, `args`: from 1 MiB,
//! past the stack, to `__data_end`, never rewritten) once and keeps them,
//! which took an update from 1.7 to 0.8 ms for 58 B gzip. Of our
//! hydration, about 90 ms was fetching and compiling the wasm. Intl
//! formatters are built once per kind, locale and options; other strings cross
//! through one reused scratch buffer. Run it with
//! `node crates/interaction-runtime/bench/run.mjs [page loads]` after
//! `scripts/build` (or with `SURFACE_SITE` naming a built runtime folder).
#![cfg_attr(target_arch = "wasm32", no_std)]
extern crate alloc;

pub mod binding;
pub mod runtime;

#[cfg(target_arch = "wasm32")]
mod wasm;
