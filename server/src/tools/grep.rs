//! `grep_search`: candidate files from a plan (filters and the literals every match must
//! contain prune them), verified line by line with ripgrep's semantics.

use quarry_analysis::grep::{FileHit, MAX_LINES_PER_FILE, Pattern};
use quarry_planner::tools::{self as plans, SearchFilter};
use std::collections::{HashMap, HashSet};

use quarry_storage::DataSource;
use serde_json::{Map, Value, json};

use super::args::{self, DEFAULT_RESULTS, MAX_RESULTS};
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, execute, source_ref};

/// Files whose contents are fetched first; each further fetch doubles, up to [`MAX_CHUNK`].
const FIRST_CHUNK: usize = 64;
const MAX_CHUNK: usize = 1024;
/// Files verified in parallel at a time.
const VERIFY_BATCH: usize = 32;
pub fn filter_of(
    paths: Option<&[String]>,
    extensions: Option<&[String]>,
    exclude_markdown: Option<bool>,
) -> SearchFilter {
    let clean = |v: Option<&[String]>| {
        v.unwrap_or_default()
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
    };
    SearchFilter {
        paths: clean(paths),
        extensions: clean(extensions),
        exclude_markdown: exclude_markdown.unwrap_or(false),
    }
}

pub fn max_results(n: Option<u32>) -> Result<usize, ToolError> {
    super::args::in_range("max_results", n, DEFAULT_RESULTS, (1, MAX_RESULTS)).map(|n| n as usize)
}

/// Lines of context around each match, at most this many (docs/tools.md).
pub const MAX_CONTEXT_LINES: u32 = 10;

fn context_lines(n: Option<u32>) -> Result<usize, ToolError> {
    super::args::in_range("context_lines", n, 0, (0, MAX_CONTEXT_LINES)).map(|n| n as usize)
}

/// The files to verify, in path order: `(data source, path, identifier)`; those that match by
/// file name; contents already read (by identifier); and where the trigram indexes keep the
/// others' contents (identifier → (index of `indexes`, document)).
struct Candidates {
    order: Vec<(String, String, String)>,
    named: HashSet<String>,
    prefetched: HashMap<String, Map<String, Value>>,
    texts: HashMap<String, (usize, u32)>,
    indexes: Vec<(
        String,
        u64,
        std::sync::Arc<quarry_engine::trigram::TrigramIndex>,
    )>,
}

impl Candidates {
    /// Contents of `ids`, as rows like the files table's: from the trigram indexes' frames
    /// where they have them, else from the table.
    async fn fetch(
        &self,
        call: &Call<'_>,
        ctx: Option<&datafusion::prelude::SessionContext>,
        repos: &[DataSource],
        ids: &[String],
    ) -> Result<Vec<Map<String, Value>>, ToolError> {
        let mut rows = Vec::with_capacity(ids.len());
        let mut from_table = Vec::new();
        let mut by_index: HashMap<usize, Vec<(&String, u32)>> = HashMap::new();
        for id in ids {
            match self.texts.get(id) {
                Some((i, doc)) => by_index.entry(*i).or_default().push((id, *doc)),
                None => from_table.push(id.clone()),
            }
        }
        let store = call.state.catalog.store();
        for (i, docs) in by_index {
            let (source, version, ix) = &self.indexes[i];
            let numbers: Vec<u32> = docs.iter().map(|(_, d)| *d).collect();
            let texts = quarry_engine::trigram::read_texts(
                store,
                source,
                *version,
                ix.contents(),
                &numbers,
            )
            .await
            .map_err(ToolError::internal)?;
            for ((id, doc), content) in docs.into_iter().zip(texts) {
                let mut row = Map::new();
                row.insert("data_source".into(), json!(source));
                row.insert("identifier".into(), json!(id));
                row.insert("path".into(), json!(ix.paths()[doc as usize]));
                row.insert("content".into(), Value::String(content));
                rows.push(row);
            }
        }
        if !from_table.is_empty() {
            let ctx = match ctx {
                Some(ctx) => ctx.clone(),
                None => call.session_of(repos).await?,
            };
            rows.extend(execute(&ctx, plans::files_by_identifier(&ctx, &from_table).await).await?);
        }
        Ok(rows)
    }
}

