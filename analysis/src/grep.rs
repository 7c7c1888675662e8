//! Line-oriented matching with ripgrep's semantics, used to verify every grep candidate.
//!
//! A file is split into lines at `\n` (a `\r` before it stays part of the line, as in ripgrep
//! without `--crlf`), the pattern runs on each line, and every non-overlapping match is
//! reported, empty matches included (so `^` matches every line, as it does in ripgrep).
//! Patterns use the Rust `regex` dialect ripgrep uses, matched on bytes as ripgrep does (so
//! empty matches occur at every byte offset); a literal query is escaped. A pattern
//! that can only match a line break is refused, as ripgrep refuses it.
//!
//! [`required_literals`] extracts literals every match must contain; the planner uses them to
//! prune candidate files before any regex runs. Pruning can never drop a match because each
//! literal is contained in every possible match.

use regex::bytes::{Regex, RegexBuilder};
use regex_syntax::hir::{Hir, HirKind};

/// Largest compiled regex accepted (bounds regex bombs such as `(a{1000}){1000}`).
pub const MAX_REGEX_BYTES: usize = 4 * 1024 * 1024;
/// Longest pattern accepted.
pub const MAX_PATTERN_BYTES: usize = 4 * 1024;

/// A compiled grep pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    regex: Regex,
    required: Vec<String>,
    runs: Vec<Run>,
}

/// A run of consecutive bytes every match contains, each position one of a few alternatives
/// (a literal byte, or a small class such as `[Dd]` from a case-insensitive letter). What a
/// trigram index needs to narrow candidates; see [`required_runs`].
pub type Run = Vec<Vec<u8>>;

/// Why a pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError(pub String);

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PatternError {}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMatch {
    /// 1-based line number.
    pub line_number: u64,
    /// The line without its `\n` (a `\r` before it stays, as ripgrep matches it).
    pub text: String,
    /// Matches as byte ranges into the line (start inclusive, end exclusive). Empty only for
    /// an empty match at the end of an unterminated last line (see [`Pattern::search`]).
    pub spans: Vec<(usize, usize)>,
}

impl Pattern {
    /// Compile a query: a literal (escaped) or, with `regex`, a Rust regex.
    pub fn new(query: &str, regex: bool) -> Result<Pattern, PatternError> {
        if query.len() > MAX_PATTERN_BYTES {
            return Err(PatternError(format!(
                "the pattern is {} bytes; the limit is {MAX_PATTERN_BYTES}",
                query.len()
            )));
        }
        let source = if regex {
            query.to_string()
        } else {
            regex::escape(query)
        };
        let hir = regex_syntax::ParserBuilder::new()
            .build()
            .parse(&source)
            .map_err(|e| PatternError(format!("invalid regex: {e}")))?;
        if has_line_break(&hir) {
            return Err(PatternError(
                "the pattern contains a line break (\\n); grep is line-oriented, search for one line at a time"
                    .into(),
            ));
        }
        let regex = RegexBuilder::new(&source)
            .size_limit(MAX_REGEX_BYTES)
            .dfa_size_limit(MAX_REGEX_BYTES)
            .build()
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(_) => PatternError(format!(
                    "the regex is too large once compiled (limit {MAX_REGEX_BYTES} bytes); simplify repetitions"
                )),
                other => PatternError(format!("invalid regex: {other}")),
            })?;
        let required = required_literals(&hir);
        let runs = required_runs(&hir);
        Ok(Pattern {
            regex,
            required,
            runs,
        })
    }

    /// Literals every match contains (empty when the pattern implies none).
    pub fn required(&self) -> &[String] {
        &self.required
    }

    /// Byte runs every match contains (literals, and small classes such as case-insensitive
    /// ASCII letters); empty when the pattern implies none.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Whether `text` (a path, say) matches anywhere.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text.as_bytes())
    }

    /// Matching lines of `content`, at most `max_lines` of them listed; counts cover all.
    pub fn search(&self, content: &str, max_lines: usize) -> Found {
        let mut found = Found {
            lines: Vec::new(),
            line_count: 0,
            match_count: 0,
        };
        let unterminated = !content.is_empty() && !content.ends_with('\n');
        match self.required.iter().max_by_key(|l| l.len()) {
            // Every match contains this literal, and no literal spans a line break: only the
            // lines holding an occurrence (found by memmem over the whole file) can match.
            Some(literal) if !literal.is_empty() => {
                let bytes = content.as_bytes();
                let mut line_number = 0u64; // of the line starting at `counted`
                let mut counted = 0usize;
                let mut next_line = 0usize; // lines before this offset are done
                for at in memchr::memmem::find_iter(bytes, literal.as_bytes()) {
                    if at < next_line {
                        continue;
                    }
                    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |p| p + 1);
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |p| at + p);
                    line_number +=
                        memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u64;
                    counted = start;
                    let last = end == bytes.len() && unterminated;
                    self.search_line(
                        &content[start..end],
                        line_number,
                        last,
                        max_lines,
                        &mut found,
                    );
                    next_line = end + 1;
                }
            }
            _ => {
                let n_lines = lines(content).count();
                for (i, line) in lines(content).enumerate() {
                    let last = unterminated && i + 1 == n_lines;
                    self.search_line(line, i as u64, last, max_lines, &mut found);
                }
            }
        }
        found
    }

    /// Match one line (0-based `index`), adding it to `found` when it matches.
    fn search_line(&self, line: &str, index: u64, last: bool, max_lines: usize, found: &mut Found) {
        // Matching runs on the line with its `\r` (ripgrep without --crlf).
        let spans: Vec<(usize, usize)> = self
            .regex
            .find_iter(line.as_bytes())
            .map(|m| (m.start(), m.end()))
            // ripgrep's quirk, kept for identical answers: on a last line without a final
            // newline, an empty match at the very end is not reported as a match, though the
            // line still matches.
            .filter(|&(s, e)| !(last && s == e && s == line.len()))
            .collect();
        if spans.is_empty() && !(last && self.regex.is_match(line.as_bytes())) {
            return;
        }
        found.line_count += 1;
        found.match_count += spans.len();
        if found.lines.len() < max_lines {
            found.lines.push(LineMatch {
                line_number: index + 1,
                text: line.to_string(),
                spans,
            });
        }
    }
}

