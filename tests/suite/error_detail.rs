//! zarrdt's own error detail reaching the user through zarrs' hooks (issue 18): a chunk of
//! the wrong length reads as a length problem naming the chunk (not as a missing `endian`),
//! a bad fill value names its field, a failing write names its chunk, and every metadata
//! error names the document (its store key) and the member at fault.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use zarrdt::array::{ArrayOptions, BlockReader, Compression, Error, check_shards, open_array};
use zarrdt::layout::Layout;
use zarrdt::value::Value;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::zarrs::storage::{StoreKey, WritableStorageTraits};
use zarrdt::{Endian, ReadRecords, WriteRecords, ZarrStruct};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Sample {
    id: u32,
    value: f64,
}

fn samples(n: u32) -> Vec<Sample> {
    (0..n)
        .map(|id| Sample {
            id,
            value: f64::from(id) / 2.0,
        })
        .collect()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("error_detail", name)
}

/// `error`'s message, which must say every one of `needles` and none of `never`.
fn says(error: &Error, needles: &[&str], never: &[&str]) {
    let message = error.to_string();
    for needle in needles {
        assert!(
            message.contains(needle),
            "{message:?} does not say {needle:?}"
        );
    }
    for word in never {
        assert!(!message.contains(word), "{message:?} says {word:?}");
    }
}

/// A chunk one byte short, stored in the byte order other than the machine's (so zarrs'
/// `bytes` hook has to convert it): the error names the chunk and its length, and does not
/// blame a missing `endian`.
#[test]
fn a_short_chunk_is_a_length_error_naming_the_chunk() {
    let foreign = match Endian::NATIVE {
        Endian::Little => Endian::Big,
        Endian::Big => Endian::Little,
    };
    // Zarr v3, the codec's byte order.
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![8], vec![4])
        .endian(foreign)
        .compression(Compression::None)
        .create(store.clone(), "/a", &Sample::default())
        .unwrap();
    array.store_records(&[0..8], &samples(8)).unwrap();
    let key = StoreKey::new("a/c/1").unwrap();
    store.set(&key, vec![0u8; 4 * 12 - 1].into()).unwrap();
    let array = open_array(store.clone(), "/a").unwrap();
    let error = array.retrieve_records::<Sample>(&[0..8]).unwrap_err();
    says(&error, &["a/c/1", "47"], &["endianness"]);
    let error = array.retrieve_values(&[4..8]).unwrap_err();
    says(&error, &["a/c/1"], &["endianness"]);

    // Zarr v2, each field's own byte order.
    let layout = Layout::from_v2_json(&json!([["id", ">u4"], ["value", ">f8"]])).unwrap();
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![8], vec![4])
        .compression(Compression::None)
        .create_v2(store.clone(), "/b", &layout, None)
        .unwrap();
    let values: Vec<Value> = samples(8).iter().map(zarrdt::ZarrType::to_value).collect();
    array.store_values(&[0..8], &values).unwrap();
    let key = StoreKey::new("b/1").unwrap();
    store.set(&key, vec![0u8; 4 * 12 - 1].into()).unwrap();
    let error = array.retrieve_records::<Sample>(&[0..8]).unwrap_err();
    says(&error, &["b/1", "47"], &["endianness"]);
}

