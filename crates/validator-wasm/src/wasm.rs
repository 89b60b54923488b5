//! The WebAssembly face: JSON text in, JSON text out, converted at the edge
//! only. Every function takes the catalog as JSON text, or `undefined` for
//! the built-in `blog@1`; the last catalog used is kept, so repeated calls
//! with the same catalog text do not reload it. A catalog that does not load
//! throws an `Error` naming the problem; bad documents never throw, they
//! come back as issues. `Draft` keeps a document in WebAssembly memory for
//! a stream of operations.

use crate::catalog::Catalog;
use crate::issue::issues_json;
use crate::markdown::validate_markdown as markdown_issues;
use crate::patch::apply_patch_in_place;
use crate::pipeline::{patch as run_pipeline, Draft as PipelineDraft};
use crate::prompt::catalog_prompt as prompt_text;
use crate::surface::{parse_document, validate_component as component_issues, validate_document};
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The last catalog loaded, by its text (`None` for the built-in one).
    static CATALOG: RefCell<Option<(Option<String>, Arc<Catalog>)>> = const { RefCell::new(None) };
}

/// The catalog for `text` (JSON text, or `None` for the built-in `blog@1`),
/// reusing the last one loaded when the text is the same. Other crates'
/// WASM faces (the stream, the renderer) share this cache.
pub fn cached_catalog(text: Option<String>) -> Result<Arc<Catalog>, JsError> {
    let cached = CATALOG.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|(key, _)| *key == text)
            .map(|(_, cat)| Arc::clone(cat))
    });
    if let Some(cat) = cached {
        return Ok(cat);
    }
    let loaded = match &text {
        None => Catalog::builtin(),
        Some(t) => Arc::new(Catalog::from_json(t).map_err(|e| JsError::new(&e.to_string()))?),
    };
    CATALOG.with(|c| *c.borrow_mut() = Some((text, Arc::clone(&loaded))));
    Ok(loaded)
}

/// `validate(documentJson, catalogJson?)`: the issues of a surface or a page
/// `{"sections": [...]}`, as a JSON array text.
#[wasm_bindgen]
pub fn validate(surface: &str, catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    let issues = match parse_document(surface) {
        Ok(doc) => validate_document(&doc, &catalog),
        Err(issue) => vec![issue],
    };
    Ok(issues_json(&issues).to_string())
}

/// `validateComponent(componentJson, at, catalogJson?, dataJson?)`: one
/// component's own issues (for lines as they stream in).
#[wasm_bindgen(js_name = validateComponent)]
pub fn validate_component(
    component: &str,
    at: &str,
    catalog_json: Option<String>,
    data: Option<String>,
) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    let data = data.and_then(|d| parse_document(&d).ok());
    let issues = match parse_document(component) {
        Ok(c) => component_issues(&c, at, &catalog, data.as_ref()),
        Err(issue) => vec![issue],
    };
    Ok(issues_json(&issues).to_string())
}

/// `validateMarkdown(body, catalogJson?)`: the issues of a markdown body.
#[wasm_bindgen(js_name = validateMarkdown)]
pub fn validate_markdown(body: &str, catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    Ok(issues_json(&markdown_issues(body, &catalog)).to_string())
}

/// `patch(documentJson, opsJson, catalogJson?)`: the pipeline's outcome,
/// `{"document", "applied", "repairs", "refused"}`.
#[wasm_bindgen]
pub fn patch(document: &str, ops: &str, catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    let doc = parse_document(document).map_err(|i| JsError::new(&i.message))?;
    let ops = parse_document(ops).map_err(|i| JsError::new(&i.message))?;
    Ok(run_pipeline(&doc, &ops, &catalog).to_json().to_string())
}

/// `applyPatch(documentJson, patchJson)`: an atomic RFC 6902 patch,
/// `{"ok": true, "document"}` or `{"ok": false, "error": {op, code, path, message}}`.
#[wasm_bindgen(js_name = applyPatch)]
pub fn apply_patch(document: &str, patch: &str) -> Result<String, JsError> {
    let mut doc = parse_document(document).map_err(|i| JsError::new(&i.message))?;
    let ops = parse_document(patch).map_err(|i| JsError::new(&i.message))?;
    // The parsed document is ours: patch it in place, no copy.
    let out = match apply_patch_in_place(&mut doc, &ops) {
        Ok(()) => serde_json::json!({"ok": true, "document": doc}),
        Err(e) => serde_json::json!({"ok": false, "error": e.to_json()}),
    };
    Ok(out.to_string())
}

/// `catalogPrompt(catalogJson?)`: the model's instructions (text).
#[wasm_bindgen(js_name = catalogPrompt)]
pub fn catalog_prompt(catalog_json: Option<String>) -> Result<String, JsError> {
    let catalog = cached_catalog(catalog_json)?;
    Ok(prompt_text(&catalog))
}

/// `new Draft(documentJson, catalogJson?)`: a document kept in WebAssembly
/// memory and edited operation by operation, so each operation re-checks
/// only what it can change (the fast path for a model's stream of edits).
#[wasm_bindgen]
pub struct Draft {
    draft: PipelineDraft,
    catalog: Arc<Catalog>,
}

#[wasm_bindgen]
impl Draft {
    /// Throws when the document is not JSON or the catalog does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(document: &str, catalog_json: Option<String>) -> Result<Draft, JsError> {
        let catalog = cached_catalog(catalog_json)?;
        let doc = parse_document(document).map_err(|i| JsError::new(&i.message))?;
        Ok(Draft {
            draft: PipelineDraft::new(doc),
            catalog,
        })
    }

    /// `draft.apply(opsJson)`: `{"applied", "repairs", "refused"}`.
    pub fn apply(&mut self, ops: &str) -> Result<String, JsError> {
        let ops = parse_document(ops).map_err(|i| JsError::new(&i.message))?;
        Ok(self.draft.apply(&ops, &self.catalog).to_json().to_string())
    }

    /// `draft.document()`: the document as it is now (JSON text).
    pub fn document(&self) -> String {
        self.draft.document().to_string()
    }

    /// `draft.issues()`: every issue of the document as it is now.
    pub fn issues(&mut self) -> String {
        issues_json(&self.draft.issues(&self.catalog)).to_string()
    }
}
