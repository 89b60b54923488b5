//! Dynamic values both ways: A2UI's literals, `{"path"}` bindings (relative
//! inside a template), `{"call", "args"}` function calls and checks, and
//! ours (SPEC.md section 3).

use crate::note::{at, at_index, Note};
use serde_json::{json, Map, Value};
use surfaces_core::pointer;

/// Where a value is read: inside a template copy, the absolute path of its
/// item (relative paths are read from there) and its index (`@index`).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub item: Option<String>,
    pub index: Option<usize>,
    /// What the template copies' ids end with (`-0`, `-0-2`, ...).
    pub suffix: String,
    /// Which copy this is: the templates on the way and the item indices
    /// (two templates may copy the same component).
    pub copy: String,
}

/// An A2UI path made absolute in `scope`: `/x` stays, `x` is read from the
/// template item (or the root outside a template).
pub fn absolute(path: &str, scope: &Scope) -> String {
    if path.starts_with('/') || path.is_empty() {
        return path.to_string();
    }
    let path = path.strip_prefix("./").unwrap_or(path);
    [scope.item.as_deref().unwrap_or_default(), "/", path].concat()
}

/// A binding to `path` (made absolute), or a note when it is no JSON
/// Pointer or has a prototype segment.
pub fn binding(path: &str, at_path: &str, scope: &Scope, notes: &mut Vec<Note>) -> Option<Value> {
    let path = absolute(path, scope);
    match pointer::check(&path) {
        Ok(()) => Some(json!({ "path": path })),
        Err(e) => {
            notes.push(Note::new(e.code(), at_path, e.message()));
            None
        }
    }
}

/// A value of another catalog's component, kept as it is but for its
/// bindings (`{"path"}` at any depth), made absolute as every binding is,
/// so a template's copies each read their own item; its calls are that
/// catalog's, kept as they are. `None` (noted) when a binding's path is no
/// pointer.
pub fn kept(value: &Value, at_value: &str, scope: &Scope, notes: &mut Vec<Note>) -> Option<Value> {
    let mut value = value.clone();
    absolute_in(&mut value, at_value, scope, notes)?;
    Some(value)
}

/// [`kept`]'s walk, in place (no new list or map per level).
fn absolute_in(
    value: &mut Value,
    at_value: &str,
    scope: &Scope,
    notes: &mut Vec<Note>,
) -> Option<()> {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                absolute_in(item, &at_index(at_value, i), scope, notes)?;
            }
        }
        Value::Object(map) => match map.get("path") {
            Some(Value::String(path)) => {
                *value = binding(path, &at(at_value, "path"), scope, notes)?
            }
            _ => {
                for (key, item) in map.iter_mut() {
                    absolute_in(item, &at(at_value, key), scope, notes)?;
                }
            }
        },
        _ => {}
    }
    Some(())
}

/// An A2UI dynamic value as ours; `None` (with a note) when it has no
/// equivalent.
pub fn import(
    value: &Value,
    at_value: &str,
    scope: &Scope,
    notes: &mut Vec<Note>,
) -> Option<Value> {
    match value {
        Value::Array(items) => {
            let items = items.iter().enumerate();
            let items = items.filter_map(|(i, v)| import(v, &at_index(at_value, i), scope, notes));
            Some(Value::Array(items.collect()))
        }
        Value::Object(map) => {
            if let Some(Value::String(path)) = map.get("path") {
                return binding(path, &at(at_value, "path"), scope, notes);
            }
            if let Some(Value::String(name)) = map.get("call") {
                let empty = Map::new();
                let args = map.get("args").and_then(Value::as_object).unwrap_or(&empty);
                return import_call(name, args, at_value, scope, notes);
            }
            Some(value.clone())
        }
        _ => Some(value.clone()),
    }
}

/// A2UI's date patterns for our `formatDate` styles, both ways.
const DATE_STYLES: [(&str, &str); 4] = [
    ("short", "M/d/yy"),
    ("medium", "MMM d, y"),
    ("long", "MMMM d, y"),
    ("full", "EEEE, MMMM d, y"),
];

