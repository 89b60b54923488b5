//! The body of a ```` ```surface ```` fence, one line at a time.
//!
//! Each complete line is one JSON value: a component, or `{"data": {...}}`
//! merged into the data (RFC 7396). Each component is checked by the
//! validator's per-component rules as its line completes: an error refuses
//! the line, a flag keeps the component and is reported. Components wait
//! until `root` exists, then are committed in arrival order. A line that does
//! not parse or is refused is kept out and reported with its code and line
//! number. When the fence closes, the whole surface is checked (tree rules).
//! The unfinished last line is shown as a ghost (see [`ghost`]).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Map, Value};
use surfaces_core::fence::is_component_id;
use validator_wasm::markdown::{is_data_line, AddedLine, FencedSurface};
use validator_wasm::surface::{
    duplicate_id, too_many_components, validate_component, MAX_COMPONENTS,
};
use validator_wasm::{Catalog, Issue, Severity};

use crate::partial::{is_display_key, top_members};

pub use validator_wasm::markdown::LINE_LIMIT;
/// An unfinished line longer than this shows no ghost (`ghost_too_large`).
pub const GHOST_LIMIT: usize = 8 * 1024;

/// A line kept out of the surface.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// Line number, counted from 1 over the whole input.
    pub line: usize,
    /// The issue code.
    pub code: &'static str,
    /// A sentence a model can act on.
    pub message: String,
    /// Where in the line's value the problem is (a JSON Pointer).
    pub path: String,
}

impl Refusal {
    /// As `{"line", "code", "message", "path"}`.
    pub fn to_json(&self) -> Value {
        json!({"line": self.line, "code": self.code, "message": self.message, "path": self.path})
    }
}

