//! numcodecs' zlib, bz2, lz4 and lzma through zarrdt (issue 19): round trips in Zarr v3 and v2,
//! the configurations zarr-python writes, corrupt chunks, decoding bounded by the chunk's size
//! whatever a chunk says about itself, shards that codecs encode whole, and the error for a
//! codec zarrdt does not read. numcodecs' crc32, crc32c, fletcher32 and jenkins_lookup3
//! checksums, base64, and zarr-python 3's `numcodecs.*` names of zstd, gzip and blosc: round
//! trips, and a damaged chunk named at each read.

use std::path::{Path, PathBuf};

use rusty_fork::rusty_fork_test;
use serde_json::{Value as Json, json};
use zarrdt::array::{ArrayOptions, Compression, Error as ArrayError, check_shards, open_array};
use zarrdt::layout::Layout;
use zarrdt::value::Value;
use zarrdt::zarrs::array::codec::ZstdCodec;
use zarrdt::zarrs::array::{Array, BytesRepresentation, BytesToBytesCodecTraits, CodecOptions};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, FixedString, ZarrStruct, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

use crate::common::{meter, store};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f64,
    valid: bool,
}

/// Nested, text, bool and float fields.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Station {
    id: u16,
    name: FixedString<5>,
    at: Position,
    level: f32,
}

fn station(i: usize) -> Station {
    let names = ["", "abc", "héllo", "日本"];
    Station {
        id: u16::try_from(i * 7919 % 65_536).unwrap(),
        name: FixedString::new(names[i % names.len()]).unwrap(),
        at: Position {
            x: [
                0.5,
                -0.0,
                f64::INFINITY,
                f64::from_bits(0x7ff8_0000_0000_0001),
            ][i % 4],
            valid: i.is_multiple_of(3),
        },
        level: f32::from_bits(0x3f80_0000 + u32::try_from(i).unwrap()),
    }
}

fn station_fill() -> Station {
    Station {
        id: 9,
        name: FixedString::new("fill").unwrap(),
        at: Position {
            x: f64::from_bits(0xfff8_0000_0000_0042),
            valid: true,
        },
        level: -0.0,
    }
}

const NUMCODECS: [Compression; 7] = [
    Compression::Zlib { level: 1 },
    Compression::Zlib { level: 9 },
    Compression::Bz2 { level: 1 },
    Compression::Bz2 { level: 9 },
    Compression::Lz4,
    Compression::Lzma { preset: 0 },
    Compression::Lzma { preset: 6 },
];

