//! Dense vectors for `semantic_search`, from a local model folder
//! (`QUARRY_EMBEDDINGS_MODEL_DIR`, a static model: [`quarry_analysis::static_model`]) or an
//! OpenAI-compatible embeddings endpoint (`POST {QUARRY_EMBEDDINGS_URL}/embeddings`).
//! Optional: with no provider configured, search is the lexical index alone
//! ([`crate::search`]), with no network and no model.
//!
//! At index time every unit of a repository's search index (definitions and files) is
//! embedded from a short text — its path, kind, qualified name, signature and summary — and
//! the vectors are stored beside the index, one object per `symbols` version and model. At
//! query time the question is embedded once and scored against them by cosine similarity
//! (exhaustively: 8-bit vectors, one dot product per unit); the server fuses that ranking
//! with the lexical one by reciprocal rank.
//!
//! The object's bytes are in docs/formats.md ("Dense vectors").

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use quarry_storage::Store;
use serde_json::{Value, json};

use crate::derived::CorruptIndex;
use crate::search::{self, SearchIndex};

const MAGIC: &[u8; 8] = b"QVECTOR1";
/// Characters of a unit's text sent for embedding.
const MAX_TEXT: usize = 2000;

/// Where embeddings come from.
#[derive(Clone)]
pub struct Provider {
    /// Names the vectors it makes (only vectors of the same model are compared): the
    /// endpoint's model, or `local:<folder>@<fingerprint>` for a model folder.
    pub model: String,
    /// Texts per request (per progress step for a local model).
    pub batch: usize,
    source: Source,
}

#[derive(Clone)]
enum Source {
    /// Base URL (`…/v1`); requests go to `{url}/embeddings`.
    Endpoint {
        url: String,
        key: Option<String>,
    },
    Folder(Arc<quarry_analysis::static_model::StaticModel>),
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Source::Endpoint { url, .. } => write!(f, "{} at {url}", self.model),
            Source::Folder(_) => f.write_str(&self.model),
        }
    }
}

impl Provider {
    /// The configured provider:
    /// - `QUARRY_EMBEDDINGS_MODEL_DIR`: a local model folder (Model2Vec layout; see
    ///   [`quarry_analysis::static_model`]). Takes precedence over an endpoint. A folder that cannot be
    ///   loaded is warned about (once per process) and search stays lexical.
    /// - `QUARRY_EMBEDDINGS_URL` (base URL of an OpenAI-compatible API),
    ///   `QUARRY_EMBEDDINGS_MODEL` (default `text-embedding-3-small`),
    ///   `QUARRY_EMBEDDINGS_API_KEY` (optional) and `QUARRY_EMBEDDINGS_BATCH` (default 64).
    pub fn from_env() -> Option<Provider> {
        let var = |k: &str| {
            std::env::var(k)
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        if let Some(dir) = var("QUARRY_EMBEDDINGS_MODEL_DIR") {
            return match quarry_analysis::static_model::cached(std::path::Path::new(&dir)) {
                Ok(m) => Some(Provider {
                    model: m.name.clone(),
                    batch: 1024,
                    source: Source::Folder(m),
                }),
                Err(e) => {
                    static WARNED: std::sync::Once = std::sync::Once::new();
                    WARNED.call_once(|| {
                        tracing::warn!(
                            "QUARRY_EMBEDDINGS_MODEL_DIR={dir}: {e}; semantic search is lexical"
                        )
                    });
                    None
                }
            };
        }
        let url = var("QUARRY_EMBEDDINGS_URL")?;
        Some(Provider {
            model: var("QUARRY_EMBEDDINGS_MODEL")
                .unwrap_or_else(|| "text-embedding-3-small".into()),
            batch: var("QUARRY_EMBEDDINGS_BATCH")
                .and_then(|b| b.parse().ok())
                .filter(|&b| b > 0)
                .unwrap_or(64),
            source: Source::Endpoint {
                url: url.trim_end_matches('/').to_string(),
                key: var("QUARRY_EMBEDDINGS_API_KEY"),
            },
        })
    }

    /// Embed `texts`, in order.
    pub async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        match &self.source {
            Source::Folder(m) => {
                use rayon::prelude::*;
                Ok(tokio::task::block_in_place(|| {
                    texts.par_iter().map(|t| m.embed(t)).collect()
                }))
            }
            Source::Endpoint { url, key } => self.request(url, key.as_deref(), texts).await,
        }
    }

