//! Which data sources a caller sees, and resolving the names or ids they pass.

use quarry_storage::{Catalog, DataSource, SourceType};

/// Who is asking: an organisation and, for scoped keys, the sources they may see.
#[derive(Debug, Clone)]
pub struct Principal {
    pub org: String,
    /// Names or ids; `None` = every source of the organisation.
    pub scope: Option<Vec<String>>,
    pub public_chat: bool,
    pub key_id: Option<String>,
    /// The plan whose limits apply (`None` = unlimited).
    pub plan: Option<quarry_storage::Plan>,
    /// Who the rate-limit counters belong to (see `limits`).
    pub subject: String,
    /// May use `/api/admin/*` for its organisation.
    pub admin: bool,
}

impl Principal {
    /// The CLI acts as the organisation itself.
    pub fn org(org: &str) -> Self {
        Principal {
            org: org.to_string(),
            scope: None,
            public_chat: false,
            key_id: None,
            plan: None,
            subject: format!("org:{org}"),
            admin: true,
        }
    }
}

/// A reference that did not resolve to exactly one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefError {
    Unknown {
        reference: String,
        suggestions: Vec<String>,
    },
    Ambiguous {
        reference: String,
        ids: Vec<String>,
    },
}

impl std::fmt::Display for RefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefError::Unknown {
                reference,
                suggestions,
            } if suggestions.is_empty() => {
                write!(f, "unknown data source '{reference}'")
            }
            RefError::Unknown {
                reference,
                suggestions,
            } => write!(
                f,
                "unknown data source '{reference}'; did you mean {}?",
                suggestions
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            RefError::Ambiguous { reference, ids } => write!(
                f,
                "'{reference}' names several data sources; pass one of their ids instead: {}",
                ids.join(", ")
            ),
        }
    }
}

impl std::error::Error for RefError {}

/// The sources of the principal's organisation that its scope admits.
pub async fn visible(
    catalog: &Catalog,
    who: &Principal,
) -> quarry_storage::Result<Vec<DataSource>> {
    let all: Vec<DataSource> = catalog
        .sources()
        .await?
        .into_iter()
        .filter(|s| s.org == who.org)
        .collect();
    let Some(scope) = &who.scope else {
        return Ok(all);
    };
    let mut admitted: Vec<String> = Vec::new();
    for s in &all {
        if scope
            .iter()
            .any(|r| r == &s.id || r.eq_ignore_ascii_case(&s.name))
        {
            admitted.push(s.id.clone());
            if s.kind == SourceType::Workspace {
                admitted.extend(s.repository_ids.iter().flatten().cloned());
            }
        }
    }
    Ok(all
        .into_iter()
        .filter(|s| admitted.contains(&s.id))
        .collect())
}

/// Resolve ids, names or full names (`owner/name`; names case-insensitive) against the
/// visible sources. A miss suggests the closest names and full names.
pub fn resolve_refs(visible: &[DataSource], refs: &[String]) -> Result<Vec<DataSource>, RefError> {
    let mut out: Vec<DataSource> = Vec::new();
    for r in refs {
        let r = r.trim();
        let by = |of: &dyn Fn(&DataSource) -> Option<&str>| -> Vec<&DataSource> {
            visible
                .iter()
                .filter(|s| of(s).is_some_and(|v| v.eq_ignore_ascii_case(r)))
                .collect()
        };
        let found: Vec<&DataSource> = match visible.iter().find(|s| s.id == r) {
            Some(s) => vec![s],
            None => {
                let named = by(&|s| Some(s.name.as_str()));
                match named.is_empty() {
                    true => by(&|s| s.full_name.as_deref()),
                    false => named,
                }
            }
        };
        match found.as_slice() {
            [one] => {
                if !out.iter().any(|o| o.id == one.id) {
                    out.push((*one).clone());
                }
            }
            [] => {
                return Err(RefError::Unknown {
                    reference: r.to_string(),
                    suggestions: suggestions(visible, r),
                });
            }
            many => {
                return Err(RefError::Ambiguous {
                    reference: r.to_string(),
                    ids: many.iter().map(|s| s.id.clone()).collect(),
                });
            }
        }
    }
    Ok(out)
}

