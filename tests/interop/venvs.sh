# Python environments with pinned zarr-python versions, shared by the interop scripts.
# Source it, then call `ensure_venv <zarr version>` and `venv_python <zarr version>`; for
# tensorstore, `ensure_tensorstore_venv` and `tensorstore_python`.
#
# Env: PYTHON312=/path/to/python3.12       the interpreter to build venvs with
#      ZARRDT_INTEROP_VENVS=dir            where the venvs live (default <repo>/target/interop)

_interop_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ZARRDT_VENV_DIR="${ZARRDT_INTEROP_VENVS:-$_interop_root/target/interop}"

# Every package pinned (the full `pip freeze` of each venv), so runs are reproducible.
# Format: "<zarr version>|<requirements...>".
ZARRDT_PINS=(
  "3.4.2|zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0"
  "3.1.6|zarr==3.1.6 numpy==2.4.6 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0"
  "2.18.7|zarr==2.18.7 numpy==2.2.6 numcodecs==0.15.2 asciitree==1.0.0 Deprecated==3.0.1 fasteners==0.20 wrapt==2.5.2"
)

# tensorstore: the newest release on PyPI (0.1.85 was the first to read Zarr v3 struct
# arrays), with the venv's full `pip freeze`, which ensure_tensorstore_venv checks.
ZARRDT_TENSORSTORE_VERSION="0.1.86"
ZARRDT_TENSORSTORE_PINS="tensorstore==0.1.86 ml_dtypes==0.6.0 numpy==2.5.5"

# The readers of tables (tests/arrow/check.sh, benches/arrow.sh): zarr-python 3.4 with pyarrow
# and Polars, the venv's full `pip freeze`, which ensure_arrow_venv checks.
ZARRDT_ARROW_PINS="zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0 msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0 pyarrow==26.0.1 polars==2.1.0 polars-runtime-32==2.1.0"

# Prints the path of a Python 3.12 interpreter.
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

# Prints the interpreter of the venv for zarr version $1.
venv_python() {
  echo "$ZARRDT_VENV_DIR/venv-$1/bin/python"
}

# Creates (or reuses) the venv for zarr version $1 with its pinned packages.
ensure_venv() {
  local zv="$1" entry reqs="" venv got
  for entry in "${ZARRDT_PINS[@]}"; do
    if [[ "${entry%%|*}" == "$zv" ]]; then reqs="${entry#*|}"; fi
  done
  if [[ -z "$reqs" ]]; then
    echo "error: no pins for zarr $zv" >&2; return 1
  fi
  venv="$ZARRDT_VENV_DIR/venv-$zv"
  mkdir -p "$ZARRDT_VENV_DIR"
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "== creating $venv"
    "$(find_python)" -m venv "$venv"
  fi
  echo "== installing pins for zarr $zv"
  # shellcheck disable=SC2086  # word splitting of the requirement list is intended
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $reqs
  got="$("$venv/bin/python" -c 'import zarr; print(zarr.__version__)')"
  if [[ "$got" != "$zv" ]]; then
    echo "error: venv $venv has zarr $got, expected $zv" >&2; return 1
  fi
}

# Prints the interpreter of the tensorstore venv.
tensorstore_python() {
  echo "$ZARRDT_VENV_DIR/venv-tensorstore-$ZARRDT_TENSORSTORE_VERSION/bin/python"
}

# Creates (or reuses) the tensorstore venv with its pinned packages, and fails unless it
# holds exactly them.
ensure_tensorstore_venv() {
  local venv="$ZARRDT_VENV_DIR/venv-tensorstore-$ZARRDT_TENSORSTORE_VERSION" got want
  mkdir -p "$ZARRDT_VENV_DIR"
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "== creating $venv"
    "$(find_python)" -m venv "$venv"
  fi
  echo "== installing pins for tensorstore $ZARRDT_TENSORSTORE_VERSION"
  # shellcheck disable=SC2086  # word splitting of the requirement list is intended
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $ZARRDT_TENSORSTORE_PINS
  got="$("$venv/bin/python" -m pip freeze --disable-pip-version-check | tr 'A-Z_' 'a-z-' | sort)"
  want="$(tr ' ' '\n' <<<"$ZARRDT_TENSORSTORE_PINS" | tr 'A-Z_' 'a-z-' | sort)"
  if [[ "$got" != "$want" ]]; then
    echo "error: $venv holds other packages than the pins:" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    return 1
  fi
}

# Prints the interpreter of the venv of pyarrow, Polars and zarr-python 3.4.
arrow_python() {
  echo "$ZARRDT_VENV_DIR/venv-arrow/bin/python"
}

# Creates (or reuses) the venv of pyarrow, Polars and zarr-python 3.4 with its pinned packages,
# and fails unless it holds exactly them and each imports.
ensure_arrow_venv() {
  local venv="$ZARRDT_VENV_DIR/venv-arrow" got want
  mkdir -p "$ZARRDT_VENV_DIR"
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "== creating $venv"
    "$(find_python)" -m venv "$venv"
  fi
  echo "== installing the pinned readers of tables (pyarrow, Polars, zarr-python 3.4)"
  # shellcheck disable=SC2086  # word splitting of the requirement list is intended
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $ZARRDT_ARROW_PINS
  got="$("$venv/bin/python" -m pip freeze --disable-pip-version-check | tr 'A-Z_' 'a-z-' | sort)"
  want="$(tr ' ' '\n' <<<"$ZARRDT_ARROW_PINS" | tr 'A-Z_' 'a-z-' | sort)"
  if [[ "$got" != "$want" ]]; then
    echo "error: $venv holds other packages than the pins:" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    return 1
  fi
  "$venv/bin/python" -c 'import pyarrow, polars, zarr' || {
    echo "error: a reader of tables is missing from $venv" >&2
    return 1
  }
}
