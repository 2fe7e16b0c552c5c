#!/usr/bin/env bash
# Runs fuzz targets one after another, each for SECONDS, from the committed corpus plus a working
# corpus (new inputs go to WORK/<target>), with the issue's limits: 256 MB RSS (and per malloc),
# 1 s per input. One libFuzzer job at a time, in fork mode (-fork=1), so that a crash, timeout or
# out-of-memory is saved and counted and the run goes on. Logs go to WORK/<target>.log, findings
# to WORK/artifacts/<target>/.
#
# Usage: fuzz/scripts/campaign.sh SECONDS [TARGET...]   (WORK defaults to /tmp/zarrdt-fuzz)
set -u
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=${*:-data_type_v3 descr_v2 metadata fill_value decode_dynamic decode_static cli_dump open_array damaged_arrays cli_import}
work=${WORK:-/tmp/zarrdt-fuzz}
# ASan's default 256 MB quarantine of freed memory would count against the 256 MB RSS limit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16}
status=0
for target in $targets; do
    dict=()
    [ "$target" != decode_static ] && [ "$target" != damaged_arrays ] && [ "$target" != cli_import ] \
        && dict=(-dict=zarr.dict)
    # damaged_arrays runs its reads on pools of one, two and three threads beside rayon's
    # global pool (their ASan stacks and shadow memory start it at about 210 MB), and its
    # inputs need a few dozen bytes to reach the edits (libFuzzer starts at a few).
    rss=256
    extra=()
    [ "$target" = damaged_arrays ] && rss=512 && extra=(-len_control=0 -max_len=256)
    mkdir -p "$work/$target" "$work/artifacts/$target"
    cargo +nightly fuzz run -O "$target" "$work/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb="$rss" -timeout=1 \
        -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
        "${dict[@]}" "${extra[@]}" -artifact_prefix="$work/artifacts/$target/" \
        >"$work/$target.log" 2>&1 || status=1
    # cli_dump's array directories and cli_import's tables and arrays, one per fuzzing process.
    rm -rf /dev/shm/zarrdt-fuzz-* 2>/dev/null
    echo "$target: $(grep -E '^#[0-9]+: cov' "$work/$target.log" | tail -1)"
    echo "  corpus: $(ls "$work/$target" | wc -l) new inputs; findings: $(ls "$work/artifacts/$target" | wc -l)"
    grep -E 'ERROR: libFuzzer|panicked at' "$work/$target.log" | sort | uniq -c | head -5
done
exit $status
