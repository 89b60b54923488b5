//! The JSON Schema subset of SPEC.md section 2, evaluated directly over the
//! schema value: no code generation, no regular expressions.

use crate::action;
use crate::issue::{Issue, Outcome};
use crate::lookup::{field, field_of};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use surfaces_core::function;
use surfaces_core::href::{self, is_safe_href, Start};
use surfaces_core::pointer;
use surfaces_core::problem::Findings;

/// Every keyword a catalog schema may use.
pub const KEYWORDS: [&str; 27] = [
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "$ref",
    "$defs",
    "format",
    "default",
    "title",
    "description",
    "examples",
    "x-bindable",
    "x-action",
    "x-checks",
];

/// The `type` names.
pub const TYPES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// The `format` names.
pub const FORMATS: [&str; 6] = ["safe-href", "asset", "icon", "color", "date", "email"];

/// How deep schema evaluation goes (bounds `$ref` cycles).
const MAX_DEPTH: usize = 64;

#[cfg(test)]
thread_local! {
    /// Schema nodes evaluated so far on this thread: the tests count work
    /// with it, never time.
    static STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What a schema needs besides itself: the root holding `$defs`, the icons.
pub(crate) struct Context<'a> {
    pub root: &'a Value,
    pub icons: &'a [String],
}

/// Resolves `#/$defs/NAME` against `root`.
pub(crate) fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let name = reference.strip_prefix("#/$defs/")?;
    root.get("$defs")?.get(name)
}

/// `schema`, a part of the props schema `root`, with its `$ref`s followed
/// to the definition they name (through a chain of them, as deep as
/// evaluation goes); `None` when one names nothing or the chain is a cycle.
pub fn resolved<'a>(root: &'a Value, mut schema: &'a Value) -> Option<&'a Value> {
    for _ in 0..MAX_DEPTH {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        schema = resolve_ref(root, reference)?;
    }
    None
}

/// One evaluation: the context, and what each `$ref` target already gave
/// for each value (by address: the value's place, within this one check)
/// at each depth (so the depth bound flags the same whichever path came
/// first; depths are bounded, so this stays linear).
struct Eval<'a> {
    root: &'a Value,
    icons: &'a [String],
    memo: RefCell<HashMap<(*const Value, *const Value, usize), Outcome>>,
}

/// Checks `value` (at `at`) against `schema`.
///
/// A `$ref` target is evaluated once per value and its outcome reused, so
/// `anyOf`/`oneOf` branches that lead to the same definitions cost time
/// bounded by the sizes of the catalog and the value, never exponential.
pub(crate) fn check(
    schema: &Value,
    value: &Value,
    at: &mut String,
    cx: &Context<'_>,
    out: &mut Outcome,
) {
    let eval = Eval {
        root: cx.root,
        icons: cx.icons,
        memo: RefCell::default(),
    };
    check_depth(schema, value, at, &eval, out, 0);
}

fn check_depth(
    schema: &Value,
    value: &Value,
    at: &mut String,
    cx: &Eval<'_>,
    out: &mut Outcome,
    depth: usize,
) {
    #[cfg(test)]
    STEPS.with(|n| n.set(n.get() + 1));
    if depth > MAX_DEPTH {
        out.flag(
            at,
            "the schema for this value nests too deep to check".into(),
        );
        return;
    }
    let s = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => return out.flag(at, "no value is allowed here".into()),
        Value::Object(s) => s,
        _ => return,
    };
    if let Some(target) = field_of(s, "$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve_ref(cx.root, r))
    {
        let key = (target as *const Value, value as *const Value, depth);
        let known = cx.memo.borrow().get(&key).cloned();
        let found = known.unwrap_or_else(|| {
            let mut fresh = Outcome::default();
            check_depth(target, value, at, cx, &mut fresh, depth + 1);
            cx.memo.borrow_mut().insert(key, fresh.clone());
            fresh
        });
        out.issues.extend(found.issues);
        out.bindings.extend(found.bindings);
    }
    if function::is_dynamic(&value) {
        if flag(s, "x-bindable") {
            let malformed = field(value, "call").is_none()
                && (value.as_object().map_or(0, Map::len) != 1 || !value["path"].is_string());
            if malformed {
                return out.flag(
                    at,
                    "a binding is exactly {\"path\": \"/json/pointer\"}".into(),
                );
            }
            let mut found = Findings::default();
            function::check_value(&value, at, &mut found);
            out.absorb(found);
            return;
        }
        if !flag(s, "x-action") && !allows_type(s, "object") {
            return out.flag(
                at,
                "this prop does not take a binding or function call; write a literal value".into(),
            );
        }
    }
    // An extension adds its rules to the schema's other keywords, which
    // apply as well (`maxItems` bounds a list of checks or actions).
    if flag(s, "x-action") {
        action::check_prop(value, at, out);
    }
    if flag(s, "x-checks") && !check_checks(value, at, out) {
        return;
    }
    if let Some(expected) = field_of(s, "type") {
        if !type_matches(expected, value) {
            return out.flag(
                at,
                [
                    "expected ",
                    &type_phrase(expected),
                    ", found ",
                    kind_name(value),
                ]
                .concat(),
            );
        }
    }
    if let Some(options) = field_of(s, "enum").and_then(Value::as_array) {
        if !options
            .iter()
            .any(|o| surfaces_core::json_equal(&o, &value))
        {
            return out.flag(at, ["must be one of ", &list_literals(options)].concat());
        }
    }
    if let Some(c) = field_of(s, "const") {
        if !surfaces_core::json_equal(&c, &value) {
            return out.flag(at, ["must be ", &crate::json_text(c)].concat());
        }
    }
    match value {
        Value::Number(n) => check_number(s, n.as_f64().unwrap_or(0.0), at, out),
        Value::String(text) => check_string(s, text, at, cx, out),
        Value::Array(items) => check_array(s, items, at, cx, out, depth),
        Value::Object(map) => check_object(s, map, at, cx, out, depth),
        _ => {}
    }
    for (key, exactly_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(branches) = field_of(s, key).and_then(Value::as_array) {
            check_branches(branches, exactly_one, value, at, cx, out, depth);
        }
    }
}

