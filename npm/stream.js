// Await the default export once, then use the named exports.
export { default } from './studio.js';
export { Stream, heal } from './dist/studio/studio.js';
