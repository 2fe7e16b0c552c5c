use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