/// The v3 name and v2 id a compression is written with.
fn names(compression: &Compression) -> (&'static str, &'static str) {
    match compression {
        Compression::Zlib { .. } => ("numcodecs.zlib", "zlib"),
        Compression::Bz2 { .. } => ("numcodecs.bz2", "bz2"),
        Compression::Lz4 => ("numcodecs.lz4", "lz4"),
        Compression::Lzma { .. } => ("numcodecs.lzma", "lzma"),
        other => panic!("not a numcodecs compression: {other:?}"),
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("codecs", name)
}

fn read_json(path: &Path) -> Json {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A v3 array of 12 stations in chunks of 3, `compression`ed: elements 0..5 written (chunk 2
/// and 3 never), in `endian`.
fn written_v3(dir: &Path, compression: Compression, endian: Endian) -> Array<FilesystemStore> {
    let array = ArrayOptions::new(vec![12], vec![3])
        .compression(compression)
        .endian(endian)
        .create(store(dir), "/", &station_fill())
        .unwrap();
    let records: Vec<Station> = (0..5).map(station).collect();
    array.store_array_subset(&[0..5], &records).unwrap();
    array
}

/// What `written_v3` reads back as.
fn expected() -> Vec<Value> {
    (0..12)
        .map(|i| if i < 5 { station(i) } else { station_fill() }.to_value())
        .collect()
}

#[test]
fn every_numcodecs_compression_round_trips_in_zarr_v3() {
    for (n, compression) in NUMCODECS.iter().enumerate() {
        for endian in [Endian::Little, Endian::Big] {
            let dir = scratch(&format!("v3_{n}_{endian}"));
            written_v3(&dir, compression.clone(), endian);
            let codecs = read_json(&dir.join("zarr.json"))["codecs"].clone();
            assert_eq!(codecs[1]["name"], names(compression).0, "{codecs}");
            assert!(!dir.join("c/2").exists() && !dir.join("c/3").exists());
            let array = open_array(store(&dir), "/").unwrap();
            assert_eq!(
                array.retrieve_values(&[0..12]).unwrap(),
                expected(),
                "{compression:?} {endian}"
            );
            // Derived records too (compared as values: the fill holds a NaN).
            let back: Vec<Station> = array.retrieve_array_subset(&[4..6]).unwrap();
            let back: Vec<Value> = back.iter().map(ZarrType::to_value).collect();
            assert_eq!(back, expected()[4..6]);
        }
    }
}

#[test]
fn every_numcodecs_compression_round_trips_in_zarr_v2() {
    // One byte order per field, a subarray, and a null fill (the zero record).
    let layout =
        Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8", [2]], ["c", "|b1"]])).unwrap();
    let value = |i: i32| -> Value {
        layout
            .value_from_json(&json!({"a": i, "b": [f64::from(i) / 4.0, -0.0], "c": i % 2 == 0}))
            .unwrap()
    };
    for (n, compression) in NUMCODECS.iter().enumerate() {
        let dir = scratch(&format!("v2_{n}"));
        let array = ArrayOptions::new(vec![7], vec![2])
            .compression(compression.clone())
            .create_v2(store(&dir), "/", &layout, None)
            .unwrap();
        array
            .store_values(&[1..4], &[value(1), value(2), value(3)])
            .unwrap();
        let compressor = read_json(&dir.join(".zarray"))["compressor"].clone();
        assert_eq!(compressor["id"], names(compression).1, "{compressor}");
        let array = open_array(store(&dir), "/").unwrap();
        let zero = layout.zero_value();
        let want = [
            zero.clone(),
            value(1),
            value(2),
            value(3),
            zero.clone(),
            zero.clone(),
            zero,
        ];
        assert_eq!(
            array.retrieve_values(&[0..7]).unwrap(),
            want,
            "{compression:?}"
        );
    }
}

/// A record of 320 bytes, past the largest type size blosc shuffles by.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Wide {
    values: [f64; 40],
}

/// Blosc arrays of records over 255 bytes say `"typesize": 1` (c-blosc's own reading of a
/// larger type size, so the same chunk bytes), which tensorstore accepts; it refused the
/// record's size (320) as out of its range 1 to 255.
#[test]
fn blosc_of_records_over_255_bytes_is_written_with_typesize_1() {
    for (size, typesize) in [(Wide::SIZE, 1), (Station::SIZE, Station::SIZE)] {
        let dir = scratch(&format!("blosc_typesize_{size}"));
        let options =
            ArrayOptions::new(vec![10], vec![4]).compression(Compression::BloscLz4 { level: 5 });
        let written: Vec<Value> = if size == Wide::SIZE {
            let array = options
                .create(store(&dir), "/", &Wide { values: [0.0; 40] })
                .unwrap();
            let records: Vec<Wide> = (0..10)
                .map(|i| Wide {
                    values: std::array::from_fn(|j| (i * 40 + j) as f64),
                })
                .collect();
            array.store_records(&[0..10], &records).unwrap();
            records.iter().map(ZarrType::to_value).collect()
        } else {
            let array = options.create(store(&dir), "/", &station_fill()).unwrap();
            let records: Vec<Station> = (0..10).map(station).collect();
            array.store_records(&[0..10], &records).unwrap();
            records.iter().map(ZarrType::to_value).collect()
        };
        let codecs = read_json(&dir.join("zarr.json"))["codecs"].clone();
        assert_eq!(codecs[1]["name"], "blosc", "{codecs}");
        assert_eq!(codecs[1]["configuration"]["typesize"], typesize, "{codecs}");
        let array = open_array(store(&dir), "/").unwrap();
        assert_eq!(array.retrieve_values(&[0..10]).unwrap(), written);
    }
}

#[test]
fn the_v2_compressors_are_numcodecs_configurations() {
    let layout = Layout::from_v2_json(&json!([["a", "<u2"]])).unwrap();
    for (compression, want) in [
        (
            Compression::Zlib { level: 4 },
            json!({"id": "zlib", "level": 4}),
        ),
        (
            Compression::Bz2 { level: 2 },
            json!({"id": "bz2", "level": 2}),
        ),
        (Compression::Lz4, json!({"id": "lz4", "acceleration": 1})),
        (
            Compression::Lzma { preset: 3 },
            json!({"id": "lzma", "format": 1, "check": -1, "preset": 3, "filters": null}),
        ),
    ] {
        let dir = scratch(&format!("v2_config_{}", names(&compression).1));
        ArrayOptions::new(vec![4], vec![2])
            .compression(compression)
            .create_v2(store(&dir), "/", &layout, None)
            .unwrap();
        assert_eq!(read_json(&dir.join(".zarray"))["compressor"], want);
    }
}

#[test]
fn bad_levels_are_errors() {
    for compression in [
        Compression::Zlib { level: 10 },
        Compression::Bz2 { level: 0 },
        Compression::Lzma { preset: 10 },
    ] {
        let dir = scratch("bad_level");
        let error = ArrayOptions::new(vec![4], vec![2])
            .compression(compression.clone())
            .create(store(&dir), "/", &station_fill())
            .map(|_| ())
            .unwrap_err();
        assert!(error.to_string().contains("level") || error.to_string().contains("preset"));
    }
}

/// Levels in metadata outside numcodecs' ranges are errors naming the codec when the array is
/// opened, in Zarr v3 and v2: a bz2 level of 0 made zarrs 0.23.14 panic (found by the
/// `cli_dump` fuzz target).
#[test]
fn bad_levels_in_metadata_are_errors_when_opened() {
    for (compression, configuration, message) in [
        (
            Compression::Bz2 { level: 1 },
            json!({"level": 0}),
            "level 0 is not 1 to 9",
        ),
        (
            Compression::Bz2 { level: 1 },
            json!({"level": 10}),
            "level 10 is not 1 to 9",
        ),
        (
            Compression::Zlib { level: 1 },
            json!({"level": -1}),
            "level -1 is not 0 to 9",
        ),
    ] {
        let dir = scratch("bad_level_in_metadata");
        written_v3(&dir, compression, Endian::Little);
        set_configuration(&dir, 1, configuration.clone());
        let error = open_array(store(&dir), "/")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(error.contains(message), "{configuration}: {error}");
    }
    // Zarr v2: records and plain numbers, as the compressor and as a filter.
    for (dtype, compressor, filters, member) in [
        (
            json!([["a", "<i4"]]),
            json!({"id": "bz2", "level": 0}),
            Json::Null,
            "compressor",
        ),
        (
            json!("<i4"),
            json!({"id": "bz2", "level": 0}),
            Json::Null,
            "compressor",
        ),
        (
            json!("<i4"),
            Json::Null,
            json!([{"id": "bz2", "level": 0}]),
            "filters[0]",
        ),
    ] {
        let dir = scratch("bad_level_in_v2_metadata");
        let zarray = json!({"zarr_format": 2, "shape": [4], "chunks": [2], "dtype": dtype,
            "fill_value": null, "order": "C", "compressor": compressor, "filters": filters});
        std::fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
        let error = open_array(store(&dir), "/")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(error.contains("level 0 is not 1 to 9"), "{zarray}: {error}");
        assert!(error.contains(member), "{zarray}: {error}");
    }
}

/// Rewrites the configuration of codec `at` of the array's `zarr.json`.
fn set_configuration(dir: &Path, at: usize, configuration: Json) {
    let mut document = read_json(&dir.join("zarr.json"));
    document["codecs"][at]["configuration"] = configuration;
    std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
}

#[test]
fn the_default_configurations_zarr_python_3_writes_read() {
    // zarr-python 3 writes `numcodecs.lz4` with `{}` for `LZ4()`, and so for the others.
    for (n, compression) in [
        Compression::Zlib { level: 5 },
        Compression::Bz2 { level: 5 },
        Compression::Lz4,
        Compression::Lzma { preset: 6 },
    ]
    .into_iter()
    .enumerate()
    {
        let dir = scratch(&format!("defaults_{n}"));
        written_v3(&dir, compression, Endian::Little);
        set_configuration(&dir, 1, json!({}));
        let array = open_array(store(&dir), "/").unwrap();
        assert_eq!(array.retrieve_values(&[0..12]).unwrap(), expected());
    }
}

#[test]
fn every_lzma_format_and_filter_chain_numcodecs_writes_reads_and_writes() {
    for (n, configuration) in [
        json!({"format": 1, "check": 0, "preset": 9}),
        json!({"format": 1, "check": 10, "preset": null, "filters": null}),
        json!({"format": 2, "preset": 1}),
        json!({"format": 3, "filters": [{"id": 3, "dist": 4}, {"id": 33, "preset": 1}]}),
        json!({"format": 3, "filters": [{"id": 4611686018427387905_u64, "lc": 1, "pb": 0}]}),
        json!({"format": 1, "filters": [{"id": 4}, {"id": 33, "dict_size": 65536}]}),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = scratch(&format!("lzma_{n}"));
        // Created empty, given the configuration, then written and read through it.
        ArrayOptions::new(vec![12], vec![3])
            .compression(Compression::Lzma { preset: 6 })
            .create(store(&dir), "/", &station_fill())
            .unwrap();
        set_configuration(&dir, 1, configuration.clone());
        let array = open_array(store(&dir), "/").unwrap();
        let records: Vec<Station> = (0..5).map(station).collect();
        array.store_array_subset(&[0..5], &records).unwrap();
        let array = open_array(store(&dir), "/").unwrap();
        assert_eq!(
            array.retrieve_values(&[0..12]).unwrap(),
            expected(),
            "{configuration}"
        );
    }
}

/// The error of reading elements 0..3 (chunk `c/0`) of the array in `dir`.
fn read_error(dir: &Path) -> String {
    let array = open_array(store(dir), "/").unwrap();
    let error = array.retrieve_values(&[0..3]).unwrap_err();
    assert!(
        matches!(&error, ArrayError::Chunk { key, .. } if key == "c/0"),
        "{error:?}"
    );
    error.to_string()
}

#[test]
fn corrupt_chunks_are_errors_naming_the_chunk_and_the_codec() {
    for (n, compression) in NUMCODECS.iter().enumerate() {
        let dir = scratch(&format!("corrupt_{n}"));
        written_v3(&dir, compression.clone(), Endian::Little);
        let chunk = dir.join("c/0");
        let good = std::fs::read(&chunk).unwrap();
        let codec = names(compression).1;

        let mut flipped = good.clone();
        for byte in flipped.iter_mut().skip(4).step_by(3) {
            *byte ^= 0xa5;
        }
        std::fs::write(&chunk, &flipped).unwrap();
        let error = read_error(&dir);
        assert!(error.contains(codec), "{compression:?}: {error}");

        std::fs::write(&chunk, &good[..good.len() / 2]).unwrap();
        let error = read_error(&dir);
        assert!(error.contains(codec), "{compression:?}: {error}");

        let mut trailing = good.clone();
        trailing.extend_from_slice(b"trailing");
        std::fs::write(&chunk, &trailing).unwrap();
        // lz4 blocks have no end marker: the bytes after one are an error in the block.
        let error = read_error(&dir);
        assert!(error.contains(codec), "{compression:?}: {error}");
    }
}

#[test]
fn an_lz4_length_other_than_the_chunks_is_an_error() {
    let dir = scratch("lz4_length");
    written_v3(&dir, Compression::Lz4, Endian::Little);
    let chunk = dir.join("c/0");
    let mut bytes = std::fs::read(&chunk).unwrap();
    let size = 3 * Station::layout(Endian::Little).size() as u32;
    assert_eq!(bytes[..4], size.to_le_bytes(), "numcodecs' framing");
    bytes[..4].copy_from_slice(&(size + 1).to_le_bytes());
    std::fs::write(&chunk, &bytes).unwrap();
    let error = read_error(&dir);
    assert!(
        error.contains(&format!("says {} decoded bytes, expected {size}", size + 1)),
        "{error}"
    );
}

/// Replaces chunk `c/0` of the array in `dir` with `bytes`, then reads it, counting what the
/// read allocates: an error, and little memory.
fn hostile_chunk(dir: &Path, bytes: &[u8]) -> meter::Usage {
    std::fs::write(dir.join("c/0"), bytes).unwrap();
    let array = open_array(store(dir), "/").unwrap();
    let (result, usage) = meter::measure(|| array.retrieve_values(&[0..3]));
    let error = result.unwrap_err().to_string();
    assert!(error.contains("c/0"), "{error}");
    usage
}

rusty_fork_test! {
    /// A chunk of a few bytes whose lz4 header claims 2 GiB: refused before anything is
    /// allocated for it.
    #[test]
    fn a_hostile_lz4_length_header_allocates_nothing_for_it() {
        let dir = scratch("hostile_lz4");
        written_v3(&dir, Compression::Lz4, Endian::Little);
        let mut bytes = 0x7fff_ffff_u32.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0x1f, 0, 1, 0, 0, 0]);
        let usage = hostile_chunk(&dir, &bytes);
        assert!(usage.peak_bytes < 256 << 10, "{usage:?}");
    }
}

