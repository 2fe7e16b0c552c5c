//! The shortest JSON number for a float: the decimal with the fewest significant digits that a
//! reader (parsing it to `f64`, then rounding to the float's own width) turns back into exactly
//! the value.
//!
//! The definition is a search: format the value with 0, 1, 2, … significant digits after the
//! first, correctly rounded, and take the first that reads back ([`search`]). That costs a
//! `format!` and a parse per try, which matters to anything writing millions of values (the
//! CLI's `dump`). `float64` needs no search (ryu's shortest round-trip form, which `serde_json`
//! writes, is the definition), and `float32` has a fast path from ryu's shortest form that
//! falls back to the search only where the two could differ ([`float32`]).

use half::f16;

use super::narrow::f16_from_f64;

/// The shortest number of each float width: the definition above.
pub(crate) trait Shortest: Copy {
    /// The `f64` to write for the finite `self`; its JSON text (serde_json's) has the fewest
    /// significant digits that read back as `self`.
    fn shortest(self) -> f64;
}

impl Shortest for f16 {
    fn shortest(self) -> f64 {
        // At most five significant digits: the search is short.
        search(f64::from(self), 0, |wide| {
            f16_from_f64(wide).to_bits() == self.to_bits()
        })
    }
}

impl Shortest for f32 {
    fn shortest(self) -> f64 {
        float32(self)
    }
}

impl Shortest for f64 {
    /// Any decimal that reads back as an `f64` *is* that `f64`: the value, which serde_json
    /// writes in ryu's shortest round-trip form.
    fn shortest(self) -> f64 {
        self
    }
}

/// The definition: `wide` with `from`, `from + 1`, … digits after the first significant one,
/// until `reads_back`. 17 significant digits round-trip any `f64`, hence any narrower float.
fn search(wide: f64, from: usize, reads_back: impl Fn(f64) -> bool) -> f64 {
    for precision in from..17 {
        let candidate: f64 = format!("{wide:.precision$e}").parse().unwrap_or(wide);
        if reads_back(candidate) {
            return candidate;
        }
    }
    wide
}

/// Significant digits of ryu's shortest round-trip text (`1.25e3`, `0.001`, `120.0`): the
/// digits of the mantissa without leading and trailing zeros.
fn significant_digits(text: &str) -> usize {
    // One pass over the mantissa: digits from the first nonzero one to the last nonzero one.
    let (mut first, mut last, mut position) = (None, 0, 0);
    for byte in text.bytes() {
        match byte {
            b'e' | b'E' => break,
            b'0' => position += 1,
            b'1'..=b'9' => {
                first.get_or_insert(position);
                last = position;
                position += 1;
            }
            _ => {}
        }
    }
    first.map_or(1, |first| last - first + 1)
}

