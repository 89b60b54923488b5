// The size-budget check: measures every shipped artifact (raw, gzip -9,
// brotli), prints a table against size-budget/budgets.json, prints `twiggy top`
// for any artifact over budget, and exits 1 when one is. Run after scripts/build.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const budgets = JSON.parse(readFileSync(join(root, 'size-budget/budgets.json'), 'utf8'));

// Files that make up each artifact, as a user downloads them.
function files(name) {
  if (name === 'runtime') {
    const dir = join(root, 'dist/site');
    return readdirSync(dir).filter((f) => /^surface\.[0-9a-f]+\.(js|wasm)$/.test(f)).map((f) => join(dir, f));
  }
  const dir = join(root, 'npm/dist', name);
  const entries = name === 'studio' ? ['studio', 'validator', 'stream', 'render'] : [name];
  return [join(root, 'npm/init.js'), ...entries.map((e) => join(root, 'npm', `${e}.js`)), join(dir, `${name}.js`), join(dir, `${name}_bg.wasm`)];
}

const sizes = (file) => {
  const bytes = readFileSync(file);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};

const rows = [];
let over = [];
for (const [name, budget] of Object.entries(budgets)) {
  const list = files(name);
  const missing = list.filter((f) => !existsSync(f));
  if (missing.length || list.length === 0) {
    console.error(`size-budget: ${name}: missing ${missing.join(', ') || 'files'} (run scripts/build)`);
    process.exit(1);
  }
  const total = list.map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }));
  rows.push([name, total.raw, total.gzip, total.brotli, budget.gzip, budget.gzip - total.gzip]);
  if (total.gzip > budget.gzip) over.push(name);
}

const head = ['artifact', 'raw', 'gzip -9', 'brotli', 'budget (gzip)', 'headroom'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => '| ' + cells.map((c, i) => (i ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ') + ' |';
console.log(line(head));
console.log('|' + widths.map((w, i) => (i ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|');
for (const r of rows) console.log(line(r));

for (const name of over) {
  // Names survive in wasm-bindgen's output; the shipped wasm is stripped.
  const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
  const wasm = join(target, 'bindgen', name, `${name}_bg.wasm`);
  console.log(`\n${name} is over its budget; twiggy top of ${wasm}:`);
  try {
    console.log(execFileSync('twiggy', ['top', '-n', '25', wasm], { encoding: 'utf8' }));
  } catch (e) {
    console.log(`(twiggy failed: ${e.message})`);
  }
}
if (over.length) {
  console.error(`size-budget: over budget: ${over.join(', ')}`);
  process.exit(1);
}
console.log(`size-budget: ${rows.length} artifacts within budget`);
