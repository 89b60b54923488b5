//! The JSON Schema of a surface restricted to one catalog (SPEC.md section
//! 13, `Catalog.jsonSchema()`): what a model's structured output can be held
//! to, so that it writes only the catalog's components with their props.
//!
//! # How it is built
//! The shape of a surface is written once, in the npm package's
//! `schema/surface.json` (draft 2020-12, catalog-agnostic), which this module
//! reads at compile time. [`surface_schema`] takes that schema whole and
//! replaces its `$defs/component` with an `anyOf` over the catalog's entries,
//! in catalog order. Each branch is the generic component definition (id
//! rule, keys, `children`, `visible`) with
//! - `component`: `{"const": NAME}`;
//! - `props`: the entry's props schema, translated from the catalog's subset
//!   to plain JSON Schema (below), and `props` required when that schema
//!   requires a prop;
//! - `children`: at most 0 items for an entry whose children are `"none"`.
//!
//! The props schema is translated keyword by keyword, as the validator reads
//! it (`schema.rs`):
//! - `x-bindable: true`: the value may also be a binding or a call, so the
//!   schema becomes `anyOf` [the rest, `$defs/binding`, `$defs/call`];
//! - `x-action: true`: the value is also `$defs/actions` (one action or 1
//!   to 8), in an `allOf` beside the schema's other keywords;
//! - `x-checks: true`: the value is also a list of `$defs/check`, likewise
//!   (so the schema's `minItems`/`maxItems` bound it);
//! - `format`: `icon` becomes the catalog's icons (an `enum` where the type
//!   is `"string"`, a `pattern` otherwise), `color`, `date` and `email`
//!   become patterns (a date's calendar day and an email's exact rule stay
//!   the validator's), `safe-href` and `asset` are said in `description`
//!   only, since what a browser reads as a URL is not a regular language
//!   worth writing here: the validator checks them;
//! - `$ref: "#/$defs/NAME"` points at the same definition where the props
//!   schema now sits (`#/$defs/component/anyOf/<i>/properties/props/$defs/NAME`);
//! - every other keyword of the subset is plain JSON Schema already.
//!
//! The binding, call, check and action definitions are `surface.json`'s own
//! `$defs`, so the result is one self-contained document. What JSON Schema
//! cannot say (root, children that resolve, one parent, cycles, depth, the
//! size of data, nesting limits of conditions and calls, safe hrefs) is left
//! to the validator, which judges every write anyway.
//!
//! ```
//! use validator_wasm::{json_schema::surface_schema, Catalog};
//!
//! let catalog = Catalog::default_blog();
//! let schema = surface_schema(&catalog);
//! let branches = schema["$defs"]["component"]["anyOf"].as_array().unwrap();
//! assert_eq!(branches.len(), catalog.entries().len());
//!
//! let heading = &branches[catalog.entries().iter().position(|e| e.name == "Heading").unwrap()];
//! assert_eq!(heading["properties"]["component"]["const"], "Heading");
//! assert_eq!(heading["properties"]["children"]["maxItems"], 0);
//! assert_eq!(heading["required"], serde_json::json!(["id", "component", "props"]));
//! // `text` is bindable: a string, a binding or a function call.
//! let text = &heading["properties"]["props"]["properties"]["text"]["anyOf"];
//! assert_eq!(text[0]["type"], "string");
//! assert_eq!(text[1]["$ref"], "#/$defs/binding");
//! assert_eq!(text[2]["$ref"], "#/$defs/call");
//! ```

use crate::catalog::{Catalog, Children, Entry};
use serde_json::{json, Map, Value};

/// The generic surface schema of the npm package, the one spelling of a
/// surface's shape (`npm/schema/surface.json`, minified by `build.rs`).
const SURFACE: &str = include_str!(concat!(env!("OUT_DIR"), "/surface.json"));

/// What an email is at most (the `email` function's rule).
const EMAIL_MAX_CHARS: u64 = 254;

