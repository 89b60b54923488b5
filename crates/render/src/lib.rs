//! The reference renderer: a validated surface and its catalog to the
//! published-page markup of SPEC.md section 10, which the interaction runtime
//! hydrates.
//!
//! The output works without JavaScript: every bound value is rendered with its
//! initial state (computed by [`surfaces_core`]'s functions over
//! [`PlainHost`], the deterministic en-US host; the runtime re-formats with
//! the reader's `Intl` where a binding asks for a locale), hidden parts carry
//! `hidden`, disclosures are native `<details>`, toggles and tabs are radio
//! groups. All text is escaped; the state is escaped for a script element
//! (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes), so data holding
//! `</script>` stays data.
//!
//! ```
//! use surfaces_render::render_surface;
//! use validator_wasm::Catalog;
//!
//! let surface = serde_json::json!({
//!     "id": "pricing", "kind": "surface", "catalog": "blog@1",
//!     "components": [
//!         {"id": "root", "component": "Stack", "children": ["title", "plans"]},
//!         {"id": "title", "component": "Heading", "props": {"text": {"path": "/headline"}}},
//!         {"id": "plans", "component": "Toggle",
//!          "props": {"options": ["monthly", "yearly"], "value": {"path": "/billing"}}}
//!     ],
//!     "data": {"headline": "Pricing <2024>", "billing": "monthly"}
//! });
//! let html = render_surface(&surface, &Catalog::default_blog()).unwrap();
//! assert!(html.starts_with(r#"<div data-ch-surface="pricing""#));
//! assert!(html.contains(r#"<h2 data-ch-text="/headline">Pricing &lt;2024&gt;</h2>"#));
//! assert!(html.contains(r#"value="monthly" data-ch-model="/billing" checked>"#));
//! assert!(html.contains(r#"{"headline":"Pricing \u003c2024\u003e","billing":"monthly"}"#));
//!
//! // A surface with errors is refused, with the validator's issues.
//! let broken = serde_json::json!({"components": [{"id": "root", "component": "Stack", "children": ["gone"]}]});
//! let issues = render_surface(&broken, &Catalog::default_blog()).unwrap_err();
//! assert_eq!(issues[0].code, "unresolved_child");
//! ```
//!
//! # Choices where SPEC.md is silent
//! - Components flagged by validation (`unknown_component`, `invalid_prop`,
//!   `children_not_allowed`) are not rendered, nor their children.
//! - Class names are `ch-<component>` (lower case) plus `ch-<prop>-<value>`
//!   for enum props; a theme styles them. A component the catalog knows but
//!   the renderer does not (a theme's own) renders as
//!   `<div class="ch-component" data-component="Name">` with its children.
//! - `asset:NAME` sources render as `/assets/NAME`.
//! - `Markdown` renders its source as escaped paragraphs (split on blank
//!   lines), not as markdown: the site's markdown pipeline owns that.
//! - `Chart` renders its data as a table (an accessible fallback a theme can
//!   replace); `Form` renders its fields and a button running `onSubmit`.
//! - Element ids are `<surface>-<component>` (radio group names) and
//!   `<surface>-<component>-msg` (check messages), so ids stay unique per page.

use serde_json::Value;
use std::collections::HashSet;
use surfaces_core::function::{self, PlainHost};
use surfaces_core::{condition, truthy};
use validator_wasm::markdown::{read_body, validate_markdown};
use validator_wasm::{has_errors, validate_surface, Catalog, Issue, Severity};

/// Renders the surfaces of a markdown body (SPEC.md section 8), in order, as
/// published-page HTML; the prose around them is the site's markdown
/// pipeline's to render. Errors anywhere in the body refuse it: the
/// validator's issues (with their lines) come back instead.
///
/// ```
/// let body = "Plans:\n\n```surface {\"id\":\"plans\"}\n{\"data\":{\"n\":2}}\n\
///             {\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":{\"path\":\"/n\"}}}\n```\n";
/// let html = surfaces_render::render_markdown(body, &validator_wasm::Catalog::default_blog()).unwrap();
/// assert!(html.contains(r#"<div data-ch-surface="plans">"#));
/// assert!(html.contains(r#"data-ch-text="/n">2</p>"#));
/// ```
pub fn render_markdown(text: &str, catalog: &Catalog) -> Result<String, Vec<Issue>> {
    let issues = validate_markdown(text, catalog);
    if has_errors(&issues) {
        return Err(issues);
    }
    let mut out = String::new();
    for surface in read_body(text).surfaces {
        out.push_str(&render_surface(&surface.document, catalog)?);
    }
    Ok(out)
}

