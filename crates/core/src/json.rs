//! JSON text into a `serde_json::Value` and back: the one reader and the
//! one writer of JSON text for every part built over serde_json (the
//! validator, the streaming parser, the renderer, interop), and the size a
//! value's text has, counted by the writer itself.
//!
//! It accepts exactly what `serde_json::from_str::<Value>` accepts (RFC 8259
//! text, nesting below 128 levels, no lone surrogate in a `\u` escape, no
//! control character in a string, no number out of `f64`'s range) and
//! gives the same value: an integer that fits `u64` or `i64` is one, any
//! other number is read by serde_json's own `Number` reader, and a key
//! given twice keeps its first place and its last value, as serde_json's
//! map does. The error kinds, lines and columns are serde_json's too, but
//! for a number out of range: at its last digit (serde_json's is where its
//! reader noticed, which depends on the digits).
//!
//! [`text`] writes a value compactly, byte for byte as `serde_json::to_string`
//! does (strings escaped with the short escapes and `\u00xx`, numbers as
//! serde_json's `Number` writes them); [`size`]
//! runs the same writer into a counter that stops past a limit, so a size
//! is the length of the text, never a second account of the escapes.
//!
//! # Why not `serde_json::from_str` and `to_string`
//! Speed: reading a surface was the largest part of validating one. This
//! reader goes straight to the value, without serde's visitor calls, and
//! builds each object and list once, at its size: members and items wait
//! on two stacks shared by every level, so a map never grows (its hash
//! table rebuilt at each doubling) and a list never reallocates. A string
//! without escapes is one copy of its bytes, found eight bytes at a time.
//! The writer is one function over `&mut dyn fmt::Write` (a `String`, or
//! the counter): as fast as serde_json's writer in wasm, and 249 B gzip
//! smaller in Studio than it with the validator's own size count, which
//! it replaces.
//!
//! ```
//! use surfaces_core::json::{parse, ErrorKind};
//! let value = parse(r#"{"a": [1, -2, 0.5, "x\u00e9"], "a": true}"#).unwrap();
//! assert_eq!(value, serde_json::json!({"a": true}));
//! assert_eq!(parse("0.1").unwrap().as_f64(), Some(0.1));
//! assert_eq!(parse("-0").unwrap().to_string(), "-0.0"); // as serde_json reads it
//!
//! let error = parse("{\"a\":\n  tru}").unwrap_err();
//! assert_eq!(error.kind, ErrorKind::ExpectedIdent);
//! assert_eq!(error.to_string(), "expected ident at line 2 column 6");
//! assert_eq!(parse(&"[".repeat(128)).unwrap_err().kind, ErrorKind::TooDeep);
//!
//! use surfaces_core::json::{size, text};
//! let value = parse(r#"{"b": "a\"b\n\u0001é", "n": [-1, 2.5e-7, 1e300]}"#).unwrap();
//! assert_eq!(text(&value), r#"{"b":"a\"b\n\u0001é","n":[-1,2.5e-7,1e+300]}"#);
//! assert_eq!(size(&value, usize::MAX), Some(text(&value).len()));
//! assert_eq!(size(&value, 10), None); // longer than 10 bytes
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde_json::{Map, Number, Value};

/// How deep containers nest before the text is refused (serde_json's
/// recursion limit: the 128th level is refused).
const DEPTH: usize = 128;

/// The deepest nesting [`parse`] reads: a value nesting deeper has no text
/// that this reader (or serde_json) takes back, so what builds values
/// from parts (a data write through a path) keeps within it.
pub const MAX_LEVELS: usize = DEPTH - 1;

/// How many levels of containers `value` nests: 0 for a scalar, 1 for
/// `[]` or `[1]`, 2 for `[[]]`. Walked without recursion, so any depth
/// is fine.
///
/// ```
/// use surfaces_core::json::{levels, parse};
/// assert_eq!(levels(&parse(r#"{"a": [1, {"b": []}], "c": 2}"#).unwrap()), 4);
/// assert_eq!(levels(&parse("7").unwrap()), 0);
/// ```
pub fn levels(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = Vec::new();
    pending.push((value, 1));
    while let Some((value, level)) = pending.pop() {
        // (Pushed one by one: an extend over each iterator type is a
        // copy of Vec's extend code per type in the module.)
        match value {
            Value::Array(items) => items.iter().for_each(|v| pending.push((v, level + 1))),
            Value::Object(map) => map.values().for_each(|v| pending.push((v, level + 1))),
            _ => continue,
        }
        deepest = deepest.max(level);
    }
    deepest
}

