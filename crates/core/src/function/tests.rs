use super::rules::{char_count, is_locale, replace_count, starts_with_white_space};
use super::*;
use crate::problem::Findings;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Value as Json};

fn problems(v: Json) -> Vec<(&'static str, String)> {
    let mut found = Findings::default();
    check_value(&&v, &mut String::from("/v"), &mut found);
    found
        .problems
        .into_iter()
        .map(|p| (p.code, p.pointer))
        .collect()
}

fn run(v: Json, data: Json) -> Option<Value<Json>> {
    evaluate(&&v, &&data, &PlainHost).map(|r| match r {
        Value::Data(d) => Value::Data(d.clone()),
        Value::Missing => Value::Missing,
        Value::Text(t) => Value::Text(t),
        Value::Number(n) => Value::Number(n),
        Value::Bool(b) => Value::Bool(b),
    })
}

fn text(v: Json, data: Json) -> String {
    match run(v.clone(), data) {
        Some(Value::Text(t)) => t,
        other => panic!("{v}: {other:?}"),
    }
}

fn boolean(v: Json, data: Json) -> bool {
    match run(v.clone(), data) {
        Some(Value::Bool(b)) => b,
        other => panic!("{v}: {other:?}"),
    }
}

#[test]
fn valid_calls_pass_and_record_bindings() {
    let v = json!({"call": "formatCurrency", "args": {"value": {"path": "/price"}, "currency": "EUR", "locale": "de-DE"}});
    let mut found = Findings::default();
    check_value(&&v, &mut String::from("/p"), &mut found);
    assert!(found.problems.is_empty());
    assert_eq!(found.bindings[0].pointer, "/price");
    assert_eq!(found.bindings[0].at, "/p/args/value/path");
    for v in [
        json!({"call": "formatDate", "args": {"value": "2024-05-01", "style": "long"}}),
        json!({"call": "formatDate", "args": {"value": 0}}),
        json!({"call": "formatNumber", "args": {"value": 1.5, "minimumFractionDigits": 1, "maximumFractionDigits": 2, "style": "percent"}}),
        json!({"call": "pluralize", "args": {"count": 2, "one": "a", "other": "b", "zero": "c"}}),
        json!({"call": "concat", "args": {"values": ["a", 1, {"path": "/x"}, {"call": "length", "args": {"value": "abc"}}]}}),
        json!({"call": "length", "args": {"value": [1, 2]}}),
        json!({"call": "range", "args": {"value": 3}}),
        json!("plain literal"),
        json!({"any": "object literal"}),
    ] {
        assert_eq!(problems(v.clone()), [], "{v}");
    }
}

#[test]
fn unknown_functions_are_named() {
    assert_eq!(
        problems(json!({"call": "eval", "args": {}})),
        [("unknown_function", "/v/call".into())]
    );
    assert_eq!(
        problems(json!({"call": 3, "args": {}})),
        [("invalid_args", "/v".into())]
    );
}

