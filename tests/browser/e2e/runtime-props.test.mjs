// A property test of the interaction runtime (SPEC.md section 10) over
// generated hostile surfaces: fast-check makes pages of several surfaces in
// Node (hostile states, model fields, data-ch-attr objects and actions);
// each page is served with the runtime as scripts/build made it (the files
// artifacts() names) and opened in Chromium, where ./runtime/props-build.js
// builds the surfaces with setAttribute (the values reach the runtime
// exactly) and the runtime hydrates them. Then every model field gets its
// generated inputs and every action button is clicked, and the page must
// hold:
//   - a model writes the coerced type (range: a number; number: a number,
//     or null when empty; checkbox: its checked state; radio and select:
//     the JSON literal of data-ch-value, else the value), read back through
//     the runtime's own conditions and text;
//   - data-ch-attr set nothing outside value, checked, disabled, open,
//     aria-*, data-* and a safe href (so no on*, style, src, srcdoc);
//   - no href and no navigation leads to another origin unless it was an
//     absolute http(s) URL, no javascript: URL or handler ran (no CSP
//     violation), Object.prototype, Array.prototype and Function.prototype
//     are as they were, and nothing threw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { launch, startServer, PAGE_CSP, root, artifacts } from './harness.mjs';

const site = artifacts().runtime.dir;
const manifest = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8'));
const MAX = Number.MAX_VALUE;

// --------------------------------------------------------------- generators

// Numbers JSON text can spell that a double cannot hold, or holds oddly: in
// generated JSON a string RAW + text becomes that text, unquoted (numbers,
// and lists nested thousands deep).
const RAW = '\u0000raw:';
const RAW_NUMBERS = ['1e309', '-1e309', '-0', '-0.0', '0e0', '1E400', '4.9e-325', '123456789012345678901234567890', '1.7976931348623157e308'];
const rawNumber = fc.constantFrom(...RAW_NUMBERS).map((n) => RAW + n);
/** JSON text of `v`, with the RAW strings written as the numbers they spell. */
const jsonText = (v) => JSON.stringify(v).replace(/"\\u0000raw:([^"]*)"/g, '$1');

const HOSTILE_STRINGS = [
  'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)',
  '\u0001javascript:alert(1)', 'javascript\u0000:alert(1)', '\u000bjavascript:alert(1)', '\u00a0javascript:alert(1)',
  '//evil.example/x', '/\t/evil.example', '/\n/evil.example', '\\\\evil.example', '/\\evil.example', '\t//evil.example',
  ' //evil.example', 'https://evil.example@127.0.0.1', 'data:text/html,<script>alert(1)</script>', 'vbscript:x',
  'http:evil.example', '/ok', '#frag', 'https://example.com/a', 'HTTPS://example.com/b', 'http://example.com', '',
  '<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', '{"path":"/a"}', '__proto__', 'constructor',
  'NaN', '1e309', '-0', '\u202e\u0000\uffff', '\ud800', 'ā😀',
];
const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 8, unit: 'binary' }));
/** One of `names` with some letters upper-cased, sometimes followed by white space or a NUL. */
const mangled = (names) =>
  fc.tuple(fc.constantFrom(...names), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), fc.constantFrom('', '', '', ' ', '\t', '\u0000'))
    .map(([s, up, pad]) => [...s].map((c, i) => (up[i % 12] ? c.toUpperCase() : c)).join('') + pad);
const hostileValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: rawNumber },
  // (Deep lists as RAW text too: fast-check could not print them as values.)
  { weight: 1, arbitrary: fc.nat({ max: 3000 }).map((n) => RAW + '['.repeat(n) + ']'.repeat(n)) },
);

const SEGMENTS = ['__proto__', 'constructor', 'prototype', '__PROTO__', 'polluted', 'a', 'arr', 'm0', '0', '-', '01', '999999999999999999999',
  '4294967295', '4294967296', '1e3', '~0', '~1', '~2', '~', '', ' ', 'toString', 'valueOf', 'length'];
const pointer = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 3 })), { maxLength: 4 }).map((s) => s.map((x) => '/' + x).join('')),
  fc.constantFrom('', '/', 'a', 'x/y', '#/a', '/__proto__/polluted', '/constructor/prototype/polluted', '/arr/__proto__/polluted',
    '/arr/constructor/prototype/polluted', '/a/constructor/prototype/polluted', '/arr/999999999', '/arr/-', '/arr/1e9'),
  fc.string({ maxLength: 6 }),
);
const binding = pointer.map((path) => ({ path }));
const expression = fc.oneof(hostileValue, binding, fc.record({ call: fc.constantFrom('concat', 'length', 'formatNumber', 'toString', '__proto__'), args: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(hostileValue, binding), { maxKeys: 3 }) }));

