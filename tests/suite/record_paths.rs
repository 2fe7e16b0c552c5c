//! zarrdt's record paths (`ReadRecords`, `WriteRecords`) against zarrs' own element paths on
//! the same arrays (issue 17): random arrays of one to three dimensions, chunked and sharded,
//! uncompressed and zstd, in both byte orders, partly written (missing chunks read as the
//! fill value), with random subsets that cut chunks and shards at their edges; every record
//! read, every field of them, and every write must equal what zarrs reads and writes.

use std::ops::Range;
use std::sync::Arc;

use zarrdt::array::{ArrayOptions, Compression};
use zarrdt::value::Value;
use zarrdt::zarrs::array::{Array, ArraySubset};
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::{Endian, FixedString, ReadRecords, WriteRecords, ZarrStruct, ZarrType};

#[derive(ZarrStruct, Clone, Debug, PartialEq)]
struct Mixed {
    id: i64,
    flag: bool,
    value: f32,
    tag: FixedString<2>,
    pair: [u16; 2],
    small: u8,
}

fn mixed(i: u64) -> Mixed {
    Mixed {
        id: i as i64 * 7 - 3,
        flag: i.is_multiple_of(3),
        value: i as f32 * 0.5,
        tag: FixedString::new(["ab", "c", ""][(i % 3) as usize]).unwrap(),
        pair: [i as u16, (i * 3) as u16],
        small: (i % 251) as u8,
    }
}

/// A small deterministic generator (xorshift).
struct Bits(u64);

impl Bits {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random subset of `shape` (possibly empty along a dimension).
fn subset(bits: &mut Bits, shape: &[u64]) -> Vec<Range<u64>> {
    shape
        .iter()
        .map(|&extent| {
            let start = bits.below(extent + 1);
            start..start + bits.below(extent - start + 1)
        })
        .collect()
}

fn count(ranges: &[Range<u64>]) -> usize {
    ranges.iter().map(|r| (r.end - r.start) as usize).product()
}

/// A random array: its shape, and two arrays of it (one written by zarrdt, one by zarrs).
fn arrays(bits: &mut Bits, case: usize) -> (Vec<u64>, [Array<MemoryStore>; 2]) {
    let dimensions = 1 + bits.below(3) as usize;
    let shape: Vec<u64> = (0..dimensions).map(|_| 1 + bits.below(9)).collect();
    let chunks: Vec<u64> = shape.iter().map(|_| 1 + bits.below(4)).collect();
    let make = || {
        let mut options = ArrayOptions::new(shape.clone(), chunks.clone())
            .endian(if case.is_multiple_of(2) {
                Endian::Little
            } else {
                Endian::Big
            })
            .compression(if case.is_multiple_of(3) {
                Compression::Zstd { level: 1 }
            } else {
                Compression::None
            });
        if case % 4 >= 2 {
            options = options.shards(chunks.iter().map(|c| c * 2).collect());
        }
        options
            .create(Arc::new(MemoryStore::new()), "/", &mixed(1_000_000))
            .unwrap()
    };
    let arrays = [make(), make()];
    (shape, arrays)
}

#[test]
fn records_read_and_written_as_zarrs_reads_and_writes_them() {
    let mut bits = Bits(0x9e37_79b9_7f4a_7c15);
    for case in 0..240 {
        let (shape, [ours, theirs]) = arrays(&mut bits, case);
        // Some writes through each path, the same records at the same places.
        for round in 0..3 {
            let ranges = subset(&mut bits, &shape);
            let records: Vec<Mixed> = (0..count(&ranges) as u64)
                .map(|i| mixed(i + 100 * round))
                .collect();
            ours.store_records(&ranges, &records).unwrap();
            theirs.store_array_subset(&ranges, &records).unwrap();
        }
        let all: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
        let expected: Vec<Mixed> = theirs.retrieve_array_subset(&all).unwrap();
        let written: Vec<Mixed> = ours.retrieve_array_subset(&all).unwrap();
        assert_eq!(
            written, expected,
            "case {case} {shape:?}: the writes differ"
        );
        // Reads of random subsets, as records, one field and values.
        for _ in 0..4 {
            let ranges = subset(&mut bits, &shape);
            let zarrs: Vec<Mixed> = theirs.retrieve_array_subset(&ranges).unwrap();
            let records: Vec<Mixed> = theirs.retrieve_records(&ranges).unwrap();
            assert_eq!(records, zarrs, "case {case} {shape:?} {ranges:?}");
            let ids: Vec<i64> = theirs.retrieve_field(&ranges, &["id"]).unwrap();
            assert_eq!(ids, zarrs.iter().map(|r| r.id).collect::<Vec<_>>());
            let pairs: Vec<[u16; 2]> = theirs.retrieve_field(&ranges, &["pair"]).unwrap();
            assert_eq!(pairs, zarrs.iter().map(|r| r.pair).collect::<Vec<_>>());
            let values: Vec<Value> = theirs.retrieve_values(&ranges).unwrap();
            assert_eq!(
                values,
                zarrs.iter().map(Mixed::to_value).collect::<Vec<_>>()
            );
            let mut appended = vec![mixed(5)];
            theirs
                .retrieve_records_into(&ranges, &mut appended)
                .unwrap();
            assert_eq!(appended[1..], zarrs[..]);
        }
    }
}

/// Large runs are decoded by all threads: an invalid record among them is found and named by
/// its index in the output, its field and byte offset, as the one-thread path names it.
#[test]
fn an_invalid_record_in_a_large_read_is_named_by_its_index() {
    let n = 200_000u64;
    let quarter = n / 4;
    let array = ArrayOptions::new(vec![n], vec![quarter])
        .compression(Compression::None)
        .endian(Endian::NATIVE)
        .create(Arc::new(MemoryStore::new()), "/", &mixed(0))
        .unwrap();
    let records: Vec<Mixed> = (0..n).map(mixed).collect();
    array.store_records(&[0..n], &records).unwrap();
    // The flag of record `bad` (in the third chunk) becomes 2, stored as it is.
    let bad = 123_457u64;
    let third = &records[(2 * quarter) as usize..(3 * quarter) as usize];
    let mut bytes = Mixed::encode_slice(third, Endian::NATIVE);
    let flag = Mixed::OFFSETS[1];
    bytes[(bad - 2 * quarter) as usize * Mixed::SIZE + flag] = 2;
    array
        .store_chunk(&[2], zarrdt::zarrs::array::ArrayBytes::new_flen(bytes))
        .unwrap();
    let from = 1000;
    let error = array
        .retrieve_records::<Mixed>(&[from..n])
        .unwrap_err()
        .to_string();
    let index = bad - from;
    let offset = index as usize * Mixed::SIZE + flag;
    for part in [
        format!("element {index}"),
        "flag".into(),
        format!("byte offset {offset}"),
    ] {
        assert!(error.contains(&part), "{error:?} does not say {part:?}");
    }
    let subset = ArraySubset::new_with_ranges(&[0..n]);
    let error = array
        .retrieve_field::<bool>(&subset, &["flag"])
        .unwrap_err()
        .to_string();
    let offset = bad as usize * Mixed::SIZE + flag;
    for part in [
        format!("element {bad}"),
        "flag".into(),
        format!("byte offset {offset}"),
    ] {
        assert!(error.contains(&part), "{error:?} does not say {part:?}");
    }
}
