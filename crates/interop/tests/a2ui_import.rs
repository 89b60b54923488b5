//! `from_a2ui`: A2UI's own basic-catalog examples (v0.9 and v1.0, vendored
//! under `tests/conformance/`) convert to surfaces the validator accepts,
//! and bad input is refused message by message with its code and pointer.

use interop::{from_a2ui, from_a2ui_value, to_a2ui, FromA2ui, Version};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use validator_wasm::{validate_surface, Catalog};

fn examples(relative: &str) -> Vec<(PathBuf, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(relative);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let read = |p: &PathBuf| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    files.iter().map(|p| (p.clone(), read(p))).collect()
}

/// Every surface of every example has no validation error, nor has it
/// after a trip to A2UI (either version) and back.
fn assert_examples_convert(relative: &str, expected: usize) {
    let catalog = Catalog::default_blog();
    let all = examples(relative);
    assert_eq!(all.len(), expected, "{relative}");
    for (file, example) in all {
        let FromA2ui { surfaces, notes } = from_a2ui_value(&example);
        assert!(!surfaces.is_empty(), "{}: no surface", file.display());
        for note in &notes {
            assert!(
                ![
                    "not_a2ui",
                    "unknown_version",
                    "invalid_message",
                    "cycle",
                    "unsafe_path",
                    "unknown_surface"
                ]
                .contains(&note.code),
                "{}: {note:?}",
                file.display()
            );
            assert!(
                example.pointer(&note.path).is_some(),
                "{}: {note:?} points nowhere",
                file.display()
            );
        }
        for surface in &surfaces {
            let errors: Vec<_> = validate_surface(surface, &catalog)
                .into_iter()
                .filter(|i| i.is_error())
                .collect();
            assert!(
                errors.is_empty(),
                "{}: {errors:?}\n{surface:#}",
                file.display()
            );
            // And back to A2UI and here again, still without errors.
            for version in [Version::V09, Version::V10] {
                let messages = Value::Array(to_a2ui(surface, version).messages);
                let again = from_a2ui_value(&messages);
                assert_eq!(
                    again.surfaces.len(),
                    1,
                    "{}: {:?}",
                    file.display(),
                    again.notes
                );
                let issues = validate_surface(&again.surfaces[0], &catalog);
                assert!(
                    issues.iter().all(|i| !i.is_error()),
                    "{}: {issues:?}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn every_v0_9_basic_example_converts_without_errors() {
    assert_examples_convert("a2ui-v0.9/specification/v0_9/catalogs/basic/examples", 36);
}

#[test]
fn every_v1_0_basic_example_converts_without_errors() {
    assert_examples_convert("a2ui-v1/specification/v1_0/catalogs/basic/examples", 10);
}

const BASIC_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

fn create(version: &str, surface: &str) -> Value {
    json!({"version": version, "createSurface": {"surfaceId": surface, "catalogId": BASIC_V09}})
}

fn update(surface: &str, components: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": surface, "components": components}})
}

fn data(surface: &str, path: &str, value: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": surface, "path": path, "value": value}})
}

fn text(id: &str, text: &str) -> Value {
    json!({"id": id, "component": "Text", "text": text})
}

fn codes(result: &FromA2ui) -> Vec<(&str, &str)> {
    result
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect()
}

/// Each bad message is refused with its code and pointer; the messages
/// around it still apply, and nothing of it does.
#[test]
fn bad_messages_are_refused_whole_and_the_rest_still_read() {
    let messages = json!([
        {"hello": "world"},
        {"version": "v0.8", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V09}},
        create("v0.9", "s"),
        create("v0.9", "s"),
        update("s", json!([text("root", "Hello")])),
        update("s", json!([
            {"id": "root", "component": "Column", "children": ["a"]},
            {"id": "a", "component": "Column", "children": ["root"]}
        ])),
        data("s", "/__proto__/polluted", json!(true)),
        data("s", "/user", json!({"name": "Ada", "constructor": {"x": 1}})),
        data("nowhere", "/x", json!(1)),
        {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"component": "Text"}]}},
        data("s", "/greeting", json!("hi")),
    ]);
    let result = from_a2ui_value(&messages);
    assert_eq!(
        codes(&result),
        [
            ("not_a2ui", "/0"),
            ("unknown_version", "/1/version"),
            ("duplicate_surface", "/3/createSurface/surfaceId"),
            ("cycle", "/5/updateComponents/components/0"),
            ("unsafe_path", "/6/updateDataModel/path"),
            ("unsafe_path", "/7/updateDataModel/value/constructor"),
            ("unknown_surface", "/8/updateDataModel/surfaceId"),
            ("invalid_message", "/9/updateComponents/components/0"),
        ]
    );
    // The root of message 4 stands (message 5 was refused whole); the data
    // holds only the last update.
    assert_eq!(
        result.surfaces,
        [json!({
            "id": "s", "kind": "surface", "catalog": "blog@1",
            "components": [{"id": "root", "component": "Text", "props": {"text": "Hello"}}],
            "data": {"greeting": "hi"}
        })]
    );
}

