#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh the way ClusterFuzzLite's build image does, without
# docker: the image's environment (OSS-Fuzz's `compile` for a Rust project with libFuzzer
# on x86_64) into fresh temporary $SRC, $OUT and $WORK, build.sh copied to $SRC/build.sh
# and run as `bash -eux $SRC/build.sh` from $SRC/phihunt. Then checks what a fuzzing run
# needs from $OUT: one executable per fuzz/fuzz_targets/*.rs that runs inputs, and seed
# corpora that unzip.
#   bash scripts/cflite-local.sh                 # SANITIZER=address
#   SANITIZER=undefined bash scripts/cflite-local.sh
#   CARGO_TARGET_DIR=fuzz/target bash ...        # reuse a fuzz build (else $WORK's, deleted)
#   KEEP=1 bash ...                              # keep $OUT and $WORK, print where
# Differences from the image, by necessity: clang is this machine's (the image has its
# own), no libc++ (`-stdlib=libc++` left out of CXXFLAGS) and no prebuilt libFuzzer
# (CUSTOM_LIBFUZZER_PATH unset: libfuzzer-sys builds its own, as it does outside OSS-Fuzz).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

SRC=$(mktemp -d)
OUT=$(mktemp -d)
WORK=$(mktemp -d)
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  rm -rf "$SRC"
  if [ "${KEEP:-0}" = 1 ]; then
    echo "cflite-local: kept OUT=$OUT WORK=$WORK"
  else
    rm -rf "$OUT" "$WORK"
  fi
}
trap cleanup EXIT
ln -s "$repo" "$SRC/phihunt"
cp "$repo/.clusterfuzzlite/build.sh" "$SRC/build.sh"

export SRC OUT WORK
export SANITIZER=${SANITIZER:-address}
export FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=rust ARCHITECTURE=x86_64
export CC=clang CXX=clang++
case "$SANITIZER" in
  address) sanitizer_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
  undefined) sanitizer_flags="-fsanitize=array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr -fno-sanitize-recover=array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr" ;;
  *) sanitizer_flags="" ;;
esac
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $sanitizer_flags -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
if [ "$SANITIZER" = address ] || [ "$SANITIZER" = memory ]; then
  export RUSTFLAGS="--cfg fuzzing -Zsanitizer=$SANITIZER -Cdebuginfo=1 -Cforce-frame-pointers"
else
  export RUSTFLAGS="--cfg fuzzing -Cdebuginfo=1 -Cforce-frame-pointers"
fi
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
  CARGO_TARGET_DIR=$(cd "$repo" && mkdir -p "$CARGO_TARGET_DIR" && cd "$CARGO_TARGET_DIR" && pwd)
  export CARGO_TARGET_DIR
fi
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}

echo "cflite-local: SRC=$SRC OUT=$OUT WORK=$WORK SANITIZER=$SANITIZER"
echo "cflite-local: RUSTFLAGS=$RUSTFLAGS"
start=$(date +%s)
(cd "$SRC/phihunt" && bash -eux "$SRC/build.sh")
echo "cflite-local: build.sh took $(($(date +%s) - start)) s"

# What ClusterFuzzLite's runner needs from $OUT.
status=0
for f in "$repo"/fuzz/fuzz_targets/*.rs; do
  t=$(basename "$f" .rs)
  if [ ! -x "$OUT/$t" ]; then
    echo "cflite-local: $OUT/$t is missing" >&2
    status=1
    continue
  fi
  # 64 generated inputs through the installed fuzzer, in the libFuzzer way the runner
  # starts it; findings (none expected) go to $WORK, not to the checkout.
  mkdir -p "$WORK/corpus-$t"
  if ! (cd "$WORK" && PHIHUNT_TARGETS=none PHIHUNT_FUZZ_FINDINGS="$WORK/findings" \
    "$OUT/$t" -runs=64 -seed=1 "$WORK/corpus-$t" >"$WORK/$t.log" 2>&1); then
    echo "cflite-local: $t failed on 64 inputs:" >&2
    tail -n 20 "$WORK/$t.log" >&2
    status=1
  else
    echo "cflite-local: $t: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$WORK/$t.log" | tail -n 1)"
  fi
done
for z in "$OUT"/*_seed_corpus.zip; do
  [ -e "$z" ] || continue
  unzip -tq "$z" >/dev/null || { echo "cflite-local: $z does not unzip" >&2; status=1; }
  echo "cflite-local: $(basename "$z"): $(unzip -Z1 "$z" | wc -l) files"
done
exit "$status"
