//! Surface documents (SPEC.md section 1) and their data (section 6).

use crate::catalog::{Catalog, Children, Entry};
use crate::issue::Issue;
use crate::issue::Outcome;
use crate::lookup::{field, field_of, nearest};
use crate::schema::{self, Context};
use serde_json::{Map, Value};
use surfaces_core::condition;
use surfaces_core::fence::is_component_id;
use surfaces_core::pointer;
use surfaces_core::problem::{Binding, Findings};
use surfaces_core::sorted;

/// At most this many components per surface.
pub const MAX_COMPONENTS: usize = 200;
/// `root` is depth 1; no component deeper than this.
pub const MAX_DEPTH: usize = 8;
/// `data`, serialized compactly as UTF-8, at most this many bytes.
pub const MAX_DATA_BYTES: usize = 65_536;
/// The sort in document order places a key by its place in its object
/// only in objects of at most this many keys (in a larger one, data, that
/// would cost a scan per issue): issues under the keys of a larger object
/// keep the order they were found in.
pub(crate) const ORDERED_KEYS: usize = 32;
/// The keys a component may have.
pub const COMPONENT_KEYS: [&str; 5] = ["id", "component", "props", "children", "visible"];

/// Where a surface sits, which changes what it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A page section: `$source` is allowed.
    Page,
    /// A fence in a markdown body: `$source` is `source_not_allowed`.
    Markdown,
}

/// At most this many surfaces per page or body.
pub const MAX_SURFACES: usize = 30;

/// Whether `doc` is a page `{"sections": [...]}` rather than one surface.
pub fn is_page(doc: &Value) -> bool {
    doc.get("sections").is_some_and(Value::is_array) && doc.get("components").is_none()
}

/// Validates a page `{"sections": [...]}` (each section of kind `surface`,
/// at most 30 of them; other kinds pass through) or a single surface. In a
/// page, paths point into the page and `surface` names the section's id.
///
/// ```
/// use validator_wasm::{validate_document, Catalog};
/// let page = serde_json::json!({"sections": [
///     {"kind": "prose", "text": "Hello"},
///     {"id": "sec_a", "kind": "surface", "components": [{"id": "root", "component": "Stack", "children": ["x"]}]}
/// ]});
/// let issues = validate_document(&page, &Catalog::default_blog());
/// assert_eq!(issues[0].path, "/sections/1/components/0/children/0");
/// assert_eq!(issues[0].surface.as_deref(), Some("sec_a"));
/// ```
pub fn validate_document(doc: &Value, catalog: &Catalog) -> Vec<Issue> {
    let Some(sections) = doc
        .get("sections")
        .and_then(Value::as_array)
        .filter(|_| is_page(doc))
    else {
        return validate_surface(doc, catalog);
    };
    let mut issues = Vec::new();
    let mut surfaces = 0;
    for (i, section) in sections.iter().enumerate() {
        if field(section, "kind").and_then(Value::as_str) != Some("surface") {
            continue;
        }
        surfaces += 1;
        let at = section_path(i);
        let id = field(section, "id")
            .and_then(Value::as_str)
            .map(String::from);
        if surfaces == MAX_SURFACES + 1 {
            let mut issue = Issue::error(
                "too_many_surfaces",
                at.clone(),
                [
                    "a page holds at most ",
                    &MAX_SURFACES.to_string(),
                    " surfaces; move the rest to another page",
                ]
                .concat(),
            );
            issue.surface.clone_from(&id);
            issues.push(issue);
        }
        for mut issue in validate_surface_in(section, catalog, Place::Page) {
            issue.path = [at.as_str(), &issue.path].concat();
            issue.surface.clone_from(&id);
            issues.push(issue);
        }
    }
    issues
}

/// Validates document text: [`parse_document`], then [`validate_document`].
pub fn validate_document_text(text: &str, catalog: &Catalog) -> Vec<Issue> {
    match parse_document(text) {
        Ok(doc) => validate_document(&doc, catalog),
        Err(issue) => vec![issue],
    }
}

/// `value` as JSON text, as serde_json writes it, by the one writer
/// (`surfaces_core::json::text`). `to_string` goes through `Value`'s
/// `Display`, which passes every piece through `core::fmt`, and
/// serde_json's own writer through serde's serializer calls (30% of an
/// `applyPatch` of a 90 KB document in wasm). Every face answers through
/// this, and nothing in the wasm modules formats a `Value` with `Display`.
pub fn json_text(value: &Value) -> String {
    surfaces_core::json::text(value)
}

/// An object of these members, each moved in. `json!` copies every member
/// that is not a literal through `serde_json::to_value`, a serialization
/// into a new value: for an answer holding a document, more than half of
/// an `applyPatch`. The faces build their answers with this.
///
/// ```
/// let doc = serde_json::json!({"a": [1, 2]});
/// let answer = validator_wasm::object([("ok", true.into()), ("document", doc)]);
/// assert_eq!(validator_wasm::json_text(&answer), r#"{"ok":true,"document":{"a":[1,2]}}"#);
/// ```
pub fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// The largest document text read (a surface, a page or a markdown body):
/// larger input is refused before parsing.
pub const MAX_DOCUMENT_BYTES: usize = 2 * 1024 * 1024;

