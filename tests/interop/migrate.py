#!/usr/bin/env python3
"""A Zarr v2 fixture made a Zarr v3 array by zarr-python 3's own migration (`zarr migrate v3`).

    python migrate.py V2_ARRAY OUT

Copies the array V2_ARRAY (a fixture zarr-python 2.18 wrote) to OUT, writes its `zarr.json`
with `zarr.metadata.migrate_v3.migrate_v2_to_v3` (the chunks stay as they are: the v2 chunk key
encoding is kept) and removes its v2 metadata, as `zarr migrate v3 --remove-v2-metadata` does.
Runs under zarr-python 3.4.x (generate.sh calls it with the pinned venv).
"""

import shutil
import sys

import zarr
from zarr.core.sync import sync
from zarr.metadata import migrate_v3
from zarr.storage import LocalStore


def main():
    source, out = sys.argv[1], sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(source, out)
    store = LocalStore(out)
    migrate_v3.migrate_v2_to_v3(input_store=store)
    sync(migrate_v3.remove_metadata(store, zarr_format=2))
    print(f"  {out}: migrated by zarr-python {zarr.__version__}")


if __name__ == "__main__":
    main()
