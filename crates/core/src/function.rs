//! The fixed function set (SPEC.md section 3): argument checks, checks, and
//! evaluation. What depends on the locale (dates, numbers, currencies, plural
//! categories, JavaScript's `String()` of a number) is delegated to a
//! [`Host`]: the browser runtime answers with `Intl`, native code with
//! [`PlainHost`], a deterministic en-US fallback.
//!
//! ```
//! use surfaces_core::function::{call, PlainHost, Value};
//! let data = serde_json::json!({"n": 3, "name": "Ada"});
//! let c = serde_json::json!({"call": "pluralize",
//!     "args": {"count": {"path": "/n"}, "one": "{count} seat", "other": "{count} seats"}});
//! assert!(matches!(call(&&c, &&data, &PlainHost), Some(Value::Text(t)) if t == "3 seats"));
//! let c = serde_json::json!({"call": "concat", "args": {"values": ["Hi ", {"path": "/name"}, 1.5]}});
//! assert!(matches!(call(&&c, &&data, &PlainHost), Some(Value::Text(t)) if t == "Hi Ada1.5"));
//! ```

use crate::pointer;
use crate::problem::Findings;
use crate::view::{JsonView, Kind};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// How deep calls nest; the outermost call is level 1.
pub const MAX_NESTING: usize = 4;

/// What an argument must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// Any JSON value.
    Any,
    /// A number.
    Number,
    /// A whole number from 0 to 100.
    Count,
    /// A string.
    Text,
    /// An ISO 8601 date (or date-time) string, or epoch milliseconds.
    Date,
    /// A list (of literals, bindings or calls).
    List,
    /// `short`, `medium`, `long` or `full`.
    DateStyle,
    /// `decimal` or `percent`.
    NumberStyle,
    /// A three-letter currency code.
    Currency,
    /// A BCP 47 language tag such as `en-US`.
    Locale,
}

impl ArgKind {
    /// How the prompt and messages name the kind.
    pub fn describe(self) -> &'static str {
        match self {
            ArgKind::Any => "any value",
            ArgKind::Number => "a number",
            ArgKind::Count => "a whole number 0 to 100",
            ArgKind::Text => "a string",
            ArgKind::Date => "an ISO 8601 date string or epoch milliseconds",
            ArgKind::List => "a list",
            ArgKind::DateStyle => "\"short\", \"medium\", \"long\" or \"full\"",
            ArgKind::NumberStyle => "\"decimal\" or \"percent\"",
            ArgKind::Currency => "a three-letter currency code such as \"EUR\"",
            ArgKind::Locale => "a language tag such as \"en-US\"",
        }
    }

    fn accepts_result(self, result: Kind) -> bool {
        match self {
            ArgKind::Any => true,
            ArgKind::Number | ArgKind::Count => result == Kind::Number,
            ArgKind::Date => matches!(result, Kind::Number | Kind::String),
            ArgKind::List => false,
            _ => result == Kind::String,
        }
    }
}

/// One argument of a function.
#[derive(Debug, Clone, Copy)]
pub struct ArgSpec {
    /// The key in `args`.
    pub name: &'static str,
    /// What it must be.
    pub kind: ArgKind,
    /// Whether it must be given.
    pub required: bool,
}

/// One function of the fixed set.
#[derive(Debug, Clone, Copy)]
pub struct FunctionSpec {
    /// The name written in `call`.
    pub name: &'static str,
    /// Its arguments.
    pub args: &'static [ArgSpec],
    /// The kind of its result.
    pub result: Kind,
    /// Whether it may be a check (`x-checks`).
    pub is_check: bool,
}

const fn req(name: &'static str, kind: ArgKind) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required: true,
    }
}
const fn opt(name: &'static str, kind: ArgKind) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required: false,
    }
}
const fn f(
    name: &'static str,
    args: &'static [ArgSpec],
    result: Kind,
    is_check: bool,
) -> FunctionSpec {
    FunctionSpec {
        name,
        args,
        result,
        is_check,
    }
}

