//! RFC 6902 JSON Patch over `serde_json::Value`: one operation at a time, or
//! a whole patch atomically (`apply_patch`).
//!
//! Pointers follow core's rule, so a path through `__proto__`, `constructor`
//! or `prototype` is refused here as everywhere (`unsafe_path`).

use serde_json::Value;
use surfaces_core::pointer::{self, array_index};

/// Why an operation was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchError {
    /// The index of the operation in the patch.
    pub op: usize,
    /// `invalid_operation`, `invalid_pointer`, `unsafe_path`, `path_not_found`,
    /// `invalid_move`, `test_failed` or `document_too_large` (copies past
    /// [`COPY_BUDGET`]).
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
    let mut work = doc.clone();
    apply_patch_in_place(&mut work, patch)?;
    Ok(work)
}

/// [`apply_patch`] on `doc` itself, without copying it: on failure every
/// applied operation is undone, so `doc` is as it was.
pub fn apply_patch_in_place(doc: &mut Value, patch: &Value) -> Result<(), PatchError> {
    let Some(ops) = patch.as_array() else {
        return Err(PatchError {
            op: 0,
            code: "invalid_operation",
            path: String::new(),
            message: "a patch is a JSON array of operations".into(),
        });
    };
    let mut undo = Vec::new();
    let mut budget = COPY_BUDGET;
    for (i, op) in ops.iter().enumerate() {
        match apply_operation(doc, op, &mut budget) {
            Ok(steps) => undo.extend(steps),
            Err((code, path, message)) => {
                revert(doc, undo);
                return Err(PatchError {
                    op: i,
                    code,
                    path,
                    message,
                });
            }
        }
    }
    Ok(())
}

/// How to take back one change.
#[derive(Debug)]
pub(crate) enum Undo {
    /// Remove what was added at this path.
    Remove(Vec<String>),
    /// Put a removed value back: at an array index, or at an object key's
    /// former position.
    Insert(Vec<String>, Value, usize),
    /// Put back the value that was replaced.
    Replace(Vec<String>, Value),
}

/// Takes back changes, last first.
pub(crate) fn revert(doc: &mut Value, undo: Vec<Undo>) {
    for step in undo.into_iter().rev() {
        match step {
            Undo::Remove(path) => {
                let Some((last, parent)) = path.split_last() else {
                    continue;
                };
                match get_mut(doc, parent) {
                    Some(Value::Object(map)) => {
                        map.shift_remove(last.as_str());
                    }
                    Some(Value::Array(items)) => {
                        if let Some(i) = array_index(last).filter(|i| *i < items.len()) {
                            items.remove(i);
                        }
                    }
                    _ => {}
                }
            }
            Undo::Insert(path, value, position) => {
                let Some((last, parent)) = path.split_last() else {
                    continue;
                };
                match get_mut(doc, parent) {
                    Some(Value::Object(map)) => {
                        map.shift_insert(position.min(map.len()), last.clone(), value);
                    }
                    Some(Value::Array(items)) => items.insert(position.min(items.len()), value),
                    _ => {}
                }
            }
            Undo::Replace(path, value) => {
                if let Some(target) = get_mut(doc, &path) {
                    *target = value;
                }
            }
        }
    }
}

/// How much one patch (or one `Draft::apply`) may copy, in weight units
/// (about the bytes of the copies' JSON: each value 1, plus its strings and
/// keys): a `copy` of an array into itself doubles it, so without a bound 40
/// operations ask for 2^40 values.
pub const COPY_BUDGET: usize = crate::surface::MAX_DOCUMENT_BYTES;

/// About the bytes of `value`'s JSON (each value 1, plus the lengths of its
/// strings and keys), or `None` once it passes `limit`; stops there.
fn weight(value: &Value, limit: usize) -> Option<usize> {
    let mut total = 0usize;
    let mut todo = vec![value];
    while let Some(v) = todo.pop() {
        total += 1;
        match v {
            Value::String(s) => total += s.len(),
            Value::Array(items) => todo.extend(items),
            Value::Object(map) => {
                for (k, v) in map {
                    total += k.len();
                    todo.push(v);
                }
            }
            _ => {}
        }
        if total > limit {
            return None;
        }
    }
    Some(total)
}

