//! Every other access path over real HTTP: REST routes, MCP with the official Python SDK (both
//! protocol revisions), chat completions with the official OpenAI client, the Dify-style
//! retrieval connector, and chat through an OpenAI-compatible endpoint (a stand-in LLM).

use serde_json::{Value, json};

use crate::common::*;
use crate::tools::{venv_bin, world, world_with_env};

pub fn python() -> Option<std::path::PathBuf> {
    let p = venv_bin("python");
    if p.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the test venv is missing; scripts/setup.sh creates it (QUARRY_SETUP_TESTS=1)"
        );
        eprintln!("skipping: test venv not installed (QUARRY_SETUP_TESTS=1 bash scripts/setup.sh)");
    }
    p
}

fn client_script(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/clients")
        .join(name)
}

/// The stand-in for an OpenAI-compatible LLM (tests/clients/stand_in_llm.py), named as such:
/// an LLM cannot run here.
pub struct StandInLlm {
    child: std::process::Child,
    /// Base URL (`…/v1`).
    pub url: String,
}

impl StandInLlm {
    /// Start it; requests are logged to `dir/requests.jsonl`, each answered after `delay` s.
    pub fn start(py: &std::path::Path, dir: &std::path::Path, delay: f64) -> StandInLlm {
        let port_file = dir.join("port");
        let child = std::process::Command::new(py)
            .arg(client_script("stand_in_llm.py"))
            .arg(&port_file)
            .arg(dir.join("requests.jsonl"))
            .arg(delay.to_string())
            .spawn()
            .unwrap();
        let mut port = String::new();
        for _ in 0..200 {
            port = std::fs::read_to_string(&port_file).unwrap_or_default();
            if !port.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(!port.is_empty(), "the stand-in LLM did not start");
        StandInLlm {
            child,
            url: format!("http://127.0.0.1:{port}/v1"),
        }
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for StandInLlm {
    fn drop(&mut self) {
        self.stop();
    }
}

fn run_client(py: &std::path::Path, script: &str, args: &[&str]) -> Value {
    let out = std::process::Command::new(py)
        .arg(client_script(script))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{script}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

async fn get(s: &Server, path: &str, key: &str) -> (u16, Value) {
    let r = s.get(path, Some(key)).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn post(s: &Server, path: &str, key: Option<&str>, body: &str) -> (u16, Value) {
    let mut req = reqwest::Client::new()
        .post(format!("{}{path}", s.url))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn rest_routes() {
    let w = world();
    let (s, k) = (&w.server, w.key.as_str());
    // grep with repeated array parameters; results from both repositories when none is named.
    let (st, g) = get(s, "/api/search/grep?Query=util&Extensions=c", k).await;
    assert_eq!(st, 200, "{g}");
    let names: Vec<&str> = g["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["dataSource"]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"polyglot") && names.contains(&"other"),
        "{names:?}"
    );
    assert_eq!(g["pathFilter"]["extensions"], json!(["c"]));
    let (_, g) = get(
        s,
        "/api/search/grep?Query=clamp%5C(&Regex=true&Names=polyglot&Paths=c&MaxResults=1",
        k,
    )
    .await;
    assert_eq!(g["results"].as_array().unwrap().len(), 1);
    assert_eq!(g["results"][0]["matchCount"], 2);
    let (st, e) = get(s, "/api/search/grep?Query=x&Regex=maybe", k).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (400, Some("INVALID_PARAMETER"))
    );
    let (st, _) = get(s, "/api/search/grep?Names=polyglot", k).await;
    assert_eq!(st, 400, "Query is required");
    let (st, e) = get(s, "/api/search/grep?Query=x&Names=nope", k).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (404, Some("DATA_SOURCE_NOT_FOUND"))
    );
    // semantic + legacy search.
    let (_, sem) = get(s, "/api/search/semantic?Query=Where%20is%20the%20area%20of%20a%20circle%20computed%3F&Names=polyglot", k).await;
    assert!(
        sem["results"]
            .as_array()
            .unwrap()
            .iter()
            .take(3)
            .any(|r| r["identifier"] == "fixtures/polyglot::python/shapes.py::Circle.area"),
        "{sem}"
    );
    let (_, legacy) = get(
        s,
        "/api/search?Query=sum%20points&Mode=Deep&IncludeContent=true&Names=polyglot",
        k,
    )
    .await;
    let first = &legacy["results"][0];
    assert_eq!(
        first["identifier"],
        "fixtures/polyglot::c/util.c::sum_points"
    );
    assert!(
        first["content"]
            .as_str()
            .unwrap()
            .starts_with("int sum_points(")
    );
    assert!(first["contentByteSize"].as_u64().unwrap() > 0);
    let (st, _) = get(s, "/api/search?Query=x&Mode=Turbo", k).await;
    assert_eq!(st, 400);
    let (st, quick) = post(
        s,
        "/api/search",
        Some(k),
        &json!({"query": "sum points", "datasource_ids": [w.polyglot_id]}).to_string(),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(
        quick["results"][0]["identifier"],
        "fixtures/polyglot::c/util.c::sum_points"
    );
    // artifacts: ≤ 20, 404 when nothing is found, 400 on malformed JSON.
    let (st, a) = post(
        s,
        "/api/search/artifacts",
        Some(k),
        r#"{"identifiers":["fixtures/polyglot::c/util.c::sum_points"]}"#,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(a["artifacts"][0]["relationships"]["outgoingCallsCount"], 1);
    let many: Vec<String> = (0..21).map(|i| format!("o/r::f{i}")).collect();
    let (st, _) = post(
        s,
        "/api/search/artifacts",
        Some(k),
        &json!({"identifiers": many}).to_string(),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = post(
        s,
        "/api/search/artifacts",
        Some(k),
        r#"{"identifiers":["o/r::nothing"]}"#,
    )
    .await;
    assert_eq!(st, 404);
    let (st, e) = post(s, "/api/search/artifacts", Some(k), r#"{"identifiers":"#).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (400, Some("INVALID_REQUEST"))
    );
    let (st, e) = post(s, "/api/search/artifacts", None, "{}").await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (401, Some("UNAUTHORIZED"))
    );
    // ontology: names and ids mix; workspaces expand.
    let (st, o) = get(
        s,
        &format!(
            "/api/datasources/ontology?Names=other&Ids={}",
            w.polyglot_id
        ),
        k,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(o["repository_count"], 2);
    let (_, o) = get(s, "/api/datasources/ontology?Names=ws", k).await;
    assert_eq!(o["repository_count"], 2);
    assert!(
        o["ontologies"][0]["content"]
            .as_str()
            .unwrap()
            .contains("## Languages")
    );
    // Relevance on the REST list: header with the total; reasons on the matches.
    let r = s
        .get("/api/datasources/ready?query=twelve%20languages", Some(k))
        .await;
    assert_eq!(r.headers()["X-Service-Total-Data-Sources"], "3");
    let list: Value = r.json().await.unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["name"], "polyglot");
    assert!(list[0]["relevanceReason"].as_str().is_some());
}

#[tokio::test]
async fn mcp_with_the_official_python_sdk() {
    let Some(py) = python() else { return };
    let w = world();
    let url = format!("{}/api/mcp", w.server.url);
    for mode in ["legacy", "2026-07-28"] {
        let out = run_client(&py, "mcp_client.py", &[&url, &w.scoped, mode]);
        let tools: Vec<&str> = out["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(tools.len(), 11, "{mode}: {tools:?}");
        for t in out["tools"].as_array().unwrap() {
            assert_eq!(t["hasOutputSchema"], true, "{mode}: {t}");
        }
        let read = out["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "read_file")
            .unwrap();
        assert_eq!(
            read["properties"],
            json!([
                "data_source",
                "end_line",
                "output_format",
                "path",
                "start_line"
            ])
        );
        for (name, call) in out["calls"].as_object().unwrap() {
            // Every structuredContent, success or repairable error, conforms to outputSchema.
            assert_eq!(call["schemaProblem"], Value::Null, "{mode} {name}: {call}");
            if let Some(code) = match name.as_str() {
                "unknown_argument" => Some("unknown_argument"),
                "bad_statement" => Some("unknown_field"),
                _ => None,
            } {
                assert_eq!(call["isError"], true, "{mode}");
                assert_eq!(call["structured"]["error"]["code"], code, "{mode} {call}");
                assert!(call["text"].as_str().unwrap().starts_with("<tool_error>"));
                continue;
            }
            assert_eq!(call["isError"], false, "{mode} {name}: {call}");
            assert!(call["structured"].is_object(), "{mode} {name}");
        }
        assert!(
            out["calls"]["grep_search"]["text"]
                .as_str()
                .unwrap()
                .starts_with("<grep_search_results count=\"2\"")
        );
        assert_eq!(
            out["calls"]["read_file"]["structured"]["files"][0]["numberedContent"]
                .as_str()
                .unwrap()
                .lines()
                .count(),
            2
        );
        assert_eq!(
            out["calls"]["query_artifact_metadata"]["structured"]["rows"][0]["n"],
            15
        );
        // output_format picks the text; structuredContent is there either way.
        let as_json: Value =
            serde_json::from_str(out["calls"]["grep_json"]["text"].as_str().unwrap()).unwrap();
        assert_eq!(as_json, out["calls"]["grep_json"]["structured"]);
        let agentic = &out["calls"]["grep_agentic"];
        assert!(
            agentic["text"]
                .as_str()
                .unwrap()
                .starts_with("<grep_search_results")
        );
        assert_eq!(agentic["structured"], as_json);
    }
    // The bearer key is checked before MCP sees the request.
    let (st, e) = post(
        &w.server,
        "/api/mcp",
        None,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    )
    .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (401, Some("UNAUTHORIZED"))
    );
}

#[tokio::test]
async fn chat_completions_with_the_official_openai_client() {
    let Some(py) = python() else { return };
    let w = world();
    let out = run_client(
        &py,
        "openai_client.py",
        &[&format!("{}/api", w.server.url), &w.key],
    );
    let answer = out["answer"].as_str().unwrap();
    assert!(answer.starts_with("Extractive answer"), "{answer}");
    assert!(answer.contains("[fixtures/polyglot::c/util.c::sum_points]"));
    assert_eq!(out["conversation_id"], "conv-1");
    assert_eq!(out["finish_reason"], "stop");
    assert_eq!(
        out["streamed"], out["answer"],
        "the stream carries the same answer"
    );
    assert_eq!(out["stream_finish"], "stop");
    let (st, e) = post(
        &w.server,
        "/api/chat/completions",
        Some(&w.key),
        r#"{"messages":[{"role":"system","content":"x"}]}"#,
    )
    .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (400, Some("INVALID_PARAMETER"))
    );
}

#[tokio::test]
async fn chat_through_an_openai_compatible_llm() {
    let Some(py) = python() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("requests.jsonl");
    let mut llm = StandInLlm::start(&py, tmp.path(), 0.0);
    let url = llm.url.clone();
    let w = world_with_env(&[
        ("QUARRY_LLM_URL", &url),
        ("QUARRY_LLM_MODEL", "test-model"),
        ("QUARRY_LLM_API_KEY", "sk-test"),
    ]);
    let chat = w
        .server
        .tool_obj(
            "chat",
            json!({"question": "How are points summed in the C code?"}),
            &w.scoped,
        )
        .await;
    llm.stop();
    assert_eq!(chat["mode"], "llm");
    assert_eq!(
        chat["answer"],
        "STAND-IN LLM: the answer is in [fixtures/polyglot::c/util.c::sum_points]."
    );
    let sent: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(sent["path"], "/v1/chat/completions");
    assert_eq!(sent["auth"], "Bearer sk-test");
    assert_eq!(sent["body"]["model"], "test-model");
    let prompt = sent["body"]["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("int sum_points(struct point *pts, int n)"),
        "the evidence carries the code"
    );
}

#[tokio::test]
async fn dify_retrieval_connector() {
    let w = world();
    let s = &w.server;
    let path = "/api/knowledge-retrieval/dify/retrieval";
    let body = |extra: Value| {
        let mut b = json!({"knowledge_id": w.polyglot_id, "query": "How are points summed?", "retrieval_setting": {"top_k": 3, "score_threshold": 0.0}});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b.to_string()
    };
    let (st, r) = post(s, path, Some(&w.key), &body(json!({}))).await;
    assert_eq!(st, 200, "{r}");
    let records = r["records"].as_array().unwrap();
    assert!(!records.is_empty() && records.len() <= 3);
    assert_eq!(
        records[0]["title"],
        "fixtures/polyglot::c/util.c::sum_points"
    );
    assert_eq!(records[0]["score"], 1.0);
    assert!(
        records[0]["content"]
            .as_str()
            .unwrap()
            .contains("total += clamp")
    );
    assert!(records.iter().all(|r| r["metadata"].is_object()));
    // A C++ `.h` header's language is the one stored with it, not the path's (C).
    let (st, r) = post(
        s,
        path,
        Some(&w.key),
        &json!({"knowledge_id": "other", "query": "What is the volume of a box?", "retrieval_setting": {"top_k": 5, "score_threshold": 0.0}}).to_string(),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let languages: Vec<(&str, &str)> = r["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["metadata"]["path"].as_str().unwrap(),
                r["metadata"]["language"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(languages.contains(&("geo.h", "cpp")), "{r}");
    assert!(
        languages
            .iter()
            .all(|(p, l)| !p.ends_with(".c") || *l == "c"),
        "{r}"
    );
    let cond = json!({"metadata_condition": {"logical_operator": "and", "conditions": [{"name": ["file_extension"], "comparison_operator": "is", "value": "py"}]}});
    let (_, r) = post(s, path, Some(&w.key), &body(cond)).await;
    assert!(
        r["records"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["metadata"]["file_extension"] == "py"),
        "{r}"
    );
    let (_, r) = post(
        s,
        path,
        Some(&w.key),
        &body(json!({"retrieval_setting": {"top_k": 3, "score_threshold": 0.99}})),
    )
    .await;
    assert!(
        r["records"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["score"].as_f64().unwrap() >= 0.99)
    );
    let (_, r) = post(
        s,
        path,
        Some(&w.key),
        &body(json!({"query": "zzqqxx nothing"})),
    )
    .await;
    assert_eq!(r, json!({"records": []}));
    // Errors in Dify's shape with the connector's codes (docs/api.md, "Retrieval connector").
    let (st, e) = post(s, path, None, &body(json!({}))).await;
    assert_eq!((st, e["error_code"].as_u64()), (401, Some(1004)));
    let (st, e) = post(
        s,
        path,
        Some(&w.key),
        &body(json!({"knowledge_id": "repo_nope"})),
    )
    .await;
    assert_eq!((st, e["error_code"].as_u64()), (404, Some(1003)));
    let (st, e) = post(s, path, Some(&w.acme), &body(json!({}))).await;
    assert_eq!(
        e["error_code"].as_u64(),
        Some(1003),
        "another organisation's source does not exist for acme ({st})"
    );
    let (st, e) = post(
        s,
        path,
        Some(&w.scoped),
        &body(json!({"knowledge_id": "other"})),
    )
    .await;
    assert_eq!((st, e["error_code"].as_u64()), (403, Some(1002)));
    let (st, e) = post(s, path, Some(&w.key), "{").await;
    assert_eq!((st, e["error_code"].as_u64()), (400, Some(1001)));
    let (st, e) = post(
        s,
        path,
        Some(&w.key),
        &body(json!({"retrieval_setting": {"top_k": 0}})),
    )
    .await;
    assert_eq!((st, e["error_code"].as_u64()), (400, Some(1001)));
    let bad_op = json!({"metadata_condition": {"conditions": [{"name": ["path"], "comparison_operator": "like", "value": "x"}]}});
    let (st, e) = post(s, path, Some(&w.key), &body(bad_op)).await;
    assert_eq!((st, e["error_code"].as_u64()), (400, Some(1001)));
}
