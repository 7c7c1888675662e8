//! The trust boundary, probed as an attacker would over real HTTP: what admin keys may
//! register (no server paths, no internal addresses), and credentials never stored or shown.

use std::io::Read;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::*;
use crate::tools::{World, world, world_with_env};

fn admin_key(w: &World) -> String {
    quarry_ok(&w._tmp.path().join("store"), &["keys", "create", "--admin"])
        .trim()
        .to_string()
}

async fn register(w: &World, key: &str, url: &str) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{}/api/admin/sources", w.server.url))
        .bearer_auth(key)
        .json(&json!({"url": url, "name": "probe"}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn source_count(w: &World, key: &str) -> usize {
    let r = reqwest::Client::new()
        .get(format!("{}/api/admin/sources", w.server.url))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    r.json::<Value>().await.unwrap().as_array().unwrap().len()
}

/// A loopback listener counting the connections it receives.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    std::thread::spawn(move || {
        for stream in l.incoming() {
            counted.fetch_add(1, Ordering::SeqCst);
            if let Ok(mut s) = stream {
                let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
                let _ = s.read(&mut [0; 1024]);
            }
        }
    });
    (port, hits)
}

#[tokio::test]
async fn admin_keys_cannot_register_any_form_of_a_server_path() {
    let w = world();
    let root = admin_key(&w);
    let tmp = w._tmp.path();
    // A directory whose name has the scp-like shape, and a symlink to a repository.
    let odd = tmp.join("u@h:p");
    std::fs::create_dir_all(&odd).unwrap();
    let repo = fixture_repo("polyglot", &tmp.join("linked"));
    let link = tmp.join("link");
    std::os::unix::fs::symlink(&repo, &link).unwrap();
    let marker = tmp.join("pwned");
    let before = source_count(&w, &root).await;
    let probes = [
        // The probe that read /etc/passwd: '@' and ':' after a '/'.
        "/usr/share/locale/en@quot/../../../../sys/dev/char/1:3/../../../../etc".to_string(),
        "/usr/share/../../etc".to_string(),
        "/etc".to_string(),
        "../secret".to_string(),
        "etc".to_string(),
        "%2Fetc".to_string(),
        "file:///etc".to_string(),
        "FILE://localhost/etc".to_string(),
        "file://user:pw@localhost/etc".to_string(),
        odd.display().to_string(),
        link.display().to_string(),
        repo.display().to_string(),
        format!("file://{}", repo.display()),
        format!("ext::sh -c touch% {}", marker.display()),
        "fd::0".to_string(),
        "ftp://example.com/r.git".to_string(),
        "ssh://-oProxyCommand=touch%20/tmp/x/r".to_string(),
        "-oProxyCommand=x:y".to_string(),
    ];
    for url in &probes {
        let (st, e) = register(&w, &root, url).await;
        assert!(st == 403 || st == 400, "{url}: {st} {e} (must be refused)");
        assert!(e["error"]["message"].is_string(), "{url}: {e}");
    }
    let (st, e) = register(&w, &root, &probes[0]).await;
    assert_eq!((st, e["error"]["code"].as_str()), (403, Some("FORBIDDEN")));
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--admin-local-sources"),
        "{e}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(source_count(&w, &root).await, before);
    assert!(!marker.exists());
}

