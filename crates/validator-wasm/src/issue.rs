//! Issues: what validation reports, as data.

use serde_json::{Map, Value};
use surfaces_core::problem::{Binding, Findings};

/// How an issue weighs (SPEC.md section 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Refuses the surface.
    Error,
    /// Keeps the part, marks it; the site does not render it.
    Flag,
    /// Advice.
    Warning,
}

impl Severity {
    /// The name SPEC.md prints: `error`, `flag` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Flag => "flag",
            Severity::Warning => "warning",
        }
    }
}

/// One problem validation found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// How it weighs.
    pub severity: Severity,
    /// The SPEC.md code, e.g. `unresolved_child`.
    pub code: &'static str,
    /// A JSON Pointer into the checked document (in a markdown body: into the
    /// fence's surface; `""` for the body itself).
    pub path: String,
    /// What is wrong and what to write instead.
    pub message: String,
    /// In a markdown body: the surface id, when the issue belongs to one.
    pub surface: Option<String>,
    /// In a markdown body: the line (from 1) the issue is on.
    pub line: Option<usize>,
}

impl Issue {
    /// A new issue without surface or line.
    pub fn new(
        severity: Severity,
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Issue {
        Issue {
            severity,
            code,
            path: path.into(),
            message: message.into(),
            surface: None,
            line: None,
        }
    }

    /// An `error` issue.
    pub fn error(code: &'static str, path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue::new(Severity::Error, code, path, message)
    }

    /// A `flag` issue.
    pub fn flag(code: &'static str, path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue::new(Severity::Flag, code, path, message)
    }

    /// A `warning` issue.
    pub fn warning(
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Issue {
        Issue::new(Severity::Warning, code, path, message)
    }

    /// Whether the issue refuses the surface.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The issue as SPEC.md section 9 prints it:
    /// `{severity, code, path, message, surface?, line?}`.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("severity".into(), self.severity.as_str().into());
        map.insert("code".into(), self.code.into());
        map.insert("path".into(), self.path.clone().into());
        map.insert("message".into(), self.message.clone().into());
        if let Some(surface) = &self.surface {
            map.insert("surface".into(), surface.clone().into());
        }
        if let Some(line) = self.line {
            map.insert("line".into(), line.into());
        }
        Value::Object(map)
    }
}

/// Issues as a JSON array.
pub fn issues_json(issues: &[Issue]) -> Value {
    Value::Array(issues.iter().map(Issue::to_json).collect())
}

/// Whether any issue is an error.
pub fn has_errors(issues: &[Issue]) -> bool {
    issues.iter().any(Issue::is_error)
}

/// What evaluation found: issues in document order, and the bindings met.
#[derive(Debug, Default, Clone)]
pub(crate) struct Outcome {
    pub issues: Vec<Issue>,
    pub bindings: Vec<Binding>,
}

impl Outcome {
    pub(crate) fn flag(&mut self, at: &str, message: String) {
        self.issues.push(Issue::flag("invalid_prop", at, message));
    }

    /// Takes in what a shared rule found (its problems are errors).
    pub(crate) fn absorb(&mut self, found: Findings) {
        for p in found.problems {
            self.issues.push(Issue::error(p.code, p.pointer, p.message));
        }
        self.bindings.extend(found.bindings);
    }
}
