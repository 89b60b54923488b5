//! A2UI's core conformance suites for validators, message processors and
//! data models (`conformance/core/validator_v0_9.yaml`,
//! `validator_v1_0.yaml`, `message_processor_v0_9.yaml`,
//! `message_processor_v1_0.yaml`, `data_model.yaml`,
//! `data_model_pointers.yaml`, `expressions.yaml`, `functions.yaml`), vendored
//! unchanged in `tests/conformance/a2ui-v1/conformance/core/`, run against
//! the A2UI reader (`src/a2ui/messages.rs`, compiled into this test as
//! `messages`: the crate keeps the module private).
//!
//! A case is a list of steps (or, without `steps`, one step of its own
//! `messages`, `expectError` and `expect`), read in order. Each step's
//! messages are read after the messages of the steps before it that
//! expected no error (a refused step changes nothing, as in A2UI), through
//! [`interop::from_a2ui_value`], and the step's notes are those pointing
//! into its own messages:
//!
//! - a step expecting an error passes when one of its notes has the code
//!   [`KINDS`] gives for the reference's error (matched by its message, its
//!   details' path and code, or, when it has neither, the case's name: the
//!   reference's wording is not ours, its verdict and kind are);
//! - a step expecting none passes when none of its notes is a refusal
//!   ([`REFUSALS`]; in `strictMode` also [`TOPOLOGY`], A2UI's strict rules
//!   that our reader leaves to the import's notes, as a stream may send a
//!   parent before its children);
//! - an `expect` is compared with the model the messages built: `exists`,
//!   `dataModel` (equal), and `components` (a list: the surface's ids in
//!   order, each with the properties listed; a map: each id with the
//!   properties listed). `sendDataModel` and `theme` are not held by our
//!   model ([`NOT_HELD`]) and not compared.
//!
//! A data-model case (`action: data_model`) is read by [`run_data_model`],
//! an expression template (`parse_expression_template`) by
//! [`run_expression`], a function (`evaluate_function`) by
//! [`run_function`].
//!
//! Every case runs and passes except those each suite lists with their
//! reason (rules A2UI has and we do not, by design); the test fails if any
//! other case fails, if the count of passing cases changes, or if a listed
//! case is not in its suite. Run with `--nocapture` to see the counts.

use interop::a2ui::messages::{self, Model};
use serde_json::{json, Map, Value};
use std::path::Path;
use surfaces_core::function::{self, PlainHost};
use surfaces_core::pointer;

/// The reference's errors as our notes' codes: the first row whose text is
/// in the error (its message, details, or the case's name) gives the code.
/// The topology rows are the import's notes: our reader keeps a message
/// whose children are missing or whose components are not (yet) under
/// `root`, and the conversion notes them.
const KINDS: &[(&str, &str)] = &[
    // ValidationError: the envelope.
    ("messages.0.version missing_field", "unknown_version"),
    ("Missing required version field", "unknown_version"),
    ("Unsupported protocol version", "unknown_version"),
    ("surfaceId type_mismatch", "invalid_message"),
    ("surfaceId must be a string", "invalid_message"),
    ("catalogId missing_field", "invalid_message"),
    ("multiple conflicting update actions", "not_a2ui"),
    ("multiple_action_envelope", "not_a2ui"),
    ("is not supported in protocol version", "not_a2ui"),
    ("invalid_json_pointer", "invalid_pointer"),
    ("metadata", "invalid_message"),
    // ValidationError: the components.
    ("missing an 'id'", "invalid_message"),
    ("without a type", "invalid_message"),
    ("catalog_id_errors", "invalid_message"),
    ("catalogId", "invalid_message"),
    // IntegrityError.
    ("already exists", "duplicate_surface"),
    ("Surface not found", "unknown_surface"),
    ("on_deleted_surface", "unknown_surface"),
    ("duplicate_component_ids", "invalid_message"),
    ("topology_cycle", "cycle"),
    // ValidationError: topology.
    ("Circular", "cycle"),
    ("Self-reference", "cycle"),
    ("Dangling reference", "missing_child"),
    ("not reachable", "not_reachable"),
    ("Orphaned component", "not_reachable"),
    // No root: no component is reachable.
    ("Missing root component", "not_reachable"),
    // DataError.
    ("Cannot set path", "invalid_message"),
    ("non-numeric segment", "invalid_message"),
    // ParseError: a template's syntax.
    ("Unclosed interpolation", "unsupported_function"),
    ("Invalid number literal", "unsupported_function"),
];

