//! The Zarr element type of an Arrow table ([`TableType`]): the one its schema metadata names
//! where the columns still are that type, else one made from the Arrow types, with the widths
//! of text, bytes and list columns measured from the data ([`Sizes`]).

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::{Array, GenericListArray, OffsetSizeTrait, RecordBatch};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema, TimeUnit as ArrowUnit};
use serde_json::{Map, Value as Json};
use zarrdt_core::{
    DataType, Endian, FieldPath, Layout, PathSegment, Record, ScalarType, StructType, SubarrayType,
    TimeConfig, TimeUnit, Value,
};

use zarrdt_zarrs::OpenOptions;

use crate::Error;
use crate::metadata::{self, ATTRIBUTES, DATA_TYPE, DTYPE, FILL_VALUE, Form, SHAPE};
use crate::plan::{VALUE_COLUMN, compile};

/// [`Error::ElementTooLarge`] if a record of `size` bytes is over the limit of `limits`.
fn check_record_size(size: usize, limits: &OpenOptions) -> Result<(), Error> {
    let limit = limits.element_size_limit();
    if size > limit {
        return Err(Error::ElementTooLarge { size, limit });
    }
    Ok(())
}

/// The Zarr element type of a table, with the fill value and shape its metadata gives.
///
/// Made by [`TableType::from_schema`]: a table zarrdt wrote (its schema metadata intact, its
/// columns unchanged) gives back exactly the type, fill value and shape of the array it was
/// read from; any other table gets a type made from its Arrow types:
///
/// | Arrow | Zarr |
/// |---|---|
/// | `Boolean`, `Int8`…`UInt64`, `Float16`…`Float64` | the same |
/// | `Utf8`, `LargeUtf8`, `Utf8View` | `fixed_length_utf32` of the longest value's characters |
/// | `Binary`, `LargeBinary`, `BinaryView` | `null_terminated_bytes` of the longest value |
/// | `FixedSizeBinary(n)` | `raw_bytes` of `n` bytes |
/// | `Timestamp(unit)`, `Date32`, `Date64` | `numpy.datetime64` of the unit, `D`, `ms` |
/// | `Duration(unit)` | `numpy.timedelta64` of the unit |
/// | `Struct` | struct |
/// | `FixedSizeList(n)`, or `List` whose lists all hold `n` items | `[T; n]` |
///
/// A column the schema metadata types (`zarr.data_type` on the field) keeps that type when
/// its Arrow type is still the one that type has. Where [`Sizes`] are given, text and bytes
/// the values have outgrown (a table edited since zarrdt wrote it) are widened to the widths
/// measured, and nothing else changes: the other fields, the fill value and the shape stay.
/// Widths of text, bytes and variable lists come from [`Sizes`] measured over the data.
#[derive(Clone, Debug)]
pub struct TableType {
    form: Form,
    fill: Option<Value>,
    shape: Option<Vec<u64>>,
    attributes: Map<String, Json>,
}

impl TableType {
    /// The Zarr type of a table of `schema`; `sizes` holds the widths measured over its data,
    /// needed only for text, byte and list columns the metadata does not type
    /// ([`Error::SizesNeeded`] otherwise). A record larger than the default limit of
    /// [`OpenOptions`] (16 MiB) is [`Error::ElementTooLarge`]: see
    /// [`from_schema_within`](TableType::from_schema_within).
    pub fn from_schema(schema: &Schema, sizes: Option<&Sizes>) -> Result<Self, Error> {
        Self::from_schema_within(schema, sizes, &OpenOptions::new())
    }

    /// [`from_schema`](TableType::from_schema) within `limits`: a schema is untrusted input
    /// (a fixed-size list column of millions of items is a few bytes of it), so a record
    /// larger than [`OpenOptions::element_size_limit`] is [`Error::ElementTooLarge`], before
    /// anything of its size (its fill value) is made.
    pub fn from_schema_within(
        schema: &Schema,
        sizes: Option<&Sizes>,
        limits: &OpenOptions,
    ) -> Result<Self, Error> {
        // Whatever the columns became, the attributes are still the array's.
        let attributes = match metadata::json(schema.metadata().get(ATTRIBUTES), ATTRIBUTES)? {
            Some(Json::Object(attributes)) => attributes,
            Some(Json::Array(items)) => {
                return Err(Error::Metadata {
                    key: ATTRIBUTES.into(),
                    reason: format!("an array of {} items, not a JSON object", items.len()),
                });
            }
            Some(other) => {
                let text = other.to_string();
                let shown = match text.char_indices().nth(40) {
                    Some((end, _)) => format!("{}…", &text[..end]),
                    None => text,
                };
                return Err(Error::Metadata {
                    key: ATTRIBUTES.into(),
                    reason: format!("{shown} is not a JSON object"),
                });
            }
            None => Map::new(),
        };
        Ok(TableType {
            attributes,
            ..Self::typed_within(schema, sizes, limits)?
        })
    }

