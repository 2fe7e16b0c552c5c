use zarrdt::ZarrStruct;

struct Plain {
    value: f64,
}

#[derive(ZarrStruct)]
struct Holder {
    id: u32,
    inner: Plain,
}

fn main() {}
