// The preview morph against idiomorph and morphdom, side by side in one
// headless Chromium run: idiomorph's three perf pairs, and a 30-section page
// where one section changes. Prints a markdown section with medians (ms) and
// ratios; a benchmark, not a test: nothing here fails on speed.
//
// Needs: the morph as scripts/build made it (where dist/artifacts.json says:
// npm/dist/morph/, or target/unshipped/ while held back by its size budget),
// node_modules with playwright-core, idiomorph and morphdom, and
// /usr/bin/chromium (or CHROMIUM). It serves everything itself on
// 127.0.0.1. Run: node crates/morph/bench/run.mjs [iterations]
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { artifacts } from '../../../scripts/artifacts.mjs';
import { table, version } from '../../../scripts/report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const pairs = join(root, 'tests/conformance/idiomorph-perf');
const dist = artifacts().morph.dir;
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
// Cross-origin isolated, so that performance.now() counts in 5 µs steps,
// not the 100 µs it is coarsened to otherwise: the one-section cases take
// well under a millisecond.
const isolated = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const server = createServer((req, res) => {
  const url = req.url === '/' ? '/index.html' : req.url;
  if (url === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html', ...isolated });
    res.end('<!doctype html><meta charset="utf-8"><title>morph bench</title><body><script type="module" src="/bench.js"></script>');
    return;
  }
  const path = files[url];
  if (!path) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[url.split('.').pop()] ?? 'application/octet-stream', ...isolated });
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
  const scaling = await page.evaluate((n) => window.runScaling(n), iterations);
  const libs = ['morph', 'idiomorph', 'morphdom'];
  // Per case and library: the median at each size, and the largest ratio
  // of one size's time to the size before (linear is 2).
  // Where the browser's parse was timed too, the morph less it: its own work.
  for (const { rows: times } of scaling) for (const row of times) if ('parse' in row) row.own = row.morph - row.parse;
  const names = { parse: 'the parse alone', own: 'the morph less the parse' };
  const scaled = scaling.flatMap(({ name, sizes, rows: times }) => [...libs, 'parse', 'own'].filter((l) => l in times[0]).map((l) => {
    const t = times.map((row) => row[l]);
    const worst = Math.max(...t.slice(1).map((x, i) => x / t[i]));
    return [name, names[l] ?? l, ...sizes.map((size, i) => `${size}: ${t[i].toFixed(2)}`), worst.toFixed(2)];
  }));
  console.log(`## Preview morph

\`crates/morph/bench/run.mjs\`: Chromium ${browser.version()}, side by side with
idiomorph ${version('idiomorph')} and morphdom ${version('morphdom')}, libraries interleaved;
medians (ms) over ${iterations} rounds. Ratio = morph / the faster peer (below 1:
morph is faster). The cases: \`crates/morph/bench/README.md\`.

${table(['case', ...libs.map((l) => `${l} (ms)`), 'ratio'], rows.map((row) =>
    [row.name, ...libs.map((l) => row[l].toFixed(3)), (row.morph / Math.min(row.idiomorph, row.morphdom)).toFixed(2)]))}

What doubling the input costs (size: median ms; the largest ratio of a
size's time to the size before it, linear at 2; the goal is at most about
2.2; nesting is timed for the morph and for the browser's own parse of the
new HTML, which the morph's time includes, over at most 11 rounds):

${table(['input', 'library', 'size 1', 'size 2', 'size 3', 'size 4', 'largest cost of a doubling'], scaled)}`);
} finally {
  await browser.close();
  server.close();
}
