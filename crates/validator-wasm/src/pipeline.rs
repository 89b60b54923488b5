//! The patch pipeline (SPEC.md section 7): each operation is repaired,
//! validated, then applied or refused with `VALIDATION_FAILED`; operations
//! that only wait for a later one are held.
//!
//! Only the surfaces an operation can change are validated, and an
//! operation is refused only for errors it introduces: a draft that already
//! had an error elsewhere can still be edited.

use crate::catalog::Catalog;
use crate::issue::{issues_json, Issue};
use crate::patch::{apply_operation, get};
use crate::repair::{self, Repair};
use crate::surface::validate_surface;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use surfaces_core::pointer::{self, array_index};

/// At most this many operations are held at a time.
pub const MAX_HELD: usize = 3;

/// Codes that only mean "waiting for a later operation".
const WAITING: [&str; 3] = ["unreachable", "unresolved_child", "no_root"];

/// A refused operation: `{"code": "VALIDATION_FAILED", op, path, message, issues}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The operation's index.
    pub op: usize,
    /// The operation's path (after repairs).
    pub path: String,
    /// Why.
    pub message: String,
    /// The errors it would introduce (paths into the whole document).
    pub issues: Vec<Issue>,
}

impl Refusal {
    /// The refusal as SPEC.md section 7 prints it.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"code": "VALIDATION_FAILED", "op": self.op, "path": self.path, "message": self.message, "issues": issues_json(&self.issues)})
    }
}

/// What a list of operations did.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchOutcome {
    /// The document after the applied operations.
    pub document: Value,
    /// Indices of applied operations, in the order they were applied.
    pub applied: Vec<usize>,
    /// Repairs of applied operations.
    pub repairs: Vec<Repair>,
    /// Refused operations.
    pub refused: Vec<Refusal>,
}

impl PatchOutcome {
    /// `{"document", "applied", "repairs", "refused"}` (SPEC.md section 9).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "document": self.document,
            "applied": self.applied,
            "repairs": self.repairs.iter().map(Repair::to_json).collect::<Vec<_>>(),
            "refused": self.refused.iter().map(Refusal::to_json).collect::<Vec<_>>(),
        })
    }
}

/// One operation after repair, ready to try.
#[derive(Clone)]
struct Prepared {
    index: usize,
    op: Value,
    path: String,
    repairs: Vec<Repair>,
}

/// Why a try failed.
struct Failed {
    message: String,
    issues: Vec<Issue>,
    waiting: bool,
}

/// Runs `ops` (a JSON array of RFC 6902 operations) through the pipeline
/// against `doc`, a page `{"sections": [...]}` or a single surface.
///
/// ```
/// use serde_json::json;
/// use validator_wasm::{pipeline::patch, Catalog};
///
/// let doc = json!({"components": [{"id": "root", "component": "Stack", "children": []}]});
/// let ops = json!([
///     {"op": "add", "path": "/components/-", "value": {"id": "t", "component": "Headng", "props": {"text": "Hi"}}},
///     {"op": "add", "path": "/components/root/children/-", "value": "t"},
///     {"op": "replace", "path": "/components/1/props/href", "value": "javascript:x"}
/// ]);
/// let out = patch(&doc, &ops, &Catalog::default_blog());
/// assert_eq!(out.applied, [0, 1]);
/// assert_eq!(out.document["components"][1]["component"], "Heading");
/// let codes: Vec<_> = out.repairs.iter().map(|r| r.code).collect();
/// assert_eq!(codes, ["snap_component", "rewrite_path"]);
/// assert_eq!(out.refused[0].op, 2);
/// ```
pub fn patch(doc: &Value, ops: &Value, catalog: &Catalog) -> PatchOutcome {
    let mut outcome = PatchOutcome {
        document: doc.clone(),
        applied: Vec::new(),
        repairs: Vec::new(),
        refused: Vec::new(),
    };
    let Some(list) = ops.as_array() else {
        outcome.refused.push(Refusal {
            op: 0,
            path: String::new(),
            message: "operations are a JSON array of RFC 6902 operations".into(),
            issues: Vec::new(),
        });
        return outcome;
    };
    let mut held: Vec<Prepared> = Vec::new();
    for (index, op) in list.iter().enumerate() {
        let prepared = prepare(&outcome.document, op, index, catalog);
        let failure = match attempt(&outcome.document, std::slice::from_ref(&prepared), catalog) {
            Ok(next) => {
                commit(&mut outcome, next, vec![prepared]);
                continue;
            }
            Err(f) => f,
        };
        if let Some((next, used)) = complete_held(&outcome.document, &held, &prepared, catalog) {
            let mut group: Vec<Prepared> =
                used.iter().filter_map(|&i| held.get(i).cloned()).collect();
            held = held
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !used.contains(i))
                .map(|(_, p)| p)
                .collect();
            group.push(prepared);
            commit(&mut outcome, next, group);
            continue;
        }
        if failure.waiting && held.len() < MAX_HELD {
            held.push(prepared);
        } else {
            outcome.refused.push(Refusal {
                op: index,
                path: prepared.path,
                message: failure.message,
                issues: failure.issues,
            });
        }
    }
    for p in held {
        let issues = match attempt(&outcome.document, std::slice::from_ref(&p), catalog) {
            Err(f) => f.issues,
            Ok(_) => Vec::new(),
        };
        outcome.refused.push(Refusal {
            op: p.index,
            path: p.path,
            message: "this operation waited for one that never came (a parent, a child or root); nothing later completed it".into(),
            issues,
        });
    }
    outcome
}

