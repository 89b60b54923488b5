//! JSON Pointer (RFC 6901): parsing, escaping, resolving, and the safety rule
//! that refuses prototype-polluting segments.

use crate::view::{JsonView, Kind};
use alloc::string::String;
use alloc::vec::Vec;

/// Segments no path may contain: writing them in JavaScript reaches the
/// prototype chain.
pub const UNSAFE_SEGMENTS: [&str; 3] = ["__proto__", "constructor", "prototype"];

/// Why a pointer is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerError {
    /// Not RFC 6901: non-empty without a leading `/`, or a `~` not followed by `0` or `1`.
    Invalid,
    /// A segment is `__proto__`, `constructor` or `prototype`.
    Unsafe,
}

impl PointerError {
    /// The issue code: `invalid_pointer` or `unsafe_path`.
    pub fn code(self) -> &'static str {
        match self {
            PointerError::Invalid => "invalid_pointer",
            PointerError::Unsafe => "unsafe_path",
        }
    }

    /// A sentence a model can act on.
    pub fn message(self) -> &'static str {
        match self {
            PointerError::Invalid => {
                "a path is a JSON Pointer such as \"/billing\": empty or starting with /, with ~ written ~0 and / written ~1"
            }
            PointerError::Unsafe => {
                "a path may not contain the segments __proto__, constructor or prototype"
            }
        }
    }
}

/// Parses a pointer into its unescaped segments (`""` is the whole document).
///
/// ```
/// use surfaces_core::pointer::{parse, PointerError};
/// assert_eq!(parse("/a~1b/~0c/0").unwrap(), ["a/b", "~c", "0"]);
/// assert_eq!(parse("a"), Err(PointerError::Invalid));
/// assert_eq!(parse("/x/__proto__"), Err(PointerError::Unsafe));
/// ```
pub fn parse(pointer: &str) -> Result<Vec<String>, PointerError> {
    let mut segments = Vec::new();
    if pointer.is_empty() {
        return Ok(segments);
    }
    // One byte loop (no `split`, no string searcher in the wasm runtime):
    // `/` and `~` are ASCII, so the segments stay UTF-8.
    let mut bytes = pointer.bytes();
    if bytes.next() != Some(b'/') {
        return Err(PointerError::Invalid);
    }
    let mut segment = Vec::new();
    loop {
        let next = bytes.next();
        match next {
            Some(b'/') | None => {
                // SAFETY: `segment` holds `pointer`'s bytes between two
                // ASCII `/` (or its ends), with the ASCII `~0`/`~1` pairs
                // replaced by ASCII bytes: whole UTF-8 characters.
                let text = unsafe { String::from_utf8_unchecked(core::mem::take(&mut segment)) };
                if UNSAFE_SEGMENTS.contains(&text.as_str()) {
                    return Err(PointerError::Unsafe);
                }
                segments.push(text);
                if next.is_none() {
                    return Ok(segments);
                }
            }
            Some(b'~') => segment.push(match bytes.next() {
                Some(b'0') => b'~',
                Some(b'1') => b'/',
                _ => return Err(PointerError::Invalid),
            }),
            Some(b) => segment.push(b),
        }
    }
}

/// Checks a pointer without keeping its segments.
pub fn check(pointer: &str) -> Result<(), PointerError> {
    parse(pointer).map(|_| ())
}

/// Appends `segment`, escaped, to the pointer in `pointer`.
///
/// ```
/// let mut p = String::from("/data");
/// surfaces_core::pointer::push(&mut p, "a/b~");
/// assert_eq!(p, "/data/a~1b~0");
/// ```
pub fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if !segment.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            _ => pointer.push(c),
        }
    }
}

/// Appends an array index to the pointer in `pointer`.
pub fn push_index(pointer: &mut String, index: usize) {
    pointer.push('/');
    push_decimal(pointer, index);
}

