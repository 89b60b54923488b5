import type { Component, Init, InitSync, Issue, JsonInput, Surface } from './types.js';
import type { CatalogOptions } from './validator.js';
export type * from './types.js';
export type { CatalogOptions, CatalogInput } from './validator.js';
export { SurfacesError } from './error.js';

/** Loads the Studio WebAssembly (shared by ./validator, ./stream and ./render) once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;

export interface RenderOptions extends CatalogOptions {
  /**
   * `"published"` (SPEC.md section 10, the default), or `"preview"` (section
   * 15): `data-section-id` on the surface, `data-component-id` on each
   * component, labelled placeholders (`data-ch-placeholder`) for flagged
   * parts, and the ghost drawn where it will land (`data-ch-ghost`).
   */
  mode?: 'published' | 'preview';
  /** In a preview: the operation being written, its path into the surface. */
  ghost?: PreviewGhost | null;
  /** The locale calls without their own format in (a BCP 47 tag), written on the surface as `lang`. */
  locale?: string;
}

/** The operation a model is writing, as far as it is read. */
export interface PreviewGhost {
  op: string;
  /** A JSON Pointer into the surface (`/components/-`, `/components/3/props/text`). */
  path: string;
  /** The component read so far (only its id, name and props). */
  component?: Partial<Component>;
}

/** `html` is null when the surface has errors; flags come back in `issues` beside the HTML. */
export interface Rendered {
  ok: boolean;
  html: string | null;
  issues: Issue[];
}

/** A surface as published-page markup. */
export declare function renderSurface(surface: JsonInput<Surface>, options?: RenderOptions): Rendered;

/** Every surface fence of a markdown body as published-page markup, in order. */
export declare function renderMarkdown(body: string, options?: RenderOptions): Rendered;

/**
 * Whether a page showing the surface needs the interaction runtime (a field
 * that writes state, or a button that runs an action): without, everything
 * is final as rendered and the runtime's script can be left out. `false`
 * for a surface with errors.
 */
export declare function isInteractive(surface: JsonInput<Surface>, options?: CatalogOptions): boolean;
