#!/bin/sh
# Builds the wasm parser and runs the Node benchmark against remend and
# partial-json (installed at the repository root by `npm install`), then the
# native throughput. Run from anywhere: sh crates/streaming-parser/bench/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
cd "$root"
cargo build --release --target wasm32-unknown-unknown -p streaming-parser
wasm-bindgen --target nodejs --out-dir "$here/pkg" "$target/wasm32-unknown-unknown/release/streaming_parser.wasm"
# The repository's package.json says "type": "module"; this output is CommonJS.
echo '{"type": "commonjs"}' > "$here/pkg/package.json"
node "$here/bench.mjs"
cargo run --quiet --profile native -p streaming-parser --example throughput