    async fn request(
        &self,
        url: &str,
        key: Option<&str>,
        texts: &[String],
    ) -> Result<Vec<Vec<f32>>, String> {
        static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
        let client = CLIENT.get_or_init(|| {
            reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap_or_default()
        });
        let mut req = client
            .post(format!("{url}/embeddings"))
            .json(&json!({"model": self.model, "input": texts}));
        if let Some(k) = key {
            req = req.bearer_auth(k);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("embeddings endpoint {url}: {e}"))?;
        let status = resp.status();
        let body: Value = resp
            .json()
            .await
            .map_err(|e| format!("embeddings endpoint answered {status} without JSON: {e}"))?;
        if !status.is_success() {
            return Err(format!("embeddings endpoint answered {status}: {body}"));
        }
        let data = body["data"]
            .as_array()
            .ok_or_else(|| format!("no `data` array in the embeddings answer: {body}"))?;
        if data.len() != texts.len() {
            return Err(format!(
                "asked for {} embeddings, got {}",
                texts.len(),
                data.len()
            ));
        }
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for (i, d) in data.iter().enumerate() {
            let at = d["index"].as_u64().map_or(i, |x| x as usize);
            let v: Vec<f32> = d["embedding"]
                .as_array()
                .ok_or_else(|| format!("embedding {i} is not an array"))?
                .iter()
                .map(|x| x.as_f64().map(|f| f as f32))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("embedding {i} holds a non-number"))?;
            *out.get_mut(at)
                .ok_or_else(|| format!("embedding index {at} out of range"))? = Some(v);
        }
        out.into_iter()
            .enumerate()
            .map(|(i, v)| v.ok_or_else(|| format!("embedding {i} missing")))
            .collect()
    }
}

/// The text a unit is embedded from.
fn unit_text(record: &serde_json::Map<String, Value>) -> String {
    let s = |k: &str| record.get(k).and_then(Value::as_str).unwrap_or("");
    let mut t = match record.get("kind").and_then(Value::as_str) {
        Some(kind) => format!(
            "{}: {kind} {}\n{}\n{}",
            s("path"),
            s("qualified_name"),
            s("signature"),
            s("summary")
        ),
        None => format!("file {} ({})", s("path"), s("language")),
    };
    if t.len() > MAX_TEXT {
        let mut cut = MAX_TEXT;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
    }
    t
}

/// Unit-length vectors quantised to 8 bits.
pub struct Vectors {
    pub model: String,
    dims: usize,
    scales: Vec<f32>,
    values: Vec<i8>,
}

fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

impl Vectors {
    fn new(model: &str, dims: usize) -> Vectors {
        Vectors {
            model: model.to_string(),
            dims,
            scales: Vec::new(),
            values: Vec::new(),
        }
    }

    fn push(&mut self, mut v: Vec<f32>) -> Result<(), String> {
        if v.len() != self.dims || v.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "an embedding has {} dimensions (or a non-finite value), the others {}",
                v.len(),
                self.dims
            ));
        }
        normalise(&mut v);
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        self.scales.push(scale);
        self.values.extend(
            v.iter()
                .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8),
        );
        Ok(())
    }

    /// Vectors held.
    pub fn len(&self) -> usize {
        self.scales.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scales.is_empty()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(20 + self.model.len() + self.len() * (4 + self.dims));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.dims as u32).to_le_bytes());
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.model.len() as u32).to_le_bytes());
        out.extend_from_slice(self.model.as_bytes());
        for s in &self.scales {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out.extend(self.values.iter().map(|&v| v as u8));
        out
    }

    /// Read serialised vectors, checking their structure (never panics on bad bytes).
    pub fn from_bytes(b: &[u8]) -> Result<Vectors, CorruptIndex> {
        let bad = |w: &str| CorruptIndex(format!("vectors: {w}"));
        let u32_at = |at: usize| -> Result<usize, CorruptIndex> {
            b.get(at..at + 4)
                .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as usize)
                .ok_or_else(|| bad("truncated"))
        };
        if b.get(..8) != Some(MAGIC.as_slice()) {
            return Err(bad("bad magic"));
        }
        let (dims, n, mlen) = (u32_at(8)?, u32_at(12)?, u32_at(16)?);
        let model = b
            .get(20..20 + mlen)
            .and_then(|m| std::str::from_utf8(m).ok())
            .ok_or_else(|| bad("bad model name"))?
            .to_string();
        let at = 20 + mlen;
        let need = n
            .checked_mul(4 + dims)
            .and_then(|x| x.checked_add(at))
            .ok_or_else(|| bad("sizes overflow"))?;
        if b.len() != need || dims == 0 {
            return Err(bad("length does not match the header"));
        }
        let scales = b[at..at + 4 * n]
            .chunks_exact(4)
            .map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect();
        let values = b[at + 4 * n..].iter().map(|&x| x as i8).collect();
        Ok(Vectors {
            model,
            dims,
            scales,
            values,
        })
    }

    /// Dimensions of each vector.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Cosine similarity of the unit-length `query` with vector `i`.
    fn score(&self, query: &[f32], i: usize) -> f32 {
        let v = &self.values[i * self.dims..(i + 1) * self.dims];
        let dot: f32 = v.iter().zip(query).map(|(&a, &b)| f32::from(a) * b).sum();
        dot * self.scales[i]
    }
}

