//! A draft re-checks only what an operation can change (one component's
//! props or visible, or the data alone); what it reports must equal a full
//! validation after every operation.

use serde_json::{json, Value};
use testkit::Rng;
use validator_wasm::pipeline::Draft;
use validator_wasm::{validate_surface, Catalog};

fn surface() -> Value {
    let mut components =
        vec![json!({"id": "root", "component": "Stack", "children": ["h", "b", "t", "f", "x"]})];
    components
        .push(json!({"id": "h", "component": "Heading", "props": {"text": {"path": "/title"}}}));
    components.push(json!({"id": "b", "component": "Button", "props": {"label": "Go", "onClick": {"action": "toggle", "path": "/open"}}}));
    components.push(json!({"id": "t", "component": "Toggle", "props": {"options": ["a", "b"], "value": {"path": "/plan"}}, "visible": {"path": "/open"}}));
    components.push(json!({"id": "f", "component": "TextField", "props": {"label": "E", "value": {"path": "/email"}}}));
    components.push(json!({"id": "x", "component": "Nope", "props": {"a": 1}}));
    json!({"id": "s", "kind": "surface", "components": components, "data": {"title": "T", "open": true, "plan": "a", "email": ""}})
}

fn random_value(rng: &mut Rng) -> Value {
    let values = [
        json!("text"),
        json!(""),
        json!(3),
        json!(9),
        json!({"path": "/title"}),
        json!({"path": "/missing"}),
        json!({"path": "/list/1"}),
        json!({"path": "/extra/nested"}),
        json!({"path": "/src/x"}),
        json!({"path": "nope"}),
        json!({"path": "/__proto__"}),
        json!({"call": "concat", "args": {"values": ["a", {"path": "/plan"}]}}),
        json!({"call": "eval", "args": {}}),
        json!({"eq": [{"path": "/plan"}, "b"]}),
        json!({"gte": [1, 2]}),
        json!({"action": "set", "path": "/plan", "value": "b"}),
        json!({"action": "navigate", "href": "javascript:x"}),
        json!([{"call": "email", "args": {"value": {"path": "/email"}}, "message": "m"}]),
        json!(true),
        json!(null),
        json!({"text": "x"}),
    ];
    values[rng.below(values.len())].clone()
}

/// An operation on the data alone: a bound value written, added or
/// removed, the whole data replaced (by an object or not), a `$source`
/// (valid or not), a value past the size limit.
fn data_op(rng: &mut Rng) -> Value {
    let keys = ["title", "open", "plan", "email", "extra", "src"];
    let key = keys[rng.below(keys.len())];
    let values = [
        json!("a"),
        json!(false),
        json!({"nested": 1}),
        json!({"$source": "entries", "query": {"collection": "posts", "limit": 5}}),
        json!({"$source": "rows", "query": {}}),
        json!({"query": {"collection": "posts"}}),
        json!("x".repeat(70_000)),
    ];
    let value = values[rng.below(values.len())].clone();
    let at = ["0", "1", "-"][rng.below(3)];
    match rng.below(10) {
        // A member's $source makes every path into it resolve.
        8 => json!({"op": "add", "path": "/data/src/$source", "value": "entries"}),
        9 => json!({"op": "remove", "path": "/data/src/$source"}),
        5 => json!({"op": "add", "path": "/data/list", "value": ["a"]}),
        6 => json!({"op": "add", "path": format!("/data/list/{at}"), "value": value}),
        7 => json!({"op": "remove", "path": "/data/list/0"}),
        0 => json!({"op": "remove", "path": format!("/data/{key}")}),
        1 => json!({"op": "replace", "path": "/data", "value": {"title": "T", key: value}}),
        2 => json!({"op": "replace", "path": "/data", "value": [1]}),
        3 => json!({"op": "replace", "path": format!("/data/{key}"), "value": value}),
        _ => json!({"op": "add", "path": format!("/data/{key}"), "value": value}),
    }
}

/// An operation on the components: one added (at the end, or before
/// others), taken away, linked into root's children, renamed, made another
/// kind, or a list of components that waits for a later one (held).
fn component_op(rng: &mut Rng, index: usize) -> Value {
    let ids = ["n1", "n2", "h", "t"];
    let id = ids[rng.below(ids.len())];
    let component =
        json!({"id": id, "component": "Heading", "props": {"text": {"path": "/title"}}});
    let at = ["-", "1", "3"][rng.below(3)];
    match rng.below(7) {
        0 => json!({"op": "add", "path": format!("/components/{at}"), "value": component}),
        1 => json!({"op": "remove", "path": format!("/components/{index}")}),
        2 => json!({"op": "add", "path": "/components/0/children/-", "value": id}),
        3 => json!({"op": "replace", "path": format!("/components/{index}/id"), "value": id}),
        4 => {
            json!({"op": "replace", "path": format!("/components/{index}/component"), "value": "Text"})
        }
        5 => json!({"op": "move", "from": format!("/components/{index}"), "path": "/components/-"}),
        _ => json!([
            {"op": "add", "path": "/components/-", "value": component},
            {"op": "add", "path": "/components/0/children/-", "value": id}
        ]),
    }
}

