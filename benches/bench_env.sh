# What the end-to-end benchmarks share. Sourced with `root` set to the repository; sets `py`, the
# benchmarks' Python (a venv of pinned zarr-python 3.4.2 and tensorstore 0.1.86, made if it is
# not there yet; Python 3.12, found as tests/interop/venvs.sh finds it), and `arrays`, where the
# arrays are written: tmpfs (/dev/shm) where there is one, so that every tool is timed on the
# same memory-backed file system, not on the disk's write-back (ZARRDT_E2E_DIR to change it).
# shellcheck source=tests/interop/venvs.sh
source "$root/tests/interop/venvs.sh"   # find_python, ZARRDT_VENV_DIR
bench_pins="zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0
msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0 tensorstore==0.1.86
ml_dtypes==0.6.0"
ensure_pinned_venv bench "$bench_pins"
py="$(pinned_venv_dir bench "$bench_pins")/bin/python"
arrays="${ZARRDT_E2E_DIR:-$([[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm/zarrdt-e2e || echo "$root/target/e2e/arrays")}"
