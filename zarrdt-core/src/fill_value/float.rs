//! The JSON forms of floating-point fill values: numbers, `"NaN"`, `"Infinity"`,
//! `"-Infinity"` and (v3) `"0x…"` bit patterns.

use half::f16;
use serde_json::{Number, Value as Json};

use super::narrow::f16_from_f64;
use super::shortest::Shortest;

/// A float type as the fill-value rules see it: its bit width, its canonical NaN and a correctly
/// rounded conversion from `f64`.
pub(crate) trait Float: Shortest {
    /// Bytes per value; the hex form has twice as many digits.
    const SIZE: usize;
    /// The bits `"NaN"` denotes: sign 0, mantissa MSB 1, all other mantissa bits 0.
    const CANONICAL_NAN: u64;
    /// Positive infinity.
    const INFINITY: Self;
    /// Negative infinity.
    const NEG_INFINITY: Self;

    fn to_bits_u64(self) -> u64;
    fn from_bits_u64(bits: u64) -> Self;
    /// Round to nearest, ties to even, overflowing to infinity.
    fn from_f64(x: f64) -> Self;
    /// Round an integer to nearest, ties to even, overflowing to infinity.
    fn from_u64(x: u64) -> Self;
    /// Round an integer to nearest, ties to even, overflowing to infinity.
    fn from_i64(x: i64) -> Self;
    fn to_f64(self) -> f64;
    fn is_nan(self) -> bool;
}

