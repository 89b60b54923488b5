// Validator benchmark in Node through the wasm build (the Studio module
// scripts/build made, where dist/artifacts.json says), side by side with
// fast-json-patch. Prints a markdown section with medians and the ratio; a
// benchmark, not a test.
//
//   node crates/validator-wasm/bench/node.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifacts } from '../../../scripts/artifacts.mjs';
import { table, version } from '../../../scripts/report.mjs';

const { dir } = artifacts().studio;
const mod = await import(pathToFileURL(join(dir, 'studio.js')).href);
await mod.default({ module_or_path: readFileSync(join(dir, 'studio_bg.wasm')) });
const { validate, patch, applyPatch, Draft } = mod;
const jsonpatch = (await import('fast-json-patch/index.mjs')).default;

// A 200-component surface with about 60 KB of data.
function surface() {
  const ids = [];
  const components = [];
  const data = { headline: 'Pricing', billing: 'monthly', seats: 3, email: '', items: [] };
  for (let i = 0; i < 199; i++) {
    const id = `c${i}`;
    ids.push(id);
    switch (i % 5) {
      case 0: components.push({ id, component: 'Heading', props: { level: 2, text: { path: `/items/${i}/title` } } }); break;
      case 1: components.push({ id, component: 'Text', props: { text: { call: 'concat', args: { values: ['Seats: ', { path: '/seats' }] } } },
        visible: { and: [{ eq: [{ path: '/billing' }, 'monthly'] }, { gt: [{ path: '/seats' }, 0] }] } }); break;
      case 2: components.push({ id, component: 'Button', props: { label: 'Add', onClick: [{ action: 'increment', path: '/seats', max: 50 }, { action: 'navigate', href: '/pricing#plans' }] } }); break;
      case 3: components.push({ id, component: 'Toggle', props: { options: ['monthly', 'yearly'], value: { path: '/billing' } } }); break;
      default: components.push({ id, component: 'TextField', props: { label: 'Email', value: { path: '/email' },
        checks: [{ call: 'email', args: { value: { path: '/email' } }, message: 'Enter an email address' }] } });
    }
  }
  for (let i = 0; i < 199; i++) data.items.push({ title: `Item ${i}`, body: 'x'.repeat(260), price: i * 1.5 });
  components.unshift({ id: 'root', component: 'Stack', children: ids });
  return { id: 'bench', kind: 'surface', catalog: 'blog@1', components, data };
}

function median(fn, runs) {
  for (let i = 0; i < Math.min(20, runs); i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const doc = surface();
const text = JSON.stringify(doc);
const dataBytes = Buffer.byteLength(JSON.stringify(doc.data));
const issues = JSON.parse(validate(text));
if (issues.some((i) => i.severity === 'error')) throw new Error('bench surface has errors: ' + JSON.stringify(issues.slice(0, 3)));

const op = JSON.stringify([{ op: 'replace', path: '/components/1/props/level', value: 3 }]);
const out = JSON.parse(patch(text, op));
if (out.applied.length !== 1) throw new Error('bench op refused: ' + JSON.stringify(out.refused));

const ops = [
  { op: 'replace', path: '/data/seats', value: 4 },
  { op: 'add', path: '/components/-', value: { id: 'extra', component: 'Divider' } },
  { op: 'add', path: '/components/0/children/-', value: 'extra' },
  { op: 'test', path: '/data/billing', value: 'monthly' },
  { op: 'move', from: '/data/items/0', path: '/data/first' },
  { op: 'copy', from: '/data/first', path: '/data/copy' },
  { op: 'remove', path: '/data/copy' },
];
const opsText = JSON.stringify(ops);
const oursApply = () => JSON.parse(applyPatch(JSON.stringify(doc), opsText)).document;
const theirsApply = () => jsonpatch.applyPatch(doc, ops, false, false).newDocument;
if (JSON.stringify(oursApply()) !== JSON.stringify(theirsApply())) throw new Error('applyPatch results differ');

const draft = new Draft(text);
let flip = 0;
const draftOp = () => {
  flip ^= 1;
  const report = JSON.parse(draft.apply(JSON.stringify([{ op: 'replace', path: '/components/1/props/level', value: 2 + flip }])));
  if (report.applied.length !== 1) throw new Error('draft op refused');
};
const rows = [
  ['`validate`: 200 components, ' + Math.round(dataBytes / 1024) + ' KB data (JSON text in, issues out)', median(() => validate(text), 200), 1000],
  ['`Draft.apply`: one operation through repair, validate, apply (document kept in wasm)', median(draftOp, 2000), 150],
  ['`patch`: the same operation, stateless (document parsed and printed each call)', median(() => patch(text, op), 100), '-'],
];
const ours = median(oursApply, 200);
const theirs = median(theirsApply, 200);
console.log(`## Validator

\`crates/validator-wasm/bench/node.mjs\`: Node, the Studio wasm module, side by
side with fast-json-patch ${version('fast-json-patch')}; medians in microseconds.

${table(['measure', 'median (µs)', 'goal (µs)'], [
  ...rows.map(([name, us, goal]) => [name, us.toFixed(1), goal]),
  ['`applyPatch`, 7 operations on that surface (JSON text across the wasm edge)', ours.toFixed(1), '-'],
  ['fast-json-patch `applyPatch`, the same operations (mutateDocument false)', theirs.toFixed(1), '-'],
])}

Ratio \`applyPatch\` ours / fast-json-patch: ${(ours / theirs).toFixed(2)}.`);
