#!/usr/bin/env bash
# End to end, one run, one table: record A (10M records, 210 MB by default) written and read
# through zarrs by zarrdt, through zarr-python 3.4.2 and through tensorstore 0.1.86, in the
# same cases (uncompressed little- and big-endian, zstd, sharded), with numpy's own byte-order
# conversion and memcpy on the same records; zarrdt also with glibc asking for huge pages
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) and zarr-python also without NumPy's huge pages, to
# show what 4 KiB page faults on fresh memory cost each side.
#
#   bash benches/e2e.sh [RECORDS] [REPEATS] [ROUNDS]     (defaults 10000000, 3 and 1)
#
# With ROUNDS above 1, every tool is run ROUNDS times in turn (zarrdt, its one-thread and
# huge-page runs, the Python peers, then again), REPEATS repeats each time, and each cell is the
# median of all its repeats: this machine's speed drifts by a quarter from minute to minute,
# and tools timed minutes apart would be compared across that drift.
#
# The arrays are written to tmpfs (/dev/shm) where there is one, so that every tool is timed
# on the same memory-backed file system, not on the disk's write-back (ZARRDT_E2E_DIR to
# change it).
# Needs Python 3.12 (found as tests/interop/venvs.sh finds it); makes its own pinned venv.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
records="${1:-10000000}"
repeats="${2:-3}"
rounds="${3:-1}"
# shellcheck source=benches/bench_env.sh
source "$here/bench_env.sh"   # py: the pinned zarr-python and tensorstore; arrays: where to write

work="$root/target/e2e"
rm -rf "$work" "$arrays" && mkdir -p "$work" "$arrays"
trap 'rm -rf "$work" "$arrays"' EXIT
results="$work/results.jsonl"
echo "== $records records A"
"$py" "$here/e2e.py" records "$records" "$work/records.bin"
for round in $(seq 1 "$rounds"); do
  [ "$rounds" -gt 1 ] && echo "== round $round of $rounds"
  echo "== zarrdt (zarrs)"
  cargo bench --quiet --bench e2e -- "$work/records.bin" "$arrays" "$repeats" | tee -a "$results"
  echo "== zarrdt (zarrs), one thread (the compressed cases)"
  RAYON_NUM_THREADS=1 cargo bench --quiet --bench e2e -- "$work/records.bin" "$arrays" "$repeats" \
    | tee -a "$results"
  echo "== zarrdt (zarrs), glibc.malloc.hugetlb=1 (huge pages for large allocations, as NumPy's arrays have)"
  GLIBC_TUNABLES=glibc.malloc.hugetlb=1 cargo bench --quiet --bench e2e -- "$work/records.bin" "$arrays" "$repeats" \
    | tee -a "$results"
  echo "== numpy, zarr-python (with and without NumPy's huge pages), tensorstore"
  "$py" "$here/e2e.py" run "$work/records.bin" "$arrays" "$repeats" | tee -a "$results"
done
echo
nproc_text="$(nproc) cores"
echo "Arrays on: $arrays ($(df -T "$arrays" | awk 'NR==2 {print $2}'))"
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $nproc_text, $(free -g | awk '/Mem:/ {print $2}') GiB"
"$py" "$here/e2e.py" table "$results"
