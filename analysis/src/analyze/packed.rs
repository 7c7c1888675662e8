//! Analyses as they wait between parsing and writing.
//!
//! Every file's analysis must be at hand until edges are resolved across the repository, but
//! resolution reads only a sliver of it: each symbol's kind, name, qualified name and parent,
//! and each file's imports. [`Packed`] keeps that sliver decoded ([`Names`], one string arena
//! per file) and the whole analysis as one compressed frame, unpacked again file by file when
//! its rows are written. On the cargo registry the analyses took ~730 MB as structs; packed
//! they are a fraction of that (docs/benchmarks.md). While a repository is indexed the frames
//! go to a scratch file ([`FrameFile`]), so only the names stay in memory.

use std::sync::Arc;

use super::{EdgeKind, FileAnalysis, NO_PARENT, RawEdge, Symbol, static_kind};
use crate::derived::put_varint;

/// A file's analysis: the names resolution needs, and the rest compressed.
pub struct Packed {
    names: Names,
    frame: Frame,
}

/// A packed analysis's compressed frame, and where it is: all of the analysis, without the
/// names kept decoded beside it ([`Packed::frame`]).
#[derive(Clone)]
pub struct Frame {
    at: FrameAt,
    /// Length of the encoded analysis before compression.
    raw_len: usize,
}

#[derive(Clone)]
enum FrameAt {
    Memory(Arc<[u8]>),
    /// In a scratch file ([`FrameFile`]): read back when the analysis is unpacked.
    Spilled {
        file: Arc<FrameFile>,
        at: u64,
        len: u32,
    },
}

/// A scratch file the frames of packed analyses are appended to ([`Packed::new_in`]), so only
/// their names stay in memory while a repository is indexed (the frames were ~77 MB of the
/// registry's ~180 MB of packed analyses). Appends from any thread.
pub struct FrameFile {
    file: std::fs::File,
    end: std::sync::atomic::AtomicU64,
}

impl FrameFile {
    pub fn new(file: std::fs::File) -> Arc<FrameFile> {
        Arc::new(FrameFile {
            file,
            end: std::sync::atomic::AtomicU64::new(0),
        })
    }

    fn append(&self, bytes: &[u8]) -> std::io::Result<u64> {
        use std::sync::atomic::Ordering;
        let at = self.end.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        crate::spill::write_all_at(&self.file, bytes, at)?;
        Ok(at)
    }
}

/// A span of a [`Names`] arena.
#[derive(Clone, Copy)]
struct Span {
    at: u32,
    len: u32,
}

/// One symbol's names, in 16 bytes (24 with a span each: ~3.8 MB more of the registry copy's
/// names, held from the parse through the table writes).
/// Lengths of 2¹⁶ − 1 bytes or more do not fit: such a symbol's entry says [`WIDE`] and its
/// spans are in [`Names::wide`].
struct NameEntry {
    qualified_name_at: u32,
    name_at: u32,
    qualified_name_len: u16,
    name_len: u16,
    /// [`NO_PARENT_16`] for none (a parent is a prefix of the qualified name, so it is shorter).
    parent_len: u16,
    /// The kind's number in [`super::KINDS`] (a byte rather than a `&'static str`).
    kind: u8,
    /// [`Symbol::is_public`](super::Symbol::is_public) (in the byte the alignment leaves):
    /// C's `static` functions are not visible from other files.
    public: bool,
}

const _: () = assert!(std::mem::size_of::<NameEntry>() == 16);

/// [`NameEntry::qualified_name_len`] of a symbol whose spans are in [`Names::wide`].
const WIDE: u16 = u16::MAX;
const NO_PARENT_16: u16 = u16::MAX;

/// Which of [`Names`]'s 256 import bits stands for `name`.
fn import_bit(name: &str) -> usize {
    use std::hash::BuildHasher;
    (rustc_hash::FxBuildHasher.hash_one(name) >> 56) as usize
}

