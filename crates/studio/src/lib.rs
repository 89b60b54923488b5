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
//! The module allocates with `size-classes`, the morph's allocator too: a
//! free list per power-of-two size, a pop or a push per call. It replaced
//! `talc` 5 (which had replaced Rust's default dlmalloc, 2.5 KB gzip
//! larger): `validate` spent a fifth of its time in talc, and is about 10%
//! faster with it (`crates/validator-wasm/bench/node.mjs`).
//!
//! Natively there is nothing to use here: depend on `validator-wasm`,
//! `streaming-parser`, `surfaces-render` or `interop` directly.

// Linked for their exports only.
use interop as _;
use streaming_parser as _;
use surfaces_render as _;
use validator_wasm as _;

/// Blocks of a power of two bytes, one free list per size (the morph's
/// allocator too).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: size_classes::Classes = size_classes::Classes::new();
