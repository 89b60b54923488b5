// @ts-check
// The preview morph's loader: the JavaScript face of crates/morph
// (`init`, `morph`, `Preview`) over plain wasm imports and exports, in place
// of wasm-bindgen's glue (why: the crate docs). Everything here is DOM
// plumbing; every decision is made in Rust. The import and export names live
// in two files only, src/dom.rs and src/wasm.rs (which documents them); the
// numbers they pass are the constants below, named as there.
//
// Two kinds of handle cross, as i32: a node's index in `N` (a table open
// from the outermost begin to its end; 0 is no node), and a slot in the value
// store `J` (values that outlive a morph: targets, HTML, callbacks), which
// Rust owns and frees. A short string for Rust is staged in `B` and its
// length returned (NONE: none); Rust reads it a UTF-16 unit at a time.
//
// Build: esbuild --minify --format=esm crates/morph/js/morph.js (see the
// crate docs); the wasm is morph_bg.wasm next to it unless init() is given
// another source. tsc --noEmit checks the types (tests/loaders/tsconfig.json).

// The numbers of the interface with src/dom.rs, named as there (declared
// first, so that esbuild inlines them). What a string import answers for no string.
const NONE = -1;
// What `n` follows.
const FIRST = 0, NEXT = 1, PARENT = 2;
// What `t` compares (else TEXT_DIFFERS, 2).
const EQUAL = 0;
// `K`'s kind past the key attributes: the element's tag.
const TAG = 3;
// Which live state `S` sets.
const SET_VALUE = 0, SET_CHECKED = 1, SET_SELECTED = 2;
// `a`'s result bits (src/live.rs): `value`, `checked`, `selected` changed (the
// latter two in presence), and any attribute.
const VALUE = 1, CHECKED = 2, SELECTED = 4, ANY = 8;
// `O`'s result bits: the new element has `open`; the server's last `open`.
const NEW_OPEN = 1, SERVER_OPEN = 2;
// The DOM's numbers.
const ELEMENT_NODE = 1, TEXT_NODE = 3, CDATA_SECTION_NODE = 4, PROCESSING_INSTRUCTION_NODE = 7, COMMENT_NODE = 8;

/**
 * The module's exports (src/wasm.rs).
 * @type {{
 *   m(target: number, html: number, outer: number, outline: number, follow: number): void,
 *   p(target: number, outline: number, follow: number, onMorph: number): number,
 *   u(preview: number, html: number): void,
 *   s(preview: number, key: number, html: number): void,
 *   f(preview: number): number,
 *   t(preview: number): void,
 *   d(preview: number): void,
 * }}
 */
let E;
// The node table (index 0: no node). Untyped: Rust passes each import a
// handle of the kind of node it needs, having asked `k` where that varies.
/** @type {any[]} */
let N = [null];
// A node's handle is kept on the node, under two symbols: the number of the
// table it is in and its index there. A lookup is then a property read, not
// a Map's hash (the table pair: 27,000 lookups a morph, 1.3 to 0.3 ms), and
// a new table (TN + 1) forgets every handle at once.
const HN = Symbol(), HI = Symbol();
let TN = 0;
// Per key kind (`KA`'s, then the tag), each value's number: numbers are
// unique across kinds (`KN` counts them), and a lookup needs no string
// built from the kind and the value (a tag is one of a few interned names).
/** @type {Map<string, number>[]} */
let K = [];
let KN = 0;
// Each handle's tag number, once asked: matching asks it of a node several
// times (a table of 3,000 cells: 27,000 asks for 9,000 nodes).
/** @type {number[]} */
let NT = [];
let D = 0; // how deep begin calls are nested
/** @type {any[]} */
let S = []; // the staged elements, or the elements of the staged attributes (which, Rust knows)
/** @type {string[] | null} */
let A = null; // the staged attributes' names (null: elements are staged)
/** @type {Element[]} */
let Z = []; // the elements of the suspect attributes `x` found with the elements, for the next `x`
/** @type {string[]} */
let ZA = []; // and their names
/**
 * What `s` saves: the focused element, its selection range, the document selection.
 * @typedef {[HTMLElement | SVGElement | null, [number, number, 'forward' | 'backward' | 'none'] | null, [Node, number, Node, number] | null]} Saved
 */