/// The fixed function set, in the order SPEC.md lists it.
pub const FUNCTIONS: [FunctionSpec; 11] = [
    f(
        "formatDate",
        &[
            req("value", ArgKind::Date),
            opt("style", ArgKind::DateStyle),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        "formatNumber",
        &[
            req("value", ArgKind::Number),
            opt("minimumFractionDigits", ArgKind::Count),
            opt("maximumFractionDigits", ArgKind::Count),
            opt("style", ArgKind::NumberStyle),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        "formatCurrency",
        &[
            req("value", ArgKind::Number),
            req("currency", ArgKind::Currency),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        "pluralize",
        &[
            req("count", ArgKind::Number),
            req("one", ArgKind::Text),
            req("other", ArgKind::Text),
            opt("zero", ArgKind::Text),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        "concat",
        &[req("values", ArgKind::List)],
        Kind::String,
        false,
    ),
    f("length", &[req("value", ArgKind::Any)], Kind::Number, false),
    f("required", &[req("value", ArgKind::Any)], Kind::Bool, true),
    f(
        "minLength",
        &[req("value", ArgKind::Any), req("min", ArgKind::Number)],
        Kind::Bool,
        true,
    ),
    f(
        "maxLength",
        &[req("value", ArgKind::Any), req("max", ArgKind::Number)],
        Kind::Bool,
        true,
    ),
    f("email", &[req("value", ArgKind::Any)], Kind::Bool, true),
    f(
        "range",
        &[
            req("value", ArgKind::Any),
            opt("min", ArgKind::Number),
            opt("max", ArgKind::Number),
        ],
        Kind::Bool,
        true,
    ),
];

/// The function named `name`.
pub fn spec(name: &str) -> Option<&'static FunctionSpec> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

// ---------------------------------------------------------------- checking

/// Checks a value that may be a literal, a binding `{"path"}` or a call
/// `{"call", "args"}` (an `x-bindable` prop), sitting at `at`.
///
/// ```
/// use surfaces_core::{function, problem::Findings};
/// let v = serde_json::json!({"call": "formatDate", "args": {"value": {"path": "/d"}, "style": "huge"}});
/// let mut found = Findings::default();
/// function::check_value(&&v, &mut String::from("/props/text"), &mut found);
/// assert_eq!(found.problems[0].code, "invalid_args");
/// assert_eq!(found.problems[0].pointer, "/props/text/args/style");
/// ```
pub fn check_value<V: JsonView>(value: &V, at: &mut String, found: &mut Findings) {
    check_arg_value(value, ArgKind::Any, at, found, 0);
}

/// Whether `value` is a binding or call (an object with `path` or `call`).
pub fn is_dynamic<V: JsonView>(value: &V) -> bool {
    value.kind() == Kind::Object && (value.get("path").is_some() || value.get("call").is_some())
}

/// Checks one check of an `x-checks` list: `{"call": CHECK, "args", "message"}`.
pub fn check_check<V: JsonView>(check: &V, at: &mut String, found: &mut Findings) {
    check_call(check, at, found, 1, true);
}

fn check_call<V: JsonView>(
    call: &V,
    at: &mut String,
    found: &mut Findings,
    level: usize,
    as_check: bool,
) {
    let len = at.len();
    let Some(name) = call.get("call").filter(|n| n.kind() == Kind::String) else {
        found.push(
            "invalid_args",
            at,
            &["a function call is {\"call\": NAME, \"args\": {...}} with NAME a string"],
        );
        return;
    };
    let name = name.as_str().unwrap_or_default();
    for key in call.keys() {
        let allowed = key == "call" || key == "args" || (as_check && key == "message");
        if !allowed {
            pointer::push(at, &key);
            let extra = if as_check {
                ", args and message"
            } else {
                " and args"
            };
            found.push(
                "invalid_args",
                at,
                &["unexpected key \"", &key, "\": a call has only call", extra],
            );
            at.truncate(len);
        }
    }
    let Some(spec) = spec(&name) else {
        pointer::push(at, "call");
        found.push("unknown_function", at, &[
            "unknown function \"", &name,
            "\"; use formatDate, formatNumber, formatCurrency, pluralize, concat, length, required, minLength, maxLength, email or range",
        ]);
        at.truncate(len);
        return;
    };
    if as_check {
        if !spec.is_check {
            pointer::push(at, "call");
            found.push(
                "invalid_args",
                at,
                &[
                    "\"",
                    spec.name,
                    "\" is not a check; checks are required, minLength, maxLength, email and range",
                ],
            );
            at.truncate(len);
        }
        match call.get("message") {
            Some(m) if m.as_str().is_some_and(|s| !s.is_empty()) => {}
            _ => found.push(
                "invalid_args",
                at,
                &["a check needs a \"message\" string telling the reader what to fix"],
            ),
        }
    }
    let args = call.get("args");
    let Some(args) = args.filter(|a| a.kind() == Kind::Object) else {
        if call.get("args").is_some() {
            pointer::push(at, "args");
        }
        found.push(
            "invalid_args",
            at,
            &["\"", spec.name, "\" needs \"args\", an object"],
        );
        at.truncate(len);
        return;
    };
    pointer::push(at, "args");
    let args_at = at.len();
    for key in args.keys() {
        if !spec.args.iter().any(|a| a.name == key) {
            pointer::push(at, &key);
            found.push(
                "invalid_args",
                at,
                &["\"", spec.name, "\" has no argument \"", &key, "\""],
            );
            at.truncate(args_at);
        }
    }
    for arg in spec.args {
        match args.get(arg.name) {
            Some(value) => {
                pointer::push(at, arg.name);
                check_arg_value(&value, arg.kind, at, found, level);
                at.truncate(args_at);
            }
            None if arg.required => {
                found.push(
                    "invalid_args",
                    at,
                    &[
                        "\"",
                        spec.name,
                        "\" needs the argument \"",
                        arg.name,
                        "\": ",
                        arg.kind.describe(),
                    ],
                );
            }
            None => {}
        }
    }
    at.truncate(len);
}

fn check_arg_value<V: JsonView>(
    value: &V,
    kind: ArgKind,
    at: &mut String,
    found: &mut Findings,
    level: usize,
) {
    if value.kind() == Kind::Object {
        if value.get("call").is_some() {
            if level >= MAX_NESTING {
                found.push("invalid_args", at, &["function calls nest at most 4 deep"]);
                return;
            }
            if let Some(inner) = value
                .get("call")
                .and_then(|n| n.as_str().and_then(|n| spec(&n)))
            {
                if !kind.accepts_result(inner.result) {
                    found.push(
                        "invalid_args",
                        at,
                        &["\"", inner.name, "\" does not give ", kind.describe()],
                    );
                    return;
                }
            }
            check_call(value, at, found, level + 1, false);
            return;
        }
        if let Some(path) = value.get("path") {
            let len = at.len();
            match (path.as_str(), value.len()) {
                (Some(p), 1) => {
                    pointer::push(at, "path");
                    found.binding(&p, at);
                }
                _ => found.push(
                    "invalid_args",
                    at,
                    &["a binding is exactly {\"path\": \"/json/pointer\"}"],
                ),
            }
            at.truncate(len);
            return;
        }
    }
    if kind == ArgKind::List && value.kind() == Kind::Array {
        let len = at.len();
        for i in 0..value.len() {
            if let Some(item) = value.index(i) {
                pointer::push_index(at, i);
                check_arg_value(&item, ArgKind::Any, at, found, level);
                at.truncate(len);
            }
        }
        return;
    }
    if !literal_fits(value, kind) {
        found.push("invalid_args", at, &["expected ", kind.describe()]);
    }
}

fn literal_fits<V: JsonView>(value: &V, kind: ArgKind) -> bool {
    let text = value.as_str();
    match kind {
        ArgKind::Any => true,
        ArgKind::Number => value.as_f64().is_some_and(f64::is_finite),
        ArgKind::Count => value
            .as_f64()
            .is_some_and(|n| (0.0..=100.0).contains(&n) && n == (n as u32) as f64),
        ArgKind::Text => text.is_some(),
        ArgKind::Date => {
            value.kind() == Kind::Number || text.is_some_and(|t| parse_iso_date(&t).is_some())
        }
        ArgKind::List => false,
        ArgKind::DateStyle => text.is_some_and(|t| DateStyle::from_name(&t).is_some()),
        ArgKind::NumberStyle => text.is_some_and(|t| t == "decimal" || t == "percent"),
        ArgKind::Currency => {
            text.is_some_and(|t| t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic()))
        }
        ArgKind::Locale => text.is_some_and(|t| is_locale(&t)),
    }
}

fn is_locale(tag: &str) -> bool {
    // Byte loop (no `split`): parts of 1 to 8 ASCII letters or digits.
    let mut part = 0;
    for b in tag.bytes() {
        if b == b'-' && part > 0 {
            part = 0;
        } else if b.is_ascii_alphanumeric() && part < 8 {
            part += 1;
        } else {
            return false;
        }
    }
    part > 0 && tag.len() <= 35
}

/// Unicode scalar values in `text`: its bytes that do not continue a
/// character (the same count as `chars().count()`, without its tables).
fn char_count(text: &str) -> usize {
    text.bytes().filter(|b| (*b as i8) >= -0x40).count()
}

/// Whether `bytes` (UTF-8) starts with a Unicode `White_Space` character
/// (what `char::is_whitespace` tests), spelled out so the wasm builds carry
/// no Unicode table and no character decoding.
fn starts_with_white_space(bytes: &[u8]) -> bool {
    // The UTF-8 encodings of U+0009..U+000D, U+0020, U+0085, U+00A0,
    // U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F and U+3000,
    // compared as one big-endian number of up to three bytes. A
    // continuation byte starts none of them, so any offset may be tested.
    let byte = |i| u32::from(bytes.get(i).copied().unwrap_or(0));
    let w = byte(0) << 16 | byte(1) << 8 | byte(2);
    matches!(w >> 16, 0x09..=0x0D | 0x20)
        || matches!(w >> 8, 0xC285 | 0xC2A0)
        || matches!(
            w,
            0xE19A80 | 0xE28080..=0xE2808A | 0xE280A8 | 0xE280A9 | 0xE280AF | 0xE2819F | 0xE38080
        )
}

/// `text` with every `{count}` replaced by `count()` (called once, when
/// there is one): a byte search, so no string searcher or slicing panic.
fn replace_count(text: &str, count: impl FnOnce() -> String) -> String {
    const MARK: &[u8] = b"{count}";
    let mut count = Some(count);
    let mut number = String::new();
    let mut out = Vec::new();
    let mut rest = text.as_bytes();
    // One byte loop (no string searcher, no slicing panic).
    while let [byte, tail @ ..] = rest {
        if rest.starts_with(MARK) {
            if let Some(count) = count.take() {
                number = count();
            }
            out.extend_from_slice(number.as_bytes());
            rest = rest.get(MARK.len()..).unwrap_or_default();
        } else {
            out.push(*byte);
            rest = tail;
        }
    }
    // SAFETY: `out` is `text` with some ASCII `{count}` runs replaced by
    // `number`: whole UTF-8 characters only.
    unsafe { String::from_utf8_unchecked(out) }
}

// ---------------------------------------------------------------- rules

/// The email rule: one `@`, a non-empty local part, a domain with a dot not
/// at either end, no white space, at most 254 characters.
///
/// ```
/// use surfaces_core::function::is_email;
/// assert!(is_email("ada@example.com"));
/// assert!(!is_email("ada@example."));
/// ```
// `iter().any` rather than `contains`: a byte `contains` links a 400-byte
// `memchr` into the wasm runtime, for strings of at most 254 characters.
#[allow(clippy::manual_contains)]
pub fn is_email(text: &str) -> bool {
    // One byte loop (no `split`, no character decoding): `@` and `.` are ASCII.
    let bytes = text.as_bytes();
    let mut ats = 0;
    let mut local = 0;
    let mut rest = bytes;
    while let [b, tail @ ..] = rest {
        if starts_with_white_space(rest) {
            return false;
        }
        if *b == b'@' {
            ats += 1;
        } else if ats == 0 {
            local += 1;
        }
        rest = tail;
    }
    let domain = bytes.get(local + 1..).unwrap_or_default();
    ats == 1
        && local > 0
        && char_count(text) <= 254
        && domain.iter().any(|b| *b == b'.')
        && domain.first() != Some(&b'.')
        && domain.last() != Some(&b'.')
}

/// Reads an ISO 8601 date (`YYYY-MM-DD`) or date-time
/// (`YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]`) into year, month and day.
///
/// ```
/// use surfaces_core::function::parse_iso_date;
/// assert_eq!(parse_iso_date("2024-02-29T10:00Z"), Some((2024, 2, 29)));
/// assert_eq!(parse_iso_date("2023-02-29"), None);
/// ```
pub fn parse_iso_date(text: &str) -> Option<(i32, u32, u32)> {
    let b = text.as_bytes();
    let at = |i: usize| b.get(i).copied();
    let (year, month, day) = (digits(b, 0, 4)?, digits(b, 5, 2)?, digits(b, 8, 2)?);
    if at(4) != Some(b'-')
        || at(7) != Some(b'-')
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year as i32, month)
    {
        return None;
    }
    // Then nothing, or `Thh:mm`, `:ss` with an optional fraction, and `Z` or
    // `±hh:mm`.
    let mut i = 10;
    if at(i).is_some() {
        if at(10) != Some(b'T') || at(13) != Some(b':') || !two(b, 11, 23) || !two(b, 14, 59) {
            return None;
        }
        i = 16;
        if at(i) == Some(b':') {
            if !two(b, 17, 59) {
                return None;
            }
            i = 19;
            if at(i) == Some(b'.') {
                i += 1;
                let fraction = i;
                while at(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                if i == fraction {
                    return None;
                }
            }
        }
        let zone = match at(i) {
            None => true,
            Some(b'Z') => i + 1 == b.len(),
            Some(b'+' | b'-') => {
                b.len() == i + 6
                    && at(i + 3) == Some(b':')
                    && two(b, i + 1, 23)
                    && two(b, i + 4, 59)
            }
            _ => false,
        };
        if !zone {
            return None;
        }
    }
    Some((year as i32, month, day))
}

/// The `len` ASCII digits at `from` as a number (`None`: not all digits).
#[inline(never)]
fn digits(b: &[u8], from: usize, len: usize) -> Option<u32> {
    b.get(from..from + len)?.iter().try_fold(0, |acc, d| {
        d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
    })
}

/// Whether the two digits at `from` make a number up to `max`.
fn two(b: &[u8], from: usize, max: u32) -> bool {
    digits(b, from, 2).is_some_and(|n| n <= max)
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// ---------------------------------------------------------------- evaluating

/// A `dateStyle` of `Intl.DateTimeFormat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateStyle {
    /// `short`
    Short,
    /// `medium` (the default)
    Medium,
    /// `long`
    Long,
    /// `full`
    Full,
}

impl DateStyle {
    /// Reads a style name.
    pub fn from_name(name: &str) -> Option<DateStyle> {
        Some(match name {
            "short" => DateStyle::Short,
            "medium" => DateStyle::Medium,
            "long" => DateStyle::Long,
            "full" => DateStyle::Full,
            _ => return None,
        })
    }
    /// The name `Intl` takes.
    pub fn name(self) -> &'static str {
        match self {
            DateStyle::Short => "short",
            DateStyle::Medium => "medium",
            DateStyle::Long => "long",
            DateStyle::Full => "full",
        }
    }
}

/// The date `formatDate` formats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DateInput<'a> {
    /// An ISO 8601 date or date-time string (already checked).
    Iso(&'a str),
    /// Milliseconds since 1970-01-01T00:00:00Z.
    EpochMs(f64),
}

/// Options of `formatNumber`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NumberOptions {
    /// `minimumFractionDigits`.
    pub min_fraction: Option<u32>,
    /// `maximumFractionDigits`.
    pub max_fraction: Option<u32>,
    /// `style: "percent"`.
    pub percent: bool,
}

/// What the functions delegate to the platform.
pub trait Host {
    /// JavaScript's `String(n)`.
    fn number_to_string(&self, n: f64) -> String;
    /// `Intl.DateTimeFormat(locale, {dateStyle})`; empty for an invalid date.
    fn format_date(&self, date: DateInput<'_>, style: DateStyle, locale: Option<&str>) -> String;
    /// `Intl.NumberFormat(locale, options)`.
    fn format_number(&self, n: f64, options: NumberOptions, locale: Option<&str>) -> String;
    /// `Intl.NumberFormat(locale, {style: "currency", currency})`; `currency`
    /// is three ASCII letters in either case, as Intl takes it.
    fn format_currency(&self, n: f64, currency: &str, locale: Option<&str>) -> String;
    /// Whether `Intl.PluralRules(locale).select(n)` is `one`.
    fn plural_is_one(&self, n: f64, locale: Option<&str>) -> bool;
}

/// A value a call reads or returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<V> {
    /// A value held by the store (a literal or bound data).
    Data(V),
    /// A bound path that does not resolve.
    Missing,
    /// A computed string.
    Text(String),
    /// A computed number.
    Number(f64),
    /// A computed boolean.
    Bool(bool),
}

impl<V: JsonView> Value<V> {
    /// The number, when the value is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Data(v) => v.as_f64(),
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The string, when the value is one.
    pub fn as_text(&self) -> Option<Cow<'_, str>> {
        match self {
            Value::Data(v) => v.as_str(),
            Value::Text(t) => Some(Cow::Borrowed(t)),
            _ => None,
        }
    }

    /// `length`: Unicode scalar values of a string, items of a list, else 0.
    pub fn length(&self) -> usize {
        match self {
            Value::Data(v) if v.kind() == Kind::Array => v.len(),
            _ => self.as_text().map_or(0, |t| char_count(&t)),
        }
    }

    /// `required`: false for missing, null, `""`, `[]` and `false`.
    pub fn is_present(&self) -> bool {
        match self {
            Value::Missing => false,
            Value::Bool(b) => *b,
            Value::Text(t) => !t.is_empty(),
            Value::Number(_) => true,
            Value::Data(v) => match v.kind() {
                Kind::Null => false,
                Kind::Bool => v.as_bool().unwrap_or(false),
                Kind::String | Kind::Array => {
                    !v.is_empty() || v.as_str().is_some_and(|s| !s.is_empty())
                }
                Kind::Number | Kind::Object => true,
            },
        }
    }

    /// The text `concat` joins: strings as they are, numbers as JavaScript's
    /// `String()`, booleans as `true`/`false`; null, missing values, lists and
    /// objects as nothing.
    pub fn to_text<H: Host + ?Sized>(&self, host: &H) -> String {
        // Through the shared readers (one copy in the wasm runtime).
        let boolean = match self {
            Value::Bool(b) => Some(*b),
            Value::Data(v) => v.as_bool(),
            _ => None,
        };
        if let Some(b) = boolean {
            return String::from(if b { "true" } else { "false" });
        }
        match self.as_f64() {
            Some(n) => host.number_to_string(n),
            None => self.as_text().map(Cow::into_owned).unwrap_or_default(),
        }
    }
}

