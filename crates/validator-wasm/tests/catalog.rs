//! Catalog loading: the built-in blog@1 and refusals of bad catalogs.

use serde_json::json;
use validator_wasm::{validate_surface, Catalog, Children};

const PRIMITIVES: [&str; 30] = [
    "Stack",
    "Row",
    "Grid",
    "Columns",
    "Band",
    "Card",
    "Spacer",
    "Divider",
    "Heading",
    "Text",
    "Markdown",
    "Image",
    "Icon",
    "Button",
    "Link",
    "Badge",
    "Stat",
    "Quote",
    "List",
    "Table",
    "Chart",
    "Video",
    "Tabs",
    "Accordion",
    "Toggle",
    "Select",
    "Slider",
    "Counter",
    "Carousel",
    "Disclosure",
];

#[test]
fn blog_has_every_primitive_form_fields_and_registry_blocks() {
    let catalog = Catalog::default_blog();
    assert_eq!(catalog.name(), "blog@1");
    for name in PRIMITIVES.iter().chain(&[
        "Form",
        "TextField",
        "TextArea",
        "Checkbox",
        "callout",
        "faq",
        "testimonial",
        "pricing-table",
    ]) {
        assert!(catalog.entry(name).is_some(), "{name} missing");
    }
    assert_eq!(
        catalog.entry("Tabs").map(|e| e.children.clone()),
        Some(Children::Only(vec!["TabPanel".into()]))
    );
    assert_eq!(
        catalog.entry("Heading").map(|e| e.children.clone()),
        Some(Children::None)
    );
}

#[test]
fn every_blog_example_validates_inside_a_surface() {
    let catalog = Catalog::default_blog();
    for entry in catalog.entries() {
        assert!(
            entry.props.get("properties").is_some(),
            "{} has no props",
            entry.name
        );
        let doc = json!({"id": "s", "components": [
            {"id": "root", "component": "Stack", "children": ["it"]},
            {"id": "it", "component": entry.name, "props": entry.example}
        ], "data": {"billing": "monthly", "seats": 3, "email": "a@b.co", "message": "", "agree": false, "country": "France", "sent": false}});
        let issues = validate_surface(&doc, &catalog);
        assert!(issues.is_empty(), "{}: {issues:?}", entry.name);
    }
}

fn refusal(catalog: serde_json::Value) -> (&'static str, String, String) {
    let e = Catalog::from_value(&catalog).expect_err("refused");
    (e.code, e.path, e.message)
}

fn with_props(props: serde_json::Value) -> serde_json::Value {
    json!({"catalog": "t@1", "components": {"A": {"children": "none", "props": props, "example": {}}}})
}

#[test]
fn unknown_keywords_are_refused_by_name() {
    let (code, path, message) = refusal(with_props(
        json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "^a"}}}),
    ));
    assert_eq!(code, "unknown_keyword");
    assert_eq!(path, "/components/A/props/properties/x/pattern");
    assert!(message.contains("\"pattern\""), "{message}");
    let (code, path, _) = refusal(with_props(
        json!({"type": "object", "$defs": {"d": {"if": {}}}}),
    ));
    assert_eq!(
        (code, path.as_str()),
        ("unknown_keyword", "/components/A/props/$defs/d/if")
    );
    let (code, path, _) = refusal(with_props(
        json!({"type": "object", "anyOf": [{"not": {}}]}),
    ));
    assert_eq!(
        (code, path.as_str()),
        ("unknown_keyword", "/components/A/props/anyOf/0/not")
    );
}