/// A symbol's spans: (qualified name, name, parent's length or [`NO_PARENT`]).
type Spans = (Span, Span, u32);

/// What resolution reads of one file's analysis, in one string arena.
pub struct Names {
    text: Box<str>,
    symbols: Box<[NameEntry]>,
    /// (symbol number, its spans) of the symbols whose entry says [`WIDE`], by number.
    wide: Box<[(u32, Spans)]>,
    /// (the name the file binds, the module, the imported name when the import renames it).
    imports: Box<[(Span, Option<Span>, Option<Span>)]>,
    /// Whether any import renames ([`Self::renames`]).
    renames: bool,
    /// A bit per hash of every name in `imports` ([`import_bit`]): a name whose bit is clear
    /// is not imported, found without reading the list. Resolution asks for every name it
    /// looks up, and most are not imported (`new`, `clone`): the list's scan was ~5 % of
    /// writing `edges` on the cargo registry.
    import_bits: [u64; 4],
    /// Inheritance and implementation: (the type's qualified name, the base type's name, its
    /// qualifier); also a type alias's references, the types it names.
    heritage: Box<[(Span, Span, Option<Span>)]>,
    /// (symbol number, the return type its signature declares), by number: functions and
    /// methods that return something other than a plain value ([`super::returns`]); also
    /// the declared types of Go package variables, fields and properties.
    returns: Box<[(u32, Span)]>,
    /// Go: the file's build constraint ([`FileAnalysis::go_build`]).
    go_build: Option<Span>,
}

