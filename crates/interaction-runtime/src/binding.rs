//! What the `data-ch-*` attributes of SPEC.md section 10 mean, decided
//! without the DOM: attribute values, the `data-ch-attr` allowlist, `data-ch-model`
//! coercions and which bindings an update touches.

use alloc::string::String;
use alloc::vec::Vec;
use surfaces_core::{JsonView, Kind};

/// The attributes the runtime reads, in the order it reads them.
pub const SELECTOR: &str =
    "[data-ch-text],[data-ch-attr],[data-ch-model],[data-ch-visible],[data-ch-checks],[data-ch-action]";

/// How `data-ch-attr` may write one attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrRule {
    /// The `value` property (what a form field shows).
    Value,
    /// The `checked` property.
    Checked,
    /// The boolean `disabled` attribute: present when the value is truthy.
    Disabled,
    /// An `aria-*` or `data-*` attribute, written as text; `null` removes it.
    Text,
    /// `href`, only when the value is a safe href.
    Href,
}

/// The rule for attribute `name`, or `None` when the runtime never sets it
/// (`on*`, `style`, `src`, `srcdoc` and everything else off the allowlist).
/// Names are matched exactly, in lower case, so `ONCLICK` or `Style` cannot
/// slip through a case-insensitive HTML parser.
pub fn attr_rule(name: &str) -> Option<AttrRule> {
    match name {
        "value" => Some(AttrRule::Value),
        "checked" => Some(AttrRule::Checked),
        "disabled" => Some(AttrRule::Disabled),
        "href" => Some(AttrRule::Href),
        _ => {
            let bytes = name.as_bytes();
            let prefixed = bytes.starts_with(b"aria-") || bytes.starts_with(b"data-");
            let rest = bytes.get(5..).unwrap_or_default();
            let ok = prefixed
                && !rest.is_empty()
                && rest
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-');
            ok.then_some(AttrRule::Text)
        }
    }
}

/// What a `data-ch-model` field writes into the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// A text-like field: its value as a string.
    Text,
    /// `range` and `number`: its value as a number (`null` when empty).
    Number,
    /// `checkbox`: a boolean.
    Checkbox,
    /// `radio`: its value, or its `data-ch-value` JSON literal, when checked.
    Radio,
    /// `select`: the chosen option's value or `data-ch-value` literal.
    Select,
}

/// The model kind of a form control from its `type` property (which the
/// browser normalizes: lower case, `select-one` for a select, `text` for an
/// unknown input type, `textarea` for a text area).
pub fn model_kind(control_type: &str) -> ModelKind {
    match control_type {
        "range" | "number" => ModelKind::Number,
        "checkbox" => ModelKind::Checkbox,
        "radio" => ModelKind::Radio,
        "select-one" | "select-multiple" => ModelKind::Select,
        _ => ModelKind::Text,
    }
}

/// Every pointer an expression reads: the `path` of each binding in it, at
/// any depth (calls, conditions, lists). Over-approximates harmlessly.
pub fn reads<V: JsonView>(expression: &V, out: &mut Vec<String>) {
    let mut pending = Vec::new();
    pending.push(expression.clone());
    while let Some(v) = pending.pop() {
        match v.kind() {
            Kind::Object => {
                for k in &v.keys() {
                    let Some(item) = v.get(k) else { continue };
                    match item.as_str() {
                        Some(p) if k == "path" => out.push(p.into_owned()),
                        _ => pending.push(item),
                    }
                }
            }
            Kind::Array => {
                for i in 0..v.len() {
                    if let Some(item) = v.index(i) {
                        pending.push(item);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a write at `written` can change what `read` addresses: one is the
/// other or lies inside it (segment-wise: `/a` and `/ab` do not overlap).
pub fn overlaps(read: &str, written: &str) -> bool {
    within(read, written) || within(written, read)
}

fn within(outer: &str, inner: &str) -> bool {
    let (outer, inner) = (outer.as_bytes(), inner.as_bytes());
    inner.starts_with(outer) && matches!(inner.get(outer.len()), None | Some(b'/'))
}

/// The ids named by an `aria-describedby` value; the runtime writes check
/// messages into the first.
pub fn first_id(ids: &str) -> Option<&str> {
    // A byte loop: `split_ascii_whitespace` costs the wasm a string splitter.
    let bytes = ids.as_bytes();
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = bytes.get(start..)?;
    let len = rest
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(rest.len());
    ids.get(start..start + len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_attribute_allowlist_holds() {
        assert_eq!(attr_rule("value"), Some(AttrRule::Value));
        assert_eq!(attr_rule("checked"), Some(AttrRule::Checked));
        assert_eq!(attr_rule("disabled"), Some(AttrRule::Disabled));
        assert_eq!(attr_rule("href"), Some(AttrRule::Href));
        assert_eq!(attr_rule("aria-pressed"), Some(AttrRule::Text));
        assert_eq!(attr_rule("data-plan-2"), Some(AttrRule::Text));
        for refused in [
            "onclick",
            "ONCLICK",
            "onerror",
            "style",
            "Style",
            "src",
            "srcdoc",
            "formaction",
            "action",
            "aria-",
            "data-",
            "data-x y",
            "aria-X",
            "Value",
            "HREF",
            "xlink:href",
            "id",
            "class",
            "",
        ] {
            assert_eq!(attr_rule(refused), None, "{refused}");
        }
    }

    #[test]
    fn model_kinds_follow_the_field_type() {
        assert_eq!(model_kind("range"), ModelKind::Number);
        assert_eq!(model_kind("number"), ModelKind::Number);
        assert_eq!(model_kind("checkbox"), ModelKind::Checkbox);
        assert_eq!(model_kind("radio"), ModelKind::Radio);
        assert_eq!(model_kind("select-one"), ModelKind::Select);
        assert_eq!(model_kind("email"), ModelKind::Text);
        assert_eq!(model_kind("text"), ModelKind::Text);
        assert_eq!(model_kind("textarea"), ModelKind::Text);
    }

    #[test]
    fn reads_finds_every_binding() {
        let call = json!({"call": "concat", "args": {"values": [
            {"path": "/a"}, "x", {"path": "/b/c"}, {"path": 1}
        ]}});
        let mut out = Vec::new();
        reads(&&call, &mut out);
        out.sort();
        assert_eq!(out, ["/a", "/b/c"]);
    }

    #[test]
    fn overlap_is_segment_wise() {
        assert!(overlaps("/a", "/a"));
        assert!(overlaps("/a", "/a/b"));
        assert!(overlaps("/a/b", "/a"));
        assert!(overlaps("", "/a"));
        assert!(!overlaps("/a", "/ab"));
        assert!(!overlaps("/a/b", "/a/c"));
    }

    #[test]
    fn describedby_names_the_first_id() {
        assert_eq!(first_id("  msg other"), Some("msg"));
        assert_eq!(first_id(" "), None);
        assert_eq!(first_id("only"), Some("only"));
        assert_eq!(first_id("\tä-1\nb"), Some("ä-1"));
    }
}
