// Every error path of the npm entries (SPEC.md section 13, docs/reference.md
// "The JavaScript entries"): a SurfacesError with its code and path, nothing
// else thrown, and nothing changed by a refused call.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { inspect } from 'node:util';
import { root } from '../browser/e2e/harness.mjs';

let v, s, r, m;
before(async () => {
  [v, s, r, m] = await Promise.all(['validator', 'stream', 'render', 'morph'].map((e) => import(join(root, `npm/${e}.js`))));
  await Promise.all([v.default(), m.default()]);
});

/** `f` throws a SurfacesError with `code` and `path`. */
const refuses = (f, code, path) =>
  assert.throws(f, (e) => {
    assert.ok(e instanceof v.SurfacesError, `${e?.name}: ${e?.message}`);
    assert.equal(e.name, 'SurfacesError');
    // Its class keeps its name through minifying: Node prints it by that.
    assert.equal(e.constructor.name, 'SurfacesError');
    assert.match(inspect(e), /^SurfacesError: /);
    assert.deepEqual([e.code, e.path], [code, path], e.message);
    assert.ok(e.message.length > 10);
    return true;
  });

const surface = { id: 's', components: [{ id: 'root', component: 'Text', props: { text: 'hi' } }] };

test('invalid_json: arguments that are no JSON, each at its own pointer', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const ghostOf = (component) => ({ mode: 'preview', ghost: { op: 'add', path: '/components/-', component } });
  refuses(() => r.renderSurface(surface, ghostOf({ id: 'x', component: 'Text', props: { n: 1n } })), 'invalid_json', '/ghost');
  refuses(() => r.renderSurface(surface, ghostOf(cyclic)), 'invalid_json', '/ghost');
  refuses(() => v.patch('{', []), 'invalid_json', '');
  refuses(() => v.patch(surface, '['), 'invalid_json', '/ops');
  refuses(() => v.applyPatch(surface, '[{'), 'invalid_json', '/ops');
  refuses(() => v.applyPatch(cyclic, []), 'invalid_json', '');
  refuses(() => v.validateComponent(surface.components[0], { data: '{' }), 'invalid_json', '/data');
  refuses(() => new v.Draft(undefined), 'invalid_json', '');
  refuses(() => v.validate(10n), 'invalid_json', '');
  const draft = new v.Draft(surface);
  refuses(() => draft.apply('nope'), 'invalid_json', '/ops');
  assert.deepEqual(draft.document(), surface, 'a refused call changes nothing');
  // validate reads bad text as an issue, not a throw.
  assert.deepEqual(v.validate('{').issues.map((i) => i.code), ['invalid_json']);
});

test('already_freed: a Draft, a Stream or an importer used after its free(); a second free() is harmless', async () => {
  const i = await import(join(root, 'npm/interop.js'));
  const draft = new v.Draft(surface);
  draft.free();
  refuses(() => draft.document(), 'already_freed', '');
  refuses(() => draft.apply([]), 'already_freed', '');
  const stream = new s.Stream();
  stream.free();
  refuses(() => stream.push('x'), 'already_freed', '');
  const importer = new i.A2uiImport();
  importer.free();
  refuses(() => importer.push('{}'), 'already_freed', '');
  for (const o of [draft, stream, importer]) o.free();
});

test('already_finished: push() on a Stream or an importer after its finish(), the document as finish() left it; a second finish() gives no changes; once freed, already_freed', async () => {
  const i = await import(join(root, 'npm/interop.js'));
  for (const mode of ['markdown', 'jsonl', 'a2ui']) {
    const stream = new s.Stream(mode);
    stream.push(mode === 'jsonl' ? '{"a":1}\n{"b":' : 'Hello **wor');
    const { document } = stream.finish();
    refuses(() => stream.push('ld**\n'), 'already_finished', '');
    refuses(() => stream.push(new Uint8Array([65])), 'already_finished', '');
    assert.deepEqual(stream.document(), document, `${mode}: nothing was read`);
    assert.deepEqual(stream.finish(), { changes: [], document });
  }
  for (const importer of [new i.A2uiImport(), new i.JsonRenderImport()]) {
    importer.push('{"op":"add"');
    importer.finish();
    refuses(() => importer.push('}\n'), 'already_finished', '');
    refuses(() => importer.push({ version: 'v0.9', createSurface: { surfaceId: 's', catalogId: 'c' } }), 'already_finished', '');
    assert.deepEqual(importer.finish(), []);
    importer.free();
    refuses(() => importer.push('{}'), 'already_freed', '');
  }
  const freed = new s.Stream();
  freed.finish();
  freed.free();
  refuses(() => freed.push('more'), 'already_freed', '');
});

