//! Enum fields (`#[derive(ZarrEnum)]`, named in the `zarrdt:enums` attribute) in `inspect`
//! and `dump --format table`: the variants are shown by name; the values stay integers in
//! JSON and CSV; a value that is no variant shows as its number. Arrays in Zarr v3 (Rust
//! arrays as structs of fields "0", "1", …) and v2 (subarrays).

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use zarrdt::WriteRecords;
use zarrdt::array::{ArrayOptions, Compression, open_array};
use zarrdt::value::Value;
use zarrdt::zarrs::array::ArraySubset;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrEnum, ZarrStruct, ZarrType};

use crate::common::{scratch, zarrdt};

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
enum Status {
    Ok,
    Warn,
    Fail = 7,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
#[repr(i16)]
enum Level {
    Low = -2,
    High = 2,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Inner {
    level: Level,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Event {
    id: u32,
    status: Status,
    history: [Status; 2],
    inner: Inner,
    grade: char,
}

fn event(i: u32) -> Event {
    let statuses = [Status::Ok, Status::Warn, Status::Fail];
    let at = |k: u32| statuses[((i + k) % 3) as usize];
    Event {
        id: i,
        status: at(0),
        history: [at(1), at(2)],
        inner: Inner {
            level: if i.is_multiple_of(2) {
                Level::Low
            } else {
                Level::High
            },
        },
        grade: ['a', 'é', '𝄞'][(i % 3) as usize],
    }
}

/// Writes 3 events and, in element 3, a record whose `status` is 3 (no variant).
fn write(name: &str, v3: bool) -> PathBuf {
    let dir = scratch(&format!("{name}_{}", if v3 { "v3" } else { "v2" }));
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let options = ArrayOptions::new(vec![4], vec![2]).compression(Compression::None);
    let array = if v3 {
        options.create(store.clone(), "/", &event(0)).unwrap()
    } else {
        options
            .enums_of::<Event>()
            .create_v2(store.clone(), "/", &Event::layout(Endian::Big), None)
            .unwrap()
    };
    let events: Vec<Event> = (0..3).map(event).collect();
    array
        .store_array_subset(&ArraySubset::new_with_ranges(&[0..3]), &events)
        .unwrap();
    let opened = open_array(store, "/").unwrap();
    // Element 3: `status` 3, which is no variant.
    let odd = event(3).to_value();
    let odd: zarrdt::value::Record = odd
        .as_record()
        .unwrap()
        .fields()
        .iter()
        .map(|(name, value)| {
            let value = if &**name == "status" {
                Value::UInt8(3)
            } else {
                value.clone()
            };
            (name.clone(), value)
        })
        .collect();
    let odd = Value::from(odd);
    opened.store_values(&[3..4], &[odd]).unwrap();
    dir
}

#[test]
fn inspect_names_the_variants_of_enum_leaves() {
    for v3 in [true, false] {
        let dir = write("enums_inspect", v3);
        let path = dir.to_str().unwrap();
        let text = zarrdt(["inspect", path]).ok();
        let history = if v3 {
            "  history.0    Ok = 0, Warn = 1, Fail = 7\n  history.1    Ok = 0, Warn = 1, Fail = 7\n"
        } else {
            "  history      Ok = 0, Warn = 1, Fail = 7\n"
        };
        let expected = format!(
            "  enum variants (attribute \"zarrdt:enums\")\n  status       Ok = 0, Warn = 1, Fail = 7\n{history}  inner.level  Low = -2, High = 2\n"
        );
        assert!(text.contains(&expected), "{expected}\nin\n{text}");

        let info = zarrdt(["inspect", "--json", path]).json();
        let leaves = info["leaves"].as_array().unwrap();
        let status = json!({"Ok": 0, "Warn": 1, "Fail": 7});
        let variants: Vec<(&str, &serde_json::Value)> = leaves
            .iter()
            .map(|leaf| (leaf["path"].as_str().unwrap(), &leaf["variants"]))
            .collect();
        let null = serde_json::Value::Null;
        let level = json!({"Low": -2, "High": 2});
        let mut expected = vec![("id", &null), ("status", &status)];
        if v3 {
            expected.extend([("history.0", &status), ("history.1", &status)]);
        } else {
            expected.push(("history", &status));
        }
        expected.extend([("inner.level", &level), ("grade", &null)]);
        assert_eq!(variants, expected, "v3: {v3}");
    }
}

#[test]
fn dump_tables_show_variant_names_and_json_keeps_integers() {
    for v3 in [true, false] {
        let dir = write("enums_dump", v3);
        let path = dir.to_str().unwrap();
        let table = zarrdt(["dump", path, "--format", "table"]).ok();
        let header = if v3 {
            "index  id  status  history.0  history.1  inner.level  grade"
        } else {
            "index  id  status  history[0]  history[1]  inner.level  grade"
        };
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], header, "{table}");
        let cells: Vec<Vec<&str>> = lines[2..]
            .iter()
            .map(|line| line.split_whitespace().collect())
            .collect();
        assert_eq!(
            cells,
            [
                ["0", "0", "Ok", "Warn", "Fail", "Low", "a"],
                ["1", "1", "Warn", "Fail", "Ok", "High", "é"],
                ["2", "2", "Fail", "Ok", "Warn", "Low", "𝄞"],
                // No variant has the value 3: its number.
                ["3", "3", "3", "Warn", "Fail", "High", "a"],
            ],
            "v3: {v3}\n{table}"
        );
        // JSON and CSV: the stored integers.
        let dumped = zarrdt(["dump", path]).json();
        assert_eq!(dumped["values"][2]["status"], json!(7));
        assert_eq!(dumped["values"][3]["status"], json!(3));
        let csv = zarrdt(["dump", path, "--format", "csv"]).ok();
        assert!(
            csv.lines().nth(3).unwrap().starts_with("2,7,0,1,-2,"),
            "{csv}"
        );
    }
}

#[test]
fn arrays_without_the_attribute_show_numbers() {
    let dir = scratch("enums_without_attribute");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    ArrayOptions::new(vec![2], vec![2])
        .create_with(store, "/", &Event::data_type(), &event(2).to_value())
        .unwrap();
    let path = dir.to_str().unwrap();
    assert!(!zarrdt(["inspect", path]).ok().contains("enum variants"));
    let table = zarrdt(["dump", path, "--format", "table"]).ok();
    assert!(table.lines().nth(2).unwrap().contains(" 7 "), "{table}");
}

/// `export` keeps the array's attributes in the table (`zarr.attributes`) and `import` gives
/// them back: the imported array names the same variants.
#[test]
fn enum_names_go_through_tables() {
    for v3 in [true, false] {
        let dir = write("enums_tables", v3);
        let path = dir.to_str().unwrap();
        let values_and_variants = |path: &str| {
            let info = zarrdt(["inspect", "--json", path]).json();
            let variants: Vec<serde_json::Value> = info["leaves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|leaf| leaf["variants"].clone())
                .collect();
            (zarrdt(["dump", path]).json()["values"].clone(), variants)
        };
        let original = values_and_variants(path);
        assert_eq!(original.1[1], json!({"Ok": 0, "Warn": 1, "Fail": 7}));
        for format in ["parquet", "arrow"] {
            let out = scratch(&format!("enums_tables_{v3}_{format}"));
            let table = out.join(format!("t.{format}"));
            let back = out.join("back.zarr");
            zarrdt(["export", path, table.to_str().unwrap()]).ok();
            zarrdt(["import", table.to_str().unwrap(), back.to_str().unwrap()]).ok();
            assert_eq!(
                values_and_variants(back.to_str().unwrap()),
                original,
                "v3: {v3}, {format}"
            );
            let text = zarrdt(["inspect", back.to_str().unwrap()]).ok();
            assert!(
                text.contains("  status       Ok = 0, Warn = 1, Fail = 7\n"),
                "{text}"
            );
        }
    }
}