    /// The type, fill value and shape of [`from_schema_within`](Self::from_schema_within).
    fn typed_within(
        schema: &Schema,
        sizes: Option<&Sizes>,
        limits: &OpenOptions,
    ) -> Result<Self, Error> {
        let metadata = schema.metadata();
        let form = match (
            metadata::json(metadata.get(DATA_TYPE), DATA_TYPE)?,
            metadata::json(metadata.get(DTYPE), DTYPE)?,
        ) {
            (Some(json), _) => Some(Form::V3(DataType::from_v3_json(&json).map_err(|e| {
                Error::Metadata {
                    key: DATA_TYPE.into(),
                    reason: e.to_string(),
                }
            })?)),
            (None, Some(json)) => Some(Form::V2(Layout::from_v2_json(&json).map_err(|e| {
                Error::Metadata {
                    key: DTYPE.into(),
                    reason: e.to_string(),
                }
            })?)),
            (None, None) => None,
        };
        let shape = match metadata::json(metadata.get(SHAPE), SHAPE)? {
            Some(json) => {
                let shape: Vec<u64> =
                    serde_json::from_value(json).map_err(|e| Error::Metadata {
                        key: SHAPE.into(),
                        reason: e.to_string(),
                    })?;
                // Untrusted, and multiplied wherever it is used (in any order, and without
                // the extents that are 0): its other extents must multiply within 64 bits.
                let mut nonzero = shape.iter().filter(|&&extent| extent != 0);
                if nonzero
                    .try_fold(1u64, |count, &extent| count.checked_mul(extent))
                    .is_none()
                {
                    return Err(Error::Metadata {
                        key: SHAPE.into(),
                        reason: format!("{shape:?}: its extents multiply to more than 2^64"),
                    });
                }
                Some(shape)
            }
            None => None,
        };
        let fill_json = metadata::json(metadata.get(FILL_VALUE), FILL_VALUE)?;
        if let Some(form) = form {
            let layout = native(&form)?;
            check_record_size(layout.size(), limits)?;
            // Text and bytes grown past the metadata's widths (a table edited since zarrdt
            // wrote it) widen those fields, and nothing else; a Zarr v2 layout cannot be
            // widened so, and is typed column by column.
            let form = match (form, sizes) {
                (Form::V3(data_type), Some(sizes)) => {
                    Form::V3(widened(&data_type, &FieldPath::root(), sizes)?)
                }
                (form, _) => form,
            };
            let whole = match (&form, sizes) {
                (Form::V2(_), Some(sizes)) => fits(&layout, &FieldPath::root(), sizes),
                _ => true,
            };
            check_record_size(native(&form)?.size(), limits)?;
            if whole && matches_schema(&layout, schema) {
                let fill = match &fill_json {
                    Some(json) => {
                        Some(layout.value_from_json(json).map_err(|e| Error::Metadata {
                            key: FILL_VALUE.into(),
                            reason: e.to_string(),
                        })?)
                    }
                    None => None,
                };
                return Ok(TableType {
                    form,
                    fill,
                    shape,
                    attributes: Map::new(),
                });
            }
            // The columns changed since zarrdt wrote the table: type them one by one, keeping
            // the fill of each column that kept its type.
            let old_fill = fill_json.and_then(|json| layout.value_from_json(&json).ok());
            return Self::from_fields(schema, sizes, old_fill.as_ref(), limits);
        }
        Self::from_fields(schema, sizes, None, limits)
    }

