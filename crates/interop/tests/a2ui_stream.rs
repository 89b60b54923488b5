//! `A2uiImport`: A2UI agent streams (A2UI's own v0.9 and v1.0 examples)
//! driving a `Draft`, in any chunking, end in `from_a2ui`'s surface of the
//! whole; each message gives only the operations it needs, and a push
//! followed in place gives what converting the whole gives
//! (`testkit::properties::a2ui_import`, also a fuzz target).

use interop::a2ui::A2uiImport;
use interop::from_a2ui;
use serde_json::{json, Value};
use std::path::Path;
use testkit::properties::a2ui_import_followed;
use testkit::seeds::a2ui_stream;
use testkit::Rng;
use validator_wasm::patch::apply_patch;
use validator_wasm::pipeline::Draft;
use validator_wasm::{validate_surface, Catalog, Severity};

/// A2UI's basic-catalog examples of both versions: each a list of messages.
fn examples() -> Vec<(String, Vec<Value>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let dirs = [
        "a2ui-v0.9/specification/v0_9/catalogs/basic/examples",
        "a2ui-v1/specification/v1_0/catalogs/basic/examples",
    ];
    let mut out = Vec::new();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let list = match value {
                Value::Array(list) => list,
                other => other["messages"].as_array().cloned().unwrap_or_default(),
            };
            out.push((
                file.file_name().unwrap().to_string_lossy().into_owned(),
                list,
            ));
        }
    }
    assert!(out.len() >= 20, "the vendored examples are there");
    out
}

fn json_lines(messages: &[Value]) -> String {
    messages.iter().map(|m| m.to_string() + "\n").collect()
}

/// The operations of feeding `text` `chunk` bytes at a time, push by push.
fn pushes(text: &str, chunk: usize) -> Vec<Vec<Value>> {
    let mut import = A2uiImport::new(None, "");
    let mut out: Vec<Vec<Value>> = text
        .as_bytes()
        .chunks(chunk)
        .map(|c| import.push_bytes(c))
        .collect();
    out.push(import.finish());
    out
}

#[test]
fn an_agent_stream_drives_a_draft_to_the_surface_of_the_whole() {
    let catalog = Catalog::default_blog();
    let mut driven = 0;
    for (name, messages) in examples() {
        let text = json_lines(&messages);
        let whole = from_a2ui(&text);
        let Some(expected) = whole.surfaces.first() else {
            continue;
        };
        let valid = validate_surface(expected, &catalog)
            .iter()
            .all(|i| i.severity != Severity::Error);
        // The draft repairs what the pipeline repairs (a required prop
        // filled from the catalog's example): as it repairs the whole.
        let mut reference = Draft::new(json!({}));
        reference.apply(
            &json!([{"op": "replace", "path": "", "value": expected}]),
            &catalog,
        );
        for chunk in [text.len().max(1), 1, 7, 64] {
            let mut draft = Draft::new(json!({}));
            let mut plain = json!({});
            for ops in pushes(&text, chunk) {
                let ops = Value::Array(ops);
                plain = apply_patch(&plain, &ops).unwrap_or_else(|e| panic!("{name}: {e:?}"));
                let report = draft.apply(&ops, &catalog);
                if valid {
                    assert!(
                        report.refused.is_empty(),
                        "{name} (chunk {chunk}): {:?}",
                        report.refused
                    );
                }
            }
            assert_eq!(
                &plain, expected,
                "{name} (chunk {chunk}): the operations build the whole's surface"
            );
            if valid {
                assert!(draft.settle(&catalog).is_empty(), "{name}");
                assert_eq!(
                    draft.document(),
                    reference.document(),
                    "{name} (chunk {chunk}): the draft"
                );
            }
        }
        driven += usize::from(valid);
    }
    assert!(
        driven >= 10,
        "most examples convert to valid surfaces ({driven})"
    );
}

#[test]
fn json_lines_whose_strings_hold_a_tag_are_json_lines_in_any_chunking() {
    let text = concat!(
        r#"{"version": "v1.0", "createSurface": {"surfaceId": "s", "components": ["#,
        r#"{"id": "root", "component": "Text", "text": "Answers come in <a2ui-json> blocks"}]}}"#,
        "\n"
    );
    let whole = from_a2ui(text);
    let surface = whole.surfaces.first().expect("read as JSON Lines");
    assert_eq!(
        surface["components"][0]["props"]["text"],
        "Answers come in <a2ui-json> blocks"
    );
    for chunk in [text.len(), 1, 9] {
        let mut doc = json!({});
        for ops in pushes(text, chunk) {
            doc = apply_patch(&doc, &Value::Array(ops)).unwrap();
        }
        assert_eq!(&doc, surface, "chunk {chunk}");
    }
}

