// Await the default export once, then use the named exports.
import glueInit from './dist/morph/morph.js';
import { makeInit } from './init.js';

export { morph, Preview } from './dist/morph/morph.js';
export default makeInit(glueInit, new URL('./dist/morph/morph_bg.wasm', import.meta.url));
