//! The reference renderer: a validated surface and its catalog to the
//! published-page markup of SPEC.md section 10, which the interaction runtime
//! hydrates.
//!
//! The output works without JavaScript: every bound value is rendered with its
//! initial state (computed by [`surfaces_core`]'s functions over
//! the [`Options`]' host in its locale: [`PlainHost`], the deterministic
//! en-US host, natively, and `Intl` in WebAssembly), hidden parts carry
//! `hidden`, disclosures are native `<details>`, toggles and tabs are radio
//! groups. All text is escaped; the state is escaped for a script element
//! (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes), so data holding
//! `</script>` stays data.
//!
//! The work is linear in the surface: the tree is walked once from root,
//! each child found through a map of ids made once, and escaping copies
//! the runs between the characters it replaces whole.
//!
//! ```
//! use surfaces_render::{render_surface, Options};
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
//! let html = render_surface(&surface, &Catalog::default_blog(), Options::default()).html.unwrap();
//! assert!(html.starts_with(r#"<div data-ch-surface="pricing""#));
//! assert!(html.contains(r#"<h2 data-ch-text="/headline">Pricing &lt;2024&gt;</h2>"#));
//! assert!(html.contains(r#"value="monthly" data-ch-model="/billing" checked>"#));
//! assert!(html.contains(r#"{"headline":"Pricing \u003c2024\u003e","billing":"monthly"}"#));
//!
//! // A surface with errors is refused, with the validator's issues.
//! let broken = serde_json::json!({"components": [{"id": "root", "component": "Stack", "children": ["gone"]}]});
//! let out = render_surface(&broken, &Catalog::default_blog(), Options::default());
//! assert_eq!((out.html, out.issues[0].code), (None, "unresolved_child"));
//! ```
//!
//! # Choices where SPEC.md is silent
//! - What validation flags is left out, and only that: an unknown component
//!   (its children are shown in its place, so a flag on root blanks
//!   nothing), an invalid prop (the component renders without it; props
//!   that are not an object leave the component out), a child not allowed
//!   where it is (that entry; all of them on a component that takes none).
//! - A `Video` is a `<video>` only when its `src` is a media file (`.mp4`,
//!   `.webm`, `.ogv`, `.ogg`, `.mov`, `.m4v`); a provider's page (YouTube,
//!   Vimeo) or any other URL is a link to it, its poster inside: no
//!   player that cannot play, no third-party frame loaded with the page.
//! - A TabPanel's `visible` is set on its radio, label and panel
//!   themselves (`data-ch-visible` and `hidden`), not on a wrapper, which
//!   would break the sibling selectors tab styles use.
//! - A Button with an `href` is a link; with an `onClick` too, the link
//!   carries the action (`data-ch-action`), which runs before the link is
//!   followed.
//! - A value the renderer needs and the surface leaves out is the catalog's
//!   default for it (a pricing plan's currency: EUR in blog@1).
//! - Class names are `ch-<component>` (lower case) plus `ch-<prop>-<value>`
//!   for enum props; a theme styles them. A component the catalog knows but
//!   the renderer does not (a theme's own) renders as
//!   `<div class="ch-component" data-component="Name">` with its children.
//! - `asset:NAME` sources render as `/assets/NAME`.
//! - `Markdown` renders its source as escaped paragraphs (split on blank
//!   lines), not as markdown: the site's markdown pipeline owns that.
//! - `Chart` is a `<figure>`: an inline SVG of its series (grouped bars for
//!   `bar`, a line per series for `line`, filled to zero for `area`; a
//!   `pie` has none), hidden from assistive technology, then its data as a
//!   table, the chart's text alternative; each series is `ch-series-<n>`
//!   for a theme's colours. `Form` renders its fields and a button running
//!   `onSubmit`.
//! - Preview mode ([`Mode::Preview`], SPEC.md section 15): a flagged part
//!   is a `<div class="ch-placeholder" data-ch-placeholder="CODE">` whose
//!   `<span class="ch-placeholder-label">` says `Name "id": message`: an
//!   unknown component in its place, its children inside; an invalid prop
//!   after its component (which renders without it), naming it in
//!   `data-ch-placeholder-of`, as the component carries its
//!   `data-component-id` (one element per id, so the morph keys it); a
//!   child not allowed after its parent, in place of the child. `data-component-id` goes on
//!   a component's first element (inside a `visible` wrapper, which has no
//!   box to point at). The ghost of an added component is drawn last in
//!   root (a `Draft` holds it until a parent names it; an id another
//!   component holds stays off it, so each id is on one element), one replacing a
//!   component in its place, one changing a component's prop or children
//!   marks that component; its path may name the component by position or
//!   by id (`/components/cta/props/label`), as `rewrite_path` reads it.
//! - Element ids are `<surface>-<component>` (radio group names) and
//!   `<surface>-<component>-msg` (check messages), so ids stay unique per
//!   page; `<surface>` is the surface's id as one token (`id_token`: an
//!   id is not checked, and one holding white space would name others).
//!
//! # How the code is laid out
//!
//! [`render_surface`] validates the surface, then walks its tree from
//! `root`, wrapping a component with a `visible` condition in its
//! `data-ch-visible` wrapper. Each component is written by the module of its
//! family (SPEC.md section 2's), which declines names it does not know:
//! `layout` (containers and space), `content` (text, links, buttons, media,
//! tables), `interactive` (tabs, disclosures, the carousel, form controls)
//! and `blocks` (the registry blocks `callout`, `faq`, `testimonial`,
//! `pricing-table`); a name no family knows is a theme's own component. `markup` spells the `data-ch-*` attributes the
//! runtime reads, once, and writes the elements.

