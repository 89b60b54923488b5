//! The WebAssembly face, for previews and servers (Studio's Build view, a
//! Node or Workers server): JSON text in, `{"ok", "html", "issues"}` as JSON
//! text out. The catalog is a loaded handle; what depends on the locale is
//! formatted by the engine's `Intl` (see [`Intl`]), in `locale` when one is
//! given, as the runtime formats it in the browser.

use crate::{
    render_markdown as markdown_html, render_surface_text as surface_html, Ghost, Mode, Options,
    Rendered,
};
use serde_json::Value;
use surfaces_core::function::{is_locale, DateInput, DateStyle, Host, NumberOptions};
use validator_wasm::issue::issues_json;
use validator_wasm::json_text;
use validator_wasm::wasm::{thrown, LoadedCatalog};
use wasm_bindgen::prelude::*;

/// `{"ok", "html", "issues"}`: `html` is null when the surface has errors.
fn outcome(rendered: Rendered) -> String {
    json_text(&validator_wasm::object([
        ("ok", rendered.html.is_some().into()),
        ("html", rendered.html.into()),
        ("issues", issues_json(&rendered.issues)),
    ]))
}

/// The options for `mode` (`"published"` or `"preview"`), `locale` and,
/// in a preview, `ghost` (`{op, path, component?}`).
fn options<'a>(
    mode: Option<&str>,
    locale: Option<&'a str>,
    ghost: &'a Value,
) -> Result<Options<'a>, JsError> {
    let text = |key| ghost.get(key).and_then(Value::as_str);
    let mode = match mode {
        None | Some("published") => Mode::Published,
        Some("preview") => Mode::Preview {
            ghost: text("op").zip(text("path")).map(|(op, path)| Ghost {
                op,
                path,
                component: ghost.get("component").filter(|c| c.is_object()),
            }),
        },
        Some(other) => {
            return Err(thrown(
                "invalid_option",
                "/mode",
                &["unknown render mode \"", other, "\" (published, preview)"].concat(),
            ))
        }
    };
    if let Some(tag) = locale.filter(|tag| !is_locale(tag)) {
        return Err(thrown(
            "invalid_option",
            "/locale",
            &[
                "\"",
                tag,
                concat!(
                    "\" is no language tag (",
                    surfaces_core::locale_rule!(),
                    ")"
                ),
            ]
            .concat(),
        ));
    }
    Ok(Options {
        host: &Intl,
        locale,
        mode,
    })
}

/// The ghost's JSON text read (null when absent or not JSON).
fn ghost_value(ghost: Option<String>) -> Value {
    ghost
        .and_then(|g| surfaces_core::json::parse(&g).ok())
        .unwrap_or(Value::Null)
}

/// `renderSurface(surfaceJson, catalog, mode?, locale?, ghostJson?)`: a
/// surface document as published-page or preview markup.
#[wasm_bindgen(js_name = renderSurface)]
pub fn render_surface(
    surface: &str,
    catalog: &LoadedCatalog,
    mode: Option<String>,
    locale: Option<String>,
    ghost: Option<String>,
) -> Result<String, JsError> {
    let ghost = ghost_value(ghost);
    let options = options(mode.as_deref(), locale.as_deref(), &ghost)?;
    Ok(outcome(surface_html(surface, &catalog.get(), options)))
}

/// `renderMarkdown(body, catalog, mode?, locale?)`: every surface fence of
/// a markdown body as published-page markup, in order.
#[wasm_bindgen(js_name = renderMarkdown)]
pub fn render_markdown(
    body: &str,
    catalog: &LoadedCatalog,
    mode: Option<String>,
    locale: Option<String>,
) -> Result<String, JsError> {
    let options = options(mode.as_deref(), locale.as_deref(), &Value::Null)?;
    Ok(outcome(markdown_html(body, &catalog.get(), options)))
}