/// Part of an uncompressed chunk of the wrong length (cut short, too long; a v2 chunk in F
/// order cut short) is the same length error as the whole chunk, at every read of part of
/// it: zarrs reads part of such a chunk as byte ranges, which would give the records at those
/// bytes, or other bytes, without an error. Parts of the chunks beside it still read, and a
/// chunk of the right length read in part gives its records.
#[test]
fn part_of_a_chunk_of_the_wrong_length_is_a_length_error() {
    for (stored, name) in [(60usize, "short"), (200, "long")] {
        let store = Arc::new(MemoryStore::new());
        let array = ArrayOptions::new(vec![20], vec![10])
            .compression(Compression::None)
            .create(store.clone(), "/a", &Sample::default())
            .unwrap();
        array.store_records(&[0..20], &samples(20)).unwrap();
        // The chunk's own bytes first, then zeros: a read within them would "succeed".
        let key = StoreKey::new("a/c/0").unwrap();
        let mut bytes = zarrdt::zarrs::storage::ReadableStorageTraits::get(&*store, &key)
            .unwrap()
            .unwrap()
            .to_vec();
        bytes.resize(stored, 0);
        store.set(&key, bytes.into()).unwrap();
        let length = format!("is {stored}, expected 120");
        let needles = ["a/c/0", length.as_str()];
        let error = array.retrieve_records::<Sample>(&[0..2]).unwrap_err();
        says(&error, &needles, &[]);
        let error = array.retrieve_records::<Sample>(&[1..15]).unwrap_err();
        says(&error, &needles, &[]);
        let error = array.retrieve_values(&[0..3]).unwrap_err();
        says(&error, &needles, &[]);
        let error = array.retrieve_field::<u32>(&[0..3], &["id"]).unwrap_err();
        says(&error, &needles, &[]);
        let mut reader = BlockReader::new(&array).unwrap();
        says(&reader.read(&[0..1]).unwrap_err(), &needles, &[]);
        // Asked again, the chunk is checked again (a failed check is not remembered as done).
        says(&reader.read(&[0..1]).unwrap_err(), &needles, &[]);
        says(&reader.read(&[5..12]).unwrap_err(), &needles, &[]);
        says(&check_shards(&array, &[2..4]).unwrap_err(), &needles, &[]);
        // The whole chunk was refused before; it still is.
        let error = array.retrieve_records::<Sample>(&[0..10]).unwrap_err();
        says(&error, &needles, &[]);
        // The chunk beside it, whole and in part, reads.
        assert_eq!(
            array.retrieve_records::<Sample>(&[12..14]).unwrap(),
            samples(14)[12..],
            "{name}"
        );
        assert_eq!(reader.read(&[12..13]).unwrap().len(), 12);
        // Stored right again, the part reads.
        store.set(&key, vec![0u8; 120].into()).unwrap();
        assert_eq!(
            array.retrieve_records::<Sample>(&[1..3]).unwrap(),
            vec![Sample::default(); 2]
        );
        assert_eq!(reader.read(&[0..1]).unwrap(), vec![0u8; 12]);
    }

    // Zarr v2 in F order (`transpose` before `bytes`), 2-D, a chunk cut in half.
    let layout = Layout::from_v2_json(&json!([["id", "<u4"], ["value", "<f8"]])).unwrap();
    let store = Arc::new(MemoryStore::new());
    let document = json!({
        "zarr_format": 2, "shape": [4, 4], "chunks": [2, 4], "dtype": layout.to_v2_json().unwrap(),
        "fill_value": null, "order": "F", "compressor": null, "filters": null});
    store
        .set(
            &StoreKey::new("f/.zarray").unwrap(),
            serde_json::to_vec(&document).unwrap().into(),
        )
        .unwrap();
    store
        .set(&StoreKey::new("f/0.0").unwrap(), vec![7u8; 48].into())
        .unwrap();
    let array = open_array(store.clone(), "/f").unwrap();
    let needles = ["f/0.0", "is 48, expected 96"];
    let error = array.retrieve_records::<Sample>(&[0..1, 0..2]).unwrap_err();
    says(&error, &needles, &[]);
    let error = array.retrieve_values(&[1..2, 1..4]).unwrap_err();
    says(&error, &needles, &[]);
    let mut reader = BlockReader::new(&array).unwrap();
    says(&reader.read(&[0..2, 0..1]).unwrap_err(), &needles, &[]);
    // The missing chunk beside it is the fill value.
    assert_eq!(
        array.retrieve_records::<Sample>(&[2..3, 0..2]).unwrap(),
        vec![Sample::default(); 2]
    );
}

/// A struct fill value zarrs is handed (through `open_array`) that zarrdt cannot read: the
/// error names the field and the value, not only zarrs' "incompatible fill value".
#[test]
fn a_bad_fill_value_names_its_field() {
    let store = Arc::new(MemoryStore::new());
    let document = json!({
        "zarr_format": 3,
        "node_type": "array",
        "shape": [4],
        "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "id", "data_type": "uint32"},
            {"name": "value", "data_type": "float64"}]}},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": {"id": 0, "value": "a lot"},
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    });
    let key = StoreKey::new("zarr.json").unwrap();
    store
        .set(&key, serde_json::to_vec(&document).unwrap().into())
        .unwrap();
    let error = open_array(store, "/").unwrap_err();
    says(&error, &["value", "a lot"], &[]);
}

