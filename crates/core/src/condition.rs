//! Conditions (SPEC.md section 4): checking and evaluating `visible`.
//!
//! ```text
//! condition := true | false | {"path": P}
//!            | {"eq"|"ne"|"gt"|"lt": [op, op]}
//!            | {"and"|"or": [condition, ...]} | {"not": condition}
//! op        := JSON literal | {"path": P}
//! ```
//! At most [`MAX_DEPTH`] levels and [`MAX_OPERANDS`] operands per `and`/`or`.

use crate::pointer;
use crate::problem::Findings;
use crate::view::{json_equal, truthy, JsonView, Kind};
use alloc::string::String;

/// How deep conditions nest; the outermost is level 1.
pub const MAX_DEPTH: usize = 8;
/// How many conditions an `and` or `or` holds.
pub const MAX_OPERANDS: usize = 16;

/// The operators, in the order the prompt lists them.
pub const OPERATORS: [&str; 8] = ["path", "eq", "ne", "gt", "lt", "and", "or", "not"];

const CODE: &str = "invalid_condition";

/// Checks `condition`, sitting at `at` in the document, recording problems
/// (`invalid_condition`, `invalid_pointer`, `unsafe_path`) and bindings.
///
/// ```
/// use surfaces_core::{condition, problem::Findings};
/// let c = serde_json::json!({"and": [{"path": "/open"}, {"ne": [{"path": "/plan"}, null]}]});
/// let mut found = Findings::default();
/// condition::check(&&c, &mut String::from("/visible"), &mut found);
/// assert!(found.problems.is_empty());
/// assert_eq!(found.bindings[1].at, "/visible/and/1/ne/0/path");
/// ```
pub fn check<V: JsonView>(condition: &V, at: &mut String, found: &mut Findings) {
    check_level(condition, at, found, 1);
}

fn check_level<V: JsonView>(condition: &V, at: &mut String, found: &mut Findings, level: usize) {
    match condition.kind() {
        Kind::Bool => return,
        Kind::Object => {}
        _ => {
            found.push(CODE, at, &[
                "a condition is true, false, or an object with one of path, eq, ne, gt, lt, and, or, not",
            ]);
            return;
        }
    }
    let keys = condition.keys();
    let [op] = keys.as_slice() else {
        found.push(
            CODE,
            at,
            &["a condition object has exactly one key: path, eq, ne, gt, lt, and, or or not"],
        );
        return;
    };
    let Some(arg) = condition.get(op) else { return };
    let len = at.len();
    pointer::push(at, op);
    match op.as_str() {
        "path" => match arg.as_str() {
            Some(path) => found.binding(&path, at),
            None => found.push(
                CODE,
                at,
                &["\"path\" holds a JSON Pointer string such as \"/open\""],
            ),
        },
        "eq" | "ne" | "gt" | "lt" => {
            if arg.kind() != Kind::Array || arg.len() != 2 {
                found.push(
                    CODE,
                    at,
                    &["\"", op, "\" holds a list of exactly two operands"],
                );
            } else {
                for i in 0..2 {
                    if let Some(operand) = arg.index(i) {
                        let before = at.len();
                        pointer::push_index(at, i);
                        check_operand(&operand, at, found);
                        at.truncate(before);
                    }
                }
            }
        }
        "and" | "or" => {
            if arg.kind() != Kind::Array || arg.is_empty() || arg.len() > MAX_OPERANDS {
                found.push(
                    CODE,
                    at,
                    &["\"", op, "\" holds a list of 1 to 16 conditions"],
                );
            } else if level >= MAX_DEPTH {
                found.push(CODE, at, &["conditions nest at most 8 levels deep"]);
            } else {
                for i in 0..arg.len() {
                    if let Some(inner) = arg.index(i) {
                        let before = at.len();
                        pointer::push_index(at, i);
                        check_level(&inner, at, found, level + 1);
                        at.truncate(before);
                    }
                }
            }
        }
        "not" => {
            if level >= MAX_DEPTH {
                found.push(CODE, at, &["conditions nest at most 8 levels deep"]);
            } else {
                check_level(&arg, at, found, level + 1);
            }
        }
        _ => {
            at.truncate(len);
            found.push(CODE, at, &[
                "unknown condition operator \"", op,
                "\"; use path, eq, ne, gt, lt, and, or or not (for gte write not lt, for lte not gt)",
            ]);
        }
    }
    at.truncate(len);
}