test('document_too_large: a document over 2 MiB is refused before parsing', () => {
  const big = JSON.stringify({ components: [], data: { x: 'x'.repeat(2 * 1024 * 1024) } });
  refuses(() => v.patch(big, []), 'document_too_large', '');
  assert.equal(v.validate(big).issues[0].code, 'document_too_large');
});

test('catalogs: invalid_catalog, unknown_keyword at its pointer; the built-in name; $schema is allowed', () => {
  refuses(() => v.Catalog.load({ catalog: 'x' }), 'invalid_catalog', '/components');
  refuses(() => v.Catalog.load('my-catalog@2'), 'invalid_catalog', '');
  refuses(() => v.validate(surface, { catalog: '{' }), 'invalid_catalog', '');
  const pattern = { catalog: 'x@1', components: { A: { props: { type: 'object', properties: { a: { type: 'string', pattern: 'a' } } } } } };
  refuses(() => v.Catalog.load(pattern), 'unknown_keyword', '/components/A/props/properties/a/pattern');
  assert.equal(v.Catalog.load('blog@1'), v.Catalog.default, 'a surface\'s "catalog" value names the built-in one');
  const own = v.Catalog.load({ $schema: 'https://cloudhal.dev/schema/catalog.json', catalog: 'mine@1', components: { Note: { props: { type: 'object', properties: { text: { type: 'string' } } } } } });
  assert.deepEqual([own.name, own.components], ['mine@1', ['Note']]);
  assert.equal(v.Catalog.load(JSON.stringify({ catalog: 'mine@1', components: {} })).name, 'mine@1');
  refuses(() => new v.Catalog(), 'invalid_option', '');
});

test('invalid_option: modes, locales, chunks and targets of the wrong kind; a catalog a stream mode would ignore', () => {
  refuses(() => new s.Stream('xml'), 'invalid_option', '/mode');
  refuses(() => new s.Stream(3), 'invalid_option', '/mode');
  refuses(() => new s.Stream('jsonl', { catalog: v.Catalog.default }), 'invalid_option', '/catalog');
  refuses(() => new s.Stream('a2ui', { catalog: 'blog@1' }), 'invalid_option', '/catalog');
  const stream = new s.Stream();
  refuses(() => stream.push(42), 'invalid_option', '/chunk');
  refuses(() => stream.push(null), 'invalid_option', '/chunk');
  refuses(() => s.heal(5), 'invalid_option', '');
  refuses(() => s.applyChanges(undefined, 'x'), 'invalid_option', '/changes');
  refuses(() => s.applyChanges(undefined, [null]), 'invalid_option', '/changes/0');
  refuses(() => s.applyChanges({ blocks: [] }, [{ op: 'remove', block: 0 }, 'x']), 'invalid_option', '/changes/1');
  refuses(() => r.renderSurface(surface, { mode: 'draft' }), 'invalid_option', '/mode');
  refuses(() => r.renderSurface(surface, { locale: 7 }), 'invalid_option', '/locale');
  // A tag Intl throws on (the runtime would show no formatted text).
  for (const locale of ['en_US', 'x', 'root']) refuses(() => r.renderSurface(surface, { locale }), 'invalid_option', '/locale');
  refuses(() => r.renderMarkdown({}), 'invalid_option', '');
  refuses(() => v.validateComponent(surface.components[0], { at: 3 }), 'invalid_option', '/at');
  // A string that is no JSON Pointer: its issues' paths would be none either.
  refuses(() => v.validateComponent(surface.components[0], { at: 'components/3' }), 'invalid_option', '/at');
  refuses(() => v.validateComponent(surface.components[0], { at: '/a~2' }), 'invalid_option', '/at');
  refuses(() => v.validateMarkdown(null), 'invalid_option', '');
  refuses(() => m.morph({}, '<p>'), 'invalid_option', '/target');
  refuses(() => new m.Preview(null), 'invalid_option', '/target');
  // Options of the wrong kind, refused rather than ignored (checked before
  // the target is touched: an element duck-typed here, as Node has no DOM).
  const element = { nodeType: 1 };
  refuses(() => new m.Preview(element, { onMorph: 'report' }), 'invalid_option', '/onMorph');
  refuses(() => new m.Preview(element, { outline: '300' }), 'invalid_option', '/outline');
  refuses(() => new m.Preview(element, { outline: -1 }), 'invalid_option', '/outline');
  refuses(() => new m.Preview(element, { outline: NaN }), 'invalid_option', '/outline');
  refuses(() => m.morph(element, '<p>', { outer: 'yes' }), 'invalid_option', '/outer');
  refuses(() => m.morph(element, '<p>', { follow: 1 }), 'invalid_option', '/follow');
});

