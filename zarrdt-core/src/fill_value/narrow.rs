//! Correctly rounded narrowing of an `f64` to float16: what a float16 fill value given as a JSON
//! number is, and what the shortest decimal of a float16 must read back as.

use half::f16;

/// `x` rounded to the nearest float16, ties to even, overflowing to infinity.
///
/// `half::f16::from_f64` is not used because it is not correctly rounded: its F16C path goes
/// through `f32` and its software path drops the low 32 mantissa bits, both of which can turn
/// a value just above a tie into the tie.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]
pub(crate) fn f16_from_f64(x: f64) -> f16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0x7ff {
        // Infinity, or NaN with the top payload bits kept and the quiet bit set.
        let nan = if fraction == 0 {
            0
        } else {
            0x0200 | (fraction >> 42) as u16
        };
        return f16::from_bits(sign | 0x7c00 | nan);
    }
    if biased == 0 && fraction == 0 {
        return f16::from_bits(sign);
    }
    // |x| = significand × 2^exponent, exactly.
    let (significand, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let top = exponent + 63 - significand.leading_zeros() as i32; // floor(log2 |x|)
    // The exponent of float16's last mantissa bit at this magnitude (subnormals below 2^-14).
    let unit = (top - 10).max(-24);
    let shift = (unit - exponent) as u32; // at least 42: an f64 has 53 significant bits
    let mut kept = significand.checked_shr(shift).unwrap_or(0);
    if shift <= 64 {
        let dropped = significand & (1u64.checked_shl(shift).unwrap_or(0).wrapping_sub(1));
        let half = 1u64 << (shift - 1);
        if dropped > half || (dropped == half && kept & 1 == 1) {
            kept += 1;
        }
    }
    if unit == -24 && kept < 0x400 {
        // Subnormal (or zero after rounding).
        return f16::from_bits(sign | kept as u16);
    }
    let mut top = if unit == -24 { -14 } else { top };
    if kept == 0x800 {
        kept = 0x400;
        top += 1;
    }
    let biased = top + 15;
    if biased >= 0x1f {
        return f16::from_bits(sign | 0x7c00);
    }
    f16::from_bits(sign | ((biased as u16) << 10) | (kept as u16 - 0x400))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float16_rounding_at_every_tie() {
        // Every pair of adjacent finite float16 values: their midpoint (exact in f64) goes to
        // the even one, and the f64 values just above and below it to the nearer one.
        for bits in 0..0x7bffu16 {
            let low = f16::from_bits(bits);
            let high = f16::from_bits(bits + 1);
            let tie = (f64::from(low) + f64::from(high)) / 2.0;
            let even = if bits % 2 == 0 { low } else { high };
            assert_eq!(
                f16_from_f64(tie).to_bits(),
                even.to_bits(),
                "tie above {bits:#x}"
            );
            assert_eq!(
                f16_from_f64(tie.next_up()).to_bits(),
                high.to_bits(),
                "{bits:#x}"
            );
            assert_eq!(
                f16_from_f64(tie.next_down()).to_bits(),
                low.to_bits(),
                "{bits:#x}"
            );
            assert_eq!(f16_from_f64(f64::from(low)).to_bits(), bits);
            assert_eq!(f16_from_f64(-f64::from(low)).to_bits(), bits | 0x8000);
        }
        // Overflow: the tie between the largest finite value and 2^16 goes to infinity.
        assert_eq!(f16_from_f64(65519.999).to_bits(), 0x7bff);
        assert_eq!(f16_from_f64(65520.0).to_bits(), 0x7c00);
        assert_eq!(f16_from_f64(1e300).to_bits(), 0x7c00);
        assert_eq!(f16_from_f64(f64::NEG_INFINITY).to_bits(), 0xfc00);
        // Underflow: half the smallest subnormal is a tie that goes to zero; above it, up.
        assert_eq!(f16_from_f64(2f64.powi(-25)).to_bits(), 0);
        assert_eq!(f16_from_f64(2f64.powi(-25).next_up()).to_bits(), 1);
        assert_eq!(f16_from_f64(f64::MIN_POSITIVE).to_bits(), 0);
        assert_eq!(f16_from_f64(-5e-324).to_bits(), 0x8000);
        assert!(f16_from_f64(f64::NAN).is_nan());
    }
}
