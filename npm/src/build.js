// ./build: a build session (RFC-0020 section 6) mirrored in the Build view
// (SPEC.md section 15). The server's AG-UI events, or the Build chat's own
// JSON Lines, keep a local draft checked by the local validator, with the
// ghost of the operation being written and the assistant's text. Await
// init() once.
import { init, initSync, need } from './studio.js';
import { Catalog, Draft, applyPatch, validate, validateComponent } from './validator.js';
import { Stream, applyChanges } from './stream.js';
import { renderSurface } from './render.js';
import { SurfacesError } from './error.js';

export { init as default, initSync, SurfacesError };

// Keys whose cut string a ghost shows closed (the streaming parser's display keys).
const DISPLAY_KEYS = new Set(['text', 'label', 'title', 'description', 'message']);
const DISPLAY_PROP = new RegExp(`/props/(${[...DISPLAY_KEYS].join('|')})$`);
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const token = (t) => t.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * `section` with the prop an add or replace `ghost` is writing (its path
 * `/components/<index or id>/props/<key>`, into the section) holding
 * `value`, as the operation will leave it; null for any other ghost, and
 * for one the operation cannot apply (a replace of a prop not there, an add
 * into a component without props, a malformed pointer).
 */
const writtenProp = (section, ghost, value) => {
  const m = /^\/components\/([^/]+)\/props\/([^/]+)$/.exec(ghost.path);
  if (!m || (ghost.op !== 'add' && ghost.op !== 'replace') || /~([^01]|$)/.test(ghost.path)) return null;
  const [at, key] = [token(m[1]), token(m[2])];
  const k = /^(0|[1-9]\d*)$/.test(at) ? Number(at) : section.components.findIndex((c) => c?.id === at);
  const c = section.components[k];
  if (!isObject(c) || !isObject(c.props) || (ghost.op === 'replace' && !Object.hasOwn(c.props, key))) return null;
  const components = section.components.slice();
  components[k] = { ...c, props: { ...c.props, [key]: value } };
  return { ...section, components };
};
const issueKey = (i) => `${i.code} ${i.path}`;
// Whether an operation adds, removes or moves a component (shifting the
// positions after it).
const movesComponents = (o) => o?.op !== 'replace' && o?.op !== 'test' && [o?.path, o?.from].some((p) => /\/components\/[^/]+$/.test(p));
const problem = (code, path, message) => ({ code, path, message });
// An event's text field (a delta, a message): a string, or nothing (none
// given reads as ''); anything else is no AG-UI event, refused as one.
const textField = (event, name) => {
  const v = event[name] ?? '';
  if (typeof v !== 'string') throw new SurfacesError('invalid_event', `/${name}`, `${name} is a string, got ${Array.isArray(v) ? 'a list' : typeof v}`);
  return v;
};

/**
 * A tool call's input read as its deltas arrive, each character once: the
 * value so far, with containers in place as they open, a string only once
 * it ends (a display key's as it grows, and an operation's value for a
 * display prop), a number or literal once it ends.
 * Nothing is read twice, so a delta costs its length.
 */
class ToolInput {
  root = undefined;
  /** The offset where the text stopped being JSON, or -1. */
  failed = -1;
  /** How many values were placed (ended, or containers opened): while it is unchanged, only `growing` grew (a ghost's issues are checked again only when it changes). */
  shape = 0;
  /** The display string being read: its object and key. */
  growing = null;
  at = 0;
  stack = [];
  token = null;
  /** How many finished operations `writing` looked at, and whether one moved components. */
  looked = 0;
  moved = false;

