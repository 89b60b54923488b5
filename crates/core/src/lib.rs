//! The rules the parts of this workspace share, implemented once.
//!
//! The validator (Studio, Node, native) and the interaction runtime (published
//! pages) must never disagree on what a JSON Pointer addresses, which hrefs are
//! safe, how a condition evaluates or what a function returns; the validator and
//! the streaming parser must read ```` ```surface ```` fences the same way. Each
//! of those rules lives here, once.
#![no_std]
extern crate alloc;

pub mod fence;
