//! Grammars whose parse table is dense in every state.
//!
//! A generated tree-sitter grammar stores its parse table in two forms: a dense row of
//! `symbol_count` entries for each of its first `large_state_count` states, and for the others
//! ("small" states, most of them: 2 761 of the Rust grammar's 3 825) a list of groups of symbols
//! sharing a value. Tree-sitter's `ts_language_lookup` answers a small state by scanning its
//! groups one symbol at a time, and the parse asks for every token and every reduction: the
//! scans were ~6.5 % of the analysis's samples on the registry copy (`ts_language_table_entry`),
//! and a first index of it takes ~6 % less CPU with dense tables.
//!
//! [`dense`] copies a grammar's `TSLanguage` with every state made large: the small states' groups
//! written out into dense rows, and `large_state_count` set to `state_count`, so that every
//! lookup is one load. Everything else (lexer, symbols, fields, actions) is the grammar's own,
//! so the trees are identical. Built per grammar: 0.6–9.3 MB each (Rust 2.7 MB, C++ 9.3 MB). An
//! index run's parses ([`for_source`]) build a grammar's copy only once the source parsed with
//! it reaches the copy's size, so a language with a few files in a repository parses with the
//! generated tables (the cargo registry's copies: 18.5 MB when every language it has got one,
//! ~4 MB when only Rust and C do).
//!
//! A copy is used through a [`Grammar`] lease, and freed once a parse phase is over: while a
//! [`Keep`] is held (an index run's reading and parsing) the copies stay built; when the last
//! `Keep` drops, they are freed as soon as no lease is out — their memory would otherwise sit
//! through resolution and the table writes, where a first index peaks. Without any `Keep`
//! (tests, tools) they live for the process.
//!
//! The copy relies on the layout of `struct TSLanguage` in `tree_sitter/parser.h`, which every
//! grammar crate vendors: its head (up to `small_parse_table_map`) is the same in ABI 14 and 15,
//! and the whole struct is 232 bytes in ABI 14 and 288 in ABI 15 on 64-bit targets. A grammar
//! of another ABI, or on another target, is used as it is. A unit test parses every grammar's
//! sample, and malformed variants of it, both ways and compares the trees.

// Reading and copying a C struct.
#![allow(unsafe_code)]

use std::sync::Mutex;

use tree_sitter::Language;

/// The head of `struct TSLanguage` (ABI 14 and 15).
#[repr(C)]
struct Head {
    abi_version: u32,
    symbol_count: u32,
    alias_count: u32,
    token_count: u32,
    external_token_count: u32,
    state_count: u32,
    large_state_count: u32,
    production_id_count: u32,
    field_count: u32,
    max_alias_sequence_length: u16,
    parse_table: *const u16,
    small_parse_table: *const u16,
    small_parse_table_map: *const u32,
}

/// `sizeof(TSLanguage)` by ABI version, on 64-bit targets.
fn struct_size(abi: u32) -> Option<usize> {
    if cfg!(not(target_pointer_width = "64")) {
        return None;
    }
    match abi {
        14 => Some(232),
        15 => Some(288),
        _ => None,
    }
}

/// The grammars leased so far, and who may still use their copies.
struct Registry {
    built: Vec<Entry>,
    /// [`Grammar`] leases out.
    leases: usize,
    /// [`Keep`]s held.
    keeps: usize,
    /// The last `Keep` dropped: free the copies once no lease is out.
    release: bool,
    /// Times the copies were freed.
    releases: u64,
}

/// One grammar leased since the copies were last freed.
struct Entry {
    /// The generated grammar's address.
    grammar: usize,
    /// Bytes of source leased for with [`for_source`] (what the copy would have sped up).
    parsed: usize,
    copy: Copy,
}

enum Copy {
    /// Not built: the grammar is used as it is until its source reaches the copy's size.
    NotYet,
    Built(Owned),
    /// Used as it is: an ABI this module does not know, or a table that is dense already.
    AsIs,
}

