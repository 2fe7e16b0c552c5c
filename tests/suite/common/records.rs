//! Record types several test files share.

use half::f16;
use num_complex::Complex;
use zarrdt::ZarrStruct;

/// The quickstart's record: an array field and a bool; packed offsets 0, 8, 20, 28 (29 bytes).
#[derive(ZarrStruct, Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Particle {
    pub(crate) id: u64,
    pub(crate) pos: [f32; 3],
    pub(crate) mass: f64,
    pub(crate) alive: bool,
}

/// One field of every core scalar type, named like the fixtures' fields.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
pub(crate) struct AllScalars {
    pub(crate) b: bool,
    pub(crate) i8: i8,
    pub(crate) i16: i16,
    pub(crate) i32: i32,
    pub(crate) i64: i64,
    pub(crate) u8: u8,
    pub(crate) u16: u16,
    pub(crate) u32: u32,
    pub(crate) u64: u64,
    pub(crate) f16: f16,
    pub(crate) f32: f32,
    pub(crate) f64: f64,
    pub(crate) c64: Complex<f32>,
    pub(crate) c128: Complex<f64>,
}

/// A nested array: a struct of structs in Zarr v3, a `(3, 2)` subarray in v2.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
pub(crate) struct Grid {
    pub(crate) cells: [[i16; 2]; 3],
}
