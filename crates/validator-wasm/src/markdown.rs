//! Surfaces in markdown bodies (SPEC.md section 8): find the fences (with
//! core's fence grammar, shared with the streaming parser), assemble each
//! surface line by line, and check the body.

use crate::catalog::Catalog;
use crate::issue::Issue;
use crate::surface::{validate_surface_in, Place};
use serde_json::{Map, Value};
use std::collections::HashSet;
use surfaces_core::fence::{opening_fence, strip_line_ending, surface_info};
use surfaces_core::pointer;

pub use crate::surface::MAX_SURFACES;

/// A surface assembled from a fence.
#[derive(Debug, Clone, PartialEq)]
pub struct FencedSurface {
    /// The surface id from the fence info.
    pub id: String,
    /// The catalog from the fence info.
    pub catalog: Option<String>,
    /// The line (from 1) of the opening fence.
    pub line: usize,
    /// Whether a closing fence was found.
    pub closed: bool,
    /// `{"id", "kind": "surface", "catalog"?, "components", "data"}`.
    pub document: Value,
    /// The line of each component, in order.
    pub component_lines: Vec<usize>,
    /// The first `{"data": ...}` line, if any.
    pub data_line: Option<usize>,
}

/// What reading a body found: its surfaces, and the problems of the body
/// itself (lines that are not JSON, fence info, unclosed fences, duplicate
/// ids, too many surfaces).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Body {
    /// The surfaces, in order.
    pub surfaces: Vec<FencedSurface>,
    /// The body's own issues.
    pub issues: Vec<Issue>,
}

enum State<'a> {
    Prose,
    Code(surfaces_core::fence::OpeningFence<'a>),
    Surface(
        surfaces_core::fence::OpeningFence<'a>,
        Option<FencedSurface>,
    ),
}

/// Reads the surface fences of a markdown body.
pub fn read_body(text: &str) -> Body {
    let mut body = Body::default();
    let mut state = State::Prose;
    let mut seen_ids = HashSet::new();
    let mut fences = 0;
    for (n, raw) in text.split('\n').enumerate() {
        let line_no = n + 1;
        let line = strip_line_ending(raw);
        state = match state {
            State::Prose => match opening_fence(line) {
                None => State::Prose,
                Some(open) => match surface_info(&open) {
                    None => State::Code(open),
                    Some(info) => {
                        fences += 1;
                        if fences == MAX_SURFACES + 1 {
                            body.issues.push(at_line(
                                Issue::error("too_many_surfaces", "", "a body holds at most 30 surfaces; move the rest to another page"),
                                line_no,
                                None,
                            ));
                        }
                        let surface = match info {
                            Err(e) => {
                                body.issues.push(at_line(
                                    Issue::error(e.code(), "", e.message()),
                                    line_no,
                                    None,
                                ));
                                None
                            }
                            Ok(info) => {
                                if !seen_ids.insert(info.id.clone()) {
                                    body.issues.push(at_line(
                                        Issue::error(
                                            "duplicate_surface_id",
                                            "",
                                            [
                                                "the surface id \"",
                                                &info.id,
                                                "\" is already used in this body",
                                            ]
                                            .concat(),
                                        ),
                                        line_no,
                                        Some(&info.id),
                                    ));
                                }
                                Some(new_surface(info.id, info.catalog, line_no))
                            }
                        };
                        State::Surface(open, surface)
                    }
                },
            },
            State::Code(open) => {
                if open.is_closed_by(line) {
                    State::Prose
                } else {
                    State::Code(open)
                }
            }
            State::Surface(open, mut surface) => {
                if open.is_closed_by(line) {
                    if let Some(mut s) = surface {
                        s.closed = true;
                        body.surfaces.push(s);
                    }
                    State::Prose
                } else {
                    if let Some(s) = surface.as_mut() {
                        if let Some(issue) = add_line(s, line, line_no) {
                            body.issues.push(issue);
                        }
                    }
                    State::Surface(open, surface)
                }
            }
        };
    }
    if let State::Surface(_, surface) = state {
        let (line, id) = match &surface {
            Some(s) => (s.line, Some(s.id.clone())),
            None => (body.issues.last().and_then(|i| i.line).unwrap_or(1), None),
        };
        body.issues.push(at_line(
            Issue::error(
                "unclosed_fence",
                "",
                "this surface fence is never closed; end it with the same fence characters",
            ),
            line,
            id.as_deref(),
        ));
        body.surfaces.extend(surface);
    }
    body
}

