// The preview morph against idiomorph and morphdom, side by side in one
// headless Chromium run: idiomorph's three perf pairs, and a 30-section page
// where one section changes. Prints medians (ms) and ratios; a benchmark, not
// a test: nothing here fails on speed.
//
// Needs: the built morph (scripts/build puts it in npm/dist/morph; or set
// MORPH_DIST to a wasm-bindgen --target web output holding morph.js and
// morph_bg.wasm), node_modules with playwright-core, idiomorph and morphdom,
// and /usr/bin/chromium (or CHROMIUM). It serves everything itself on
// 127.0.0.1. Run: node crates/morph/bench/run.mjs [iterations]
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const pairs = join(root, 'tests/conformance/idiomorph-perf');
const dist = process.env.MORPH_DIST ?? join(root, 'npm/dist/morph');
const iterations = Number(process.argv[2] ?? 25);

const files = {
  '/idiomorph.js': join(root, 'node_modules/idiomorph/dist/idiomorph.esm.js'),
  '/morphdom.js': join(root, 'node_modules/morphdom/dist/morphdom-esm.js'),
  '/morph.js': join(dist, 'morph.js'),
  '/morph_bg.wasm': join(dist, 'morph_bg.wasm'),
  '/bench.js': join(here, 'bench.js'),
};
for (const name of ['checkboxes', 'html5', 'table']) {
  for (const side of ['old', 'new']) files[`/${name}.${side}.html`] = join(pairs, `${name}.${side}.html`);
}
for (const [url, path] of Object.entries(files)) {
  if (!existsSync(path)) {
    console.error(`bench: missing ${path} (for ${url}); run scripts/build and npm install first`);
    process.exit(1);
  }
}
const types = { js: 'text/javascript', wasm: 'application/wasm', html: 'text/html' };
const server = createServer((req, res) => {
  const url = req.url === '/' ? '/index.html' : req.url;
  if (url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><title>morph bench</title><body><script type="module" src="/bench.js"></script>');
    return;
  }
  const path = files[url];
  if (!path) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[url.split('.').pop()] ?? 'application/octet-stream' });
  res.end(readFileSync(path));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(base);
  await page.waitForFunction(() => window.benchReady === true);
  const rows = await page.evaluate((n) => window.runBench(n), iterations);
  const libs = ['morph', 'idiomorph', 'morphdom'];
  console.log(`median ms over ${iterations} runs (Chromium ${browser.version()}); ratio = morph / faster peer`);
  console.log(['case', ...libs, 'ratio'].map((c, i) => (i ? c.padStart(10) : c.padEnd(44))).join(''));
  for (const row of rows) {
    const best = Math.min(row.idiomorph, row.morphdom);
    const cells = libs.map((l) => row[l].toFixed(3).padStart(10));
    console.log(row.name.padEnd(44) + cells.join('') + (row.morph / best).toFixed(2).padStart(10));
  }
} finally {
  await browser.close();
  server.close();
}
