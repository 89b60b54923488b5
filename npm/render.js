// Await the default export once, then use the named exports.
export { default } from './studio.js';
export { renderSurface, renderMarkdown } from './dist/studio/studio.js';
