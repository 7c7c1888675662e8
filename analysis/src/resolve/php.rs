//! PHP: namespaces and the classes they name.

use super::*;

impl<'a> Index<'a> {
    /// The namespace PHP file `fi` declares first (`namespace App\Models;`), `""` for none
    /// (the global namespace).
    pub(super) fn php_namespace(&self, fi: u32) -> &'a str {
        let names = self.files[fi as usize].names;
        (0..names.symbol_count())
            .find(|&si| names.kind(si) == "module" && names.parent(si).is_none())
            .map_or("", |si| {
                let q = names.qualified_name(si);
                q.split('#').next().unwrap_or(q)
            })
    }

    /// PHP: the class, interface, trait or enum that `name`, written after namespace
    /// `qualifier` (`Class_` and `Stmt` for `Stmt\Class_`; no qualifier for a bare `User`),
    /// names in file `fi`, by PHP's rules: a namespace written from the root (`\A\B`) as
    /// it is; a first segment — or the bare name — that a `use` imports (`use
    /// PhpParser\Node;` then `Node\Stmt`), through that import (`import`); else the file's
    /// own namespace (`qualified`), then, for a qualifier, the namespace as written (a type
    /// read from a declaration loses its leading `\`). `None` when no file of the
    /// repository defines it there: a class of another namespace is not this one.
    pub(super) fn php_class(
        &self,
        fi: usize,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<(Cand, &'static str)> {
        let names = self.files[fi].names;
        let own = || self.php_namespace(fi as u32);
        let join = |a: &str, b: &str| match (a.is_empty(), b.is_empty()) {
            (true, _) => b.to_owned(),
            (_, true) => a.to_owned(),
            _ => format!("{a}\\{b}"),
        };
        let mut real = name;
        let mut how = "qualified";
        let spaces: Vec<String> = match qualifier.map(str::trim).filter(|q| !q.is_empty()) {
            Some(q) if q.starts_with('\\') => vec![q.trim_start_matches('\\').to_owned()],
            Some(q) => {
                let (head, rest) = q.split_once('\\').unwrap_or((q, ""));
                match names.import_bound(head) {
                    Some((module, imported)) => {
                        how = "import";
                        let module = module.unwrap_or("").trim_start_matches('\\');
                        vec![join(&join(module, imported), rest)]
                    }
                    None => vec![join(own(), q), q.to_owned()],
                }
            }
            None => match names.import_bound(name) {
                Some((module, imported)) => {
                    how = "import";
                    real = imported;
                    vec![module.unwrap_or("").trim_start_matches('\\').to_owned()]
                }
                None => vec![own().to_owned()],
            },
        };
        let cands = self.candidates(EdgeKind::Implements, "php", real)?;
        let path = self.files[fi].path;
        spaces.iter().find_map(|ns| {
            cands
                .nearest_where(self, path, |c| self.php_in_namespace(c.0, ns))
                .map(|c| (c, how))
        })
    }

    /// [`Index::php_class`] for a class written as a path (`Stmt\Class_`, `\Exception`,
    /// `User`): its last name, in the namespace before it.
    pub(super) fn php_class_at(&self, fi: usize, path: &str) -> Option<(Cand, &'static str)> {
        match path.rsplit_once('\\') {
            Some(("", class)) => self.php_class(fi, class, Some("\\")),
            Some((ns, class)) => self.php_class(fi, class, Some(ns)),
            None => self.php_class(fi, path, None),
        }
    }

    /// Whether PHP file `fi` declares namespace `ns`, or, for `""`, none.
    pub(super) fn php_in_namespace(&self, fi: u32, ns: &str) -> bool {
        if ns.is_empty() {
            self.php_namespace(fi).is_empty()
        } else {
            self.php_declares_namespace(fi, ns)
        }
    }

    /// PHP: an edge that names a class by PHP's rules ([`Index::php_class`]) — a base, a type
    /// a declaration or `instanceof` names, `new Foo()`, and `Foo::f()` (the class's member,
    /// or its bases') — resolved so; `None` for any other edge, which is looked up as every
    /// language's is. A name of a class the repository defines only in other namespaces is
    /// unresolved (`Some(None)`).
    pub(super) fn php_pick(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<Option<(Cand, &'static str)>> {
        let q = qualifier.map(str::trim).filter(|q| !q.is_empty());
        let on_value = |q: &str| {
            q.starts_with('$')
                || matches!(q, "self" | "static" | "parent" | "this")
                || q.contains(['-', '(', ':', ' '])
        };
        match kind {
            EdgeKind::Inherits | EdgeKind::Implements => Some(self.php_class(fi, name, q)),
            EdgeKind::References | EdgeKind::Calls if q.is_none_or(|q| !on_value(q)) => {
                if kind == EdgeKind::Calls
                    && let Some(q) = q
                {
                    // `Foo::create()`, `Stmt\Class_::make()`: a member of the class, or of
                    // its bases.
                    if let Some((ty, _)) = self.php_class_at(fi, q) {
                        let cands = self.candidates(kind, "php", name)?;
                        let own = self.qualified_name(ty);
                        return cands
                            .in_file_with_parent(self, ty.0, own)
                            .or_else(|| self.inherited(&cands, ty.0, own))
                            .map(|c| Some((c, "qualified")));
                    }
                    // `new Models\User()`, `new \Exception()`: the class, in that namespace.
                    if let Some(found) = self.php_class(fi, name, Some(q)) {
                        return Some(Some(found));
                    }
                    // `\strlen()`, `new \Exception()`: the global namespace's, or a library's.
                    if q == "\\" {
                        let cands = self.candidates(kind, "php", name)?;
                        let path = self.files[fi].path;
                        return Some(
                            cands
                                .nearest_where(self, path, |c| self.php_in_namespace(c.0, ""))
                                .map(|c| (c, "qualified")),
                        );
                    }
                    // A namespaced function (`Foo\bar()`): looked up as before.
                    return None;
                }
                if let Some(found) = self.php_class(fi, name, q) {
                    return Some(Some(found));
                }
                // Only classes of that name, all in other namespaces.
                let types = self.candidates(EdgeKind::Implements, "php", name)?;
                let any = self.candidates(kind, "php", name)?;
                (any.all.len() == types.all.len()).then_some(None)
            }
            _ => None,
        }
    }

    /// Whether PHP file `fi` declares namespace `ns` (`namespace google\net;`: a `module`
    /// symbol of that name; PHP's names are case-insensitive).
    pub(super) fn php_declares_namespace(&self, fi: u32, ns: &str) -> bool {
        let names = self.files[fi as usize].names;
        (0..names.symbol_count()).any(|si| {
            names.kind(si) == "module"
                && names.parent(si).is_none()
                && names
                    .qualified_name(si)
                    .split('#')
                    .next()
                    .is_some_and(|q| q.eq_ignore_ascii_case(ns))
        })
    }
}
