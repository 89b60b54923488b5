import type { Init } from './init.js';

export * from './dist/validator/validator.js';
declare const init: Init;
export default init;
