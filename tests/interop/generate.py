#!/usr/bin/env python3
"""Interop fixture generator for zarrdt (structured / scalar data types).

Runs under zarr-python 3.4.x, 3.1.x and 2.18.x (each in its own venv, see
generate.sh).  For every case the running zarr version can write it creates

    <outdir>/<case>.zarr/   a real filesystem array written by zarr-python
    <outdir>/<case>.json    what zarr-python reads back, as bit-exact typed JSON

plus <outdir>/index.json listing written and skipped cases.

Usage:
    python generate.py OUTDIR           # wipe OUTDIR and (re)generate
    python generate.py --check OUTDIR   # re-read every case and compare
    python generate.py --check-zarrdt DIR # read arrays written by zarrdt (tests/suite/interop_write.rs):
                                          # the cases listing this zarr series as a reader
                                          # exactly, the others not
    python generate.py --cross-check DIR  # read another version's fixtures,
                                          # print a JSON summary (informational)

Typed JSON (independent of Zarr's own fill-value encoding):
    bool -> true/false; integers and datetime64/timedelta64 (int64 view) -> int;
    float16/32/64 -> "0x" + zero-padded lowercase hex of the bit pattern;
    complex -> [hex_re, hex_im]; U -> str; S and plain V -> hex of all bytes;
    structured -> {field: value} in field order, padding fields omitted;
    subarray fields -> nested lists.
"""

import json
import os
import platform
import shutil
import sys
import traceback
import warnings

import numpy as np
import zarr

from typed_json import descr_json, typed

ZARR_VERSION = zarr.__version__
NUMPY_VERSION = np.__version__
PY_VERSION = platform.python_version()
_mm = ZARR_VERSION.split(".")
SERIES = f"{_mm[0]}.{_mm[1]}"  # "3.4", "3.1", "2.18"
IS_V3_LIB = int(_mm[0]) >= 3

assert sys.byteorder == "little", "fixtures assume a little-endian host"

DEFAULT = object()  # marker: let zarr-python choose its default fill value

METADATA_FILES = {".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json"}


# --------------------------------------------------------------------------
# Building values bit-exactly
# --------------------------------------------------------------------------

def _uint_like(fdt):
    """Unsigned integer dtype with the same size and byte order as fdt."""
    u = np.dtype(f"u{fdt.itemsize}")
    if fdt.byteorder in "<>":
        u = u.newbyteorder(fdt.byteorder)
    return u


def fbits(fdt, bits):
    """Array of float dtype fdt with the given raw bit patterns (ints)."""
    fdt = np.dtype(fdt)
    return np.array(bits, dtype=_uint_like(fdt)).view(fdt)


def cbits(cdt, pairs):
    """Array of complex dtype cdt from (re_bits, im_bits) pairs."""
    cdt = np.dtype(cdt)
    half = np.dtype(f"f{cdt.itemsize // 2}")
    if cdt.byteorder in "<>":
        half = half.newbyteorder(cdt.byteorder)
    flat = [b for p in pairs for b in p]
    return fbits(half, flat).view(cdt)


def field_dtype(dt, path):
    for p in path.split("/"):
        dt = dt.fields[p][0]
    return dt


def set_field(arr, path, values):
    """arr[path] = values where path is 'a/b/c'; byte copies for same dtype."""
    parts = path.split("/")
    view = arr
    for p in parts:
        view = view[p]
    view[...] = values


def make(dt, shape, fields=None, scalar=None):
    """np.zeros(shape, dt) (so padding bytes are 0), then set fields.

    fields: {path: list_or_array} for structured dtypes, scalar: values for
    non-structured.  Lists are converted with the field's own dtype.
    """
    dt = np.dtype(dt)
    a = np.zeros(shape, dtype=dt)
    if scalar is not None:
        a[...] = np.asarray(scalar, dtype=dt).reshape(shape) if not isinstance(
            scalar, np.ndarray) else scalar.reshape(shape)
    for path, vals in (fields or {}).items():
        fdt = field_dtype(dt, path)
        if not isinstance(vals, np.ndarray):
            vals = np.array(vals, dtype=fdt.base if fdt.subdtype else fdt)
        if fdt.subdtype is None:
            vals = vals.reshape(shape)
        else:
            vals = vals.reshape(shape + fdt.subdtype[1])
        set_field(a, path, vals)
    return a


def rec(dt, fields=None, scalar=None):
    """A 0-d array (fill value) of dtype dt built like make()."""
    return make(dt, (), fields, scalar)


# --------------------------------------------------------------------------
# Typed JSON
# --------------------------------------------------------------------------

def padding_from_metadata(path, zarr_format):
    """Names numpy gives to "" entries of an on-disk v2 structured descr."""
    if zarr_format != 2:
        return []
    with open(os.path.join(path, ".zarray"), encoding="utf-8") as f:
        meta = json.load(f)
    d = meta["dtype"]
    if not isinstance(d, list):
        return []
    names = []
    for i, entry in enumerate(d):
        if entry[0] == "":
            names.append(f"f{i}")
        if isinstance(entry[1], list):
            for sub in entry[1]:
                if sub[0] == "":
                    raise NotImplementedError("nested padding not supported")
    return names


def stored_chunks(path):
    keys = []
    for root, _dirs, files in os.walk(path):
        for fn in files:
            rel = os.path.relpath(os.path.join(root, fn), path)
            rel = rel.replace(os.sep, "/")
            if rel in METADATA_FILES or fn in METADATA_FILES:
                continue
            keys.append(rel)
    return sorted(keys)


# --------------------------------------------------------------------------
# Version adapters
# --------------------------------------------------------------------------

def _fill_arg(fill):
    if fill is DEFAULT or fill is None:
        return fill
    return fill[()]  # numpy scalar (np.void for structured)


def is_packed(dt):
    """True if dt (recursively) has no gaps between or after its fields."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:
        return is_packed(dt.subdtype[0])
    if dt.names is None:
        return True
    pos = 0
    for name in dt.names:
        fdt, off = dt.fields[name][:2]
        if off != pos or not is_packed(fdt):
            return False
        pos += fdt.itemsize
    return pos == dt.itemsize


def write_array(c, path):
    kw = {}
    if c["fill"] is not DEFAULT:
        kw["fill_value"] = _fill_arg(c["fill"])
    if IS_V3_LIB:
        from zarr.codecs import BytesCodec

        if c["zarr_format"] == 3:
            if c.get("endian"):
                kw["serializer"] = BytesCodec(endian=c["endian"])
        else:
            if c.get("sep"):
                kw["chunk_key_encoding"] = {"name": "v2", "separator": c["sep"]}
        if c.get("codecs") != "default":
            kw.update(compressors=None, filters=None)
        if c.get("shards"):
            kw["shards"] = c["shards"]
        arr = zarr.create_array(
            store=path, shape=c["shape"], chunks=c["chunks"], dtype=c["dtype"],
            zarr_format=c["zarr_format"], **kw)
    else:
        assert c["zarr_format"] == 2
        if c.get("sep"):
            kw["dimension_separator"] = c["sep"]
        if c["fill"] is not DEFAULT and c["fill"] is not None and not is_packed(c["dtype"]):
            # zarr.open() and np.void fills make 2.18 copy the fill field by field
            # into a fresh array, leaving the padding bytes uninitialised (random
            # base64). A bytes fill through zarr.create() is copied verbatim.
            kw["fill_value"] = c["fill"].tobytes()
        if c.get("codecs") != "default":
            kw.update(compressor=None, filters=None)
        if c.get("order"):
            kw["order"] = c["order"]
        if c.get("astype_filter"):
            from numcodecs import AsType

            kw["filters"] = [AsType(encode_dtype=c["dtype"], decode_dtype=c["dtype"])]
        arr = zarr.create(store=path, shape=c["shape"], chunks=c["chunks"],
                          dtype=c["dtype"], overwrite=True, **kw)
    data = c["data"]
    note = ""
    target = np.dtype(arr.dtype)
    if target != data.dtype:
        try:
            data.astype(target)
        except TypeError as e:
            if target.itemsize != data.dtype.itemsize:
                raise
            # e.g. 2.18: aligned dtype comes back with padding fields named f1...
            data = data.view(target)
            note = (f"zarr reports dtype {descr_json(target)} for the new array and "
                    f"numpy refuses to cast the data to it ({e}); the data was "
                    "written as a byte-identical view. ")
    region = c.get("region")
    if region is None:
        arr[...] = data
    else:
        arr[region] = data[region]
    return note


def shards_of(arr):
    """The shard shape of a sharded array, else None (zarr 2 has no sharding)."""
    shards = getattr(arr, "shards", None)
    return None if shards is None else list(shards)


def open_read(path):
    arr = zarr.open_array(path, mode="r")
    values = arr[...]
    if IS_V3_LIB:
        fill = arr.metadata.fill_value
    else:
        fill = arr.fill_value
    return arr, np.asarray(values), fill


def _warn_text(ws):
    out = []
    for w in ws:
        t = f"{w.category.__name__}: {w.message}"
        if t not in out:
            out.append(t)
    return out


# --------------------------------------------------------------------------
# Observation (shared by generation and --check)
# --------------------------------------------------------------------------

def observe(path, zarr_format):
    """Read path with the installed zarr; return the comparable fields."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        arr, values, fill = open_read(path)
    dt = values.dtype
    padding = padding_from_metadata(path, zarr_format)
    if fill is None:
        fill_json = None
        fill_hex = None
    else:
        fa = np.array(fill, dtype=dt)
        fill_json = typed(fa, padding)
        fill_hex = fa.tobytes().hex()
    flat = np.ascontiguousarray(values).reshape(-1)
    obs = {
        "shape": list(arr.shape),
        "chunks": list(arr.chunks),
        "shards": shards_of(arr),
        "dtype_descr": descr_json(dt),
        "itemsize": dt.itemsize,
        "padding_fields": padding,
        "fill_value": fill_json,
        "fill_value_hex": fill_hex,
        "values": [typed(flat[i, ...], padding) for i in range(flat.shape[0])],
        "values_hex": np.ascontiguousarray(values).tobytes().hex(),
        "stored_chunks": stored_chunks(path),
        "attributes": dict(arr.attrs),
    }
    return obs, values, fill, _warn_text(ws)


