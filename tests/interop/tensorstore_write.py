"""tensorstore writes record arrays; zarrdt reads them (issue 8, "zarrdt reads what they write").

tensorstore (0.1.85+) creates Zarr v3 struct arrays of core scalar types (zarr3 driver) and
Zarr v2 structured arrays (zarr driver) and writes them one field at a time through its
"field" option. Cases: both byte orders, uncompressed, zstd, Blosc, sharded with a crc32c
index, a fill value in every field, chunks left unwritten. Each array is then read by the
zarrdt command (`zarrdt dump --format json`, through zarrs and zarrdt's data types), and every
value of every field must be what tensorstore wrote, bit for bit (the unwritten elements the
fill value), and the fill value must be tensorstore's.

Usage: tensorstore_write.py OUT_DIR ZARRDT_BINARY
"""

import importlib.metadata
import json
import base64
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import tensorstore as ts

N = 20  # elements; tensorstore writes 0..WRITTEN, the rest is the fill value
WRITTEN = 13

# (name, v3 data type, v2 typestr without byte order, numpy type)
FIELDS = [
    ("id", "uint64", "u8", np.uint64),
    ("t", "float64", "f8", np.float64),
    ("x", "float32", "f4", np.float32),
    ("flag", "bool", "b1", np.bool_),
    ("level", "int16", "i2", np.int16),
    ("code", "uint8", "u1", np.uint8),
]
FILL = {"id": 42, "t": -0.0, "x": 1.5, "flag": True, "level": -7, "code": 255}


def values(name, dtype):
    """The values tensorstore writes to field `name`."""
    i = np.arange(WRITTEN)
    return {
        "id": (i * 1_000_003 + 2**40),
        "t": i * 0.25 - 1.0,
        "x": i / 8.0 - 0.5,
        "flag": i % 3 == 0,
        "level": i * 11 - 60,
        "code": i * 19 % 256,
    }[name].astype(dtype)


def expected(name, dtype):
    fill = np.array([FILL[name]] * (N - WRITTEN), dtype=dtype)
    return np.concatenate([values(name, dtype), fill])


def v3_spec(path, endian, codecs, chunks):
    fields = [{"name": n, "data_type": t} for n, t, _, _ in FIELDS]
    return {
        "driver": "zarr3",
        "kvstore": {"driver": "file", "path": str(path)},
        "metadata": {
            "shape": [N],
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [chunks]}},
            "data_type": {"name": "struct", "configuration": {"fields": fields}},
            "fill_value": FILL,
            "codecs": codecs(endian),
        },
    }


def v2_spec(path, endian, compressor, chunks):
    dtype = [[n, ("|" if v2 in ("b1", "u1") else endian) + v2] for n, _, v2, _ in FIELDS]
    fill = np.zeros((), np.dtype([tuple(f) for f in dtype]))
    for n in FILL:
        fill[n] = FILL[n]

    return {
        "driver": "zarr",
        "kvstore": {"driver": "file", "path": str(path)},
        "metadata": {
            "shape": [N],
            "chunks": [chunks],
            "dtype": dtype,
            "compressor": compressor,
            "fill_value": base64.b64encode(fill.tobytes()).decode(),
            "order": "C",
            "filters": None,
        },
    }


def plain(endian):
    return [{"name": "bytes", "configuration": {"endian": endian}}]


def zstd(endian):
    return plain(endian) + [{"name": "zstd", "configuration": {"level": 3, "checksum": False}}]


def sharded(endian):
    return [
        {
            "name": "sharding_indexed",
            "configuration": {
                "chunk_shape": [3],
                "codecs": zstd(endian),
                "index_codecs": [
                    {"name": "bytes", "configuration": {"endian": "little"}},
                    {"name": "crc32c"},
                ],
                "index_location": "end",
            },
        }
    ]


BLOSC = {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}

CASES = [
    ("v3_little", lambda p: v3_spec(p, "little", plain, 4)),
    ("v3_big_zstd", lambda p: v3_spec(p, "big", zstd, 6)),
    ("v3_sharded", lambda p: v3_spec(p, "little", sharded, 9)),
    ("v3_big_sharded", lambda p: v3_spec(p, "big", sharded, 9)),
    ("v2_little", lambda p: v2_spec(p, "<", None, 4)),
    ("v2_big_blosc", lambda p: v2_spec(p, ">", BLOSC, 7)),
]


def bits(array):
    return array.view(np.uint8).tobytes()


def check(name, spec, path, zarrdt):
    shutil.rmtree(path, ignore_errors=True)
    for i, (field, _, _, dtype) in enumerate(FIELDS):
        handle = ts.open({**spec, "field": field, **({"create": True} if i == 0 else {})}).result()
        handle[0:WRITTEN].write(values(field, dtype)).result()
    run = subprocess.run([zarrdt, "dump", "--format", "json", str(path)], capture_output=True)
    if run.returncode != 0:
        return [f"zarrdt dump failed ({run.returncode}): {run.stderr.decode().strip()}"]
    dump = json.loads(run.stdout)
    problems = []
    if dump["shape"] != [N]:
        problems.append(f"shape {dump['shape']}")
    if len(dump["values"]) != N:
        return problems + [f"{len(dump['values'])} values"]
    for field, _, _, dtype in FIELDS:
        got = np.array([record[field] for record in dump["values"]], dtype=dtype)
        want = expected(field, dtype)
        if bits(got) != bits(want):
            problems.append(f"field {field}: {got.tolist()} != {want.tolist()}")
        fill = np.array([dump["fill_value"][field]], dtype=dtype)
        if bits(fill) != bits(np.array([FILL[field]], dtype=dtype)):
            problems.append(f"fill {field}: {dump['fill_value'][field]!r}")
    # What tensorstore reads back agrees too (the arrays are what it meant to write).
    for field, _, _, dtype in FIELDS:
        back = ts.open({**spec, "field": field}).result().read().result()
        if bits(np.asarray(back, dtype=dtype)) != bits(expected(field, dtype)):
            problems.append(f"tensorstore reads its own field {field} differently")
    return problems


def main():
    out, zarrdt = Path(sys.argv[1]), sys.argv[2]
    out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name, spec in CASES:
        path = out / name
        try:
            problems = check(name, spec(path), path, zarrdt)
        except Exception as error:  # a writer that fails is a failure, never a skip
            problems = [f"{type(error).__name__}: {error}"]
        for problem in problems:
            print(f"FAIL {name}: {problem}")
        if problems:
            failures += 1
        else:
            print(f"  ok {name}: {len(FIELDS)} fields, {N} records")
    print(f"tensorstore {importlib.metadata.version('tensorstore')} wrote {len(CASES)} record arrays; zarrdt read "
          f"{len(CASES) - failures} exactly")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
