//! Whole answers: the blocks of a complete text, each with the prose before
//! it, and a payload repaired and parsed; [`parse_full_as`] also holds each
//! message to a version's envelope.

use super::{envelope, Part, Version, CLOSE_TAG, OPEN_TAG};
use crate::jsonl::repair;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::Value;
use surfaces_core::fence;

/// Whether `text` holds a complete A2UI block (both tags, in order).
pub fn has_parts(text: &str) -> bool {
    text.find(OPEN_TAG).is_some_and(|at| {
        text.get(at + OPEN_TAG.len()..)
            .is_some_and(|rest| rest.contains(CLOSE_TAG))
    })
}

/// Repairs an A2UI payload and parses it as a list of messages: typographic
/// quotes normalized, trailing commas dropped, a single object wrapped; one
/// naming a key twice is refused.
pub fn fix_payload(payload: &str) -> Result<Vec<Value>, String> {
    let normalized: String = payload
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            c => c,
        })
        .collect();
    let text = repair(normalized.trim());
    // As the stream refuses it: which of the two counts is not JSON's.
    if crate::partial::repeats_a_key(&text) {
        return Err(String::from(
            "Failed to parse the A2UI JSON: a message names a key twice",
        ));
    }
    let value: Value = surfaces_core::json::parse(&text)
        .map_err(|e| ["Failed to parse the A2UI JSON: ", &e.to_string()].concat())?;
    Ok(match value {
        Value::Array(items) => items,
        other => alloc::vec![other],
    })
}

/// Reads a whole answer: each block's messages with the prose before it,
/// and the prose after the last block.
pub fn parse_full(text: &str) -> Result<Vec<Part>, String> {
    if !text.contains(OPEN_TAG) {
        return Err(["the A2UI tag ", OPEN_TAG, " was not found in response"].concat());
    }
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(OPEN_TAG) {
        let before = rest.get(..at).unwrap_or_default().trim();
        let after = rest.get(at + OPEN_TAG.len()..).unwrap_or_default();
        let (body, next) = match after.find(CLOSE_TAG) {
            Some(end) => (
                after.get(..end).unwrap_or_default(),
                after.get(end + CLOSE_TAG.len()..).unwrap_or_default(),
            ),
            None => (after, ""),
        };
        let body = strip_code_fence(body.trim());
        if body.is_empty() {
            return Err("the A2UI JSON part is empty".to_string());
        }
        parts.push(Part {
            text: Some(before.to_string()),
            a2ui: Some(fix_payload(body)?),
        });
        rest = next;
    }
    let tail = rest.trim();
    if !tail.is_empty() {
        parts.push(Part {
            text: Some(tail.to_string()),
            a2ui: None,
        });
    }
    Ok(parts)
}

/// Reads a whole answer as [`parse_full`] does, then holds every message to
/// `version`'s envelope: a v0.9 or v1.0 message names its version, that one,
/// and one of its kinds ([`Version::kinds`]); the first that does not is the
/// error, with its place (`/<part>/a2ui/<message>`).
pub fn parse_full_as(text: &str, version: Version) -> Result<Vec<Part>, String> {
    let parts = parse_full(text)?;
    for (p, part) in parts.iter().enumerate() {
        for (m, message) in part.a2ui.iter().flatten().enumerate() {
            let at = ["/", &p.to_string(), "/a2ui/", &m.to_string()].concat();
            let named = message.get("version").and_then(Value::as_str);
            let wrong = match (version.tag(), named) {
                (Some(_), None) => Some("names no version".to_string()),
                (Some(want), Some(v)) if v != want => {
                    Some(["is an A2UI ", v, " message, not ", want].concat())
                }
                _ => None,
            };
            if let Some(wrong) = wrong {
                return Err(["Validation failed: ", &at, " ", &wrong].concat());
            }
            envelope(message, version).map_err(|e| [&e, " at ", &at].concat())?;
        }
    }
    Ok(parts)
}

/// The content of a ```` ```json ```` fence around a payload, if any (its
/// lines cut by [`fence::lines`], as every reader cuts them).
fn strip_code_fence(body: &str) -> &str {
    let mut lines = fence::lines(body);
    let Some(open) = lines.next().and_then(fence::opening_fence) else {
        return body;
    };
    // Where a line of `body` starts (every line is a part of it).
    let at = |line: &str| line.as_ptr() as usize - body.as_ptr() as usize;
    let (mut inner, mut end) = (body.len(), body.len());
    for (n, line) in lines.enumerate() {
        if n == 0 {
            inner = at(line);
        }
        // The last line with text closes the fence, or is content.
        if !line.trim().is_empty() {
            end = if open.is_closed_by(line) {
                at(line)
            } else {
                body.len()
            };
        }
    }
    body.get(inner..end).unwrap_or_default().trim_end()
}
