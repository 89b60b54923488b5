use super::scan::balance;
use super::*;

/// The ids of the components the first message of `parts` emits, in order.
fn emitted_ids(parts: &[Part]) -> Vec<String> {
    parts[0].a2ui.as_ref().unwrap()[0]["updateComponents"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_cut_tag_is_held_back() {
    let mut s = A2uiStream::new(Version::V09);
    let parts = s.process_chunk("Talking <a2u").unwrap();
    assert_eq!(
        parts,
        [Part {
            text: Some("Talking ".into()),
            a2ui: None
        }]
    );
    assert!(s.process_chunk("i-json>").unwrap().is_empty());
}

#[test]
fn components_wait_for_root_and_cycles_are_errors() {
    let mut s = A2uiStream::new(Version::V09);
    s.process_chunk(
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
    )
    .unwrap();
    let parts = s
        .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text"}]}},"#)
        .unwrap();
    assert!(parts.is_empty());
    let parts = s
        .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"}]}},"#)
        .unwrap();
    let ids = emitted_ids(&parts);
    assert_eq!(ids, ["a", "root"]);
    let err = s
        .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Card","child":"root"}]}}"#)
        .unwrap_err();
    assert!(err.contains("Circular reference detected"));
}

#[test]
fn the_reader_keeps_parts_and_stops_at_an_error() {
    let mut r = A2uiReader::new();
    let text = "Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}, oops]</a2ui-json> more";
    let mut changes = Vec::new();
    for chunk in text.as_bytes().chunks(3) {
        changes.extend(r.push_bytes(chunk));
    }
    changes.extend(r.finish());
    let doc = r.document();
    assert_eq!(doc["parts"][0]["text"], "Hi ");
    assert!(doc["error"].as_str().unwrap().contains("Failed to parse"));
    assert_eq!(changes.last().unwrap()["error"], doc["error"]);
    assert!(r.push("more").is_empty(), "input after an error is ignored");
    let whole = {
        let mut r = A2uiReader::new();
        r.push("Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> bye");
        r.finish();
        r.document()
    };
    let mut r = A2uiReader::new();
    for chunk in "Hi <a2ui-json>[{\"version\":\"v0.9\",\"createSurface\":{\"catalogId\":\"c\",\"surfaceId\":\"s\"}}]</a2ui-json> bye".as_bytes().chunks(2) {
        r.push_bytes(chunk);
    }
    r.finish();
    assert_eq!(r.document(), whole, "the same parts for any chunking");
    assert_eq!(whole["parts"][1]["text"], " bye");
}

#[test]
fn a_message_naming_a_key_twice_is_refused_however_it_was_cut() {
    // Its readings showed the data of the first surface named; read whole,
    // serde_json would take the last (fuzz/regressions/a2ui/).
    let text = concat!(
        "<a2ui-json>[",
        r#"{"version":"v0.9","createSurface":{"surfaceId":"s1","catalogId":"c"}},"#,
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s1","value":{"a":1},"surfaceId":"s2"}}"#,
        "]</a2ui-json>"
    );
    let whole = document(&[text.as_bytes()]);
    assert_eq!(
        whole["error"],
        "Failed to parse JSON: a message names a key twice"
    );
    assert_eq!(whole["surfaces"]["s1"]["data"], json!({}));
    assert!(whole["surfaces"].get("s2").is_none());
    let bytes: Vec<&[u8]> = text.as_bytes().chunks(1).collect();
    assert_eq!(document(&bytes), whole);
    assert!(!crate::partial::repeats_a_key(
        r#"{"a":{"b":1},"c":{"b":2}}"#
    ));
    assert!(crate::partial::repeats_a_key(r#"[{"a":{"b":1,"b":2}}]"#));
    // A whole answer too.
    let error = parse_full(text).unwrap_err();
    assert!(error.ends_with("a message names a key twice"), "{error}");
}

#[test]
fn children_not_streamed_yet_show_placeholders_or_wait() {
    let start =
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#;
    let root = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"c1"}]}},"#;
    let mut s = A2uiStream::with_catalog_components(Version::V09, &json!({"Card": {}, "Row": {}}));
    s.process_chunk(start).unwrap();
    let parts = s.process_chunk(root).unwrap();
    let components = &parts[0].a2ui.as_ref().unwrap()[0]["updateComponents"]["components"];
    assert_eq!(components[0]["child"], "loading_c1");
    assert_eq!(
        components[1],
        json!({"id":"loading_c1","component":"Row","children":[]})
    );
    let mut s = A2uiStream::with_catalog_components(Version::V09, &json!({"Card": {}}));
    s.process_chunk(start).unwrap();
    assert!(
        s.process_chunk(root).unwrap().is_empty(),
        "no Row: the parent waits"
    );
}

