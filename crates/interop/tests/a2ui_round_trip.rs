//! `to_a2ui`: a surface to A2UI messages and back keeps every component
//! with a basic-catalog equivalent, with its id, children, bindings and
//! data, over the validator's fixture surfaces; the export rules of SPEC.md
//! section 14 (flattening, events, openUrl).

mod common;

use common::{fixture_surfaces, kept};
use interop::{from_a2ui_value, to_a2ui, Version};
use serde_json::{json, Value};

/// Ours with a basic-catalog equivalent (the layouts become Column or Row,
/// Markdown and Badge Text, Link a Button).
const EQUIVALENT: [&str; 20] = [
    "Stack",
    "Row",
    "Grid",
    "Columns",
    "Band",
    "Card",
    "Heading",
    "Text",
    "Markdown",
    "Badge",
    "Button",
    "Link",
    "Tabs",
    "TabPanel",
    "Toggle",
    "Select",
    "Slider",
    "Divider",
    "TextField",
    "Checkbox",
];

/// Ours written as a Column of Text (or a Column holding the children):
/// the id stays, so a parent keeps it as a child.
const FLATTENED: [&str; 8] = [
    "Stat",
    "Quote",
    "List",
    "Disclosure",
    "AccordionItem",
    "Accordion",
    "Carousel",
    "Form",
];

#[test]
fn a_round_trip_keeps_components_with_an_equivalent() {
    let surfaces = fixture_surfaces();
    assert!(surfaces.len() >= 40, "{} fixture surfaces", surfaces.len());
    let mut compared = 0;
    for version in [Version::V10, Version::V09] {
        for (name, surface) in &surfaces {
            let exported = to_a2ui(surface, version);
            let back = from_a2ui_value(&Value::Array(exported.messages.clone()));
            assert_eq!(
                back.surfaces.len(),
                1,
                "{name} ({version:?}): {:?}",
                back.notes
            );
            let again = &back.surfaces[0];
            let data = surface.get("data").cloned().unwrap_or(json!({}));
            assert_eq!(again["data"], data, "{name} ({version:?})");
            let components = again["components"].as_array().unwrap();
            for (i, component) in surface["components"].as_array().unwrap().iter().enumerate() {
                let name_of = component["component"].as_str().unwrap_or_default();
                if !EQUIVALENT.contains(&name_of) {
                    continue;
                }
                let id = &component["id"];
                let Some(twin) = components.iter().find(|c| &c["id"] == id) else {
                    panic!(
                        "{name} ({version:?}): {id} lost\n{:#}\n{:?}",
                        exported.messages[1], back.notes
                    );
                };
                let (id, children, found) = kept(component);
                // Children with no equivalent (Image, Spacer...) are left out.
                let written = |child: &&Value| {
                    let all = surface["components"].as_array().unwrap();
                    let named = all.iter().find(|c| &&c["id"] == child);
                    let name = named
                        .and_then(|c| c["component"].as_str())
                        .unwrap_or_default();
                    EQUIVALENT.contains(&name) || FLATTENED.contains(&name) || name == "TextArea"
                };
                let children: Value = children
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(written)
                    .cloned()
                    .collect();
                let (twin_id, twin_children, twin_found) = kept(twin);
                assert_eq!(
                    (twin_id, twin_children),
                    (id, children),
                    "{name} ({version:?})"
                );
                // A binding inside what A2UI cannot hold (a call nested in
                // concat) goes with it, noted.
                let at = format!("/components/{i}/");
                if !exported.notes.iter().any(|n| n.path.starts_with(&at)) {
                    assert_eq!(twin_found, found, "{name} ({version:?})");
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared} components compared");
}

#[test]
fn export_flattens_ours_and_names_events_after_actions() {
    let surface = json!({
        "id": "s", "kind": "surface", "catalog": "blog@1",
        "components": [
            {"id": "root", "component": "Stack", "children": ["hits", "go", "docs", "more"]},
            {"id": "hits", "component": "Stat", "props": {"label": "Hits", "value": {"path": "/hits"}}},
            {"id": "go", "component": "Button", "props": {"label": "Go", "onClick": {"action": "toggle", "path": "/open"}}},
            {"id": "docs", "component": "Button", "props": {"label": "Docs", "href": "/docs"}},
            {"id": "more", "component": "Disclosure", "props": {"summary": "More"}, "children": ["body"]},
            {"id": "body", "component": "Text", "props": {"text": "Hidden", "tone": "small"}}
        ],
        "data": {"hits": 3, "open": false}
    });
    let out = to_a2ui(&surface, Version::V10);
    assert_eq!(out.notes, []);
    assert_eq!(out.messages[0]["version"], "v1.0");
    assert_eq!(
        out.messages[0]["createSurface"]["catalogId"],
        "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"
    );
    let components = out.messages[1]["updateComponents"]["components"]
        .as_array()
        .unwrap();
    let by_id = |id: &str| {
        components
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        by_id("hits"),
        json!({"id": "hits", "component": "Column", "children": ["hits-label", "hits-value"]})
    );
    assert_eq!(by_id("hits-value")["text"], json!({"path": "/hits"}));
    assert_eq!(
        by_id("go")["action"],
        json!({"event": {"name": "toggle", "context": {"path": "/open"}}})
    );
    assert_eq!(
        by_id("go-label"),
        json!({"id": "go-label", "component": "Text", "text": "Go"})
    );
    assert_eq!(
        by_id("docs")["action"],
        json!({"functionCall": {"call": "openUrl", "args": {"url": "/docs"}}})
    );
    assert_eq!(by_id("more")["children"], json!(["more-summary", "body"]));
    assert_eq!(by_id("body")["variant"], "caption");
    assert_eq!(
        out.messages[2]["updateDataModel"],
        json!({"surfaceId": "s", "path": "/", "value": {"hits": 3, "open": false}})
    );
    // v0.9 writes heading levels as variants, v1.0 as markdown.
    let heading = json!({"id": "s", "components": [{"id": "root", "component": "Heading", "props": {"level": 3, "text": "Hi"}}]});
    let v09 = to_a2ui(&heading, Version::V09);
    assert_eq!(
        v09.messages[1]["updateComponents"]["components"][0],
        json!({"id": "root", "component": "Text", "text": "Hi", "variant": "h3"})
    );
    let v10 = to_a2ui(&heading, Version::V10);
    assert_eq!(
        v10.messages[1]["updateComponents"]["components"][0]["text"],
        "### Hi"
    );
    assert_eq!(v10.messages.len(), 2);
}

#[test]
fn what_a2ui_cannot_hold_is_noted() {
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["pic"], "visible": {"path": "/show"}},
        {"id": "pic", "component": "Image", "props": {"src": "/a.png", "alt": "A"}}
    ]});
    let out = to_a2ui(&surface, Version::V10);
    let codes: Vec<_> = out
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert_eq!(
        codes,
        [
            ("prop_dropped", "/components/0/visible"),
            ("no_equivalent", "/components/1")
        ]
    );
    assert_eq!(
        out.messages[1]["updateComponents"]["components"],
        json!([{"id": "root", "component": "Column", "children": []}])
    );
}

