import type { DomElement, Init, InitSync } from './types.js';
export type { Init, InitSync, InitInput, SyncInitInput } from './types.js';
export { SurfacesError } from './error.js';

/** `morph`'s options. */
export interface MorphOptions {
  /** Morph `target` itself instead of its children. */
  outer?: boolean;
  /** Milliseconds that changed elements carry `data-morph-changed` (0: none). */
  outline?: number;
  /** Scroll the last changed element into view. */
  follow?: boolean;
}

/** `new Preview`'s options: `morph`'s (less `outer`) and the report. */
export interface PreviewOptions {
  outline?: number;
  follow?: boolean;
  /** Called after each morph with the `data-section-id`s that changed. */
  onMorph?: (keys: string[]) => void;
}

/**
 * Makes the children of `target` (or, with `options.outer`, `target` itself)
 * match `html`, reusing and moving nodes, keeping the person's place.
 */
export function morph(target: DomElement, html: string, options?: MorphOptions | null): void;

/**
 * The live preview: takes whole renders or single sections as a model
 * writes, and morphs at most 4 times a second, the latest update winning.
 */
export class Preview {
  constructor(target: DomElement, options?: PreviewOptions | null);
  /** A whole render: a document (its body is shown) or a fragment for all of the target's children. */
  update(html: string): void;
  /** One section's new HTML: the whole `data-section-id="key"` element. */
  section(key: string, html: string): void;
  /** Morphs whatever is pending now, whatever the rate; returns the keys of the sections that changed. */
  flush(): string[];
  /** Forgets the preview: pending updates are dropped, the HTML it keeps and its callback released. */
  free(): void;
}

/** Loads the morph's WebAssembly once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;
