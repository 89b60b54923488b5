//! The WebAssembly edge: plain imports from the loader (`js/surface.js`,
//! module `e`), two exports, an allocator with a free list per size class
//! and a panic handler that traps. JSON values stay in the loader (`J`,
//! read through `JsonView`). Strings cross as UTF-8: Rust passes
//! `(pointer, length)`; the loader stages a string it returns and reports
//! its length (`-1` for none), and [`take`] copies it in.

use crate::runtime::{Event, Flag, Handle, New, Page, Runtime};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ops::Range;
use surfaces_core::function::{DateInput, DateStyle, Host, NumberOptions};
use surfaces_core::{JsonView, Kind};

#[link(wasm_import_module = "e")]
extern "C" {
    fn q(root: Handle, p: *const u8, l: usize) -> Handle;
    fn n() -> Handle;
    fn a(el: Handle, p: *const u8, l: usize) -> i32;
    fn r(to: *mut u8);
    #[link_name = "A"]
    fn set_attr(el: Handle, np: *const u8, nl: usize, vp: *const u8, vl: i32);
    /// Sets `textContent` (`prop` 0) or `value` (1).
    fn t(el: Handle, prop: u32, p: *const u8, l: usize);
    /// Stages `type`.
    fn g(el: Handle) -> i32;
    /// `value`, as a new JSON string.
    fn v(el: Handle) -> i32;
    #[link_name = "V"]
    fn number(el: Handle) -> f64;
    fn c(el: Handle, flag: u32) -> u32;
    #[link_name = "C"]
    fn set_flag(el: Handle, flag: u32, on: u32);
    fn i(p: *const u8, l: usize) -> i32;
    /// `JSON.parse` of an element's text (`literal` 0; -1 when it does
    /// not parse), or what a radio or option stands for (1: its
    /// `data-ch-value` parsed, else its value as a string).
    #[link_name = "P"]
    fn parse(el: Handle, literal: u32) -> i32;
    #[link_name = "B"]
    fn expression(el: Handle, p: *const u8, l: usize) -> i32;
    #[link_name = "k"]
    fn kind(j: i32) -> u32;
    #[link_name = "f"]
    fn number_of(j: i32) -> f64;
    #[link_name = "z"]
    fn string_of(j: i32) -> i32;
    #[link_name = "l"]
    fn length(j: i32) -> usize;
    #[link_name = "I"]
    fn item(j: i32, i: usize) -> i32;
    #[link_name = "m"]
    fn member(j: i32, p: *const u8, l: usize) -> i32;
    #[link_name = "K"]
    fn key(j: i32, i: usize) -> i32;
    #[link_name = "M"]
    fn make(kind: u32, n: f64, p: *const u8, l: usize) -> i32;
    #[link_name = "W"]
    fn assign(j: i32, p: *const u8, l: usize, index: i32, value: i32);
    /// Navigates to (`to` 0), copies (1) or scrolls to the element with
    /// this id (2).
    #[link_name = "N"]
    fn go(to: u32, p: *const u8, l: usize);
    #[link_name = "S"]
    fn share(tp: *const u8, tl: usize, xp: *const u8, xl: usize, up: *const u8, ul: usize);
    /// `Intl`, one entry for the function set: `kind` 0 a date (`ms`, or
    /// the ISO date `s`; `n` the style's index), 1 a number and 2 a percent
    /// (`n`, `m`: fraction digits or -1), 3 a currency (`s`); a staged
    /// string's length (-1: none). Kind 4: whether the plural category of
    /// `value` is `one` (1 or 0). Kind 5: `String(value)`, staged.
    #[link_name = "X"]
    fn intl_call(
        kind: u32,
        value: f64,
        n: i32,
        m: i32,
        sp: *const u8,
        sl: i32,
        lp: *const u8,
        ll: i32,
    ) -> i32;
}

/// Copies the string the loader staged (`len` bytes; `-1`: none).
fn take(len: i32) -> Option<String> {
    let len = usize::try_from(len).ok()?;
    let mut bytes = Vec::with_capacity(len);
    // SAFETY: the loader writes exactly `len` bytes at the pointer (the
    // vector's capacity), all of them UTF-8 from `TextEncoder`.
    unsafe {
        r(bytes.as_mut_ptr());
        bytes.set_len(len);
        Some(String::from_utf8_unchecked(bytes))
    }
}

