// The page script the bundler tests share (Vite, esbuild): it renders a
// surface with ./render, validates it, morphs the page to a second render with
// ./morph and writes what it saw into #result as JSON (or the error).
// `head` is the script's imports and init; it defines `ready` (a promise).
export const pageScript = (head) => `${head}
const result = document.getElementById('result');
const surface = (title) => ({
  id: 'hello', kind: 'surface', catalog: 'blog@1',
  components: [
    { id: 'root', component: 'Stack', children: ['title', 'note'] },
    { id: 'title', component: 'Heading', props: { text: { path: '/title' } } },
    { id: 'note', component: 'Text', props: { text: 'Rendered by the package' } },
  ],
  data: { title },
});
try {
  await ready;
  const app = document.getElementById('app');
  const first = renderSurface(surface('First render'));
  app.innerHTML = first.html;
  const heading = app.querySelector('h2');
  morph(app, renderSurface(surface('Morphed <render>')).html);
  result.textContent = JSON.stringify({
    valid: validate(surface('x')).valid,
    ok: first.ok,
    heading: app.querySelector('h2').textContent,
    kept: app.querySelector('h2') === heading,
    note: app.querySelector('p').textContent,
  });
} catch (e) {
  result.textContent = JSON.stringify({ error: e.code ?? e.name, message: String(e.message) });
}
`;

export const EXPECTED = { valid: true, ok: true, heading: 'Morphed <render>', kept: true, note: 'Rendered by the package' };

export const pageHtml = (script) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,"></head>
<body><main id="app"></main><p id="result">pending</p><script type="module" src="${script}"></script></body>
</html>
`;
