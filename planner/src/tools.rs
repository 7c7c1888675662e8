//! Tool requests as DataFusion logical plans.
//!
//! Every Tool API operation that reads the tables is planned here with `LogicalPlanBuilder`
//! over the session's `files`, `symbols` and `edges` (which hold only the caller's data
//! sources); the server executes the plans through the engine and shapes the results. The
//! plans are deliberately small and declarative: filters and projections that Lance can push
//! down, and aggregates where a tool reports counts.
//!
//! Plan shapes are pinned by snapshot tests (`tools/tests.rs`).

use datafusion::catalog::default_table_source::provider_as_source;
use datafusion::common::{Column, JoinType};
use datafusion::error::Result;
use datafusion::functions::expr_fn::{contains, ends_with, lower, regexp_like, starts_with};
use datafusion::functions_aggregate::count::count_all;
use datafusion::functions_aggregate::expr_fn::{first_value, min};
use datafusion::logical_expr::{Expr, LogicalPlan, LogicalPlanBuilder, SortExpr, lit, when};
use datafusion::prelude::SessionContext;

#[cfg(test)]
mod tests;

fn c(name: &str) -> Expr {
    Expr::Column(Column::from_name(name))
}

/// `column IN (values…)` over string values.
fn one_of<S: AsRef<str>>(column: &str, values: &[S]) -> Expr {
    c(column).in_list(values.iter().map(|v| lit(v.as_ref())).collect(), false)
}

fn qc(relation: &str, name: &str) -> Expr {
    Expr::Column(Column::new(Some(relation), name))
}

async fn scan(ctx: &SessionContext, table: &str) -> Result<LogicalPlanBuilder> {
    let provider = ctx.table_provider(table).await?;
    LogicalPlanBuilder::scan(table, provider_as_source(provider), None)
}

fn asc(e: Expr) -> SortExpr {
    e.sort(true, false)
}

/// `read_file`: the file at exactly `path` in each visible repository.
pub async fn read_file(ctx: &SessionContext, path: &str) -> Result<LogicalPlan> {
    scan(ctx, "files")
        .await?
        .filter(c("path").eq(lit(path)))?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("bytes"),
            c("lines"),
            c("content"),
        ])?
        .sort(vec![asc(c("data_source"))])?
        .build()
}

/// Paths a caller may have meant when `path` did not resolve: the given path as a suffix
/// (a missing leading directory), the same path in another letter case, and files with the
/// same file name elsewhere. At most `limit` rows, each with its `match` kind, best first.
pub async fn path_candidates(
    ctx: &SessionContext,
    path: &str,
    limit: usize,
) -> Result<LogicalPlan> {
    let trimmed = path.trim_start_matches("./").trim_start_matches('/');
    let file_name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    let suffix = ends_with(c("path"), lit(format!("/{trimmed}")));
    let case = lower(c("path")).eq(lit(trimmed.to_lowercase()));
    let same_name = c("path")
        .eq(lit(file_name))
        .or(ends_with(c("path"), lit(format!("/{file_name}"))));
    let rank = Expr::Case(datafusion::logical_expr::Case {
        expr: None,
        when_then_expr: vec![
            (Box::new(suffix.clone()), Box::new(lit(0_i64))),
            (Box::new(case.clone()), Box::new(lit(1_i64))),
        ],
        else_expr: Some(Box::new(lit(2_i64))),
    });
    scan(ctx, "files")
        .await?
        .filter(suffix.or(case).or(same_name))?
        .project(vec![
            c("data_source"),
            c("path"),
            c("identifier"),
            rank.alias("rank"),
        ])?
        .sort(vec![asc(c("rank")), asc(c("path")), asc(c("data_source"))])?
        .limit(0, Some(limit))?
        .build()
}

/// How many files share the file name of `path` (for `sameNameTotalCount`).
pub async fn same_name_count(ctx: &SessionContext, path: &str) -> Result<LogicalPlan> {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    scan(ctx, "files")
        .await?
        .filter(
            c("path")
                .eq(lit(file_name))
                .or(ends_with(c("path"), lit(format!("/{file_name}")))),
        )?
        .aggregate(Vec::<Expr>::new(), vec![count_all().alias("n")])?
        .build()
}

