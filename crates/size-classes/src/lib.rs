//! The allocator of the Studio and morph WebAssembly modules: every block
//! is a power of two bytes (at least 16), each size keeps a free list linked
//! through the blocks' first word, and fresh blocks are cut in order from
//! the pages the memory last grew by.
//!
//! # The algorithm
//! - **Allocate**: round the request up to its class, `2^c` bytes (at least
//!   16). If class `c`'s free list has a block, pop it: a load and a store.
//!   Otherwise cut the block from the span left of the pages grown last; if
//!   the span is too short, grow the memory by as many 64 KiB pages as the
//!   block needs and start a new span there (what was left of the old one,
//!   less than the block, is given up).
//! - **Free**: push the block on its class's list.
//!
//! Nothing is split or merged, so every call is a few loads and stores, and
//! memory stays at the peak each size needed (a block freed is reused by
//! the next request of its size). Blocks are multiples of 16 cut from
//! page boundaries, so every block is aligned to 16, whatever its size; a
//! larger alignment gets null (the allocation error). A reallocation is
//! `GlobalAlloc`'s own (allocate, copy, free): keeping a block that still
//! fits its class measured 2% off `validate` and cost the morph 49 B gzip.
//!
//! # Why here, not a crate
//! Written for the size budgets: the morph's module allocates and frees on
//! every morph, so a bump allocator would grow, and this free list was
//! 124 B gzip under `lol_alloc` 0.4's when the morph took it. Studio's
//! module used `talc` 5, in whose bins and gaps `validate` spent a fifth of
//! its time (a Node `--cpu-prof` of the benchmark's surface); with this one
//! `validate` is about 10% faster and the module 662 B gzip smaller
//! (`size-budget/budgets.json`). Single-threaded (wasm32 without threads),
//! so plain cells suffice.
//!
//! # What it costs
//! Memory. A block is its request rounded up to a power of two (a quarter
//! to a third more, on average, for a request of an exact size), and a
//! freed block serves only its own size. Streaming a 1 MB answer grows
//! Studio's memory by about 38 bytes per input byte where talc grew it by
//! 28 (`docs/performance.md`, the streaming parser's memory table), at the
//! same speed. Most of that is blocks freed at one size and not reused at
//! another, not the rounding: finer sizes (every multiple of 16 up to 128,
//! then four per doubling) took it only to 35, for 208 B gzip more in
//! Studio, and were left out.
//!
//! # Example
//! On wasm32, `Classes::new()` over the module's memory is the global
//! allocator (`#[global_allocator] static A: Classes = Classes::new();`).
//! Anywhere, a [`Classes`] works over pages from any [`Grow`]:
//!
//! ```
//! use core::alloc::{GlobalAlloc, Layout};
//! use size_classes::{Classes, Grow, PAGE};
//!
//! /// Pages from a fixed arena of four.
//! struct Arena(core::cell::Cell<usize>, usize);
//! // SAFETY: the arena's pages, 16-aligned, each given once.
//! unsafe impl Grow for Arena {
//!     fn grow(&self, pages: usize) -> Option<usize> {
//!         let at = self.0.get();
//!         (at + pages * PAGE <= self.1 + 4 * PAGE).then(|| { self.0.set(at + pages * PAGE); at })
//!     }
//! }
//! let memory = vec![0u128; 4 * PAGE / 16 + 1];
//! let start = (memory.as_ptr() as usize + 15) & !15;
//! let heap = Classes::over(Arena(core::cell::Cell::new(start), start));
//!
//! let word = Layout::new::<u64>();
//! let a = unsafe { heap.alloc(word) }; // a 16-byte block
//! let b = unsafe { heap.alloc(Layout::from_size_align(20, 4).unwrap()) }; // a 32-byte block
//! assert_eq!((a as usize, b as usize), (start, start + 16));
//! unsafe { heap.dealloc(a, word) };
//! assert_eq!(unsafe { heap.alloc(word) }, a); // reused
//! assert_eq!(unsafe { heap.alloc(word) } as usize, start + 48); // cut after b
//! assert!(unsafe { heap.alloc(Layout::from_size_align(8, 32).unwrap()) }.is_null());
//! ```
#![no_std]
#![allow(unsafe_code)]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;

