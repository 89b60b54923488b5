// Builds the demo site into dist/demo/ from demo/site/ and what scripts/build
// produced: the article's surfaces rendered by `surfaces render`, the hashed
// runtime script from dist/site/manifest.json, and a plain statement of which
// parts have landed. A part that is not built is said to be missing, never faked.
import { readFileSync, writeFileSync, mkdirSync, cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './serve.mjs';

const out = join(root, 'dist/demo');
const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
const cli = join(target, 'release/surfaces');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(root, 'demo/site'), out, { recursive: true });
cpSync(join(root, 'demo/answer.md'), join(out, 'answer.md'));

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const notice = (text) => `<p class="notice">${escape(text)}</p>`;

// `surfaces render FILE`, or why it could not run.
function render(file) {
  try {
    return { html: execFileSync(cli, ['render', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { error: (e.stderr || e.message).toString().trim().split('\n')[0] };
  }
}

const budgets = JSON.parse(readFileSync(join(root, 'size-budget/budgets.json'), 'utf8'));
const HELD = 'built and tested, not shipped yet: over its size budget';
const held = (name) => budgets[name]?.ships === false;
const manifestFile = join(root, 'dist/site/manifest.json');
const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : null;
const npmModule = (name) => existsSync(join(root, `npm/dist/${name}/${name}_bg.wasm`));

// The article: surfaces rendered by the reference renderer, hydrated by the runtime.
let article = readFileSync(join(root, 'demo/site/article.html'), 'utf8');
let renderError = null;
article = article.replace(/<!--SURFACE:([a-z-]+)-->/g, (_, id) => {
  const { html, error } = render(join(root, 'demo/article', `${id}.json`));
  if (error) renderError ??= error;
  return html ?? notice(`Surface "${id}" is not rendered: the reference renderer is not there yet (${error}).`);
});
article = article.replace('<!--RUNTIME-->', manifest ? `<script type="module" src="/_cloudhal/${manifest['surface.js']}"></script>` : '');
if (!manifest) {
  article = article.replace('<article>', `<article>\n${notice(`The interaction runtime is ${held('runtime') ? HELD : 'not there yet'}, so this page is exactly as the server rendered it: it works without JavaScript (the tabs and questions are native), but the toggle, slider and checks do not respond.`)}`);
}
writeFileSync(join(out, 'article.html'), article);

const status = (shipped, label, part) => (shipped ? `landed: ${label}` : held(part) ? HELD : null);
const parts = [
  ['Interaction runtime', 'crates/interaction-runtime', status(manifest, manifest && `/_cloudhal/${manifest['surface.js']}`, 'runtime'), 'hydrates the article page'],
  ['Reference renderer', 'crates/render', status(!renderError && npmModule('studio'), 'surfaces render, npm ./render', 'studio'), 'renders the article surfaces and the Build preview'],
  ['Validator', 'crates/validator-wasm', status(npmModule('studio'), 'npm ./validator', 'studio'), 'checks what the Build view replays'],
  ['Streaming parser', 'crates/streaming-parser', status(npmModule('studio'), 'npm ./stream', 'studio'), 'heals prose, commits surface lines, shows ghosts'],
  ['Preview morph', 'crates/morph', status(npmModule('morph'), 'npm ./morph', 'morph'), 'merges each render into the live preview'],
];
const rows = parts
  .map(([name, where, state, role]) => `<tr><td>${escape(name)}<br><code>${escape(where)}</code></td><td class="${state?.startsWith('landed') ? 'landed' : 'missing'}">${escape(state ?? 'not there yet')}</td><td>${escape(role)}</td></tr>`)
  .join('\n');
const index = readFileSync(join(root, 'demo/site/index.html'), 'utf8').replace('<!--PARTS-->', `<table class="status">\n<tr><th>Part</th><th>Status</th><th>In this demo</th></tr>\n${rows}\n</table>`);
writeFileSync(join(out, 'index.html'), index);
writeFileSync(join(out, 'parts.json'), JSON.stringify(Object.fromEntries(parts.map(([name, , state]) => [name, state ?? 'not there yet']))));
console.error(`demo: wrote ${readdirSync(out).length} files to dist/demo/`);
