// The npm package's README (npm/README.md) runs as written. Every fenced
// block is read from the file and checked by its info string:
//
// - ```js: an ES module run by Node in a fresh folder of a temp project whose
//   node_modules/@cloudhal/surfaces is a symlink to npm/, so the package's
//   specifiers resolve as for a user. A block that leaves public/index.html
//   behind (the published-page runtime's build script) has that page opened
//   in Chromium under the documented Content-Security-Policy, and the
//   surface on it must come alive: its first action, clicked, changes it.
// - ```js browser: a module imported by a page in headless Chromium whose
//   import map is the README's own (```html block holding
//   <script type="importmap">; the folder it names serves npm/), under the
//   documented policy plus that map's hash, as the README says.
// - ```js esbuild: bundled by esbuild with --loader:.wasm=file, then run in
//   Chromium under the documented policy.
// - ```js worker: bundled as Wrangler does (a .wasm import stays a module of
//   its own, a WebAssembly.Module), served by workerd through Miniflare, and
//   sent a POST of a valid surface: it must answer 200 with its verdict.
// - ```ts: type-checked by a strict tsc twice, with the DOM library and in a
//   Node-only setup.
// - ```text right after a js block (no heading or other block between): what
//   the block prints with console.log, line for line (trailing white space
//   aside). A js block without one must assert with node:assert.
// - ```html: parsed by Chromium's DOMParser, an import map's text as JSON.
// - ```json: parses; a surface (with components) is valid to the validator;
//   a node_modules/@cloudhal/surfaces/... path names an exported file.
// - Others (sh, a policy) are not run. The README's package specifiers
//   resolve through package.json's exports, and its links (files and
//   anchors) exist. Nothing here uses the network.
//
// Run: node --test tests/readme/ (npm/dist must be built: scripts/build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { launch, startServer, PAGE_CSP, root } from '../browser/e2e/harness.mjs';

const exec = promisify(execFile);
const PACKAGE = '@cloudhal/surfaces';
const README = join(root, 'npm/README.md');
const text = readFileSync(README, 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'npm/package.json'), 'utf8'));

/**
 * The fenced blocks of a markdown text, in order: `{line, lang, tags, body,
 * heading, expected}`; `expected` is the body of the ```text block that
 * follows a js block (nothing but prose between, no heading).
 */
