//! Byte order: the runtime [`Endian`] of the `bytes` codec and the static markers the
//! generated codecs are monomorphised over.

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// The byte order of multi-byte values in encoded chunks.
///
/// In Zarr v3 it is the `endian` parameter of the `bytes` codec and applies to every
/// multi-byte value of an array (every leaf of a struct). In Zarr v2 each typestr carries its
/// own byte order; see [`Layout`](crate::Layout).
///
/// ```
/// use zarrdt::Endian;
///
/// assert_eq!("big".parse::<Endian>().unwrap(), Endian::Big);
/// assert_eq!(Endian::Little.as_str(), "little");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte first (`"little"`).
    Little,
    /// Most significant byte first (`"big"`).
    Big,
}

impl Endian {
    /// The byte order of the machine this code runs on.
    pub const NATIVE: Endian = if cfg!(target_endian = "little") {
        Endian::Little
    } else {
        Endian::Big
    };

    /// The spelling used by the `bytes` codec: `"little"` or `"big"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Endian::Little => "little",
            Endian::Big => "big",
        }
    }

    /// Whether this is the byte order of the machine this code runs on.
    pub const fn is_native(self) -> bool {
        matches!(
            (self, Endian::NATIVE),
            (Endian::Little, Endian::Little) | (Endian::Big, Endian::Big)
        )
    }
}

impl fmt::Display for Endian {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Endian {
    type Err = Error;

    /// Parses `"little"` or `"big"`, exactly as the `bytes` codec spells them.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "little" => Ok(Endian::Little),
            "big" => Ok(Endian::Big),
            other => Err(Error::InvalidCodec {
                json: serde_json::Value::from(other).to_string(),
                reason: "endian must be \"little\" or \"big\"".into(),
            }),
        }
    }
}

/// A byte order known at compile time, so that per-record code can be monomorphised once per
/// order and the runtime [`Endian`] is matched once per chunk instead of once per value.
///
/// Implemented by [`LittleEndian`] and [`BigEndian`] only (sealed).
pub trait StaticEndian: sealed::Sealed + Copy + 'static {
    /// The runtime value of this order.
    const ENDIAN: Endian;
    /// Whether this order is the machine's native order.
    const IS_NATIVE: bool = Self::ENDIAN.is_native();
}

/// Compile-time marker for [`Endian::Little`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LittleEndian;

/// Compile-time marker for [`Endian::Big`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BigEndian;

impl StaticEndian for LittleEndian {
    const ENDIAN: Endian = Endian::Little;
}

impl StaticEndian for BigEndian {
    const ENDIAN: Endian = Endian::Big;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::LittleEndian {}
    impl Sealed for super::BigEndian {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_the_two_spellings() {
        assert_eq!("little".parse::<Endian>().unwrap(), Endian::Little);
        assert_eq!("big".parse::<Endian>().unwrap(), Endian::Big);
        for bad in ["Little", "BIG", "", "native", "le"] {
            let err = bad.parse::<Endian>().unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn native_matches_target() {
        assert!(Endian::NATIVE.is_native());
        assert_eq!(Endian::Little.is_native(), u16::from_ne_bytes([1, 0]) == 1,);
        assert_eq!(LittleEndian::ENDIAN, Endian::Little);
        assert_eq!(BigEndian::ENDIAN, Endian::Big);
    }
}
