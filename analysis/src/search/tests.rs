//! Tests of the search index: building, updating, reading back and ranking.

use super::*;

fn sym(name: &str, kind: &str, lines: (i64, i64)) -> SymbolInput {
    SymbolInput {
        identifier: format!("r::f.py::{name}"),
        kind: kind.into(),
        name: name.into(),
        qualified_name: name.into(),
        signature: format!("def {name}()"),
        summary: String::new(),
        start_line: lines.0,
        end_line: lines.1,
        ..Default::default()
    }
}

fn file(path: &str, content: &str, symbols: Vec<SymbolInput>) -> FileInput {
    FileInput {
        path: path.into(),
        identifier: format!("r::{path}"),
        language: "python".into(),
        lines: content.lines().count() as i64,
        bytes: content.len() as i64,
        content: content.into(),
        symbols,
        with_file_unit: true,
    }
}

fn build(files: &[FileInput]) -> SearchIndex {
    let mut b = Builder::new();
    b.add_files(&files[..1]).unwrap();
    b.add_files(&files[1..]).unwrap();
    SearchIndex::load(b.finish().unwrap().0).unwrap()
}

fn corpus() -> Vec<FileInput> {
    vec![
        file(
            "shapes.py",
            "class Rect:\n    def area(self):\n        return self.width * self.height\n\n    def scale(self, factor):\n        self.width *= factor\n",
            vec![
                sym("Rect", "class", (1, 6)),
                sym("area", "method", (2, 3)),
                sym("scale", "method", (5, 6)),
            ],
        ),
        file(
            "net/http.py",
            "def fetch_url(url):\n    connection = open_socket(url)\n    return connection.read()\n",
            vec![sym("fetch_url", "function", (1, 3))],
        ),
        file("README.md", "Shapes and sockets.\n", vec![]),
    ]
}

const ALL: Option<Admits<'static>> = None;

fn ask(ix: &SearchIndex, q: &str, k: usize) -> Vec<u32> {
    top(&[(ix, ALL)], &crate::text::query_terms(q), k)
        .into_iter()
        .map(|f| f.unit)
        .collect()
}

#[test]
fn bodies_names_and_abbreviations_are_found() {
    let ix = build(&corpus());
    // units: 0 shapes.py, 1 Rect, 2 area, 3 scale, 4 net/http.py, 5 fetch_url, 6 README.md
    assert_eq!(ix.units(), 7);
    assert!(ix.is_file(0) && !ix.is_file(1) && ix.is_file(6));
    assert_eq!(ix.path(5), "net/http.py");
    // The body of `area` (not its name) holds "width" and "height".
    assert_eq!(ask(&ix, "width times height", 1), vec![2]);
    // `scale`'s body is its own: the class keeps only what no method owns.
    assert_eq!(ask(&ix, "scale by a factor", 1), vec![3]);
    // "rectangle" reaches the abbreviation `Rect`.
    assert_eq!(ask(&ix, "rectangle", 1), vec![1]);
    assert_eq!(ask(&ix, "open a socket connection for a URL", 1), vec![5]);
    assert!(ask(&ix, "zebra", 10).is_empty());
    // A prefix one letter short is no abbreviation ("nothing" → `noth`, not `not`).
    assert_eq!(expansions("noth"), vec![("noth", 1.0)]);
    assert_eq!(expansions("rectangl")[1..3], [("rec", 0.5), ("rect", 0.5)]);
    assert_eq!(ix.document_frequency("width"), 3); // file, area, scale
}

