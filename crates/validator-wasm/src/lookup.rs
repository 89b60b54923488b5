//! Finding things by name, at the bottom of the crate's layers: a member of
//! a small object, and the catalog name nearest to a misspelt one (for the
//! validator's "did you mean" and the repairs' snapping alike).
//!
//! ```
//! use validator_wasm::lookup::{field, nearest};
//! let component = serde_json::json!({"id": "t", "component": "Heading"});
//! assert_eq!(field(&component, "component").and_then(|v| v.as_str()), Some("Heading"));
//! assert_eq!(nearest("Haeding", ["Heading", "Text"]), Some("Heading"));
//! assert_eq!(nearest("Carousel", ["Heading", "Text"]), None);
//! // Ties go to the first in byte order, whatever the order given.
//! assert_eq!(nearest("yearly", ["yearlz", "yearla"]), Some("yearla"));
//! assert_eq!(nearest("yearly", ["yearla", "yearlz"]), Some("yearla"));
//! ```

use serde_json::{Map, Value};

/// Levenshtein distance over Unicode scalar values.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate nearest to `name` by Levenshtein distance, at most 2; ties
/// go to the candidate first in byte order.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if name.chars().count().abs_diff(candidate.chars().count()) > 2 {
            continue;
        }
        let d = levenshtein(name, candidate);
        if d > 2 {
            continue;
        }
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && candidate.as_bytes() < bc.as_bytes()),
        };
        if better {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// A member of a small object (a component, a binding): a scan beats
/// hashing the key.
pub fn field<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    field_of(value.as_object()?, key)
}

/// [`field`] on a map.
pub fn field_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() <= 12 {
        map.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        map.get(key)
    }
}
