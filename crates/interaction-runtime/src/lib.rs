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
//! fraction of the bytes. Only this crate does this; the others use
//! wasm-bindgen.
#![cfg_attr(target_arch = "wasm32", no_std)]
extern crate alloc;

pub mod binding;
pub mod runtime;
pub mod value;

#[cfg(target_arch = "wasm32")]
mod wasm;
