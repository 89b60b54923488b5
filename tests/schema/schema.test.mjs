// The JSON Schemas the npm package ships (npm/schema/surface.json and
// catalog.json) against the validator's own cases: each schema compiles in
// ajv's strict mode (draft 2020-12), the built-in catalog and every catalog of
// the fixtures validate against catalog.json, and every surface and page of
// the validator fixtures (crates/validator-wasm/fixtures/*.json, kinds
// `surface` and `document`) gets from surface.json the verdict its expected
// issues call for: refused exactly when one of them is a rule the schema
// expresses (listed below), accepted otherwise. Run: node --test tests/schema/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const fixtures = 'crates/validator-wasm/fixtures';
const cases = readdirSync(join(root, fixtures))
  .filter((name) => name.endsWith('.json'))
  .sort()
  .flatMap((name) => read(join(fixtures, name)).cases.map((c) => ({ ...c, file: name })));

const surfaceSchema = read('npm/schema/surface.json');
const catalogSchema = read('npm/schema/catalog.json');
// Strict mode: unknown keywords, formats, ill-typed or contradictory
// schemas throw at compile time; the meta-schema check is on by default.
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(surfaceSchema);
const isSurface = ajv.getSchema(surfaceSchema.$id);
const isPage = ajv.getSchema(`${surfaceSchema.$id}#/$defs/page`);
const isCatalog = ajv.compile(catalogSchema);

const ID = /^[a-z][a-z0-9-]{0,40}$/;

// The codes surface.json expresses whole: whenever the validator reports one
// of these, the document breaks a rule the schema states, so ajv refuses it.
// (invalid_surface: not an object, or components not a list; invalid_component:
// a component not an object; invalid_data: data not an object; invalid_id:
// missing, not a string, or not the id rule; unknown_field: a key other than
// the five; too_many_components: over 200; too_many_surfaces: over 30 surface
// sections in a page; unknown_source, invalid_query: a $source value's shape.)
const EXPRESSED = new Set([
  'invalid_surface',
  'invalid_component',
  'invalid_data',
  'invalid_id',
  'unknown_field',
  'too_many_components',
  'too_many_surfaces',
  'unknown_source',
  'invalid_query',
]);

// The codes it expresses in part: which of their issues the schema states,
// judged from the value the issue's path points at. Every other code needs the
// whole tree, the catalog or a measure JSON Schema does not have (no_root,
// duplicate_id, cycle, unreachable, too_deep, data_too_large, props against
// the catalog, bindings and calls inside props, ...), so the schema accepts
// a document whose only problems are those.
const PARTLY = {
  // children not a list, or an entry that is not an id string (a string that
  // breaks the id rule names no component, or one that is itself invalid_id).
  unresolved_child: ({ path, value }) => path.endsWith('/children') || !(typeof value === 'string' && ID.test(value)),
  // the same id twice in one children list (uniqueItems); a second parent elsewhere is not.
  multiple_parents: ({ value, parent, index }) => Array.isArray(parent) && parent.indexOf(value) < index,
  // component missing or not a string (an unknown name is at .../component).
  unknown_component: ({ path }) => !path.endsWith('/component'),
  // props present but not an object; a prop failing the catalog's schema is not.
  invalid_prop: ({ path, value }) => path.endsWith('/props') && value !== undefined && !isObject(value),
  // in visible, the whole condition grammar but its depth (8 levels).
  invalid_condition: ({ path }) => inVisible(path) && conditionLevels(path) < 8,
  invalid_pointer: ({ path }) => inVisible(path),
  unsafe_path: ({ path }) => inVisible(path),
};

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inVisible(path) {
  return /\/components\/\d+\/visible(\/|$)/.test(path);
}

/** How many and/or/not levels a pointer below visible passes through. */
function conditionLevels(path) {
  const below = path.slice(path.search(/\/visible(\/|$)/) + '/visible'.length);
  return below.split('/').filter((s) => s === 'and' || s === 'or' || s === 'not').length;
}

/** The value at a JSON Pointer, its parent and its last segment (as a number for arrays). */
function at(doc, path) {
  const segments = path === '' ? [] : path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent;
  let value = doc;
  let index;
  for (const segment of segments) {
    parent = value;
    index = Array.isArray(parent) ? Number(segment) : segment;
    value = parent == null || typeof parent !== 'object' ? undefined : parent[index];
  }
  return { value, parent, index };
}

/** Whether surface.json states the rule behind `issue`, reported for `doc`. */
function expressed(doc, issue) {
  if (EXPRESSED.has(issue.code)) return true;
  const rule = PARTLY[issue.code];
  return rule !== undefined && rule({ path: issue.path, ...at(doc, issue.path) });
}

const surfaceCases = cases.filter((c) => c.kind === 'surface' || c.kind === 'document');
const catalogs = [
  { name: 'the built-in blog@1', doc: read('crates/validator-wasm/catalog/blog@1.json') },
  ...cases.filter((c) => c.catalog !== undefined).map((c) => ({ name: `${c.file}: ${c.name}`, doc: c.catalog })),
];