/** @type {Saved[]} */
let V = [];
/** @type {Element[]} */
let C = []; // the elements to outline
let T = 0; // the number of the last outline
let B = ''; // the staged string
/** @type {string[]} */
let O = []; // the keys written for the next report
let W = ''; // the key being written
/** @type {any[]} */
const J = []; // the value store
/** @type {number[]} */
const G = []; // its free slots

/** A node's handle (0: no node). @param {Node | null | undefined} n */
const h = (n) => {
  if (!n) return 0;
  const o = /** @type {any} */ (n);
  return o[HN] === TN ? o[HI] : ((o[HN] = TN), (o[HI] = N.push(n) - 1));
};
/** A new slot holding `v`. @param {unknown} v */
const put = (v) => {
  const i = G.pop() ?? J.length;
  J[i] = v;
  return i;
};
/** Empties slot `i`; what it held. @param {number} i */
const take = (i) => {
  const v = J[i];
  J[i] = undefined;
  G.push(i);
  return v;
};
/** Stages `s` if a string; its length, or NONE. @param {unknown} s */
const stage = (s) => (typeof s == 'string' ? (B = s).length : NONE);
const reset = () => ((N = [null]), TN++, (NT = []), (K = KA.map(() => new Map()).concat(new Map())), (KN = 0));

const OUT = 'data-morph-changed', OPEN = '__morphServerOpen';
// The suspects: elements `rules::is_forbidden_element` or
// `is_forbidden_animation` may judge (by local name), and attributes
// `is_handler` or `is_form_override` may (by prefix), or srcdoc,
// `is_url_attribute` or `is_name_attribute` (by name); crates/morph/tests/
// js_lists.rs holds these to src/rules.rs. A loop over the elements finds
// them, not XPath: Blink's XPath took 6 to 9 ms on pages where the loop
// takes 1.
const XE = ['script', 'base', 'meta', 'style', 'link', 'animate', 'set'];
const XP = ['on', 'form'];
const XN = ['srcdoc', 'href', 'src', 'action', 'xlink:href', 'data', 'id', 'name', 'for', 'commandfor', 'popovertarget', 'target'];
// Both as one test (the lists hold no character special to a pattern).
const XR = new RegExp(`^(${XP.join('|')})|^(${XN.join('|')})$`);
// `K`'s kinds: `keys::KEY_ATTRIBUTES`, and `Q`'s selectors, by dom::KEYED and
// dom::SECTIONS (js_lists.rs holds them to KEY_ATTRIBUTES).
const KA = ['id', 'data-section-id', 'data-component-id'];
const SEL = ['[id],[data-section-id],[data-component-id]', '[data-section-id]'];
// `z`'s answer is an element's position here plus one (0: none of these).
const SPECIAL = ['INPUT', 'OPTION', 'DETAILS', 'TEXTAREA', 'DIALOG'];
/** Whether an attribute named `n` is a suspect. @param {string} n */
const suspect = (n) => XR.test(n);
/**
 * Pushes the suspect elements of `r` and its descendants, in document order,
 * and of its templates' contents, onto `els`, and each suspect attribute as
 * its element onto `owners` and its name onto `names`: one pass for both,
 * by names alone (an `Attr` would be a node Blink makes on asking: the walk
 * took twice as long with them).
 * @param {Element} r @param {Element[]} els @param {Element[]} owners @param {string[]} names
 */
