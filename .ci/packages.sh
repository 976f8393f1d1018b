#!/usr/bin/env bash
# Install without Rust: builds the two packages a person without a Rust toolchain
# installs, from one optimised build, and checks each as that person would use it.
#
# 1. maturin (pip, into its own virtual environment) builds the wheel with
#    `maturin build --profile dist --locked`; the cargo build inside it is the one
#    build of Cargo.toml's `dist` profile (release, optimised across crates), and it
#    leaves the binary in target/dist/ as well.
# 2. The wheel is pip-installed into a fresh virtual environment, and the README's
#    first example runs with the `cmg` it put on PATH (.ci/readme_example.py).
# 3. `npm run package:bundled` packs that same installed `cmg` into the platform
#    .vsix (CMG_SERVER_BINARY), and `npm run test:bundled` checks the package.
#
# The wheel and the .vsix land in ${CARGO_TARGET_DIR:-target}/packages/. .ci/run runs
# this on Linux, then gives the .vsix to the real-VS-Code test; the release workflow
# (.github/workflows/release.yml) runs the same script on Linux, macOS and Windows.
# Needs Python 3.11 or later (tomllib) with venv, Node.js 20 and npm, and cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

die() {
  echo ".ci/packages.sh: $*" >&2
  exit 1
}

# The one pinned build tool; pyproject.toml's build-system allows any maturin 1.x from 1.9.
MATURIN=maturin==1.16.0

target=${CARGO_TARGET_DIR:-target}
case $target in
  /*) ;;
  *) target=$root/$target ;;
esac
out=$target/packages

case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN*) exe=.exe scripts=Scripts ;;
  *) exe="" scripts=bin ;;
esac
python=${PYTHON:-}
if [ -z "$python" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      python=$candidate
      break
    fi
  done
fi
[ -n "$python" ] || die "Python 3.11 or later is needed (python3 or python on PATH, or set PYTHON)"
for tool in cargo node npm; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
"$python" -m venv --help >/dev/null 2>&1 || die "$python has no venv module (Debian: apt-get install python3-venv)"
version=$("$python" -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')

echo "== maturin ($MATURIN, pip into $target/venvs/maturin)"
build_env=$target/venvs/maturin
if ! "$build_env/$scripts/python" -m pip show --quiet maturin >/dev/null 2>&1 ||
  [ "$("$build_env/$scripts/maturin" --version 2>/dev/null)" != "maturin ${MATURIN#maturin==}" ]; then
  rm -rf "$build_env"
  "$python" -m venv "$build_env"
  "$build_env/$scripts/python" -m pip install --quiet --disable-pip-version-check "$MATURIN"
fi
"$build_env/$scripts/maturin" --version

echo "== the wheel: maturin build --profile dist --locked (the one dist build)"
rm -rf "$out"
mkdir -p "$out"
start=$SECONDS
# On Linux the binary links glibc statically (a static PIE, still loaded at a random
# address): it needs no particular glibc on the machine it is installed on, and a small
# `cmg solve` takes about two thirds of the time, with no shared libraries to find, load
# and bind (BENCHMARKS.md, "Process start, and the packaged binary";
# docs/dev/decisions.md). The flag goes to the `cmg` binary's own rustc
# call only, where the link happens: in RUSTFLAGS it would reach the proc-macro crates,
# which cannot be static.
rustc_args=()
case "$(uname -s)" in
  Linux) rustc_args=(-- -C target-feature=+crt-static) ;;
esac
"$build_env/$scripts/maturin" build --profile dist --locked --out "$out" "${rustc_args[@]}"
echo "maturin build took $((SECONDS - start)) s"
wheels=("$out"/cmg_cat_mouse-"$version"-*.whl)
[ ${#wheels[@]} -eq 1 ] && [ -f "${wheels[0]}" ] || die "want one cmg_cat_mouse-$version wheel in $out, found: $(ls "$out")"
wheel=${wheels[0]}

echo "== pip install $(basename "$wheel") into a fresh virtual environment"
fresh=$target/venvs/fresh
rm -rf "$fresh"
"$python" -m venv "$fresh"
"$fresh/$scripts/python" -m pip install --quiet --disable-pip-version-check --no-index "$wheel"
cmg=$fresh/$scripts/cmg$exe
[ -x "$cmg" ] || die "the wheel put no $scripts/cmg$exe into the environment"
said=$("$cmg" --version)
[ "$said" = "cmg $version" ] || die "the wheel's cmg says \"$said\", not \"cmg $version\""
if [ "$(uname -s)" = Linux ]; then
  # The static link above is what lets the wheel claim any glibc: a binary that still
  # names shared libraries would not run where its glibc is missing.
  needed=$(readelf -d "$cmg" | grep '(NEEDED)' || true)
  [ -z "$needed" ] || die "the wheel's cmg is not static; it needs: $needed"
  echo "static: the wheel's cmg needs no shared library"
fi
echo "$said at $cmg"

echo "== the README's first example with the wheel's cmg"
"$fresh/$scripts/python" .ci/readme_example.py "$fresh/$scripts"

# The .vsix's web entry carries the WebAssembly core: CMG_WASM when given (the release
# workflow builds it once), else built here.
if [ -z "${CMG_WASM:-}" ] && [ ! -f "$target/wasm/cmg.wasm" ]; then
  bash .ci/wasm.sh
fi
echo "== the platform .vsix with the wheel's cmg inside (npm run package:bundled)"
(
  cd editors/vscode
  [ -d node_modules ] || npm ci --no-audit --no-fund
  npm run --silent package
  CMG_SERVER_BINARY=$cmg npm run --silent package:bundled
)
vsixes=(editors/vscode/cmg-*-"$version".vsix)
[ ${#vsixes[@]} -eq 1 ] && [ -f "${vsixes[0]}" ] || die "want one platform .vsix in editors/vscode, found: ${vsixes[*]}"
mv "${vsixes[0]}" "$out/"
cp "editors/vscode/cmg-$version.vsix" "$out/"
vsix=$out/$(basename "${vsixes[0]}")
(cd editors/vscode && CMG_BUNDLED_VSIX=$vsix npm run --silent test:bundled)

echo "== packages in $out"
ls -l "$out"
