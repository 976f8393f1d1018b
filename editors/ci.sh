#!/usr/bin/env bash
# CI for the editor integrations, run from the repository root after `cargo build`:
# the TextMate grammar tests, the VS Code extension (build, type check, lint, package,
# tests), the Helix configuration, and real Neovim and Emacs (eglot) sessions against
# `cmg lsp`. It installs what it needs (Neovim, Emacs and eglot from apt, npm packages
# from the lock file) and fails loudly when something cannot be had. The last line
# counts the checks. The binary is ${CARGO_TARGET_DIR:-target}/debug/cmg unless
# CMG_BIN names another.
set -euo pipefail
cd "$(dirname "$0")/.."

CMG_BIN=${CMG_BIN:-${CARGO_TARGET_DIR:-target}/debug/cmg}
export CMG_BIN

die() {
  echo "editors/ci.sh: $*" >&2
  exit 1
}

[ -x "$CMG_BIN" ] || die "$CMG_BIN is missing: run \`cargo build\` first (or set CMG_BIN)"
for tool in node npm python3; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node.js 20 or later is needed (vsce), found $(node --version)"
missing=()
command -v nvim >/dev/null || missing+=(neovim)
command -v emacs >/dev/null || missing+=(emacs-nox)
dpkg -s elpa-eglot >/dev/null 2>&1 || missing+=(elpa-eglot)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}, and installing them needs root"
  echo "== installing ${missing[*]}"
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

passed=0
failed=0
failures=()

# Runs one check, prints its output under a header, and counts it; a failing check
# does not stop the others, so one run shows everything that is broken.
check() {
  local name=$1
  shift
  echo "== $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "editors/ci.sh: FAILED: $name" >&2
  fi
}

vscode() {
  (cd editors/vscode && "$@")
}

helix_config() {
  python3 - <<'PY'
import tomllib

with open("editors/helix/languages.toml", "rb") as file:
    config = tomllib.load(file)
[language] = config["language"]
assert language["name"] == "cmg" and language["file-types"] == ["cmg"], language
assert language["language-servers"] == ["cmg"], language
server = config["language-server"]["cmg"]
assert server["args"] == ["lsp"], server
# No settings by default: the server's own defaults apply.
assert "config" not in server, server
print("editors/helix/languages.toml is valid")
PY
}

neovim() {
  echo "$(nvim --version | head -n 1)"
  # The test quits Neovim itself; the timeout only guards against a hang.
  timeout 60 nvim --headless -u NONE -i NONE -c "luafile editors/neovim/test/test.lua"
}

emacs_eglot() {
  echo "$(emacs --version | head -n 1)"
  # `--no-init-file`, not `-Q`: Debian's site files put elpa-eglot on the load path.
  # The test shuts Emacs down itself; the timeout only guards against a hang.
  timeout 120 emacs --batch --no-init-file -L editors/emacs \
    -l editors/emacs/test/cmg-mode-test.el -f ert-run-tests-batch-and-exit
}

web_deps() {
  [ -d web/node_modules/pyodide ] || (cd web && npm ci --no-audit --no-fund)
}

# The extension's web entry embeds the WebAssembly core.
[ -n "${CMG_WASM:-}" ] || [ -f "${CARGO_TARGET_DIR:-target}/wasm/cmg.wasm" ] || bash .ci/wasm.sh
check "npm ci" vscode npm ci --no-audit --no-fund
# The web entry carries the playground's judge workers and Pyodide, from web/'s packages.
check "npm ci (web, for Pyodide)" web_deps
check "grammar tests" vscode npm run --silent test:grammar
check "vscode build" vscode npm run --silent build
check "vscode typecheck" vscode npm run --silent typecheck
check "vscode lint" vscode npm run --silent lint
check "vscode package" vscode npm run --silent package
check "vscode test" vscode npm test --silent
check "helix config" helix_config
check "neovim" neovim
check "emacs" emacs_eglot
check "neovim lenses" timeout 600 nvim --headless -u NONE -i NONE -c "luafile editors/neovim/test/lenses.lua"

if [ "$failed" -gt 0 ]; then
  echo "editors/ci.sh: failed: ${failures[*]}" >&2
fi
echo "editors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
