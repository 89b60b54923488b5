// The interaction runtime's loader: the only script a published page loads
// for its surfaces. It instantiates the WebAssembly module next to it, gives
// it the DOM and Intl as plain imports, hydrates every surface and installs
// one delegated listener per event type. All decisions are made in Rust
// (crates/interaction-runtime); this file only moves values across.
//
// Build: esbuild --minify --format=esm --define:WASM='"surface.<hash>.wasm"'
// (see the crate docs). Strings cross as UTF-8: Rust passes (pointer,
// length); a string for Rust is staged in `B` and its length returned
// (-1: none), then Rust calls `r(pointer)` to copy it in.

const d = document;
const H = [d]; // handle -> element (0: the document)
const M = new Map(); // element -> handle
const Z = []; // handle -> JSON value (states and bound expressions stay here)
const enc = new TextEncoder();
const dec = new TextDecoder();
let E; // the module's exports
let U; // a view of the module's memory (renewed when the memory grows)
let S = new Uint8Array(256); // scratch for staging, reused: no garbage per string
let B; // the staged string: a view of S

const mem = () => (U?.buffer == E.memory.buffer ? U : (U = new Uint8Array(E.memory.buffer)));
const decode = (p, l) => dec.decode(mem().subarray(p, p + l));
// Strings in the module's data segment (names such as "path" or "call",
// from 1 MiB, past the stack, to __data_end) never change: decoded once.
const T = new Map();
const str = (p, l, k = p * 4096 + l) =>
  p < 1 << 20 || p + l > E.__data_end.value || l > 4095 ? decode(p, l) : T.get(k) ?? T.set(k, decode(p, l)).get(k);
const opt = (p, l) => (l < 0 ? undefined : str(p, l));
const stage = (s) => {
  if (s == null) return -1;
  if (s.length * 3 > S.length) S = new Uint8Array(s.length * 3);
  return (B = S.subarray(0, enc.encodeInto(s, S).written)).length;
};
const reg = (x) => M.get(x) ?? M.set(x, H.push(x) - 1).get(x);
// Intl formatters are costly to build: one per kind, locale and options.
const formatters = new Map();
const object = (v) => v && typeof v == "object" && !Array.isArray(v);
const put = (v) => Z.push(v) - 1;
// JSON.parse of a string (-1: none, or invalid).
const json = (s) => {
  try {
    return put(JSON.parse(s ?? "-"));
  } catch {
    return -1;
  }
};
const copy = (s) => navigator.clipboard?.writeText(s).catch(() => {});