/// The JSON Schema (draft 2020-12) of a surface whose components are
/// `catalog`'s, each with its props schema: `npm/schema/surface.json` with
/// the component definition replaced by an `anyOf` over the catalog's
/// entries (see the module docs for how each entry is written).
pub fn surface_schema(catalog: &Catalog) -> Value {
    // The file is the package's and is checked by the tests; failing here is a build defect.
    let mut schema: Value = surfaces_core::json::parse(SURFACE)
        .unwrap_or_else(|e| panic!("npm/schema/surface.json is not JSON: {e}"));
    let Some(top) = schema.as_object_mut() else {
        panic!("npm/schema/surface.json is not an object");
    };
    // Another document than the package's: it keeps no `$id` of its own.
    top.shift_remove("$id");
    top.insert(
        "title".into(),
        Value::String(["Surface of the catalog ", catalog.name()].concat()),
    );
    top.insert(
        "description".into(),
        Value::String(
            [
                "A surface document whose components are those of the catalog ",
                catalog.name(),
                ", each with its props. The validator still judges what this schema cannot say: \
                 root, children that name components of the surface, one parent each, no cycle, \
                 depth, the size of data, safe hrefs and assets.",
            ]
            .concat(),
        ),
    );
    let generic = schema
        .pointer("/$defs/component")
        .cloned()
        .unwrap_or_else(|| panic!("npm/schema/surface.json has no $defs/component"));
    let branches = catalog
        .entries()
        .iter()
        .enumerate()
        .map(|(i, entry)| component(&generic, entry, i, catalog.icons()))
        .collect();
    let mut one_of_them = Map::new();
    one_of_them.insert("title".into(), "Component".into());
    one_of_them.insert(
        "description".into(),
        Value::String(
            [
                "One component of the catalog ",
                catalog.name(),
                ", chosen by its \"component\" name.",
            ]
            .concat(),
        ),
    );
    one_of_them.insert("anyOf".into(), Value::Array(branches));
    if let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) {
        defs.insert("component".into(), Value::Object(one_of_them));
    }
    schema
}

/// The branch for `entry`, the `index`th of the catalog: the generic
/// component definition with the entry's name, props and children rule.
fn component(generic: &Value, entry: &Entry, index: usize, icons: &[String]) -> Value {
    let mut branch = generic.clone();
    let Some(map) = branch.as_object_mut() else {
        return branch;
    };
    map.insert("title".into(), Value::String(entry.name.clone()));
    if let Some(description) = &entry.description {
        map.insert("description".into(), Value::String(description.clone()));
    }
    let base = [
        "#/$defs/component/anyOf/",
        &index.to_string(),
        "/properties/props",
    ]
    .concat();
    let mut props = Translate { icons, base: &base }.schema(&entry.props);
    if let Some(p) = props.as_object_mut() {
        p.entry("title").or_insert_with(|| "Props".into());
        p.entry("description")
            .or_insert_with(|| Value::String(["The props of ", &entry.name, "."].concat()));
    }
    let requires_props = props
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    if let Some(properties) = map.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert(
            "component".into(),
            json!({
                "title": "Component name",
                "description": (["The component ", &entry.name, "."].concat()),
                "const": entry.name,
            }),
        );
        properties.insert("props".into(), props);
        let children = match &entry.children {
            Children::None => Some(json!({
                "title": "Children",
                "description": ([&entry.name, " takes no children."].concat()),
                "type": "array",
                "maxItems": 0,
            })),
            Children::Any => None,
            Children::Only(names) => properties.get("children").cloned().map(|mut c| {
                c["description"] = Value::String(
                    [
                        "The ids of this component's children, in order; only components ",
                        &names.join(", "),
                        ".",
                    ]
                    .concat(),
                );
                c
            }),
        };
        if let Some(children) = children {
            properties.insert("children".into(), children);
        }
    }
    if requires_props {
        if let Some(required) = map.get_mut("required").and_then(Value::as_array_mut) {
            required.push("props".into());
        }
    }
    branch
}

/// Translates a props schema of the catalog's subset into plain JSON Schema.
struct Translate<'a> {
    /// The catalog's icons (`format: "icon"`).
    icons: &'a [String],
    /// Where the props schema sits, as a URI fragment: its `$defs` are there.
    base: &'a str,
}