impl Names {
    fn new(a: &FileAnalysis) -> Names {
        let mut text = String::new();
        let mut push = |s: &str| {
            let at = text.len() as u32;
            text.push_str(s);
            Span {
                at,
                len: s.len() as u32,
            }
        };
        let mut symbols = Vec::with_capacity(a.symbols.len());
        let mut wide = Vec::new();
        for s in &a.symbols {
            let qualified_name = push(&s.qualified_name);
            // The name is usually the qualified name's last segment: share its bytes.
            let offset = if s.parent_len == NO_PARENT {
                0
            } else {
                s.parent_len as usize + 1
            };
            let name = if s.qualified_name.get(offset..offset + s.name.len()) == Some(&*s.name) {
                Span {
                    at: qualified_name.at + offset as u32,
                    len: s.name.len() as u32,
                }
            } else {
                push(&s.name)
            };
            let kind = kind_code(s.kind);
            let fits = |n: u32| n < u32::from(WIDE);
            let parent_fits = s.parent_len == NO_PARENT || s.parent_len <= qualified_name.len;
            let entry = if fits(qualified_name.len) && fits(name.len) && parent_fits {
                NameEntry {
                    qualified_name_at: qualified_name.at,
                    name_at: name.at,
                    qualified_name_len: qualified_name.len as u16,
                    name_len: name.len as u16,
                    parent_len: match s.parent_len {
                        NO_PARENT => NO_PARENT_16,
                        n => n as u16,
                    },
                    kind,
                    public: s.is_public,
                }
            } else {
                wide.push((symbols.len() as u32, (qualified_name, name, s.parent_len)));
                NameEntry {
                    qualified_name_at: 0,
                    name_at: 0,
                    qualified_name_len: WIDE,
                    name_len: 0,
                    parent_len: NO_PARENT_16,
                    kind,
                    public: s.is_public,
                }
            };
            symbols.push(entry);
        }
        let imports: Vec<(Span, Option<Span>, Option<Span>)> = a
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Imports)
            .map(|e| match e.alias.as_deref() {
                Some(alias) => (
                    push(alias),
                    e.qualifier.as_deref().map(&mut push),
                    Some(push(&e.target_name)),
                ),
                None => (
                    push(&e.target_name),
                    e.qualifier.as_deref().map(&mut push),
                    None,
                ),
            })
            .collect();
        // A type alias's references are what it names (`typedef struct arena_s arena_t;`,
        // `type ParseStream<'a> = &'a ParseBuffer<'a>;`): resolution reads them as its bases,
        // so a member of `arena_t` is found in `arena_s`.
        let aliases: Vec<&str> = a
            .symbols
            .iter()
            .filter(|s| s.kind == "type_alias")
            .map(|s| &*s.qualified_name)
            .collect();
        // (With its package, Go's `type ElfEhdr elf.Header64`.)
        let names_alias = |e: &RawEdge| {
            e.kind == EdgeKind::References
                && !matches!(e.qualifier.as_deref(), Some("self" | "this"))
                && e.source.as_deref().is_some_and(|s| aliases.contains(&s))
        };
        let heritage: Vec<(Span, Span, Option<Span>)> = a
            .edges
            .iter()
            .filter(|e| {
                matches!(e.kind, EdgeKind::Inherits | EdgeKind::Implements) || names_alias(e)
            })
            .filter_map(|e| {
                let ty = push(e.source.as_deref()?);
                let base = push(&e.target_name);
                Some((ty, base, e.qualifier.as_deref().map(&mut push)))
            })
            .collect();
        // Return types resolution can use ([`super::returns::kept`]), each text once per file
        // (`Self` is most of them).
        let mut distinct: rustc_hash::FxHashMap<&str, Span> = Default::default();
        let mut returns: Vec<(u32, Span)> = Vec::new();
        for (i, s) in a.symbols.iter().enumerate() {
            let at = match s.kind {
                "function" | "method" => {
                    let Some(ty) = super::returns::declared_return(&s.signature, &s.name)
                        .filter(|t| super::returns::kept(t))
                    else {
                        continue;
                    };
                    *distinct.entry(ty).or_insert_with(|| push(ty))
                }
                // A Go package-level variable's type (`var Ctxt *obj.Link`), for calls on
                // it from other files ([`Names::declared_return`]).
                // (Else a call, `_inst = Random()`: `Random()`, typed by resolution.)
                "variable" if s.parent().is_none() => {
                    match super::returns::go_var_type(&s.signature, &s.name)
                        .or_else(|| super::returns::call_type(&s.signature, &s.name))
                    {
                        Some(ty) => push(&ty),
                        None => continue,
                    }
                }
                // A field's or property's type, for calls on what it holds from other files
                // (`v.Args[0].Reg()`: [`Names::declared_return`]); for PHP's untyped
                // properties, their docblock's `@var`.
                "field" | "property" => match super::returns::field_type(&s.signature, &s.name) {
                    Some(ty) => push(&ty),
                    None => match s.doc.as_deref().and_then(super::returns::doc_var_type) {
                        Some(ty) => push(&ty),
                        None => continue,
                    },
                },
                _ => continue,
            };
            returns.push((i as u32, at));
        }
        let go_build = a.go_build.as_deref().map(&mut push);
        let mut import_bits = [0u64; 4];
        for &(n, _, o) in &imports {
            for span in std::iter::once(n).chain(o) {
                let name = text.get(span.at as usize..(span.at + span.len) as usize);
                let bit = import_bit(name.unwrap_or(""));
                import_bits[bit / 64] |= 1 << (bit % 64);
            }
        }
        Names {
            import_bits,
            go_build,
            returns: returns.into_boxed_slice(),
            renames: imports.iter().any(|i| i.2.is_some()),
            text: text.into_boxed_str(),
            symbols: symbols.into_boxed_slice(),
            wide: wide.into_boxed_slice(),
            imports: imports.into_boxed_slice(),
            heritage: heritage.into_boxed_slice(),
        }
    }

    fn get(&self, s: Span) -> &str {
        self.text
            .get(s.at as usize..(s.at + s.len) as usize)
            .unwrap_or("")
    }

    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Go: the file's build constraint, if it states one ([`FileAnalysis::go_build`]).
    pub fn go_build(&self) -> Option<&str> {
        self.go_build.map(|s| self.get(s))
    }

    /// Symbol `i`'s kind, as its unpacked analysis has it (a kind outside [`super::KINDS`]
    /// is `symbol` there too).
    pub fn kind(&self, i: usize) -> &'static str {
        super::KINDS
            .get(usize::from(self.symbols[i].kind))
            .copied()
            .unwrap_or_else(|| static_kind(""))
    }

    /// Whether symbol `i` is public (for C and C++, not `static`).
    pub fn is_public(&self, i: usize) -> bool {
        self.symbols[i].public
    }

    /// Symbol `i`'s spans.
    fn spans(&self, i: usize) -> Spans {
        let e = &self.symbols[i];
        if e.qualified_name_len == WIDE {
            let found = self.wide.binary_search_by_key(&(i as u32), |&(n, _)| n);
            let empty = Span { at: 0, len: 0 };
            return found.map_or((empty, empty, NO_PARENT), |at| self.wide[at].1);
        }
        let qualified_name = Span {
            at: e.qualified_name_at,
            len: u32::from(e.qualified_name_len),
        };
        let name = Span {
            at: e.name_at,
            len: u32::from(e.name_len),
        };
        let parent_len = match e.parent_len {
            NO_PARENT_16 => NO_PARENT,
            n => u32::from(n),
        };
        (qualified_name, name, parent_len)
    }

    pub fn name(&self, i: usize) -> &str {
        self.get(self.spans(i).1)
    }

    pub fn qualified_name(&self, i: usize) -> &str {
        self.get(self.spans(i).0)
    }

    /// Qualified name of symbol `i`'s parent (see [`Symbol::parent`]).
    pub fn parent(&self, i: usize) -> Option<&str> {
        let (qualified_name, _, parent_len) = self.spans(i);
        (parent_len != NO_PARENT).then(|| {
            self.get(Span {
                at: qualified_name.at,
                len: parent_len,
            })
        })
    }

    /// The return type symbol `i`'s signature declares, as written (a function or method's;
    /// [`super::returns::declared_return`]); for a top-level variable, the type a Go
    /// signature gives it ([`super::returns::go_var_type`]); for a field or property, the
    /// type its signature gives it ([`super::returns::field_type`]).
    pub fn declared_return(&self, i: usize) -> Option<&str> {
        let at = self
            .returns
            .binary_search_by_key(&(i as u32), |&(n, _)| n)
            .ok()?;
        Some(self.get(self.returns[at].1))
    }

    /// The file's inheritance and implementation clauses: (the type's qualified name, the base
    /// type's name, what qualifies that name); a type alias counts the types it names as its
    /// bases.
    pub fn heritage(&self) -> impl Iterator<Item = (&str, &str, Option<&str>)> {
        self.heritage
            .iter()
            .map(|&(t, b, q)| (self.get(t), self.get(b), q.map(|q| self.get(q))))
    }

    /// The file's imports: (imported name, module qualifier). Resolution asks
    /// [`Self::imports_of`] a name, and reads the whole list for C and C++'s `#include`s.
    pub fn imports(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.imports
            .iter()
            .map(|&(n, q, o)| (self.get(o.unwrap_or(n)), q.map(|q| self.get(q))))
    }

    /// Whether the file imports anything (a JavaScript or TypeScript file that does is a
    /// module: its bare names are its own, imported or global).
    pub fn has_imports(&self) -> bool {
        !self.imports.is_empty()
    }

    /// The module qualifiers of the file's imports of `name`, in order (what resolution asks
    /// for each name it looks up: an import of another length is passed over unread). A
    /// renaming import (`from m import a as b`) counts for both names: resolution looks up
    /// `b` as `a` ([`Self::renamed`]).
    pub fn imports_of<'s>(&'s self, name: &'s str) -> impl Iterator<Item = Option<&'s str>> {
        let is = move |s: Span| self.is(s, name);
        self.imports_maybe(name)
            .iter()
            .filter(move |&&(n, _, o)| is(n) || o.is_some_and(is))
            .map(|&(_, q, _)| q.map(|q| self.get(q)))
    }

    /// The imports to read for `name`: all of them, or none when its bit says no import
    /// binds or imports it.
    fn imports_maybe(&self, name: &str) -> &[(Span, Option<Span>, Option<Span>)] {
        let bit = import_bit(name);
        match self.import_bits[bit / 64] & (1 << (bit % 64)) {
            0 => &[],
            _ => &self.imports,
        }
    }

    /// Whether span `s` holds `name` (its length compared first: most spans differ there).
    fn is(&self, s: Span, name: &str) -> bool {
        s.len as usize == name.len() && self.get(s) == name
    }

    /// The imports that bind `name` in the file (`import_bound` is the first): each one's
    /// module qualifier and the name it imports (`name` itself unless the import renames:
    /// `numpy` for `np`). A file may bind a name twice (`try: import unittest2 as unittest`
    /// / `except ImportError: import unittest`).
    pub fn import_bindings<'s, 'n>(
        &'s self,
        name: &'n str,
    ) -> impl Iterator<Item = (Option<&'s str>, &'s str)> + use<'s, 'n> {
        self.imports_maybe(name)
            .iter()
            .filter_map(move |&(n, q, o)| {
                self.is(n, name)
                    .then(|| (q.map(|q| self.get(q)), self.get(o.unwrap_or(n))))
            })
    }

    /// The first of [`Self::import_bindings`].
    pub fn import_bound(&self, name: &str) -> Option<(Option<&str>, &str)> {
        self.import_bindings(name).next()
    }

    /// Whether any of the file's imports renames what it imports (most do not: resolution
    /// asks [`Self::renamed`] only then).
    pub fn renames(&self) -> bool {
        self.renames
    }

    /// The name an import renamed to `name` imports (`numpy` for `np` after `import numpy as
    /// np`, `Entry` for `E` after `use a::Entry as E`).
    pub fn renamed(&self, name: &str) -> Option<&str> {
        self.imports_maybe(name)
            .iter()
            .find_map(|&(n, _, o)| self.is(n, name).then_some(o).flatten())
            .map(|o| self.get(o))
    }
}

