//! Tests of the trigram index: equal builds, candidates that never drop a match.

use super::*;

fn index(files: &[(&str, &str)]) -> TrigramIndex {
    let mut b = Builder::new();
    let batch: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (*p, c.as_bytes())).collect();
    b.add_batch(&batch[..1]).unwrap();
    b.add_batch(&batch[1..]).unwrap();
    TrigramIndex::load(b.finish().0).unwrap()
}

/// A batch larger than [`PARALLEL_BYTES`] is added in parts, and the index is byte for
/// byte what adding its files one at a time gives; a file larger than a part is a part
/// of its own.
#[test]
fn a_batch_added_in_parts_gives_the_same_index() {
    let files: Vec<(String, String)> = (0..40)
        .map(|i| {
            let n = if i == 7 {
                PARALLEL_BYTES + 3
            } else {
                40_000 + i * 997
            };
            let body: String = (0..n)
                .map(|j| (b'a' + ((i * 7 + j * j) % 26) as u8) as char)
                .collect();
            (format!("f{i}.rs"), body)
        })
        .collect();
    let batch: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_bytes()))
        .collect();
    assert!(batch.iter().map(|(_, c)| c.len()).sum::<usize>() > 2 * PARALLEL_BYTES);
    let mut whole = Builder::new();
    whole.add_batch(&batch).unwrap();
    let mut one_by_one = Builder::new();
    for file in &batch {
        one_by_one.add_batch(std::slice::from_ref(file)).unwrap();
    }
    let (a, b) = (whole.finish(), one_by_one.finish());
    assert_eq!(a.0, b.0, "the index");
    assert_eq!(a.1, b.1, "the contents");
    let ix = TrigramIndex::load(a.0).unwrap();
    assert_eq!(ix.paths().len(), 40);
}

#[test]
fn candidates_hold_every_trigram_of_every_literal() {
    let ix = index(&[
        ("a.rs", "fn main() { println!(\"hello\"); }"),
        ("b.rs", "fn helper() -> u32 { 42 }"),
        ("c.py", "def hello():\n    return 'world'\n"),
        ("d.txt", ""),
    ]);
    assert_eq!(ix.paths(), ["a.rs", "b.rs", "c.py", "d.txt"]);
    assert_eq!(ix.candidates(&["hello".into()]), Some(vec![0, 2]));
    assert_eq!(ix.candidates(&["hel".into()]), Some(vec![0, 1, 2]));
    assert_eq!(
        ix.candidates(&["fn ".into(), "42".into()]),
        Some(vec![0, 1])
    );
    assert_eq!(ix.candidates(&["Hello".into()]), Some(vec![]));
    assert_eq!(ix.candidates(&["zz".into()]), None);
    // Alternatives per position: "[Hh]el" and "[Ff]n " — case-insensitive prefixes.
    let hel = vec![b"Hh".to_vec(), vec![b'e'], vec![b'l']];
    assert_eq!(ix.candidates_of_runs(&[hel]), Some(vec![0, 1, 2]));
    let fn_ = vec![b"Ff".to_vec(), b"Nn".to_vec(), vec![b' ']];
    assert_eq!(ix.candidates_of_runs(&[fn_]), Some(vec![0, 1]));
    assert_eq!(ix.candidates(&[]), None);
}

#[test]
fn masks_drop_files_whose_trigrams_do_not_line_up() {
    let ix = index(&[
        // Every trigram of the literal, but never together.
        (
            "apart.rs",
            "unreachable!(); x.get_unchecked(0); unreachable_u; nchecked",
        ),
        // The literal, at a position past the first 8 bytes (the position mask wraps).
        ("real.rs", "0123456789 unsafe { unreachable_unchecked() }"),
        // The literal at the very end: its last trigram has no next byte.
        ("end.rs", "unreachable_unchecked"),
    ]);
    assert_eq!(
        ix.candidates(&["unreachable_unchecked".into()]),
        Some(vec![1, 2])
    );
    // The next-byte mask: "abc" is followed by 'x' only, so "abcd" cannot occur.
    let ix = index(&[("a", "abcx abd bcd"), ("b", "zabcd")]);
    assert_eq!(ix.candidates(&["abcd".into()]), Some(vec![1]));
    // Alternatives (a case-insensitive run) or their masks together.
    let run = vec![
        b"Uu".to_vec(),
        b"Nn".to_vec(),
        b"Ss".to_vec(),
        b"Aa".to_vec(),
    ];
    let ix = index(&[("a", "UNSAFE"), ("b", "Unsafe"), ("c", "uns afe")]);
    assert_eq!(ix.candidates_of_runs(&[run]), Some(vec![0, 1]));
}