/// Refuses document text (a surface, a page or a markdown body) larger than
/// [`MAX_DOCUMENT_BYTES`] with `document_too_large`, before reading it.
pub fn check_size(text: &str) -> Result<(), Issue> {
    if text.len() <= MAX_DOCUMENT_BYTES {
        return Ok(());
    }
    Err(Issue::error(
        "document_too_large",
        "",
        [
            "the document is larger than ",
            &MAX_DOCUMENT_BYTES.to_string(),
            " bytes; a surface holds at most 200 components and 64 KB of data",
        ]
        .concat(),
    ))
}

/// Parses document text for validation, refusing what is too large
/// ([`check_size`]) or not JSON (`invalid_json`, which includes nesting
/// 128 levels deep or deeper) with one error issue.
pub fn parse_document(text: &str) -> Result<Value, Issue> {
    check_size(text)?;
    surfaces_core::json::parse(text).map_err(|e| {
        let message = if e.kind == surfaces_core::json::ErrorKind::TooDeep {
            "the document nests 128 levels deep or deeper (at most 127)".to_string()
        } else {
            ["the document is not valid JSON: ", &e.to_string()].concat()
        };
        Issue::error("invalid_json", "", message)
    })
}

/// Validates surface JSON text: [`parse_document`], then [`validate_surface`].
///
/// ```
/// use validator_wasm::{validate_surface_text, Catalog};
/// let deep = "[".repeat(100_000);
/// let issues = validate_surface_text(&deep, &Catalog::default_blog());
/// assert_eq!(issues[0].code, "invalid_json");
/// ```
pub fn validate_surface_text(text: &str, catalog: &Catalog) -> Vec<Issue> {
    match parse_document(text) {
        Ok(doc) => validate_surface(&doc, catalog),
        Err(issue) => vec![issue],
    }
}

/// `too_many_components`: a surface that holds `found` components, more
/// than [`MAX_COMPONENTS`] (at `at`). For whole surfaces, and for the stream's
/// line that would be one too many.
pub fn too_many_components(found: usize, at: &str) -> Issue {
    Issue::error(
        "too_many_components",
        at,
        [
            "a surface has at most ",
            &MAX_COMPONENTS.to_string(),
            " components (found ",
            &found.to_string(),
            "); split it into several surfaces",
        ]
        .concat(),
    )
}

/// `duplicate_id`: `id` (at `at`) is already used by an earlier component.
pub fn duplicate_id(id: &str, at: &str) -> Issue {
    Issue::error(
        "duplicate_id",
        at,
        [
            "the id \"",
            id,
            "\" is used by an earlier component; ids are unique per surface",
        ]
        .concat(),
    )
}

/// The pointer to section `i` of a page.
pub(crate) fn section_path(i: usize) -> String {
    ["/sections/", &i.to_string()].concat()
}

/// Validates a surface document against `catalog`: every problem of SPEC.md
/// sections 1 to 6, in document order.
pub fn validate_surface(doc: &Value, catalog: &Catalog) -> Vec<Issue> {
    validate_surface_in(doc, catalog, Place::Page)
}

/// [`validate_surface`] for a surface in the given place.
pub fn validate_surface_in(doc: &Value, catalog: &Catalog, place: Place) -> Vec<Issue> {
    check_surface(doc, catalog, place, &[], None).issues
}

/// A checked surface: its issues; each component's part, what its `props`
/// and `visible` gave (issues and data bindings: they read no other
/// component, so a `Draft` reuses them while the component and its place
/// are unchanged, and [`data_changed`] reads the bindings); and its data's
/// size serialized compactly, which a change to the data moves by the size
/// of what it changed (`None` when the data is no object, or when counting
/// stopped at the limit).
#[derive(Debug, Clone, Default)]
pub(crate) struct Checked {
    pub issues: Vec<Issue>,
    pub parts: Vec<Outcome>,
    pub data_len: Option<usize>,
}

