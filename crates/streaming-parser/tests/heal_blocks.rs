//! Healing closes nothing across a list item boundary: CommonMark ends a
//! code span, emphasis or link where a list item begins, so a closer added
//! at the end of a later item would dangle (`markdown_stream` fuzz finding
//! crash-7fb40c60).

use testkit::properties::markdown_stream;

#[test]
fn a_code_span_open_before_a_list_item_is_not_closed_after_it() {
    markdown_stream(b"Hope this helps `through\n- **Fast**: work\n- *Small*: the build");
    markdown_stream(b"- a `b\n- c");
    markdown_stream(b"a `b\n1. c");
    assert_eq!(streaming_parser::heal("a `b\n- c"), "a `b\n- c");
}

#[test]
fn emphasis_open_in_one_item_is_not_closed_in_the_next() {
    markdown_stream(b"- a **b\n- c");
    markdown_stream(b"a **b\n+ c");
    assert_eq!(
        streaming_parser::heal("- a **b\n- c *d"),
        "- a **b\n- c *d*"
    );
}