fn check_operand<V: JsonView>(operand: &V, at: &mut String, found: &mut Findings) {
    if operand.kind() != Kind::Object {
        return;
    }
    if operand.get("call").is_some() {
        found.push(CODE, at, &[
            "a condition operand is a JSON literal or a binding {\"path\": ...}; function calls are not allowed here",
        ]);
        return;
    }
    if let Some(path) = operand.get("path") {
        let len = at.len();
        match (path.as_str(), operand.len()) {
            (Some(p), 1) => {
                pointer::push(at, "path");
                found.binding(&p, at);
            }
            _ => found.push(
                CODE,
                at,
                &["a binding operand is exactly {\"path\": \"/json/pointer\"}"],
            ),
        }
        at.truncate(len);
    }
}

/// Evaluates `condition` against `data`; `None` when the condition does not
/// follow section 4 (the caller decides; the runtime leaves the part hidden).
/// A missing path reads as `null`.
///
/// ```
/// use surfaces_core::condition::evaluate;
/// let data = serde_json::json!({"billing": "yearly", "seats": 3});
/// let c = serde_json::json!({"and": [{"eq": [{"path": "/billing"}, "yearly"]},
///                                    {"gt": [{"path": "/seats"}, 2.5]}]});
/// assert_eq!(evaluate(&&c, &&data), Some(true));
/// let c = serde_json::json!({"ne": [{"path": "/missing"}, null]});
/// assert_eq!(evaluate(&&c, &&data), Some(false));
/// ```
pub fn evaluate<V: JsonView>(condition: &V, data: &V) -> Option<bool> {
    evaluate_level(condition, data, 1)
}

fn evaluate_level<V: JsonView>(condition: &V, data: &V, level: usize) -> Option<bool> {
    match condition.kind() {
        Kind::Bool => return condition.as_bool(),
        Kind::Object if condition.len() == 1 => {}
        _ => return None,
    }
    // The one key, found by asking for each operator (no key list to build):
    // a key that is no operator finds nothing. Matched by its place in
    // OPERATORS (path, eq, ne, gt, lt, and, or, not), not by name again.
    let (op, arg) = OPERATORS
        .iter()
        .enumerate()
        .find_map(|(i, op)| Some((i, condition.get(op)?)))?;
    match op {
        0 => {
            let path = arg.as_str()?;
            pointer::check(&path).ok()?;
            Some(pointer::resolve(data, &path).is_some_and(|v| truthy(&v)))
        }
        1..=4 => {
            if arg.kind() != Kind::Array || arg.len() != 2 {
                return None;
            }
            let a = operand(&arg.index(0)?, data)?;
            let b = operand(&arg.index(1)?, data)?;
            Some(match op {
                1 => equal(&a, &b),
                2 => !equal(&a, &b),
                3 => compare(&a, &b) == Some(core::cmp::Ordering::Greater),
                _ => compare(&a, &b) == Some(core::cmp::Ordering::Less),
            })
        }
        5 | 6 => {
            if arg.kind() != Kind::Array
                || arg.is_empty()
                || arg.len() > MAX_OPERANDS
                || level >= MAX_DEPTH
            {
                return None;
            }
            let want_all = op == 5;
            let mut result = want_all;
            // Evaluate every operand so an invalid one is never hidden by
            // short-circuiting: the verdict must not depend on the data.
            for i in 0..arg.len() {
                let value = evaluate_level(&arg.index(i)?, data, level + 1)?;
                if want_all {
                    result &= value;
                } else {
                    result |= value;
                }
            }
            Some(result)
        }
        _ => {
            if level >= MAX_DEPTH {
                return None;
            }
            evaluate_level(&arg, data, level + 1).map(|b| !b)
        }
    }
}

/// An operand after reading bindings: a value, or `null` for a missing path.
enum Operand<V> {
    Value(V),
    Null,
}

fn operand<V: JsonView>(op: &V, data: &V) -> Option<Operand<V>> {
    if op.kind() == Kind::Object {
        if op.get("call").is_some() {
            return None;
        }
        if let Some(path) = op.get("path") {
            if op.len() != 1 {
                return None;
            }
            let path = path.as_str()?;
            pointer::check(&path).ok()?;
            return Some(match pointer::resolve(data, &path) {
                Some(v) => Operand::Value(v),
                None => Operand::Null,
            });
        }
    }
    Some(Operand::Value(op.clone()))
}

