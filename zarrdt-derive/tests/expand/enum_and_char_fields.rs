// Enum and `char` fields: each an element type like any other, alone and in arrays.
#[derive(ZarrStruct)]
struct Event {
    id: u32,
    status: Status,
    history: [Status; 3],
    grade: char,
}
