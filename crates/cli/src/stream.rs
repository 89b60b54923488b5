//! `surfaces heal` and `surfaces stream` (SPEC.md sections 9 and 11).

use crate::input::{fail, option, options, write_out, Usage};
use std::io::Read;
use std::process::ExitCode;

use streaming_parser::Stream;

/// `surfaces heal`: markdown on stdin, the healed view on stdout.
pub fn heal(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        return fail("heal", Usage(format!("takes no arguments, got `{extra}`")));
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        return fail("heal", Usage(format!("cannot read standard input: {e}")));
    }
    let text = String::from_utf8_lossy(&input);
    write_out(&streaming_parser::heal(&text), ExitCode::SUCCESS)
}

/// `surfaces stream [--chunk N] [--mode markdown|jsonl|a2ui] [--final-only] FILE`.
pub fn stream(args: &[String]) -> ExitCode {
    match changes(args) {
        Ok(out) => write_out(&out, ExitCode::SUCCESS),
        Err(usage) => fail("stream", usage),
    }
}

/// One JSON change per line, then the final document.
fn changes(args: &[String]) -> Result<String, Usage> {
    let (opts, files) = options(args, &["chunk", "mode"], &["final-only"])?;
    let [path] = files.as_slice() else {
        return Err(Usage("reads one FILE".into()));
    };
    let chunk = match option(&opts, "chunk") {
        None => None,
        Some(n) => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(Usage("`--chunk` needs a positive number of bytes".into())),
        },
    };
    let final_only = option(&opts, "final-only").is_some();
    let mode = option(&opts, "mode").unwrap_or("markdown");
    let input = std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    let Some(mut parser) = Stream::new(mode) else {
        return Err(Usage(format!(
            "unknown `--mode {mode}` ({})",
            Stream::MODES
        )));
    };
    let mut out = String::new();
    let emit = |changes: Vec<serde_json::Value>, out: &mut String| {
        if !final_only {
            for change in changes {
                out.push_str(&change.to_string());
                out.push('\n');
            }
        }
    };
    for piece in input.chunks(chunk.unwrap_or(input.len().max(1))) {
        let changes = parser.push_bytes(piece);
        emit(changes, &mut out);
    }
    let changes = parser.finish();
    emit(changes, &mut out);
    out.push_str(&parser.document().to_string());
    out.push('\n');
    Ok(out)
}