/// [`validate_surface_in`]'s issues, with each component's part and the
/// data's size; the parts of the first components are `reuse`'s (the
/// same components in the same places: only the parts of those after them
/// are found, and given, here).
pub(crate) fn check_surface(
    doc: &Value,
    catalog: &Catalog,
    place: Place,
    reuse: &[Outcome],
    data_kept: Option<&Checked>,
) -> Checked {
    let mut issues = Vec::new();
    let Some(map) = doc.as_object() else {
        issues.push(Issue::error("invalid_surface", "", "a surface is an object {\"id\", \"kind\": \"surface\", \"catalog\", \"components\", \"data\"}"));
        return Checked {
            issues,
            ..Checked::default()
        };
    };
    let empty = Vec::new();
    let components = match map.get("components") {
        None => &empty,
        Some(Value::Array(list)) => list,
        Some(_) => {
            issues.push(Issue::error(
                "invalid_surface",
                "/components",
                "\"components\" is a list of components",
            ));
            &empty
        }
    };
    if components.len() > MAX_COMPONENTS {
        issues.push(too_many_components(components.len(), "/components"));
    }
    let tree = Tree::build(components);
    if tree.root.is_none() {
        issues.push(Issue::error(
            "no_root",
            "/components",
            "one component must have the id \"root\"; it is the top of the tree",
        ));
    }
    tree.structural_issues(components, &mut issues);
    let mut parts = Vec::new();
    let mut at = String::from("/components");
    for (i, component) in components.iter().enumerate() {
        pointer::push_index(&mut at, i);
        let tree = Some((&tree, components.as_slice(), i));
        let (found, part) = check_component(component, &mut at, catalog, tree, reuse.get(i));
        issues.extend(found);
        parts.extend(part);
        at.truncate("/components".len());
    }
    let len = data_kept.and_then(|known| known.data_len);
    let (data, data_len) = data_issues(map, place, len, &mut issues);
    let reused = reuse.get(..components.len()).unwrap_or(reuse);
    match data_kept {
        // The same data, the same components: the same warnings.
        Some(known) => {
            for issue in &known.issues {
                let mine = component_of(&issue.path).is_some_and(|c| c < reused.len());
                if issue.code == "missing_data" && mine {
                    issues.push(issue.clone());
                }
            }
        }
        None => unresolved(data, reused, &mut issues),
    }
    unresolved(data, &parts, &mut issues);
    sort_in_document_order(doc, &mut issues);
    Checked {
        issues,
        parts,
        data_len,
    }
}

/// The issues of `surface`, whose data alone changed (at and under
/// `written`, a pointer into the data) since it had `known`
/// ([`check_surface`]'s, for a page section): the components' kept (none of
/// their rules reads the data), the data's own found again, and the
/// bindings of each component with one through `written` resolved again
/// (all of that component's, in order, as a full check gives them; when
/// the value at `written` was `replaced`, a binding of it resolves as
/// before, so only those under it count). With
/// the data's size: `len` when the caller measured it from the change,
/// else counted.
pub(crate) fn data_changed(
    known: &Checked,
    surface: &Value,
    written: &str,
    replaced: bool,
    len: Option<usize>,
) -> (Vec<Issue>, Option<usize>) {
    let through = |b: &Binding| under(&b.pointer, written) && !(replaced && b.pointer == written);
    let moved: Vec<bool> = (known.parts.iter())
        .map(|part| part.bindings.iter().any(through))
        .collect();
    // Whether `at` is in a component with a binding through `written`.
    let in_moved = |at: &str| {
        component_of(at)
            .and_then(|i| moved.get(i))
            .is_some_and(|m| *m)
    };
    // The data's own issues point at or under /data; no other rule does.
    let kept = known
        .issues
        .iter()
        .filter(|i| !(under(&i.path, "/data") || i.code == "missing_data" && in_moved(&i.path)));
    let mut issues: Vec<Issue> = kept.cloned().collect();
    let empty = Map::new();
    let map = surface.as_object().unwrap_or(&empty);
    let (data, len) = data_issues(map, Place::Page, len, &mut issues);
    for (part, moved) in known.parts.iter().zip(moved) {
        if moved {
            unresolved(data, core::slice::from_ref(part), &mut issues);
        }
    }
    sort_in_document_order(surface, &mut issues);
    (issues, len)
}

/// The index of the component that `at` (a pointer into a surface) is in.
fn component_of(at: &str) -> Option<usize> {
    let rest = at.strip_prefix("/components/")?;
    let end = rest.bytes().position(|b| b == b'/').unwrap_or(rest.len());
    pointer::array_index(rest.get(..end)?)
}

/// Whether JSON Pointer `path` is `prefix` or under it.
pub(crate) fn under(path: &str, prefix: &str) -> bool {
    let rest = path.strip_prefix(prefix);
    rest.is_some_and(|r| r.is_empty() || r.starts_with('/'))
}

/// The issues of surface `map`'s data of its own (not an object, too
/// large, its `$source` values), giving the data when it is an object, and
/// its size (`len` when known, else counted up to the limit: `None` past
/// it, or when the data is no object).
fn data_issues<'m>(
    map: &'m Map<String, Value>,
    place: Place,
    len: Option<usize>,
    issues: &mut Vec<Issue>,
) -> (Option<&'m Value>, Option<usize>) {
    let data = match map.get("data") {
        None => return (None, None),
        Some(d @ Value::Object(_)) => d,
        Some(_) => {
            issues.push(Issue::error(
                "invalid_data",
                "/data",
                "\"data\" is a JSON object",
            ));
            return (None, None);
        }
    };
    let len = len.or_else(|| surfaces_core::json::size(data, MAX_DATA_BYTES));
    check_data(data, len, place, issues);
    (Some(data), len)
}

