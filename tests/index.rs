//! `quarry index` end to end: exact symbols and edges on the polyglot fixture, incremental
//! re-indexing, git semantics, crash safety and bad input.

use std::path::Path;

use crate::common::*;

const SYMBOLS_SQL: &str = "SELECT path, kind, qualified_name, start_line, start_character, end_line, end_character, \
     is_public, complexity, summary FROM symbols ORDER BY path, start_line, start_character, qualified_name";
const EDGES_SQL: &str = "SELECT source_path, kind, COALESCE(source_qname, '<file>') AS source, target_name, \
     target_qualifier, regexp_replace(target, '^[^:]+::', '') AS target, resolution, line, character FROM edges \
     ORDER BY source_path, line, character, kind, target_name";

/// Compare with a golden file; `QUARRY_BLESS=1` rewrites it (review the diff before committing).
pub fn golden(name: &str, actual: &[String]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden")
        .join(name);
    let actual = actual.join("\n") + "\n";
    if std::env::var("QUARRY_BLESS").is_ok() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let diff: Vec<String> = expected
            .lines()
            .zip(actual.lines())
            .filter(|(e, a)| e != a)
            .take(10)
            .map(|(e, a)| format!("- {e}\n+ {a}"))
            .collect();
        panic!(
            "{name} differs ({} expected lines, {} actual); first differences:\n{}",
            expected.lines().count(),
            actual.lines().count(),
            diff.join("\n")
        );
    }
}

fn row<'a>(rows: &'a [String], prefix: &str) -> &'a str {
    rows.iter()
        .find(|r| r.starts_with(prefix))
        .unwrap_or_else(|| panic!("no row starting with {prefix:?}"))
}

/// Write `files` (path, text) into a repository in a new temporary directory and index it
/// as `name`: the directory (the caller keeps it alive) and the store.
fn index_files(name: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let store = tmp.path().join("store");
    quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", name]);
    (tmp, store)
}

/// Assert that some row of `rows` ([`EDGES_SQL`]'s) starts with `needle`.
fn has_row(rows: &[String], needle: &str) {
    assert!(
        rows.iter().any(|e| e.starts_with(needle)),
        "no edge {needle:?} in\n{}",
        rows.join("\n")
    )
}

/// Calls on `self` and `super` resolve through the caller's base types, each resolved as its
/// clause is (a module-qualified Python base, a Rust trait imported from another module), and
/// never to a free function of the same name, however near.
#[test]
fn self_calls_resolve_through_base_types() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = fixture_repo("inheritance", tmp.path());
    let store = tmp.path().join("store");
    quarry_ok(&store, &["index", repo.to_str().unwrap(), "--name", "inh"]);
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // The base's qualifier is kept, and resolves through the import of the module.
    has("python/accounts.py|inherits|Account|Model|base|python/models/base.py::Model|import|11|");
    // `save` in accounts.py is nearer than `Model.save`, but no target of `self.save()`.
    has(
        "python/accounts.py|calls|Account.close|validate|self|python/models/base.py::Model.validate|inherited|13|",
    );
    has(
        "python/accounts.py|calls|Account.close|save|self|python/models/base.py::Model.save|inherited|14|",
    );
    // Two levels up: Admin → Account → Model.
    has(
        "python/accounts.py|calls|Admin.promote|save|self|python/models/base.py::Model.save|inherited|20|",
    );
    // `super()` skips the caller's own type.
    has(
        "python/accounts.py|calls|Admin.promote|close|super()|python/accounts.py::Account.close|inherited|19|",
    );
    // A mixin's `self` is a subclass's: its other base's member, not `Ledger.validate` in the
    // same file.
    has(
        "python/accounts.py|calls|AuditMixin.audit|validate|self|python/models/base.py::Model.validate|inherited|37|",
    );
    // … and when that subclass is in another module: not `Draft.save` beside the mixin.
    has(
        "python/models/mixins.py|calls|ExportMixin.export|save|self|python/models/base.py::Model.save|inherited|12|",
    );
    // A module's member through the module: `base` is only C#'s word for the base type.
    has("python/accounts.py|calls|make|Model|base|python/models/base.py::Model|import|25|");
    // Rust: a trait's provided method, from an inherent impl and from another trait's impl;
    // the trait is resolved through the file's `use`, not by the free `describe` beside it.
    has(
        "rust/src/square.rs|calls|Square.label|describe|self|rust/src/shape.rs::Shape.describe|inherited|26|",
    );
    has(
        "rust/src/square.rs|calls|Square.fmt|describe|self|rust/src/shape.rs::Shape.describe|inherited|19|",
    );
    has("rust/src/square.rs|implements|Square|Display|fmt|NULL|unresolved|17|");
    has(
        "rust/src/shape.rs|calls|Shape.describe|area|self|rust/src/shape.rs::Shape.area|same_class|7|",
    );
    // … and from a file other than the one implementing the trait for the type.
    has(
        "rust/src/scale.rs|calls|Square.twice|describe|self|rust/src/shape.rs::Shape.describe|inherited|12|",
    );
    // Go: calls on the receiver, whatever its name, are calls on the type: its own method in
    // another file of the package (not the other package's `Server.notFound`, first in path
    // order), and the method of the struct it embeds, found where the struct is defined.
    has(
        "go/handlers.go|calls|Server.Handle|notFound|srv|go/server.go::Server.notFound|same_class|9|",
    );
    has("go/handlers.go|calls|Server.Handle|Describe|srv|go/server.go::Base.Describe|inherited|9|");
    // A method's type defined in another file is its parent; one the repository does not
    // define (`f64`) leaves it without.
    assert_eq!(
        sql_lines(
            &store,
            "SELECT path, qualified_name, regexp_replace(parent, '^[^:]+::', '') FROM symbols \
             WHERE qualified_name IN ('Server.Handle', 'Square.twice', 'f64.halve') ORDER BY path"
        ),
        [
            "go/handlers.go|Server.Handle|go/server.go::Server",
            "rust/src/scale.rs|Square.twice|rust/src/square.rs::Square",
            "rust/src/scale.rs|f64.halve|NULL",
        ]
    );
    // Java and Ruby call their own members without `this`/`self`: `size()` in `Stack` is
    // the base class's (not `Counter.size` beside it, nor `size` of the nested
    // `Counter.Stack`, a type of the same name), and a Ruby method's bare `sound(2)` is
    // `Animal#sound` before the top-level `sound` of its own file.
    has(
        "java/shop/Stack.java|calls|Stack.empty|size|NULL|java/shop/base/Base.java::Base.size|inherited|7|",
    );
    has(
        "java/shop/Stack.java|calls|Stack.peek|helper|NULL|java/shop/Stack.java::Stack.helper|same_class|11|",
    );
    has(
        "java/shop/Stack.java|calls|Stack.helper|clamp|Util|java/shop/Util.java::Util.clamp|qualified|15|",
    );
    has("ruby/dog.rb|calls|Dog.speak|sound|NULL|ruby/animal.rb::Animal.sound|inherited|5|");
    // Ruby calls without parentheses or arguments; locals are not calls.
    has("ruby/dog.rb|calls|Dog.loud|speak|NULL|ruby/dog.rb::Dog.speak|same_class|11|");
    let loud: Vec<&String> = edges
        .iter()
        .filter(|e| e.contains("|calls|Dog.loud|"))
        .collect();
    assert_eq!(loud.len(), 2, "{loud:?}");
    assert!(
        loud.iter().any(|e| e.contains("|upcase|speak|")),
        "{loud:?}"
    );
    // A receiver's declared type picks the member: a parameter's (`Base other`: not
    // `Counter.size`, nearer), a field's declared after the method, with or without `this`;
    // a library type's (`StringBuilder sb`) is no call to `Util.append`. A field read from a
    // value of a declared type (Go's `s.routes` on `s *Server`) is that type's.
    let typed = sql_lines(
        &store,
        "SELECT source_path, source_qname, target_name, receiver_type, \
         regexp_replace(target, '^[^:]+::', ''), resolution, line FROM edges \
         WHERE receiver_type IS NOT NULL ORDER BY source_path, line, character",
    );
    assert_eq!(
        typed,
        [
            "go/handlers.go|Server.Handle|routes|Server|go/server.go::Server.routes|declared_type|6",
            // A Go method's receiver is typed too; its calls stay calls on `self`.
            "go/handlers.go|Server.Handle|notFound|Server|go/server.go::Server.notFound|same_class|9",
            "go/handlers.go|Server.Handle|Describe|Server|go/server.go::Base.Describe|inherited|9",
            "go/server.go|Base.Describe|Name|Base|go/server.go::Base.Name|declared_type|10",
            "java/shop/Stack.java|Stack.total|append|StringBuilder|NULL|unresolved|21",
            "java/shop/Stack.java|Stack.total|size|Base|java/shop/base/Base.java::Base.size|declared_type|21",
            "java/shop/Stack.java|Stack.total|size|Counter|java/shop/Counter.java::Counter.size|declared_type|22",
            "java/shop/Stack.java|Stack.total|size|Counter|java/shop/Counter.java::Counter.size|declared_type|22",
            // Python: an annotated parameter, and a variable assigned a class's instance
            // (whose method is its base's).
            "python/accounts.py|reconcile|audit|Audited|python/accounts.py::AuditMixin.audit|declared_type|54",
            "python/accounts.py|reconcile|validate|Ledger|python/accounts.py::Ledger.validate|declared_type|55",
            // A type of that name only in an unrelated directory, not imported: not this one.
            "scripts/report.py|report|validate|Ledger|NULL|unresolved|5",
        ]
    );
    // CommonJS: `require` binds names from a file, as an ES import does; the class, its base
    // through that binding, and calls through a destructured name or the module object.
    has(
        "js/install.js|imports|<file>|BaseCommand|./base-cmd.js|js/base-cmd.js::BaseCommand|import|1|",
    );
    has("js/install.js|imports|<file>|log|./log.js|js/log.js::log|import|2|");
    has("js/install.js|inherits|Install|BaseCommand|NULL|js/base-cmd.js::BaseCommand|import|5|");
    has("js/install.js|calls|Install.run|log|NULL|js/log.js::log|import|7|");
    has("js/install.js|calls|Install.run|log|shared|js/log.js::log|import|8|");
    has("js/install.js|calls|Install.run|exec|this|js/base-cmd.js::BaseCommand.exec|inherited|9|");
    assert!(
        !edges
            .iter()
            .any(|e| e.contains("|calls|") && e.contains("|require|"))
    );
    // Nothing calls the free functions.
    assert!(
        !edges
            .iter()
            .any(|e| e.contains("|python/accounts.py::save|")
                || e.contains("|rust/src/square.rs::describe|")
                || e.contains("|rust/src/scale.rs::describe|")
                || e.contains("|go/handlers.go::notFound|")
                || e.contains("|go/handlers.go::Describe|")
                || e.contains("|go/admin/admin.go::Server.notFound|")),
        "{}",
        edges.join("\n")
    );
}

