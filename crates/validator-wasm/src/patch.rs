//! RFC 6902 JSON Patch over `serde_json::Value`: one operation at a time, or
//! a whole patch atomically (`apply_patch`).
//!
//! Pointers follow core's rule, so a path through `__proto__`, `constructor`
//! or `prototype` is refused here as everywhere (`unsafe_path`).

use serde_json::Value;
use std::borrow::Cow;
use surfaces_core::pointer::{self, array_index};

/// Why an operation was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchError {
    /// The index of the operation in the patch.
    pub op: usize,
    /// `invalid_operation`, `invalid_pointer`, `unsafe_path`, `path_not_found`,
    /// `invalid_move` or `test_failed`.
    pub code: &'static str,
    /// The operation's `path` (or `from`) that failed.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl PatchError {
    /// The error as JSON `{op, code, path, message}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"op": self.op, "code": self.code, "path": self.path, "message": self.message})
    }
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "operation {}: {} at {:?}: {}",
            self.op, self.code, self.path, self.message
        )
    }
}

impl std::error::Error for PatchError {}

/// An operation's failure, before its index is known.
pub(crate) type Failure = (&'static str, String, String);

fn fail(code: &'static str, path: &str, message: &str) -> Failure {
    (code, path.to_string(), message.to_string())
}

/// Applies a whole patch (a JSON array of operations) atomically: the new
/// document, or the first failure with `doc` untouched.
///
/// ```
/// use serde_json::json;
/// let doc = json!({"a": [1]});
/// let patch = json!([{"op": "add", "path": "/a/-", "value": 2}, {"op": "test", "path": "/a/1", "value": 2.0}]);
/// assert_eq!(validator_wasm::patch::apply_patch(&doc, &patch).unwrap(), json!({"a": [1, 2]}));
/// let bad = json!([{"op": "add", "path": "/a/-", "value": 2}, {"op": "remove", "path": "/b"}]);
/// let e = validator_wasm::patch::apply_patch(&doc, &bad).unwrap_err();
/// assert_eq!((e.op, e.code), (1, "path_not_found"));
/// ```
pub fn apply_patch(doc: &Value, patch: &Value) -> Result<Value, PatchError> {
    let Some(ops) = patch.as_array() else {
        return Err(PatchError {
            op: 0,
            code: "invalid_operation",
            path: String::new(),
            message: "a patch is a JSON array of operations".into(),
        });
    };
    let mut work = doc.clone();
    for (i, op) in ops.iter().enumerate() {
        apply_operation(&mut work, op).map_err(|(code, path, message)| PatchError {
            op: i,
            code,
            path,
            message,
        })?;
    }
    Ok(work)
}

/// Applies one operation in place; on failure `doc` is unchanged (every
/// check happens before the change, a `move` checks its target first).
pub(crate) fn apply_operation(doc: &mut Value, op: &Value) -> Result<(), Failure> {
    let Some(map) = op.as_object() else {
        return Err(fail(
            "invalid_operation",
            "",
            "an operation is an object {\"op\", \"path\", ...}",
        ));
    };
    let Some(name) = map.get("op").and_then(Value::as_str) else {
        return Err(fail(
            "invalid_operation",
            "",
            "an operation needs \"op\": add, remove, replace, move, copy or test",
        ));
    };
    let Some(path) = map.get("path").and_then(Value::as_str) else {
        return Err(fail(
            "invalid_operation",
            "",
            "an operation needs \"path\", a JSON Pointer string",
        ));
    };
    let value = || {
        map.get("value")
            .ok_or_else(|| fail("invalid_operation", path, "this operation needs \"value\""))
    };
    let from = || {
        map.get("from").and_then(Value::as_str).ok_or_else(|| {
            fail(
                "invalid_operation",
                path,
                "this operation needs \"from\", a JSON Pointer string",
            )
        })
    };
    let segments = parse(path)?;
    match name {
        "add" => add(doc, &segments, value()?.clone(), path),
        "remove" => remove(doc, &segments, path).map(drop),
        "replace" => {
            let v = value()?.clone();
            let target = get_mut(doc, &segments)
                .ok_or_else(|| fail("path_not_found", path, "nothing to replace at this path"))?;
            *target = v;
            Ok(())
        }
        "move" => {
            let from = from()?;
            let from_segments = parse(from)?;
            if from == path {
                return get(doc, &from_segments)
                    .map(drop)
                    .ok_or_else(|| fail("path_not_found", from, "nothing to move at \"from\""));
            }
            if path.starts_with(from) && path.as_bytes().get(from.len()) == Some(&b'/') {
                return Err(fail(
                    "invalid_move",
                    path,
                    "a value cannot be moved into one of its own children",
                ));
            }
            check_add_target(doc, &segments, path, Some(&from_segments))?;
            let v = remove(doc, &from_segments, from)?;
            add(doc, &segments, v, path)
        }
        "copy" => {
            let from = from()?;
            let v = get(doc, &parse(from)?)
                .cloned()
                .ok_or_else(|| fail("path_not_found", from, "nothing to copy at \"from\""))?;
            add(doc, &segments, v, path)
        }
        "test" => {
            let expected = value()?;
            let actual = get(doc, &segments)
                .ok_or_else(|| fail("test_failed", path, "test failed: nothing at this path"))?;
            if surfaces_core::json_equal(&actual, &expected) {
                Ok(())
            } else {
                Err(fail("test_failed", path, "test failed: the value differs"))
            }
        }
        other => Err(fail(
            "invalid_operation",
            path,
            &[
                "unknown op \"",
                other,
                "\"; use add, remove, replace, move, copy or test",
            ]
            .concat(),
        )),
    }
}

fn parse(path: &str) -> Result<Vec<Cow<'_, str>>, Failure> {
    pointer::parse(path).map_err(|e| fail(e.code(), path, e.message()))
}

