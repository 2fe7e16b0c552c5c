//! Duplicate checks that run in constant evaluation (no allocation): names hashed, keys
//! sorted, equal keys compared. Used by the descriptors of structs and enums.

/// FNV-1a of a name, for the duplicate check.
pub(crate) const fn name_hash(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut index = 0;
    while index < bytes.len() {
        hash ^= bytes[index] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        index += 1;
    }
    hash
}

/// Whether two names are the same (byte for byte).
pub(crate) const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut index = 0;
    while index < a.len() {
        if a[index] != b[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// Sorts `(key, index)` pairs by key (heapsort: constant evaluation allows no allocation).
pub(crate) const fn sort_keys(keys: &mut [(u64, usize)]) {
    let len = keys.len();
    let mut start = len / 2;
    while start > 0 {
        start -= 1;
        sift_down(keys, start, len);
    }
    let mut end = len;
    while end > 1 {
        end -= 1;
        let top = keys[0];
        keys[0] = keys[end];
        keys[end] = top;
        sift_down(keys, 0, end);
    }
}

const fn sift_down(heap: &mut [(u64, usize)], mut root: usize, end: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && heap[child + 1].0 > heap[child].0 {
            child += 1;
        }
        if heap[root].0 >= heap[child].0 {
            return;
        }
        let parent = heap[root];
        heap[root] = heap[child];
        heap[child] = parent;
        root = child;
    }
}
