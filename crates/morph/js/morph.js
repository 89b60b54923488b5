// The preview morph's loader: the JavaScript face of crates/morph
// (`init`, `morph`, `Preview`) over plain wasm imports and exports, in place
// of wasm-bindgen's glue (why: the crate docs). Everything here is DOM
// plumbing; every decision is made in Rust. The import and export names live
// in two files only, src/dom.rs and src/wasm.rs (which documents them).
//
// Two kinds of handle cross, as i32: a node's index in `N` (a table open
// from the outermost begin to its end; 0 is no node), and a slot in the value
// store `J` (values that outlive a morph: targets, HTML, callbacks), which
// Rust owns and frees. A short string for Rust is staged in `B` and its
// length returned (-1: none); Rust reads it a UTF-16 unit at a time.
//
// Build: esbuild --minify --format=esm crates/morph/js/morph.js (see the
// crate docs); the wasm is morph_bg.wasm next to it unless init() is given
// another source.

let E; // the module's exports
let N = [null], M = new Map(), K = new Map(), D = 0, S = [], V = [], C = [], T = 0;
let B = ''; // the staged string
let O = [], W = ''; // the keys written for the next report, the key being written
const J = [], G = []; // the value store and its free slots

const h = (n) => {
  if (!n) return 0;
  let i = M.get(n);
  if (i === undefined) M.set(n, (i = N.push(n) - 1));
  return i;
};
const put = (v) => {
  const i = G.length ? G.pop() : J.length;
  J[i] = v;
  return i;
};
const take = (i) => {
  const v = J[i];
  J[i] = undefined;
  G.push(i);
  return v;
};
const stage = (s) => (typeof s == 'string' ? (B = s).length : -1);
const reset = () => ((N = [null]), (M = new Map()), (K = new Map()));

