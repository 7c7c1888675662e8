//! Python: modules as files, relative imports, attributes on values.

use super::*;

impl<'a> Index<'a> {
    /// Python: a call or attribute on a module variable made by a call — the file's (`_inst =
    /// Random()`, then `_inst.seed()` in a function) or one it imports (`from config import
    /// settings`, then `settings.reload()`): a member of the class called (`declared_type`),
    /// or of the type the function called declares it returns (`db = make_db()` with `def
    /// make_db() -> Database`: `return_type`), as [`Self::call_result_member`] finds it from
    /// the variable's file. `None` when `q` names no such variable, or its callee or type is
    /// none the repository defines: the lookup by name then stands.
    pub(super) fn python_var_member(
        &self,
        fi: usize,
        q: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        if matches!(q, "self" | "cls") || !q.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        // The file's own variable, or the one `from config import settings` imports.
        let (vf, var) = match self.files[fi].names.import_bound(q) {
            None => (fi, q),
            Some((Some(module), imported)) => {
                let file = self.python_module_file(self.files[fi].path, module)?;
                (*self.by_path.get(file)?, imported)
            }
            Some((None, _)) => return None,
        };
        let cands = self.candidates(EdgeKind::References, "python", var)?;
        let v = cands.in_file_where(vf as u32, |c| {
            self.kind(c) == "variable" && self.parent(c).is_none()
        })?;
        let names = self.files[vf].names;
        let call = called(names.declared_return(v.1 as usize)?)?;
        // The callee, from the variable's file: a class makes an instance of itself, a
        // function returns what it declares.
        let (qualifier, callee) = match call.rsplit_once('.') {
            Some((q, n)) => (Some(q), n),
            None => (None, call),
        };
        let target = self
            .pick(vf, None, EdgeKind::Calls, callee, qualifier)
            .map(|(c, _)| c);
        let chain = crate::analyze::returns::Chained {
            qualifier,
            name: callee,
            unwrap: false,
            new: false,
        };
        let (c, how) = self.call_result_member(vf, kind, name, &chain, target)??;
        let class = target.is_some_and(|t| TYPE_KINDS.contains(&self.kind(t)));
        Some(Some((c, if class { "declared_type" } else { how })))
    }

    /// A member of the Python module a receiver's import names (`(module, name)`: `os.path`
    /// is `(Some("os"), "path")`, `np` is `(None, "numpy")`, `rest` any further names of the
    /// receiver): defined in that module's own file. When no file is that module, but the
    /// module it is imported from imports it in turn (`from tests.unit import unittest`, with
    /// `import unittest` in `tests/unit/__init__.py`), each such import is followed (`try:
    /// import unittest2 as unittest` / `except: import unittest`), a few levels at most.
    /// `paths` gets each module path tried: with no such member, the files under those
    /// modules' packages are [`Index::pick`]'s to look through.
    pub(super) fn python_member(
        &self,
        cands: &Cands<'_, 'a>,
        from: &'a str,
        (module, name): (Option<&'a str>, &'a str),
        rest: &str,
        paths: &mut Vec<String>,
    ) -> Option<Cand> {
        let path = python_path(module, name, rest);
        if let Some(file) = self.python_module_file(from, &path) {
            paths.push(path);
            return cands.in_file(*self.by_path.get(file)? as u32);
        }
        paths.push(path);
        if paths.len() > 8 {
            return None;
        }
        // The module it is imported from, importing it in turn.
        let file = self.python_module_file(from, module?)?;
        let fi = *self.by_path.get(file)?;
        let names = self.files[fi].names;
        let mut bindings = names.import_bindings(name).peekable();
        if bindings.peek().is_some() {
            return bindings
                .find_map(|(m2, n2)| self.python_member(cands, file, (m2, n2), rest, paths));
        }
        // Else `name` is that module's own object (`from …openssl.backend import backend as
        // ossl`, then `ossl.load_pkcs12()`), whose members are defined beside it; or a
        // package the module puts on the path at run time (`from setuptools.extern import
        // packaging`: a vendored `packaging`), found by its own name.
        paths.push(python_path(None, name, rest));
        cands.in_file(fi as u32)
    }

    /// A candidate defined in the file that a relative import (`./util`, `../x.js`) of file
    /// `fi` names.
    pub(super) fn in_relative_module(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        module: Option<&str>,
    ) -> Option<Cand> {
        let module = module.filter(|m| m.starts_with('.'))?;
        let file = self.relative_file(fi, module)?;
        cands.in_file(*self.by_path.get(file)? as u32)
    }

