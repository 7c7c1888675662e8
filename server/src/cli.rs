//! The `quarry` command line.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use quarry_engine::index::{self, IndexOptions};
use quarry_storage::{Catalog, DEFAULT_ORG, DataSource, Readiness, SourceType, Store};

use crate::progress::CliProgress;
use crate::sources::{self, Principal};

#[derive(Parser)]
#[command(
    name = "quarry",
    version,
    about = "Code intelligence, built like a database"
)]
struct Cli {
    /// Where indexes live: a directory (created if missing) or s3://bucket/prefix.
    #[arg(long, global = true, env = "QUARRY_STORE", default_value = ".quarry")]
    store: String,
    /// Organisation to act for.
    #[arg(long, global = true, env = "QUARRY_ORG", default_value = DEFAULT_ORG)]
    org: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Register (if new) and index a repository: a directory, a git repository, or a git URL.
    Index(IndexArgs),
    /// Manage workspaces (named groups of repositories).
    #[command(subcommand)]
    Workspace(WorkspaceCmd),
    /// List data sources.
    Sources {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run one read-only SQL query over the tables (files, symbols, edges).
    Sql {
        /// The statement, e.g. "SELECT language, COUNT(*) FROM files GROUP BY language".
        statement: String,
        /// Restrict to these data sources (names or ids; repeatable). Default: all.
        #[arg(long = "source", short = 's')]
        sources: Vec<String>,
        /// Print JSON ({columns, rows}) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run one ArtifactQuery statement (see docs/artifactquery.md), or show the schema.
    Query {
        /// The statement, e.g. "SELECT path, lines FROM files ORDER BY lines DESC LIMIT 10".
        #[arg(required_unless_present = "schema")]
        statement: Option<String>,
        /// Restrict to these data sources (names or ids; repeatable). Default: all.
        #[arg(long = "source", short = 's')]
        sources: Vec<String>,
        /// Print the result (or the diagnostic) as JSON.
        #[arg(long)]
        json: bool,
        /// Print the queryable schema (optionally of one entity) instead of running a statement.
        #[arg(long, conflicts_with = "statement")]
        schema: bool,
        #[arg(long, requires = "schema")]
        entity: Option<String>,
    },
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCmd),
    /// Manage organisations (plans and their rate limits).
    #[command(subcommand)]
    Orgs(OrgsCmd),
    /// Serve the HTTP API.
    Serve {
        /// Address to listen on (port 0 picks a free port).
        #[arg(long, env = "QUARRY_ADDR", default_value = "127.0.0.1:7878")]
        addr: SocketAddr,
        /// Host names (or host:port) MCP accepts in the Host header, comma-separated; loopback
        /// only by default (DNS-rebinding protection). `*` accepts any host.
        #[arg(long, env = "QUARRY_MCP_ALLOWED_HOSTS", value_delimiter = ',')]
        mcp_allowed_hosts: Vec<String>,
        #[command(flatten)]
        options: ServeOptions,
    },
    /// Index a repository (this directory by default), create an API key and serve.
    Up {
        /// Repository to index.
        #[arg(default_value = ".")]
        path: String,
        #[arg(long, env = "QUARRY_ADDR", default_value = "127.0.0.1:7878")]
        addr: SocketAddr,
    },
}

/// A reader that closed the pipe (`quarry sources | head -1`) ends the command quietly, as
/// SIGPIPE ends other tools, instead of `println!`'s panic with a backtrace. Exit status 141
/// is what a shell reports for a process SIGPIPE ended.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

/// Authentication and administration settings of `quarry serve`.
#[derive(Args, Default)]
struct ServeOptions {
    /// Accept JWTs signed with HS256 and this shared secret (beside API keys).
    #[arg(long, env = "QUARRY_JWT_SECRET", hide_env_values = true)]
    jwt_secret: Option<String>,
    /// Accept RS256 JWTs verified with this RSA public key (PEM) or JWKS file.
    #[arg(long, env = "QUARRY_JWT_PUBLIC_KEY")]
    jwt_public_key: Option<std::path::PathBuf>,
    /// Require this `iss` claim in JWTs.
    #[arg(long, env = "QUARRY_JWT_ISSUER")]
    jwt_issuer: Option<String>,
    /// Require this `aud` claim in JWTs.
    #[arg(long, env = "QUARRY_JWT_AUDIENCE")]
    jwt_audience: Option<String>,
    /// Let admin keys register local paths and file:// URLs (off: only remote git URLs).
    #[arg(long, env = "QUARRY_ADMIN_LOCAL_SOURCES")]
    admin_local_sources: bool,
    /// The only hosts admin keys may register remotes of (comma-separated; `*.example.com`
    /// admits subdomains). A listed host may resolve to an internal address; without the
    /// list any host is admitted whose addresses are all public.
    #[arg(long, env = "QUARRY_ADMIN_ALLOWED_HOSTS", value_delimiter = ',')]
    admin_allowed_hosts: Vec<String>,
    /// Keep rate-limit counters in this Redis (`redis://host:port/db`), shared by every
    /// replica; without it each process counts on its own.
    #[arg(long, env = "QUARRY_RATE_LIMIT_REDIS", hide_env_values = true)]
    rate_limit_redis: Option<String>,
}

#[derive(Args)]
struct IndexArgs {
    /// A directory, a local git repository, or a git URL (https://, ssh, file://).
    #[arg(default_value = ".")]
    path: String,
    /// Display name (default: the directory or repository name).
    #[arg(long)]
    name: Option<String>,
    /// Full name, owner/name (default: the remote's, else the directory's: `…/google+gson/repo`
    /// is google/gson).
    #[arg(long)]
    full_name: Option<String>,
    /// Branch (or tag) to index, for git sources (default: the current branch).
    #[arg(long)]
    branch: Option<String>,
    #[arg(long)]
    description: Option<String>,
    /// Skip files larger than this many bytes.
    #[arg(long, default_value_t = index::DEFAULT_MAX_FILE_BYTES)]
    max_file_size: u64,
    /// Wait up to this many seconds for another run of the same source to finish (by
    /// default a second run exits at once, naming the run in progress).
    #[arg(long, default_value_t = 0, value_name = "SECONDS")]
    wait: u64,
}

#[derive(Subcommand)]
enum WorkspaceCmd {
    /// Create (or redefine) a workspace from repositories (names or ids).
    Create {
        name: String,
        #[arg(long, value_delimiter = ',', required = true)]
        repos: Vec<String>,
        #[arg(long)]
        description: Option<String>,
    },
}

#[derive(Subcommand)]
enum KeysCmd {
    /// Create a key; the secret is printed once.
    Create {
        /// Restrict the key to these data sources (names or ids, comma-separated).
        #[arg(long, value_delimiter = ',')]
        sources: Option<Vec<String>>,
        /// A public chat key (ignores relevance queries).
        #[arg(long)]
        public_chat: bool,
        /// The key's own plan (free, pro, team, enterprise); default: the organisation's.
        #[command(flatten)]
        plan: PlanArgs,
        /// An administrative key (may use /api/admin for its organisation).
        #[arg(long)]
        admin: bool,
    },
    /// List keys (never their secrets).
    List,
    /// Revoke a key by id.
    Revoke { id: String },
    /// Issue a new key with the same scope, plan and role; the old one stops working after
    /// the grace period.
    Rotate {
        id: String,
        /// How long the old key keeps working, in seconds.
        #[arg(long, default_value_t = 86_400)]
        grace_seconds: u64,
    },
}

#[derive(Args, Default)]
struct PlanArgs {
    /// free (100 requests/hour, 5 concurrent), pro (1,000/20), team (5,000/50) or
    /// enterprise (custom numbers).
    #[arg(long)]
    plan: Option<String>,
    /// Requests per hour (enterprise).
    #[arg(long, requires = "plan")]
    requests_per_hour: Option<u64>,
    /// Concurrent requests (enterprise).
    #[arg(long, requires = "plan")]
    concurrent: Option<u32>,
}

impl PlanArgs {
    fn plan(&self) -> Result<Option<quarry_storage::Plan>> {
        self.plan
            .as_deref()
            .map(|name| quarry_storage::Plan::named(name, self.requests_per_hour, self.concurrent))
            .transpose()
            .map_err(|e| anyhow::anyhow!(e))
    }
}

#[derive(Subcommand)]
enum OrgsCmd {
    /// Set an organisation's plan (the --org organisation).
    SetPlan {
        #[command(flatten)]
        plan: PlanArgs,
        /// Remove the plan: unlimited (the self-hosted default).
        #[arg(long, conflicts_with = "plan")]
        unlimited: bool,
    },
    /// List organisations with their plans.
    List,
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("QUARRY_LOG")
                .unwrap_or_else(|_| "warn,lance=error,quarry=info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    // Name rayon's workers (otherwise they take the name of whichever thread first used the
    // pool, which misleads `top` and profiles). Fails only if the pool already exists.
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("quarry-cpu-{i}"))
        .build_global();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn open_catalog(store: &str) -> Result<Catalog> {
    let store = Store::open(store).with_context(|| format!("cannot open the store '{store}'"))?;
    Ok(Catalog::new(store))
}

async fn run(cli: Cli) -> Result<()> {
    let catalog = open_catalog(&cli.store)?;
    let org = cli.org.clone();
    anyhow::ensure!(
        quarry_storage::catalog::valid_id(&org),
        "invalid organisation '{}': organisation names are 1-64 letters, digits, '_' or '-'",
        org.escape_debug()
    );
    match cli.command {
        Command::Index(args) => {
            index_cmd(&catalog, &org, &args).await?;
        }
        Command::Workspace(WorkspaceCmd::Create {
            name,
            repos,
            description,
        }) => {
            let ws = create_workspace(&catalog, &org, &name, &repos, description).await?;
            println!(
                "workspace '{}' ({}) with {} repositories",
                ws.name,
                ws.id,
                ws.repository_ids.map(|r| r.len()).unwrap_or(0)
            );
        }
        Command::Sources { json } => {
            let who = Principal::org(&org);
            let list = sources::visible(&catalog, &who).await?;
            if json {
                let v: Vec<_> = list
                    .iter()
                    .map(|s| crate::http::source_json(s, &who))
                    .collect();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print_sources(&list);
            }
        }
        Command::Sql {
            statement,
            sources: refs,
            json,
        } => {
            sql_cmd(&catalog, &org, &statement, &refs, json).await?;
        }
        Command::Query {
            statement,
            sources: refs,
            json,
            schema,
            entity,
        } => {
            if schema {
                let v = quarry_planner::artifactquery::schema::schema_json(entity.as_deref(), true)
                    .map_err(|e| anyhow::anyhow!(e))?;
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                query_cmd(
                    &catalog,
                    &org,
                    statement.as_deref().unwrap_or(""),
                    &refs,
                    json,
                )
                .await?;
            }
        }
        Command::Keys(cmd) => keys_cmd(&catalog, &org, cmd).await?,
        Command::Serve {
            addr,
            mcp_allowed_hosts,
            options,
        } => serve(catalog, addr, mcp_allowed_hosts, options, None).await?,
        Command::Orgs(cmd) => orgs_cmd(&catalog, &org, cmd).await?,
        Command::Up { path, addr } => {
            let args = IndexArgs {
                path,
                name: None,
                full_name: None,
                branch: None,
                description: None,
                max_file_size: index::DEFAULT_MAX_FILE_BYTES,
                wait: 0,
            };
            index_cmd(&catalog, &org, &args).await?;
            let (_, secret) =
                crate::auth::create_key(&catalog, &org, None, false, None, false).await?;
            serve(
                catalog,
                addr,
                Vec::new(),
                ServeOptions::default(),
                Some(secret),
            )
            .await?;
        }
    }
    Ok(())
}

async fn index_cmd(catalog: &Catalog, org: &str, args: &IndexArgs) -> Result<()> {
    let opts = IndexOptions {
        name: args.name.clone(),
        full_name: args.full_name.clone(),
        branch: args.branch.clone(),
        description: args.description.clone(),
        org: org.to_string(),
        max_file_bytes: args.max_file_size,
        admitted: None,
        lease_wait: std::time::Duration::from_secs(args.wait),
    };
    let progress = Arc::new(CliProgress::new());
    let result = index::index_repository(catalog, &args.path, &opts, progress.clone()).await;
    progress.finish(result.is_ok());
    let report = result.with_context(|| format!("cannot index '{}'", args.path))?;
    let s = &report.stats;
    let secs = report.elapsed.as_secs_f64().max(1e-3);
    println!(
        "indexed '{}' ({}) as {} in {:.1}s: {} files, {:.1} MB ({:.1} MB/s), {} symbols, {} edges",
        report.source.name,
        report.source.id,
        report.source.full_name.as_deref().unwrap_or("-"),
        secs,
        s.files,
        s.bytes as f64 / 1e6,
        s.bytes as f64 / 1e6 / secs,
        s.symbols,
        s.edges
    );
    let langs: Vec<String> = index::languages_by_count(s)
        .iter()
        .map(|(l, n)| format!("{l} {n}"))
        .collect();
    if !langs.is_empty() {
        println!("  languages: {}", langs.join(", "));
    }
    println!(
        "  parsed {} files, reused {} unchanged",
        s.reparsed, s.reused
    );
    if s.unanalysed > 0 {
        println!(
            "  not analysed {}: parse over its memory budget (stored and grep-able, no symbols)",
            s.unanalysed
        );
    }
    if index::skipped_total(s) > 0 {
        let skipped: Vec<String> = s.skipped.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "  skipped {}: {}",
            index::skipped_total(s),
            skipped.join(", ")
        );
    }
    if report.reclaimed_bytes > 0 {
        println!(
            "  removed older table versions: {:.1} MB",
            report.reclaimed_bytes as f64 / 1e6
        );
    }
    Ok(())
}

async fn create_workspace(
    catalog: &Catalog,
    org: &str,
    name: &str,
    repos: &[String],
    description: Option<String>,
) -> Result<DataSource> {
    index::validate_name(name)?;
    let visible = sources::visible(catalog, &Principal::org(org)).await?;
    let repositories: Vec<DataSource> = visible
        .iter()
        .filter(|s| s.kind == SourceType::Repository)
        .cloned()
        .collect();
    let members =
        sources::resolve_refs(&repositories, repos).map_err(|e| anyhow::anyhow!("{e}"))?;
    if members.is_empty() {
        bail!("a workspace needs at least one repository");
    }
    let now = quarry_storage::catalog::now_rfc3339();
    let existing = visible.iter().find(|s| s.name == name);
    if let Some(e) = existing
        && e.kind == SourceType::Repository
    {
        bail!("'{name}' is already a repository; choose another workspace name");
    }
    let readiness = members
        .iter()
        .map(|m| m.readiness)
        .min()
        .unwrap_or(Readiness::NotReady);
    let ws = DataSource {
        id: existing
            .map(|e| e.id.clone())
            .unwrap_or_else(|| quarry_storage::catalog::new_id("ws")),
        org: org.to_string(),
        name: name.to_string(),
        kind: SourceType::Workspace,
        full_name: Some(format!("{org}/{name}")),
        url: None,
        branch: None,
        repository_ids: Some(members.iter().map(|m| m.id.clone()).collect()),
        description: description.or_else(|| existing.and_then(|e| e.description.clone())),
        readiness,
        snapshot: None,
        retained: Vec::new(),
        created_at: existing
            .map(|e| e.created_at.clone())
            .unwrap_or_else(|| now.clone()),
        updated_at: now,
    };
    catalog.put_source(&ws).await?;
    Ok(ws)
}

fn print_sources(list: &[DataSource]) {
    if list.is_empty() {
        println!("no data sources yet: run 'quarry index <path>'");
        return;
    }
    println!(
        "{:<22} {:<20} {:<10} {:<15} {:>7} {:>8} {:>8}  {}",
        "ID", "NAME", "TYPE", "READINESS", "FILES", "SYMBOLS", "EDGES", "FULL NAME / MEMBERS"
    );
    for s in list {
        let (files, symbols, edges) = s
            .snapshot
            .as_ref()
            .map(|x| {
                (
                    x.stats.files.to_string(),
                    x.stats.symbols.to_string(),
                    x.stats.edges.to_string(),
                )
            })
            .unwrap_or_else(|| ("-".into(), "-".into(), "-".into()));
        let detail = match s.kind {
            SourceType::Repository => format!(
                "{}{}",
                s.full_name.as_deref().unwrap_or("-"),
                s.branch
                    .as_deref()
                    .map(|b| format!(" @ {b}"))
                    .unwrap_or_default()
            ),
            SourceType::Workspace => s.repository_ids.clone().unwrap_or_default().join(","),
        };
        println!(
            "{:<22} {:<20} {:<10} {:<15} {:>7} {:>8} {:>8}  {}",
            s.id,
            s.name,
            format!("{:?}", s.kind),
            s.readiness.as_str(),
            files,
            symbols,
            edges,
            detail
        );
    }
}

/// The organisation's sources named by `--source` (names or ids), or all of them.
async fn chosen_sources(catalog: &Catalog, org: &str, refs: &[String]) -> Result<Vec<DataSource>> {
    let visible = sources::visible(catalog, &Principal::org(org)).await?;
    if refs.is_empty() {
        return Ok(visible);
    }
    sources::resolve_refs(&visible, refs).map_err(|e| anyhow::anyhow!("{e}"))
}

async fn sql_cmd(
    catalog: &Catalog,
    org: &str,
    statement: &str,
    refs: &[String],
    json: bool,
) -> Result<()> {
    let chosen = chosen_sources(catalog, org, refs).await?;
    let repos = quarry_engine::exec::expand_repositories(catalog, &chosen).await?;
    let ctx = quarry_engine::exec::session_for(catalog, &repos).await?;
    let plan = quarry_planner::sql::plan(&ctx, statement).await?;
    let columns: Vec<String> = plan
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let batches = quarry_engine::exec::execute(&ctx, plan).await?;
    if json {
        let out = serde_json::json!({
            "columns": quarry_engine::render::column_names(&batches),
            "rows": quarry_engine::render::json_rows(&batches)?,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{}", quarry_engine::render::text_table(&columns, &batches)?);
    }
    Ok(())
}

async fn query_cmd(
    catalog: &Catalog,
    org: &str,
    statement: &str,
    refs: &[String],
    json: bool,
) -> Result<()> {
    let chosen = chosen_sources(catalog, org, refs).await?;
    match crate::query::run(catalog, &chosen, statement).await {
        Ok(result) => {
            if json {
                println!("{}", serde_json::to_string_pretty(&result.json)?);
            } else {
                let columns: Vec<String> = result.json["columns"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect();
                println!(
                    "{}",
                    quarry_engine::render::text_table(&columns, &result.batches)?
                );
                let j = &result.json;
                println!(
                    "{} rows{} ({}, LIMIT {})",
                    j["returnedRows"],
                    if j["truncated"] == true {
                        ", truncated"
                    } else {
                        ""
                    },
                    j["resultShape"].as_str().unwrap_or(""),
                    j["limit"]
                );
            }
            Ok(())
        }
        Err(crate::query::QueryError::Diagnostic(d)) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({ "error": d }))?
                );
            }
            bail!("{d}")
        }
        Err(e) => bail!("{e}"),
    }
}

