// Loaded before the runtime: records every DOM mutation, so a test can see
// what hydration and each update changed.
window.__mutations = [];
new MutationObserver((records) => {
  for (const r of records) window.__mutations.push({ type: r.type, id: (r.target.id || r.target.parentElement?.id || ''), attr: r.attributeName });
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
