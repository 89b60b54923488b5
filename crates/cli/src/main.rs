//! `surfaces`: the workspace's cores on the command line (SPEC.md section 9).
//!
//! Prints JSON (or text, for `heal`, `prompt` and `render`) to standard output
//! and exits 0 on success, 1 when what it checked has errors, 2 on bad usage or
//! unreadable input, with a one-line message on standard error.

use std::process::ExitCode;

mod stream;

const USAGE: &str = "usage: surfaces <command> [options]
commands:
  heal                           markdown on stdin, the healed view on stdout
  stream [--chunk N] [--mode markdown] [--final-only] FILE   streaming parser changes and final document";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    match command.as_str() {
        "--help" | "-h" | "help" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        "heal" => stream::heal(rest),
        "stream" => stream::stream(rest),
        other => {
            eprintln!("surfaces: unknown command `{other}` (try `surfaces --help`)");
            ExitCode::from(2)
        }
    }
}