/// A property check against a scan: for generated files and every substring literal of
/// them, the candidates include every file that really contains it.
#[test]
fn never_drops_a_true_match() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = "abcAB_ (){}\n\r\té€";
    let chars: Vec<char> = alphabet.chars().collect();
    let files: Vec<(String, String)> = (0..40)
        .map(|i| {
            let n = (next() % 200) as usize;
            let s: String = (0..n)
                .map(|_| chars[(next() % chars.len() as u64) as usize])
                .collect();
            (format!("f{i}"), s)
        })
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let ix = index(&refs);
    for (_, content) in &files {
        let cs: Vec<char> = content.chars().collect();
        for _ in 0..20 {
            if cs.is_empty() {
                break;
            }
            let a = (next() % cs.len() as u64) as usize;
            let b = (a + 1 + (next() % 8) as usize).min(cs.len());
            let lit: String = cs[a..b].iter().collect();
            let truth: Vec<u32> = files
                .iter()
                .enumerate()
                .filter(|(_, (_, c))| c.contains(&lit))
                .map(|(i, _)| i as u32)
                .collect();
            match ix.candidates(std::slice::from_ref(&lit)) {
                None => assert!(lit.len() < 3),
                Some(c) => {
                    for t in &truth {
                        assert!(c.contains(t), "{lit:?} in file {t} but not a candidate");
                    }
                }
            }
        }
    }
}

/// Starting from a published index, dropping and appending files, gives byte for byte
/// what a fresh build over the same files in the same order gives.
#[test]
fn a_spilling_build_is_an_in_memory_build() {
    let files: Vec<(String, String)> = (0..60)
        .map(|i| {
            let words: String = (0..i % 7 + 1)
                .map(|j| format!("w{} ", (i * j) % 13))
                .collect();
            (
                format!("f{i}.rs"),
                format!("fn f{i}() {{ {words} }}\n{}", "ab".repeat(i)),
            )
        })
        .collect();
    let batches: Vec<Vec<(&str, &[u8])>> = files
        .chunks(7)
        .map(|c| c.iter().map(|(p, t)| (p.as_str(), t.as_bytes())).collect())
        .collect();
    let build_with = |spill: Option<usize>, run_docs: Option<u32>| {
        let mut b = Builder::new();
        if let Some(at) = spill {
            b.spill_to(tempfile::tempfile().unwrap()).unwrap();
            b.spill_at = at;
        }
        b.run_docs = run_docs;
        for batch in &batches {
            b.add_batch(batch).unwrap();
        }
        let spilled = b.spill.as_ref().is_some_and(|s| !s.is_empty());
        (b.finish(), spilled)
    };
    let build = |spill: Option<usize>| build_with(spill, None);
    let (memory, spilled) = build(None);
    assert!(!spilled);
    // Spilling after every batch, and after some.
    for at in [1, 600] {
        let (spilled_build, spilled) = build(Some(at));
        assert!(spilled, "the budget of {at} bytes should have spilled");
        assert!(
            spilled_build == memory,
            "spilling at {at} bytes changed the index"
        );
    }
    // Pending postings that reach the documents a run may span end a run there (mid-batch,
    // the batches being of 7), spilled or folded into the lists held.
    for run_docs in [1, 3, 10] {
        let (spilled_build, spilled) = build_with(Some(usize::MAX), Some(run_docs));
        assert!(spilled, "runs of {run_docs} documents should have spilled");
        assert!(spilled_build == memory, "runs of {run_docs} documents");
        assert!(build_with(None, Some(run_docs)).0 == memory);
    }
    // An update that starts over budget spills its kept lists first.
    let (grams, texts) = memory;
    let ix = TrigramIndex::load(grams).unwrap();
    let keep = |p: &str| p != "f3.rs";
    let mut sink = Vec::new();
    let mut b = Builder::from_index(&ix, &texts, keep, &mut sink, None).unwrap();
    b.spill_to(tempfile::tempfile().unwrap()).unwrap();
    b.spill_at = 1;
    // Or the kept lists written straight into the first run.
    let spill = Some(tempfile::tempfile().unwrap());
    let mut direct = Builder::from_index(&ix, &texts, keep, &mut Vec::new(), spill).unwrap();
    assert!(direct.postings.is_empty());
    let mut plain = Builder::from_index(&ix, &texts, keep, &mut Vec::new(), None).unwrap();
    let added: &[(&str, &[u8])] = &[("f3.rs", b"fn changed() {}")];
    b.add_batch(added).unwrap();
    direct.add_batch(added).unwrap();
    plain.add_batch(added).unwrap();
    let plain = plain.finish().0;
    assert!(b.finish().0 == plain);
    assert!(direct.finish().0 == plain);
}

