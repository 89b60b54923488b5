// The markdown replay (the Build view's second tab): replays a recorded model answer (answer.md) at model speed
// through the streaming parser, shows each block as the parser sees it (the
// healed view of the open block, committed surface components, refused lines,
// the ghost of the line being written), renders the preview with the reference
// renderer and merges it into place with the preview morph; once the answer is
// complete, the validator checks the whole body.
//
// The page keeps the answer's document itself, from the changes each chunk
// makes (applyChanges), instead of asking the stream for the whole document
// after every chunk: applyChanges gives a new object only for a block that
// changed, so the preview HTML and the panel entry of every other block are
// reused (by identity), and a chunk costs what it changed, not the answer so far.
import initStream, { Stream, applyChanges } from '/npm/stream.js';
import initValidator, { validateMarkdown } from '/npm/validator.js';
import initRender, { renderSurface } from '/npm/render.js';
import { $, el } from '/dom.js';

const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// Just enough markdown for prose in the preview (the site's own markdown
// pipeline renders real pages): headings, paragraphs, emphasis, code, links.
const SAFE_LINK = /^(\/(?![\/\\])|#|https?:\/\/)/i;
function inline(text) {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/~~([^~]+)~~/g, '<del>$1</del>')
    .replace(/\[([^\]]*)\]\(([^)\s]*)\)/g, (_, label, href) => (SAFE_LINK.test(href) ? `<a href="${href}">${label}</a>` : label));
}
function prose(text) {
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => {
      const h = /^(#{1,6})\s+(.*)$/.exec(p.trim());
      return h ? `<h${h[1].length}>${inline(h[2])}</h${h[1].length}>` : `<p>${inline(p)}</p>`;
    })
    .join('');
}

// A block's preview section, made once per block object.
const sections = new WeakMap();
function previewHtml(doc) {
  return doc.blocks
    .map((block, i) => {
      let html = sections.get(block);
      if (html === undefined) sections.set(block, (html = sectionHtml(block, i)));
      return html;
    })
    .join('');
}

