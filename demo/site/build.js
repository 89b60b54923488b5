// The Build view: a live build session over AG-UI (SPEC.md section 15). The
// demo server streams a recorded session (GET /session: a scripted agent
// building a landing page) as server-sent events; BuildSession keeps the
// local draft, the ghost of the operation being written, the assistant's
// text and the activity; the preview is the draft in preview mode, morphed
// into a sandboxed frame (no scripts run there) by ./morph's Preview, which
// skips unchanged sections and morphs at most 4 times a second. "Pick" finds
// the part under the pointer by geometry (previewTargetAt) for click-to-scope;
// "Drop and reconnect" aborts the stream mid-run and resumes from a snapshot.
import initBuild, { BuildSession, previewTargetAt } from '/npm/build.js';
import { $, el } from '/dom.js';

await initBuild();
// The preview morph ships only within its size budget (shipped.json: what the build shipped).
const shipped = await (await fetch('/shipped.json')).json();
const morph = shipped.morph ? await import('/npm/morph.js').then(async (m) => (await m.default(), m)) : null;

// The preview frame: sandboxed, same origin, so the page may morph it and read its layout; it runs nothing.
const frame = $('preview');
const framed = new Promise((resolve) => (frame.onload = resolve));
frame.srcdoc = '<!doctype html><html lang="en"><head><link rel="stylesheet" href="/style.css"></head><body style="margin:1rem"></body></html>';
await framed;
const frameDoc = frame.contentDocument;
let preview = null;
if (morph) {
  preview = new morph.Preview(frameDoc.body, { outline: 1200, follow: false, onMorph: follow });
} else {
  frameDoc.body.append(el('p', { class: 'notice' }, 'No live preview: the preview morph is built and tested but not shipped yet (over its size budget).'));
}

// Follow the element being built, unless the person scrolled the preview in the last 3 seconds.
let userScrolled = -Infinity;
let scrolling = false;
frame.contentWindow.addEventListener('scroll', () => scrolling || (userScrolled = performance.now()), { passive: true });
function follow() {
  const target = frameDoc.querySelector('[data-ch-ghost]') ?? frameDoc.querySelector('[data-morph-changed]');
  if (!target || performance.now() - userScrolled < 3000) return;
  scrolling = true;
  target.scrollIntoView({ block: 'nearest' });
  requestAnimationFrame(() => (scrolling = false));
}

let session;
let received = 0;
let controller = null;
let lastGhost = null;
let lastGhostSection = null;
/** The id of the section a ghost's path is in. */
const sectionOf = (ghost) => {
  const index = /^\/sections\/(\d+)\//.exec(ghost?.path ?? '')?.[1];
  return index === undefined ? null : session.document?.sections?.[Number(index)]?.id ?? null;
};

const status = (text) => ($('status').textContent = text);
const activity = (text, bad = false) => $('activity').append(el('li', bad ? { class: 'bad' } : {}, text));

function onUpdate(u) {
  received++;
  for (const r of u.repairs) activity(`repaired: ${r.code} at ${r.path} (${r.from} → ${r.to})`);
  for (const r of u.refusals) activity(`refused: ${r.code} at ${r.path}: ${r.issues?.[0]?.code ?? r.message}`, true);
  for (const d of u.divergences) activity(`divergence: ${d.code} at ${d.path}`, true);
  for (const e of u.errors) activity(`bad input: ${e.code}: ${e.message}`, true);
  if (u.changed.length) activity(`changed: ${u.changed.join(', ')}`);
  const ghost = u.ghost && JSON.stringify({ op: u.ghost.op, path: u.ghost.path, component: u.ghost.component, issues: u.ghost.issues.map((i) => i.message) }, null, 1);
  $('ghost').textContent = ghost ?? 'none';
  const blocks = u.text?.blocks ?? [];
  $('text').replaceChildren(...blocks.map((b) => el('p', { class: b.complete ? '' : 'open' }, b.healed ?? b.text)));
  status(`${u.status.run}${u.status.needsSnapshot ? ' · needs a snapshot' : ''} · ${received} events`);
  document.body.dataset.status = u.status.run;
  // A changed draft renders the whole preview (Preview morphs only the sections that differ);
  // a ghost that grew renders only its section, and the one it left.
  const ghostSection = sectionOf(u.ghost);
  if (preview && u.changed.length) preview.update(session.previewHtml());
  else if (preview && ghost !== lastGhost) {
    for (const id of new Set([ghostSection, lastGhostSection].filter(Boolean))) preview.section(id, session.previewHtml(id));
  }
  lastGhost = ghost;
  lastGhostSection = ghostSection;
  if (scoped && !partOf(scoped)) unscope();
}

