#!/usr/bin/env python3
"""Records as tables, checked against real readers (issue 21; run by tests/arrow/check.sh).

1. export: every array of the committed fixtures (tests/fixtures/zarr-python-*) and of the
   interop suite's arrays zarrdt writes (tests/suite/interop_write.rs) is exported
   by `zarrdt export` to Parquet and to an Arrow IPC file; pyarrow and Polars read each file,
   and what they hold must equal zarr-python 3.4's reading of the same array (zarr-python
   2.18's for the v2 subarray arrays zarr-python 3.4 cannot open): field names and nesting
   (a NumPy subarray is a fixed-size list, a nested struct a struct), every value bit for bit
   (floats by their bits, NaN payloads included), NaT as null, text and bytes as NumPy reads
   them. Values with no exact form in the format are the refusal listed in REFUSED, and the
   rest of the array is checked without them.
2. round trip: each Parquet file is imported back by `zarrdt import`; zarr-python reads the
   new array, which must hold the same values and the same fill value, bit for bit, with the
   same field names.
3. import: tables written by pyarrow (nested structs, timestamps of every unit with nulls,
   dates, durations, strings, bytes, fixed-size lists and lists of one length, every scalar)
   as Parquet (snappy and zstd) and Arrow IPC are imported by `zarrdt import`, and
   zarr-python 3.4's reading of the arrays must equal the source tables.

Usage: check.py ZARRDT_BINARY WORK_DIR PYTHON_2_18 ARRAYS_DIR...
(each ARRAYS_DIR holds an index.json of cases and <case>.zarr arrays, as the fixtures do)
Prints one line per failure and a summary "N passed, M failed"; exits 1 on any failure.
"""

import json
from fractions import Fraction
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import zarr

warnings.simplefilter("ignore")

# Values with no exact form in a table format, and the error `zarrdt export` gives for them:
# (fixture, format) -> (record, start of the message). The other records are checked.
REFUSED = {
    # datetime64[10s] holding 2**63 - 1 tens of seconds: beyond Arrow's timestamp[s].
    ("zarr-python-2.18.7/v2_extension_fields", "parquet"): (4, "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s"),
    ("zarr-python-2.18.7/v2_extension_fields", "arrow"): (4, "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s"),
    ("zarr-python-2.18.7/v2_blosc_extension_fields", "parquet"): (4, "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s"),
    ("zarr-python-2.18.7/v2_blosc_extension_fields", "arrow"): (4, "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s"),
    # datetime64[s] holding 2**63 - 1 seconds: Parquet's timestamps are milliseconds at most
    # (pyarrow refuses it too); the Arrow IPC file holds it as timestamp[s].
    ("zarr-python-3.4.2/v3_struct_extension_fields", "parquet"): (4, "t, record 4: 9223372036854775807 s is beyond Parquet's timestamps"),
    ("zarr-python-3.4.2/v3_zstd_extension_fields", "parquet"): (4, "t, record 4: 9223372036854775807 s is beyond Parquet's timestamps"),
}

PASSED = 0
FAILED = []
# Values Polars cannot hold (it keeps times in milliseconds at coarsest, and an Arrow
# timestamp[s] beyond that range comes out wrapped): listed in the summary, not compared.
POLARS_LIMITS = []
# Arrays of the interop suite that no zarr-python reads: not compared, listed in the summary.
UNREAD = []


def ok(condition, what):
    global PASSED
    if condition:
        PASSED += 1
    else:
        FAILED.append(what)
        print(f"FAIL {what}", flush=True)
    return condition


# --------------------------------------------------------------------------
# Reading arrays with zarr-python
# --------------------------------------------------------------------------