    /// The type of the columns of `schema` one by one; fills from `old_fill` (a record) for
    /// the columns its metadata types; the record within `limits`.
    fn from_fields(
        schema: &Schema,
        sizes: Option<&Sizes>,
        old_fill: Option<&Value>,
        limits: &OpenOptions,
    ) -> Result<Self, Error> {
        let mut typed_fields = Vec::with_capacity(schema.fields().len());
        let mut record_size = 0usize;
        for field in schema.fields() {
            let path = FieldPath::root().field(field.name());
            let typed = match metadata::json(field.metadata().get(DATA_TYPE), DATA_TYPE) {
                Ok(Some(json)) => DataType::from_v3_json(&json).ok().filter(|data_type| {
                    Layout::from_data_type(data_type, Some(Endian::NATIVE))
                        .ok()
                        .and_then(|layout| compile(&layout, 0, &path).ok())
                        .is_some_and(|compiled| same_type(&compiled.arrow, field.data_type()))
                }),
                _ => None,
            };
            let typed = match (typed, sizes) {
                (Some(data_type), Some(sizes)) => Some(widened(&data_type, &path, sizes)?),
                (typed, _) => typed,
            };
            let kept = typed.is_some();
            let data_type = match typed {
                Some(data_type) => data_type,
                None => infer(field, &path, sizes)?,
            };
            let layout = Layout::from_data_type(&data_type, Some(Endian::NATIVE))?;
            record_size = record_size.saturating_add(layout.size());
            typed_fields.push((field, data_type, layout, kept));
        }
        // Before any fill value, which is a record of this size.
        check_record_size(record_size, limits)?;
        // A type made here from a fixed-size list is written as Zarr v3 JSON of one field
        // per item; one the metadata gave was as long in the table already.
        for (field, _, layout, kept) in &typed_fields {
            let fields = metadata::v3_fields(layout);
            if !kept && fields > metadata::MAX_V3_FIELDS {
                return Err(Error::Unsupported {
                    path: shown(&FieldPath::root().field(field.name())),
                    reason: format!(
                        "its Zarr v3 data type would list {fields} fields (a fixed-size list is \
                         a struct of one field per item there); zarrdt makes at most {}",
                        metadata::MAX_V3_FIELDS
                    ),
                });
            }
        }
        let mut fields = Vec::with_capacity(typed_fields.len());
        let mut fill = Record::new();
        for (field, data_type, layout, kept) in typed_fields {
            let value = old_fill
                .filter(|_| kept)
                .and_then(Value::as_record)
                .and_then(|record| record.get(field.name()))
                .cloned();
            fill.push(
                field.name().as_str(),
                value.unwrap_or_else(|| layout.zero_value()),
            );
            fields.push((field.name().clone(), data_type));
        }
        if fields.is_empty() {
            return Err(Error::Unsupported {
                path: "the table".into(),
                reason: "it has no columns".into(),
            });
        }
        let structure = StructType::new(fields)?;
        Ok(TableType {
            form: Form::V3(DataType::from(structure)),
            fill: Some(Value::Record(fill)),
            shape: None,
            attributes: Map::new(),
        })
    }

    /// The Zarr v3 data type, if the records have one (everything but a Zarr v2 `dtype` with
    /// padding or subarray fields, which [`TableType::v2_layout`] gives).
    ///
    /// [`TableWriter::create`](crate::TableWriter::create) makes arrays of
    /// [`TableType::for_new_array`]: v3 unless subarray fields need v2, padding packed.
    pub fn data_type(&self) -> Option<&DataType> {
        match &self.form {
            Form::V3(data_type) => Some(data_type),
            Form::V2(_) => None,
        }
    }

    /// The Zarr v2 stored layout (with each field's byte order) of records that have no v3
    /// data type.
    pub fn v2_layout(&self) -> Option<&Layout> {
        match &self.form {
            Form::V3(_) => None,
            Form::V2(layout) => Some(layout),
        }
    }

    /// The type of a new array of these records: the same, except that a v2 layout becomes a
    /// v3 data type unless it has subarray fields, and padding is packed (the values are the
    /// same), with the same fill value and shape.
    pub fn for_new_array(&self) -> Result<TableType, Error> {
        Ok(TableType {
            form: self.form.to_create()?,
            fill: self.fill.clone(),
            shape: self.shape.clone(),
            attributes: self.attributes.clone(),
        })
    }

