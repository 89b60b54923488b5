//! The WebAssembly face in Chromium: the `Stream` class and `heal`.
#![cfg(target_arch = "wasm32")]

use streaming_parser::wasm::{heal, Stream};
use validator_wasm::wasm::LoadedCatalog;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn builtin() -> LoadedCatalog {
    LoadedCatalog::new(None).unwrap_or_else(|_| panic!("the built-in catalog loads"))
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("the wasm face returns JSON text")
}

#[wasm_bindgen_test]
fn a_stream_reports_changes_and_the_final_document() {
    let mut stream = Stream::new("markdown", &builtin()).unwrap_or_else(|_| panic!("markdown"));
    let changes = json(&stream.push("Hello **wor"));
    assert_eq!(changes[0]["op"], "add");
    assert_eq!(changes[0]["value"]["healed"], "Hello **wor**");
    let changes = json(&stream.push_bytes(&"ld é".as_bytes()[..4]));
    assert_eq!(changes[0]["append"], "ld ");
    stream.push_bytes(&"é".as_bytes()[1..]);
    let end = json(&stream.finish());
    let doc = &end["document"];
    assert_eq!(doc["blocks"][0]["text"], "Hello **world é");
    assert_eq!(
        end["changes"][0]["complete"], true,
        "the last changes close the block"
    );
    assert_eq!(doc, &json(&stream.document()));
}

#[wasm_bindgen_test]
fn surfaces_stream_with_ghosts() {
    let mut stream = Stream::new("markdown", &builtin()).unwrap_or_else(|_| panic!("markdown"));
    stream.push("```surface {\"id\":\"p\"}\n{\"id\":\"root\",\"component\":\"Stack\"}\n{\"id\":\"t\",\"component\":\"Text\",\"props\":{\"text\":\"Hi th");
    let doc = json(&stream.document());
    let surface = &doc["blocks"][0];
    assert_eq!(surface["components"][0]["id"], "root");
    assert_eq!(surface["ghost"]["props"]["text"], "Hi th");
    assert_eq!(surface["ghost"]["partial"], true);
    // Once the text ends, its cut last line is read like the validator reads it.
    let doc = json(&stream.finish());
    let surface = &doc["document"]["blocks"][0];
    assert_eq!(surface["ghost"], serde_json::Value::Null);
    assert_eq!(surface["refused"][0]["code"], "invalid_line");
}

#[wasm_bindgen_test]
fn bad_modes_throw() {
    assert!(Stream::new("html", &builtin()).is_err());
}

#[wasm_bindgen_test]
fn jsonl_mode_reads_steps() {
    let mut stream = Stream::new("jsonl", &builtin()).unwrap_or_else(|_| panic!("jsonl"));
    stream.push("{\"op\":\"add\",\"path\":\"/a\",\"value\":1}\n");
    let doc = json(&stream.finish());
    assert_eq!(doc["document"]["items"][0]["kind"], "step");
}

#[wasm_bindgen_test]
fn heal_closes_what_is_open() {
    assert_eq!(heal("see **bold"), "see **bold**");
    assert_eq!(
        heal("see [docs](https://exa"),
        "see [docs](streamdown:incomplete-link)"
    );
}