  push(delta) {
    for (const c of delta) {
      if (this.failed >= 0) return;
      this.char(c);
      this.at += c.length;
    }
  }
  get complete() {
    return this.failed < 0 && this.root !== undefined && this.stack.length === 0 && this.token === null;
  }
  fail() {
    this.failed = this.at;
  }
  place(value) {
    this.shape++;
    this.growing = null;
    const top = this.stack.at(-1);
    // A value after a value with no comma between is no JSON.
    if (top?.full) return this.fail();
    if (!top) {
      if (this.root !== undefined) return this.fail();
      this.root = value;
    } else if (top.array) top.value.push(value);
    else if (top.colon) top.value[top.key] = value;
    else return this.fail();
    if (top) top.full = true;
  }
  char(c) {
    const t = this.token;
    if (t?.kind === 'string') return this.stringChar(t, c);
    if (t) {
      if (t.kind === 'number' ? /[0-9eE+\-.]/.test(c) : c >= 'a' && c <= 'z') {
        t.text += c;
        if (t.kind === 'literal') this.literal(t);
        return;
      }
      if (t.kind === 'literal' || !NUMBER.test(t.text)) return this.fail();
      this.token = null;
      this.place(Number(t.text));
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return;
    const top = this.stack.at(-1);
    if (c === '{' || c === '[') {
      const value = c === '{' ? {} : [];
      this.place(value);
      if (top) top.full = false;
      this.stack.push({ value, array: c === '[', key: undefined, colon: false, full: false });
    } else if (c === '}' || c === ']') {
      if (!top || top.array !== (c === ']')) return this.fail();
      this.stack.pop();
      if (this.stack.length) this.stack.at(-1).full = true;
    } else if (c === ':') {
      if (!top || top.array || top.key === undefined || top.colon) return this.fail();
      top.colon = true;
    } else if (c === ',') {
      if (!top || !top.full) return this.fail();
      top.full = false;
      if (!top.array) [top.key, top.colon] = [undefined, false];
    } else if (c === '"') {
      const key = top !== undefined && !top.array && !top.colon;
      if (key && top.key !== undefined) return this.fail();
      this.token = { kind: 'string', text: '', key, escape: null };
    } else if (c === '-' || (c >= '0' && c <= '9')) this.token = { kind: 'number', text: c };
    else if (c === 't' || c === 'f' || c === 'n') this.token = { kind: 'literal', text: c };
    else this.fail();
  }
  literal(t) {
    const word = { t: 'true', f: 'false', n: 'null' }[t.text[0]];
    if (!word.startsWith(t.text)) return this.fail();
    if (t.text === word) {
      this.token = null;
      this.place({ true: true, false: false, null: null }[word]);
    }
  }
  stringChar(t, c) {
    // What this character adds to the text, if anything.
    let added;
    if (t.escape !== null) {
      if (t.escape === '') {
        if (c === 'u') t.escape = 'u';
        else if (c in ESCAPES) [added, t.escape] = [ESCAPES[c], null];
        else return this.fail();
      } else {
        if (!/[0-9a-fA-F]/.test(c)) return this.fail();
        t.escape += c;
        if (t.escape.length === 5) [added, t.escape] = [String.fromCharCode(parseInt(t.escape.slice(1), 16)), null];
      }
    } else if (c === '\\') t.escape = '';
    else if (c === '"') {
      this.token = null;
      const top = this.stack.at(-1);
      if (t.key) top.key = t.text;
      else this.place(t.text);
      return;
    } else if (c < ' ') return this.fail();
    else added = c;
    if (added === undefined) return;
    t.text += added;
    // Whether the text ends in half a surrogate pair (\ud83d of an escaped
    // emoji), from what was added: testing the whole text would flatten it
    // at every character, the square of its length.
    t.half = /[\ud800-\udbff]$/.test(added);
    // A display key's cut string shows closed where it stops, and so does
    // an operation's value for a display prop (path first, as ops are written).
    const top = this.stack.at(-1);
    if (!t.key && top && !top.array && top.colon && (DISPLAY_KEYS.has(top.key) || (top.key === 'value' && DISPLAY_PROP.test(top.value.path)))) {
      // Not half a surrogate pair: no text.
      top.value[top.key] = t.half ? t.text.slice(0, -1) : t.text;
      this.growing = { object: top.value, key: top.key };
    }
  }
  /** The operation being written: the last item of `ops` so far (until the call ends), or null; `moved` brought up to date. */
  writing() {
    const ops = Array.isArray(this.root) ? this.root : this.root?.ops;
    if (!Array.isArray(ops)) return null;
    // `moved`: whether one before it adds, removes or moves a component,
    // each finished one looked at once.
    for (; this.looked < ops.length - 1; this.looked++) this.moved ||= movesComponents(ops[this.looked]);
    const op = ops.at(-1);
    return isObject(op) ? op : null;
  }
}

// A copy of a JSON value (JSON text is read): invalid_json at `at` when it is none.
const clone = (value, at) => {
  try {
    return JSON.parse(typeof value === 'string' ? value : JSON.stringify(value));
  } catch (e) {
    throw new SurfacesError('invalid_json', at, `not a JSON value or its text: ${e.message}`);
  }
};
const segments = (path) => (typeof path === 'string' ? path.split('/').slice(1) : []);
// An error's code and path, each section and component in it named by its
// id, not its place (as the pipeline keys them): an error the draft had is
// the same error after a delta moved or removed something before it.
const errorKey = (doc, issue) => {
  let v = doc;
  const path = segments(issue.path).map((k, i, all) => {
    const item = (v = v?.[k]);
    return /^\d+$/.test(k) && /^(sections|components)$/.test(all[i - 1]) && typeof item?.id === 'string' ? `#${item.id}` : k;
  });
  return `${issue.code} ${path.join('/')}`;
};
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A build session mirrored in the browser: `receive` its AG-UI events (or `connect` to their source), read `onUpdate`. */
export class BuildSession {
  #catalog;
  #onUpdate;
  #tools;
  #document;
  #calls = new Map();
  #ghostCall = null;
  #ghost = null;
  #text = null;
  #chat = null;
  #status;
  #update = null;

