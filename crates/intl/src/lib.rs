//! A native [`Host`] for the core's formatting functions: [`Cldr`] formats
//! dates, numbers, currencies and plurals from CLDR's data (through ICU4X,
//! compiled in), as a browser's `Intl` does from the same data, so that
//! `surfaces render --locale de-DE` writes the text the runtime would write
//! in that locale and hydration changes none of it.
//!
//! How each call maps, after `Intl`'s defaults:
//! - `formatNumber`: the number's shortest round-trip decimal, rounded half
//!   away from zero to between its minimum (default 0) and maximum (default
//!   3, for percent 0) fraction digits, then the locale's decimal pattern
//!   (digits, grouping, separators); percent multiplies by 100 first and
//!   uses the locale's percent pattern;
//! - `formatCurrency`: the currency's own fraction digits (ISO 4217, from
//!   CLDR: 2 for EUR, 0 for JPY) and the locale's pattern with the short
//!   symbol;
//! - `formatDate`: the calendar date in UTC (see
//!   [`DateInput::civil`]), year, month and day at the style's length,
//!   with the weekday for `full`;
//! - `pluralize`: the locale's cardinal rules over the count rounded as
//!   `Intl.PluralRules` rounds it (at most 3 fraction digits).
//!
//! A call without a locale formats in en-US; a tag ICU4X cannot read
//! formats as nothing, as `Intl` throws on it. A browser's engine may carry
//! another CLDR release than the one compiled in here: where the two
//! releases differ (rarely: a symbol, a comma in a long date), the runtime
//! rewrites that one text on hydration.
//!
//! ```
//! use surfaces_core::function::{DateInput, DateStyle, Host, NumberOptions};
//! use surfaces_intl::Cldr;
//!
//! let de = Some("de-DE");
//! assert_eq!(Cldr.format_currency(1234.5, "eur", de), "1.234,50\u{a0}€");
//! assert_eq!(Cldr.format_number(0.256, NumberOptions { percent: true, ..Default::default() }, de), "26\u{a0}%");
//! assert_eq!(Cldr.format_date(DateInput::Iso("2026-12-01"), DateStyle::Long, de), "1. Dezember 2026");
//! assert_eq!(Cldr.format_currency(1234.5, "USD", None), "$1,234.50");
//! assert!(Cldr.plural_is_one(1.0, Some("fr-FR")) && Cldr.plural_is_one(0.0, Some("fr-FR")));
//! ```

use fixed_decimal::{Decimal, FloatPrecision, SignedRoundingMode, UnsignedRoundingMode};
use icu_datetime::fieldsets::{YMD, YMDE};
use icu_datetime::input::Date;
use icu_datetime::DateTimeFormatter;
use icu_decimal::DecimalFormatter;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::currency::CurrencyType;
use icu_experimental::dimension::percent::formatter::PercentFormatter;
use icu_locale::{locale, Locale};
use icu_plurals::{PluralCategory, PluralRules};
use surfaces_core::function::{
    js_number_string, DateInput, DateStyle, Host, NumberOptions, PlainHost,
};

/// The CLDR host: see the crate's documentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cldr;

/// The locale a call formats in: en-US without one, `None` for a tag
/// ICU4X does not read.
fn locale_of(tag: Option<&str>) -> Option<Locale> {
    match tag {
        None => Some(locale!("en-US")),
        Some(tag) => Locale::try_from_str(tag).ok(),
    }
}

/// `n` as its shortest round-trip decimal, rounded half away from zero to
/// at most `max` fraction digits and padded to at least `min`.
fn decimal(n: f64, min: u32, max: u32) -> Option<Decimal> {
    scaled(n, 0, min, max)
}

