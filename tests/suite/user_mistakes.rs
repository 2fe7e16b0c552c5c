//! What a user gets wrong is refused with a message saying what, not taken silently: creating an
//! array where one is already (whose chunks would read as the new type's), shapes zarrs would
//! accept and fail on later, levels out of range, a count of records that is not the subset's,
//! a read too large to hold, a group opened as an array, a URL taken for a directory.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;

use zarrdt::array::{ArrayOptions, Compression, Error, OpenOptions, open_array, open_store};
use zarrdt::layout::Layout;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::zarrs::storage::{StoreKey, WritableStorageTraits};
use zarrdt::{Endian, ReadRecords, WriteRecords, ZarrStruct, ZarrType};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Temperature {
    kelvin: f64,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Count {
    n: u64,
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("user_mistakes", name)
}

/// The error of `result`, whose message must say every one of `needles`.
fn refused<T: std::fmt::Debug>(result: Result<T, Error>, needles: &[&str]) -> Error {
    let error = result.unwrap_err();
    let message = error.to_string();
    for needle in needles {
        assert!(
            message.contains(needle),
            "{message:?} does not say {needle:?}"
        );
    }
    error
}

const HOT: Temperature = Temperature { kelvin: 300.0 };

/// Only groups have children: an array below an array (v3 or v2, directly or deeper) is
/// refused, overwrite or not, and the array above keeps its records. It was created, and an
/// `overwrite(true)` of it erased the chunks of the array above (`a/c/…` are its keys).
#[test]
fn an_array_is_not_created_inside_an_array() {
    for v2 in [false, true] {
        let store = Arc::new(MemoryStore::new());
        let options = ArrayOptions::new(vec![8], vec![4]);
        let above = if v2 {
            let layout = Temperature::layout(zarrdt::Endian::NATIVE);
            options.create_v2(store.clone(), "/a", &layout, None)
        } else {
            options.create(store.clone(), "/a", &Temperature::default())
        }
        .unwrap();
        above.store_records(&[0..8], &[HOT; 8]).unwrap();
        let key = if v2 { "a/.zarray" } else { "a/zarr.json" };
        for (path, overwrite) in [("/a/c", false), ("/a/c", true), ("/a/x/y", true)] {
            let error = refused(
                options
                    .clone()
                    .overwrite(overwrite)
                    .create(store.clone(), path, &Count::default()),
                &[path, "\"/a\" is an array", key, "only groups have children"],
            );
            assert!(matches!(error, Error::InsideArray { .. }), "{error:?}");
        }
        let back: Vec<Temperature> = open_array(store.clone(), "/a")
            .unwrap()
            .retrieve_records(&[0..8])
            .unwrap();
        assert_eq!(back, [HOT; 8], "v2 {v2}");
    }
    // Below a group, and beside an array, arrays are created as before.
    let store = Arc::new(MemoryStore::new());
    let options = ArrayOptions::new(vec![8], vec![4]);
    options.create(store.clone(), "/a", &HOT).unwrap();
    options.create(store.clone(), "/ab", &HOT).unwrap();
    store
        .set(
            &StoreKey::new("g/zarr.json").unwrap(),
            br#"{"zarr_format":3,"node_type":"group"}"#.to_vec().into(),
        )
        .unwrap();
    options.create(store.clone(), "/g/b", &HOT).unwrap();
}

#[test]
fn an_array_is_not_created_over_a_node_unless_overwritten() {
    let store = Arc::new(MemoryStore::new());
    let options = ArrayOptions::new(vec![4], vec![2]);
    let first = options
        .create(store.clone(), "/", &Temperature::default())
        .unwrap();
    first.store_records(&[0..4], &[HOT; 4]).unwrap();
    // The same size, another type: the old chunks would read as counts, silently.
    let again = refused(
        options.create(store.clone(), "/", &Count::default()),
        &["\"/\"", "zarr.json", "already", "overwrite"],
    );
    assert!(matches!(again, Error::NodeExists { .. }), "{again:?}");
    // An existing node is said first, before options that could not make an array (shards
    // that do not fit the chunks, a v2 array of shards): a caller that cleans up after a
    // failed create must not take the array that was there for one it made.
    let misfit = options.clone().shards(vec![3]);
    for result in [
        misfit
            .create(store.clone(), "/", &Count::default())
            .map(drop),
        misfit
            .create_v2(store.clone(), "/", &Count::layout(Endian::Little), None)
            .map(drop),
    ] {
        let error = result.unwrap_err();
        assert!(matches!(error, Error::NodeExists { .. }), "{error:?}");
    }
    // With `overwrite`, such options are refused before anything is erased.
    let error = misfit
        .clone()
        .overwrite(true)
        .create(store.clone(), "/", &Count::default())
        .unwrap_err();
    assert!(error.to_string().contains("shard shape [3]"), "{error}");
    // Nothing was written: the old array reads as before.
    let back: Vec<Temperature> = open_array(store.clone(), "/")
        .unwrap()
        .retrieve_records(&[0..4])
        .unwrap();
    assert_eq!(back, [HOT; 4]);
    // Replaced, the old chunks are gone: the fill value where nothing is written yet.
    let replaced = options
        .clone()
        .overwrite(true)
        .create(store.clone(), "/", &Count { n: 7 })
        .unwrap();
    replaced
        .store_records(&[0..2], &[Count { n: 1 }; 2])
        .unwrap();
    let counts: Vec<Count> = open_array(store, "/")
        .unwrap()
        .retrieve_records(&[0..4])
        .unwrap();
    assert_eq!(counts.iter().map(|c| c.n).collect::<Vec<_>>(), [1, 1, 7, 7]);
}

#[test]
fn every_kind_of_node_is_found_and_overwrite_erases_only_a_node() {
    let dir = scratch("kinds");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let layout = Layout::from_v2_json(&json!([["kelvin", "<f8"]])).unwrap();
    // A Zarr v2 array, a v2 group and a v3 group, each where an array is then created.
    ArrayOptions::new(vec![4], vec![2])
        .create_v2(store.clone(), "/v2", &layout, None)
        .unwrap();
    store
        .set(
            &StoreKey::new("group2/.zgroup").unwrap(),
            br#"{"zarr_format": 2}"#.to_vec().into(),
        )
        .unwrap();
    store
        .set(
            &StoreKey::new("group3/zarr.json").unwrap(),
            br#"{"zarr_format": 3, "node_type": "group"}"#.to_vec().into(),
        )
        .unwrap();
    for (path, key) in [
        ("/v2", "v2/.zarray"),
        ("/group2", "group2/.zgroup"),
        ("/group3", "group3/zarr.json"),
    ] {
        let options = ArrayOptions::new(vec![4], vec![2]);
        refused(
            options.create(store.clone(), path, &Count::default()),
            &[key, "already"],
        );
        refused(
            options.create_v2(store.clone(), path, &layout, None),
            &[key, "already"],
        );
    }
    // A file beside the nodes, which no overwrite may touch.
    std::fs::write(dir.join("notes.txt"), "kept").unwrap();
    let v2_chunk = dir.join("v2").join("0");
    let v2 = open_array(store.clone(), "/v2").unwrap();
    v2.store_records(&[0..2], &[HOT; 2]).unwrap();
    assert!(v2_chunk.exists());
    // A v3 array over the v2 one: its chunk and `.zarray` erased with it.
    let v3 = ArrayOptions::new(vec![4], vec![2])
        .overwrite(true)
        .create(store.clone(), "/v2", &Count::default())
        .unwrap();
    assert!(!v2_chunk.exists() && !dir.join("v2").join(".zarray").exists());
    assert_eq!(
        v3.retrieve_records::<Count>(&[0..4]).unwrap(),
        [Count::default(); 4]
    );
    // Where nothing is, overwrite erases nothing: the root has no node, only nodes below it.
    ArrayOptions::new(vec![4], vec![2])
        .overwrite(true)
        .create(store.clone(), "/elsewhere", &Count::default())
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "kept"
    );
    assert!(dir.join("group3").join("zarr.json").exists());
}

