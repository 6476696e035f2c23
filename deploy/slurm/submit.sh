#!/usr/bin/env bash
# Queues one hunt (hunt-array.sh, SHARDS array tasks) and its merge (merge.sh) after it.
#   HUNT_SEED=20261125 SHARDS=16 deploy/slurm/submit.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHARDS=${SHARDS:-8}
HUNT_SEED=${HUNT_SEED:-$(date -u +%Y%m%d)}
HUNT_ID=${HUNT_ID:-nightly-$HUNT_SEED}
export SHARDS HUNT_SEED HUNT_ID
job=$(sbatch --parsable --export=ALL --array="0-$((SHARDS - 1))" "$here/hunt-array.sh")
sbatch --parsable --export=ALL --dependency="afterany:${job%%;*}" "$here/merge.sh"
echo "hunt $HUNT_ID: array job $job, $SHARDS shards; merged report in ${RESULTS:-\$HOME/phihunt-results}/$HUNT_ID/merged"
