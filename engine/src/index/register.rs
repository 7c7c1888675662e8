//! Registration: a new data source in the catalog, its name checked.

use super::*;

/// Display names are used as references in tool arguments: keep them printable and unambiguous.
pub fn validate_name(name: &str) -> Result<()> {
    if name.trim().is_empty()
        || name.len() > 100
        || name.chars().any(|c| c.is_control() || c == ',')
    {
        return Err(EngineError::Source(format!(
            "invalid name '{name}': use 1–100 printable characters without commas"
        )));
    }
    Ok(())
}

/// A full name given for a source (`--full-name`): `owner/name`, each part 1–100 letters,
/// digits, `.`, `_` or `-`.
pub fn validate_full_name(full_name: &str) -> Result<()> {
    let part = |p: &str| {
        !p.is_empty()
            && p.len() <= 100
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    };
    match full_name.split_once('/') {
        Some((owner, name)) if part(owner) && part(name) => Ok(()),
        _ => Err(EngineError::Source(format!(
            "invalid full name '{full_name}': write owner/name (letters, digits, '.', '_', '-'), e.g. google/gson"
        ))),
    }
}

pub(super) async fn register(
    catalog: &Catalog,
    name: &str,
    resolved: &ResolvedSource,
    opts: &IndexOptions,
) -> Result<DataSource> {
    let now = quarry_storage::catalog::now_rfc3339();
    let existing = catalog
        .sources()
        .await?
        .into_iter()
        .find(|s| s.org == opts.org && s.name == name);
    match existing {
        Some(s) if s.kind == SourceType::Workspace => Err(EngineError::Conflict(format!(
            "'{name}' is a workspace; choose another --name for the repository"
        ))),
        // (A record written before credentials were stripped compares without them.)
        Some(s)
            if s.url.as_deref().map(crate::location::redacted).as_deref()
                != Some(resolved.url.as_str()) =>
        {
            Err(EngineError::Conflict(format!(
                "a repository named '{name}' already exists for {}; pass --name to register this one under another name",
                s.url.as_deref().unwrap_or("another location")
            )))
        }
        Some(mut s) => {
            s.url = Some(resolved.url.clone());
            if let Some(d) = &opts.description {
                s.description = Some(d.clone());
            }
            if opts.branch.is_some() || resolved.branch.is_some() {
                s.branch = resolved.branch.clone();
            }
            if let Some(full_name) = &opts.full_name {
                s.full_name = Some(full_name.clone());
            }
            Ok(s)
        }
        None => {
            let s = DataSource {
                id: quarry_storage::catalog::new_id("repo"),
                org: opts.org.clone(),
                name: name.to_string(),
                kind: SourceType::Repository,
                full_name: Some(
                    opts.full_name
                        .clone()
                        .unwrap_or_else(|| resolved.full_name.clone()),
                ),
                url: Some(resolved.url.clone()),
                branch: resolved.branch.clone(),
                repository_ids: None,
                description: opts.description.clone(),
                readiness: Readiness::NotReady,
                snapshot: None,
                retained: Vec::new(),
                created_at: now.clone(),
                updated_at: now,
            };
            catalog.put_source(&s).await?;
            Ok(s)
        }
    }
}
