//! Native throughput of the markdown stream over the test corpus, fed whole
//! and in 20-byte chunks: `cargo run --profile native -p streaming-parser
//! --example throughput [whole|chunks]`.

use std::time::Instant;
use streaming_parser::MarkdownStream;

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    let mut corpus = Vec::new();
    for f in &files {
        corpus.extend(std::fs::read(f).unwrap_or_default());
        corpus.extend_from_slice(b"\n\n");
    }
    let mut text = Vec::new();
    while text.len() < 8 * 1024 * 1024 {
        text.extend_from_slice(&corpus);
    }
    let only = std::env::args().nth(1);
    for chunk in [usize::MAX, 20] {
        let name = if chunk == usize::MAX {
            "whole"
        } else {
            "chunks"
        };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let start = Instant::now();
        let mut stream = MarkdownStream::new();
        let mut changes = 0;
        for piece in text.chunks(chunk.min(text.len())) {
            changes += stream.push_bytes(piece).len();
        }
        changes += stream.finish().len();
        let secs = start.elapsed().as_secs_f64();
        let label = if chunk == usize::MAX {
            "whole".to_string()
        } else {
            format!("{chunk}-byte chunks")
        };
        println!(
            "native, {label}: {:.1} MB in {:.3} s = {:.1} MB/s ({changes} changes)",
            text.len() as f64 / 1e6,
            secs,
            text.len() as f64 / 1e6 / secs
        );
    }
}
