//! The rules the parts of this workspace share, implemented once.
//!
//! The validator (Studio, Node, native) and the interaction runtime (published
//! pages) must never disagree on what a JSON Pointer addresses, which hrefs are
//! safe, how a condition evaluates or what a function returns; the validator and
//! the streaming parser must read ```` ```surface ```` fences the same way. Each
//! of those rules lives here, once.
//!
//! The crate is `no_std` with `alloc`, and its generic paths avoid `core::fmt`
//! and float parsing or printing, so the interaction runtime built from it
//! stays a few KB. What depends on the locale is delegated to a
//! [`function::Host`].
//!
//! # Reading values: [`JsonView`]
//!
//! Every rule is generic over how values are held. The validator uses
//! `&serde_json::Value` (feature `serde_json`); the runtime implements the
//! trait for its JS-held values. A store implements seven methods:
//!
//! ```
//! use std::borrow::Cow;
//! use surfaces_core::{condition, pointer, JsonView, Kind};
//!
//! /// A toy store: a flat list of named numbers, seen as one JSON object.
//! #[derive(Clone)]
//! enum Toy<'a> { Object(&'a [(&'a str, f64)]), Number(f64) }
//!
//! impl<'a> JsonView for Toy<'a> {
//!     fn kind(&self) -> Kind {
//!         match self { Toy::Object(_) => Kind::Object, Toy::Number(_) => Kind::Number }
//!     }
//!     fn as_bool(&self) -> Option<bool> { None }
//!     fn as_f64(&self) -> Option<f64> {
//!         match self { Toy::Number(n) => Some(*n), _ => None }
//!     }
//!     fn as_str(&self) -> Option<Cow<'_, str>> { None }
//!     fn len(&self) -> usize {
//!         match self { Toy::Object(m) => m.len(), _ => 0 }
//!     }
//!     fn index(&self, _: usize) -> Option<Self> { None }
//!     fn get(&self, key: &str) -> Option<Self> {
//!         match self {
//!             Toy::Object(m) => m.iter().find(|(k, _)| *k == key).map(|(_, n)| Toy::Number(*n)),
//!             _ => None,
//!         }
//!     }
//!     fn keys(&self) -> Vec<String> {
//!         match self { Toy::Object(m) => m.iter().map(|(k, _)| k.to_string()).collect(), _ => vec![] }
//!     }
//! }
//!
//! let data = Toy::Object(&[("seats", 3.0)]);
//! assert_eq!(pointer::resolve(&data, "/seats").and_then(|v| v.as_f64()), Some(3.0));
//! assert_eq!(condition::evaluate(&data.get("seats").unwrap(), &data), None); // 3 is no condition
//!
//! // With serde_json values (feature `serde_json`), conditions read JSON directly:
//! let data = serde_json::json!({"seats": 3});
//! let visible = serde_json::json!({"gt": [{"path": "/seats"}, 2]});
//! assert_eq!(condition::evaluate(&&visible, &&data), Some(true));
//! ```
//!
//! # Modules
//! - [`pointer`](mod@pointer): RFC 6901 parse, escape, resolve; `invalid_pointer`, `unsafe_path`.
//! - [`href`]: the safe-href rule.
//! - `json` (feature `serde_json`): JSON text into a `serde_json::Value`, the one reader every part uses.
//! - [`condition`]: `visible` conditions, checked and evaluated.
//! - [`function`]: the fixed function set and checks, checked and evaluated.
//! - [`fence`]: the surface fence grammar.
//! - [`problem`]: problems as data.
//! - `sorted` (feature `sorted`): maps and sets as sorted lists, the Studio parts' collections.
#![no_std]
extern crate alloc;

pub mod condition;
pub mod fence;
pub mod function;
pub mod href;
#[cfg(feature = "serde_json")]
pub mod json;
pub mod pointer;
pub mod problem;
#[cfg(feature = "sorted")]
pub mod sorted;
mod view;

pub use view::{json_equal, truthy, JsonView, Kind};
