//! The WebAssembly face (linked into the Studio module): JSON text in, JSON
//! text out, converted at the edge only (the npm layer's `./interop` takes
//! and gives values).
//!
//! ```js
//! const { surfaces, notes } = JSON.parse(fromA2ui(answerText));
//! const importer = new A2uiImport(undefined, "");
//! for await (const chunk of response) draft.apply(JSON.parse(importer.push(chunk)));
//! ```

use crate::a2ui::{self, Version};
use crate::json_render;
use crate::note::notes_json;
use serde_json::Value;
use validator_wasm::wasm::{parse, thrown};
use validator_wasm::{json_text, object};
use wasm_bindgen::prelude::*;

/// `{"surfaces", "notes"}` of A2UI messages given as text (a JSON list or
/// message, JSON Lines, or an answer with `<a2ui-json>` blocks).
#[wasm_bindgen(js_name = fromA2ui)]
pub fn from_a2ui(text: &str) -> String {
    let out = a2ui::from_a2ui(text);
    json_text(&object([
        ("surfaces", out.surfaces.into()),
        ("notes", notes_json(&out.notes)),
    ]))
}

/// `{"messages", "notes"}`: a surface (JSON text) as A2UI messages of
/// `version` (`v1.0` or `v0.9`); throws `invalid_option` on another.
#[wasm_bindgen(js_name = toA2ui)]
pub fn to_a2ui(surface: &str, version: &str) -> Result<String, JsError> {
    let Some(version) = Version::parse(version) else {
        return Err(thrown(
            "invalid_option",
            "/version",
            &["unknown A2UI version \"", version, "\" (v0.9 or v1.0)"].concat(),
        ));
    };
    let out = a2ui::to_a2ui(&parse(surface, "")?, version);
    Ok(json_text(&object([
        ("messages", out.messages.into()),
        ("notes", notes_json(&out.notes)),
    ])))
}

/// `{"surface", "notes"}` of a json-render spec (JSON text).
#[wasm_bindgen(js_name = fromJsonRender)]
pub fn from_json_render(spec: &str) -> Result<String, JsError> {
    let out = json_render::from_json_render(&parse(spec, "")?);
    Ok(json_text(&object([
        ("surface", out.surface),
        ("notes", notes_json(&out.notes)),
    ])))
}

/// `{"spec", "notes"}` of a surface (JSON text).
#[wasm_bindgen(js_name = toJsonRender)]
pub fn to_json_render(surface: &str) -> Result<String, JsError> {
    let out = json_render::to_json_render(&parse(surface, "")?);
    Ok(json_text(&object([
        ("spec", out.spec),
        ("notes", notes_json(&out.notes)),
    ])))
}

/// A2UI messages as they arrive, as operations on one surface document.
#[wasm_bindgen]
pub struct A2uiImport {
    import: a2ui::A2uiImport,
}

#[wasm_bindgen]
impl A2uiImport {
    /// `new A2uiImport(surfaceId, at)`: the surface to follow (the first
    /// created when absent), at `at` in the draft's document.
    #[wasm_bindgen(constructor)]
    pub fn new(surface: Option<String>, at: &str) -> A2uiImport {
        A2uiImport {
            import: a2ui::A2uiImport::new(surface.as_deref(), at),
        }
    }
}

/// json-render's SpecStream (JSON Lines of RFC 6902 operations on a spec)
/// as it arrives, as operations on one surface document.
#[wasm_bindgen]
pub struct JsonRenderImport {
    import: json_render::JsonRenderImport,
}

#[wasm_bindgen]
impl JsonRenderImport {
    /// `new JsonRenderImport(at)`: the surface sits at `at` in the draft's
    /// document.
    #[wasm_bindgen(constructor)]
    pub fn new(at: &str) -> JsonRenderImport {
        JsonRenderImport {
            import: json_render::JsonRenderImport::new(at),
        }
    }

    /// The spec so far (JSON text).
    pub fn spec(&self) -> String {
        json_text(self.import.spec())
    }
}

/// The methods both imports' faces have, over the native imports' methods
/// of the same names; `$values` pushes values (messages, operations).
macro_rules! pushes {
    ($face:ident, $values:ident, $values_js:ident) => {
        #[wasm_bindgen]
        impl $face {
            /// The next chunk of text; the operations as a JSON array text.
            pub fn push(&mut self, chunk: &str) -> String {
                json_text(&Value::Array(self.import.push_text(chunk)))
            }

            /// The next chunk of UTF-8 bytes, split anywhere.
            #[wasm_bindgen(js_name = pushBytes)]
            pub fn push_bytes(&mut self, chunk: &[u8]) -> String {
                json_text(&Value::Array(self.import.push_bytes(chunk)))
            }

            /// One value or a list of them (JSON text).
            #[wasm_bindgen(js_name = $values_js)]
            pub fn $values(&mut self, values: &str) -> Result<String, JsError> {
                let value = parse(values, "")?;
                Ok(json_text(&Value::Array(self.import.push_value(&value))))
            }

            /// The text ended: the operations of what was still open.
            pub fn finish(&mut self) -> String {
                json_text(&Value::Array(self.import.finish()))
            }

            /// The notes so far, as a JSON array text.
            pub fn notes(&self) -> String {
                json_text(&notes_json(&self.import.notes()))
            }

            /// The surface the operations so far build (JSON text, `null`
            /// before it has a root).
            pub fn surface(&self) -> String {
                self.import
                    .surface()
                    .map_or_else(|| "null".into(), json_text)
            }
        }
    };
}

pushes!(A2uiImport, push_messages, pushMessages);
pushes!(JsonRenderImport, push_operations, pushOperations);
