import type {
  ApplyPatchResult, CatalogDocument, Component, DraftReport, Init, InitSync, Issue, JsonInput, Operation,
  PatchResult, Refusal, SurfaceDocument, Verdict, Json, DocumentOf,
} from './types.js';
export type * from './types.js';
export { SurfacesError } from './error.js';

/** Loads the Studio WebAssembly (shared by ./validator, ./stream and ./render) once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;

/** A catalog: a loaded `Catalog`, a catalog document, or its JSON text. */
export type CatalogInput = Catalog | JsonInput<CatalogDocument>;

/** Every entry's `options.catalog`; without it the built-in `blog@1` applies. */
export interface CatalogOptions {
  catalog?: CatalogInput;
}

/** A loaded catalog: load it once, pass it as `options.catalog` everywhere. */
export declare class Catalog {
  private constructor();
  /** Throws `invalid_catalog`, or `unknown_keyword` with the keyword's pointer as `path`. */
  static load(document: CatalogInput): Catalog;
  /** The built-in `blog@1`. */
  static readonly default: Catalog;
  /** Such as `blog@1`. */
  readonly name: string;
  /** The component names, in catalog order. */
  readonly components: string[];
  /** The model's instructions for this catalog. */
  prompt(): string;
  /** A JSON Schema of a surface restricted to this catalog, for a model's structured output. */
  jsonSchema(): { [keyword: string]: Json };
}

/** The issues of a surface or a page. */
export declare function validate(document: JsonInput<SurfaceDocument>, options?: CatalogOptions): Verdict;

export interface ComponentOptions extends CatalogOptions {
  /** The component's pointer, prefixed to the issues' paths (default ""). */
  at?: string;
  /** The data its bindings read (for `missing_data`). */
  data?: JsonInput<{ [key: string]: Json }>;
}
/** One component's own issues, for lines as they stream in. */
export declare function validateComponent(component: JsonInput<Component>, options?: ComponentOptions): Issue[];

/** The issues of a markdown body with surface fences (each issue with its `line`). */
export declare function validateMarkdown(body: string, options?: CatalogOptions): Verdict;

/** Operations through repair, validation and apply-or-refuse (held ones wait within the list). */
export declare function patch<D extends SurfaceDocument = SurfaceDocument>(document: JsonInput<D>, ops: JsonInput<Operation[]>, options?: CatalogOptions): PatchResult<DocumentOf<D>>;

/** An atomic RFC 6902 patch (it passes the json-patch-tests suite): of any JSON value (`unknown`, so typed interfaces fit) or its text. */
export declare function applyPatch(document: unknown, ops: JsonInput<Operation[]>): ApplyPatchResult;

/** The model's instructions for `options.catalog` (or `blog@1`). */
export declare function catalogPrompt(options?: CatalogOptions): string;

/** A document kept in WebAssembly memory, edited by a model's operations, round by round. */
export declare class Draft<D extends SurfaceDocument = SurfaceDocument> {
  constructor(document: JsonInput<D>, options?: CatalogOptions);
  /** One operation or a list; indices count the round's operations from 0; held ones wait for later calls. */
  apply(ops: JsonInput<Operation | Operation[]>): DraftReport;
  /** Ends the round: refuses what still waits, and numbers the next round from 0. */
  settle(): { refused: Refusal[] };
  document(): DocumentOf<D>;
  issues(): Issue[];
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free(): void;
}
