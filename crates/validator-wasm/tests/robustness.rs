//! Bad input never panics: random documents, operations, catalogs and
//! bodies; deep nesting; huge documents.

use serde_json::{json, Map, Value};
use surfaces_core::function::{evaluate, PlainHost};
use testkit::Rng;
use validator_wasm::markdown::validate_markdown;
use validator_wasm::patch::apply_patch;
use validator_wasm::pipeline::patch;
use validator_wasm::{parse_document, validate_surface, validate_surface_text, Catalog};

const KEYS: [&str; 40] = [
    "id",
    "component",
    "props",
    "children",
    "visible",
    "path",
    "call",
    "args",
    "value",
    "values",
    "action",
    "href",
    "eq",
    "ne",
    "gt",
    "lt",
    "and",
    "or",
    "not",
    "$source",
    "query",
    "collection",
    "limit",
    "sort",
    "data",
    "components",
    "text",
    "level",
    "message",
    "checks",
    "onClick",
    "root",
    "sections",
    "kind",
    "op",
    "from",
    "items",
    "plans",
    "style",
    "min",
];
const STRINGS: [&str; 28] = [
    "root",
    "a",
    "Heading",
    "Stack",
    "Button",
    "Tabs",
    "TabPanel",
    "surface",
    "/a",
    "/__proto__",
    "~2",
    "",
    "javascript:x",
    "/components/0",
    "/components/root/children/-",
    "-",
    "concat",
    "formatDate",
    "email",
    "set",
    "toggle",
    "navigate",
    "\u{0}",
    "\u{fffd}\u{1F642}",
    "#x",
    "add",
    "remove",
    "move",
];

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let choice = if depth > 6 {
        rng.below(5)
    } else {
        rng.below(8)
    };
    match choice {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => [
            json!(0.5),
            json!(-1),
            json!(3),
            json!(1e300),
            json!(9_007_199_254_740_993_i64),
            json!(0),
        ][rng.below(6)]
        .clone(),
        3 | 4 => Value::String(rng.pick(&STRINGS).to_string()),
        5 => Value::Array(
            (0..rng.below(5))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(5) {
                map.insert(rng.pick(&KEYS).to_string(), random_value(rng, depth + 1));
            }
            Value::Object(map)
        }
    }
}

fn random_surface(rng: &mut Rng) -> Value {
    let components: Vec<Value> = (0..rng.below(6))
        .map(|_| {
            let mut c = random_value(rng, 2);
            if let (Some(map), true) = (c.as_object_mut(), rng.below(3) > 0) {
                map.insert("id".into(), rng.pick(&["root", "a", "b", "Bad"]).into());
                map.insert(
                    "component".into(),
                    rng.pick(&["Stack", "Heading", "Button", "Tabs", "Nope"])
                        .into(),
                );
            }
            c
        })
        .collect();
    json!({"id": "s", "kind": "surface", "components": components, "data": random_value(rng, 3)})
}

#[test]
fn random_input_never_panics() {
    let catalog = Catalog::default_blog();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let doc = if rng.below(2) == 0 {
            random_surface(&mut rng)
        } else {
            random_value(&mut rng, 0)
        };
        let _ = validate_surface(&doc, &catalog);
        let ops: Vec<Value> = (0..rng.below(4))
            .map(|_| {
                json!({"op": rng.pick(&["add", "remove", "replace", "move", "copy", "test", "x"]),
                       "path": rng.pick(&["/components/-", "/components/0", "/components/root/props", "", "/data/a", "/sections/0", "/components/a/children/-"]),
                       "from": rng.pick(&["/components/0", "/data", "/x"]),
                       "value": random_value(&mut rng, 2)})
            })
            .collect();
        let ops = Value::Array(ops);
        let _ = patch(&doc, &ops, &catalog);
        let page = json!({"sections": [doc.clone()]});
        let _ = patch(&page, &ops, &catalog);
        let _ = apply_patch(&doc, &ops);
        let _ = Catalog::from_value(
            &json!({"catalog": "r@1", "components": {"A": {"props": random_value(&mut rng, 1)}}}),
        );
        let _ = surfaces_core::condition::evaluate(&&random_value(&mut rng, 0), &&doc);
        let _ = evaluate(&&random_value(&mut rng, 0), &&doc, &PlainHost);
        let mut body = String::new();
        for _ in 0..rng.below(8) {
            body.push_str(rng.pick(&[
                "```surface {\"id\":\"a\"}",
                "~~~",
                "```",
                "text",
                "",
                "    ```surface {}",
                "{\"data\":{\"a\":null}}",
            ]));
            body.push('\n');
            body.push_str(&random_value(&mut rng, 1).to_string());
            body.push('\n');
        }
        let _ = validate_markdown(&body, &catalog);
    }
}

