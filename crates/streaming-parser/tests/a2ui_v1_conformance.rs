//! A2UI v1.0's agent conformance suites for the reader
//! (`conformance/agent/parser.yaml`, `conformance/agent/streaming_parser.yaml`),
//! vendored unchanged in `tests/conformance/a2ui-v1/conformance/agent/` and
//! run against [`streaming_parser::a2ui`] by the harness in `common/` (the
//! one that runs v0.9's). Prints the pass count per suite; fails if fewer
//! cases pass than recorded here, or a case fails that is not listed below
//! with its reason. A case with a catalog in `parser.yaml` is read with
//! [`streaming_parser::a2ui::parse_full_as`] as its catalog's version.
//!
//! The suites' `s2c_schema` and `common_types_schema` (files under
//! `test_data/` the published suites name but do not include) are not read:
//! the reader holds messages to their envelope itself, and components to
//! the properties their catalog (inline in each case) requires.

mod common;

#[test]
fn parser_suite() {
    common::report("a2ui-v1/conformance/agent/parser.yaml", 23, &[]);
}

#[test]
fn streaming_parser_suite() {
    common::report("a2ui-v1/conformance/agent/streaming_parser.yaml", 76, &[]);
}
