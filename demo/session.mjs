// A recorded build session: a scripted agent building a landing page step by
// step, as the AG-UI events a server sends (SPEC.md section 15). The server's
// side is real: each patch_draft call goes through the package's pipeline
// (npm ./validator's patch) and what changed is sent as a STATE_DELTA made by
// fast-json-patch's compare, as AG-UI servers commonly make them. The demo
// server (demo/serve.mjs) streams it at model speed; the tests replay it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import jsonpatch from 'fast-json-patch';
import { root } from './serve.mjs';

const validator = await import(pathToFileURL(join(root, 'npm/validator.js')).href);

const surface = (id, components, data = {}) => ({ id, kind: 'surface', catalog: 'blog@1', components, data });

/** The draft the session starts from. */
export const start = () => ({ sections: [surface('sec_hero', [{ id: 'root', component: 'Stack', children: [] }])] });

/**
 * The session's events, and the server's draft after each of them
 * (`drafts[i]`: after `events[i]`), so a reconnecting client can be sent a
 * snapshot at any point.
 */
export async function recordedSession() {
  await validator.default();
  let doc = start();
  const events = [];
  const drafts = [];
  const send = (event) => (events.push(event), drafts.push(structuredClone(doc)));
  send({ type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' });
  send({ type: 'STATE_SNAPSHOT', snapshot: structuredClone(doc) });
  let calls = 0;
  // The model writes a patch_draft call; the server runs it through the pipeline and sends what changed.
  const step = (ops, cut = 7) => {
    const id = `call_${++calls}`;
    const input = JSON.stringify({ ops });
    send({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'patch_draft' });
    for (let i = 0; i < input.length; i += cut) send({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: input.slice(i, i + cut) });
    send({ type: 'TOOL_CALL_END', toolCallId: id });
    const r = validator.patch(doc, ops);
    const delta = jsonpatch.compare(doc, r.document);
    if (r.repairs.length) send({ type: 'CUSTOM', name: 'repairs', value: r.repairs });
    if (r.refused.length) send({ type: 'CUSTOM', name: 'validation_failed', value: { refused: r.refused } });
    doc = r.document;
    if (delta.length) send({ type: 'STATE_DELTA', delta });
    return r;
  };
  let messages = 0;
  const say = (text, cut = 5) => {
    const id = `msg_${++messages}`;
    send({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
    for (let i = 0; i < text.length; i += cut) send({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: text.slice(i, i + cut) });
    send({ type: 'TEXT_MESSAGE_END', messageId: id });
  };
  const add = (value) => ({ op: 'add', path: '/sections/0/components/-', value });
  const link = (id, at = '-') => ({ op: 'add', path: `/sections/0/components/0/children/${at}`, value: id });
  say('Building a **landing page** for you: a title, a short pitch and a [call to action](https://example.org/start');
  step([add({ id: 'title', component: 'Heading', props: { level: 1, text: 'Ship faster with surfaces' } }), link('title')]);
  say('Now the _call to action_, a button that starts the trial.');
  // A typo the pipeline repairs (snap_component).
  step([add({ id: 'cta', component: 'Buton', props: { label: 'Start your free trial', href: 'https://example.org/start' } }), link('cta')]);
  // A refused step (a javascript: href), then its fix.
  step([{ op: 'replace', path: '/sections/0/components/2/props/href', value: 'javascript:alert(1)' }]);
  say('That link was refused (`unsafe_href`); using a relative one.');
  step([{ op: 'replace', path: '/sections/0/components/2/props/href', value: '/start' }]);
  // A long call, written slowly: its ghost is visible for a while.
  step(
    [
      add({ id: 'pitch', component: 'Text', props: { text: 'Validated on every write, streamed as it is written, and alive on published pages with a script of a few kilobytes: no code from the model ever runs.' } }),
      link('pitch', 1),
    ],
    3,
  );
  step([
    { op: 'add', path: '/sections/-', value: surface('sec_faq', [{ id: 'root', component: 'Stack', children: ['q'] }, { id: 'q', component: 'Text', props: { text: 'Questions? Write to us any time.' } }]) },
  ]);
  say('Done: the page has a **hero** and a short FAQ.');
  send({ type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1' });
  return { events, drafts, document: doc };
}
