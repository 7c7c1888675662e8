//! `grep_search`: candidate files from a plan (filters and the literals every match must
//! contain prune them), verified line by line with ripgrep's semantics.

use quarry_engine::grep::{LineMatch, Pattern, char_column};
use quarry_planner::tools::{self as plans, SearchFilter};
use std::collections::{HashMap, HashSet};

use quarry_storage::DataSource;
use serde_json::{Map, Value, json};

use super::args::{self, DEFAULT_RESULTS, MAX_RESULTS};
use super::render::{attrs, xml_escape};
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, execute, source_ref};

/// Matching lines listed per file (the count covers all).
pub const MAX_LINES_PER_FILE: usize = 20;
/// Files whose contents are fetched first; each further fetch doubles, up to [`MAX_CHUNK`].
const FIRST_CHUNK: usize = 64;
const MAX_CHUNK: usize = 1024;
/// Longest line text returned (longer lines are cut around the first match).
pub const MAX_LINE_CHARS: usize = 400;

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
    let n = n.unwrap_or(DEFAULT_RESULTS);
    if !(1..=MAX_RESULTS).contains(&n) {
        return Err(ToolError::new(
            "invalid_argument",
            format!("max_results must be between 1 and {MAX_RESULTS}, not {n}"),
            format!("Pass max_results between 1 and {MAX_RESULTS} (default {DEFAULT_RESULTS})"),
        ));
    }
    Ok(n as usize)
}

fn clip(text: &str, start_char: usize) -> String {
    let n = text.chars().count();
    if n <= MAX_LINE_CHARS {
        return text.to_string();
    }
    let from = start_char
        .saturating_sub(MAX_LINE_CHARS / 4)
        .min(n - MAX_LINE_CHARS);
    let body: String = text.chars().skip(from).take(MAX_LINE_CHARS).collect();
    format!(
        "{}{body}{}",
        if from > 0 { "…" } else { "" },
        if from + MAX_LINE_CHARS < n { "…" } else { "" }
    )
}

