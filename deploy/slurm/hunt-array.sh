#!/usr/bin/env bash
# A phihunt hunt as a Slurm job array: one shard per array task.
#
#   sbatch deploy/slurm/hunt-array.sh              # or deploy/slurm/submit.sh, which
#                                                  # also queues the merge after it
#
# Array ids 0..SHARDS-1 (`--array=0-7` for 8 shards): phihunt reads the id from
# SLURM_ARRAY_TASK_ID (`--shard auto/N`) and subtracts --shard-base 0; an array numbered
# from 1 (`--array=1-8`) needs `--shard-base 1`, and phihunt refuses to start when the
# array's first id (SLURM_ARRAY_TASK_MIN) or task count contradicts the base or N.
# A requeued task (`--requeue`, node failure) runs the same command and continues its
# shard in RESULTS/HUNT_ID/shard-I-of-N.
#
# Settings (environment, or edit the defaults): SHARDS (keep equal to the --array size),
# HUNT_ID, HUNT_SEED (one per hunt: every shard of a hunt has the same), HUNT_TIME,
# RESULTS (a file system every node sees), PHIHUNT (the binary), TARGETS, HUNT_ARGS
# (more hunt options, split on spaces).
#SBATCH --job-name=phihunt-hunt
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=08:30:00
#SBATCH --requeue
#SBATCH --output=phihunt-%A_%a.log
set -euo pipefail

SHARDS=${SHARDS:-8}
HUNT_ID=${HUNT_ID:-nightly-$(date -u +%Y%m%d)}
HUNT_SEED=${HUNT_SEED:-$(date -u +%Y%m%d)}
HUNT_TIME=${HUNT_TIME:-8h}
RESULTS=${RESULTS:-$HOME/phihunt-results}
PHIHUNT=${PHIHUNT:-phihunt}
TARGETS=${TARGETS:-x86_64,i686,aarch64,riscv64}
read -r -a extra <<< "${HUNT_ARGS:-}"

# Exit 1 means "findings", not failure: only 2 (bad input, a broken setup) fails the task.
status=0
"$PHIHUNT" hunt \
  --shard "auto/$SHARDS" --shard-base 0 \
  --seed "$HUNT_SEED" \
  --time "$HUNT_TIME" \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --targets "$TARGETS" \
  --corpus-found "$RESULTS/$HUNT_ID/corpus-found" \
  --out "$RESULTS/$HUNT_ID" \
  "${extra[@]}" || status=$?
[ "$status" -le 1 ] || exit "$status"
