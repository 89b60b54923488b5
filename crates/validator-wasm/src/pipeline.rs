//! The patch pipeline (SPEC.md section 7): each operation is repaired,
//! validated, then applied or refused with `VALIDATION_FAILED`; operations
//! that only wait for a later one are held.
//!
//! Only the surfaces an operation can change are validated, and an
//! operation is refused only for errors it introduces: a draft that already
//! had an error elsewhere can still be edited.

use crate::catalog::Catalog;
use crate::issue::{issues_json, Issue, Outcome};
use crate::patch::{apply_operation, get, revert, Undo};
use crate::repair::{self, Repair};
use crate::surface::{
    check_surface, component_part, data_changed, is_page, json_size, key_size, object,
    section_path, sort_in_document_order, under, unresolved, Checked, Place, ORDERED_KEYS,
};
use serde_json::Value;
use surfaces_core::pointer::{self, array_index};
use surfaces_core::sorted;

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
    /// `{"document", "applied", "repairs", "refused"}` (SPEC.md section 9),
    /// the document moved in.
    pub fn into_json(self) -> Value {
        object([
            ("document", self.document),
            ("applied", self.applied.into()),
            (
                "repairs",
                self.repairs.iter().map(Repair::to_json).collect(),
            ),
            (
                "refused",
                self.refused.iter().map(Refusal::to_json).collect(),
            ),
        ])
    }
}

/// One operation after repair, ready to try.
#[derive(Debug, Clone)]
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
///     {"op": "replace", "path": "/components/1/props/text", "value": {"path": "/__proto__"}}
/// ]);
/// let out = patch(&doc, &ops, &Catalog::default_blog());
/// assert_eq!(out.applied, [0, 1]);
/// assert_eq!(out.document["components"][1]["component"], "Heading");
/// let codes: Vec<_> = out.repairs.iter().map(|r| r.code).collect();
/// assert_eq!(codes, ["snap_component", "rewrite_path"]);
/// assert_eq!(out.refused[0].op, 2);
/// ```
pub fn patch(doc: &Value, ops: &Value, catalog: &Catalog) -> PatchOutcome {
    let mut draft = Draft::new(doc.clone());
    let mut report = draft.apply(ops, catalog);
    report.refused.extend(draft.settle(catalog));
    PatchOutcome {
        document: draft.document,
        applied: report.applied,
        repairs: report.repairs,
        refused: report.refused,
    }
}

/// What one [`Draft::apply`] did (the document stays in the draft).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// Indices of applied operations, in the order they were applied.
    pub applied: Vec<usize>,
    /// Repairs of applied operations.
    pub repairs: Vec<Repair>,
    /// Refused operations.
    pub refused: Vec<Refusal>,
    /// Indices of the operations still held after this call, waiting for a
    /// later one (at most [`MAX_HELD`]).
    pub held: Vec<usize>,
}

impl Report {
    /// `{"applied", "repairs", "refused", "held"}`.
    pub fn to_json(&self) -> Value {
        object([
            ("applied", self.applied.clone().into()),
            (
                "repairs",
                self.repairs.iter().map(Repair::to_json).collect(),
            ),
            (
                "refused",
                self.refused.iter().map(Refusal::to_json).collect(),
            ),
            ("held", self.held.clone().into()),
        ])
    }
}

