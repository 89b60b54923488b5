//! URLs, read once (SPEC.md section 5). [`read`] cleans a URL the way
//! browsers do before they look at it and says what it starts with; a
//! policy is a `match` over that answer. Content follows the safe-href rule,
//! [`is_safe_href`]: what a link, a `navigate` action or a shared URL may
//! point to. Studio's preview morph keeps the URLs of server-rendered HTML
//! over the same reading, with a wider policy (relative URLs, `mailto:`,
//! `tel:`), so the two can never disagree on what a URL is.
//!
//! ```
//! use surfaces_core::href::{is_safe_href, read, Start};
//!
//! assert!(matches!(read(" /pricing\n"), Start::Path));
//! assert!(matches!(read("img/logo.png"), Start::Relative));
//! assert!(matches!(read(" Mail\tTo:ada@example.com"), Start::Scheme(s) if s.is(b"mailto")));
//!
//! // A policy over the reading: relative URLs and mail links too, never a script.
//! let inert = |url| match read(url) {
//!     Start::Scheme(s) => s.is(b"http") || s.is(b"https") || s.is(b"mailto"),
//!     Start::Control => false,
//!     _ => true,
//! };
//! assert!(inert("img/logo.png") && inert("MAILTO:a@example.com"));
//! assert!(!inert(" javascript:alert(1)") && !is_safe_href("img/logo.png"));
//! ```

/// What a URL starts with once cleaned as browsers clean it: white space
/// trimmed, ASCII tab, newline and carriage return dropped anywhere.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// `#`: a place on the current page.
    Fragment,
    /// One `/` and no second slash after it: a path on the current site.
    Path,
    /// `//`, `/\` or `\`: browsers read `\` as `/`, so another host may
    /// follow (`//evil.example`).
    Host,
    /// A scheme and its colon (`https:`, `mailto:`, `javascript:`): a
    /// letter, then letters, digits, `+`, `-` or `.`.
    Scheme(Scheme),
    /// Anything else, the empty URL too: a reference relative to the current
    /// URL (`img/logo.png`, `?page=2`, `./a:b`, `1abc:def`).
    Relative,
    /// Another control character (C0 or DEL) left after cleaning: refused by
    /// every policy, rather than guessing how each browser reads it.
    Control,
}

/// A URL's scheme, lower-cased without allocating: its length and its
/// first six bytes, enough to tell apart every scheme a policy allows
/// (`mailto` is the longest). Not comparable as a whole, since two long
/// names may share those bytes: ask [`Scheme::is`].
#[derive(Debug, Clone, Copy)]
pub struct Scheme {
    /// The first bytes of the cleaned URL, lower-cased: the name, then
    /// (for a short one) its colon and what follows.
    head: [u8; 6],
    /// How long the name is.
    len: usize,
    /// Whether nothing follows the colon.
    bare: bool,
}

impl Scheme {
    /// Whether this is the scheme `name`, given in lower case. Only names of
    /// up to six bytes can match, so a policy lists the schemes it allows,
    /// never the ones it refuses.
    #[inline(always)]
    pub fn is<const N: usize>(&self, name: &[u8; N]) -> bool {
        self.len == N && self.head.first_chunk::<N>() == Some(name)
    }

    /// Whether nothing follows the colon (`https:`).
    pub fn is_bare(&self) -> bool {
        self.bare
    }
}

/// Reads `url`: trims ASCII white space, drops ASCII tab, newline and
/// carriage return anywhere (browsers drop them before reading the scheme,
/// so `java\nscript:` is `javascript:`), and says what the rest starts with.
/// One byte loop, without allocating: non-ASCII bytes are kept as they are.
///
/// ```
/// use surfaces_core::href::{read, Start};
/// assert!(matches!(read("#faq"), Start::Fragment));
/// assert!(matches!(read("/\\evil.example"), Start::Host));
/// assert!(matches!(read("/a\u{1}b"), Start::Control));
/// let Start::Scheme(scheme) = read(" HTTPS://example.com") else { panic!() };
/// assert!(scheme.is(b"https") && !scheme.is_bare());
/// ```
// Inlined into each policy, so the answer never goes through memory and
// the policy's `match` folds into the loop's last branch (the published-page
// runtime links only `is_safe_href`).
#[inline(always)]
pub fn read(url: &str) -> Start {
    // One pass that trims as it goes (trimming first, in two more scans,
    // cost the runtime's wasm about 100 bytes): `seen` counts the cleaned
    // bytes so far (white space after the first other byte included), `kept`
    // those up to the last byte that is not white space; a form feed is
    // white space only at the ends. Then the first bytes, lower-cased, and
    // how long the run of scheme characters that starts the URL is, and the
    // byte that ended it (a colon when the run is a scheme).
    let mut seen = 0;
    let mut kept = 0;
    let mut form_feed = false;
    let mut head = [0u8; 6];
    let mut run = 0;
    let mut stop = 0;
    for &b in url.as_bytes() {
        let white = match b {
            b'\t' | b'\n' | b'\r' => continue,
            b' ' | 0x0c if seen == 0 => continue,
            b' ' | 0x0c => {
                form_feed |= b == 0x0c;
                true
            }
            0..=0x1f | 0x7f => return Start::Control,
            _ if form_feed => return Start::Control,
            _ => false,
        };
        if run == seen {
            if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') {
                run += 1;
            } else {
                stop = b;
            }
        }
        if let Some(slot) = head.get_mut(seen) {
            *slot = b.to_ascii_lowercase();
        }
        seen += 1;
        if !white {
            kept = seen;
        }
    }
    match head {
        [first, ..] if stop == b':' && first.is_ascii_alphabetic() => Start::Scheme(Scheme {
            head,
            len: run,
            bare: kept == run + 1,
        }),
        [b'#', ..] => Start::Fragment,
        [b'/', b'/' | b'\\', ..] | [b'\\', ..] => Start::Host,
        [b'/', ..] => Start::Path,
        _ => Start::Relative,
    }
}