fn new_surface(id: String, catalog: Option<String>, line: usize) -> FencedSurface {
    let mut doc = Map::new();
    doc.insert("id".into(), id.clone().into());
    doc.insert("kind".into(), "surface".into());
    if let Some(c) = &catalog {
        doc.insert("catalog".into(), c.clone().into());
    }
    doc.insert("components".into(), Value::Array(Vec::new()));
    doc.insert("data".into(), Value::Object(Map::new()));
    FencedSurface {
        id,
        catalog,
        line,
        closed: false,
        document: Value::Object(doc),
        component_lines: Vec::new(),
        data_line: None,
    }
}

/// Adds one line of a fence body; the issue when it is refused.
fn add_line(surface: &mut FencedSurface, line: &str, line_no: usize) -> Option<Issue> {
    if line.trim().is_empty() {
        return None;
    }
    let id = surface.id.clone();
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let message = [
                "line ",
                &line_no.to_string(),
                " is not valid JSON (",
                &e.to_string(),
                "); each line is one component or {\"data\": {...}}",
            ]
            .concat();
            return Some(at_line(
                Issue::error("invalid_line", "", message),
                line_no,
                Some(&id),
            ));
        }
    };
    let data_line = value
        .as_object()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.get("data"));
    if let Some(patch) = data_line {
        if !patch.is_object() {
            return Some(at_line(
                Issue::error(
                    "invalid_line",
                    "",
                    "a data line is {\"data\": {...}} with an object",
                ),
                line_no,
                Some(&id),
            ));
        }
        if let Some(data) = surface.document.get_mut("data") {
            merge_patch(data, patch);
        }
        surface.data_line.get_or_insert(line_no);
        return None;
    }
    if let Some(Value::Array(components)) = surface.document.get_mut("components") {
        components.push(value);
        surface.component_lines.push(line_no);
    }
    None
}

/// RFC 7396 JSON merge patch.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(changes) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(map) = target {
        for (key, value) in changes {
            if value.is_null() {
                map.shift_remove(key);
            } else {
                merge_patch(map.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

fn at_line(mut issue: Issue, line: usize, surface: Option<&str>) -> Issue {
    issue.line = Some(line);
    issue.surface = surface.map(String::from);
    issue
}

/// Validates a complete markdown body: each surface fence by the rules of
/// sections 1 to 6 (no `$source` in fences), and the body's own rules.
/// Issue paths point into the fence's surface; `surface` and `line` say
/// where it is.
///
/// ```
/// use validator_wasm::{markdown::validate_markdown, Catalog};
/// let body = "Intro\n\n```surface {\"id\":\"pricing\"}\n{\"id\":\"root\",\"component\":\"Stack\",\"children\":[\"t\"]}\n{\"id\":\"t\",\"component\":\"Heading\"}\n```\n";
/// let issues = validate_markdown(body, &Catalog::default_blog());
/// assert_eq!(issues[0].code, "invalid_prop");
/// assert_eq!((issues[0].line, issues[0].surface.as_deref()), (Some(5), Some("pricing")));
/// ```
pub fn validate_markdown(text: &str, catalog: &Catalog) -> Vec<Issue> {
    if text.len() > crate::surface::MAX_DOCUMENT_BYTES {
        return vec![Issue::error(
            "document_too_large",
            "",
            "the body is larger than 2 MiB",
        )];
    }
    let body = read_body(text);
    let mut issues = body.issues;
    for surface in &body.surfaces {
        for mut issue in validate_surface_in(&surface.document, catalog, Place::Markdown) {
            issue.line = Some(line_of(surface, &issue.path));
            issue.surface = Some(surface.id.clone());
            issues.push(issue);
        }
    }
    // Body issues and surface issues, by line; stable within a line.
    issues.sort_by_key(|i| i.line.unwrap_or(0));
    issues
}

fn line_of(surface: &FencedSurface, path: &str) -> usize {
    let segments = pointer::parse(path).unwrap_or_default();
    match segments.first().map(|s| s.as_ref()) {
        Some("components") => segments
            .get(1)
            .and_then(|s| pointer::array_index(s))
            .and_then(|i| surface.component_lines.get(i).copied())
            .unwrap_or(surface.line),
        Some("data") => surface.data_line.unwrap_or(surface.line),
        _ => surface.line,
    }
}