def observe_intended(c, path):
    """Expected fields computed from the data we asked zarr to write.

    Only used when the writing zarr version cannot read its own output.
    """
    dt = np.dtype(c["dtype"])
    intended = intended_array(c)
    padding = padding_from_metadata(path, c["zarr_format"])
    flat = intended.reshape(-1)
    fill = c["fill"]
    if fill is DEFAULT:
        fill = np.zeros((), dt)
    return {
        "shape": list(c["shape"]),
        "chunks": list(c["chunks"]),
        "shards": None if c.get("shards") is None else list(c["shards"]),
        "dtype_descr": descr_json(dt),
        "itemsize": dt.itemsize,
        "padding_fields": padding,
        "fill_value": None if fill is None else typed(fill, padding),
        "fill_value_hex": None if fill is None else fill.tobytes().hex(),
        "values": [typed(flat[i, ...], padding) for i in range(flat.shape[0])],
        "values_hex": intended.tobytes().hex(),
        "stored_chunks": stored_chunks(path),
    }


def intended_array(c):
    dt = np.dtype(c["dtype"])
    region = c.get("region")
    if region is None:
        return np.ascontiguousarray(c["data"])
    fill = c["fill"]
    if fill is DEFAULT:
        fill = np.zeros((), dt)
    full = np.empty(c["shape"], dtype=dt)
    full[...] = fill
    full[region] = c["data"][region]
    return full


def ondisk_fill(c):
    name = "zarr.json" if c["zarr_format"] == 3 else ".zarray"
    with open(os.path.join(c["name"] + ".zarr", name), encoding="utf-8") as f:
        return json.load(f).get("fill_value")


def roundtrip_note(c, values, fill_read):
    """Compare what was read back with what we wrote."""
    intended = intended_array(c)
    if intended.dtype == values.dtype:
        a = intended.reshape(-1)
        b = np.ascontiguousarray(values).reshape(-1)
        diff = [i for i in range(a.shape[0]) if a[i, ...].tobytes() != b[i, ...].tobytes()]
        if not diff:
            return ""
        note = (f"READ-BACK DIFFERS from the data written at flat indices {diff} "
                "(same dtype); the expected values are what zarr-python read back. ")
        fill = c["fill"]
        if fill is not DEFAULT and fill is not None:
            got = np.array(fill_read, dtype=values.dtype)
            if got.tobytes() != fill.tobytes():
                note += (f"The fill value read back (hex {got.tobytes().hex()}) differs "
                         f"from the one requested (hex {fill.tobytes().hex()}); "
                         f"on-disk fill_value is {json.dumps(ondisk_fill(c))}. ")
        return note
    head = (f"Read-back dtype {descr_json(values.dtype)} differs from the requested "
            f"{descr_json(intended.dtype)}; ")
    got = np.ascontiguousarray(values).tobytes()
    if intended.dtype.itemsize == values.dtype.itemsize:
        same = intended.tobytes() == got
        return head + ("the bytes are identical. " if same else
                       "the bytes DIFFER from the data written. ")
    try:
        conv = intended.astype(values.dtype)
    except Exception:  # noqa: BLE001
        return head + "values cannot be compared. "
    same = conv.tobytes() == got
    return head + ("values equal after a field-by-field numpy cast. " if same else
                   "values DIFFER even after a field-by-field numpy cast. ")


# --------------------------------------------------------------------------
# Case definitions
# --------------------------------------------------------------------------

I64_MIN = -(2 ** 63)
I64_MAX = 2 ** 63 - 1
U64_MAX = 2 ** 64 - 1
NAN = float("nan")
INF = float("inf")
NAT = np.datetime64("NaT", "s")
TNAT = np.timedelta64("NaT", "ms")

FLAT = np.dtype([("a", "<i4"), ("b", "<f8")])
FLAT_MIXED = np.dtype([("a", "<i4"), ("b", ">f8")])
FLAT_BIG = np.dtype([("a", ">i4"), ("b", ">f8")])
NESTED_V3 = np.dtype([("point", [("x", "<f4"), ("y", "<f4")]), ("value", "<f8")])
NESTED_V2 = np.dtype([("foo", "<f4"), ("bar", [("baz", "<f4"), ("qux", "<i4")])])
SUBARRAY = np.dtype([("x", "<f4"), ("z", "<f4", (2, 2))])
ALIGNED = np.dtype([("a", "u1"), ("b", "<i4")], align=True)
OFFSETS = np.dtype({"names": ["a", "b"], "formats": ["<i4", "<i4"],
                    "offsets": [0, 8], "itemsize": 16})

SCALAR_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64",
                "complex64", "complex128"]
