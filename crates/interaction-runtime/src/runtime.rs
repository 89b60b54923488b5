//! Hydration and updates: the runtime proper, written against [`Page`], the
//! few things it asks of the browser.

use crate::binding::{self, AttrRule, ModelKind, Source};
use crate::value::Value;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;
use surfaces_core::function::{self, Host};
use surfaces_core::{condition, href, json_equal, pointer, truthy};

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

/// What the runtime needs from the browser. Every setter writes only when the
/// new value differs from what the element holds, so hydration leaves
/// server-rendered markup untouched where it already agrees.
pub trait Page: Host {
    /// Registers the elements under `root` matching `selector` that no
    /// earlier query registered, in document order; their handles.
    fn query(&self, root: Handle, selector: &str) -> Range<Handle>;
    /// An attribute's value.
    fn attr(&self, el: Handle, name: &str) -> Option<String>;
    /// Sets (`Some`) or removes (`None`) an attribute.
    fn set_attr(&self, el: Handle, name: &str, value: Option<&str>);
    /// Sets `textContent`: text, never HTML.
    fn set_text(&self, el: Handle, text: &str);
    /// The `type` property of a form control (`select-one` for a select).
    fn control_type(&self, el: Handle) -> String;
    /// The `value` property.
    fn value(&self, el: Handle) -> String;
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
    /// `JSON.parse` of `text` (`None` when it throws).
    fn parse(&self, text: &str) -> Option<Value>;
    /// `JSON.parse` of an element's text (the state script).
    fn parse_content(&self, el: Handle) -> Option<Value>;
    /// Goes to a safe href.
    fn navigate(&self, href: &str);
    /// Writes text to the clipboard.
    fn copy(&self, text: &str);
    /// Web Share, or copying the url (else the text) where it is missing.
    fn share(&self, title: &str, text: &str, url: &str);
    /// Scrolls the element with this id into view.
    fn scroll_to(&self, id: &str);
}

struct Surface {
    state: Value,
    initial: Value,
    bindings: Range<usize>,
}

enum What {
    Text(Value),
    Attr(String, AttrRule, Value),
    Visible(Value),
    Model {
        kind: ModelKind,
        path: String,
        literal: Value,
        /// A select's options (consecutive handles) and what each stands for.
        options: Range<Handle>,
        literals: Vec<Value>,
    },
    Checks {
        list: Value,
        message: Option<Handle>,
    },
}

struct Binding {
    el: Handle,
    reads: Vec<String>,
    what: What,
}

/// Per handle: the surface it belongs to, its model binding, its action.
#[derive(Default)]
struct Element {
    surface: usize,
    model: Option<usize>,
    action: Option<Value>,
}

