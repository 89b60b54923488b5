//! What the loader asks of the shared rules besides evaluating: values
//! made from what a call returns, and where a write at a pointer goes.

use surfaces_core::function::Value;
use surfaces_core::{pointer, JsonView, Kind};

/// A value the runtime hands the loader to hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum New<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Num(f64),
    /// A string.
    Str(&'a str),
}

/// What a literal, binding or call gave, as a value the loader holds
/// (`new` makes one): a bound path that does not resolve is `null`.
pub fn value<V>(v: Value<V>, new: impl FnOnce(New<'_>) -> V) -> V {
    match v {
        Value::Data(v) => v,
        Value::Missing => new(New::Null),
        Value::Text(t) => new(New::Str(&t)),
        Value::Number(n) => new(New::Num(n)),
        Value::Bool(b) => new(New::Bool(b)),
    }
}

/// Finds where writing at `path` in `root` goes and hands it to `write`:
/// `(None, "", None)` for the whole state (the empty pointer), `(Some(object),
/// key, None)` for an object member (added or replaced), `(Some(array), "",
/// Some(index))` for an array item (replaced, or appended when the index is
/// the length; `-` means the length). `false`, and `write` not called, when
/// the path is invalid or unsafe, or its parent does not exist.
pub fn place<V: JsonView>(
    root: &V,
    path: &str,
    write: impl FnOnce(Option<V>, &str, Option<usize>),
) -> bool {
    let Ok(segments) = pointer::parse(path) else {
        return false;
    };
    let Some((last, parents)) = segments.split_last() else {
        write(None, "", None);
        return true;
    };
    let mut at = root.clone();
    for segment in parents {
        let next = match at.kind() {
            Kind::Object => at.get(segment),
            Kind::Array => pointer::array_index(segment).and_then(|i| at.index(i)),
            _ => None,
        };
        let Some(next) = next else {
            return false;
        };
        at = next;
    }
    match at.kind() {
        Kind::Object => write(Some(at), last, None),
        Kind::Array => {
            let len = at.len();
            let i = if last == "-" {
                len
            } else {
                match pointer::array_index(last) {
                    Some(i) if i <= len => i,
                    _ => return false,
                }
            };
            write(Some(at), "", Some(i));
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Where a write goes: the parent (`None`: the root), key and index.
    fn at<'a>(root: &'a Value, path: &str) -> Option<(Option<&'a Value>, String, Option<usize>)> {
        let mut found = None;
        let written = place(&root, path, |at, key, index| {
            found = Some((at, String::from(key), index))
        });
        assert_eq!(written, found.is_some(), "{path}");
        found
    }

    #[test]
    fn writes_add_replace_and_append() {
        let v = json!({"a": [1], "o": {"x": 1}});
        let member = |parent, key: &str| Some((Some(parent), String::from(key), None));
        let item = |parent, i| Some((Some(parent), String::new(), Some(i)));
        assert_eq!(at(&v, ""), Some((None, String::new(), None)));
        assert_eq!(at(&v, "/b"), member(&v, "b"));
        assert_eq!(at(&v, "/o/x"), member(&v["o"], "x"));
        assert_eq!(at(&v, "/a~1b"), member(&v, "a/b"));
        assert_eq!(at(&v, "/a/0"), item(&v["a"], 0));
        assert_eq!(at(&v, "/a/1"), item(&v["a"], 1));
        assert_eq!(at(&v, "/a/-"), item(&v["a"], 1));
    }

    #[test]
    fn writes_without_a_parent_or_past_the_end_are_refused() {
        let v = json!({"a": [1], "n": 1});
        for path in [
            "/x/y", "/n/b", "/a/2", "/a/01", "/a/x", "/a/0/b", "no-slash", "/a~2",
        ] {
            assert_eq!(at(&v, path), None, "{path}");
        }
    }

    #[test]
    fn prototype_paths_are_refused() {
        let v = json!({"__proto__": {"polluted": true}, "x": {}});
        for path in [
            "/__proto__",
            "/__proto__/polluted",
            "/constructor",
            "/x/prototype",
        ] {
            assert_eq!(at(&v, path), None, "{path}");
        }
    }
}
