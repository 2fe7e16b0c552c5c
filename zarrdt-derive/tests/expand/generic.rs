// Generic over a type, a lifetime and a const: every field type that mentions a type
// parameter gets an `ZarrType` bound.
#[derive(ZarrStruct)]
struct Window<'a, T, const N: usize>
where
    T: Copy,
{
    values: [T; N],
    first: T,
    count: u32,
    source: PhantomData<&'a ()>,
}
