"""The Python side of the end-to-end benchmark (run by benches/e2e.sh).

    python e2e.py records N RECORDS.bin     writes N packed records A (the data both sides use)
    python e2e.py run RECORDS.bin DIR R     times numpy, zarr-python and tensorstore, R repeats
    python e2e.py table RESULTS.jsonl...    prints the table of every tool's results (several
                                            runs' files: their repeats pooled)

Record A is the packed 21-byte dtype [('id','<u4'),('t','<f8'),('x','<f4'),('y','<f4'),
('flag','?')]; chunks hold 1M records and shards 4 chunks. Each timing is printed as one JSON
line {"tool", "op", "case", "seconds": [...], "bytes"}, like the Rust side (benches/e2e.rs).
Every array written is read back and compared with the records before it is timed.
tensorstore runs with file_io_sync=False (zarr-python's LocalStore does not fsync either) and
moves records as raw bytes (open_as_void), its fastest path for a struct array.
"""

import ctypes
import importlib.metadata
import json
import os
import shutil
import statistics
import sys
import time

import numpy as np

DT = np.dtype([("id", "<u4"), ("t", "<f8"), ("x", "<f4"), ("y", "<f4"), ("flag", "?")])
FIELDS = [{"name": "id", "data_type": "uint32"}, {"name": "t", "data_type": "float64"},
          {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"},
          {"name": "flag", "data_type": "bool"}]
CHUNK = 1_000_000


def make(n):
    a = np.empty(n, DT)
    a["id"] = np.arange(n, dtype=np.uint32)
    a["t"] = np.arange(n) * 1e-3
    rng = np.random.default_rng(0)
    a["x"] = rng.standard_normal(n, dtype=np.float32)
    a["y"] = np.round(rng.standard_normal(n, dtype=np.float32), 2)  # some compressibility
    a["flag"] = a["id"] % 7 == 0
    return a


def timed(repeats, run, setup=None):
    if setup:
        setup()
    run()  # warm-up
    seconds = []
    for _ in range(repeats):
        if setup:
            setup()
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return seconds


def emit(tool, op, case, seconds, nbytes):
    print(json.dumps({"tool": tool, "op": op, "case": case, "seconds": seconds, "bytes": nbytes}),
          flush=True)


def run_numpy(a, repeats):
    big = DT.newbyteorder(">")
    out = np.empty_like(a)
    emit("numpy", "memcpy", "", timed(repeats, lambda: np.copyto(out, a)), a.nbytes)
    emit("numpy", "encode", "swapped", timed(repeats, lambda: a.astype(big)), a.nbytes)
    b = a.astype(big)
    emit("numpy", "decode", "swapped", timed(repeats, lambda: b.astype(DT)), a.nbytes)


def run_zarr(a, repeats, root, small_pages=False):
    """zarr-python's rows; with small_pages, NumPy's arrays without its MADV_HUGEPAGE
    advice (so their memory faults in 4 KiB at a time, as a Rust Vec's does)."""
    import zarr
    from zarr.codecs import BytesCodec, ZstdCodec
    tool = f"zarr-python {zarr.__version__}" + (", 4 KiB pages" if small_pages else "")
    np._core.multiarray._set_madvise_hugepage(not small_pages)
    n = len(a)
    cases = {
        "uncompressed": dict(chunks=(CHUNK,), compressors=None),
        "uncompressed_big": dict(chunks=(CHUNK,), compressors=None, serializer=BytesCodec(endian="big")),
        "zstd": dict(chunks=(CHUNK,), compressors=ZstdCodec(level=3)),
        "sharded_uncompressed": dict(chunks=(CHUNK,), shards=(4 * CHUNK,), compressors=None),
        "sharded_zstd": dict(chunks=(CHUNK,), shards=(4 * CHUNK,), compressors=ZstdCodec(level=3)),
    }
    for case, options in cases.items():
        path = os.path.join(root, "zarr_" + case)

        def write():
            z = zarr.create_array(path, shape=(n,), dtype=DT, fill_value=np.zeros((), DT)[()],
                                  overwrite=True, **options)
            z[:] = a
        emit(tool, "write", case, timed(repeats, write, lambda: shutil.rmtree(path, ignore_errors=True)),
             a.nbytes)
        if not (zarr.open_array(path, mode="r")[:] == a).all():
            sys.exit(f"{tool} {case}: the records read back differ")
        emit(tool, "read", case, timed(repeats, lambda: zarr.open_array(path, mode="r")[:]), a.nbytes)
        # One field: zarr-python 3.4 reads whole records and NumPy takes the field (its
        # `fields=` selection of v2 is not in v3, zarr-python #3983).
        if not (zarr.open_array(path, mode="r")[:]["t"] == a["t"]).all():
            sys.exit(f"{tool} {case}: the field read back differs")
        emit(tool, "read field t", case,
             timed(repeats, lambda: np.ascontiguousarray(zarr.open_array(path, mode="r")[:]["t"])),
             a.nbytes)
        shutil.rmtree(path, ignore_errors=True)


def run_tensorstore(a, repeats, root):
    import tensorstore as ts
    tool = f"tensorstore {importlib.metadata.version('tensorstore')}"
    n = len(a)
    context = {"file_io_sync": False}
    little = {"name": "bytes", "configuration": {"endian": "little"}}
    big = {"name": "bytes", "configuration": {"endian": "big"}}
    zstd = {"name": "zstd", "configuration": {"level": 3, "checksum": False}}

    def sharded(codecs):
        return [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [CHUNK], "codecs": codecs,
            "index_codecs": [little, {"name": "crc32c"}], "index_location": "end"}}]
    cases = {
        "uncompressed": ([CHUNK], [little]),
        "uncompressed_big": ([CHUNK], [big]),
        "zstd": ([CHUNK], [little, zstd]),
        "sharded_uncompressed": ([4 * CHUNK], sharded([little])),
        "sharded_zstd": ([4 * CHUNK], sharded([little, zstd])),
    }
    def as_void(records):
        # tensorstore's byte dtype is NumPy's |V0: a view with explicit strides is copied as is
        # (a plain uint8 array is converted element by element, about 30 times slower).
        raw = records.view(np.uint8).reshape(n, DT.itemsize)
        return np.ndarray(raw.shape, dtype=np.dtype("V0"), buffer=raw, strides=raw.strides)
    # Opened as void, tensorstore moves each record's stored bytes unchanged: a big-endian
    # array is written from (and read back as) the big-endian records.
    stored = {"uncompressed_big": a.astype(DT.newbyteorder(">"))}
    for case, (chunk, codecs) in cases.items():
        source = stored.get(case, a)
        void = as_void(source)
        path = os.path.join(root, "ts_" + case)
        metadata = {"shape": [n], "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunk}},
                    "data_type": {"name": "struct", "configuration": {"fields": FIELDS}},
                    "fill_value": {"id": 0, "t": 0.0, "x": 0.0, "y": 0.0, "flag": False},
                    "codecs": codecs}

        def spec(**extra):
            return {"driver": "zarr3", "kvstore": {"driver": "file", "path": path}, "open_as_void": True,
                    **extra}

        def write():
            t = ts.open(spec(metadata=metadata, create=True, delete_existing=True),
                        context=ts.Context(context)).result()
            t.write(void).result()

        def read():
            return ts.open(spec(), context=ts.Context(context)).result().read().result()
        emit(tool, "write", case, timed(repeats, write, lambda: shutil.rmtree(path, ignore_errors=True)),
             a.nbytes)
        if not np.array_equal(void_bytes(read()), source.view(np.uint8)):
            sys.exit(f"{tool} {case}: the records read back differ")
        emit(tool, "read", case, timed(repeats, read), a.nbytes)

        def read_field():
            return ts.open(spec(open_as_void=False, field="t"), context=ts.Context(context)).result().read().result()
        if not np.array_equal(read_field(), a["t"]):
            sys.exit(f"{tool} {case}: the field read back differs")
        emit(tool, "read field t", case, timed(repeats, read_field), a.nbytes)
        shutil.rmtree(path, ignore_errors=True)