mod blocks;
mod content;
mod interactive;
mod layout;
mod markup;

use markup::{end, open, Tag};
use serde_json::Value;
use surfaces_core::function::{self, Host, InLocale, PlainHost};
use surfaces_core::{condition, pointer};
use validator_wasm::markdown::{read_body, validate_markdown};
use validator_wasm::surface::parse_document;
use validator_wasm::{has_errors, is_page, resolved, validate_surface, Catalog, Issue, Severity};

/// How to render: the host that formats what depends on the locale, and the
/// locale calls without their own format in.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Formats dates, numbers, currencies and plurals: [`PlainHost`] (en-US,
    /// whatever the locale) natively, the JavaScript engine's `Intl` in
    /// WebAssembly.
    pub host: &'a dyn Host,
    /// The surface's or the page's locale (a BCP 47 tag), written on the
    /// surface element as `lang` so the runtime formats in it too.
    pub locale: Option<&'a str>,
    /// Published pages, or the Build view's preview.
    pub mode: Mode<'a>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            host: &PlainHost,
            locale: None,
            mode: Mode::Published,
        }
    }
}

/// What the markup is for (SPEC.md sections 10 and 15).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode<'a> {
    /// A published page: what validation flags is left out.
    Published,
    /// The Build view's preview: the surface's element carries
    /// `data-section-id` and each component's outer element
    /// `data-component-id` (for click-to-scope); what validation flags is
    /// drawn as a labelled placeholder (`data-ch-placeholder` holding the
    /// code); the ghost, if any, is drawn where it will land
    /// (`data-ch-ghost`).
    Preview {
        /// The operation being written.
        ghost: Option<Ghost<'a>>,
    },
}

/// The operation a model is writing, as far as it is read (a ghost never
/// holds an id or a path the text has not finished).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ghost<'a> {
    /// `add`, `replace`, ...
    pub op: &'a str,
    /// Its pointer into the surface.
    pub path: &'a str,
    /// The component read so far, when the operation writes one.
    pub component: Option<&'a Value>,
}

/// What rendering gave: the HTML, `None` when validation found errors, and
/// every issue validation found (flags beside the HTML).
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The published-page markup, or `None` when the surface has errors.
    pub html: Option<String>,
    /// The validator's issues, with their severities.
    pub issues: Vec<Issue>,
}

impl Rendered {
    /// Whether a page showing this markup needs the interaction runtime
    /// (RFC-0020 20e): it holds a field that writes state
    /// (`data-ch-model`) or a button that runs an action
    /// (`data-ch-action`). Without them every bound text, condition and
    /// attribute is final as rendered, so a server can leave the
    /// runtime's script out of the page. (A `"` is escaped in text and
    /// attribute values, so only a real attribute matches.)
    ///
    /// ```
    /// use surfaces_render::{render_surface, Options};
    /// use validator_wasm::Catalog;
    ///
    /// let catalog = Catalog::default_blog();
    /// let text = serde_json::json!({"components": [
    ///     {"id": "root", "component": "Text", "props": {"text": {"path": "/t"}}}], "data": {"t": "hi"}});
    /// assert!(!render_surface(&text, &catalog, Options::default()).interactive());
    /// let counter = serde_json::json!({"components": [
    ///     {"id": "root", "component": "Counter", "props": {"label": "Seats", "value": {"path": "/n"}}}], "data": {"n": 1}});
    /// assert!(render_surface(&counter, &catalog, Options::default()).interactive());
    /// ```
    pub fn interactive(&self) -> bool {
        let html = self.html.as_deref().unwrap_or_default();
        [markup::MODEL, markup::ACTION]
            .iter()
            .any(|name| html.contains(&[" ", name, "=\""].concat()))
    }
}

