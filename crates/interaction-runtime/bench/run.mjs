// The interaction runtime against petite-vue, side by side in one headless
// Chromium run: a page of 30 surfaces of 200 components each (text and
// formatted bindings, visibility, a slider, radios, a button), wired to
// equivalent markup for each. Prints a markdown section with medians (ms)
// and ratios; a benchmark, not a test: nothing here fails on speed.
//
// - hydrate: from importing the runtime (already on the page) to every
//   surface hydrated (fetch, compile, hydrate for ours; parse and mount for
//   petite-vue).
// - update: from an `input` event on one slider to every binding that reads
//   it updated (awaiting one microtask, as petite-vue batches DOM updates),
//   the mean of ten in a row: the first forty of a page, its code cold
//   (the figure moves by a third from run to run); then, warm, the mean of
//   the next 200; then, settled, the mean of 200 more after the page has
//   been idle for a second (V8 compiles the hot wasm and JavaScript with
//   its optimising tier in the background: what the warm row still pays).
// - download: what the page fetches for it, gzip -9 (ours: the loader and
//   its wasm, for a page whose surfaces hold a call, as this one does, and
//   for one whose surfaces hold none; petite-vue: the ES module the page
//   imports, the same for both).
//
// petite-vue needs 'unsafe-eval' (it compiles expressions with new
// Function); ours runs under script-src 'self' 'wasm-unsafe-eval'. The pages
// here are served without a CSP so both run.
//
// Needs: the runtime as scripts/build made it (where dist/artifacts.json
// says: dist/site/, or target/unshipped/site/ while held back by its size
// budget), node_modules with playwright-core and petite-vue, and
// /usr/bin/chromium (or CHROMIUM). Run: node crates/interaction-runtime/bench/run.mjs [iterations]
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, startServer, root, artifacts } from '../../../tests/browser/e2e/harness.mjs';
import { table, version } from '../../../scripts/report.mjs';

const site = artifacts().runtime.dir;
const gzipped = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(resolve(root, f)), { level: 9 }).length, 0);
const download = {
  ours: gzipped(artifacts().runtime.files),
  nocalls: gzipped(artifacts()['runtime-nocalls'].files),
  vue: gzipped(['node_modules/petite-vue/dist/petite-vue.es.js']),
};
const manifest = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8'));
const iterations = Number(process.argv[2] ?? 15);
const SURFACES = 30;

// One surface, 200 components: 1 slider, 2 radios, 1 button, 60 plain
// bindings, 60 formatted (Intl) bindings, 40 conditional parts, 36 static.
function oursSurface(s) {
  const parts = [`<div data-ch-surface="s${s}"><script type="application/json" data-ch-state>{"seats":3,"billing":"monthly","price":9}</script>`];
  parts.push(`<input id="slider-${s}" type="range" min="1" max="100" value="3" data-ch-model="/seats">`);
  parts.push(`<label><input type="radio" name="b${s}" value="monthly" data-ch-model="/billing" checked>M</label>`);
  parts.push(`<label><input type="radio" name="b${s}" value="yearly" data-ch-model="/billing">Y</label>`);
  parts.push(`<button type="button" data-ch-action='{"action":"increment","path":"/seats"}'>+</button>`);
  for (let i = 0; i < 60; i++) parts.push(`<span class="seats" data-ch-text="/seats">3</span>`);
  const fmt = `{"call":"formatCurrency","args":{"value":{"path":"/price"},"currency":"EUR","locale":"en-US"}}`;
  for (let i = 0; i < 60; i++) parts.push(`<span data-ch-text='${fmt}'>€9.00</span>`);
  for (let i = 0; i < 40; i++) parts.push(`<div style="display:contents" data-ch-visible='{"gt":[{"path":"/seats"},${i + 3}]}' hidden>more than ${i + 3}</div>`);
  for (let i = 0; i < 36; i++) parts.push(`<p>static ${i}</p>`);
  parts.push('</div>');
  return parts.join('');
}

function vueSurface(s) {
  const parts = [`<div v-scope="{seats:3,billing:'monthly',price:9}">`];
  parts.push(`<input id="slider-${s}" type="range" min="1" max="100" value="3" v-model.number="seats">`);
  parts.push(`<label><input type="radio" name="b${s}" value="monthly" v-model="billing" checked>M</label>`);
  parts.push(`<label><input type="radio" name="b${s}" value="yearly" v-model="billing">Y</label>`);
  parts.push(`<button type="button" @click="seats++">+</button>`);
  for (let i = 0; i < 60; i++) parts.push(`<span class="seats" v-text="seats">3</span>`);
  for (let i = 0; i < 60; i++) parts.push(`<span v-text="fmt(price)">€9.00</span>`);
  for (let i = 0; i < 40; i++) parts.push(`<div v-if="seats > ${i + 3}">more than ${i + 3}</div>`);
  for (let i = 0; i < 36; i++) parts.push(`<p>static ${i}</p>`);
  parts.push('</div>');
  return parts.join('');
}

