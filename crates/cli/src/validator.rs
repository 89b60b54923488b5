//! `surfaces validate`, `surfaces patch` and `surfaces prompt` (SPEC.md
//! section 9), over the validator crate.

use crate::input::{
    fail, finish, is_markdown, load_catalog, option, options, read, write_out, Failure, Usage,
};
use serde_json::{json, Value};
use std::process::ExitCode;
use validator_wasm::markdown::validate_markdown;
use validator_wasm::pipeline::patch as run_patch;
use validator_wasm::prompt::catalog_prompt;
use validator_wasm::{has_errors, issues_json, parse_document, validate_document_text};

/// `surfaces validate [--catalog FILE] FILE...`
pub fn validate(args: &[String]) -> ExitCode {
    finish("validate", validate_files(args))
}

fn validate_files(args: &[String]) -> Result<(String, bool), Failure> {
    let (opts, files) = options(args, &["catalog"], &[])?;
    if files.is_empty() {
        return Err(Usage("usage: surfaces validate [--catalog FILE] FILE...".into()).into());
    }
    let catalog = load_catalog(option(&opts, "catalog"))?;
    let mut reports = Vec::new();
    let mut all_ok = true;
    for file in files {
        let issues = match read(file) {
            Ok(text) if is_markdown(file) => validate_markdown(&text, &catalog),
            Ok(text) => validate_document_text(&text, &catalog),
            // Not UTF-8: that file's issue, and the others are still read.
            Err(Failure::Refused(_, issue)) => vec![*issue],
            Err(usage) => return Err(usage),
        };
        let ok = !has_errors(&issues);
        all_ok &= ok;
        reports.push(json!({"file": file, "ok": ok, "issues": issues_json(&issues)}));
    }
    Ok((json!({"ok": all_ok, "files": reports}).to_string(), all_ok))
}

/// `surfaces patch --doc FILE --ops FILE [--catalog FILE]`
pub fn patch(args: &[String]) -> ExitCode {
    finish("patch", patch_files(args))
}

/// A `--doc` or `--ops` file that `surfaces validate` refuses (too large,
/// not JSON) is refused with its code (exit 1).
fn patch_files(args: &[String]) -> Result<(String, bool), Failure> {
    const USAGE: &str = "usage: surfaces patch --doc FILE --ops FILE [--catalog FILE]";
    let (opts, files) = options(args, &["doc", "ops", "catalog"], &[])?;
    let (Some(doc_file), Some(ops_file), true) =
        (option(&opts, "doc"), option(&opts, "ops"), files.is_empty())
    else {
        return Err(Usage(USAGE.into()).into());
    };
    let catalog = load_catalog(option(&opts, "catalog"))?;
    let parse = |file: &str| -> Result<Value, Failure> {
        parse_document(&read(file)?)
            .map_err(|issue| Failure::Refused(file.to_string(), Box::new(issue)))
    };
    let doc = parse(doc_file)?;
    let ops = parse(ops_file)?;
    if !ops.is_array() {
        return Err(Usage(format!(
            "{ops_file}: the operations are a JSON array of RFC 6902 operations"
        ))
        .into());
    }
    let outcome = run_patch(&doc, &ops, &catalog);
    let settled = outcome.refused.is_empty();
    Ok((outcome.into_json().to_string(), settled))
}

/// `surfaces prompt [--catalog FILE]`
pub fn prompt(args: &[String]) -> ExitCode {
    let result = options(args, &["catalog"], &[]).and_then(|(opts, files)| {
        if !files.is_empty() {
            return Err(Usage("usage: surfaces prompt [--catalog FILE]".into()));
        }
        Ok(catalog_prompt(&load_catalog(option(&opts, "catalog"))?))
    });
    match result {
        Ok(text) => write_out(&text, ExitCode::SUCCESS),
        Err(usage) => fail("prompt", usage),
    }
}