/// A WebAssembly page, what the memory grows by.
pub const PAGE: usize = 65536;

/// Where fresh pages come from.
///
/// # Safety
/// `grow(pages)` gives the address of `pages * PAGE` bytes that are the
/// allocator's alone from then on (never given before, nothing else uses
/// them), starting at a multiple of 16: the allocator's blocks are cut from
/// them as they are.
pub unsafe trait Grow {
    /// Adds `pages` pages; the address of the first, or `None` if it cannot.
    fn grow(&self, pages: usize) -> Option<usize>;
}

/// The module's own linear memory (`memory.grow`).
pub struct Memory;

// SAFETY: `memory.grow` adds pages past the memory's end, which nothing
// else in these modules grows, at a page boundary.
#[cfg(target_arch = "wasm32")]
unsafe impl Grow for Memory {
    #[inline(always)]
    fn grow(&self, pages: usize) -> Option<usize> {
        let at = core::arch::wasm32::memory_grow(0, pages);
        (at != usize::MAX).then_some(at * PAGE)
    }
}

/// The allocator (see the crate docs).
pub struct Classes<G = Memory> {
    /// The free blocks of each size 2^i, linked through their first word
    /// (one list per bit of an address: every size a request can have).
    free: UnsafeCell<[usize; LISTS]>,
    /// The unused span of the pages grown last: from, to.
    span: UnsafeCell<(usize, usize)>,
    grow: G,
}

impl Classes {
    /// The allocator over the module's memory.
    pub const fn new() -> Self {
        Self::over(Memory)
    }
}

impl Default for Classes {
    fn default() -> Self {
        Self::new()
    }
}

impl<G> Classes<G> {
    /// The allocator over pages from `grow`.
    pub const fn over(grow: G) -> Self {
        Classes {
            free: UnsafeCell::new([0; LISTS]),
            span: UnsafeCell::new((0, 0)),
            grow,
        }
    }
}

// SAFETY: wasm32-unknown-unknown without the atomics feature runs one
// thread: the cells are never touched from two at once.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl Sync for Classes<Memory> {}

/// How many free lists: one per bit of an address.
const LISTS: usize = usize::BITS as usize;

/// A request's block size and class. A layout's size is at most
/// `isize::MAX`, so its power of two fits: 2^31 at most on wasm32.
#[inline(always)]
fn class(layout: Layout) -> (usize, usize) {
    let size = layout.size().max(16).next_power_of_two();
    // (`& (LISTS - 1)`: the class indexes the lists without a bounds check.)
    (size, size.trailing_zeros() as usize & (LISTS - 1))
}