/// Later components replace earlier ones, data updates write at their path
/// (a missing value removes), and deleteSurface removes the surface.
#[test]
fn messages_apply_in_order() {
    let messages = json!([
        create("v0.9", "gone"),
        create("v0.9", "s"),
        update("s", json!([{"id": "root", "component": "Column", "children": ["t"]}, text("t", "first")])),
        update("s", json!([text("t", "second")])),
        data("s", "/", json!({"a": {"b": 1}, "c": 2})),
        data("s", "/a/d", json!(3)),
        {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/c"}},
        {"version": "v0.9", "deleteSurface": {"surfaceId": "gone"}},
    ]);
    let result = from_a2ui_value(&messages);
    assert_eq!(result.notes, []);
    assert_eq!(result.surfaces.len(), 1);
    assert_eq!(
        result.surfaces[0]["components"][1]["props"]["text"],
        "second"
    );
    assert_eq!(result.surfaces[0]["data"], json!({"a": {"b": 1, "d": 3}}));
}

/// The three forms of text read alike: a JSON list, JSON Lines, and an
/// answer with `<a2ui-json>` blocks.
#[test]
fn a_list_json_lines_and_tagged_blocks_read_alike() {
    let list = [
        create("v0.9", "s"),
        update("s", json!([text("root", "Hi")])),
    ];
    let array = serde_json::to_string(&list).unwrap();
    let lines = list
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    let tagged = [
        "Here you go: <a2ui-json>",
        &serde_json::to_string(&list[..1]).unwrap(),
        "</a2ui-json> and <a2ui-json>",
        &serde_json::to_string(&list[1..]).unwrap(),
        "</a2ui-json>",
    ]
    .concat();
    let whole = from_a2ui(&array);
    assert_eq!(whole.notes, []);
    assert_eq!(whole.surfaces.len(), 1);
    assert_eq!(from_a2ui(&lines), whole);
    assert_eq!(from_a2ui(&tagged), whole);
    let nothing = from_a2ui("no messages here");
    assert_eq!(codes(&nothing), [("not_a2ui", "")]);
}

/// v1.0: components and data inside createSurface, `null` deleting a key,
/// and markdown heading text as Heading.
#[test]
fn v1_0_creates_surfaces_with_their_components_and_data() {
    let messages = json!([
        {"version": "v1.0", "createSurface": {
            "surfaceId": "card", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "components": [
                {"id": "root", "component": "Column", "children": ["title", "name"]},
                {"id": "title", "component": "Text", "text": "### Profile"},
                {"id": "name", "component": "Text", "text": {"path": "/name"}}
            ],
            "dataModel": {"name": "Ada", "draft": true}}},
        {"version": "v1.0", "updateDataModel": {"surfaceId": "card", "path": "/draft", "value": null}},
        {"version": "v1.0", "updateDataModel": {"surfaceId": "card", "path": "/x"}},
    ]);
    let result = from_a2ui_value(&messages);
    assert_eq!(codes(&result), [("invalid_message", "/2/updateDataModel")]);
    let surface = &result.surfaces[0];
    assert_eq!(
        surface["components"][1],
        json!({"id": "title", "component": "Heading", "props": {"level": 3, "text": "Profile"}})
    );
    assert_eq!(
        surface["components"][2]["props"]["text"],
        json!({"path": "/name"})
    );
    assert_eq!(surface["data"], json!({"name": "Ada"}));
}

/// The mapping of SPEC.md section 14, component by component.
#[test]
fn components_map_to_ours() {
    let options = |n: usize| -> Value {
        (0..n)
            .map(|i| json!({"label": format!("L{i}"), "value": format!("v{i}")}))
            .collect()
    };
    let messages = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([
                {"id": "root", "component": "Column", "children": ["Head_1", "row", "go", "link", "bad", "few", "many", "tabs", "note"]},
                {"id": "Head_1", "component": "Text", "text": "Title", "variant": "h1"},
                {"id": "row", "component": "Row", "children": [], "justify": "spaceBetween"},
                {"id": "go-label", "component": "Text", "text": "Go"},
                {"id": "go", "component": "Button", "child": "go-label", "variant": "primary",
                 "action": {"event": {"name": "set", "context": {"path": "/plan", "value": "b"}}}},
                {"id": "link-label", "component": "Text", "text": "Docs"},
                {"id": "link", "component": "Button", "child": "link-label",
                 "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com"}}}},
                {"id": "bad-label", "component": "Text", "text": "Bad"},
                {"id": "bad", "component": "Button", "child": "bad-label",
                 "action": {"functionCall": {"call": "openUrl", "args": {"url": "javascript:alert(1)"}}}},
                {"id": "few", "component": "ChoicePicker", "label": "Plan", "options": options(3), "value": {"path": "/plan"}},
                {"id": "many", "component": "ChoicePicker", "label": "Size", "options": options(9), "value": ["v2"]},
                {"id": "tabs", "component": "Tabs", "tabs": [{"title": "One", "child": "t1"}]},
                {"id": "t1", "component": "Text", "text": "First tab"},
                {"id": "note", "component": "Text", "text": {"call": "formatString", "args": {"value": "Hi ${/name}!"}}, "variant": "caption"}
            ])
        ),
    ]);
    let result = from_a2ui_value(&messages);
    let components = result.surfaces[0]["components"].as_array().unwrap();
    let by_id = |id: &str| {
        components
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        by_id("head-1"),
        json!({"id": "head-1", "component": "Heading", "props": {"level": 1, "text": "Title"}})
    );
    assert_eq!(by_id("row")["props"], json!({"justify": "between"}));
    assert_eq!(
        by_id("go")["props"],
        json!({"label": "Go", "variant": "primary", "onClick": {"action": "set", "path": "/plan", "value": "b"}})
    );
    assert_eq!(by_id("link")["props"]["href"], "https://example.com");
    assert_eq!(by_id("bad")["props"].get("href"), None);
    assert_eq!(by_id("few")["component"], "Toggle");
    assert_eq!(by_id("few")["props"]["options"], json!(["v0", "v1", "v2"]));
    assert_eq!(by_id("many")["component"], "Select");
    assert_eq!(by_id("many")["props"]["value"], "v2");
    assert_eq!(by_id("tabs")["children"], json!(["tabs-tab-0"]));
    assert_eq!(
        by_id("tabs-tab-0"),
        json!({"id": "tabs-tab-0", "component": "TabPanel", "props": {"label": "One"}, "children": ["t1"]})
    );
    assert_eq!(
        by_id("note")["props"],
        json!({"text": {"call": "concat", "args": {"values": ["Hi ", {"path": "/name"}, "!"]}}, "tone": "small"})
    );
    // The Text children of Buttons are their labels, not components.
    assert_eq!(by_id("go-label"), Value::Null);
    let found = codes(&result);
    assert!(
        found.contains(&("renamed_id", "/1/updateComponents/components/1/id")),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            "unsafe_href",
            "/1/updateComponents/components/8/action/functionCall/args/url"
        )),
        "{found:?}"
    );
    // What a ChoicePicker loses is said: its options' labels (an option
    // shows its value), and that a bound value holds a list there, one
    // string here.
    for (code, path) in [
        ("prop_dropped", "/1/updateComponents/components/9/options"),
        ("value_shape", "/1/updateComponents/components/9/value"),
        ("prop_dropped", "/1/updateComponents/components/10/options"),
    ] {
        assert!(found.contains(&(code, path)), "{code} {path}: {found:?}");
    }
    assert!(
        !found.contains(&("value_shape", "/1/updateComponents/components/10/value")),
        "a literal selection is converted: {found:?}"
    );
    let catalog = Catalog::default_blog();
    let issues = validate_surface(&result.surfaces[0], &catalog);
    assert!(issues.iter().all(|i| !i.is_error()), "{issues:?}");
}

