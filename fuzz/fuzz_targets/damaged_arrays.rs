//! Arrays with damaged chunks and shards, read and written by zarrdt, read by zarrs: the read
//! path that splits whole shards itself (`records/read.rs`, `whole_shard.rs`), the streaming
//! reader and the writes that update a chunk or shard in part, where zarrs' own decode is the
//! reference.
//!
//! The input chooses a small array, sharded or not (one to three dimensions, edges everywhere,
//! tiles and rows of inner chunks, uncompressed or any of zarrdt's compressors, either byte
//! order; or numcodecs' crc32, crc32c, fletcher32, jenkins_lookup3 or base64, or zarr-python
//! 3's `numcodecs.zstd` or `numcodecs.blosc`, put in the metadata after the codecs or inside the shards' codecs, as
//! zarr-python writes them), the part of it written, and edits to the stored chunks and shards: bytes changed,
//! cut or added, index entries set to values near every limit (the index's crc32c made right
//! again, so that the entries reach the read), whole objects replaced or removed. The whole
//! array and one box are then read as records, as one field and as values on one, two and
//! three threads, and by the streaming `BlockReader`;
//! then a box is written over the damage and the whole array read again. What must hold:
//!
//! * nothing panics, reading or writing, and every error is one line;
//! * every thread count gives the same result: the same records, or the same error (the first
//!   fault in the output's order);
//! * records read mean the field, the values and the blocks read too, and agree with them;
//! * where zarrs reads the bytes and zarrdt reads records or blocks, they are the same bytes;
//!   where zarrs reads and zarrdt fails, zarrs' decode of some chunk whole fails too (zarrs
//!   reads part of a chunk from the bytes it needs), or the failure is a record zarrs does not
//!   check (a `bool` that is neither 0 nor 1) or a shard index zarrdt checks and zarrs does
//!   not.

#![no_main]

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use zarrdt::array::BlockReader;
use zarrdt::zarrs::array::{Array, ArrayBytes, ArraySubset};
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::zarrs::storage::{
    ListableStorageTraits, ReadableStorageTraits, StoreKey, WritableStorageTraits,
};
use serde_json::{Value as Json, json};
use zarrdt::{
    ArrayOptions, Compression, Endian, ReadRecords, WriteRecords, ZarrStruct, ZarrType, open_array,
};
use zarrdt_fuzz::Choices;

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Record {
    id: u32,
    mass: f64,
    alive: bool,
    tag: i16,
}

fn record(i: u64) -> Record {
    Record {
        id: (i as u32).wrapping_mul(2_654_435_761),
        mass: if i % 5 == 0 { -0.0 } else { i as f64 * 1.5 },
        alive: i % 3 == 0,
        tag: -(i as i16),
    }
}

const FILL: Record = Record {
    id: u32::MAX,
    mass: f64::NAN,
    alive: true,
    tag: 7,
};

/// A box within `shape`, of the input's choices.
fn region(input: &mut Choices, shape: &[u64]) -> Vec<Range<u64>> {
    shape
        .iter()
        .map(|&extent| {
            let start = u64::from(input.byte()) % extent;
            let len = 1 + u64::from(input.byte()) % (extent - start);
            start..start + len
        })
        .collect()
}

/// The three pools the reads run on: one, two and three threads.
fn pools() -> &'static [rayon::ThreadPool; 3] {
    static POOLS: OnceLock<[rayon::ThreadPool; 3]> = OnceLock::new();
    POOLS.get_or_init(|| {
        [1, 2, 3].map(|threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
        })
    })
}

/// An index entry's value near a limit: `shard` is the stored shard's length, `other` another
/// entry's value.
fn near_limit(input: &mut Choices, shard: u64, other: u64) -> u64 {
    let small = u64::from(input.byte());
    match input.byte() % 10 {
        0 => small,
        1 => shard.saturating_sub(small),
        2 => shard + small,
        3 => other,
        4 => other.wrapping_add(small),
        5 => other.wrapping_sub(small),
        6 => u64::MAX,
        7 => u64::MAX - small,
        8 => 1 << (small % 64),
        _ => small * 16,
    }
}

