// applyChanges (npm ./stream) against the stream's own document(): after
// every chunk, for the streaming corpus in several chunkings (strings and
// bytes), JSON Lines and A2UI answers; and what did not change is shared.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../browser/e2e/harness.mjs';

let Stream, applyChanges;
before(async () => {
  ({ Stream, applyChanges } = await import(join(root, 'npm/stream.js')));
  await (await import(join(root, 'npm/stream.js'))).default();
});

const corpus = join(root, 'crates/streaming-parser/tests/corpus');
const answers = readdirSync(corpus).filter((f) => f.endsWith('.md')).map((f) => [f, readFileSync(join(corpus, f), 'utf8')]);

/** Feeds `text` in chunks of `size` (bytes when `bytes`), checking after each; returns the number of states compared. */
function follow(mode, text, size, bytes) {
  const stream = new Stream(mode);
  const input = bytes ? new TextEncoder().encode(text) : text;
  let doc = stream.document();
  let states = 0;
  for (let at = 0; at < input.length; at += size) {
    doc = applyChanges(doc, stream.push(input.slice(at, at + size)));
    assert.deepEqual(doc, stream.document(), `${mode}, chunks of ${size}${bytes ? ' bytes' : ''}, after ${at + size}`);
    states++;
  }
  const { changes, document } = stream.finish();
  assert.deepEqual(applyChanges(doc, changes), document);
  stream.free();
  return states + 1;
}

test('markdown: the corpus, in chunks of 1, 3, 17 and 256 characters and 7 bytes, equals document() after every chunk', () => {
  let states = 0;
  for (const [name, text] of answers) {
    for (const size of [1, 3, 17, 256]) states += follow('markdown', text, size, false);
    states += follow('markdown', text, 7, true);
    assert.ok(name);
  }
  assert.ok(answers.length > 100 && states > 100000, `${answers.length} answers, ${states} states`);
});

test('markdown: blocks a change did not touch are the same objects', () => {
  const stream = new Stream();
  let doc = applyChanges(undefined, stream.push('First paragraph.\n\nSecond **par'));
  const first = doc.blocks[0];
  doc = applyChanges(doc, stream.push('agraph** grows'));
  assert.equal(doc.blocks[0], first);
  assert.equal(doc.blocks[1].healed, doc.blocks[1].text, 'closed emphasis needs no healing');
  const before = doc;
  assert.equal(applyChanges(before, []), before);
  assert.equal(applyChanges(undefined, []), undefined);
  doc = applyChanges(doc, stream.push(' and *more'));
  assert.equal(doc.blocks[1].healed, 'Second **paragraph** grows and *more*');
  assert.notEqual(doc.blocks[1], before.blocks[1]);
  assert.equal(before.blocks[1].text, 'Second **paragraph** grows', 'the document before is untouched');
});

test('jsonl and a2ui: items and parts equal document() after every chunk', () => {
  const jsonl = 'Sure:\n{"say":"hi"}\n{"ops":[{"op":"add","path":"/a","value":1}]}\n{"op":"remove","path":"/b"}\n{"bad": }\n```\n{"x":1}\n```\n{"done":true,}\n{"say":"cut';
  const a2ui = 'Here <a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"c"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["t"]},{"id":"t","component":"Text","text":"hi there"}]}}]</a2ui-json> between <a2ui-json>[{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"n":1}}}]</a2ui-json> end';
  for (const size of [1, 4, 33]) {
    follow('jsonl', jsonl, size, false);
    follow('a2ui', a2ui, size, false);
    follow('a2ui', a2ui, size, true);
  }
});

test('a string chunk that ends inside a surrogate pair: the emoji stays one character; a lone one at the end is U+FFFD', () => {
  const text = 'Fine 😀 and **bold 🎉';
  for (let cut = 1; cut < text.length; cut++) {
    const stream = new Stream();
    stream.push(text.slice(0, cut));
    stream.push(text.slice(cut));
    assert.equal(stream.finish().document.blocks[0].text, text, `cut at ${cut}`);
  }
  const stream = new Stream();
  let doc = applyChanges(stream.document(), stream.push('end \ud83d'));
  assert.equal(doc.blocks[0].text, 'end ');
  const { changes, document } = stream.finish();
  doc = applyChanges(doc, changes);
  assert.deepEqual(doc, document);
  assert.equal(document.blocks[0].text, 'end \ufffd');
});
