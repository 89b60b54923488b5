//! `catalog_prompt`: the model's instructions, generated from the catalog
//! alone so the model sees exactly what the validator accepts.
//! Deterministic: the same catalog gives the same bytes.

use crate::action::{ACTIONS, MAX_ACTIONS};
use crate::catalog::{Catalog, Children};
use serde_json::Value;
use surfaces_core::function::FUNCTIONS;

/// How deep nested prop shapes are spelled out.
const MAX_SHAPE_DEPTH: usize = 4;

/// The prompt for `catalog`.
///
/// ```
/// let prompt = validator_wasm::prompt::catalog_prompt(&validator_wasm::Catalog::default_blog());
/// assert!(prompt.contains("### Heading"));
/// assert!(prompt.contains("- text (required): string, non-empty, at most 200 characters; may bind"));
/// ```
pub fn catalog_prompt(catalog: &Catalog) -> String {
    let mut out = String::new();
    let name = catalog.name();
    line(&mut out, &["# Writing surfaces for the catalog ", name]);
    if let Some(d) = catalog.description() {
        line(&mut out, &["\n", d]);
    }
    out.push_str(&SURFACE_RULES.replace("CATALOG", name));
    line(&mut out, &["\n## Components\n"]);
    for entry in catalog.entries() {
        line(&mut out, &["### ", &entry.name]);
        if let Some(d) = &entry.description {
            line(&mut out, &[d]);
        }
        let children = match &entry.children {
            Children::None => "none".to_string(),
            Children::Any => "any components".to_string(),
            Children::Only(names) => ["only ", &names.join(", ")].concat(),
        };
        line(&mut out, &["Children: ", &children, "."]);
        let required: Vec<&str> = entry
            .props
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match entry
            .props
            .get("properties")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
        {
            None => line(&mut out, &["Props: none."]),
            Some(props) => {
                line(&mut out, &["Props:"]);
                for (prop, schema) in props {
                    let req = if required.contains(&prop.as_str()) {
                        " (required)"
                    } else {
                        ""
                    };
                    line(
                        &mut out,
                        &["- ", prop, req, ": ", &describe(schema, &entry.props, 0)],
                    );
                }
            }
        }
        line(
            &mut out,
            &["Example props: ", &crate::json_text(&entry.example), "\n"],
        );
    }
    if !catalog.icons().is_empty() {
        line(&mut out, &["Icons: ", &catalog.icons().join(", "), ".\n"]);
    }
    out.push_str(BINDINGS);
    for f in FUNCTIONS {
        let args: Vec<String> = f
            .args
            .iter()
            .map(|a| {
                [
                    a.name,
                    if a.required { "" } else { "?" },
                    " (",
                    a.kind.describe(),
                    ")",
                ]
                .concat()
            })
            .collect();
        let check = if f.is_check { "; also a check" } else { "" };
        let result = match f.result {
            surfaces_core::Kind::Number => "number",
            surfaces_core::Kind::Bool => "boolean",
            _ => "string",
        };
        line(
            &mut out,
            &["- ", f.name, ": ", &args.join(", "), " -> ", result, check],
        );
    }
    out.push_str(CONDITIONS);
    line(
        &mut out,
        &[
            "\n## Actions\n\nA prop that takes actions holds one action or a list of up to ",
            &MAX_ACTIONS.to_string(),
            ", each {\"action\": NAME, ...fields}:",
        ],
    );
    for (name, required, optional) in ACTIONS {
        let mut fields: Vec<String> = required.iter().map(|f| f.to_string()).collect();
        fields.extend(optional.iter().map(|f| [f, "?"].concat()));
        line(
            &mut out,
            &[
                "- ",
                name,
                ": ",
                &if fields.is_empty() {
                    "no fields".to_string()
                } else {
                    fields.join(", ")
                },
            ],
        );
    }
    out.push_str(ACTION_NOTES);
    out.push_str(FENCES);
    fence_example(&mut out, catalog);
    out
}

/// A fence built from the catalog's own components and examples.
fn fence_example(out: &mut String, catalog: &Catalog) {
    let container = catalog
        .entries()
        .iter()
        .find(|e| e.children == Children::Any);
    let leaf = catalog
        .entries()
        .iter()
        .find(|e| e.children == Children::None);
    line(
        out,
        &[
            "\n```surface {\"id\":\"example\",\"catalog\":\"",
            catalog.name(),
            "\"}",
        ],
    );
    let component = |id: &str, entry: &crate::catalog::Entry, children: &str| {
        let mut c = serde_json::json!({"id": id, "component": entry.name, "props": entry.example});
        if !children.is_empty() {
            c["children"] = serde_json::json!([children]);
        }
        crate::json_text(&c)
    };
    match (container, leaf) {
        (Some(root), Some(leaf)) => {
            line(out, &[&component("root", root, "item")]);
            line(out, &[&component("item", leaf, "")]);
        }
        _ => {
            if let Some(first) = catalog.entries().first() {
                line(out, &[&component("root", first, "")]);
            }
        }
    }
    line(out, &["```"]);
}

fn line(out: &mut String, parts: &[&str]) {
    for p in parts {
        out.push_str(p);
    }
    out.push('\n');
}