/// The two allocations of a dense copy (its struct's words and its table), owned here.
struct Owned {
    words: *mut [u64],
    table: *mut [u16],
}

// SAFETY: the pointers are owned allocations, only read through `Grammar`s and freed under the
// registry's lock.
unsafe impl Send for Owned {}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry::new());

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    /// No grammar leased, no lease or `Keep` out.
    const fn new() -> Registry {
        Registry {
            built: Vec::new(),
            leases: 0,
            keeps: 0,
            release: false,
            releases: 0,
        }
    }

    /// Free every dense copy if none can be in use and no parse phase wants them kept.
    fn try_release(&mut self) {
        if !(self.release && self.keeps == 0 && self.leases == 0) {
            return;
        }
        self.release = false;
        self.releases += 1;
        for entry in self.built.drain(..) {
            if let Copy::Built(Owned { words, table }) = entry.copy {
                // SAFETY: both came from `Box::into_raw` in `build`, and no lease is out, so no
                // parser or tree holds the copy (a `Language` taken from a `Grammar` does not
                // outlive it: `Grammar`).
                unsafe {
                    drop(Box::from_raw(words));
                    drop(Box::from_raw(table));
                }
            }
        }
    }
}

/// A grammar for parsing: its dense copy while this lease is held (or the generated grammar,
/// for an ABI this module does not know). Parsers and trees made with it must be dropped
/// before it.
pub struct Grammar {
    language: Language,
}

impl std::ops::Deref for Grammar {
    type Target = Language;

    fn deref(&self) -> &Language {
        &self.language
    }
}

impl Drop for Grammar {
    fn drop(&mut self) {
        let mut r = registry();
        r.leases -= 1;
        r.try_release();
    }
}

/// Held through a parse phase: the dense copies built during it stay built until the last
/// `Keep` drops, then are freed once no [`Grammar`] is out.
pub struct Keep(());

impl Keep {
    pub fn new() -> Keep {
        let mut r = registry();
        r.keeps += 1;
        r.release = false;
        Keep(())
    }
}

impl Default for Keep {
    fn default() -> Self {
        Keep::new()
    }
}

impl Drop for Keep {
    fn drop(&mut self) {
        let mut r = registry();
        r.keeps -= 1;
        if r.keeps == 0 {
            r.release = true;
            r.try_release();
        }
    }
}

/// A lease on the dense copy of `language`, built on first use (keyed by the grammar's
/// address), or on `language` itself if its ABI is not one this module knows.
pub fn dense(language: Language) -> Grammar {
    lease(language, None)
}

/// A lease for parsing `source_len` bytes: the dense copy once the source leased for with
/// this grammar since the copies were last freed reaches the copy's size, the generated
/// grammar before. The trees are the same either way; a language with little code in a
/// repository does not cost the memory of a copy larger than its source (the cargo
/// registry's 14 C++ files, 137 KB, against the C++ copy's 9.3 MB).
pub fn for_source(language: Language, source_len: usize) -> Grammar {
    lease(language, Some(source_len))
}

fn lease(language: Language, source_len: Option<usize>) -> Grammar {
    let copy = registry().lease(language.into_raw(), source_len);
    // SAFETY: `copy` is the grammar itself or a copy that lives while this lease is out;
    // neither is freed by `ts_language_delete` (it frees only WebAssembly grammars).
    Grammar {
        language: unsafe { Language::from_raw(copy) },
    }
}