/// Applies one operation in place; on failure `doc` is unchanged (every
/// check happens before the change). The steps undo it. A `copy` spends
/// its value's [`weight`] from `budget`, and is refused
/// (`document_too_large`) past it.
pub(crate) fn apply_operation(
    doc: &mut Value,
    op: &Value,
    budget: &mut usize,
) -> Result<Vec<Undo>, Failure> {
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
        "add" => Ok(vec![add(doc, &segments, value()?.clone(), path)?]),
        "remove" => {
            let (value, position) = remove(doc, &segments, path)?;
            Ok(vec![Undo::Insert(segments.to_vec(), value, position)])
        }
        "replace" => {
            let v = value()?.clone();
            let target = get_mut(doc, &segments)
                .ok_or_else(|| fail("path_not_found", path, "nothing to replace at this path"))?;
            let old = std::mem::replace(target, v);
            Ok(vec![Undo::Replace(segments.to_vec(), old)])
        }
        "move" => {
            let from = from()?;
            let from_segments = parse(from)?;
            if from == path {
                return get(doc, &from_segments)
                    .map(|_| Vec::new())
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
            let (v, position) = remove(doc, &from_segments, from)?;
            // The undo keeps its own copy: the value itself moves on.
            let undo_remove = Undo::Insert(from_segments.to_vec(), v.clone(), position);
            match add(doc, &segments, v, path) {
                Ok(undo_add) => Ok(vec![undo_remove, undo_add]),
                Err(e) => {
                    revert(doc, vec![undo_remove]);
                    Err(e)
                }
            }
        }
        "copy" => {
            let from = from()?;
            let source = get(doc, &parse(from)?)
                .ok_or_else(|| fail("path_not_found", from, "nothing to copy at \"from\""))?;
            let cost = weight(source, *budget).ok_or_else(|| {
                fail(
                    "document_too_large",
                    path,
                    "the copies of one patch may add at most 2 MiB to the document",
                )
            })?;
            let v = source.clone();
            add(doc, &segments, v, path).map(|undo| {
                *budget -= cost;
                vec![undo]
            })
        }
        "test" => {
            let expected = value()?;
            let actual = get(doc, &segments)
                .ok_or_else(|| fail("test_failed", path, "test failed: nothing at this path"))?;
            if surfaces_core::json_equal(&actual, &expected) {
                Ok(Vec::new())
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

fn parse(path: &str) -> Result<Vec<String>, Failure> {
    pointer::parse(path).map_err(|e| fail(e.code(), path, e.message()))
}

pub(crate) fn get<'a, S: AsRef<str>>(doc: &'a Value, segments: &[S]) -> Option<&'a Value> {
    let mut at = doc;
    for seg in segments {
        let seg = seg.as_ref();
        at = match at {
            Value::Object(map) => map.get(seg)?,
            Value::Array(items) => items.get(array_index(seg)?)?,
            _ => return None,
        };
    }
    Some(at)
}

fn get_mut<'a, S: AsRef<str>>(doc: &'a mut Value, segments: &[S]) -> Option<&'a mut Value> {
    let mut at = doc;
    for seg in segments {
        let seg = seg.as_ref();
        at = match at {
            Value::Object(map) => map.get_mut(seg)?,
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
    segments: &[String],
    path: &str,
    moving: Option<&[String]>,
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
                _ => Err(index_out_of_range(path)),
            }
        }
        _ => Err(no_parent(path)),
    }
}

fn add(doc: &mut Value, segments: &[String], value: Value, path: &str) -> Result<Undo, Failure> {
    let Some((last, parent)) = segments.split_last() else {
        let old = std::mem::replace(doc, value);
        return Ok(Undo::Replace(Vec::new(), old));
    };
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => Ok(match map.insert(last.to_string(), value) {
            Some(old) => Undo::Replace(segments.to_vec(), old),
            None => Undo::Remove(segments.to_vec()),
        }),
        Some(Value::Array(items)) => {
            let index = if last == "-" {
                Some(items.len())
            } else {
                array_index(last)
            };
            match index {
                Some(i) if i <= items.len() => {
                    items.insert(i, value);
                    let mut at = parent.to_vec();
                    at.push(i.to_string());
                    Ok(Undo::Remove(at))
                }
                _ => Err(index_out_of_range(path)),
            }
        }
        _ => Err(no_parent(path)),
    }
}

/// Removes the value at `segments`: the value and its former position.
fn remove(doc: &mut Value, segments: &[String], path: &str) -> Result<(Value, usize), Failure> {
    let Some((last, parent)) = segments.split_last() else {
        return Err(fail(
            "invalid_operation",
            path,
            "the whole document cannot be removed; replace it instead",
        ));
    };
    let missing = || fail("path_not_found", path, "nothing to remove at this path");
    match get_mut(doc, parent) {
        Some(Value::Object(map)) => {
            let position = map
                .keys()
                .position(|k| k == last.as_str())
                .ok_or_else(missing)?;
            Ok((
                map.shift_remove(last.as_str()).ok_or_else(missing)?,
                position,
            ))
        }
        Some(Value::Array(items)) => match array_index(last) {
            Some(i) if i < items.len() => Ok((items.remove(i), i)),
            _ => Err(missing()),
        },
        _ => Err(missing()),
    }
}

/// `path_not_found` for an array index past the end.
fn index_out_of_range(path: &str) -> Failure {
    fail(
        "path_not_found",
        path,
        "the array index is out of range (use - to append)",
    )
}

/// `path_not_found` for a path whose parent does not exist.
fn no_parent(path: &str) -> Failure {
    fail(
        "path_not_found",
        path,
        "the parent of this path does not exist",
    )
}
