//! Fieldless Rust enums stored as integers: their compile-time description
//! ([`EnumDescriptor`]), and the array attribute that names their variants for readers that
//! only see the integers ([`ENUMS_ATTRIBUTE`]).

use std::fmt;

use serde_json::Value as Json;

use crate::{FieldPath, ScalarType};

/// The array attribute under which zarrdt writes the variants of the enum fields of a record
/// type: a JSON object mapping each enum field's path to an object of its variants, name to
/// integer value.
///
/// A path is written as [`FieldPath`] shows it (`status`, `inner.kind`, `["foo.mask"]`), the
/// element itself (an array of enums) as `""`. An array field `[E; N]` has one entry, under the
/// array field's path, for all of its items. For the record
/// `{id: u32, status: Status, inner: {kind: Kind}, flags: [Status; 2]}`:
///
/// ```json
/// "zarrdt:enums": {
///   "status": {"Ok": 0, "Warn": 1, "Fail": 7},
///   "inner.kind": {"Small": -1, "Large": 1},
///   "flags": {"Ok": 0, "Warn": 1, "Fail": 7}
/// }
/// ```
///
/// The stored values stay plain integers; the attribute only lets other readers show names.
pub const ENUMS_ATTRIBUTE: &str = "zarrdt:enums";

/// One variant of a fieldless enum: its name and its integer value (the discriminant, which
/// an `i128` holds for every integer `repr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumVariant {
    name: &'static str,
    value: i128,
}

impl EnumVariant {
    /// The variant `name` with discriminant `value`.
    pub const fn new(name: &'static str, value: i128) -> Self {
        EnumVariant { name, value }
    }

    /// The variant's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The variant's integer value.
    pub const fn value(&self) -> i128 {
        self.value
    }
}

/// A fieldless enum stored as an integer type: its name, the integer type (its `repr`) and
/// its variants. `#[derive(ZarrEnum)]` builds one as a constant; it is checked when it is
/// built, so a bad one is a compile error.
///
/// ```
/// use zarrdt::advanced::{EnumDescriptor, EnumVariant, TypeDescriptor};
/// use zarrdt::types::ScalarType;
///
/// const STATUS: EnumDescriptor = EnumDescriptor::new(
///     "Status",
///     ScalarType::UInt8,
///     &[EnumVariant::new("Ok", 0), EnumVariant::new("Fail", 7)],
/// );
/// const TYPE: TypeDescriptor = TypeDescriptor::enumeration(&STATUS);
/// assert_eq!(TYPE.size(), 1);
/// assert_eq!(STATUS.variant(7).map(|v| v.name()), Some("Fail"));
/// assert_eq!(STATUS.variant(1), None);
/// ```
///
/// Two variants of one value or one name, a value out of the integer type's range, or a type
/// that is not an integer do not compile:
///
/// ```compile_fail
/// use zarrdt::advanced::{EnumDescriptor, EnumVariant};
/// use zarrdt::types::ScalarType;
///
/// const BAD: EnumDescriptor =
///     EnumDescriptor::new("Bad", ScalarType::UInt8, &[EnumVariant::new("Big", 256)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumDescriptor {
    name: &'static str,
    integer: ScalarType,
    variants: &'static [EnumVariant],
}

impl EnumDescriptor {
    /// The enum `name`, stored as `integer`, with `variants`.
    ///
    /// # Panics
    ///
    /// In constant evaluation (a compile error): if `integer` is not one of the eight integer
    /// types, there are no variants, a name is empty, or two variants share a name or a value,
    /// or a value is out of `integer`'s range. The checks take time `O(N log N)`.
    pub const fn new<const N: usize>(
        name: &'static str,
        integer: ScalarType,
        variants: &'static [EnumVariant; N],
    ) -> Self {
        Self::build(name, integer, variants, true)
    }

    /// [`EnumDescriptor::new`], checking the values for duplicates if `check_values` (the
    /// derive does not: rustc refuses an enum whose discriminants repeat, and one error is
    /// enough).
    pub(crate) const fn build<const N: usize>(
        name: &'static str,
        integer: ScalarType,
        variants: &'static [EnumVariant; N],
        check_values: bool,
    ) -> Self {
        let (min, max) = match integer.integer_range() {
            Some(range) => range,
            None => panic!("an enum is stored as an integer type: int8..int64 or uint8..uint64"),
        };
        assert!(N > 0, "an enum needs at least one variant to store");
        let mut names = [(0u64, 0usize); N];
        let mut values = [(0u64, 0usize); N];
        let mut index = 0;
        while index < N {
            let variant = &variants[index];
            assert!(
                !variant.name.is_empty(),
                "enum variant names must not be empty"
            );
            assert!(
                variant.value >= min && variant.value <= max,
                "an enum variant's value is out of the range of its integer type"
            );
            names[index] = (crate::unique::name_hash(variant.name), index);
            values[index] = (value_key(variant.value), index);
            index += 1;
        }
        crate::unique::sort_keys(&mut names);
        crate::unique::sort_keys(&mut values);
        assert!(
            !has_equal(variants, &names, false),
            "an enum's variant names must be unique"
        );
        assert!(
            !check_values || !has_equal(variants, &values, true),
            "an enum's variant values must be unique: a stored value names one variant"
        );
        EnumDescriptor {
            name,
            integer,
            variants,
        }
    }

    /// The enum's (Rust) name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The integer type the enum is stored as.
    pub const fn integer(&self) -> ScalarType {
        self.integer
    }

