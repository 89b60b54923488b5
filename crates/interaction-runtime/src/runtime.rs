//! Hydration and updates: the runtime proper, written against [`Page`], the
//! few things it asks of the browser.

use crate::binding::{self, AttrRule, ModelKind};
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;
use surfaces_core::function::{self, Host};
use surfaces_core::{condition, href, json_equal, pointer, truthy, JsonView, Kind};

/// An element (or the document, handle 0) as the page knows it.
pub type Handle = u32;

/// A boolean property of a form control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// `checked` of a checkbox or radio.
    Checked = 0,
    /// `selected` of an option.
    Selected = 1,
}

/// A value the runtime hands the page to hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum New<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Num(f64),
    /// A string.
    Str(&'a str),
}

/// What the runtime needs from the browser. Every setter writes only when the
/// new value differs from what the element holds, so hydration leaves
/// server-rendered markup untouched where it already agrees.
///
/// JSON values (states, bound expressions) stay in the page as `JSON.parse`
/// made them; the runtime reads them through [`JsonView`] and writes them
/// only through [`Page::assign`] and [`Page::replace`].
pub trait Page: Host {
    /// A JSON value the page holds.
    type V: JsonView + Copy;
    /// Registers the elements under `root` matching `selector` that no
    /// earlier query registered, in document order; their handles.
    fn query(&self, root: Handle, selector: &str) -> Range<Handle>;
    /// An attribute's value.
    fn attr(&self, el: Handle, name: &str) -> Option<String>;
    /// The value of attribute `data-ch-{name}` (`name`: `text`, `attr`,
    /// ...) as SPEC.md section 10 reads it: one that starts with `/` (or is
    /// empty) is a JSON Pointer, read as the binding `{"path": pointer}`;
    /// anything else is JSON. `None` when the attribute is absent or its
    /// JSON does not parse.
    fn expression(&self, el: Handle, name: &str) -> Option<Self::V>;
    /// Sets (`Some`) or removes (`None`) an attribute.
    fn set_attr(&self, el: Handle, name: &str, value: Option<&str>);
    /// Sets `textContent`: text, never HTML.
    fn set_text(&self, el: Handle, text: &str);
    /// The `type` property of a form control (`select-one` for a select).
    fn control_type(&self, el: Handle) -> String;
    /// The `value` property, as a JSON string the page holds.
    fn value(&self, el: Handle) -> Self::V;
    /// The `valueAsNumber` property (`NaN` when empty).
    fn number(&self, el: Handle) -> f64;
    /// Sets the `value` property.
    fn set_value(&self, el: Handle, text: &str);
    /// Reads a boolean property.
    fn flag(&self, el: Handle, flag: Flag) -> bool;
    /// Sets a boolean property.
    fn set_flag(&self, el: Handle, flag: Flag, on: bool);
    /// Registers the element with this id.
    fn by_id(&self, id: &str) -> Option<Handle>;
    /// What a radio or option stands for: `JSON.parse` of its
    /// `data-ch-value` attribute, else (absent, or the parse throws) its
    /// value as a string.
    fn literal(&self, el: Handle) -> Self::V;
    /// `JSON.parse` of an element's text (the state script).
    fn parse_content(&self, el: Handle) -> Option<Self::V>;
    /// A new value.
    fn make(&self, value: New<'_>) -> Self::V;
    /// Stores a deep copy of `value` as member `key` of the object `parent`,
    /// or, with `index`, as that item of the array `parent` (the index may
    /// be its length: appended).
    fn assign(&self, parent: Self::V, key: &str, index: Option<usize>, value: Self::V);
    /// Replaces what `root` holds with a deep copy of `value`.
    fn replace(&self, root: Self::V, value: Self::V);
    /// Goes to a safe href.
    fn navigate(&self, href: &str);
    /// Writes text to the clipboard.
    fn copy(&self, text: &str);
    /// Web Share, or copying the url (else the text) where it is missing.
    fn share(&self, title: &str, text: &str, url: &str);
    /// Scrolls the element with this id into view.
    fn scroll_to(&self, id: &str);
}

struct Surface<V> {
    state: V,
    /// The state script, parsed again by `reset`.
    script: Handle,
    bindings: Range<usize>,
}

enum What<V> {
    Text(V),
    /// The `data-ch-attr` object: every member the allowlist lets through.
    Attr(V),
    Visible(V),
    Model {
        kind: ModelKind,
        path: String,
        /// A select's options (consecutive handles), or the radio itself.
        options: Range<Handle>,
    },
    /// One check or a list; the message goes to the element that
    /// `aria-describedby` names first, looked up when it is written.
    Checks(V),
}

struct Binding<V> {
    el: Handle,
    reads: Vec<String>,
    what: What<V>,
}

/// Per handle: the surface it belongs to, its model binding. (Its action
/// is read when it is clicked.)
struct Element {
    surface: usize,
    /// (`usize::MAX`: none.)
    model: usize,
}

/// Every surface of a page, hydrated.
pub struct Runtime<V> {
    surfaces: Vec<Surface<V>>,
    bindings: Vec<Binding<V>>,
    elements: Vec<Element>,
}

/// The kinds of event the page delivers, one delegated listener each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `input`: a `data-ch-model` field changed.
    Input,
    /// `click`: run a `data-ch-action`.
    Click,
}

