//! The WebAssembly edge: plain imports from the loader (`js/surface.js`,
//! module `e`) to read, make and write the JSON values it holds, the shared
//! rules as exports on handles to them, an allocator with a free list per
//! size class and a panic handler that traps. Strings cross as UTF-8: Rust
//! passes `(pointer, length)`; the loader stages a string it returns and
//! reports its length (`-1` for none), and [`take`] copies it in.

use crate::state::{self, New};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use surfaces_core::function::{self, DateInput, DateStyle, Host, NumberOptions, Value};
use surfaces_core::href::is_safe_href;
use surfaces_core::{condition, json_equal, pointer, JsonView, Kind};

#[link(wasm_import_module = "e")]
extern "C" {
    fn r(to: *mut u8);
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

/// A JSON value the loader holds (an index into its value array). The
/// loader drops the values made while it shows a binding or handles an
/// event when it is done; Rust keeps none between calls.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct J(i32);

fn value(j: i32) -> Option<J> {
    (j >= 0).then_some(J(j))
}

// SAFETY (every `unsafe` block below): the imports read only the byte
// ranges passed to them, which are live Rust strings, and write only through `r`.
// The methods marked `#[inline(always)]` (here and in `Browser`'s `Host`)
// are thin wrappers over one import: inlined, each call site is smaller
// than a call to a wrapper; inlining the others (`as_str`, `keys`, `take`)
// costs more.
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

/// A staged string, empty for none (`Intl` could not format it).
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
        let (iso, ms) = match input.for_intl() {
            DateInput::Iso(day) => (Some(day), 0.0),
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

/// A new value.
fn new(value: New<'_>) -> J {
    let (k, n, s) = match value {
        New::Null => (0, 0.0, ""),
        New::Bool(b) => (1, b as u32 as f64, ""),
        New::Num(n) => (2, n, ""),
        New::Str(s) => (3, 0.0, s),
    };
    J(unsafe { make(k, n, s.as_ptr(), s.len()) })
}

// The exports: the shared rules, asked for by the loader on values it holds
// (handles into its value array; none is -1).

/// A literal, binding or call (SPEC.md section 3) computed against
/// `state`: a new value, or -1 when it does not follow section 3.
#[no_mangle]
pub extern "C" fn c(state: J, e: J) -> i32 {
    function::evaluate(&e, &state, &Browser).map_or(-1, |v| state::value(v, new).0)
}

/// A value as text (`Value::to_text`: strings as they are, numbers as
/// `String()`, booleans; else empty): a new string.
#[no_mangle]
pub extern "C" fn x(v: J) -> i32 {
    new(New::Str(&Value::Data(v).to_text(&Browser))).0
}

/// Whether a condition (SPEC.md section 4) holds against `state`.
#[no_mangle]
pub extern "C" fn v(state: J, condition: J) -> bool {
    condition::evaluate(&condition, &state) == Some(true)
}

/// Whether a check fails against `state` (one that does not follow
/// section 3 does not fail).
#[no_mangle]
pub extern "C" fn k(state: J, check: J) -> bool {
    function::run_check(&check, &state, &Browser) == Some(false)
}

/// What the pointer `path` (a string) addresses in `root`: null when it
/// is missing, invalid or unsafe.
#[no_mangle]
pub extern "C" fn g(root: J, path: J) -> J {
    path.as_str()
        .and_then(|p| pointer::resolve(&root, &p))
        .unwrap_or_else(|| new(New::Null))
}

/// Writes a deep copy of `value` at the pointer `path` in `state`
/// ([`state::place`]); whether that place exists (the loader leaves out a
/// value too deep to copy).
#[no_mangle]
pub extern "C" fn w(state: J, path: J, value: J) -> bool {
    path.as_str().is_some_and(|p| {
        state::place(&state, &p, |at, key, index| {
            let (at, p, l, index) = match (at, index) {
                (None, _) => (state, core::ptr::null(), 0, -2),
                (Some(at), Some(i)) => (at, core::ptr::null(), 0, i as i32),
                (Some(at), None) => (at, key.as_ptr(), key.len(), -1),
            };
            unsafe { assign(at.0, p, l, index, value.0) }
        })
    })
}

/// JSON equality (`1 == 1.0`).
#[no_mangle]
pub extern "C" fn q(a: J, b: J) -> bool {
    json_equal(&a, &b)
}

/// Whether a string is a safe href (SPEC.md section 5).
#[no_mangle]
pub extern "C" fn s(href: J) -> bool {
    href.as_str().is_some_and(|h| is_safe_href(&h))
}

/// Whether a string is a JSON Pointer without prototype segments.
#[no_mangle]
pub extern "C" fn p(path: J) -> bool {
    path.as_str().is_some_and(|p| pointer::check(&p).is_ok())
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
