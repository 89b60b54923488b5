//! The WebAssembly face: text in, JSON text out, converted at the edge only.
//!
//! ```js
//! const stream = new Stream("markdown");
//! for await (const chunk of response) render(JSON.parse(stream.push(chunk)));
//! const doc = JSON.parse(stream.finish());
//! ```

use crate::MarkdownStream;
use validator_wasm::Catalog;
use wasm_bindgen::prelude::*;

/// A streaming parser over one answer.
#[wasm_bindgen]
pub struct Stream {
    markdown: MarkdownStream,
}

#[wasm_bindgen]
impl Stream {
    /// `new Stream(mode?, catalogJson?)`: `mode` is `"markdown"` (the
    /// default); surfaces are checked with the catalog given as JSON text,
    /// or the built-in `blog@1`. Throws on an unknown mode or a catalog that
    /// does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(mode: Option<String>, catalog_json: Option<String>) -> Result<Stream, JsError> {
        match mode.as_deref() {
            None | Some("markdown") => {}
            Some(other) => {
                return Err(JsError::new(
                    &["unknown mode \"", other, "\" (markdown)"].concat(),
                ))
            }
        }
        let markdown = match catalog_json {
            None => MarkdownStream::new(),
            Some(text) => MarkdownStream::with_catalog(
                Catalog::from_json(&text).map_err(|e| JsError::new(&e.to_string()))?,
            ),
        };
        Ok(Stream { markdown })
    }

    /// Reads the next chunk; returns the changes as a JSON array text.
    pub fn push(&mut self, chunk: &str) -> String {
        serde_json::Value::Array(self.markdown.push(chunk)).to_string()
    }

    /// Reads the next chunk of UTF-8 bytes, split anywhere.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> String {
        serde_json::Value::Array(self.markdown.push_bytes(chunk)).to_string()
    }

    /// Ends the input; returns the final document `{"blocks": [...]}` as
    /// JSON text (SPEC.md section 11).
    pub fn finish(&mut self) -> String {
        self.markdown.finish();
        self.markdown.document().to_string()
    }

    /// The document so far, as JSON text.
    pub fn document(&self) -> String {
        self.markdown.document().to_string()
    }
}

/// `heal(markdown)`: the text healed for display (its open last block).
#[wasm_bindgen]
pub fn heal(markdown: &str) -> String {
    crate::heal(markdown)
}