/// Renders the surfaces of a markdown body (SPEC.md section 8), in order, as
/// published-page HTML; the prose around them is the site's markdown
/// pipeline's to render. Errors anywhere in the body refuse it: there is no
/// HTML, and the validator's issues (with their lines) say why.
///
/// ```
/// use surfaces_render::{render_markdown, Options};
///
/// let body = "Plans:\n\n```surface {\"id\":\"plans\"}\n{\"data\":{\"n\":2}}\n\
///             {\"id\":\"root\",\"component\":\"Text\",\"props\":{\"text\":{\"path\":\"/n\"}}}\n```\n";
/// let out = render_markdown(body, &validator_wasm::Catalog::default_blog(), Options::default());
/// let html = out.html.unwrap();
/// assert!(html.contains(r#"<div data-ch-surface="plans">"#));
/// assert!(html.contains(r#"data-ch-text="/n">2</p>"#));
/// ```
pub fn render_markdown(text: &str, catalog: &Catalog, options: Options<'_>) -> Rendered {
    let issues = validate_markdown(text, catalog);
    if has_errors(&issues) {
        return Rendered { html: None, issues };
    }
    let mut out = String::new();
    for surface in read_body(text).surfaces {
        let rendered = render_surface(&surface.document, catalog, options);
        let Some(html) = rendered.html else {
            return Rendered {
                html: None,
                issues: rendered.issues,
            };
        };
        out.push_str(&html);
    }
    Rendered {
        html: Some(out),
        issues,
    }
}

/// Renders surface JSON text, read as the validator reads it
/// ([`parse_document`]): text over 2 MiB or not JSON is an issue, not HTML.
pub fn render_surface_text(text: &str, catalog: &Catalog, options: Options<'_>) -> Rendered {
    match parse_document(text) {
        Ok(doc) => render_surface(&doc, catalog, options),
        Err(issue) => Rendered {
            html: None,
            issues: vec![issue],
        },
    }
}

/// Renders `doc`, a surface, as published-page HTML. Errors refuse the
/// surface: there is no HTML, and the validator's issues say why. A page is
/// refused as `invalid_surface`: its surface sections render one by one.
pub fn render_surface(doc: &Value, catalog: &Catalog, options: Options<'_>) -> Rendered {
    if is_page(doc) {
        let message =
            "this is a page {\"sections\": [...]}: render each of its surface sections on its own";
        let issues = vec![Issue::error("invalid_surface", "", message)];
        return Rendered { html: None, issues };
    }
    let issues = validate_surface(doc, catalog);
    if has_errors(&issues) {
        return Rendered { html: None, issues };
    }
    let empty = Vec::new();
    let components = doc
        .get("components")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let left_out = LeftOut::of(&issues, components, |i| i.severity == Severity::Flag);
    let null_data = Value::Object(serde_json::Map::new());
    let ids = ids_of(components);
    let (preview, ghost) = match options.mode {
        Mode::Published => (false, Drawn::Nothing),
        Mode::Preview { ghost } => (
            true,
            ghost.map_or(Drawn::Nothing, |g| drawn(g, components, &ids)),
        ),
    };
    let r = Renderer {
        preview,
        ghost,
        targets: scroll_targets(components),
        surface: doc.get("id").and_then(Value::as_str).unwrap_or("surface"),
        scope: id_token(doc.get("id").and_then(Value::as_str).unwrap_or("surface")),
        data: doc.get("data").unwrap_or(&null_data),
        components,
        ids,
        left_out,
        catalog,
        host: InLocale {
            host: options.host,
            locale: options.locale,
        },
    };
    let mut out = String::new();
    let mut t = open(&mut out, "div").attr(markup::SURFACE, r.surface);
    if preview {
        t = t.attr(markup::SECTION_ID, r.surface);
    }
    if let Some(width) = doc.pointer("/style/width").and_then(Value::as_str) {
        t = t.attr("class", &["ch-surface ch-width-", width].concat());
    }
    if let Some(locale) = options.locale {
        t = t.attr("lang", locale);
    }
    t.close();
    out.push('\n');
    open(&mut out, "script")
        .attr("type", "application/json")
        .flag(markup::STATE, true)
        .close();
    out.push_str(&script_json(r.data));
    out.push_str("</script>\n");
    if let Some(root) = r.find("root") {
        r.component(&mut out, root, 1);
    }
    out.push_str("</div>\n");
    Rendered {
        html: Some(out),
        issues,
    }
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
    let text = validator_wasm::json_text(value);
    let mut out = String::with_capacity(text.len());
    replace_runs(&mut out, &text, |rest| match rest {
        [b'<', ..] => Some(("\\u003c", 1)),
        [b'>', ..] => Some(("\\u003e", 1)),
        [b'&', ..] => Some(("\\u0026", 1)),
        // U+2028 and U+2029 in UTF-8.
        [0xE2, 0x80, 0xA8, ..] => Some(("\\u2028", 3)),
        [0xE2, 0x80, 0xA9, ..] => Some(("\\u2029", 3)),
        _ => None,
    });
    out
}