def void_bytes(array):
    """The bytes of a tensorstore byte array: NumPy |V0 (itemsize 0), so read through its
    data pointer."""
    count = int(np.prod(array.shape))
    address = array.__array_interface__["data"][0]
    return np.frombuffer((ctypes.c_uint8 * count).from_address(address), np.uint8).copy()


def table(*results_paths):
    """The table of one run's results, or of several runs' (their repeats pooled per cell):
    any file whose lines starting with "{" are results, such as e2e.sh's output."""
    rows = [json.loads(line) for path in results_paths for line in open(path)
            if line.startswith("{")]
    seconds = {}
    lines = {}
    for r in rows:
        key = (r["tool"], r["op"], r["case"])
        seconds.setdefault(key, []).extend(r["seconds"])
        lines[key] = lines.get(key, 0) + 1
    # Each run times each cell once a round.
    rounds = next(iter(lines.values()))
    median = {key: statistics.median(values) for key, values in seconds.items()}
    nbytes = {(r["tool"], r["op"], r["case"]): r["bytes"] for r in rows}
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    peers = [t for t in tools if t.startswith(("zarr-python", "tensorstore")) and "4 KiB" not in t]
    small = next((t for t in tools if t.startswith("zarr-python") and "4 KiB" in t), None)

    def rate(key):
        return nbytes[key] / median[key] / 2**30

    print(f"Record A, {rows[0]['bytes'] // 21:,} records ({rows[0]['bytes'] / 1e6:.0f} MB), "
          f"median of {len(next(iter(seconds.values())))} repeats"
          f"{f' in {rounds} rounds' if rounds > len(results_paths) else ''}"
          f"{f' pooled from {len(results_paths)} runs' if len(results_paths) > 1 else ''}; "
          "GiB/s of records (of all the records for "
          "\"read field t\", the field's share being 8 of 21 bytes).\n")
    print("| op | case | " + " | ".join(tools) + " | zarrdt ÷ best peer | zarrdt ÷ raw"
          " | huge pages: zarrdt ÷ best peer | 4 KiB pages: zarrdt ÷ zarr-python |")
    print("|---|---|" + "---:|" * (len(tools) + 4))
    for op, case in dict.fromkeys((r["op"], r["case"]) for r in rows):
        cells = [f"{rate((t, op, case)):.2f}" if (t, op, case) in median else "" for t in tools]
        ours = ("zarrdt", op, case)
        best = min((median[(p, op, case)] for p in peers if (p, op, case) in median), default=None)
        raw = median.get(("raw std::fs", op, "uncompressed")) if op in ("read", "write") else None
        vs_peer = f"{best / median[ours]:.2f}×" if best and ours in median else ""
        vs_raw = f"{raw / median[ours]:.2f}×" if raw and ours in median and case.startswith(("uncompressed", "sharded_uncompressed")) else ""
        huge = ("zarrdt, huge pages", op, case)
        vs_peer_huge = f"{best / median[huge]:.2f}×" if best and huge in median else ""
        vs_small = (f"{median[(small, op, case)] / median[ours]:.2f}×"
                    if small and (small, op, case) in median and ours in median else "")
        print(f"| {op} | {case} | " + " | ".join(cells)
              + f" | {vs_peer} | {vs_raw} | {vs_peer_huge} | {vs_small} |")
    one = "zarrdt 1 thread"
    scaling = [f"{op} {case} {median[(one, op, case)] / median[('zarrdt', op, case)]:.2f}×"
               for op, case in dict.fromkeys((r["op"], r["case"]) for r in rows)
               if (one, op, case) in median and ("zarrdt", op, case) in median]
    if scaling:
        print(f"\nzarrdt with both cores against one thread: {', '.join(scaling)}.")
    numpy_ratios = []
    for op in ("encode", "decode"):
        key, ours = ("numpy", op, "swapped"), ("zarrdt", op, "swapped")
        if key in median and ours in median:
            numpy_ratios.append(f"{op} {median[key] / median[ours]:.1f}×")
    if numpy_ratios:
        print(f"\nzarrdt's swapped codec against numpy's astype to the other byte order: {', '.join(numpy_ratios)}.")


def main():
    command, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if command == "records" and len(args) == 2:
        make(int(args[0])).tofile(args[1])
    elif command == "run" and len(args) == 3:
        a = np.fromfile(args[0], DT)
        os.makedirs(args[1], exist_ok=True)
        repeats = int(args[2])
        run_numpy(a, repeats)
        run_zarr(a, repeats, args[1])
        run_zarr(a, repeats, args[1], small_pages=True)
        np._core.multiarray._set_madvise_hugepage(True)
        run_tensorstore(a, repeats, args[1])
    elif command == "table" and args:
        table(*args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
