// A tuple struct: fields "0", "1", ...; a nested record and arrays of arrays.
#[derive(ZarrStruct)]
struct Sample(u16, Point, [[f32; 3]; 2]);