/// Candidates from the repositories' trigram indexes (`quarry_engine::trigram`): the files
/// holding every trigram of the pattern's required literals (all admitted files when it has
/// none), and file-name matches from the indexed path list — no table is read. `None` when
/// some repository has no index (a store from before them), so the tables must answer.
async fn from_trigram_indexes(
    call: &Call<'_>,
    repos: &[DataSource],
    filter: &SearchFilter,
    pattern: &Pattern,
) -> Option<Candidates> {
    let store = call.state.catalog.store();
    let mut out = Candidates {
        order: Vec::new(),
        named: HashSet::new(),
        prefetched: HashMap::new(),
        texts: HashMap::new(),
        indexes: Vec::new(),
    };
    for repo in repos {
        let Some(snap) = &repo.snapshot else { continue };
        let ix = quarry_engine::trigram::load(store, &repo.id, snap.files).await?;
        let prefix = repo.identifier_prefix();
        let paths = ix.paths();
        let n = out.indexes.len();
        let id_of = |p: &str| quarry_analysis::resolve::file_identifier(prefix, p);
        let docs: Vec<u32> = match ix.candidates_of_runs(pattern.runs()) {
            Some(docs) => docs,
            None => (0..paths.len() as u32).collect(),
        };
        let named_ids: HashSet<u32> = ix.paths_matching(pattern).into_iter().collect();
        for d in docs.into_iter().chain(named_ids.iter().copied()) {
            let p = &paths[d as usize];
            if !filter.admits(p) {
                continue;
            }
            let id = id_of(p);
            if named_ids.contains(&d) {
                out.named.insert(id.clone());
            }
            out.texts.insert(id.clone(), (n, d));
            out.order.push((repo.id.clone(), p.clone(), id));
        }
        out.indexes.push((repo.id.clone(), snap.files, ix));
    }
    out.order.sort_unstable();
    out.order.dedup();
    tracing::debug!(candidates = out.order.len(), "grep: trigram candidates");
    Some(out)
}

/// Candidates from the tables: file-name matches and content candidates (the filter and
/// `contains` for each required literal, which Lance answers from its n-gram index where an
/// older index built one) as two concurrent queries.
async fn from_tables(
    ctx: &datafusion::prelude::SessionContext,
    filter: &SearchFilter,
    pattern: &Pattern,
    query: &str,
    regex: bool,
) -> Result<Candidates, ToolError> {
    let (by_name, candidates) = tokio::join!(
        async { execute(ctx, plans::paths_matching(ctx, filter, query, regex).await).await },
        async {
            execute(
                ctx,
                plans::grep_candidates(ctx, filter, pattern.required()).await,
            )
            .await
        }
    );
    let (by_name, candidates) = (by_name?, candidates?);
    let named: HashSet<String> = by_name
        .iter()
        .map(|n| n.s("identifier").to_string())
        .collect();
    let mut order: Vec<(String, String, String)> = candidates
        .iter()
        .chain(&by_name)
        .map(|r| {
            (
                r.s("data_source").to_string(),
                r.s("path").to_string(),
                r.s("identifier").to_string(),
            )
        })
        .collect();
    order.sort_unstable();
    order.dedup();
    let prefetched = candidates
        .into_iter()
        .filter(|r| r.contains_key("content"))
        .map(|r| (r.s("identifier").to_string(), r))
        .collect();
    Ok(Candidates {
        order,
        named,
        prefetched,
        texts: HashMap::new(),
        indexes: Vec::new(),
    })
}

