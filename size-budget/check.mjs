// The size-budget check: measures every artifact (raw, gzip -9, brotli),
// prints a table against size-budget/budgets.json, prints `twiggy top` for any
// artifact over budget, and exits 1 when a shipped one is over. A part marked
// "ships": false is built into target/unshipped/ (scripts/build) and never
// shipped: it is measured and reported, with what it still has to lose, and
// the line says when it fits and may ship. Run after scripts/build.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
const budgets = JSON.parse(readFileSync(join(root, 'size-budget/budgets.json'), 'utf8'));

// Files that make up each artifact, as a user downloads them.
function files(name, shipped) {
  if (name === 'runtime') {
    const dir = shipped ? join(root, 'dist/site') : join(target, 'unshipped/site');
    if (!existsSync(dir)) return [join(dir, 'surface.<hash>.js')];
    return readdirSync(dir).filter((f) => /^surface\.[0-9a-f]+\.(js|wasm)$/.test(f)).map((f) => join(dir, f));
  }
  const dir = shipped ? join(root, 'npm/dist', name) : join(target, 'unshipped/npm', name);
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
const over = [];
const notes = [];
for (const [name, budget] of Object.entries(budgets)) {
  const shipped = budget.ships !== false;
  const list = files(name, shipped);
  const missing = list.filter((f) => !existsSync(f));
  if (missing.length || list.length < 2) {
    console.error(`size-budget: ${name}: missing ${missing.join(', ') || 'files'} (run scripts/build)`);
    process.exit(1);
  }
  const total = list.map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }));
  const fits = total.gzip <= budget.gzip;
  rows.push([name, total.raw, total.gzip, total.brotli, budget.gzip, budget.gzip - total.gzip, shipped ? 'yes' : 'no']);
  if (!fits) over.push(name);
  if (!shipped) notes.push(fits ? `${name} fits its budget now: set "ships": true in size-budget/budgets.json` : `${name} is not shipped: ${total.gzip - budget.gzip} B gzip over its budget`);
}

const head = ['artifact', 'raw', 'gzip -9', 'brotli', 'budget (gzip)', 'headroom', 'shipped'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => '| ' + cells.map((c, i) => (i && i < 6 ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ') + ' |';
console.log(line(head));
console.log('|' + widths.map((w, i) => (i && i < 6 ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|');
for (const r of rows) console.log(line(r));
for (const n of notes) console.log(n);

for (const name of over) {
  // Names survive in wasm-bindgen's output; the shipped wasm is stripped.
  const wasm = join(target, 'bindgen', name, `${name}_bg.wasm`);
  console.log(`\n${name} is over its budget; twiggy top of ${wasm}:`);
  try {
    // The code, not the debug info the unoptimized module still carries.
    const top = execFileSync('twiggy', ['top', '-n', '40', wasm], { encoding: 'utf8' }).split('\n');
    console.log(top.filter((l) => !/custom section '\.debug_|"function names"/.test(l)).slice(0, 30).join('\n'));
  } catch (e) {
    console.log(`(twiggy failed: ${e.message})`);
  }
}
const overShipped = over.filter((name) => budgets[name].ships !== false);
if (overShipped.length) {
  console.error(`size-budget: shipped artifacts over budget: ${overShipped.join(', ')}`);
  process.exit(1);
}
console.log(`size-budget: every shipped artifact is within its budget (${rows.filter((r) => r[6] === 'yes').length} shipped, ${notes.length} held back)`);