/// The notes that refuse a message.
const REFUSALS: &[&str] = &[
    "not_a2ui",
    "unknown_version",
    "invalid_message",
    "invalid_pointer",
    "unknown_surface",
    "duplicate_surface",
    "cycle",
    "unsafe_path",
];

/// The import's notes that are errors under A2UI's `strictMode`.
const TOPOLOGY: &[&str] = &["missing_child", "not_reachable"];

/// What a surface's expectation may name that our model does not hold.
const NOT_HELD: &[&str] = &["sendDataModel", "theme"];

const CATALOG_SCHEMA: &str = "catalog schemas: A2UI checks each component's properties \
(types, enums, required and unknown ones, unknown components) and each function's name and \
arguments against its catalog's JSON Schema; we keep components as given and our validator \
checks the converted surface against our catalog";
const CATALOG_REGISTRY: &str = "catalog registry: A2UI refuses a catalogId its renderer did \
not register (or of another protocol version), and a component or call without one on a \
surface without a default; we read any catalogId and keep the components, which the \
validator flags after conversion";
const THEME: &str = "themes: A2UI checks createSurface's theme against the catalog's theme \
schema; our surfaces hold no theme";
const DEPTH: &str = "nesting limits: A2UI refuses more than 5 nested function calls and \
values nested past 50 levels; our reader has none (SPEC.md section 3 bounds our calls at 4 \
levels, checked after conversion, and the import leaves out components nested past 64 levels, \
too_deep)";
const UAX31: &str = "component ids as UAX #31 identifiers: a rule of A2UI's reference \
validator (v1.0's JSON Schema has none); we rewrite ids to our own rule (renamed_id)";
const RENDERER: &str = "a renderer's API (capabilities, the data model sent back with \
sendDataModel, resolving a relative path against a context): not a reader's; our import \
makes template-relative paths absolute as it expands them";

const OBSERVERS: &str = "observers: a renderer's data model notifies who watches a path; \
ours has no subscribers (the streaming import gives the RFC 6902 operations of each update)";
const TRAILING_SLASH: &str = "a trailing slash: A2UI reads /foo/ as /foo; RFC 6901, which \
our pointers follow, reads it as the key \"\" under foo";

const EXPRESSIONS: &str = "A2UI's expression language in ${...} beyond paths (quoted \
strings, function calls, nested interpolation, and their syntax errors): our reading of \
formatString converts text, plain paths and number and boolean literals, and leaves any other \
expression out with unsupported_function";

const RENDERED: &str = "a renderer's evaluated props: A2UI's processor gives a component's \
text as its function's result; our model keeps the call (our evaluator's results are checked \
in the evaluate_function cases)";
const FUNCTION_SET: &str = "our function set is SPEC.md section 3's, fixed: A2UI's regex, and, \
or, not and openUrl (as a function) have no equivalent there; the import leaves them out with \
unsupported_function";
const EMAIL_RULE: &str = "SPEC.md section 3's email rule (a domain with a dot not at either \
end) accepts a one-letter top-level domain";
const RANGE_RULE: &str = "SPEC.md section 3's range holds a number: a numeric string is not one";
const PLURAL_RULE: &str = "SPEC.md section 3's pluralize: one and other required, the \
categories zero, one and other only (two is dropped with arg_dropped)";
const FORMAT_ARGS: &str = "SPEC.md section 3's formatNumber has no grouping switch and \
formatDate no TR35 pattern (dates by style: short, medium, long, full); the import drops those \
arguments with arg_dropped";

