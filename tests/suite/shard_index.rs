//! [`ShardIndex`]: the one reader of shard indexes, which [`check_shards`] and `zarrdt
//! inspect` use: each inner chunk's byte range or its absence, the index decoded through its
//! codecs (a corrupt `crc32c` is an error naming the shard), entries checked.

use std::path::PathBuf;

use serde_json::{Value as Json, json};
use zarrdt::array::{
    ArrayOptions, BlockReader, Compression, Error as ArrayError, ShardIndex, check_shards,
    open_array,
};
use zarrdt::arrow::{ArrowRecords, TableWriter};
use zarrdt::zarrs::array::Array;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{ReadRecords, WriteRecords, ZarrStruct};

use crate::common::{scratch_dir, store};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    scratch_dir("shard_index", name)
}

/// Sixteen `u32`s in shards of 8 and inner chunks of 2, uncompressed; of the first shard only
/// the inner chunks [1] and [3] are written, the second shard is not.
fn array(name: &str, edit: impl FnOnce(&mut Json)) -> (PathBuf, Array<FilesystemStore>) {
    let dir = scratch(name);
    ArrayOptions::new(vec![16], vec![2])
        .shards(vec![8])
        .compression(Compression::None)
        .create(store(&dir), "/", &0u32)
        .unwrap();
    let metadata = dir.join("zarr.json");
    let mut document: Json = serde_json::from_slice(&std::fs::read(&metadata).unwrap()).unwrap();
    edit(&mut document);
    std::fs::write(&metadata, document.to_string()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    array.store_array_subset(&[2..4], &[2u32, 3]).unwrap();
    array.store_array_subset(&[6..8], &[6u32, 7]).unwrap();
    (dir, array)
}

#[test]
fn the_index_says_where_each_inner_chunk_is() {
    let (_, array) = array("plain", |_| {});
    let index = ShardIndex::read(&array, &[0]).unwrap().unwrap();
    assert_eq!(index.chunks_per_shard(), [4]);
    assert_eq!(index.written(), 2);
    let entries = index.entries();
    assert_eq!(entries.len(), 4);
    assert!(entries[0].is_none() && entries[2].is_none());
    // Two inner chunks of 8 bytes each, one after the other.
    let (first, second) = (entries[1].clone().unwrap(), entries[3].clone().unwrap());
    assert_eq!((first.end - first.start, second.end - second.start), (8, 8));
    assert!(first.end <= second.start || second.end <= first.start);
    // A shard that is not stored, and an array that is not sharded, have no index.
    assert_eq!(ShardIndex::read(&array, &[1]).unwrap(), None);
    let dir = scratch("unsharded");
    let plain = ArrayOptions::new(vec![4], vec![2])
        .create(store(&dir), "/", &0u32)
        .unwrap();
    plain.store_array_subset(&[0..4], &[1u32, 2, 3, 4]).unwrap();
    assert_eq!(ShardIndex::read(&plain, &[0]).unwrap(), None);
}

#[test]
fn shards_zstd_encodes_whole_are_decoded_for_their_index() {
    let (_, array) = array("encoded", |document| {
        document["codecs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "zstd", "configuration": {"level": 0, "checksum": false}}));
    });
    let index = ShardIndex::read(&array, &[0]).unwrap().unwrap();
    assert_eq!(index.written(), 2);
    assert!(index.entries()[1].is_some() && index.entries()[3].is_some());
}

/// The error of `result`, which must be [`ArrayError::Shard`] naming the first shard and
/// saying `problem`.
fn shard_error<T: std::fmt::Debug>(result: Result<T, ArrayError>, problem: &str) {
    let error = result.unwrap_err();
    assert!(
        matches!(&error, ArrayError::Shard { key, .. } if key == "c/0"),
        "{error:?}"
    );
    assert!(error.to_string().contains(problem), "{error}");
}

#[test]
fn a_corrupt_checksum_is_an_error_naming_the_shard() {
    let (dir, array) = array("bad_crc", |_| {});
    let file = dir.join("c/0");
    let mut shard = std::fs::read(&file).unwrap();
    // One bit of the index's first entry, its crc32c left as it was.
    let index = shard.len() - 4 * 16 - 4;
    shard[index] ^= 1;
    std::fs::write(&file, &shard).unwrap();
    shard_error(ShardIndex::read(&array, &[0]), "the checksum is invalid");
    shard_error(check_shards(&array, &[0..16]), "the checksum is invalid");
    shard_error(
        array.retrieve_records::<u32>(&[0..2]),
        "the checksum is invalid",
    );
    // A block reader checks a shard the first time a block touches it, and reads shards it
    // has not been refused before.
    let mut reader = BlockReader::new(&array).unwrap();
    // (the second shard is not stored: the fill value)
    let second = reader.read(&[8..10]).unwrap();
    assert_eq!(second, [0u32, 0].map(u32::to_ne_bytes).concat());
    shard_error(reader.read(&[6..10]), "the checksum is invalid");
    // The second shard is not touched by a read of its own.
    check_shards(&array, &[8..16]).unwrap();
}

#[test]
fn an_entry_outside_the_shard_names_the_entry() {
    // Without a checksum, so that the bad entry reaches the entry checks.
    let (dir, array) = array("bad_entry", |document| {
        document["codecs"][0]["configuration"]["index_codecs"] =
            json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
    });
    let file = dir.join("c/0");
    let mut shard = std::fs::read(&file).unwrap();
    let entry = shard.len() - 4 * 16 + 3 * 16;
    shard[entry..entry + 8].copy_from_slice(&1000u64.to_le_bytes());
    std::fs::write(&file, &shard).unwrap();
    shard_error(
        ShardIndex::read(&array, &[0]),
        "index entry 3 (inner chunk [3]): offset 1000, size 8",
    );
    shard_error(check_shards(&array, &[6..8]), "index entry 3");
    shard_error(
        BlockReader::new(&array).unwrap().read(&[6..8]),
        "index entry 3",
    );
}

#[test]
fn an_empty_entry_names_the_entry() {
    // Compressed inner chunks (so no size is fixed for them) and no checksum on the index.
    let (dir, array) = array("empty_entry", |document| {
        let sharding = &mut document["codecs"][0]["configuration"];
        sharding["index_codecs"] =
            json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
        sharding["codecs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "zstd", "configuration": {"level": 0, "checksum": false}}));
    });
    let file = dir.join("c/0");
    let mut shard = std::fs::read(&file).unwrap();
    let entry = shard.len() - 4 * 16 + 3 * 16;
    shard[entry + 8..entry + 16].copy_from_slice(&0u64.to_le_bytes());
    std::fs::write(&file, &shard).unwrap();
    let problem = "index entry 3 (inner chunk [3]): offset";
    shard_error(ShardIndex::read(&array, &[0]), problem);
    shard_error(
        array.retrieve_records::<u32>(&[6..8]),
        "size 0: an encoded inner chunk is never empty",
    );
    shard_error(BlockReader::new(&array).unwrap().read(&[6..8]), problem);
}

/// A record of the write test below.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Sample {
    id: u32,
    mass: f64,
}

/// A write over a shard whose index is damaged: zarrs reads a shard written in part to update
/// it, and its decode panics on an entry at offset 2⁶⁴ − 1 (zarrs 0.23.14; found by the
/// `read_shards` fuzz target). zarrdt checks such a shard's index first, as a read does: the
/// write is an error naming the entry, through `store_records`, `store_values` and an Arrow
/// `TableWriter`; a shard written whole is not read, so writing it whole mends it.
#[test]
fn a_write_over_a_damaged_index_is_an_error_naming_the_entry() {
    let dir = scratch("write_over_bad_entry");
    ArrayOptions::new(vec![16], vec![2])
        .shards(vec![8])
        .compression(Compression::None)
        .create(store(&dir), "/", &Sample { id: 0, mass: 0.0 })
        .unwrap();
    // Without a checksum, so that the entry reaches the checks.
    let metadata = dir.join("zarr.json");
    let mut document: Json = serde_json::from_slice(&std::fs::read(&metadata).unwrap()).unwrap();
    document["codecs"][0]["configuration"]["index_codecs"] =
        json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
    std::fs::write(&metadata, document.to_string()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let samples: Vec<Sample> = (0..16)
        .map(|i| Sample {
            id: i,
            mass: f64::from(i) / 2.0,
        })
        .collect();
    array.store_records(&[0..16], &samples).unwrap();
    // Entry 3 of the first shard at offset 2⁶⁴ − 1.
    let file = dir.join("c/0");
    let mut shard = std::fs::read(&file).unwrap();
    let entry = shard.len() - 4 * 16 + 3 * 16;
    shard[entry..entry + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&file, &shard).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let entry_3 = "index entry 3 (inner chunk [3]): offset 18446744073709551615, size";

    shard_error(array.store_records(&[0..2], &samples[..2]), entry_3);
    let values = array.retrieve_values(&[8..10]).unwrap();
    shard_error(array.store_values(&[1..3], &values), entry_3);
    let mut writer = TableWriter::open(array, 2).unwrap();
    let batch = Sample::to_record_batch(&samples[..3]).unwrap();
    // Rows 2..5 reach shard c/0 in part, when written or at the latest when finished.
    let error = match writer.write(&batch) {
        Err(error) => error,
        Ok(()) => writer.finish().unwrap_err(),
    }
    .to_string();
    assert!(
        error.contains("shard c/0") && error.contains(entry_3),
        "{error}"
    );

    // Nothing of it written; the shard after it is written in part as before.
    let array = open_array(store(&dir), "/").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), shard);
    array.store_records(&[9..11], &samples[..2]).unwrap();
    // The damaged shard written whole is mended.
    array.store_records(&[0..8], &samples[8..]).unwrap();
    let read: Vec<Sample> = array.retrieve_records(&[0..16]).unwrap();
    let expected: Vec<Sample> =
        [&samples[8..], &samples[8..9], &samples[..2], &samples[11..]].concat();
    assert_eq!(read, expected);
}

/// Sixteen `u32`s in shards of 8 whose inner chunks of 4 are themselves shards (nested
/// sharding, as zarr-python writes with a `ShardingCodec` among the inner codecs), of inner
/// chunks of 2, uncompressed; the nested index without a checksum, so that it can be damaged
/// alone.
fn nested_array(name: &str) -> (PathBuf, Vec<u32>) {
    nested_array_of(name, json!([]))
}

/// [`nested_array`] with `compressors` after the innermost chunks' `bytes` codec.
fn nested_array_of(name: &str, compressors: Json) -> (PathBuf, Vec<u32>) {
    let mut codecs = vec![json!({"name": "bytes", "configuration": {"endian": "little"}})];
    codecs.extend(compressors.as_array().into_iter().flatten().cloned());
    let (dir, _) = array(name, |document| {
        let sharding = &mut document["codecs"][0]["configuration"];
        sharding["chunk_shape"] = json!([4]);
        sharding["codecs"] = json!([{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2],
            "codecs": codecs,
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
            "index_location": "end"}}]);
        document["chunk_grid"]["configuration"]["chunk_shape"] = json!([8]);
    });
    let values: Vec<u32> = (100..116).collect();
    let array = open_array(store(&dir), "/").unwrap();
    array.store_records(&[0..16], &values).unwrap();
    (dir, values)
}

