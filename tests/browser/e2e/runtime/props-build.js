// The page side of runtime-props.test.mjs: builds the generated surfaces
// from the JSON in #props-spec with setAttribute (so every hostile value
// reaches the runtime exactly, unchanged by HTML parsing), before the
// runtime's module runs (module scripts run in document order), and records
// what the test checks afterwards: the attributes as built, the prototypes'
// own names, and every Content-Security-Policy violation (a javascript: URL
// or an inline handler that something tried to run).
// A node of the spec: a string (text) or [tag, [[name, value], ...], [child, ...]].
const build = (node) => {
  if (typeof node == 'string') return document.createTextNode(node);
  const [tag, attrs, children] = node;
  const el = document.createElement(tag);
  for (const [name, value] of attrs) el.setAttribute(name, value);
  for (const child of children) el.append(build(child));
  return el;
};
const spec = JSON.parse(document.getElementById('props-spec').textContent);
document.getElementById('props-root').append(...spec.map(build));
const names = (o) => Object.getOwnPropertyNames(o).sort().join(' ');
window.propsBefore = {
  attrs: [...document.querySelectorAll('#props-root *')].map((el) => [...el.attributes].map((a) => [a.name, a.value])),
  prototypes: [Object.prototype, Array.prototype, Function.prototype].map(names),
};
window.propsViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.propsViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