const OUT = 'data-morph-changed', OPEN = '__morphServerOpen';
const XE = "descendant-or-self::*[local-name()='script' or local-name()='animate' or local-name()='set' or local-name()='template']";
const XA = "descendant-or-self::*/@*[starts-with(name(),'on') or name()='srcdoc' or name()='href' or name()='src' or name()='action' or name()='formaction' or name()='xlink:href' or name()='data']";
const SEL = ['[id],[data-section-id],[data-component-id]', '[data-section-id]'];
const KA = ['id', 'data-section-id', 'data-component-id'];
const SPECIAL = ['INPUT', 'OPTION', 'DETAILS', 'TEXTAREA', 'DIALOG'];
const xp = (x, r) => {
  const s = r.ownerDocument.evaluate(x, r, null, 7, null), o = [];
  for (let i = 0; i < s.snapshotLength; i++) o.push(s.snapshotItem(i));
  return o;
};
const walk = (r, a, out) => {
  const els = xp(XE, r);
  for (const n of a ? xp(XA, r) : els) out.push(n);
  for (const e of els) if (e.localName == 'template' && e.content) for (const c of e.content.children) walk(c, a, out);
};
const len = (n) => (n.nodeType == 3 || n.nodeType == 4 || n.nodeType == 7 || n.nodeType == 8 ? n.length : n.childNodes.length);

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
  x: (r, a) => ((S = []), walk(N[r], a, S), S.length),
  N: (i, n = S[i]) => stage(n.nodeType == 1 ? n.localName : n.name),
  v: (i, n = S[i]) => stage(n.nodeType == 1 ? n.getAttribute('attributeName') : n.value),
  X: (i, n = S[i]) => (n.nodeType == 1 ? n.remove() : n.ownerElement?.removeAttribute(n.name)),
  Q: (r, k, n = N[r]) => (S = n?.nodeType == 1 ? [...n.querySelectorAll(SEL[k])] : []).length,
  h: (i) => h(S[i]),
  // Walks and comparisons.
  k: (n) => N[n].nodeType,
  n: (n, w, x = N[n]) => h(w == 0 ? x.firstChild : w == 1 ? x.nextSibling : w == 2 ? x.parentNode : x.nodeType == 1 ? x : x.parentElement),
  t: (a, b, w, x = N[a], y = N[b]) => (w == 0 ? x.isEqualNode(y) : w == 1 ? x.tagName === y.tagName : w == 2 ? x.textContent !== y.textContent : !!y && x.contains(y)),
  K: (n, k) => {
    const v = k == 3 ? N[n].tagName : N[n].getAttribute(KA[k]);
    if (!v) return -1;
    const s = k + v;
    let i = K.get(s);
    if (i === undefined) K.set(s, (i = K.size));
    return i;
  },
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
    const x = N[o], y = N[n];
    if (!x.hasAttributes() && !y.hasAttributes()) return 0;
    let c = 0;
    const flag = (a, presence) => (a == 'value' ? 1 : a == 'checked' && presence ? 2 : a == 'selected' && presence ? 4 : 0);
    for (const a of y.attributes) {
      const before = x.getAttribute(a.name);
      if (before === a.value || (openIsState && a.name == 'open')) continue;
      try {
        a.namespaceURI === null ? x.setAttribute(a.name, a.value) : x.setAttributeNS(a.namespaceURI, a.name, a.value);
      } catch {}
      c |= 8 | flag(a.name, before === null);
    }
    for (const a of [...x.attributes].reverse()) {
      if (y.hasAttribute(a.name) || a.name == OUT || (openIsState && a.name == 'open')) continue;
      x.removeAttribute(a.name);
      c |= 8 | flag(a.name, true);
    }
    return c;
  },
  S: (o, n, w) => {
    const x = N[o], y = N[n];
    try {
      if (w == 0) x.value = y.getAttribute('value') ?? '';
      else if (w == 1) x.checked = y.hasAttribute('checked');
      else if (w == 2) x.selected = y.hasAttribute('selected');
      else x.value = y.textContent;
    } catch {}
  },
  O: (o, n, x = N[o]) => +N[n].hasAttribute('open') | ((x[OPEN] ?? x.hasAttribute('open')) << 1),
  B: (o, server, dialog, apply) => {
    const x = N[o];
    if (apply) dialog && !server ? x.close() : x.toggleAttribute('open', !!server);
    x[OPEN] = !!server;
  },
  R: (n, x = N[n]) => {
    if (x.nodeType == 1)
      for (const e of [x, ...x.querySelectorAll('details,dialog')])
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
  E: (t, n, y = N[n]) => {
    try {
      return h(N[t].ownerDocument.createElementNS(y.namespaceURI, y.localName));
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
    let r = null, sel = null;
    try {
      if (e && (e.tagName == 'INPUT' || e.tagName == 'TEXTAREA') && e.selectionStart !== null) r = [e.selectionStart, e.selectionEnd, e.selectionDirection];
      const s = d.getSelection();
      if (e && !r && s && s.anchorNode && s.focusNode && x.contains(s.anchorNode)) sel = [s.anchorNode, s.anchorOffset, s.focusNode, s.focusOffset];
    } catch {}
    V.push([e, r, sel]);
  },
  g: (t) => {
    const [e, r, sel] = V.pop(), d = N[t].ownerDocument;
    if (e && e.isConnected) {
      if (d.activeElement !== e)
        try {
          e.focus({ preventScroll: true });
        } catch {}
      if (r)
        try {
          e.setSelectionRange(r[0], r[1], r[2]);
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
    if (k.length && typeof J[f] == 'function')
      try {
        J[f].call(null, k);
      } catch {}
    return put(k);
  },
  L: (p, ms) => setTimeout(() => E.t(p), ms),
  D: () => Date.now(),
};

// Options as the exports take them: outer, outline (NaN: none), follow.
const outline = (o) => (typeof o?.outline == 'number' ? o.outline : NaN);

/** Loads the wasm once (`{ module_or_path }`: a URL, Response, bytes or Module). */
export default async function init(options) {
  if (E) return;
  let s = await (options?.module_or_path ?? new URL('morph_bg.wasm', import.meta.url));
  if (typeof s == 'string' || s instanceof URL || (typeof Request == 'function' && s instanceof Request)) s = await fetch(s);
  if (typeof Response == 'function' && s instanceof Response) s = await s.arrayBuffer();
  const r = await WebAssembly.instantiate(s, { e: imports });
  E ??= (r.instance ?? r).exports;
}

/** Makes the children of `target` (or, with `options.outer`, `target` itself) match `html`. */
export function morph(target, html, options) {
  E.m(put(target), put(html), +!!options?.outer, outline(options), +!!options?.follow);
}

/** The live preview: at most 4 morphs a second, the latest update winning. */
export class Preview {
  constructor(target, options) {
    this.i = E.p(put(target), outline(options), +!!options?.follow, put(options?.onMorph));
  }
  update(html) {
    E.u(this.i, put(html));
  }
  section(key, html) {
    E.s(this.i, stage(key), put(html));
  }
  flush() {
    const i = E.f(this.i);
    return i < 0 ? [] : take(i);
  }
  free() {
    E.d(this.i);
  }
}