/// A `missing_data` warning for each binding of `parts` (components') that
/// `data` (an empty object when `None`) does not resolve.
pub(crate) fn unresolved(data: Option<&Value>, parts: &[Outcome], issues: &mut Vec<Issue>) {
    let empty = Value::Object(Map::new());
    let data = data.unwrap_or(&empty);
    for binding in parts.iter().flat_map(|part| &part.bindings) {
        if !resolves(data, &binding.pointer) {
            issues.push(missing_data(binding));
        }
    }
}

/// Validates one component, at `at` in its surface, by the rules that need
/// no other component (ids, fields, catalog entry, props, visible); bound
/// paths are checked against `data` when given. For checking lines as they
/// stream in; [`validate_surface`] checks the whole tree.
pub fn validate_component(
    component: &Value,
    at: &str,
    catalog: &Catalog,
    data: Option<&Value>,
) -> Vec<Issue> {
    let mut here = at.to_string();
    let (mut issues, part) = check_component(component, &mut here, catalog, None, None);
    if data.is_some() {
        unresolved(data, part.as_slice(), &mut issues);
    }
    issues
}

/// What `component`'s `props` and `visible` give (at `at`): its part.
pub(crate) fn component_part(component: &Value, at: &str, catalog: &Catalog) -> Outcome {
    let mut here = at.to_string();
    let (_, part) = check_component(component, &mut here, catalog, None, None);
    part.unwrap_or_default()
}

fn missing_data(binding: &Binding) -> Issue {
    let message = [
        "the bound path \"",
        &binding.pointer,
        "\" does not resolve in data; add it to data or fix the path",
    ]
    .concat();
    Issue::warning("missing_data", binding.at.as_str(), message)
}

fn resolves(data: &Value, path: &str) -> bool {
    if pointer::resolve(&data, path).is_some() {
        return true;
    }
    // A path into a `$source` value is resolved by the server.
    let first = pointer::parse(path)
        .ok()
        .and_then(|s| s.first().map(|s| s.to_string()));
    first.is_some_and(|key| data.get(&key).is_some_and(|v| v.get("$source").is_some()))
}

/// The component tree: ids, parents, root, with what each id and each
/// `children` entry names found once, when it is built (each lookup walks
/// the id index: they were a fifth of a `Draft`'s whole check in
/// WebAssembly while each rule looked up its own).
struct Tree {
    root: Option<usize>,
    /// Per component, the first component with its id (`None`: no id).
    first: Vec<Option<usize>>,
    parent: Vec<Option<usize>>,
    /// `(component, entry)` positions of children entries that repeat a child.
    repeated: Vec<(usize, usize)>,
    /// What each `children` entry names, component by component (`None`: no
    /// component), and where each component's entries start (one more at
    /// the end).
    named: Vec<Option<usize>>,
    from: Vec<usize>,
}

impl Tree {
    fn build(components: &[Value]) -> Tree {
        let mut ids = sorted::Index::new();
        let mut first = Vec::new();
        for (i, c) in components.iter().enumerate() {
            let id = field(c, "id").and_then(Value::as_str);
            first.push(id.map(|id| match ids.get(id) {
                Some(&found) => found,
                None => {
                    ids.insert(id.to_string(), i);
                    i
                }
            }));
        }
        let root = ids.get("root").copied();
        let mut parent = vec![None; components.len()];
        let (mut repeated, mut named, mut from) = (Vec::new(), Vec::new(), Vec::new());
        for (i, c) in components.iter().enumerate() {
            from.push(named.len());
            let children = field(c, "children").and_then(Value::as_array);
            for (j, child) in children.map_or(&[][..], Vec::as_slice).iter().enumerate() {
                let k = child.as_str().and_then(|id| ids.get(id)).copied();
                named.push(k);
                match k.and_then(|k| parent.get_mut(k)) {
                    Some(slot @ None) => *slot = Some(i),
                    Some(Some(_)) => repeated.push((i, j)),
                    None => {}
                }
            }
        }
        from.push(named.len());
        Tree {
            root,
            first,
            parent,
            repeated,
            named,
            from,
        }
    }