/// `get_file_tree`: the files under `dir` ("" = root) of one repository, in path order.
pub async fn tree_files(ctx: &SessionContext, data_source: &str, dir: &str) -> Result<LogicalPlan> {
    let mut filter = c("data_source").eq(lit(data_source));
    if !dir.is_empty() {
        filter = filter.and(starts_with(c("path"), lit(format!("{dir}/"))));
    }
    scan(ctx, "files")
        .await?
        .filter(filter)?
        .project(vec![c("path"), c("language"), c("lines")])?
        .sort(vec![asc(c("path"))])?
        .build()
}

/// The top-level definitions under `dir` (their names summarise each file in a tree). A
/// method without a parent belongs to a type the repository does not define (`impl u8`):
/// not a definition of the file's own.
pub async fn tree_definitions(
    ctx: &SessionContext,
    data_source: &str,
    dir: &str,
) -> Result<LogicalPlan> {
    let mut filter = c("data_source")
        .eq(lit(data_source))
        .and(c("parent").is_null())
        .and(c("kind").not_eq(lit("field")))
        .and(c("kind").not_eq(lit("variable")))
        .and(c("kind").not_eq(lit("method")));
    if !dir.is_empty() {
        filter = filter.and(starts_with(c("path"), lit(format!("{dir}/"))));
    }
    scan(ctx, "symbols")
        .await?
        .filter(filter)?
        .project(vec![c("path"), c("kind"), c("name"), c("is_public")])?
        .sort(vec![asc(c("path")), asc(c("start_line"))])?
        .build()
}

/// Symbols by identifier (`fetch_artifacts`, relationship sources).
pub async fn symbols_by_identifier(ctx: &SessionContext, ids: &[String]) -> Result<LogicalPlan> {
    scan(ctx, "symbols")
        .await?
        .filter(one_of("identifier", ids))?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("kind"),
            c("name"),
            c("qualified_name"),
            c("start_line"),
            c("start_character"),
            c("end_line"),
            c("end_character"),
            c("signature"),
            c("summary"),
        ])?
        .build()
}

/// Files by identifier, with their content.
pub async fn files_by_identifier(ctx: &SessionContext, ids: &[String]) -> Result<LogicalPlan> {
    scan(ctx, "files")
        .await?
        .filter(one_of("identifier", ids))?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("language"),
            c("lines"),
            c("bytes"),
            c("content"),
        ])?
        .build()
}

/// Which way an edge is followed from the artifact asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Edges whose `source` is the artifact (callees, base types).
    Outgoing,
    /// Edges whose `target` is the artifact (callers, subtypes, users).
    Incoming,
}

/// Which edges a relationship list follows: of `kinds`, resolved with one of `confidences`
/// (an edge of a table written before edges had a confidence, NULL, is followed too).
pub struct EdgeFilter<'a> {
    pub kinds: &'a [&'a str],
    pub confidences: &'a [&'a str],
}

impl EdgeFilter<'_> {
    fn predicate(&self) -> Expr {
        one_of("kind", self.kinds).and(confident(self.confidences))
    }
}

/// Edges resolved with one of `confidences`, or written before edges had a confidence.
fn confident(confidences: &[&str]) -> Expr {
    one_of("confidence", confidences).or(c("confidence").is_null())
}

/// The confidences the previews, chat and the ontology follow (docs/resolution.md): no
/// name-only guesses.
pub const SURE: &[&str] = &["exact", "likely"];

/// Edges resolved at least `likely` (or written before edges had a confidence).
pub(crate) fn sure() -> Expr {
    confident(SURE)
}

/// An edge's confidence as a number to order by: exact 3, likely 2, guess 1, none 0.
fn confidence_rank() -> Result<Expr> {
    when(c("confidence").eq(lit("exact")), lit(3i64))
        .when(c("confidence").eq(lit("likely")), lit(2i64))
        .when(c("confidence").eq(lit("guess")), lit(1i64))
        .otherwise(lit(0i64))
}