// A surface's state: usually an object (with prototype keys and raw
// numbers), sometimes text that is no JSON object.
const stateText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(hostileValue, fc.array(hostileValue, { maxLength: 3 }), fc.option(hostileValue), fc.dictionary(fc.constantFrom('polluted', 'toString', 'x'), hostileValue, { maxKeys: 2 }))
      // (Written as text: "__proto__" as a key of a JS object literal would set its prototype.)
      .map(([a, arr, m0, proto]) =>
        `{"a":${jsonText(a)},"arr":${jsonText(arr)},${m0 === null ? '' : `"m0":${jsonText(m0)},`}"__proto__":${jsonText(proto)},"constructor":{"prototype":{"polluted":"from state"}}}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '{"a":1}}', 'NaN', '{"a":1e309}', `{"d":${'['.repeat(3000)}${']'.repeat(3000)}}`) },
);

// Numeric text a range or number field is given.
const numericText = fc.oneof(
  fc.constantFrom('1e309', '-1e309', '-0', 'NaN', 'Infinity', '', ' 5', '5 ', '0x10', '1e-400', '5e-324', '12abc', '+3', '.5', '5.', '１２', '\u00005', '1.7976931348623157e308'),
  fc.double().map(String),
  fc.integer().map(String),
);
// What a radio or option stands for: data-ch-value (JSON literal, raw
// number, text that is no JSON, or none) and its value.
const option = fc.record({
  value: hostileString,
  literal: fc.option(fc.oneof(hostileValue.map(jsonText), fc.constantFrom(...RAW_NUMBERS), hostileString, fc.constantFrom(' 1 ', '\t"x"', 'true ', '[1,', '-')), { nil: undefined }),
});
const field = fc.oneof(
  fc.record({ kind: fc.constantFrom('range', 'number'), min: fc.option(numericText, { nil: undefined }), max: fc.option(numericText, { nil: undefined }), step: fc.option(fc.constantFrom('any', '0', '-1', '0.001', 'x'), { nil: undefined }), inputs: fc.array(numericText, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('checkbox'), inputs: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constantFrom('radio', 'select'), options: fc.array(option, { minLength: 1, maxLength: 4 }), inputs: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }),
);

const ATTR_NAMES = ['value', 'checked', 'disabled', 'open', 'href', 'aria-label', 'aria-pressed', 'data-x', 'data-state-1',
  'onclick', 'onmouseover', 'onload', 'onerror', 'on', 'style', 'src', 'srcdoc', 'formaction', 'action', 'xlink:href', 'srcset',
  'hidden', 'id', 'class', 'aria-', 'data-', 'data-a b', 'aria_x', '__proto__', 'constructor', 'toString'];
const attrName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ATTR_NAMES) },
  { weight: 2, arbitrary: mangled(ATTR_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
// What an attribute is given: mostly strings (hrefs among them) and the state.
const attrValue = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom('/a', '/arr/0', '/m0').map((path) => ({ path })) },
  { weight: 2, arbitrary: expression },
);
const attrObject = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.option(hostileString), fc.array(fc.tuple(attrName, attrValue), { maxLength: 6 }))
      .map(([href, e]) => Object.fromEntries(href === null ? e : [['href', href], ...e])),
  },
  { weight: 1, arbitrary: fc.oneof(hostileValue, binding) },
);
const attrElement = fc.record({ tag: fc.constantFrom('a', 'details', 'input', 'iframe', 'button', 'div', 'img'), x: attrObject });

const ACTIONS = ['set', 'toggle', 'increment', 'reset', 'navigate', 'copy', 'share', 'scrollTo'];
const action = fc.record({
  action: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ACTIONS) }, { weight: 1, arbitrary: mangled([...ACTIONS, '__proto__', 'constructor']) }),
  path: pointer, value: expression, by: hostileValue, min: hostileValue, max: hostileValue,
  href: hostileString, text: expression, url: fc.oneof(hostileString, binding), target: hostileString,
}, { requiredKeys: ['action'] });
const actionAttr = fc.oneof({ weight: 4, arbitrary: fc.oneof(action, fc.array(action, { maxLength: 4 })).map(jsonText) }, { weight: 1, arbitrary: hostileString });

const surface = fc.record({
  state: stateText,
  fields: fc.array(field, { maxLength: 4 }),
  attrs: fc.array(attrElement, { maxLength: 4 }),
  actions: fc.array(actionAttr, { maxLength: 5 }),
  models: fc.array(fc.tuple(fc.constantFrom('input', 'textarea', 'select'), pointer), { maxLength: 2 }),
});

// ------------------------------------------------------ surfaces as nodes

/** A spec node (props-build.js): [tag, [[name, value], ...], [child, ...]]. */
const el = (tag, attrs, children = []) => [tag, Object.entries(attrs).filter(([, v]) => v !== undefined), children];

// The probes that read a model's path back through the runtime: its text,
// and one element per JSON type, shown when the value has it.
const probes = (path) => {
  const p = { path };
  const types = {
    number: { or: [{ gt: [p, -MAX] }, { lt: [p, MAX] }] },
    infinite: { or: [{ gt: [p, MAX] }, { lt: [p, -MAX] }] },
    boolean: { or: [{ eq: [p, true] }, { eq: [p, false] }] },
    true: { eq: [p, true] },
    null: { eq: [p, null] },
    string: { or: [{ gt: [p, ''] }, { eq: [p, ''] }] },
  };
  return [
    el('output', { 'data-ch-text': path, 'data-props-text': path }),
    ...Object.entries(types).map(([type, c]) => el('div', { 'data-ch-visible': JSON.stringify(c), 'data-props-probe': `${path}|${type}`, hidden: '' })),
  ];
};

function surfaceNode(s, i) {
  const children = [el('script', { type: 'application/json', 'data-ch-state': '' }, [s.state])];
  s.fields.forEach((f, k) => {
    const path = `/m${k}`;
    const common = { 'data-props-field': f.kind, 'data-props-path': path, 'data-props-inputs': JSON.stringify(f.inputs) };
    if (f.kind == 'range' || f.kind == 'number')
      children.push(el('input', { type: f.kind, min: f.min, max: f.max, step: f.step, 'data-ch-model': path, ...common }));
    else if (f.kind == 'checkbox') children.push(el('input', { type: 'checkbox', 'data-ch-model': path, ...common }));
    else if (f.kind == 'radio')
      children.push(el('div', common, f.options.map((o) => el('input', { type: 'radio', name: `g${i}-${k}`, value: o.value, 'data-ch-value': o.literal, 'data-ch-model': path }))));
    else children.push(el('select', { 'data-ch-model': path, ...common }, f.options.map((o) => el('option', { value: o.value, 'data-ch-value': o.literal }, ['o']))));
    children.push(...probes(path));
  });
  for (const a of s.attrs) children.push(el(a.tag, { 'data-ch-attr': jsonText(a.x) }));
  for (const a of s.actions) children.push(el('button', { type: 'button', 'data-ch-action': a, 'data-props-action': '' }, ['go']));
  for (const [tag, path] of s.models) children.push(el(tag, { 'data-ch-model': path, 'data-props-model': '' }, tag == 'select' ? [el('option', { value: 'v' }, ['v'])] : []));
  return el('div', { 'data-ch-surface': `s${i}`, id: `s${i}` }, children);
}

/** The page of `surfaces`: a spec script, the builder, then the runtime. */
function pageHtml(surfaces) {
  const spec = JSON.stringify(surfaces.map(surfaceNode)).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>props</title>
<style>[data-ch-visible][hidden]{display:none!important}</style>
<script type="application/json" id="props-spec">${spec}</script>
<script type="module" src="/fixtures/props-build.js"></script>
<script type="module" src="/_cloudhal/${manifest['surface.js']}"></script>
</head><body><div id="props-root"></div><div data-ch-surface="ready"><script type="application/json" data-ch-state>{"r":"yes"}</script><p id="props-ready" data-ch-text="/r"></p></div></body></html>`;
}