/// Never silent (SPEC.md section 14): a surface's style, a TextArea's
/// rows, a Badge's tone and a Button's href beside its onClick (an A2UI
/// Button has one action) are noted, to A2UI; the style to json-render.
#[test]
fn props_and_surface_fields_an_export_leaves_out_are_noted() {
    let surface = json!({"id": "s", "style": {"width": "wide"}, "components": [
        {"id": "root", "component": "Stack", "children": ["ta", "b", "btn"]},
        {"id": "ta", "component": "TextArea", "props": {"label": "L", "value": {"path": "/m"}, "rows": 8}},
        {"id": "b", "component": "Badge", "props": {"text": "x", "tone": "danger"}},
        {"id": "btn", "component": "Button", "props": {"label": "Go", "href": "/docs", "onClick": {"action": "toggle", "path": "/f"}}}
    ], "data": {"m": "", "f": false}});
    for version in [Version::V09, Version::V10] {
        let out = to_a2ui(&surface, version);
        let mut noted: Vec<_> = out
            .notes
            .iter()
            .map(|n| (n.code, n.path.as_str()))
            .collect();
        noted.sort();
        assert_eq!(
            noted,
            [
                ("prop_dropped", "/components/1/props/rows"),
                ("prop_dropped", "/components/2/props/tone"),
                ("prop_dropped", "/components/3/props/href"),
                ("prop_dropped", "/style"),
            ],
            "{version:?}"
        );
    }
    let out = interop::json_render::to_json_render(&surface);
    let noted: Vec<_> = out
        .notes
        .iter()
        .map(|n| (n.code, n.path.as_str()))
        .collect();
    assert_eq!(noted, [("prop_dropped", "/style")]);
}

