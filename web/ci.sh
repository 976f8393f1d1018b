#!/usr/bin/env bash
# CI for the game view (web/): installs what it needs on a fresh machine (Debian's
# chromium, the npm packages from package-lock.json), checks that the committed bundle
# in dist/ is what the sources build to, runs the unit tests under node's test runner,
# then the real-browser tests against `cmg view` (rules.mjs: a file with every rule). Screenshots: ${CARGO_TARGET_DIR:-target}/artifacts/.
set -euo pipefail
cd "$(dirname "$0")"

fail() { echo "web/ci.sh: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is not installed"
command -v npm >/dev/null || fail "npm is not installed"
if [ ! -x /usr/bin/chromium ]; then
  command -v apt-get >/dev/null || fail "/usr/bin/chromium is missing and apt-get is not available to install it"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null || fail "cannot install chromium"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is still missing"

# playwright-core never downloads a browser; this makes sure nothing else tries either.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
echo "== web: npm ci"
npm ci --no-audit --no-fund

echo "== web: typecheck"
npx tsc --noEmit -p .

echo "== web: dist/ is the build of src/"
before=$(cat dist/view.js dist/view.css | sha256sum)
node build.mjs
after=$(cat dist/view.js dist/view.css | sha256sum)
[ "$before" = "$after" ] || fail "web/dist is stale: run 'node web/build.mjs' and commit web/dist (cmg embeds it)"

echo "== web: unit tests"
npm test

echo "== web: browser test (cmg view in headless Chromium)"
(cd .. && cargo build --quiet)
target=${CARGO_TARGET_DIR:-target}
case $target in
  /*) ;;
  *) target=../$target ;;
esac
node test/browser.mjs "$target/debug/cmg"
echo "== web: strategy panel and what-if marks (headless Chromium)"
node test/strategy.mjs "$target/debug/cmg"
echo "== web: a file with every rule (holes, starts, one-way edges, the limit) in headless Chromium"
node test/rules.mjs "$target/debug/cmg"
