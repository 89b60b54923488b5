//! `surfaces`: the workspace's cores on the command line (SPEC.md section 9).
//!
//! Prints JSON (or text, for `heal`, `prompt` and `render`) to standard output
//! and exits 0 on success, 1 when what it checked has errors, 2 on bad usage or
//! unreadable input, with a one-line message on standard error.

use std::process::ExitCode;

mod convert;
mod input;
mod render;
mod stream;
mod validator;

const USAGE: &str = "usage: surfaces <command> [options]
commands:
  render [--catalog FILE] [--locale TAG] [--interactive] FILE   a surface as published-page HTML, formatted in TAG (or whether a page needs the runtime)
  heal                           markdown on stdin, the healed view on stdout
  stream [--chunk N] [--mode markdown|jsonl|a2ui] [--ops] [--final-only] FILE   streaming parser changes and final document (--ops: an A2UI stream's operations on its surface)
  validate [--catalog FILE] FILE...   check surfaces (.json) and markdown bodies (.md)
  patch --doc FILE --ops FILE [--catalog FILE]   RFC 6902 operations through repair, validation, apply
  prompt [--catalog FILE]        the catalog prompt for a model
  convert --from a2ui|json-render|surface --to a2ui|json-render|surface [--version v0.9|v1.0] FILE   between A2UI, json-render and surfaces, with notes";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        // Bad usage: one line (SPEC.md section 9); --help prints the rest.
        eprintln!("usage: surfaces <render|heal|stream|validate|patch|prompt|convert> [options] (surfaces --help lists them)");
        return ExitCode::from(2);
    };
    match command.as_str() {
        "--help" | "-h" | "help" => input::write_out(&[USAGE, "\n"].concat(), ExitCode::SUCCESS),
        "render" => render::run(rest),
        "heal" => stream::heal(rest),
        "stream" => stream::stream(rest),
        "validate" => validator::validate(rest),
        "patch" => validator::patch(rest),
        "prompt" => validator::prompt(rest),
        "convert" => convert::run(rest),
        other => {
            eprintln!("surfaces: unknown command `{other}` (try `surfaces --help`)");
            ExitCode::from(2)
        }
    }
}