def read_array(path, python_218, series=None):
    """(values, fill value, series) of the array at `path` as zarr-python reads them: 3.4, or
    2.18 for the Zarr v2 subarray dtypes zarr-python 3.4 has no data type for (or `series`,
    "3.4" or "2.18", when the array says which reads it)."""
    if series != "2.18":
        try:
            a = zarr.open_array(path, mode="r")
            return a[...], a.fill_value, "3.4"
        except ValueError as error:
            if series == "3.4" or "No Zarr data type found" not in str(error):
                raise
    # zarr-python 2.18's reading, through a scratch file outside the source tree.
    scratch = tempfile.NamedTemporaryFile(suffix=".npz", delete=False)
    scratch.close()
    out = scratch.name
    code = (
        "import sys, numpy as np, zarr\n"
        "a = zarr.open_array(sys.argv[1], mode='r')\n"
        "f = a.fill_value\n"
        "np.savez(sys.argv[2], values=a[...], fill=np.array(f if f is not None else np.zeros((), a.dtype), dtype=a.dtype))\n"
    )
    subprocess.run([python_218, "-c", code, path, out], check=True)
    with np.load(out) as saved:
        values, fill = saved["values"], saved["fill"][()]
    os.remove(out)
    return values, fill, "2.18"


# --------------------------------------------------------------------------
# Comparing a NumPy reading with an Arrow table
# --------------------------------------------------------------------------

def item_names(dt):
    """Whether a struct dtype is the Zarr v3 form of a Rust array: fields "0", "1", … of one
    type."""
    names = dt.names or ()
    return (
        len(names) > 0
        and list(names) == [str(i) for i in range(len(names))]
        and len({dt.fields[n][0] for n in names}) == 1
    )


def numpy_leaves(arr, prefix=(), items=False):
    """(path, array) for every leaf of a NumPy array of records, complex numbers as their
    parts; with `items`, structs of fields "0", "1", … are an extra dimension."""
    dt = arr.dtype
    if dt.names:
        if items and item_names(dt):
            stacked = np.stack([arr[n] for n in dt.names], axis=-1)
            yield from numpy_leaves(stacked, prefix, items)
            return
        for name in dt.names:
            yield from numpy_leaves(arr[name], prefix + (name,), items)
    elif dt.kind == "c":
        yield prefix + ("re",), arr.real
        yield prefix + ("im",), arr.imag
    else:
        yield prefix, arr


def arrow_leaves(col, prefix=(), dims=(), items=False):
    """(path, leaf array, item dims) for every leaf of an Arrow column."""
    t = col.type
    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        if items and names == [str(i) for i in range(len(names))] and names and len({str(t.field(i).type) for i in range(t.num_fields)}) == 1:
            # Interleave the children as one extra dimension.
            children = [col.field(i) for i in range(t.num_fields)]
            yield ("ITEMS", prefix, children, dims)
            return
        for i, name in enumerate(names):
            yield from arrow_leaves(col.field(i), prefix + (name,), dims, items)
    elif pa.types.is_fixed_size_list(t):
        yield from arrow_leaves(col.flatten(), prefix, dims + (t.list_size,), items)
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        lengths = pc_lengths(col)
        size = lengths[0] if lengths else 0
        ok(all(n == size for n in lengths), f"{prefix}: lists of one length")
        yield from arrow_leaves(col.flatten(), prefix, dims + (size,), items)
    else:
        yield ("LEAF", prefix, col, dims)


def pc_lengths(col):
    import pyarrow.compute as pc
    return pc.list_value_length(col).to_pylist()


def flat_arrow(table, items):
    """{path: (values list, arrow type, item dims)} of every leaf of a table."""
    out = {}

    def add(entry):
        if entry[0] == "ITEMS":
            _, prefix, children, dims = entry
            # The struct form of an array: child i is item i of a new innermost dimension.
            per_child = [dict((e[1], e) for e in (list(arrow_leaves(c, prefix, dims, items))) if e[0] == "LEAF") for c in children]
            for path in per_child[0]:
                cols = [pc[path][2] for pc in per_child]
                leaf_dims = per_child[0][path][3]
                values = [c.to_pylist() for c in cols]
                # Interleave: value j of every child, then j + 1…
                merged = []
                for j in range(len(values[0])):
                    for v in values:
                        merged.append(v[j])
                out[path] = (merged, cols[0].type, leaf_dims + (len(cols),), cols[0])
            return
        _, prefix, col, dims = entry
        out[prefix] = (None, col.type, dims, col)

    for name, column in zip(table.column_names, table.columns):
        col = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        for entry in arrow_leaves(col, (name,), (), items):
            add(entry)
    return out