fn dropped_arg(name: &str, key: &str, at_args: &str, notes: &mut Vec<Note>) {
    notes.push(Note::new(
        "arg_dropped",
        at(at_args, key),
        [
            name,
            "'s argument ",
            key,
            " has no equivalent here; left out",
        ]
        .concat(),
    ));
}

fn unsupported(name: &str, at_call: &str, notes: &mut Vec<Note>) -> Option<Value> {
    notes.push(Note::new(
        "unsupported_function",
        at(at_call, "call"),
        [
            "function ",
            name,
            " has no equivalent among formatDate, formatNumber, formatCurrency, pluralize, concat, length, required, minLength, maxLength, email, range; the value is left out",
        ]
        .concat(),
    ));
    None
}

fn import_call(
    name: &str,
    args: &Map<String, Value>,
    at_call: &str,
    scope: &Scope,
    notes: &mut Vec<Note>,
) -> Option<Value> {
    let at_args = at(at_call, "args");
    if name == "@index" {
        let Some(index) = scope.index else {
            notes.push(Note::new(
                "no_equivalent",
                at(at_call, "call"),
                "@index is read only inside a template",
            ));
            return None;
        };
        let offset = args.get("offset").and_then(Value::as_f64).unwrap_or(0.0);
        return Some(json!(index as f64 + offset));
    }
    if name == "formatString" {
        return match args.get("value") {
            Some(Value::String(text)) => interpolate(text, &at(&at_args, "value"), scope, notes),
            _ => unsupported(name, at_call, notes),
        };
    }
    let entry = FUNCTIONS.iter().find(|(theirs, _, renames)| {
        // A2UI's `length` is ours by the bound it has.
        *theirs == name
            && (name != "length"
                || renames
                    .iter()
                    .all(|(a, _)| *a == "value" || args.contains_key(*a)))
    });
    let Some(&(_, ours, renames)) = entry else {
        return unsupported(name, at_call, notes);
    };
    let mut out = Map::new();
    for (key, arg) in args {
        let at_arg = at(&at_args, key);
        if let Some((_, to)) = renames.iter().find(|(from, _)| from == key) {
            // An argument left out leaves the call without its meaning.
            out.insert((*to).into(), import(arg, &at_arg, scope, notes)?);
            continue;
        }
        match (name, key.as_str(), arg) {
            ("formatDate", "format", Value::String(pattern)) => {
                match DATE_STYLES.iter().find(|(_, p)| p == pattern) {
                    Some((style, _)) => {
                        out.insert("style".into(), json!(style));
                    }
                    None => dropped_arg(name, key, &at_args, notes),
                }
            }
            ("formatNumber", "decimals", Value::Number(n)) => {
                out.insert("minimumFractionDigits".into(), Value::Number(n.clone()));
                out.insert("maximumFractionDigits".into(), Value::Number(n.clone()));
            }
            _ => dropped_arg(name, key, &at_args, notes),
        }
    }
    Some(json!({"call": ours, "args": out}))
}

/// The functions both have, both ways: A2UI's name, ours, and the
/// arguments (A2UI's name, ours). A2UI's `length` is a check, our
/// `minLength` or `maxLength` by the bound it has (with none A2UI refuses
/// it); our `length`, a number, has no A2UI equivalent.
type Function = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);
const FUNCTIONS: [Function; 9] = [
    ("formatDate", "formatDate", &[("value", "value")]),
    ("formatNumber", "formatNumber", &[("value", "value")]),
    (
        "formatCurrency",
        "formatCurrency",
        &[("value", "value"), ("currency", "currency")],
    ),
    (
        "pluralize",
        "pluralize",
        &[
            ("value", "count"),
            ("zero", "zero"),
            ("one", "one"),
            ("other", "other"),
        ],
    ),
    ("required", "required", &[("value", "value")]),
    ("email", "email", &[("value", "value")]),
    (
        "numeric",
        "range",
        &[("value", "value"), ("min", "min"), ("max", "max")],
    ),
    ("length", "minLength", &[("value", "value"), ("min", "min")]),
    ("length", "maxLength", &[("value", "value"), ("max", "max")]),
];

