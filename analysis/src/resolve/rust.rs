//! Rust: the prelude, standard-library paths, crates and which crates a file can reach, enum
//! variants, traits in scope and module paths.

use super::*;

/// Functions and tuple variants Rust's prelude puts in scope (`size_of` and the others since
/// Rust 1.80), called bare.
pub(super) const RUST_PRELUDE_CALLS: &[&str] = &[
    "Ok",
    "Err",
    "Some",
    "drop",
    "size_of",
    "size_of_val",
    "align_of",
    "align_of_val",
];
/// Types and traits Rust's prelude puts in scope, named bare.
pub(super) const RUST_PRELUDE_TYPES: &[&str] = &[
    "Option",
    "Result",
    "Vec",
    "String",
    "Box",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Default",
    "Drop",
    "Clone",
    "Copy",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "Fn",
    "FnMut",
    "FnOnce",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "AsRef",
    "AsMut",
    "ToString",
    "ToOwned",
];
/// Whether a Rust path starts in the standard library's crates (`std::…`, `::core::…`).
pub(super) fn is_rust_std_path(path: &str) -> bool {
    matches!(rust_path_head(path), "std" | "core" | "alloc")
}

/// A Rust path's first segment (`std` in `::std::sync::Arc`): what follows any leading `::`s,
/// up to the next `::`. (Scanned by bytes: `split("::")` builds a substring searcher per call,
/// and resolution asks this for nearly every Rust edge with a qualifier.)
pub(super) fn rust_path_head(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("::") {
        p = rest;
    }
    let end = p.as_bytes().windows(2).position(|w| w == b"::");
    &p[..end.unwrap_or(p.len())]
}

/// Rust's crates: each directory with a `Cargo.toml`, `src/lib.rs` or `src/main.rs`, the
/// crate of each Rust file (the nearest such directory above it), and the crates each crate
/// names — the first names of its files' `use` paths (`linux_raw_sys` of `use
/// linux_raw_sys::ctypes::*`). (Not the paths calls are written with: counting them, `cc`'s
/// `libc::…` made every bare `hash` or `stdout` in `cc` a guess into libc.)
#[derive(Default)]
pub(super) struct RustCrates {
    /// Per file, its crate's number, or [`NO_CRATE`].
    pub(super) of_file: Vec<u32>,
    /// Per crate, the other crates it names ([`reached_crates`]), sorted: asked once per
    /// candidate in another crate, so answered by a binary search rather than by comparing
    /// every `use` head of the crate with the other's name (~4 % of writing `edges` on the
    /// cargo registry).
    pub(super) reached: Vec<Vec<u32>>,
}

pub(super) const NO_CRATE: u32 = u32::MAX;

impl RustCrates {
    pub(super) fn new<'a>(files: &[FileInput<'a>]) -> RustCrates {
        if !files.iter().any(|f| f.lang == Lang::Rust) {
            return RustCrates::default();
        }
        let mut roots: HashMap<&'a str, u32> = HashMap::default();
        let mut names = Vec::new();
        // (A registry's `Cargo.toml` is skipped as generated: its `src/lib.rs` or
        // `src/main.rs` tells the crate too.)
        for f in files {
            let root = ["Cargo.toml", "src/lib.rs", "src/main.rs"]
                .iter()
                .find_map(|end| f.path.strip_suffix(end));
            if let Some(dir) = root
                && (dir.is_empty() || dir.ends_with('/'))
            {
                let dir = dir.trim_end_matches('/');
                let last = dir.rsplit('/').next().unwrap_or(dir);
                roots.entry(dir).or_insert_with(|| {
                    names.push(without_version(last).replace('-', "_"));
                    (names.len() - 1) as u32
                });
            }
        }
        let mut named = vec![rustc_hash::FxHashSet::default(); names.len()];
        let of_file = files
            .iter()
            .map(|f| {
                if f.lang != Lang::Rust {
                    return NO_CRATE;
                }
                let Some(&k) = ancestors(f.path).find_map(|d| roots.get(d)) else {
                    return NO_CRATE;
                };
                for (name, module) in f.names.imports() {
                    let head = module.unwrap_or(name).split("::").find(|s| !s.is_empty());
                    if let Some(head) = head.filter(|h| !matches!(*h, "crate" | "self" | "super")) {
                        named[k as usize].insert(head);
                    }
                }
                k
            })
            .collect();
        RustCrates {
            of_file,
            reached: reached_crates(&names, &named),
        }
    }

    /// Whether a Rust file `from` may name a definition of file `to` without a path: both in
    /// one crate (or either in none), or `from`'s crate names `to`'s in a `use` — by its
    /// name, a facade's (`arrow` for `arrow_array`), or a renamed one ending in it
    /// (`quarry_analysis` for `analysis/`).
    pub(super) fn reaches(&self, from: u32, to: u32) -> bool {
        let crate_of = |f: u32| self.of_file.get(f as usize).copied().unwrap_or(NO_CRATE);
        let (a, b) = (crate_of(from), crate_of(to));
        if a == b || a == NO_CRATE || b == NO_CRATE {
            return true;
        }
        self.reached
            .get(a as usize)
            .is_some_and(|r| r.binary_search(&b).is_ok())
    }
}

