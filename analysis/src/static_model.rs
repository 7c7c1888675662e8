//! Embeddings from a local model folder, with no network and no runtime: a static embedding
//! model in the Model2Vec layout (the format of `minishlab/potion-*` and of models made with
//! `model2vec.distill`), which a user downloads once and points Quarry at with
//! `QUARRY_EMBEDDINGS_MODEL_DIR`.
//!
//! The folder holds:
//! - `model.safetensors`: an `embeddings` tensor (vocabulary × dimensions; F32, F16, BF16 or
//!   I8), and optionally `weights` (one per token, multiplying its row) and `mapping` (token
//!   id → row, for models whose vocabulary was quantised);
//! - `tokenizer.json`: a Hugging Face tokenizer with a WordPiece model (the BERT family's:
//!   models distilled from BERT, MiniLM or bge vocabularies), a BERT or lowercase normalizer
//!   and a BERT or whitespace pre-tokenizer — anything else (Unigram, BPE, WordLevel) is
//!   refused by name, not guessed at. Not verified against a downloaded potion model here
//!   (none can be fetched on the development machine);
//! - `config.json` (optional): `normalize` (default true).
//!
//! A text is embedded the way Model2Vec does it: tokenised without special tokens, unknown
//! tokens dropped, at most 512 tokens, the rows of its tokens averaged (weighted, if the model
//! has weights) and scaled to unit length.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Tokens of a text that count (Model2Vec's default `max_length`).
const MAX_TOKENS: usize = 512;

/// A loaded static embedding model.
pub struct StaticModel {
    /// `local:<folder name>@<fingerprint>`: names the vectors it makes (they are only compared
    /// with vectors of the same model).
    pub name: String,
    tokenizer: WordPiece,
    dims: usize,
    rows: Vec<f32>,
    weights: Option<Vec<f32>>,
    mapping: Option<Vec<u32>>,
    normalize: bool,
}

/// Why a model folder could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ModelError> {
    Err(ModelError(msg.into()))
}

impl StaticModel {
    /// Load the model in `dir`.
    pub fn load(dir: &Path) -> Result<StaticModel, ModelError> {
        let read = |name: &str| -> Result<Vec<u8>, ModelError> {
            let p = dir.join(name);
            std::fs::read(&p).map_err(|e| {
                ModelError(format!(
                    "{}: {e} (a model folder holds model.safetensors and tokenizer.json)",
                    p.display()
                ))
            })
        };
        let tokenizer_bytes = read("tokenizer.json")?;
        let tokenizer_json: Value = serde_json::from_slice(&tokenizer_bytes)
            .map_err(|e| ModelError(format!("tokenizer.json: {e}")))?;
        let tokenizer = WordPiece::from_json(&tokenizer_json)?;
        let normalize = match std::fs::read(dir.join("config.json")) {
            Ok(b) => serde_json::from_slice::<Value>(&b)
                .map_err(|e| ModelError(format!("config.json: {e}")))?
                .get("normalize")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            Err(_) => true,
        };
        let weights_bytes = read("model.safetensors")?;
        let tensors = SafeTensors::parse(&weights_bytes)?;
        let (shape, rows) = tensors
            .floats("embeddings")
            .or_else(|_| tensors.floats("0"))?;
        let [vocab, dims] = shape[..] else {
            return err(format!(
                "model.safetensors: `embeddings` has shape {shape:?}, not [tokens, dimensions]"
            ));
        };
        if dims == 0 || vocab == 0 {
            return err("model.safetensors: `embeddings` is empty");
        }
        let weights = match tensors.floats("weights") {
            Ok((_, w)) => Some(w),
            Err(_) if !tensors.has("weights") => None,
            Err(e) => return Err(e),
        };
        let mapping = match tensors.ints("mapping") {
            Ok(m) => Some(m),
            Err(_) if !tensors.has("mapping") => None,
            Err(e) => return Err(e),
        };
        // Every token id must reach a row.
        let tokens = tokenizer.vocab_size();
        match &mapping {
            Some(m) if m.len() < tokens || m.iter().any(|&r| r as usize >= vocab) => {
                return err("model.safetensors: `mapping` does not map every token to a row");
            }
            None if vocab < tokens => {
                return err(format!(
                    "model.safetensors: {vocab} rows for a vocabulary of {tokens} tokens"
                ));
            }
            _ => {}
        }
        if let Some(w) = &weights
            && w.len() < tokens
        {
            return err("model.safetensors: fewer `weights` than tokens");
        }
        let fingerprint = {
            use sha2::{Digest, Sha256};
            let mut h = Sha256::new();
            h.update(&tokenizer_bytes);
            h.update(&weights_bytes);
            hex::encode(&h.finalize()[..6])
        };
        let folder = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".into());
        Ok(StaticModel {
            name: format!("local:{folder}@{fingerprint}"),
            tokenizer,
            dims,
            rows,
            weights,
            mapping,
            normalize,
        })
    }