impl<V: JsonView + Copy> Runtime<V> {
    /// Reads every `[data-ch-surface]` and applies its bindings. A surface
    /// whose state does not parse (or is not an object) is left as rendered.
    pub fn hydrate<P: Page<V = V>>(page: &P) -> Runtime<V> {
        let mut rt = Runtime {
            surfaces: Vec::new(),
            bindings: Vec::new(),
            elements: Vec::new(),
        };
        let surfaces = page.query(0, "[data-ch-surface]");
        // Innermost surfaces come last in document order: hydrate them first
        // so each element is claimed by the surface nearest to it.
        for s in surfaces.rev() {
            let Some(script) = page.query(s, ":scope>script[data-ch-state]").next() else {
                continue;
            };
            let Some(state) = page.parse_content(script) else {
                continue;
            };
            if state.kind() != Kind::Object {
                continue;
            }
            let index = rt.surfaces.len();
            let start = rt.bindings.len();
            let elements = page.query(s, binding::SELECTOR);
            for el in elements {
                rt.bind(page, index, el);
            }
            let bindings = start..rt.bindings.len();
            rt.surfaces.push(Surface {
                script,
                state,
                bindings: bindings.clone(),
            });
            for b in bindings {
                rt.apply(page, b, index, None, false);
            }
        }
        rt
    }

    /// The entry of a bound element, made on first use (handles of
    /// elements that bind nothing have none).
    fn element(&mut self, el: Handle) -> Option<&mut Element> {
        let i = el as usize;
        while self.elements.len() <= i {
            self.elements.push(Element {
                surface: 0,
                model: usize::MAX,
            });
        }
        self.elements.get_mut(i)
    }

    #[inline(never)]
    fn bind<P: Page<V = V>>(&mut self, page: &P, surface: usize, el: Handle) {
        let expression = |name: &str| page.expression(el, name);
        if let Some(e) = expression("text") {
            self.push(el, e, What::Text(e));
        }
        if let Some(members) = expression("attr") {
            self.push(el, members, What::Attr(members));
        }
        if let Some(e) = expression("visible") {
            self.push(el, e, What::Visible(e));
        }
        // (`get` answers none for what is no object.)
        let model = expression("model");
        if let Some((e, path)) = model.and_then(|e| {
            let path = e.get("path")?.as_str()?.into_owned();
            Some((e, path))
        }) {
            if pointer::check(&path).is_ok() {
                let kind = binding::model_kind(&page.control_type(el));
                let options = match kind {
                    ModelKind::Radio => el..el + 1,
                    ModelKind::Select => page.query(el, "option"),
                    _ => 0..0,
                };
                let what = What::Model {
                    kind,
                    path,
                    options,
                };
                let b = self.bindings.len();
                if let Some(element) = self.element(el) {
                    element.model = b;
                }
                self.push(el, e, what);
            }
        }
        if let Some(list) = expression("checks") {
            self.push(el, list, What::Checks(list));
        }
        if let Some(element) = self.element(el) {
            element.surface = surface;
        }
    }

    /// Adds a binding of expression `e` (for a model, its `{"path"}`
    /// object: its path is what it reads).
    fn push(&mut self, el: Handle, e: V, what: What<V>) {
        let mut reads = Vec::new();
        binding::reads(&e, &mut reads);
        self.bindings.push(Binding { el, reads, what });
    }

