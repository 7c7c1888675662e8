//! grep_search against ripgrep: on a generated corpus (Unicode, long lines, CRLF, no final
//! newline, empty lines) plus the polyglot fixture, every query's matches — files, lines,
//! columns, counts — equal `rg --json`'s. And the trigram index never drops a true match.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use crate::common::*;

/// (path, line) → (match count on the line, [(start char, end char)]), and per-file totals.
type Matches = BTreeMap<(String, u64), Vec<(u64, u64)>>;

fn corpus(dir: &Path) {
    copy_dir(&fixtures().join("polyglot"), dir);
    let generated = dir.join("gen");
    std::fs::create_dir_all(&generated).unwrap();
    std::fs::write(
        generated.join("unicode.txt"),
        "naïve café — ünïcödé\nλx. x → y\n日本語のテキスト foo\n😀 emoji foo 😀 foo\n",
    )
    .unwrap();
    std::fs::write(
        generated.join("crlf.txt"),
        "alpha beta\r\nbeta gamma\r\nend\r\n",
    )
    .unwrap();
    std::fs::write(generated.join("no_newline.txt"), "first foo\nlast foo line").unwrap();
    std::fs::write(generated.join("empty_lines.txt"), "\n\nfoo\n\n\nbar\n").unwrap();
    // One ~9 KB line (under the minified-file heuristic: > 20 KB with > 1000 bytes per line).
    let long: String = (0..1000).map(|i| format!("tok{i} ")).collect();
    std::fs::write(
        generated.join("long_line.txt"),
        format!("{long}needle_in_long_line {long}\nshort needle_in_long_line\n"),
    )
    .unwrap();
    std::fs::write(generated.join("empty.txt"), "").unwrap();
    // Case folding beyond ASCII: (?i)k matches the Kelvin sign, (?i)s the long s.
    std::fs::write(
        generated.join("folding.txt"),
        "\u{212A}elvin scale\nKELVIN\nclaſs Foo\n",
    )
    .unwrap();
    // Many files that share words, so candidate pruning has work to do.
    for i in 0..60 {
        let body: String = (0..40)
            .map(|j| format!("fn item_{i}_{j}(x: u32) -> u32 {{ x * {j} + {i} }} // common_word\n"))
            .collect();
        std::fs::write(generated.join(format!("mod_{i}.rs")), body).unwrap();
    }
}

/// The generated corpus, indexed into a fresh store; returns (temp dir, corpus, store, key).
fn indexed_corpus() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    String,
) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    corpus(&dir);
    let store = tmp.path().join("store");
    quarry_ok(
        &store,
        &["index", dir.to_str().unwrap(), "--name", "corpus"],
    );
    let key = quarry_ok(&store, &["keys", "create"]).trim().to_string();
    (tmp, dir, store, key)
}

/// ripgrep over exactly the files Quarry indexed (it skips vendored, generated, minified and
/// binary files by design; docs/operations.md).
fn rg(dir: &Path, files: &[String], query: &str, regex: bool) -> Matches {
    let mut cmd = std::process::Command::new("rg");
    cmd.args(["--json", "--no-config"]);
    if !regex {
        cmd.arg("-F");
    }
    let out = cmd
        .arg("-e")
        .arg(query)
        .arg("--")
        .args(files)
        .current_dir(dir)
        .output()
        .expect("run rg (install ripgrep)");
    let mut m = Matches::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] != "match" {
            continue;
        }
        let d = &v["data"];
        let path = d["path"]["text"]
            .as_str()
            .unwrap()
            .trim_start_matches("./")
            .to_string();
        let text = d["lines"]["text"].as_str().unwrap();
        // Characters starting before the byte offset (an empty match may fall mid-character).
        let chars = |b: u64| {
            text.char_indices()
                .take_while(|(i, _)| (*i as u64) < b)
                .count() as u64
        };
        let spans = d["submatches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    chars(s["start"].as_u64().unwrap()),
                    chars(s["end"].as_u64().unwrap()),
                )
            })
            .collect();
        m.insert((path, d["line_number"].as_u64().unwrap()), spans);
    }
    m
}

