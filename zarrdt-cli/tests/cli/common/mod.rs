//! Running the built `zarrdt` binary, and reading its JSON independently of the library.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use base64::Engine as _;
use serde_json::{Value as Json, json};
use zarrdt::Endian;
use zarrdt::layout::Layout;
use zarrdt::types::{DataType, ScalarType};

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `zarrdt` with `args`.
pub fn zarrdt<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run(Command::new(env!("CARGO_BIN_EXE_zarrdt")).args(args))
}

/// Runs `zarrdt` with `args` in the directory `dir`.
pub fn zarrdt_in<I, S>(dir: &Path, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run(Command::new(env!("CARGO_BIN_EXE_zarrdt"))
        .args(args)
        .current_dir(dir))
}

fn run(command: &mut Command) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = command.env("RUST_BACKTRACE", "1").output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

impl Run {
    /// The run succeeded with nothing on stderr; its stdout.
    pub fn ok(self) -> String {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        assert_eq!(self.stderr, "");
        self.stdout
    }

    /// The run succeeded; its stdout as JSON.
    pub fn json(self) -> Json {
        let text = self.ok();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
    }

    /// The run failed with `code` and one line on stderr (no panic, no backtrace), which
    /// names `path` and says `problem`.
    pub fn fails(self, code: i32, path: &str, problem: &str) {
        assert_eq!(
            self.code, code,
            "stderr: {}\nstdout: {}",
            self.stderr, self.stdout
        );
        let lines: Vec<&str> = self.stderr.lines().collect();
        if code == 1 {
            assert_eq!(lines.len(), 1, "one line on stderr: {:?}", self.stderr);
            assert!(lines[0].starts_with("zarrdt: "), "{}", self.stderr);
        }
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        assert!(!self.stderr.contains("backtrace"), "{}", self.stderr);
        assert!(self.stderr.contains(path), "names {path}: {}", self.stderr);
        assert!(
            self.stderr.contains(problem),
            "says {problem:?}: {}",
            self.stderr
        );
    }
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("zarrdt-cli-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The layout the `data_type` of a dump describes its values in (little-endian; the values
/// are JSON, so the byte order does not matter).
pub fn dump_layout(data_type: &Json) -> Layout {
    if data_type.is_array()
        || data_type
            .as_str()
            .is_some_and(|s| s.starts_with(['<', '>', '|']))
    {
        return Layout::from_v2_json(data_type).unwrap();
    }
    let data_type = DataType::from_v3_json(data_type).unwrap();
    let endian = data_type.has_endianness().then_some(Endian::Little);
    Layout::from_data_type(&data_type, endian).unwrap()
}

/// A dumped element in the form the fixtures' sidecars record zarr-python's reading: floats as
/// their bit patterns (`"0x3ff0000000000000"`), bytes as full-width hex; computed from the
/// dump's JSON alone.
pub fn sidecar_form(layout: &Layout, json: &Json) -> Json {
    match layout {
        Layout::Struct(structure) => {
            let object = json
                .as_object()
                .unwrap_or_else(|| panic!("a record: {json}"));
            let names: Vec<&String> = object.keys().collect();
            let fields: Vec<&str> = structure.fields().iter().map(|f| f.name()).collect();
            assert_eq!(names, fields, "members in field order");
            Json::Object(
                structure
                    .fields()
                    .iter()
                    .map(|f| {
                        (
                            f.name().to_owned(),
                            sidecar_form(f.layout(), &json[f.name()]),
                        )
                    })
                    .collect(),
            )
        }
        Layout::Subarray(array) => nested(array.shape(), array.element(), json),
        Layout::Scalar(scalar) => scalar_form(scalar.scalar(), json),
        other => panic!("{other:?}"),
    }
}

fn nested(shape: &[usize], element: &Layout, json: &Json) -> Json {
    match shape.split_first() {
        None => sidecar_form(element, json),
        Some((&extent, rest)) => {
            let items = json.as_array().unwrap();
            assert_eq!(items.len(), extent, "subarray extent: {json}");
            Json::Array(
                items
                    .iter()
                    .map(|item| nested(rest, element, item))
                    .collect(),
            )
        }
    }
}

/// A float leaf of the dump: a number (shortest round trip), `"NaN"` (canonical), `"0x…"`
/// (lowercase, full width), `"Infinity"`, `"-Infinity"`; as bits.
fn float_bits(json: &Json, size: usize) -> u64 {
    let (nan, inf, neg_inf): (u64, u64, u64) = match size {
        2 => (0x7e00, 0x7c00, 0xfc00),
        4 => (0x7fc0_0000, 0x7f80_0000, 0xff80_0000),
        _ => (
            0x7ff8_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
        ),
    };
    match json {
        Json::String(text) if text == "NaN" => nan,
        Json::String(text) if text == "Infinity" => inf,
        Json::String(text) if text == "-Infinity" => neg_inf,
        Json::String(text) => {
            let hex = text
                .strip_prefix("0x")
                .unwrap_or_else(|| panic!("float {text}"));
            assert_eq!(hex.len(), 2 * size, "full width: {text}");
            assert_eq!(hex, hex.to_lowercase(), "lowercase: {text}");
            let bits = u64::from_str_radix(hex, 16).unwrap();
            let exponent_all_ones = match size {
                2 => bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0,
                4 => bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x7f_ffff != 0,
                _ => f64::from_bits(bits).is_nan(),
            };
            assert!(exponent_all_ones, "hex only for NaNs: {text}");
            assert_ne!(bits, nan, "the canonical NaN is \"NaN\": {text}");
            bits
        }
        Json::Number(number) => {
            let text = number.to_string();
            match size {
                2 => u64::from(half::f16::from_f64(text.parse::<f64>().unwrap()).to_bits()),
                4 => u64::from(text.parse::<f32>().unwrap().to_bits()),
                _ => text.parse::<f64>().unwrap().to_bits(),
            }
        }
        other => panic!("not a float: {other}"),
    }
}

fn hex_form(bits: u64, size: usize) -> Json {
    json!(format!("0x{bits:0width$x}", width = 2 * size))
}

fn scalar_form(scalar: ScalarType, json: &Json) -> Json {
    match scalar {
        ScalarType::Float16 | ScalarType::Float32 | ScalarType::Float64 => {
            hex_form(float_bits(json, scalar.size()), scalar.size())
        }
        ScalarType::Complex64 | ScalarType::Complex128 => {
            let parts = json.as_array().unwrap();
            assert_eq!(parts.len(), 2, "[re, im]: {json}");
            let half_size = scalar.size() / 2;
            json!([
                hex_form(float_bits(&parts[0], half_size), half_size),
                hex_form(float_bits(&parts[1], half_size), half_size)
            ])
        }
        ScalarType::Raw { .. }
        | ScalarType::RawBytes { .. }
        | ScalarType::NullTerminatedBytes { .. } => {
            let mut bytes = base64::engine::general_purpose::STANDARD
                .decode(json.as_str().unwrap())
                .unwrap();
            assert!(bytes.len() <= scalar.size());
            bytes.resize(scalar.size(), 0);
            json!(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
        }
        _ => {
            assert!(
                json.is_number() || json.is_boolean() || json.is_string(),
                "{json}"
            );
            json.clone()
        }
    }
}

/// The elements of `values` (nested like `shape`), in C order.
pub fn flatten(values: &Json, dimensions: usize) -> Vec<Json> {
    if dimensions == 0 {
        return vec![values.clone()];
    }
    values
        .as_array()
        .unwrap_or_else(|| panic!("a list: {values}"))
        .iter()
        .flat_map(|item| flatten(item, dimensions - 1))
        .collect()
}
