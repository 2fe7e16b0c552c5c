"""The zarr-python side of the S3 checks (tests/s3/check.sh), on the bucket of a local server.

    python zarr_side.py write BUCKET          zarr-python writes record arrays for Rust to read
    python zarr_side.py check BUCKET          reads every value of tests/suite/s3_interop.rs' arrays
    python zarr_side.py readings BUCKET NAME  reads every value examples/s3.rs wrote to NAME

The endpoint and credentials come from the AWS_* environment, as for the Rust side. Every
value is compared with the formula that made it (the same formulas are in
tests/suite/s3_interop.rs and examples/s3.rs); any difference fails with the field and first index.
"""

import importlib.metadata
import os
import sys


import dask
import dask.array
import numcodecs
import numpy as np
import tensorstore
import zarr
from zarr.codecs import BytesCodec, ZstdCodec


def storage_options():
    return {"endpoint_url": os.environ["AWS_ENDPOINT_URL"], "anon": False}


def require_equal(name, got, expected):
    """Fails with the first index where `got` and `expected` differ (NaNs equal, -0.0 != 0.0)."""
    if got.shape != expected.shape:
        sys.exit(f"{name}: shape {got.shape}, expected {expected.shape}")
    if got.dtype.kind == "f":
        same = (got.view(f"u{got.dtype.itemsize}") == expected.astype(got.dtype).view(f"u{got.dtype.itemsize}"))
        same |= np.isnan(got) & np.isnan(expected.astype(got.dtype))
    elif got.dtype.kind in "mM":
        same = got.view("i8") == expected.astype(got.dtype).view("i8")
    else:
        same = got == expected
    if not same.all():
        i = int(np.argmin(same))
        sys.exit(f"{name}: index {i} is {got[i]!r}, expected {expected[i]!r}")


# --- zarr-python writes, Rust reads (tests/suite/s3_interop.rs: python_wrote_records) ------------

PY_RECORDS = 10_007
PY_WRITTEN = 9_000
PY_DTYPE_V3 = np.dtype([("id", "<i4"), ("x", "<f8"), ("name", "<U5"), ("code", "S3"), ("raw", "V2"),
                        ("at", "<M8[us]"), ("span", "<m8[ns]"), ("flag", "?"),
                        ("inner", [("a", "u1"), ("b", "<i2")])])
PY_DTYPE_V2 = np.dtype([("id", ">i4"), ("x", "<f8"), ("name", "<U5"), ("code", "S3"), ("raw", "V2"),
                        ("at", "<M8[us]"), ("span", ">m8[ns]"), ("flag", "|b1"),
                        ("inner", [("a", "u1"), ("b", ">i2")])])


def python_records(dtype, n):
    i = np.arange(n, dtype=np.int64)
    a = np.zeros(n, dtype)
    a["id"] = i * 7 - 3000
    a["x"] = i / 4
    a["name"] = np.char.add("r", (i % 10_000).astype(str))
    a["code"] = np.char.add(b"b", (i % 100).astype("S"))
    a["raw"] = np.stack([i % 251, np.zeros_like(i)], axis=1).astype(np.uint8).view("V2").reshape(n)
    a["at"] = (1_600_000_000_000_000 + i * 1000).astype("M8[us]")
    a["span"] = (i * 1_000_003 - 5_000_000_000).astype("m8[ns]")
    a["flag"] = i % 3 == 0
    a["inner"]["a"] = i % 256
    a["inner"]["b"] = i % 65_536 - 32_768
    return a


def python_fill(dtype):
    return np.array((-1, -0.5, "fill", b"zz", b"\x09\x08", np.datetime64("NaT", "us"),
                     np.timedelta64("NaT", "ns"), True, (255, -1)), dtype)[()]