#[test]
fn incremental_checks_equal_full_validation() {
    let catalog = Catalog::default_blog();
    let keys = [
        "text", "level", "label", "onClick", "value", "options", "checks", "a", "href",
    ];
    for seed in 1..40u64 {
        let mut rng = Rng::new(seed * 0x9E37_79B9);
        let mut draft = Draft::new(surface());
        for _ in 0..40 {
            let index = 1 + rng.below(5);
            let op = match rng.below(11) {
                5 | 6 => data_op(&mut rng),
                7..=9 => component_op(&mut rng, index),
                0 => {
                    json!({"op": "replace", "path": format!("/components/{index}/visible"), "value": random_value(&mut rng)})
                }
                1 => {
                    json!({"op": "remove", "path": format!("/components/{index}/props/{}", keys[rng.below(keys.len())])})
                }
                2 => {
                    json!({"op": "replace", "path": format!("/components/{index}/props"), "value": {"text": random_value(&mut rng)}})
                }
                3 => json!({"op": "test", "path": format!("/components/{index}/id"), "value": "h"}),
                // One operation on the data and a component (checked
                // whole, the data's size and warnings found again): a
                // member moved into a prop, or the surface replaced whole.
                10 => match rng.below(3) {
                    0 => json!({"op": "replace", "path": "", "value": surface()}),
                    k => {
                        let key = ["title", "plan", "list"][rng.below(3)];
                        let from = format!("/data/{key}");
                        let to = format!("/components/{index}/props/text");
                        let name = ["move", "copy"][k - 1];
                        json!({"op": name, "from": from, "path": to})
                    }
                },
                _ => {
                    json!({"op": "add", "path": format!("/components/{index}/props/{}", keys[rng.below(keys.len())]), "value": random_value(&mut rng)})
                }
            };
            let ops = if op.is_array() {
                op.clone()
            } else {
                json!([op])
            };
            draft.apply(&ops, &catalog);
            let full = validate_surface(draft.document(), &catalog);
            assert_eq!(draft.issues(&catalog), full, "after {op}");
        }
    }
}

#[test]
fn refused_operations_leave_the_draft_unchanged() {
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(surface());
    let before = draft.document().clone();
    let report = draft.apply(
        &json!([
            {"op": "replace", "path": "/components/1/props/text", "value": {"path": "/__proto__"}},
            {"op": "replace", "path": "/components/2/props/onClick", "value": {"action": "navigate", "href": "javascript:x"}},
            {"op": "remove", "path": "/components/0"}
        ]),
        &catalog,
    );
    assert!(report.applied.is_empty(), "{report:?}");
    // Removing root waits for an operation that would add one back.
    assert_eq!(report.refused.len(), 2);
    assert_eq!(report.held, [2]);
    let refused = draft.settle(&catalog);
    assert_eq!(refused.len(), 1);
    assert_eq!(
        (refused[0].op, refused[0].path.as_str()),
        (2, "/components/0")
    );
    assert_eq!(draft.document(), &before);
}