ATTOSECONDS = {
    "W": 604_800 * 10**18, "D": 86_400 * 10**18, "h": 3_600 * 10**18, "m": 60 * 10**18,
    "s": 10**18, "ms": 10**15, "us": 10**12, "ns": 10**9, "ps": 10**6, "fs": 10**3, "as": 1,
}


def in_unit(values, unit):
    """NumPy datetime64/timedelta64 values as exact Python integers of an Arrow unit (None
    for NaT); years and months through NumPy's calendar."""
    base, count = np.datetime_data(values.dtype)
    if base in ("Y", "M"):
        values = values.astype("M8[s]")
        base, count = "s", 1
    out = []
    for value, nat in zip(values.view("i8").tolist(), np.isnat(values).tolist()):
        if nat:
            out.append(None)
            continue
        total = value * count * ATTOSECONDS[base]
        out.append(Fraction(total, ATTOSECONDS[unit]))
    return out


def bits(values):
    values = np.asarray(values)
    return values.view(f"u{values.dtype.itemsize}")


def compare_leaf(tag, path, exp, got, strict_types, limits=None):
    """Compares one NumPy leaf (shape (n, *dims)) with an Arrow leaf."""
    merged, atype, dims, col = got
    n = exp.shape[0]
    shown = f"{tag} {'.'.join(path)}"
    if not ok(tuple(exp.shape[1:]) == tuple(dims), f"{shown}: item shape {exp.shape[1:]} vs {dims}"):
        return
    flat = exp.reshape(-1)
    kind = flat.dtype.kind
    if merged is not None:
        values = merged
    else:
        values = None
    if kind in "Mm":
        dates = pa.types.is_date32(atype) or pa.types.is_date64(atype)
        is_time = (pa.types.is_timestamp(atype) or dates) if kind == "M" else pa.types.is_duration(atype)
        if not ok(is_time, f"{shown}: {flat.dtype} as {atype}"):
            return
        unit = {"date32[day]": "D", "date64[ms]": "ms"}.get(str(atype)) or atype.unit
        expected = in_unit(flat, unit)
        if values is None:
            integer = pa.int32() if pa.types.is_date32(atype) else pa.int64()
            ints = col.cast(integer).to_pylist()
        else:
            ints = pa.array(values, type=atype).cast(pa.int64()).to_pylist()
        for index, (g, w) in enumerate(zip(ints, expected)):
            if w is not None and not (-(2**63) <= w < 2**63) and limits is not None:
                # The reader holds times in a finer unit than the file (Polars: milliseconds
                # at coarsest), and this one is beyond it.
                limits.append(f"{shown} record {index}: {flat[index]} beyond {atype}")
                continue
            ok(g == w, f"{shown} record {index}: {g} vs {w}")
        return
    pylist = values if values is not None else col.to_pylist()
    ok(all(v is not None for v in pylist), f"{shown}: nulls outside a time field")
    if kind == "b":
        ok(pa.types.is_boolean(atype), f"{shown}: bool as {atype}")
        ok(pylist == flat.tolist(), f"{shown}: {pylist} vs {flat.tolist()}")
    elif kind in "iu":
        if strict_types:
            ok(atype.bit_width == flat.dtype.itemsize * 8 and pa.types.is_signed_integer(atype) == (kind == "i"), f"{shown}: {flat.dtype} as {atype}")
        ok(pylist == flat.tolist(), f"{shown}: {pylist} vs {flat.tolist()}")
    elif kind == "f":
        if strict_types:
            ok(pa.types.is_floating(atype) and atype.bit_width == flat.dtype.itemsize * 8, f"{shown}: {flat.dtype} as {atype}")
        got_values = col.to_numpy(zero_copy_only=False) if values is None else np.array(values)
        # A reader may widen (Polars: float16 to float32 or 64); narrowed back, the value is
        # exact.
        got_bits = bits(np.asarray(got_values).astype(flat.dtype))
        want_bits = bits(flat)
        ok(np.array_equal(got_bits, want_bits), f"{shown}: bits {got_bits.tolist()} vs {want_bits.tolist()}")
    elif kind == "U":
        ok(pa.types.is_string(atype) or pa.types.is_large_string(atype) or str(atype) == "string_view", f"{shown}: {flat.dtype} as {atype}")
        ok(pylist == flat.tolist(), f"{shown}: {pylist} vs {flat.tolist()}")
    elif kind == "S":
        ok(pa.types.is_binary(atype) or pa.types.is_large_binary(atype) or str(atype) == "binary_view", f"{shown}: {flat.dtype} as {atype}")
        ok(pylist == flat.tolist(), f"{shown}: {pylist} vs {flat.tolist()}")
    elif kind == "V":
        if strict_types:
            ok(pa.types.is_fixed_size_binary(atype) and atype.byte_width == flat.dtype.itemsize, f"{shown}: {flat.dtype} as {atype}")
        ok(pylist == [bytes(v) for v in flat], f"{shown}: {pylist} vs {[bytes(v) for v in flat]}")
    else:
        ok(False, f"{shown}: a NumPy kind {kind} this check does not know")


