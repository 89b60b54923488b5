//! Surfaces in markdown bodies (SPEC.md section 8): cut the body into lines
//! and find the fences (with core's line splitter and fence grammar, shared
//! with the streaming parser: a leading byte order mark is skipped, and a
//! lone `\r` ends a line as `\n` and `\r\n` do), assemble each surface line
//! by line, and check the body.

use crate::catalog::Catalog;
use crate::issue::Issue;
use crate::surface::{data_too_large, validate_surface_in, Place, MAX_DATA_BYTES};
use serde_json::{Map, Value};
use surfaces_core::fence::{lines, opening_fence, surface_info};
use surfaces_core::pointer;
use surfaces_core::sorted;

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
    let mut seen_ids = sorted::Names::default();
    let mut fences = 0;
    for (n, line) in lines(text).enumerate() {
        let line_no = n + 1;
        state = match state {
            State::Prose => match opening_fence(line) {
                None => State::Prose,
                Some(open) => match surface_info(&open) {
                    None => State::Code(open),
                    Some(info) => {
                        fences += 1;
                        if fences == MAX_SURFACES + 1 {
                            let id = info.as_ref().ok().map(|info| info.id.as_str());
                            body.issues.push(too_many_surfaces(line_no, id));
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
                                    body.issues.push(duplicate_surface_id(&info.id, line_no));
                                }
                                Some(FencedSurface::new(info.id, info.catalog, line_no))
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
                    if let Some(AddedLine::Refused(issue)) =
                        surface.as_mut().map(|s| s.add_line(line, line_no))
                    {
                        body.issues.push(issue);
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
        body.issues.push(unclosed_fence(line, id.as_deref()));
        body.surfaces.extend(surface);
    }
    body
}

// The body's own codes, one constructor each for the validator and the
// streaming parser (which gives them with the fence's checks).

/// `too_many_surfaces`: the surface fence at `line` (`id`: what its info
/// named) is one past [`MAX_SURFACES`].
pub fn too_many_surfaces(line: usize, id: Option<&str>) -> Issue {
    let max = MAX_SURFACES.to_string();
    let message = [
        "a body holds at most ",
        &max,
        " surfaces; move the rest to another page",
    ];
    at_line(
        Issue::error("too_many_surfaces", "", message.concat()),
        line,
        id,
    )
}

/// `duplicate_surface_id`: the fence at `line` names `id`, which an
/// earlier fence of the body named.
pub fn duplicate_surface_id(id: &str, line: usize) -> Issue {
    let message = ["the surface id \"", id, "\" is already used in this body"].concat();
    at_line(
        Issue::error("duplicate_surface_id", "", message),
        line,
        Some(id),
    )
}

/// `unclosed_fence`: the body ended inside the surface fence opened at
/// `line` (`id`: what its info named).
pub fn unclosed_fence(line: usize, id: Option<&str>) -> Issue {
    let message = "this surface fence is never closed; end it with the same fence characters";
    at_line(Issue::error("unclosed_fence", "", message), line, id)
}

/// A fence body line longer than this (in bytes, without its line ending)
/// is refused unread (`line_too_long`).
pub const LINE_LIMIT: usize = 256 * 1024;

/// What a fence body line means, by its text alone (SPEC.md section 8): the
/// one rule every reader of a fence follows (the validator, the streaming
/// parser, the renderer).
#[derive(Debug, Clone, PartialEq)]
pub enum FenceLine {
    /// White space only: nothing.
    Blank,
    /// `{"data": {...}}`: an object merged into the data (RFC 7396).
    Data(Map<String, Value>),
    /// Any other JSON object: a component, for the surface rules to judge.
    Component(Map<String, Value>),
    /// Not a line a fence may hold: `invalid_line` or `line_too_long`, and
    /// what to write instead.
    Refused(&'static str, String),
}

/// Classifies one fence body line (without its line ending).
///
/// An object without `id` that has a `data` key is a data line, and must be
/// exactly `{"data": {...}}`; every other object is a component.
///
/// ```
/// use validator_wasm::markdown::{classify_line, FenceLine};
/// assert_eq!(classify_line("  "), FenceLine::Blank);
/// assert!(matches!(classify_line(r#"{"data":{"n":1}}"#), FenceLine::Data(_)));
/// assert!(matches!(classify_line(r#"{"id":"root","component":"Stack"}"#), FenceLine::Component(_)));
/// for refused in ["[1]", "not json", r#"{"data":{},"x":1}"#, r#"{"data":[1]}"#] {
///     assert!(matches!(classify_line(refused), FenceLine::Refused("invalid_line", _)), "{refused}");
/// }
/// ```
pub fn classify_line(line: &str) -> FenceLine {
    let line = line.trim();
    if line.is_empty() {
        return FenceLine::Blank;
    }
    if line.len() > LINE_LIMIT {
        return FenceLine::Refused(
            "line_too_long",
            [
                "a surface line may hold at most ",
                &LINE_LIMIT.to_string(),
                " bytes; split large data into several {\"data\":{...}} lines",
            ]
            .concat(),
        );
    }
    let value = match surfaces_core::json::parse(line) {
        Ok(value) => value,
        Err(e) => {
            return FenceLine::Refused(
                "invalid_line",
                [
                    "this line is not valid JSON (",
                    &e.to_string(),
                    "); write one JSON object per line: a component or {\"data\":{...}}",
                ]
                .concat(),
            )
        }
    };
    let Value::Object(mut object) = value else {
        return FenceLine::Refused(
            "invalid_line",
            "each line must be a JSON object: a component or {\"data\":{...}}".into(),
        );
    };
    if !is_data_line(&object) {
        return FenceLine::Component(object);
    }
    match object.shift_remove("data") {
        Some(Value::Object(patch)) if object.is_empty() => FenceLine::Data(patch),
        _ => FenceLine::Refused(
            "invalid_line",
            "a data line is exactly {\"data\":{...}} with an object to merge into the surface's data"
                .into(),
        ),
    }
}

/// Whether a fence line's object (or the members read so far of an
/// unfinished one) is a data line rather than a component: it has a `data`
/// key and no `id`.
pub fn is_data_line(object: &Map<String, Value>) -> bool {
    object.contains_key("data") && !object.contains_key("id")
}

/// What [`FencedSurface::add_line`] did with a line.
#[derive(Debug, Clone, PartialEq)]
pub enum AddedLine {
    /// A blank line.
    Blank,
    /// Data merged.
    Data,
    /// A component, at this index of the surface's `components`.
    Component(usize),
    /// Kept out, with the issue (its `line` and `surface` set).
    Refused(Issue),
}

impl FencedSurface {
    /// An empty surface opened by the fence at `line`.
    pub fn new(id: String, catalog: Option<String>, line: usize) -> FencedSurface {
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

    /// Adds one body line (without its line ending) as [`classify_line`]
    /// reads it. A data merge that would make the data larger than
    /// [`MAX_DATA_BYTES`] is refused
    /// (`data_too_large`) and leaves the data as it was.
    pub fn add_line(&mut self, line: &str, line_no: usize) -> AddedLine {
        let refuse = |code, message: String| {
            AddedLine::Refused(at_line(
                Issue::error(code, "", message),
                line_no,
                Some(&self.id),
            ))
        };
        match classify_line(line) {
            FenceLine::Blank => AddedLine::Blank,
            FenceLine::Refused(code, message) => refuse(code, message),
            FenceLine::Data(patch) => {
                let Some(data) = self.document.get_mut("data") else {
                    return AddedLine::Blank;
                };
                let mut merged = data.clone();
                merge_patch(&mut merged, &Value::Object(patch));
                if data_too_large(&merged) {
                    return refuse(
                        "data_too_large",
                        [
                            "this data line would make the surface's data larger than ",
                            &MAX_DATA_BYTES.to_string(),
                            " bytes; keep only what the surface shows",
                        ]
                        .concat(),
                    );
                }
                *data = merged;
                self.data_line.get_or_insert(line_no);
                AddedLine::Data
            }
            FenceLine::Component(object) => match self.document.get_mut("components") {
                Some(Value::Array(components)) => {
                    components.push(Value::Object(object));
                    self.component_lines.push(line_no);
                    AddedLine::Component(components.len() - 1)
                }
                _ => AddedLine::Blank,
            },
        }
    }

    /// The components read so far, in line order.
    pub fn components(&self) -> &[Value] {
        self.document
            .get("components")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The data after every merge so far.
    pub fn data(&self) -> Option<&Map<String, Value>> {
        self.document.get("data").and_then(Value::as_object)
    }

    /// Checks the surface read so far by the rules of sections 1 to 6 (no
    /// `$source` in fences); each issue carries this surface's id and the
    /// line its path points into.
    pub fn issues(&self, catalog: &Catalog) -> Vec<Issue> {
        let mut issues = validate_surface_in(&self.document, catalog, Place::Markdown);
        for issue in &mut issues {
            issue.line = Some(self.line_of(&issue.path));
            issue.surface = Some(self.id.clone());
        }
        issues
    }

    /// The line a path into this surface points into.
    fn line_of(&self, path: &str) -> usize {
        let segments = pointer::parse(path).unwrap_or_default();
        match segments.first().map(|s| s.as_ref()) {
            Some("components") => segments
                .get(1)
                .and_then(|s| pointer::array_index(s))
                .and_then(|i| self.component_lines.get(i).copied())
                .unwrap_or(self.line),
            Some("data") => self.data_line.unwrap_or(self.line),
            _ => self.line,
        }
    }
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
    if let Err(too_large) = crate::surface::check_size(text) {
        return vec![too_large];
    }
    let body = read_body(text);
    let mut issues = body.issues;
    for surface in &body.surfaces {
        issues.extend(surface.issues(catalog));
    }
    // Body issues and surface issues, by line; stable within a line.
    crate::surface::sort_stably(&mut issues, |i| vec![i.line.unwrap_or(0)]);
    issues
}