/// Evaluates the call `call` against `data`; `None` when the call does not
/// follow section 3 (unknown function, missing or wrong arguments, too deep).
pub fn call<V: JsonView, H: Host + ?Sized>(call: &V, data: &V, host: &H) -> Option<Value<V>> {
    call_level(call, data, host, 1)
}

/// Evaluates a literal, binding or call (an `x-bindable` value).
pub fn evaluate<V: JsonView, H: Host + ?Sized>(value: &V, data: &V, host: &H) -> Option<Value<V>> {
    read(value, data, host, 0)
}

/// Runs one check; `Some(true)` when it passes.
pub fn run_check<V: JsonView, H: Host + ?Sized>(check: &V, data: &V, host: &H) -> Option<bool> {
    let name = check.get("call")?;
    if !spec(&name.as_str()?)?.is_check {
        return None;
    }
    match call(check, data, host)? {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

fn read<V: JsonView, H: Host + ?Sized>(
    value: &V,
    data: &V,
    host: &H,
    level: usize,
) -> Option<Value<V>> {
    if value.kind() == Kind::Object {
        if value.get("call").is_some() {
            if level >= MAX_NESTING {
                return None;
            }
            return call_level(value, data, host, level + 1);
        }
        if let Some(path) = value.get("path") {
            let path = path.as_str()?;
            pointer::check(&path).ok()?;
            return Some(pointer::resolve(data, &path).map_or(Value::Missing, Value::Data));
        }
    }
    Some(Value::Data(value.clone()))
}

/// The number a read argument holds, if any.
fn number_of<V: JsonView>(value: &Option<Value<V>>) -> Option<f64> {
    value.as_ref()?.as_f64()
}

/// The string a read argument holds, if any.
fn text_of<V: JsonView>(value: &Option<Value<V>>) -> Option<Cow<'_, str>> {
    value.as_ref()?.as_text()
}

fn call_level<V: JsonView, H: Host + ?Sized>(
    call: &V,
    data: &V,
    host: &H,
    level: usize,
) -> Option<Value<V>> {
    let spec = spec(&call.get("call")?.as_str()?)?;
    let args = call.get("args")?;
    if args.kind() != Kind::Object {
        return None;
    }
    // Every declared argument is read once, in the table's order, into the
    // slot of its position (one reading loop serves the whole set). A
    // required one that is absent, or one given that does not evaluate,
    // fails the call.
    let mut slots: [Option<Value<V>>; 5] = [None, None, None, None, None];
    let mut locale = None;
    for (slot, arg) in slots.iter_mut().zip(spec.args) {
        match args.get(arg.name) {
            Some(given) => *slot = Some(read(&given, data, host, level)?),
            None if arg.required => return None,
            None => {}
        }
        if arg.kind == ArgKind::Locale {
            locale = text_of(slot).filter(|l| is_locale(l)).map(Cow::into_owned);
        }
    }
    let locale = locale.as_deref();
    let [value, b, c, d, _] = &slots;
    let number = number_of(value);
    let finite = number.filter(|n| n.is_finite());
    Some(match spec.name {
        "formatDate" => {
            let style = text_of(b);
            let style = style
                .as_deref()
                .map_or(Some(DateStyle::Medium), DateStyle::from_name)?;
            let text = text_of(value);
            Value::Text(match (text.as_deref(), finite) {
                (Some(iso), _) if parse_iso_date(iso).is_some() => {
                    host.format_date(DateInput::Iso(iso), style, locale)
                }
                (_, Some(ms)) => host.format_date(DateInput::EpochMs(ms), style, locale),
                _ => String::new(),
            })
        }
        "formatNumber" => {
            let fraction_digits = |slot| -> Option<u32> {
                number_of(slot)
                    .filter(|n| (0.0..=100.0).contains(n))
                    .map(|n| n as u32)
            };
            let options = NumberOptions {
                min_fraction: fraction_digits(b),
                max_fraction: fraction_digits(c),
                percent: text_of(d).as_deref() == Some("percent"),
            };
            Value::Text(
                finite
                    .map(|n| host.format_number(n, options, locale))
                    .unwrap_or_default(),
            )
        }
        "formatCurrency" => {
            let currency =
                text_of(b).filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()));
            Value::Text(match (finite, currency) {
                (Some(n), Some(c)) => host.format_currency(n, &c, locale),
                _ => String::new(),
            })
        }
        "pluralize" => {
            let count = number.unwrap_or(0.0);
            let chosen = match text_of(d) {
                Some(zero) if count == 0.0 => zero,
                _ if host.plural_is_one(count, locale) => text_of(b).unwrap_or_default(),
                _ => text_of(c).unwrap_or_default(),
            };
            Value::Text(replace_count(&chosen, || host.number_to_string(count)))
        }
        "concat" => {
            let values = args.get("values")?;
            if values.kind() != Kind::Array {
                return None;
            }
            let mut out = String::new();
            for i in 0..values.len() {
                out.push_str(&read(&values.index(i)?, data, host, level)?.to_text(host));
            }
            Value::Text(out)
        }
        "length" => Value::Number(value.as_ref().map_or(0, Value::length) as f64),
        "required" => Value::Bool(value.as_ref().is_some_and(Value::is_present)),
        "minLength" | "maxLength" => {
            let bound = number_of(b)?;
            let len = value.as_ref().map_or(0, Value::length) as f64;
            Value::Bool(if spec.name == "minLength" {
                len >= bound
            } else {
                len <= bound
            })
        }
        "email" => Value::Bool(text_of(value).is_some_and(|t| is_email(&t))),
        _ => {
            let (min, max) = (number_of(b), number_of(c));
            Value::Bool(number.is_some_and(|n| {
                !n.is_nan() && min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
            }))
        }
    })
}