/// The `k` units most similar to `query` over `indexes` (each with its vectors and filter),
/// best first: (position in `indexes`, unit, cosine similarity).
pub fn top(
    indexes: &[(&SearchIndex, &Vectors, Option<search::Admits<'_>>)],
    query: &[f32],
    k: usize,
) -> Vec<(usize, u32, f32)> {
    let mut q = query.to_vec();
    normalise(&mut q);
    let mut all: Vec<(usize, u32, f32)> = Vec::new();
    for (x, (ix, vectors, admits)) in indexes.iter().enumerate() {
        if vectors.dims != q.len() || vectors.len() != ix.units() {
            continue;
        }
        let mut admitted: HashMap<&str, bool> = HashMap::new();
        for u in 0..vectors.len() {
            if let Some(admits) = admits {
                let p = ix.path(u as u32);
                if !*admitted.entry(p).or_insert_with(|| admits(p)) {
                    continue;
                }
            }
            all.push((x, u as u32, vectors.score(&q, u)));
        }
    }
    let order = |a: &(usize, u32, f32), b: &(usize, u32, f32)| {
        b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1))
    };
    if all.len() > k && k > 0 {
        all.select_nth_unstable_by(k - 1, order);
        all.truncate(k);
    }
    all.sort_by(order);
    all
}

/// Where the vectors of a repository's `symbols` at `version` are stored.
pub fn vectors_path(source_id: &str, version: u64) -> String {
    format!("sources/{source_id}/search/symbols-{version:010}.vectors")
}

/// Embed every unit of the search index of `symbols` at `version` and store the vectors;
/// `progress` is told each batch's size.
pub async fn build(
    store: &Store,
    source_id: &str,
    version: u64,
    provider: &Provider,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<usize, String> {
    let ix = search::load(store, source_id, version)
        .await
        .ok_or("the search index is missing")?;
    let n = ix.units();
    let mut vectors: Option<Vectors> = None;
    let batch = provider.batch.max(1);
    for start in (0..n).step_by(batch) {
        let units: Vec<u32> = (start as u32..(start + batch).min(n) as u32).collect();
        let records = search::read_units(store, source_id, version, &ix, &units).await?;
        let texts: Vec<String> = records.iter().map(unit_text).collect();
        let embedded = provider.embed(&texts).await?;
        for v in embedded {
            let vs = vectors.get_or_insert_with(|| Vectors::new(&provider.model, v.len()));
            vs.push(v)?;
        }
        progress(units.len());
    }
    let vectors = vectors.unwrap_or_else(|| Vectors::new(&provider.model, 1));
    store
        .put(&vectors_path(source_id, version), vectors.to_bytes())
        .await
        .map_err(|e| e.to_string())?;
    Ok(n)
}

/// Whether vectors of `symbols` at `version` by `model` exist (reads their header only).
pub async fn exists(store: &Store, source_id: &str, version: u64, model: &str) -> bool {
    let path = vectors_path(source_id, version);
    let Some(head) = crate::derived::head(store, &path, 20).await else {
        return false;
    };
    if head.len() < 20 || &head[..8] != MAGIC {
        return false;
    }
    let len = u32::from_le_bytes([head[16], head[17], head[18], head[19]]) as u64;
    crate::derived::head(store, &path, 20 + len)
        .await
        .is_some_and(|h| h.get(20..) == Some(model.as_bytes()))
}

static LOADED: crate::derived::Cache<Vectors> = crate::derived::Cache::new();

/// The vectors of a repository's `symbols` at `version`, loaded once per process; `None` if
/// there are none or they cannot be read.
pub async fn load(store: &Store, source_id: &str, version: u64) -> Option<Arc<Vectors>> {
    let path = vectors_path(source_id, version);
    let what = ("vectors", "search is lexical");
    LOADED
        .load(store, (source_id, version), &path, what, |b| {
            Vectors::from_bytes(&b)
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_and_rank_by_cosine() {
        let mut v = Vectors::new("m", 3);
        v.push(vec![1.0, 0.0, 0.0]).unwrap();
        v.push(vec![0.0, 2.0, 0.0]).unwrap();
        v.push(vec![1.0, 1.0, 0.0]).unwrap();
        assert!(v.push(vec![1.0, 0.0]).is_err());
        let back = Vectors::from_bytes(&v.to_bytes()).unwrap();
        assert_eq!((back.model.as_str(), back.dims(), back.len()), ("m", 3, 3));
        let q = [0.0, 1.0, 0.0];
        assert!((back.score(&q, 1) - 1.0).abs() < 0.01);
        assert!(back.score(&q, 0).abs() < 0.01);
        assert!((back.score(&q, 2) - std::f32::consts::FRAC_1_SQRT_2).abs() < 0.01);
        let bytes = v.to_bytes();
        for cut in [0, 8, 19, bytes.len() - 1] {
            assert!(Vectors::from_bytes(&bytes[..cut]).is_err());
        }
    }

    #[test]
    fn unit_texts_name_what_a_unit_is() {
        let rec = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(
            unit_text(&rec(
                json!({"path": "a.rs", "kind": "function", "qualified_name": "m.f",
                "signature": "fn f()", "summary": "Does f."})
            )),
            "a.rs: function m.f\nfn f()\nDoes f."
        );
        assert_eq!(
            unit_text(&rec(json!({"path": "a.rs", "language": "rust"}))),
            "file a.rs (rust)"
        );
    }
}
