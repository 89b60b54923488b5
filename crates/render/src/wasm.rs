//! The WebAssembly face, for previews (Studio's Build view): JSON text in,
//! JSON text out. The catalog is JSON text, or `undefined` for the built-in
//! `blog@1`, loaded through the validator's catalog cache.

use crate::{render_markdown as markdown_html, render_surface as surface_html};
use validator_wasm::issue::issues_json;
use validator_wasm::surface::parse_document;
use validator_wasm::wasm::cached_catalog;
use wasm_bindgen::prelude::*;

/// `{"html": "..."}`, or `{"issues": [...]}` when the validator refuses it.
fn outcome(result: Result<String, Vec<validator_wasm::Issue>>) -> String {
    match result {
        Ok(html) => serde_json::json!({ "html": html }),
        Err(issues) => serde_json::json!({ "issues": issues_json(&issues) }),
    }
    .to_string()
}

/// `renderSurface(surface, catalogJson?)`: a surface document (JSON text)
/// as published-page markup. Throws only for a catalog that does not load.
#[wasm_bindgen(js_name = renderSurface)]
pub fn render_surface(surface: &str, catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    Ok(outcome(
        parse_document(surface)
            .map_err(|issue| vec![issue])
            .and_then(|doc| surface_html(&doc, &catalog)),
    ))
}

/// `renderMarkdown(body, catalogJson?)`: every surface fence of a markdown
/// body as published-page markup, in order.
#[wasm_bindgen(js_name = renderMarkdown)]
pub fn render_markdown(body: &str, catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    Ok(outcome(markdown_html(body, &catalog)))
}