// In a fresh process: nothing loaded yet.
const fresh = (code) => execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim();

test('document_too_large: one stream reads at most 32 MiB; the chunk past it is not read', () => {
  const stream = new s.Stream('markdown');
  const mib = 'word '.repeat(1024 * 1024 / 5) + '\n\n';
  for (let i = 0; i < 31; i++) stream.push(mib);
  refuses(() => stream.push(mib + mib), 'document_too_large', '/chunk');
  refuses(() => stream.push(new Uint8Array(2 * 1024 * 1024)), 'document_too_large', '/chunk');
  stream.push('last');
  const { document } = stream.finish();
  // What was read before and after the refused chunks: 31 paragraphs and the last.
  assert.equal(document.blocks.length, 32);
  assert.equal(document.blocks[31].text, 'last');
});

test('not_initialized before init, init_failed for bytes that are no module, and init may be called again', () => {
  const out = fresh(`
    import init, { validate, Catalog, SurfacesError } from './npm/validator.js';
    import { applyChanges } from './npm/stream.js';
    import { previewTargetAt } from './npm/build.js';
    import morphInit, { morph } from './npm/morph.js';
    import { fromA2ui, A2uiImport } from './npm/interop.js';
    const codes = [];
    const code = (f) => { try { f(); codes.push('none'); } catch (e) { codes.push(e instanceof SurfacesError ? e.code : e.name); } };
    code(() => validate({}));
    // Calls that need no wasm wait for init too (SPEC.md section 13: every call).
    code(() => applyChanges(undefined, []));
    code(() => previewTargetAt({ elementsFromPoint: () => [] }, 0, 0));
    code(() => new Catalog());
    code(() => morph({}, ''));
    code(() => fromA2ui([]));
    code(() => new A2uiImport());
    await init(new Uint8Array([0, 97, 115, 109])).catch((e) => codes.push(e.code));
    code(() => validate({}));
    await init();
    codes.push(String(validate({ components: [] }).valid));
    await morphInit(new Response('nope')).catch((e) => codes.push(e.code));
    console.log(codes.join(' '));
  `);
  assert.equal(out, 'not_initialized not_initialized not_initialized not_initialized not_initialized not_initialized not_initialized init_failed not_initialized false init_failed');
});

test('initSync from the bytes, and a second init is a no-op', () => {
  const out = fresh(`
    import { readFileSync } from 'node:fs';
    import init, { initSync, validate } from './npm/validator.js';
    initSync({ module: readFileSync('npm/dist/studio/studio_bg.wasm') });
    await init();
    console.log(validate({ id: 's', components: [{ id: 'root', component: 'Text', props: { text: 'x' } }] }).valid);
  `);
  assert.equal(out, 'true');
});

