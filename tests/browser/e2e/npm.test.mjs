// The npm package's entry points load as plain ES modules, without a bundler,
// in Chromium (under the documented CSP) and in Node: before init() every call
// throws SurfacesError not_initialized; after the default export init(),
// awaited once, the named exports take values (or their JSON text) and give
// values (SPEC.md section 13).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, startServer, root, artifacts } from './harness.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8'));
// Entries whose wasm is held back by its size budget are not in the package yet.
const parts = artifacts();
const held = (name) => parts[name]?.ships === false && `${name} is held back by its size budget`;
// The typed ES modules ({types, default}) and the wasm files the package exports.
const entries = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object').map(([k, v]) => [k.slice(2), v.default]);
const wasmExports = Object.entries(pkg.exports).filter(([k]) => k.endsWith('.wasm'));
const MODULES = ['morph', 'render', 'stream', 'validator'];

// Real calls per entry; each runs in Node and in the page (it gets the module
// namespace and returns something structured-cloneable to assert on). Values
// go in as values, never as JSON text made here, except where the text form
// is what is checked.
const SURFACE = {
  id: 'hello', kind: 'surface', catalog: 'blog@1',
  components: [{ id: 'root', component: 'Heading', props: { text: { path: '/title' } } }],
  data: { title: 'Hi <there>' },
};
const calls = {
  validator: [(m, surface) => {
    const bad = m.validate({ id: 's', components: [{ id: 'Bad', component: 'Stack' }] });
    const good = m.validate(surface);
    const asText = m.validate('{"id":"s","components":[{"id":"Bad","component":"Stack"}]}');
    const patched = m.patch(surface, [{ op: 'replace', path: '/data/title', value: 'Bye' }]);
    const applied = m.applyPatch({ a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }]);
    const failed = m.applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]);
    // A Draft holds an operation that waits for a later one (a child before
    // its component), across apply calls, until settle().
    const draft = new m.Draft(surface, { catalog: m.Catalog.default });
    const first = draft.apply({ op: 'add', path: '/components/0/children', value: ['more'] });
    const second = draft.apply([{ op: 'add', path: '/components/-', value: { id: 'more', component: 'Text', props: { text: 'more' } } }]);
    const settled = draft.settle();
    const ids = draft.document().components.map((c) => c.id);
    draft.free();
    // Text that is not JSON is the document's issue; a catalog that does not
    // load is thrown, with the pointer of what is wrong in it.
    const broken = m.validate('{"id":');
    let error;
    try {
      m.validate(surface, { catalog: { components: {}, bad: true } });
    } catch (e) {
      error = { instance: e instanceof m.SurfacesError, name: e.name, code: e.code, path: e.path };
    }
    return {
      bad: [bad.valid, bad.issues.map((i) => i.code)], good: [good.valid, good.issues], same: JSON.stringify(asText) === JSON.stringify(bad),
      patched: [patched.applied, patched.document.data.title, surface.data.title], applied, failed: [failed.ok, failed.error?.code, failed.error?.op],
      first, second, settled, ids, catalog: [m.Catalog.default.name, m.Catalog.default.components.includes('Heading')], error,
      broken: [broken.valid, broken.issues.map((i) => i.code)],
    };
  }, (r) => {
    assert.equal(r.bad[0], false);
    assert.ok(r.bad[1].includes('invalid_id') && r.bad[1].includes('no_root'), String(r.bad[1]));
    assert.deepEqual(r.good, [true, []]);
    assert.ok(r.same, 'the JSON text of a document gives what the value gives');
    assert.deepEqual(r.patched, [[0], 'Bye', 'Hi <there>'], 'patch gives a new document and leaves its input as it was');
    assert.deepEqual(r.applied, { ok: true, document: { a: [1, 2] } });
    assert.deepEqual(r.failed, [false, 'test_failed', 0]);
    assert.deepEqual([r.first.applied, r.first.held, r.first.refused], [[], [0], []], JSON.stringify(r.first));
    assert.deepEqual([r.second.applied.sort(), r.second.held, r.second.refused], [[0, 1], [], []], JSON.stringify(r.second));
    assert.deepEqual(r.settled, { refused: [] });
    assert.deepEqual(r.ids, ['root', 'more']);
    assert.deepEqual(r.catalog, ['blog@1', true]);
    assert.deepEqual(r.broken, [false, ['invalid_json']]);
    assert.deepEqual(r.error, { instance: true, name: 'SurfacesError', code: 'invalid_catalog', path: '/bad' });
  }],
  stream: [(m) => {
    const stream = new m.Stream('markdown');
    let doc = m.applyChanges(undefined, stream.push('Hello **wor'));
    const open = doc.blocks[0];
    doc = m.applyChanges(doc, stream.push(new TextEncoder().encode('ld**\n\n```surface {"id":"s"}\n')));
    const { changes, document } = stream.finish();
    doc = m.applyChanges(doc, changes);
    stream.free();
    return { healed: m.heal('Hello **wor'), open: [open.text, open.healed], kinds: doc.blocks.map((b) => b.kind), same: JSON.stringify(doc) === JSON.stringify(document), first: doc.blocks[0].text };
  }, (r) => {
    assert.equal(r.healed, 'Hello **wor**');
    assert.deepEqual(r.open, ['Hello **wor', 'Hello **wor**']);
    assert.deepEqual(r.kinds, ['prose', 'surface']);
    assert.equal(r.first, 'Hello **world**\n');
    assert.ok(r.same, 'applyChanges over every change gives the final document');
  }],
  render: [(m, surface) => {
    const out = m.renderSurface(surface);
    const bad = m.renderSurface({ id: 's', components: [{ id: 'Bad', component: 'Stack' }] });
    return { ok: out.ok, html: out.html, issues: out.issues, bad: [bad.ok, bad.html, bad.issues.some((i) => i.severity === 'error')] };
  }, (r) => {
    assert.equal(r.ok, true);
    assert.match(r.html, /^<div data-ch-surface="hello"[\s\S]*Hi &lt;there&gt;/);
    assert.deepEqual(r.issues, []);
    assert.deepEqual(r.bad, [false, null, true]);
  }],
};
const browserOnly = {
  // A Build session's preview in a sandboxed frame (no scripts run there),
  // and click-to-scope by the point: previewTargetAt in a real layout.
  build: [async (m) => {
    const page = { sections: [
      { id: 'sec_a', kind: 'surface', catalog: 'blog@1', components: [{ id: 'root', component: 'Stack', children: ['title', 'cta'] }, { id: 'title', component: 'Heading', props: { text: 'Pick me', level: 9 } }, { id: 'cta', component: 'Button', props: { label: 'Go', href: '/go' } }], data: {} },
      { id: 'sec_b', kind: 'surface', catalog: 'blog@1', components: [{ id: 'root', component: 'Text', props: { text: 'Second section' } }], data: {} },
    ] };
    const session = new m.BuildSession({ document: page });
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-same-origin');
    frame.style.cssText = 'position:absolute;left:40px;top:30px;width:600px;height:400px;border:0';
    const loaded = new Promise((r) => (frame.onload = r));
    frame.srcdoc = `<!doctype html><body style="margin:0">${session.previewHtml()}</body>`;
    document.body.append(frame);
    await loaded;
    const doc = frame.contentDocument;
    const at = (selector) => {
      const r = doc.querySelector(selector).getBoundingClientRect();
      return m.previewTargetAt(doc, r.left + r.width / 2, r.top + r.height / 2);
    };
    const outer = frame.getBoundingClientRect();
    return {
      title: at('h2'), cta: at('[data-component-id="cta"]'), second: at('[data-section-id="sec_b"] p'),
      // The invalid level's placeholder, after the heading: it answers the heading,
      // whose id is on one element only.
      flagged: at('[data-ch-placeholder="invalid_prop"]'), titles: doc.querySelectorAll('[data-component-id="title"]').length,
      below: m.previewTargetAt(doc, 5, 399), frameOffset: [outer.left, outer.top],
      one: session.previewHtml('sec_b').includes('Second section') && !session.previewHtml('sec_b').includes('Pick me'),
    };
  }, (r) => {
    assert.deepEqual(r.title, { sectionId: 'sec_a', componentId: 'title' });
    assert.deepEqual(r.cta, { sectionId: 'sec_a', componentId: 'cta' });
    assert.deepEqual(r.flagged, { sectionId: 'sec_a', componentId: 'title' });
    assert.equal(r.titles, 1);
    assert.deepEqual(r.second, { sectionId: 'sec_b', componentId: 'root' });
    assert.equal(r.below, null, 'below the last section: nothing');
    assert.deepEqual(r.frameOffset, [40, 30]);
    assert.equal(r.one, true);
  }],
  morph: [(m) => {
    const target = document.createElement('div');
    target.innerHTML = '<p id="a">one</p><p id="b">two</p>';
    const b = target.querySelector('#b');
    m.morph(target, '<p id="b">two!</p><p id="a">one</p>');
    return [target.innerHTML, target.querySelector('#b') === b];
  }, ([html, reused]) => { assert.equal(html, '<p id="b">two!</p><p id="a">one</p>'); assert.equal(reused, true); }],
};
// One call per entry made before init(): it throws SurfacesError not_initialized.
const early = {
  validator: (m, surface) => m.validate(surface),
  stream: (m) => new m.Stream('markdown'),
  render: (m, surface) => m.renderSurface(surface),
  morph: (m) => m.morph(document.createElement('div'), '<p>x</p>'),
  build: (m) => new m.BuildSession(),
};
// In the page or in Node: what the early call threw, then init() and the call again.
async function beforeInit(m, surface, call) {
  let thrown = null;
  try {
    call(m, surface);
  } catch (e) {
    thrown = { instance: e instanceof m.SurfacesError, name: e.name, code: e.code, path: e.path };
  }
  await m.default();
  call(m, surface);
  return thrown;
}
const NOT_INITIALIZED = { instance: true, name: 'SurfacesError', code: 'not_initialized', path: '' };

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
  const names = entries.map(([name]) => name);
  for (const name of MODULES) assert.ok(names.includes(name), `./${name} is exported`);
  for (const [name, file] of entries) {
    assert.equal(pkg.exports[`./${name}`].types, `./${name}.d.ts`);
    assert.equal(file, `./${name}.js`);
  }
});