    /// What component `i`'s `children` entries name, entry by entry.
    fn children(&self, i: usize) -> &[Option<usize>] {
        match self.from.get(i..i + 2) {
            Some(&[start, end]) => self.named.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }

    /// Depth of every component from root (1), `None` when unreachable.
    fn depths(&self) -> Vec<Option<usize>> {
        let mut depth = vec![None; self.parent.len()];
        let Some(root) = self.root else { return depth };
        let mut queue = std::collections::VecDeque::from([(root, 1usize)]);
        while let Some((node, d)) = queue.pop_front() {
            if depth[node].is_some() {
                continue;
            }
            depth[node] = Some(d);
            for &k in self.children(node).iter().flatten() {
                if self.parent.get(k).copied().flatten() == Some(node) && depth[k].is_none() {
                    queue.push_back((k, d + 1));
                }
            }
        }
        depth
    }

    /// Reports every cycle as `cycle`, through any `children` entry (first
    /// parents or not, so a cycle is found even where its components also
    /// break `multiple_parents`). A depth-first walk in document order, kept
    /// on an explicit stack (no recursion, whatever the depth): each entry
    /// that leads back to a component still on the walk closes a cycle, and
    /// every cycle holds at least one such entry; it is reported there.
    /// Linear in components and entries.
    fn cycles(&self, components: &[Value], issues: &mut Vec<Issue>) {
        const NEW: u8 = 0;
        const ON_WALK: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; components.len()];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for start in 0..components.len() {
            if state[start] != NEW {
                continue;
            }
            state[start] = ON_WALK;
            stack.push((start, 0));
            while let Some((node, entry)) = stack.last_mut() {
                let (node, j) = (*node, *entry);
                let Some(&named) = self.children(node).get(j) else {
                    state[node] = DONE;
                    stack.pop();
                    continue;
                };
                *entry += 1;
                let Some(k) = named else {
                    continue;
                };
                match state[k] {
                    NEW => {
                        state[k] = ON_WALK;
                        stack.push((k, 0));
                    }
                    ON_WALK => issues.push(Issue::error(
                        "cycle",
                        [
                            "/components/",
                            &node.to_string(),
                            "/children/",
                            &j.to_string(),
                        ]
                        .concat(),
                        [
                            "\"",
                            components[node]["children"][j].as_str().unwrap_or_default(),
                            "\" reaches itself through children; the components must form a tree",
                        ]
                        .concat(),
                    )),
                    _ => {}
                }
            }
        }
    }

    fn structural_issues(&self, components: &[Value], issues: &mut Vec<Issue>) {
        for &(i, j) in &self.repeated {
            let child = components[i]["children"][j].as_str().unwrap_or_default();
            issues.push(Issue::error(
                "multiple_parents",
                ["/components/", &i.to_string(), "/children/", &j.to_string()].concat(),
                ["\"", child, "\" is already the child of another component; a component has at most one parent"].concat(),
            ));
        }
        self.cycles(components, issues);
        for (i, depth) in self.depths().iter().enumerate() {
            let at = || ["/components/", &i.to_string()].concat();
            match depth {
                None if self.root.is_some() && self.first.get(i).copied().flatten() == Some(i) => {
                    issues.push(Issue::error("unreachable", at(), "this component is not reachable from root; add its id to a parent's children"));
                }
                Some(d) if *d > MAX_DEPTH => {
                    issues.push(Issue::error("too_deep", at(), "this component is deeper than 8 levels below root (root is level 1); flatten the tree"));
                }
                _ => {}
            }
        }
    }
}

