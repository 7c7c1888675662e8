//! `semantic_search` and `chat`.
//!
//! Retrieval is lexical-structural. Each repository's snapshot has a search index
//! (`quarry_engine::search`, built by `quarry index`): BM25F over code-aware tokens of every
//! definition's name, path, signature, doc comment and body, and of every file, with
//! structural signals; a question is posting-list reads and a top-k selection, then the
//! records of the k best. A repository indexed by an older Quarry (no search index) is
//! answered the earlier way: a plan selects candidate definitions and files whose name, path
//! or summary contains a term of the question, and [`rank`] scores them. Dense vectors are
//! not implemented yet; they would be fused with these ranks here.

use std::collections::HashMap;

use quarry_analysis::text::{STOPWORDS, query_terms, tokens};
use quarry_planner::tools::{self as plans};
use quarry_storage::DataSource;
use serde_json::{Map, Value, json};

use super::grep::{filter_of, max_results};
use super::render::{attrs, xml_escape};
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, args, execute, source_ref};

/// Candidate rows fetched per unit type before ranking.
const CANDIDATES: usize = 20_000;
/// Most terms used from a question.
const MAX_TERMS: usize = 12;

/// One ranked unit.
pub struct Hit {
    pub row: Map<String, Value>,
    pub is_file: bool,
    pub score: f64,
}

fn field_tokens(row: &Map<String, Value>, is_file: bool) -> Vec<(Vec<String>, f64)> {
    if is_file {
        return vec![(tokens(row.s("path")), 2.0)];
    }
    vec![
        (tokens(row.s("name")), 3.0),
        (tokens(row.s("qualified_name")), 1.0),
        (tokens(row.s("path")), 1.0),
        (tokens(row.s("signature")), 1.0),
        (tokens(row.opt_s("doc").unwrap_or("")), 1.5),
    ]
}

/// How much an identifier token counts for a question term: 1 for the same (stemmed) word,
/// 0.5 for a code abbreviation that is a prefix of it (`rect` for `rectangl`, `repo` for
/// `repositori`; at least three letters — `cfg` for `config` does not count — and at least
/// two shorter: `not` is no abbreviation of `noth`), else 0. As `quarry_engine::search`.
fn term_match(token: &str, term: &str) -> f64 {
    if token == term {
        1.0
    } else if token.len() >= 3 && term.len() >= token.len() + 2 && term.starts_with(token) {
        0.5
    } else {
        0.0
    }
}

/// BM25F-style scoring of candidate rows for `terms`, with structural signals — for
/// repositories without a search index (the index ranks the same way, over bodies too).
pub fn rank(terms: &[String], rows: Vec<(Map<String, Value>, bool)>) -> Vec<Hit> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let docs: Vec<Vec<(Vec<String>, f64)>> =
        rows.iter().map(|(r, f)| field_tokens(r, *f)).collect();
    let n = docs.len().max(1) as f64;
    let lens: Vec<f64> = docs
        .iter()
        .map(|d| d.iter().map(|(t, _)| t.len() as f64).sum())
        .collect();
    let avg = (lens.iter().sum::<f64>() / n).max(1.0);
    let mut df: HashMap<&str, f64> = HashMap::new();
    for d in &docs {
        for t in terms {
            if d.iter()
                .any(|(toks, _)| toks.iter().any(|x| term_match(x, t) > 0.0))
            {
                *df.entry(t.as_str()).or_default() += 1.0;
            }
        }
    }
    let mut hits: Vec<Hit> = Vec::new();
    for (i, (row, is_file)) in rows.into_iter().enumerate() {
        let d = &docs[i];
        let mut score = 0.0;
        let mut matched = 0;
        for t in terms {
            let tf: f64 = d
                .iter()
                .map(|(toks, w)| w * toks.iter().map(|x| term_match(x, t)).sum::<f64>())
                .sum();
            if tf == 0.0 {
                continue;
            }
            matched += 1;
            let dfi = df.get(t.as_str()).copied().unwrap_or(0.0);
            let idf = ((n - dfi + 0.5) / (dfi + 0.5) + 1.0).ln();
            score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lens[i] / avg));
        }
        if matched == 0 {
            continue;
        }
        // Coverage: answering more of the question beats repeating one word.
        score *= 0.5 + 0.5 * matched as f64 / terms.len() as f64;
        if !is_file {
            // The name says what the question asks (stopwords such as `is`/`get` aside).
            let name_toks: Vec<String> = tokens(row.s("name"))
                .into_iter()
                .filter(|t| !STOPWORDS.contains(&t.as_str()))
                .collect();
            if !name_toks.is_empty()
                && name_toks
                    .iter()
                    .all(|n| terms.iter().any(|t| term_match(n, t) > 0.0))
            {
                score *= 1.3;
            }
        }
        score *= quarry_engine::search::prior(
            row.s("path"),
            (!is_file).then(|| row.s("kind")),
            row.get("is_public").and_then(Value::as_bool) == Some(true),
            row.opt_s("doc").is_some_and(|d| !d.is_empty()),
        );
        hits.push(Hit {
            row,
            is_file,
            score,
        });
    }
    hits.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.row.s("identifier").cmp(b.row.s("identifier")))
    });
    hits
}