#[test]
fn filters_and_statistics_span_indexes() {
    let files = corpus();
    let a = build(&files[..2]);
    let b = build(&files[2..]);
    let all = ALL;
    let not_net: Option<Admits> = Some(&|p: &str| !p.starts_with("net/"));
    let terms = crate::text::query_terms("open socket");
    let both = top(&[(&a, all), (&b, all)], &terms, 10);
    assert!(both.iter().any(|f| f.index == 1 && f.unit == 0), "{both:?}");
    let filtered = top(&[(&a, not_net), (&b, all)], &terms, 10);
    assert!(filtered.iter().all(|f| f.index == 1), "{filtered:?}");
    assert!(both.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn unit_records_read_back_as_the_rows_results_are_rendered_from() {
    let file = FileRecord {
        identifier: "o/r::src/ü.rs",
        path: "src/ü.rs",
        language: "rust",
        lines: 0,
        bytes: 5_000_000_000,
    };
    let symbol = SymbolRecord {
        identifier: "o/r::src/ü.rs::Wörter.zähle",
        path: "src/ü.rs",
        kind: "method",
        name: "zähle",
        qualified_name: "Wörter.zähle",
        start_line: 300,
        start_character: 4,
        end_line: 1 << 40,
        end_character: 0,
        signature: "fn zähle(&self, \"q\": &str) -> usize",
        summary: "",
        is_public: true,
        size: 127,
    };
    let mut frame = file.encode();
    frame.extend(symbol.encode());
    frame.extend(file.encode());
    let records = decode_records(&frame).unwrap();
    let expected = [
        serde_json::json!({"identifier": "o/r::src/ü.rs", "path": "src/ü.rs",
            "language": "rust", "lines": 0, "bytes": 5_000_000_000i64}),
        serde_json::json!({"identifier": "o/r::src/ü.rs::Wörter.zähle", "path": "src/ü.rs",
            "kind": "method", "name": "zähle", "qualified_name": "Wörter.zähle",
            "start_line": 300, "start_character": 4, "end_line": 1i64 << 40,
            "end_character": 0, "signature": "fn zähle(&self, \"q\": &str) -> usize",
            "summary": "", "is_public": true, "size": 127}),
    ];
    let got: Vec<Value> = records.into_iter().map(Value::Object).collect();
    assert_eq!(
        got,
        [&expected[0], &expected[1], &expected[0]].map(|v| v.clone())
    );
    let spans = record_spans(&frame).unwrap();
    assert_eq!(spans.len(), 3);
    assert_eq!(spans[0], 0..file.encode().len());
    assert_eq!(spans[2].end, frame.len());
    // Cut anywhere inside, a frame is an error, not a panic or a shorter list.
    for cut in 1..frame.len() {
        if spans.iter().any(|s| s.end == cut) {
            continue;
        }
        assert!(decode_records(&frame[..cut]).is_err(), "cut at {cut}");
    }
    assert!(decode_records(b"X").is_err());
}

#[test]
fn corrupt_bytes_are_an_error_not_a_panic() {
    let mut b = Builder::new();
    b.add_files(&corpus()).unwrap();
    let (bytes, _) = b.finish().unwrap();
    assert!(SearchIndex::load(bytes.clone()).is_ok());
    for cut in [0, 7, 8, 20, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            SearchIndex::load(bytes[..cut].to_vec()).is_err(),
            "cut {cut}"
        );
    }
    let mut flipped = bytes.clone();
    for i in (8..flipped.len()).step_by(7) {
        flipped[i] ^= 0xff;
        // Loading may fail or succeed; querying must never panic.
        if let Ok(ix) = SearchIndex::load(flipped.clone()) {
            ask(&ix, "width height socket rectangle", 5);
        }
    }
}

/// Equal scores rank by file path, whatever order the files were indexed in.
#[test]
fn ties_rank_by_path_not_by_indexing_order() {
    let twin = |path: &str| {
        file(
            path,
            "def frobnicate():\n    pass\n",
            vec![sym("frobnicate", "function", (1, 2))],
        )
    };
    let paths = |ix: &SearchIndex| -> Vec<String> {
        top(&[(ix, ALL)], &crate::text::query_terms("frobnicate"), 4)
            .iter()
            .map(|f| {
                format!(
                    "{}:{}",
                    ix.files[ix.units[f.unit as usize].file as usize], f.score
                )
            })
            .collect()
    };
    let ab = build(&[twin("a.py"), twin("b.py")]);
    let ba = build(&[twin("b.py"), twin("a.py")]);
    let (x, y) = (paths(&ab), paths(&ba));
    assert_eq!(x, y);
    assert!(
        x[0].starts_with("a.py:") && x[1].starts_with("b.py:"),
        "{x:?}"
    );
}

/// Posting lists spilled to a scratch file in runs and merged back give the index an
/// in-memory build gives, byte for byte — built fresh, or updated from a published index.
#[test]
fn a_spilling_build_is_an_in_memory_build() {
    let module = |i: usize| {
        let names: Vec<String> = (0..3).map(|j| format!("shape_{}_{j}", i % 4)).collect();
        let content: String = names
            .iter()
            .map(|n| format!("def {n}(x):\n    return x + {i} # area{}\n", i % 3))
            .collect();
        let syms = names
            .iter()
            .enumerate()
            .map(|(j, n)| sym(n, "function", (2 * j as i64 + 1, 2 * j as i64 + 2)))
            .collect();
        file(&format!("m{i}.py"), &content, syms)
    };
    let files: Vec<FileInput> = (0..10).map(module).collect();
    let build = |spill_at: Option<usize>| {
        let mut m = Merger::default();
        if let Some(at) = spill_at {
            m.spill_to(tempfile::tempfile().unwrap(), at).unwrap();
        }
        let mut b = Builder::merging_into(m);
        for f in files.chunks(3) {
            b.add_files(f).unwrap();
        }
        b.finish().unwrap()
    };
    let memory = build(None);
    for at in [1, 300] {
        assert!(
            build(Some(at)) == memory,
            "spilling at {at} bytes changed the index"
        );
    }
    // The merged runs really were spilled: the in-memory lists are empty after each file.
    let mut m = Merger::default();
    m.spill_to(tempfile::tempfile().unwrap(), 1).unwrap();
    m.merge(analyse(&files[0])).unwrap();
    assert!(m.postings.is_empty() && m.spill.as_ref().is_some_and(|s| !s.is_empty()));

    // An update: its kept lists streamed into a first run, held and spilled over budget,
    // or held throughout, give the same index.
    let ix = SearchIndex::load(memory.0.clone()).unwrap();
    let keep = |p: &str| p != "m4.py";
    let update = |streamed: bool, spill_at: Option<usize>| {
        let file = streamed.then(|| tempfile::tempfile().unwrap());
        let postings = |r| Ok(ix.held_postings(r)?.to_vec());
        let records = |r| Ok(slice_of(&memory.1, r)?.to_vec());
        let records = (memory.1.len() as u64, records);
        let mut m = Merger::from_index(&ix, postings, records, keep, None, file).unwrap();
        if streamed {
            assert!(m.postings.is_empty() && m.spill.as_ref().is_some_and(|s| !s.is_empty()));
        }
        if let Some(at) = spill_at {
            m.spill_to(tempfile::tempfile().unwrap(), at).unwrap();
        }
        let mut b = Builder::merging_into(m);
        b.add_files(&[module(4), module(11)]).unwrap();
        b.finish().unwrap()
    };
    let held = update(false, None);
    assert!(update(false, Some(1)) == held);
    assert!(update(true, None) == held);
}

/// An index updated in place (a file deleted, one changed, one added) ranks, scores and
/// renders exactly as a fresh build over the same files in the same order.
#[test]
fn an_updated_index_answers_as_a_fresh_build() {
    let module = |i: usize, word: &str| {
        let names: Vec<String> = (0..5).map(|j| format!("{word}_{i}_{j}")).collect();
        let content: String = names
            .iter()
            .map(|n| format!("def {n}(x):\n    return x + {i}\n"))
            .collect();
        let syms = names
            .iter()
            .enumerate()
            .map(|(j, n)| {
                let mut s = sym(n, "function", (2 * j as i64 + 1, 2 * j as i64 + 2));
                s.identifier = format!("r::m{i}.py::{n}");
                s
            })
            .collect();
        file(&format!("m{i}.py"), &content, syms)
    };
    let old: Vec<FileInput> = (0..12).map(|i| module(i, "shape")).collect();
    let mut b = Builder::new();
    b.add_files(&old).unwrap();
    let (index, records) = b.finish().unwrap();
    let ix = SearchIndex::load(index).unwrap();
    assert_eq!(ix.units(), 72);

    // m2.py deleted, m5.py changed (its units go, the new ones follow), m12.py added: the
    // first three frames (16 units each) are cut into, the last two copied.
    let (changed, added) = (module(5, "socket"), module(12, "socket"));
    // Updated through scratch files (as `quarry index` does), the fresh one in memory.
    let keep = |p: &str| p != "m2.py" && p != "m5.py";
    let sink = tempfile::tempfile().unwrap();
    let mut b = Builder::from_index(&ix, &records, keep, Some(sink), None).unwrap();
    b.add_files(&[changed.clone(), added.clone()]).unwrap();
    let (index, units) = b.finish_spooled(tempfile::tempfile().unwrap()).unwrap();
    let (index2, units2) = (read_whole(index), read_whole(units));
    let mut fresh: Vec<FileInput> = old
        .into_iter()
        .filter(|f| f.path != "m2.py" && f.path != "m5.py")
        .collect();
    fresh.extend([changed, added]);
    let mut b = Builder::new();
    b.add_files(&fresh).unwrap();
    let (index3, units3) = b.finish().unwrap();

    let (a, f) = (
        SearchIndex::load(index2).unwrap(),
        SearchIndex::load(index3).unwrap(),
    );
    assert_eq!(a.units(), 72);
    assert_eq!((&a.files, a.avg, a.terms), (&f.files, f.avg, f.terms));
    for (x, y) in a.units.iter().zip(&f.units) {
        assert_eq!((x.file, x.len, x.is_file), (y.file, y.len, y.is_file));
    }
    for t in 0..f.terms {
        assert_eq!(a.text(t), f.text(t));
        assert_eq!(a.posting_bytes(t), f.posting_bytes(t), "term {t}");
    }
    assert!(!a.files.iter().any(|p| p == "m2.py"));
    for q in ["socket 5", "shape return", "socket_12_3", "m7 shape_7_4"] {
        let (x, y) = (
            top(&[(&a, ALL)], &crate::text::query_terms(q), 10),
            top(&[(&f, ALL)], &crate::text::query_terms(q), 10),
        );
        assert!(!x.is_empty() && x == y, "{q}: {x:?} vs {y:?}");
    }
    let every: Vec<u32> = (0..72).collect();
    assert_eq!(
        records_of(&a, &units2, &every),
        records_of(&f, &units3, &every)
    );
    // Records that do not hold the frames are an error, not a panic.
    assert!(Builder::from_index(&ix, &records[..10], |p| p != "m0.py", None, None).is_err());

    // The same update from the published index's head alone, its lists and records read
    // a range at a time (as `quarry index` reads them from the store), with and without
    // the kept lists streamed into a first run: the same index, byte for byte.
    let published = ix.bytes.clone();
    let head_len = SearchIndex::head_len(&published).unwrap().unwrap();
    let head = SearchIndex::load_head(published[..head_len].to_vec(), published.len() as u64);
    let head = head.unwrap();
    assert!(head.posting_bytes(0).is_empty(), "a head holds no lists");
    for streamed in [false, true] {
        let reads = std::cell::Cell::new(0);
        let postings = |r: std::ops::Range<u64>| {
            reads.set(reads.get() + 1);
            Ok(published[head_len + r.start as usize..head_len + r.end as usize].to_vec())
        };
        let read_records = |r: std::ops::Range<u64>| {
            reads.set(reads.get() + 1);
            Ok(records[r.start as usize..r.end as usize].to_vec())
        };
        let spill = streamed.then(|| tempfile::tempfile().unwrap());
        let mut b = Builder::from_index_reading(
            &head,
            postings,
            (records.len() as u64, read_records),
            keep,
            Some(tempfile::tempfile().unwrap()),
            spill,
        )
        .unwrap();
        // The lists in one read (one slice of terms), the records in one window.
        assert_eq!(reads.get(), 2);
        b.add_files(&[module(5, "socket"), module(12, "socket")])
            .unwrap();
        let (index, units) = b.finish_spooled(tempfile::tempfile().unwrap()).unwrap();
        assert!(read_whole(index) == a.bytes && read_whole(units) == units2);
    }
}

/// A head's length is known from a prefix of an index, read longer as it asks; any prefix
/// shorter than the head asks for more, and a truncated or foreign head is an error.
#[test]
fn a_search_index_head_is_read_from_a_growing_prefix() {
    let files: Vec<FileInput> = (0..5)
        .map(|i| {
            let name = format!("handler_{i}");
            let mut s = sym(&name, "function", (1, 2));
            s.identifier = format!("r::h{i}.py::{name}");
            file(
                &format!("h{i}.py"),
                &format!("def {name}():\n    pass\n"),
                vec![s],
            )
        })
        .collect();
    let mut b = Builder::new();
    b.add_files(&files).unwrap();
    let bytes = b.finish().unwrap().0;
    let full = SearchIndex::load(bytes.clone()).unwrap();
    let head = full.postings;
    assert!(head < bytes.len());
    for cut in 0..=bytes.len() {
        match SearchIndex::head_len(&bytes[..cut]).unwrap() {
            Ok(n) => assert!(n == head && cut >= full.texts, "{cut}"),
            Err(more) => assert!(more > cut && more <= full.texts, "{cut}: {more}"),
        }
    }
    // Read as `quarry index` reads it: a prefix, then as much more as it asks.
    let mut prefix = bytes[..3].to_vec();
    let n = loop {
        match SearchIndex::head_len(&prefix).unwrap() {
            Ok(n) => break n,
            Err(more) => prefix = bytes[..more].to_vec(),
        }
    };
    let ix = SearchIndex::load_head(bytes[..n].to_vec(), bytes.len() as u64).unwrap();
    assert_eq!(
        (ix.files.clone(), ix.terms),
        (full.files.clone(), full.terms)
    );
    // A head shorter than it says, one of a shorter object, or not an index: errors.
    assert!(SearchIndex::load_head(bytes[..n - 1].to_vec(), bytes.len() as u64).is_err());
    assert!(SearchIndex::load_head(bytes[..n].to_vec(), n as u64 - 1).is_err());
    let mut foreign = bytes.clone();
    foreign[0] ^= 1;
    assert!(SearchIndex::head_len(&foreign).is_err());
}

/// A spooled object's bytes.
fn read_whole(mut f: std::fs::File) -> Vec<u8> {
    use std::io::{Read, Seek};
    f.seek(std::io::SeekFrom::Start(0)).unwrap();
    let mut v = Vec::new();
    f.read_to_end(&mut v).unwrap();
    v
}

/// The records of `units` read from a whole `.units` object, as the store's ranged reads
/// would return them.
fn records_of(ix: &SearchIndex, object: &[u8], units: &[u32]) -> Vec<Map<String, Value>> {
    let (wanted, ranges) = ix.unit_frames(units).unwrap();
    let bytes = ranges
        .iter()
        .map(|r| bytes::Bytes::copy_from_slice(&object[r.start as usize..r.end as usize]))
        .collect();
    ix.records(units, wanted, bytes).unwrap()
}

#[test]
fn one_files_tokens_are_bounded() {
    assert_eq!(bounded_prefix("ab\ncd\n", 4), "ab\n");
    assert_eq!(bounded_prefix("abcdef", 3), "abc");
    assert_eq!(bounded_prefix("é", 1), "");
    assert_eq!(bounded_prefix("short", 100), "short");
}
