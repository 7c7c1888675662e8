//! Candidate definitions by (kind class, language family, name): the flat table the index
//! is built on, and the lookups resolution makes of one name's candidates.

use super::*;

/// A definition: (file index, symbol index in the file).
pub(super) type Cand = (u32, u32);

/// [`Index::pick`]'s answers within one file, keyed by all it reads of an edge there: (kind,
/// name, qualifier, the caller's type when there is a qualifier — or the caller itself for a
/// bare call in Java, C# or C++, [`enclosing_only`]).
pub(super) type PickMemo<'b> =
    HashMap<(EdgeKind, &'b str, Option<&'b str>, Option<&'b str>), Option<(Cand, &'static str)>>;

/// Candidate definitions of one name, for one kind class and language family, answering the
/// lookups resolution makes. Most names have a handful of definitions: those are scanned
/// (a slice of pairs, 8 bytes each). Names with many (`new`, `fmt`: thousands on the
/// registry) are searched instead: their candidates are in file order, so a file's are found
/// by binary search, and a directory's too (a directory's files are one range of file
/// numbers, [`Index::dir_ranges`]); only `Type` in `Type::f` needs a map.
/// Keys borrow from the files' [`Names`] (a `String` per key was ~10 M allocations on the
/// registry).
#[derive(Clone, Copy)]
pub(super) struct Cands<'x, 'a> {
    /// In file order (then symbol order within a file).
    pub(super) all: &'x [Cand],
    /// Whether each of `all` is a member of some type (has a parent): scans for members
    /// read these bytes in order instead of each candidate's symbol in its file's names.
    pub(super) members: &'x [bool],
    /// Built when there are more than [`SCAN_MAX`] candidates.
    pub(super) maps: Option<&'x CandMaps<'a>>,
}

/// Up to this many candidates are scanned instead of searched (a map costs hundreds of bytes
/// per name, for names with one or two definitions).
pub(super) const SCAN_MAX: usize = 16;

/// What a name with many candidates keeps beside them. No maps by file, by (file, parent) or
/// by directory: on the cargo registry they were 1.85 M entries, about half of the resolver's
/// memory, and binary searches over the candidates answer the same.
#[derive(Default)]
pub(super) struct CandMaps<'a> {
    /// First candidate whose parent's last segment is this name (`Type` in `Type::f`).
    pub(super) by_parent_last: HashMap<&'a str, Cand>,
}

