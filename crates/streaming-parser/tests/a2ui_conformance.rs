//! A2UI v0.9's own conformance suites (`parser.yaml`,
//! `streaming_parser.yaml`), vendored in `tests/conformance/a2ui-v0.9/` and
//! run against [`streaming_parser::a2ui`] by the harness in `common/`.
//! Prints the pass counts; fails if fewer cases pass than recorded here
//! (today every case of both suites, v0.8 and v0.9).

mod common;

#[test]
fn parser_suite() {
    common::report("a2ui-v0.9/suites/parser.yaml", 17, &[]);
}

#[test]
fn streaming_parser_suite() {
    let passed = common::report("a2ui-v0.9/suites/streaming_parser.yaml", 80, &[]);
    assert!(passed["v0.9"] >= 42, "fewer than the 42 v0.9 cases pass");
}