#[test]
fn an_answer_with_blocks_is_read_as_each_block_closes() {
    let messages = &examples()[0].1;
    let (first, rest) = messages.split_at(1);
    let answer = format!(
        "Here it is:\n<a2ui-json>{}</a2ui-json>\nand the rest\n<a2ui-json>{}</a2ui-json>\nDone.",
        Value::Array(first.to_vec()),
        Value::Array(rest.to_vec())
    );
    let whole = from_a2ui(&answer);
    for chunk in [answer.len(), 1, 5, 33] {
        let mut doc = json!({});
        for ops in pushes(&answer, chunk) {
            doc = apply_patch(&doc, &Value::Array(ops)).unwrap();
        }
        assert_eq!(Some(&doc), whole.surfaces.first(), "chunk {chunk}");
    }
    // A block gives its operations when its closing tag arrives.
    let close = answer.rfind("</a2ui-json>").unwrap();
    let mut import = A2uiImport::new(None, "");
    assert!(import.push_text(&answer[..close]).is_empty());
    assert!(!import.push_text(&answer[close..]).is_empty());
}

#[test]
fn each_message_gives_only_the_operations_it_needs() {
    let v = "v1.0";
    let mut import = A2uiImport::new(None, "/sections/0");
    let create = json!({"version": v, "createSurface": {"surfaceId": "s"}});
    assert!(
        import.push_value(&create).is_empty(),
        "no root yet: nothing to show"
    );
    let tree = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["a"]},
        {"id": "a", "component": "Text", "text": "one"}]}});
    let ops = import.push_value(&tree);
    assert_eq!(ops.len(), 1);
    assert_eq!(
        (&ops[0]["op"], &ops[0]["path"]),
        (&json!("replace"), &json!("/sections/0"))
    );
    // A prop changes: that component alone.
    let text = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "a", "component": "Text", "text": "two"}]}});
    assert_eq!(
        import.push_value(&text),
        [json!({"op": "replace", "path": "/sections/0/components/1",
            "value": {"id": "a", "component": "Text", "props": {"text": "two"}}})]
    );
    // Data: the member that changed, an added one, a removed one.
    let data = |path: &str, value: Value| json!({"version": v, "updateDataModel": {"surfaceId": "s", "path": path, "value": value}});
    assert_eq!(
        import.push_value(&data("/user", json!({"name": "Ada", "age": 36}))),
        [
            json!({"op": "add", "path": "/sections/0/data/user", "value": {"name": "Ada", "age": 36}})
        ]
    );
    assert_eq!(
        import.push_value(&data("/user/age", json!(37))),
        [json!({"op": "replace", "path": "/sections/0/data/user/age", "value": 37})]
    );
    assert_eq!(
        import.push_value(&data("/user/name", Value::Null)),
        [json!({"op": "remove", "path": "/sections/0/data/user/name"})]
    );
    // A new child: the component, then its id in the parent's children
    // (a Draft holds the first until the second links it).
    let grow = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["a", "b"]},
        {"id": "b", "component": "Divider"}]}});
    assert_eq!(
        import.push_value(&grow),
        [
            json!({"op": "add", "path": "/sections/0/components/2", "value": {"id": "b", "component": "Divider"}}),
            json!({"op": "add", "path": "/sections/0/components/0/children/1", "value": "b"}),
        ]
    );
    // A child named before it is defined: the same two, when it arrives.
    let named = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["c", "a", "b"]}]}});
    assert!(import.push_value(&named).is_empty(), "c is not there yet");
    let c = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "c", "component": "Text", "text": "zero"}]}});
    assert_eq!(
        import.push_value(&c),
        [
            json!({"op": "add", "path": "/sections/0/components/1",
                "value": {"id": "c", "component": "Text", "props": {"text": "zero"}}}),
            json!({"op": "add", "path": "/sections/0/components/0/children/0", "value": "c"}),
        ]
    );
    // A child dropped changes the tree: the components as one list, so no
    // operation leaves a child undefined or a component unreachable.
    let shrink = json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["a", "b"]}]}});
    let ops = import.push_value(&shrink);
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0]["path"], "/sections/0/components");
    assert_eq!(ops[0]["value"].as_array().map(Vec::len), Some(3));
    // Another surface's messages change nothing here.
    let other = json!({"version": v, "createSurface": {"surfaceId": "t", "components": [
        {"id": "root", "component": "Text", "text": "elsewhere"}]}});
    assert!(import.push_value(&other).is_empty());
}

