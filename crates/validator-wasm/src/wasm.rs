//! The WebAssembly face: JSON text in, JSON text out, converted at the edge
//! only (the npm package's JS layer turns values into text and back, which
//! costs less than crossing the boundary value by value).
//!
//! A catalog crosses as a [`LoadedCatalog`] handle, loaded once (the npm
//! layer passes the built-in `blog@1`'s when the caller gives none). What throws, throws a JS `Error`
//! whose message is the JSON text `{"code", "path", "message"}` (see
//! [`thrown`]), which the npm layer turns into a `SurfacesError`: a catalog
//! that does not load, a document or operation list that is not JSON. Bad
//! documents never throw: they come back as issues. [`Draft`] keeps a
//! document in WebAssembly memory for a stream of operations.

use crate::catalog::{Catalog, CatalogError};
use crate::issue::issues_json;
use crate::json_schema::surface_schema;
use crate::markdown::validate_markdown as markdown_issues;
use crate::patch::apply_patch_in_place;
use crate::pipeline::{patch as run_pipeline, Draft as PipelineDraft, Refusal};
use crate::prompt::catalog_prompt as prompt_text;
use crate::surface::{
    json_text, object, parse_document, validate_component as component_issues, validate_document,
};
use serde_json::Value;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// The error every face throws: a JS `Error` whose message is the JSON text
/// `{"code", "path", "message"}`; the npm layer rethrows it as a
/// `SurfacesError` with those fields.
pub fn thrown(code: &str, path: &str, message: &str) -> JsError {
    JsError::new(&json_text(
        &serde_json::json!({"code": code, "path": path, "message": message}),
    ))
}

fn thrown_catalog(e: CatalogError) -> JsError {
    thrown(e.code, &e.path, &e.message)
}

/// JSON text the caller handed over as the argument `at` (`""` for the
/// document, `/ops`, `/data`), or the error thrown for it, at `at`.
pub fn parse(text: &str, at: &str) -> Result<Value, JsError> {
    parse_document(text).map_err(|issue| thrown(issue.code, at, &issue.message))
}

/// A loaded catalog (`new LoadedCatalog(json?)`): loaded once, then passed
/// to every call by handle. Without text it is the built-in `blog@1`.
#[wasm_bindgen]
pub struct LoadedCatalog {
    catalog: Arc<Catalog>,
}

#[wasm_bindgen]
impl LoadedCatalog {
    /// Throws `invalid_catalog` or `unknown_keyword` (with the keyword's
    /// pointer as `path`) for a catalog that does not load.
    #[wasm_bindgen(constructor)]
    pub fn new(json: Option<String>) -> Result<LoadedCatalog, JsError> {
        let catalog = match json {
            None => Catalog::builtin(),
            Some(text) => Arc::new(Catalog::from_json(&text).map_err(thrown_catalog)?),
        };
        Ok(LoadedCatalog { catalog })
    }

    /// The catalog's name, e.g. `blog@1`.
    pub fn name(&self) -> String {
        self.catalog.name().to_string()
    }

    /// The component names, in catalog order.
    pub fn components(&self) -> Vec<String> {
        let entries = self.catalog.entries();
        entries.iter().map(|e| e.name.clone()).collect()
    }

    /// The model's instructions for this catalog (text).
    pub fn prompt(&self) -> String {
        prompt_text(&self.catalog)
    }

    /// A JSON Schema of a surface restricted to this catalog (JSON text).
    #[wasm_bindgen(js_name = jsonSchema)]
    pub fn json_schema(&self) -> String {
        json_text(&surface_schema(&self.catalog))
    }
}

impl LoadedCatalog {
    /// The catalog itself, shared.
    pub fn get(&self) -> Arc<Catalog> {
        Arc::clone(&self.catalog)
    }
}

/// `validate(documentJson, catalog)`: the issues of a surface or a page
/// `{"sections": [...]}`, as a JSON array text.
#[wasm_bindgen]
pub fn validate(surface: &str, catalog: &LoadedCatalog) -> String {
    let catalog = catalog.get();
    let issues = match parse_document(surface) {
        Ok(doc) => validate_document(&doc, &catalog),
        Err(issue) => vec![issue],
    };
    json_text(&issues_json(&issues))
}

