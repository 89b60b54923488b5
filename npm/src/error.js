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
 * `need()`, which every call makes first. `glue` has the part's own `init` and
 * `initSync`; `where` gives the wasm's URL, asked only when `init` gets no input
 * (`import.meta.url` is not defined everywhere: Cloudflare Workers).
 */
export function loader(part, glue, where) {
  let state; // undefined, the pending promise, or true once loaded
  const failed = (e) => new SurfacesError('init_failed', '', `the ${part} WebAssembly did not load: ${e?.message ?? e}`);
  const load = async (input) => {
    let source = input;
    if (source === undefined) {
      let url;
      try {
        url = where();
      } catch {
        throw new SurfacesError('init_failed', '', `init() has no module to load: import.meta.url is not defined here (as in Cloudflare Workers); pass it, as in: import wasm from '@cloudhal/surfaces/${part}.wasm'; await init(wasm)`);
      }
      // Node's fetch reads no file: URLs; read the file instead (the glue
      // awaits the promise, so a failed read is init_failed too).
      const fs = url.protocol === 'file:' && globalThis.process?.getBuiltinModule?.('node:fs/promises');
      source = fs ? fs.readFile(url) : url;
    }
    await glue.init({ module_or_path: source }).catch((e) => {
      throw failed(e);
    });
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
        glue.initSync({ module });
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
