//! The function table (SPEC.md section 3): each function's name, its
//! arguments and what they must be, the kind of its result, and whether it
//! may be a check. The checks and the evaluation both read it, and so does
//! the catalog prompt.

use crate::view::Kind;

/// How deep calls nest; the outermost call is level 1.
pub const MAX_NESTING: usize = 4;

/// What an argument must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// Any JSON value.
    Any,
    /// A number.
    Number,
    /// A whole number from 0 to 100.
    Count,
    /// A string.
    Text,
    /// An ISO 8601 date (or date-time) string, or epoch milliseconds.
    Date,
    /// A list (of literals, bindings or calls).
    List,
    /// `short`, `medium`, `long` or `full`.
    DateStyle,
    /// `decimal` or `percent`.
    NumberStyle,
    /// A three-letter currency code.
    Currency,
    /// A BCP 47 language tag such as `en-US`.
    Locale,
}

impl ArgKind {
    /// How the prompt and messages name the kind.
    pub fn describe(self) -> &'static str {
        match self {
            ArgKind::Any => "any value",
            ArgKind::Number => "a number",
            ArgKind::Count => "a whole number 0 to 100",
            ArgKind::Text => "a string",
            ArgKind::Date => "an ISO 8601 date string or epoch milliseconds",
            ArgKind::List => "a list",
            ArgKind::DateStyle => "\"short\", \"medium\", \"long\" or \"full\"",
            ArgKind::NumberStyle => "\"decimal\" or \"percent\"",
            ArgKind::Currency => "a three-letter currency code such as \"EUR\"",
            ArgKind::Locale => "a language tag such as \"en-US\"",
        }
    }

    /// Whether a call giving `result` may stand where this is expected.
    pub(super) fn accepts_result(self, result: Kind) -> bool {
        match self {
            ArgKind::Any => true,
            ArgKind::Number | ArgKind::Count => result == Kind::Number,
            ArgKind::Date => matches!(result, Kind::Number | Kind::String),
            ArgKind::List => false,
            _ => result == Kind::String,
        }
    }
}

/// One argument of a function.
#[derive(Debug, Clone, Copy)]
pub struct ArgSpec {
    /// The key in `args`.
    pub name: &'static str,
    /// What it must be.
    pub kind: ArgKind,
    /// Whether it must be given.
    pub required: bool,
}

/// Which function of the fixed set (what the evaluation branches on, not
/// the name again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `formatDate`
    FormatDate,
    /// `formatNumber`
    FormatNumber,
    /// `formatCurrency`
    FormatCurrency,
    /// `pluralize`
    Pluralize,
    /// `concat`
    Concat,
    /// `length`
    Length,
    /// `required`
    Required,
    /// `minLength`
    MinLength,
    /// `maxLength`
    MaxLength,
    /// `email`
    Email,
    /// `range`
    Range,
}

/// One function of the fixed set.
#[derive(Debug, Clone, Copy)]
pub struct FunctionSpec {
    /// Which one.
    pub id: Function,
    /// The name written in `call`.
    pub name: &'static str,
    /// Its arguments.
    pub args: &'static [ArgSpec],
    /// The kind of its result.
    pub result: Kind,
    /// Whether it may be a check (`x-checks`).
    pub is_check: bool,
}

const fn req(name: &'static str, kind: ArgKind) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required: true,
    }
}
const fn opt(name: &'static str, kind: ArgKind) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required: false,
    }
}
const fn f(
    id: Function,
    name: &'static str,
    args: &'static [ArgSpec],
    result: Kind,
    is_check: bool,
) -> FunctionSpec {
    FunctionSpec {
        id,
        name,
        args,
        result,
        is_check,
    }
}

/// The fixed function set, in the order SPEC.md lists it.
pub const FUNCTIONS: [FunctionSpec; 11] = [
    f(
        Function::FormatDate,
        "formatDate",
        &[
            req("value", ArgKind::Date),
            opt("style", ArgKind::DateStyle),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        Function::FormatNumber,
        "formatNumber",
        &[
            req("value", ArgKind::Number),
            opt("minimumFractionDigits", ArgKind::Count),
            opt("maximumFractionDigits", ArgKind::Count),
            opt("style", ArgKind::NumberStyle),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        Function::FormatCurrency,
        "formatCurrency",
        &[
            req("value", ArgKind::Number),
            req("currency", ArgKind::Currency),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        Function::Pluralize,
        "pluralize",
        &[
            req("count", ArgKind::Number),
            req("one", ArgKind::Text),
            req("other", ArgKind::Text),
            opt("zero", ArgKind::Text),
            opt("locale", ArgKind::Locale),
        ],
        Kind::String,
        false,
    ),
    f(
        Function::Concat,
        "concat",
        &[req("values", ArgKind::List)],
        Kind::String,
        false,
    ),
    f(
        Function::Length,
        "length",
        &[req("value", ArgKind::Any)],
        Kind::Number,
        false,
    ),
    f(
        Function::Required,
        "required",
        &[req("value", ArgKind::Any)],
        Kind::Bool,
        true,
    ),
    f(
        Function::MinLength,
        "minLength",
        &[req("value", ArgKind::Any), req("min", ArgKind::Number)],
        Kind::Bool,
        true,
    ),
    f(
        Function::MaxLength,
        "maxLength",
        &[req("value", ArgKind::Any), req("max", ArgKind::Number)],
        Kind::Bool,
        true,
    ),
    f(
        Function::Email,
        "email",
        &[req("value", ArgKind::Any)],
        Kind::Bool,
        true,
    ),
    f(
        Function::Range,
        "range",
        &[
            req("value", ArgKind::Any),
            opt("min", ArgKind::Number),
            opt("max", ArgKind::Number),
        ],
        Kind::Bool,
        true,
    ),
];

/// The function named `name`.
pub fn spec(name: &str) -> Option<&'static FunctionSpec> {
    FUNCTIONS.iter().find(|f| f.name == name)
}