rusty_fork_test! {
    /// Chunks of a few kilobytes that decode to 64 MiB of zeros, in each compression, where
    /// the chunk is 3 records: decoding stops just past the chunk's size. bzip2's decoder
    /// itself takes 4 bytes per byte of its block (up to 900 kB), whatever the output; liblzma
    /// allocates in C, which this allocator does not see (its dictionary is the preset's,
    /// 256 KiB here, within the codec's memory limit).
    #[test]
    fn decompression_bombs_stop_at_the_chunk_size() {
        let zeros = vec![0u8; 64 << 20];
        let options = CodecOptions::default();
        for (n, (compression, most)) in [
            (Compression::Zlib { level: 9 }, 1 << 20),
            (Compression::Bz2 { level: 9 }, 4 << 20),
            (Compression::Lzma { preset: 0 }, 1 << 20),
        ]
        .into_iter()
        .enumerate()
        {
            let dir = scratch(&format!("bomb_{n}"));
            let array = written_v3(&dir, compression, Endian::Little);
            let codec = array.codecs().bytes_to_bytes_codecs()[0].clone();
            let bomb = codec.encode(std::borrow::Cow::Borrowed(&zeros), &options).unwrap();
            assert!(bomb.len() < 128 << 10, "{n}: {}", bomb.len());
            let usage = hostile_chunk(&dir, &bomb);
            assert!(usage.peak_bytes < most, "{n}: {usage:?}");
        }
    }
}

