//! Random surfaces of components with a basic-catalog equivalent: each
//! goes to A2UI (v0.9 and v1.0) and back keeping every component's id,
//! children and bindings and the data, and to json-render and back whole.

mod common;

use common::{kept, normalized};
use interop::json_render::{from_json_render, to_json_render};
use interop::{from_a2ui_value, to_a2ui, Version};
use serde_json::{json, Map, Value};
use testkit::Rng;
use validator_wasm::{validate_surface, Catalog};

const CONTAINERS: [&str; 7] = ["Stack", "Row", "Card", "Grid", "Columns", "Band", "Tabs"];

fn text(rng: &mut Rng, data: &mut Map<String, Value>, n: usize) -> Value {
    if rng.below(2) == 0 {
        let key = ["k", &n.to_string()].concat();
        data.insert(key.clone(), json!(["value ", &n.to_string()].concat()));
        json!({ "path": format!("/{key}") })
    } else {
        json!(["text ", &n.to_string()].concat())
    }
}

fn leaf(rng: &mut Rng, data: &mut Map<String, Value>, n: usize) -> (&'static str, Value) {
    let key = ["v", &n.to_string()].concat();
    let bound = json!({ "path": format!("/{key}") });
    match rng.below(8) {
        0 => (
            "Heading",
            json!({"level": 1 + rng.below(5), "text": text(rng, data, n)}),
        ),
        1 => ("Text", json!({"text": text(rng, data, n)})),
        2 => {
            data.insert(key, json!(false));
            (
                "Button",
                json!({"label": text(rng, data, n), "onClick": {"action": "toggle", "path": bound["path"]}}),
            )
        }
        3 => {
            data.insert(key, json!("a"));
            ("Toggle", json!({"options": ["a", "b"], "value": bound}))
        }
        4 => {
            data.insert(key, json!(3));
            (
                "Slider",
                json!({"label": "Amount", "min": 0, "max": 10, "value": bound}),
            )
        }
        5 => {
            data.insert(key, json!(""));
            ("TextField", json!({"label": "Name", "value": bound}))
        }
        6 => {
            data.insert(key, json!(true));
            ("Checkbox", json!({"label": "Agree", "checked": bound}))
        }
        _ => ("Divider", json!({})),
    }
}

fn random_surface(rng: &mut Rng) -> Value {
    let mut data = Map::new();
    // (id, component, props, children, depth)
    let mut nodes: Vec<(String, &str, Value, Vec<String>, usize)> =
        vec![("root".into(), "Stack", json!({}), Vec::new(), 1)];
    for n in 1..2 + rng.below(30) {
        let containers: Vec<usize> = (0..nodes.len())
            .filter(|&i| CONTAINERS.contains(&nodes[i].1) && nodes[i].4 < 6)
            .collect();
        let parent = containers[rng.below(containers.len())];
        let id = ["c", &n.to_string()].concat();
        let depth = nodes[parent].4 + 1;
        let (name, props) = if nodes[parent].1 == "Tabs" {
            ("TabPanel", json!({ "label": format!("Tab {n}") }))
        } else if rng.below(3) == 0 {
            (rng.pick(&CONTAINERS), json!({}))
        } else {
            leaf(rng, &mut data, n)
        };
        nodes[parent].3.push(id.clone());
        nodes.push((id, name, props, Vec::new(), depth));
    }
    let components: Vec<Value> = nodes
        .into_iter()
        .map(|(id, name, props, children, _)| {
            let mut c = json!({"id": id, "component": name});
            if props != json!({}) {
                c["props"] = props;
            }
            if !children.is_empty() || CONTAINERS.contains(&name) || name == "TabPanel" {
                c["children"] = json!(children);
            }
            c
        })
        .collect();
    json!({"id": "random", "kind": "surface", "catalog": "blog@1", "components": components, "data": data})
}

#[test]
fn random_surfaces_survive_both_round_trips() {
    let catalog = Catalog::default_blog();
    let mut rng = Rng::new(14);
    let mut checked = 0;
    for round in 0..300 {
        let surface = random_surface(&mut rng);
        let issues = validate_surface(&surface, &catalog);
        assert!(
            issues.iter().all(|i| !i.is_error()),
            "{round}: {issues:?}\n{surface:#}"
        );
        for version in [Version::V09, Version::V10] {
            let messages = Value::Array(to_a2ui(&surface, version).messages);
            let back = from_a2ui_value(&messages);
            let again = &back.surfaces[0];
            assert_eq!(again["data"], surface["data"], "{round}");
            for component in surface["components"].as_array().unwrap() {
                let twin = again["components"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["id"] == component["id"]);
                let twin = twin.unwrap_or_else(|| {
                    panic!(
                        "{round} ({version:?}): {} lost\n{surface:#}",
                        component["id"]
                    )
                });
                assert_eq!(
                    kept(twin),
                    kept(component),
                    "{round} ({version:?})\n{surface:#}\n{messages:#}"
                );
                checked += 1;
            }
            let issues = validate_surface(again, &catalog);
            assert!(issues.iter().all(|i| !i.is_error()), "{round}: {issues:?}");
        }
        let spec = to_json_render(&surface);
        assert_eq!(spec.notes, []);
        let back = from_json_render(&spec.spec);
        assert_eq!(back.notes, []);
        let list = |s: &Value| {
            s["components"]
                .as_array()
                .unwrap()
                .iter()
                .map(normalized)
                .collect::<Vec<_>>()
        };
        assert_eq!(list(&back.surface), list(&surface), "{round}");
    }
    assert!(checked > 3000, "{checked}");
}
