//! Tokenising: a file and its definitions become units with weighted term frequencies.

use super::*;

pub(super) struct UnitOut {
    /// The unit's record, serialised (see the module's documentation).
    pub(super) record: Vec<u8>,
    /// (local term, tf × 2, in name), each term once.
    pub(super) terms: Vec<(u32, u32, bool)>,
    pub(super) len: u32,
    pub(super) prior: f32,
    pub(super) name_terms: u8,
    pub(super) is_file: bool,
}

pub(super) struct FileOut {
    pub(super) path: String,
    pub(super) terms: Vec<String>,
    pub(super) units: Vec<UnitOut>,
}

#[derive(Default)]
pub(super) struct Interner {
    pub(super) ids: FxHashMap<String, u32>,
}

impl Interner {
    pub(super) fn id(&mut self, t: &str) -> u32 {
        if let Some(&id) = self.ids.get(t) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(t.to_string(), id);
        id
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The terms, by id.
    pub(super) fn into_terms(self) -> Vec<String> {
        let mut terms = vec![String::new(); self.ids.len()];
        for (t, id) in self.ids {
            terms[id as usize] = t;
        }
        terms
    }
}

/// Sum each term's weights in (term, weight, in name) pairs; `scratch` is all zero before and
/// after (indexed by term). Terms come out in order of first appearance.
pub(super) fn merge_pairs(
    pairs: Vec<(u32, u32, bool)>,
    scratch: &mut Vec<(u32, bool)>,
) -> Vec<(u32, u32, bool)> {
    let mut order: Vec<u32> = Vec::with_capacity(pairs.len() / 2);
    for (t, w, n) in pairs {
        add_weight(scratch, &mut order, t, w, n);
    }
    take_weights(scratch, order)
}

/// Add weight `w` of term `t` to `scratch` (indexed by term), noting `t` in `order` when it is
/// new there.
pub(super) fn add_weight(
    scratch: &mut Vec<(u32, bool)>,
    order: &mut Vec<u32>,
    t: u32,
    w: u32,
    n: bool,
) {
    let t_ = t as usize;
    if t_ >= scratch.len() {
        scratch.resize(t_ + 1, (0, false));
    }
    let slot = &mut scratch[t_];
    if slot.0 == 0 {
        order.push(t);
    }
    slot.0 = slot.0.saturating_add(w.max(1));
    slot.1 |= n;
}

/// The summed weights of the terms in `order`, in that order; their slots of `scratch` are
/// zero again after.
pub(super) fn take_weights(scratch: &mut [(u32, bool)], order: Vec<u32>) -> Vec<(u32, u32, bool)> {
    order
        .into_iter()
        .map(|t| {
            let (w, n) = std::mem::take(&mut scratch[t as usize]);
            (t, w, n)
        })
        .collect()
}

/// A file's distinct raw words ([`for_each_raw_word`]) and the term ids each becomes: a word
/// is split, lower-cased and stemmed the first time the file uses it, and looked up after
/// (code repeats its words: ~85 % of occurrences are repeats, and tokenising each one was
/// about half of building the index).
#[derive(Default)]
pub(super) struct Words<'a> {
    pub(super) at: FxHashMap<&'a str, (u32, u32)>,
    pub(super) ids: Vec<u32>,
}

impl<'a> Words<'a> {
    pub(super) fn terms(&mut self, word: &'a str, dict: &mut Interner) -> &[u32] {
        let ids = &mut self.ids;
        let (start, end) = *self.at.entry(word).or_insert_with(|| {
            let start = ids.len() as u32;
            for_each_term(word, |t| ids.push(dict.id(t)));
            (start, ids.len() as u32)
        });
        &self.ids[start as usize..end as usize]
    }
}

/// A file's units and terms, ready to be merged ([`Builder::add_tokenised`]).
pub struct Tokenised(pub(super) FileOut);

/// Tokenise one file for [`Builder::add_tokenised`] — what [`Builder::add_files`] does to each
/// file, for a caller that makes each file's input on the pool too (the index build unpacks a
/// file's definitions, decompresses its content and tokenises it in one task: one wait for the
/// slowest file per batch instead of one per step).
pub fn tokenise(file: &FileInput) -> Tokenised {
    Tokenised(analyse(file))
}

/// Bytes of one file's content the search index tokenises (whole lines, from the start): the
/// index's memory per file stays bounded whatever `--max-file-size` admits (grep reads every
/// byte). Above the default `--max-file-size`, so a default index is not affected.
pub const MAX_TOKENISED_BYTES: usize = 8 << 20;

/// The longest prefix of `text` of whole lines within `max` bytes (the first line's start
/// within `max`, should a single line be longer).
pub(super) fn bounded_prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) => &text[..=nl],
        None => &text[..end],
    }
}