#[test]
fn codecs_zarrdt_does_not_read_are_named_with_the_array_and_a_remedy() {
    let dir = scratch("unsupported_v3");
    std::fs::create_dir_all(dir.join("group/a")).unwrap();
    written_v3(&dir.join("group/a"), Compression::Lz4, Endian::Little);
    let path = dir.join("group/a/zarr.json");
    let mut document = read_json(&path);
    document["codecs"][1] = json!({"name": "numcodecs.pickle", "configuration": {}});
    std::fs::write(&path, document.to_string()).unwrap();
    let error = open_array(store(&dir), "/group/a").map(|_| ()).unwrap_err();
    let ArrayError::Codec {
        path,
        codec,
        reason,
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(path, "/group/a");
    assert_eq!(
        serde_json::from_str::<Json>(codec).unwrap(),
        document["codecs"][1]
    );
    assert!(reason.contains("a zarrs codec plugin for it"), "{reason}");

    // A Zarr v2 structured array with a filter no program registers.
    let dir = scratch("unsupported_v2");
    let zarray = json!({"zarr_format": 2, "shape": [4], "chunks": [2], "dtype": [["a", "<i4"]],
        "fill_value": null, "order": "C", "compressor": null, "filters": [{"id": "jenkins_lookup2"}]});
    std::fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
    let error = open_array(store(&dir), "/")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains(r#"{"id":"jenkins_lookup2"}"#), "{error}");
    assert!(error.contains("a zarrs codec plugin for it"), "{error}");

    // A configuration zarrdt refuses: the error is the codec's.
    let dir = scratch("bad_configuration");
    written_v3(&dir, Compression::Lzma { preset: 1 }, Endian::Little);
    set_configuration(&dir, 1, json!({"format": 3}));
    let error = open_array(store(&dir), "/")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("numcodecs.lzma"), "{error}");
    assert!(error.contains("needs a filter chain"), "{error}");
}

/// Plain (not structured) Zarr v2 arrays as zarr-python 2.18 writes them, with its default
/// Blosc: a complex array with `"fill_value": null` opens, its missing chunks zeros (as
/// zarr-python 3 reads them); an array of a dtype zarrdt reads only inside records (`<M8[s]`)
/// is refused for its dtype, not blamed on the compressor.
#[test]
fn plain_v2_arrays_with_zarr_python_defaults() {
    let blosc = json!({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0});
    let dir = scratch("complex_null_fill");
    let zarray = json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": "<c16",
        "fill_value": null, "order": "C", "compressor": blosc, "filters": null});
    std::fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let zero = Value::Complex128(num_complex::Complex::new(0.0, 0.0));
    assert_eq!(
        array.retrieve_values(&[0..2]).unwrap(),
        [zero.clone(), zero]
    );

    let dir = scratch("datetime_plain");
    let zarray = json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": "<M8[s]",
        "fill_value": 0, "order": "C", "compressor": blosc, "filters": null});
    std::fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
    let error = open_array(store(&dir), "/")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("<M8[s]"), "{error}");
    assert!(!error.contains("blosc"), "{error}");
}