/// Up to three names of visible sources close to `r`: by edit distance to a source's name or
/// full name, or whose name is the last segment of a full name given (`google/gson` for a
/// source named `gson`).
fn suggestions(visible: &[DataSource], r: &str) -> Vec<String> {
    let want = r.to_lowercase();
    let last = want.rsplit(['/', '+']).next().unwrap_or(&want).to_string();
    let mut scored: Vec<(usize, String)> = visible
        .iter()
        .filter_map(|s| {
            let name = s.name.to_lowercase();
            let close = |v: &str| {
                let d = edit_distance(v, &want);
                (d <= 2.max(v.len() / 3)).then_some(d)
            };
            let d = [
                close(&name),
                s.full_name
                    .as_deref()
                    .map(str::to_lowercase)
                    .and_then(|f| close(&f)),
                (name == last).then_some(0),
            ]
            .into_iter()
            .flatten()
            .min()?;
            Some((d, s.name.clone()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}

/// Levenshtein distance (small strings: names).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_storage::Readiness;

    fn ds(id: &str, name: &str) -> DataSource {
        DataSource {
            id: id.into(),
            org: "o".into(),
            name: name.into(),
            kind: SourceType::Repository,
            full_name: None,
            url: None,
            branch: None,
            repository_ids: None,
            description: None,
            readiness: Readiness::Ready,
            snapshot: None,
            retained: Vec::new(),
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    #[test]
    fn names_ids_ambiguity_and_suggestions() {
        let v = vec![
            ds("repo_1", "api"),
            ds("repo_2", "web"),
            ds("repo_3", "web"),
        ];
        assert_eq!(resolve_refs(&v, &["API".into()]).unwrap()[0].id, "repo_1");
        assert_eq!(
            resolve_refs(&v, &["repo_3".into()]).unwrap()[0].id,
            "repo_3"
        );
        assert!(matches!(
            resolve_refs(&v, &["web".into()]),
            Err(RefError::Ambiguous { .. })
        ));
        let e = resolve_refs(&v, &["apj".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown data source 'apj'; did you mean 'api'?"
        );
    }

    #[test]
    fn full_names_resolve_and_are_suggested() {
        let mut gson = ds("repo_1", "gson");
        gson.full_name = Some("google/gson".into());
        let mut flask = ds("repo_2", "flask");
        flask.full_name = Some("pallets/flask".into());
        let v = vec![gson, flask];
        assert_eq!(
            resolve_refs(&v, &["Google/Gson".into()]).unwrap()[0].id,
            "repo_1"
        );
        // A full name the catalog does not hold, whose last part is a source's name.
        let e = resolve_refs(&v, &["someone/flask".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown data source 'someone/flask'; did you mean 'flask'?"
        );
        let e = resolve_refs(&v, &["google/gsno".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown data source 'google/gsno'; did you mean 'gson'?"
        );
    }
}

/// The outcome of relevance filtering (`query`, docs/api.md, "Routes").
#[derive(Debug)]
pub enum Relevance {
    /// Nothing to rank (fewer than two sources).
    Skipped,
    /// The query matched no source; callers fail open with the full list.
    NoMatch,
    /// The sources that match, best first, with the reason.
    Ranked(Vec<(DataSource, String)>),
}

const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "code",
    "do",
    "does",
    "for",
    "from",
    "how",
    "i",
    "in",
    "is",
    "it",
    "of",
    "on",
    "or",
    "that",
    "the",
    "this",
    "to",
    "what",
    "where",
    "which",
    "who",
    "why",
    "with",
    "repo",
    "repository",
    "find",
    "show",
    "me",
    "we",
    "our",
];

/// Lexical relevance: query words (lower-cased, stop words dropped, 3+ characters or exact)
/// found in a source's name, full name, description or branch. A source matching more words,
/// and in its name rather than its description, ranks first. Deterministic and free, so it
/// is never billed as model work; an LLM-backed ranker can replace it behind this function.
pub fn rank_relevance(query: &str, sources: &[DataSource]) -> Relevance {
    if sources.len() < 2 {
        return Relevance::Skipped;
    }
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.len() >= 2 && !STOPWORDS.contains(&w.as_str()))
        .collect();
    let mut scored: Vec<(u32, usize, DataSource, String)> = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        let fields: [(&str, u32, Option<&str>); 4] = [
            ("name", 3, Some(s.name.as_str())),
            ("full name", 2, s.full_name.as_deref()),
            ("description", 1, s.description.as_deref()),
            ("branch", 1, s.branch.as_deref()),
        ];
        let mut score = 0;
        let mut reasons: Vec<String> = Vec::new();
        for w in &words {
            if let Some((field, weight, _)) = fields.iter().find(|(_, _, text)| {
                text.is_some_and(|t| {
                    t.to_lowercase()
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|tok| tok == w || (w.len() >= 4 && tok.starts_with(w.as_str())))
                })
            }) {
                score += weight;
                reasons.push(format!("'{w}' in its {field}"));
            }
        }
        if score > 0 {
            scored.push((
                score,
                i,
                s.clone(),
                format!("The query mentions {}.", reasons.join(", ")),
            ));
        }
    }
    if scored.is_empty() {
        return Relevance::NoMatch;
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    Relevance::Ranked(scored.into_iter().map(|(_, _, s, r)| (s, r)).collect())
}
