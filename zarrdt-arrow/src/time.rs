//! NumPy's `datetime64` and `timedelta64` counts as Arrow timestamps and durations: the Arrow
//! unit of each NumPy unit and scale, and exact conversion of counts both ways.
//!
//! A count of `scale × unit` becomes a count of the nearest Arrow unit that divides it (the
//! unit itself for `s`, `ms`, `us`, `ns`; the second for minutes, hours, days and weeks; the
//! nanosecond for `ps`, `fs` and `as` when the scale makes a whole number of nanoseconds), so
//! export multiplies by an integer. `datetime64` of years and months become seconds at the
//! start of the year or month (proleptic Gregorian, as NumPy counts). Anything else has no
//! exact Arrow form and is refused.

use arrow_schema::TimeUnit as ArrowUnit;
use zarrdt_core::{TimeConfig, TimeUnit};

/// Attoseconds in one unit, for the units of fixed length.
fn attoseconds(unit: TimeUnit) -> Option<i128> {
    const SECOND: i128 = 1_000_000_000_000_000_000;
    Some(match unit {
        TimeUnit::Week => 604_800 * SECOND,
        TimeUnit::Day => 86_400 * SECOND,
        TimeUnit::Hour => 3_600 * SECOND,
        TimeUnit::Minute => 60 * SECOND,
        TimeUnit::Second => SECOND,
        TimeUnit::Millisecond => SECOND / 1_000,
        TimeUnit::Microsecond => SECOND / 1_000_000,
        TimeUnit::Nanosecond => SECOND / 1_000_000_000,
        TimeUnit::Picosecond => 1_000_000,
        TimeUnit::Femtosecond => 1_000,
        TimeUnit::Attosecond => 1,
        TimeUnit::Year | TimeUnit::Month | TimeUnit::Generic => return None,
    })
}

/// Attoseconds in one Arrow unit.
fn arrow_attoseconds(unit: ArrowUnit) -> i128 {
    match unit {
        ArrowUnit::Second => 1_000_000_000_000_000_000,
        ArrowUnit::Millisecond => 1_000_000_000_000_000,
        ArrowUnit::Microsecond => 1_000_000_000_000,
        ArrowUnit::Nanosecond => 1_000_000_000,
    }
}

/// How one NumPy count becomes an Arrow value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scale {
    /// Arrow value = count × factor.
    Factor(i64),
    /// Arrow value = the second at which month `count × months` after January 1970 starts.
    Months(i64),
}

/// The Arrow form of a `datetime64` or `timedelta64` type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeMap {
    /// The Arrow unit.
    pub(crate) unit: ArrowUnit,
    /// How counts convert.
    pub(crate) scale: Scale,
    /// NumPy's unit and scale, to convert back.
    config: TimeConfig,
}

/// Why a time type has no Arrow form.
pub(crate) fn time_map(config: TimeConfig, is_datetime: bool) -> Result<TimeMap, String> {
    let scale = i64::from(config.scale_factor());
    let kind = if is_datetime {
        "datetime64"
    } else {
        "timedelta64"
    };
    let name = if scale == 1 {
        format!("{kind}[{}]", config.unit())
    } else {
        format!("{kind}[{scale}{}]", config.unit())
    };
    match config.unit() {
        TimeUnit::Generic => Err(format!(
            "{name}: NumPy's generic time unit has no Arrow form (give the type a unit)"
        )),
        TimeUnit::Year | TimeUnit::Month if !is_datetime => Err(format!(
            "{name}: years and months have no fixed length, and Arrow durations need one"
        )),
        TimeUnit::Year => Ok(TimeMap {
            unit: ArrowUnit::Second,
            scale: Scale::Months(12 * scale),
            config,
        }),
        TimeUnit::Month => Ok(TimeMap {
            unit: ArrowUnit::Second,
            scale: Scale::Months(scale),
            config,
        }),
        unit => {
            let arrow = match unit {
                TimeUnit::Millisecond => ArrowUnit::Millisecond,
                TimeUnit::Microsecond => ArrowUnit::Microsecond,
                TimeUnit::Nanosecond
                | TimeUnit::Picosecond
                | TimeUnit::Femtosecond
                | TimeUnit::Attosecond => ArrowUnit::Nanosecond,
                _ => ArrowUnit::Second,
            };
            let length = attoseconds(unit).unwrap_or(1) * i128::from(scale);
            let per = arrow_attoseconds(arrow);
            if length % per != 0 {
                return Err(format!(
                    "{name} is not a whole number of nanoseconds, Arrow's finest unit; \
                     no Arrow type holds it exactly"
                ));
            }
            let factor = i64::try_from(length / per).map_err(|_| format!("{name}: too long"))?;
            Ok(TimeMap {
                unit: arrow,
                scale: Scale::Factor(factor),
                config,
            })
        }
    }
}

