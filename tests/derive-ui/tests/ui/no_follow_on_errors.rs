use zarrdt::{Endian, ZarrStruct, ZarrType};

// The derive fails, but code using the struct as an element sees no further errors.
#[derive(ZarrStruct)]
struct Broken {
    name: std::string::String,
}

fn encode(records: &[Broken]) -> Vec<u8> {
    Broken::encode_slice(records, Endian::Little)
}

fn main() {
    let _ = encode(&[]);
    let _ = <Broken as ZarrStruct>::FIELDS;
}
