//! Node paths as users write them: `"/"` and `"/group/array"`, as zarrs takes them, and the same
//! without the leading `/` (`"group/array"`, `""` for the store's root), as zarr-python takes
//! them.

use std::borrow::Cow;

use zarrs::array::ArrayCreateError;
use zarrs::node::NodePath;

use crate::Error;

/// `path` with its leading `/` (the root for `""`), and the node it names; zarrs' error if it
/// names no node even so (a trailing `/`, an empty name between two).
pub(crate) fn node_path(path: &str) -> Result<(Cow<'_, str>, NodePath), Error> {
    let path = if path.starts_with('/') {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(format!("/{path}"))
    };
    let node = NodePath::new(&path).map_err(ArrayCreateError::from)?;
    Ok((path, node))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_leading_slash_is_added_where_it_is_missing() {
        for (given, path) in [
            ("/", "/"),
            ("", "/"),
            ("/a/b", "/a/b"),
            ("a/b", "/a/b"),
            ("a", "/a"),
        ] {
            let (normal, node) = node_path(given).unwrap();
            assert_eq!((normal.as_ref(), node.as_str()), (path, path));
        }
        for bad in ["a/", "/a//b", "//"] {
            let error = node_path(bad).unwrap_err();
            assert!(matches!(error, Error::Create(_)), "{bad:?}: {error:?}");
        }
    }
}