#[test]
fn an_unsafe_href_is_left_out_of_an_export_and_noted() {
    // The safe-href rule holds both ways: what import refuses, export does
    // not write (a surface with such an href has an error, but a script that
    // keeps the converted document must not publish the URL).
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["a", "b", "c"]},
        {"id": "a", "component": "Button", "props": {"label": "A", "href": "javascript:alert(1)"}},
        {"id": "b", "component": "Button", "props": {"label": "B", "onClick": {"action": "navigate", "href": "data:text/html,x"}}},
        {"id": "c", "component": "Button", "props": {"label": "C", "onClick": {"action": "share", "url": "javascript:alert(3)", "text": "hi"}}}
    ]});
    let unsafe_notes = |notes: &[interop::Note]| -> Vec<String> {
        let found = notes.iter().filter(|n| n.code == "unsafe_href");
        found.map(|n| n.path.clone()).collect()
    };
    let expected = [
        "/components/1/props/href",
        "/components/2/props/onClick/href",
        "/components/3/props/onClick/url",
    ];
    for version in [Version::V09, Version::V10] {
        let out = to_a2ui(&surface, version);
        let text = serde_json::to_string(&out.messages).unwrap();
        assert!(
            !text.contains("javascript:") && !text.contains("data:"),
            "{text}"
        );
        assert_eq!(unsafe_notes(&out.notes), expected);
    }
    let out = interop::json_render::to_json_render(&surface);
    let text = serde_json::to_string(&out.spec).unwrap();
    assert!(
        !text.contains("javascript:") && !text.contains("data:"),
        "{text}"
    );
    assert_eq!(unsafe_notes(&out.notes), expected);
}

#[test]
fn a_bound_choice_is_exported_with_a_note_on_its_shape() {
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["a", "b"]},
        {"id": "a", "component": "Toggle", "props": {"options": ["x", "y"], "value": {"path": "/pick"}}},
        {"id": "b", "component": "Toggle", "props": {"options": ["x", "y"], "value": "y"}}
    ]});
    let out = to_a2ui(&surface, Version::V10);
    let shapes: Vec<_> = out
        .notes
        .iter()
        .filter(|n| n.code == "value_shape")
        .map(|n| n.path.as_str())
        .collect();
    assert_eq!(
        shapes,
        ["/components/1/props/value"],
        "a literal value becomes a list of one"
    );
    let text = serde_json::to_string(&out.messages).unwrap();
    assert!(text.contains(r#""value":["y"]"#), "{text}");
}

#[test]
fn what_is_no_surface_exports_nothing_and_says_so() {
    let page = json!({"sections": [{"id": "s", "components": []}]});
    for (input, kind) in [
        (page, "a page"),
        (json!({"foo": 1}), "not a surface"),
        (json!(42), "not a surface"),
    ] {
        for notes in [
            to_a2ui(&input, Version::V10).notes,
            interop::json_render::to_json_render(&input).notes,
        ] {
            let found: Vec<_> = notes.iter().map(|n| (n.code, n.path.as_str())).collect();
            assert_eq!(found, [("not_a_surface", "")], "{input}");
            assert!(notes[0].message.starts_with(kind), "{}", notes[0].message);
        }
    }
}

#[test]
fn a_v1_heading_whose_text_is_a_call_is_noted() {
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Heading", "props": {"level": 2, "text": {"call": "formatCurrency", "args": {"value": 9, "currency": "EUR"}}}}
    ]});
    let notes = to_a2ui(&surface, Version::V10).notes;
    let found: Vec<_> = notes.iter().map(|n| (n.code, n.path.as_str())).collect();
    assert_eq!(found, [("prop_dropped", "/components/0/props/level")]);
    assert!(
        to_a2ui(&surface, Version::V09).notes.is_empty(),
        "v0.9 keeps it as a variant"
    );
}