test('package.json exports ./studio.wasm and ./morph.wasm: files WebAssembly.validate accepts', () => {
  assert.deepEqual(wasmExports.map(([k]) => k).sort(), ['./morph.wasm', './studio.wasm']);
  for (const [key, file] of wasmExports) {
    const part = key.slice(2, -'.wasm'.length);
    if (held(part)) continue; // not in the package while held back
    assert.equal(typeof file, 'string', key);
    assert.ok(WebAssembly.validate(readFileSync(join(root, 'npm', file))), `${key} -> ${file}`);
  }
});

test('./runtime is the published-page runtime: its manifest names the hashed files beside it', { skip: held('runtime') }, () => {
  const manifest = join(root, 'npm', pkg.exports['./runtime']);
  const names = JSON.parse(readFileSync(manifest, 'utf8'));
  assert.deepEqual(Object.keys(names).sort(), ['surface.js', 'surface.nocalls.wasm', 'surface.wasm']);
  const dir = join(manifest, '..');
  const loader = readFileSync(join(dir, names['surface.js']), 'utf8');
  assert.match(names['surface.wasm'], /^surface\.[0-9a-f]{10}\.wasm$/);
  assert.match(names['surface.nocalls.wasm'], /^surface\.nocalls\.[0-9a-f]{10}\.wasm$/);
  for (const module of ['surface.wasm', 'surface.nocalls.wasm']) {
    assert.ok(loader.includes(`"${names[module]}"`), `the loader loads the hashed ${module}`);
    assert.ok(WebAssembly.validate(readFileSync(join(dir, names[module]))));
  }
  assert.equal(pkg.exports['./runtime/*'], './dist/site/*');
});

