// npm ./build's BuildSession (SPEC.md section 15) driven by real AG-UI
// events: the demo's recorded session (its deltas made by fast-json-patch's
// compare), each event checked by @ag-ui/core's schemas, sent as server-sent
// events by @ag-ui/encoder (the demo server's /session) and read back by
// @ag-ui/client, with fast-json-patch applying the deltas as the oracle of
// the server's draft.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { EventSchemas } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { runHttpRequest, transformHttpEventStream } from '@ag-ui/client';
import { root, startServer } from '../browser/e2e/harness.mjs';

let b;
before(async () => {
  b = await import(join(root, 'npm/build.js'));
  await b.default();
  const { recordedSession, start: first } = await import(join(root, 'demo/session.mjs'));
  recorded = await recordedSession();
  start = first;
});
let start;

let recorded;
// The demo's recorded session (demo/session.mjs): a scripted agent building a
// landing page, its server side through the package's pipeline.
const session = () => recorded;
/** The server's draft by the peer: the snapshot, then each delta applied by fast-json-patch. */
const oracle = (events) =>
  events.reduce((doc, e) => (e.type === 'STATE_SNAPSHOT' ? structuredClone(e.snapshot) : e.type === 'STATE_DELTA' ? jsonpatch.applyPatch(doc, structuredClone(e.delta), true, false).newDocument : doc), null);

test('the recorded session speaks AG-UI: every event passes @ag-ui/core\'s schemas, and its deltas make the server\'s draft', () => {
  const { events, document: doc, drafts } = session();
  for (const e of events) assert.equal(EventSchemas.safeParse(e).success, true, JSON.stringify(e));
  assert.deepEqual(oracle(events), doc);
  drafts.forEach((d, i) => assert.deepEqual(oracle(events.slice(0, i + 1)) ?? start(), d, `the draft after event ${i}`));
});

test('the demo server\'s /session, read by @ag-ui/client, gives the recorded events; BuildSession reads it to the server\'s draft', async () => {
  const site = await startServer();
  try {
    const url = `${site.origin}/session?delay=0`;
    const read = await new Promise((resolve, reject) => {
      const got = [];
      transformHttpEventStream(runHttpRequest(() => fetch(url))).subscribe({ next: (e) => got.push(e), error: reject, complete: () => resolve(got) });
    });
    assert.deepEqual(read, session().events);
    const s = new b.BuildSession();
    await s.connect(await fetch(url));
    assert.deepEqual(s.document, session().document);
    // A reconnect after 40 events: a snapshot of the draft then, and the rest.
    const resumed = await new Promise((resolve, reject) => {
      const got = [];
      transformHttpEventStream(runHttpRequest(() => fetch(`${url}&from=40`))).subscribe({ next: (e) => got.push(e), error: reject, complete: () => resolve(got) });
    });
    assert.deepEqual(resumed, [{ type: 'STATE_SNAPSHOT', snapshot: session().drafts[39] }, ...session().events.slice(40)]);
  } finally {
    await site.close();
  }
});

