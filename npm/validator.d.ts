export { default } from './studio.js';
export { validate, validateComponent, validateMarkdown, patch, applyPatch, catalogPrompt, Draft } from './dist/studio/studio.js';