fn match_json(m: &LineMatch, all_lines: &[&str], context: usize, matched: &[u64]) -> Value {
    let (s, e) = m
        .spans
        .first()
        .copied()
        .unwrap_or((m.text.len(), m.text.len()));
    let start = char_column(&m.text, s);
    let end = char_column(&m.text, e);
    let n = m.line_number as usize;
    let mut ctx_lines = Vec::new();
    if context > 0 {
        let lo = n.saturating_sub(context).max(1);
        let hi = (n + context).min(all_lines.len());
        for ln in lo..=hi {
            if ln != n && !matched.contains(&(ln as u64)) {
                let t = all_lines[ln - 1];
                ctx_lines.push(json!({"lineNumber": ln, "lineText": clip(t.strip_suffix('\r').unwrap_or(t), 0)}));
            }
        }
    }
    json!({
        "lineNumber": m.line_number,
        "startColumn": start,
        "endColumn": end,
        "lineText": clip(m.text.strip_suffix('\r').unwrap_or(&m.text), start),
        "remark": if m.spans.len() > 1 { format!("{} matches on this line", m.spans.len()) } else { String::new() },
        "contextLines": ctx_lines,
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
    let context = a.context_lines.unwrap_or(0).min(10) as usize;
    let sources = call.resolve_many(a.data_sources.as_deref())?;
    let filter = filter_of(
        a.paths.as_deref(),
        a.extensions.as_deref(),
        a.exclude_markdown,
    );
    let (repos, ctx) = call.session(&sources).await?;
    // File-name matches and content candidates are independent queries: run them together.
    let (by_name, candidates) = tokio::join!(
        async {
            execute(
                &ctx,
                plans::paths_matching(&ctx, &filter, &a.query, regex).await,
            )
            .await
        },
        async {
            execute(
                &ctx,
                plans::grep_candidates(&ctx, &filter, pattern.required()).await,
            )
            .await
        }
    );
    let (by_name, candidates) = (by_name?, candidates?);
    // Files to verify, in path order: content candidates and file-name matches (a file can
    // match by name alone). Candidates pruned by required literals come with their content;
    // other contents are fetched in growing chunks, and verification stops once a file
    // beyond `max_results` matches, so a pattern without literals does not read every file.
    let named: HashSet<&str> = by_name.iter().map(|n| n.s("identifier")).collect();
    let prefetched: HashMap<&str, &Map<String, Value>> = candidates
        .iter()
        .filter(|r| r.contains_key("content"))
        .map(|r| (r.s("identifier"), r))
        .collect();
    let mut order: Vec<(&str, &str, &str)> = candidates
        .iter()
        .chain(&by_name)
        .map(|r| (r.s("data_source"), r.s("path"), r.s("identifier")))
        .collect();
    order.sort_unstable();
    order.dedup();
    let repo_of = |id: &str| -> Option<&DataSource> { repos.iter().find(|r| r.id == id) };
    let mut results: Vec<Value> = Vec::new();
    let mut truncated = false;
    let mut total_matches = 0usize;
    let mut next = 0;
    let mut chunk = FIRST_CHUNK;
    'files: while next < order.len() {
        let ids: Vec<String> = order[next..(next + chunk).min(order.len())]
            .iter()
            .map(|(_, _, id)| id.to_string())
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
            execute(&ctx, plans::files_by_identifier(&ctx, &missing).await).await?
        };
        let fetched: HashMap<&str, &Map<String, Value>> =
            fetched.iter().map(|f| (f.s("identifier"), f)).collect();
        for id in &ids {
            let Some(f) = prefetched
                .get(id.as_str())
                .or_else(|| fetched.get(id.as_str()))
            else {
                continue;
            };
            let content = f.s("content");
            let found = pattern.search(content, MAX_LINES_PER_FILE);
            let (lines, line_total, match_count) =
                (found.lines, found.line_count, found.match_count);
            let named = named.contains(id.as_str());
            if lines.is_empty() && !named {
                continue;
            }
            if results.len() >= limit {
                truncated = true;
                break 'files;
            }
            let all: Vec<&str> = if context > 0 {
                quarry_engine::grep::lines(content).collect()
            } else {
                Vec::new()
            };
            let matched: Vec<u64> = lines.iter().map(|l| l.line_number).collect();
            total_matches += match_count;
            let first = lines.first();
            let last = lines.last();
            let path = f.s("path");
            let repo = repo_of(f.s("data_source"));
            let start = first
                .map(|m| {
                    let s = m.spans.first().map(|s| s.0).unwrap_or(m.text.len());
                    (m.line_number, char_column(&m.text, s))
                })
                .unwrap_or((1, 0));
            let end = last
                .map(|m| {
                    let (_, e) = *m.spans.last().unwrap_or(&(m.text.len(), m.text.len()));
                    (m.line_number, char_column(&m.text, e))
                })
                .unwrap_or((1, 0));
            let language = quarry_engine::lang::Lang::detect(path)
                .map(|l| l.name())
                .unwrap_or("text");
            results.push(json!({
            "kind": "file",
            "dataSource": repo.map(source_ref),
            "identifier": f.s("identifier"),
            "location": {"path": path, "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}}},
            "score": match_count as f64,
            "description": first.map(|m| clip(m.text.trim(), 0)).unwrap_or_else(|| format!("file name matches '{}'", a.query)),
            "contentByteSize": content.len(),
            "startLine": start.0,
            "endLine": end.0,
            "matchCount": match_count,
            "matches": lines.iter().map(|m| match_json(m, &all, context, &matched)).collect::<Vec<_>>(),
            "matchedByName": named,
            "summary": if line_total > 0 {
                format!("{match_count} match{} on {line_total} line{} of a {language} file{}", if match_count == 1 { "" } else { "es" }, if line_total == 1 { "" } else { "s" }, if line_total > lines.len() { format!(" (first {} lines listed)", lines.len()) } else { String::new() })
            } else {
                "the file name matches; no line does".to_string()
            },
        }));
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
    let mut rendered = format!(
        "<grep_search_results count=\"{}\" truncated=\"{truncated}\">\n",
        results.len()
    );
    for r in &results {
        rendered.push_str(&format!(
            "<result{}>\n",
            attrs(&[
                ("identifier", r["identifier"].as_str()),
                ("path", r["location"]["path"].as_str()),
                ("source", r["dataSource"]["name"].as_str()),
                ("match_count", Some(&r["matchCount"].to_string())),
            ])
        ));
        for m in r["matches"].as_array().into_iter().flatten() {
            rendered.push_str(&format!(
                "{}: {}\n",
                m["lineNumber"],
                xml_escape(m["lineText"].as_str().unwrap_or(""))
            ));
        }
        rendered.push_str("</result>\n");
    }
    rendered.push_str("</grep_search_results>\n");
    rendered.push_str(&hint);
    let obj = json!({
        "results": results,
        "totalMatches": total_matches,
        "truncated": truncated,
        "dataSourceIds": repos.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        "hint": hint,
    });
    Ok(ToolOutput { obj, rendered })
}
