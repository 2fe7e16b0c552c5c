//! Helpers shared by the integration tests: record types several files use, table-driven
//! checks, the fixtures' typed JSON of values, and the regular chunk grid.

#![allow(dead_code, unused_imports, clippy::unwrap_used)]

pub(crate) mod clock;
pub(crate) mod meter;
pub(crate) mod random;
pub(crate) mod records;
pub(crate) mod rows;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value as Json, json};
use zarrdt::layout::Layout;
use zarrdt::types::ScalarType;
use zarrdt::value::Value;
use zarrdt::zarrs::filesystem::FilesystemStore;

/// A fresh, empty directory `name` for one test of the test module `module`.
pub(crate) fn scratch_dir(module: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(module)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// zarrs' filesystem store of the directory `dir`.
pub(crate) fn store(dir: &Path) -> Arc<FilesystemStore> {
    Arc::new(FilesystemStore::new(dir).unwrap())
}

/// All chunk positions of the regular grid, in C order.
pub(crate) fn grid_positions(shape: &[u64], chunks: &[u64]) -> Vec<Vec<u64>> {
    assert_eq!(shape.len(), chunks.len(), "chunk rank");
    assert!(chunks.iter().all(|&c| c > 0), "zero chunk extent");
    let grid: Vec<u64> = shape
        .iter()
        .zip(chunks)
        .map(|(s, c)| s.div_ceil(*c))
        .collect();
    let mut positions = vec![vec![]];
    for &extent in &grid {
        positions = positions
            .into_iter()
            .flat_map(|prefix| {
                (0..extent).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    positions
}

/// For each element of the (full-size) chunk at `position`, in C order, its flat C-order
/// index in the array, or `None` if it lies beyond the array's edge.
pub(crate) fn chunk_targets(shape: &[u64], chunks: &[u64], position: &[u64]) -> Vec<Option<usize>> {
    let count: u64 = chunks.iter().product();
    (0..count)
        .map(|mut local| {
            let mut within = vec![0; chunks.len()];
            for dim in (0..chunks.len()).rev() {
                within[dim] = local % chunks[dim];
                local /= chunks[dim];
            }
            let mut flat = 0u64;
            for dim in 0..shape.len() {
                let global = position[dim] * chunks[dim] + within[dim];
                if global >= shape[dim] {
                    return None;
                }
                flat = flat * shape[dim] + global;
            }
            Some(usize::try_from(flat).unwrap())
        })
        .collect()
}

/// `value` in the fixtures' typed JSON: floats as "0x" bit strings, complex as [re, im],
/// bytes as hex, records as objects, subarrays as nested lists. The layout says what the
/// value must be; a value of another kind is a failure.
pub(crate) fn typed(value: &Value, layout: &Layout) -> Json {
    match layout {
        Layout::Scalar(scalar) => typed_scalar(scalar.scalar(), value),
        Layout::Struct(structure) => {
            let record = value
                .as_record()
                .unwrap_or_else(|| panic!("a {} value for a struct", value.kind()));
            let names: Vec<&str> = record.fields().iter().map(|(n, _)| &**n).collect();
            let fields: Vec<&str> = structure.fields().iter().map(|f| f.name()).collect();
            assert_eq!(names, fields, "record fields");
            let members = structure
                .fields()
                .iter()
                .zip(record.fields())
                .map(|(field, (name, member))| (name.to_string(), typed(member, field.layout())));
            Json::Object(members.collect())
        }
        Layout::Subarray(array) => typed_subarray(value, array.element(), array.shape()),
        other => panic!("unknown layout {other:?}"),
    }
}

pub(crate) fn typed_subarray(value: &Value, element: &Layout, shape: &[usize]) -> Json {
    let Value::Subarray(array) = value else {
        panic!("a {} value for a subarray", value.kind());
    };
    assert_eq!(array.shape(), shape, "subarray shape");
    let items: Vec<Value> = array.iter().map(|item| item.into_owned()).collect();
    nest(&mut items.iter(), element, shape)
}

/// The next `shape` items of `items`, typed and nested one JSON list per dimension.
fn nest<'a>(
    items: &mut impl Iterator<Item = &'a Value>,
    element: &Layout,
    shape: &[usize],
) -> Json {
    match shape.split_first() {
        None => typed(items.next().expect("enough items"), element),
        Some((&extent, inner)) => {
            Json::Array((0..extent).map(|_| nest(items, element, inner)).collect())
        }
    }
}

pub(crate) fn typed_scalar(scalar: ScalarType, value: &Value) -> Json {
    match (scalar, value) {
        (ScalarType::Bool, Value::Bool(v)) => json!(v),
        (ScalarType::Int8, Value::Int8(v)) => json!(v),
        (ScalarType::Int16, Value::Int16(v)) => json!(v),
        (ScalarType::Int32, Value::Int32(v)) => json!(v),
        (ScalarType::Int64, Value::Int64(v)) => json!(v),
        (ScalarType::UInt8, Value::UInt8(v)) => json!(v),
        (ScalarType::UInt16, Value::UInt16(v)) => json!(v),
        (ScalarType::UInt32, Value::UInt32(v)) => json!(v),
        (ScalarType::UInt64, Value::UInt64(v)) => json!(v),
        (ScalarType::Float16, Value::Float16(v)) => float_hex(v.to_bits().into(), 2),
        (ScalarType::Float32, Value::Float32(v)) => float_hex(v.to_bits().into(), 4),
        (ScalarType::Float64, Value::Float64(v)) => float_hex(v.to_bits(), 8),
        (ScalarType::Complex64, Value::Complex64(c)) => json!([
            float_hex(c.re.to_bits().into(), 4),
            float_hex(c.im.to_bits().into(), 4)
        ]),
        (ScalarType::Complex128, Value::Complex128(c)) => {
            json!([float_hex(c.re.to_bits(), 8), float_hex(c.im.to_bits(), 8)])
        }
        (ScalarType::DateTime64(_), Value::DateTime64(v))
        | (ScalarType::TimeDelta64(_), Value::TimeDelta64(v)) => json!(v),
        (ScalarType::FixedLengthUtf32 { .. }, Value::String(s)) => json!(s),
        (ScalarType::Raw { .. } | ScalarType::RawBytes { .. }, Value::Bytes(bytes)) => {
            assert_eq!(bytes.len(), scalar.size(), "{scalar} value length");
            json!(hex_encode(bytes))
        }
        // A null-terminated bytes value is its bytes without the trailing zeros; the fixtures
        // record all of them.
        (ScalarType::NullTerminatedBytes { .. }, Value::Bytes(bytes)) => {
            assert!(bytes.len() <= scalar.size(), "{scalar} value length");
            assert_ne!(
                bytes.last(),
                Some(&0),
                "{scalar} value keeps trailing zeros"
            );
            let mut padded = bytes.clone();
            padded.resize(scalar.size(), 0);
            json!(hex_encode(&padded))
        }
        (scalar, value) => panic!("a {} value for a {scalar} leaf", value.kind()),
    }
}

pub(crate) fn float_hex(bits: u64, bytes: usize) -> Json {
    json!(format!("0x{bits:0width$x}", width = 2 * bytes))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex_encode(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// The bytes of a hex string.
pub(crate) fn hex_decode(text: &str) -> Vec<u8> {
    hex::decode(text).unwrap()
}

/// Rust elements of a chunk stored in `layout` (any byte order per field, as Zarr v2 allows):
/// the layout checked to be `T`'s, the bytes brought to the machine's order, then decoded.
pub(crate) fn decode_stored<T: zarrdt::ZarrType>(
    layout: &Layout,
    bytes: &[u8],
) -> Result<Vec<T>, zarrdt::Error> {
    T::layout(zarrdt::Endian::NATIVE).check_matches(layout)?;
    let mut native = bytes.to_vec();
    layout.convert_byte_order(&mut native, zarrdt::Endian::NATIVE)?;
    T::decode_slice(&native, zarrdt::Endian::NATIVE)
}
