"""The Python side of the table benchmark (run by benches/arrow.sh).

    python arrow_e2e.py write N KIND DIR.zarr    zarr-python writes N records of KIND (A or
                                                 particle), uncompressed, chunks of 1M
    python arrow_e2e.py pyarrow DIR.zarr OUT R   zarr-python reads the array, pyarrow makes
                                                 the same table zarrdt exports and writes it
                                                 with pq.write_table (snappy, as zarrdt), R runs;
                                                 and memcpy of the records' bytes

Record A is [('id','<u4'),('t','<f8'),('x','<f4'),('y','<f4'),('flag','?')] (21 bytes); the
particle is the quickstart's (43 bytes), its `pos` a struct of fields "0", "1", "2" as Zarr
v3 stores a Rust array. Each timing is one JSON line {"tool", "op", "kind", "seconds",
"bytes"}.
"""

import json
import sys
import time
import warnings

import numpy as np

warnings.simplefilter("ignore")

A = np.dtype([("id", "<u4"), ("t", "<f8"), ("x", "<f4"), ("y", "<f4"), ("flag", "?")])
XYZ = np.dtype([("0", "<f4"), ("1", "<f4"), ("2", "<f4")])
VELOCITY = np.dtype([("vx", "<f4"), ("vy", "<f4"), ("vz", "<f4")])
PARTICLE = np.dtype([("id", "<u8"), ("pos", XYZ), ("velocity", VELOCITY), ("mass", "<f8"),
                     ("charge", "<f2"), ("alive", "?")])
CHUNK = 1_000_000


def make(n, kind):
    i = np.arange(n)
    rng = np.random.default_rng(0)
    if kind == "A":
        a = np.empty(n, A)
        a["id"] = i.astype(np.uint32)
        a["t"] = i * 1e-3
        a["x"] = rng.standard_normal(n, dtype=np.float32)
        a["y"] = np.round(rng.standard_normal(n, dtype=np.float32), 2)
        a["flag"] = i % 7 == 0
        return a
    a = np.zeros(n, PARTICLE)
    a["id"] = i
    for axis in "012":
        a["pos"][axis] = rng.standard_normal(n, dtype=np.float32)
    for axis in ("vx", "vy", "vz"):
        a["velocity"][axis] = rng.standard_normal(n, dtype=np.float32)
    a["mass"] = i % 1000 * 0.5
    a["charge"] = (i % 3 - 1).astype(np.float16)
    a["alive"] = i % 5 != 0
    return a


def emit(tool, op, kind, seconds, nbytes):
    print(json.dumps({"tool": tool, "op": op, "kind": kind, "seconds": seconds, "bytes": nbytes}),
          flush=True)


def write(n, kind, path):
    import zarr
    a = make(n, kind)
    z = zarr.create_array(path, shape=(n,), chunks=(CHUNK,), dtype=a.dtype, compressors=None,
                          overwrite=True)
    z[:] = a


def column(values):
    """The Arrow column zarrdt exports for a NumPy field: structs as structs."""
    import pyarrow as pa
    if values.dtype.names:
        return pa.StructArray.from_arrays([column(values[n]) for n in values.dtype.names],
                                          names=list(values.dtype.names))
    return pa.array(values)


def run_pyarrow(path, out, repeats):
    import pyarrow as pa
    import pyarrow.parquet as pq
    import zarr
    kind = "A" if "A" in path.rsplit("/", 1)[-1] else "particle"
    start = time.perf_counter()
    a = zarr.open_array(path, mode="r")[...]
    read = time.perf_counter() - start
    start = time.perf_counter()
    table = pa.table({name: column(a[name]) for name in a.dtype.names})
    build = time.perf_counter() - start
    emit(f"zarr-python {zarr.__version__}", "read", kind, [read], a.nbytes)
    emit(f"pyarrow {pa.__version__}", "table from numpy", kind, [build], a.nbytes)
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        pq.write_table(table, out)
        seconds.append(time.perf_counter() - start)
    emit(f"pyarrow {pa.__version__}", "pq.write_table", kind, seconds, a.nbytes)
    target = np.empty_like(a)
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        np.copyto(target, a)
        seconds.append(time.perf_counter() - start)
    emit("numpy", "memcpy", kind, seconds, a.nbytes)


def main(argv):
    if argv[0] == "write":
        write(int(argv[1]), argv[2], argv[3])
    elif argv[0] == "pyarrow":
        run_pyarrow(argv[1], argv[2], int(argv[3]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
