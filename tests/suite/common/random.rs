//! proptest strategies shared by the property tests: floats as random bit patterns (NaN
//! payloads, signalling NaNs, -0.0, infinities, subnormals), random data types of every field
//! kind nested up to four levels, and random values of a given data type.

use half::f16;
use num_complex::Complex;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use zarrdt::types::{DataType, ScalarType, StructType, SubarrayType, TimeConfig, TimeUnit};
use zarrdt::value::{Record, SubarrayValue, Value};

/// The seed every property test starts from, unless `PROPTEST_RNG_SEED` names another.
const SEED: u64 = 0x7a61_7272_6474;

/// The property tests' configuration: 512 cases ([`config_of`]).
pub(crate) fn config() -> ProptestConfig {
    config_of(512)
}

/// A property test's configuration: `cases` cases drawn from a fixed seed, so that every run
/// of the test command checks the same inputs (`PROPTEST_RNG_SEED=N` explores others, and a
/// failure's message shows the case), and no regression files written into the source tree.
pub(crate) fn config_of(cases: u32) -> ProptestConfig {
    // The default reads the `PROPTEST_*` variables.
    let base = ProptestConfig::default();
    let rng_seed = match base.rng_seed {
        RngSeed::Random => RngSeed::Fixed(SEED),
        chosen => chosen,
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed,
        ..base
    }
}

// ---------------------------------------------------------------------------------------------
// Floats
// ---------------------------------------------------------------------------------------------

/// f32 bits: uniformly random, the special values, or a NaN with random sign and payload.
pub(crate) fn f32_any() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![
            0x8000_0000u32, 0, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7fc0_0001, 0x0000_0001,
            0x7f7f_ffff, 0xff7f_ffff,
        ]),
        1 => any::<u32>().prop_map(|bits| 0x7f80_0000 | (bits & 0x807f_ffff) | 1),
    ]
    .prop_map(f32::from_bits)
}

/// f64 bits, as [`f32_any`].
pub(crate) fn f64_any() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        3 => any::<u64>(),
        1 => prop::sample::select(vec![
            0x8000_0000_0000_0000u64,
            0,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0xfff8_0000_0000_0000,
            0x7ff8_0000_0000_0001,
            0x0000_0000_0000_0001,
            0x7fef_ffff_ffff_ffff,
        ]),
        1 => any::<u64>().prop_map(|bits| 0x7ff0_0000_0000_0000 | (bits & 0x800f_ffff_ffff_ffff) | 1),
    ]
    .prop_map(f64::from_bits)
}

/// f16 bits, as [`f32_any`].
pub(crate) fn f16_any() -> impl Strategy<Value = f16> + Clone {
    prop_oneof![
        3 => any::<u16>(),
        1 => prop::sample::select(vec![0x8000u16, 0, 0x7c00, 0xfc00, 0x7e00, 0x7e01, 0x0001, 0x7bff]),
        1 => any::<u16>().prop_map(|bits| 0x7c00 | (bits & 0x83ff) | 1),
    ]
    .prop_map(f16::from_bits)
}

pub(crate) fn c64_any() -> impl Strategy<Value = Complex<f32>> + Clone {
    (f32_any(), f32_any()).prop_map(|(re, im)| Complex::new(re, im))
}

pub(crate) fn c128_any() -> impl Strategy<Value = Complex<f64>> + Clone {
    (f64_any(), f64_any()).prop_map(|(re, im)| Complex::new(re, im))
}

// ---------------------------------------------------------------------------------------------
// Data types
// ---------------------------------------------------------------------------------------------

const UNITS: [TimeUnit; 14] = [
    TimeUnit::Year,
    TimeUnit::Month,
    TimeUnit::Week,
    TimeUnit::Day,
    TimeUnit::Hour,
    TimeUnit::Minute,
    TimeUnit::Second,
    TimeUnit::Millisecond,
    TimeUnit::Microsecond,
    TimeUnit::Nanosecond,
    TimeUnit::Picosecond,
    TimeUnit::Femtosecond,
    TimeUnit::Attosecond,
    TimeUnit::Generic,
];

