//! `read_file`, `get_file_tree` and `fetch_artifacts`.

use std::collections::BTreeMap;

use quarry_planner::tools as plans;
use quarry_storage::DataSource;
use serde_json::{Map, Value, json};

use super::args::{self, MAX_FETCH, MAX_READ_LINES};
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, execute, source_ref};

pub use super::ontology::ontology;

/// Largest content returned for one artifact by `fetch_artifacts`.
pub const MAX_ARTIFACT_BYTES: usize = 200_000;
/// Candidates listed when a path does not resolve.
const CANDIDATES: usize = 20;
/// Call previews per direction in `fetch_artifacts`.
const PREVIEW: usize = 5;

/// Lines `start..=end` (1-based) of `content`, each prefixed with its number and a colon.
pub fn numbered(content: &str, start: i64, end: i64) -> String {
    let mut out = String::new();
    for (i, line) in quarry_analysis::grep::lines(content).enumerate() {
        let n = i as i64 + 1;
        if n < start {
            continue;
        }
        if n > end {
            break;
        }
        out.push_str(&format!(
            "{n}: {}\n",
            line.strip_suffix('\r').unwrap_or(line)
        ));
    }
    out
}

/// Lines `start..=end` (1-based) of `content`, as they are.
fn slice_lines(content: &str, start: i64, end: i64) -> String {
    let mut out = String::new();
    for (i, line) in quarry_analysis::grep::lines(content).enumerate() {
        let n = i as i64 + 1;
        if n >= start && n <= end {
            out.push_str(line);
            out.push('\n');
        }
        if n > end {
            break;
        }
    }
    out
}

/// The repositories a single-repository argument may mean: the named repository (or a
/// workspace's members), or every visible repository when omitted.
async fn repositories(
    call: &Call<'_>,
    r: Option<&str>,
    arg: &str,
) -> Result<Vec<DataSource>, ToolError> {
    let chosen = match r.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => crate::sources::resolve_refs(&call.visible, &[r.to_string()])
            .map_err(|e| call.ref_error(arg, e))?,
        None => call.visible.clone(),
    };
    call.require_ready(&chosen)?;
    quarry_engine::exec::expand_repositories(&call.state.catalog, &chosen)
        .await
        .map_err(ToolError::internal)
}

/// The repositories (as [`repositories`] chooses them) whose identifier prefix some of `ids`
/// carry (`owner/repo::…`).
pub(super) async fn repositories_holding(
    call: &Call<'_>,
    data_source: Option<&str>,
    ids: &[String],
) -> Result<Vec<DataSource>, ToolError> {
    Ok(repositories(call, data_source, "data_source")
        .await?
        .into_iter()
        .filter(|r| {
            ids.iter()
                .any(|i| i.starts_with(&format!("{}::", r.identifier_prefix())))
        })
        .collect())
}

fn clean_path(path: &str) -> Result<String, ToolError> {
    let p = path.trim();
    if p.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "'path' is empty",
            "Pass a repository-relative path such as \"src/main.rs\"",
        ));
    }
    // ('::' and '\\' may be part of a file's real name: such a path is looked up as it is.)
    let p = p.trim_start_matches("./");
    if p.starts_with('/') || p.split('/').any(|seg| seg == "..") {
        return Err(ToolError::new(
            "invalid_argument",
            format!(
                "'{p}' is not a repository-relative path (absolute paths and '..' are not allowed)"
            ),
            "Pass the path relative to the repository root, e.g. \"src/main.rs\"; get_file_tree lists them",
        ));
    }
    Ok(p.trim_end_matches('/').to_string())
}