/// Nested templates multiply: 100 rows of 100 cells stop at 1,000
/// components, noted, instead of growing with the product.
#[test]
fn template_copies_stop_at_a_thousand_components() {
    let rows: Vec<Value> = (0..100)
        .map(|_| json!({"cells": vec![json!({"t": "x"}); 100]}))
        .collect();
    let messages = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([
                {"id": "root", "component": "Column", "children": {"componentId": "row", "path": "/rows"}},
                {"id": "row", "component": "Row", "children": {"componentId": "cell", "path": "cells"}},
                {"id": "cell", "component": "Text", "text": {"path": "t"}}
            ])
        ),
        data("s", "/rows", Value::Array(rows)),
    ]);
    let result = from_a2ui_value(&messages);
    let components = result.surfaces[0]["components"].as_array().unwrap();
    assert_eq!(components.len(), 1000);
    assert_eq!(
        components[2],
        json!({"id": "cell-0-0", "component": "Text", "props": {"text": {"path": "/rows/0/cells/0/t"}}})
    );
    let capped = result
        .notes
        .iter()
        .filter(|n| n.code == "too_many_components")
        .count();
    assert_eq!(capped, 1);
}

/// Any prefix of an example's text reads without a panic, and the
/// surfaces it gives are deterministic.
#[test]
fn every_prefix_of_an_example_reads() {
    let all = examples("a2ui-v1/specification/v1_0/catalogs/basic/examples");
    for (file, example) in all.iter().take(4) {
        let text = serde_json::to_string(&example["messages"]).unwrap();
        let cuts = (0..text.len())
            .step_by(7)
            .filter(|&i| text.is_char_boundary(i));
        for cut in cuts {
            let prefix = &text[..cut];
            let once = from_a2ui(prefix);
            assert_eq!(from_a2ui(prefix), once, "{} at {cut}", file.display());
        }
    }
}