#[test]
fn validator_v0_9() {
    suite(
        "validator_v0_9.yaml",
        6,
        &[
            ("test_custom_catalog_0_9", CATALOG_SCHEMA),
            (
                "test_recursion_limit_function_call_depth_exceeded_error",
                DEPTH,
            ),
            ("test_v09_unknown_component_type", CATALOG_SCHEMA),
            ("test_v09_unknown_component_property", CATALOG_SCHEMA),
            ("test_v09_unknown_nested_function", CATALOG_SCHEMA),
            (
                "test_v09_multiple_component_validation_errors",
                CATALOG_SCHEMA,
            ),
        ],
    );
}

#[test]
fn validator_v1_0() {
    suite(
        "validator_v1_0.yaml",
        8,
        &[
            ("test_custom_catalog_1_0", CATALOG_SCHEMA),
            ("test_validator_theme_schema", THEME),
            ("test_v10_unknown_component_type", CATALOG_SCHEMA),
            ("test_v10_unknown_component_property", CATALOG_SCHEMA),
            ("test_v10_unknown_nested_function", CATALOG_SCHEMA),
            ("test_v10_uax31_invalid_identifier_error", UAX31),
        ],
    );
}

#[test]
fn message_processor_v0_9() {
    suite(
        "message_processor_v0_9.yaml",
        29,
        &[
            (
                "test_create_surface_unknown_catalog_error",
                CATALOG_REGISTRY,
            ),
            (
                "test_update_components_strict_schema_validation_failure",
                CATALOG_SCHEMA,
            ),
            (
                "test_update_components_atomic_validation_rollback",
                CATALOG_SCHEMA,
            ),
            ("test_create_surface_strict_theme_validation_failure", THEME),
            ("test_get_renderer_data_model_filtering", RENDERER),
            (
                "test_get_renderer_data_model_empty_when_no_surfaces_enabled",
                RENDERER,
            ),
            ("test_resolve_path_absolute", RENDERER),
            ("test_resolve_path_relative", RENDERER),
            ("test_resolve_path_relative_trailing_slash", RENDERER),
            ("test_resolve_path_relative_no_context", RENDERER),
            (
                "test_v09_get_renderer_capabilities_supported_catalog_ids",
                RENDERER,
            ),
            (
                "test_v09_get_renderer_capabilities_inline_catalogs",
                RENDERER,
            ),
            (
                "test_v09_get_renderer_capabilities_with_functions_and_theme",
                RENDERER,
            ),
            (
                "test_v09_get_renderer_capabilities_multiple_catalogs",
                RENDERER,
            ),
        ],
    );
}

