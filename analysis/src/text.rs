//! Code-aware tokens for ranking: identifiers split on case and `_`, lower-cased, lightly
//! stemmed, so "parseConfigFile", "parse_config_file" and "parses the config files" share
//! the terms `parse`, `config`, `file`.

/// Words that carry no meaning in a question about code.
pub const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "all",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "code",
    "do",
    "does",
    "for",
    "from",
    "get",
    "give",
    "has",
    "have",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "me",
    "my",
    "of",
    "on",
    "or",
    "our",
    "out",
    "return",
    "returns",
    "self",
    "so",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "this",
    "to",
    "use",
    "used",
    "uses",
    "using",
    "was",
    "we",
    "what",
    "when",
    "where",
    "which",
    "who",
    "why",
    "will",
    "with",
    "you",
    "your",
    "function",
    "method",
    "implemented",
    "implement",
    "find",
    "show",
    "defined",
];

/// Split text into code-aware terms (stop words kept; see [`query_terms`]).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| out.push(t.to_string()));
    out
}

/// Call `f` with each code-aware term of `text` in order — what [`tokens`] returns, without
/// allocating per term (the search index tokenises whole repositories with it).
pub fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    // Each word is stemmed in the buffer it was lower-cased in (no second copy per token).
    for_each_word(text, |w| {
        stem_in_place(w);
        f(w);
    });
}

/// Call `f` with each run of `text` between ASCII characters that are not letters or digits
/// — the raw words [`for_each_term`] takes apart. The terms of `text` are those of its raw
/// words in order, so a caller can tokenise each distinct raw word once and reuse its terms
/// (code repeats its words: the search index does this per file). Non-ASCII characters stay
/// inside a raw word; [`for_each_term`] splits the word further where they are not
/// alphanumeric.
pub fn for_each_raw_word<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    // Which bytes end a raw word, by table (one load per byte instead of range tests).
    const SPLITS: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 0x80 {
            t[b] = !(b as u8).is_ascii_alphanumeric();
            b += 1;
        }
        t
    };
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if SPLITS[b as usize] {
            if start < i {
                // Both ends are at ASCII bytes, so character boundaries.
                f(&text[start..i]);
            }
            start = i + 1;
        }
    }
    if start < bytes.len() {
        f(&text[start..]);
    }
}

/// Lower-cased identifier parts, unstemmed: words split on anything not alphanumeric, then
/// on case (`parseHTTPRequest2` → `parse`, `http`, `request2`); one-letter parts that are
/// not digits are dropped.
/// Each part is given in a buffer the callee may change (stem in place).
fn for_each_word(text: &str, mut f: impl FnMut(&mut String)) {
    if text.is_ascii() {
        return for_each_ascii_word(text, f);
    }
    let mut lower = String::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        split_case(word, |part| {
            lower.clear();
            if part.is_ascii() {
                lower.push_str(part);
                lower.make_ascii_lowercase();
            } else {
                lower.push_str(&part.to_lowercase());
            }
            if lower.chars().nth(1).is_some() || lower.chars().all(|c| c.is_ascii_digit()) {
                f(&mut lower);
            }
        });
    }
}

/// [`for_each_word`] for ASCII text, on bytes (the common case, and most of the cost of
/// building a search index).
fn for_each_ascii_word(text: &str, mut f: impl FnMut(&mut String)) {
    let bytes = text.as_bytes();
    let mut lower = String::new();
    // A part by its byte range in `text`: every offset of ASCII text is a character boundary,
    // so it is sliced from the `str`, not validated again (`from_utf8` per part was 4 % of
    // building a search index).
    let mut emit = |range: std::ops::Range<usize>| {
        let Some(part) = text.get(range) else {
            return;
        };
        if part.len() >= 2 || part.bytes().all(|b| b.is_ascii_digit()) {
            lower.clear();
            lower.push_str(part);
            lower.make_ascii_lowercase();
            f(&mut lower);
        }
    };
    for word in bytes.split(|b| !b.is_ascii_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        // Where the word starts in `text` (it is a subslice of `bytes`).
        let at = word.as_ptr() as usize - bytes.as_ptr() as usize;
        let mut start = 0;
        for i in 1..word.len() {
            let (prev, c) = (word[i - 1], word[i]);
            let boundary = (prev.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (prev.is_ascii_uppercase()
                    && c.is_ascii_uppercase()
                    && word.get(i + 1).is_some_and(u8::is_ascii_lowercase));
            if boundary {
                emit(at + start..at + i);
                start = i;
            }
        }
        emit(at + start..at + word.len());
    }
}

/// Terms of a natural-language question: tokens without stop words, deduplicated, in order.
pub fn query_terms(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for_each_word(question, |w| {
        if STOPWORDS.contains(&w.as_str()) {
            return;
        }
        stem_in_place(w);
        if !out.contains(w) {
            out.push(w.clone());
        }
    });
    out
}

/// `parseHTTPRequest2` → `parse`, `HTTP`, `Request2`.
fn split_case(word: &str, mut f: impl FnMut(&str)) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = word.char_indices().peekable();
    while let Some((pos, c)) = chars.next() {
        if let Some(prev) = prev {
            let next = chars.peek().map(|x| x.1);
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(|n| n.is_lowercase()));
            if boundary {
                f(&word[start..pos]);
                start = pos;
            }
        }
        prev = Some(c);
    }
    f(&word[start..]);
}

