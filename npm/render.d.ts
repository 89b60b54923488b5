export { default } from './studio.js';
export { renderSurface, renderMarkdown } from './dist/studio/studio.js';
