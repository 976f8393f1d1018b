#!/usr/bin/env bash
# The WebAssembly build and the playground: builds the .wasm (.ci/wasm.sh, which installs
# its toolchain), checks it against the native build on every example and several
# hundred random graphs (web/test/wasm-native.mjs), builds the static site into
# ${CARGO_TARGET_DIR:-target}/playground/ and drives it in headless Chromium
# (web/test/playground.mjs; screenshots in ${CARGO_TARGET_DIR:-target}/artifacts/), then
# its judge panel (web/test/judge.mjs).
# Fails loudly when a tool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "playground.sh: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is not installed"
command -v npm >/dev/null || fail "npm is not installed"
target=${CARGO_TARGET_DIR:-target}
case $target in
  /*) ;;
  *) target=$PWD/$target ;;
esac

bash .ci/wasm.sh

echo "== playground: npm ci"
# playwright-core never downloads a browser; this makes sure nothing else tries either.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
(cd web && npm ci --no-audit --no-fund)

echo "== playground: the .wasm against the native build"
cargo build --quiet
CMG_WASM=$target/wasm/cmg.wasm CMG=$target/debug/cmg node --test web/test/wasm-native.mjs

echo "== playground: typecheck"
(cd web && npx tsc --noEmit -p .)

echo "== playground: build the site into $target/playground"
node web/playground/build.mjs "$target/playground" --wasm "$target/wasm/cmg.wasm"

echo "== playground: in headless Chromium"
if [ ! -x /usr/bin/chromium ]; then
  command -v apt-get >/dev/null || fail "/usr/bin/chromium is missing and apt-get is not available to install it"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || fail "cannot install chromium"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is still missing"
CMG=$target/debug/cmg node web/test/playground.mjs "$target/playground"
echo "== playground: the judge panel (Python in Pyodide, JavaScript) in headless Chromium"
CMG=$target/debug/cmg node web/test/judge.mjs "$target/playground"
node web/test/playground-ui.mjs "$target/playground"