/// An optional string as `(pointer, length or -1)`.
fn opt(s: Option<&str>) -> (*const u8, i32) {
    s.map_or((core::ptr::null(), -1), |s| (s.as_ptr(), s.len() as i32))
}

/// A JSON value the loader holds (an index into its value array). Values
/// made while an event runs are dropped by the loader when it returns; the
/// runtime keeps only those made at hydration.
#[derive(Clone, Copy)]
pub struct J(i32);

fn value(j: i32) -> Option<J> {
    (j >= 0).then_some(J(j))
}

// SAFETY (every `unsafe` block below): the imports read only the byte
// ranges passed to them, which are live Rust strings, and write only through `r`.
// The methods marked `#[inline(always)]` (here, on `Browser` and in its
// `Host`) are thin wrappers over one import: inlined, each call site is
// smaller than a call to a wrapper (-470 B gzip together); inlining the
// others (`as_str`, `keys`, `take`, `set_attr`) costs more.
impl JsonView for J {
    #[inline(always)]
    fn kind(&self) -> Kind {
        match unsafe { kind(self.0) } {
            0 => Kind::Null,
            1 => Kind::Bool,
            2 => Kind::Number,
            3 => Kind::String,
            4 => Kind::Array,
            _ => Kind::Object,
        }
    }
    fn as_bool(&self) -> Option<bool> {
        (self.kind() == Kind::Bool).then(|| unsafe { number_of(self.0) } != 0.0)
    }
    fn as_f64(&self) -> Option<f64> {
        (self.kind() == Kind::Number).then(|| unsafe { number_of(self.0) })
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        // The loader answers -1 (none) for anything but a string.
        take(unsafe { string_of(self.0) }).map(Cow::Owned)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        // The loader answers 0 for anything but an array or object.
        unsafe { length(self.0) }
    }
    #[inline(always)]
    fn index(&self, i: usize) -> Option<J> {
        // The loader answers -1 (none) for anything but an array.
        value(unsafe { item(self.0, i) })
    }
    #[inline(always)]
    fn get(&self, name: &str) -> Option<J> {
        // The loader answers -1 (none) for anything but an object.
        value(unsafe { member(self.0, name.as_ptr(), name.len()) })
    }
    fn keys(&self) -> Vec<String> {
        // The loader answers -1 (none) past the last key, and for
        // anything but an object.
        let mut keys = Vec::new();
        while let Some(k) = take(unsafe { key(self.0, keys.len()) }) {
            keys.push(k);
        }
        keys
    }
}

struct Browser;

/// One `Intl` call (see the `X` import).
#[inline(always)]
fn intl(kind: u32, value: f64, n: i32, m: i32, text: Option<&str>, locale: Option<&str>) -> i32 {
    let (sp, sl) = opt(text);
    let (lp, ll) = opt(locale);
    unsafe { intl_call(kind, value, n, m, sp, sl, lp, ll) }
}

/// A staged string, empty for none (`Intl` could not format; no `type`).
fn formatted(len: i32) -> String {
    take(len).unwrap_or_default()
}

impl Host for Browser {
    #[inline(always)]
    fn number_to_string(&self, value: f64) -> String {
        formatted(intl(5, value, 0, 0, None, None))
    }
    #[inline(always)]
    fn format_date(&self, input: DateInput<'_>, style: DateStyle, locale: Option<&str>) -> String {
        let (iso, ms) = match input {
            // The calendar date as written (`YYYY-MM-DD`), formatted in UTC,
            // so every reader sees the date the author wrote.
            DateInput::Iso(text) => (Some(text.get(..10).unwrap_or(text)), 0.0),
            DateInput::EpochMs(ms) => (None, ms),
        };
        formatted(intl(0, ms, style as i32, 0, iso, locale))
    }
    #[inline(always)]
    fn format_number(&self, value: f64, o: NumberOptions, locale: Option<&str>) -> String {
        let digits = |d: Option<u32>| d.map_or(-1, |d| d as i32);
        let kind = 1 + o.percent as u32;
        formatted(intl(
            kind,
            value,
            digits(o.min_fraction),
            digits(o.max_fraction),
            None,
            locale,
        ))
    }
    #[inline(always)]
    fn format_currency(&self, value: f64, currency: &str, locale: Option<&str>) -> String {
        formatted(intl(3, value, -1, -1, Some(currency), locale))
    }
    #[inline(always)]
    fn plural_is_one(&self, value: f64, locale: Option<&str>) -> bool {
        intl(4, value, 0, 0, None, locale) != 0
    }
}

