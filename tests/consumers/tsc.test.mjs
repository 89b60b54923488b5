// The packed package's types in a TypeScript consumer: every exported type
// used, checked by the repository's tsc (the current major) with --strict and
// skipLibCheck false, in a browser setup (DOM, bundler resolution) and a
// Node-only one (no DOM, @types/node, nodenext). The `@ts-expect-error` lines
// must stay errors, so the types are not `any`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { consumer, root, run, PACKAGE } from './setup.mjs';

const TSC = join(root, 'node_modules/.bin/tsc');

// Used by both setups: every type and every export of ./validator, ./stream, ./render, ./interop and ./build.
const USES = `
import init, {
  validate, validateComponent, validateMarkdown, patch, applyPatch, catalogPrompt, Catalog, Draft, SurfacesError, initSync,
  type Json, type JsonInput, type Binding, type Call, type PropValue, type Condition, type Component, type Surface,
  type Section, type Page, type SurfaceDocument, type PropSchema, type CatalogEntry, type CatalogDocument, type Severity,
  type IssueCode, type Issue, type Verdict, type Operation, type RepairCode, type Repair, type Refusal, type PatchResult,
  type DraftReport, type PatchErrorCode, type ApplyPatchResult, type ErrorCode, type CatalogInput, type CatalogOptions,
  type ComponentOptions, type Init, type InitSync, type InitInput, type SyncInitInput, type DocumentOf,
} from '${PACKAGE}/validator';
import initStream, {
  Stream, applyChanges, heal,
  type StreamRefusal, type Ghost, type Block, type Heal, type MarkdownChange, type JsonlChange, type A2uiChange, type Change,
  type StreamMode, type MarkdownDocument, type JsonlDocument, type A2uiDocument, type StreamDocuments, type StreamChanges,
} from '${PACKAGE}/stream';
import initRender, { renderSurface, renderMarkdown, type RenderOptions, type Rendered, type PreviewGhost } from '${PACKAGE}/render';
import initInterop, {
  fromA2ui, toA2ui, fromJsonRender, toJsonRender, A2uiImport, JsonRenderImport,
  type Note, type NoteCode, type A2uiMessage, type A2uiInput, type JsonRenderSpec, type JsonRenderSpecOut,
  type JsonRenderCondition, type JsonRenderStateCondition, type JsonRenderAction, type A2uiMessageInput, type SpecPatchInput,
} from '${PACKAGE}/interop';
// json-render's own types: what toJsonRender writes is a Spec it takes.
import type { Spec as TheirSpec, JsonPatch as TheirJsonPatch } from '@json-render/core';
import initBuild, {
  BuildSession, previewTargetAt,
  type AgUiEvent, type SessionSource, type BuildSessionOptions, type BuildGhost, type Divergence, type BuildProblem,
  type BuildStatus, type BuildUpdate, type PreviewTarget,
} from '${PACKAGE}/build';

const loaders: Init[] = [init, initStream, initRender, initInterop, initBuild];
const sync: InitSync = initSync;
await Promise.all(loaders.map((load) => load()));
export const inputs: InitInput[] = ['/studio.wasm', new Uint8Array(8), new ArrayBuffer(8)];
export const syncInputs: SyncInitInput[] = [{ module: new Uint8Array(8) }, new ArrayBuffer(8), new Int8Array(8)];

const json: Json = { a: [1, 'two', null, true, { b: 3 }] };
const binding: Binding = { path: '/title' };
const call: Call = { call: 'formatCurrency', args: { value: 9, currency: 'EUR' } };
const props: { [name: string]: PropValue } = { text: binding, amount: call, level: 2 };
const condition: Condition = { eq: [{ path: '/billing' }, 'yearly'] };
const heading: Component = { id: 'title', component: 'Heading', props, visible: condition };
const surface: Surface = {
  id: 'price', kind: 'surface', catalog: 'blog@1', style: { width: 'wide' },
  components: [{ id: 'root', component: 'Stack', children: ['title'] }, heading], data: { title: 'Pro', json },
};
const hero: Section = { kind: 'hero', title: 'Hi' };
const page: Page = { sections: [hero, surface] };
const documents: SurfaceDocument[] = [surface, page];
const textInput: JsonInput<Surface> = JSON.stringify(surface);

const schema: PropSchema = { type: 'object', properties: { label: { type: 'string', maxLength: 20 } }, required: ['label'] };
const entry: CatalogEntry = { description: 'A box.', props: schema, children: 'none', example: { label: 'Hello' } };
const mine: CatalogDocument = { catalog: 'mine@1', components: { Box: entry } };
const loaded: Catalog = Catalog.load(mine);
const inputsOfCatalog: CatalogInput[] = [loaded, mine, JSON.stringify(mine), Catalog.default];
const catalogOptions: CatalogOptions = { catalog: inputsOfCatalog[0] };
const names: string[] = loaded.components;
const named: string = loaded.name + Catalog.default.name + loaded.prompt() + catalogPrompt(catalogOptions) + catalogPrompt();
export const jsonSchema: { [keyword: string]: Json } = loaded.jsonSchema();

const verdicts: Verdict[] = [validate(surface), validate(page), validate(textInput, catalogOptions), validateMarkdown('# Hi')];
const issues: Issue[] = verdicts.flatMap((v) => v.issues);
const severities: Severity[] = issues.map((i) => i.severity);
const codes: IssueCode[] = issues.map((i) => i.code);
const lines: (number | undefined)[] = issues.map((i) => i.line);
const componentOptions: ComponentOptions = { at: '/components/1', data: { title: 'Pro' }, catalog: loaded };
const own: Issue[] = validateComponent(heading, componentOptions).concat(validateComponent(JSON.stringify(heading)));

const ops: Operation[] = [
  { op: 'add', path: '/components/-', value: { id: 'go', component: 'Button', props: { label: 'Go' } } },
  { op: 'remove', path: '/components/2' },
  { op: 'move', from: '/components/1', path: '/components/0' },
];
const patched: PatchResult<Surface> = patch(surface, ops);
const same: Surface = patched.document;
const repairs: Repair[] = patched.repairs;
const repairCodes: RepairCode[] = repairs.map((r) => r.code);
const refusals: Refusal[] = patched.refused;
const refusedCode: 'VALIDATION_FAILED' | undefined = refusals[0]?.code;
const pagePatched: PatchResult<Page> = patch(page, JSON.stringify(ops));

const applied: ApplyPatchResult = applyPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]);
if (applied.ok) {
  const after: Json = applied.document;
  void after;
} else {
  const code: PatchErrorCode = applied.error.code;
  const at: number = applied.error.op;
  void code, at;
}

const draft = new Draft<Surface>(surface, { catalog: mine });
const report: DraftReport = draft.apply(ops[0]!);
const held: number[] = report.held.concat(draft.apply(ops).held);
const settled: Refusal[] = draft.settle().refused;
const current: Surface = draft.document();
const now: Issue[] = draft.issues();
draft.free();

try {
  validate(surface);
} catch (e) {
  if (e instanceof SurfacesError) {
    const code: ErrorCode = e.code;
    const pointer: string = e.path;
    const message: string = e.message;
    const error: Error = e;
    void code, pointer, message, error;
  }
}
export const made: SurfacesError = new SurfacesError('invalid_option', '/at', 'at is a string');

const markdown = new Stream();
const mode: 'markdown' = markdown.mode;
const changes: MarkdownChange[] = markdown.push('Hello **wor').concat(markdown.push(new TextEncoder().encode('ld**')));
const end: { changes: MarkdownChange[]; document: MarkdownDocument } = markdown.finish();
const blocks: Block[] = end.document.blocks;
for (const block of blocks) {
  if (block.kind === 'surface') {
    const parts: Component[] = block.components;
    const refused: StreamRefusal[] = block.refused;
    const ghost: Ghost | null = block.ghost;
    const flags: Issue[] = block.flags;
    void parts, refused, ghost, flags;
  } else if (block.kind === 'code') {
    const lang: string | null = block.lang;
    void lang;
  }
}
for (const change of changes) {
  if (change.op === 'add') {
    const healing: Heal | null | undefined = change.heal;
    const value: Block = change.value;
    void healing, value;
  }
}
const rebuilt: MarkdownDocument = applyChanges(new Stream().document(), [...changes, ...end.changes]);
const fromNothing: MarkdownDocument | undefined = applyChanges(undefined, changes);
// @ts-expect-error from undefined, the result may be undefined (no change yet)
const notYet: MarkdownDocument = applyChanges(undefined, changes);
void fromNothing, notYet;

const jsonl = new Stream('jsonl');
const jsonlMode: StreamMode = jsonl.mode;
const items: JsonlChange[] = jsonl.push('{"ops":[]}\\n');
for (const item of items) if (item.kind === 'step') { const steps: Operation[] = item.ops; void steps; }
const jsonlDocument: JsonlDocument = jsonl.finish().document;
const jsonlAgain: JsonlDocument = applyChanges<'jsonl'>(jsonlDocument, items);
// The mode inferred from the changes, from a document or from nothing.
const jsonlInferred: JsonlDocument = applyChanges(jsonlDocument, items);
const jsonlFromNothing: JsonlDocument | undefined = applyChanges(undefined, items);
// @ts-expect-error markdown changes onto a JSON Lines document
applyChanges(jsonlDocument, changes);
const a2ui = new Stream('a2ui');
const parts: A2uiChange[] = a2ui.push('text');
const a2uiDocument: A2uiDocument = a2ui.document();
const a2uiInferred: A2uiDocument = applyChanges(a2uiDocument, parts);
const a2uiFromNothing: A2uiDocument | undefined = applyChanges(undefined, parts);
void jsonlInferred, jsonlFromNothing, a2uiInferred, a2uiFromNothing;
const anyChanges: Change[] = [...changes, ...items, ...parts];
const documentsByMode: StreamDocuments['markdown'] = rebuilt;
const changeOf: StreamChanges['jsonl'] | undefined = items[0];

const transform: TransformStream<string | Uint8Array, MarkdownChange[]> = Stream.transform();
const jsonlTransform: TransformStream<string | Uint8Array, JsonlChange[]> = Stream.transform('jsonl');
const healed: string = heal('**bo');

const renderOptions: RenderOptions = { locale: 'de-DE', catalog: loaded, mode: 'published' };
const rendered: Rendered = renderSurface(surface, renderOptions);
const html: string | null = rendered.html;
const ok: boolean = rendered.ok && renderMarkdown('# Hi').ok;
const renderedIssues: Issue[] = rendered.issues.concat(renderSurface(JSON.stringify(surface)).issues);

// Each of these must stay an error: the types say what the API takes.
// @ts-expect-error the markdown body is a string, not a number
validateMarkdown(42);
// @ts-expect-error a severity is error, flag or warning
export const fatal: Severity = 'fatal';
// @ts-expect-error SurfacesError codes are a union of known codes
export const bogus = new SurfacesError('no_such_code', '', 'message');
// @ts-expect-error a jsonl stream gives JSON Lines items, not markdown changes
export const wrong: MarkdownChange[] = jsonl.push('{}');
// @ts-expect-error a catalog's name is read-only
loaded.name = 'other@1';
// @ts-expect-error Catalog has no public constructor: Catalog.load or Catalog.default
export const constructed = new Catalog();
// @ts-expect-error an operation needs its path
export const pathless: Operation = { op: 'remove' };
// @ts-expect-error renderSurface gives an object, not the HTML text
export const htmlText: string = renderSurface(surface);
// @ts-expect-error a chunk is a string or bytes
markdown.push(42);

const agent: A2uiMessage[] = [{ version: 'v1.0', createSurface: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'Hi' }] } }];
const input: A2uiInput = agent;
const imported: Surface[] = fromA2ui(input).surfaces.concat(fromA2ui('<a2ui-json>[]</a2ui-json>').surfaces);
const exported: A2uiMessage[] = toA2ui(imported[0], { version: 'v0.9' }).messages;
const written: JsonRenderSpecOut = toJsonRender(imported[0]).spec;
const theirs: TheirSpec = written;
const spec: JsonRenderSpec = written;
const seats: JsonRenderStateCondition = { $state: '/seats', gt: 2 };
const shown: JsonRenderCondition = { $or: [seats, [{ $state: '/plan', eq: 'pro', not: true }]] };
const press: JsonRenderAction = { action: 'setState', params: { statePath: '/seats', value: 3 } };
const theirElement: TheirSpec['elements'][string] = { type: 'Button', props: {}, children: [], visible: shown, on: { press } };
// @ts-expect-error json-render orders numbers only
export const orderedText: JsonRenderStateCondition = { $state: '/name', lt: 'm' };
const noteCodes: NoteCode[] = fromJsonRender(spec).notes.map((n: Note) => n.code);
const importer = new A2uiImport({ surface: 's', at: '' });
const importOps: Operation[] = importer.push(agent).concat(importer.push('{"version":"v1.0"}\\n'), importer.finish());
const importedNow: Surface | null = importer.surface();
const specImport = new JsonRenderImport({ at: '/sections/0' });
const specOps: Operation[] = specImport.push({ op: 'add', path: '/root', value: 'main' }).concat(specImport.push('{"op":"add","path":"/elements/main","value":{"type":"Text"}}\\n'));
const specSoFar: Partial<JsonRenderSpec> = specImport.spec();
// @ts-expect-error a version is v1.0 or v0.9
toA2ui(imported[0], { version: 'v2' });
// What users hold, as they hold it: json-render's own Spec, A2UI's own
// messages (@a2ui/web_core's types, which need the DOM's: in DOM below),
// a list of messages of several shapes.
declare const theirSpec: TheirSpec;
const fromTheirs: Surface = fromJsonRender(theirSpec).surface;
declare const theirPatches: TheirJsonPatch[];
const fromTheirPatches: Operation[] = new JsonRenderImport().push(theirPatches).concat(new JsonRenderImport().push(theirPatches[0]!));
const patchIn: SpecPatchInput = { op: 'add', path: '/root', value: 'main' };
const messageIn: A2uiMessageInput = { version: 'v0.9' };
const surfaceOf: DocumentOf<{ components: [] }> = surface;
void fromTheirPatches, patchIn, messageIn, surfaceOf;
const mixed = [
  { version: 'v0.9', createSurface: { surfaceId: 'm', catalogId: 'basic' } },
  { version: 'v0.9', updateComponents: { surfaceId: 'm', components: [{ id: 'root', component: 'Text', text: 'Hi' }] } },
];
const fromMixed: Surface[] = fromA2ui(mixed).surfaces;
const mixedOps: Operation[] = new A2uiImport().push(mixed);
void fromTheirs, fromMixed, mixedOps;

// A typed Component written by an operation; a typed surface or page patched.
const typedAdd: Operation = { op: 'add', path: '/components/-', value: heading };
const typedResults: ApplyPatchResult[] = [applyPatch(surface, [typedAdd]), applyPatch({ sections: [] } as Page, ops), applyPatch(JSON.stringify(page), ops)];
// A document written as a literal: what comes back is a Surface (or a Page), which operations may have grown.
const literalDraft = new Draft({ components: [] });
const literalData: { [key: string]: Json } | undefined = literalDraft.document().data;
const literalPatched: Surface = patch({ components: [] }, [typedAdd]).document;
const pageAgain: Page = patch({ sections: [] }, ops).document;
const eitherDraft: SurfaceDocument = new Draft(JSON.stringify(surface)).document();
// @ts-expect-error a Surface's patch gives no Page
export const notAPage: Page = patch(surface, ops).document;
void typedResults, literalData, literalPatched, pageAgain, eitherDraft;

const updates: BuildUpdate[] = [];
const sessionOptions: BuildSessionOptions = { catalog: loaded, onUpdate: (u) => updates.push(u), document: page, tools: ['patch_draft'] };
// The draft to start from as its JSON text, as a file holds it.
export const fromText: BuildSessionOptions = { document: JSON.stringify(surface) };
const session = new BuildSession(sessionOptions);
const event: AgUiEvent = { type: 'STATE_DELTA', delta: [] };
const update: BuildUpdate = session.receive(event);
const ghost: BuildGhost | null = session.receiveText('{"say":"hi"}\\n').ghost;
const divergences: Divergence[] = update.divergences;
const problems: BuildProblem[] = update.errors;
const status: BuildStatus = update.status;
const changed: string[] = update.changed;
const sources: SessionSource[] = [[event], (async function* () { yield event; })()];
export const connected: Promise<void> = session.connect(sources[0]!, { signal: new AbortController().signal });
const previewed: string = session.previewHtml() + session.previewHtml('sec');
const previewGhost: PreviewGhost = { op: 'add', path: '/components/-', component: { id: 'x', component: 'Text' } };
const inPreview: Rendered = renderSurface(surface, { mode: 'preview', ghost: previewGhost });
export const target: PreviewTarget | null = previewTargetAt(null, 0, 0);
// @ts-expect-error a session's run status is one of four
export const runStatus: BuildStatus['run'] = 'paused';

export const used = [
  sync, props, documents, named, names, severities, codes, lines, own, same, repairCodes, refusedCode, pagePatched, held,
  settled, current, now, mode, jsonlMode, jsonlAgain, a2uiDocument, anyChanges, documentsByMode, changeOf, transform,
  jsonlTransform, healed, html, ok, renderedIssues, exported, noteCodes, importOps, importedNow, specOps, specSoFar,
  ghost, divergences, problems, status, changed, previewed, inPreview, theirs, theirElement,
];
`;

