// The values the package takes and gives (SPEC.md sections 1, 2, 7, 11 and 13).
// Types only; every entry's .d.ts imports what it needs from here.

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A value, or its JSON text: every entry takes either. */
export type JsonInput<T> = T | string;

/** A binding to the surface's data: `{path}` is a JSON Pointer into `data`. */
export interface Binding {
  path: string;
}

/** A function call (SPEC.md section 3), such as `formatCurrency`. */
export interface Call {
  call: string;
  args?: { [name: string]: Json };
}

/** A prop's value: a literal, a binding or a call. */
export type PropValue = Json | Binding | Call;

/** A condition (SPEC.md section 4). */
export type Condition = boolean | Binding | { [operator: string]: Json };

/** One component of a surface. */
export interface Component {
  id: string;
  component: string;
  props?: { [prop: string]: PropValue };
  children?: string[];
  visible?: Condition;
}

/** A surface document (SPEC.md section 1). */
export interface Surface {
  id?: string;
  kind?: 'surface';
  catalog?: string;
  components: Component[];
  data?: { [key: string]: Json };
  style?: { width?: string; [key: string]: unknown };
  /** Other fields pass through. */
  [key: string]: unknown;
}

/** A section of a page: a surface, or another kind that passes through. */
export type Section = Surface | { kind: string; [key: string]: unknown };

/** A page document: sections, some of them surfaces. */
export interface Page {
  sections: Section[];
}

/** What validation and the pipeline take: a surface or a page. */
export type SurfaceDocument = Surface | Page;

/**
 * The document type a patch or a Draft gives back for one it was given:
 * operations change the document, so not the literal type it started as
 * (`new Draft({ components: [] }).document()` is a `Surface`).
 */
export type DocumentOf<D> = D extends Page ? Page : D extends Surface ? Surface : SurfaceDocument;

/** A schema of the catalog's subset (SPEC.md section 2). */
export interface PropSchema {
  type?: string | string[];
  [keyword: string]: unknown;
}

/** One component of a catalog. */
export interface CatalogEntry {
  description?: string;
  props?: PropSchema;
  children?: 'none' | 'any' | string[];
  example?: { [prop: string]: Json };
  [key: string]: unknown;
}

/** A catalog document (SPEC.md section 2). */
export interface CatalogDocument {
  catalog: string;
  description?: string;
  icons?: string[];
  components: { [name: string]: CatalogEntry };
  [key: string]: unknown;
}

/** How an issue weighs: `error` refuses, `flag` keeps and marks, `warning` advises. */
export type Severity = 'error' | 'flag' | 'warning';

/** The codes validation reports (docs/reference.md, "Error codes"). */
export type IssueCode =
  | 'document_too_large' | 'invalid_json' | 'invalid_surface' | 'invalid_component' | 'invalid_data'
  | 'invalid_id' | 'duplicate_id' | 'no_root' | 'unresolved_child' | 'multiple_parents' | 'cycle'
  | 'unreachable' | 'too_deep' | 'too_many_components' | 'too_many_surfaces' | 'unknown_field'
  | 'unknown_component' | 'invalid_prop' | 'children_not_allowed' | 'unsafe_href'
  | 'invalid_pointer' | 'unsafe_path' | 'missing_data' | 'unknown_function' | 'invalid_args'
  | 'invalid_condition' | 'unknown_action' | 'invalid_action' | 'data_too_large'
  | 'unknown_source' | 'invalid_query' | 'source_not_allowed'
  | 'invalid_fence_info' | 'invalid_line' | 'line_too_long' | 'unclosed_fence' | 'duplicate_surface_id'
  | PatchErrorCode;

/** One problem validation found. */
export interface Issue {
  severity: Severity;
  code: IssueCode;
  /** A JSON Pointer into the checked document ("" for the document itself). */
  path: string;
  message: string;
  /** In a markdown body: the surface id the issue belongs to. */
  surface?: string;
  /** In a markdown body: the line (from 1). */
  line?: number;
}

/** `{valid, issues}`: `valid` is false when an issue has severity `error`. */
export interface Verdict {
  valid: boolean;
  issues: Issue[];
}

/**
 * An RFC 6902 operation. Its `value` is any JSON value: `unknown`, so that
 * a typed `Component` or `Surface` (interfaces, which TypeScript never
 * reads as a JSON object type) can be written.
 */
export type Operation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** The repairs of the pipeline (SPEC.md section 7). */
export type RepairCode = 'snap_component' | 'snap_enum' | 'snap_icon' | 'fill_required' | 'drop_prop' | 'rewrite_path';

/** A deterministic repair made to an operation before it applied. */
export interface Repair {
  code: RepairCode;
  /** The operation's index. */
  op: number;
  path: string;
  from: Json;
  to: Json;
  message: string;
}

/** A refused operation; the document is as it was. */
export interface Refusal {
  code: 'VALIDATION_FAILED';
  /** The operation's index. */
  op: number;
  path: string;
  message: string;
  /** The errors it would have introduced (paths into the whole document). */
  issues: Issue[];
}

/** `patch`'s outcome. */
export interface PatchResult<D extends SurfaceDocument = SurfaceDocument> {
  document: D;
  applied: number[];
  repairs: Repair[];
  refused: Refusal[];
}