    /// Handles one delegated event at `el`; `false` when `el` has nothing
    /// for it (the listener then tries the parent).
    pub fn event<P: Page<V = V>>(&self, page: &P, event: Event, el: Handle) -> bool {
        let Some(element) = self.elements.get(el as usize) else {
            return false;
        };
        let surface = element.surface;
        match event {
            Event::Input => {
                let b = element.model;
                if b == usize::MAX {
                    return false;
                }
                if let Some((path, value)) = self.read_field(page, b) {
                    self.write(page, surface, path, value, Some(el));
                }
            }
            Event::Click => {
                let Some(action) = page.expression(el, "action") else {
                    return false;
                };
                if action.kind() == Kind::Array {
                    for i in 0..action.len() {
                        if let Some(one) = action.index(i) {
                            self.run(page, surface, one);
                        }
                    }
                } else {
                    self.run(page, surface, action);
                }
            }
        }
        true
    }

    #[inline(never)]
    fn read_field<P: Page<V = V>>(&self, page: &P, b: usize) -> Option<(&str, V)> {
        let binding = self.bindings.get(b)?;
        let What::Model {
            kind,
            path,
            options,
        } = &binding.what
        else {
            return None;
        };
        let el = binding.el;
        let value = match kind {
            ModelKind::Text => page.value(el),
            ModelKind::Number => {
                let n = page.number(el);
                page.make(if n.is_nan() { New::Null } else { New::Num(n) })
            }
            ModelKind::Checkbox => page.make(New::Bool(page.flag(el, Flag::Checked))),
            // A radio that is not checked writes nothing; a select without
            // a selected option writes null.
            ModelKind::Radio | ModelKind::Select => {
                let flag = choice(*kind);
                match options.clone().find(|option| page.flag(*option, flag)) {
                    Some(option) => page.literal(option),
                    None if flag == Flag::Checked => return None,
                    None => page.make(New::Null),
                }
            }
        };
        Some((path, value))
    }

    fn run<P: Page<V = V>>(&self, page: &P, s: usize, action: V) {
        let Some(surface) = self.surfaces.get(s) else {
            return;
        };
        let (state, script) = (surface.state, surface.script);
        let null = || page.make(New::Null);
        let field = |name: &str| action.get(name);
        let string = |name: &str| field(name).and_then(|v| v.as_str().map(|t| t.into_owned()));
        // A computed field as text; empty when absent.
        let text = |name: &str| field(name).map_or_else(String::new, |v| self.text(page, s, v));
        let number = |name: &str| field(name).and_then(|v| v.as_f64());
        let path = string("path");
        let path = path.as_deref();
        let current = path.and_then(|p| pointer::resolve(&state, p));
        // What set, toggle, increment and reset write at the path.
        let value = match string("action").as_deref().unwrap_or_default() {
            "set" => path
                .and(field("value"))
                .map(|v| self.compute(page, s, v).unwrap_or_else(null)),
            "toggle" => path.map(|_| {
                let on = current.and_then(|v| v.as_bool()) == Some(true);
                page.make(New::Bool(!on))
            }),
            "increment" => path.map(|_| {
                let mut n =
                    current.and_then(|v| v.as_f64()).unwrap_or(0.0) + number("by").unwrap_or(1.0);
                if let Some(max) = number("max") {
                    n = n.min(max);
                }
                if let Some(min) = number("min") {
                    n = n.max(min);
                }
                page.make(New::Num(n))
            }),
            // A path the initial state lacks reads as null, as a missing
            // path does; no path resets the whole state.
            "reset" => Some(
                page.parse_content(script)
                    .and_then(|initial| pointer::resolve(&initial, path.unwrap_or("")))
                    .unwrap_or_else(null),
            ),
            "navigate" => {
                if let Some(h) = string("href").filter(|h| href::is_safe_href(h)) {
                    page.navigate(&h);
                }
                None
            }
            "copy" => {
                page.copy(&text("text"));
                None
            }
            "share" => {
                let url = text("url");
                let url = if href::is_safe_href(&url) { &url } else { "" };
                page.share(&text("title"), &text("text"), url);
                None
            }
            "scrollTo" => {
                if let Some(id) = string("target")
                    .as_deref()
                    .filter(|t| t.as_bytes().first() == Some(&b'#'))
                    .and_then(|t| t.get(1..))
                {
                    page.scroll_to(id);
                }
                None
            }
            _ => None,
        };
        if let Some(value) = value {
            self.write(page, s, path.unwrap_or(""), value, None);
        }
    }

    #[inline(never)]
    fn write<P: Page<V = V>>(
        &self,
        page: &P,
        s: usize,
        path: &str,
        value: V,
        source: Option<Handle>,
    ) {
        let Some(surface) = self.surfaces.get(s) else {
            return;
        };
        if set(page, surface.state, path, value) {
            self.update(page, s, path, source);
        }
    }