test('events received one by one keep the server\'s draft, the ghost, the text, refusals and repairs', () => {
  const { events, document: doc } = session();
  const updates = [];
  const s = new b.BuildSession({ onUpdate: (u) => updates.push(u) });
  for (const e of events) s.receive(e);
  assert.equal(updates.length, events.length, 'one update per event');
  assert.deepEqual(s.document, doc);
  assert.deepEqual(updates.at(-1).document, doc);
  assert.equal(updates.at(-1).status.run, 'finished');
  assert.equal(updates.at(-1).status.needsSnapshot, false);
  assert.deepEqual(updates.flatMap((u) => [...u.errors, ...u.divergences]), [], 'a faithful server diverges nowhere');
  // Repairs and refusals came through CUSTOM events, each on its own update.
  assert.equal(updates.flatMap((u) => u.repairs).map((r) => r.code).join(), 'snap_component');
  const refusals = updates.flatMap((u) => u.refusals);
  assert.equal(refusals.length, 1);
  assert.equal(refusals[0].code, 'VALIDATION_FAILED');
  // Deltas name the section they changed.
  const changed = updates.filter((u, i) => events[i].type === 'STATE_DELTA').map((u) => u.changed.join());
  assert.deepEqual([...new Set(changed)], ['sec_hero', 'sec_faq']);
  // The ghost: while a call is written, never an invented id or path; gone at its end.
  const ghosts = updates.map((u, i) => [events[i], u.ghost]);
  for (const [e, g] of ghosts) {
    if (e.type !== 'TOOL_CALL_ARGS') assert.equal(g, null, `${e.type} leaves no ghost`);
    if (!g) continue;
    assert.ok(['/sections/0/components/-', '/sections/0/components/0/children/-', '/sections/0/components/2/props/href', '/sections/0/components/0/children/1', '/sections/-'].includes(g.path), g.path);
    if (g.component?.id !== undefined) assert.ok(['title', 'cta', 'pitch', 'sec_faq'].includes(g.component.id), g.component.id);
  }
  const intro = ghosts.filter(([, g]) => g?.component?.id === 'pitch').map(([, g]) => g.component.props?.text ?? '');
  assert.ok(intro.length > 10, 'the long paragraph shows as a ghost over many deltas');
  assert.ok(intro.every((t, i) => i === 0 || t.startsWith(intro[i - 1].slice(0, -1))), 'its text only grows');
  assert.ok(ghosts.every(([, g]) => !g?.issues.some((i) => /required/.test(i.message))), 'a prop still to come is no issue of a ghost');
  const typo = ghosts.find(([, g]) => g?.component?.component === 'Buton')[1];
  assert.equal(typo.issues[0].code, 'unknown_component');
  assert.match(typo.issues[0].message, /did you mean "Button"/);
  // The assistant's text through the markdown stream: the open block healed while it streams.
  const mid = updates.find((u, i) => events[i].type === 'TEXT_MESSAGE_CONTENT' && /\*\*landing( p?a?g?)?$/.test(u.text.blocks[0]?.text ?? ''));
  assert.equal(mid.text.complete, false);
  assert.match(mid.text.blocks[0].healed, /\*\*landing( page)?\*\*/);
  assert.equal(updates.at(-1).text.complete, true);
  assert.equal(updates.at(-1).text.messageId, 'msg_4');
  assert.match(updates.at(-1).text.blocks[0].text, /^Done: the page has a \*\*hero\*\*/);
});

const sse = (events) => events.map((e) => new EventEncoder().encode(e)).join('');
const chunked = (text, cuts) => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
  const parts = [];
  let from = 0;
  for (const c of [...at, text.length]) (parts.push(text.slice(from, c)), (from = c));
  return parts;
};
const bytes = (parts) => {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
};

test('server-sent events from @ag-ui/encoder, in any chunking, end in the server\'s draft', async () => {
  const { events, document: doc } = session();
  const text = sse(events);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (cuts) => {
      const s = new b.BuildSession();
      await s.connect(new Response(bytes(chunked(text, cuts))));
      assert.deepEqual(s.document, doc);
    }),
    { numRuns: 60 },
  );
});

test('server-sent events with CR, LF or CRLF line ends, comments and multi-line data, in any chunking (a CRLF split too), end in the server\'s draft', async () => {
  const { events, document: doc } = session();
  // Each event's JSON over several `data:` lines (joined by LF, JSON's
  // white space), a comment before it, every line end one of the three.
  const lines = events.flatMap((e) => [': ping', ...JSON.stringify(e, null, 1).split('\n').map((l, i) => (i % 2 ? `data:${l}` : `data: ${l}`)), '']);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom('\n', '\r', '\r\n'), { minLength: lines.length, maxLength: lines.length }), fc.array(fc.nat(), { maxLength: 400 }), async (ends, cuts) => {
      // (A blank line's LF right after a CR would make one CRLF of them.)
      const text = lines.map((l, i) => l + (l === '' && ends[i - 1] === '\r' && ends[i] === '\n' ? '\r\n' : ends[i])).join('');
      // Cut inside some CRLFs as well as anywhere.
      const crlf = [...text.matchAll(/\r\n/g)].map((m) => m.index + 1).filter((_, i) => i % 3 === 0);
      const updates = [];
      const s = new b.BuildSession({ onUpdate: (u) => updates.push(u) });
      await s.connect(new Response(bytes(chunked(text, [...cuts, ...crlf]))));
      assert.deepEqual(s.document, doc);
      assert.equal(updates.length, events.length, 'one update per event, none lost or split');
      assert.deepEqual(updates.flatMap((u) => u.errors), []);
    }),
    { numRuns: 40 },
  );
});