impl Packed {
    pub fn new(a: &FileAnalysis) -> std::io::Result<Packed> {
        Self::new_in(a, None)
    }

    /// Packed, with the frame appended to `frames` when given (else kept in memory).
    pub fn new_in(a: &FileAnalysis, frames: Option<&Arc<FrameFile>>) -> std::io::Result<Packed> {
        let raw = encode(a);
        let z = crate::derived::compress_frame(&raw)?;
        let at = match frames {
            None => FrameAt::Memory(z.into()),
            Some(file) => FrameAt::Spilled {
                at: file.append(&z)?,
                len: u32::try_from(z.len())
                    .map_err(|_| std::io::Error::other("an analysis over 4 GiB"))?,
                file: file.clone(),
            },
        };
        Ok(Packed {
            names: Names::new(a),
            frame: Frame {
                at,
                raw_len: raw.len(),
            },
        })
    }

    pub fn names(&self) -> &Names {
        &self.names
    }

    /// Bytes of the analysis unpacked (its encoding): a measure of how many rows it makes.
    pub fn raw_len(&self) -> usize {
        self.frame.raw_len
    }

    /// The analysis, as it was packed.
    pub fn unpack(&self) -> Result<FileAnalysis, String> {
        self.frame.unpack()
    }

    /// The compressed analysis alone (sharing the frame, not copying it), to unpack after the
    /// names are dropped.
    pub fn frame(&self) -> Frame {
        self.frame.clone()
    }
}