unsafe impl<G: Grow> GlobalAlloc for Classes<G> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() > 16 {
            return core::ptr::null_mut();
        }
        let (size, class) = class(layout);
        // SAFETY: one thread, and no reference to the cells outlives a call.
        let (free, span) = unsafe { (&mut *self.free.get(), &mut *self.span.get()) };
        let head = free[class];
        if head != 0 {
            // SAFETY: a free block's first word links the next.
            free[class] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        let mut from = span.0;
        if size > span.1 - from {
            let pages = size.div_ceil(PAGE);
            let Some(at) = self.grow.grow(pages) else {
                return core::ptr::null_mut();
            };
            // (Pages ending at the top of the address space cannot be used.)
            let Some(end) = at.checked_add(pages * PAGE) else {
                return core::ptr::null_mut();
            };
            from = at;
            span.1 = end;
        }
        span.0 = from + size;
        from as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let class = class(layout).1;
        // SAFETY: as in `alloc`; `ptr` is a block of this class, now unused.
        let free = unsafe { &mut *self.free.get() };
        unsafe { *(ptr as *mut usize) = free[class] };
        free[class] = ptr as usize;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use core::cell::Cell;
    use std::vec::Vec;

    /// Pages from a heap buffer, at most `limit` of them.
    struct Arena {
        next: Cell<usize>,
        end: usize,
        _memory: Vec<u128>,
    }

    fn arena(limit: usize) -> Classes<Arena> {
        let memory = std::vec![0u128; limit * PAGE / 16 + 1];
        let start = (memory.as_ptr() as usize + 15) & !15;
        Classes::over(Arena {
            next: Cell::new(start),
            end: start + limit * PAGE,
            _memory: memory,
        })
    }

    // SAFETY: the buffer's pages, 16-aligned, each given once.
    unsafe impl Grow for Arena {
        fn grow(&self, pages: usize) -> Option<usize> {
            let at = self.next.get();
            (at + pages * PAGE <= self.end).then(|| {
                self.next.set(at + pages * PAGE);
                at
            })
        }
    }

    /// Random allocations, frees and reallocations, each block filled with
    /// its own byte: no block overlaps another (every byte still reads as
    /// written), each is aligned, and a reallocated block keeps its bytes.
    #[test]
    fn blocks_never_overlap_and_keep_their_bytes() {
        let heap = arena(256);
        let mut seed = 1u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let check = |&(ptr, layout, tag): &(*mut u8, Layout, u8)| {
            assert_eq!(ptr as usize % layout.align(), 0);
            let bytes = unsafe { core::slice::from_raw_parts(ptr, layout.size()) };
            assert!(bytes.iter().all(|&b| b == tag), "a block was overwritten");
        };
        for round in 0..20_000u32 {
            let tag = (round % 251) as u8;
            match next(4) {
                0 | 1 => {
                    let size = if next(50) == 0 {
                        1 + next(70_000)
                    } else {
                        1 + next(300)
                    } as usize;
                    let layout = Layout::from_size_align(size, 1 << next(5)).unwrap();
                    let ptr = unsafe { heap.alloc(layout) };
                    assert!(!ptr.is_null());
                    unsafe { ptr.write_bytes(tag, size) };
                    live.push((ptr, layout, tag));
                }
                2 if !live.is_empty() => {
                    let block = live.swap_remove(next(live.len() as u64) as usize);
                    check(&block);
                    unsafe { heap.dealloc(block.0, block.1) };
                }
                _ if !live.is_empty() => {
                    let i = next(live.len() as u64) as usize;
                    let (ptr, layout, old) = live[i];
                    check(&live[i]);
                    let size = 1 + next(600) as usize;
                    let moved = unsafe { heap.realloc(ptr, layout, size) };
                    assert!(!moved.is_null());
                    let kept = layout.size().min(size);
                    let bytes = unsafe { core::slice::from_raw_parts(moved, kept) };
                    assert!(bytes.iter().all(|&b| b == old), "realloc lost bytes");
                    unsafe { moved.write_bytes(tag, size) };
                    live[i] = (
                        moved,
                        Layout::from_size_align(size, layout.align()).unwrap(),
                        tag,
                    );
                }
                _ => {}
            }
        }
        live.iter().for_each(check);
    }

    /// A freed block serves the next request of its class, so memory stays
    /// at the peak: the same work again grows nothing.
    #[test]
    fn freed_blocks_are_reused() {
        let heap = arena(8);
        let layouts = [1, 8, 9, 100, 4096, 70_000].map(|n| Layout::from_size_align(n, 8).unwrap());
        let round = || {
            let blocks = layouts.map(|l| unsafe { heap.alloc(l) });
            assert!(blocks.iter().all(|p| !p.is_null()));
            for (p, l) in blocks.iter().zip(layouts) {
                unsafe { heap.dealloc(*p, l) };
            }
        };
        round();
        let grown = heap.grow.next.get();
        for _ in 0..100 {
            round();
        }
        assert_eq!(heap.grow.next.get(), grown);
    }

    /// Past the alignment it serves, and when the pages run out, the
    /// answer is null.
    #[test]
    fn null_when_it_cannot() {
        let heap = arena(2);
        let at = |size, align| unsafe { heap.alloc(Layout::from_size_align(size, align).unwrap()) };
        assert!(at(8, 32).is_null());
        assert!(at(3 * PAGE, 8).is_null());
        assert!(!at(PAGE, 16).is_null());
        assert!(at(2 * PAGE, 8).is_null());
        // The second page serves what fits in it.
        assert!(!at(PAGE, 16).is_null());
        assert!(at(8, 8).is_null());
    }
}
