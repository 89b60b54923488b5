// The npm package's entry points load as plain ES modules, without a bundler,
// in Chromium (under the documented CSP) and in Node: the default export
// init(), awaited once, then the named exports work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, startServer, root, artifacts } from './harness.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8'));
// Entries whose wasm is held back by its size budget are not in the package yet.
const parts = artifacts();
const held = (name) => parts[name]?.ships === false && `${name} is held back by its size budget`;
const entries = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object').map(([k, v]) => [k.slice(2), v.default]);

// One real call per entry; each runs in Node and in the page (it gets the
// module namespace and returns something JSON-serializable to assert on).
const SURFACE = {
  id: 'hello', kind: 'surface', catalog: 'blog@1',
  components: [{ id: 'root', component: 'Heading', props: { text: { path: '/title' } } }],
  data: { title: 'Hi <there>' },
};
const calls = {
  validator: [(m) => JSON.parse(m.validate('{"id":"s","components":[{"id":"Bad","component":"Stack"}]}')).map((i) => i.code),
    (codes) => assert.ok(codes.includes('invalid_id') && codes.includes('no_root'), String(codes))],
  stream: [(m) => m.heal('Hello **wor'), (healed) => assert.equal(healed, 'Hello **wor**')],
  render: [(m, surface) => JSON.parse(m.renderSurface(JSON.stringify(surface))).html,
    (html) => assert.match(html, /^<div data-ch-surface="hello"[\s\S]*Hi &lt;there&gt;/)],
};
const browserOnly = {
  morph: [(m) => {
    const target = document.createElement('div');
    target.innerHTML = '<p id="a">one</p><p id="b">two</p>';
    const b = target.querySelector('#b');
    m.morph(target, '<p id="b">two!</p><p id="a">one</p>');
    return [target.innerHTML, target.querySelector('#b') === b];
  }, ([html, reused]) => { assert.equal(html, '<p id="b">two!</p><p id="a">one</p>'); assert.equal(reused, true); }],
};

let browser, site;
before(async () => {
  browser = await launch();
  site = await startServer({ pages: { '/blank.html': '<!doctype html><title>npm</title>' } });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

test('package.json maps ./validator, ./stream, ./render and ./morph to typed ES modules', () => {
  assert.deepEqual(entries.map(([name]) => name).sort(), ['morph', 'render', 'stream', 'validator']);
  for (const [name] of entries) assert.equal(pkg.exports[`./${name}`].types, `./${name}.d.ts`);
});

test('./runtime is the published-page runtime: its manifest names the hashed files beside it', { skip: held('runtime') }, () => {
  const manifest = join(root, 'npm', pkg.exports['./runtime']);
  const names = JSON.parse(readFileSync(manifest, 'utf8'));
  assert.deepEqual(Object.keys(names).sort(), ['surface.js', 'surface.wasm']);
  const dir = join(manifest, '..');
  const loader = readFileSync(join(dir, names['surface.js']), 'utf8');
  assert.match(names['surface.wasm'], /^surface\.[0-9a-f]{10}\.wasm$/);
  assert.ok(loader.includes(`"${names['surface.wasm']}"`), 'the loader loads the hashed wasm');
  const wasm = readFileSync(join(dir, names['surface.wasm']));
  assert.ok(WebAssembly.validate(wasm));
  assert.equal(pkg.exports['./runtime/*'], './dist/site/*');
});

for (const [name, file] of entries) {
  if (calls[name]) {
    test(`${name}: init() then a named export, in Node`, async () => {
      const mod = await import(join(root, 'npm', file));
      await mod.default();
      await mod.default(); // a second call reuses the first
      const [call, check] = calls[name];
      check(call(mod, SURFACE));
    });
  }

  test(`${name}: init() then a named export, in Chromium under the page CSP`, { skip: held(name) }, async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.origin}/blank.html`);
    const mod = await page.evaluateHandle(async (url) => {
      const m = await import(url);
      await m.default();
      return m;
    }, `${site.origin}/npm/${file.slice(2)}`);
    const [call, check] = calls[name] ?? browserOnly[name];
    check(await mod.evaluate(call, SURFACE));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('./validator, ./stream and ./render share one wasm module, fetched once', async () => {
  const page = await browser.newPage();
  const wasm = [];
  page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
  await page.goto(`${site.origin}/blank.html`);
  await page.evaluate(async (base) => {
    const mods = await Promise.all(['validator', 'stream', 'render'].map((n) => import(`${base}/npm/${n}.js`)));
    await Promise.all(mods.map((m) => m.default()));
  }, site.origin);
  assert.deepEqual(wasm.map((u) => u.replace(site.origin, '')), ['/npm/dist/studio/studio_bg.wasm']);
  await page.close();
});
