// ./interop against real peers: what toA2ui writes passes A2UI's own message
// schemas under ajv (draft 2020-12), what toJsonRender writes passes
// @json-render/core's validateSpec, and A2uiImport drives a Draft to the
// surface fromA2ui reads from the whole (SPEC.md sections 13 and 14).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { validateSpec, compileSpecStream, nestedToFlat, createSpecStreamCompiler } from '@json-render/core';
import { root } from '../browser/e2e/harness.mjs';

let interop, validator;
before(async () => {
  [interop, validator] = await Promise.all(['interop', 'validator'].map((e) => import(join(root, `npm/${e}.js`))));
  await interop.default();
});

const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const versions = [
  { version: 'v0.9', dir: 'tests/conformance/a2ui-v0.9/specification/v0_9', messages: 'server_to_client.json' },
  { version: 'v1.0', dir: 'tests/conformance/a2ui-v1/specification/v1_0', messages: 'agent_to_renderer.json' },
];

/** A2UI's basic-catalog examples of a version, each a list of messages. */
const examples = ({ dir }) => {
  const folder = join(root, dir, 'catalogs/basic/examples');
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const value = read(join(folder, name));
      return [name, Array.isArray(value) ? value : value.messages];
    });
};

/** A2UI's message schema of a version, its references resolved offline (the basic catalog for catalog.json). */
const messageSchema = ({ version, dir, messages }) => {
  const base = `https://a2ui.org/specification/${version.replace('.', '_')}/`;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const catalog = read(join(root, dir, 'catalogs/basic/catalog.json'));
  const as = (schema, id) => ({ ...schema, $id: id });
  ajv.addSchema(as(read(join(root, dir, 'json/common_types.json')), `${base}common_types.json`));
  ajv.addSchema(as(catalog, `${base}catalog.json`));
  ajv.addSchema(as(catalog, `${base}catalogs/basic/catalog.json`));
  return ajv.compile(as(read(join(root, dir, 'json', messages)), `${base}${messages}`));
};

