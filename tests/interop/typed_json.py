"""The interop manifests' typed JSON of NumPy values, shared by generate.py (zarr-python) and
tensorstore_check.py (tensorstore): independent of Zarr's own fill-value encoding and of byte
order, and bit-exact.

    bool -> true/false; integers and datetime64/timedelta64 (int64 view) -> int;
    float16/32/64 -> "0x" + zero-padded lowercase hex of the bit pattern;
    complex -> [hex_re, hex_im]; U -> str; S and plain V -> hex of all bytes;
    structured -> {field: value} in field order, padding fields omitted;
    subarrays (and arrays) -> nested lists.
"""

import numpy as np


def _order(dt):
    return "big" if dt.byteorder == ">" else "little"


def _float_hex(b, order):
    n = int.from_bytes(b, order)
    return "0x%0*x" % (2 * len(b), n)


def typed(x, padding=()):
    """Typed JSON of a 0-d (or subarray) ndarray x."""
    dt = x.dtype
    if x.ndim > 0:
        return [typed(x[i, ...], ()) for i in range(x.shape[0])]
    if dt.names is not None:
        out = {}
        for name in dt.names:
            if name in padding:
                continue
            out[name] = typed(np.asarray(x[name]), ())
        return out
    b = x.tobytes()
    k = dt.kind
    if k == "b":
        return bool(b[0])
    if k in "iu":
        return int.from_bytes(b, _order(dt), signed=(k == "i"))
    if k in "Mm":
        return int.from_bytes(b, _order(dt), signed=True)
    if k == "f":
        return _float_hex(b, _order(dt))
    if k == "c":
        h = len(b) // 2
        return [_float_hex(b[:h], _order(dt)), _float_hex(b[h:], _order(dt))]
    if k == "U":
        return str(x[()])
    if k in "SV":
        return b.hex()
    raise TypeError(f"unsupported dtype {dt!r}")


def descr_json(dt):
    """A dtype as the JSON of its NumPy descr (a typestr for a non-structured dtype)."""
    if dt.names is None:
        return dt.str

    def conv(d):
        if isinstance(d, (list, tuple)):
            return [conv(e) for e in d]
        return d

    return conv(dt.descr)
