//! Catalogs (SPEC.md section 2): loading, refusing unknown keywords, lookup.

use crate::issue::Outcome;
use crate::schema::{self, Context, FORMATS, KEYWORDS, TYPES};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};
use surfaces_core::pointer;
use surfaces_core::sorted;

/// The default catalog's text (`catalog/blog@1.json`, minified by `build.rs`).
const BLOG_1: &str = include_str!(concat!(env!("OUT_DIR"), "/blog@1.json"));

/// Which children a component takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Children {
    /// No children.
    None,
    /// Any components.
    Any,
    /// Only components of these names.
    Only(Vec<String>),
}

/// One component of a catalog.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The component name.
    pub name: String,
    /// What it is for.
    pub description: Option<String>,
    /// Which children it takes.
    pub children: Children,
    /// The props schema.
    pub props: Value,
    /// Example props (they validate).
    pub example: Value,
}

/// Why a catalog is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError {
    /// `unknown_keyword` or `invalid_catalog`.
    pub code: &'static str,
    /// Where in the catalog, as a JSON Pointer.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl CatalogError {
    fn invalid(path: &str, message: impl Into<String>) -> CatalogError {
        CatalogError {
            code: "invalid_catalog",
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at {}: {}",
            self.code,
            if self.path.is_empty() {
                "/"
            } else {
                &self.path
            },
            self.message
        )
    }
}

impl std::error::Error for CatalogError {}

/// A loaded catalog.
#[derive(Debug, Clone)]
pub struct Catalog {
    name: String,
    description: Option<String>,
    icons: Vec<String>,
    entries: Vec<Entry>,
    index: sorted::Index,
}

impl Catalog {
    /// The built-in `blog@1` catalog.
    pub fn default_blog() -> Catalog {
        // The shipped file is checked by the tests; failing here is a build defect.
        Catalog::from_json(BLOG_1).unwrap_or_else(|e| panic!("built-in blog@1 catalog: {e}"))
    }

    /// The built-in `blog@1` catalog, loaded once and shared: the one cache
    /// of it that the validator's, the stream's and the renderer's faces use.
    ///
    /// ```
    /// use validator_wasm::Catalog;
    /// let (a, b) = (Catalog::builtin(), Catalog::builtin());
    /// assert!(std::sync::Arc::ptr_eq(&a, &b));
    /// assert_eq!(a.name(), "blog@1");
    /// ```
    pub fn builtin() -> Arc<Catalog> {
        static BUILTIN: OnceLock<Arc<Catalog>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| Arc::new(Catalog::default_blog())))
    }

    /// Loads a catalog from JSON text.
    pub fn from_json(text: &str) -> Result<Catalog, CatalogError> {
        let value: Value = surfaces_core::json::parse(text).map_err(|e| {
            CatalogError::invalid("", ["the catalog is not JSON: ", &e.to_string()].concat())
        })?;
        Catalog::from_value(&value)
    }

    /// Loads a catalog from a parsed JSON value.
    pub fn from_value(value: &Value) -> Result<Catalog, CatalogError> {
        let Some(top) = value.as_object() else {
            return Err(CatalogError::invalid(
                "",
                "a catalog is an object {\"catalog\", \"icons\", \"components\"}",
            ));
        };
        for key in top.keys() {
            if !matches!(
                key.as_str(),
                // `$schema`: an editor's schema, ignored.
                "catalog" | "description" | "icons" | "components" | "$schema"
            ) {
                let mut at = String::new();
                pointer::push(&mut at, key);
                return Err(CatalogError::invalid(
                    &at,
                    [
                        "unknown catalog key \"",
                        key,
                        "\"; use catalog, description, icons, components",
                    ]
                    .concat(),
                ));
            }
        }
        let name = match top.get("catalog") {
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            _ => {
                return Err(CatalogError::invalid(
                    "/catalog",
                    "\"catalog\" names the catalog, such as \"blog@1\"",
                ))
            }
        };
        let description = top
            .get("description")
            .and_then(Value::as_str)
            .map(String::from);
        let icons = match top.get("icons") {
            None => Vec::new(),
            Some(Value::Array(list)) if list.iter().all(Value::is_string) => list
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect(),
            Some(_) => {
                return Err(CatalogError::invalid(
                    "/icons",
                    "\"icons\" is a list of icon names",
                ))
            }
        };
        let Some(components) = top.get("components").and_then(Value::as_object) else {
            return Err(CatalogError::invalid(
                "/components",
                "\"components\" is an object of component entries",
            ));
        };
        let mut entries = Vec::with_capacity(components.len());
        let mut index = sorted::Index::new();
        for (name, raw) in components {
            let mut at = String::from("/components");
            pointer::push(&mut at, name);
            let entry = load_entry(name, raw, &at, &icons)?;
            index.insert(name.clone(), entries.len());
            entries.push(entry);
        }
        for entry in &entries {
            if let Children::Only(names) = &entry.children {
                if let Some(unknown) = names.iter().find(|n| !index.contains_key(*n)) {
                    let mut at = String::from("/components");
                    pointer::push(&mut at, &entry.name);
                    at.push_str("/children");
                    return Err(CatalogError::invalid(
                        &at,
                        [
                            "children names \"",
                            unknown,
                            "\", which is not a component of this catalog",
                        ]
                        .concat(),
                    ));
                }
            }
        }
        Ok(Catalog {
            name,
            description,
            icons,
            entries,
            index,
        })
    }

    /// The catalog's name, e.g. `blog@1`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The catalog's description.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The icon names.
    pub fn icons(&self) -> &[String] {
        &self.icons
    }

    /// The entries, in catalog order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry named `name`.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).and_then(|&i| self.entries.get(i))
    }

    /// The component names in byte order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.index.keys().map(String::as_str)
    }
}