/// Quarry's matches; the lines listed (≤ 20 per file) and each file's total match count.
async fn quarry(
    s: &Server,
    key: &str,
    query: &str,
    regex: bool,
) -> (Matches, BTreeMap<String, u64>) {
    let obj = s
        .tool_obj(
            "grep_search",
            json!({"query": query, "regex": regex, "max_results": 500}),
            key,
        )
        .await;
    let mut m = Matches::new();
    let mut counts = BTreeMap::new();
    for r in obj["results"].as_array().unwrap() {
        let path = r["location"]["path"].as_str().unwrap().to_string();
        if r["matchCount"] == 0 {
            continue; // matched by name only
        }
        counts.insert(path.clone(), r["matchCount"].as_u64().unwrap());
        for mm in r["matches"].as_array().unwrap() {
            // startColumn/endColumn give the first match; the remark counts the others, so
            // compare all spans through the line's own text.
            m.insert(
                (path.clone(), mm["lineNumber"].as_u64().unwrap()),
                vec![(
                    mm["startColumn"].as_u64().unwrap(),
                    mm["endColumn"].as_u64().unwrap(),
                )],
            );
        }
    }
    (m, counts)
}

#[tokio::test]
async fn grep_equals_ripgrep() {
    let (_tmp, dir, store, key) = indexed_corpus();
    let files: Vec<String> = sql(&store, "SELECT path FROM files ORDER BY path")
        .into_iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    assert!(
        files.contains(&"gen/long_line.txt".to_string())
            && files.contains(&"gen/crlf.txt".to_string())
    );
    let s = start(&store);
    let queries: &[(&str, bool)] = &[
        ("foo", false),
        ("clamp(", false),
        ("needle_in_long_line", false),
        ("café", false),
        ("😀", false),
        ("beta", false),
        ("common_word", false),
        ("item_7_3(", false),
        ("x * 3", false),
        (".", false),
        (r"fn\s+item_1\d_", true),
        (r"^fn", true),
        (r"gamma$", true),
        (r"beta\r$", true),
        (r"\bfoo\b", true),
        (r"(?i)CAFÉ", true),
        (r"(?i)COMMON_word", true),
        (r"(?i)Item_7_3\(", true),
        (r"(?i)kelvin", true),
        (r"(?i)class foo", true),
        (r"[α-ω]+", true),
        (r"item_(12|34)_5\b", true),
        (r"^$", true),
        (r"\d{3}", true),
        (r"foo|bar", true),
        (r"x?", true),
        (r"$", true),
        (r"line$", true),
    ];
    for (q, regex) in queries {
        let want = rg(&dir, &files, q, *regex);
        let (got, counts) = quarry(&s, &key, q, *regex).await;
        // Same files.
        let want_files: std::collections::BTreeSet<&String> = want.keys().map(|(p, _)| p).collect();
        let got_files: std::collections::BTreeSet<&String> = counts.keys().collect();
        assert_eq!(got_files, want_files, "files for {q:?} (regex {regex})");
        for path in want_files {
            let lines: Vec<(&(String, u64), &Vec<(u64, u64)>)> =
                want.iter().filter(|((p, _), _)| p == path).collect();
            let total: u64 = lines.iter().map(|(_, s)| s.len() as u64).sum();
            assert_eq!(counts[path], total, "match count in {path} for {q:?}");
            // The listed lines are ripgrep's first 20, with the first match's columns.
            for ((p, n), spans) in lines.into_iter().take(20) {
                let ours = got
                    .get(&(p.clone(), *n))
                    .unwrap_or_else(|| panic!("{q:?}: line {p}:{n} missing"));
                if let Some(first) = spans.first() {
                    assert_eq!(&ours[0], first, "{q:?}: columns at {p}:{n}");
                }
            }
            let ours_in_file = got.keys().filter(|(p, _)| p == path).count();
            assert_eq!(
                ours_in_file,
                want.keys().filter(|(p, _)| p == path).count().min(20),
                "{q:?}: lines listed in {path}"
            );
        }
    }
}

