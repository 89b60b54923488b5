//! The JSON Schema of a catalog's surfaces ([`surface_schema`]) and the
//! package's generic `npm/schema/surface.json` it is built from, judged by a
//! JSON Schema validator (the `jsonschema` crate, draft 2020-12) against the
//! validator's own fixtures: what the validator accepts, the schema accepts;
//! what the generic schema refuses, the catalog's refuses too; and the
//! catalog's rules that JSON Schema can state (component names, props,
//! children of an entry that takes none, actions, calls) are refused.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use surfaces_core::function::FUNCTIONS;
use validator_wasm::action::ACTIONS;
use validator_wasm::json_schema::surface_schema;
use validator_wasm::{
    is_page, validate_document, validate_surface, Catalog, Children, Issue, Severity,
};

const SURFACE_JSON: &str = include_str!("../../../npm/schema/surface.json");

/// Every case of every fixture file, with the file's name.
fn cases() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("fixture file");
        let doc: Value = serde_json::from_str(&text).expect("fixture JSON");
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for case in doc["cases"].as_array().expect("cases") {
            all.push((format!("{name}: {}", case["name"]), case.clone()));
        }
    }
    all
}

/// The surfaces and pages of the fixtures: (label, catalog document or
/// null for blog@1, document, the issues the validator reports).
fn surfaces() -> Vec<(String, Value, Value, Vec<Issue>)> {
    cases()
        .into_iter()
        .filter(|(_, c)| c["kind"] == "surface" || c["kind"] == "document")
        .map(|(label, case)| {
            let catalog = case.get("catalog").cloned().unwrap_or(Value::Null);
            let loaded = load(&catalog);
            let input = case["input"].clone();
            let issues = if case["kind"] == "surface" {
                validate_surface(&input, &loaded)
            } else {
                validate_document(&input, &loaded)
            };
            (label, catalog, input, issues)
        })
        .collect()
}

fn load(catalog: &Value) -> Catalog {
    if catalog.is_null() {
        Catalog::default_blog()
    } else {
        Catalog::from_value(catalog).expect("fixture catalog loads")
    }
}

fn compile(schema: &Value) -> jsonschema::Validator {
    assert!(
        jsonschema::meta::is_valid(schema),
        "not a valid schema: {:?}",
        jsonschema::meta::validate(schema).err()
    );
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("does not compile: {e}"))
}

/// Whether `schema` accepts `doc`: a surface, or each surface section of a
/// page (`surface.json#/$defs/page` states the same; the npm test runs it).
fn accepts(schema: &jsonschema::Validator, doc: &Value) -> bool {
    match doc["sections"].as_array().filter(|_| is_page(doc)) {
        Some(sections) => sections
            .iter()
            .filter(|s| s["kind"] == "surface")
            .all(|s| schema.is_valid(s)),
        None => schema.is_valid(doc),
    }
}

/// The compiled schema of each catalog the fixtures use, by its text.
struct Schemas(HashMap<String, jsonschema::Validator>);

impl Schemas {
    fn of(&mut self, catalog: &Value) -> &jsonschema::Validator {
        self.0
            .entry(catalog.to_string())
            .or_insert_with(|| compile(&surface_schema(&load(catalog))))
    }
}

fn generic() -> Value {
    serde_json::from_str(SURFACE_JSON).expect("surface.json is JSON")
}

#[test]
fn every_fixture_surface_the_validator_accepts_is_accepted_by_its_catalogs_schema() {
    let mut schemas = Schemas(HashMap::new());
    let generic = compile(&generic());
    let mut accepted = 0;
    for (label, catalog, input, issues) in surfaces() {
        let clean = issues
            .iter()
            .all(|i| !matches!(i.severity, Severity::Error | Severity::Flag));
        if !clean {
            continue;
        }
        assert!(accepts(&generic, &input), "surface.json refuses {label}");
        let schema = schemas.of(&catalog);
        let why: Vec<String> = schema
            .iter_errors(&input)
            .take(3)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(accepts(schema, &input), "{label}: {why:?}");
        accepted += 1;
    }
    assert!(accepted >= 75, "only {accepted} clean fixture surfaces");
}

#[test]
fn what_surface_json_refuses_every_catalogs_schema_refuses() {
    let mut schemas = Schemas(HashMap::new());
    let generic = compile(&generic());
    let mut refused = 0;
    for (label, catalog, input, _) in surfaces() {
        if !accepts(&generic, &input) {
            assert!(!accepts(schemas.of(&catalog), &input), "{label}");
            refused += 1;
        }
    }
    assert!(
        refused >= 40,
        "only {refused} fixtures refused by surface.json"
    );
}

