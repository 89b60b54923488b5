// Validator benchmark in Node through the wasm build (the Studio module
// scripts/build made, where dist/artifacts.json says), side by side with
// fast-json-patch and json-render's validateSpec. Each call twice: through the package's ./validator (values
// in and out: what users call) and through the wasm glue directly (JSON text
// in and out: the baseline, with the built-in catalog's LoadedCatalog handle),
// so the ratio is the cost of the value layer (JSON.stringify of the
// arguments, JSON.parse of the result). Prints a markdown section with
// medians and the ratios; a benchmark, not a test.
//
//   node crates/validator-wasm/bench/node.mjs
//   node crates/validator-wasm/bench/node.mjs --dump DIR   (the surface and the
//     7 operations as JSON files, for examples/profile.rs; nothing timed)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifacts } from '../../../scripts/artifacts.mjs';
import { table, version } from '../../../scripts/report.mjs';

const { dir, files } = artifacts().studio;
const wasm = readFileSync(join(dir, 'studio_bg.wasm'));
// The text baseline: the glue wasm-bindgen wrote, its exports taking text.
const glue = await import(pathToFileURL(join(dir, 'studio.js')).href);
await glue.default({ module_or_path: wasm });
const builtin = new glue.LoadedCatalog();
// The values: the package's entry as the build made it (beside the glue's part).
const entry = files.find((f) => /[\\/]validator\.js$/.test(f));
const api = await import(pathToFileURL(entry).href);
await api.default(wasm);
const render = await import(pathToFileURL(files.find((f) => /[\\/]render\.js$/.test(f))).href);
await render.default(wasm);
const jsonpatch = (await import('fast-json-patch/index.mjs')).default;
// json-render's structural validator (validateSpec: root, children, slots,
// visible, orphans) on the same surface as a json-render spec; its catalog
// check runs Zod schemas of its own, with no counterpart here.
const { validateSpec } = await import('@json-render/core');

// A surface of `n` components (root and n - 1 under it), with data growing
// with it: 200 components (the most a surface may hold) carry about 60 KB.
function surface(n = 200) {
  const ids = [];
  const components = [];
  const data = { headline: 'Pricing', billing: 'monthly', seats: 3, email: '', items: [] };
  for (let i = 0; i < n - 1; i++) {
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
  for (let i = 0; i < n - 1; i++) data.items.push({ title: `Item ${i}`, body: 'x'.repeat(260), price: i * 1.5 });
  components.unshift({ id: 'root', component: 'Stack', children: ids });
  return { id: 'bench', kind: 'surface', catalog: 'blog@1', components, data };
}

// The median time of each of `fns`, called in turn `runs` times each (after
// a warm-up), so the load of the machine falls on them alike.
function medians(fns, runs) {
  for (let i = 0; i < Math.min(20, runs); i++) fns.forEach((fn) => fn());
  const times = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, f) => {
      const t = process.hrtime.bigint();
      fn();
      times[f].push(Number(process.hrtime.bigint() - t) / 1e3);
    });
  }
  return times.map((list) => list.sort((a, b) => a - b)[list.length >> 1]);
}

const doc = surface();
const text = JSON.stringify(doc);
const dataBytes = Buffer.byteLength(JSON.stringify(doc.data));
const verdict = api.validate(doc);
if (!verdict.valid) throw new Error('bench surface has errors: ' + JSON.stringify(verdict.issues.slice(0, 3)));
if (glue.validate(text, builtin) !== '[]') throw new Error('the text baseline disagrees: ' + glue.validate(text, builtin).slice(0, 200));

// One operation through the pipeline: stateless (patch) and kept (Draft).
const op = { op: 'replace', path: '/components/1/props/level', value: 3 };
const opsOne = JSON.stringify([op]);
const out = api.patch(doc, [op]);
if (out.applied.length !== 1) throw new Error('bench op refused: ' + JSON.stringify(out.refused));
if (JSON.parse(glue.patch(text, opsOne, builtin)).applied.length !== 1) throw new Error('bench op refused (text)');

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
const dump = process.argv.indexOf('--dump');
if (dump > 0) {
  const to = process.argv[dump + 1];
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, 'surface.json'), text);
  writeFileSync(join(to, 'ops.json'), opsText);
  process.exit(0);
}
const valuesApply = () => api.applyPatch(doc, ops).document;
const textApply = () => glue.applyPatch(text, opsText);
const theirsApply = () => jsonpatch.applyPatch(doc, ops, false, false).newDocument;
const expected = JSON.stringify(theirsApply());
if (JSON.stringify(valuesApply()) !== expected) throw new Error('applyPatch results differ (values)');
if (JSON.stringify(JSON.parse(textApply()).document) !== expected) throw new Error('applyPatch results differ (text)');
if (JSON.stringify(doc) !== text) throw new Error('an applyPatch changed its input');