/// What was wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// 1-based, as the text's lines count.
    pub line: usize,
    /// 1-based, in bytes from the line's start: the byte at fault, or the
    /// text's last when it ended too soon.
    pub column: usize,
}

/// The kinds of error, named as serde_json names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    EofWhileParsingValue,
    EofWhileParsingString,
    EofWhileParsingList,
    EofWhileParsingObject,
    ExpectedValue,
    ExpectedIdent,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    KeyMustBeAString,
    InvalidNumber,
    NumberOutOfRange,
    InvalidEscape,
    UnexpectedEndOfHexEscape,
    LoneLeadingSurrogateInHexEscape,
    ControlCharacterWhileParsingString,
    TrailingCharacters,
    TrailingComma,
    TooDeep,
}

impl ErrorKind {
    fn text(self) -> &'static str {
        match self {
            ErrorKind::EofWhileParsingValue => "EOF while parsing a value",
            ErrorKind::EofWhileParsingString => "EOF while parsing a string",
            ErrorKind::EofWhileParsingList => "EOF while parsing a list",
            ErrorKind::EofWhileParsingObject => "EOF while parsing an object",
            ErrorKind::ExpectedValue => "expected value",
            ErrorKind::ExpectedIdent => "expected ident",
            ErrorKind::ExpectedColon => "expected `:`",
            ErrorKind::ExpectedListCommaOrEnd => "expected `,` or `]`",
            ErrorKind::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            ErrorKind::KeyMustBeAString => "key must be a string",
            ErrorKind::InvalidNumber => "invalid number",
            ErrorKind::NumberOutOfRange => "number out of range",
            ErrorKind::InvalidEscape => "invalid escape",
            ErrorKind::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            ErrorKind::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            ErrorKind::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            ErrorKind::TrailingCharacters => "trailing characters",
            ErrorKind::TrailingComma => "trailing comma",
            ErrorKind::TooDeep => "recursion limit exceeded",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, line, column) = (self.kind.text(), self.line, self.column);
        write!(f, "{kind} at line {line} column {column}")
    }
}

/// Parses JSON text into a value (see the module docs).
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: DEPTH,
        members: Vec::new(),
        items: Vec::new(),
    };
    let value = reader.value();
    let value = value.and_then(|value| {
        reader.skip_space();
        match reader.at < reader.bytes.len() {
            true => Err(ErrorKind::TrailingCharacters),
            false => Ok(value),
        }
    });
    value.map_err(|kind| reader.error(kind))
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// The levels left before [`DEPTH`].
    depth: usize,
    /// The members of the objects being read, innermost last.
    members: Vec<(String, Value)>,
    /// The items of the lists being read, innermost last.
    items: Vec<Value>,
}

type Read<T> = Result<T, ErrorKind>;

