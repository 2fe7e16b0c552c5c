#!/usr/bin/env bash
# Record arrays on S3 against a real S3-compatible server (issue 13), run by .ci/run:
#  1. starts a moto S3 server on a free port of 127.0.0.1 (stopped at the end) and a bucket;
#  2. zarr-python 3.4 (s3fs) writes record arrays to the bucket; the Rust side reads every
#     value (tests/suite/s3_interop.rs) and writes its own; examples/s3.rs writes a million records;
#  3. zarr-python reads every value the Rust side wrote, Dask and tensorstore (flat records of
#     core types, the only struct arrays it opens) too (tests/s3/zarr_side.py check);
#  4. the CLI reads with the keys in a profile of the AWS CLI's files alone, and names a profile
#     it cannot use; it exports from the bucket and imports into it (not over an array);
#  5. faults: the server is stopped (SIGSTOP) in the middle of a write: the write must fail
#     within a bounded time with an error naming the chunk, and, the server resumed, a rerun
#     must complete the array, which zarr-python then reads in full.
# Anything that cannot run (venv, server, bucket) fails the script with a message.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
# shellcheck source=tests/interop/venvs.sh
source "$root/tests/interop/venvs.sh"   # find_python

# Every package pinned (the venv's full `pip freeze`): zarr-python, Dask and tensorstore as
# readers; moto's S3 server needs only Flask and flask-cors on top of moto[s3]; aiobotocore
# caps botocore, hence boto3 1.43.
S3_PINS="tensorstore==0.1.86 ml_dtypes==0.6.0 dask==2026.8.0 cloudpickle==3.1.2 locket==1.0.0
partd==1.4.2 toolz==1.2.0 zarr==3.4.2 numpy==2.5.5 numcodecs==0.17.1 donfig==0.8.1.post1 google-crc32c==1.9.0
msgspec==0.22.0 packaging==26.3 PyYAML==6.0.3 typing_extensions==4.16.0 moto==5.2.5
Flask==3.1.3 flask-cors==6.0.5 s3fs==2026.9.0 fsspec==2026.9.0 aiobotocore==3.10.0
boto3==1.43.117 botocore==1.43.117 s3transfer==0.19.3 aiohappyeyeballs==2.7.1 aiohttp==3.14.5
aioitertools==0.13.0 aiosignal==1.4.0 attrs==26.1.0 blinker==1.9.0 certifi==2026.10.18
cffi==2.1.1 charset-normalizer==3.5.2 click==8.5.1 cryptography==50.0.2 frozenlist==1.8.0
idna==3.20 itsdangerous==2.2.0 Jinja2==3.1.6 jmespath==1.1.0 MarkupSafe==3.0.4
multidict==7.2.1 propcache==0.5.4 py-partiql-parser==0.6.3 pycparser==3.12
python-dateutil==2.9.0.post0 requests==2.34.2 responses==0.26.3 six==1.17.0 urllib3==2.8.0
Werkzeug==3.1.9 wrapt==2.5.2 xmltodict==1.0.4 yarl==1.25.1"

echo "== the pinned zarr-python 3.4.2, s3fs, Dask, tensorstore and moto"
ensure_pinned_venv s3 "$S3_PINS"
venv="$(pinned_venv_dir s3 "$S3_PINS")"
py="$venv/bin/python"

