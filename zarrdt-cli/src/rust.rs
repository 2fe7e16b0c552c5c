//! `zarrdt rust`: the `#[derive(ZarrStruct)]` definitions whose data type is the array's.
//!
//! * Nested records become nested structs, named after their field (`velocity: Velocity`);
//!   records of the same layout share one struct.
//! * Field names that are not Rust identifiers become snake-case identifiers with
//!   `#[zarr(rename = "...")]`; keywords become raw identifiers (`r#type`).
//! * Zarr v2 subarray fields become arrays (`[f32; 3]`, `[[f32; 2]; 2]`). In Zarr v3 a Rust
//!   array is written as a struct of fields `"0"`, `"1"`, …, so such a struct whose fields all
//!   have one type becomes an array too; with fields of several types, a tuple struct.
//! * The text, bytes and time field types: `FixedString<N>`, `ByteString<N>`, `RawBytes<N>`,
//!   `DateTime64<Unit, SCALE>`, `TimeDelta64<Unit, SCALE>`.
//! * An array of scalars gets a type alias (`pub type Record = f64;`).
//! * Enum fields (named in the `zarrdt:enums` attribute) stay integers, with a comment listing
//!   the variants: a `#[derive(ZarrEnum)]` enum with those variants may be used instead.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use zarrdt::layout::{FieldPath, Layout, PathSegment, StructLayout};
use zarrdt::types::{ScalarType, TimeConfig, TimeUnit};

use crate::Failure;
use crate::enums::EnumNames;
use crate::open::Opened;

/// Checks `--name`: a Rust type name in upper camel case (a capital, then letters and digits:
/// any other draws rustc's `non_camel_case_types` warning, and a lower-case one could be a
/// primitive type, `f32` or `bool`, which a field of the struct then names, or the crate
/// `zarrdt` its paths go through), not one the generated code or the program it is pasted into
/// already uses.
pub(crate) fn parse_type_name(name: &str) -> Result<String, String> {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric())
        && !is_keyword(name);
    if !valid {
        Err(format!(
            "{name:?} is not a Rust type name in upper camel case (a capital letter, then \
             letters and digits, not a keyword: `Particle`, `Sample3`)"
        ))
    } else if name == DERIVE {
        Err(format!(
            "{name:?} is the derive the generated code imports (`use zarrdt::{DERIVE};`)"
        ))
    } else if PRELUDE.contains(&name) {
        Err(format!(
            "{name:?} would hide the prelude's `{name}` in the code it is pasted into"
        ))
    } else {
        Ok(name.to_owned())
    }
}

/// The derive the generated code imports by name.
const DERIVE: &str = "ZarrStruct";