impl Reader<'_> {
    fn error(&self, kind: ErrorKind) -> Error {
        // Up to and with the byte at fault, as serde_json counts.
        let upto = &self.bytes[..(self.at + 1).min(self.bytes.len())];
        let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Error {
            kind,
            line: 1 + upto.iter().filter(|&&b| b == b'\n').count(),
            column: upto.len() - line_start,
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline(always)]
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The next byte after white space (not consumed).
    #[inline(always)]
    fn next_token(&mut self) -> Option<u8> {
        self.skip_space();
        self.peek()
    }

    fn value(&mut self) -> Read<Value> {
        self.skip_space();
        let Some(b) = self.peek() else {
            return Err(ErrorKind::EofWhileParsingValue);
        };
        if let b'-' | b'0'..=b'9' = b {
            return self.number();
        }
        self.at += 1;
        match b {
            b'{' => self.object(),
            b'[' => self.list(),
            b'"' => self.string().map(Value::String),
            b't' => self.literal(b"rue", Value::Bool(true)),
            b'f' => self.literal(b"alse", Value::Bool(false)),
            b'n' => self.literal(b"ull", Value::Null),
            _ => {
                self.at -= 1;
                Err(ErrorKind::ExpectedValue)
            }
        }
    }

    fn literal(&mut self, rest: &[u8], value: Value) -> Read<Value> {
        for &expected in rest {
            match self.peek() {
                None => return Err(ErrorKind::EofWhileParsingValue),
                Some(b) if b == expected => self.at += 1,
                Some(_) => return Err(ErrorKind::ExpectedIdent),
            }
        }
        Ok(value)
    }

    fn enter(&mut self) -> Read<()> {
        self.depth -= 1;
        match self.depth {
            0 => {
                self.at -= 1; // at the bracket
                Err(ErrorKind::TooDeep)
            }
            _ => Ok(()),
        }
    }

    fn list(&mut self) -> Read<Value> {
        self.enter()?;
        let start = self.items.len();
        match self.next_token() {
            None => return Err(ErrorKind::EofWhileParsingList),
            Some(b']') => self.at += 1,
            Some(_) => loop {
                let item = self.value()?;
                self.items.push(item);
                match self.next_token() {
                    Some(b',') => {
                        self.at += 1;
                        if self.next_token() == Some(b']') {
                            return Err(ErrorKind::TrailingComma);
                        }
                    }
                    Some(b']') => {
                        self.at += 1;
                        break;
                    }
                    Some(_) => return Err(ErrorKind::ExpectedListCommaOrEnd),
                    None => return Err(ErrorKind::EofWhileParsingList),
                }
            },
        }
        self.depth += 1;
        let mut list = Vec::with_capacity(self.items.len() - start);
        list.extend(self.items.drain(start..));
        Ok(Value::Array(list))
    }

    fn object(&mut self) -> Read<Value> {
        self.enter()?;
        let start = self.members.len();
        match self.next_token() {
            None => return Err(ErrorKind::EofWhileParsingObject),
            Some(b'}') => self.at += 1,
            Some(_) => loop {
                match self.next_token() {
                    Some(b'"') => self.at += 1,
                    Some(_) => return Err(ErrorKind::KeyMustBeAString),
                    None => return Err(ErrorKind::EofWhileParsingValue),
                }
                let key = self.string()?;
                match self.next_token() {
                    Some(b':') => self.at += 1,
                    Some(_) => return Err(ErrorKind::ExpectedColon),
                    None => return Err(ErrorKind::EofWhileParsingObject),
                }
                let value = self.value()?;
                self.members.push((key, value));
                match self.next_token() {
                    Some(b',') => {
                        self.at += 1;
                        if self.next_token() == Some(b'}') {
                            return Err(ErrorKind::TrailingComma);
                        }
                    }
                    Some(b'}') => {
                        self.at += 1;
                        break;
                    }
                    Some(_) => return Err(ErrorKind::ExpectedObjectCommaOrEnd),
                    None => return Err(ErrorKind::EofWhileParsingObject),
                }
            },
        }
        self.depth += 1;
        let mut map = Map::with_capacity(self.members.len() - start);
        for (key, value) in self.members.drain(start..) {
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    /// A string's contents, the opening quote read.
    fn string(&mut self) -> Read<String> {
        let mut out = String::new();
        loop {
            // A run of plain characters, then what ends it.
            let run = self.at;
            let at = run + plain_run(&self.bytes[run..]);
            let end = self.bytes.get(at).copied();
            self.at = at;
            match end {
                None => return Err(ErrorKind::EofWhileParsingString),
                Some(b'"') => {
                    self.at += 1;
                    // No escape before: one allocation of the string's size.
                    if out.is_empty() {
                        return Ok(self.text[run..at].into());
                    }
                    out.push_str(&self.text[run..at]);
                    return Ok(out);
                }
                Some(b'\\') => out.push_str(&self.text[run..at]),
                Some(_) => return Err(ErrorKind::ControlCharacterWhileParsingString),
            }
            self.at += 1;
            let Some(escape) = self.peek() else {
                return Err(ErrorKind::EofWhileParsingString);
            };
            out.push(match (escape, short_escape(escape)) {
                (_, Some(c)) => c,
                (b'u', None) => {
                    self.at += 1;
                    self.unicode_escape()?
                }
                _ => return Err(ErrorKind::InvalidEscape),
            });
            self.at += usize::from(escape != b'u');
        }
    }

    /// The character of a `\u` escape (the `\u` read), with the second
    /// half of a surrogate pair; its errors are serde_json's, at the byte
    /// where serde_json stops.
    fn unicode_escape(&mut self) -> Read<char> {
        let first = self.hex4()?;
        if (0xdc00..=0xdfff).contains(&first) {
            self.at -= 1;
            return Err(ErrorKind::LoneLeadingSurrogateInHexEscape);
        }
        // (Outside the surrogates, and a pair below: always a character.)
        if !(0xd800..=0xdbff).contains(&first) {
            return Ok(char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        for expected in [b'\\', b'u'] {
            match self.peek() {
                None => return Err(ErrorKind::EofWhileParsingString),
                Some(b) if b == expected => self.at += 1,
                Some(_) => return Err(ErrorKind::UnexpectedEndOfHexEscape),
            }
        }
        let second = self.hex4()?;
        if !(0xdc00..=0xdfff).contains(&second) {
            self.at -= 1;
            return Err(ErrorKind::LoneLeadingSurrogateInHexEscape);
        }
        let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
        Ok(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// Four hex digits, read as serde_json reads them: all four taken (or
    /// the string ends), then checked, an error at the fourth.
    fn hex4(&mut self) -> Read<u32> {
        let Some(digits) = self.bytes.get(self.at..self.at + 4) else {
            self.at = self.bytes.len();
            return Err(ErrorKind::EofWhileParsingString);
        };
        self.at += 3;
        let mut code = 0;
        for &b in digits {
            code = code * 16 + (b as char).to_digit(16).ok_or(ErrorKind::InvalidEscape)?;
        }
        self.at += 1;
        Ok(code)
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    /// A number (RFC 8259's grammar): an integer that fits `u64` or `i64`
    /// as one, any other as the nearest `f64` (refused when infinite).
    fn number(&mut self) -> Read<Value> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        self.at += usize::from(negative);
        let int = self.at;
        match self.digits() {
            0 => return Err(self.number_end_error()),
            n if n > 1 && self.bytes[int] == b'0' => {
                self.at = int + 1;
                return Err(ErrorKind::InvalidNumber);
            }
            _ => {}
        }
        let int_end = self.at;
        let mut whole = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            whole = false;
            if self.digits() == 0 {
                return Err(self.number_end_error());
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            whole = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.number_end_error());
            }
        }
        if whole {
            let mut n: u64 = 0;
            let fits = self.bytes[int..int_end].iter().all(|&d| {
                match n
                    .checked_mul(10)
                    .and_then(|m| m.checked_add(u64::from(d - b'0')))
                {
                    Some(m) => {
                        n = m;
                        true
                    }
                    None => false,
                }
            });
            if fits && !negative {
                return Ok(Value::Number(n.into()));
            }
            if fits && n != 0 && n <= 1 << 63 {
                return Ok(Value::Number((n as i64).wrapping_neg().into()));
            }
        }
        // Checked above as JSON's grammar: serde_json reads it (its own
        // float reader, a few hundred bytes of wasm, where `str::parse`
        // would link core's, about 15 KB gzip).
        let number = self.text[start..self.at].parse::<Number>();
        number.map(Value::Number).map_err(|_| {
            self.at -= 1; // at its last digit
            ErrorKind::NumberOutOfRange
        })
    }

    fn number_end_error(&self) -> ErrorKind {
        match self.peek() {
            None => ErrorKind::EofWhileParsingValue,
            Some(_) => ErrorKind::InvalidNumber,
        }
    }
}

/// The character a one-letter escape (`\\n`, ...) stands for, given the
/// letter; `None` for `u` and for what is no escape. JSON's rule, shared
/// with the streaming parser's reader of cut JSON.
pub fn short_escape(letter: u8) -> Option<char> {
    Some(match letter {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// How many bytes at the start of `bytes` a JSON string holds as they are
/// (no `"`, `\\` or control character): eight bytes at a time, since
/// strings are often long and rarely need escapes.
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte below 0x20: (x - 0x20..) & !x & 0x80.. flags it (no false
        // negatives); the byte itself is then found one at a time.
        let suspect = x.wrapping_sub(ONES * 0x20) & !x & HIGHS != 0
            || has_zero(x ^ (ONES * u64::from(b'"')))
            || has_zero(x ^ (ONES * u64::from(b'\\')));
        if suspect {
            break;
        }
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if b < 0x20 || b == b'"' || b == b'\\' {
            break;
        }
        at += 1;
    }
    at
}

/// `value` as compact JSON text, as `serde_json::to_string` writes it.
pub fn text(value: &Value) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write(value, &mut out);
    out
}

/// The length of [`text`]`(value)`, if at most `limit`: the writer counts
/// instead of writing, and stops past the limit.
pub fn size(value: &Value, limit: usize) -> Option<usize> {
    let mut count = Count { len: 0, limit };
    write(value, &mut count).ok().map(|()| count.len)
}

/// The length of a string's JSON text, with its quotes and escapes.
pub fn string_size(s: &str) -> usize {
    let mut count = Count {
        len: 0,
        limit: usize::MAX,
    };
    let _ = write_string(s, &mut count);
    count.len
}

/// A writer that counts, failing once past `limit`.
struct Count {
    len: usize,
    limit: usize,
}

impl fmt::Write for Count {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.len += s.len();
        match self.len <= self.limit {
            true => Ok(()),
            false => Err(fmt::Error),
        }
    }
}

fn write(value: &Value, out: &mut dyn fmt::Write) -> fmt::Result {
    match value {
        Value::Null => out.write_str("null"),
        Value::Bool(true) => out.write_str("true"),
        Value::Bool(false) => out.write_str("false"),
        Value::Number(n) => write!(out, "{n}"),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_str(",")?;
                }
                write(item, out)?;
            }
            out.write_str("]")
        }
        Value::Object(map) => {
            out.write_str("{")?;
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.write_str(",")?;
                }
                write_string(key, out)?;
                out.write_str(":")?;
                write(item, out)?;
            }
            out.write_str("}")
        }
    }
}

