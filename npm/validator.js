import glueInit from './dist/validator/validator.js';
import { makeInit } from './init.js';

export * from './dist/validator/validator.js';
/** Await once before calling the named exports. */
export default makeInit(glueInit, new URL('./dist/validator/validator_bg.wasm', import.meta.url));