/// Renders `doc`, a surface, as published-page HTML. Errors refuse the
/// surface: the validator's issues come back instead.
pub fn render_surface(doc: &Value, catalog: &Catalog) -> Result<String, Vec<Issue>> {
    let issues = validate_surface(doc, catalog);
    if has_errors(&issues) {
        return Err(issues);
    }
    let empty = Vec::new();
    let components = doc
        .get("components")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let skipped: HashSet<usize> = issues
        .iter()
        .filter(|i| i.severity == Severity::Flag)
        .filter_map(|i| {
            i.path
                .strip_prefix("/components/")?
                .split('/')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    let null_data = Value::Object(serde_json::Map::new());
    let r = Renderer {
        surface: doc.get("id").and_then(Value::as_str).unwrap_or("surface"),
        data: doc.get("data").unwrap_or(&null_data),
        components,
        skipped,
    };
    let mut out = String::new();
    out.push_str("<div data-ch-surface=\"");
    escape_into(&mut out, r.surface);
    out.push('"');
    if let Some(width) = doc.pointer("/style/width").and_then(Value::as_str) {
        out.push_str(" class=\"ch-surface ch-width-");
        escape_into(&mut out, width);
        out.push('"');
    }
    out.push_str(">\n<script type=\"application/json\" data-ch-state>");
    out.push_str(&script_json(r.data));
    out.push_str("</script>\n");
    if let Some(root) = r.find("root") {
        r.component(&mut out, root, 1);
    }
    out.push_str("</div>\n");
    Ok(out)
}

/// `value` as compact JSON safe inside a `<script>` element: `<`, `>` and `&`
/// (and the JavaScript line separators) become `\u` escapes, which JSON reads
/// back as the same characters.
///
/// ```
/// let v = serde_json::json!({"x": "</script><img src=x onerror=alert(1)>&"});
/// assert_eq!(surfaces_render::script_json(&v),
///            r#"{"x":"\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e\u0026"}"#);
/// ```
pub fn script_json(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for HTML element content and double-quoted attributes.
///
/// ```
/// let mut out = String::new();
/// surfaces_render::escape_into(&mut out, r#"<b title="x">'&'</b>"#);
/// assert_eq!(out, "&lt;b title=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;");
/// ```
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

struct Renderer<'a> {
    surface: &'a str,
    data: &'a Value,
    components: &'a [Value],
    skipped: HashSet<usize>,
}

/// An element being written: `<tag attr="..." ...>`.
struct Tag<'o> {
    out: &'o mut String,
}

impl Tag<'_> {
    fn attr(self, name: &str, value: &str) -> Self {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_into(self.out, value);
        self.out.push('"');
        self
    }
    fn flag(self, name: &str, on: bool) -> Self {
        if on {
            self.out.push(' ');
            self.out.push_str(name);
        }
        self
    }
    fn class(self, base: &str, props: &Value, modifiers: &[&str]) -> Self {
        let mut class = String::from("ch-");
        class.push_str(&base.to_ascii_lowercase());
        for m in modifiers {
            if let Some(v) = props.get(*m).and_then(Value::as_str) {
                class.push_str(" ch-");
                class.push_str(&m.to_ascii_lowercase());
                class.push('-');
                class.push_str(v);
            }
        }
        self.attr("class", &class)
    }
    fn close(self) {
        self.out.push('>');
    }
}

fn open<'o>(out: &'o mut String, tag: &str) -> Tag<'o> {
    out.push('<');
    out.push_str(tag);
    Tag { out }
}

fn end(out: &mut String, tag: &str) {
    out.push_str("</");
    out.push_str(tag);
    out.push_str(">\n");
}

