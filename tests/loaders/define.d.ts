// What esbuild's --define gives the runtime's loader: its wasm's file name
// (scripts/parts, build_runtime).
declare const WASM: string;
// Its second module's, without the function set.
declare const NOCALLS: string;