/// `(code, message, path)` of a refused line.
type Refused = (&'static str, String, String);

/// The state of one surface fence's body.
///
/// The lines are read by the validator's [`FencedSurface`], so a line means
/// here what it means to `validate_markdown` and the renderer; what this
/// adds is the live view: which components are committed so far.
#[derive(Debug, Clone, Default)]
pub struct Surface {
    /// The surface as the validator reads the body so far; `None` when the
    /// fence info was refused (then the body is not read, as the validator
    /// does).
    pub fence: Option<FencedSurface>,
    /// Committed components, in arrival order.
    pub components: Vec<Value>,
    /// Components waiting for `root`.
    pub held: Vec<Value>,
    /// Refused lines.
    pub refused: Vec<Refusal>,
    /// Flags the validator raised on accepted components, each with the
    /// `line` it came from.
    pub flags: Vec<Value>,
    /// Counts data merges, so a reader can tell when data changed.
    pub data_revision: usize,
    /// The checks of the whole surface, once its fence closed (or the
    /// text ended inside it): what `validate_markdown` reports for it,
    /// with the body's codes for this fence (`body`).
    pub issues: Option<Vec<Issue>>,
    /// The body's codes for this fence, given with its checks:
    /// `too_many_surfaces` and `duplicate_surface_id` at its opening line,
    /// `unclosed_fence` when the text ends inside it.
    pub body: Vec<Issue>,
    ids: Vec<String>,
}

impl Surface {
    /// The body of a fence whose info named `id` and `catalog` (opened at
    /// line `line`), or of a fence whose info was refused (`id` `None`).
    pub fn new(id: Option<String>, catalog: Option<String>, line: usize) -> Surface {
        Surface {
            fence: id.map(|id| FencedSurface::new(id, catalog, line)),
            ..Surface::default()
        }
    }

    /// The data after every merge so far.
    pub fn data(&self) -> Map<String, Value> {
        self.fence
            .as_ref()
            .and_then(FencedSurface::data)
            .cloned()
            .unwrap_or_default()
    }

    /// Reads one complete body line (without its line ending), checking a
    /// component with `catalog`.
    pub fn commit_line(&mut self, line_no: usize, line: &str, catalog: &Catalog) {
        let Some(fence) = self.fence.as_mut() else {
            return;
        };
        let result = match fence.add_line(line, line_no) {
            AddedLine::Blank => Ok(()),
            AddedLine::Data => {
                self.data_revision += 1;
                Ok(())
            }
            AddedLine::Refused(issue) => Err((issue.code, issue.message, issue.path)),
            AddedLine::Component(i) => match fence.components().get(i).cloned() {
                Some(component) => self.take(line_no, i, component, catalog),
                None => Ok(()),
            },
        };
        if let Err((code, message, path)) = result {
            self.refused.push(Refusal {
                line: line_no,
                code,
                message,
                path,
            });
        }
    }

    /// Commits (or holds until `root`) a component the per-component rules
    /// accept (those of `validate_component`, its id among them), that
    /// repeats no id and leaves room; refuses it from the live view
    /// otherwise. `index` is its place in the surface as the validator reads
    /// it, so a path here is the path the closed surface's issues give it.
    fn take(
        &mut self,
        line_no: usize,
        index: usize,
        component: Value,
        catalog: &Catalog,
    ) -> Result<(), Refused> {
        let at = alloc::format!("/components/{index}");
        let refuse = |issue: &Issue| {
            let path = issue.path.strip_prefix(&at).unwrap_or(&issue.path);
            (issue.code, issue.message.clone(), path.to_string())
        };
        let issues = validate_component(&component, &at, catalog, None);
        if let Some(error) = issues.iter().find(|i| i.severity == Severity::Error) {
            return Err(refuse(error));
        }
        let id = component
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if self.ids.contains(&id) {
            return Err(refuse(&duplicate_id(&id, &[at.as_str(), "/id"].concat())));
        }
        if self.ids.len() >= MAX_COMPONENTS {
            return Err(refuse(&too_many_components(self.ids.len() + 1, &at)));
        }
        for flag in issues.iter().filter(|i| i.severity == Severity::Flag) {
            let mut flag = flag.clone();
            flag.line = Some(line_no);
            self.flags.push(flag.to_json());
        }
        let is_root = id == "root";
        self.ids.push(id);
        if is_root {
            // Those held came before it: committed in the order they came,
            // as the fence's lines give them.
            self.components.append(&mut self.held);
            self.components.push(component);
        } else if self.has_root() {
            self.components.push(component);
        } else {
            self.held.push(component);
        }
        Ok(())
    }

    fn has_root(&self) -> bool {
        self.ids.iter().any(|id| id == "root")
    }

    /// The fence closed: check the whole surface with the validator's
    /// section 1 rules, as `validate_markdown` does, with the body's codes
    /// for it.
    pub fn close(&mut self, catalog: &Catalog) {
        if self.fence.is_some() || !self.body.is_empty() {
            let mut issues = self
                .fence
                .as_ref()
                .map_or_else(Vec::new, |f| f.issues(catalog));
            issues.extend(self.body.iter().cloned());
            self.issues = Some(issues);
        }
    }
}

/// The ghost of an unfinished body line: `{"id"?, "component"?, "props"?,
/// "partial": true}`, or `None` when the line is not (yet) a component.
/// An id or component name is shown only once its string is complete (and
/// an id only if valid); a cut string in props only under a display key.
pub fn ghost(line: &str) -> Option<Value> {
    if line.len() > GHOST_LIMIT {
        // Past the limit only its first byte after white space is read.
        crate::work::read(GHOST_LIMIT);
        let mut head = line.bytes().take(GHOST_LIMIT);
        return (head.find(|b| !b.is_ascii_whitespace()) == Some(b'{'))
            .then(|| json!({"partial": true, "code": "ghost_too_large"}));
    }
    crate::work::read(line.len());
    let line = line.trim_start();
    if !line.starts_with('{') {
        return None;
    }
    let members = top_members(line, is_display_key)?;
    let mut out = Map::new();
    let complete = |key: &str| -> Option<Value> {
        let pair = members.get(key)?.as_array()?;
        match (pair.first(), pair.get(1)) {
            (Some(v), Some(Value::Bool(true))) => Some(v.clone()),
            _ => None,
        }
    };
    if is_data_line(&members) {
        return None;
    }
    if let Some(Value::String(id)) = complete("id") {
        if is_component_id(&id) {
            out.insert("id".into(), Value::String(id));
        }
    }
    if let Some(Value::String(name)) = complete("component") {
        out.insert("component".into(), Value::String(name));
    }
    if let Some(props) = members
        .get("props")
        .and_then(Value::as_array)
        .and_then(|pair| pair.first())
        .filter(|p| p.is_object())
    {
        out.insert("props".into(), props.clone());
    }
    out.insert("partial".into(), Value::Bool(true));
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use validator_wasm::surface::MAX_DATA_BYTES;

    fn body(lines: &[&str]) -> Surface {
        let catalog = Catalog::default_blog();
        let mut s = Surface::new(Some("p".into()), Some("blog@1".into()), 0);
        for (i, line) in lines.iter().enumerate() {
            s.commit_line(i + 1, line, &catalog);
        }
        s
    }

    #[test]
    fn components_wait_for_root() {
        let s = body(&[
            r#"{"id":"a","component":"Text"}"#,
            r#"{"id":"b","component":"Text"}"#,
        ]);
        assert!(s.components.is_empty());
        assert_eq!(s.held.len(), 2);
        let s = body(&[
            r#"{"id":"a","component":"Text"}"#,
            r#"{"id":"root","component":"Stack","children":["a","c"]}"#,
            r#"{"id":"c","component":"Text"}"#,
        ]);
        let ids: Vec<_> = s
            .components
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        // In the order they came (a held one before root), so a path the
        // closed surface's issues give (`/components/0` is `a`) is a place
        // in this list too.
        assert_eq!(ids, ["a", "root", "c"]);
        assert!(s.held.is_empty());
    }

    #[test]
    fn data_merges_by_rfc_7396() {
        let s = body(&[
            r#"{"data":{"a":1,"b":{"c":2,"d":3}}}"#,
            r#"{"data":{"b":{"c":null,"e":4},"f":[1]}}"#,
        ]);
        assert_eq!(
            Value::Object(s.data()),
            json!({"a":1,"b":{"d":3,"e":4},"f":[1]})
        );
        assert_eq!(s.data_revision, 2);
    }

    #[test]
    fn refusals_carry_code_and_line() {
        let s = body(&[
            "not json",
            "[1]",
            r#"{"id":"Bad","component":"Text"}"#,
            r#"{"id":"root","component":"Stack","extra":1}"#,
            r#"{"id":"root","component":"Stack"}"#,
            r#"{"id":"root","component":"Stack"}"#,
            r#"{"id":"x"}"#,
            r#"{"data":[1]}"#,
            r#"{"data":{},"more":1}"#,
            "",
        ]);
        let codes: Vec<_> = s.refused.iter().map(|r| (r.line, r.code)).collect();
        assert_eq!(
            codes,
            [
                (1, "invalid_line"),
                (2, "invalid_line"),
                (3, "invalid_id"),
                (4, "unknown_field"),
                (6, "duplicate_id"),
                (8, "invalid_line"),
                (9, "invalid_line"),
            ]
        );
        assert!(s.refused.iter().all(|r| !r.message.is_empty()));
        assert_eq!(
            s.refused[3].path, "/extra",
            "the path is inside the line's value"
        );
        assert_eq!(
            s.flags.len(),
            1,
            "a component without a name is kept and flagged"
        );
        assert_eq!(s.flags[0]["line"], 7);
        assert_eq!(s.refused[0].to_json()["line"], 1);
    }

    #[test]
    fn the_validator_flags_and_checks_the_closed_surface() {
        let catalog = Catalog::default_blog();
        let mut s = body(&[
            r#"{"id":"root","component":"Stack","children":["a","gone"]}"#,
            r#"{"id":"a","component":"Sparkle"}"#,
            r#"{"id":"b","component":"Link","props":{"text":"x","href":"javascript:alert(1)"}}"#,
        ]);
        assert_eq!(s.components.len(), 2, "an unknown component is kept");
        assert_eq!(s.flags[0]["code"], "unknown_component");
        assert_eq!(s.refused[0].code, "unsafe_href");
        assert_eq!(s.refused[0].path, "/props/href");
        assert!(s.issues.is_none());
        s.close(&catalog);
        let codes: Vec<_> = s.issues.unwrap().iter().map(|i| i.code).collect();
        assert!(codes.contains(&"unresolved_child"), "{codes:?}");
    }

    #[test]
    fn limits() {
        let long = alloc::format!("{{\"data\":{{\"x\":\"{}\"}}}}", "a".repeat(LINE_LIMIT));
        assert_eq!(body(&[&long]).refused[0].code, "line_too_long");
        let big = alloc::format!("{{\"data\":{{\"x\":\"{}\"}}}}", "a".repeat(MAX_DATA_BYTES));
        let s = body(&[r#"{"data":{"k":1}}"#, &big]);
        assert_eq!(s.refused[0].code, "data_too_large");
        assert_eq!(
            Value::Object(s.data()),
            json!({"k":1}),
            "a refused merge leaves data as it was"
        );
        let mut lines = alloc::vec![String::from(r#"{"id":"root","component":"Stack"}"#)];
        for i in 0..MAX_COMPONENTS {
            lines.push(alloc::format!(r#"{{"id":"c{i}","component":"Text"}}"#));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let s = body(&refs);
        assert_eq!(s.components.len(), MAX_COMPONENTS);
        assert_eq!(s.refused.len(), 1);
        assert_eq!(s.refused[0].code, "too_many_components");
    }

    #[test]
    fn ghosts_never_invent_ids_or_names() {
        assert_eq!(ghost(r#"{"id":"ro"#), Some(json!({"partial":true})));
        assert_eq!(
            ghost(r#"{"id":"root","component":"Sta"#),
            Some(json!({"id":"root","partial":true}))
        );
        assert_eq!(
            ghost(r#"{"id":"t","component":"Heading","props":{"level":2,"text":"Pri"#),
            Some(
                json!({"id":"t","component":"Heading","props":{"level":2,"text":"Pri"},"partial":true})
            )
        );
        assert_eq!(
            ghost(r#"{"id":"t","component":"Toggle","props":{"value":{"path":"/bil"#),
            Some(json!({"id":"t","component":"Toggle","props":{"value":{}},"partial":true}))
        );
        assert_eq!(
            ghost(r#"{"id":"Bad","component":"X","#),
            Some(json!({"component":"X","partial":true}))
        );
        assert_eq!(ghost(r#"{"data":{"a":"#), None);
        assert_eq!(ghost("```"), None);
        assert_eq!(ghost("  {"), Some(json!({"partial":true})));
    }

    #[test]
    fn oversized_ghost_is_bounded() {
        let line = alloc::format!(
            "{{\"id\":\"a\",\"props\":{{\"text\":\"{}",
            "x".repeat(GHOST_LIMIT)
        );
        assert_eq!(
            ghost(&line),
            Some(json!({"partial":true,"code":"ghost_too_large"}))
        );
    }
}
