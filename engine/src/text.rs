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
    words(text).iter().map(|w| stem(w)).collect()
}

/// Lower-cased identifier parts, unstemmed.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        for part in split_case(word) {
            let p = part.to_lowercase();
            if p.chars().count() >= 2 || p.chars().all(|c| c.is_ascii_digit()) {
                out.push(p);
            }
        }
    }
    out
}

/// Terms of a natural-language question: tokens without stop words, deduplicated, in order.
pub fn query_terms(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words(question) {
        if STOPWORDS.contains(&w.as_str()) {
            continue;
        }
        let t = stem(&w);
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// `parseHTTPRequest2` → `parse`, `HTTP`, `Request2`.
fn split_case(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (pos, c) = chars[i];
        let prev = chars[i - 1].1;
        let next = chars.get(i + 1).map(|x| x.1);
        let boundary = (prev.is_lowercase() && c.is_uppercase())
            || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(|n| n.is_lowercase()));
        if boundary {
            parts.push(&word[start..pos]);
            start = pos;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// A light English stemmer for ranking (plural and verb endings, a final `e`). Applied to
/// both questions and code, so only consistency matters, not linguistic accuracy.
pub fn stem(w: &str) -> String {
    let n = w.len();
    if !w.is_ascii() || n <= 3 {
        return w.to_string();
    }
    for (suffix, keep) in [
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.len() >= 3
            && !(suffix == "s" && (w.ends_with("ss") || w.ends_with("us") || w.ends_with("is")))
            && !(suffix == "es"
                && !(base.ends_with("sh")
                    || base.ends_with("ch")
                    || base.ends_with('x')
                    || base.ends_with('s')))
        {
            let mut base = format!("{base}{keep}");
            // `summed`/`running` → `sum`/`run`: undo a doubled final consonant.
            let b = base.as_bytes();
            if (suffix == "ed" || suffix == "ing")
                && b.len() >= 3
                && b[b.len() - 1] == b[b.len() - 2]
                && !matches!(b[b.len() - 1], b'l' | b's' | b'z' | b'e')
            {
                base.pop();
            }
            return drop_e(&base);
        }
    }
    drop_e(w)
}

/// `parse`/`parsed`/`parsing` → `pars`: a final `e` goes, so verb forms meet.
fn drop_e(w: &str) -> String {
    match w.strip_suffix('e') {
        Some(b) if b.len() >= 3 => b.to_string(),
        _ => w.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