impl Registry {
    /// Count a lease of the grammar at `raw` (for `source_len` bytes, or for a dense copy
    /// whatever the source) and return the `TSLanguage` to parse with.
    fn lease(
        &mut self,
        raw: *const tree_sitter::ffi::TSLanguage,
        source_len: Option<usize>,
    ) -> *const tree_sitter::ffi::TSLanguage {
        let at = match self.built.iter().position(|e| e.grammar == raw as usize) {
            Some(at) => at,
            None => {
                self.built.push(Entry {
                    grammar: raw as usize,
                    parsed: 0,
                    copy: Copy::NotYet,
                });
                self.built.len() - 1
            }
        };
        let entry = &mut self.built[at];
        if let Some(len) = source_len {
            entry.parsed = entry.parsed.saturating_add(len);
        }
        if matches!(entry.copy, Copy::NotYet) {
            // SAFETY: `raw` is a generated grammar's static `TSLanguage`; both read it by the
            // layout of its own ABI only.
            let due =
                source_len.is_none() || unsafe { copy_size(raw) }.is_none_or(|n| entry.parsed >= n);
            if due {
                entry.copy = match unsafe { build(raw) } {
                    Some(owned) => Copy::Built(owned),
                    None => Copy::AsIs,
                };
            }
        }
        let copy = match &entry.copy {
            Copy::Built(o) => o.words as *const tree_sitter::ffi::TSLanguage,
            Copy::NotYet | Copy::AsIs => raw,
        };
        self.leases += 1;
        copy
    }
}

/// Bytes of the dense table [`build`] would make, or `None` if it would use the grammar as
/// it is.
///
/// # Safety
/// `raw` must point to a generated grammar's `TSLanguage`.
unsafe fn copy_size(raw: *const tree_sitter::ffi::TSLanguage) -> Option<usize> {
    let head = unsafe { &*(raw as *const Head) };
    struct_size(head.abi_version)?;
    let (states, large) = (head.state_count as usize, head.large_state_count as usize);
    (large < states).then(|| states * head.symbol_count as usize * size_of::<u16>())
}

/// Times the dense copies were freed (for tests).
#[cfg(test)]
fn releases() -> u64 {
    registry().releases
}

/// # Safety
/// `raw` must point to a generated grammar's `TSLanguage`.
unsafe fn build(raw: *const tree_sitter::ffi::TSLanguage) -> Option<Owned> {
    let head = unsafe { &*(raw as *const Head) };
    let size = struct_size(head.abi_version)?;
    let symbols = head.symbol_count as usize;
    let states = head.state_count as usize;
    let large = head.large_state_count as usize;
    if large >= states || head.parse_table.is_null() || head.small_parse_table.is_null() {
        return None;
    }
    let mut table = vec![0u16; states * symbols];
    // The large states' rows as they are.
    let rows = unsafe { std::slice::from_raw_parts(head.parse_table, large * symbols) };
    table[..large * symbols].copy_from_slice(rows);
    // Each small state: [group count, then per group: value, symbol count, symbols…].
    let map = unsafe { std::slice::from_raw_parts(head.small_parse_table_map, states - large) };
    for (i, &at) in map.iter().enumerate() {
        let row = &mut table[(large + i) * symbols..(large + i + 1) * symbols];
        let mut p = unsafe { head.small_parse_table.add(at as usize) };
        let next = |p: &mut *const u16| {
            let v = unsafe { **p };
            *p = unsafe { p.add(1) };
            v
        };
        for _ in 0..next(&mut p) {
            let value = next(&mut p);
            for _ in 0..next(&mut p) {
                let symbol = next(&mut p) as usize;
                // A symbol past the table would be a corrupt grammar: keep the grammar as is.
                *row.get_mut(symbol)? = value;
            }
        }
    }
    let table: *mut [u16] = Box::into_raw(table.into_boxed_slice());
    // The struct, copied into 8-byte-aligned memory, with the dense table in place.
    let mut words = vec![0u64; size.div_ceil(8)];
    unsafe {
        std::ptr::copy_nonoverlapping(raw as *const u8, words.as_mut_ptr() as *mut u8, size);
    }
    let words: *mut [u64] = Box::into_raw(words.into_boxed_slice());
    let copy = words as *mut u64 as *mut Head;
    unsafe {
        (*copy).large_state_count = head.state_count;
        (*copy).parse_table = table as *const u16;
    }
    Some(Owned { words, table })
}

