//! Studio's one WebAssembly module.
//!
//! The streaming parser checks each surface line with the validator, and the
//! reference renderer validates before it renders, so all three link the same
//! validator core and the built-in catalog. Shipped as three modules, Studio
//! would download that core three times; linked here, it downloads it once.
//! This crate adds no code: it links the three crates, whose
//! `#[wasm_bindgen]` faces (each crate's `src/wasm.rs`) become this module's
//! exports. The npm package's `./validator`, `./stream` and `./render` entries
//! each re-export their part of it and share one `init()`.
//!
//! Natively there is nothing to use here: depend on `validator-wasm`,
//! `streaming-parser` or `surfaces-render` directly.

// Linked for their exports only.
use streaming_parser as _;
use surfaces_render as _;
use validator_wasm as _;