test('a reconnect at any point (a snapshot of the server, then the deltas after it) ends in the server\'s draft', async () => {
  const { events, document: doc } = session();
  for (let cut = 0; cut <= events.length; cut++) {
    const s = new b.BuildSession();
    const abort = new AbortController();
    // The first connection drops after `cut` events.
    await s.connect(
      (async function* () {
        for (const [i, e] of events.entries()) {
          if (i === cut) return abort.abort();
          yield e;
        }
      })(),
      { signal: abort.signal },
    );
    // The server resumes: its draft at that point as a snapshot, then the rest.
    const server = oracle(events.slice(0, cut)) ?? start();
    const rest = [{ type: 'STATE_SNAPSHOT', snapshot: server }, ...events.slice(cut)];
    await s.connect(rest);
    assert.deepEqual(s.document, doc, `reconnected after ${cut} events`);
  }
});

test('the ghost after every prefix of a tool call holds only what the text finished, and the finished call at its end', () => {
  const op = { op: 'add', path: '/sections/0/components/-', value: { id: 'faq-1', component: 'Heading', props: { level: 2, text: 'Questions "and" answers \u00e9\ud83d\ude00', tone: 'muted' } } };
  const input = JSON.stringify({ ops: [{ op: 'replace', path: '/sections/0/data', value: {} }, op] }, null, 1);
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 30 }), (cuts) => {
      const s = new b.BuildSession({ document: start() });
      s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
      let read = '';
      let last = null;
      for (const part of chunked(input, cuts)) {
        read += part;
        const g = s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: part }).ghost;
        if (!g) continue;
        // Only ids and paths whose string has ended, never a cut one.
        assert.ok(['/sections/0/data', op.path].includes(g.path), g.path);
        if (g.component) {
          if ('id' in g.component) assert.equal(g.component.id, 'faq-1');
          if ('component' in g.component) assert.equal(g.component.component, 'Heading');
          const text = g.component.props?.text;
          if (text !== undefined) assert.ok(op.value.props.text.startsWith(text), `a cut display string shows closed: ${text}`);
          if ('level' in (g.component.props ?? {})) assert.equal(g.component.props.level, 2);
          if ('tone' in (g.component.props ?? {})) assert.equal(g.component.props.tone, 'muted');
        }
        last = g;
      }
      // Once the input is whole (before TOOL_CALL_END) the ghost is the parse of its last operation.
      assert.equal(read, input);
      assert.equal(last.path, op.path);
      assert.deepEqual(last.component, op.value);
      assert.equal(s.receive({ type: 'TOOL_CALL_END', toolCallId: 'c' }).ghost, null);
    }),
    { numRuns: 200 },
  );
});