pub(crate) fn get<'a>(doc: &'a Value, segments: &[Cow<'_, str>]) -> Option<&'a Value> {
    let mut at = doc;
    for seg in segments {
        at = match at {
            Value::Object(map) => map.get(seg.as_ref())?,
            Value::Array(items) => items.get(array_index(seg)?)?,
            _ => return None,
        };
    }
    Some(at)
}

fn get_mut<'a>(doc: &'a mut Value, segments: &[Cow<'_, str>]) -> Option<&'a mut Value> {
    let mut at = doc;
    for seg in segments {
        at = match at {
            Value::Object(map) => map.get_mut(seg.as_ref())?,
            Value::Array(items) => items.get_mut(array_index(seg)?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Checks that `add` at `segments` can succeed (after removing `moving`,
/// for a move), without changing anything.
fn check_add_target(
    doc: &Value,
    segments: &[Cow<'_, str>],
    path: &str,
    moving: Option<&[Cow<'_, str>]>,
) -> Result<(), Failure> {
    let Some((last, parent)) = segments.split_last() else {
        return Ok(());
    };
    match get(doc, parent) {
        Some(Value::Object(_)) => Ok(()),
        Some(Value::Array(items)) => {
            // A move out of this same array shortens it first.
            let shrink = usize::from(
                moving.is_some_and(|m| m.len() == segments.len() && m[..parent.len()] == *parent),
            );
            let len = items.len() - shrink.min(items.len());
            match array_index(last) {
                _ if last == "-" => Ok(()),
                Some(i) if i <= len => Ok(()),
                _ => Err(fail(
                    "path_not_found",
                    path,
                    "the array index is out of range (use - to append)",
                )),
            }
        }
        _ => Err(fail(
            "path_not_found",
            path,
            "the parent of this path does not exist",
        )),
    }
}

fn add(
    doc: &mut Value,
    segments: &[Cow<'_, str>],
    value: Value,
    path: &str,
) -> Result<(), Failure> {
    let Some((last, parent)) = segments.split_last() else {
        *doc = value;
        return Ok(());
    };
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => {
            map.insert(last.to_string(), value);
            Ok(())
        }
        Some(Value::Array(items)) => {
            if last == "-" {
                items.push(value);
                return Ok(());
            }
            match array_index(last) {
                Some(i) if i <= items.len() => {
                    items.insert(i, value);
                    Ok(())
                }
                _ => Err(fail(
                    "path_not_found",
                    path,
                    "the array index is out of range (use - to append)",
                )),
            }
        }
        _ => Err(fail(
            "path_not_found",
            path,
            "the parent of this path does not exist",
        )),
    }
}

fn remove(doc: &mut Value, segments: &[Cow<'_, str>], path: &str) -> Result<Value, Failure> {
    let Some((last, parent)) = segments.split_last() else {
        return Err(fail(
            "invalid_operation",
            path,
            "the whole document cannot be removed; replace it instead",
        ));
    };
    let missing = || fail("path_not_found", path, "nothing to remove at this path");
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => map.shift_remove(last.as_ref()).ok_or_else(missing),
        Some(Value::Array(items)) => match array_index(last) {
            Some(i) if i < items.len() => Ok(items.remove(i)),
            _ => Err(missing()),
        },
        _ => Err(missing()),
    }
}
