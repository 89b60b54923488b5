// A page's own script (a classic script, so it runs before the runtime's
// module): at DOMContentLoaded, while the runtime is still loading its
// module, it adds a surface holding a call and asks for its hydration.
document.addEventListener('DOMContentLoaded', () => {
  const host = document.createElement('div');
  host.innerHTML = `<div data-ch-surface="late"><script type="application/json" data-ch-state>{"n":1}</script>`
    + `<p id="late-price" data-ch-text='{"call":"formatCurrency","args":{"value":{"path":"/n"},"currency":"EUR","locale":"en-US"}}'>€1.00</p>`
    + `<p id="late-n" data-ch-text="/n">1</p><button id="late-plus" type="button" data-ch-action='{"action":"increment","path":"/n"}'>+</button></div>`;
  document.body.append(host);
  host.firstElementChild.dispatchEvent(new Event('ch:hydrate'));
});
