//! Building Arrow batches from rows, and reading rows back out of batches.

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, BooleanArray, Int64Array, RecordBatch, StringArray};
use arrow_schema::SchemaRef;

use arrow_schema::ArrowError;

/// Reading a column that is missing or of another type is a schema error.
type Result<T, E = ArrowError> = std::result::Result<T, E>;

/// A column under construction.
pub enum Col {
    Str(StringBuilder),
    Int(Int64Builder),
    Bool(BooleanBuilder),
}

/// Row-wise builder for a batch of a known schema.
pub struct BatchBuilder {
    schema: SchemaRef,
    cols: Vec<Col>,
}

impl BatchBuilder {
    pub fn new(schema: SchemaRef) -> Self {
        let cols = schema
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                arrow_schema::DataType::Int64 => Col::Int(Int64Builder::new()),
                arrow_schema::DataType::Boolean => Col::Bool(BooleanBuilder::new()),
                _ => Col::Str(StringBuilder::new()),
            })
            .collect();
        BatchBuilder { schema, cols }
    }

    pub fn finish(mut self) -> Result<RecordBatch> {
        let arrays: Vec<ArrayRef> = self
            .cols
            .iter_mut()
            .map(|c| -> ArrayRef {
                match c {
                    Col::Str(b) => Arc::new(b.finish()),
                    Col::Int(b) => Arc::new(b.finish()),
                    Col::Bool(b) => Arc::new(b.finish()),
                }
            })
            .collect();
        Ok(RecordBatch::try_new(self.schema, arrays)?)
    }
}

/// Where a row's values go, column by column: an Arrow batch ([`BatchBuilder`]), or a digest
/// of the row ([`crate::digest::Hasher`]), so that both see exactly the same values.
pub trait Cells {
    fn str(&mut self, i: usize, v: Option<&str>);
    /// A string given as pieces to concatenate.
    fn str_parts(&mut self, i: usize, parts: &[&str]);
    fn int(&mut self, i: usize, v: Option<i64>);
    fn bool(&mut self, i: usize, v: bool);
}

impl Cells for BatchBuilder {
    fn str(&mut self, i: usize, v: Option<&str>) {
        if let Col::Str(b) = &mut self.cols[i] {
            b.append_option(v);
        }
    }
    /// Written straight into the column.
    fn str_parts(&mut self, i: usize, parts: &[&str]) {
        if let Col::Str(b) = &mut self.cols[i] {
            for p in parts {
                // Writing into a string builder cannot fail.
                let _ = std::fmt::Write::write_str(b, p);
            }
            b.append_value("");
        }
    }
    fn int(&mut self, i: usize, v: Option<i64>) {
        if let Col::Int(b) = &mut self.cols[i] {
            b.append_option(v);
        }
    }
    fn bool(&mut self, i: usize, v: bool) {
        if let Col::Bool(b) = &mut self.cols[i] {
            b.append_value(v);
        }
    }
}

/// Typed access to a batch's columns by name.
pub struct Columns<'a> {
    batch: &'a RecordBatch,
}

impl<'a> Columns<'a> {
    pub fn new(batch: &'a RecordBatch) -> Self {
        Columns { batch }
    }
    fn col(&self, name: &str) -> Result<&'a ArrayRef> {
        self.batch
            .column_by_name(name)
            .ok_or_else(|| ArrowError::SchemaError(format!("column '{name}' missing")))
    }
    pub fn str(&self, name: &str) -> Result<&'a StringArray> {
        self.col(name)?
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or_else(|| ArrowError::SchemaError(format!("column '{name}' is not Utf8")))
    }
    pub fn int(&self, name: &str) -> Result<&'a Int64Array> {
        self.col(name)?
            .as_any()
            .downcast_ref::<Int64Array>()
            .ok_or_else(|| ArrowError::SchemaError(format!("column '{name}' is not Int64")))
    }
    pub fn bool(&self, name: &str) -> Result<&'a BooleanArray> {
        self.col(name)?
            .as_any()
            .downcast_ref::<BooleanArray>()
            .ok_or_else(|| ArrowError::SchemaError(format!("column '{name}' is not Boolean")))
    }
}

/// An optional string cell.
pub fn opt_str(a: &StringArray, i: usize) -> Option<&str> {
    (!a.is_null(i)).then(|| a.value(i))
}