    /// `./util` imported from `src/app.js` → `src/util.js` (or `src/util/index.js`);
    /// `#include "util.h"` from `c/util.c` → `c/util.h`; a Python module's file
    /// ([`Self::python_module_file`]).
    pub(super) fn relative_file(&self, fi: usize, module: &str) -> Option<&'a str> {
        let from = self.files[fi].path;
        if self.files[fi].lang == Lang::Python {
            return self.python_module_file(from, module);
        }
        if !module.starts_with('.') {
            let sibling = match dir_of(from) {
                "" => module.to_string(),
                d => format!("{d}/{module}"),
            };
            return self
                .by_path
                .get_key_value(sibling.as_str())
                .map(|(k, _)| *k);
        }
        let mut parts: Vec<&str> = dir_of(from).split('/').filter(|s| !s.is_empty()).collect();
        for seg in module.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        let base = parts.join("/");
        let exts = [
            "",
            ".ts",
            ".tsx",
            ".js",
            ".jsx",
            ".mjs",
            ".py",
            ".rb",
            "/index.ts",
            "/index.js",
            "/__init__.py",
        ];
        exts.iter().find_map(|e| {
            self.by_path
                .get_key_value(format!("{base}{e}").as_str())
                .map(|(k, _)| *k)
        })
    }
    /// The file a Python module names for file `from`: a relative module (`.case`, `..util`,
    /// `.`) from the importing file's package; an absolute one (`email.utils`) under the
    /// nearest ancestor directory of the importing file that has it (the repository's source
    /// root: the root, `src/`, a package's parent). The module `a.b` is `a/b.py` or the
    /// package `a/b/__init__.py` (or their `.pyi` stubs).
    pub(super) fn python_module_file(&self, from: &str, module: &str) -> Option<&'a str> {
        let dots = module.len() - module.trim_start_matches('.').len();
        let rest = module[dots..].replace('.', "/");
        let lookup = |base: &str| -> Option<&'a str> {
            let stem = match (base.is_empty(), rest.is_empty()) {
                (true, _) => rest.clone(),
                (false, true) => base.to_string(),
                (false, false) => format!("{base}/{rest}"),
            };
            ["py", "pyi"].iter().find_map(|ext| {
                // `from . import x` names the package alone, not a `pkg.py` beside it.
                let module_file = (!rest.is_empty()).then(|| format!("{stem}.{ext}"));
                let package = match stem.as_str() {
                    "" => format!("__init__.{ext}"),
                    s => format!("{s}/__init__.{ext}"),
                };
                module_file
                    .iter()
                    .chain([&package])
                    .find_map(|p| self.by_path.get_key_value(p.as_str()).map(|(k, _)| *k))
            })
        };
        if dots > 0 {
            let mut dir = dir_of(from);
            for _ in 1..dots {
                if dir.is_empty() {
                    return None;
                }
                dir = dir_of(dir);
            }
            return lookup(dir);
        }
        if rest.is_empty() {
            return None;
        }
        ancestors(from).find_map(lookup)
    }
}

/// The dotted path of what a Python import binds, and names after it: `(Some("a"), "b")`
/// with `.c` is `a.b.c`; `(None, "numpy")` is `numpy`.
pub(super) fn python_path(module: Option<&str>, name: &str, rest: &str) -> String {
    match module {
        Some(m) => format!("{}{rest}", python_submodule(m, name)),
        None => format!("{name}{rest}"),
    }
}

/// Python's module `N` of package `M` (`from M import N`): `M.N`, `.N` for `from . import N`.
pub(super) fn python_submodule(m: &str, name: &str) -> String {
    if m.ends_with('.') {
        format!("{m}{name}")
    } else {
        format!("{m}.{name}")
    }
}

/// Whether `head` is the name of the Python module at `path` (its file's stem, or its
/// package's directory for an `__init__.py`).
pub(super) fn python_module_named(path: &str, head: &str) -> bool {
    match dir_and_stem(path) {
        (dir, "__init__") => dir.rsplit('/').next() == Some(head),
        (_, stem) => stem == head,
    }
}

/// Whether Python module `module` (`a.b`, `.a.b`) may name `path`: its names are consecutive
/// directories of the path, ending at the file (`a/b.py`, `a/b/__init__.py`) or at a
/// directory above it (`a/b/c.py`, a package re-exporting its modules' names) — or, when the
/// repository's root is inside the package, the module's last names are the path's first.
/// `os.path` does not name a repository's `util/path.py`.
pub(super) fn python_module_names(module: &str, path: &str) -> bool {
    let segments: Vec<&str> = module.split('.').filter(|s| !s.is_empty()).collect();
    let (dir, stem) = dir_and_stem(path);
    let mut components: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    if stem != "__init__" {
        components.push(stem);
    }
    if segments.is_empty() {
        return false;
    }
    (0..components.len()).any(|i| components[i..].starts_with(&segments))
        || (1..segments.len()).any(|m| components.starts_with(&segments[segments.len() - m..]))
}