/// Whether the catalog's schema states the rule behind `issue`: a component
/// name outside the catalog, children on an entry that takes none, an
/// unknown action or function, and a prop failing its schema, but for the
/// formats the schema says in words only (asset) or more loosely than the
/// validator (a date that is no calendar day).
fn stated_by_the_catalog(issue: &Issue, doc: &Value, catalog: &Catalog) -> bool {
    let Some((component, rest)) = split_component(&issue.path) else {
        return false;
    };
    let entry = doc
        .pointer(component)
        .and_then(|c| c["component"].as_str())
        .and_then(|name| catalog.entry(name));
    match issue.code {
        "unknown_component" | "unknown_action" | "unknown_function" => true,
        "children_not_allowed" => entry.is_some_and(|e| e.children == Children::None),
        "invalid_prop" => {
            let format = entry
                .zip(rest.strip_prefix("/props"))
                .and_then(|(e, below)| schema_at(&e.props, below))
                .and_then(|s| s["format"].as_str().map(String::from));
            !matches!(format.as_deref(), Some("asset" | "date"))
        }
        _ => false,
    }
}

/// `/components/<i>` (or `/sections/<k>/components/<i>`) and the rest of `path`.
fn split_component(path: &str) -> Option<(&str, &str)> {
    let at = path.find("/components/")? + "/components/".len();
    let end = path[at..].find('/').map_or(path.len(), |e| at + e);
    Some(path.split_at(end))
}

/// The schema a props schema gives the value at `below` (a pointer inside
/// the props), following `$ref`, `properties`, `items` and
/// `additionalProperties`.
fn schema_at<'a>(props: &'a Value, below: &str) -> Option<&'a Value> {
    let resolve = |s: &'a Value| match s["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => props["$defs"].get(name).unwrap_or(s),
        None => s,
    };
    let mut schema = resolve(props);
    for segment in below.split('/').skip(1) {
        let next = schema["properties"]
            .get(segment)
            .or_else(|| schema.get("items"))
            .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))?;
        schema = resolve(next);
    }
    Some(schema)
}

#[test]
fn the_catalogs_rules_json_schema_states_are_refused() {
    let mut schemas = Schemas(HashMap::new());
    let mut stated = 0;
    for (label, catalog, input, issues) in surfaces() {
        let loaded = load(&catalog);
        if issues
            .iter()
            .any(|i| stated_by_the_catalog(i, &input, &loaded))
        {
            stated += 1;
            assert!(
                !accepts(schemas.of(&catalog), &input),
                "{label}: {issues:?}"
            );
        }
    }
    assert!(
        stated >= 40,
        "only {stated} fixtures with a stated catalog rule"
    );
}

#[test]
fn each_entry_is_one_branch_in_catalog_order_with_its_example() {
    let catalog = Catalog::default_blog();
    let schema = surface_schema(&catalog);
    let branches = schema["$defs"]["component"]["anyOf"].as_array().unwrap();
    let names: Vec<_> = branches
        .iter()
        .map(|b| b["properties"]["component"]["const"].as_str().unwrap())
        .collect();
    let entries: Vec<_> = catalog.entries().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, entries);
    let validator = compile(&schema);
    for entry in catalog.entries() {
        let surface = |props: Value| json!({"components": [{"id": "root", "component": entry.name, "props": props}]});
        assert!(
            validator.is_valid(&surface(entry.example.clone())),
            "{}",
            entry.name
        );
        // Every blog@1 entry has additionalProperties: false.
        let mut extra = entry.example.clone();
        extra["not-a-prop"] = json!(1);
        assert!(!validator.is_valid(&surface(extra)), "{}", entry.name);
    }
}