#[test]
fn an_unsafe_link_is_left_out_of_an_import_and_noted() {
    // The same rule on the way in: a Link's href, a navigate's href, a
    // share's url, and a component of another catalog, kept as it is but
    // for that.
    let unsafe_notes = |notes: &[interop::Note]| -> Vec<String> {
        let found = notes.iter().filter(|n| n.code == "unsafe_href");
        found.map(|n| n.path.clone()).collect()
    };
    let spec = json!({"root": "main", "elements": {
        "main": {"type": "Stack", "props": {}, "children": ["l", "b", "s"]},
        "l": {"type": "Link", "props": {"text": "x", "href": "javascript:alert(1)"}},
        "b": {"type": "Button", "props": {"label": "Nav"}, "on": {"press": {"action": "navigate", "params": {"href": "javascript:alert(2)"}}}},
        "s": {"type": "Button", "props": {"label": "Share"}, "on": {"press": {"action": "share", "params": {"url": "javascript:alert(3)", "text": "hi"}}}}}});
    let out = interop::json_render::from_json_render(&spec);
    assert!(
        !out.surface.to_string().contains("javascript:"),
        "{}",
        out.surface
    );
    assert_eq!(
        unsafe_notes(&out.notes),
        [
            "/elements/l/props/href",
            "/elements/b/on/press/params/href",
            "/elements/s/on/press/params/url"
        ]
    );
    let messages = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["b", "l"]},
            {"id": "b", "component": "Button", "child": "bt", "action": {"event": {"name": "share", "context": {"url": "javascript:alert(1)", "text": "hi"}}}},
            {"id": "bt", "component": "Text", "text": "Share"},
            {"id": "l", "component": "Link", "catalogId": "mine", "href": "javascript:alert(2)", "text": "x"}]}}
    ]);
    let out = from_a2ui_value(&messages);
    let surface = &out.surfaces[0];
    assert!(!surface.to_string().contains("javascript:"), "{surface}");
    assert_eq!(surface["components"][1]["props"]["onClick"]["text"], "hi");
    assert_eq!(surface["components"][2]["props"]["text"], "x");
    assert_eq!(
        unsafe_notes(&out.notes),
        [
            "/1/updateComponents/components/1/action/event/context/url",
            "/1/updateComponents/components/3/href"
        ]
    );
}

#[test]
fn what_a_json_render_action_holds_beside_its_action_and_params_is_noted() {
    let spec = json!({"root": "main", "elements": {
        "main": {"type": "Button", "props": {"label": "Send"}, "on": {"press": {
            "action": "setState", "params": {"statePath": "/sent", "value": true, "extra": 1},
            "confirm": {"title": "Sure?", "message": "It sends."}, "onSuccess": {"set": {"/done": true}}, "preventDefault": true}}}}});
    let out = interop::json_render::from_json_render(&spec);
    assert_eq!(
        out.surface["components"][0]["props"]["onClick"],
        json!({"action": "set", "path": "/sent", "value": true})
    );
    let dropped: Vec<&str> = out
        .notes
        .iter()
        .filter(|n| n.code == "prop_dropped")
        .map(|n| n.path.as_str())
        .collect();
    assert_eq!(
        dropped,
        [
            "/elements/main/on/press/confirm",
            "/elements/main/on/press/onSuccess",
            "/elements/main/on/press/preventDefault",
            "/elements/main/on/press/params/extra"
        ]
    );
}

#[test]
fn a_component_nested_past_64_levels_is_noted_once_with_what_it_holds() {
    let mut components = Vec::new();
    for i in 0..70 {
        let id = if i == 0 {
            "root".to_string()
        } else {
            format!("s{i}")
        };
        let mut c = json!({"id": id, "component": "Stack"});
        if i < 69 {
            c["children"] = json!([format!("s{}", i + 1)]);
        }
        components.push(c);
    }
    let surface = json!({"id": "deep", "components": components});
    for version in [Version::V09, Version::V10] {
        let out = to_a2ui(&surface, version);
        let notes: Vec<(&str, &str)> = out
            .notes
            .iter()
            .map(|n| (n.code, n.path.as_str()))
            .collect();
        let deep: Vec<_> = notes.iter().filter(|(c, _)| *c == "too_deep").collect();
        assert_eq!(deep.len(), 1, "{notes:?}");
        assert!(
            !notes.iter().any(|(c, _)| *c == "not_reachable"),
            "{notes:?}"
        );
        // What was written stops where the note says.
        let written = serde_json::to_string(&out.messages).unwrap();
        let at: usize = deep[0].1.rsplit('/').next().unwrap().parse().unwrap();
        assert!(
            written.contains(&format!("\"s{}\"", at - 1))
                && !written.contains(&format!("\"s{at}\"")),
            "{at}"
        );
    }
}