#[tokio::test]
async fn admin_urls_are_checked_against_the_addresses_they_resolve_to() {
    let (port, hits) = listener();
    let w = world();
    let root = admin_key(&w);
    for url in [
        format!("http://127.0.0.1:{port}/anything.git"),
        format!("http://localhost:{port}/anything.git"),
        format!("https://localhost:{port}/anything.git"),
        format!("http://2130706433:{port}/anything.git"),
        format!("http://0x7f.1:{port}/anything.git"),
        format!("http://[::ffff:127.0.0.1]:{port}/anything.git"),
        format!("git://127.0.0.1:{port}/anything.git"),
        format!("ssh://git@127.0.0.1:{port}/anything.git"),
        format!("git@[127.0.0.1:{port}]:anything.git"),
        "http://169.254.169.254/latest/meta-data".to_string(),
        "http://10.0.0.1/r.git".to_string(),
    ] {
        let (st, e) = register(&w, &root, &url).await;
        assert_eq!(
            (st, e["error"]["code"].as_str()),
            (403, Some("FORBIDDEN")),
            "{url}: {e}"
        );
        assert!(
            e["error"]["message"].as_str().unwrap().contains("internal"),
            "{url}: {e}"
        );
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(hits.load(Ordering::SeqCst), 0, "the server connected");

    // The operator can name hosts; the same request then goes out (and nothing else does).
    let w = world_with_env(&[("QUARRY_ADMIN_ALLOWED_HOSTS", "localhost")]);
    let root = admin_key(&w);
    let (st, e) = register(&w, &root, "https://github.com/o/r.git").await;
    assert_eq!(st, 403, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("localhost"),
        "{e}"
    );
    let (st, e) = register(&w, &root, &format!("http://localhost:{port}/anything.git")).await;
    assert_eq!(st, 202, "{e}");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while hits.load(Ordering::SeqCst) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the allowed host was not fetched"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn credentials_in_urls_are_never_stored_or_shown() {
    let w = world();
    let store = w._tmp.path().join("store");
    let root = admin_key(&w);
    // Registering a URL with credentials is refused, without echoing them.
    let (st, e) = register(&w, &root, "https://user:S3CRET@github.com/o/r.git").await;
    assert_eq!(st, 400, "{e}");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("credential") && !message.contains("S3CRET"),
        "{e}"
    );
    let (st, _) = register(&w, &root, "https://S3CRET@github.com/o/r.git").await;
    assert_eq!(st, 400);

    // The operator's CLI may clone with them; they are not kept.
    let repo = fixture_repo("polyglot", &w._tmp.path().join("cred"));
    let url = format!("file://user:S3CRET@localhost{}", repo.display());
    quarry_ok(&store, &["index", &url, "--name", "cred"]);
    let public = quarry_ok(&store, &["keys", "create", "--public-chat"])
        .trim()
        .to_string();
    for key in [&public, &w.key, &root] {
        let listed = w
            .server
            .get("/api/datasources/all", Some(key))
            .await
            .text()
            .await
            .unwrap();
        assert!(listed.contains("\"cred\""), "{listed}");
        assert!(!listed.contains("S3CRET"), "{listed}");
        let (_, tool) = w
            .server
            .tool("get_data_sources", json!({"output_format": "json"}), key)
            .await;
        assert!(!tool.to_string().contains("S3CRET"), "{tool}");
    }
    assert!(!quarry_ok(&store, &["sources", "--json"]).contains("S3CRET"));
    let mut stack = vec![store.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !bytes.windows(6).any(|x| x == b"S3CRET"),
                    "stored in {}",
                    p.display()
                );
            }
        }
    }
    // Server paths of local sources are shown to admins only.
    let shown = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "polyglot")
            .unwrap()["url"]
            .clone()
    };
    let plain: Value = w
        .server
        .get("/api/datasources/all", Some(&w.key))
        .await
        .json()
        .await
        .unwrap();
    assert!(shown(&plain).is_null(), "{plain}");
    let admin: Value = w
        .server
        .get("/api/datasources/all", Some(&root))
        .await
        .json()
        .await
        .unwrap();
    assert!(shown(&admin).as_str().unwrap().starts_with('/'), "{admin}");
}

