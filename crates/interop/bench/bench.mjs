// A2UI message streams of 500 and 1,000 components, and of 2,000 and 4,000
// (a root Column naming the others, one updateComponents message per
// component, then one data update each, A2UI v0.9 basic catalog) through the package's ./interop (the Studio
// module scripts/build made, where dist/artifacts.json says): fromA2ui of
// the whole list, and A2uiImport fed message by message (values) and as
// JSON Lines text in 64-byte chunks, each push's operations applied to a
// Draft (100 and 200 components there, the validator's limit); side by
// side, A2UI's own message processor (@a2ui/web_core's v0.9
// MessageProcessor with its basic catalog) fed message by message. Prints a
// markdown section: medians of 5 runs, the ratios, and what doubling costs.
//
//   node crates/interop/bench/bench.mjs
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { MessageProcessor } from "@a2ui/web_core/v0_9";
import { basicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";
import { artifacts } from "../../../scripts/artifacts.mjs";
import { table, version } from "../../../scripts/report.mjs";

const { dir, files } = artifacts().studio;
const wasm = readFileSync(join(dir, "studio_bg.wasm"));
const entry = (name) => import(pathToFileURL(files.find((f) => new RegExp(`[\\\\/]${name}\\.js$`).test(f))).href);
const interop = await entry("interop");
const { Draft } = await entry("validator");
await interop.default(wasm);

/** The stream of `n` components (root and n - 1 children), as an agent sends them. */
function stream(n) {
  const v = "v0.9";
  const messages = [
    { version: v, createSurface: { surfaceId: "s", catalogId: basicCatalog.id } },
    { version: v, updateComponents: { surfaceId: "s", components: [{ id: "root", component: "Column", children: Array.from({ length: n - 1 }, (_, i) => `c${i}`) }] } },
  ];
  for (let i = 0; i < n - 1; i++) messages.push({ version: v, updateComponents: { surfaceId: "s", components: [{ id: `c${i}`, component: "Text", text: { path: `/t${i}` } }] } });
  for (let i = 0; i < n - 1; i++) messages.push({ version: v, updateDataModel: { surfaceId: "s", path: `/t${i}`, value: `hello ${i}` } });
  return messages;
}

/**
 * The same surface as one `updateComponents` of every component, ids in
 * descending order (the order a map keyed by id pays most for, when it
 * keeps its keys sorted by moving them).
 */
function oneMessage(n) {
  const v = "v0.9";
  const ids = Array.from({ length: n - 1 }, (_, i) => `c${String(n - 2 - i).padStart(6, "0")}`);
  const components = [{ id: "root", component: "Column", children: ids }, ...ids.map((id) => ({ id, component: "Text", text: id }))];
  return [
    { version: v, createSurface: { surfaceId: "s", catalogId: basicCatalog.id } },
    { version: v, updateComponents: { surfaceId: "s", components } },
  ];
}

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = 5;
// Five runs, or one when a run takes more than two seconds.
const timed = (f) => {
  const first = (() => { const t = now(); f(); return now() - t; })();
  if (first > 2000) return first;
  return median([first, ...Array.from({ length: runs - 1 }, () => { const t = now(); f(); return now() - t; })]);
};

// Each way with the sizes it runs at: the import up to the converter's
// limit (1,000 components) and past it (2,000 and 4,000), the Draft up to
// the validator's (200).
const byMessage = (messages) => {
  const importer = new interop.A2uiImport();
  for (const m of messages) importer.push(m);
  importer.free();
};
const ways = {
  "fromA2ui, the whole list": (messages) => interop.fromA2ui(messages),
  "fromA2ui, one message of every component, ids descending, past the limit": (messages) => interop.fromA2ui(messages),
  "A2uiImport, message by message": byMessage,
  // Past the converter's limit: the rest left out, message by message.
  "A2uiImport, message by message, past the 1,000-component limit": byMessage,
  "A2uiImport, JSON Lines in 64-byte chunks": (messages, text) => {
    const importer = new interop.A2uiImport();
    for (let i = 0; i < text.length; i += 64) importer.push(text.slice(i, i + 64));
    importer.finish();
    importer.free();
  },
  // The Draft validates the surface at each component added (a data write
  // checks the data alone): its cost, not the import's, grows with the
  // surface (the validator's own benchmark).
  "A2uiImport, JSON Lines in 64-byte chunks, into a Draft": (messages, text) => {
    const importer = new interop.A2uiImport();
    const draft = new Draft({});
    for (let i = 0; i < text.length; i += 64) draft.apply(importer.push(text.slice(i, i + 64)));
    draft.apply(importer.finish());
    importer.free();
    draft.free();
  },
};
const peer = (messages) => {
  const processor = new MessageProcessor([basicCatalog]);
  for (const m of messages) processor.processMessages([m]);
};

const sizes = (name) => (name.includes("Draft") ? [100, 200] : name.includes("past") ? [2000, 4000] : [500, 1000]);
const rows = [];
const scaling = [];
for (const [name, f] of Object.entries(ways)) {
  const times = sizes(name).map((n) => {
    const messages = (name.includes("one message") ? oneMessage : stream)(n);
    const text = messages.map((m) => JSON.stringify(m) + "\n").join("");
    const ours = timed(() => f(messages, text));
    const theirs = timed(() => peer(messages));
    rows.push([name, n, ours.toFixed(1), theirs.toFixed(1), (theirs / ours).toFixed(2)]);
    return ours;
  });
  scaling.push([name, (times[1] / times[0]).toFixed(2)]);
}
const peerScale = (() => {
  const [a, b] = sizes("").map((n) => { const m = stream(n); return timed(() => peer(m)); });
  return (b / a).toFixed(2);
})();
scaling.push([`@a2ui/web_core MessageProcessor`, peerScale]);

console.log(`## Interop

\`crates/interop/bench/bench.mjs\`: Node, the Studio wasm module through the
package's \`./interop\` (values in and out); an A2UI v0.9 stream of N
components (a root Column naming the others, one \`updateComponents\`
per component, one \`updateDataModel\` each), side by side with A2UI's own
message processor, @a2ui/web_core ${version("@a2ui/web_core")}'s v0.9
\`MessageProcessor\` with its basic catalog, fed message by message. Medians
of ${runs} runs (one run where a run took over 2 s). Ratio = theirs / ours (above 1: ours is faster). The peer
keeps A2UI's model; ours also converts to a surface (and, in the last row,
validates every push in a \`Draft\`).

${table(["ours", "components", "ours (ms)", "MessageProcessor (ms)", "ratio"], rows)}

What doubling the stream costs (1,000 components over 500, 4,000 over
2,000 past the limit, 200 over 100 into the Draft; linear is 2; the
peer's row is for the stream of one message per component):

${table(["", "2x input / 1x"], scaling)}`);
