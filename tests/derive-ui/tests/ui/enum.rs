use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
enum Shape {
    Circle(f64),
    Square(f64),
}

fn main() {}
