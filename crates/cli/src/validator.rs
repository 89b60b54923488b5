//! `surfaces validate`, `surfaces patch` and `surfaces prompt` (SPEC.md
//! section 9), over the validator crate.

use serde_json::{json, Value};
use std::process::ExitCode;
use validator_wasm::markdown::validate_markdown;
use validator_wasm::pipeline::patch as run_patch;
use validator_wasm::prompt::catalog_prompt;
use validator_wasm::{has_errors, issues_json, parse_document, validate_document_text, Catalog};

/// Bad usage or unreadable input: the one-line message for standard error.
struct Usage(String);

fn finish(command: &str, result: Result<(String, bool), Usage>) -> ExitCode {
    match result {
        Ok((output, ok)) => {
            println!("{output}");
            ExitCode::from(if ok { 0 } else { 1 })
        }
        Err(Usage(message)) => {
            eprintln!("surfaces {command}: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &str) -> Result<String, Usage> {
    std::fs::read_to_string(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))
}

fn load_catalog(path: Option<&str>) -> Result<Catalog, Usage> {
    match path {
        None => Ok(Catalog::default_blog()),
        Some(p) => {
            Catalog::from_json(&read(p)?).map_err(|e| Usage(format!("cannot use catalog {p}: {e}")))
        }
    }
}

/// `--name VALUE` options and positional arguments.
type Args<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// Splits `--name VALUE` options from positional arguments.
fn options<'a>(args: &'a [String], names: &[&str]) -> Result<Args<'a>, Usage> {
    let mut opts = Vec::new();
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if let Some(name) = arg.strip_prefix("--") {
            if !names.contains(&name) {
                return Err(Usage(format!("unknown option `{arg}`")));
            }
            let value = rest
                .next()
                .ok_or_else(|| Usage(format!("{arg} needs a value")))?;
            opts.push((name, value.as_str()));
        } else {
            files.push(arg.as_str());
        }
    }
    Ok((opts, files))
}

fn option<'a>(opts: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    opts.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// `surfaces validate [--catalog FILE] FILE...`
pub fn validate(args: &[String]) -> ExitCode {
    finish("validate", validate_files(args))
}

fn validate_files(args: &[String]) -> Result<(String, bool), Usage> {
    let (opts, files) = options(args, &["catalog"])?;
    if files.is_empty() {
        return Err(Usage(
            "usage: surfaces validate [--catalog FILE] FILE...".into(),
        ));
    }
    let catalog = load_catalog(option(&opts, "catalog"))?;
    let mut reports = Vec::new();
    let mut all_ok = true;
    for file in files {
        let text = read(file)?;
        let issues = if file.ends_with(".md") || file.ends_with(".markdown") {
            validate_markdown(&text, &catalog)
        } else {
            validate_document_text(&text, &catalog)
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

fn patch_files(args: &[String]) -> Result<(String, bool), Usage> {
    const USAGE: &str = "usage: surfaces patch --doc FILE --ops FILE [--catalog FILE]";
    let (opts, files) = options(args, &["doc", "ops", "catalog"])?;
    let (Some(doc_file), Some(ops_file), true) =
        (option(&opts, "doc"), option(&opts, "ops"), files.is_empty())
    else {
        return Err(Usage(USAGE.into()));
    };
    let catalog = load_catalog(option(&opts, "catalog"))?;
    let parse = |file: &str| -> Result<Value, Usage> {
        parse_document(&read(file)?).map_err(|issue| Usage(format!("{file}: {}", issue.message)))
    };
    let doc = parse(doc_file)?;
    let ops = parse(ops_file)?;
    if !ops.is_array() {
        return Err(Usage(format!(
            "{ops_file}: the operations are a JSON array of RFC 6902 operations"
        )));
    }
    let outcome = run_patch(&doc, &ops, &catalog);
    Ok((outcome.to_json().to_string(), outcome.refused.is_empty()))
}

/// `surfaces prompt [--catalog FILE]`
pub fn prompt(args: &[String]) -> ExitCode {
    let result = options(args, &["catalog"]).and_then(|(opts, files)| {
        if !files.is_empty() {
            return Err(Usage("usage: surfaces prompt [--catalog FILE]".into()));
        }
        Ok(catalog_prompt(&load_catalog(option(&opts, "catalog"))?))
    });
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(Usage(message)) => {
            eprintln!("surfaces prompt: {message}");
            ExitCode::from(2)
        }
    }
}