pub async fn read_file(call: &Call<'_>, a: args::ReadFile) -> ToolResult {
    let path = clean_path(&a.path)?;
    let start = a.start_line.unwrap_or(1);
    if start < 1 || a.end_line.is_some_and(|e| e < start) {
        return Err(ToolError::new(
            "invalid_argument",
            format!(
                "invalid line range {start}..{}",
                a.end_line.map(|e| e.to_string()).unwrap_or_default()
            ),
            "Lines are 1-based and end_line must not be before start_line",
        ));
    }
    let repos = repositories(call, a.data_source.as_deref(), "data_source").await?;
    let (_, ctx) = call.session(&repos).await?;
    let rows = execute(&ctx, plans::read_file(&ctx, &path).await).await?;
    if rows.len() > 1 {
        let names: Vec<&str> = rows
            .iter()
            .filter_map(|r| repos.iter().find(|s| s.id == r.s("data_source")))
            .map(|s| s.name.as_str())
            .collect();
        return Err(ToolError::new(
            "ambiguous_path",
            format!(
                "'{path}' exists in {} repositories: {}",
                rows.len(),
                names.join(", ")
            ),
            format!("Pass 'data_source' with one of: {}", names.join(", ")),
        ));
    }
    if let Some(row) = rows.first() {
        let repo = repos.iter().find(|s| s.id == row.s("data_source"));
        let total = row.i("lines");
        let content = row.s("content");
        if start > total.max(1) {
            return Err(ToolError::new(
                "invalid_argument",
                format!("start_line {start} is past the end: '{path}' has {total} lines"),
                format!("Pass start_line between 1 and {}", total.max(1)),
            ));
        }
        let end = a
            .end_line
            .unwrap_or(start + MAX_READ_LINES - 1)
            .min(total)
            .min(start + MAX_READ_LINES - 1);
        let text = numbered(content, start, end);
        let more = end < total;
        let obj = json!({
            "found": true,
            "files": [{
                "identifier": row.s("identifier"),
                "path": row.s("path"),
                "dataSource": repo.map(source_ref),
                "fullName": repo.and_then(|r| r.full_name.clone()),
                "startLine": start,
                "endLine": end,
                "totalLines": total,
                "contentByteSize": row.i("bytes"),
                "numberedContent": text,
            }],
            "candidates": [],
            "sameNameCandidates": [],
            "sameNameTotalCount": 0,
            "hint": if more {
                format!("Lines {start}-{end} of {total}. Continue with start_line={}.", end + 1)
            } else {
                "Whole range returned. For a symbol's callers and callees, use get_artifact_relationships with its identifier.".to_string()
            },
        });
        return Ok(ToolOutput::json(obj));
    }
    // Not found: what did the caller mean?
    if path.contains("::") {
        return Err(ToolError::new(
            "invalid_argument",
            format!("no file '{path}'; it looks like an artifact identifier, not a path"),
            "Pass the identifier to fetch_artifacts, or pass only the repository-relative path to read_file",
        ));
    }
    let cands = execute(&ctx, plans::path_candidates(&ctx, &path, CANDIDATES).await).await?;
    let count = execute(&ctx, plans::same_name_count(&ctx, &path).await).await?;
    let item = |r: &Map<String, Value>| {
        let repo = repos.iter().find(|s| s.id == r.s("data_source"));
        json!({"path": r.s("path"), "identifier": r.s("identifier"), "dataSource": repo.map(source_ref)})
    };
    let candidates: Vec<Value> = cands.iter().filter(|r| r.i("rank") < 2).map(item).collect();
    let same: Vec<Value> = cands
        .iter()
        .filter(|r| r.i("rank") == 2)
        .map(item)
        .collect();
    let hint = match candidates.first().or(same.first()) {
        Some(c) => format!(
            "'{path}' is not an indexed file. Did you mean '{}'? Call read_file with that path.",
            c["path"].as_str().unwrap_or("")
        ),
        None => format!(
            "'{path}' is not an indexed file and no file has that name. Use get_file_tree or grep_search to find it."
        ),
    };
    Ok(ToolOutput::json(json!({
        "found": false,
        "files": [],
        "candidates": candidates,
        "sameNameCandidates": same,
        "sameNameTotalCount": count.first().map(|r| r.i("n")).unwrap_or(0),
        "hint": hint,
    })))
}

