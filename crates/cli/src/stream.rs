//! `surfaces heal` and `surfaces stream` (SPEC.md sections 9 and 11).

use crate::input::write_out;
use std::io::Read;
use std::process::ExitCode;

use streaming_parser::Stream;

/// `surfaces heal`: markdown on stdin, the healed view on stdout.
pub fn heal(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        return usage(&format!("`heal` takes no arguments, got `{extra}`"));
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        return unreadable("standard input", &e);
    }
    let text = String::from_utf8_lossy(&input);
    write_out(&streaming_parser::heal(&text), ExitCode::SUCCESS)
}

/// `surfaces stream [--chunk N] [--mode markdown|jsonl|a2ui] [--final-only] FILE`.
pub fn stream(args: &[String]) -> ExitCode {
    let mut chunk = None;
    let mut final_only = false;
    let mut mode = String::from("markdown");
    let mut file = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--chunk" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => chunk = Some(n),
                _ => return usage("`--chunk` needs a positive number of bytes"),
            },
            "--mode" => match args.next() {
                Some(m) => mode.clone_from(m),
                None => return usage(&format!("`--mode` needs a value: {}", Stream::MODES)),
            },
            "--final-only" => final_only = true,
            flag if flag.starts_with("--") => return usage(&format!("unknown option `{flag}`")),
            path => {
                if file.replace(path).is_some() {
                    return usage("`stream` reads one FILE");
                }
            }
        }
    }
    let Some(path) = file else {
        return usage("`stream` needs a FILE");
    };
    let input = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(path, &e),
    };
    let Some(mut parser) = Stream::new(&mode) else {
        return usage(&format!("unknown `--mode {mode}` ({})", Stream::MODES));
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
    write_out(&out, ExitCode::SUCCESS)
}

fn usage(message: &str) -> ExitCode {
    eprintln!("surfaces: {message}");
    ExitCode::from(2)
}

fn unreadable(what: &str, e: &std::io::Error) -> ExitCode {
    eprintln!("surfaces: cannot use {what}: {e}");
    ExitCode::from(2)
}