/// Checks one component (at `at`): its issues, in the order of its keys,
/// and what its `props` and `visible` gave (its part: they read no other
/// component), unless `known` gives the part already (a `Draft`'s, for the
/// same component in the same place). A known part's issues come last,
/// where the sort by position puts them among the others; a component of
/// more than [`ORDERED_KEYS`] keys, whose keys that sort does not order,
/// is checked again instead.
fn check_component(
    component: &Value,
    at: &mut String,
    catalog: &Catalog,
    tree: Option<(&Tree, &[Value], usize)>,
    known: Option<&Outcome>,
) -> (Vec<Issue>, Option<Outcome>) {
    let mut out = Outcome::default();
    let mut part = Outcome::default();
    let Some(map) = component.as_object() else {
        out.issues.push(Issue::error("invalid_component", at.clone(), "a component is an object {\"id\", \"component\", \"props\"?, \"children\"?, \"visible\"?}"));
        return (out.issues, known.is_none().then_some(part));
    };
    let reuse = known.filter(|_| map.len() <= ORDERED_KEYS);
    let len = at.len();
    let entry = field_of(map, "component")
        .and_then(Value::as_str)
        .and_then(|name| catalog.entry(name));
    match field_of(map, "id") {
        None => out.issues.push(Issue::error(
            "invalid_id",
            at.clone(),
            "a component needs an \"id\" such as \"plans\"",
        )),
        Some(id) => {
            pointer::push(at, "id");
            match id.as_str() {
                Some(id) if is_component_id(id) => {
                    if let Some((t, _, here)) = tree {
                        if t.first
                            .get(here)
                            .copied()
                            .flatten()
                            .is_some_and(|first| first != here)
                        {
                            out.issues.push(duplicate_id(id, at));
                        }
                    }
                }
                _ => out.issues.push(Issue::error(
                    "invalid_id",
                    at.clone(),
                    "an id starts with a-z and uses only a-z, 0-9 and -, at most 41 characters",
                )),
            }
            at.truncate(len);
        }
    }
    if entry.is_none() {
        let (where_, message) = match map
            .iter()
            .find(|(k, _)| *k == "component")
            .map(|(_, v)| v)
            .and_then(Value::as_str)
        {
            Some(name) => {
                let suggestion = nearest(name, catalog.names())
                    .map(|n| [" (did you mean \"", n, "\"?)"].concat())
                    .unwrap_or_default();
                (
                    [at.as_str(), "/component"].concat(),
                    [
                        "\"",
                        name,
                        "\" is not a component of the catalog ",
                        catalog.name(),
                        &suggestion,
                    ]
                    .concat(),
                )
            }
            None => (
                at.clone(),
                "a component needs \"component\", the name of a catalog component".to_string(),
            ),
        };
        out.issues
            .push(Issue::flag("unknown_component", where_, message));
    }
    for (key, value) in map {
        let from = part.issues.len();
        match key.as_str() {
            "id" | "component" => {}
            "props" | "visible" if reuse.is_some() => {}
            "props" => {
                if let Some(entry) = entry {
                    check_props(entry, value, at, catalog, &mut part);
                } else if !value.is_object() {
                    part.issues.push(Issue::flag(
                        "invalid_prop",
                        [at.as_str(), "/props"].concat(),
                        "\"props\" is an object",
                    ));
                }
            }
            "children" => check_children(
                value,
                entry.map(|e| &e.children),
                at,
                catalog,
                tree,
                &mut out,
            ),
            "visible" => {
                pointer::push(at, "visible");
                let mut found = Findings::default();
                condition::check(&value, at, &mut found);
                part.absorb(found);
                at.truncate(len);
            }
            other => {
                pointer::push(at, other);
                out.issues.push(Issue::error(
                    "unknown_field",
                    at.clone(),
                    [
                        "a component has only id, component, props, children and visible; move \"",
                        other,
                        "\" into props or remove it",
                    ]
                    .concat(),
                ));
                at.truncate(len);
            }
        }
        out.issues.extend_from_slice(&part.issues[from..]);
    }
    if let (Some(entry), None, None) = (entry, field_of(map, "props"), reuse) {
        // No props at all: the schema still decides (required props).
        let from = part.issues.len();
        check_props(entry, &Value::Object(Map::new()), at, catalog, &mut part);
        out.issues.extend_from_slice(&part.issues[from..]);
    }
    if let Some(known) = reuse {
        out.issues.extend_from_slice(&known.issues);
    }
    (out.issues, known.is_none().then_some(part))
}

/// Checks `props` (the component's, or an empty object) against its entry's
/// schema, at `at` + `/props`.
fn check_props(
    entry: &Entry,
    props: &Value,
    at: &mut String,
    catalog: &Catalog,
    out: &mut Outcome,
) {
    let len = at.len();
    pointer::push(at, "props");
    let cx = Context {
        root: &entry.props,
        icons: catalog.icons(),
    };
    schema::check(&entry.props, props, at, &cx, out);
    at.truncate(len);
}

fn check_children(
    value: &Value,
    rule: Option<&Children>,
    at: &mut String,
    catalog: &Catalog,
    tree: Option<(&Tree, &[Value], usize)>,
    out: &mut Outcome,
) {
    let len = at.len();
    pointer::push(at, "children");
    let Some(list) = value.as_array() else {
        out.issues.push(Issue::error(
            "unresolved_child",
            at.clone(),
            "\"children\" is a list of component ids",
        ));
        at.truncate(len);
        return;
    };
    if rule == Some(&Children::None) && !list.is_empty() {
        out.issues.push(Issue::flag(
            "children_not_allowed",
            at.clone(),
            "this component takes no children",
        ));
    }
    let here = at.len();
    for (j, child) in list.iter().enumerate() {
        pointer::push_index(at, j);
        match (child.as_str(), tree) {
            (None, _) => out.issues.push(Issue::error(
                "unresolved_child",
                at.clone(),
                "a children entry is a component id string",
            )),
            (Some(id), Some((t, components, i))) => match t.children(i).get(j).copied().flatten() {
                None => out.issues.push(Issue::error(
                    "unresolved_child",
                    at.clone(),
                    [
                        "no component has the id \"",
                        id,
                        "\"; define it or remove it from children",
                    ]
                    .concat(),
                )),
                Some(k) => {
                    if let Some(Children::Only(allowed)) = rule {
                        let kind = components
                            .get(k)
                            .and_then(|c| field(c, "component"))
                            .and_then(Value::as_str);
                        if let Some(kind) = kind.filter(|k| {
                            catalog.entry(k).is_some() && !allowed.iter().any(|a| a == k)
                        }) {
                            out.issues.push(Issue::flag(
                                "children_not_allowed",
                                at.clone(),
                                [
                                    "a ",
                                    kind,
                                    " may not be a child here; allowed: ",
                                    &allowed.join(", "),
                                ]
                                .concat(),
                            ));
                        }
                    }
                }
            },
            (Some(_), None) => {}
        }
        at.truncate(here);
    }
    at.truncate(len);
}

