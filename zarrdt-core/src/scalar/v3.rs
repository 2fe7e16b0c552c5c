//! Zarr v3 names and configurations of scalar types: core types as bare strings, the extension
//! types as objects with a `configuration`.

use serde_json::{Map, Value as Json, json};

use super::{ByteSize, CharCount, ScalarType, TimeConfig, TimeUnit};
use crate::numeric::numeric_kinds;

/// Names of variable-length types, which have no fixed size and so cannot be used here.
const VARIABLE_LENGTH: [&str; 4] = [
    "string",
    "bytes",
    "variable_length_utf8",
    "variable_length_bytes",
];

impl ScalarType {
    /// The Zarr v3 JSON of this type: a bare string for core types, an object with
    /// `configuration` for the extension types.
    pub fn to_v3_json(self) -> Json {
        let name = self.name();
        match self {
            ScalarType::DateTime64(config) | ScalarType::TimeDelta64(config) => json!({
                "name": name,
                "configuration": {"unit": config.unit().as_str(), "scale_factor": config.scale_factor()}
            }),
            ScalarType::FixedLengthUtf32 { .. }
            | ScalarType::RawBytes { .. }
            | ScalarType::NullTerminatedBytes { .. } => json!({
                "name": name,
                "configuration": {"length_bytes": self.size()}
            }),
            _ => Json::String(name),
        }
    }

    /// The type as messages name it: its v3 name, with its configuration where it has one
    /// (`fixed_length_utf32 (length_bytes 16)`, `numpy.datetime64 (unit "s", scale_factor
    /// 10)`), so that two types of one name are told apart.
    pub(crate) fn describe(self) -> String {
        let json = self.to_v3_json();
        let Some(configuration) = json.get("configuration").and_then(Json::as_object) else {
            return self.name();
        };
        let settings: Vec<String> = configuration
            .iter()
            .map(|(key, value)| format!("{key} {value}"))
            .collect();
        format!("{} ({})", self.name(), settings.join(", "))
    }
}

/// The scalar type called `name` with `configuration` in v3 metadata: `Ok(None)` if `name` is
/// no scalar type (it may be a struct), `Err(reason)` if it is one but the configuration is
/// wrong or the type is not supported.
pub(crate) fn parse(
    name: &str,
    configuration: Option<&Map<String, Json>>,
) -> Result<Option<ScalarType>, String> {
    if let Some(scalar) = parse_unconfigured(name) {
        return match configuration {
            Some(configuration) if !configuration.is_empty() => {
                Err(format!("{name} takes no configuration"))
            }
            _ => Ok(Some(scalar)),
        };
    }
    if name.starts_with('r') && name[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            "raw types are r<N> with N a positive multiple of 8 (no leading zeros), at most r17179869176"
                .into(),
        );
    }
    if VARIABLE_LENGTH.contains(&name) {
        return Err(format!(
            "{name} is a variable-length type; only fixed-size types are supported"
        ));
    }
    let needs_configuration = || format!("{name} needs a \"configuration\"");
    let scalar = match name {
        "numpy.datetime64" | "numpy.timedelta64" => {
            let configuration = configuration.ok_or_else(needs_configuration)?;
            let config = parse_time_config(configuration)?;
            if name == "numpy.datetime64" {
                ScalarType::DateTime64(config)
            } else {
                ScalarType::TimeDelta64(config)
            }
        }
        "fixed_length_utf32" => {
            let length = parse_length_bytes(configuration.ok_or_else(needs_configuration)?)?;
            if length % 4 != 0 {
                return Err("length_bytes of fixed_length_utf32 must be a multiple of 4".into());
            }
            ScalarType::FixedLengthUtf32 {
                chars: CharCount::new(length / 4)
                    .ok_or("length_bytes of fixed_length_utf32 is out of range")?,
            }
        }
        "raw_bytes" | "null_terminated_bytes" => {
            let length = parse_length_bytes(configuration.ok_or_else(needs_configuration)?)?;
            let size = ByteSize::new(length).ok_or("length_bytes is out of range")?;
            if name == "raw_bytes" {
                ScalarType::RawBytes { size }
            } else {
                ScalarType::NullTerminatedBytes { size }
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(scalar))
}

/// Core types and `r<N>`: the types named by a bare string.
fn parse_unconfigured(name: &str) -> Option<ScalarType> {
    macro_rules! parse {
        ($($ty:ty => $variant:ident $name:literal;)*) => {
            match name {
                $($name => ScalarType::$variant,)*
                _ => {
                    let digits = name.strip_prefix('r')?;
                    if digits.is_empty()
                        || digits.starts_with('0')
                        || !digits.bytes().all(|b| b.is_ascii_digit())
                    {
                        return None;
                    }
                    return ScalarType::raw_bits(digits.parse().ok()?);
                }
            }
        };
    }
    Some(numeric_kinds!(parse! { bool => Bool "bool"; }))
}

/// Checks that `configuration` has exactly the members `allowed`.
pub(crate) fn check_keys(
    configuration: &Map<String, Json>,
    allowed: &[&str],
) -> Result<(), String> {
    if let Some(key) = configuration
        .keys()
        .find(|key| !allowed.contains(&key.as_str()))
    {
        return Err(format!(
            "unexpected configuration member {key:?} (allowed: {allowed:?})"
        ));
    }
    match allowed
        .iter()
        .find(|key| !configuration.contains_key(**key))
    {
        Some(key) => Err(format!("configuration member {key:?} is missing")),
        None => Ok(()),
    }
}

fn parse_time_config(configuration: &Map<String, Json>) -> Result<TimeConfig, String> {
    check_keys(configuration, &["unit", "scale_factor"])?;
    let unit: TimeUnit = configuration["unit"]
        .as_str()
        .ok_or("unit must be a string")?
        .parse()
        .map_err(|e| format!("{e}"))?;
    configuration["scale_factor"]
        .as_u64()
        .and_then(|scale| u32::try_from(scale).ok())
        .and_then(|scale| TimeConfig::new(unit, scale))
        .ok_or_else(|| "scale_factor must be an integer in 1..=2147483647".into())
}

fn parse_length_bytes(configuration: &Map<String, Json>) -> Result<usize, String> {
    check_keys(configuration, &["length_bytes"])?;
    configuration["length_bytes"]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| "length_bytes must be a positive integer".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_names() {
        assert_eq!(parse_unconfigured("r8"), ScalarType::raw_bits(8));
        assert_eq!(parse_unconfigured("r24"), ScalarType::raw_bits(24));
        for bad in [
            "r",
            "r0",
            "r7",
            "r08",
            "r+8",
            "r-8",
            "R8",
            "r8 ",
            "r18446744073709551616",
        ] {
            assert_eq!(parse_unconfigured(bad), None, "{bad}");
        }
    }

    #[test]
    fn sizes_beyond_the_limit_are_errors() {
        let config = |n: u64| json!({"length_bytes": n}).as_object().cloned();
        for name in ["raw_bytes", "null_terminated_bytes", "fixed_length_utf32"] {
            let err = parse(name, config(1 << 40).as_ref()).unwrap_err();
            assert!(err.contains("out of range"), "{name}: {err}");
        }
    }
}
