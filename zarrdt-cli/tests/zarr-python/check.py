"""zarr-python writes compressed record arrays; `zarrdt dump --format json` must read every
element as zarr-python reads it back, bit for bit.

Usage: python check.py ZARRDT_BINARY WORKDIR   (with the zarr-python to test installed)

Cases, for whichever zarr-python runs this (2.18, 3.1, 3.4):
* Zarr v2: Blosc (lz4, shuffle), zstd, gzip; nested records, mixed byte order, a subarray
  field (2.18 only: zarr-python 3 cannot write them), 2-D with missing chunks, F order,
  unnamed fields (NumPy names them f<index>);
* Zarr v3 (3.x): zstd, gzip, Blosc, sharding; nested records, 2-D with missing chunks,
  unnamed fields (3.1 writes them as "" in legacy pairs);
* every other numcodecs compressor zarr-python offers for records (issue 19): zlib, bz2,
  lz4, lzma (xz, alone and raw with a filter chain) and the adler32, crc32 (checksum first
  and last), fletcher32 (chunks of odd length) and jenkins_lookup3 (seeded too) checksums,
  in Zarr v2 (numcodecs ids) and v3 (zarr-python 3's `numcodecs.*` codecs, written with
  their default `{}` configurations too); base64 and crc32c (Zarr v2); zarr-python 3's
  `numcodecs.*` names of zstd, gzip, blosc and crc32c (v3); and v3 shards that zstd or gzip
  encode whole (`ShardingCodec` as the serializer, a compressor after it). These have a fill value of special floats, text
  and bools, and chunks never written; zarrdt must read every value and the fill value bit
  for bit. zarr-python 2.18 and 3.4 must write every one (3.1 cannot write nested v2
  records or sharded v3 records: skipped).

Values include NaN with and without payload, infinities and -0.0. Both sides are compared in
one typed form: floats as their bit patterns, bytes as hex (as tests/fixtures record them).
"""

import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import zarr

ZARR_MAJOR = int(zarr.__version__.split(".")[0])
SERIES = ".".join(zarr.__version__.split(".")[:2])


# ------------------------------------------------------------------------------------------
# The typed form
# ------------------------------------------------------------------------------------------

def typed(x):
    """The typed form of a 0-d (or subarray) ndarray, as zarr-python read it."""
    dt = x.dtype
    if x.ndim > 0:
        return [typed(x[i, ...]) for i in range(x.shape[0])]
    if dt.names is not None:
        return {name: typed(np.asarray(x[name])) for name in dt.names}
    b = x.tobytes()
    order = "big" if dt.byteorder == ">" else "little"
    k = dt.kind
    if k == "b":
        return bool(b[0])
    if k in "iuMm":
        return int.from_bytes(b, order, signed=(k in "iMm"))
    if k == "f":
        return "0x%0*x" % (2 * len(b), int.from_bytes(b, order))
    if k == "c":
        h = len(b) // 2
        return ["0x%0*x" % (2 * h, int.from_bytes(p, order)) for p in (b[:h], b[h:])]
    if k == "U":
        return str(x[()])
    if k in "SV":
        return b.hex()
    raise TypeError(dt)


CANONICAL = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}
INFINITY = {2: 0x7C00, 4: 0x7F800000, 8: 0x7FF0000000000000}
PACK = {2: "<e", 4: "<f", 8: "<d"}


def float_bits(j, size):
    if j == "NaN":
        return CANONICAL[size]
    if j == "Infinity":
        return INFINITY[size]
    if j == "-Infinity":
        return INFINITY[size] | (1 << (8 * size - 1))
    if isinstance(j, str):
        assert j.startswith("0x") and len(j) == 2 + 2 * size and j == j.lower(), j
        return int(j, 16)
    # A JSON number: the nearest float of this size (Python parses to f64 first).
    return int.from_bytes(struct.pack(PACK[size], float(j)), "little")