#[cfg(test)]
mod tests {
    use crate::lang::Lang;

    /// A small program per analysed language.
    const SAMPLES: [(Lang, &str); 12] = [
        (
            Lang::Rust,
            "use std::fmt;\n/// Doc.\npub struct P<T> { x: Vec<T> }\nimpl<T: Clone> P<T> {\n    fn f(&self, y: &[u8]) -> Option<T> { if y.len() > 2 { self.x.first().cloned() } else { None } }\n}\nmacro_rules! m { ($a:expr) => { $a + 1 }; }\nfn main() { let v = P { x: vec![1] }; println!(\"{}\", m!(2)); }\n",
        ),
        (
            Lang::Python,
            "import os\nclass A(B):\n    \"\"\"Doc.\"\"\"\n    def f(self, x: int = 3) -> str:\n        if x and not self.y:\n            return f\"{x}\"\n        return [i for i in range(x) if i % 2]\n@dec\ndef g(*a, **k):\n    with open(a) as h:\n        yield from h\n",
        ),
        (
            Lang::JavaScript,
            "import x from './x.js';\nclass A extends B {\n  #p = 1;\n  async m(a, ...b) { for (const c of b) { if (c?.d) await this.n(`t${c}`); } }\n}\nconst f = (y) => ({ y, z: /re+/g.test(y) });\nexport default f;\n",
        ),
        (
            Lang::TypeScript,
            "interface I<T> { a: T; b?: string }\nexport class C<T> implements I<T> {\n  constructor(private a: T) {}\n  m<U extends T>(x: U): U | undefined { return x as U; }\n}\ntype M = { [k in keyof I<number>]: boolean };\nenum E { A = 1, B }\n",
        ),
        (
            Lang::Tsx,
            "import React from 'react';\nexport function App<T,>(p: { items: T[] }) {\n  return <ul className=\"a\">{p.items.map((i, k) => <li key={k}>{String(i)}</li>)}</ul>;\n}\n",
        ),
        (
            Lang::Go,
            "package main\nimport \"fmt\"\ntype S struct { a int }\nfunc (s *S) M(x []int) (int, error) {\n\tfor i, v := range x { if v > s.a { return i, nil } }\n\tswitch { case s.a > 0: fmt.Println(s) }\n\treturn 0, nil\n}\n",
        ),
        (
            Lang::Java,
            "package p;\nimport java.util.*;\n/** Doc. */\npublic class A<T extends Comparable<T>> extends B implements C {\n  private final List<T> xs = new ArrayList<>();\n  @Override public int m(int a) { return a > 0 ? xs.size() : switch (a) { case 1 -> 2; default -> 3; }; }\n}\n",
        ),
        (
            Lang::C,
            "#include <stdio.h>\n#define MAX(a,b) ((a)>(b)?(a):(b))\ntypedef struct node { int v; struct node *next; } node;\nstatic int f(const node *n) { int s = 0; while (n) { s += n->v; n = n->next; } return s; }\nint main(void) { printf(\"%d\\n\", MAX(1, 2)); }\n",
        ),
        (
            Lang::Cpp,
            "#include <vector>\nnamespace ns {\ntemplate <typename T> class A : public B<T> {\npublic:\n  virtual ~A() = default;\n  auto m(std::vector<T> &v) const -> int { return v.size() > 1 ? 1 : [&]{ return 2; }(); }\n};\n}\n",
        ),
        (
            Lang::CSharp,
            "using System;\nnamespace N {\n  public class A<T> : B, I where T : new() {\n    public int P { get; set; }\n    public async Task<int> M(int x) { return x switch { 1 => 2, _ => await F(x) }; }\n  }\n}\n",
        ),
        (
            Lang::Ruby,
            "require 'x'\nmodule M\n  class A < B\n    attr_reader :a\n    def m(x, *r, k: 1, &b)\n      return unless x\n      r.each { |i| puts \"#{i}\" if i > k }\n    end\n  end\nend\n",
        ),
        (
            Lang::Php,
            "<?php\nnamespace N;\nuse A\\B;\nclass C extends D implements E {\n  private int $x = 1;\n  public function m(array $a): ?string { foreach ($a as $k => $v) { if ($v) return \"$k\"; } return null; }\n}\n",
        ),
    ];

