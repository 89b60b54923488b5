// Streams answers of 20 KB, 100 KB and 1 MB in 20-character chunks through
// the wasm parser, and side by side through what JS apps do today: remend on
// the whole text so far at every chunk, plus partial-json on the open line
// when it is JSON. Prints totals, per-chunk p99 and the ratios.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import remend from "remend";

const require = createRequire(import.meta.url);
const { parse: parsePartial } = require("partial-json");
const here = dirname(fileURLToPath(import.meta.url));
const { Stream } = require(join(here, "pkg", "streaming_parser.js"));

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

function ours(parts) {
  const times = [];
  const stream = new Stream("markdown");
  for (const part of parts) {
    const t = now();
    stream.push(part);
    times.push(now() - t);
  }
  const t = now();
  stream.finish();
  times.push(now() - t);
  stream.free();
  return { total: times.reduce((a, b) => a + b, 0), p99: p99(times), sampled: 1 };
}

function peers(parts) {
  // remend re-reads the whole text at every chunk (quadratic); on long
  // answers only every k-th chunk is timed and the total extrapolated.
  const k = Math.max(1, Math.floor(parts.length / 2000));
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
  const text = answer(bytes);
  const parts = chunks(text, 20);
  ours(parts); // warm up (the engine compiles hot code in tiers)
  ours(parts);
  const a = ours(parts);
  const b = peers(parts);
  rows.push({ label, chunks: parts.length, a, b });
  console.log(
    `${label.padEnd(6)} ${String(parts.length).padStart(6)} chunks | ` +
      `wasm: total ${a.total.toFixed(1)} ms, p99 ${(a.p99 * 1000).toFixed(1)} µs/chunk | ` +
      `remend+partial-json: total ${b.total.toFixed(1)} ms${b.sampled > 1 ? ` (every ${b.sampled}th chunk timed, extrapolated)` : ""}, ` +
      `p99 ${(b.p99 * 1000).toFixed(1)} µs/chunk | ratio ${(b.total / a.total).toFixed(1)}x`,
  );
}
const k100 = rows[1].a.total;
const m1 = rows[2].a.total;
console.log(`per-byte cost: 1 MB total / 100 KB total = ${(m1 / k100).toFixed(1)} (flat would be 10)`);
