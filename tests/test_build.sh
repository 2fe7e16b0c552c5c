# The executables of the README's test build, shared by the check scripts `.ci/run` calls.
#
# `cargo test --workspace --all-features` builds the `zarrdt` command and every example with one
# set of features; a script that ran `cargo build -p zarrdt-cli`, `cargo build --example ...` or
# `cargo test --test suite` instead would resolve other features (dev-dependencies count only
# for the packages whose test targets are selected) and compile the library again (tens of
# seconds each on two cores). To run tests, scripts select `--workspace --all-features --tests`
# and a name filter, which reuses the test build. Source this file, then `test_build_executable bin zarrdt` or
# `test_build_executable example crash_writer` prints the path of that executable, building
# whatever is not yet built.

# shellcheck source=tests/interop/venvs.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/interop/venvs.sh"   # find_python

# Prints the executable of the target of kind $1 (`bin` or `example`) named $2, as the test
# build made it; fails if there is none.
test_build_executable() {
  local kind="$1" name="$2" path
  path="$(cargo test --quiet --workspace --all-features --no-run --message-format=json-render-diagnostics \
    | "$(find_python)" -c '
import json, sys
kind, name = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") != "compiler-artifact" or not message.get("executable"):
        continue
    target = message["target"]
    if kind in target["kind"] and target["name"] == name and not message["profile"]["test"]:
        print(message["executable"])
' "$kind" "$name")"
  if [[ -z "$path" || ! -x "$path" ]]; then
    echo "error: the test build has no $kind \`$name\`" >&2
    return 1
  fi
  echo "$path"
}
