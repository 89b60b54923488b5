import type { Init } from './init.js';

/** Loads the Studio module (validator, stream, render) once; later calls reuse it. */
declare const init: Init;
export default init;