#[test]
fn wrong_arguments_are_invalid_args_at_their_place() {
    let cases = [
        (json!({"call": "length"}), "/v"),
        (json!({"call": "length", "args": []}), "/v/args"),
        (json!({"call": "length", "args": {}}), "/v/args"),
        (
            json!({"call": "length", "args": {"value": 1, "extra": 2}}),
            "/v/args/extra",
        ),
        (
            json!({"call": "length", "args": {"value": 1}, "message": "x"}),
            "/v/message",
        ),
        (
            json!({"call": "formatDate", "args": {"value": "yesterday"}}),
            "/v/args/value",
        ),
        (
            json!({"call": "formatDate", "args": {"value": "2023-02-30"}}),
            "/v/args/value",
        ),
        (
            json!({"call": "formatDate", "args": {"value": 1, "style": "huge"}}),
            "/v/args/style",
        ),
        (
            json!({"call": "formatNumber", "args": {"value": "12"}}),
            "/v/args/value",
        ),
        (
            json!({"call": "formatNumber", "args": {"value": 1, "maximumFractionDigits": 1.5}}),
            "/v/args/maximumFractionDigits",
        ),
        (
            json!({"call": "formatNumber", "args": {"value": 1, "maximumFractionDigits": 101}}),
            "/v/args/maximumFractionDigits",
        ),
        (
            json!({"call": "formatNumber", "args": {"value": 1, "style": "currency"}}),
            "/v/args/style",
        ),
        (
            json!({"call": "formatCurrency", "args": {"value": 1}}),
            "/v/args",
        ),
        (
            json!({"call": "formatCurrency", "args": {"value": 1, "currency": "EURO"}}),
            "/v/args/currency",
        ),
        (
            json!({"call": "formatCurrency", "args": {"value": 1, "currency": "EUR", "locale": "en US"}}),
            "/v/args/locale",
        ),
        (
            json!({"call": "pluralize", "args": {"count": 1, "one": "a"}}),
            "/v/args",
        ),
        (
            json!({"call": "pluralize", "args": {"count": 1, "one": 1, "other": "b"}}),
            "/v/args/one",
        ),
        (
            json!({"call": "concat", "args": {"values": "ab"}}),
            "/v/args/values",
        ),
        (
            json!({"call": "minLength", "args": {"value": "ab", "min": "2"}}),
            "/v/args/min",
        ),
        (
            json!({"call": "range", "args": {"value": 1, "max": null}}),
            "/v/args/max",
        ),
        (
            json!({"call": "length", "args": {"value": {"path": "/a", "b": 1}}}),
            "/v/args/value",
        ),
        (
            json!({"call": "formatNumber", "args": {"value": {"call": "concat", "args": {"values": []}}}}),
            "/v/args/value",
        ),
    ];
    for (v, at) in cases {
        assert_eq!(
            problems(v.clone()),
            [("invalid_args", String::from(at))],
            "{v}"
        );
    }
}

#[test]
fn bad_binding_paths_inside_calls() {
    assert_eq!(
        problems(json!({"call": "length", "args": {"value": {"path": "/constructor"}}})),
        [("unsafe_path", "/v/args/value/path".into())]
    );
    assert_eq!(
        problems(json!({"path": "x"})),
        [("invalid_pointer", "/v/path".into())]
    );
}

fn nested(levels: usize) -> Json {
    let mut v = json!("x");
    for _ in 0..levels {
        v = json!({"call": "concat", "args": {"values": [v]}});
    }
    v
}

#[test]
fn calls_nest_at_most_four_deep() {
    assert_eq!(problems(nested(MAX_NESTING)), []);
    assert_eq!(text(nested(MAX_NESTING), json!({})), "x");
    let deep = problems(nested(MAX_NESTING + 1));
    assert_eq!(
        deep,
        [(
            "invalid_args",
            "/v/args/values/0/args/values/0/args/values/0/args/values/0".into()
        )]
    );
    assert!(run(nested(MAX_NESTING + 1), json!({})).is_none());
}

#[test]
fn checks_need_a_check_function_and_a_message() {
    let check = |v: Json| {
        let mut found = Findings::default();
        check_check(&&v, &mut String::from("/c"), &mut found);
        found
            .problems
            .into_iter()
            .map(|p| (p.code, p.pointer))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        check(
            json!({"call": "email", "args": {"value": {"path": "/e"}}, "message": "Enter an email"})
        ),
        []
    );
    assert_eq!(
        check(json!({"call": "email", "args": {"value": "a"}})),
        [("invalid_args", "/c".into())]
    );
    assert_eq!(
        check(json!({"call": "email", "args": {"value": "a"}, "message": ""})),
        [("invalid_args", "/c".into())]
    );
    assert_eq!(
        check(json!({"call": "length", "args": {"value": "a"}, "message": "m"})),
        [("invalid_args", "/c/call".into())]
    );
    let data = json!({"e": "ada@example.com"});
    let c = json!({"call": "email", "args": {"value": {"path": "/e"}}, "message": "m"});
    assert_eq!(run_check(&&c, &&data, &PlainHost), Some(true));
    let c = json!({"call": "concat", "args": {"values": []}, "message": "m"});
    assert_eq!(run_check(&&c, &&data, &PlainHost), None);
}

