#!/usr/bin/env bash
# Regenerate the zarr-python interop fixtures under tests/fixtures/.
#
# For each pinned zarr-python version this creates (or reuses) its pinned venv
# (tests/interop/venvs.sh), runs generate.py to (re)write
# tests/fixtures/zarr-python-<zarr version>/, and then runs generate.py --check
# on the result; zarr-python 3.4.2 migrates one 2.18.7 fixture to Zarr v3 (migrate.py).
# Finally every venv reads the other versions' fixtures and the
# (informational) outcome is written to tests/fixtures/cross_read.json.
#
# Usage: tests/interop/generate.sh            (from anywhere)
# Env:   PYTHON312=/path/to/python3.12       override the interpreter
#        ZARRDT_VENV_CACHE=dir               venv directory (see tests/interop/venvs.sh)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

fixtures="$root/tests/fixtures"
# shellcheck source=tests/interop/venvs.sh
source "$here/venvs.sh"
mkdir -p "$fixtures"

versions=()
for entry in "${ZARRDT_PINS[@]}"; do
  zv="${entry%%|*}"
  versions+=("$zv")
  ensure_venv "$zv"

  out="$fixtures/zarr-python-$zv"
  echo "== generating $out"
  rm -rf "$out"
  "$(venv_python "$zv")" "$here/generate.py" "$out"
  echo "== checking $out"
  "$(venv_python "$zv")" "$here/generate.py" --check "$out" | grep -v "^  ok "
done

# An array zarr-python 3's `zarr migrate v3` made of a 2.18 fixture: the identity AsType filter
# 2.18 writes for records, carried over as a Zarr v3 `numcodecs.astype` codec.
migrated="$fixtures/migrated-by-zarr-python-3.4.2"
echo "== migrating a zarr-python 2.18.7 fixture to Zarr v3 with zarr-python 3.4.2 ($migrated)"
rm -rf "$migrated"
"$(venv_python 3.4.2)" "$here/migrate.py" \
  "$fixtures/zarr-python-2.18.7/v2_blosc_astype_same_type.zarr" \
  "$migrated/v2_blosc_astype_same_type.zarr"

echo "== cross-reading fixtures with every version (informational)"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
for reader in "${versions[@]}"; do
  for writer in "${versions[@]}"; do
    [[ "$reader" == "$writer" ]] && continue
    "$(venv_python "$reader")" "$here/generate.py" --cross-check \
      "$fixtures/zarr-python-$writer" >>"$tmp"
  done
done
"$(find_python)" - "$tmp" "$fixtures/cross_read.json" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
doc = {
    "description": "Each zarr-python version reading the fixtures written by the "
                   "others with the same comparison as generate.py --check. "
                   "'same' = identical typed values, hex, dtype and fill; otherwise "
                   "the differing keys or the read error. Informational only.",
    "runs": rows,
}
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
for r in rows:
    res = r["results"].values()
    same = sum(v == "same" for v in res)
    print(f"  zarr {r['reader']['zarr']} reading zarr-python-{r['fixtures_written_by']['zarr']}: "
          f"{same}/{len(r['results'])} same")
EOF
echo "== done: $(du -sh "$fixtures" | cut -f1) in $fixtures"