    /// The layout of one record in the machine's byte order, as zarrs reads and writes it.
    pub fn native_layout(&self) -> Result<Layout, Error> {
        native(&self.form)
    }

    /// The fill value: the array's, for a table zarrdt wrote; zero (and the original fill of
    /// columns that kept their type) otherwise; `None` for a Zarr v2 array without one.
    pub fn fill_value(&self) -> Option<&Value> {
        self.fill.as_ref()
    }

    /// The shape of the selection the rows were read from, if the metadata says.
    pub fn shape(&self) -> Option<&[u64]> {
        self.shape.as_deref()
    }

    /// The user attributes of the array the rows were read from (`zarr.attributes`, among
    /// them the variants of enum fields, `zarrdt:enums`); empty if the metadata has none.
    /// [`TableWriter::create`](crate::TableWriter::create) gives them to the new array.
    pub fn attributes(&self) -> &Map<String, Json> {
        &self.attributes
    }
}

fn native(form: &Form) -> Result<Layout, Error> {
    Ok(match form {
        Form::V3(data_type) => Layout::from_data_type(data_type, Some(Endian::NATIVE))?,
        Form::V2(layout) => layout.with_endian(Endian::NATIVE),
    })
}

/// Whether the columns of `schema` are those of records of `layout`.
fn matches_schema(layout: &Layout, schema: &Schema) -> bool {
    match layout {
        Layout::Struct(structure) => {
            structure.fields().len() == schema.fields().len()
                && structure
                    .fields()
                    .iter()
                    .zip(schema.fields())
                    .all(|(field, column)| {
                        field.name() == column.name()
                            && compile(field.layout(), 0, &FieldPath::root())
                                .is_ok_and(|c| same_type(&c.arrow, column.data_type()))
                    })
        }
        other => {
            schema.fields().len() == 1
                && compile(other, 0, &FieldPath::root())
                    .is_ok_and(|c| same_type(&c.arrow, schema.field(0).data_type()))
        }
    }
}

/// Whether the text and byte leaves of `layout` (at `path` in the table) are at least as wide
/// as `sizes` measured their columns: the paths are those [`Sizes::measure`] gives (the items
/// of a list or subarray at index 0).
fn fits(layout: &Layout, path: &FieldPath, sizes: &Sizes) -> bool {
    match layout {
        Layout::Scalar(scalar) => {
            let width = match scalar.scalar() {
                ScalarType::FixedLengthUtf32 { chars } => chars.get(),
                ScalarType::NullTerminatedBytes { size } => size.get(),
                _ => return true,
            };
            sizes
                .get(&shown(path))
                .is_none_or(|measured| measured <= width)
        }
        Layout::Struct(structure) => structure
            .fields()
            .iter()
            .all(|field| fits(field.layout(), &path.field(field.name()), sizes)),
        Layout::Subarray(array) => {
            let mut items = path.clone();
            items.extend(array.shape().iter().map(|_| PathSegment::Index(0)));
            fits(array.element(), &items, sizes)
        }
        _ => true,
    }
}

/// `data_type` (at `path` in the table) with each text and bytes leaf as wide as `sizes`
/// measured its column, where that is wider: the values still fit, the fill value too.
fn widened(data_type: &DataType, path: &FieldPath, sizes: &Sizes) -> Result<DataType, Error> {
    let too_long = |what: String| Error::Unsupported {
        path: shown(path),
        reason: format!("{what} are too long"),
    };
    Ok(match data_type {
        DataType::Scalar(scalar) => {
            let measured = sizes.get(&shown(path)).unwrap_or(0);
            DataType::from(match *scalar {
                ScalarType::FixedLengthUtf32 { chars } if measured > chars.get() => {
                    ScalarType::fixed_length_utf32(measured)
                        .ok_or_else(|| too_long(format!("strings of {measured} characters")))?
                }
                ScalarType::NullTerminatedBytes { size } if measured > size.get() => {
                    ScalarType::null_terminated_bytes(measured)
                        .ok_or_else(|| too_long(format!("byte strings of {measured} bytes")))?
                }
                other => other,
            })
        }
        DataType::Struct(structure) => {
            let mut fields = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                let inner = widened(&field.data_type(), &path.field(field.name()), sizes)?;
                fields.push((field.name().to_owned(), inner));
            }
            DataType::from(StructType::new(fields)?)
        }
        DataType::Subarray(array) => {
            let mut items = path.clone();
            items.extend(array.shape().iter().map(|_| PathSegment::Index(0)));
            let element = widened(&array.element(), &items, sizes)?;
            DataType::from(SubarrayType::new(element, array.shape())?)
        }
        other => other.clone(),
    })
}

