//! Healing closes nothing across a block boundary: CommonMark ends a code
//! span, emphasis or link where a list item, a block quote, a table row or
//! cell begins, so a closer added after it would dangle (`markdown_stream`
//! fuzz findings crash-7fb40c60 and
//! healing-a-table-list-and-directive-answer).

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

/// Healing closes nothing past the end of the block it was opened in: a
/// table row or cell, a paragraph a block quote, a setext underline or a
/// thematic break ends, nor inside indented code in a list item (fuzz
/// finding healing-a-table-list-and-directive-answer, and the gaps known
/// with it).
#[test]
fn healing_closes_nothing_past_its_block() {
    for text in [
        "| a |\n| --- |\n| `b\n",
        "a `b\n> c",
        "> a `b\n>\n> c",
        "a `b\n-\n",
        "a `b\n-\nc",
        "**a\n***\nb",
        "- a\n\n      `b\n",
        "- a\n- b\n\n      `c\n",
    ] {
        markdown_stream(text.as_bytes());
    }
    assert_eq!(streaming_parser::heal("- * * *"), "- * * *");
    assert_eq!(
        streaming_parser::heal("- a\n\n      **b"),
        "- a\n\n      **b"
    );
}

/// A `[` left open is text for CommonMark, so emphasis pairs across it;
/// completed as a link it would split the pair (fuzz finding
/// nested-open-links-break-a-matched-strong, reduced).
#[test]
fn healing_completes_no_bracket_an_emphasis_pair_crosses() {
    for text in [
        "* a [l**b [l**!",
        "a [l**b [l**",
        "[a **b [c** d",
        "**a [b** c](u",
        "a [b [c",
    ] {
        markdown_stream(text.as_bytes());
    }
}