const imports = {
  // Registers unclaimed matches of a selector under a handle; the first new handle.
  q: (h, p, l) => {
    const first = H.length;
    for (const x of H[h].querySelectorAll(str(p, l))) M.has(x) || reg(x);
    return first;
  },
  n: () => H.length,
  a: (h, p, l) => stage(H[h].getAttribute(str(p, l))),
  r: (p) => mem().set(B, p),
  A: (h, np, nl, vp, vl) => {
    const x = H[h], n = str(np, nl), v = opt(vp, vl);
    if (x.getAttribute(n) !== (v ?? null)) v == null ? x.removeAttribute(n) : x.setAttribute(n, v);
  },
  // Sets textContent (k 0) or value (1).
  t: (h, k, p, l, s = str(p, l), n = k ? "value" : "textContent") => {
    if (H[h][n] !== s) H[h][n] = s;
  },
  g: (h) => stage(H[h].type),
  // The value property, as a new JSON value (a string).
  v: (h) => put(H[h].value),
  V: (h) => H[h].valueAsNumber,
  c: (h, k) => H[h][k ? "selected" : "checked"],
  C: (h, k, b) => {
    const x = H[h], n = k ? "selected" : "checked";
    if (x[n] !== !!b) x[n] = !!b;
  },
  i: (p, l) => {
    const x = d.getElementById(str(p, l));
    return x ? reg(x) : -1;
  },
  // JSON.parse of an element's text (k 0; -1: invalid), or what a radio or
  // option stands for (1): its data-ch-value parsed, else its value.
  P: (h, k, x = H[h], j = json(k ? x.getAttribute("data-ch-value") : x.textContent)) => (k && j < 0 ? put(x.value) : j),
  // A data-ch-* attribute: a JSON Pointer ("/..." or empty) is the binding {path}, anything else JSON.
  B: (h, p, l, s = H[h].getAttribute("data-ch-" + str(p, l))) => (s == null ? -1 : s[0] == "/" || !s ? put({ path: s }) : json(s)),
  // JSON values, read (kinds: 0 null, 1 boolean, 2 number, 3 string, 4 array,
  // 5 object: from the first letter of the typeof)...
  k: (j, v = Z[j]) => (v === null ? 0 : Array.isArray(v) ? 4 : "-bns-o".indexOf((typeof v)[0])),
  f: (j) => +Z[j],
  z: (j, v = Z[j]) => (typeof v == "string" ? stage(v) : -1),
  l: (j, v = Z[j]) => (v && typeof v == "object" ? Object.keys(v).length : 0),
  // An array's item, an object's member (-1: none, or not an array or object).
  I: (j, i, v = Z[j]) => (Array.isArray(v) && i < v.length ? put(v[i]) : -1),
  m: (j, p, l, v = Z[j], k = str(p, l)) => (object(v) && Object.hasOwn(v, k) ? put(v[k]) : -1),
  K: (j, i, v = Z[j]) => (object(v) ? stage(Object.keys(v)[i]) : -1),
  // ...made (0 null, 1 boolean, 2 number, 3 string)...
  M: (k, n, p, l) => put(k < 1 ? null : k < 2 ? !!n : k < 3 ? n : str(p, l)),
  // ...and written, as a copy: into an array item (i >= 0), an object member (-1) or the whole (-2).
  W: (j, p, l, i, v) => {
    v = structuredClone(Z[v]);
    i < -1 ? (Z[j] = v) : i < 0 ? (Z[j][str(p, l)] = v) : (Z[j][i] = v);
  },
  // Navigates (k 0), copies (1) or scrolls to the element with this id (2).
  N: (k, p, l, s = str(p, l)) =>
    k ? (k > 1 ? d.getElementById(s)?.scrollIntoView() : copy(s)) : (location.href = s),
  S: (a, b, c, e, f, g) => {
    const title = str(a, b), text = str(c, e), url = str(f, g);
    navigator.share
      ? navigator.share({ title, text, url: url || undefined }).catch(() => {})
      : copy(url || text);
  },
  // Intl: 0 a date (epoch ms v, or the ISO date s; n the dateStyle's index),
  // 1 a number, 2 a percent (n, m: fraction digits or -1), 3 a currency s;
  // 4 whether v's plural category is "one"; 5 String(v).
  X: (kind, v, n, m, sp, sl, lp, ll) => {
    if (kind > 4) return stage(String(v));
    const s = opt(sp, sl), locale = opt(lp, ll), digits = (d) => (d < 0 ? undefined : d);
    try {
      if (kind > 3) return new Intl.PluralRules(locale).select(v) == "one";
      const key = kind + JSON.stringify([locale, n, m, s]);
      formatters.has(key) ||
        formatters.set(
          key,
          kind
            ? new Intl.NumberFormat(locale, {
                style: ["decimal", "percent", "currency"][kind - 1],
                currency: s,
                minimumFractionDigits: digits(n),
                maximumFractionDigits: digits(m),
              })
            : new Intl.DateTimeFormat(locale, { dateStyle: ["short", "medium", "long", "full"][n], timeZone: "UTC" }),
        );
      return stage(formatters.get(key).format(kind ? v : new Date(s ?? v)));
    } catch {
      // Intl throws on what it cannot format: the binding then shows nothing.
      return kind > 3 ? v == 1 : -1;
    }
  },
};

const start = async () => {
  try {
    const bytes = await (await fetch(new URL(WASM, import.meta.url))).arrayBuffer();
    E = (await WebAssembly.instantiate(bytes, { e: imports })).instance.exports;
  } catch (err) {
    // Compiling WebAssembly needs 'wasm-unsafe-eval' in script-src: without
    // it the page keeps working as the server rendered it.
    console.warn("surfaces: not started (" + err + "); a CSP must allow script-src 'wasm-unsafe-eval'");
    return;
  }
  E.h();
  ["input", "click"].forEach((type, kind) =>
    d.addEventListener(type, (ev) => {
      // Values made while the event runs are dropped after it.
      const n = Z.length;
      for (let x = ev.target; x; x = x.parentNode) if (M.has(x) && E.e(kind, M.get(x))) break;
      Z.length = n;
    }),
  );
};

d.readyState == "loading" ? d.addEventListener("DOMContentLoaded", start) : start();