#[test]
fn text_holding_a_dollar_brace_goes_out_as_it_is_where_a2ui_reads_it_as_text() {
    // A plain string is never interpolated in A2UI: a v1.0 Heading's
    // marked text keeps its ${ as it is (it was escaped, and the
    // backslash showed); a concat's backslash before a binding survives.
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["h", "t"]},
        {"id": "h", "component": "Heading", "props": {"level": 2, "text": "Cost ${5}"}},
        {"id": "t", "component": "Text", "props": {"text": {"call": "concat", "args": {"values": ["C:\\", {"path": "/dir"}]}}}}
    ], "data": {"dir": "tmp"}});
    for version in [Version::V09, Version::V10] {
        let out = to_a2ui(&surface, version);
        let written = serde_json::to_string(&out.messages).unwrap();
        assert!(!written.contains(r"\\${5}"), "{written}");
        let back = from_a2ui_value(&Value::Array(out.messages));
        let components = back.surfaces[0]["components"].as_array().unwrap();
        let by_id = |id: &str| components.iter().find(|c| c["id"] == id).unwrap().clone();
        assert_eq!(by_id("h")["props"]["text"], "Cost ${5}", "{version:?}");
        assert_eq!(
            by_id("t")["props"]["text"],
            surface["components"][2]["props"]["text"],
            "{version:?}"
        );
    }
}

#[test]
fn what_a2ui_s_functions_and_variants_cannot_say_is_noted() {
    let text = |value: Value| json!({"id": "t", "component": "Text", "props": {"text": value}});
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["t", "n", "h"]},
        // Our length is a number; A2UI's is a check that needs a bound.
        text(json!({"call": "length", "args": {"value": {"path": "/items"}}})),
        // A2UI's decimals fixes both bounds.
        {"id": "n", "component": "Text", "props": {"text": {"call": "formatNumber", "args": {"value": 2.5, "minimumFractionDigits": 0, "maximumFractionDigits": 2}}}},
        {"id": "h", "component": "Heading", "props": {"level": 6, "text": "Small"}}
    ], "data": {"items": [1, 2]}});
    let notes = |version| -> Vec<(&'static str, String)> {
        let out = to_a2ui(&surface, version);
        let written = serde_json::to_string(&out.messages).unwrap();
        assert!(!written.contains("\"length\""), "{written}");
        assert!(written.contains("\"decimals\":2"), "{written}");
        out.notes.into_iter().map(|n| (n.code, n.path)).collect()
    };
    let common = [
        (
            "unsupported_function",
            "/components/1/props/text/call".to_string(),
        ),
        (
            "arg_dropped",
            "/components/2/props/text/args/minimumFractionDigits".to_string(),
        ),
    ];
    assert_eq!(notes(Version::V10), common);
    let mut v09 = common.to_vec();
    v09.push(("prop_dropped", "/components/3/props/level".to_string()));
    assert_eq!(notes(Version::V09), v09);
    // Equal bounds are A2UI's decimals exactly: nothing to say.
    let mut same = surface.clone();
    same["components"][2]["props"]["text"]["args"]["minimumFractionDigits"] = json!(2);
    assert!(!to_a2ui(&same, Version::V10)
        .notes
        .iter()
        .any(|n| n.code == "arg_dropped"));
}

#[test]
fn a_text_starting_like_a_heading_marker_goes_out_escaped_and_comes_back_as_text() {
    // A2UI's Text reads markdown (and v1.0 marks headings with #): our
    // Text "# of items" is text, so it goes out as "\# of items".
    let surface = json!({"id": "s", "components": [
        {"id": "root", "component": "Stack", "children": ["t", "c"]},
        {"id": "t", "component": "Text", "props": {"text": "# of items"}},
        {"id": "c", "component": "Text", "props": {"text": {"call": "concat", "args": {"values": ["## left: ", {"path": "/n"}]}}}}
    ], "data": {"n": 2}});
    for version in [Version::V09, Version::V10] {
        let out = to_a2ui(&surface, version);
        let written = serde_json::to_string(&out.messages).unwrap();
        assert!(written.contains(r#""text":"\\# of items""#), "{written}");
        let back = from_a2ui_value(&Value::Array(out.messages));
        let components = back.surfaces[0]["components"].as_array().unwrap();
        let by_id = |id: &str| components.iter().find(|c| c["id"] == id).unwrap().clone();
        assert_eq!(by_id("t"), surface["components"][1], "{version:?}");
        assert_eq!(by_id("c"), surface["components"][2], "{version:?}");
    }
}
