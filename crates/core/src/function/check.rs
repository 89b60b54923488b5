//! The validator's side: whether a literal, binding or call follows the
//! table (every problem at its JSON Pointer, every binding recorded), and
//! whether a check is a check function with a message.

use super::rules::is_locale;
use super::{parse_iso_date, spec, ArgKind, DateStyle, Function, MAX_NESTING};
use crate::pointer;
use crate::problem::Findings;
use crate::view::{JsonView, Kind};
use alloc::string::String;

/// Checks a value that may be a literal, a binding `{"path"}` or a call
/// `{"call", "args"}` (an `x-bindable` prop), sitting at `at`.
///
/// ```
/// use surfaces_core::{function, problem::Findings};
/// let v = serde_json::json!({"call": "formatDate", "args": {"value": {"path": "/d"}, "style": "huge"}});
/// let mut found = Findings::default();
/// function::check_value(&&v, &mut String::from("/props/text"), &mut found);
/// assert_eq!(found.problems[0].code, "invalid_args");
/// assert_eq!(found.problems[0].pointer, "/props/text/args/style");
/// ```
pub fn check_value<V: JsonView>(value: &V, at: &mut String, found: &mut Findings) {
    check_arg_value(value, ArgKind::Any, at, found, 0);
}

/// Whether `value` is a binding or call (an object with `path` or `call`).
pub fn is_dynamic<V: JsonView>(value: &V) -> bool {
    value.kind() == Kind::Object && (value.get("path").is_some() || value.get("call").is_some())
}

/// Checks one check of an `x-checks` list: `{"call": CHECK, "args", "message"}`.
pub fn check_check<V: JsonView>(check: &V, at: &mut String, found: &mut Findings) {
    check_call(check, at, found, 1, true);
}

fn check_call<V: JsonView>(
    call: &V,
    at: &mut String,
    found: &mut Findings,
    level: usize,
    as_check: bool,
) {
    let len = at.len();
    let Some(name) = call.get("call").filter(|n| n.kind() == Kind::String) else {
        found.push(
            "invalid_args",
            at,
            &["a function call is {\"call\": NAME, \"args\": {...}} with NAME a string"],
        );
        return;
    };
    let name = name.as_str().unwrap_or_default();
    for key in call.keys() {
        let allowed = key == "call" || key == "args" || (as_check && key == "message");
        if !allowed {
            pointer::push(at, &key);
            let extra = if as_check {
                ", args and message"
            } else {
                " and args"
            };
            found.push(
                "invalid_args",
                at,
                &["unexpected key \"", &key, "\": a call has only call", extra],
            );
            at.truncate(len);
        }
    }
    let Some(spec) = spec(&name) else {
        pointer::push(at, "call");
        found.push("unknown_function", at, &[
            "unknown function \"", &name,
            "\"; use formatDate, formatNumber, formatCurrency, pluralize, concat, length, required, minLength, maxLength, email or range",
        ]);
        at.truncate(len);
        return;
    };
    if as_check {
        if !spec.is_check {
            pointer::push(at, "call");
            found.push(
                "invalid_args",
                at,
                &[
                    "\"",
                    spec.name,
                    "\" is not a check; checks are required, minLength, maxLength, email and range",
                ],
            );
            at.truncate(len);
        }
        match call.get("message") {
            Some(m) if m.as_str().is_some_and(|s| !s.is_empty()) => {}
            _ => found.push(
                "invalid_args",
                at,
                &["a check needs a \"message\" string telling the reader what to fix"],
            ),
        }
    }
    let args = call.get("args");
    let Some(args) = args.filter(|a| a.kind() == Kind::Object) else {
        if call.get("args").is_some() {
            pointer::push(at, "args");
        }
        found.push(
            "invalid_args",
            at,
            &["\"", spec.name, "\" needs \"args\", an object"],
        );
        at.truncate(len);
        return;
    };
    pointer::push(at, "args");
    let args_at = at.len();
    for key in args.keys() {
        if !spec.args.iter().any(|a| a.name == key) {
            pointer::push(at, &key);
            found.push(
                "invalid_args",
                at,
                &["\"", spec.name, "\" has no argument \"", &key, "\""],
            );
            at.truncate(args_at);
        }
    }
    // Intl throws on fewer maximum fraction digits than minimum ones.
    let digits = |name| args.get(name).and_then(|n| n.as_f64());
    if let (Some(min), Some(max)) = (
        digits("minimumFractionDigits"),
        digits("maximumFractionDigits"),
    ) {
        if min > max && spec.id == Function::FormatNumber {
            pointer::push(at, "minimumFractionDigits");
            found.push(
                "invalid_args",
                at,
                &["minimumFractionDigits is above maximumFractionDigits"],
            );
            at.truncate(args_at);
        }
    }
    for arg in spec.args {
        match args.get(arg.name) {
            Some(value) => {
                pointer::push(at, arg.name);
                check_arg_value(&value, arg.kind, at, found, level);
                at.truncate(args_at);
            }
            None if arg.required => {
                found.push(
                    "invalid_args",
                    at,
                    &[
                        "\"",
                        spec.name,
                        "\" needs the argument \"",
                        arg.name,
                        "\": ",
                        arg.kind.describe(),
                    ],
                );
            }
            None => {}
        }
    }
    at.truncate(len);
}