/// A document being edited operation by operation. It keeps the issues of
/// each surface it has checked, each component's part (what its props and
/// `visible` gave, with its bindings) and the size of the data, so an
/// operation on one component's props or `visible` re-checks that
/// component only; one on the data alone checks the data again (its size
/// moved by what changed, the bindings through the path written resolved
/// again) and no component; and any other checks the surface whole but
/// reuses the parts of the components before the first it touched (all of
/// them, for a component added at the end or a child linked). Operations
/// are applied in place and taken back when refused (no copy of the
/// document).
///
/// A round of edits may span several [`Draft::apply`] calls (a model's
/// steps): operations are numbered from 0 over the whole round, held
/// operations wait across calls, and [`Draft::settle`] ends the round,
/// refusing what still waits and numbering the next round from 0 again.
///
/// ```
/// use serde_json::json;
/// use validator_wasm::{pipeline::Draft, Catalog};
///
/// let catalog = Catalog::default_blog();
/// let mut draft = Draft::new(json!({"components": [
///     {"id": "root", "component": "Stack", "children": ["t"]},
///     {"id": "t", "component": "Heading", "props": {"text": "Hi"}}]}));
/// let report = draft.apply(&json!([{"op": "replace", "path": "/components/1/props/text", "value": "Hello"}]), &catalog);
/// assert_eq!(report.applied, [0]);
/// let report = draft.apply(&json!([{"op": "add", "path": "/components/1/props/level", "value": "h9"}]), &catalog);
/// assert_eq!(report.applied, [1]); // the round's second operation: a flag, not an error
/// assert_eq!(draft.document()["components"][1]["props"], json!({"text": "Hello", "level": "h9"}));
///
/// // A component whose parent comes in the next step waits for it.
/// let step = draft.apply(&json!([{"op": "add", "path": "/components/-", "value": {"id": "p", "component": "Text", "props": {"text": "Hi"}}}]), &catalog);
/// assert_eq!((step.applied, step.held), (vec![], vec![2]));
/// let step = draft.apply(&json!({"op": "add", "path": "/components/0/children/-", "value": "p"}), &catalog);
/// assert_eq!(step.applied, [2, 3]);
/// assert!(draft.settle(&catalog).is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Draft {
    document: Value,
    /// What the draft knows of each checked surface (`""` for a surface
    /// document, `/sections/<i>` in a page), for the document as it is:
    /// its issues, its components' parts and its data's size.
    checked: Known,
    /// Operations waiting for a later one, across calls.
    held: Vec<Prepared>,
    /// The round's index of the next operation.
    next: usize,
    /// What this call of [`Draft::apply`] may still copy
    /// ([`crate::patch::COPY_BUDGET`]).
    copy_budget: usize,
}

impl Draft {
    /// A draft of `document`, a page `{"sections": [...]}` or a surface.
    pub fn new(document: Value) -> Draft {
        Draft {
            document,
            checked: Known::default(),
            held: Vec::new(),
            next: 0,
            copy_budget: crate::patch::COPY_BUDGET,
        }
    }

    /// The document as it is now.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The document, giving up the draft.
    pub fn into_document(self) -> Value {
        self.document
    }

    /// Every issue of the document's surfaces as it is now (paths into the
    /// document), from what the draft already knows where it can.
    pub fn issues(&mut self, catalog: &Catalog) -> Vec<Issue> {
        let scopes: Vec<String> = if is_page(&self.document) {
            let count = self
                .document
                .get("sections")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            (0..count).map(section_path).collect()
        } else {
            vec![String::new()]
        };
        let mut all = Vec::new();
        for at in scopes {
            for issue in self.issues_of(&at, catalog).into_iter().flatten() {
                let mut issue = issue.clone();
                issue.path = [at.as_str(), &issue.path].concat();
                all.push(issue);
            }
        }
        all
    }