#[test]
fn an_updated_index_is_a_fresh_build_of_the_same_files() {
    let build = |files: &[(&str, &str)]| {
        let mut b = Builder::new();
        let batch: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (*p, c.as_bytes())).collect();
        b.add_batch(&batch).unwrap();
        b.finish()
    };
    let old = [
        ("a.rs", "fn alpha() { beta(); }"),
        ("b.rs", "fn beta() -> u32 { 42 }"),
        ("c.py", "def gamma():\n    return 'delta'\n"),
        ("d.txt", "alpha beta gamma"),
        ("e.md", ""),
    ];
    let (grams, texts) = build(&old);
    let ix = TrigramIndex::load(grams).unwrap();
    // b.rs deleted, c.py changed (its old row goes, the new one is appended), f.go added.
    // The contents stream to a writer: kept frames as they are copied, new ones drained
    // after each batch (as `quarry index` does), the rest at the end.
    let mut updated = (Vec::new(), Vec::new());
    let keep = |p: &str| p != "b.rs" && p != "c.py";
    let spill = Some(tempfile::tempfile().unwrap());
    let mut b = Builder::from_index(&ix, &texts, keep, &mut updated.1, spill).unwrap();
    b.add_batch(&[("c.py", b"def gamma():\n    return 'epsilon'\n".as_slice())])
        .unwrap();
    b.drain_texts(&mut updated.1).unwrap();
    b.add_batch(&[("f.go", b"func alpha() int { return 7 }".as_slice())])
        .unwrap();
    b.finish_to(&mut updated.0, &mut updated.1).unwrap();
    let fresh = build(&[
        ("a.rs", old[0].1),
        ("d.txt", old[3].1),
        ("e.md", old[4].1),
        ("c.py", "def gamma():\n    return 'epsilon'\n"),
        ("f.go", "func alpha() int { return 7 }"),
    ]);
    assert!(
        updated == fresh,
        "the updated index differs from a fresh build"
    );
    let ix = TrigramIndex::load(updated.0).unwrap();
    assert_eq!(ix.candidates(&["alpha".into()]), Some(vec![0, 1, 4]));
    assert_eq!(ix.candidates(&["delta".into()]), Some(vec![]));
    // Keeping nothing is an index of the added files alone.
    let spill = Some(tempfile::tempfile().unwrap());
    let b = Builder::from_index(&ix, &fresh.1, |_| false, &mut Vec::new(), spill).unwrap();
    assert_eq!(TrigramIndex::load(b.finish().0).unwrap().paths().len(), 0);
    // A contents object that does not hold the frames is an error, not a panic.
    assert!(Builder::from_index(&ix, &fresh.1[..10], |_| true, &mut Vec::new(), None).is_err());
}

#[test]
fn seen_frees_blocks_past_its_budget_and_still_finds_every_trigram() {
    let mut seen = Seen::new();
    let mut freed = false;
    // Each file's trigrams start with ~513 pairs of bytes, 256 of them new.
    for lead in 0..=255u8 {
        let content: Vec<u8> = (0..=255u8).flat_map(|b| [lead, b, b'x']).collect();
        let before = seen.made;
        let found = seen.distinct(&content);
        freed |= seen.made < before;
        assert_eq!(found, Seen::new().distinct(&content), "file {lead}");
        assert!(seen.made <= KEEP_BLOCKS + 513, "{} blocks kept", seen.made);
    }
    assert!(freed, "blocks past the budget should have been freed");
}

#[test]
fn corrupt_bytes_are_an_error_not_a_panic() {
    let good = {
        let mut b = Builder::new();
        b.add_batch(&[("x", b"abcdef".as_slice()), ("y", b"bcdxyz".as_slice())])
            .unwrap();
        b.finish().0
    };
    assert!(TrigramIndex::load(good.clone()).is_ok());
    assert!(TrigramIndex::load(b"nope".to_vec()).is_err());
    for cut in 0..good.len() {
        let _ = TrigramIndex::load(good[..cut].to_vec());
    }
    let mut flipped = good.clone();
    for i in 8..flipped.len() {
        flipped[i] ^= 0xff;
        if let Ok(ix) = TrigramIndex::load(flipped.clone()) {
            let _ = ix.candidates(&["bcd".into()]);
        }
        flipped[i] ^= 0xff;
    }
}