#[test]
fn concat_and_length() {
    let data = json!({"name": "Zoë", "n": 1e21, "list": [1, 2, 3], "t": true});
    assert_eq!(
        text(
            json!({"call": "concat", "args": {"values": [{"path": "/name"}, " ", 0.1, " ", {"path": "/n"}, {"path": "/t"}, null, {"path": "/missing"}, [1]]}}),
            data.clone()
        ),
        "Zoë 0.1 1e+21true"
    );
    let len = |v: Json| match run(
        json!({"call": "length", "args": {"value": v}}),
        data.clone(),
    ) {
        Some(Value::Number(n)) => n,
        other => panic!("{other:?}"),
    };
    assert_eq!(len(json!({"path": "/name"})), 3.0);
    assert_eq!(len(json!("🙂a")), 2.0);
    assert_eq!(len(json!({"path": "/list"})), 3.0);
    assert_eq!(len(json!(42)), 0.0);
    assert_eq!(len(json!({"path": "/missing"})), 0.0);
}

#[test]
fn validation_functions() {
    let data = json!({"e": "", "z": 0, "f": false, "l": [], "o": {}});
    let req = |v: Json| {
        boolean(
            json!({"call": "required", "args": {"value": v}}),
            data.clone(),
        )
    };
    assert!(!req(json!({"path": "/missing"})));
    assert!(!req(json!(null)));
    assert!(!req(json!({"path": "/e"})));
    assert!(!req(json!({"path": "/f"})));
    assert!(!req(json!({"path": "/l"})));
    assert!(req(json!({"path": "/z"})));
    assert!(req(json!({"path": "/o"})));
    assert!(req(json!("x")));
    assert!(boolean(
        json!({"call": "minLength", "args": {"value": "abc", "min": 3}}),
        json!({})
    ));
    assert!(!boolean(
        json!({"call": "minLength", "args": {"value": "ab", "min": 3}}),
        json!({})
    ));
    assert!(boolean(
        json!({"call": "maxLength", "args": {"value": "äöü", "max": 3}}),
        json!({})
    ));
    assert!(!boolean(
        json!({"call": "maxLength", "args": {"value": [1, 2], "max": 1}}),
        json!({})
    ));
    assert!(boolean(
        json!({"call": "range", "args": {"value": 5, "min": 1, "max": 5}}),
        json!({})
    ));
    assert!(!boolean(
        json!({"call": "range", "args": {"value": 6, "min": 1, "max": 5}}),
        json!({})
    ));
    assert!(!boolean(
        json!({"call": "range", "args": {"value": "5"}}),
        json!({})
    ));
    assert!(boolean(
        json!({"call": "email", "args": {"value": "a.b@c.de"}}),
        json!({})
    ));
}

#[test]
fn email_rule() {
    let wide = ["é@", &"ü".repeat(249), ".de"].concat(); // 254 characters, 504 bytes
    for ok in ["a@b.c", "first.last+tag@sub.example.org", "é@ü.de", &wide] {
        assert!(is_email(ok), "{ok}");
    }
    let long = ["a@", &"b".repeat(250), ".com"].concat();
    for bad in [
        "",
        "a",
        "@b.c",
        "a@b",
        "a@.b",
        "a@b.",
        "a@@b.c",
        "a@b@c.d",
        "a b@c.d",
        "a@b.c\n",
        &long,
        "a\u{a0}b@c.d",
        "a@b.c\u{3000}",
        "a@b\u{2028}.c",
        &[&wide, "x"].concat(),
    ] {
        assert!(!is_email(bad), "{bad}");
    }
}