#[test]
fn message_processor_v1_0() {
    suite(
        "message_processor_v1_0.yaml",
        32,
        &[
            ("test_v10_get_renderer_capabilities", RENDERER),
            ("test_v10_update_components_mismatched_catalog_protocol_version_error", CATALOG_REGISTRY),
            ("test_global_recursion_depth_limit_exceeded_error", DEPTH),
            ("test_v10_component_without_catalog_id_on_surface_without_default_errors", CATALOG_REGISTRY),
            ("test_v10_function_call_naming_catalog_without_that_function_errors", CATALOG_SCHEMA),
            ("test_v10_function_call_naming_catalog_with_invalid_args_errors", CATALOG_SCHEMA),
            ("test_v10_function_call_naming_unknown_catalog_errors", CATALOG_REGISTRY),
            ("test_v10_function_call_with_empty_catalog_id_errors", CATALOG_REGISTRY),
            ("test_v10_function_call_without_catalog_id_to_unknown_function_errors", CATALOG_SCHEMA),
            ("test_v10_function_call_without_catalog_id_on_surface_without_default_errors", CATALOG_REGISTRY),
            ("test_v10_component_update_without_catalog_id_on_surface_without_default_errors", CATALOG_REGISTRY),
            ("test_v10_component_update_without_catalog_id_uses_surface_default", CATALOG_SCHEMA),
            ("test_v10_nested_call_in_args_resolves_its_own_catalog", CATALOG_SCHEMA),
            ("test_v10_nested_call_in_args_on_surface_without_default_errors", CATALOG_REGISTRY),
            ("test_v10_call_in_index_args_is_checked", CATALOG_SCHEMA),
            ("test_v10_call_in_index_args_on_surface_without_default_errors", CATALOG_REGISTRY),
            ("test_v10_call_in_list_without_catalog_id_uses_surface_default", CATALOG_SCHEMA),
            ("test_v10_call_in_list_with_invalid_args_errors", CATALOG_SCHEMA),
            ("test_v10_undefined_system_function_errors", CATALOG_SCHEMA),
            ("test_v10_call_without_catalog_id_on_surface_without_default_errors_without_strict_mode", CATALOG_REGISTRY),
            ("test_v10_call_naming_unknown_catalog_errors_without_strict_mode", CATALOG_REGISTRY),
            ("test_v10_call_naming_catalog_of_other_protocol_version_errors", CATALOG_REGISTRY),
            ("test_v10_component_naming_catalog_is_checked_against_that_catalog", CATALOG_SCHEMA),
            ("test_v10_component_without_catalog_id_errors_with_a_single_catalog", CATALOG_REGISTRY),
            ("test_v10_get_renderer_data_model_includes_surface_without_default", RENDERER),
            ("test_v10_get_renderer_data_model_excludes_surface_without_default_from_v09", RENDERER),
            ("test_v10_get_renderer_data_model_filters_by_surface_protocol_version", RENDERER),
        ],
    );
}

#[test]
fn data_model() {
    suite(
        "data_model.yaml",
        23,
        &[
            ("test_data_model_normalizes_trailing_slash", TRAILING_SLASH),
            ("test_data_model_replaces_root", OBSERVERS),
            ("test_data_model_notifies_exact_path", OBSERVERS),
            ("test_data_model_notifies_ancestor", OBSERVERS),
            ("test_data_model_notifies_descendant", OBSERVERS),
            ("test_data_model_notifies_root_observer", OBSERVERS),
            ("test_data_model_notifies_parent_on_child_write", OBSERVERS),
            ("test_data_model_does_not_notify_unrelated", OBSERVERS),
            ("test_data_model_does_not_notify_prefix_sibling", OBSERVERS),
            ("test_data_model_multiple_observers_same_path", OBSERVERS),
            ("test_data_model_observe_absent_path", OBSERVERS),
            ("test_data_model_stops_notifying_after_dispose", OBSERVERS),
        ],
    );
}

#[test]
fn data_model_pointers() {
    suite("data_model_pointers.yaml", 3, &[]);
}

#[test]
fn expressions() {
    suite(
        "expressions.yaml",
        18,
        &[
            ("test_expr_single_quoted_string", EXPRESSIONS),
            ("test_expr_double_quoted_string", EXPRESSIONS),
            ("test_expr_string_escapes", EXPRESSIONS),
            ("test_expr_string_escaped_quote", EXPRESSIONS),
            ("test_expr_function_call_no_args", EXPRESSIONS),
            ("test_expr_function_call_named_args", EXPRESSIONS),
            ("test_expr_function_call_mixed_arg_types", EXPRESSIONS),
            ("test_expr_nested_function_calls", EXPRESSIONS),
            ("test_expr_nested_interpolation", EXPRESSIONS),
            ("test_expr_error_missing_closing_paren", EXPRESSIONS),
            ("test_expr_error_missing_arg_colon", EXPRESSIONS),
            ("test_expr_error_trailing_characters", EXPRESSIONS),
        ],
    );
}