/// The names of Rust's prelude (2015 to 2024 editions) and the derives of `std` that begin
/// with a capital: a struct of the same name would hide it from the code the generated code is
/// pasted into (`pub struct Result` breaks every `Result<T, E>`; a tuple struct `Some` every
/// `Some(x)`), so nested structs are never given them.
const PRELUDE: &[&str] = &[
    "AsMut",
    "AsRef",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Box",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "Hash",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// Keywords that cannot be raw identifiers.
fn is_reserved(name: &str) -> bool {
    matches!(name, "self" | "Self" | "super" | "crate" | "_")
}

/// The generated source for the array.
pub(crate) fn generate(opened: &Opened, name: &str) -> Result<String, Failure> {
    // What zarrs hands over is what the struct must match: packed v3 records, or the v2 dtype
    // as stored (in native byte order).
    let layout = &opened.native;
    let mut generator = Generator {
        v3: opened.zarr_format() == 3,
        structs: Vec::new(),
        names: PRELUDE
            .iter()
            .chain([&DERIVE])
            .map(|&name| name.to_owned())
            .collect(),
        enums: EnumNames::from_attributes(opened.array.attributes()),
        root: layout.clone(),
    };
    let header = format!(
        "// The records of {} (Zarr v{}), as generated by `zarrdt rust`.\n",
        opened.path,
        opened.zarr_format()
    );
    let mut code = header;
    match layout {
        Layout::Struct(structure) => {
            generator.names.insert(name.to_owned());
            generator
                .define(structure, name.to_owned(), "the record", &FieldPath::root())
                .map_err(|e| opened.fail(e))?;
            // The location as a Rust string literal: `open_store` takes it as given (a
            // directory or s3://…), and gives the node's path in its store.
            let _ = write!(
                code,
                "//\n// Read them with zarrdt (zarrs feature): \
                 `let (store, path) = zarrdt::open_store({location:?})?;` then \
                 `zarrdt::open_array(store, &path)?.retrieve_records::<{name}>(&subset)?` \
                 (with `zarrdt::ReadRecords` in scope).\n\nuse zarrdt::ZarrStruct;\n",
                location = opened.path,
            );
            for definition in &generator.structs {
                code.push('\n');
                code.push_str(&definition.code);
            }
        }
        other => {
            let rust = generator
                .type_of(other, "value", &FieldPath::root())
                .map_err(|e| opened.fail(e))?;
            let comment = generator.enum_comment(other, &FieldPath::root(), "");
            let _ = write!(
                code,
                "//\n// The elements are scalars: no struct is needed.\n\n\
                 /// One element of the array.\n{comment}pub type {name} = {rust};\n"
            );
        }
    }
    Ok(code)
}

struct Definition {
    layout: StructLayout,
    name: String,
    code: String,
}

struct Generator {
    v3: bool,
    structs: Vec<Definition>,
    /// Type names taken.
    names: BTreeSet<String>,
    /// The variants of enum fields, from the array's attributes.
    enums: EnumNames,
    /// The element's layout, in which the enum fields' paths are looked up.
    root: Layout,
}

impl Generator {
    /// Defines the struct for `structure` under `name` (already reserved), with its nested
    /// structs after it.
    fn define(
        &mut self,
        structure: &StructLayout,
        name: String,
        what: &str,
        path: &FieldPath,
    ) -> Result<(), String> {
        if let Some((from, to, next)) = first_gap(structure) {
            return Err(format!(
                "{what} has {} bytes of padding at offsets {from}..{to}{}; derived structs are \
                 packed, so no Rust struct has this layout",
                to - from,
                next.map(|n| format!(" (before field {n:?})"))
                    .unwrap_or_default()
            ));
        }
        let index = self.structs.len();
        self.structs.push(Definition {
            layout: structure.clone(),
            name: name.clone(),
            code: String::new(),
        });
        let tuple = is_tuple(structure);
        let mut fields = Vec::new();
        let mut idents = BTreeSet::new();
        for field in structure.fields() {
            let field_path = path.field(field.name());
            let rust = self.type_of(field.layout(), field.name(), &field_path)?;
            let comment = self.enum_comment(field.layout(), &field_path, "    ");
            if tuple {
                fields.push(format!("{comment}    pub {rust},\n"));
                continue;
            }
            let (ident, rename) = field_ident(field.name(), &mut idents);
            let mut text = comment;
            if rename {
                let _ = writeln!(
                    text,
                    "    #[zarr(rename = {})]",
                    string_literal(field.name())
                );
            }
            let _ = writeln!(text, "    pub {ident}: {rust},");
            fields.push(text);
        }
        let size = structure.size();
        let mut code = format!(
            "/// {} ({size} byte{}).\n#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]\n",
            comment_text(&capitalized(what)),
            if size == 1 { "" } else { "s" }
        );
        if tuple {
            let _ = write!(code, "pub struct {name}(\n{});\n", fields.concat());
        } else {
            let _ = write!(code, "pub struct {name} {{\n{}}}\n", fields.concat());
        }
        self.structs[index].code = code;
        Ok(())
    }

    /// A comment on the field at `path` (of `layout`) if it holds an enum the attributes
    /// name: its variants, and that a `#[derive(ZarrEnum)]` enum may stand for the integer.
    fn enum_comment(&self, layout: &Layout, path: &FieldPath, indent: &str) -> String {
        let Some(variants) = self.enums.of(&self.root, path) else {
            return String::new();
        };
        let Some(integer) = layout
            .leaves()
            .first()
            .and_then(|leaf| scalar_type(leaf.scalar()))
        else {
            return String::new();
        };
        format!(
            "{indent}/// An enum (attribute \"zarrdt:enums\"): {}. A `#[derive(ZarrEnum)]` \
             `#[repr({integer})]` enum with these variants may be used instead of `{integer}`.\n",
            comment_text(&variants.describe())
        )
    }

    /// The Rust type of a field of `layout` called `field`, at `path`.
    fn type_of(
        &mut self,
        layout: &Layout,
        field: &str,
        path: &FieldPath,
    ) -> Result<String, String> {
        match layout {
            Layout::Scalar(scalar) => scalar_type(scalar.scalar()).ok_or_else(|| {
                // An array of scalars has no field to name.
                let whose = if path.is_root() {
                    "the elements".to_owned()
                } else {
                    format!("field {field:?}")
                };
                format!("{whose}: zarrdt has no Rust type for {}", scalar.scalar())
            }),
            Layout::Subarray(array) => {
                // In time and memory linear in the dimensions, however many.
                let shape = array.shape();
                let mut item = path.clone();
                item.extend(shape.iter().map(|_| PathSegment::Index(0)));
                let element = self.type_of(array.element(), field, &item)?;
                let mut rust = "[".repeat(shape.len());
                rust.push_str(&element);
                for extent in shape.iter().rev() {
                    let _ = write!(rust, "; {extent}]");
                }
                Ok(rust)
            }
            Layout::Struct(structure) => {
                // A Rust array, as Zarr v3 writes it: fields "0".."n-1" of one type.
                if self.v3
                    && is_tuple(structure)
                    && let Some((first, rest)) = structure.fields().split_first()
                    && rest.iter().all(|f| f.layout() == first.layout())
                    && first_gap(structure).is_none()
                {
                    let element = self.type_of(first.layout(), field, &path.field("0"))?;
                    return Ok(format!("[{element}; {}]", structure.fields().len()));
                }
                if let Some(existing) = self.structs.iter().find(|d| &d.layout == structure) {
                    return Ok(existing.name.clone());
                }
                let name = self.type_name(field);
                self.define(structure, name.clone(), &format!("field {field:?}"), path)?;
                Ok(name)
            }
            _ => Err(format!(
                "field {field:?}: a layout zarrdt-cli does not know"
            )),
        }
    }

    /// A free type name for a struct held in field `field`: `velocity` → `Velocity`; `result`
    /// → `Result2`, as the prelude's names are taken.
    fn type_name(&mut self, field: &str) -> String {
        let mut base = camel_case(field);
        if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            base = format!("Field{base}");
        }
        let mut name = base.clone();
        let mut n = 2;
        while self.names.contains(&name) || is_keyword(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.names.insert(name.clone());
        name
    }
}

/// Whether the fields are `"0"`, `"1"`, … in order: a tuple struct's.
fn is_tuple(structure: &StructLayout) -> bool {
    structure
        .fields()
        .iter()
        .enumerate()
        .all(|(i, field)| field.name() == i.to_string())
}

/// The first gap of a record, at any depth: where it starts and ends, and the field after it.
fn first_gap(structure: &StructLayout) -> Option<(usize, usize, Option<String>)> {
    let mut end = 0;
    for field in structure.fields() {
        if field.offset() != end {
            return Some((end, field.offset(), Some(field.name().to_owned())));
        }
        end = field.offset() + field.layout().size();
    }
    (end != structure.size()).then_some((end, structure.size(), None))
}

/// The Rust type of a scalar type, if zarrdt has one.
fn scalar_type(scalar: ScalarType) -> Option<String> {
    Some(match scalar {
        ScalarType::Bool => "bool".into(),
        ScalarType::Int8 => "i8".into(),
        ScalarType::Int16 => "i16".into(),
        ScalarType::Int32 => "i32".into(),
        ScalarType::Int64 => "i64".into(),
        ScalarType::UInt8 => "u8".into(),
        ScalarType::UInt16 => "u16".into(),
        ScalarType::UInt32 => "u32".into(),
        ScalarType::UInt64 => "u64".into(),
        ScalarType::Float16 => "zarrdt::half::f16".into(),
        ScalarType::Float32 => "f32".into(),
        ScalarType::Float64 => "f64".into(),
        ScalarType::Complex64 => "zarrdt::num_complex::Complex<f32>".into(),
        ScalarType::Complex128 => "zarrdt::num_complex::Complex<f64>".into(),
        ScalarType::FixedLengthUtf32 { chars } => format!("zarrdt::FixedString<{chars}>"),
        ScalarType::NullTerminatedBytes { size } => format!("zarrdt::ByteString<{size}>"),
        ScalarType::RawBytes { size } => format!("zarrdt::RawBytes<{size}>"),
        ScalarType::DateTime64(config) => time_type("DateTime64", config),
        ScalarType::TimeDelta64(config) => time_type("TimeDelta64", config),
        // `r<N>` raw bits: zarrdt has no Rust field type for them.
        _ => return None,
    })
}

fn time_type(name: &str, config: TimeConfig) -> String {
    let unit = match config.unit() {
        TimeUnit::Year => "Years",
        TimeUnit::Month => "Months",
        TimeUnit::Week => "Weeks",
        TimeUnit::Day => "Days",
        TimeUnit::Hour => "Hours",
        TimeUnit::Minute => "Minutes",
        TimeUnit::Second => "Seconds",
        TimeUnit::Millisecond => "Milliseconds",
        TimeUnit::Microsecond => "Microseconds",
        TimeUnit::Nanosecond => "Nanoseconds",
        TimeUnit::Picosecond => "Picoseconds",
        TimeUnit::Femtosecond => "Femtoseconds",
        TimeUnit::Attosecond => "Attoseconds",
        TimeUnit::Generic => "Generic",
    };
    match config.scale_factor() {
        1 => format!("zarrdt::{name}<zarrdt::time::{unit}>"),
        scale => format!("zarrdt::{name}<zarrdt::time::{unit}, {scale}>"),
    }
}

/// The identifier of field `name` (unique among `taken`), and whether it needs a rename.
fn field_ident(name: &str, taken: &mut BTreeSet<String>) -> (String, bool) {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name != "_"
        && !is_reserved(name);
    let (mut ident, rename) = if plain && is_keyword(name) {
        (format!("r#{name}"), false)
    } else if plain {
        (name.to_owned(), false)
    } else {
        let mut ident = snake_case(name);
        if ident.is_empty() || ident == "_" {
            ident = "field".into();
        }
        if ident.starts_with(|c: char| c.is_ascii_digit()) {
            ident = format!("field_{ident}");
        }
        if is_keyword(&ident) {
            ident = if is_reserved(&ident) {
                format!("{ident}_")
            } else {
                format!("r#{ident}")
            };
        }
        (ident, true)
    };
    let base = ident.clone();
    let mut rename = rename;
    let mut n = 2;
    while taken.contains(ident.trim_start_matches("r#")) {
        // `self_` (a reserved word's) numbered `self_2`, not `self__2` (not snake case).
        ident = format!(
            "{}_{n}",
            base.trim_start_matches("r#").trim_end_matches('_')
        );
        rename = true;
        n += 1;
    }
    taken.insert(ident.trim_start_matches("r#").to_owned());
    (ident, rename)
}

/// The ASCII letters of a Latin letter with a diacritic (`é` → `e`, `ß` → `ss`), if it is one.
fn ascii_letters(c: char) -> Option<&'static str> {
    Some(match c {
        'à'..='å' => "a",
        'À'..='Å' => "A",
        'ç' => "c",
        'Ç' => "C",
        'è'..='ë' => "e",
        'È'..='Ë' => "E",
        'ì'..='ï' => "i",
        'Ì'..='Ï' => "I",
        'ñ' => "n",
        'Ñ' => "N",
        'ò'..='ö' | 'ø' => "o",
        'Ò'..='Ö' | 'Ø' => "O",
        'ù'..='ü' => "u",
        'Ù'..='Ü' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' => "Y",
        'ß' => "ss",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        _ => return None,
    })
}

