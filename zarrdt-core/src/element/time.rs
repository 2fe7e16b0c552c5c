//! Time fields as NumPy records carry them: [`DateTime64`] (`M8[<scale><unit>]`,
//! `numpy.datetime64`) and [`TimeDelta64`] (`m8[…]`, `numpy.timedelta64`), an `int64` count of
//! `SCALE × U`, with NaT.

use std::fmt;
use std::marker::PhantomData;

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::ZarrType;
use crate::codec::primitive::Primitive;
use crate::endian::StaticEndian;
use crate::{Error, FieldPath, ScalarType, TimeConfig, TimeUnit, TypeDescriptor, Value};

/// A time unit, as a type: the `U` of [`DateTime64<U>`] and [`TimeDelta64<U>`].
pub trait Unit: sealed::Sealed + Copy + Default + fmt::Debug + 'static {
    /// The unit.
    const UNIT: TimeUnit;
}

/// A unit of fixed length, in nanoseconds (weeks down to nanoseconds), whose counts convert to
/// and from `chrono` times exactly.
pub trait FixedDuration: Unit {
    /// Nanoseconds in one unit.
    const NANOS: i64;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! units {
    ($($name:ident => $unit:ident $(, $nanos:expr)?;)*) => {$(
        #[doc = concat!("The time unit `", stringify!($unit), "`, as a type.")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Unit for $name {
            const UNIT: TimeUnit = TimeUnit::$unit;
        }
        $(impl FixedDuration for $name {
            const NANOS: i64 = $nanos;
        })?
    )*};
}

units! {
    Years => Year;
    Months => Month;
    Weeks => Week, 7 * 86_400_000_000_000;
    Days => Day, 86_400_000_000_000;
    Hours => Hour, 3_600_000_000_000;
    Minutes => Minute, 60_000_000_000;
    Seconds => Second, 1_000_000_000;
    Milliseconds => Millisecond, 1_000_000;
    Microseconds => Microsecond, 1_000;
    Nanoseconds => Nanosecond, 1;
    Picoseconds => Picosecond;
    Femtoseconds => Femtosecond;
    Attoseconds => Attosecond;
    Generic => Generic;
}

/// The time configuration of unit `U` and `scale`; a compile error if `scale` is out of range.
const fn config<U: Unit>(scale: u32) -> TimeConfig {
    match TimeConfig::new(U::UNIT, scale) {
        Some(config) => config,
        None => panic!("a time scale factor is in 1..=2147483647"),
    }
}

/// The count NumPy uses for NaT ("not a time").
const NAT: i64 = i64::MIN;

macro_rules! time_type {
    ($(#[$doc:meta])* $name:ident, $variant:ident, $scalar:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, FromBytes, IntoBytes, Immutable, KnownLayout)]
        #[repr(transparent)]
        pub struct $name<U, const SCALE: u32 = 1> {
            count: i64,
            unit: PhantomData<U>,
        }

        impl<U: Unit, const SCALE: u32> $name<U, SCALE> {
            /// NaT, "not a time" (the count `i64::MIN`).
            pub const NAT: Self = Self::new(NAT);

            /// `count` units of `SCALE × U`.
            pub const fn new(count: i64) -> Self {
                $name {
                    count,
                    unit: PhantomData,
                }
            }

            /// The count of `SCALE × U` (`i64::MIN` for NaT).
            pub const fn count(self) -> i64 {
                self.count
            }

            /// Whether this is NaT.
            pub const fn is_nat(self) -> bool {
                self.count == NAT
            }
        }

        impl<U: Unit, const SCALE: u32> Default for $name<U, SCALE> {
            /// The zero count (the epoch for a datetime).
            fn default() -> Self {
                Self::new(0)
            }
        }

        impl<U: Unit, const SCALE: u32> fmt::Debug for $name<U, SCALE> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.is_nat() {
                    write!(f, "{}(NaT)", stringify!($name))
                } else if SCALE == 1 {
                    write!(f, "{}({} {})", stringify!($name), self.count, U::UNIT)
                } else {
                    write!(f, "{}({} × {SCALE} {})", stringify!($name), self.count, U::UNIT)
                }
            }
        }

        impl<U: Unit, const SCALE: u32> ZarrType for $name<U, SCALE> {
            const TYPE: TypeDescriptor =
                TypeDescriptor::scalar(ScalarType::$scalar(config::<U>(SCALE)));
            const NATIVE_LAYOUT: bool = true;

            #[inline]
            fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
                self.count.write::<E>(out);
            }

            #[inline]
            fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
                Self::new(i64::read::<E>(bytes))
            }

            fn to_value(&self) -> Value {
                Value::$variant(self.count)
            }

            fn from_value(value: &Value) -> Result<Self, Error> {
                match value {
                    Value::$variant(count) => Ok(Self::new(*count)),
                    other => Err(Error::ValueMismatch {
                        path: FieldPath::root(),
                        data_type: ScalarType::$scalar(config::<U>(SCALE)).name(),
                        reason: other.found(),
                    }),
                }
            }
        }
    };
}