/// Is `dir` (as [`ancestors`] yields it) an ancestor directory of `path`?
pub(super) fn is_under(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || (path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/')
}

impl CandMaps<'_> {
    /// The maps of a name with many candidates (`all`, in path order).
    pub(super) fn new<'a>(all: &[Cand], files: &'a [FileInput<'a>]) -> CandMaps<'a> {
        let mut m = CandMaps::default();
        for &id in all {
            if let Some(p) = files[id.0 as usize].names.parent(id.1 as usize) {
                m.by_parent_last.entry(last_segment(p)).or_insert(id);
            }
        }
        m
    }
}

impl<'a> Cands<'_, 'a> {
    pub(super) fn first(&self, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        self.all.iter().copied().find(|&c| keep(c))
    }

    /// The candidates from file `fi` on (binary search: `all` is in file order).
    pub(super) fn from_file(&self, fi: u32) -> &[Cand] {
        &self.all[self.all.partition_point(|c| c.0 < fi)..]
    }

    pub(super) fn in_file(&self, fi: u32) -> Option<Cand> {
        match &self.maps {
            Some(_) => self.from_file(fi).first().copied().filter(|c| c.0 == fi),
            None => self.first(|c| c.0 == fi),
        }
    }

    pub(super) fn in_file_where(&self, fi: u32, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        match &self.maps {
            Some(_) => self
                .from_file(fi)
                .iter()
                .take_while(|c| c.0 == fi)
                .copied()
                .find(|&c| keep(c)),
            None => self.first(|c| c.0 == fi && keep(c)),
        }
    }

    pub(super) fn in_file_with_parent(
        &self,
        ix: &Index<'a>,
        fi: u32,
        parent: &str,
    ) -> Option<Cand> {
        match &self.maps {
            Some(_) => self
                .from_file(fi)
                .iter()
                .take_while(|c| c.0 == fi)
                .copied()
                .find(|&c| ix.parent(c) == Some(parent)),
            None => self.first(|c| c.0 == fi && ix.parent(c) == Some(parent)),
        }
    }

    /// The first candidate (within [`SCAN_LIMIT`]) that is a member of some type.
    pub(super) fn member_where(&self, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        self.all
            .iter()
            .zip(self.members)
            .take(SCAN_LIMIT)
            .find(|&(&c, &member)| member && keep(c))
            .map(|(&c, _)| c)
    }

    pub(super) fn with_parent_last(&self, ix: &Index<'a>, last: &str) -> Option<Cand> {
        match &self.maps {
            Some(m) => m.by_parent_last.get(last).copied(),
            None => self.member_where(|c| ix.parent(c).map(last_segment) == Some(last)),
        }
    }

    /// A member of a type named like `ty`'s last segment: the nearest by directory (a Go
    /// package's methods are spread over its files; another package may have a type of the
    /// same name); for names with many candidates the first, else one under `path`'s
    /// directory (`Decoder.Decode` beside its type, where the first `Decode` of a `Decoder`
    /// is another package's). Only candidates `keep` accepts count.
    pub(super) fn nearest_with_parent_last(
        &self,
        ix: &Index<'a>,
        path: &str,
        ty: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        let last = last_segment(ty);
        match self.maps {
            Some(_) => self
                .with_parent_last(ix, last)
                .filter(|&c| keep(c))
                .or_else(|| {
                    self.directly_in(ix, dir_of(path), |c| {
                        ix.parent(c).map(last_segment) == Some(last) && keep(c)
                    })
                }),
            None => self.nearest_where(ix, path, |c| {
                ix.parent(c).map(last_segment) == Some(last) && keep(c)
            }),
        }
    }

    /// The candidate nearest `path` by directory among those `keep` accepts (the first
    /// [`SCAN_LIMIT`] are looked at): in the deepest shared directory, directly in it before
    /// below it.
    pub(super) fn nearest_where(
        &self,
        ix: &Index<'a>,
        path: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        // One pass, each candidate ranked by [`nearness`]: the first of the best rank is what
        // asking each ancestor in turn (directly in it, then under it) finds. That took two
        // scans per ancestor, each splitting every candidate's path (on the cargo registry its
        // `memrchr` alone was 1.2 % of a first index).
        let dir = dir_of(path);
        let mut best: Option<((usize, bool), Cand)> = None;
        for c in self.all.iter().take(SCAN_LIMIT).copied() {
            let rank = nearness(dir, ix.path(c));
            if best.is_some_and(|(b, _)| b >= rank) || !keep(c) {
                continue;
            }
            best = Some((rank, c));
            if rank == (dir.len(), true) {
                break;
            }
        }
        best.map(|(_, c)| c)
    }

    /// The candidates in files under directory `dir`, through its range of files
    /// ([`Index::dir_ranges`]); all of them when it has none.
    pub(super) fn under(&self, ix: &Index<'a>, dir: &str) -> &[Cand] {
        match ix.dir_ranges.get(dir) {
            Some(&(lo, hi)) => {
                let from = self.from_file(lo);
                &from[..from.partition_point(|c| c.0 <= hi)]
            }
            None => self.all,
        }
    }

    /// A candidate directly in directory `dir` (of the first [`SCAN_LIMIT`] under it), found
    /// through the directory's range of files ([`Index::dir_ranges`]); `None` without one.
    pub(super) fn directly_in(
        &self,
        ix: &Index<'a>,
        dir: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        ix.dir_ranges.get(dir)?;
        self.under(ix, dir)
            .iter()
            .copied()
            .take(SCAN_LIMIT)
            .find(|&c| ix.dir_lens[c.0 as usize] as usize == dir.len() && keep(c))
    }

    /// A candidate under directory `dir`: one directly in it before one in a subdirectory
    /// (`go/server.go` is nearer `go/handlers.go` than `go/admin/admin.go` is).
    pub(super) fn under_dir(
        &self,
        ix: &Index<'a>,
        dir: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        let directly_in = |c: &Cand| dir_of(ix.path(*c)) == dir && keep(*c);
        match (&self.maps, ix.dir_ranges.get(dir)) {
            (Some(_), Some(&(lo, hi))) => {
                let from = self.from_file(lo);
                let under = &from[..from.partition_point(|c| c.0 <= hi)];
                // Every file of the range is under `dir`: one directly in it is one whose
                // directory is as long (comparing lengths rather than splitting each path was
                // ~12 % of writing `edges` on the cargo registry).
                let direct = under
                    .iter()
                    .take(SCAN_LIMIT)
                    .copied()
                    .find(|&c| ix.dir_lens[c.0 as usize] as usize == dir.len() && keep(c));
                direct.or_else(|| under.iter().copied().find(|&c| keep(c)))
            }
            _ => self
                .first(|c| directly_in(&c))
                .or_else(|| self.first(|c| is_under(ix.path(c), dir) && keep(c))),
        }
    }
}

