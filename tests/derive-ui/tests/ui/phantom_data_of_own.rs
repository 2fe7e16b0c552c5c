// A type of the user's own named `PhantomData`, imported by `use`: the derive cannot tell it
// from the marker by its name, and leaves fields written `PhantomData` out of the record, so
// the field is an error on its type, not a field silently not stored.
use zarrdt::ZarrStruct;

mod units {
    #[derive(Default)]
    pub struct PhantomData<T>(pub T);
}

use units::PhantomData;

#[derive(ZarrStruct)]
struct Reading {
    value: f64,
    unit: PhantomData<u8>,
}

fn main() {}