fn commit(outcome: &mut PatchOutcome, next: Value, group: Vec<Prepared>) {
    outcome.document = next;
    for p in group {
        outcome.applied.push(p.index);
        outcome.repairs.extend(p.repairs);
    }
}

/// Tries the held operations with `op`: all of them first, then each alone.
fn complete_held(
    doc: &Value,
    held: &[Prepared],
    op: &Prepared,
    catalog: &Catalog,
) -> Option<(Value, Vec<usize>)> {
    if held.is_empty() {
        return None;
    }
    let mut tries: Vec<Vec<usize>> = vec![(0..held.len()).collect()];
    if held.len() > 1 {
        tries.extend((0..held.len()).map(|i| vec![i]));
    }
    for used in tries {
        let mut group: Vec<Prepared> = used.iter().filter_map(|&i| held.get(i).cloned()).collect();
        group.push(op.clone());
        if let Ok(next) = attempt(doc, &group, catalog) {
            return Some((next, used));
        }
    }
    None
}

/// Applies `group` to a copy of `doc` and validates what it can change.
fn attempt(doc: &Value, group: &[Prepared], catalog: &Catalog) -> Result<Value, Failed> {
    let mut next = doc.clone();
    let mut touched = Vec::new();
    for p in group {
        if let Err((code, path, message)) = apply_operation(&mut next, &p.op) {
            return Err(Failed {
                message: message.clone(),
                issues: vec![Issue::error(code, path, message)],
                waiting: false,
            });
        }
        touched.extend(affected(doc, &p.op));
    }
    let mut introduced = Vec::new();
    for target in dedup(touched) {
        let (after_at, before_at) = match target {
            Target::Whole => (String::new(), Some(String::new())),
            Target::Section { after, before } => (section_path(after), before.map(section_path)),
        };
        let Some(after) = surface_at(&next, &after_at) else {
            continue;
        };
        let before_errors: HashSet<(&str, String)> = before_at
            .and_then(|b| surface_at(doc, &b))
            .map(|s| {
                validate_surface(s, catalog)
                    .into_iter()
                    .filter(Issue::is_error)
                    .map(|i| (i.code, i.path))
                    .collect()
            })
            .unwrap_or_default();
        for mut issue in validate_surface(after, catalog) {
            if issue.is_error() && !before_errors.contains(&(issue.code, issue.path.clone())) {
                issue.path = [after_at.as_str(), &issue.path].concat();
                introduced.push(issue);
            }
        }
    }
    if introduced.is_empty() {
        return Ok(next);
    }
    let waiting = introduced.iter().all(|i| WAITING.contains(&i.code));
    let first = introduced
        .first()
        .map(|i| [i.code, " at ", &i.path, ": ", &i.message].concat())
        .unwrap_or_default();
    Err(Failed {
        message: ["the result would not validate: ", &first].concat(),
        issues: introduced,
        waiting,
    })
}