/// An array zarr-python 3.4.2's `zarr migrate v3` made of a Zarr v2 record array with the
/// identity `AsType` filter zarr-python 2.18 writes (`|V12` to `|V12`;
/// `tests/fixtures/migrated-by-zarr-python-3.4.2`, from `tests/interop/migrate.py`) reads as
/// the v2 array does: the filter, now a `numcodecs.astype` codec, changes no byte and is read
/// as if it were not there, as in Zarr v2 (zarr-python 3.4.2 itself fails on it). A
/// `numcodecs.astype` that converts is still refused, named.
#[test]
fn an_identity_astype_migrated_to_zarr_v3_reads_as_the_v2_array() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let name = "v2_blosc_astype_same_type.zarr";
    let migrated = fixtures.join("migrated-by-zarr-python-3.4.2").join(name);
    let mut document = read_json(&migrated.join("zarr.json"));
    assert_eq!(document["codecs"][0]["name"], "numcodecs.astype");

    let array = open_array(store(&migrated), "/").unwrap();
    assert_eq!(array.codecs().array_to_array_codecs().len(), 0);
    let values = array.retrieve_values(&[0..5]).unwrap();
    let v2 = fixtures.join("zarr-python-2.18.7").join(name);
    let original = open_array(store(&v2), "/")
        .unwrap()
        .retrieve_values(&[0..5])
        .unwrap();
    assert_eq!(values, original);
    // Stored records, not the fill value (chunks 0 and 1 are stored, chunk 2 is not).
    assert_ne!(values[0], values[4]);
    assert_ne!(values[2], values[4]);

    let dir = scratch("converting_astype");
    document["codecs"][0]["configuration"] = json!({"encode_dtype": "<i4", "decode_dtype": "<i8"});
    std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
    let error = open_array(store(&dir), "/").map(|_| ()).unwrap_err();
    let ArrayError::Codec { codec, reason, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(
        serde_json::from_str::<Json>(codec).unwrap(),
        document["codecs"][0]
    );
    assert!(reason.contains("converting numbers"), "{reason}");
}