def check_nesting(tag, dt, atype, path=()):
    """Field names and nesting: a NumPy struct is an Arrow struct of the same names, a subarray
    a fixed-size list per dimension, complex a struct of re and im."""
    shown = f"{tag} {'.'.join(path) or 'value'}"
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        for extent in shape:
            if not ok(pa.types.is_fixed_size_list(atype) and atype.list_size == extent, f"{shown}: subarray {shape} as {atype}"):
                return
            atype = atype.value_type
        check_nesting(tag, base, atype, path)
    elif dt.names:
        if not ok(pa.types.is_struct(atype), f"{shown}: struct as {atype}"):
            return
        names = [atype.field(i).name for i in range(atype.num_fields)]
        if ok(names == list(dt.names), f"{shown}: fields {names} vs {list(dt.names)}"):
            for i, name in enumerate(names):
                check_nesting(tag, dt.fields[name][0], atype.field(i).type, path + (name,))
    elif dt.kind == "c":
        ok(pa.types.is_struct(atype) and [atype.field(i).name for i in range(atype.num_fields)] == ["re", "im"], f"{shown}: complex as {atype}")


def compare(tag, values, table, strict_types=True, items=False, limits=None):
    """Compares zarr-python's NumPy reading with an Arrow table (rows in C order)."""
    flat = values.reshape(-1)
    ok(table.num_rows == flat.shape[0], f"{tag}: {table.num_rows} rows vs {flat.shape[0]} elements")
    if table.num_rows != flat.shape[0]:
        return
    if flat.dtype.names:
        names = list(flat.dtype.names)
        ok(table.column_names == names, f"{tag}: columns {table.column_names} vs {names}")
        if strict_types and not items:
            for name in names:
                if name in table.column_names:
                    check_nesting(tag, flat.dtype.fields[name][0], table.schema.field(name).type, (name,))
        expected = dict(numpy_leaves(flat, (), items))
    else:
        ok(table.column_names == ["value"], f"{tag}: columns {table.column_names}")
        expected = {("value",) + p: a for p, a in numpy_leaves(flat, (), items)}
    got = flat_arrow(table, items)
    if not ok(list(expected) == list(got), f"{tag}: leaves {list(got)} vs {list(expected)}"):
        return
    for path, exp in expected.items():
        compare_leaf(tag, path, exp, got[path], strict_types, limits)


def fill_array(fill, dtype):
    """A fill value as a 0-d array; no fill value (Zarr v2 `null`) is NumPy's zeros."""
    if fill is None:
        return np.zeros((), dtype)
    return np.array(fill, dtype=dtype)


