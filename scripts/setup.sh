#!/usr/bin/env bash
# Sets up a fresh machine for phihunt: idempotent, safe to run twice.
#
# What phihunt needs today:
#   - a Rust toolchain with cargo (stable; nightly only for `cargo +nightly fuzz`)
# Later issues add here: cross gcc toolchains and qemu-user (native runs on four targets),
# csmith and cvise (C hunting and reduction), cargo-fuzz.
set -euo pipefail

say() { printf 'setup: %s\n' "$*"; }

# Debian packages: install only what is missing, with one `apt-get update` at most.
APT_PACKAGES=()
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  say "installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  say "error: cargo not found; install Rust (https://rustup.rs) and run again" >&2
  exit 1
fi
say "cargo: $(cargo --version)"
say "ready"
