// Takes out of a size-built module what its panics carry and never use.
// Our panic handlers trap without reading the message, yet on the stable
// toolchain each panic entry point still formats it (the allocator's
// "memory allocation of {size} bytes failed", the panic locations' file
// paths, the two-digit table of integer formatting) before the trap, and
// wasm-opt keeps that code (its stores are visible to the host) and with
// it the data (nightly's `panic_immediate_abort` and
// `-Zlocation-detail=none` would not link them). Two steps, around
// wasm-opt:
//
//   node scripts/panics.mjs traps IN.wasm OUT.wasm   (before; needs names)
//   node scripts/panics.mjs tail IN.wasm OUT.wasm    (after)
//
// `traps`: every body of a panic entry point of core and alloc (functions
// that never return: `core::panicking::*`, `handle_alloc_error` and the
// alloc error handlers, `raw_vec::handle_error`, `capacity_overflow`) is
// replaced by `unreachable`, the trap it ends in anyway; wasm-opt then
// drops the formatting they reached.
// `tail`: the one data segment loses its tail from the first panic
// location's file path (`/rustc/<hash>/...`, `crates/<crate>/src/...rs`)
// on, which the linker places after the data the code reads, when nothing
// addresses it: no `i32.const` in the code, no constant address plus the
// offset of its load or store, no aligned word of the data before it.
// Otherwise the module is kept whole, with a note.
import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const [step, input, output] = process.argv.slice(2);
const bytes = readFileSync(input);
const say = (m) => process.stderr.write(`panics: ${input}: ${m}\n`);

if (step === 'traps') {
  // (v0-mangled names: `<length><identifier>` per path segment.)
  const entry = /4core9panicking|18handle_alloc_error|alloc_error_handler|7raw_vec12handle_error|7raw_vec17capacity_overflow/;
  const module = binaryen.readBinary(bytes);
  const names = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const f = module.getFunctionByIndex(i);
    const info = binaryen.getFunctionInfo(f);
    if (info.body && info.results === binaryen.none && entry.test(info.name)) {
      binaryen.Function.setBody(f, module.unreachable());
      names.push(info.name);
    }
  }
  writeFileSync(output, module.emitBinary());
  say(`${names.length} panic entry points now trap at once`);
  process.exit(0);
}
if (step !== 'tail') throw new Error('usage: node scripts/panics.mjs traps|tail IN.wasm OUT.wasm');

/** An unsigned LEB128 at `at`: [value, next offset]. */
const leb = (at) => {
  let v = 0;
  for (let shift = 0; ; shift += 7) {
    const c = bytes[at++];
    v += (c & 0x7f) * 2 ** shift;
    if (c < 0x80) return [v, at];
  }
};
const uleb = (v) => {
  const out = [];
  do {
    out.push((v % 128) | (v >= 128 ? 0x80 : 0));
    v = Math.floor(v / 128);
  } while (v);
  return Buffer.from(out);
};
const keep = (why) => {
  say(`kept whole (${why})`);
  writeFileSync(output, bytes);
  process.exit(0);
};

// The data section and its one active segment at a constant address.
let data;
for (let at = 8; at < bytes.length; ) {
  const [size, start] = leb(at + 1);
  if (bytes[at] === 11) data = { head: at, start, end: start + size };
  at = start + size;
}
if (!data) keep('no data');
const [count, flags] = leb(data.start);
if (count !== 1 || bytes[flags] !== 0 || bytes[flags + 1] !== 0x41) keep('not one active segment at a constant');
const [base, endOfBase] = leb(flags + 2); // (a small positive address reads the same signed)
if (bytes[endOfBase] !== 0x0b) keep('its address is not one constant');
const [length, from] = leb(endOfBase + 1);
const content = bytes.subarray(from, from + length);
const text = content.toString('latin1');
const cut = Math.min(...[/\/rustc\/[0-9a-f]{40}\//, /crates\/[a-z0-9_-]+\/src\/[a-z0-9_/]+\.rs/].map((re) => text.search(re)).filter((i) => i >= 0));
if (cut === Infinity) keep('no panic location');
const inside = (v) => v >= base + cut && v < base + length;

const wat = execFileSync(join(import.meta.dirname, '../node_modules/binaryen/bin/wasm-dis'), [input], { maxBuffer: 1 << 28 }).toString();
for (const [, c] of wat.matchAll(/i32\.const (\d+)/g)) if (inside(+c)) keep(`the code addresses ${c}`);
for (const [, o, c] of wat.matchAll(/offset=(\d+)(?: align=\d+)?\s*\(i32\.const (\d+)\)/g)) if (inside(+o + +c)) keep(`the code addresses ${c}+${o}`);
for (let i = (4 - (base % 4)) % 4; i + 4 <= cut; i += 4) {
  if (inside(content.readUInt32LE(i))) keep(`the data at ${base + i} points into it`);
}

const payload = Buffer.concat([bytes.subarray(data.start, endOfBase + 1), uleb(cut), content.subarray(0, cut)]);
writeFileSync(output, Buffer.concat([bytes.subarray(0, data.head), Buffer.from([11]), uleb(payload.length), payload, bytes.subarray(data.end)]));
say(`dropped the last ${length - cut} B of its data (from ${JSON.stringify(text.slice(cut, cut + 20))})`);