/// zarrs 0.23 decodes numcodecs' `fixedscaleoffset` through `float32` (its scale and offset
/// too), where zarr-python computes in `float64`: an `<f8` array zarr-python wrote with
/// `FixedScaleOffset(offset=0, scale=1000, dtype="<f8", astype="<i8")` holding 479683.123
/// reads as 479683.136 there. `open_array` refuses it, naming the filter, in Zarr v2 and in
/// Zarr v3 (inside a shard too), rather than open an array whose values would be wrong.
#[test]
fn fixedscaleoffset_is_refused_rather_than_misread() {
    let filter = json!({"id": "fixedscaleoffset", "offset": 0, "scale": 1000,
        "dtype": "<f8", "astype": "<i8"});
    let dir = scratch("fixedscaleoffset_v2");
    let zarray = json!({"zarr_format": 2, "shape": [1], "chunks": [1], "dtype": "<f8",
        "fill_value": 0.0, "order": "C", "compressor": null, "filters": [filter]});
    std::fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
    // The chunk zarr-python writes: 479683.123 × 1000, rounded, as an `<i8`.
    std::fs::write(dir.join("0"), 479_683_123i64.to_le_bytes()).unwrap();
    let error = open_array(store(&dir), "/").map(|_| ()).unwrap_err();
    let ArrayError::Codec { codec, reason, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(serde_json::from_str::<Json>(codec).unwrap(), filter);
    assert!(reason.contains("through float32"), "{reason}");

    let dir = scratch("fixedscaleoffset_v3");
    let fso = json!({"name": "numcodecs.fixedscaleoffset",
        "configuration": {"offset": 0.5, "scale": 10, "dtype": "<f4", "astype": "<u2"}});
    let zarr_json = json!({"zarr_format": 3, "node_type": "array", "shape": [4],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0.0,
        "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2],
            "codecs": [fso, {"name": "bytes", "configuration": {"endian": "little"}}],
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}]});
    std::fs::write(dir.join("zarr.json"), zarr_json.to_string()).unwrap();
    let error = open_array(store(&dir), "/")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("numcodecs.fixedscaleoffset"), "{error}");
    assert!(error.contains("through float32"), "{error}");
}

// ------------------------------------------------------------------------------------------
// numcodecs' checksums, and zarr-python 3's `numcodecs.*` names
// ------------------------------------------------------------------------------------------

/// The codecs zarr-python writes that zarrs 0.23.14 reads under no such name (or, fletcher32,
/// reads wrongly), as zarr-python 3 writes them (base64, which zarr-python writes in Zarr v2
/// alone, under the name zarrdt gives it), each with what it is: a checksum (a numcodecs
/// filter of the same id in Zarr v2), and whether it finds any damaged byte (the checksums;
/// zstd with its checksum, gzip with its CRC: zstd without one and blosc may decode a
/// damaged byte to a wrong one, as in every reader).
fn numcodecs_names() -> Vec<(Json, Checksum, Detects)> {
    let codec =
        |name: &str, configuration: Json| json!({"name": name, "configuration": configuration});
    vec![
        (
            codec("numcodecs.crc32", json!({})),
            Checksum(true),
            Detects(true),
        ),
        (
            codec("numcodecs.crc32", json!({"location": "end"})),
            Checksum(true),
            Detects(true),
        ),
        (
            codec("numcodecs.fletcher32", json!({})),
            Checksum(true),
            Detects(true),
        ),
        (
            codec(
                "numcodecs.jenkins_lookup3",
                json!({"initval": 0, "prefix": null}),
            ),
            Checksum(true),
            Detects(true),
        ),
        (
            codec("numcodecs.jenkins_lookup3", json!({"initval": 7})),
            Checksum(true),
            Detects(true),
        ),
        (
            codec("numcodecs.zstd", json!({})),
            Checksum(false),
            Detects(false),
        ),
        (
            codec("numcodecs.zstd", json!({"level": 5, "checksum": true})),
            Checksum(false),
            Detects(true),
        ),
        (
            codec("numcodecs.gzip", json!({"level": 5})),
            Checksum(false),
            Detects(true),
        ),
        (
            codec("numcodecs.blosc", json!({})),
            Checksum(false),
            Detects(false),
        ),
        (
            codec(
                "numcodecs.blosc",
                json!({"cname": "zstd", "clevel": 3, "shuffle": 2}),
            ),
            Checksum(false),
            Detects(false),
        ),
        (
            codec("numcodecs.crc32c", json!({})),
            Checksum(false),
            Detects(true),
        ),
        (
            codec("numcodecs.crc32c", json!({"location": "start"})),
            Checksum(false),
            Detects(true),
        ),
    ]
}

/// Whether a codec is one of numcodecs' checksums.
struct Checksum(bool);

/// Whether a codec finds any damaged byte of a chunk.
struct Detects(bool);

