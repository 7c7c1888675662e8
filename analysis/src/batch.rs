//! Building Arrow batches from rows, and reading rows back out of batches.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, BooleanBuilder, Int64Builder, StringBuilder};
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

thread_local! {
    /// Per schema (by address), the string bytes per row of each column in the last batch
    /// this thread built with [`BatchBuilder::with_rows`]: the next batch of that schema
    /// starts with room for as much, instead of doubling its buffers (and copying them) from
    /// 1 KiB up. A hint only: a wrong one costs a reallocation or some unused capacity.
    static BYTES_PER_ROW: std::cell::RefCell<Vec<(usize, Vec<usize>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A schema's key in [`BYTES_PER_ROW`]: its address.
fn schema_key(schema: &SchemaRef) -> usize {
    Arc::as_ptr(schema) as *const () as usize
}

impl BatchBuilder {
    /// A builder with Arrow's default capacities (1024 rows, 1 KiB of string bytes a column).
    pub fn new(schema: SchemaRef) -> Self {
        Self::sized(schema, 1024, &[])
    }

    /// A builder for `rows` rows, its buffers sized from the last batch of the same schema
    /// that this thread built this way.
    pub fn with_rows(schema: SchemaRef, rows: usize) -> Self {
        let key = schema_key(&schema);
        BYTES_PER_ROW.with(|h| {
            let h = h.borrow();
            let hint = h.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_slice());
            Self::sized(schema, rows, hint.unwrap_or_default())
        })
    }

    fn sized(schema: SchemaRef, rows: usize, bytes_per_row: &[usize]) -> Self {
        let cols = schema
            .fields()
            .iter()
            .enumerate()
            .map(|(i, f)| match f.data_type() {
                arrow_schema::DataType::Int64 => Col::Int(Int64Builder::with_capacity(rows)),
                arrow_schema::DataType::Boolean => Col::Bool(BooleanBuilder::with_capacity(rows)),
                _ => {
                    // An eighth more than the last batch's mean, for batches a little larger.
                    let per_row = bytes_per_row.get(i).copied().unwrap_or(0);
                    let bytes = rows.saturating_mul(per_row + per_row / 8);
                    Col::Str(StringBuilder::with_capacity(rows, bytes.max(1024)))
                }
            })
            .collect();
        BatchBuilder { schema, cols }
    }

    pub fn finish(mut self) -> Result<RecordBatch> {
        let rows = self.cols.first().map_or(0, |c| match c {
            Col::Str(b) => b.len(),
            Col::Int(b) => b.len(),
            Col::Bool(b) => b.len(),
        });
        if rows > 0 {
            let per_row: Vec<usize> = self
                .cols
                .iter()
                .map(|c| match c {
                    Col::Str(b) => b.values_slice().len() / rows,
                    _ => 0,
                })
                .collect();
            let key = schema_key(&self.schema);
            BYTES_PER_ROW.with(|h| {
                let mut h = h.borrow_mut();
                match h.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => *v = per_row,
                    None => h.push((key, per_row)),
                }
            });
        }
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
