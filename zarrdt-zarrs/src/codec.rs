//! The numcodecs compressors zarrs lacks or needs help with, as zarrs codec plugins:
//!
//! * `lz4` / `numcodecs.lz4` ([`lz4`]) on `lz4_flex`;
//! * `lzma` / `numcodecs.lzma` ([`lzma`]) on `liblzma`;
//! * `zlib` / `numcodecs.zlib` and `bz2` / `numcodecs.bz2` ([`zlib_bz2`]): zarrs' own, with
//!   numcodecs' default level and decoders bounded by the chunk's size;
//! * `zstd` ([`zstd`]): zarrs' own, decoded into the chunk's size (zarrs trusts the size a
//!   frame declares), with a decompression context per thread;
//! * `gzip` ([`gzip`]): zarrs' own, decoded within the chunk's size (zarrs reads to the
//!   stream's end);
//! * `blosc` ([`blosc`]): zarrs' own, decoded by zarrs once the header's decoded size is the
//!   chunk's (zarrs allocates the size the header declares);
//! * `base64` ([`base64`]) on the `base64` crate;
//! * the checksums `crc32`, `crc32c` (numcodecs' names of it), `fletcher32` and
//!   `jenkins_lookup3` ([`checksum`]), framed and checked as numcodecs does;
//! * zarr-python 3's `numcodecs.*` Zarr v3 names of compressors zarrs knows by their v2 ids
//!   (`numcodecs.zstd`, `numcodecs.gzip`, `numcodecs.blosc`: [`numcodecs_names`]).
//!
//! Every decoder here allocates at most the decoded size zarrs expects for the chunk
//! ([`bound`]; zarrs' codecs with such a decoder are [`bounded::BoundedCodec`]s), whatever a
//! corrupt chunk says about itself. [`diagnose`] names the codec zarrs could not create when an
//! array does not open.

pub(crate) mod base64;
pub(crate) mod blosc;
pub(crate) mod bound;
pub(crate) mod bounded;
pub(crate) mod checksum;
mod configuration;
pub(crate) mod diagnose;
pub(crate) mod gzip;
pub(crate) mod lz4;
pub(crate) mod lzma;
pub(crate) mod numcodecs_names;
mod whole_chunk;
pub(crate) mod zlib_bz2;
pub(crate) mod zstd;

/// Registers the codecs that must take precedence over zarrs' own (zlib, bz2, zstd, gzip,
/// blosc and fletcher32) and the `numcodecs.*` names; lz4, lzma, base64, crc32, crc32c and
/// jenkins_lookup3 are registered at link time, through `inventory`, as zarrs' own codecs are.
pub(crate) fn register() {
    zlib_bz2::register();
    zstd::register();
    gzip::register();
    blosc::register();
    checksum::fletcher32::register();
    numcodecs_names::register();
}