/// Whether `value` is a binding or call (the runtime must compute it).
fn dynamic(value: &Value) -> bool {
    function::is_dynamic(&value)
}

/// The attribute form of a binding or call: a bare pointer for a plain
/// binding, else compact JSON.
fn binding_attr(value: &Value) -> String {
    match value.as_object() {
        Some(map) if map.len() == 1 => match map.get("path").and_then(Value::as_str) {
            Some(p) if p.is_empty() || p.starts_with('/') => p.to_string(),
            _ => value.to_string(),
        },
        _ => value.to_string(),
    }
}

impl<'a> Renderer<'a> {
    fn find(&self, id: &str) -> Option<usize> {
        self.components
            .iter()
            .position(|c| c.get("id").and_then(Value::as_str) == Some(id))
    }

    /// A literal, binding or call, as the text it shows initially.
    fn text(&self, value: &Value) -> String {
        function::evaluate(&value, &self.data, &PlainHost)
            .map(|v| v.to_text(&PlainHost))
            .unwrap_or_default()
    }

    /// The value a literal or binding holds initially.
    fn value(&self, value: &Value) -> Value {
        match value.get("path").and_then(Value::as_str) {
            Some(p) if dynamic(value) => self.data.pointer(p).cloned().unwrap_or(Value::Null),
            _ if dynamic(value) => Value::String(self.text(value)),
            _ => value.clone(),
        }
    }

    /// `<tag class data-ch-text>text</tag>` for a prop that may be bound.
    fn text_element(&self, out: &mut String, tag: &str, class: Option<&str>, prop: Option<&Value>) {
        let Some(prop) = prop else { return };
        let mut t = open(out, tag);
        if let Some(c) = class {
            t = t.attr("class", c);
        }
        if dynamic(prop) {
            t = t.attr("data-ch-text", &binding_attr(prop));
        }
        t.close();
        escape_into(out, &self.text(prop));
        end(out, tag);
    }

