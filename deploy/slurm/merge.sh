#!/usr/bin/env bash
# Joins the shards of one hunt (hunt-array.sh) into RESULTS/HUNT_ID/merged; queued by
# submit.sh to run after every array task has ended (afterany: a failed shard is named
# by merge, which then refuses unless MERGE_ARGS=--allow-missing).
#SBATCH --job-name=phihunt-merge
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=phihunt-merge-%j.log
set -euo pipefail

HUNT_ID=${HUNT_ID:?HUNT_ID: the hunt to merge}
RESULTS=${RESULTS:-$HOME/phihunt-results}
PHIHUNT=${PHIHUNT:-phihunt}
read -r -a extra <<< "${MERGE_ARGS:-}"

# Exit 1 means "findings", not failure.
status=0
"$PHIHUNT" merge "$RESULTS/$HUNT_ID" --out "$RESULTS/$HUNT_ID/merged" "${extra[@]}" || status=$?
[ "$status" -le 1 ] || exit "$status"
