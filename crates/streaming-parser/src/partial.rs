//! A lenient reader for JSON cut anywhere: the ghost of an unfinished line.
//!
//! It keeps what is certain and drops what is not: a member whose value was
//! cut is left out, except a cut string under a display key (a key `cuttable`
//! accepts), which is closed where it stops. An RFC 6902 operation's `value`
//! is cut as the prop its `path` writes (`…/props/text`: as `text`), so a
//! display prop being written grows as a ghost component's does. A number at the very end may
//! still grow and is dropped; so are cut literals and cut keys. It never
//! invents a value.

use alloc::string::String;
use serde_json::{Map, Value};

/// Keys whose cut string values may be shown closed in a ghost.
pub const DISPLAY_KEYS: [&str; 5] = ["text", "label", "title", "description", "message"];

/// Whether `key` is one of [`DISPLAY_KEYS`].
pub fn is_display_key(key: &str) -> bool {
    DISPLAY_KEYS.contains(&key)
}

/// What was read of a value: the value and whether it was complete.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    /// The value as far as it is certain.
    pub value: Value,
    /// The value ended before the text did.
    pub complete: bool,
}

/// Reads `text` leniently. Returns `None` when nothing certain starts it.
/// The top level's complete members are reported through
/// [`Partial::value`]; use [`top_members`] to learn which were complete.
pub fn parse(text: &str, cuttable: fn(&str) -> bool) -> Option<Partial> {
    let mut reader = Reader::new(text, cuttable);
    reader.value(None)
}

/// Reads a top-level object leniently and reports, for each member, its
/// value and whether that value was complete.
pub fn top_members(text: &str, cuttable: fn(&str) -> bool) -> Option<Map<String, Value>> {
    let mut reader = Reader::new(text, cuttable);
    if reader.peek() != Some(b'{') {
        return None;
    }
    reader.at += 1;
    let mut members = Map::new();
    let mut complete = Map::new();
    reader.members(&mut members, Some(&mut complete));
    let mut out = Map::new();
    for (key, value) in members {
        let done = complete.get(&key).and_then(Value::as_bool).unwrap_or(false);
        out.insert(key, Value::Array(alloc::vec![value, Value::Bool(done)]));
    }
    Some(out)
}

/// Whether an object in `text` names a key twice, as far as it can be
/// read: JSON parsers disagree on which one counts (RFC 8259, section 4).
pub fn repeats_a_key(text: &str) -> bool {
    let mut reader = Reader::new(text, |_| false);
    reader.value(None);
    reader.repeated
}

const MAX_DEPTH: usize = 64;

