//! Loops one call over a surface file, for a native profile of the same work
//! the Node benchmark times (`crates/validator-wasm/bench/node.mjs --dump DIR`
//! writes its surface and operations there):
//!
//! ```sh
//! cargo build --profile native -p validator-wasm --example profile
//! perf record -g target/native/examples/profile validate DIR 2000
//! ```
//!
//! `grow` is the benchmark's Draft row of a component added and linked into
//! root's children, then both taken back (two `Draft::apply` calls).
use serde_json::json;
use std::time::Instant;
use validator_wasm::pipeline::Draft;
use validator_wasm::{parse_document, patch::apply_patch, validate_surface_text, Catalog};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, what, dir, runs] = &args[..] else {
        eprintln!("usage: profile validate|parse|apply|grow DIR RUNS");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("RUNS is a number");
    let read =
        |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).expect("the dumped file");
    let text = read("surface.json");
    let ops = parse_document(&read("ops.json")).expect("the operations are JSON");
    let catalog = Catalog::default_blog();
    // For grow, the surface less its last component, which is added back.
    let mut less = parse_document(&text).expect("JSON");
    if let Some(list) = less["components"].as_array_mut() {
        list.pop();
    }
    if let Some(list) = less["components"][0]["children"].as_array_mut() {
        list.pop();
    }
    let mut draft = Draft::new(less);
    draft.issues(&catalog);
    let n = draft.document()["components"]
        .as_array()
        .map_or(0, Vec::len);
    let added = json!({"id": "added", "component": "Text", "props": {"text": "New"}});
    let add = json!([{"op": "add", "path": "/components/-", "value": added},
        {"op": "add", "path": "/components/0/children/-", "value": "added"}]);
    let take_back = json!([{"op": "remove", "path": format!("/components/0/children/{}", n - 1)},
        {"op": "remove", "path": format!("/components/{n}")}]);
    let start = Instant::now();
    for _ in 0..runs {
        match what.as_str() {
            "validate" => assert!(validate_surface_text(&text, &catalog).is_empty()),
            "parse" => drop(parse_document(&text).expect("JSON")),
            "apply" => {
                let doc = parse_document(&text).expect("JSON");
                let out = apply_patch(&doc, &ops).expect("the operations apply");
                assert!(!serde_json::to_string(&out).expect("text").is_empty());
            }
            "grow" => {
                assert_eq!(draft.apply(&add, &catalog).applied.len(), 2);
                assert_eq!(draft.apply(&take_back, &catalog).applied.len(), 2);
            }
            _ => panic!("unknown call {what}"),
        }
    }
    eprintln!(
        "{what}: {:.1} µs a call",
        start.elapsed().as_secs_f64() * 1e6 / runs as f64
    );
}
