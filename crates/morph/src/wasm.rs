//! The JavaScript face: `morph(target, html, options)` and `Preview`.
//! Converts at the edge only; the work is in [`crate::live`] and the pure
//! modules.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use js_sys::{Array, JsString, Object};
use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::digest::Ledger;
use crate::dom;
use crate::gate::{Decision, Gate, Pending};
use crate::live::{self, Options};

/// A free-list allocator a few hundred bytes long: the preview allocates
/// and frees strings on every morph, so a leaking bump allocator would grow.
#[cfg(not(feature = "std"))]
#[global_allocator]
static ALLOCATOR: lol_alloc::LockedAllocator<lol_alloc::FreeListAllocator> =
    lol_alloc::LockedAllocator::new(lol_alloc::FreeListAllocator::new());

/// Nothing here panics on any input; if something did, trap rather than
/// carry std's formatting machinery.
#[cfg(not(feature = "std"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[wasm_bindgen(typescript_custom_section)]
const OPTIONS_TS: &str = r#"
/** `morph`'s options (typed here; the parameter takes any object). */
export interface MorphOptions {
  /** Morph `target` itself instead of its children. */
  outer?: boolean;
  /** Milliseconds that changed elements carry `data-morph-changed` (0: none). */
  outline?: number;
  /** Scroll the last changed element into view. */
  follow?: boolean;
}
/** `new Preview`'s options: `morph`'s (less `outer`) and the report. */
export interface PreviewOptions {
  outline?: number;
  follow?: boolean;
  /** Called after each morph with the `data-section-id`s that changed. */
  onMorph?: (keys: string[]) => void;
}
"#;

fn read_options(options: &JsValue) -> Options {
    Options {
        outer: dom::option(options, dom::OUTER) != 0.0,
        // Not a number: NaN, which converts to 0.
        outline_ms: dom::option(options, dom::OUTLINE).clamp(0.0, 3.6e6) as u32,
        follow: dom::option(options, dom::FOLLOW) != 0.0,
    }
}

/// `morph(target, html, options?)`: makes the children of `target` (or,
/// with `options.outer`, `target` itself) match `html`, reusing and moving
/// nodes. Options: `outer` (boolean), `outline` (milliseconds to mark changed
/// elements with `data-morph-changed`), `follow` (scroll the last changed
/// element into view).
#[wasm_bindgen]
pub fn morph(target: &Element, html: &JsString, options: Option<Object>) {
    let options = read_options(&options.into());
    let target = dom::begin(target);
    if let Some(root) = live::parse(target, html) {
        live::morph(target, root, &options, &[]);
    }
    dom::end();
}

/// What a morph works on; borrowed for the length of a morph.
struct Work {
    target: Element,
    options: Options,
    /// `options.onMorph` if a function, else undefined.
    on_morph: JsValue,
    /// Each section's HTML as last applied, kept as JS strings.
    ledger: Ledger<JsString>,
}

/// The preview's state, in separate cells (borrowed with `try_borrow*`
/// only: the panicking forms would bring number formatting into the wasm): an update may arrive while a
/// morph runs (from a custom element's callback, say), and must land in the
/// inbox rather than find the morph's state borrowed.
struct Shared {
    work: RefCell<Work>,
    inbox: RefCell<Pending<JsString>>,
    gate: RefCell<Gate>,
}

/// The live preview: takes whole renders or single sections as a model
/// writes, and morphs at most 4 times a second, the latest update winning.
///
/// `new Preview(target, options?)` takes `morph`'s options (less `outer`)
/// and `onMorph(keys)`, called after each morph with the `data-section-id`s
/// that changed.
#[wasm_bindgen]
pub struct Preview {
    state: Rc<Shared>,
}

#[wasm_bindgen]
impl Preview {
    #[wasm_bindgen(constructor)]
    pub fn new(target: Element, options: Option<Object>) -> Preview {
        let options: JsValue = options.into();
        let mut opts = read_options(&options);
        opts.outer = false;
        let on_morph = dom::on_morph(&options);
        Preview {
            state: Rc::new(Shared {
                work: RefCell::new(Work {
                    target,
                    options: opts,
                    on_morph,
                    ledger: Ledger::default(),
                }),
                inbox: RefCell::new(Pending::default()),
                gate: RefCell::new(Gate::default()),
            }),
        }
    }

