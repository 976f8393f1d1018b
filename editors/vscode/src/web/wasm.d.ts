// The WebAssembly core, embedded in the worker's bundle by scripts/build.mjs (esbuild's
// binary loader over $CARGO_TARGET_DIR/wasm/cmg.wasm, which .ci/wasm.sh builds).
declare module "cmg:wasm" {
  const bytes: Uint8Array;
  export default bytes;
}