def without_padding(values, padding):
    """zarr-python's reading without the fields that are padding in the `.zarray` (NumPy names
    an unnamed descr entry `f<i>`; zarrdt keeps no padding, and packs it away on import)."""
    if not padding or values.dtype.names is None:
        return values
    keep = [n for n in values.dtype.names if n not in padding]
    out = np.empty(values.shape, dtype=[(n, values.dtype.fields[n][0]) for n in keep])
    for n in keep:
        out[n] = values[n]
    return out


def compare_numpy(tag, a, b):
    """Two NumPy readings (or fill values): the same field names, every leaf bit for bit."""
    a = np.asarray(a).reshape(-1)
    b = np.asarray(b).reshape(-1)
    ok(a.dtype.names == b.dtype.names, f"{tag}: fields {b.dtype.names} vs {a.dtype.names}")
    la = dict(numpy_leaves(a, (), True))
    lb = dict(numpy_leaves(b, (), True))
    if not ok(list(la) == list(lb), f"{tag}: leaves {list(lb)} vs {list(la)}"):
        return
    for path, x in la.items():
        y = lb[path]
        # The same values in either byte order (a big-endian Zarr v2 array comes back
        # little-endian, its UTF-32 text too).
        if x.dtype.kind in "fMmiuU":
            x = x.astype(x.dtype.newbyteorder("="))
            y = y.astype(y.dtype.newbyteorder("="))
        if x.dtype.kind in "fMmiub":
            same = x.dtype == y.dtype and np.array_equal(bits(x), bits(y))
        else:
            same = x.dtype == y.dtype and x.tolist() == y.tolist()
        ok(same, f"{tag} {'.'.join(path)}: {y.tolist()} vs {x.tolist()}")


# --------------------------------------------------------------------------
# The three checks
# --------------------------------------------------------------------------

def zarrdt(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True)


def read_file(path, reader):
    if reader == "pyarrow":
        if path.endswith(".parquet"):
            return pq.read_table(path)
        with ipc.open_file(path) as f:
            return f.read_all()
    frame = pl.read_parquet(path) if path.endswith(".parquet") else pl.read_ipc(path)
    return frame.to_arrow()


def check_export(binary, work, python_218, fixture_dirs):
    cases = 0
    for fixtures in fixture_dirs:
        version = os.path.basename(fixtures.rstrip("/"))
        index = json.load(open(os.path.join(fixtures, "index.json")))
        for case in index["cases"]:
            name = f"{version}/{case['name']}"
            array = os.path.join(fixtures, case["name"] + ".zarr")
            # The arrays zarrdt wrote for the interop suite say which zarr-python reads them.
            readers = case.get("readers")
            series = None
            if readers is not None:
                series = "3.4" if "3.4" in readers else "2.18" if "2.18" in readers else None
                if series is None:
                    # Nothing to compare with (a fill value zarr-python cannot read); listed.
                    UNREAD.append(f"{name} (read only by {', '.join(readers)})")
                    continue
            values, fill, reader_version = read_array(array, python_218, series)
            case_json = json.load(open(os.path.join(fixtures, case["name"] + ".json")))
            padding = case_json.get("padding_fields") or []
            values = without_padding(values, padding)
            if fill is not None and padding:
                fill = without_padding(np.array(fill), padding)
            cases += 1
            for fmt in ("parquet", "arrow"):
                out = os.path.join(work, "export", f"{version}__{case['name']}.{fmt}")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                result = zarrdt(binary, "export", array, out)
                selections = [None]
                refused = REFUSED.get((name, fmt))
                if refused is not None:
                    record, message = refused
                    ok(result.returncode == 1 and message in result.stderr and not os.path.exists(out), f"{name} {fmt}: refused with {message!r}: {result.stderr.strip()}")
                    n = values.shape[0]
                    selections = [(0, record), (record + 1, n)]
                elif not ok(result.returncode == 0, f"{name} {fmt}: export failed: {result.stderr.strip()}"):
                    continue
                for selection in selections:
                    part = values
                    path = out
                    if selection is not None:
                        start, stop = selection
                        path = out.replace(f".{fmt}", f"_{start}_{stop}.{fmt}")
                        result = zarrdt(binary, "export", array, path, "--select", f"{start}:{stop}")
                        if not ok(result.returncode == 0, f"{name} {fmt} {start}:{stop}: {result.stderr.strip()}"):
                            continue
                        part = values[start:stop]
                    for reader in ("pyarrow", "polars"):
                        table = read_file(path, reader)
                        compare(
                            f"{name} {fmt} read by {reader} vs zarr-python {reader_version}",
                            part,
                            table,
                            strict_types=(reader == "pyarrow"),
                            limits=POLARS_LIMITS if reader == "polars" else None,
                        )
                    if fmt == "parquet":
                        check_round_trip(binary, work, python_218, name, path, part, fill, reader_version)
    ok(cases >= 130, f"{cases} arrays")
    return cases


