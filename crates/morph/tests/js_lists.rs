//! The loader (`js/morph.js`) names, in JavaScript, the suspects its walk
//! stages for Rust to judge (`XE`; `XP` and `XN`) and the key attributes
//! (`KA`, and the selectors `SEL` built on them). What it does not stage,
//! Rust never sees: an attribute [`rules`] would refuse but the loader leaves out
//! would reach the live page. These tests read the loader's source and hold
//! each list to the Rust it stands for, both ways, so neither side changes
//! alone.

use morph::keys::KEY_ATTRIBUTES;
use morph::rules;

/// The loader's source.
fn loader() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/js/morph.js");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of `const NAME = ...;` in the loader.
fn constant(name: &str) -> String {
    let source = loader();
    let start = format!("const {name} = ");
    let at = source
        .find(&start)
        .unwrap_or_else(|| panic!("js/morph.js has no {start:?}"))
        + start.len();
    let end = source[at..].find(";\n").expect("a declaration ends with ;");
    source[at..at + end].to_string()
}

/// An array constant's strings (quoted, no escapes).
fn strings(name: &str) -> Vec<String> {
    let text = constant(name);
    let mut rest = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or_else(|| panic!("{name} is an array literal: {text}"))
        .trim_start();
    let mut items = Vec::new();
    while let Some(quote) = rest.chars().next() {
        assert!(
            matches!(quote, '\'' | '"'),
            "{name}: {rest} starts with a quote"
        );
        let (item, after) = rest[1..]
            .split_once(quote)
            .unwrap_or_else(|| panic!("{name}: an unclosed string"));
        assert!(!item.contains('\\'), "{name}: {item} has an escape");
        items.push(item.to_string());
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    items
}

/// What the loader stages of attributes: those whose name starts with one
/// of the prefixes (`XP`), or is one of the names (`XN`).
struct Staged {
    prefixes: Vec<String>,
    names: Vec<String>,
}

impl Staged {
    fn read() -> Staged {
        let staged = Staged {
            prefixes: strings("XP"),
            names: strings("XN"),
        };
        // The loader joins them into one pattern (`XR`), literally.
        for item in staged.prefixes.iter().chain(&staged.names) {
            assert!(
                !item.is_empty()
                    && item
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b == b':' || b == b'-'),
                "{item:?} would not match itself in the loader's pattern"
            );
        }
        staged
    }

    /// Whether the loader stages an attribute named `name` (the HTML
    /// parser lowercases attribute names; the loader compares them as they
    /// are).
    fn stages(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
            || self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
    }
}

/// Whether Rust refuses an attribute named `name` for some value, or judges
/// it as a name that may clobber or an id it names: what the loader must
/// stage for it.
fn judged(name: &str) -> bool {
    !rules::attribute_allowed(name, "javascript:alert(1)")
        || rules::is_name_attribute(name)
        || rules::is_reference(name)
}