#[test]
fn the_result_holds_only_plain_json_schema_and_every_ref_resolves() {
    fn walk(node: &Value, root: &Value, found: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    if key.starts_with("x-") || key == "format" {
                        found.push(key.clone());
                    }
                    if key == "$ref" {
                        let fragment = value.as_str().unwrap().trim_start_matches('#');
                        let pointer = percent_decode(fragment);
                        if root.pointer(&pointer).is_none() {
                            found.push(format!("$ref {value}"));
                        }
                    }
                    walk(value, root, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, root, found)),
            _ => {}
        }
    }
    let catalog = Catalog::from_value(&json!({
        "catalog": "t@1",
        "components": {
            "A": {"props": {"type": "object",
                "properties": {"n": {"$ref": "#/$defs/a b/c~"}, "i": {"type": "string", "format": "icon"}},
                "$defs": {"a b/c~": {"type": "integer", "maximum": 3}}},
                "example": {"n": 2}}
        }
    }))
    .unwrap();
    for schema in [
        surface_schema(&Catalog::default_blog()),
        surface_schema(&catalog),
    ] {
        let mut found = Vec::new();
        walk(&schema, &schema, &mut found);
        // `$defs` of surface.json hold properties named like keywords only as property names.
        found.retain(|k| k != "format");
        assert_eq!(found, Vec::<String>::new());
        assert!(schema.get("$id").is_none());
    }
    let validator = compile(&surface_schema(&catalog));
    let with =
        |props: Value| json!({"components": [{"id": "root", "component": "A", "props": props}]});
    assert!(validator.is_valid(&with(json!({"n": 3}))));
    assert!(!validator.is_valid(&with(json!({"n": 4}))));
    // No icons: no string is an icon.
    assert!(!validator.is_valid(&with(json!({"i": "star"}))));
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn bindings_actions_checks_and_formats_are_translated() {
    let validator = compile(&surface_schema(&Catalog::default_blog()));
    let one = |component: Value| json!({"components": [component]});
    let ok = |c: Value| validator.is_valid(&one(c));
    // x-bindable: a literal, a binding or a call; never a binding with more keys.
    assert!(ok(
        json!({"id": "root", "component": "Heading", "props": {"text": "Hi"}})
    ));
    assert!(ok(
        json!({"id": "root", "component": "Heading", "props": {"text": {"path": "/t"}}})
    ));
    assert!(ok(
        json!({"id": "root", "component": "Heading", "props": {"text": {"call": "concat", "args": {"values": ["a"]}}}})
    ));
    assert!(!ok(
        json!({"id": "root", "component": "Heading", "props": {"text": {"path": "/t", "x": 1}}})
    ));
    assert!(!ok(
        json!({"id": "root", "component": "Heading", "props": {"text": {"call": "eval", "args": {}}}})
    ));
    assert!(!ok(
        json!({"id": "root", "component": "Heading", "props": {"text": {"path": "/__proto__"}}})
    ));
    // Not bindable: a binding is refused.
    assert!(!ok(
        json!({"id": "root", "component": "Markdown", "props": {"source": {"path": "/s"}}})
    ));
    // x-action: one action or 1 to 8.
    let button = |on_click: Value| json!({"id": "root", "component": "Button", "props": {"label": "Go", "onClick": on_click}});
    assert!(ok(button(json!({"action": "toggle", "path": "/open"}))));
    assert!(ok(button(
        json!([{"action": "increment", "path": "/n", "by": 2}, {"action": "reset"}])
    )));
    assert!(!ok(button(json!({"action": "launch"}))));
    assert!(!ok(button(json!({"action": "toggle"}))));
    assert!(!ok(button(json!([]))));
    assert!(!ok(button(
        json!({"action": "set", "path": "/a", "value": {"call": "length", "args": {}}})
    )));
    // x-checks: a list of checks.
    let field = |checks: Value| json!({"id": "root", "component": "TextField", "props": {"label": "Email", "value": {"path": "/e"}, "checks": checks}});
    assert!(ok(field(
        json!([{"call": "email", "args": {"value": {"path": "/e"}}, "message": "An email"}])
    )));
    assert!(!ok(field(
        json!([{"call": "concat", "args": {}, "message": "x"}])
    )));
    assert!(!ok(field(json!([{"call": "email", "args": {}}]))));
    // format: icon, the catalog's icons.
    assert!(ok(
        json!({"id": "root", "component": "Icon", "props": {"name": "star"}})
    ));
    assert!(!ok(
        json!({"id": "root", "component": "Icon", "props": {"name": "rocket"}})
    ));
    // children: none for Heading; props required where the entry requires some.
    assert!(!ok(
        json!({"id": "root", "component": "Heading", "props": {"text": "Hi"}, "children": ["a"]})
    ));
    assert!(!ok(json!({"id": "root", "component": "Heading"})));
    assert!(ok(json!({"id": "root", "component": "Divider"})));
}

#[test]
fn formats_become_patterns_that_agree_with_the_validator() {
    let catalog = Catalog::from_value(&json!({
        "catalog": "t@1",
        "components": {"A": {"props": {"type": "object", "properties": {
            "color": {"type": "string", "format": "color"},
            "date": {"type": "string", "format": "date"},
            "email": {"type": "string", "format": "email"}
        }}}}
    }))
    .unwrap();
    let validator = compile(&surface_schema(&catalog));
    let cases = [
        ("color", "#abc", true),
        ("color", "#A0b1C2", true),
        ("color", "#abcd", false),
        ("color", "red", false),
        ("date", "2024-02-29", true),
        ("date", "2024-05-01T10:00", true),
        ("date", "2024-05-01T10:00:59.5+02:00", true),
        ("date", "2024-13-01", false),
        ("date", "1 May 2024", false),
        ("email", "ada@example.com", true),
        ("email", "a@b..c", true),
        ("email", "ada@example", false),
        ("email", "ada@.example.com", false),
        ("email", "ada @example.com", false),
        ("email", "a@b@example.com", false),
    ];
    for (prop, text, valid) in cases {
        let surface =
            json!({"components": [{"id": "root", "component": "A", "props": {prop: text}}]});
        let flagged = validate_surface(&surface, &catalog)
            .iter()
            .any(|i| i.code == "invalid_prop");
        assert_eq!(!flagged, valid, "the validator on {prop} {text:?}");
        assert_eq!(
            validator.is_valid(&surface),
            valid,
            "the schema on {prop} {text:?}"
        );
    }
}

