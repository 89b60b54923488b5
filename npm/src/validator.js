// ./validator: validate surfaces, pages, components and markdown bodies;
// patch drafts through the pipeline; load catalogs. Await init() once.
import * as wasm from '../dist/studio/studio.js';
import { init, initSync, need, Catalog, catalogOf, FREED } from './studio.js';
import { run, text, string, SurfacesError } from './error.js';

export { init as default, initSync, Catalog, SurfacesError };

const verdict = (issues) => ({ valid: !issues.some((i) => i.severity === 'error'), issues });

/** The issues of a surface or a page `{sections}`: `{valid, issues}`. */
export function validate(document, options) {
  const catalog = catalogOf(options);
  return verdict(JSON.parse(run(() => wasm.validate(text(document), catalog))));
}

/** One component's own issues (`options.at`: its pointer; `options.data`: the data its bindings read). */
export function validateComponent(component, options) {
  const catalog = catalogOf(options);
  const at = string(options?.at ?? '', '/at', 'options.at');
  const data = options?.data === undefined ? undefined : text(options.data, '/data');
  return JSON.parse(run(() => wasm.validateComponent(text(component), at, catalog, data)));
}

/** The issues of a markdown body with surface fences: `{valid, issues}`. */
export function validateMarkdown(body, options) {
  const catalog = catalogOf(options);
  return verdict(JSON.parse(run(() => wasm.validateMarkdown(string(body, '', 'the body'), catalog))));
}

/** Operations through repair, validation and apply-or-refuse: `{document, applied, repairs, refused}`. */
export function patch(document, ops, options) {
  const catalog = catalogOf(options);
  return JSON.parse(run(() => wasm.patch(text(document), text(ops, '/ops'), catalog)));
}

/** An atomic RFC 6902 patch: `{ok: true, document}` or `{ok: false, error}`. */
export function applyPatch(document, ops) {
  need();
  return JSON.parse(run(() => wasm.applyPatch(text(document), text(ops, '/ops'))));
}

/** The model's instructions for the catalog (`options.catalog`, or `blog@1`). */
export function catalogPrompt(options) {
  return Catalog.load(options?.catalog ?? Catalog.default).prompt();
}

/** A document kept in WebAssembly memory, edited by a model's operations, round by round. */
export class Draft {
  #draft;
  constructor(document, options) {
    const catalog = catalogOf(options);
    this.#draft = run(() => new wasm.Draft(text(document), catalog));
  }
  /** One operation or a list: `{applied, repairs, refused, held}`; held ones wait for later calls. */
  apply(ops) {
    return JSON.parse(run(() => this.#draft.apply(text(ops, '/ops'))));
  }
  /** Ends the round: what still waits is refused, `{refused}`. */
  settle() {
    return JSON.parse(run(() => this.#draft.settle()));
  }
  /** The document as it is now. */
  document() {
    return JSON.parse(run(() => this.#draft.document()));
  }
  /** Every issue of the document as it is now. */
  issues() {
    return JSON.parse(run(() => this.#draft.issues()));
  }
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free() {
    this.#draft.free();
    this.#draft = FREED;
  }
}