SCALAR_CODES = {"bool": "|b1", "int8": "|i1", "int16": "<i2", "int32": "<i4",
                "int64": "<i8", "uint8": "|u1", "uint16": "<u2", "uint32": "<u4",
                "uint64": "<u8", "float16": "<f2", "float32": "<f4",
                "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}
SHORT = {"bool": "b", "int8": "i8", "int16": "i16", "int32": "i32",
         "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
         "uint64": "u64", "float16": "f16", "float32": "f32", "float64": "f64",
         "complex64": "c64", "complex128": "c128"}


def scalar_struct(names=None, order="<"):
    fs = []
    for n in SCALAR_NAMES:
        code = SCALAR_CODES[n]
        if code[0] == "<":
            code = order + code[1:]
        fs.append(((names or {}).get(n, n), code))
    return np.dtype(fs)


def every_scalar_values(dt, n, key=lambda s: s):
    """Five records of extreme values for a struct made by scalar_struct()."""
    assert n == 5
    F = lambda s: field_dtype(dt, key(s))  # noqa: E731
    return {
        key("bool"): [True, False, True, False, True],
        key("int8"): [-128, 127, 0, -1, 42],
        key("int16"): [-32768, 32767, 0, -1, 42],
        key("int32"): [-2 ** 31, 2 ** 31 - 1, 0, -1, 42],
        key("int64"): [I64_MIN, I64_MAX, 0, -1, 42],
        key("uint8"): [0, 255, 1, 128, 42],
        key("uint16"): [0, 65535, 1, 32768, 42],
        key("uint32"): [0, 2 ** 32 - 1, 1, 2 ** 31, 42],
        key("uint64"): [0, U64_MAX, 1, 2 ** 63, 42],
        # -0.0, smallest subnormal, NaN with payload, -inf, +inf
        key("float16"): fbits(F("float16"), [0x8000, 0x0001, 0x7e01, 0xfc00, 0x7c00]),
        # -0.0, subnormal, quiet NaN payload, signalling NaN, negative NaN
        key("float32"): fbits(F("float32"), [0x80000000, 0x00000001, 0x7fc00001,
                                             0x7f800001, 0xffc00000]),
        key("float64"): fbits(F("float64"), [0x8000000000000000, 0x0000000000000001,
                                             0x7ff8000000000001, 0xfff0000000000000,
                                             0x7ff0000000000000]),
        key("complex64"): cbits(F("complex64"), [(0x3f800000, 0x7fc00000),
                                                 (0x80000000, 0x7f800000),
                                                 (0xff800000, 0x00000001),
                                                 (0x7fc00001, 0x80000000),
                                                 (0x40490fdb, 0xc0490fdb)]),
        key("complex128"): cbits(F("complex128"), [
            (0x3ff0000000000000, 0x7ff8000000000000),
            (0x8000000000000000, 0x7ff0000000000000),
            (0xfff0000000000000, 0x0000000000000001),
            (0x7ff8000000000001, 0x8000000000000000),
            (0x400921fb54442d18, 0xc00921fb54442d18)]),
    }


def every_scalar_fill(dt, key=lambda s: s):
    return rec(dt, {key("bool"): True, key("int8"): -7, key("int16"): -7,
                    key("int32"): -7, key("int64"): -7, key("uint8"): 7,
                    key("uint16"): 7, key("uint32"): 7, key("uint64"): 7,
                    key("float16"): 1.5, key("float32"): 1.5, key("float64"): 1.5,
                    key("complex64"): complex(1.5, -2.5),
                    key("complex128"): complex(1.5, -2.5)})


# ---- scalar cases -------------------------------------------------------

def _scalar_fill_and_values(name, code):
    dt = np.dtype(code)
    if name == "bool":
        return rec(dt, scalar=True), [False, True, True, False]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        fills = {"int8": -128, "int16": -32768, "int32": -1, "int64": I64_MIN,
                 "uint8": 255, "uint16": 65535, "uint32": 2 ** 32 - 1,
                 "uint64": U64_MAX}
        vals = [int(info.min), int(info.max), 0, 42]
        return rec(dt, scalar=fills[name]), vals
    if dt.kind == "f":
        fills = {"float16": [0x7c00],             # +inf
                 "float32": [0xff800000],         # -inf
                 "float64": [0x7ff8000000000000],  # NaN
                 "float64_negzero": [0x8000000000000000]}  # -0.0
        vals = {2: [0x8000, 0x0001, 0x7e01, 0x3e00],
                4: [0x80000000, 0x00000001, 0x7fc00001, 0x3fc00000],
                8: [0x8000000000000000, 0x0000000000000001,
                    0x7ff8000000000001, 0x3ff8000000000000]}[dt.itemsize]
        return fbits(dt, fills[name]).reshape(()), fbits(dt, vals)
    if dt.kind == "c":
        if name == "complex64":
            fill = cbits(dt, [(0x3f800000, 0x7fc00000)])  # 1 + NaN j
            vals = cbits(dt, [(0x3f800000, 0x40000000), (0x7fc00000, 0x80000000),
                              (0x7f800000, 0xff800000), (0x00000001, 0x00000000)])
        else:
            fill = cbits(dt, [(0xfff0000000000000, 0x8000000000000000)])  # -inf - 0j
            vals = cbits(dt, [(0x3ff0000000000000, 0x4000000000000000),
                              (0x7ff8000000000000, 0x8000000000000000),
                              (0x7ff0000000000000, 0xfff0000000000000),
                              (0x0000000000000001, 0x0000000000000000)])
        return fill.reshape(()), vals
    raise AssertionError(name)


def scalar_cases(prefix, zarr_format, series, big=()):
    out = []
    for name in SCALAR_NAMES + ["float64_negzero"]:
        base = "float64" if name == "float64_negzero" else name
        code = SCALAR_CODES[base]
        endian = None
        if name in big:
            if zarr_format == 2:
                code = ">" + code[1:]
            else:
                endian = "big"
        dt = np.dtype(code)
        fill, vals = _scalar_fill_and_values(name, code)
        data = np.empty((5,), dtype=dt)
        data[...] = fill
        data[:4] = np.asarray(vals, dtype=dt) if not isinstance(vals, np.ndarray) else vals
        notes = ""
        if series == "2.18" and name == "complex64":
            notes = ("zarr-python 2.18.7 writes the fill correctly as [1.0, \"NaN\"] but "
                     "reads it back as (NaN, NaN) (it decodes re + 1j*im, and 1j*NaN "
                     "has a NaN real part); zarr 3.1.6/3.4.2 read the same file as "
                     "(1, NaN), which is what the spec says. ")
        if series == "2.18" and name == "complex128":
            notes = ("zarr-python 2.18.7 writes the fill correctly as [\"-Infinity\", "
                     "-0.0] but reads it back as (-inf, +0.0) (re + 1j*im loses the "
                     "sign of a zero imaginary part); zarr 3.1.6/3.4.2 read (-inf, -0.0). ")
        if series == "2.18" and name == "float64_negzero":
            notes = ("zarr-python 2.18.7 loses the sign when writing: the fill -0.0 is "
                     "stored as 0.0. ")
        out.append(dict(
            notes=notes,
            name=f"{prefix}{name}", zarr_format=zarr_format, series=series,
            description=(f"scalar {base} ({code}{', bytes endian big' if endian else ''}), "
                         f"fill {typed(fill)}; elements 0..3 written, chunk 2 "
                         "(element 4) never written so it reads as fill"),
            dtype=dt, shape=(5,), chunks=(2,), fill=fill, data=data,
            region=(slice(0, 4),), endian=endian))
    return out


# ---- structured cases ---------------------------------------------------

def flat_data(dt):
    return make(dt, (5,), {
        "a": [-2 ** 31, 2 ** 31 - 1, 0, -1, 42],
        "b": fbits(field_dtype(dt, "b"), [0x7ff8000000000000, 0x8000000000000000,
                                          0x7ff0000000000000, 0xfff0000000000000,
                                          0x3ff8000000000000]),
    })


def nested_v3_data(dt):
    return make(dt, (5,), {
        "point/x": [0.0, -1.5, NAN, INF, 1e-3],
        "point/y": [0.25, 2.5, -0.0, -INF, 3.0],
        "value": [1.0, -2.0, 3.5, NAN, 1e300],
    })


def nested_v2_data(dt):
    return make(dt, (5,), {
        "foo": [0.5, -1.5, NAN, INF, -0.0],
        "bar/baz": [1.0, 2.0, 3.0, -4.0, 5.5],
        "bar/qux": [-2 ** 31, 2 ** 31 - 1, 0, -1, 7],
    })


def missing_data(dt, shape):
    return make(dt, shape, {"a": list(range(10, 10 + shape[0])),
                            "b": [0.5 * i - 1 for i in range(shape[0])]})


def cases():  # noqa: C901  (a long, flat table is the clearest form)
    C = []

    def add(**kw):
        kw.setdefault("shape", (5,))
        kw.setdefault("chunks", (2,))
        kw.setdefault("fill", DEFAULT)
        kw.setdefault("notes", "")
        kw["dtype"] = np.dtype(kw["dtype"])
        C.append(kw)

    # ================= zarr 3.4.x, v3 "struct" =================
    s = "3.4"
    add(name="v3_struct_flat", zarr_format=3, series=s, dtype=FLAT,
        description="struct a:int32, b:float64, fill (1, 2.0), bytes endian little; "
                    "values with NaN, -0.0, +/-inf, int32 extremes",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_struct_flat_big", zarr_format=3, series=s, dtype=FLAT, endian="big",
        description="as v3_struct_flat but bytes codec endian big",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_struct_nested", zarr_format=3, series=s, dtype=NESTED_V3,
        description="struct point{x,y:float32}, value:float64, fill ((1,2),3.14)",
        fill=rec(NESTED_V3, {"point/x": 1.0, "point/y": 2.0, "value": 3.14}),
        data=nested_v3_data(NESTED_V3))
    deep = np.dtype([("id", "<u2"),
                     ("outer", [("flag", "?"),
                                ("inner", [("deep", [("c", "<c8"), ("t", "<i8")]),
                                           ("u", "u1")]),
                                ("w", "<f2")]),
                     ("z", "i1")])
    add(name="v3_struct_deep", zarr_format=3, series=s, dtype=deep,
        description="three levels of nested structs with mixed types "
                    "(u2, bool, complex64, int64, u1, float16, int8)",
        fill=rec(deep, {"id": 65535, "outer/flag": True,
                        "outer/inner/deep/c": complex(-1.0, 0.5),
                        "outer/inner/deep/t": I64_MIN, "outer/inner/u": 9,
                        "outer/w": -0.0, "z": -1}),
        data=make(deep, (5,), {
            "id": [0, 1, 2, 65535, 300],
            "outer/flag": [True, False, True, False, False],
            "outer/inner/deep/c": [1 + 2j, complex(NAN, 0), -3j, complex(INF, -INF), 0.5],
            "outer/inner/deep/t": [I64_MIN, I64_MAX, 0, -1, 123456789],
            "outer/inner/u": [0, 255, 1, 2, 3],
            "outer/w": fbits("<f2", [0x3c00, 0x0001, 0x7e00, 0xfc00, 0x8000]),
            "z": [-128, 127, 0, -1, 5]}))
    es = scalar_struct()
    add(name="v3_struct_every_scalar", zarr_format=3, series=s, dtype=es,
        description="one field of every core scalar type; extremes, subnormals, "
                    "NaN payloads (f16 0x7e01, f32 0x7fc00001 / sNaN 0x7f800001 / "
                    "-NaN 0xffc00000, f64 0x7ff8000000000001), -0.0, +/-inf",
        fill=every_scalar_fill(es), data=make(es, (5,), every_scalar_values(es, 5)))
    ext = np.dtype([("t", "<M8[s]"), ("t10", "<M8[10s]"), ("tms", "<M8[ms]"),
                    ("dt", "<m8[ns]"), ("s", "<U4"), ("raw", "V3"), ("bs", "S5")])
    add(name="v3_struct_extension_fields", zarr_format=3, series=s, dtype=ext,
        description="datetime64[s], datetime64[10s], datetime64[ms], timedelta64[ns], "
                    "U4 (fixed_length_utf32), V3 (raw_bytes), S5 "
                    "(null_terminated_bytes); NaT and non-ASCII text",
        fill=rec(ext, {"t": NAT, "t10": NAT, "tms": np.datetime64(0, "ms"),
                       "dt": TNAT, "s": "hé",
                       "raw": np.array(b"\x01\x02\x03", dtype="V3"), "bs": b"ab"}),
        data=make(ext, (5,), {
            "t": np.array([0, -1, NAT, 1700000000, I64_MAX], dtype="<M8[s]"),
            "t10": np.array([NAT, 1, -1, 170000000, 0], dtype="<M8[10s]"),
            "tms": np.array([1, NAT, -1000, I64_MIN + 1, 0], dtype="<M8[ms]"),
            "dt": np.array([NAT, 0, -1, I64_MAX, 10 ** 9], dtype="<m8[ns]"),
            "s": ["", "abcd", "é", "日本語", "🦀x"],
            "raw": np.array([b"\x00\x00\x00", b"\xff\xfe\xfd", b"abc",
                             b"\x00\x01\x00", b"\x80\x00\x7f"], dtype="V3"),
            "bs": [b"", b"hello", b"a\x00b", b"\xff", b"xy"]}))
    sf = np.dtype([("nan", "<f4"), ("nan_payload", "<f4"), ("neg_nan", "<f8"),
                   ("negzero", "<f8"), ("neginf", "<f8"), ("h", "<f2"),
                   ("c", "<c16"), ("c2", "<c8")])
    sf_fill = rec(sf, {"nan": fbits("<f4", [0x7fc00000])[0],
                       "nan_payload": fbits("<f4", [0x7fc00001])[0],
                       "neg_nan": fbits("<f8", [0xfff8000000000000])[0],
                       "negzero": -0.0, "neginf": -INF,
                       "h": fbits("<f2", [0x7e00])[0],
                       "c": cbits("<c16", [(0x7ff8000000000000, 0x7ff0000000000000)])[0],
                       "c2": cbits("<c8", [(0xff800000, 0x80000000)])[0]})
    add(name="v3_struct_special_fills", zarr_format=3, series=s, dtype=sf,
        description="struct fill with NaN, NaN with payload (f32 0x7fc00001), negative "
                    "NaN (f64 0xfff8...), -0.0, -inf, f16 NaN, complex (NaN, inf) and "
                    "(-inf, -0.0); only chunk 0 written, elements 2..4 read as fill",
        fill=sf_fill,
        data=make(sf, (5,), {"nan": [1, 2, 3, 4, 5], "nan_payload": [1, 2, 3, 4, 5],
                             "neg_nan": [1, 2, 3, 4, 5], "negzero": [1, 2, 3, 4, 5],
                             "neginf": [1, 2, 3, 4, 5], "h": [1, 2, 3, 4, 5],
                             "c": [1j, 2, 3, 4, 5], "c2": [1j, 2, 3, 4, 5]}),
        region=(slice(0, 2),))
    bo = np.dtype([("a", "?"), ("b", "?")])
    add(name="v3_struct_bool_only", zarr_format=3, series=s, dtype=bo,
        description="struct of two bool fields (single-byte only: bytes codec "
                    "without endian)",
        fill=rec(bo, {"a": True, "b": False}),
        data=make(bo, (5,), {"a": [False, True, False, True, False],
                             "b": [False, False, True, True, True]}))
    u1 = np.dtype([("r", "u1"), ("g", "u1"), ("b", "u1")])
    add(name="v3_struct_u1_only", zarr_format=3, series=s, dtype=u1,
        description="struct r,g,b:uint8 (single-byte only: bytes codec without endian)",
        fill=rec(u1, {"r": 255, "g": 128, "b": 0}),
        data=make(u1, (5,), {"r": [0, 1, 2, 3, 254], "g": [10, 20, 30, 40, 50],
                             "b": [255, 0, 255, 0, 1]}))
    add(name="v3_struct_missing_chunks", zarr_format=3, series=s, dtype=FLAT,
        shape=(6,), chunks=(2,),
        description="struct a:int32,b:float64 shape (6,) chunks (2,), fill (7, -1.5); "
                    "only the middle chunk (c/1) written",
        fill=rec(FLAT, {"a": 7, "b": -1.5}), data=missing_data(FLAT, (6,)),
        region=(slice(2, 4),))
    s2 = np.dtype([("x", "<i2"), ("y", "<f4")])
    add(name="v3_struct_2d", zarr_format=3, series=s, dtype=s2, shape=(3, 4),
        chunks=(2, 3),
        description="2-D struct x:int16,y:float32 shape (3,4) chunks (2,3), fill (-1, 0.5)",
        fill=rec(s2, {"x": -1, "y": 0.5}),
        data=make(s2, (3, 4), {"x": np.arange(12).reshape(3, 4) * 100 - 600,
                               "y": np.arange(12).reshape(3, 4) * 0.25}))
    fn = np.dtype([("foo.mask", "u1"), ("température", "<f8"), ("0", "<i2"),
                   ("1", "<i4"), ("with space", "<f4")])
    add(name="v3_struct_field_names", zarr_format=3, series=s, dtype=fn,
        description="field names with '.', non-ASCII, digits and spaces",
        fill=rec(fn, {"foo.mask": 1, "température": -273.15, "0": 0, "1": 1,
                      "with space": 2.5}),
        data=make(fn, (5,), {"foo.mask": [0, 1, 0, 1, 255],
                             "température": [20.5, -40.0, 100.0, 0.0, 37.2],
                             "0": [1, 2, 3, 4, 5], "1": [-1, -2, -3, -4, -5],
                             "with space": [0.5, 1.5, 2.5, 3.5, 4.5]}))
    for d in scalar_cases("v3_scalar_", 3, s, big=("int32", "float32")):
        add(**d)

    # derive-equivalent v3 cases (default fill)
    particle = np.dtype([("id", "<u8"),
                         ("pos", [("0", "<f4"), ("1", "<f4"), ("2", "<f4")]),
                         ("mass", "<f8"), ("alive", "?")])
    add(name="v3_derive_particle", zarr_format=3, series=s, dtype=particle,
        description="derive Particle {id:u64, pos:(f32,f32,f32), mass:f64, alive:bool}; "
                    "default fill",
        data=make(particle, (5,), {"id": [1, 2, 3, U64_MAX, 0],
                                   "pos/0": [0.0, 1.0, -1.0, 0.5, 1e10],
                                   "pos/1": [0.0, 2.0, -2.0, 0.25, -1e-10],
                                   "pos/2": [0.0, 3.0, -3.0, 0.125, NAN],
                                   "mass": [1.0, 2.5, 1e-300, INF, -0.0],
                                   "alive": [True, False, True, True, False]}))
    tup = np.dtype([("0", "<i2"), ("1", "<f4")])
    add(name="v3_derive_tuple", zarr_format=3, series=s, dtype=tup,
        description="derive tuple struct (i16, f32); default fill",
        data=make(tup, (5,), {"0": [-32768, 32767, 0, -1, 1],
                              "1": [1.5, -2.5, NAN, -INF, 0.0]}))
    ren = np.dtype([("foo.mask", "u1"), ("température", "<f8")])
    add(name="v3_derive_renamed", zarr_format=3, series=s, dtype=ren,
        description="derive with renamed fields 'foo.mask':u8, 'température':f64; "
                    "default fill",
        data=make(ren, (5,), {"foo.mask": [0, 1, 2, 254, 255],
                              "température": [20.5, -40.0, 100.0, -273.15, 37.2]}))
    pair = [("0", "<i2"), ("1", "<i2")]
    grid = np.dtype([("cells", [("0", pair), ("1", pair), ("2", pair)])])
    add(name="v3_derive_grid", zarr_format=3, series=s, dtype=grid,
        description="derive Grid {cells: [[i16; 2]; 3]} as nested tuple structs; "
                    "default fill",
        data=make(grid, (5,), {f"cells/{i}/{j}": [100 * r + 10 * i + j for r in range(5)]
                               for i in range(3) for j in range(2)}))
    # Enum fields are their integer repr, char fields U1: the derived `EnumsChars` of
    # tests/suite/interop_fixtures.rs reads these as enums and chars (every value a variant).
    history = [("0", "|u1"), ("1", "|u1"), ("2", "|u1")]
    enums_chars = np.dtype([("status", "|u1"), ("kind", "<i2"), ("history", history),
                            ("grade", "<U1"), ("value", "<f8")])
    add(name="v3_derive_enums_chars", zarr_format=3, series=s, dtype=enums_chars,
        description="derive EnumsChars {status: u8 enum (0, 1, 7), kind: i16 enum (-300, 0, "
                    "300), history: [u8 enum; 3] as a tuple struct, grade: char (U1), "
                    "value: f64}; fill (7, -300, (1, 0, 7), 'é', 0.5); chunk 2 never written",
        fill=rec(enums_chars, {"status": 7, "kind": -300, "history/0": 1, "history/1": 0,
                               "history/2": 7, "grade": "é", "value": 0.5}),
        data=make(enums_chars, (5,), {"status": [0, 1, 7, 7, 0],
                                      "kind": [-300, 0, 300, 0, -300],
                                      "history/0": [0, 1, 7, 0, 1],
                                      "history/1": [7, 7, 1, 0, 0],
                                      "history/2": [1, 0, 0, 7, 7],
                                      "grade": ["a", "é", "日", "🦀", ""],
                                      "value": [1.5, -2.0, 0.0, 1e300, -0.0]}),
        region=(slice(0, 4),))
    das = scalar_struct(SHORT)
    add(name="v3_derive_all_scalars", zarr_format=3, series=s, dtype=das,
        description="derive AllScalars {b,i8,i16,i32,i64,u8,u16,u32,u64,f16,f32,f64,"
                    "c64,c128}; default (zero) fill",
        data=make(das, (5,), every_scalar_values(das, 5, key=lambda n: SHORT[n])))

    # ================= v2 written by 3.4.x and 3.1.x =================
    for series, pre in (("3.4", "v2_by_34_"), ("3.1", "v2_by_31_")):
        add(name=pre + "flat", zarr_format=2, series=series, dtype=FLAT,
            description="v2 [a <i4, b <f8], fill (1, 2.0)",
            fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
        add(name=pre + "mixed_order", zarr_format=2, series=series, dtype=FLAT_MIXED,
            description="v2 [a <i4, b >f8] (mixed byte order), fill (1, 2.0)",
            fill=rec(FLAT_MIXED, {"a": 1, "b": 2.0}), data=flat_data(FLAT_MIXED))
        add(name=pre + "nested", zarr_format=2, series=series, dtype=NESTED_V2,
            description="v2 [foo <f4, bar [baz <f4, qux <i4]], fill (1.5, (2.5, 3))",
            fill=rec(NESTED_V2, {"foo": 1.5, "bar/baz": 2.5, "bar/qux": 3}),
            data=nested_v2_data(NESTED_V2))
        add(name=pre + "aligned", zarr_format=2, series=series, dtype=ALIGNED,
            description="v2 np.dtype([a u1, b <i4], align=True) (itemsize 8), fill (1, 2): "
                        "zarr-python 3 repacks it",
            fill=rec(ALIGNED, {"a": 1, "b": 2}),
            data=make(ALIGNED, (5,), {"a": [0, 1, 2, 255, 7],
                                      "b": [-2 ** 31, 2 ** 31 - 1, 0, -1, 42]}))
        add(name=pre + "subarray", zarr_format=2, series=series, dtype=SUBARRAY,
            description="v2 [x <f4, z <f4 (2,2)] (subarray field), "
                        "fill (-1, [[1,2],[3,4]])",
            fill=rec(SUBARRAY, {"x": -1.0, "z": [[1, 2], [3, 4]]}),
            data=make(SUBARRAY, (5,), {"x": [0.5, 1.5, 2.5, 3.5, 4.5],
                                       "z": np.arange(20, dtype="<f4") - 10}),
            notes="" if series != "3.1" else (
                "zarr 3.1.6 silently writes the subarray field as \"|V16\" and loses "
                "data: numpy's cast from <f4 (2,2) to V16 keeps only the first float "
                "(z[0,0]) of each record and zero-fills the other 12 bytes, both in "
                "the chunks and in the base64 fill. "))
        add(name=pre + "subarray_default_fill", zarr_format=2, series=series,
            dtype=SUBARRAY,
            description="v2 [x <f4, z <f4 (2,2)] (subarray field), default fill",
            data=make(SUBARRAY, (5,), {"x": [0.5, 1.5, 2.5, 3.5, 4.5],
                                       "z": np.arange(20, dtype="<f4") - 10}))

    # ================= zarr 3.1.x, legacy v3 "structured" =================
    s = "3.1"
    add(name="v3_legacy_flat", zarr_format=3, series=s, dtype=FLAT,
        description="legacy 'structured' a:int32,b:float64, fill (1, 2.0)",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_legacy_nested", zarr_format=3, series=s, dtype=NESTED_V3,
        description="legacy 'structured' point{x,y:float32}, value:float64, "
                    "fill ((1,2),3.14)",
        fill=rec(NESTED_V3, {"point/x": 1.0, "point/y": 2.0, "value": 3.14}),
        data=nested_v3_data(NESTED_V3))
    add(name="v3_legacy_bigendian_bug", zarr_format=3, series=s, dtype=FLAT_BIG,
        description="legacy 'structured' from numpy fields >i4, >f8, fill (1, 2.0): "
                    "3.1.6 stores big-endian bytes under plain {\"name\":\"bytes\"}",
        fill=rec(FLAT_BIG, {"a": 1, "b": 2.0}), data=flat_data(FLAT_BIG),
        notes="Known zarr-python 3.1.x bug (fixed 3.3.0, #4141): chunk bytes and the "
              "base64 fill are big-endian but the codec has no endian, so every "
              "reader (3.1.6 itself included) decodes them as little-endian. The "
              "expected values are what 3.1.6 reads back, i.e. byte-swapped garbage. ")
    es = scalar_struct()
    add(name="v3_legacy_every_scalar", zarr_format=3, series=s, dtype=es,
        description="legacy 'structured' with one field of every core scalar type",
        fill=every_scalar_fill(es), data=make(es, (5,), every_scalar_values(es, 5)))
    add(name="v3_legacy_missing_chunks", zarr_format=3, series=s, dtype=FLAT,
        shape=(6,), chunks=(2,),
        description="legacy 'structured' a:int32,b:float64 shape (6,) chunks (2,), "
                    "fill (7, -1.5); only the middle chunk written",
        fill=rec(FLAT, {"a": 7, "b": -1.5}), data=missing_data(FLAT, (6,)),
        region=(slice(2, 4),))

    # ================= zarr 2.18.x, v2 =================
    s = "2.18"
    add(name="v2_flat", zarr_format=2, series=s, dtype=FLAT,
        description="v2 [a <i4, b <f8], fill (1, 2.0)",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v2_nested", zarr_format=2, series=s, dtype=NESTED_V2,
        description="v2 [foo <f4, bar [baz <f4, qux <i4]], fill (1.5, (2.5, 3))",
        fill=rec(NESTED_V2, {"foo": 1.5, "bar/baz": 2.5, "bar/qux": 3}),
        data=nested_v2_data(NESTED_V2))
    add(name="v2_subarray", zarr_format=2, series=s, dtype=SUBARRAY,
        description="v2 [x <f4, z <f4 (2,2)], fill (-1, [[1,2],[3,4]])",
        fill=rec(SUBARRAY, {"x": -1.0, "z": [[1, 2], [3, 4]]}),
        data=make(SUBARRAY, (5,), {"x": [0.5, 1.5, NAN, 3.5, 4.5],
                                   "z": np.arange(20, dtype="<f4") - 10}))
    add(name="v2_mixed_order", zarr_format=2, series=s, dtype=FLAT_MIXED,
        description="v2 [a <i4, b >f8] (mixed byte order), fill (1, 2.0)",
        fill=rec(FLAT_MIXED, {"a": 1, "b": 2.0}), data=flat_data(FLAT_MIXED))
    add(name="v2_big_only", zarr_format=2, series=s, dtype=FLAT_BIG,
        description="v2 [a >i4, b >f8] (all big-endian), fill (1, 2.0)",
        fill=rec(FLAT_BIG, {"a": 1, "b": 2.0}), data=flat_data(FLAT_BIG))
    add(name="v2_aligned", zarr_format=2, series=s, dtype=ALIGNED,
        description="v2 np.dtype([a u1, b <i4], align=True): descr has padding entry "
                    "[\"\", \"|V3\"]; fill (1, 2) with zeroed padding",
        fill=rec(ALIGNED, {"a": 1, "b": 2}),
        data=make(ALIGNED, (5,), {"a": [0, 1, 2, 255, 7],
                                  "b": [-2 ** 31, 2 ** 31 - 1, 0, -1, 42]}),
        notes="Padding bytes are zero in the fill and data we passed (the fill is "
              "passed to zarr.create as raw bytes). With zarr.open(), or with an "
              "np.void fill, 2.18.7 copies the fill field by field into a fresh "
              "array and the base64 fill contains uninitialised padding bytes "
              "(seen: 'ARx/PgIAAAA=', and for the default fill via zarr.open "
              "'AByfGgAAAAA='), so readers must ignore padding bytes. ")
    add(name="v2_offsets", zarr_format=2, series=s, dtype=OFFSETS,
        description="v2 dtype with explicit offsets [0, 8] and itemsize 16: descr "
                    "[a <i4][\"\" |V4][b <i4][\"\" |V4]; fill (1, 2)",
        fill=rec(OFFSETS, {"a": 1, "b": 2}),
        notes="Fill passed as raw bytes to zarr.create so that the padding bytes are "
              "zero (see v2_aligned). ",
        data=make(OFFSETS, (5,), {"a": [1, 2, 3, 4, 5], "b": [-1, -2, -3, -4, -5]}))
    ext2 = np.dtype([("t", "<M8[10s]"), ("d", "<m8[ms]"), ("s", "<U4"),
                     ("b", "S5"), ("v", "V3")])
    add(name="v2_extension_fields", zarr_format=2, series=s, dtype=ext2,
        description="v2 [t <M8[10s], d <m8[ms], s <U4, b |S5, v |V3]; NaT, non-ASCII; "
                    "fill (NaT, NaT, 'hé', b'ab', 010203)",
        fill=rec(ext2, {"t": NAT, "d": TNAT, "s": "hé", "b": b"ab",
                        "v": np.array(b"\x01\x02\x03", dtype="V3")}),
        data=make(ext2, (5,), {
            "t": np.array([0, NAT, -1, 170000000, I64_MAX], dtype="<M8[10s]"),
            "d": np.array([NAT, 0, -1, I64_MAX, 1000], dtype="<m8[ms]"),
            "s": ["", "abcd", "é", "日本語", "🦀x"],
            "b": [b"", b"hello", b"a\x00b", b"\xff", b"xy"],
            "v": np.array([b"\x00\x00\x00", b"\xff\xfe\xfd", b"abc", b"\x00\x01\x00",
                           b"\x80\x00\x7f"], dtype="V3")}))
    es2 = scalar_struct()
    add(name="v2_every_scalar", zarr_format=2, series=s, dtype=es2,
        description="v2 struct with one field of every core scalar type; extremes, "
                    "NaN payloads, subnormals",
        fill=every_scalar_fill(es2), data=make(es2, (5,), every_scalar_values(es2, 5)))
    add(name="v2_special_fills", zarr_format=2, series=s, dtype=sf,
        description="v2 struct fill with NaN, NaN payload, negative NaN, -0.0, -inf, "
                    "complex (NaN, inf), (-inf, -0.0) (base64 keeps all bits); only "
                    "chunk 0 written",
        fill=sf_fill,
        data=make(sf, (5,), {"nan": [1, 2, 3, 4, 5], "nan_payload": [1, 2, 3, 4, 5],
                             "neg_nan": [1, 2, 3, 4, 5], "negzero": [1, 2, 3, 4, 5],
                             "neginf": [1, 2, 3, 4, 5], "h": [1, 2, 3, 4, 5],
                             "c": [1j, 2, 3, 4, 5], "c2": [1j, 2, 3, 4, 5]}),
        region=(slice(0, 2),))
    add(name="v2_null_fill", zarr_format=2, series=s, dtype=FLAT,
        shape=(4,), chunks=(2,),
        description="v2 [a <i4, b <f8] with fill_value null, shape (4,) chunks (2,) "
                    "(no partial edge chunk); every element written",
        fill=None, data=make(FLAT, (4,), {"a": [1, -2, 3, -4],
                                          "b": [0.5, NAN, -0.0, INF]}),
        notes="Shape is a multiple of the chunk size on purpose: with a null fill "
              "zarr-python 2.18 leaves the out-of-bounds tail of an edge chunk "
              "uninitialised (np.empty), which would make the fixture bytes "
              "non-deterministic. ")
    add(name="v2_missing_chunks", zarr_format=2, series=s, dtype=FLAT,
        shape=(6,), chunks=(2,),
        description="v2 [a <i4, b <f8] shape (6,) chunks (2,), fill (7, -1.5); only "
                    "chunk '1' written",
        fill=rec(FLAT, {"a": 7, "b": -1.5}), data=missing_data(FLAT, (6,)),
        region=(slice(2, 4),))
    add(name="v2_2d_slash", zarr_format=2, series=s, dtype=s2, shape=(3, 4),
        chunks=(2, 3), sep="/",
        description="v2 2-D [x <i2, y <f4] shape (3,4) chunks (2,3), "
                    "dimension_separator '/', fill (-1, 0.5)",
        fill=rec(s2, {"x": -1, "y": 0.5}),
        data=make(s2, (3, 4), {"x": np.arange(12).reshape(3, 4) * 100 - 600,
                               "y": np.arange(12).reshape(3, 4) * 0.25}))
    for d in scalar_cases("v2_scalar_", 2, s, big=("int32", "float32")):
        add(**d)
    p2 = np.dtype([("id", "<u8"), ("pos", "<f4", (3,)), ("mass", "<f8"),
                   ("alive", "|b1")])
    add(name="v2_derive_particle", zarr_format=2, series=s, dtype=p2,
        description="v2 derive Particle [id <u8, pos <f4 (3,), mass <f8, alive |b1]; "
                    "default fill",
        data=make(p2, (5,), {"id": [1, 2, 3, U64_MAX, 0],
                             "pos": [[0.0, 0.0, 0.0], [1, 2, 3], [-1, -2, -3],
                                     [0.5, 0.25, 0.125], [1e10, -1e-10, NAN]],
                             "mass": [1.0, 2.5, 1e-300, INF, -0.0],
                             "alive": [True, False, True, True, False]}))
    g2 = np.dtype([("cells", "<i2", (3, 2))])
    add(name="v2_derive_grid", zarr_format=2, series=s, dtype=g2,
        description="v2 derive Grid [cells <i2 (3,2)]; default fill",
        data=make(g2, (5,), {"cells": [[[100 * r + 10 * i + j for j in range(2)]
                                        for i in range(3)] for r in range(5)]}))
    enums_chars2 = np.dtype([("status", "|u1"), ("kind", "<i2"), ("history", "|u1", (3,)),
                             ("grade", "<U1"), ("value", "<f8")])
    add(name="v2_derive_enums_chars", zarr_format=2, series=s, dtype=enums_chars2,
        description="v2 derive EnumsChars [status |u1 (enum 0, 1, 7), kind <i2 (enum -300, "
                    "0, 300), history |u1 (3,), grade <U1 (char), value <f8]; fill (7, -300, "
                    "(1, 0, 7), 'é', 0.5); chunk 2 never written",
        fill=rec(enums_chars2, {"status": 7, "kind": -300, "history": [1, 0, 7],
                                "grade": "é", "value": 0.5}),
        data=make(enums_chars2, (5,), {"status": [0, 1, 7, 7, 0],
                                       "kind": [-300, 0, 300, 0, -300],
                                       "history": [[0, 7, 1], [1, 7, 0], [7, 1, 0],
                                                   [0, 0, 7], [1, 0, 7]],
                                       "grade": ["a", "é", "日", "🦀", ""],
                                       "value": [1.5, -2.0, 0.0, 1e300, -0.0]}),
        region=(slice(0, 4),))
    das2 = scalar_struct(SHORT)
    add(name="v2_derive_all_scalars", zarr_format=2, series=s, dtype=das2,
        description="v2 derive AllScalars {b,i8,...,c128} with '<' typestrs; "
                    "default fill",
        data=make(das2, (5,), every_scalar_values(das2, 5, key=lambda n: SHORT[n])))
    # ================= each zarr-python's default codecs =================
    # The same kinds of arrays written with the writer's defaults: 3.4.2 zstd (v3) and its
    # v2 default compressor, and shards; 3.1.6 zstd under the legacy v3 "structured" type;
    # 2.18.7 Blosc (lz4, byte shuffle). Most are written in part: with 5 elements in chunks
    # of 2, `part` leaves chunk 1 half written and chunk 2 never written.
    part = (slice(0, 3),)
    dflt = {"codecs": "default"}
    s = "3.4"
    add(name="v3_zstd_flat", zarr_format=3, series=s, dtype=FLAT, region=part, **dflt,
        description="default codecs (zstd): struct a:int32, b:float64, fill (1, 2.0); "
                    "elements 0..2 written, chunk 2 never",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_zstd_flat_big", zarr_format=3, series=s, dtype=FLAT, endian="big", **dflt,
        description="default compressor (zstd), bytes codec endian big: struct a:int32, "
                    "b:float64, fill (1, 2.0)",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_zstd_nested", zarr_format=3, series=s, dtype=NESTED_V3, region=part, **dflt,
        description="default codecs (zstd): struct point{x,y:float32}, value:float64, "
                    "fill ((1,2),3.14); chunk 2 never written",
        fill=rec(NESTED_V3, {"point/x": 1.0, "point/y": 2.0, "value": 3.14}),
        data=nested_v3_data(NESTED_V3))
    add(name="v3_zstd_deep", zarr_format=3, series=s, dtype=deep, **dflt,
        description="default codecs (zstd): three levels of nested structs; default fill",
        data=make(deep, (5,), {
            "id": [0, 1, 2, 65535, 300],
            "outer/flag": [True, False, True, False, False],
            "outer/inner/deep/c": [1 + 2j, complex(NAN, 0), -3j, complex(INF, -INF), 0.5],
            "outer/inner/deep/t": [I64_MIN, I64_MAX, 0, -1, 123456789],
            "outer/inner/u": [0, 255, 1, 2, 3],
            "outer/w": fbits("<f2", [0x3c00, 0x0001, 0x7e00, 0xfc00, 0x8000]),
            "z": [-128, 127, 0, -1, 5]}))
    es3 = scalar_struct()
    add(name="v3_zstd_every_scalar", zarr_format=3, series=s, dtype=es3, region=part, **dflt,
        description="default codecs (zstd): one field of every core scalar type; extremes, "
                    "NaN payloads, subnormals; chunk 2 never written",
        fill=every_scalar_fill(es3), data=make(es3, (5,), every_scalar_values(es3, 5)))
    add(name="v3_zstd_extension_fields", zarr_format=3, series=s, dtype=ext, **dflt,
        description="default codecs (zstd): datetime64[s], datetime64[10s], datetime64[ms], "
                    "timedelta64[ns], U4, V3, S5; NaT and non-ASCII text",
        fill=rec(ext, {"t": NAT, "t10": NAT, "tms": np.datetime64(0, "ms"),
                       "dt": TNAT, "s": "hé",
                       "raw": np.array(b"\x01\x02\x03", dtype="V3"), "bs": b"ab"}),
        data=make(ext, (5,), {
            "t": np.array([0, -1, NAT, 1700000000, I64_MAX], dtype="<M8[s]"),
            "t10": np.array([NAT, 1, -1, 170000000, 0], dtype="<M8[10s]"),
            "tms": np.array([1, NAT, -1000, I64_MIN + 1, 0], dtype="<M8[ms]"),
            "dt": np.array([NAT, 0, -1, I64_MAX, 10 ** 9], dtype="<m8[ns]"),
            "s": ["", "abcd", "é", "日本語", "🦀x"],
            "raw": np.array([b"\x00\x00\x00", b"\xff\xfe\xfd", b"abc",
                             b"\x00\x01\x00", b"\x80\x00\x7f"], dtype="V3"),
            "bs": [b"", b"hello", b"a\x00b", b"\xff", b"xy"]}))
    add(name="v3_zstd_2d", zarr_format=3, series=s, dtype=s2, shape=(3, 4), chunks=(2, 3),
        region=(slice(0, 2), slice(0, 4)), **dflt,
        description="default codecs (zstd): 2-D struct x:int16,y:float32 shape (3,4) "
                    "chunks (2,3), fill (-1, 0.5); row 2 (chunks (1, *)) never written",
        fill=rec(s2, {"x": -1, "y": 0.5}),
        data=make(s2, (3, 4), {"x": np.arange(12).reshape(3, 4) * 100 - 600,
                               "y": np.arange(12).reshape(3, 4) * 0.25}))
    add(name="v3_zstd_derive_particle", zarr_format=3, series=s, dtype=particle, **dflt,
        description="default codecs (zstd): derive Particle {id:u64, pos:(f32,f32,f32), "
                    "mass:f64, alive:bool}; default fill",
        data=make(particle, (5,), {"id": [1, 2, 3, U64_MAX, 0],
                                   "pos/0": [0.0, 1.0, -1.0, 0.5, 1e10],
                                   "pos/1": [0.0, 2.0, -2.0, 0.25, -1e-10],
                                   "pos/2": [0.0, 3.0, -3.0, 0.125, NAN],
                                   "mass": [1.0, 2.5, 1e-300, INF, -0.0],
                                   "alive": [True, False, True, True, False]}))
    add(name="v3_zstd_derive_grid", zarr_format=3, series=s, dtype=grid, **dflt,
        description="default codecs (zstd): derive Grid {cells: [[i16; 2]; 3]} as nested "
                    "tuple structs; default fill",
        data=make(grid, (5,), {f"cells/{i}/{j}": [100 * r + 10 * i + j for r in range(5)]
                               for i in range(3) for j in range(2)}))
    for d in scalar_cases("v3_zstd_scalar_", 3, s, big=("float32",)):
        if d["name"].split("_")[-1] in ("float32", "complex128", "uint64"):
            d.update(dflt)
            d["description"] = "default codecs (zstd): " + d["description"]
            add(**d)
    add(name="v3_sharded_flat", zarr_format=3, series=s, dtype=FLAT, shape=(12,),
        chunks=(2,), shards=(4,), region=(slice(0, 5),), **dflt,
        description="sharded (shards of 4, chunks of 2), default codecs (zstd inside, crc32c "
                    "index): struct a:int32, b:float64, fill (7, -1.5); elements 0..4 written: "
                    "shard 1 in part, shard 2 never",
        fill=rec(FLAT, {"a": 7, "b": -1.5}), data=missing_data(FLAT, (12,)))
    s6 = np.dtype([("x", "<i2"), ("y", "<f4"), ("z", "<c8")])
    add(name="v3_sharded_2d_big", zarr_format=3, series=s, dtype=s6, shape=(6, 5),
        chunks=(2, 2), shards=(4, 4), endian="big", region=(slice(0, 3), slice(0, 5)), **dflt,
        description="sharded 2-D (6,5) in shards (4,4) of chunks (2,2), bytes endian big, "
                    "default codecs: struct x:int16,y:float32,z:complex64, fill "
                    "(-1, NaN, (0, -inf)); rows 0..2 written: shards (1, *) never",
        fill=rec(s6, {"x": -1, "y": NAN, "z": complex(0, -INF)}),
        data=make(s6, (6, 5), {"x": np.arange(30).reshape(6, 5) * 1000 - 15000,
                               "y": np.arange(30).reshape(6, 5) * -0.5,
                               "z": np.arange(30).reshape(6, 5) * (1 - 2j)}))
    for pre_s, pre in (("3.4", "v2_by_34_default_"), ("3.1", "v2_by_31_default_")):
        add(name=pre + "flat", zarr_format=2, series=pre_s, dtype=FLAT, region=part, **dflt,
            description="v2 default compressor: [a <i4, b <f8], fill (1, 2.0); chunk 2 "
                        "never written",
            fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
        add(name=pre + "mixed_order", zarr_format=2, series=pre_s, dtype=FLAT_MIXED, **dflt,
            description="v2 default compressor: [a <i4, b >f8] (mixed byte order), "
                        "fill (1, 2.0)",
            fill=rec(FLAT_MIXED, {"a": 1, "b": 2.0}), data=flat_data(FLAT_MIXED))
    add(name="v2_by_34_default_nested", zarr_format=2, series="3.4", dtype=NESTED_V2, **dflt,
        description="v2 default compressor: [foo <f4, bar [baz <f4, qux <i4]], "
                    "fill (1.5, (2.5, 3))",
        fill=rec(NESTED_V2, {"foo": 1.5, "bar/baz": 2.5, "bar/qux": 3}),
        data=nested_v2_data(NESTED_V2))

    s = "3.1"
    add(name="v3_legacy_zstd_flat", zarr_format=3, series=s, dtype=FLAT, region=part, **dflt,
        description="default codecs (zstd): legacy 'structured' a:int32,b:float64, "
                    "fill (1, 2.0); chunk 2 never written",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v3_legacy_zstd_nested", zarr_format=3, series=s, dtype=NESTED_V3, **dflt,
        description="default codecs (zstd): legacy 'structured' point{x,y:float32}, "
                    "value:float64, fill ((1,2),3.14)",
        fill=rec(NESTED_V3, {"point/x": 1.0, "point/y": 2.0, "value": 3.14}),
        data=nested_v3_data(NESTED_V3))
    es31 = scalar_struct()
    add(name="v3_legacy_zstd_every_scalar", zarr_format=3, series=s, dtype=es31, region=part,
        **dflt,
        description="default codecs (zstd): legacy 'structured' with one field of every "
                    "core scalar type; chunk 2 never written",
        fill=every_scalar_fill(es31), data=make(es31, (5,), every_scalar_values(es31, 5)))
    add(name="v3_legacy_zstd_2d", zarr_format=3, series=s, dtype=s2, shape=(3, 4),
        chunks=(2, 3), region=(slice(0, 2), slice(0, 4)), **dflt,
        description="default codecs (zstd): legacy 'structured' 2-D x:int16,y:float32, "
                    "fill (-1, 0.5); row 2 never written",
        fill=rec(s2, {"x": -1, "y": 0.5}),
        data=make(s2, (3, 4), {"x": np.arange(12).reshape(3, 4) * 100 - 600,
                               "y": np.arange(12).reshape(3, 4) * 0.25}))

    s = "2.18"
    add(name="v2_blosc_flat", zarr_format=2, series=s, dtype=FLAT, region=part, **dflt,
        description="default compressor (Blosc lz4, shuffle): [a <i4, b <f8], fill (1, 2.0); "
                    "chunk 2 never written",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    add(name="v2_blosc_nested", zarr_format=2, series=s, dtype=NESTED_V2, **dflt,
        description="default compressor (Blosc): [foo <f4, bar [baz <f4, qux <i4]], "
                    "fill (1.5, (2.5, 3))",
        fill=rec(NESTED_V2, {"foo": 1.5, "bar/baz": 2.5, "bar/qux": 3}),
        data=nested_v2_data(NESTED_V2))
    add(name="v2_blosc_subarray", zarr_format=2, series=s, dtype=SUBARRAY, region=part,
        **dflt,
        description="default compressor (Blosc): [x <f4, z <f4 (2,2)], "
                    "fill (-1, [[1,2],[3,4]]); chunk 2 never written",
        fill=rec(SUBARRAY, {"x": -1.0, "z": [[1, 2], [3, 4]]}),
        data=make(SUBARRAY, (5,), {"x": [0.5, 1.5, NAN, 3.5, 4.5],
                                   "z": np.arange(20, dtype="<f4") - 10}))
    add(name="v2_blosc_mixed_order", zarr_format=2, series=s, dtype=FLAT_MIXED, **dflt,
        description="default compressor (Blosc): [a <i4, b >f8] (mixed byte order), "
                    "fill (1, 2.0)",
        fill=rec(FLAT_MIXED, {"a": 1, "b": 2.0}), data=flat_data(FLAT_MIXED))
    add(name="v2_blosc_aligned", zarr_format=2, series=s, dtype=ALIGNED, region=part, **dflt,
        description="default compressor (Blosc): np.dtype([a u1, b <i4], align=True) "
                    "(padding entry [\"\", \"|V3\"]), fill (1, 2); chunk 2 never written",
        fill=rec(ALIGNED, {"a": 1, "b": 2}),
        data=make(ALIGNED, (5,), {"a": [0, 1, 2, 255, 7],
                                  "b": [-2 ** 31, 2 ** 31 - 1, 0, -1, 42]}),
        notes="Fill passed as raw bytes to zarr.create so that the padding bytes are "
              "zero (see v2_aligned). ")
    add(name="v2_blosc_extension_fields", zarr_format=2, series=s, dtype=ext2, **dflt,
        description="default compressor (Blosc): [t <M8[10s], d <m8[ms], s <U4, b |S5, "
                    "v |V3]; NaT, non-ASCII",
        fill=rec(ext2, {"t": NAT, "d": TNAT, "s": "hé", "b": b"ab",
                        "v": np.array(b"\x01\x02\x03", dtype="V3")}),
        data=make(ext2, (5,), {
            "t": np.array([0, NAT, -1, 170000000, I64_MAX], dtype="<M8[10s]"),
            "d": np.array([NAT, 0, -1, I64_MAX, 1000], dtype="<m8[ms]"),
            "s": ["", "abcd", "é", "日本語", "🦀x"],
            "b": [b"", b"hello", b"a\x00b", b"\xff", b"xy"],
            "v": np.array([b"\x00\x00\x00", b"\xff\xfe\xfd", b"abc", b"\x00\x01\x00",
                           b"\x80\x00\x7f"], dtype="V3")}))
    es218 = scalar_struct(order=">")
    add(name="v2_blosc_every_scalar_big", zarr_format=2, series=s, dtype=es218, region=part,
        **dflt,
        description="default compressor (Blosc): struct of every core scalar type, every "
                    "multi-byte field big-endian; chunk 2 never written",
        fill=every_scalar_fill(es218), data=make(es218, (5,), every_scalar_values(es218, 5)))
    add(name="v2_blosc_2d_f_order", zarr_format=2, series=s, dtype=s2, shape=(3, 4),
        chunks=(2, 3), order="F", region=(slice(0, 2), slice(0, 4)), **dflt,
        description="default compressor (Blosc), order F: 2-D [x <i2, y <f4] shape (3,4) "
                    "chunks (2,3), fill (-1, 0.5); row 2 never written",
        fill=rec(s2, {"x": -1, "y": 0.5}),
        data=make(s2, (3, 4), {"x": np.arange(12).reshape(3, 4) * 100 - 600,
                               "y": np.arange(12).reshape(3, 4) * 0.25}))
    add(name="v2_blosc_derive_particle", zarr_format=2, series=s, dtype=p2, **dflt,
        description="default compressor (Blosc): derive Particle [id <u8, pos <f4 (3,), "
                    "mass <f8, alive |b1]; default fill",
        data=make(p2, (5,), {"id": [1, 2, 3, U64_MAX, 0],
                             "pos": [[0.0, 0.0, 0.0], [1, 2, 3], [-1, -2, -3],
                                     [0.5, 0.25, 0.125], [1e10, -1e-10, NAN]],
                             "mass": [1.0, 2.5, 1e-300, INF, -0.0],
                             "alive": [True, False, True, True, False]}))
    add(name="v2_blosc_astype_same_type", zarr_format=2, series=s, dtype=FLAT, region=part,
        astype_filter=True, **dflt,
        description="default compressor (Blosc) and an AsType filter from the record's type "
                    "to itself (written as |V12 to |V12, changing nothing): [a <i4, b <f8], "
                    "fill (1, 2.0); chunk 2 never written",
        fill=rec(FLAT, {"a": 1, "b": 2.0}), data=flat_data(FLAT))
    return C


# --------------------------------------------------------------------------
# Drivers
# --------------------------------------------------------------------------

def writer_info():
    return {"zarr": ZARR_VERSION, "numpy": NUMPY_VERSION, "python": PY_VERSION}


def generate(outdir):
    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    os.chdir(outdir)  # relative store paths: no absolute paths in warnings
    index = {"writer": writer_info(), "cases": [], "skipped": []}
    for c in cases():
        if c["series"] != SERIES:
            continue
        name = c["name"]
        path = name + ".zarr"
        entry = {"name": name, "zarr_format": c["zarr_format"],
                 "description": c["description"]}
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                write_note = write_array(c, path)
            except Exception as e:  # noqa: BLE001
                err = f"{type(e).__name__}: {e}"
                if os.path.exists(path):
                    shutil.rmtree(path)
                entry["reason"] = f"zarr {ZARR_VERSION} refused to write: {err}"
                index["skipped"].append(entry)
                print(f"  skip  {name}: {err.splitlines()[0][:150]}")
                continue
        write_warnings = _warn_text(ws)
        notes = c["notes"] + write_note
        read_error = None
        try:
            obs, values, fill_read, read_warnings = observe(path, c["zarr_format"])
            notes += roundtrip_note(c, values, fill_read)
            expected_from = "zarr_readback"
        except Exception as e:  # noqa: BLE001
            read_error = f"{type(e).__name__}: {e}"
            obs = observe_intended(c, path)
            read_warnings = []
            expected_from = "written_data"
            notes += (f"zarr {ZARR_VERSION} wrote this array but cannot read it back "
                      f"({read_error.splitlines()[0]}); expected values are the data "
                      "that was written. ")
        exp = {"case": name, "description": c["description"], "writer": writer_info(),
               "zarr_format": c["zarr_format"], "path": path}
        exp.update(obs)
        exp["warnings"] = write_warnings + [w for w in read_warnings
                                            if w not in write_warnings]
        exp["expected_from"] = expected_from
        if read_error:
            exp["read_error"] = read_error
        exp["notes"] = notes.strip()
        with open(name + ".json", "w", encoding="utf-8") as f:
            f.write(dump_expected(exp))
        if expected_from != "zarr_readback":
            entry["expected_from"] = expected_from
        index["cases"].append(entry)
        flag = "" if expected_from == "zarr_readback" else "  (NOT readable by writer)"
        print(f"  wrote {name}{flag}")
    with open("index.json", "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(index['cases'])} cases written, {len(index['skipped'])} skipped "
          f"(zarr {ZARR_VERSION}, numpy {NUMPY_VERSION})")


def _j(v):
    return json.dumps(v, ensure_ascii=False)


def dump_expected(exp):
    """One top-level key per line; one element per line for 'values'."""
    lines = []
    for k, v in exp.items():
        if k == "values" and v:
            inner = ",\n".join("  " + _j(e) for e in v)
            lines.append(f" {_j(k)}: [\n{inner}\n ]")
        else:
            lines.append(f" {_j(k)}: {_j(v)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def cross_check(outdir):
    """Read another version's fixtures with the installed zarr (informational).

    Prints one JSON object: {case: "same" | "differs: keys" | "error: ..."}.
    """
    os.chdir(outdir)
    with open("index.json", encoding="utf-8") as f:
        index = json.load(f)
    results = {}
    for entry in index["cases"]:
        name = entry["name"]
        with open(name + ".json", encoding="utf-8") as f:
            exp = json.load(f)
        if exp["zarr_format"] == 3 and not IS_V3_LIB:
            results[name] = "not attempted: zarr 2 cannot read zarr_format 3"
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obs, _v, _f, _w = observe(exp["path"], exp["zarr_format"])
        except Exception as e:  # noqa: BLE001
            results[name] = "error: " + f"{type(e).__name__}: {e}".splitlines()[0][:300]
            continue
        diff = [k for k in KEYS if json.loads(json.dumps(obs[k])) != exp[k]]
        if not diff:
            results[name] = "same"
        else:
            detail = []
            for k in diff:
                if k in ("dtype_descr", "fill_value", "itemsize"):
                    detail.append(f"{k}={_j(obs[k])}")
            results[name] = "differs: " + ", ".join(diff) + (
                " (" + "; ".join(detail) + ")" if detail else "")
    out = {"reader": writer_info(), "fixtures_written_by": index["writer"],
           "results": results}
    print(json.dumps(out, ensure_ascii=False))


KEYS = ["shape", "chunks", "shards", "dtype_descr", "itemsize", "padding_fields", "fill_value",
        "fill_value_hex", "values", "values_hex", "stored_chunks"]


def compare(exp):
    """Reads the case `exp` describes; returns the problems (empty: read as expected)."""
    problems = []
    try:
        obs, _values, _fill, _w = observe(exp["path"], exp["zarr_format"])
    except Exception as e:  # noqa: BLE001
        return [f"read failed: {type(e).__name__}: {e}"]
    for k in KEYS:
        if json.loads(json.dumps(obs[k])) != exp[k]:
            problems.append(f"{k}: expected {exp[k]!r}, got {obs[k]!r}")
    # Attributes the writer promises (zarrdt's "zarrdt:enums"), where the manifest has them.
    for k, v in exp.get("attributes", {}).items():
        if json.loads(json.dumps(obs["attributes"].get(k))) != v:
            problems.append(f"attributes: {k}: expected {v!r}, got {obs['attributes'].get(k)!r}")
    # internal consistency: hex vs item count
    n = int(np.prod(exp["shape"]))
    if len(exp["values"]) != n or len(exp["values_hex"]) != 2 * n * exp["itemsize"]:
        problems.append("values / values_hex length mismatch")
    return problems


def check(outdir):
    """Re-read every fixture in outdir (written by the running zarr version) and compare
    with its expected JSON."""
    os.chdir(outdir)
    with open("index.json", encoding="utf-8") as f:
        index = json.load(f)
    if index["writer"]["zarr"] != ZARR_VERSION:
        raise SystemExit(f"fixtures written by zarr {index['writer']['zarr']}, "
                         f"running {ZARR_VERSION}")
    entries = index["cases"]
    failures = 0
    for entry in entries:
        name = entry["name"]
        with open(name + ".json", encoding="utf-8") as f:
            exp = json.load(f)
        if exp.get("expected_from") == "written_data":
            try:
                observe(exp["path"], exp["zarr_format"])
                problems = ["expected a read error but the array was readable"]
            except Exception:  # noqa: BLE001
                problems = []
        else:
            problems = compare(exp)
        if problems:
            failures += 1
            print(f"  FAIL  {name}")
            for p in problems:
                print(f"        {p[:400]}")
        else:
            print(f"  ok    {name}")
    print(f"check {outdir}: {len(entries) - failures} ok, {failures} failed "
          f"(zarr {ZARR_VERSION})")
    return failures


def check_zarrdt(outdir):
    """Read the arrays zarrdt wrote (tests/suite/interop_write.rs) in outdir.

    A case whose "readers" name this zarr series must read exactly as its manifest says
    (every value, the fill value, dtype, shape, chunks, shards, the chunks stored). Every
    other case must not: zarr-python refuses it, or reads something else (printed as
    "not-read"); a case read exactly but not listed fails, so that no reader list is
    understated.
    """
    os.chdir(outdir)
    with open("index.json", encoding="utf-8") as f:
        index = json.load(f)
    entries = index["cases"]
    listed = [e for e in entries if SERIES in e["readers"]]
    if not listed:
        raise SystemExit(f"no case in {outdir} lists zarr {SERIES} as a reader")
    failures = refused = misread = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for entry in entries:
            name = entry["name"]
            with open(name + ".json", encoding="utf-8") as f:
                exp = json.load(f)
            if exp["readers"] != entry["readers"]:
                raise SystemExit(f"{name}: readers differ between index.json and {name}.json")
            problems = compare(exp)
            if SERIES in entry["readers"]:
                if problems:
                    failures += 1
                    print(f"  FAIL  {name}")
                    for p in problems:
                        print(f"        {p[:400]}")
                else:
                    print(f"  ok    {name}")
            elif not problems:
                failures += 1
                print(f"  FAIL  {name}: read exactly as written, but zarr {SERIES} is not "
                      "listed as a reader (tests/suite/interop_write.rs)")
            elif problems[0].startswith("read failed: "):
                refused += 1
                print(f"  not-read {name}: refused: {problems[0][13:].splitlines()[0][:300]}")
            else:
                misread += 1
                keys = ", ".join(p.split(":")[0] for p in problems)
                print(f"  not-read {name}: reads differently ({keys})")
    print(f"check-zarrdt {outdir}: {len(listed) - failures} ok, {failures} failed; "
          f"{refused + misread} not read ({refused} refused, {misread} read differently) "
          f"(zarr {ZARR_VERSION})")
    return failures


def main(argv):
    if len(argv) == 2 and argv[0] == "--cross-check":
        cross_check(os.path.abspath(argv[1]))
        return
    if len(argv) == 2 and argv[0] == "--check":
        sys.exit(1 if check(os.path.abspath(argv[1])) else 0)
    if len(argv) == 2 and argv[0] == "--check-zarrdt":
        sys.exit(1 if check_zarrdt(os.path.abspath(argv[1])) else 0)
    if len(argv) == 1 and not argv[0].startswith("-"):
        generate(os.path.abspath(argv[0]))
        return
    print(__doc__)
    sys.exit(2)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except SystemExit:
        raise
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
