// Rejected by `#[derive(ZarrEnum)]`: data in variants, no integer `repr`, a `#[zarr]` key on a
// variant; the errors, and a stub impl so that code using the type shows no follow-on errors.
#[derive(ZarrEnum)]
enum Shape {
    Circle(f64),
    #[zarr(rename = "square")]
    Square { side: f64 },
    Empty,
}