/// [`decimal`] of `n` times 10 to the `pow10`, scaled in decimal as `Intl`
/// scales a percent (1.005 is 100.5 %, where `1.005 * 100.0` is
/// 100.49999999999999).
fn scaled(n: f64, pow10: i16, min: u32, max: u32) -> Option<Decimal> {
    let mut d = Decimal::try_from_f64(n, FloatPrecision::RoundTrip).ok()?;
    d.multiply_pow10(pow10);
    d.absolute.trim_start(); // (zero times 100 reads 000)
    let (min, max) = (i16::try_from(min).ok()?, i16::try_from(max).ok()?);
    d.round_with_mode(
        -max,
        SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
    );
    d.absolute.trim_end();
    d.absolute.pad_end(-min);
    Some(d)
}

impl Host for Cldr {
    fn number_to_string(&self, n: f64) -> String {
        js_number_string(n)
    }

    fn format_date(&self, date: DateInput<'_>, style: DateStyle, locale: Option<&str>) -> String {
        let (Some((year, month, day)), Some(locale)) = (date.civil(), locale_of(locale)) else {
            return String::new();
        };
        let (Ok(month), Ok(day)) = (u8::try_from(month), u8::try_from(day)) else {
            return String::new();
        };
        let Ok(date) = Date::try_new_iso(year, month, day) else {
            return String::new();
        };
        let prefs = (&locale).into();
        // Year, month and day at the style's length; `full` adds the weekday.
        let ymd = match style {
            DateStyle::Short => Some(YMD::short()),
            DateStyle::Medium => Some(YMD::medium()),
            DateStyle::Long => Some(YMD::long()),
            DateStyle::Full => None,
        };
        let formatted = match ymd {
            Some(fields) => {
                DateTimeFormatter::try_new(prefs, fields).map(|f| f.format(&date).to_string())
            }
            None => {
                DateTimeFormatter::try_new(prefs, YMDE::long()).map(|f| f.format(&date).to_string())
            }
        };
        formatted.unwrap_or_default()
    }

    fn format_number(&self, n: f64, options: NumberOptions, locale: Option<&str>) -> String {
        if !n.is_finite() {
            return PlainHost.format_number(n, options, locale);
        }
        let Some(locale) = locale_of(locale) else {
            return String::new();
        };
        let (min, max) = options.fraction_digits();
        if options.percent {
            let (Some(d), Ok(f)) = (
                scaled(n, 2, min, max),
                PercentFormatter::try_new((&locale).into(), Default::default()),
            ) else {
                return String::new();
            };
            return f.format(&d).to_string();
        }
        match (
            decimal(n, min, max),
            DecimalFormatter::try_new((&locale).into(), Default::default()),
        ) {
            (Some(d), Ok(f)) => f.format(&d).to_string(),
            _ => String::new(),
        }
    }

    fn format_currency(&self, n: f64, currency: &str, locale: Option<&str>) -> String {
        if !n.is_finite() {
            return PlainHost.format_currency(n, currency, locale);
        }
        let (Some(locale), Ok(code)) = (
            locale_of(locale),
            CurrencyType::try_from_str(&currency.to_ascii_lowercase()),
        ) else {
            return String::new();
        };
        let Ok(f) = CurrencyFormatter::try_new_symbol((&locale).into(), code, Default::default())
        else {
            return String::new();
        };
        match Decimal::try_from_f64(n, FloatPrecision::RoundTrip) {
            Ok(d) => f.format_fixed_decimal(&d).to_string(),
            Err(_) => String::new(),
        }
    }