/// `formatString`'s `${...}` interpolation as a literal, a binding (one
/// path alone) or `concat` (paths, text, and A2UI's number and boolean
/// literals, which `concat` writes as text); another expression, a number
/// A2UI refuses (`${1.2.3}`) or a `${` never closed has no equivalent.
pub fn interpolate(
    text: &str,
    at_text: &str,
    scope: &Scope,
    notes: &mut Vec<Note>,
) -> Option<Value> {
    let mut values: Vec<Value> = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("\\${") {
            literal.push_str("${");
            rest = after;
        } else if let Some(after) = rest.strip_prefix("${") {
            let Some(end) = after.find('}') else {
                notes.push(Note::new(
                    "unsupported_function",
                    at_text,
                    "formatString's ${ is never closed (A2UI refuses the template); this value is left out",
                ));
                return None;
            };
            let expression = after.get(..end).unwrap_or_default().trim();
            // A string literal ('...', A2UI's backslash escapes): text, as
            // the backslash before a ${ that the export writes so.
            if let Some(text) = string_literal(expression) {
                literal.push_str(&text);
                rest = after.get(end + 1..).unwrap_or_default();
                continue;
            }
            let is_path = !expression.is_empty()
                && !expression.contains(['(', ')', '$', '\'', '"', ' ', ',']);
            let value = match literal_of(expression) {
                Some(value) if is_path => value,
                _ => {
                    notes.push(Note::new(
                        "unsupported_function",
                        at_text,
                        "formatString becomes concat only with plain ${/path} interpolation and number or boolean literals; this value is left out",
                    ));
                    return None;
                }
            };
            if !literal.is_empty() {
                values.push(Value::String(core::mem::take(&mut literal)));
            }
            values.push(match value {
                Some(value) => value,
                None => binding(expression, at_text, scope, notes)?,
            });
            rest = after.get(end + 1..).unwrap_or_default();
        } else {
            let mut chars = rest.chars();
            literal.extend(chars.next());
            rest = chars.as_str();
        }
    }
    if !literal.is_empty() {
        values.push(Value::String(literal));
    }
    match values.as_slice() {
        [] => Some(json!("")),
        // A literal number or boolean alone is still text, as concat's.
        [one] if one.is_string() || one.is_object() => Some(one.clone()),
        _ => Some(json!({"call": "concat", "args": {"values": values}})),
    }
}

/// The text of an A2UI string literal `expression` (`'...'`, with `\\`,
/// `\'`, `\"`, `\n`, `\t` and `\r` escapes), if it is one.
fn string_literal(expression: &str) -> Option<String> {
    let inner = expression.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        text.push(match c {
            '\\' => match chars.next()? {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                escaped @ ('\\' | '\'' | '"') => escaped,
                _ => return None,
            },
            '\'' => return None,
            c => c,
        });
    }
    Some(text)
}

/// How A2UI's expression parser reads an interpolated `expression`:
/// `Some(None)` a path, `Some(Some(value))` a literal (`true`, `false`, or a
/// number: digits with at most one `.` between digits, after an optional
/// `-`; leading zeros dropped), `None` a number literal it refuses (one
/// starting with a digit, or `-` and a digit, that is no such number).
fn literal_of(expression: &str) -> Option<Option<Value>> {
    match expression {
        "true" => return Some(Some(json!(true))),
        "false" => return Some(Some(json!(false))),
        _ => {}
    }
    let digits = expression.strip_prefix('-').unwrap_or(expression);
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return Some(None);
    }
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // Read as JSON reads numbers (serde_json's parser, already linked: a
    // second float parser costs the wasm 14.8 KB gzip), once the
    // leading zeros JSON does not allow are dropped.
    let sign = if digits.len() < expression.len() {
        "-"
    } else {
        ""
    };
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let number = match expression.contains('.') {
        true => [sign, whole, ".", fraction].concat(),
        false => [sign, whole].concat(),
    };
    match surfaces_core::json::parse(&number) {
        Ok(n @ Value::Number(_)) => Some(Some(n)),
        _ => None,
    }
}