/// Each component's id and the index of the first component with it. A
/// map of the module's own kind (serde_json's): a sorted list or a second
/// map type would add a sort or a map's code, 2.4 KB gzip.
fn ids_of(components: &[Value]) -> serde_json::Map<String, Value> {
    let mut ids = serde_json::Map::new();
    for (i, c) in components.iter().enumerate() {
        if let Some(id) = c.get("id").and_then(Value::as_str) {
            ids.entry(id).or_insert(i.into());
        }
    }
    ids
}

/// In [`ids_of`]'s map, the index of the first component with this id.
fn first_with(ids: &serde_json::Map<String, Value>, id: &str) -> Option<usize> {
    ids.get(id)?.as_u64().and_then(|i| usize::try_from(i).ok())
}

/// Escapes text for HTML element content and double-quoted attributes.
///
/// ```
/// let mut out = String::new();
/// surfaces_render::escape_into(&mut out, r#"<b title="x">'&'</b>"#);
/// assert_eq!(out, "&lt;b title=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;");
/// ```
pub fn escape_into(out: &mut String, text: &str) {
    replace_runs(out, text, |rest| {
        let with = match rest.first()? {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => return None,
        };
        Some((with, 1))
    });
}

/// `text` into `out`, with what `special` replaces (given the text from a
/// byte on: the replacement and how many bytes it stands for) replaced and
/// every run between copied whole (a push per character was most of a
/// render's time on text-heavy surfaces). `special` only answers at an
/// ASCII byte or at the first byte of a character, so every cut is at a
/// character boundary.
fn replace_runs(
    out: &mut String,
    text: &str,
    special: impl Fn(&[u8]) -> Option<(&'static str, usize)>,
) {
    let bytes = text.as_bytes();
    let (mut from, mut i) = (0, 0);
    while i < bytes.len() {
        match special(bytes.get(i..).unwrap_or_default()) {
            Some((with, len)) => {
                out.push_str(text.get(from..i).unwrap_or_default());
                out.push_str(with);
                i += len;
                from = i;
            }
            None => i += 1,
        }
    }
    out.push_str(text.get(from..).unwrap_or_default());
}

/// What validation flagged, left out of the HTML, and only that: a
/// component (unknown, or with props that are not an object: its children
/// are shown in its place), a `children` entry (a child not allowed there;
/// all of them when the component takes none), a prop (invalid).
/// (Lists, not sets: flags are few, and each set type is code in the
/// WebAssembly module.)
#[derive(Default)]
struct LeftOut<'a> {
    /// By position, with the issue that flags it.
    components: Vec<(usize, &'a Issue)>,
    /// By the parent's id and the entry's position (`usize::MAX`: all).
    entries: Vec<(&'a str, usize, &'a Issue)>,
    /// The props of the components with invalid ones, without them, and
    /// the issues.
    props: Vec<(usize, Value, Vec<&'a Issue>)>,
}

impl<'a> LeftOut<'a> {
    /// What the issues that `keep` takes leave out of `components` (a fn,
    /// not a generic: one copy of this in the WebAssembly module).
    fn of(issues: &'a [Issue], components: &'a [Value], keep: fn(&Issue) -> bool) -> LeftOut<'a> {
        let mut out = LeftOut::default();
        for issue in issues.iter().filter(|i| keep(i)) {
            let segments = pointer::parse(&issue.path).unwrap_or_default();
            let (Some("components"), Some(i)) = (
                segments.first().map(String::as_str),
                segments.get(1).and_then(|i| i.parse::<usize>().ok()),
            ) else {
                continue;
            };
            let Some(component) = components.get(i) else {
                continue;
            };
            let id = component
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let rest: Vec<&str> = segments[2..].iter().map(String::as_str).collect();
            match rest.as_slice() {
                ["children"] => out.entries.push((id, usize::MAX, issue)),
                ["children", j, ..] => out.entries.extend(j.parse().ok().map(|j| (id, j, issue))),
                ["props", key, ..] => {
                    if !out.props.iter().any(|(k, ..)| *k == i) {
                        out.props.push((i, component["props"].clone(), Vec::new()));
                    }
                    if let Some((_, props, flags)) = out.props.iter_mut().find(|(k, ..)| *k == i) {
                        flags.push(issue);
                        if let Some(map) = props.as_object_mut() {
                            map.remove(*key);
                        }
                    }
                }
                _ => out.components.push((i, issue)),
            }
        }
        out
    }

    /// The issue leaving out the `j`th child of `parent`, if one does.
    fn entry(&self, parent: &Value, j: usize) -> Option<&'a Issue> {
        let id = parent.get("id").and_then(Value::as_str).unwrap_or_default();
        let found = self
            .entries
            .iter()
            .find(|(p, k, _)| *p == id && (*k == j || *k == usize::MAX));
        found.map(|(.., issue)| *issue)
    }

    /// The issue leaving out component `i`, if one does.
    fn component(&self, i: usize) -> Option<&'a Issue> {
        self.components
            .iter()
            .find(|(k, _)| *k == i)
            .map(|(_, issue)| *issue)
    }

    /// The props of component `i` without its invalid ones, and the issues
    /// flagging those, if it has any.
    fn props(&self, i: usize) -> Option<(&Value, &[&'a Issue])> {
        let found = self.props.iter().find(|(k, ..)| *k == i);
        found.map(|(_, props, issues)| (props, issues.as_slice()))
    }
}

