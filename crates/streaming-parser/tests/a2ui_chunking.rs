//! The A2UI reader's document does not depend on where the text was cut,
//! also when a message is refused or the text stops inside one (`a2ui`
//! fuzz property seeds 39, 40 and 73, and the fuzz finding
//! `never-completed-message-shows-in-chunks`).

use testkit::properties::a2ui;

const START: &str =
    r#"<a2ui-json>[{"version": "v0.9", "createSurface": {"catalogId": "c", "surfaceId": "s1"}},"#;

#[test]
fn a_cycle_withdraws_what_its_message_showed_while_streaming() {
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Card", "child": "child"}]}},"#,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "child", "component": "Card", "child": "root"}]}}"#,
        ]
        .concat()
        .as_bytes(),
    );
}

#[test]
fn a_self_reference_withdraws_the_root_it_showed() {
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Card", "child": "root"}]}}"#,
        ]
        .concat()
        .as_bytes(),
    );
}

#[test]
fn a_cut_object_never_hides_a_component_shown_before() {
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Column", "children": ["list"]},{"id": "list", "component": "List", "direction": "vertical", "children": {"#,
        ]
        .concat()
        .as_bytes(),
    );
}

#[test]
fn a_text_ending_inside_a_message_leaves_one_reading_of_all_of_it() {
    // The root shows while its message streams, then its text opens an
    // object and the text ends: read whole, the root never shows.
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Text", "text": {"path": "#,
        ]
        .concat()
        .as_bytes(),
    );
    // A message that stops reading as JSON (a key left open) and never ends.
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Container", "children": ["c1", "c2"]}, {"id": "c1", "component": "Text", "text, "x": {"path": "/p1"}}"#,
        ]
        .concat()
        .as_bytes(),
    );
}

#[test]
fn a_cycle_only_a_reading_shows_stops_nothing() {
    // Read in pieces, the root lists itself; read whole, the message is no
    // JSON at all. It never completes: nothing is refused either way.
    a2ui(
        [
            START,
            r#"{"version": "v0.9", "updateComponents": {"surfaceId": "s1", "components": [{"id": "root", "component": "Container", "children": ["c1", "root", {"id".: "c1"}"#,
        ]
        .concat()
        .as_bytes(),
    );
}
