//! The evaluation: a literal, binding or call against the data, a check's
//! verdict, and the [`Host`] that what depends on the locale is delegated
//! to. A call that does not follow the table evaluates to nothing.

use super::rules::{char_count, is_locale, replace_count};
use super::{is_email, parse_iso_date, spec, ArgKind, Function, MAX_NESTING};
use crate::pointer;
use crate::view::{JsonView, Kind};
use alloc::borrow::Cow;
use alloc::string::String;

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

impl<'a> DateInput<'a> {
    /// What an `Intl` host formats, in UTC: an ISO text's calendar date as
    /// written (`YYYY-MM-DD`), so every reader sees the date the author
    /// wrote, or the epoch milliseconds.
    #[inline]
    pub fn for_intl(self) -> DateInput<'a> {
        match self {
            DateInput::Iso(text) => DateInput::Iso(text.get(..10).unwrap_or(text)),
            ms => ms,
        }
    }
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

impl NumberOptions {
    /// The fraction digits `Intl.NumberFormat` resolves the options to: at
    /// least `minimumFractionDigits` (default 0), at most
    /// `maximumFractionDigits` (default 3, for percent 0, and never below
    /// the minimum).
    pub fn fraction_digits(self) -> (u32, u32) {
        let default_max = if self.percent { 0 } else { 3 };
        let min = self.min_fraction.unwrap_or(0);
        let max = self.max_fraction.unwrap_or(default_max.max(min)).max(min);
        (min, max)
    }
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
    /// Whether this host evaluates calls (the default). A host that answers
    /// `false` has no function set: every call then does not follow
    /// section 3, and a build whose host answers a constant `false` leaves
    /// the set's code out (the published-page module for pages whose
    /// surfaces hold no call).
    #[inline]
    fn calls(&self) -> bool {
        true
    }
}

/// A [`Host`] whose calls without a `locale` argument format in `locale`
/// (the surface's or the page's), so the server and the runtime agree on
/// one locale; a call's own `locale` still wins.
#[derive(Clone, Copy)]
pub struct InLocale<'a> {
    /// The host that formats.
    pub host: &'a dyn Host,
    /// The default locale; `None` leaves the host's.
    pub locale: Option<&'a str>,
}

impl Host for InLocale<'_> {
    fn number_to_string(&self, n: f64) -> String {
        self.host.number_to_string(n)
    }
    fn format_date(&self, date: DateInput<'_>, style: DateStyle, locale: Option<&str>) -> String {
        self.host.format_date(date, style, locale.or(self.locale))
    }
    fn format_number(&self, n: f64, options: NumberOptions, locale: Option<&str>) -> String {
        self.host.format_number(n, options, locale.or(self.locale))
    }
    fn format_currency(&self, n: f64, currency: &str, locale: Option<&str>) -> String {
        self.host
            .format_currency(n, currency, locale.or(self.locale))
    }
    fn plural_is_one(&self, n: f64, locale: Option<&str>) -> bool {
        self.host.plural_is_one(n, locale.or(self.locale))
    }
    fn calls(&self) -> bool {
        self.host.calls()
    }
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

/// The longest text `concat` gives, in UTF-8 bytes: the data's own limit
/// (SPEC.md section 1); a longer one is no answer.
pub const MAX_TEXT: usize = 65_536;

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
    // (Asked first, as in every call: a build without the function set
    // then leaves the table out too.)
    if !host.calls() {
        return None;
    }
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
    // Every call comes through here: a host without the function set
    // refuses it (and, when that is a constant, the set is not built in).
    if !host.calls() {
        return None;
    }
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
    Some(match spec.id {
        Function::FormatDate => {
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
        Function::FormatNumber => {
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
        Function::FormatCurrency => {
            let currency =
                text_of(b).filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()));
            Value::Text(match (finite, currency) {
                (Some(n), Some(c)) => host.format_currency(n, &c, locale),
                _ => String::new(),
            })
        }
        Function::Pluralize => {
            let count = number.unwrap_or(0.0);
            let chosen = match text_of(d) {
                Some(zero) if count == 0.0 => zero,
                _ if host.plural_is_one(count, locale) => text_of(b).unwrap_or_default(),
                _ => text_of(c).unwrap_or_default(),
            };
            Value::Text(replace_count(&chosen, || host.number_to_string(count)))
        }
        Function::Concat => {
            let values = args.get("values")?;
            if values.kind() != Kind::Array {
                return None;
            }
            let mut out = String::new();
            for i in 0..values.len() {
                out.push_str(&read(&values.index(i)?, data, host, level)?.to_text(host));
            }
            // No text longer than the data may be: nested concats repeating
            // a long value would grow as their product (each level, past
            // the limit, stops the one around it at its first value).
            if out.len() > MAX_TEXT {
                return None;
            }
            Value::Text(out)
        }
        Function::Length => Value::Number(value.as_ref().map_or(0, Value::length) as f64),
        Function::Required => Value::Bool(value.as_ref().is_some_and(Value::is_present)),
        Function::MinLength | Function::MaxLength => {
            let bound = number_of(b)?;
            let len = value.as_ref().map_or(0, Value::length) as f64;
            Value::Bool(if spec.id == Function::MinLength {
                len >= bound
            } else {
                len <= bound
            })
        }
        Function::Email => Value::Bool(text_of(value).is_some_and(|t| is_email(&t))),
        Function::Range => {
            let (min, max) = (number_of(b), number_of(c));
            Value::Bool(number.is_some_and(|n| {
                !n.is_nan() && min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
            }))
        }
    })
}
