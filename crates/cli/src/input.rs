//! What the commands share in reading their input: options, files and
//! standard input (each read as far as the largest document and no
//! further), the catalog, and which files are markdown bodies.

use std::io::{ErrorKind, Read, Write};
use std::process::ExitCode;
use validator_wasm::surface::MAX_DOCUMENT_BYTES;
use validator_wasm::{parse_document, Catalog, Issue};

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

/// Whether `file` is a markdown body (`.md` or `.markdown`, in any case)
/// rather than a surface or page document (JSON).
pub fn is_markdown(file: &str) -> bool {
    let file = file.to_ascii_lowercase();
    file.ends_with(".md") || file.ends_with(".markdown")
}

/// Bad usage or unreadable input: the one-line message for standard error.
pub struct Usage(pub String);

/// Why a command printed nothing on standard output.
pub enum Failure {
    /// Bad usage or unreadable input (exit 2).
    Usage(Usage),
    /// Input the validator refuses (`document_too_large`, `invalid_json`)
    /// where the command has no issue list to print it in: exit 1, as
    /// `surfaces validate` exits on the same input.
    Refused(String, Box<Issue>),
}

impl From<Usage> for Failure {
    fn from(usage: Usage) -> Failure {
        Failure::Usage(usage)
    }
}

pub fn finish(command: &str, result: Result<(String, bool), Failure>) -> ExitCode {
    match result {
        Ok((output, ok)) => write_out(
            &[&output, "\n"].concat(),
            ExitCode::from(if ok { 0 } else { 1 }),
        ),
        Err(failure) => fail(command, failure),
    }
}

/// One line on standard error: exit 2 for bad usage or unreadable input;
/// exit 1 with the issue's code for refused input
/// (`surfaces heal: standard input: document_too_large: ...`).
pub fn fail(command: &str, failure: impl Into<Failure>) -> ExitCode {
    match failure.into() {
        Failure::Usage(Usage(message)) => {
            eprintln!("surfaces {command}: {message}");
            ExitCode::from(2)
        }
        Failure::Refused(input, issue) => {
            eprintln!(
                "surfaces {command}: {input}: {}: {}",
                issue.code, issue.message
            );
            ExitCode::from(1)
        }
    }
}

/// Reads `source` (named `name` in messages) up to one byte past
/// [`MAX_DOCUMENT_BYTES`] and no further: the validator refuses any longer
/// document, so that prefix is all a command needs, and no input (a huge
/// file, an endless pipe) makes the command hold more. A UTF-8 byte order
/// mark that opens the input is not read: editors on Windows write one,
/// and RFC 8259 lets a JSON reader ignore it (the text after it is what
/// counts, for the size limit too).
pub fn read_bytes(source: impl Read, name: &str) -> Result<Vec<u8>, Usage> {
    let mut source = source.take(MAX_DOCUMENT_BYTES as u64 + 1 + BOM.len() as u64);
    let mut bytes = Vec::new();
    source
        .read_to_end(&mut bytes)
        .map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
    if bytes.starts_with(BOM.as_bytes()) {
        bytes.drain(..BOM.len());
    }
    bytes.truncate(MAX_DOCUMENT_BYTES + 1);
    Ok(bytes)
}

/// The byte order mark [`read_bytes`] and [`load_catalog`] leave out.
const BOM: &str = "\u{feff}";

/// Text that the validator refuses for its size alone, with the
/// validator's issue (`document_too_large`, from [`parse_document`], which
/// reads no further when the text is too large): heal and stream refuse
/// what `surfaces validate` refuses so.
pub fn too_large(name: &str, text: &str) -> Result<(), Failure> {
    if text.len() <= MAX_DOCUMENT_BYTES {
        return Ok(());
    }
    parse_document(text)
        .map(drop)
        .map_err(|issue| Failure::Refused(name.to_string(), Box::new(issue)))
}

/// A file as text. Text longer than [`MAX_DOCUMENT_BYTES`] is its first
/// bytes (lossily decoded: only its length matters), which the validator
/// refuses as `document_too_large`. Shorter text is UTF-8: a markdown body
/// that is not has each bad byte sequence read as U+FFFD, as `surfaces
/// stream` and `heal` read it; a JSON file that is not is no JSON (RFC
/// 8259 text is UTF-8), refused as `invalid_json`, which `surfaces
/// validate` reports for that file and goes on.
pub fn read(path: &str) -> Result<String, Failure> {
    let file = std::fs::File::open(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    let bytes = read_bytes(file, path)?;
    if bytes.len() > MAX_DOCUMENT_BYTES || is_markdown(path) {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let message =
            format!("the file is not UTF-8 text (a bad byte at offset {at}), so not JSON");
        Failure::Refused(
            path.to_string(),
            Box::new(Issue::error("invalid_json", "", message)),
        )
    })
}

pub fn load_catalog(path: Option<&str>) -> Result<Catalog, Usage> {
    match path {
        None => Ok(Catalog::default_blog()),
        Some(p) => {
            // A catalog is the user's own file, not a document: read whole.
            let text =
                std::fs::read_to_string(p).map_err(|e| Usage(format!("cannot read {p}: {e}")))?;
            Catalog::from_json(text.strip_prefix(BOM).unwrap_or(&text))
                .map_err(|e| Usage(format!("cannot use catalog {p}: {e}")))
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
