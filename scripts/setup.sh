#!/usr/bin/env bash
# Sets up a fresh machine for phihunt: idempotent, safe to run twice.
#
# What phihunt needs today:
#   - a Rust toolchain with cargo (stable builds and tests everything);
#   - cargo-fuzz, for `cargo +nightly fuzz run <target>` (installed when a nightly
#     toolchain is present; set PHIHUNT_SKIP_CARGO_FUZZ=1 to skip it);
#   - gcc, csmith and libcsmith-dev (csmith's runtime headers in /usr/include/csmith):
#     C hunting, and compiler/tests/headers_gcc.rs, which checks phicc's own headers
#     (compiler/include) against gcc and glibc with csmith programs;
#   - gcc-i686-linux-gnu, gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu: the cross
#     compilers that are the reference for the C front end's data model, predefined
#     macros and record layout on i686, aarch64 and riscv64 (compile-only, `-S`, in
#     compiler/tests/layout_gcc.rs and compiler/tests/target_facts_gcc.rs), and the
#     drivers that assemble and link (`-static`, against each target's glibc) every
#     native build (oracle/src/native/targets.rs is the table);
#   - qemu-user: qemu-i386, qemu-aarch64, qemu-riscv64 run the non-host targets'
#     binaries (x86_64 binaries run directly on an x86_64 host); the oracle's
#     native_*.rs tests fail, naming this script, when a driver or qemu is missing;
#   - chromium (Debian's): fuzz/tests/report_html.rs opens a hunt's report.html in
#     headless Chromium and checks what it shows; it fails, naming this script, when
#     chromium is missing;
#   - cvise: C-Vise, run by `phihunt reduce FILE.c --cvise` and `bench creduce` with
#     phihunt's own interestingness test;
#   - gcc's c-torture execute suite (fuzz/tests/torture.rs, `phihunt torture`): fetched
#     from Debian's gcc-12-source by scripts/c-torture.sh into ~/.cache/phihunt/c-torture
#     (never committed; once, then reused; set PHIHUNT_SKIP_TORTURE=1 to skip).
set -euo pipefail

say() { printf 'setup: %s\n' "$*"; }

# Debian packages: install only what is missing, with one `apt-get update` at most.
APT_PACKAGES=(gcc csmith libcsmith-dev gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
  qemu-user chromium cvise)
# clang: a second compiler under test for `phihunt hunt --cc 'clang -O2'` (README).
APT_PACKAGES+=(clang)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  # "installed", not merely known to dpkg (a removed package keeps its config files).
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
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

if [ "${PHIHUNT_SKIP_CARGO_FUZZ:-0}" != 1 ]; then
  if cargo +nightly --version >/dev/null 2>&1; then
    if cargo fuzz --version >/dev/null 2>&1; then
      say "cargo-fuzz: $(cargo fuzz --version)"
    else
      say "installing cargo-fuzz (once; about a minute)"
      cargo install cargo-fuzz --locked --quiet
    fi
  else
    say "no nightly toolchain: skipping cargo-fuzz (stable smoke loops still run in cargo test)"
  fi
fi
if [ "${PHIHUNT_SKIP_TORTURE:-0}" != 1 ]; then
  say "c-torture: $(bash "$(dirname "$0")/c-torture.sh" fetch)"
fi
say "ready"
