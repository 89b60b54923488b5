// The packed package in a Cloudflare Worker, run by workerd through
// miniflare (the repository's). The Worker is bundled as Wrangler does: esbuild,
// format esm, a `.wasm` import left as a module of its own, which workerd
// gives the Worker as a compiled WebAssembly.Module (a CompiledWasm module
// rule). import.meta.url is undefined there: importing the entries must not
// need it, and init() without its module must say how to pass it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { consumer, PACKAGE } from './setup.mjs';

const WORKER = `
import init, { validate, SurfacesError } from '${PACKAGE}/validator';
import { renderSurface } from '${PACKAGE}/render';
import wasm from '${PACKAGE}/studio.wasm';

const caught = async (f) => {
  try {
    await f();
    return { threw: false };
  } catch (e) {
    return { threw: true, surfacesError: e instanceof SurfacesError, code: e.code, path: e.path, message: e.message };
  }
};

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/imported') {
      // The entries imported at the top of the module; nothing loaded yet.
      return Response.json({ metaUrl: typeof import.meta.url, before: await caught(() => validate({ components: [] })) });
    }
    if (pathname === '/bare-init') return Response.json(await caught(() => init()));
    await init(wasm);
    const surface = await request.json();
    return Response.json({ module: wasm instanceof WebAssembly.Module, verdict: validate(surface), rendered: renderSurface(surface, { locale: 'de-DE' }) });
  },
};
`;

// One Worker for the file: the tests run in order, the ones before init(wasm) first.
let app, mf, origin;
before(async () => {
  app = await consumer('workerd', { tools: ['esbuild', 'miniflare'], files: { 'src/worker.js': WORKER } });
  const out = app.path('dist');
  mkdirSync(out, { recursive: true });
  // Wrangler's way with a .wasm import: an external module of its own, copied beside the bundle.
  const wasmModules = {
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, async (args) => {
        if (args.pluginData?.resolving) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { resolving: true } });
        if (found.errors.length) return { errors: found.errors };
        copyFileSync(found.path, join(out, basename(found.path)));
        return { path: `./${basename(found.path)}`, external: true };
      });
    },
  };
  await build({
    absWorkingDir: app.dir, entryPoints: ['src/worker.js'], outfile: join(out, 'worker.js'), bundle: true, format: 'esm',
    platform: 'neutral', target: 'es2022', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'],
    plugins: [wasmModules], logLevel: 'silent',
  });
  mf = new Miniflare({
    modules: true, scriptPath: join(out, 'worker.js'), modulesRoot: out, compatibilityDate: '2025-01-01',
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
  });
  origin = await mf.ready;
});
after(async () => {
  try {
    await mf?.dispose();
  } finally {
    app?.remove();
  }
});

test('the bundle keeps import.meta.url and imports the wasm as a module of its own', () => {
  const bundle = readFileSync(app.path('dist/worker.js'), 'utf8');
  assert.match(bundle, /import\s+\w+\s+from\s*"\.\/studio_bg\.wasm"/);
  assert.ok(bundle.includes('import.meta.url'), 'the entries\' wasm URL is still in the bundle, made only when init() gets no input');
});

test('importing the entries in the Worker does not crash (import.meta.url is undefined); calls before init throw not_initialized', async () => {
  const response = await fetch(new URL('/imported', origin));
  assert.equal(response.status, 200, await response.clone().text());
  const { metaUrl, before: early } = await response.json();
  assert.equal(metaUrl, 'undefined');
  assert.deepEqual({ ...early, message: undefined }, { threw: true, surfacesError: true, code: 'not_initialized', path: '', message: undefined });
});

test('init() without its module rejects with SurfacesError init_failed, and the message names the fix', async () => {
  const response = await fetch(new URL('/bare-init', origin));
  const failure = await response.json();
  assert.equal(failure.threw, true);
  assert.equal(failure.surfacesError, true, JSON.stringify(failure));
  assert.equal(failure.code, 'init_failed');
  assert.equal(failure.path, '');
  assert.match(failure.message, /import wasm from '@cloudhal\/surfaces\/studio\.wasm'/);
  assert.match(failure.message, /init\(wasm\)/);
});

test('init(wasm) with the imported WebAssembly.Module, then validate and render the request\'s surface', async () => {
  const surface = {
    id: 'edge', kind: 'surface', catalog: 'blog@1',
    components: [
      { id: 'root', component: 'Stack', children: ['title', 'price'] },
      { id: 'title', component: 'Heading', props: { text: { path: '/title' } } },
      { id: 'price', component: 'Text', props: { text: { call: 'formatCurrency', args: { value: { path: '/price' }, currency: 'EUR' } } } },
    ],
    data: { title: 'From the edge', price: 9 },
  };
  const response = await fetch(origin, { method: 'POST', body: JSON.stringify(surface), headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type'), /application\/json/);
  const { module, verdict, rendered } = await response.json();
  assert.equal(module, true);
  assert.deepEqual(verdict, { valid: true, issues: [] });
  assert.equal(rendered.ok, true);
  assert.match(rendered.html, /^<div data-ch-surface="edge" lang="de-DE">/);
  assert.match(rendered.html, /<h2 data-ch-text="\/title">From the edge<\/h2>/);
  assert.match(rendered.html, />9,00\u00a0€</, 'workerd\'s Intl formats the currency');
  // A broken surface: ok false, html null, the issues.
  const broken = await (await fetch(origin, { method: 'POST', body: JSON.stringify({ id: 'x', components: [{ id: 'Bad', component: 'Stack' }] }) })).json();
  assert.equal(broken.verdict.valid, false);
  assert.equal(broken.rendered.ok, false);
  assert.equal(broken.rendered.html, null);
});
