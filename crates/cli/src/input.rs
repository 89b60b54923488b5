//! What the commands share in reading their input: options, files, the
//! catalog, and which files are markdown bodies.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;
use validator_wasm::Catalog;

/// Writes `text` to standard output and ends with `code`. A reader that
/// stopped reading (`surfaces validate big.json | head -c1`) is no error;
/// another write failure is (exit 2, with the reason).
pub fn write_out(text: &str, code: ExitCode) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => code,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => code,
        Err(e) => {
            eprintln!("surfaces: cannot write standard output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether `file` is a markdown body (`.md` or `.markdown`) rather than a
/// surface or page document (JSON).
pub fn is_markdown(file: &str) -> bool {
    file.ends_with(".md") || file.ends_with(".markdown")
}

/// Bad usage or unreadable input: the one-line message for standard error.
pub struct Usage(pub String);

pub fn finish(command: &str, result: Result<(String, bool), Usage>) -> ExitCode {
    match result {
        Ok((output, ok)) => write_out(
            &[&output, "\n"].concat(),
            ExitCode::from(if ok { 0 } else { 1 }),
        ),
        Err(usage) => fail(command, usage),
    }
}

/// Bad usage or unreadable input: one line on standard error, exit 2.
pub fn fail(command: &str, Usage(message): Usage) -> ExitCode {
    eprintln!("surfaces {command}: {message}");
    ExitCode::from(2)
}

pub fn read(path: &str) -> Result<String, Usage> {
    std::fs::read_to_string(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))
}

pub fn load_catalog(path: Option<&str>) -> Result<Catalog, Usage> {
    match path {
        None => Ok(Catalog::default_blog()),
        Some(p) => {
            Catalog::from_json(&read(p)?).map_err(|e| Usage(format!("cannot use catalog {p}: {e}")))
        }
    }
}

/// `--name VALUE` options and positional arguments.
pub type Args<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// Splits `--name VALUE` options from positional arguments; a name in
/// `flags` takes no value (it is given as `""`).
pub fn options<'a>(args: &'a [String], names: &[&str], flags: &[&str]) -> Result<Args<'a>, Usage> {
    let mut opts = Vec::new();
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if let Some(name) = arg.strip_prefix("--") {
            if flags.contains(&name) {
                opts.push((name, ""));
                continue;
            }
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

pub fn option<'a>(opts: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    opts.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
