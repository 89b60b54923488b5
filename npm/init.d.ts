/** Loads the part's WebAssembly once; later calls return the same promise. */
export type Init = (input?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module) => Promise<void>;
