//! Ranking: BM25F over the question's terms, coverage, priors and name boosts, top-k.

use super::*;

/// Which unit paths a search admits (its path and extension filters).
pub type Admits<'a> = &'a (dyn Fn(&str) -> bool + Sync);

/// A ranked unit of one of the searched indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Position of the index in the slice searched.
    pub index: usize,
    pub unit: u32,
    pub score: f64,
}

/// The dictionary terms a question term matches, with their weight: itself (1), and each
/// prefix of at least three bytes that is at least two bytes shorter — a code abbreviation
/// (`rect` for "rectangle", `str` for "string") — at ½. (One letter short is a different
/// word more often than an abbreviation: `not` is no abbreviation of "nothing", stemmed
/// `noth`.)
pub(super) fn expansions(term: &str) -> Vec<(&str, f32)> {
    let mut out = vec![(term, 1.0)];
    for (i, _) in term.char_indices().skip(1) {
        if i >= 3 && i + 2 <= term.len() {
            out.push((&term[..i], 0.5));
        }
    }
    out
}

/// Per-query working memory for one index: dense arrays over its units, zero between
/// queries (each query resets exactly what it touched). Pooled, because allocating them
/// afresh — megabytes for a large repository — cost more in page faults than the ranking.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) tf: Vec<f32>,
    pub(super) name: Vec<bool>,
    pub(super) score: Vec<f32>,
    pub(super) matched: Vec<u8>,
    pub(super) named: Vec<u8>,
    pub(super) touched: Vec<u32>,
    /// (unit, weighted tf, in name) of each question term's matches, term after term.
    pub(super) matches: Vec<(u32, f32, bool)>,
}

impl Scratch {
    pub(super) fn take(units: usize) -> Scratch {
        let mut s = scratch_pool()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop()
            .unwrap_or_default();
        if s.tf.len() < units {
            s.tf.resize(units, 0.0);
            s.name.resize(units, false);
            s.score.resize(units, 0.0);
            s.matched.resize(units, 0);
            s.named.resize(units, 0);
        }
        s.touched.clear();
        s.matches.clear();
        s
    }

    pub(super) fn give_back(self) {
        let mut pool = scratch_pool().lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 8 {
            pool.push(self);
        }
    }
}

pub(super) fn scratch_pool() -> &'static Mutex<Vec<Scratch>> {
    static POOL: OnceLock<Mutex<Vec<Scratch>>> = OnceLock::new();
    POOL.get_or_init(Default::default)
}

/// A candidate in the top-k heap: the worst on top. Equal scores rank by index, then by the
/// unit's file path (its rank among the index's paths), then unit: an order that an updated
/// index and a fresh build of the same files agree on.
pub(super) struct Ranked(Found, u32);

impl Ranked {
    pub(super) fn better(&self, other: &Ranked) -> std::cmp::Ordering {
        let (a, b) = (&self.0, &other.0);
        b.score
            .total_cmp(&a.score)
            .then(a.index.cmp(&b.index))
            .then(self.1.cmp(&other.1))
            .then(a.unit.cmp(&b.unit))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.better(other).is_eq()
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    /// Better sorts first, so a max-heap keeps the worst on top.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.better(other)
    }
}

/// The `k` best units for the question terms `terms` over `indexes` (each with the filter
/// its units' paths must pass; `None` admits all), best first; ties by index, then file path,
/// then unit.
pub fn top(
    indexes: &[(&SearchIndex, Option<Admits<'_>>)],
    terms: &[String],
    k: usize,
) -> Vec<Found> {
    let terms = &terms[..terms.len().min(16)];
    if terms.is_empty() || k == 0 {
        return Vec::new();
    }
    // Per index: each question term's matches, and where they end in `matches`.
    let mut scratches: Vec<(Scratch, Vec<usize>)> = indexes
        .iter()
        .map(|(ix, _)| {
            let n = ix.units.len();
            let mut s = Scratch::take(n);
            let mut ends = Vec::with_capacity(terms.len());
            for term in terms {
                for (text, weight) in expansions(term) {
                    let Some(i) = ix.find(text) else { continue };
                    let (tf, name, touched) = (&mut s.tf, &mut s.name, &mut s.touched);
                    decode(ix.posting_bytes(i), n as u32, |u, tf2, in_name| {
                        let slot = &mut tf[u as usize];
                        if *slot == 0.0 {
                            touched.push(u);
                        }
                        *slot += weight * tf2 as f32 / 2.0;
                        name[u as usize] |= in_name;
                    });
                }
                for &u in &s.touched {
                    let t = std::mem::take(&mut s.tf[u as usize]);
                    let m = std::mem::take(&mut s.name[u as usize]);
                    s.matches.push((u, t, m));
                }
                s.touched.clear();
                ends.push(s.matches.len());
            }
            (s, ends)
        })
        .collect();
    // Statistics over every index searched: one corpus.
    let n_total: f64 = indexes.iter().map(|(ix, _)| ix.units.len() as f64).sum();
    let idf: Vec<f32> = (0..terms.len())
        .map(|q| {
            let df: f64 = scratches
                .iter()
                .map(|(_, ends)| (ends[q] - if q == 0 { 0 } else { ends[q - 1] }) as f64)
                .sum();
            ((n_total - df + 0.5) / (df + 0.5) + 1.0).ln() as f32
        })
        .collect();
    let mut heap: std::collections::BinaryHeap<Ranked> = std::collections::BinaryHeap::new();
    for (x, ((ix, admits), (s, ends))) in indexes.iter().zip(&mut scratches).enumerate() {
        let norm: [f32; 2] = [1.0 / ix.avg[0], 1.0 / ix.avg[1]];
        let mut start = 0;
        for (q, &end) in ends.iter().enumerate() {
            for &(u, tf, in_name) in &s.matches[start..end] {
                let info = &ix.units[u as usize];
                let k = K1 * (1.0 - B + B * info.len as f32 * norm[usize::from(info.is_file)]);
                if s.matched[u as usize] == 0 {
                    s.touched.push(u);
                }
                s.score[u as usize] += idf[q] * tf * (K1 + 1.0) / (tf + k);
                s.matched[u as usize] += 1;
                s.named[u as usize] += u8::from(in_name);
            }
            start = end;
        }
        let mut admitted: Vec<Option<bool>> = match admits {
            Some(_) => vec![None; ix.files.len()],
            None => Vec::new(),
        };
        for &u in &s.touched {
            let ui = u as usize;
            let (score, matched, named) = (
                std::mem::take(&mut s.score[ui]),
                std::mem::take(&mut s.matched[ui]),
                std::mem::take(&mut s.named[ui]),
            );
            let info = &ix.units[ui];
            if let Some(admits) = admits {
                let f = info.file as usize;
                if !*admitted[f].get_or_insert_with(|| admits(&ix.files[f])) {
                    continue;
                }
            }
            let mut score = f64::from(score);
            score *= 0.5 + 0.5 * f64::from(matched) / terms.len() as f64;
            score *= f64::from(info.prior);
            if info.name_terms > 0 && named >= info.name_terms {
                score *= 1.3;
            }
            let r = Ranked(
                Found {
                    index: x,
                    unit: u,
                    score,
                },
                ix.file_rank[info.file as usize],
            );
            if heap.len() < k {
                heap.push(r);
            } else if heap.peek().is_some_and(|worst| r < *worst) {
                heap.pop();
                heap.push(r);
            }
        }
    }
    for (s, _) in scratches {
        s.give_back();
    }
    heap.into_sorted_vec().into_iter().map(|r| r.0).collect()
}