/// Checks `data` (of size `len`, `None` past the limit): size and
/// `$source` values.
fn check_data(data: &Value, len: Option<usize>, place: Place, issues: &mut Vec<Issue>) {
    if len.is_none_or(|len| len > MAX_DATA_BYTES) {
        issues.push(Issue::error(
            "data_too_large",
            "/data",
            [
                "data, serialized, is larger than ",
                &MAX_DATA_BYTES.to_string(),
                " bytes; keep only what the surface shows",
            ]
            .concat(),
        ));
    }
    let Some(map) = data.as_object() else { return };
    for (key, value) in map {
        let Some(source) = field(value, "$source") else {
            continue;
        };
        let mut at = String::from("/data");
        pointer::push(&mut at, key);
        if place == Place::Markdown {
            issues.push(Issue::error("source_not_allowed", at, "$source is allowed in page surfaces only, not in markdown fences; write the data inline"));
            continue;
        }
        check_source(value, source, &mut at, issues);
    }
}

fn check_source(value: &Value, source: &Value, at: &mut String, issues: &mut Vec<Issue>) {
    let len = at.len();
    if source.as_str() != Some("entries") {
        issues.push(Issue::error(
            "unknown_source",
            [at.as_str(), "/$source"].concat(),
            "the only source is \"entries\"",
        ));
    }
    let invalid = |issues: &mut Vec<Issue>, at: &str, m: &str| {
        issues.push(Issue::error("invalid_query", at, m))
    };
    for key in value
        .as_object()
        .map(|m| m.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if key != "$source" && key != "query" {
            pointer::push(at, &key);
            invalid(
                issues,
                at,
                "a $source value has only \"$source\" and \"query\"",
            );
            at.truncate(len);
        }
    }
    let Some(query) = value.get("query").and_then(Value::as_object) else {
        let where_ = if value.get("query").is_some() {
            [at.as_str(), "/query"].concat()
        } else {
            at.clone()
        };
        invalid(
            issues,
            &where_,
            "a $source needs \"query\": {\"collection\", \"filter\"?, \"sort\"?, \"limit\"?}",
        );
        return;
    };
    at.push_str("/query");
    if query
        .get("collection")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        invalid(
            issues,
            at,
            "the query needs \"collection\", a collection name",
        );
    }
    for (key, v) in query {
        let here = at.len();
        pointer::push(at, key);
        let message = match key.as_str() {
            "collection" => None,
            "filter" => (!v.is_object()).then_some("\"filter\" is an object"),
            "sort" => {
                let ok = v
                    .as_str()
                    .is_some_and(|s| !s.strip_prefix('-').unwrap_or(s).is_empty());
                (!ok).then_some("\"sort\" is a field name, or - and a field name for descending")
            }
            "limit" => {
                let ok = v
                    .as_f64()
                    .is_some_and(|n| n.fract() == 0.0 && (1.0..=50.0).contains(&n));
                (!ok).then_some("\"limit\" is a whole number from 1 to 50")
            }
            _ => Some("a query has only collection, filter, sort and limit"),
        };
        if let Some(m) = message {
            invalid(issues, at, m);
        }
        at.truncate(here);
    }
    at.truncate(len);
}

/// Whether `data`, serialized compactly as UTF-8, is larger than
/// [`MAX_DATA_BYTES`] (`data_too_large`): the one measure of data size, for
/// whole surfaces and for each data line of a fence alike (a `Draft` keeps
/// a surface's and moves it by the size of what each data write changed).
/// Counts without serializing, and stops as soon as the limit is passed.
///
/// ```
/// use validator_wasm::surface::{data_too_large, MAX_DATA_BYTES};
/// let fits = serde_json::json!({"t": "x".repeat(MAX_DATA_BYTES - 8)});
/// assert_eq!(serde_json::to_vec(&fits).unwrap().len(), MAX_DATA_BYTES);
/// assert!(!data_too_large(&fits));
/// assert!(data_too_large(&serde_json::json!({"t": "x".repeat(MAX_DATA_BYTES - 7)})));
/// ```
pub fn data_too_large(data: &Value) -> bool {
    serialized_len_exceeds(data, MAX_DATA_BYTES)
}

/// The size of `value` serialized compactly (as serde_json writes it).
pub(crate) fn json_size(value: &Value) -> usize {
    surfaces_core::json::size(value, usize::MAX).unwrap_or(usize::MAX)
}

/// The size of an object member's key serialized, with its colon.
pub(crate) fn key_size(key: &str) -> usize {
    surfaces_core::json::string_size(key) + 1
}

/// Whether `value`, serialized compactly, is longer than `limit` bytes;
/// stops counting as soon as it is.
pub(crate) fn serialized_len_exceeds(value: &Value, limit: usize) -> bool {
    surfaces_core::json::size(value, limit).is_none()
}

