//! `surfaces heal` and `surfaces stream` (SPEC.md sections 9 and 11).

use crate::input::{fail, option, options, read_bytes, too_large, write_out, Failure, Usage};
use std::process::ExitCode;

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

/// `surfaces stream [--chunk N] [--mode markdown|jsonl|a2ui] [--final-only] FILE`;
/// a file that `surfaces validate` refuses as too large is refused (exit 1).
pub fn stream(args: &[String]) -> ExitCode {
    match changes(args) {
        Ok(out) => write_out(&out, ExitCode::SUCCESS),
        Err(usage) => fail("stream", usage),
    }
}

/// One JSON change per line, then the final document.
fn changes(args: &[String]) -> Result<String, Failure> {
    let (opts, files) = options(args, &["chunk", "mode"], &["final-only"])?;
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
    let Some(mut parser) = Stream::new(mode) else {
        return Err(Usage(format!("unknown `--mode {mode}` ({})", Stream::MODES)).into());
    };
    let file = std::fs::File::open(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    let input = read_bytes(file, path)?;
    too_large(path, &String::from_utf8_lossy(&input))?;
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
