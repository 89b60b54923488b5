export { default } from './studio.js';
export { Stream, heal } from './dist/studio/studio.js';