impl Translate<'_> {
    fn schema(&self, schema: &Value) -> Value {
        let Value::Object(s) = schema else {
            return schema.clone();
        };
        let on = |key: &str| s.get(key).and_then(Value::as_bool).unwrap_or(false);
        // Annotations, `$defs` and `$ref` stay outside: the validator applies
        // `$ref` before it looks at bindings, actions or checks.
        let mut out = Map::new();
        for key in ["title", "description", "default", "examples"] {
            if let Some(v) = s.get(key) {
                out.insert(key.into(), v.clone());
            }
        }
        if let Some(Value::Object(defs)) = s.get("$defs") {
            out.insert("$defs".into(), Value::Object(self.each(defs)));
        }
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            out.insert("$ref".into(), Value::String(self.reference(reference)));
        }
        // An extension adds its rules to the other keywords, which apply as
        // well (`maxItems` bounds a list of checks or actions).
        let mut own = self.constraints(s, &mut out);
        let mut extensions = Vec::new();
        if on("x-action") {
            extensions.push(json!({"$ref": "#/$defs/actions"}));
        }
        if on("x-checks") {
            extensions.push(json!({"type": "array", "items": {"$ref": "#/$defs/check"}}));
        }
        if !extensions.is_empty() {
            own.insert("allOf".into(), Value::Array(extensions));
        }
        let own = if on("x-bindable") {
            let rest = Value::Object(own);
            Map::from_iter([(
                "anyOf".to_string(),
                json!([rest, {"$ref": "#/$defs/binding"}, {"$ref": "#/$defs/call"}]),
            )])
        } else {
            own
        };
        out.extend(own);
        Value::Object(out)
    }

    /// The keywords that judge the value itself (all but annotations,
    /// `$defs`, `$ref` and the extensions), translated; a format's note goes
    /// into `out`'s description.
    fn constraints(
        &self,
        s: &Map<String, Value>,
        out: &mut Map<String, Value>,
    ) -> Map<String, Value> {
        let mut own = Map::new();
        for (key, value) in s {
            let translated = match key.as_str() {
                "title" | "description" | "default" | "examples" | "$defs" | "$ref" | "format"
                | "x-bindable" | "x-action" | "x-checks" => continue,
                "items" | "additionalProperties" => self.schema(value),
                "properties" => match value {
                    Value::Object(props) => Value::Object(self.each(props)),
                    _ => value.clone(),
                },
                "anyOf" | "oneOf" => match value {
                    Value::Array(branches) => {
                        Value::Array(branches.iter().map(|b| self.schema(b)).collect())
                    }
                    _ => value.clone(),
                },
                _ => value.clone(),
            };
            own.insert(key.clone(), translated);
        }
        if let Some(format) = s.get("format").and_then(Value::as_str) {
            self.format(format, &mut own, out);
        }
        own
    }

    /// What a `format` says, in plain JSON Schema (each keyword used here
    /// applies to strings only, as a format does).
    fn format(&self, format: &str, own: &mut Map<String, Value>, out: &mut Map<String, Value>) {
        let pattern = match format {
            "icon" => {
                let only_strings = own.get("type").and_then(Value::as_str) == Some("string");
                if only_strings && !self.icons.is_empty() && !own.contains_key("enum") {
                    own.insert("enum".into(), json!(self.icons));
                    return;
                }
                let names: Vec<String> = self.icons.iter().map(|i| regex_escape(i)).collect();
                if names.is_empty() {
                    // No icons: no string is one.
                    "[^\\s\\S]".to_string()
                } else {
                    ["^(", &names.join("|"), ")$"].concat()
                }
            }
            "color" => "^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$".into(),
            "date" => concat!(
                "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
                "(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?",
                "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$"
            )
            .into(),
            "email" => {
                let max = own
                    .get("maxLength")
                    .and_then(Value::as_u64)
                    .map_or(EMAIL_MAX_CHARS, |m| m.min(EMAIL_MAX_CHARS));
                own.insert("maxLength".into(), max.into());
                "^[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]*)*\\.[^@\\s.]+$".into()
            }
            "safe-href" => return note(out, "A safe href: a path starting with a single /, a #fragment, or an http: or https: URL."),
            "asset" => return note(out, "An asset: asset: followed by a name, or a path starting with a single /."),
            _ => return,
        };
        own.insert("pattern".into(), Value::String(pattern));
    }

    fn each(&self, schemas: &Map<String, Value>) -> Map<String, Value> {
        schemas
            .iter()
            .map(|(name, s)| (name.clone(), self.schema(s)))
            .collect()
    }

    /// `#/$defs/NAME` of the props schema, from where the props schema sits.
    fn reference(&self, reference: &str) -> String {
        let Some(name) = reference.strip_prefix("#/$defs/") else {
            return reference.to_string();
        };
        let mut segment = String::new();
        surfaces_core::pointer::push(&mut segment, name);
        [self.base, "/$defs", &fragment_escape(&segment)].concat()
    }
}

/// Adds `text` to the description in `out`.
fn note(out: &mut Map<String, Value>, text: &str) {
    let description = match out.get("description").and_then(Value::as_str) {
        Some(d) => [d, " ", text].concat(),
        None => text.to_string(),
    };
    out.insert("description".into(), Value::String(description));
}

/// `text` as a regular expression matching it literally (ECMA-262 with the
/// `u` flag, which refuses escapes of characters that need none).
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A JSON Pointer written into a URI fragment: characters a fragment may not
/// hold are percent-encoded (RFC 3986).
fn fragment_escape(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_names_are_escaped_for_a_fragment() {
        let t = Translate {
            icons: &[],
            base: "#/b",
        };
        assert_eq!(t.reference("#/$defs/plan"), "#/b/$defs/plan");
        assert_eq!(t.reference("#/$defs/a/b~c"), "#/b/$defs/a~1b~0c");
        assert_eq!(t.reference("#/$defs/a b%é"), "#/b/$defs/a%20b%25%C3%A9");
    }

    #[test]
    fn icon_names_are_matched_literally() {
        assert_eq!(regex_escape("arrow-right"), "arrow-right");
        assert_eq!(regex_escape("a.b|c(d)"), "a\\.b\\|c\\(d\\)");
    }
}
