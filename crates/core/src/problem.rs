//! Problems as data: a code, the JSON Pointer of the offending part, and a
//! sentence a model can act on.

use alloc::string::String;
use alloc::vec::Vec;

/// One problem a shared rule found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The SPEC.md code, e.g. `invalid_condition`.
    pub code: &'static str,
    /// Where, as a JSON Pointer into the checked document.
    pub pointer: String,
    /// What is wrong and what to write instead.
    pub message: String,
}

/// A data binding met while checking: `pointer` is the bound path,
/// `at` where the binding sits in the checked document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The bound JSON Pointer into the surface's data.
    pub pointer: String,
    /// Where the binding's `path` sits in the checked document.
    pub at: String,
}

/// What checking a condition, call or check found, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// The problems.
    pub problems: Vec<Problem>,
    /// The valid bindings, so the caller can report those `data` lacks.
    pub bindings: Vec<Binding>,
}

impl Findings {
    /// Records a problem at `pointer`; `message` is joined from its parts
    /// (no `core::fmt`).
    pub fn push(&mut self, code: &'static str, pointer: &str, message: &[&str]) {
        self.problems.push(Problem {
            code,
            pointer: String::from(pointer),
            message: message.concat(),
        });
    }

    /// Checks a binding's `path` (sitting at `at`) and records it or its problem.
    pub fn binding(&mut self, path: &str, at: &str) {
        match crate::pointer::check(path) {
            Ok(()) => self.bindings.push(Binding {
                pointer: String::from(path),
                at: String::from(at),
            }),
            Err(e) => self.push(e.code(), at, &[e.message()]),
        }
    }
}
