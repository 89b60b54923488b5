// What every entry throws, and the edge where values become JSON text and back.

/** The only error any entry throws: `code` from the reference, `path` a JSON Pointer or "". */
export class SurfacesError extends Error {
  // Named here: minifying renames the class, and Node prints an error by its
  // constructor's name (`e [SurfacesError]: ...` otherwise).
  static name = 'SurfacesError';
  /** @param {string} code @param {string} path @param {string} message */
  constructor(code, path, message) {
    super(message);
    this.name = SurfacesError.name;
    this.code = code;
    this.path = path;
  }
}

// The wasm throws an Error whose message is {"code","path","message"} as JSON;
// anything else (a trap) is a fault of ours, reported as internal_error.
const rethrown = (e) => {
  if (e instanceof SurfacesError) return e;
  const message = String(e?.message ?? e);
  if (message.startsWith('{"code"')) {
    const { code, path, message: text } = JSON.parse(message);
    return new SurfacesError(code, path, text);
  }
  return new SurfacesError('internal_error', '', message);
};

/** Runs `f`, turning what it throws into a SurfacesError. */
export const run = (f) => {
  try {
    return f();
  } catch (e) {
    throw rethrown(e);
  }
};

/** A value or its JSON text, as JSON text for the wasm (`at`: the argument's pointer in errors). */
export const text = (value, at = '') => {
  if (typeof value === 'string') return value;
  let json;
  try {
    json = JSON.stringify(value);
  } catch (e) {
    throw new SurfacesError('invalid_json', at, `the value is not JSON: ${e.message}`);
  }
  if (json === undefined) throw new SurfacesError('invalid_json', at, `expected a JSON value or its text, got ${typeof value}`);
  return json;
};

/** A string argument, or invalid_option naming it. */
export const string = (value, at, what) => {
  if (typeof value !== 'string') throw new SurfacesError('invalid_option', at, `${what} is a string, got ${typeof value}`);
  return value;
};

/**
 * The part's loader: `init(input?)` loads the wasm once (called again after a
 * failure, it tries again), `initSync(input)` from a module or bytes, and
 * `need()`, which every call makes first. `initSync` is the glue's own (a
 * `WebAssembly.Module` or bytes, instantiated at once); `where` gives the
 * wasm's URL, asked only when `init` gets no input (`import.meta.url` is not
 * defined everywhere: Cloudflare Workers).
 *
 * `init` compiles the module here and instantiates it through the glue's
 * `initSync` once compiled, unless an `initSync` loaded it meanwhile: a
 * second instance would replace the first under every object made from it
 * (a `Draft` made in between would then read another memory).
 */
export function loader(part, glueInitSync, where) {
  let state; // undefined, the pending promise, or true once loaded
  const failed = (e) => new SurfacesError('init_failed', '', `the ${part} WebAssembly did not load: ${e?.message ?? e}`);
  const load = async (input) => {
    let source = input;
    if (source === undefined) {
      try {
        source = where();
      } catch {
        throw new SurfacesError('init_failed', '', `init() has no module to load: import.meta.url is not defined here (as in Cloudflare Workers); pass it, as in: import wasm from '@cloudhal/surfaces/${part}.wasm'; await init(wasm)`);
      }
    }
    let module;
    try {
      source = await source;
      if (typeof source === 'string' || source instanceof URL || (typeof Request === 'function' && source instanceof Request)) {
        // A URL is fetched; a file: one is read, in Node, whose fetch reads none.
        const fs = String(source).startsWith('file:') && globalThis.process?.getBuiltinModule?.('node:fs/promises');
        source = await (fs ? fs.readFile(new URL(source)) : fetch(source));
      }
      if (typeof Response === 'function' && source instanceof Response) {
        if (!source.ok) throw new Error(`${source.url} answered ${source.status}`);
        module = source.headers.get('content-type')?.startsWith('application/wasm') ? await WebAssembly.compileStreaming(source) : await WebAssembly.compile(await source.arrayBuffer());
      } else module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
      state === true || glueInitSync({ module });
    } catch (e) {
      throw failed(e);
    }
  };
  return {
    init(input) {
      if (state === true) return Promise.resolve();
      state ??= load(input).then(
        () => { state = true; },
        (e) => { state = undefined; throw e; },
      );
      return state;
    },
    initSync(input) {
      if (state === true) return;
      const module = input?.module ?? input;
      try {
        glueInitSync({ module });
      } catch (e) {
        throw failed(e);
      }
      state = true;
    },
    need() {
      if (state !== true) throw new SurfacesError('not_initialized', '', `call init() of @cloudhal/surfaces before using it (the ${part} WebAssembly is not loaded)`);
    },
  };
}