#[test]
fn shapes_are_checked_when_the_array_is_created() {
    let store = Arc::new(MemoryStore::new());
    for (shape, chunks, shards, needles) in [
        (
            vec![100],
            vec![10],
            Some(vec![25]),
            &["shard shape [25]", "[10]"][..],
        ),
        (vec![100], vec![10], Some(vec![5]), &["shard shape [5]"][..]),
        (vec![100], vec![10], Some(vec![0]), &["shard shape [0]"][..]),
        (
            vec![100, 4],
            vec![10, 2],
            Some(vec![20]),
            &["shard shape [20]"][..],
        ),
        (
            vec![100],
            vec![10, 1],
            None,
            &["chunk shape [10, 1]", "2 dimensions"][..],
        ),
        (
            vec![100],
            vec![0],
            None,
            &["chunk shape [0]", "extent of 0"][..],
        ),
    ] {
        let mut options = ArrayOptions::new(shape, chunks);
        if let Some(shards) = shards {
            options = options.shards(shards);
        }
        let error = refused(options.create(store.clone(), "/", &HOT), needles);
        assert!(
            matches!(&error, Error::Metadata { member: Some(member), .. } if member == "chunk_grid"),
            "{error:?}"
        );
    }
    // Nothing was written by any of them.
    let error = open_array(store, "/").map(|_| ()).unwrap_err();
    assert!(matches!(error, Error::NotAnArray { .. }), "{error:?}");
}