/// A2UI checks (`[{condition, message}]`) as ours (`[{call, args,
/// message}]`); a condition other than one of our checks is left out.
pub fn import_checks(
    checks: &Value,
    at_checks: &str,
    scope: &Scope,
    notes: &mut Vec<Note>,
) -> Option<Value> {
    let list = checks.as_array()?;
    let mut out = Vec::new();
    for (i, check) in list.iter().enumerate() {
        let at_check = at_index(at_checks, i);
        let condition = check.get("condition").unwrap_or(&Value::Null);
        let at_condition = at(&at_check, "condition");
        let call = import(condition, &at_condition, scope, notes);
        let name = call
            .as_ref()
            .and_then(|c| c.get("call"))
            .and_then(Value::as_str);
        match (name, &call) {
            (
                Some("required" | "minLength" | "maxLength" | "email" | "range"),
                Some(Value::Object(map)),
            ) => {
                let mut map = map.clone();
                let message = check
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("Check this value.");
                map.insert("message".into(), json!(message));
                out.push(Value::Object(map));
            }
            _ => notes.push(Note::new(
                "check_dropped",
                at_condition,
                "a check is one of required, length, email or numeric here; this one is left out",
            )),
        }
    }
    (!out.is_empty()).then_some(Value::Array(out))
}
/// Our value as A2UI's; `None` (with a note) when it has no equivalent.
pub fn export(value: &Value, at_value: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let Value::Object(map) = value else {
        return Some(value.clone());
    };
    if map.contains_key("path") {
        return Some(value.clone());
    }
    let Some(Value::String(name)) = map.get("call") else {
        return Some(value.clone());
    };
    let empty = Map::new();
    let args = map.get("args").and_then(Value::as_object).unwrap_or(&empty);
    let at_args = at(at_value, "args");
    if name == "concat" {
        return export_concat(args, &at_args, notes);
    }
    let Some(&(theirs, _, renames)) = FUNCTIONS.iter().find(|(_, ours, _)| ours == name) else {
        notes.push(Note::new(
            "unsupported_function",
            at(at_value, "call"),
            [
                "function ",
                name,
                " has no equivalent in A2UI's basic catalog; the value is left out",
            ]
            .concat(),
        ));
        return None;
    };
    let mut out = Map::new();
    for (key, arg) in args {
        let at_arg = at(&at_args, key);
        if let Some((to, _)) = renames.iter().find(|(_, from)| from == key) {
            out.insert((*to).into(), export(arg, &at_arg, notes)?);
            continue;
        }
        match (name.as_str(), key.as_str(), arg) {
            ("formatDate", "style", Value::String(style)) => {
                match DATE_STYLES.iter().find(|(s, _)| s == style) {
                    Some((_, pattern)) => {
                        out.insert("format".into(), json!(pattern));
                    }
                    None => dropped_arg(name, key, &at_args, notes),
                }
            }
            // A2UI's decimals fixes both bounds: the maximum, and a
            // minimum below it noted (formatNumber would show fewer).
            ("formatNumber", "maximumFractionDigits", Value::Number(n)) => {
                out.insert("decimals".into(), Value::Number(n.clone()));
            }
            ("formatNumber", "minimumFractionDigits", Value::Number(n)) => {
                match args.get("maximumFractionDigits") {
                    Some(max) if max != arg => dropped_arg(name, key, &at_args, notes),
                    _ => {
                        out.insert("decimals".into(), Value::Number(n.clone()));
                    }
                }
            }
            _ => dropped_arg(name, key, &at_args, notes),
        }
    }
    if theirs == "formatDate" && !out.contains_key("format") {
        out.insert("format".into(), json!(DATE_STYLES[1].1));
    }
    Some(json!({"call": theirs, "args": out}))
}