/// The shortest number of a finite `float32`, from ryu's shortest round-trip form `d` (`s`
/// digits) when three checks pass, else by the [`search`]:
///
/// - no boundary of the value's rounding interval that rounds to the value has a form shorter
///   than `s` digits (only through such a boundary could a shorter decimal read back through
///   `f64`, where ryu, working in `f32`, would not see it);
/// - `d` is within less than half a unit in its last digit of the value, so it is the
///   correctly rounded `s`-digit decimal the search would try;
/// - `d` reads back through `f64`.
///
/// The unit tests hold it to the search on every power of two and ten and on random values;
/// an ignored test sweeps every 61st bit pattern.
fn float32(value: f32) -> f64 {
    #[allow(clippy::cast_possible_truncation)] // f32 rounding is the point
    let reads_back = |candidate: f64| (candidate as f32).to_bits() == value.to_bits();
    let wide = f64::from(value);
    let mut buffer = ryu::Buffer::new();
    let shortest_text = buffer.format_finite(value);
    let digits = significant_digits(shortest_text);
    let mut wide_buffer = ryu::Buffer::new();
    let boundary_is_short = [value.next_down(), value.next_up()]
        .into_iter()
        .filter(|neighbour| neighbour.is_finite())
        .map(|neighbour| (wide + f64::from(neighbour)) / 2.0)
        .any(|boundary| {
            reads_back(boundary) && significant_digits(wide_buffer.format_finite(boundary)) < digits
        });
    if boundary_is_short {
        return search(wide, 0, reads_back);
    }
    let Ok(candidate) = shortest_text.parse::<f64>() else {
        return search(wide, 0, reads_back);
    };
    // Half a unit in the last digit, against the distance to the value with the error of
    // `candidate` (half an f64 ulp) on top, and a margin for the inexact power of ten.
    let exponent = if candidate == 0.0 {
        0
    } else {
        #[allow(clippy::cast_possible_truncation)] // a decimal exponent within ±46
        let e = candidate.abs().log10().floor() as i32;
        e
    };
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    let unit = 10f64.powi(exponent - digits as i32 + 1);
    let ulp = (candidate.abs().next_up() - candidate.abs()).abs();
    let correctly_rounded = (candidate - wide).abs() + ulp < 0.499 * unit;
    if correctly_rounded && reads_back(candidate) {
        return candidate;
    }
    search(wide, digits.saturating_sub(1), reads_back)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, for `float32`.
    #[allow(clippy::cast_possible_truncation)]
    fn searched(value: f32) -> f64 {
        search(f64::from(value), 0, |c| {
            (c as f32).to_bits() == value.to_bits()
        })
    }

    /// A xorshift generator: fixed, reproducible bit patterns.
    struct Bits(u64);
    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn assert_as_searched(value: f32) {
        assert_eq!(
            float32(value).to_bits(),
            searched(value).to_bits(),
            "{value:e} ({:#x})",
            value.to_bits()
        );
    }

    #[test]
    fn float32_fast_path_is_the_search() {
        let mut special = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            1e-45,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            16_777_217.0,
            3.4e38,
            1e30,
        ];
        // Powers of two (asymmetric rounding intervals) and of ten, and their neighbours.
        for e in -149..128 {
            special.push(2f32.powi(e));
        }
        for e in -45..39 {
            special.push(format!("1e{e}").parse().unwrap());
        }
        for value in special.clone() {
            special.extend([value.next_up(), value.next_down()]);
        }
        let mut bits = Bits(0x9e37_79b9_7f4a_7c15);
        #[allow(clippy::cast_possible_truncation)]
        let random = (0..100_000).map(|_| f32::from_bits(bits.next() as u32));
        for value in special.into_iter().chain(random) {
            if value.is_finite() {
                assert_as_searched(value);
            }
        }
    }

    /// Every 61st `float32` bit pattern (70 million values, all exponents and many mantissa
    /// patterns) against the search:
    /// `cargo test --release -p zarrdt-core --lib -- --ignored float32_sweep` (minutes).
    #[test]
    #[ignore = "minutes; run in release"]
    fn float32_sweep() {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || {
                    let mut bits = t * 61;
                    while bits <= u64::from(u32::MAX) {
                        #[allow(clippy::cast_possible_truncation)]
                        let value = f32::from_bits(bits as u32);
                        if value.is_finite() {
                            assert_as_searched(value);
                        }
                        bits += 61 * threads;
                    }
                });
            }
        });
    }

    #[test]
    fn significant_digits_of_ryu_forms() {
        for (text, digits) in [
            ("0.0", 1),
            ("-0.0", 1),
            ("1.0", 1),
            ("120.0", 2),
            ("0.001", 1),
            ("1.25e3", 3),
            ("1.0e-45", 1),
            ("3.4028235e38", 8),
            ("100.5", 4),
        ] {
            assert_eq!(significant_digits(text), digits, "{text}");
        }
    }

    #[test]
    fn float64_and_float16() {
        for value in [0.1, -0.0, 1e300, 5e-324, f64::MAX, 1.0 / 3.0] {
            let searched = search(value, 0, |c| c.to_bits() == value.to_bits());
            assert_eq!(value.shortest().to_bits(), searched.to_bits());
        }
        assert_eq!(f16::from_f32(0.1).shortest(), 0.1);
        assert_eq!(f16::MAX.shortest(), 65500.0);
    }
}
