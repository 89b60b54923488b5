//! The WebAssembly face: text or bytes in, JSON text out, converted at the
//! edge only (the npm layer parses it into values).
//!
//! ```js
//! const stream = new Stream("markdown");
//! for await (const chunk of response) render(JSON.parse(stream.push(chunk)));
//! const { changes, document } = JSON.parse(stream.finish());
//! ```

use crate::{MarkdownStream, Stream as Reader};
use serde_json::Value;
use validator_wasm::wasm::{thrown, LoadedCatalog};
use validator_wasm::{json_text, object};
use wasm_bindgen::prelude::*;

/// A streaming parser over one answer.
#[wasm_bindgen]
pub struct Stream {
    reader: Reader,
}

#[wasm_bindgen]
impl Stream {
    /// `new Stream(mode, catalog)`: `mode` is `"markdown"`, `"jsonl"` or
    /// `"a2ui"`; markdown surfaces are checked with `catalog` (the npm layer
    /// refuses a catalog given to the other modes, which check no surfaces).
    /// Throws `invalid_option` on an unknown mode.
    #[wasm_bindgen(constructor)]
    pub fn new(mode: &str, catalog: &LoadedCatalog) -> Result<Stream, JsError> {
        let reader = match Reader::new(mode) {
            None => {
                return Err(thrown(
                    "invalid_option",
                    "/mode",
                    &["unknown mode \"", mode, "\" (", Reader::MODES, ")"].concat(),
                ))
            }
            Some(Reader::Markdown(_)) => {
                Reader::Markdown(Box::new(MarkdownStream::with_catalog(catalog.get())))
            }
            Some(reader) => reader,
        };
        Ok(Stream { reader })
    }

    /// Reads the next chunk; returns the changes as a JSON array text.
    pub fn push(&mut self, chunk: &str) -> String {
        json_text(&Value::Array(self.reader.push(chunk)))
    }

    /// Reads the next chunk of UTF-8 bytes, split anywhere.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> String {
        json_text(&Value::Array(self.reader.push_bytes(chunk)))
    }

    /// Ends the input: `{"changes", "document"}` as JSON text, the last
    /// changes and the final document (`{"blocks": [...]}` in markdown mode,
    /// SPEC.md section 11).
    pub fn finish(&mut self) -> String {
        let changes = self.reader.finish();
        json_text(&object([
            ("changes", changes.into()),
            ("document", self.reader.document()),
        ]))
    }

    /// The document so far, as JSON text.
    pub fn document(&self) -> String {
        json_text(&self.reader.document())
    }
}

/// `heal(markdown)`: the text healed for display (its open last block).
#[wasm_bindgen]
pub fn heal(markdown: &str) -> String {
    crate::heal(markdown)
}