def write(bucket):
    so = storage_options()
    for name, dtype, extra in [
        ("v3.zarr", PY_DTYPE_V3, dict(zarr_format=3, shards=(4000,), serializer=BytesCodec(endian="big"),
                                      compressors=ZstdCodec(level=3))),
        # zarr-python 3.4's Blosc and Zstd refuse v2 chunks with datetime fields ("cannot
        # include dtype 'M' in a buffer"); GZip takes them.
        ("v2.zarr", PY_DTYPE_V2, dict(zarr_format=2, compressors=numcodecs.GZip(level=5))),
    ]:
        url = f"s3://{bucket}/python/{name}"
        z = zarr.create_array(url, shape=(PY_RECORDS,), chunks=(1000,), dtype=dtype,
                              fill_value=python_fill(dtype), storage_options=so, overwrite=True, **extra)
        z[:PY_WRITTEN] = python_records(dtype, PY_WRITTEN)
        print(f"  zarr-python {zarr.__version__} wrote {url} (Zarr v{z.metadata.zarr_format})")


# --- Rust writes, zarr-python reads (examples/s3.rs, tests/suite/s3_interop.rs: rust_wrote_records) ---

def check_readings(bucket, name):
    """examples/s3.rs: every reading of `s3://BUCKET/NAME`."""
    a = zarr.open_array(f"s3://{bucket}/{name}", mode="r", storage_options=storage_options())
    v = a[:]
    i = np.arange(a.shape[0], dtype=np.int64)
    require_equal("readings.sensor", v["sensor"], i % 1000)
    require_equal("readings.time", v["time"], (1_700_000_000_000 + i).astype("M8[ms]"))
    require_equal("readings.value", v["value"], (i % 977).astype(np.float32) * np.float32(0.5))
    require_equal("readings.ok", v["ok"], i % 13 != 0)
    print(f"  s3://{bucket}/{name}: all {a.shape[0]} readings as written")


RUST_RECORDS = 100_003
RUST_WRITTEN = 95_000


def check_samples(v, n, prefix):
    """tests/suite/s3_interop.rs `sample(i)` for i in 0..n, then its fill."""
    i = np.arange(n, dtype=np.int64)
    w = v[:n]
    require_equal(f"{prefix}.id", w["id"], i.astype(np.uint64) * np.uint64(1_000_003))
    if "pos" in w.dtype.names:
        require_equal(f"{prefix}.pos.0", w["pos"]["0"], i.astype(np.float32))
        require_equal(f"{prefix}.pos.1", w["pos"]["1"], -i.astype(np.float32))
        require_equal(f"{prefix}.pos.2", w["pos"]["2"], i.astype(np.float32) * np.float32(0.25))
        require_equal(f"{prefix}.vel.vx", w["vel"]["vx"], i * 0.5)
        require_equal(f"{prefix}.vel.vy", w["vel"]["vy"], -i.astype(np.float64))
        require_equal(f"{prefix}.charge", w["charge"], (i % 2048 - 1024).astype(np.float16))
    require_equal(f"{prefix}.label", w["label"], np.char.add("s", (i % 100_000).astype(str)))
    require_equal(f"{prefix}.code", w["code"], np.char.add(b"c", (i % 1000).astype("S")))
    raw = np.stack([i % 256, (i >> 8) % 256, np.full(n, 7)], axis=1).astype(np.uint8)
    require_equal(f"{prefix}.raw", np.ascontiguousarray(w["raw"]).view(np.uint8).reshape(n, 3), raw)
    require_equal(f"{prefix}.span", w["span"], (-3 * i).astype("m8[us]"))
    require_equal(f"{prefix}.at", w["at"], (1_700_000_000_000_000_000 + i * 1_000_000_007).astype("M8[ns]"))
    require_equal(f"{prefix}.ok", w["ok"], i % 5 != 0)
    f = v[n:]
    m = len(f)
    require_equal(f"{prefix}.fill.id", f["id"], np.full(m, 2**64 - 1, np.uint64))
    if "pos" in f.dtype.names:
        require_equal(f"{prefix}.fill.pos.0", f["pos"]["0"], np.full(m, np.nan, np.float32))
        require_equal(f"{prefix}.fill.pos.1", f["pos"]["1"], np.full(m, -0.0, np.float32))
        require_equal(f"{prefix}.fill.pos.2", f["pos"]["2"], np.full(m, -np.inf, np.float32))
        require_equal(f"{prefix}.fill.vel.vx", f["vel"]["vx"], np.full(m, -1.0))
        require_equal(f"{prefix}.fill.charge", f["charge"], np.full(m, np.nan, np.float16))
    require_equal(f"{prefix}.fill.label", f["label"], np.full(m, "", "U6"))
    require_equal(f"{prefix}.fill.code", f["code"], np.full(m, b"", "S4"))
    require_equal(f"{prefix}.fill.raw", np.ascontiguousarray(f["raw"]).view(np.uint8).reshape(m, 3),
                  np.tile(np.array([0xff, 0, 1], np.uint8), (m, 1)))
    require_equal(f"{prefix}.fill.span", f["span"], np.full(m, np.timedelta64("NaT", "us"), "m8[us]"))
    require_equal(f"{prefix}.fill.at", f["at"], np.full(m, np.datetime64("NaT", "ns"), "M8[ns]"))
    require_equal(f"{prefix}.fill.ok", f["ok"], np.zeros(m, bool))


