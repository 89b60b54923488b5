// ./stream: a model's answer read in chunks (markdown with surface fences,
// JSON Lines, or A2UI blocks), as changes after each chunk. Await init() once.
import * as wasm from '../dist/studio/studio.js';
import { init, initSync, need, catalogOf, FREED, Pairs, finished } from './studio.js';
import { run, string, SurfacesError } from './error.js';

export { init as default, initSync, SurfacesError };

/**
 * The most one stream reads: 32 MiB (UTF-16 units of strings, or bytes).
 * The stream keeps about 40 bytes of wasm memory per byte it read (the
 * figure the streaming benchmark prints), and a wasm memory ends at 4 GiB.
 */
const MAX_STREAM = 32 * 1024 * 1024;

/** A streaming parser over one answer. */
export class Stream {
  #stream;
  #mode;
  #read = 0;
  #pairs = new Pairs();
  #finished = false;
  /** `mode`: "markdown" (the default), "jsonl" or "a2ui"; `options.catalog` checks markdown surfaces. */
  constructor(mode = 'markdown', options) {
    need();
    string(mode, '/mode', 'mode');
    if (options?.catalog != null && mode !== 'markdown') {
      throw new SurfacesError('invalid_option', '/catalog', `mode "${mode}" checks no surfaces against a catalog; give a catalog in markdown mode only`);
    }
    const catalog = catalogOf(options);
    this.#stream = run(() => new wasm.Stream(mode, catalog));
    this.#mode = mode;
  }
  /** The next chunk (a string, or UTF-8 bytes split anywhere): the changes it made. */
  push(chunk) {
    if (this.#finished) throw finished(this.#stream);
    const size = typeof chunk === 'string' ? chunk.length : chunk?.byteLength;
    if (size > MAX_STREAM - this.#read) {
      throw new SurfacesError('document_too_large', '/chunk', `one stream reads at most ${MAX_STREAM} bytes of text; this chunk was not read (the stream is as it was)`);
    }
    this.#read += size || 0;
    if (typeof chunk === 'string') {
      const text = this.#pairs.take(chunk);
      return JSON.parse(run(() => this.#stream.push(text)));
    }
    if (ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer) {
      const bytes = chunk instanceof Uint8Array ? chunk : ArrayBuffer.isView(chunk) ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) : new Uint8Array(chunk);
      return JSON.parse(run(() => this.#stream.pushBytes(bytes)));
    }
    throw new SurfacesError('invalid_option', '/chunk', `a chunk is a string or bytes (a Uint8Array), got ${chunk === null ? 'null' : typeof chunk}`);
  }
  /** Ends the input: the last changes and the final document (again: no changes). */
  finish() {
    this.#finished = true;
    const high = this.#pairs.rest();
    const held = high ? JSON.parse(run(() => this.#stream.push(high))) : [];
    const end = JSON.parse(run(() => this.#stream.finish()));
    return held.length ? { changes: [...held, ...end.changes], document: end.document } : end;
  }
  /** The document so far. */
  document() {
    return JSON.parse(run(() => this.#stream.document()));
  }
  /** The mode it reads. */
  get mode() {
    return this.#mode;
  }
  /** Releases its WebAssembly memory now (otherwise when it is collected). */
  free() {
    this.#stream.free();
    this.#stream = FREED;
  }
  /** A TransformStream from text or bytes to change lists (an empty list is not sent). */
  static transform(mode, options) {
    const stream = new Stream(mode, options);
    return new TransformStream({
      transform(chunk, out) {
        const changes = stream.push(chunk);
        if (changes.length) out.enqueue(changes);
      },
      flush(out) {
        const { changes } = stream.finish();
        if (changes.length) out.enqueue(changes);
        stream.free();
      },
    });
  }
}

// The markdown block fields an update appends to (the rest it replaces).
const appended = new Set(['components', 'refused', 'flags']);
// Each open block's heal: the healed view is its text without the last
// `drop` UTF-16 units, then `add`. A heal is sent only when it changes, so
// it is kept here for the appends that follow.
const heals = new WeakMap();

/** Sets `block.healed` from its heal (`change`'s, else the one it had). */
const healed = (block, previous, change) => {
  const heal = change.heal === undefined ? heals.get(previous) : change.heal;
  if (heal && !block.complete) {
    heals.set(block, heal);
    block.healed = block.text.slice(0, block.text.length - heal.drop) + heal.add;
  } else delete block.healed;
  return block;
};

/** One markdown block after an update change: a new object, the old one untouched. */
const updated = (block, change) => {
  const next = { ...block };
  for (const key in change) {
    const value = change[key];
    if (key === 'op' || key === 'block' || key === 'heal') continue;
    if (key === 'append') next.text += value;
    else if (appended.has(key)) next[key] = [...(block[key] ?? []), ...value];
    else next[key] = value;
  }
  return healed(next, block, change);
};

/**
 * The document `.document()` would give after `changes`, from `document` (the
 * one before them, or undefined at the start, or `stream.document()`): a new
 * object sharing what did not change, so a UI can compare blocks by identity.
 */
export function applyChanges(document, changes) {
  // (It needs no wasm, but every call waits for init, as SPEC.md 13 has it.)
  need();
  if (!Array.isArray(changes)) throw new SurfacesError('invalid_option', '/changes', 'changes are the list push() or finish() gave');
  const bad = changes.findIndex((c) => c === null || typeof c !== 'object');
  if (bad >= 0) throw new SurfacesError('invalid_option', `/changes/${bad}`, `a change is an object, as push() gives, got ${changes[bad] === null ? 'null' : typeof changes[bad]}`);
  // No changes: the same document (undefined until the first change, since
  // nothing says yet which mode's document it is).
  if (changes.length === 0) return document;
  const first = changes[0];
  if (document?.items || first?.kind) {
    // JSON Lines: new items, and the unfinished object when it changed.
    const out = { items: [...(document?.items ?? [])], partial: document?.partial ?? null };
    for (const c of changes) c.kind === 'partial' ? (out.partial = c.value) : out.items.push(c);
    return out;
  }
  if (document?.parts || first?.a2ui || first?.text !== undefined || first?.error !== undefined) {
    // A2UI: the stopping error once, and parts joined as the reader joins
    // them (A2uiReader::merge), so any chunking gives the same parts: prose
    // joins the prose before it until messages follow.
    const parts = [...(document?.parts ?? [])];
    let error = document?.error ?? null;
    for (const c of changes) {
      if (c.text === undefined && c.a2ui === undefined) {
        error = c.error;
        continue;
      }
      const last = parts[parts.length - 1];
      if (last && c.text !== undefined && last.a2ui === undefined) parts[parts.length - 1] = c.a2ui ? { text: last.text + c.text, a2ui: c.a2ui } : { text: last.text + c.text };
      else if (last && c.text === undefined) parts[parts.length - 1] = { ...last, a2ui: [...(last.a2ui ?? []), ...c.a2ui] };
      else parts.push(c);
    }
    return { parts, error };
  }
  const blocks = [...(document?.blocks ?? [])];
  for (const c of changes) {
    if (c.op === 'add') blocks[c.block] = healed({ ...c.value }, undefined, { heal: c.heal ?? null });
    else if (c.op === 'update') blocks[c.block] = updated(blocks[c.block], c);
    else if (c.op === 'remove') blocks.length = c.block;
  }
  return { blocks };
}

/** The text healed for display (its open last block closed: emphasis, code, links). */
export function heal(markdown) {
  need();
  return run(() => wasm.heal(string(markdown, '', 'the text')));
}