/// A write whose chunk the store refuses: the error names the chunk, whether the chunk is
/// written whole or updated in part, and however many chunks are written at once.
#[test]
fn a_refused_write_names_the_chunk() {
    let dir = scratch("refused_write");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = ArrayOptions::new(vec![16], vec![4])
        .create(store.clone(), "/a", &Sample::default())
        .unwrap();
    // A directory where chunk 2's file goes: the store cannot write it.
    std::fs::create_dir_all(dir.join("a/c/2/blocked")).unwrap();
    let error = array.store_records(&[0..16], &samples(16)).unwrap_err();
    says(&error, &["a/c/2"], &[]);
    let error = array.store_records(&[9..10], &samples(1)).unwrap_err();
    says(&error, &["a/c/2"], &[]);
    let values: Vec<Value> = samples(16).iter().map(zarrdt::ZarrType::to_value).collect();
    let error = array.store_values(&[0..16], &values).unwrap_err();
    says(&error, &["a/c/2"], &[]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every metadata error names the store key of the document and the member at fault.
#[test]
fn metadata_errors_name_the_document_and_the_member() {
    let store = Arc::new(MemoryStore::new());
    // Options that cannot be written: the document they were to go in, and its member.
    let error = ArrayOptions::new(vec![8], vec![4])
        .compression(Compression::BloscLz4 { level: 12 })
        .create(store.clone(), "/a", &Sample::default())
        .unwrap_err();
    assert!(matches!(error, Error::Metadata { .. }), "{error:?}");
    says(&error, &["a/zarr.json", "codecs", "12"], &[]);

    let layout = Layout::from_v2_json(&json!([["id", "<u4"]])).unwrap();
    let error = ArrayOptions::new(vec![8], vec![4])
        .compression(Compression::Bz2 { level: 0 })
        .create_v2(store.clone(), "/b", &layout, None)
        .unwrap_err();
    assert!(matches!(error, Error::Metadata { .. }), "{error:?}");
    says(&error, &["b/.zarray", "compressor", "level 0"], &[]);

    let error = ArrayOptions::new(vec![8], vec![4])
        .shards(vec![8])
        .create_v2(store.clone(), "/b", &layout, None)
        .unwrap_err();
    assert!(matches!(error, Error::Metadata { .. }), "{error:?}");
    says(&error, &["b/.zarray", "sharded"], &[]);

    // A document that is not JSON: its key.
    let key = StoreKey::new("c/zarr.json").unwrap();
    store.set(&key, b"{not json".to_vec().into()).unwrap();
    let error = open_array(store.clone(), "/c").unwrap_err();
    assert!(matches!(error, Error::Metadata { .. }), "{error:?}");
    says(&error, &["invalid array metadata c/zarr.json: "], &[]);

    // A path that is no node path is not a metadata document's fault.
    let error = open_array(store, "no/leading/slash").unwrap_err();
    assert!(!matches!(error, Error::Metadata { .. }), "{error:?}");
    says(&error, &["no/leading/slash"], &[]);
}

/// A Zarr v2 `dtype` that is a type name, as tensorstore writes `"bfloat16"`: the error says
/// it is a type name zarrdt does not know, not only that a typestr starts with a byte order.
#[test]
fn a_v2_type_name_is_named_as_one() {
    let store = Arc::new(MemoryStore::new());
    let zarray = json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": "bfloat16",
        "fill_value": 0, "order": "C", "compressor": null, "filters": null});
    store
        .set(
            &StoreKey::new(".zarray").unwrap(),
            zarray.to_string().into_bytes().into(),
        )
        .unwrap();
    let error = open_array(store, "/").map(|_| ()).unwrap_err();
    says(
        &error,
        &["\"bfloat16\"", "a type name", "no type zarrdt knows"],
        &[],
    );
}

/// A `zarr.json` member the v3 spec does not define is an extension: one that says
/// `"must_understand": false` is ignored, any other refused naming the member (zarr-python
/// 3.4 refuses both), never read as if it were not there.
#[test]
fn unknown_v3_members_are_refused_unless_they_may_be_ignored() {
    let document = |name: &str, value: serde_json::Value| {
        let mut document = json!({"zarr_format": 3, "node_type": "array", "shape": [2],
            "data_type": "uint8",
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
            "chunk_key_encoding": {"name": "default"}, "fill_value": 3,
            "codecs": [{"name": "bytes"}]});
        document[name] = value;
        let store = Arc::new(MemoryStore::new());
        let key = StoreKey::new("zarr.json").unwrap();
        store
            .set(&key, document.to_string().into_bytes().into())
            .unwrap();
        open_array(store, "/")
    };
    for (name, value) in [
        ("evil", json!(1)),
        ("evil_ext", json!({"must_understand": true})),
        ("evil_ext", json!({"name": "x"})),
    ] {
        let error = document(name, value).map(|_| ()).unwrap_err();
        says(
            &error,
            &["zarr.json", name, "does not say \"must_understand\": false"],
            &[],
        );
    }
    let array = document("optional_ext", json!({"must_understand": false})).unwrap();
    assert_eq!(array.retrieve_records::<u8>(&[0..2]).unwrap(), [3, 3]);
}

