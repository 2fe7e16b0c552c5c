//! The struct form of a subarray: a struct of fields `"0"`, `"1"`, … `"n-1"`, one per item of
//! the outermost dimension, which lies in exactly the same bytes.
//!
//! This is the one place that decides it. Zarr v3 struct fields have no shape, so a subarray
//! (a Rust array `[T; N]`) is written in v3 in this form, its fill values are objects keyed
//! this way, and a struct of this form compares equal to the subarray. Should Zarr gain an
//! array type (zarr-extensions' proposed `fixed_size_list`, whose bytes are the same), only
//! the v3 metadata would change.

/// The name of item `index` in the struct form: its decimal index.
pub(crate) fn item_name(index: usize) -> String {
    index.to_string()
}

/// Whether `name` is the struct-form name of item `index`: the decimal digits of `index`
/// exactly, with no sign and no leading zeros.
pub(crate) fn is_item_name(name: &str, index: usize) -> bool {
    let canonical = name == "0" || !name.starts_with('0');
    canonical && name.bytes().all(|b| b.is_ascii_digit()) && name.parse() == Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_decimal_indices_are_item_names() {
        assert!(is_item_name("0", 0));
        assert!(is_item_name("10", 10));
        assert!(is_item_name(&usize::MAX.to_string(), usize::MAX));
        for bad in ["+0", "00", "01", " 1", "1 ", "0x1", "", "-0"] {
            assert!(!is_item_name(bad, 0) && !is_item_name(bad, 1), "{bad:?}");
        }
        assert_eq!(item_name(7), "7");
    }
}