/// The URL [`read`] reads, as a string: ASCII tab, newline and carriage
/// return dropped anywhere, spaces and form feeds trimmed from the ends. For
/// writing a URL out as the rules read it (the renderer's asset sources);
/// the rules themselves never allocate.
///
/// ```
/// use surfaces_core::href::clean;
/// assert_eq!(clean(" /a\tb/c.png\n "), "/ab/c.png");
/// assert_eq!(clean("/\t/evil.example"), "//evil.example");
/// ```
pub fn clean(url: &str) -> alloc::string::String {
    let kept = url.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    let cleaned: alloc::string::String = kept.collect();
    cleaned.trim_matches([' ', '\u{c}']).into()
}

/// The safe-href rule: whether `href` is a path on the current site, a
/// `#fragment`, or an absolute `http:`/`https:` URL, as [`read`] reads it.
/// Everything else is refused: other schemes (`javascript:` in any
/// spelling, `data:`, `vbscript:`, `mailto:`), protocol-relative `//host`,
/// `/\host` and `\\host`, relative references, and any control character
/// left after cleaning.
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
    match read(href) {
        Start::Fragment | Start::Path => true,
        Start::Scheme(s) => (s.is(b"http") || s.is(b"https")) && !s.is_bare(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{clean, is_safe_href, read, Start};
    use core::mem::discriminant;

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
            "\u{c}/form-feed-trimmed",
            "h\tttps://example.com",
            "https:x",
            "/a \u{c}\t ",
            "https://x \u{c}",
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
            "\\path",
            "mailto:a@b.c",
            "tel:+123",
            "ftp://x",
            "pricing",
            "./pricing",
            "../x",
            "?q=1",
            "https:",
            "http:",
            "http\u{0}s://x",
            "/a\u{0}b",
            "/a\u{7f}",
            "#a\u{1b}",
            "/a\u{c}b",
            "/a\u{c} b",
            "https: \u{c}",
            "&#106;avascript:x",
        ] {
            assert!(!is_safe_href(h), "{h:?}");
        }
    }

    #[test]
    fn the_reading_names_the_start() {
        for (url, start) in [
            ("#", Start::Fragment),
            (" #a:b", Start::Fragment),
            ("/", Start::Path),
            ("/a:b", Start::Path),
            ("//host", Start::Host),
            ("/\\host", Start::Host),
            ("\\host", Start::Host),
            ("/\n/host", Start::Host),
            ("", Start::Relative),
            ("img/a.png", Start::Relative),
            ("./a:b", Start::Relative),
            ("1abc:def", Start::Relative),
            ("+a:b", Start::Relative),
            (":x", Start::Relative),
            ("é:x", Start::Relative),
            ("javascriptx/path:1", Start::Relative),
            ("longerword", Start::Relative),
            ("a\u{1}:x", Start::Control),
            ("\u{7f}", Start::Control),
        ] {
            assert_eq!(discriminant(&read(url)), discriminant(&start), "{url:?}");
        }
    }

    #[test]
    fn schemes_are_read_whole_lower_cased_and_bounded() {
        let scheme = |url| match read(url) {
            Start::Scheme(s) => s,
            other => panic!("{url:?}: {other:?}"),
        };
        assert!(scheme("MAILTO:a@b.c").is(b"mailto"));
        assert!(scheme("ht\ntp://x").is(b"http"));
        assert!(
            !scheme("a+b-c.d:x").is(b"a+b-c.d"),
            "seven bytes never match"
        );
        assert!(!scheme("https:").is(b"http"));
        assert!(!scheme("http:").is(b"https"));
        assert!(scheme("https:").is_bare() && !scheme("https:/").is_bare());
        // Longer than six bytes: known to be a scheme, never taken for a
        // short name that shares its first bytes.
        let long = scheme("javascript:alert(1)");
        assert!(!long.is(b"javasc") && !long.is(b"java") && !long.is(b"javascript"));
    }

    #[test]
    fn clean_writes_out_what_read_reads() {
        for url in [
            " /a\tb ",
            "\u{c}/form-feed",
            "/\t/evil.example",
            "java\r\nscript:x",
            "asset:\nlogo.png",
            " h\tttps://example.com \u{c}",
            "img/logo.png",
            "",
        ] {
            let cleaned = clean(url);
            assert_eq!(
                discriminant(&read(url)),
                discriminant(&read(&cleaned)),
                "{url:?}"
            );
            assert!(!cleaned.contains(['\t', '\n', '\r']), "{url:?}");
            assert_eq!(clean(&cleaned), cleaned, "{url:?}");
        }
    }
}