#[test]
fn a_named_surface_is_followed_and_bad_messages_are_noted() {
    let mut import = A2uiImport::new(Some("second"), "");
    let text = concat!(
        r#"{"version": "v1.0", "createSurface": {"surfaceId": "first", "components": [{"id": "root", "component": "Text", "text": "1"}]}}"#,
        "\n{\"version\": \"v1.0\", \"createSurface\": }\n",
        r#"{"version": "v7", "createSurface": {"surfaceId": "second"}}"#,
        "\n",
        r#"{"version": "v1.0", "createSurface": {"surfaceId": "second", "components": [{"id": "root", "component": "Text", "text": "2"}]}}"#,
        "\n",
        r#"{"version": "v1.0", "updateComponents": {"surfaceId": "second", "components": [{"id": "root", "component": "Column", "children": ["root"]}]}}"#,
        "\n",
    );
    let mut ops = import.push_text(text);
    ops.extend(import.finish());
    assert_eq!(ops.len(), 1, "{ops:?}");
    assert_eq!(ops[0]["value"]["id"], "second");
    assert_eq!(ops[0]["value"]["components"][0]["props"]["text"], "2");
    let codes: Vec<(&str, String)> = import
        .notes()
        .iter()
        .map(|n| (n.code, n.path.clone()))
        .collect();
    let notes = import.notes();
    assert!(codes.iter().any(|(c, _)| *c == "not_a2ui"), "{notes:?}");
    assert!(
        codes
            .iter()
            .any(|(c, p)| *c == "unknown_version" && p.starts_with("/1")),
        "{notes:?}"
    );
    assert!(
        codes
            .iter()
            .any(|(c, p)| *c == "cycle" && p.starts_with("/3")),
        "{notes:?}"
    );
    assert_eq!(import.surface().map(|s| &s["id"]), Some(&json!("second")));
}

#[test]
fn random_chunkings_end_in_the_surface_of_the_whole() {
    // A small xorshift, seeded per example: the same cuts on every run.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (name, messages) in examples() {
        let text = json_lines(&messages);
        let whole = from_a2ui(&text);
        for round in 0..8 {
            let mut import = A2uiImport::new(None, "");
            let mut doc = json!({});
            let mut at = 0;
            while at < text.len() {
                let size = 1 + (next() % 97) as usize;
                let end = (at + size).min(text.len());
                let ops = import.push_bytes(&text.as_bytes()[at..end]);
                doc = apply_patch(&doc, &Value::Array(ops)).unwrap();
                at = end;
            }
            doc = apply_patch(&doc, &Value::Array(import.finish())).unwrap();
            match whole.surfaces.first() {
                Some(surface) => assert_eq!(&doc, surface, "{name} (round {round})"),
                None => assert_eq!(doc, json!({}), "{name}"),
            }
            assert_eq!(import.notes(), whole.notes, "{name} (round {round})");
        }
    }
}

#[test]
fn a_stream_followed_in_place_is_the_whole_conversion_after_every_message() {
    let (mut pushes, mut in_place) = (0, 0);
    for seed in 0..300 {
        let text = json_lines(&a2ui_stream(&mut Rng::new(seed)));
        let (changed, followed) = a2ui_import_followed(text.as_bytes());
        (pushes, in_place) = (pushes + changed, in_place + followed);
    }
    // Most changes are followed in place, not by replacing the list.
    assert!(in_place * 2 > pushes, "{in_place} of {pushes} in place");
}