/// An array of 12 stations in chunks of 3 (records of 33 bytes, chunks of 99: odd) made by
/// zarrdt with no compression, `codec` put in its metadata (v3: after the `bytes` codec; v2:
/// as its filter) before anything is written, then elements 0..5 written through it.
fn written_with(dir: &Path, codec: &Json, zarr_format: u8) -> Array<FilesystemStore> {
    let options = ArrayOptions::new(vec![12], vec![3]).compression(Compression::None);
    if zarr_format == 3 {
        options.create(store(dir), "/", &station_fill()).unwrap();
        let mut document = read_json(&dir.join("zarr.json"));
        document["codecs"]
            .as_array_mut()
            .unwrap()
            .push(codec.clone());
        std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
    } else {
        let layout = Station::layout(Endian::Little);
        let fill = station_fill().to_value();
        options
            .create_v2(store(dir), "/", &layout, Some(&fill))
            .unwrap();
        let mut document = read_json(&dir.join(".zarray"));
        let mut filter = codec["configuration"].clone();
        filter["id"] = json!(
            codec["name"]
                .as_str()
                .unwrap()
                .trim_start_matches("numcodecs.")
        );
        document["filters"] = json!([filter]);
        std::fs::write(dir.join(".zarray"), document.to_string()).unwrap();
    }
    let array = open_array(store(dir), "/").unwrap_or_else(|e| panic!("{codec}: {e}"));
    let records: Vec<Station> = (0..5).map(station).collect();
    array.store_records(&[0..5], &records).unwrap();
    array
}

#[test]
fn numcodecs_checksums_and_v3_names_round_trip() {
    assert_eq!(
        3 * Station::layout(Endian::Little).size() % 2,
        1,
        "odd chunks"
    );
    for (n, (codec, Checksum(checksum), _)) in numcodecs_names().iter().enumerate() {
        // The checksums and base64 are numcodecs v2 filters too.
        let v2 = *checksum || codec["name"] == "numcodecs.base64";
        let formats: &[u8] = if v2 { &[3, 2] } else { &[3] };
        for &zarr_format in formats {
            let dir = scratch(&format!("names_{n}_v{zarr_format}"));
            written_with(&dir, codec, zarr_format);
            let array = open_array(store(&dir), "/").unwrap();
            let records: Vec<Station> = array.retrieve_records(&[0..12]).unwrap();
            let values: Vec<Value> = records.iter().map(ZarrType::to_value).collect();
            assert_eq!(values, expected(), "{codec} in Zarr v{zarr_format}");
        }
    }
}

#[test]
fn a_damaged_checksummed_chunk_is_an_error_at_every_read() {
    use zarrdt::array::BlockReader;
    for (n, (codec, Checksum(checksum), Detects(detects))) in numcodecs_names().iter().enumerate() {
        if !detects {
            continue;
        }
        let dir = scratch(&format!("damaged_{n}"));
        written_with(&dir, codec, 3);
        let chunk = dir.join("c/0");
        let mut bytes = std::fs::read(&chunk).unwrap();
        // A byte in the middle of the records: a checksum's bytes are at either end.
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x10;
        std::fs::write(&chunk, &bytes).unwrap();
        let name = codec["name"]
            .as_str()
            .unwrap()
            .trim_start_matches("numcodecs.");
        let array = open_array(store(&dir), "/").unwrap();
        let records = array.retrieve_records::<Station>(&[0..12]).unwrap_err();
        let blocks = BlockReader::new(&array).unwrap().read(&[0..3]).unwrap_err();
        for error in [records, blocks] {
            assert!(
                matches!(&error, ArrayError::Chunk { key, .. } if key == "c/0"),
                "{codec}: {error:?}"
            );
            let error = error.to_string();
            // The checksums say what was stored and computed; zstd and gzip fail in their
            // stream.
            let named = error.contains(name) || error.to_lowercase().contains("checksum");
            assert!(named, "{codec}: {error}");
            if *checksum {
                assert!(error.contains("the chunk is damaged"), "{codec}: {error}");
            }
        }
        // The chunks after it read.
        let rest: Vec<Station> = array.retrieve_records(&[3..12]).unwrap();
        assert_eq!(rest[0].to_value(), station(3).to_value(), "{codec}");
    }
}

// ------------------------------------------------------------------------------------------
// Shards encoded whole
// ------------------------------------------------------------------------------------------

/// A sharded array of 24 stations (shards of 8, chunks of 2) whose codecs are rewritten by
/// `edit` before anything is written, then elements 0..5 and 17..20 written.
fn sharded_with(dir: &Path, edit: impl Fn(&mut Json)) -> Array<FilesystemStore> {
    ArrayOptions::new(vec![24], vec![2])
        .shards(vec![8])
        .compression(Compression::None)
        .create(store(dir), "/", &station_fill())
        .unwrap();
    let mut document = read_json(&dir.join("zarr.json"));
    edit(&mut document["codecs"]);
    std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
    let array = open_array(store(dir), "/").unwrap();
    let first: Vec<Station> = (0..5).map(station).collect();
    let second: Vec<Station> = (17..20).map(station).collect();
    array.store_array_subset(&[0..5], &first).unwrap();
    array.store_array_subset(&[17..20], &second).unwrap();
    array
}