def dumped(j, dt):
    """The typed form of one element of `zarrdt dump`, `dt` the dtype zarr-python read."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        def nest(v, dims):
            if not dims:
                return dumped(v, base)
            assert isinstance(v, list) and len(v) == dims[0], v
            return [nest(item, dims[1:]) for item in v]
        return nest(j, list(shape))
    if dt.names is not None:
        assert list(j.keys()) == list(dt.names), (list(j.keys()), dt.names)
        return {name: dumped(j[name], dt.fields[name][0]) for name in dt.names}
    k = dt.kind
    if k == "f":
        return "0x%0*x" % (2 * dt.itemsize, float_bits(j, dt.itemsize))
    if k == "c":
        h = dt.itemsize // 2
        return ["0x%0*x" % (2 * h, float_bits(p, h)) for p in j]
    return j


def flatten(v, ndim):
    if ndim == 0:
        return [v]
    return [e for item in v for e in flatten(item, ndim - 1)]


# ------------------------------------------------------------------------------------------
# Writing
# ------------------------------------------------------------------------------------------

NESTED = [("id", "<u4"), ("vel", [("x", "<f8"), ("y", "<f4")]), ("flag", "?"), ("c", "<c8")]
# zarr-python 3 cannot write datetime fields of v2 records ("cannot include dtype 'M' in a
# buffer"); 2.18 can.
MIXED = [("a", "<i4"), ("b", ">f8")] + ([("t", "<M8[s]")] if ZARR_MAJOR == 2 else [])
SUBARRAY = [("x", "<f4"), ("pos", "<f8", (2, 2)), ("s", "<U3")]
# An unnamed field (NumPy keeps "" as a name in the dict form): zarr-python 2.18 and 3.1 write
# it as "" (v2 descr, v3 legacy pairs) and read it back as NumPy names it, f<index>.
UNNAMED = {"names": ["", "x"], "formats": ["<i4", "<u2"]}

SPECIAL_F8 = [0.5, -0.0, float("inf"), float("-inf"), float("nan"),
              struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0], 1e-300, 1.0 / 3]


def values(dtype, n):
    """`n` records of `dtype`, special floats included."""
    a = np.zeros(n, dtype=dtype)
    for i in range(n):
        for name in dtype.names:
            sub = dtype.fields[name][0]
            if sub.names is not None:
                a[name][i] = values(sub, 1)[0]
                continue
            base = sub.subdtype[0] if sub.subdtype else sub
            k = base.kind
            if k == "f":
                v = SPECIAL_F8[(i + len(name)) % len(SPECIAL_F8)] * (1 if i % 3 else -1)
            elif k == "c":
                v = complex(SPECIAL_F8[i % len(SPECIAL_F8)], i / 4)
            elif k == "b":
                v = i % 2 == 0
            elif k == "M":
                v = np.datetime64(1_700_000_000 + i, "s") if i % 4 else np.datetime64("NaT")
            elif k == "U":
                v = ["", "é", "abc", "日本"][i % 4]
            else:
                v = (i * 2654435761) % 1000
            a[name][i] = v
    return a


def filled(dtype, shape):
    return values(np.dtype(dtype), int(np.prod(shape))).reshape(shape)


def create(path, zarr_format, shape, chunks, dtype, compressor, order="C", shards=None):
    dtype = np.dtype(dtype)
    fill = np.zeros((), dtype=dtype)[()]  # a numpy scalar (np.void for records)
    if ZARR_MAJOR == 2:
        import numcodecs
        codec = {"blosc": numcodecs.Blosc("lz4", 5, numcodecs.Blosc.SHUFFLE),
                 "zstd": numcodecs.Zstd(3), "gzip": numcodecs.GZip(5), None: None}[compressor]
        return zarr.open_array(path, mode="w", shape=shape, chunks=chunks, dtype=dtype,
                               fill_value=fill, compressor=codec, order=order)
    kwargs = {}
    if zarr_format == 2:
        import numcodecs
        kwargs["compressors"] = {"blosc": numcodecs.Blosc("lz4", 5, numcodecs.Blosc.SHUFFLE),
                                 "zstd": numcodecs.Zstd(level=3), "gzip": numcodecs.GZip(5),
                                 None: None}[compressor]
        kwargs["order"] = order
    else:
        from zarr.codecs import BloscCodec, GzipCodec, ZstdCodec
        kwargs["compressors"] = {"blosc": BloscCodec(cname="lz4", shuffle="shuffle"),
                                 "zstd": ZstdCodec(level=3), "gzip": GzipCodec(level=5),
                                 None: None}[compressor]
        if shards is not None:
            kwargs["shards"] = shards
    return zarr.create_array(store=path, shape=shape, chunks=chunks, dtype=dtype,
                             fill_value=fill, zarr_format=zarr_format, **kwargs)


# ------------------------------------------------------------------------------------------
# The numcodecs compressors (issue 19)
# ------------------------------------------------------------------------------------------

TEXT = [("id", "<u2"), ("name", "<U5"), ("ok", "?"), ("w", ">f4")]
BIG = [("a", ">i4"), ("b", ">f8"), ("inner", [("c", ">u2"), ("d", "?")])]

# What zarr-python is given for each compressor name: numcodecs' class and arguments.
NUMCODECS = {
    "zlib": ("Zlib", {"level": 5}),
    "zlib_default": ("Zlib", {}),
    "bz2": ("BZ2", {"level": 3}),
    "bz2_default": ("BZ2", {}),
    "lz4": ("LZ4", {"acceleration": 3}),
    "lz4_default": ("LZ4", {}),
    "lzma": ("LZMA", {"preset": 1}),
    "lzma_default": ("LZMA", {}),
    "lzma_alone": ("LZMA", {"format": 2, "preset": 2}),
    "lzma_raw": ("LZMA", {"format": 3, "filters": [{"id": 3, "dist": 4},
                                                   {"id": 33, "preset": 1}]}),
    "adler32": ("Adler32", {}),
    "fletcher32": ("Fletcher32", {}),
    "crc32": ("CRC32", {}),
    "crc32_end": ("CRC32", {"location": "end"}),
    "jenkins_lookup3": ("JenkinsLookup3", {}),
    "jenkins_lookup3_seeded": ("JenkinsLookup3", {"initval": 7}),
    # zarr-python 3's `numcodecs.*` names of codecs it also has under core names (v3 only).
    "numcodecs_zstd": ("Zstd", {"level": 3}),
    "numcodecs_zstd_default": ("Zstd", {}),
    "numcodecs_gzip": ("GZip", {"level": 5}),
    "numcodecs_blosc_default": ("Blosc", {}),
    "numcodecs_blosc_zstd": ("Blosc", {"cname": "zstd", "clevel": 3, "shuffle": 2}),
    "numcodecs_crc32c": ("CRC32C", {}),
    "numcodecs_crc32c_start": ("CRC32C", {"location": "start"}),
    "base64": ("Base64", {}),
}

# The checksums, which zarr-python 2 takes as filters (before a compressor).
CHECKSUMS = ("adler32", "fletcher32", "crc32", "crc32_end", "jenkins_lookup3",
             "jenkins_lookup3_seeded")


def numcodecs_codec(name, zarr_format):
    """The codec object zarr-python takes for `name`: numcodecs' own for Zarr v2, zarr-python
    3's `numcodecs.*` adapters for v3."""
    cls, kwargs = NUMCODECS[name]
    if zarr_format == 3:
        from zarr.codecs import numcodecs as adapters
        return getattr(adapters, cls)(**kwargs)
    import numcodecs
    return getattr(numcodecs, cls)(**kwargs)


