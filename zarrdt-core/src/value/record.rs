//! The value of a struct: [`Record`].

use std::collections::HashMap;
use std::sync::Arc;

use super::Value;

/// The value of a struct: its fields' names and values, in order.
///
/// A record is a plain list; whoever reads it against a type ([`Layout::encode_value`](
/// crate::Layout::encode_value), the fill value writers) checks that it has every field of
/// the type once and no others, and says which is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    fields: Vec<(Arc<str>, Value)>,
}

/// Why a [`Record`] does not have exactly the fields of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldsMismatch {
    /// The record has no value for this field.
    Missing(Arc<str>),
    /// The struct has no field of this name.
    Unknown(Arc<str>),
    /// The record names this field more than once.
    Duplicate(Arc<str>),
}

impl FieldsMismatch {
    /// The field named, and what is wrong with it.
    pub(crate) fn describe(&self) -> (&str, &'static str) {
        match self {
            FieldsMismatch::Missing(name) => (name, "the record has no value for this field"),
            FieldsMismatch::Unknown(name) => (name, "the struct has no field of this name"),
            FieldsMismatch::Duplicate(name) => (name, "the record has this field more than once"),
        }
    }
}

impl Record {
    /// An empty record, to be filled with [`Record::push`].
    pub fn new() -> Self {
        Record::default()
    }

    /// A record of `fields`, in order.
    pub(crate) fn from_fields(fields: Vec<(Arc<str>, Value)>) -> Self {
        Record { fields }
    }

    /// Appends a field.
    pub fn push(&mut self, name: impl Into<Arc<str>>, value: Value) {
        self.fields.push((name.into(), value));
    }

    /// The value of the field called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(field, _)| &**field == name)
            .map(|(_, value)| value)
    }

    /// The fields in order.
    pub fn fields(&self) -> &[(Arc<str>, Value)] {
        &self.fields
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether the record has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The fields, by value.
    pub fn into_fields(self) -> Vec<(Arc<str>, Value)> {
        self.fields
    }

    /// The values of the fields `names` (the fields of a struct, unique), in that order:
    /// every one exactly once and no others. Linear time: a record in field order is matched
    /// directly, any other through one index of its names. Problems are reported in the
    /// order: a repeated field, a field the struct does not have, a missing field.
    pub(crate) fn values_for<'r, 'n>(
        &'r self,
        names: impl ExactSizeIterator<Item = &'n str> + Clone,
    ) -> Result<Vec<&'r Value>, FieldsMismatch> {
        if self.fields.len() == names.len()
            && self
                .fields
                .iter()
                .zip(names.clone())
                .all(|((name, _), expected)| &**name == expected)
        {
            return Ok(self.fields.iter().map(|(_, value)| value).collect());
        }
        let mut index: HashMap<&str, &Value> = HashMap::with_capacity(self.fields.len());
        for (name, value) in &self.fields {
            if index.insert(name, value).is_some() {
                return Err(FieldsMismatch::Duplicate(name.clone()));
            }
        }
        if self.fields.len() > names.len() || !names.clone().all(|name| index.contains_key(name)) {
            let known: HashMap<&str, ()> = names.clone().map(|name| (name, ())).collect();
            if let Some((unknown, _)) = self
                .fields
                .iter()
                .find(|(name, _)| !known.contains_key(&**name))
            {
                return Err(FieldsMismatch::Unknown(unknown.clone()));
            }
        }
        let mut values = Vec::with_capacity(names.len());
        for name in names {
            values.push(
                *index
                    .get(name)
                    .ok_or_else(|| FieldsMismatch::Missing(name.into()))?,
            );
        }
        Ok(values)
    }
}

impl<S: Into<Arc<str>>> FromIterator<(S, Value)> for Record {
    fn from_iter<I: IntoIterator<Item = (S, Value)>>(iter: I) -> Self {
        Record {
            fields: iter
                .into_iter()
                .map(|(name, value)| (name.into(), value))
                .collect(),
        }
    }
}

impl From<Record> for Value {
    fn from(record: Record) -> Self {
        Value::Record(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'a>(names: &[&'a str]) -> Vec<&'a str> {
        names.to_vec()
    }

    #[test]
    fn records_are_matched_to_fields_in_linear_time_and_strictly() {
        let record: Record = [("a", Value::Int8(1)), ("b", Value::Int8(2))]
            .into_iter()
            .collect();
        let ab = names(&["a", "b"]);
        let ba = names(&["b", "a"]);
        assert_eq!(
            record.values_for(ab.iter().copied()).unwrap()[1],
            &Value::Int8(2)
        );
        assert_eq!(
            record.values_for(ba.iter().copied()).unwrap()[0],
            &Value::Int8(2)
        );
        let abc = names(&["a", "b", "c"]);
        assert_eq!(
            record.values_for(abc.iter().copied()),
            Err(FieldsMismatch::Missing("c".into()))
        );
        let a = names(&["a"]);
        assert_eq!(
            record.values_for(a.iter().copied()),
            Err(FieldsMismatch::Unknown("b".into()))
        );
        let twice: Record = [("a", Value::Int8(1)), ("a", Value::Int8(2))]
            .into_iter()
            .collect();
        assert_eq!(
            twice.values_for(ab.iter().copied()),
            Err(FieldsMismatch::Duplicate("a".into()))
        );
    }
}
