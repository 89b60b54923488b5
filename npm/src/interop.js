// ./interop: A2UI (v0.9, v1.0) and json-render to and from surfaces (SPEC.md
// section 14), every omission a note {code, path, message}. Part of the
// Studio module: await init() once.
import * as wasm from '../dist/studio/studio.js';
import { init, initSync, need, FREED, Pairs, finished } from './studio.js';
import { run, text, string, SurfacesError } from './error.js';

export { init as default, initSync, SurfacesError };

const json = (f) => JSON.parse(run(f));

/** A2UI messages (a list, `{messages}`, one message, or their text: JSON Lines, `<a2ui-json>` blocks) as surfaces: `{surfaces, notes}`. */
export function fromA2ui(messages) {
  need();
  return json(() => wasm.fromA2ui(text(messages)));
}

/** A surface as A2UI basic-catalog messages: `{messages, notes}`; `options.version` "v1.0" (the default) or "v0.9". */
export function toA2ui(surface, options) {
  need();
  if (options != null && typeof options !== 'object') throw new SurfacesError('invalid_option', '/options', `toA2ui's options are an object, as in {version: 'v0.9'}; got ${typeof options}`);
  const version = options?.version == null ? 'v1.0' : string(options.version, '/version', 'options.version');
  return json(() => wasm.toA2ui(text(surface), version));
}

/** A json-render spec `{root, elements, state?}` as a surface: `{surface, notes}`. */
export function fromJsonRender(spec) {
  need();
  return json(() => wasm.fromJsonRender(text(spec)));
}

/** A surface as a json-render spec: `{spec, notes}`. */
export function toJsonRender(surface) {
  need();
  return json(() => wasm.toJsonRender(text(surface)));
}

/** An importer's `options.at`: a JSON Pointer ("" or from "/"), "" by default; options are an object. */
const where = (options) => {
  if (options != null && typeof options !== 'object') throw new SurfacesError('invalid_option', '/options', `an importer's options are an object, as in {at: '/sections/0'}; got ${typeof options}`);
  const at = options?.at == null ? '' : string(options.at, '/at', 'options.at');
  if (at !== '' && at[0] !== '/') throw new SurfacesError('invalid_option', '/at', `options.at is a JSON Pointer ("" or starting with "/"), got ${JSON.stringify(at)}`);
  return at;
};

/** Each importer's WebAssembly object (kept out of sight of its users). */
const inner = new WeakMap();

/** What A2uiImport and JsonRenderImport share: an importer pushed text, bytes or values. */
class Importer {
  #what;
  #values;
  #pairs = new Pairs();
  #finished = false;
  /** `made`: the WebAssembly importer; `what`: its values, for errors; `values`: its method pushing them. */
  constructor(made, what, values) {
    inner.set(this, made);
    this.#what = what;
    this.#values = values;
  }
  /** Values, or the next chunk of text (a string or UTF-8 bytes, split anywhere): the operations they made. */
  push(given) {
    if (this.#finished) throw finished(inner.get(this));
    const importer = inner.get(this);
    if (typeof given === 'string') {
      const text = this.#pairs.take(given);
      return json(() => importer.push(text));
    }
    if (given instanceof Uint8Array) return json(() => importer.pushBytes(given));
    if (given !== null && typeof given === 'object') return json(() => importer[this.#values](text(given, '/message')));
    throw new SurfacesError('invalid_option', '/message', `push takes ${this.#what}, or text, got ${given === null ? 'null' : typeof given}`);
  }
  /** The text ended: the operations of what it still held (again: none). */
  finish() {
    this.#finished = true;
    const high = this.#pairs.rest();
    const held = high ? json(() => inner.get(this).push(high)) : [];
    return [...held, ...json(() => inner.get(this).finish())];
  }
  /** The notes so far: of reading, then of converting the surface as it is. */
  notes() {
    return json(() => inner.get(this).notes());
  }
  /** The surface the operations so far build (null until it has a root). */
  surface() {
    return json(() => inner.get(this).surface());
  }
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free() {
    inner.get(this).free();
    inner.set(this, FREED);
  }
}

/**
 * A2UI messages as they arrive, as the RFC 6902 operations that bring one
 * surface document up to date, for a Draft: `push(messageOrText)` takes a
 * message or a list of them (values), or the next chunk of their text
 * (a string or UTF-8 bytes, split anywhere); `finish()` ends the text.
 */
export class A2uiImport extends Importer {
  /** `options.surface`: the surfaceId to follow (the first created by default); `options.at`: where that surface is in the draft's document (`""`). */
  constructor(options) {
    need();
    const at = where(options);
    const surface = options?.surface == null ? undefined : string(options.surface, '/surface', 'options.surface');
    super(run(() => new wasm.A2uiImport(surface, at)), 'a message, a list of messages', 'pushMessages');
  }
}

/**
 * json-render's SpecStream (JSON Lines of RFC 6902 operations on a spec, as
 * its createSpecStreamCompiler reads them) as it arrives, as the operations
 * that bring one surface document up to date, for a Draft.
 */
export class JsonRenderImport extends Importer {
  /** `options.at`: where the surface is in the draft's document (`""`). */
  constructor(options) {
    need();
    const at = where(options);
    super(run(() => new wasm.JsonRenderImport(at)), 'an operation, a list of operations', 'pushOperations');
  }
  /** The json-render spec so far. */
  spec() {
    return json(() => inner.get(this).spec());
  }
}
