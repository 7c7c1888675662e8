//! C and C++: `#include`s as files, include closures, and definitions in included headers.

use super::*;

/// The most files a C or C++ file's include closure holds ([`Index::with_include_closure`]).
pub(super) const MAX_INCLUDE_CLOSURE: usize = 4096;

/// In [`Index::includes`]: an `#include` of a header the repository lacks (not a standard one).
pub(super) const NO_FILE: u32 = u32::MAX;

impl<'a> Index<'a> {
    /// The file a C or C++ `#include` path of file `fi` names, and how it was found: beside
    /// the including file, or by a path relative to it (`../x.h`: `relative_path`); else, as
    /// through an include directory the build adds, a file whose path ends with the include's
    /// whole path (`jemalloc/internal/mutex.h` is `include/jemalloc/internal/mutex.h`) — the
    /// nearest by directory (`import`, or `ambiguous` among several). A standard header
    /// named alone (`stdio.h`, `vector`) is only ever the file beside the includer: elsewhere
    /// in the repository it is a compatibility copy for another platform.
    pub(super) fn include_file(&self, fi: usize, include: &str) -> Option<(u32, &'static str)> {
        let from = self.files[fi].path;
        let mut parts: Vec<&str> = dir_of(from).split('/').filter(|s| !s.is_empty()).collect();
        let mut rest = include;
        let mut ok = true;
        for seg in include.split('/') {
            match seg {
                "." | "" => {}
                ".." => ok &= parts.pop().is_some(),
                _ => break,
            }
            rest = rest.get(seg.len() + 1..).unwrap_or("");
        }
        if ok && !rest.is_empty() {
            let beside = if parts.is_empty() {
                rest.to_string()
            } else {
                format!("{}/{rest}", parts.join("/"))
            };
            if let Some(&f) = self.by_path.get(beside.as_str()) {
                return Some((f as u32, "relative_path"));
            }
        }
        if rest.is_empty() || builtins::is_c_standard_header(rest) {
            return None;
        }
        // A header the build generates is found by its template (`config.h` by `config.h.in`).
        let template;
        let (name, rest) = match rest.rsplit('/').next().unwrap_or(rest) {
            name if self.by_file_name.contains_key(name) => (name, rest),
            name => {
                template = format!("{rest}.in");
                let name = &template[template.len() - name.len() - 3..];
                (name, template.as_str())
            }
        };
        let named = |f: &&u32| {
            let p = self.files[**f as usize].path;
            p == rest || p.strip_suffix(rest).is_some_and(|head| head.ends_with('/'))
        };
        let mut found = self.by_file_name.get(name)?.iter().filter(named);
        let first = *found.next()?;
        if found.next().is_none() {
            return Some((first, "import"));
        }
        let dir = dir_of(from);
        let best = self.by_file_name[name]
            .iter()
            .filter(named)
            .copied()
            .max_by_key(|&f| {
                (
                    nearness(dir, self.files[f as usize].path),
                    std::cmp::Reverse(f),
                )
            })?;
        Some((best, "ambiguous"))
    }

    /// Runs `f` with the files C or C++ file `fi` includes, directly or through other
    /// headers (at most [`MAX_INCLUDE_CLOSURE`]), each with its rank in breadth-first order
    /// (the file's own includes first), and whether they are all it includes (no include of
    /// theirs names a header the repository lacks, other than a standard one). Cached per
    /// thread for the last file asked: the resolver asks for one file's edges at a time.
    pub(super) fn with_include_closure<R>(
        &self,
        fi: usize,
        f: impl FnOnce(&HashMap<u32, u32>, bool) -> R,
    ) -> R {
        type Closure = (u64, u32, HashMap<u32, u32>, bool);
        thread_local! {
            static CLOSURE: std::cell::RefCell<Closure> =
                std::cell::RefCell::new((u64::MAX, 0, HashMap::default(), false));
        }
        CLOSURE.with(|cell| {
            let mut cached = cell.borrow_mut();
            if cached.0 != self.id || cached.1 != fi as u32 {
                let mut complete = true;
                let rank = &mut cached.2;
                rank.clear();
                let mut order = vec![fi as u32];
                rank.insert(fi as u32, 0);
                let mut at = 0;
                while at < order.len() && order.len() < MAX_INCLUDE_CLOSURE {
                    let file = order[at] as usize;
                    at += 1;
                    let Some(range) = self
                        .include_starts
                        .get(file)
                        .zip(self.include_starts.get(file + 1))
                    else {
                        continue;
                    };
                    for &inc in &self.includes[*range.0 as usize..*range.1 as usize] {
                        if inc == NO_FILE {
                            complete = false;
                            continue;
                        }
                        if order.len() >= MAX_INCLUDE_CLOSURE {
                            complete = false;
                            break;
                        }
                        let next = order.len() as u32;
                        rank.entry(inc).or_insert_with(|| {
                            order.push(inc);
                            next
                        });
                    }
                }
                rank.remove(&(fi as u32));
                cached.0 = self.id;
                cached.1 = fi as u32;
                cached.3 = complete;
            }
            f(&cached.2, cached.3)
        })
    }

    /// Among `cands` (those `keep` accepts), the definition in the nearest header C or C++
    /// file `fi` includes, directly or not ([`Self::with_include_closure`]): `import`, or
    /// `ambiguous` when several headers define the name (platform variants). Also whether
    /// all the file includes is known.
    pub(super) fn in_includes(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        keep: impl Fn(Cand) -> bool,
    ) -> (Option<(Cand, &'static str)>, bool) {
        self.with_include_closure(fi, |rank, complete| {
            // (rank, candidate) of the nearest so far, and whether another file has one.
            let mut best: Option<(u32, Cand)> = None;
            let mut several = false;
            let mut consider = |c: Cand| {
                let Some(&r) = rank.get(&c.0) else { return };
                match best {
                    Some((_, b)) if b.0 == c.0 => {}
                    Some((br, _)) => {
                        several = true;
                        if r < br {
                            best = Some((r, c));
                        }
                    }
                    None => best = Some((r, c)),
                }
            };
            if cands.all.len() <= rank.len() {
                cands
                    .all
                    .iter()
                    .copied()
                    .filter(|&c| keep(c))
                    .for_each(&mut consider);
            } else {
                for &file in rank.keys() {
                    if let Some(c) = cands.in_file_where(file, &keep) {
                        consider(c);
                    }
                }
            }
            let how = if several { "ambiguous" } else { "import" };
            (best.map(|(_, c)| (c, how)), complete)
        })
    }

    /// Whether file `fi` is a C or C++ header (not a source file, which the build compiles
    /// on its own and links).
    pub(super) fn is_header(&self, fi: u32) -> bool {
        let path = self.files[fi as usize].path;
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        !matches!(ext, "c" | "cc" | "cpp" | "cxx" | "c++" | "m" | "mm" | "cu")
    }
}
