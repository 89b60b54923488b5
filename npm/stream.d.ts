import type { A2uiChange, A2uiDocument, Init, InitSync, JsonlChange, JsonlDocument, MarkdownChange, MarkdownDocument, StreamChanges, StreamDocuments, StreamMode } from './types.js';
import type { CatalogOptions } from './validator.js';
export type * from './types.js';
export type { CatalogOptions, CatalogInput } from './validator.js';
export { SurfacesError } from './error.js';

/** Loads the Studio WebAssembly (shared by ./validator, ./stream and ./render) once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;

/** A streaming parser over one answer; `options.catalog` checks markdown surfaces (other modes refuse one). */
export declare class Stream<M extends StreamMode = 'markdown'> {
  constructor(mode?: M, options?: CatalogOptions);
  readonly mode: M;
  /** The next chunk, a string or UTF-8 bytes split anywhere: the changes it made. */
  push(chunk: string | Uint8Array | ArrayBuffer | ArrayBufferView): StreamChanges[M][];
  /** Ends the input: the last changes and the final document. */
  finish(): { changes: StreamChanges[M][]; document: StreamDocuments[M] };
  /** The document so far. */
  document(): StreamDocuments[M];
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free(): void;
  /** A TransformStream from text or bytes to change lists. */
  static transform<M extends StreamMode = 'markdown'>(mode?: M, options?: CatalogOptions): TransformStream<string | Uint8Array, StreamChanges[M][]>;
}

/**
 * The document `.document()` would give after `changes`, from the one before
 * them, sharing what did not change. Start from `undefined` (it stays
 * undefined until the first change) or from `stream.document()`. The mode
 * is inferred from the changes (or the document).
 */
export declare function applyChanges(document: MarkdownDocument, changes: MarkdownChange[]): MarkdownDocument;
export declare function applyChanges(document: JsonlDocument, changes: JsonlChange[]): JsonlDocument;
export declare function applyChanges(document: A2uiDocument, changes: A2uiChange[]): A2uiDocument;
export declare function applyChanges(document: MarkdownDocument | undefined, changes: MarkdownChange[]): MarkdownDocument | undefined;
export declare function applyChanges(document: JsonlDocument | undefined, changes: JsonlChange[]): JsonlDocument | undefined;
export declare function applyChanges(document: A2uiDocument | undefined, changes: A2uiChange[]): A2uiDocument | undefined;
// The mode named (`applyChanges<'jsonl'>(...)`), for code generic over it.
export declare function applyChanges<M extends StreamMode = 'markdown'>(document: StreamDocuments[M], changes: StreamChanges[M][]): StreamDocuments[M];
export declare function applyChanges<M extends StreamMode = 'markdown'>(document: StreamDocuments[M] | undefined, changes: StreamChanges[M][]): StreamDocuments[M] | undefined;

/** The text healed for display: its open last block closed (emphasis, code, links, fences). */
export declare function heal(markdown: string): string;