/// Paths the published `files` table holds more than once.
fn duplicated_paths(store: &std::path::Path, source: &str) -> Vec<String> {
    let out = quarry_ok(
        store,
        &[
            "sql",
            "--source",
            source,
            "--json",
            "SELECT path FROM files GROUP BY path HAVING COUNT(*) > 1",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The polyglot fixture as a git repository under `dir`, indexed as `p`: (store, repository,
/// its path).
fn indexed_polyglot(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let store = dir.join("store");
    let repo = fixture_repo("polyglot", dir);
    let path = repo.to_str().unwrap().to_string();
    quarry_ok(&store, &["index", &path, "--name", "p"]);
    (store, repo, path)
}

/// Write `files` (path, content) into `repo` and commit them.
fn commit_files(repo: &std::path::Path, files: &[(&str, &str)]) {
    for (rel, content) in files {
        std::fs::write(repo.join(rel), content).unwrap();
    }
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "edit"]);
}

#[test]
fn concurrent_index_runs_of_one_source_are_serialised() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, repo, path) = indexed_polyglot(tmp.path());
    let (mut completed, mut refused) = (0, 0);
    for round in 0..40 {
        // An edit per round: a changed file and a new one.
        let (changed, added) = (
            format!("int clamp(int v) {{ return v + {round}; }}\n"),
            format!("int round_{round}(void) {{ return {round}; }}\n"),
        );
        let new_path = format!("c/round{round}.c");
        commit_files(&repo, &[("c/util.c", &changed), (&new_path, &added)]);
        let runs: Vec<_> = (0..2 + round % 2)
            .map(|i| {
                let mut cmd = std::process::Command::new(QUARRY);
                cmd.env("QUARRY_STORE", &store)
                    .args(["index", &path, "--name", "p"]);
                // Half wait for the run in progress; the others exit at once, saying why.
                if i % 2 == 1 {
                    cmd.args(["--wait", "120"]);
                }
                cmd.stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in runs {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.success() {
                completed += 1;
            } else {
                assert!(
                    stderr.contains("another index run of 'p' is in progress")
                        && stderr.contains("since"),
                    "round {round}: a run failed without saying why: {stderr}"
                );
                refused += 1;
            }
        }
        let dups = duplicated_paths(&store, "p");
        assert!(
            dups.is_empty(),
            "round {round}: duplicate rows for {dups:?}"
        );
        let n = sql(
            &store,
            "SELECT COUNT(*) AS n FROM files WHERE path LIKE 'c/round%'",
        );
        assert_eq!(n[0]["n"], round + 1, "round {round}");
    }
    assert!(completed >= 40, "{completed} completed, {refused} refused");
}

/// A crashed run's lease is free at once (its process is gone from this machine); a hung
/// holder's is taken over after its time to live, and not before.
#[test]
fn a_dead_or_hung_holders_lease_is_taken_over() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, repo, path) = indexed_polyglot(tmp.path());
    commit_files(&repo, &[("c/late.c", "int late(void) { return 1; }\n")]);
    // Killed while holding the lease (the failpoint aborts after writing files).
    let out = quarry_env(
        &store,
        &[("QUARRY_FAILPOINT", "files_written")],
        &["index", &path, "--name", "p"],
    );
    assert!(!out.status.success());
    quarry_ok(&store, &["index", &path, "--name", "p"]);
    let n = sql(
        &store,
        "SELECT COUNT(*) AS n FROM files WHERE path = 'c/late.c'",
    );
    assert_eq!(n[0]["n"], 1);

    // A holder that hangs without renewing.
    commit_files(&repo, &[("c/later.c", "int later(void) { return 2; }\n")]);
    let mut hung = std::process::Command::new(QUARRY)
        .env("QUARRY_STORE", &store)
        .env("QUARRY_FAILPOINT", "stalled_holder")
        .env("QUARRY_LEASE_SECONDS", "3")
        .args(["index", &path, "--name", "p", "--wait", "30"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let held = std::time::Instant::now();
    let err = loop {
        let out = quarry(&store, &["index", &path, "--name", "p"]);
        if !out.status.success() {
            break String::from_utf8_lossy(&out.stderr).to_string();
        }
        assert!(
            held.elapsed() < Duration::from_secs(20),
            "the hung run never took the lease"
        );
    };
    assert!(err.contains("in progress") && err.contains("pid"), "{err}");
    std::thread::sleep(Duration::from_millis(3500));
    quarry_ok(&store, &["index", &path, "--name", "p"]);
    let n = sql(
        &store,
        "SELECT COUNT(*) AS n FROM files WHERE path = 'c/later.c'",
    );
    assert_eq!(n[0]["n"], 1);
    let _ = hung.kill();
    let _ = hung.wait();
    assert!(duplicated_paths(&store, "p").is_empty());
}

/// Requests during back-to-back re-indexes read the snapshot they started with: clean-up
/// keeps replaced snapshots for the retention window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_never_meet_files_that_clean_up_removed() {
    let w = world();
    let store = w._tmp.path().join("store");
    let repo = w._tmp.path().join("polyglot");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let calls = [
        (
            "get_artifact_relationships",
            json!({"identifier": "fixtures/polyglot::c/util.c::clamp"}),
        ),
        (
            "read_file",
            json!({"path": "c/util.c", "data_source": "polyglot"}),
        ),
        (
            "grep_search",
            json!({"query": "clamp", "data_sources": ["polyglot"]}),
        ),
        (
            "semantic_search",
            json!({"question": "clamp a value", "data_sources": ["polyglot"]}),
        ),
        ("get_file_tree", json!({"data_source": "polyglot"})),
    ];
    let readers: Vec<_> = (0..2)
        .map(|r| {
            let (url, key, stop, calls) = (
                w.server.url.clone(),
                w.key.clone(),
                stop.clone(),
                calls.clone(),
            );
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                let (mut n, mut failures) = (0usize, Vec::new());
                while !stop.load(Ordering::SeqCst) {
                    let (tool, mut args) = calls[(n + r) % calls.len()].clone();
                    args["output_format"] = "json".into();
                    let resp = client
                        .post(format!("{url}/api/tools/{tool}"))
                        .bearer_auth(&key)
                        .json(&args)
                        .send()
                        .await
                        .unwrap();
                    let status = resp.status();
                    let v: Value = resp.json().await.unwrap_or(Value::Null);
                    if status != 200 || v["obj"].get("error").is_some() {
                        failures.push(format!("{tool}: {status} {v}"));
                    }
                    n += 1;
                }
                (n, failures)
            })
        })
        .collect();
    for round in 0..30 {
        std::fs::write(
            repo.join("c/util.c"),
            format!(
                "int clamp(int v, int lo, int hi) {{ return v < lo ? lo : v > hi ? hi : v + {round}; }}\nint helper_{round}(void) {{ return clamp({round}, 0, 9); }}\n"
            ),
        )
        .unwrap();
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "-m", "edit"]);
        let (store, path) = (store.clone(), repo.to_str().unwrap().to_string());
        tokio::task::spawn_blocking(move || {
            quarry_ok(&store, &["index", &path, "--name", "polyglot"])
        })
        .await
        .unwrap();
    }
    stop.store(true, Ordering::SeqCst);
    let mut total = 0;
    for r in readers {
        let (n, failures) = r.await.unwrap();
        total += n;
        assert!(
            failures.is_empty(),
            "{} of {n} failed: {:?}",
            failures.len(),
            &failures[..failures.len().min(3)]
        );
    }
    assert!(total >= 60, "only {total} calls");
}

