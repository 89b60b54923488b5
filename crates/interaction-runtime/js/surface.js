// @ts-check
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
// (see the crate docs). tsc --noEmit checks the types
// (tests/loaders/tsconfig.json).
//
// JSON values (states, bound expressions, computed values) stay here, in
// `Z`; the module reads them through imports, by handle (an index into Z).
// Only JSON values: what JSON.parse made, strings and booleans from the DOM,
// and the numbers this file computes, which go through `json` (NaN and the
// infinities are null, as JSON.stringify and serde_json make them), so a
// value reads here and in Rust as the validator reads it.
// Strings cross as UTF-8: Rust passes (pointer, length); a string for Rust is
// staged in `B` and its length returned (NONE: none), then Rust calls
// `r(pointer)` to copy it in.

// The numbers of the interface with src/wasm.rs (declared first, so that
// esbuild inlines them). A value's kind, as `k` answers and `M` takes it
// (surfaces-core's `Kind`):
const NULL = 0, BOOLEAN = 1, NUMBER = 2, ARRAY = 4, OBJECT = 5;
// What an import answers for no string or no value, and an export for no value.
const NONE = -1;
// Where `W` writes (an index >= 0: that array item).
const MEMBER = -1, WHOLE = -2;
// What `X` does.
const DATE = 0, PLURAL = 4, STRING_OF = 5;
// The page's own: a binding's kind, and a model field's (SPEC.md section 10).
const TEXT = 0, ATTR = 1, VISIBLE = 2, MODEL = 3, CHECKS = 4;
const FIELD_TEXT = 0, FIELD_NUMBER = 1, CHECKBOX = 2, RADIO = 3, SELECT = 4;

/**
 * The module's exports (src/wasm.rs documents them), on handles.
 * @type {{
 *   memory: WebAssembly.Memory, __data_end: WebAssembly.Global,
 *   c(state: number, e: number): number, x(v: number): number, v(state: number, condition: number): number,
 *   k(state: number, check: number): number,
 *   w(state: number, path: number, value: number): number, q(a: number, b: number): number,
 *   s(href: number): number,
 * }}
 */
let E;
const d = document;
/** @type {any[]} */
const Z = []; // handle -> JSON value
const enc = new TextEncoder();
const dec = new TextDecoder();
/** @type {Uint8Array} */
let U; // a view of the module's memory (renewed when the memory grows)
let S = new Uint8Array(256); // scratch for staging, reused: no garbage per string
/** @type {Uint8Array} */
let B; // the staged string: a view of S
/** @type {string | undefined} */
let L; // the locale of the surface being computed (its closest lang), for calls that name none

const mem = () => (U?.buffer == E.memory.buffer ? U : (U = new Uint8Array(E.memory.buffer)));
// Most strings that cross are short and ASCII (names, pointer segments,
// numbers as text): they are read and written byte by byte, as TextDecoder
// and encodeInto cost more per call than such a string takes (they were
// two fifths of an update's time); any other goes through them.
/** @param {number} p @param {number} l */
const decode = (p, l, u = mem(), s = "") => {
  for (let i = p; i < p + l && l < 32 && u[i] < 128; ) s += String.fromCharCode(u[i++]);
  return s.length == l ? s : dec.decode(u.subarray(p, p + l));
};
// Strings in the module's data segment (names such as "path" or "call":
// below __data_end, as the module is linked with its stack after its data)
// never change: decoded once, kept by address and length.
/** @type {string[][]} */
const T = [];
/** The string Rust passed as (pointer, length). @param {number} p @param {number} l */
const str = (p, l) => (p + l > E.__data_end.value ? decode(p, l) : ((T[p] ??= [])[l] ??= decode(p, l)));
/** The same, or undefined for the length NONE. @param {number} p @param {number} l */
const opt = (p, l) => (l == NONE ? undefined : str(p, l));
/** Stages `s` if it is a string: its length in UTF-8, else NONE. @param {unknown} s */
const stage = (s) => {
  if (typeof s != "string") return NONE;
  // (UTF-8 takes at most 3 bytes for a UTF-16 unit.)
  if (s.length * 3 > S.length) S = new Uint8Array(s.length * 3);
  let i = 0;
  while (i < s.length && i < 32 && (S[i] = s.charCodeAt(i)) < 128) i++;
  return (B = S.subarray(0, i == s.length ? i : enc.encodeInto(s, S).written)).length;
};
// Intl formatters are costly to build: one per kind, locale and options.
/** @type {Map<string, Intl.NumberFormat | Intl.DateTimeFormat>} */
const formatters = new Map();
/**
 * A JSON value's kind: from the first letter of its typeof, at its position
 * in "-bns-o". A number JSON cannot hold (NaN, the infinities: JSON.parse
 * reads 1e309 as Infinity, in a state or a data-ch-value) is null, as the
 * validator reads it.
 * @param {unknown} v
 */
