import type { Init } from './init.js';

export { morph, Preview } from './dist/morph/morph.js';
declare const init: Init;
export default init;