function fences(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  let heading = '';
  let sinceLast = { heading: false };
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6}\s+(.*)$/.exec(lines[i]);
    if (h) {
      heading = h[1].trim();
      sinceLast.heading = true;
      continue;
    }
    const open = /^( *)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, marker, info] = open;
    const close = new RegExp(`^ *${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]); j++) body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    assert.ok(j < lines.length, `README line ${i + 1}: the block is never closed`);
    const [lang = '', ...tags] = info.trim().split(/\s+/).filter(Boolean);
    const block = { line: i + 1, lang, tags, body: body.join('\n') + '\n', heading, headingBefore: sinceLast.heading };
    const previous = blocks.at(-1);
    if (lang === 'text' && previous?.lang === 'js' && !block.headingBefore && previous.expected === undefined) {
      previous.expected = block.body;
      block.pairedWith = previous.line;
    }
    blocks.push(block);
    sinceLast = { heading: false };
    i = j;
  }
  return blocks;
}

const blocks = fences(text);
const js = blocks.filter((b) => b.lang === 'js');
const where = (b) => `README line ${b.line} (${b.heading}${b.tags.length ? `, ${b.tags.join(' ')}` : ''})`;

/** Lines as printed, trailing white space and trailing blank lines aside. */
const normal = (output) => output.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\n+$/, '');

const checkOutput = (block, output) => {
  if (block.expected !== undefined) assert.equal(normal(output), normal(block.expected), `${where(block)}: what it prints`);
};

// The temp project: node_modules/@cloudhal/surfaces -> npm/, a folder per block.
let project, browser;
const folder = (name) => {
  const dir = join(project, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
before(async () => {
  assert.ok(existsSync(join(root, 'npm/dist/studio/studio_bg.wasm')), 'npm/dist is built (scripts/build)');
  project = mkdtempSync(join(tmpdir(), 'surfaces-readme-'));
  mkdirSync(join(project, 'node_modules/@cloudhal'), { recursive: true });
  symlinkSync(join(root, 'npm'), join(project, 'node_modules', PACKAGE), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

/**
 * Opens `path` of a server in a fresh page and runs `body(page)`; resolves to
 * the page's console.log lines. Uncaught errors, console errors and warnings
 * fail (a missing favicon aside).
 */
async function inPage(server, path, body) {
  const page = await browser.newPage();
  const logs = [];
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'log') logs.push(m.text());
    else if ((m.type() === 'error' || m.type() === 'warning') && !m.location().url.endsWith('/favicon.ico')) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  try {
    await page.goto(`${server.origin}${path}`);
    await body(page);
  } finally {
    await page.close();
  }
  assert.deepEqual(problems, []);
  return logs.join('\n');
}

const withServer = async (options, f) => {
  const server = await startServer(options);
  try {
    return await f(server);
  } finally {
    await server.close();
  }
};
const mount = (dir) => relative(root, dir);

// The README's import map: the page the browser blocks run on.
const mapBlock = blocks.find((b) => b.lang === 'html' && b.body.includes('<script type="importmap">'));
const importMap = mapBlock && /<script type="importmap">([\s\S]*?)<\/script>/.exec(mapBlock.body)[1];

test('the README has the blocks this test runs', () => {
  assert.ok(js.filter((b) => b.tags.length === 0).length >= 5, 'Node blocks');
  assert.ok(js.some((b) => b.tags.includes('browser')), 'a browser block');
  assert.ok(importMap, 'an html block with the import map the browser blocks use');
  for (const b of js) {
    assert.ok(b.tags.every((t) => ['browser', 'esbuild', 'worker'].includes(t)), `${where(b)}: a tag this test knows`);
    if (!b.tags.includes('worker')) assert.ok(b.expected !== undefined || /from 'node:assert/.test(b.body), `${where(b)}: pins what it prints (a text block) or asserts`);
  }
  for (const b of blocks.filter((x) => x.lang === 'text')) assert.ok(b.pairedWith, `README line ${b.line}: a text block follows a js block`);
});

test('the import map maps each entry to its file in package.json exports, in one folder', () => {
  const { imports } = JSON.parse(importMap);
  const prefixes = new Set();
  for (const [specifier, url] of Object.entries(imports)) {
    assert.ok(specifier.startsWith(`${PACKAGE}/`), specifier);
    const target = pkg.exports[`.${specifier.slice(PACKAGE.length)}`]?.default;
    assert.ok(target, `${specifier} is an entry`);
    assert.ok(url.endsWith(target.slice(2)), `${specifier} maps to ${target}`);
    prefixes.add(url.slice(0, url.length - target.length + 2));
  }
  assert.equal(prefixes.size, 1, [...prefixes].join(', '));
});

for (const block of js.filter((b) => b.tags.length === 0)) {
  test(`Node: ${where(block)}`, { timeout: 120_000 }, async () => {
    const dir = folder(`node-${block.line}`);
    writeFileSync(join(dir, 'index.mjs'), block.body);
    let out;
    try {
      out = await exec(process.execPath, ['index.mjs'], { cwd: dir, timeout: 60_000 });
    } catch (e) {
      assert.fail(`${where(block)} failed:\n${e.stdout}\n${e.stderr}`);
    }
    assert.equal(out.stderr, '', `${where(block)}: nothing on standard error`);
    checkOutput(block, out.stdout);

    // A page the block built: served as a site under the documented policy; its surface comes alive.
    const page = join(dir, 'public/index.html');
    if (!existsSync(page)) return;
    await withServer({ mounts: { '/': mount(join(dir, 'public')) } }, (server) => inPage(server, '/', async (p) => {
      const changed = await p.evaluate(async () => {
        const surface = document.querySelector('[data-ch-surface]');
        const action = surface?.querySelector('[data-ch-action]');
        if (!action) return 'no surface with an action';
        const before = surface.innerHTML;
        // Until the runtime has loaded, a click does nothing; the first that works changes the surface.
        for (let i = 0; i < 100; i++) {
          action.click();
          await new Promise((r) => setTimeout(r, 50));
          if (surface.innerHTML !== before) return true;
        }
        return 'clicking its first action never changed the surface';
      });
      assert.equal(changed, true);
    }));
  });
}

for (const block of js.filter((b) => b.tags.includes('browser'))) {
  test(`Chromium: ${where(block)}`, { timeout: 120_000 }, async () => {
    const dir = folder(`browser-${block.line}`);
    writeFileSync(join(dir, 'index.mjs'), block.body);
    const { imports } = JSON.parse(importMap);
    const [specifier, url] = Object.entries(imports)[0];
    const prefix = url.slice(0, url.length - pkg.exports[`.${specifier.slice(PACKAGE.length)}`].default.length + 2);
    const hash = createHash('sha256').update(importMap).digest('base64');
    const csp = PAGE_CSP.replace("script-src 'self' 'wasm-unsafe-eval'", `script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`);
    assert.notEqual(csp, PAGE_CSP);
    const html = `<!doctype html><meta charset="utf-8"><title>README</title><script type="importmap">${importMap}</script><body></body>`;
    const output = await withServer({ mounts: { [prefix]: 'npm', '/block/': mount(dir) }, csp: () => csp, pages: { '/readme.html': html } },
      (server) => inPage(server, '/readme.html', (p) => p.evaluate((u) => import(u).then(() => undefined), '/block/index.mjs')));
    checkOutput(block, output);
  });
}

for (const block of js.filter((b) => b.tags.includes('esbuild'))) {
  test(`esbuild, then Chromium: ${where(block)}`, { timeout: 120_000 }, async () => {
    const dir = folder(`esbuild-${block.line}`);
    writeFileSync(join(dir, 'app.js'), block.body);
    await build({
      entryPoints: [join(dir, 'app.js')], absWorkingDir: dir, bundle: true, format: 'esm', loader: { '.wasm': 'file' },
      outdir: join(dir, 'out'), logLevel: 'error',
    });
    const output = await withServer({ mounts: { '/': mount(join(dir, 'out')) }, pages: { '/index.html': '<!doctype html><title>esbuild</title>' } },
      (server) => inPage(server, '/index.html', (p) => p.evaluate((u) => import(u).then(() => undefined), '/app.js')));
    checkOutput(block, output);
  });
}

for (const block of js.filter((b) => b.tags.includes('worker'))) {
  test(`Cloudflare Workers (workerd): ${where(block)}`, { timeout: 120_000 }, async () => {
    const dir = folder(`worker-${block.line}`);
    writeFileSync(join(dir, 'worker.js'), block.body);
    const out = join(dir, 'out');
    const require = createRequire(join(dir, 'worker.js'));
    // As Wrangler bundles: an imported .wasm stays a module of its own, beside the script.
    const wasmModules = {
      name: 'wasm-modules',
      setup(b) {
        b.onResolve({ filter: /\.wasm$/ }, (args) => {
          const file = require.resolve(args.path);
          mkdirSync(out, { recursive: true });
          copyFileSync(file, join(out, basename(file)));
          return { path: `./${basename(file)}`, external: true };
        });
      },
    };
    await build({ entryPoints: [join(dir, 'worker.js')], absWorkingDir: dir, bundle: true, format: 'esm', outdir: out, plugins: [wasmModules], logLevel: 'error' });
    const mf = new Miniflare({
      modules: true, modulesRoot: out, scriptPath: join(out, 'worker.js'), compatibilityDate: '2025-01-01',
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    });
    try {
      const surface = { id: 'hello', components: [{ id: 'root', component: 'Heading', props: { text: 'Hello' } }] };
      const res = await mf.dispatchFetch('http://localhost/', { method: 'POST', body: JSON.stringify(surface) });
      const body = await res.text();
      assert.equal(res.status, 200, body);
      assert.deepEqual(JSON.parse(body), { valid: true, issues: [] });
    } finally {
      await mf.dispose();
    }
  });
}

const tsBlocks = blocks.filter((b) => b.lang === 'ts');
// While the README says a full check (skipLibCheck false) reports TS2411 in
// types.d.ts, that check must report exactly that; once the types are fixed,
// it must pass and the README's sentence goes.
const knownLibErrors = text.includes('TS2411');
const tsc = async (name, lib, types, skipLibCheck) => {
  const dir = folder(`ts-${name}`);
  const files = tsBlocks.map((b) => {
    writeFileSync(join(dir, `block-${b.line}.ts`), b.body);
    return `block-${b.line}.ts`;
  });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, skipLibCheck, target: 'es2023', module: 'nodenext', moduleResolution: 'nodenext',
      lib, types, typeRoots: [join(root, 'node_modules/@types')],
    },
    files,
  }));
  try {
    await exec(join(root, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir, timeout: 90_000 });
    return [];
  } catch (e) {
    if (e.code === undefined || e.killed) throw e;
    return `${e.stdout}${e.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
  }
};
for (const [setup, lib, types] of [['with the DOM library', ['es2023', 'dom', 'dom.iterable'], []], ['Node-only', ['es2023'], ['node']]]) {
  const name = types.length ? 'node' : 'dom';
  test(`TypeScript, strict, ${setup}: every ts block type-checks`, { timeout: 120_000, skip: tsBlocks.length === 0 && 'no ts block' }, async () => {
    assert.deepEqual(await tsc(`${name}-skip`, lib, types, true), [], `tsc ${setup}, skipLibCheck true`);
    const full = await tsc(`${name}-full`, lib, types, false);
    if (knownLibErrors) {
      assert.ok(full.length > 0, 'a full check passes now: drop the TS2411 sentence from the README\'s TypeScript section');
      for (const line of full) assert.match(line, /npm\/types\.d\.ts\(\d+,\d+\): error TS2411:/, 'only the TS2411 errors the README names');
    } else {
      assert.deepEqual(full, [], `tsc ${setup}, skipLibCheck false`);
    }
  });
}