fn section_path(i: usize) -> String {
    ["/sections/", &i.to_string()].concat()
}

/// The surface at `at` (`""` is the whole document), when it is one to check.
fn surface_at<'a>(doc: &'a Value, at: &str) -> Option<&'a Value> {
    if at.is_empty() {
        return (!is_page(doc)).then_some(doc);
    }
    pointer::resolve(&doc, at).filter(|s| s.get("kind").and_then(Value::as_str) == Some("surface"))
}

fn is_page(doc: &Value) -> bool {
    doc.get("sections").is_some_and(Value::is_array) && doc.get("components").is_none()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The document is one surface.
    Whole,
    /// Section `after` of the result, which was section `before`.
    Section { after: usize, before: Option<usize> },
}

fn dedup(targets: Vec<Target>) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    for t in targets {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Which surfaces `op` (applied to `doc`) can change.
fn affected(doc: &Value, op: &Value) -> Vec<Target> {
    if !is_page(doc) {
        return vec![Target::Whole];
    }
    let sections = doc
        .get("sections")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let all = |n: usize| {
        (0..n)
            .map(|i| Target::Section {
                after: i,
                before: None,
            })
            .collect::<Vec<_>>()
    };
    let name = op.get("op").and_then(Value::as_str).unwrap_or_default();
    let mut out = Vec::new();
    for key in ["path", "from"] {
        let Some(path) = op.get(key).and_then(Value::as_str) else {
            continue;
        };
        let Ok(segments) = pointer::parse(path) else {
            continue;
        };
        let segs: Vec<&str> = segments.iter().map(Cow::as_ref).collect();
        match segs.as_slice() {
            [] | ["sections"] => return all(sections + 1),
            ["sections", "-"] => out.push(Target::Section {
                after: sections,
                before: None,
            }),
            ["sections", i] => {
                let Some(i) = array_index(i) else { continue };
                let inserts = key == "path" && matches!(name, "add" | "move" | "copy");
                if inserts || key == "from" {
                    // Indices shift: check every section from here on, as new.
                    out.extend((i..sections + 1).map(|k| Target::Section {
                        after: k,
                        before: None,
                    }));
                } else {
                    out.push(Target::Section {
                        after: i,
                        before: Some(i),
                    });
                }
            }
            ["sections", i, ..] => {
                if let Some(i) = array_index(i) {
                    out.push(Target::Section {
                        after: i,
                        before: Some(i),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Repairs one operation: `rewrite_path` for its pointers, then the value it writes.
fn prepare(doc: &Value, op: &Value, index: usize, catalog: &Catalog) -> Prepared {
    let mut op = op.clone();
    let mut repairs = Vec::new();
    for key in ["path", "from"] {
        let Some(path) = op.get(key).and_then(Value::as_str) else {
            continue;
        };
        if let Some(rewritten) = rewrite_path(doc, path) {
            repairs.push(Repair {
                code: "rewrite_path",
                op: index,
                path: rewritten.clone(),
                from: path.into(),
                to: rewritten.as_str().into(),
                message: [
                    "addressed a component by id; \"",
                    path,
                    "\" is \"",
                    &rewritten,
                    "\"",
                ]
                .concat(),
            });
            if let Some(map) = op.as_object_mut() {
                map.insert(key.into(), rewritten.into());
            }
        }
    }
    let path = op
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let writes = matches!(
        op.get("op").and_then(Value::as_str),
        Some("add" | "replace")
    );
    if writes {
        if let Some(value) = op.get_mut("value") {
            repair_value(doc, &path, value, catalog, index, &mut repairs);
        }
    }
    Prepared {
        index,
        op,
        path,
        repairs,
    }
}

/// `/sections/<i>/components/<id>/...` (or `/components/<id>/...`) with an
/// id instead of an index: the path with the component's position.
fn rewrite_path(doc: &Value, path: &str) -> Option<String> {
    let segments = pointer::parse(path).ok()?;
    let at = segments.iter().position(|s| s == "components")?;
    let id = segments.get(at + 1)?;
    if id == "-" || array_index(id).is_some() {
        return None;
    }
    let prefix = &segments[..at];
    let surface_ok = prefix.is_empty()
        || (prefix.len() == 2 && prefix[0] == "sections" && array_index(&prefix[1]).is_some());
    if !surface_ok {
        return None;
    }
    let components = get(doc, &segments[..=at])?.as_array()?;
    let position = components
        .iter()
        .position(|c| c.get("id").and_then(Value::as_str) == Some(id.as_ref()))?;
    let mut out = String::new();
    for (i, seg) in segments.iter().enumerate() {
        if i == at + 1 {
            pointer::push_index(&mut out, position);
        } else {
            pointer::push(&mut out, seg);
        }
    }
    Some(out)
}

/// Repairs the value an `add`/`replace` writes at `path`, by what it is.
fn repair_value(
    doc: &Value,
    path: &str,
    value: &mut Value,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Ok(segments) = pointer::parse(path) else {
        return;
    };
    let segs: Vec<&str> = segments.iter().map(Cow::as_ref).collect();
    let Some(at) = segs.iter().position(|s| *s == "components") else {
        // A whole surface (a section, or the document).
        match segs.as_slice() {
            [] => repair_surface(value, "", catalog, op, out),
            ["sections", i] => {
                let count = doc
                    .get("sections")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let index = if *i == "-" {
                    Some(count)
                } else {
                    array_index(i)
                };
                if let Some(index) = index {
                    repair_surface(value, &section_path(index), catalog, op, out);
                }
            }
            _ => {}
        }
        return;
    };
    let list = get(doc, &segments[..=at]).and_then(Value::as_array);
    let base = segs[..=at].iter().fold(String::new(), |mut acc, s| {
        pointer::push(&mut acc, s);
        acc
    });
    match &segs[at + 1..] {
        [] => {
            if let Value::Array(items) = value {
                for (i, item) in items.iter_mut().enumerate() {
                    let mut here = base.clone();
                    pointer::push_index(&mut here, i);
                    repair::component(item, &here, catalog, op, out);
                }
            }
        }
        [i] => {
            let index = if *i == "-" {
                list.map_or(0, Vec::len)
            } else {
                array_index(i).unwrap_or(0)
            };
            let mut here = base;
            pointer::push_index(&mut here, index);
            repair::component(value, &here, catalog, op, out);
        }
        [i, rest @ ..] => {
            let Some(component) = array_index(i).and_then(|i| list.and_then(|l| l.get(i))) else {
                return;
            };
            let mut here = base;
            pointer::push(&mut here, i);
            match rest {
                ["component"] => repair::component_name(
                    value,
                    &[here.as_str(), "/component"].concat(),
                    catalog,
                    op,
                    out,
                ),
                ["props"] | ["props", _] => {
                    let Some(entry) = component
                        .get("component")
                        .and_then(Value::as_str)
                        .and_then(|n| catalog.entry(n))
                    else {
                        return;
                    };
                    here.push_str("/props");
                    if let ["props", name] = rest {
                        let Some(schema) = entry.props.get("properties").and_then(|p| p.get(*name))
                        else {
                            return;
                        };
                        pointer::push(&mut here, name);
                        repair::prop(value, schema, &entry.props, &here, catalog, op, out);
                    } else {
                        repair::props(value, entry, &here, catalog, op, out);
                    }
                }
                _ => {}
            }
        }
    }
}

fn repair_surface(
    value: &mut Value,
    at: &str,
    catalog: &Catalog,
    op: usize,
    out: &mut Vec<Repair>,
) {
    let Some(items) = value.get_mut("components").and_then(Value::as_array_mut) else {
        return;
    };
    for (i, item) in items.iter_mut().enumerate() {
        let here = [at, "/components/", &i.to_string()].concat();
        repair::component(item, &here, catalog, op, out);
    }
}