def check_round_trip(binary, work, python_218, name, parquet, values, fill, reader_version):
    back = os.path.join(work, "round-trip", os.path.basename(parquet).replace(".parquet", ".zarr"))
    shutil.rmtree(back, ignore_errors=True)
    result = zarrdt(binary, "import", parquet, back, "--chunks", ",".join("2" for _ in values.shape))
    if not ok(result.returncode == 0, f"{name} import: {result.stderr.strip()}"):
        return
    again, again_fill, _ = read_array(back, python_218, reader_version if reader_version == "2.18" else None)
    tag = f"{name} Zarr -> Parquet -> Zarr read by zarr-python {reader_version}"
    ok(again.shape == values.shape, f"{tag}: shape {again.shape} vs {values.shape}")
    compare_numpy(tag, values, again)
    compare_numpy(f"{tag}: fill value", fill_array(fill, values.dtype), fill_array(again_fill, again.dtype))


def source_tables():
    """Tables written by pyarrow: nested, timestamps, strings, fixed-size lists, scalars."""
    n = 6
    point = pa.StructArray.from_arrays(
        [pa.array([0.5, -1.0, 2.5, 0.0, 1e30, -0.0], pa.float32()), pa.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], pa.float32())],
        names=["x", "y"],
    )
    nested = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "point": point,
        "inner": pa.StructArray.from_arrays(
            [pa.StructArray.from_arrays([pa.array([1, 2, 3, 4, 5, 6], pa.uint16())], names=["deep"]), pa.array([True, False] * 3)],
            names=["level", "ok"],
        ),
    })
    times = pa.table({
        "s": pa.array([0, 1, None, -1, 1_700_000_000, 86_400], pa.timestamp("s")),
        "ms": pa.array([0, None, 1, -1000, 1_700_000_000_123, 5], pa.timestamp("ms")),
        "us": pa.array([None, 1, 2, 3, -4, 5], pa.timestamp("us", tz="UTC")),
        "ns": pa.array([1, 2, 3, None, 5, -6], pa.timestamp("ns")),
        "day": pa.array([0, 1, None, 19_000, -1, 3], pa.date32()),
        "took": pa.array([0, None, 1_000_000, -5, 7, 8], pa.duration("us")),
        "secs": pa.array([1, 2, 3, None, 5, 6], pa.duration("s")),
    })
    strings = pa.table({
        "name": pa.array(["", "a", "héllo", "日本語", "🦀x", "tab\tend"]),
        "big": pa.array(["x" * 40, "", "y", "z", "w", "v"], pa.large_string()),
        "blob": pa.array([b"", b"\x00\x01", b"abc", b"\xff" * 7, b"a\x00b", b"q"]),
        "tag": pa.array([b"abcd", b"\x00\x00\x00\x01", b"wxyz", b"1234", b"\xff\xfe\xfd\xfc", b"zzzz"], pa.binary(4)),
    })
    lists = pa.table({
        "pos": pa.array([[float(i), 0.5, -1.0] for i in range(n)], pa.list_(pa.float32(), 3)),
        "grid": pa.array([[[i, 2], [3, 4], [5, -i]] for i in range(n)], pa.list_(pa.list_(pa.int16(), 2), 3)),
        "pair": pa.array([[i, i + 1] for i in range(n)], pa.list_(pa.int32())),
        "pts": pa.array([[{"a": i, "b": 0.5}, {"a": -i, "b": 1.5}] for i in range(n)], pa.list_(pa.struct([("a", pa.int8()), ("b", pa.float64())]), 2)),
    })
    scalars = pa.table({
        "b": pa.array([True, False, True, False, True, True]),
        "i8": pa.array([-128, 127, 0, 1, -1, 5], pa.int8()),
        "i16": pa.array([-32768, 32767, 0, 1, -1, 5], pa.int16()),
        "i32": pa.array([-2**31, 2**31 - 1, 0, 1, -1, 5], pa.int32()),
        "i64": pa.array([-2**63, 2**63 - 1, 0, 1, -1, 5], pa.int64()),
        "u8": pa.array([0, 255, 1, 2, 3, 4], pa.uint8()),
        "u16": pa.array([0, 65535, 1, 2, 3, 4], pa.uint16()),
        "u32": pa.array([0, 2**32 - 1, 1, 2, 3, 4], pa.uint32()),
        "u64": pa.array([0, 2**64 - 1, 1, 2, 3, 4], pa.uint64()),
        "f16": pa.array(np.array([0.5, -0.0, np.inf, np.nan, 65504, 1e-7], np.float16)),
        "f32": pa.array(np.array([0.1, -0.0, -np.inf, np.nan, 3.4e38, 1e-45], np.float32)),
        "f64": pa.array(np.array([0.1, -0.0, np.inf, np.nan, 1.7e308, 5e-324], np.float64)),
    })
    return {"nested": nested, "times": times, "strings": strings, "lists": lists, "scalars": scalars}