/// Shapes whose counts of elements or bytes zarrs would overflow on are refused when the array
/// is created, by the limits `open_array` applies to a document (an array created with
/// `[u64::MAX]` in chunks of `[u64::MAX]` was written, refused by `open_array`, and its read
/// through the created handle panicked inside zarrs), in both formats, with nothing written.
#[test]
fn shapes_open_array_would_refuse_are_not_created() {
    let layout = Layout::from_v2_json(&json!([["kelvin", "<f8"]])).unwrap();
    for (shape, chunks, shards, member, needle) in [
        (vec![u64::MAX], vec![u64::MAX], None, "chunk_grid", "2^62"),
        (vec![1 << 62], vec![1 << 40], None, "chunk_grid", "2^62"),
        (
            vec![1 << 61],
            vec![1 << 20],
            Some(vec![1 << 61]),
            "chunk_grid",
            "2^62",
        ),
        (
            vec![1 << 32, 1 << 32, 2],
            vec![1, 1, 1],
            None,
            "shape",
            "2^64",
        ),
    ] {
        let store = Arc::new(MemoryStore::new());
        let mut options = ArrayOptions::new(shape.clone(), chunks.clone());
        if let Some(shards) = &shards {
            options = options.shards(shards.clone());
        }
        let error = refused(options.create(store.clone(), "/", &HOT), &[needle]);
        assert!(
            matches!(&error, Error::Metadata { member: Some(m), .. } if m == member),
            "{shape:?} in {chunks:?}: {error:?}"
        );
        if shards.is_none() {
            let v2_member = if member == "chunk_grid" {
                "chunks"
            } else {
                member
            };
            let error = refused(
                options.create_v2(store.clone(), "/", &layout, None),
                &[needle],
            );
            assert!(
                matches!(&error, Error::Metadata { member: Some(m), .. } if m == v2_member),
                "{shape:?} in {chunks:?}, v2: {error:?}"
            );
        }
        let error = open_array(store, "/").map(|_| ()).unwrap_err();
        assert!(matches!(error, Error::NotAnArray { .. }), "{error:?}");
    }
    // The largest chunks zarrs computes with are created, and open.
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![1 << 58], vec![1 << 58])
        .create(store.clone(), "/", &HOT)
        .unwrap();
    assert_eq!(
        array.retrieve_records::<Temperature>(&[5..6]).unwrap(),
        [HOT]
    );
    open_array(store, "/").unwrap();
}