/// Per crate, the crates (by number, sorted) one of its `use` heads names: by the crate's
/// name, as a facade's (`arrow` for `arrow_array`), or as a renamed one ending in it
/// (`quarry_analysis` for `analysis/`). Found through the names' and heads' `_`-separated
/// parts instead of by comparing every head with every crate's name.
pub(super) fn reached_crates(
    names: &[String],
    heads: &[rustc_hash::FxHashSet<&str>],
) -> Vec<Vec<u32>> {
    // Crates by their whole name, and by each prefix of it that ends before a `_`.
    let mut by_name: HashMap<&str, Vec<u32>> = HashMap::default();
    let mut by_prefix: HashMap<&str, Vec<u32>> = HashMap::default();
    for (b, name) in names.iter().enumerate() {
        by_name.entry(name).or_default().push(b as u32);
        for (p, _) in name.match_indices('_') {
            by_prefix.entry(&name[..p]).or_default().push(b as u32);
        }
    }
    heads
        .iter()
        .map(|heads| {
            let mut out: Vec<u32> = Vec::new();
            for &h in heads {
                // `h` itself, a name `h_…`, and a name `…_h'` where `h` ends in `_h'`.
                let suffixes = h.match_indices('_').map(|(p, _)| &h[p + 1..]);
                for found in [by_name.get(h), by_prefix.get(h)]
                    .into_iter()
                    .chain(suffixes.map(|s| by_name.get(s)))
                    .flatten()
                {
                    out.extend_from_slice(found);
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// The name a Rust path gives the crate in directory `dir`, when it differs from the
/// directory's name: `-` is `_` (`my-lib` is `my_lib`), and a registry's version suffix is
/// dropped (`rand-0.8.8` is `rand`, `lance-index-14.0.2` is `lance_index`).
pub(super) fn rust_crate_name(dir: &str) -> Option<String> {
    let base = without_version(dir);
    (base.len() < dir.len() || base.contains('-')).then(|| base.replace('-', "_"))
}

/// Whether crate directory `dir` is named `name` by Rust paths ([`rust_crate_name`], without
/// allocating: asked of each directory of each candidate a module path may name).
pub(super) fn rust_crate_dir_is(dir: &str, name: &str) -> bool {
    let base = without_version(dir);
    base.len() == name.len()
        && base
            .bytes()
            .zip(name.bytes())
            .all(|(a, b)| a == b || (a == b'-' && b == b'_'))
}

/// A registry directory's name without its version (`rand-0.8.8` → `rand`).
pub(super) fn without_version(dir: &str) -> &str {
    match dir.rfind('-') {
        Some(i) if dir[i + 1..].starts_with(|c: char| c.is_ascii_digit()) => &dir[..i],
        _ => dir,
    }
}

impl<'a> Index<'a> {
    /// The variant `name` of the enum Rust qualifier `q` names in file `fi` (`Self` in a
    /// method: its own type, `same_class`; else the type as `Type::f()`'s is found,
    /// `qualified`), when it has one.
    pub(super) fn variant_of(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        q: &str,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        let is_variant = |c: &Cand| self.kind(*c) == "variant";
        if q == "Self" {
            let own = source_qname?.rsplit_once('.')?.0;
            let cands = self.candidates(EdgeKind::References, "rust", name)?;
            let found =
                self.own_type_member(&cands, fi, own, EdgeKind::References, false, false)?;
            return Some(found.0).filter(is_variant).map(|c| (c, "same_class"));
        }
        let q_last = q
            .rsplit("::")
            .find(|s| !s.is_empty() && !s.starts_with('<'))?;
        if !q_last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let ty = crate::analyze::type_name(q)?;
        match self.declared_type_member(fi, ty, EdgeKind::References, name) {
            Some(Some((c, _))) if is_variant(&c) => Some((c, "qualified")),
            _ => None,
        }
    }

    /// The traits the Rust file `fi` imports by name (`use futures::TryStreamExt;`), as
    /// the file's names resolve: the extension traits whose methods a value of a type from
    /// outside the repository may have ([`Self::imported_trait_member`]).
    pub(super) fn imported_traits(&self, fi: usize) -> Vec<Cand> {
        let f = &self.files[fi];
        if f.lang != Lang::Rust {
            return Vec::new();
        }
        let mut traits: Vec<Cand> = f
            .names
            .imports()
            .filter(|(n, _)| n.starts_with(|c: char| c.is_ascii_uppercase()))
            .filter_map(|(n, _)| self.pick(fi, None, EdgeKind::Implements, n, None))
            .map(|(c, _)| c)
            .filter(|&c| self.kind(c) == "trait")
            .collect();
        traits.dedup();
        traits
    }

    /// A method called `name` of one of `traits` (the file's [`Self::imported_traits`]),
    /// labelled `import`: on a value whose type the repository does not define
    /// (`stream.try_collect()` with `use futures::TryStreamExt;`), unless the name is a
    /// standard method's ([`builtins::is_builtin_method`]).
    pub(super) fn imported_trait_member(
        &self,
        traits: &[Cand],
        kind: EdgeKind,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        // A standard method's name (`map`, `next`, `len`) is more likely the standard
        // library's own (`Iterator::map`) than an extension trait's (`StreamExt::map`).
        if traits.is_empty() || kind != EdgeKind::Calls || builtins::is_builtin_method("rust", name)
        {
            return None;
        }
        let cands = self.candidates(kind, "rust", name)?;
        traits
            .iter()
            .find_map(|&t| cands.in_file_with_parent(self, t.0, self.qualified_name(t)))
            .map(|c| (c, "import"))
    }

    /// For a Rust `Type::f()` the type was not found to have: the file's imported traits' `f`
    /// (`import`), else a trait's `f` in the file (`same_file`), else the only definition of
    /// `f` if a trait's, else of a trait the file names, the only one (`unique_name`) or the
    /// nearest (`ambiguous`); `None` otherwise, and for a standard trait's method's name.
    pub(super) fn rust_trait_function(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        name: &str,
        near: &dyn Fn(Cand) -> bool,
    ) -> Option<(Cand, &'static str)> {
        // A standard trait's method (`Type::default()` of a derived `Default`, `clone`,
        // `from`) is the standard library's, not a trait of the repository's by its name
        // (nor an imported one's: [`Self::imported_trait_member`] passes these over too).
        if builtins::is_builtin_method("rust", name) {
            return None;
        }
        let traits = self.imported_traits(fi);
        if let Some(found) = self.imported_trait_member(&traits, EdgeKind::Calls, name) {
            return Some(found);
        }
        let of_trait = |c: Cand| {
            self.parent_kind(c) == Some("trait")
                && near(c)
                && self.rust_crates.reaches(fi as u32, c.0)
        };
        if let Some(c) = cands.in_file_where(fi as u32, of_trait) {
            return Some((c, "same_file"));
        }
        // The one definition of the name there is (`StdRng::from_entropy()`: rand_core's
        // `SeedableRng`, imported through rand's re-export).
        if let [only] = cands.all
            && of_trait(*only)
        {
            return Some((*only, "unique_name"));
        }
        // Else a trait the file names (a bound, an import of its module's path, an impl): a
        // trait of that name only elsewhere is a guess more often wrong than right
        // (itertools' `CountItem.new` for a `FieldRef::new`).
        if IN_NAMED_CHECK.with(|f| f.get()) {
            return None;
        }
        let named = |c: Cand| of_trait(c) && self.names_parent_of(fi, c);
        let path = self.files[fi].path;
        let found = match cands.maps {
            None => cands.nearest_where(self, path, named),
            Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, named)),
        }?;
        let only = cands.maps.is_none() && cands.member_where(|c| c != found && named(c)).is_none();
        Some((found, if only { "unique_name" } else { "ambiguous" }))
    }

    /// Whether Rust qualifier `q` of a call in file `fi` is a module's path (`a::b`,
    /// `crate::util`, or `util` where the file declares `mod util`), not a value (`v` in
    /// `v.join()`: one name alone is written the same either way).
    pub(super) fn rust_module_path(&self, fi: usize, q: &str, q_last: &str) -> bool {
        if !(q_last.starts_with(|c: char| c.is_lowercase())
            && q.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':')))
        {
            return false;
        }
        let names = self.files[fi].names;
        q.contains("::")
            || (0..names.symbol_count()).any(|i| names.kind(i) == "module" && names.name(i) == q)
    }
}
