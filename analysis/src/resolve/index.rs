//! The repository-wide index resolution reads: files, candidates, directories, clause files,
//! per-language tables, built once per run ([`Index::new`]), and its generic accessors.

use super::*;

thread_local! {
    /// The index and file [`Resolver::edges`] is resolving, and the hashes
    /// ([`segment_hash`]) of the type names that file names: its imports, the types it
    /// references, inherits or implements, the paths it calls through (`Foo` in `Foo::new()`),
    /// its receivers' declared types and its own types ([`Index::file_names_type`]).
    pub(super) static NAMED_TYPES: std::cell::RefCell<(u64, u32, rustc_hash::FxHashSet<u64>)> =
        std::cell::RefCell::new((u64::MAX, 0, rustc_hash::FxHashSet::default()));
    /// What each of those names resolves to from that file, once asked
    /// ([`Index::names_parent_of`]), by the name's hash.
    pub(super) static NAMED_TYPE_PICKS: std::cell::RefCell<HashMap<u64, Option<Cand>>> =
        std::cell::RefCell::new(HashMap::default());
    /// Set while [`Index::names_parent_of`] resolves a type name, whose own lookup must not
    /// ask it again (a class nested in a class of its own name).
    pub(super) static IN_NAMED_CHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub(super) struct Index<'a> {
    pub(super) files: &'a [FileInput<'a>],
    /// Language families, numbered for [`CandKey`].
    pub(super) families: Vec<&'a str>,
    /// Each file's language family number.
    pub(super) file_family: Vec<u8>,
    /// Each key's candidates: a range of `cand_list`. One flat list instead of a vector per
    /// name: on the registry this index went from ~180 MB to under half that.
    pub(super) cands: CandTable,
    pub(super) cand_list: Vec<Cand>,
    /// Whether each of `cand_list` has a parent ([`Cands::members`]).
    pub(super) cand_members: Vec<bool>,
    /// The maps of keys with more than [`SCAN_MAX`] candidates, by their start.
    pub(super) cand_maps: HashMap<u32, CandMaps<'a>>,
    pub(super) by_path: HashMap<&'a str, usize>,
    /// Each file's directory's length in bytes (of [`dir_of`] its path).
    pub(super) dir_lens: Vec<u32>,
    /// The [`segment_hash`]es of each file's path segments and its stem: file `i`'s are
    /// `segment_hashes[segment_starts[i]..segment_starts[i + 1]]`.
    pub(super) segment_hashes: Vec<u64>,
    pub(super) segment_starts: Vec<u32>,
    /// Each directory whose files are consecutive in `files` (all of them in a listing,
    /// which is depth first or sorted by path): the first and last file number under it.
    pub(super) dir_ranges: HashMap<&'a str, (u32, u32)>,
    /// The files with an inheritance or implementation clause for a type of this name (its
    /// last segment), in file order: where a type's clauses are when they are not in the
    /// file of the method calling through them.
    pub(super) clause_files: HashMap<&'a str, Vec<u32>>,
    /// The files with a clause naming a base type of this name (its last segment), in file
    /// order: where a mixin's subclasses are.
    pub(super) base_files: HashMap<&'a str, Vec<u32>>,
    /// C and C++: the files each file's `#include`s name ([`Index::include_file`]), file `i`'s
    /// being `includes[include_starts[i]..include_starts[i + 1]]`; both empty when the
    /// repository has no C or C++.
    pub(super) include_starts: Vec<u32>,
    pub(super) includes: Vec<u32>,
    /// C and C++: whether each file is included by another (a header, or a `.c` file a
    /// unity build includes): it sees what its includer included before it.
    pub(super) included: Vec<bool>,
    /// C and C++: every file by its name (its path's last component), for `#include` paths
    /// found under an include directory. Empty when the repository has no C or C++.
    pub(super) by_file_name: HashMap<&'a str, Vec<u32>>,
    /// Go: each directory with Go files (a package), by its last name, with the file that
    /// stands for the package as an import's target ([`Index::go_package`]). Empty when the
    /// repository has no Go.
    pub(super) go_packages: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Java: the same of each directory with Java files, the target of an on-demand import
    /// (`import a.b.*;`). Empty when the repository has no Java.
    pub(super) java_packages: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Go: each file's build constraint, parsed ([`gobuild::Constraint`]), and whether a
    /// default build for some platform satisfies it; empty when the repository has no Go
    /// file that states one.
    pub(super) go_builds: Vec<Option<(gobuild::Constraint, bool)>>,
    /// The hashes ([`segment_hash`]) of the repository's directories' names, when it has
    /// JavaScript or TypeScript: whether a package imported by name may be here
    /// ([`Index::outside_module_call`]).
    pub(super) dir_names: rustc_hash::FxHashSet<u64>,
    /// Rust: the crates ([`RustCrates`]), when the repository has Rust and `Cargo.toml`s.
    pub(super) rust_crates: RustCrates,
    /// Java, C# and C++: the functions and methods that share their name and parent with
    /// another in their file (overloads: `Gson.toJson`, `Gson.toJson#2`, …), whichever a call
    /// by name alone cannot tell apart ([`Index::overloaded`]).
    pub(super) overloads: rustc_hash::FxHashSet<Cand>,
    /// Distinct for every index the process builds: the key of the per-thread caches
    /// ([`Index::with_include_closure`], [`Index::file_names_type`]).
    pub(super) id: u64,
}