impl TimeMap {
    /// The Arrow value of NumPy count `count` (not NaT); `None` if it is out of Arrow's range.
    #[inline]
    pub(crate) fn arrow_value(self, count: i64) -> Option<i64> {
        match self.scale {
            Scale::Factor(factor) => count.checked_mul(factor),
            Scale::Months(months) => {
                let months = i128::from(count) * i128::from(months);
                let year = months.div_euclid(12) + 1970;
                let month = months.rem_euclid(12) + 1;
                let days = days_from_civil(year, month, 1)?;
                i64::try_from(days.checked_mul(86_400)?).ok()
            }
        }
    }

    /// The NumPy count of Arrow value `value` in `unit` (any Arrow unit, not only this map's);
    /// an error (for a message) unless it is a whole number of NumPy units within range.
    pub(crate) fn count_of(self, unit: ArrowUnit, value: i64) -> Result<i64, String> {
        let config = self.config;
        let whole = |what: &str| {
            let scale = config.scale_factor();
            let count = if scale == 1 {
                String::new()
            } else {
                format!("{scale} ")
            };
            format!(
                "{value} {} is not a whole number of {count}{what}",
                unit_name(unit)
            )
        };
        match self.scale {
            Scale::Months(months) => {
                // Arrow units per second (the second is Arrow's longest unit).
                let per_second = arrow_attoseconds(ArrowUnit::Second) / arrow_attoseconds(unit);
                let value = i128::from(value);
                let what = if matches!(config.unit(), TimeUnit::Year) {
                    "years"
                } else {
                    "months"
                };
                if value % per_second != 0 {
                    return Err(whole(what));
                }
                let seconds = value / per_second;
                if seconds.rem_euclid(86_400) != 0 {
                    return Err(whole(what));
                }
                let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
                if day != 1 {
                    return Err(whole(what));
                }
                let total = (year - 1970) * 12 + (month - 1);
                let months = i128::from(months);
                if total % months != 0 {
                    return Err(whole(what));
                }
                i64::try_from(total / months).map_err(|_| format!("{value} is out of range"))
            }
            Scale::Factor(_) => {
                let numpy =
                    attoseconds(config.unit()).unwrap_or(1) * i128::from(config.scale_factor());
                let arrow = arrow_attoseconds(unit);
                let divisor = gcd(numpy, arrow);
                let (multiply, divide) = (arrow / divisor, numpy / divisor);
                let value = i128::from(value);
                if value % divide != 0 {
                    return Err(whole(config.unit().as_str()));
                }
                (value / divide)
                    .checked_mul(multiply)
                    .and_then(|count| i64::try_from(count).ok())
                    .ok_or_else(|| format!("{value} {} is out of range", unit_name(unit)))
            }
        }
    }
}

