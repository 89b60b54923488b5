// The two hand-written loaders (crates/interaction-runtime/js/surface.js,
// crates/morph/js/morph.js) against the wasm modules they load, as
// scripts/build made them (dist/artifacts.json). Each loader is run in Node
// (the runtime's over a stand-in document that has no surfaces) and the
// import object it hands to WebAssembly.instantiate is taken from the call:
// it must name exactly the module's imports, each a function taking as many
// parameters as the module passes (a default parameter standing in for a
// local would take a new argument silently). Every export the loader's
// source calls must be one of the module's exports, of the kind its use
// needs. Run: node --test tests/loaders/ (after scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifacts } from '../../scripts/artifacts.mjs';
import { root } from '../../demo/serve.mjs';

const parts = artifacts();
const LOADERS = {
  // The runtime's two modules, each behind the one loader: the one with
  // the function set for a page whose surfaces hold a call, and the one
  // without.
  runtime: {
    source: join(root, 'crates/interaction-runtime/js/surface.js'),
    wasm: parts.runtime.files.find((f) => f.endsWith('.wasm')),
  },
  'runtime-nocalls': {
    source: join(root, 'crates/interaction-runtime/js/surface.js'),
    wasm: parts['runtime-nocalls'].files.find((f) => f.endsWith('.wasm')),
  },
  morph: { source: join(root, 'crates/morph/js/morph.js'), wasm: join(parts.morph.dir, 'morph_bg.wasm') },
};

/** The parameter count of each function import of a wasm binary, by "module.name". */
function importArity(bytes) {
  let at = 8; // past the magic number and the version
  const u32 = () => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
    }
  };
  const name = () => {
    const len = u32();
    return new TextDecoder().decode(bytes.subarray(at, (at += len)));
  };
  const types = [];
  const arity = new Map();
  while (at < bytes.length) {
    const id = bytes[at++];
    const end = u32() + at;
    if (id == 1) {
      // The type section: func types (0x60, params, results), valtypes one byte each.
      for (let n = u32(); n--; ) {
        assert.equal(bytes[at++], 0x60, 'a func type');
        const params = u32();
        types.push(params);
        at += params;
        const results = u32();
        at += results;
      }
    } else if (id == 2) {
      for (let n = u32(); n--; ) {
        const key = `${name()}.${name()}`;
        const kind = bytes[at++];
        assert.equal(kind, 0, `${key}: only functions are imported`);
        arity.set(key, types[u32()]);
      }
    }
    at = end;
  }
  return arity;
}

/**
 * Runs `load()`, which imports a loader and gets it to instantiate `wasm`
 * (bytes), and resolves to the import object it passed with them.
 */
async function instantiated(wasm, load) {
  const instantiate = WebAssembly.instantiate;
  try {
    const seen = new Promise((resolve) => {
      WebAssembly.instantiate = (source, imports) => {
        if (source === wasm) resolve(imports);
        return instantiate(source, imports);
      };
    });
    await load();
    // A loader that never instantiates fails here, rather than hanging the run.
    const late = new Promise((_, reject) => {
      setTimeout(() => reject(new Error('the loader did not instantiate its module within 30 s')), 30_000).unref();
    });
    return await Promise.race([seen, late]);
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

/** A wasm file's bytes, in an ArrayBuffer of their own. */
const bytesOf = (file) => new Uint8Array(readFileSync(file)).buffer;

// The runtime starts itself once the document is ready: a document without
// surfaces (one whose query for a call finds one, or none), and the wasm it
// names as fetched (the loader reads the response's ok and arrayBuffer()).
const runtime = (part, call) => () => {
  const wasm = bytesOf(LOADERS[part].wasm);
  return instantiated(wasm, async () => {
    Object.assign(globalThis, {
      WASM: basename(LOADERS.runtime.wasm),
      NOCALLS: basename(LOADERS['runtime-nocalls'].wasm),
      document: { readyState: 'complete', querySelector: () => call, querySelectorAll: () => [], addEventListener() {} },
      fetch: async (url) => {
        assert.equal(basename(url.pathname), basename(LOADERS[part].wasm), 'the module the page needs');
        return { ok: true, status: 200, arrayBuffer: async () => wasm };
      },
    });
    // (A fresh instance of the loader for each.)
    await import(`${pathToFileURL(LOADERS[part].source)}?${part}`);
  });
};
const loaded = {
  runtime: runtime('runtime', {}),
  'runtime-nocalls': runtime('runtime-nocalls', null),
  morph: () => {
    const wasm = bytesOf(LOADERS.morph.wasm);
    return instantiated(wasm, async () => {
      const { default: init } = await import(pathToFileURL(LOADERS.morph.source));
      await init({ module_or_path: wasm });
    });
  },
};
const run = {};
const once = (part) => (run[part] ??= loaded[part]());

/** Every `E.name` in a loader's source, with the kind of export its use needs. */
function calledExports(source) {
  const KIND = { '(': 'function', '.buffer': 'memory', '.value': 'global' };
  const uses = new Map();
  for (const [use, name, after] of source.matchAll(/\bE\.(\w+)(\(|\.buffer\b|\.value\b)?/g)) {
    assert.ok(KIND[after], `${use}: neither a call, nor a memory's buffer, nor a global's value`);
    assert.ok(!uses.has(name) || uses.get(name) == KIND[after], `E.${name} used as two kinds`);
    uses.set(name, KIND[after]);
  }
  return uses;
}

for (const [part, { source, wasm }] of Object.entries(LOADERS)) {
  const bytes = readFileSync(wasm);
  const module = new WebAssembly.Module(bytes);

  test(`${part}: the loader's import object is exactly the module's imports, each taking the parameters the module passes`, async () => {
    const imports = await once(part);
    const provided = Object.entries(imports).flatMap(([m, fields]) =>
      Object.entries(fields).map(([name, f]) => `${m}.${name} ${typeof f == 'function' ? `function/${f.length}` : typeof f}`),
    );
    const arity = importArity(bytes);
    const wanted = WebAssembly.Module.imports(module).map(({ module: m, name, kind }) => `${m}.${name} ${kind}/${arity.get(`${m}.${name}`)}`);
    assert.deepEqual(provided.sort(), wanted.sort());
  });

  test(`${part}: every export the loader calls is the module's, of the kind its use needs`, () => {
    const uses = calledExports(readFileSync(source, 'utf8'));
    assert.ok(uses.size > 0, 'the source calls exports through E');
    const exports = new Map(WebAssembly.Module.exports(module).map(({ name, kind }) => [name, kind]));
    for (const [name, kind] of uses) assert.equal(exports.get(name), kind, `E.${name}`);
  });
}
