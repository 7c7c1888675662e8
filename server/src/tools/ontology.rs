//! `get_repository_ontology`: a Markdown overview of one repository, assembled from plans
//! over its tables (languages, layout, most-used definitions, entry points, imports) and its
//! README and dependency manifests.

use quarry_planner::tools as plans;
use serde_json::{Map, Value, json};

use super::{Call, RowExt, ToolOutput, ToolResult, args, execute, source_ref};

const README: &[&str] = &[
    "README.md",
    "README",
    "README.rst",
    "README.txt",
    "readme.md",
    "Readme.md",
];
const MANIFESTS: &[&str] = &[
    "Cargo.toml",
    "package.json",
    "requirements.txt",
    "pyproject.toml",
    "go.mod",
    "Gemfile",
    "composer.json",
    "pom.xml",
    "build.gradle",
    "setup.py",
];
const TYPE_KINDS: &[&str] = &[
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "module",
    "namespace",
];
const FN_KINDS: &[&str] = &["function", "method"];

pub async fn ontology(call: &Call<'_>, a: args::GetRepositoryOntology) -> ToolResult {
    let repo = call.resolve_repository(a.data_source.as_deref(), "data_source")?;
    let (_, ctx) = call.session(std::slice::from_ref(&repo)).await?;
    let langs = execute(&ctx, plans::language_mix(&ctx).await).await?;
    let layout = execute(&ctx, plans::top_level(&ctx).await).await?;
    let mut wanted: Vec<&str> = README.to_vec();
    wanted.extend(MANIFESTS);
    let docs = execute(&ctx, plans::files_at(&ctx, &wanted).await).await?;
    let types = execute(&ctx, plans::most_used(&ctx, TYPE_KINDS, 12).await).await?;
    let funcs = execute(&ctx, plans::most_used(&ctx, FN_KINDS, 10).await).await?;
    let mains = execute(
        &ctx,
        plans::entry_points(&ctx, &["main", "Main", "__main__"], 15).await,
    )
    .await?;
    let imports = execute(&ctx, plans::external_imports(&ctx, 15).await).await?;

    let title = repo.full_name.clone().unwrap_or_else(|| repo.name.clone());
    let mut md = format!("# {title}\n\n");
    md.push_str("## Purpose\n\n");
    let readme = docs.iter().find(|d| README.contains(&d.s("path")));
    let mut purpose = Vec::new();
    if let Some(d) = repo.description.as_deref().filter(|d| !d.trim().is_empty()) {
        purpose.push(d.trim().to_string());
    }
    if let Some(p) = readme.and_then(|r| first_paragraph(r.s("content"))) {
        purpose.push(format!(
            "From {}: {p}",
            readme.map(|r| r.s("path")).unwrap_or("README")
        ));
    }
    if purpose.is_empty() {
        purpose.push(
            "No description or README paragraph; the sections below are derived from the code."
                .into(),
        );
    }
    md.push_str(&purpose.join("\n\n"));
    md.push_str("\n\n## Languages\n\n| Language | Files | Lines |\n|---|---:|---:|\n");
    for l in &langs {
        md.push_str(&format!(
            "| {} | {} | {} |\n",
            l.s("language"),
            l.i("files"),
            l.i("lines")
        ));
    }
    md.push_str("\n## Layout\n\n");
    for e in layout.iter().take(25) {
        let dir = e.get("is_dir").and_then(Value::as_bool).unwrap_or(false);
        md.push_str(&format!(
            "- `{}{}` — {} file{}, {} lines\n",
            e.s("entry"),
            if dir { "/" } else { "" },
            e.i("files"),
            if e.i("files") == 1 { "" } else { "s" },
            e.i("lines")
        ));
    }
    if layout.len() > 25 {
        md.push_str(&format!(
            "- … {} more top-level entries\n",
            layout.len() - 25
        ));
    }
    md.push_str("\n## Entry points\n\n");
    if mains.is_empty() {
        md.push_str("No `main` function found (a library, or entry points named otherwise).\n");
    }
    for m in &mains {
        md.push_str(&format!(
            "- `{}` — {} (`{}`)\n",
            m.s("path"),
            m.s("summary"),
            m.s("identifier")
        ));
    }
    md.push_str("\n## Key types and modules\n\nMost used from elsewhere in the repository:\n\n");
    list_defs(&mut md, &types);
    md.push_str("\n## Key functions\n\n");
    list_defs(&mut md, &funcs);
    md.push_str("\n## Dependencies\n\n");
    let mut any = false;
    for d in docs.iter().filter(|d| MANIFESTS.contains(&d.s("path"))) {
        let deps = manifest_dependencies(d.s("path"), d.s("content"));
        if !deps.is_empty() {
            any = true;
            md.push_str(&format!("- `{}`: {}\n", d.s("path"), deps.join(", ")));
        }
    }
    if !imports.is_empty() {
        any = true;
        md.push_str(&format!(
            "- Most imported external modules: {}\n",
            imports
                .iter()
                .map(|i| format!("{} ({})", i.s("module"), i.i("uses")))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !any {
        md.push_str("No dependency manifest at the root and no external imports found.\n");
    }
    let obj = json!({
        "repository_count": 1,
        "dataSource": source_ref(&repo),
        "content": md,
    });
    Ok(ToolOutput { obj, rendered: md })
}

fn list_defs(md: &mut String, rows: &[Map<String, Value>]) {
    if rows.is_empty() {
        md.push_str("None found.\n");
    }
    for t in rows {
        md.push_str(&format!(
            "- **{}** ({} in `{}`, used {} times) — {}\n",
            t.s("name"),
            t.s("kind"),
            t.s("path"),
            t.i("uses"),
            t.s("summary")
        ));
    }
}

/// The first prose paragraph of a README: not a heading, badge, HTML or code line; at most
/// 600 characters.
pub fn first_paragraph(text: &str) -> Option<String> {
    let mut para: Vec<&str> = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let skip = in_code
            || t.starts_with('#')
            || t.starts_with('<')
            || t.starts_with("[![")
            || t.starts_with("![")
            || t.starts_with("===")
            || t.starts_with("---")
            || t.starts_with('|');
        if t.is_empty() || skip {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        para.push(t);
    }
    let p = para.join(" ");
    if p.is_empty() {
        return None;
    }
    Some(if p.chars().count() > 600 {
        format!("{}…", p.chars().take(600).collect::<String>())
    } else {
        p
    })
}

/// Dependency names declared by a manifest (best effort, line based; at most 40).
pub fn manifest_dependencies(path: &str, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    match path {
        "Cargo.toml" => {
            let mut in_deps = false;
            for line in text.lines() {
                let t = line.trim();
                if t.starts_with('[') {
                    in_deps = t
                        .trim_matches(|c| c == '[' || c == ']')
                        .ends_with("dependencies");
                    continue;
                }
                if in_deps && let Some((name, _)) = t.split_once('=') {
                    let name = name.trim().trim_matches('"');
                    if !name.is_empty() && !name.starts_with('#') && !name.contains('.') {
                        out.push(name.to_string());
                    }
                }
            }
        }
        "package.json" | "composer.json" => {
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(text) {
                for key in ["dependencies", "devDependencies", "require", "require-dev"] {
                    if let Some(Value::Object(d)) = o.get(key) {
                        out.extend(d.keys().cloned());
                    }
                }
            }
        }
        "requirements.txt" => {
            for line in text.lines() {
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') || t.starts_with('-') {
                    continue;
                }
                let name: String = t
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || "-_.".contains(*c))
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        }
        "go.mod" => {
            let mut in_block = false;
            for line in text.lines() {
                let t = line.trim();
                if t.starts_with("require (") {
                    in_block = true;
                } else if in_block && t == ")" {
                    in_block = false;
                } else if in_block || t.starts_with("require ") {
                    let t = t.trim_start_matches("require ").trim();
                    if let Some(m) = t.split_whitespace().next().filter(|m| m.contains('.')) {
                        out.push(m.to_string());
                    }
                }
            }
        }
        "pyproject.toml" | "setup.py" | "Gemfile" | "pom.xml" | "build.gradle" => {
            // Quoted requirement strings / gem names / artifactIds.
            for line in text.lines() {
                let t = line.trim();
                if path == "pom.xml" {
                    if let Some(rest) = t.strip_prefix("<artifactId>")
                        && let Some(name) = rest.split('<').next()
                    {
                        out.push(name.to_string());
                    }
                    continue;
                }
                if path == "Gemfile" && !t.starts_with("gem ") {
                    continue;
                }
                if path == "build.gradle"
                    && !(t.starts_with("implementation")
                        || t.starts_with("api")
                        || t.starts_with("testImplementation"))
                {
                    continue;
                }
                if (path == "pyproject.toml" || path == "setup.py")
                    && !(t.starts_with('"') || t.starts_with('\''))
                {
                    continue;
                }
                if let Some(q) = t.split(['"', '\'']).nth(1) {
                    let name: String = q
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || "-_.:/".contains(*c))
                        .collect();
                    if !name.is_empty() {
                        out.push(name);
                    }
                }
            }
        }
        _ => {}
    }
    out.dedup();
    out.truncate(40);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_paragraph_and_manifests() {
        let readme = "# Title\n\n[![b](x)](y)\n\nQuarry indexes code\nfor agents.\n\nMore.";
        assert_eq!(
            first_paragraph(readme).as_deref(),
            Some("Quarry indexes code for agents.")
        );
        let cargo = "[package]\nname = \"x\"\n[dependencies]\nserde = \"1\"\ntokio = { version = \"1\" }\n[dev-dependencies]\ntempfile = \"3\"\n";
        assert_eq!(
            manifest_dependencies("Cargo.toml", cargo),
            vec!["serde", "tokio", "tempfile"]
        );
        assert_eq!(
            manifest_dependencies("requirements.txt", "flask>=2\n# c\nrequests==2.0\n"),
            vec!["flask", "requests"]
        );
        assert_eq!(
            manifest_dependencies("go.mod", "module m\nrequire (\n\tgithub.com/a/b v1\n)\n"),
            vec!["github.com/a/b"]
        );
    }
}