    /// Dimensions of the vectors it makes.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The vector of `text`: the mean of its tokens' rows, unit length if the model says so.
    /// A text with no known token gets the zero vector.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0f32; self.dims];
        let mut total = 0f32;
        for id in self.tokenizer.ids(text).into_iter().take(MAX_TOKENS) {
            let id = id as usize;
            let row = self.mapping.as_ref().map_or(id, |m| m[id] as usize);
            let w = self.weights.as_ref().map_or(1.0, |w| w[id]);
            let r = &self.rows[row * self.dims..(row + 1) * self.dims];
            for (s, x) in sum.iter_mut().zip(r) {
                *s += w * x;
            }
            total += 1.0;
        }
        if total > 0.0 {
            sum.iter_mut().for_each(|s| *s /= total);
        }
        if self.normalize {
            let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                sum.iter_mut().for_each(|s| *s /= norm);
            }
        }
        sum
    }
}

/// Loaded models by folder, so a server loads each once (a potion model is 30–130 MB).
pub fn cached(dir: &Path) -> Result<std::sync::Arc<StaticModel>, ModelError> {
    use std::sync::{Arc, Mutex, OnceLock};
    type Loaded = Result<Arc<StaticModel>, ModelError>;
    static MODELS: OnceLock<Mutex<HashMap<PathBuf, Loaded>>> = OnceLock::new();
    let map = MODELS.get_or_init(Default::default);
    if let Some(m) = map.lock().unwrap_or_else(|p| p.into_inner()).get(dir) {
        return m.clone();
    }
    let loaded = StaticModel::load(dir).map(Arc::new);
    map.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(dir.to_path_buf(), loaded.clone());
    loaded
}

/// The tensors of a `.safetensors` file: an 8-byte little-endian header length, a JSON header
/// (`name → {dtype, shape, data_offsets}`), then the data.
struct SafeTensors<'a> {
    header: serde_json::Map<String, Value>,
    data: &'a [u8],
}

impl<'a> SafeTensors<'a> {
    fn parse(bytes: &'a [u8]) -> Result<SafeTensors<'a>, ModelError> {
        let bad = |w: &str| ModelError(format!("model.safetensors: {w}"));
        let len = bytes
            .get(..8)
            .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .ok_or_else(|| bad("shorter than its header"))?;
        let end = usize::try_from(len)
            .ok()
            .and_then(|l| l.checked_add(8))
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| bad("header length past the end"))?;
        let header: Value = serde_json::from_slice(&bytes[8..end])
            .map_err(|e| bad(&format!("header is not JSON: {e}")))?;
        let Value::Object(header) = header else {
            return Err(bad("header is not a JSON object"));
        };
        Ok(SafeTensors {
            header,
            data: &bytes[end..],
        })
    }

    fn has(&self, name: &str) -> bool {
        self.header.contains_key(name)
    }

    /// A tensor's dtype, shape and bytes, checked against each other.
    fn raw(&self, name: &str) -> Result<(&str, Vec<usize>, &'a [u8]), ModelError> {
        let bad = |w: String| ModelError(format!("model.safetensors: tensor `{name}` {w}"));
        let t = self
            .header
            .get(name)
            .ok_or_else(|| bad("is missing".into()))?;
        let dtype = t["dtype"]
            .as_str()
            .ok_or_else(|| bad("has no dtype".into()))?;
        let shape: Vec<usize> = t["shape"]
            .as_array()
            .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
            .ok_or_else(|| bad("has no shape".into()))?;
        let offsets: Vec<usize> = t["data_offsets"]
            .as_array()
            .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
            .filter(|o: &Vec<usize>| o.len() == 2 && o[0] <= o[1] && o[1] <= self.data.len())
            .ok_or_else(|| bad("has bad data offsets".into()))?;
        let width = match dtype {
            "F32" | "I32" | "U32" => 4,
            "F16" | "BF16" => 2,
            "I8" | "U8" => 1,
            "I64" | "U64" | "F64" => 8,
            other => {
                return Err(bad(format!(
                    "has dtype {other}, which Quarry does not read"
                )));
            }
        };
        let count = shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .ok_or_else(|| bad("has an overflowing shape".into()))?;
        let bytes = &self.data[offsets[0]..offsets[1]];
        if count.checked_mul(width) != Some(bytes.len()) {
            return Err(bad(format!(
                "holds {} bytes for shape {shape:?} of {dtype}",
                bytes.len()
            )));
        }
        Ok((dtype, shape, bytes))
    }