/// The overloaded functions and methods of `files` ([`Index::overloads`]): a name that a file
/// defines twice under one parent has its later definitions numbered (`f#2`), so each
/// numbered one and the one it repeats.
fn overloads(files: &[FileInput<'_>]) -> rustc_hash::FxHashSet<Cand> {
    let mut out = rustc_hash::FxHashSet::default();
    for (fi, f) in files.iter().enumerate() {
        if !matches!(f.lang, Lang::Java | Lang::CSharp | Lang::Cpp) {
            continue;
        }
        let names = f.names;
        let callable = |i: usize| matches!(names.kind(i), "function" | "method" | "constructor");
        let mut first: HashMap<&str, usize> = HashMap::default();
        for i in 0..names.symbol_count() {
            if !callable(i) {
                continue;
            }
            let q = names.qualified_name(i);
            match q.rsplit_once('#') {
                Some((base, n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                    out.insert((fi as u32, i as u32));
                    if let Some(&j) = first.get(base) {
                        out.insert((fi as u32, j as u32));
                    }
                }
                _ => {
                    first.insert(q, i);
                }
            }
        }
    }
    out
}

/// Languages whose definitions can refer to each other.
pub(super) fn family(language: &str) -> &str {
    match language {
        "c" | "cpp" => "c",
        "javascript" | "typescript" | "tsx" => "js",
        other => other,
    }
}

pub(super) fn last_segment(qname: &str) -> &str {
    qname.rsplit('.').next().unwrap_or(qname)
}

pub(super) fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// The packages of `language`, Go's or Java's: each directory with files of the language by
/// its last name (the root's is ``), with the file that stands for it — not a test: Go's
/// `doc.go`, else the one named like the directory; Java's `package-info.java`; else the
/// first.
pub(super) fn packages<'a>(
    files: &[FileInput<'a>],
    language: &str,
) -> HashMap<&'a str, Vec<(&'a str, u32)>> {
    let mut best: HashMap<&'a str, (u8, u32)> = HashMap::default();
    for (fi, f) in files.iter().enumerate() {
        if f.language != language {
            continue;
        }
        let (dir, name) = match f.path.rsplit_once('/') {
            Some((d, n)) => (d, n),
            None => ("", f.path),
        };
        let last = dir.rsplit('/').next().unwrap_or(dir);
        let rank = if name.ends_with("_test.go") {
            3
        } else if matches!(name, "doc.go" | "package-info.java") {
            0
        } else if name.strip_suffix(".go") == Some(last) {
            1
        } else {
            2
        };
        let e = best.entry(dir).or_insert((rank, fi as u32));
        if rank < e.0 {
            *e = (rank, fi as u32);
        }
    }
    let mut out: HashMap<&'a str, Vec<(&'a str, u32)>> = HashMap::default();
    for (dir, (_, fi)) in best {
        out.entry(dir.rsplit('/').next().unwrap_or(dir))
            .or_default()
            .push((dir, fi));
    }
    for dirs in out.values_mut() {
        dirs.sort_unstable();
    }
    out
}

