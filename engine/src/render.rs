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

/// A text table (for the CLI); with no rows, the header of `columns` alone.
pub fn text_table(columns: &[String], batches: &[RecordBatch]) -> Result<String> {
    if batches.iter().all(|b| b.num_rows() == 0) {
        let widths: Vec<usize> = columns.iter().map(|c| c.chars().count()).collect();
        let rule: String = widths
            .iter()
            .map(|w| format!("+{}", "-".repeat(w + 2)))
            .collect::<String>()
            + "+";
        let header: String = columns
            .iter()
            .map(|c| format!("| {c} "))
            .collect::<String>()
            + "|";
        return Ok(format!("{rule}\n{header}\n{rule}\n{rule}"));
    }
    Ok(datafusion::arrow::util::pretty::pretty_format_batches(batches)?.to_string())
}
