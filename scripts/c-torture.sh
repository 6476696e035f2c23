#!/usr/bin/env bash
# gcc's c-torture execute suite as phihunt's external C test suite (issue 14).
#
#   bash scripts/c-torture.sh fetch [CACHE]         # fetch and extract once; prints the suite's path
#   bash scripts/c-torture.sh run [CACHE] [-- OPTIONS...]   # fetch if needed, then
#                                                   #   phihunt torture SUITE OPTIONS...
#   bash scripts/c-torture.sh path [CACHE]          # the suite's path (exit 1 when not fetched)
#
# CACHE defaults to $PHIHUNT_TORTURE_CACHE, else ~/.cache/phihunt/c-torture. The sources are
# never committed: `fetch` downloads Debian's gcc-12-source with `apt-get download` (no root
# needed), takes gcc-12.2.0-dfsg.tar.xz out of the .deb and extracts only
# gcc/testsuite/gcc.c-torture/execute/ into CACHE/gcc-VERSION/execute, then points the
# symlink CACHE/execute at it. Everything else is unpacked in a mktemp directory that a trap
# removes, whatever happens. Idempotent: a suite already extracted (its `.complete` marker
# exists) is reused without touching the network; a half-finished extraction is never seen,
# because the directory is moved into place only when complete.
#
# `run` options go to `phihunt torture` (see `phihunt torture --help`), e.g.
#   bash scripts/c-torture.sh run -- --jobs 2 --out reports/torture-full
# The default checks the whole suite against corpus/torture/expected-failures.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'c-torture: %s\n' "$*" >&2; }

cmd="${1:-run}"
[ $# -gt 0 ] && shift
cache="${PHIHUNT_TORTURE_CACHE:-$HOME/.cache/phihunt/c-torture}"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  cache="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift

suite_path() { printf '%s/execute\n' "$cache"; }

fetch() {
  local suite
  suite="$(suite_path)"
  if [ -f "$suite/.complete" ]; then
    say "reusing $(readlink -f "$suite")"
    suite_path
    return 0
  fi
  command -v apt-get >/dev/null || { say "error: apt-get not found (Debian's gcc-12-source is fetched with it)"; exit 1; }
  mkdir -p "$cache"
  # Global, not local: the EXIT trap runs after this function has returned.
  work="$(mktemp -d "$cache/.fetch.XXXXXX")"
  # The trap removes the work directory on any exit, error or signal.
  trap 'rm -rf "${work:-}"' EXIT
  trap 'exit 130' INT TERM
  say "downloading gcc-12-source (about 85 MB)"
  (cd "$work" && apt-get download -q gcc-12-source >&2)
  local deb tarball version
  deb="$(ls "$work"/gcc-12-source_*.deb)"
  tarball="$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -E '^\./usr/src/gcc-12/gcc-[0-9.]+(-dfsg)?\.tar\.xz$' | head -n 1)"
  [ -n "$tarball" ] || { say "error: no gcc source tarball inside $deb"; exit 1; }
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "$tarball"
  rm -f "$deb"
  version="$(basename "$tarball" .tar.xz)"
  version="${version%-dfsg}"
  say "extracting gcc.c-torture/execute from $version"
  tar -xJf "$work/$tarball" -C "$work" --wildcards "$version/gcc/testsuite/gcc.c-torture/execute/*"
  local extracted="$work/$version/gcc/testsuite/gcc.c-torture/execute"
  [ -d "$extracted" ] || { say "error: $tarball has no gcc/testsuite/gcc.c-torture/execute"; exit 1; }
  printf '%s from Debian %s\n' "$version" "$(basename "$deb")" >"$extracted/.complete"
  rm -rf "$cache/$version"
  mkdir -p "$cache/$version"
  mv "$extracted" "$cache/$version/execute"
  ln -sfn "$version/execute" "$cache/execute"
  say "$(find "$cache/$version/execute" -maxdepth 1 -name '*.c' | wc -l) top-level tests in $cache/$version/execute"
  suite_path
}

case "$cmd" in
  fetch) fetch ;;
  path)
    if [ -f "$(suite_path)/.complete" ]; then suite_path; else
      say "not fetched: run bash scripts/c-torture.sh fetch"
      exit 1
    fi
    ;;
  run)
    suite="$(fetch)"
    cargo build --release -p phihunt >&2
    exec ./target/release/phihunt torture "$suite" "$@"
    ;;
  *)
    say "usage: bash scripts/c-torture.sh fetch|path|run [CACHE] [-- phihunt torture options]"
    exit 2
    ;;
esac
