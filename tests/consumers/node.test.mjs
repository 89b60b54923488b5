// The packed package in a Node ES module project: the entries imported by
// package name from a consumer's node_modules, every export of ./validator,
// ./stream and ./render called with values and with JSON text, initSync in a
// fresh process from the exported wasm, and what the tarball holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { consumer, packed, root, run, PACKAGE } from './setup.mjs';

// What the consumer's own module imports, by package name.
const PROBE = `
export * as validator from '${PACKAGE}/validator';
export * as stream from '${PACKAGE}/stream';
export * as render from '${PACKAGE}/render';
export const resolved = Object.fromEntries(['validator', 'stream', 'render', 'studio.wasm']
  .map((entry) => [entry, import.meta.resolve('${PACKAGE}/' + entry)]));
`;

// A fresh process: initSync from the bytes (or the compiled module) of the
// exported wasm, then one call of each entry.
const SYNC = `
import { readFileSync } from 'node:fs';
import { initSync, validate } from '${PACKAGE}/validator';
import { heal } from '${PACKAGE}/stream';
import { renderSurface } from '${PACKAGE}/render';
const url = new URL(import.meta.resolve('${PACKAGE}/studio.wasm'));
const bytes = readFileSync(url);
initSync({ module: process.argv[2] === 'module' ? new WebAssembly.Module(bytes) : bytes });
const surface = { id: 'sync', components: [{ id: 'root', component: 'Heading', props: { text: 'Synchronous' } }] };
console.log(JSON.stringify({ url: url.href, valid: validate(surface).valid, healed: heal('**bo'), html: renderSurface(surface).html }));
`;

const PRICE = {
  id: 'price', kind: 'surface', catalog: 'blog@1',
  components: [
    { id: 'root', component: 'Stack', children: ['title', 'amount'] },
    { id: 'title', component: 'Heading', props: { text: { path: '/title' } } },
    { id: 'amount', component: 'Text', props: { text: { call: 'formatCurrency', args: { value: { path: '/price' }, currency: 'EUR' } } } },
  ],
  data: { title: 'Pro <plan>', price: 9 },
};
const BROKEN = { id: 's', components: [{ id: 'Bad', component: 'Stack' }] };
const MINE = {
  catalog: 'mine@1', description: 'A catalog of one component.',
  components: { Box: { description: 'A box of text.', props: { type: 'object', properties: { label: { type: 'string', maxLength: 20 } }, required: ['label'], additionalProperties: false }, children: 'none', example: { label: 'Hello' } } },
};
const BOXED = { id: 'boxed', catalog: 'mine@1', components: [{ id: 'root', component: 'Box', props: { label: 'in a box' } }] };

// Markdown with multi-byte text and a surface fence.
const ANSWER = [
  'Grüße aus **Köln** 👋, les plans changent.',
  '',
  '```surface {"id":"plans"}',
  '{"data":{"billing":"monthly"}}',
  '{"id":"root","component":"Stack","children":["choice","shown"]}',
  '{"id":"choice","component":"Toggle","props":{"options":["monthly","yearly"],"value":{"path":"/billing"}}}',
  '{"id":"shown","component":"Text","props":{"text":{"path":"/billing"}}}',
  '```',
  '',
  'Fragen? Écrivez-nous — *merci',
].join('\n');

let app, v, s, r, resolved;
before(async () => {
  app = await consumer('node', { files: { 'probe.mjs': PROBE, 'sync.mjs': SYNC } });
  ({ validator: v, stream: s, render: r, resolved } = await import(pathToFileURL(app.path('probe.mjs'))));
});
after(() => app?.remove());

/** Asserts that `f` throws a SurfacesError with `code` (and `path` when given). */
const throwsSurfaces = (f, code, path) => assert.throws(f, (e) => {
  assert.ok(e instanceof v.SurfacesError, `a SurfacesError, got ${e?.constructor?.name}: ${e?.message}`);
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'SurfacesError');
  assert.equal(e.code, code, e.message);
  if (path !== undefined) assert.equal(e.path, path, e.message);
  assert.equal(typeof e.message, 'string');
  return true;
});

