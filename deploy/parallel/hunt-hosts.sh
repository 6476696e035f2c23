#!/usr/bin/env bash
# A phihunt hunt over a few hosts with GNU parallel and ssh: one shard per host slot,
# the shard folders copied back, then merged here.
#
#   deploy/parallel/hunt-hosts.sh hosts.txt        # one ssh login per line (GNU parallel
#                                                  # --sshloginfile; `:` is this machine)
#
# Every host needs phihunt on its PATH (the container image, or `cargo install --path
# fuzz`) and the cross toolchains (scripts/setup.sh). Settings: SHARDS, HUNT_SEED, HUNT_ID,
# HUNT_TIME, JOBS (worker threads per shard), TARGETS; the hunt runs in ~/HUNT_DIR on each
# host and its shard folder comes back to ./HUNT_DIR here.
set -euo pipefail
HOSTS=${1:?usage: $0 SSHLOGINFILE}
SHARDS=${SHARDS:-4}
HUNT_SEED=${HUNT_SEED:-$(date -u +%Y%m%d)}
HUNT_ID=${HUNT_ID:-hunt-$HUNT_SEED}
HUNT_DIR=${HUNT_DIR:-phihunt-results/$HUNT_ID}
HUNT_TIME=${HUNT_TIME:-8h}
JOBS=${JOBS:-4}
TARGETS=${TARGETS:-x86_64,i686,aarch64,riscv64}

# `seq -w` pads the index as phihunt pads the folder name (shard-03-of-12).
parallel --sshloginfile "$HOSTS" --jobs 1 --line-buffer --tag \
  --return "$HUNT_DIR/shard-{}-of-$SHARDS" \
  phihunt hunt --shard "{}/$SHARDS" --seed "$HUNT_SEED" --time "$HUNT_TIME" \
  --jobs "$JOBS" --targets "$TARGETS" --out "$HUNT_DIR" '||' test '$?' -le 1 \
  ::: $(seq -w 0 $((SHARDS - 1)))

status=0
phihunt merge "$HUNT_DIR" --out "$HUNT_DIR/merged" || status=$?
[ "$status" -le 1 ] || exit "$status"
