// scripts/panics.mjs on the runtime's module as cargo made it (the copy
// with names that scripts/build keeps, dist/artifacts.json's namedWasm):
// with its panic entry points trapping at once, wasm-opt leaves the panic
// data unaddressed and `tail` cuts it; without, the allocator's message
// is still addressed and `tail` keeps the module whole. The shipped module
// holds none of that data. Run: node --test tests/loaders/ (after
// scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { artifacts } from '../../scripts/artifacts.mjs';
import { root } from '../../demo/serve.mjs';

const runtime = artifacts().runtime;
const dir = mkdtempSync(join(tmpdir(), 'panics-'));
const panics = (step, input, output) => execFileSync('node', [join(root, 'scripts/panics.mjs'), step, input, output], { stdio: ['ignore', 'ignore', 'pipe'] });
const opt = (input, output) =>
  execFileSync(join(root, 'node_modules/.bin/wasm-opt'), ['--flatten', '--rereloop', '-Oz', '-Oz', '--converge', '--low-memory-unused', '--strip-debug', input, '-o', output]);
const has = (file, text) => readFileSync(file).includes(Buffer.from(text));
const named = resolve(root, runtime.namedWasm);

test('with its panic entry points trapping at once, the panic data is cut off the module, which still compiles', async () => {
  panics('traps', named, join(dir, 'traps.wasm'));
  opt(join(dir, 'traps.wasm'), join(dir, 'opt.wasm'));
  panics('tail', join(dir, 'opt.wasm'), join(dir, 'out.wasm'));
  assert.ok(has(join(dir, 'opt.wasm'), 'memory allocation of'));
  for (const text of ['/rustc/', 'memory allocation of', 'capacity overflow', '00010203']) assert.ok(!has(join(dir, 'out.wasm'), text), text);
  assert.ok(readFileSync(join(dir, 'out.wasm')).length < readFileSync(join(dir, 'opt.wasm')).length - 400);
  await WebAssembly.compile(readFileSync(join(dir, 'out.wasm')));
});

test('without, the code still addresses the panic data and the module is kept whole', () => {
  opt(named, join(dir, 'plain.wasm'));
  panics('tail', join(dir, 'plain.wasm'), join(dir, 'kept.wasm'));
  assert.deepEqual(readFileSync(join(dir, 'kept.wasm')), readFileSync(join(dir, 'plain.wasm')));
});

test('the shipped runtime module holds no panic data', () => {
  const wasm = resolve(root, runtime.files.find((f) => f.endsWith('.wasm')));
  for (const text of ['/rustc/', 'memory allocation of', 'capacity overflow']) assert.ok(!has(wasm, text), text);
});
