//! Language detection and the tree-sitter grammar of each analysed language.

/// A language Quarry recognises. Those with a grammar get symbols and edges; the others are
/// stored as files (readable, searchable) only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    CSharp,
    Ruby,
    Php,
    /// A recognised but not analysed language, by name (e.g. `markdown`, `toml`).
    Other(&'static str),
}

impl Lang {
    /// The language's name as stored in the `language` column.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::CSharp => "csharp",
            Lang::Ruby => "ruby",
            Lang::Php => "php",
            Lang::Other(name) => name,
        }
    }

    /// The language stored under `name` (the inverse of [`Lang::name`] for the analysed
    /// languages); any other name is `Other("text")`, which no rule tells apart.
    pub fn from_name(name: &str) -> Lang {
        match name {
            "rust" => Lang::Rust,
            "python" => Lang::Python,
            "javascript" => Lang::JavaScript,
            "typescript" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "c" => Lang::C,
            "cpp" => Lang::Cpp,
            "csharp" => Lang::CSharp,
            "ruby" => Lang::Ruby,
            "php" => Lang::Php,
            _ => Lang::Other("text"),
        }
    }

    /// The tree-sitter grammar, for analysed languages, with its parse table dense in every
    /// state ([`crate::analyze::dense`]): a lease that parsers and trees made with it must not
    /// outlive.
    pub fn grammar(self) -> Option<crate::analyze::dense::Grammar> {
        self.generated_grammar().map(crate::analyze::dense::dense)
    }

    /// The grammar for parsing `source_len` bytes in an index run: dense once this language's
    /// source parsed in the run reaches the dense table's size
    /// ([`crate::analyze::dense::for_source`]).
    pub fn grammar_for(self, source_len: usize) -> Option<crate::analyze::dense::Grammar> {
        self.generated_grammar()
            .map(|g| crate::analyze::dense::for_source(g, source_len))
    }

    /// The grammar as its crate generated it.
    pub fn generated_grammar(self) -> Option<tree_sitter::Language> {
        Some(match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Lang::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Lang::Other(_) => return None,
        })
    }

    /// Detect the language of a repository-relative path; `None` for unknown files, which
    /// are still stored under the language `text`.
    pub fn detect(path: &str) -> Option<Lang> {
        let file = path.rsplit('/').next().unwrap_or(path);
        let lower = file.to_ascii_lowercase();
        match lower.as_str() {
            "makefile" | "gnumakefile" => return Some(Lang::Other("makefile")),
            "dockerfile" => return Some(Lang::Other("dockerfile")),
            "cmakelists.txt" => return Some(Lang::Other("cmake")),
            "gemfile" | "rakefile" | "guardfile" | "podfile" | "vagrantfile" | "brewfile"
            | "capfile" | "fastfile" => return Some(Lang::Ruby),
            _ => {}
        }
        // A header the build generates from a template (`config.h.in`, autoconf's and
        // CMake's): the template is the header, with `@VAR@`s to substitute.
        if let Some(header) = lower.strip_suffix(".in")
            && let Some((_, ext @ ("h" | "hh" | "hpp" | "hxx"))) = header.rsplit_once('.')
        {
            return Some(if ext == "h" { Lang::C } else { Lang::Cpp });
        }
        let ext = lower.rsplit_once('.')?.1;
        Some(match ext {
            "rs" => Lang::Rust,
            "py" | "pyi" | "pyw" => Lang::Python,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            // Template and inline definitions included by headers (`.tcc`: libstdc++'s,
            // `.tpp`/`.txx`/`.ipp`/`.inl`) and C++20 module interfaces (`.cppm`, `.ixx`).
            "cc" | "cpp" | "cxx" | "c++" | "cp" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "tcc"
            | "tpp" | "txx" | "inl" | "cppm" | "ixx" => Lang::Cpp,
            "cs" => Lang::CSharp,
            "rb" | "rake" | "gemspec" | "ru" | "podspec" => Lang::Ruby,
            "php" => Lang::Php,
            "md" | "markdown" => Lang::Other("markdown"),
            "toml" => Lang::Other("toml"),
            "json" => Lang::Other("json"),
            "yaml" | "yml" => Lang::Other("yaml"),
            "sh" | "bash" | "zsh" => Lang::Other("shell"),
            "html" | "htm" => Lang::Other("html"),
            "css" | "scss" => Lang::Other("css"),
            "sql" => Lang::Other("sql"),
            "xml" => Lang::Other("xml"),
            "kt" | "kts" => Lang::Other("kotlin"),
            "swift" => Lang::Other("swift"),
            "scala" => Lang::Other("scala"),
            "lua" => Lang::Other("lua"),
            "txt" | "rst" => Lang::Other("text"),
            _ => return None,
        })
    }
}

impl Lang {
    /// The language of a file, from its path and its text: as [`Lang::detect`], except that
    /// a `.h` header — C's extension, and most C++ projects' too — is C++ when its text uses
    /// what only C++ has ([`looks_like_cpp`]). A C++ header parsed as C yields nonsense (a
    /// `class` read as a function named after its namespace).
    pub fn detect_in(path: &str, text: &str) -> Option<Lang> {
        match Lang::detect(path)? {
            Lang::C if content_decides(path) && looks_like_cpp(text) => Some(Lang::Cpp),
            lang => Some(lang),
        }
    }
}

/// Whether a path's language also depends on its text ([`Lang::detect_in`]): a `.h` header
/// (or its template, `.h.in`).
pub fn content_decides(path: &str) -> bool {
    let b = path.as_bytes();
    let ends = |s: &[u8]| b.len() > s.len() && b[b.len() - s.len()..].eq_ignore_ascii_case(s);
    ends(b".h") || ends(b".h.in")
}

