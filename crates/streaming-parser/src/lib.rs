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
//! assert_eq!(streaming_parser::heal("see [docs](https://exa"), "see [docs](https://exa)");
//! ```
extern crate alloc;

pub mod a2ui;
mod directive;
mod heal;
pub mod jsonl;
mod markdown;
pub mod partial;
pub mod surface;
mod utf8;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use heal::INCOMPLETE_LINK;
pub use jsonl::JsonlStream;
pub use markdown::{Kind, MarkdownStream};

/// Heals a whole markdown text for display: the text as written, with its
/// open last block healed (SPEC.md section 11).
pub fn heal(markdown: &str) -> String {
    let mut stream = MarkdownStream::new();
    stream.push(markdown);
    stream.finish();
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
    /// `<a2ui-json>` blocks of A2UI v0.9 messages between prose.
    A2ui(a2ui::A2uiReader),
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
            "a2ui" => Some(Stream::A2ui(a2ui::A2uiReader::new())),
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
