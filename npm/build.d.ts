import type { Block, Component, Init, InitSync, Issue, Json, Operation, Page, Refusal, Repair, Surface } from './types.js';
import type { CatalogOptions } from './validator.js';
export type * from './types.js';
export { SurfacesError } from './error.js';

/** Loads the Studio WebAssembly (shared by every entry but ./morph) once. */
declare const init: Init;
export default init;
export declare const initSync: InitSync;

/** One AG-UI event (`@ag-ui/core`'s `BaseEvent` and its kinds): read by `type`. */
export interface AgUiEvent {
  type: string;
  [key: string]: unknown;
}

/** A WHATWG `ReadableStream` of server-sent events, as text or UTF-8 bytes (a `Response`'s `body`). */
export interface EventTextStream {
  getReader(): { read(): Promise<{ done: boolean; value?: unknown }>; cancel(reason?: unknown): Promise<void> };
}

/** An `EventSource` or a `WebSocket`: one JSON event per message. */
export interface MessageSource {
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: string, listener: (event: { data: unknown }) => void): void;
  close(): void;
  readonly readyState: number;
}

/** What a session reads events from: server-sent events (a `Response` or its body), an `EventSource`, a `WebSocket`, or events one by one. */
export type SessionSource = { body: EventTextStream | null } | EventTextStream | MessageSource | AsyncIterable<AgUiEvent | string> | Iterable<AgUiEvent | string>;

/** An `AbortSignal`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface BuildSessionOptions extends CatalogOptions {
  /** Called after each event (and each `receiveText` chunk) with what it changed. */
  onUpdate?: (update: BuildUpdate) => void;
  /** A draft to start from, as a value or its JSON text (else the first `STATE_SNAPSHOT` gives it). */
  document?: Page | Surface | string;
  /** The tool names whose input (`{"ops": [...]}`) edits the draft: their operation being written is the ghost. Default `["patch_draft"]`. */
  tools?: string[];
}

/** The operation being written: only what its text has finished (a ghost never invents an id or a path). */
export interface BuildGhost {
  op: string;
  /** Its JSON Pointer into the draft. */
  path: string;
  /** For an operation writing a component: the id, name and props read so far. */
  component?: Partial<Pick<Component, 'id' | 'component' | 'props'>>;
  partial: true;
  /** What the local validator already sees in it (an unknown name, with the name a repair would snap to; a prop that fails its schema). */
  issues: Issue[];
}

/** A delta the local draft could not follow, or an error the local validator finds in the draft a delta made (applied all the same: the server is the authority). */
export interface Divergence {
  /** `path_not_found`, `invalid_pointer`, ... (the delta left the draft as it was, `status.needsSnapshot` is set), `VALIDATION_FAILED` (one per error the delta brought, in `issues`), or `no_snapshot`. */
  code: string;
  /** The index in the delta of the operation that did not apply. */
  op?: number;
  path: string;
  message: string;
  issues?: Issue[];
}

/** Bad input the session set aside, the session still running and the last good draft kept. */
export interface BuildProblem {
  code: 'invalid_event' | 'invalid_snapshot' | 'invalid_tool_input' | 'invalid_json' | 'object_too_large' | string;
  path: string;
  message: string;
}

export interface BuildStatus {
  run: 'idle' | 'running' | 'finished' | 'error';
  runId: string | null;
  /** `RUN_ERROR`'s message. */
  error: string | null;
  /** The draft is not known to match the server's: a reconnect should start from a snapshot. */
  needsSnapshot: boolean;
}

/** What one event did. `refusals`, `repairs`, `divergences` and `errors` are this event's; the rest is the session as it is now. */
export interface BuildUpdate {
  document: Page | Surface | null;
  /** The ids of the sections that changed. */
  changed: string[];
  ghost: BuildGhost | null;
  /** The assistant's current message, read by the markdown stream (its open block healed). */
  text: { messageId: string | null; blocks: Block[]; complete: boolean } | null;
  refusals: (Refusal | Json)[];
  repairs: (Repair | Json)[];
  divergences: Divergence[];
  errors: BuildProblem[];
  status: BuildStatus;
}

/** A build session mirrored in the browser (SPEC.md section 15). */
export declare class BuildSession {
  constructor(options?: BuildSessionOptions);
  /** The local draft (null before the first snapshot). */
  readonly document: Page | Surface | null;
  /** One AG-UI event: the update it made. */
  receive(event: AgUiEvent | unknown): BuildUpdate;
  /** The Build chat's own JSON Lines (`{"say"}`, `{"ops"}`, `{"done"}`), in chunks split anywhere. */
  receiveText(chunk: string | Uint8Array): BuildUpdate;
  /** Reads events until the source ends or the signal aborts. */
  connect(source: SessionSource, options?: { signal?: AbortSignalLike }): Promise<void>;
  /** The draft (or one section) rendered in preview mode, the ghost drawn where it will land. */
  previewHtml(sectionId?: string): string;
}

/** The part under a point of markup rendered in preview mode. */
export interface PreviewTarget {
  sectionId: string;
  componentId?: string;
}

/** The section and component under (`x`, `y`), in the viewport of `root`'s document, found by geometry: nothing runs inside the preview. */
export declare function previewTargetAt(root: unknown, x: number, y: number): PreviewTarget | null;

export type { Operation };