def create_codec_case(path, zarr_format, shape, chunks, dtype, codec, fill, shards=None):
    """An array compressed by a numcodecs codec (or, `shard+zstd` / `shard+gzip`, shards of
    `shards` encoded whole), whose fill value is `fill`."""
    dtype = np.dtype(dtype)
    if ZARR_MAJOR == 2:
        compressor = numcodecs_codec(codec, 2)
        if codec in CHECKSUMS:
            # numcodecs checksums are filters before a compressor in zarr-python 2.
            return zarr.open_array(path, mode="w", shape=shape, chunks=chunks, dtype=dtype,
                                   fill_value=fill, filters=[compressor], compressor=None)
        return zarr.open_array(path, mode="w", shape=shape, chunks=chunks, dtype=dtype,
                               fill_value=fill, compressor=compressor)
    if codec.startswith("shard+"):
        from zarr.codecs import BytesCodec, GzipCodec, ShardingCodec, ZstdCodec
        inner = ShardingCodec(chunk_shape=chunks, codecs=[BytesCodec()])
        outer = {"shard+zstd": ZstdCodec(level=3), "shard+gzip": GzipCodec(level=5)}[codec]
        return zarr.create_array(store=path, shape=shape, chunks=shards, dtype=dtype,
                                 fill_value=fill, zarr_format=3, serializer=inner,
                                 compressors=outer)
    return zarr.create_array(store=path, shape=shape, chunks=chunks, dtype=dtype,
                             fill_value=fill, zarr_format=zarr_format,
                             compressors=numcodecs_codec(codec, zarr_format))


