#!/usr/bin/env bash
# Records as tables against real readers (issue 21; run by .ci/run): every committed fixture
# and every array the interop suite writes with zarrdt (tests/suite/interop_write.rs)
# exported by `zarrdt export` to Parquet and Arrow IPC and read by pyarrow 26 and Polars 2.1,
# equal to zarr-python 3.4's reading of the array (2.18's for the v2 subarrays 3.4 cannot
# open); each Parquet file imported back by `zarrdt import` and read by zarr-python, equal to
# the original, fill value included; tables written by pyarrow (nested, timestamps, strings,
# fixed-size lists, every scalar) imported and read by zarr-python, equal to the source.
# A venv that cannot be made, a reader that is missing or fails, or a value read wrongly fails
# the run. See tests/arrow/check.py.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=tests/interop/venvs.sh
source "$root/tests/interop/venvs.sh"

start=$SECONDS
# pyarrow 26.0.1, Polars 2.1.0 and zarr-python 3.4.2, pinned (tests/interop/venvs.sh).
ensure_arrow_venv
# zarr-python 2.18 reads the Zarr v2 subarray arrays zarr-python 3.4 has no data type for.
ensure_venv 2.18.7

# shellcheck source=tests/test_build.sh
source "$root/tests/test_build.sh"
zarrdt="$(test_build_executable bin zarrdt)"
work="$ZARRDT_VENV_DIR/arrow-check"
# The interop suite's arrays written by zarrdt (every codec, both byte orders, shards, 2-D,
# Zarr v2 layouts), with the committed fixtures.
written="$ZARRDT_VENV_DIR/arrow-zarrdt-written"
echo "== writing the interop suite's arrays with zarrdt into $written"
ZARRDT_INTEROP_OUT="$written" cargo test --quiet --workspace --all-features --tests -- interop_write:: >/dev/null
"$(arrow_python)" "$here/check.py" "$zarrdt" "$work" "$(venv_python 2.18.7)" \
  "$root"/tests/fixtures/zarr-python-* "$written"
echo "== arrow checks passed in $((SECONDS - start)) s"