const walk = (r, els, owners, names) => {
  const all = r.ownerDocument.createTreeWalker(r, 1 /* NodeFilter.SHOW_ELEMENT */);
  for (let e = /** @type {Element | null} */ (r); e; e = /** @type {Element | null} */ (all.nextNode())) {
    const l = e.localName;
    if (XE.includes(l)) els.push(e);
    if (e.hasAttributes()) for (const n of e.getAttributeNames()) if (suspect(n)) owners.push(e), names.push(n);
    if (l == 'template' && /** @type {HTMLTemplateElement} */ (e).content)
      for (const c of /** @type {HTMLTemplateElement} */ (e).content.children) walk(c, els, owners, names);
  }
};
/** The number of key `v` of kind `k` (NONE: no key). @param {string | null} v @param {number} k */
const number = (v, k) => {
  if (!v) return NONE;
  const m = K[k];
  let i = m.get(v);
  if (i === undefined) m.set(v, (i = KN++));
  return i;
};
/** A node's length as a range offset counts it. @param {Node} n */
const len = (n) => {
  const t = n.nodeType;
  return t == TEXT_NODE || t == CDATA_SECTION_NODE || t == PROCESSING_INSTRUCTION_NODE || t == COMMENT_NODE
    ? /** @type {CharacterData} */ (n).length
    : n.childNodes.length;
};
/** The bit a change of attribute `a` sets in `a`'s answer (`presence`: it came or went). @param {string} a @param {boolean} presence */
const flag = (a, presence) => (a == 'value' ? VALUE : a == 'checked' && presence ? CHECKED : a == 'selected' && presence ? SELECTED : 0);