/// The related artifacts along the edges `filter` selects in one direction: one row per
/// distinct related identifier (`related`), its first site (`line`), how many edges lead there
/// (`sites`), the `confidence` and `resolution` of the surest of them, and the related
/// symbol's `path`, `start_line` and `summary` (null for file-level sources). Unresolved
/// targets are left out; see [`unresolved_targets`].
pub async fn related(
    ctx: &SessionContext,
    identifier: &str,
    filter: &EdgeFilter<'_>,
    direction: Direction,
    limit: usize,
) -> Result<LogicalPlan> {
    let (this, other) = match direction {
        Direction::Outgoing => ("source", "target"),
        Direction::Incoming => ("target", "source"),
    };
    let surest = vec![confidence_rank()?.sort(false, true)];
    let edges = scan(ctx, "edges")
        .await?
        .filter(
            c(this)
                .eq(lit(identifier))
                .and(filter.predicate())
                .and(c(other).is_not_null()),
        )?
        .aggregate(
            vec![c(other).alias("related")],
            vec![
                min(c("line")).alias("line"),
                count_all().alias("sites"),
                first_value(c("confidence"), surest.clone()).alias("confidence"),
                first_value(c("resolution"), surest.clone()).alias("resolution"),
            ],
        )?
        .alias("e")?
        .build()?;
    let symbols = scan(ctx, "symbols")
        .await?
        .project(vec![
            c("identifier"),
            c("path"),
            c("start_line"),
            c("summary"),
        ])?
        .alias("s")?
        .build()?;
    LogicalPlanBuilder::from(edges)
        .join(
            symbols,
            JoinType::Left,
            (
                vec![Column::new(Some("e"), "related")],
                vec![Column::new(Some("s"), "identifier")],
            ),
            None,
        )?
        .project(vec![
            qc("e", "related").alias("related"),
            qc("s", "path").alias("path"),
            qc("s", "start_line").alias("start_line"),
            qc("s", "summary").alias("summary"),
            qc("e", "line").alias("line"),
            qc("e", "sites").alias("sites"),
            qc("e", "confidence").alias("confidence"),
            qc("e", "resolution").alias("resolution"),
        ])?
        .sort(vec![c("sites").sort(false, false), asc(c("related"))])?
        .limit(0, Some(limit))?
        .build()
}

/// Counts of distinct related artifacts per edge kind and direction for one artifact, over
/// edges resolved with one of `confidences` (or none recorded): rows `(direction, kind, n)`
/// with direction `out` or `in`.
pub async fn relationship_counts(
    ctx: &SessionContext,
    identifier: &str,
    confidences: &[&str],
) -> Result<LogicalPlan> {
    let side = |this: &str, other: &str, dir: &'static str| {
        let this = this.to_string();
        let other = other.to_string();
        async move {
            scan(ctx, "edges")
                .await?
                .filter(
                    c(&this)
                        .eq(lit(identifier))
                        .and(c(&other).is_not_null())
                        .and(confident(confidences)),
                )?
                .aggregate(vec![c("kind"), c(&other)], Vec::<Expr>::new())?
                .aggregate(vec![c("kind")], vec![count_all().alias("n")])?
                .project(vec![lit(dir).alias("direction"), c("kind"), c("n")])?
                .build()
        }
    };
    let out = side("source", "target", "out").await?;
    let inc = side("target", "source", "in").await?;
    LogicalPlanBuilder::from(out).union(inc)?.build()
}

/// How many `kinds` edges stayed unresolved that might be this artifact's: outgoing ones of
/// `identifier` (its calls to external or dynamic targets), or incoming ones, the call sites
/// anywhere that name `name` and found no target (one `n` row).
pub async fn unresolved_sites(
    ctx: &SessionContext,
    identifier: &str,
    name: &str,
    kinds: &[&str],
    direction: Direction,
) -> Result<LogicalPlan> {
    let side = match direction {
        Direction::Outgoing => c("source").eq(lit(identifier)),
        Direction::Incoming => c("target_name").eq(lit(name)),
    };
    scan(ctx, "edges")
        .await?
        .filter(side.and(one_of("kind", kinds)).and(c("target").is_null()))?
        .aggregate(Vec::<Expr>::new(), vec![count_all().alias("n")])?
        .build()
}

/// Names of the unresolved targets of outgoing `kinds` edges (external or dynamic callees).
pub async fn unresolved_targets(
    ctx: &SessionContext,
    identifier: &str,
    kinds: &[&str],
    limit: usize,
) -> Result<LogicalPlan> {
    scan(ctx, "edges")
        .await?
        .filter(
            c("source")
                .eq(lit(identifier))
                .and(one_of("kind", kinds))
                .and(c("target").is_null()),
        )?
        .aggregate(vec![c("target_name")], vec![min(c("line")).alias("line")])?
        .sort(vec![asc(c("line")), asc(c("target_name"))])?
        .limit(0, Some(limit))?
        .build()
}

