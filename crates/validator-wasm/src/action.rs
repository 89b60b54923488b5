//! Actions (SPEC.md section 5): what a prop marked `x-action` may hold.

use crate::issue::{Issue, Outcome};
use crate::lookup::{self, field_of};
use serde_json::{Map, Value};
use surfaces_core::fence::is_component_id;
use surfaces_core::function;
use surfaces_core::href::is_safe_href;
use surfaces_core::pointer;
use surfaces_core::problem::Findings;

/// How many actions one prop holds.
pub const MAX_ACTIONS: usize = 8;

/// The actions and their fields: `(name, required, optional)`.
pub const ACTIONS: [(&str, &[&str], &[&str]); 8] = [
    ("set", &["path", "value"], &[]),
    ("toggle", &["path"], &[]),
    ("increment", &["path"], &["by", "min", "max"]),
    ("reset", &[], &["path"]),
    ("navigate", &["href"], &[]),
    ("copy", &["text"], &[]),
    ("share", &[], &["title", "text", "url"]),
    ("scrollTo", &["target"], &[]),
];

/// Checks the value of an `x-action` prop: one action, or a list of 1 to 8.
pub(crate) fn check_prop(value: &Value, at: &mut String, out: &mut Outcome) {
    match value {
        Value::Array(list) => {
            if list.is_empty() || list.len() > MAX_ACTIONS {
                out.issues.push(Issue::error(
                    "invalid_action",
                    at.clone(),
                    "a prop holds one action or a list of 1 to 8 actions",
                ));
                return;
            }
            let len = at.len();
            for (i, action) in list.iter().enumerate() {
                pointer::push_index(at, i);
                check(action, at, out);
                at.truncate(len);
            }
        }
        _ => check(value, at, out),
    }
}

/// Checks one action at `at`.
pub(crate) fn check(action: &Value, at: &mut String, out: &mut Outcome) {
    let invalid = |out: &mut Outcome, at: &str, message: String| {
        out.issues.push(Issue::error("invalid_action", at, message))
    };
    let Some(map) = action.as_object() else {
        return invalid(
            out,
            at,
            "an action is an object such as {\"action\": \"toggle\", \"path\": \"/open\"}".into(),
        );
    };
    let Some(name) = field_of(map, "action").and_then(Value::as_str) else {
        return invalid(out, at, "an action needs \"action\", its name: set, toggle, increment, reset, navigate, copy, share or scrollTo".into());
    };
    let Some((_, required, optional)) = ACTIONS.iter().find(|(n, _, _)| *n == name) else {
        let len = at.len();
        pointer::push(at, "action");
        out.issues.push(Issue::error(
            "unknown_action",
            at.clone(),
            [
                "unknown action \"",
                name,
                "\"; use set, toggle, increment, reset, navigate, copy, share or scrollTo",
            ]
            .concat(),
        ));
        at.truncate(len);
        return;
    };
    for field in *required {
        if field_of(map, field).is_none() {
            invalid(out, at, ["\"", name, "\" needs \"", field, "\""].concat());
        }
    }
    let len = at.len();
    for (key, value) in map {
        if key == "action" {
            continue;
        }
        pointer::push(at, key);
        if !required.contains(&key.as_str()) && !optional.contains(&key.as_str()) {
            let fields = [*required, *optional].concat().join(", ");
            invalid(
                out,
                at,
                [
                    "\"",
                    name,
                    "\" does not take \"",
                    key,
                    "\"; its fields: ",
                    &fields,
                ]
                .concat(),
            );
        } else {
            check_field(name, key, value, map, at, out);
        }
        at.truncate(len);
    }
}

fn check_field(
    name: &str,
    key: &str,
    value: &Value,
    map: &Map<String, Value>,
    at: &mut String,
    out: &mut Outcome,
) {
    let invalid = |out: &mut Outcome, at: &str, message: &str| {
        out.issues.push(Issue::error("invalid_action", at, message))
    };
    match key {
        "path" => match value.as_str() {
            Some(path) => match pointer::check(path) {
                Err(e) => out
                    .issues
                    .push(Issue::error(e.code(), at.clone(), e.message())),
                Ok(()) if path.is_empty() && name != "reset" => invalid(
                    out,
                    at,
                    "the path must name a value inside data, such as \"/open\"",
                ),
                Ok(()) => {}
            },
            None => invalid(
                out,
                at,
                "\"path\" is a JSON Pointer string such as \"/open\"",
            ),
        },
        "value" => {
            if lookup::field(value, "call").is_some() {
                invalid(
                    out,
                    at,
                    "\"set\" writes a literal or a binding {\"path\"}, not a function call",
                );
            } else {
                let mut found = Findings::default();
                function::check_value(&value, at, &mut found);
                out.absorb(found);
            }
        }
        "by" | "min" | "max" => {
            if !value.as_f64().is_some_and(f64::is_finite) {
                invalid(out, at, ["\"", key, "\" is a number"].concat().as_str());
            } else if key == "max" {
                let min = field_of(map, "min").and_then(Value::as_f64);
                if min.is_some_and(|m| value.as_f64().is_some_and(|x| x < m)) {
                    invalid(out, at, "\"max\" may not be below \"min\"");
                }
            }
        }
        "href" | "url" => match value.as_str() {
            Some(href) if is_safe_href(href) => {}
            Some(_) => out.issues.push(Issue::error(
                "unsafe_href",
                at.clone(),
                "a link must be a path starting with one /, a #fragment, or an http: or https: URL",
            )),
            None => invalid(
                out,
                at,
                ["\"", key, "\" is a link string such as \"/pricing\""]
                    .concat()
                    .as_str(),
            ),
        },
        "text" | "title" => {
            // copy's text may be any literal a person can read (a number too).
            let literal =
                value.is_string() || (name == "copy" && (value.is_number() || value.is_boolean()));
            if literal || function::is_dynamic(&value) {
                let mut found = Findings::default();
                function::check_value(&value, at, &mut found);
                out.absorb(found);
            } else {
                invalid(
                    out,
                    at,
                    ["\"", key, "\" is a string, a binding or a function call"]
                        .concat()
                        .as_str(),
                );
            }
        }
        _ => {
            let ok = value
                .as_str()
                .and_then(|t| t.strip_prefix('#'))
                .is_some_and(is_component_id);
            if !ok {
                invalid(
                    out,
                    at,
                    "\"target\" is # followed by a component id, such as \"#faq\"",
                );
            }
        }
    }
}