// ---------------------------------------------------------------- native host

/// A deterministic en-US [`Host`] for native code (the CLI, tests): the same
/// strings `Intl` gives for `en-US` in the common cases, whatever `locale`
/// says. Browsers use `Intl` instead.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainHost;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
];

impl Host for PlainHost {
    fn number_to_string(&self, n: f64) -> String {
        js_number_string(n)
    }

    fn format_date(&self, date: DateInput<'_>, style: DateStyle, _locale: Option<&str>) -> String {
        let (year, month, day) = match date {
            DateInput::Iso(text) => match parse_iso_date(text) {
                Some(d) => d,
                None => return String::new(),
            },
            DateInput::EpochMs(ms) => {
                if !ms.is_finite() || ms.abs() > 8.64e15 {
                    return String::new();
                }
                civil_from_days(floor_div(ms as i64, 86_400_000))
            }
        };
        let Some(name) = MONTHS.get(month as usize - 1) else {
            return String::new();
        };
        match style {
            DateStyle::Short => alloc::format!("{}/{}/{:02}", month, day, year.rem_euclid(100)),
            DateStyle::Medium => alloc::format!("{} {}, {}", &name[..3], day, year),
            DateStyle::Long => alloc::format!("{} {}, {}", name, day, year),
            DateStyle::Full => {
                let weekday = WEEKDAYS[days_from_civil(year, month, day).rem_euclid(7) as usize];
                alloc::format!("{}, {} {}, {}", weekday, name, day, year)
            }
        }
    }