async fn keys_cmd(catalog: &Catalog, org: &str, cmd: KeysCmd) -> Result<()> {
    match cmd {
        KeysCmd::Create {
            sources: scope,
            public_chat,
            plan,
            admin,
        } => {
            if let Some(refs) = &scope {
                let visible = sources::visible(catalog, &Principal::org(org)).await?;
                sources::resolve_refs(&visible, refs).map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            let plan = plan.plan()?;
            let (key, secret) =
                crate::auth::create_key(catalog, org, scope, public_chat, plan, admin).await?;
            eprintln!(
                "created key {} for organisation '{}' — the secret is shown only now:",
                key.id, key.org
            );
            println!("{secret}");
        }
        KeysCmd::List => {
            let now = quarry_storage::catalog::now_secs();
            for k in catalog.keys().await?.into_iter().filter(|k| k.org == org) {
                let state = match (k.revoked, k.expires_at) {
                    (true, _) => "revoked".to_string(),
                    (false, Some(t)) if t <= now => "expired".to_string(),
                    (false, Some(t)) => {
                        format!("active until {}", quarry_storage::catalog::secs_rfc3339(t))
                    }
                    (false, None) => "active".to_string(),
                };
                println!(
                    "{}  created {}  {}  plan: {}  scope: {}{}{}",
                    k.id,
                    k.created_at,
                    state,
                    k.plan.map(|p| p.name.as_str()).unwrap_or("organisation's"),
                    k.sources
                        .map(|s| s.join(","))
                        .unwrap_or_else(|| "organisation".into()),
                    if k.public_chat { "  public-chat" } else { "" },
                    if k.admin { "  admin" } else { "" }
                );
            }
        }
        KeysCmd::Rotate { id, grace_seconds } => {
            let old = catalog
                .keys()
                .await?
                .into_iter()
                .find(|k| k.id == id && k.org == org && !k.revoked)
                .with_context(|| {
                    format!("no active key '{id}' in organisation '{org}' (see 'quarry keys list')")
                })?;
            let (key, secret) = crate::auth::rotate_key(catalog, &old, grace_seconds).await?;
            eprintln!(
                "rotated {id} → {}; {id} stops working in {grace_seconds} s — the new secret is shown only now:",
                key.id
            );
            println!("{secret}");
        }
        KeysCmd::Revoke { id } => {
            let mut key = catalog
                .keys()
                .await?
                .into_iter()
                .find(|k| k.id == id && k.org == org)
                .with_context(|| {
                    format!("no key '{id}' in organisation '{org}' (see 'quarry keys list')")
                })?;
            key.revoked = true;
            catalog.put_key(&key).await?;
            println!("revoked {id}");
        }
    }
    Ok(())
}

async fn orgs_cmd(catalog: &Catalog, org: &str, cmd: OrgsCmd) -> Result<()> {
    match cmd {
        OrgsCmd::SetPlan { plan, unlimited } => {
            let plan = plan.plan()?;
            anyhow::ensure!(
                plan.is_some() || unlimited,
                "pass --plan free|pro|team|enterprise, or --unlimited"
            );
            anyhow::ensure!(
                quarry_storage::catalog::valid_id(org),
                "organisation names are 1-64 letters, digits, '_' or '-'"
            );
            catalog
                .put_org(&quarry_storage::Org {
                    name: org.to_string(),
                    plan,
                    updated_at: quarry_storage::catalog::now_rfc3339(),
                })
                .await?;
            match plan {
                Some(p) => println!(
                    "organisation '{org}': plan {} ({} requests per hour, {} concurrent)",
                    p.name.as_str(),
                    p.requests_per_hour,
                    p.concurrent
                ),
                None => println!("organisation '{org}': unlimited"),
            }
        }
        OrgsCmd::List => {
            let mut names: Vec<String> = catalog
                .sources()
                .await?
                .into_iter()
                .map(|s| s.org)
                .chain(catalog.keys().await?.into_iter().map(|k| k.org))
                .collect();
            let stored = catalog.orgs().await?;
            names.extend(stored.iter().map(|o| o.name.clone()));
            names.sort();
            names.dedup();
            for n in names {
                let plan = stored.iter().find(|o| o.name == n).and_then(|o| o.plan);
                match plan {
                    Some(p) => println!(
                        "{n}  {} ({} requests per hour, {} concurrent)",
                        p.name.as_str(),
                        p.requests_per_hour,
                        p.concurrent
                    ),
                    None => println!("{n}  unlimited"),
                }
            }
        }
    }
    Ok(())
}

async fn serve(
    catalog: Catalog,
    addr: SocketAddr,
    mcp_allowed_hosts: Vec<String>,
    options: ServeOptions,
    secret: Option<String>,
) -> Result<()> {
    let jwt = crate::auth::JwtConfig::new(
        options.jwt_secret.as_deref(),
        options.jwt_public_key.as_deref(),
        options.jwt_issuer.clone(),
        options.jwt_audience.clone(),
    )?
    .map(Arc::new);
    let store_url = catalog.store().url().to_string();
    let hosts = if mcp_allowed_hosts.is_empty() {
        crate::mcp::DEFAULT_ALLOWED_HOSTS
            .iter()
            .map(|h| h.to_string())
            .collect()
    } else {
        mcp_allowed_hosts
    };
    let state = crate::http::AppState {
        catalog,
        mcp_allowed_hosts: hosts,
        jwt,
        limiter: match &options.rate_limit_redis {
            Some(url) => crate::limits::Limiter::shared(url).map_err(anyhow::Error::msg)?,
            None => crate::limits::Limiter::default(),
        },
        admin_policy: quarry_engine::location::AdminPolicy {
            allow_local: options.admin_local_sources,
            allowed_hosts: options
                .admin_allowed_hosts
                .iter()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .collect(),
        },
    };
    crate::http::serve(state, addr, move |bound| {
        println!("Quarry is serving on http://{bound} (store: {store_url})");
        if let Some(secret) = &secret {
            println!("API key: {secret}");
            println!(
                "Try:  curl -H 'Authorization: Bearer {secret}' http://{bound}/api/datasources/all"
            );
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
    })
    .await
    .with_context(|| format!("cannot serve on {addr}"))
}