#[test]
fn functions() {
    suite(
        "functions.yaml",
        30,
        &[
            ("test_function_format_date_tr35_tokens", RENDERED),
            ("test_function_format_currency_locale_and_symbol", RENDERED),
            ("test_function_pluralize_categories", RENDERED),
            ("test_function_logical_and_or_not", RENDERED),
            (
                "test_function_invalid_argument_schema_error",
                CATALOG_SCHEMA,
            ),
            ("test_evaluate_function_regex_match", FUNCTION_SET),
            ("test_evaluate_function_regex_mismatch", FUNCTION_SET),
            ("test_evaluate_function_regex_invalid_pattern", FUNCTION_SET),
            ("test_evaluate_function_and_all_true", FUNCTION_SET),
            ("test_evaluate_function_and_one_false", FUNCTION_SET),
            (
                "test_evaluate_function_and_truthiness_coercion_true",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_and_truthiness_coercion_false",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_and_fewer_than_two_values_error",
                FUNCTION_SET,
            ),
            ("test_evaluate_function_or_all_false", FUNCTION_SET),
            ("test_evaluate_function_or_one_true", FUNCTION_SET),
            (
                "test_evaluate_function_or_truthiness_coercion_true",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_or_fewer_than_two_values_error",
                FUNCTION_SET,
            ),
            ("test_evaluate_function_not_true", FUNCTION_SET),
            ("test_evaluate_function_not_false", FUNCTION_SET),
            ("test_evaluate_function_not_truthiness_falsy", FUNCTION_SET),
            ("test_evaluate_function_not_truthiness_truthy", FUNCTION_SET),
            (
                "test_evaluate_function_and_validation_result_operands",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_or_validation_result_operands",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_not_validation_result_operand",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_not_validation_result_operand_v0_9",
                FUNCTION_SET,
            ),
            ("test_evaluate_function_open_url_valid_https", FUNCTION_SET),
            (
                "test_evaluate_function_open_url_disallowed_scheme",
                FUNCTION_SET,
            ),
            (
                "test_evaluate_function_email_invalid_single_char_tld",
                EMAIL_RULE,
            ),
            ("test_evaluate_function_numeric_valid_string", RANGE_RULE),
            ("test_evaluate_function_pluralize_explicit_two", PLURAL_RULE),
            (
                "test_evaluate_function_pluralize_explicit_empty_string",
                PLURAL_RULE,
            ),
            (
                "test_evaluate_function_format_number_zero_decimals",
                FORMAT_ARGS,
            ),
            (
                "test_evaluate_function_format_date_custom_pattern",
                FORMAT_ARGS,
            ),
            (
                "test_evaluate_function_format_date_iso_normalized",
                FORMAT_ARGS,
            ),
            (
                "test_evaluate_function_v10_without_catalog_id_on_surface_without_default_errors",
                CATALOG_REGISTRY,
            ),
            (
                "test_evaluate_function_v10_unknown_catalog_id_errors",
                CATALOG_REGISTRY,
            ),
            (
                "test_evaluate_function_v10_catalog_of_other_protocol_version_errors",
                CATALOG_REGISTRY,
            ),
            (
                "test_evaluate_function_v10_nested_call_does_not_inherit_catalog",
                CATALOG_REGISTRY,
            ),
        ],
    );
}

/// Runs every case of `file` not in `skips`: all pass, `passing` of them,
/// and every case skipped is in the suite.
fn suite(file: &str, passing: usize, skips: &[(&str, &str)]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance/a2ui-v1/conformance/core")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let cases: Vec<Value> = serde_yaml::from_str(&text).unwrap();
    let name = |case: &Value| case["name"].as_str().unwrap_or_default().to_string();
    for (skipped, _) in skips {
        assert!(
            cases.iter().any(|c| name(c) == *skipped),
            "{file}: skipped case {skipped} is not in the suite"
        );
    }
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for case in &cases {
        if skips.iter().any(|(skipped, _)| name(case) == *skipped) {
            continue;
        }
        match run(case) {
            Ok(()) => passed.push(name(case)),
            Err(why) => failed.push(format!("{}: {why}", name(case))),
        }
    }
    eprintln!(
        "A2UI core/{file}: {} cases, {} pass, {} skipped",
        cases.len(),
        passed.len(),
        skips.len()
    );
    let mut reasons: Vec<&str> = skips.iter().map(|(_, r)| *r).collect();
    reasons.sort();
    reasons.dedup();
    for reason in reasons {
        let names: Vec<&str> = skips
            .iter()
            .filter(|(_, r)| *r == reason)
            .map(|(n, _)| *n)
            .collect();
        eprintln!("  skipped, {reason}:\n    {}", names.join("\n    "));
    }
    assert!(
        failed.is_empty(),
        "{file}: failing cases:\n{}",
        failed.join("\n")
    );
    assert_eq!(passed.len(), passing, "{file}: passing cases");
}