/// `isInteractive(surfaceJson, catalog)`: whether a page showing the
/// surface needs the interaction runtime ([`Rendered::interactive`];
/// `false` for a surface with errors, which renders nothing).
#[wasm_bindgen(js_name = isInteractive)]
pub fn is_interactive(surface: &str, catalog: &LoadedCatalog) -> bool {
    let options = Options {
        host: &Intl,
        locale: None,
        mode: Mode::Published,
    };
    surface_html(surface, &catalog.get(), options).interactive()
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn object(json: &str) -> JsValue;

    /// JavaScript's `String(n)`, as the runtime asks for it (and smaller
    /// than Rust's float formatting, which nothing else here needs).
    #[wasm_bindgen(js_name = String)]
    fn number_string(n: f64) -> String;

    type Date;
    #[wasm_bindgen(constructor)]
    fn new(value: &JsValue) -> Date;

    #[wasm_bindgen(js_namespace = Intl)]
    type NumberFormat;
    #[wasm_bindgen(constructor, js_namespace = Intl, js_class = "NumberFormat", catch)]
    fn new(locale: &str, options: &JsValue) -> Result<NumberFormat, JsValue>;
    #[wasm_bindgen(method, js_class = "NumberFormat")]
    fn format(this: &NumberFormat, n: f64) -> String;

    #[wasm_bindgen(js_namespace = Intl)]
    type DateTimeFormat;
    #[wasm_bindgen(constructor, js_namespace = Intl, js_class = "DateTimeFormat", catch)]
    fn new(locale: &str, options: &JsValue) -> Result<DateTimeFormat, JsValue>;
    #[wasm_bindgen(method, js_class = "DateTimeFormat", js_name = format, catch)]
    fn format_date(this: &DateTimeFormat, date: &Date) -> Result<String, JsValue>;

    #[wasm_bindgen(js_namespace = Intl)]
    type PluralRules;
    #[wasm_bindgen(constructor, js_namespace = Intl, js_class = "PluralRules", catch)]
    fn new(locale: &str) -> Result<PluralRules, JsValue>;
    #[wasm_bindgen(method, js_class = "PluralRules")]
    fn select(this: &PluralRules, n: f64) -> String;
}

/// The JavaScript engine's `Intl`, with the options the published-page
/// runtime gives it (`crates/interaction-runtime/js/surface.js`): a date
/// as [`DateInput::for_intl`] gives it, in UTC, in en-US where no locale
/// is named (the runtime's default, and the CLI's, not the engine's), and
/// what `Intl` refuses (an unknown currency) formats as nothing.
struct Intl;

/// The locale `Intl` formats in: the one named, else en-US.
fn named(locale: Option<&str>) -> &str {
    locale.unwrap_or("en-US")
}

/// `{"style", "currency"?, "minimumFractionDigits"?, "maximumFractionDigits"?}`.
fn number_options(style: &str, currency: Option<&str>, o: Option<NumberOptions>) -> JsValue {
    let mut options = serde_json::json!({ "style": style });
    if let Some(c) = currency {
        options["currency"] = c.into();
    }
    if let Some(o) = o {
        if let Some(d) = o.min_fraction {
            options["minimumFractionDigits"] = d.into();
        }
        if let Some(d) = o.max_fraction {
            options["maximumFractionDigits"] = d.into();
        }
    }
    object(&json_text(&options))
}

impl Host for Intl {
    fn number_to_string(&self, n: f64) -> String {
        number_string(n)
    }
    fn format_date(&self, date: DateInput<'_>, style: DateStyle, locale: Option<&str>) -> String {
        let value = match date.for_intl() {
            DateInput::Iso(day) => JsValue::from_str(day),
            DateInput::EpochMs(ms) => JsValue::from_f64(ms),
        };
        let style = style.name();
        let options = object(&["{\"dateStyle\":\"", style, "\",\"timeZone\":\"UTC\"}"].concat());
        DateTimeFormat::new(named(locale), &options)
            .and_then(|f| f.format_date(&Date::new(&value)))
            .unwrap_or_default()
    }
    fn format_number(&self, n: f64, o: NumberOptions, locale: Option<&str>) -> String {
        let style = if o.percent { "percent" } else { "decimal" };
        NumberFormat::new(named(locale), &number_options(style, None, Some(o)))
            .map(|f| f.format(n))
            .unwrap_or_default()
    }
    fn format_currency(&self, n: f64, currency: &str, locale: Option<&str>) -> String {
        NumberFormat::new(
            named(locale),
            &number_options("currency", Some(currency), None),
        )
        .map(|f| f.format(n))
        .unwrap_or_default()
    }
    fn plural_is_one(&self, n: f64, locale: Option<&str>) -> bool {
        PluralRules::new(named(locale)).map_or(n == 1.0, |p| p.select(n) == "one")
    }
}