const kind = (v) => (v === null || (typeof v == "number" && !isFinite(v)) ? NULL : Array.isArray(v) ? ARRAY : "-bns-o".indexOf((typeof v)[0]));
/** @param {unknown} v @returns {v is Record<string, any>} */
const object = (v) => kind(v) == OBJECT;
/** A number as JSON holds it: NaN and the infinities are null. @param {number} n */
const json = (n) => (isFinite(n) ? n : null);
/** A new handle to `v`. @param {unknown} v */
const put = (v) => Z.push(v) - 1;
/** @param {string | null} s @param {unknown} [none] what a text that is no JSON gives */
const parse = (s, none) => {
  try {
    return JSON.parse(/** @type {string} */ (s));
  } catch {
    return none;
  }
};
/** @param {string} s */
const copy = (s) => navigator.clipboard?.writeText(s).catch(() => {});
/** An array's item or an object's member, as a new handle (NONE: it has none). @param {any} v @param {number | string} key */
const member = (v, key) => (Object.hasOwn(v, key) ? put(v[key]) : NONE);

// What src/wasm.rs imports, by the names there (every argument a number).
/** @type {Record<string, (...args: number[]) => unknown>} */
const imports = {
  r: (p) => mem().set(B, p),
  // JSON values, read...
  k: (j) => kind(Z[j]),
  f: (j) => +Z[j],
  z: (j) => stage(Z[j]),
  l: (j) => (kind(Z[j]) < ARRAY ? 0 : Object.keys(Z[j]).length),
  // An array's item, an object's member (NONE: none, or not an array or object).
  I: (j, i) => (Array.isArray(Z[j]) ? member(Z[j], i) : NONE),
  m: (j, p, l) => (object(Z[j]) ? member(Z[j], str(p, l)) : NONE),
  K: (j, i) => stage(object(Z[j]) && Object.keys(Z[j])[i]),
  // ...made (NULL, BOOLEAN, NUMBER, else a string)...
  M: (k, n, p, l) => put(k == NULL ? null : k == BOOLEAN ? !!n : k == NUMBER ? n : str(p, l)),
  // ...and written, as a copy: into an array item (i >= 0), an object
  // member (MEMBER) or the whole (WHOLE). A value too deep to copy is not
  // written. (No import throws: an exception would unwind the module's
  // frames without restoring its stack pointer.)
  W: (j, p, l, i, v) => {
    try {
      const value = structuredClone(Z[v]);
      i == WHOLE ? (Z[j] = value) : i == MEMBER ? (Z[j][str(p, l)] = value) : (Z[j][i] = value);
    } catch {}
  },
  // Intl: DATE a date (epoch ms v, or the ISO date s; n the dateStyle's
  // index), 1 a number, 2 a percent (n, m: fraction digits or NONE), 3 a
  // currency s; PLURAL whether v's plural category is "one"; STRING_OF String(v).
  X: (what, v, n, m, sp, sl, lp, ll) => {
    if (what == STRING_OF) return stage(String(v));
    const s = opt(sp, sl), locale = opt(lp, ll) ?? L;
    /** @param {number} d */
    const digits = (d) => (d == NONE ? undefined : d);
    try {
      if (what == PLURAL) return new Intl.PluralRules(locale).select(v) == "one";
      const key = what + JSON.stringify([locale, n, m, s]);
      formatters.has(key) ||
        formatters.set(
          key,
          what == DATE
            ? new Intl.DateTimeFormat(locale, { dateStyle: /** @type {const} */ (["short", "medium", "long", "full"])[n], timeZone: "UTC" })
            : new Intl.NumberFormat(locale, {
                // (The number styles at their kinds' positions.)
                style: /** @type {const} */ ([, "decimal", "percent", "currency"])[what],
                currency: s,
                minimumFractionDigits: digits(n),
                maximumFractionDigits: digits(m),
              }),
        );
      return stage(/** @type {any} */ (formatters.get(key)).format(what == DATE ? new Date(s ?? v) : v));
    } catch {
      // Intl throws on what it cannot format: the binding then shows nothing.
      return what == PLURAL ? v == 1 : NONE;
    }
  },
};

