# Python environments with pinned zarr-python versions, shared by the interop scripts.
# Source it, then call `ensure_venv <zarr version>` and `venv_python <zarr version>`; for
# tensorstore, `ensure_tensorstore_venv` and `tensorstore_python`.
#
# Each venv holds exactly its pins (its full `pip freeze`, checked on every use) and lives in a
# cache of this machine, one directory per interpreter and set of pins, so that a fresh clone
# reuses what an earlier run installed; a machine without it makes it (a lock keeps two runs
# from making the same venv at once).
#
# Env: PYTHON312=/path/to/python3.12       the interpreter to build venvs with
#      ZARRDT_VENV_CACHE=dir               where the venvs live
#                                          (default ${XDG_CACHE_HOME:-~/.cache}/zarrdt/venvs)
#      ZARRDT_INTEROP_VENVS=dir            the checks' scratch directory, arrays they write and
#                                          their logs (default <repo>/target/interop)

_interop_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ZARRDT_VENV_DIR="${ZARRDT_INTEROP_VENVS:-$_interop_root/target/interop}"
ZARRDT_VENV_CACHE="${ZARRDT_VENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zarrdt/venvs}"

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

# The pins of zarr version $1 (from ZARRDT_PINS).
zarr_pins() {
  local entry
  for entry in "${ZARRDT_PINS[@]}"; do
    if [[ "${entry%%|*}" == "$1" ]]; then echo "${entry#*|}"; return 0; fi
  done
  echo "error: no pins for zarr $1" >&2
  return 1
}

# Prints the directory of the venv named $1 that holds the pins $2 (made or not).
pinned_venv_dir() {
  local python key
  python="$(find_python)" || return 1
  key="$({ "$python" -c 'import sys; print(sys.version)'; tr -s ' \n' '\n\n' <<<"$2" | sort; } \
    | sha256sum | cut -c1-16)"
  echo "$ZARRDT_VENV_CACHE/$1-$key"
}

# Makes (or reuses) the venv named $1 holding exactly the pins $2, and fails unless its
# `pip freeze` is exactly them. Progress goes to stderr.
ensure_pinned_venv() {
  local name="$1" pins="$2" venv got want status=0
  venv="$(pinned_venv_dir "$name" "$pins")" || return 1
  mkdir -p "$ZARRDT_VENV_CACHE"
  (
    flock 9
    if [[ ! -f "$venv/.complete" ]]; then
      echo "== creating $venv" >&2
      rm -rf "$venv"
      "$(find_python)" -m venv "$venv" >&2
      echo "== installing the pins of $name" >&2
      # shellcheck disable=SC2086  # word splitting of the requirement list is intended
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pins >&2
      touch "$venv/.complete"
    fi
  ) 9>"$venv.lock" || status=$?
  if [[ $status -ne 0 ]]; then
    echo "error: could not make the venv $venv" >&2
    return "$status"
  fi
  got="$("$venv/bin/python" -m pip freeze --disable-pip-version-check | tr 'A-Z_' 'a-z-' | sort)"
  want="$(tr -s ' \n' '\n\n' <<<"$pins" | tr 'A-Z_' 'a-z-' | sed '/^$/d' | sort)"
  if [[ "$got" != "$want" ]]; then
    echo "error: $venv holds other packages than the pins of $name:" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    return 1
  fi
}

# Prints the interpreter of the venv for zarr version $1.
venv_python() {
  echo "$(pinned_venv_dir "zarr-$1" "$(zarr_pins "$1")")/bin/python"
}

# Makes (or reuses) the venv for zarr version $1 with its pinned packages.
ensure_venv() {
  local pins
  pins="$(zarr_pins "$1")" || return 1
  ensure_pinned_venv "zarr-$1" "$pins"
}

# Prints the interpreter of the tensorstore venv.
tensorstore_python() {
  echo "$(pinned_venv_dir "tensorstore-$ZARRDT_TENSORSTORE_VERSION" "$ZARRDT_TENSORSTORE_PINS")/bin/python"
}

# Makes (or reuses) the tensorstore venv with its pinned packages.
ensure_tensorstore_venv() {
  ensure_pinned_venv "tensorstore-$ZARRDT_TENSORSTORE_VERSION" "$ZARRDT_TENSORSTORE_PINS"
}

# Prints the interpreter of the venv of pyarrow, Polars and zarr-python 3.4.
arrow_python() {
  echo "$(pinned_venv_dir arrow "$ZARRDT_ARROW_PINS")/bin/python"
}

# Makes (or reuses) the venv of pyarrow, Polars and zarr-python 3.4 with its pinned packages,
# and fails unless each imports.
ensure_arrow_venv() {
  ensure_pinned_venv arrow "$ZARRDT_ARROW_PINS" || return 1
  "$(arrow_python)" -c 'import pyarrow, polars, zarr' || {
    echo "error: a reader of tables is missing from the arrow venv" >&2
    return 1
  }
}
