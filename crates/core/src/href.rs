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
    // control characters, even at the ends, are refused outright.
    let trimmed = href.trim_matches(|c: char| c.is_ascii_whitespace());
    let mut cleaned = alloc::string::String::with_capacity(trimmed.len());
    for c in trimmed.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            c if c < ' ' || c == '\u{7f}' => return false,
            c => cleaned.push(c),
        }
    }
    let bytes = cleaned.as_bytes();
    match bytes.first() {
        Some(b'#') => true,
        Some(b'/') => !matches!(bytes.get(1), Some(b'/') | Some(b'\\')),
        Some(_) => {
            let lower = cleaned.to_ascii_lowercase();
            let rest = lower
                .strip_prefix("https:")
                .or_else(|| lower.strip_prefix("http:"));
            rest.is_some_and(|r| !r.is_empty())
        }
        None => false,
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