test('bad input: a coded entry in the update, the session still running, the last good draft kept', async () => {
  const s = new b.BuildSession({ document: start() });
  const good = structuredClone(s.document);
  // Events it does not act on are ignored (SPEC.md section 15), AG-UI's
  // own before 1.0 among them; what is no event at all is reported.
  for (const type of ['THINKING_START', 'MESSAGES_SNAPSHOT', 'NOT_AN_EVENT']) {
    const ignored = s.receive({ type });
    assert.deepEqual([ignored.errors, ignored.changed, ignored.document], [[], [], good], type);
  }
  const notAgUi = s.receive({ kind: 'RUN_STARTED' });
  assert.deepEqual(notAgUi.errors.map((e) => [e.code, e.path]), [['invalid_event', '/type']]);
  assert.equal(s.receive(42).errors[0].code, 'invalid_event');
  // A text field that is no string (AG-UI's schemas hold each a string):
  // reported at its pointer, nothing read, not a TypeError from String().
  for (const [type, name] of [['TOOL_CALL_ARGS', 'delta'], ['TOOL_CALL_CHUNK', 'delta'], ['TEXT_MESSAGE_CONTENT', 'delta'], ['TEXT_MESSAGE_CHUNK', 'delta'], ['RUN_ERROR', 'message']]) {
    for (const value of [Object.create(null), { toString: () => 'x' }, ['a'], 5]) {
      const update = s.receive({ type, toolCallId: 'c', messageId: 'm', [name]: value });
      assert.deepEqual(update.errors.map((e) => [e.code, e.path]), [['invalid_event', `/${name}`]], `${type} ${name}`);
      assert.deepEqual([update.document, update.ghost, update.status.run], [good, null, 'idle'], type);
    }
  }
  // A point that is no finite number, refused before the DOM is asked.
  const doc = { elementsFromPoint: () => [] };
  for (const [x, y, at] of [[NaN, 0, '/x'], [0, Infinity, '/y'], ['1', 2, '/x'], [undefined, 2, '/x']]) {
    assert.throws(() => b.previewTargetAt(doc, x, y), (e) => e instanceof b.SurfacesError && e.code === 'invalid_option' && e.path === at, `${x} ${y}`);
  }
  // None given reads as '' (not the text "undefined").
  s.receive({ type: 'TEXT_MESSAGE_START', messageId: 'n' });
  assert.deepEqual(s.receive({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'n' }).text.blocks, []);
  assert.deepEqual(s.receive({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'Hi' }).text.blocks.map((b) => b.text), ['Hi']);
  const cyclic = { components: [] };
  cyclic.self = cyclic;
  const loop = s.receive({ type: 'STATE_SNAPSHOT', snapshot: cyclic });
  assert.deepEqual(loop.errors.map((e) => [e.code, e.path]), [['invalid_json', '/snapshot']]);
  // As text, nested past what JSON.stringify can write: refused the same way
  // (it threw a RangeError), the draft kept.
  const deepText = `{"components":[],"data":${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}}`;
  const deep = s.receive({ type: 'STATE_SNAPSHOT', snapshot: deepText });
  assert.deepEqual(deep.errors.map((e) => [e.code, e.path]), [['invalid_json', '/snapshot']]);
  assert.deepEqual(s.document, good);
  const snap = s.receive({ type: 'STATE_SNAPSHOT', snapshot: { not: 'a document' } });
  assert.deepEqual(snap.errors.map((e) => [e.code, e.path]), [['invalid_snapshot', '/snapshot']]);
  assert.deepEqual(s.document, good, 'a snapshot that is no document leaves the draft');
  // A delta that does not apply here: a divergence with its code, the draft as it was, a snapshot asked for.
  const lost = s.receive({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/sections/0/components/0/children/-', value: 'x' }, { op: 'remove', path: '/sections/7' }] });
  assert.deepEqual(lost.divergences.map((d) => [d.code, d.op]), [['path_not_found', 1]]);
  assert.equal(lost.status.needsSnapshot, true);
  assert.deepEqual(s.document, good);
  // Until the snapshot comes, the draft is stale: a later delta is not applied to it.
  const odd = { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/sections/0/components/0/children/-', value: 'ghost-child' }] };
  const stale = s.receive(odd);
  assert.deepEqual(stale.divergences.map((d) => d.code), ['no_snapshot']);
  assert.deepEqual(s.document, good);
  assert.equal(s.receive({ type: 'STATE_SNAPSHOT', snapshot: good }).status.needsSnapshot, false);
  // One the local validator refuses is applied all the same (the server is the authority) and reported.
  const refused = s.receive(odd);
  assert.equal(refused.divergences[0].code, 'VALIDATION_FAILED');
  assert.deepEqual(s.document.sections[0].components[0].children, ['ghost-child']);
  // Tool input that never becomes JSON.
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const broken = s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops": [}' });
  assert.equal(broken.errors[0].code, 'invalid_tool_input');
  assert.equal(broken.ghost, null);
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'd', toolCallName: 'patch_draft' });
  s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'd', delta: '{"ops": [{"op": "add"' });
  assert.equal(s.receive({ type: 'TOOL_CALL_END', toolCallId: 'd' }).errors[0].code, 'invalid_tool_input');
  // What is thrown, at once: a document to start from that is none (its
  // JSON text is one), a catalog that does not load, options of the wrong
  // type, a source that is none, a Response that is no success, a stream
  // that fails.
  const thrown = (code, path) => (e) => e instanceof b.SurfacesError && e.code === code && e.path === path;
  assert.throws(() => new b.BuildSession({ document: 5 }), thrown('invalid_snapshot', '/document'));
  assert.throws(() => new b.BuildSession({ document: cyclic }), thrown('invalid_json', '/document'));
  assert.deepEqual(new b.BuildSession({ document: JSON.stringify(start()) }).document, start());
  assert.throws(() => new b.BuildSession({ catalog: 'shop@2' }), (e) => e instanceof b.SurfacesError && e.code === 'invalid_catalog');
  assert.throws(() => new b.BuildSession({ onUpdate: 5 }), thrown('invalid_option', '/onUpdate'));
  assert.throws(() => new b.BuildSession({ tools: 'patch_draft' }), thrown('invalid_option', '/tools'));
  await assert.rejects(s.connect(42), thrown('invalid_option', '/source'));
  const page500 = new Response('data: {"type":"RUN_ERROR","message":"x"}\n\n', { status: 500 });
  await assert.rejects(s.connect(page500), (e) => thrown('source_failed', '/source')(e) && /500/.test(e.message));
  const down = new ReadableStream({ start: (c) => c.error(new Error('network down')) });
  await assert.rejects(s.connect(down), (e) => thrown('source_failed', '/source')(e) && /network down/.test(e.message));
  assert.equal(s.receive({ type: 'NOOP' }).status.run, 'idle', 'the error page was not read as events');
  // An event stream whose message is no JSON: a coded entry, the stream read on.
  const seen = [];
  const t = new b.BuildSession({ document: start(), onUpdate: (u) => seen.push(u) });
  // (It ends in the middle of the run it started: the connection was lost,
  // said as source_failed once every event it held was read.)
  await assert.rejects(t.connect(new Response('data: {nope\n\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n')), (e) => thrown('source_failed', '/source')(e) && /middle of a run/.test(e.message));
  assert.deepEqual(seen.map((u) => [u.errors.map((e) => e.code).join(), u.status.run]), [['invalid_event', 'idle'], ['', 'running']]);
  // Ended after its run finished, or aborted by the page: no failure.
  await t.connect([{ type: 'RUN_FINISHED', threadId: 't', runId: 'r' }]);
  const stop = new AbortController();
  await t.connect((async function* () {
    yield { type: 'RUN_STARTED', threadId: 't', runId: 'r2' };
    stop.abort();
    yield { type: 'RUN_FINISHED', threadId: 't', runId: 'r2' };
  })(), { signal: stop.signal });
  assert.equal(t.receive({ type: 'NOOP' }).status.run, 'running', 'aborted before the run finished');
  // Through all of it the session kept running.
  assert.equal(s.receive({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' }).status.run, 'finished');
  // A stream that ends inside an event (no blank line after it: the
  // connection was cut) does not dispatch it, as the SSE standard says.
  const cut = [];
  const u = new b.BuildSession({ document: start(), onUpdate: (x) => cut.push(x) });
  const cutShort = u.connect(new Response('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n'));
  await assert.rejects(cutShort, thrown('source_failed', '/source'), 'and the run it left open says the connection was lost');
  assert.deepEqual(cut.map((x) => x.status.run), ['running']);
});

test('receiveText: the Build chat\'s JSON Lines through the local pipeline, held steps across steps, the end-of-round refusal', () => {
  const s = new b.BuildSession({ document: start() });
  const lines = [
    { say: 'Adding a title.' },
    { ops: [{ op: 'add', path: '/sections/0/components/-', value: { id: 'title', component: 'Heading', props: { text: 'Hello' } } }] },
    { ops: [{ op: 'add', path: '/sections/0/components/0/children/-', value: 'title' }] },
    { ops: [{ op: 'add', path: '/sections/0/components/-', value: { id: 'lost', component: 'Text', props: { text: 'never linked' } } }] },
    { done: true },
  ];
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const updates = [];
  for (let i = 0; i < text.length; i += 9) updates.push(s.receiveText(text.slice(i, i + 9)));
  const title = s.document.sections[0].components.find((c) => c.id === 'title');
  assert.equal(title.props.text, 'Hello', 'the held add was applied with the step that linked it');
  assert.ok(!s.document.sections[0].components.some((c) => c.id === 'lost'));
  const refused = updates.flatMap((u) => u.refusals);
  assert.equal(refused.length, 1, 'what still waited at done is refused');
  assert.equal(refused[0].path, '/sections/0/components/-');
  assert.ok(updates.some((u) => u.ghost?.component?.id === 'title'), 'the unfinished line shows as a ghost');
  assert.match(updates.at(-1).text.blocks[0].text, /Adding a title\./);
  assert.ok(updates.some((u) => u.changed.includes('sec_hero')));
  // The turn's status, as RUN_STARTED and RUN_FINISHED would set it.
  assert.deepEqual([updates[0].status.run, updates.at(-2).status.run, updates.at(-1).status.run], ['running', 'running', 'finished']);
});

test('a ghost\'s issues: a written prop that fails its schema, checked again once a value in it ended', () => {
  const s = new b.BuildSession({ document: start() });
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const at = (delta) => s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta }).ghost;
  assert.deepEqual(at('{"ops":[{"op":"add","path":"/sections/0/components/-","value":{"id":"h","component":"Heading","props":{"text":"Hi').issues, []);
  assert.deepEqual(at('","level":9').issues, [], 'a number at the end may still grow');
  const bad = at(',').issues;
  assert.deepEqual(bad.map((i) => [i.code, i.path]), [['invalid_prop', '/sections/0/components/-/props/level']]);
});

