#!/usr/bin/env bash
# The crash test of issue 12: a writer rewriting every chunk of a record array through zarrs
# (examples/crash_writer.rs) is killed with SIGKILL at a random moment, TRIALS times per store
# setting; after each kill the array must open, and every chunk must hold the whole records of
# one write, its old or its new ones.
#
#   atomic: zarrs' FilesystemStore under its AtomicWriteStorageAdapter (each chunk written to
#           KEY.tmp, then renamed over KEY): no chunk may ever be torn. This is the gate.
#   plain:  FilesystemStore as it is, which truncates a chunk's file and then writes it: a kill
#           in between leaves the chunk empty or cut short. Such tears are counted (the window
#           is measured, see BENCHMARKS.md); they must be read errors naming the chunk, never
#           records that read without error but are wrong.
#
# Before the trials, a chunk torn by hand must be caught, so that the check can fail.
# Usage: bash tests/crash/check.sh [TRIALS]   (default 50; CI runs the default)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$(pwd)"

TRIALS="${1:-50}"
# shellcheck source=tests/test_build.sh
source "$root/tests/test_build.sh"
WRITER="$(test_build_executable example crash_writer)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/zarrdt-crash.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

fail() {
    echo "CRASH TEST FAILED: $*" >&2
    exit 1
}

# The check catches a torn chunk: cut one in half, and swap two.
"$WRITER" init "$WORK/self"
chunk="$WORK/self/c/5"
head -c "$(($(stat -c %s "$chunk") / 2))" "$chunk" >"$WORK/half" && mv "$WORK/half" "$chunk"
set +e
"$WRITER" check "$WORK/self" >"$WORK/out"
code=$?
set -e
[ "$code" = 3 ] || fail "a chunk cut in half was not caught (exit $code): $(cat "$WORK/out")"
grep -q "c/5" "$WORK/out" || fail "the cut chunk is not named: $(cat "$WORK/out")"
"$WRITER" init "$WORK/self"
cp "$WORK/self/c/3" "$WORK/self/c/4"
set +e
"$WRITER" check "$WORK/self" >"$WORK/out"
code=$?
set -e
[ "$code" = 5 ] || fail "a chunk holding another's records was not caught (exit $code): $(cat "$WORK/out")"

# A random delay in milliseconds: the writer starts writing after about 20 ms and rewrites the
# whole array in about 100 ms, so 30-229 ms lands anywhere in about two rewrites (each kill
# point of a rewrite is as likely as with a longer range, which would only wait longer).
delay() { echo "0.$(printf '%03d' $((RANDOM % 200 + 30)))"; }

for mode in atomic plain; do
    dir="$WORK/$mode"
    "$WRITER" init "$dir"
    torn=0
    leftover=0
    for trial in $(seq 1 "$TRIALS"); do
        "$WRITER" write "$dir" "$mode" $((trial * 1000)) &
        pid=$!
        sleep "$(delay)"
        kill -KILL "$pid" 2>/dev/null || fail "$mode trial $trial: the writer had already stopped"
        wait "$pid" 2>/dev/null || true
        set +e
        "$WRITER" check "$dir" >"$WORK/out"
        code=$?
        set -e
        line="$(cat "$WORK/out")"
        case "$mode:$code" in
            *:0) ;;
            plain:3) torn=$((torn + 1)) ;;
            *) fail "$mode trial $trial (exit $code): $line" ;;
        esac
        case "$line" in
            *"tmp 0 "*) ;;
            *) leftover=$((leftover + 1)) ;;
        esac
    done
    echo "$mode: $TRIALS kills, $torn left a torn chunk, $leftover left a temporary file; last: $line"
    if [ "$mode" = atomic ] && [ "$torn" != 0 ]; then
        fail "atomic writes tore a chunk"
    fi
done
echo "crash test passed"
