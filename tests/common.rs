//! Helpers: run the binary, copy fixtures, make git repositories.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Map, Value};

pub const QUARRY: &str = env!("CARGO_BIN_EXE_quarry");

/// The fixtures directory of this repository.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// Run `quarry` with a store; returns the output (not checked).
pub fn quarry(store: &Path, args: &[&str]) -> Output {
    quarry_env(store, &[], args)
}

/// Run `quarry` with a store (a directory or a URL such as `s3://bucket/prefix`) and extra
/// environment; returns the output (not checked).
pub fn quarry_env(store: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(QUARRY)
        .args(args)
        .env("QUARRY_STORE", store)
        .env_remove("QUARRY_FAILPOINT")
        .env_remove("QUARRY_ORG")
        .env_remove("QUARRY_EMBEDDINGS_URL")
        .env_remove("QUARRY_EMBEDDINGS_MODEL_DIR")
        .envs(env.iter().copied())
        .output()
        .expect("run quarry")
}

/// Run `quarry` and require success; returns stdout.
/// Environment under which clean-up keeps only the previous snapshot, whenever it was
/// replaced (no retention window), for tests that count what clean-up removes.
pub const NO_RETENTION: &[(&str, &str)] = &[("QUARRY_SNAPSHOT_RETENTION_SECONDS", "0")];

pub fn quarry_ok(store: &Path, args: &[&str]) -> String {
    quarry_ok_env(store, &[], args)
}

/// [`quarry_ok`] with extra environment.
pub fn quarry_ok_env(store: &Path, env: &[(&str, &str)], args: &[&str]) -> String {
    let out = quarry_env(store, env, args);
    assert!(
        out.status.success(),
        "quarry {args:?} failed:\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Run `quarry`, require failure; returns stderr.
pub fn quarry_err(store: &Path, args: &[&str]) -> String {
    let out = quarry(store, args);
    assert!(
        !out.status.success(),
        "quarry {args:?} should have failed; stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// `quarry sql --json` rows.
pub fn sql(store: &Path, statement: &str) -> Vec<Map<String, Value>> {
    sql_env(store, &[], statement)
}

/// [`sql`] with extra environment.
pub fn sql_env(store: &Path, env: &[(&str, &str)], statement: &str) -> Vec<Map<String, Value>> {
    let out = quarry_ok_env(store, env, &["sql", "--json", statement]);
    let v: Value = serde_json::from_str(&out).expect("sql json");
    v["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_object().expect("row object").clone())
        .collect()
}

/// Rows rendered as `a|b|c` lines (compact, for exact comparisons).
pub fn sql_lines(store: &Path, statement: &str) -> Vec<String> {
    sql(store, statement)
        .iter()
        .map(|row| {
            row.values()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    Value::Null => "NULL".into(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

/// Copy a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Run git in a directory, requiring success.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Quarry Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Quarry Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A fresh copy of a fixture committed to a new git repository on branch `main`.
pub fn fixture_repo(name: &str, into: &Path) -> PathBuf {
    let dir = into.join(name);
    copy_dir(&fixtures().join(name), &dir);
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "fixture"]);
    dir
}

pub struct Server {
    pub child: std::process::Child,
    pub url: String,
}

impl Server {
    /// POST a tool call; returns (status, body).
    pub async fn tool(&self, name: &str, body: serde_json::Value, key: &str) -> (u16, Value) {
        let resp = reqwest::Client::new()
            .post(format!("{}/api/tools/{name}", self.url))
            .bearer_auth(key)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap())
    }

    /// POST a tool call that must succeed; returns `obj`.
    pub async fn tool_obj(&self, name: &str, mut body: serde_json::Value, key: &str) -> Value {
        body["output_format"] = "json".into();
        let (status, v) = self.tool(name, body.clone(), key).await;
        assert_eq!(status, 200, "{name} {body}: {v}");
        assert!(v["obj"].get("error").is_none(), "{name} {body}: {v}");
        v["obj"].clone()
    }

    /// GET a path, with a bearer key when given.
    pub async fn get(&self, path: &str, key: Option<&str>) -> reqwest::Response {
        let mut req = reqwest::Client::new().get(format!("{}{path}", self.url));
        if let Some(k) = key {
            req = req.bearer_auth(k);
        }
        req.send().await.unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(store: &std::path::Path) -> Server {
    start_with_env(store, &[])
}

/// Start `quarry serve` with extra environment variables.
pub fn start_with_env(store: &std::path::Path, env: &[(&str, &str)]) -> Server {
    let mut child = std::process::Command::new(QUARRY)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("QUARRY_STORE", store)
        .env_remove("QUARRY_LLM_URL")
        .env_remove("QUARRY_EMBEDDINGS_URL")
        .env_remove("QUARRY_EMBEDDINGS_MODEL_DIR")
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Server { child, url }
}