#[derive(Default)]
struct Dir {
    dirs: BTreeMap<String, Dir>,
    files: Vec<(String, String)>, // (name, summary)
    file_count: usize,
    lines: i64,
}

impl Dir {
    fn insert(&mut self, parts: &[&str], summary: String, lines: i64) {
        self.file_count += 1;
        self.lines += lines;
        match parts {
            [name] => self.files.push((name.to_string(), summary)),
            [d, rest @ ..] => self
                .dirs
                .entry(d.to_string())
                .or_default()
                .insert(rest, summary, lines),
            [] => {}
        }
    }
}

struct TreeOut {
    text: String,
    nodes: usize,
    max_nodes: usize,
    truncated: bool,
}

fn render_dir(d: &Dir, depth: u32, max_depth: u32, output_depth: u32, out: &mut TreeOut) {
    let indent = "  ".repeat(depth as usize);
    for (name, sub) in &d.dirs {
        if out.nodes >= out.max_nodes {
            out.truncated = true;
            return;
        }
        out.nodes += 1;
        let collapsed = depth + 1 >= max_depth;
        out.text.push_str(&format!(
            "{indent}{name}/ ({} file{}, {} lines){}\n",
            sub.file_count,
            if sub.file_count == 1 { "" } else { "s" },
            sub.lines,
            if collapsed && (!sub.dirs.is_empty() || !sub.files.is_empty()) {
                " …"
            } else {
                ""
            }
        ));
        if !collapsed {
            render_dir(sub, depth + 1, max_depth, output_depth, out);
        }
    }
    for (name, summary) in &d.files {
        if out.nodes >= out.max_nodes {
            out.truncated = true;
            return;
        }
        out.nodes += 1;
        if depth < output_depth {
            out.text.push_str(&format!("{indent}{name} — {summary}\n"));
        } else {
            out.text.push_str(&format!("{indent}{name}\n"));
        }
    }
}

pub async fn file_tree(call: &Call<'_>, a: args::GetFileTree) -> ToolResult {
    let repo = call.resolve_repository(a.data_source.as_deref(), "data_source")?;
    let dir = match a
        .path
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "." && *p != "/")
    {
        Some(p) => clean_path(p)?,
        None => String::new(),
    };
    let max_depth = args::in_range(
        "max_depth",
        a.max_depth,
        args::DEFAULT_TREE_DEPTH,
        (1, args::MAX_TREE_DEPTH),
    )?;
    let max_nodes = args::in_range(
        "max_nodes",
        a.max_nodes,
        args::DEFAULT_TREE_NODES,
        (1, args::MAX_TREE_NODES),
    )? as usize;
    let output_depth = a.output_depth.unwrap_or(u32::MAX);
    let (_, ctx) = call.session(std::slice::from_ref(&repo)).await?;
    let files = execute(&ctx, plans::tree_files(&ctx, &repo.id, &dir).await).await?;
    let defs = execute(&ctx, plans::tree_definitions(&ctx, &repo.id, &dir).await).await?;
    let mut by_file: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for d in &defs {
        let names = by_file.entry(d.s("path")).or_default();
        // Public definitions first; at most three named.
        let label = format!("{} {}", d.s("kind"), d.s("name"));
        if d.get("is_public").and_then(Value::as_bool).unwrap_or(false) {
            let at = names.iter().take_while(|n| !n.starts_with('~')).count();
            names.insert(at.min(names.len()), label);
        } else {
            names.push(format!("~{label}"));
        }
    }
    let mut root = Dir::default();
    for f in &files {
        let path = f.s("path");
        let rel = if dir.is_empty() {
            path
        } else {
            &path[dir.len() + 1..]
        };
        let parts: Vec<&str> = rel.split('/').collect();
        let mut summary = format!("{}, {} lines", f.s("language"), f.i("lines"));
        if let Some(names) = by_file.get(path) {
            let shown: Vec<&str> = names
                .iter()
                .take(3)
                .map(|n| n.trim_start_matches('~'))
                .collect();
            summary.push_str(&format!(": {}", shown.join(", ")));
            if names.len() > 3 {
                summary.push_str(&format!(", +{} more", names.len() - 3));
            }
        }
        root.insert(&parts, summary, f.i("lines"));
    }
    let found = !files.is_empty();
    let mut out = TreeOut {
        text: String::new(),
        nodes: 0,
        max_nodes,
        truncated: false,
    };
    if found {
        out.text.push_str(&format!(
            "{}/ ({} files, {} lines)\n",
            if dir.is_empty() { "." } else { dir.as_str() },
            root.file_count,
            root.lines
        ));
        render_dir(
            &root,
            1,
            max_depth + 1,
            output_depth.saturating_add(1),
            &mut out,
        );
        if out.truncated {
            out.text.push_str(&format!(
                "… truncated at {max_nodes} nodes; raise max_nodes or pass a deeper 'path'\n"
            ));
        }
    }
    let hint = if found {
        "Read a file with read_file (path as shown, joined to its directories), or search it with grep_search / semantic_search.".to_string()
    } else if dir.is_empty() {
        format!("'{}' has no indexed files.", repo.name)
    } else {
        format!(
            "No indexed files under '{dir}' in '{}'. Omit 'path' to see the root.",
            repo.name
        )
    };
    Ok(ToolOutput::json(json!({
        "trees": [{
            "dataSource": source_ref(&repo),
            "fullName": repo.full_name,
            "path": dir,
            "found": found,
            "tree": out.text,
            "nodeCount": out.nodes,
            "truncated": out.truncated,
        }],
        "hint": hint,
    })))
}