test('both schemas are JSON and compile in strict mode as draft 2020-12', () => {
  for (const schema of [surfaceSchema, catalogSchema]) {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.ok(ajv.validateSchema(schema), JSON.stringify(ajv.errors));
  }
  assert.equal(typeof isSurface, 'function');
  assert.equal(typeof isPage, 'function');
});

test('every property of both schemas has a title or a description', () => {
  const missing = [];
  // Walks subschemas by keyword, so a property named like a keyword is not taken for one.
  const walk = (node, path) => {
    if (!isObject(node)) return;
    for (const [name, sub] of Object.entries(node.properties ?? {})) {
      const described = isObject(sub) && (sub.title !== undefined || sub.description !== undefined || sub.$ref !== undefined);
      if (!described && sub !== true) missing.push(`${path}/properties/${name}`);
    }
    for (const key of ['properties', '$defs']) {
      for (const [name, sub] of Object.entries(node[key] ?? {})) walk(sub, `${path}/${key}/${name}`);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) (node[key] ?? []).forEach((sub, i) => walk(sub, `${path}/${key}/${i}`));
    for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']) walk(node[key], `${path}/${key}`);
  };
  walk(surfaceSchema, 'surface.json#');
  walk(catalogSchema, 'catalog.json#');
  assert.deepEqual(missing, []);
});

test('the built-in catalog and every fixture catalog that loads validate against catalog.json', (t) => {
  for (const { name, doc } of catalogs) assert.ok(isCatalog(doc), `${name}: ${JSON.stringify(isCatalog.errors)}`);
  t.diagnostic(`${catalogs.length} catalogs accepted`);
});

test('catalog.json refuses what the loader refuses, but for the rules that look across the document', (t) => {
  // What a loader refuses that no JSON Schema can state: a $ref naming no
  // definition, a children list naming no component, an example that fails
  // its own props schema. Every other refusal is a shape catalog.json states.
  const acrossTheDocument = (error, doc) => {
    if (error.code !== 'invalid_catalog') return false;
    const { value } = at(doc, error.path);
    return (
      /\/example(\/|$)/.test(error.path) ||
      (error.path.endsWith('/$ref') && typeof value === 'string') ||
      (error.path.endsWith('/children') && Array.isArray(value))
    );
  };
  let refused = 0;
  const loaderCases = cases.filter((c) => c.kind === 'catalog');
  for (const c of loaderCases) {
    const expected = c.expect.error === null || acrossTheDocument(c.expect.error, c.input);
    assert.equal(isCatalog(c.input), expected, `${c.file}: ${c.name}: ${JSON.stringify(isCatalog.errors)}`);
    if (!expected) refused += 1;
  }
  t.diagnostic(`${loaderCases.length} loader cases, ${refused} refused by catalog.json`);
});

test('surface.json gives every fixture surface and page the verdict its expected issues call for', (t) => {
  // Accepted exactly when no expected issue is expressed: so every fixture
  // without an error is accepted (flags of the rules stated in part aside,
  // such as props that are not an object, a flag and not an error), and
  // every one with an error the schema states is refused.
  let accepted = 0;
  let refused = 0;
  let withErrors = 0;
  const failures = [];
  for (const c of surfaceCases) {
    const page = isObject(c.input) && Array.isArray(c.input.sections) && !('components' in c.input);
    const check = page ? isPage : isSurface;
    const ok = check(c.input);
    const reasons = c.expect.issues.filter((issue) => expressed(c.input, issue));
    if (ok !== (reasons.length === 0)) {
      failures.push(
        `${c.file}: ${c.name}: ajv ${ok ? 'accepts' : 'refuses'}; expected issues ${JSON.stringify(
          c.expect.issues.map((i) => `${i.code} ${i.path}`),
        )}; ajv: ${JSON.stringify((check.errors ?? []).slice(0, 3))}`,
      );
    }
    if (ok) accepted += 1;
    else refused += 1;
    if (ok && c.expect.issues.some((i) => i.severity === 'error')) withErrors += 1;
  }
  assert.deepEqual(failures, []);
  assert.ok(surfaceCases.length >= 250, `only ${surfaceCases.length} fixture surfaces found`);
  t.diagnostic(
    `${surfaceCases.length} fixture surfaces and pages: ${accepted} accepted, ${refused} refused; ` +
      `${withErrors} of the accepted have errors only the validator finds`,
  );
});

test('each code the schema expresses whole is reported by some fixture, and refused there', () => {
  for (const code of EXPRESSED) {
    const found = surfaceCases.filter((c) => c.expect.issues.some((i) => i.code === code));
    assert.ok(found.length > 0, `no fixture reports ${code}`);
    for (const c of found) {
      const page = isObject(c.input) && Array.isArray(c.input.sections) && !('components' in c.input);
      assert.equal((page ? isPage : isSurface)(c.input), false, `${c.file}: ${c.name}`);
    }
  }
});
