//! Question answering: retrieval chooses the evidence (ranked definitions and files, their
//! code and their callers, plus grep hits for exact names in the question); an OpenAI-compatible LLM writes the answer with citations when one
//! is configured, otherwise the answer is extractive — the evidence itself, quoted and cited,
//! and it says so. Never an empty or invented answer.
//!
//! Configuration (environment of `quarry serve`): `QUARRY_LLM_URL` (base URL of an
//! OpenAI-compatible API, e.g. `https://api.openai.com/v1`), `QUARRY_LLM_MODEL`,
//! `QUARRY_LLM_API_KEY` (optional for local servers).

use std::time::Duration;

use quarry_planner::tools as plans;
use quarry_storage::DataSource;
use serde_json::{Value, json};

use crate::tools::{Call, RowExt, ToolError, execute};

/// An answer and what it cites.
pub struct Answer {
    pub text: String,
    pub citations: Vec<String>,
    /// `llm` or `extractive`.
    pub mode: &'static str,
}

/// Lines of code quoted per evidence item.
const QUOTE_LINES: i64 = 15;

struct Evidence {
    identifier: String,
    kind: String,
    path: String,
    lines: (i64, i64),
    summary: String,
    code: String,
    callers: Vec<String>,
}

async fn gather(
    call: &Call<'_>,
    sources: &[DataSource],
    question: &str,
    k: usize,
) -> Result<(Vec<DataSource>, Vec<Evidence>), ToolError> {
    let filter = plans::SearchFilter::default();
    let (repos, hits, ctx) =
        crate::tools::semantic::retrieve(call, sources, question, &filter, k).await?;
    let ctx = match ctx {
        Some(ctx) => ctx,
        None => call.session_of(&repos).await?,
    };
    let mut file_ids: Vec<String> = Vec::new();
    let file_id = |data_source: &str, path: &str| {
        let prefix = repos
            .iter()
            .find(|r| r.id == data_source)
            .map(|r| r.identifier_prefix())
            .unwrap_or("");
        quarry_analysis::resolve::file_identifier(prefix, path)
    };
    for h in &hits {
        file_ids.push(file_id(h.row.s("data_source"), h.row.s("path")));
    }
    file_ids.sort();
    file_ids.dedup();
    let files = if file_ids.is_empty() {
        Vec::new()
    } else {
        execute(&ctx, plans::files_by_identifier(&ctx, &file_ids).await).await?
    };
    let sym_ids: Vec<String> = hits
        .iter()
        .filter(|h| !h.is_file)
        .map(|h| h.row.s("identifier").to_string())
        .collect();
    let calls = if sym_ids.is_empty() {
        Vec::new()
    } else {
        execute(&ctx, plans::calls_touching(&ctx, &sym_ids).await).await?
    };
    let mut out = Vec::new();
    for h in &hits {
        let fid = file_id(h.row.s("data_source"), h.row.s("path"));
        let content = files
            .iter()
            .find(|f| f.s("identifier") == fid)
            .map(|f| f.s("content"))
            .unwrap_or("");
        let (start, end) = if h.is_file {
            (1, h.row.i("lines").max(1))
        } else {
            (h.row.i("start_line"), h.row.i("end_line"))
        };
        let code: Vec<&str> = quarry_analysis::grep::lines(content)
            .skip((start - 1).max(0) as usize)
            .take((end - start + 1).clamp(0, QUOTE_LINES) as usize)
            .collect();
        let id = h.row.s("identifier").to_string();
        let mut callers: Vec<String> = calls
            .iter()
            .filter(|e| e.s("target") == id)
            .map(|e| e.s("source").to_string())
            .collect();
        callers.dedup();
        out.push(Evidence {
            kind: if h.is_file {
                "file".into()
            } else {
                h.row.s("kind").to_string()
            },
            path: h.row.s("path").to_string(),
            lines: (start, end),
            summary: if h.is_file {
                format!("{} file", h.row.s("language"))
            } else {
                h.row.s("summary").to_string()
            },
            code: code.join("\n"),
            callers,
            identifier: id,
        });
    }
    // Exact names in the question (`snake_case`, `CamelCase`, `a::b`, backquoted text) are
    // searched with grep too: semantic ranking can miss a name it splits into common words.
    for token in exact_names(question).into_iter().take(2) {
        let args = crate::tools::args::GrepSearch {
            query: token.clone(),
            regex: Some(false),
            data_sources: Some(sources.iter().map(|s| s.id.clone()).collect()),
            paths: None,
            extensions: None,
            max_results: Some(3),
            exclude_markdown: None,
            context_lines: None,
        };
        let grep = crate::tools::grep::grep_search(call, args);
        let Ok(found) = grep.await else {
            continue;
        };
        for r in found.obj["results"].as_array().into_iter().flatten() {
            let id = r["identifier"].as_str().unwrap_or("").to_string();
            if id.is_empty()
                || r["matchCount"] == 0
                || out
                    .iter()
                    .any(|e| e.identifier == id || id.starts_with(&format!("{}::", e.identifier)))
            {
                continue;
            }
            let lines: Vec<String> = r["matches"]
                .as_array()
                .into_iter()
                .flatten()
                .take(5)
                .map(|m| {
                    format!(
                        "{}: {}",
                        m["lineNumber"],
                        m["lineText"].as_str().unwrap_or("")
                    )
                })
                .collect();
            out.push(Evidence {
                identifier: id,
                kind: "text match".into(),
                path: r["location"]["path"].as_str().unwrap_or("").to_string(),
                lines: (
                    r["startLine"].as_i64().unwrap_or(1),
                    r["endLine"].as_i64().unwrap_or(1),
                ),
                summary: format!("{} exact match(es) of `{token}`", r["matchCount"]),
                code: lines.join("\n"),
                callers: Vec::new(),
            });
        }
    }
    Ok((repos, out))
}