/// The index of a shard nested in an inner chunk is checked as the outer one is, before zarrs
/// reads it (zarrs 0.23.14 trusts it: an entry of 2^40 bytes aborted the process, one whose
/// offset and size overflow panicked), by every read: whole, in part, through `check_shards`
/// and `BlockReader`.
#[test]
fn a_nested_shard_index_is_checked() {
    let (dir, values) = nested_array("nested");
    let array = open_array(store(&dir), "/").unwrap();
    assert_eq!(array.retrieve_records::<u32>(&[0..16]).unwrap(), values);
    assert_eq!(
        array.retrieve_records::<u32>(&[5..11]).unwrap(),
        &values[5..11]
    );
    // The outer index of shard c/0: two entries, the inner chunk [1] a nested shard of two
    // inner chunks of 8 bytes and its own index of 32 bytes at its end.
    let outer = ShardIndex::read(&array, &[0]).unwrap().unwrap();
    let nested = outer.entries()[1].clone().unwrap();
    assert_eq!(nested.end - nested.start, 16 + 32);
    let file = dir.join("c/0");
    let intact = std::fs::read(&file).unwrap();
    for (offset, nbytes) in [(0u64, 1u64 << 40), (u64::MAX - 3, 10)] {
        let mut shard = intact.clone();
        // The nested index's entry 0.
        let at = (nested.end - 32) as usize;
        shard[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        shard[at + 8..at + 16].copy_from_slice(&nbytes.to_le_bytes());
        std::fs::write(&file, &shard).unwrap();
        let said = format!(
            "shard c/0: inner chunk [1], itself a shard: index entry 0 (inner chunk [0]): \
             offset {offset}, size {nbytes}"
        );
        let array = open_array(store(&dir), "/").unwrap();
        for subset in [[0..16], [4..6], [0..2]] {
            let error = array.retrieve_records::<u32>(&subset).unwrap_err();
            assert!(error.to_string().contains(&said), "{subset:?}: {error}");
        }
        let error = check_shards(&array, &[0..16]).unwrap_err();
        assert!(error.to_string().contains(&said), "{error}");
        let mut blocks = BlockReader::new(&array).unwrap();
        let error = blocks.read(&[4..6]).unwrap_err();
        assert!(error.to_string().contains(&said), "{error}");
        // The other shard reads.
        assert_eq!(
            array.retrieve_records::<u32>(&[8..16]).unwrap(),
            &values[8..]
        );
    }
}

/// A fault in an inner chunk of a nested shard names that inner chunk, inside the outer one
/// (which is a shard, not the chunk the codec's error is about), by every read: whole, in
/// part, through `BlockReader` and one field. Here the innermost chunk [0] of the outer inner
/// chunk [1] is a Blosc stream whose header declares 800 MB where the chunk is 8 bytes.
#[test]
fn a_fault_in_a_nested_shard_names_the_innermost_chunk() {
    let blosc = json!([{"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5,
        "shuffle": "shuffle", "typesize": 4, "blocksize": 0}}]);
    let (dir, values) = nested_array_of("nested_fault", blosc);
    let array = open_array(store(&dir), "/").unwrap();
    // The outer inner chunk [1], a shard of two Blosc chunks and its index of 32 bytes at its
    // end, whose entry 0 places its inner chunk [0].
    let outer = ShardIndex::read(&array, &[0]).unwrap().unwrap();
    let nested = outer.entries()[1].clone().unwrap();
    let file = dir.join("c/0");
    let mut shard = std::fs::read(&file).unwrap();
    let index = (nested.end - 32) as usize;
    let entry = |at: usize| u64::from_le_bytes(shard[at..at + 8].try_into().unwrap());
    let (offset, nbytes) = (entry(index), entry(index + 8));
    let blosc = (nested.start + offset) as usize;
    shard[blosc + 4..blosc + 8].copy_from_slice(&800_000_000u32.to_le_bytes());
    std::fs::write(&file, &shard).unwrap();

    let said = format!(
        "shard c/0, inner chunk [1] (bytes {}..{} of the shard), itself a shard: inner chunk \
         [0] (bytes {offset}..{} of it): blosc: the stream decodes to 800000000 bytes",
        nested.start,
        nested.end,
        offset + nbytes
    );
    let array = open_array(store(&dir), "/").unwrap();
    for subset in [[0..16], [4..6], [4..5]] {
        let error = array.retrieve_records::<u32>(&subset).unwrap_err();
        assert!(error.to_string().contains(&said), "{subset:?}: {error}");
        let ArrayError::InnerChunk { inner, nested, .. } = &error else {
            panic!("{subset:?}: {error:?}");
        };
        assert_eq!(
            (inner.as_slice(), nested.len()),
            (&[1][..], 1),
            "{subset:?}"
        );
        assert_eq!(nested[0].inner, [0]);
        assert_eq!(nested[0].bytes, offset..offset + nbytes);
    }
    let error = array.retrieve_field::<u32>(&[4..6], &[]).unwrap_err();
    assert!(error.to_string().contains(&said), "{error}");
    let mut blocks = BlockReader::new(&array).unwrap();
    let error = blocks.read(&[4..5]).unwrap_err();
    assert!(error.to_string().contains(&said), "{error}");
    // The other inner chunks read.
    assert_eq!(
        array.retrieve_records::<u32>(&[0..4]).unwrap(),
        &values[..4]
    );
    assert_eq!(
        array.retrieve_records::<u32>(&[6..16]).unwrap(),
        &values[6..]
    );
}
