// scripts/glue.mjs: the Studio glue passes strings into WebAssembly through
// one TextEncoder.encodeInto instead of a charCodeAt loop over their ASCII
// part. The built glue holds no such loop, and every kind of string still
// arrives whole: ASCII, non-ASCII first, last or after a long ASCII run
// (the buffer grown once), astral characters, and lone surrogates (as
// U+FFFD, which is what the glue's own path wrote). The rewrite refuses a
// glue that is not wasm-bindgen's; and the module formats no Value with
// Display. Run: node --test tests/loaders/ (after
// scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { artifacts } from '../../scripts/artifacts.mjs';
import { root } from '../../demo/serve.mjs';

const { dir } = artifacts().studio;
const gluePath = resolve(root, dir, 'studio.js');
const glue = await import(pathToFileURL(gluePath).href);
await glue.default({ module_or_path: readFileSync(resolve(root, dir, 'studio_bg.wasm')) });
// A string in, the same string out: an empty patch applied to a document
// holding it (the text crosses into the module and back).
const echo = (text) => JSON.parse(glue.applyPatch(text, '[]')).document;

test('the built glue copies no string a unit at a time', () => {
  assert.ok(!readFileSync(gluePath, 'utf8').includes('charCodeAt'));
});

test('every string reaches the module whole', () => {
  const long = 'x'.repeat(100_000);
  for (const s of ['', 'plain', 'é', 'é' + long, long + 'é', long + '😀' + long, '日本語のテキスト', 'a\u0000b', '\u{10FFFF}']) {
    assert.deepEqual(echo(JSON.stringify({ s })), { s });
  }
  // Raw in the JSON text (JSON.stringify would escape them): a lone
  // surrogate becomes U+FFFD, before and after other text.
  assert.deepEqual(echo('{"s":"a\uD800b' + long + '\uDFFF"}'), { s: 'a\uFFFDb' + long + '\uFFFD' });
  fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.nat(300), (s, pad) => {
    const text = JSON.stringify({ s: 'a'.repeat(pad) + s });
    assert.deepEqual(echo(text), JSON.parse(text));
  }), { numRuns: 500 });
});

test('the rewrite refuses a glue it does not know and changes nothing', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'glue-')), 'other.js');
  const other = 'function passStringToWasm0(arg, malloc, realloc) { return 0; }\n';
  writeFileSync(file, other);
  const run = spawnSync('node', [join(root, 'scripts/glue.mjs'), file], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /does not hold wasm-bindgen/);
  assert.equal(readFileSync(file, 'utf8'), other);
});

// Every face writes JSON through validator_wasm::json_text: nothing in the
// module formats a serde_json Value with Display, a second serializer that
// passes each piece through core::fmt (slower, and about 1 KB gzip).
test('the Studio module formats no Value with Display', () => {
  const named = readFileSync(resolve(root, artifacts().studio.namedWasm)).toString('latin1');
  assert.ok(named.includes('surfaces_core::json::parse'), 'the module keeps its function names');
  assert.ok(!named.includes('<serde_json::value::Value as core::fmt::Display>::fmt'));
});