// ---------------------------------------------------------------- the page

/**
 * A surface: its state's handle, its state script, its element, its bindings.
 * @typedef {{ t: number, c: Element, r: Element, b: Binding[], l?: string }} Surface
 */
/**
 * A binding: the element, its kind (TEXT, ATTR, VISIBLE, MODEL, CHECKS),
 * the expression, its handle, the pointers it reads; a model's also its
 * field's kind (FIELD_TEXT ... SELECT), its path and the radio or the
 * select's options.
 * @typedef {{ e: any, k: number, x: any, h: number, r: string[] } & Partial<Model>} Binding
 * @typedef {{ t: number, p: string, o: any[] }} Model
 */
// Bound element -> its surface and, for a model field, its model binding.
/** @type {Map<EventTarget, { s: Surface, m?: Model }>} */
const R = new Map();

// Only these attributes are read: a value that starts with "/" (or is
// empty) is a JSON Pointer, read as the binding {path}; anything else JSON
// (undefined when absent or invalid).
/** @param {Element} el @param {string} name */
const attribute = (el, name, s = el.getAttribute("data-ch-" + name)) => (s == null ? undefined : s[0] == "/" || !s ? { path: s } : parse(s));
// A bound expression by its text: parsed once, with its handle and every
// pointer it reads, however many elements carry it (a page shows one value
// in many places).
/** @type {Map<string | null, { x: any, h: number, r: string[] }>} */
const X = new Map();
/** @param {Element} el @param {string} name */
const expression = (el, name) => {
  const s = el.getAttribute("data-ch-" + name), x = X.has(s) ? undefined : attribute(el, name, s);
  if (x !== undefined) {
    // Every pointer the expression reads, at any depth (over-approximates
    // harmlessly); a walk without recursion, so any depth is fine.
    /** @type {string[]} */
    const r = [];
    const pending = [x];
    for (const v of pending)
      if (v && typeof v == "object")
        for (const [key, i] of Object.entries(v)) key == "path" && typeof i == "string" ? r.push(i) : pending.push(i);
    X.set(s, { x, h: put(x), r });
  }
  return X.get(s);
};
// What one round of showing (a surface's hydration, or a write) computed:
// bindings of one kind with the same expression show the same, computed once.
/** @type {Map<number, unknown>} */
const O = new Map();
/** @param {Binding} b @param {() => unknown} f */
const once = (b, f, key = b.h * 5 + b.k) => (O.has(key) || O.set(key, f()), O.get(key));
// Every setter compares first: hydration leaves what the server rendered
// untouched where it agrees.
/** @param {any} el @param {string} name @param {unknown} v */
const set = (el, name, v) => el[name] !== v && (el[name] = v);
/** @param {Element} el @param {string} name @param {string | null} v */
const attr = (el, name, v) => el.getAttribute(name) !== v && (v == null ? el.removeAttribute(name) : el.setAttribute(name, v));
/** @param {number} h */
const text = (h) => Z[E.x(h)];
// What the pointer `path` addresses in `root`, as the binding {path} reads
// it: null when missing, NONE when the pointer is invalid or unsafe.
/** @param {number} root @param {unknown} path */
const at = (root, path) => E.c(root, put({ path }));
// The safe-href rule (SPEC.md section 5), on a string.
/** @param {string} href */
const safe = (href) => E.s(put(href));
// What a radio or option stands for: its data-ch-value parsed, else its value.
/** @param {any} o */
const literal = (o) => parse(o.getAttribute("data-ch-value") ?? "-", o.value);
// Whether pointer `b` is `a` or lies inside it, segment-wise (/ab is not
// inside /a). A write at w can change what a binding reads at r when either
// lies within the other.
/** @param {string} a @param {string} b */
const within = (a, b) => b.startsWith(a) && (b.length == a.length || b[a.length] == "/");
// "One or a list" (actions, checks).
/** @param {unknown} x */
const list = (x) => (Array.isArray(x) ? x : [x]);

