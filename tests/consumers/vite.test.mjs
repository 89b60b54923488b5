// The packed package in a Vite app (the repository's vite, as a consumer's
// dev dependency): index.html and main.js import ./validator, ./render and
// ./morph by package name and call init() with no argument, so each entry
// finds its wasm through `new URL(..., import.meta.url)`. `vite build`, served
// under the page CSP, and the dev server (with its dependency pre-bundling,
// no optimizeDeps option) are each opened in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { build, createServer } from 'vite';
import { launch, PAGE_CSP } from '../browser/e2e/harness.mjs';
import { consumer, openResult, serve, PACKAGE } from './setup.mjs';
import { pageScript, pageHtml, EXPECTED } from './app.mjs';

const MAIN = pageScript(`
import init, { validate } from '${PACKAGE}/validator';
import { renderSurface } from '${PACKAGE}/render';
import initMorph, { morph } from '${PACKAGE}/morph';
const ready = Promise.all([init(), initMorph()]);
`);
const CSP = PAGE_CSP; // the documented policy

let app, browser;
before(async () => {
  app = await consumer('vite', { tools: ['vite'], files: { 'index.html': pageHtml('/main.js'), 'main.js': MAIN } });
  browser = await launch();
});
after(async () => {
  try {
    await browser?.close();
  } finally {
    app?.remove();
  }
});

const assertPage = ({ result, errors, failed, consoleMessages }) => {
  assert.deepEqual(result, EXPECTED, JSON.stringify({ result, consoleMessages }));
  assert.deepEqual(errors, [], 'no page errors');
  assert.deepEqual(failed, [], 'no failed requests');
  assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'warning'), []);
};

test('vite build: the two wasm files are emitted as assets; the built page renders and morphs under the page CSP', async () => {
  await build({ root: app.dir, configFile: false, logLevel: 'silent' });
  const assets = readdirSync(app.path('dist/assets'));
  assert.ok(assets.some((f) => /^studio_bg-.*\.wasm$/.test(f)), String(assets));
  assert.ok(assets.some((f) => /^morph_bg-.*\.wasm$/.test(f)), String(assets));
  assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 2, `one file per wasm: ${assets}`);
  const site = await serve(app.path('dist'), { headers: { 'content-security-policy': CSP } });
  try {
    const opened = await openResult(browser, `${site.origin}/`);
    assertPage(opened);
    // (Vite's content hash is base64url: it may itself hold a `-`.)
    assert.deepEqual(site.requests.filter((p) => p.endsWith('.wasm')).map((p) => p.replace(/_bg-[^/]+\.wasm$/, '_bg.wasm')).sort(),
      ['/assets/morph_bg.wasm', '/assets/studio_bg.wasm'], 'each wasm fetched once');
    await opened.page.close();
  } finally {
    await site.close();
  }
});

test('vite dev server (createServer, dependency pre-bundling on): the page renders and morphs', async () => {
  const server = await createServer({ root: app.dir, configFile: false, logLevel: 'silent', server: { host: '127.0.0.1', port: 0, strictPort: false } });
  try {
    await server.listen();
    const url = server.resolvedUrls.local[0];
    const opened = await openResult(browser, url);
    assertPage(opened);
    const scripts = await opened.page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    assert.ok(scripts.some((p) => p.includes('/.vite/deps/')), `the entries were pre-bundled: ${scripts.join(' ')}`);
    assert.ok(scripts.some((p) => p.endsWith('/studio_bg.wasm')) && scripts.some((p) => p.endsWith('/morph_bg.wasm')), scripts.join(' '));
    await opened.page.close();
  } finally {
    await server.close();
  }
});