/// What [`Pattern::search`] found in one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// The first matching lines.
    pub lines: Vec<LineMatch>,
    /// Matching lines in all.
    pub line_count: usize,
    /// Matches in all (several per line possible).
    pub match_count: usize,
}

/// Lines as ripgrep counts them: split at `\n`; a final line without `\n` counts; a trailing
/// `\n` does not start another line.
pub fn lines(content: &str) -> impl Iterator<Item = &str> {
    let body = content.strip_suffix('\n').unwrap_or(content);
    let empty = content.is_empty();
    body.split('\n').filter(move |_| !empty)
}

/// The character (Unicode scalar) column of byte offset `byte` in `line`: how many characters
/// start before it. (Like ripgrep, matching is on bytes, so an empty match can fall inside a
/// multi-byte character; it gets the column of the character after.)
pub fn char_column(line: &str, byte: usize) -> usize {
    line.char_indices().take_while(|(i, _)| *i < byte).count()
}

fn has_line_break(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => l.0.contains(&b'\n'),
        HirKind::Capture(c) => has_line_break(&c.sub),
        HirKind::Repetition(r) => r.min > 0 && has_line_break(&r.sub),
        HirKind::Concat(xs) => xs.iter().any(has_line_break),
        HirKind::Alternation(xs) => xs.iter().all(has_line_break),
        _ => false,
    }
}

