// The Studio module (crates/studio): ./validator, ./stream and ./render are
// parts of one wasm, loaded once by the init() they share, and the catalog
// handle they all take.
import { initSync as glueInitSync, LoadedCatalog } from '../dist/studio/studio.js';
import { loader, run, text, SurfacesError } from './error.js';

// The URL is made only when init() gets no input; bundlers (Vite) see this
// `new URL(..., import.meta.url)` and emit the file.
const studio = loader('studio', glueInitSync, () => new URL('./dist/studio/studio_bg.wasm', import.meta.url));
export const { init, initSync, need } = studio;

/**
 * Text pushed in string chunks split anywhere: a high surrogate that ends a
 * chunk is held until its low half comes with the next one (UTF-8, as the
 * wasm reads text, cannot hold half a pair), so an emoji split between two
 * chunks stays one character.
 */
export class Pairs {
  #high = '';
  /** The chunk, after what was held, less a high surrogate at its end. */
  take(chunk) {
    const text = this.#high + chunk;
    const last = text.charCodeAt(text.length - 1);
    this.#high = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
    return this.#high ? text.slice(0, -1) : text;
  }
  /** What is still held, given up (at the end of the text it reads alone, as U+FFFD). */
  rest() {
    const high = this.#high;
    this.#high = '';
    return high;
  }
}

// What a wrapper holds once freed: every call but free() throws freed.
const gone = () => {
  throw new SurfacesError('already_freed', '', 'this object was freed (free()); make a new one');
};
export const FREED = new Proxy({}, { get: (_, key) => (key === 'free' ? () => {} : gone) });

/** What push() after finish() throws: the text has ended (a freed object says it was freed). */
export const finished = (inner) => {
  if (inner === FREED) gone();
  return new SurfacesError('already_finished', '', 'this reader has finished (finish()): its text has ended; start a new one for more text');
};

let builtin;
// Catalogs loaded from a document object (kept while it lives) or text (the last few).
const byDocument = new WeakMap();
const byText = new Map();
let handleOf;

/** A loaded catalog: load it once, pass it as `options.catalog` everywhere. */
export class Catalog {
  #handle;
  #name;
  #components;
  constructor(handle) {
    need();
    if (!(handle instanceof LoadedCatalog)) throw new SurfacesError('invalid_option', '', 'use Catalog.load(document) or Catalog.default');
    this.#handle = handle;
  }
  static {
    handleOf = (catalog) => catalog.#handle;
  }
  /** Loads a catalog document (a value or its JSON text); throws invalid_catalog or unknown_keyword. */
  static load(document) {
    need();
    if (document instanceof Catalog) return document;
    const isText = typeof document === 'string';
    // A surface names its catalog ("catalog": "blog@1"): that name means the built-in one.
    if (isText && document === Catalog.default.name) return Catalog.default;
    if (isText && !document.trimStart().startsWith('{')) {
      throw new SurfacesError('invalid_catalog', '', `"${document.slice(0, 40)}" is neither a catalog document nor the built-in catalog's name ("${Catalog.default.name}"); load other catalogs from their document`);
    }
    const known = isText ? byText.get(document) : document !== null && typeof document === 'object' ? byDocument.get(document) : undefined;
    if (known) return known;
    const catalog = new Catalog(run(() => new LoadedCatalog(text(document, '/catalog'))));
    if (isText) {
      if (byText.size >= 8) byText.delete(byText.keys().next().value);
      byText.set(document, catalog);
    } else if (document !== null && typeof document === 'object') byDocument.set(document, catalog);
    return catalog;
  }
  /** The built-in `blog@1`. */
  static get default() {
    need();
    return (builtin ??= new Catalog(new LoadedCatalog()));
  }
  /** The catalog's name, such as `blog@1`. */
  get name() {
    return (this.#name ??= run(() => this.#handle.name()));
  }
  /** The component names, in catalog order. */
  get components() {
    return [...(this.#components ??= run(() => this.#handle.components()))];
  }
  /** The model's instructions for this catalog. */
  prompt() {
    return run(() => this.#handle.prompt());
  }
  /** A JSON Schema of a surface restricted to this catalog, for a model's structured output. */
  jsonSchema() {
    return JSON.parse(run(() => this.#handle.jsonSchema()));
  }
}

/** The catalog handle of `options.catalog` (a Catalog, a document or its text), or the built-in one's. */
export const catalogOf = (options) => {
  need();
  const given = options?.catalog;
  return handleOf(given === undefined || given === null ? Catalog.default : Catalog.load(given));
};