#[test]
fn compression_levels_are_checked_in_both_formats() {
    let store = Arc::new(MemoryStore::new());
    let layout = Layout::from_v2_json(&json!([["kelvin", "<f8"]])).unwrap();
    for level in [23, 99, -200_000] {
        let options = ArrayOptions::new(vec![4], vec![2]).compression(Compression::Zstd { level });
        let needle = format!("zstd level {level} is not in");
        refused(
            options.create(store.clone(), "/", &HOT),
            &[&needle, "codecs"],
        );
        refused(
            options.create_v2(store.clone(), "/", &layout, None),
            &[&needle, "compressor"],
        );
    }
    // The levels zstd has, negative ones included, are written.
    for level in [-5, 0, 22] {
        ArrayOptions::new(vec![4], vec![2])
            .compression(Compression::Zstd { level })
            .overwrite(true)
            .create(store.clone(), "/", &HOT)
            .unwrap()
            .store_records(&[0..4], &[HOT; 4])
            .unwrap();
    }
}

#[test]
fn a_write_of_the_wrong_number_of_records_says_records_not_bytes() {
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![10], vec![5])
        .create(store, "/", &HOT)
        .unwrap();
    let error = refused(
        array.store_records(&[0..10], &[HOT; 5]),
        &["5 elements given to write a subset of 10 elements"],
    );
    assert!(
        matches!(
            error,
            Error::ElementCount {
                expected: 10,
                found: 5
            }
        ),
        "{error:?}"
    );
    let values = vec![HOT.to_value(); 11];
    refused(
        array.store_values(&[0..10], &values),
        &["11 elements given to write a subset of 10 elements"],
    );
    // Nothing was written.
    assert_eq!(
        array.retrieve_records::<Temperature>(&[0..10]).unwrap(),
        [HOT; 10]
    );
}

#[test]
fn a_read_too_large_to_hold_is_not_called_out_of_bounds() {
    let store = Arc::new(MemoryStore::new());
    let extent = 1 << 61;
    let array = ArrayOptions::new(vec![extent], vec![1 << 20])
        .create(store, "/", &HOT)
        .unwrap();
    let inside = [0..1 << 60];
    for error in [
        array.retrieve_records::<Temperature>(&inside).unwrap_err(),
        array
            .retrieve_field::<f64>(&inside, &["kelvin"])
            .unwrap_err(),
        array.retrieve_values(&inside).unwrap_err(),
    ] {
        assert!(matches!(error, Error::OutputTooLarge { .. }), "{error:?}");
        assert!(
            error.to_string().contains("read the subset in parts"),
            "{error}"
        );
    }
    // Beyond the shape is still out of bounds.
    let error = array
        .retrieve_records::<Temperature>(&[0..extent + 1])
        .unwrap_err();
    assert!(matches!(error, Error::Array(_)), "{error:?}");
}

#[test]
fn a_group_is_named_a_group_where_an_array_is_opened() {
    let store = Arc::new(MemoryStore::new());
    store
        .set(
            &StoreKey::new("zarr.json").unwrap(),
            br#"{"zarr_format": 3, "node_type": "group", "attributes": {}}"#
                .to_vec()
                .into(),
        )
        .unwrap();
    store
        .set(
            &StoreKey::new("old/.zgroup").unwrap(),
            br#"{"zarr_format": 2}"#.to_vec().into(),
        )
        .unwrap();
    for (path, key) in [("/", "zarr.json"), ("/old", "old/.zgroup")] {
        let error = refused(
            open_array(store.clone(), path).map(|_| ()),
            &[key, "is a Zarr group", "not an array"],
        );
        assert!(matches!(error, Error::Group { .. }), "{error:?}");
    }
    let error = open_array(store, "/nothing").map(|_| ()).unwrap_err();
    assert!(matches!(error, Error::NotAnArray { .. }), "{error:?}");
}