// Shows binding `b` of surface `s`; `source` is the field being typed in
// (left alone), `changed` false at hydration (checks wait for a change).
/** @param {Surface} s @param {Binding} b @param {EventTarget} [source] @param {number} [changed] */
const apply = (s, b, source, changed) => {
  const n = Z.length, el = b.e, st = s.t, k = b.k;
  L = s.l;
  if (k == TEXT) {
    // A binding that does not follow section 3 leaves the text as rendered.
    const t = once(b, (h = E.c(st, b.h)) => (h == NONE ? h : text(h)));
    t === NONE || set(el, "textContent", t);
  } else if (k == ATTR) {
    // data-ch-attr: value, checked, disabled, open (a <details> or <dialog>
    // bound to state), aria-* and data-* (exactly, in lower case), href when
    // safe; nothing else (on*, style, src, srcdoc).
    if (object(b.x))
      for (const [name, x] of Object.entries(b.x)) {
        const h = E.c(st, put(x));
        if (h == NONE) continue;
        const v = Z[h], t = text(h);
        name == "value"
          ? set(el, name, t)
          : name == "checked"
            ? set(el, name, !!v)
            : name == "disabled" || name == "open"
              ? attr(el, name, v ? "" : null)
              : name == "href"
                ? safe(t) && attr(el, name, t)
                : /^(aria|data)-[a-z0-9-]+$/.test(name) && attr(el, name, v === null ? null : t);
      }
  } else if (k == VISIBLE) attr(el, "hidden", once(b, () => E.v(st, b.h)) ? null : "");
  else if (k == MODEL) {
    if (el != source) {
      const h = at(st, b.p), t = b.t;
      t == FIELD_TEXT || t == FIELD_NUMBER
        ? set(el, "value", text(h))
        : t == CHECKBOX
          ? set(el, "checked", !!Z[h])
          : /** @type {any[]} */ (b.o).forEach((o) => set(o, t == RADIO ? "checked" : "selected", !!E.q(h, put(literal(o)))));
    }
  } else if (changed) {
    // Checks run from the first change of what they read: the first that
    // fails sets aria-invalid and its message goes to the element that
    // aria-describedby names first.
    const failing = list(b.x).find((c) => E.k(st, put(c)));
    // (The first id it names; one holding other white space than ASCII's is
    // cut there, and then names nothing of the surface.)
    const id = el.getAttribute("aria-describedby")?.match(/\S+/)?.[0];
    attr(el, "aria-invalid", failing ? "true" : null);
    const m = id && d.getElementById(id);
    // Only the surface's own element: an id of the page's is never written
    // (contains is false for none).
    s.r.contains(m) && set(m, "textContent", typeof failing?.message == "string" ? failing.message : "");
  }
  Z.length = n;
};

// Writes `h` at `path` in surface `s`'s state, then re-applies the bindings
// that read what changed. A write of what is there already (an increment
// clamped at its max) changes nothing: no binding runs, no ch:change.
/** @param {Surface} s @param {string} path @param {number} h @param {EventTarget} [source] */
const write = (s, path, h, source) =>
  !E.q(at(s.t, path), h) &&
  E.w(s.t, put(path), h) &&
  (O.clear(),
  s.b.forEach((b) => b.r.some((r) => within(r, path) || within(path, r)) && apply(s, b, source, 1)),
  tell(s, "change", { path, value: Z[h] }));

// A bubbling ch:<name> event from surface `s`'s element (ch:change after a
// write, ch:action before an action runs), for the page's own code.
/** @param {Surface} s @param {string} name @param {unknown} detail */
const tell = (s, name, detail) => s.r.dispatchEvent(new CustomEvent("ch:" + name, { bubbles: true, detail }));