/// Words of a name: runs of ASCII letters and digits (Latin letters with diacritics without
/// them), split at case changes.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    let ascii: String = name
        .chars()
        .map(|c| ascii_letters(c).map_or_else(|| c.to_string(), str::to_owned))
        .collect();
    for c in ascii.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn snake_case(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

fn camel_case(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| {
            let lower = w.to_ascii_lowercase();
            let mut chars = lower.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `text` as a Rust string literal: quotes and backslashes escaped, and every control,
/// invisible or text-direction character as `\u{..}` (rustc refuses a raw U+202E in a
/// literal, and a reader would not see it).
fn string_literal(text: &str) -> String {
    format!("{text:?}")
}

/// `text` (names from the array's metadata and attributes) as it may stand in a `///`
/// comment: on one line, its control, invisible and text-direction characters as `\u{..}`
/// (rustc refuses a raw U+202E in a comment too), quotes and backslashes as they are.
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\'' | '\\' => c.to_string(),
            _ => c.escape_debug().to_string(),
        })
        .collect()
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_literals_and_comments_are_escaped_as_rustc_takes_them() {
        assert_eq!(string_literal("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            string_literal("\u{202e}x\u{7}\u{8}"),
            r#""\u{202e}x\u{7}\u{8}""#
        );
        assert_eq!(string_literal("héé.x"), "\"héé.x\"");
        assert_eq!(comment_text("Ok\n}\nfn evil() {"), "Ok\\n}\\nfn evil() {");
        assert_eq!(comment_text("\u{2066}a\"b'\\"), "\\u{2066}a\"b'\\");
        assert_eq!(comment_text("é µ"), "é µ");
    }

    #[test]
    fn identifiers() {
        let mut taken = BTreeSet::new();
        assert_eq!(field_ident("id", &mut taken), ("id".into(), false));
        assert_eq!(field_ident("type", &mut taken), ("r#type".into(), false));
        assert_eq!(
            field_ident("foo.mask", &mut taken),
            ("foo_mask".into(), true)
        );
        assert_eq!(
            field_ident("Foo Mask", &mut taken),
            ("foo_mask_2".into(), true)
        );
        assert_eq!(field_ident("self", &mut taken), ("self_".into(), true));
        assert_eq!(field_ident("0", &mut taken), ("field_0".into(), true));
        assert_eq!(
            field_ident("température", &mut taken),
            ("temperature".into(), true)
        );
        assert_eq!(
            field_ident("camelCase", &mut taken),
            ("camel_case".into(), true)
        );
        assert_eq!(camel_case("velocity"), "Velocity");
        assert_eq!(camel_case("foo.mask"), "FooMask");
        assert_eq!(camel_case("sub_record"), "SubRecord");
        assert!(parse_type_name("Particle").is_ok());
        assert!(parse_type_name("Sample3").is_ok());
        // Keywords, primitive types, the crate, names that are not upper camel case.
        for name in [
            "type", "9a", "Self", "f32", "bool", "u8", "zarrdt", "record", "Foo_bar", "_A", "",
        ] {
            assert!(parse_type_name(name).is_err(), "{name}");
        }
        // A reserved word's field numbered after it.
        let mut taken = BTreeSet::new();
        assert_eq!(field_ident("self", &mut taken), ("self_".into(), true));
        assert_eq!(field_ident("Self", &mut taken), ("self_2".into(), true));
        assert_eq!(field_ident("self_", &mut taken), ("self_3".into(), true));
    }
}