fn flag(s: &Map<String, Value>, key: &str) -> bool {
    field_of(s, key).and_then(Value::as_bool).unwrap_or(false)
}

fn allows_type(s: &Map<String, Value>, name: &str) -> bool {
    match field_of(s, "type") {
        None => true,
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == name),
        Some(_) => false,
    }
}

fn type_matches(expected: &Value, value: &Value) -> bool {
    let one = |t: &str| match t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    };
    match expected {
        Value::String(t) => one(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(one),
        _ => true,
    }
}

fn type_phrase(expected: &Value) -> String {
    let name = |t: &str| match t {
        "integer" => "an integer",
        "array" => "a list",
        "object" => "an object",
        "boolean" => "a boolean",
        "null" => "null",
        "number" => "a number",
        _ => "a string",
    };
    match expected {
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(name)
            .collect::<Vec<_>>()
            .join(" or "),
        Value::String(t) => name(t).into(),
        _ => "a value".into(),
    }
}

pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn list_literals(options: &[Value]) -> String {
    options
        .iter()
        .map(crate::json_text)
        .collect::<Vec<_>>()
        .join(", ")
}

fn check_number(s: &Map<String, Value>, n: f64, at: &str, out: &mut Outcome) {
    let bound = |k: &str| field_of(s, k).and_then(Value::as_f64);
    let fails = [
        (
            "minimum",
            bound("minimum").is_some_and(|m| n < m),
            "at least ",
        ),
        (
            "maximum",
            bound("maximum").is_some_and(|m| n > m),
            "at most ",
        ),
        (
            "exclusiveMinimum",
            bound("exclusiveMinimum").is_some_and(|m| n <= m),
            "greater than ",
        ),
        (
            "exclusiveMaximum",
            bound("exclusiveMaximum").is_some_and(|m| n >= m),
            "less than ",
        ),
    ];
    for (key, failed, phrase) in fails {
        if failed {
            let limit = field_of(s, key).map(crate::json_text).unwrap_or_default();
            return out.flag(at, ["must be ", phrase, &limit].concat());
        }
    }
}

fn check_string(s: &Map<String, Value>, text: &str, at: &str, cx: &Eval<'_>, out: &mut Outcome) {
    let len = text.chars().count() as u64;
    if let Some(min) = field_of(s, "minLength")
        .and_then(Value::as_u64)
        .filter(|m| len < *m)
    {
        let wants = if min == 1 {
            "must not be empty".to_string()
        } else {
            ["must be at least ", &min.to_string(), " characters"].concat()
        };
        return out.flag(at, wants);
    }
    if let Some(max) = field_of(s, "maxLength")
        .and_then(Value::as_u64)
        .filter(|m| len > *m)
    {
        return out.flag(
            at,
            [
                "must be at most ",
                &max.to_string(),
                " characters (found ",
                &len.to_string(),
                ")",
            ]
            .concat(),
        );
    }
    let Some(format) = field_of(s, "format").and_then(Value::as_str) else {
        return;
    };
    if format == "safe-href" {
        if !is_safe_href(text) {
            out.issues.push(Issue::error(
                "unsafe_href",
                at.to_string(),
                "a link must be a path starting with one /, a #fragment, or an http: or https: URL",
            ));
        }
        return;
    }
    let (ok, wants) = match format {
        "asset" => (is_asset(text), "an asset: a path starting with / or asset:"),
        "icon" => (
            cx.icons.iter().any(|i| i == text),
            "one of the catalog's icons",
        ),
        "color" => (is_color(text), "a color #rgb or #rrggbb"),
        "date" => (
            function::parse_iso_date(text).is_some(),
            "an ISO 8601 date such as 2024-05-01",
        ),
        "email" => (
            function::is_email(text),
            "an email address such as ada@example.com",
        ),
        _ => (true, ""),
    };
    if !ok {
        let extra = if format == "icon" {
            [": ", &cx.icons.join(", ")].concat()
        } else {
            String::new()
        };
        out.flag(at, ["must be ", wants, &extra].concat());
    }
}

