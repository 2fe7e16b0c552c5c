#!/usr/bin/env bash
# A tiled array read whole and as one field, by zarrdt and by zarr-python 3.4.2: 3000 columns of
# particles (43-byte records with a nested struct) in zstd shards of 1000 × 1000, inner chunks
# (tiles) of 250 × 250, written by `big_array`. Each read in its own process: the time of the
# read alone and the process's peak RSS (`/usr/bin/time`), against the result's size.
# (tensorstore 0.1.86 cannot open nested struct data types.)
#
#   bash benches/tiles.sh [RECORDS] [REPEATS]     (defaults 9000000 and 3; RECORDS a multiple of
#                                                 3000)
#
# The array is written to tmpfs (/dev/shm) where there is one (ZARRDT_E2E_DIR to change it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
records="${1:-9000000}"
repeats="${2:-3}"
# shellcheck source=benches/bench_env.sh
source "$here/bench_env.sh"   # py: the pinned zarr-python; arrays: where to write
array="$arrays/tiles.zarr"
mkdir -p "$arrays"
trap 'rm -rf "$array"; rmdir "$arrays" 2>/dev/null || true' EXIT
cargo run --release --quiet -p zarrdt-cli --example big_array -- "$array" "$records" tiles
cargo build --release --quiet --example bounded_read
for _ in $(seq "$repeats"); do
  for what in whole field; do
    /usr/bin/time -f "zarrdt $what: peak %M KiB" target/release/examples/bounded_read "$array" "$what"
    /usr/bin/time -f "zarr-python $what: peak %M KiB" "$py" "$here/tiles.py" "$array" "$what"
  done
done