/// Whether `found` holds values of `expected` exactly: the same up to nullability, metadata,
/// item names, the kind of string and binary column, and the unit and zone of times (whose
/// values convert exactly, or are an error naming the value: Parquet has no seconds, and
/// other tools change units).
fn same_type(expected: &ArrowType, found: &ArrowType) -> bool {
    use ArrowType as T;
    match (expected, found) {
        (T::Utf8, T::Utf8 | T::LargeUtf8 | T::Utf8View) => true,
        (T::Binary, T::Binary | T::LargeBinary | T::BinaryView) => true,
        (T::Timestamp(..), T::Timestamp(..) | T::Date32 | T::Date64) => true,
        (T::Duration(_), T::Duration(_)) => true,
        (T::Struct(a), T::Struct(b)) => same_fields(a, b),
        (T::FixedSizeList(a, n), T::FixedSizeList(b, m)) => {
            n == m && same_type(a.data_type(), b.data_type())
        }
        (a, b) => a == b,
    }
}

fn same_fields(a: &Fields, b: &Fields) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|(a, b)| a.name() == b.name() && same_type(a.data_type(), b.data_type()))
}

/// The Zarr type of a column from its Arrow type.
fn infer(field: &Field, path: &FieldPath, sizes: Option<&Sizes>) -> Result<DataType, Error> {
    infer_type(field.data_type(), path, sizes)
}

fn time_unit(unit: ArrowUnit) -> TimeUnit {
    match unit {
        ArrowUnit::Second => TimeUnit::Second,
        ArrowUnit::Millisecond => TimeUnit::Millisecond,
        ArrowUnit::Microsecond => TimeUnit::Microsecond,
        ArrowUnit::Nanosecond => TimeUnit::Nanosecond,
    }
}