#[test]
fn iso_dates() {
    for ok in [
        "2024-01-31",
        "2024-02-29",
        "2000-02-29",
        "2024-01-31T23:59",
        "2024-01-31T23:59:59.123Z",
        "2024-01-31T00:00:00+02:00",
        "2024-01-31T10:00-23:59",
        "2024-01-31T10:00:00.5",
    ] {
        assert!(parse_iso_date(ok).is_some(), "{ok}");
    }
    for bad in [
        "2024-1-31",
        "1900-02-29",
        "2024-04-31",
        "2024-13-01",
        "2024-01-31T24:00",
        "2024-01-31 10:00",
        "2024-01-31T10:00:00.Z",
        "2024-01-31T10:00+2",
        "2024-01-31x",
        "2024-01-31T",
        "2024-01-31T10:60",
        "2024-01-31T10:00:60",
        "2024-01-31T10:00Zx",
        "2024-01-31T10:00+24:00",
        "2024-01-31T10:00+02:60",
        "2024-00-10",
        "2024-01-00",
        "",
        "２０２４-01-01",
    ] {
        assert!(parse_iso_date(bad).is_none(), "{bad}");
    }
}

#[test]
fn plain_host_formats_like_intl_en_us() {
    let date = |value: Json, style: &str| {
        text(
            json!({"call": "formatDate", "args": {"value": value, "style": style}}),
            json!({}),
        )
    };
    assert_eq!(date(json!("2024-03-05"), "short"), "3/5/24");
    assert_eq!(date(json!("2024-03-05"), "medium"), "Mar 5, 2024");
    assert_eq!(date(json!("2024-03-05T10:00Z"), "long"), "March 5, 2024");
    assert_eq!(date(json!("2024-03-05"), "full"), "Tuesday, March 5, 2024");
    assert_eq!(date(json!(0), "full"), "Thursday, January 1, 1970");
    assert_eq!(date(json!(-86_400_000), "medium"), "Dec 31, 1969");
    assert_eq!(date(json!(1e300), "medium"), "");
    assert_eq!(
        text(
            json!({"call": "formatDate", "args": {"value": {"path": "/x"}}}),
            json!({"x": "soon"})
        ),
        ""
    );
    let num = |args: Json| text(json!({"call": "formatNumber", "args": args}), json!({}));
    assert_eq!(num(json!({"value": 1234567.891})), "1,234,567.891");
    assert_eq!(
        num(json!({"value": 1234.5, "minimumFractionDigits": 2})),
        "1,234.50"
    );
    assert_eq!(num(json!({"value": 0.256, "style": "percent"})), "26%");
    // Intl's signDisplay "auto" signs negative zero, rounded or not; it
    // rounds half away from zero on the shortest decimal (`12.5` is 13).
    assert_eq!(num(json!({"value": -0.0001})), "-0");
    assert_eq!(
        num(json!({"value": 12.5, "maximumFractionDigits": 0})),
        "13"
    );
    assert_eq!(
        num(json!({"value": 1.005, "maximumFractionDigits": 2})),
        "1.01"
    );
    assert_eq!(num(json!({"value": 999.9995})), "1,000");
    assert_eq!(num(json!({"value": -12.5})), "-12.5");
    let cur = |v: f64, c: &str| {
        text(
            json!({"call": "formatCurrency", "args": {"value": v, "currency": c}}),
            json!({}),
        )
    };
    assert_eq!(cur(9.0, "EUR"), "€9.00");
    assert_eq!(cur(1234.5, "USD"), "$1,234.50");
    assert_eq!(cur(-3.0, "GBP"), "-£3.00");
    assert_eq!(cur(500.0, "JPY"), "¥500");
    assert_eq!(cur(1.0, "chf"), "CHF\u{a0}1.00");
}

