// The packed package bundled by esbuild (the repository's, through its JS
// API) as a consumer would: `--bundle`, `.wasm` files as URLs
// (`loader: {'.wasm': 'file'}`), the URLs of @cloudhal/surfaces/studio.wasm
// and /morph.wasm passed to init(); the outdir served under the page CSP and
// opened in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { launch, PAGE_CSP } from '../browser/e2e/harness.mjs';
import { consumer, openResult, serve, PACKAGE } from './setup.mjs';
import { pageScript, pageHtml, EXPECTED } from './app.mjs';

const MAIN = pageScript(`
import init, { validate } from '${PACKAGE}/validator';
import { renderSurface } from '${PACKAGE}/render';
import initMorph, { morph } from '${PACKAGE}/morph';
import wasmUrl from '${PACKAGE}/studio.wasm';
import morphUrl from '${PACKAGE}/morph.wasm';
const ready = Promise.all([init(wasmUrl), initMorph(morphUrl)]);
`);
const CSP = PAGE_CSP; // the documented policy

let app, browser;
before(async () => {
  app = await consumer('esbuild', { tools: ['esbuild'], files: { 'src/main.js': MAIN } });
  browser = await launch();
});
after(async () => {
  try {
    await browser?.close();
  } finally {
    app?.remove();
  }
});

test('esbuild --bundle with the .wasm file loader: the page renders and morphs from the imported wasm URLs', async () => {
  const out = app.path('public');
  const result = await build({
    absWorkingDir: app.dir, entryPoints: ['src/main.js'], bundle: true, format: 'esm', platform: 'browser', target: 'es2022',
    outdir: out, loader: { '.wasm': 'file' }, assetNames: '[name]-[hash]', minify: true, logLevel: 'silent', metafile: true,
  });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings.map((w) => w.text), []);
  const files = readdirSync(out);
  assert.ok(files.some((f) => /^studio_bg-\w+\.wasm$/.test(f)) && files.some((f) => /^morph_bg-\w+\.wasm$/.test(f)), String(files));
  assert.ok(Object.keys(result.metafile.inputs).every((f) => !f.startsWith('..')), 'everything came from the consumer');
  writeFileSync(app.path('public/index.html'), pageHtml('/main.js'));
  const site = await serve(out, { headers: { 'content-security-policy': CSP } });
  try {
    const { page, result: shown, errors, failed, consoleMessages } = await openResult(browser, `${site.origin}/`);
    assert.deepEqual(shown, EXPECTED, JSON.stringify({ shown, consoleMessages }));
    assert.deepEqual(errors, []);
    assert.deepEqual(failed, []);
    assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'warning'), []);
    const wasm = site.requests.filter((p) => p.endsWith('.wasm'));
    assert.equal(wasm.length, 2, `each wasm fetched once: ${wasm}`);
    await page.close();
  } finally {
    await site.close();
  }
});