/// Literals that every match of `hir` contains: the stretches of [`required_runs`]' runs
/// where each position is one byte (a class such as `[Dd]` ends a literal, as does anything
/// that is not a literal, a small class, a group or a mandatory repetition). The longest
/// three, longest first.
pub fn required_literals(hir: &Hir) -> Vec<String> {
    let mut out = Vec::new();
    for run in all_runs(hir) {
        for piece in run.split(|position| position.len() != 1) {
            let bytes: Vec<u8> = piece.iter().map(|p| p[0]).collect();
            if let Ok(s) = String::from_utf8(bytes)
                && !s.is_empty()
            {
                out.push(s);
            }
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out.dedup();
    out.truncate(3);
    out
}

/// Most alternatives a run position may have (`[Dd]` has 2; 4 keeps a trigram's variants ≤ 64).
const MAX_RUN_CHOICES: usize = 4;

/// Runs of byte positions that every match of `hir` contains, like [`required_literals`] but
/// also through small classes of single-byte characters — so `(?i)deprecated` (a concatenation
/// of `[Dd]`, `[Ee]`, …) still narrows candidates. A class with a multi-byte member (`(?i)k`
/// also matches the Kelvin sign) or more than [`MAX_RUN_CHOICES`] members ends the run. The
/// longest three runs (by positions) are kept.
pub fn required_runs(hir: &Hir) -> Vec<Run> {
    let mut out = all_runs(hir);
    out.sort_by_key(|r| std::cmp::Reverse(r.len()));
    out.dedup();
    out.truncate(3);
    out
}

/// Every run of `hir`, in pattern order.
fn all_runs(hir: &Hir) -> Vec<Run> {
    let mut out = Vec::new();
    let mut run = Vec::new();
    collect_runs(hir, &mut run, &mut out);
    flush_run(&mut run, &mut out);
    out
}

fn flush_run(run: &mut Run, out: &mut Vec<Run>) {
    if !run.is_empty() {
        out.push(std::mem::take(run));
    }
}

/// The bytes a class may match at one position, if it matches only single bytes and few.
fn class_bytes(class: &regex_syntax::hir::Class) -> Option<Vec<u8>> {
    use regex_syntax::hir::Class;
    let mut bytes = Vec::new();
    match class {
        Class::Unicode(c) => {
            for r in c.ranges() {
                for ch in r.start()..=r.end() {
                    if !ch.is_ascii() || bytes.len() >= MAX_RUN_CHOICES {
                        return None;
                    }
                    bytes.push(ch as u8);
                }
            }
        }
        Class::Bytes(c) => {
            for r in c.ranges() {
                for b in r.start()..=r.end() {
                    if bytes.len() >= MAX_RUN_CHOICES {
                        return None;
                    }
                    bytes.push(b);
                }
            }
        }
    }
    (!bytes.is_empty()).then_some(bytes)
}

fn collect_runs(hir: &Hir, run: &mut Run, out: &mut Vec<Run>) {
    match hir.kind() {
        HirKind::Literal(l) => run.extend(l.0.iter().map(|b| vec![*b])),
        HirKind::Class(c) => match class_bytes(c) {
            Some(bytes) => run.push(bytes),
            None => flush_run(run, out),
        },
        HirKind::Capture(c) => collect_runs(&c.sub, run, out),
        HirKind::Concat(xs) => {
            for x in xs {
                collect_runs(x, run, out);
            }
        }
        HirKind::Repetition(r) if r.min >= 1 => {
            collect_runs(&r.sub, run, out);
            if r.max != Some(1) {
                flush_run(run, out);
            }
        }
        HirKind::Look(_) => {}
        _ => flush_run(run, out),
    }
}

/// Matching lines listed per file (the counts cover all).
pub const MAX_LINES_PER_FILE: usize = 20;
/// Longest line text returned (longer lines are cut around the first match).
pub const MAX_LINE_CHARS: usize = 400;

/// One verified file, as `grep_search` reports it (docs/tools.md, "grep_search").
pub struct FileHit<'a> {
    /// The data source reference object (`{id, name, type}`).
    pub data_source: &'a serde_json::Value,
    pub identifier: &'a str,
    pub path: &'a str,
    pub content: &'a str,
    pub found: &'a Found,
    /// The file name matches the query.
    pub named: bool,
    /// Lines of context around each match (0 = none).
    pub context: usize,
    /// The query, for the description of a file that only matches by name.
    pub query: &'a str,
}

impl FileHit<'_> {
    /// The result object. Built here rather than in the server because the engine is compiled
    /// optimised even in the README's debug build, and building these objects for hundreds of
    /// files (serde_json's map inserts, column arithmetic, clipping) was a third of a selective
    /// grep at opt-level 0.
    ///
    /// Its `<result>` block of the XML rendering (docs/tools.md) is appended to `rendered`, from
    /// the same values (reading them back out of the JSON was a map lookup per field).
    pub fn to_json(&self, rendered: &mut String) -> serde_json::Value {
        use serde_json::json;
        let Found {
            lines,
            line_count,
            match_count,
        } = self.found;
        let all: Vec<&str> = if self.context > 0 {
            self::lines(self.content).collect()
        } else {
            Vec::new()
        };
        let matched: Vec<u64> = lines.iter().map(|l| l.line_number).collect();
        let start = lines
            .first()
            .map(|m| {
                let s = m.spans.first().map(|s| s.0).unwrap_or(m.text.len());
                (m.line_number, char_column(&m.text, s))
            })
            .unwrap_or((1, 0));
        let end = lines
            .last()
            .map(|m| {
                let (_, e) = *m.spans.last().unwrap_or(&(m.text.len(), m.text.len()));
                (m.line_number, char_column(&m.text, e))
            })
            .unwrap_or((1, 0));
        let language = crate::lang::Lang::detect_in(self.path, self.content)
            .map(|l| l.name())
            .unwrap_or("text");
        let plural =
            |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        let summary = if *line_count > 0 {
            format!(
                "{match_count} match{} on {line_count} line{} of a {language} file{}",
                plural(*match_count, "", "es"),
                plural(*line_count, "", "s"),
                if *line_count > lines.len() {
                    format!(" (first {} lines listed)", lines.len())
                } else {
                    String::new()
                }
            )
        } else {
            "the file name matches; no line does".to_string()
        };
        rendered.push_str(&format!(
            "<result{}>\n",
            crate::render::attrs(&[
                ("identifier", Some(self.identifier)),
                ("path", Some(self.path)),
                ("source", self.data_source["name"].as_str()),
                ("match_count", Some(&match_count.to_string())),
            ])
        ));
        let matches: Vec<serde_json::Value> = lines
            .iter()
            .map(|m| match_json(m, &all, self.context, &matched, rendered))
            .collect();
        rendered.push_str("</result>\n");
        let mut v = json!({
            "kind": "file",
            "dataSource": self.data_source,
            "identifier": self.identifier,
            "location": {"path": self.path, "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}}},
            "score": *match_count as f64,
            "description": lines.first().map(|m| clip(m.text.trim(), 0)).unwrap_or_else(|| format!("file name matches '{}'", self.query)),
            "contentByteSize": self.content.len(),
            "startLine": start.0,
            "endLine": end.0,
            "matchCount": match_count,
            "matches": null,
            "matchedByName": self.named,
            "summary": summary,
        });
        // Moved in: `json!` would serialise a copy.
        v["matches"] = serde_json::Value::Array(matches);
        v
    }
}

/// `text` cut to [`MAX_LINE_CHARS`] characters around `start_char`, marked with `…`.
pub fn clip(text: &str, start_char: usize) -> String {
    if text.len() <= MAX_LINE_CHARS {
        return text.to_string(); // bytes ≥ characters
    }
    let n = text.chars().count();
    if n <= MAX_LINE_CHARS {
        return text.to_string();
    }
    let from = start_char
        .saturating_sub(MAX_LINE_CHARS / 4)
        .min(n - MAX_LINE_CHARS);
    let body: String = text.chars().skip(from).take(MAX_LINE_CHARS).collect();
    format!(
        "{}{body}{}",
        if from > 0 { "…" } else { "" },
        if from + MAX_LINE_CHARS < n { "…" } else { "" }
    )
}

/// One listed line as JSON; its `N: text` line of the XML rendering goes to `rendered`.
fn match_json(
    m: &LineMatch,
    all_lines: &[&str],
    context: usize,
    matched: &[u64],
    rendered: &mut String,
) -> serde_json::Value {
    let (s, e) = m
        .spans
        .first()
        .copied()
        .unwrap_or((m.text.len(), m.text.len()));
    let start = char_column(&m.text, s);
    let end = char_column(&m.text, e);
    let n = m.line_number as usize;
    let mut ctx_lines = Vec::new();
    if context > 0 {
        let lo = n.saturating_sub(context).max(1);
        let hi = (n + context).min(all_lines.len());
        for ln in lo..=hi {
            if ln != n && !matched.contains(&(ln as u64)) {
                let t = all_lines[ln - 1];
                ctx_lines.push(serde_json::json!({"lineNumber": ln, "lineText": clip(t.strip_suffix('\r').unwrap_or(t), 0)}));
            }
        }
    }
    let text = clip(m.text.strip_suffix('\r').unwrap_or(&m.text), start);
    rendered.push_str(&format!(
        "{}: {}\n",
        m.line_number,
        crate::render::xml_escape(&text)
    ));
    let mut v = serde_json::json!({
        "lineNumber": m.line_number,
        "startColumn": start,
        "endColumn": end,
        "lineText": text,
        "remark": if m.spans.len() > 1 { format!("{} matches on this line", m.spans.len()) } else { String::new() },
        "contextLines": null,
    });
    v["contextLines"] = serde_json::Value::Array(ctx_lines);
    v
}

/// The `<grep_search_results>` block (docs/tools.md, "grep_search") around `blocks`, the `<result>` blocks
/// [`FileHit::to_json`] wrote.
pub fn render_results(blocks: &str, count: usize, truncated: bool) -> String {
    format!(
        "<grep_search_results count=\"{count}\" truncated=\"{truncated}\">\n{blocks}</grep_search_results>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(p: &str) -> Vec<String> {
        Pattern::new(p, true).unwrap().required().to_vec()
    }

    #[test]
    fn required_literals_are_contained_in_every_match() {
        assert_eq!(req("fn main"), vec!["fn main"]);
        assert_eq!(req(r"fn\s+main"), vec!["main", "fn"]);
        assert_eq!(req("(?i)foo"), Vec::<String>::new());
        assert_eq!(req("foo|bar"), Vec::<String>::new());
        assert_eq!(req("a(bc)+d"), vec!["abc", "d"]);
        assert_eq!(req("x?yz"), vec!["yz"]);
        assert_eq!(req(r"^use std::"), vec!["use std::"]);
        assert_eq!(
            Pattern::new("a.b(", false).unwrap().required(),
            &["a.b(".to_string()]
        );
    }

    #[test]
    fn runs_go_through_small_single_byte_classes() {
        let runs = |p: &str| Pattern::new(p, true).unwrap().runs().to_vec();
        let b = |s: &str| s.bytes().map(|x| vec![x]).collect::<Run>();
        assert_eq!(runs("fn main"), vec![b("fn main")]);
        assert_eq!(
            runs("(?i)dep"),
            vec![vec![b"Dd".to_vec(), b"Ee".to_vec(), b"Pp".to_vec()]]
        );
        // (?i)k also matches U+212A (Kelvin sign): the run ends there.
        assert_eq!(runs("(?i)ok"), vec![vec![b"Oo".to_vec()]]);
        assert_eq!(runs("x[0-9]y"), vec![b("x"), b("y")]);
        assert_eq!(
            runs("ab[cd]e"),
            vec![vec![vec![b'a'], vec![b'b'], b"cd".to_vec(), vec![b'e']]]
        );
        assert!(runs("foo|bar").is_empty());
        assert!(runs("(?i)é").is_empty());
    }

    #[test]
    fn lines_and_columns_like_ripgrep() {
        let p = Pattern::new("b", false).unwrap();
        let f = p.search("ab\r\nb\nxb", 10);
        let (m, n) = (f.lines, f.line_count);
        assert_eq!(n, 3);
        assert_eq!(m[0].text, "ab\r");
        assert_eq!(m[0].spans, vec![(1, 2)]);
        assert_eq!(m[2].line_number, 3);
        // `$` does not match before `\r` (no --crlf), empty matches count.
        let m = Pattern::new("b$", true)
            .unwrap()
            .search("ab\r\nb\n", 10)
            .lines;
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].line_number, 2);
        let f = Pattern::new("^", true).unwrap().search("a\n\nb", 10);
        assert_eq!((f.line_count, f.match_count), (3, 3));
        // As ripgrep: `$` matches the unterminated last line but reports no match span.
        let f = Pattern::new("$", true).unwrap().search("ab\ncd", 10);
        assert_eq!((f.line_count, f.match_count), (2, 1));
        assert!(f.lines[1].spans.is_empty());
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("a\n").count(), 1);
        assert_eq!(char_column("héllo", 3), 2);
        assert_eq!(char_column("héllo", 2), 2);
    }

    #[test]
    fn refuses_line_breaks_and_bombs() {
        assert!(Pattern::new("a\nb", false).is_err());
        assert!(Pattern::new(r"a\nb", true).is_err());
        assert!(Pattern::new(r"(a{1000}){1000}", true).is_err());
        assert!(
            Pattern::new("(", true)
                .unwrap_err()
                .0
                .contains("invalid regex")
        );
        assert!(Pattern::new("(", false).is_ok());
    }
}