impl Frame {
    /// The analysis, as it was packed.
    pub fn unpack(&self) -> Result<FileAnalysis, String> {
        self.unpack_parts(true)
    }

    /// The analysis's symbols alone (its `edges` left empty): decoding the edges, several
    /// times as many, is most of the cost of unpacking.
    pub fn unpack_symbols(&self) -> Result<FileAnalysis, String> {
        self.unpack_parts(false)
    }

    fn unpack_parts(&self, with_edges: bool) -> Result<FileAnalysis, String> {
        let read;
        let z: &[u8] = match &self.at {
            FrameAt::Memory(z) => z,
            FrameAt::Spilled { file, at, len } => {
                let mut buf = vec![0u8; *len as usize];
                crate::spill::read_exact_at(&file.file, &mut buf, *at)
                    .map_err(|e| format!("reading a packed analysis back: {e}"))?;
                read = buf;
                &read
            }
        };
        let raw = crate::derived::decompress_frame(z, self.raw_len).map_err(|e| e.to_string())?;
        decode(&raw, with_edges).ok_or_else(|| "a packed analysis does not decode".to_string())
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// `None` as a 0 byte, `Some(s)` as a 1 byte and the string.
fn put_opt_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => {
            out.push(1);
            put_str(out, s);
        }
        None => out.push(0),
    }
}