test('html blocks parse; an import map is JSON', async () => {
  const html = blocks.filter((b) => b.lang === 'html');
  assert.ok(html.length > 0);
  await withServer({ pages: { '/blank.html': '<!doctype html><title>html</title>' } }, (server) => inPage(server, '/blank.html', async (p) => {
    for (const b of html) {
      const parsed = await p.evaluate((source) => {
        const doc = new DOMParser().parseFromString(source, 'text/html');
        const own = doc.querySelectorAll('head > *, body *').length;
        const maps = [...doc.querySelectorAll('script[type="importmap"]')].map((s) => s.textContent);
        return { own, maps };
      }, b.body);
      assert.ok(parsed.own > 0, `README line ${b.line}: elements of its own`);
      for (const map of parsed.maps) assert.ok(JSON.parse(map).imports, `README line ${b.line}: an import map with imports`);
    }
  }));
});

test('json blocks parse; a surface is valid; package paths name exported files', async () => {
  const json = blocks.filter((b) => b.lang === 'json');
  assert.ok(json.length > 0);
  const validator = await import(join(root, 'npm', pkg.exports['./validator'].default));
  await validator.default();
  const require = createRequire(join(project, 'index.js'));
  for (const b of json) {
    const value = JSON.parse(b.body);
    if (Array.isArray(value.components)) assert.deepEqual(validator.validate(value), { valid: true, issues: [] }, `README line ${b.line}`);
    for (const [, file] of b.body.matchAll(/node_modules\/@cloudhal\/surfaces\/([^"]+)/g)) {
      assert.ok(existsSync(require.resolve(`${PACKAGE}/${file}`)), `README line ${b.line}: ${file}`);
    }
  }
});

test('every package specifier the README names resolves through the exports', () => {
  const require = createRequire(join(project, 'index.js'));
  const named = new Set([...text.matchAll(/@cloudhal\/surfaces\/[\w@./-]+/g)].map((m) => m[0].replace(/[.]+$/, '')));
  assert.ok(named.size >= 8, [...named].join(', '));
  for (const specifier of named) {
    let file;
    try {
      file = require.resolve(specifier);
    } catch (e) {
      assert.fail(`${specifier}: ${e.message}`);
    }
    assert.ok(existsSync(file), `${specifier} -> ${file}`);
  }
});

/** GitHub's anchors for the headings of a markdown text. */
const anchors = (markdown) => {
  const seen = new Map();
  const out = new Set();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^ *(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const h = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = h[1].trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
};

test('links name files that exist, and anchors that exist in them', () => {
  const prose = text.replace(/^( *)(`{3,}|~{3,})[\s\S]*?^\1\2\s*$/gm, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
  assert.ok(links.length > 0);
  for (const link of links) {
    const [path, anchor] = link.split('#');
    const file = path ? resolve(dirname(README), path) : README;
    assert.ok(existsSync(file), `${link}: ${file}`);
    if (anchor !== undefined) assert.ok(anchors(readFileSync(file, 'utf8')).has(anchor), `${link}: the anchor #${anchor}`);
  }
});
