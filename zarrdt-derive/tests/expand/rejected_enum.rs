// Rejected input: the errors, and stub impls so that the user's code using the type shows no
// follow-on errors.
#[derive(ZarrStruct)]
enum Kind {
    A,
    B,
}