    /// Re-applies the bindings of surface `s` that read `path`; the field
    /// the reader is typing in (`source`) keeps what it shows.
    #[inline(never)]
    fn update<P: Page<V = V>>(&self, page: &P, s: usize, path: &str, source: Option<Handle>) {
        let Some(surface) = self.surfaces.get(s) else {
            return;
        };
        for b in surface.bindings.clone() {
            if self
                .bindings
                .get(b)
                .is_some_and(|x| x.reads.iter().any(|r| binding::overlaps(r, path)))
            {
                self.apply(page, b, s, source, true);
            }
        }
    }

    /// A literal, binding or call, computed against surface `s`'s state.
    fn compute<P: Page<V = V>>(&self, page: &P, s: usize, e: V) -> Option<V> {
        let state = self.surfaces.get(s)?.state;
        Some(match function::evaluate(&e, &state, page)? {
            function::Value::Data(v) => v,
            function::Value::Missing => page.make(New::Null),
            function::Value::Text(t) => page.make(New::Str(&t)),
            function::Value::Number(n) => page.make(New::Num(n)),
            function::Value::Bool(b) => page.make(New::Bool(b)),
        })
    }

    /// A computed value as text: strings as they are, numbers as `String()`.
    #[inline(never)]
    fn text<P: Page<V = V>>(&self, page: &P, s: usize, e: V) -> String {
        match self.compute(page, s, e) {
            Some(v) => text_of(page, v),
            None => String::new(),
        }
    }

    fn apply<P: Page<V = V>>(
        &self,
        page: &P,
        b: usize,
        s: usize,
        source: Option<Handle>,
        changed: bool,
    ) {
        let Some(binding) = self.bindings.get(b) else {
            return;
        };
        let Some(surface) = self.surfaces.get(s).map(|x| x.state) else {
            return;
        };
        let el = binding.el;
        match &binding.what {
            What::Text(e) => {
                // A binding that does not follow section 3 leaves the text as rendered.
                if let Some(v) = self.compute(page, s, *e) {
                    page.set_text(el, &text_of(page, v));
                }
            }
            What::Visible(c) => {
                let shown = condition::evaluate(c, &surface) == Some(true);
                page.set_attr(el, "hidden", if shown { None } else { Some("") });
            }
            What::Attr(members) => {
                for name in &members.keys() {
                    let Some(rule) = binding::attr_rule(name) else {
                        continue;
                    };
                    let Some(v) = members.get(name).and_then(|e| self.compute(page, s, e)) else {
                        continue;
                    };
                    let text = text_of(page, v);
                    match rule {
                        AttrRule::Value => page.set_value(el, &text),
                        AttrRule::Checked => page.set_flag(el, Flag::Checked, truthy(&v)),
                        AttrRule::Disabled => page.set_attr(el, name, truthy(&v).then_some("")),
                        AttrRule::Text => {
                            page.set_attr(el, name, (v.kind() != Kind::Null).then_some(&text))
                        }
                        AttrRule::Href => {
                            if href::is_safe_href(&text) {
                                page.set_attr(el, name, Some(&text));
                            }
                        }
                    }
                }
            }
            What::Model {
                kind,
                path,
                options,
            } => {
                if source == Some(el) {
                    return;
                }
                let v = pointer::resolve(&surface, path).unwrap_or_else(|| page.make(New::Null));
                match kind {
                    ModelKind::Text | ModelKind::Number => page.set_value(el, &text_of(page, v)),
                    ModelKind::Checkbox => page.set_flag(el, Flag::Checked, truthy(&v)),
                    ModelKind::Radio | ModelKind::Select => {
                        for option in options.clone() {
                            let literal = page.literal(option);
                            page.set_flag(option, choice(*kind), json_equal(&v, &literal));
                        }
                    }
                }
            }
            What::Checks(list) => {
                // An untouched form shows no errors: checks run from the
                // first change of what they read, not at hydration.
                if !changed {
                    return;
                }
                // One check or a list of them: the first that fails.
                let array = list.kind() == Kind::Array;
                let failing = (0..if array { list.len() } else { 1 })
                    .filter_map(|i| if array { list.index(i) } else { Some(*list) })
                    .find(|c| function::run_check(c, &surface, page) == Some(false));
                let text = failing
                    .and_then(|c| c.get("message"))
                    .and_then(|m| m.as_str().map(|t| t.into_owned()));
                page.set_attr(el, "aria-invalid", failing.is_some().then_some("true"));
                let ids = page.attr(el, "aria-describedby");
                if let Some(m) = ids
                    .as_deref()
                    .and_then(binding::first_id)
                    .and_then(|id| page.by_id(id))
                {
                    page.set_text(m, text.as_deref().unwrap_or_default());
                }
            }
        }
    }
}