#[test]
fn a_stream_past_the_component_limit_ends_in_the_surface_of_the_whole() {
    // A root naming 1,040 Texts, each defined in its own message (a few
    // late, so that they take places the limit gave others), with data
    // written between them: the converter keeps the first 1,000 in
    // document order, and the operations say so after every message.
    let n = 1040;
    let v = "v0.9";
    let ids: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let mut messages = vec![
        json!({"version": v, "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ids}]}}),
    ];
    let text = |id: &String| {
        json!({"version": v, "updateComponents": {"surfaceId": "s", "components": [
            {"id": id, "component": "Text", "text": {"path": "/n"}}]}})
    };
    let late = ["t3", "t500", "t998", "t999", "t1020"];
    for (i, id) in ids.iter().enumerate() {
        if !late.contains(&id.as_str()) {
            messages.push(text(id));
        }
        if i % 100 == 0 {
            messages.push(json!({"version": v, "updateDataModel": {"surfaceId": "s", "path": "/n", "value": i}}));
        }
    }
    messages.extend(late.iter().map(|id| text(&id.to_string())));
    let mut import = A2uiImport::new(None, "");
    let mut doc = json!({});
    for (i, message) in messages.iter().enumerate() {
        doc = apply_patch(&doc, &Value::Array(import.push_value(message))).unwrap();
        // Checked from where the limit is near, and at the end.
        if i == 0 || i + 2 * late.len() < 995 && i % 97 != 0 {
            continue;
        }
        let whole = from_a2ui(&json_lines(&messages[..=i]));
        assert_eq!(doc, whole.surfaces[0], "after message {i}");
        assert_eq!(import.notes(), whole.notes, "notes after message {i}");
    }
    let components = doc["components"].as_array().unwrap();
    assert_eq!(components.len(), 1000);
    assert_eq!(
        components[4]["id"], "t3",
        "a late definition takes its place"
    );
}

#[test]
fn a_deleted_surface_is_noted_and_another_is_not_followed_in_its_place() {
    // The first surface is the one followed: once deleted, the import says
    // so and gives no operation turning the draft into the next surface.
    let v = "v1.0";
    let text = |id: &str, words: &str| {
        json!({"version": v, "createSurface": {"surfaceId": id, "catalogId": "x",
        "components": [{"id": "root", "component": "Text", "text": words}]}})
    };
    let mut import = A2uiImport::new(None, "");
    assert_eq!(import.push_value(&text("a", "first")).len(), 1);
    assert_eq!(import.push_value(&text("b", "second")), Vec::<Value>::new());
    let gone = import.push_value(&json!({"version": v, "deleteSurface": {"surfaceId": "a"}}));
    assert_eq!(gone, Vec::<Value>::new());
    assert_eq!(
        import.surface(),
        None,
        "as from_a2ui of the same messages has none"
    );
    let notes: Vec<_> = import
        .notes()
        .iter()
        .map(|n| (n.code, n.path.clone()))
        .collect();
    assert!(
        notes.contains(&("surface_deleted", "/2".to_string())),
        "{notes:?}"
    );
    assert_eq!(
        import.push_value(
            &json!({"version": v, "updateDataModel": {"surfaceId": "b", "path": "/n", "value": 1}})
        ),
        Vec::<Value>::new()
    );
    // Created again under its id: followed anew, from one whole replace.
    let again = import.push_value(&text("a", "again"));
    assert_eq!(again[0]["op"], "replace");
    assert_eq!(again[0]["value"]["components"][0]["props"]["text"], "again");
}

/// A data path of thousands of segments (one short message) built a
/// value nested as deep, whose drop overflowed the stack and left the
/// shared module dead: a write that would nest past what a JSON reader
/// reads back is noted `too_deep` and left out, at the limit and far past
/// it, by the whole conversion and the importer alike; one level less is
/// written, and the surface it leaves still has a text.
#[test]
fn a_data_write_past_the_json_nesting_limit_is_noted_too_deep_and_left_out() {
    let path = |segments: usize| "/a".repeat(segments);
    let messages = |segments: usize| {
        vec![
            json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
            json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "hi"}]}}),
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": path(segments), "value": 1}}),
            json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/b", "value": 2}}),
        ]
    };
    // The surface is level 1, its data 2: 126 segments nest 127 levels.
    for (segments, kept) in [(126, true), (127, false), (5_000, false), (100_000, false)] {
        let list = messages(segments);
        let whole = from_a2ui(&json_lines(&list));
        let surface = &whole.surfaces[0];
        assert_eq!(
            surface["data"]["b"],
            json!(2),
            "{segments}: the next message applied"
        );
        assert_eq!(surface["data"].get("a").is_some(), kept, "{segments}");
        let deep: Vec<_> = whole
            .notes
            .iter()
            .filter(|n| n.code == "too_deep")
            .collect();
        assert_eq!(
            deep.len(),
            usize::from(!kept),
            "{segments}: {:?}",
            whole.notes
        );
        if let Some(note) = deep.first() {
            assert_eq!(note.path, "/2/updateDataModel/path");
        }
        // What was written has a text that reads back.
        let text = surfaces_core::json::text(surface);
        assert_eq!(&surfaces_core::json::parse(&text).unwrap(), surface);
        let mut import = A2uiImport::new(None, "");
        import.push_text(&json_lines(&list));
        import.finish();
        assert_eq!(import.surface(), Some(surface), "{segments}");
        assert_eq!(
            import
                .notes()
                .iter()
                .filter(|n| n.code == "too_deep")
                .count(),
            deep.len()
        );
    }
    // A value deep enough to pass the limit where it is written.
    let mut value = json!(1);
    for _ in 0..121 {
        value = json!([value]);
    }
    let mut list = messages(1);
    list[2]["updateDataModel"]["path"] = json!("/x/y/z/w/v/u");
    list[2]["updateDataModel"]["value"] = value;
    let whole = from_a2ui(&json_lines(&list));
    assert!(whole.surfaces[0]["data"].get("x").is_none());
    assert!(
        whole.notes.iter().any(|n| n.code == "too_deep"),
        "{:?}",
        whole.notes
    );
}

