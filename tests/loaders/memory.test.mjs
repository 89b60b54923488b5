// The Studio module's allocator (crates/size-classes: a free list per
// power-of-two size, nothing split or merged) reuses what is freed: the
// same work again and again leaves the module's memory where the first
// rounds took it, for every kind of call a Studio session makes over and
// over (validate, a Draft's operations, a stateless patch, a render, a
// stream). Run: node --test tests/loaders/ (after scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifacts } from '../../scripts/artifacts.mjs';
import { root } from '../../demo/serve.mjs';

const { dir } = artifacts().studio;
const glue = await import(pathToFileURL(resolve(root, dir, 'studio.js')).href);
const wasm = await glue.default({ module_or_path: readFileSync(resolve(root, dir, 'studio_bg.wasm')) });
const catalog = new glue.LoadedCatalog();

// 120 components of the kinds the benchmark uses, and data growing with them.
const components = [];
const items = [];
for (let i = 0; i < 119; i++) {
  const id = `c${i}`;
  components.push(i % 2
    ? { id, component: 'Heading', props: { level: 2, text: { path: `/items/${i}/title` } } }
    : { id, component: 'Button', props: { label: 'Add', onClick: [{ action: 'increment', path: '/seats', max: 50 }] } });
  items.push({ title: `Item ${i}`, body: 'x'.repeat(200 + i) });
}
components.unshift({ id: 'root', component: 'Stack', children: components.map((c) => c.id) });
const text = JSON.stringify({ id: 'm', kind: 'surface', catalog: 'blog@1', components, data: { seats: 3, items } });
const flip = (level) => JSON.stringify([{ op: 'replace', path: '/components/1/props/level', value: level }]);
const grow = JSON.stringify([{ op: 'add', path: '/components/-', value: { id: 'extra', component: 'Divider' } },
  { op: 'add', path: '/components/0/children/-', value: 'extra' }]);
const shrink = JSON.stringify([{ op: 'remove', path: '/components/0/children/119' }, { op: 'remove', path: '/components/120' }]);

function round(draft, i) {
  assert.equal(glue.validate(text, catalog), '[]');
  assert.equal(JSON.parse(draft.apply(flip(2 + (i % 3)))).applied.length, 1);
  assert.equal(JSON.parse(draft.apply(grow)).applied.length, 2);
  assert.equal(JSON.parse(draft.apply(shrink)).applied.length, 2);
  assert.equal(JSON.parse(glue.patch(text, flip(3), catalog)).applied.length, 1);
  assert.match(glue.renderSurface(text, catalog), /data-ch-surface/);
  const stream = new glue.Stream('markdown', catalog);
  stream.push('Intro\n\n```surface\n' + text.slice(0, 5000 + 97 * (i % 30)));
  stream.free();
}

test('the same calls again leave the memory as the first rounds grew it', () => {
  const draft = new glue.Draft(text, catalog);
  for (let i = 0; i < 30; i++) round(draft, i);
  const after = wasm.memory.buffer.byteLength;
  for (let i = 0; i < 300; i++) round(draft, i);
  assert.equal(wasm.memory.buffer.byteLength, after);
  draft.free();
});