impl Float for f16 {
    const SIZE: usize = 2;
    const CANONICAL_NAN: u64 = 0x7e00;
    const INFINITY: Self = f16::INFINITY;
    const NEG_INFINITY: Self = f16::NEG_INFINITY;

    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits_u64(bits: u64) -> Self {
        f16::from_bits(u16::try_from(bits).unwrap_or_default())
    }
    fn from_f64(x: f64) -> Self {
        f16_from_f64(x)
    }
    // Integers up to 2^53 are exact in f64, so one rounding happens; larger ones overflow
    // float16 to infinity whichever way they round.
    #[allow(clippy::cast_precision_loss)]
    fn from_u64(x: u64) -> Self {
        f16_from_f64(x as f64)
    }
    #[allow(clippy::cast_precision_loss)]
    fn from_i64(x: i64) -> Self {
        f16_from_f64(x as f64)
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
}

impl Float for f32 {
    const SIZE: usize = 4;
    const CANONICAL_NAN: u64 = 0x7fc0_0000;
    const INFINITY: Self = f32::INFINITY;
    const NEG_INFINITY: Self = f32::NEG_INFINITY;

    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits_u64(bits: u64) -> Self {
        f32::from_bits(u32::try_from(bits).unwrap_or_default())
    }
    #[allow(clippy::cast_possible_truncation)] // `as` is the IEEE round-to-nearest-even conversion
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[allow(clippy::cast_precision_loss)] // `as` rounds integers to nearest, ties to even
    fn from_u64(x: u64) -> Self {
        x as f32
    }
    #[allow(clippy::cast_precision_loss)]
    fn from_i64(x: i64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

impl Float for f64 {
    const SIZE: usize = 8;
    const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;
    const INFINITY: Self = f64::INFINITY;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;

    fn to_bits_u64(self) -> u64 {
        self.to_bits()
    }
    fn from_bits_u64(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn from_f64(x: f64) -> Self {
        x
    }
    #[allow(clippy::cast_precision_loss)] // `as` rounds integers to nearest, ties to even
    fn from_u64(x: u64) -> Self {
        x as f64
    }
    #[allow(clippy::cast_precision_loss)]
    fn from_i64(x: i64) -> Self {
        x as f64
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

/// What a v3 float fill value may be, for error messages.
pub(crate) const V3_FLOAT_FORMS: &str = "a JSON number, \"NaN\", \"Infinity\", \"-Infinity\" or a \"0x\" bit pattern of 2×size hex digits";
/// What a v2 float fill value may be, for error messages.
pub(crate) const V2_FLOAT_FORMS: &str = "a JSON number, \"NaN\", \"Infinity\" or \"-Infinity\"";

/// A JSON number as the nearest value of `F`.
///
/// Integers are rounded once, directly. Other numbers arrive as serde_json parsed them: the
/// nearest `f64` (correctly rounded, with the `float_roundtrip` feature), which is then rounded
/// to `F`. For `float16`/`float32` that is a second rounding, which differs from rounding the
/// decimal text directly only for decimals within 2⁻⁵³ (relative) of a value halfway between
/// two `F`s; zarr-python, zarrs and tensorstore read numbers the same way.
fn from_number<F: Float>(number: &Number) -> Option<F> {
    if let Some(unsigned) = number.as_u64() {
        return Some(F::from_u64(unsigned));
    }
    if let Some(signed) = number.as_i64() {
        return Some(F::from_i64(signed));
    }
    number.as_f64().map(F::from_f64)
}

/// Parses a v3 float fill value (seed 000, "IEEE 754 floating point numbers").
pub(crate) fn parse_v3<F: Float>(json: &Json) -> Option<F> {
    match json {
        Json::Number(number) => from_number(number),
        Json::String(text) => match text.as_str() {
            "NaN" => Some(F::from_bits_u64(F::CANONICAL_NAN)),
            "Infinity" => Some(F::INFINITY),
            "-Infinity" => Some(F::NEG_INFINITY),
            _ => parse_hex(text),
        },
        _ => None,
    }
}

/// `"0x"` followed by exactly 2×size hex digits, in either case.
fn parse_hex<F: Float>(text: &str) -> Option<F> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    if digits.len() != 2 * F::SIZE || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok().map(F::from_bits_u64)
}

/// Writes a v3 float fill value: `"NaN"` for the canonical NaN, lowercase zero-padded hex for
/// every other NaN, `"Infinity"`/`"-Infinity"`, and otherwise the shortest decimal that reads
/// back to the same bits (`-0.0` keeps its sign).
pub(crate) fn to_v3<F: Float>(value: F) -> Json {
    let bits = value.to_bits_u64();
    if value.is_nan() {
        if bits == F::CANONICAL_NAN {
            return Json::from("NaN");
        }
        return Json::from(format!("0x{bits:0width$x}", width = 2 * F::SIZE));
    }
    finite_or_infinite(value)
}

/// Parses a v2 float fill value: a number, `"NaN"`, `"Infinity"` or `"-Infinity"`.
pub(crate) fn parse_v2<F: Float>(json: &Json) -> Option<F> {
    match json {
        Json::Number(number) => from_number(number),
        Json::String(text) => match text.as_str() {
            "NaN" => Some(F::from_bits_u64(F::CANONICAL_NAN)),
            "Infinity" => Some(F::INFINITY),
            "-Infinity" => Some(F::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// Writes a v2 float fill value; `None` for a NaN other than the canonical one, which v2
/// cannot express.
pub(crate) fn to_v2<F: Float>(value: F) -> Option<Json> {
    if value.is_nan() {
        return (value.to_bits_u64() == F::CANONICAL_NAN).then(|| Json::from("NaN"));
    }
    Some(finite_or_infinite(value))
}

fn finite_or_infinite<F: Float>(value: F) -> Json {
    let wide = value.to_f64();
    if wide.is_infinite() {
        return Json::from(if wide > 0.0 { "Infinity" } else { "-Infinity" });
    }
    Json::Number(shortest_number(value))
}

/// The JSON number with the fewest significant digits that a reader (parsing to `f64`, then
/// rounding to `F`) turns back into exactly `value`.
fn shortest_number<F: Float>(value: F) -> Number {
    Number::from_f64(value.shortest()).unwrap_or_else(|| Number::from(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_f16_round_trips_through_v3_json_text() {
        for bits in 0..=u16::MAX {
            let value = f16::from_bits(bits);
            let text = to_v3(value).to_string();
            let back: f16 = parse_v3(&serde_json::from_str::<Json>(&text).unwrap()).unwrap();
            assert_eq!(back.to_bits(), bits, "{text}");
        }
    }

    #[test]
    fn float16_rounds_from_f64_once() {
        // Just above the tie between 1.0 and 1 + 2^-10: an f32 step would land on the tie.
        assert_eq!(<f16 as Float>::from_f64(1.000_488_3).to_bits(), 0x3c01);
        assert_eq!(<f16 as Float>::from_f64(1.000_488_281_25).to_bits(), 0x3c00);
        assert_eq!(<f16 as Float>::from_f64(65519.99).to_bits(), 0x7bff);
        assert_eq!(<f16 as Float>::from_f64(65520.0).to_bits(), 0x7c00);
        assert_eq!(<f16 as Float>::from_f64(-6e-8).to_bits(), 0x8001);
    }

    #[test]
    fn shortest_decimals() {
        assert_eq!(to_v3(0.1f32).to_string(), "0.1");
        assert_eq!(to_v3(f16::from_f32(0.1)).to_string(), "0.1");
        assert_eq!(to_v3(1.0f64).to_string(), "1.0");
        assert_eq!(to_v3(-0.0f32).to_string(), "-0.0");
        assert_eq!(to_v3(f16::MAX).to_string(), "65500.0");
        assert_eq!(to_v3(1e300f64).to_string(), "1e+300");
    }

    #[test]
    fn rounding_to_nearest_even() {
        // float16: 65519 rounds down to the largest finite value, 65520 is a tie that goes to
        // even, which is infinity.
        assert_eq!(parse_v3::<f16>(&json!(65519)).unwrap(), f16::MAX);
        assert_eq!(parse_v3::<f16>(&json!(65520)).unwrap(), f16::INFINITY);
        assert_eq!(
            parse_v3::<f16>(&json!(-65520.0)).unwrap(),
            f16::NEG_INFINITY
        );
        // 1 + 2^-24 is halfway between 1.0 and the next f32: ties to even gives 1.0.
        assert_eq!(
            parse_v3::<f32>(&json!(1.000_000_059_604_644_8)).unwrap(),
            1.0
        );
    }

    #[test]
    fn hex_forms() {
        assert_eq!(
            parse_v3::<f32>(&json!("0x7fc00001")).unwrap().to_bits(),
            0x7fc0_0001
        );
        assert_eq!(
            parse_v3::<f32>(&json!("0x7FC00001")).unwrap().to_bits(),
            0x7fc0_0001
        );
        assert!(parse_v3::<f32>(&json!("0x7fc0")).is_none());
        assert!(parse_v3::<f32>(&json!("0x7fc000001")).is_none());
        assert!(parse_v3::<f32>(&json!("0x7fc0000g")).is_none());
        assert!(parse_v3::<f32>(&json!("0x+fc00000")).is_none());
        assert_eq!(to_v3(f32::from_bits(0x7fc0_0001)), json!("0x7fc00001"));
        assert_eq!(to_v3(f16::from_bits(0x7e01)), json!("0x7e01"));
        assert_eq!(
            to_v3(f64::from_bits(0xfff8_0000_0000_0000)),
            json!("0xfff8000000000000")
        );
        assert_eq!(to_v3(f32::from_bits(0x7fc0_0000)), json!("NaN"));
    }
}
