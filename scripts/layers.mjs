// Checks that no crate of the workspace has an import cycle between its
// modules: a module (a file `src/x.rs` or a folder `src/x/`) may use the
// modules below it, never one that uses it back, however indirectly. Reads
// every `crate::x` path outside comments. Run by scripts/test; exits 1 and
// names each cycle found.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.rs') ? [path] : [];
  });
}

/// The module graph of one crate's `src`: module -> the modules it uses.
function graph(src) {
  const uses = new Map();
  for (const file of files(src)) {
    const module = relative(src, file).split(sep)[0].replace(/\.rs$/, '');
    if (module === 'lib' || module === 'main') continue;
    const code = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
    const deps = uses.get(module) ?? new Set();
    for (const [, name] of code.matchAll(/\bcrate::([a-z_][a-z0-9_]*)/g)) deps.add(name);
    for (const [, group] of code.matchAll(/\bcrate::\{([^}]*)\}/g)) {
      for (const [, name] of group.matchAll(/(?:^|[\s,])([a-z_][a-z0-9_]*)/g)) deps.add(name);
    }
    deps.delete(module);
    uses.set(module, deps);
  }
  for (const deps of uses.values()) for (const d of deps) if (!uses.has(d)) deps.delete(d);
  return uses;
}

/// The strongly connected components with more than one module (Tarjan).
function cycles(uses) {
  const index = new Map(), low = new Map(), stack = [], on = new Set(), found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of uses.get(v)) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); on.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of uses.keys()) if (!index.has(v)) visit(v);
  return found;
}

let failed = false;
const crates = join(root, 'crates');
for (const crate of readdirSync(crates).sort()) {
  const src = join(crates, crate, 'src');
  try { statSync(src); } catch { continue; }
  for (const cycle of cycles(graph(src))) {
    failed = true;
    console.error(`crates/${crate}: modules that use each other: ${cycle.join(', ')}`);
  }
}
if (failed) process.exit(1);
console.log('layers: no import cycle between the modules of any crate');