/// One case's steps, in order; `Err` says the first one that failed.
fn run(case: &Value) -> Result<(), String> {
    let action = case["action"].as_str().unwrap_or_default();
    if action == "data_model" {
        return run_data_model(case);
    }
    if action == "parse_expression_template" {
        return run_expression(case);
    }
    if action == "evaluate_function" {
        return run_function(case);
    }
    if action != "validate" && action != "process_messages" {
        return Err(["action ", action, " is not run here"].concat());
    }
    let strict = case["strictMode"] == Value::Bool(true);
    let steps = match case.get("steps").and_then(Value::as_array) {
        Some(steps) => steps.clone(),
        None => vec![case.clone()],
    };
    let name = case["name"].as_str().unwrap_or_default();
    let mut history: Vec<Value> = Vec::new();
    for (n, step) in steps.iter().enumerate() {
        // `payload` is the suites' other name for `messages`.
        let given = step.get("messages").or(step.get("payload"));
        let mine: Vec<Value> = messages::read_value(given.unwrap_or(&Value::Null))
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        let all: Vec<Value> = history.iter().chain(&mine).cloned().collect();
        let notes = interop::from_a2ui_value(&Value::Array(all.clone())).notes;
        let codes: Vec<&str> = notes
            .iter()
            .filter(|note| message_index(&note.path) >= history.len())
            .map(|note| note.code)
            .collect();
        let at_step = format!("step {n}");
        match step.get("expectError") {
            Some(expected) => {
                expect_kind(name, expected, &codes).map_err(|e| at_step + ": " + &e)?
            }
            None => {
                let refused = codes
                    .iter()
                    .filter(|c| REFUSALS.contains(c) || (strict && TOPOLOGY.contains(c)));
                let refused: Vec<_> = refused.collect();
                if !refused.is_empty() {
                    return Err(format!("{at_step}: refused {refused:?}"));
                }
                history = all;
                if let Some(expect) = step.get("expect") {
                    check_state(&build(&history), expect).map_err(|e| format!("{at_step}: {e}"))?;
                }
            }
        }
    }
    // A case of steps may say what they built at its end.
    if let (Some(_), Some(expect)) = (case.get("steps"), case.get("expect")) {
        check_state(&build(&history), expect)?;
    }
    Ok(())
}

/// Whether `codes` hold the one [`KINDS`] gives for the error `expected`.
fn expect_kind(case: &str, expected: &Value, codes: &[&str]) -> Result<(), String> {
    let text = error_text(case, expected);
    let Some((_, code)) = KINDS.iter().find(|(needle, _)| text.contains(needle)) else {
        return Err(format!("no kind for the error {text:?}"));
    };
    if !codes.contains(code) {
        return Err(format!("expected {code} ({text}), got {codes:?}"));
    }
    Ok(())
}

