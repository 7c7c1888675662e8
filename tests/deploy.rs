//! Deployment (issue 7): the store on a real S3-compatible server (moto, on loopback), and
//! several `quarry serve` replicas over one store.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::*;
use crate::tools::{World, calls, venv_bin, world, world_at};

/// A moto S3 server on a free loopback port, stopped on drop.
pub struct Moto {
    child: std::process::Child,
    pub endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Moto {
    /// Start moto (installed by scripts/setup.sh); `None` outside CI when it is missing.
    pub fn start() -> Option<Moto> {
        let Some(bin) = venv_bin("moto_server") else {
            assert!(
                std::env::var_os("CI").is_none(),
                "moto_server is not installed; scripts/setup.sh installs it (QUARRY_SETUP_TESTS=1)"
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(bin)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let moto = Moto {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "moto did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(moto)
    }

    /// Create a bucket (moto accepts the unsigned S3 CreateBucket request).
    pub async fn bucket(&self, name: &str) {
        let r = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "create bucket: {}", r.status());
    }

    /// Standard AWS configuration for this server, as a deployment would set it.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_ACCESS_KEY_ID", "testing".into()),
            ("AWS_SECRET_ACCESS_KEY", "testing".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ALLOW_HTTP", "true".into()),
        ]
    }
}

fn borrowed<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// A tool result with what differs between two stores of the same data (random ids, the
/// temporary directories the fixtures were copied to) replaced by stable names.
async fn normalised(w: &World, name: &str, args: Value) -> String {
    let sources = w
        .server
        .tool_obj("get_data_sources", json!({}), &w.key)
        .await;
    let mut text = w.server.tool_obj(name, args, &w.scoped).await.to_string();
    for s in sources["data_sources"].as_array().unwrap() {
        let (id, n) = (s["id"].as_str().unwrap(), s["name"].as_str().unwrap());
        text = text.replace(id, &format!("<{n}>"));
    }
    let tmp = w._tmp.path();
    text = text.replace(tmp.to_str().unwrap(), "<tmp>");
    text.replace(tmp.file_name().unwrap().to_str().unwrap(), "<tmp>")
}

#[tokio::test]
async fn the_store_on_s3_serves_what_the_local_store_serves() {
    let Some(moto) = Moto::start() else { return };
    moto.bucket("quarry").await;
    let env = moto.env();
    let env = borrowed(&env);
    let store = Path::new("s3://quarry/deployments/one");
    let s3 = world_at(tempfile::tempdir().unwrap(), store, &env, &[]);
    let local = world();
    for (name, args) in calls() {
        assert_eq!(
            normalised(&s3, name, args.clone()).await,
            normalised(&local, name, args).await,
            "{name} differs between the S3 and the local store"
        );
    }
    // The tables really are in the bucket: Lance manifests and the catalog under the prefix.
    let listing = reqwest::get(format!(
        "{}/quarry?list-type=2&prefix=deployments/one/",
        moto.endpoint
    ))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert!(
        listing.contains("deployments/one/catalog/sources/"),
        "{listing}"
    );
    assert!(listing.contains("files.lance/_versions/"), "{listing}");
}

#[tokio::test]
async fn two_replicas_on_one_s3_store_see_a_reindex_without_restart() {
    let Some(moto) = Moto::start() else { return };
    moto.bucket("quarry").await;
    let env = moto.env();
    let mut env = borrowed(&env);
    // Clean-up below removes what the previous snapshot does not pin, at once.
    env.extend_from_slice(NO_RETENTION);
    let store = Path::new("s3://quarry/replicated");
    let w = world_at(tempfile::tempdir().unwrap(), store, &env, &[]);
    let second = start_with_env(store, &env);
    let grep = json!({"query": "fresh_function_after_reindex", "data_sources": ["other"]});
    for s in [&w.server, &second] {
        let g = s.tool_obj("grep_search", grep.clone(), &w.key).await;
        assert_eq!(g["results"].as_array().unwrap().len(), 0);
    }
    let other = w._tmp.path().join("other");
    std::fs::write(
        other.join("fresh.c"),
        "int fresh_function_after_reindex(void) { return 3; }\n",
    )
    .unwrap();
    quarry_ok_env(
        store,
        &env,
        &["index", other.to_str().unwrap(), "--name", "other"],
    );
    for s in [&w.server, &second] {
        let g = s.tool_obj("grep_search", grep.clone(), &w.key).await;
        assert_eq!(g["results"][0]["location"]["path"], "fresh.c", "{g}");
        let q = s
            .tool_obj(
                "query_artifact_metadata",
                json!({"statement": "SELECT name FROM functions WHERE name = 'fresh_function_after_reindex' LIMIT 5",
                       "data_sources": ["other"]}),
                &w.key,
            )
            .await;
        assert_eq!(q["returnedRows"], 1, "{q}");
    }
    // A second re-index removes the first index's table versions from the bucket (the
    // previous snapshot's stay); both replicas answer from the new one.
    std::fs::write(
        other.join("fresh2.c"),
        "int second_function_after_reindex(void) { return 4; }\n",
    )
    .unwrap();
    let run = quarry_env(
        store,
        &env,
        &["index", other.to_str().unwrap(), "--name", "other"],
    );
    let (out, log) = (
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr),
    );
    assert!(run.status.success(), "{log}");
    assert!(out.contains("removed older table versions: "), "{out}");
    assert!(!log.contains("were not removed"), "{log}");
    let grep2 = json!({"query": "second_function_after_reindex", "data_sources": ["other"]});
    for s in [&w.server, &second] {
        let g = s.tool_obj("grep_search", grep2.clone(), &w.key).await;
        assert_eq!(g["results"][0]["location"]["path"], "fresh2.c", "{g}");
    }
}

/// A TCP proxy in front of the S3 server that can pass traffic, delay every connection, or
/// refuse service (accept, then drop) — a failing or throttling object store, for real, on
/// the wire.
struct FaultyProxy {
    mode: std::sync::Arc<std::sync::atomic::AtomicU8>,
    endpoint: String,
}

const PASS: u8 = 0;
const SLOW: u8 = 1;
const FAIL: u8 = 2;

impl FaultyProxy {
    async fn start(upstream: &str) -> FaultyProxy {
        use std::sync::atomic::Ordering;
        let upstream = upstream.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let mode = std::sync::Arc::new(std::sync::atomic::AtomicU8::new(PASS));
        let m = mode.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    return;
                };
                let (m, upstream) = (m.clone(), upstream.clone());
                tokio::spawn(async move {
                    match m.load(Ordering::SeqCst) {
                        FAIL => return, // dropped: connection reset
                        SLOW => tokio::time::sleep(Duration::from_millis(150)).await,
                        _ => {}
                    }
                    if let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        FaultyProxy { mode, endpoint }
    }

    fn set(&self, mode: u8) {
        self.mode.store(mode, std::sync::atomic::Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_or_slow_object_store_gives_clear_errors_and_keeps_the_last_version() {
    let Some(moto) = Moto::start() else { return };
    moto.bucket("quarry").await;
    let proxy = FaultyProxy::start(&moto.endpoint).await;
    let mut env = moto.env();
    env[0].1 = proxy.endpoint.clone(); // every S3 request goes through the proxy
    let env = borrowed(&env);
    let store = Path::new("s3://quarry/faulty");
    let w = world_at(tempfile::tempdir().unwrap(), store, &env, &[]);
    let grep = json!({"query": "other_util", "data_sources": ["other"]});
    let before = w.server.tool_obj("grep_search", grep.clone(), &w.key).await;
    assert_eq!(before["results"].as_array().unwrap().len(), 1);

    // Slow: every connection delayed; answers are unchanged.
    proxy.set(SLOW);
    assert_eq!(
        w.server.tool_obj("grep_search", grep.clone(), &w.key).await,
        before
    );

    // Failing: requests fail fast with a clear error, never a wrong answer.
    proxy.set(FAIL);
    let started = Instant::now();
    let r = w.server.get("/api/datasources/all", Some(&w.key)).await;
    // The key cannot be checked without the store: a server error, not "invalid key".
    assert_eq!(r.status(), 500);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "INTERNAL_ERROR", "{body}");
    assert!(started.elapsed() < Duration::from_secs(60));
    // An index run against the failing store stops with an error naming the store.
    let other = w._tmp.path().join("other");
    std::fs::write(
        other.join("late.c"),
        "int late_function(void) { return 4; }\n",
    )
    .unwrap();
    let out = quarry_env(
        store,
        &env,
        &["index", other.to_str().unwrap(), "--name", "other"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("object store") || err.contains("S3"), "{err}");

    // Recovered: the last committed version is intact, and a re-run completes.
    proxy.set(PASS);
    assert_eq!(
        w.server.tool_obj("grep_search", grep.clone(), &w.key).await,
        before
    );
    let late = json!({"query": "late_function", "data_sources": ["other"]});
    let g = w.server.tool_obj("grep_search", late.clone(), &w.key).await;
    assert_eq!(g["results"].as_array().unwrap().len(), 0);
    quarry_ok_env(
        store,
        &env,
        &["index", other.to_str().unwrap(), "--name", "other"],
    );
    let g = w.server.tool_obj("grep_search", late, &w.key).await;
    assert_eq!(g["results"][0]["location"]["path"], "late.c", "{g}");
}
