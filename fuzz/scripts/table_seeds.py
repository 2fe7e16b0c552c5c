#!/usr/bin/env python3
"""Seed inputs for the cli_import target: small tables made with pyarrow, as Parquet (snappy,
zstd, uncompressed, gzip) and Arrow IPC files and streams (uncompressed, LZ4 frames, zstd
buffers), each prefixed by the options byte cli_import reads.

Usage (with pyarrow installed): python3 fuzz/scripts/table_seeds.py OUT_DIR [ZARRDT]
(writes OUT_DIR/cli_import/<sha1>). With ZARRDT, the path of a built `zarrdt`, a few of the
zarr-python fixtures (tests/fixtures) are also exported with it, so that the tables carry
zarrdt's schema metadata (`zarr.data_type`, `zarr.dtype`, `zarr.fill_value`, `zarr.shape`).

The options byte (see fuzz_targets/cli_import.rs): bits 0-1 the format (0 Parquet, 1 IPC file,
2 IPC stream, 3 `.feather`), 2-3 the array's compression, 4-5 --chunks/--shards, 6-7
--batch-rows. The seeds keep the format's bits and vary the others.
"""

import datetime
import hashlib
import io
import os
import subprocess
import sys
import tempfile

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")

PARQUET, IPC_FILE, IPC_STREAM, FEATHER = 0, 1, 2, 3


def tables():
    """(name, table) of several column kinds, a few rows each."""
    n = 6
    yield "numbers", pa.table(
        {
            "i8": pa.array(range(-3, n - 3), pa.int8()),
            "i16": pa.array(range(n), pa.int16()),
            "i32": pa.array(range(n), pa.int32()),
            "i64": pa.array([2**62, -1, 0, 1, 7, -(2**63)], pa.int64()),
            "u8": pa.array(range(n), pa.uint8()),
            "u16": pa.array(range(n), pa.uint16()),
            "u32": pa.array(range(n), pa.uint32()),
            "u64": pa.array([2**64 - 1, 0, 1, 2, 3, 4], pa.uint64()),
            "f16": pa.array([0.5, -1.0, 2.0, 0.0, 65504.0, -0.0], pa.float16()),
            "f32": pa.array([0.5, float("nan"), float("inf"), -1.25, 0.0, 3.0], pa.float32()),
            "f64": pa.array([1e300, -1e-300, float("-inf"), 0.1, 2.0, 3.0], pa.float64()),
            "ok": pa.array([True, False, True, True, False, False]),
        }
    )
    yield "text", pa.table(
        {
            "s": pa.array(["", "a", "héllo", "日本語", "x" * 20, "🙂"]),
            "ls": pa.array(["a", "bb", "ccc", "", "e", "f"], pa.large_string()),
            "b": pa.array([b"", b"\x00\x01", b"abc", b"\xff" * 9, b"z", b"\x00"]),
            "fb": pa.array([bytes([i] * 4) for i in range(n)], pa.binary(4)),
        }
    )
    point = pa.struct([("x", pa.float32()), ("y", pa.float32())])
    yield "nested", pa.table(
        {
            "id": pa.array(range(n), pa.uint32()),
            "p": pa.array([{"x": float(i), "y": -float(i)} for i in range(n)], point),
            "v": pa.array([[i, i + 1, i + 2] for i in range(n)], pa.list_(pa.int16(), 3)),
            "q": pa.array(
                [{"t": i, "w": [float(i)] * 2} for i in range(n)],
                pa.struct([("t", pa.int64()), ("w", pa.list_(pa.float64(), 2))]),
            ),
        }
    )
    yield "lists", pa.table(
        {
            "l": pa.array([[1], [2, 3], [], [4, 5, 6], [7], [8]], pa.list_(pa.int32())),
            "m": pa.array([[b"a"], [b"bc"], [b"d"], [], [b""], [b"e"]], pa.list_(pa.binary())),
        }
    )
    yield "dictionary", pa.table(
        {
            "d": pa.array(["red", "green", "red", "blue", "green", "red"]).dictionary_encode(),
            "i": pa.array(range(n), pa.int64()),
        }
    )
    yield "nullable", pa.table(
        {
            "i": pa.array([1, None, 3, None, 5, 6], pa.int32()),
            "s": pa.array(["a", None, "c", "d", None, "f"]),
            "t": pa.array([0, None, 2, 3, None, 5], pa.timestamp("ms")),
        }
    )
    day = datetime.datetime(2024, 2, 29, 12, 30, 15)
    yield "time", pa.table(
        {
            "s": pa.array([day] * n, pa.timestamp("s")),
            "ms": pa.array([day] * n, pa.timestamp("ms")),
            "us": pa.array([day, None, day, day, None, day], pa.timestamp("us")),
            "ns": pa.array([0, 1, -1, 2**62, None, 5], pa.timestamp("ns", tz="UTC")),
            "tz": pa.array([day] * n, pa.timestamp("ms", tz="Europe/Paris")),
        }
    )
    yield "empty", pa.table({"x": pa.array([], pa.float64()), "s": pa.array([], pa.string())})
    yield "wide", pa.table({f"c{i}": pa.array([i] * 3, pa.uint8()) for i in range(24)})