    fn plural_is_one(&self, n: f64, locale: Option<&str>) -> bool {
        let (Some(locale), Some(d)) = (locale_of(locale), decimal(n, 0, 3)) else {
            return false;
        };
        PluralRules::try_new_cardinal((&locale).into())
            .is_ok_and(|rules| rules.category_for(&d) == PluralCategory::One)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hostile values answer, never panic: odd tags, numbers JSON cannot
    /// write, dates at and past a `Date`'s range, unknown currencies.
    #[test]
    fn every_input_answers() {
        let numbers = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            1e308,
            5e-324,
            1e21,
            -1.5,
        ];
        let dates = [
            DateInput::Iso("0000-01-01"),
            DateInput::Iso("9999-12-31T23:59:59Z"),
            DateInput::Iso("2026-02-30"),
            DateInput::EpochMs(8.64e15),
            DateInput::EpochMs(-8.64e15),
            DateInput::EpochMs(8.64e15 + 1.0),
            DateInput::EpochMs(f64::NAN),
        ];
        for locale in [
            None,
            Some(""),
            Some("x"),
            Some("zz-ZZ"),
            Some("de-DE-u-nu-arab"),
            Some("a-b-c-d"),
        ] {
            for n in numbers {
                let options = NumberOptions {
                    min_fraction: Some(100),
                    max_fraction: Some(100),
                    percent: false,
                };
                for o in [NumberOptions::default(), options] {
                    Cldr.format_number(n, o, locale);
                }
                for c in ["EUR", "eur", "XXX", "ZZZ"] {
                    Cldr.format_currency(n, c, locale);
                }
                Cldr.plural_is_one(n, locale);
            }
            for d in dates {
                for style in [
                    DateStyle::Short,
                    DateStyle::Medium,
                    DateStyle::Long,
                    DateStyle::Full,
                ] {
                    Cldr.format_date(d, style, locale);
                }
            }
        }
        assert_eq!(
            Cldr.format_date(DateInput::EpochMs(8.64e15 + 1.0), DateStyle::Long, None),
            ""
        );
        assert_eq!(
            Cldr.format_number(1.0, NumberOptions::default(), Some("")),
            ""
        );
    }

    /// A percent scales in decimal, as `Intl` does (V8's `format(1.005)` in
    /// percent is `101%`), in both hosts.
    #[test]
    fn percent_scales_in_decimal() {
        let percent = NumberOptions {
            percent: true,
            ..Default::default()
        };
        let de = Some("de-DE");
        assert_eq!(Cldr.format_number(1.005, percent, None), "101%");
        assert_eq!(Cldr.format_number(1.005, percent, de), "101\u{a0}%");
        assert_eq!(PlainHost.format_number(1.005, percent, None), "101%");
        assert_eq!(PlainHost.format_number(0.0005, percent, None), "0%");
    }

    /// In en-US the CLDR host and the plain one agree on the common cases
    /// (the plain one was written to `Intl`'s en-US strings).
    #[test]
    fn en_us_agrees_with_the_plain_host() {
        let numbers = [
            0.0,
            1.0,
            12.5,
            999.9995,
            1234.5678,
            -2.75,
            1e6,
            0.256,
            // Percent scales in decimal: 100.5 %, so 101 % (not 100 %).
            1.005,
            0.0005,
            1999.5,
            123456789.125,
        ];
        for n in numbers {
            for o in [
                NumberOptions::default(),
                NumberOptions {
                    percent: true,
                    ..Default::default()
                },
                NumberOptions {
                    min_fraction: Some(2),
                    max_fraction: Some(2),
                    percent: false,
                },
                NumberOptions {
                    min_fraction: None,
                    max_fraction: Some(0),
                    percent: false,
                },
            ] {
                assert_eq!(
                    Cldr.format_number(n, o, None),
                    PlainHost.format_number(n, o, None),
                    "{n} {o:?}"
                );
            }
            for c in ["USD", "EUR", "GBP", "JPY"] {
                assert_eq!(
                    Cldr.format_currency(n, c, None),
                    PlainHost.format_currency(n, c, None),
                    "{n} {c}"
                );
            }
            assert_eq!(
                Cldr.plural_is_one(n, None),
                PlainHost.plural_is_one(n, None),
                "{n}"
            );
        }
        for d in [
            DateInput::Iso("2026-03-04"),
            DateInput::Iso("1999-12-31T10:00:00Z"),
            DateInput::EpochMs(1767225600000.0),
        ] {
            for style in [
                DateStyle::Short,
                DateStyle::Medium,
                DateStyle::Long,
                DateStyle::Full,
            ] {
                assert_eq!(
                    Cldr.format_date(d, style, None),
                    PlainHost.format_date(d, style, None),
                    "{d:?} {style:?}"
                );
            }
        }
    }
}