/// `concat` as `formatString`: literals written out (`${` escaped),
/// bindings as `${/path}`; a nested call has no equivalent.
fn export_concat(args: &Map<String, Value>, at_args: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let values = args.get("values").and_then(Value::as_array)?;
    let mut text = String::new();
    for (i, value) in values.iter().enumerate() {
        match value {
            Value::String(s) => text.push_str(&s.replace("${", "\\${")),
            Value::Object(map) if map.get("path").is_some_and(Value::is_string) => {
                // Backslashes just before the ${ would escape it (A2UI reads
                // `\${` as the text `${`): written as a string literal.
                let kept = text.trim_end_matches('\\').len();
                if kept < text.len() {
                    let slashes = "\\\\".repeat(text.len() - kept);
                    text.truncate(kept);
                    text.push_str(&["${'", &slashes, "'}"].concat());
                }
                text.push_str("${");
                text.push_str(map["path"].as_str().unwrap_or_default());
                text.push('}');
            }
            Value::Object(_) | Value::Array(_) => {
                notes.push(Note::new(
                    "unsupported_function",
                    at_index(&at(at_args, "values"), i),
                    "formatString interpolates paths and text here; a nested call is left out",
                ));
                return None;
            }
            other => text.push_str(&validator_wasm::json_text(other)),
        }
    }
    Some(json!({"call": "formatString", "args": {"value": text}}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Option<Value>, Vec<&'static str>) {
        let mut notes = Vec::new();
        let value = interpolate(text, "/t", &Scope::default(), &mut notes);
        (value, notes.iter().map(|n| n.code).collect())
    }

    #[test]
    fn number_and_boolean_literals_are_values_not_paths() {
        let concat = |values: Value| json!({"call": "concat", "args": {"values": values}});
        assert_eq!(read("${42}"), (Some(concat(json!([42]))), vec![]));
        assert_eq!(read("${007}"), (Some(concat(json!([7]))), vec![]));
        assert_eq!(read("${-1.5}"), (Some(concat(json!([-1.5]))), vec![]));
        assert_eq!(
            read("${true} of ${/n} ${false}"),
            (
                Some(concat(json!([true, " of ", {"path": "/n"}, " ", false]))),
                vec![]
            )
        );
        // A keyword's prefix, or a dash not before a digit, is a path.
        assert_eq!(
            read("${trueish}"),
            (Some(json!({"path": "/trueish"})), vec![])
        );
        assert_eq!(read("${-x}"), (Some(json!({"path": "/-x"})), vec![]));
    }

    #[test]
    fn refused_numbers_and_unclosed_interpolation_are_noted() {
        for text in ["${1.2.3}", "${1.}", "${1a}", "hello ${world", "${x} ${"] {
            assert_eq!(read(text), (None, vec!["unsupported_function"]), "{text}");
        }
        // An escaped ${ is text.
        assert_eq!(read("\\${x"), (Some(json!("${x")), vec![]));
    }

    #[test]
    fn backslashes_before_a_binding_go_out_and_come_back_as_text() {
        // A2UI reads \${ as the text ${: backslashes just before a binding
        // are written as a string literal, which is read back as text.
        for slashes in ["\\", "\\\\", "\\\\\\"] {
            let before = format!("C:{slashes}");
            let ours =
                json!({"call": "concat", "args": {"values": [before, {"path": "/dir"}, "\\${x}"]}});
            let mut notes = Vec::new();
            let out = export_concat(ours["args"].as_object().unwrap(), "/v", &mut notes).unwrap();
            let text = out["args"]["value"].as_str().unwrap();
            assert!(!text.contains("\\${/"), "{text}");
            assert_eq!(read(text), (Some(ours.clone()), vec![]), "{text}");
            assert!(notes.is_empty());
        }
        // A2UI's string literals with their escapes; a quote unescaped is none.
        assert_eq!(read("${'it\\'s'}"), (Some(json!("it's")), vec![]));
        assert_eq!(read("a${'\\n'}b"), (Some(json!("a\nb")), vec![]));
        assert_eq!(read("${'a'b'}").1, vec!["unsupported_function"]);
    }
}
