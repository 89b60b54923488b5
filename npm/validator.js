// Await the default export once, then use the named exports.
export { default } from './studio.js';
export { validate, validateComponent, validateMarkdown, patch, applyPatch, catalogPrompt, Draft } from './dist/studio/studio.js';
