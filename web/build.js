// The page's build worker: builds a map's table off the page's thread, so the page keeps
// drawing while it runs. It gets the compiled module, a `.map` file's bytes and the dense
// budget; it posts `{ progress: { done, total } }` as the build goes (from the module's
// `env.progress` import, at most every 50 ms), then `{ table, buildMs }` (the table saved by
// `save_table`, for the page's `load_saved`) or `{ error }`. One worker a build: the page ends
// it when the build is done or another map is picked.
'use strict';

onmessage = async ({ data }) => {
  const { module, bytes, denseUpToMiB } = data;
  let last = -Infinity;
  const progress = (done, total) => {
    const now = performance.now();
    if (now - last >= 50 || done === total) {
      last = now;
      postMessage({ progress: { done, total } });
    }
  };
  try {
    const wasm = (await WebAssembly.instantiate(module, { env: { progress } })).exports;
    const error = () => new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, wasm.error_ptr(), wasm.error_len()));
    const ptr = wasm.alloc(bytes.length);
    if (ptr === 0 && bytes.length > 0) return postMessage({ error: `no memory for the map's ${bytes.length} bytes` });
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    const start = performance.now();
    const rc = wasm.load_map(ptr, bytes.length, denseUpToMiB);
    const buildMs = performance.now() - start;
    wasm.dealloc(ptr, bytes.length);
    if (rc < 0 || wasm.save_table() < 0) return postMessage({ error: error() });
    const table = new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), wasm.out_len()).slice();
    wasm.unload();
    postMessage({ table, buildMs }, [table.buffer]);
  } catch (e) {
    postMessage({ error: String(e) });
  }
};
