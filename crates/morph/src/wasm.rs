//! The WebAssembly edge: plain exports for the loader (`js/morph.js`),
//! which gives the JavaScript face (`morph(target, html, options)` and the
//! `Preview` class) over them. Converts at the edge only; the work is in
//! [`crate::live`] and the pure modules.
//!
//! Exports (every parameter an `i32` or `f64`; `Js` values are slots the
//! loader filled and Rust now owns):
//!
//! - `m(target, html, outer, outline, follow)`: `morph`.
//! - `p(target, outline, follow, onMorph)`: a new preview; its number.
//! - `u(preview, html)`: `preview.update(html)`.
//! - `s(preview, key, html)`: `preview.section(key, html)`, the key staged
//!   (its length, -1 if no string).
//! - `f(preview)`: `preview.flush()`; a slot holding the changed keys.
//! - `t(preview)`: the scheduler's timer fired.
//! - `d(preview)`: `preview.free()`.
//!
//! The only `unsafe` of the crate is here: the exports are `#[no_mangle]`,
//! and the previews live in one global (see [`Previews`]).
#![allow(unsafe_code)]

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use crate::digest::Ledger;
use crate::dom::{self, Js};
use crate::gate::{Decision, Gate, Pending};
use crate::live::{self, Options};

/// The allocator: blocks of a power of two bytes, one free list per size
/// (the `size-classes` crate, shared with Studio's module). The preview
/// allocates and frees on every morph, so a leaking bump allocator would
/// grow; a block freed is reused by the next request of its size.
#[global_allocator]
static ALLOCATOR: size_classes::Classes = size_classes::Classes::new();

/// Nothing here panics on any input; if something did, trap rather than
/// carry std's formatting machinery.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// The options as the loader reads them: `outer` and `follow` 0 or 1,
/// `outline` the number given (NaN if none).
fn read_options(outer: i32, outline: f64, follow: i32) -> Options {
    Options {
        outer: outer != 0,
        // NaN converts to 0.
        outline_ms: outline.clamp(0.0, 3.6e6) as u32,
        follow: follow != 0,
    }
}

/// `morph(target, html, options?)`: makes the children of `target` (or,
/// with `options.outer`, `target` itself) match `html`, reusing and moving
/// nodes.
#[no_mangle]
pub extern "C" fn m(target: i32, html: i32, outer: i32, outline: f64, follow: i32) {
    let (target, html) = (Js::own(target), Js::own(html));
    let options = read_options(outer, outline, follow);
    let target = dom::begin(target.slot());
    if let Some(root) = live::parse(target, &html) {
        live::morph(target, root, &options, &[]);
    }
    dom::end();
}

/// What a morph works on; borrowed for the length of a morph.
struct Work {
    target: Js,
    options: Options,
    /// `options.onMorph` (called if a function).
    on_morph: Js,
    /// Each section's HTML as last applied, kept as JS strings.
    ledger: Ledger<Js>,
}

/// A preview's state, in separate cells (borrowed with `try_borrow*`
/// only: the panicking forms would bring number formatting into the wasm):
/// an update may arrive while a morph runs (from a custom element's
/// callback, say), and must land in the inbox rather than find the morph's
/// state borrowed.
struct Shared {
    /// Its number, for the timer.
    number: i32,
    work: RefCell<Work>,
    inbox: RefCell<Pending<Js>>,
    gate: RefCell<Gate>,
}

/// Every preview made, by number, until freed (a page makes one or a few).
struct Previews(RefCell<Vec<Option<Rc<Shared>>>>);

// SAFETY: wasm32-unknown-unknown, built without the atomics feature, runs
// one thread: the global is never touched from two at once.
unsafe impl Sync for Previews {}

static PREVIEWS: Previews = Previews(RefCell::new(Vec::new()));

/// The preview numbered `number`, if any (a clone: the list is not held
/// borrowed while it works).
fn preview(number: i32) -> Option<Rc<Shared>> {
    let list = PREVIEWS.0.try_borrow().ok()?;
    list.get(usize::try_from(number).ok()?)?.clone()
}

