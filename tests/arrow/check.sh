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

# The readers, pinned: the venv's full `pip freeze`, checked below.
ARROW_PINS="zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0 pyarrow==26.0.1 polars==2.1.0 polars-runtime-32==2.1.0"

start=$SECONDS
venv="$ZARRDT_VENV_DIR/venv-arrow"
mkdir -p "$ZARRDT_VENV_DIR"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "== creating $venv"
  "$(find_python)" -m venv "$venv"
fi
echo "== installing the pinned readers (pyarrow, Polars, zarr-python 3.4)"
# shellcheck disable=SC2086  # word splitting of the requirement list is intended
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check $ARROW_PINS
got="$("$venv/bin/python" -m pip freeze --disable-pip-version-check | tr 'A-Z_' 'a-z-' | sort)"
want="$(tr ' ' '\n' <<<"$ARROW_PINS" | tr 'A-Z_' 'a-z-' | sort)"
if [[ "$got" != "$want" ]]; then
  echo "error: $venv holds other packages than the pins:" >&2
  diff <(echo "$want") <(echo "$got") >&2 || true
  exit 1
fi
"$venv/bin/python" -c 'import pyarrow, polars, zarr' || { echo "error: a reader is missing" >&2; exit 1; }
# zarr-python 2.18 reads the Zarr v2 subarray arrays zarr-python 3.4 has no data type for.
ensure_venv 2.18.7

cargo build --quiet -p zarrdt-cli --bin zarrdt
zarrdt="${CARGO_TARGET_DIR:-$root/target}/debug/zarrdt"
work="$ZARRDT_VENV_DIR/arrow-check"
# The interop suite's arrays written by zarrdt (every codec, both byte orders, shards, 2-D,
# Zarr v2 layouts), with the committed fixtures.
written="$ZARRDT_VENV_DIR/arrow-zarrdt-written"
echo "== writing the interop suite's arrays with zarrdt into $written"
ZARRDT_INTEROP_OUT="$written" cargo test --quiet --all-features --test suite -- interop_write:: >/dev/null
"$venv/bin/python" "$here/check.py" "$zarrdt" "$work" "$(venv_python 2.18.7)" \
  "$root"/tests/fixtures/zarr-python-* "$written"
echo "== arrow checks passed in $((SECONDS - start)) s"
