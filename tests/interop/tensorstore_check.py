#!/usr/bin/env python3
"""tensorstore reads the arrays zarrdt wrote (tests/suite/interop_write.rs).

Usage: python tensorstore_check.py DIR     (DIR: the test's output, with index.json)

tensorstore opens a struct (record) array one field at a time (the spec option "field"):
the `zarr3` driver for Zarr v3 `struct` arrays, the `zarr` driver for Zarr v2 structured
dtypes (a subarray field's shape becomes inner dimensions). For every case whose "readers"
list "tensorstore", every field is opened and read, and must equal the manifest: every
value bit for bit (the typed JSON of typed_json.py), the fill value, the shape, the chunk
(read) and shard (write) shapes. Every other case must fail to open or read differently
(a case read exactly but not listed fails, so that the list is not understated); the
distinct errors are printed at the end, with the cases that hit them.
"""

import importlib.metadata
import json
import os
import re
import sys
import warnings

import numpy as np
import tensorstore as ts

from typed_json import typed

VERSION = importlib.metadata.version("tensorstore")


def fields_of(path, zarr_format):
    """The top-level field names of the array at path ([None] for a non-struct array)."""
    if zarr_format == 3:
        with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
            data_type = json.load(f)["data_type"]
        if isinstance(data_type, dict) and data_type.get("name") == "struct":
            return [field["name"] for field in data_type["configuration"]["fields"]]
        return [None]
    with open(os.path.join(path, ".zarray"), encoding="utf-8") as f:
        dtype = json.load(f)["dtype"]
    return [entry[0] for entry in dtype] if isinstance(dtype, list) else [None]


def open_field(path, zarr_format, field):
    spec = {"driver": "zarr3" if zarr_format == 3 else "zarr",
            "kvstore": {"driver": "file", "path": os.path.abspath(path) + "/"}}
    if field is not None:
        spec["field"] = field
    return ts.open(spec, read=True).result()


def compare_field(exp, field):
    """Opens and reads `field` of the case `exp`; returns the problems and the values read."""
    store = open_field(exp["path"], exp["zarr_format"], field)
    data = store.read().result()
    shape = list(exp["shape"])
    problems = []
    pick = (lambda v: v) if field is None else (lambda v: v[field])
    if list(data.shape[:len(shape)]) != shape:
        return [f"shape {list(data.shape)}, expected {shape} first"], 0
    n = int(np.prod(shape))
    flat = data.reshape((n,) + data.shape[len(shape):])
    want = [pick(v) for v in exp["values"]]
    got = [typed(np.asarray(flat[i])) for i in range(n)]
    bad = [i for i in range(n) if got[i] != want[i]]
    if bad:
        i = bad[0]
        problems.append(f"{len(bad)} values differ, first at {i}: expected {want[i]!r}, "
                        f"got {got[i]!r}")
    fill = store.fill_value
    want_fill = None if exp["fill_value"] is None else pick(exp["fill_value"])
    got_fill = None if fill is None else typed(np.asarray(fill, dtype=data.dtype))
    if got_fill != want_fill:
        problems.append(f"fill value: expected {want_fill!r}, got {got_fill!r}")
    inner = len(data.shape) - len(shape)
    layout = store.chunk_layout
    read_chunk = list(layout.read_chunk.shape[:len(shape)])
    write_chunk = list(layout.write_chunk.shape[:len(shape)])
    if read_chunk != exp["chunks"] or write_chunk != (exp["shards"] or exp["chunks"]):
        problems.append(f"chunks {read_chunk}, shards {write_chunk}: expected "
                        f"{exp['chunks']}, {exp['shards']}")
    if inner and list(layout.read_chunk.shape[len(shape):]) != list(data.shape[len(shape):]):
        problems.append("subarray dimensions are chunked")
    return problems, n


def check(outdir):
    os.chdir(outdir)
    with open("index.json", encoding="utf-8") as f:
        index = json.load(f)
    ok = failed = fields_read = values_read = 0
    refused = {}  # error text -> cases
    misread = []
    for entry in index["cases"]:
        name = entry["name"]
        with open(name + ".json", encoding="utf-8") as f:
            exp = json.load(f)
        fields = fields_of(exp["path"], exp["zarr_format"])
        listed = "tensorstore" in entry["readers"]
        problems = []
        counted = 0
        try:
            for field in fields:
                field_problems, n = compare_field(exp, field)
                problems += [f"field {field!r}: {p}" if field else p for p in field_problems]
                counted += n
                if not listed and field_problems:
                    break
        except Exception as e:  # noqa: BLE001
            text = str(e).split(" [tensorstore_spec=")[0]
            text = text.replace(os.path.abspath(exp["path"]), "<array>")
            # "position N" is the index of the first field refused: one text per kind.
            text = re.sub(r"position \d+", "position N", text)
            if listed:
                problems.append(f"read failed: {text}")
            else:
                refused.setdefault(text, []).append(name)
                print(f"  not-read {name}: refused: {text}")
                continue
        if listed:
            if problems:
                failed += 1
                print(f"  FAIL  {name}")
                for p in problems:
                    print(f"        {p[:400]}")
            else:
                ok += 1
                fields_read += len(fields)
                values_read += counted
                print(f"  ok    {name} ({len(fields)} fields, {counted} values)")
        elif problems:
            misread.append(name)
            print(f"  not-read {name}: reads differently: {problems[0][:300]}")
        else:
            failed += 1
            print(f"  FAIL  {name}: read exactly as written, but tensorstore is not listed "
                  "as a reader (tests/suite/interop_write.rs)")
    if ok == 0:
        failed += 1
        print("  FAIL  no case lists tensorstore as a reader")
    print(f"tensorstore {VERSION} on {outdir}: {ok} ok ({fields_read} fields, {values_read} "
          f"values), {failed} failed; {sum(map(len, refused.values())) + len(misread)} not "
          f"read ({sum(map(len, refused.values()))} refused, {len(misread)} read differently)")
    for text, names in refused.items():
        print(f"  refuses {len(names)}: {', '.join(names)}\n    with: {text}")
    return failed


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        sys.exit(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sys.exit(1 if check(os.path.abspath(argv[0])) else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
