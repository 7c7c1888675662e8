//! Go: receivers, packages by directory and import path, build constraints per platform,
//! package-level function variables.

use super::*;

/// The name a Go method binds its receiver to, read from its signature: `s` in
/// `func (s *Server) Handle()`; none for `func (*Server) Handle()` or `func (_ Server) …`.
pub(super) fn go_receiver(signature: &str) -> Option<&str> {
    let rest = signature
        .strip_prefix("func")?
        .trim_start()
        .strip_prefix('(')?
        .trim_start();
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let name = &rest[..end];
    (end > 0 && rest[end..].starts_with(' ') && name != "_").then_some(name)
}

/// Whether a symbol of `kind` in a file of `language` is a Go defined type that is neither a
/// struct nor an interface (`type Map map[string]any`, stored as a `type_alias`): a type
/// for resolution, with methods, embedders and conversions (`Map(m)`).
pub(super) fn go_defined_type(kind: &str, lang: Lang) -> bool {
    kind == "type_alias" && lang == Lang::Go
}

/// Whether Go type `ty` (as a field declares it) is a function type: `func(int) error`.
pub(super) fn go_func_type(ty: &str) -> bool {
    ty.strip_prefix("func")
        .is_some_and(|rest| rest.trim_start().starts_with('('))
}

/// What Go function type `ty` returns, as a function declared with it would
/// (`func(string) (*Conn, error)` returns `*Conn`), when resolution can use it.
pub(super) fn go_func_result(ty: &str) -> Option<String> {
    let signature = format!("func f{}", ty.strip_prefix("func")?.trim_start());
    crate::analyze::returns::declared_return(&signature, "f")
        .filter(|t| crate::analyze::returns::kept(t))
        .map(str::to_string)
}

/// The `testdata` directory `path` is under, if any (its path, with the name): the go
/// command ignores such directories, whose packages are test inputs.
pub(super) fn go_testdata(path: &str) -> Option<&str> {
    let at = if path.starts_with("testdata/") {
        0
    } else {
        path.find("/testdata/")? + 1
    };
    Some(&path[..at + "testdata".len()])
}

impl<'a> Index<'a> {
    /// Go: a call or field read on a package-level variable (`CommandLine.VarP(…)` in
    /// another file of `flag`, `base.Ctxt.Pkgpath` through `import ".../base"`): a member of
    /// the type the variable's declaration gives it, found from its file. `None` when `q`
    /// names no such variable (a local, a parameter), or its type is not known.
    pub(super) fn go_var_member(
        &self,
        fi: usize,
        q: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        let names = self.files[fi].names;
        // A local of the function shadows a package's variable, and locals of unknown type
        // are not told apart here: a name written alone counts when exported or longer than
        // the `s`, `b`, `f` locals mostly are (`CommandLine`, `memstats`, `ehdr`).
        let may_be_global = |v: &str| v.len() >= 4 || v.starts_with(|c: char| c.is_uppercase());
        let (dir, var) = match q.split_once('.') {
            None if names.import_bound(q).is_none() && may_be_global(q) => {
                (dir_of(self.files[fi].path), q)
            }
            Some((pkg, var)) if !var.contains('.') => {
                let (module, _) = names.import_bound(pkg)?;
                (self.go_package(fi, module?)?.0, var)
            }
            _ => return None,
        };
        if !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let cands = self.candidates(EdgeKind::References, "go", var)?;
        let v = cands.under(self, dir).iter().copied().find(|&c| {
            self.kind(c) == "variable" && self.parent(c).is_none() && dir_of(self.path(c)) == dir
        })?;
        let ty = self.files[v.0 as usize]
            .names
            .declared_return(v.1 as usize)
            .filter(|t| called(t).is_none())?;
        self.declared_type_member(v.0 as usize, ty, kind, name)
    }

    /// Go: the definition a name written alone in the file at `path` names in its own package
    /// (its directory; test files only from a test file, which alone builds with them):
    /// `same_package`, the one there is, or among a name's definitions for several platforms
    /// (`sigblock` in `os_linux.go`, `os_darwin.go`…) the one built for the caller's platform
    /// ([`gobuild::Platform::of`]); `ambiguous` where none or several are.
    pub(super) fn go_in_package(
        &self,
        cands: &Cands<'_, 'a>,
        path: &str,
        near: impl Fn(Cand) -> bool,
    ) -> Option<(Cand, &'static str)> {
        let dir = dir_of(path);
        let test = gobuild::is_test_file(path);
        let in_package = |c: Cand| {
            near(c)
                && self.parent(c).is_none()
                && dir_of(self.path(c)) == dir
                && (test || !gobuild::is_test_file(self.path(c)))
        };
        let all = cands.under(self, dir);
        let mut found = all.iter().copied().filter(|&c| in_package(c));
        let first = found.next()?;
        let platform = self.go_platform(path);
        if found.next().is_none() {
            let how = match self.go_built(&platform, first) > 0 {
                true => "same_package",
                // (The only one, for another platform than the caller's: the caller may be
                // built for several, or the name is a local.)
                false => "unique_name",
            };
            return Some((first, how));
        }
        // The definitions built for the caller's platform, else their stand-ins.
        for rank in [2, 1] {
            let mut built = all
                .iter()
                .copied()
                .filter(|&c| in_package(c) && self.go_built(&platform, c) == rank);
            match (built.next(), built.next()) {
                (Some(c), None) => return Some((c, "same_package")),
                (Some(c), Some(_)) => return Some((c, "ambiguous")),
                (None, _) => {}
            }
        }
        Some((first, "ambiguous"))
    }