/// A Modal is a Disclosure whose summary is its trigger's label; the
/// trigger's own event is noted.
#[test]
fn a_modal_becomes_a_disclosure() {
    let all = examples("a2ui-v0.9/specification/v0_9/catalogs/basic/examples");
    let (_, modal) = all
        .iter()
        .find(|(f, _)| f.ends_with("36_modal.json"))
        .unwrap();
    let result = from_a2ui_value(modal);
    let components = result.surfaces[0]["components"].as_array().unwrap();
    assert_eq!(
        components[2],
        json!({"id": "modal-comp", "component": "Disclosure", "props": {"summary": "Open Modal"}, "children": ["modal-content"]})
    );
    assert_eq!(
        codes(&result),
        [
            // The surface's own setting, which a surface document has no place for.
            ("prop_dropped", "/messages/0/createSurface/sendDataModel"),
            (
                "event_dropped",
                "/messages/1/updateComponents/components/4/action"
            )
        ]
    );
}

#[test]
fn a_surface_s_settings_without_an_equivalent_are_noted() {
    let text = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic", "theme": {"primaryColor": "#00f"}, "sendDataModel": true}}),
        json!({"version": "v1.0", "createSurface": {"surfaceId": "t", "sendDataModel": false, "metadata": {"extensions": {}}}}),
    ]
    .map(|m| m.to_string() + "\n")
    .concat();
    let result = interop::from_a2ui(&text);
    assert_eq!(
        codes(&result),
        [
            ("prop_dropped", "/0/createSurface/theme"),
            ("prop_dropped", "/0/createSurface/sendDataModel"),
            ("prop_dropped", "/1/createSurface/sendDataModel"),
            ("prop_dropped", "/1/createSurface/metadata"),
        ]
    );
}

#[test]
fn a_required_prop_the_conversion_cannot_give_is_null_never_an_example() {
    // An A2UI Button whose child is an Icon has no label here: the label is
    // null (flagged, as a missing one is), so a Draft fed the operations
    // does not fill it from the catalog's example (fill_required).
    let messages = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([
                {"id": "root", "component": "Column", "children": ["play"]},
                {"id": "play-icon", "component": "Icon", "name": "play"},
                {"id": "play", "component": "Button", "child": "play-icon", "variant": "primary", "action": {"event": {"name": "play"}}}
            ])
        ),
    ]);
    let result = from_a2ui_value(&messages);
    let play = &result.surfaces[0]["components"][1];
    assert_eq!(play["props"]["label"], Value::Null, "{play}");
    let mut draft = validator_wasm::pipeline::Draft::new(json!({}));
    let catalog = Catalog::default_blog();
    let op = json!([{"op": "replace", "path": "", "value": result.surfaces[0]}]);
    let report = draft.apply(&op, &catalog);
    assert!(
        report.repairs.iter().all(|r| r.code != "fill_required"),
        "{:?}",
        report.repairs
    );
    let flags = validate_surface(draft.document(), &catalog);
    assert!(
        flags.iter().any(|i| i.path == "/components/1/props/label"),
        "{flags:?}"
    );
}

