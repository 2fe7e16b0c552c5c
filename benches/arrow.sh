#!/usr/bin/env bash
# Record arrays to tables, end to end, one run: 10M records of A (21 bytes) and of the
# quickstart's particle (43 bytes) in uncompressed arrays zarr-python writes (chunks of 1M, on
# tmpfs), exported by `zarrdt export` (release build) to Arrow IPC and to Parquet (snappy),
# against pyarrow's pq.write_table of the same table made from zarr-python's reading, and
# memcpy of the records' bytes; the peak memory (RSS) of each export, at 1M and at 10M
# records, with the default 65 536 rows per batch.
#
#   bash benches/arrow.sh [RECORDS] [REPEATS]     (defaults 10000000 and 3)
#
# The in-memory transpose alone is `cargo bench --features arrow --bench arrow`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
# shellcheck source=tests/interop/venvs.sh
source "$root/tests/interop/venvs.sh"
records="${1:-10000000}"
repeats="${2:-3}"
ensure_arrow_venv >/dev/null
py="$(arrow_python)"
cargo build --quiet --release -p zarrdt-cli --bin zarrdt
zarrdt="${CARGO_TARGET_DIR:-$root/target}/release/zarrdt"

work="${ZARRDT_ARROW_BENCH_DIR:-$([[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm/zarrdt-arrow-bench || echo "$root/target/arrow-bench")}"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
results="$work/results.jsonl"

# Runs `zarrdt export` on $1 to $2: the wall seconds and the peak RSS (KiB) of each of $repeats runs.
export_runs() {
  local array="$1" out="$2" log="$work/time.log" seconds=() rss=()
  for ((i = 0; i < repeats; i++)); do
    rm -f "$out"
    /usr/bin/time -v "$zarrdt" export "$array" "$out" >/dev/null 2>"$log"
    seconds+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s}' "$log")")
    rss+=("$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")")
  done
  echo "$(IFS=,; echo "${seconds[*]}")|$(IFS=,; echo "${rss[*]}")"
}

for kind in A particle; do
  echo "== $records records of $kind"
  "$py" "$here/arrow_e2e.py" write "$records" "$kind" "$work/$kind.zarr"
  small=$((records / 10))
  "$py" "$here/arrow_e2e.py" write "$small" "$kind" "$work/${kind}_small.zarr"
  for format in arrow parquet; do
    IFS='|' read -r seconds rss <<<"$(export_runs "$work/$kind.zarr" "$work/$kind.$format")"
    IFS='|' read -r _ small_rss <<<"$(export_runs "$work/${kind}_small.zarr" "$work/${kind}_small.$format")"
    bytes=$(stat -c %s "$work/$kind.$format")
    echo "{\"tool\": \"zarrdt export\", \"op\": \"$format\", \"kind\": \"$kind\", \"seconds\": [$seconds], \"rss_kib\": [$rss], \"rss_kib_tenth\": [$small_rss], \"file_bytes\": $bytes}" | tee -a "$results"
  done
  "$py" "$here/arrow_e2e.py" pyarrow "$work/$kind.zarr" "$work/$kind.pyarrow.parquet" "$repeats" | tee -a "$results"
  echo "  (pyarrow's file: $(stat -c %s "$work/$kind.pyarrow.parquet") bytes)"
done
echo
echo "Arrays on: $work ($(df -T "$work" | awk 'NR==2 {print $2}')); $(nproc) cores"
"$py" - "$results" "$records" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
for kind in ("A", "particle"):
    r = [x for x in rows if x["kind"] == kind]
    med = lambda x: statistics.median(x["seconds"])
    memcpy = next(x for x in r if x["op"] == "memcpy")
    write = next(x for x in r if x["op"] == "pq.write_table")
    nbytes = memcpy["bytes"]
    print(f"\n{kind}: {n} records, {nbytes / 1e6:.0f} MB; memcpy {med(memcpy) * 1e3:.1f} ms ({nbytes / med(memcpy) / 2**30:.2f} GiB/s)")
    print(f"  {'':34} {'median s':>9} {'GiB/s':>7} {'vs memcpy':>9} {'vs pq.write_table':>17} {'peak RSS':>9} {'at 1/10':>8}")
    for x in r:
        s = med(x)
        rate = nbytes / s / 2**30
        extra = ""
        if "rss_kib" in x:
            extra = f" {max(x['rss_kib']) / 1024:7.0f}MB {max(x['rss_kib_tenth']) / 1024:6.0f}MB"
        vs_write = f"{med(write) / s:16.2f}x" if x["op"] in ("parquet", "pq.write_table") else ""
        print(f"  {x['tool'] + ' ' + x['op']:34} {s:9.3f} {rate:7.2f} {med(memcpy) / s:8.2f}x {vs_write:>17}{extra}")
PY
