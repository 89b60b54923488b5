//! The line-level grammar of code fences and ```` ```surface ```` fences
//! (SPEC.md section 8), shared by the validator and the streaming parser.
//!
//! A body is cut into lines by [`lines`], the one splitter every reader
//! uses: a leading byte order mark (U+FEFF) is no text, and `\n`, `\r\n`
//! and a lone `\r` each end a line (CommonMark's line endings). Lines are
//! given without their line ending (a trailing `\n` or `\r\n` is ignored if
//! present). Fences follow CommonMark: up to three spaces of
//! indentation, three or more backticks or tildes, an info string (which may
//! not contain a backtick after a backtick fence), and a closing fence of the
//! same character, at least as long, followed only by spaces or tabs.
//!
//! ```
//! use surfaces_core::fence::{opening_fence, FenceChar};
//!
//! let open = opening_fence("~~~~ rust  ").unwrap();
//! assert_eq!(open.marker, FenceChar::Tilde);
//! assert_eq!(open.info, "rust");
//! assert_eq!(open.lang(), Some("rust"));
//! assert!(open.is_closed_by("~~~~~"));
//! assert!(!open.is_closed_by("```"));
//! assert!(!open.is_closed_by("~~~~ x"));
//! ```

/// The character a fence is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenceChar {
    /// `` ` ``
    Backtick,
    /// `~`
    Tilde,
}

impl FenceChar {
    /// The byte of this fence character.
    pub fn byte(self) -> u8 {
        match self {
            FenceChar::Backtick => b'`',
            FenceChar::Tilde => b'~',
        }
    }
}

/// An opening code fence line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpeningFence<'a> {
    /// Backticks or tildes.
    pub marker: FenceChar,
    /// How many fence characters (at least 3).
    pub len: usize,
    /// Spaces before the fence (0 to 3).
    pub indent: usize,
    /// The info string, trimmed of surrounding white space.
    pub info: &'a str,
}

impl<'a> OpeningFence<'a> {
    /// The first word of the info string (the code language), if any.
    pub fn lang(&self) -> Option<&'a str> {
        self.info.split(is_white).find(|w| !w.is_empty())
    }

    /// Whether `line` closes this fence: the same character, at least as
    /// many, up to three spaces of indentation, nothing but spaces or tabs
    /// after.
    pub fn is_closed_by(&self, line: &str) -> bool {
        let line = strip_line_ending(line);
        let indent = leading_spaces(line);
        if indent > 3 {
            return false;
        }
        let rest = &line[indent..];
        let run = run_length(rest, self.marker.byte());
        run >= self.len && rest[run..].bytes().all(|b| b == b' ' || b == b'\t')
    }

    /// Whether the info string starts a surface fence (its first word is
    /// exactly `surface`).
    pub fn is_surface(&self) -> bool {
        self.lang() == Some("surface")
    }

    /// The JSON text after `surface` in a surface fence's info string, or
    /// `None` when this is not a surface fence.
    pub fn surface_info_text(&self) -> Option<&'a str> {
        if !self.is_surface() {
            return None;
        }
        Some(self.info["surface".len()..].trim_matches(is_white))
    }
}

/// Parses `line` as an opening code fence, or `None` when it is not one.
pub fn opening_fence(line: &str) -> Option<OpeningFence<'_>> {
    let line = strip_line_ending(line);
    let indent = leading_spaces(line);
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let marker = match rest.as_bytes().first() {
        Some(b'`') => FenceChar::Backtick,
        Some(b'~') => FenceChar::Tilde,
        _ => return None,
    };
    let len = run_length(rest, marker.byte());
    if len < 3 {
        return None;
    }
    let info = rest[len..].trim_matches(is_white);
    if marker == FenceChar::Backtick && info.contains('`') {
        return None;
    }
    Some(OpeningFence {
        marker,
        len,
        indent,
        info,
    })
}

/// Whether `id` follows the component id rule `^[a-z][a-z0-9-]{0,40}$`
/// (surface ids follow it too).
pub fn is_component_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    match bytes.split_first() {
        Some((first, rest)) => {
            first.is_ascii_lowercase()
                && rest.len() <= 40
                && rest
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        }
        None => false,
    }
}