/// Words of a question that look like exact code names: backquoted text, `a::b` paths,
/// `snake_case` and `camelCase`/`CamelCase` identifiers (not plain words).
pub fn exact_names(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = question;
    while let Some(start) = rest.find('`') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('`') else { break };
        let name = after[..end].trim();
        if name.len() >= 3 && !name.contains('\n') {
            out.push(name.to_string());
        }
        rest = &after[end + 1..];
    }
    for word in question.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | '?' | '!' | '(' | ')' | '"' | '\'' | '`')
    }) {
        let w = word.trim_end_matches(['.', ':', ';']);
        let camel =
            w.chars().skip(1).any(|c| c.is_uppercase()) && w.chars().any(|c| c.is_lowercase());
        let code_like = w.contains('_') || w.contains("::") || camel;
        if w.len() >= 4
            && code_like
            && w.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_string());
        }
    }
    out
}

/// Answer a question over the given sources.
pub async fn answer(
    call: &Call<'_>,
    sources: &[DataSource],
    question: &str,
    k: usize,
) -> Result<Answer, ToolError> {
    let (repos, evidence) = gather(call, sources, question, k).await?;
    let names: Vec<&str> = repos.iter().map(|r| r.name.as_str()).collect();
    if evidence.is_empty() {
        return Ok(Answer {
            text: format!(
                "I found no code in {} matching the terms of this question, so I cannot answer it from the indexed code. Rephrase it with names the code would use, or try grep_search for exact text.",
                names.join(", ")
            ),
            citations: Vec::new(),
            mode: "extractive",
        });
    }
    let citations: Vec<String> = evidence.iter().map(|e| e.identifier.clone()).collect();
    if let Some(llm) = LlmConfig::from_env() {
        match llm.complete(question, &evidence).await {
            Ok(text) if !text.trim().is_empty() => {
                return Ok(Answer {
                    text,
                    citations,
                    mode: "llm",
                });
            }
            Ok(_) => tracing::warn!("the LLM returned an empty answer; answering extractively"),
            Err(e) => tracing::warn!(error = %e, "the LLM failed; answering extractively"),
        }
    }
    Ok(Answer {
        text: extractive(question, &evidence),
        citations,
        mode: "extractive",
    })
}

fn extractive(question: &str, evidence: &[Evidence]) -> String {
    let mut s = format!(
        "Extractive answer: no language model is configured for this server (QUARRY_LLM_URL), so instead of a written synthesis here is the indexed code most relevant to \"{question}\", best match first, quoted and cited.\n"
    );
    for (i, e) in evidence.iter().enumerate() {
        s.push_str(&format!(
            "\n{}. {} — {} in {} lines {}-{} [{}]\n",
            i + 1,
            e.identifier.rsplit("::").next().unwrap_or(&e.identifier),
            e.kind,
            e.path,
            e.lines.0,
            e.lines.1,
            e.identifier
        ));
        if !e.summary.is_empty() {
            s.push_str(&format!("   {}\n", e.summary));
        }
        if !e.callers.is_empty() {
            s.push_str(&format!(
                "   Called from: {}\n",
                e.callers
                    .iter()
                    .take(3)
                    .map(|c| c.rsplit("::").next().unwrap_or(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !e.code.is_empty() {
            s.push_str("```\n");
            s.push_str(&e.code);
            s.push_str("\n```\n");
        }
    }
    s
}

struct LlmConfig {
    url: String,
    model: String,
    key: Option<String>,
}

impl LlmConfig {
    fn from_env() -> Option<Self> {
        let url = std::env::var("QUARRY_LLM_URL")
            .ok()
            .filter(|u| !u.trim().is_empty())?;
        Some(LlmConfig {
            url: url.trim_end_matches('/').to_string(),
            model: std::env::var("QUARRY_LLM_MODEL").unwrap_or_else(|_| "gpt-4o-mini".into()),
            key: std::env::var("QUARRY_LLM_API_KEY")
                .ok()
                .filter(|k| !k.is_empty()),
        })
    }

    async fn complete(&self, question: &str, evidence: &[Evidence]) -> Result<String, String> {
        let mut context = String::new();
        for e in evidence {
            context.push_str(&format!(
                "[{}] {} {} lines {}-{}: {}\n```\n{}\n```\n\n",
                e.identifier, e.kind, e.path, e.lines.0, e.lines.1, e.summary, e.code
            ));
        }
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": "You answer questions about a codebase using only the evidence given. Cite every claim with the artifact identifier in square brackets, exactly as given. If the evidence does not answer the question, say so."},
                {"role": "user", "content": format!("Evidence:\n\n{context}Question: {question}")},
            ],
        });
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(45))
            .build()
            .map_err(|e| e.to_string())?;
        let mut req = client
            .post(format!("{}/chat/completions", self.url))
            .json(&body);
        if let Some(k) = &self.key {
            req = req.bearer_auth(k);
        }
        let resp = req.send().await.map_err(|e| e.to_string())?;
        let status = resp.status();
        let v: Value = resp.json().await.map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!("{status}: {v}"));
        }
        v["choices"][0]["message"]["content"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("no choices[0].message.content in {v}"))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn exact_names_are_code_like_words() {
        assert_eq!(
            super::exact_names(
                "Where does `parse config` call sum_points and HttpServer::new, not plain Words?"
            ),
            vec!["parse config", "sum_points", "HttpServer::new"]
        );
    }
}