// Browser only: the preview morph on a DOM element.
const DOM = `
import initMorph, { morph, Preview, type MorphOptions, type PreviewOptions } from '${PACKAGE}/morph';
import { BuildSession } from '${PACKAGE}/build';
export const fromDom: Promise<void>[] = [new BuildSession().connect(new EventSource('/events')), new BuildSession().connect(new WebSocket('ws://x')), new BuildSession().connect(new Response(''))];
import { renderSurface } from '${PACKAGE}/render';
// A2UI's own message types (their package's types need the DOM's).
import { fromA2ui, A2uiImport } from '${PACKAGE}/interop';
import type { A2uiMessage as TheirA2uiMessage } from '@a2ui/web_core/v0_9';
declare const theirMessages: TheirA2uiMessage[];
export const fromTheirMessages: number = fromA2ui(theirMessages).surfaces.length + fromA2ui({ messages: theirMessages }).surfaces.length + new A2uiImport().push(theirMessages[0]!).length;
await initMorph();
const target: Element = document.createElement('div');
const options: MorphOptions = { outer: false, outline: 300, follow: true };
morph(target, renderSurface({ components: [{ id: 'root', component: 'Heading', props: { text: 'Hi' } }] }).html ?? '', options);
const previewOptions: PreviewOptions = { onMorph: (keys: string[]) => console.log(keys.join()) };
const preview = new Preview(target, previewOptions);
preview.update('<p>one</p>');
preview.section('intro', '<section data-section-id="intro"></section>');
export const keys: string[] = preview.flush();
preview.free();
// @ts-expect-error the morph's target is an Element
morph('#app', '<p></p>');
`;

