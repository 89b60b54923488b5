//! The WebAssembly face: text in, JSON text out, converted at the edge only.
//!
//! ```js
//! const stream = new Stream("markdown");
//! for await (const chunk of response) render(JSON.parse(stream.push(chunk)));
//! const doc = JSON.parse(stream.finish());
//! ```

use crate::{MarkdownStream, Stream as Reader};
use validator_wasm::wasm::cached_catalog;
use wasm_bindgen::prelude::*;

/// A streaming parser over one answer.
#[wasm_bindgen]
pub struct Stream {
    reader: Reader,
}

#[wasm_bindgen]
impl Stream {
    /// `new Stream(mode?, catalogJson?)`: `mode` is `"markdown"` (the
    /// default), `"jsonl"` or `"a2ui"`; markdown surfaces are checked with the
    /// catalog given as JSON text, or the built-in `blog@1`. Throws on an
    /// unknown mode or a catalog that does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(mode: Option<String>, catalog_json: Option<String>) -> Result<Stream, JsError> {
        let mode = mode.as_deref().unwrap_or("markdown");
        let reader = match (Reader::new(mode), catalog_json) {
            (None, _) => {
                return Err(JsError::new(
                    &["unknown mode \"", mode, "\" (", Reader::MODES, ")"].concat(),
                ))
            }
            (Some(Reader::Markdown(_)), Some(text)) => {
                let catalog = cached_catalog(Some(text))?;
                Reader::Markdown(Box::new(MarkdownStream::with_catalog(catalog)))
            }
            (Some(reader), _) => reader,
        };
        Ok(Stream { reader })
    }

    /// Reads the next chunk; returns the changes as a JSON array text.
    pub fn push(&mut self, chunk: &str) -> String {
        serde_json::Value::Array(self.reader.push(chunk)).to_string()
    }

    /// Reads the next chunk of UTF-8 bytes, split anywhere.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> String {
        serde_json::Value::Array(self.reader.push_bytes(chunk)).to_string()
    }

    /// Ends the input; returns the final document as JSON text
    /// (`{"blocks": [...]}` in markdown mode, SPEC.md section 11).
    pub fn finish(&mut self) -> String {
        self.reader.finish();
        self.reader.document().to_string()
    }

    /// The document so far, as JSON text.
    pub fn document(&self) -> String {
        self.reader.document().to_string()
    }
}

/// `heal(markdown)`: the text healed for display (its open last block).
#[wasm_bindgen]
pub fn heal(markdown: &str) -> String {
    crate::heal(markdown)
}