/// `None` as 0, `Some(v)` as v + 1.
fn put_opt(out: &mut Vec<u8>, v: Option<u32>) {
    put_varint(out, v.map_or(0, |v| u64::from(v) + 1));
}

fn kind_code(kind: &str) -> u8 {
    super::KINDS
        .iter()
        .position(|k| *k == kind)
        .map_or(u8::MAX, |i| i as u8)
}

fn edge_code(kind: EdgeKind) -> u8 {
    match kind {
        EdgeKind::Calls => 0,
        EdgeKind::Inherits => 1,
        EdgeKind::Implements => 2,
        EdgeKind::References => 3,
        EdgeKind::Imports => 4,
    }
}

fn encode(a: &FileAnalysis) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * (a.symbols.len() + a.edges.len()) + 8);
    out.push(u8::from(a.had_errors));
    put_opt_str(&mut out, a.go_build.as_deref());
    put_varint(&mut out, a.symbols.len() as u64);
    let mut own: rustc_hash::FxHashMap<&str, u32> = rustc_hash::FxHashMap::default();
    for (i, s) in a.symbols.iter().enumerate() {
        own.entry(&*s.qualified_name).or_insert(i as u32);
        out.push(kind_code(s.kind));
        put_str(&mut out, &s.name);
        put_str(&mut out, &s.qualified_name);
        put_opt(
            &mut out,
            (s.parent_len != NO_PARENT).then_some(s.parent_len),
        );
        for v in [s.start_line, s.start_character, s.end_line, s.end_character] {
            put_varint(&mut out, u64::from(v));
        }
        put_str(&mut out, &s.signature);
        put_opt_str(&mut out, s.doc.as_deref());
        out.push(u8::from(s.is_public));
        put_varint(&mut out, u64::from(s.lines));
        put_opt(&mut out, s.complexity);
    }
    put_varint(&mut out, a.edges.len() as u64);
    for e in &a.edges {
        out.push(edge_code(e.kind));
        // The source: none, one of this file's symbols (by index), or a name.
        match e.source.as_deref() {
            None => out.push(0),
            Some(q) => match own.get(q) {
                Some(&i) => {
                    out.push(1);
                    put_varint(&mut out, u64::from(i));
                }
                None => {
                    out.push(2);
                    put_str(&mut out, q);
                }
            },
        }
        put_varint(&mut out, u64::from(e.line));
        put_varint(&mut out, u64::from(e.character));
        put_str(&mut out, &e.target_name);
        put_opt_str(&mut out, e.qualifier.as_deref());
        put_opt_str(&mut out, e.receiver_type.as_deref());
        put_opt_str(&mut out, e.alias.as_deref());
    }
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.varint()?).ok()
    }

    fn opt(&mut self) -> Option<Option<u32>> {
        Some(match self.varint()? {
            0 => None,
            v => Some(u32::try_from(v - 1).ok()?),
        })
    }

    /// [`put_opt_str`]'s encoding.
    fn opt_str(&mut self) -> Option<Option<&'a str>> {
        Some(match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        })
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.varint()?).ok()?;
        let s = self.bytes.get(self.at..self.at.checked_add(len)?)?;
        self.at += len;
        std::str::from_utf8(s).ok()
    }
}