fn load_entry(name: &str, raw: &Value, at: &str, icons: &[String]) -> Result<Entry, CatalogError> {
    let Some(map) = raw.as_object() else {
        return Err(CatalogError::invalid(
            at,
            "a component entry is an object {description, children, props, example}",
        ));
    };
    for key in map.keys() {
        if !matches!(
            key.as_str(),
            "description" | "children" | "props" | "example"
        ) {
            let mut here = at.to_string();
            pointer::push(&mut here, key);
            return Err(CatalogError::invalid(
                &here,
                [
                    "unknown entry key \"",
                    key,
                    "\"; use description, children, props, example",
                ]
                .concat(),
            ));
        }
    }
    let description = match map.get("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => {
            return Err(CatalogError::invalid(
                &[at, "/description"].concat(),
                "\"description\" is a string",
            ))
        }
    };
    let children = match map.get("children") {
        None => Children::None,
        Some(Value::String(s)) if s == "none" => Children::None,
        Some(Value::String(s)) if s == "any" => Children::Any,
        Some(Value::Array(list)) if list.iter().all(Value::is_string) => Children::Only(
            list.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect(),
        ),
        Some(_) => {
            return Err(CatalogError::invalid(
                &[at, "/children"].concat(),
                "\"children\" is \"none\", \"any\" or a list of component names",
            ))
        }
    };
    let props = map
        .get("props")
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"type": "object"}));
    let props_at = [at, "/props"].concat();
    check_schema(&props, &props, &mut props_at.clone())?;
    if !matches!(props.get("type"), Some(Value::String(t)) if t == "object") {
        return Err(CatalogError::invalid(
            &props_at,
            "\"props\" is a schema with \"type\": \"object\"",
        ));
    }
    let example = map
        .get("example")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    let mut outcome = Outcome::default();
    schema::check(
        &props,
        &example,
        &mut String::new(),
        &Context {
            root: &props,
            icons,
        },
        &mut outcome,
    );
    if let Some(first) = outcome.issues.first() {
        return Err(CatalogError::invalid(
            &[at, "/example", &first.path].concat(),
            [
                "the example of ",
                name,
                " does not validate: ",
                &first.message,
            ]
            .concat(),
        ));
    }
    Ok(Entry {
        name: name.to_string(),
        description,
        children,
        props,
        example,
    })
}