/// Every surface of a page, hydrated.
#[derive(Default)]
pub struct Runtime {
    surfaces: Vec<Surface>,
    bindings: Vec<Binding>,
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

impl Runtime {
    /// Reads every `[data-ch-surface]` and applies its bindings. A surface
    /// whose state does not parse (or is not an object) is left as rendered.
    pub fn hydrate<P: Page>(page: &P) -> Runtime {
        let mut rt = Runtime::default();
        let surfaces = page.query(0, "[data-ch-surface]");
        // Innermost surfaces come last in document order: hydrate them first
        // so each element is claimed by the surface nearest to it.
        for s in surfaces.rev() {
            let script = page.query(s, ":scope>script[data-ch-state]");
            let Some(state @ Value::Obj(_)) =
                script.clone().next().and_then(|el| page.parse_content(el))
            else {
                continue;
            };
            let index = rt.surfaces.len();
            let start = rt.bindings.len();
            let elements = page.query(s, binding::SELECTOR);
            for el in elements {
                rt.bind(page, index, el);
            }
            let bindings = start..rt.bindings.len();
            rt.surfaces.push(Surface {
                initial: state.clone(),
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
            self.elements.push(Element::default());
        }
        self.elements.get_mut(i)
    }

    #[inline(never)]
    fn bind<P: Page>(&mut self, page: &P, surface: usize, el: Handle) {
        let expression = |name: &str| -> Option<Value> {
            let text = page.attr(el, name)?;
            match binding::source(&text) {
                Source::Pointer(p) => Some(binding::path_binding(p)),
                Source::Json(j) => page.parse(j),
            }
        };
        if let Some(e) = expression("data-ch-text") {
            self.push(el, What::Text(e));
        }
        if let Some(Value::Obj(members)) = expression("data-ch-attr") {
            // Borrowed and cloned, not consumed: a consuming loop adds its
            // own drop code to the wasm.
            for (name, e) in &members {
                if let Some(rule) = binding::attr_rule(name) {
                    self.push(el, What::Attr(name.clone(), rule, e.clone()));
                }
            }
        }
        if let Some(e) = expression("data-ch-visible") {
            self.push(el, What::Visible(e));
        }
        if let Some(path) = expression("data-ch-model")
            .as_ref()
            .and_then(|e| e.member("path"))
            .and_then(Value::str)
        {
            if pointer::check(path).is_ok() {
                let kind = binding::model_kind(&page.control_type(el));
                let literal = if kind == ModelKind::Radio {
                    self.literal(page, el)
                } else {
                    Value::Null
                };
                let mut options = 0..0;
                let mut literals = Vec::new();
                if kind == ModelKind::Select {
                    options = page.query(el, "option");
                    for option in options.clone() {
                        literals.push(self.literal(page, option));
                    }
                }
                let what = What::Model {
                    kind,
                    path: String::from(path),
                    literal,
                    options,
                    literals,
                };
                let b = self.bindings.len();
                if let Some(element) = self.element(el) {
                    element.model = Some(b);
                }
                self.push(el, what);
            }
        }
        if let Some(list) = expression("data-ch-checks") {
            let ids = page.attr(el, "aria-describedby");
            let message = ids
                .as_deref()
                .and_then(binding::first_id)
                .and_then(|id| page.by_id(id));
            self.push(el, What::Checks { list, message });
        }
        let action = expression("data-ch-action");
        if let Some(element) = self.element(el) {
            element.surface = surface;
            element.action = action;
        }
    }

    /// What a radio or option stands for: its `data-ch-value` JSON literal,
    /// else its value as a string.
    fn literal<P: Page>(&self, page: &P, el: Handle) -> Value {
        page.attr(el, "data-ch-value")
            .and_then(|text| page.parse(&text))
            .unwrap_or_else(|| Value::Str(page.value(el)))
    }

    fn push(&mut self, el: Handle, what: What) {
        let mut reads = Vec::new();
        match &what {
            What::Text(e)
            | What::Attr(_, _, e)
            | What::Visible(e)
            | What::Checks { list: e, .. } => binding::reads(e, &mut reads),
            What::Model { path, .. } => reads.push(path.clone()),
        }
        self.bindings.push(Binding { el, reads, what });
    }

    /// Handles one delegated event at `el`; `false` when `el` has nothing
    /// for it (the listener then tries the parent).
    pub fn event<P: Page>(&mut self, page: &P, event: Event, el: Handle) -> bool {
        let Some(element) = self.elements.get(el as usize) else {
            return false;
        };
        let surface = element.surface;
        match event {
            Event::Input => {
                let Some(b) = element.model else { return false };
                if let Some((path, value)) = self.read_field(page, b) {
                    self.write(page, surface, &path, value, Some(el));
                }
            }
            Event::Click => {
                // Lent out while it runs (no action reads another's), not cloned.
                let Some(action) = self
                    .elements
                    .get_mut(el as usize)
                    .and_then(|e| e.action.take())
                else {
                    return false;
                };
                match &action {
                    Value::Arr(list) => list.iter().for_each(|a| self.run(page, surface, a)),
                    one => self.run(page, surface, one),
                }
                if let Some(e) = self.elements.get_mut(el as usize) {
                    e.action = Some(action);
                }
            }
        }
        true
    }

    #[inline(never)]
    fn read_field<P: Page>(&self, page: &P, b: usize) -> Option<(String, Value)> {
        let binding = self.bindings.get(b)?;
        let What::Model {
            kind,
            path,
            literal,
            options,
            literals,
        } = &binding.what
        else {
            return None;
        };
        let el = binding.el;
        let value = match kind {
            ModelKind::Text => Value::Str(page.value(el)),
            ModelKind::Number => {
                let n = page.number(el);
                if n.is_nan() {
                    Value::Null
                } else {
                    Value::Num(n)
                }
            }
            ModelKind::Checkbox => Value::Bool(page.flag(el, Flag::Checked)),
            ModelKind::Radio if page.flag(el, Flag::Checked) => literal.clone(),
            ModelKind::Radio => return None,
            ModelKind::Select => options
                .clone()
                .zip(literals)
                .find(|(option, _)| page.flag(*option, Flag::Selected))
                .map_or(Value::Null, |(_, v)| v.clone()),
        };
        Some((path.clone(), value))
    }

    fn run<P: Page>(&mut self, page: &P, s: usize, action: &Value) {
        let Some(surface) = self.surfaces.get(s) else {
            return;
        };
        let field = |name: &str| action.member(name);
        let text = |name: &str| field(name).map(|v| self.text(page, s, v));
        let path = field("path").and_then(Value::str);
        let number = |name: &str| field(name).and_then(Value::num);
        match field("action").and_then(Value::str).unwrap_or_default() {
            "set" => {
                if let (Some(p), Some(v)) = (path, field("value")) {
                    let value = self.compute(page, s, v).unwrap_or(Value::Null);
                    self.write(page, s, p, value, None);
                }
            }
            "toggle" => {
                if let Some(p) = path {
                    let on = matches!(surface.state.at(p), Value::Bool(true));
                    self.write(page, s, p, Value::Bool(!on), None);
                }
            }
            "increment" => {
                if let Some(p) = path {
                    let mut n =
                        surface.state.at(p).num().unwrap_or(0.0) + number("by").unwrap_or(1.0);
                    if let Some(max) = number("max") {
                        n = n.min(max);
                    }
                    if let Some(min) = number("min") {
                        n = n.max(min);
                    }
                    self.write(page, s, p, Value::Num(n), None);
                }
            }
            "reset" => self.reset(page, s, path.unwrap_or("")),
            "navigate" => {
                if let Some(h) = field("href")
                    .and_then(Value::str)
                    .filter(|h| href::is_safe_href(h))
                {
                    page.navigate(h);
                }
            }
            "copy" => page.copy(&text("text").unwrap_or_default()),
            "share" => {
                let url = text("url")
                    .filter(|u| href::is_safe_href(u))
                    .unwrap_or_default();
                page.share(
                    &text("title").unwrap_or_default(),
                    &text("text").unwrap_or_default(),
                    &url,
                );
            }
            "scrollTo" => {
                if let Some(id) = field("target")
                    .and_then(Value::str)
                    .filter(|t| t.as_bytes().first() == Some(&b'#'))
                    .and_then(|t| t.get(1..))
                {
                    page.scroll_to(id);
                }
            }
            _ => {}
        }
    }

    #[inline(never)]
    fn reset<P: Page>(&mut self, page: &P, s: usize, path: &str) {
        let Some(surface) = self.surfaces.get_mut(s) else {
            return;
        };
        // A path the initial state lacks reads as null, as a missing path does.
        let initial = surface.initial.at(path).clone();
        if surface.state.set(path, initial) {
            self.update(page, s, path, None);
        }
    }

    #[inline(never)]
    fn write<P: Page>(
        &mut self,
        page: &P,
        s: usize,
        path: &str,
        value: Value,
        source: Option<Handle>,
    ) {
        let Some(surface) = self.surfaces.get_mut(s) else {
            return;
        };
        if surface.state.set(path, value) {
            self.update(page, s, path, source);
        }
    }

    /// Re-applies the bindings of surface `s` that read `path`; the field
    /// the reader is typing in (`source`) keeps what it shows.
    #[inline(never)]
    fn update<P: Page>(&self, page: &P, s: usize, path: &str, source: Option<Handle>) {
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
    fn compute<P: Page>(&self, page: &P, s: usize, e: &Value) -> Option<Value> {
        let state = &self.surfaces.get(s)?.state;
        Some(match function::evaluate(&e, &state, page)? {
            function::Value::Data(v) => v.clone(),
            function::Value::Missing => Value::Null,
            function::Value::Text(t) => Value::Str(t),
            function::Value::Number(n) => Value::Num(n),
            function::Value::Bool(b) => Value::Bool(b),
        })
    }

    /// A computed value as text: strings as they are, numbers as `String()`.
    #[inline(never)]
    fn text<P: Page>(&self, page: &P, s: usize, e: &Value) -> String {
        let v = self.compute(page, s, e).unwrap_or(Value::Null);
        function::Value::Data(&v).to_text(page)
    }

    fn apply<P: Page>(&self, page: &P, b: usize, s: usize, source: Option<Handle>, changed: bool) {
        let Some(binding) = self.bindings.get(b) else {
            return;
        };
        let Some(surface) = self.surfaces.get(s).map(|x| &x.state) else {
            return;
        };
        let el = binding.el;
        match &binding.what {
            What::Text(e) => {
                // A binding that does not follow section 3 leaves the text as rendered.
                if let Some(v) = self.compute(page, s, e) {
                    page.set_text(el, &function::Value::Data(&v).to_text(page));
                }
            }
            What::Visible(c) => {
                let shown = condition::evaluate(&c, &surface) == Some(true);
                page.set_attr(el, "hidden", if shown { None } else { Some("") });
            }
            What::Attr(name, rule, e) => {
                let Some(v) = self.compute(page, s, e) else {
                    return;
                };
                let text = function::Value::Data(&v).to_text(page);
                match rule {
                    AttrRule::Value => page.set_value(el, &text),
                    AttrRule::Checked => page.set_flag(el, Flag::Checked, truthy(&&v)),
                    AttrRule::Disabled => page.set_attr(el, name, truthy(&&v).then_some("")),
                    AttrRule::Text => {
                        page.set_attr(el, name, (!matches!(v, Value::Null)).then_some(&text))
                    }
                    AttrRule::Href => {
                        if href::is_safe_href(&text) {
                            page.set_attr(el, name, Some(&text));
                        }
                    }
                }
            }
            What::Model {
                kind,
                path,
                literal,
                options,
                literals,
            } => {
                if source == Some(el) {
                    return;
                }
                let v = surface.at(path);
                match kind {
                    ModelKind::Text | ModelKind::Number => {
                        page.set_value(el, &function::Value::Data(v).to_text(page))
                    }
                    ModelKind::Checkbox => page.set_flag(el, Flag::Checked, truthy(&v)),
                    ModelKind::Radio => page.set_flag(el, Flag::Checked, json_equal(&v, &literal)),
                    ModelKind::Select => {
                        for (option, literal) in options.clone().zip(literals) {
                            page.set_flag(option, Flag::Selected, json_equal(&v, &literal));
                        }
                    }
                }
            }
            What::Checks { list, message } => {
                // An untouched form shows no errors: checks run from the
                // first change of what they read, not at hydration.
                if !changed {
                    return;
                }
                let checks = match list {
                    Value::Arr(items) => items.as_slice(),
                    one => core::slice::from_ref(one),
                };
                let failing = checks
                    .iter()
                    .find(|c| function::run_check(c, &surface, page) == Some(false));
                let text = failing
                    .and_then(|c| c.member("message"))
                    .and_then(Value::str);
                page.set_attr(el, "aria-invalid", failing.is_some().then_some("true"));
                if let Some(m) = message {
                    page.set_text(*m, text.unwrap_or_default());
                }
            }
        }
    }
}