/// The lines of `text`, without their endings: a leading U+FEFF is
/// skipped, and `\n`, `\r\n` and a lone `\r` each end a line. What follows
/// the last ending is the last line (empty when the text ends with one), so
/// a text of `k` line endings has `k + 1` lines.
///
/// ```
/// use surfaces_core::fence::lines;
/// let got: Vec<&str> = lines("\u{feff}a\r\nb\rc\nd").collect();
/// assert_eq!(got, ["a", "b", "c", "d"]);
/// assert_eq!(lines("a\r").collect::<Vec<_>>(), ["a", ""]);
/// ```
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text.strip_prefix('\u{feff}').unwrap_or(text));
    core::iter::from_fn(move || {
        let text = rest?;
        let Some(end) = text.find(['\n', '\r']) else {
            rest = None;
            return Some(text);
        };
        let ending = if text.get(end..end + 2) == Some("\r\n") {
            2
        } else {
            1
        };
        rest = text.get(end + ending..);
        text.get(..end)
    })
}

/// Removes one trailing `\n` or `\r\n` (or a lone `\r`).
pub fn strip_line_ending(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

fn leading_spaces(line: &str) -> usize {
    line.bytes().take_while(|b| *b == b' ').count()
}

fn run_length(text: &str, byte: u8) -> usize {
    text.bytes().take_while(|b| *b == byte).count()
}

fn is_white(c: char) -> bool {
    c == ' ' || c == '\t'
}

#[cfg(feature = "serde_json")]
pub use info::{surface_info, SurfaceInfo, SurfaceInfoError};

#[cfg(feature = "serde_json")]
mod info {
    use super::{is_component_id, OpeningFence};
    use alloc::string::String;

    /// The parsed info of a surface fence: ```` ```surface {"id":"pricing","catalog":"blog@1"} ````.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SurfaceInfo {
        /// The surface id (component id rule).
        pub id: String,
        /// The catalog, when given.
        pub catalog: Option<String>,
    }

    /// Why a surface fence's info is refused.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SurfaceInfoError {
        /// `surface` is not followed by a JSON object.
        NotAnObject,
        /// The object has no string `id`.
        MissingId,
        /// The `id` does not follow `^[a-z][a-z0-9-]{0,40}$`.
        InvalidId,
        /// `catalog` is present but not a string.
        InvalidCatalog,
    }

    impl SurfaceInfoError {
        /// The issue code (SPEC.md names where it has one).
        pub fn code(self) -> &'static str {
            match self {
                SurfaceInfoError::NotAnObject => "invalid_fence_info",
                SurfaceInfoError::MissingId | SurfaceInfoError::InvalidId => "invalid_id",
                SurfaceInfoError::InvalidCatalog => "invalid_fence_info",
            }
        }

        /// A sentence a model can act on.
        pub fn message(self) -> &'static str {
            match self {
                SurfaceInfoError::NotAnObject => {
                    "after `surface` the fence needs a JSON object such as {\"id\":\"pricing\",\"catalog\":\"blog@1\"}"
                }
                SurfaceInfoError::MissingId => {
                    "the surface fence info needs an \"id\" string such as \"pricing\""
                }
                SurfaceInfoError::InvalidId => {
                    "the surface id must start with a-z and use only a-z, 0-9 and -, at most 41 characters"
                }
                SurfaceInfoError::InvalidCatalog => {
                    "\"catalog\" in the surface fence info must be a string such as \"blog@1\""
                }
            }
        }
    }

    /// Reads the info of a surface fence: `None` when `fence` is not a
    /// surface fence, else the info or why it is refused.
    ///
    /// ```
    /// use surfaces_core::fence::{opening_fence, surface_info, SurfaceInfoError};
    ///
    /// let open = opening_fence(r#"```surface {"id":"pricing","catalog":"blog@1"}"#).unwrap();
    /// let info = surface_info(&open).unwrap().unwrap();
    /// assert_eq!(info.id, "pricing");
    /// assert_eq!(info.catalog.as_deref(), Some("blog@1"));
    ///
    /// let bad = opening_fence(r#"```surface {"id":"Pricing"}"#).unwrap();
    /// assert_eq!(surface_info(&bad), Some(Err(SurfaceInfoError::InvalidId)));
    /// assert_eq!(surface_info(&opening_fence("```rust").unwrap()), None);
    /// ```
    pub fn surface_info(fence: &OpeningFence<'_>) -> Option<Result<SurfaceInfo, SurfaceInfoError>> {
        let text = fence.surface_info_text()?;
        Some(parse(text))
    }

    fn parse(text: &str) -> Result<SurfaceInfo, SurfaceInfoError> {
        let value: serde_json::Value =
            crate::json::parse(text).map_err(|_| SurfaceInfoError::NotAnObject)?;
        let object = value.as_object().ok_or(SurfaceInfoError::NotAnObject)?;
        let id = match object.get("id") {
            Some(serde_json::Value::String(id)) => id,
            Some(_) => return Err(SurfaceInfoError::InvalidId),
            None => return Err(SurfaceInfoError::MissingId),
        };
        if !is_component_id(id) {
            return Err(SurfaceInfoError::InvalidId);
        }
        let catalog = match object.get("catalog") {
            None => None,
            Some(serde_json::Value::String(catalog)) => Some(catalog.clone()),
            Some(_) => return Err(SurfaceInfoError::InvalidCatalog),
        };
        Ok(SurfaceInfo {
            id: id.clone(),
            catalog,
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::fence::opening_fence;

        fn info(line: &str) -> Option<Result<SurfaceInfo, SurfaceInfoError>> {
            surface_info(&opening_fence(line).unwrap())
        }

        #[test]
        fn reads_id_and_catalog() {
            let got = info(r#"~~~ surface   {"id":"a-1","catalog":"blog@1"}  "#);
            assert_eq!(
                got,
                Some(Ok(SurfaceInfo {
                    id: "a-1".into(),
                    catalog: Some("blog@1".into())
                }))
            );
        }

        #[test]
        fn catalog_is_optional() {
            assert_eq!(
                info(r#"```surface {"id":"x"}"#),
                Some(Ok(SurfaceInfo {
                    id: "x".into(),
                    catalog: None
                }))
            );
        }

        #[test]
        fn not_a_surface_fence() {
            assert_eq!(info("```json"), None);
            assert_eq!(info("```surfaces {\"id\":\"x\"}"), None);
            assert_eq!(info("```"), None);
        }

        #[test]
        fn refusals() {
            assert_eq!(info("```surface"), Some(Err(SurfaceInfoError::NotAnObject)));
            assert_eq!(
                info("```surface [1]"),
                Some(Err(SurfaceInfoError::NotAnObject))
            );
            assert_eq!(
                info("```surface {\"id\":"),
                Some(Err(SurfaceInfoError::NotAnObject))
            );
            assert_eq!(
                info("```surface {}"),
                Some(Err(SurfaceInfoError::MissingId))
            );
            assert_eq!(
                info("```surface {\"id\":3}"),
                Some(Err(SurfaceInfoError::InvalidId))
            );
            assert_eq!(
                info("```surface {\"id\":\"9a\"}"),
                Some(Err(SurfaceInfoError::InvalidId))
            );
            assert_eq!(
                info("```surface {\"id\":\"a\",\"catalog\":1}"),
                Some(Err(SurfaceInfoError::InvalidCatalog))
            );
        }

        #[test]
        fn errors_have_codes_and_messages() {
            for e in [
                SurfaceInfoError::NotAnObject,
                SurfaceInfoError::MissingId,
                SurfaceInfoError::InvalidId,
                SurfaceInfoError::InvalidCatalog,
            ] {
                assert!(!e.code().is_empty());
                assert!(!e.message().is_empty());
            }
            assert_eq!(SurfaceInfoError::InvalidId.code(), "invalid_id");
            assert_eq!(SurfaceInfoError::MissingId.code(), "invalid_id");
            assert_eq!(SurfaceInfoError::NotAnObject.code(), "invalid_fence_info");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtick_and_tilde_openers() {
        let f = opening_fence("```js").unwrap();
        assert_eq!(
            (f.marker, f.len, f.indent, f.info),
            (FenceChar::Backtick, 3, 0, "js")
        );
        let f = opening_fence("   ~~~~~~").unwrap();
        assert_eq!(
            (f.marker, f.len, f.indent, f.info),
            (FenceChar::Tilde, 6, 3, "")
        );
        assert_eq!(f.lang(), None);
    }

    #[test]
    fn opener_needs_three_markers_and_at_most_three_spaces() {
        assert_eq!(opening_fence("``js"), None);
        assert_eq!(opening_fence("~~"), None);
        assert_eq!(opening_fence("    ```"), None);
        assert_eq!(opening_fence("\t```"), None);
        assert_eq!(opening_fence(""), None);
        assert_eq!(opening_fence("text ```"), None);
    }

    #[test]
    fn backtick_info_may_not_contain_backticks_but_tilde_info_may() {
        assert_eq!(opening_fence("``` a`b"), None);
        assert_eq!(opening_fence("~~~ a`b").map(|f| f.info), Some("a`b"));
    }

    #[test]
    fn line_endings_are_ignored() {
        assert_eq!(opening_fence("```py\r\n").map(|f| f.info), Some("py"));
        assert_eq!(strip_line_ending("a\n"), "a");
        assert_eq!(strip_line_ending("a\r\n"), "a");
        assert_eq!(strip_line_ending("a\r"), "a");
        assert_eq!(strip_line_ending("a"), "a");
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr_after_a_byte_order_mark() {
        let all = |text| lines(text).collect::<alloc::vec::Vec<_>>();
        assert_eq!(all(""), [""]);
        assert_eq!(all("a\nb\n"), ["a", "b", ""]);
        assert_eq!(all("a\r\n\r\nb"), ["a", "", "b"]);
        assert_eq!(all("a\r\rb"), ["a", "", "b"]);
        assert_eq!(all("a\n\rb"), ["a", "", "b"]);
        assert_eq!(
            all("\u{feff}```surface\r{}\r```"),
            ["```surface", "{}", "```"]
        );
        // Only a leading mark is skipped, and only one.
        assert_eq!(
            all("\u{feff}\u{feff}a\n\u{feff}b"),
            ["\u{feff}a", "\u{feff}b"]
        );
        assert_eq!(all("é\r🙂"), ["é", "🙂"]);
    }

    #[test]
    fn lang_is_the_first_word() {
        let f = opening_fence("``` python  title=x").unwrap();
        assert_eq!(f.info, "python  title=x");
        assert_eq!(f.lang(), Some("python"));
    }

    #[test]
    fn closing_fence_rules() {
        let f = opening_fence("````").unwrap();
        assert!(f.is_closed_by("````"));
        assert!(f.is_closed_by("   `````  \t\n"));
        assert!(!f.is_closed_by("```"), "shorter");
        assert!(!f.is_closed_by("~~~~"), "other character");
        assert!(!f.is_closed_by("    ````"), "four spaces");
        assert!(!f.is_closed_by("```` x"), "text after");
        assert!(!f.is_closed_by(""));
    }

    #[test]
    fn surface_fence_detection() {
        let f = opening_fence("```surface {\"id\":\"a\"}").unwrap();
        assert!(f.is_surface());
        assert_eq!(f.surface_info_text(), Some("{\"id\":\"a\"}"));
        let f = opening_fence("```surface").unwrap();
        assert!(f.is_surface());
        assert_eq!(f.surface_info_text(), Some(""));
        let f = opening_fence("```surfaced").unwrap();
        assert!(!f.is_surface());
        assert_eq!(f.surface_info_text(), None);
    }

    #[test]
    fn component_id_rule() {
        assert!(is_component_id("root"));
        assert!(is_component_id("a"));
        assert!(is_component_id("a-9-b"));
        assert!(is_component_id(&"a".repeat(41)));
        assert!(!is_component_id(&"a".repeat(42)));
        assert!(!is_component_id(""));
        assert!(!is_component_id("9a"));
        assert!(!is_component_id("-a"));
        assert!(!is_component_id("Root"));
        assert!(!is_component_id("a_b"));
        assert!(!is_component_id("é"));
    }

    #[test]
    fn fence_char_bytes() {
        assert_eq!(FenceChar::Backtick.byte(), b'`');
        assert_eq!(FenceChar::Tilde.byte(), b'~');
    }
}
