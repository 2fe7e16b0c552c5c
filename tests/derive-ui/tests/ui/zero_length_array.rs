// A zero-length array has no Zarr type: using one as an element does not compile, rather than
// failing (or panicking) when it is used.
use zarrdt::ZarrType;
use zarrdt::value::Value;

fn main() {
    let _ = <[u8; 0]>::from_value(&Value::Bool(true));
}
