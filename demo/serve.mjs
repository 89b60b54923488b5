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

/**
 * Starts a server on 127.0.0.1. `mounts` maps URL prefixes to folders (longest
 * prefix first), `csp(pathname)` returns the policy for an HTML response (or
 * null for none), `pages` maps a pathname to generated HTML. Resolves to
 * `{ server, origin, close }`.
 */
export function startServer({ port = 0, mounts = DEMO_MOUNTS, csp = () => PAGE_CSP, pages = {} } = {}) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    try {
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