#[test]
fn held_operations_wait_across_calls_until_the_round_settles() {
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(surface());
    let child = |id: &str| json!({"op": "add", "path": "/components/-", "value": {"id": id, "component": "Text", "props": {"text": id}}});
    let link = |id: &str| json!({"op": "add", "path": "/components/0/children/-", "value": id});
    // One step adds two components, the next links one of them.
    let step = draft.apply(&json!([child("p"), child("q")]), &catalog);
    assert_eq!((step.applied.len(), step.held.clone()), (0, vec![0, 1]));
    let step = draft.apply(&link("q"), &catalog);
    assert_eq!(step.applied, [1, 2], "the held q applies with its link");
    assert_eq!(step.held, [0]);
    // At most MAX_HELD wait; the fourth is refused at once.
    let step = draft.apply(&json!([child("r"), child("s"), child("t")]), &catalog);
    assert_eq!(step.held, [0, 3, 4]);
    assert_eq!(step.refused.iter().map(|r| r.op).collect::<Vec<_>>(), [5]);
    let refused = draft.settle(&catalog);
    assert_eq!(refused.iter().map(|r| r.op).collect::<Vec<_>>(), [0, 3, 4]);
    assert!(refused
        .iter()
        .all(|r| r.issues.iter().any(|i| i.code == "unreachable")));
    // A new round numbers from 0 again: r never came, so its link waits, then is refused.
    let step = draft.apply(&link("r"), &catalog);
    assert_eq!((step.applied.len(), step.held.clone()), (0, vec![0]));
    assert_eq!(draft.settle(&catalog)[0].op, 0);
    assert!(draft.settle(&catalog).is_empty());
    let ids: Vec<_> = draft.document()["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    assert_eq!(ids.last(), Some(&json!("q")));
}

#[test]
fn pages_keep_their_other_sections_checked() {
    let catalog = Catalog::default_blog();
    let mut draft =
        Draft::new(json!({"sections": [surface(), {"kind": "prose", "text": "x"}, surface()]}));
    let ops = json!([
        {"op": "add", "path": "/sections/2/components/1/props/level", "value": 9},
        {"op": "add", "path": "/sections/0", "value": {"kind": "prose", "text": "new first"}},
        {"op": "replace", "path": "/sections/1/components/5/props", "value": {}},
        {"op": "remove", "path": "/sections/3/data/title"},
        {"op": "add", "path": "/sections/1/data/extra", "value": {"$source": "rows"}}
    ]);
    let report = draft.apply(&ops, &catalog);
    assert_eq!(report.applied, [0, 1, 2, 3]);
    assert_eq!(report.refused.len(), 1, "an invalid $source is refused");
    // A component added to one section, then linked: held, then applied
    // with the link, the section's first components' parts reused.
    let heading = json!({"id": "n", "component": "Heading", "props": {"text": "New"}});
    let ops = json!([
        {"op": "add", "path": "/sections/3/components/-", "value": heading},
        {"op": "add", "path": "/sections/3/components/0/children/-", "value": "n"}
    ]);
    assert_eq!(draft.apply(&ops, &catalog).applied, [5, 6]);
    assert_page_checked(&mut draft, &catalog, "");
}

/// That the draft's issues are a full validation's of each surface section
/// of its page (`context` names the case).
fn assert_page_checked(draft: &mut Draft, catalog: &Catalog, context: impl std::fmt::Display) {
    let full = page_issues(draft.document(), catalog);
    assert_eq!(draft.issues(catalog), full, "{context}");
}

/// A full validation of each surface section of `page`, paths into it.
fn page_issues(page: &Value, catalog: &Catalog) -> Vec<validator_wasm::Issue> {
    let mut full = Vec::new();
    let sections = page["sections"].as_array().into_iter().flatten();
    for (i, section) in sections.enumerate() {
        if section["kind"] == "surface" {
            for mut issue in validate_surface(section, catalog) {
                issue.path = format!("/sections/{i}{}", issue.path);
                full.push(issue);
            }
        }
    }
    full
}

#[test]
fn a_group_that_moves_sections_reuses_nothing_of_the_sections_it_moved() {
    // Three held operations applied together: a section added first, a
    // link in what is then section 1 (the first section before), and the
    // component the new section names.
    let catalog = Catalog::default_blog();
    let orphan = json!({"id": "s0", "kind": "surface", "components": [
        {"id": "root", "component": "Stack", "children": []},
        {"id": "z", "component": "Heading", "props": {"text": "Z"}}]});
    let mut draft = Draft::new(json!({"sections": [orphan, surface()]}));
    draft.issues(&catalog);
    let new = json!({"id": "s9", "kind": "surface", "components": [
        {"id": "root", "component": "Stack", "children": ["w"]}]});
    let ops = json!([
        {"op": "add", "path": "/sections/0", "value": new},
        {"op": "add", "path": "/sections/1/components/0/children/-", "value": "z"},
        {"op": "add", "path": "/sections/0/components/-", "value": {"id": "w", "component": "Heading", "props": {"text": "W"}}}
    ]);
    assert_eq!(draft.apply(&ops, &catalog).applied, [0, 1, 2]);
    assert_page_checked(&mut draft, &catalog, "");
}

#[test]
fn a_group_reads_each_path_against_the_sections_the_operations_before_it_left() {
    // A section added first (held: it waits for its child), then that
    // child moved into it from what is then section 2, the second before:
    // that section loses an orphan and keeps the error it had (a second
    // root), which is not the group's.
    let catalog = Catalog::default_blog();
    let mut second = bad();
    let orphan = json!({"id": "w", "component": "Heading", "props": {"text": "W"}});
    second["components"].as_array_mut().unwrap().push(orphan);
    let mut draft = Draft::new(json!({"sections": [surface(), second]}));
    draft.issues(&catalog);
    let new = json!({"id": "s9", "kind": "surface", "components": [
        {"id": "root", "component": "Stack", "children": ["w"]}]});
    let ops = json!([
        {"op": "add", "path": "/sections/0", "value": new},
        {"op": "move", "from": "/sections/2/components/6", "path": "/sections/0/components/-"}
    ]);
    let before = draft.issues(&catalog);
    let report = draft.apply(&ops, &catalog);
    eprintln!("BEFORE {before:?}\nREPORT {report:?}");
    assert_eq!((report.applied, report.refused.len()), (vec![0, 1], 0));
    assert_page_checked(&mut draft, &catalog, "");
}

#[test]
fn the_sections_replaced_whole_reuse_nothing_of_the_surfaces_before() {
    // The same places, other components, other data: nothing the draft
    // knew of section 1 holds for what is there now.
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(json!({"sections": [surface(), surface()]}));
    draft.issues(&catalog);
    let mut other = surface();
    other["components"][1]["props"] = json!({"text": {"path": "/gone"}, "level": 9});
    other["data"] = json!({"plan": "a"});
    let op = json!({"op": "replace", "path": "/sections", "value": [surface(), other]});
    assert_eq!(draft.apply(&op, &catalog).applied, [0]);
    assert_page_checked(&mut draft, &catalog, "");
}

#[test]
fn a_held_replace_of_the_sections_reuses_nothing_of_the_section_it_replaced() {
    // The sections replaced whole, held for a child of the new section 1,
    // then completed by an operation in section 1: the group's check of
    // section 1 is of another surface than the one the draft knew.
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(json!({"sections": [surface(), surface()]}));
    draft.issues(&catalog);
    let mut other = surface();
    other["components"][0]["children"] = json!(["w"]);
    other["components"].as_array_mut().unwrap().truncate(1);
    other["components"][0]["props"] = json!({"gap": 99});
    let replace = json!({"op": "replace", "path": "/sections", "value": [surface(), other]});
    let child = json!({"id": "w", "component": "Heading", "props": {"text": "W"}});
    let add = json!({"op": "add", "path": "/sections/1/components/-", "value": child});
    let report = draft.apply(&json!([replace, add]), &catalog);
    assert_eq!(report.applied, [0, 1]);
    assert_page_checked(&mut draft, &catalog, "");
}

#[test]
fn sections_a_replace_adds_past_the_old_ones_are_checked() {
    // Page sections past the ones the draft had (none, or fewer after a
    // replace took some away) are checked as new ones: an error there
    // refuses the replace.
    let catalog = Catalog::default_blog();
    let bad = bad();
    for start in [json!([]), json!([surface(), surface(), surface()])] {
        let mut draft = Draft::new(json!({ "sections": start }));
        draft.issues(&catalog);
        let fewer = json!({"op": "replace", "path": "/sections", "value": [surface()]});
        assert_eq!(draft.apply(&fewer, &catalog).applied, [0]);
        let more =
            json!({"op": "replace", "path": "/sections", "value": [surface(), surface(), bad]});
        let report = draft.apply(&more, &catalog);
        assert_eq!(report.refused.len(), 1, "{start}");
        assert_page_checked(&mut draft, &catalog, "");
    }
}

#[test]
fn components_added_to_a_page_make_a_surface_that_is_checked() {
    // A page with components is a surface (one of a component that is no
    // object, here): the operation brings in errors and is refused.
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(json!({"sections": [surface()]}));
    draft.issues(&catalog);
    let op = json!({"op": "add", "path": "/components", "value": [1]});
    assert_eq!(draft.apply(&op, &catalog).refused.len(), 1);
    assert_page_checked(&mut draft, &catalog, "");
}

/// A surface with an error of its own: a second component named root.
fn bad() -> Value {
    let mut bad = surface();
    bad["components"][1]["id"] = json!("root");
    bad
}

#[test]
fn sections_moved_by_an_operation_are_held_to_what_they_were() {
    // Each operation leaves the bad section's error as it was: applied.
    let catalog = Catalog::default_blog();
    let ops = [
        json!({"op": "remove", "path": "/sections/0"}),
        json!({"op": "add", "path": "/sections/0", "value": surface()}),
        json!({"op": "add", "path": "/sections/1", "value": surface()}),
        json!({"op": "copy", "from": "/sections/1/id", "path": "/sections/0/data/copied"}),
    ];
    for op in ops {
        let mut draft = Draft::new(json!({"sections": [surface(), bad()]}));
        draft.issues(&catalog);
        assert_eq!(draft.apply(&op, &catalog).applied, [0], "{op}");
        assert_page_checked(&mut draft, &catalog, &op);
    }
}

#[test]
fn a_page_and_a_surface_that_become_one_another_are_checked() {
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(json!({"sections": [surface()]}));
    draft.issues(&catalog);
    let op = json!({"op": "replace", "path": "", "value": bad()});
    assert_eq!(
        draft.apply(&op, &catalog).refused.len(),
        1,
        "page to surface"
    );
    let mut draft = Draft::new(surface());
    draft.issues(&catalog);
    let op = json!({"op": "replace", "path": "", "value": {"sections": [bad()]}});
    assert_eq!(
        draft.apply(&op, &catalog).refused.len(),
        1,
        "surface to page"
    );
}

#[test]
fn a_section_that_is_no_longer_a_surface_has_no_issues() {
    let catalog = Catalog::default_blog();
    let mut draft = Draft::new(json!({"sections": [surface(), surface()]}));
    assert!(!draft.issues(&catalog).is_empty());
    let op = json!({"op": "replace", "path": "/sections/1/kind", "value": "prose"});
    assert_eq!(draft.apply(&op, &catalog).applied, [0]);
    assert_page_checked(&mut draft, &catalog, "");
}

#[test]
fn a_prop_of_a_component_of_many_keys_orders_its_issues_as_a_full_check() {
    // Past 32 keys the sort by position does not order a component's keys.
    let catalog = Catalog::default_blog();
    let mut doc = surface();
    let heading = doc["components"][1].as_object_mut().unwrap();
    heading.insert("children".into(), json!(["nowhere"]));
    for k in 0..32 {
        heading.insert(format!("x{k}"), json!(k));
    }
    let mut draft = Draft::new(doc);
    draft.issues(&catalog);
    let op = json!({"op": "replace", "path": "/components/1/props/text", "value": 7});
    draft.apply(&op, &catalog);
    assert_eq!(
        draft.issues(&catalog),
        validate_surface(draft.document(), &catalog)
    );
}

#[test]
fn a_members_source_written_alone_resolves_the_paths_into_it_again() {
    let catalog = Catalog::default_blog();
    let mut doc = surface();
    doc["components"][1]["props"]["text"] = json!({"path": "/src/0/title"});
    doc["data"]["src"] = json!({"query": {"collection": "posts"}});
    let mut draft = Draft::new(doc);
    let missing = |draft: &mut Draft| {
        let issues = draft.issues(&catalog);
        assert_eq!(issues, validate_surface(draft.document(), &catalog));
        issues.iter().any(|i| i.code == "missing_data")
    };
    assert!(missing(&mut draft), "no $source: the path does not resolve");
    let add = json!({"op": "add", "path": "/data/src/$source", "value": "entries"});
    assert_eq!(draft.apply(&add, &catalog).applied.len(), 1);
    assert!(
        !missing(&mut draft),
        "a $source resolves every path into it"
    );
    let remove = json!({"op": "remove", "path": "/data/src/$source"});
    assert_eq!(draft.apply(&remove, &catalog).applied.len(), 1);
    assert!(missing(&mut draft));
}

/// An error already in the draft does not block edits elsewhere, even one
/// that moves or removes another component and so shifts the erring
/// component's place in the list (its error is the same error).
#[test]
fn an_error_already_there_does_not_block_moving_or_removing_another_component() {
    let catalog = Catalog::default_blog();
    let doc = json!({"components": [
        {"id": "root", "component": "Stack", "children": ["a", "b"]},
        {"id": "a", "component": "Text", "props": {"text": "A"}},
        {"id": "b", "component": "Text", "props": {"text": {"path": "no-slash"}}}
    ]});
    assert!(validate_surface(&doc, &catalog)
        .iter()
        .any(|i| i.code == "invalid_pointer"));
    let mut draft = Draft::new(doc.clone());
    let moved = draft.apply(
        &json!([{"op": "move", "from": "/components/2", "path": "/components/1"}]),
        &catalog,
    );
    assert_eq!(moved.applied, [0], "{:?}", moved.refused);
    let mut draft = Draft::new(doc);
    let removed = draft.apply(
        &json!([{"op": "remove", "path": "/components/0/children/0"}, {"op": "remove", "path": "/components/1"}]),
        &catalog,
    );
    assert_eq!(removed.applied.len(), 2, "{:?}", removed.refused);
    // A new error of the same kind on the same component is still refused.
    let worse = draft.apply(
        &json!({"op": "add", "path": "/components/1/visible", "value": {"path": "also-bad"}}),
        &catalog,
    );
    assert_eq!(worse.refused.len(), 1);
}
