// What the runtime's loader hands the module, in Chromium, with the runtime
// as scripts/build made it: a number JSON cannot hold (an increment past the
// largest number) goes into the state as null, as JSON.stringify and
// serde_json make it, so Rust's conditions and text read it as null and the
// next increment starts from nothing, as from any null.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { launch, openPage, startServer, root, artifacts } from './harness.mjs';

const site = artifacts().runtime.dir;
const manifest = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8'));
const MAX = Number.MAX_VALUE;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loaders</title>
<style>[data-ch-visible][hidden]{display:none!important}</style>
<script type="module" src="/_cloudhal/${manifest['surface.js']}"></script>
</head><body>
<div data-ch-surface="s">
  <script type="application/json" data-ch-state>{"n":${MAX}}</script>
  <p id="n" data-ch-text="/n">${MAX}</p>
  <p id="null" data-ch-visible='{"eq":[{"path":"/n"},null]}' hidden>null</p>
  <button id="double" type="button" data-ch-action='{"action":"increment","path":"/n","by":${MAX}}'>double</button>
</div>
</body></html>`;

let browser, server;
before(async () => {
  browser = await launch();
  server = await startServer({ mounts: { '/_cloudhal/': relative(root, site) }, pages: { '/': PAGE } });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('an increment past the largest number writes null: text, conditions and the next increment read it as null', async () => {
  const { page, errors } = await openPage(browser, `${server.origin}/`);
  const text = () => page.locator('#n').textContent();
  const isNull = () => page.locator('#null').evaluate((e) => !e.hidden);
  await page.waitForFunction(() => document.getElementById('n').textContent === String(Number.MAX_VALUE));
  assert.equal(await isNull(), false);
  await page.click('#double');
  assert.equal(await text(), '', 'null shows as nothing (not "Infinity")');
  assert.equal(await isNull(), true, 'eq null holds');
  await page.click('#double');
  assert.equal(await text(), String(MAX), 'null + MAX');
  assert.equal(await isNull(), false);
  assert.deepEqual(errors, []);
  await page.close();
});