// Node only: initSync from the bytes of the exported wasm. (@types/node 20
// declares no WebAssembly namespace, so a Node-only consumer cannot name
// WebAssembly.Module; the package's types look it up instead of requiring it.)
const NODE = `
import { readFileSync } from 'node:fs';
import { initSync, validate } from '${PACKAGE}/validator';
const bytes: Buffer = readFileSync(new URL(import.meta.resolve('${PACKAGE}/studio.wasm')));
initSync({ module: bytes });
initSync(new Uint8Array(bytes));
export const valid: boolean = validate({ components: [] }).valid;
`;

// A Node-only project that imports ./morph's types (e.g. code shared with the browser).
const NODE_MORPH = `
import initMorph, { type MorphOptions } from '${PACKAGE}/morph';
export const load: () => Promise<void> = () => initMorph();
export const options: MorphOptions = { outline: 0 };
`;

const strict = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', noUnusedLocals: false };
const config = (compilerOptions, files) => JSON.stringify({ compilerOptions: { ...strict, ...compilerOptions }, files }, null, 2);
const BROWSER = { lib: ['es2022', 'dom'], types: [], module: 'esnext', moduleResolution: 'bundler' };
const NODE_ONLY = { lib: ['es2022'], types: ['node'], module: 'nodenext', moduleResolution: 'nodenext' };

