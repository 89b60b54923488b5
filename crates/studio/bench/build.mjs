// A long tool call (one patch_draft operation whose text prop is N bytes),
// written in 16-byte TOOL_CALL_ARGS deltas, read by the package's ./build
// BuildSession (the Studio module scripts/build made, where
// dist/artifacts.json says), which reads each delta once and keeps the ghost
// as it grows; side by side, what AG-UI's own client does for the partial
// arguments it hands its subscribers on every delta (@ag-ui/client's
// defaultApplyEvents: the arguments so far through untruncate-json, then
// JSON.parse). @ag-ui/client 1.0.0 calls untruncate-json's CommonJS module
// object as the function under Node's ES modules, which throws, so its
// partialToolCallArgs is always {} there; the peer here calls untruncate-json
// (the version the client depends on) as the client means to. Prints a
// markdown section: medians of 5 runs, the ratios, and what doubling the
// call costs.
//
//   node crates/studio/bench/build.mjs
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import untruncate from 'untruncate-json';
import { artifacts } from '../../../scripts/artifacts.mjs';
import { table, version } from '../../../scripts/report.mjs';

const { dir, files } = artifacts().studio;
const build = await import(pathToFileURL(files.find((f) => /[\\/]build\.js$/.test(f))).href);
await build.default(readFileSync(join(dir, 'studio_bg.wasm')));

const DELTA = 16;
/** The events of one call writing a component whose text is `n` bytes. */
function call(n) {
  const text = 'Surfaces are validated on every write. '.repeat(Math.ceil(n / 39)).slice(0, n);
  const input = JSON.stringify({ ops: [{ op: 'add', path: '/sections/0/components/-', value: { id: 'long', component: 'Text', props: { text } } }] });
  const events = [{ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'patch_draft', parentMessageId: 'm' }];
  for (let i = 0; i < input.length; i += DELTA) events.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: input.slice(i, i + DELTA) });
  events.push({ type: 'TOOL_CALL_END', toolCallId: 'c' });
  return events;
}
const draft = { sections: [{ id: 's', kind: 'surface', catalog: 'blog@1', components: [{ id: 'root', component: 'Stack', children: [] }], data: {} }] };

const ours = (events) => {
  let shown = 0;
  const session = new build.BuildSession({ document: draft, onUpdate: (u) => (shown += u.ghost?.component?.props?.text?.length ?? 0) });
  for (const e of events) session.receive(e);
  return shown;
};
// The client's way: the arguments so far, completed and parsed again on every delta.
const complete = untruncate.default ?? untruncate;
const theirs = (events) => {
  let shown = 0;
  let buffer = '';
  for (const e of events) {
    if (e.type !== 'TOOL_CALL_ARGS') continue;
    buffer += e.delta;
    let partial = {};
    try {
      partial = JSON.parse(complete(buffer));
    } catch {}
    shown += partial?.ops?.[0]?.value?.props?.text?.length ?? 0;
  }
  return shown;
};

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = 5;
const timed = async (f) => {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = now();
    await f();
    times.push(now() - t);
  }
  return median(times);
};

const sizes = [16384, 32768, 65536];
const rows = [];
const mine = [];
const peer = [];
for (const n of sizes) {
  const events = call(n);
  // Both show the same text as it grows (a check, not a measure).
  const [a, b] = [ours(events), await theirs(events)];
  if (a === 0 || b === 0) throw new Error(`no ghost text shown (ours ${a}, theirs ${b})`);
  const o = await timed(() => ours(events));
  const t = await timed(() => theirs(events));
  mine.push(o);
  peer.push(t);
  rows.push([n.toLocaleString('en-US'), events.length - 2, o.toFixed(1), t.toFixed(1), (t / o).toFixed(2)]);
}
const doubling = (xs) => xs.slice(1).map((x, i) => (x / xs[i]).toFixed(2)).join(', ');

console.log(`## Build session: a long tool call

\`crates/studio/bench/build.mjs\`: Node, the Studio wasm module through the
package's \`./build\`; one \`patch_draft\` call writing a Text whose text is
N bytes, in ${DELTA}-byte \`TOOL_CALL_ARGS\` deltas. Ours: \`BuildSession.receive\`
of each event, the ghost read so far handed to \`onUpdate\`. Theirs: what
@ag-ui/client ${version('@ag-ui/client')}'s \`defaultApplyEvents\` does for the
\`partialToolCallArgs\` it gives subscribers on every delta: the arguments
so far through untruncate-json ${version('untruncate-json')}, then \`JSON.parse\`
(the client's own call of it fails under Node's ES modules, so it is made
here as the client means it). Medians of ${runs} runs. Ratio =
theirs / ours (above 1: ours is faster).

${table(['text (bytes)', 'deltas', 'ours (ms)', '@ag-ui/client (ms)', 'ratio'], rows)}

What doubling the call costs (linear is 2): ours ${doubling(mine)}; @ag-ui/client ${doubling(peer)}.`);