#[test]
fn pluralize_selects_zero_one_other() {
    let p = |count: Json| {
        text(
            json!({"call": "pluralize", "args": {"count": count, "zero": "none", "one": "{count} item", "other": "{count} items"}}),
            json!({}),
        )
    };
    assert_eq!(p(json!(0)), "none");
    assert_eq!(p(json!(1)), "1 item");
    assert_eq!(p(json!(2.5)), "2.5 items");
    let no_zero = json!({"call": "pluralize", "args": {"count": {"path": "/n"}, "one": "one", "other": "{count} left"}});
    assert_eq!(text(no_zero, json!({"n": 0})), "0 left");
}

#[test]
fn js_number_strings() {
    for (n, s) in [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789012.0, "123456789012"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (1.5e-10, "1.5e-10"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "Infinity"),
        (f64::NEG_INFINITY, "-Infinity"),
        (f64::MAX, "1.7976931348623157e+308"),
    ] {
        assert_eq!(js_number_string(n), s, "{n}");
    }
}

#[test]
fn evaluation_refuses_invalid_calls() {
    for v in [
        json!({"call": "nope", "args": {}}),
        json!({"call": "length"}),
        json!({"call": "minLength", "args": {"value": "a"}}),
        json!({"call": "concat", "args": {"values": 1}}),
        json!({"call": "formatDate", "args": {"value": 1, "style": "huge"}}),
        json!({"path": "/__proto__"}),
    ] {
        assert!(run(v.clone(), json!({})).is_none(), "{v}");
    }
    assert_eq!(
        run(json!({"path": "/gone"}), json!({})),
        Some(Value::Missing)
    );
    // A given argument that does not evaluate fails the call, even one
    // this count would not have used (`one`, with a zero count and `zero`).
    let unused_but_invalid = json!({"call": "pluralize", "args": {
        "count": 0, "zero": "none", "one": {"path": "/__proto__"}, "other": "{count}"}});
    assert!(run(unused_but_invalid, json!({})).is_none());
    // The currency code is taken in either case.
    let currency = |code: &str| {
        text(
            json!({"call": "formatCurrency", "args": {"value": 9.5, "currency": code}}),
            json!({}),
        )
    };
    assert_eq!(currency("eur"), currency("EUR"));
    assert_eq!(currency("eUr"), "€9.50");
    assert_eq!(
        spec("email").map(|s| s.name.to_string()),
        Some("email".into())
    );
    for f in FUNCTIONS {
        for a in f.args {
            assert!(!a.kind.describe().is_empty());
        }
    }
}

#[test]
fn byte_level_text_rules_match_the_standard_library() {
    // The size-motivated byte loops give what `chars().count()`,
    // `char::is_whitespace` and `str::replace` give.
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let mut buf = [0u8; 4];
        let encoded = c.encode_utf8(&mut buf).as_bytes();
        assert_eq!(starts_with_white_space(encoded), c.is_whitespace(), "{c:?}");
        for i in 1..encoded.len() {
            assert!(!starts_with_white_space(&encoded[i..]), "{c:?} at {i}");
        }
    }
    for text in ["", "abc", "é", "日本語 ok", "🙂🙂", "a\u{300}"] {
        assert_eq!(char_count(text), text.chars().count(), "{text}");
    }
    for text in [
        "{count}",
        "x {count} y {count}",
        "{count{count}}",
        "none",
        "{coun",
        "",
    ] {
        let want = text.replace("{count}", "7");
        assert_eq!(replace_count(text, || String::from("7")), want);
    }
    // What Intl.getCanonicalLocales takes (true) or throws on (false).
    for (tag, locale) in [
        ("en", true),
        ("en-US", true),
        ("EN-us", true),
        ("und", true),
        ("abcde", true),
        ("zh-Hant-TW", true),
        ("es-419", true),
        ("sr-Latn", true),
        ("en-12345678", true),
        ("en-US-u-ca-buddhist", true),
        ("en-US-x-foo", true),
        ("x", false),
        ("root", false),
        ("abcd", false),
        ("123", false),
        ("x-private", false),
        ("i-klingon", false),
        ("en-a", false),
        ("en-toolongsubtag", false),
        ("a-", false),
        ("-a", false),
        ("en--US", false),
        ("abcdefghi", false),
        ("de_DE", false),
        ("zh_Hant", false),
        ("", false),
    ] {
        assert_eq!(is_locale(tag), locale, "{tag}");
    }
}