/// Where a preview draws the ghost.
#[derive(Clone, Copy)]
enum Drawn<'a> {
    Nothing,
    /// The operation changes this component (a prop, its children): it is
    /// marked.
    Mark(usize),
    /// It replaces this component with the one read so far.
    Replace(usize, &'a Value),
    /// It adds a component: drawn last in root's children (a `Draft` holds
    /// an added component until a parent's `children` names it, so no
    /// valid draft names it yet).
    Add(&'a Value),
}

/// Where `ghost` lands among `components`: its path names a component by
/// position or, as models write it and the pipeline's `rewrite_path`
/// reads it, by id (`ids`: [`ids_of`] them).
fn drawn<'a>(
    ghost: Ghost<'a>,
    components: &[Value],
    ids: &serde_json::Map<String, Value>,
) -> Drawn<'a> {
    let segments = pointer::parse(ghost.path).unwrap_or_default();
    let index = segments
        .get(1)
        .and_then(|i| i.parse::<usize>().ok().or_else(|| first_with(ids, i)));
    let index = index.filter(|i| *i < components.len());
    match (segments.first().map(String::as_str), index, ghost.component) {
        (Some("components"), Some(i), _) if segments.len() > 2 => Drawn::Mark(i),
        (Some("components"), Some(i), Some(c)) if segments.len() == 2 && ghost.op == "replace" => {
            Drawn::Replace(i, c)
        }
        (Some("components"), _, Some(c)) if segments.len() == 2 && ghost.op == "add" => {
            Drawn::Add(c)
        }
        _ => Drawn::Nothing,
    }
}

/// A surface's id as one token of the element ids it scopes (a check's
/// message element, a tab's radio): letters, digits, `-` and `_` as they
/// are, any other byte as `_` and two hex digits, so that an id holding
/// white space or markup (a surface's id is not checked) still makes one
/// token, which `aria-describedby` names whole.
fn id_token(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend([
                '_',
                HEX[usize::from(b >> 4)] as char,
                HEX[usize::from(b & 15)] as char,
            ]);
        }
    }
    out
}

