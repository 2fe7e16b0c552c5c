#!/usr/bin/env bash
# Regenerate the zarr-python interop fixtures under tests/fixtures/.
#
# For each pinned zarr-python version this creates (or reuses) a venv under
# target/interop/venv-<zarr version>, runs generate.py to (re)write
# tests/fixtures/zarr-python-<zarr version>/, and then runs generate.py --check
# on the result. Finally every venv reads the other versions' fixtures and the
# (informational) outcome is written to tests/fixtures/cross_read.json.
#
# Usage: tests/interop/generate.sh            (from anywhere)
# Env:   PYTHON312=/path/to/python3.12       override the interpreter
#        ZARRDT_INTEROP_VENVS=dir            venv directory (default target/interop)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

venv_dir="${ZARRDT_INTEROP_VENVS:-$root/target/interop}"
fixtures="$root/tests/fixtures"

# Every package pinned (the full `pip freeze` of each venv), so runs are
# reproducible. Format: "<zarr version>|<requirements...>".
pins=(
  "3.4.2|zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0"
  "3.1.6|zarr==3.1.6 numpy==2.4.6 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0"
  "2.18.7|zarr==2.18.7 numpy==2.2.6 numcodecs==0.15.2 asciitree==1.0.0 Deprecated==3.0.1 fasteners==0.20 wrapt==2.5.2"
)

find_python() {
  local cand
  if [[ -n "${PYTHON312:-}" ]]; then
    echo "$PYTHON312"; return 0
  fi
  if command -v pyenv >/dev/null 2>&1; then
    for cand in $(ls -d "$(pyenv root)"/versions/3.12* 2>/dev/null | sort -V -r); do
      if [[ -x "$cand/bin/python3.12" ]]; then echo "$cand/bin/python3.12"; return 0; fi
    done
  fi
  if command -v python3.12 >/dev/null 2>&1 && python3.12 -c 'import sys' >/dev/null 2>&1; then
    command -v python3.12; return 0
  fi
  cand=/root/.pyenv/versions/3.12.1/bin/python3.12
  if [[ -x "$cand" ]]; then echo "$cand"; return 0; fi
  echo "error: no Python 3.12 found (set PYTHON312)" >&2
  return 1
}

py312="$(find_python)"
echo "== using $py312 ($("$py312" -V 2>&1))"
mkdir -p "$venv_dir" "$fixtures"

versions=()
for entry in "${pins[@]}"; do
  zv="${entry%%|*}"
  reqs="${entry#*|}"
  versions+=("$zv")
  venv="$venv_dir/venv-$zv"
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "== creating $venv"
    "$py312" -m venv "$venv"
  fi
  echo "== installing pins for zarr $zv"
  # shellcheck disable=SC2086  # word splitting of the requirement list is intended
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $reqs
  got="$("$venv/bin/python" -c 'import zarr; print(zarr.__version__)')"
  if [[ "$got" != "$zv" ]]; then
    echo "error: venv $venv has zarr $got, expected $zv" >&2
    exit 1
  fi

  out="$fixtures/zarr-python-$zv"
  echo "== generating $out"
  rm -rf "$out"
  "$venv/bin/python" "$here/generate.py" "$out"
  echo "== checking $out"
  "$venv/bin/python" "$here/generate.py" --check "$out" | grep -v "^  ok "
done

echo "== cross-reading fixtures with every version (informational)"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
for reader in "${versions[@]}"; do
  for writer in "${versions[@]}"; do
    [[ "$reader" == "$writer" ]] && continue
    "$venv_dir/venv-$reader/bin/python" "$here/generate.py" --cross-check \
      "$fixtures/zarr-python-$writer" >>"$tmp"
  done
done
"$py312" - "$tmp" "$fixtures/cross_read.json" <<'EOF'
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
