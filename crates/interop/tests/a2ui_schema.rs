//! `to_a2ui`'s messages are accepted by A2UI's own JSON Schemas
//! (v0.9's `server_to_client.json`, v1.0's `agent_to_renderer.json`, with
//! the basic catalog,
//! vendored under `tests/conformance/`), for every basic-catalog example
//! converted to a surface and for the validator's fixture surfaces.

mod common;

use common::fixture_surfaces;
use interop::{from_a2ui_value, to_a2ui, Version};
use jsonschema::Registry;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

fn read(path: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

/// The message schema of a version, its references resolved offline: the
/// basic catalog stands for the `catalog.json` the schema names.
/// The message schema and the component schema (`anyComponent`, to name
/// the component a message fails by).
fn message_schema(
    folder: &str,
    version: &str,
    file: &str,
) -> (jsonschema::Validator, jsonschema::Validator) {
    let dir = conformance()
        .join(folder)
        .join("specification")
        .join(version);
    let base = ["https://a2ui.org/specification/", version, "/"].concat();
    let catalog = read(&dir.join("catalogs/basic/catalog.json"));
    let registry = Registry::new()
        .add(
            [base.as_str(), "common_types.json"].concat(),
            read(&dir.join("json/common_types.json")),
        )
        .and_then(|r| r.add([base.as_str(), "catalog.json"].concat(), catalog.clone()))
        .and_then(|r| {
            r.add(
                [base.as_str(), "catalogs/basic/catalog.json"].concat(),
                catalog,
            )
        })
        .and_then(|r| r.prepare())
        .unwrap_or_else(|e| panic!("{version}: {e}"));
    let schema = read(&dir.join("json").join(file));
    let build = |schema: &Value| {
        jsonschema::options()
            .with_registry(&registry)
            .build(schema)
            .unwrap_or_else(|e| panic!("{version}: {e}"))
    };
    let any = [base.as_str(), "catalog.json#/$defs/anyComponent"].concat();
    let component = serde_json::json!({ "$ref": any });
    (build(&schema), build(&component))
}

fn examples(folder: &str, version: &str) -> Vec<(PathBuf, Value)> {
    let dir = conformance()
        .join(folder)
        .join("specification")
        .join(version)
        .join("catalogs/basic/examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.clone(), read(&p))).collect()
}

#[test]
fn exported_messages_pass_a2ui_s_schemas() {
    let schemas = [
        (
            Version::V09,
            message_schema("a2ui-v0.9", "v0_9", "server_to_client.json"),
        ),
        (
            Version::V10,
            message_schema("a2ui-v1", "v1_0", "agent_to_renderer.json"),
        ),
    ];
    let mut surfaces = Vec::new();
    let mut examples_valid = Vec::new();
    for (folder, version) in [("a2ui-v0.9", "v0_9"), ("a2ui-v1", "v1_0")] {
        for (file, example) in examples(folder, version) {
            // The examples pass too (the schemas are read right), but for
            // the few calling functions of other catalogs.
            let (_, (schema, _)) = &schemas[usize::from(folder == "a2ui-v1")];
            for message in example["messages"].as_array().unwrap() {
                examples_valid.push(schema.is_valid(message));
            }
            let result = from_a2ui_value(&example);
            surfaces.extend(result.surfaces.into_iter().map(|s| (file.clone(), s)));
        }
    }
    let valid = examples_valid.iter().filter(|v| **v).count();
    assert!(
        valid * 10 >= examples_valid.len() * 9,
        "{valid} of {} example messages pass",
        examples_valid.len()
    );
    let fixtures = fixture_surfaces()
        .into_iter()
        .map(|(name, s)| (PathBuf::from(name), s));
    surfaces.extend(fixtures);
    let mut checked = 0;
    for (file, surface) in &surfaces {
        for (version, (schema, component)) in &schemas {
            for message in to_a2ui(surface, *version).messages {
                let list = message
                    .pointer("/updateComponents/components")
                    .and_then(Value::as_array);
                let bad: Vec<&Value> = list
                    .into_iter()
                    .flatten()
                    .filter(|c| !component.is_valid(c))
                    .collect();
                assert!(bad.is_empty(), "{} ({version:?}): {bad:#?}", file.display());
                assert!(
                    schema.is_valid(&message),
                    "{} ({version:?}): {message:#}",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} messages");
}