FLAT_FIELDS = ["id", "x", "y", "n", "ok"]


def check_flat_field(got, field, n, prefix):
    """Field `field` of tests/suite/s3_interop.rs `flat(i)` for i in 0..n, then of its fill."""
    i = np.arange(n, dtype=np.int64)
    written, fill = {
        "id": (i.astype(np.uint64) * np.uint64(3), np.uint64(2**64 - 1)),
        "x": (i.astype(np.float32) * np.float32(0.5), np.float32("nan")),
        "y": (-(i / 3.0), np.inf),
        "n": ((i % 30_000 - 15_000).astype(np.int16), np.int16(-1)),
        "ok": (i % 7 != 0, True),
    }[field]
    require_equal(f"{prefix}.{field}", got[:n], written)
    require_equal(f"{prefix}.{field}.fill", got[n:], np.full(len(got) - n, fill, got.dtype))


def check_rust(bucket):
    so = storage_options()
    url = f"s3://{bucket}/rust/flat.zarr"
    records = zarr.open_array(url, mode="r", storage_options=so)[:]
    for field in FLAT_FIELDS:
        check_flat_field(records[field], field, RUST_WRITTEN, url)
    print(f"  {url}: all {RUST_RECORDS} records as written (zarr-python)")
    for field in FLAT_FIELDS:
        spec = {"driver": "zarr3", "field": field,
                "kvstore": {"driver": "s3", "bucket": bucket, "path": "rust/flat.zarr/",
                            "endpoint": os.environ["AWS_ENDPOINT_URL"],
                            "aws_region": os.environ["AWS_REGION"],
                            "aws_credentials": {"type": "environment"}}}
        values = tensorstore.open(spec, read=True).result().read().result()
        check_flat_field(values, field, RUST_WRITTEN, f"tensorstore {url}")
    print(f"  {url}: every field of all {RUST_RECORDS} records as written "
          f"(tensorstore {importlib.metadata.version('tensorstore')})")
    for name in ["v3.zarr", "v2.zarr"]:
        url = f"s3://{bucket}/rust/{name}"
        a = zarr.open_array(url, mode="r", storage_options=so)
        if a.shape != (RUST_RECORDS,):
            sys.exit(f"{url}: shape {a.shape}, expected ({RUST_RECORDS},)")
        check_samples(a[:], RUST_WRITTEN, url)
        print(f"  {url} (Zarr v{a.metadata.zarr_format}): all {RUST_RECORDS} records as written")
    url = f"s3://{bucket}/rust/v3.zarr"
    lazy = dask.array.from_zarr(url, storage_options=so)
    check_samples(lazy.compute(), RUST_WRITTEN, f"dask {url}")
    print(f"  {url}: all {RUST_RECORDS} records as written (Dask {dask.__version__})")


def main():
    command, args = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if command == "write" and len(args) == 1:
        write(*args)
    elif command == "check" and len(args) == 1:
        check_rust(*args)
    elif command == "readings" and len(args) == 2:
        check_readings(*args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
