//! Per-file digests of the `symbols` and `edges` rows, so that a re-index after a small
//! change rewrites only the rows that differ.
//!
//! A file's stored rows depend on more than its own content: edges resolve against every
//! file's definitions, and a symbol row carries how often the rest of the repository calls
//! and references it. So a re-index resolves every file again, but instead of rewriting both
//! tables whole it compares each file's new rows with the published ones by digest, deletes
//! the rows of the files that differ and appends their new rows (the engine's rows phase, `engine/src/index/write_rows.rs`).
//!
//! The digests of a published pair of table versions are one object beside them,
//! `sources/<id>/rows/symbols-<sv>.edges-<ev>.digests`, written with the tables and removed
//! with the versions they describe. Without it (an older store, a lost object), a re-index
//! rewrites both tables whole and writes it. A digest is xxh3-128 of the row values as
//! written ([`Hasher`]): the digests only tell this store's own rows apart (a collision between
//! two versions of one file's rows is a 2^-128 chance), so a cryptographic hash is not needed,
//! and SHA-256 of every row was ~0.7 % of a first index's CPU.

use std::collections::HashMap;

use crate::batch::Cells;
use crate::derived::{self, CorruptIndex};

/// A 128-bit digest of one file's rows in one table.
pub type RowDigest = [u8; 16];

/// The leading bytes of a digests object (its format).
/// `02`: a symbols digest is of the rows without their counts, then of the counts
/// (`rows::symbol_digest`); an `01` object's digests would all differ, so it is not read.
/// `03`: xxh3-128 instead of SHA-256's first 128 bits; an older object is not read either (the
/// next re-index rewrites both tables whole, then writes an `03` object).
const MAGIC: &[u8; 8] = b"QRYDIG03";

/// Feeds one file's row values into a digest (the column index is not needed: every row of
/// a table gives its values in the same order). Values every row repeats — the data source
/// id, the identifier prefix, the file's own path — are fed as one-byte tags, which halves
/// what is hashed; every other value is length-prefixed. So a digest covers exactly the
/// values written, and two different rows never feed the same bytes. The buffers are kept
/// between files.
#[derive(Default)]
pub struct Hasher {
    buf: Vec<u8>,
    /// The data source id, the identifier prefix, the file's path.
    known: [String; 3],
}

const NULL: u8 = 0;
const LITERAL: u8 = 1;
/// `KNOWN + i`: `known[i]`.
const KNOWN: u8 = 2;
const PARTS: u8 = 5;

impl Hasher {
    /// Start a file's rows: (data source id, identifier prefix) and its path.
    pub fn start(&mut self, (source_id, prefix): (&str, &str), path: &str) {
        self.buf.clear();
        for (k, v) in self.known.iter_mut().zip([source_id, prefix, path]) {
            k.clear();
            k.push_str(v);
        }
        // The prefix is in the digest even if no row writes it.
        self.buf
            .extend_from_slice(&(prefix.len() as u32).to_le_bytes());
        self.buf.extend_from_slice(prefix.as_bytes());
    }

    fn value(&mut self, s: &str) {
        match self.known.iter().position(|k| k == s) {
            Some(i) => self.buf.push(KNOWN + i as u8),
            None => {
                self.buf.push(LITERAL);
                self.buf.extend_from_slice(&(s.len() as u32).to_le_bytes());
                self.buf.extend_from_slice(s.as_bytes());
            }
        }
    }

    pub fn finish(&self) -> RowDigest {
        of_bytes(&self.buf)
    }
}

impl Cells for Hasher {
    fn str(&mut self, _: usize, s: Option<&str>) {
        match s {
            Some(s) => self.value(s),
            None => self.buf.push(NULL),
        }
    }

    fn str_parts(&mut self, _: usize, parts: &[&str]) {
        self.buf.push(PARTS);
        self.buf.push(parts.len() as u8);
        for p in parts {
            self.value(p);
        }
    }

