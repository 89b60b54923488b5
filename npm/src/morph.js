// ./morph: the preview morph, its own small wasm. Await init() once.
import { initSync as glueInitSync, morph as glueMorph, Preview as GluePreview } from '../dist/morph/morph.js';
import { loader, run, string, SurfacesError } from './error.js';

const { init, initSync, need } = loader('morph', glueInitSync, () => new URL('./dist/morph/morph_bg.wasm', import.meta.url));
export { init as default, initSync, SurfacesError };

const element = (target) => {
  // Duck-typed: an element of a preview iframe is no instance of this realm's Element.
  if (target?.nodeType !== 1) throw new SurfacesError('invalid_option', '/target', 'the target is a DOM Element');
  return target;
};

// Options of the wrong kind are refused, never ignored (a misspelt value
// would turn a feature off unseen: an onMorph given a string never hears of
// a morph). outline is a number of milliseconds, 0 or more.
const KINDS = { outer: 'boolean', outline: 'number', follow: 'boolean', onMorph: 'function' };
const checked = (options) => {
  for (const name in KINDS) {
    const v = options?.[name];
    if (v != null && (typeof v != KINDS[name] || v < 0 || v != v)) throw new SurfacesError('invalid_option', '/' + name, `${name} is a ${KINDS[name]}`);
  }
  return options;
};

/** Makes the children of `target` (or `target` itself, with `options.outer`) match `html`. */
export function morph(target, html, options) {
  need();
  run(() => glueMorph(element(target), string(html, '/html', 'the HTML'), checked(options)));
}

/** The live preview: at most 4 morphs a second, the latest update winning. */
export class Preview {
  #preview;
  constructor(target, options) {
    need();
    this.#preview = run(() => new GluePreview(element(target), checked(options)));
  }
  update(html) {
    run(() => this.#preview.update(string(html, '/html', 'the HTML')));
  }
  section(key, html) {
    run(() => this.#preview.section(string(key, '/key', 'the key'), string(html, '/html', 'the HTML')));
  }
  flush() {
    return run(() => this.#preview.flush());
  }
  free() {
    this.#preview.free();
  }
}
