// Runs in the page: times one morph of `old` into `new` per library and
// iteration (libraries interleaved), from a fresh copy of `old` each time.
import init, { morph, Preview } from '/morph.js';
import { Idiomorph } from '/idiomorph.js';
import morphdom from '/morphdom.js';

await init({ module_or_path: '/morph_bg.wasm' });

const text = (url) => fetch(url).then((r) => r.text());

// A 30-section page; `changed` is the section whose text differs.
function sectionHtml(s, version) {
  const items = Array.from({ length: 20 }, (_, i) =>
    `<li data-component-id="s${s}-c${i}"><h3>Item ${i}</h3><p class="body">Text ${i} of section ${s}, version ${i === 7 ? version : 0}.</p><a href="/s/${s}/${i}">more</a></li>`).join('');
  return `<section data-section-id="s${s}"><h2>Section ${s}</h2><ul>${items}</ul></section>`;
}
const sectionPage = (changed, version, sections = 30) =>
  Array.from({ length: sections }, (_, s) => sectionHtml(s, s === changed ? version : 0)).join('');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

function time(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

// `libs`: {lib: (container, newHtml) => void, or {setup(container), morph}},
// setup untimed.
function run(n, name, oldHtml, newHtml, libs) {
  const container = document.createElement('div');
  document.body.append(container);
  const times = Object.fromEntries(Object.keys(libs).map((k) => [k, []]));
  for (let i = 0; i < n + 2; i++) {
    for (const [lib, fn] of Object.entries(libs)) {
      container.innerHTML = oldHtml;
      container.getBoundingClientRect(); // the page is laid out, as a live preview is
      const state = fn.setup?.(container);
      const t = time(() => (fn.morph ?? fn)(container, newHtml, state));
      state?.free?.();
      if (i >= 2) times[lib].push(t); // two warm-up rounds
    }
  }
  container.remove();
  return { name, ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) };
}

const whole = {
  morph: (c, html) => morph(c, html),
  idiomorph: (c, html) => Idiomorph.morph(c, html, { morphStyle: 'innerHTML' }),
  morphdom: (c, html) => morphdom(c, `<div>${html}</div>`, { childrenOnly: true }),
};

// One section: each library morphs only that section's element.
const one = (key) => ({
  morph: (c, html) => morph(c.querySelector(`[data-section-id="${key}"]`), html, { outer: true }),
  idiomorph: (c, html) => Idiomorph.morph(c.querySelector(`[data-section-id="${key}"]`), html, { morphStyle: 'outerHTML' }),
  morphdom: (c, html) => morphdom(c.querySelector(`[data-section-id="${key}"]`), html),
});

window.runBench = async (n) => {
  const rows = [];
  for (const pair of ['checkboxes', 'html5', 'table']) {
    const [a, b] = await Promise.all([text(`/${pair}.old.html`), text(`/${pair}.new.html`)]);
    rows.push(run(n, pair, a, b, whole));
  }
  const oldPage = sectionPage(12, 0);
  const newPage = sectionPage(12, 1);
  rows.push(run(n, '30 sections, whole page', oldPage, newPage, whole));
  rows.push(run(n, '30 sections, the one section', oldPage, sectionHtml(12, 1), one('s12')));
  // The scheduler: it knows the other 29 sections did not change.
  // The scheduler has shown oldPage before (its ledger knows the sections).
  const preview = {
    setup: (c) => {
      const p = new Preview(c, {});
      p.update(oldPage);
      p.flush();
      return p;
    },
    morph: (c, html, p) => {
      p.update(html);
      p.flush();
    },
  };
  const primed = run(n, '30 sections, Preview.update (whole page in)', oldPage, newPage, {
    morph: preview,
    idiomorph: whole.idiomorph,
    morphdom: whole.morphdom,
  });
  rows.push(primed);
  rows.push(run(n, '30 sections, Preview.section (one in)', oldPage, sectionHtml(12, 1), {
    ...one('s12'),
    morph: {
      setup: preview.setup,
      morph: (c, html, p) => {
        p.section('s12', html);
        p.flush();
      },
    },
  }));
  return rows;
};
// What growing the input costs: the section page at 15 to 120 sections (one
// section's text changed), whole page in, every library; and nesting 500
// to 4,000 deep with the innermost text changed, the morph beside the
// browser parsing the new HTML alone (a template's innerHTML, as the morph
// parses it): the HTML parser scans its stack of open elements at each
// start tag, so parsing deep nesting is quadratic in the browser itself.
const nested = (depth, text) => '<div>'.repeat(depth) + text + '</div>'.repeat(depth);
window.runScaling = (n) => {
  const sections = [15, 30, 60, 120];
  const wide = sections.map((k) => run(n, `${k}`, sectionPage(k >> 1, 0, k), sectionPage(k >> 1, 1, k), whole));
  const depths = [500, 1000, 2000, 4000];
  const parse = (c, html) => {
    document.createElement('template').innerHTML = html;
  };
  const deep = depths.map((d) => run(Math.min(n, 11), `${d}`, nested(d, 'old'), nested(d, 'new'), { morph: whole.morph, parse }));
  return [
    { name: 'sections, whole page', sizes: sections, rows: wide },
    { name: 'nesting depth, the innermost text', sizes: depths, rows: deep },
  ];
};
window.benchReady = true;