#[test]
fn malformed_catalogs_are_refused_with_a_path() {
    let cases = [
        (json!([]), ""),
        (json!({"components": {}}), "/catalog"),
        (
            json!({"catalog": "x", "components": {}, "theme": 1}),
            "/theme",
        ),
        (
            json!({"catalog": "x", "icons": [1], "components": {}}),
            "/icons",
        ),
        (json!({"catalog": "x"}), "/components"),
        (
            json!({"catalog": "x", "components": {"A": 1}}),
            "/components/A",
        ),
        (
            json!({"catalog": "x", "components": {"A": {"render": "x"}}}),
            "/components/A/render",
        ),
        (
            json!({"catalog": "x", "components": {"A": {"children": "some"}}}),
            "/components/A/children",
        ),
        (
            json!({"catalog": "x", "components": {"A": {"children": ["B"]}}}),
            "/components/A/children",
        ),
        (
            json!({"catalog": "x", "components": {"A": {"description": 1}}}),
            "/components/A/description",
        ),
        (with_props(json!({"type": "string"})), "/components/A/props"),
        (
            with_props(json!({"type": "object", "properties": {"x": {"type": "text"}}})),
            "/components/A/props/properties/x/type",
        ),
        (
            with_props(json!({"type": "object", "properties": {"x": {"maxLength": -1}}})),
            "/components/A/props/properties/x/maxLength",
        ),
        (
            with_props(json!({"type": "object", "properties": {"x": {"format": "uri"}}})),
            "/components/A/props/properties/x/format",
        ),
        (
            with_props(json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/none"}}})),
            "/components/A/props/properties/x/$ref",
        ),
        (
            with_props(json!({"type": "object", "additionalProperties": "no"})),
            "/components/A/props/additionalProperties",
        ),
        (
            with_props(json!({"type": "object", "enum": []})),
            "/components/A/props/enum",
        ),
        (
            with_props(json!({"type": "object", "x-bindable": "yes"})),
            "/components/A/props/x-bindable",
        ),
        (
            with_props(json!({"type": "object", "required": ["a"]})),
            "/components/A/example",
        ),
        (
            with_props(json!({"type": "object", "properties": 3})),
            "/components/A/props/properties",
        ),
    ];
    for (catalog, at) in cases {
        let (code, path, _) = refusal(catalog.clone());
        assert_eq!((code, path.as_str()), ("invalid_catalog", at), "{catalog}");
    }
    assert!(Catalog::from_json("{").is_err());
}

#[test]
fn user_catalogs_load() {
    let catalog = Catalog::from_value(&json!({
        "catalog": "shop@2",
        "icons": ["cart"],
        "components": {
            "Shelf": {"children": ["Product"], "props": {"type": "object"}, "example": {}},
            "Product": {"children": "none", "props": {"type": "object",
                "properties": {"sku": {"type": "string", "minLength": 3}, "icon": {"type": "string", "format": "icon"},
                               "size": {"$ref": "#/$defs/size"}},
                "$defs": {"size": {"enum": ["s", "m"]}}, "required": ["sku"]},
                "example": {"sku": "abc", "icon": "cart", "size": "m"}}
        }
    }))
    .expect("loads");
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["Product", "Shelf"]);
    assert_eq!(catalog.icons(), ["cart"]);
}

/// `$defs` chained 20 deep (within the evaluation's depth bound), each an
/// `anyOf` (or `oneOf`) of three `$ref`s to the next: evaluated naively,
/// 3^20 (3.5 billion) branches. Each definition is checked once per value, so this answers at
/// once (SPEC.md section 2: time bounded by the sizes of catalog and value).
#[test]
fn ref_chains_through_any_of_cost_linear_time() {
    for combinator in ["anyOf", "oneOf"] {
        let mut defs = serde_json::Map::new();
        for i in 0..20 {
            let next = format!("#/$defs/d{}", i + 1);
            defs.insert(
                format!("d{i}"),
                json!({ combinator: [
                    {"$ref": next},
                    {"$ref": next, "minLength": 2},
                    {"$ref": next, "minLength": 3}
                ] }),
            );
        }
        defs.insert("d20".into(), json!({"type": "string", "maxLength": 3}));
        let catalog = Catalog::from_value(&json!({
            "catalog": "deep@1",
            "components": {"Deep": {
                "children": "none",
                "props": {"type": "object", "$defs": defs,
                          "properties": {"v": {"$ref": "#/$defs/d0"}}},
                "example": {"v": "a"}
            }}
        }))
        .expect("the catalog loads");
        let surface = |v: serde_json::Value| json!({"components": [{"id": "root", "component": "Deep", "props": {"v": v}}]});
        assert!(validate_surface(&surface(json!("b")), &catalog).is_empty());
        let issues = validate_surface(&surface(json!("too long")), &catalog);
        let codes: Vec<_> = issues.iter().map(|i| (i.code, i.path.as_str())).collect();
        assert_eq!(
            codes,
            [("invalid_prop", "/components/0/props/v")],
            "{combinator}"
        );
    }
}

#[test]
fn the_prompt_follows_a_chain_of_refs_as_the_validator_does() {
    let catalog = Catalog::from_value(&json!({
        "catalog": "chain@1",
        "components": {"Note": {
            "children": "none",
            "props": {
                "type": "object",
                "$defs": {"tone": {"$ref": "#/$defs/tones"}, "tones": {"enum": ["calm", "loud"]}},
                "properties": {"tone": {"$ref": "#/$defs/tone"}}
            },
            "example": {"tone": "calm"}
        }}
    }))
    .unwrap();
    let prompt = validator_wasm::prompt::catalog_prompt(&catalog);
    assert!(
        prompt.contains("\"calm\"") && prompt.contains("\"loud\""),
        "{prompt}"
    );
}
