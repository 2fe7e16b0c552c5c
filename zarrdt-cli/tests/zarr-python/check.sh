#!/usr/bin/env bash
# zarr-python 2.18.7, 3.1.6 and 3.4.2 each write compressed record arrays (Blosc, zstd, gzip,
# sharding; v2 and v3; nested records, mixed byte order, subarrays, 2-D, F order, missing
# chunks; every numcodecs compressor: zlib, bz2, lz4, lzma, base64, and the adler32, crc32,
# fletcher32 and jenkins_lookup3 checksums; zarr-python 3's numcodecs.zstd, .gzip, .blosc and
# .crc32c; shards zstd or gzip encode whole), and `zarrdt dump --format
# json` must read every element and the fill value as that zarr-python reads them back
# (check.py). Uses the pinned venvs of tests/interop/venvs.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
source "$root/tests/interop/venvs.sh"
# shellcheck source=tests/test_build.sh
source "$root/tests/test_build.sh"
binary="$(cd "$root" && test_build_executable bin zarrdt)"
work="${CARGO_TARGET_DIR:-$root/target}/zarrdt-cli-zarr-python"
for version in 2.18.7 3.1.6 3.4.2; do
  ensure_venv "$version"
  echo "zarr-python $version:"
  "$(venv_python "$version")" -W ignore "$root/zarrdt-cli/tests/zarr-python/check.py" \
    "$binary" "$work/$version"
done