// One action of surface `s` (SPEC.md section 5).
/** @param {Surface} s @param {unknown} a */
const run = (s, a) => {
  if (!object(a)) return;
  tell(s, "action", a);
  L = s.l;
  const path = typeof a.path == "string" ? a.path : undefined;
  /** @param {unknown} x */
  const number = (x) => (typeof x == "number" ? x : undefined);
  // A computed field as text; empty when absent or when it does not follow section 3.
  /** @param {unknown} x */
  const shown = (x) => {
    const h = x === undefined ? NONE : E.c(s.t, put(x));
    return h == NONE ? "" : text(h);
  };
  const current = () => Z[at(s.t, path)];
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
        // (A NaN takes the bound, as in Rust's f64::min and max; past the
        // largest number, the sum is null.)
        if (number(a.max) != null && !(n <= a.max)) n = a.max;
        if (number(a.min) != null && !(n >= a.min)) n = a.min;
        v = put(json(n));
      }
      break;
    case "reset":
      // A path the initial state lacks reads as null; no path resets it all.
      v = at(put(parse(s.c.textContent, null)), path ?? "");
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
    case "scrollTo": {
      // The surface's component of that id (the renderer marks the ones
      // scrollTo names), else the page's element of that id.
      const id = typeof a.target == "string" && a.target[0] == "#" && a.target.slice(1), root = s.r;
      id &&
        ([...root.querySelectorAll("[data-component-id]")].find((e) => e.getAttribute("data-component-id") == id && e.closest("[data-ch-surface]") == root) ??
          d.getElementById(id))?.scrollIntoView();
    }
  }
  v === undefined || write(s, path ?? "", v == NONE ? put(null) : v);
};

// The model field kinds of the input types that are not text fields.
/** @type {Record<string, number>} */
const FIELDS = { range: FIELD_NUMBER, number: FIELD_NUMBER, checkbox: CHECKBOX, radio: RADIO, "select-one": SELECT, "select-multiple": SELECT };

// Binds element `el` to surface `s`.
/** @param {Surface} s @param {any} el */
const bind = (s, el) => {
  /** @type {{ s: Surface, m?: Model }} */
  const entry = { s };
  R.set(el, entry);
  /** @param {number} k @param {{ x: any, h: number, r: string[] } | undefined} x @param {Partial<Model>} [b] */
  const add = (k, x, b = {}) => x && s.b.push(Object.assign(b, x, { e: el, k }));
  // (TEXT, ATTR and VISIBLE, at their positions.)
  ["text", "attr", "visible"].forEach((name, k) => add(k, expression(el, name)));
  const model = expression(el, "model"), p = model?.x?.path;
  if (typeof p == "string" && at(s.t, p) != NONE) {
    // The field's type decides what it writes (SPEC.md section 10).
    // (FIELD_TEXT is 0: a type FIELDS lacks, also one Object.prototype has,
    // whose value is a function, reads as 0 through | 0.)
    const t = FIELDS[el.type] | 0;
    add(MODEL, model, (entry.m = { t, p, o: t == RADIO ? [el] : t == SELECT ? [...el.options] : [] }));
  }
  add(CHECKS, expression(el, "checks"));
};

// The value a model field writes (undefined: nothing, an unchecked radio;
// null: an empty number field).
/** @param {Model} m @param {any} el */
const read = (m, el) => {
  const t = m.t;
  if (t == FIELD_TEXT) return el.value;
  if (t == FIELD_NUMBER) return json(el.valueAsNumber);
  if (t == CHECKBOX) return el.checked;
  const chosen = m.o.find((o) => o[t == RADIO ? "checked" : "selected"]);
  return chosen ? literal(chosen) : t == RADIO ? undefined : null;
};

// A lang as Intl reads it; en-US, the renderer's default, for none or one
// Intl throws on (en_US), so every call still formats as the server did.
/** @param {string | null | undefined} tag @returns {string} */
const locale = (tag) => {
  try {
    return Intl.getCanonicalLocales(/** @type {any} */ (tag))[0] || "en-US";
  } catch {
    return "en-US";
  }
};

// The surfaces hydrated (or left as rendered): never hydrated twice.
const H = new WeakSet();

// Hydrates the surfaces in `scope` (the document, or an element a ch:hydrate
// was dispatched on, itself a surface or holding some).
/** @param {any} scope */
const hydrate = (scope) => {
  // Innermost surfaces come last in document order: hydrate them first so
  // each element is claimed by the surface nearest to it.
  for (const root of [...(scope.matches?.("[data-ch-surface]") ? [scope] : []), ...scope.querySelectorAll("[data-ch-surface]")].reverse()) {
    const c = root.querySelector(":scope>script[data-ch-state]"), state = c && parse(c.textContent);
    // A surface whose state does not parse (or is no object) is left as rendered.
    if (H.has(root) || (H.add(root), !object(state))) continue;
    /** @type {Surface} */
    // Formatted in the locale the surface or the page names (its closest
    // lang, as the renderer wrote it), so hydration changes no text.
    const s = { t: put(state), c: /** @type {Element} */ (c), r: root, b: [], l: locale(/** @type {any} */ (root.closest("[lang]"))?.lang) };
    for (const el of root.querySelectorAll(["text", "attr", "model", "visible", "checks", "action"].map((n) => `[data-ch-${n}]`) + ""))
      // Only its own: not an inner surface's, even one left as rendered.
      el.closest("[data-ch-surface]") == root && bind(s, el);
    O.clear();
    s.b.forEach((b) => apply(s, b));
  }
};