def parquet(table, codec):
    sink = io.BytesIO()
    pq.write_table(table, sink, compression=codec, row_group_size=4)
    return sink.getvalue()


def ipc_bytes(table, stream, codec):
    sink = io.BytesIO()
    options = ipc.IpcWriteOptions(compression=codec)
    new = ipc.new_stream if stream else ipc.new_file
    with new(sink, table.schema, options=options) as writer:
        # Two batches where there are rows, so that a stream has more than one message.
        for batch in table.to_batches(max_chunksize=max(1, (table.num_rows + 1) // 2)):
            writer.write_batch(batch)
    return sink.getvalue()


class Writer:
    def __init__(self, out):
        self.directory = os.path.join(out, "cli_import")
        os.makedirs(self.directory, exist_ok=True)
        self.count = 0

    def write(self, fmt, data):
        # Cycle the other options: compression, chunks/shards, and mostly the default batch
        # rows (else 7).
        i = self.count
        self.count += 1
        batch = 0 if i % 3 else 2
        options = fmt | ((i % 4) << 2) | (((i // 4) % 4) << 4) | (batch << 6)
        data = bytes([options]) + data
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(self.directory, name), "wb") as f:
            f.write(data)


def exported(zarrdt):
    """Tables `zarrdt export` writes of a few fixtures (with zarrdt's schema metadata)."""
    arrays = [
        "zarr-python-3.4.2/v3_derive_enums_chars.zarr",
        "zarr-python-3.4.2/v3_struct_2d.zarr",
        "zarr-python-3.4.2/v3_struct_nested.zarr",
        "zarr-python-3.4.2/v3_struct_special_fills.zarr",
        "zarr-python-3.4.2/v2_by_34_aligned.zarr",
        "zarr-python-3.4.2/v2_by_34_mixed_order.zarr",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for array in arrays:
            path = os.path.join(FIXTURES, array)
            if not os.path.isdir(path):
                continue
            base = os.path.basename(array).removesuffix(".zarr")
            for fmt, ext in [(PARQUET, "parquet"), (IPC_FILE, "arrow"), (IPC_STREAM, "arrows")]:
                out = os.path.join(tmp, f"{base}.{ext}")
                done = subprocess.run([zarrdt, "export", path, out], capture_output=True)
                if done.returncode == 0:
                    with open(out, "rb") as f:
                        yield fmt, f.read()


def main(out, zarrdt=None):
    writer = Writer(out)
    for name, table in tables():
        for codec in ["snappy", "zstd"] if name != "numbers" else ["none", "gzip"]:
            writer.write(PARQUET, parquet(table, codec))
        if name in ("numbers", "text", "nested", "time"):
            for codec in [None, "lz4", "zstd"]:
                writer.write(IPC_FILE, ipc_bytes(table, False, codec))
                writer.write(IPC_STREAM, ipc_bytes(table, True, codec))
        else:
            writer.write(IPC_FILE, ipc_bytes(table, False, "lz4"))
            writer.write(IPC_STREAM, ipc_bytes(table, True, None))
            writer.write(IPC_STREAM, ipc_bytes(table, True, "zstd"))
    # A Feather V2 file (an IPC file, LZ4 by default) under its own extension.
    feather = io.BytesIO()
    import pyarrow.feather as pf

    pf.write_feather(next(tables())[1], feather)
    writer.write(FEATHER, feather.getvalue())
    if zarrdt:
        for fmt, data in exported(zarrdt):
            writer.write(fmt, data)
    print(f"{writer.count} seeds in {writer.directory}")


if __name__ == "__main__":
    main(*sys.argv[1:])