test('previewHtml: preview markup per section, the ghost drawn where it lands', () => {
  const s = new b.BuildSession({ document: start() });
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"add","path":"/sections/0/components/-","value":{"id":"cta","component":"Button","props":{"label":"Sta' });
  const html = s.previewHtml();
  assert.match(html, /data-section-id="sec_hero"/);
  assert.match(html, /data-component-id="cta" data-ch-ghost/);
  assert.match(html, />Sta</);
  assert.equal(s.previewHtml('sec_hero'), html);
  assert.equal(s.previewHtml('nope'), '');
});

test('previewHtml: a prop being written shows the value read so far, in place; one it would make invalid shows the last value', () => {
  const doc = start();
  doc.sections[0].components = [
    { id: 'root', component: 'Stack', children: ['title', 'cta'] },
    { id: 'title', component: 'Heading', props: { text: 'Old title' } },
    { id: 'cta', component: 'Button', props: { label: 'Go', href: '/go', variant: 'secondary' } },
  ];
  const writing = (op) => {
    const s = new b.BuildSession({ document: doc });
    s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
    s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: `{"ops":[${op}` });
    return s.previewHtml();
  };
  // By position and by id: the text so far, the component marked as the ghost.
  for (const at of ['1', 'title']) {
    const html = writing(`{"op":"replace","path":"/sections/0/components/${at}/props/text","value":"New ti`);
    assert.match(html, /<h2 data-component-id="title" data-ch-ghost[^>]*>New ti<\/h2>/);
    assert.doesNotMatch(html, /Old title/);
  }
  // A prop not written yet gets its value as it comes.
  assert.match(writing('{"op":"add","path":"/sections/0/components/cta/props/label","value":"Sta'), />Sta</);
  // A value the prop does not take: the last one stays, no placeholder.
  const half = writing('{"op":"replace","path":"/sections/0/components/cta/props/variant","value":"nope"');
  assert.match(half, /ch-variant-secondary/);
  assert.doesNotMatch(half, /data-ch-placeholder/);
  // Deeper than a prop, or a remove: drawn as the component marked, nothing substituted.
  assert.match(writing('{"op":"remove","path":"/sections/0/components/title/props/text"'), /data-ch-ghost[^>]*>Old title</);
  // What the operation cannot apply is not drawn: a replace of a prop not
  // there, an add into a component without props (RFC 6902 refuses both).
  assert.doesNotMatch(writing('{"op":"replace","path":"/sections/0/components/cta/props/disabled","value":true'), / disabled/);
  assert.doesNotMatch(writing('{"op":"add","path":"/sections/0/components/0/props/gap","value":"large"'), /ch-gap-large/);
  // Half an escaped surrogate pair shows the text before it, not the old value.
  assert.match(writing('{"op":"replace","path":"/sections/0/components/title/props/text","value":"Hi \\ud83d'), />Hi <\/h2>/);
});

