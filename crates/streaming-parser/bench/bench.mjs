// Streams answers of 20 KB, 100 KB and 1 MB in 20-character chunks through
// the wasm parser (the Studio module scripts/build made, where
// dist/artifacts.json says) as the package's ./stream gives it (values out),
// and side by side through what JS apps do today: remend on the whole text so
// far at every chunk, plus partial-json on the open line when it is JSON.
// Then the value layer: the same stream through the wasm glue (JSON text
// out, the baseline), through the package, through the package keeping the
// document with applyChanges, and asking for document() after every chunk.
// Then the memory a fresh module grows to per input byte (streaming, heal),
// and the native throughput (cargo, the `native` profile). Prints a markdown
// section: totals, per-chunk p99, the ratios, memory.
//
//   node crates/streaming-parser/bench/bench.mjs [peer samples per answer, default 2000]
import { readFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import remend from "remend";
import { parse as parsePartial } from "partial-json";
import { artifacts } from "../../../scripts/artifacts.mjs";
import { table, version } from "../../../scripts/report.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const samples = Number(process.argv[2] ?? 2000);
const { dir, files } = artifacts().studio;
const wasm = readFileSync(join(dir, "studio_bg.wasm"));
// The text baseline: the glue wasm-bindgen wrote, whose push gives JSON text.
const glue = await import(pathToFileURL(join(dir, "studio.js")).href);
await glue.default({ module_or_path: wasm });
const builtin = new glue.LoadedCatalog();
// The package's ./stream as the build made it: push gives values.
const api = await import(pathToFileURL(files.find((f) => /[\\/]stream\.js$/.test(f))).href);
await api.default(wasm);
const { Stream, applyChanges } = api;

const corpusDir = join(here, "..", "tests", "corpus");
const corpus = readdirSync(corpusDir)
  .sort()
  .map((f) => readFileSync(join(corpusDir, f), "utf8"))
  .join("\n\n");

function answer(bytes) {
  let text = "";
  while (Buffer.byteLength(text) < bytes) text += corpus + "\n\n";
  return text.slice(0, bytes);
}

function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + size, text.length);
    // Do not cut a surrogate pair: JS strings cannot hold half of one.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function p99(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
}

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

// One answer through a stream: `push(stream, part)` per chunk and
// `finish(stream)` at the end, each timed; `every(stream)` (when given) after
// every k-th chunk only (about `every.samples` of them), timed apart and its
// total extrapolated to every chunk.
function streamed(parts, open, push, finish, every) {
  const k = Math.max(1, Math.floor(parts.length / (every?.samples ?? samples)));
  const times = [];
  const extra = [];
  const stream = open();
  parts.forEach((part, i) => {
    let t = now();
    push(stream, part);
    times.push(now() - t);
    if (every && i % k === 0) {
      t = now();
      every.call(stream);
      extra.push(now() - t);
    }
  });
  const t = now();
  finish(stream);
  times.push(now() - t);
  stream.free();
  const total = times.reduce((a, b) => a + b, 0);
  if (!every) return { total, p99: p99(times), sampled: 1 };
  const mean = extra.reduce((a, b) => a + b, 0) / extra.length;
  return { total: total + mean * parts.length, sampled: k };
}

const markdown = () => new Stream("markdown");
// The package, values out (what a user gets): the main figure.
const ours = (parts) => streamed(parts, markdown, (s, part) => s.push(part), (s) => s.finish());
// The glue, JSON text out, never parsed: the baseline of the value layer.
const text = (parts) => streamed(parts, () => new glue.Stream("markdown", builtin), (s, part) => s.push(part), (s) => s.finish());
// The package, keeping the document from the changes (the Build page's way).
function kept(parts) {
  let doc;
  return streamed(parts, markdown, (s, part) => (doc = applyChanges(doc, s.push(part))), (s) => (doc = applyChanges(doc, s.finish().changes)));
}
// The package, and the whole document after every chunk (the Build page's
// old way); a mean over a tenth of remend's samples is close enough.
const everyDocument = (parts) =>
  streamed(parts, markdown, (s, part) => s.push(part), (s) => s.finish(), { call: (s) => s.document(), samples: Math.max(1, Math.floor(samples / 10)) });

// The run with the median total of `runs` (the variants interleaved, so
// garbage one leaves falls on them all alike).
function medians(parts, variants, runs = 5) {
  const seen = variants.map(() => []);
  for (let r = 0; r < runs; r++) variants.forEach((v, i) => seen[i].push(v(parts)));
  return seen.map((list) => list.sort((a, b) => a.total - b.total)[list.length >> 1]);
}

