//! The safe-href rule (SPEC.md section 5): what a link, a `navigate` action
//! or a shared URL may point to.

/// Whether `href` is safe: after trimming, removing ASCII tab, newline and
/// carriage return, and comparing case-insensitively, it is a path starting
/// with a single `/`, a `#fragment`, or an absolute `http:`/`https:` URL.
/// Everything else is refused: other schemes (`javascript:` in any spelling,
/// `data:`, `vbscript:`), protocol-relative `//host` and `/\host`, `\\host`,
/// relative paths, and any remaining control character.
///
/// ```
/// use surfaces_core::href::is_safe_href;
/// assert!(is_safe_href("/pricing"));
/// assert!(is_safe_href("#faq"));
/// assert!(is_safe_href(" HTTPS://example.com/a "));
/// assert!(!is_safe_href("java\tscript:alert(1)"));
/// assert!(!is_safe_href("//evil.example"));
/// ```
pub fn is_safe_href(href: &str) -> bool {
    // Browsers drop tab, LF and CR anywhere before reading the scheme: do the
    // same so `java\nscript:` is seen as what the browser would run. Other
    // control characters, even at the ends, are refused outright. A byte
    // loop without allocation: every non-ASCII byte is kept as it is.
    let bytes = href.as_bytes();
    let white = |b: &u8| b.is_ascii_whitespace();
    let from = bytes.iter().position(|b| !white(b)).unwrap_or(bytes.len());
    let to = bytes
        .iter()
        .rposition(|b| !white(b))
        .map_or(from, |i| i + 1);
    // The first bytes of the cleaned href, lower-cased, and how many it has.
    let mut head = [0u8; 7];
    let mut kept = 0;
    for &b in bytes.get(from..to).unwrap_or_default() {
        match b {
            b'\t' | b'\n' | b'\r' => {}
            0..=0x1f | 0x7f => return false,
            _ => {
                if let Some(slot) = head.get_mut(kept) {
                    *slot = b.to_ascii_lowercase();
                }
                kept += 1;
            }
        }
    }
    match head {
        [b'#', ..] => true,
        [b'/', second, ..] => second != b'/' && second != b'\\',
        [b'h', b't', b't', b'p', b's', b':', _] => kept > 6,
        [b'h', b't', b't', b'p', b':', ..] => kept > 5,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_safe_href;

    #[test]
    fn accepts_paths_fragments_and_http() {
        for h in [
            "/",
            "/pricing?x=1#a",
            "#top",
            "#",
            "https://example.com",
            "http://example.com/a b",
            "HtTpS://EXAMPLE.com",
            "\t/path\n",
            "  #frag  ",
            "/pa\nth",
        ] {
            assert!(is_safe_href(h), "{h:?}");
        }
    }

    #[test]
    fn refuses_everything_else() {
        for h in [
            "",
            "   ",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " jav\tascript:alert(1)",
            "java\r\nscript:x",
            "\u{1}javascript:x",
            "data:text/html,<script>",
            "DATA:x",
            "vbscript:msgbox",
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "\\\\host\\share",
            "\\/evil",
            "mailto:a@b.c",
            "ftp://x",
            "pricing",
            "./pricing",
            "../x",
            "https:",
            "/a\u{0}b",
            "/a\u{7f}",
            "#a\u{1b}",
            "&#106;avascript:x",
        ] {
            assert!(!is_safe_href(h), "{h:?}");
        }
    }
}