    fn children(&self, out: &mut String, component: &Value, depth: usize) {
        for id in component
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(i) = id.as_str().and_then(|id| self.find(id)) {
                self.component(out, i, depth + 1);
            }
        }
    }

    fn component(&self, out: &mut String, index: usize, depth: usize) {
        if self.skipped.contains(&index) || depth > 8 {
            return;
        }
        let Some(c) = self.components.get(index) else {
            return;
        };
        if let Some(visible) = c.get("visible") {
            let shown = condition::evaluate(&visible, &self.data) == Some(true);
            open(out, "div")
                .attr("style", "display:contents")
                .attr("data-ch-visible", &visible.to_string())
                .flag("hidden", !shown)
                .close();
            out.push('\n');
            self.body(out, c, depth);
            end(out, "div");
        } else {
            self.body(out, c, depth);
        }
    }

    fn body(&self, out: &mut String, c: &Value, depth: usize) {
        let name = c
            .get("component")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
        let empty = Value::Object(serde_json::Map::new());
        let props = c.get("props").unwrap_or(&empty);
        let p = |k: &str| props.get(k);
        let str_prop = |k: &str| p(k).and_then(Value::as_str);
        let scoped = |suffix: &str| [self.surface, "-", id, suffix].concat();
        match name {
            "Stack" | "Row" | "Grid" | "Columns" | "Band" | "Carousel" => {
                let mut t = open(out, "div").class(
                    name,
                    props,
                    &["gap", "align", "justify", "ratio", "tone", "width"],
                );
                if let Some(n) = p("columns").and_then(Value::as_u64) {
                    t = t.attr("data-columns", &n.to_string());
                }
                if name == "Carousel" {
                    t = t
                        .attr("role", "region")
                        .attr("aria-label", str_prop("label").unwrap_or_default());
                }
                t.close();
                out.push('\n');
                self.children(out, c, depth);
                end(out, "div");
            }
            "Card" => {
                open(out, "section").class(name, props, &["tone"]).close();
                self.text_element(out, "h3", None, p("title"));
                self.children(out, c, depth);
                end(out, "section");
            }
            "Spacer" => {
                open(out, "div")
                    .class(name, props, &["size"])
                    .attr("aria-hidden", "true")
                    .close();
                end(out, "div");
            }
            "Divider" => out.push_str("<hr class=\"ch-divider\">\n"),
            "Heading" => {
                let level = p("level")
                    .and_then(Value::as_u64)
                    .filter(|l| (1..=6).contains(l))
                    .unwrap_or(2);
                self.text_element(out, &["h", &level.to_string()].concat(), None, p("text"));
            }
            "Text" => self.text_element(
                out,
                "p",
                Some(&["ch-text ch-tone-", str_prop("tone").unwrap_or("default")].concat()),
                p("text"),
            ),
            "Markdown" => {
                open(out, "div").class(name, props, &[]).close();
                for para in str_prop("source")
                    .unwrap_or_default()
                    .split("\n\n")
                    .filter(|s| !s.trim().is_empty())
                {
                    out.push_str("<p>");
                    escape_into(out, para.trim());
                    out.push_str("</p>");
                }
                end(out, "div");
            }
            "Image" => {
                open(out, "figure").class(name, props, &["aspect"]).close();
                let src = str_prop("src").unwrap_or_default();
                let src = src
                    .strip_prefix("asset:")
                    .map_or_else(|| src.to_string(), |a| ["/assets/", a].concat());
                open(out, "img")
                    .attr("src", &src)
                    .attr("alt", str_prop("alt").unwrap_or_default())
                    .close();
                self.text_element(out, "figcaption", None, p("caption"));
                end(out, "figure");
            }
            "Icon" => {
                let t = open(out, "span")
                    .class(name, props, &["size"])
                    .attr("data-icon", str_prop("name").unwrap_or_default());
                match str_prop("label") {
                    Some(label) => t.attr("role", "img").attr("aria-label", label),
                    None => t.attr("aria-hidden", "true"),
                }
                .close();
                end(out, "span");
            }
            "Button" => self.button(out, props),
            "Link" => {
                let mut t = open(out, "a")
                    .class(name, props, &[])
                    .attr("href", str_prop("href").unwrap_or("#"));
                if let Some(text) = p("text").filter(|v| dynamic(v)) {
                    t = t.attr("data-ch-text", &binding_attr(text));
                }
                t.close();
                escape_into(out, &p("text").map(|t| self.text(t)).unwrap_or_default());
                end(out, "a");
            }
            "Badge" => self.text_element(
                out,
                "span",
                Some(&["ch-badge ch-tone-", str_prop("tone").unwrap_or("neutral")].concat()),
                p("text"),
            ),
            "Stat" => {
                open(out, "div").class(name, props, &[]).close();
                self.text_element(out, "span", Some("ch-stat-label"), p("label"));
                self.text_element(out, "strong", Some("ch-stat-value"), p("value"));
                self.text_element(out, "small", Some("ch-stat-caption"), p("caption"));
                end(out, "div");
            }
            "Quote" => {
                open(out, "blockquote").class(name, props, &[]).close();
                self.text_element(out, "p", None, p("text"));
                self.text_element(out, "cite", None, p("cite"));
                end(out, "blockquote");
            }
            "List" => {
                let tag = if p("ordered").and_then(Value::as_bool) == Some(true) {
                    "ol"
                } else {
                    "ul"
                };
                open(out, tag).class(name, props, &[]).close();
                for item in self.list(p("items")) {
                    out.push_str("<li>");
                    escape_into(out, &self.text(&item));
                    out.push_str("</li>");
                }
                end(out, tag);
            }
            "Table" => {
                let columns: Vec<String> = self
                    .list(p("columns"))
                    .iter()
                    .map(|c| self.text(c))
                    .collect();
                let rows: Vec<Vec<Value>> = self
                    .list(p("rows"))
                    .into_iter()
                    .map(|r| self.list(Some(&r)))
                    .collect();
                self.table(out, name, str_prop("caption"), &columns, &rows);
            }
            "Chart" => {
                let labels = self.list(p("labels"));
                let series = self.list(p("series"));
                let mut columns = vec![String::new()];
                columns.extend(
                    series
                        .iter()
                        .map(|s| self.text(s.get("label").unwrap_or(&Value::Null))),
                );
                let rows: Vec<Vec<Value>> = labels
                    .iter()
                    .enumerate()
                    .map(|(i, label)| {
                        let mut row = vec![label.clone()];
                        row.extend(series.iter().map(|s| {
                            s.get("values")
                                .and_then(|v| v.get(i))
                                .cloned()
                                .unwrap_or(Value::Null)
                        }));
                        row
                    })
                    .collect();
                self.table(out, name, str_prop("title"), &columns, &rows);
            }
            "Video" => {
                let mut t = open(out, "video")
                    .class(name, props, &[])
                    .attr("src", str_prop("src").unwrap_or_default());
                t = t
                    .attr("title", str_prop("title").unwrap_or_default())
                    .flag("controls", true);
                if let Some(poster) = str_prop("poster") {
                    let poster = poster
                        .strip_prefix("asset:")
                        .map_or_else(|| poster.to_string(), |a| ["/assets/", a].concat());
                    t = t.attr("poster", &poster);
                }
                t.close();
                end(out, "video");
            }
            "Tabs" => self.tabs(out, c, props, &scoped(""), depth),
            "Accordion" => {
                open(out, "div").class(name, props, &[]).close();
                self.children(out, c, depth);
                end(out, "div");
            }
            "AccordionItem" | "Disclosure" | "TabPanel" => {
                let open_now = p("open").map(|v| truthy(&&self.value(v))).unwrap_or(false);
                open(out, "details")
                    .class(name, props, &[])
                    .flag("open", open_now)
                    .close();
                self.text_element(
                    out,
                    "summary",
                    None,
                    p("title").or(p("summary")).or(p("label")),
                );
                self.children(out, c, depth);
                end(out, "details");
            }
            "Toggle" => {
                open(out, "fieldset").class(name, props, &[]).close();
                self.text_element(out, "legend", None, p("label"));
                let current = p("value").map(|v| self.value(v));
                for (i, option) in self.list(p("options")).iter().enumerate() {
                    let text = self.text(option);
                    let checked = current.as_ref().map_or(i == 0, |c| c == option);
                    out.push_str("<label>");
                    let mut t = open(out, "input")
                        .attr("type", "radio")
                        .attr("name", &scoped(""))
                        .attr("value", &text);
                    if let Some(path) = p("value").and_then(model_path) {
                        t = t.attr("data-ch-model", path);
                    }
                    t.flag("checked", checked).close();
                    out.push(' ');
                    escape_into(out, &text);
                    out.push_str("</label>\n");
                }
                end(out, "fieldset");
            }
            "Select" => {
                out.push_str("<label class=\"ch-select\">");
                escape_into(out, str_prop("label").unwrap_or_default());
                let mut t = open(out, "select");
                if let Some(path) = p("value").and_then(model_path) {
                    t = t.attr("data-ch-model", path);
                }
                t.close();
                let current = p("value").map(|v| self.value(v));
                if let Some(placeholder) = str_prop("placeholder") {
                    open(out, "option")
                        .attr("value", "")
                        .flag("disabled", true)
                        .flag("selected", current.as_ref().is_none_or(Value::is_null))
                        .close();
                    escape_into(out, placeholder);
                    out.push_str("</option>");
                }
                for option in self.list(p("options")) {
                    let text = self.text(&option);
                    open(out, "option")
                        .attr("value", &text)
                        .flag("selected", current.as_ref() == Some(&option))
                        .close();
                    escape_into(out, &text);
                    out.push_str("</option>");
                }
                out.push_str("</select></label>\n");
            }
            "Slider" => {
                out.push_str("<label class=\"ch-slider\">");
                escape_into(out, str_prop("label").unwrap_or_default());
                let mut t = open(out, "input").attr("type", "range");
                for k in ["min", "max", "step"] {
                    if let Some(n) = p(k).filter(|v| v.is_number()) {
                        t = t.attr(k, &self.text(n));
                    }
                }
                let value = p("value");
                if let Some(v) = value {
                    t = t.attr("value", &self.text(v));
                }
                if let Some(path) = value.and_then(model_path) {
                    t = t.attr("data-ch-model", path);
                }
                t.close();
                if let Some(v) = value {
                    self.text_element(out, "output", None, Some(v));
                }
                out.push_str("</label>\n");
            }
            "Counter" => {
                open(out, "div")
                    .class(name, props, &[])
                    .attr("role", "group")
                    .attr("aria-label", str_prop("label").unwrap_or_default())
                    .close();
                self.text_element(out, "span", Some("ch-counter-label"), p("label"));
                if let Some(path) = p("value").and_then(model_path) {
                    let step = p("step").and_then(Value::as_f64).unwrap_or(1.0);
                    for (label, by) in [("−", -step), ("+", step)] {
                        let mut action =
                            serde_json::json!({"action": "increment", "path": path, "by": by});
                        for k in ["min", "max"] {
                            if let Some(n) = p(k).filter(|v| v.is_number()) {
                                action[k] = n.clone();
                            }
                        }
                        open(out, "button")
                            .attr("type", "button")
                            .attr("aria-label", if by < 0.0 { "Decrease" } else { "Increase" })
                            .attr("data-ch-action", &action.to_string())
                            .close();
                        out.push_str(label);
                        end(out, "button");
                    }
                }
                self.text_element(out, "output", None, p("value"));
                end(out, "div");
            }
            "Form" => {
                open(out, "div")
                    .class(name, props, &[])
                    .attr("role", "form")
                    .close();
                self.children(out, c, depth);
                let mut t = open(out, "button").attr("type", "button");
                if let Some(action) = p("onSubmit") {
                    t = t.attr("data-ch-action", &action.to_string());
                }
                t.close();
                escape_into(out, str_prop("submitLabel").unwrap_or_default());
                end(out, "button");
                end(out, "div");
            }
            "TextField" | "TextArea" | "Checkbox" => self.field(out, name, props, &scoped("-msg")),
            "callout" => {
                open(out, "aside")
                    .class(name, props, &["tone"])
                    .attr("role", "note")
                    .close();
                if let Some(icon) = str_prop("icon") {
                    open(out, "span")
                        .attr("class", "ch-icon")
                        .attr("data-icon", icon)
                        .attr("aria-hidden", "true")
                        .close();
                    end(out, "span");
                }
                self.text_element(out, "strong", None, p("title"));
                self.text_element(out, "p", None, p("text"));
                end(out, "aside");
            }
            "faq" => {
                open(out, "section").class(name, props, &[]).close();
                self.text_element(out, "h3", None, p("title"));
                for item in self.list(p("items")) {
                    out.push_str("<details>");
                    self.text_element(out, "summary", None, item.get("question"));
                    self.text_element(out, "p", None, item.get("answer"));
                    end(out, "details");
                }
                end(out, "section");
            }
            "testimonial" => {
                open(out, "figure").class(name, props, &[]).close();
                self.text_element(out, "blockquote", None, p("quote"));
                out.push_str("<figcaption>");
                escape_into(out, str_prop("author").unwrap_or_default());
                if let Some(role) = str_prop("role") {
                    out.push_str(", ");
                    escape_into(out, role);
                }
                out.push_str("</figcaption>");
                end(out, "figure");
            }
            "pricing-table" => self.pricing(out, props),
            _ => {
                open(out, "div")
                    .attr("class", "ch-component")
                    .attr("data-component", name)
                    .close();
                out.push('\n');
                self.children(out, c, depth);
                end(out, "div");
            }
        }
    }

    /// The items of a list prop (literal or bound).
    fn list(&self, prop: Option<&Value>) -> Vec<Value> {
        match prop.map(|v| self.value(v)) {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        }
    }

    fn table(
        &self,
        out: &mut String,
        name: &str,
        caption: Option<&str>,
        columns: &[String],
        rows: &[Vec<Value>],
    ) {
        open(out, "table").class(name, &Value::Null, &[]).close();
        if let Some(caption) = caption {
            out.push_str("<caption>");
            escape_into(out, caption);
            out.push_str("</caption>");
        }
        out.push_str("<thead><tr>");
        for column in columns {
            out.push_str("<th scope=\"col\">");
            escape_into(out, column);
            out.push_str("</th>");
        }
        out.push_str("</tr></thead><tbody>");
        for row in rows {
            out.push_str("<tr>");
            for cell in row {
                out.push_str("<td>");
                escape_into(out, &self.text(cell));
                out.push_str("</td>");
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody>");
        end(out, "table");
    }

    fn button(&self, out: &mut String, props: &Value) {
        let label = props.get("label");
        if let Some(href) = props.get("href").and_then(Value::as_str) {
            let mut t = open(out, "a")
                .class("Button", props, &["variant"])
                .attr("href", href);
            if let Some(l) = label.filter(|l| dynamic(l)) {
                t = t.attr("data-ch-text", &binding_attr(l));
            }
            t.close();
            escape_into(out, &label.map(|l| self.text(l)).unwrap_or_default());
            end(out, "a");
            return;
        }
        let mut t = open(out, "button")
            .attr("type", "button")
            .class("Button", props, &["variant"]);
        if let Some(action) = props.get("onClick") {
            t = t.attr("data-ch-action", &action.to_string());
        }
        if let Some(label) = label.filter(|l| dynamic(l)) {
            t = t.attr("data-ch-text", &binding_attr(label));
        }
        if let Some(disabled) = props.get("disabled") {
            if dynamic(disabled) {
                t = t.attr(
                    "data-ch-attr",
                    &serde_json::json!({ "disabled": disabled }).to_string(),
                );
            }
            t = t.flag("disabled", truthy(&&self.value(disabled)));
        }
        t.close();
        escape_into(out, &label.map(|l| self.text(l)).unwrap_or_default());
        end(out, "button");
    }

    fn field(&self, out: &mut String, name: &str, props: &Value, message_id: &str) {
        let checks = props
            .get("checks")
            .filter(|c| c.as_array().is_some_and(|a| !a.is_empty()));
        let bound = props.get(if name == "Checkbox" {
            "checked"
        } else {
            "value"
        });
        open(out, "label").class(name, props, &[]).close();
        if name != "Checkbox" {
            escape_into(
                out,
                props
                    .get("label")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            );
        }
        let mut t = match name {
            "TextArea" => {
                let mut t = open(out, "textarea");
                if let Some(rows) = props.get("rows").and_then(Value::as_u64) {
                    t = t.attr("rows", &rows.to_string());
                }
                t
            }
            "Checkbox" => {
                let on = bound.map(|b| truthy(&&self.value(b))).unwrap_or(false);
                open(out, "input")
                    .attr("type", "checkbox")
                    .flag("checked", on)
            }
            _ => {
                let kind = props.get("type").and_then(Value::as_str).unwrap_or("text");
                let t = open(out, "input").attr("type", kind);
                match bound {
                    Some(v) => t.attr("value", &self.text(v)),
                    None => t,
                }
            }
        };
        if let Some(path) = bound.and_then(model_path) {
            t = t.attr("data-ch-model", path);
        }
        if let Some(checks) = checks {
            t = t
                .attr("aria-describedby", message_id)
                .attr("data-ch-checks", &checks.to_string());
        }
        t.close();
        match name {
            "TextArea" => {
                escape_into(out, &bound.map(|v| self.text(v)).unwrap_or_default());
                out.push_str("</textarea>");
            }
            "Checkbox" => {
                out.push(' ');
                escape_into(
                    out,
                    props
                        .get("label")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
            }
            _ => {}
        }
        out.push_str("</label>");
        if checks.is_some() {
            open(out, "span")
                .attr("id", message_id)
                .attr("class", "ch-message")
                .flag("data-ch-message", true)
                .close();
            out.push_str("</span>");
        }
        out.push('\n');
    }

    fn tabs(&self, out: &mut String, c: &Value, props: &Value, group: &str, depth: usize) {
        open(out, "div").class("Tabs", props, &[]).close();
        out.push('\n');
        let panels: Vec<&Value> = c
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|id| id.as_str().and_then(|id| self.find(id)))
            .filter(|i| !self.skipped.contains(i))
            .filter_map(|i| self.components.get(i))
            .collect();
        let bound = props.get("value");
        let current = bound.map(|v| self.value(v));
        let label = |panel: &Value| {
            panel
                .pointer("/props/label")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let chosen = panels
            .iter()
            .position(|panel| {
                current.as_ref().and_then(Value::as_str) == Some(label(panel).as_str())
            })
            .unwrap_or(0);
        for (i, panel) in panels.iter().enumerate() {
            let id = [group, "-", &i.to_string()].concat();
            let mut t = open(out, "input")
                .attr("type", "radio")
                .attr("class", "ch-tab")
                .attr("name", group)
                .attr("id", &id)
                .attr("value", &label(panel));
            if let Some(path) = bound.and_then(model_path) {
                t = t.attr("data-ch-model", path);
            }
            t.flag("checked", i == chosen).close();
            open(out, "label").attr("for", &id).close();
            escape_into(out, &label(panel));
            out.push_str("</label>\n");
        }
        for panel in &panels {
            open(out, "div").attr("class", "ch-tabpanel").close();
            out.push('\n');
            self.children(out, panel, depth + 1);
            end(out, "div");
        }
        end(out, "div");
    }

    fn pricing(&self, out: &mut String, props: &Value) {
        let period = props.get("period");
        open(out, "div").class("pricing-table", props, &[]).close();
        out.push('\n');
        for plan in self.list(props.get("plans")) {
            let highlighted = plan.get("highlighted").and_then(Value::as_bool) == Some(true);
            open(out, "section")
                .attr(
                    "class",
                    if highlighted {
                        "ch-plan ch-highlighted"
                    } else {
                        "ch-plan"
                    },
                )
                .close();
            self.text_element(out, "h3", None, plan.get("name"));
            let currency = plan
                .get("currency")
                .and_then(Value::as_str)
                .unwrap_or("USD");
            let price = |key: &str| -> Option<String> {
                let call = serde_json::json!({"call": "formatCurrency", "args": {"value": plan.get(key)?, "currency": currency}});
                Some(self.text(&call))
            };
            for (key, when) in [("price", "monthly"), ("yearlyPrice", "yearly")] {
                let Some(text) = price(key) else { continue };
                match period {
                    Some(period) => {
                        let condition = serde_json::json!({"eq": [period, when]});
                        let shown = condition::evaluate(&&condition, &self.data) == Some(true);
                        open(out, "div")
                            .attr("style", "display:contents")
                            .attr("data-ch-visible", &condition.to_string())
                            .flag("hidden", !shown)
                            .close();
                        out.push_str("<p class=\"ch-price\">");
                        escape_into(out, &text);
                        out.push_str("</p>");
                        end(out, "div");
                    }
                    None => {
                        out.push_str("<p class=\"ch-price\">");
                        escape_into(out, &text);
                        out.push_str("</p>");
                    }
                }
            }
            out.push_str("<ul>");
            for feature in self.list(plan.get("features")) {
                out.push_str("<li>");
                escape_into(out, &self.text(&feature));
                out.push_str("</li>");
            }
            out.push_str("</ul>");
            if let Some(cta) = plan.get("cta") {
                let href = cta
                    .get("href")
                    .and_then(Value::as_str)
                    .filter(|h| surfaces_core::href::is_safe_href(h));
                open(out, "a")
                    .attr("class", "ch-button")
                    .attr("href", href.unwrap_or("#"))
                    .close();
                escape_into(
                    out,
                    cta.get("label").and_then(Value::as_str).unwrap_or_default(),
                );
                end(out, "a");
            }
            end(out, "section");
        }
        end(out, "div");
    }
}

/// The pointer a form field writes: a plain binding's path.
fn model_path(value: &Value) -> Option<&str> {
    value
        .get("path")
        .and_then(Value::as_str)
        .filter(|p| p.starts_with('/'))
}

#[cfg(test)]
mod tests;

#[cfg(target_arch = "wasm32")]
mod wasm;