    fn floats(&self, name: &str) -> Result<(Vec<usize>, Vec<f32>), ModelError> {
        let (dtype, shape, b) = self.raw(name)?;
        let v = match dtype {
            "F32" => b
                .chunks_exact(4)
                .map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
                .collect(),
            "F16" => b
                .chunks_exact(2)
                .map(|x| half::f16::from_le_bytes([x[0], x[1]]).to_f32())
                .collect(),
            "BF16" => b
                .chunks_exact(2)
                .map(|x| half::bf16::from_le_bytes([x[0], x[1]]).to_f32())
                .collect(),
            "I8" => b.iter().map(|&x| f32::from(x as i8)).collect(),
            "F64" => b
                .chunks_exact(8)
                .map(|x| f64::from_le_bytes(x.try_into().unwrap_or([0; 8])) as f32)
                .collect(),
            other => {
                return err(format!(
                    "model.safetensors: tensor `{name}` has dtype {other}, not a float type"
                ));
            }
        };
        Ok((shape, v))
    }

    fn ints(&self, name: &str) -> Result<Vec<u32>, ModelError> {
        let (dtype, _, b) = self.raw(name)?;
        let wide = |x: i64| u32::try_from(x).map_err(|_| ());
        let v: Result<Vec<u32>, ()> = match dtype {
            "I64" | "U64" => b
                .chunks_exact(8)
                .map(|x| wide(i64::from_le_bytes(x.try_into().unwrap_or([0xff; 8]))))
                .collect(),
            "I32" | "U32" => b
                .chunks_exact(4)
                .map(|x| wide(i64::from(i32::from_le_bytes([x[0], x[1], x[2], x[3]]))))
                .collect(),
            other => {
                return err(format!(
                    "model.safetensors: tensor `{name}` has dtype {other}, not an integer type"
                ));
            }
        };
        v.map_err(|_| ModelError(format!("model.safetensors: `{name}` holds a negative row")))
    }
}

/// A WordPiece tokenizer as `tokenizer.json` describes one (BERT's normalizer and
/// pre-tokenizer, greedy longest-match-first pieces with a continuation prefix).
struct WordPiece {
    vocab: HashMap<String, u32>,
    unk: Option<u32>,
    prefix: String,
    max_word_chars: usize,
    lowercase: bool,
    strip_accents: bool,
    clean_text: bool,
    split_chinese: bool,
}

