import type { Init } from './init.js';

export * from './dist/stream/stream.js';
declare const init: Init;
export default init;