/// SPEC.md section 14, never silent: a surface of another catalog than
/// A2UI's basic one keeps its components' names and props (the validator
/// flags what blog@1 does not know), and says so once, at its catalogId,
/// whole or streamed; so does a component naming another catalog itself;
/// a basic catalog, or none (v1.0), says nothing.
#[test]
fn a_surface_of_another_catalog_is_noted_once() {
    let other = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "https://example.com/catalog.json"}},
        update("s", json!([{"id": "root", "component": "Gauge", "value": 3}]))
    ]);
    let whole = from_a2ui_value(&other);
    assert_eq!(
        codes(&whole),
        [("other_catalog", "/0/createSurface/catalogId")]
    );
    assert_eq!(whole.surfaces[0]["components"][0]["component"], "Gauge");
    let mut import = interop::a2ui::A2uiImport::new(None, "");
    for message in other.as_array().unwrap() {
        import.push_value(message);
    }
    let streamed: Vec<_> = import
        .notes()
        .iter()
        .map(|n| (n.code, n.path.clone()))
        .collect();
    assert_eq!(
        streamed,
        [("other_catalog", "/0/createSurface/catalogId".to_string())]
    );
    // A component naming another catalog in a basic surface: noted at it.
    let mixed = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([{"id": "root", "component": "Column", "children": ["g"]},
            {"id": "g", "component": "Gauge", "catalogId": "https://example.com/catalog.json"}])
        )
    ]);
    assert_eq!(
        codes(&from_a2ui_value(&mixed)),
        [(
            "other_catalog",
            "/1/updateComponents/components/1/catalogId"
        )]
    );
    let v1 = |envelope: &str, body: Value| json!({"version": "v1.0", envelope: body});
    for basic in [
        json!([
            create("v0.9", "s"),
            update("s", json!([text("root", "hi")]))
        ]),
        json!([
            v1("createSurface", json!({"surfaceId": "s"})),
            v1(
                "updateComponents",
                json!({"surfaceId": "s", "components": [text("root", "hi")]})
            )
        ]),
    ] {
        assert_eq!(codes(&from_a2ui_value(&basic)), []);
    }
}

/// A2UI's Text renders simple markdown: a literal of several lines (A2UI's
/// own example 35) becomes our Markdown, whole, not a Heading holding the
/// body; one line starting with `#` is a Heading; a caption of several
/// lines stays a caption; and Markdown comes back from a round trip.
#[test]
fn a_text_of_several_lines_is_markdown_one_line_of_hashes_a_heading() {
    let body = "# Heading 1\n\nThis is **bold**.\n\n- one\n- two";
    let messages = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([
                {"id": "root", "component": "Column", "children": ["md", "head", "small"]},
                text("md", body),
                text("head", "## Plans"),
                {"id": "small", "component": "Text", "text": "a\nb", "variant": "caption"}
            ])
        ),
    ]);
    let result = from_a2ui_value(&messages);
    assert_eq!(codes(&result), []);
    let components = &result.surfaces[0]["components"];
    assert_eq!(
        components[1],
        json!({"id": "md", "component": "Markdown", "props": {"source": body}})
    );
    assert_eq!(
        components[2],
        json!({"id": "head", "component": "Heading", "props": {"level": 2, "text": "Plans"}})
    );
    assert_eq!(components[3]["component"], "Text");
    let surface = &result.surfaces[0];
    let issues = validate_surface(surface, &Catalog::default_blog());
    assert!(issues.iter().all(|i| !i.is_error()), "{issues:?}");
    let back = to_a2ui(surface, Version::V09);
    let again = from_a2ui_value(&Value::Array(back.messages));
    assert_eq!(again.surfaces[0]["components"][1], components[1]);
}

/// A template's copies of another catalog's component read their own
/// item: its bindings are made absolute as a basic component's are (its
/// calls are its catalog's, kept as they are).
#[test]
fn template_copies_of_another_catalog_s_component_bind_their_own_item() {
    let messages = json!([
        create("v0.9", "s"),
        update(
            "s",
            json!([
                {"id": "root", "component": "List", "children": {"componentId": "card", "path": "/products"}},
                {"id": "card", "component": "ProductCard", "catalogId": "https://acme.example/catalog.json",
                 "title": {"path": "name"}, "price": {"call": "acmePrice", "args": {"value": {"path": "price"}}}, "tags": ["new"]}
            ])
        ),
        data(
            "s",
            "/products",
            json!([{"name": "A", "price": 1}, {"name": "B", "price": 2}])
        ),
    ]);
    let result = from_a2ui_value(&messages);
    let components = result.surfaces[0]["components"].as_array().unwrap();
    let cards: Vec<&Value> = components
        .iter()
        .filter(|c| c["component"] == "ProductCard")
        .collect();
    assert_eq!(cards.len(), 2);
    for (i, card) in cards.iter().enumerate() {
        assert_eq!(
            card["props"]["title"],
            json!({"path": format!("/products/{i}/name")}),
            "{card}"
        );
        assert_eq!(
            card["props"]["price"]["args"]["value"],
            json!({"path": format!("/products/{i}/price")})
        );
        assert_eq!(card["props"]["tags"], json!(["new"]));
    }
}
