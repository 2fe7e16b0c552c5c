#!/usr/bin/env bash
# Interop checks against real zarr-python (run by .ci/run):
#  1. every committed fixture is still read as recorded by the zarr-python that wrote it;
#  2. arrays written by zarrdt (tests/interop_write.rs) are read correctly by zarr-python
#     3.4, 3.1 and 2.18, each the cases it supports (the Rust side of both directions is
#     tests/interop_fixtures.rs and tests/interop_write.rs themselves).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=tests/interop/venvs.sh
source "$here/venvs.sh"

written="$root/target/interop/zarrdt-written"
echo "== writing arrays with zarrdt into $written"
ZARRDT_INTEROP_OUT="$written" cargo test --quiet --all-features --test interop_write

# Runs generate.py with "$@", printing only the lines that are not "ok"; fails if it fails.
run_check() {
  local out status=0
  out="$("$@")" || status=$?
  grep -v "^  ok " <<<"$out" || true
  return "$status"
}

for entry in "${ZARRDT_PINS[@]}"; do
  zv="${entry%%|*}"
  ensure_venv "$zv"
  py="$(venv_python "$zv")"
  echo "== zarr $zv re-reads its own fixtures"
  run_check "$py" "$here/generate.py" --check "$root/tests/fixtures/zarr-python-$zv"
  echo "== zarr $zv reads the arrays zarrdt wrote"
  run_check "$py" "$here/generate.py" --check-zarrdt "$written"
done
echo "== interop checks passed"
