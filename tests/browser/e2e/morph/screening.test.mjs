// A property test of the morph's screening (SPEC.md section 12): fast-check
// writes hostile HTML in Node (attribute names in mixed case, values with
// whitespace, control characters, entities, javascript:/data:/vbscript:
// however spelled, srcdoc, on* handlers, form and form* attributes, <base>,
// <meta>, names that would clobber document or window), the real morph puts
// it into a page in Chromium, and the live DOM is checked: no handler, no
// URL attribute whose protocol (as `new URL(value, location)` reads it) is
// javascript:, data: or vbscript:, no form* attribute, no <base> or <meta>,
// every property of document and window the names aimed at unchanged, and
// nothing naming the page's own elements to act on them: no commandfor or
// popovertarget, no target but _blank, no label for an element outside.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import fc from 'fast-check';
import { launch, startServer, root, artifacts } from '../harness.mjs';

// The names an id or name may try to take over.
const CLOBBER = ['querySelector', 'getElementById', 'createElement', 'body', 'cookie', 'evaluate', 'defaultView', 'addEventListener', 'toString', 'dispatchEvent', 'location', 'top', 'alert'];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'xlink:href', 'data'];
// The page's own elements that incoming HTML may try to act on, by id or name.
const HOST = ['hostbtn', 'hostdlg', 'hostpop', 'hostframe'];

const mixedCase = (s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length }).map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
// Bits of a scheme as a browser would still read it: tabs and newlines
// inside, spaces and control characters before, entities.
const noise = fc.constantFrom('', '\t', '\n', '\r', ' ', '\u0001', '&#9;', '&#10;', '&Tab;', '&NewLine;');
const scheme = fc
  .tuple(fc.constantFrom('javascript', 'data', 'vbscript', 'JaVaScRiPt', '&#106;avascript', 'java&#x73;cript', 'https', 'mailto', ''), noise, noise, fc.integer({ min: 1, max: 8 }))
  .map(([s, a, b, at]) => (s ? `${a}${s.slice(0, at)}${b}${s.slice(at)}:` : ''));
const value = fc.oneof(
  fc.tuple(noise, scheme, fc.constantFrom('alert(1)', 'text/html,<script>alert(1)</script>', '//x.example/', 'msgbox', '#frag')).map(([a, s, r]) => `${a}${s}${r}`),
  fc.constantFrom(...CLOBBER),
  fc.constantFrom(...HOST, '_top', '_parent', '_self', '_blank', ' _BLANK'),
  fc.string({ maxLength: 6 }),
);
const attributeName = fc.oneof(
  fc.constantFrom('href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'form', 'formmethod', 'formtarget', 'id', 'name', 'onclick', 'onerror', 'onload', 'onfocus', 'title', 'class', 'for', 'commandfor', 'command', 'popovertarget', 'target').chain(mixedCase),
  fc.tuple(fc.constantFrom('on', 'form'), fc.stringMatching(/^[a-z]{1,6}$/)).map(([p, s]) => p + s).chain(mixedCase),
);
const attribute = fc.tuple(attributeName, value).map(([n, v]) => ` ${n}="${v.replaceAll('"', '&quot;')}"`);
const tag = fc.constantFrom('a', 'img', 'form', 'button', 'input', 'iframe', 'embed', 'object', 'div', 'base', 'meta', 'svg', 'math', 'template', 'area', 'script', 'animate', 'set', 'label');
const element = fc
  .tuple(tag.chain(mixedCase), fc.array(attribute, { maxLength: 4 }), fc.constantFrom('', 'x', '<a href="javascript:alert(1)">in</a>', '<base href="https://evil.example/">'))
  .map(([t, attrs, inner]) => `<${t}${attrs.join('')}>${inner}</${t}>`);
const batch = fc.array(element, { minLength: 10, maxLength: 40 }).map((els) => els.join(''));

let browser, site, page;
before(async () => {
  browser = await launch();
  site = await startServer({
    mounts: { '/morph/': relative(root, artifacts().morph.dir), '/t/': 'tests/browser/e2e/morph' },
    csp: () => null,
    pages: { '/': '<!doctype html><meta charset="utf-8"><title>screening</title><body><script type="module" src="/t/page.js"></script>' },
  });
  page = await browser.newPage();
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => window.T, null, { timeout: 10_000 });
});
after(async () => {
  await page?.close();
  await browser?.close();
  await site?.close();
});

/** What the morph let through of `html`, morphed twice into a fresh container: a list of violations. */
const screen = (html) =>
  page.evaluate(
    ({ html, CLOBBER, URL_ATTRIBUTES }) => {
      const host = document.createElement('div');
      host.innerHTML = '<button id="hostbtn">b</button><dialog id="hostdlg"></dialog><div popover id="hostpop"></div><iframe name="hostframe"></iframe>';
      document.body.prepend(host);
      const props = () => CLOBBER.map((k) => [document[k], window[k]]);
      const saved = props();
      const base = document.baseURI;
      const live = T.mount('');
      T.morph(live, html);
      T.morph(live, html);
      const bad = [];
      const all = (r) => [...r.querySelectorAll('*')].flatMap((e) => [e, ...(e.content ? all(e.content) : [])]);
      for (const e of all(live)) {
        if (e.localName == 'base' || e.localName == 'meta' || e.localName == 'script') bad.push(`<${e.localName}>`);
        for (const a of e.attributes) {
          const n = a.name.toLowerCase();
          if (n.startsWith('on') || n.startsWith('form') || n == 'srcdoc') bad.push(`${a.name}=${JSON.stringify(a.value)}`);
          if (n == 'commandfor' || n == 'popovertarget' || (n == 'target' && a.value.trim().toLowerCase() != '_blank')) bad.push(`${a.name}=${JSON.stringify(a.value)}`);
          const named = n == 'for' && document.getElementById(a.value);
          if (named && !live.contains(named)) bad.push(`${a.name}=${JSON.stringify(a.value)} names the page's own`);
          if (URL_ATTRIBUTES.includes(n)) {
            let p = '';
            try {
              p = new URL(a.value, location.href).protocol;
            } catch {}
            if (['javascript:', 'data:', 'vbscript:'].includes(p)) bad.push(`${a.name}=${JSON.stringify(a.value)}`);
          }
        }
      }
      props().forEach(([d, w], i) => (d !== saved[i][0] || w !== saved[i][1]) && bad.push(`clobbered ${CLOBBER[i]}`));
      if (document.baseURI !== base) bad.push('rebased');
      if (document.querySelectorAll('base, meta:not([charset])').length) bad.push('base or meta in the page');
      live.remove();
      host.remove();
      return bad;
    },
    { html, CLOBBER, URL_ATTRIBUTES },
  );

test('hostile attributes never survive the morph', async () => {
  await fc.assert(
    fc.asyncProperty(batch, async (html) => {
      const bad = await screen(html);
      assert.deepEqual(bad, [], html);
    }),
    { numRuns: 150, seed: 13 },
  );
});
