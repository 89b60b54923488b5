// Shared by the Playwright end-to-end tests: Debian's Chromium, headless,
// driven by playwright-core, against pages served by demo/serve.mjs on 127.0.0.1,
// and the parts as scripts/build made them: artifacts() says which ship and
// where each was built (a part held back by its size budget is tested from
// target/unshipped/).
import { chromium } from 'playwright-core';
export { startServer, PAGE_CSP, DEMO_MOUNTS, root } from '../../../demo/serve.mjs';
export { artifacts } from '../../../scripts/artifacts.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/**
 * Opens a page that records console messages and uncaught errors;
 * `options.init` runs in the page before any of its own scripts.
 */
export async function openPage(browser, url, options = {}) {
  const page = await browser.newPage();
  if (options.init) await page.addInitScript(options.init);
  const consoleMessages = [];
  const errors = [];
  page.on('console', (m) => consoleMessages.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, consoleMessages, errors };
}
