// The artifact manifest, dist/artifacts.json: for each part scripts/build
// made, whether it ships and where its files are. It is the one answer to
// "is part X shipped, and where was it built?": the size check, the
// end-to-end tests, the demo and the benchmarks read it through artifacts();
// only scripts/build reads the "ships" flags of size-budget/budgets.json,
// and writes the manifest when everything is built:
//
//   {"parts": {"runtime": {"ships": true, "dir": "dist/site",
//     "files": ["dist/site/surface.<hash>.js", "dist/site/surface.<hash>.wasm"],
//     "namedWasm": "target/bindgen/runtime/runtime_bg.wasm"}, ...}}
//
// `dir` is where the part was built (npm/dist/<part>/ or dist/site/ when it
// ships, target/unshipped/... when it is held back), `files` everything a
// user downloads for it, `namedWasm` its wasm before names were stripped
// (for twiggy). Paths are relative to the repository (absolute when outside
// it, as under a CARGO_TARGET_DIR elsewhere).
//
//   node scripts/artifacts.mjs write --part NAME --ships yes|no --dir DIR \
//     --named-wasm FILE --file FILE... [--part ...]   (scripts/build)
//   node scripts/artifacts.mjs bundle-files META.json OUTDIR ENTRY...
//     (scripts/build: the files of the npm bundle an entry loads)
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MANIFEST = join(root, 'dist/artifacts.json');

/** The parts of the last build: {name: {ships, dir, files, namedWasm}}, paths absolute. */
export function artifacts() {
  if (!existsSync(MANIFEST)) throw new Error(`${relative(root, MANIFEST)} is missing: run scripts/build`);
  const { parts } = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const at = (p) => resolve(root, p);
  return Object.fromEntries(Object.entries(parts).map(([name, p]) =>
    [name, { ships: p.ships, dir: at(p.dir), files: p.files.map(at), namedWasm: at(p.namedWasm) }]));
}

function write(args) {
  const parts = {};
  let part;
  const path = (p) => {
    const rel = relative(root, resolve(p));
    return rel.startsWith('..') || isAbsolute(rel) ? resolve(p) : rel;
  };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`artifacts: ${flag} needs a value`);
    if (flag === '--part') part = parts[value] = { ships: null, dir: null, files: [], namedWasm: null };
    else if (!part) throw new Error(`artifacts: ${flag} before --part`);
    else if (flag === '--ships') part.ships = value === 'yes';
    else if (flag === '--dir') part.dir = path(value);
    else if (flag === '--named-wasm') part.namedWasm = path(value);
    else if (flag === '--file') part.files.push(path(value));
    else throw new Error(`artifacts: unknown flag ${flag}`);
  }
  for (const [name, p] of Object.entries(parts)) {
    const missing = [p.dir, p.namedWasm, ...p.files].filter((f) => !f || !existsSync(resolve(root, f)));
    if (p.ships === null || !p.files.length || missing.length) throw new Error(`artifacts: ${name}: incomplete (${missing.join(', ') || 'no files'})`);
  }
  mkdirSync(dirname(MANIFEST), { recursive: true });
  writeFileSync(MANIFEST, JSON.stringify({ parts }, null, 2) + '\n');
}

/**
 * The files of a split esbuild bundle (its metafile) that `entries` load:
 * each entry's output and, transitively, the chunks it imports; names
 * relative to `outdir`, one per line.
 */
function bundleFiles(metafile, outdir, entries) {
  const { outputs } = JSON.parse(readFileSync(metafile, 'utf8'));
  const byName = (name) => relative(resolve(outdir), resolve(name));
  const seen = new Set();
  const visit = (out) => {
    const name = byName(out);
    if (seen.has(name)) return;
    seen.add(name);
    for (const i of outputs[out].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  for (const entry of entries) {
    const out = Object.keys(outputs).find((o) => outputs[o].entryPoint && basename(outputs[o].entryPoint) === `${entry}.js`);
    if (!out) throw new Error(`artifacts: no bundle output for the entry ${entry}`);
    visit(out);
  }
  console.log([...seen].join('\n'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'write') write(args);
  else if (command === 'bundle-files') bundleFiles(args[0], args[1], args.slice(2));
  else {
    console.error('usage: node scripts/artifacts.mjs write --part NAME --ships yes|no --dir DIR --named-wasm FILE --file FILE... [--part ...]\n       node scripts/artifacts.mjs bundle-files META.json OUTDIR ENTRY...');
    process.exit(2);
  }
}