impl WordPiece {
    fn from_json(t: &Value) -> Result<WordPiece, ModelError> {
        let model = &t["model"];
        let kind = model["type"].as_str().unwrap_or("");
        if kind != "WordPiece" {
            return err(format!(
                "tokenizer.json: a {} model; Quarry reads WordPiece tokenizers (the BERT family's)",
                if kind.is_empty() { "untyped" } else { kind }
            ));
        }
        let vocab: HashMap<String, u32> = model["vocab"]
            .as_object()
            .ok_or_else(|| ModelError("tokenizer.json: the model has no vocab".into()))?
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), u32::try_from(v.as_u64()?).ok()?)))
            .collect();
        if vocab.is_empty() {
            return err("tokenizer.json: the vocabulary is empty");
        }
        let unk = model["unk_token"]
            .as_str()
            .and_then(|u| vocab.get(u).copied());
        let mut wp = WordPiece {
            vocab,
            unk,
            prefix: model["continuing_subword_prefix"]
                .as_str()
                .unwrap_or("##")
                .to_string(),
            max_word_chars: model["max_input_chars_per_word"].as_u64().unwrap_or(100) as usize,
            lowercase: false,
            strip_accents: false,
            clean_text: false,
            split_chinese: false,
        };
        wp.normalizer(&t["normalizer"])?;
        wp.pre_tokenizer(&t["pre_tokenizer"])?;
        Ok(wp)
    }

    fn normalizer(&mut self, n: &Value) -> Result<(), ModelError> {
        match n["type"].as_str() {
            None if n.is_null() => {}
            Some("BertNormalizer") => {
                self.lowercase = n["lowercase"].as_bool().unwrap_or(true);
                self.strip_accents = n["strip_accents"].as_bool().unwrap_or(self.lowercase);
                self.clean_text = n["clean_text"].as_bool().unwrap_or(true);
                self.split_chinese = n["handle_chinese_chars"].as_bool().unwrap_or(true);
            }
            Some("Lowercase") => self.lowercase = true,
            Some("StripAccents") => self.strip_accents = true,
            Some("NFC" | "NFKC") => {}
            Some("NFD" | "NFKD") => {}
            Some("Sequence") => {
                for x in n["normalizers"].as_array().into_iter().flatten() {
                    self.normalizer(x)?;
                }
            }
            other => {
                return err(format!(
                    "tokenizer.json: normalizer {} is not one Quarry reads",
                    other.unwrap_or("?")
                ));
            }
        }
        Ok(())
    }

    fn pre_tokenizer(&self, p: &Value) -> Result<(), ModelError> {
        match p["type"].as_str() {
            None if p.is_null() => Ok(()),
            Some("BertPreTokenizer" | "Whitespace" | "WhitespaceSplit") => Ok(()),
            Some("Sequence") => p["pretokenizers"]
                .as_array()
                .into_iter()
                .flatten()
                .try_for_each(|x| self.pre_tokenizer(x)),
            other => err(format!(
                "tokenizer.json: pre-tokenizer {} is not one Quarry reads",
                other.unwrap_or("?")
            )),
        }
    }

    fn vocab_size(&self) -> usize {
        self.vocab.values().max().map_or(0, |&m| m as usize + 1)
    }

    /// Token ids of `text`, unknown words left out.
    fn ids(&self, text: &str) -> Vec<u32> {
        let text = self.normalize(text);
        let mut out = Vec::new();
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut Vec<u32>| {
            if !word.is_empty() {
                self.pieces(word, out);
                word.clear();
            }
        };
        for c in text.chars() {
            if c.is_whitespace() {
                flush(&mut word, &mut out);
            } else if is_punctuation(c) || (self.split_chinese && is_cjk(c)) {
                flush(&mut word, &mut out);
                word.push(c);
                flush(&mut word, &mut out);
            } else {
                word.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    fn normalize(&self, text: &str) -> String {
        use unicode_normalization::UnicodeNormalization;
        let mut s: String = if self.clean_text {
            text.chars()
                .filter(|&c| c != '\0' && c != '\u{fffd}' && (!c.is_control() || c.is_whitespace()))
                .collect()
        } else {
            text.to_string()
        };
        if self.strip_accents {
            s = s
                .nfd()
                .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
                .collect();
        }
        if self.lowercase {
            s = s.to_lowercase();
        }
        s
    }

    /// Greedy longest-match-first pieces of one word; a word with an unmatchable part is
    /// unknown as a whole (and left out, as Model2Vec leaves unknown tokens out).
    fn pieces(&self, word: &str, out: &mut Vec<u32>) {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() > self.max_word_chars {
            return;
        }
        let at = out.len();
        let mut start = 0;
        let mut piece = String::new();
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while end > start {
                let (a, b) = (chars[start].0, chars.get(end).map_or(word.len(), |c| c.0));
                piece.clear();
                if start > 0 {
                    piece.push_str(&self.prefix);
                }
                piece.push_str(&word[a..b]);
                if let Some(&id) = self.vocab.get(&piece) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) if Some(id) != self.unk => out.push(id),
                Some(_) => {}
                None => {
                    out.truncate(at);
                    return;
                }
            }
            start = end;
        }
    }
}

/// BERT's punctuation: ASCII symbols, and Unicode punctuation beyond ASCII.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    !c.is_alphanumeric() && !c.is_whitespace() && !c.is_control() && !is_cjk(c)
}