// What src/dom.rs imports, by the names there (every argument a number).
/** @type {Record<string, (...args: number[]) => unknown>} */
const imports = {
  // The handle table, the value store, strings.
  b: (j) => (D++ || reset(), h(J[j])),
  c: () => --D || reset(),
  F: (i) => take(i),
  q: (a, b) => J[a] === J[b],
  u: (i) => B.charCodeAt(i),
  o: (c) => (c < 0 ? (O.push(W), (W = '')) : (W += String.fromCharCode(c))),
  w: (j) => stage(String(J[j]).trimStart().slice(0, 9)),
  // Parse inert, stage suspects, judge in Rust, drop.
  P: (t, j, whole) => {
    try {
      const tp = N[t].ownerDocument.createElement('template'), d = tp.content.ownerDocument;
      if (whole) {
        const e = d.createElement('html');
        e.innerHTML = J[j];
        return h(e.querySelector('body') ?? e);
      }
      tp.innerHTML = J[j];
      const b = d.createElement('body');
      b.append(tp.content);
      return h(b);
    } catch {
      return 0;
    }
  },
  x: (r, a) => {
    if (a) (S = Z), (A = ZA);
    else walk(N[r], (S = []), (Z = []), (ZA = [])), (A = null);
    return S.length;
  },
  N: (i) => stage(A ? A[i] : S[i].localName),
  v: (i) => stage(S[i].getAttribute(A ? A[i] : 'attributeName')),
  // Whether a staged id or name would shadow a property of the document
  // (of its prototypes: not one of its named properties) or of the window
  // (below its named properties object: EventTarget.prototype and on); a
  // label's for, whether it names an element of the page outside the target.
  C: (i, t) => {
    const n = /** @type {string[]} */ (A)[i], v = S[i].getAttribute(n), d = N[t].ownerDocument, w = d.defaultView, p = Object.getPrototypeOf;
    let e;
    return n == 'for' ? !!(e = d.getElementById(v)) && !N[t].contains(e) : v in p(d) || (!!w && v in p(p(p(w))));
  },
  // A shadow root (a fragment with a host), or a frame's document.
  Y: (t) => {
    const r = /** @type {any} */ (N[t].getRootNode());
    return +(!!(r.nodeType == 11 && r.host) || N[t].ownerDocument != globalThis.document);
  },
  X: (i) => (A ? S[i].removeAttribute(A[i]) : S[i].remove()),
  Q: (r, k) => (S = N[r]?.nodeType == ELEMENT_NODE ? [...N[r].querySelectorAll(SEL[k])] : []).length,
  h: (i) => h(S[i]),
  // Walks and comparisons.
  k: (n) => N[n].nodeType,
  n: (n, w) =>
    h(w == FIRST ? N[n].firstChild : w == NEXT ? N[n].nextSibling : w == PARENT ? N[n].parentNode : N[n].nodeType == ELEMENT_NODE ? N[n] : N[n].parentElement),
  t: (a, b, w) =>
    w == EQUAL ? N[a].isEqualNode(N[b]) : N[a].textContent !== N[b].textContent,
  K: (n, k) => (k == TAG ? (NT[n] ??= number(N[n].nodeName, k)) : number(N[n].getAttribute(KA[k]), k)),
  y: (n) => stage(N[n].getAttribute('data-section-id')),
  H: (n) => put(N[n].outerHTML),
  z: (n) => SPECIAL.indexOf(N[n].tagName) + 1,
  // Changes.
  T: (o, n) => {
    const x = N[o], v = N[n].nodeValue;
    if (x.nodeValue === v) return 0;
    x.nodeValue = v;
    return 1;
  },
  a: (o, n, openIsState) => {
    /** @type {Element} */
    const x = N[o], y = N[n];
    if (!x.hasAttributes() && !y.hasAttributes()) return 0;
    let c = 0;
    for (const a of y.attributes) {
      const before = x.getAttribute(a.name);
      if (before === a.value || (openIsState && a.name == 'open')) continue;
      try {
        a.namespaceURI === null ? x.setAttribute(a.name, a.value) : x.setAttributeNS(a.namespaceURI, a.name, a.value);
      } catch {}
      c |= ANY | flag(a.name, before === null);
    }
    for (const a of [...x.attributes].reverse()) {
      if (y.hasAttribute(a.name) || a.name == OUT || (openIsState && a.name == 'open')) continue;
      x.removeAttribute(a.name);
      c |= ANY | flag(a.name, true);
    }
    return c;
  },
  S: (o, n, w) => {
    const x = N[o], y = N[n];
    try {
      if (w == SET_VALUE) x.value = y.getAttribute('value') ?? '';
      else if (w == SET_CHECKED) x.checked = y.hasAttribute('checked');
      else if (w == SET_SELECTED) x.selected = y.hasAttribute('selected');
      else x.value = y.textContent;
    } catch {}
  },
  O: (o, n) => (N[n].hasAttribute('open') ? NEW_OPEN : 0) | ((N[o][OPEN] ?? N[n].hasAttribute('open')) && SERVER_OPEN),
  B: (o, server, dialog, apply) => {
    const x = N[o];
    if (apply) dialog && !server ? x.close() : x.toggleAttribute('open', !!server);
    x[OPEN] = !!server;
  },
  R: (n) => {
    if (N[n].nodeType == ELEMENT_NODE)
      for (const e of [N[n], ...N[n].querySelectorAll('details,dialog')])
        if (e.matches('details,dialog') && !(OPEN in e)) e[OPEN] = e.hasAttribute('open');
  },
  i: (p, n, b) => {
    const x = N[p], y = N[n], z = N[b] ?? null;
    if ('moveBefore' in x && y.isConnected)
      try {
        return x.moveBefore(y, z);
      } catch {}
    try {
      x.insertBefore(y, z);
    } catch {}
  },
  r: (n) => N[n].parentNode?.removeChild(N[n]),
  p: (t) => {
    const d = N[t].ownerDocument, p = d.createElement('div');
    p.setAttribute('hidden', '');
    d.body ? d.body.after(p) : d.documentElement.append(p);
    return h(p);
  },
  E: (t, n) => {
    try {
      return h(N[t].ownerDocument.createElementNS(N[n].namespaceURI, N[n].localName));
    } catch {
      return 0;
    }
  },
  // Outlines, focus and selection.
  m: (n) => C.push(N[n]),
  f: (ms, follow) => {
    const c = C;
    C = [];
    if (!c.length) return;
    if (follow) c[c.length - 1].scrollIntoView({ block: 'nearest' });
    if (ms) {
      const s = String(T++);
      for (const e of c) e.setAttribute(OUT, s);
      (c[0].ownerDocument.defaultView ?? globalThis).setTimeout(() => {
        for (const e of c) if (e.getAttribute(OUT) === s) e.removeAttribute(OUT);
      }, ms);
    }
  },
  s: (t, a) => {
    const x = N[t], e = N[a] ?? null, d = x.ownerDocument;
    /** @type {Saved[1]} */
    let r = null;
    /** @type {Saved[2]} */
    let sel = null;
    try {
      // An input or textarea with a selection (null for one that has none).
      if (/** @type {any} */ (e)?.selectionStart != null) r = [e.selectionStart, e.selectionEnd, e.selectionDirection];
      const s = d.getSelection();
      if (e && !r && s && s.anchorNode && s.focusNode && x.contains(s.anchorNode)) sel = [s.anchorNode, s.anchorOffset, s.focusNode, s.focusOffset];
    } catch {}
    V.push([e, r, sel]);
  },
  g: (t) => {
    const [e, r, sel] = /** @type {Saved} */ (V.pop()), d = N[t].ownerDocument;
    if (e && e.isConnected) {
      if (d.activeElement !== e)
        try {
          e.focus({ preventScroll: true });
        } catch {}
      if (r)
        try {
          /** @type {HTMLInputElement} */ (e).setSelectionRange(r[0], r[1], r[2]);
        } catch {}
    }
    if (sel && sel[0].isConnected && sel[2].isConnected) {
      const s = d.getSelection();
      if (s && (s.anchorNode !== sel[0] || s.focusNode !== sel[2] || s.anchorOffset !== sel[1] || s.focusOffset !== sel[3]))
        try {
          s.setBaseAndExtent(sel[0], Math.min(sel[1], len(sel[0])), sel[2], Math.min(sel[3], len(sel[2])));
        } catch {}
    }
  },
  A: (t) => {
    const x = N[t], a = x.ownerDocument.activeElement;
    return a && x.contains(a) ? h(a) : 0;
  },
  // The preview: reports, the timer, the clock.
  M: (f) => {
    const k = O;
    O = [];
    // What the page's callback throws is reported as uncaught (the preview
    // goes on): thrown through the module it would leave its stack unwound.
    if (k.length && typeof J[f] == 'function')
      try {
        J[f].call(null, k);
      } catch (e) {
        reportError(e);
      }
    return put(k);
  },
  L: (p, ms) => setTimeout(() => E.t(p), ms),
  D: () => Date.now(),
};