test('an init() still pending when initSync() loads the module does not load it again over what was made since', () => {
  const out = fresh(`
    import { readFileSync } from 'node:fs';
    import init, { initSync, validate, Draft } from './npm/validator.js';
    const surface = { id: 's', components: [{ id: 'root', component: 'Text', props: { text: 'x' } }] };
    const pending = init();
    initSync({ module: readFileSync('npm/dist/studio/studio_bg.wasm') });
    const draft = new Draft(surface);
    await pending;
    // A second instance would have replaced the first under the draft.
    draft.apply({ op: 'replace', path: '/components/0/props/text', value: 'y' });
    console.log(validate(surface).valid, draft.document().components[0].props.text);
  `);
  assert.equal(out, 'true y');
});

test('init() takes a file: URL, or its text, in Node; a URL answering an error status is init_failed naming it', () => {
  const out = fresh(`
    import { createServer } from 'node:http';
    import init, { validate } from './npm/validator.js';
    import morphInit from './npm/morph.js';
    const server = createServer((q, r) => { r.statusCode = 404; r.end('not here'); });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const url = 'http://127.0.0.1:' + server.address().port + '/studio_bg.wasm';
    const said = await init(url).catch((e) => e.code + ': ' + e.message);
    server.close();
    await init(new URL('npm/dist/studio/studio_bg.wasm', 'file://' + process.cwd() + '/'));
    await morphInit(new URL('npm/dist/morph/morph_bg.wasm', 'file://' + process.cwd() + '/').href);
    console.log(validate({ components: [{ id: 'root', component: 'Divider' }] }).valid);
    console.log(said);
  `);
  const [valid, said] = out.split('\n');
  assert.equal(valid, 'true');
  assert.match(said, /^init_failed: the studio WebAssembly did not load: http:\/\/127\.0\.0\.1:\d+\/studio_bg\.wasm answered 404$/);
});

test('any value of any type, in any argument of any entry: a result or a SurfacesError, never another error or a trap', () => {
  const hostile = [undefined, null, 0, -1, NaN, Infinity, true, '', '{', '[]', 'blog@1', [], {}, [[]], { components: 5 }, Symbol('s'), () => 1, 10n,
    new Uint8Array([0xff, 0xfe]), new ArrayBuffer(3), new Date(0), Object.create(null)];
  const calls = [
    (a, b) => v.validate(a, b), (a, b) => v.validateComponent(a, b), (a, b) => v.validateMarkdown(a, b),
    (a, b) => v.patch(surface, a, b), (a, b) => v.patch(a, [], b), (a, b) => v.applyPatch(a, b), (a) => v.catalogPrompt(a),
    (a) => v.Catalog.load(a), (a, b) => new v.Draft(a, b), (a) => new v.Draft(surface).apply(a),
    (a, b) => new s.Stream(a, b), (a) => new s.Stream().push(a), (a) => new s.Stream('jsonl').push(a), (a, b) => s.applyChanges(a, b), (a) => s.heal(a),
    (a, b) => r.renderSurface(a, b), (a, b) => r.renderMarkdown(a, b), (a, b) => r.renderSurface(surface, { locale: a, mode: b }),
    (a, b) => m.morph(a, b), (a, b) => new m.Preview(a, b),
  ];
  let answered = 0;
  for (const call of calls) {
    for (const a of hostile) {
      for (const b of [undefined, a, { catalog: a }]) {
        try {
          call(a, b);
          answered++;
        } catch (e) {
          assert.ok(e instanceof v.SurfacesError, `${call} with ${String(a?.toString?.() ?? typeof a)}: ${e?.name}: ${e?.message}`);
          assert.notEqual(e.code, 'internal_error', `${call}: ${e.message}`);
          assert.equal(typeof e.path, 'string');
        }
      }
    }
  }
  assert.ok(answered > 100, `${answered} calls answered`);
  // The module still works after all of it.
  assert.equal(v.validate(surface).valid, true);
});

test('a preview ghost given as JSON text draws as the value does', () => {
  const ghost = { op: 'replace', path: '/components/0', component: { id: 'root', component: 'Text', props: { text: 'soon' } } };
  const value = r.renderSurface(surface, { mode: 'preview', ghost });
  assert.match(value.html, /data-ch-ghost/);
  assert.deepEqual(r.renderSurface(surface, { mode: 'preview', ghost: JSON.stringify(ghost) }), value);
});
