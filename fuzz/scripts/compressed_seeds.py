#!/usr/bin/env python3
"""Small compressed and sharded record arrays, written by zarr-python 3.4 (zstd, gzip, Blosc,
sharding with its crc32c index; numcodecs' zlib, bz2, lz4 and lzma; shards zstd encodes whole;
v3 and v2), as cli_dump seeds next to the uncompressed fixtures.

Usage (with zarr-python 3.4 and NumPy installed, e.g. the interop virtualenv tests/interop
creates): python fuzz/scripts/compressed_seeds.py OUT_DIR; then seeds.py --arrays OUT_DIR.
"""

import os
import sys

import numcodecs
import numpy as np
import zarr
from zarr.codecs import BloscCodec, BytesCodec, GzipCodec, ShardingCodec, ZstdCodec
from zarr.codecs import numcodecs as adapters

out = sys.argv[1]
nested = np.dtype([("t", "<i8"), ("p", [("x", ">f4"), ("y", ">f4")])])

flat = np.dtype([("id", "<u2"), ("x", "<f4"), ("ok", "?")])
flat_values = np.zeros(6, dtype=flat)
flat_values["id"] = np.arange(6)
flat_values["x"] = np.arange(6) / 2


def v3(name, compressors, dtype_=flat, data=flat_values, shards=None, chunks=(2,)):
    a = zarr.create_array(
        os.path.join(out, name), shape=data.shape, chunks=chunks, shards=shards,
        dtype=dtype_, compressors=compressors, zarr_format=3, fill_value=None,
    )
    a[:] = data


def v2(name, compressor, dtype_, data):
    a = zarr.create_array(
        os.path.join(out, name), shape=data.shape, chunks=(2,), dtype=dtype_,
        compressors=compressor, zarr_format=2, fill_value=None,
    )
    a[:] = data


v3("v3_zstd.zarr", [ZstdCodec(level=1)])
v3("v3_gzip.zarr", [GzipCodec(level=1)])
v3("v3_blosc.zarr", [BloscCodec(cname="lz4", clevel=1, typesize=7)])
v3("v3_sharded.zarr", [ZstdCodec(level=1)], shards=(4,))
v3("v3_sharded_raw.zarr", None, shards=(6,), chunks=(3,))
v2("v2_blosc.zarr", numcodecs.Blosc(cname="lz4", clevel=1), flat, flat_values)
v2("v2_zstd.zarr", numcodecs.Zstd(level=1), flat, flat_values)
n = np.zeros(4, dtype=nested)
n["t"] = np.arange(4)
v2("v2_nested_gzip.zarr", numcodecs.GZip(level=1), nested, n)

# numcodecs' compressors (issue 19): one seed each, v3 under zarr-python 3's numcodecs names
# and v2 under numcodecs' ids, and a shard zstd encodes whole.
v3("v3_numcodecs_zlib.zarr", [adapters.Zlib(level=1)])
v3("v3_numcodecs_bz2.zarr", [adapters.BZ2(level=1)])
v3("v3_numcodecs_lz4.zarr", [adapters.LZ4()])
v3("v3_numcodecs_lzma.zarr", [adapters.LZMA(preset=0)])
v2("v2_lz4.zarr", numcodecs.LZ4(), flat, flat_values)
v2("v2_lzma_raw.zarr", numcodecs.LZMA(format=3, filters=[{"id": 33, "preset": 0}]), flat,
   flat_values)
v2("v2_zlib.zarr", numcodecs.Zlib(level=1), flat, flat_values)
v2("v2_bz2.zarr", numcodecs.BZ2(level=1), flat, flat_values)
encoded = zarr.create_array(
    os.path.join(out, "v3_shard_zstd.zarr"), shape=flat_values.shape, chunks=(6,), dtype=flat,
    serializer=ShardingCodec(chunk_shape=(2,), codecs=[BytesCodec()]),
    compressors=[ZstdCodec(level=1)], zarr_format=3, fill_value=None,
)
encoded[:] = flat_values
