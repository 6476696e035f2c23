#!/usr/bin/env bash
# ClusterFuzzLite / OSS-Fuzz build script: builds phihunt's cargo-fuzz targets (every
# fuzz/fuzz_targets/*.rs) and puts them, with seed corpora from the regression corpus, in
# $OUT.
#
# Environment (set by ClusterFuzzLite's build image, which runs this as
# `bash -eux $SRC/build.sh` from WORKDIR $SRC/phihunt; set them by hand to run it locally:
# scripts/cflite-local.sh does, into temporary folders):
#   SRC  the parent of the checkout ($SRC/phihunt)     OUT  where fuzzers go
#   WORK  scratch space for the build: the cargo target folder goes there
#         ($WORK/cargo-target) unless CARGO_TARGET_DIR is set
#   SANITIZER  address (default) | memory | undefined | coverage | none
#   FUZZING_ENGINE  libfuzzer (the only engine cargo-fuzz drives; others are refused)
#   ARCHITECTURE  x86_64 (the only one built; i386 is refused)
#   RUSTFLAGS  the image's (`--cfg fuzzing -Zsanitizer=... -Cdebuginfo=1
#         -Cforce-frame-pointers`): kept, cargo-fuzz adds its own after them; in coverage
#         builds the image's `cargo` wrapper turns `cargo fuzz build` into a plain build
#         with them
#   CC, CXX, CFLAGS, CXXFLAGS: used by the crates that compile C (mimalloc, libFuzzer in
#         libfuzzer-sys unless CUSTOM_LIBFUZZER_PATH names the image's libFuzzer)
set -euo pipefail
: "${SRC:?SRC: the directory holding the phihunt checkout}"
: "${OUT:?OUT: where the fuzzers go}"
cd "$SRC/phihunt"

engine=${FUZZING_ENGINE:-libfuzzer}
if [ "$engine" != libfuzzer ]; then
  echo "build.sh: FUZZING_ENGINE=$engine: phihunt's targets are cargo-fuzz (libFuzzer) targets" >&2
  exit 1
fi
arch=${ARCHITECTURE:-x86_64}
if [ "$arch" != x86_64 ]; then
  echo "build.sh: ARCHITECTURE=$arch: only x86_64 is built" >&2
  exit 1
fi

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

# The target folder: $CARGO_TARGET_DIR, else $WORK/cargo-target, else the workspace's
# (fuzz/ is a workspace member). Exported, so that the image's cargo wrapper, which asks
# `cargo metadata` where the target folder is, agrees with --target-dir.
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  if [ -n "${WORK:-}" ]; then
    CARGO_TARGET_DIR=$WORK/cargo-target
  else
    CARGO_TARGET_DIR=$PWD/target
  fi
fi
export CARGO_TARGET_DIR

# Every fuzz target, from its source file: a new target is built without editing this.
targets=()
for f in fuzz/fuzz_targets/*.rs; do
  targets+=("$(basename "$f" .rs)")
done

# All targets at once (one build of the workspace).
"${cargo_fuzz[@]}" build -O --sanitizer "$sanitizer" --target-dir "$CARGO_TARGET_DIR"

bin_dir=$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release
for t in "${targets[@]}"; do
  install -m 0755 "$bin_dir/$t" "$OUT/$t"
done

# libFuzzer options ClusterFuzzLite passes to a target ($OUT/TARGET.options). The
# differential targets read generator choices from the bytes and a short input is a tiny
# program: start at the full length instead of libFuzzer's slow length schedule
# (docs/cargo-fuzz.md: without it a fork run stayed at 42% of the coverage).
for t in ir_pipeline phi_elim; do
  printf '[libfuzzer]\nlen_control = 0\nmax_len = 4096\n' >"$OUT/$t.options"
done

# Seed corpora: the regression corpus's IR for the IR parser, its C for the front end,
# under their corpus paths (two files of one name in different folders stay apart).
# (ir_pipeline and phi_elim read generator choices, not text: libFuzzer starts them empty.)
seed_zip() {
  local name=$1; shift
  local list
  list=$(mktemp)
  find "$@" -type f >"$list"
  if [ -s "$list" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    zip -q "$OUT/${name}_seed_corpus.zip" -@ <"$list"
  fi
  rm -f "$list"
}
seed_zip ir_parse corpus -name '*.ir'
seed_zip c_frontend corpus/c -name '*.c'
echo "build.sh: ${targets[*]} in $OUT (sanitizer $sanitizer, target folder $CARGO_TARGET_DIR)"