/// A metadata document that is JSON but no object says so, naming the document (it said that
/// `data_type` or `dtype` was missing).
#[test]
fn a_metadata_document_that_is_no_object_says_so() {
    for (key, text, kind) in [
        ("zarr.json", "[1, 2, 3]", "not an array"),
        (".zarray", "\"hello\"", "not a string"),
    ] {
        let store = Arc::new(MemoryStore::new());
        store
            .set(
                &StoreKey::new(key).unwrap(),
                text.as_bytes().to_vec().into(),
            )
            .unwrap();
        let error = open_array(store, "/").map(|_| ()).unwrap_err();
        says(&error, &[key, "must be a JSON object", kind], &["missing"]);
    }
}

/// A member zarrs refuses in a `.zarray` or `zarr.json` zarrdt passes on is named, with its
/// place in a list (serde alone said only `missing field \`id\``).
#[test]
fn a_member_zarrs_refuses_is_named() {
    let v2 = |changes: serde_json::Value| {
        let mut document = json!({
            "zarr_format": 2, "shape": [4], "chunks": [2], "dtype": "<u4", "fill_value": 0,
            "order": "C", "compressor": null, "filters": null});
        document
            .as_object_mut()
            .unwrap()
            .extend(changes.as_object().unwrap().clone());
        document
    };
    let structured = |changes| {
        let mut document = v2(changes);
        document["dtype"] = json!([["a", "<u4"]]);
        document
    };
    let v3 = json!({
        "zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "uint32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "dimension_names": [1]});
    for (key, document, member) in [
        (".zarray", v2(json!({"order": null})), "order: "),
        (
            ".zarray",
            v2(json!({"filters": [{"id": "zlib"}, {"x": 1}]})),
            "filters[1]: ",
        ),
        (
            ".zarray",
            structured(json!({"filters": {"id": "zlib"}})),
            "filters: ",
        ),
        ("zarr.json", v3, "dimension_names[0]: "),
    ] {
        let store = Arc::new(MemoryStore::new());
        let text = document.to_string().into_bytes();
        store
            .set(&StoreKey::new(key).unwrap(), text.into())
            .unwrap();
        let error = open_array(store, "/").map(|_| ()).unwrap_err();
        assert!(matches!(error, Error::Metadata { .. }), "{error:?}");
        says(&error, &[key, member], &[]);
    }
}