/// The component ids the surface's `scrollTo` actions name (`"#id"`): a
/// published page marks those components with `data-component-id`, for the
/// runtime to scroll to (SPEC.md section 10).
fn scroll_targets(components: &[Value]) -> Vec<&str> {
    fn scan<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if map.get("action").and_then(Value::as_str) == Some("scrollTo") {
                    let target = map.get("target").and_then(Value::as_str);
                    out.extend(target.and_then(|t| t.strip_prefix('#')));
                }
                map.values().for_each(|v| scan(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| scan(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for props in components.iter().filter_map(|c| c.get("props")) {
        scan(props, &mut out);
    }
    out
}

/// One surface being rendered.
struct Renderer<'a> {
    /// For the Build view's preview ([`Mode::Preview`]).
    preview: bool,
    ghost: Drawn<'a>,
    /// The components `scrollTo` actions name.
    targets: Vec<&'a str>,
    /// Its id.
    surface: &'a str,
    /// Its id as one token of element ids ([`id_token`]), which they are
    /// scoped by.
    scope: String,
    /// Its data: the state every value is computed from initially.
    data: &'a Value,
    components: &'a [Value],
    /// Each component's id and the index of its first ([`ids_of`]).
    ids: serde_json::Map<String, Value>,
    /// What validation flagged, left out.
    left_out: LeftOut<'a>,
    /// The catalog, for the defaults of what a surface leaves unsaid.
    catalog: &'a Catalog,
    /// Formats in the surface's locale.
    host: InLocale<'a>,
}

/// Where a preview's placeholder stands.
enum Stands {
    /// In place of an unknown component, its children inside.
    Component,
    /// In place of a child its parent may not hold, after the parent.
    Child,
    /// After a component that renders without the flagged prop.
    Prop,
}

/// What a component's family reads of it.
struct Node<'a> {
    /// The component object (its `children`, its `visible`).
    value: &'a Value,
    /// Its catalog name (`component`).
    name: &'a str,
    /// Its `props`; null when it has none (read only through `get`, which
    /// finds nothing in null as in an empty object).
    props: &'a Value,
    /// Its `id`.
    id: &'a str,
    /// How deep it sits: the root is at 1.
    depth: usize,
}

impl<'a> Node<'a> {
    /// The component `value`, with `props` instead of its own when given.
    fn new(value: &'a Value, depth: usize, props: Option<&'a Value>) -> Node<'a> {
        let text = |key| value.get(key).and_then(Value::as_str).unwrap_or_default();
        Node {
            value,
            name: text("component"),
            props: props.or(value.get("props")).unwrap_or(&Value::Null),
            id: text("id"),
            depth,
        }
    }

    /// The prop `key`, as written (a literal, binding or call).
    fn prop(&self, key: &str) -> Option<&'a Value> {
        self.props.get(key)
    }

    /// The prop `key` when it is a literal string.
    fn str_prop(&self, key: &str) -> Option<&'a str> {
        self.prop(key).and_then(Value::as_str)
    }
}

/// Whether `value` is a binding or call (the runtime must compute it).
fn dynamic(value: &Value) -> bool {
    function::is_dynamic(&value)
}

/// A `data-ch-attr` value that binds the attribute `name` to `value`.
fn bound_attr(name: &str, value: &Value) -> String {
    validator_wasm::json_text(&validator_wasm::object([(name, value.clone())]))
}

/// The attribute form of a binding or call: a bare pointer for a plain
/// binding, else compact JSON.
fn binding_attr(value: &Value) -> String {
    match value.as_object() {
        Some(map) if map.len() == 1 => match map.get("path").and_then(Value::as_str) {
            Some(p) if p.is_empty() || p.starts_with('/') => p.to_string(),
            _ => validator_wasm::json_text(value),
        },
        _ => validator_wasm::json_text(value),
    }
}

impl<'a> Renderer<'a> {
    /// The index of the first component with this id, in constant time
    /// (each child is looked up: a scan per child made a surface's
    /// rendering quadratic in its components).
    fn find(&self, id: &str) -> Option<usize> {
        first_with(&self.ids, id)
    }

