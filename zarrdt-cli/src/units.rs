//! Sizes for people.

/// `1536` → `1.5 KiB`; bytes below 1 KiB as they are.
pub(crate) fn bytes(count: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if count < 1024 {
        return format!("{count} B");
    }
    #[allow(clippy::cast_precision_loss)] // a size shown to one decimal
    let mut value = count as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(48_000_000), "45.8 MiB");
    }
}