/// Attribute names to probe Rust with: HTML's attribute index (the
/// standard's list of every element's attributes), its obsolete attributes
/// whose value is a URL, SVG's and XML's namespaced ones and those SVG
/// animations set, and handlers. A name Rust judges but no list names
/// escapes this test: add it here when Rust learns one.
#[rustfmt::skip]
const CANDIDATES: &[&str] = &[
    "abbr", "accept", "accept-charset", "accesskey", "action", "allow", "allowfullscreen",
    "alt", "as", "async", "autocapitalize", "command", "commandfor", "autocomplete", "autofocus", "autoplay",
    "blocking", "charset", "checked", "cite", "class", "color", "cols", "colspan", "content",
    "contenteditable", "controls", "coords", "crossorigin", "data", "datetime", "decoding",
    "default", "defer", "dir", "dirname", "disabled", "download", "draggable", "enctype",
    "enterkeyhint", "fetchpriority", "for", "form", "formaction", "formenctype", "formmethod",
    "formnovalidate", "formtarget", "headers", "height", "hidden", "high", "href", "hreflang",
    "http-equiv", "id", "imagesizes", "imagesrcset", "inert", "inputmode", "integrity", "is",
    "ismap", "itemid", "itemprop", "itemref", "itemscope", "itemtype", "kind", "label", "lang",
    "list", "loading", "loop", "low", "max", "maxlength", "media", "method", "min",
    "minlength", "multiple", "muted", "name", "nomodule", "nonce", "novalidate", "open",
    "optimum", "pattern", "ping", "placeholder", "playsinline", "popover", "popovertarget",
    "popovertargetaction", "poster", "preload", "readonly", "referrerpolicy", "rel",
    "required", "reversed", "rows", "rowspan", "sandbox", "scope", "selected",
    "shadowrootclonable", "shadowrootdelegatesfocus", "shadowrootmode", "shape", "size",
    "sizes", "slot", "span", "spellcheck", "src", "srcdoc", "srclang", "srcset", "start",
    "step", "style", "tabindex", "target", "title", "translate", "type", "usemap", "value",
    "width", "wrap", "writingsuggestions",
    // Obsolete, with a URL value.
    "archive", "background", "classid", "codebase", "dynsrc", "icon", "longdesc", "lowsrc",
    "manifest", "profile",
    // SVG and XML.
    "xlink:href", "xlink:arcrole", "xlink:role", "xml:base", "xmlns", "xmlns:xlink",
    "attributeName", "begin", "by", "from", "to", "values",
    // Handlers, and names the morph itself uses.
    "on", "onclick", "onerror", "onload", "onmouseover", "onfocusin", "onbegin", "aria-label",
    "role", "data-section-id", "data-morph-changed",
];

#[test]
fn every_attribute_the_loader_stages_is_one_rust_judges() {
    let staged = Staged::read();
    assert!(!staged.names.is_empty() && !staged.prefixes.is_empty());
    for name in &staged.names {
        assert!(
            rules::is_url_attribute(name) || rules::is_handler(name) || judged(name),
            "XN stages {name:?}, which Rust neither reads as a URL attribute nor refuses"
        );
    }
    for prefix in &staged.prefixes {
        let name = format!("{prefix}click");
        assert!(
            (rules::is_handler(&name) || rules::is_form_override(&name))
                && !rules::attribute_allowed(&name, ""),
            "XP stages every {prefix:?}* attribute: Rust must refuse them all"
        );
    }
}

#[test]
fn every_attribute_rust_judges_is_staged_by_the_loader() {
    let staged = Staged::read();
    let probes = CANDIDATES
        .iter()
        .map(|c| c.to_string())
        .chain(staged.names.iter().cloned())
        .chain(staged.prefixes.iter().map(|p| format!("{p}x")));
    for name in probes {
        if rules::is_url_attribute(&name) || rules::is_handler(&name) || judged(&name) {
            assert!(
                staged.stages(&name),
                "Rust judges {name:?}, but the loader does not stage it"
            );
        }
    }
}

#[test]
fn every_element_the_loader_stages_is_one_rust_judges() {
    // Template contents are walked whatever the templates hold.
    let staged = strings("XE");
    let judged = |name: &str| {
        rules::is_forbidden_element(name, false)
            || rules::is_forbidden_animation(name, Some("href"))
    };
    for name in &staged {
        assert!(judged(name), "XE stages <{name}>, which Rust never drops");
    }
    // Elements that run, load or animate, and some that do not.
    #[rustfmt::skip]
    let probes = [
        "script", "animate", "set", "animateMotion", "animateTransform", "template", "iframe",
        "object", "embed", "style", "svg", "a", "img", "form", "base", "meta", "link",
        "noscript", "use",
    ];
    for name in probes.into_iter().chain(staged.iter().map(String::as_str)) {
        if judged(name) {
            assert!(
                staged.iter().any(|s| s == name),
                "Rust drops <{name}>, but XE does not stage it"
            );
        }
    }
}

#[test]
fn the_loaders_key_attributes_are_rusts() {
    assert_eq!(strings("KA"), KEY_ATTRIBUTES);
    // `Q`'s selectors, by dom::KEYED (every keyed element) and
    // dom::SECTIONS (the sections, keyed by the second kind).
    let selectors: Vec<String> = KEY_ATTRIBUTES.iter().map(|a| format!("[{a}]")).collect();
    assert_eq!(
        strings("SEL"),
        [selectors.join(","), format!("[{}]", KEY_ATTRIBUTES[1])]
    );
}
