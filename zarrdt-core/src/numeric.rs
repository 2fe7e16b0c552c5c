//! The numeric kinds, each listed once: the matches that do the same thing for every number
//! type (decode it, encode it, name it, store it in a subarray) are generated from
//! [`numeric_kinds!`] rather than written out fourteen times.

/// Calls `$callback! { $before… entries }` with one entry per numeric kind, in the order of
/// `ScalarType`'s variants:
///
/// ```text
/// rust_type => Variant "v3 name";
/// ```
///
/// `Variant` names the kind alike in `ScalarType`, `Value` and the typed item storage of a
/// `SubarrayValue`. The tokens `$before` come first, so a caller can add `bool` (which most
/// numbers' matches treat the same way) as `bool => Bool "bool";`.
macro_rules! numeric_kinds {
    ($callback:ident! { $($before:tt)* }) => {
        $callback! {
            $($before)*
            i8 => Int8 "int8";
            i16 => Int16 "int16";
            i32 => Int32 "int32";
            i64 => Int64 "int64";
            u8 => UInt8 "uint8";
            u16 => UInt16 "uint16";
            u32 => UInt32 "uint32";
            u64 => UInt64 "uint64";
            ::half::f16 => Float16 "float16";
            f32 => Float32 "float32";
            f64 => Float64 "float64";
            ::num_complex::Complex<f32> => Complex64 "complex64";
            ::num_complex::Complex<f64> => Complex128 "complex128";
        }
    };
}

pub(crate) use numeric_kinds;
