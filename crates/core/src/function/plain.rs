//! The plain host: [`PlainHost`] answers as `Intl` does for `en-US`, without
//! a browser, for the CLI, the renderer and the tests; and
//! [`js_number_string`], JavaScript's `String()` of a number.

use super::{parse_iso_date, DateInput, DateStyle, Host, NumberOptions};
use alloc::string::String;

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
        let Some((year, month, day)) = date.civil() else {
            return String::new();
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
        let (min, max) = options.fraction_digits();
        let mut out = grouped(n, if options.percent { 2 } else { 0 }, min, max);
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
        let amount = grouped(n.abs(), 0, digits, digits);
        let sign = if n.is_sign_negative() { "-" } else { "" };
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

impl DateInput<'_> {
    /// The calendar date (year, month, day; proleptic Gregorian, in UTC)
    /// an `Intl` host formats, for a native one: `None` for an ISO text
    /// that is no date or epoch milliseconds past what a JavaScript `Date`
    /// holds (±8.64e15).
    pub fn civil(self) -> Option<(i32, u32, u32)> {
        match self {
            DateInput::Iso(text) => parse_iso_date(text),
            DateInput::EpochMs(ms) if ms.is_finite() && ms.abs() <= 8.64e15 => {
                Some(civil_from_days(floor_div(ms as i64, 86_400_000)))
            }
            DateInput::EpochMs(_) => None,
        }
    }
}

/// `n` as `Intl` rounds it: its shortest round-trip decimal, rounded half
/// away from zero to at most `max` fraction digits, trailing zeros dropped
/// down to `min`, integer digits grouped by 3, and a `-` for any negative
/// number, zero included (`-0`).
fn grouped(n: f64, shift: usize, min: u32, max: u32) -> String {
    let text = alloc::format!("{}", n.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    // Times 10 to the `shift` in decimal, as Intl scales a percent (1.005
    // is 100.5, where 1.005 * 100.0 is 100.49999999999999): digits move
    // from the fraction into the integer part, whose leading zeros go.
    let zeros = core::iter::repeat(b'0');
    let int: alloc::vec::Vec<u8> = int
        .bytes()
        .chain(frac.bytes().chain(zeros.clone()).take(shift))
        .collect();
    let int = int
        .iter()
        .position(|d| *d != b'0')
        .map_or(&b"0"[..], |first| int.get(first..).unwrap_or_default());
    let frac = frac.get(shift..).unwrap_or_default();
    let max = max as usize;
    let mut digits: alloc::vec::Vec<u8> = int
        .iter()
        .copied()
        .chain(frac.bytes().chain(zeros).take(max))
        .collect();
    if frac.as_bytes().get(max).is_some_and(|d| *d >= b'5') {
        // Carry the rounding up; a carry out of the first digit adds one.
        let mut carry = true;
        for d in digits.iter_mut().rev() {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                carry = false;
                break;
            }
        }
        if carry {
            digits.insert(0, b'1');
        }
    }
    let (int, frac) = digits.split_at(digits.len() - max);
    let mut keep = frac.len();
    while keep > min as usize && frac.get(keep - 1) == Some(&b'0') {
        keep -= 1;
    }
    let mut out = String::from(if n.is_sign_negative() { "-" } else { "" });
    for (i, d) in int.iter().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(char::from(*d));
    }
    if keep > 0 {
        out.push('.');
        out.extend(frac.iter().take(keep).map(|d| char::from(*d)));
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
