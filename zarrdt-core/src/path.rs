//! Field paths: where in a (possibly nested) record something is, for error messages and
//! tooling.

use std::fmt;

/// One step of a [`FieldPath`]: a named struct field or an index into a v2 subarray.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A struct field, by name.
    Field(String),
    /// An index along one dimension of a subarray field: an item of a field of shape `[2, 3]`
    /// takes two, as in `b[1][2]` (the same path as the Rust field `b: [[T; 3]; 2]`'s item).
    Index(usize),
}

/// The path from the top of a record to one of its fields, such as `field_b.subfield_c`.
///
/// The empty path ([`FieldPath::root`]) is the whole element. A name is shown as it is
/// (`point.x`, `Temp (C)`) unless it would make the path ambiguous: a name that is empty,
/// begins or ends with white space, or holds `.`, `[`, `]`, `"`, `,`, `` ` `` or a control
/// character is shown quoted, as in `a["foo.mask"]`.
///
/// ```
/// use zarrdt::layout::FieldPath;
///
/// let path = FieldPath::root().field("point").field("x");
/// assert_eq!(path.to_string(), "point.x");
/// assert_eq!(FieldPath::root().field("foo.mask").index(2).to_string(), "[\"foo.mask\"][2]");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath {
    segments: Vec<PathSegment>,
}

impl FieldPath {
    /// The empty path: the whole element.
    pub const fn root() -> Self {
        FieldPath {
            segments: Vec::new(),
        }
    }

    /// Whether this is the empty path.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// The steps of this path, outermost first.
    pub fn segments(&self) -> &[PathSegment] {
        &self.segments
    }

    /// This path extended by a named field.
    #[must_use]
    pub fn field(&self, name: &str) -> Self {
        let mut path = self.clone();
        path.segments.push(PathSegment::Field(name.to_owned()));
        path
    }

    /// This path extended by a subarray index.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        let mut path = self.clone();
        path.segments.push(PathSegment::Index(index));
        path
    }

    /// This path followed by all of `rest`.
    #[must_use]
    pub fn join(&self, rest: &FieldPath) -> Self {
        let mut path = self.clone();
        path.segments.extend(rest.segments.iter().cloned());
        path
    }

    /// Puts `segment` in front of this path: used while an error travels out of nested fields.
    pub fn prepend(&mut self, segment: PathSegment) {
        self.segments.insert(0, segment);
    }

    /// `" at field `path`"`, or nothing for the root: the suffix error messages use.
    pub(crate) fn describe(&self) -> String {
        if self.is_root() {
            String::new()
        } else {
            format!(" at field `{self}`")
        }
    }
}

/// The path segments of item `flat` (counted row-major) of a subarray of `shape`: one index per
/// dimension, outermost first (item 5 of `[2, 3]` is `[1][2]`).
pub(crate) fn item_segments(flat: usize, shape: &[usize]) -> Vec<PathSegment> {
    let mut rest = flat;
    let mut indices: Vec<PathSegment> = shape
        .iter()
        .rev()
        .map(|&extent| {
            let index = rest % extent.max(1);
            rest /= extent.max(1);
            PathSegment::Index(index)
        })
        .collect();
    indices.reverse();
    indices
}

/// Appends segments in place: one allocation for many, where [`FieldPath::index`] and
/// [`FieldPath::field`] copy the path for each.
impl Extend<PathSegment> for FieldPath {
    fn extend<I: IntoIterator<Item = PathSegment>>(&mut self, segments: I) {
        self.segments.extend(segments);
    }
}

/// Whether a name is shown as it is: any name but one that is empty, begins or ends with
/// white space, or holds a character that separates or quotes the parts of a path or a list of
/// paths (`.`, `[`, `]`, `"`, `,`, `` ` ``) or a control character; those are shown quoted.
fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(char::is_whitespace)
        && !name.ends_with(char::is_whitespace)
        && !name
            .chars()
            .any(|c| matches!(c, '.' | '[' | ']' | '"' | ',' | '`') || c.is_control())
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.segments.is_empty() {
            return f.write_str("<root>");
        }
        for (i, segment) in self.segments.iter().enumerate() {
            match segment {
                PathSegment::Field(name) if is_plain(name) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                PathSegment::Field(name) => {
                    write!(f, "[{}]", serde_json::Value::from(name.as_str()))?;
                }
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_plain_quoted_and_indexed_segments() {
        assert_eq!(FieldPath::root().to_string(), "<root>");
        assert_eq!(FieldPath::root().field("a").to_string(), "a");
        let p = FieldPath::root().field("a").field("température").index(3);
        assert_eq!(p.to_string(), "a.température[3]");
        let q = FieldPath::root().field("with space").field("b");
        assert_eq!(q.to_string(), "with space.b");
        for name in ["", " a", "a ", "a.b", "a[0]", "q\"x", "a,b", "a`b", "a\tb"] {
            let quoted = serde_json::Value::from(name).to_string();
            let path = FieldPath::root().field("top").field(name);
            assert_eq!(path.to_string(), format!("top[{quoted}]"), "{name:?}");
        }
        let shown = FieldPath::root().field("Temp (C)").field("naïve-1'");
        assert_eq!(shown.to_string(), "Temp (C).naïve-1'");
        let mut r = FieldPath::root().field("x");
        r.prepend(PathSegment::Field("outer".into()));
        assert_eq!(r.to_string(), "outer.x");
        assert_eq!(r.describe(), " at field `outer.x`");
        assert_eq!(FieldPath::root().describe(), "");
    }
}