work="$(mktemp -d)"
moto_pid=""
writer_pid=""
cleanup() {
  if [[ -n "$writer_pid" ]]; then kill "$writer_pid" 2>/dev/null || true; fi
  if [[ -n "$moto_pid" ]]; then
    kill -CONT "$moto_pid" 2>/dev/null || true
    kill "$moto_pid" 2>/dev/null || true
    wait "$moto_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting the S3 server (moto) on 127.0.0.1"
port="$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ALLOW_HTTP=true
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
unset AWS_SESSION_TOKEN AWS_PROFILE
# No profile files: the credentials above are the only ones anyone uses.
: >"$work/aws-config"
export AWS_CONFIG_FILE="$work/aws-config" AWS_SHARED_CREDENTIALS_FILE="$work/aws-config"
ready=""
for _ in $(seq 1 200); do   # up to 20 s
  if ! kill -0 "$moto_pid" 2>/dev/null; then
    echo "error: the S3 server (moto_server) exited at start:" >&2; cat "$work/moto.log" >&2; exit 1
  fi
  if "$py" -c "import urllib.request as u; u.urlopen('$AWS_ENDPOINT_URL/moto-api/', timeout=1)" 2>/dev/null; then
    ready=1; break
  fi
  sleep 0.1
done
if [[ -z "$ready" ]]; then
  echo "error: the S3 server did not answer on $AWS_ENDPOINT_URL within 20 s:" >&2
  cat "$work/moto.log" >&2; exit 1
fi
bucket=zarrdt-check
"$py" -c "import urllib.request as u; u.urlopen(u.Request('$AWS_ENDPOINT_URL/$bucket', method='PUT'), timeout=10)"
echo "   server on $AWS_ENDPOINT_URL, bucket $bucket"

echo "== zarr-python writes record arrays; the Rust side reads them and writes its own"
"$py" "$here/zarr_side.py" write "$bucket"
ZARRDT_S3_BUCKET="$bucket" cargo test --quiet --workspace --all-features --tests -- --ignored s3_interop::
# shellcheck source=tests/test_build.sh
source "$root/tests/test_build.sh"
example="$(test_build_executable example s3)"
"$example" "s3://$bucket/readings.zarr" | tr '\r' '\n' | grep -v '^  uploaded'

echo "== zarr-python, Dask and tensorstore read every value the Rust side wrote"
"$py" "$here/zarr_side.py" check "$bucket"
"$py" "$here/zarr_side.py" readings "$bucket" readings.zarr

echo "== credentials from a profile of the AWS CLI's files alone"
zarrdt_bin="$(test_build_executable bin zarrdt)"
profile_files="$work/profile"
mkdir -p "$profile_files"
printf '[ci]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
  "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" >"$profile_files/credentials"
printf '[profile ci]\nregion = %s\n[profile sso]\nsso_session = corp\n' "$AWS_REGION" \
  >"$profile_files/config"
profile_env=(env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_REGION -u AWS_DEFAULT_REGION
  AWS_SHARED_CREDENTIALS_FILE="$profile_files/credentials" AWS_CONFIG_FILE="$profile_files/config")
dumped="$("${profile_env[@]}" AWS_PROFILE=ci "$zarrdt_bin" dump "s3://$bucket/readings.zarr" --limit 2)"
if ! grep -q '"values"' <<<"$dumped"; then
  echo "error: zarrdt dump with the profile's keys gave no values:" >&2; echo "$dumped" >&2; exit 1
fi
for profile in sso missing; do
  status=0
  message="$("${profile_env[@]}" AWS_PROFILE=$profile "$zarrdt_bin" inspect \
    "s3://$bucket/readings.zarr" 2>&1)" || status=$?
  if ((status != 1)) || ! grep -q "profile \`$profile\`" <<<"$message"; then
    echo "error: the profile $profile: exit $status, not an error naming it: $message" >&2; exit 1
  fi
  echo "   AWS_PROFILE=$profile: $message"
done
echo "   AWS_PROFILE=ci: read readings.zarr with the keys of the profile file"
status=0
message="$("$zarrdt_bin" inspect "s3://zarrdt-no-such-bucket/readings.zarr" 2>&1)" || status=$?
if ((status != 1)) || ! grep -q "or no bucket \`zarrdt-no-such-bucket\`" <<<"$message"; then
  echo "error: a bucket that does not exist: exit $status, not naming it: $message" >&2; exit 1
fi
echo "   a bucket that does not exist: $message"

echo "== the CLI's export from and import to the bucket"
"$zarrdt_bin" export "s3://$bucket/readings.zarr" "$work/readings.parquet" --select 0:1000
"$zarrdt_bin" import "$work/readings.parquet" "s3://$bucket/imported.zarr" --chunks 100 --shards 500
status=0
message="$("$zarrdt_bin" import "$work/readings.parquet" "s3://$bucket/imported.zarr" 2>&1)" || status=$?
if ((status != 1)) || ! grep -q "imported.zarr: already exists (it holds imported.zarr/zarr.json); import creates a new array" <<<"$message"; then
  echo "error: an import onto an array in the bucket: exit $status: $message" >&2; exit 1
fi
echo "   again onto it: $message"
# The bucket's root holds arrays: a new array there would be their parent.
status=0
message="$("$zarrdt_bin" import "$work/readings.parquet" "s3://$bucket/" 2>&1)" || status=$?
if ((status != 1)) || ! grep -q "already exists (it holds .*); import creates a new array" <<<"$message"; then
  echo "error: an import into the bucket's root, above arrays: exit $status: $message" >&2; exit 1
fi
if "$py" -c "import urllib.request as u; u.urlopen('$AWS_ENDPOINT_URL/$bucket/zarr.json', timeout=10)" 2>/dev/null; then
  echo "error: the refused import into the bucket's root wrote zarr.json" >&2; exit 1
fi
echo "   into the bucket's root, above them: $message"
count="$("$zarrdt_bin" dump "s3://$bucket/imported.zarr" --select 998: \
  | "$py" -c 'import json, sys; print(len(json.load(sys.stdin)["values"]))')"
