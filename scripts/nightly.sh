#!/usr/bin/env bash
# Nightly campaign: set up, build, hunt generated C (every stage in the oracle, every
# target natively) and the IR generators for HOURS (default 8) on all cores, then the
# seeded-bug benchmark, the C generator's checks and gcc's whole c-torture suite.
# Everything lands in reports/nightly-<UTC date>/.
#   bash scripts/nightly.sh [HOURS]
# Resumable: a second invocation on the same UTC day continues today's hunt where it
# stopped (`phihunt hunt --resume`: same seed, settings, counts and findings) and redoes
# only the steps that did not finish. The seed is printed and stored in the hunt's
# state.json and report, so any finding is reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
hours="${1:-8}"
day="$(date -u +%Y%m%d)"
out="reports/nightly-$day"
mkdir -p "$out"
bash scripts/setup.sh
cargo build --release -p phihunt
phihunt=./target/release/phihunt
if [ -f "$out/seed" ]; then
  seed="$(cat "$out/seed")"
else
  seed="$(date -u +%s)"
  echo "$seed" >"$out/seed"
fi
status=0

# A step is done when its log ends with its closing line.
done_step() { [ -f "$1" ] && tail -n 1 "$1" | grep -Eq "$2"; }

# The hunt: generated C, csmith-free (gcc stays out of the inner loop), all IR generators,
# every target with a toolchain; at most 5 stored copies per signature.
if [ -f "$out/hunt/state.json" ]; then
  echo "nightly: resuming the hunt in $out/hunt"
  "$phihunt" hunt --resume "$out/hunt" | tee -a "$out/hunt.log" || status=$?
else
  echo "nightly: hunting ${hours}h with seed $seed into $out/hunt"
  "$phihunt" hunt --gen all --targets auto --time "${hours}h" --seed "$seed" \
    --keep-per-signature 5 --out "$out/hunt" | tee "$out/hunt.log" || status=$?
fi

# Every seeded bug, from IR (integer and float generators: the default `--gen all`) and from generated C.
if ! done_step "$out/mutants.log" '^[0-9]+ found, [0-9]+ missed'; then
  "$phihunt" bench mutants --budget 60s --seed "$seed" --out "$out/mutants" | tee "$out/mutants.log" || true
fi
if ! done_step "$out/mutants-c.log" '^[0-9]+ found, [0-9]+ missed'; then
  "$phihunt" bench mutants --gen c --budget 120s --seed "$seed" --out "$out/mutants-c" | tee "$out/mutants-c.log" || true
fi

# The C generator checked: gcc -O0 equals its expected output on 10,000 seeds, and 1,000
# seeds run clean under UBSan+ASan (failing seeds are saved; exit 1 if any).
if ! done_step "$out/cgen.log" 'programs, [0-9]+ failures'; then
  "$phihunt" bench cgen --count 10000 --seed-start "$seed" --out "$out/cgen" | tee "$out/cgen.log" || status=1
fi
if ! done_step "$out/cgen-sanitize.log" 'programs, [0-9]+ failures'; then
  "$phihunt" bench cgen --count 1000 --seed-start "$seed" --no-gcc --sanitize --out "$out/cgen-sanitize" | tee "$out/cgen-sanitize.log" || status=1
fi
# gcc's c-torture suite, whole, on every target, against corpus/torture/expected-failures.txt
# (a killed run continues from its journal, $out/torture/results.jsonl).
if ! done_step "$out/torture.log" 'problem\(s\) against'; then
  bash scripts/c-torture.sh run -- --jobs "$(nproc)" --out "$out/torture" | tee "$out/torture.log" || status=1
fi
# libFuzzer fork mode on the differential fuzz target, an hour, on all cores (needs the
# nightly toolchain and cargo-fuzz; skipped without them). Findings in $out/fuzz-findings.
if ! done_step "$out/fuzz-fork.log" '^fuzz-fork: [0-9]+ finding input'; then
  if cargo +nightly fuzz --version >/dev/null 2>&1; then
    PHIHUNT_FUZZ_FINDINGS="$out/fuzz-findings" bash scripts/fuzz-fork.sh ir_pipeline 3600 "$(nproc)" \
      2>"$out/fuzz-fork.stderr" | tee "$out/fuzz-fork.log" || status=1
  else
    echo "nightly: no nightly toolchain with cargo-fuzz: fuzz-fork skipped"
  fi
fi
echo "nightly: report $out/hunt/report.md; seeded-bug tables $out/mutants.log, $out/mutants-c.log; c-torture $out/torture/report.md"
# 0: no finding; 1: findings or a generator check failed (reduced copies are in corpus/found/, commit them); 2: error.
exit "$status"