    /// The catalog's schema of what `path` names in the props of component
    /// `name` (segments: prop names, `[]` for a list's items), its local
    /// `$ref`s followed.
    fn schema(&self, name: &str, path: &[&str]) -> Option<&'a Value> {
        let root = &self.catalog.entry(name)?.props;
        let mut schema = resolved(root, root)?;
        for segment in path {
            schema = match *segment {
                "[]" => schema.get("items")?,
                key => schema.get("properties")?.get(key)?,
            };
            schema = resolved(root, schema)?;
        }
        Some(schema)
    }

    /// The catalog's default for what `path` names (see [`Self::schema`]).
    fn default(&self, name: &str, path: &[&str]) -> Option<&'a Value> {
        self.schema(name, path)?.get("default")
    }

    /// The items of component `name`'s list prop `key`, at most the
    /// catalog's `maxItems` of it: a bound list's data is not checked
    /// against the prop's schema, and where two such lists multiply (a
    /// chart's labels by its series) a long one in the data would make the
    /// work grow as their product.
    fn capped(&self, name: &str, key: &str, prop: Option<&Value>) -> Vec<Value> {
        let mut items = self.list(prop);
        let max = self
            .schema(name, &[key])
            .and_then(|s| s.get("maxItems")?.as_u64());
        items.truncate(max.map_or(usize::MAX, |m| m as usize));
        items
    }

    /// `<surface>-<component><suffix>`: an element id unique on the page.
    fn element_id(&self, node: &Node, suffix: &str) -> String {
        [&self.scope, "-", node.id, suffix].concat()
    }

    /// A literal, binding or call, as the text it shows initially.
    fn text(&self, value: &Value) -> String {
        function::evaluate(&value, &self.data, &self.host)
            .map(|v| v.to_text(&self.host))
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

    /// The items of a list prop (literal or bound).
    fn list(&self, prop: Option<&Value>) -> Vec<Value> {
        match prop.map(|v| self.value(v)) {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
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
            t = t.attr(markup::TEXT, &binding_attr(prop));
        }
        t.close();
        escape_into(out, &self.text(prop));
        end(out, tag);
    }

    /// Opens the `display:contents` wrapper that shows its content while
    /// `condition` holds, `hidden` when it does not hold initially.
    fn open_visible(&self, out: &mut String, condition: &Value) {
        let wrapper = open(out, "div").attr("style", "display:contents");
        self.visible(wrapper, condition).close();
    }

    /// `data-ch-visible` with `condition` on the element `t`, `hidden` when
    /// it does not hold initially.
    fn visible<'o>(&self, t: Tag<'o>, condition: &Value) -> Tag<'o> {
        let shown = condition::evaluate(&condition, &self.data) == Some(true);
        t.attr(markup::VISIBLE, &validator_wasm::json_text(condition))
            .flag("hidden", !shown)
    }

    /// The children of `component` (those not left out), in order.
    fn child_indices(&self, component: &Value) -> Vec<usize> {
        let ids = component.get("children").and_then(Value::as_array);
        let ids = ids.into_iter().flatten().enumerate();
        ids.filter(|(j, _)| self.left_out.entry(component, *j).is_none())
            .filter_map(|(_, id)| id.as_str().and_then(|id| self.find(id)))
            .collect()
    }

    fn children(&self, out: &mut String, component: &Value, depth: usize) {
        for i in self.child_indices(component) {
            self.component(out, i, depth + 1);
        }
        // A preview draws a component being added last in root.
        let root = component.get("id").and_then(Value::as_str) == Some("root");
        if root && matches!(self.ghost, Drawn::Add(_)) {
            self.ghost_component(out, depth + 1);
        }
    }

    /// The ghost of a component being added or replacing one.
    fn ghost_component(&self, out: &mut String, depth: usize) {
        let (c, replaced) = match self.ghost {
            Drawn::Add(c) => (c, None),
            Drawn::Replace(i, c) => (c, Some(i)),
            _ => return,
        };
        if depth <= 8 {
            let start = out.len();
            // Drawn as far as it passes the rules, as a surface's flagged
            // parts are left out: a prop with an issue of its own (an unsafe
            // href, an asset that is none, a value the catalog refuses; an
            // error too, which would refuse a surface) is left out, and a
            // name the catalog lacks (a model's typo) is its labelled
            // placeholder, not an empty element.
            let issues =
                validator_wasm::surface::validate_component(c, "/components/0", self.catalog, None);
            let left = LeftOut::of(&issues, core::slice::from_ref(c), |i| {
                i.code == "unknown_component" || i.path.starts_with("/components/0/props/")
            });
            let node = Node::new(c, depth, left.props(0).map(|(props, _)| props));
            match left.component(0) {
                Some(issue) => self.placeholder(out, &node, issue, Stands::Prop),
                None => self.body(out, &node),
            }
            // An id another component holds (an add the pipeline will
            // refuse as a duplicate) stays off the ghost: one element per
            // id, so the morph keys the component that has it.
            let id = c.get("id").and_then(Value::as_str);
            let id = id.filter(|id| self.find(id).is_none_or(|at| Some(at) == replaced));
            self.mark(out, start, id, true);
        }
    }

    fn component(&self, out: &mut String, index: usize, depth: usize) {
        if depth > 8 {
            return;
        }
        let Some(c) = self.components.get(index) else {
            return;
        };
        let visible = c.get("visible");
        if let Some(visible) = visible {
            self.open_visible(out, visible);
            out.push('\n');
        }
        let start = out.len();
        match (self.left_out.component(index), self.ghost) {
            (_, Drawn::Replace(i, _)) if i == index => self.ghost_component(out, depth),
            (Some(issue), _) if self.preview => {
                self.placeholder(out, &Node::new(c, depth, None), issue, Stands::Component)
            }
            // Left out: its children show in its place.
            (Some(_), _) => self.children(out, c, depth),
            (None, _) => {
                let props = self.left_out.props(index);
                let node = Node::new(c, depth, props.map(|(p, _)| p));
                self.body(out, &node);
                let ghost = matches!(self.ghost, Drawn::Mark(i) if i == index);
                self.mark(out, start, Some(node.id), ghost);
                if self.preview {
                    self.flagged(out, &node, props.map_or(&[][..], |(_, issues)| issues));
                }
            }
        }
        if visible.is_some() {
            end(out, "div");
        }
    }

    /// `data-component-id` (and `data-ch-ghost`) on the element written
    /// from `start`, the component's outer element: in a preview, and on a
    /// published page for a component a `scrollTo` names.
    fn mark(&self, out: &mut String, start: usize, id: Option<&str>, ghost: bool) {
        let marked = self.preview || id.is_some_and(|id| self.targets.contains(&id));
        let Some(name_end) = out[start..].find([' ', '>']).filter(|_| marked) else {
            return;
        };
        let mut attrs = String::new();
        if let Some(id) = id {
            attrs.push_str(" data-component-id=\"");
            escape_into(&mut attrs, id);
            attrs.push('"');
        }
        if ghost {
            attrs.push(' ');
            attrs.push_str(markup::GHOST);
        }
        out.insert_str(start + name_end, &attrs);
    }

    /// After `node`, in a preview: a placeholder for each of its invalid
    /// props (`props`) and for each child not allowed where it is.
    fn flagged(&self, out: &mut String, node: &Node, props: &[&Issue]) {
        for issue in props {
            self.placeholder(out, node, issue, Stands::Prop);
        }
        let ids = node.value.get("children").and_then(Value::as_array);
        for (j, id) in ids.into_iter().flatten().enumerate() {
            let child = id.as_str().and_then(|id| self.find(id));
            if let Some((i, issue)) = child.zip(self.left_out.entry(node.value, j)) {
                let child = Node::new(&self.components[i], node.depth + 1, None);
                self.placeholder(out, &child, issue, Stands::Child);
            }
        }
    }

    /// A preview's labelled placeholder for what `issue` flags in `node`,
    /// where `stands` says.
    fn placeholder(&self, out: &mut String, node: &Node, issue: &Issue, stands: Stands) {
        // A prop's placeholder follows the component, which carries its
        // id: one element per id, so the morph keys both.
        let names = match stands {
            Stands::Prop => markup::PLACEHOLDER_OF,
            _ => markup::COMPONENT_ID,
        };
        open(out, "div")
            .attr("class", "ch-placeholder")
            .attr(markup::PLACEHOLDER, issue.code)
            .attr(names, node.id)
            .close();
        open(out, "span")
            .attr("class", "ch-placeholder-label")
            .close();
        escape_into(
            out,
            &[node.name, " \"", node.id, "\": ", &issue.message].concat(),
        );
        end(out, "span");
        if let Stands::Component = stands {
            self.children(out, node.value, node.depth);
        }
        end(out, "div");
    }

    /// Writes a component through its family; a name no family knows is a
    /// theme's own component, a plain container for its children.
    fn body(&self, out: &mut String, node: &Node) {
        let known = self.layout(out, node)
            || self.content(out, node)
            || self.interactive(out, node)
            || self.block(out, node);
        if !known {
            open(out, "div")
                .attr("class", "ch-component")
                .attr("data-component", node.name)
                .close();
            out.push('\n');
            self.children(out, node.value, node.depth);
            end(out, "div");
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(target_arch = "wasm32")]
mod wasm;