/// What the importer's surface is for `text` pushed as `parts`, after finish.
fn imported(parts: &[&str]) -> Option<Value> {
    let mut import = A2uiImport::new(None, "");
    for part in parts {
        import.push_text(part);
    }
    import.finish();
    import.surface().cloned()
}

#[test]
fn the_importer_reads_as_the_whole_reads_blocks_split_in_a_character_wrappers_and_an_unclosed_last_block(
) {
    let messages = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "Café ☕"}]}}),
    ];
    let body = Value::Array(messages.to_vec()).to_string();
    let texts = [
        // A block whose closing tag comes in the next push, the push
        // before it ending less than a tag's length after an é.
        format!("<a2ui-json>{body}\n    </a2ui-json>\nThanks!"),
        format!("Here: <a2ui-json>{body}</a2ui-json> and <a2ui-json>[]</a2ui-json>"),
        // A2UI's list wrapper (its examples' files) as text.
        json!({"messages": messages}).to_string(),
        format!("{}\n", json!({"messages": messages})),
        // The text ends inside a block: read as the whole reads it.
        format!("Here:\n<a2ui-json>{body}"),
    ];
    for text in &texts {
        let whole = from_a2ui(text).surfaces.first().cloned();
        assert!(whole.is_some(), "{text}");
        for (split, _) in text.char_indices() {
            let (a, b) = text.split_at(split);
            assert_eq!(imported(&[a, b]), whole, "{text} split at {split}");
        }
        assert_eq!(imported(&[text]), whole, "{text}");
    }
}

#[test]
fn a_list_item_removed_becomes_null_and_the_list_keeps_its_length() {
    // A2UI v0.9: "for arrays, the value at the index is set to undefined,
    // preserving length" (@a2ui/web_core's DataModel does so), so the next
    // write by position lands on the item the agent means.
    let messages = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "hi"}]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items/0"}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items/2/name", "value": "C2"}}),
    ];
    let text = json_lines(&messages);
    let whole = from_a2ui(&text).surfaces[0].clone();
    assert_eq!(
        whole["data"]["items"],
        json!([null, {"name": "B"}, {"name": "C2"}])
    );
    for chunk in [1, 7, text.len()] {
        assert_eq!(
            imported(
                &text
                    .as_bytes()
                    .chunks(chunk)
                    .map(|c| std::str::from_utf8(c).unwrap())
                    .collect::<Vec<_>>()
            ),
            Some(whole.clone()),
            "{chunk}"
        );
    }
}

#[test]
fn messages_pushed_as_values_then_finish_say_nothing_more() {
    let messages = [
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "hi"}]}}),
    ];
    let mut import = A2uiImport::new(None, "");
    import.push_value(&Value::Array(messages.to_vec()));
    import.finish();
    assert_eq!(import.notes(), from_a2ui(&json_lines(&messages)).notes);
    assert!(import.notes().is_empty(), "{:?}", import.notes());
    // Nothing pushed at all: as the whole of no text, "no A2UI message found".
    let mut empty = A2uiImport::new(None, "");
    empty.finish();
    assert_eq!(empty.notes(), from_a2ui("").notes);
    assert_eq!(empty.notes()[0].code, "not_a2ui");
}