function sectionHtml(block, i) {
  const key = `block-${i}`;
  let inner;
  if (block.kind === 'prose') inner = prose(block.healed ?? block.text);
  else if (block.kind === 'code') inner = `<pre><code>${esc(block.text.replace(/^.*\n/, '').replace(/\n[`~]{3,}\s*$/, ''))}</code></pre>`;
  else if (block.kind === 'directive') inner = `<div class="placeholder">${esc(block.name ?? 'directive')}${block.complete ? '' : ' (being written)'}</div>`;
  else if (block.kind === 'surface') {
    const surface = { id: block.id, kind: 'surface', catalog: block.catalog, components: block.components, data: block.data ?? {} };
    const hasRoot = block.components.some((c) => c.id === 'root');
    if (!hasRoot) inner = `<div class="placeholder">Surface “${esc(block.id ?? '')}”: ${block.components.length} components held until root arrives</div>`;
    else {
      const { ok, html, issues } = renderSurface(surface);
      inner = ok ? html : `<div class="placeholder">Surface “${esc(block.id ?? '')}” not rendered: ${esc(issues.filter((i) => i.severity === 'error').map((i) => `${i.code} at ${i.path}`).join(', '))}</div>`;
    }
  } else inner = '';
  return `<section data-section-id="${key}">${inner}</section>`;
}

// The stream panel: one entry per block, made once per block object; only
// the entries of blocks that changed are replaced.
const entries = new WeakMap();
function showBlocks(doc) {
  const list = $('blocks');
  doc.blocks.forEach((block, i) => {
    let node = entries.get(block);
    if (!node) entries.set(block, (node = blockEntry(block)));
    const old = list.children[i];
    if (old !== node) old ? old.replaceWith(node) : list.append(node);
  });
  while (list.children.length > doc.blocks.length) list.lastElementChild.remove();
}

function blockEntry(block) {
  const head = `${block.kind}${block.lang ? ` (${block.lang})` : ''}${block.id ? ` “${block.id}”` : ''}${block.name ? ` ${block.name}` : ''}${block.complete ? '' : ' · open'}`;
  const node = el('div', { class: `block${block.complete ? '' : ' open'}` }, el('strong', {}, head), '\n');
  if (block.kind === 'surface') {
    node.append(`${block.components.length} committed: ${block.components.map((c) => c.id).join(', ')}\n`);
    for (const r of block.refused) node.append(el('div', { class: 'refused' }, `line ${r.line} refused: ${r.code}: ${r.message}`));
    // The ghost as the stream read it, shown as JSON (for display only).
    if (block.ghost) node.append(el('div', { class: 'ghost' }, `ghost (unvalidated): ${JSON.stringify(block.ghost)}`));
  } else if (block.healed !== undefined && block.healed !== block.text) {
    // Mark what healing changed for display (closers added, an unfinished
    // image or tag hidden); the stored text is unchanged.
    let same = 0;
    while (same < block.text.length && block.text[same] === block.healed[same]) same++;
    const added = block.healed.slice(same);
    const hidden = block.text.length - same;
    node.append(
      block.healed.slice(Math.max(0, same - 160), same),
      el('span', { class: 'heal', title: 'changed by healing, for display only' }, added || `(${hidden} characters hidden until complete)`),
    );
  } else node.append(block.text.slice(-160));
  return node;
}

function showIssues({ valid, issues }) {
  const box = $('issues');
  box.replaceChildren(
    el('p', {}, `validateMarkdown: ${issues.length} issue${issues.length === 1 ? '' : 's'} in the finished answer${valid ? '' : ', with errors'}.`),
    ...issues.map((i) => el('div', { class: i.severity === 'error' ? 'refused' : '' }, `${i.severity} ${i.code} at ${i.path}${i.line ? ` (line ${i.line})` : ''}: ${i.message}`)),
  );
}

await Promise.all([initStream(), initValidator(), initRender()]);
// The preview morph is in the package only while it is within its size
// budget (shipped.json: what the build shipped); without it the view still
// streams and validates, and says so.
const shipped = await (await fetch('/shipped.json')).json();
const morph = shipped.morph ? await import('/npm/morph.js').then(async (m) => (await m.default(), m)) : null;
const preview = morph ? new morph.Preview($('preview'), { outline: 800, follow: true }) : null;
if (!preview) {
  $('preview').replaceChildren(el('p', { class: 'notice' }, 'No live preview: the preview morph is built and tested but not shipped yet (over its size budget).'));
}
const answer = await (await fetch('/answer.md')).text();
let timer = null;
let running = null; // the stream of a replay not finished yet

function replay() {
  clearTimeout(timer);
  running?.free();
  $('issues').replaceChildren(el('p', {}, 'Runs on the whole answer once it is complete.'));
  const stream = (running = new Stream('markdown'));
  let doc = stream.document(); // the answer's document so far, kept here from the changes
  let at = 0;
  const step = () => {
    // About 60 characters a second in uneven chunks, like a model writing
    // (the same chunks every replay); "fast" for a quick look.
    const size = $('fast').checked ? 400 : 3 + ((at * 7) % 6);
    doc = applyChanges(doc, stream.push(answer.slice(at, at + size)));
    at += size;
    if (at >= answer.length) doc = applyChanges(doc, stream.finish().changes);
    showBlocks(doc);
    preview?.update(previewHtml(doc));
    $('progress').textContent = `${Math.min(at, answer.length)} / ${answer.length} characters`;
    if (at < answer.length) timer = setTimeout(step, $('fast').checked ? 5 : 90);
    else {
      preview?.flush();
      showIssues(validateMarkdown(answer));
      stream.free();
      running = null;
      document.body.dataset.replayed = 'true';
    }
  };
  delete document.body.dataset.replayed;
  step();
}

$('replay').disabled = false;
$('replay').addEventListener('click', replay);
if (new URLSearchParams(location.search).has('fast')) $('fast').checked = true;
replay();
