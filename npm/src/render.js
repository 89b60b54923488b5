// ./render: surfaces and markdown bodies as published-page markup (SPEC.md
// section 10), for servers and previews. Await init() once.
import * as wasm from '../dist/studio/studio.js';
import { init, initSync, catalogOf } from './studio.js';
import { run, text, string, SurfacesError } from './error.js';

export { init as default, initSync, SurfacesError };

const optional = (value, at, what) => (value === undefined || value === null ? undefined : string(value, at, what));
const args = (options) => [catalogOf(options), optional(options?.mode, '/mode', 'options.mode'), optional(options?.locale, '/locale', 'options.locale')];

/** A surface as published-page or preview markup: `{ok, html, issues}` (`html` null when it has errors). */
export function renderSurface(surface, options) {
  const [catalog, mode, locale] = args(options);
  const ghost = options?.ghost == null ? undefined : text(options.ghost, '/ghost');
  return JSON.parse(run(() => wasm.renderSurface(text(surface), catalog, mode, locale, ghost)));
}

/** Every surface fence of a markdown body as markup, in order: `{ok, html, issues}`. */
export function renderMarkdown(body, options) {
  const [catalog, mode, locale] = args(options);
  return JSON.parse(run(() => wasm.renderMarkdown(string(body, '', 'the body'), catalog, mode, locale)));
}

/** Whether a page showing the surface needs the runtime's script: it has a field that writes state or a button that runs an action (false for a surface with errors). */
export function isInteractive(surface, options) {
  return run(() => wasm.isInteractive(text(surface), catalogOf(options)));
}