/// Retrieve and rank for a question over the given sources.
pub async fn retrieve(
    call: &Call<'_>,
    sources: &[DataSource],
    question: &str,
    filter: &plans::SearchFilter,
    limit: usize,
) -> Result<
    (
        Vec<DataSource>,
        Vec<Hit>,
        Option<datafusion::prelude::SessionContext>,
    ),
    ToolError,
> {
    let mut terms = query_terms(question);
    terms.truncate(MAX_TERMS);
    let repos = call.repositories(sources).await?;
    if terms.is_empty() {
        return Ok((repos, Vec::new(), None));
    }
    // The search indexes need no DataFusion session (creating one is most of a question's
    // cost once the ranking is an index lookup).
    if let Some(hits) = from_search_indexes(call, &repos, question, &terms, filter, limit).await? {
        return Ok((repos, hits, None));
    }
    let ctx = call.session_of(&repos).await?;
    let syms = execute(
        &ctx,
        plans::semantic_symbols(&ctx, filter, &terms, CANDIDATES).await,
    )
    .await?;
    let files = execute(
        &ctx,
        plans::semantic_files(&ctx, filter, &terms, CANDIDATES).await,
    )
    .await?;
    let rows: Vec<(Map<String, Value>, bool)> = syms
        .into_iter()
        .map(|r| (r, false))
        .chain(files.into_iter().map(|r| (r, true)))
        .collect();
    let mut hits = rank(&terms, rows);
    hits.truncate(limit);
    Ok((repos, hits, Some(ctx)))
}

/// The ranking from the repositories' search indexes; `None` when one of them has none (an
/// older Quarry indexed it), so that every repository is ranked the same way.
async fn from_search_indexes(
    call: &Call<'_>,
    repos: &[DataSource],
    question: &str,
    terms: &[String],
    filter: &plans::SearchFilter,
    limit: usize,
) -> Result<Option<Vec<Hit>>, ToolError> {
    use quarry_engine::{embed, search};
    let store = call.state.catalog.store();
    let mut loaded = Vec::new();
    for repo in repos {
        let Some(snapshot) = &repo.snapshot else {
            continue;
        };
        // Files published, analysis not yet (`PartiallyReady`): the tables' file rows answer
        // for it, so the whole question takes that path.
        let Some(version) = snapshot.symbols else {
            return Ok(None);
        };
        let Some(ix) = search::load(store, &repo.id, version).await else {
            return Ok(None);
        };
        loaded.push((repo, version, ix));
    }
    let admits = |p: &str| filter.admits(p);
    let admits = (!filter.admits_everything()).then_some(&admits as search::Admits);
    let indexes: Vec<(&search::SearchIndex, Option<search::Admits>)> = loaded
        .iter()
        .map(|(_, _, ix)| (ix.as_ref(), admits))
        .collect();
    // With an embeddings provider and vectors for every repository: the lexical and the
    // dense rankings' top `POOL` each, fused by reciprocal rank.
    let provider = embed::Provider::from_env();
    let mut vectors = Vec::new();
    if let Some(p) = &provider {
        for (repo, version, _) in &loaded {
            match embed::load(store, &repo.id, *version).await {
                Some(v) if v.model == p.model => vectors.push(v),
                _ => break,
            }
        }
    }
    let dense = provider.filter(|_| !loaded.is_empty() && vectors.len() == loaded.len());
    let pool = if dense.is_some() {
        limit.max(POOL)
    } else {
        limit
    };
    let mut found = tokio::task::block_in_place(|| search::top(&indexes, terms, pool));
    if let Some(p) = dense {
        match p.embed(&[question.to_string()]).await {
            Ok(q) if q.first().is_some_and(|v| v.iter().any(|x| *x != 0.0)) => {
                let with_vectors: Vec<_> = indexes
                    .iter()
                    .zip(&vectors)
                    .map(|((ix, admits), v)| (*ix, v.as_ref(), *admits))
                    .collect();
                let near = tokio::task::block_in_place(|| embed::top(&with_vectors, &q[0], pool));
                found = fuse(&found, &near);
            }
            // No word of the question known to the model: the lexical ranking alone.
            Ok(_) => {}
            // Lexical results stand; the operator sees why in the log.
            Err(e) => tracing::warn!("semantic search without dense vectors: {e}"),
        }
    }
    found.truncate(limit);
    let mut hits: Vec<Option<Hit>> = (0..found.len()).map(|_| None).collect();
    for (x, (repo, version, ix)) in loaded.iter().enumerate() {
        let mine: Vec<usize> = (0..found.len()).filter(|&i| found[i].index == x).collect();
        if mine.is_empty() {
            continue;
        }
        let units: Vec<u32> = mine.iter().map(|&i| found[i].unit).collect();
        let records = search::read_units(store, &repo.id, *version, ix, &units)
            .await
            .map_err(|e| {
                ToolError::internal(format!("reading the search index of {}: {e}", repo.name))
            })?;
        for (i, mut row) in mine.into_iter().zip(records) {
            row.insert("data_source".into(), Value::String(repo.id.clone()));
            hits[i] = Some(Hit {
                is_file: ix.is_file(found[i].unit),
                score: found[i].score,
                row,
            });
        }
    }
    Ok(Some(hits.into_iter().flatten().collect()))
}