time_type! {
    /// A point in time: an `int64` count of `SCALE × U` since 1970-01-01T00:00:00, or NaT.
    /// NumPy's `datetime64[<SCALE><U>]`, Zarr's `numpy.datetime64`.
    ///
    /// ```
    /// use zarrdt::{DateTime64, Endian, ZarrType};
    /// use zarrdt::time::{Milliseconds, Seconds};
    ///
    /// let t = DateTime64::<Milliseconds>::new(1_700_000_000_123);
    /// assert_eq!(t.count(), 1_700_000_000_123);
    /// assert_eq!(
    ///     DateTime64::<Milliseconds>::data_type().to_string(),
    ///     r#"{"name":"numpy.datetime64","configuration":{"unit":"ms","scale_factor":1}}"#
    /// );
    /// assert_eq!(DateTime64::<Seconds, 10>::layout(Endian::Big).to_v2_json()?, ">M8[10s]");
    /// assert!(DateTime64::<Seconds>::NAT.is_nat());
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    DateTime64, DateTime64, DateTime64
}

time_type! {
    /// A duration: an `int64` count of `SCALE × U`, or NaT. NumPy's
    /// `timedelta64[<SCALE><U>]`, Zarr's `numpy.timedelta64`.
    ///
    /// ```
    /// use zarrdt::{TimeDelta64, ZarrType};
    /// use zarrdt::time::Nanoseconds;
    ///
    /// let dt = TimeDelta64::<Nanoseconds>::new(-5);
    /// assert_eq!(dt.to_value(), zarrdt::value::Value::TimeDelta64(-5));
    /// ```
    TimeDelta64, TimeDelta64, TimeDelta64
}

#[cfg(feature = "chrono")]
mod chrono_times {
    //! Conversions to and from `chrono` (the `chrono` feature), for units of fixed length.

    use chrono::{DateTime, TimeDelta, Utc};

    use super::{DateTime64, FixedDuration, TimeDelta64};

    /// Nanoseconds in `SCALE × U` (an `i128`: a million weeks or `u32::MAX` hours are more
    /// nanoseconds than an `i64` holds, yet times `chrono` holds); `None` for a scale of 0.
    fn step<U: FixedDuration>(scale: u32) -> Option<i128> {
        (scale != 0).then(|| i128::from(U::NANOS) * i128::from(scale))
    }

    impl<U: FixedDuration, const SCALE: u32> DateTime64<U, SCALE> {
        /// The time `time`, if it is a whole number of `SCALE × U` since the epoch and the
        /// count fits; `None` otherwise (and for times before 1677 or after 2262 in
        /// nanoseconds, which do not fit).
        pub fn from_chrono(time: DateTime<Utc>) -> Option<Self> {
            let step = step::<U>(SCALE)?;
            let nanos = i128::from(time.timestamp()) * 1_000_000_000
                + i128::from(time.timestamp_subsec_nanos());
            (nanos % step == 0)
                .then(|| i64::try_from(nanos / step).ok())
                .flatten()
                .filter(|&count| count != super::NAT)
                .map(Self::new)
        }

        /// The time as `chrono` sees it; `None` for NaT or a time `chrono` cannot hold.
        pub fn to_chrono(self) -> Option<DateTime<Utc>> {
            if self.is_nat() {
                return None;
            }
            let nanos = i128::from(self.count()).checked_mul(step::<U>(SCALE)?)?;
            let seconds = i64::try_from(nanos.div_euclid(1_000_000_000)).ok()?;
            let sub = u32::try_from(nanos.rem_euclid(1_000_000_000)).ok()?;
            DateTime::from_timestamp(seconds, sub)
        }
    }

    impl<U: FixedDuration, const SCALE: u32> TimeDelta64<U, SCALE> {
        /// The duration `delta`, if it is a whole number of `SCALE × U` and the count fits.
        pub fn from_chrono(delta: TimeDelta) -> Option<Self> {
            let step = step::<U>(SCALE)?;
            let nanos =
                i128::from(delta.num_seconds()) * 1_000_000_000 + i128::from(delta.subsec_nanos());
            (nanos % step == 0)
                .then(|| i64::try_from(nanos / step).ok())
                .flatten()
                .filter(|&count| count != super::NAT)
                .map(Self::new)
        }