#[test]
fn deep_nesting_is_a_clear_error() {
    let catalog = Catalog::default_blog();
    for text in [
        "[".repeat(100_000),
        "{\"a\":".repeat(100_000),
        format!("{{\"data\":{}", "[".repeat(100_000)),
    ] {
        let issues = validate_surface_text(&text, &catalog);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "invalid_json");
    }
    let issues =
        validate_surface_text(&format!("{}{}", "[".repeat(200), "]".repeat(200)), &catalog);
    assert!(
        issues[0].message.contains("128 levels"),
        "{}",
        issues[0].message
    );
    // The limit's edge, as docs/reference.md gives it: 127 levels read, the
    // 128th is refused.
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let codes = |n| {
        validate_surface_text(&nested(n), &catalog)
            .iter()
            .map(|i| i.code)
            .collect::<Vec<_>>()
    };
    assert!(!codes(127).contains(&"invalid_json"));
    assert_eq!(codes(128), ["invalid_json"]);
    let body = format!(
        "```surface {{\"id\":\"a\"}}\n{}\n```\n",
        "[".repeat(100_000)
    );
    let codes: Vec<_> = validate_markdown(&body, &catalog)
        .iter()
        .map(|i| i.code)
        .collect();
    assert_eq!(codes, ["no_root", "invalid_line"]);
}

#[test]
fn huge_documents_are_refused_by_a_limit() {
    let catalog = Catalog::default_blog();
    let huge = format!(
        "{{\"data\":{{\"blob\":\"{}\"}}}}",
        "x".repeat(10 * 1024 * 1024)
    );
    let issues = validate_surface_text(&huge, &catalog);
    assert_eq!(issues[0].code, "document_too_large");
    assert!(parse_document(&huge).is_err());
    assert_eq!(
        validate_markdown(&huge, &catalog)[0].code,
        "document_too_large"
    );
}

#[test]
fn nul_and_replacement_characters_are_plain_text() {
    let catalog = Catalog::default_blog();
    // Lone surrogates from JS arrive as U+FFFD; NUL is an ordinary character.
    let doc = json!({"components": [
        {"id": "root", "component": "Stack", "children": ["t"]},
        {"id": "t", "component": "Heading", "props": {"text": "a\u{0}b\u{fffd}"}}
    ], "data": {"\u{0}": "\u{fffd}"}});
    assert!(validate_surface(&doc, &catalog).is_empty());
    let bad = json!({"components": [{"id": "root\u{0}", "component": "Stack"}]});
    let codes: Vec<_> = validate_surface(&bad, &catalog)
        .iter()
        .map(|i| i.code)
        .collect();
    assert_eq!(codes, ["no_root", "invalid_id"]);
}

#[test]
fn large_documents_are_checked_in_linear_time() {
    let catalog = Catalog::default_blog();
    // A 40,000-component chain: cycle and depth checks must not be quadratic.
    let n = 40_000;
    let mut components = vec![json!({"id": "root", "component": "Stack", "children": ["c1"]})];
    for i in 1..n {
        components.push(json!({"id": format!("c{i}"), "component": "Stack", "children": [format!("c{}", i + 1)]}));
    }
    components.push(json!({"id": format!("c{n}"), "component": "Stack", "children": ["c1"]}));
    let issues = validate_surface(&json!({"components": components}), &catalog);
    assert_eq!(
        issues
            .iter()
            .filter(|i| i.code == "too_many_components")
            .count(),
        1
    );
    assert_eq!(
        issues
            .iter()
            .filter(|i| i.code == "multiple_parents")
            .count(),
        1
    );
    assert_eq!(
        issues.iter().filter(|i| i.code == "too_deep").count(),
        n - 7
    );
    // 20,000 $source values: one issue each, in data order.
    let mut data = Map::new();
    for i in 0..20_000 {
        data.insert(
            format!("k{i}"),
            json!({"$source": "nope", "query": {"collection": "p"}}),
        );
    }
    let doc = json!({"components": [{"id": "root", "component": "Stack"}], "data": data});
    let issues = validate_surface(&doc, &catalog);
    assert_eq!(
        issues.iter().filter(|i| i.code == "unknown_source").count(),
        20_000
    );
    assert_eq!(issues[1].path, "/data/k0/$source");
    assert_eq!(issues[20_000].path, "/data/k19999/$source");
}