#[test]
fn surface_json_names_the_functions_checks_and_actions_of_the_rules() {
    let schema = generic();
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    let defs = &schema["$defs"];
    let functions: Vec<String> = FUNCTIONS.iter().map(|f| f.name.to_string()).collect();
    assert_eq!(
        names(&defs["call"]["properties"]["call"]["enum"]),
        functions
    );
    let checks: Vec<String> = FUNCTIONS
        .iter()
        .filter(|f| f.is_check)
        .map(|f| f.name.to_string())
        .collect();
    assert_eq!(names(&defs["check"]["properties"]["call"]["enum"]), checks);
    let branches = defs["action"]["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), ACTIONS.len());
    for ((name, required, optional), branch) in ACTIONS.iter().zip(branches) {
        assert_eq!(branch["properties"]["action"]["const"], *name);
        let mut fields: Vec<String> = branch["properties"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "action")
            .cloned()
            .collect();
        let mut expected: Vec<String> = required
            .iter()
            .chain(optional.iter())
            .map(|s| s.to_string())
            .collect();
        fields.sort();
        expected.sort();
        assert_eq!(fields, expected, "{name}");
        let mut want = vec!["action".to_string()];
        want.extend(required.iter().map(|s| s.to_string()));
        assert_eq!(names(&branch["required"]), want, "{name}");
    }
    assert_eq!(
        defs["id"]["pattern"], "^[a-z][a-z0-9-]{0,40}$",
        "the id rule of SPEC.md section 1"
    );
    assert_eq!(schema["properties"]["components"]["maxItems"], 200);
}

/// SPEC.md section 2: an extension adds its rules to a schema's other
/// keywords, which apply too: `maxItems` bounds a list of checks or of
/// actions, `items` reaches each check, a bindable literal keeps its
/// `maxLength`. The validator and the catalog's JSON Schema agree on each.
#[test]
fn keywords_apply_alongside_the_extensions() {
    let catalog = load(&json!({
        "catalog": "ext@1",
        "components": {"Form": {"children": "none", "props": {"type": "object", "properties": {
            "checks": {"x-checks": true, "maxItems": 3,
                       "items": {"properties": {"message": {"maxLength": 20}}}},
            "onSubmit": {"x-action": true, "maxItems": 2},
            "label": {"type": "string", "maxLength": 5, "x-bindable": true}
        }}, "example": {}}}
    }));
    let schema = compile(&surface_schema(&catalog));
    let check =
        json!({"call": "required", "args": {"value": {"path": "/e"}}, "message": "Required"});
    let action = json!({"action": "toggle", "path": "/open"});
    let cases = [
        (json!({"checks": vec![check.clone(); 3]}), true),
        (json!({"checks": vec![check.clone(); 100]}), false),
        (json!({"checks": vec![check.clone(); 4]}), false),
        (
            json!({"checks": [{"call": "required", "args": {"value": 1}, "message": "a message longer than twenty"}]}),
            false,
        ),
        (json!({"checks": "required"}), false),
        (json!({"onSubmit": action.clone()}), true),
        (json!({"onSubmit": vec![action.clone(); 2]}), true),
        (json!({"onSubmit": vec![action.clone(); 3]}), false),
        (json!({"onSubmit": {"action": "launch"}}), false),
        (json!({"label": "Hi"}), true),
        (json!({"label": {"path": "/label"}}), true),
        (json!({"label": "too long"}), false),
    ];
    for (props, valid) in cases {
        let doc = json!({"components": [{"id": "root", "component": "Form", "props": props}]});
        let issues = validate_surface(&doc, &catalog);
        let refused = issues
            .iter()
            .any(|i| matches!(i.severity, Severity::Error | Severity::Flag));
        assert_eq!(!refused, valid, "validator on {props}: {issues:?}");
        assert_eq!(schema.is_valid(&doc), valid, "JSON Schema on {props}");
    }
}
