//! One field of every record, read where it lies in the chunk: what NumPy users do with
//! `records["mass"]`, without building the records.

use crate::endian::{BigEndian, LittleEndian, StaticEndian};
use crate::{Endian, Error, Layout, PathSegment, ZarrType};

impl Layout {
    /// The field at `path` of every element of `bytes` (a chunk stored in this layout, a whole
    /// number of elements), decoded as `T`s in the field's own byte order.
    ///
    /// `T` must be the field's type (the error, [`Error::TypeMismatch`], names the first
    /// difference); an unknown path is [`Error::NoSuchField`], and invalid bytes (a `bool` byte
    /// of 2) are [`Error::InvalidElement`] naming the record, the field and the byte offset in
    /// the chunk. Each value is read in place, one pass over the chunk, no record built.
    ///
    /// ```
    /// use zarrdt::{Endian, ZarrType};
    /// use zarrdt::layout::Layout;
    /// use serde_json::json;
    ///
    /// // Records {id: uint16, at: {x: float32, y: float32}}, big-endian.
    /// let layout = Layout::from_v2_json(&json!([["id", ">u2"], ["at", [["x", ">f4"], ["y", ">f4"]]]]))?;
    /// let mut chunk = Vec::new();
    /// for (id, x, y) in [(1u16, 0.5f32, 2.0f32), (2, 1.5, 4.0)] {
    ///     chunk.extend(id.to_be_bytes());
    ///     chunk.extend(x.to_be_bytes());
    ///     chunk.extend(y.to_be_bytes());
    /// }
    /// assert_eq!(layout.decode_field::<f32>(&chunk, &["at", "y"])?, [2.0, 4.0]);
    /// assert_eq!(layout.decode_field::<u16>(&chunk, &["id"])?, [1, 2]);
    /// assert!(layout.decode_field::<f64>(&chunk, &["at", "y"]).is_err()); // not a float64
    /// assert!(layout.decode_field::<f32>(&chunk, &["at", "z"]).is_err()); // no such field
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn decode_field<T: ZarrType>(&self, bytes: &[u8], path: &[&str]) -> Result<Vec<T>, Error> {
        let mut out = Vec::new();
        self.decode_field_into(bytes, path, &mut out)?;
        Ok(out)
    }

    /// [`Layout::decode_field`], appending to `out` (so that its allocation can be reused).
    /// On error, `out` is as it was.
    pub fn decode_field_into<T: ZarrType>(
        &self,
        bytes: &[u8],
        path: &[&str],
        out: &mut Vec<T>,
    ) -> Result<(), Error> {
        let size = self.size();
        if size == 0 || !bytes.len().is_multiple_of(size) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: size,
            });
        }
        let (offset, field) = self.find_field(path)?;
        let within = |error: Error| {
            path.iter().rev().fold(error, |error, name| {
                error.within(PathSegment::Field((*name).to_owned()))
            })
        };
        T::layout(Endian::NATIVE)
            .check_matches(field)
            .map_err(within)?;
        let start = out.len();
        let read = match field.uniform_endian() {
            Ok(endian) => match endian.unwrap_or(Endian::NATIVE) {
                Endian::Little => read_strided::<T, LittleEndian>(bytes, size, offset, out),
                Endian::Big => read_strided::<T, BigEndian>(bytes, size, offset, out),
            }
            .map_err(|error| in_chunk(error, size, size, offset)),
            // A nested field with fields in both orders (Zarr v2): its bytes, gathered and
            // brought to one order.
            Err(_) => {
                let field_size = field.size();
                let mut gathered = Vec::with_capacity(bytes.len() / size * field_size);
                for element in bytes.chunks_exact(size) {
                    gathered.extend_from_slice(&element[offset..offset + field_size]);
                }
                field.convert_byte_order(&mut gathered, Endian::NATIVE)?;
                T::decode_slice_into(&gathered, Endian::NATIVE, out)
                    .map_err(|error| in_chunk(error, field_size, size, offset))
            }
        };
        read.map_err(|error| {
            out.truncate(start);
            within(error)
        })
    }
}

/// An error from decoding values `stride` bytes apart, as one about the field at `offset` in
/// a chunk of `size`-byte elements: the byte offset counted from the start of the chunk.
fn in_chunk(error: Error, stride: usize, size: usize, offset: usize) -> Error {
    match error {
        Error::InvalidElement {
            index,
            path,
            offset: at,
            fault,
        } => {
            let inner = at - index * stride;
            Error::InvalidElement {
                index,
                path,
                offset: index
                    .saturating_mul(size)
                    .saturating_add(offset)
                    .saturating_add(inner),
                fault,
            }
        }
        other => other,
    }
}

/// Appends the `T` at `offset` of every `size`-byte element of `bytes`, in byte order `E`,
/// to `out`, all validated first.
fn read_strided<T: ZarrType, E: StaticEndian>(
    bytes: &[u8],
    size: usize,
    offset: usize,
    out: &mut Vec<T>,
) -> Result<(), Error> {
    let values = bytes
        .chunks_exact(size)
        .map(|element| &element[offset..offset + T::SIZE]);
    if !T::HAS_INVALID_BYTES {
        out.extend(values.map(T::read_packed::<E>));
        return Ok(());
    }
    let valid = values
        .clone()
        .fold(true, |valid, value| valid & T::packed_is_valid::<E>(value));
    if !valid {
        for (index, value) in values.clone().enumerate() {
            // Counted from the start of the value; `in_chunk` places it in the chunk.
            T::check_packed::<E>(value).map_err(|error| error.at(index, size))?;
        }
    }
    out.extend(values.map(T::read_packed::<E>));
    Ok(())
}
