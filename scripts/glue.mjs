// Rewrites how the wasm-bindgen glue passes a string into WebAssembly.
//
// The glue's passStringToWasm0 copies a string one UTF-16 unit at a time
// while it is ASCII (charCodeAt and a byte store per unit), and hands only
// the rest, from the first non-ASCII unit, to TextEncoder.encodeInto. That
// suits short strings; Studio's calls take whole documents (a 90 KB surface
// is 90,000 turns of that loop, about a tenth of a `validate` in a Node
// profile). Here the whole string goes to encodeInto into the bytes
// allocated for its length; if it does not fit (non-ASCII), the buffer grows
// to the worst case for what is left, the rest is encoded after what was
// written, and the buffer shrinks to the bytes written, as the glue did.
// encodeInto writes a lone surrogate as U+FFFD, as the glue's path did.
//
//   node scripts/glue.mjs GLUE.js     (in place; fails where the glue differs)
import { readFileSync, writeFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/glue.mjs GLUE.js');
  process.exit(2);
}

// wasm-bindgen 0.2.130's text (`--encode-into always`), from `let len` to
// the end of the function.
const theirs = `    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}`;

const ours = `    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;
    let { read, written } = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
    if (read !== arg.length) {
        ptr = realloc(ptr, len, len = written + (arg.length - read) * 3, 1) >>> 0;
        written += cachedTextEncoder.encodeInto(arg.slice(read), getUint8ArrayMemory0().subarray(ptr + written, ptr + len)).written;
        ptr = realloc(ptr, len, written, 1) >>> 0;
    }
    WASM_VECTOR_LEN = written;
    return ptr;
}`;

const glue = readFileSync(file, 'utf8');
const at = glue.indexOf(theirs);
if (at < 0 || glue.indexOf(theirs, at + 1) >= 0 || !glue.slice(0, at).includes('function passStringToWasm0(')) {
  console.error(`glue: ${file} does not hold wasm-bindgen 0.2.130's passStringToWasm0 once; update scripts/glue.mjs for this wasm-bindgen`);
  process.exit(1);
}
writeFileSync(file, glue.slice(0, at) + ours + glue.slice(at + theirs.length));
console.error(`glue: ${file}: strings pass to WebAssembly through one TextEncoder.encodeInto`);