pub(super) fn analyse<'a>(file: &'a FileInput) -> FileOut {
    let mut dict = Interner::default();
    let mut path_terms = Vec::new();
    for_each_term(&file.path, |t| path_terms.push(dict.id(t)));
    let content = bounded_prefix(&file.content, MAX_TOKENISED_BYTES);
    let lines: Vec<&str> = crate::grep::lines(content).collect();

    // Each line belongs to the innermost definition whose range holds it.
    let n = file.symbols.len();
    let mut by_start: Vec<usize> = (0..n).collect();
    by_start.sort_by_key(|&i| {
        let s = &file.symbols[i];
        (s.start_line, std::cmp::Reverse(s.end_line))
    });
    let mut owner: Vec<u32> = vec![u32::MAX; lines.len()];
    let line_range = |s: &SymbolInput| {
        let start = (s.start_line.max(1) - 1) as usize;
        let end = (s.end_line.max(0) as usize).min(lines.len());
        start..end.max(start)
    };
    for &i in &by_start {
        for l in line_range(&file.symbols[i]) {
            if let Some(o) = owner.get_mut(l) {
                *o = i as u32;
            }
        }
    }

    let mut sym_pairs: Vec<Vec<(u32, u32, bool)>> = vec![Vec::new(); n];
    let mut sym_len: Vec<u32> = vec![0; n];
    // The file unit's weights are summed as its terms come (every token of the file: as
    // pairs, growing and then merging them was a tenth of building the index).
    let mut scratch: Vec<(u32, bool)> = Vec::new();
    let mut file_terms: Vec<u32> = Vec::new();
    let mut file_len: u32 = path_terms.len() as u32;
    for &t in &path_terms {
        add_weight(&mut scratch, &mut file_terms, t, W_FILE_PATH, false);
    }
    let mut words = Words::default();
    for (l, line) in lines.iter().enumerate() {
        let o = owner[l];
        for_each_raw_word(line, |word| {
            for &id in words.terms(word, &mut dict) {
                if file.with_file_unit {
                    add_weight(&mut scratch, &mut file_terms, id, W_BODY, false);
                    file_len += 1;
                }
                if o != u32::MAX {
                    sym_pairs[o as usize].push((id, W_SYMBOL_BODY, false));
                    sym_len[o as usize] += 1;
                }
            }
        });
    }

    let mut units = Vec::with_capacity(n + 1);
    // Taking the file's weights leaves the scratch all zero, as the merges below need it.
    let file_terms = take_weights(&mut scratch, file_terms);
    scratch.resize(dict.len(), (0, false));
    if file.with_file_unit {
        units.push(UnitOut {
            record: FileRecord {
                identifier: &file.identifier,
                path: &file.path,
                language: &file.language,
                lines: file.lines,
                bytes: file.bytes,
            }
            .encode(),
            terms: file_terms,
            len: file_len,
            prior: prior(&file.path, None, false, false) as f32,
            name_terms: 0,
            is_file: true,
        });
    }
    for (i, s) in file.symbols.iter().enumerate() {
        let mut pairs = std::mem::take(&mut sym_pairs[i]);
        let mut len = sym_len[i];
        let mut add = |text: &'a str, w: u32, name: bool, pairs: &mut Vec<(u32, u32, bool)>| {
            for_each_raw_word(text, |word| {
                for &id in words.terms(word, &mut dict) {
                    pairs.push((id, w, name));
                    len += 1;
                }
            });
        };
        add(&s.name, W_NAME, true, &mut pairs);
        add(&s.qualified_name, W_QUALIFIED, false, &mut pairs);
        add(&s.signature, W_SIGNATURE, false, &mut pairs);
        add(s.doc.as_deref().unwrap_or(""), W_DOC, false, &mut pairs);
        for &t in &path_terms {
            pairs.push((t, W_PATH, false));
        }
        len += path_terms.len() as u32;
        let mut name_words: Vec<String> = tokens(&s.name)
            .into_iter()
            .filter(|t| !STOPWORDS.contains(&t.as_str()))
            .collect();
        name_words.sort();
        name_words.dedup();
        let size: usize = lines
            .get(line_range(s))
            .map(|ls| ls.iter().map(|l| l.len() + 1).sum())
            .unwrap_or(0);
        let has_doc = s.doc.as_deref().is_some_and(|d| !d.is_empty());
        units.push(UnitOut {
            record: SymbolRecord {
                identifier: &s.identifier,
                path: &file.path,
                kind: &s.kind,
                name: &s.name,
                qualified_name: &s.qualified_name,
                start_line: s.start_line,
                start_character: s.start_character,
                end_line: s.end_line,
                end_character: s.end_character,
                signature: &s.signature,
                summary: &s.summary,
                is_public: s.is_public,
                size,
            }
            .encode(),
            terms: merge_pairs(pairs, &mut scratch),
            len,
            prior: prior(&file.path, Some(&s.kind), s.is_public, has_doc) as f32,
            name_terms: name_words.len().min(255) as u8,
            is_file: false,
        });
    }
    FileOut {
        path: file.path.clone(),
        terms: dict.into_terms(),
        units,
    }
}
