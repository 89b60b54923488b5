import type { Init, InitSync, Json, JsonInput, Operation, Surface } from './types.js';
export type * from './types.js';
export { SurfacesError } from './error.js';

/** Loads the Studio WebAssembly (shared by ./validator, ./stream, ./render and ./interop) once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;

/** What a conversion left out or changed, and why (SPEC.md section 14); `path` points into its input. */
export type NoteCode =
  | 'not_a2ui'
  | 'not_json_render'
  | 'unknown_version'
  | 'invalid_message'
  | 'unknown_surface'
  | 'duplicate_surface'
  | 'cycle'
  | 'unsafe_path'
  | 'no_equivalent'
  | 'prop_dropped'
  | 'arg_dropped'
  | 'unsupported_function'
  | 'check_dropped'
  | 'event_dropped'
  | 'unsafe_href'
  | 'no_label'
  | 'missing_child'
  | 'shared_child'
  | 'not_reachable'
  | 'too_deep'
  | 'too_many_components'
  | 'template_expanded'
  | 'renamed_id'
  | 'value_shape'
  | 'not_a_surface'
  | 'surface_deleted'
  | 'other_catalog'
  | 'invalid_operation'
  | 'invalid_pointer'
  | 'path_not_found'
  | 'invalid_move'
  | 'test_failed'
  | 'document_too_large';

/** A note of a conversion. */
export interface Note {
  code: NoteCode;
  /** A JSON Pointer into the conversion's input (a message's is `/<index>/...`). */
  path: string;
  message: string;
}

/** An A2UI message (v0.9 or v1.0), as the agent sent it. */
export type A2uiMessage = { version: string } & { [envelope: string]: Json };

/**
 * A message as the converters take it: any object with a `version`, so
 * A2UI's own message types (`@a2ui/web_core`'s) and a list of messages of
 * several shapes fit; what it holds is read as A2UI says, and what does not
 * follow it is a note.
 */
export type A2uiMessageInput = { version: string };

/** A2UI messages: a list, `{messages: [...]}`, one message, or their text (JSON Lines, `<a2ui-json>` blocks). */
export type A2uiInput = A2uiMessageInput | readonly A2uiMessageInput[] | { messages: readonly A2uiMessageInput[] } | string;

/** A json-render spec, as `fromJsonRender` takes it: `@json-render/core`'s `Spec` fits (its values are `unknown`, read as JSON). */
export interface JsonRenderSpec {
  root: string;
  elements: { [key: string]: { type: string; props?: { [name: string]: unknown }; children?: string[]; slots?: unknown; visible?: unknown; on?: unknown; repeat?: unknown; watch?: unknown } };
  state?: { [key: string]: unknown };
}

/** A json-render comparison of a state path, as `toJsonRender` writes one (json-render orders numbers only). */
export type JsonRenderStateCondition = {
  $state: string;
  eq?: Json;
  neq?: Json;
  gt?: number | { $state: string };
  gte?: number | { $state: string };
  lt?: number | { $state: string };
  lte?: number | { $state: string };
  not?: true;
};

/** A json-render visibility condition, as `toJsonRender` writes one. */
export type JsonRenderCondition =
  | boolean
  | JsonRenderStateCondition
  | JsonRenderStateCondition[]
  | { $and: JsonRenderCondition[] }
  | { $or: JsonRenderCondition[] };

/** A json-render action binding (`on.press`), as `toJsonRender` writes one. */
export type JsonRenderAction = {
  action: string;
  params: { [name: string]: Json };
};

/** The spec `toJsonRender` writes: every element with its props and children; assignable to `@json-render/core`'s `Spec`, and to `JsonRenderSpec` (`fromJsonRender` takes it back). */
export type JsonRenderSpecOut = {
  root: string;
  elements: {
    [key: string]: {
      type: string;
      props: { [name: string]: Json };
      children: string[];
      visible?: JsonRenderCondition;
      on?: { press: JsonRenderAction | JsonRenderAction[] };
    };
  };
  state?: { [key: string]: Json };
};

/** The surfaces the messages left, in creation order, and the notes. */
export declare function fromA2ui(messages: A2uiInput): { surfaces: Surface[]; notes: Note[] };
/** The surface as A2UI basic-catalog messages (v1.0 by default). */
export declare function toA2ui(surface: JsonInput<Surface>, options?: { version?: 'v1.0' | 'v0.9' }): { messages: A2uiMessage[]; notes: Note[] };
/** A json-render spec as a surface. */
export declare function fromJsonRender(spec: JsonInput<JsonRenderSpec>): { surface: Surface; notes: Note[] };
/** The surface as a json-render spec. */
export declare function toJsonRender(surface: JsonInput<Surface>): { spec: JsonRenderSpecOut; notes: Note[] };

/** A2UI messages as they arrive, as the RFC 6902 operations that bring one surface document up to date, for a Draft. */
export declare class A2uiImport {
  /** `surface`: the surfaceId to follow (the first created by default); `at`: where that surface is in the draft's document (`""`). */
  constructor(options?: { surface?: string; at?: string });
  /** A message or a list of them, or the next chunk of their text (split anywhere): the operations it made. */
  push(messageOrText: A2uiMessageInput | readonly A2uiMessageInput[] | string | Uint8Array): Operation[];
  /** The text ended: the operations of what it still held. */
  finish(): Operation[];
  /** The notes so far: of reading the messages, then of converting the surface as it is. */
  notes(): Note[];
  /** The surface the operations so far build (null until it has a root). */
  surface(): Surface | null;
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free(): void;
}

/** An operation on a json-render spec as `JsonRenderImport` takes it: json-render's own `JsonPatch` fits (an operation that does not apply is noted). */
export interface SpecPatchInput {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** json-render's SpecStream as it arrives, as the RFC 6902 operations that bring one surface document up to date, for a Draft. */
export declare class JsonRenderImport {
  /** `at`: where the surface is in the draft's document (`""`). */
  constructor(options?: { at?: string });
  /** An operation on the spec or a list of them, or the next chunk of the stream's text: the operations on the surface it made. */
  push(operationOrText: SpecPatchInput | readonly SpecPatchInput[] | string | Uint8Array): Operation[];
  /** The text ended: the operations of its last line. */
  finish(): Operation[];
  /** The notes so far: of the operations that did not apply (their applyPatch code), then of converting the spec. */
  notes(): Note[];
  /** The surface the operations so far build (null until the spec has a root). */
  surface(): Surface | null;
  /** The json-render spec so far. */
  spec(): Partial<JsonRenderSpec>;
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free(): void;
}