    fn int(&mut self, _: usize, v: Option<i64>) {
        match v {
            Some(v) => {
                self.buf.push(LITERAL);
                self.buf.extend_from_slice(&v.to_le_bytes());
            }
            None => self.buf.push(NULL),
        }
    }

    fn bool(&mut self, _: usize, v: bool) {
        self.buf.push(KNOWN + u8::from(v));
    }
}

/// The xxh3-128 digest of `bytes`.
pub fn of_bytes(bytes: &[u8]) -> RowDigest {
    xxhash_rust::xxh3::xxh3_128(bytes).to_le_bytes()
}

/// Each file's digests: (edges rows, symbols rows), by path.
pub type Digests = HashMap<String, (RowDigest, RowDigest)>;

/// Where the digests of `symbols` at `sv` and `edges` at `ev` are stored.
pub fn path(source_id: &str, (sv, ev): (u64, u64)) -> String {
    format!("sources/{source_id}/rows/symbols-{sv:010}.edges-{ev:010}.digests")
}

/// Serialise digests, sorted by path (the same digests give the same bytes).
pub fn encode(digests: &Digests) -> Vec<u8> {
    derived::encode_by_path(MAGIC, digests, 64, |out, (edges, symbols)| {
        out.extend_from_slice(edges);
        out.extend_from_slice(symbols);
    })
}

pub fn decode(bytes: &[u8]) -> Result<Digests, CorruptIndex> {
    derived::decode_by_path(bytes, MAGIC, "row digests", |r| {
        let edges: RowDigest = r.take(16)?.try_into().expect("16 bytes");
        let symbols: RowDigest = r.take(16)?.try_into().expect("16 bytes");
        Ok((edges, symbols))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_round_trip_and_reject_damage() {
        let mut h = Hasher::default();
        let mut digests = Digests::new();
        for (i, path) in ["src/a.rs", "b/ü.py", ""].iter().enumerate() {
            h.start(("id", "o/r"), path);
            h.str(0, Some(path));
            h.int(1, Some(i as i64));
            let e = h.finish();
            h.int(2, None);
            digests.insert(path.to_string(), (e, h.finish()));
        }
        let bytes = encode(&digests);
        assert_eq!(decode(&bytes).unwrap(), digests);
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_err());
        assert!(decode(b"QRYDIG99").is_err());
    }

    #[test]
    fn different_values_digest_differently() {
        let digest = |prefix: &str, values: &[Option<&str>], parts: &[&str]| {
            let mut h = Hasher::default();
            h.start(("id", prefix), "src/x.rs");
            for v in values {
                h.str(0, *v);
            }
            if !parts.is_empty() {
                h.str_parts(1, parts);
            }
            h.finish()
        };
        let d = |values: &[Option<&str>]| digest("o/r", values, &[]);
        assert_ne!(d(&[Some("ab"), Some("c")]), d(&[Some("a"), Some("bc")]));
        assert_ne!(d(&[None]), d(&[Some("")]));
        // A value equal to a repeated one (fed as a tag) against one that is not.
        assert_ne!(d(&[Some("src/x.rs")]), d(&[Some("src/y.rs")]));
        assert_ne!(d(&[Some("id")]), d(&[Some("o/r")]));
        assert_ne!(d(&[Some("o/r")]), d(&[Some("o/r2")]));
        // The prefix counts even when no row writes it.
        assert_ne!(digest("o/r", &[], &[]), digest("o/s", &[], &[]));
        // Identifiers by their parts: the path and qualified name split differently.
        let ident = |path: &str, q: &str| digest("o/r", &[], &["o/r", "::", path, "::", q]);
        assert_ne!(ident("src/x.rs", "a.b"), ident("src/x.rs", "a.c"));
        assert_ne!(ident("src/x.rs", "a"), ident("src/y.rs", "a"));
        assert_eq!(ident("src/x.rs", "a"), ident("src/x.rs", "a"));
    }
}