/// A data-model case: a surface created with the case's `initial` data,
/// then each step a `set` (a data update), a `delete` (a v1.0 update to
/// `null`) or a `get`, read as our bindings read a path
/// ([`surfaces_core::pointer::resolve`]; `/` is the whole data, as a data
/// update's path `/` is), compared with `expect`, `expect_absent` or
/// `expect_type`.
fn run_data_model(case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap_or_default();
    let mut model = Model::default();
    let initial = case.get("initial").cloned().unwrap_or(json!({}));
    let create =
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "dataModel": initial}});
    let mut notes = Vec::new();
    messages::apply(&mut model, &create, "/0", &mut notes);
    assert!(notes.is_empty(), "{name}: {notes:?}");
    for (n, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let at_step = format!("step {n}");
        let path = step["path"].as_str().unwrap_or_default();
        match step["op"].as_str().unwrap_or_default() {
            op @ ("set" | "delete") => {
                let value = if op == "set" {
                    step["value"].clone()
                } else {
                    Value::Null
                };
                let update = json!({"version": "v1.0",
                    "updateDataModel": {"surfaceId": "s", "path": path, "value": value}});
                let mut notes = Vec::new();
                messages::apply(&mut model, &update, "/1", &mut notes);
                let codes: Vec<&str> = notes.iter().map(|n| n.code).collect();
                match step.get("expect_error") {
                    Some(expected) => {
                        expect_kind(name, expected, &codes).map_err(|e| at_step + ": " + &e)?
                    }
                    None if !codes.is_empty() => {
                        return Err(format!("{at_step}: refused {codes:?}"))
                    }
                    None => {}
                }
            }
            "get" => {
                let data = &model.surfaces[0].data;
                let found = pointer::resolve(&data, if path == "/" { "" } else { path });
                let fault = if step["expect_absent"] == Value::Bool(true) {
                    found.is_some()
                } else if let Some(kind) = step["expect_type"].as_str() {
                    let is = |f: fn(&Value) -> bool| found.is_some_and(f);
                    !(kind == "object" && is(Value::is_object)
                        || kind == "list" && is(Value::is_array))
                } else {
                    found != step.get("expect")
                };
                if fault {
                    return Err(format!("{at_step}: get {path} is {found:?}"));
                }
            }
            op => return Err(format!("{at_step}: op {op:?} is not run here")),
        }
    }
    Ok(())
}

/// An expression-template case: `input` as a v0.9 `formatString` in a
/// Text, converted by [`interop::from_a2ui_value`]; the Text's value (a
/// literal, a binding, or `concat` of them) compared with the parts
/// expected, their relative paths made absolute as outside a template (from
/// the root).
fn run_expression(case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap_or_default();
    let text = json!({"call": "formatString", "args": {"value": case["input"]}});
    let list = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": text}]}}
    ]);
    let result = interop::from_a2ui_value(&list);
    let codes: Vec<&str> = result.notes.iter().map(|n| n.code).collect();
    if let Some(expected) = case.get("expect_error") {
        return expect_kind(name, expected, &codes);
    }
    let value = &result.surfaces[0]["components"][0]["props"]["text"];
    let parts = match value.get("call") {
        Some(call) if call == "concat" => value["args"]["values"].as_array().cloned(),
        _ => Some(vec![value.clone()]),
    };
    let wanted: Vec<Value> = case["expect"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|part| match part["path"].as_str() {
            Some(path) if !path.starts_with('/') => json!({"path": format!("/{path}")}),
            _ => part.clone(),
        })
        .collect();
    if parts.as_ref() != Some(&wanted) {
        return Err(format!("read as {value} ({codes:?})"));
    }
    Ok(())
}

/// A function case (`evaluate_function`): the call, with the case's
/// arguments, as a v0.9 Text's `text`, converted by
/// [`interop::from_a2ui_value`] to our call (renamed, its arguments
/// mapped) and evaluated by our evaluator
/// ([`surfaces_core::function::evaluate`], the native [`PlainHost`]), the
/// result compared with `expect`.
fn run_function(case: &Value) -> Result<(), String> {
    let text = json!({"call": case["function"], "args": case["args"]});
    let list = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "basic"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": text}]}}
    ]);
    let result = interop::from_a2ui_value(&list);
    let codes: Vec<&str> = result.notes.iter().map(|n| n.code).collect();
    let ours = &result.surfaces[0]["components"][0]["props"]["text"];
    if ours.is_null() {
        return Err(format!("left out ({codes:?})"));
    }
    let data = json!({});
    let value = function::evaluate(&ours, &&data, &PlainHost);
    let got = match value {
        Some(function::Value::Data(v)) => v.clone(),
        Some(function::Value::Text(t)) => json!(t),
        Some(function::Value::Number(n)) => json!(n),
        Some(function::Value::Bool(b)) => json!(b),
        Some(function::Value::Missing) | None => Value::Null,
    };
    if case.get("expectError").is_some() {
        return Err("an error expected: not read here".to_string());
    }
    if got != case["expect"] {
        return Err(format!("{ours} gives {got}"));
    }
    Ok(())
}