    /// Every node of a tree: kind, byte range, and whether it is an error or missing node.
    fn nodes(tree: &tree_sitter::Tree) -> Vec<(u16, usize, usize, bool, bool)> {
        let mut out = vec![];
        crate::analyze::each_node(tree, |cursor| {
            let n = cursor.node();
            out.push((
                n.kind_id(),
                n.start_byte(),
                n.end_byte(),
                n.is_error(),
                n.is_missing(),
            ));
        });
        out
    }

    fn parse(language: &tree_sitter::Language, src: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(language).unwrap();
        parser.parse(src, None).unwrap()
    }

    /// Everything the copy does not change reads the same through tree-sitter's API, the
    /// fields at the end of an ABI 15 struct included (name, supertypes, metadata): the copy
    /// covers the whole struct.
    #[test]
    fn dense_grammars_keep_the_rest_of_the_struct() {
        for (lang, _) in SAMPLES {
            let (generated, dense) = (lang.generated_grammar().unwrap(), lang.grammar().unwrap());
            let abi = generated.abi_version();
            assert!(abi == 14 || abi == 15, "{lang:?}: ABI {abi}");
            assert_eq!(dense.abi_version(), abi);
            assert_eq!(dense.name(), generated.name(), "{lang:?}");
            assert_eq!(dense.supertypes(), generated.supertypes(), "{lang:?}");
            for &t in generated.supertypes() {
                assert_eq!(
                    dense.subtypes_for_supertype(t),
                    generated.subtypes_for_supertype(t)
                );
            }
            let version = |l: &tree_sitter::Language| {
                l.metadata()
                    .map(|m| (m.major_version, m.minor_version, m.patch_version))
            };
            assert_eq!(version(&dense), version(&generated), "{lang:?}");
            assert_eq!(dense.node_kind_count(), generated.node_kind_count());
            assert_eq!(dense.parse_state_count(), generated.parse_state_count());
            assert_eq!(dense.field_count(), generated.field_count());
            if abi == 15 {
                assert!(
                    dense.name().is_some(),
                    "{lang:?}: an ABI 15 grammar is named"
                );
            }
            // Each state's next state for every symbol (aliases, numbered after the symbols,
            // are not in the table), the lookup this module changes.
            // SAFETY: a generated grammar's struct, read by its head as `dense` reads it.
            let symbols =
                unsafe { (*(generated.clone().into_raw() as *const super::Head)).symbol_count };
            for state in 0..generated.parse_state_count() as u16 {
                for symbol in 0..symbols as u16 {
                    assert_eq!(
                        dense.next_state(state, symbol),
                        generated.next_state(state, symbol),
                        "{lang:?}: state {state}, symbol {symbol}"
                    );
                }
            }
        }
    }