// Whether `scope` (the document or an element) holds a call where the
// runtime evaluates one: a check, or "call" in a binding, a data-ch-attr or
// an action (conditions and models hold none). JSON writes the key "call"
// as it is or with a \u escape (a backslash), so these substrings never
// miss one; a pointer or text that merely holds them costs only the larger
// module.
const CALL = ["text", "attr", "action"].map((n) => `[data-ch-${n}*=call],[data-ch-${n}*="\\\\"]`) + ",[data-ch-checks]";
/** @param {any} scope */
const calls = (scope) => scope.matches?.(CALL) || !!scope.querySelector(CALL);
/**
 * Whether the module with the function set was loaded for the page's own
 * surfaces (true), else it loading for a surface added later.
 * @type {boolean | Promise<unknown>}
 */
let P;

// Loads the module with the function set (WASM), or the smaller one without
// it (NOCALLS, for a page whose surfaces hold no call): what failed, after
// one warning saying so, or nothing.
/** @param {boolean} fns */
const load = async (fns) => {
  const url = new URL(fns ? WASM : NOCALLS, import.meta.url);
  let bytes, why;
  try {
    const r = await fetch(url);
    r.ok ? (bytes = await r.arrayBuffer()) : (why = url + " answered " + r.status);
  } catch (err) {
    why = url + ": " + err;
  }
  try {
    bytes && (E = /** @type {any} */ (await WebAssembly.instantiate(bytes, { e: imports })).instance.exports);
  } catch (err) {
    // Compiling WebAssembly needs 'wasm-unsafe-eval' in script-src (a
    // refusal names eval or the CSP; a body that is no wasm, as a page
    // answering for any URL, neither).
    why = err + (/eval|CSP/.test(/** @type {any} */ (err)) ? "; a CSP must allow script-src 'wasm-unsafe-eval'" : "");
  }
  // Without it the page keeps working as the server rendered it; without
  // the module with the function set, swapped in for a surface added later,
  // the page runs on with the other (the warning names the module), and
  // calls leave their text as rendered.
  if (why) return console.warn("surfaces: " + (E ? "" : "not started: ") + why), why;
  // (The module's strings are its own: the decoded ones go with the old.)
  T.length = 0;
};

const start = async () => {
  if (await load((P = calls(d)))) return;
  // A surface holding a call added while the other module loaded (a
  // page's script at DOMContentLoaded) waits for the one with the set.
  P || !calls(d) || (await (P = load(true)));
  hydrate(d);
  // Surfaces added later: a ch:hydrate on them (or on the document), seen
  // in the capture phase whether it bubbles or not, hydrated in a
  // microtask: after the event that the page's listener may dispatch it
  // from has dropped the values it made (the hydration's stay). One that
  // holds a call, on a page whose surfaces held none, waits until the
  // module with the function set has replaced the other (every value stays
  // here, so the swap loses nothing; should it fail to load, such calls
  // leave their text as rendered).
  d.addEventListener(
    "ch:hydrate",
    async (ev) => {
      const t = ev.target;
      await (P === true || !calls(t) || (P ||= load(true)));
      hydrate(t);
    },
    true,
  );
  // One delegated listener per event type: from the target up to the first
  // bound element that handles it (a model field for input, an element with
  // a data-ch-action, read when clicked, for click).
  ["input", "click"].forEach((type, click) =>
    d.addEventListener(type, (ev) => {
      // Values made while the event runs are dropped after it, even when
      // it throws.
      const n = Z.length;
      try {
        /** @type {{ s: Surface, m?: Model } | undefined} */
        let e;
        for (let el = /** @type {any} */ (ev.target), v; el; el = el.parentNode)
          if ((e = R.get(el))) {
            if (click) {
              if ((v = attribute(el, "action")) !== undefined) {
                for (const a of list(v)) run(e.s, a);
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