/// The last name of qualifier `q` (`Map` of `java.util.Map`, `Config` of `crate::Config`),
/// without a turbofish's arguments: `GenericListArray::<O>::try_new` is `GenericListArray`'s.
pub(super) fn qualifier_last(q: &str) -> &str {
    let last = q
        .rsplit(['.', ':', '/', '\\'])
        .find(|s| !s.is_empty() && !s.starts_with('<'))
        .unwrap_or(q);
    last.split('<').next().unwrap_or(last)
}

/// Whether the file at `path` is a test by its name, as test runners find them, in languages
/// whose files reach others only through imports: JavaScript's and TypeScript's
/// `x.test.ts`, `x.spec.js` or a file under `__tests__/`; Python's `test_x.py`, `x_test.py`;
/// Ruby's `x_spec.rb`, `x_test.rb`, `test_x.rb`. (Go's test files see their package's other
/// test files, as Java's test classes see their package's: [`gobuild::is_test_file`].)
pub(super) fn is_script_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    match ext {
        "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => {
            stem.ends_with(".test")
                || stem.ends_with(".spec")
                || path.starts_with("__tests__/")
                || path.contains("/__tests__/")
        }
        "py" | "rb" => {
            stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec")
        }
        _ => false,
    }
}

/// How near a file at `other` is to one in directory `dir`: the length of their deepest shared
/// directory (one of [`ancestors`] of a file in `dir`, so longer is deeper), and whether
/// `other` is directly in it. Ranks as asking each ancestor in turn would.
pub(super) fn nearness(dir: &str, other: &str) -> (usize, bool) {
    let (d, o) = (dir.as_bytes(), other.as_bytes());
    let common = d.iter().zip(o).take_while(|(a, b)| a == b).count();
    let shared = if !d.is_empty() && common == d.len() && o.get(common) == Some(&b'/') {
        d.len()
    } else {
        // The last separator both share (they agree up to `common`), else the root.
        d[..common].iter().rposition(|&b| b == b'/').unwrap_or(0)
    };
    // `other[shared]` is the separator after the shared directory, unless that is the root.
    let rest = if shared == 0 { o } else { &o[shared + 1..] };
    (shared, !rest.contains(&b'/'))
}

/// `a/b/c.rs` → `a/b`, `a`, ``.
pub(super) fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut cur = Some(dir_of(path));
    std::iter::from_fn(move || {
        let d = cur?;
        cur = if d.is_empty() { None } else { Some(dir_of(d)) };
        Some(d)
    })
}

/// The segment of a module path (`a::b`, `a.b`, `./x/y.js`, `github.com/o/r/pkg`) that names a
/// file or directory: the last one that is not `crate`, `self`, `super`, `..`, `src` or `lib`.
/// A path with slashes is split at them alone, and its file's extension dropped (`y` of
/// `./x/y.js`, `yaml` of `gopkg.in/yaml.v3`).
pub(super) fn module_last_segment(module: &str) -> Option<&str> {
    let keep = |s: &&str| {
        !s.is_empty() && !matches!(*s, "crate" | "self" | "super" | "." | ".." | "src" | "lib")
    };
    if module.contains('/') {
        return module
            .rsplit('/')
            .map(|s| s.split('.').next().unwrap_or(s))
            .find(keep);
    }
    module.rsplit(['.', ':', '\\']).find(keep)
}

/// A hash of a path segment (a directory's or file's name, or a file's stem), for
/// [`Index::may_name`].
pub(super) fn segment_hash(segment: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(segment)
}

/// A path's directory and its file's stem: `a/b/c.rs` → (`a/b`, `c`).
pub(super) fn dir_and_stem(path: &str) -> (&str, &str) {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    (dir, file.split('.').next().unwrap_or(file))
}