/// Checks that `schema` (at `at`, with `$defs` in `root`) uses only the
/// subset's keywords, each with a value of the right shape.
fn check_schema(schema: &Value, root: &Value, at: &mut String) -> Result<(), CatalogError> {
    let map = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(map) => map,
        _ => {
            return Err(CatalogError::invalid(
                at,
                "a schema is an object (or true/false)",
            ))
        }
    };
    let len = at.len();
    for (key, value) in map {
        pointer::push(at, key);
        if !KEYWORDS.contains(&key.as_str()) {
            let hint = if key == "pattern" {
                " (no regular expressions: use enum, format or length limits)"
            } else {
                ""
            };
            return Err(CatalogError {
                code: "unknown_keyword",
                path: at.clone(),
                message: ["the schema keyword \"", key, "\" is not supported", hint].concat(),
            });
        }
        let bad = |what: &str| {
            Err(CatalogError::invalid(
                at,
                ["\"", key, "\" must be ", what].concat(),
            ))
        };
        let shape_ok = match key.as_str() {
            "type" => match value {
                Value::String(t) => TYPES.contains(&t.as_str()),
                Value::Array(ts) => {
                    !ts.is_empty()
                        && ts
                            .iter()
                            .all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t)))
                }
                _ => false,
            },
            "enum" | "examples" => value.as_array().is_some_and(|a| !a.is_empty()),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
            "minLength" | "maxLength" | "minItems" | "maxItems" => value.as_u64().is_some(),
            "properties" | "$defs" => value.is_object(),
            "required" => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            "anyOf" | "oneOf" => value.as_array().is_some_and(|b| !b.is_empty()),
            "$ref" => value
                .as_str()
                .is_some_and(|r| schema::resolve_ref(root, r).is_some()),
            "format" => value.as_str().is_some_and(|f| FORMATS.contains(&f)),
            "title" | "description" => value.is_string(),
            "x-bindable" | "x-action" | "x-checks" => value.is_boolean(),
            "additionalProperties" => value.is_boolean() || value.is_object(),
            _ => true,
        };
        if !shape_ok {
            return bad(match key.as_str() {
                "type" => "a type name (null, boolean, integer, number, string, array, object) or a list of them",
                "enum" | "examples" => "a non-empty list",
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => "a number",
                "minLength" | "maxLength" | "minItems" | "maxItems" => "a whole number",
                "properties" | "$defs" => "an object of schemas",
                "required" => "a list of prop names",
                "anyOf" | "oneOf" => "a non-empty list of schemas",
                "$ref" => "\"#/$defs/NAME\" naming a definition in this props schema's $defs",
                "format" => "one of safe-href, asset, icon, color, date, email",
                "title" | "description" => "a string",
                "additionalProperties" => "true, false or a schema",
                _ => "true or false",
            });
        }
        match (key.as_str(), value) {
            ("items", _) | ("additionalProperties", Value::Object(_)) => {
                check_schema(value, root, at)?
            }
            ("properties" | "$defs", Value::Object(props)) => {
                let here = at.len();
                for (name, sub) in props {
                    pointer::push(at, name);
                    check_schema(sub, root, at)?;
                    at.truncate(here);
                }
            }
            ("anyOf" | "oneOf", Value::Array(branches)) => {
                let here = at.len();
                for (i, sub) in branches.iter().enumerate() {
                    pointer::push_index(at, i);
                    check_schema(sub, root, at)?;
                    at.truncate(here);
                }
            }
            _ => {}
        }
        at.truncate(len);
    }
    Ok(())
}