// ------------------------------------------------------- the page's checks

/**
 * Runs in the page once hydrated: gives every model field its inputs,
 * checks what each wrote, clicks every action, then checks the attributes
 * and the prototypes. Returns the problems found (none: the page holds).
 */
function exercise() {
  const problems = [];
  const seen = { writes: 0, clicks: 0, set: 0, href: 0 };
  const root = document.getElementById('props-root');
  const say = (where, what) => problems.push(`${where}: ${what}`);
  /** What SPEC.md section 10 says a radio or option writes (a number JSON cannot hold: null). */
  const literal = (o) => {
    const t = o.getAttribute('data-ch-value');
    if (t != null)
      try {
        const v = JSON.parse(t);
        return typeof v == 'number' && !isFinite(v) ? null : v;
      } catch {}
    return o.value;
  };
  const typeOf = (v) => (v === null ? 'null' : typeof v == 'object' ? 'object' : typeof v);
  /** The state at `path` of `surface`, as its probes show it. */
  const shown = (surface, path) => ({
    types: [...surface.querySelectorAll('[data-props-probe]')]
      .filter((p) => !p.hidden && p.dataset.propsProbe.startsWith(path + '|'))
      .map((p) => p.dataset.propsProbe.slice(path.length + 1)),
    text: surface.querySelector(`[data-props-text="${path}"]`).textContent,
  });
  const expect = (where, v, { types, text }) => {
    const t = typeOf(v);
    const want = t == 'number' ? ['number'] : t == 'boolean' ? (v ? ['boolean', 'true'] : ['boolean']) : t == 'null' ? ['null'] : t == 'string' ? ['string'] : [];
    if (types.join() != want.join()) say(where, `wrote ${JSON.stringify(v)} as [${types}], want [${want}]`);
    else if (t == 'number' && Number(text) !== v) say(where, `number ${v} reads as text ${JSON.stringify(text)}`);
    // (Strings cross to the module as UTF-8: a lone surrogate reads as U+FFFD.)
    else if (t == 'string' && text !== v.toWellFormed()) say(where, `string ${JSON.stringify(v)} reads as text ${JSON.stringify(text)}`);
  };
  const input = (target) => target.dispatchEvent(new Event('input', { bubbles: true }));
  for (const f of root.querySelectorAll('[data-props-field]')) {
    const surface = f.closest('[data-ch-surface]');
    const where = `${surface.id} ${f.dataset.propsPath} (${f.dataset.propsField})`;
    // Only a surface whose state is a JSON object is hydrated.
    let state;
    try {
      state = JSON.parse(surface.querySelector('script[data-ch-state]').textContent);
    } catch {}
    const hydrated = typeOf(state) == 'object' && !Array.isArray(state);
    for (const given of JSON.parse(f.dataset.propsInputs)) {
      const kind = f.dataset.propsField;
      let written;
      if (kind == 'range' || kind == 'number') {
        f.value = given;
        const n = f.valueAsNumber;
        written = isNaN(n) ? null : n;
        input(f);
      } else if (kind == 'checkbox') {
        f.checked = given;
        written = given;
        input(f);
      } else if (kind == 'radio') {
        const radios = f.querySelectorAll('input');
        const r = radios[given % radios.length];
        r.checked = true;
        written = literal(r);
        input(r);
      } else {
        f.selectedIndex = given % f.options.length;
        written = literal(f.options[f.selectedIndex]);
        input(f);
      }
      if (hydrated) seen.writes++;
      if (hydrated) expect(`${where} given ${JSON.stringify(given)}`, written, shown(surface, f.dataset.propsPath));
    }
  }
  for (const m of root.querySelectorAll('[data-props-model]')) {
    if (m.tagName != 'SELECT') m.value = 'typed';
    input(m);
  }
  for (const b of root.querySelectorAll('[data-props-action]')) b.click(), seen.clicks++;
  for (const f of root.querySelectorAll('[data-props-field] input, [data-props-field]')) input(f);

  // What the runtime set: only the allowlist, href only when safe.
  const before = window.propsBefore;
  const allowed = /^(value|checked|disabled|open|hidden|aria-invalid|(aria|data)-[a-z0-9-]+)$/;
  const hrefOk = (v) => {
    const cleaned = v.replace(/[\t\n\r]/g, '').trim();
    if (/[\u0000-\u001f\u007f]/.test(cleaned)) return false;
    const u = new URL(v, location.href);
    return /^https?:$/.test(u.protocol) && (u.origin == location.origin || /^https?:/i.test(cleaned));
  };
  [...root.querySelectorAll('*')].forEach((e, i) => {
    const was = new Map(before.attrs[i]);
    for (const { name, value } of e.attributes) {
      if (was.get(name) === value) continue;
      seen.set++;
      const where = `${e.closest('[data-ch-surface]')?.id} <${e.tagName.toLowerCase()} data-ch-attr=${JSON.stringify(e.getAttribute('data-ch-attr'))}>`;
      if (name == 'href') seen.href++, hrefOk(value) || say(where, `unsafe href ${JSON.stringify(value)}`);
      else if (!allowed.test(name)) say(where, `set ${name}=${JSON.stringify(value)}`);
    }
    for (const name of e.getAttributeNames()) if (/^on|^(style|src|srcdoc)$/i.test(name)) say(e.tagName, `has ${name}`);
  });
  const names = (o) => Object.getOwnPropertyNames(o).sort().join(' ');
  [Object.prototype, Array.prototype, Function.prototype].forEach((p, i) => names(p) == before.prototypes[i] || say('prototype', `${i} became ${names(p)}`));
  for (const k in {}) say('Object.prototype', `enumerable ${k}`);
  if ({}.polluted !== undefined || [].polluted !== undefined) say('prototype', 'polluted');
  problems.push(...window.propsViolations.map((v) => `CSP violation: ${v}`));
  return { problems, seen };
}