test('receiveText: a prop being written grows in the preview as over tool calls; after an operation of the line that moved components, by position it is not drawn', () => {
  const doc = { components: [{ id: 'root', component: 'Stack', children: ['a', 'b'] },
    { id: 'a', component: 'Text', props: { text: 'A text' } }, { id: 'b', component: 'Text', props: { text: 'B text' } }] };
  const s = new b.BuildSession({ document: doc });
  s.receiveText('{"say":"Renaming."}\n{"ops":[{"op":"replace","path":"/components/1/props/text","value":"New');
  assert.match(s.previewHtml(), /data-component-id="a" data-ch-ghost[^>]*>New</);
  s.receiveText(' A');
  assert.match(s.previewHtml(), /data-component-id="a" data-ch-ghost[^>]*>New A</);
  assert.doesNotMatch(s.previewHtml(), /A text/);
  s.receiveText('"}]}\n');
  assert.equal(s.document.components[1].props.text, 'New A');
  assert.doesNotMatch(s.previewHtml(), /data-ch-ghost/);
  // The line's operations are applied when it ends: after a remove, /components/1 is B.
  const moved = (target) => {
    const m = new b.BuildSession({ document: doc });
    m.receiveText(`{"ops":[{"op":"remove","path":"/components/1"},{"op":"replace","path":"/components/${target}/props/text","value":"New B`);
    return m.previewHtml();
  };
  assert.doesNotMatch(moved('1'), /New B|data-ch-ghost/);
  assert.match(moved('b'), /data-component-id="b"[^>]*>New B</);
});