#[test]
fn a_url_is_not_taken_for_a_directory() {
    let dir = scratch("urls");
    let cwd = std::env::current_dir().unwrap();
    for location in [
        "https://example.com/x.zarr",
        "gs://bucket/x.zarr",
        "S3+x://y",
    ] {
        let error = refused(
            open_store(location).map(|_| ()),
            &[location, "is not a store zarrdt opens"],
        );
        assert!(matches!(error, Error::Store { .. }), "{error:?}");
    }
    assert!(!cwd.join("https:").exists() && !cwd.join("gs:").exists());
    // Paths, and file:// URLs of them, are directories.
    let plain = dir.join("plain.zarr");
    for location in [
        plain.to_str().unwrap().to_owned(),
        format!("file://{}", dir.join("url.zarr").display()),
    ] {
        let (store, path) = open_store(&location).unwrap();
        ArrayOptions::new(vec![2], vec![2])
            .create(store, &path, &HOT)
            .unwrap();
    }
    assert!(plain.join("zarr.json").exists() && dir.join("url.zarr").join("zarr.json").exists());
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Station {
    id: u32,
    reading: Temperature,
}

#[test]
fn a_field_that_is_not_there_is_named_with_what_is() {
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![3], vec![3])
        .create(store, "/", &Station::default())
        .unwrap();
    for (path, says) in [
        (
            &["idd"][..],
            "no field `idd`; the record's fields are `id`, `reading`",
        ),
        (
            &["reading", "celsius"][..],
            "`reading`'s fields are `kelvin`",
        ),
        (
            &["id", "x"][..],
            "no field `id.x`; `id` is uint32, not a struct",
        ),
    ] {
        let error = array.retrieve_field::<u32>(&[0..3], path).unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
    }
    // The same through the core's field decode.
    let layout = Station::layout(zarrdt::Endian::NATIVE);
    let error = layout.decode_field::<u32>(&[0; 12], &["idd"]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the record's fields are `id`, `reading`"),
        "{error}"
    );
}

#[test]
fn a_path_without_its_leading_slash_names_the_same_node() {
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![2], vec![2])
        .create(store.clone(), "runs/a", &HOT)
        .unwrap();
    assert_eq!(array.path().as_str(), "/runs/a");
    array.store_records(&[0..2], &[HOT; 2]).unwrap();
    for path in ["/runs/a", "runs/a"] {
        let back: Vec<Temperature> = open_array(store.clone(), path)
            .unwrap()
            .retrieve_records(&[0..2])
            .unwrap();
        assert_eq!(back, [HOT; 2], "{path}");
    }
    // "" is the root, as "/" is; the same node is found whichever way it is written.
    ArrayOptions::new(vec![2], vec![2])
        .create(store.clone(), "", &HOT)
        .unwrap();
    refused(
        ArrayOptions::new(vec![2], vec![2]).create(store.clone(), "/", &HOT),
        &["already"],
    );
    refused(
        ArrayOptions::new(vec![2], vec![2]).create(store, "runs/a/", &HOT),
        &["runs/a/"],
    );
}

/// Shards of more inner chunks than `open_array` opens by default (an index of more than 256
/// MiB, 16 bytes per inner chunk) are refused before anything is written, naming the codec
/// and the size, so that no array is made that would not open; at the limit it is made and
/// opens.
#[test]
fn shards_whose_index_open_array_would_refuse_are_not_created() {
    let dir = scratch("shard_index_limit");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let error = refused(
        ArrayOptions::new(vec![1 << 25], vec![1])
            .shards(vec![1 << 25])
            .create(store.clone(), "/over", &Count::default()),
        &["codecs[0]", "536870912 bytes", "limit of 268435456 bytes"],
    );
    assert!(
        matches!(error, Error::ShardIndexTooLarge { .. }),
        "{error:?}"
    );
    assert!(!dir.join("over").exists(), "nothing written");
    ArrayOptions::new(vec![1 << 24], vec![1])
        .shards(vec![1 << 24])
        .create(store.clone(), "/at", &Count::default())
        .unwrap();
    open_array(store.clone(), "/at").unwrap();

    // Within a raised limit they are made, and open within it (not without).
    let limits = OpenOptions::new().max_shard_index_size(1 << 30);
    ArrayOptions::new(vec![1 << 25], vec![1])
        .shards(vec![1 << 25])
        .within(limits.clone())
        .create(store.clone(), "/raised", &Count::default())
        .unwrap();
    limits.open(store.clone(), "/raised").unwrap();
    assert!(matches!(
        open_array(store, "/raised"),
        Err(Error::ShardIndexTooLarge { .. })
    ));
}