    /// Runs `ops` (a list of operations, or one) through repair,
    /// validation and apply-or-refuse. Operations that wait for a later one
    /// stay held after the call (see [`Draft::settle`]).
    pub fn apply(&mut self, ops: &Value, catalog: &Catalog) -> Report {
        let mut report = Report::default();
        self.copy_budget = crate::patch::COPY_BUDGET;
        let list = match ops {
            Value::Array(list) => list.as_slice(),
            Value::Object(_) => std::slice::from_ref(ops),
            _ => {
                report.refused.push(Refusal {
                    op: self.next,
                    path: String::new(),
                    message: "operations are a JSON array of RFC 6902 operations, or one operation"
                        .into(),
                    issues: Vec::new(),
                });
                self.next += 1;
                report.held = self.held.iter().map(|p| p.index).collect();
                return report;
            }
        };
        let mut held = std::mem::take(&mut self.held);
        for op in list {
            let index = self.next;
            self.next += 1;
            let prepared = prepare(&self.document, op, index, catalog);
            let failure = match self.attempt(std::slice::from_ref(&prepared), catalog) {
                Ok(()) => {
                    commit(&mut report, vec![prepared]);
                    continue;
                }
                Err(f) => f,
            };
            if let Some(used) = self.complete_held(&held, &prepared, catalog) {
                let mut group: Vec<Prepared> =
                    used.iter().filter_map(|&i| held.get(i).cloned()).collect();
                held = held
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !used.contains(i))
                    .map(|(_, p)| p)
                    .collect();
                group.push(prepared);
                commit(&mut report, group);
                continue;
            }
            if failure.waiting && held.len() < MAX_HELD {
                held.push(prepared);
            } else {
                report.refused.push(Refusal {
                    op: index,
                    path: prepared.path,
                    message: failure.message,
                    issues: failure.issues,
                });
            }
        }
        report.held = held.iter().map(|p| p.index).collect();
        self.held = held;
        report
    }

    /// Ends the round: refuses the operations still held (nothing came to
    /// complete them), and numbers the next round's operations from 0.
    pub fn settle(&mut self, catalog: &Catalog) -> Vec<Refusal> {
        self.next = 0;
        let held = std::mem::take(&mut self.held);
        held.into_iter()
            .map(|p| {
                let issues = match self.attempt(std::slice::from_ref(&p), catalog) {
                    Err(f) => f.issues,
                    // Unreachable in practice: a held operation waits for
                    // one that fails without it, and both are tried together.
                    Ok(()) => Vec::new(),
                };
                Refusal {
                    op: p.index,
                    path: p.path,
                    message: "this operation waited for one that never came (a parent, a child or root); nothing later completed it".into(),
                    issues,
                }
            })
            .collect()
    }

    /// Tries the held operations with `op`: all of them first, then each alone.
    fn complete_held(
        &mut self,
        held: &[Prepared],
        op: &Prepared,
        catalog: &Catalog,
    ) -> Option<Vec<usize>> {
        if held.is_empty() {
            return None;
        }
        let mut tries: Vec<Vec<usize>> = vec![(0..held.len()).collect()];
        if held.len() > 1 {
            tries.extend((0..held.len()).map(|i| vec![i]));
        }
        for used in tries {
            let mut group: Vec<Prepared> =
                used.iter().filter_map(|&i| held.get(i).cloned()).collect();
            group.push(op.clone());
            if self.attempt(&group, catalog).is_ok() {
                return Some(used);
            }
        }
        None
    }

    /// The issues of the surface at `at`, checking it if not yet known.
    fn issues_of(&mut self, at: &str, catalog: &Catalog) -> Option<&Vec<Issue>> {
        if self.checked.get(at).is_none() {
            let surface = surface_at(&self.document, at)?;
            let checked = check_surface(surface, catalog, Place::Page, &[], None);
            self.checked.insert(at, checked);
        }
        self.checked.get(at).map(|checked| &checked.issues)
    }

    /// Applies `group` in place and keeps it if it introduces no error;
    /// otherwise takes it back.
    fn attempt(&mut self, group: &[Prepared], catalog: &Catalog) -> Result<(), Failed> {
        let (mut targets, mut moved) = affected(&self.document, group);
        // What each target's surface looked like before, while it still does.
        let mut before: Vec<Option<sorted::Names>> = Vec::new();
        for t in &targets {
            let errors = t.before_at().and_then(|b| {
                self.issues_of(&b, catalog)?;
                let issues = self.checked.get(&b)?;
                Some(error_keys(&issues.issues, surface_at(&self.document, &b)?))
            });
            before.push(errors);
        }
        let local = match group {
            [only] => local_change(&self.document, &only.op),
            _ => None,
        };
        let mut undo = Vec::new();
        for p in group {
            match apply_operation(&mut self.document, &p.op, &mut self.copy_budget) {
                Ok(steps) => undo.extend(steps),
                Err((code, path, message)) => {
                    revert(&mut self.document, undo);
                    return Err(Failed {
                        message: message.clone(),
                        issues: vec![Issue::error(code, path, message)],
                        waiting: false,
                    });
                }
            }
        }
        // The document replaced, its sections or its kind: a page now has
        // only new sections.
        if targets == [Target::Whole] && is_page(&self.document) {
            moved = true;
            let sections = self.document.get("sections").and_then(Value::as_array);
            for after in 0..sections.map_or(0, Vec::len) {
                targets.push(Target::Section {
                    after,
                    before: None,
                });
                before.push(None);
            }
        }
        let mut introduced = Vec::new();
        let mut fresh = Vec::new();
        // The sections that are surfaces no longer.
        let mut gone = Vec::new();
        for (t, before_errors) in targets.iter().zip(&before) {
            let after_at = t.after_at();
            let Some(surface) = surface_at(&self.document, &after_at) else {
                gone.push(after_at);
                continue;
            };
            let after = match (&local, self.checked.get(&after_at)) {
                (Some(Local::Unchanged), Some(known)) => After {
                    issues: known.issues.clone(),
                    parts: Parts::Kept,
                    data_len: known.data_len,
                },
                (Some(Local::Component { surface: s, index }), Some(known)) if *s == after_at => {
                    revalidate_component(known, surface, *index, catalog)
                }
                (
                    Some(Local::Data {
                        surface: s,
                        written,
                        replaced,
                    }),
                    Some(known),
                ) if *s == after_at => {
                    // Below the data itself, the size moves by what changed.
                    let len = (known.data_len)
                        .filter(|_| !written.is_empty())
                        .and_then(|len| data_len_after(&self.document, len, &undo));
                    let (issues, data_len) = data_changed(known, surface, written, *replaced, len);
                    let parts = Parts::Kept;
                    After {
                        issues,
                        parts,
                        data_len,
                    }
                }
                (_, known) => {
                    // The parts of the components the group left as they
                    // were, in their places, are reused (none when the
                    // sections move: the section here may be another).
                    let same = t.before_at().as_deref() == Some(after_at.as_str());
                    let (reuse, data_kept) = match known {
                        Some(known) if same && !moved => {
                            let (mut first, mut data) = (known.parts.len(), true);
                            for p in group {
                                let (f, d) = untouched(&p.op, &after_at, first);
                                (first, data) = (f, data && d);
                            }
                            let parts = known.parts.get(..first).unwrap_or_default();
                            (parts, Some(known).filter(|_| data))
                        }
                        _ => (&[][..], None),
                    };
                    let checked = check_surface(surface, catalog, Place::Page, reuse, data_kept);
                    After {
                        issues: checked.issues,
                        parts: Parts::From(reuse.len(), checked.parts),
                        data_len: checked.data_len,
                    }
                }
            };
            for issue in after.issues.iter().filter(|i| i.is_error()) {
                if !before_errors
                    .as_ref()
                    .is_some_and(|b| b.contains(&error_key(issue, surface)))
                {
                    let mut issue = issue.clone();
                    issue.path = [after_at.as_str(), &issue.path].concat();
                    introduced.push(issue);
                }
            }
            fresh.push((after_at, after));
        }
        if !introduced.is_empty() {
            revert(&mut self.document, undo);
            let waiting = introduced.iter().all(|i| WAITING.contains(&i.code));
            let first = introduced
                .first()
                .map(|i| [i.code, " at ", &i.path, ": ", &i.message].concat())
                .unwrap_or_default();
            return Err(Failed {
                message: ["the result would not validate: ", &first].concat(),
                issues: introduced,
                waiting,
            });
        }
        if moved {
            self.checked = Known::default();
        }
        for at in gone {
            // Nothing to report there (not a map removal: one more
            // instantiation of the map's code).
            self.checked.insert(&at, Checked::default());
        }
        for (at, after) in fresh {
            let After {
                issues,
                parts,
                data_len,
            } = after;
            if let Parts::From(0, parts) = parts {
                let checked = Checked {
                    issues,
                    parts,
                    data_len,
                };
                self.checked.insert(&at, checked);
            } else if let Some(known) = self.checked.get_mut(&at) {
                known.issues = issues;
                known.data_len = data_len;
                match parts {
                    Parts::Kept => {}
                    Parts::One(index, part) => {
                        if let Some(slot) = known.parts.get_mut(index) {
                            *slot = part;
                        }
                    }
                    Parts::From(first, parts) => {
                        known.parts.truncate(first);
                        known.parts.extend(parts);
                    }
                }
            }
        }
        Ok(())
    }
}

