//! Known failures of the JavaScript peers (Streamdown's remend), each pinned
//! so it never happens here.

use streaming_parser::{heal, MarkdownStream};

fn last_block(text: &str) -> serde_json::Value {
    let mut stream = MarkdownStream::new();
    stream.push(text);
    stream.finish();
    let doc = stream.document();
    doc["blocks"]
        .as_array()
        .and_then(|b| b.last())
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_bold_closer_is_never_added_after_a_fence_marker() {
    assert_eq!(
        heal("Some **bold** text\n\n```python"),
        "Some **bold** text\n\n```python\n```"
    );
    assert_eq!(
        heal("An **open\n```js\nconst a = 2 ** 3"),
        "An **open\n```js\nconst a = 2 ** 3\n```"
    );
}

#[test]
fn tilde_fences_are_recognised() {
    let block = last_block("~~~rust\nlet x = 1;");
    assert_eq!(block["kind"], "code");
    assert_eq!(block["lang"], "rust");
    assert_eq!(block["healed"], "~~~rust\nlet x = 1;\n~~~");
    assert_eq!(heal("~~~\n**not bold"), "~~~\n**not bold\n~~~");
}

#[test]
fn intraword_asterisks_in_korean_text_stay_text() {
    assert_eq!(heal("한국어*텍스트"), "한국어*텍스트");
    assert_eq!(
        heal("이것은 **중요한** 내용*입니다"),
        "이것은 **중요한** 내용*입니다"
    );
}

#[test]
fn a_price_in_bold_is_not_math() {
    assert_eq!(heal("**$750**"), "**$750**");
    assert_eq!(heal("It costs **$750"), "It costs **$750**");
    assert_eq!(heal("from $5 to $10 *per"), "from $5 to $10 *per*");
}

#[test]
fn snake_case_never_gains_an_underscore() {
    assert_eq!(heal("call hello_world"), "call hello_world");
    assert_eq!(
        heal("use snake_case_names and 5 * 0 or 2*3"),
        "use snake_case_names and 5 * 0 or 2*3"
    );
}

#[test]
fn list_markers_are_not_emphasis() {
    assert_eq!(heal("* one\n* two"), "* one\n* two");
    assert_eq!(heal("- a\n* b *c"), "- a\n* b *c*");
}
