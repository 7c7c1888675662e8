//! `quarry serve`: a real server on an ephemeral port, real HTTP.

use crate::common::*;

#[tokio::test]
async fn keys_guard_every_endpoint_and_scope_what_is_visible() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    for name in ["alpha", "beta"] {
        let d = tmp.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("m.py"), "def f():\n    return 1\n").unwrap();
        quarry_ok(&store, &["index", d.to_str().unwrap()]);
    }
    let key = quarry_ok(&store, &["keys", "create"]).trim().to_string();
    let scoped = quarry_ok(&store, &["keys", "create", "--sources", "beta"])
        .trim()
        .to_string();
    assert!(key.starts_with("qry_") && key.len() > 30);
    // Only the hash is stored.
    let stored = std::fs::read_dir(store.join("catalog/keys")).unwrap();
    for f in stored {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        assert!(!text.contains(&key) && !text.contains(&scoped));
    }

    let server = start(&store);
    let health = server.get("/api/health", None).await;
    assert_eq!(health.status(), 200);

    let anon = server.get("/api/datasources/all", None).await;
    assert_eq!(anon.status(), 401);
    let body: serde_json::Value = anon.json().await.unwrap();
    assert_eq!(body["error"]["code"], "UNAUTHORIZED");
    let bad = server.get("/api/datasources/all", Some("qry_wrong")).await;
    assert_eq!(bad.status(), 401);

    let all: serde_json::Value = server
        .get("/api/datasources/ready", Some(&key))
        .await
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["alpha", "beta"]);
    assert_eq!(all[0]["readiness"], "Ready");
    assert_eq!(all[0]["type"], "Repository");
    assert!(all[0]["id"].as_str().unwrap().starts_with("repo_"));

    let only: serde_json::Value = server
        .get("/api/datasources/all?type=Repository", Some(&scoped))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(only.as_array().unwrap().len(), 1);
    assert_eq!(only[0]["name"], "beta");

    let bad_type = server
        .get("/api/datasources/all?type=Nope", Some(&key))
        .await;
    assert_eq!(bad_type.status(), 400);

    // Revoked keys stop working at once.
    let list = quarry_ok(&store, &["keys", "list"]);
    let scoped_id = list
        .lines()
        .find(|l| l.contains("scope: beta"))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    quarry_ok(&store, &["keys", "revoke", &scoped_id]);
    let revoked = server.get("/api/datasources/all", Some(&scoped)).await;
    assert_eq!(revoked.status(), 401);
}