/// `with_edges` false: the symbols only (the edges are not read, nor the frame checked to end
/// after them).
fn decode(bytes: &[u8], with_edges: bool) -> Option<FileAnalysis> {
    let mut r = Reader { bytes, at: 0 };
    let had_errors = r.byte()? != 0;
    let go_build = r.opt_str()?.map(str::to_string);
    let n = usize::try_from(r.varint()?).ok()?;
    let mut symbols = Vec::with_capacity(n.min(bytes.len()));
    for _ in 0..n {
        let kind = r.byte()?;
        let kind = super::KINDS
            .get(usize::from(kind))
            .copied()
            .unwrap_or_else(|| static_kind(""));
        let name = r.str()?;
        let qualified_name = r.str()?;
        let parent_len = r.opt()?.unwrap_or(NO_PARENT);
        let (sl, sc, el, ec) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let signature = r.str()?;
        let doc = r.opt_str()?;
        let is_public = r.byte()? != 0;
        let lines = r.u32()?;
        let complexity = r.opt()?;
        symbols.push(Symbol {
            kind,
            name: name.into(),
            qualified_name: qualified_name.into(),
            parent_len,
            start_line: sl,
            start_character: sc,
            end_line: el,
            end_character: ec,
            signature: signature.into(),
            doc: doc.map(Into::into),
            is_public,
            lines,
            complexity,
        });
    }
    if !with_edges {
        return Some(FileAnalysis {
            symbols,
            edges: Vec::new(),
            had_errors,
            go_build,
        });
    }
    let n = usize::try_from(r.varint()?).ok()?;
    let mut edges = Vec::with_capacity(n.min(bytes.len()));
    for _ in 0..n {
        let kind = match r.byte()? {
            0 => EdgeKind::Calls,
            1 => EdgeKind::Inherits,
            2 => EdgeKind::Implements,
            3 => EdgeKind::References,
            4 => EdgeKind::Imports,
            _ => return None,
        };
        let source: Option<Arc<str>> = match r.byte()? {
            0 => None,
            1 => {
                let i = usize::try_from(r.varint()?).ok()?;
                Some(symbols.get(i)?.qualified_name.clone())
            }
            _ => Some(r.str()?.into()),
        };
        let (line, character) = (r.u32()?, r.u32()?);
        let target_name = r.str()?.into();
        let qualifier = r.opt_str()?.map(Into::into);
        let receiver_type = r.opt_str()?.map(Into::into);
        let alias = r.opt_str()?.map(Into::into);
        edges.push(RawEdge {
            kind,
            source,
            line,
            character,
            target_name,
            qualifier,
            receiver_type,
            alias,
        });
    }
    (r.at == bytes.len()).then_some(FileAnalysis {
        symbols,
        edges,
        had_errors,
        go_build,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// Every symbol's kind, name, qualified name and parent read the same from `n`.
    fn names_match(n: &Names, a: &FileAnalysis) {
        assert_eq!(n.symbol_count(), a.symbols.len());
        for (i, s) in a.symbols.iter().enumerate() {
            assert_eq!(n.kind(i), s.kind);
            assert_eq!(n.name(i), &*s.name);
            assert_eq!(n.qualified_name(i), &*s.qualified_name);
            assert_eq!(n.parent(i), s.parent());
        }
    }

    #[test]
    fn packing_round_trips_and_names_match_the_symbols() {
        let src = "use std::fmt;\nuse crate::a::b as c;\n/// Doc.\npub struct P { x: u8 }\nimpl P {\n    fn f(&self) { self.g(); fmt::x(); }\n    fn g(&self) {}\n}\nimpl fmt::Display for Q { fn fmt(&self) {} }\nfn f() {}\nfn f() {}\n";
        let a = super::super::analyze(Lang::Rust, src);
        assert!(a.symbols.len() >= 5 && a.edges.len() >= 3, "{a:#?}");
        let p = Packed::new(&a).unwrap();
        assert_eq!(p.unpack().unwrap(), a);
        // The same with frames in a scratch file, beside others appended from several threads.
        let frames = FrameFile::new(tempfile::tempfile().unwrap());
        let many: Vec<Packed> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| Packed::new_in(&a, Some(&frames)).unwrap()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for p in &many {
            assert!(matches!(p.frame.at, FrameAt::Spilled { .. }));
            assert_eq!(p.unpack().unwrap(), a);
        }
        // A frame outlives its names.
        let frames: Vec<Frame> = many.iter().map(Packed::frame).collect();
        drop(many);
        for f in &frames {
            assert_eq!(f.unpack().unwrap(), a);
            let symbols = f.unpack_symbols().unwrap();
            assert_eq!(symbols.symbols, a.symbols);
            assert!(symbols.edges.is_empty());
        }
        let n = p.names();
        names_match(n, &a);
        let imports = a.import_pairs();
        assert_eq!(n.imports().collect::<Vec<_>>(), imports);
        assert!(!imports.is_empty());
        for (name, _) in &imports {
            let modules: Vec<_> = imports
                .iter()
                .filter(|i| i.0 == *name)
                .map(|i| i.1)
                .collect();
            assert_eq!(n.imports_of(name).collect::<Vec<_>>(), modules);
        }
        assert_eq!(n.imports_of("not_imported").count(), 0);
        // Sources shared with their symbol again after unpacking.
        let un = p.unpack().unwrap();
        let e = un.edges.iter().find(|e| e.source.is_some()).unwrap();
        let s = un
            .symbols
            .iter()
            .find(|s| Some(&s.qualified_name) == e.source.as_ref())
            .unwrap();
        assert!(Arc::ptr_eq(&s.qualified_name, e.source.as_ref().unwrap()));
    }

    /// Names too long for a 16-byte entry (a 70 000-byte type name, its members' qualified
    /// names longer still) are kept whole beside the entries, between symbols that fit.
    #[test]
    fn names_longer_than_an_entry_holds_are_kept_whole() {
        let long = "T".repeat(70_000);
        let src = format!(
            "fn before() {{}}\nstruct {long} {{ x: u8 }}\nimpl {long} {{ fn m(&self) {{}} }}\nfn after() {{}}\n"
        );
        let a = super::super::analyze(Lang::Rust, &src);
        let n = Packed::new(&a).unwrap();
        let n = n.names();
        assert!(
            n.wide.len() >= 3,
            "{} wide of {}",
            n.wide.len(),
            a.symbols.len()
        );
        assert!(n.wide.len() < a.symbols.len());
        names_match(n, &a);
        assert!(a.symbols.iter().any(|s| s.name.len() == 70_000));
        assert!(a.symbols.iter().any(|s| &*s.name == "after"));
    }

    #[test]
    fn a_damaged_frame_is_an_error_not_a_panic() {
        let a = super::super::analyze(Lang::Rust, "fn main() { run(); }\n");
        let mut p = Packed::new(&a).unwrap();
        if let FrameAt::Memory(z) = &p.frame.at {
            p.frame.at = FrameAt::Memory(z[..z.len() / 2].into());
        }
        assert!(p.unpack().is_err());
        // A frame a scratch file no longer holds whole.
        let frames = FrameFile::new(tempfile::tempfile().unwrap());
        let p = Packed::new_in(&a, Some(&frames)).unwrap();
        frames.file.set_len(3).unwrap();
        assert!(p.unpack().is_err());
        for cut in 0..encode(&a).len() {
            assert!(decode(&encode(&a)[..cut], true).is_none());
        }
    }
}