pub async fn fetch_artifacts(call: &Call<'_>, a: args::FetchArtifacts) -> ToolResult {
    let mut ids: Vec<String> = Vec::new();
    for i in &a.identifiers {
        let i = i.trim().to_string();
        if !i.is_empty() && !ids.contains(&i) {
            ids.push(i);
        }
    }
    if ids.is_empty() {
        return Err(ToolError::new(
            "invalid_argument",
            "'identifiers' is empty",
            "Pass identifiers returned by semantic_search or grep_search",
        ));
    }
    if ids.len() > MAX_FETCH {
        return Err(ToolError::new(
            "too_many_identifiers",
            format!(
                "{} identifiers requested; at most {MAX_FETCH} per call",
                ids.len()
            ),
            format!("Split the identifiers into calls of at most {MAX_FETCH}"),
        ));
    }
    let repos = repositories_holding(call, a.data_source.as_deref(), &ids).await?;
    let (_, ctx) = call.session(&repos).await?;
    let symbols = execute(&ctx, plans::symbols_by_identifier(&ctx, &ids).await).await?;
    let mut file_ids: Vec<String> = ids.clone();
    for s in &symbols {
        if let Some(r) = repos.iter().find(|r| r.id == s.s("data_source")) {
            file_ids.push(quarry_analysis::resolve::file_identifier(
                r.identifier_prefix(),
                s.s("path"),
            ));
        }
    }
    file_ids.sort();
    file_ids.dedup();
    let files = execute(&ctx, plans::files_by_identifier(&ctx, &file_ids).await).await?;
    let file_of = |id: &str| files.iter().find(|f| f.s("identifier") == id);
    let sym_ids: Vec<String> = symbols
        .iter()
        .map(|s| s.s("identifier").to_string())
        .collect();
    let calls = if sym_ids.is_empty() {
        Vec::new()
    } else {
        execute(&ctx, plans::calls_touching(&ctx, &sym_ids).await).await?
    };
    let mut related: Vec<String> = calls
        .iter()
        .flat_map(|e| [e.s("source").to_string(), e.s("target").to_string()])
        .collect();
    related.sort();
    related.dedup();
    let summaries = if related.is_empty() {
        Vec::new()
    } else {
        execute(&ctx, plans::summaries(&ctx, &related).await).await?
    };
    let summary_of = |id: &str| {
        summaries
            .iter()
            .find(|s| s.s("identifier") == id)
            .map(|s| s.s("summary").to_string())
            .unwrap_or_default()
    };
    let preview = |id: &str, incoming: bool| {
        let items: Vec<&str> = calls
            .iter()
            .filter(|e| {
                if incoming {
                    e.s("target") == id
                } else {
                    e.s("source") == id
                }
            })
            .map(|e| {
                if incoming {
                    e.s("source")
                } else {
                    e.s("target")
                }
            })
            .collect();
        let mut distinct: Vec<&str> = Vec::new();
        for i in items {
            if !distinct.contains(&i) {
                distinct.push(i);
            }
        }
        let list: Vec<Value> = distinct
            .iter()
            .take(PREVIEW)
            .map(|i| json!({"identifier": i, "summary": summary_of(i)}))
            .collect();
        (distinct.len(), list)
    };
    let mut artifacts = Vec::new();
    let mut missing = 0;
    for id in &ids {
        if let Some(s) = symbols.iter().find(|s| s.s("identifier") == id) {
            let repo = repos.iter().find(|r| r.id == s.s("data_source"));
            let fid = repo
                .map(|r| {
                    quarry_analysis::resolve::file_identifier(r.identifier_prefix(), s.s("path"))
                })
                .unwrap_or_default();
            let content = file_of(&fid)
                .map(|f| slice_lines(f.s("content"), s.i("start_line"), s.i("end_line")))
                .unwrap_or_default();
            let (content, cut) = cap(content);
            let (in_n, in_list) = preview(id, true);
            let (out_n, out_list) = preview(id, false);
            artifacts.push(json!({
                "identifier": id,
                "found": true,
                "kind": s.s("kind"),
                "path": s.s("path"),
                "dataSource": repo.map(source_ref),
                "content": content,
                "contentByteSize": content.len(),
                "contentTruncated": cut,
                "startLine": s.i("start_line"),
                "endLine": s.i("end_line"),
                "signature": s.s("signature"),
                "summary": s.s("summary"),
                "relationships": {
                    "incomingCallsCount": in_n,
                    "incomingCalls": in_list,
                    "outgoingCallsCount": out_n,
                    "outgoingCalls": out_list,
                },
            }));
        } else if let Some(f) = file_of(id) {
            let repo = repos.iter().find(|r| r.id == f.s("data_source"));
            let (content, cut) = cap(f.s("content").to_string());
            artifacts.push(json!({
                "identifier": id,
                "found": true,
                "kind": "file",
                "path": f.s("path"),
                "dataSource": repo.map(source_ref),
                "content": content,
                "contentByteSize": f.i("bytes"),
                "contentTruncated": cut,
                "startLine": 1,
                "endLine": f.i("lines"),
                "relationships": {"incomingCallsCount": 0, "incomingCalls": [], "outgoingCallsCount": 0, "outgoingCalls": []},
            }));
        } else {
            missing += 1;
            artifacts.push(json!({"identifier": id, "found": false}));
        }
    }
    let hint = if missing > 0 {
        format!(
            "{missing} identifier(s) not found: pass identifiers exactly as the search tools return them (owner/repo::path or owner/repo::path::Symbol). For a plain path, use read_file."
        )
    } else {
        "Follow callers and callees with get_artifact_relationships; read surrounding code with read_file.".to_string()
    };
    Ok(ToolOutput::json(
        json!({"artifacts": artifacts, "hint": hint}),
    ))
}

fn cap(mut s: String) -> (String, bool) {
    if s.len() <= MAX_ARTIFACT_BYTES {
        return (s, false);
    }
    let mut at = MAX_ARTIFACT_BYTES;
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    s.truncate(at);
    (s, true)
}