fn kind<V: JsonView>(op: &Operand<V>) -> Kind {
    match op {
        Operand::Value(v) => v.kind(),
        Operand::Null => Kind::Null,
    }
}

fn equal<V: JsonView>(a: &Operand<V>, b: &Operand<V>) -> bool {
    match (a, b) {
        (Operand::Value(x), Operand::Value(y)) => json_equal(x, y),
        _ => kind(a) == Kind::Null && kind(b) == Kind::Null,
    }
}

fn compare<V: JsonView>(a: &Operand<V>, b: &Operand<V>) -> Option<core::cmp::Ordering> {
    let (Operand::Value(x), Operand::Value(y)) = (a, b) else {
        return None;
    };
    // Numbers with numbers, strings with strings (the readers give a number
    // or a string only for that kind); anything else does not compare.
    if let (Some(p), Some(q)) = (x.as_f64(), y.as_f64()) {
        return p.partial_cmp(&q);
    }
    // UTF-8 byte order is code point order.
    Some(x.as_str()?.cmp(&y.as_str()?))
}

#[cfg(all(test, feature = "serde_json"))]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use serde_json::{json, Value};

    fn problems(c: Value) -> Vec<(&'static str, String)> {
        let mut found = Findings::default();
        check(&&c, &mut String::from("/c"), &mut found);
        found
            .problems
            .into_iter()
            .map(|p| (p.code, p.pointer))
            .collect()
    }

    fn eval(c: Value, data: Value) -> Option<bool> {
        evaluate(&&c, &&data)
    }

    fn nested_not(levels: usize) -> Value {
        let mut c = json!(true);
        for _ in 1..levels {
            c = json!({ "not": c });
        }
        c
    }

    #[test]
    fn valid_conditions_have_no_problems() {
        for c in [
            json!(true),
            json!({"path": "/a"}),
            json!({"eq": [1, {"path": "/a"}]}),
            json!({"ne": [{"a": 1}, [1, 2]]}),
            json!({"or": [{"gt": [1, 2]}, {"lt": ["a", "b"]}, {"not": false}]}),
            nested_not(MAX_DEPTH),
        ] {
            assert_eq!(problems(c.clone()), [], "{c}");
        }
    }

    #[test]
    fn malformed_conditions_are_invalid_condition_at_their_place() {
        let cases = [
            (json!(1), "/c"),
            (json!("yes"), "/c"),
            (json!(null), "/c"),
            (json!({}), "/c"),
            (json!({"eq": [1, 2], "ne": [1, 2]}), "/c"),
            (json!({"gte": [1, 2]}), "/c"),
            (json!({"eq": [1]}), "/c/eq"),
            (json!({"eq": 1}), "/c/eq"),
            (json!({"path": 1}), "/c/path"),
            (json!({"and": []}), "/c/and"),
            (json!({"and": {}}), "/c/and"),
            (json!({"or": [true, 1]}), "/c/or/1"),
            (json!({"eq": [{"path": "/a", "x": 1}, 1]}), "/c/eq/0"),
            (
                json!({"eq": [{"call": "length", "args": {"value": "a"}}, 1]}),
                "/c/eq/0",
            ),
            (json!({"not": {"not": {"x": 1}}}), "/c/not/not"),
        ];
        for (c, at) in cases {
            assert_eq!(
                problems(c.clone()),
                [("invalid_condition", String::from(at))],
                "{c}"
            );
        }
    }

    #[test]
    fn limits_depth_and_operands() {
        assert_eq!(problems(nested_not(MAX_DEPTH + 1)).len(), 1);
        assert_eq!(
            problems(nested_not(MAX_DEPTH + 1))[0].0,
            "invalid_condition"
        );
        assert_eq!(
            eval(nested_not(MAX_DEPTH), json!({})),
            Some(MAX_DEPTH % 2 == 1)
        );
        assert_eq!(eval(nested_not(MAX_DEPTH + 1), json!({})), None);
        let sixteen: Vec<Value> = (0..16).map(|_| json!(true)).collect();
        assert_eq!(problems(json!({ "and": sixteen })), []);
        let seventeen: Vec<Value> = (0..17).map(|_| json!(true)).collect();
        assert_eq!(problems(json!({ "and": seventeen.clone() }))[0].1, "/c/and");
        assert_eq!(eval(json!({ "and": seventeen }), json!({})), None);
        // A deep `and` chain is bounded too.
        let mut c = json!(true);
        for _ in 0..20 {
            c = json!({ "and": [c] });
        }
        assert_eq!(problems(c.clone()).len(), 1);
        assert_eq!(eval(c, json!({})), None);
    }

    #[test]
    fn bad_paths_report_pointer_codes() {
        assert_eq!(
            problems(json!({"path": "a"})),
            [("invalid_pointer", "/c/path".into())]
        );
        assert_eq!(
            problems(json!({"eq": [{"path": "/__proto__/x"}, 1]})),
            [("unsafe_path", "/c/eq/0/path".into())]
        );
        assert_eq!(eval(json!({"path": "/__proto__"}), json!({})), None);
        assert_eq!(eval(json!({"eq": [{"path": "x"}, 1]}), json!({})), None);
    }

    #[test]
    fn truthiness_and_missing_paths() {
        let data = json!({"t": "x", "e": "", "z": 0, "l": [], "n": null});
        assert_eq!(eval(json!({"path": "/t"}), data.clone()), Some(true));
        assert_eq!(eval(json!({"path": "/e"}), data.clone()), Some(false));
        assert_eq!(eval(json!({"path": "/z"}), data.clone()), Some(false));
        assert_eq!(eval(json!({"path": "/l"}), data.clone()), Some(true));
        assert_eq!(eval(json!({"path": "/missing"}), data.clone()), Some(false));
        assert_eq!(
            eval(json!({"eq": [{"path": "/missing"}, null]}), data.clone()),
            Some(true)
        );
        assert_eq!(
            eval(json!({"eq": [{"path": "/n"}, {"path": "/missing"}]}), data),
            Some(true)
        );
    }

    #[test]
    fn equality_and_ordering() {
        let d = json!({"n": 1, "s": "b", "o": {"a": [1]}});
        assert_eq!(
            eval(json!({"eq": [{"path": "/n"}, 1.0]}), d.clone()),
            Some(true)
        );
        assert_eq!(
            eval(json!({"eq": [{"path": "/o"}, {"a": [1.0]}]}), d.clone()),
            Some(true)
        );
        assert_eq!(
            eval(json!({"ne": [{"path": "/n"}, "1"]}), d.clone()),
            Some(true)
        );
        assert_eq!(
            eval(json!({"gt": [{"path": "/n"}, 0.5]}), d.clone()),
            Some(true)
        );
        assert_eq!(
            eval(json!({"lt": [{"path": "/s"}, "c"]}), d.clone()),
            Some(true)
        );
        assert_eq!(eval(json!({"gt": ["é", "z"]}), d.clone()), Some(true));
        assert_eq!(
            eval(json!({"gt": [{"path": "/n"}, "0"]}), d.clone()),
            Some(false)
        );
        assert_eq!(
            eval(json!({"lt": [{"path": "/n"}, "9"]}), d.clone()),
            Some(false)
        );
        assert_eq!(eval(json!({"gt": [null, null]}), d.clone()), Some(false));
        assert_eq!(
            eval(json!({"lt": [{"path": "/missing"}, 1]}), d),
            Some(false)
        );
    }

    #[test]
    fn and_or_not() {
        let d = json!({"a": true, "b": false});
        assert_eq!(
            eval(json!({"and": [{"path": "/a"}, {"path": "/b"}]}), d.clone()),
            Some(false)
        );
        assert_eq!(
            eval(json!({"or": [{"path": "/a"}, {"path": "/b"}]}), d.clone()),
            Some(true)
        );
        assert_eq!(eval(json!({"not": {"path": "/b"}}), d.clone()), Some(true));
        assert_eq!(eval(json!({"or": [true, 3]}), d.clone()), None);
        assert_eq!(eval(json!(false), d.clone()), Some(false));
        assert_eq!(eval(json!({"x": 1}), d.clone()), None);
        assert_eq!(eval(json!([true]), d), None);
    }
}
