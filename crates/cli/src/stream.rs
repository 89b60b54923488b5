//! `surfaces heal` and `surfaces stream` (SPEC.md sections 9 and 11).

use crate::input::{fail, option, options, read_bytes, too_large, write_out, Failure, Usage};
use std::process::ExitCode;

use interop::a2ui::A2uiImport;
use interop::notes_json;
use serde_json::json;
use streaming_parser::Stream;

/// `surfaces heal`: markdown on stdin, the healed view on stdout; a body
/// that `surfaces validate` refuses as too large is refused (exit 1).
pub fn heal(args: &[String]) -> ExitCode {
    match healed(args) {
        Ok(text) => write_out(&text, ExitCode::SUCCESS),
        Err(failure) => fail("heal", failure),
    }
}

fn healed(args: &[String]) -> Result<String, Failure> {
    if let Some(extra) = args.first() {
        return Err(Usage(format!("takes no arguments, got `{extra}`")).into());
    }
    const NAME: &str = "standard input";
    let input = read_bytes(std::io::stdin().lock(), NAME)?;
    let text = String::from_utf8_lossy(&input);
    too_large(NAME, &text)?;
    Ok(streaming_parser::heal(&text))
}

/// `surfaces stream [--chunk N] [--mode markdown|jsonl|a2ui] [--ops] [--final-only] FILE`;
/// a file that `surfaces validate` refuses as too large is refused (exit 1).
///
/// With `--ops` (A2UI only) it prints, instead of the parser's changes, the
/// RFC 6902 operations that bring the first surface up to date as the
/// messages arrive (`interop::a2ui::A2uiImport`), one per line, then
/// `{"document", "notes"}`: the surface they build and the notes.
pub fn stream(args: &[String]) -> ExitCode {
    match changes(args) {
        Ok(out) => write_out(&out, ExitCode::SUCCESS),
        Err(usage) => fail("stream", usage),
    }
}

/// One JSON change per line, then the final document.
fn changes(args: &[String]) -> Result<String, Failure> {
    let (opts, files) = options(args, &["chunk", "mode"], &["final-only", "ops"])?;
    let [path] = files.as_slice() else {
        return Err(Usage("reads one FILE".into()).into());
    };
    let chunk = match option(&opts, "chunk") {
        None => None,
        Some(n) => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(Usage("`--chunk` needs a positive number of bytes".into()).into()),
        },
    };
    let final_only = option(&opts, "final-only").is_some();
    let mode = option(&opts, "mode").unwrap_or("markdown");
    let ops = option(&opts, "ops").is_some();
    if ops && mode != "a2ui" {
        return Err(Usage("`--ops` goes with `--mode a2ui`".into()).into());
    }
    let Some(mut parser) = Stream::new(mode) else {
        return Err(Usage(format!("unknown `--mode {mode}` ({})", Stream::MODES)).into());
    };
    let file = std::fs::File::open(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    let input = read_bytes(file, path)?;
    too_large(path, &String::from_utf8_lossy(&input))?;
    let pieces = input.chunks(chunk.unwrap_or(input.len().max(1)));
    let mut out = String::new();
    let emit = |changes: Vec<serde_json::Value>, out: &mut String| {
        if !final_only {
            for change in changes {
                out.push_str(&change.to_string());
                out.push('\n');
            }
        }
    };
    if ops {
        let mut import = A2uiImport::new(None, "");
        for piece in pieces {
            emit(import.push_bytes(piece), &mut out);
        }
        emit(import.finish(), &mut out);
        let last = json!({"document": import.surface(), "notes": notes_json(&import.notes())});
        out.push_str(&last.to_string());
        out.push('\n');
        return Ok(out);
    }
    for piece in pieces {
        let changes = parser.push_bytes(piece);
        emit(changes, &mut out);
    }
    let changes = parser.finish();
    emit(changes, &mut out);
    out.push_str(&parser.document().to_string());
    out.push('\n');
    Ok(out)
}
