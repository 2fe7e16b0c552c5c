use std::marker::PhantomData;
use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
struct Unit;

#[derive(ZarrStruct)]
struct NoFields {}

#[derive(ZarrStruct)]
struct OnlyPhantom<T>(PhantomData<T>);

fn main() {}