/**
 * `morph`'s options.
 * @typedef {{ outer?: boolean, outline?: number, follow?: boolean }} MorphOptions
 */
/**
 * A preview's: `morph`'s but `outer`, and the callback the changed section keys go to.
 * @typedef {{ outline?: number, follow?: boolean, onMorph?: (keys: string[]) => void }} PreviewOptions
 */

/** Options as the exports take them (the package's ./morph checked their kinds): outline (NaN: none). @param {MorphOptions | PreviewOptions | undefined} o */
const outline = (o) => o?.outline ?? NaN;

/**
 * Loads the wasm once (`{ module_or_path }`: a URL, Response, bytes or Module).
 * @param {{ module_or_path?: any }} [options]
 */
export default async function init(options) {
  if (E) return;
  let s = await (options?.module_or_path ?? new URL('morph_bg.wasm', import.meta.url));
  if (typeof s == 'string' || s instanceof URL || (typeof Request == 'function' && s instanceof Request)) s = await fetch(s);
  if (typeof Response == 'function' && s instanceof Response) s = await s.arrayBuffer();
  const r = await WebAssembly.instantiate(s, { e: imports });
  E ??= /** @type {any} */ (r.instance ?? r).exports;
}

/**
 * Instantiates the module from a `WebAssembly.Module` or its bytes, at once.
 * @param {{ module: WebAssembly.Module | BufferSource }} options
 */
export function initSync({ module }) {
  if (E) return;
  const m = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
  E = /** @type {any} */ (new WebAssembly.Instance(m, { e: imports })).exports;
}

/**
 * Makes the children of `target` (or, with `options.outer`, `target` itself) match `html`.
 * @param {Element} target @param {string} html @param {MorphOptions} [options]
 */
export function morph(target, html, options) {
  E.m(put(target), put(html), +!!options?.outer, outline(options), +!!options?.follow);
}

/** The live preview: at most 4 morphs a second, the latest update winning. */
export class Preview {
  /** @param {Element} target @param {PreviewOptions} [options] */
  constructor(target, options) {
    this.i = E.p(put(target), outline(options), +!!options?.follow, put(options?.onMorph));
  }
  /** @param {string} html */
  update(html) {
    E.u(this.i, put(html));
  }
  /** @param {string} key @param {string} html */
  section(key, html) {
    E.s(this.i, stage(key), put(html));
  }
  /** @returns {string[]} */
  flush() {
    const i = E.f(this.i);
    return i < 0 ? [] : take(i);
  }
  free() {
    E.d(this.i);
  }
}
