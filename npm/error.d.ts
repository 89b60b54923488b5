import type { ErrorCode } from './types.js';

/** The only error the package throws. */
export declare class SurfacesError extends Error {
  constructor(code: ErrorCode, path: string, message: string);
  readonly name: 'SurfacesError';
  readonly code: ErrorCode;
  /** A JSON Pointer (into the argument or the options), or "". */
  readonly path: string;
}