/// The spelling of an Arrow unit in messages.
pub(crate) fn unit_name(unit: ArrowUnit) -> &'static str {
    match unit {
        ArrowUnit::Second => "s",
        ArrowUnit::Millisecond => "ms",
        ArrowUnit::Microsecond => "us",
        ArrowUnit::Nanosecond => "ns",
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

/// Days from 1970-01-01 to `year-month-day` in the proleptic Gregorian calendar; `None` far
/// beyond any date an `i64` count of seconds reaches.
fn days_from_civil(year: i128, month: i128, day: i128) -> Option<i128> {
    if year.unsigned_abs() > 1 << 80 {
        return None;
    }
    // Years counted from March, so that the leap day ends the year.
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let march_month = (month + 9) % 12;
    let day_of_year = (153 * march_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// The date `days` after 1970-01-01: (year, month, day).
fn civil_from_days(days: i128) -> (i128, i128, i128) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    };
    let year = year_of_era + era * 400 + i128::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn config(unit: TimeUnit, scale: u32) -> TimeConfig {
        TimeConfig::new(unit, scale).unwrap()
    }

    #[test]
    fn units_and_factors() {
        let map = |unit, scale| time_map(config(unit, scale), true).unwrap();
        assert_eq!(map(TimeUnit::Second, 10).unit, ArrowUnit::Second);
        assert_eq!(map(TimeUnit::Second, 10).scale, Scale::Factor(10));
        assert_eq!(map(TimeUnit::Day, 1).scale, Scale::Factor(86_400));
        assert_eq!(map(TimeUnit::Week, 2).scale, Scale::Factor(1_209_600));
        assert_eq!(map(TimeUnit::Millisecond, 1).unit, ArrowUnit::Millisecond);
        assert_eq!(map(TimeUnit::Picosecond, 1000).unit, ArrowUnit::Nanosecond);
        assert_eq!(map(TimeUnit::Picosecond, 1000).scale, Scale::Factor(1));
        assert_eq!(
            map(TimeUnit::Attosecond, 2_000_000_000).scale,
            Scale::Factor(2)
        );
        let refused = time_map(config(TimeUnit::Picosecond, 7), true).unwrap_err();
        assert!(refused.contains("datetime64[7ps]"), "{refused}");
        assert!(refused.contains("nanoseconds"), "{refused}");
        let refused = time_map(config(TimeUnit::Month, 1), false).unwrap_err();
        assert!(refused.contains("timedelta64[M]"), "{refused}");
        assert!(time_map(config(TimeUnit::Generic, 1), true).is_err());
    }

    #[test]
    fn calendar_round_trips() {
        for days in (-1_000_000..1_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), Some(days));
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn months_and_years_convert_exactly() {
        let months = time_map(config(TimeUnit::Month, 1), true).unwrap();
        // 2000-03 is 362 months after 1970-01.
        let seconds = months.arrow_value(362).unwrap();
        assert_eq!(seconds, 11_017 * 86_400);
        assert_eq!(months.count_of(ArrowUnit::Second, seconds), Ok(362));
        assert_eq!(
            months.count_of(ArrowUnit::Millisecond, seconds * 1000),
            Ok(362)
        );
        assert!(months.count_of(ArrowUnit::Second, seconds + 1).is_err());
        let years = time_map(config(TimeUnit::Year, 1), true).unwrap();
        for count in [-5000, -1, 0, 1, 30, 8000] {
            let seconds = years.arrow_value(count).unwrap();
            assert_eq!(years.count_of(ArrowUnit::Second, seconds), Ok(count));
        }
        assert_eq!(years.arrow_value(i64::MAX), None);
        let decades = time_map(config(TimeUnit::Year, 10), true).unwrap();
        let seconds = years.arrow_value(10).unwrap();
        assert_eq!(decades.count_of(ArrowUnit::Second, seconds), Ok(1));
        let err = decades
            .count_of(ArrowUnit::Second, years.arrow_value(3).unwrap())
            .unwrap_err();
        assert!(err.contains("whole number of 10 years"), "{err}");
    }

    #[test]
    fn fixed_units_convert_exactly() {
        let tens = time_map(config(TimeUnit::Second, 10), true).unwrap();
        assert_eq!(tens.arrow_value(17), Some(170));
        assert_eq!(tens.arrow_value(i64::MAX), None);
        assert_eq!(tens.count_of(ArrowUnit::Second, 170), Ok(17));
        assert_eq!(tens.count_of(ArrowUnit::Millisecond, 170_000), Ok(17));
        assert!(tens.count_of(ArrowUnit::Second, 171).is_err());
        let days = time_map(config(TimeUnit::Day, 1), false).unwrap();
        assert_eq!(
            days.count_of(ArrowUnit::Nanosecond, 86_400_000_000_000),
            Ok(1)
        );
        let nanos = time_map(config(TimeUnit::Nanosecond, 1), true).unwrap();
        assert_eq!(nanos.count_of(ArrowUnit::Second, 3), Ok(3_000_000_000));
        assert!(nanos.count_of(ArrowUnit::Second, i64::MAX).is_err());
        let picos = time_map(config(TimeUnit::Picosecond, 1000), true).unwrap();
        assert_eq!(picos.count_of(ArrowUnit::Nanosecond, 5), Ok(5));
    }
}
