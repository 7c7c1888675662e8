//! Ruby: constants looked up lexically, `Class.new`, bare calls in scope.

use super::*;

/// Whether `q` is a path of constants (`Worker`, `Gem::Specification`): Ruby's classes and
/// modules, as a call's receiver.
pub(super) fn is_constant_path(q: &str) -> bool {
    !q.is_empty()
        && q.split("::").all(|c| {
            c.starts_with(|ch: char| ch.is_ascii_uppercase())
                && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        })
}

impl<'a> Index<'a> {
    /// Ruby: `Worker.new(…)`, `Gem::Specification.new` (`class` the constant path `q`)
    /// construct that class: its own `self.new` if it defines one, else the class itself —
    /// never another class's `new` (`String.new` is no `OptionParser.new`); `None`
    /// (unresolved) when the repository defines no class of the name.
    pub(super) fn ruby_new(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        q: &str,
    ) -> Option<(Cand, &'static str)> {
        let (prefix, class) = match q.rsplit_once("::") {
            Some((p, c)) => (Some(p), c),
            None => (None, q),
        };
        if let Some(own) = self
            .candidates(EdgeKind::Calls, "ruby", "new")
            .and_then(|c| c.with_parent_last(self, class))
        {
            return Some((own, "qualified"));
        }
        let found = match prefix {
            // A path's class is found as a base's is.
            Some(_) => self
                .pick(fi, source_qname, EdgeKind::Inherits, class, prefix)
                .map(|(c, _)| c),
            // A bare constant is a top-level class, this file's, or one nested in a module
            // around the caller: `Array.new` in `matrix.rb` is not `TypeProf::Type::Array`.
            None => self
                .candidates(EdgeKind::Inherits, "ruby", class)?
                .nearest_where(self, self.files[fi].path, |c| {
                    self.ruby_in_scope(fi, source_qname, c)
                }),
        };
        found.map(|c| (c, "qualified"))
    }

    /// Ruby: whether a bare constant in file `fi`, in `source_qname`, may name candidate `c`:
    /// a top-level one, this file's, or one nested in a module or class around the caller.
    pub(super) fn ruby_in_scope(&self, fi: usize, source_qname: Option<&str>, c: Cand) -> bool {
        match self.parent(c) {
            None => true,
            Some(p) => c.0 == fi as u32 || source_qname.is_some_and(|s| nested_in(s, p)),
        }
    }

    /// Ruby: the constant `name` written alone in file `fi` (a class or a constant): the
    /// file's own, one defined at the top level, or one nested in a module or class around
    /// the caller (`source_qname`) — not another module's namesake (`TypeProf::Type::Array`
    /// for `Array`). `None` when the repository has none (`ArgumentError`, `IOError`).
    pub(super) fn ruby_constant(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        let cands = self.candidates(EdgeKind::References, "ruby", name)?;
        if let Some(c) = cands.in_file(fi as u32) {
            return Some((c, "same_file"));
        }
        let visible = |c: Cand| self.ruby_in_scope(fi, source_qname, c);
        let first = cands.first(visible)?;
        if cands.first(|c| c != first && visible(c)).is_none() {
            return Some((first, "unique_name"));
        }
        let best = cands.nearest_where(self, self.files[fi].path, visible)?;
        Some((best, "ambiguous"))
    }
}
