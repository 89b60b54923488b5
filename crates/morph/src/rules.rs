//! What incoming HTML may keep: nothing in it may ever run, and nothing in
//! it may reach outside the morph's target.
//!
//! The preview shows HTML a server rendered from a model's output, so the
//! morph treats it as untrusted. Dropped before anything is inserted:
//!
//! - what runs: `<script>` elements, `on*` handler attributes, `srcdoc` (a
//!   whole document that would run) and URLs with a scheme that runs or
//!   smuggles code (`javascript:`, `data:`, `vbscript:`, ...);
//! - what acts on the host document: `<base>` (it rebases every URL of the
//!   document), `<meta>` (`http-equiv=refresh` navigates it, a `referrer` or
//!   `http-equiv` policy changes it), the `form` attribute and every
//!   `form*` submission override (`formaction`, `formmethod`, `formtarget`,
//!   ...: a control naming a host form by id, or sitting in one, would
//!   submit the host's fields where the incoming HTML says);
//! - what acts on another element by its id or name: the invoker
//!   attributes `commandfor` and `popovertarget` (a click would open a
//!   host's dialog or popover, or send it a command), a label's `for`
//!   naming an element of the page outside the target (a click anywhere on
//!   the label would click the host's button: [`is_reference`]), and a
//!   `target` naming a browsing context (a host's frame; only `_blank`, a
//!   new one, is kept);
//! - DOM clobbering ([`is_name_attribute`]): an `id` or `name` that would shadow a
//!   property of the target's `document` (an `<img name=querySelector>`
//!   makes `document.querySelector` that image) or `window`;
//! - `<style>` and `<link>` (stylesheets) unless their rules cannot apply
//!   outside the target: the target is in a shadow root, or its document
//!   is not the document of the page that loaded the morph
//!   (a same-origin frame's document the host reaches into, as Studio's
//!   preview iframe): there they style that frame alone.
//!
//! URLs are read as content's safe-href rule reads them
//! ([`surfaces_core::href::read`]: trimmed, ASCII tab and newline dropped,
//! the scheme compared case-insensitively, any other control character
//! refused), under a wider policy: a server-rendered page legitimately uses
//! relative URLs (`href=""`, `img/logo.png`, `?page=2`), and a URL without a
//! scheme cannot run code, so here any URL without one is kept, and of the
//! schemes only `http`, `https`, `mailto` and `tel`.

use surfaces_core::href::{self, Start};

/// Elements dropped whole, with their content (compared ignoring ASCII
/// case): `script`, `base`, `meta` always; `style` and `link` unless
/// `styles_contained` (their rules cannot apply outside the target).
pub fn is_forbidden_element(local_name: &str, styles_contained: bool) -> bool {
    let is = |n: &str| local_name.eq_ignore_ascii_case(n);
    is("script") || is("base") || is("meta") || (!styles_contained && (is("style") || is("link")))
}

/// SVG `<animate>` and `<set>` can write a `javascript:` URL into an `href`
/// after the fact (`attributeName="href" to="javascript:..."`): such
/// animations are dropped whole.
pub fn is_forbidden_animation(local_name: &str, attribute_name: Option<&str>) -> bool {
    ["animate", "set"]
        .iter()
        .any(|a| local_name.eq_ignore_ascii_case(a))
        && attribute_name.is_some_and(|n| {
            let b = n.trim().as_bytes();
            b.len() >= 4
                && b.get(b.len() - 4..)
                    .is_some_and(|t| t.eq_ignore_ascii_case(b"href"))
        })
}

/// Whether `html` is a whole document (`<!doctype` or `<html` first), whose
/// `<body>` is what the preview shows, rather than a fragment.
///
/// ```
/// assert!(morph::rules::is_whole_document("\n<!DOCTYPE html><p>x"));
/// assert!(!morph::rules::is_whole_document("<section>x</section>"));
/// ```
pub fn is_whole_document(html: &str) -> bool {
    let b = html.as_bytes();
    let b = b
        .get(
            b.iter()
                .position(|c| !c.is_ascii_whitespace())
                .unwrap_or(b.len())..,
        )
        .unwrap_or_default();
    [&b"<!doctype"[..], b"<html"]
        .iter()
        .any(|p| b.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)))
}