fn sharded_expected() -> Vec<Value> {
    (0..24)
        .map(|i| {
            if i < 5 || (17..20).contains(&i) {
                station(i)
            } else {
                station_fill()
            }
            .to_value()
        })
        .collect()
}

#[test]
fn shards_encoded_whole_by_zstd_gzip_and_lz4_read_and_are_checked_decoded() {
    for (n, after) in [
        json!({"name": "zstd", "configuration": {"level": 0, "checksum": false}}),
        json!({"name": "gzip", "configuration": {"level": 5}}),
        json!({"name": "numcodecs.lz4", "configuration": {}}),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = scratch(&format!("encoded_shards_{n}"));
        let array = sharded_with(&dir, |codecs| {
            codecs.as_array_mut().unwrap().push(after.clone())
        });
        assert!(!dir.join("c/1").exists(), "shard 1 is never written");
        check_shards(&array, &[0..24]).unwrap();
        let array = open_array(store(&dir), "/").unwrap();
        assert_eq!(
            array.retrieve_values(&[0..24]).unwrap(),
            sharded_expected(),
            "{after}"
        );
        assert_eq!(
            array.retrieve_values(&[3..5]).unwrap()[1],
            station(4).to_value()
        );
    }
}

#[test]
fn a_corrupt_index_inside_a_zstd_encoded_shard_names_its_entry() {
    let dir = scratch("encoded_shard_bad_index");
    // An index without a checksum, so that a wrong entry reaches the entry checks.
    let array = sharded_with(&dir, |codecs| {
        codecs[0]["configuration"]["index_codecs"] =
            json!([{"name": "bytes", "configuration": {"endian": "little"}}]);
        codecs
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "zstd", "configuration": {"level": 0, "checksum": false}}));
    });
    let zstd = ZstdCodec::new(0, false);
    let options = CodecOptions::default();
    let stored = std::fs::read(dir.join("c/0")).unwrap();
    let unbounded = BytesRepresentation::UnboundedSize;
    let mut shard = zstd
        .decode(stored.into(), &unbounded, &options)
        .unwrap()
        .into_owned();
    // The index is at the end: four entries of (offset, size); entry 0 made to overflow.
    let at = shard.len() - 4 * 16;
    shard[at..at + 8].copy_from_slice(&(u64::MAX - 3).to_le_bytes());
    let encoded = zstd.encode(shard.into(), &options).unwrap();
    std::fs::write(dir.join("c/0"), &*encoded).unwrap();
    let error = check_shards(&array, &[0..8]).unwrap_err().to_string();
    assert!(error.contains("shard c/0"), "{error}");
    assert!(error.contains("index entry 0"), "{error}");

    // Bytes that are no zstd frame: an error decoding the shard, not a misread index.
    std::fs::write(dir.join("c/0"), [0u8; 40]).unwrap();
    let error = check_shards(&array, &[0..8]).unwrap_err().to_string();
    assert!(error.contains("decoding the shard"), "{error}");

    // More bytes than zstd writes for a shard of 8 records: refused unread.
    std::fs::write(dir.join("c/0"), vec![0u8; 1 << 20]).unwrap();
    let error = check_shards(&array, &[0..8]).unwrap_err().to_string();
    assert!(
        error.contains("1048576 bytes stored, more than its codecs write"),
        "{error}"
    );
}

#[test]
fn a_transpose_before_sharding_gives_the_shape_of_the_shard() {
    let dir = scratch("transposed_shards");
    let shape = [4u64, 6];
    ArrayOptions::new(shape.to_vec(), vec![2, 3])
        .shards(vec![4, 6])
        .create(store(&dir), "/", &station_fill())
        .unwrap();
    let mut document = read_json(&dir.join("zarr.json"));
    // The shard (4, 6) transposed is (6, 4), in inner chunks of (3, 2): 2 × 2 of them, where
    // the untransposed shape would make 2 × 3.
    document["codecs"][0]["configuration"]["chunk_shape"] = json!([3, 2]);
    let codecs = document["codecs"].as_array_mut().unwrap();
    codecs.insert(
        0,
        json!({"name": "transpose", "configuration": {"order": [1, 0]}}),
    );
    std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let records: Vec<Station> = (0..24).map(station).collect();
    array.store_array_subset(&[0..4, 0..6], &records).unwrap();
    check_shards(&array, &[0..4, 0..6]).unwrap();
    let back = array.retrieve_values(&[0..4, 0..6]).unwrap();
    let want: Vec<Value> = records.iter().map(ZarrType::to_value).collect();
    assert_eq!(back, want);
}
