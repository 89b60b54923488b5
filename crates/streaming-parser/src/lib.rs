//! Reads model output chunk by chunk: healed markdown, surface fences with
//! ghosts, placeholders for open constructs (SPEC.md sections 8 and 11).
//!
//! Text may arrive split anywhere, even inside a multi-byte character. After
//! each chunk the stream says which blocks changed; the work per chunk is
//! proportional to the chunk, never to the text so far. The open last block
//! carries a healed view for display (unclosed emphasis, code, math, links,
//! fences closed; incomplete images and HTML tags hidden); the stored text is
//! never changed.
//!
//! ```
//! use streaming_parser::MarkdownStream;
//!
//! let mut stream = MarkdownStream::new();
//! stream.push_bytes("Hello **wor".as_bytes());
//! let changes = stream.push_bytes("ld and `code".as_bytes());
//! assert_eq!(changes[0]["op"], "update");
//! let doc = stream.document();
//! assert_eq!(doc["blocks"][0]["text"], "Hello **world and `code");
//! assert_eq!(doc["blocks"][0]["healed"], "Hello **world and `code`**");
//!
//! assert_eq!(streaming_parser::heal("see [docs](https://exa"), "see [docs](streamdown:incomplete-link)");
//! ```
//!
//! Three readers share one face, [`Stream`]: `markdown` ([`MarkdownStream`],
//! SPEC.md section 11), `jsonl` ([`JsonlStream`], a model's JSON Lines answer
//! read tolerantly) and `a2ui` ([`a2ui::A2uiReader`], `<a2ui-json>` blocks).
//!
//! # How the markdown stream works
//!
//! A complete line is applied once to the blocks and never read again; the
//! unfinished last line is attached tentatively, as if it were complete,
//! from its first bytes (a fence or directive opener shows as a tentative
//! block). Prose characters go straight into the open block's healing state
//! (a stack of open emphasis and bracket openers and the mode: code span,
//! `$$` math, link URL, HTML tag), so the healed view costs the depth of that
//! stack. A surface line is parsed and checked by the validator's
//! per-component rules when it completes; the unfinished one is the ghost.
//!
//! # Choices where SPEC.md is silent
//!
//! - Blocks are numbered by position (`"block": n`): the numbers depend on
//!   the text only, never on the chunking. A tentative block that turns out
//!   to be prose is removed and its number reused.
//! - A prose block ends at a fence, a directive, an ATX heading (a block of
//!   its own), or a line after blank lines that neither is indented nor
//!   continues a list (nor a code line: CommonMark, as pulldown-cmark
//!   reads it, goes on with one to its `\n`, past a lone `\r`). Blank
//!   lines between blocks belong to no block.
//! - A fence inside a container directive is a block of its own (only code
//!   blocks hide fences, SPEC.md section 8): the container's part before it
//!   is complete, and the container goes on in a new `directive` block (its
//!   `name`) once the fence closes.
//! - A prose block is complete once a later block starts; code, surface and
//!   container blocks when their closing line arrives (a closing line not yet
//!   ended counts); a leaf directive when its line ends.
//! - Changes, after each chunk: `{"op": "add", "block", "value", "heal"?}`,
//!   `{"op": "update", "block", "append"?, "complete", "heal"?, ...}` (only
//!   what changed: `components`, `refused` and `flags` list the new entries,
//!   `data`, `ghost`, `held`, `issues` the current value) and
//!   `{"op": "remove", "block"}` (only the last block). `heal` is
//!   `{"drop": n, "add": s}`: the healed view is the text without its last
//!   `n` UTF-16 code units, then `s`; `null` once the block is complete.
//! - Healing adds closers and hides (never rewrites) what cannot be closed
//!   honestly: an incomplete image or HTML tag, a delimiter run that closes
//!   nothing, white space before an added closer. An incomplete link points
//!   at [`INCOMPLETE_LINK`], its unfinished destination hidden (a cut URL
//!   would lead to another host), as Streamdown's remend does; a line that
//!   would turn the one above into a setext heading gets a zero-width
//!   space. Healing is idempotent.
//! - A surface block also has `held` (ids waiting for `root`), `flags` (the
//!   validator's flags on kept components, with their `line`) and `issues`
//!   (the whole surface checked when its fence closes, or when the text
//!   ends inside it, with the body's own codes for the fence; else `null`); a
//!   refusal also has `path`, inside the line's value. An invalid fence info
//!   is refused on the opening line (`invalid_id`, `invalid_fence_info`).
//! - Limits: a surface line over [`surface::LINE_LIMIT`] bytes is refused
//!   with `line_too_long`; an unfinished line over [`surface::GHOST_LIMIT`]
//!   shows the ghost `{"partial": true, "code": "ghost_too_large"}`; at most
//!   64 open emphasis or bracket openers are tracked per paragraph.
extern crate alloc;