impl Page for Browser {
    type V = J;
    #[inline(always)]
    fn query(&self, root: Handle, selector: &str) -> Range<Handle> {
        unsafe { q(root, selector.as_ptr(), selector.len())..n() }
    }
    #[inline(always)]
    fn attr(&self, el: Handle, name: &str) -> Option<String> {
        take(unsafe { a(el, name.as_ptr(), name.len()) })
    }
    #[inline(always)]
    fn expression(&self, el: Handle, name: &str) -> Option<J> {
        value(unsafe { expression(el, name.as_ptr(), name.len()) })
    }
    fn set_attr(&self, el: Handle, name: &str, value: Option<&str>) {
        let (vp, vl) = opt(value);
        unsafe { set_attr(el, name.as_ptr(), name.len(), vp, vl) }
    }
    #[inline(always)]
    fn set_text(&self, el: Handle, text: &str) {
        unsafe { t(el, 0, text.as_ptr(), text.len()) }
    }
    #[inline(always)]
    fn control_type(&self, el: Handle) -> String {
        formatted(unsafe { g(el) })
    }
    #[inline(always)]
    fn value(&self, el: Handle) -> J {
        J(unsafe { v(el) })
    }
    #[inline(always)]
    fn number(&self, el: Handle) -> f64 {
        unsafe { number(el) }
    }
    #[inline(always)]
    fn set_value(&self, el: Handle, text: &str) {
        unsafe { t(el, 1, text.as_ptr(), text.len()) }
    }
    #[inline(always)]
    fn flag(&self, el: Handle, flag: Flag) -> bool {
        unsafe { c(el, flag as u32) != 0 }
    }
    #[inline(always)]
    fn set_flag(&self, el: Handle, flag: Flag, on: bool) {
        unsafe { set_flag(el, flag as u32, on as u32) }
    }
    #[inline(always)]
    fn by_id(&self, id: &str) -> Option<Handle> {
        u32::try_from(unsafe { i(id.as_ptr(), id.len()) }).ok()
    }
    #[inline(always)]
    fn literal(&self, el: Handle) -> J {
        J(unsafe { parse(el, 1) })
    }
    #[inline(always)]
    fn parse_content(&self, el: Handle) -> Option<J> {
        value(unsafe { parse(el, 0) })
    }
    #[inline(always)]
    fn make(&self, new: New<'_>) -> J {
        let (k, n, s) = match new {
            New::Null => (0, 0.0, ""),
            New::Bool(b) => (1, b as u32 as f64, ""),
            New::Num(n) => (2, n, ""),
            New::Str(s) => (3, 0.0, s),
        };
        J(unsafe { make(k, n, s.as_ptr(), s.len()) })
    }
    #[inline(always)]
    fn assign(&self, parent: J, key: &str, index: Option<usize>, value: J) {
        let index = index.map_or(-1, |i| i as i32);
        unsafe { assign(parent.0, key.as_ptr(), key.len(), index, value.0) }
    }
    #[inline(always)]
    fn replace(&self, root: J, value: J) {
        unsafe { assign(root.0, core::ptr::null(), 0, -2, value.0) }
    }
    #[inline(always)]
    fn navigate(&self, href: &str) {
        unsafe { go(0, href.as_ptr(), href.len()) }
    }
    #[inline(always)]
    fn copy(&self, text: &str) {
        unsafe { go(1, text.as_ptr(), text.len()) }
    }
    #[inline(always)]
    fn share(&self, title: &str, text: &str, url: &str) {
        unsafe {
            share(
                title.as_ptr(),
                title.len(),
                text.as_ptr(),
                text.len(),
                url.as_ptr(),
                url.len(),
            )
        }
    }
    #[inline(always)]
    fn scroll_to(&self, id: &str) {
        unsafe { go(2, id.as_ptr(), id.len()) }
    }
}

