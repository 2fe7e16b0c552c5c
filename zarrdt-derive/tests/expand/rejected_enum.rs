// `ZarrStruct` on an enum: the error alone, without stub impls, since the `ZarrType` impl may
// come from a `#[derive(ZarrEnum)]` beside it, which a stub would conflict with (E0119).
#[derive(ZarrStruct)]
enum Kind {
    A,
    B,
}