fn check_arg_value<V: JsonView>(
    value: &V,
    kind: ArgKind,
    at: &mut String,
    found: &mut Findings,
    level: usize,
) {
    if value.kind() == Kind::Object {
        if value.get("call").is_some() {
            if level >= MAX_NESTING {
                found.push("invalid_args", at, &["function calls nest at most 4 deep"]);
                return;
            }
            if let Some(inner) = value
                .get("call")
                .and_then(|n| n.as_str().and_then(|n| spec(&n)))
            {
                if !kind.accepts_result(inner.result) {
                    found.push(
                        "invalid_args",
                        at,
                        &["\"", inner.name, "\" does not give ", kind.describe()],
                    );
                    return;
                }
            }
            check_call(value, at, found, level + 1, false);
            return;
        }
        if let Some(path) = value.get("path") {
            let len = at.len();
            match (path.as_str(), value.len()) {
                (Some(p), 1) => {
                    pointer::push(at, "path");
                    found.binding(&p, at);
                }
                _ => found.push(
                    "invalid_args",
                    at,
                    &["a binding is exactly {\"path\": \"/json/pointer\"}"],
                ),
            }
            at.truncate(len);
            return;
        }
    }
    if kind == ArgKind::List && value.kind() == Kind::Array {
        let len = at.len();
        for i in 0..value.len() {
            if let Some(item) = value.index(i) {
                pointer::push_index(at, i);
                check_arg_value(&item, ArgKind::Any, at, found, level);
                at.truncate(len);
            }
        }
        return;
    }
    if !literal_fits(value, kind) {
        found.push("invalid_args", at, &["expected ", kind.describe()]);
    }
}

fn literal_fits<V: JsonView>(value: &V, kind: ArgKind) -> bool {
    let text = value.as_str();
    match kind {
        ArgKind::Any => true,
        ArgKind::Number => value.as_f64().is_some_and(f64::is_finite),
        ArgKind::Count => value
            .as_f64()
            .is_some_and(|n| (0.0..=100.0).contains(&n) && n == (n as u32) as f64),
        ArgKind::Text => text.is_some(),
        // Epoch milliseconds within a Date's range (Intl throws past it).
        ArgKind::Date => {
            value.as_f64().is_some_and(|ms| ms.abs() <= 8.64e15)
                || text.is_some_and(|t| parse_iso_date(&t).is_some())
        }
        ArgKind::List => false,
        ArgKind::DateStyle => text.is_some_and(|t| DateStyle::from_name(&t).is_some()),
        ArgKind::NumberStyle => text.is_some_and(|t| t == "decimal" || t == "percent"),
        ArgKind::Currency => {
            text.is_some_and(|t| t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic()))
        }
        ArgKind::Locale => text.is_some_and(|t| is_locale(&t)),
    }
}