if [[ "$count" != 2 ]]; then
  echo "error: the imported array's records 998..1000 dumped as $count records" >&2; exit 1
fi
echo "   exported 1000 readings, imported them into imported.zarr, dumped its last 2"

echo "== faults: the server stops in the middle of a write"
fault_records=5000000
timeout_s=2
log="$work/fault.log"
ZARRDT_S3_TIMEOUT=$timeout_s ZARRDT_S3_RECORDS=$fault_records \
  "$example" "s3://$bucket/fault.zarr" >"$log" 2>&1 &
writer_pid=$!
for _ in $(seq 1 6000); do   # until the first shard is uploaded (up to 60 s)
  if grep -q "uploaded" "$log" || ! kill -0 "$writer_pid" 2>/dev/null; then break; fi
  sleep 0.01
done
kill -STOP "$moto_pid"
stopped_at=$SECONDS
echo "   server stopped after: $(tr '\r' '\n' <"$log" | grep uploaded | tail -1 | sed 's/^ *//')"
limit=$((stopped_at + 120))
while kill -0 "$writer_pid" 2>/dev/null && ((SECONDS < limit)); do sleep 0.2; done
if kill -0 "$writer_pid" 2>/dev/null; then
  echo "error: the write hung for 120 s after the server stopped" >&2; exit 1
fi
status=0
wait "$writer_pid" || status=$?
writer_pid=""
if ((status == 0)); then
  echo "error: the write finished before the server was stopped; raise fault_records" >&2
  tr '\r' '\n' <"$log" >&2; exit 1
fi
message="$(grep -i "error" "$log" || true)"
if ! grep -Eq "fault\.zarr/c/[0-9]+" <<<"$message"; then
  echo "error: the failed write (exit $status) does not name the chunk:" >&2
  tr '\r' '\n' <"$log" >&2; exit 1
fi
echo "   failed after $((SECONDS - stopped_at)) s (exit $status): $message"
kill -CONT "$moto_pid"
echo "   server resumed; the write again:"
ZARRDT_S3_TIMEOUT=$timeout_s ZARRDT_S3_RECORDS=$fault_records \
  "$example" "s3://$bucket/fault.zarr" | tr '\r' '\n' | grep -v '^  uploaded'
"$py" "$here/zarr_side.py" readings "$bucket" fault.zarr

echo "== S3 checks passed"