/// Whether the attribute `name` with `value` may stay on an element.
///
/// ```
/// use morph::rules::attribute_allowed;
/// assert!(attribute_allowed("class", "card"));
/// assert!(!attribute_allowed("onerror", "alert(1)"));
/// assert!(!attribute_allowed("href", " JavaScript:alert(1)"));
/// assert!(attribute_allowed("href", "/pricing#plans"));
/// ```
pub fn attribute_allowed(name: &str, value: &str) -> bool {
    let is = |n: &str| name.eq_ignore_ascii_case(n);
    if is_handler(name)
        || is_form_override(name)
        || is("srcdoc")
        || is("commandfor")
        || is("popovertarget")
    {
        return false;
    }
    if is("target") {
        // (HTML compares the keyword as it is, ignoring ASCII case only.)
        return value.eq_ignore_ascii_case("_blank");
    }
    !is_url_attribute(name) || is_inert_url(value)
}

/// `for` (a label's control, by id): the loader says whether it names an
/// element of the target's document outside the target, and then it is
/// dropped; one naming an element of the incoming HTML, or nothing yet, is
/// kept (a preview's label for its own field).
pub fn is_reference(name: &str) -> bool {
    name.eq_ignore_ascii_case("for")
}

/// Whether `attribute_allowed` reads the attribute's value (a URL, or a
/// `target`); the others are judged by name.
pub fn reads_value(name: &str) -> bool {
    is_url_attribute(name) || name.eq_ignore_ascii_case("target")
}

/// `on*` attributes are event handlers: their value is script.
pub fn is_handler(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() > 2 && b.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"on"))
}

/// `form` (a control's form owner, by id) and the `form*` submission
/// overrides (`formaction`, `formmethod`, `formenctype`, `formtarget`,
/// `formnovalidate`): always dropped, whatever they name.
pub fn is_form_override(name: &str) -> bool {
    name.as_bytes()
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"form"))
}

/// `id` and `name`: the attributes that make named properties of
/// `document` and `window`. The loader says whether a value would shadow a
/// property of the target's document (one of its prototype chain, as
/// `querySelector`: the document's named properties hide even its methods)
/// or window (one of the chain below its named properties object, as
/// `addEventListener` or `toString`; the window's own properties and
/// `Window.prototype`'s win over named ones), and such an attribute is
/// dropped, on any element: which elements the browser names on `document`
/// is not worth a list to read (an `<h2 id="title">` loses its id too).
pub fn is_name_attribute(name: &str) -> bool {
    name.eq_ignore_ascii_case("id") || name.eq_ignore_ascii_case("name")
}

/// Attributes whose value is a URL that a browser may navigate to or load.
pub fn is_url_attribute(name: &str) -> bool {
    ["href", "src", "action", "xlink:href", "data"]
        .iter()
        .any(|u| name.eq_ignore_ascii_case(u))
}

