import glueInit from './dist/stream/stream.js';
import { makeInit } from './init.js';

export * from './dist/stream/stream.js';
/** Await once before calling the named exports. */
export default makeInit(glueInit, new URL('./dist/stream/stream_bg.wasm', import.meta.url));