/// `new Preview(target, options?)`: `morph`'s options (less `outer`) and
/// `onMorph(keys)`; returns the preview's number (-1 if none could be made).
#[no_mangle]
pub extern "C" fn p(target: i32, outline: f64, follow: i32, on_morph: i32) -> i32 {
    let (target, on_morph) = (Js::own(target), Js::own(on_morph));
    let Ok(mut list) = PREVIEWS.0.try_borrow_mut() else {
        return -1;
    };
    let number = list.len() as i32;
    list.push(Some(Rc::new(Shared {
        number,
        work: RefCell::new(Work {
            target,
            options: read_options(0, outline, follow),
            on_morph,
            ledger: Ledger::default(),
        }),
        inbox: RefCell::new(Pending::default()),
        gate: RefCell::new(Gate::default()),
    })));
    number
}

/// `preview.update(html)`: a whole render, a document (its body is shown)
/// or a fragment for all of the target's children.
#[no_mangle]
pub extern "C" fn u(number: i32, html: i32) {
    let html = Js::own(html);
    let Some(state) = preview(number) else { return };
    if let Ok(mut inbox) = state.inbox.try_borrow_mut() {
        inbox.document(html);
    }
    offer(&state);
}

/// `preview.section(key, html)`: one section's new HTML, the whole
/// `data-section-id="key"` element; `key` is staged (its length).
#[no_mangle]
pub extern "C" fn s(number: i32, key: i32, html: i32) {
    let key = dom::string(key).unwrap_or_default();
    let html = Js::own(html);
    let Some(state) = preview(number) else { return };
    if let Ok(mut inbox) = state.inbox.try_borrow_mut() {
        inbox.section(key, html);
    }
    offer(&state);
}

/// `preview.flush()`: morphs whatever is pending now, whatever the rate;
/// a slot holding the keys of the sections that changed.
#[no_mangle]
pub extern "C" fn f(number: i32) -> i32 {
    match preview(number) {
        Some(state) => run(&state).give(),
        None => -1,
    }
}

/// The scheduler's timer (set by [`dom::later`]) fired.
#[no_mangle]
pub extern "C" fn t(number: i32) {
    if let Some(state) = preview(number) {
        run(&state);
    }
}

/// `preview.free()`: forgets the preview (its pending updates, the HTML it
/// keeps and its callback); a timer set for it then does nothing, and a
/// morph it is running finishes first.
#[no_mangle]
pub extern "C" fn d(number: i32) {
    let freed = PREVIEWS.0.try_borrow_mut().ok().and_then(|mut list| {
        let slot = list.get_mut(usize::try_from(number).ok()?)?;
        slot.take()
    });
    // Dropped once the list is no longer borrowed: dropping frees JS slots.
    drop(freed);
}

fn offer(state: &Shared) {
    let now = dom::now();
    let Ok(decision) = state.gate.try_borrow_mut().map(|mut g| g.offer(now)) else {
        return;
    };
    match decision {
        Decision::RunNow => {
            run(state);
        }
        Decision::RunAt(at) => dom::later(state.number, (at - now) as i32 + 1),
        Decision::Wait => {}
    }
}

/// Morphs what is pending and reports the changed keys to `onMorph`; the
/// array of them (empty when called from inside a running morph: that
/// morph picks the update up when it ends).
fn run(state: &Shared) -> Js {
    let Ok(mut work) = state.work.try_borrow_mut() else {
        return dom::report(-1);
    };
    let pending = state
        .inbox
        .try_borrow_mut()
        .map(|mut inbox| inbox.take())
        .unwrap_or_default();
    let keys = apply(&mut work, pending);
    // The slot stays the preview's; the callback may call the preview.
    let on_morph = work.on_morph.slot();
    drop(work);
    // Counted from the end of the morph: a slow morph never makes the next
    // one come sooner.
    if let Ok(mut gate) = state.gate.try_borrow_mut() {
        gate.ran(dom::now());
    }
    for key in &keys {
        dom::out(key);
    }
    let list = dom::report(on_morph);
    if state
        .inbox
        .try_borrow()
        .is_ok_and(|inbox| !inbox.is_empty())
    {
        offer(state);
    }
    list
}

fn apply(s: &mut Work, pending: Pending<Js>) -> Vec<String> {
    let target = dom::begin(s.target.slot());
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