#[test]
fn components_go_out_in_id_order_and_placeholders_last_once() {
    let mut s =
        A2uiStream::with_catalog_components(Version::V09, &json!({"Column": {}, "Row": {}}));
    s.process_chunk(
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
    )
    .unwrap();
    let parts = s
        .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["z","b"]},{"id":"z","component":"Row","children":["x"]},{"id":"b","component":"Row","children":["x"]}]}},"#)
        .unwrap();
    let ids = emitted_ids(&parts);
    assert_eq!(ids, ["b", "root", "z", "loading_x"]);
}

#[test]
fn a_long_message_is_read_again_only_as_it_grows() {
    // One updateComponents message: a root and its 1,000 children
    // (about 95 KB).
    let ids: Vec<String> = (0..1000)
        .map(|i| ["\"c", &i.to_string(), "\""].concat())
        .collect();
    let mut components = alloc::vec![[
        r#"{"id":"root","component":"Column","children":["#,
        &ids.join(","),
        "]}"
    ]
    .concat()];
    for i in 0..1000 {
        components.push(
            [
                r#"{"id":"c"#,
                &i.to_string(),
                r#"","component":"Text","text":"an item of the list"}"#,
            ]
            .concat(),
        );
    }
    let text = [
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["#,
        &components.join(","),
        "]}}]</a2ui-json>",
    ]
    .concat();
    let mut chunked = A2uiStream::new(Version::V09);
    let mut updates = 0;
    for chunk in text.as_bytes().chunks(20) {
        updates += chunked
            .process_chunk(core::str::from_utf8(chunk).unwrap())
            .unwrap()
            .len();
    }
    // Read after every chunk while short, then once per eighth of
    // growth: components still show while the message streams (about
    // 4,800 chunks; read on each, it showed about 4,200 updates).
    assert!((20..400).contains(&updates), "{updates} updates");
    let mut whole = A2uiStream::new(Version::V09);
    whole.process_chunk(&text).unwrap();
    assert_eq!(chunked.surfaces.get("s").unwrap().components.len(), 1001);
    assert_eq!(
        chunked.surfaces.get("s").unwrap().components,
        whole.surfaces.get("s").unwrap().components
    );
}

#[test]
fn a_streaming_component_waits_for_its_required_properties() {
    let catalog = json!({"Audio": {"required": ["component", "url"]}});
    let mut s = A2uiStream::with_catalog_components(Version::V09, &catalog);
    s.process_chunk(
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}},"#,
    )
    .unwrap();
    let partial = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Audio","title":"x""#;
    assert!(
        s.process_chunk(partial).unwrap().is_empty(),
        "the url is missing"
    );
    assert_eq!(s.process_chunk(r#","url":"/a.mp3"}]}}"#).unwrap().len(), 1);
    let err = s
        .process_chunk(r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Audio"}]}}"#)
        .unwrap_err();
    assert_eq!(
        err, r#"Validation failed: component "root" lacks the property "url" its catalog requires"#,
        "a whole message is held to its catalog"
    );
}

#[test]
fn dropped_closers_end_a_message_and_the_block_closes_the_last() {
    let mut s = A2uiStream::new(Version::V08);
    s.process_chunk(r#"<a2ui-json>[{"beginRendering": {"root": "root", "surfaceId": "s"}},"#)
        .unwrap();
    // The `]` of the components is missing: the next `}` closes it.
    let parts = s
        .process_chunk(r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "a"}}}}}}, "#)
        .unwrap();
    assert_eq!(parts.len(), 1);
    let parts = s
        .process_chunk(r#"{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "x"}]}}, {"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": {"literalString": "b"}}}}]}</a2ui-json>"#)
        .unwrap();
    let messages = parts[0].a2ui.as_ref().unwrap();
    assert!(messages[0].get("dataModelUpdate").is_some());
    assert_eq!(
        messages[1]["surfaceUpdate"]["components"][0]["component"]["Text"]["text"]["literalString"],
        "b",
        "the message left open by the end of the block is closed"
    );
    let mut s = A2uiStream::new(Version::V08);
    s.process_chunk(r#"<a2ui-json>[{"beginRendering": {"root": "root", "surfaceId": "s"}},"#)
        .unwrap();
    let err = s
        .process_chunk(
            r#"{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "ro</a2ui-json>"#,
        )
        .unwrap_err();
    assert!(err.contains("Failed to parse"), "a cut id is never closed");
}

#[test]
fn v08_data_streams_entry_by_entry_and_never_shows_a_cut_url() {
    let mut s = A2uiStream::new(Version::V08);
    let step = |s: &mut A2uiStream, chunk: &str| -> Vec<Value> {
        let parts = s.process_chunk(chunk).unwrap();
        parts
            .into_iter()
            .flat_map(|p| p.a2ui.unwrap_or_default())
            .collect()
    };
    let got = step(
        &mut s,
        r#"<a2ui-json>[{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "name", "valueString": "Al"#,
    );
    assert_eq!(
        got[0]["dataModelUpdate"]["contents"],
        json!([{"key": "name", "valueString": "Al"}])
    );
    let got = step(
        &mut s,
        r#"ice"}, {"key": "photo", "valueString": "https://x"#,
    );
    assert_eq!(
        got[0]["dataModelUpdate"]["contents"],
        json!([{"key": "name", "valueString": "Alice"}]),
        "the cut URL's entry has no value yet: left out"
    );
    assert!(step(&mut s, "/a.p").is_empty(), "nothing changed");
    let got = step(&mut s, r#"ng"}, {"key": "note", "valueString": "/tm"#);
    assert_eq!(
        got[0]["dataModelUpdate"]["contents"][1]["valueString"],
        "https://x/a.png"
    );
    assert_eq!(
        got[0]["dataModelUpdate"]["contents"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // The message's last brace is missing: it ends where the next starts,
    // and is not shown again since nothing in it changed.
    let got = step(
        &mut s,
        r#"p"}]}, {"beginRendering": {"surfaceId": "s", "root": "r"}}"#,
    );
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[0]["dataModelUpdate"]["contents"][2]["valueString"],
        "/tmp"
    );
    assert!(got[1].get("beginRendering").is_some());
}

#[test]
fn data_is_told_apart_by_its_path() {
    let mut s = A2uiStream::new(Version::V09);
    s.process_chunk("<a2ui-json>[").unwrap();
    let update = |path: &str| {
        [
            r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":""#,
            path,
            r#"","value":{"name":"A"}}},"#,
        ]
        .concat()
    };
    assert_eq!(s.process_chunk(&update("/a")).unwrap().len(), 1);
    assert_eq!(s.process_chunk(&update("/b")).unwrap().len(), 1);
    assert!(s.process_chunk(&update("/a")).unwrap().is_empty());
}

#[test]
fn a_dropped_brace_is_restored() {
    assert_eq!(balance(r#"{"a": [{"b": "}]"]}"#), r#"{"a": [{"b": "}]"}]}"#);
    assert_eq!(balance(r#"{"a": [{"b": 1}]}]"#), r#"{"a": [{"b": 1}]}"#);
    assert_eq!(balance(r#"{"a": {"b": 1}]"#), r#"{"a": {"b": 1}}"#);
    assert_eq!(balance(r#"{"a": {"b": 1]}"#), r#"{"a": {"b": 1}}"#);
}

#[test]
fn whole_answers() {
    assert!(has_parts("a <a2ui-json>[]</a2ui-json>"));
    assert!(!has_parts("a <a2ui-json> b"));
    let parts =
        parse_full("Hi\n<a2ui-json>\n```json\n[{\"id\": 1},]\n```\n</a2ui-json>\nBye").unwrap();
    assert_eq!(parts[0].a2ui, Some(alloc::vec![json!({"id": 1})]));
    assert_eq!(parts[1].text.as_deref(), Some("Bye"));
    // The fence's lines end as every reader cuts them: a lone `\r` too.
    for ending in ["\r\n", "\r"] {
        let text = "<a2ui-json>```json\n[{\"id\": 1}]\n```\n  </a2ui-json>".replace('\n', ending);
        let parts = parse_full(&text).unwrap();
        assert_eq!(
            parts[0].a2ui,
            Some(alloc::vec![json!({"id": 1})]),
            "{text:?}"
        );
    }
    assert!(parse_full("none").unwrap_err().contains("not found"));
    assert!(parse_full("<a2ui-json></a2ui-json>")
        .unwrap_err()
        .contains("empty"));
    assert_eq!(
        fix_payload("{\"a\": \u{201C}x\u{2019}s\u{201D}}").unwrap(),
        [json!({"a": "x's"})]
    );
}

/// Any chunking gives the final parts (and error) of feeding the text
/// whole: every split point of each input, and one byte at a time.
#[test]
fn every_split_gives_the_parts_of_the_whole() {
    let create = r#"{"version":"v0.9","createSurface":{"catalogId":"c","surfaceId":"s"}}"#;
    let update = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"Hi"}]}}"#;
    let inputs = [
        String::from("hello <a2ui-json>x</a2ui-json>"),
        String::from("hello <a2ui-json>x</a2ui-json> bye"),
        format!("hello <a2ui-json>[{create}, {update}]</a2ui-json> bye <a2ui-json>[]</a2ui-json>"),
        format!("<a2ui-json>[{create}]</a2ui-json>after"),
        format!("a <a2ui-json>[{create}, oops]</a2ui-json> b"),
        String::from("no tags < a2ui-json> <a2ui-jso"),
        format!("<a2ui-json>[{create},{update}"),
    ];
    every_split_reads_as_whole(&inputs);
}

/// A root naming many children, then one message per child (issue 13's
/// quadratic case): each message emits the child and its parent, whose
/// placeholder it replaces, never the whole tree again.
#[test]
fn each_message_emits_only_what_changed() {
    let n = 300;
    let ids: Vec<String> = (0..n).map(|i| format!("\"c{i}\"")).collect();
    let mut text = format!(
        r#"<a2ui-json>[{{"version":"v0.9","createSurface":{{"catalogId":"c","surfaceId":"s"}}}},{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":[{{"id":"root","component":"Column","children":[{}]}}]}}}}"#,
        ids.join(",")
    );
    for i in 0..n {
        text += &format!(
            r#",{{"version":"v0.9","updateComponents":{{"surfaceId":"s","components":[{{"id":"c{i}","component":"Text","text":"item {i}"}}]}}}}"#
        );
    }
    text += "]</a2ui-json>";
    let mut r = A2uiReader::new();
    let mut emitted = 0;
    for chunk in text.as_bytes().chunks(64) {
        for part in r.push_bytes(chunk) {
            for m in part["a2ui"].as_array().into_iter().flatten() {
                emitted += m["updateComponents"]["components"]
                    .as_array()
                    .map_or(0, Vec::len);
            }
        }
    }
    r.finish();
    // The root and its placeholders once, then per child: itself and the
    // root (readings of a message may show it once more on the way).
    assert!(
        emitted <= 5 * n,
        "{emitted} components emitted for {n} children"
    );
    let state = testkit::properties::a2ui_state(&r.document());
    let root = &state["surfaces"]["s"]["components"]["root"];
    assert_eq!(root["children"].as_array().map(Vec::len), Some(n));
    assert_eq!(root["children"][n - 1], "c299");
    assert_eq!(
        state["surfaces"]["s"]["components"]["c299"]["text"],
        "item 299"
    );
}

/// A v1.0 stream, read by [`A2uiReader`] as the version each message names:
/// a `createSurface` without `catalogId` carrying its first components and
/// data, a data update, a delete by `null`, a function call; any chunking
/// ends in what the whole text gives.
#[test]
fn a_v1_0_stream_is_read_by_its_messages_version() {
    let text = concat!(
        "Here <a2ui-json>[",
        r#"{"version":"v1.0","createSurface":{"surfaceId":"s","components":["#,
        r#"{"id":"root","component":"Column","children":["a","b"]},"#,
        r#"{"id":"a","component":"Text","text":{"path":"/name"}},"#,
        r#"{"id":"orphan","component":"Text","text":"x"}],"#,
        r#""dataModel":{"name":"Ada","age":3}}},"#,
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"b","component":"Text","text":"Hello there"}]}},"#,
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/age","value":null}},"#,
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/user","value":{"first":"Ada"}}},"#,
        r#"{"version":"v1.0","callRendererFunction":{"functionCallId":"f1","callFunction":{"call":"ping","catalogId":"c"}}}"#,
        "]</a2ui-json>",
    );
    let document = |chunks: &[&[u8]]| {
        let mut r = A2uiReader::new();
        for chunk in chunks {
            r.push_bytes(chunk);
        }
        r.finish();
        r.document()
    };
    let whole = document(&[text.as_bytes()]);
    assert_eq!(whole["error"], Value::Null, "{whole}");
    let messages = whole["parts"][0]["a2ui"].as_array().unwrap();
    // The start keeps of its components those shown: the reachable ones,
    // `b` (not streamed yet) pointed at its placeholder.
    let created = &messages[0]["createSurface"];
    let ids: Vec<&str> = created["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "root", "loading_b"]);
    assert_eq!(
        created["components"][1]["children"],
        json!(["a", "loading_b"])
    );
    assert_eq!(messages[1]["version"], "v1.0");
    let state = testkit::properties::a2ui_state(&whole);
    let surface = &state["surfaces"]["s"];
    assert_eq!(
        surface["data"],
        json!({"name": "Ada", "user": {"first": "Ada"}})
    );
    assert_eq!(surface["components"]["b"]["text"], "Hello there");
    assert!(surface["components"].get("orphan").is_none());
    assert_eq!(
        state["calls"][0]["callRendererFunction"]["functionCallId"],
        "f1"
    );
    let bytes: Vec<&[u8]> = text.as_bytes().chunks(7).collect();
    assert_eq!(testkit::properties::a2ui_state(&document(&bytes)), state);
}

/// A v1.0 `createSurface` carrying its components shows them as they
/// stream, its start first; any split of the text, also one inside it,
/// with a member after its components, a text ending inside it, or a
/// refused component, ends in what the whole text gives.
#[test]
fn a_v1_0_create_surface_streams_its_components() {
    let head = r#"<a2ui-json>[{"version":"v1.0","createSurface":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a"]},"#;
    let mut r = A2uiReader::new();
    r.push(head);
    let state = testkit::properties::a2ui_state(&r.document());
    let root = &state["surfaces"]["s"]["components"]["root"];
    assert_eq!(root["children"], json!(["loading_a"]), "{state}");
    let texts = [
        [head, r#"{"id":"a","component":"Text","text":"Hi"}],"dataModel":{"n":1}}}]</a2ui-json>"#].concat(),
        [head, r#"{"id":"a","component":"Text","text":"Hi"}],"catalogId":"c","sendDataModel":true}}]</a2ui-json>"#].concat(),
        [head, r#"{"id":"a","component":"Text","text":"Hi"}"#].concat(),
        [head, r#"{"id":"a","component":"Card","child":"root"}]}}]</a2ui-json>"#].concat(),
    ];
    every_split_reads_as_whole(&texts);
    let whole = document(&[texts[1].as_bytes()]);
    let created = &whole["surfaces"]["s"]["created"];
    assert_eq!(created["catalogId"], "c");
    let refused = document(&[texts[3].as_bytes()]);
    assert!(
        refused["error"].as_str().unwrap().contains("Circular"),
        "{refused}"
    );
}

/// What v1.0 requires and v0.9 does not, and the reverse: a v1.0 data update
/// needs its `value`, a v0.9 `createSurface` its `catalogId`.
#[test]
fn each_message_is_held_to_its_own_version() {
    let read = |message: &str| {
        let mut s = A2uiStream::new(Version::V09);
        s.process_chunk(&["<a2ui-json>[", message, "]</a2ui-json>"].concat())
    };
    let create = |v: &str| format!(r#"{{"version":"{v}","createSurface":{{"surfaceId":"s"}}}}"#);
    assert!(read(&create("v1.0")).is_ok());
    let e = read(&create("v0.9")).unwrap_err();
    assert!(e.contains("catalogId"), "{e}");
    let data = |v: &str| format!(r#"{{"version":"{v}","updateDataModel":{{"surfaceId":"s"}}}}"#);
    assert!(read(&data("v0.9")).is_ok());
    let e = read(&data("v1.0")).unwrap_err();
    assert!(e.contains("'value'"), "{e}");
    // v1.0's messages that name no surface, and what v0.9 does not know.
    let call = r#"{"version":"v1.0","agentFunctionResponse":{"functionCallId":"f","value":1}}"#;
    let parts = read(call).unwrap();
    assert_eq!(
        parts[0].a2ui.as_ref().unwrap()[0]["agentFunctionResponse"]["value"],
        1
    );
    let e = read(&call.replace("v1.0", "v0.9")).unwrap_err();
    assert!(e.contains("Unknown A2UI message type"), "{e}");
    let e = read(r#"{"version":"v1.0","callRendererFunction":{}}"#).unwrap_err();
    assert!(e.contains("functionCallId"), "{e}");
}

/// A v1.0 data update streamed value by value says its own version.
#[test]
fn a_data_update_says_the_version_of_its_message() {
    let mut s = A2uiStream::new(Version::V09);
    let parts = s
        .process_chunk(r#"<a2ui-json>[{"version":"v1.0","updateDataModel":{"surfaceId":"s","value":{"a":1,"b":"#)
        .unwrap();
    let m = &parts[0].a2ui.as_ref().unwrap()[0];
    assert_eq!(m["version"], "v1.0");
    assert_eq!(m["updateDataModel"]["value"], json!({"a": 1}));
}

/// A whole answer held to a version's envelope: its version named, that
/// one, and a kind it has; the first message that is not, by its place.
#[test]
fn a_whole_answer_is_held_to_a_version() {
    let answer = |m: &str| ["Hi <a2ui-json>[", m, "]</a2ui-json>"].concat();
    let v10 = r#"{"version":"v1.0","createSurface":{"surfaceId":"s"}}"#;
    assert!(parse_full_as(&answer(v10), Version::V10).is_ok());
    let e = parse_full_as(&answer(v10), Version::V09).unwrap_err();
    assert!(e.contains("/0/a2ui/0") && e.contains("v1.0"), "{e}");
    let bare = r#"{"createSurface":{"surfaceId":"s"}}"#;
    let e = parse_full_as(&answer(bare), Version::V10).unwrap_err();
    assert!(e.contains("version"), "{e}");
    let odd = r#"{"version":"v1.0","notAMessage":{}}"#;
    let e = parse_full_as(&answer(odd), Version::V10).unwrap_err();
    assert!(e.contains("Unknown A2UI message type"), "{e}");
    // v0.8's messages name no version.
    let v08 = r#"{"beginRendering":{"surfaceId":"s","root":"r"}}"#;
    assert!(parse_full_as(&answer(v08), Version::V08).is_ok());
}

/// A catalog's own cuttable key: its cut string shows closed, as A2UI's
/// `text` does; other cut strings still wait.
#[test]
fn a_catalogs_cuttable_keys_show_cut_strings() {
    let start =
        r#"<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},"#;
    let cut = r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Note","body":"half \u00"#;
    let shown = |s: &mut A2uiStream| {
        s.process_chunk(start).unwrap();
        let parts = s.process_chunk(cut).unwrap();
        parts
            .first()
            .and_then(|p| p.a2ui.clone())
            .unwrap_or_default()
    };
    let mut custom = A2uiStream::new(Version::V09).with_cuttable_keys(&["body"]);
    let messages = shown(&mut custom);
    let root = &messages[0]["updateComponents"]["components"][0];
    assert_eq!(root["body"], "half ");
    let mut plain = A2uiStream::new(Version::V09);
    let messages = shown(&mut plain);
    let root = &messages[0]["updateComponents"]["components"][0];
    assert!(root.get("body").is_none(), "{root}");
}

/// A value deleted (`null`) or replaced by one that is no object is no
/// longer counted as emitted: sent again, it goes out again.
#[test]
fn a_deleted_value_goes_out_again() {
    let data = |path: &str, value: &str| {
        format!(
            r#"{{"version":"v1.0","updateDataModel":{{"surfaceId":"s","path":"{path}","value":{value}}}}},"#
        )
    };
    let text = [
        r#"<a2ui-json>[{"version":"v1.0","createSurface":{"surfaceId":"s"}},"#,
        &data("/", r#"{"a":{"x":1},"b":2}"#),
        &data("/a", r#"{"y":3}"#),
        &data("/a", "null"),
        &data("/", r#"{"a":{"x":1},"b":2}"#),
        &data("/a", r#"{"y":3}"#),
        "]</a2ui-json>",
    ]
    .concat();
    let mut r = A2uiReader::new();
    r.push(&text);
    r.finish();
    let state = testkit::properties::a2ui_state(&r.document());
    assert_eq!(
        state["surfaces"]["s"]["data"],
        json!({"a": {"x": 1, "y": 3}, "b": 2}),
        "{state}"
    );
}

/// What a renderer holds of the reader's document, fed `chunks`.
fn document(chunks: &[&[u8]]) -> Value {
    let mut r = A2uiReader::new();
    for chunk in chunks {
        r.push_bytes(chunk);
    }
    r.finish();
    testkit::properties::a2ui_state(&r.document())
}

/// Every split point of each text, and one byte at a time, leave what
/// feeding it whole leaves.
fn every_split_reads_as_whole(texts: &[String]) {
    for text in texts {
        let bytes = text.as_bytes();
        let whole = document(&[bytes]);
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert_eq!(document(&[a, b]), whole, "{text:?} split at {at}");
        }
        let bytes: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(document(&bytes), whole, "{text:?} byte by byte");
    }
}