pub mod a2ui;
mod directive;
mod heal;
pub mod jsonl;
mod markdown;
pub mod partial;
mod punct;
pub mod surface;
mod utf8;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// Counts the bytes the markdown reader scans, so that a test can check the
/// work per chunk is proportional to the chunk (a no-op outside tests).
#[cfg(test)]
mod work {
    use core::cell::Cell;
    std::thread_local!(static READ: Cell<usize> = const { Cell::new(0) });
    pub fn read(n: usize) {
        READ.with(|r| r.set(r.get() + n));
    }
    pub fn take() -> usize {
        READ.with(|r| r.replace(0))
    }
}
#[cfg(not(test))]
mod work {
    #[inline(always)]
    pub fn read(_: usize) {}
}

pub use heal::INCOMPLETE_LINK;
pub use jsonl::JsonlStream;
pub use markdown::{Kind, MarkdownStream};
pub use utf8::Decoder;

/// Heals a whole markdown text for display: the text as written, with its
/// open last block healed (SPEC.md section 11).
pub fn heal(markdown: &str) -> String {
    let mut stream = MarkdownStream::new();
    stream.push(markdown);
    stream.end_input();
    stream.healed_text(markdown)
}

/// One reader per kind of answer, behind one face (the CLI's `--mode` and
/// the wasm `Stream`).
#[derive(Debug, Clone)]
pub enum Stream {
    /// Markdown with surface fences and directives (SPEC.md section 11).
    Markdown(Box<MarkdownStream>),
    /// A JSON Lines answer, read tolerantly.
    Jsonl(JsonlStream),
    /// `<a2ui-json>` blocks of A2UI v0.9 or v1.0 messages between prose.
    A2ui(Box<a2ui::A2uiReader>),
}

impl Stream {
    /// The modes [`Stream::new`] knows.
    pub const MODES: &'static str = "markdown|jsonl|a2ui";

    /// A reader for `mode` (`markdown`, `jsonl` or `a2ui`), `None` for
    /// another.
    pub fn new(mode: &str) -> Option<Stream> {
        match mode {
            "markdown" => Some(Stream::Markdown(Box::default())),
            "jsonl" => Some(Stream::Jsonl(JsonlStream::new())),
            "a2ui" => Some(Stream::A2ui(Box::default())),
            _ => None,
        }
    }

    /// Reads bytes split anywhere; returns the changes.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<serde_json::Value> {
        match self {
            Stream::Markdown(s) => s.push_bytes(bytes),
            Stream::Jsonl(s) => s.push_bytes(bytes),
            Stream::A2ui(s) => s.push_bytes(bytes),
        }
    }

    /// Reads text; returns the changes.
    pub fn push(&mut self, text: &str) -> Vec<serde_json::Value> {
        match self {
            Stream::Markdown(s) => s.push(text),
            Stream::Jsonl(s) => s.push(text),
            Stream::A2ui(s) => s.push(text),
        }
    }

    /// Ends the input; returns the last changes.
    pub fn finish(&mut self) -> Vec<serde_json::Value> {
        match self {
            Stream::Markdown(s) => s.finish(),
            Stream::Jsonl(s) => s.finish(),
            Stream::A2ui(s) => s.finish(),
        }
    }

    /// The document so far.
    pub fn document(&self) -> serde_json::Value {
        match self {
            Stream::Markdown(s) => s.document(),
            Stream::Jsonl(s) => s.document(),
            Stream::A2ui(s) => s.document(),
        }
    }
}