/// A light English stemmer for ranking (plural and verb endings, a final `e`). Applied to
/// both questions and code, so only consistency matters, not linguistic accuracy.
pub fn stem(w: &str) -> String {
    let mut out = String::new();
    stem_into(w, &mut out);
    out
}

/// [`stem`] into a reused buffer.
pub fn stem_into(w: &str, out: &mut String) {
    out.clear();
    out.push_str(w);
    stem_in_place(out);
}

/// [`stem`], replacing the word in its buffer.
fn stem_in_place(w: &mut String) {
    if !w.is_ascii() || w.len() <= 3 {
        return;
    }
    for (suffix, keep) in [
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ] {
        let Some(base) = w.strip_suffix(suffix) else {
            continue;
        };
        let base_len = base.len();
        if base_len >= 3
            && !(suffix == "s" && (w.ends_with("ss") || w.ends_with("us") || w.ends_with("is")))
            && !(suffix == "es"
                && !(base.ends_with("sh")
                    || base.ends_with("ch")
                    || base.ends_with('x')
                    || base.ends_with('s')))
        {
            w.truncate(base_len);
            w.push_str(keep);
            // `summed`/`running` → `sum`/`run`: undo a doubled final consonant.
            let b = w.as_bytes();
            if (suffix == "ed" || suffix == "ing")
                && b.len() >= 3
                && b[b.len() - 1] == b[b.len() - 2]
                && !matches!(b[b.len() - 1], b'l' | b's' | b'z' | b'e')
            {
                w.pop();
            }
            drop_e(w);
            return;
        }
    }
    drop_e(w);
}

/// `parse`/`parsed`/`parsing` → `pars`: a final `e` goes, so verb forms meet.
fn drop_e(w: &mut String) {
    if w.ends_with('e') && w.len() > 3 {
        w.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The terms of a text are the terms of its raw words, in order: the search index's
    /// per-file cache of raw words relies on it.
    #[test]
    fn terms_are_the_terms_of_raw_words() {
        let texts = [
            "fn parse_config(path: &Path) -> Result<ConfigFile, io::Error> {",
            "    let parsedHTTPRequest2 = x1 + 42 * y;",
            "// ÄrgerÜber the naïve café—ideas, 日本語テキスト and ascii_words",
            "a_b x1 42 ÄrgerÜber\tfooBar«baz»qux",
            "émigréCase über_Straße ΣΊΣΥΦΟΣ",
            include_str!("text.rs"),
            include_str!("search/ranker.rs"),
        ];
        for text in texts {
            for line in text.lines() {
                let mut by_word = Vec::new();
                for_each_raw_word(line, |w| by_word.extend(tokens(w)));
                assert_eq!(tokens(line), by_word, "line {line:?}");
            }
        }
    }

    #[test]
    fn identifiers_and_sentences_share_terms() {
        assert_eq!(tokens("parseConfigFile"), vec!["pars", "config", "fil"]);
        assert_eq!(tokens("parse_config_files"), vec!["pars", "config", "fil"]);
        assert_eq!(tokens("parsing"), tokens("parsed"));
        assert_eq!(tokens("HTTPServer2"), vec!["http", "server2"]);
        assert_eq!(
            query_terms("Where is the config file parsed?"),
            vec!["config", "fil", "pars"]
        );
        assert_eq!(stem("classes"), "class");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("queries"), "query");
        assert_eq!(stem("summed"), "sum");
        assert_eq!(stem("running"), "run");
        assert_eq!(stem("parse"), "pars");
        assert_eq!(stem("use"), "use");
        assert_eq!(
            tokens("a_b x1 42 ÄrgerÜber"),
            vec!["x1", "42", "ärger", "über"]
        );
    }
}