/** Reads the session's events, from the start or (a reconnect) after `from` of them. */
async function run(from) {
  // This run's own: a reconnect replaces `controller` before this run's
  // reading has ended, and that end must not mark the session done.
  const mine = (controller = new AbortController());
  const delay = $('fast').checked ? 0 : 40;
  $('reconnect').disabled = false;
  try {
    const response = await fetch(`/session?delay=${delay}${from ? `&from=${from}` : ''}`, { signal: mine.signal });
    await session.connect(response, { signal: mine.signal });
  } catch (e) {
    // Dropped on purpose (the reconnect button), the read may fail with the
    // abort: expected. Anything else is the demo's to show.
    if (!mine.signal.aborted) throw e;
  }
  if (!mine.signal.aborted) {
    $('reconnect').disabled = true;
    $('connect').disabled = false;
    preview?.flush();
    document.body.dataset.done = String(from ?? 0);
  }
}

$('connect').addEventListener('click', () => {
  session = new BuildSession({ onUpdate });
  received = 0;
  $('activity').replaceChildren();
  $('connect').disabled = true;
  $('pick').disabled = false;
  run(0);
});

// The connection drops mid-run; the client resumes: a snapshot, then the events after the ones it had.
$('reconnect').addEventListener('click', () => {
  controller.abort();
  const had = received;
  activity(`connection dropped after ${had} events; reconnecting from a snapshot`);
  document.body.dataset.reconnected = String(had);
  // The resumed stream starts with a snapshot in place of the events it had.
  received = had - 1;
  run(had);
});

// Click-to-scope: a layer over the frame finds the part under the pointer by coordinates.
const layer = $('pick-layer');
const hover = el('div', { class: 'hover' });
layer.append(hover);
let scoped = null;
const at = (e) => {
  const box = frame.getBoundingClientRect();
  return previewTargetAt(frameDoc, e.clientX - box.left, e.clientY - box.top);
};
const selector = (t) => `[data-section-id="${CSS.escape(t.sectionId)}"]${t.componentId ? ` [data-component-id="${CSS.escape(t.componentId)}"], [data-section-id="${CSS.escape(t.sectionId)}"][data-component-id="${CSS.escape(t.componentId)}"]` : ''}`;
function partOf(t) {
  const sections = session?.document?.sections ?? [];
  const index = sections.findIndex((s) => s.id === t.sectionId);
  const component = t.componentId && sections[index]?.components?.find((c) => c.id === t.componentId);
  return index < 0 || (t.componentId && !component) ? null : { index, component };
}
function picking(on) {
  layer.hidden = !on;
  $('pick').setAttribute('aria-pressed', String(on));
}
$('pick').addEventListener('click', () => picking(layer.hidden));
layer.addEventListener('pointermove', (e) => {
  const t = at(e);
  const node = t && frameDoc.querySelector(selector(t));
  hover.hidden = !node;
  if (!node) return;
  const r = node.getBoundingClientRect();
  Object.assign(hover.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
});
layer.addEventListener('click', (e) => {
  const t = at(e);
  const part = t && partOf(t);
  if (!part) return;
  scoped = t;
  const what = part.component ? `${part.component.component} "${part.component.id}"` : 'the whole section';
  $('scope').querySelector('span').textContent = `Changing ${what} in section ${part.index + 1}`;
  $('scope').hidden = false;
  document.body.dataset.scope = JSON.stringify(t);
  picking(false);
});
function unscope() {
  scoped = null;
  $('scope').hidden = true;
  delete document.body.dataset.scope;
}
$('unscope').addEventListener('click', unscope);
addEventListener('keydown', (e) => e.key === 'Escape' && picking(false));

$('connect').disabled = false;
document.body.dataset.ready = '';