    fn format_number(&self, n: f64, options: NumberOptions, _locale: Option<&str>) -> String {
        let value = if options.percent { n * 100.0 } else { n };
        let default_max = if options.percent { 0 } else { 3 };
        let min = options.min_fraction.unwrap_or(0);
        let max = options
            .max_fraction
            .unwrap_or(default_max.max(min))
            .max(min);
        let mut out = grouped(value, min, max);
        if options.percent {
            out.push('%');
        }
        out
    }

    fn format_currency(&self, n: f64, currency: &str, _locale: Option<&str>) -> String {
        let currency = currency.to_ascii_uppercase();
        let currency = currency.as_str();
        let digits = if matches!(currency, "JPY" | "KRW") {
            0
        } else {
            2
        };
        let amount = grouped(n.abs(), digits, digits);
        let sign = if n < 0.0 && amount.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
            "-"
        } else {
            ""
        };
        match currency {
            "USD" => alloc::format!("{sign}${amount}"),
            "EUR" => alloc::format!("{sign}€{amount}"),
            "GBP" => alloc::format!("{sign}£{amount}"),
            "JPY" => alloc::format!("{sign}¥{amount}"),
            other => alloc::format!("{sign}{other}\u{a0}{amount}"),
        }
    }

    fn plural_is_one(&self, n: f64, _locale: Option<&str>) -> bool {
        n == 1.0
    }
}

