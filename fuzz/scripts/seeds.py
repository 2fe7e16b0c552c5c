#!/usr/bin/env python3
"""Seed inputs for every fuzz target from the zarr-python fixtures (tests/fixtures/zarr-python-*).

Usage: python3 fuzz/scripts/seeds.py OUT_DIR [ARRAYS_DIR...]   (writes OUT_DIR/<target>/<name>)

ARRAYS_DIR: more arrays (`*.zarr` directories), such as the compressed and sharded ones
compressed_seeds.py writes.

The committed corpora (fuzz/corpus/<target>) are these seeds and what the fuzzer found, minimized
with `cargo fuzz cmin`.
"""

import glob
import hashlib
import json
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def write(out, target, data):
    if isinstance(data, str):
        data = data.encode()
    directory = os.path.join(out, target)
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def arrays(extra):
    """(metadata file name, metadata bytes, {relative path: bytes}) of every fixture array."""
    roots = [os.path.join(FIXTURES, "zarr-python-*")] + extra
    metas = []
    for root in roots:
        for name in ("zarr.json", ".zarray"):
            metas += glob.glob(os.path.join(root, "*.zarr", name))
    for meta_path in sorted(metas):
        directory = os.path.dirname(meta_path)
        files = {}
        for root, _, names in os.walk(directory):
            for name in names:
                path = os.path.join(root, name)
                rel = os.path.relpath(path, directory)
                if rel in ("zarr.json", ".zarray"):
                    continue
                with open(path, "rb") as f:
                    files[rel] = f.read()
        with open(meta_path, "rb") as f:
            yield os.path.basename(meta_path), f.read(), files


def chunk_files(files):
    return {k: v for k, v in files.items() if not os.path.basename(k).startswith(".")}


def cli_input(meta, files):
    """cli_dump's input: METADATA NUL then (NAME NUL u16-LE LENGTH BYTES) per file."""
    out = bytearray(meta)
    out.append(0)
    for name, data in sorted(files.items()):
        data = data[:0xFFFF]
        out += name.encode() + b"\0" + struct.pack("<H", len(data)) + data
    return bytes(out)


def main(out, extra):
    for kind, meta_bytes, files in arrays(extra):
        meta = json.loads(meta_bytes)
        write(out, "metadata", meta_bytes)
        chunks = chunk_files(files)
        first_chunk = next(iter(sorted(chunks.items())), (None, b""))[1]
        if kind == "zarr.json":
            type_json = meta["data_type"]
            write(out, "data_type_v3", json.dumps(type_json))
        else:
            type_json = meta["dtype"]
            write(out, "descr_v2", json.dumps(type_json))
        write(out, "fill_value", json.dumps([type_json, meta["fill_value"]]))
        write(out, "decode_dynamic", json.dumps(type_json).encode() + b"\0" + first_chunk)
        write(out, "decode_static", first_chunk)
        write(out, "cli_dump", cli_input(meta_bytes, chunks))
    # Whole records of each derived struct of decode_static: zeros, and ones where bools allow.
    for size in (11, 96, 7, 42, 24):
        write(out, "decode_static", bytes(size * 2))
        write(out, "decode_static", bytes((i * 7) & 1 for i in range(size * 3)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
