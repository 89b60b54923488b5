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
use surfaces_core::{condition, json_equal, JsonView, Kind};

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
    /// The module without the `functions` feature (`surface.nocalls.wasm`,
    /// for pages whose surfaces hold no call) has no function set.
    #[inline(always)]
    fn calls(&self) -> bool {
        cfg!(feature = "functions")
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
/// `state`: a new value, or -1 when it does not follow section 3. (The
/// loader reads a pointer through it too, as the binding `{"path": ...}`.)
#[no_mangle]
pub extern "C" fn c(state: J, e: J) -> i32 {
    fresh();
    function::evaluate(&e, &state, &Browser).map_or(-1, |v| state::value(v, new).0)
}

/// A value as text (`Value::to_text`: strings as they are, numbers as
/// `String()`, booleans; else empty): a new string.
#[no_mangle]
pub extern "C" fn x(v: J) -> i32 {
    fresh();
    new(New::Str(&Value::Data(v).to_text(&Browser))).0
}

/// Whether a condition (SPEC.md section 4) holds against `state`.
#[no_mangle]
pub extern "C" fn v(state: J, condition: J) -> bool {
    fresh();
    condition::evaluate(&condition, &state) == Some(true)
}

/// Whether a check fails against `state` (one that does not follow
/// section 3 does not fail).
#[no_mangle]
pub extern "C" fn k(state: J, check: J) -> bool {
    fresh();
    function::run_check(&check, &state, &Browser) == Some(false)
}

/// Writes a deep copy of `value` at the pointer `path` in `state`
/// ([`state::place`]); whether that place exists (the loader leaves out a
/// value too deep to copy).
#[no_mangle]
pub extern "C" fn w(state: J, path: J, value: J) -> bool {
    fresh();
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
    fresh();
    json_equal(&a, &b)
}

/// Whether a string is a safe href (SPEC.md section 5).
#[no_mangle]
pub extern "C" fn s(href: J) -> bool {
    fresh();
    href.as_str().is_some_and(|h| is_safe_href(&h))
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// The allocator: a bump allocator from the heap's base (past the data and
/// the stack), emptied when an export starts. Rust keeps nothing between
/// calls (values live in the loader, and no import calls back into the
/// module), so when an export starts, every block an earlier call allocated
/// is free: memory stays at what the largest call needed, however many
/// events run (a browser test runs 3,000 rounds of five events and fails if
/// the memory grew). Freeing a block does nothing; the memory grows when a
/// block does not fit. It replaced a free list per size class (about 85 B
/// gzip more, and slower).
struct Bump {
    /// Where the next block may start.
    next: UnsafeCell<usize>,
}

// SAFETY: wasm32 without threads: one thread touches the allocator.
unsafe impl Sync for Bump {}

extern "C" {
    /// Where the heap starts (the linker's).
    static __heap_base: u8;
}

/// Empties the allocator: called first by every export, when no block is
/// live.
#[inline(always)]
fn fresh() {
    // SAFETY: one thread; nothing allocated before this call is used again.
    unsafe { *ALLOCATOR.next.get() = core::ptr::addr_of!(__heap_base) as usize }
}

// SAFETY: a block is the layout's size at its alignment, within memory
// the allocator made sure exists, handed out once until `fresh`, which runs
// before any allocation of a call and only when no block is live.
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let (next, mask, size) = (&mut *self.next.get(), layout.align() - 1, layout.size());
        // `next` rounded up to the alignment, then the block: past the
        // 32 bits of the address space, no block.
        let Some(end) = next
            .checked_add(mask)
            .and_then(|at| (at & !mask).checked_add(size))
        else {
            return core::ptr::null_mut();
        };
        // (In pages, so that nothing wraps: `end` fits 32 bits.)
        let (pages, have) = (end.div_ceil(PAGE), core::arch::wasm32::memory_size(0));
        if pages > have && core::arch::wasm32::memory_grow(0, pages - have) == usize::MAX {
            return core::ptr::null_mut();
        }
        *next = end;
        (end - size) as *mut u8
    }
    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
}

const PAGE: usize = 65536;

#[global_allocator]
static ALLOCATOR: Bump = Bump {
    next: UnsafeCell::new(0),
};
