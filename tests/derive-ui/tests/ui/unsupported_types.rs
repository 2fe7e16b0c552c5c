use zarrdt::ZarrStruct;

trait Shape {}

#[derive(ZarrStruct)]
struct Everything<'a, T> {
    name: String,
    samples: Vec<T>,
    borrowed: &'a u8,
    count: usize,
    offset: isize,
    maybe: Option<f64>,
    pointer: *const u8,
    shape: Box<dyn Shape>,
    pair: (f32, f32),
    wide: u128,
    nested: [[std::string::String; 2]; 3],
    function: fn(u8) -> u8,
    empty: [u8; 0],
    tail: dyn Shape,
}

fn main() {}
