use zarrdt::{Endian, ZarrStruct, ZarrType};

// The derive fails, but code using the struct as an element sees no further errors.
#[derive(ZarrStruct)]
struct Broken {
    name: std::string::String,
}

// So too when a struct attribute is what is broken (the stub impls need only `crate`).
#[derive(ZarrStruct)]
#[zarr(rename_all = "camelcase")]
struct BadRule {
    first_value: u8,
}

#[derive(ZarrStruct)]
#[zarr(bound = "T ZarrType")]
struct BadBound<T> {
    value: T,
}

fn encode(records: &[Broken]) -> Vec<u8> {
    Broken::encode_slice(records, Endian::Little)
}

fn main() {
    let _ = encode(&[]);
    let _ = <Broken as ZarrStruct>::FIELDS;
    let _ = BadRule::encode_slice(&[], Endian::Little);
    let _ = <BadBound<u8> as ZarrStruct>::FIELDS;
}