fn commit(report: &mut Report, group: Vec<Prepared>) {
    for p in group {
        report.applied.push(p.index);
        report.repairs.extend(p.repairs);
    }
}

/// The errors among `issues` of `surface`, each as its [`error_key`].
fn error_keys(issues: &[Issue], surface: &Value) -> sorted::Names {
    issues
        .iter()
        .filter(|i| i.is_error())
        .map(|i| error_key(i, surface))
        .collect()
}

/// An issue's code and path as one string (a code is a word: no space in
/// it), so that the errors before an operation make a set of a type the
/// module has already. A component is named by its id (`#id`), not its
/// place in `surface`'s list: an error already in the draft is the same
/// error after an operation moved or removed another component, and does
/// not block it.
fn error_key(issue: &Issue, surface: &Value) -> String {
    let at = issue.path.strip_prefix("/components/").and_then(|rest| {
        let (index, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let component = surface.get("components")?.get(array_index(index)?)?;
        Some((component.get("id")?.as_str()?, tail))
    });
    match at {
        Some((id, tail)) => [issue.code, " #", id, "/", tail].concat(),
        None => [issue.code, " ", &issue.path].concat(),
    }
}

/// An operation whose effect is confined: nothing, one component's
/// `props` or `visible`, or the data at and under `written` (a pointer
/// into the data; `replaced` when the operation replaced a value at or
/// under it, so that a value is at `written` after as before).
enum Local {
    Unchanged,
    Component {
        surface: String,
        index: usize,
    },
    Data {
        surface: String,
        written: String,
        replaced: bool,
    },
}

/// What a draft knows of each checked surface, by place: the document's own
/// (`""`, a surface document) or section `i`'s (`/sections/<i>`), in a list
/// by section (a map would be one more map type in the module).
#[derive(Debug, Clone, Default)]
struct Known {
    whole: Option<Checked>,
    sections: Vec<Option<Checked>>,
}

impl Known {
    /// The section of place `at` (`Some(None)`: the document's own).
    fn place(at: &str) -> Option<Option<usize>> {
        if at.is_empty() {
            return Some(None);
        }
        Some(Some(array_index(at.strip_prefix("/sections/")?)?))
    }

    fn get(&self, at: &str) -> Option<&Checked> {
        match Known::place(at)? {
            None => self.whole.as_ref(),
            Some(i) => self.sections.get(i)?.as_ref(),
        }
    }

    fn get_mut(&mut self, at: &str) -> Option<&mut Checked> {
        match Known::place(at)? {
            None => self.whole.as_mut(),
            Some(i) => self.sections.get_mut(i)?.as_mut(),
        }
    }

    fn insert(&mut self, at: &str, checked: Checked) {
        match Known::place(at) {
            Some(None) => self.whole = Some(checked),
            Some(Some(i)) => {
                while self.sections.len() < i {
                    self.sections.push(None);
                }
                match self.sections.get_mut(i) {
                    Some(slot) => *slot = Some(checked),
                    None => self.sections.push(Some(checked)),
                }
            }
            None => {}
        }
    }
}

/// A checked surface's issues after an operation, what became of its
/// components' parts (see [`Checked`]), and its data's size: what the
/// draft keeps when the operation is applied.
struct After {
    issues: Vec<Issue>,
    parts: Parts,
    data_len: Option<usize>,
}

/// What an operation did to a checked surface's parts: the draft changes
/// its own in place (never a copy of the surface's per operation).
enum Parts {
    Kept,
    /// Component `index`'s part is now this.
    One(usize, Outcome),
    /// The parts from component `first` on are now these (the surface
    /// checked whole, the first ones reused).
    From(usize, Vec<Outcome>),
}

fn local_change(doc: &Value, op: &Value) -> Option<Local> {
    let name = op.get("op").and_then(Value::as_str)?;
    if name == "test" {
        return Some(Local::Unchanged);
    }
    if !matches!(name, "add" | "replace" | "remove") {
        return None;
    }
    let path = op.get("path")?.as_str()?;
    let segments = pointer::parse(path).ok()?;
    let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
    let (surface, rest) = match segs.as_slice() {
        ["sections", i, rest @ ..] if is_page(doc) => (section_path(array_index(i)?), rest),
        rest if !is_page(doc) => (String::new(), rest),
        _ => return None,
    };
    match rest {
        // (A component that may hold more than ORDERED_KEYS keys after the
        // operation is checked whole: the sort by position does not order
        // its keys, so its part's place among its other issues is the
        // whole check's.)
        ["components", i, "props" | "visible", ..] => {
            let index = array_index(i)?;
            let components = surface_at(doc, &surface).and_then(|s| s.get("components"));
            let component = components.and_then(|c| c.get(index));
            let keys = component.and_then(Value::as_object).map_or(0, |c| c.len());
            (keys < ORDERED_KEYS).then_some(Local::Component { surface, index })
        }
        ["data", ..] => {
            // The path is the surface's, `/data`, then the pointer into it.
            let mut written = path.get(surface.len() + "/data".len()..)?;
            let replaced = name == "replace";
            // An item added to or taken from a list moves the items after
            // it: the list is what changed. A member's `$source` decides
            // whether every path into the member resolves: the member is.
            match written.rsplit_once('/') {
                Some((list, last)) if last == "-" || array_index(last).is_some() => written = list,
                Some((member, "$source")) if member.rfind('/') == Some(0) => written = member,
                _ => {}
            }
            let written = written.to_string();
            Some(Local::Data {
                surface,
                written,
                replaced,
            })
        }
        _ => None,
    }
}

/// The issues of a surface after a change to component `index`'s `props`
/// or `visible`: the known issues elsewhere, that component's part afresh.
fn revalidate_component(
    known: &Checked,
    surface: &Value,
    index: usize,
    catalog: &Catalog,
) -> After {
    let base = ["/components/", &index.to_string()].concat();
    let mine = |path: &str| in_props_or_visible(path, &base);
    let mut issues: Vec<Issue> = known
        .issues
        .iter()
        .filter(|i| !mine(&i.path))
        .cloned()
        .collect();
    let mut part = Outcome::default();
    if let Some(component) = surface.get("components").and_then(|c| c.get(index)) {
        let data = surface.get("data").filter(|d| d.is_object());
        part = component_part(component, &base, catalog);
        issues.extend_from_slice(&part.issues);
        unresolved(data, core::slice::from_ref(&part), &mut issues);
    }
    sort_in_document_order(surface, &mut issues);
    After {
        issues,
        parts: Parts::One(index, part),
        data_len: known.data_len,
    }
}

/// How many of the first components of the surface at `at` (of `len`)
/// `op` leaves as they were, and where they were, as far as their parts go
/// (their `props`, `visible` and `component`; not their ids or children);
/// and whether it leaves the surface's data as it was. A path above the
/// surface (the page's sections, the page) leaves neither.
fn untouched(op: &Value, at: &str, len: usize) -> (usize, bool) {
    let (mut first, mut data) = (len, true);
    for key in ["path", "from"] {
        let Some(path) = op.get(key).and_then(Value::as_str) else {
            continue;
        };
        let rest = match path.get(at.len()..) {
            Some(rest) if under(path, at) => rest,
            _ if under(at, path) => "",
            // Another section's.
            _ => continue,
        };
        let Ok(segments) = pointer::parse(rest) else {
            return (0, false);
        };
        let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
        data &= segs.first().is_some_and(|s| *s != "data");
        let here = match segs.as_slice() {
            ["data", ..] | ["components", "-"] | ["components", _, "id" | "children", ..] => len,
            ["components", i, ..] => array_index(i).unwrap_or_default(),
            _ => 0,
        };
        first = first.min(here);
    }
    (first, data)
}

/// The size of the data (serialized) after the changes `undo` takes back,
/// from `len` before: each change measured where it happened (a member or
/// item added, taken away or replaced), not the whole data. `None` when a
/// change is not where its step says.
fn data_len_after(doc: &Value, len: usize, undo: &[Undo]) -> Option<usize> {
    let mut len = len;
    for step in undo {
        let (path, old) = match step {
            Undo::Replace(path, old) => {
                len = (len + json_size(get(doc, path)?)).checked_sub(json_size(old))?;
                continue;
            }
            Undo::Remove(path) => (path, None),
            Undo::Insert(path, old, _) => (path, Some(old)),
        };
        // A member or item added (`old` is `None`) or taken away, with its
        // key and the comma before or after it.
        let (last, parent) = path.split_last()?;
        let (count, key) = match get(doc, parent)? {
            Value::Object(map) => (map.len(), key_size(last)),
            Value::Array(items) => (items.len(), 0),
            _ => return None,
        };
        len = match old {
            None => len + key + json_size(get(doc, path)?) + usize::from(count > 1),
            Some(old) => len.checked_sub(key + json_size(old) + usize::from(count > 0))?,
        };
    }
    Some(len)
}

/// Whether `path` (in a surface) is in the `props` or `visible` of the
/// component at `base`.
fn in_props_or_visible(path: &str, base: &str) -> bool {
    let rest = path.strip_prefix(base).and_then(|r| r.strip_prefix('/'));
    rest.is_some_and(|r| under(r, "props") || under(r, "visible"))
}

/// The surface at `at` (`""` is the whole document), when it is one to check.
fn surface_at<'a>(doc: &'a Value, at: &str) -> Option<&'a Value> {
    if at.is_empty() {
        return (!is_page(doc)).then_some(doc);
    }
    pointer::resolve(&doc, at).filter(|s| s.get("kind").and_then(Value::as_str) == Some("surface"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The document is one surface.
    Whole,
    /// Section `after` of the result, which was section `before`.
    Section { after: usize, before: Option<usize> },
}

impl Target {
    fn after_at(self) -> String {
        match self {
            Target::Whole => String::new(),
            Target::Section { after, .. } => section_path(after),
        }
    }
    fn before_at(self) -> Option<String> {
        match self {
            Target::Whole => Some(String::new()),
            Target::Section { before, .. } => before.map(section_path),
        }
    }
}

/// Which surfaces `group` (applied to `doc` in turn) can change, each with
/// the section it was before the group (`None`: a new one), and whether
/// sections moved (a place now holds another section, or none).
///
/// A page's sections are followed through the group: an operation's path
/// is read against the sections as the operations before it left them, so
/// a section added, taken away or moved by one operation is where the next
/// one finds it. A section that moved is compared with what it was: the
/// errors it had are not new. A replaced page, list of sections or kind of
/// document is `[Whole]`, and every section of the result is then new.
fn affected(doc: &Value, group: &[Prepared]) -> (Vec<Target>, bool) {
    let whole = (vec![Target::Whole], true);
    let Some(count) = doc
        .get("sections")
        .and_then(Value::as_array)
        .filter(|_| is_page(doc))
        .map(Vec::len)
    else {
        return (vec![Target::Whole], false);
    };
    // Each section of the result so far: the one it was before the group,
    // and whether the group changed it.
    let mut was: Vec<(Option<usize>, bool)> = (0..count).map(|i| (Some(i), false)).collect();
    for p in group {
        let name = p.op.get("op").and_then(Value::as_str).unwrap_or_default();
        // A move takes its section out, then puts it in at its path.
        let mut taken = None;
        for key in ["from", "path"] {
            let Some(Ok(segments)) = p.op.get(key).and_then(Value::as_str).map(pointer::parse)
            else {
                continue;
            };
            let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
            let (i, rest) = match segs.as_slice() {
                [] | ["sections"] | ["components", ..] => return whole,
                ["sections", "-", rest @ ..] => (was.len(), rest),
                ["sections", i, rest @ ..] => match array_index(i) {
                    Some(i) if i <= was.len() => (i, rest),
                    _ => continue,
                },
                _ => continue,
            };
            match (rest, key, name) {
                // (A copy leaves its source as it was.)
                (_, _, "test") | (_, "from", "copy") => {}
                ([], "from", _) if i < was.len() => taken = Some(was.remove(i)),
                ([], "path", "add" | "move" | "copy") => {
                    was.insert(i, taken.take().unwrap_or((None, true)))
                }
                ([], "path", "remove") if i < was.len() => drop(was.remove(i)),
                _ => {
                    if let Some(section) = was.get_mut(i) {
                        section.1 = true;
                    }
                }
            }
        }
    }
    let moved = was.len() != count || was.iter().enumerate().any(|(k, s)| s.0 != Some(k));
    let targets = was
        .into_iter()
        .enumerate()
        .filter(|(k, s)| s.1 || s.0 != Some(*k));
    let targets = targets.map(|(after, (before, _))| Target::Section { after, before });
    (targets.collect(), moved)
}

/// Repairs one operation (see [`repair::operation`]).
fn prepare(doc: &Value, op: &Value, index: usize, catalog: &Catalog) -> Prepared {
    let (op, repairs) = repair::operation(doc, op, index, catalog);
    let path = op
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Prepared {
        index,
        op,
        path,
        repairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_data_write_moves_the_data_size_by_what_it_changed() {
        let catalog = Catalog::default_blog();
        let surface = json!({"id": "s", "kind": "surface", "components": [
            {"id": "root", "component": "Text", "props": {"text": {"path": "/a"}}}],
            "data": {"a": "x"}});
        let mut draft = Draft::new(surface);
        draft.issues(&catalog);
        let ops = [
            json!({"op": "add", "path": "/data/b", "value": {}}),
            json!({"op": "add", "path": "/data/b/k~1ey", "value": "é\n\"q\""}),
            json!({"op": "add", "path": "/data/b/l", "value": [1.5, -2, null]}),
            json!({"op": "add", "path": "/data/b/l/0", "value": true}),
            json!({"op": "add", "path": "/data/b/l/-", "value": {"z": false}}),
            json!({"op": "remove", "path": "/data/b/l/4"}),
            json!({"op": "remove", "path": "/data/b/l/0"}),
            json!({"op": "replace", "path": "/data/b/l/1", "value": 12345}),
            json!({"op": "add", "path": "/data/a", "value": "replaced"}),
            json!({"op": "remove", "path": "/data/b/k~1ey"}),
            json!({"op": "remove", "path": "/data/b/l"}),
            json!({"op": "remove", "path": "/data/b"}),
            json!({"op": "add", "path": "/data/c", "value": []}),
            json!({"op": "add", "path": "/data/c/-", "value": "only"}),
            json!({"op": "remove", "path": "/data/c/0"}),
            json!({"op": "replace", "path": "/data", "value": {"a": "whole"}}),
        ];
        for op in ops {
            let report = draft.apply(&op, &catalog);
            assert_eq!(report.applied.len(), 1, "{op} applies");
            let counted = json_size(&draft.document()["data"]);
            let known = draft.checked.get("").map(|k| k.data_len);
            assert_eq!(known, Some(Some(counted)), "after {op}");
            let text = serde_json::to_string(&draft.document()["data"]).unwrap();
            assert_eq!(counted, text.len(), "json_size is serde_json's length");
        }
    }
}
