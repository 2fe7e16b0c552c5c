//! `--select`: index ranges per dimension, Python slices with a step of 1 or none.

use std::ops::Range;

/// One dimension's range as written: `start:stop` with either end optional and negative
/// values counting from the end, or one index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RangeSpec {
    /// `start:stop`.
    Slice(Option<i64>, Option<i64>),
    /// One index: a range of length one (the dimension is kept).
    Index(i64),
}

/// `--select` as written: one range per leading dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionSpec(Vec<RangeSpec>);

/// Parses `2:5,0:3`, `:10`, `-5:`, `7`, `:` (and `::`, `2:5:1`: a step of 1).
pub(crate) fn parse_selection(text: &str) -> Result<SelectionSpec, String> {
    let mut ranges = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let number = |s: &str| -> Result<Option<i64>, String> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<i64>()
                .map(Some)
                .map_err(|error| match error.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                        format!("{s:?} is out of range for an index (in {part:?})")
                    }
                    _ => format!("{s:?} is not an index (in {part:?})"),
                })
        };
        let range = match part.split_once(':') {
            Some((start, rest)) => {
                // A step as Python writes it, left out (`::`, `2:5:`) or 1, is every index.
                let stop = match rest.split_once(':') {
                    None => rest,
                    Some((_, step)) if step.contains(':') => {
                        return Err(format!(
                            "{part:?} is no range: write start:stop (or start:stop:1)"
                        ));
                    }
                    Some((stop, step)) => match number(step)? {
                        None | Some(1) => stop,
                        Some(_) => {
                            return Err(format!(
                                "{part:?}: steps other than 1 are not supported, use start:stop"
                            ));
                        }
                    },
                };
                RangeSpec::Slice(number(start)?, number(stop)?)
            }
            None => match number(part)? {
                Some(index) => RangeSpec::Index(index),
                None => return Err("empty range: write start:stop, or : for all".into()),
            },
        };
        ranges.push(range);
    }
    Ok(SelectionSpec(ranges))
}

impl SelectionSpec {
    /// The ranges in `shape`; an error (for the user) if there are more ranges than dimensions,
    /// or a range is out of bounds.
    pub(crate) fn resolve(&self, shape: &[u64]) -> Result<Vec<Range<u64>>, String> {
        if self.0.len() > shape.len() {
            return Err(format!(
                "--select has {} range{}, but the array has {} dimension{}",
                self.0.len(),
                if self.0.len() == 1 { "" } else { "s" },
                shape.len(),
                if shape.len() == 1 { "" } else { "s" }
            ));
        }
        let mut ranges = Vec::with_capacity(shape.len());
        for (dim, &length) in shape.iter().enumerate() {
            let spec = self
                .0
                .get(dim)
                .cloned()
                .unwrap_or(RangeSpec::Slice(None, None));
            let out_of_range = |what: &str| {
                format!("--select {what} is out of range for dimension {dim} of length {length}")
            };
            // Negative values count from the end, as in Python.
            let absolute = |value: i64| -> Option<u64> {
                if value < 0 {
                    length.checked_sub(value.unsigned_abs())
                } else {
                    Some(value.unsigned_abs())
                }
            };
            let range = match spec {
                RangeSpec::Index(index) => {
                    let at = absolute(index)
                        .filter(|&at| at < length)
                        .ok_or_else(|| out_of_range(&format!("index {index}")))?;
                    at..at + 1
                }
                RangeSpec::Slice(start, stop) => {
                    let show = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
                    let text = format!("{}:{}", show(start), show(stop));
                    let start = match start {
                        None => 0,
                        Some(v) => absolute(v)
                            .filter(|&s| s <= length)
                            .ok_or_else(|| out_of_range(&text))?,
                    };
                    let stop = match stop {
                        None => length,
                        Some(v) => absolute(v)
                            .filter(|&s| s <= length)
                            .ok_or_else(|| out_of_range(&text))?,
                    };
                    if stop < start {
                        return Err(format!(
                            "--select {text} is empty in dimension {dim} (stop before start)"
                        ));
                    }
                    start..stop
                }
            };
            ranges.push(range);
        }
        Ok(ranges)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_and_resolves() {
        let spec = parse_selection("2:5,0:3").unwrap();
        assert_eq!(spec.resolve(&[10, 4, 7]).unwrap(), [2..5, 0..3, 0..7]);
        let spec = parse_selection("-3:,7").unwrap();
        assert_eq!(spec.resolve(&[10, 8]).unwrap(), [7..10, 7..8]);
        assert_eq!(parse_selection(":").unwrap().resolve(&[4]).unwrap(), [0..4]);
        assert!(parse_selection("1:2:3").is_err());
        assert!(parse_selection("1:2:0").is_err());
        let error = parse_selection("1:2:1:").unwrap_err();
        assert!(error.contains("is no range"), "{error}");
        for (text, ranges) in [
            ("::", [0..4]),
            ("1:3:", [1..3]),
            ("1:3:1", [1..3]),
            ("1:3:+1", [1..3]),
            (" : : ", [0..4]),
            (":-1:", [0..3]),
        ] {
            assert_eq!(
                parse_selection(text).unwrap().resolve(&[4]).unwrap(),
                ranges,
                "{text}"
            );
        }
        assert!(parse_selection("a:b").is_err());
        assert!(parse_selection("").is_err());
        let err = parse_selection("0:11").unwrap().resolve(&[10]).unwrap_err();
        assert!(
            err.contains("out of range for dimension 0 of length 10"),
            "{err}"
        );
        assert!(parse_selection("10").unwrap().resolve(&[10]).is_err());
        assert!(parse_selection("1,2").unwrap().resolve(&[10]).is_err());
        assert!(parse_selection("5:2").unwrap().resolve(&[10]).is_err());
        assert!(parse_selection("-11:").unwrap().resolve(&[10]).is_err());
    }
}