/// Smaller holes: each gets the error its protocol prescribes.
#[tokio::test]
async fn malformed_requests_get_their_protocols_errors() {
    let w = world();
    let mcp = |body: String| {
        reqwest::Client::new()
            .post(format!("{}/api/mcp", w.server.url))
            .bearer_auth(&w.key)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2025-11-25")
            .body(body)
            .send()
    };
    // tools/call with arguments that are not an object: invalid params.
    let r = mcp(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "grep_search", "arguments": ["clamp"]}})
    .to_string())
    .await
    .unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        (v["id"].as_i64(), v["error"]["code"].as_i64()),
        (Some(7), Some(-32602)),
        "{v}"
    );
    // A batch: a JSON-RPC error, not plain text.
    let r = mcp(json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]).to_string())
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    // A well-formed call still works through the same route.
    let r = mcp(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "grep_search", "arguments": {"query": "clamp", "data_sources": ["polyglot"]}}})
    .to_string())
    .await
    .unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["result"]["isError"], false, "{v}");

    // Ranges are refused, not clamped; oversized arguments are refused by name.
    let (_, v) = w
        .server
        .tool(
            "grep_search",
            json!({"query": "clamp", "context_lines": 11}),
            &w.key,
        )
        .await;
    assert_eq!(v["obj"]["error"]["code"], "invalid_argument", "{v}");
    let (_, v) = w
        .server
        .tool(
            "semantic_search",
            json!({"question": "word ".repeat(200_000)}),
            &w.key,
        )
        .await;
    assert_eq!(v["obj"]["error"]["code"], "invalid_argument");
    assert!(
        v["obj"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("question"),
        "{v}"
    );
}

#[test]
fn the_cli_refuses_bad_organisations_and_ends_quietly_on_a_closed_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    for org in ["../x", "a/b", ""] {
        let err = quarry_err(&store, &["--org", org, "sources"]);
        assert!(err.contains("invalid organisation"), "{org}: {err}");
    }
    // `quarry keys list | head -0`: the reader is gone before the output is written.
    for _ in 0..3 {
        quarry_ok(&store, &["keys", "create"]);
    }
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{QUARRY}' keys list | head -c 0; exit ${{PIPESTATUS:-0}}"
        ))
        .env("QUARRY_STORE", &store)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
}

