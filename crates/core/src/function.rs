//! The fixed function set (SPEC.md section 3): argument checks, checks, and
//! evaluation. What depends on the locale (dates, numbers, currencies, plural
//! categories, JavaScript's `String()` of a number) is delegated to a
//! [`Host`]: the browser runtime answers with `Intl`, native code with
//! [`PlainHost`], a deterministic en-US fallback.
//!
//! ```
//! use surfaces_core::function::{call, check_value, PlainHost, Value};
//! use surfaces_core::problem::Findings;
//!
//! let data = serde_json::json!({"n": 3, "name": "Ada"});
//! let c = serde_json::json!({"call": "pluralize",
//!     "args": {"count": {"path": "/n"}, "one": "{count} seat", "other": "{count} seats"}});
//! assert!(matches!(call(&&c, &&data, &PlainHost), Some(Value::Text(t)) if t == "3 seats"));
//! let c = serde_json::json!({"call": "concat", "args": {"values": ["Hi ", {"path": "/name"}, 1.5]}});
//! assert!(matches!(call(&&c, &&data, &PlainHost), Some(Value::Text(t)) if t == "Hi Ada1.5"));
//!
//! // The validator checks the same call against the same table.
//! let mut found = Findings::default();
//! check_value(&&c, &mut String::from("/props/text"), &mut found);
//! assert!(found.problems.is_empty());
//! assert_eq!(found.bindings[0].pointer, "/name");
//! ```
//!
//! # Layout
//!
//! One table and the three parts that read it, each in its own file:
//! - `spec`: the table, [`FUNCTIONS`] (names, arguments, result kinds), and
//!   [`spec()`] to look a function up;
//! - `check`: the validator's side, [`check_value`] and [`check_check`];
//! - `evaluate`: [`evaluate()`], [`call`] and [`run_check`], and the [`Host`]
//!   they delegate to;
//! - `plain`: [`PlainHost`] and [`js_number_string`];
//! - `rules`: the text rules both sides share, [`is_email`] and
//!   [`parse_iso_date`] among them.

mod check;
mod evaluate;
mod plain;
mod rules;
mod spec;

pub use check::{check_check, check_value, is_dynamic};
pub use evaluate::{
    call, evaluate, run_check, DateInput, DateStyle, Host, InLocale, NumberOptions, Value, MAX_TEXT,
};
pub use plain::{js_number_string, PlainHost};
pub use rules::{is_email, is_locale, parse_iso_date};
pub use spec::{spec, ArgKind, ArgSpec, Function, FunctionSpec, FUNCTIONS, MAX_NESTING};

#[cfg(all(test, feature = "serde_json"))]
mod tests;