pub async fn grep_search(call: &Call<'_>, a: args::GrepSearch) -> ToolResult {
    if a.query.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "'query' is empty",
            "Pass the text (or regex, with regex=true) to search for",
        ));
    }
    let regex = a.regex.unwrap_or(false);
    let pattern = Pattern::new(&a.query, regex).map_err(|e| {
        ToolError::new(
            "invalid_query",
            e.0,
            if regex {
                "Fix the regex (Rust regex syntax), or pass regex=false to search for the text literally"
            } else {
                "Search for one line of text at a time"
            },
        )
    })?;
    let limit = max_results(a.max_results)?;
    let context = context_lines(a.context_lines)?;
    let sources = call.resolve_many(a.data_sources.as_deref())?;
    let filter = filter_of(
        a.paths.as_deref(),
        a.extensions.as_deref(),
        a.exclude_markdown,
    );
    // With trigram indexes no table is read, so no DataFusion session is made (that was a
    // few milliseconds of every search).
    let repos = call.repositories(&sources).await?;
    let (plan, ctx) = match from_trigram_indexes(call, &repos, &filter, &pattern).await {
        Some(plan) => (plan, None),
        None => {
            let ctx = call.session_of(&repos).await?;
            let plan = from_tables(&ctx, &filter, &pattern, &a.query, regex).await?;
            (plan, Some(ctx))
        }
    };
    let (order, named, prefetched) = (&plan.order, &plan.named, &plan.prefetched);
    let repo_of = |id: &str| -> Option<&DataSource> { repos.iter().find(|r| r.id == id) };
    let mut results: Vec<Value> = Vec::new();
    let mut blocks = String::new();
    let mut truncated = false;
    let mut total_matches = 0usize;
    let mut next = 0;
    let mut chunk = FIRST_CHUNK;
    'files: while next < order.len() {
        let ids: Vec<String> = order[next..(next + chunk).min(order.len())]
            .iter()
            .map(|(_, _, id)| id.clone())
            .collect();
        next += ids.len();
        let missing: Vec<String> = ids
            .iter()
            .filter(|id| !prefetched.contains_key(id.as_str()))
            .cloned()
            .collect();
        if !missing.is_empty() {
            chunk = (chunk * 2).min(MAX_CHUNK);
        }
        let fetched = if missing.is_empty() {
            Vec::new()
        } else {
            plan.fetch(call, ctx.as_ref(), &repos, &missing).await?
        };
        let fetched: HashMap<&str, &Map<String, Value>> =
            fetched.iter().map(|f| (f.s("identifier"), f)).collect();
        // Verify the chunk's files on every core, then take their results in path order.
        let files_all: Vec<(&String, &Map<String, Value>)> = ids
            .iter()
            .filter_map(|id| {
                prefetched
                    .get(id.as_str())
                    .or_else(|| fetched.get(id.as_str()).copied())
                    .map(|f| (id, f))
            })
            .collect();
        let files = files_all.clone();
        // In small batches, so little is verified past the file that ends the answer.
        let mut verified: Vec<quarry_analysis::grep::Found> = Vec::with_capacity(files.len());
        for (i, (id, f)) in files.into_iter().enumerate() {
            if i == verified.len() {
                let batch = &files_all[i..(i + VERIFY_BATCH).min(files_all.len())];
                let more: Vec<quarry_analysis::grep::Found> = tokio::task::block_in_place(|| {
                    use rayon::prelude::*;
                    batch
                        .par_iter()
                        .map(|(_, f)| pattern.search(f.s("content"), MAX_LINES_PER_FILE))
                        .collect()
                });
                verified.extend(more);
            }
            let found = std::mem::take(&mut verified[i]);
            let named = named.contains(id);
            if found.lines.is_empty() && !named {
                continue;
            }
            if results.len() >= limit {
                truncated = true;
                break 'files;
            }
            total_matches += found.match_count;
            let source = repo_of(f.s("data_source"))
                .map(source_ref)
                .unwrap_or(Value::Null);
            results.push(
                FileHit {
                    data_source: &source,
                    identifier: f.s("identifier"),
                    path: f.s("path"),
                    content: f.s("content"),
                    found: &found,
                    named,
                    context,
                    query: &a.query,
                }
                .to_json(&mut blocks),
            );
        }
    }
    let hint = if results.is_empty() {
        if regex {
            "No matches. Check the regex (case-sensitive; add (?i) for case-insensitive), widen the filters, or try semantic_search.".to_string()
        } else {
            "No matches. grep is exact and case-sensitive: try a shorter literal, regex=true with (?i), or semantic_search.".to_string()
        }
    } else if truncated {
        format!(
            "Showing the first {limit} files in path order; narrow with paths/extensions or raise max_results. fetch_artifacts or read_file show the code."
        )
    } else {
        "Read around a match with read_file (path, start_line) or fetch_artifacts; for concepts, use semantic_search.".to_string()
    };
    let mut rendered = quarry_analysis::grep::render_results(&blocks, results.len(), truncated);
    rendered.push_str(&hint);
    // The results are moved in (`json!` would deep-copy them).
    let mut obj = Map::new();
    obj.insert("results".into(), Value::Array(results));
    obj.insert("totalMatches".into(), json!(total_matches));
    obj.insert("truncated".into(), json!(truncated));
    let ids: Vec<Value> = repos.iter().map(|r| Value::String(r.id.clone())).collect();
    obj.insert("dataSourceIds".into(), Value::Array(ids));
    obj.insert("hint".into(), Value::String(hint));
    let obj = Value::Object(obj);
    Ok(ToolOutput { obj, rendered })
}
