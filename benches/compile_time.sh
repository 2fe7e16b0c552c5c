#!/usr/bin/env bash
# Compile time and rustc peak memory of #[derive(ZarrStruct)] against the number of fields.
#
#   bash benches/compile_time.sh [FIELD COUNTS...]     (default: 100 400 1000)
#
# For each count, generates a crate with one struct of that many `u32` fields (and an
# encode/decode of it, so the generated code is compiled, not only checked), builds its
# dependencies once, then times rustc on that crate alone (`/usr/bin/time -v`: wall time and
# maximum resident set size). Linear growth is the goal: the offsets come from one table
# computed by constant evaluation, not repeated sums.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/target/compile-time"
counts=("${@:-100 400 1000}")
read -r -a counts <<<"${counts[*]}"
mkdir -p "$work"
printf '%8s %12s %16s\n' fields "wall (s)" "rustc max RSS"
for n in "${counts[@]}"; do
  crate="$work/fields-$n"
  mkdir -p "$crate/src"
  cat >"$crate/Cargo.toml" <<TOML
[package]
name = "fields-$n"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
zarrdt = { path = "$root", default-features = false, features = ["derive"] }

[workspace]
TOML
  {
    echo "use zarrdt::{ZarrType, Endian, ZarrStruct};"
    echo "#[derive(ZarrStruct, Clone, Copy, Default)]"
    echo "pub struct Wide {"
    for ((i = 0; i < n; i++)); do echo "    pub f$i: u32,"; done
    echo "}"
    echo "fn main() {"
    echo "    let bytes = Wide::default().encode(Endian::Big);"
    echo "    let back = Wide::decode(&bytes, Endian::Big).unwrap();"
    echo "    assert_eq!(Wide::SIZE, 4 * $n);"
    echo "    let _ = (back, <Wide as ZarrStruct>::OFFSETS);"
    echo "}"
  } >"$crate/src/main.rs"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" cargo build --quiet 2>/dev/null || true)
  touch "$crate/src/main.rs"
  log="$crate/time.log"
  (cd "$crate" && CARGO_TARGET_DIR="$work/target" /usr/bin/time -v cargo build --quiet 2>"$log")
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
  printf '%8s %12s %13s MB\n' "$n" "$wall" "$((rss / 1024))"
done