  /** `options.catalog`, `options.onUpdate(update)`, `options.document` (a draft to start from), `options.tools` (the tool names whose input edits the draft: `["patch_draft"]`). */
  constructor(options) {
    need();
    const { catalog, onUpdate, tools = ["patch_draft"], document } = options ?? {};
    // Loaded once, here: a bad catalog throws now, not at every update.
    this.#catalog = catalog == null ? undefined : Catalog.load(catalog);
    if (onUpdate != null && typeof onUpdate !== 'function') throw new SurfacesError('invalid_option', '/onUpdate', 'onUpdate is a function');
    if (!Array.isArray(tools) || tools.some((t) => typeof t !== 'string')) throw new SurfacesError('invalid_option', '/tools', 'tools is a list of tool names');
    this.#onUpdate = onUpdate;
    this.#tools = new Set(tools);
    this.#document = document === undefined ? null : this.#checked(clone(document, '/document'), '/document');
    this.#status = { run: 'idle', runId: null, error: null, needsSnapshot: this.#document === null };
  }

  /** The local draft (null before the first snapshot). */
  get document() {
    return this.#document;
  }

  /** One AG-UI event: the update it made. */
  receive(event) {
    return this.#step(() => this.#event(event));
  }

  /** The Build chat's own JSON Lines (`{"say"}`, `{"ops"}`, `{"done"}`), in chunks split anywhere: the update they made. */
  receiveText(chunk) {
    return this.#step(() => {
      // A turn's first chunk starts it, as RUN_STARTED starts a run.
      const chat = (this.#chat ??= ((this.#status.run = 'running'), { stream: new Stream('jsonl'), draft: null, partials: 0 }));
      for (const change of chat.stream.push(chunk)) this.#chatChange(chat, change);
    });
  }

  /** Reads events from `source` until it ends or `options.signal` aborts: a `Response` or `ReadableStream` of server-sent events, an `EventSource`, a `WebSocket` (one JSON event per message) or an async iterable of events. */
  async connect(source, options) {
    try {
      await this.#connect(source, options);
    } catch (e) {
      // A source that fails (a locked or read stream, an iterable that
      // throws) fails as every entry does: with a SurfacesError.
      throw e instanceof SurfacesError ? e : new SurfacesError('source_failed', '/source', `reading the source failed: ${e?.message ?? e}`);
    }
    // A source that ended in the middle of a run (no RUN_FINISHED or
    // RUN_ERROR) lost its connection: said, so the page can connect again.
    // One the page aborted did not.
    if (this.#status.run === 'running' && !options?.signal?.aborted) {
      throw new SurfacesError('source_failed', '/source', 'the source ended in the middle of a run; connect again (the server sends a snapshot, then what follows it)');
    }
  }