let app;
before(async () => {
  app = await consumer('tsc', {
    tools: ['@types/node', '@json-render/core', '@a2ui/web_core'],
    files: {
      'src/uses.ts': USES, 'src/dom.ts': DOM, 'src/node.ts': NODE, 'src/node-morph.ts': NODE_MORPH,
      'tsconfig.dom.json': config(BROWSER, ['src/uses.ts', 'src/dom.ts']),
      'tsconfig.node.json': config(NODE_ONLY, ['src/uses.ts', 'src/node.ts']),
      'tsconfig.node-morph.json': config(NODE_ONLY, ['src/node-morph.ts']),
    },
  });
});
after(() => app?.remove());

/** Runs tsc -p on one config of the consumer; resolves to its output (rejects with it on errors). */
async function tsc(project) {
  try {
    await run(TSC, ['-p', project, '--pretty', 'false'], { cwd: app.dir });
    return '';
  } catch (e) {
    assert.fail(`tsc -p ${project} (TypeScript ${(await run(TSC, ['-v'])).stdout.trim()}) failed:\n${e.stdout}${e.stderr}`);
  }
}

test('tsc --strict, DOM setup (lib es2022+dom, moduleResolution bundler): every type and export of the four entries', async () => {
  await tsc('tsconfig.dom.json');
});

test('tsc --strict, Node-only setup (lib es2022, types node, nodenext): every type of ./validator, ./stream, ./render and initSync from the exported wasm', async () => {
  await tsc('tsconfig.node.json');
});

test('tsc --strict, Node-only setup importing ./morph\'s types', async () => {
  await tsc('tsconfig.node-morph.json');
});
