#!/usr/bin/env python3
"""The table of `cargo bench --bench codec`: every case's median with its ratio to the memcpy
of the same bytes in the same run, from criterion's files under target/criterion.

    cargo bench --bench codec && python3 benches/report.py [target/criterion]

Rows of bytes are GiB/s and the ratio to the group's `memcpy` (`field/*` rows: to
`memcpy_field`, a copy of as many bytes as the field has), and for the codec rows of whole
records the ratio to the group's `store_loop` (the same bytes changed by a loop of ordinary
stores: the floor of any transform where `memcpy` streams with non-temporal stores); `values`
rows are records per second and nanoseconds per record.
"""
import json
import pathlib
import sys


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
    rows = {}
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        estimates = json.loads((bench.parent / "estimates.json").read_text())
        median_ns = estimates["median"]["point_estimate"]
        group, function = meta["group_id"], meta["function_id"]
        rows.setdefault(group, {})[function] = (median_ns, meta.get("throughput") or {})
    print("| group | case | median | throughput | ratio to memcpy | ratio to store_loop |")
    print("|---|---|---:|---:|---:|---:|")
    for group in sorted(rows):
        cases = rows[group]
        for function in sorted(cases, key=order):
            median_ns, throughput = cases[function]
            if "Bytes" in throughput:
                rate = throughput["Bytes"] / median_ns * 1e9 / 2**30
                base = cases.get("memcpy_field" if function.startswith("field/") else "memcpy")
                ratio = f"{base[0] / median_ns:.2f}×" if base and function not in ("memcpy", "memcpy_field") else ""
                # The floor of ordinary stores: for the codec rows of the records' bytes.
                loop = cases.get("store_loop")
                on_loop = "" if function.startswith(("field/", "memcpy", "store_loop")) or not loop else f"{loop[0] / median_ns:.2f}×"
                print(f"| {group} | {function} | {fmt_time(median_ns)} | {rate:.2f} GiB/s | {ratio} | {on_loop} |")
            elif "Elements" in throughput:
                per = median_ns / throughput["Elements"]
                print(f"| {group} | {function} | {fmt_time(median_ns)} | {per:.0f} ns/record | | |")


def order(function):
    for rank, prefix in enumerate(["memcpy", "store_loop", "encode", "decode", "swap", "values", "memcpy_field", "field"]):
        if function == prefix or function.startswith(prefix + "/") or function.startswith(prefix + "_"):
            return (rank, function)
    return (99, function)


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


if __name__ == "__main__":
    main()