/// A module path's [`module_last_segment`], ready to be matched against many files' paths:
/// [`Index::may_name`] rules most out by hash, [`Self::names`] decides.
pub(super) struct ModuleSegment<'m> {
    pub(super) last: &'m str,
    pub(super) hash: u64,
}

impl<'m> ModuleSegment<'m> {
    pub(super) fn new(last: &'m str) -> Self {
        ModuleSegment {
            last,
            hash: segment_hash(last),
        }
    }

    /// Does a module whose [`module_last_segment`] is `last` name this file's path? It
    /// neither allocates nor re-splits the module (splitting it per candidate was a quarter
    /// of writing `edges` on the cargo registry).
    pub(super) fn names(&self, path: &str) -> bool {
        self.is_module_file(path) || path.split('/').any(|c| c == self.last)
    }

    /// Whether the file at `path` is the module itself (`scheduler.rs`, `scheduler/mod.rs`,
    /// `scheduler/__init__.py`), not a file below a directory named like it.
    pub(super) fn is_module_file(&self, path: &str) -> bool {
        let last = self.last;
        let (dir, stem) = dir_and_stem(path);
        let parent = dir.rsplit('/').next().unwrap_or("");
        last == stem || (last == parent && matches!(stem, "mod" | "__init__" | "index"))
    }
}

/// Linear scans (module-path matching) stop after this many candidates.
pub(super) const SCAN_LIMIT: usize = 512;