    /// The variants, in declaration order.
    pub const fn variants(&self) -> &'static [EnumVariant] {
        self.variants
    }

    /// The variant whose value is `value`, if any (a linear search: for errors and tools, not
    /// for decoding, which the derive does with a `match`).
    pub fn variant(&self, value: i128) -> Option<&'static EnumVariant> {
        self.variants.iter().find(|variant| variant.value == value)
    }

    /// The variants as the [`ENUMS_ATTRIBUTE`] writes them: name to value, in declaration
    /// order.
    pub fn variants_json(&self) -> Json {
        Json::Object(
            self.variants
                .iter()
                .map(|variant| (variant.name.to_owned(), integer_json(variant.value)))
                .collect(),
        )
    }
}

/// At most this many variants are listed in an error message.
const LISTED_VARIANTS: usize = 8;

impl fmt::Display for EnumDescriptor {
    /// `Status (uint8: Ok = 0, Warn = 1, Fail = 7)`, the variants elided after the eighth.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` ({}: ", self.name, self.integer.name())?;
        for (index, variant) in self.variants.iter().take(LISTED_VARIANTS).enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} = {}", variant.name, variant.value)?;
        }
        if self.variants.len() > LISTED_VARIANTS {
            write!(f, ", … {} variants in all", self.variants.len())?;
        }
        f.write_str(")")
    }
}

/// A 64-bit sort key of a value (equal values, equal keys).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
const fn value_key(value: i128) -> u64 {
    (value as u64) ^ ((value >> 64) as u64)
}

/// Whether two variants whose sorted keys are equal have the same value (`by_value`) or name.
const fn has_equal(variants: &[EnumVariant], sorted: &[(u64, usize)], by_value: bool) -> bool {
    let mut index = 1;
    while index < sorted.len() {
        let mut earlier = index;
        while earlier > 0 && sorted[earlier - 1].0 == sorted[index].0 {
            earlier -= 1;
            let (a, b) = (&variants[sorted[earlier].1], &variants[sorted[index].1]);
            let equal = if by_value {
                a.value == b.value
            } else {
                crate::unique::same_name(a.name, b.name)
            };
            if equal {
                return true;
            }
        }
        index += 1;
    }
    false
}

/// An integer value as JSON (every value of a 64-bit integer type is a JSON integer).
fn integer_json(value: i128) -> Json {
    match (i64::try_from(value), u64::try_from(value)) {
        (Ok(signed), _) => Json::from(signed),
        (_, Ok(unsigned)) => Json::from(unsigned),
        // Out of every integer type's range, which the constructor refused.
        _ => Json::from(value.to_string()),
    }
}

/// The key of a field path in the [`ENUMS_ATTRIBUTE`]: as [`FieldPath`] shows it, `""` for the
/// element itself.
pub fn enum_attribute_key(path: &FieldPath) -> String {
    if path.is_root() {
        String::new()
    } else {
        path.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATUS: EnumDescriptor = EnumDescriptor::new(
        "Status",
        ScalarType::UInt64,
        &[
            EnumVariant::new("Ok", 0),
            EnumVariant::new("Huge", u64::MAX as i128),
        ],
    );

    #[test]
    fn values_of_every_width_are_json_integers() {
        assert_eq!(
            STATUS.variants_json().to_string(),
            r#"{"Ok":0,"Huge":18446744073709551615}"#
        );
        assert_eq!(STATUS.variant(u64::MAX as i128).unwrap().name(), "Huge");
        assert_eq!(
            STATUS.to_string(),
            "`Status` (uint64: Ok = 0, Huge = 18446744073709551615)"
        );
    }

    #[test]
    fn duplicate_values_are_found_among_many() {
        let variants: Vec<EnumVariant> = (0..600)
            .map(|i| EnumVariant::new(Box::leak(format!("V{i}").into_boxed_str()), i * 3 - 900))
            .collect();
        let mut keys: Vec<(u64, usize)> = variants
            .iter()
            .enumerate()
            .map(|(i, v)| (value_key(v.value), i))
            .collect();
        crate::unique::sort_keys(&mut keys);
        assert!(!has_equal(&variants, &keys, true));
        let mut repeated = variants.clone();
        repeated[417] = EnumVariant::new("Again", 3 * 12 - 900);
        let mut keys: Vec<(u64, usize)> = repeated
            .iter()
            .enumerate()
            .map(|(i, v)| (value_key(v.value), i))
            .collect();
        crate::unique::sort_keys(&mut keys);
        assert!(has_equal(&repeated, &keys, true));
        // Values whose halves give the same key are still told apart.
        assert_eq!(value_key(1), value_key(1 << 64));
        let pair = [EnumVariant::new("A", 1), EnumVariant::new("B", 1 << 64)];
        assert!(!has_equal(&pair, &[(1, 0), (1, 1)], true));
    }

    #[test]
    fn long_lists_of_variants_are_elided_in_messages() {
        static MANY: [EnumVariant; 10] = [
            EnumVariant::new("A", 0),
            EnumVariant::new("B", 1),
            EnumVariant::new("C", 2),
            EnumVariant::new("D", 3),
            EnumVariant::new("E", 4),
            EnumVariant::new("F", 5),
            EnumVariant::new("G", 6),
            EnumVariant::new("H", 7),
            EnumVariant::new("I", 8),
            EnumVariant::new("J", 9),
        ];
        let many = EnumDescriptor::new("Many", ScalarType::Int16, &MANY);
        assert_eq!(
            many.to_string(),
            "`Many` (int16: A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6, H = 7, … 10 variants in all)"
        );
    }
}
