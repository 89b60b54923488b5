// Builds the demo site into dist/demo/ from demo/site/ and what scripts/build
// produced (dist/artifacts.json says which parts ship): the article's surfaces
// rendered by the package's renderSurface (npm ./render, as a server would),
// the hashed runtime script from dist/site/manifest.json, and a plain
// statement of which parts have landed.
// A part held back by its size budget is said to be, never faked; the Build
// page reads shipped.json to know whether the preview morph is there.
import { readFileSync, writeFileSync, mkdirSync, cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './serve.mjs';
import { artifacts } from '../scripts/artifacts.mjs';

const out = join(root, 'dist/demo');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(root, 'demo/site'), out, { recursive: true });
cpSync(join(root, 'demo/answer.md'), join(out, 'answer.md'));

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const notice = (text) => `<p class="notice">${escape(text)}</p>`;

const parts = artifacts();
const HELD = 'built and tested, not shipped yet: over its size budget';
const held = (name) => !parts[name].ships;
const manifest = parts.runtime.ships ? JSON.parse(readFileSync(join(parts.runtime.dir, 'manifest.json'), 'utf8')) : null;

// The package's renderSurface (the Studio wasm, in the package only when it
// ships), or why there is none.
const renderer = parts.studio.ships
  ? await import(pathToFileURL(join(root, 'npm/render.js')).href).then(async (m) => (await m.default(), m))
  : null;

// One surface document as markup: `{html}`, or `{error}` saying why not.
function render(file) {
  if (!renderer) return { error: `the Studio module is ${HELD}` };
  try {
    // The file's JSON text as it is: renderSurface takes a value or its text.
    const { ok, html, issues } = renderer.renderSurface(readFileSync(file, 'utf8'));
    if (ok) return { html };
    return { error: issues.filter((i) => i.severity === 'error').map((i) => `${i.code} at ${i.path || '/'}`).join(', ') };
  } catch (e) {
    return { error: `${e.code ?? e.name}: ${e.message}` };
  }
}

// The article: surfaces rendered by the reference renderer, hydrated by the runtime.
let article = readFileSync(join(root, 'demo/site/article.html'), 'utf8');
let renderError = null;
article = article.replace(/<!--SURFACE:([a-z-]+)-->/g, (_, id) => {
  const { html, error } = render(join(root, 'demo/article', `${id}.json`));
  if (error) renderError ??= error;
  return html ?? notice(`Surface "${id}" is not rendered (${error}).`);
});
article = article.replace('<!--RUNTIME-->', manifest ? `<script type="module" src="/_cloudhal/${manifest['surface.js']}"></script>` : '');
if (!manifest) {
  article = article.replace('<article>', `<article>\n${notice(`The interaction runtime is ${HELD}, so this page is exactly as the server rendered it: it works without JavaScript (the tabs and questions are native), but the toggle, slider and checks do not respond.`)}`);
}
writeFileSync(join(out, 'article.html'), article);

// A shipped part has landed unless it failed here (the renderer, above).
const status = (part, label, failed = false) => (held(part) ? HELD : failed ? null : `landed: ${label}`);
const partRows = [
  ['Interaction runtime', 'crates/interaction-runtime', status('runtime', manifest && `/_cloudhal/${manifest['surface.js']}`), 'hydrates the article page'],
  ['Reference renderer', 'crates/render', status('studio', 'npm ./render, surfaces render', !!renderError), 'renders the article surfaces and the Build preview'],
  ['Validator', 'crates/validator-wasm', status('studio', 'npm ./validator'), 'checks what the Build view replays'],
  ['Streaming parser', 'crates/streaming-parser', status('studio', 'npm ./stream'), 'heals prose, commits surface lines, shows ghosts'],
  ['Preview morph', 'crates/morph', status('morph', 'npm ./morph'), 'merges each render into the live preview'],
];
const rows = partRows
  .map(([name, where, state, role]) => `<tr><td>${escape(name)}<br><code>${escape(where)}</code></td><td class="${state?.startsWith('landed') ? 'landed' : 'missing'}">${escape(state ?? 'not there yet')}</td><td>${escape(role)}</td></tr>`)
  .join('\n');
const index = readFileSync(join(root, 'demo/site/index.html'), 'utf8').replace('<!--PARTS-->', `<table class="status">\n<tr><th>Part</th><th>Status</th><th>In this demo</th></tr>\n${rows}\n</table>`);
writeFileSync(join(out, 'index.html'), index);
writeFileSync(join(out, 'shipped.json'), JSON.stringify(Object.fromEntries(Object.entries(parts).map(([name, p]) => [name, p.ships]))));
console.error(`demo: wrote ${readdirSync(out).length} files to dist/demo/`);
