//! Single-thread cost of analysis, split into tree-sitter's parse and Quarry's walk over the
//! tree (symbols, edges, complexity), with a fingerprint of every analysis to check that a
//! change to the walk leaves its output identical.
//!
//! ```sh
//! cargo build --example analyze_bench -p quarry-analysis
//! $CARGO_TARGET_DIR/debug/examples/analyze_bench DIR            # timings
//! FINGERPRINT=1 $CARGO_TARGET_DIR/debug/examples/analyze_bench DIR  # and fingerprints (of
//!                                                  # the analyses, and of the syntax trees)
//! FINGERPRINT=1 FINGERPRINT_FILES=F …/analyze_bench DIR  # and one per file, to F
//! RATES=1 …/analyze_bench DIR 2>rates  # per file: "RATE bytes parse_ns analysis_ns error path"
//! DUMP=1 …/analyze_bench DIR 2>dump   # and each file's symbols and edges, one per line
//! ERRORS=1 …/analyze_bench DIR        # and where each tree's syntax errors are, on stderr
//! SEXP=1 …/analyze_bench DIR           # and each file's syntax tree (s-expression, with field
//!                                      # names) on stderr: what a rule sees
//! ANALYZE_ONLY=1 …/analyze_bench DIR   # no separate parse: only what an index runs (for a
//!                                      # profile: the separate parse's tree is freed node by
//!                                      # node, an index's lives in the arena)
//! ```
//!
//! (`error` is 1 when the tree has a syntax error: `RATES` is for finding whether a few files,
//! slow to parse or recovering from errors, take much of the time; docs/benchmarks.md.)
//!
//! Files are every file under DIR (hidden and git-ignored ones too) with a grammar, up to 1 MiB, read whole before timing starts. The
//! fingerprint hashes the `Debug` form of each file's analysis (and costs time itself). The
//! five files whose analysis took longest are listed.
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::time::{Duration, Instant};

use quarry_analysis::{analyze, lang::Lang};

