//! The tools' argument types. Their doc comments and attributes generate the JSON schemas
//! served to MCP clients and in the OpenAPI document; `docs/tools.md` explains each choice
//! where the interface leaves a name open. Every tool also accepts `output_format` (docs/tools.md, "Common rules"), handled
//! before these types are read.

use quarry_analysis::resolve::Confidence;
use schemars::JsonSchema;
use serde::Deserialize;

/// Default and largest number of search results.
pub const DEFAULT_RESULTS: u32 = 20;
pub const MAX_RESULTS: u32 = 500;
/// Default and largest relationship items per type.
pub const DEFAULT_PER_TYPE: u32 = 50;
pub const MAX_PER_TYPE: u32 = 1000;
/// Default and largest tree size.
/// An integer argument `name` within `lo..=hi`, `default` when omitted; out of range it is
/// `invalid_argument` naming the range (never clamped).
pub fn in_range(
    name: &str,
    value: Option<u32>,
    default: u32,
    (lo, hi): (u32, u32),
) -> Result<u32, super::ToolError> {
    match value.unwrap_or(default) {
        n if (lo..=hi).contains(&n) => Ok(n),
        n => Err(super::ToolError::new(
            "invalid_argument",
            format!("{name} must be between {lo} and {hi}, not {n}"),
            format!("Pass {name} between {lo} and {hi} (default {default})"),
        )),
    }
}

