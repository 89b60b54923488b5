//! The surface validator: catalogs, the rules of SPEC.md sections 1 to 8,
//! repairs and the RFC 6902 patch pipeline, and the catalog prompt.
//!
//! One pure-Rust core serves native code (the `surfaces` CLI, servers), Node
//! and the browser (the thin `wasm` layer converts at the edge). The shared
//! rules (JSON Pointer, safe hrefs, conditions, functions, the fence grammar)
//! come from `surfaces-core`, so the interaction runtime and the streaming
//! parser judge exactly as this crate does.
//!
//! ```
//! use validator_wasm::{validate_surface, Catalog, Severity};
//!
//! let catalog = Catalog::default_blog();
//! let surface = serde_json::json!({
//!     "id": "sec-pricing", "kind": "surface", "catalog": "blog@1",
//!     "components": [
//!         {"id": "root", "component": "Stack", "children": ["title", "plans"]},
//!         {"id": "title", "component": "Heading", "props": {"level": 2, "text": {"path": "/headline"}}},
//!         {"id": "plans", "component": "Toggle",
//!          "props": {"options": ["monthly", "yearly"], "value": {"path": "/billing"}},
//!          "visible": {"ne": [{"path": "/billing"}, null]}}
//!     ],
//!     "data": {"headline": "Pricing", "billing": "monthly"}
//! });
//! assert!(validate_surface(&surface, &catalog).is_empty());
//!
//! let broken = serde_json::json!({"components": [
//!     {"id": "root", "component": "Stack", "children": ["gone"]},
//!     {"id": "link", "component": "Link", "props": {"text": "x", "href": "javascript:alert(1)"}}
//! ]});
//! let issues = validate_surface(&broken, &catalog);
//! let found: Vec<_> = issues.iter().map(|i| (i.code, i.path.as_str(), i.severity)).collect();
//! assert_eq!(found, [
//!     ("unresolved_child", "/components/0/children/0", Severity::Error),
//!     ("unreachable", "/components/1", Severity::Error),
//!     ("unsafe_href", "/components/1/props/href", Severity::Error),
//! ]);
//! ```
//!
//! # The parts
//! - [`Catalog`]: a catalog document loaded and checked (`unknown_keyword`,
//!   `invalid_catalog`, examples that must validate); [`Catalog::default_blog`]
//!   is the shipped `blog@1` (`catalog/blog@1.json`).
//! - [`validate_surface`] / [`validate_document`] (pages) / [`validate_component`]
//!   (one streamed line) / [`markdown::validate_markdown`] (bodies):
//!   [`Issue`]s `{severity, code, path, message, surface?, line?}`.
//! - [`pipeline::Draft`] and [`pipeline::patch`]: RFC 6902 operations through
//!   repair, validation and apply-or-refuse; [`patch::apply_patch`]: a plain
//!   atomic RFC 6902 patch.
//! - [`prompt::catalog_prompt`]: the model's instructions.
//! - [`json_text`] and [`object`]: how every face (this crate's, the
//!   stream's, the renderer's, interop's) writes its answers: one
//!   serializer, members moved in, never `Display` or `json!` of a document.
//! - `wasm` (wasm32 only): `validate`, `validateComponent`, `validateMarkdown`,
//!   `patch`, `applyPatch` and the `Draft` and `LoadedCatalog` classes, JSON
//!   text in and out, errors thrown as `{"code", "path", "message"}` (the npm
//!   layer turns them into values and `SurfacesError`s).
//!
//! # How it works
//! Validation is one pass in document order over a parsed `serde_json::Value`
//! (with `preserve_order`, so key order is the document's). The component
//! tree is built first (ids, first parents): `duplicate_id`,
//! `unresolved_child`, `multiple_parents`, `cycle` (following first parents),
//! `unreachable` and `too_deep` (breadth-first from `root`). Each component is
//! then checked against its catalog entry: the props schema is evaluated
//! directly (no code generation, no regular expressions), bindings, calls,
//! conditions and checks go to `surfaces-core`, actions and `$source` are
//! checked here. Bound paths are resolved against `data` last
//! (`missing_data`). Finally issues are sorted stably by where their path
//! points in the document, so the order does not depend on the order of the
//! checks.
//!
//! The pipeline keeps a [`pipeline::Draft`]: for each operation it repairs
//! the operation (never the action names), applies it in place recording how
//! to undo it, and validates only the surfaces it can change. An operation on
//! one component's `props` or `visible` re-checks that component alone and
//! reuses the rest of the surface's known issues. An operation on the data
//! alone (an agent's data updates) checks no component, as none of their
//! rules reads the data: the draft keeps each component's bindings and the
//! data's serialized size, moves the size by the size of what the operation
//! added, removed or replaced (not a walk of the data), and resolves again
//! the bindings of the components with one through the path written
//! (through the list, when an item is added to or taken from one; through
//! the member, when its `$source` is; under it, when the value there was
//! replaced, as a value is there after as before). Any other operation checks the
//! surface whole, but each component's props and `visible` (the costly
//! part, which reads no other component) only from the first component
//! the operation touched on: a component added at the end, or an id linked
//! into a parent's children, checks the new component's alone; and when
//! the operation leaves the data as it was, the data's size and the
//! `missing_data` warnings of those first components are the known ones
//! (measuring the data was a sixth of such a check). Tests check
//! that every path equals a full validation after random edits, and that
//! the kept size is the serialized length. The operation is refused when it
//! introduces an error the surface did not have, and then undone. An
//! operation whose only new errors are `unreachable`, `unresolved_child` or
//! `no_root` is held (at most 3) and retried together with each later one.
//!
//! # Where the time goes
//! `validate` of the benchmark's surface (200 components, 91 KB of text)
//! takes about 3.3x V8's `JSON.parse` of the same text in the same run
//! (`docs/performance.md`; issue 17's goal is 2x). A Node `--cpu-prof` of
//! the Studio module built with its names (`wasm-opt -g`), 1,500 calls:
//! - reading the text into a `serde_json::Value`: about 45% of the call,
//!   alone about 1.5x `JSON.parse`. It was 4.2x in all with serde_json's
//!   reader and talc: the module now allocates with `size-classes` (a pop
//!   or a push per call; talc's bins and gaps were a fifth of the call),
//!   and reads with `surfaces_core::json` (no serde visitor calls, each
//!   object and list built once at its size; the `json` fuzz target holds
//!   it to serde_json's results). What is left is the value model itself:
//!   a `String` allocated and copied per string, and each object's
//!   `IndexMap` hashing its keys with SipHash (about 10% of the call);
//! - the rules: about 40%, the props schemas half of it (finding each
//!   keyword in a schema's members about 6%: one pass gathering them all
//!   measured 1 to 3% faster for 226 B gzip, and was left out);
//! - dropping the parsed tree (about 6%), and the glue: the rest.
//!
//! The goal needs a value model of this crate's own (strings borrowed from
//! the text, members in a list, no hashing) under every rule that reads a
//! document here, in the pipeline and in interop: a second JSON library in
//! place of serde_json's `Value`, and each crate's rules rewritten over it.
//! `opt-level = 3` halves the time but adds about 52 KB gzip to Studio.
//!
//! # Choices where SPEC.md is silent
//! - Document text larger than 2 MiB is `document_too_large`; text that is
//!   not JSON, or nests 128 levels deep or deeper, is `invalid_json`.
//! - A document that is not an object, or `components` that is not a list, is
//!   `invalid_surface`; a component that is not an object is
//!   `invalid_component`; `data` that is not an object is `invalid_data`
//!   (all errors).
//! - Binding problems (`invalid_pointer`, `unsafe_path`, `missing_data`) point
//!   at the binding's `path` member, e.g. `/components/1/props/text/path`.
//! - A page surface's own `id` (a section id such as `sec_pricing`) is not
//!   held to the component id rule; fence ids are (section 8).
//! - `missing_data` is not reported for paths under a `$source` value.
//! - `cycle` points at the `children` entry that closes the cycle (every
//!   cycle has one reported, also where its components break
//!   `multiple_parents`); `unreachable` and `too_deep` at the component.
//! - A fence line is read by one rule ([`markdown::classify_line`]): `[1]`
//!   and `{"data":{},"x":1}` are `invalid_line`, a line over 262,144 bytes is
//!   `line_too_long`, and a data line that would make the data larger than
//!   65,536 bytes is refused at its line (`data_too_large`), the data kept.
//!
//! # Layers
//! Each module uses only those listed before it (no import cycle; the
//! test command checks every crate):
//! 1. [`issue`] (issues, what a check found) and [`lookup`] (a member by
//!    name, the nearest name); [`patch`] (plain RFC 6902).
//! 2. `action`, then `schema` (the JSON Schema subset), then [`catalog`].
//! 3. [`surface`] (sections 1 to 6), then [`markdown`] (section 8).
//! 4. [`repair`] (section 7's repairs, of values and of whole operations),
//!    then [`pipeline`] (repair, validate, apply or refuse) and [`prompt`].
//! 5. [`json_schema`] (a catalog's surface schema, over `npm/schema/surface.json`).
//!
//! Validation never depends on repair: repairs are a separate, reported
//! step.
pub mod action;
pub mod catalog;
pub mod issue;
pub mod json_schema;
pub mod lookup;
pub mod markdown;
pub mod patch;
pub mod pipeline;
pub mod prompt;
pub mod repair;
mod schema;
pub mod surface;

pub use catalog::{Catalog, CatalogError, Children, Entry};
pub use issue::{has_errors, issues_json, Issue, Severity};
pub use schema::resolved;
pub use surface::{
    is_page, json_text, object, parse_document, validate_component, validate_document,
    validate_document_text, validate_surface, validate_surface_in, validate_surface_text, Place,
};

#[cfg(target_arch = "wasm32")]
pub mod wasm;