/// Kind classes: which definitions an edge kind may point at.
pub(super) const CLASSES: [&[&str]; 4] = [CALLABLE, TYPE_KINDS, REFERABLE, IMPORTABLE];

pub(super) fn class_of(kind: EdgeKind) -> usize {
    match kind {
        EdgeKind::Calls => 0,
        EdgeKind::Inherits | EdgeKind::Implements => 1,
        EdgeKind::References => 2,
        EdgeKind::Imports => 3,
    }
}

/// A candidate key: (kind class, language family number, name).
pub(super) type CandKey<'a> = (u8, u8, &'a str);

/// The key a candidate of `class` is found under: its file's family and its name.
pub(super) fn key_of<'a>(
    files: &'a [FileInput<'a>],
    file_family: &[u8],
    class: u8,
    (fi, si): Cand,
) -> CandKey<'a> {
    let names = files[fi as usize].names;
    (class, file_family[fi as usize], names.name(si as usize))
}

pub(super) fn key_hash((class, family, name): CandKey<'_>) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    (class, family, name).hash(&mut h);
    h.finish()
}

/// Each candidate key's candidates: a range of `cand_list`. The table holds only a key's
/// number and class; its family and name are its first candidate's, so no key is stored (a
/// map of `(class, family, &str)` keys was 17 MB of the registry copy's 31 MB index,
/// docs/benchmarks.md).
#[derive(Default)]
pub(super) struct CandTable {
    /// (key number, class).
    pub(super) table: hashbrown::HashTable<(u32, u8)>,
    /// Per key number: (start, count) in `cand_list`.
    pub(super) ranges: Vec<(u32, u32)>,
}

impl CandTable {
    /// Keys and ranges for every `(key, candidate)` that `each` gives, in its order (which is
    /// each key's candidates' order); `key_of` tells a candidate's key from its class.
    pub(super) fn new<'a>(
        each: impl Fn(&mut dyn FnMut(CandKey<'a>, Cand)),
        key_of: impl Fn(u8, Cand) -> CandKey<'a>,
    ) -> (CandTable, Vec<Cand>) {
        let mut table: hashbrown::HashTable<(u32, u8)> = hashbrown::HashTable::new();
        // Per key number: its first candidate and its count; per candidate, its key number.
        let (mut first, mut counts, mut numbers) =
            (Vec::<Cand>::new(), Vec::<u32>::new(), Vec::new());
        each(&mut |key, cand| {
            let hash = key_hash(key);
            let found = table.find(hash, |&(k, class)| key_of(class, first[k as usize]) == key);
            let k = match found {
                Some(&(k, _)) => k,
                None => {
                    let k = first.len() as u32;
                    first.push(cand);
                    counts.push(0);
                    table.insert_unique(hash, (k, key.0), |&(k, class)| {
                        key_hash(key_of(class, first[k as usize]))
                    });
                    k
                }
            };
            counts[k as usize] += 1;
            numbers.push(k);
        });
        drop(first);
        let mut ranges = Vec::with_capacity(counts.len());
        let mut total = 0u32;
        for n in counts {
            ranges.push((total, 0));
            total += n;
        }
        let mut list = vec![(0u32, 0u32); total as usize];
        let mut next = numbers.iter();
        each(&mut |_, cand| {
            if let Some(&k) = next.next() {
                let (start, count) = &mut ranges[k as usize];
                list[(*start + *count) as usize] = cand;
                *count += 1;
            }
        });
        (CandTable { table, ranges }, list)
    }

    /// The range of `key`'s candidates in `list` (as [`Self::new`] made it).
    pub(super) fn get<'a>(
        &self,
        key: CandKey<'a>,
        list: &[Cand],
        key_of: impl Fn(u8, Cand) -> CandKey<'a>,
    ) -> Option<(u32, u32)> {
        let first = |k: u32| list[self.ranges[k as usize].0 as usize];
        let found = self
            .table
            .find(key_hash(key), |&(k, class)| key_of(class, first(k)) == key)?;
        Some(self.ranges[found.0 as usize])
    }
}
