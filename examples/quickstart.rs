//! Quickstart: a plain Rust struct becomes a Zarr struct data type with one derive, and an
//! array of them is written to disk in a form zarr-python (3.2 and later) reads.
//!
//! Run with `cargo run --example quickstart`.

use std::error::Error;
use std::fs;
use std::path::Path;

use zarrdt::{ArrayMetadataV3, BytesCodec, DataType, Element, Endian, ScalarType, ZarrStruct};

/// One simulated particle: a record of four fields, one of them a fixed-size array.
#[derive(ZarrStruct, Debug, Clone, PartialEq)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    mass: f64,
    alive: bool,
}

fn main() -> Result<(), Box<dyn Error>> {
    // 1. The record, known at compile time: packed offsets, whatever Rust's own layout is.
    println!("Particle: {} bytes per record", Particle::SIZE);
    for (field, offset) in Particle::FIELDS.iter().zip(Particle::OFFSETS) {
        println!(
            "  {:<6} offset {:>2}, {} bytes",
            field.name(),
            offset,
            field.size()
        );
    }

    // 2. Its Zarr v3 data type (arrays become structs of fields "0", "1", "2") and Zarr v2 dtype.
    println!("\nv3 data_type: {}", Particle::data_type());
    println!(
        "v2 dtype:     {}",
        Particle::layout(Endian::Little).to_v2_json()?
    );

    // 3. Fill values, exactly as the spec writes them: any instance serves as one.
    let fill = Particle {
        id: 0,
        pos: [f32::NAN, -0.0, f32::INFINITY],
        mass: -1.0,
        alive: false,
    };
    println!(
        "v3 fill_value: {}",
        Particle::data_type().fill_value_to_json(&fill.to_value())?
    );
    let payload_nan = f32::from_bits(0x7fc0_0001);
    let float32 = DataType::from(ScalarType::Float32);
    println!(
        "float32 NaN with a payload: {}",
        float32.fill_value_to_json(&payload_nan.to_value())?
    );

    // 4. Chunks: encode in either byte order and decode back, bit for bit.
    let particles: Vec<Particle> = (0..5u8)
        .map(|i| Particle {
            id: u64::from(i),
            pos: [f32::from(i), 0.5, -f32::from(i)],
            mass: 1.0 + f64::from(i),
            alive: i % 2 == 0,
        })
        .collect();
    let codec = BytesCodec::new(Some(Endian::Big));
    let chunk = codec.encode(&particles)?;
    println!(
        "\n{} records -> {} bytes (big-endian); first record:",
        particles.len(),
        chunk.len()
    );
    println!("  {:02x?}", &chunk[..Particle::SIZE]);
    assert_eq!(codec.decode::<Particle>(&chunk)?, particles);

    // 5. A real array on disk: zarr.json and one chunk per 2 records, the last chunk missing
    //    (it reads as the fill value).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/quickstart/particles.zarr");
    let meta = write_array(&dir, &particles, &fill)?;

    // 6. Reading it back: the metadata names the type, and the derive checks it matches.
    let text = fs::read_to_string(dir.join("zarr.json"))?;
    let read = ArrayMetadataV3::from_json_str(&text)?;
    Particle::check_data_type(&read.data_type)?;
    let first = fs::read(dir.join(read.chunk_key(&[0])))?;
    let decoded = read
        .bytes_codec
        .unwrap_or_default()
        .decode::<Particle>(&first)?;
    assert_eq!(decoded, particles[..2]);
    println!(
        "\nwrote {} (fill {})",
        dir.display(),
        meta.data_type.fill_value_to_json(&meta.fill_value)?
    );
    println!(
        "read it with zarr-python:  zarr.open_array({:?})[:]",
        dir.display().to_string()
    );
    Ok(())
}

/// Writes `records` as a one-dimensional Zarr v3 array of chunks of 2, leaving out the last
/// chunk, which readers then fill with `fill`.
fn write_array(
    dir: &Path,
    records: &[Particle],
    fill: &Particle,
) -> Result<ArrayMetadataV3, Box<dyn Error>> {
    let meta = ArrayMetadataV3::new(
        vec![records.len() as u64],
        vec![2],
        Particle::data_type(),
        fill.to_value(),
        Endian::Little,
    );
    if dir.exists() {
        fs::remove_dir_all(dir)?;
    }
    fs::create_dir_all(dir.join("c"))?;
    fs::write(
        dir.join("zarr.json"),
        zarrdt::serde_json::to_string_pretty(&meta.to_json()?)?,
    )?;
    let codec = meta.bytes_codec.unwrap_or_default();
    let chunks: Vec<&[Particle]> = records.chunks(2).collect();
    for (index, chunk) in chunks.iter().enumerate().take(chunks.len() - 1) {
        let mut full = chunk.to_vec();
        full.resize(2, fill.clone());
        fs::write(
            dir.join(meta.chunk_key(&[index as u64])),
            codec.encode(&full)?,
        )?;
    }
    Ok(meta)
}