/// `validateComponent(componentJson, at, catalog, dataJson?)`: one
/// component's own issues (for lines as they stream in).
#[wasm_bindgen(js_name = validateComponent)]
pub fn validate_component(
    component: &str,
    at: &str,
    catalog: &LoadedCatalog,
    data: Option<String>,
) -> Result<String, JsError> {
    if surfaces_core::pointer::check(at).is_err() {
        return Err(thrown(
            "invalid_option",
            "/at",
            "options.at is a JSON Pointer (\"/components/3\", or \"\" for the top)",
        ));
    }
    let catalog = catalog.get();
    let data = data.map(|d| parse(&d, "/data")).transpose()?;
    let issues = match parse_document(component) {
        Ok(c) => component_issues(&c, at, &catalog, data.as_ref()),
        Err(issue) => vec![issue],
    };
    Ok(json_text(&issues_json(&issues)))
}

/// `validateMarkdown(body, catalog)`: the issues of a markdown body.
#[wasm_bindgen(js_name = validateMarkdown)]
pub fn validate_markdown(body: &str, catalog: &LoadedCatalog) -> String {
    json_text(&issues_json(&markdown_issues(body, &catalog.get())))
}

/// `patch(documentJson, opsJson, catalog)`: the pipeline's outcome,
/// `{"document", "applied", "repairs", "refused"}`.
#[wasm_bindgen]
pub fn patch(document: &str, ops: &str, catalog: &LoadedCatalog) -> Result<String, JsError> {
    let (doc, ops) = (parse(document, "")?, parse(ops, "/ops")?);
    Ok(json_text(
        &run_pipeline(&doc, &ops, &catalog.get()).into_json(),
    ))
}

/// `applyPatch(documentJson, patchJson)`: an atomic RFC 6902 patch,
/// `{"ok": true, "document"}` or `{"ok": false, "error": {op, code, path, message}}`.
#[wasm_bindgen(js_name = applyPatch)]
pub fn apply_patch(document: &str, patch: &str) -> Result<String, JsError> {
    let (mut doc, ops) = (parse(document, "")?, parse(patch, "/ops")?);
    // The parsed document is ours: patch it in place, no copy.
    let out = match apply_patch_in_place(&mut doc, &ops) {
        Ok(()) => object([("ok", true.into()), ("document", doc)]),
        Err(e) => object([("ok", false.into()), ("error", e.to_json())]),
    };
    Ok(json_text(&out))
}

/// `new Draft(documentJson, catalog)`: a document kept in WebAssembly
/// memory and edited operation by operation, so each operation re-checks
/// only what it can change (the fast path for a model's stream of edits).
#[wasm_bindgen]
pub struct Draft {
    draft: PipelineDraft,
    catalog: Arc<Catalog>,
}

#[wasm_bindgen]
impl Draft {
    /// Throws `invalid_json` when the document is not JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(document: &str, catalog: &LoadedCatalog) -> Result<Draft, JsError> {
        Ok(Draft {
            draft: PipelineDraft::new(parse(document, "")?),
            catalog: catalog.get(),
        })
    }

    /// `draft.apply(opsJson)` (a list of operations, or one):
    /// `{"applied", "repairs", "refused", "held"}`.
    pub fn apply(&mut self, ops: &str) -> Result<String, JsError> {
        let ops = parse(ops, "/ops")?;
        Ok(json_text(&self.draft.apply(&ops, &self.catalog).to_json()))
    }

    /// `draft.settle()`: ends the round, `{"refused"}` for what still waited.
    pub fn settle(&mut self) -> String {
        let refused = self.draft.settle(&self.catalog);
        json_text(&object([(
            "refused",
            refused.iter().map(Refusal::to_json).collect(),
        )]))
    }

    /// `draft.document()`: the document as it is now (JSON text).
    pub fn document(&self) -> String {
        json_text(self.draft.document())
    }

    /// `draft.issues()`: every issue of the document as it is now.
    pub fn issues(&mut self) -> String {
        json_text(&issues_json(&self.draft.issues(&self.catalog)))
    }
}
