#!/usr/bin/env bash
# ClusterFuzzLite / OSS-Fuzz build script: builds phihunt's cargo-fuzz targets and puts
# them, with seed corpora from the regression corpus, in $OUT.
#
# Environment (set by ClusterFuzzLite's build image; set them by hand to run it locally):
#   SRC  the parent of the checkout ($SRC/phihunt)     OUT  where fuzzers go
#   SANITIZER  address (default) | memory | undefined | coverage | none
#   CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE: for C/C++ code; this build compiles
#   none (mimalloc's C is built by its crate with $CC), libFuzzer comes from libfuzzer-sys.
# Locally (see docs/scaling.md):
#   SRC=$(mktemp -d); ln -s "$PWD" "$SRC/phihunt"; OUT=$(mktemp -d) SANITIZER=address \
#     CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer bash .clusterfuzzlite/build.sh
set -euo pipefail
: "${SRC:?SRC: the directory holding the phihunt checkout}"
: "${OUT:?OUT: where the fuzzers go}"
cd "$SRC/phihunt"

# Safe Rust gains little from ASan and nothing from UBSan's C checks: only `address` and
# `memory` instrument; the rest build plain (coverage builds get their flags from
# RUSTFLAGS, as OSS-Fuzz's cargo wrapper sets them).
case "${SANITIZER:-address}" in
  address) sanitizer=address ;;
  memory) sanitizer=memory ;;
  *) sanitizer=none ;;
esac

# Outside OSS-Fuzz's image, cargo-fuzz needs the nightly toolchain named.
cargo_fuzz=(cargo fuzz)
if ! cargo fuzz --version >/dev/null 2>&1 || ! rustc --version | grep -q nightly; then
  cargo_fuzz=(cargo +nightly fuzz)
fi

# Every target of fuzz/Cargo.toml at once (one build of the workspace), in the
# workspace's target directory (fuzz/ is a workspace member) or $CARGO_TARGET_DIR.
target_dir=${CARGO_TARGET_DIR:-target}
"${cargo_fuzz[@]}" build -O --sanitizer "$sanitizer" --target-dir "$target_dir"
targets=(ir_parse ir_pipeline phi_elim c_frontend)

bin_dir=$target_dir/x86_64-unknown-linux-gnu/release
for t in "${targets[@]}"; do
  install -m 0755 "$bin_dir/$t" "$OUT/$t"
done

# Seed corpora: the regression corpus's IR for the IR parser, its C for the front end.
# (ir_pipeline and phi_elim read generator choices, not text: libFuzzer starts them empty.)
seed_zip() {
  local name=$1; shift
  local list
  list=$(mktemp)
  find "$@" -type f >"$list"
  if [ -s "$list" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    zip -q -j "$OUT/${name}_seed_corpus.zip" -@ <"$list"
  fi
  rm -f "$list"
}
seed_zip ir_parse corpus -name '*.ir'
seed_zip c_frontend corpus/c -name '*.c'
echo "build.sh: ${targets[*]} in $OUT (sanitizer $sanitizer)"