/// The message a note's pointer is in (its first segment).
fn message_index(path: &str) -> usize {
    let first = path.trim_start_matches('/').split('/').next();
    first.and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// What a case's `expectError` says: a string, or its message and its
/// details' paths and codes, or (with only a category) the case's name.
fn error_text(case: &str, expected: &Value) -> String {
    if let Some(text) = expected.as_str() {
        return text.to_string();
    }
    let mut parts: Vec<String> = expected["message"]
        .as_str()
        .map(String::from)
        .into_iter()
        .collect();
    for detail in expected["details"].as_array().into_iter().flatten() {
        let path = detail["path"].as_str().unwrap_or_default();
        let code = detail["code"].as_str().unwrap_or_default();
        parts.push([path, " ", code].concat());
    }
    if parts.is_empty() {
        parts.push(case.to_string());
    }
    parts.join("; ")
}

/// The model `list` builds, message by message.
fn build(list: &[Value]) -> Model {
    let mut model = Model::default();
    let mut notes = Vec::new();
    for (i, message) in list.iter().enumerate() {
        messages::apply(&mut model, message, &format!("/{i}"), &mut notes);
    }
    model
}

/// `expect.surfaces` compared with `model`.
fn check_state(model: &Model, expect: &Value) -> Result<(), String> {
    let no_map = Map::new();
    let surfaces = expect["surfaces"].as_object().unwrap_or(&no_map);
    for (id, wanted) in surfaces {
        let found = model.surfaces.iter().find(|s| s.id == *id);
        for (key, value) in wanted.as_object().unwrap_or(&no_map) {
            let fault = match (key.as_str(), found) {
                ("exists", _) => (found.is_some() != (value == &Value::Bool(true)))
                    .then(|| format!("exists is {}", found.is_some())),
                (_, None) => Some("the surface is not there".to_string()),
                ("dataModel", Some(surface)) => {
                    (surface.data != *value).then(|| format!("data model {}", surface.data))
                }
                ("components", Some(surface)) => components_fault(surface, value),
                (key, _) if NOT_HELD.contains(&key) => None,
                (key, _) => panic!("an expectation not read here: {key}"),
            };
            if let Some(fault) = fault {
                return Err(format!("surface {id}: {fault}"));
            }
        }
    }
    Ok(())
}

/// How the surface's components differ from the expected ones: a list
/// (the ids in order, each with its properties) or a map of id to
/// properties.
fn components_fault(surface: &messages::SurfaceState, expected: &Value) -> Option<String> {
    let wanted: Vec<(&str, &Value)> = match expected {
        Value::Array(items) => {
            let ids: Vec<&str> = items.iter().filter_map(|c| c["id"].as_str()).collect();
            if ids != surface.order {
                return Some(format!("component ids {:?}", surface.order));
            }
            ids.into_iter().zip(items).collect()
        }
        Value::Object(map) => map.iter().map(|(id, c)| (id.as_str(), c)).collect(),
        _ => return Some("an expectation of components not read here".to_string()),
    };
    for (id, properties) in wanted {
        let Some(defined) = surface.components.get(id) else {
            return Some(format!("no component {id}"));
        };
        for (key, value) in properties.as_object()? {
            if defined.value.get(key) != Some(value) {
                return Some(format!("component {id}: {}", defined.value));
            }
        }
    }
    None
}