fn write_string(s: &str, out: &mut dyn fmt::Write) -> fmt::Result {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.write_str("\"")?;
    let bytes = s.as_bytes();
    let mut at = 0;
    loop {
        let run = at + plain_run(&bytes[at..]);
        out.write_str(&s[at..run])?;
        let Some(&b) = bytes.get(run) else {
            return out.write_str("\"");
        };
        let unicode;
        out.write_str(match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            8 => "\\b",
            9 => "\\t",
            10 => "\\n",
            12 => "\\f",
            13 => "\\r",
            _ => {
                unicode = [
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ];
                core::str::from_utf8(&unicode).unwrap_or_default()
            }
        })?;
        at = run + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;

    /// What serde_json makes of `text` (the oracle), as text, or its
    /// refusal.
    fn serde(text: &str) -> Result<Value, ()> {
        serde_json::from_str::<Value>(text).map_err(|_| ())
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            "0",
            "-0",
            "1",
            "-1",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "-0.0",
            "1e3",
            "1E+3",
            "1e-3",
            "2.5e-400",
            "123456789012345678901234567890",
            "true",
            "false",
            "null",
            "\"\"",
            "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
            "\"\\u00e9\\ud83d\\ude00\"",
            "\"é😀\"",
            "[]",
            "[ ]",
            "[1,[2,[3]]]",
            "{}",
            "{ }",
            "{\"a\":1,\"b\":{\"c\":[null]}}",
            " \t\n\r{\"a\" : 1 , \"a\" : 2}\n",
            "{\"b\":1,\"a\":2,\"b\":3}",
        ] {
            assert_eq!(parse(text).map_err(|_| ()), serde(text), "{text}");
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        let deep = "[".repeat(127) + &"]".repeat(127);
        assert_eq!(parse(&deep).map_err(|_| ()), serde(&deep));
        for text in [
            "",
            " ",
            "01",
            "-",
            "-a",
            "1.",
            "1.e3",
            "1e",
            "1e+",
            ".5",
            "+1",
            "0x10",
            "1e400",
            "-1e400",
            "tru",
            "nul",
            "truex",
            "[1,]",
            "[1 2]",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1,}",
            "{,}",
            "[",
            "{",
            "{\"a\":1",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"a\u{1}b\"",
            "\"a\nb\"",
            "1 2",
            "[] x",
            "NaN",
            "Infinity",
            "\"\\",
        ] {
            assert!(parse(text).is_err(), "{text}");
            assert!(serde(text).is_err(), "serde_json took {text}");
        }
        assert_eq!(
            parse(&"[".repeat(128)).unwrap_err().kind,
            ErrorKind::TooDeep
        );
        assert!(format!(
            "{}",
            serde_json::from_str::<Value>(&"[".repeat(128)).unwrap_err()
        )
        .starts_with(ErrorKind::TooDeep.text()));
    }

    /// The text is serde_json's, byte for byte, and the size its length.
    #[test]
    fn writes_what_serde_json_writes() {
        let mut every_byte = String::new();
        for c in 0..0x80u8 {
            every_byte.push(char::from(c));
        }
        every_byte.push_str("é😀\u{2028}");
        let values = [
            serde_json::json!(null),
            serde_json::json!([
                true,
                false,
                0,
                -0.0,
                1.5,
                -7,
                u64::MAX,
                i64::MIN,
                1e300,
                5e-324
            ]),
            serde_json::json!({"a": {"b": [[], {}]}, "": "", "long": "x".repeat(100)}),
            serde_json::json!({"k\u{1}\"": every_byte}),
        ];
        for value in values {
            let theirs = serde_json::to_string(&value).unwrap();
            assert_eq!(text(&value), theirs);
            assert_eq!(size(&value, usize::MAX), Some(theirs.len()));
            assert_eq!(size(&value, theirs.len()), Some(theirs.len()));
            assert_eq!(size(&value, theirs.len() - 1), None);
        }
        for n in 0..40 {
            let s = "ab\"".repeat(n) + &"\u{7}".repeat(n % 3);
            assert_eq!(string_size(&s), serde_json::to_string(&s).unwrap().len());
            assert_eq!(
                plain_run(s.as_bytes()),
                s.find(['"', '\u{7}']).unwrap_or(s.len())
            );
        }
    }

    /// The eight-byte scan finds an escape at every place in a word.
    #[test]
    fn escapes_are_found_at_every_position_of_long_strings() {
        for special in ['"', '\\', '\n', '\u{0}', '\u{1f}'] {
            for len in [7, 8, 9, 16, 23] {
                for at in 0..len {
                    let mut s: String = "x".repeat(len);
                    s.replace_range(at..at + 1, &special.to_string());
                    let theirs = serde_json::to_string(&s).unwrap();
                    assert_eq!(string_size(&s), theirs.len(), "{s:?}");
                    assert_eq!(text(&Value::String(s.clone())), theirs, "{s:?}");
                    let read = parse(&theirs).unwrap();
                    assert_eq!(read.as_str(), Some(s.as_str()));
                }
            }
        }
        // Bytes near the thresholds are not escapes.
        let near = " !#[]^~\u{7f}é";
        assert_eq!(string_size(near), near.len() + 2);
    }

    #[test]
    fn errors_say_where() {
        let at = |text: &str| {
            let e = parse(text).unwrap_err();
            (e.kind, e.line, e.column)
        };
        assert_eq!(at("[1,\n 2 x]"), (ErrorKind::ExpectedListCommaOrEnd, 2, 4));
        assert_eq!(at("{\"a\" 1}"), (ErrorKind::ExpectedColon, 1, 6));
        assert_eq!(at("[1] 2"), (ErrorKind::TrailingCharacters, 1, 5));
        assert_eq!(at("{"), (ErrorKind::EofWhileParsingObject, 1, 1));
    }
}