/// The key a cut string under `key` in `object` (its members read before
/// it) is cut as: an operation's `value` as the prop its `path` writes,
/// else `key`.
///
/// ```
/// use serde_json::json;
/// use streaming_parser::partial::cut_as;
///
/// let op = json!({"op": "replace", "path": "/components/1/props/text"});
/// assert_eq!(cut_as(op.as_object().unwrap(), "value"), "text");
/// let data = json!({"path": "/props/text"}); // no op: not an operation
/// assert_eq!(cut_as(data.as_object().unwrap(), "value"), "value");
/// ```
pub fn cut_as<'k>(object: &'k Map<String, Value>, key: &'k str) -> &'k str {
    let written = || {
        object.get("op")?.as_str()?;
        let (to, prop) = object.get("path")?.as_str()?.rsplit_once('/')?;
        to.ends_with("/props").then_some(prop)
    };
    match key {
        "value" => written().unwrap_or(key),
        _ => key,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
    cuttable: fn(&str) -> bool,
    depth: usize,
    /// An object read so far names a key twice.
    repeated: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the first non-blank byte of `text`.
    fn new(text: &'a str, cuttable: fn(&str) -> bool) -> Reader<'a> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            text,
            at: 0,
            cuttable,
            depth: 0,
            repeated: false,
        };
        reader.white();
        reader
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn white(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self, key: Option<&str>) -> Option<Partial> {
        match self.peek()? {
            b'{' => {
                if self.depth >= MAX_DEPTH {
                    return None;
                }
                self.at += 1;
                self.depth += 1;
                let mut map = Map::new();
                let complete = self.members(&mut map, None);
                self.depth -= 1;
                Some(Partial {
                    value: Value::Object(map),
                    complete,
                })
            }
            b'[' => {
                if self.depth >= MAX_DEPTH {
                    return None;
                }
                self.at += 1;
                self.depth += 1;
                let result = self.items(key);
                self.depth -= 1;
                Some(result)
            }
            b'"' => {
                let (s, complete) = self.string()?;
                if complete || key.is_some_and(self.cuttable) {
                    Some(Partial {
                        value: Value::String(s),
                        complete,
                    })
                } else {
                    None
                }
            }
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'n' => self.literal("null", Value::Null),
            _ => self.number(),
        }
    }

    /// Reads members after `{`; returns whether the object closed.
    fn members(
        &mut self,
        map: &mut Map<String, Value>,
        mut complete: Option<&mut Map<String, Value>>,
    ) -> bool {
        loop {
            self.white();
            match self.peek() {
                None => return false,
                Some(b'}') => {
                    self.at += 1;
                    return true;
                }
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                Some(b'"') => {}
                Some(_) => return false,
            }
            let Some((key, true)) = self.string() else {
                return false;
            };
            self.white();
            if self.peek() != Some(b':') {
                return false;
            }
            self.at += 1;
            self.white();
            let Some(member) = self.value(Some(cut_as(map, &key))) else {
                return false;
            };
            if let Some(done) = complete.as_deref_mut() {
                done.insert(key.clone(), Value::Bool(member.complete));
            }
            self.repeated |= map.insert(key, member.value).is_some();
            if !member.complete {
                return false;
            }
        }
    }

    fn items(&mut self, key: Option<&str>) -> Partial {
        let mut items = alloc::vec::Vec::new();
        loop {
            self.white();
            match self.peek() {
                None => break,
                Some(b']') => {
                    self.at += 1;
                    return Partial {
                        value: Value::Array(items),
                        complete: true,
                    };
                }
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                Some(_) => {}
            }
            let Some(item) = self.value(key) else { break };
            let complete = item.complete;
            items.push(item.value);
            if !complete {
                break;
            }
        }
        Partial {
            value: Value::Array(items),
            complete: false,
        }
    }

    /// Reads a string at `"`; `(text, closed)`, `None` if malformed.
    fn string(&mut self) -> Option<(String, bool)> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let rest = self.text.get(self.at..)?;
            let stop = rest.find(['"', '\\']);
            match stop {
                None => {
                    out.push_str(rest);
                    self.at = self.bytes.len();
                    return Some((out, false));
                }
                Some(i) => {
                    out.push_str(rest.get(..i)?);
                    self.at += i;
                }
            }
            if self.peek() == Some(b'"') {
                self.at += 1;
                return Some((out, true));
            }
            // A backslash escape.
            self.at += 1;
            let Some(e) = self.peek() else {
                return Some((out, false));
            };
            self.at += 1;
            let c = match (e, surfaces_core::json::short_escape(e)) {
                (_, Some(c)) => c,
                (b'u', None) => match self.unicode_escape() {
                    Some(Some(c)) => c,
                    Some(None) => return Some((out, false)),
                    None => return None,
                },
                _ => return None,
            };
            out.push(c);
        }
    }

    /// Reads the hex digits after `\u`: `Some(None)` if cut.
    fn unicode_escape(&mut self) -> Option<Option<char>> {
        let first = match self.hex4() {
            Some(Some(v)) => v,
            Some(None) => return Some(None),
            None => return None,
        };
        if (0xD800..0xDC00).contains(&first) {
            // A high surrogate needs its low half.
            match (self.peek(), self.bytes.get(self.at + 1)) {
                (None, _) | (Some(b'\\'), None) => return Some(None),
                (Some(b'\\'), Some(b'u')) => {
                    self.at += 2;
                    let low = match self.hex4() {
                        Some(Some(v)) => v,
                        Some(None) => return Some(None),
                        None => return None,
                    };
                    let code =
                        0x10000 + ((first - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    return Some(Some(char::from_u32(code).unwrap_or('\u{FFFD}')));
                }
                _ => return Some(Some('\u{FFFD}')),
            }
        }
        Some(Some(char::from_u32(first).unwrap_or('\u{FFFD}')))
    }

    fn hex4(&mut self) -> Option<Option<u32>> {
        let mut v = 0u32;
        for _ in 0..4 {
            let Some(b) = self.peek() else {
                return Some(None);
            };
            let d = (b as char).to_digit(16)?;
            v = v * 16 + d;
            self.at += 1;
        }
        Some(Some(v))
    }

    fn literal(&mut self, word: &str, value: Value) -> Option<Partial> {
        let rest = self.text.get(self.at..)?;
        if rest.starts_with(word) {
            self.at += word.len();
            Some(Partial {
                value,
                complete: true,
            })
        } else {
            None
        }
    }

    fn number(&mut self) -> Option<Partial> {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.at += 1;
        }
        if self.at == start || self.at == self.bytes.len() {
            // Nothing numeric, or it may still grow.
            return None;
        }
        let text = self.text.get(start..self.at)?;
        let value: Value = surfaces_core::json::parse(text).ok()?;
        Some(Partial {
            value,
            complete: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(text: &str) -> Option<Value> {
        parse(text, is_display_key).map(|p| p.value)
    }

    #[test]
    fn complete_values_read_as_json() {
        assert_eq!(
            p(r#"{"a":[1,true,null,"x"],"b":{"c":-1.5e2}}"#),
            Some(json!({"a":[1,true,null,"x"],"b":{"c":-150.0}}))
        );
        assert_eq!(parse("[1]", is_display_key).map(|p| p.complete), Some(true));
    }

    #[test]
    fn cut_strings_close_only_under_display_keys() {
        assert_eq!(p(r#"{"text":"Hel"#), Some(json!({"text":"Hel"})));
        assert_eq!(p(r#"{"id":"ro"#), Some(json!({})));
        assert_eq!(
            p(r#"{"props":{"label":"Mon","value":{"path":"/bil"#),
            Some(json!({"props":{"label":"Mon","value":{}}}))
        );
        assert_eq!(p(r#"{"options":["a","b"#), Some(json!({"options":["a"]})));
    }

    #[test]
    fn an_operations_value_is_cut_as_the_prop_it_writes() {
        let op =
            |path: &str| format!(r#"{{"ops":[{{"op":"replace","path":"{path}","value":"New ti"#);
        assert_eq!(
            p(&op("/components/1/props/text")),
            Some(
                json!({"ops":[{"op":"replace","path":"/components/1/props/text","value":"New ti"}]})
            )
        );
        for path in ["/components/1/props/href", "/components/1/id", "/data/text"] {
            assert_eq!(
                p(&op(path)),
                Some(json!({"ops":[{"op":"replace","path":path}]})),
                "{path}"
            );
        }
        // Not an operation (no op before it): an A2UI data update's value.
        assert_eq!(
            p(r#"{"path":"/props/text","value":"Hel"#),
            Some(json!({"path":"/props/text"}))
        );
    }

    #[test]
    fn numbers_and_literals_at_the_end_are_dropped() {
        assert_eq!(p(r#"{"a":12"#), Some(json!({})));
        assert_eq!(p(r#"{"a":12,"b":tr"#), Some(json!({"a":12})));
        assert_eq!(p(r#"{"a":true"#), Some(json!({"a":true})));
    }

    #[test]
    fn cut_keys_and_escapes() {
        assert_eq!(p(r#"{"a":1,"te"#), Some(json!({"a":1})));
        assert_eq!(
            p(r#"{"text":"a\"b\u00e9\ud83d\ude00c\"#),
            Some(json!({"text":"a\"bé😀c"}))
        );
        assert_eq!(p(r#"{"text":"x\u00"#), Some(json!({"text":"x"})));
        assert_eq!(p(r#"{"text":"x\ud83d"#), Some(json!({"text":"x"})));
        assert_eq!(p(r#"{"text":"x\q"}"#), Some(json!({})));
    }

    #[test]
    fn nothing_certain() {
        assert_eq!(p(""), None);
        assert_eq!(p("x"), None);
        assert_eq!(p("\"ab"), None);
    }

    #[test]
    fn top_members_report_completeness() {
        let m = top_members(r#"{"id":"a","component":"Hea"#, is_display_key).unwrap();
        assert_eq!(m.get("id"), Some(&json!(["a", true])));
        assert_eq!(m.get("component"), None);
        let m = top_members(r#"{"props":{"text":"x"#, is_display_key).unwrap();
        assert_eq!(m.get("props"), Some(&json!([{"text":"x"}, false])));
        assert_eq!(top_members("[1]", is_display_key), None);
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(1000);
        assert!(p(&deep).is_some());
    }
}