    /// A whole render: a document (its body is shown) or a fragment for all
    /// of the target's children.
    pub fn update(&self, html: JsString) {
        if let Ok(mut inbox) = self.state.inbox.try_borrow_mut() {
            inbox.document(html);
        }
        offer(&self.state);
    }

    /// One section's new HTML: the whole `data-section-id="key"` element.
    pub fn section(&self, key: JsString, html: JsString) {
        let key = dom::string(&key).unwrap_or_default();
        if let Ok(mut inbox) = self.state.inbox.try_borrow_mut() {
            inbox.section(key, html);
        }
        offer(&self.state);
    }

    /// Morphs whatever is pending now, whatever the rate; returns the keys
    /// of the sections that changed.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn flush(&self) -> Array {
        run(&self.state)
    }
}

fn offer(state: &Rc<Shared>) {
    let now = js_sys::Date::now();
    let Ok(decision) = state.gate.try_borrow_mut().map(|mut g| g.offer(now)) else {
        return;
    };
    match decision {
        Decision::RunNow => {
            run(state);
        }
        Decision::RunAt(at) => {
            dom::later(Tick(Rc::clone(state)).into(), (at - now) as i32 + 1);
        }
        Decision::Wait => {}
    }
}

/// The scheduler's timer: [`dom::later`] fires it once (a JS object
/// holding the preview's state, cheaper than a `Closure`).
#[wasm_bindgen(skip_typescript)]
pub struct Tick(Rc<Shared>);

#[wasm_bindgen]
impl Tick {
    /// Runs the pending morph (called by the timer; consumes the tick).
    pub fn fire(self) {
        run(&self.0);
    }
}

/// Morphs what is pending and reports the changed keys to `onMorph`.
fn run(state: &Rc<Shared>) -> Array {
    // Called from inside a running morph: that morph picks the update up
    // when it ends.
    let Ok(mut work) = state.work.try_borrow_mut() else {
        return Array::new();
    };
    let pending = state
        .inbox
        .try_borrow_mut()
        .map(|mut inbox| inbox.take())
        .unwrap_or_default();
    let keys = apply(&mut work, pending);
    let on_morph = work.on_morph.clone();
    drop(work);
    // Counted from the end of the morph: a slow morph never makes the next
    // one come sooner.
    if let Ok(mut gate) = state.gate.try_borrow_mut() {
        gate.ran(js_sys::Date::now());
    }
    let list: Array = keys.iter().map(|k| JsValue::from_str(k)).collect();
    if !keys.is_empty() {
        dom::report(&on_morph, &list);
    }
    if state
        .inbox
        .try_borrow()
        .is_ok_and(|inbox| !inbox.is_empty())
    {
        offer(state);
    }
    list
}

fn apply(s: &mut Work, pending: Pending<JsString>) -> Vec<String> {
    let target = dom::begin(&s.target);
    let mut changed = Vec::new();
    if let Some(html) = pending.document {
        if let Some(root) = live::parse(target, &html) {
            let mut skip = Vec::new();
            let mut present = Vec::new();
            for (key, section) in live::sections(root) {
                if s.ledger.record(&key, dom::html(section)) {
                    changed.push(key.clone());
                } else {
                    skip.push(key.clone());
                }
                present.push(key);
            }
            changed.extend(s.ledger.keep_only(&present));
            live::morph(target, root, &s.options, &skip);
        }
    }
    for (key, html) in pending.sections {
        if s.ledger.unchanged(&key, &html) {
            continue;
        }
        let Some(root) = live::parse(target, &html) else {
            continue;
        };
        let live_section = live::sections(target).find(|(k, _)| *k == key);
        match live_section {
            Some((_, el)) => {
                let options = Options {
                    outer: true,
                    ..s.options
                };
                live::morph(el, root, &options, &[]);
            }
            None => {
                live::append(target, root, &s.options);
            }
        }
        s.ledger.record(&key, html);
        if !changed.contains(&key) {
            changed.push(key);
        }
    }
    dom::end();
    changed
}