// A Draft per side, each flipping the level back and forth with one
// operation (not a list: what a model streams); the text side's two
// operations are JSON text made once.
const levels = [2, 3].map((value) => ({ op: 'replace', path: '/components/1/props/level', value }));
// And a data write (the surface's data alone changes: what an agent's data
// updates are).
const seats = [3, 4].map((value) => ({ op: 'replace', path: '/data/seats', value }));
const levelTexts = levels.map((o) => JSON.stringify(o));
const flipping = (apply, applied) => {
  let flip = 0;
  return () => {
    flip ^= 1;
    if (!applied(apply(flip))) throw new Error('draft op refused');
  };
};
const valuesDraft = new api.Draft(doc);
const textDraft = new glue.Draft(text, builtin);
const draftValues = flipping((i) => valuesDraft.apply(levels[i]), (r) => r.applied.length === 1);
const draftText = flipping((i) => textDraft.apply(levelTexts[i]), (r) => /^\{"applied":\[\d+\]/.test(r));
// (Indices count the round's operations across calls; nothing settles here.)
if (JSON.parse(textDraft.apply(levelTexts[1])).applied.length !== 1) throw new Error('draft op refused (text)');

// The same tree as json-render writes it: {root, elements: {key: {type, props,
// children, visible}}}, its conditions in json-render's form ({and: [{eq:
// [{path}, v]}]} is [{$state, eq: v}]; the bench writes no other shape).
const condition = (c) => c.and.map((one) => {
  const [op, [{ path }, value]] = Object.entries(one)[0];
  return { $state: path, [op]: value };
});
const spec = {
  root: 'root',
  elements: Object.fromEntries(doc.components.map(({ id, component, props = {}, children, visible }) =>
    [id, { type: component, props, ...(children ? { children } : {}), ...(visible ? { visible: condition(visible) } : {}) }])),
};
const theirsSpec = validateSpec(spec, { checkOrphans: true });
if (!theirsSpec.valid) throw new Error('json-render refuses the bench spec: ' + JSON.stringify(theirsSpec.issues.slice(0, 3)));
const [oursValidate, theirsValidate] = medians([() => api.validate(doc), () => validateSpec(spec, { checkOrphans: true })], 200);

const rows = [
  ['`validate`: 200 components, ' + Math.round(dataBytes / 1024) + ' KB data (issues out)', ...medians([() => glue.validate(text, builtin), () => api.validate(doc)], 200), 1000],
  ['`Draft.apply`: one operation through repair, validate, apply (document kept in wasm)', ...medians([draftText, draftValues], 2000), 20],
  ['`patch`: the same operation, stateless (the document crosses both ways each call)', ...medians([() => glue.patch(text, opsOne, builtin), () => api.patch(doc, [op])], 100), '-'],
];
const [textApplied, ours, theirs] = medians([textApply, valuesApply, theirsApply], 200);
rows.push(['`applyPatch`: 7 operations on that surface (atomic RFC 6902)', textApplied, ours, '-']);
valuesDraft.free();
textDraft.free();
const ratio = (a, b) => (a / b).toFixed(2);

// validate against V8's JSON.parse of the same text, in turn: the text in
// (the glue) and the values in (the package, which stringifies them first).
// Where validate's time goes, in the same turns: the text read into values
// and dropped, no rule run (the glue's Draft constructor, then free), and
// the rules, what validate takes beyond that.
const readOnly = () => new glue.Draft(text, builtin).free();
const [parseText, validateText, validateValues, readText] = medians([() => JSON.parse(text), () => glue.validate(text, builtin), () => api.validate(doc), readOnly], 200);

// What growing the surface costs: the same shape at 10 to 200 components,
// each call's median; doubling (25 to 200) should cost about 2x, and
// Draft.apply should stay flat (a data write checks the data again: its
// size, and the bindings the draft keeps; never the components).
const sizes = [10, 25, 50, 100, 200];
const scaled = sizes.map((n) => {
  const one = surface(n);
  const draft = new api.Draft(one);
  const flip = flipping((i) => draft.apply(levels[i]), (r) => r.applied.length === 1);
  const write = flipping((i) => draft.apply(seats[i]), (r) => r.applied.length === 1);
  if (!api.validate(one).valid || !render.renderSurface(one).ok) throw new Error(`the ${n}-component surface has errors`);
  // The draft's small calls timed on their own: between the large calls,
  // each would pay for what they leave behind (the collector, the caches).
  const times = medians([() => api.validate(one), () => render.renderSurface(one)], n < 100 ? 400 : 150);
  const [applied] = medians([flip], 2000);
  const [written] = medians([write], 2000);
  draft.free();
  // A component added at the end and linked into root's children (what an
  // agent's new component is), then both taken back: two calls, on a
  // surface of n - 1 components, so that it holds n with the new one.
  const growing = new api.Draft(surface(n - 1));
  const added = { id: 'added', component: 'Text', props: { text: 'New' } };
  const add = [{ op: 'add', path: '/components/-', value: added }, { op: 'add', path: '/components/0/children/-', value: 'added' }];
  const takeBack = [{ op: 'remove', path: `/components/0/children/${n - 2}` }, { op: 'remove', path: `/components/${n - 1}` }];
  const both = () => {
    if (growing.apply(add).applied.length !== 2 || growing.apply(takeBack).applied.length !== 2) throw new Error('draft ops refused');
  };
  const [grown] = medians([both], n < 100 ? 400 : 150);
  growing.free();
  return [times[0], applied, written, grown, times[1]];
});
const doublings = (k) => Math.max(...sizes.slice(2).map((_, i) => scaled[i + 2][k] / scaled[i + 1][k])).toFixed(2);
const scaling = ['`validate` (values in)', '`Draft.apply` (one operation)', '`Draft.apply` (a data write)', '`Draft.apply` (a component added and linked, then taken back: 2 calls)', '`renderSurface` (values in)'].map((name, k) => [
  name, ...scaled.map((t) => t[k].toFixed(1)), doublings(k), ratio(scaled[4][k], scaled[0][k]),
]);
console.log(`## Validator

\`crates/validator-wasm/bench/node.mjs\`: Node, the Studio wasm module, each
call through the package (\`./validator\`: values in and out) and through the
wasm glue (JSON text in and out, the built-in catalog's handle); side by side
with fast-json-patch ${version('fast-json-patch')}; medians in microseconds, the calls of a
row timed in turn. The value
layer = values / text (the cost of JSON.stringify of the arguments and
JSON.parse of the result, above 1: slower).

${table(['measure', 'text in and out (µs)', 'values in and out (µs)', 'value layer (values / text)', 'goal, values (µs)'],
  rows.map(([name, t, v, goal]) => [name, t.toFixed(1), v.toFixed(1), ratio(v, t), goal]))}

${table(['`validate`, 200 components, against V8 parsing the same text', 'median (µs)', 'ours / JSON.parse', 'goal'], [
  ['ours, text in (the glue: the text parsed and checked in wasm)', validateText.toFixed(1), ratio(validateText, parseText), '2'],
  ['ours, values in (`./validator`: JSON.stringify of the surface, then as text)', validateValues.toFixed(1), ratio(validateValues, parseText), '3'],
  ['`JSON.parse` of the text', parseText.toFixed(1), '1.00', '-'],
  ['of ours, text in: the text read into values and dropped, no rule (the glue\'s `new Draft(text)`, then `free()`)', readText.toFixed(1), ratio(readText, parseText), '-'],
  ['of ours, text in: the rules (validate less that reading)', (validateText - readText).toFixed(1), ratio(validateText - readText, parseText), '-'],
])}

What growing the surface costs (the same shape at each size, data growing
with it; medians in µs; a doubling is linear at 2, and the goal is at most
about 2.2; Draft.apply's goal is flat for one operation on a component's
props. A data write resolves again the bindings through the path written;
a component added, linked or taken away checks the surface whole, reusing
what each earlier component's props and visible gave, and the data's size
and warnings, as the data did not change):

${table(['call', ...sizes.map((n) => `${n} components`), 'largest cost of a doubling (25 to 200)', '200 / 10'], scaling)}

${table(['`applyPatch`, the same 7 operations, values in and out', 'median (µs)', 'ours / fast-json-patch'], [
  ['ours (`./validator` `applyPatch`)', ours.toFixed(1), ratio(ours, theirs)],
  ['fast-json-patch `applyPatch` (mutateDocument false: a copy, as ours)', theirs.toFixed(1), '1.00'],
])}

${table(['`validate` against json-render, the same 200-component tree, values in', 'median (µs)', 'ours / json-render'], [
  ['ours (`./validator` `validate`: structure, every prop against the catalog, bindings, calls, conditions, actions, data)', oursValidate.toFixed(1), ratio(oursValidate, theirsValidate)],
  [`@json-render/core ${version('@json-render/core')} \`validateSpec\` (structure only: root, children, visible, orphans)`, theirsValidate.toFixed(1), '1.00'],
])}

json-render's \`validateSpec\` checks the tree only; its props are checked
by Zod schemas in its catalog, which have no counterpart here, so the rows do
not do the same work: ours does more.`);