def codec_cases():
    """(name, zarr_format, shape, chunks, dtype, codec, shards, region): each codec over a
    record type, the region written leaving whole chunks unwritten."""
    first = (slice(0, 7),)
    out = []
    for codec, dtype in [("zlib", NESTED), ("bz2", TEXT), ("lz4", BIG), ("lzma", NESTED),
                         ("lzma_alone", TEXT), ("lzma_raw", BIG), ("adler32", TEXT),
                         ("fletcher32", NESTED), ("crc32", BIG), ("crc32_end", TEXT),
                         ("jenkins_lookup3", NESTED), ("jenkins_lookup3_seeded", BIG),
                         ("base64", TEXT)]:
        out.append((f"v2_{codec}", 2, (13,), (3,), dtype, codec, None, first))
    if ZARR_MAJOR == 3:
        # numcodecs 0.15 (zarr-python 2.18's) has CRC32C only with the crc32c module.
        for codec, dtype in [("numcodecs_crc32c", TEXT), ("numcodecs_crc32c_start", BIG)]:
            out.append((f"v2_{codec}", 2, (13,), (3,), dtype, codec, None, first))
    if ZARR_MAJOR == 2:
        out.append(("v2_lz4_subarray", 2, (9,), (4,), SUBARRAY, "lz4", None, (slice(0, 5),)))
        out.append(("v2_lzma_subarray", 2, (9,), (4,), SUBARRAY, "lzma_raw", None,
                    (slice(0, 5),)))
        return out
    for codec, dtype in [("zlib_default", NESTED), ("zlib", BIG), ("bz2_default", TEXT),
                         ("lz4_default", NESTED), ("lz4", TEXT), ("lzma_default", BIG),
                         ("lzma_alone", NESTED), ("lzma_raw", TEXT), ("adler32", BIG),
                         ("fletcher32", TEXT), ("crc32", NESTED), ("crc32_end", BIG),
                         ("jenkins_lookup3", TEXT), ("jenkins_lookup3_seeded", NESTED),
                         ("numcodecs_zstd", NESTED), ("numcodecs_zstd_default", TEXT),
                         ("numcodecs_gzip", BIG), ("numcodecs_blosc_default", NESTED),
                         ("numcodecs_blosc_zstd", TEXT), ("numcodecs_crc32c", BIG),
                         ("numcodecs_crc32c_start", NESTED)]:
        out.append((f"v3_{codec}", 3, (13,), (3,), dtype, codec, None, first))
    out.append(("v3_shard_zstd", 3, (24,), (2,), NESTED, "shard+zstd", (8,), (slice(0, 7),)))
    out.append(("v3_shard_gzip", 3, (24,), (2,), BIG, "shard+gzip", (8,), (slice(2, 5),)))
    out.append(("v3_shard_zstd_text", 3, (24,), (2,), TEXT, "shard+zstd", (8,),
                (slice(17, 24),)))
    return out


def cases():
    """(name, zarr_format, shape, chunks, dtype, compressor, order, shards, region)."""
    out = [
        ("v2_blosc_nested", 2, (23,), (5,), NESTED, "blosc", "C", None, (slice(0, 23),)),
        ("v2_zstd_mixed_order", 2, (10,), (4,), MIXED, "zstd", "C", None, (slice(0, 10),)),
        ("v2_gzip_2d_missing", 2, (7, 5), (3, 2), NESTED, "gzip", "C", None,
         (slice(0, 3), slice(0, 5))),
        ("v2_blosc_fortran", 2, (6, 4), (4, 3), NESTED, "blosc", "F", None,
         (slice(0, 6), slice(0, 4))),
        ("v2_zstd_unnamed", 2, (9,), (4,), UNNAMED, "zstd", "C", None, (slice(0, 6),)),
    ]
    if ZARR_MAJOR == 2:
        out.append(("v2_zstd_subarray", 2, (9,), (4,), SUBARRAY, "zstd", "C", None,
                    (slice(0, 9),)))
    else:
        out += [
            ("v3_zstd_nested", 3, (23,), (5,), NESTED, "zstd", "C", None, (slice(0, 20),)),
            ("v3_zstd_unnamed", 3, (9,), (4,), UNNAMED, "zstd", "C", None, (slice(0, 6),)),
            ("v3_gzip_2d_missing", 3, (7, 5), (3, 2), NESTED, "gzip", "C", None,
             (slice(3, 7), slice(0, 4))),
            ("v3_blosc_sharded", 3, (40,), (5,), NESTED, "blosc", "C", (20,),
             (slice(0, 27),)),
            ("v3_sharded_2d", 3, (8, 6), (2, 3), NESTED, "zstd", "C", (4, 6),
             (slice(0, 4), slice(0, 6))),
        ]
    return out