for (const v of versions) {
  test(`toA2ui ${v.version}: every message passes A2UI's schema (ajv 2020), for every example read back`, () => {
    const valid = messageSchema(v);
    let checked = 0;
    for (const [name, messages] of examples(v)) {
      for (const surface of interop.fromA2ui(messages).surfaces) {
        const out = interop.toA2ui(surface, { version: v.version });
        assert.ok(out.messages.length >= 2, name);
        for (const [i, message] of out.messages.entries()) {
          assert.equal(message.version, v.version);
          assert.ok(valid(message), `${name} message ${i}: ${JSON.stringify(valid.errors?.slice(0, 3))}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 20, `${checked} messages checked`);
  });
}

test('toJsonRender: every spec passes @json-render/core validateSpec, and fromJsonRender reads it back', () => {
  let checked = 0;
  for (const v of versions) {
    for (const [name, messages] of examples(v)) {
      for (const surface of interop.fromA2ui(messages).surfaces) {
        const { spec } = interop.toJsonRender(surface);
        const verdict = validateSpec(spec);
        const errors = verdict.issues.filter((i) => i.severity === 'error');
        assert.deepEqual(errors, [], `${name}: ${JSON.stringify(errors)}`);
        const back = interop.fromJsonRender(spec).surface;
        assert.deepEqual(back.components.map((c) => c.id), surface.components.map((c) => c.id), name);
        checked++;
      }
    }
  }
  assert.ok(checked > 20);
});

test('A2uiImport: text in any chunking drives a Draft to the surface fromA2ui reads from the whole', () => {
  let driven = 0;
  for (const v of versions) {
    for (const [name, messages] of examples(v)) {
      const text = messages.map((m) => JSON.stringify(m) + '\n').join('');
      const [whole] = interop.fromA2ui(text).surfaces;
      const reference = new validator.Draft({});
      const repaired = reference.apply([{ op: 'replace', path: '', value: whole }]);
      if (repaired.refused.length) continue; // a surface with errors: refused as a whole too
      for (const size of [1, 13, text.length]) {
        const draft = new validator.Draft({});
        const importer = new interop.A2uiImport();
        for (let i = 0; i < text.length; i += size) {
          const step = draft.apply(importer.push(text.slice(i, i + size)));
          assert.deepEqual(step.refused, [], `${name} (chunks of ${size})`);
          // Nothing the agent did not send: no prop filled from the catalog's examples.
          assert.deepEqual(step.repairs.filter((r) => r.code === 'fill_required'), [], `${name} (chunks of ${size})`);
        }
        draft.apply(importer.finish());
        assert.deepEqual(draft.document(), reference.document(), `${name} (chunks of ${size})`);
        assert.deepEqual(importer.surface(), whole, name);
        importer.free();
        draft.free();
      }
      driven++;
    }
  }
  assert.ok(driven >= 10, `${driven} examples driven`);
});

test('fromJsonRender: specs built with json-render\'s own API (nestedToFlat, its stream compiler) become surfaces without errors', () => {
  const nested = {
    type: 'Stack',
    props: {},
    state: { plan: 'monthly', seats: 3, agreed: false },
    children: [
      { type: 'Heading', props: { text: 'Pricing', level: 2 } },
      { type: 'Toggle', props: { options: ['monthly', 'yearly'], value: { $state: '/plan' } } },
      { type: 'Text', props: { text: { $state: '/plan' } }, visible: { $state: '/seats', gte: 2 } },
      { type: 'Checkbox', props: { label: 'I agree', checked: { $bindState: '/agreed' } } },
      { type: 'Button', props: { label: 'Buy', variant: 'primary' }, visible: { $state: '/plan', neq: 'none' } },
    ],
  };
  const spec = nestedToFlat(nested);
  assert.deepEqual(validateSpec(spec).issues.filter((i) => i.severity === 'error'), []);
  const { surface, notes } = interop.fromJsonRender(spec);
  const verdict = validator.validate(surface);
  assert.deepEqual(verdict.issues.filter((i) => i.severity !== 'warning'), [], JSON.stringify(notes));
  assert.deepEqual(surface.data, nested.state);
  // The same spec streamed through json-render's own compiler, line by line.
  const compiler = createSpecStreamCompiler();
  const importer = new interop.JsonRenderImport();
  const draft = new validator.Draft({});
  const lines = [
    { op: 'add', path: '/root', value: spec.root },
    ...Object.entries(spec.elements).map(([key, value]) => ({ op: 'add', path: `/elements/${key}`, value })),
    { op: 'add', path: '/state', value: spec.state },
  ].map((l) => JSON.stringify(l) + '\n');
  for (const line of lines) {
    compiler.push(line);
    assert.deepEqual(draft.apply(importer.push(line)).refused, []);
  }
  assert.deepEqual(importer.spec(), compiler.getResult());
  assert.deepEqual(draft.document(), interop.fromJsonRender(compiler.getResult()).surface);
});

test('JsonRenderImport: a SpecStream in any chunking drives a Draft to the surface of what json-render compiles from it', () => {
  let driven = 0;
  for (const v of versions) {
    for (const [name, messages] of examples(v)) {
      for (const surface of interop.fromA2ui(messages).surfaces) {
        const { spec } = interop.toJsonRender(surface);
        const esc = (key) => key.replaceAll('~', '~0').replaceAll('/', '~1');
        const lines = [
          { op: 'add', path: '/root', value: spec.root },
          ...Object.entries(spec.elements).map(([key, value]) => ({ op: 'add', path: `/elements/${esc(key)}`, value })),
          ...Object.entries(spec.state ?? {}).map(([key, value]) => ({ op: 'add', path: `/state/${esc(key)}`, value })),
          // json-render creates what a path goes through.
          { op: 'add', path: '/state/made/on/the/way', value: 1 },
        ];
        const text = lines.map((l) => JSON.stringify(l) + '\n').join('');
        // The peer's own reading of the stream is the oracle.
        const compiled = compileSpecStream(text);
        const expected = interop.fromJsonRender(compiled).surface;
        const reference = new validator.Draft({});
        if (reference.apply([{ op: 'replace', path: '', value: expected }]).refused.length) continue;
        for (const size of [1, 29, text.length]) {
          const importer = new interop.JsonRenderImport();
          const draft = new validator.Draft({});
          for (let i = 0; i < text.length; i += size) {
            assert.deepEqual(draft.apply(importer.push(text.slice(i, i + size))).refused, [], `${name} (${size})`);
          }
          draft.apply(importer.finish());
          assert.deepEqual(importer.spec(), compiled, `${name}: the same spec as json-render's compiler`);
          assert.deepEqual(importer.surface(), expected, name);
          assert.deepEqual(draft.document(), reference.document(), `${name} (${size})`);
          assert.deepEqual(importer.notes(), interop.fromJsonRender(compiled).notes, name);
          importer.free();
        }
        driven++;
      }
    }
  }
  assert.ok(driven >= 10, `${driven} specs driven`);
});

test('the importers read text split inside a surrogate pair as Stream does: an emoji stays one character', () => {
  const v = 'v1.0';
  const greeting = 'Grüße aus München 🎉🎉🎉';
  const lines = [
    { version: v, createSurface: { surfaceId: 's', catalogId: 'https://a2ui.org/specification/v1_0/basic_catalog.json' } },
    { version: v, updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: greeting }] } },
  ];
  const text = lines.map((m) => JSON.stringify(m) + '\n').join('');
  const spec = `{"op":"add","path":"/root","value":"main"}\n{"op":"add","path":"/elements/main","value":{"type":"Text","props":{"text":"${greeting}"},"children":[]}}\n`;
  for (const [made, input, read] of [
    [() => new interop.A2uiImport(), text, (i) => i.surface().components[0].props.text],
    [() => new interop.JsonRenderImport(), spec, (i) => i.spec().elements.main.props.text],
  ]) {
    const importer = made();
    // One UTF-16 unit at a time: every pair is split.
    for (let at = 0; at < input.length; at++) importer.push(input[at]);
    importer.finish();
    assert.equal(read(importer), greeting);
    importer.free();
  }
});