    /// A parse phase's copies outlive its `Keep` while a lease is out (the lease still parses),
    /// and are freed with the last lease; the next use builds them again.
    #[test]
    fn copies_are_freed_after_the_parse_phase() {
        let (lang, sample) = SAMPLES[0];
        let want = nodes(&parse(&lang.generated_grammar().unwrap(), sample));
        let before = super::releases();
        let keep = super::Keep::new();
        let grammar = lang.grammar().unwrap();
        drop(keep);
        assert_eq!(nodes(&parse(&grammar, sample)), want);
        drop(grammar);
        // Other tests' parses hold leases for a moment: the copies go with the last of them.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while super::releases() == before {
            assert!(
                std::time::Instant::now() < deadline,
                "the copies were not freed"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let again = lang.grammar().unwrap();
        assert_eq!(nodes(&parse(&again, sample)), want);
    }

    /// An index run's leases parse with the generated grammar until the source leased for
    /// reaches the copy's size, then with the copy; the trees are the same either way, and
    /// the copy goes when the copies are freed, counting starting again.
    #[test]
    fn copies_are_built_once_the_source_reaches_their_size() {
        let (lang, sample) = SAMPLES[8];
        assert_eq!(lang, Lang::Cpp);
        let generated = lang.generated_grammar().unwrap();
        let raw = generated.clone().into_raw();
        // SAFETY: a generated grammar of a known ABI.
        let size = unsafe { super::copy_size(raw) }.unwrap();
        assert!(size > 1 << 20, "C++'s copy is {size} bytes");
        let mut r = super::Registry::new();
        r.keeps = 1;
        assert_eq!(r.lease(raw, Some(sample.len())), raw);
        assert_eq!(r.lease(raw, Some(size - 2 * sample.len())), raw);
        let dense = r.lease(raw, Some(sample.len()));
        assert_ne!(
            dense, raw,
            "the copy is built once the source reaches its size"
        );
        assert_eq!(r.lease(raw, Some(1)), dense);
        // SAFETY: the copy lives until the registry frees it, below.
        let tree = parse(&unsafe { tree_sitter::Language::from_raw(dense) }, sample);
        assert_eq!(nodes(&tree), nodes(&parse(&generated, sample)));
        drop(tree);
        r.leases = 0;
        r.keeps = 0;
        r.release = true;
        r.try_release();
        assert_eq!(r.releases, 1);
        assert_eq!(
            r.lease(raw, Some(sample.len())),
            raw,
            "counting starts again"
        );
        // A lease for a dense copy whatever the source builds it at once.
        let other = SAMPLES[0].0.generated_grammar().unwrap().into_raw();
        assert_ne!(r.lease(other, None), other);
        r.leases = 0;
        r.release = true;
        r.try_release();
    }

    /// The dense grammar parses every sample, every prefix of it (cut at each eleventh byte,
    /// mostly malformed) and every sample with junk spliced in to the same tree as the
    /// generated grammar.
    #[test]
    fn dense_grammars_give_the_generated_grammars_trees() {
        const JUNK: [&str; 6] = ["{", "(", "<", "\"", "}", "if"];
        for (lang, sample) in SAMPLES {
            let generated = lang.generated_grammar().unwrap();
            let dense = lang.grammar().unwrap();
            assert_ne!(
                generated.into_raw(),
                dense.clone().into_raw(),
                "{lang:?}: no dense copy was made"
            );
            let mut sources: Vec<String> = vec![sample.to_string()];
            sources.extend(
                (0..sample.len())
                    .step_by(11)
                    .filter(|&at| sample.is_char_boundary(at))
                    .map(|at| sample[..at].to_string()),
            );
            for (i, at) in (3..sample.len()).step_by(17).enumerate() {
                if sample.is_char_boundary(at) {
                    sources.push(format!(
                        "{}{}{}",
                        &sample[..at],
                        JUNK[i % JUNK.len()],
                        &sample[at..]
                    ));
                }
            }
            let mut errors = 0;
            for src in &sources {
                let want = parse(&lang.generated_grammar().unwrap(), src);
                let got = parse(&dense, src);
                errors += usize::from(want.root_node().has_error());
                assert_eq!(nodes(&got), nodes(&want), "{lang:?}, source:\n{src}");
            }
            assert!(
                !parse(&dense, sample).root_node().has_error(),
                "{lang:?}'s sample parses"
            );
            assert!(
                errors > sources.len() / 2,
                "{lang:?}: most variants are malformed"
            );
        }
    }
}
