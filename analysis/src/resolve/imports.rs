//! Imports: the file an import names, in each language that imports by path or module.

use super::*;

impl<'a> Index<'a> {
    /// The file an import edge of file `fi` names when no definition is its target: a
    /// relative path's file (`relative_path`); in Python, the module itself (`import a.b`,
    /// `from pkg import submodule`), else the package it is imported from (`import`, or
    /// `relative_path` for a relative module); in Go, the file that stands for the package
    /// ([`Self::go_package`]).
    pub(super) fn imported_file(&self, fi: usize, e: &RawEdge) -> Option<(&'a str, &'static str)> {
        if e.kind != EdgeKind::Imports {
            return None;
        }
        let module = e.qualifier.as_deref();
        if matches!(self.files[fi].lang, Lang::C | Lang::Cpp) {
            let (file, how) = self.include_file(fi, module?)?;
            return Some((self.files[file as usize].path, how));
        }
        // Go: the package's file, when the repository has the package.
        if self.files[fi].lang == Lang::Go {
            let (_, file) = self.go_package(fi, module?)?;
            return Some((self.files[file as usize].path, "import"));
        }
        // Java: `import a.b.*;` is the package's, in a directory ending `a/b`: the nearest.
        if self.files[fi].lang == Lang::Java {
            if &*e.target_name != "*" {
                return None;
            }
            let package = module?;
            let last = package.rsplit('.').next()?;
            let dir = dir_of(self.files[fi].path);
            let path = self
                .java_packages
                .get(last)?
                .iter()
                .map(|&(_, file)| self.files[file as usize].path)
                .filter(|path| package_dir_names(package, '.', path))
                .max_by_key(|path| nearness(dir, path).0)?;
            return Some((path, "import"));
        }
        let python = self.files[fi].lang == Lang::Python;
        let file = if python {
            let path = self.files[fi].path;
            self.python_module_file(path, &python_path(module, &e.target_name, ""))
                .or_else(|| self.python_module_file(path, module?))
        } else {
            self.relative_file(fi, module?)
        }?;
        let relative = module.is_some_and(|m| m.starts_with('.'));
        Some((
            file,
            if python && !relative {
                "import"
            } else {
                "relative_path"
            },
        ))
    }
}

/// Whether a package named by directories — Java's `a.b` (`sep` `.`) — may name `path`: the
/// file is directly in a directory whose last names are the package's
/// (`src/main/java/a/b/C.java`), or, when the repository's root is inside the package's
/// path, its directories are the package's last names. `java.security` does not name
/// `sun/security/util/Key.java`. (Go's import paths are [`Index::go_package`]'s.)
pub(super) fn package_dir_names(package: &str, sep: char, path: &str) -> bool {
    let segments: Vec<&str> = package.split(sep).filter(|s| !s.is_empty()).collect();
    let dirs: Vec<&str> = dir_of(path).split('/').filter(|s| !s.is_empty()).collect();
    !segments.is_empty()
        && (dirs.ends_with(&segments) || (!dirs.is_empty() && segments.ends_with(&dirs)))
}
