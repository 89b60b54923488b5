// The published-page runtime as a site ships it: the files that
// @cloudhal/surfaces/runtime (its manifest.json) names, copied out of the
// installed package into a static folder, beside a page holding one surface
// rendered in Node by ./render and the runtime's one script tag; served with
// `Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'` and opened in
// Chromium: the surface hydrates (a Toggle, a Button and a Counter change the
// bound text) with no CSP violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launch } from '../browser/e2e/harness.mjs';
import { consumer, serve, PACKAGE } from './setup.mjs';

const PROBE = `
export { default as init, renderSurface } from '${PACKAGE}/render';
export const manifest = import.meta.resolve('${PACKAGE}/runtime');
export const file = (name) => import.meta.resolve('${PACKAGE}/runtime/' + name);
`;
const CSP = "script-src 'self' 'wasm-unsafe-eval'";

const SURFACE = {
  id: 'plans', kind: 'surface', catalog: 'blog@1', data: { billing: 'monthly', price: 9 },
  components: [
    { id: 'root', component: 'Stack', children: ['choice', 'shown', 'deal', 'back', 'amount', 'price'] },
    { id: 'choice', component: 'Toggle', props: { label: 'Billing', options: ['monthly', 'yearly'], value: { path: '/billing' } } },
    { id: 'shown', component: 'Text', props: { text: { path: '/billing' } } },
    { id: 'deal', component: 'Badge', props: { text: 'Two months free' }, visible: { eq: [{ path: '/billing' }, 'yearly'] } },
    { id: 'back', component: 'Button', props: { label: 'Back to monthly', onClick: { action: 'set', path: '/billing', value: 'monthly' } } },
    { id: 'amount', component: 'Counter', props: { label: 'Price', value: { path: '/price' }, min: 1, max: 20 } },
    { id: 'price', component: 'Text', props: { text: { call: 'formatCurrency', args: { value: { path: '/price' }, currency: 'EUR' } } } },
  ],
};

let app, site, browser, script;
before(async () => {
  app = await consumer('site', { files: { 'probe.mjs': PROBE } });
  const probe = await import(pathToFileURL(app.path('probe.mjs')));
  await probe.init();
  const { ok, html, issues } = probe.renderSurface(SURFACE, { locale: 'en-US' });
  assert.ok(ok, JSON.stringify(issues));
  // What a site's build does: read the manifest, copy the files it names.
  const names = JSON.parse(readFileSync(fileURLToPath(probe.manifest), 'utf8'));
  mkdirSync(app.path('public/_cloudhal'), { recursive: true });
  for (const name of Object.values(names)) copyFileSync(fileURLToPath(probe.file(name)), app.path('public/_cloudhal', basename(name)));
  script = `/_cloudhal/${names['surface.js']}`;
  writeFileSync(app.path('public/index.html'), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><title>A published page</title><link rel="icon" href="data:,">
<style>[data-ch-visible][hidden]{display:none!important}</style>
<script type="module" src="${script}"></script>
</head>
<body>
<h1>Plans</h1>
${html}
</body>
</html>
`);
  site = await serve(app.path('public'), { headers: { 'content-security-policy': CSP } });
  browser = await launch();
});
after(async () => {
  try {
    await browser?.close();
    await site?.close();
  } finally {
    app?.remove();
  }
});

test('the runtime manifest names the script and the wasm, both in the installed package', () => {
  assert.match(script, /^\/_cloudhal\/surface\.[0-9a-f]+\.js$/);
});

test('under script-src \'self\' \'wasm-unsafe-eval\' the rendered surface hydrates: Toggle, Button and Counter update the bound text', async () => {
  const page = await browser.newPage();
  const errors = [];
  const consoleMessages = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => consoleMessages.push({ type: m.type(), text: m.text() }));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  const response = await page.goto(`${site.origin}/`);
  assert.equal(response.headers()['content-security-policy'], CSP);
  await page.waitForLoadState('networkidle');
  assert.ok(site.requests.some((p) => /^\/_cloudhal\/surface\.[0-9a-f]+\.wasm$/.test(p)), `the wasm was fetched: ${site.requests}`);

  const text = (selector) => page.textContent(selector);
  const shown = '[data-ch-surface="plans"] p[data-ch-text="/billing"]';
  const badge = '[data-ch-surface="plans"] .ch-badge';
  assert.equal(await text(shown), 'monthly');
  assert.equal(await page.isVisible(badge), false);

  await page.check('input[type="radio"][value="yearly"]');
  await page.waitForFunction((s) => document.querySelector(s).textContent === 'yearly', shown, { timeout: 5000 });
  assert.equal(await page.isVisible(badge), true, 'the visible condition follows the state');

  await page.click('button.ch-button');
  await page.waitForFunction((s) => document.querySelector(s).textContent === 'monthly', shown, { timeout: 5000 });
  assert.equal(await page.isChecked('input[type="radio"][value="monthly"]'), true, 'the Toggle follows the state');
  assert.equal(await page.isVisible(badge), false);

  await page.click('button[aria-label="Increase"]');
  await page.waitForFunction(() => document.querySelector('.ch-counter output').textContent === '10', null, { timeout: 5000 });
  assert.equal(await text('[data-ch-surface="plans"] > .ch-stack > p:last-child'), '€10.00', 'formatCurrency runs again on the page');

  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no CSP violation');
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'warning'), []);
  await page.close();
});
