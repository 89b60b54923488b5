//! The text rules the checks and the evaluation share: the email rule, ISO
//! 8601 dates and language tags, and byte-level character counts, white
//! space and `{count}` replacement. Byte loops, so the wasm runtime links no
//! Unicode table, string searcher or slicing panic.

use alloc::string::String;
use alloc::vec::Vec;

/// [`is_locale`]'s rule in words, for the messages that refuse a tag: a
/// macro, so that each message stays one literal (`concat!`).
///
/// ```
/// assert!(surfaces_core::locale_rule!().starts_with("as de-DE"));
/// ```
#[macro_export]
macro_rules! locale_rule {
    () => {
        "as de-DE: a language of 2, 3 or 5 to 8 letters, then parts of 1 to 8 letters or digits, joined by -"
    };
}

/// Whether `tag` reads as a BCP 47 language tag as `Intl` takes one: a
/// language of 2, 3 or 5 to 8 ASCII letters, then parts of 1 to 8 letters
/// or digits, joined by `-`, the last not a lone singleton; at most 35
/// bytes. (`Intl` throws on `x`, `root`, `en_US` or `en-a`, so a call
/// naming one would show nothing.)
pub fn is_locale(tag: &str) -> bool {
    // A byte loop, not `split` (see the module docs).
    let language = |part| matches!(part, 2 | 3 | 5..);
    let (mut part, mut first) = (0, true);
    for b in tag.bytes() {
        if b == b'-' && part > 0 && (!first || language(part)) {
            (part, first) = (0, false);
        } else if part < 8 && (b.is_ascii_alphabetic() || !first && b.is_ascii_digit()) {
            part += 1;
        } else {
            return false;
        }
    }
    (if first { language(part) } else { part > 1 }) && tag.len() <= 35
}

/// Unicode scalar values in `text`: its bytes that do not continue a
/// character (the same count as `chars().count()`, without its tables).
pub(super) fn char_count(text: &str) -> usize {
    text.bytes().filter(|b| (*b as i8) >= -0x40).count()
}

/// Whether `bytes` (UTF-8) starts with a Unicode `White_Space` character
/// (what `char::is_whitespace` tests), spelled out so the wasm builds carry
/// no Unicode table and no character decoding.
pub(super) fn starts_with_white_space(bytes: &[u8]) -> bool {
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
pub(super) fn replace_count(text: &str, count: impl FnOnce() -> String) -> String {
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
