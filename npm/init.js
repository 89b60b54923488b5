// Shared by the entry points: an async init() that loads a part's wasm once.
// Browsers (and bundlers such as Vite, which see the `new URL(..., import.meta.url)`
// in each entry) fetch it; Node reads the file, since its fetch has no file: URLs.
export function makeInit(glueInit, wasmUrl) {
  let ready;
  return function init(input) {
    ready ??= (async () => {
      let source = input ?? wasmUrl;
      const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises');
      if (input === undefined && fs && wasmUrl.protocol === 'file:') source = await fs.readFile(wasmUrl);
      await glueInit({ module_or_path: source });
    })();
    return ready;
  };
}
