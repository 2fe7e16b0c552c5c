#!/usr/bin/env bash
# Interop checks against real readers and writers (run by .ci/run):
#  1. every committed fixture (tests/fixtures, uncompressed and with each zarr-python's
#     default codecs, sharded too) is still read as recorded by the zarr-python that wrote it
#     (the Rust side, reading them through zarrs, is tests/suite/interop_fixtures.rs);
#  2. tests/suite/interop_write.rs writes arrays through zarrs (every codec, both byte orders,
#     shards, missing chunks, 2-D, Zarr v2), reads them back, and writes a manifest of each;
#     zarr-python 3.4, 3.1 and 2.18 each read exactly the cases they support and fail to read
#     the others (generate.py --check-zarrdt);
#  3. tensorstore reads every field of the flat-record arrays (and scalar arrays, and v2
#     structured arrays of core types) zarrdt wrote, and refuses the others
#     (tensorstore_check.py);
#  4. tensorstore writes Zarr v3 struct and v2 structured arrays (both byte orders, zstd,
#     Blosc, sharded, unwritten chunks) field by field, and the zarrdt command reads every
#     value and the fill value exactly (tensorstore_write.py).
# A venv that cannot be made, a reader that fails, or a case read wrongly fails the run.
# Only FAIL lines and summaries are printed; the full outputs are in target/interop/logs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=tests/interop/venvs.sh
source "$here/venvs.sh"
# shellcheck source=tests/test_build.sh
source "$root/tests/test_build.sh"

start=$SECONDS
written="$ZARRDT_VENV_DIR/zarrdt-written"
logs="$ZARRDT_VENV_DIR/logs"
mkdir -p "$logs"
echo "== writing arrays with zarrdt into $written"
ZARRDT_INTEROP_OUT="$written" cargo test --quiet --workspace --all-features --tests -- interop_write::

# Runs "$@" with its output in the log $1, printing only the lines that are neither "ok" nor
# "not-read" (the summaries, failures and refusals' digest); fails if the command fails.
run_check() {
  local log="$logs/$1" status=0
  shift
  "$@" >"$log" 2>&1 || status=$?
  grep -v -e "^  ok " -e "^  not-read " "$log" || true
  if [[ $status -ne 0 ]]; then
    echo "error: failed ($status): $* (full output: $log)" >&2
  fi
  return "$status"
}

for entry in "${ZARRDT_PINS[@]}"; do
  zv="${entry%%|*}"
  ensure_venv "$zv"
  py="$(venv_python "$zv")"
  echo "== zarr $zv re-reads its own fixtures"
  run_check "zarr-$zv-fixtures.log" "$py" "$here/generate.py" --check \
    "$root/tests/fixtures/zarr-python-$zv"
  echo "== zarr $zv reads the arrays zarrdt wrote"
  run_check "zarr-$zv-zarrdt.log" "$py" "$here/generate.py" --check-zarrdt "$written"
done

zarrdt_command="$(test_build_executable bin zarrdt)"
ensure_tensorstore_venv
echo "== tensorstore $ZARRDT_TENSORSTORE_VERSION reads the arrays zarrdt wrote"
run_check "tensorstore-zarrdt.log" "$(tensorstore_python)" "$here/tensorstore_check.py" "$written"
echo "== tensorstore $ZARRDT_TENSORSTORE_VERSION writes record arrays; zarrdt reads them"
run_check "tensorstore-writes.log" "$(tensorstore_python)" "$here/tensorstore_write.py" \
  "$ZARRDT_VENV_DIR/tensorstore-written" "$zarrdt_command"
echo "== interop checks passed in $((SECONDS - start)) s (logs in $logs)"