/// A metadata document the store cannot read (here a directory where `.zattrs` should be) is
/// an error naming the document.
#[test]
fn an_unreadable_metadata_document_is_named() {
    let dir = scratch("unreadable_document");
    let document = json!({
        "zarr_format": 2, "shape": [4], "chunks": [2], "dtype": "<u4", "fill_value": 0,
        "order": "C", "compressor": null, "filters": null});
    std::fs::write(dir.join(".zarray"), document.to_string()).unwrap();
    std::fs::create_dir_all(dir.join(".zattrs")).unwrap();
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let error = open_array(store, "/").map(|_| ()).unwrap_err();
    assert!(matches!(error, Error::MetadataRead { .. }), "{error:?}");
    says(&error, &["cannot read the metadata document .zattrs"], &[]);
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Flagged {
    flag: bool,
    kind: Kind,
}

#[derive(zarrdt::ZarrEnum, Clone, Copy, Debug, PartialEq, Default)]
#[repr(u8)]
enum Kind {
    #[default]
    A = 1,
    B = 2,
}

/// An invalid element read from an array is named where it is: the chunk's key and its
/// indices in the array, beside its index and byte offset in the read's output and its field;
/// one that is the array's fill value (its chunk not stored) says so.
#[test]
fn an_invalid_element_names_its_chunk_and_place_in_the_array() {
    let dir = scratch("invalid_element");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = ArrayOptions::new(vec![4, 4], vec![2, 2])
        .compression(Compression::None)
        .create(store.clone(), "/a", &Flagged::default())
        .unwrap();
    array
        .store_records(
            &[0..2, 0..4],
            &[Flagged {
                flag: true,
                kind: Kind::B,
            }; 8],
        )
        .unwrap();
    // Element [1, 3] of the array: the last of chunk c/0/1 (two bytes each), its `flag` 2.
    let chunk = dir.join("a/c/0/1");
    let mut bytes = std::fs::read(&chunk).unwrap();
    bytes[6] = 2;
    std::fs::write(&chunk, bytes).unwrap();
    let error = array
        .retrieve_records::<Flagged>(&[1..2, 2..4])
        .unwrap_err();
    says(
        &error,
        &[
            "chunk a/c/0/1, element [1, 3] of the array",
            "element 1 at field `flag`, byte offset 2",
        ],
        &["not stored"],
    );
    assert!(
        matches!(&error, Error::InvalidElement { stored: true, position, .. } if position == &[1, 3]),
        "{error:?}"
    );
    // The fill value's `kind` made 9, which no variant names: rows 2..4 are not stored.
    let document = dir.join("a/zarr.json");
    let text = std::fs::read_to_string(&document).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["fill_value"]["kind"] = json!(9);
    std::fs::write(&document, json.to_string()).unwrap();
    let array = open_array(store, "/a").unwrap();
    let error = array.retrieve_values(&[2..4, 0..4]).map(|_| ()).err();
    assert!(error.is_none(), "as values, 9 is a uint8: {error:?}");
    let error = array
        .retrieve_records::<Flagged>(&[2..4, 0..4])
        .unwrap_err();
    says(
        &error,
        &[
            "chunk a/c/1/0 (not stored: the element is the array's fill value), element [2, 0]",
            "no variant",
        ],
        &[],
    );
}

/// An inner chunk of a shard that does not decode is named, with its bytes in the shard, by
/// every read that comes to it (a shard read whole, part of one read through zarrs, one field,
/// values); a read of the shard's other inner chunks is not failed by it, and a read of another
/// damaged inner chunk names that one.
#[test]
fn a_damaged_inner_chunk_is_named_in_its_shard() {
    use zarrdt::array::ShardIndex;
    let dir = scratch("damaged_inner_chunk");
    // Two rows of 16 in one shard, inner chunks of 2 × 4 (zstd): inner chunks [0, 0] to [0, 3].
    let array = ArrayOptions::new(vec![2, 16], vec![2, 4])
        .shards(vec![2, 16])
        .compression(Compression::Zstd { level: 3 })
        .create(crate::common::store(&dir), "/", &Sample::default())
        .unwrap();
    array.store_records(&[0..2, 0..16], &samples(32)).unwrap();
    let index = ShardIndex::read(&array, &[0, 0]).unwrap().unwrap();
    let entries: Vec<_> = index.entries().iter().map(|e| e.clone().unwrap()).collect();
    // Past each frame's header, so that zstd fails on the bytes, not on a missing frame.
    let damage = |shard: &mut Vec<u8>, inner: usize| {
        let range = &entries[inner];
        for byte in &mut shard[range.start as usize + 4..range.end as usize] {
            *byte = 0x55;
        }
    };
    let file = dir.join("c/0/0");
    let mut shard = std::fs::read(&file).unwrap();
    damage(&mut shard, 2);
    std::fs::write(&file, &shard).unwrap();

    let array = open_array(crate::common::store(&dir), "/").unwrap();
    let second = &entries[2];
    let named = format!(
        "shard c/0/0, inner chunk [0, 2] (bytes {}..{} of the shard): zstd",
        second.start, second.end
    );
    for (what, error) in [
        (
            "whole",
            array
                .retrieve_records::<Sample>(&[0..2, 0..16])
                .unwrap_err(),
        ),
        (
            "part",
            array
                .retrieve_records::<Sample>(&[0..1, 9..10])
                .unwrap_err(),
        ),
        (
            "field",
            array
                .retrieve_field::<u32>(&[0..2, 0..16], &["id"])
                .unwrap_err(),
        ),
        ("values", array.retrieve_values(&[1..2, 6..14]).unwrap_err()),
    ] {
        assert!(
            matches!(&error, Error::InnerChunk { inner, .. } if inner == &[0, 2]),
            "{what}: {error:?}"
        );
        says(&error, &[&named], &[]);
    }
    // The other inner chunks read as written.
    let read = array.retrieve_records::<Sample>(&[0..2, 0..8]).unwrap();
    let all = samples(32);
    let expected: Vec<Sample> = [&all[0..8], &all[16..24]].concat();
    assert_eq!(read, expected);

    // A second damaged inner chunk: a read of it alone names it, not the first.
    damage(&mut shard, 3);
    std::fs::write(&file, &shard).unwrap();
    let error = array
        .retrieve_records::<Sample>(&[0..1, 13..15])
        .unwrap_err();
    says(&error, &["inner chunk [0, 3]"], &["inner chunk [0, 2]"]);
}