/// A schema in words: type, limits, format, binding, nested shapes.
fn describe(schema: &Value, root: &Value, depth: usize) -> String {
    // Through a chain of `$ref`s, as the validator follows them.
    let schema = crate::schema::resolved(root, schema).unwrap_or(schema);
    let mut parts: Vec<String> = Vec::new();
    if schema.get("x-action").and_then(Value::as_bool) == Some(true) {
        parts.push("an action or a list of actions".into());
    } else if schema.get("x-checks").and_then(Value::as_bool) == Some(true) {
        parts.push("a list of checks".into());
    } else if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        parts.push(["one of ", &crate::schema::list_literals(options)].concat());
    } else if let Some(t) = schema.get("type") {
        parts.push(match t {
            Value::Array(ts) => ts
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" or "),
            other => other.as_str().unwrap_or("value").to_string(),
        });
    } else {
        parts.push("any value".into());
    }
    let num = |k: &str| schema.get(k).map(crate::json_text);
    match (num("minimum"), num("maximum")) {
        (Some(a), Some(b)) => parts.push([&a, " to ", &b].concat()),
        (Some(a), None) => parts.push(["at least ", &a].concat()),
        (None, Some(b)) => parts.push(["at most ", &b].concat()),
        _ => {}
    }
    if let Some(a) = num("exclusiveMinimum") {
        parts.push(["greater than ", &a].concat());
    }
    if let Some(b) = num("exclusiveMaximum") {
        parts.push(["less than ", &b].concat());
    }
    match num("minLength").as_deref() {
        None | Some("0") => {}
        Some("1") => parts.push("non-empty".into()),
        Some(a) => parts.push(["at least ", a, " characters"].concat()),
    }
    if let Some(b) = num("maxLength") {
        parts.push(["at most ", &b, " characters"].concat());
    }
    if let Some(a) = num("minItems").filter(|a| a != "0") {
        parts.push(["at least ", &a, " items"].concat());
    }
    if let Some(b) = num("maxItems") {
        parts.push(["at most ", &b, " items"].concat());
    }
    if let Some(f) = schema.get("format").and_then(Value::as_str) {
        parts.push(
            match f {
                "safe-href" => "a link: /path, #fragment or an http(s) URL",
                "asset" => "an asset: asset:NAME or /path",
                "icon" => "an icon name (see Icons)",
                "color" => "a color #rgb or #rrggbb",
                "date" => "an ISO 8601 date",
                _ => "an email address",
            }
            .into(),
        );
    }
    if let Some(d) = schema.get("default") {
        parts.push(["default ", &crate::json_text(d)].concat());
    }
    if depth < MAX_SHAPE_DEPTH {
        if let Some(items) = schema.get("items") {
            parts.push(["items: ", &describe(items, root, depth + 1)].concat());
        }
        if let Some(props) = schema
            .get("properties")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
        {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let fields: Vec<String> = props
                .iter()
                .map(|(k, s)| {
                    [
                        k.as_str(),
                        if required.contains(&k.as_str()) {
                            ""
                        } else {
                            "?"
                        },
                        ": ",
                        &describe(s, root, depth + 1),
                    ]
                    .concat()
                })
                .collect();
            parts.push(["{", &fields.join("; "), "}"].concat());
        }
    }
    let mut text = parts.join(", ");
    if schema.get("x-bindable").and_then(Value::as_bool) == Some(true) {
        text.push_str("; may bind");
    }
    text
}

const SURFACE_RULES: &str = r#"
A surface is one JSON object:
{"id": "pricing", "kind": "surface", "catalog": "CATALOG", "components": [...], "data": {...}}

Rules (a surface breaking one is refused):
- A component has exactly the keys id, component, props (object), children (list of ids), visible (a condition).
- Ids start with a-z and use only a-z, 0-9 and -, at most 41 characters; unique in the surface.
- One component has the id "root". Every other component is the child of exactly one component, reachable from root; no cycles.
- root is level 1; nothing deeper than level 8. At most 200 components.
- data is a JSON object, at most 65,536 bytes written compactly.
- Use only the components and props below; a prop outside its limits is flagged and not shown.
"#;

const BINDINGS: &str = r#"
## Bindings and functions

Where a prop "may bind", it takes a literal, a binding {"path": "/json/pointer"} into data, or a function call {"call": NAME, "args": {...}}. Args are literals, bindings or calls, nested at most 4 deep. Paths are JSON Pointers (RFC 6901) and never contain __proto__, constructor or prototype.
A check is {"call": CHECK, "args": {...}, "message": "what to fix"} with CHECK one of required, minLength, maxLength, email, range.
Functions (? marks optional args):
"#;

const CONDITIONS: &str = r#"
## Conditions (visible)

A condition is true, false, {"path": P} (truthy), {"eq": [a, b]}, {"ne": [a, b]}, {"gt": [a, b]}, {"lt": [a, b]}, {"and": [conditions]}, {"or": [conditions]} or {"not": condition}. Operands a and b are JSON literals or {"path": P}; a missing path reads as null. gt and lt compare numbers, or strings by code point; anything else is false. At most 8 levels and 16 conditions per and/or. For "greater or equal" write {"not": {"lt": [a, b]}}.
"#;

const ACTION_NOTES: &str = r#"
Links (href, url, navigate) are a path starting with one /, a #fragment, or an http: or https: URL; nothing else (no javascript:, data:, //host). scrollTo's target is # and a component id. increment's by may be negative; min and max clamp.

## Data sources

In page surfaces only, a top-level data value may be {"$source": "entries", "query": {"collection": "posts", "filter"?: {...}, "sort"?: "field" or "-field", "limit"?: 1 to 50}}. Never in markdown fences.
"#;

const FENCES: &str = r#"
## Surfaces in markdown

In a markdown body, write a surface as a fence: the info is surface and a JSON object with the surface id, then one JSON value per line: components in any order, and {"data": {...}} lines merged into data. Close with the same fence. For example:
"#;