// Node shares one module instance per file for the whole run, so this comes
// before any test that calls init() in Node. ./morph needs a DOM: page only.
test('before init(), a call throws SurfacesError not_initialized, in Node', { skip: held('studio') }, async () => {
  for (const name of ['validator', 'stream', 'render']) {
    const mod = await import(join(root, 'npm', `${name}.js`));
    if (name !== 'validator') {
      // The three share one wasm: once ./validator's init() ran, they are all loaded.
      early[name](mod, SURFACE);
      continue;
    }
    assert.deepEqual(await beforeInit(mod, SURFACE, early[name]), NOT_INITIALIZED, name);
  }
});

for (const [name, file] of entries) {
  if (!calls[name] && !browserOnly[name]) continue; // an entry this file has no call for

  if (calls[name]) {
    test(`${name}: init() then the named exports, values in and out, in Node`, { skip: held('studio') }, async () => {
      const mod = await import(join(root, 'npm', file));
      await mod.default();
      await mod.default(); // a second call reuses the first
      const [call, check] = calls[name];
      check(call(mod, SURFACE));
    });
  }

  test(`${name}: not_initialized before init(), then the named exports, in Chromium under the page CSP`, { skip: held(name === 'morph' ? 'morph' : 'studio') }, async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.origin}/blank.html`);
    const url = `${site.origin}/npm/${file.slice(2)}`;
    // One expression with both functions as source text, compiled by the
    // debugging protocol (the page CSP allows no eval of its own).
    const thrown = await page.evaluate(`import(${JSON.stringify(url)}).then((m) => (${beforeInit})(m, ${JSON.stringify(SURFACE)}, ${early[name]}))`);
    const mod = await page.evaluateHandle((url) => import(url), url);
    assert.deepEqual(thrown, NOT_INITIALIZED);
    const [call, check] = calls[name] ?? browserOnly[name];
    check(await mod.evaluate(call, SURFACE));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('./validator, ./stream and ./render share one wasm module, fetched once', { skip: held('studio') }, async () => {
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

test('./build: an EventSource or a WebSocket lost in the middle of a run rejects connect with source_failed, after reading what came', { skip: held('studio') }, async () => {
  const { recordedSession } = await import(join(root, 'demo/session.mjs'));
  const { WebSocketServer } = await import('ws');
  const { events } = await recordedSession();
  const half = Math.floor(events.length / 2);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket) => {
    for (const e of events.slice(0, half)) socket.send(JSON.stringify(e));
    socket.close();
  });
  await new Promise((r) => wss.once('listening', r));
  const page = await browser.newPage();
  await page.goto(`${site.origin}/blank.html`);
  const got = await page.evaluate(async ([base, ws, half]) => {
    const m = await import(`${base}/npm/build.js`);
    await m.default();
    const read = async (source) => {
      const updates = [];
      const session = new m.BuildSession({ onUpdate: (u) => updates.push(u) });
      const failed = await session.connect(source).then(() => null, (e) => [e.constructor.name, e.code, e.path]);
      return { failed, updates: updates.length, run: updates.at(-1)?.status.run };
    };
    const events = new EventSource(`${base}/session?delay=0&to=${half}`);
    return { fromEvents: await read(events), closed: events.readyState, fromSocket: await read(new WebSocket(ws)) };
  }, [site.origin, `ws://127.0.0.1:${wss.address().port}`, half]);
  wss.close();
  for (const via of ['fromEvents', 'fromSocket']) {
    assert.deepEqual(got[via].failed, ['SurfacesError', 'source_failed', '/source'], via);
    assert.equal(got[via].updates, half, `${via}: every event that came was read`);
    assert.equal(got[via].run, 'running', via);
  }
  assert.equal(got.closed, 2, 'the EventSource is closed, not reconnected');
  await page.close();
});

