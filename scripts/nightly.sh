#!/usr/bin/env bash
# Nightly campaign: set up, build, hunt for HOURS (default 8) on all cores, then measure
# the harness on every seeded bug. Everything lands in reports/nightly-<UTC date>/.
#   bash scripts/nightly.sh [HOURS]
# The seed is printed and stored in the report, so any finding is reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
hours="${1:-8}"
stamp="$(date -u +%Y%m%d-%H%M%S)"
out="reports/nightly-$stamp"
mkdir -p "$out"
bash scripts/setup.sh
cargo build --release -p phihunt
seed="$(date -u +%s)"
echo "nightly: hunting ${hours}h with seed $seed into $out"
status=0
./target/release/phihunt hunt --time "${hours}h" --seed "$seed" --out "$out/hunt" | tee "$out/hunt.log" || status=$?
./target/release/phihunt bench mutants --budget 60s --seed "$seed" --out "$out/mutants" | tee "$out/mutants.log" || true
# The C generator checked: gcc -O0 equals its expected output on 10,000 seeds, and 1,000
# seeds run clean under UBSan+ASan (failing seeds are saved; exit 1 if any).
./target/release/phihunt bench cgen --count 10000 --seed-start "$seed" --out "$out/cgen" | tee "$out/cgen.log" || status=1
./target/release/phihunt bench cgen --count 1000 --seed-start "$seed" --no-gcc --sanitize --out "$out/cgen-sanitize" | tee "$out/cgen-sanitize.log" || status=1
echo "nightly: report $out/hunt/report.md; seeded-bug table $out/mutants.log"
# 0: no finding; 1: findings or a generator check failed (reduced copies are in corpus/found/, commit them); 2: error.
exit "$status"
