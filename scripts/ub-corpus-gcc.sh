#!/usr/bin/env bash
# Checks corpus/ub against gcc: every `// ub:` program is reported by gcc's sanitizers
# (-fsanitize=undefined,address plus pointer-compare/pointer-subtract, or it traps), and
# every defined twin (`*_ok.c`) runs cleanly under them and prints the same at -O0 and -O2.
# Prints one line per file; a program gcc cannot catch is listed as `not caught by gcc`
# (the oracle must still catch it: that is fuzz/tests/ub_corpus.rs's job).
# Usage: scripts/ub-corpus-gcc.sh [corpus/ub]
set -u
dir=${1:-corpus/ub}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# -fno-sanitize=shift-base: gcc defines the signed left shifts that overflow or shift a
# negative value (its manual, "Integers implementation"), and the UB judge follows gcc
# there (docs/ub-judge.md); shift counts out of range (shift-exponent) stay checked.
san="-fsanitize=undefined,address,pointer-compare,pointer-subtract -fno-sanitize=shift-base -fno-sanitize-recover=all"
export ASAN_OPTIONS=detect_invalid_pointer_pairs=2:detect_leaks=0:detect_stack_use_after_return=1
bad=0
for f in "$dir"/*.c; do
    name=$(basename "$f")
    want=$(sed -n 's|^// ub: *\([A-Za-z]*\).*|\1|p' "$f" | head -1)
    if ! gcc -w -O0 -g $san "$f" -o "$work/san" 2>"$work/err"; then
        echo "$name: gcc rejects it: $(head -1 "$work/err")"; bad=1; continue
    fi
    timeout 10 "$work/san" >"$work/out" 2>"$work/err"; status=$?
    report=$(grep -m1 -E 'runtime error|ERROR: AddressSanitizer' "$work/err")
    if [ -n "$want" ]; then
        if [ -n "$report" ] || [ $status -ge 128 ]; then
            echo "$name: $want: gcc: ${report:-signal $((status - 128))}"
        else
            echo "$name: $want: not caught by gcc (exit $status)"
        fi
    else
        gcc -w -O0 "$f" -o "$work/o0" && gcc -w -O2 "$f" -o "$work/o2" || { echo "$name: build failed"; bad=1; continue; }
        a=$(timeout 10 "$work/o0"; echo "exit $?"); b=$(timeout 10 "$work/o2"; echo "exit $?")
        if [ -n "$report" ] || [ $status -ne 0 ]; then
            echo "$name: DEFINED TWIN FAILS under sanitizers (exit $status): $report"; bad=1
        elif [ "$a" != "$b" ]; then
            echo "$name: DEFINED TWIN differs between -O0 and -O2"; bad=1
        else
            echo "$name: defined: clean, -O0 == -O2"
        fi
    fi
done
exit $bad