// ------------------------------------------------------------------ the run

// Cases the property found, run first every time. A data-ch-value (and a
// state) may spell a number JSON cannot hold: JSON.parse reads 1e309 as
// Infinity, which a radio or option wrote into the state (the probes read
// a number above the largest); it is null now, as the validator reads it.
const REGRESSIONS = [
  {
    state: '{"a":1e309,"arr":[-1e309]}',
    fields: [
      { kind: 'radio', options: [{ value: '', literal: '1e309' }, { value: 'javascript:alert(1)', literal: undefined }], inputs: [0, 1] },
      { kind: 'select', options: [{ value: 'x', literal: '-1e309' }, { value: 'y', literal: '-0' }], inputs: [0, 1] },
    ],
    attrs: [{ tag: 'a', x: { href: { path: '/a' }, 'aria-label': { path: '/arr/0' } } }],
    actions: [jsonText({ action: 'increment', path: '/a', by: RAW + '1e309' })],
    models: [],
  },
];

let browser, server;
let current = '';
before(async () => {
  browser = await launch();
  server = await startServer({
    mounts: { '/_cloudhal/': relative(root, site), '/fixtures/': 'tests/browser/e2e/runtime' },
    csp: () => PAGE_CSP,
    pages: { '/props.html': () => current },
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** What the runs did: model writes checked, actions clicked, attributes the runtime set. */
const seen = { writes: 0, clicks: 0, set: 0, href: 0 };

/** Opens `surfaces` as one page and returns what went wrong there. */
async function check(page, surfaces, log) {
  current = pageHtml(surfaces);
  log.length = 0;
  // A navigation the last page's actions started (answered 204) may abort
  // this one: then it is tried again.
  for (let tries = 1; ; tries++)
    try {
      await page.goto(`${server.origin}/props.html`);
      break;
    } catch (e) {
      if (tries == 3 || !/ERR_ABORTED/.test(e.message)) throw e;
    }
  await page.waitForFunction(() => document.getElementById('props-ready')?.textContent === 'yes');
  const { problems, seen: here } = await page.evaluate(exercise);
  for (const k in seen) seen[k] += here[k];
  // Let a navigation or a late error show before the verdict.
  await page.waitForTimeout(0);
  return [...problems, ...log];
}

test('the runtime over generated hostile surfaces: coerced model types, the attribute allowlist, safe hrefs, no prototype write, no error', async (t) => {
  const page = await browser.newPage();
  const log = [];
  page.on('pageerror', (e) => log.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    log.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  // Navigations away (a safe navigate) end in 204 No Content, so the page
  // stays; one to another origin must come from an absolute http(s) href.
  await page.route('**/*', (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (url.origin == server.origin && !(request.isNavigationRequest() && url.pathname != '/props.html')) return route.continue();
    if (url.hostname == 'evil.example' || url.hostname.endsWith('.evil.example')) log.push(`request to ${url.href}`);
    return route.fulfill({ status: 204 });
  });
  const out = await fc.check(
    fc.asyncProperty(fc.array(surface, { minLength: 1, maxLength: 6 }), async (surfaces) => {
      const problems = await check(page, surfaces, log);
      assert.deepEqual(problems, [], problems.join('\n'));
    }),
    { numRuns: Number(process.env.PROPS_RUNS ?? 60), examples: [[REGRESSIONS]], interruptAfterTimeLimit: 50_000, seed: process.env.PROPS_SEED && Number(process.env.PROPS_SEED), path: process.env.PROPS_PATH, endOnFailure: true },
  );
  // The problems first: the counterexample may be long.
  if (out.failed) assert.fail(`${out.errorInstance?.message}\n${fc.defaultReportMessage(out)}`);
  // The runs did reach the runtime: writes checked, actions run, attributes set.
  t.diagnostic(`checked: ${JSON.stringify(seen)}`);
  assert.ok(seen.writes > 20 && seen.clicks > 20 && seen.set > 20 && seen.href > 0, JSON.stringify(seen));
  await page.close();
});
