// npm ./render's isInteractive: whether a page showing a surface needs the
// interaction runtime (a field that writes state, or a button that runs an
// action), as the renderer's own markup says.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { root } from '../browser/e2e/harness.mjs';

let r;
before(async () => {
  r = await import(join(root, 'npm/render.js'));
  await r.default();
});

const surface = (components, data = {}) => ({ id: 's', components, data });

test('isInteractive: bound text alone is final as rendered; a field or an action needs the runtime', () => {
  const text = surface([{ id: 'root', component: 'Text', props: { text: { path: '/t' } } }], { t: 'hi' });
  assert.equal(r.isInteractive(text), false);
  assert.equal(r.renderSurface(text).html.includes('data-ch-text'), true, 'the text is bound all the same');
  const toggle = surface([{ id: 'root', component: 'Toggle', props: { options: ['a', 'b'], value: { path: '/v' } } }], { v: 'a' });
  assert.equal(r.isInteractive(toggle), true);
  const button = surface([{ id: 'root', component: 'Button', props: { label: 'Go', onClick: { action: 'toggle', path: '/x' } } }]);
  assert.equal(r.isInteractive(JSON.stringify(button)), true, 'JSON text too');
  const spelled = surface([{ id: 'root', component: 'Text', props: { text: ' data-ch-action="x"' } }]);
  assert.equal(r.isInteractive(spelled), false, 'text that spells the attribute is no attribute');
  const broken = surface([{ id: 'root', component: 'Stack', children: ['gone'] }]);
  assert.equal(r.isInteractive(broken), false, 'a surface with errors renders nothing');
  assert.equal(r.isInteractive('{not json'), false, 'text that is no JSON renders nothing either');
  assert.equal(r.renderSurface('{not json').issues[0].code, 'invalid_json');
});