test('previewHtml: a value the props refuse as a whole is not drawn; past a limit, the last value drawn stays', () => {
  const catalog = JSON.parse(readFileSync(join(root, 'npm/catalog/blog@1.json'), 'utf8'));
  catalog.catalog = 'custom@1';
  const heading = catalog.components.Heading.props;
  heading.properties.subtitle = { type: 'string', maxLength: 100 };
  heading.required = [];
  heading.oneOf = [{ required: ['text'] }, { required: ['subtitle'] }];
  const doc = { components: [{ id: 'root', component: 'Stack', children: ['t'] }, { id: 't', component: 'Heading', props: { text: 'Old title' } }] };
  const s = new b.BuildSession({ document: doc, catalog });
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const at = (delta) => (s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta }), s.previewHtml());
  // Text and subtitle together match both forms of oneOf: refused at
  // /components/1/props, so the heading stays as it is, no placeholder.
  const both = at('{"ops":[{"op":"add","path":"/components/t/props/subtitle","value":"Sub"');
  assert.match(both, /data-ch-ghost[^>]*>Old title</);
  assert.doesNotMatch(both, /data-ch-placeholder/);
  // A text growing past the catalog's 200 characters keeps its last 200 drawn.
  const long = new b.BuildSession({ document: doc });
  long.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const add = (delta) => (long.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta }), long.previewHtml());
  add('{"ops":[{"op":"replace","path":"/components/1/props/text","value":"');
  assert.match(add('x'.repeat(200)), new RegExp(`>${'x'.repeat(200)}<`));
  const past = add('y');
  assert.match(past, new RegExp(`>${'x'.repeat(200)}<`));
  assert.doesNotMatch(past, /data-ch-placeholder/);
  // An earlier operation of the call (applied here once the call ends)
  // moves positions: B's new text by position is not drawn, where it would
  // land on A; by id it is drawn on B.
  const pair = { components: [{ id: 'root', component: 'Stack', children: ['a', 'b'] },
    { id: 'a', component: 'Text', props: { text: 'A text' } }, { id: 'b', component: 'Text', props: { text: 'B text' } }] };
  const moved = (target) => {
    const m = new b.BuildSession({ document: pair });
    m.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
    m.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: `{"ops":[{"op":"remove","path":"/components/1"},{"op":"replace","path":"/components/${target}/props/text","value":"New B` });
    return m.previewHtml();
  };
  assert.doesNotMatch(moved('1'), /New B/);
  assert.doesNotMatch(moved('1'), /data-ch-ghost/, 'not A marked as the ghost either');
  assert.match(moved('b'), /data-component-id="b"[^>]*>New B</);
});


test('a run that ends, or a snapshot, ends the tool calls in flight: no stale ghost; a broken tool input shows none', () => {
  for (const end of [{ type: 'RUN_FINISHED', threadId: 't', runId: 'r' }, { type: 'RUN_ERROR', message: 'x' }, { type: 'STATE_SNAPSHOT', snapshot: start() }, { type: 'RUN_STARTED', threadId: 't', runId: 'r2' }]) {
    const s = new b.BuildSession({ document: start() });
    s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
    const half = s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"add","path":"/sections/0/components/-","value":{"id":"h","component":"Heading","props":{"text":"Half-writ' });
    assert.ok(half.ghost, end.type);
    assert.equal(s.receive(end).ghost, null, end.type);
    assert.doesNotMatch(s.previewHtml(), /Half-writ|data-ch-ghost/, end.type);
    // What the broken connection's call still sends is no call of this session's.
    assert.equal(s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'ten"' }).ghost, null, end.type);
  }
  const s = new b.BuildSession({ document: start() });
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"add","path":"/sections/0/components/-","value":{"id":"h","component":"Heading","props":{"text":"Hi"}}}' });
  // Two values with no comma between: no JSON, reported, and no ghost.
  const broken = s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: ' {"op":"remove","path":"/sections/0/components/0"}' });
  assert.deepEqual(broken.errors.map((e) => e.code), ['invalid_tool_input']);
  assert.equal(broken.ghost, null);
});