test('./build: BuildSession.connect reads an EventSource and a WebSocket in Chromium to the server\'s draft', { skip: held('studio') }, async () => {
  const { recordedSession } = await import(join(root, 'demo/session.mjs'));
  const { WebSocketServer } = await import('ws');
  const { events, document: doc } = await recordedSession();
  // A socket server sending one JSON event per message, then closing.
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket) => {
    for (const e of events) socket.send(JSON.stringify(e));
    socket.close();
  });
  await new Promise((r) => wss.once('listening', r));
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.origin}/blank.html`);
  const got = await page.evaluate(async ([base, ws]) => {
    const m = await import(`${base}/npm/build.js`);
    await m.default();
    const read = async (source) => {
      const updates = [];
      const session = new m.BuildSession({ onUpdate: (u) => updates.push(u) });
      await session.connect(source);
      return { document: session.document, updates: updates.length, errors: updates.flatMap((u) => u.errors), run: updates.at(-1)?.status.run };
    };
    const events = new EventSource(`${base}/session?delay=0`);
    const fromEvents = await read(events);
    return { fromEvents, closed: events.readyState, fromSocket: await read(new WebSocket(ws)) };
  }, [site.origin, `ws://127.0.0.1:${wss.address().port}`]);
  wss.close();
  for (const via of ['fromEvents', 'fromSocket']) {
    assert.deepEqual(got[via].document, doc, via);
    assert.equal(got[via].updates, events.length, via);
    assert.deepEqual(got[via].errors, [], via);
    assert.equal(got[via].run, 'finished', via);
  }
  assert.equal(got.closed, 2, 'the EventSource is closed at the end of the stream, not reconnected');
  assert.deepEqual(errors, []);
  await page.close();
});