fn time_config() -> impl Strategy<Value = TimeConfig> {
    (
        prop::sample::select(&UNITS[..]),
        prop_oneof![
            3 => Just(1u32),
            1 => 1u32..=1000,
            1 => Just(TimeConfig::MAX_SCALE_FACTOR),
        ],
    )
        .prop_map(|(unit, scale)| TimeConfig::new(unit, scale).unwrap())
}

/// Every scalar type: the core types (float16 and complex included), `r<N>`, and the extension
/// types `numpy.datetime64`, `numpy.timedelta64`, `fixed_length_utf32`, `raw_bytes` and
/// `null_terminated_bytes`, with small sizes.
pub(crate) fn scalar_type() -> impl Strategy<Value = ScalarType> {
    prop_oneof![
        prop::sample::select(vec![
            ScalarType::Bool,
            ScalarType::Int8,
            ScalarType::Int16,
            ScalarType::Int32,
            ScalarType::Int64,
            ScalarType::UInt8,
            ScalarType::UInt16,
            ScalarType::UInt32,
            ScalarType::UInt64,
            ScalarType::Float16,
            ScalarType::Float32,
            ScalarType::Float64,
            ScalarType::Complex64,
            ScalarType::Complex128,
        ]),
        (1usize..=9).prop_map(|bytes| ScalarType::raw_bits(8 * bytes).unwrap()),
        time_config().prop_map(ScalarType::DateTime64),
        time_config().prop_map(ScalarType::TimeDelta64),
        (1usize..=4).prop_map(|chars| ScalarType::fixed_length_utf32(chars).unwrap()),
        (1usize..=6).prop_map(|size| ScalarType::raw_bytes(size).unwrap()),
        (1usize..=6).prop_map(|size| ScalarType::null_terminated_bytes(size).unwrap()),
    ]
}

/// A field name: plain, or with dots, spaces, quotes, digits only or non-ASCII letters.
fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_]{0,6}",
        1 => "[a-zA-Z0-9 ._\"\\\\/éß𝄞-]{1,5}",
        1 => (0u8..4).prop_map(|i| i.to_string()),
    ]
}

/// Random data types: scalars, structs (1 to 4 uniquely named fields) and arrays (1 or 2
/// dimensions of 1 to 3), nested up to 4 levels.
pub(crate) fn data_type() -> impl Strategy<Value = DataType> {
    let leaf = scalar_type().prop_map(DataType::from);
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            3 => prop::collection::vec((field_name(), inner.clone()), 1..=4).prop_map(|fields| {
                // Unique names: a repeated name gets its position appended.
                let mut seen = std::collections::HashSet::new();
                let fields: Vec<(String, DataType)> = fields
                    .into_iter()
                    .enumerate()
                    .map(|(i, (name, data_type))| {
                        let name = if seen.contains(&name) { format!("{name}~{i}") } else { name };
                        seen.insert(name.clone());
                        (name, data_type)
                    })
                    .collect();
                DataType::from(StructType::new(fields).unwrap())
            }),
            1 => (inner, prop::collection::vec(1usize..=3, 1..=2))
                .prop_map(|(element, shape)| DataType::from(SubarrayType::new(element, shape).unwrap())),
        ]
    })
}

/// The nesting depth of a data type (1 for a scalar).
pub(crate) fn depth(data_type: &DataType) -> usize {
    match data_type {
        DataType::Struct(structure) => {
            1 + structure
                .fields()
                .iter()
                .map(|field| depth(&field.data_type()))
                .max()
                .unwrap_or(0)
        }
        DataType::Subarray(array) => 1 + depth(&array.element()),
        _ => 1,
    }
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// Integers: uniformly random, or an extreme.
fn int<T: Arbitrary + Copy + std::fmt::Debug + 'static>(
    extremes: Vec<T>,
) -> impl Strategy<Value = T> {
    prop_oneof![3 => any::<T>(), 1 => prop::sample::select(extremes)]
}

/// A string of at most `chars` characters (any Unicode scalar values, NUL inside included)
/// that does not end in NUL, which is padding.
fn text(chars: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=chars)
        .prop_map(|chars| chars.into_iter().collect::<String>())
        .prop_map(|text| text.trim_end_matches('\0').to_owned())
}

