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
//! - **State** is a small JSON tree owned by Rust ([`value::Value`]). The
//!   browser parses it (`JSON.parse`) and the loader walks the result into a
//!   [`value::Builder`], so Rust never parses or prints a float.
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
//! use interaction_runtime::binding::{attr_rule, overlaps, AttrRule};
//! use interaction_runtime::value::Value;
//!
//! assert_eq!(attr_rule("aria-pressed"), Some(AttrRule::Text));
//! assert_eq!(attr_rule("onclick"), None);
//! assert!(overlaps("/plan/price", "/plan"));
//!
//! let mut state = Value::Obj(vec![("seats".into(), Value::Num(3.0))]);
//! assert!(state.set("/seats", Value::Num(4.0)));
//! assert!(!state.set("/__proto__/x", Value::Null));
//! assert_eq!(state.at("/seats"), &Value::Num(4.0));
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
//! fraction of the bytes (1,450 B gzip, loader and glue in one). Only this
//! crate does this; the others use wasm-bindgen. The import and export
//! names live in two files only, `src/wasm.rs` and `js/surface.js`.
//!
//! # Building (what `scripts/build` runs for this crate)
//!
//! ```text
//! cargo build --release --target wasm32-unknown-unknown -p interaction-runtime
//! wasm-opt -Oz --strip-debug --strip-producers --strip-target-features \
//!   $TARGET/wasm32-unknown-unknown/release/interaction_runtime.wasm -o $OUT/surface.wasm
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
//! `panic = "abort"`), `#![no_std]` on wasm32, `lol_alloc`'s free-list
//! allocator, a panic handler that traps, wasm-opt `-Oz`:
//!
//! | file | raw | gzip -9 | brotli 11 |
//! |---|---|---|---|
//! | `surface.<hash>.js` (loader and glue) | 2,796 | 1,450 | 1,267 |
//! | `surface.<hash>.wasm` | 42,990 | 20,691 | 18,208 |
//! | together | 45,786 | 22,141 | 19,475 |
//!
//! Over the 12,288 budget. Where the bytes go (`twiggy top`, wasm-opt'd
//! with names kept):
//!
//! ```text
//!  Shallow Bytes │ Item
//!           6585 ┊ surfaces_core::function::call_level
//!           3269 ┊ h (hydrate, with bind inlined)
//!           2764 ┊ data segment ".rodata.6" (Unicode printable tables: panic formatting)
//!           1745 ┊ interaction_runtime::runtime::Runtime::run (actions)
//!           1456 ┊ data segment ".rodata.1" (strings: attribute names, selectors)
//!           1406 ┊ core::str::slice_error_fail
//!           1361 ┊ surfaces_core::condition::evaluate_level
//!           1350 ┊ <core::str::pattern::StrSearcher>::new
//!           1264 ┊ interaction_runtime::runtime::Runtime::apply
//!           1181 ┊ data segment ".rodata" (panic messages, function table)
//!           1126 ┊ surfaces_core::href::is_safe_href
//!            862 ┊ surfaces_core::view::json_equal
//!            848 ┊ core::str::count::do_count_chars
//!            835 ┊ e (events)
//!            798 ┊ interaction_runtime::runtime::Runtime::push
//!            616 ┊ surfaces_core::pointer::parse
//! ```
//!
//! A third of it is the shared rules' code in `surfaces-core`, and two
//! lines there cost 4.5 KB gzip: pluralize's `contains`/`replace` of
//! `{count}` pulls in `StrSearcher`, `TwoWaySearcher` and
//! `str::slice_error_fail`, whose panic message (a `char` printed with
//! `{:?}`) drags the Unicode printable tables into the data segment; and
//! `chars().count()` pulls `do_count_chars`. With both replaced by byte loops
//! in a scratch copy of core, the wasm is 16,171 B gzip (the loader adds
//! 1,450). The runtime's own code avoids indexing, `core::fmt`, float
//! parsing and printing, `trim` and case folding (the browser normalizes
//! control types).
//!
//! # Speed
//!
//! `bench/run.mjs` (a benchmark, not a test) hydrates 30 surfaces of 200
//! components each, and times an `input` event to all bindings updated,
//! side by side with petite-vue wired to equivalent markup (which needs
//! `'unsafe-eval'`). One run on the shared 2-core build machine, 11 page
//! loads each, medians (other builds were running: absolute figures are
//! noisy, the ratio less so):
//!
//! | measure | ours (ms) | petite-vue (ms) | ours / petite-vue |
//! |---|---|---|---|
//! | hydrate (import to all surfaces hydrated) | 982.6 | 1027.3 | 0.96 |
//! | update (`input` on a slider to its 60 bindings updated) | 0.5 | 0.8 | 0.63 |
//!
//! Of our hydration, 430.7 ms was fetching and compiling the wasm. Intl
//! formatters are built once per kind, locale and options; strings cross
//! through one reused scratch buffer. Run it with
//! `node crates/interaction-runtime/bench/run.mjs [page loads]` after
//! `scripts/build` (or with `SURFACE_SITE` naming a built runtime folder).
#![cfg_attr(target_arch = "wasm32", no_std)]
extern crate alloc;

pub mod binding;
pub mod runtime;
pub mod value;

#[cfg(target_arch = "wasm32")]
mod wasm;