/// Sorts issues by where their path points in `doc` (document order),
/// stably, so issues at one place keep the order they were found in.
pub(crate) fn sort_in_document_order(doc: &Value, issues: &mut Vec<Issue>) {
    sort_stably(issues, |i| position(doc, &i.path));
}

/// Sorts `issues` by `key`, stably. The one stable sort of the crate: it
/// sorts positions, whatever the key, so the WebAssembly module holds one
/// copy of the sort (each element type and comparison is another).
pub(crate) fn sort_stably(issues: &mut Vec<Issue>, key: impl Fn(&Issue) -> Vec<usize>) {
    if issues.len() >= 2 {
        let keys = issues.iter().map(key).collect();
        sort_by_keys(issues, keys);
    }
}

/// [`sort_stably`]'s sort, not generic (so compiled once).
fn sort_by_keys(issues: &mut Vec<Issue>, keys: Vec<Vec<usize>>) {
    let mut order: Vec<usize> = (0..issues.len()).collect();
    order.sort_by(|a, b| keys[*a].cmp(&keys[*b]));
    let mut taken: Vec<Option<Issue>> = core::mem::take(issues).into_iter().map(Some).collect();
    issues.extend(order.into_iter().filter_map(|i| taken[i].take()));
}

/// The position of `path` in `doc`: per segment, the array index or the
/// key's place in its object (past the end when absent).
fn position(doc: &Value, path: &str) -> Vec<usize> {
    let mut key = Vec::new();
    // A path without escapes is its text between slashes, read in place
    // (each segment `pointer::parse` gives is allocated: with the sort of
    // every issue of a surface, they were a third of a Draft's whole check).
    let parsed;
    let segments: Vec<&str> = match path.strip_prefix('/') {
        Some(rest) if !rest.bytes().any(|b| b == b'~') => {
            let mut segments = Vec::new();
            let mut start = 0;
            for (i, b) in rest.bytes().chain([b'/']).enumerate() {
                if b == b'/' {
                    segments.extend(rest.get(start..i));
                    start = i + 1;
                }
            }
            segments
        }
        _ => match pointer::parse(path) {
            Ok(s) => {
                parsed = s;
                parsed.iter().map(String::as_str).collect()
            }
            Err(_) => return vec![usize::MAX],
        },
    };
    if segments
        .iter()
        .any(|s| pointer::UNSAFE_SEGMENTS.contains(s))
    {
        return vec![usize::MAX];
    }
    let mut at = Some(doc);
    for &seg in &segments {
        let (place, next) = match at {
            // Large objects (data) are checked in their own order already.
            Some(Value::Object(map)) if map.len() > ORDERED_KEYS => (0, map.get(seg)),
            // The key's place and its value in one pass (a lookup by name
            // would hash the key).
            Some(Value::Object(map)) => {
                match map.iter().enumerate().find(|(_, (k, _))| *k == seg) {
                    Some((p, (_, v))) => (p, Some(v)),
                    None => (usize::MAX, None),
                }
            }
            Some(Value::Array(items)) => match pointer::array_index(seg) {
                Some(i) => (i, items.get(i)),
                None => (usize::MAX, None),
            },
            _ => (usize::MAX, None),
        };
        key.push(place);
        at = next;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn positions_read_plain_and_escaped_paths_alike() {
        let doc = json!({"a": {"b/c": [10, 20], "~d": 1, "constructor": 2}, "e": 3});
        let max = usize::MAX;
        for (path, key) in [
            ("", vec![]),
            ("/e", vec![1]),
            ("/a/b~1c/1", vec![0, 0, 1]),
            ("/a/~0d", vec![0, 1]),
            ("/a//", vec![0, max, max]),
            ("/zz/q", vec![max, max]),
            // Not a pointer, or one the pointer rules refuse.
            ("x", vec![max]),
            ("/a/constructor", vec![max]),
            ("/a/~2", vec![max]),
        ] {
            assert_eq!(position(&doc, path), key, "{path}");
        }
    }

    #[test]
    fn json_size_matches_serde_json() {
        for v in [
            json!(null),
            json!([]),
            json!({}),
            json!([
                true,
                false,
                null,
                1,
                0,
                -7,
                10,
                99,
                100,
                -2.5,
                1e300,
                0.1,
                1.5e-7,
                18446744073709551615u64,
                -9223372036854775808i64
            ]),
            json!({"a\"\\\n\u{1}\u{7f}é🙂": ["x", {"": {}}], "b": "\t\r\u{8}\u{c}\u{1f}"}),
        ] {
            // json_text is what Display writes, from one serializer.
            assert_eq!(json_text(&v), v.to_string());
            let exact = v.to_string().len();
            assert!(!serialized_len_exceeds(&v, exact), "{v}");
            assert!(serialized_len_exceeds(&v, exact - 1), "{v}");
        }
    }
}