/// What a reader takes an edge to mean: a renamed import's alias is the name it imports; a
/// Python import names its module's file; a call on a list, a string literal, a global
/// object, a standard type or an imported module the repository lacks names nothing here,
/// however many definitions share its name; a Rust module path names its file.
#[test]
fn imports_and_standard_names_resolve_as_a_reader_would() {
    let (_tmp, store) = index_files(
        "reader",
        &[
            ("pkg/__init__.py", ""),
            (
                "pkg/shapes.py",
                "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def append(self, x):\n        return x\n\n\ndef total_area(items):\n    return sum(i.r for i in items)\n",
            ),
            (
                "lib/arrays.py",
                "def array(xs):\n    return xs\n\n\ndef join(xs):\n    return xs\n",
            ),
            (
                "pkg/report.py",
                "import numpy as np\nfrom pkg import shapes as sh\nfrom pkg.shapes import Circle as C, total_area\n\n\ndef summary(items):\n    names = []\n    names.append(\"x\")\n    big = C(2.0)\n    np.array(names)\n    return \", \".join(names) + str(sh.total_area(items) + total_area([big]))\n",
            ),
            (
                "src/lib.rs",
                "mod util;\nuse std::collections::HashMap as Map;\n\npub struct Wrapper;\n\nimpl Wrapper {\n    pub fn unwrap(self) -> u8 {\n        0\n    }\n}\n\npub fn run<T: Default>(v: Option<u8>) -> Map<String, T> {\n    let _n = v.unwrap();\n    util::join();\n    Map::new()\n}\n",
            ),
            ("src/util.rs", "pub fn join() {}\n"),
            ("src/other.rs", "pub fn join() {}\npub struct T;\n"),
            (
                "web/app.js",
                "import { clamp as limit } from './util.js';\n\nexport function grow(xs) {\n  const data = JSON.parse('[]');\n  return xs.map((x) => limit(x)).concat(data);\n}\n",
            ),
            (
                "web/util.js",
                "export function clamp(x) {\n  return x;\n}\n\nexport function parse(s) {\n  return s;\n}\n\nexport function map(f) {\n  return f;\n}\n",
            ),
            (
                "web/app.test.js",
                "import { expect } from 'vitest';\nimport { clamp } from './util.js';\n\nexport function check() {\n  expect(clamp(1)).toBe(1);\n}\n",
            ),
            (
                "web/matchers.js",
                "export class Matcher {\n  toBe(x) {\n    return x;\n  }\n}\n",
            ),
            (
                "pkg/checks.py",
                "from outside import make\n\n\nclass Local:\n    def grow(self):\n        return 1\n\n\ndef check():\n    make().grow()\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // Python.
    has("pkg/report.py|imports|<file>|numpy|NULL|NULL|unresolved|1|");
    has("pkg/report.py|imports|<file>|shapes|pkg|pkg/shapes.py|import|2|");
    has("pkg/report.py|imports|<file>|Circle|pkg.shapes|pkg/shapes.py::Circle|import|3|");
    has("pkg/report.py|calls|summary|append|names|NULL|unresolved|8|");
    has("pkg/report.py|calls|summary|C|NULL|pkg/shapes.py::Circle|import|9|");
    has("pkg/report.py|calls|summary|array|np|NULL|unresolved|10|");
    has("pkg/report.py|calls|summary|join|\", \"|NULL|unresolved|11|");
    has("pkg/report.py|calls|summary|total_area|sh|pkg/shapes.py::total_area|import|11|");
    has("pkg/report.py|calls|summary|total_area|NULL|pkg/shapes.py::total_area|import|11|");
    // Rust.
    has("src/lib.rs|calls|run|unwrap|v|NULL|unresolved|13|");
    has("src/lib.rs|calls|run|join|util|src/util.rs::join|import|14|");
    has("src/lib.rs|calls|run|new|Map|NULL|unresolved|15|");
    has("src/lib.rs|references|run|Option|NULL|NULL|unresolved|12|");
    has("src/lib.rs|references|run|T|NULL|NULL|unresolved|12|");
    // JavaScript.
    has("web/app.js|calls|grow|parse|JSON|NULL|unresolved|4|");
    has("web/app.js|calls|grow|map|xs|NULL|unresolved|5|");
    has("web/app.js|calls|grow|limit|NULL|web/util.js::clamp|import|5|");
    // What a function imported from outside the repository returns is an outside value: its
    // methods are none of the repository's namesakes (`Matcher.toBe`, `Circle.append`).
    has("web/app.test.js|calls|check|expect|NULL|NULL|unresolved|5|");
    has("web/app.test.js|calls|check|toBe|expect(clamp(1))|NULL|unresolved|5|");
    has("pkg/checks.py|calls|check|grow|make()|NULL|unresolved|10|");
    assert_eq!(
        sql_lines(
            &store,
            "SELECT source_path, target_name, alias FROM edges WHERE alias IS NOT NULL \
             ORDER BY source_path, line, target_name"
        ),
        [
            "pkg/report.py|numpy|np",
            "pkg/report.py|shapes|sh",
            "pkg/report.py|Circle|C",
            "src/lib.rs|HashMap|Map",
            "web/app.js|clamp|limit",
        ]
    );
}

/// C and C++ as their compilers read them: `#include` paths found as through the build's
/// include directories, a name first in the headers a file includes, another source file's
/// `static` function or macro never a target, the C library's functions the system's, and a
/// `.h` header that holds C++ parsed as C++.
#[test]
fn c_and_cpp_names_resolve_through_includes() {
    let (_tmp, store) = index_files(
        "native",
        &[
            (
                "clib/include/clib/util.h",
                "#pragma once\n#define CLAMP(x) ((x) < 0 ? 0 : (x))\nstatic inline int fast(int x) { return CLAMP(x); }\ntypedef struct buf_s buf_t;\nint util_run(buf_t *b);\nstruct buf_s { int len; };\n",
            ),
            (
                "clib/src/util.c",
                "#include \"clib/util.h\"\n#include <stdlib.h>\n\nstatic int helper(int x) { return x; }\n\nint util_run(buf_t *b) {\n    free(b);\n    return fast(helper(CLAMP(1)));\n}\n\nint buf_len(struct buf_s *s) {\n    return s->len;\n}\n\nint buf_len_t(buf_t *t) {\n    return t->len;\n}\n",
            ),
            (
                "clib/src/other.c",
                "#include \"clib/util.h\"\n\n#define CLAMP(x) (x)\nstatic int helper(int x) { return x; }\n\nint other(void) {\n    return util_run(0) + helper(CLAMP(2));\n}\n",
            ),
            (
                "clib/src/main.c",
                "#include \"clib/util.h\"\n\nint main(void) {\n    return helper(1) + util_run(0);\n}\n",
            ),
            (
                "clib/wasm/stdlib.h",
                "static inline void free(void *p) { (void)p; }\n",
            ),
            (
                "geo/include/geo/shape.h",
                "#pragma once\n\nnamespace geo {\n\nclass Shape {\npublic:\n    virtual double area() const = 0;\n};\n\nclass Circle : public Shape {\npublic:\n    double area() const override { return r_ * r_; }\nprivate:\n    double r_ = 1;\n};\n\n}  // namespace geo\n",
            ),
            (
                "geo/src/main.cpp",
                "#include \"geo/shape.h\"\n#include <vector>\n\ndouble twice(const geo::Circle& c) { return 2 * c.area(); }\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // Includes, through the include directory; the standard library's are the system's.
    has("clib/src/util.c|imports|<file>|util.h|clib/util.h|clib/include/clib/util.h|import|1|");
    has("clib/src/util.c|imports|<file>|stdlib.h|stdlib.h|NULL|unresolved|2|");
    has("geo/src/main.cpp|imports|<file>|shape.h|geo/shape.h|geo/include/geo/shape.h|import|1|");
    // Names from the included header, not another file's macro of that name.
    has("clib/src/util.c|calls|util_run|free|NULL|NULL|unresolved|7|");
    has("clib/src/util.c|calls|util_run|fast|NULL|clib/include/clib/util.h::fast|import|8|");
    has("clib/src/util.c|calls|util_run|helper|NULL|clib/src/util.c::helper|same_file|8|");
    has("clib/src/util.c|calls|util_run|CLAMP|NULL|clib/include/clib/util.h::CLAMP|import|8|");
    has("clib/src/util.c|references|util_run|buf_t|NULL|clib/include/clib/util.h::buf_t|import|6|");
    // A field read from a value of a declared type: the struct's, also through a typedef
    // (`buf_t` names `struct buf_s`); `struct buf_s *s` is a use of `buf_s`.
    has(
        "clib/src/util.c|references|buf_len|len|s|clib/include/clib/util.h::buf_s.len|declared_type|12|14",
    );
    has(
        "clib/src/util.c|references|buf_len_t|len|t|clib/include/clib/util.h::buf_s.len|declared_type|16|14",
    );
    has(
        "clib/src/util.c|references|buf_len|buf_s|NULL|clib/include/clib/util.h::buf_s|import|11|19",
    );
    // Linked from another source file; never another file's `static`.
    has("clib/src/other.c|calls|other|util_run|NULL|clib/src/util.c::util_run|unique_name|7|");
    has("clib/src/other.c|calls|other|CLAMP|NULL|clib/src/other.c::CLAMP|same_file|7|");
    has("clib/src/main.c|calls|main|helper|NULL|NULL|unresolved|4|");
    // A typedef's own name is no reference to itself.
    assert!(
        !edges
            .iter()
            .any(|e| e.starts_with("clib/include/clib/util.h|references|buf_t|buf_t|")),
        "{edges:#?}"
    );
    // The `.h` with classes is C++: its classes, methods and base are there.
    assert_eq!(
        sql_lines(
            &store,
            "SELECT language, kind, qualified_name FROM symbols \
             WHERE path = 'geo/include/geo/shape.h' ORDER BY start_line, qualified_name"
        ),
        [
            "cpp|module|geo",
            "cpp|class|geo.Shape",
            "cpp|method|geo.Shape.area",
            "cpp|class|geo.Circle",
            "cpp|method|geo.Circle.area",
            "cpp|field|geo.Circle.r_",
        ]
    );
    has(
        "geo/include/geo/shape.h|inherits|geo.Circle|Shape|NULL|geo/include/geo/shape.h::geo.Shape|same_file|10|",
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT language, count(*) FROM files GROUP BY language ORDER BY language"
        ),
        ["c|5", "cpp|2"]
    );
}

/// Ruby's `X.new` constructs class `X`: the class, or its own `self.new` — never another
/// class's `new`; `String.new` is Ruby's. A constant used as a value is a reference, found
/// by its path or lexically.
#[test]
fn ruby_new_constructs_its_class() {
    let (_tmp, store) = index_files(
        "rubynew",
        &[
            ("lib/worker.rb", "class Worker\n  def run\n  end\nend\n"),
            (
                "lib/parser.rb",
                "class OptionParser\n  def self.new(*args)\n  end\nend\n",
            ),
            (
                "lib/main.rb",
                "require_relative 'worker'\n\ndef main\n  w = Worker.new\n  s = String.new\n  o = OptionParser.new\n  w.run\nend\n",
            ),
            (
                "lib/jobs/errors.rb",
                "module Jobs\n  class Failed < StandardError\n  end\n  RETRIES = 3\nend\nmodule Other\n  class Failed < StandardError\n  end\nend\n",
            ),
            (
                "lib/jobs/runner.rb",
                "module Jobs\n  class Runner\n    def call(w)\n      n = Jobs::RETRIES\n      n.times { w.run }\n    rescue Failed, IOError\n      nil\n    end\n    include Jobs\n  end\nend\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    has("lib/main.rb|calls|main|new|Worker|lib/worker.rb::Worker|qualified|4|");
    has("lib/main.rb|calls|main|new|String|NULL|unresolved|5|");
    has("lib/main.rb|calls|main|new|OptionParser|lib/parser.rb::OptionParser.new|qualified|6|");
    has("lib/main.rb|calls|main|run|w|lib/worker.rb::Worker.run|declared_type|7|");
    // Constants used as values: by their path, or lexically (the enclosing module's
    // `Failed`, not `Other::Failed`); Ruby's own `IOError` is none of the repository's.
    let r = "lib/jobs/runner.rb";
    has(&format!(
        "{r}|references|Jobs.Runner.call|RETRIES|Jobs|lib/jobs/errors.rb::Jobs.RETRIES|qualified|4|"
    ));
    has(&format!(
        "{r}|references|Jobs.Runner.call|Failed|NULL|lib/jobs/errors.rb::Jobs.Failed|unique_name|6|"
    ));
    has(&format!(
        "{r}|references|Jobs.Runner.call|IOError|NULL|NULL|unresolved|6|"
    ));
    // A module mixed in (`include Jobs`) is one of the class's ancestors: an inherits edge
    // to the module (which the file reopens), not a call to `include`.
    has(&format!(
        "{r}|inherits|Jobs.Runner|Jobs|NULL|lib/jobs/runner.rb::Jobs|same_file|9|"
    ));
    assert!(!edges.iter().any(|e| e.contains("|include|")), "{edges:?}");
}

/// PHP names a class by its namespace: a bare name is the file's own namespace's or what a
/// `use` imports (renamed or not), `Models\User` goes through `use App\Models`, and
/// `\Exception` is the global namespace's — a library's here, not `App\Admin\Exception`.
/// Types in declarations, `instanceof` and `Foo::` are references; so are property reads,
/// through a parameter's declared type. A trait a class uses is a base.
#[test]
fn php_names_resolve_by_namespace() {
    let (_tmp, store) = index_files(
        "phpns",
        &[
            (
                "src/Models/Model.php",
                "<?php\nnamespace App\\Models;\n\nabstract class Model\n{\n    protected array $attributes = [];\n    public function save(): void {}\n}\n",
            ),
            (
                "src/Models/User.php",
                "<?php\nnamespace App\\Models;\n\nclass User extends Model\n{\n    public string $email = '';\n    public static function make(): self { return new User(); }\n    use HasEmail;\n}\n",
            ),
            (
                "src/Http/Group.php",
                "<?php\nnamespace App\\Http;\n\nuse App\\Models\\{User, Model as Base};\n\nfunction save(User $u, Base $b): void {}\n",
            ),
            (
                "src/Models/HasEmail.php",
                "<?php\nnamespace App\\Models;\n\ntrait HasEmail\n{\n    public function mail(): string { return ''; }\n}\n",
            ),
            (
                "src/Admin/User.php",
                "<?php\nnamespace App\\Admin;\n\nclass User\n{\n    public string $email = '';\n    public static function make(): self { return new User(); }\n    public function save(): void {}\n}\n",
            ),
            (
                "src/Admin/Exception.php",
                "<?php\nnamespace App\\Admin;\n\nclass Exception extends \\Exception\n{\n}\n",
            ),
            (
                "src/Admin/Failure.php",
                "<?php\nnamespace App\\Admin;\n\nclass Failure extends Exception\n{\n    public function detail(): string { return ''; }\n}\n",
            ),
            (
                "src/Admin/Report.php",
                "<?php\nnamespace App\\Admin;\n\nclass Report\n{\n    public function getMessage(): string { return ''; }\n\n    public function run(): string\n    {\n        try {\n            return '';\n        } catch (Failure $e) {\n            return $e->detail() . $e->getMessage();\n        }\n    }\n}\n",
            ),
            (
                "src/Http/Controller.php",
                "<?php\nnamespace App\\Http;\n\nuse App\\Models;\nuse App\\Admin\\User as AdminUser;\nuse App\\Models\\User;\n\nclass Controller\n{\n    public function store(User $user, AdminUser $admin): string\n    {\n        $user->save();\n        $copy = User::make();\n        $other = AdminUser::make();\n        return $user->email . $admin->email;\n    }\n\n    public function check($x): void\n    {\n        if ($x instanceof Models\\User) {\n            throw new \\Exception('no');\n        }\n    }\n\n    public function mail(User $u): string\n    {\n        return $u->mail();\n    }\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // A base in the file's own namespace; PHP's own `\Exception` is no class here.
    has("src/Models/User.php|inherits|User|Model|NULL|src/Models/Model.php::Model|qualified|4|");
    has("src/Admin/Exception.php|inherits|Exception|Exception|\\|NULL|unresolved|4|");
    // A group `use` names its namespace once, before the braces.
    has("src/Http/Group.php|references|save|User|NULL|src/Models/User.php::User|import|6|");
    has("src/Http/Group.php|references|save|Base|NULL|src/Models/Model.php::Model|import|6|");
    // A trait the class uses gives it its methods.
    has(
        "src/Models/User.php|inherits|User|HasEmail|NULL|src/Models/HasEmail.php::HasEmail|qualified|8|",
    );
    // `new User()` in each namespace is that namespace's.
    has("src/Admin/User.php|calls|User.make|User|NULL|src/Admin/User.php::User|qualified|7|");
    has("src/Models/User.php|calls|User.make|User|NULL|src/Models/User.php::User|qualified|7|");
    let c = "src/Http/Controller.php";
    // Parameter types through `use`, one of them renamed.
    has(&format!(
        "{c}|references|Controller.store|User|NULL|src/Models/User.php::User|import|10|"
    ));
    has(&format!(
        "{c}|references|Controller.store|AdminUser|NULL|src/Admin/User.php::User|import|10|"
    ));
    // A method of the declared type's base; a static call through a renamed `use`.
    has(&format!(
        "{c}|calls|Controller.store|save|$user|src/Models/Model.php::Model.save|declared_type|12|"
    ));
    has(&format!(
        "{c}|calls|Controller.store|make|User|src/Models/User.php::User.make|qualified|13|"
    ));
    has(&format!(
        "{c}|calls|Controller.store|make|AdminUser|src/Admin/User.php::User.make|qualified|14|"
    ));
    // Property reads, each through its parameter's type.
    has(&format!(
        "{c}|references|Controller.store|email|NULL|src/Models/User.php::User.email|declared_type|15|"
    ));
    // A namespace a `use` imports, then a class in it; the global namespace's `Exception`.
    has(&format!(
        "{c}|references|Controller.check|User|Models|src/Models/User.php::User|import|20|"
    ));
    has(&format!(
        "{c}|calls|Controller.check|Exception|\\|NULL|unresolved|21|"
    ));
    has(&format!(
        "{c}|calls|Controller.mail|mail|$u|src/Models/HasEmail.php::HasEmail.mail|declared_type|27|"
    ));
    // A caught exception has the type its `catch` names; a method its class lacks, with
    // PHP's `\Exception` up its bases, is that base's — not the caller's namesake.
    let r = "src/Admin/Report.php";
    has(&format!(
        "{r}|calls|Report.run|detail|$e|src/Admin/Failure.php::Failure.detail|declared_type|13|"
    ));
    has(&format!(
        "{r}|calls|Report.run|getMessage|$e|NULL|unresolved|13|"
    ));
}

/// Go resolves names by package, as the go command does: an import names the package's
/// directory (a GOPATH `src/` or the module's own path), never a definition that happens to
/// share its name, and a `testdata` copy of a standard package is no standard package; a name
/// written alone is its own package's; a method is its type's (any build-constraint
/// variant's), an embedded type's (in another file of that package), or — on a type from
/// outside the repository — none here.
#[test]
fn go_names_resolve_by_package() {
    let (_tmp, store) = index_files(
        "gopkg",
        &[
            (
                "src/example.com/net/ipv6/endpoint.go",
                "package ipv6\n\ntype PacketConn struct {\n\tdgramOpt\n}\n\ntype dgramOpt struct{ c int }\n\nfunc NewPacketConn(c int) *PacketConn { return &PacketConn{} }\n",
            ),
            (
                "src/example.com/net/ipv6/dgramopt.go",
                "package ipv6\n\nfunc (c *dgramOpt) JoinGroup(g int) error { return nil }\n",
            ),
            (
                "src/example.com/net/ipv4/dgramopt.go",
                "package ipv4\n\ntype dgramOpt struct{}\n\nfunc (c *dgramOpt) JoinGroup(g int) error { return nil }\n\nfunc Printf(f string) {}\n",
            ),
            (
                "src/example.com/yaml.v3/yaml.go",
                "package yaml\n\ntype Map map[string]any\n\nfunc (m Map) Get(k string) any { return m[k] }\n\nfunc Unmarshal(b []byte) Map { return nil }\n",
            ),
            (
                "src/example.com/tools/testdata/src/fmt/fmt.go",
                "package fmt\n\nfunc Printf(f string) {}\n",
            ),
            (
                "src/example.com/app/main.go",
                "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n\tv6 \"example.com/net/ipv6\"\n\t\"example.com/yaml.v3\"\n)\n\ntype server struct {\n\tsync.Mutex\n}\n\nfunc (s *server) run() {\n\ts.Lock()\n}\n\nfunc main() {\n\tfmt.Printf(\"x\")\n\tp := v6.NewPacketConn(1)\n\tp.JoinGroup(2)\n\tm := yaml.Unmarshal(nil)\n\tm.Get(\"k\")\n\tvar b bytes.Buffer\n\tb.Len()\n\thelper()\n}\n",
            ),
            (
                "src/example.com/app/util.go",
                "package main\n\nfunc helper() {}\n",
            ),
            (
                "src/example.com/app/ctx_darwin.go",
                "package main\n\ntype sigctxt struct{ r int }\n",
            ),
            (
                "src/example.com/app/ctx_linux.go",
                "package main\n\ntype sigctxt struct{ r int }\n\nfunc (c *sigctxt) rbx() int { return c.r }\n",
            ),
            (
                "src/example.com/app/vars.go",
                "package main\n\nimport v6 \"example.com/net/ipv6\"\n\nvar Conn = v6.NewPacketConn(0)\n\nfunc useConn(p *v6.PacketConn) {}\n",
            ),
            (
                "src/example.com/app/vars_use.go",
                "package main\n\nfunc joinAll() {\n\tConn.JoinGroup(2)\n}\n",
            ),
            (
                "src/example.com/app/os_darwin.go",
                "package main\n\nfunc sigblock() {}\n",
            ),
            (
                "src/example.com/app/os_linux.go",
                "package main\n\nfunc sigblock() {}\n",
            ),
            (
                "src/example.com/app/signal.go",
                "package main\n\nfunc block() {\n\tsigblock()\n\tonlyTest()\n}\n",
            ),
            (
                "src/example.com/app/signal_darwin.go",
                "package main\n\nfunc blockDarwin() {\n\tsigblock()\n}\n",
            ),
            (
                "src/example.com/app/export_test.go",
                "package main\n\nfunc onlyTest() {}\n",
            ),
            (
                "src/example.com/app/use.go",
                "package main\n\nimport v6 \"example.com/net/ipv6\"\n\nfunc use() {\n\tv6.Sys()\n\tv6.Internal()\n}\n",
            ),
            (
                "src/example.com/net/ipv6/sys_linux.go",
                "package ipv6\n\nfunc Sys() {}\n",
            ),
            (
                "src/example.com/net/ipv6/sys_freebsd.go",
                "package ipv6\n\nfunc Sys() {}\n",
            ),
            (
                "src/example.com/net/ipv6/export_test.go",
                "package ipv6\n\nfunc Internal() {}\n",
            ),
            (
                "src/example.com/net/ipv6/z_ext_test.go",
                "package ipv6_test\n\nimport \"example.com/net/ipv6\"\n\nfunc TestX() {\n\tipv6.Internal()\n}\n",
            ),
            (
                "src/example.com/app/hooks.go",
                "package main\n\ntype hooks struct {\n\tonStart func(name string) (*server, error)\n}\n\nfunc onStart() {}\n\nfunc fire(h *hooks) {\n\ts, _ := h.onStart(\"x\")\n\ts.run()\n\tonStart()\n}\n",
            ),
            (
                "src/example.com/app/ctx.go",
                "package main\n\nfunc dump(c *sigctxt, v any) int {\n\tswitch x := v.(type) {\n\tcase *sigctxt:\n\t\treturn x.rbx()\n\t}\n\treturn c.rbx()\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    let m = "src/example.com/app/main.go";
    // Imports: a package of the repository is its directory's file; the standard library's
    // are not (`fmt` is not the `testdata` copy).
    has(&format!(
        "{m}|imports|<file>|ipv6|example.com/net/ipv6|src/example.com/net/ipv6/dgramopt.go|import|6|"
    ));
    has(&format!(
        "{m}|imports|<file>|yaml|example.com/yaml.v3|src/example.com/yaml.v3/yaml.go|import|7|"
    ));
    has(&format!("{m}|imports|<file>|fmt|fmt|NULL|unresolved|4|"));
    has(&format!("{m}|calls|main|Printf|fmt|NULL|unresolved|19|"));
    // A renamed import; a method of an embedded type in another file of its package.
    has(&format!(
        "{m}|calls|main|NewPacketConn|v6|src/example.com/net/ipv6/endpoint.go::NewPacketConn|import|20|"
    ));
    has(&format!(
        "{m}|calls|main|JoinGroup|p|src/example.com/net/ipv6/dgramopt.go::dgramOpt.JoinGroup|declared_type|21|"
    ));
    // `yaml` of `example.com/yaml.v3`; a defined type's method.
    has(&format!(
        "{m}|calls|main|Get|m|src/example.com/yaml.v3/yaml.go::Map.Get|return_type|23|"
    ));
    // A standard type's method, declared or embedded: none of the repository's.
    has(&format!("{m}|calls|main|Len|b|NULL|unresolved|25|"));
    has(&format!("{m}|calls|server.run|Lock|s|NULL|unresolved|15|"));
    // A bare call is the package's, in another file.
    has(&format!(
        "{m}|calls|main|helper|NULL|src/example.com/app/util.go::helper|same_package|26|"
    ));
    // A type defined once per build constraint has the methods of each; a type switch's
    // case names its alias's type.
    let x = "src/example.com/app/ctx.go";
    has(&format!(
        "{x}|calls|dump|rbx|x|src/example.com/app/ctx_linux.go::sigctxt.rbx|declared_type|6|"
    ));
    has(&format!(
        "{x}|calls|dump|rbx|c|src/example.com/app/ctx_linux.go::sigctxt.rbx|declared_type|8|"
    ));
    // A type written with its package; a package variable's type, from another file.
    has(
        "src/example.com/app/vars.go|references|useConn|PacketConn|v6|src/example.com/net/ipv6/endpoint.go::PacketConn|import|7|",
    );
    has(
        "src/example.com/app/vars_use.go|calls|joinAll|JoinGroup|Conn|src/example.com/net/ipv6/dgramopt.go::dgramOpt.JoinGroup|declared_type|4|",
    );
    // A function defined once per platform (`os_linux.go`, `os_darwin.go`) is the one built
    // with the caller: Linux's where the caller's name states no platform. A test file's
    // function is seen only from tests — of its package, or an external test package in its
    // directory (`ipv6_test`).
    let a = "src/example.com/app";
    has(&format!(
        "{a}/signal.go|calls|block|sigblock|NULL|{a}/os_linux.go::sigblock|same_package|4|"
    ));
    has(&format!(
        "{a}/signal_darwin.go|calls|blockDarwin|sigblock|NULL|{a}/os_darwin.go::sigblock|same_package|4|"
    ));
    has(&format!(
        "{a}/signal.go|calls|block|onlyTest|NULL|NULL|unresolved|5|"
    ));
    has(&format!(
        "{a}/use.go|calls|use|Sys|v6|src/example.com/net/ipv6/sys_linux.go::Sys|import|6|"
    ));
    has(&format!(
        "{a}/use.go|calls|use|Internal|v6|NULL|unresolved|7|"
    ));
    has(
        "src/example.com/net/ipv6/z_ext_test.go|calls|TestX|Internal|ipv6|src/example.com/net/ipv6/export_test.go::Internal|import|6|",
    );
    // A field of a function type is called, and its call returns what the function type
    // does; a call written alone is never a field.
    let h = "src/example.com/app/hooks.go";
    has(&format!(
        "{h}|calls|fire|onStart|h|{h}::hooks.onStart|declared_type|10|"
    ));
    has(&format!(
        "{h}|calls|fire|run|s|src/example.com/app/main.go::server.run|return_type|11|"
    ));
    has(&format!(
        "{h}|calls|fire|onStart|NULL|{h}::onStart|same_file|12|"
    ));
}

/// A property of the language's own values, read from a value whose type the file does not
/// declare (`input.length`, `arguments.length`), is no field of the repository's that shares
/// its name; from a declared type it is that type's.
#[test]
fn builtin_properties_of_untyped_values_are_the_languages() {
    let (_tmp, store) = index_files(
        "props",
        &[(
            "src/checks.ts",
            "interface HasLength {\n  length: number;\n}\n\nexport function check(input) {\n  return input.length;\n}\n\nexport function typed(h: HasLength) {\n  return h.length;\n}\n\nexport function count() {\n  return arguments.length;\n}\n",
        )],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    let f = "src/checks.ts";
    has(&format!(
        "{f}|references|check|length|input|NULL|unresolved|6|"
    ));
    has(&format!(
        "{f}|references|typed|length|h|{f}::HasLength.length|declared_type|10|"
    ));
    has(&format!(
        "{f}|references|count|length|arguments|NULL|unresolved|14|"
    ));
}

/// Of several files a module path names, the module's own file comes before a file below
/// it at the same distance: `scheduler::Handle` is `scheduler/mod.rs`'s enum, not
/// `scheduler/current_thread/mod.rs`'s struct (which sorts first).
#[test]
fn a_module_path_names_the_modules_own_file_first() {
    let (_tmp, store) = index_files(
        "modfile",
        &[
            ("Cargo.toml", "[package]\nname = \"modfile\"\n"),
            ("src/lib.rs", "pub mod runtime;\n"),
            (
                "src/runtime/mod.rs",
                "pub mod scheduler;\npub mod handle;\npub mod builder;\n",
            ),
            (
                "src/runtime/scheduler/mod.rs",
                "pub mod current_thread;\n\npub enum Handle {\n    CurrentThread(u32),\n}\n",
            ),
            (
                "src/runtime/scheduler/current_thread/mod.rs",
                "pub struct Handle;\n",
            ),
            (
                "src/runtime/handle.rs",
                "pub struct Handle {\n    pub inner: u32,\n}\n",
            ),
            (
                "src/runtime/builder.rs",
                "use crate::runtime::handle::Handle;\n\npub fn build() -> u32 {\n    use crate::runtime::scheduler;\n    let _h = scheduler::Handle::CurrentThread(1);\n    0\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let b = "src/runtime/builder.rs";
    has_row(
        &edges,
        &format!(
            "{b}|calls|build|CurrentThread|scheduler::Handle|src/runtime/scheduler/mod.rs::Handle.CurrentThread|qualified|5|"
        ),
    );
}

/// Two file names that are not UTF-8 and read the same once made text (`\u{fffd}` for the
/// byte that is not).
#[cfg(unix)]
fn non_utf8_names() -> [std::ffi::OsString; 2] {
    use std::os::unix::ffi::OsStringExt;
    [b"bad\xffname.py".to_vec(), b"bad\xfename.py".to_vec()].map(std::ffi::OsString::from_vec)
}

/// A git source's paths that are not UTF-8 are skipped and counted, as a directory's are:
/// stored as text they would collide, and a path is what a file is known by.
#[cfg(unix)]
#[test]
fn non_utf8_paths_are_counted_skips_in_git_sources() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("names");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ok.py"), "def ok():\n    return 1\n").unwrap();
    for name in non_utf8_names() {
        std::fs::write(dir.join(name), "x = 1\n").unwrap();
    }
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "names"]);
    let store = tmp.path().join("store");
    let out = quarry_ok(&store, &["index", dir.to_str().unwrap()]);
    assert!(out.contains("non_utf8_path 2"), "{out}");
    assert_eq!(
        sql_lines(&store, "SELECT path FROM files ORDER BY path"),
        vec!["ok.py"]
    );
}

/// Go: a file's `//go:build` line (or older `// +build` lines) tells which of a package's
/// per-platform definitions a call reaches, also from files a re-index reloads from their
/// rows rather than parses; the result is the same as a fresh index's.
#[test]
fn go_build_lines_choose_definitions_also_after_a_reindex() {
    let (tmp, store) = index_files(
        "gobuild",
        &[
            (
                "rt/lock_futex.go",
                "// Copyright.\n\n//go:build dragonfly || freebsd || linux\n\npackage rt\n\nfunc lock() {}\n",
            ),
            (
                "rt/lock_sema.go",
                "//go:build aix || darwin || windows\n\npackage rt\n\nfunc lock() {}\n",
            ),
            (
                "rt/proc.go",
                "package rt\n\nfunc schedule() {\n\tlock()\n}\n",
            ),
            (
                "rt/mem.go",
                "// +build windows\n\npackage rt\n\nfunc alloc() {\n\tlock()\n}\n",
            ),
        ],
    );
    let calls = |store: &Path| {
        sql_lines(
            store,
            "SELECT source_qname, regexp_replace(target, '^[^:]+::', ''), resolution FROM edges \
             WHERE kind = 'calls' ORDER BY source_qname",
        )
    };
    let expected = [
        "alloc|rt/lock_sema.go::lock|same_package",
        "schedule|rt/lock_futex.go::lock|same_package",
    ];
    assert_eq!(calls(&store), expected);
    // A changed file is parsed again; the others are rebuilt from their rows, and their build
    // lines read from their stored contents.
    let dir = tmp.path().join("repo");
    std::fs::write(
        dir.join("rt/proc.go"),
        "package rt\n\nfunc schedule() {\n\tlock()\n}\n\nfunc park() {\n\tlock()\n}\n",
    )
    .unwrap();
    let out = quarry_ok(
        &store,
        &["index", dir.to_str().unwrap(), "--name", "gobuild"],
    );
    assert!(out.contains("parsed 1 files, reused 3 unchanged"), "{out}");
    let expected = [
        "alloc|rt/lock_sema.go::lock|same_package",
        "park|rt/lock_futex.go::lock|same_package",
        "schedule|rt/lock_futex.go::lock|same_package",
    ];
    assert_eq!(calls(&store), expected);
    let fresh = tmp.path().join("fresh");
    quarry_ok(
        &fresh,
        &["index", dir.to_str().unwrap(), "--name", "gobuild"],
    );
    assert_eq!(table_dump(&store), table_dump(&fresh));
}

/// Java: a simple type name is scoped as JLS 6.4.1 has it — the file's, a single-type
/// import's, its package's (its directory), an on-demand import's (`import a.b.*;`), then
/// `java.lang`'s — and not another package's namesake; a name written with its package is
/// that package's, imported or not.
#[test]
fn java_type_names_resolve_by_package_scope() {
    let (_tmp, store) = index_files(
        "javascope",
        &[
            (
                "src/com/acme/core/Engine.java",
                "package com.acme.core;\n\nimport com.acme.util.*;\n\npublic class Engine {\n    Config config;\n    Helper helper;\n    String name;\n    Widget w;\n    com.other.Widget other;\n\n    void run() {\n        Config c = new Config();\n        Widget.make();\n    }\n}\n",
            ),
            (
                "src/com/acme/core/Config.java",
                "package com.acme.core;\n\npublic class Config {}\n",
            ),
            (
                "src/com/acme/util/Helper.java",
                "package com.acme.util;\n\npublic class Helper {}\n",
            ),
            (
                "src/com/acme/util/Widget.java",
                "package com.acme.util;\n\npublic class Widget {\n    public static void make() {}\n}\n",
            ),
            (
                "src/com/other/Config.java",
                "package com.other;\n\npublic class Config {}\n",
            ),
            (
                "src/com/other/String.java",
                "package com.other;\n\npublic class String {}\n",
            ),
            (
                "src/com/other/Widget.java",
                "package com.other;\n\npublic class Widget {\n    public static void make() {}\n}\n",
            ),
            (
                "src/java/lang/String.java",
                "package java.lang;\n\npublic final class String {}\n",
            ),
            (
                "src/java/util/Map.java",
                "package java.util;\n\npublic interface Map<K, V> {\n    interface Entry<K, V> {}\n}\n",
            ),
            (
                "src/com/acme/core/Entry.java",
                "package com.acme.core;\n\npublic class Entry {}\n",
            ),
            (
                "src/com/acme/core/Table.java",
                "package com.acme.core;\n\nimport java.util.Map;\n\nclass Table {\n    Map.Entry<String, String> first;\n    Entry own;\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    let e = "src/com/acme/core/Engine.java";
    // The import on demand names the package: its file.
    has(&format!(
        "{e}|imports|<file>|*|com.acme.util|src/com/acme/util/Helper.java|import|3|"
    ));
    has(&format!(
        "{e}|references|Engine.config|Config|NULL|src/com/acme/core/Config.java::Config|same_package|6|"
    ));
    has(&format!(
        "{e}|references|Engine.helper|Helper|NULL|src/com/acme/util/Helper.java::Helper|import|7|"
    ));
    has(&format!(
        "{e}|references|Engine.name|String|NULL|src/java/lang/String.java::String|import|8|"
    ));
    has(&format!(
        "{e}|references|Engine.w|Widget|NULL|src/com/acme/util/Widget.java::Widget|import|9|"
    ));
    has(&format!(
        "{e}|references|Engine.other|Widget|com.other|src/com/other/Widget.java::Widget|qualified|10|"
    ));
    has(&format!(
        "{e}|calls|Engine.run|Config|NULL|src/com/acme/core/Config.java::Config|same_package|13|"
    ));
    has(&format!(
        "{e}|calls|Engine.run|make|Widget|src/com/acme/util/Widget.java::Widget.make|qualified|14|"
    ));
    // A nested type written with its outer type is the outer type's, not the package's
    // namesake.
    let t = "src/com/acme/core/Table.java";
    has(&format!(
        "{t}|references|Table.first|Entry|Map|src/java/util/Map.java::Map.Entry|qualified|6|"
    ));
    has(&format!(
        "{t}|references|Table.own|Entry|NULL|src/com/acme/core/Entry.java::Entry|same_package|7|"
    ));
}

/// A call or field read on a field's value (`v.Args[0].Reg()`, `self.title.area()`) is a
/// member of the type the field's declaration (or PHP docblock) gives it, wherever the field
/// is declared — an element's type when the field is indexed or looped over, an embedded Go
/// type's or an anonymous struct's members — not the first namesake in the repository.
#[test]
fn calls_on_fields_take_the_fields_type() {
    let (_tmp, store) = index_files(
        "fields",
        &[
            (
                "ssa/value.go",
                "package ssa\n\ntype Value struct {\n\tArgs  []*Value\n\tBlock *Block\n\tcache struct {\n\t\tn int\n\t}\n}\n\nfunc (v *Value) Reg() int { return 0 }\n",
            ),
            (
                "ssa/block.go",
                "package ssa\n\ntype Block struct {\n\tStack\n}\n\ntype Stack struct{}\n\nfunc (s *Stack) Text() string { return \"\" }\n\nfunc (b *Block) Kind() int { return 0 }\n",
            ),
            (
                "ssa/aux.go",
                "package ssa\n\ntype AuxCall struct{ n int }\n\nfunc (a *AuxCall) Reg() int { return 1 }\n\nfunc (a *AuxCall) Text() string { return \"\" }\n\nfunc (a *AuxCall) Kind() int { return 1 }\n",
            ),
            (
                "amd64/ssa.go",
                "package amd64\n\nimport \"example.com/ssa\"\n\nfunc gen(v *ssa.Value) int {\n\tv.Block.Stack.Text()\n\t_ = v.cache.n\n\ta := v.Args[1]\n\ta.Reg()\n\tfor _, x := range v.Args {\n\t\tx.Reg()\n\t}\n\tb := v.Block\n\tb.Kind()\n\treturn v.Args[0].Reg()\n}\n\nfunc each(vals []*ssa.Value) {\n\tfor _, w := range vals {\n\t\tw.Reg()\n\t}\n}\n",
            ),
            ("go.mod", "module example.com\n"),
            (
                "src/shapes.rs",
                "pub struct Shape;\n\nimpl Shape {\n    pub fn area(&self) -> f64 { 0.0 }\n}\n\npub struct Label;\n\nimpl Label {\n    pub fn area(&self) -> f64 { 1.0 }\n}\n",
            ),
            (
                "src/scene.rs",
                "use crate::shapes::{Label, Shape};\n\npub struct Scene {\n    pub shapes: Vec<Shape>,\n    pub title: Label,\n}\n",
            ),
            (
                "src/render.rs",
                "use crate::scene::Scene;\n\nimpl Scene {\n    pub fn total(&self) -> f64 {\n        let first = &self.shapes[0];\n        first.area() + self.shapes[1].area() + self.title.area()\n    }\n\n    pub fn each(&self) {\n        for s in self.shapes.iter() {\n            s.area();\n        }\n    }\n}\n",
            ),
            (
                "py/models.py",
                "class State:\n    def run(self):\n        pass\n\n\nclass Other:\n    def run(self):\n        pass\n",
            ),
            (
                "py/machine.py",
                "from models import State\n\n\nclass Machine:\n    def __init__(self):\n        self.states: list[State] = []\n\n    def go(self):\n        self.states[0].run()\n        for s in self.states:\n            s.run()\n",
            ),
            (
                "php/Repo.php",
                "<?php\nnamespace App;\n\nclass Repo {\n    public function find($id) { return $id; }\n}\n\nclass Cache {\n    public function find($id) { return $id; }\n}\n",
            ),
            (
                "php/Service.php",
                "<?php\nnamespace App;\n\nclass Service {\n    /** @var Repo */\n    private $repo;\n\n    public function get($id) {\n        return $this->repo->find($id);\n    }\n}\n",
            ),
            (
                "web/repo.ts",
                "export class Repo {\n  find(id: string) { return id; }\n}\n\nexport class Cache {\n  find(id: string) { return id; }\n}\n",
            ),
            (
                "web/service.ts",
                "import { Repo } from './repo';\n\nexport class Service {\n  private all: Repo[] = [];\n  get(id: string) {\n    for (const r of this.all) r.find(id);\n    return this.all[0].find(id);\n  }\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // (path, kind, caller, name, receiver, target, line): each resolved on a declared type.
    type Row<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str, u32);
    let typed = |(path, kind, caller, name, receiver, target, line): Row| {
        has(&format!(
            "{path}|{kind}|{caller}|{name}|{receiver}|{target}|declared_type|{line}|"
        ))
    };
    let g = "amd64/ssa.go";
    let (reg, stack) = ("ssa/value.go::Value.Reg", "ssa/block.go::Stack");
    // Go: an element of a field (`[]*Value`), directly, bound to a local, or a loop's; a
    // local bound to a field; an embedded type read as a field, and its method; an
    // anonymous struct's field.
    typed((g, "calls", "gen", "Reg", "v.Args[0]", reg, 15));
    let kind = "ssa/block.go::Block.Kind";
    typed((g, "calls", "gen", "Kind", "b", kind, 14));
    typed((g, "calls", "gen", "Reg", "a", reg, 9));
    typed((g, "calls", "gen", "Reg", "x", reg, 11));
    // A loop over a parameter declared as a slice.
    typed((g, "calls", "each", "Reg", "w", reg, 20));
    typed((g, "references", "gen", "Stack", "v.Block", stack, 6));
    let text = "ssa/block.go::Stack.Text";
    typed((g, "calls", "gen", "Text", "v.Block.Stack", text, 6));
    let n = "ssa/value.go::Value.cache.n";
    typed((g, "references", "gen", "n", "v.cache", n, 7));
    // Rust: a field declared in another file than the `impl`, indexed or not, read into a
    // local, or looped over.
    let (render, shape, label) = (
        "src/render.rs",
        "src/shapes.rs::Shape.area",
        "src/shapes.rs::Label.area",
    );
    typed((render, "calls", "Scene.total", "area", "first", shape, 6));
    typed((
        render,
        "calls",
        "Scene.total",
        "area",
        "self.shapes[1]",
        shape,
        6,
    ));
    typed((
        render,
        "calls",
        "Scene.total",
        "area",
        "self.title",
        label,
        6,
    ));
    typed((render, "calls", "Scene.each", "area", "s", shape, 11));
    // Python's annotated attribute; TypeScript's array property; loops over them.
    let (py, run) = ("py/machine.py", "py/models.py::State.run");
    typed((py, "calls", "Machine.go", "run", "self.states[0]", run, 9));
    typed((py, "calls", "Machine.go", "run", "s", run, 11));
    let (ts, find) = ("web/service.ts", "web/repo.ts::Repo.find");
    typed((ts, "calls", "Service.get", "find", "this.all[0]", find, 7));
    typed((ts, "calls", "Service.get", "find", "r", find, 6));
    // PHP: an untyped property's docblock.
    let (php, find) = ("php/Service.php", "php/Repo.php::Repo.find");
    typed((php, "calls", "Service.get", "find", "$this->repo", find, 9));
}

/// A method or function named as a value, not called — a callback, a method value, a Rust
/// path, a Java method reference — is a reference to it, found on the receiver's type as a
/// call would be; a Rust path to a primitive's or a library's constant is no namesake here,
/// and an array's `length` is the language's.
#[test]
fn methods_and_paths_named_as_values_are_references() {
    let (_tmp, store) = index_files(
        "values",
        &[
            (
                "py/ui.py",
                "class Button:\n    def on_click(self):\n        pass\n\n    def bind(self, register):\n        register(self.on_click)\n",
            ),
            (
                "py/jobs.py",
                "import threading\nfrom ui import Button\n\n\ndef worker(data):\n    pass\n\n\ndef start(data):\n    threading.Thread(target=worker, args=(data,))\n    return sorted([Button()], key=id)\n",
            ),
            (
                "c/dev.c",
                "struct ops { int (*read)(int); };\n\nstatic int dev_read(int n) { return n; }\n\nstatic const struct ops dev_ops = { .read = dev_read };\n",
            ),
            (
                "web/form.ts",
                "export class Form {\n  submit() {}\n  wire(el: HTMLElement) {\n    el.addEventListener('submit', this.submit);\n  }\n}\n",
            ),
            (
                "srv/server.go",
                "package srv\n\ntype Server struct{}\n\nfunc (s *Server) serve() {}\n\nfunc (s *Server) Start(run func(func())) {\n\trun(s.serve)\n}\n\nfunc handle() {}\n\nfunc Mux(reg func(func())) {\n\treg(handle)\n}\n",
            ),
            (
                "src/lib.rs",
                "mod util;\n\npub enum Error {\n    Io(String),\n    Closed,\n}\n\npub struct Parser;\n\nimpl Parser {\n    pub const LIMIT: u64 = 8;\n\n    fn one(s: &str) -> usize {\n        s.len()\n    }\n\n    pub fn all(&self, v: &[&str]) -> Result<Vec<usize>, Error> {\n        let _ = (Self::LIMIT, u64::MAX);\n        v.iter().for_each(util::helper);\n        let _ = v.iter().map(Error::Io);\n        if v.is_empty() {\n            return Err(Error::Closed);\n        }\n        Ok(v.iter().map(|s| *s).map(Self::one).collect())\n    }\n}\n",
            ),
            (
                "src/util.rs",
                "pub fn helper(_: &&str) {}\n\npub const MAX: u64 = 1;\n\npub fn each(v: &[&str]) {\n    v.iter().for_each(helper);\n}\n",
            ),
            (
                "cpp/order.cpp",
                "static bool less(int a, int b) { return a < b; }\n\nvoid order(std::vector<int>& v) { std::sort(v.begin(), v.end(), less); }\n",
            ),
            (
                "java/Walker.java",
                "import java.util.List;\n\nclass Walker {\n    int length;\n\n    void visit(String s) {}\n\n    void walk(List<String> xs, String[] names) {\n        xs.forEach(this::visit);\n        int n = names.length;\n    }\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    // (path, source, name, qualifier, target, resolution, line)
    let reference = |(path, source, name, qualifier, target, how, line): (
        &str,
        &str,
        &str,
        &str,
        &str,
        &str,
        u32,
    )| {
        has(&format!(
            "{path}|references|{source}|{name}|{qualifier}|{target}|{how}|{line}|"
        ))
    };
    // Functions named alone as values: the file's own; not a parameter (`data`) nor a
    // built-in (`id`). In Go, Rust and C++ too.
    reference((
        "srv/server.go",
        "Mux",
        "handle",
        "NULL",
        "srv/server.go::handle",
        "same_file",
        14,
    ));
    reference((
        "src/util.rs",
        "each",
        "helper",
        "NULL",
        "src/util.rs::helper",
        "same_file",
        6,
    ));
    reference((
        "cpp/order.cpp",
        "order",
        "less",
        "NULL",
        "cpp/order.cpp::less",
        "same_file",
        3,
    ));
    reference((
        "py/jobs.py",
        "start",
        "worker",
        "NULL",
        "py/jobs.py::worker",
        "same_file",
        10,
    ));
    assert!(
        !edges
            .iter()
            .any(|e| e.starts_with("py/jobs.py|references|start|data|")
                || e.starts_with("py/jobs.py|references|start|id|")),
        "{}",
        edges.join("\n")
    );
    reference((
        "c/dev.c",
        "<file>",
        "dev_read",
        "NULL",
        "c/dev.c::dev_read",
        "same_file",
        5,
    ));
    // Method values on the instance.
    reference((
        "py/ui.py",
        "Button.bind",
        "on_click",
        "self",
        "py/ui.py::Button.on_click",
        "same_class",
        6,
    ));
    reference((
        "web/form.ts",
        "Form.wire",
        "submit",
        "this",
        "web/form.ts::Form.submit",
        "same_class",
        4,
    ));
    reference((
        "srv/server.go",
        "Server.Start",
        "serve",
        "s",
        "srv/server.go::Server.serve",
        "same_class",
        8,
    ));
    // Rust paths as values: an associated constant and function, a module's function, a
    // tuple variant as a function and a unit variant; a primitive's constant is outside.
    let (rs, all) = ("src/lib.rs", "Parser.all");
    let limit = "src/lib.rs::Parser.LIMIT";
    reference((rs, all, "LIMIT", "Self", limit, "same_class", 18));
    reference((rs, all, "MAX", "u64", "NULL", "unresolved", 18));
    let helper = "src/util.rs::helper";
    reference((rs, all, "helper", "util", helper, "import", 19));
    reference((
        rs,
        all,
        "Io",
        "Error",
        "src/lib.rs::Error.Io",
        "qualified",
        20,
    ));
    let closed = "src/lib.rs::Error.Closed";
    reference((rs, all, "Closed", "Error", closed, "qualified", 22));
    let one = "src/lib.rs::Parser.one";
    reference((rs, all, "one", "Self", one, "same_class", 24));
    // Java: a method reference; an array's `length` is no field of the file's.
    let walker = "java/Walker.java::Walker.visit";
    reference((
        "java/Walker.java",
        "Walker.walk",
        "visit",
        "this",
        walker,
        "same_class",
        9,
    ));
    reference((
        "java/Walker.java",
        "Walker.walk",
        "length",
        "names",
        "NULL",
        "unresolved",
        10,
    ));
}

/// A field read keeps what it reads from as its qualifier, as a call keeps its receiver: a
/// module's member read through its import is that module's (`constants.TIMEOUT`, a function
/// passed as `util.fmt`), a class's attribute the class's — the file's own class of that name
/// before a namesake nearby (`_State.CREATED`) — and a field read from a value is no member of
/// a type named like it.
#[test]
fn field_reads_keep_what_they_read_from() {
    let (_tmp, store) = index_files(
        "reads",
        &[
            (
                "aio/constants.py",
                "TIMEOUT = 30\nsep = '/'\n\n\nclass Clock:\n    def now(self):\n        return 0\n\n\nclock = Clock()\n\n\ndef make_clock() -> Clock:\n    return Clock()\n\n\ndefault_clock = make_clock()\n",
            ),
            (
                "aio/runners.py",
                "import enum\nfrom .constants import clock, default_clock\n\n\nclass _State(enum.Enum):\n    CREATED = 1\n\n\ndef tick():\n    return clock.now()\n\n\ndef tock():\n    return default_clock.now()\n",
            ),
            (
                "aio/timeouts.py",
                "import enum\nfrom . import constants\n\n\nclass _State(enum.Enum):\n    CREATED = 1\n\n\nclass Timeout:\n    def __init__(self):\n        self.state = _State.CREATED\n        self.limit = constants.TIMEOUT\n        self.separator = constants.sep\n\n    def begin(self):\n        return self.limit\n\n\n_default = Timeout()\nstart = _default.begin\n\n\ndef stop():\n    return _default.begin()\n",
            ),
            (
                "web/util.ts",
                "export function fmt(x: string) {\n  return x;\n}\n\nexport class Ctx {\n  common = { issues: [] as string[] };\n}\n\nexport const sep = '/';\n",
            ),
            (
                "web/main.ts",
                "import * as util from './util';\n\nexport function join(a: string[], ctx: any) {\n  const n = ctx.common.issues;\n  return a.map(util.fmt).concat(n).join(util.sep);\n}\n",
            ),
            (
                "cjs/a.js",
                "exports.run = exports.tick = void 0;\nfunction run() {}\nexports.run = run;\n",
            ),
            ("cjs/b.ts", "export const tick = 1;\n"),
            (
                "java/Types.java",
                "class Types {\n    static final int TIME = 92;\n}\n",
            ),
            (
                "java/Kind.java",
                "class Kind {\n    int code = Types.TIME;\n}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    let t = "aio/timeouts.py|references|Timeout.__init__";
    has(&format!(
        "{t}|CREATED|_State|aio/timeouts.py::_State.CREATED|same_file|11|"
    ));
    has(&format!(
        "{t}|TIMEOUT|constants|aio/constants.py::TIMEOUT|import|12|"
    ));
    // A Python module's variable (`sep = '/'`), and one's value typed by the module's
    // earlier assignment (`_default = Timeout()`).
    has(&format!(
        "{t}|sep|constants|aio/constants.py::sep|import|13|"
    ));
    has(
        "aio/timeouts.py|references|start|begin|_default|aio/timeouts.py::Timeout.begin|declared_type|20|",
    );
    // …and in a function, by the class the variable is made by: in its file or another.
    has("aio/runners.py|calls|tick|now|clock|aio/constants.py::Clock.now|declared_type|10|");
    // (Made by a function: by the type it declares it returns.)
    has("aio/runners.py|calls|tock|now|default_clock|aio/constants.py::Clock.now|return_type|14|");
    has(
        "aio/timeouts.py|calls|stop|begin|_default|aio/timeouts.py::Timeout.begin|declared_type|24|",
    );
    has("web/main.ts|references|join|fmt|util|web/util.ts::fmt|import|5|");
    // A module's top-level `const` is a constant symbol.
    has("web/main.ts|references|join|sep|util|web/util.ts::sep|import|5|");
    // `ctx` is a value, not the `Ctx` class nor its `common`: its `issues` is not known.
    has("web/main.ts|references|join|issues|ctx.common|NULL|unresolved|4|");
    // `exports.x` is the file's own export, or nothing: not `cjs/b.ts`'s `tick`.
    has("cjs/a.js|references|<file>|run|exports|cjs/a.js::run|same_file|1|");
    has("cjs/a.js|references|<file>|tick|exports|NULL|unresolved|1|");
    has("java/Kind.java|references|Kind.code|TIME|Types|java/Types.java::Types.TIME|qualified|2|");
}

/// A call on another call's result is a member of the type the inner call's target declares
/// it returns (`Self`, `Result<T, E>` through `?`, a class called, `new T()`, Go's `*T`), as
/// is a call on a local bound to one; `Type::f()` is a member of the type its file names, not
/// of the first type of that name in the repository (a Rust tuple variant, `Fail::Io(1)`,
/// too); a Rust method on a value of a type from outside the repository is an imported
/// extension trait's.
#[test]
fn calls_on_call_results_take_the_returned_type() {
    let config = |name: &str| {
        format!(
            "pub struct Config {{ n: u32 }}\npub struct Checked;\npub struct Error;\n\nimpl Config {{\n    pub fn new() -> Self {{ Config {{ n: 0 }} }}\n    pub fn with(mut self, n: u32) -> Self {{ self.n = n; self }}\n    pub fn load(p: &str) -> Result<Config, Error> {{ Ok(Config::new()) }}\n    pub fn check(&self) -> Checked {{ Checked }}\n}}\n\nimpl Checked {{\n    pub fn report(&self) {{}}\n}}\n\npub fn {name}() -> Result<(), Error> {{\n    Config::new().with(2).check().report();\n    Config::load(\"x\")?.check().report();\n    let cfg = Config::load(\"y\")?;\n    cfg.check().report();\n    Ok(())\n}}\n"
        )
    };
    let (a, b) = (config("run_a"), config("run_b"));
    let fail = "pub enum Fail {\n    Io(u32),\n}\n\nimpl Fail {\n    pub fn io() -> Self {\n        Self::Io(0)\n    }\n}\n\npub fn make() -> Fail {\n    let _ = Some(1);\n    Fail::Io(1)\n}\n";
    let (_tmp, store) = index_files(
        "chains",
        &[
            ("a/src/lib.rs", &a),
            ("b/src/lib.rs", &b),
            ("a/src/fail.rs", fail),
            ("b/src/fail.rs", fail),
            (
                "a/src/ext.rs",
                "pub trait WordsExt {\n    fn words_count(&self) -> usize;\n}\n\nimpl WordsExt for str {\n    fn words_count(&self) -> usize { 0 }\n}\n",
            ),
            (
                "b/src/status.rs",
                "pub enum Status {\n    Pending(u32),\n}\n",
            ),
            (
                "a/src/ready.rs",
                "use other::Status;\n\npub struct Ready(pub u32);\n\npub fn wake() -> Status {\n    Status::Ready(Ready(1).0)\n}\n",
            ),
            (
                "a/src/count.rs",
                "use crate::ext::WordsExt;\n\npub fn count(s: String) -> usize {\n    s.words_count()\n}\n\npub fn show(f: &mut std::fmt::Formatter<'_>) {\n    f.debug_struct(\"X\").field(\"a\", &1).finish();\n}\n",
            ),
            (
                "b/src/words.rs",
                "pub struct Words;\nimpl Words {\n    pub fn words_count(&self) -> usize { 1 }\n    pub fn field(&self) {}\n    pub fn finish(&self) {}\n}\n",
            ),
            (
                "b/src/other.rs",
                "pub struct Other;\nimpl Other {\n    pub fn report(&self) {}\n    pub fn check(&self) {}\n}\n",
            ),
            (
                "java/Builder.java",
                "class Widget {\n    void show() {}\n}\n\nclass Builder {\n    Builder name(String n) { return this; }\n    Widget build() { return new Widget(); }\n    static void main() {\n        new Builder().name(\"x\").build().show();\n    }\n}\n",
            ),
            (
                "java/Other.java",
                "class Other {\n    void show() {}\n    Other name(String n) { return this; }\n    void build() {}\n}\n",
            ),
            (
                "py/engine.py",
                "class Engine:\n    def start(self):\n        pass\n\n\ndef make() -> \"Engine\":\n    return Engine()\n\n\ndef main():\n    make().start()\n    Engine().start()\n",
            ),
            (
                "py/other.py",
                "class Motor:\n    def start(self):\n        pass\n",
            ),
            (
                "go/server.go",
                "package server\n\ntype Server struct{}\n\nfunc NewServer(name string) *Server { return &Server{} }\n\nfunc (s *Server) Handle(path string) {}\n\nfunc main() {\n\tNewServer(\"x\").Handle(\"/\")\n}\n",
            ),
            (
                "go/client/client.go",
                "package client\n\ntype Client struct{}\n\nfunc (c *Client) Handle(path string) {}\n",
            ),
        ],
    );
    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    for krate in ["a", "b"] {
        let run = format!("run_{krate}");
        let file = format!("{krate}/src/lib.rs");
        // `Config::new()` in each crate is that crate's own.
        has(&format!(
            "{file}|calls|{run}|new|Config|{file}::Config.new|qualified|17|"
        ));
        // `Self`, then a declared type.
        has(&format!(
            "{file}|calls|{run}|with|Config::new()|{file}::Config.with|return_type|17|"
        ));
        has(&format!(
            "{file}|calls|{run}|check|Config::new().with(2)|{file}::Config.check|return_type|17|"
        ));
        has(&format!(
            "{file}|calls|{run}|report|Config::new().with(2).check()|{file}::Checked.report|return_type|17|"
        ));
        // `Result<Config, Error>` through `?`.
        has(&format!(
            "{file}|calls|{run}|check|Config::load(\"x\")?|{file}::Config.check|return_type|18|"
        ));
        has(&format!(
            "{file}|calls|{run}|report|Config::load(\"x\")?.check()|{file}::Checked.report|return_type|18|"
        ));
        // A local bound to a call's result has the type that call returns.
        has(&format!(
            "{file}|calls|{run}|check|cfg|{file}::Config.check|return_type|20|"
        ));
        has(&format!(
            "{file}|calls|{run}|report|cfg.check()|{file}::Checked.report|return_type|20|"
        ));
    }
    // A tuple variant called through its enum is that enum's, in the caller's crate; a bare
    // `Some(…)` is the prelude's.
    for krate in ["a", "b"] {
        let file = format!("{krate}/src/fail.rs");
        has(&format!(
            "{file}|calls|Fail.io|Io|Self|{file}::Fail.Io|same_class|7|"
        ));
        has(&format!(
            "{file}|calls|make|Io|Fail|{file}::Fail.Io|qualified|13|"
        ));
        has(&format!("{file}|calls|make|Some|NULL|NULL|unresolved|12|"));
    }
    // A variant of a type the repository does not define (another crate's `Status` is not
    // this one) is no struct of that name.
    let ready = "a/src/ready.rs";
    has(&format!(
        "{ready}|calls|wake|Ready|Status|NULL|unresolved|6|"
    ));
    has(&format!(
        "{ready}|calls|wake|Ready|NULL|{ready}::Ready|same_file|6|"
    ));
    // On a value of a type from outside the repository (`String`), an extension trait the
    // file imports; not a namesake method elsewhere.
    has("a/src/count.rs|calls|count|words_count|s|a/src/ext.rs::WordsExt.words_count|import|4|");
    // What an outside type's method returns is an outside value: not some `field` here.
    has("a/src/count.rs|calls|show|field|f.debug_struct(\"X\")|NULL|unresolved|8|");
    has(
        "a/src/count.rs|calls|show|finish|f.debug_struct(\"X\").field(\"a\", &1)|NULL|unresolved|8|",
    );
    has(
        "java/Builder.java|calls|Builder.main|name|new Builder()|java/Builder.java::Builder.name|return_type|9|",
    );
    has(
        "java/Builder.java|calls|Builder.main|build|new Builder().name(\"x\")|java/Builder.java::Builder.build|return_type|9|",
    );
    has(
        "java/Builder.java|calls|Builder.main|show|new Builder().name(\"x\").build()|java/Builder.java::Widget.show|return_type|9|",
    );
    has("py/engine.py|calls|main|start|make()|py/engine.py::Engine.start|return_type|11|");
    has("py/engine.py|calls|main|start|Engine()|py/engine.py::Engine.start|return_type|12|");
    has(
        "go/server.go|calls|main|Handle|NewServer(\"x\")|go/server.go::Server.Handle|return_type|10|",
    );
}

#[test]
fn polyglot_symbols_and_edges_are_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = fixture_repo("polyglot", tmp.path());
    let store = tmp.path().join("store");
    let out = quarry_ok(
        &store,
        &["index", repo.to_str().unwrap(), "--name", "polyglot"],
    );
    assert!(
        out.contains("skipped 3: binary 1, generated 1, vendored 1"),
        "{out}"
    );

    let symbols = sql_lines(&store, SYMBOLS_SQL);
    // Spot checks that do not depend on the golden file.
    // Sonar: for +1, if +2 (nested), && +1, else-if +1, || +1, else +1, match +3 (nested twice).
    assert!(
        row(
            &symbols,
            "rust/src/lib.rs|function|classify|52|0|67|1|true|10|"
        )
        .ends_with("Classify a list of sizes.")
    );
    assert!(
        row(
            &symbols,
            "rust/src/lib.rs|method|Rect.area|32|4|38|5|true|2|"
        )
        .contains("Rect.area")
    );
    assert!(
        row(
            &symbols,
            "rust/src/lib.rs|field|Rect.height|17|4|17|15|false|NULL|"
        )
        .contains("height")
    );
    assert!(
        row(
            &symbols,
            "python/shapes.py|function|total_area|32|0|41|16|true|6|"
        )
        .contains("total_area")
    );
    assert!(
        row(
            &symbols,
            "python/shapes.py|method|Circle.area|24|4|26|41|true|0|"
        )
        .ends_with("Area of the circle.")
    );
    assert!(row(&symbols, "python/shapes.py|method|Circle._scaled|").contains("|false|"));
    assert!(
        row(
            &symbols,
            "go/server.go|method|Server.Handle|30|0|38|1|true|3|"
        )
        .ends_with("Handle answers one path.")
    );
    assert!(row(&symbols, "go/server.go|method|Server.notFound|").contains("|false|"));
    assert!(
        row(
            &symbols,
            "ts/service.ts|method|UserRepository.find|24|2|30|3|true|2|"
        )
        .contains("find")
    );
    assert!(row(&symbols, "ts/service.ts|function|internalHelper|").contains("|false|"));
    assert!(
        row(
            &symbols,
            "java/Animal.java|method|Dog.bark|31|4|37|5|false|1|"
        )
        .contains("bark")
    );
    assert!(row(&symbols, "java/Animal.java|constructor|Animal.Animal|").contains("|true|0|"));
    assert!(row(&symbols, "c/util.c|function|clamp|12|0|20|1|false|2|").contains("clamp"));
    assert!(row(&symbols, "cpp/shape.cpp|class|geo.Square|11|0|18|1|true|").contains("Square"));
    assert!(
        row(&symbols, "csharp/Repo.cs|method|Store.MemoryRepo.Fallback|").contains("|false|0|")
    );
    assert!(
        row(
            &symbols,
            "ruby/greeter.rb|method|Greeter.greet|12|2|18|5|true|2|"
        )
        .contains("greet")
    );
    assert!(row(&symbols, "php/User.php|method|User.format|").contains("|false|0|"));
    assert!(row(&symbols, "js/util.js|function|double|").contains("|true|0|"));
    // The file with a syntax error still yields what parses.
    row(&symbols, "python/broken.py|class|StillFound|");
    row(&symbols, "python/broken.py|method|StillFound.method|");
    // Skipped files have no symbols.
    assert!(
        !symbols
            .iter()
            .any(|r| r.starts_with("vendor/") || r.starts_with("js/generated.js"))
    );

    let edges = sql_lines(&store, EDGES_SQL);
    let has = |needle: &str| has_row(&edges, needle);
    has("rust/src/lib.rs|implements|Rect|Shape|NULL|rust/src/lib.rs::Shape|same_file|");
    has(
        "rust/src/lib.rs|calls|Rect.area|is_square|self|rust/src/lib.rs::Rect.is_square|same_class|33|",
    );
    // `self.width`: the own type's field, as for calls on `self`.
    has(
        "rust/src/lib.rs|references|Rect.is_square|width|self|rust/src/lib.rs::Rect.width|same_class|",
    );
    // Python's instance attributes, assigned in `__init__`, are the class's fields.
    has(
        "python/shapes.py|references|Circle.area|radius|self|python/shapes.py::Circle.radius|same_class|26|",
    );
    has("rust/src/lib.rs|imports|<file>|Display|std::fmt|NULL|unresolved|3|");
    has("js/app.js|calls|Widget.grow|clamp|NULL|js/util.js::clamp|import|9|");
    has("js/app.js|inherits|Button|Widget|NULL|js/app.js::Widget|same_file|15|");
    has("python/shapes.py|inherits|Circle|Shape|NULL|python/shapes.py::Shape|same_file|19|");
    // `super().f()` is a member of a base type; `this.f()` too when the own type has none.
    has(
        "python/shapes.py|calls|Circle.__init__|__init__|super()|python/shapes.py::Shape.__init__|inherited|21|",
    );
    has("js/app.js|calls|Button.press|grow|this|js/app.js::Widget.grow|inherited|17|");
    has("go/server.go|inherits|Server|Base|NULL|go/server.go::Base|same_file|20|");
    has("go/server.go|calls|Server.Handle|notFound|s|go/server.go::Server.notFound|");
    has("java/Animal.java|implements|Animal|Speaker|NULL|java/Animal.java::Speaker|same_file|11|");
    has("java/Animal.java|calls|Dog.speak|bark|NULL|java/Animal.java::Dog.bark|same_class|28|");
    has(
        "ts/service.ts|implements|UserRepository|Repository|NULL|ts/service.ts::Repository|same_file|21|",
    );
    has(
        "csharp/Repo.cs|implements|Store.MemoryRepo|IRepo|NULL|csharp/Repo.cs::Store.IRepo|same_file|11|",
    );
    has("cpp/shape.cpp|inherits|geo.Square|Shape|NULL|cpp/shape.cpp::geo.Shape|same_file|11|");
    has("c/util.c|imports|<file>|util.h|util.h|c/util.h|relative_path|2|");
    has("php/User.php|calls|User.name|format|$this|php/User.php::User.format|same_class|21|");
    has("php/User.php|inherits|User|Model|NULL|NULL|unresolved|15|");
    has("ruby/greeter.rb|inherits|Greeter|Base|NULL|ruby/greeter.rb::Base|same_file|11|");
    // No edge crosses languages.
    assert!(
        !edges
            .iter()
            .any(|e| e.starts_with("js/") && e.contains("|c/util.c::"))
    );

    golden("polyglot_symbols.txt", &symbols);
    golden("polyglot_edges.txt", &edges);

    // Identifiers follow docs/tables.md with the owner/name prefix.
    let ids = sql_lines(
        &store,
        "SELECT identifier FROM symbols WHERE qualified_name = 'Rect.area'",
    );
    assert_eq!(
        ids,
        vec![format!("{}::rust/src/lib.rs::Rect.area", full_name(&store))]
    );
}

fn full_name(store: &Path) -> String {
    let v: serde_json::Value =
        serde_json::from_str(&quarry_ok(store, &["sources", "--json"])).unwrap();
    v[0]["fullName"].as_str().unwrap().to_string()
}

/// Everything but the data source id (which differs between stores).
fn table_dump(store: &Path) -> Vec<String> {
    let mut all = sql_lines(
        store,
        "SELECT identifier, path, language, bytes, lines, hash FROM files ORDER BY identifier",
    );
    all.extend(sql_lines(store, "SELECT identifier, path, language, kind, name, qualified_name, parent, start_line, start_character, end_line, end_character, signature, doc, summary, is_public, lines, complexity, incoming_calls, outgoing_calls, incoming_references FROM symbols ORDER BY identifier"));
    all.extend(sql_lines(store, "SELECT kind, source, source_qname, source_path, line, character, target_name, target_qualifier, target, resolution FROM edges ORDER BY source_path, line, character, kind, target_name, source"));
    all
}

/// The newest trigram index's objects (`.grams`, `.texts`) under a store: path and bytes.
fn trigram_objects(store: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let sources = store.join("sources");
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(&sources)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path().join("trigrams")).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    found.sort();
    let newest = found.len().saturating_sub(2);
    found[newest..]
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect()
}

/// Whether an index run's log shows the trigram index built from the table, by its phase
/// line: "[  0.0s] indexing content (trigrams) · memory … (peak so far …)".
fn rebuilt_trigrams(log: &str) -> bool {
    log.lines().any(|l| {
        l.split("] ")
            .nth(1)
            .and_then(|rest| rest.split(" · ").next())
            == Some("indexing content (trigrams)")
    })
}

/// Remove the newest trigram objects (`.grams`, `.texts`), index `dir` again so the run
/// rebuilds them from the `files` table, and assert the rebuild gives the same bytes
/// (`what`: where the removed ones came from). Returns the rebuilding run's log.
fn assert_trigrams_rebuild_alike(store: &Path, dir: &Path, what: &str) -> String {
    let before = trigram_objects(store);
    assert_eq!(before.len(), 2, "{before:?}");
    for (path, _) in &before {
        std::fs::remove_file(path).unwrap();
    }
    let run = quarry(store, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    let log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success() && rebuilt_trigrams(&log), "{log}");
    assert!(
        trigram_objects(store) == before,
        "{what}: its trigram index differs from a rebuild from the table"
    );
    log
}

#[test]
fn a_first_index_builds_the_trigram_index_a_rebuild_gives() {
    // A first index builds the trigram index from the files as they stream; a later run
    // rebuilds it from the `files` table when it is missing. Both must be the same bytes —
    // also for a file that starts with a byte order mark, which is not stored content.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("work").join("poly");
    copy_dir(&fixtures().join("polyglot"), &dir);
    std::fs::write(
        dir.join("python/bom.py"),
        b"\xef\xbb\xbfdef marked():\n    return 1\n",
    )
    .unwrap();
    let store = tmp.path().join("store");
    quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    assert_trigrams_rebuild_alike(&store, &dir, "a first index");
}

#[test]
fn reindex_after_edits_matches_a_fresh_index() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("work").join("poly");
    copy_dir(&fixtures().join("polyglot"), &dir);
    let store = tmp.path().join("incremental");
    quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    let before = sql_lines(
        &store,
        "SELECT COUNT(*) FROM symbols WHERE path = 'go/server.go'",
    );
    assert_eq!(before, vec!["9"]);

    // Edit, add, delete.
    let lib = dir.join("rust/src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).unwrap();
    text.push_str(
        "\n/// Twice the area.\npub fn double_area(r: &Rect) -> f64 {\n    r.area() * 2.0\n}\n",
    );
    std::fs::write(&lib, text).unwrap();
    std::fs::write(
        dir.join("python/extra.py"),
        "from shapes import Circle\n\n\ndef unit():\n    return Circle(1)\n",
    )
    .unwrap();
    std::fs::remove_file(dir.join("go/server.go")).unwrap();

    let run = quarry(&store, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    let (out, log) = (
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr),
    );
    assert!(run.status.success(), "{log}");
    assert!(out.contains("parsed 2 files, reused 13 unchanged"), "{out}");
    // The trigram index was updated in place, not rebuilt: byte for byte what a build from
    // the updated table gives (removed here, so the next run rebuilds it).
    assert!(
        log.contains("indexing content (trigrams): updating 2 changed files"),
        "{log}"
    );
    assert!(
        !rebuilt_trigrams(&log),
        "the update fell back to a rebuild: {log}"
    );
    let log = assert_trigrams_rebuild_alike(&store, &dir, "the update");
    if cfg!(target_os = "linux") {
        assert!(log.contains(" · memory "), "{log}");
        assert!(log.contains("] done · memory "), "{log}");
    }
    assert_eq!(
        sql_lines(
            &store,
            "SELECT COUNT(*) FROM symbols WHERE path = 'go/server.go'"
        ),
        vec!["0"]
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT COUNT(*) FROM edges WHERE source_path = 'go/server.go'"
        ),
        vec!["0"]
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT regexp_replace(target, '^[^:]+::', ''), resolution FROM edges WHERE source_qname = 'unit' AND kind = 'calls'"
        ),
        vec!["python/shapes.py::Circle|import"]
    );

    let fresh = tmp.path().join("fresh");
    quarry_ok(&fresh, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    let (a, b) = (table_dump(&store), table_dump(&fresh));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y);
    }

    // Unchanged re-index reuses everything.
    let out = quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", "poly"]);
    assert!(out.contains("parsed 0 files, reused 15 unchanged"), "{out}");
}

#[test]
fn a_change_elsewhere_updates_unchanged_files_rows_in_place() {
    // `a.py` never changes, yet its rows do: its call to `helper` (`from b import *`)
    // resolves once `b.py` defines it and no longer once `b.py` is gone, and `shapes.py`'s `area` is called more
    // or less often. Each re-index must leave the tables a fresh index of the same files has.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "a.py",
        "from shapes import area\nfrom b import *\n\ndef run():\n    helper()\n    return area(2)\n",
    );
    write("shapes.py", "def area(r):\n    return r * r\n");
    for i in 0..6 {
        write(
            &format!("m{i}.py"),
            &format!("def f{i}():\n    return {i}\n"),
        );
    }
    let store = tmp.path().join("store");
    let index = || {
        let run = quarry(&store, &["index", dir.to_str().unwrap(), "--name", "r"]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8_lossy(&run.stderr).to_string()
    };
    let matches_fresh = |step: &str| {
        let fresh = tmp.path().join(format!("fresh-{step}"));
        quarry_ok(&fresh, &["index", dir.to_str().unwrap(), "--name", "r"]);
        assert_eq!(table_dump(&store), table_dump(&fresh), "after {step}");
    };
    let helper_call = || {
        sql_lines(
            &store,
            "SELECT resolution FROM edges WHERE source_path = 'a.py' AND target_name = 'helper'",
        )
    };
    index();
    assert_eq!(helper_call(), vec!["unresolved"]);

    write(
        "b.py",
        "from shapes import area\n\n\ndef helper():\n    return area(3)\n",
    );
    let log = index();
    // Only the files whose rows differ were rewritten, not the six others: edges of b.py
    // (new) and a.py (its call now resolves); symbols of b.py and shapes.py (`area` is
    // called once more; `run`'s outgoing calls count resolved or not).
    assert!(
        log.contains("updating edges: rows of 2 files differ"),
        "{log}"
    );
    assert!(
        log.contains("updating symbols: rows of 2 files differ"),
        "{log}"
    );
    assert_ne!(helper_call(), vec!["unresolved"]);
    matches_fresh("adding b.py");

    std::fs::remove_file(dir.join("b.py")).unwrap();
    write("m0.py", "def f0():\n    return 10\n");
    let log = index();
    assert!(
        log.contains("updating edges: rows of 2 files differ"),
        "{log}"
    );
    assert_eq!(helper_call(), vec!["unresolved"]);
    matches_fresh("removing b.py");

    // Without the digests (an older store) the tables are rewritten whole, and agree.
    let rows = std::fs::read_dir(store.join("sources"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    std::fs::remove_dir_all(rows.path().join("rows")).unwrap();
    write("m1.py", "def f1():\n    return helper()\n");
    let log = index();
    assert!(log.contains("] writing edges"), "{log}");
    assert!(!log.contains("updating edges"), "{log}");
    matches_fresh("rewriting whole");
    // ...and the next small change is in place again.
    write("m2.py", "def f2():\n    return 22\n");
    let log = index();
    assert!(log.contains("updating edges: rows of"), "{log}");
    matches_fresh("in place again");
}

/// The names of the files in `<table>.lance/<sub>` of every repository in a store.
fn table_files(store: &Path, table: &str, sub: &str) -> Vec<String> {
    std::fs::read_dir(store.join("sources"))
        .unwrap()
        .filter_map(|d| std::fs::read_dir(d.ok()?.path().join(format!("{table}.lance/{sub}"))).ok())
        .flatten()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Version numbers of a table's manifests (Lance names them `u64::MAX - version`).
fn table_versions(store: &Path, table: &str) -> Vec<u64> {
    let mut found: Vec<u64> = table_files(store, table, "_versions")
        .iter()
        .filter_map(|n| n.strip_suffix(".manifest"))
        .map(|n| u64::MAX - n.parse::<u64>().unwrap())
        .collect();
    found.sort();
    found
}

fn data_files(store: &Path, table: &str) -> usize {
    table_files(store, table, "data").len()
}

#[test]
fn reindexing_keeps_only_the_published_and_previous_table_versions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("work").join("poly");
    copy_dir(&fixtures().join("polyglot"), &dir);
    let store = tmp.path().join("store");
    let index = || {
        quarry_ok_env(
            &store,
            NO_RETENTION,
            &["index", dir.to_str().unwrap(), "--name", "poly"],
        )
    };
    index();
    let lib = dir.join("rust/src/lib.rs");
    let mut published = Vec::new();
    for run in 0..4 {
        let mut text = std::fs::read_to_string(&lib).unwrap();
        text.push_str(&format!("\npub fn added_{run}() -> u32 {{ {run} }}\n"));
        std::fs::write(&lib, text).unwrap();
        let out = index();
        // The first re-index has only the first index's versions before its previous
        // snapshot (none); later ones remove the versions two runs back.
        assert_eq!(
            out.contains("removed older table versions: "),
            run > 0,
            "{out}"
        );
        published.push((
            *table_versions(&store, "symbols").last().unwrap(),
            *table_versions(&store, "edges").last().unwrap(),
            *table_versions(&store, "files").last().unwrap(),
        ));
        if run == 0 {
            continue;
        }
        // Each table keeps the versions from the previous snapshot's on: an update deletes
        // the changed files' rows and appends their new ones (files; and symbols and edges,
        // whose rows are compared by digest), so the versions in between stay too.
        let previous = published[run - 1];
        for (table, (old, new)) in [
            ("symbols", (previous.0, published[run].0)),
            ("edges", (previous.1, published[run].1)),
            ("files", (previous.2, published[run].2)),
        ] {
            let versions = table_versions(&store, table);
            assert_eq!(versions.first(), Some(&old), "{table}: {versions:?}");
            assert_eq!(versions.last(), Some(&new), "{table}: {versions:?}");
        }
        // The first index's data file and one appended per run since the previous snapshot.
        assert!(data_files(&store, "symbols") <= 3);
        assert!(data_files(&store, "edges") <= 3);
    }
    // The published tables still answer, with every run's function.
    assert_eq!(
        sql_lines(
            &store,
            "SELECT COUNT(*) FROM symbols WHERE name LIKE 'added_%'"
        ),
        vec!["4"]
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT COUNT(*) FROM files WHERE path = 'rust/src/lib.rs'"
        ),
        vec!["1"]
    );
}

#[test]
fn many_small_updates_compact_the_files_table_without_changing_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("many");
    std::fs::create_dir_all(&dir).unwrap();
    let n = 40;
    for i in 0..n {
        std::fs::write(
            dir.join(format!("m{i:02}.py")),
            format!("def f{i}():\n    return {i}\n"),
        )
        .unwrap();
    }
    let store = tmp.path().join("store");
    let index = || {
        quarry_ok_env(
            &store,
            NO_RETENTION,
            &["index", dir.to_str().unwrap(), "--name", "many"],
        )
    };
    index();
    // Each run changes one file: its new row goes to a fragment of its own, and its old row
    // is deleted from the first fragment, which therefore stays. Without compaction the
    // table would end with n + 1 fragments (and as many data files).
    for i in 0..n {
        std::fs::write(
            dir.join(format!("m{i:02}.py")),
            format!("def f{i}():\n    return {}\n", i * 7),
        )
        .unwrap();
        index();
    }
    let data = data_files(&store, "files");
    assert!(data < 20, "{data} data files in the files table");
    // The trigram index updated across the compaction is what a rebuild from the table gives.
    let updated = trigram_objects(&store);
    for (path, _) in &updated {
        std::fs::remove_file(path).unwrap();
    }
    index();
    assert!(
        trigram_objects(&store) == updated,
        "a rebuild differs from the update"
    );
    // Every file's current content, once, and the same tables as a fresh index's.
    let contents = "SELECT path, content FROM files ORDER BY path";
    let fresh = tmp.path().join("fresh");
    quarry_ok(&fresh, &["index", dir.to_str().unwrap(), "--name", "many"]);
    assert_eq!(sql_lines(&store, contents), sql_lines(&fresh, contents));
    assert_eq!(table_dump(&store), table_dump(&fresh));
    assert_eq!(
        sql_lines(
            &store,
            "SELECT COUNT(*), SUM(CASE WHEN content LIKE '%return 273%' THEN 1 ELSE 0 END) FROM files"
        ),
        vec![format!("{n}|1")]
    );
}

#[test]
fn a_git_reindex_reads_only_the_blobs_that_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = fixture_repo("polyglot", tmp.path());
    let store = tmp.path().join("store");
    quarry_ok(&store, &["index", repo.to_str().unwrap()]);
    let change = |repo: &Path| {
        std::fs::write(repo.join("feature.py"), "def feature():\n    return 1\n").unwrap();
        git(repo, &["add", "feature.py"]);
        git(repo, &["commit", "-q", "-m", "feature"]);
    };
    change(&repo);
    // An unchanged file's blob can no longer be read: a re-index that read it would fail
    // (the git reader failing fails the run).
    let id = git(&repo, &["rev-parse", "HEAD:js/util.js"]);
    let object = repo.join(".git/objects").join(&id[..2]).join(&id[2..]);
    std::fs::remove_file(&object).unwrap();
    assert!(git_fails(&repo, &["cat-file", "-p", &id]));
    let log = quarry_ok(&store, &["index", repo.to_str().unwrap()]);
    assert!(log.contains("parsed 1 files"), "{log}");
    // The same tables as a fresh index of the same commit.
    let fresh_tmp = tempfile::tempdir().unwrap();
    let fresh_repo = fixture_repo("polyglot", fresh_tmp.path());
    change(&fresh_repo);
    let fresh = fresh_tmp.path().join("store");
    quarry_ok(&fresh, &["index", fresh_repo.to_str().unwrap()]);
    // (The two repositories' full names come from their directories.)
    let (name, fresh_name) = (full_name(&store), full_name(&fresh));
    let fresh_rows: Vec<String> = table_dump(&fresh)
        .iter()
        .map(|r| r.replace(&fresh_name, &name))
        .collect();
    assert_eq!(table_dump(&store), fresh_rows);
    // The published blob ids go with the files version they describe: one object per
    // version the store keeps.
    let ids: Vec<_> = std::fs::read_dir(store.join("sources"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path().join("blobs")).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!ids.is_empty() && ids.len() <= 2, "{ids:?}");
}

fn git_fails(dir: &Path, args: &[&str]) -> bool {
    !std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn git_sources_index_the_committed_tree_of_a_branch() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = fixture_repo("polyglot", tmp.path());
    let store = tmp.path().join("store");
    // Uncommitted edits are not indexed.
    std::fs::write(repo.join("js/util.js"), "export const uncommitted = 1;\n").unwrap();
    // A branch with one more file.
    git(&repo, &["stash", "-q"]);
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(repo.join("feature.py"), "def feature():\n    return 1\n").unwrap();
    git(&repo, &["add", "feature.py"]);
    git(&repo, &["commit", "-q", "-m", "feature"]);
    git(&repo, &["checkout", "-q", "main"]);
    git(&repo, &["stash", "pop", "-q"]);

    let out = quarry(&store, &["index", repo.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("uncommitted changes are not indexed"));
    let content = sql_lines(
        &store,
        "SELECT content FROM files WHERE path = 'js/util.js'",
    );
    assert!(content[0].contains("export function clamp"), "{content:?}");
    assert!(sql_lines(&store, "SELECT path FROM files WHERE path = 'feature.py'").is_empty());

    quarry_ok(
        &store,
        &[
            "index",
            repo.to_str().unwrap(),
            "--branch",
            "feature",
            "--name",
            "poly-feature",
        ],
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT f.path FROM files f WHERE f.path = 'feature.py'"
        ),
        vec!["feature.py"]
    );
    let sources: serde_json::Value =
        serde_json::from_str(&quarry_ok(&store, &["sources", "--json"])).unwrap();
    let feature = sources
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "poly-feature")
        .unwrap();
    assert_eq!(feature["branch"], "feature");
    assert_eq!(feature["readiness"], "Ready");
    assert_eq!(feature["type"], "Repository");

    let err = quarry_err(
        &store,
        &[
            "index",
            repo.to_str().unwrap(),
            "--branch",
            "nope",
            "--name",
            "x",
        ],
    );
    assert!(
        err.contains("unknown branch 'nope'") && err.contains("feature") && err.contains("main"),
        "{err}"
    );

    // A git URL (file://) is cloned; fullName comes from the URL.
    let url = format!("file://{}", repo.display());
    let out = quarry_ok(&store, &["index", &url, "--name", "from-url"]);
    assert!(out.contains("as "), "{out}");
    let sources: serde_json::Value =
        serde_json::from_str(&quarry_ok(&store, &["sources", "--json"])).unwrap();
    let from_url = sources
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "from-url")
        .unwrap();
    assert!(
        from_url["fullName"]
            .as_str()
            .unwrap()
            .ends_with("/polyglot"),
        "{from_url}"
    );
    assert_eq!(from_url["url"], url.as_str());
    assert_eq!(from_url["branch"], "main");
}

#[test]
fn a_crash_mid_index_leaves_the_previous_snapshot_readable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    copy_dir(&fixtures().join("polyglot"), &dir);
    let store = tmp.path().join("store");
    quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", "p"]);
    let before = table_dump(&store);

    std::fs::write(dir.join("rust/src/lib.rs"), "pub fn replaced() {}\n").unwrap();
    for point in ["files_written", "symbols_written", "edges_written"] {
        let out = std::process::Command::new(QUARRY)
            .args(["index", dir.to_str().unwrap(), "--name", "p"])
            .env("QUARRY_STORE", &store)
            .env("QUARRY_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the failpoint should abort");
        assert_eq!(table_dump(&store), before, "after a crash at {point}");
    }
    quarry_ok(&store, &["index", dir.to_str().unwrap(), "--name", "p"]);
    assert_eq!(
        sql_lines(
            &store,
            "SELECT qualified_name FROM symbols WHERE path = 'rust/src/lib.rs'"
        ),
        vec!["replaced"]
    );
    // The crashed runs' unpublished versions (in-place updates of symbols and edges among
    // them) left nothing in what the next run wrote.
    let fresh = tmp.path().join("fresh");
    quarry_ok(&fresh, &["index", dir.to_str().unwrap(), "--name", "p"]);
    assert_eq!(table_dump(&store), table_dump(&fresh));
}

#[test]
fn bad_input_gets_specific_errors_or_counted_skips() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let err = quarry_err(&store, &["index", "/no/such/path/anywhere"]);
    assert!(
        err.contains("'/no/such/path/anywhere' does not exist"),
        "{err}"
    );
    // The log's last line before the error does not call the run done.
    if cfg!(target_os = "linux") {
        assert!(
            err.contains("] stopped · memory ") && !err.contains("] done"),
            "{err}"
        );
    }

    let dir = tmp.path().join("odd");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("ok.py"), "def ok():\n    return 1\n").unwrap();
    std::fs::write(dir.join("latin1.py"), b"# caf\xe9\n").unwrap();
    std::fs::write(dir.join("big.py"), "x = 1\n".repeat(20_000)).unwrap();
    std::fs::write(
        dir.join("min.js"),
        format!("var a={};\n", "1+".repeat(30_000) + "1"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("..", dir.join("sub/loop")).unwrap();
        std::os::unix::fs::symlink("ok.py", dir.join("link.py")).unwrap();
        // A named pipe: opening it to read would wait for a writer forever.
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.join("pipe.py"))
            .status()
            .unwrap();
        assert!(fifo.success());
        // Should indexing open it anyway, a writer arrives after a minute, so that the test
        // fails on what was indexed instead of hanging. (Otherwise this thread waits for a
        // reader that never comes, which does not keep the test process alive.)
        let pipe = dir.join("pipe.py");
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(60));
            let _ = std::fs::OpenOptions::new().write(true).open(pipe);
        });
        // Two names that are not UTF-8 and would read the same as text.
        for name in non_utf8_names() {
            std::fs::write(dir.join(name), "x = 1\n").unwrap();
        }
    }
    let out = quarry_ok(
        &store,
        &["index", dir.to_str().unwrap(), "--max-file-size", "100000"],
    );
    assert!(out.contains("invalid_utf8 1"), "{out}");
    assert!(out.contains("oversized 1"), "{out}");
    assert!(out.contains("symlink 2"), "{out}");
    assert!(out.contains("special 1"), "{out}");
    assert!(out.contains("minified 1"), "{out}");
    if cfg!(unix) {
        assert!(out.contains("non_utf8_path 2"), "{out}");
    }
    assert_eq!(
        sql_lines(&store, "SELECT path FROM files ORDER BY path"),
        vec!["ok.py"]
    );

    // A file path, not a directory.
    let err = quarry_err(&store, &["index", dir.join("ok.py").to_str().unwrap()]);
    assert!(err.contains("is not a directory"), "{err}");

    // The same name for another location is refused, not overwritten.
    let other = tmp.path().join("other").join("odd");
    std::fs::create_dir_all(&other).unwrap();
    let err = quarry_err(&store, &["index", other.to_str().unwrap()]);
    assert!(
        err.contains("already exists") && err.contains("--name"),
        "{err}"
    );

    // The SQL console is read-only.
    for stmt in [
        "CREATE TABLE t AS SELECT 1",
        "INSERT INTO files VALUES (1)",
        "COPY (SELECT 1) TO '/tmp/quarry-x.csv'",
    ] {
        let err = quarry_err(&store, &["sql", stmt]);
        assert!(
            err.contains("read-only") || err.contains("not supported") || err.contains("Error"),
            "{stmt}: {err}"
        );
    }
    let err = quarry_err(&store, &["sql", "SELECT nope FROM files"]);
    assert!(err.contains("nope"), "{err}");
    // An empty result still shows its columns.
    let empty = quarry_ok(
        &store,
        &["sql", "SELECT path, lines FROM files WHERE path = 'nope'"],
    );
    assert!(empty.contains("| path | lines |"), "{empty}");

    // A corrupt catalog record is reported as such.
    std::fs::write(
        store.join("catalog/sources/repo_corrupt.json"),
        b"{not json",
    )
    .unwrap();
    let err = quarry_err(&store, &["sources"]);
    assert!(
        err.contains("corrupt catalog record 'catalog/sources/repo_corrupt.json'"),
        "{err}"
    );
}

#[test]
fn a_parse_past_its_memory_budget_is_given_up_and_the_file_kept() {
    // 900 KB of `a<a<…` as Java: tree-sitter's error recovery held 23 GB within two minutes,
    // still parsing. The file stays stored and searchable; only its analysis is given up.
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let dir = tmp.path().join("repo");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("Shapes.java"),
        "class Shapes {\n  int area(int w) { return w * w; }\n}\n",
    )
    .unwrap();
    let line = format!("{}\n", "a<".repeat(50));
    std::fs::write(dir.join("Ambiguous.java"), line.repeat(9_000)).unwrap();
    let out = quarry_env(&store, &[], &["index", dir.to_str().unwrap()]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("parsed 2 files"), "{stdout}");
    assert!(
        stdout.contains("not analysed 1: parse over its memory budget"),
        "{stdout}"
    );
    assert!(
        stderr
            .contains("Ambiguous.java: not analysed: tree-sitter's parse needed more than 256 MiB"),
        "{stderr}"
    );
    assert_eq!(
        sql_lines(&store, "SELECT path, bytes FROM files ORDER BY path"),
        vec!["Ambiguous.java|909000", "Shapes.java|53"]
    );
    assert_eq!(
        sql_lines(
            &store,
            "SELECT path, qualified_name FROM symbols ORDER BY qualified_name"
        ),
        vec!["Shapes.java|Shapes", "Shapes.java|Shapes.area"]
    );
    // Unchanged, it is not parsed again.
    let again = quarry_ok(&store, &["index", dir.to_str().unwrap()]);
    assert!(
        again.contains("reused 2 unchanged") && !again.contains("not analysed"),
        "{again}"
    );
}

#[test]
fn workspaces_group_repositories() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("one.py"), "def one():\n    return 1\n").unwrap();
    std::fs::write(
        b.join("two.go"),
        "package b\n\nfunc Two() int { return 2 }\n",
    )
    .unwrap();
    quarry_ok(&store, &["index", a.to_str().unwrap()]);
    quarry_ok(&store, &["index", b.to_str().unwrap()]);
    quarry_ok(&store, &["workspace", "create", "both", "--repos", "a,b"]);
    let v: serde_json::Value =
        serde_json::from_str(&quarry_ok(&store, &["sources", "--json"])).unwrap();
    let ws = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["type"] == "Workspace")
        .unwrap();
    assert_eq!(ws["name"], "both");
    assert_eq!(ws["repositoryIds"].as_array().unwrap().len(), 2);
    assert!(ws["url"].is_null() && ws["branch"].is_null());
    let names = sql_lines(&store, "SELECT name FROM symbols ORDER BY name");
    assert_eq!(names, vec!["Two", "one"]);
    let out = quarry_ok(
        &store,
        &[
            "sql",
            "--json",
            "--source",
            "both",
            "SELECT COUNT(*) AS n FROM files",
        ],
    );
    assert!(out.contains("\"n\": 2"), "{out}");
    let out = quarry_ok(
        &store,
        &[
            "sql",
            "--json",
            "--source",
            "a",
            "SELECT COUNT(*) AS n FROM files",
        ],
    );
    assert!(out.contains("\"n\": 1"), "{out}");
    let err = quarry_err(&store, &["workspace", "create", "bad", "--repos", "a,zzz"]);
    assert!(err.contains("unknown data source 'zzz'"), "{err}");
    let err = quarry_err(&store, &["sql", "--source", "bth", "SELECT 1"]);
    assert!(err.contains("did you mean 'both'"), "{err}");
}

#[test]
fn artifactquery_schema_examples_all_run() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let dir = tmp.path().join("poly");
    copy_dir(&fixtures().join("polyglot"), &dir);
    quarry_ok(&store, &["index", dir.to_str().unwrap()]);
    let schema: serde_json::Value =
        serde_json::from_str(&quarry_ok(&store, &["query", "--schema"])).unwrap();
    assert_eq!(schema["dsl_version"], "artifactquery/v1");
    assert_eq!(schema["required_limit"], true);
    for e in ["files", "symbols", "functions"] {
        assert!(
            schema["entities"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x == e)
        );
    }
    for f in ["path", "language", "lines", "complexity"] {
        assert!(
            schema["fields"].as_array().unwrap().iter().any(|x| x == f),
            "{f}"
        );
    }
    let examples = schema["examples"].as_array().unwrap();
    assert!(examples.len() >= 5);
    for ex in examples {
        let out = quarry_ok(&store, &["query", "--json", ex.as_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["version"], "V1");
        assert!(
            v["returnedRows"].as_u64().unwrap() <= v["limit"].as_u64().unwrap(),
            "{ex}"
        );
    }
    // A diagnostic is printed as JSON too, and the command fails.
    let out = quarry(&store, &["query", "--json", "SELECT path FROM files"]);
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "missing_limit");
    assert_eq!(v["error"]["try"], "SELECT path FROM files LIMIT 50");
    let one: serde_json::Value = serde_json::from_str(&quarry_ok(
        &store,
        &["query", "--schema", "--entity", "functions"],
    ))
    .unwrap();
    assert_eq!(one["entity"], "functions");
    assert!(
        one["relationships"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "incoming_calls")
    );
}

/// Tables written before symbols carried relationship counts (analyzer version 1) are still
/// read: the missing columns read as NULL, ArtifactQuery counts edges itself for them, and a
/// workspace unions old and new repositories. The answers equal the new tables'.
#[test]
fn tables_from_an_older_analyzer_answer_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let copy = tmp.path().join("polyglot-copy");
    copy_dir(&fixtures().join("polyglot"), &copy);
    let sql_old =
        |statement: &str| quarry_ok(&store, &["sql", "--json", "--source", "old", statement]);
    let index_old = || {
        let fixture = fixtures().join("polyglot");
        quarry_ok(
            &store,
            &["index", fixture.to_str().unwrap(), "--name", "old"],
        );
    };
    index_old();
    quarry_ok(&store, &["index", copy.to_str().unwrap(), "--name", "new"]);
    let statements = [
        "SELECT qualified_name, incoming_calls, outgoing_calls, references FROM functions \
         ORDER BY incoming_calls DESC, qualified_name LIMIT 5",
        "SELECT identifier, incoming_calls FROM functions ORDER BY incoming_calls DESC LIMIT 3",
        "SELECT language, COUNT(*) AS n, SUM(outgoing_calls) AS calls FROM functions \
         WHERE incoming_calls = 0 GROUP BY language ORDER BY language LIMIT 20",
        "SELECT name, references FROM symbols WHERE references > 0 ORDER BY references DESC, name LIMIT 10",
        "SELECT COUNT(*) AS n, SUM(incoming_calls) AS c FROM functions LIMIT 1",
    ];
    let answers = |source: &str| -> Vec<serde_json::Value> {
        statements
            .iter()
            .map(|st| {
                let out = quarry_ok(&store, &["query", "--json", "--source", source, st]);
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                v["rows"].clone()
            })
            .collect()
    };
    let before = answers("old");
    assert!(
        before[0].as_array().unwrap()[0]["incoming_calls"]
            .as_i64()
            .unwrap()
            > 0,
        "{before:?}"
    );

    // Make "old" look like an index written by analyzer version 1.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let s = quarry_storage::Store::open(store.to_str().unwrap()).unwrap();
        let catalog = quarry_storage::Catalog::new(s);
        let mut src = catalog
            .sources()
            .await
            .unwrap()
            .into_iter()
            .find(|s| s.name == "old")
            .unwrap();
        let snap = src.snapshot.as_mut().unwrap();
        // Nor had its edges the imports' `alias` (analyzer version 9).
        let dropped: [(&str, &[&str]); 2] = [
            ("symbols", &quarry_storage::schema::SYMBOL_COUNT_COLUMNS),
            ("edges", &["alias"]),
        ];
        for (table, columns) in dropped {
            let version = match table {
                "symbols" => &mut snap.symbols,
                _ => &mut snap.edges,
            };
            let mut ds = quarry_storage::tables::checkout_for_update(
                catalog.store(),
                &src.id,
                table,
                version.unwrap(),
            )
            .await
            .unwrap();
            ds.drop_columns(columns).await.unwrap();
            *version = Some(ds.version().version);
        }
        snap.analyzer = 1;
        catalog.put_source(&src).await.unwrap();
    });
    let nulls = sql_old("SELECT COUNT(*) AS n, COUNT(incoming_calls) AS counted FROM symbols");
    assert!(nulls.contains("\"counted\": 0"), "{nulls}");
    let nulls = sql_old("SELECT COUNT(*) AS n, COUNT(alias) AS aliased FROM edges");
    assert!(nulls.contains("\"aliased\": 0"), "{nulls}");
    assert_eq!(answers("old"), before, "an old table answers as before");

    // A workspace over an old and a new repository: the union reads both.
    quarry_ok(
        &store,
        &["workspace", "create", "both", "--repos", "old,new"],
    );
    let out = quarry_ok(
        &store,
        &["query", "--json", "--source", "both", statements[4]],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let one = &before[4][0];
    assert_eq!(v["rows"][0]["n"], one["n"].as_i64().unwrap() * 2, "{out}");
    assert_eq!(v["rows"][0]["c"], one["c"].as_i64().unwrap() * 2, "{out}");

    let both = quarry_ok(
        &store,
        &[
            "sql",
            "--json",
            "--source",
            "both",
            "SELECT COUNT(*) AS n, COUNT(alias) AS a FROM edges",
        ],
    );
    assert!(both.contains("\"n\": "), "{both}");

    // Re-indexing brings the counts back as columns.
    index_old();
    let counted = sql_old("SELECT COUNT(*) - COUNT(incoming_calls) AS missing FROM symbols");
    assert!(counted.contains("\"missing\": 0"), "{counted}");
    let schema = sql_old("SELECT alias FROM edges LIMIT 1");
    assert!(schema.contains("alias"), "{schema}");
    assert_eq!(answers("old"), before);
}