/// CJK ideographs, which BERT splits into single-character words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A model folder: `tokens` with 2-dimensional rows, in the Model2Vec layout.
    fn write_model(dir: &Path, tokens: &[(&str, [f32; 2])], tokenizer: Value) {
        let mut data = Vec::new();
        for (_, r) in tokens {
            for x in r {
                data.extend_from_slice(&half::f16::from_f32(*x).to_le_bytes());
            }
        }
        let header = json!({
            "embeddings": {"dtype": "F16", "shape": [tokens.len(), 2], "data_offsets": [0, data.len()]},
            "__metadata__": {}
        })
        .to_string();
        let mut file = (header.len() as u64).to_le_bytes().to_vec();
        file.extend_from_slice(header.as_bytes());
        file.extend_from_slice(&data);
        std::fs::write(dir.join("model.safetensors"), file).unwrap();
        std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).unwrap();
        std::fs::write(dir.join("config.json"), r#"{"normalize": true}"#).unwrap();
    }

    fn bert(tokens: &[(&str, [f32; 2])]) -> Value {
        let vocab: serde_json::Map<String, Value> = tokens
            .iter()
            .enumerate()
            .map(|(i, (t, _))| (t.to_string(), json!(i)))
            .collect();
        json!({
            "normalizer": {"type": "BertNormalizer", "lowercase": true, "strip_accents": null,
                           "clean_text": true, "handle_chinese_chars": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": vocab}
        })
    }

    const TOKENS: &[(&str, [f32; 2])] = &[
        ("[UNK]", [0.0, 9.0]),
        ("circle", [1.0, 0.0]),
        ("disc", [0.9, 0.1]),
        ("square", [0.0, 1.0]),
        ("area", [0.5, 0.5]),
        ("##s", [0.0, 0.0]),
        ("(", [0.2, 0.2]),
        ("cafe", [0.3, 0.0]),
    ];

    #[test]
    fn word_pieces_follow_bert() {
        let tmp = tempfile::tempdir().unwrap();
        write_model(tmp.path(), TOKENS, bert(TOKENS));
        let m = StaticModel::load(tmp.path()).unwrap();
        let t = &m.tokenizer;
        // Lowercased, split at punctuation, "##" pieces, accents stripped, unknown words out.
        assert_eq!(t.ids("Circles(Disc"), vec![1, 5, 6, 2]);
        assert_eq!(t.ids("  CAFÉ\tzebra "), vec![7]);
        assert!(m.name.starts_with("local:"), "{}", m.name);
        assert_eq!(m.dims(), 2);
    }

    #[test]
    fn vectors_are_unit_means_of_token_rows() {
        let tmp = tempfile::tempdir().unwrap();
        write_model(tmp.path(), TOKENS, bert(TOKENS));
        let m = StaticModel::load(tmp.path()).unwrap();
        let v = m.embed("circle square");
        let s = std::f32::consts::FRAC_1_SQRT_2;
        assert!((v[0] - s).abs() < 1e-3 && (v[1] - s).abs() < 1e-3, "{v:?}");
        // "disc" lies near "circle", far from "square".
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let disc = m.embed("disc");
        assert!(dot(&disc, &m.embed("circle")) > 0.99);
        assert!(dot(&disc, &m.embed("square")) < 0.2);
        // Nothing known: the zero vector, not NaN.
        assert_eq!(m.embed("zebra"), vec![0.0, 0.0]);
    }

    #[test]
    fn bad_folders_are_named_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let e = StaticModel::load(tmp.path()).err().unwrap().0;
        assert!(e.contains("tokenizer.json"), "{e}");
        let mut unigram = bert(TOKENS);
        unigram["model"]["type"] = json!("Unigram");
        write_model(tmp.path(), TOKENS, unigram);
        let e = StaticModel::load(tmp.path()).err().unwrap().0;
        assert!(e.contains("Unigram") && e.contains("WordPiece"), "{e}");
        write_model(tmp.path(), TOKENS, bert(TOKENS));
        let file = std::fs::read(tmp.path().join("model.safetensors")).unwrap();
        for cut in [0, 7, 9, file.len() - 1] {
            std::fs::write(tmp.path().join("model.safetensors"), &file[..cut]).unwrap();
            let e = StaticModel::load(tmp.path()).err().unwrap().0;
            assert!(e.starts_with("model.safetensors"), "{e}");
        }
        // Fewer rows than tokens.
        write_model(tmp.path(), &TOKENS[..3], bert(TOKENS));
        let e = StaticModel::load(tmp.path()).err().unwrap().0;
        assert!(e.contains("rows for a vocabulary"), "{e}");
    }
}