def check_import(binary, work, python_218):
    sources = os.path.join(work, "pyarrow-written")
    os.makedirs(sources, exist_ok=True)
    for name, table in source_tables().items():
        files = []
        path = os.path.join(sources, f"{name}.parquet")
        pq.write_table(table, path)
        files.append(path)
        path = os.path.join(sources, f"{name}_zstd.parquet")
        pq.write_table(table, path, compression="zstd", row_group_size=4)
        files.append(path)
        path = os.path.join(sources, f"{name}.arrow")
        with ipc.new_file(path, table.schema) as writer:
            writer.write_table(table, max_chunksize=4)
        files.append(path)
        for path in files:
            out = path + ".zarr"
            shutil.rmtree(out, ignore_errors=True)
            result = zarrdt(binary, "import", path, out, "--chunks", "4")
            tag = f"{os.path.basename(path)} written by pyarrow, imported, read by zarr-python 3.4"
            if not ok(result.returncode == 0, f"{tag}: {result.stderr.strip()}"):
                continue
            values, _, version = read_array(out, python_218)
            ok(version == "3.4", f"{tag}: read by zarr-python {version}")
            # pyarrow reads the Parquet file back as the table it wrote (timestamps of
            # seconds in milliseconds: Parquet has no seconds), which is the source.
            source = pq.read_table(path) if path.endswith(".parquet") else table
            compare(tag, values, source, strict_types=False, items=True)


def main(argv):
    binary, work, python_218, *fixture_dirs = argv
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    print(f"== pyarrow {pa.__version__}, Polars {pl.__version__}, zarr-python {zarr.__version__} (and 2.18 for v2 subarrays), NumPy {np.__version__}", flush=True)
    cases = check_export(binary, work, python_218, fixture_dirs)
    print(f"== {cases} arrays exported to Parquet and Arrow, read by pyarrow and Polars, imported back", flush=True)
    check_import(binary, work, python_218)
    print("== tables written by pyarrow imported and read by zarr-python", flush=True)
    for name in UNREAD:
        print(f"note: not compared, no zarr-python reads it: {name}")
    for limit in POLARS_LIMITS:
        print(f"note: Polars cannot hold {limit}")
    print(f"{PASSED} passed, {len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
