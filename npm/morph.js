import glueInit from './dist/morph/morph.js';
import { makeInit } from './init.js';

export * from './dist/morph/morph.js';
/** Await once before calling the named exports. */
export default makeInit(glueInit, new URL('./dist/morph/morph_bg.wasm', import.meta.url));