    /// Go: the platform definitions for several platforms are chosen for, looking up a name
    /// from the file at `path`: that of the file whose edges are being resolved, else of
    /// `path`. A type's embedded types are looked up from the type's file, but are the ones
    /// built with the caller (`mp.waitsema` in `os_aix.go` is of `m`'s embedded `mOS` of
    /// `os_aix.go`).
    pub(super) fn go_platform<'p>(&'p self, path: &'p str) -> gobuild::Platform<'p> {
        let fi = self.resolving().or_else(|| self.by_path.get(path).copied());
        match fi {
            Some(fi) => gobuild::Platform::of(self.files[fi].path, self.go_constraint(fi)),
            None => gobuild::Platform::of(path, None),
        }
    }

    /// Go: file `fi`'s build constraint, if it states one.
    pub(super) fn go_constraint(&self, fi: usize) -> Option<&gobuild::Constraint> {
        self.go_builds.get(fi)?.as_ref().map(|(c, _)| c)
    }

    /// Go: whether a build for `platform` includes definition `c`'s file: 2 when it does, by
    /// its name and its build constraint; 1 when its name fits and its constraint holds on
    /// no platform's default build (`//go:build ignore`: the input of a generator, such as
    /// `x/sys/unix`'s `types_linux.go`, which stands in for the generated files a listing
    /// skips; `faketime`), so it is taken when nothing is built; 0 otherwise.
    pub(super) fn go_built(&self, platform: &gobuild::Platform<'_>, c: Cand) -> u8 {
        let (path, fi) = (self.path(c), c.0 as usize);
        if platform.builds(path, self.go_constraint(fi)) {
            return 2;
        }
        let nowhere = matches!(self.go_builds.get(fi), Some(Some((_, false))));
        u8::from(nowhere && platform.builds(path, None))
    }

    /// Go: whether definitions `a` and `b` are one type under different build constraints —
    /// the same name in files of one package (`runtime`'s `sigctxt` in
    /// `signal_linux_amd64.go`, `signal_darwin_amd64.go`…), whose methods a call in a file
    /// of either may reach.
    pub(super) fn go_variant(&self, a: Cand, b: Cand) -> bool {
        self.files[a.0 as usize].lang == Lang::Go
            && self.qualified_name(a) == self.qualified_name(b)
            && dir_of(self.path(a)) == dir_of(self.path(b))
    }

    /// Go: a method of type `ty` (a definition) in another file of its package, where Go
    /// methods often are (`dgramopt.go`'s `func (c *dgramOpt) JoinGroup` beside
    /// `endpoint.go`'s `type dgramOpt struct`).
    pub(super) fn go_method_elsewhere(&self, cands: &Cands<'_, 'a>, ty: Cand) -> Option<Cand> {
        if self.files[ty.0 as usize].lang != Lang::Go {
            return None;
        }
        let (path, name) = (self.path(ty), self.qualified_name(ty));
        let dir = dir_of(path);
        cands.nearest_with_parent_last(self, path, name, |c| {
            dir_of(self.path(c)) == dir
                && self
                    .type_definition(c.0, name)
                    .is_some_and(|t| t == ty || self.go_variant(t, ty))
        })
    }

    /// The directory of the Go package import path `import` names from file `fi`, and the
    /// file that stands for it. The directory is the path itself, under the repository's
    /// root, a GOPATH's `src` or a `vendor` directory (`golang.org/x/net/ipv4` in
    /// `src/golang.org/x/net/ipv4/`), or anywhere for a path that begins with a domain;
    /// else, for such a path, its last names (the repository is the module:
    /// `internal/util` of `example.com/m/internal/util`). A path without a domain is the
    /// standard library's (`net/http` is no `api/http/`, `reflect` no test's fake
    /// `testdata/src/reflect/`), and a `testdata` package is seen only from its own
    /// `testdata`. Of several, a whole path before last names, then the nearest.
    pub(super) fn go_package(&self, fi: usize, import: &str) -> Option<(&'a str, u32)> {
        let import = import.trim_matches('/');
        let last = import.rsplit('/').next()?;
        let dirs = self.go_packages.get(last)?;
        let from = self.files[fi].path;
        let testdata = go_testdata(from);
        // A path through a `testdata` directory names that package from anywhere (`go build`
        // skips `testdata` only when listing packages, not when an import names one there);
        // any other path names a package under `testdata` only from that same `testdata`.
        let into_testdata = import.split('/').any(|s| s == "testdata");
        let domain = import.split('/').next().is_some_and(|f| f.contains('.'));
        // 0: the whole path; 1: its last names; none: not this package.
        let rank = |d: &str| -> Option<u8> {
            if !into_testdata && go_testdata(d).is_some_and(|t| Some(t) != testdata) {
                return None;
            }
            if d == import {
                return Some(0);
            }
            if let Some(prefix) = d.strip_suffix(import).and_then(|p| p.strip_suffix('/')) {
                let root = |name: &str| prefix.rsplit('/').next() == Some(name);
                return (domain || root("src") || root("vendor")).then_some(0);
            }
            (domain && !d.is_empty() && import.strip_suffix(d).is_some_and(|p| p.ends_with('/')))
                .then_some(1)
        };
        let dir = dir_of(from);
        dirs.iter()
            .filter_map(|&(d, f)| Some((rank(d)?, d, f)))
            .min_by_key(|&(r, d, _)| (r, std::cmp::Reverse(nearness(dir, d).0)))
            .map(|(_, d, f)| (d, f))
    }
}