test('the tarball holds what package.json exports, catalog/blog@1.json, the schemas, README.md and LICENSE', async (t) => {
  const { files, template } = await packed();
  const manifest = JSON.parse(readFileSync(join(template, 'node_modules', PACKAGE, 'package.json'), 'utf8'));
  const exported = Object.entries(manifest.exports).filter(([key]) => !key.includes('*'))
    .flatMap(([, value]) => (typeof value === 'string' ? [value] : Object.values(value)))
    .map((target) => target.replace(/^\.\//, ''));
  for (const file of ['package.json', 'LICENSE', 'catalog/blog@1.json', ...exported]) assert.ok(files.includes(file), `${file} is in the tarball`);
  for (const schema of ['schema/surface.json', 'schema/catalog.json']) {
    if (existsSync(join(root, 'npm', schema))) assert.ok(files.includes(schema), `${schema} is in the tarball`);
  }
  assert.ok(!files.some((f) => f.endsWith('.rs') || f.includes('node_modules/')), 'no Rust sources or node_modules');
  if (existsSync(join(root, 'npm/README.md'))) assert.ok(files.includes('README.md'), 'README.md is in the tarball');
  else t.skip('npm/README.md does not exist yet (it ships once it does)');
});

test('the entries resolve by package name inside the consumer, not the repository', () => {
  for (const [entry, url] of Object.entries(resolved)) {
    assert.ok(url.startsWith(pathToFileURL(join(app.dir, 'node_modules', PACKAGE)).href), `${entry}: ${url}`);
  }
  assert.match(resolved['studio.wasm'], /\/dist\/studio\/studio_bg\.wasm$/);
});

test('before init() every call throws SurfacesError not_initialized, with path ""', () => {
  throwsSurfaces(() => v.validate(PRICE), 'not_initialized', '');
  throwsSurfaces(() => v.validate(JSON.stringify(PRICE)), 'not_initialized', '');
  throwsSurfaces(() => v.applyPatch({}, []), 'not_initialized', '');
  throwsSurfaces(() => v.Catalog.default, 'not_initialized', '');
  throwsSurfaces(() => v.Catalog.load(MINE), 'not_initialized', '');
  throwsSurfaces(() => new v.Draft(PRICE), 'not_initialized', '');
  throwsSurfaces(() => new s.Stream(), 'not_initialized', '');
  throwsSurfaces(() => s.heal('**a'), 'not_initialized', '');
  throwsSurfaces(() => r.renderSurface(PRICE), 'not_initialized', '');
  assert.ok(s.SurfacesError === v.SurfacesError && r.SurfacesError === v.SurfacesError, 'one SurfacesError class');
});

test('init() of each entry loads the one Studio wasm from the package (Node reads the file)', async () => {
  await v.default();
  await Promise.all([s.default(), r.default(), v.default()]);
  assert.equal(v.validate(PRICE).valid, true);
});

test('validate: {valid, issues} for a surface and a page, as a value and as JSON text', () => {
  assert.deepEqual(v.validate(PRICE), { valid: true, issues: [] });
  assert.deepEqual(v.validate(JSON.stringify(PRICE)), { valid: true, issues: [] });
  for (const input of [BROKEN, JSON.stringify(BROKEN)]) {
    const verdict = v.validate(input);
    assert.equal(verdict.valid, false);
    assert.deepEqual(verdict.issues.map((i) => [i.severity, i.code, i.path]).sort(),
      [['error', 'invalid_id', '/components/0/id'], ['error', 'no_root', '/components']]);
    for (const issue of verdict.issues) assert.equal(typeof issue.message, 'string');
  }
  const page = { sections: [{ kind: 'hero', title: 'Hi' }, PRICE, { ...BROKEN, kind: 'surface' }] };
  const verdict = v.validate(page);
  assert.equal(verdict.valid, false);
  assert.ok(verdict.issues.every((i) => i.path.startsWith('/sections/2/')), JSON.stringify(verdict.issues));
  assert.deepEqual(v.validate(JSON.stringify(page)), verdict);
  // A flag alone keeps the verdict valid.
  const flagged = v.validate({ ...PRICE, components: [...PRICE.components.slice(0, 2), { id: 'amount', component: 'Txt', props: { text: 'x' } }] });
  assert.equal(flagged.valid, true);
  assert.deepEqual(flagged.issues.map((i) => [i.severity, i.code]), [['flag', 'unknown_component']]);
  throwsSurfaces(() => v.validate(undefined), 'invalid_json', '');
});

test('validateComponent: one component\'s issues with options.at and options.data', () => {
  const component = { id: 'x', component: 'Heading', props: { text: { path: '/missing' } } };
  const issues = v.validateComponent(component, { at: '/components/3', data: { title: 'Hi' } });
  assert.deepEqual(issues.map((i) => [i.severity, i.code, i.path]), [['warning', 'missing_data', '/components/3/props/text/path']]);
  assert.deepEqual(v.validateComponent(JSON.stringify(component), { at: '/components/3', data: JSON.stringify({ missing: 'here' }) }), []);
  assert.deepEqual(v.validateComponent({ id: 'x', component: 'Heading', props: { text: 'ok', level: 9 } }).map((i) => [i.code, i.path]),
    [['invalid_prop', '/props/level']]);
  throwsSurfaces(() => v.validateComponent(component, { at: 3 }), 'invalid_option', '/at');
});

test('validateMarkdown: {valid, issues} with each issue\'s surface and line', () => {
  assert.deepEqual(v.validateMarkdown(ANSWER), { valid: true, issues: [] });
  const body = 'Intro\n\n```surface {"id":"one"}\n{"id":"root","component":"Stack","children":["gone"]}\n```\n';
  const { valid, issues } = v.validateMarkdown(body);
  assert.equal(valid, false);
  assert.deepEqual(issues.map((i) => [i.code, i.surface, i.line]), [['unresolved_child', 'one', 4]]);
  throwsSurfaces(() => v.validateMarkdown(42), 'invalid_option', '');
});

test('patch: repairs, applies and refuses, with values and with JSON text', () => {
  const ops = [
    { op: 'add', path: '/components/-', value: { id: 'go', component: 'Buton', props: { label: 'Go' } } },
    { op: 'replace', path: '/components/0/children', value: ['title', 'amount', 'go'] },
    { op: 'add', path: '/components/3/props/href', value: 'javascript:alert(1)' },
  ];
  const out = v.patch(PRICE, ops);
  assert.deepEqual(out.applied, [0, 1]);
  assert.deepEqual(out.repairs.map((x) => [x.code, x.op, x.path, x.from, x.to]), [['snap_component', 0, '/components/3/component', 'Buton', 'Button']]);
  assert.deepEqual(out.refused.map((x) => [x.code, x.op, x.issues.map((i) => i.code)]), [['VALIDATION_FAILED', 2, ['unsafe_href']]]);
  assert.equal(out.document.components[3].component, 'Button');
  assert.equal(out.document.components[3].props.href, undefined);
  assert.equal(PRICE.components.length, 3, 'the input value is untouched');
  assert.deepEqual(v.patch(JSON.stringify(PRICE), JSON.stringify(ops)), out);
});

test('applyPatch: {ok: true, document} and {ok: false, error: {op, code, path, message}}, atomic', () => {
  const doc = { a: 1, list: [1, 2] };
  assert.deepEqual(v.applyPatch(doc, [{ op: 'replace', path: '/a', value: 2 }, { op: 'add', path: '/list/-', value: 3 }]),
    { ok: true, document: { a: 2, list: [1, 2, 3] } });
  assert.deepEqual(v.applyPatch(JSON.stringify(doc), '[{"op":"remove","path":"/a"}]'), { ok: true, document: { list: [1, 2] } });
  const failed = v.applyPatch(doc, [{ op: 'replace', path: '/a', value: 5 }, { op: 'remove', path: '/nope' }]);
  assert.equal(failed.ok, false);
  assert.deepEqual({ ...failed.error, message: undefined }, { op: 1, code: 'path_not_found', path: '/nope', message: undefined });
  assert.equal(typeof failed.error.message, 'string');
  assert.equal(failed.document, undefined);
  assert.deepEqual(v.applyPatch(doc, [{ op: 'test', path: '/a', value: 2 }]).error.code, 'test_failed');
  assert.deepEqual(doc, { a: 1, list: [1, 2] });
});

test('Catalog.load: a loaded handle from a value or JSON text; a bad one throws invalid_catalog or unknown_keyword', () => {
  const mine = v.Catalog.load(MINE);
  assert.ok(mine instanceof v.Catalog);
  assert.equal(mine.name, 'mine@1');
  assert.deepEqual(mine.components, ['Box']);
  assert.match(mine.prompt(), /mine@1/);
  assert.equal(v.Catalog.load(mine), mine);
  assert.equal(v.Catalog.load(JSON.stringify(MINE)).name, 'mine@1');
  throwsSurfaces(() => v.Catalog.load({ catalog: 'x@1' }), 'invalid_catalog');
  throwsSurfaces(() => v.Catalog.load('{not json'), 'invalid_catalog');
  const withPattern = structuredClone(MINE);
  withPattern.components.Box.props.properties.label.pattern = '^[a-z]+$';
  throwsSurfaces(() => v.Catalog.load(withPattern), 'unknown_keyword', '/components/Box/props/properties/label/pattern');
  throwsSurfaces(() => v.Catalog.load(JSON.stringify(withPattern)), 'unknown_keyword', '/components/Box/props/properties/label/pattern');
  // options.catalog takes the handle, the document or its text.
  for (const catalog of [mine, MINE, JSON.stringify(MINE)]) assert.deepEqual(v.validate(BOXED, { catalog }), { valid: true, issues: [] });
  assert.deepEqual(v.validate(BOXED).issues.map((i) => i.code), ['unknown_component'], 'blog@1 has no Box');
});

test('Catalog.jsonSchema(): a JSON Schema (2020-12) of a surface restricted to the catalog, as ajv reads it', () => {
  const schema = v.Catalog.load(MINE).jsonSchema();
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  const check = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  assert.equal(check(BOXED), true, JSON.stringify(check.errors));
  assert.equal(check({ ...BOXED, components: [{ id: 'root', component: 'Heading', props: { text: 'not in mine@1' } }] }), false);
  const blog = new Ajv2020({ strict: false }).compile(v.Catalog.default.jsonSchema());
  assert.equal(blog(PRICE), true, JSON.stringify(blog.errors));
  assert.equal(blog(BOXED), false);
});

test('Catalog.default and catalogPrompt: blog@1, its components and its prompt', () => {
  const blog = v.Catalog.default;
  assert.equal(blog, v.Catalog.default);
  assert.equal(blog.name, 'blog@1');
  assert.ok(Array.isArray(blog.components) && blog.components.includes('Heading') && blog.components.includes('Toggle'), String(blog.components));
  const prompt = blog.prompt();
  assert.match(prompt, /blog@1/);
  assert.equal(v.catalogPrompt(), prompt);
  assert.equal(v.catalogPrompt({ catalog: blog }), prompt);
  const mine = v.catalogPrompt({ catalog: MINE });
  assert.match(mine, /mine@1/);
  assert.equal(v.catalogPrompt({ catalog: JSON.stringify(MINE) }), mine);
  assert.notEqual(mine, prompt);
});

test('Draft: held operations wait across apply() calls until settle(); document() and issues()', () => {
  for (const input of [PRICE, JSON.stringify(PRICE)]) {
    const draft = new v.Draft(input);
    assert.deepEqual(draft.apply([{ op: 'replace', path: '/components/0/children', value: ['title', 'amount', 'go'] }]),
      { applied: [], repairs: [], refused: [], held: [0] });
    assert.deepEqual(draft.apply(JSON.stringify({ op: 'add', path: '/components/-', value: { id: 'go', component: 'Button', props: { label: 'Go' } } })),
      { applied: [0, 1], repairs: [], refused: [], held: [] });
    assert.deepEqual(draft.apply({ op: 'replace', path: '/components/0/children', value: ['title', 'amount', 'go', 'later'] }).held, [2]);
    const { refused } = draft.settle();
    assert.deepEqual(refused.map((x) => [x.code, x.op, x.path]), [['VALIDATION_FAILED', 2, '/components/0/children']]);
    assert.deepEqual(draft.document().components[0].children, ['title', 'amount', 'go']);
    assert.deepEqual(draft.issues(), []);
    draft.free();
  }
});

test('Stream: strings and bytes split inside a multi-byte character; finish() {changes, document}; applyChanges rebuilds it', () => {
  const bytes = new TextEncoder().encode(ANSWER);
  const emoji = bytes.indexOf(0xf0); // the first byte of the 4-byte 👋
  const umlaut = bytes.indexOf(0xc3); // the first byte of ü
  const stream = new s.Stream();
  assert.equal(stream.mode, 'markdown');
  const changes = [];
  changes.push(...stream.push(bytes.subarray(0, umlaut + 1)));
  changes.push(...stream.push(bytes.subarray(umlaut + 1, emoji + 2)));
  assert.ok(!JSON.stringify(stream.document()).includes('\ufffd'), 'no replacement character for a split character');
  changes.push(...stream.push(bytes.subarray(emoji + 2, bytes.indexOf(0x60)))); // up to the fence
  const rest = ANSWER.slice(ANSWER.indexOf('```'));
  changes.push(...stream.push(rest.slice(0, 40)));
  changes.push(...stream.push(rest.slice(40)));
  const finished = stream.finish();
  assert.deepEqual(Object.keys(finished).sort(), ['changes', 'document']);
  changes.push(...finished.changes);
  const { blocks } = finished.document;
  assert.deepEqual(blocks.map((b) => b.kind), ['prose', 'surface', 'prose']);
  assert.ok(blocks[0].text.startsWith('Grüße aus **Köln** 👋'), blocks[0].text);
  assert.equal(blocks[1].id, 'plans');
  assert.deepEqual(blocks[1].components.map((c) => c.id), ['root', 'choice', 'shown']);
  assert.deepEqual(blocks[1].data, { billing: 'monthly' });
  assert.deepEqual(blocks[1].refused, []);
  assert.equal(blocks[1].complete, true);
  assert.deepEqual(stream.document(), finished.document);
  assert.deepEqual(s.applyChanges(undefined, changes), finished.document);
  // Every chunking gives the same document: the whole text at once.
  const whole = new s.Stream('markdown', { catalog: v.Catalog.default });
  whole.push(ANSWER);
  assert.deepEqual(whole.finish().document, finished.document);
  throwsSurfaces(() => new s.Stream().push(42), 'invalid_option', '/chunk');
  throwsSurfaces(() => new s.Stream('jsonl', { catalog: MINE }), 'invalid_option', '/catalog');
});

test('Stream<"jsonl">: items and the partial object, rebuilt by applyChanges', () => {
  const stream = new s.Stream('jsonl');
  const changes = [...stream.push('{"say":"hi"}\n{"ops":[{"op":"add","path":"/a","value":1}]}\n{"say":"mo'), ...stream.push('re"}\n')];
  const { changes: last, document } = stream.finish();
  changes.push(...last);
  assert.deepEqual(document.items.map((i) => i.kind), ['value', 'step', 'value']);
  assert.deepEqual(document.items[1].ops, [{ op: 'add', path: '/a', value: 1 }]);
  assert.deepEqual(s.applyChanges(undefined, changes).items, document.items);
});

test('Stream.transform: a ReadableStream of text and bytes piped through gives the change lists', async () => {
  const encoder = new TextEncoder();
  const chunks = [ANSWER.slice(0, 9), encoder.encode(ANSWER.slice(9, 60)), ANSWER.slice(60, 130), encoder.encode(ANSWER.slice(130))];
  const source = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const lists = [];
  for await (const list of source.pipeThrough(s.Stream.transform())) lists.push(list);
  assert.ok(lists.length >= 2 && lists.every((l) => Array.isArray(l) && l.length > 0), `${lists.length} non-empty lists`);
  const reference = new s.Stream();
  reference.push(ANSWER);
  assert.deepEqual(s.applyChanges(undefined, lists.flat()), reference.finish().document);
});

test('heal: the open last block closed for display', () => {
  assert.equal(s.heal('Hello **wor'), 'Hello **wor**');
  assert.equal(s.heal('a `code'), 'a `code`');
  assert.equal(s.heal('done.'), 'done.');
  throwsSurfaces(() => s.heal(null), 'invalid_option', '');
});

test('renderSurface: {ok, html, issues}; flags beside the HTML; ok false and html null with errors', () => {
  for (const input of [PRICE, JSON.stringify(PRICE)]) {
    const out = r.renderSurface(input);
    assert.deepEqual(Object.keys(out).sort(), ['html', 'issues', 'ok']);
    assert.equal(out.ok, true);
    assert.deepEqual(out.issues, []);
    assert.match(out.html, /^<div data-ch-surface="price"/);
    assert.match(out.html, /<h2 data-ch-text="\/title">Pro &lt;plan&gt;<\/h2>/);
  }
  const flagged = r.renderSurface({ ...PRICE, components: [...PRICE.components.slice(0, 2), { id: 'amount', component: 'Text', props: { text: 'x', tone: 'loud' } }] });
  assert.equal(flagged.ok, true);
  assert.deepEqual(flagged.issues.map((i) => [i.severity, i.code, i.path]), [['flag', 'invalid_prop', '/components/2/props/tone']]);
  assert.ok(flagged.html.includes('Pro &lt;plan&gt;') && !flagged.html.includes('ch-tone-loud'), 'the flagged component is left out');
  const broken = r.renderSurface(BROKEN);
  assert.equal(broken.ok, false);
  assert.equal(broken.html, null);
  assert.deepEqual(broken.issues.map((i) => i.code).sort(), ['invalid_id', 'no_root']);
  const md = r.renderMarkdown(ANSWER);
  assert.equal(md.ok, true);
  assert.match(md.html, /data-ch-surface="plans"/);
});

test('renderSurface with locale de-DE: formatCurrency EUR is "9,00 €" and the surface says lang="de-DE"', () => {
  const { ok, html } = r.renderSurface(PRICE, { locale: 'de-DE' });
  assert.equal(ok, true);
  assert.match(html, /^<div data-ch-surface="price" lang="de-DE"/);
  const amount = html.match(/<p class="ch-text[^"]*"[^>]*>([^<]*)<\/p>/)?.[1];
  assert.equal(amount?.replace(/\u00a0/g, ' '), '9,00 €', html);
  assert.equal(amount, new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(9));
  assert.match(r.renderSurface(PRICE, { locale: 'en-US' }).html, />€9\.00</);
  throwsSurfaces(() => r.renderSurface(PRICE, { locale: 5 }), 'invalid_option', '/locale');
});

test('initSync({module}) in a fresh process, from the bytes or the compiled module of @cloudhal/surfaces/studio.wasm', async () => {
  for (const how of ['bytes', 'module']) {
    const { stdout } = await run(process.execPath, [app.path('sync.mjs'), how], { cwd: app.dir });
    const out = JSON.parse(stdout);
    assert.ok(out.url.startsWith(pathToFileURL(app.dir).href) && out.url.endsWith('/dist/studio/studio_bg.wasm'), out.url);
    assert.equal(out.valid, true);
    assert.equal(out.healed, '**bo**');
    assert.match(out.html, /<h2>Synchronous<\/h2>/);
  }
});