/// Filters shared by `grep_search` and `semantic_search`.
#[derive(Debug, Clone, Default)]
pub struct SearchFilter {
    /// Repository-relative path prefixes (a directory or a file path); any may match.
    pub paths: Vec<String>,
    /// File extensions without the dot; any may match.
    pub extensions: Vec<String>,
    /// Leave out Markdown files.
    pub exclude_markdown: bool,
}

const MARKDOWN_EXTENSIONS: &[&str] = &["md", "markdown", "mdx"];

impl SearchFilter {
    /// The filter as a predicate over a table with a `path` column (`None` = everything).
    pub fn predicate(&self) -> Option<Expr> {
        let any = |es: Vec<Expr>| es.into_iter().reduce(Expr::or);
        let mut parts: Vec<Expr> = Vec::new();
        if let Some(p) = any(self
            .paths
            .iter()
            .map(|p| {
                let p = p.trim_start_matches("./").trim_matches('/');
                c("path")
                    .eq(lit(p))
                    .or(starts_with(c("path"), lit(format!("{p}/"))))
            })
            .collect())
        {
            parts.push(p);
        }
        if let Some(e) = any(self
            .extensions
            .iter()
            .map(|e| {
                let e = e.trim_start_matches('.').to_lowercase();
                ends_with(lower(c("path")), lit(format!(".{e}")))
            })
            .collect())
        {
            parts.push(e);
        }
        if self.exclude_markdown {
            for ext in MARKDOWN_EXTENSIONS {
                parts.push(!ends_with(lower(c("path")), lit(format!(".{ext}"))));
            }
        }
        parts.into_iter().reduce(Expr::and)
    }

    /// Whether the filter admits every path (no path, extension or Markdown filter).
    pub fn admits_everything(&self) -> bool {
        self.paths.is_empty() && self.extensions.is_empty() && !self.exclude_markdown
    }

    /// Whether the filter admits `path` — [`SearchFilter::predicate`] evaluated in Rust, for
    /// paths that come from a trigram index rather than a table.
    pub fn admits(&self, path: &str) -> bool {
        let lower = path.to_lowercase();
        let in_paths = self.paths.is_empty()
            || self.paths.iter().any(|p| {
                let p = p.trim_start_matches("./").trim_matches('/');
                path == p || path.strip_prefix(p).is_some_and(|r| r.starts_with('/'))
            });
        let with_extension = self.extensions.is_empty()
            || self.extensions.iter().any(|e| {
                let e = e.trim_start_matches('.').to_lowercase();
                lower.ends_with(&format!(".{e}"))
            });
        let markdown_ok = !self.exclude_markdown
            || !MARKDOWN_EXTENSIONS
                .iter()
                .any(|ext| lower.ends_with(&format!(".{ext}")));
        in_paths && with_extension && markdown_ok
    }
}

/// `grep_search` candidates: the files the filter admits that contain every one of
/// `required` (literals any match must contain), in path order. With required literals the
/// content comes along (the index's recheck reads it anyway); without, every admitted file is
/// a candidate and only keys are returned — the caller fetches contents
/// ([`files_by_identifier`]) as far as its results need.
pub async fn grep_candidates(
    ctx: &SessionContext,
    filter: &SearchFilter,
    required: &[String],
) -> Result<LogicalPlan> {
    let mut preds: Vec<Expr> = filter.predicate().into_iter().collect();
    for lit_text in required {
        preds.push(contains(c("content"), lit(lit_text.as_str())));
    }
    let mut b = scan(ctx, "files").await?;
    if let Some(p) = preds.into_iter().reduce(Expr::and) {
        b = b.filter(p)?;
    }
    let mut columns = vec![c("data_source"), c("identifier"), c("path")];
    if !required.is_empty() {
        columns.push(c("content"));
    }
    b.project(columns)?
        .sort(vec![asc(c("data_source")), asc(c("path"))])?
        .build()
}