test('A2uiImport: messages as values, one at a time, with notes for what it refused', () => {
  const importer = new interop.A2uiImport({ surface: 's', at: '/sections/0' });
  const v = 'v1.0';
  assert.deepEqual(importer.push({ version: v, createSurface: { surfaceId: 's' } }), []);
  const [op] = importer.push([{ version: v, updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'Hi' }] } }]);
  assert.deepEqual([op.op, op.path], ['replace', '/sections/0']);
  assert.deepEqual(importer.push({ version: v, updateDataModel: { surfaceId: 's', path: '/n', value: 1 } }), [{ op: 'add', path: '/sections/0/data/n', value: 1 }]);
  assert.deepEqual(importer.push({ version: 'v7', createSurface: { surfaceId: 't' } }), []);
  const [note] = importer.notes();
  assert.equal(note.code, 'unknown_version');
  assert.ok(note.path.startsWith('/3'), note.path);
});

test('interop error paths: a SurfacesError with its code and pointer, the importer unchanged', () => {
  const refuses = (f, code, path) =>
    assert.throws(f, (e) => e instanceof interop.SurfacesError && e.code === code && e.path === path);
  const surface = { id: 's', components: [{ id: 'root', component: 'Text', props: { text: 'hi' } }] };
  refuses(() => interop.toA2ui(surface, { version: 'v2' }), 'invalid_option', '/version');
  refuses(() => interop.toA2ui(surface, { version: 9 }), 'invalid_option', '/version');
  refuses(() => interop.toA2ui(surface, 'v0.9'), 'invalid_option', '/options');
  for (const Importer of [interop.A2uiImport, interop.JsonRenderImport]) {
    refuses(() => new Importer({ at: 'sections/0' }), 'invalid_option', '/at');
    refuses(() => new Importer('x'), 'invalid_option', '/options');
  }
  refuses(() => interop.toA2ui('{', {}), 'invalid_json', '');
  refuses(() => interop.fromJsonRender('nope'), 'invalid_json', '');
  refuses(() => new interop.A2uiImport({ surface: 3 }), 'invalid_option', '/surface');
  refuses(() => new interop.A2uiImport({ at: {} }), 'invalid_option', '/at');
  const importer = new interop.A2uiImport();
  refuses(() => importer.push(42), 'invalid_option', '/message');
  refuses(() => importer.push(null), 'invalid_option', '/message');
  refuses(() => new interop.JsonRenderImport({ at: 1 }), 'invalid_option', '/at');
  refuses(() => new interop.JsonRenderImport().push(true), 'invalid_option', '/message');
  const spec = new interop.JsonRenderImport();
  assert.deepEqual(spec.push({ op: 'remove', path: '/elements/x' }), []);
  assert.deepEqual(spec.notes().map((n) => [n.code, n.path]), [['path_not_found', '/0']]);
  assert.deepEqual(spec.spec(), {});
  assert.equal(importer.surface(), null);
  assert.deepEqual(importer.notes(), []);
  // Not A2UI at all: a note, not a throw.
  assert.equal(interop.fromA2ui('just prose').notes[0].code, 'not_a2ui');
});