/// Applies one edit the input chooses to one of the chunks or shards in `keys` (shards of
/// `inner_chunks` inner chunks; none if the array is not sharded).
fn edit(input: &mut Choices, store: &MemoryStore, keys: &[StoreKey], inner_chunks: usize) {
    let key = &keys[usize::from(input.byte()) % keys.len()];
    let Ok(Some(stored)) = store.get(key) else {
        return;
    };
    let mut bytes = stored.to_vec();
    let index_len = inner_chunks * 16 + 4;
    match input.byte() % 7 {
        0 => {
            if !bytes.is_empty() {
                let at = input.u16() % bytes.len();
                bytes[at] = input.byte();
            }
        }
        1 => bytes.truncate(input.u16() % (bytes.len() + 1)),
        2 => {
            let count = usize::from(input.byte() % 32);
            bytes.extend((0..count).map(|_| input.byte()));
        }
        3 => {
            let _ = store.erase(key);
            return;
        }
        4 | 5 if bytes.len() >= index_len && inner_chunks > 0 => {
            // An index entry (offset or length), or two entries swapped; the checksum made
            // right again.
            let index = bytes.len() - index_len;
            let entry = |n: usize| index + (n % inner_chunks) * 16;
            let word = |bytes: &[u8], at: usize| {
                u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
            };
            let (a, b) = (
                entry(usize::from(input.byte())),
                entry(usize::from(input.byte())),
            );
            if input.byte() % 2 == 0 {
                let at = a + 8 * usize::from(input.byte() % 2);
                let value = near_limit(input, bytes.len() as u64, word(&bytes, b));
                bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
            } else {
                let (first, second) = (bytes[a..a + 16].to_vec(), bytes[b..b + 16].to_vec());
                bytes[a..a + 16].copy_from_slice(&second);
                bytes[b..b + 16].copy_from_slice(&first);
            }
            let end = bytes.len() - 4;
            let checksum = crc32c::crc32c(&bytes[index..end]);
            bytes[end..].copy_from_slice(&checksum.to_le_bytes());
        }
        _ => {
            let count = usize::from(input.byte());
            bytes = (0..count).map(|_| input.byte()).collect();
        }
    }
    store
        .set(key, bytes.into())
        .expect("the memory store takes any key");
}

/// What a read gave: its result, with floats by their bits and errors by their text.
type Outcome<T> = Result<T, String>;

/// An error's text, checked to be one line.
fn text(error: &zarrdt::array::Error) -> String {
    let text = error.to_string();
    assert!(!text.contains('\n'), "an error of several lines: {text}");
    assert!(text.len() < 64 * 1024, "an error of {} bytes", text.len());
    text
}

/// Whether zarrdt's failure is one zarrs has no reason to share: a record zarrs does not check,
/// or a shard index zarrdt checks before it reads.
fn stricter_than_zarrs(error: &zarrdt::array::Error) -> bool {
    match error {
        // An invalid element read from a chunk (named with its chunk and place); the core's
        // error as it is where no chunk is read.
        zarrdt::array::Error::InvalidElement { .. } => true,
        zarrdt::array::Error::Zarr(zarrdt::Error::InvalidElement { .. }) => true,
        zarrdt::array::Error::Shard { .. } => true,
        _ => false,
    }
}

/// Runs `read`, a read by zarrs, with its panics caught: `None` if it panics. zarrs 0.23
/// panics on some damaged shards (an index entry beyond the shard, in `sharding_codec.rs`; a
/// shard shorter than its index, in `MemoryStore::get_partial_many`): that is zarrs' read
/// failing, not zarrdt's. libFuzzer's hook, which aborts, is set aside meanwhile (nothing else
/// runs then).
fn caught<T>(read: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read));
    std::panic::set_hook(hook);
    read.ok()
}

/// What zarrs makes of `subset`: the bytes its read gives (`None` if it fails), and whether
/// every chunk (shard) the subset touches decodes whole. zarrs reads part of a chunk from the
/// bytes it needs, so it reads a chunk of the wrong length, say, that its own decode of the
/// whole chunk refuses, as zarrdt does.
fn zarrs_read(array: &Array<MemoryStore>, subset: &ArraySubset) -> (Option<Vec<u8>>, bool) {
    let bytes = caught(|| {
        let bytes: ArrayBytes<'static> = array.retrieve_array_subset(subset).ok()?;
        bytes.into_fixed().ok().map(|bytes| bytes.into_owned())
    })
    .flatten();
    let whole = caught(|| {
        let Ok(Some(chunks)) = array.chunks_in_array_subset(subset) else {
            return false;
        };
        chunks.indices().iter().all(|indices| {
            let chunk: Result<ArrayBytes<'static>, _> = array.retrieve_chunk(&indices);
            chunk.is_ok()
        })
    })
    .unwrap_or(false);
    (bytes, whole)
}

