// The one static server of the project: the demo (`node demo/serve.mjs`) and
// the browser tests (`startServer`) both use it. Loopback only; `.wasm` as
// application/wasm; every HTML page under the Content-Security-Policy that
// SPEC.md section 10 documents, unless a test asks for another.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE_CSP = "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'";

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml', '.ts': 'text/plain; charset=utf-8',
};

/** URL prefix -> folder (relative to the repository) served by default. */
export const DEMO_MOUNTS = { '/_cloudhal/': 'dist/site', '/npm/': 'npm', '/': 'dist/demo' };

let recorded;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * GET /session: the recorded build session (demo/session.mjs) as AG-UI
 * server-sent events, written by @ag-ui/encoder, `?delay=MS` apart (default
 * 40: model speed). `?from=N` is a reconnect after N events: the server's
 * draft at that point as a STATE_SNAPSHOT, then the events after it.
 * `?to=N` ends the response after the N-th event sent, as a connection
 * lost in the middle of a run (the end-to-end tests use it).
 */
async function session(req, res, url) {
  const { recordedSession } = await import('./session.mjs');
  const { EventEncoder } = await import('@ag-ui/encoder');
  const { events, drafts } = await (recorded ??= recordedSession());
  const from = Math.min(Math.max(0, Math.trunc(Number(url.searchParams.get('from'))) || 0), events.length);
  const delay = Math.max(0, Number(url.searchParams.get('delay') ?? 40) || 0);
  const encoder = new EventEncoder();
  res.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  let closed = false;
  req.on('close', () => (closed = true));
  const all = from > 0 ? [{ type: 'STATE_SNAPSHOT', snapshot: drafts[from - 1] }, ...events.slice(from)] : events;
  const to = url.searchParams.get('to');
  const list = to === null ? all : all.slice(0, Math.max(0, Math.trunc(Number(to)) || 0));
  for (const event of list) {
    if (closed) return;
    res.write(encoder.encode(event));
    if (delay) await sleep(delay);
  }
  res.end();
}

/** Pathname -> handler(req, res, url) for what is not a file, served by default. */
export const DEMO_ROUTES = { '/session': session };

/**
 * Starts a server on 127.0.0.1. `mounts` maps URL prefixes to folders (longest
 * prefix first), `csp(pathname)` returns the policy for an HTML response (or
 * null for none), `pages` maps a pathname to generated HTML, `routes` a
 * pathname to a handler (the recorded session's events). Resolves to
 * `{ server, origin, close }`.
 */
export function startServer({ port = 0, mounts = DEMO_MOUNTS, csp = () => PAGE_CSP, pages = {}, routes = DEMO_ROUTES } = {}) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const { pathname } = url;
    try {
      if (Object.hasOwn(routes, pathname)) return await routes[pathname](req, res, url);
      let body, type;
      if (pathname in pages) {
        body = typeof pages[pathname] === 'function' ? await pages[pathname](req) : pages[pathname];
        type = TYPES['.html'];
      } else {
        const prefix = prefixes.find((p) => pathname.startsWith(p));
        if (!prefix) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
        const base = join(root, mounts[prefix]);
        let file = normalize(join(base, decodeURIComponent(pathname.slice(prefix.length))));
        if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
        if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
        body = await readFile(file);
        type = TYPES[extname(file)] ?? 'application/octet-stream';
      }
      const headers = { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
      const policy = type.startsWith('text/html') ? csp(pathname) : null;
      if (policy) headers['content-security-policy'] = policy;
      res.writeHead(200, headers).end(body);
    } catch (e) {
      if (res.headersSent) return void res.end();
      const missing = e.code === 'ENOENT' || e.code === 'ENOTDIR';
      res.writeHead(missing ? 404 : 500, { 'content-type': 'text/plain' }).end(missing ? 'not found' : String(e));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ server, origin, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  const { origin } = await startServer({ port });
  console.log(`demo: serving on ${origin}/ (article: ${origin}/article.html, build: ${origin}/build.html); Ctrl-C stops`);
}
