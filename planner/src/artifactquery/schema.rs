//! What ArtifactQuery can query: entities, their fields and relationship counts.

use serde_json::{Value, json};

/// Type of a field, for checking comparisons and aggregates before execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Text,
    Int,
    Bool,
}

impl FieldType {
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Int => "integer",
            FieldType::Bool => "boolean",
        }
    }
}

/// Relationship counts, tallied from the `edges` table at index time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rel {
    /// Call edges whose source is the symbol.
    OutgoingCalls,
    /// Resolved call edges whose target is the symbol.
    IncomingCalls,
    /// Resolved reference edges whose target is the symbol.
    References,
}

impl Rel {
    /// The `symbols` column holding this count.
    pub fn column(self) -> &'static str {
        match self {
            Rel::OutgoingCalls => "outgoing_calls",
            Rel::IncomingCalls => "incoming_calls",
            Rel::References => "incoming_references",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Source {
    Column(&'static str),
    Rel(Rel),
}

#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub ty: FieldType,
    pub source: Source,
    pub doc: &'static str,
}

const fn col(name: &'static str, ty: FieldType, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        source: Source::Column(name),
        doc,
    }
}

const FILE_FIELDS: &[Field] = &[
    col("path", FieldType::Text, "repository-relative path"),
    col(
        "language",
        FieldType::Text,
        "detected language (rust, python, typescript, …, text)",
    ),
    col("lines", FieldType::Int, "number of lines"),
    col("bytes", FieldType::Int, "size in bytes"),
    col(
        "identifier",
        FieldType::Text,
        "artifact identifier owner/repo::path",
    ),
    col("data_source", FieldType::Text, "data source id"),
];

const SYMBOL_FIELDS: &[Field] = &[
    col("name", FieldType::Text, "the symbol's name"),
    col(
        "qualified_name",
        FieldType::Text,
        "dotted path inside the file, e.g. Parser.parse",
    ),
    col(
        "kind",
        FieldType::Text,
        "function, method, constructor, class, struct, interface, trait, enum, variant, module, constant, field, property, type_alias, macro",
    ),
    col(
        "identifier",
        FieldType::Text,
        "artifact identifier owner/repo::path::qualified_name",
    ),
    col("path", FieldType::Text, "file path"),
    col("language", FieldType::Text, "language of the file"),
    col("start_line", FieldType::Int, "first line (1-based)"),
    col("end_line", FieldType::Int, "last line"),
    col("lines", FieldType::Int, "number of lines"),
    col(
        "complexity",
        FieldType::Int,
        "cognitive complexity (functions and methods; NULL otherwise)",
    ),
    col(
        "is_public",
        FieldType::Bool,
        "part of the public API surface",
    ),
    col("signature", FieldType::Text, "declaration head"),
    col("summary", FieldType::Text, "one-line summary"),
    col(
        "parent",
        FieldType::Text,
        "identifier of the enclosing symbol",
    ),
    col("data_source", FieldType::Text, "data source id"),
    Field {
        name: "outgoing_calls",
        ty: FieldType::Int,
        source: Source::Rel(Rel::OutgoingCalls),
        doc: "calls made by this symbol",
    },
    Field {
        name: "incoming_calls",
        ty: FieldType::Int,
        source: Source::Rel(Rel::IncomingCalls),
        doc: "resolved calls to this symbol",
    },
    Field {
        name: "references",
        ty: FieldType::Int,
        source: Source::Rel(Rel::References),
        doc: "resolved non-call references to this symbol",
    },
];

/// A queryable entity.
#[derive(Debug, Clone, Copy)]
pub struct Entity {
    pub name: &'static str,
    pub table: &'static str,
    /// Symbol kinds the entity is restricted to (empty: all rows).
    pub kinds: &'static [&'static str],
    pub fields: &'static [Field],
    pub doc: &'static str,
}

pub const ENTITIES: &[Entity] = &[
    Entity {
        name: "files",
        table: "files",
        kinds: &[],
        fields: FILE_FIELDS,
        doc: "one row per indexed file",
    },
    Entity {
        name: "symbols",
        table: "symbols",
        kinds: &[],
        fields: SYMBOL_FIELDS,
        doc: "one row per definition",
    },
    Entity {
        name: "functions",
        table: "symbols",
        kinds: &["function", "method", "constructor"],
        fields: SYMBOL_FIELDS,
        doc: "functions, methods and constructors",
    },
];

