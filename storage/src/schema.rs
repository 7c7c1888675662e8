//! Arrow schemas of the per-repository tables.
//!
//! Conventions (documented in docs/tables.md): lines are 1-based, characters are 0-based
//! counts of Unicode scalar values within the line; identifiers follow docs/tables.md.

use std::sync::{Arc, LazyLock};

use arrow_schema::{DataType, Field, Schema, SchemaRef};

/// Names of the tables every repository has.
pub const TABLES: [&str; 3] = ["files", "symbols", "edges"];

fn utf8(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8, nullable)
}
fn int(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int64, nullable)
}

/// `files`: one row per indexed file.
pub static FILES: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        utf8("data_source", false),
        utf8("identifier", false),
        utf8("path", false),
        utf8("language", false),
        int("bytes", false),
        int("lines", false),
        utf8("hash", false),
        utf8("content", false),
    ]))
});

/// `symbols`: one row per definition found by tree-sitter analysis.
pub static SYMBOLS: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        utf8("data_source", false),
        utf8("identifier", false),
        utf8("path", false),
        utf8("language", false),
        utf8("kind", false),
        utf8("name", false),
        utf8("qualified_name", false),
        utf8("parent", true),
        int("start_line", false),
        int("start_character", false),
        int("end_line", false),
        int("end_character", false),
        utf8("signature", false),
        utf8("doc", true),
        utf8("summary", false),
        Field::new("is_public", DataType::Boolean, false),
        int("lines", false),
        int("complexity", true),
        // Relationship counts, resolved at index time (from this repository's edges):
        // `calls` edges whose target is this symbol, `calls` edges it is the source of (resolved
        // or not), and `references` edges whose target is this symbol.
        int("incoming_calls", false),
        int("outgoing_calls", false),
        int("incoming_references", false),
    ]))
});

/// `edges`: calls, inheritance, implementation, references and imports.
pub static EDGES: LazyLock<SchemaRef> = LazyLock::new(|| {
    Arc::new(Schema::new(vec![
        utf8("data_source", false),
        utf8("kind", false),
        utf8("source", false),
        utf8("source_qname", true),
        utf8("source_path", false),
        int("line", false),
        int("character", false),
        utf8("target_name", false),
        utf8("target_qualifier", true),
        utf8("target", true),
        utf8("resolution", false),
        utf8("receiver_type", true),
        utf8("alias", true),
        // How sure `target` is (`exact`, `likely`, `guess`; NULL when unresolved).
        utf8("confidence", true),
    ]))
});

/// The columns of `symbols` that tables written before analyzer version 2 lack.
pub const SYMBOL_COUNT_COLUMNS: [&str; 3] =
    ["incoming_calls", "outgoing_calls", "incoming_references"];

/// The schema of a table by name.
pub fn schema_of(table: &str) -> Option<SchemaRef> {
    match table {
        "files" => Some(FILES.clone()),
        "symbols" => Some(SYMBOLS.clone()),
        "edges" => Some(EDGES.clone()),
        _ => None,
    }
}
