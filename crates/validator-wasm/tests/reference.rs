//! The users' reference (`docs/reference.md`, section "Error codes")
//! documents every code the workspace can report, and no code it cannot.
//!
//! The codes are found two ways: every code a fixture expects, and every
//! code-shaped string literal in the workspace's sources outside their test
//! modules and comments (`snake_case` or `UPPER_CASE` with an underscore, and the
//! codes given to `Issue::error`, `Issue::flag`, `Issue::warning` or
//! interop's `Note::new`, wherever the quotes before them fall).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `word` has the shape of a code.
fn code_shaped(word: &str) -> bool {
    word.contains('_')
        && !word.starts_with('_')
        && !word.ends_with('_')
        && (word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            || word.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// Code-shaped literals in the sources (the crates' but testkit's, without
/// their test modules, and the npm package's JS layer).
fn emitted() -> BTreeSet<String> {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(workspace().join("crates")).expect("crates/") {
        let krate = krate.expect("a crate").path();
        let src = krate.join("src");
        // testkit is the tests' own (the fuzz properties name their targets).
        if src.is_dir() && !krate.ends_with("testkit") {
            rust_files(&src, &mut files);
        }
    }
    let mut found = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        if file.ends_with("tests.rs") {
            continue;
        }
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .flat_map(|line| [line, "\n"])
            .collect();
        for (i, literal) in code.split('"').enumerate() {
            if i % 2 == 1 && code_shaped(literal) {
                found.insert(literal.to_string());
            }
        }
        for call in [
            "Issue::error(",
            "Issue::flag(",
            "Issue::warning(",
            "Note::new(",
        ] {
            for rest in code.split(call).skip(1) {
                if let Some(word) = rest.trim_start().strip_prefix('"') {
                    found.extend(word.split('"').next().map(String::from));
                }
            }
        }
    }
    // The npm package's own JS layer (the codes SurfacesError carries).
    for entry in std::fs::read_dir(workspace().join("npm/src")).expect("npm/src/") {
        let path = entry.expect("an npm file").path();
        if path.extension().is_some_and(|e| e == "js") {
            let text = std::fs::read_to_string(&path).expect("an npm file");
            // Every 'word' written as a single-quoted literal (each stretch
            // between two quotes is looked at: apostrophes in messages
            // shift the pairs).
            for literal in text.split('\'').skip(1) {
                if code_shaped(literal) {
                    found.insert(literal.to_string());
                }
            }
        }
    }
    found
}

/// Every code a fixture expects (issues, repairs, errors).
fn expected_by_fixtures() -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("code", Value::String(code)) => {
                            out.insert(code.clone());
                        }
                        ("codes", Value::Array(codes)) => {
                            out.extend(codes.iter().filter_map(Value::as_str).map(String::from))
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for entry in std::fs::read_dir(dir).expect("fixtures/") {
        let path = entry.expect("a fixture file").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("a fixture file");
            let suite: Value = serde_json::from_str(&text).expect("fixtures are JSON");
            for case in suite["cases"].as_array().into_iter().flatten() {
                walk(&case["expect"], &mut out);
            }
        }
    }
    out
}

/// Code-shaped literals in the sources that are not codes (a crate name,
/// the environment variable `include_str!` reads build.rs's output from).
const NOT_CODES: [&str; 2] = ["serde_json", "OUT_DIR"];

#[test]
fn every_code_is_documented_and_every_documented_code_is_real() {
    let documented: BTreeSet<String> = testkit::properties::documented_codes()
        .into_iter()
        .map(String::from)
        .collect();
    let emitted: BTreeSet<String> = emitted()
        .into_iter()
        .filter(|c| !NOT_CODES.contains(&c.as_str()))
        .collect();
    let fixtures = expected_by_fixtures();
    let missing: Vec<_> = emitted
        .union(&fixtures)
        .filter(|c| !documented.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes the code reports that docs/reference.md does not document: {missing:?}"
    );
    let stale: Vec<_> = documented.difference(&emitted).collect();
    assert!(
        stale.is_empty(),
        "codes docs/reference.md documents that no source reports: {stale:?}"
    );
    assert!(documented.len() >= 50, "{} codes", documented.len());
}