/// The worst case each tool accepts (every argument at its bound, docs/tools.md), several at
/// once: the server stays responsive — `/api/health` answers promptly throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_answers_while_the_worst_requests_run() {
    let w = world();
    let words: String = (0..800).map(|i| format!("w{i}x ")).collect();
    let question: String = words.chars().take(4096).collect();
    let mut huge = String::new();
    for i in 0.. {
        if huge.len() > 960_000 {
            break;
        }
        huge.push_str(&format!("w{i}x "));
    }
    let statement = {
        let mut s = String::from("SELECT path FROM files WHERE ");
        let mut i = 0;
        while s.len() < 16_000 {
            s.push_str(&format!("path = 'p{i}' OR "));
            i += 1;
        }
        s.push_str("lines > 1 LIMIT 100");
        s
    };
    let long_id = format!("fixtures/polyglot::c/util.c::{}", "x".repeat(990));
    let worst = vec![
        (
            "semantic_search",
            json!({"question": question, "max_results": 100, "data_sources": ["polyglot"]}),
        ),
        (
            "chat",
            json!({"question": question, "data_sources": ["polyglot"]}),
        ),
        // Past the bound, 960 KB of distinct words: refused at once, not ranked for seconds.
        (
            "semantic_search",
            json!({"question": huge, "data_sources": ["polyglot"]}),
        ),
        (
            "chat",
            json!({"question": huge, "data_sources": ["polyglot"]}),
        ),
        (
            "grep_search",
            json!({"query": "(a|b|c|d|e|f|g)*[a-z]{1,50}\\w*(x|y)", "regex": true, "max_results": 500, "context_lines": 10, "data_sources": ["polyglot"]}),
        ),
        (
            "grep_search",
            json!({"query": "e".repeat(4096), "data_sources": ["polyglot"]}),
        ),
        ("query_artifact_metadata", json!({"statement": statement})),
        (
            "fetch_artifacts",
            json!({"identifiers": vec![long_id.clone(); 50]}),
        ),
        ("get_artifact_relationships", json!({"identifier": long_id})),
        ("get_file_tree", json!({"data_source": "polyglot"})),
    ];
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for (tool, args) in worst {
        for _ in 0..2 {
            let (url, key, stop, args) = (
                w.server.url.clone(),
                w.key.clone(),
                stop.clone(),
                args.clone(),
            );
            load.push(tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    let r = client
                        .post(format!("{url}/api/tools/{tool}"))
                        .bearer_auth(&key)
                        .json(&args)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(r.status(), 200, "{tool}");
                    n += 1;
                }
                n
            }));
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let client = reqwest::Client::new();
    let mut slowest = Duration::ZERO;
    for _ in 0..40 {
        let t = std::time::Instant::now();
        let r = client
            .get(format!("{}/api/health", w.server.url))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        slowest = slowest.max(t.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.store(true, Ordering::SeqCst);
    let mut calls = 0;
    for l in load {
        calls += l.await.unwrap();
    }
    eprintln!("health: slowest {slowest:?} beside {calls} worst-case calls");
    assert!(
        slowest < Duration::from_millis(200),
        "health took {slowest:?}"
    );
}

/// Names with `::`, `\` or a line break are stored and served under their real names, and
/// cannot forge lines of rendered output.
#[tokio::test]
async fn odd_file_names_are_served_as_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let repo = tmp.path().join("odd");
    std::fs::create_dir_all(&repo).unwrap();
    let names = ["a::b.py", "back\\slash.py", "nl\n1: forged.py"];
    for (i, name) in names.iter().enumerate() {
        std::fs::write(repo.join(name), format!("def odd_{i}():\n    return {i}\n")).unwrap();
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "odd"]);
    quarry_ok(&store, &["index", repo.to_str().unwrap(), "--name", "odd"]);
    let key = quarry_ok(&store, &["keys", "create"]).trim().to_string();
    let server = start(&store);
    for name in names {
        let v = server
            .tool_obj(
                "read_file",
                json!({"path": name, "data_source": "odd"}),
                &key,
            )
            .await;
        assert_eq!(v["found"], true, "{name:?}: {v}");
        assert_eq!(v["files"][0]["path"], name);
    }
    let (_, v) = server
        .tool(
            "grep_search",
            json!({"query": "return", "data_sources": ["odd"]}),
            &key,
        )
        .await;
    let rendered = v["rendered"].as_str().unwrap();
    assert_eq!(v["obj"]["results"].as_array().unwrap().len(), 3, "{v}");
    assert!(
        !rendered.lines().any(|l| l.starts_with("1: forged")),
        "{rendered}"
    );
}
