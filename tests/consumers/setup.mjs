// Shared by the consumer tests: the package as a registry user gets it.
// `packed()` runs `npm pack` of npm/ (once per test file) and installs the
// tarball offline into a template project kept in the temp folder under the
// tarball's hash, so the files of a run share one install; `consumer()` makes
// a fresh project outside the repository from that install, with the build
// tools linked in from the repository's own node_modules (no network). Also
// the one static server these tests use, with the headers a test asks for.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const PACKAGE = '@cloudhal/surfaces';
const CACHE = join(tmpdir(), 'cloudhal-surfaces-consumers');
const keep = Boolean(process.env.KEEP_CONSUMERS);

const exec = promisify(execFile);

/** Runs a command; resolves to {stdout, stderr}, rejects with both in the message. */
export async function run(file, args, options = {}) {
  try {
    return await exec(file, args, { maxBuffer: 64 << 20, ...options });
  } catch (e) {
    e.message = `${file} ${args.join(' ')} failed (${e.code}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`;
    throw e;
  }
}

let pack;
/**
 * `npm pack` of npm/: `{tarball, sha, files, template}` (`files`: the paths
 * in the tarball, `package/` stripped; `template`: a project with the tarball
 * installed offline). Another session may be running scripts/build, which
 * empties npm/dist first: a tarball missing a file that package.json exports
 * is packed again, for up to PACK_WAIT seconds (default 300).
 */
export function packed() {
  return (pack ??= (async () => {
    const deadline = Date.now() + Number(process.env.PACK_WAIT ?? 300) * 1000;
    for (;;) {
      const missing = [];
      const result = await packOnce(missing);
      if (result) return result;
      if (Date.now() > deadline) throw new Error(`the packed package lacks what package.json exports (is npm/dist built? run scripts/build): ${missing.join(', ')}`);
      await new Promise((r) => setTimeout(r, 3000));
    }
  })());
}

/** The files an installed package lacks: export targets, and the runtime files its manifest names. */
function lacking(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const targets = [];
  for (const [key, value] of Object.entries(manifest.exports ?? {})) {
    if (key.includes('*')) continue;
    targets.push(...(typeof value === 'string' ? [value] : Object.values(value)));
  }
  const missing = targets.filter((t) => !existsSync(join(dir, t)));
  const runtime = manifest.exports?.['./runtime'];
  if (runtime && existsSync(join(dir, runtime))) {
    for (const file of Object.values(JSON.parse(readFileSync(join(dir, runtime), 'utf8')))) {
      if (!existsSync(join(dir, dirname(runtime), file))) missing.push(join(dirname(runtime), file));
    }
  }
  return missing;
}

async function packOnce(missing) {
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(join(CACHE, 'pack-'));
  try {
    const { stdout } = await run('npm', ['pack', join(root, 'npm'), '--pack-destination', scratch, '--json', '--silent']);
    const [{ filename }] = JSON.parse(stdout);
    const bytes = readFileSync(join(scratch, filename));
    const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const home = join(CACHE, sha);
    const tarball = join(home, filename);
    const template = join(home, 'template');
    const installed = join(template, 'node_modules', PACKAGE);
    if (!existsSync(join(installed, 'package.json'))) {
      // Installed in the scratch folder, then moved into place whole: a
      // concurrent run sees either nothing or a finished install.
      const project = join(scratch, 'template');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      await run('npm', ['install', '--no-save', '--offline', '--no-audit', '--no-fund', '--silent', join(scratch, filename)], { cwd: project });
      missing.push(...lacking(join(project, 'node_modules', PACKAGE)));
      if (missing.length) return null;
      mkdirSync(home, { recursive: true });
      try {
        renameSync(join(scratch, filename), tarball);
        renameSync(project, template);
      } catch (e) {
        if (!existsSync(join(installed, 'package.json'))) throw e;
      }
    }
    // Installs of other trees, left by runs more than a day old.
    for (const name of readdirSync(CACHE)) {
      const path = join(CACHE, name);
      if (name !== sha && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
    }
    const listing = (await run('tar', ['-tzf', tarball])).stdout;
    const files = listing.split('\n').filter(Boolean).map((p) => p.replace(/^package\//, ''));
    return { tarball, sha, files, template };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A new consumer project in the temp folder: `package.json` (an ES module
 * project), the package installed from the tarball, `tools` (names of the
 * repository's dev dependencies, such as 'vite' or '@types/node') linked into
 * its node_modules, and `files` (path -> text) written. `remove()` deletes it
 * (kept when KEEP_CONSUMERS is set, to look at after a failure).
 */
export async function consumer(name, { tools = [], files = {} } = {}) {
  const { template } = await packed();
  const dir = mkdtempSync(join(tmpdir(), `cloudhal-consumer-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }, null, 2));
  cpSync(join(template, 'node_modules'), join(dir, 'node_modules'), { recursive: true });
  for (const tool of tools) {
    const target = join(root, 'node_modules', tool);
    if (!existsSync(target)) throw new Error(`${tool} is not in the repository's node_modules: run scripts/setup`);
    mkdirSync(dirname(join(dir, 'node_modules', tool)), { recursive: true });
    symlinkSync(target, join(dir, 'node_modules', tool), 'dir');
  }
  write(dir, files);
  return {
    dir,
    path: (...parts) => join(dir, ...parts),
    write: (more) => write(dir, more),
    remove: () => keep || rmSync(dir, { recursive: true, force: true }),
  };
}

function write(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
};

/**
 * Serves `dir` on 127.0.0.1 (a free port): `.wasm` as application/wasm, a
 * folder as its index.html, and `headers` (name -> value) on every HTML
 * response. Resolves to `{origin, requests, close}`; `requests` lists the
 * paths asked for.
 */
export function serve(dir, { headers = {} } = {}) {
  const base = normalize(dir);
  const requests = [];
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    requests.push(pathname);
    try {
      let file = normalize(join(base, decodeURIComponent(pathname)));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...(type.startsWith('text/html') ? headers : {}) }).end(body);
    } catch (e) {
      const missing = e.code === 'ENOENT' || e.code === 'ENOTDIR';
      res.writeHead(missing ? 404 : 500, { 'content-type': 'text/plain' }).end(missing ? 'not found' : String(e));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ origin, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * Opens `url` in `browser` and waits until `#result` holds something other
 * than "pending": `{page, result, errors, consoleMessages, failed}` (`failed`:
 * responses of 400 and above, and failed requests).
 */
export async function openResult(browser, url, { timeout = 20_000 } = {}) {
  const page = await browser.newPage();
  const errors = [];
  const consoleMessages = [];
  const failed = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => consoleMessages.push({ type: m.type(), text: m.text() }));
  page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && failed.push(`${r.url()}: ${r.status()}`));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('result')?.textContent !== 'pending', null, { timeout });
  const text = await page.textContent('#result');
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    result = { unparsed: text };
  }
  return { page, result, errors, consoleMessages, failed };
}
