//! Links the wasm module with its stack after its data (`--no-stack-first`):
//! the data segment then starts at 1 KiB instead of past a 1 MiB stack, so
//! every address of a static string in the code is a two-byte constant
//! instead of a three-byte one (-60 B gzip), and the loader knows a static
//! string by its address alone (below `__data_end`). The stack keeps its
//! 1 MiB; the runtime's recursion is bounded (calls nest at most 4 deep,
//! conditions 8, JSON equality loops), a few KiB at most. What could still
//! creep down the stack is an exception unwinding the module's frames
//! (they do not restore the stack pointer): none of the loader's imports
//! throws, and the module's code does not trap (no panicking path).
fn main() {
    if std::env::var("TARGET").is_ok_and(|t| t.starts_with("wasm32")) {
        println!("cargo:rustc-link-arg-cdylib=--no-stack-first");
    }
}