/// A value as text: strings as they are, numbers as `String()`.
#[inline(never)]
fn text_of<P: Page>(page: &P, v: P::V) -> String {
    function::Value::Data(v).to_text(page)
}

/// The flag that marks a radio (checked) or a select's option (selected)
/// as the chosen one.
fn choice(kind: ModelKind) -> Flag {
    if kind == ModelKind::Radio {
        Flag::Checked
    } else {
        Flag::Selected
    }
}

/// Finds where writing at `path` in `root` goes and hands it to `write`:
/// `(None, "", None)` for the whole state (the empty pointer), `(Some(object),
/// key, None)` for an object member (added or replaced), `(Some(array), "",
/// Some(index))` for an array item (replaced, or appended when the index is
/// the length; `-` means the length). `false`, and `write` not called, when
/// the path is invalid or unsafe, or its parent does not exist.
pub fn place<V: JsonView>(
    root: &V,
    path: &str,
    write: impl FnOnce(Option<V>, &str, Option<usize>),
) -> bool {
    let Ok(segments) = pointer::parse(path) else {
        return false;
    };
    let Some((last, parents)) = segments.split_last() else {
        write(None, "", None);
        return true;
    };
    let mut at = root.clone();
    for segment in parents {
        let next = match at.kind() {
            Kind::Object => at.get(segment),
            Kind::Array => pointer::array_index(segment).and_then(|i| at.index(i)),
            _ => None,
        };
        let Some(next) = next else {
            return false;
        };
        at = next;
    }
    match at.kind() {
        Kind::Object => write(Some(at), last, None),
        Kind::Array => {
            let len = at.len();
            let i = if last == "-" {
                len
            } else {
                match pointer::array_index(last) {
                    Some(i) if i <= len => i,
                    _ => return false,
                }
            };
            write(Some(at), "", Some(i));
        }
        _ => return false,
    }
    true
}

/// Writes `value` at `path` in `root` (see [`place`]); `false` when nothing
/// was written.
fn set<P: Page>(page: &P, root: P::V, path: &str, value: P::V) -> bool {
    place(&root, path, |at, key, index| match at {
        Some(at) => page.assign(at, key, index, value),
        None => page.replace(root, value),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Where a write goes: the parent (`None`: the root), key and index.
    fn at<'a>(root: &'a Value, path: &str) -> Option<(Option<&'a Value>, String, Option<usize>)> {
        let mut found = None;
        let written = place(&root, path, |at, key, index| {
            found = Some((at, String::from(key), index))
        });
        assert_eq!(written, found.is_some(), "{path}");
        found
    }

    #[test]
    fn writes_add_replace_and_append() {
        let v = json!({"a": [1], "o": {"x": 1}});
        let member = |parent, key: &str| Some((Some(parent), String::from(key), None));
        let item = |parent, i| Some((Some(parent), String::new(), Some(i)));
        assert_eq!(at(&v, ""), Some((None, String::new(), None)));
        assert_eq!(at(&v, "/b"), member(&v, "b"));
        assert_eq!(at(&v, "/o/x"), member(&v["o"], "x"));
        assert_eq!(at(&v, "/a~1b"), member(&v, "a/b"));
        assert_eq!(at(&v, "/a/0"), item(&v["a"], 0));
        assert_eq!(at(&v, "/a/1"), item(&v["a"], 1));
        assert_eq!(at(&v, "/a/-"), item(&v["a"], 1));
    }

    #[test]
    fn writes_without_a_parent_or_past_the_end_are_refused() {
        let v = json!({"a": [1], "n": 1});
        for path in [
            "/x/y", "/n/b", "/a/2", "/a/01", "/a/x", "/a/0/b", "no-slash", "/a~2",
        ] {
            assert_eq!(at(&v, path), None, "{path}");
        }
    }

    #[test]
    fn prototype_paths_are_refused() {
        let v = json!({"__proto__": {"polluted": true}, "x": {}});
        for path in [
            "/__proto__",
            "/__proto__/polluted",
            "/constructor",
            "/x/prototype",
        ] {
            assert_eq!(at(&v, path), None, "{path}");
        }
    }
}
