//! `surfaces convert --from a2ui|json-render|surface --to
//! a2ui|json-render|surface [--version v0.9|v1.0] FILE` (SPEC.md sections 9
//! and 14): prints `{"document", "notes", "issues"}` and exits 1 when the
//! surfaces the conversion made (or read) have validation errors.
//!
//! - `--from a2ui` reads FILE as A2UI messages (a JSON list, JSON Lines, or
//!   text with `<a2ui-json>` blocks); one surface is the document, several
//!   are the sections of a page `{"sections": [...]}`.
//! - `--from json-render` reads a spec `{root, elements, state?}`; `--from
//!   surface` a surface document.
//! - `--to a2ui` writes the messages of every surface, one list
//!   (`--version`, v1.0 by default, only here); `--to json-render` the spec
//!   (a list of specs for several surfaces); `--to surface` the surfaces.
//! - `notes` are the conversions' notes: a note of reading points into FILE;
//!   when neither side is `surface`, a note of writing points into the
//!   surface between. `issues` are the validator's issues of the surfaces
//!   (with `surface`, the surface's id, when there are several).

use crate::input::{finish, option, options, read, Failure, Usage};
use interop::json_render::{from_json_render, to_json_render};
use interop::{from_a2ui, notes_json, to_a2ui, Note, Version};
use serde_json::{json, Value};
use std::process::ExitCode;
use validator_wasm::{parse_document, validate_surface, Catalog};

const USAGE: &str = " (usage: surfaces convert --from a2ui|json-render|surface --to a2ui|json-render|surface [--version v0.9|v1.0] FILE)";

/// Runs the command on its arguments (after `convert`).
pub fn run(args: &[String]) -> ExitCode {
    finish("convert", convert(args))
}

fn format(opts: &[(&str, &str)], name: &str) -> Result<&'static str, Usage> {
    match option(opts, name) {
        Some("a2ui") => Ok("a2ui"),
        Some("json-render") => Ok("json-render"),
        Some("surface") => Ok("surface"),
        Some(other) => Err(Usage(
            ["unknown format `", other, "` for --", name, USAGE].concat(),
        )),
        None => Err(Usage(["convert needs --", name, USAGE].concat())),
    }
}

/// The JSON of FILE, or the validator's refusal of it (`invalid_json`,
/// `document_too_large`: exit 1, as `surfaces validate` exits on it).
fn json_of(text: &str, file: &str) -> Result<Value, Failure> {
    parse_document(text).map_err(|issue| Failure::Refused(file.to_string(), Box::new(issue)))
}

fn convert(args: &[String]) -> Result<(String, bool), Failure> {
    let (opts, files) =
        options(args, &["from", "to", "version"], &[]).map_err(|Usage(m)| Usage(m + USAGE))?;
    let from = format(&opts, "from")?;
    let to = format(&opts, "to")?;
    let version = match (option(&opts, "version"), to) {
        (None, _) => Version::V10,
        (Some(v), "a2ui") => Version::parse(v).ok_or_else(|| {
            Usage(["unknown A2UI version `", v, "` (v0.9 or v1.0)", USAGE].concat())
        })?,
        (Some(_), _) => return Err(Usage(["--version goes with --to a2ui", USAGE].concat()).into()),
    };
    let [file] = files.as_slice() else {
        return Err(Usage(["convert takes one FILE", USAGE].concat()).into());
    };
    let text = read(file)?;
    if from == "a2ui" {
        crate::input::too_large(file, &text)?;
    }
    let mut notes: Vec<Note> = Vec::new();
    let surfaces = match from {
        "a2ui" => {
            let read = from_a2ui(&text);
            notes.extend(read.notes);
            read.surfaces
        }
        "json-render" => {
            let read = from_json_render(&json_of(&text, file)?);
            notes.extend(read.notes);
            vec![read.surface]
        }
        _ => vec![json_of(&text, file)?],
    };
    let mut written: Vec<Value> = Vec::new();
    for surface in &surfaces {
        match to {
            "a2ui" => {
                let out = to_a2ui(surface, version);
                notes.extend(out.notes);
                written.extend(out.messages);
            }
            "json-render" => {
                let out = to_json_render(surface);
                notes.extend(out.notes);
                written.push(out.spec);
            }
            _ => written.push(surface.clone()),
        }
    }
    let document = match (to, written.len()) {
        ("a2ui", _) => Value::Array(written),
        (_, 1) => written.remove(0),
        ("surface", _) => json!({ "sections": written }),
        _ => Value::Array(written),
    };
    let catalog = Catalog::default_blog();
    let mut issues = Vec::new();
    let several = surfaces.len() > 1;
    for surface in &surfaces {
        for issue in validate_surface(surface, &catalog) {
            let mut issue_json = issue.to_json();
            if several {
                issue_json["surface"] = surface.get("id").cloned().unwrap_or(Value::Null);
            }
            issues.push((issue.is_error(), issue_json));
        }
    }
    let ok = !issues.iter().any(|(error, _)| *error);
    let issues: Vec<Value> = issues.into_iter().map(|(_, i)| i).collect();
    let output = json!({"document": document, "notes": notes_json(&notes), "issues": issues});
    Ok((output.to_string(), ok))
}