        /// The duration as `chrono` sees it; `None` for NaT or one `chrono` cannot hold.
        pub fn to_chrono(self) -> Option<TimeDelta> {
            if self.is_nat() {
                return None;
            }
            let nanos = i128::from(self.count()).checked_mul(step::<U>(SCALE)?)?;
            let seconds = i64::try_from(nanos.div_euclid(1_000_000_000)).ok()?;
            let sub = u32::try_from(nanos.rem_euclid(1_000_000_000)).ok()?;
            TimeDelta::new(seconds, sub)
        }
    }

    #[cfg(test)]
    mod tests {
        use chrono::{DateTime, TimeDelta};

        use crate::{
            DateTime64, Days, Hours, Milliseconds, Nanoseconds, Seconds, TimeDelta64, Weeks,
        };

        #[test]
        fn times_convert_exactly_or_not_at_all() {
            let t = DateTime::from_timestamp(1_700_000_000, 123_000_000).unwrap();
            let ms = DateTime64::<Milliseconds>::from_chrono(t).unwrap();
            assert_eq!(ms.count(), 1_700_000_000_123);
            assert_eq!(ms.to_chrono(), Some(t));
            assert_eq!(DateTime64::<Seconds>::from_chrono(t), None);
            let ten = DateTime64::<Seconds, 10>::new(-3);
            assert_eq!(ten.to_chrono().unwrap().timestamp(), -30);
            assert_eq!(DateTime64::<Nanoseconds>::NAT.to_chrono(), None);
            let d = TimeDelta::new(-2, 500).unwrap();
            let ns = TimeDelta64::<Nanoseconds>::from_chrono(d).unwrap();
            assert_eq!(ns.count(), -1_999_999_500);
            assert_eq!(ns.to_chrono(), Some(d));
        }

        /// A step of more nanoseconds than an `i64` holds (NumPy's `datetime64[1000000W]`,
        /// `timedelta64[2147483647h]`) converts the times `chrono` holds; a count whose
        /// nanoseconds overflow even an `i128` is `None`, not a panic.
        #[test]
        fn large_scales_convert() {
            let epoch = DateTime::from_timestamp(0, 0).unwrap();
            assert_eq!(
                DateTime64::<Weeks, 1_000_000>::new(0).to_chrono(),
                Some(epoch)
            );
            // NumPy: np.datetime64(1, '200000D') is 2517-08-01.
            let day = DateTime64::<Days, 200_000>::new(1).to_chrono().unwrap();
            assert_eq!(day.to_rfc3339(), "2517-08-01T00:00:00+00:00");
            assert_eq!(
                DateTime64::<Days, 200_000>::from_chrono(day)
                    .unwrap()
                    .count(),
                1
            );
            assert_eq!(
                DateTime64::<Days, 200_000>::from_chrono(epoch)
                    .unwrap()
                    .count(),
                0
            );
            let hours = TimeDelta64::<Hours, { u32::MAX }>::new(1)
                .to_chrono()
                .unwrap();
            assert_eq!(hours.num_seconds(), 3_600 * i64::from(u32::MAX));
            assert_eq!(
                TimeDelta64::<Hours, { u32::MAX }>::from_chrono(hours)
                    .unwrap()
                    .count(),
                1
            );
            assert_eq!(
                TimeDelta64::<Weeks, { u32::MAX }>::new(i64::MAX).to_chrono(),
                None
            );
            assert_eq!(
                DateTime64::<Weeks, { u32::MAX }>::new(i64::MIN + 1).to_chrono(),
                None
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Endian;

    #[test]
    fn times_are_int64_counts_with_their_unit_in_the_type() {
        let t = DateTime64::<Seconds, 10>::new(-7);
        assert_eq!(t.encode(Endian::Big), (-7i64).to_be_bytes());
        assert_eq!(
            DateTime64::<Seconds, 10>::decode(&t.encode(Endian::Little), Endian::Little).unwrap(),
            t
        );
        assert_eq!(t.to_value(), Value::DateTime64(-7));
        assert!(DateTime64::<Seconds>::from_value(&Value::TimeDelta64(1)).is_err());
        assert_eq!(
            TimeDelta64::<Generic>::data_type().to_v3_json()["configuration"]["unit"],
            "generic"
        );
        assert_eq!(format!("{:?}", DateTime64::<Days>::NAT), "DateTime64(NaT)");
        assert_eq!(format!("{t:?}"), "DateTime64(-7 × 10 s)");
    }
}
