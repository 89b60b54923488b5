//! Loops one call over a surface file, for a native profile of the same work
//! the Node benchmark times (`crates/validator-wasm/bench/node.mjs --dump DIR`
//! writes its surface and operations there):
//!
//! ```sh
//! cargo build --profile native -p validator-wasm --example profile
//! perf record -g target/native/examples/profile validate DIR 2000
//! ```
use std::time::Instant;
use validator_wasm::{parse_document, patch::apply_patch, validate_surface_text, Catalog};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, what, dir, runs] = &args[..] else {
        eprintln!("usage: profile validate|parse|apply DIR RUNS");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("RUNS is a number");
    let read =
        |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).expect("the dumped file");
    let text = read("surface.json");
    let ops = parse_document(&read("ops.json")).expect("the operations are JSON");
    let catalog = Catalog::default_blog();
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
            _ => panic!("unknown call {what}"),
        }
    }
    eprintln!(
        "{what}: {:.1} µs a call",
        start.elapsed().as_secs_f64() * 1e6 / runs as f64
    );
}
