//! Arrow results as JSON rows (column-keyed objects) and as text tables.

use arrow_array::RecordBatch;

use crate::error::Result;

pub use quarry_analysis::render::*;

/// Column names of a result.
pub fn column_names(batches: &[RecordBatch]) -> Vec<String> {
    batches
        .first()
        .map(|b| {
            b.schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect()
        })
        .unwrap_or_default()
}

/// A text table (for the CLI).
pub fn text_table(batches: &[RecordBatch]) -> Result<String> {
    Ok(datafusion::arrow::util::pretty::pretty_format_batches(batches)?.to_string())
}
