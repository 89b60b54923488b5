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

mod directive;
mod heal;
mod markdown;
pub mod partial;
pub mod surface;
mod utf8;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use heal::INCOMPLETE_LINK;
pub use markdown::{Kind, MarkdownStream};

/// Heals a whole markdown text for display: the text as written, with its
/// open last block healed (SPEC.md section 11).
pub fn heal(markdown: &str) -> String {
    let mut stream = MarkdownStream::new();
    stream.push(markdown);
    stream.finish();
    stream.healed_text(markdown)
}