/// Reads `subset` every way, on every pool, and checks what must hold.
fn check(array: &Array<MemoryStore>, subset: &ArraySubset) {
    let mut first: Option<(Outcome<Vec<u8>>, Outcome<Vec<u64>>, Outcome<String>)> = None;
    let mut first_error = None;
    for pool in pools() {
        let (records, field, values) = pool.install(|| {
            (
                array.retrieve_records::<Record>(subset),
                array.retrieve_field::<f64>(subset, &["mass"]),
                array.retrieve_values(subset),
            )
        });
        let records_bytes = records
            .as_ref()
            .map(|records| Record::encode_slice(records, Endian::NATIVE))
            .map_err(text);
        let masses = field
            .as_ref()
            .map(|masses| masses.iter().map(|mass| mass.to_bits()).collect::<Vec<_>>())
            .map_err(text);
        let values_text = values
            .as_ref()
            .map(|values| format!("{values:?}"))
            .map_err(text);
        if let Ok(records) = &records {
            let expected: Vec<u64> = records.iter().map(|r| r.mass.to_bits()).collect();
            assert_eq!(
                masses.as_ref(),
                Ok(&expected),
                "the field of the records read"
            );
            let record_type = array.record_type().expect("a record type");
            let expected = record_type
                .native_layout()
                .decode_values(records_bytes.as_ref().expect("records"))
                .expect("records read decode as values");
            assert_eq!(
                values_text.as_ref(),
                Ok(&format!("{expected:?}")),
                "the values of the records read"
            );
        }
        let outcome = (records_bytes, masses, values_text);
        match &first {
            None => {
                first_error = records.err();
                first = Some(outcome);
            }
            Some(first) => assert_eq!(first, &outcome, "one thread and more read alike"),
        }
    }
    let Some((ours, ..)) = first else { return };
    // The streaming reader (`zarrdt dump`, `export`, Arrow batches): the records' bytes.
    let blocks = BlockReader::new(array).and_then(|mut reader| reader.read(subset));
    if let Ok(ours) = &ours {
        match &blocks {
            Ok(bytes) => assert!(bytes == ours, "blocks read what records read"),
            Err(error) => panic!("records read, blocks fail: {error}"),
        }
    }
    let (Some(theirs), whole) = zarrs_read(array, subset) else {
        return;
    };
    match &blocks {
        Ok(bytes) => assert!(*bytes == theirs, "blocks read what zarrs reads"),
        Err(error) => assert!(
            !whole || stricter_than_zarrs(error),
            "zarrs reads and decodes whole what blocks fail to: {error}"
        ),
    }
    match (ours, first_error) {
        (Ok(ours), _) => assert!(ours == theirs, "zarrdt reads what zarrs reads"),
        (Err(_), Some(error)) => assert!(
            !whole || stricter_than_zarrs(&error),
            "zarrs reads and decodes whole what zarrdt fails to: {error}"
        ),
        (Err(_), None) => unreachable!("an error kept with its text"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Choices::new(data);
    let dimensions = 1 + usize::from(input.byte() % 3);
    // Up to 72 elements in one dimension, 36² in two, 18³ in three.
    let (inner_max, per_shard_max) = [(6, 4), (3, 4), (2, 3)][dimensions - 1];
    let mut shape = Vec::new();
    let mut inner = Vec::new();
    let mut shards = Vec::new();
    for _ in 0..dimensions {
        let chunk = 1 + u64::from(input.byte()) % inner_max;
        let shard = chunk * (1 + u64::from(input.byte()) % per_shard_max);
        shape.push(1 + u64::from(input.byte()) % (3 * shard));
        inner.push(chunk);
        shards.push(shard);
    }
    // At most 32 chunks (inner chunks), so that the slower compressors (LZMA sets up a
    // dictionary of megabytes per chunk) take milliseconds too.
    let chunks = |shape: &[u64]| -> u64 {
        shape
            .iter()
            .zip(&inner)
            .map(|(extent, chunk)| extent.div_ceil(*chunk))
            .product()
    };
    while chunks(&shape) > 32 {
        let largest = (0..dimensions)
            .max_by_key(|&d| shape[d].div_ceil(inner[d]))
            .unwrap_or(0);
        shape[largest] = shape[largest].div_ceil(2);
    }
    let sharded = input.byte() % 4 != 0;
    let codec = input.byte();
    let compression = match codec % 18 {
        0..=2 | 11.. => Compression::None,
        3..=4 => Compression::Zstd { level: 1 },
        5 => Compression::Gzip { level: 1 },
        6 => Compression::BloscLz4 { level: 1 },
        7 => Compression::Zlib { level: 1 },
        8 => Compression::Bz2 { level: 1 },
        9 => Compression::Lz4,
        _ => Compression::Lzma { preset: 0 },
    };
    let numcodecs = match codec % 18 {
        11 => Some(json!({"name": "numcodecs.crc32", "configuration": {}})),
        12 => Some(json!({"name": "numcodecs.fletcher32", "configuration": {}})),
        13 => Some(json!({"name": "numcodecs.jenkins_lookup3", "configuration": {"initval": 7}})),
        14 => Some(json!({"name": "numcodecs.base64", "configuration": {}})),
        15 => Some(json!({"name": "numcodecs.zstd", "configuration": {}})),
        16 => Some(json!({"name": "numcodecs.crc32c", "configuration": {"location": "start"}})),
        17 => Some(json!({"name": "numcodecs.blosc", "configuration": {}})),
        _ => None,
    };
    let mut options = ArrayOptions::new(shape.clone(), inner.clone())
        .endian(if input.byte() % 2 == 0 {
            Endian::Little
        } else {
            Endian::Big
        })
        .compression(compression);
    if sharded {
        options = options.shards(shards.clone());
    }
    let store = Arc::new(MemoryStore::new());
    let mut array = options
        .create(store.clone(), "/", &FILL)
        .expect("a valid array");
    if let Some(numcodecs) = numcodecs {
        // After the codecs, or (half of the sharded arrays) after the shards' own.
        let key = StoreKey::new("zarr.json").expect("a key");
        let stored = store.get(&key).expect("read").expect("the metadata");
        let mut metadata: Json = serde_json::from_slice(&stored).expect("its JSON");
        let codecs = if sharded && codec / 18 % 2 == 0 {
            &mut metadata["codecs"][0]["configuration"]["codecs"]
        } else {
            &mut metadata["codecs"]
        };
        codecs.as_array_mut().expect("a codec list").push(numcodecs);
        let bytes = serde_json::to_vec(&metadata).expect("JSON");
        store.set(&key, bytes.into()).expect("written");
        array = open_array(store.clone(), "/").expect("opened with the numcodecs codec");
    }
    // The whole array, or a box of it, written.
    let written = if input.byte() % 2 == 0 {
        shape.iter().map(|&extent| 0..extent).collect()
    } else {
        region(&mut input, &shape)
    };
    let count: u64 = written
        .iter()
        .map(|range| range.end - range.start)
        .product();
    let records: Vec<Record> = (0..count).map(record).collect();
    array
        .store_records(&written, &records)
        .expect("records written");
    let keys: Vec<StoreKey> = store
        .list()
        .expect("a memory store lists its keys")
        .into_iter()
        .filter(|key| key.as_str() != "zarr.json")
        .collect();
    // Index entries are edited only in shards.
    let inner_chunks = if sharded {
        shards
            .iter()
            .zip(&inner)
            .map(|(shard, chunk)| (shard / chunk) as usize)
            .product()
    } else {
        0
    };
    let edits = input.byte() % 5;
    if !keys.is_empty() {
        for _ in 0..edits {
            edit(&mut input, &store, &keys, inner_chunks);
        }
    }
    let whole = ArraySubset::new_with_shape(shape.clone());
    check(&array, &whole);
    if !input.is_empty() {
        check(
            &array,
            &ArraySubset::new_with_ranges(&region(&mut input, &shape)),
        );
    }
    // A box written over the damage (a chunk or shard in part: zarrs reads the stored one to
    // update it), then everything read again.
    if !input.is_empty() {
        let over = region(&mut input, &shape);
        let count: u64 = over.iter().map(|range| range.end - range.start).product();
        let records: Vec<Record> = (0..count).map(|i| record(i + 1_000)).collect();
        if let Err(error) = array.store_records(&over, &records) {
            text(&error);
        }
        check(&array, &whole);
    }
});
