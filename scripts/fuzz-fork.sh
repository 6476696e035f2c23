#!/usr/bin/env bash
# libFuzzer fork mode on one cargo-fuzz target, findings in phihunt's layout.
#   bash scripts/fuzz-fork.sh [TARGET] [SECONDS] [FORKS]   # default: ir_pipeline 600 2
# Builds the target (`cargo +nightly fuzz build -O`, ASan, in $FUZZ_TARGET_DIR, default
# fuzz/target), then `cargo +nightly fuzz run -O TARGET -- -fork=FORKS -ignore_crashes=1
# -max_total_time=SECONDS -len_control=0 -max_len=4096`: FORKS worker processes on the
# corpus fuzz/corpus/TARGET, a crash does not stop the run. Every finding is saved by the target itself before it
# crashes, under $PHIHUNT_FUZZ_FINDINGS (default fuzz/findings): one folder per bug
# signature (input.ir for `phihunt check` / `phihunt reduce`, finding.json, input.bin)
# and one line per input in its inputs.txt (docs/cargo-fuzz.md). libFuzzer's own crash
# files go to fuzz/artifacts/TARGET/ as usual.
# Environment: PHIHUNT_MUTANT (a seeded bug: check the whole path), PHIHUNT_TARGETS
# (native stages; default here `none`: the middle end only), PHIHUNT_NATIVE_EVERY,
# CARGO_BUILD_JOBS (default 1), FUZZ_TARGET_DIR, FUZZ_RUN_ARGS (more libFuzzer flags).
# Exit: 0 no finding, 1 findings (listed at the end), 2 setup or build error.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-ir_pipeline}
seconds=${2:-600}
forks=${3:-2}
target_dir=${FUZZ_TARGET_DIR:-fuzz/target}
findings=${PHIHUNT_FUZZ_FINDINGS:-fuzz/findings}
export PHIHUNT_FUZZ_FINDINGS=$findings PHIHUNT_TARGETS=${PHIHUNT_TARGETS:-none}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}

if [ ! -f "fuzz/fuzz_targets/$target.rs" ]; then
  echo "fuzz-fork: no target $target (fuzz/fuzz_targets/*.rs)" >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz-fork: needs the nightly toolchain and cargo-fuzz (scripts/setup.sh installs them)" >&2
  exit 2
fi

# The number of saved inputs (lines of every signature's inputs.txt) tells what this run added.
count_inputs() {
  if [ -d "$findings" ]; then
    find "$findings" -mindepth 2 -maxdepth 2 -name inputs.txt -exec cat {} + | wc -l
  else
    echo 0
  fi
}

fuzz=(cargo +nightly fuzz)
"${fuzz[@]}" build -O "$target" --target-dir "$target_dir" || exit 2
before=$(count_inputs)
mkdir -p "fuzz/corpus/$target"
echo "fuzz-fork: $target, $forks forks, ${seconds}s, PHIHUNT_MUTANT=${PHIHUNT_MUTANT:-} PHIHUNT_TARGETS=$PHIHUNT_TARGETS, findings in $findings"
start=$(date +%s)
# -len_control=0 -max_len=4096: the differential targets read generator choices from the
# bytes, and a short input is a tiny program. libFuzzer's default length schedule grows
# inputs only after ~100 x log(N) runs without new coverage: at the 15-40 exec/s of these
# targets under ASan that keeps them short for hours (a 125 s run stayed at coverage 5,010
# and found no seeded bug; with these flags coverage reached 11,966 in 131 s).
# shellcheck disable=SC2086  # FUZZ_RUN_ARGS is a list of flags
"${fuzz[@]}" run -O "$target" --target-dir "$target_dir" -- \
  -fork="$forks" -ignore_crashes=1 -max_total_time="$seconds" -print_final_stats=1 \
  -len_control=0 -max_len=4096 ${FUZZ_RUN_ARGS:-} || {
  rc=$?
  # With -ignore_crashes libFuzzer ends 0 after its time; anything else is a broken run,
  # unless the findings folder explains it.
  echo "fuzz-fork: cargo fuzz run exited $rc" >&2
}
after=$(count_inputs)
if [ "$after" -gt "$before" ]; then
  for d in "$findings"/*/; do
    [ -f "$d/inputs.txt" ] || continue
    echo "  $(basename "$d"): $(wc -l <"$d/inputs.txt") input(s); replay: phihunt ${PHIHUNT_MUTANT:+--mutant $PHIHUNT_MUTANT }check --targets none ${d}input.ir"
  done
fi
# The last line, which scripts/nightly.sh looks for.
echo "fuzz-fork: $((after - before)) finding input(s) saved in $(($(date +%s) - start)) s"
if [ "$after" -gt "$before" ]; then
  exit 1
fi
if [ -n "${rc:-}" ]; then
  exit 2
fi
exit 0