fn infer_type(
    arrow: &ArrowType,
    path: &FieldPath,
    sizes: Option<&Sizes>,
) -> Result<DataType, Error> {
    use ArrowType as T;
    let shown = shown(path);
    let unsupported = |reason: String| Error::Unsupported {
        path: shown.clone(),
        reason,
    };
    let measured = |kind: &'static str| -> Result<usize, Error> {
        let sizes = sizes.ok_or_else(|| Error::SizesNeeded {
            column: shown.clone(),
            kind,
        })?;
        match sizes.get(&shown) {
            Some(width) => Ok(width),
            // Measured over no rows: any width holds them; the narrowest (1, as for
            // values all empty).
            None if sizes.rows == 0 => Ok(1),
            None => Err(Error::SizesNeeded {
                column: shown.clone(),
                kind,
            }),
        }
    };
    let scalar = |scalar: ScalarType| Ok(DataType::from(scalar));
    let time = |unit: TimeUnit, is_datetime: bool| match TimeConfig::new(unit, 1) {
        Some(config) if is_datetime => scalar(ScalarType::DateTime64(config)),
        Some(config) => scalar(ScalarType::TimeDelta64(config)),
        None => Err(unsupported(format!("no time type of unit {unit}"))),
    };
    match arrow {
        T::Boolean => scalar(ScalarType::Bool),
        T::Int8 => scalar(ScalarType::Int8),
        T::Int16 => scalar(ScalarType::Int16),
        T::Int32 => scalar(ScalarType::Int32),
        T::Int64 => scalar(ScalarType::Int64),
        T::UInt8 => scalar(ScalarType::UInt8),
        T::UInt16 => scalar(ScalarType::UInt16),
        T::UInt32 => scalar(ScalarType::UInt32),
        T::UInt64 => scalar(ScalarType::UInt64),
        T::Float16 => scalar(ScalarType::Float16),
        T::Float32 => scalar(ScalarType::Float32),
        T::Float64 => scalar(ScalarType::Float64),
        T::Utf8 | T::LargeUtf8 | T::Utf8View => {
            let chars = measured("strings")?.max(1);
            ScalarType::fixed_length_utf32(chars)
                .map(DataType::from)
                .ok_or_else(|| unsupported(format!("strings of {chars} characters are too long")))
        }
        T::Binary | T::LargeBinary | T::BinaryView => {
            let size = measured("byte strings")?.max(1);
            ScalarType::null_terminated_bytes(size)
                .map(DataType::from)
                .ok_or_else(|| unsupported(format!("byte strings of {size} bytes are too long")))
        }
        T::FixedSizeBinary(size) => usize::try_from(*size)
            .ok()
            .and_then(ScalarType::raw_bytes)
            .map(DataType::from)
            .ok_or_else(|| unsupported(format!("FixedSizeBinary({size}) has no Zarr form"))),
        T::Timestamp(unit, _) => time(time_unit(*unit), true),
        T::Date32 => time(TimeUnit::Day, true),
        T::Date64 => time(TimeUnit::Millisecond, true),
        T::Duration(unit) => time(time_unit(*unit), false),
        T::Struct(fields) => {
            let mut members = Vec::with_capacity(fields.len());
            for field in fields {
                let inner = path.field(field.name());
                members.push((
                    field.name().clone(),
                    infer_type(field.data_type(), &inner, sizes)?,
                ));
            }
            if members.is_empty() {
                return Err(unsupported("a struct of no fields has no Zarr form".into()));
            }
            StructType::new(members)
                .map(DataType::from)
                .map_err(|e| unsupported(e.to_string()))
        }
        T::FixedSizeList(item, n) => {
            let element = infer_type(item.data_type(), &path.index(0), sizes)?;
            let n = usize::try_from(*n).unwrap_or(0);
            SubarrayType::new(element, vec![n])
                .map(DataType::from)
                .map_err(|e| unsupported(e.to_string()))
        }
        T::List(item) | T::LargeList(item) => {
            let n = measured("lists")?;
            let element = infer_type(item.data_type(), &path.index(0), sizes)?;
            SubarrayType::new(element, vec![n])
                .map(DataType::from)
                .map_err(|e| unsupported(e.to_string()))
        }
        other => Err(unsupported(format!(
            "Arrow's {other} has no Zarr record form (cast the column first)"
        ))),
    }
}

/// A column path as sizes and messages key it.
fn shown(path: &FieldPath) -> String {
    if path.is_root() {
        VALUE_COLUMN.to_owned()
    } else {
        path.to_string()
    }
}

/// The widths of the text, byte and list columns of a table, measured over its batches: the
/// most characters of any string, the most bytes of any byte string, and the one length of
/// every list (lists of different lengths are an error: a Zarr subarray has one shape).
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{RecordBatch, StringArray};
/// use zarrdt::arrow::{Sizes, TableType};
///
/// let names = StringArray::from(vec!["a", "héllo", ""]);
/// let batch = RecordBatch::try_from_iter([("name", Arc::new(names) as _)])?;
/// assert!(TableType::from_schema(&batch.schema(), None).is_err()); // how wide?
/// let mut sizes = Sizes::default();
/// sizes.measure(&batch)?;
/// let zarr = TableType::from_schema(&batch.schema(), Some(&sizes))?;
/// assert_eq!(zarr.data_type().unwrap().to_string(),
///     r#"{"name":"struct","configuration":{"fields":[{"name":"name","data_type":{"name":"fixed_length_utf32","configuration":{"length_bytes":20}}}]}}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Sizes {
    widths: HashMap<String, usize>,
    rows: u64,
}

