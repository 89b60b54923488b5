// What the generated figures are written with: the size check's tables
// (docs/size.md) and each benchmark's section (docs/performance.md, by
// scripts/bench --write) are markdown, readable as printed.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A markdown table, columns padded; a column whose cells all start with a digit is right-aligned. */
export function table(head, rows) {
  const cells = rows.map((r) => r.map(String));
  const right = head.map((_, i) => cells.length > 0 && cells.every((r) => /^[-+]?\d/.test(r[i])));
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) => '| ' + r.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (right[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(head), rule, ...cells.map(line)].join('\n');
}

/** The installed version of an npm dev dependency (a peer a benchmark runs against). */
export const version = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
