"""zarr-python's side of benches/tiles.sh: reads the tiled array of particles whole, or its `id`s
(zarr-python 3 has no field selection: whole records, then the field), and prints the time of
the read alone and the result's size; checks the ids against the particles written.

    python tiles.py ARRAY whole|field
"""

import sys
import time

import numpy as np
import zarr


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("whole", "field"):
        sys.exit(__doc__)
    path, what = sys.argv[1], sys.argv[2]
    array = zarr.open_array(path, mode="r")
    start = time.perf_counter()
    records = array[...]
    result = records if what == "whole" else np.ascontiguousarray(records["id"])
    seconds = time.perf_counter() - start
    ids = result["id"] if what == "whole" else result
    if not np.array_equal(ids.ravel(), np.arange(ids.size, dtype=ids.dtype)):
        sys.exit("the ids are not the particles written")
    print(f"zarr-python {zarr.__version__}: {ids.size} particles ({what}, {result.nbytes} bytes)"
          f"; the read took {seconds:.3f} s")


if __name__ == "__main__":
    main()