/// `grep_search` by file name: files the filter admits whose path matches `query` (a literal,
/// or a regex when `regex`).
pub async fn paths_matching(
    ctx: &SessionContext,
    filter: &SearchFilter,
    query: &str,
    regex: bool,
) -> Result<LogicalPlan> {
    let matches = if regex {
        regexp_like(c("path"), lit(query), None)
    } else {
        contains(c("path"), lit(query))
    };
    let pred = match filter.predicate() {
        Some(p) => p.and(matches),
        None => matches,
    };
    scan(ctx, "files")
        .await?
        .filter(pred)?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("bytes"),
        ])?
        .sort(vec![asc(c("data_source")), asc(c("path"))])?
        .build()
}

/// Call edges into or out of any of `ids` (resolved both ends, at least `likely`), for
/// relationship previews and chat: rows `(source, target, line)` in source order.
pub async fn calls_touching(ctx: &SessionContext, ids: &[String]) -> Result<LogicalPlan> {
    scan(ctx, "edges")
        .await?
        .filter(
            c("kind")
                .eq(lit("calls"))
                .and(c("target").is_not_null())
                .and(sure())
                .and(one_of("source", ids).or(one_of("target", ids))),
        )?
        .aggregate(
            vec![c("source"), c("target")],
            vec![min(c("line")).alias("line")],
        )?
        .sort(vec![asc(c("source")), asc(c("line"))])?
        .build()
}

/// Summaries of symbols by identifier: `(identifier, path, start_line, summary)`.
pub async fn summaries(ctx: &SessionContext, ids: &[String]) -> Result<LogicalPlan> {
    scan(ctx, "symbols")
        .await?
        .filter(one_of("identifier", ids))?
        .project(vec![
            c("identifier"),
            c("path"),
            c("start_line"),
            c("summary"),
        ])?
        .build()
}

/// Ontology: files and lines per language, largest first.
pub async fn language_mix(ctx: &SessionContext) -> Result<LogicalPlan> {
    scan(ctx, "files")
        .await?
        .aggregate(
            vec![c("language")],
            vec![
                count_all().alias("files"),
                datafusion::functions_aggregate::expr_fn::sum(c("lines")).alias("lines"),
            ],
        )?
        .sort(vec![c("lines").sort(false, false), asc(c("language"))])?
        .build()
}

/// Ontology: the definitions of `kinds` most used from elsewhere (incoming edges of any kind
/// from other files, resolved at least `likely`), with their summaries: `(identifier, kind,
/// name, path, summary, uses)`.
pub async fn most_used(ctx: &SessionContext, kinds: &[&str], limit: usize) -> Result<LogicalPlan> {
    let edges = scan(ctx, "edges")
        .await?
        .filter(c("target").is_not_null().and(sure()))?
        .aggregate(vec![c("target")], vec![count_all().alias("uses")])?
        .alias("e")?
        .build()?;
    scan(ctx, "symbols")
        .await?
        .filter(one_of("kind", kinds))?
        .project(vec![
            c("identifier"),
            c("kind"),
            c("name"),
            c("path"),
            c("summary"),
        ])?
        .alias("s")?
        .join(
            edges,
            JoinType::Inner,
            (
                vec![Column::new(Some("s"), "identifier")],
                vec![Column::new(Some("e"), "target")],
            ),
            None,
        )?
        .project(vec![
            qc("s", "identifier").alias("identifier"),
            qc("s", "kind").alias("kind"),
            qc("s", "name").alias("name"),
            qc("s", "path").alias("path"),
            qc("s", "summary").alias("summary"),
            qc("e", "uses").alias("uses"),
        ])?
        .sort(vec![c("uses").sort(false, false), asc(c("identifier"))])?
        .limit(0, Some(limit))?
        .build()
}

/// Ontology: definitions named like entry points (`main`, …), top-level only.
pub async fn entry_points(
    ctx: &SessionContext,
    names: &[&str],
    limit: usize,
) -> Result<LogicalPlan> {
    scan(ctx, "symbols")
        .await?
        .filter(one_of("name", names).and(one_of("kind", &["function", "method"])))?
        .project(vec![c("identifier"), c("path"), c("name"), c("summary")])?
        .sort(vec![asc(c("path"))])?
        .limit(0, Some(limit))?
        .build()
}