pub const OPERATORS: &[&str] = &[
    "=", "!=", ">", ">=", "<", "<=", "IN", "NOT IN", "LIKE", "NOT LIKE", "AND", "OR", "NOT",
];

/// Fields whose values are a fixed set of lower-case words (`kind`, `language`): strings
/// compare with them case-insensitively.
pub fn is_lowercase_enum(field: &str) -> bool {
    field.eq_ignore_ascii_case("kind") || field.eq_ignore_ascii_case("language")
}
pub const AGGREGATES: &[&str] = &["COUNT", "SUM", "AVG", "MIN", "MAX"];
pub const RELATIONSHIPS: &[&str] = &["outgoing_calls", "incoming_calls", "references"];

/// Examples shown by `get_artifact_query_schema`; every one is executed by the tests.
pub const EXAMPLES: &[&str] = &[
    "SELECT language, COUNT(*) AS files, SUM(lines) AS lines FROM files GROUP BY language ORDER BY lines DESC LIMIT 20",
    "SELECT path, lines FROM files WHERE language = 'rust' AND lines > 500 ORDER BY lines DESC LIMIT 10",
    "SELECT path, bytes FROM files ORDER BY bytes DESC LIMIT 10",
    "SELECT identifier, complexity FROM functions WHERE complexity > 10 ORDER BY complexity DESC LIMIT 20",
    "SELECT identifier, incoming_calls FROM functions ORDER BY incoming_calls DESC LIMIT 10",
    "SELECT identifier FROM functions WHERE incoming_calls = 0 AND is_public = FALSE LIMIT 50",
    "SELECT identifier, lines FROM functions WHERE path NOT LIKE '%test%' ORDER BY lines DESC LIMIT 20",
    "SELECT kind, COUNT(*) AS n FROM symbols WHERE is_public = TRUE GROUP BY kind ORDER BY n DESC LIMIT 20",
    "SELECT language, AVG(complexity) AS avg_complexity, MAX(complexity) AS worst FROM functions GROUP BY language ORDER BY worst DESC LIMIT 20",
    "SELECT name, kind, path FROM symbols WHERE kind IN ('class', 'struct', 'interface', 'trait') AND references > 0 ORDER BY references DESC LIMIT 20",
];

pub fn entity(name: &str) -> Option<&'static Entity> {
    ENTITIES.iter().find(|e| e.name.eq_ignore_ascii_case(name))
}

impl Entity {
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }
}

/// The `get_artifact_query_schema` result (docs/artifactquery.md), for one entity or all.
pub fn schema_json(entity_name: Option<&str>, include_examples: bool) -> Result<Value, String> {
    let selected: Vec<&Entity> = match entity_name {
        None => ENTITIES.iter().collect(),
        Some(n) => vec![entity(n).ok_or_else(|| {
            format!(
                "unknown entity '{n}'; entities are {}",
                ENTITIES
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?],
    };
    let mut fields: Vec<&str> = Vec::new();
    for e in &selected {
        for f in e.fields {
            if !fields.contains(&f.name) && !RELATIONSHIPS.contains(&f.name) {
                fields.push(f.name);
            }
        }
    }
    let details: Vec<Value> = selected
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "description": e.doc,
                "fields": e.fields.iter().map(|f| json!({"name": f.name, "type": f.ty.name(), "description": f.doc})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let has_rels = selected
        .iter()
        .any(|e| e.fields.iter().any(|f| matches!(f.source, Source::Rel(_))));
    Ok(json!({
        "dsl_version": "artifactquery/v1",
        "entity": entity_name.map(|_| selected[0].name).unwrap_or("*"),
        "entities": ENTITIES.iter().map(|e| e.name).collect::<Vec<_>>(),
        "fields": fields,
        "relationships": if has_rels { RELATIONSHIPS.to_vec() } else { Vec::new() },
        "operators": OPERATORS,
        "aggregates": AGGREGATES,
        "required_limit": true,
        "max_limit": super::MAX_LIMIT,
        "entity_details": details,
        "examples": if include_examples { EXAMPLES.to_vec() } else { Vec::new() },
    }))
}