impl Sizes {
    /// Takes the widths of `batch`'s text, byte and list columns into account.
    pub fn measure(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
            let path = FieldPath::root().field(field.name());
            self.measure_column(column.as_ref(), &path, 1)?;
        }
        self.rows += batch.num_rows() as u64;
        Ok(())
    }

    /// The measured width of the column at `path` (as messages show it: `a.b`).
    fn get(&self, path: &str) -> Option<usize> {
        self.widths.get(path).copied()
    }

    fn widen(&mut self, path: &FieldPath, width: usize) {
        let entry = self.widths.entry(shown(path)).or_insert(0);
        *entry = (*entry).max(width);
    }

    /// Measures `column`, whose values are `per_row` to a row of the batch.
    fn measure_column(
        &mut self,
        column: &dyn Array,
        path: &FieldPath,
        per_row: usize,
    ) -> Result<(), Error> {
        use ArrowType as T;
        match column.data_type() {
            T::Utf8 | T::LargeUtf8 | T::Utf8View => {
                let mut most = 0;
                let mut visit = |value: Option<&str>| {
                    if let Some(value) = value {
                        // Bytes bound the characters; count only where they could matter.
                        if value.len() > most {
                            most = most.max(value.chars().count());
                        }
                    }
                };
                if let Some(array) = column.as_string_opt::<i32>() {
                    array.iter().for_each(&mut visit);
                } else if let Some(array) = column.as_string_opt::<i64>() {
                    array.iter().for_each(&mut visit);
                } else if let Some(array) = column.as_string_view_opt() {
                    array.iter().for_each(&mut visit);
                }
                self.widen(path, most);
            }
            T::Binary | T::LargeBinary | T::BinaryView => {
                let mut most = 0;
                let mut visit = |value: Option<&[u8]>| {
                    most = most.max(value.map_or(0, <[u8]>::len));
                };
                if let Some(array) = column.as_binary_opt::<i32>() {
                    array.iter().for_each(&mut visit);
                } else if let Some(array) = column.as_binary_opt::<i64>() {
                    array.iter().for_each(&mut visit);
                } else if let Some(array) = column.as_binary_view_opt() {
                    array.iter().for_each(&mut visit);
                }
                self.widen(path, most);
            }
            T::Struct(fields) => {
                if let Some(array) = column.as_struct_opt() {
                    for (field, child) in fields.iter().zip(array.columns()) {
                        self.measure_column(child.as_ref(), &path.field(field.name()), per_row)?;
                    }
                }
            }
            T::FixedSizeList(..) => {
                if let Some(array) = column.as_fixed_size_list_opt() {
                    let inner = per_row * array.value_length().max(0) as usize;
                    self.measure_column(array.values().as_ref(), &path.index(0), inner)?;
                }
            }
            T::List(_) => {
                if let Some(array) = column.as_list_opt::<i32>() {
                    self.measure_list(array, path, per_row)?;
                }
            }
            T::LargeList(_) => {
                if let Some(array) = column.as_list_opt::<i64>() {
                    self.measure_list(array, path, per_row)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Measures a list column (`per_row` lists to a row) and its items: its lists must all
    /// have one length, and none be null (a null list has no items, and no length to check).
    fn measure_list<O: OffsetSizeTrait>(
        &mut self,
        array: &GenericListArray<O>,
        path: &FieldPath,
        per_row: usize,
    ) -> Result<(), Error> {
        if let Some(index) = array
            .logical_nulls()
            .and_then(|nulls| nulls.iter().position(|valid| !valid))
        {
            let record = self.rows + (index / per_row.max(1)) as u64;
            return Err(Error::null_value(&shown(path), record));
        }
        let offsets = array.value_offsets();
        let lengths = offsets.windows(2).map(|w| (w[1] - w[0]).as_usize());
        let length = self.list_lengths(path, lengths, per_row)?;
        let start = offsets.first().map_or(0, |first| first.as_usize());
        let values = array.values().slice(start, array.len() * length);
        self.measure_column(values.as_ref(), &path.index(0), per_row * length)
    }

    /// Records the one length of the lists of a column (`per_row` lists to a row) and returns
    /// it; an error at the first list of another length.
    fn list_lengths(
        &mut self,
        path: &FieldPath,
        lengths: impl Iterator<Item = usize>,
        per_row: usize,
    ) -> Result<usize, Error> {
        let key = shown(path);
        for (index, length) in lengths.enumerate() {
            match self.widths.get(&key) {
                None => {
                    self.widths.insert(key.clone(), length);
                }
                Some(&first) if first != length => {
                    return Err(Error::Value {
                        path: key,
                        record: self.rows + (index / per_row.max(1)) as u64,
                        reason: format!(
                            "a list of {length} items, where earlier lists have {first}: \
                             a Zarr subarray has one shape"
                        ),
                    });
                }
                Some(_) => {}
            }
        }
        Ok(self.widths.get(&key).copied().unwrap_or(0))
    }
}
