// ./interop: A2UI (v0.9, v1.0) and json-render to and from surfaces (SPEC.md
// section 14), every omission a note {code, path, message}. Part of the
// Studio module: await init() once.
import * as wasm from '../dist/studio/studio.js';
import { init, initSync, need } from './studio.js';
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

/** Runs `push` of an importer: text, bytes, or values (`what`: the values' name in errors). */
const pushed = (importer, given, what, pushValues) => {
  if (typeof given === 'string') return json(() => importer.push(given));
  if (given instanceof Uint8Array) return json(() => importer.pushBytes(given));
  if (given !== null && typeof given === 'object') return json(() => pushValues(text(given, '/message')));
  throw new SurfacesError('invalid_option', '/message', `push takes ${what}, or text, got ${given === null ? 'null' : typeof given}`);
};

/**
 * A2UI messages as they arrive, as the RFC 6902 operations that bring one
 * surface document up to date, for a Draft: `push(messageOrText)` takes a
 * message or a list of them (values), or the next chunk of their text
 * (a string or UTF-8 bytes, split anywhere); `finish()` ends the text.
 */
export class A2uiImport {
  #import;
  /** `options.surface`: the surfaceId to follow (the first created by default); `options.at`: where that surface is in the draft's document (`""`). */
  constructor(options) {
    need();
    const surface = options?.surface == null ? undefined : string(options.surface, '/surface', 'options.surface');
    const at = options?.at == null ? '' : string(options.at, '/at', 'options.at');
    this.#import = run(() => new wasm.A2uiImport(surface, at));
  }
  /** The operations the message(s) or the chunk of text made. */
  push(messageOrText) {
    return pushed(this.#import, messageOrText, 'a message, a list of messages', (t) => this.#import.pushMessages(t));
  }
  /** The text ended: the operations of what it still held. */
  finish() {
    return json(() => this.#import.finish());
  }
  /** The notes so far: of reading the messages, then of converting the surface as it is. */
  notes() {
    return json(() => this.#import.notes());
  }
  /** The surface the operations so far build (null until it has a root). */
  surface() {
    return json(() => this.#import.surface());
  }
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free() {
    this.#import.free();
  }
}

/**
 * json-render's SpecStream (JSON Lines of RFC 6902 operations on a spec, as
 * its createSpecStreamCompiler reads them) as it arrives, as the operations
 * that bring one surface document up to date, for a Draft.
 */
export class JsonRenderImport {
  #import;
  /** `options.at`: where the surface is in the draft's document (`""`). */
  constructor(options) {
    need();
    const at = options?.at == null ? '' : string(options.at, '/at', 'options.at');
    this.#import = run(() => new wasm.JsonRenderImport(at));
  }
  /** An operation or a list of them, or the next chunk of the stream's text: the operations on the surface it made. */
  push(operationOrText) {
    return pushed(this.#import, operationOrText, 'an operation, a list of operations', (t) => this.#import.pushOperations(t));
  }
  /** The text ended: the operations of its last line. */
  finish() {
    return json(() => this.#import.finish());
  }
  /** The notes so far: of the operations that did not apply, then of converting the spec. */
  notes() {
    return json(() => this.#import.notes());
  }
  /** The surface the operations so far build (null until the spec has a root). */
  surface() {
    return json(() => this.#import.surface());
  }
  /** The json-render spec so far. */
  spec() {
    return json(() => this.#import.spec());
  }
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free() {
    this.#import.free();
  }
}