/// Writes `n` in decimal without `core::fmt`.
pub fn push_decimal(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

/// Reads an RFC 6901 array index: decimal digits, no leading zero.
pub fn array_index(segment: &str) -> Option<usize> {
    let bytes = segment.as_bytes();
    if bytes.is_empty() || (bytes.len() > 1 && bytes.first() == Some(&b'0')) {
        return None;
    }
    // Digits only, accumulated with overflow checks (what `str::parse`
    // does, without its error type).
    bytes.iter().try_fold(0usize, |n, b| {
        let digit = b.checked_sub(b'0').filter(|d| *d < 10)?;
        n.checked_mul(10)?.checked_add(usize::from(digit))
    })
}

/// The value `pointer` addresses in `root`, or `None` when it does not
/// resolve (or is not a valid, safe pointer).
///
/// ```
/// use surfaces_core::pointer::resolve;
/// let data = serde_json::json!({"plans": [{"name": "Pro"}]});
/// assert_eq!(resolve(&&data, "/plans/0/name").and_then(|v| v.as_str()), Some("Pro"));
/// assert!(resolve(&&data, "/plans/1").is_none());
/// ```
pub fn resolve<V: JsonView>(root: &V, pointer: &str) -> Option<V> {
    let segments = parse(pointer).ok()?;
    let mut at = root.clone();
    for segment in &segments {
        at = match at.kind() {
            Kind::Object => at.get(segment)?,
            Kind::Array => at.index(array_index(segment)?)?,
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6901_examples_parse() {
        assert_eq!(parse("").unwrap().len(), 0);
        assert_eq!(parse("/").unwrap(), [""]);
        assert_eq!(parse("/a~1b").unwrap(), ["a/b"]);
        assert_eq!(parse("/m~0n").unwrap(), ["m~n"]);
        assert_eq!(parse("/ /%25").unwrap(), [" ", "%25"]);
        assert_eq!(parse("/~01").unwrap(), ["~1"]);
    }

    #[test]
    fn invalid_pointers_are_refused() {
        for p in ["a", "#/a", "/a~", "/a~2", "/~x", "a/b"] {
            assert_eq!(parse(p), Err(PointerError::Invalid), "{p}");
            assert_eq!(check(p).map_err(PointerError::code), Err("invalid_pointer"));
        }
    }

    #[test]
    fn prototype_segments_are_unsafe() {
        for p in [
            "/__proto__",
            "/a/constructor",
            "/prototype/x",
            "/__proto__/0",
        ] {
            assert_eq!(parse(p), Err(PointerError::Unsafe), "{p}");
            assert_eq!(check(p).map_err(PointerError::code), Err("unsafe_path"));
        }
        assert!(parse("/__proto").is_ok());
        assert!(parse("/Constructor").is_ok());
        assert!(!PointerError::Unsafe.message().is_empty());
        assert!(!PointerError::Invalid.message().is_empty());
    }

    #[test]
    fn push_escapes_and_round_trips() {
        let mut p = String::new();
        push(&mut p, "a/b");
        push(&mut p, "~");
        push_index(&mut p, 120);
        assert_eq!(p, "/a~1b/~0/120");
        assert_eq!(parse(&p).unwrap(), ["a/b", "~", "120"]);
        let mut z = String::new();
        push_decimal(&mut z, 0);
        assert_eq!(z, "0");
    }

    #[test]
    fn array_indexes_are_canonical() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("17"), Some(17));
        assert_eq!(array_index("01"), None);
        assert_eq!(array_index("-"), None);
        assert_eq!(array_index(""), None);
        assert_eq!(array_index("1e2"), None);
        assert_eq!(array_index("99999999999999999999999"), None);
    }

    #[cfg(feature = "serde_json")]
    #[test]
    fn resolves_objects_and_arrays() {
        let data = serde_json::json!({"a": {"b": [10, 20]}, "": 1, "x/y": 2});
        assert_eq!(resolve(&&data, "/a/b/1").and_then(|v| v.as_i64()), Some(20));
        assert_eq!(resolve(&&data, "/").and_then(|v| v.as_i64()), Some(1));
        assert_eq!(resolve(&&data, "/x~1y").and_then(|v| v.as_i64()), Some(2));
        assert_eq!(resolve(&&data, ""), Some(&data));
        assert!(resolve(&&data, "/a/b/01").is_none());
        assert!(resolve(&&data, "/a/b/-").is_none());
        assert!(resolve(&&data, "/a/b/1/c").is_none());
        assert!(resolve(&&data, "a").is_none());
    }
}
