#!/usr/bin/env bash
# Builds crates/cmg-wasm and crates/cmg-judge-wasm for wasm32-unknown-unknown and shrinks
# them with wasm-opt: ${CARGO_TARGET_DIR:-target}/wasm/cmg.wasm and judge.wasm (the judge,
# which the playground loads only when a judge runs). With rustup's toolchain when it has the
# wasm32 standard library (`rustup target add wasm32-unknown-unknown`); otherwise with
# Debian's rustc-web, which builds that library from rust-web-src (-Zbuild-std), as on
# machines where rustup cannot download it. Installs what is missing with apt-get, says
# which toolchain it used, and fails loudly when something is still missing.
# docs/dev/decisions.md, "WebAssembly: toolchain and bindings", says why.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "wasm.sh: $*" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-target}
case $target in
  /*) ;;
  *) target=$PWD/$target ;;
esac
# Its own target directory, so that switching toolchains and targets never throws
# away the native build's artifacts.
build_dir=$target/wasm-build
out_dir=$target/wasm
mkdir -p "$out_dir"

apt_install() {
  command -v apt-get >/dev/null || fail "$* missing and apt-get is not available to install it"
  echo "== wasm: apt-get install $*"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || fail "cannot install $*"
}

if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  toolchain="rustup $(rustc --version) with its wasm32-unknown-unknown standard library"
  build() { cargo build --profile dist --target wasm32-unknown-unknown -p cmg-wasm -p cmg-judge-wasm --target-dir "$build_dir"; }
else
  missing=()
  [ -x /usr/bin/rustc ] && /usr/bin/rustc --version | grep -q . || missing+=(rustc-web)
  [ -x /usr/bin/cargo ] || missing+=(cargo-web)
  [ -d /usr/lib/rustlib/src/rust/library ] || missing+=(rust-web-src)
  command -v wasm-ld >/dev/null || missing+=(lld)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  [ -d /usr/lib/rustlib/src/rust/library ] || fail "rust-web-src did not install /usr/lib/rustlib/src/rust/library"
  command -v wasm-ld >/dev/null || fail "wasm-ld is still missing (Debian's lld)"
  toolchain="Debian $(/usr/bin/rustc --version), standard library built from rust-web-src (-Zbuild-std)"
  build() {
    # rustup's proxies come first on PATH; Debian's rustc and cargo are asked for by
    # name. RUSTC_BOOTSTRAP lets this stable compiler take -Zbuild-std.
    env -u RUSTUP_TOOLCHAIN PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
      RUSTFLAGS="-C linker=wasm-ld" \
      /usr/bin/cargo build --profile dist --target wasm32-unknown-unknown \
      -Zbuild-std=std,panic_abort -p cmg-wasm -p cmg-judge-wasm --target-dir "$build_dir"
  }
fi
command -v wasm-opt >/dev/null || apt_install binaryen
command -v wasm-opt >/dev/null || fail "wasm-opt is still missing (Debian's binaryen)"


echo "== wasm: toolchain: $toolchain"
start=$SECONDS
build
echo "-- wasm: cargo build: $((SECONDS - start)) s"
command -v wasm-dis >/dev/null || fail "wasm-dis is missing (Debian's binaryen)"
# shrink CRATE OUT: checks and shrinks one module.
shrink() {
  local raw=$build_dir/wasm32-unknown-unknown/dist/$1.wasm out=$out_dir/$2
  [ -f "$raw" ] || fail "the build left no $raw"
  # The solver never starts a thread here (cmg_solve::CAN_SPAWN_THREADS): the unoptimised
  # module's function names must hold no thread spawn.
  local functions spawns bytes gzipped
  functions=$(wasm-dis "$raw" | grep -oE '^ *\(func \$[^ ]*' || true)
  # Without the name section there would be nothing to check.
  grep -q "$1" <<<"$functions" || fail "the unoptimised $1.wasm has no function names to check"
  spawns=$(grep -E '(thread[^ ]*spawn|spawn_unchecked)' <<<"$functions" || true)
  [ -z "$spawns" ] || fail "$1.wasm can spawn a thread: $(head -3 <<<"$spawns")"
  echo "-- wasm: no thread spawn among the $(wc -l <<<"$functions") functions of $1"
  wasm-opt -Oz --strip-debug --strip-producers "$raw" -o "$out"
  bytes=$(wc -c <"$out")
  gzipped=$(gzip -9 -c "$out" | wc -c)
  echo "-- wasm: $out: $bytes bytes, $gzipped gzipped (before wasm-opt: $(wc -c <"$raw"))"
}
shrink cmg_wasm cmg.wasm
shrink cmg_judge_wasm judge.wasm
echo "$toolchain" >"$out_dir/toolchain.txt"