/// `n` rounded to `min..=max` fraction digits, integer digits grouped by 3.
fn grouped(n: f64, min: u32, max: u32) -> String {
    let fixed = alloc::format!("{:.*}", max as usize, n);
    let (int, frac) = fixed.split_once('.').unwrap_or((&fixed, ""));
    let (sign, int) = int.strip_prefix('-').map_or(("", int), |i| ("-", i));
    let mut frac = frac;
    while frac.len() > min as usize && frac.ends_with('0') {
        frac = &frac[..frac.len() - 1];
    }
    let zero = int.bytes().all(|b| b == b'0') && frac.bytes().all(|b| b == b'0');
    let mut out = String::from(if zero { "" } else { sign });
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// JavaScript's `Number.prototype.toString()` (ECMA-262 Number::toString).
pub fn js_number_string(n: f64) -> String {
    if n.is_nan() {
        return String::from("NaN");
    }
    if n == 0.0 {
        return String::from("0");
    }
    if n.is_infinite() {
        return String::from(if n > 0.0 { "Infinity" } else { "-Infinity" });
    }
    // `{:e}` gives the shortest round-trip digits, as ECMA-262 requires.
    let sci = alloc::format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let point = exp.parse::<i32>().unwrap_or(0) + 1;
    let mut out = String::from(if n < 0.0 { "-" } else { "" });
    if k <= point && point <= 21 {
        out.push_str(&digits);
        out.extend(core::iter::repeat_n('0', (point - k) as usize));
    } else if 0 < point && point <= 21 {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    } else if -6 < point && point <= 0 {
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', (-point) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if point > 0 { '+' } else { '-' });
        out.push_str(&alloc::format!("{}", (point - 1).abs()));
    }
    out
}

fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = i64::from(y) - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i32, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y as i32, m, d)
}

#[cfg(all(test, feature = "serde_json"))]
mod tests;
