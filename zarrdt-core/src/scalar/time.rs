//! Configuration of the `numpy.datetime64` and `numpy.timedelta64` data types.

use std::fmt;
use std::str::FromStr;

/// The unit of a `numpy.datetime64` / `numpy.timedelta64` count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Years (`Y`).
    Year,
    /// Months (`M`).
    Month,
    /// Weeks (`W`).
    Week,
    /// Days (`D`).
    Day,
    /// Hours (`h`).
    Hour,
    /// Minutes (`m`).
    Minute,
    /// Seconds (`s`).
    Second,
    /// Milliseconds (`ms`).
    Millisecond,
    /// Microseconds (`us`).
    Microsecond,
    /// Nanoseconds (`ns`).
    Nanosecond,
    /// Picoseconds (`ps`).
    Picosecond,
    /// Femtoseconds (`fs`).
    Femtosecond,
    /// Attoseconds (`as`).
    Attosecond,
    /// NumPy's unit-less `generic` unit.
    Generic,
}

impl TimeUnit {
    const ALL: [TimeUnit; 14] = [
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

    /// The spelling used in Zarr v3 metadata and NumPy typestrs (`"s"`, `"ms"`, `"generic"`…).
    pub const fn as_str(self) -> &'static str {
        match self {
            TimeUnit::Year => "Y",
            TimeUnit::Month => "M",
            TimeUnit::Week => "W",
            TimeUnit::Day => "D",
            TimeUnit::Hour => "h",
            TimeUnit::Minute => "m",
            TimeUnit::Second => "s",
            TimeUnit::Millisecond => "ms",
            TimeUnit::Microsecond => "us",
            TimeUnit::Nanosecond => "ns",
            TimeUnit::Picosecond => "ps",
            TimeUnit::Femtosecond => "fs",
            TimeUnit::Attosecond => "as",
            TimeUnit::Generic => "generic",
        }
    }
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a string is not a [`TimeUnit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTimeUnit;

impl fmt::Display for UnknownTimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unit must be one of Y, M, W, D, h, m, s, ms, us, ns, ps, fs, as, generic")
    }
}

impl FromStr for TimeUnit {
    type Err = UnknownTimeUnit;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TimeUnit::ALL
            .into_iter()
            .find(|unit| unit.as_str() == s)
            .ok_or(UnknownTimeUnit)
    }
}

/// Unit and scale factor of a datetime or timedelta: a count `n` means `n × scale_factor`
/// units.
///
/// ```
/// use zarrdt::types::{TimeConfig, TimeUnit};
///
/// let ten_seconds = TimeConfig::new(TimeUnit::Second, 10).unwrap();
/// assert_eq!(ten_seconds.scale_factor(), 10);
/// assert!(TimeConfig::new(TimeUnit::Second, 0).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeConfig {
    unit: TimeUnit,
    scale_factor: u32,
}

impl TimeConfig {
    /// The largest scale factor the extension specs allow, 2³¹ − 1.
    pub const MAX_SCALE_FACTOR: u32 = i32::MAX as u32;

    /// A unit with a scale factor in `1..=2³¹−1`; `None` outside that range.
    pub const fn new(unit: TimeUnit, scale_factor: u32) -> Option<Self> {
        if scale_factor == 0 || scale_factor > Self::MAX_SCALE_FACTOR {
            None
        } else {
            Some(TimeConfig { unit, scale_factor })
        }
    }

    /// The unit.
    pub const fn unit(self) -> TimeUnit {
        self.unit
    }

    /// The scale factor, at least 1.
    pub const fn scale_factor(self) -> u32 {
        self.scale_factor
    }
}
