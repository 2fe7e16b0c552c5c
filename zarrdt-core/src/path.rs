//! Field paths: where in a (possibly nested) record something is, for error messages and
//! tooling.

use std::fmt;

/// One step of a [`FieldPath`]: a named struct field or an index into a v2 subarray.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A struct field, by name.
    Field(String),
    /// An element of a subarray field, by flat (row-major) index.
    Index(usize),
}

/// The path from the top of a record to one of its fields, such as `field_b.subfield_c`.
///
/// The empty path ([`FieldPath::root`]) is the whole element. Names that are not plain
/// identifiers are shown quoted, so `a["foo.mask"]` is unambiguous.
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

fn is_plain(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
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
        assert_eq!(q.to_string(), "[\"with space\"].b");
        let mut r = FieldPath::root().field("x");
        r.prepend(PathSegment::Field("outer".into()));
        assert_eq!(r.to_string(), "outer.x");
        assert_eq!(r.describe(), " at field `outer.x`");
        assert_eq!(FieldPath::root().describe(), "");
    }
}