/// A host without the function set, as the published-page module for
/// pages whose surfaces hold no call is built.
struct NoCalls;

impl Host for NoCalls {
    fn number_to_string(&self, n: f64) -> String {
        PlainHost.number_to_string(n)
    }
    fn format_date(&self, _: DateInput<'_>, _: DateStyle, _: Option<&str>) -> String {
        unreachable!("a host without calls formats no date")
    }
    fn format_number(&self, _: f64, _: NumberOptions, _: Option<&str>) -> String {
        unreachable!("a host without calls formats no number")
    }
    fn format_currency(&self, _: f64, _: &str, _: Option<&str>) -> String {
        unreachable!("a host without calls formats no currency")
    }
    fn plural_is_one(&self, _: f64, _: Option<&str>) -> bool {
        unreachable!("a host without calls reads no plural")
    }
    fn calls(&self) -> bool {
        false
    }
}

#[test]
fn a_host_without_calls_reads_literals_and_bindings_and_no_call() {
    let data = json!({"n": 2.5, "name": "Ada"});
    let host = InLocale {
        host: &NoCalls,
        locale: Some("de-DE"),
    };
    let bound = json!({"path": "/n"});
    let read = evaluate(&&bound, &&data, &host).expect("a binding follows section 3");
    assert_eq!(read.to_text(&host), "2.5");
    let literal = json!("plain");
    assert!(matches!(
        evaluate(&&literal, &&data, &host),
        Some(Value::Data(_))
    ));
    for c in [
        json!({"call": "formatNumber", "args": {"value": {"path": "/n"}}}),
        json!({"call": "concat", "args": {"values": ["a", "b"]}}),
    ] {
        assert!(evaluate(&&c, &&data, &host).is_none(), "{c}");
        assert!(call(&&c, &&data, &host).is_none(), "{c}");
        // The same call with the function set.
        assert!(evaluate(&&c, &&data, &PlainHost).is_some(), "{c}");
    }
    let check = json!({"call": "required", "args": {"value": {"path": "/name"}}, "message": "m"});
    assert_eq!(run_check(&&check, &&data, &host), None);
    assert_eq!(run_check(&&check, &&data, &PlainHost), Some(true));
}

#[test]
fn a_concat_longer_than_the_data_limit_is_no_answer_and_its_nesting_costs_no_product() {
    // At the limit, a text; one byte past it, no answer.
    let at = |n: usize| json!({"call": "concat", "args": {"values": [{"path": "/a"}, {"path": "/b"}]}, "n": n});
    let data = |b: usize| json!({"a": "x".repeat(MAX_TEXT - 10), "b": "y".repeat(b)});
    assert_eq!(text(at(0), data(10)).len(), MAX_TEXT);
    assert!(run(at(0), data(11)).is_none());
    // Nested four deep, 18 values a level, a 60 KB value at the bottom: the
    // text would be 18^4 times it (about 6 GB); the innermost concat passes
    // the limit at once and every level around it stops at its first value.
    let mut v = json!({"path": "/big"});
    for _ in 0..MAX_NESTING {
        v = json!({"call": "concat", "args": {"values": alloc::vec![v; 18]}});
    }
    assert!(run(v, json!({"big": "z".repeat(60_000)})).is_none());
}