/// SPEC.md section 1: every cycle is reported, also through a component
/// with two parents, each once, at the `children` entry that closes it, in
/// document order; over long chains and malformed children lists alike,
/// without recursion.
#[test]
fn every_cycle_is_reported_once_also_through_two_parents() {
    let catalog = Catalog::default_blog();
    let cycles = |doc: &Value| -> Vec<String> {
        validate_surface(doc, &catalog)
            .into_iter()
            .filter(|i| i.code == "cycle")
            .map(|i| i.path)
            .collect()
    };
    // A 40,000-component chain whose last component names the first again:
    // c1 has two parents (root and the last), and the cycle is reported.
    let n = 40_000;
    let mut components = vec![json!({"id": "root", "component": "Stack", "children": ["c1"]})];
    for i in 1..n {
        components.push(json!({"id": format!("c{i}"), "component": "Stack", "children": [format!("c{}", i + 1)]}));
    }
    components.push(json!({"id": format!("c{n}"), "component": "Stack", "children": ["c1"]}));
    assert_eq!(
        cycles(&json!({"components": components})),
        [format!("/components/{n}/children/0")]
    );
    // 150 two-component cycles under root, each closed by its second
    // component, whose child already has root as parent; malformed entries
    // (numbers, null, objects, unknown ids, a children object) in between.
    let mut components = vec![json!({"id": "root", "component": "Stack", "children": []})];
    let mut expected = Vec::new();
    for k in 0..150 {
        components[0]["children"]
            .as_array_mut()
            .unwrap()
            .push(json!(format!("a{k}")));
        components.push(json!({"id": format!("a{k}"), "component": "Card",
            "children": [1, null, {"id": "x"}, "nope", format!("b{k}")]}));
        let at = components.len();
        components.push(json!({"id": format!("b{k}"), "component": "Card",
            "children": ["nope", format!("a{k}")]}));
        expected.push(format!("/components/{at}/children/1"));
        components.push(json!({"id": format!("z{k}"), "component": "Card", "children": {"a": 1}}));
    }
    // Root is its own child, and a duplicate id is no second node.
    components.push(json!({"id": "root", "component": "Card", "children": ["root"]}));
    components[0]["children"]
        .as_array_mut()
        .unwrap()
        .push(json!("root"));
    expected.insert(0, "/components/0/children/150".to_string());
    assert_eq!(cycles(&json!({"components": components})), expected);
}

/// A `copy` of an array into itself doubles it: 40 such operations would ask
/// for 2^40 values (a fuzz finding, fuzz/regressions/apply_patch/). One
/// patch, or one `Draft::apply`, may copy at most 2 MiB; past it the copy is
/// refused with `document_too_large` and nothing of the patch is applied.
#[test]
fn copies_that_double_a_value_stop_at_the_copy_budget() {
    use validator_wasm::pipeline::Draft;
    let doc = json!({"a": ["0123456789abcdef"]});
    let doubling: Vec<Value> = (0..40)
        .map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"}))
        .collect();
    let e = apply_patch(&doc, &Value::Array(doubling.clone())).unwrap_err();
    assert_eq!((e.code, e.path.as_str()), ("document_too_large", "/a/-"));
    assert!((15..20).contains(&e.op), "refused at operation {}", e.op);
    // Below the budget, copies apply as before.
    let few = Value::Array(doubling[..4].to_vec());
    let out = apply_patch(&doc, &few).unwrap();
    assert_eq!(out["a"].as_array().unwrap().len(), 5); // each copy appends the array so far
                                                       // The pipeline: a page's other sections pass through validation, so the
                                                       // budget is what bounds them.
    let page = json!({"sections": [{"id": "notes", "kind": "notes", "a": ["0123456789abcdef"]}]});
    let mut draft = Draft::new(page.clone());
    let ops: Vec<Value> = (0..40)
        .map(|_| json!({"op": "copy", "from": "/sections/0/a", "path": "/sections/0/a/-"}))
        .collect();
    let report = draft.apply(&Value::Array(ops), &Catalog::default_blog());
    assert!(
        report.applied.len() < 20,
        "{} applied",
        report.applied.len()
    );
    assert!(report
        .refused
        .iter()
        .all(|r| r.issues[0].code == "document_too_large"));
    assert!(draft.document().to_string().len() < 4 * 1024 * 1024);
}