/// Whether following or loading `url` can run nothing: no scheme at all
/// (relative, `#fragment`, `/path`, `//host`, empty), or `http`, `https`,
/// `mailto`, `tel`. A URL with a control character left after cleaning is
/// refused, like content's: refusing costs a server-rendered page nothing.
///
/// ```
/// use morph::rules::is_inert_url;
/// assert!(is_inert_url("img/logo.png") && is_inert_url("TEL:+123"));
/// assert!(!is_inert_url("java\nscript:alert(1)"));
/// ```
pub fn is_inert_url(url: &str) -> bool {
    match href::read(url) {
        Start::Scheme(s) => s.is(b"http") || s.is(b"https") || s.is(b"mailto") || s.is(b"tel"),
        Start::Control => false,
        Start::Fragment | Start::Path | Start::Host | Start::Relative => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_schemes_are_refused_however_written() {
        for url in [
            "javascript:alert(1)",
            "JAVASCRIPT:alert(1)",
            " \u{1}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox",
            "livescript:x",
            "blob:https://x/y",
            "java\u{1}script:alert(1)",
            "\u{7f}javascript:alert(1)",
        ] {
            assert!(!is_inert_url(url), "{url:?} must be refused");
        }
    }

    #[test]
    fn control_characters_are_refused_even_in_relative_urls() {
        for url in ["/a\u{1}b", "\u{0}img.png", "img.png\u{1b}", "a\u{7f}"] {
            assert!(!is_inert_url(url), "{url:?}");
        }
        assert!(is_inert_url("\u{c} img/a.png \t"), "white space is trimmed");
    }

    #[test]
    fn relative_and_web_urls_are_kept() {
        for url in [
            "",
            "#top",
            "/pricing",
            "img/logo.png",
            "?page=2",
            "./a:b",
            "http://example.com/x",
            "HTTPS://example.com",
            "mailto:a@example.com",
            "tel:+123",
            "1abc:def",
            "é:x",
            "//cdn.example/a.js",
            "mailto:",
            "ht\ttp://example.com",
        ] {
            assert!(is_inert_url(url), "{url:?} must be kept");
        }
    }

    #[test]
    fn long_scheme_like_prefixes_are_judged_by_the_colon() {
        assert!(!is_inert_url("javascriptx:1"));
        assert!(is_inert_url("javascriptx/path:1"));
        assert!(is_inert_url("longerword"));
    }

    #[test]
    fn handlers_srcdoc_and_unsafe_urls_are_dropped() {
        assert!(!attribute_allowed("onclick", "x()"));
        assert!(!attribute_allowed("ONLOAD", "x()"));
        assert!(!attribute_allowed("srcdoc", "<p>hi</p>"));
        assert!(!attribute_allowed("xlink:href", "javascript:x()"));
        assert!(!attribute_allowed("formaction", "javascript:x()"));
        assert!(!attribute_allowed("formaction", "https://example.com/"));
        assert!(!attribute_allowed("FORM", "host-form"));
        assert!(!attribute_allowed("formTarget", "_top"));
        assert!(attribute_allowed("for", "email"));
        assert!(!attribute_allowed("commandfor", "host-dialog"));
        assert!(!attribute_allowed("popoverTarget", "host-popover"));
        assert!(!attribute_allowed("target", "host-frame"));
        assert!(!attribute_allowed("target", "_top"));
        assert!(attribute_allowed("target", "_BLANK"));
        assert!(
            !attribute_allowed("target", " _blank"),
            "a name, not the keyword"
        );
        assert!(attribute_allowed("action", "/subscribe"));
        assert!(!attribute_allowed("data", "data:text/html,x"));
        assert!(attribute_allowed("on", "x"));
        assert!(attribute_allowed("title", "javascript:x()"));
        assert!(attribute_allowed("src", "/a.png"));
        assert!(attribute_allowed("é", "x"));
    }

    #[test]
    fn href_animations_are_forbidden() {
        assert!(is_forbidden_animation("animate", Some("href")));
        assert!(is_forbidden_animation("SET", Some(" xlink:HREF ")));
        assert!(!is_forbidden_animation("animate", Some("fill")));
        assert!(!is_forbidden_animation("animate", None));
        assert!(!is_forbidden_animation("rect", Some("href")));
        assert!(!is_forbidden_animation("set", Some("ré")));
    }

    #[test]
    fn whole_documents_are_told_from_fragments() {
        assert!(is_whole_document("<html><body></body></html>"));
        assert!(is_whole_document("  <!doctype html>"));
        assert!(!is_whole_document("<!-- c --><html>"));
        assert!(!is_whole_document("<h"));
        assert!(!is_whole_document(""));
    }

    #[test]
    fn elements_acting_on_the_document_are_forbidden() {
        for contained in [false, true] {
            for name in ["script", "SCRIPT", "base", "Meta"] {
                assert!(is_forbidden_element(name, contained), "{name}");
            }
            for name in ["div", "svg", "template", "iframe", "form"] {
                assert!(!is_forbidden_element(name, contained), "{name}");
            }
        }
        for name in ["style", "LINK"] {
            assert!(is_forbidden_element(name, false), "{name}");
            assert!(
                !is_forbidden_element(name, true),
                "{name} in a shadow root or frame"
            );
        }
    }

    #[test]
    fn names_are_told_from_other_attributes() {
        assert!(is_name_attribute("ID") && is_name_attribute("name"));
        assert!(!is_name_attribute("data-id") && !is_name_attribute("names"));
    }
}