/// The `asset` format: `asset:` and a name, or a path starting with a single
/// `/`, read as the safe-href rule reads a URL (trimmed, ASCII tab and
/// newline dropped), so `/\t/evil.example`, which a browser loads from
/// another host, is refused.
pub(crate) fn is_asset(text: &str) -> bool {
    match href::read(text) {
        Start::Path => true,
        Start::Scheme(scheme) => scheme.is(b"asset") && !scheme.is_bare(),
        _ => false,
    }
}

/// `#rgb` or `#rrggbb`.
pub(crate) fn is_color(text: &str) -> bool {
    text.strip_prefix('#').is_some_and(|hex| {
        (hex.len() == 3 || hex.len() == 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// `minItems` and `maxItems` over a list of `n` items; false (and flagged)
/// when `n` is outside them.
fn count_fits(s: &Map<String, Value>, n: usize, at: &str, out: &mut Outcome) -> bool {
    let n = n as u64;
    if let Some(min) = field_of(s, "minItems")
        .and_then(Value::as_u64)
        .filter(|m| n < *m)
    {
        out.flag(at, ["needs at least ", &min.to_string(), " items"].concat());
        return false;
    }
    if let Some(max) = field_of(s, "maxItems")
        .and_then(Value::as_u64)
        .filter(|m| n > *m)
    {
        out.flag(
            at,
            [
                "takes at most ",
                &max.to_string(),
                " items (found ",
                &n.to_string(),
                ")",
            ]
            .concat(),
        );
        return false;
    }
    true
}

fn check_array(
    s: &Map<String, Value>,
    items: &[Value],
    at: &mut String,
    cx: &Eval<'_>,
    out: &mut Outcome,
    depth: usize,
) {
    if !count_fits(s, items.len(), at, out) {
        return;
    }
    if let Some(item_schema) = field_of(s, "items") {
        let len = at.len();
        for (i, item) in items.iter().enumerate() {
            pointer::push_index(at, i);
            check_depth(item_schema, item, at, cx, out, depth + 1);
            at.truncate(len);
        }
    }
}

fn check_object(
    s: &Map<String, Value>,
    map: &Map<String, Value>,
    at: &mut String,
    cx: &Eval<'_>,
    out: &mut Outcome,
    depth: usize,
) {
    if let Some(required) = field_of(s, "required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if field_of(map, name).is_none() {
                out.flag(at, ["missing the required prop \"", name, "\""].concat());
            }
        }
    }
    let properties = field_of(s, "properties").and_then(Value::as_object);
    let additional = field_of(s, "additionalProperties");
    let len = at.len();
    for (key, item) in map {
        pointer::push(at, key);
        match properties.and_then(|p| field_of(p, key)) {
            Some(prop_schema) => check_depth(prop_schema, item, at, cx, out, depth + 1),
            None => match additional {
                Some(Value::Bool(false)) => {
                    let known = properties
                        .map(|p| p.keys().cloned().collect::<Vec<_>>().join(", "))
                        .unwrap_or_default();
                    out.flag(
                        at,
                        ["unknown prop \"", key, "\"; known props: ", &known].concat(),
                    );
                }
                Some(extra @ Value::Object(_)) => check_depth(extra, item, at, cx, out, depth + 1),
                _ => {}
            },
        }
        at.truncate(len);
    }
}

#[allow(clippy::too_many_arguments)]
fn check_branches(
    branches: &[Value],
    exactly_one: bool,
    value: &Value,
    at: &mut String,
    cx: &Eval<'_>,
    out: &mut Outcome,
    depth: usize,
) {
    let mut passing: Option<Outcome> = None;
    let mut count = 0;
    for branch in branches {
        let mut trial = Outcome::default();
        check_depth(branch, value, at, cx, &mut trial, depth + 1);
        if trial.issues.is_empty() {
            count += 1;
            if passing.is_none() {
                passing = Some(trial);
            }
        }
    }
    match passing {
        Some(ok) if !exactly_one || count == 1 => out.bindings.extend(ok.bindings),
        Some(_) => out.flag(
            at,
            "matches more than one of the allowed forms; make it match exactly one".into(),
        ),
        None => out.flag(at, "matches none of the allowed forms".into()),
    }
}

/// Checks a list of checks; false (and flagged) when `value` is no list.
fn check_checks(value: &Value, at: &mut String, out: &mut Outcome) -> bool {
    let Some(list) = value.as_array() else {
        out.flag(
            at,
            "expected a list of checks {\"call\", \"args\", \"message\"}".into(),
        );
        return false;
    };
    let mut found = Findings::default();
    let len = at.len();
    for (i, check) in list.iter().enumerate() {
        pointer::push_index(at, i);
        function::check_check(&check, at, &mut found);
        at.truncate(len);
    }
    out.absorb(found);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{validate_surface, Catalog};
    use serde_json::json;

    /// Evaluation steps to check a list of `items` strings against `$defs`
    /// chained `depth` deep, each an `anyOf` (or `oneOf`) of two `$ref`s to
    /// the next: naively 2^depth paths per item.
    fn chain_steps(combinator: &str, depth: usize, items: usize) -> usize {
        let mut defs = Map::new();
        for i in 0..depth {
            let next = format!("#/$defs/d{}", i + 1);
            defs.insert(
                format!("d{i}"),
                json!({ combinator: [{"$ref": next}, {"$ref": next, "minLength": 2}] }),
            );
        }
        defs.insert(format!("d{depth}"), json!({"type": "string"}));
        let catalog = Catalog::from_value(&json!({
            "catalog": "deep@1",
            "components": {"Deep": {
                "children": "none",
                "props": {"type": "object", "$defs": defs, "properties": {
                    "v": {"type": "array", "items": {"$ref": "#/$defs/d0"}}}},
                "example": {}
            }}
        }))
        .expect("the catalog loads");
        let doc = json!({"components": [{"id": "root", "component": "Deep",
            "props": {"v": vec!["b"; items]}}]});
        let before = STEPS.with(|n| n.get());
        validate_surface(&doc, &catalog);
        STEPS.with(|n| n.get()) - before
    }

    /// SPEC.md section 2: an asset is read after the safe href's trimming
    /// and removal of tab and newline, so whatever a browser would load from
    /// another host (`//`, `/\`, once cleaned) or read another way (a
    /// control character) is refused.
    #[test]
    fn assets_are_read_as_a_browser_reads_a_url() {
        for other_host in [
            "/\t/evil.example/x.png",
            "/\n/evil.example",
            "/\r/evil.example",
            "/\r\n/evil.example",
            "/\t\n\r/evil.example",
            "/\\evil.example",
            "/\t\\evil.example",
            "\\\\evil.example",
            "\\/evil.example",
            " //evil.example",
            "\t\n //evil.example",
            "\u{c}//evil.example",
            "\u{1}//evil.example",
            "/\u{0}/evil.example",
            "/a\u{7f}",
            "//evil.example",
        ] {
            assert!(!is_asset(other_host), "{other_host:?}");
        }
        for refused in [
            "",
            " ",
            "asset:",
            " asset:\t\n",
            "img/a.png",
            "https://x.example/a.png",
            "java\tscript:alert(1)",
        ] {
            assert!(!is_asset(refused), "{refused:?}");
        }
        for path in [
            "/img/a.png",
            "  /img/a.png\n",
            "\t/img/a.png",
            "/img/\ta.png",
            "asset:logo",
            " ASSET:logo",
            "as\tset:logo",
        ] {
            assert!(is_asset(path), "{path:?}");
        }
    }

    /// SPEC.md section 2: checking costs work bounded by the sizes of the
    /// catalog and the value. Each definition is evaluated once per value
    /// (and depth), so doubling the chain at most doubles the steps, and
    /// so does doubling the value; evaluated naively, each level doubled
    /// them (2^20 paths at depth 20).
    #[test]
    fn ref_chains_through_any_of_and_one_of_cost_steps_linear_in_catalog_and_value() {
        for combinator in ["anyOf", "oneOf"] {
            let at_20 = chain_steps(combinator, 20, 1);
            assert!(at_20 < 20 * 8, "{combinator}: {at_20} steps at depth 20");
            let at_40 = chain_steps(combinator, 40, 1);
            assert!(at_40 <= 2 * at_20 + 8, "{combinator}: {at_20} -> {at_40}");
            let eight_items = chain_steps(combinator, 20, 8);
            assert!(eight_items <= 8 * at_20 + 8, "{combinator}: {eight_items}");
        }
    }
}
