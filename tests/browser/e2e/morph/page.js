// The page side of morph.test.mjs: loads the built morph (served at /morph/,
// the files scripts/build made) and gives the tests, as `window.T`, the
// module and a few helpers. Assertions throw, so page.evaluate rejects with
// the message.
import init, { morph, Preview } from '/morph/morph.js';

await init();

/** A fresh container in the page, holding `html` as a browser parses it. */
const mount = (html) => {
  const el = document.createElement('div');
  el.innerHTML = html;
  document.body.append(el);
  return el;
};

/** A serialization that ignores attribute order: tag, sorted attributes, children; text and comments verbatim. */
const canon = (node) => {
  if (node.nodeType !== 1) return `[${node.nodeType}:${JSON.stringify(node.nodeValue ?? '')}]`;
  const attrs = [...node.attributes].map((a) => [a.name, a.value]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const inner = [...node.childNodes].map(canon).join('');
  return `<${node.tagName}${attrs.map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('')}>${inner}</${node.tagName}>`;
};
const canonical = (node) => [...node.childNodes].map(canon).join('');

/** Elements with an `id`, as [id, tag, element], where the id is unique. */
const ids = (root) => {
  const all = [...root.querySelectorAll('[id]')];
  return all.filter((e) => all.filter((o) => o.id === e.id).length === 1).map((e) => [e.id, e.tagName, e]);
};

/** Elements with a `data-component-id`, as [key, tag, element]. */
const keyed = (root) => [...root.querySelectorAll('[data-component-id]')].map((e) => [e.getAttribute('data-component-id'), e.tagName, e]);

const fail = (message) => {
  throw new Error(message);
};
const ok = (value, message = 'expected true') => value || fail(message);
const eq = (actual, expected, message = '') => {
  const [a, b] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== b) fail(`${message}${message ? ': ' : ''}${a} !== ${b}`);
};

/**
 * Morphs a DOM built from `from` toward `to`; checks the result against a
 * fresh parse of `to`, and that same-id same-tag nodes were reused. Returns
 * the live element.
 */
const checkFixture = (name, from, to) => {
  const live = mount(from);
  const before = ids(live);
  morph(live, to);
  const fresh = mount(to);
  eq(canonical(live), canonical(fresh), `${name}: the morphed DOM differs from a fresh parse`);
  for (const [id, tag, el] of ids(live)) {
    const old = before.find(([i, t]) => i === id && t === tag);
    if (old) ok(old[2] === el, `${name}: #${id} <${tag}> was recreated, not reused`);
  }
  fresh.remove();
  return live;
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A MutationObserver on everything below `node`. */
const observe = (node) => {
  const observer = new MutationObserver(() => {});
  observer.observe(node, { attributes: true, childList: true, characterData: true, subtree: true });
  return observer;
};

/** Each morph a preview reported, as [when, keys], and the callback. */
const recorder = () => {
  const runs = [];
  return [runs, (keys) => runs.push([Date.now(), [...keys]])];
};

const sections = (pairs) => pairs.map(([k, t]) => `<section data-section-id="${k}"><p>${t}</p></section>`).join('');

window.T = { morph, Preview, mount, canonical, ids, keyed, ok, eq, checkFixture, sleep, observe, recorder, sections, OUTLINE: 'data-morph-changed' };
