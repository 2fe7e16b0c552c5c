// The simplest record: named fields of core types.
#[derive(ZarrStruct)]
struct Reading {
    time: i64,
    value: f32,
    valid: bool,
}