// The allocator of the `quarry` binary, so allocation costs as there.
use quarry_alloc as _;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: analyze_bench DIR");
        std::process::exit(2);
    };
    let mut files = vec![];
    let mut paths = vec![];
    for entry in ignore::WalkBuilder::new(&dir)
        .hidden(false)
        .git_ignore(false)
        .build()
        .flatten()
    {
        let path = entry.path();
        if Lang::detect(&path.to_string_lossy()).is_none() {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        // As the index detects it: a `.h` header is C++ when its text is.
        let Some(lang) = Lang::detect_in(&path.to_string_lossy(), &src) else {
            continue;
        };
        if lang.grammar().is_none() {
            continue;
        }
        if src.len() <= 1 << 20 {
            files.push((lang, src));
            paths.push(path.display().to_string());
        }
    }
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    println!("{} files, {:.1} MB", files.len(), bytes as f64 / 1e6);

    // Each file is parsed alone, then analysed (which parses it again), one after the other,
    // so both timings see the same caches and clock; the walk is the difference.
    let fingerprint = std::env::var_os("FINGERPRINT").is_some();
    let analyze_only = std::env::var_os("ANALYZE_ONLY").is_some();
    // With FINGERPRINT_FILES=F too, each file's own fingerprint goes to F ("hash path" lines),
    // so two builds' lists can be compared (`diff`) to find the files whose analysis changed.
    let mut per_file = std::env::var_os("FINGERPRINT_FILES").map(|f| {
        std::io::BufWriter::new(std::fs::File::create(f).expect("creating FINGERPRINT_FILES"))
    });
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut tree_hasher = std::collections::hash_map::DefaultHasher::new();
    let mut parser = tree_sitter::Parser::new();
    let (mut parse, mut all) = (Duration::ZERO, Duration::ZERO);
    let (mut nodes, mut symbols, mut edges, mut complexity) = (0, 0, 0, 0u64);
    let mut slowest: Vec<(Duration, Duration, &str)> = vec![];
    // Per language: files, bytes, parse time, analysis time (parse + walk).
    let mut by_lang: std::collections::BTreeMap<String, (usize, usize, Duration, Duration)> =
        Default::default();
    for ((lang, src), path) in files.iter().zip(&paths) {
        let start = Instant::now();
        let grammar = lang.grammar().expect("filtered above");
        parser.set_language(&grammar).expect("a bundled grammar");
        let mut err = false;
        // What the analysis parses (C and C++ annotation macros blanked out).
        let tree = if analyze_only {
            None
        } else {
            parser.parse(&analyze::parsed_text(*lang, src), None)
        };
        let parsed = start.elapsed();
        parse += parsed;
        if let Some(tree) = &tree {
            if std::env::var_os("ERRORS").is_some() {
                print_errors(tree.root_node(), src, path);
            }
            if std::env::var_os("SEXP").is_some() {
                eprintln!("{path}\n{}", tree.root_node().to_sexp());
            }
            nodes += tree.root_node().descendant_count();
            err = tree.root_node().has_error();
            if fingerprint {
                hash_tree(tree, &mut tree_hasher);
            }
        }
        let start = Instant::now();
        let a = analyze::analyze(*lang, src);
        let analysed = start.elapsed();
        all += analysed;
        slowest.push((analysed, parsed, path));
        if std::env::var_os("DUMP").is_some() {
            for s in &a.symbols {
                eprintln!(
                    "{path}: S {}:{} {} {} | {} | doc {:?}",
                    s.start_line,
                    s.start_character,
                    s.kind,
                    s.qualified_name,
                    s.signature,
                    s.doc
                        .as_deref()
                        .map(|d| d.chars().take(100).collect::<String>())
                );
            }
            for e in &a.edges {
                eprintln!(
                    "{path}: E {}:{} {:?} {:?} -> {} ({:?})",
                    e.line, e.character, e.kind, e.source, e.target_name, e.qualifier
                );
            }
        }
        if std::env::var_os("RATES").is_some() {
            eprintln!(
                "RATE {} {} {} {} {}",
                src.len(),
                parsed.as_nanos(),
                analysed.as_nanos(),
                err as u8,
                path
            );
        }
        let row = by_lang.entry(format!("{lang:?}")).or_default();
        *row = (
            row.0 + 1,
            row.1 + src.len(),
            row.2 + parsed,
            row.3 + analysed,
        );
        symbols += a.symbols.len();
        edges += a.edges.len();
        complexity += a
            .symbols
            .iter()
            .filter_map(|s| s.complexity)
            .map(u64::from)
            .sum::<u64>();
        if fingerprint {
            let text = format!("{a:?}");
            text.hash(&mut hasher);
            if let Some(out) = &mut per_file {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                text.hash(&mut h);
                writeln!(out, "{:016x} {path}", h.finish()).expect("writing FINGERPRINT_FILES");
            }
        }
    }
    println!(
        "parse {:.2} s ({nodes} nodes); analyse {:.2} s ({symbols} symbols, {edges} edges, \
         complexity sum {complexity}); walk {:.2} s",
        parse.as_secs_f64(),
        all.as_secs_f64(),
        all.saturating_sub(parse).as_secs_f64()
    );
    for (lang, (n, b, p, a)) in &by_lang {
        println!(
            "  {lang}: {n} files, {:.1} MB; parse {:.2} s ({:.1} MB/s), walk {:.2} s",
            *b as f64 / 1e6,
            p.as_secs_f64(),
            *b as f64 / 1e6 / p.as_secs_f64().max(1e-9),
            a.saturating_sub(*p).as_secs_f64()
        );
    }
    slowest.sort_by(|a, b| b.0.cmp(&a.0));
    for (analysed, parsed, path) in slowest.iter().take(5) {
        println!(
            "  slowest: {path}: analysis {:.3} s (parse {:.3} s)",
            analysed.as_secs_f64(),
            parsed.as_secs_f64()
        );
    }
    if fingerprint {
        println!("fingerprint {:016x}", hasher.finish());
        println!("tree fingerprint {:016x}", tree_hasher.finish());
    }
}

/// Hashes every node of a syntax tree, in order: its kind, field, flags and byte range. Two
/// builds of tree-sitter that give the same hash over a corpus built the same trees (the
/// analysis fingerprint sees only what the walk reads; third_party/tree-sitter/QUARRY.md).
fn hash_tree(tree: &tree_sitter::Tree, hasher: &mut impl Hasher) {
    analyze::each_node(tree, |cursor| {
        let node = cursor.node();
        (
            node.kind_id(),
            cursor.field_id().map(|f| f.get()),
            node.is_named(),
            node.is_extra(),
            node.is_missing(),
            node.is_error(),
            node.has_error(),
            node.parse_state(),
            node.byte_range(),
        )
            .hash(hasher);
    });
}

/// Each syntax error of a tree (an `ERROR` node, or a node tree-sitter inserted as missing):
/// "path:line:column ERROR text", outermost errors only.
fn print_errors(root: tree_sitter::Node, src: &str, path: &str) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            let p = n.start_position();
            let text: String = src[n.byte_range()].chars().take(80).collect();
            let kind = if n.is_missing() { "MISSING" } else { "ERROR" };
            eprintln!(
                "{path}:{}:{} {kind} {}",
                p.row + 1,
                p.column + 1,
                text.replace('\n', "⏎")
            );
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            let children: Vec<_> = n.children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
}