# ------------------------------------------------------------------------------------------

def check_codec_case(binary, workdir, case):
    """Writes one codec case with zarr-python and compares `zarrdt dump` with what
    zarr-python reads back, values and fill value; returns whether it passed."""
    name, zarr_format, shape, chunks, dtype, codec, shards, region = case
    path = os.path.join(workdir, name + ".zarr")
    shutil.rmtree(path, ignore_errors=True)
    fill = values(np.dtype(dtype), 2)[1]
    region_shape = tuple(s.stop - s.start for s in region)
    try:
        array = create_codec_case(path, zarr_format, shape, chunks, dtype, codec, fill, shards)
        array[region] = filled(dtype, region_shape)
        reopened = zarr.open_array(path, mode="r")
        back = reopened[...]
        fill_read = np.asarray(reopened.fill_value, dtype=back.dtype)
    except Exception as error:
        reason = str(error).splitlines()[0][:200]
        if SERIES not in ("2.18", "3.4"):
            print(f"skip {name}: zarr-python {zarr.__version__} cannot write it: {reason}")
            return True
        print(f"FAIL {name}: zarr-python {zarr.__version__} cannot write or read it: {reason}")
        return False
    want = [typed(np.asarray(back[idx])) for idx in np.ndindex(back.shape)]
    run = subprocess.run([binary, "dump", "--format", "json", path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL {name}: exit {run.returncode}: {run.stderr.strip()}")
        return False
    doc = json.loads(run.stdout)
    got = [dumped(v, back.dtype) for v in flatten(doc["values"], len(shape))]
    got_fill, want_fill = dumped(doc["fill_value"], back.dtype), typed(fill_read)
    header_ok = doc["shape"] == list(shape) and doc["zarr_format"] == zarr_format
    unwritten = sum(1 for w in want if w == want_fill)
    if got != want or got_fill != want_fill or not header_ok or unwritten == 0:
        bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
        print(f"FAIL {name}: element {bad}: {got[bad] if bad is not None else ''} vs "
              f"{want[bad] if bad is not None else ''}; fill {got_fill} vs {want_fill}; "
              f"header ok: {header_ok}; elements of the fill value: {unwritten}")
        return False
    print(f"ok   {name}: {len(want)} elements ({unwritten} of them the fill value) and the "
          f"fill value equal zarr-python {zarr.__version__}'s reading")
    return True


def main():
    binary, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    failures = 0
    for case in codec_cases():
        if not check_codec_case(binary, workdir, case):
            failures += 1
    for name, zarr_format, shape, chunks, dtype, compressor, order, shards, region in cases():
        path = os.path.join(workdir, name + ".zarr")
        shutil.rmtree(path, ignore_errors=True)
        try:
            array = create(path, zarr_format, shape, chunks, dtype, compressor, order, shards)
            region_shape = tuple(s.stop - s.start for s in region)
            array[region] = filled(dtype, region_shape)
        except Exception as error:  # a writer that cannot write this case
            print(f"skip {name}: zarr-python {zarr.__version__} cannot write it: {error}")
            continue
        source = "zarr-python %s's reading" % zarr.__version__
        try:
            back = zarr.open_array(path, mode="r")[...]
        except Exception as error:
            # zarr-python 3.1 writes nested v2 records it cannot read back: the written data.
            back = np.zeros(shape, dtype=np.dtype(dtype))
            back[region] = filled(dtype, region_shape)
            source = "the data written (zarr-python %s cannot read it: %s)" % (
                zarr.__version__, str(error).splitlines()[0][:60])
        want = [typed(np.asarray(back[idx])) for idx in np.ndindex(back.shape)]
        run = subprocess.run([binary, "dump", "--format", "json", path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL {name}: exit {run.returncode}: {run.stderr.strip()}")
            failures += 1
            continue
        doc = json.loads(run.stdout)
        got = [dumped(v, back.dtype) for v in flatten(doc["values"], len(shape))]
        header_ok = doc["shape"] == list(shape) and doc["zarr_format"] == zarr_format
        if got != want or not header_ok:
            bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
            print(f"FAIL {name}: element {bad}: {got[bad] if bad is not None else ''} "
                  f"vs {want[bad] if bad is not None else ''}; header ok: {header_ok}")
            failures += 1
            continue
        print(f"ok   {name}: {len(want)} elements equal {source}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