/// Bytes of a header read for [`looks_like_cpp`].
const SNIFF_BYTES: usize = 64 << 10;

/// Whether a header's text is C++ rather than C, by lines only C++ writes (after GitHub
/// Linguist's `.h` heuristics): an `#include` of a C++ standard header (`<vector>`,
/// `<string>`), a `template <`, `try`/`catch (`/`constexpr`, `class`/`namespace`/`using
/// namespace` with a name, an access label (`public:`), or code using `std::` names. Not
/// Linguist's `__cplusplus >=` and `__has_cpp_attribute`: C headers test them to offer C++
/// callers more (zstd's, lz4's). Comment lines (starting with `/` or `*`) and what follows
/// `//` are not read for `std::`.
pub fn looks_like_cpp(text: &str) -> bool {
    let mut end = text.len().min(SNIFF_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // `word` then (after blanks) something that `next` accepts.
    let keyword = |t: &str, word: &str, next: &dyn Fn(&str) -> bool| {
        t.strip_prefix(word)
            .is_some_and(|rest| !rest.starts_with(ident) && next(rest.trim_start()))
    };
    let named = |rest: &str| rest.starts_with(ident);
    let uses_std = |code: &str| {
        code.match_indices("std::")
            .any(|(i, _)| code[i + 5..].starts_with(ident) && !code[..i].ends_with(ident))
    };
    text[..end].lines().any(|line| {
        let t = line.trim_start();
        if let Some(directive) = t.strip_prefix('#') {
            return directive
                .trim_start()
                .strip_prefix("include")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('<'))
                .and_then(|r| r.split_once('>'))
                .is_some_and(|(h, _)| {
                    !h.contains('.') && crate::builtins::is_c_standard_header(h)
                });
        }
        if t.starts_with(['/', '*']) {
            return false;
        }
        let code = t.split("//").next().unwrap_or(t);
        matches!(t.trim_end(), "public:" | "private:" | "protected:")
            || keyword(t, "template", &|r| r.starts_with('<'))
            || keyword(t, "try", &|_| true)
            || keyword(t, "constexpr", &|_| true)
            || keyword(t, "catch", &|r| r.starts_with('('))
            || keyword(t, "class", &named)
            || keyword(t, "namespace", &named)
            || keyword(t, "using", &|r| keyword(r, "namespace", &named))
            || uses_std(code)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_extension_and_name() {
        assert_eq!(Lang::detect("src/main.rs"), Some(Lang::Rust));
        assert_eq!(Lang::detect("a/b/App.TSX"), Some(Lang::Tsx));
        assert_eq!(Lang::detect("include/x.hpp"), Some(Lang::Cpp));
        // libstdc++'s template definitions, and C++20 module interfaces.
        assert_eq!(Lang::detect("bits/vector.tcc"), Some(Lang::Cpp));
        assert_eq!(Lang::detect("src/geo.cppm"), Some(Lang::Cpp));
        assert_eq!(Lang::detect("config.ru"), Some(Lang::Ruby));
        assert_eq!(Lang::detect("Vagrantfile"), Some(Lang::Ruby));
        assert_eq!(Lang::detect("Makefile").map(Lang::name), Some("makefile"));
        assert_eq!(Lang::detect("LICENSE"), None);
        // A header's template is the header.
        assert_eq!(Lang::detect("include/config.h.in"), Some(Lang::C));
        assert_eq!(Lang::detect("include/x.hpp.in"), Some(Lang::Cpp));
        assert_eq!(Lang::detect("setup.py.in"), None);
        assert_eq!(Lang::detect("Makefile.in"), None);
    }

    #[test]
    fn a_header_is_cpp_when_its_text_is() {
        let cpp = [
            "#pragma once\nnamespace geo {\nint f();\n}\n",
            "class Shape {\npublic:\n  virtual ~Shape();\n};\n",
            "#include <vector>\nint f(const std::vector<int>& v);\n",
            "template <typename T>\nT max(T a, T b);\n",
            "using Map = std::map<int, int>; // a map\n",
        ];
        for text in cpp {
            assert_eq!(
                Lang::detect_in("include/x.h", text),
                Some(Lang::Cpp),
                "{text}"
            );
        }
        let c = [
            "#include <stdio.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n",
            "typedef struct arena_s arena_t;\n/* the class of size */\nint class_of(int);\n",
            "int try_lock(int *m);\n#define mystd::x 1\n",
            // Guards for C++ callers, and `std::` in comments (zstd's, tree-sitter's headers).
            "#if defined(__cplusplus) && (__cplusplus >= 201402)\n#endif\n",
            "#if defined(__cplusplus) && defined(__has_cpp_attribute)\n#endif\n",
            "/// Like Rust's `std::slice::binary_search_by`.\nint f(void); // not std::sort\n",
            "",
        ];
        for text in c {
            assert_eq!(
                Lang::detect_in("include/x.h", text),
                Some(Lang::C),
                "{text}"
            );
        }
        // Only a header's language depends on its text.
        assert_eq!(Lang::detect_in("src/x.c", "namespace a {}"), Some(Lang::C));
        assert_eq!(
            Lang::detect_in("src/X.H", "namespace a {}"),
            Some(Lang::Cpp)
        );
        assert_eq!(
            Lang::detect_in("x.py", "class A:\n  pass"),
            Some(Lang::Python)
        );
    }

    #[test]
    fn every_analysed_grammar_loads() {
        for l in [
            Lang::Rust,
            Lang::Python,
            Lang::JavaScript,
            Lang::TypeScript,
            Lang::Tsx,
            Lang::Go,
            Lang::Java,
            Lang::C,
            Lang::Cpp,
            Lang::CSharp,
            Lang::Ruby,
            Lang::Php,
        ] {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&l.grammar().unwrap()).unwrap();
        }
    }
}