/// Ontology: imported names that resolve to nothing in the repository (external
/// dependencies), by how many files import them.
pub async fn external_imports(ctx: &SessionContext, limit: usize) -> Result<LogicalPlan> {
    scan(ctx, "edges")
        .await?
        .filter(c("kind").eq(lit("imports")).and(c("target").is_null()))?
        .aggregate(vec![coalesce_qualifier()], vec![count_all().alias("uses")])?
        .sort(vec![c("uses").sort(false, false), asc(c("module"))])?
        .limit(0, Some(limit))?
        .build()
}

fn coalesce_qualifier() -> Expr {
    let qualifier = datafusion::functions::expr_fn::nullif(c("target_qualifier"), lit(""));
    datafusion::prelude::coalesce(vec![qualifier, c("target_name")]).alias("module")
}

/// Files with one of the given paths (README, manifests), with content.
pub async fn files_at(ctx: &SessionContext, paths: &[&str]) -> Result<LogicalPlan> {
    scan(ctx, "files")
        .await?
        .filter(one_of("path", paths))?
        .project(vec![c("path"), c("content")])?
        .sort(vec![asc(c("path"))])?
        .build()
}

/// Top-level layout: the first path segment of every file, with counts.
pub async fn top_level(ctx: &SessionContext) -> Result<LogicalPlan> {
    let first = datafusion::functions::expr_fn::split_part(c("path"), lit("/"), lit(1_i64));
    let is_dir = datafusion::functions::expr_fn::strpos(c("path"), lit("/")).gt(lit(0_i64));
    scan(ctx, "files")
        .await?
        .project(vec![
            first.alias("entry"),
            is_dir.alias("is_dir"),
            c("lines"),
            c("language"),
        ])?
        .aggregate(
            vec![c("entry"), c("is_dir")],
            vec![
                count_all().alias("files"),
                datafusion::functions_aggregate::expr_fn::sum(c("lines")).alias("lines"),
            ],
        )?
        .sort(vec![c("is_dir").sort(false, false), asc(c("entry"))])?
        .build()
}

/// `semantic_search` candidates among symbols: definitions (not fields or variables) whose
/// name, path or summary contains one of `terms` (lower-case), at most `limit`.
/// `column` contains the lower-case `term`, ignoring case. An alphanumeric term becomes
/// `column ILIKE '%term%'`, which Arrow's optimised kernels answer without building a
/// lower-cased copy of every value (`contains(lower(column), …)` spent three quarters of a
/// semantic search over 1.5 M symbols lower-casing, 13 s). Other terms keep `lower`.
fn icontains(column: &str, term: &str) -> Expr {
    if !term.is_empty() && term.chars().all(char::is_alphanumeric) {
        c(column).ilike(lit(format!("%{term}%")))
    } else {
        contains(lower(c(column)), lit(term))
    }
}

pub async fn semantic_symbols(
    ctx: &SessionContext,
    filter: &SearchFilter,
    terms: &[String],
    limit: usize,
) -> Result<LogicalPlan> {
    let any = terms
        .iter()
        .map(|t| {
            icontains("name", t)
                .or(icontains("path", t))
                .or(icontains("summary", t))
        })
        .reduce(Expr::or)
        .unwrap_or(lit(false));
    let mut pred = c("kind")
        .in_list(vec![lit("field"), lit("variable"), lit("import")], true)
        .and(any);
    if let Some(f) = filter.predicate() {
        pred = pred.and(f);
    }
    scan(ctx, "symbols")
        .await?
        .filter(pred)?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("kind"),
            c("name"),
            c("qualified_name"),
            c("start_line"),
            c("start_character"),
            c("end_line"),
            c("end_character"),
            c("signature"),
            c("doc"),
            c("summary"),
            c("is_public"),
        ])?
        .limit(0, Some(limit))?
        .build()
}

/// `semantic_search` candidates among files: paths containing one of `terms`.
pub async fn semantic_files(
    ctx: &SessionContext,
    filter: &SearchFilter,
    terms: &[String],
    limit: usize,
) -> Result<LogicalPlan> {
    let any = terms
        .iter()
        .map(|t| icontains("path", t))
        .reduce(Expr::or)
        .unwrap_or(lit(false));
    let pred = match filter.predicate() {
        Some(f) => f.and(any),
        None => any,
    };
    scan(ctx, "files")
        .await?
        .filter(pred)?
        .project(vec![
            c("data_source"),
            c("identifier"),
            c("path"),
            c("language"),
            c("lines"),
            c("bytes"),
        ])?
        .limit(0, Some(limit))?
        .build()
}
