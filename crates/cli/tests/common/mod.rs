//! What every CLI test needs: the built `surfaces` binary run with piped
//! standard streams, and scratch files to name on its command line.
//!
//! Scratch files go under Cargo's folder for integration tests
//! (`CARGO_TARGET_TMPDIR`, inside `target/`), in a folder per test binary
//! (its crate name), so the test binaries running side by side never write
//! the same file and nothing is left in the system's temporary folder. A
//! run overwrites the files of the run before.

use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// What a run of the binary ended with.
pub struct Run {
    /// The exit code, or -1 when a signal ended it.
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `surfaces args`, with standard input, output and error piped.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_surfaces"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Writes `stdin` to the child's standard input from a thread (so a child
/// that prints while it reads never waits on a reader that is writing),
/// closes it and waits for the child. Also returns how the write ended:
/// an error when the child stopped reading before it took all of `stdin`.
pub fn finish(mut child: Child, stdin: &[u8]) -> (Run, std::io::Result<()>) {
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let out = child.wait_with_output().expect("the binary ends");
    let written = writer.join().expect("the writer ends");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (run, written)
}

/// Runs `surfaces args` with `stdin` on standard input. The command may
/// stop reading (at a size limit, say): a write refused for that is fine.
pub fn surfaces(args: &[&str], stdin: &[u8]) -> Run {
    let child = command(args).spawn().expect("the surfaces binary runs");
    let (run, written) = finish(child, stdin);
    if let Err(error) = written {
        assert_eq!(error.kind(), ErrorKind::BrokenPipe, "{args:?}: {error}");
    }
    run
}

/// Writes `bytes` to the scratch file `name` (which may name a folder
/// first, `test/doc.json`, to keep one test's files from another's) and
/// returns its path.
pub fn file(name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path: PathBuf = [env!("CARGO_TARGET_TMPDIR"), env!("CARGO_CRATE_NAME"), name]
        .iter()
        .collect();
    let dir = path.parent().expect("a scratch file has a folder");
    std::fs::create_dir_all(dir).expect("scratch dir");
    std::fs::write(&path, bytes).expect("write");
    path.to_string_lossy().into_owned()
}
