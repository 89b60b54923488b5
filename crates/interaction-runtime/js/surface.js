// The interaction runtime's loader: the only script a published page loads
// for its surfaces. It instantiates the WebAssembly module next to it,
// hydrates every surface and installs one delegated listener per event type.
//
// The work is split by what is shared: conditions, functions, JSON Pointer,
// the safe-href rule, JSON equality and how a value reads as text are
// surfaces-core's, the validator's own code, and this file asks the module
// for them (its exports, below). What only a page does (finding bound
// elements, the data-ch-* attributes, model coercions, the attribute
// allowlist, actions, which bindings an update touches) is done here.
//
// Build: esbuild --minify --format=esm --define:WASM='"surface.<hash>.wasm"'
// (see the crate docs).
//
// JSON values (states, bound expressions, computed values) stay here, in
// `Z`; the module reads them through imports, by handle (an index into Z).
// Strings cross as UTF-8: Rust passes (pointer, length); a string for Rust is
// staged in `B` and its length returned (-1: none), then Rust calls
// `r(pointer)` to copy it in.
//
// The module's exports, on handles: c(state, e) computes a literal, binding or
// call (-1: it does not follow SPEC.md section 3); x(v) makes v's text; v(state,
// condition) whether it holds; k(state, check) whether it fails; g(root, path)
// what the pointer addresses (null when missing, invalid or unsafe); w(state,
// path, value) writes a copy there (1: the place exists); q(a, b) JSON equality; s(href)
// the safe-href rule; p(path) whether a pointer is valid and safe.

const d = document;
const Z = []; // handle -> JSON value
const enc = new TextEncoder();
const dec = new TextDecoder();
let E; // the module's exports
let U; // a view of the module's memory (renewed when the memory grows)
let S = new Uint8Array(256); // scratch for staging, reused: no garbage per string
let B; // the staged string: a view of S

const mem = () => (U?.buffer == E.memory.buffer ? U : (U = new Uint8Array(E.memory.buffer)));
const decode = (p, l) => dec.decode(mem().subarray(p, p + l));
// Strings in the module's data segment (names such as "path" or "call":
// below __data_end, as the module is linked with its stack after its data)
// never change: decoded once.
const T = new Map();
const str = (p, l, k = p * 4096 + l) =>
  p + l > E.__data_end.value || l > 4095 ? decode(p, l) : T.get(k) ?? T.set(k, decode(p, l)).get(k);
const opt = (p, l) => (l < 0 ? undefined : str(p, l));
const stage = (s) => {
  if (s == null) return -1;
  if (s.length * 3 > S.length) S = new Uint8Array(s.length * 3);
  return (B = S.subarray(0, enc.encodeInto(s, S).written)).length;
};
// Intl formatters are costly to build: one per kind, locale and options.
const formatters = new Map();
const object = (v) => v && typeof v == "object" && !Array.isArray(v);
const put = (v) => Z.push(v) - 1;
const parse = (s, none) => {
  try {
    return JSON.parse(s);
  } catch {
    return none;
  }
};
const copy = (s) => navigator.clipboard?.writeText(s).catch(() => {});