#[tokio::test]
async fn trigram_index_never_drops_a_true_match() {
    let (_tmp, dir, store, key) = indexed_corpus();
    let s = start(&store);
    // Substrings drawn at pseudo-random offsets of every file must find that file.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in ignore::Walk::new(&dir).flatten() {
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let rel = entry
                .path()
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .to_string();
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                files.push((rel, text));
            }
        }
    }
    let indexed: Vec<Value> = sql(&store, "SELECT path FROM files")
        .into_iter()
        .map(|r| r["path"].clone())
        .collect();
    let mut checked = 0;
    for (path, text) in &files {
        if !indexed.contains(&Value::String(path.clone())) || text.is_empty() {
            continue;
        }
        for _ in 0..4 {
            let chars: Vec<char> = text.chars().collect();
            let len = 3 + (next() % 10) as usize;
            if chars.len() < len {
                continue;
            }
            let at = (next() as usize) % (chars.len() - len + 1);
            let needle: String = chars[at..at + len].iter().collect();
            if needle.contains('\n') {
                continue;
            }
            let obj = s
                .tool_obj(
                    "grep_search",
                    json!({"query": needle, "max_results": 500}),
                    &key,
                )
                .await;
            let found = obj["results"].as_array().unwrap().iter().any(|r| {
                r["location"]["path"] == path.as_str() && r["matchCount"].as_u64().unwrap() > 0
            });
            assert!(found, "{needle:?} from {path} was not found");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} probes");
}

/// The trigram index is an optimisation only: with it removed (a store written before it, or
/// a failed build) every answer — files, lines, name matches, filters, truncation — is the
/// same, read from the tables instead.
#[tokio::test]
async fn grep_without_trigram_indexes_answers_the_same() {
    let (_tmp, dir, store, key) = indexed_corpus();
    let sources = store.join("sources");
    let index_dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&sources)
        .unwrap()
        .map(|e| e.unwrap().path().join("trigrams"))
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(index_dirs.len(), 1, "one repository, one index directory");
    let objects = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    };
    let built = objects(&index_dirs[0]);
    assert!(
        built.len() == 2 && built[0].ends_with(".grams") && built[1].ends_with(".texts"),
        "{built:?}"
    );
    let requests = [
        json!({"query": "foo"}),
        json!({"query": "common_word", "max_results": 7}),
        json!({"query": "shapes.py"}),
        json!({"query": "item_3_", "paths": ["gen"], "extensions": ["rs"]}),
        json!({"query": "area", "exclude_markdown": true, "context_lines": 1}),
        json!({"query": r"fn\s+item_1\d_", "regex": true}),
        json!({"query": r"(?i)CAFÉ", "regex": true}),
        json!({"query": r"(?i)COMMON_word", "regex": true, "max_results": 500}),
        json!({"query": r"(?i)ITEM_1[0-9]_3\(", "regex": true}),
        json!({"query": r"\d{3}", "regex": true, "max_results": 3}),
        json!({"query": "no such text anywhere"}),
    ];
    let answers = |s: Server| {
        let key = key.clone();
        let requests = requests.clone();
        async move {
            let mut out = Vec::new();
            for r in requests {
                out.push(s.tool_obj("grep_search", r, &key).await);
            }
            out
        }
    };
    let with_index = answers(start(&store)).await;
    assert!(
        with_index[2]["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["matchedByName"] == true),
        "{:?}",
        with_index[2]
    );
    assert_eq!(with_index[1]["truncated"], true);
    for d in &index_dirs {
        std::fs::remove_dir_all(d).unwrap();
    }
    let same_as_with_index = |other: &[Value]| {
        for (i, (a, b)) in with_index.iter().zip(other).enumerate() {
            assert_eq!(a, b, "request {i}: {}", requests[i]);
        }
    };
    let grams = index_dirs[0].join(&built[0]);
    // `quarry index` (nothing changed) rebuilds the index, current format, same objects.
    let reindex_rebuilds = || {
        quarry_ok(
            &store,
            &["index", dir.to_str().unwrap(), "--name", "corpus"],
        );
        assert_eq!(objects(&index_dirs[0]), built);
        assert!(std::fs::read(&grams).unwrap().starts_with(b"QTRIGRM3"));
    };
    same_as_with_index(&answers(start(&store)).await);
    // The next `quarry index` run builds the missing index, even with nothing changed.
    reindex_rebuilds();
    // An index in an older format (an older Quarry's, without position masks) is not used —
    // the tables answer the same — and the next run rebuilds it in place.
    std::fs::write(&grams, b"QTRIGRM2\x01\x00\x00\x00older").unwrap();
    same_as_with_index(&answers(start(&store)).await);
    reindex_rebuilds();
    assert_eq!(answers(start(&store)).await, with_index);
}