function peers(parts) {
  // remend re-reads the whole text at every chunk (quadratic); on long
  // answers only every k-th chunk is timed and the total extrapolated.
  const k = Math.max(1, Math.floor(parts.length / samples));
  const times = [];
  let text = "";
  parts.forEach((part, i) => {
    text += part;
    if (i % k !== 0) return;
    const t = now();
    remend(text);
    const open = text.slice(text.lastIndexOf("\n") + 1);
    if (open.trimStart().startsWith("{")) {
      try {
        parsePartial(open);
      } catch {
        // Not JSON after all: apps skip the ghost.
      }
    }
    times.push(now() - t);
  });
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { total: mean * parts.length, p99: p99(times), sampled: k };
}

const rows = [];
for (const [label, bytes] of [["20 KB", 20_000], ["100 KB", 100_000], ["1 MB", 1_000_000]]) {
  const parts = chunks(answer(bytes), 20);
  for (const warm of [ours, text, kept]) warm(parts), warm(parts); // the engine compiles hot code in tiers
  const [a, plain, keptDoc] = medians(parts, [ours, text, kept]);
  rows.push({ label, chunks: parts.length, a, text: plain, kept: keptDoc, b: peers(parts), doc: everyDocument(parts) });
}
// Memory: the wasm memory a fresh module instance grows to while streaming
// an answer in 64-character chunks (the stream kept until finished), and
// while healing the whole answer at once, per input byte. A wasm memory
// never shrinks, so its size after the work is the peak.
async function grown(bytes, work) {
  const fresh = await import(`${pathToFileURL(join(dir, "studio.js")).href}?memory=${bytes}-${work.name}`);
  const exports = fresh.initSync({ module: wasm });
  const before = exports.memory.buffer.byteLength;
  work(fresh, answer(bytes));
  return (exports.memory.buffer.byteLength - before) / bytes;
}
function streamAll(glue, text) {
  const s = new glue.Stream("markdown", new glue.LoadedCatalog());
  for (const part of chunks(text, 64)) s.push(part);
  s.finish();
  s.free();
}
function healAll(glue, text) {
  glue.heal(text);
}
const memory = [];
for (const [label, bytes] of [["1 MB", 1_000_000], ["4 MB", 4_000_000], ["16 MB", 16_000_000]]) {
  memory.push([label, (await grown(bytes, streamAll)).toFixed(1), (await grown(bytes, healAll)).toFixed(1)]);
}

const ms = (t) => t.toFixed(1);
const us = (t) => (t * 1000).toFixed(1);
const native = execFileSync("cargo", ["run", "--quiet", "--profile", "native", "-p", "streaming-parser", "--example", "throughput"],
  { cwd: join(here, "../../.."), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
console.log(`## Streaming parser

\`crates/streaming-parser/bench/bench.mjs\`: Node, the Studio wasm module
through the package's \`./stream\` (changes out as values), the test corpus
repeated to each size and streamed in 20-character chunks; side
by side, remend ${version("remend")} on the whole text at each chunk plus
partial-json ${version("partial-json")} on the open line. Ours: the run with the
median total of 5. Ratio = theirs / ours (above 1: ours is faster).

${table(["answer", "chunks", "ours total (ms)", "ours p99 per chunk (µs)", "remend + partial-json total (ms)", "their p99 per chunk (µs)", "their chunks timed", "ratio"],
  rows.map(({ label, chunks, a, b }) => [label, chunks, ms(a.total), us(a.p99), ms(b.total), us(b.p99),
    b.sampled > 1 ? `1 in ${b.sampled}, total extrapolated` : "all", (b.total / a.total).toFixed(1)]))}

Per-byte cost: the 1 MB total is ${(rows[2].a.total / rows[1].a.total).toFixed(1)} times the 100 KB total (flat would be 10).

The value layer, the same answers and chunks: the wasm glue's \`push\` (JSON
text out, never parsed: the baseline), the package's (values out: the
changes parsed), the package's with the document kept by \`applyChanges\`, and
the package's with \`document()\` asked after every chunk, which re-reads the
whole answer each time (a sample of chunks timed and the total extrapolated,
as for remend). The first three: the run with the median total of 5, the
three interleaved.

${table(["answer", "text out total (ms)", "values out total (ms)", "value layer (values / text)", "values + applyChanges total (ms)", "applyChanges / values", "values + document() every chunk (ms)", "document() chunks timed", "document() every chunk / applyChanges"],
  rows.map(({ label, a, text, kept, doc }) => [label, ms(text.total), ms(a.total), (a.total / text.total).toFixed(2), ms(kept.total), (kept.total / a.total).toFixed(2),
    ms(doc.total), doc.sampled > 1 ? `1 in ${doc.sampled}` : "all", (doc.total / kept.total).toFixed(1)]))}

Memory: what a fresh module's wasm memory grows by, per input byte, while
streaming the answer in 64-character chunks (kept until \`finish()\`) and
while \`heal\` reads it whole (a wasm memory never shrinks: this is the peak).

${table(["answer", "stream: bytes of memory per input byte", "heal: bytes per input byte"], memory)}

Native (\`cargo run --profile native -p streaming-parser --example throughput\`):

${native.trim().split("\n").map((l) => `- ${l}`).join("\n")}`);
