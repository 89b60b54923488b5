// The one init() shared by ./validator, ./stream and ./render: they are parts
// of one wasm module (crates/studio), loaded once.
import glueInit from './dist/studio/studio.js';
import { makeInit } from './init.js';

export default makeInit(glueInit, new URL('./dist/studio/studio_bg.wasm', import.meta.url));