/** One `Draft.apply`: indices count the round's operations from 0. */
export interface DraftReport {
  applied: number[];
  repairs: Repair[];
  refused: Refusal[];
  /** Operations waiting for a later one (at most 3); `settle()` refuses what still waits. */
  held: number[];
}

/** The errors of `applyPatch`. */
export type PatchErrorCode = 'invalid_operation' | 'invalid_pointer' | 'unsafe_path' | 'path_not_found' | 'invalid_move' | 'test_failed' | 'document_too_large';

/** `applyPatch`'s outcome: atomic, the input never changed. */
export type ApplyPatchResult =
  | { ok: true; document: Json }
  | { ok: false; error: { op: number; code: PatchErrorCode; path: string; message: string } };

/** What `SurfacesError.code` may be. */
export type ErrorCode =
  | 'not_initialized' | 'init_failed' | 'invalid_option' | 'invalid_json' | 'document_too_large'
  | 'invalid_catalog' | 'unknown_keyword' | 'invalid_snapshot' | 'source_failed' | 'already_freed' | 'already_finished' | 'internal_error';

/** A refused line of a surface fence in the stream. */
export interface StreamRefusal {
  line: number;
  code: IssueCode | 'too_many_components';
  message: string;
  path?: string;
}

/** The unfinished line of a surface fence, read leniently; never an invented id. */
export interface Ghost {
  id?: string;
  component?: string;
  props?: { [prop: string]: Json };
  partial: true;
  code?: 'ghost_too_large';
}

interface BlockBase {
  block: number;
  complete: boolean;
  text: string;
  /** The open last block, healed for display. */
  healed?: string;
}

/** A block of a markdown answer (SPEC.md section 11). */
export type Block =
  | (BlockBase & { kind: 'prose' })
  | (BlockBase & { kind: 'code'; lang: string | null })
  | (BlockBase & {
      kind: 'surface';
      id: string | null;
      catalog: string | null;
      components: Component[];
      data: { [key: string]: Json };
      refused: StreamRefusal[];
      ghost: Ghost | null;
      held: string[];
      flags: Issue[];
      issues: Issue[] | null;
    })
  | (BlockBase & { kind: 'directive'; /** null while an open directive's name is not whole yet. */ name: string | null });

/** How the healed view follows from the text: drop `drop` UTF-16 units, then add `add`. */
export interface Heal {
  drop: number;
  add: string;
}

/** A change in markdown mode. */
export type MarkdownChange =
  | { op: 'add'; block: number; value: Block; heal?: Heal | null }
  | ({ op: 'update'; block: number; append?: string; complete: boolean; heal?: Heal | null } & Partial<Omit<Block, 'block' | 'kind' | 'text' | 'healed' | 'complete'>> & { [field: string]: unknown })
  | { op: 'remove'; block: number };

/** An item in JSON Lines mode. */
export type JsonlChange =
  | { kind: 'step'; line: number; ops: Operation[] }
  | { kind: 'value'; line: number; value: Json }
  | { kind: 'text'; line: number; text: string; as: 'prose' | 'fence' }
  | { kind: 'error'; line: number; code: 'invalid_json' | 'object_too_large'; message: string }
  | { kind: 'partial'; value: Json };

/** A part in A2UI mode: prose, messages to apply, or the stopping error. */
export type A2uiChange = { text?: string; a2ui?: Json[] } | { error: string };

/** Any change a stream gives. */
export type Change = MarkdownChange | JsonlChange | A2uiChange;

/** The stream's modes and their documents. */
export type StreamMode = 'markdown' | 'jsonl' | 'a2ui';
export interface MarkdownDocument {
  blocks: Block[];
}
export interface JsonlDocument {
  items: Exclude<JsonlChange, { kind: 'partial' }>[];
  partial: Json;
}
export interface A2uiDocument {
  parts: A2uiChange[];
  error: string | null;
}
export interface StreamDocuments {
  markdown: MarkdownDocument;
  jsonl: JsonlDocument;
  a2ui: A2uiDocument;
}
export interface StreamChanges {
  markdown: MarkdownChange;
  jsonl: JsonlChange;
  a2ui: A2uiChange;
}

// Globals some setups lack (a Node-only one has no DOM): looked up, never required.
type Global<K extends string> = typeof globalThis extends { [P in K]: { prototype: infer T } } ? T : never;
/** A DOM element (where the setup has a DOM; `never` in a Node-only one). */
export type DomElement = Global<'Element'>;
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;

/** A module's bytes: an `ArrayBuffer` or a typed array over them (a Node `Buffer` is one); not a `DataView`, which WebAssembly refuses. */
type WasmBytes = ArrayBuffer | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;
/** What `init` loads from: a URL, a response, the bytes, or a compiled `WebAssembly.Module`. */
export type InitInput = string | Global<'URL'> | Global<'Request'> | Global<'Response'> | WasmBytes | WasmModule | PromiseLike<Global<'Response'> | ArrayBuffer | WasmModule>;
/** What `initSync` takes: `{module}`, a compiled `WebAssembly.Module` or its bytes. */
export type SyncInitInput = { module: WasmBytes | WasmModule } | WasmBytes | WasmModule;

/** Loads the entry's WebAssembly once; after a failure (`init_failed`) it may be called again. */
export type Init = (input?: InitInput) => Promise<void>;
/** Instantiates the entry's WebAssembly at once from a module or bytes. */
export type InitSync = (input: SyncInitInput) => void;
