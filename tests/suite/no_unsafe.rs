//! No `unsafe` in our crates (issue 12): every crate root forbids it (so no module can allow
//! it back), the workspace lints forbid it in every target, and no source file of ours holds
//! the keyword. That the derive emits none is checked on its expansions (`zarrdt-derive`'s
//! unit test) and by compiling derived structs under `#![forbid(unsafe_code)]`
//! (`tests/suite/generated_code`, `tests/renamed-dependency`, and this file).

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use zarrdt::time::Milliseconds;
use zarrdt::{DateTime64, FixedString, ZarrStruct};

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The crate roots of every package of the workspace.
const ROOTS: [&str; 8] = [
    "src/lib.rs",
    "zarrdt-core/src/lib.rs",
    "zarrdt-derive/src/lib.rs",
    "zarrdt-zarrs/src/lib.rs",
    "zarrdt-arrow/src/lib.rs",
    "zarrdt-cli/src/main.rs",
    "zarrdt-cli/src/lib.rs",
    "tests/renamed-dependency/src/main.rs",
];

#[test]
fn every_crate_root_forbids_unsafe_code() {
    for root in ROOTS {
        let path = workspace().join(root);
        if root == "zarrdt-cli/src/lib.rs" && !path.exists() {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.lines()
                .any(|line| line.trim() == "#![forbid(unsafe_code)]"),
            "{root} does not forbid unsafe code"
        );
    }
}

#[test]
fn the_workspace_lints_forbid_unsafe_code_in_every_package() {
    let manifest = fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let lints = manifest
        .split("[workspace.lints.rust]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    assert!(
        lints
            .lines()
            .any(|l| l.replace(' ', "") == "unsafe_code=\"forbid\""),
        "{lints}"
    );
    let members = [
        "Cargo.toml",
        "zarrdt-core/Cargo.toml",
        "zarrdt-derive/Cargo.toml",
        "zarrdt-zarrs/Cargo.toml",
        "zarrdt-arrow/Cargo.toml",
        "zarrdt-cli/Cargo.toml",
    ];
    for member in members {
        let text = fs::read_to_string(workspace().join(member)).unwrap();
        assert!(
            text.contains("[lints]\nworkspace = true"),
            "{member} does not take the workspace lints"
        );
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without `//` comments and string literals (roughly: enough for this check).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut previous = ' ';
        let mut kept = String::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_string && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && previous != '\\' {
                in_string = !in_string;
            } else if !in_string {
                kept.push(c);
            }
            previous = if previous == '\\' && c == '\\' {
                ' '
            } else {
                c
            };
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

#[test]
fn no_source_of_ours_says_unsafe() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "zarrdt-core/src",
        "zarrdt-derive/src",
        "zarrdt-zarrs/src",
        "zarrdt-arrow/src",
        "zarrdt-cli/src",
    ] {
        sources(&workspace().join(dir), &mut files);
    }
    assert!(files.len() > 40, "{} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let code = code(&fs::read_to_string(file).unwrap());
        for (number, line) in code.lines().enumerate() {
            let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            if words.into_iter().any(|word| word == "unsafe") {
                found.push(format!("{}:{}", file.display(), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "unsafe in {found:?}");
}

// Derived structs of every kind, compiled under this file's `#![forbid(unsafe_code)]`.

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Inner {
    x: f32,
    flags: [bool; 2],
}

#[derive(ZarrStruct, Clone, Debug, Default)]
#[zarr(rename_all = "camelCase")]
struct Outer {
    inner_record: Inner,
    name: FixedString<4>,
    at: DateTime64<Milliseconds>,
    #[zarr(rename = "h")]
    half: half::f16,
    #[zarr(skip)]
    note: String,
}

#[test]
fn derived_structs_compile_with_unsafe_code_forbidden() {
    use zarrdt::{Endian, ZarrType};
    let value = Outer {
        note: "not stored".into(),
        ..Outer::default()
    };
    let bytes = value.encode(Endian::Big);
    assert_eq!(bytes.len(), Outer::SIZE);
    let back = Outer::decode(&bytes, Endian::Big).unwrap();
    assert_eq!(back.note, "");
    assert_eq!(back.inner_record.flags, [false; 2]);
}