fn scalar_value(scalar: ScalarType) -> BoxedStrategy<Value> {
    match scalar {
        ScalarType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        ScalarType::Int8 => int(vec![i8::MIN, i8::MAX, 0, -1])
            .prop_map(Value::Int8)
            .boxed(),
        ScalarType::Int16 => int(vec![i16::MIN, i16::MAX, 0, -1])
            .prop_map(Value::Int16)
            .boxed(),
        ScalarType::Int32 => int(vec![i32::MIN, i32::MAX, 0, -1])
            .prop_map(Value::Int32)
            .boxed(),
        ScalarType::Int64 => int(vec![i64::MIN, i64::MAX, 0, -1])
            .prop_map(Value::Int64)
            .boxed(),
        ScalarType::UInt8 => int(vec![u8::MAX, 0]).prop_map(Value::UInt8).boxed(),
        ScalarType::UInt16 => int(vec![u16::MAX, 0]).prop_map(Value::UInt16).boxed(),
        ScalarType::UInt32 => int(vec![u32::MAX, 0]).prop_map(Value::UInt32).boxed(),
        ScalarType::UInt64 => int(vec![u64::MAX, 0]).prop_map(Value::UInt64).boxed(),
        ScalarType::Float16 => f16_any().prop_map(Value::Float16).boxed(),
        ScalarType::Float32 => f32_any().prop_map(Value::Float32).boxed(),
        ScalarType::Float64 => f64_any().prop_map(Value::Float64).boxed(),
        ScalarType::Complex64 => c64_any().prop_map(Value::Complex64).boxed(),
        ScalarType::Complex128 => c128_any().prop_map(Value::Complex128).boxed(),
        ScalarType::DateTime64(_) => int(vec![i64::MIN, i64::MAX, 0, -1])
            .prop_map(Value::DateTime64)
            .boxed(),
        ScalarType::TimeDelta64(_) => int(vec![i64::MIN, i64::MAX, 0, -1])
            .prop_map(Value::TimeDelta64)
            .boxed(),
        ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
            prop::collection::vec(any::<u8>(), size.get())
                .prop_map(Value::Bytes)
                .boxed()
        }
        ScalarType::NullTerminatedBytes { size } => {
            // Trailing zeros are padding.
            prop::collection::vec(any::<u8>(), 0..=size.get())
                .prop_map(|mut bytes| {
                    while bytes.last() == Some(&0) {
                        bytes.pop();
                    }
                    Value::Bytes(bytes)
                })
                .boxed()
        }
        ScalarType::FixedLengthUtf32 { chars } => text(chars.get()).prop_map(Value::String).boxed(),
        other => panic!("no value strategy for {other:?}"),
    }
}

/// Random values of `data_type`.
pub(crate) fn value_of(data_type: &DataType) -> BoxedStrategy<Value> {
    match data_type {
        DataType::Struct(structure) => {
            let names: Vec<String> = structure
                .fields()
                .iter()
                .map(|f| f.name().to_owned())
                .collect();
            let fields: Vec<BoxedStrategy<Value>> = structure
                .fields()
                .iter()
                .map(|field| value_of(&field.data_type()))
                .collect();
            fields
                .prop_map(move |values| {
                    let record: Record = names.iter().map(String::as_str).zip(values).collect();
                    Value::Record(record)
                })
                .boxed()
        }
        DataType::Subarray(array) => {
            let shape = array.shape().to_vec();
            let items = vec![value_of(&array.element()); array.len()];
            items
                .prop_map(move |items| {
                    Value::Subarray(SubarrayValue::new(shape.clone(), items).unwrap())
                })
                .boxed()
        }
        DataType::Scalar(scalar) => scalar_value(*scalar),
        other => panic!("no value strategy for {other:?}"),
    }
}

/// A random data type and 0 to 5 random values of it.
pub(crate) fn typed_values() -> impl Strategy<Value = (DataType, Vec<Value>)> {
    data_type().prop_flat_map(|data_type| {
        let values = prop::collection::vec(value_of(&data_type), 0..=5);
        (Just(data_type), values)
    })
}
