//! Interop: A2UI (v0.9 and v1.0) and json-render to and from surfaces
//! (SPEC.md section 14).
//!
//! Every conversion is deterministic and never silent: what has no
//! equivalent is left out and listed as a [`Note`] `{code, path, message}`,
//! `path` a JSON Pointer into the input. The surfaces made are plain
//! `serde_json::Value` documents, checked by the validator's own rules
//! (`validator_wasm::validate_surface`); nothing here reads a surface a
//! second way.
//!
//! ```
//! use interop::{from_a2ui, to_a2ui, Version};
//! use serde_json::json;
//!
//! let answer = r#"[
//!   {"version": "v0.9", "createSurface": {"surfaceId": "hello",
//!     "catalogId": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},
//!   {"version": "v0.9", "updateComponents": {"surfaceId": "hello", "components": [
//!     {"id": "root", "component": "Column", "children": ["title", "icon"]},
//!     {"id": "title", "component": "Text", "text": {"path": "/title"}, "variant": "h2"},
//!     {"id": "icon", "component": "Icon", "name": "star"}]}},
//!   {"version": "v0.9", "updateDataModel": {"surfaceId": "hello", "path": "/title", "value": "Hi"}}
//! ]"#;
//! let result = from_a2ui(answer);
//! let surface = &result.surfaces[0];
//! assert_eq!(surface["components"][1],
//!     json!({"id": "title", "component": "Heading", "props": {"level": 2, "text": {"path": "/title"}}}));
//! assert_eq!(surface["data"], json!({"title": "Hi"}));
//! // The Icon has no equivalent: left out, and said so.
//! assert_eq!(result.notes[0].code, "no_equivalent");
//! assert_eq!(result.notes[0].path, "/1/updateComponents/components/2");
//!
//! // And back, as v1.0 basic-catalog messages (v1.0 writes a heading's
//! // level as markdown).
//! let back = to_a2ui(surface, Version::V10);
//! assert_eq!(back.messages[1]["updateComponents"]["components"][1]["text"],
//!     json!({"call": "formatString", "args": {"value": "## ${/title}"}}));
//! ```
//!
//! # From A2UI
//!
//! The input is read as a list of messages: a JSON list (or A2UI's
//! `{"messages": [...]}` wrapper, or one message), JSON Lines (the
//! streaming parser's tolerant reader), or an answer with `<a2ui-json>`
//! blocks (the streaming parser's `parse_full`). A message's pointer is its
//! position in that list (`/3`, or `/messages/3`). Each message is read by
//! its own `version` (`v0.9`, `v0.9.1`, `v1.0`) and applied in order, whole
//! or not at all: a message that is not A2UI (`not_a2ui`), of another
//! version (`unknown_version`), malformed (`invalid_message`), for a surface
//! not created (`unknown_surface`) or created twice (`duplicate_surface`),
//! closing a component cycle (`cycle`, at the first of its components on
//! the cycle) or writing data at a prototype path or key (`unsafe_path`) is
//! refused, and the next message is read. Later components replace earlier
//! ones by id; a data update writes its value at its path (the whole data at
//! `/`), creating objects on the way (a list before a position such as
//! `/items/0`), and a missing (v0.9) or `null` (v1.0) value removes the key
//! (a path that is not there changes nothing); writing through a string or
//! a number is refused (`invalid_message`). `deleteSurface` removes the
//! surface (one never created: nothing). Function-call envelopes change no
//! surface and are noted (`no_equivalent`).
//!
//! Each surface left is then walked from `root`, each component converted
//! once, a parent before its children: Text variants h1 to h5 (and text
//! starting with markdown's `#` to `######`, v1.0's way) become Heading,
//! caption a `small` Text; Column and List become Stack, Row stays Row
//! (`spaceBetween` is `between`); Card stays Card; Tabs become Tabs with a
//! TabPanel per tab; Modal becomes Disclosure (the trigger's text its
//! summary); a Button takes its Text child as its label, an event naming
//! one of our actions (`set`, `toggle`, ...) as that action, `openUrl` with
//! a safe href as `href`; ChoicePicker becomes Toggle (2 to 8 exclusive
//! options) or Select; Slider, Divider, TextField (TextArea for long text)
//! and CheckBox have their equivalents. Template children are expanded
//! once from the data, each copy's ids ending with its index and its
//! relative paths made absolute (`@index` becomes the index). Functions are
//! renamed to ours (`formatString` with plain `${/path}` becomes `concat`);
//! others are left out. Components of another catalog keep their name and
//! props (the validator flags them). Ids are made to match our id rule
//! (`renamed_id`). What is left out is noted: `no_equivalent` (Image, Icon,
//! Video, AudioPlayer, DateTimeInput), `prop_dropped`, `arg_dropped`,
//! `unsupported_function`, `check_dropped`, `event_dropped` (server events),
//! `unsafe_href`, `no_label`, `missing_child`, `shared_child`,
//! `not_reachable`, `too_deep`, `too_many_components` (past 1,000, as
//! nested templates multiply), and `template_expanded`; what is kept in
//! another shape, `value_shape` (a ChoicePicker's list of selections, a
//! Toggle's one value).
//!
//! # To A2UI
//!
//! [`to_a2ui`] writes `createSurface`, `updateComponents` and (with data)
//! `updateDataModel` (`path` `/`) for the basic catalog of the version
//! asked, walking our surface from `root`. Stack, Band, Accordion, Carousel,
//! Form and a TabPanel become Column; Row, Grid and Columns Row; Card keeps
//! one child, or its children in a Column `<id>-body` (read back as the
//! Card's children); Heading becomes Text (v0.9: variant `h1` to `h5`;
//! v1.0: the text after `#` to `######`); Markdown and Badge Text; Stat,
//! Quote, List, Disclosure and AccordionItem a Column of Text (ids
//! `<id>-<prop>`, a Disclosure's children after its summary); Tabs keep a
//! tab per TabPanel (the panel a Column of its id, read back as that
//! panel); Toggle and Select a ChoicePicker; a Button (and a Link) a
//! Button with a Text child `<id>-label` and one action: an event named
//! after our action, its fields the context, or `openUrl` for `navigate`
//! and `href` (without either, the event `click`). Functions go back to A2UI's names (`concat` as
//! `formatString`). Left out and noted: `visible`, Image, Icon, Video,
//! Spacer, Table, Chart, Counter, the registry blocks (`no_equivalent`),
//! props without an equivalent (`prop_dropped`). So a surface taken to
//! A2UI and back keeps every component with a basic-catalog equivalent,
//! with its id, children, bindings and data.
//!
//! # Streaming import
//!
//! [`A2uiImport`] takes the messages as they arrive (values, or their text
//! in any chunking) and gives, after each push, the RFC 6902 operations
//! that bring one surface document up to date, for a `Draft` to repair,
//! validate and apply: the whole surface once it has a `root`, then what
//! changed (a data member, a component; the component list whole when the
//! tree changed, so that no operation leaves a child undefined). The
//! operations of every push, applied in order, build [`from_a2ui`]'s
//! surface of the whole; `surfaces stream --mode a2ui --ops` prints them.
//!
//! # json-render
//!
//! [`json_render::from_json_render`] and [`json_render::to_json_render`]
//! convert a json-render spec `{root, elements, state?}`: elements are
//! components of their `type` (the root's key becomes `root`), `$state`
//! paths `{path}` bindings, `visible` our conditions (`neq` is `ne`, `gte`
//! `not lt`, `lte` `not gt`), `state` `data`; the module says the rest.
//! [`json_render::JsonRenderImport`] reads json-render's SpecStream (JSON
//! Lines of operations on a spec) into operations on the surface, as
//! [`A2uiImport`] does for A2UI.

pub mod a2ui;
mod ids;
pub mod json_render;
pub mod note;
mod shown;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use a2ui::{from_a2ui, from_a2ui_value, to_a2ui, A2uiImport, FromA2ui, ToA2ui, Version};
pub use note::{notes_json, Note};

/// Gives each required prop of component `name` (in the built-in catalog)
/// that the conversion has no value for a `null`, which the validator flags
/// as it would flag the prop missing. Absent, a `Draft` fed the conversion's
/// operations would fill it from the catalog's example (`fill_required`),
/// writing text the agent never sent into its surface.
fn required_as_null(name: &str, props: &mut serde_json::Map<String, serde_json::Value>) {
    let catalog = validator_wasm::Catalog::builtin();
    let required = catalog.entry(name).and_then(|e| e.props.get("required"));
    for key in required.and_then(|r| r.as_array()).into_iter().flatten() {
        if let Some(key) = key.as_str().filter(|k| !props.contains_key(*k)) {
            props.insert(key.into(), serde_json::Value::Null);
        }
    }
}

/// Whether `name` is one of our actions (the validator's list).
fn is_action(name: &str) -> bool {
    validator_wasm::action::ACTIONS
        .iter()
        .any(|(action, _, _)| *action == name)
}