test('receiveText: a snapshot mid-turn is where the next step starts; one operation object in ops is a step too', () => {
  const s = new b.BuildSession({ document: start() });
  const add = (id) => JSON.stringify({ ops: [{ op: 'add', path: '/sections/0/components/-', value: { id, component: 'Text', props: { text: id } } }, { op: 'add', path: '/sections/0/components/0/children/-', value: id }] }) + '\n';
  s.receiveText(add('one'));
  const snapshot = start();
  snapshot.sections[0].components[0].children = ['server'];
  snapshot.sections[0].components.push({ id: 'server', component: 'Text', props: { text: 'from the server' } });
  s.receive({ type: 'STATE_SNAPSHOT', snapshot });
  s.receiveText(add('two'));
  assert.deepEqual(s.document.sections[0].components.map((c) => c.id), ['root', 'server', 'two']);
  const one = s.receiveText('{"ops":{"op":"replace","path":"/sections/0/components/1/props/text","value":"changed"}}\n');
  assert.equal(s.document.sections[0].components[1].props.text, 'changed');
  assert.deepEqual(one.changed, ['sec_hero']);
});

test('connect: a source that fails while read fails with a SurfacesError (source_failed); a string is no source; a 204 holds no events', async () => {
  const s = new b.BuildSession({ document: start() });
  await assert.rejects(s.connect('data: {}'), (e) => e instanceof b.SurfacesError && e.code === 'invalid_option' && e.path === '/source');
  await s.connect(new Response(null, { status: 204 }));
  const body = new ReadableStream({ start: (c) => c.close() });
  body.getReader(); // locked
  await assert.rejects(s.connect(body), (e) => e instanceof b.SurfacesError && e.code === 'source_failed');
  const failing = (async function* () {
    yield { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
    throw new Error('the socket closed');
  })();
  await assert.rejects(s.connect(failing), (e) => e instanceof b.SurfacesError && e.code === 'source_failed' && /socket closed/.test(e.message));
});

test('a delta that removes, moves or replaces sections lists every section it changed', () => {
  const page = () => ({ sections: ['sec_a', 'intro', 'sec_b'].map((id) => ({ id, kind: 'surface', catalog: 'blog@1', components: [{ id: 'root', component: 'Stack', children: [] }], data: {} })) });
  const changed = (delta) => {
    const s = new b.BuildSession({ document: page() });
    return s.receive({ type: 'STATE_DELTA', delta }).changed.sort();
  };
  // Removed, and moved up by it.
  assert.deepEqual(changed([{ op: 'remove', path: '/sections/1' }]), ['intro', 'sec_b']);
  assert.deepEqual(changed([{ op: 'move', from: '/sections/2', path: '/sections/0' }]), ['intro', 'sec_a', 'sec_b']);
  assert.deepEqual(changed([{ op: 'move', from: '/sections/2', path: '/sections/2' }]), []);
  const other = page();
  other.sections[1].data = { x: 1 };
  assert.deepEqual(changed([{ op: 'replace', path: '', value: other }]), ['intro']);
});

test('an error the draft had is no divergence after a delta that moves or removes what came before it', () => {
  const doc = start();
  doc.sections[0].components = [
    { id: 'root', component: 'Stack', children: ['a', 'b'] },
    { id: 'a', component: 'Text', props: { text: 'A' } },
    { id: 'b', component: 'Text', props: { text: { path: 'no-slash' } } },
  ];
  for (const delta of [
    [{ op: 'move', from: '/sections/0/components/2', path: '/sections/0/components/1' }],
    [{ op: 'remove', path: '/sections/0/components/0/children/0' }, { op: 'remove', path: '/sections/0/components/1' }],
  ]) {
    const s = new b.BuildSession({ document: doc });
    assert.deepEqual(s.receive({ type: 'STATE_DELTA', delta }).divergences, [], JSON.stringify(delta));
  }
  // A new error on that component still is one.
  const s = new b.BuildSession({ document: doc });
  const worse = s.receive({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/sections/0/components/2/visible', value: { path: 'also-bad' } }] });
  assert.deepEqual(worse.divergences.map((d) => d.code), ['VALIDATION_FAILED']);
});

test('a ghost holds a component only for an operation on a component: a data value or a section with an id is none', () => {
  const s = new b.BuildSession({ document: start() });
  s.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const data = s.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"add","path":"/sections/0/data/plan","value":{"id":"pro","props":{"x":1}' });
  assert.equal(data.ghost.component, undefined);
  const t = new b.BuildSession({ document: start() });
  t.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const section = t.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"replace","path":"/sections/0","value":{"id":"sec_hero","kind":"surface"' });
  assert.equal(section.ghost.component, undefined);
  const u = new b.BuildSession({ document: start() });
  u.receive({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft' });
  const component = u.receive({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"ops":[{"op":"add","path":"/sections/0/components/-","value":{"id":"h","component":"Heading"' });
  assert.deepEqual(component.ghost.component, { id: 'h', component: 'Heading' });
});