/// Candidates taken from each ranking before fusing.
const POOL: usize = 100;
/// Reciprocal rank fusion's constant (Cormack et al.): rank r adds 1 / (K + r).
const RRF_K: f64 = 60.0;

/// Reciprocal rank fusion of the lexical ranking and the dense one (index, unit, similarity);
/// ties keep the lexical order.
fn fuse(
    lexical: &[quarry_engine::search::Found],
    dense: &[(usize, u32, f32)],
) -> Vec<quarry_engine::search::Found> {
    let mut fused: HashMap<(usize, u32), (f64, usize)> = HashMap::new();
    for (r, f) in lexical.iter().enumerate() {
        let e = fused.entry((f.index, f.unit)).or_insert((0.0, r));
        e.0 += 1.0 / (RRF_K + r as f64 + 1.0);
    }
    for (r, &(x, u, _)) in dense.iter().enumerate() {
        let e = fused.entry((x, u)).or_insert((0.0, lexical.len() + r));
        e.0 += 1.0 / (RRF_K + r as f64 + 1.0);
    }
    let mut out: Vec<((usize, u32), (f64, usize))> = fused.into_iter().collect();
    out.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    out.into_iter()
        .map(|((index, unit), (score, _))| quarry_engine::search::Found { index, unit, score })
        .collect()
}

fn kind_of(h: &Hit) -> String {
    if h.is_file {
        "file".into()
    } else {
        h.row.s("kind").to_string()
    }
}

/// Exact byte sizes of the hits' code (symbols: their line range of the file).
async fn sizes(
    call: &Call<'_>,
    ctx: Option<datafusion::prelude::SessionContext>,
    repos: &[DataSource],
    hits: &[Hit],
) -> Result<Vec<usize>, ToolError> {
    let file_id = |h: &Hit| -> String {
        if h.is_file {
            h.row.s("identifier").to_string()
        } else {
            let prefix = repos
                .iter()
                .find(|r| r.id == h.row.s("data_source"))
                .map(|r| r.identifier_prefix())
                .unwrap_or("");
            quarry_analysis::resolve::file_identifier(prefix, h.row.s("path"))
        }
    };
    // Hits from a search index carry their size; table rows need their file's lines.
    let needs = |h: &Hit| !h.is_file && !h.row.contains_key("size");
    let mut ids: Vec<String> = hits.iter().filter(|h| needs(h)).map(file_id).collect();
    ids.sort();
    ids.dedup();
    let files = if ids.is_empty() {
        Vec::new()
    } else {
        let ctx = match ctx {
            Some(ctx) => ctx,
            None => call.session_of(repos).await?,
        };
        execute(&ctx, plans::files_by_identifier(&ctx, &ids).await).await?
    };
    Ok(hits
        .iter()
        .map(|h| {
            if h.is_file {
                return h.row.i("bytes") as usize;
            }
            if !needs(h) {
                return h.row.i("size") as usize;
            }
            let id = file_id(h);
            let (s, e) = (h.row.i("start_line"), h.row.i("end_line"));
            files
                .iter()
                .find(|f| f.s("identifier") == id)
                .map(|f| {
                    quarry_analysis::grep::lines(f.s("content"))
                        .enumerate()
                        .filter(|(i, _)| (*i as i64 + 1) >= s && (*i as i64 + 1) <= e)
                        .map(|(_, l)| l.len() + 1)
                        .sum()
                })
                .unwrap_or(0)
        })
        .collect())
}

