// A zero-length array reached through a generic struct's length does not compile either, even
// where only `to_value` (which needs no size) is used.
use zarrdt::{ZarrStruct, ZarrType};

#[derive(ZarrStruct)]
struct Samples<const N: usize> {
    values: [f32; N],
    count: u16,
}

fn main() {
    let empty = Samples::<0> { values: [], count: 1 };
    let _ = empty.to_value();
}