/// A record larger than the limit the array is made within (16 MiB by default, as
/// `open_array`'s) is refused before anything is written or erased, v2 and v3: a v2 create
/// wrote its `.zarray` and then failed to open it (an array left behind, and with `overwrite`
/// the one it replaced erased), and a v3 create made an array `open_array` refused. Within a
/// raised limit it is made, and opens within it.
#[test]
fn records_beyond_the_element_limit_are_not_created() {
    let dir = scratch("element_limit");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let v2_record = Layout::from_v2_json(&json!([["frame", "|u1", [17_000_000]]])).unwrap();
    let v3_record = zarrdt::types::DataType::from_v3_json(&json!({"name": "struct",
        "configuration": {"fields": [{"name": "frame", "data_type": {
            "name": "null_terminated_bytes", "configuration": {"length_bytes": 17_000_000}}}]}}))
    .unwrap();
    let v3_fill = Layout::from_data_type(&v3_record, None)
        .unwrap()
        .zero_value();
    let needles = [
        "17000000 bytes",
        "limit of 16777216 bytes",
        "ArrayOptions::within",
    ];
    for overwrite in [false, true] {
        // An array of small records where each big one was to go, replaced only by a valid one.
        for path in ["/v2", "/v3"] {
            let kept = ArrayOptions::new(vec![2], vec![2])
                .overwrite(true)
                .create(store.clone(), path, &HOT)
                .unwrap();
            kept.store_records(&[0..2], &[HOT; 2]).unwrap();
        }
        let options = ArrayOptions::new(vec![2], vec![1]).overwrite(overwrite);
        let v2 = options.create_v2(store.clone(), "/v2", &v2_record, None);
        let v3 = options.create_with(store.clone(), "/v3", &v3_record, &v3_fill);
        for (path, result) in [("/v2", v2.map(drop)), ("/v3", v3.map(drop))] {
            let error = match overwrite {
                true => refused(result, &needles),
                false => result.unwrap_err(),
            };
            let expected = match overwrite {
                true => matches!(
                    error,
                    Error::ElementTooLarge {
                        size: 17_000_000,
                        ..
                    }
                ),
                false => matches!(error, Error::NodeExists { .. }),
            };
            assert!(expected, "{path}, overwrite {overwrite}: {error:?}");
            let kept = open_array(store.clone(), path).unwrap();
            assert_eq!(
                kept.retrieve_records::<Temperature>(&[0..2]).unwrap(),
                [HOT; 2]
            );
        }
    }
    // Where nothing was.
    let options = ArrayOptions::new(vec![2], vec![1]);
    refused(
        options.create_v2(store.clone(), "/new_v2", &v2_record, None),
        &needles,
    );
    refused(
        options.create_with(store.clone(), "/new_v3", &v3_record, &v3_fill),
        &needles,
    );
    assert!(
        !dir.join("new_v2").exists() && !dir.join("new_v3").exists(),
        "nothing written"
    );

    let limits = OpenOptions::new().max_element_size(32 << 20);
    let options = options.within(limits.clone());
    options
        .create_v2(store.clone(), "/new_v2", &v2_record, None)
        .unwrap();
    options
        .create_with(store.clone(), "/new_v3", &v3_record, &v3_fill)
        .unwrap();
    for path in ["/new_v2", "/new_v3"] {
        limits.open(store.clone(), path).unwrap();
        assert!(matches!(
            open_array(store.clone(), path),
            Err(Error::ElementTooLarge { .. })
        ));
    }
}
