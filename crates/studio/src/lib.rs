//! Studio's one WebAssembly module.
//!
//! The streaming parser checks each surface line with the validator, the
//! reference renderer validates before it renders, and interop reads A2UI
//! with the streaming parser's readers and checks with the validator, so
//! all four link the same validator core and the built-in catalog. Shipped
//! as four modules, Studio would download that core four times; linked
//! here, it downloads it once. This crate adds no code: it links the four
//! crates, whose `#[wasm_bindgen]` faces (each crate's `src/wasm.rs`)
//! become this module's exports. The npm package's `./validator`,
//! `./stream`, `./render` and `./interop` entries each re-export their part
//! of it and share one `init()`.
//!
//! Natively there is nothing to use here: depend on `validator-wasm`,
//! `streaming-parser`, `surfaces-render` or `interop` directly.

// Linked for their exports only.
use interop as _;
use streaming_parser as _;
use surfaces_render as _;
use validator_wasm as _;