pub const DEFAULT_TREE_NODES: u32 = 400;
pub const MAX_TREE_NODES: u32 = 5000;
pub const DEFAULT_TREE_DEPTH: u32 = 6;
pub const MAX_TREE_DEPTH: u32 = 64;
/// Most identifiers per `fetch_artifacts` call (docs/tools.md, "Common rules").
pub const MAX_FETCH: usize = 50;
/// Most lines `read_file` returns in one call.
pub const MAX_READ_LINES: i64 = 2000;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetDataSources {
    /// A question or task: ranks the sources by relevance to it (billed only when ranking runs).
    pub query: Option<String>,
    /// Only sources usable for querying (PartiallyReady or Ready). Default true.
    pub ready_only: Option<bool>,
    /// Deprecated alias of `ready_only`.
    #[schemars(extend("deprecated" = true))]
    pub alive_only: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SemanticSearch {
    /// A full natural-language English sentence (not bare keywords).
    pub question: String,
    /// Repository or workspace names (or ids) from get_data_sources.
    pub data_sources: Option<Vec<String>>,
    /// Repository-relative path prefixes (directories or files); any may match.
    pub paths: Option<Vec<String>>,
    /// File extensions without the dot, e.g. "rs"; any may match.
    pub extensions: Option<Vec<String>>,
    /// Maximum number of results (default 20, at most 500).
    #[schemars(range(min = 1, max = 500))]
    pub max_results: Option<u32>,
    /// Leave out Markdown files. Default false.
    pub exclude_markdown: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GrepSearch {
    /// Literal text, or a regular expression (Rust regex dialect) when `regex` is true.
    pub query: String,
    /// Treat `query` as a regular expression. Default false.
    pub regex: Option<bool>,
    /// Repository or workspace names (or ids) from get_data_sources.
    pub data_sources: Option<Vec<String>>,
    /// Repository-relative path prefixes (directories or files); any may match.
    pub paths: Option<Vec<String>>,
    /// File extensions without the dot, e.g. "rs"; any may match.
    pub extensions: Option<Vec<String>>,
    /// Maximum number of files in the result (default 20, at most 500).
    #[schemars(range(min = 1, max = 500))]
    pub max_results: Option<u32>,
    /// Leave out Markdown files. Default false.
    pub exclude_markdown: Option<bool>,
    /// Lines of context before and after each matching line (default 0, at most 10).
    #[schemars(range(max = 10))]
    pub context_lines: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetFileTree {
    /// One repository name or id; required when more than one repository is visible.
    pub data_source: Option<String>,
    /// Repository-relative directory to start from; omit for the root.
    pub path: Option<String>,
    /// Traversal depth limit below `path` (default 6, at most 64); deeper directories are
    /// shown collapsed with their file counts.
    #[schemars(range(min = 1, max = 64))]
    pub max_depth: Option<u32>,
    /// Maximum number of nodes (files and directories) in the tree (default 400, at most 5000).
    #[schemars(range(min = 1, max = 5000))]
    pub max_nodes: Option<u32>,
    /// Depth up to which files carry their short summaries in the rendered tree (default:
    /// all levels); deeper files show only their names.
    #[schemars(range(max = 64))]
    pub output_depth: Option<u32>,
}

/// Which relationships to follow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Outgoing and incoming calls of functions and methods.
    #[default]
    CallsOnly,
    /// Base types (ancestors) and implementations/subtypes (descendants).
    InheritanceOnly,
    /// Calls plus inheritance.
    AllRelevant,
    /// Non-call uses of types, fields and other symbols.
    ReferencesOnly,
}

/// The least confidence of the edges a relationship list follows (docs/resolution.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MinConfidence {
    /// Only edges the language's rules decide.
    Exact,
    /// Also edges a declared or inferred type decides (name-only guesses left out, counted).
    #[default]
    Likely,
    /// Every resolved edge, name-only guesses too.
    Guess,
}

impl MinConfidence {
    fn confidence(self) -> Confidence {
        match self {
            MinConfidence::Exact => Confidence::Exact,
            MinConfidence::Likely => Confidence::Likely,
            MinConfidence::Guess => Confidence::Guess,
        }
    }

    /// The `edges.confidence` values at or above this one.
    pub fn accepted(self) -> Vec<&'static str> {
        Confidence::ALL
            .into_iter()
            .filter(|c| *c >= self.confidence())
            .map(Confidence::as_str)
            .collect()
    }

    pub fn as_str(self) -> &'static str {
        self.confidence().as_str()
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetArtifactRelationships {
    /// Full artifact identifier, e.g. "owner/repo::src/lib.rs::Store.open".
    pub identifier: String,
    /// Which relationships to follow. Default calls_only.
    pub profile: Option<Profile>,
    /// Maximum items per relationship type (default 50, 1 to 1000).
    #[schemars(range(min = 1, max = 1000))]
    pub max_count_per_type: Option<u32>,
    /// Repository or workspace name or id, to disambiguate the identifier.
    pub data_source: Option<String>,
    /// Least confidence of the edges followed: exact, likely (default; name-only guesses are
    /// left out and counted), or guess.
    pub min_confidence: Option<MinConfidence>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueryArtifactMetadata {
    /// One read-only ArtifactQuery statement ending with LIMIT, e.g.
    /// "SELECT language, COUNT(*) AS files FROM files GROUP BY language ORDER BY files DESC LIMIT 10".
    pub statement: String,
    /// Repository or workspace names (or ids) from get_data_sources.
    pub data_sources: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetArtifactQuerySchema {
    /// One entity (files, symbols, functions); omit for the full schema.
    pub entity: Option<String>,
    /// Include runnable example statements. Default true.
    pub include_examples: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadFile {
    /// Exact repository-relative path, e.g. "src/lib.rs" (not an identifier).
    pub path: String,
    /// Repository (or workspace) name or id; required when more than one repository is visible.
    pub data_source: Option<String>,
    /// First line to return, 1-based (default 1).
    #[schemars(range(min = 1))]
    pub start_line: Option<i64>,
    /// Last line to return, 1-based, inclusive (default: start_line + 1999 or the end).
    #[schemars(range(min = 1))]
    pub end_line: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FetchArtifacts {
    /// Full artifact identifiers (at most 50), as returned by the search tools.
    pub identifiers: Vec<String>,
    /// Repository or workspace name or id, to disambiguate the identifiers.
    pub data_source: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct Chat {
    /// A self-contained question: include prior findings, identifiers and constraints.
    pub question: String,
    /// Repository or workspace names (or ids) from get_data_sources.
    pub data_sources: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GetRepositoryOntology {
    /// Exactly one repository name or id (workspaces are rejected); required when more than
    /// one repository is visible.
    pub data_source: Option<String>,
}