pub async fn semantic_search(call: &Call<'_>, a: args::SemanticSearch) -> ToolResult {
    let question = a.question.trim();
    if question.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "'question' is empty",
            "Ask a full sentence, e.g. \"Where are API keys validated?\"",
        ));
    }
    let limit = max_results(a.max_results)?;
    let sources = call.resolve_many(a.data_sources.as_deref())?;
    let filter = filter_of(
        a.paths.as_deref(),
        a.extensions.as_deref(),
        a.exclude_markdown,
    );
    let (repos, hits, ctx) = retrieve(call, &sources, question, &filter, limit).await?;
    let sizes = sizes(call, ctx, &repos, &hits).await?;
    let results: Vec<Value> = hits
        .iter()
        .zip(&sizes)
        .map(|(h, size)| {
            let repo = repos.iter().find(|r| r.id == h.row.s("data_source"));
            let range = if h.is_file {
                json!({"start": {"line": 1, "character": 0}, "end": {"line": h.row.i("lines").max(1), "character": 0}})
            } else {
                json!({"start": {"line": h.row.i("start_line"), "character": h.row.i("start_character")},
                       "end": {"line": h.row.i("end_line"), "character": h.row.i("end_character")}})
            };
            json!({
                "kind": kind_of(h),
                "dataSource": repo.map(source_ref),
                "identifier": h.row.s("identifier"),
                "location": {"path": h.row.s("path"), "range": range},
                "score": (h.score * 1000.0).round() / 1000.0,
                "description": if h.is_file {
                    format!("{} file, {} lines", h.row.s("language"), h.row.i("lines"))
                } else {
                    h.row.s("summary").to_string()
                },
                "contentByteSize": size,
            })
        })
        .collect();
    let hint = if results.is_empty() {
        "Nothing matched the question's words. Rephrase with the domain terms the code would use, or use grep_search for exact text.".to_string()
    } else {
        "Fetch the code with fetch_artifacts (identifiers above), follow callers with get_artifact_relationships; for exact names or strings, run grep_search too.".to_string()
    };
    let mut rendered = format!("<semantic_search_results count=\"{}\">\n", results.len());
    for r in &results {
        rendered.push_str(&format!(
            "<result{}>{}</result>\n",
            attrs(&[
                ("identifier", r["identifier"].as_str()),
                ("kind", r["kind"].as_str()),
                ("path", r["location"]["path"].as_str()),
                ("source", r["dataSource"]["name"].as_str()),
            ]),
            xml_escape(r["description"].as_str().unwrap_or(""))
        ));
    }
    rendered.push_str("</semantic_search_results>\n");
    rendered.push_str(&hint);
    Ok(ToolOutput {
        obj: json!({"results": results, "hint": hint}),
        rendered,
    })
}

/// Evidence items an answer is built from.
const EVIDENCE: usize = 6;

pub async fn chat(call: &Call<'_>, a: args::Chat) -> ToolResult {
    let question = a.question.trim();
    if question.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "'question' is empty",
            "Ask a self-contained question with the identifiers and findings you already have",
        ));
    }
    let sources = call.resolve_many(a.data_sources.as_deref())?;
    let answer = crate::chat::answer(call, &sources, question, EVIDENCE).await?;
    let obj = json!({
        "answer": answer.text,
        "stateless": true,
        "citations": answer.citations,
        "mode": answer.mode,
        "hint": "chat keeps no conversation: include earlier findings and identifiers in each question. For exact locations, prefer semantic_search and grep_search.",
    });
    Ok(ToolOutput {
        rendered: answer.text,
        obj,
    })
}