const page = (body, script) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>[data-ch-visible][hidden]{display:none!important}</style></head><body>${body}<script type="module">${script}</script></body></html>`;

// Both pages record when the first surface (hydrated last by ours, mounted
// with the rest by petite-vue) shows the state, and time one slider input.
const common = `
const first = document.querySelector('.seats');
first.textContent = 'server';
const done = new Promise((r) => new MutationObserver((_, o) => { if (first.textContent === '3') { o.disconnect(); r(); } }).observe(first, { childList: true, characterData: true, subtree: true }));
// An update takes a few timer steps (performance.now() moves by 0.1 ms
// on a page that is not cross-origin isolated), so updates are timed ten
// in a row and each batch gives its mean.
window.bench = { async update(batches) {
  const slider = document.getElementById('slider-15');
  const target = slider.parentElement.querySelector('.seats');
  const times = [];
  for (let b = 0, i = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let k = 0; k < 10; k++, i++) {
      const v = String(10 + (i % 50));
      slider.value = v;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await Promise.resolve();
      if (target.textContent !== v) throw new Error('not updated: ' + target.textContent + ' != ' + v);
    }
    times.push((performance.now() - t0) / 10);
  }
  return times;
}, async warm(n) {
  // After the timed batches: the mean of n more in a row, the code warm.
  const slider = document.getElementById('slider-15');
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    slider.value = String(60 + (i % 40));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();
  }
  return (performance.now() - t0) / n;
} };
const t0 = performance.now();`;

const oursPage = page(
  Array.from({ length: SURFACES }, (_, s) => oursSurface(s)).join('\n'),
  `${common}
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = (...args) => instantiate(...args).then((r) => ((window.loaded = performance.now() - t0), r));
import('/_cloudhal/${manifest['surface.js']}');
await done;
window.hydrated = performance.now() - t0;`,
);
const vuePage = page(
  Array.from({ length: SURFACES }, (_, s) => vueSurface(s)).join('\n'),
  `${common}
const { createApp } = await import('/node_modules/petite-vue/dist/petite-vue.es.js');
createApp({ fmt: (v) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(v) }).mount();
await done;
window.hydrated = performance.now() - t0;`,
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const server = await startServer({
  mounts: { '/_cloudhal/': relative(root, site), '/node_modules/': 'node_modules' },
  csp: () => null,
  pages: { '/ours.html': oursPage, '/vue.html': vuePage },
});
const browser = await launch();
const browserVersion = browser.version();
const results = {};
try {
  for (const [name, path] of [['ours', '/ours.html'], ['petite-vue', '/vue.html']]) {
    const hydrate = [];
    const update = [];
    const loaded = [];
    const warm = [];
    const settled = [];
    for (let i = 0; i < iterations; i++) {
      const p = await browser.newPage();
      const errors = [];
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto(server.origin + path);
      await p.waitForFunction(() => typeof window.hydrated === 'number', null, { timeout: 60000 });
      if (errors.length) throw new Error(`${name}: ${errors.join('; ')}`);
      hydrate.push(await p.evaluate(() => window.hydrated));
      loaded.push(await p.evaluate(() => window.loaded ?? 0));
      update.push(...(await p.evaluate(() => window.bench.update(4))));
      warm.push(await p.evaluate(() => window.bench.warm(200)));
      await p.waitForTimeout(1000);
      settled.push(await p.evaluate(() => window.bench.warm(200)));
      await p.close();
    }
    results[name] = { hydrate: median(hydrate), update: median(update), warm: median(warm), settled: median(settled), loaded: median(loaded) };
  }
} finally {
  await browser.close();
  await server.close();
}

const ours = results.ours;
const vue = results['petite-vue'];
const ms = (t) => t.toFixed(2);
console.log(`## Interaction runtime

\`crates/interaction-runtime/bench/run.mjs\`: Chromium ${browserVersion}, ${SURFACES}
surfaces of 200 components, side by side with petite-vue ${version('petite-vue')} (served
without a CSP, since it needs \`'unsafe-eval'\`); medians over ${iterations} page loads each.

${table(['measure', 'ours (ms)', 'petite-vue (ms)', 'ours / petite-vue'], [
  ['hydrate (import to every surface hydrated; fetch and compile included for ours)', ms(ours.hydrate), ms(vue.hydrate), (ours.hydrate / vue.hydrate).toFixed(2)],
  ['update (\`input\` on a slider to its 100 bindings updated; the mean of ten in a row)', ms(ours.update), ms(vue.update), (ours.update / vue.update).toFixed(2)],
  ['update, warm (the mean of the next 200 in a row)', ms(ours.warm), ms(vue.warm), (ours.warm / vue.warm).toFixed(2)],
  ['update, settled (the mean of 200 more, after the page was idle for 1 s)', ms(ours.settled), ms(vue.settled), (ours.settled / vue.settled).toFixed(2)],
])}

${table(['download (gzip -9)', 'ours (B)', 'petite-vue (B)', 'ours / petite-vue'], [
  ['what the page fetches for it (ours: loader and wasm; petite-vue: its ES module)', String(download.ours), String(download.vue), (download.ours / download.vue).toFixed(2)],
  ['the same for a page whose surfaces hold no call (ours: loader and surface.nocalls.wasm)', String(download.nocalls), String(download.vue), (download.nocalls / download.vue).toFixed(2)],
])}

Of our hydration, ${ms(ours.loaded)} ms is fetching and compiling the wasm.`);