const imports = {
  r: (p) => mem().set(B, p),
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
  // A value too deep to copy is not written. (No import throws: an exception
  // would unwind the module's frames without restoring its stack pointer.)
  W: (j, p, l, i, v) => {
    try {
      v = structuredClone(Z[v]);
      i < -1 ? (Z[j] = v) : i < 0 ? (Z[j][str(p, l)] = v) : (Z[j][i] = v);
    } catch {}
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

// ---------------------------------------------------------------- the page

// Bound element -> {s: its surface, m: its model binding}. A surface is
// {t: its state's handle, c: its state script, b: its bindings}; a binding
// {e: the element, k: kind (0 text, 1 attr, 2 visible, 3 model, 4 checks),
// x: the expression, h: its handle, r: the pointers it reads} and, for a
// model, {t: field kind (0 text, 1 number, 2 checkbox, 3 radio, 4 select),
// p: its path, o: the radio or the select's options}.
const R = new Map();

// Only these attributes are read: a value that starts with "/" (or is
// empty) is a JSON Pointer, read as the binding {path}; anything else JSON
// (undefined when absent or invalid).
const attribute = (el, name, s = el.getAttribute("data-ch-" + name)) =>
  s == null ? undefined : s[0] == "/" || !s ? { path: s } : parse(s);
// Every setter compares first: hydration leaves what the server rendered
// untouched where it agrees.
const set = (el, name, v) => el[name] !== v && (el[name] = v);
const attr = (el, name, v) => el.getAttribute(name) !== v && (v == null ? el.removeAttribute(name) : el.setAttribute(name, v));
const text = (h) => Z[E.x(h)];
// The safe-href rule (SPEC.md section 5), on a string.
const safe = (href) => E.s(put(href));
// What a radio or option stands for: its data-ch-value parsed, else its value.
const literal = (o) => parse(o.getAttribute("data-ch-value") ?? "-", o.value);
// Whether pointer `b` is `a` or lies inside it, segment-wise (/ab is not
// inside /a). A write at w can change what a binding reads at r when either
// lies within the other.
const within = (a, b) => b.startsWith(a) && (b.length == a.length || b[a.length] == "/");
// "One or a list" (actions, checks).
const list = (x) => (Array.isArray(x) ? x : [x]);

// Shows binding `b` of surface `s`; `source` is the field being typed in
// (left alone), `changed` false at hydration (checks wait for a change).
const apply = (s, b, source, changed) => {
  const n = Z.length, el = b.e, st = s.t, k = b.k;
  if (k < 1) {
    // A binding that does not follow section 3 leaves the text as rendered.
    const h = E.c(st, b.h);
    h < 0 || set(el, "textContent", text(h));
  } else if (k < 2) {
    // data-ch-attr: value, checked, disabled, aria-* and data-* (exactly, in
    // lower case), href when safe; nothing else (on*, style, src, srcdoc).
    if (object(b.x))
      for (const [name, x] of Object.entries(b.x)) {
        const h = E.c(st, put(x));
        if (h < 0) continue;
        const v = Z[h], t = text(h);
        name == "value"
          ? set(el, name, t)
          : name == "checked"
            ? set(el, name, !!v)
            : name == "disabled"
              ? attr(el, name, v ? "" : null)
              : name == "href"
                ? safe(t) && attr(el, name, t)
                : /^(aria|data)-[a-z0-9-]+$/.test(name) && attr(el, name, v === null ? null : t);
      }
  } else if (k < 3) attr(el, "hidden", E.v(st, b.h) ? null : "");
  else if (k < 4) {
    if (el != source) {
      const h = E.g(st, put(b.p)), t = b.t;
      t < 2
        ? set(el, "value", text(h))
        : t < 3
          ? set(el, "checked", !!Z[h])
          : b.o.forEach((o) => set(o, t < 4 ? "checked" : "selected", !!E.q(h, put(literal(o)))));
    }
  } else if (changed) {
    // Checks run from the first change of what they read: the first that
    // fails sets aria-invalid and its message goes to the element that
    // aria-describedby names first.
    const failing = list(b.x).find((c) => E.k(st, put(c)));
    const id = el.getAttribute("aria-describedby")?.split(/[\t\n\f\r ]+/).find((i) => i);
    attr(el, "aria-invalid", failing ? "true" : null);
    const m = id && d.getElementById(id);
    m && set(m, "textContent", typeof failing?.message == "string" ? failing.message : "");
  }
  Z.length = n;
};

// Writes `h` at `path` in surface `s`'s state, then re-applies the bindings
// that read what changed.
const write = (s, path, h, source) =>
  E.w(s.t, put(path), h) &&
  s.b.forEach((b) => b.r.some((r) => within(r, path) || within(path, r)) && apply(s, b, source, 1));

// One action of surface `s` (SPEC.md section 5).
const run = (s, a) => {
  if (!object(a)) return;
  const path = typeof a.path == "string" ? a.path : undefined;
  const number = (x) => (typeof x == "number" ? x : undefined);
  // A computed field as text; empty when absent.
  const shown = (x, h = x === undefined ? -1 : E.c(s.t, put(x))) => (h < 0 ? "" : text(h));
  const current = () => Z[E.g(s.t, put(path))];
  let v; // what set, toggle, increment and reset write at the path
  switch (a.action) {
    case "set":
      if (path != null && a.value !== undefined) v = E.c(s.t, put(a.value));
      break;
    case "toggle":
      if (path != null) v = put(current() !== true);
      break;
    case "increment":
      if (path != null) {
        let n = (number(current()) ?? 0) + (number(a.by) ?? 1);
        // (A NaN takes the bound, as in Rust's f64::min and max.)
        if (number(a.max) != null && !(n <= a.max)) n = a.max;
        if (number(a.min) != null && !(n >= a.min)) n = a.min;
        v = put(n);
      }
      break;
    case "reset":
      // A path the initial state lacks reads as null; no path resets it all.
      v = E.g(put(parse(s.c.textContent, null)), put(path ?? ""));
      break;
    case "navigate":
      typeof a.href == "string" && safe(a.href) && (location.href = a.href);
      break;
    case "copy":
      copy(shown(a.text));
      break;
    case "share": {
      const title = shown(a.title), body = shown(a.text), u = shown(a.url), url = safe(u) ? u : "";
      navigator.share
        ? navigator.share({ title, text: body, url: url || undefined }).catch(() => {})
        : copy(url || body);
      break;
    }
    case "scrollTo":
      typeof a.target == "string" && a.target[0] == "#" && d.getElementById(a.target.slice(1))?.scrollIntoView();
  }
  v === undefined || write(s, path ?? "", v < 0 ? put(null) : v);
};

// Binds element `el` to surface `s`.
const bind = (s, el) => {
  const entry = { s };
  R.set(el, entry);
  const add = (k, x, b = {}) => {
    if (x === undefined) return;
    // Every pointer the expression reads, at any depth (over-approximates
    // harmlessly); a walk without recursion, so any depth is fine.
    const r = [], pending = [x];
    for (const v of pending)
      if (v && typeof v == "object")
        for (const [key, i] of Object.entries(v)) key == "path" && typeof i == "string" ? r.push(i) : pending.push(i);
    s.b.push(Object.assign(b, { e: el, k, x, h: put(x), r }));
  };
  add(0, attribute(el, "text"));
  add(1, attribute(el, "attr"));
  add(2, attribute(el, "visible"));
  const model = attribute(el, "model"), p = model?.path;
  if (typeof p == "string" && E.p(put(p))) {
    // The field's type decides what it writes (SPEC.md section 10).
    const t = ["range", "number", "checkbox", "radio", "select-one", "select-multiple"].indexOf(el.type);
    add(3, model, (entry.m = { t: t < 0 ? 0 : t < 2 ? 1 : t < 4 ? t : 4, p, o: t < 3 ? [] : t < 4 ? [el] : [...el.options] }));
  }
  add(4, attribute(el, "checks"));
};

// The value a model field writes (undefined: nothing, an unchecked radio).
const read = (m, el) => {
  const t = m.t;
  if (t < 1) return el.value;
  if (t < 2) return isNaN(el.valueAsNumber) ? null : el.valueAsNumber;
  if (t < 3) return el.checked;
  const chosen = m.o.find((o) => o[t < 4 ? "checked" : "selected"]);
  return chosen ? literal(chosen) : t < 4 ? undefined : null;
};

const hydrate = () => {
  // Innermost surfaces come last in document order: hydrate them first so
  // each element is claimed by the surface nearest to it.
  for (const root of [...d.querySelectorAll("[data-ch-surface]")].reverse()) {
    const c = root.querySelector(":scope>script[data-ch-state]"), state = c && parse(c.textContent);
    // A surface whose state does not parse (or is no object) is left as rendered.
    if (!object(state)) continue;
    const s = { t: put(state), c, b: [] };
    for (const el of root.querySelectorAll(
      "[data-ch-text],[data-ch-attr],[data-ch-model],[data-ch-visible],[data-ch-checks],[data-ch-action]",
    ))
      R.has(el) || bind(s, el);
    s.b.forEach((b) => apply(s, b));
  }
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
  hydrate();
  // One delegated listener per event type: from the target up to the first
  // bound element that handles it (a model field for input, an element with
  // a data-ch-action, read when clicked, for click).
  ["input", "click"].forEach((type, click) =>
    d.addEventListener(type, (ev) => {
      // Values made while the event runs are dropped after it, even when
      // it throws.
      const n = Z.length;
      try {
        for (let el = ev.target, e, v; el; el = el.parentNode)
          if ((e = R.get(el))) {
            if (click) {
              if ((v = attribute(el, "action")) !== undefined) {
                list(v).forEach((a) => run(e.s, a));
                break;
              }
            } else if (e.m) {
              (v = read(e.m, el)) === undefined || write(e.s, e.m.p, put(v), el);
              break;
            }
          }
      } finally {
        Z.length = n;
      }
    }),
  );
};

d.readyState == "loading" ? d.addEventListener("DOMContentLoaded", start) : start();
