// Streams answers of 20 KB, 100 KB and 1 MB in 20-character chunks through
// the wasm parser (the Studio module scripts/build made, where
// dist/artifacts.json says), and side by side through what JS apps do today:
// remend on the whole text so far at every chunk, plus partial-json on the
// open line when it is JSON. Then the native throughput (cargo, the `native`
// profile). Prints a markdown section: totals, per-chunk p99, the ratios.
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
const { dir } = artifacts().studio;
const studio = await import(pathToFileURL(join(dir, "studio.js")).href);
await studio.default({ module_or_path: readFileSync(join(dir, "studio_bg.wasm")) });
const { Stream } = studio;

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
  const text = answer(bytes);
  const parts = chunks(text, 20);
  ours(parts); // warm up (the engine compiles hot code in tiers)
  ours(parts);
  rows.push({ label, chunks: parts.length, a: ours(parts), b: peers(parts) });
}
const ms = (t) => t.toFixed(1);
const us = (t) => (t * 1000).toFixed(1);
const native = execFileSync("cargo", ["run", "--quiet", "--profile", "native", "-p", "streaming-parser", "--example", "throughput"],
  { cwd: join(here, "../../.."), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
console.log(`## Streaming parser

\`crates/streaming-parser/bench/bench.mjs\`: Node, the Studio wasm module, the
test corpus repeated to each size and streamed in 20-character chunks; side
by side, remend ${version("remend")} on the whole text at each chunk plus
partial-json ${version("partial-json")} on the open line. Ratio = theirs / ours
(above 1: ours is faster).

${table(["answer", "chunks", "ours total (ms)", "ours p99 per chunk (µs)", "remend + partial-json total (ms)", "their p99 per chunk (µs)", "their chunks timed", "ratio"],
  rows.map(({ label, chunks, a, b }) => [label, chunks, ms(a.total), us(a.p99), ms(b.total), us(b.p99),
    b.sampled > 1 ? `1 in ${b.sampled}, total extrapolated` : "all", (b.total / a.total).toFixed(1)]))}

Per-byte cost: the 1 MB total is ${(rows[2].a.total / rows[1].a.total).toFixed(1)} times the 100 KB total (flat would be 10).

Native (\`cargo run --profile native -p streaming-parser --example throughput\`):

${native.trim().split("\n").map((l) => `- ${l}`).join("\n")}`);