/// A static the single-threaded module owns.
struct Global<T>(UnsafeCell<T>);
// SAFETY: wasm32 without threads: one thread touches these.
unsafe impl<T> Sync for Global<T> {}

static RUNTIME: Global<Option<Runtime<J>>> = Global(UnsafeCell::new(None));

/// Hydrates every surface on the page.
#[no_mangle]
pub extern "C" fn h() {
    // SAFETY: the loader calls `h` once, before any event. Written without
    // dropping the `None` it replaces, so the module holds no drop code for
    // a runtime, which lives as long as the page.
    unsafe { RUNTIME.0.get().write(Some(Runtime::hydrate(&Browser))) }
}

/// One delegated event (`kind` 0: input, 1: click) at handle `el`; 1 when handled.
#[no_mangle]
pub extern "C" fn e(kind: u32, el: Handle) -> u32 {
    // SAFETY: events arrive one at a time and none of the imports an event
    // calls dispatches another synchronously.
    let Some(rt) = (unsafe { &*RUNTIME.0.get() }) else {
        return 0;
    };
    let event = if kind == 0 {
        Event::Input
    } else {
        Event::Click
    };
    rt.event(&Browser, event, el) as u32
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// The allocator: a free list per power-of-two size class. A freed block
/// goes to the front of its class's list and the next allocation of that
/// class takes it back, so memory stays flat however many events run
/// (events allocate and free the same few sizes); new blocks are carved
/// from pages the memory grows by. Blocks are never split or merged: that
/// is what keeps it a few dozen instructions (lol_alloc's first-fit list
/// cost the wasm 54 B gzip more).
struct Classes {
    /// Per class `k` (blocks of `2^k` bytes), the first free block; each
    /// free block holds the address of the next.
    free: UnsafeCell<[usize; 32]>,
    /// The carved part of the grown memory ends at `next`; `end` is where
    /// the grown memory ends.
    next: UnsafeCell<usize>,
    end: UnsafeCell<usize>,
}

// SAFETY: wasm32 without threads: one thread touches the allocator.
unsafe impl Sync for Classes {}

impl Classes {
    /// The class of a layout: its size and alignment rounded up to a power
    /// of two, at least a pointer's size. An alignment past a page (which
    /// blocks do not get) has no class: such an allocation fails.
    fn class(layout: Layout) -> usize {
        if layout.align() > PAGE {
            return usize::MAX;
        }
        let size = layout.size().max(layout.align()).max(4);
        size.next_power_of_two().trailing_zeros() as usize
    }
}

const PAGE: usize = 65536;

// SAFETY: a block of class `k` is `2^k` bytes aligned to `min(2^k, PAGE)`
// (and so to the layout's alignment, which is at most its rounded size),
// handed out once until it is freed; free blocks are the only memory the
// allocator writes.
unsafe impl GlobalAlloc for Classes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let class = Self::class(layout);
        let Some(head) = (*self.free.get()).get_mut(class) else {
            return core::ptr::null_mut();
        };
        if *head != 0 {
            let block = *head;
            *head = *(block as *const usize);
            return block as *mut u8;
        }
        let size = 1usize << class;
        let align = size.min(PAGE);
        let (next, end) = (&mut *self.next.get(), &mut *self.end.get());
        let mut at = (*next + align - 1) & !(align - 1);
        // (`end - at` cannot wrap: `at` is `next` rounded up to at most a
        // page, and `end` is where a page ends.)
        if size > *end - at {
            let pages = size.div_ceil(PAGE);
            let old = core::arch::wasm32::memory_grow(0, pages);
            if old == usize::MAX {
                return core::ptr::null_mut();
            }
            // Memory grown elsewhere leaves a gap: carve from the new pages.
            if old * PAGE != *end {
                at = old * PAGE;
            }
            *end = (old + pages) * PAGE;
        }
        *next = at + size;
        at as *mut u8
    }
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if let Some(head) = (*self.free.get()).get_mut(Self::class(layout)) {
            *(block as *mut usize) = *head;
            *head = block as usize;
        }
    }
}

#[global_allocator]
static ALLOCATOR: Classes = Classes {
    free: UnsafeCell::new([0; 32]),
    next: UnsafeCell::new(0),
    end: UnsafeCell::new(0),
};