  async #connect(source, options) {
    const signal = options?.signal;
    if (signal?.aborted) return;
    // A string is no source (it would be read as events, a character each).
    if (typeof source === 'string') throw new SurfacesError('invalid_option', '/source', 'connect reads a Response, a ReadableStream, an EventSource, a WebSocket or an async iterable of events, not a string');
    // A successful Response without a body (a 204) holds no events.
    if (source?.body === null && source.ok === true) return;
    if (typeof source?.getReader === 'function' || typeof source?.body?.getReader === 'function') {
      // A Response that is no success is no event stream (its body is an error page).
      if (source.ok === false) throw new SurfacesError('source_failed', '/source', `the event stream answered ${source.status} ${source.statusText ?? ''}`.trim());
      return this.#sse(source.body ?? source, signal);
    }
    const listens = typeof source?.addEventListener === 'function' && typeof source?.close === 'function';
    if (listens) {
      return new Promise((resolve) => {
        const end = () => {
          source.close();
          source.removeEventListener('message', message);
          source.removeEventListener('close', end);
          source.removeEventListener('error', end);
          signal?.removeEventListener('abort', end);
          resolve();
        };
        const message = (e) => this.#json(e.data);
        source.addEventListener('message', message);
        // The stream ended or failed: an EventSource would reconnect by
        // itself and read the session again from its start, so it is
        // closed (resuming is a new connection, from a snapshot).
        source.addEventListener('close', end);
        source.addEventListener('error', end);
        signal?.addEventListener('abort', end);
      });
    }
    if (source?.[Symbol.asyncIterator] || source?.[Symbol.iterator]) {
      for await (const event of source) {
        if (signal?.aborted) return;
        if (typeof event === 'string') this.#json(event);
        else this.receive(event);
      }
      return;
    }
    throw new SurfacesError('invalid_option', '/source', 'connect reads a Response, a ReadableStream, an EventSource, a WebSocket or an async iterable of events');
  }

  /** The draft (or the section `sectionId`) rendered in preview mode, with the ghost drawn where it will land. */
  previewHtml(sectionId) {
    const doc = this.#document;
    if (!doc) return '';
    const sections = Array.isArray(doc.sections) ? doc.sections : [doc];
    let html = '';
    sections.forEach((section, i) => {
      const id = section?.id ?? String(i);
      if (sectionId !== undefined && id !== sectionId) return;
      html += this.#section(section, id, Array.isArray(doc.sections) ? `/sections/${i}` : '');
    });
    return html;
  }

  #section(section, id, at) {
    const label = (code, text) => `<div data-section-id="${escapeHtml(id)}" class="ch-placeholder" data-ch-placeholder="${code}"><span class="ch-placeholder-label">${escapeHtml(text)}</span></div>\n`;
    if (!Array.isArray(section?.components)) return label('not_a_surface', `Section "${id}" (${section?.kind ?? 'no kind'}): not a surface, not drawn here`);
    const g = this.#ghost;
    const ghost = g && !g.shifted && g.path.startsWith(`${at}/`) ? { op: g.op, path: g.path.slice(at.length), component: g.component } : null;
    const options = { catalog: this.#catalog, mode: 'preview', ghost };
    let out, known;
    // A prop being written shows its value so far, else the last value of
    // it drawn, unless that brings an issue the draft does not have (no
    // placeholder flickers in while a value is written). The draft alone is
    // rendered only when a value brings issues, or none is drawn.
    if (ghost && 'value' in g) {
      for (const value of new Set([g.value, g.drawn ?? g.value])) {
        const written = writtenProp(section, ghost, value);
        const tried = written && renderSurface(written, options);
        if (!tried?.ok) continue;
        // The draft's own issues, from its render (kept, as the fallback).
        if (tried.issues.length) known ??= new Set((out = renderSurface(section, options)).issues.map(issueKey));
        if (tried.issues.every((i) => known.has(issueKey(i)))) {
          g.drawn = value;
          out = tried;
          break;
        }
      }
    }
    out ??= renderSurface(section, options);
    if (out.ok) return out.html;
    const first = out.issues.find((i) => i.severity === 'error');
    return label(first.code, `Section "${id}": ${first.message} (at ${first.path || '/'})`);
  }

  #step(run) {
    const u = (this.#update = { changed: [], refusals: [], repairs: [], divergences: [], errors: [] });
    try {
      run();
    } catch (e) {
      if (!(e instanceof SurfacesError)) throw e;
      u.errors.push(problem(e.code, e.path, e.message));
    }
    this.#update = null;
    const update = { document: this.#document, ...u, changed: [...new Set(u.changed)], ghost: this.#ghostNow(), text: this.#textNow(), status: { ...this.#status } };
    this.#onUpdate?.(update);
    return update;
  }

  #json(text) {
    let event;
    try {
      event = JSON.parse(text);
    } catch (e) {
      return this.#step(() => this.#update.errors.push(problem('invalid_event', '', `an event that is not JSON: ${e.message}`)));
    }
    return this.receive(event);
  }

  // Server-sent events, read line by line as the chunks come: each chunk is
  // scanned once, an unfinished line is kept as pieces and joined when it
  // ends, so a long event in small chunks costs its length (not its length
  // times its chunks). A line ends at CRLF, LF or CR, also split between
  // two chunks; a blank line ends an event, whose `data:` lines are joined
  // by LF. What is left at the end of the stream is one last event.
  async #sse(stream, signal) {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    const abort = () => reader.cancel().catch(() => {});
    signal?.addEventListener('abort', abort);
    let pieces = [];
    let cr = false;
    let data = null;
    const dispatch = () => {
      if (data) this.#json(data.join('\n'));
      data = null;
    };
    const line = (text) => {
      if (text === '') dispatch();
      else if (text.startsWith('data:')) (data ??= []).push(text.slice(5).replace(/^ /, ''));
    };
    const ends = /\r\n|\r|\n/g;
    const read = (text) => {
      let from = cr && text.startsWith('\n') ? 1 : 0;
      cr = false;
      ends.lastIndex = from;
      for (let m; (m = ends.exec(text)); from = ends.lastIndex) {
        // A CR that ends the chunk may be the first half of a CRLF.
        if (m[0] === '\r' && m.index === text.length - 1) cr = true;
        pieces.push(text.slice(from, m.index));
        line(pieces.join(''));
        pieces = [];
      }
      if (from < text.length) pieces.push(text.slice(from));
    };
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        read(typeof value === 'string' ? value : decoder.decode(value, { stream: true }));
      }
      // An event the stream ends inside (no blank line after it: the
      // connection was cut) is not dispatched, as the SSE standard says.
      read(decoder.decode());
    } catch (e) {
      if (!signal?.aborted) throw new SurfacesError('source_failed', '/source', `the event stream failed: ${e?.message ?? e}`);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  #event(event) {
    const u = this.#update;
    if (!isObject(event) || typeof event.type !== 'string') {
      u.errors.push(problem('invalid_event', '/type', `not an AG-UI event (an object with a type): ${isObject(event) ? `type ${JSON.stringify(event.type)}` : typeof event}`));
      return;
    }
    // Other types, known to AG-UI (THINKING_*, MESSAGES_SNAPSHOT, ...) or
    // not, are ignored (SPEC.md section 15).
    if (Object.hasOwn(this.#on, event.type)) this.#on[event.type](event, this.#status);
  }

  // What each AG-UI event does (the others are ignored).
  #on = {
    // A run's start and end (and a snapshot, below) end the tool calls in
    // flight: a connection that broke mid-call never sends their end.
    RUN_STARTED: (e, s) => (this.#endCalls(), ([s.run, s.runId, s.error] = ['running', e.runId ?? null, null])),
    RUN_FINISHED: (e, s) => (this.#endCalls(), (s.run = 'finished')),
    RUN_ERROR: (e, s) => ((s.error = textField(e, 'message')), this.#endCalls(), (s.run = 'error')),
    STATE_SNAPSHOT: (e) => this.#snapshot(e.snapshot),
    STATE_DELTA: (e) => this.#delta(e.delta),
    TOOL_CALL_START: (e) => this.#callStart(e.toolCallId, e.toolCallName),
    TOOL_CALL_CHUNK: (e) => {
      const delta = textField(e, 'delta');
      if (e.toolCallName && !this.#calls.has(e.toolCallId)) this.#callStart(e.toolCallId, e.toolCallName);
      this.#callArgs(e.toolCallId, delta);
    },
    TOOL_CALL_ARGS: (e) => this.#callArgs(e.toolCallId, textField(e, 'delta')),
    TOOL_CALL_END: (e) => this.#callEnd(e.toolCallId),
    TEXT_MESSAGE_START: (e) => (this.#text = this.#message(e.messageId)),
    TEXT_MESSAGE_CONTENT: (e) => this.#say(e.messageId, textField(e, 'delta')),
    TEXT_MESSAGE_CHUNK: (e) => this.#say(e.messageId, textField(e, 'delta')),
    TEXT_MESSAGE_END: () => this.#textEnd(),
    CUSTOM: (e) => this.#custom(e.name, e.value),
  };

  #checked(doc, at) {
    if (!isObject(doc) || !(Array.isArray(doc.sections) || Array.isArray(doc.components))) {
      throw new SurfacesError('invalid_snapshot', at, 'a snapshot is a draft document: a page {"sections": [...]} or a surface {"components": [...]}');
    }
    return doc;
  }

  #snapshot(snapshot) {
    const doc = this.#checked(snapshot === undefined ? undefined : clone(snapshot, '/snapshot'), '/snapshot');
    // (Read from text, a value may still be too deep for JSON.stringify,
    // which the comparison makes: refused as a value given so is.)
    if (typeof snapshot === 'string') clone(doc, '/snapshot');
    this.#diff(this.#document, doc);
    this.#document = doc;
    this.#status.needsSnapshot = false;
    this.#endCalls();
    // The chat's next step starts from the snapshot, not from its own draft.
    if (this.#chat) this.#chat.draft = null;
  }

  /** No tool call in flight any more: its input and ghost are dropped. */
  #endCalls() {
    this.#calls.clear();
    [this.#ghostCall, this.#ghost] = [null, null];
  }

  /** The ids of the sections that differ between two drafts (in content or place, or gone), in `changed`. */
  #diff(before, after) {
    const ids = (d) => (Array.isArray(d?.sections) ? d.sections : d ? [d] : []).map((x, i) => [x?.id, JSON.stringify(x) + i]);
    const old = new Map(ids(before));
    const now = new Map(ids(after));
    for (const [id, text] of now) if (old.get(id) !== text) this.#update.changed.push(id);
    for (const [id] of old) if (!now.has(id)) this.#update.changed.push(id);
  }

  #delta(delta) {
    const u = this.#update;
    if (!Array.isArray(delta)) {
      u.errors.push(problem('invalid_event', '/delta', 'STATE_DELTA carries a list of RFC 6902 operations'));
      return;
    }
    if (!this.#document || this.#status.needsSnapshot) {
      // Before any snapshot, or after a delta that did not apply here: the
      // draft is stale until the snapshot asked for, so nothing patches it.
      const after = this.#document ? 'a delta that did not apply here, before the snapshot asked for' : 'any snapshot';
      u.divergences.push({ code: 'no_snapshot', op: 0, path: '', message: `a delta came after ${after}: it is not applied, the session asks for a snapshot` });
      this.#status.needsSnapshot = true;
      return;
    }
    const before = this.#document;
    const applied = applyPatch(before, delta);
    if (!applied.ok) {
      const { op, code, path, message } = applied.error;
      u.divergences.push({ code, op, path, message: `the server's delta does not apply here (${message}); the draft is as it was until a snapshot` });
      this.#status.needsSnapshot = true;
      return;
    }
    // A delta the local validator refuses is applied all the same (the server is the authority): each error it brings is reported.
    const errors = (d) => validate(d, { catalog: this.#catalog }).issues.filter((i) => i.severity === 'error');
    const known = new Set(errors(before).map((i) => errorKey(before, i)));
    for (const issue of errors(applied.document)) {
      if (known.has(errorKey(applied.document, issue))) continue;
      u.divergences.push({ code: 'VALIDATION_FAILED', path: issue.path, message: `the local validator refuses the draft this delta makes: ${issue.code}: ${issue.message}`, issues: [issue] });
    }
    this.#document = applied.document;
    // The sections that differ, by id (a removed, moved or replaced one
    // too), as a snapshot's are found.
    this.#diff(before, applied.document);
  }

  #callStart(id, name) {
    if (!this.#tools.has(name)) return;
    this.#calls.set(id, new ToolInput());
    this.#ghostCall = id;
    this.#ghost = null;
  }

  #callArgs(id, delta) {
    const input = this.#calls.get(id);
    if (!input || input.failed >= 0) return;
    input.push(delta);
    if (input.failed >= 0) {
      this.#update.errors.push(problem('invalid_tool_input', '/delta', `the tool call's input stopped being JSON at offset ${input.failed}; no ghost until the next call`));
    }
    if (id === this.#ghostCall) this.#ghost = input.failed >= 0 ? null : this.#ghostOf(input.writing(), input);
  }

  #callEnd(id) {
    const input = this.#calls.get(id);
    this.#calls.delete(id);
    if (id === this.#ghostCall) [this.#ghostCall, this.#ghost] = [null, null];
    if (input && input.failed < 0 && !input.complete) {
      this.#update.errors.push(problem('invalid_tool_input', '', "the tool call ended before its input became JSON"));
    }
  }

  /**
   * The operation being written, as a ghost: only what was read (no id or
   * path before its string ends). `read` says what changed since the last
   * one (`shape`: values placed; `growing`: the display string that grew):
   * when only a prop's display string grew, the last ghost's copy is kept
   * with that string, so a delta costs its length, not the ghost's size.
   */
  #ghostOf(op, read) {
    if (!op || typeof op.op !== 'string' || typeof op.path !== 'string') return null;
    const ghost = { op: op.op, path: op.path, partial: true, issues: [] };
    const value = op.value;
    const last = this.#ghost;
    const sameOp = last && last.path === ghost.path && last.op === ghost.op;
    const same = sameOp && last.read.shape === read.shape;
    // The component is copied and checked again once an eighth more of
    // the operation's values ended since it last was (each time, for a
    // small one): a long operation (a table of a thousand cells) costs
    // work linear in its length, not the square of it.
    const start = sameOp ? last.read.start : read.shape;
    let built = sameOp ? last.read.built : -1;
    const due = read.shape - built >= Math.max(1, (read.shape - start) >> 3);
    if (same && last.component?.props && read.growing && read.growing.object === value?.props) {
      ghost.component = { ...last.component, props: { ...last.component.props, [read.growing.key]: value.props[read.growing.key] } };
      ghost.issues = last.issues;
    } else if (sameOp && !due && last.component) {
      [ghost.component, ghost.issues] = [last.component, last.issues];
    } else if (isObject(value) && /\/components\/[^/]+$/.test(op.path) && ('component' in value || 'id' in value || 'props' in value)) {
      built = read.shape;
      const component = {};
      if (typeof value.id === 'string') component.id = value.id;
      if (typeof value.component === 'string') component.component = value.component;
      if (isObject(value.props)) component.props = clone(value.props);
      ghost.component = component;
      // The validator sees it again only when something in it ended.
      if (same) ghost.issues = last.issues;
      else if (component.component) ghost.issues = this.#ghostIssues(component, ghost.path);
    }
    // An earlier operation of the call or chat line (applied here when it ends)
    // that adds, removes or moves a component shifts positions: a ghost
    // naming a component by position then names another one here, and
    // previewHtml draws nothing of it (an added component, drawn last in
    // root, stays). Else a text, number or boolean read so far is drawn in
    // place, and what was last drawn of this operation carries over.
    const byPosition = /\/components\/\d+(\/|$)/.test(op.path) && !(op.op === 'add' && /\/components\/\d+$/.test(op.path));
    const shifted = byPosition && read.moved;
    Object.defineProperty(ghost, 'shifted', { value: shifted });
    if (['string', 'number', 'boolean'].includes(typeof value) && !shifted) Object.defineProperty(ghost, 'value', { value });
    const drawn = last && last.path === ghost.path && last.op === ghost.op ? last.drawn : undefined;
    Object.defineProperty(ghost, 'drawn', { value: drawn, writable: true });
    Object.defineProperty(ghost, 'read', { value: { shape: read.shape, start, built } });
    return ghost;
  }

  /** What the validator sees in a ghost's component: an unknown name, a prop written that fails (not one still to come). */
  #ghostIssues(component, at) {
    const issues = validateComponent({ id: component.id ?? 'ghost', ...component }, { catalog: this.#catalog, at });
    const written = (issue) => {
      const key = issue.path.slice(at.length).split('/')[2];
      return key !== undefined && Object.hasOwn(component.props ?? {}, key);
    };
    return issues.filter((i) => i.code === 'unknown_component' || (i.code === 'invalid_prop' && written(i)));
  }

  #ghostNow() {
    const g = this.#ghost;
    return g && { op: g.op, path: g.path, ...(g.component && { component: g.component }), partial: true, issues: g.issues };
  }

  #message(messageId) {
    return { messageId: messageId ?? null, stream: new Stream('markdown', { catalog: this.#catalog }), document: { blocks: [] }, complete: false };
  }

  #say(messageId, delta) {
    if (!this.#text || this.#text.complete || (messageId !== undefined && messageId !== this.#text.messageId)) this.#text = this.#message(messageId);
    const t = this.#text;
    t.document = applyChanges(t.document, t.stream.push(delta));
  }

  #textEnd() {
    const t = this.#text;
    if (!t || t.complete) return;
    t.document = t.stream.finish().document;
    t.complete = true;
  }

  #textNow() {
    const t = this.#text;
    return t && { messageId: t.messageId, blocks: t.document.blocks, complete: t.complete };
  }

  #custom(name, value) {
    const list = (v, key) => (Array.isArray(v) ? v : Array.isArray(v?.[key]) ? v[key] : v == null ? [] : [v]);
    if (name === "validation_failed") this.#update.refusals.push(...list(value, 'refused'));
    else if (name === 'repairs') this.#update.repairs.push(...list(value, 'repairs'));
  }

  /** One change of the Build chat's JSON Lines: a step through the local pipeline, a say, done. */
  #chatChange(chat, change) {
    const u = this.#update;
    if (change.kind === 'error') return void u.errors.push(problem(change.code, '', `line ${change.line}: ${change.message}`));
    if (change.kind === 'partial') {
      // The unfinished line, read leniently by the stream (nothing invented;
      // a display prop's value as it grows). Its operations are applied when
      // it ends, so one before the last may have moved components.
      const ops = Array.isArray(change.value?.ops) ? change.value.ops : [];
      const op = ops.at(-1);
      this.#ghost = this.#ghostOf(isObject(op) ? op : null, { shape: ++chat.partials, growing: null, moved: ops.slice(0, -1).some(movesComponents) });
      return;
    }
    const value = change.kind === 'step' ? { ops: change.ops } : change.value;
    // `{"ops": {...}}`: one operation, as a Draft takes it.
    if (isObject(value?.ops)) value.ops = [value.ops];
    if (change.kind === 'text' || typeof value?.say === 'string') {
      this.#say('chat', `${change.kind === 'text' ? change.text : value.say}\n`);
    }
    if (Array.isArray(value?.ops)) {
      this.#ghost = null;
      if (!this.#document) this.#document = { sections: [] };
      const before = this.#document;
      chat.draft ??= new Draft(before, { catalog: this.#catalog });
      const r = chat.draft.apply(value.ops);
      u.refusals.push(...r.refused);
      u.repairs.push(...r.repairs);
      this.#document = chat.draft.document();
      this.#diff(before, this.#document);
    }
    if (value?.done !== undefined && value?.done !== false) {
      this.#ghost = null;
      if (chat.draft) {
        u.refusals.push(...chat.draft.settle().refused);
        chat.draft.free();
      }
      this.#textEnd();
      this.#chat = null;
      // The end of the turn, as RUN_FINISHED ends a run.
      this.#status.run = 'finished';
    }
  }
}

/**
 * The section and component under the point (`x`, `y`, in the viewport of
 * `root`'s document: inside a preview frame, subtract the frame's offset)
 * in markup rendered in preview mode: `{sectionId, componentId?}`, or null.
 * Found by geometry (the document's hit testing), so nothing runs inside a
 * sandboxed preview frame and its document is not changed.
 */
export function previewTargetAt(root, x, y) {
  // (It needs no wasm, but every call waits for init, as SPEC.md 13 has it.)
  need();
  const doc = root?.ownerDocument ?? root;
  if (typeof doc?.elementsFromPoint !== 'function') {
    throw new SurfacesError('invalid_option', '/root', 'previewTargetAt takes the preview\'s document or an element in it');
  }
  for (const [at, v] of [['/x', x], ['/y', y]]) {
    if (!Number.isFinite(v)) throw new SurfacesError('invalid_option', at, `${at.slice(1)} is a finite number of CSS pixels in the viewport, got ${typeof v === 'number' ? v : typeof v}`);
  }
  const inside = (el) => root === doc || root.contains(el);
  for (const hit of doc.elementsFromPoint(x, y)) {
    if (!inside(hit)) continue;
    const section = hit.closest('[data-section-id]');
    if (!section || !inside(section)) continue;
    // An invalid prop's placeholder follows its component and names it.
    const component = hit.closest('[data-component-id],[data-ch-placeholder-of]');
    const target = { sectionId: section.getAttribute('data-section-id') };
    if (component && section.contains(component)) {
      target.componentId = component.getAttribute('data-component-id') ?? component.getAttribute('data-ch-placeholder-of');
    }
    return target;
  }
  return null;
}