impl<'a> Index<'a> {
    pub(super) fn new(files: &'a [FileInput<'a>]) -> Self {
        // Symbols and paths are counted in u32 (a repository has far fewer than 4 G).
        let mut families: Vec<&'a str> = Vec::new();
        let file_family: Vec<u8> = files
            .iter()
            .map(|f| {
                let fam = family(f.language);
                match families.iter().position(|x| *x == fam) {
                    Some(i) => i as u8,
                    None => {
                        families.push(fam);
                        (families.len() - 1) as u8
                    }
                }
            })
            .collect();
        // Every (file, symbol, class) a definition is a candidate for, in path order.
        let each = |f: &mut dyn FnMut(CandKey<'a>, Cand)| {
            for (fi, file) in files.iter().enumerate() {
                let names = file.names;
                for si in 0..names.symbol_count() {
                    let kind = names.kind(si);
                    for (class, kinds) in CLASSES.iter().enumerate() {
                        // A Go defined type is a type, and called it converts.
                        let go_type = go_defined_type(kind, file.lang)
                            && (class == class_of(EdgeKind::Inherits)
                                || class == class_of(EdgeKind::Calls));
                        // A Ruby module is a constant too (`Module === x`), and an
                        // ancestor of what mixes it in (`include Comparable`).
                        let ruby_module = kind == "module"
                            && file.lang == Lang::Ruby
                            && (class == class_of(EdgeKind::References)
                                || class == class_of(EdgeKind::Inherits));
                        // A Go field of a function type is called (`s.handler(r)`).
                        let go_func_field = class == class_of(EdgeKind::Calls)
                            && kind == "field"
                            && file.lang == Lang::Go
                            && names.declared_return(si).is_some_and(go_func_type);
                        // And a Go package-level variable called holds a function (`var
                        // DaysIn = daysIn`, `var Usage = func() {…}`): Go calls nothing else,
                        // and a name written alone is its package's.
                        let go_func_var = class == class_of(EdgeKind::Calls)
                            && kind == "variable"
                            && file.lang == Lang::Go
                            && names.parent(si).is_none();
                        if kinds.contains(&kind)
                            || go_type
                            || ruby_module
                            || go_func_field
                            || go_func_var
                        {
                            f(
                                (class as u8, file_family[fi], names.name(si)),
                                (fi as u32, si as u32),
                            );
                        }
                    }
                }
            }
        };
        // Count per key, give each key its range of the flat list, then fill the ranges.
        let (cands, cand_list) =
            CandTable::new(each, |class, c| key_of(files, &file_family, class, c));
        let cand_members = cand_list
            .iter()
            .map(|&(fi, si)| files[fi as usize].names.parent(si as usize).is_some())
            .collect();
        let cand_maps = {
            use rayon::prelude::*;
            let big: Vec<(u32, u32)> = cands
                .ranges
                .iter()
                .copied()
                .filter(|&(_, n)| n as usize > SCAN_MAX)
                .collect();
            big.into_par_iter()
                .map(|(start, n)| {
                    let all = &cand_list[start as usize..(start + n) as usize];
                    (start, CandMaps::new(all, files))
                })
                .collect()
        };
        let by_path = files
            .iter()
            .enumerate()
            .map(|(fi, f)| (f.path, fi))
            .collect();
        // (first, last, count) of the files under each directory.
        let mut spans: HashMap<&'a str, (u32, u32, u32)> = HashMap::default();
        for (fi, f) in files.iter().enumerate() {
            let fi = fi as u32;
            for d in ancestors(f.path) {
                let span = spans.entry(d).or_insert((fi, fi, 0));
                span.1 = fi;
                span.2 += 1;
            }
        }
        let dir_lens = files.iter().map(|f| dir_of(f.path).len() as u32).collect();
        let mut segment_hashes = Vec::new();
        let mut segment_starts = Vec::with_capacity(files.len() + 1);
        for f in files {
            segment_starts.push(segment_hashes.len() as u32);
            segment_hashes.push(segment_hash(dir_and_stem(f.path).1));
            segment_hashes.extend(f.path.split('/').map(segment_hash));
            // A Rust crate's directory by the name its paths use (`my-lib` is `my_lib`,
            // a registry's `rand-0.8.8` is `rand`).
            if f.lang == Lang::Rust {
                let dirs = dir_of(f.path).split('/');
                segment_hashes.extend(dirs.filter_map(rust_crate_name).map(|n| segment_hash(&n)));
            }
        }
        segment_starts.push(segment_hashes.len() as u32);
        // JavaScript and TypeScript: the names of the repository's directories, where a
        // package imported by name would be (`node_modules/zod/`).
        let dir_names = match files
            .iter()
            .any(|f| matches!(f.lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
        {
            true => spans
                .keys()
                .map(|d| segment_hash(d.rsplit('/').next().unwrap_or(d)))
                .collect(),
            false => rustc_hash::FxHashSet::default(),
        };
        let dir_ranges = spans
            .into_iter()
            .filter(|(_, (lo, hi, n))| hi - lo + 1 == *n)
            .map(|(d, (lo, hi, _))| (d, (lo, hi)))
            .collect();
        let mut clause_files: HashMap<&'a str, Vec<u32>> = HashMap::default();
        let mut base_files: HashMap<&'a str, Vec<u32>> = HashMap::default();
        for (fi, f) in files.iter().enumerate() {
            for (t, base, _) in f.names.heritage() {
                for (map, name) in [(&mut clause_files, t), (&mut base_files, base)] {
                    let in_files = map.entry(last_segment(name)).or_default();
                    if in_files.last() != Some(&(fi as u32)) {
                        in_files.push(fi as u32);
                    }
                }
            }
        }
        let c_family = files.iter().any(|f| matches!(f.lang, Lang::C | Lang::Cpp));
        let by_file_name = if c_family {
            let mut m: HashMap<&'a str, Vec<u32>> = HashMap::default();
            for (fi, f) in files.iter().enumerate() {
                let name = f.path.rsplit('/').next().unwrap_or(f.path);
                m.entry(name).or_default().push(fi as u32);
            }
            m
        } else {
            HashMap::default()
        };
        let rust_crates = RustCrates::new(files);
        let go_packages = packages(files, "go");
        let java_packages = packages(files, "java");
        let go_builds = match files.iter().any(|f| f.names.go_build().is_some()) {
            true => files
                .iter()
                .map(|f| {
                    let c = gobuild::Constraint::parse(f.names.go_build()?)?;
                    let anywhere = c.holds_anywhere();
                    Some((c, anywhere))
                })
                .collect(),
            false => Vec::new(),
        };
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut index = Index {
            files,
            families,
            file_family,
            cands,
            cand_list,
            cand_members,
            cand_maps,
            by_path,
            dir_lens,
            segment_hashes,
            segment_starts,
            dir_ranges,
            clause_files,
            base_files,
            include_starts: Vec::new(),
            includes: Vec::new(),
            included: Vec::new(),
            by_file_name,
            go_packages,
            java_packages,
            go_builds,
            dir_names,
            rust_crates,
            overloads: overloads(files),
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        if c_family {
            let mut starts = Vec::with_capacity(files.len() + 1);
            let mut includes = Vec::new();
            for (fi, f) in files.iter().enumerate() {
                starts.push(includes.len() as u32);
                if matches!(f.lang, Lang::C | Lang::Cpp) {
                    // An include that names no file here and no standard header (a generated
                    // `config.h`) is [`NO_FILE`]: what the file sees is then not all known.
                    let found = f.names.imports().filter_map(|(_, path)| {
                        let path = path?;
                        match index.include_file(fi, path) {
                            Some((i, _)) => Some(i),
                            None if builtins::is_c_standard_header(path) => None,
                            None => Some(NO_FILE),
                        }
                    });
                    includes.extend(found);
                }
            }
            starts.push(includes.len() as u32);
            index.include_starts = starts;
            let mut included = vec![false; files.len()];
            for &f in includes.iter().filter(|&&f| f != NO_FILE) {
                included[f as usize] = true;
            }
            index.included = included;
            index.includes = includes;
        }
        index
    }

    /// The file [`Resolver::edges`] is resolving on this thread, when it is one of this
    /// index's.
    pub(super) fn resolving(&self) -> Option<usize> {
        NAMED_TYPES.with(|cell| {
            let named = cell.borrow();
            (named.0 == self.id).then_some(named.1 as usize)
        })
    }

    /// Whether file `fi` names a type called `name` ([`Resolver::edges`] records, per thread,
    /// the names of the file whose edges it is resolving; `None` for any other file).
    pub(super) fn file_names_type(&self, fi: usize, name: &str) -> Option<bool> {
        NAMED_TYPES.with(|cell| {
            let named = cell.borrow();
            (named.0 == self.id && named.1 == fi as u32)
                .then(|| named.2.contains(&segment_hash(name)))
        })
    }

    /// Whether file `fi` names the type candidate `c` is a member of: a name the file uses
    /// for a type ([`Self::file_names_type`]) that resolves, from the file, to the type in
    /// `c`'s file or directory — syn's own `Receiver`, not another crate's test `Receiver`.
    pub(super) fn names_parent_of(&self, fi: usize, c: Cand) -> bool {
        let Some(parent) = self.parent(c) else {
            return false;
        };
        let ty = last_segment(parent);
        if self.file_names_type(fi, ty) != Some(true) {
            return false;
        }
        let key = segment_hash(ty);
        let known = NAMED_TYPE_PICKS.with(|m| m.borrow().get(&key).copied());
        let resolved = match known {
            Some(r) => r,
            None => {
                IN_NAMED_CHECK.with(|f| f.set(true));
                let r = self
                    .pick(fi, None, EdgeKind::References, ty, None)
                    .map(|(t, _)| t);
                IN_NAMED_CHECK.with(|f| f.set(false));
                NAMED_TYPE_PICKS.with(|m| m.borrow_mut().insert(key, r));
                r
            }
        };
        resolved.is_some_and(|t| t.0 == c.0 || dir_of(self.path(t)) == dir_of(self.path(c)))
    }

    /// Whether candidate `c` is visible only inside its own file: in a C or C++ source file
    /// (not a header), a `static` definition or a macro.
    pub(super) fn file_local(&self, c: Cand) -> bool {
        !self.is_header(c.0)
            && (self.kind(c) == "macro" || !self.files[c.0 as usize].names.is_public(c.1 as usize))
    }

    /// The candidates of `name` for an edge of `kind` from a file in `language`.
    pub(super) fn candidates(
        &self,
        kind: EdgeKind,
        language: &str,
        name: &str,
    ) -> Option<Cands<'_, 'a>> {
        let fam = family(language);
        let fam = self.families.iter().position(|x| *x == fam)? as u8;
        let key = (class_of(kind) as u8, fam, name);
        let (start, n) = self.cands.get(key, &self.cand_list, |class, c| {
            key_of(self.files, &self.file_family, class, c)
        })?;
        let range = start as usize..(start + n) as usize;
        Some(Cands {
            all: self.cand_list.get(range.clone())?,
            members: self.cand_members.get(range)?,
            maps: self.cand_maps.get(&start),
        })
    }

    pub(super) fn qualified_name(&self, c: Cand) -> &'a str {
        self.files[c.0 as usize].names.qualified_name(c.1 as usize)
    }

    pub(super) fn parent(&self, c: Cand) -> Option<&'a str> {
        self.files[c.0 as usize].names.parent(c.1 as usize)
    }

    /// The kind of candidate `c`'s parent, the last symbol of that qualified name before it
    /// in its file (`None` without a parent).
    pub(super) fn parent_kind(&self, c: Cand) -> Option<&'static str> {
        let parent = self.parent(c)?;
        let names = self.files[c.0 as usize].names;
        (0..c.1 as usize)
            .rev()
            .find(|&i| names.qualified_name(i) == parent)
            .map(|i| names.kind(i))
    }

    pub(super) fn kind(&self, c: Cand) -> &'static str {
        self.files[c.0 as usize].names.kind(c.1 as usize)
    }

    /// Whether `c` is defined inside a function or method (its parent, which comes before
    /// it in its file's symbols, usually just before, is one).
    pub(super) fn nested_in_function(&self, c: Cand) -> bool {
        let names = self.files[c.0 as usize].names;
        let Some(parent) = names.parent(c.1 as usize) else {
            return false;
        };
        (0..c.1 as usize)
            .rev()
            .find(|&i| names.qualified_name(i) == parent)
            .is_some_and(|i| matches!(names.kind(i), "function" | "method" | "constructor"))
    }

    /// See [`Resolver::foreign_parents`]: the type a parent names is looked up as the type of
    /// an `impl Trait for T` clause is (nearest definition first).
    pub(super) fn foreign_parents(&self, first_symbol: &[usize]) -> HashMap<usize, Option<Cand>> {
        let mut out = HashMap::default();
        for (fi, f) in self.files.iter().enumerate() {
            let names = f.names;
            let mut own: Option<std::collections::HashSet<&str>> = None;
            let mut found: HashMap<&str, Option<Cand>> = HashMap::default();
            for si in 0..names.symbol_count() {
                let Some(parent) = names.parent(si) else {
                    continue;
                };
                let own = own.get_or_insert_with(|| {
                    (0..names.symbol_count())
                        .map(|i| names.qualified_name(i))
                        .collect()
                });
                if own.contains(parent) {
                    continue;
                }
                let target = *found.entry(parent).or_insert_with(|| {
                    self.pick(fi, None, EdgeKind::Implements, last_segment(parent), None)
                        .map(|(c, _)| c)
                });
                out.insert(first_symbol[fi] + si, target);
            }
        }
        out
    }

    pub(super) fn path(&self, c: Cand) -> &'a str {
        self.files[c.0 as usize].path
    }

    /// Whether `segment` may name file `fi`'s path: false when no segment of the path, nor
    /// its stem, hashes as it does ([`ModuleSegment::names`] needs one of them equal). Most
    /// of the up to [`SCAN_LIMIT`] candidates an edge looks at fail here, on a few integers
    /// instead of a substring search of their path (~5 % of writing `edges` on the cargo
    /// registry).
    pub(super) fn may_name(&self, segment: &ModuleSegment<'_>, fi: u32) -> bool {
        let (lo, hi) = (
            self.segment_starts[fi as usize] as usize,
            self.segment_starts[fi as usize + 1] as usize,
        );
        self.segment_hashes[lo..hi].contains(&segment.hash)
    }
}
