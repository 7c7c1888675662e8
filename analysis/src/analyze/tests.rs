use super::*;

/// The doc of symbol `qname` in `src`, analysed as `lang`.
fn doc_of(lang: Lang, src: &str, qname: &str) -> Option<String> {
    sym(&analyze(lang, src), qname)
        .doc
        .clone()
        .map(String::from)
}

fn sym<'a>(a: &'a FileAnalysis, qname: &str) -> &'a Symbol {
    a.symbols
        .iter()
        .find(|s| &*s.qualified_name == qname)
        .unwrap_or_else(|| {
            panic!(
                "no symbol {qname} in {:#?}",
                a.symbols
                    .iter()
                    .map(|s| &s.qualified_name)
                    .collect::<Vec<_>>()
            )
        })
}

/// The file's edges of `kind`, in order.
fn edges_of(a: &FileAnalysis, kind: EdgeKind) -> impl Iterator<Item = &RawEdge> {
    a.edges.iter().filter(move |e| e.kind == kind)
}

/// Whether `a` has an edge of `kind` from `source` to the name `target`.
fn has_edge(a: &FileAnalysis, kind: EdgeKind, source: &str, target: &str) -> bool {
    a.edges
        .iter()
        .any(|e| e.kind == kind && e.source.as_deref() == Some(source) && &*e.target_name == target)
}

/// `a`'s symbols as (qualified name, kind), in order.
fn kinds(a: &FileAnalysis) -> Vec<(&str, &'static str)> {
    a.symbols
        .iter()
        .map(|s| (&*s.qualified_name, s.kind))
        .collect()
}

/// The qualified names of `a`'s symbols of `kind`, in order.
fn qnames<'a>(a: &'a FileAnalysis, kind: &str) -> Vec<&'a str> {
    a.symbols
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| &*s.qualified_name)
        .collect()
}

#[test]
fn rust_symbols_methods_and_impl_edges() {
    let src = "/// A parser.\npub struct Parser { pos: usize }\n\nimpl Iterator for Parser {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { self.bump(); None }\n}\n\nimpl Parser {\n    fn bump(&mut self) { if self.pos > 0 && self.pos < 10 { self.pos += 1 } else if self.pos == 0 { } else { } }\n}\n";
    let a = analyze(Lang::Rust, src);
    let p = sym(&a, "Parser");
    assert_eq!(
        (p.kind, p.start_line, p.end_line, p.is_public),
        ("struct", 2, 2, true)
    );
    assert_eq!(p.summary(), "A parser.");
    assert_eq!(sym(&a, "Parser.pos").kind, "field");
    let next = sym(&a, "Parser.next");
    assert_eq!((next.kind, next.is_public), ("method", true));
    let bump = sym(&a, "Parser.bump");
    assert_eq!((bump.kind, bump.is_public), ("method", false));
    // if (+1), && (+1), else if (+1), else (+1)
    assert_eq!(bump.complexity, Some(4));
    assert!(a.edges.iter().any(|e| e.kind == EdgeKind::Implements
        && e.source.as_deref() == Some("Parser")
        && &*e.target_name == "Iterator"));
    assert!(a.edges.iter().any(|e| e.kind == EdgeKind::Calls
        && e.source.as_deref() == Some("Parser.next")
        && &*e.target_name == "bump"
        && e.qualifier.as_deref() == Some("self")));
}

#[test]
fn nested_structures_add_nesting() {
    // Sonar's example shape: for (+1) > if (+2) > while (+3) = 6
    let src = "def f(xs):\n    for x in xs:\n        if x:\n            while x:\n                x -= 1\n";
    let a = analyze(Lang::Python, src);
    assert_eq!(sym(&a, "f").complexity, Some(6));
}

#[test]
fn nested_functions_count_in_each_enclosing_function() {
    // `inner`'s `if` is +1 for itself, and +2 for `outer` (nested one level by the function);
    // the closure's `if` is +2 for `outer`; `outer`'s own `while` +1 and its `if` +2; `after`,
    // a sibling that follows, starts from nothing.
    let src = "fn outer(x: u8) {\n    fn inner(y: u8) { if y > 0 {} }\n    let c = |z: u8| { if z > 0 {} };\n    while x > 0 { if x > 1 {} }\n}\nfn after() { if true {} }\n";
    let a = analyze(Lang::Rust, src);
    assert_eq!(sym(&a, "outer.inner").complexity, Some(1));
    assert_eq!(sym(&a, "outer").complexity, Some(2 + 2 + 1 + 2));
    assert_eq!(sym(&a, "after").complexity, Some(1));
}

#[test]
fn syntax_errors_still_index_what_parses() {
    let src = "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Fine:\n    pass\n";
    let a = analyze(Lang::Python, src);
    assert!(a.had_errors);
    assert!(a.symbols.iter().any(|s| &*s.name == "ok"));
    assert!(a.symbols.iter().any(|s| &*s.name == "Fine"));
}

#[test]
fn deep_nesting_is_bounded() {
    let src = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let a = analyze(Lang::Python, &src);
    assert_eq!(kinds(&a), [("x", "variable")]);
}

#[test]
fn rust_use_lists_expand() {
    let src = "use std::collections::{HashMap, hash_map::Entry as E};\nuse crate::lang::Lang;\n";
    let a = analyze(Lang::Rust, src);
    let imports = a.import_pairs();
    assert_eq!(
        imports,
        vec![
            ("HashMap", Some("std::collections")),
            ("Entry", Some("std::collections::hash_map")),
            ("Lang", Some("crate::lang")),
        ]
    );
}

/// TypeScript: a class or function typed or grouped (`class {…} as any`, `((x) => x)
/// satisfies F`) is still a class or function, with its methods as its members — also in a
/// function's body.
#[test]
fn typescript_values_typed_with_as_keep_their_kind() {
    let src = "type F = (x: number) => number;\nconst Top = class extends Base {\n  parse() { return 1; }\n} as any;\nconst twice = ((x: number) => x * 2) satisfies F;\ntest(\"x\", () => {\n  const First = class {\n    parse() { return 2; }\n  } as any;\n});\n";
    let a = analyze(Lang::TypeScript, src);
    assert_eq!(
        kinds(&a),
        [
            ("F", "type_alias"),
            ("Top", "class"),
            ("Top.parse", "method"),
            ("twice", "function"),
            ("First", "class"),
            ("First.parse", "method"),
        ]
    );
}

/// Java: a single-type import names one class of a package; an import on demand, `*` of
/// the package (or of a class, for its static members).
#[test]
fn java_imports_on_demand_import_a_package() {
    let src = "package a;\n\nimport java.util.List;\nimport java.util.concurrent.*;\nimport static java.lang.Math.*;\nimport static java.util.Objects.requireNonNull;\n\nclass A {}\n";
    let a = analyze(Lang::Java, src);
    assert_eq!(
        a.import_pairs(),
        vec![
            ("List", Some("java.util")),
            ("*", Some("java.util.concurrent")),
            ("*", Some("java.lang.Math")),
            ("requireNonNull", Some("java.util.Objects")),
        ]
    );
}

/// The polyglot fixture's sources, one per grammar.
fn fixture_sources() -> Vec<(Lang, &'static str)> {
    macro_rules! fixture {
        ($path:literal) => {
            include_str!(concat!("../../../tests/fixtures/polyglot/", $path))
        };
    }
    vec![
        (Lang::Rust, fixture!("rust/src/lib.rs")),
        (Lang::Python, fixture!("python/shapes.py")),
        (Lang::Python, fixture!("python/broken.py")),
        (Lang::JavaScript, fixture!("js/app.js")),
        (Lang::TypeScript, fixture!("ts/service.ts")),
        (Lang::Go, fixture!("go/server.go")),
        (Lang::Java, fixture!("java/Animal.java")),
        (Lang::C, fixture!("c/util.c")),
        (Lang::Cpp, fixture!("cpp/shape.cpp")),
        (Lang::CSharp, fixture!("csharp/Repo.cs")),
        (Lang::Ruby, fixture!("ruby/greeter.rb")),
        (Lang::Php, fixture!("php/User.php")),
    ]
}

/// Every node of a tree (named or not) in document order, each with its path of ancestors
/// (root first, ending with the node) and the siblings of those, as the walker keeps them.
fn nodes_with_paths(tree: &tree_sitter::Tree, mut f: impl FnMut(&[Node], Up<'_, '_>)) {
    let mut path = rules::Path::default();
    let mut stack = vec![(tree.root_node(), 0usize, 0usize)];
    let mut cursor = tree.walk();
    while let Some((node, depth, place)) = stack.pop() {
        let children = path.enter(node, depth, place, true);
        // The one-pass listing (`Node::append_children`, patched into tree-sitter) gives the
        // children a cursor visits, in its order, with the same positions and kinds.
        let listed: Vec<_> = path.siblings()[children.clone()]
            .iter()
            .map(|c| (c.id(), c.kind_id(), c.byte_range(), c.start_position()))
            .collect();
        let visited: Vec<_> = node
            .children(&mut cursor)
            .map(|c| (c.id(), c.kind_id(), c.byte_range(), c.start_position()))
            .collect();
        assert_eq!(listed, visited, "{}", node.kind());
        // Every listed child's parent (the visited node's, its ancestors' and theirs) is
        // answered from the walk as the tree answers it.
        for &c in path.siblings() {
            let expected = c.parent().map(|p| p.id());
            assert_eq!(
                path.up().parent(c).map(|p| p.id()),
                expected,
                "{}",
                c.kind()
            );
        }
        f(path.nodes(), path.up());
        for i in children.rev() {
            stack.push((path.siblings()[i], depth + 1, i));
        }
    }
}

#[test]
fn kind_table_and_walker_parents_and_siblings_agree_with_tree_sitter() {
    for (lang, src) in fixture_sources() {
        let grammar = lang.grammar().unwrap();
        let mut parser = Parser::new();
        parser.set_language(&grammar).unwrap();
        let tree = parser.parse(src, None).unwrap();
        // `kind_of` reads the table analysis installs for its language.
        analyze(lang, src);
        let mut nodes = 0;
        nodes_with_paths(&tree, |path, up| {
            for (i, &n) in path.iter().enumerate() {
                let before: Vec<usize> = up.prev_siblings(n).map(|s| s.id()).collect();
                let expected: Vec<usize> =
                    std::iter::successors(n.prev_sibling(), |s| s.prev_sibling())
                        .map(|s| s.id())
                        .collect();
                assert_eq!(before, expected, "{lang:?} {}", n.kind());
                assert_eq!(kind_of(n), n.kind(), "{lang:?}");
                let expected = n.parent().map(|p| p.id());
                assert_eq!(
                    up.parent(n).map(|p| p.id()),
                    expected,
                    "{lang:?} {}",
                    n.kind()
                );
                if i > 0 {
                    assert_eq!(expected, Some(path[i - 1].id()));
                }
            }
            nodes += 1;
        });
        assert!(nodes > 20, "{lang:?}: {nodes} nodes");
    }
}
#[test]
fn ruby_visibility_constants_and_accessors() {
    let src = "class Foo\n  LIMIT = 3\n  attr_accessor :items, :size\n  def a; b; end\n  private def b; end\n  def c; end\n  private :c\n  protected\n  def d(x) = x\n  public\n  def e\n  end\n  class << self\n    def f; end\n    private\n    def g; end\n  end\n  def self.h; end\n  private_class_method :h\n  def self.i; end\nend\n";
    let a = analyze(Lang::Ruby, src);
    let public = |q: &str| sym(&a, q).is_public;
    assert!(public("Foo.a") && public("Foo.e") && public("Foo.f") && public("Foo.i"));
    assert!(!public("Foo.b") && !public("Foo.c") && !public("Foo.d"));
    assert!(!public("Foo.g") && !public("Foo.h"));
    assert_eq!(sym(&a, "Foo.LIMIT").kind, "constant");
    assert_eq!(sym(&a, "Foo.items").kind, "property");
    assert_eq!(sym(&a, "Foo.size").kind, "property");
    // One-line methods: the head ends with the name or the parameters.
    assert_eq!(&*sym(&a, "Foo.a").signature, "def a");
    assert_eq!(&*sym(&a, "Foo.d").signature, "def d(x)");
    assert_eq!(&*sym(&a, "Foo.h").signature, "def self.h");
}

#[test]
fn javascript_function_values_and_class_fields() {
    let src = "const add = (a, b) => a + b;\nexport const load = async function named(url) { return fetch(url); };\nclass K {\n  handle = (e) => { this.go(e); };\n  count = 0;\n  go() {}\n}\n";
    let a = analyze(Lang::JavaScript, src);
    assert_eq!(&*sym(&a, "add").signature, "add = (a, b)");
    assert_eq!(
        &*sym(&a, "load").signature,
        "load = async function named(url)"
    );
    let handle = sym(&a, "K.handle");
    assert_eq!(
        (handle.kind, &*handle.signature),
        ("method", "handle = (e)")
    );
    assert_eq!(sym(&a, "K.count").kind, "field");
    assert!(has_edge(&a, EdgeKind::Calls, "K.handle", "go"));
    let a = analyze(
        Lang::TypeScript,
        "export const handler = async (req: Request): Promise<Response> => respond(req);\n",
    );
    assert_eq!(
        &*sym(&a, "handler").signature,
        "handler = async (req: Request): Promise<Response>"
    );
}

#[test]
fn csharp_file_scoped_namespace_encloses_the_rest_of_the_file() {
    let src = "using System;\nnamespace App.Core;\npublic class Service { public void Run() { Init(); } void Init() {} }\npublic enum Level { Low }\n";
    let a = analyze(Lang::CSharp, src);
    let ns = sym(&a, "Core");
    assert_eq!((ns.kind, ns.is_public), ("module", true));
    assert_eq!(sym(&a, "Core.Service").parent(), Some("Core"));
    assert_eq!(sym(&a, "Core.Service.Run").kind, "method");
    assert_eq!(sym(&a, "Core.Level").kind, "enum");
    assert!(has_edge(&a, EdgeKind::Calls, "Core.Service.Run", "Init"));
}

#[test]
fn python_class_attributes_and_go_package_variables() {
    let src = "@dataclass\nclass User:\n    name: str\n    age: int = 0\n    TABLE = \"users\"\n    a, b = 1, 2\n\n    def label(self):\n        local = 1\n        return self.name\n\nMAX = 10\nlogger = make()\n";
    let a = analyze(Lang::Python, src);
    assert_eq!(sym(&a, "User.name").kind, "field");
    assert_eq!(&*sym(&a, "User.age").signature, "age: int = 0");
    assert_eq!(sym(&a, "User.TABLE").kind, "constant");
    assert_eq!(sym(&a, "MAX").kind, "constant");
    let names: Vec<&str> = a.symbols.iter().map(|s| &*s.qualified_name).collect();
    assert_eq!(
        names,
        [
            "User",
            "User.name",
            "User.age",
            "User.TABLE",
            "User.label",
            "MAX",
            "logger"
        ]
    );
    let logger = sym(&a, "logger");
    assert_eq!((logger.kind, logger.is_public), ("variable", true));
    assert_eq!(&*logger.signature, "logger = make()");

    let src = "package p\n\nvar (\n\tErrGone = errors.New(\"gone\")\n\tcount int\n)\n\nvar x, y = 1, 2\n\nconst A, B = 1, 2\n\nfunc f() {\n\tvar local = 3\n\t_ = local\n}\n";
    let a = analyze(Lang::Go, src);
    let v = sym(&a, "ErrGone");
    assert_eq!(
        (v.kind, v.is_public, &*v.signature),
        ("variable", true, "ErrGone = errors.New(\"gone\")")
    );
    assert!(!sym(&a, "count").is_public);
    for q in ["x", "y"] {
        assert_eq!(sym(&a, q).kind, "variable");
    }
    for q in ["A", "B"] {
        assert_eq!(sym(&a, q).kind, "constant");
    }
    assert!(a.symbols.iter().all(|s| &*s.name != "local"));
}

/// A Python module's variables: `_private` ones too; a placeholder for a `def` or `class`
/// below is none (the class keeps its name); a value's receiver is typed by the module's
/// earlier assignments, not the variable's own scope.
#[test]
fn python_module_variables() {
    let src = "import os\n\nEnum = None\nsep = '/'\n_inst = Random()\nseed = _inst.seed\n\nclass Enum:\n    pass\n\n@dec\ndef run():\n    pass\nrun = wrap(run)\n\nif os.name == 'nt':\n    sep = '\\\\'\n";
    let a = analyze(Lang::Python, src);
    assert_eq!(
        kinds(&a),
        [
            ("sep", "variable"),
            ("_inst", "variable"),
            ("seed", "variable"),
            ("Enum", "class"),
            ("run", "function"),
        ]
    );
    assert!(!sym(&a, "_inst").is_public);
    let read = a
        .edges
        .iter()
        .find(|e| e.kind == EdgeKind::References && &*e.target_name == "seed")
        .expect("the reference to _inst.seed");
    assert_eq!(read.source.as_deref(), Some("seed"));
    assert_eq!(read.receiver_type.as_deref(), Some("Random"));
}

#[test]
fn javascript_object_members_exports_and_prototypes() {
    let src = "const api = {\n  get(url) { return fetch(url); },\n  post: function (url) { return send(url); },\n  del: (url) => send(url),\n  base: '/v1',\n};\nexports.run = function run() { return api.get('/'); };\nmodule.exports.stop = () => 0;\nFoo.prototype.bar = function () { return this.baz(); };\nfunction f() { const local = { cb: () => 1 }; other.x = () => 2; }\n";
    let a = analyze(Lang::JavaScript, src);
    assert_eq!(
        kinds(&a),
        [
            ("api", "variable"),
            ("api.get", "function"),
            ("api.post", "function"),
            ("api.del", "function"),
            ("run", "function"),
            ("stop", "function"),
            ("Foo.bar", "method"),
            ("f", "function"),
            ("f.cb", "function"),
        ]
    );
    assert_eq!(&*sym(&a, "api.post").signature, "post: function (url)");
    assert_eq!(sym(&a, "Foo.bar").parent(), Some("Foo"));
    assert!(has_edge(&a, EdgeKind::Calls, "api.del", "send"));
}

#[test]
fn module_level_consts_are_constants_in_javascript_and_typescript() {
    let src = "export const sep = '/';\nconst LIMIT = 10, names = ['a'];\nconst fs = require('fs');\nconst { a, b } = load();\nlet count = 0;\nexport const join = (x: string) => x + sep;\nfunction f() { const local = 1; return local + LIMIT; }\n";
    for lang in [Lang::TypeScript, Lang::JavaScript] {
        let src = if lang == Lang::JavaScript {
            src.replace(": string", "")
        } else {
            src.to_owned()
        };
        let a = analyze(lang, &src);
        assert_eq!(
            kinds(&a),
            [
                ("sep", "constant"),
                ("LIMIT", "constant"),
                ("names", "constant"),
                ("join", "function"),
                ("f", "function"),
            ],
            "{lang:?}"
        );
        assert_eq!(&*sym(&a, "sep").signature, "sep = '/'");
        assert!(sym(&a, "sep").is_public);
    }
}

#[test]
fn java_record_components_are_fields() {
    let src = "public record Point(int x, int y) {\n  public int sum(Point o) { return x + o.x; }\n}\nclass C { void f(int a) {} }\n";
    let a = analyze(Lang::Java, src);
    let x = sym(&a, "Point.x");
    assert_eq!((x.kind, &*x.signature), ("field", "int x"));
    assert_eq!(sym(&a, "Point.y").kind, "field");
    // A method's parameters are not.
    assert!(a.symbols.iter().all(|s| &*s.name != "a" && &*s.name != "o"));
}

#[test]
fn instance_attributes_assigned_in_methods_are_fields() {
    let src = "class Client:\n    timeout: int = 5\n\n    def __init__(self, url):\n        self.url = url\n        self.timeout = 10\n        if url:\n            self.retries = 3\n        else:\n            self.retries = 0\n        self._session = make_session(url)\n\n    def get(self, path):\n        self.last = path\n        return self.url\n";
    let a = analyze(Lang::Python, src);
    let fields = qnames(&a, "field");
    // Once per name, at its first assignment (here `__init__`, and `get`).
    assert_eq!(
        fields,
        [
            "Client.timeout",
            "Client.url",
            "Client.retries",
            "Client._session",
            "Client.last"
        ]
    );
    assert_eq!(sym(&a, "Client.url").parent(), Some("Client"));
    assert!(!sym(&a, "Client._session").is_public);
    // The assignment's call is still the constructor's.
    assert!(has_edge(
        &a,
        EdgeKind::Calls,
        "Client.__init__",
        "make_session"
    ));
    assert!(a.edges.iter().any(|e| e.kind == EdgeKind::References
        && e.source.as_deref() == Some("Client.get")
        && &*e.target_name == "url"
        && e.qualifier.as_deref() == Some("self")));

    let src = "class Widget {\n  constructor(size) {\n    this.size = size;\n    this.onResize = () => { this.resized = true; };\n  }\n  grow() { this.size += 1; this.other = 2; }\n}\nfunction Legacy() { this.x = 1; }\n";
    let a = analyze(Lang::JavaScript, src);
    let fields = qnames(&a, "field");
    assert_eq!(
        fields,
        [
            "Widget.size",
            "Widget.onResize",
            "Widget.resized",
            "Widget.other"
        ]
    );
}

/// The receiver types of `a`'s calls: (target name, qualifier, receiver type), in order.
fn receivers(a: &FileAnalysis) -> Vec<(&str, &str, &str)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .filter_map(|e| {
            Some((
                &*e.target_name,
                e.qualifier.as_deref()?,
                e.receiver_type.as_deref()?,
            ))
        })
        .collect()
}

#[test]
fn declared_types_of_receivers() {
    let cases: &[(Lang, &str, &[(&str, &str, &str)])] = &[
        (
            Lang::Java,
            "class A {\n  void f(List<String> xs, final Engine e) {\n    var b = new Builder();\n    Map<K, V> m = make();\n    for (Item it : xs) { it.use(); }\n    xs.add(\"\"); e.run(); b.build(); m.get(1); eng.stop(); this.eng.stop(); other.go();\n  }\n  private final Engine eng;\n}\n",
            &[
                ("use", "it", "Item"),
                ("add", "xs", "List"),
                ("run", "e", "Engine"),
                ("build", "b", "Builder"),
                ("get", "m", "Map"),
                ("stop", "eng", "Engine"),
                ("stop", "this.eng", "Engine"),
            ],
        ),
        (
            Lang::CSharp,
            "class A {\n  Repo Repo { get; }\n  private Db db;\n  void F(Service s) {\n    var w = new Worker();\n    Cache c = null;\n    s.Go(); w.Work(); c.Get(); db.Open(); Repo.Find();\n  }\n}\n",
            &[
                ("Go", "s", "Service"),
                ("Work", "w", "Worker"),
                ("Get", "c", "Cache"),
                ("Open", "db", "Db"),
                ("Find", "Repo", "Repo"),
            ],
        ),
        (
            Lang::TypeScript,
            "class A {\n  private repo: Repo;\n  constructor(private db: Db) { this.log = new Log(); }\n  f(s: Service | null, n?: Node<T>) {\n    const w = new Worker();\n    let c: Cache = make();\n    s.go(); n.walk(); w.work(); c.get(); this.repo.find(); this.db.open(); this.log.write();\n  }\n}\n",
            &[
                ("go", "s", "Service"),
                ("walk", "n", "Node"),
                ("work", "w", "Worker"),
                ("get", "c", "Cache"),
                ("find", "this.repo", "Repo"),
                ("open", "this.db", "Db"),
                ("write", "this.log", "Log"),
            ],
        ),
        (
            Lang::JavaScript,
            "class A {\n  #bar\n  constructor() { this.log = new Log(); this.#bar = new Bar(); }\n  f() { const w = new Worker(); w.work(); this.log.write(); this.#bar.off(); }\n}\n",
            &[
                ("work", "w", "Worker"),
                ("write", "this.log", "Log"),
                ("off", "this.#bar", "Bar"),
            ],
        ),
        (
            Lang::Go,
            "package p\ntype S struct { db *sql.DB }\nfunc (s *S) F(c Client, xs []int) {\n  var w Worker\n  p := &Pool{}\n  srv := NewServer(1)\n  req, err := http.NewRequest(\"GET\", u, nil)\n  t := New()\n  b := new(bytes.Buffer)\n  h, ok := c.(tHelper)\n  s.db.Query(); c.Do(); w.Work(); p.Get(); s.Help(); srv.Run(); t.Go(); req.Send(err); b.Len(); h.Helper()\n  switch v := c.(type) {\n  case *Pool:\n    v.Drain()\n  case Worker, Client:\n    v.Stop()\n  }\n}\n",
            &[
                ("Query", "s.db", "sql.DB"),
                ("Do", "c", "Client"),
                ("Work", "w", "Worker"),
                ("Get", "p", "Pool"),
                ("Help", "s", "S"),
                ("Run", "srv", "Server"),
                // A call's result: its type is what `New` returns, found in resolution.
                ("Go", "t", "New()"),
                ("Send", "req", "http.Request"),
                ("Len", "b", "bytes.Buffer"),
                ("Helper", "h", "tHelper"),
                // A type switch's case of one type; in a case of two, the alias's type is
                // the switched value's, not known here.
                ("Drain", "v", "Pool"),
                // A case of several types: the switched value's own type.
                ("Stop", "v", "Client"),
            ],
        ),
        (
            Lang::Rust,
            "struct S { inner: Inner, shared: Arc<State> }\nimpl S {\n  fn f(&self, p: &mut Parser<'_>, b: Box<Node>) {\n    let v = Vec::new();\n    let t: Table = make();\n    let q = Query { n: 1 };\n    p.parse(); b.walk(); v.push(1); t.get(); q.run(); self.inner.go(); self.shared.lock();\n  }\n}\n",
            &[
                ("parse", "p", "Parser"),
                ("push", "v", "Vec"),
                ("get", "t", "Table"),
                ("run", "q", "Query"),
                ("go", "self.inner", "Inner"),
            ],
        ),
        (
            Lang::Python,
            "class A:\n    repo: Repo\n    def __init__(self):\n        self.engine = Engine()\n    def f(self, s: Service, n: 'Node' = None):\n        w = Worker()\n        x = make()\n        s.go(); w.work(); x.stop(); self.engine.run(); self.repo.find()\n",
            &[
                ("go", "s", "Service"),
                ("work", "w", "Worker"),
                ("stop", "x", "make()"),
                ("run", "self.engine", "Engine"),
                ("find", "self.repo", "Repo"),
            ],
        ),
        (
            Lang::Cpp,
            "class A {\n  Engine* engine_;\n  void f(const Shape& s, Node *n) {\n    Builder b;\n    auto w = new Worker();\n    s.area(); n->next(); b.build(); w->work(); engine_->run();\n  }\n};\n",
            &[
                ("area", "s", "Shape"),
                ("next", "n", "Node"),
                ("build", "b", "Builder"),
                ("work", "w", "Worker"),
                ("run", "engine_", "Engine"),
            ],
        ),
        (
            Lang::Php,
            "<?php\nclass A {\n  private Repo $repo;\n  public function __construct(private Db $db) {}\n  function f(Service $s) {\n    $w = new Worker();\n    $s->go(); $w->work(); $this->repo->find(); $this->db->open();\n  }\n}\n",
            &[
                ("go", "$s", "Service"),
                ("work", "$w", "Worker"),
                ("find", "$this->repo", "Repo"),
                ("open", "$this->db", "Db"),
            ],
        ),
        (
            Lang::Ruby,
            "class A\n  def f\n    w = Worker.new\n    w.work(1)\n  end\nend\n",
            &[("work", "w", "Worker")],
        ),
        // A loop with `var` over a field.
        (
            Lang::CSharp,
            "class A {\n  List<Item> items;\n  void F() {\n    foreach (var it in this.items) { it.Use(); }\n  }\n}\n",
            &[("Use", "it", "this.items[]")],
        ),
        (
            Lang::Java,
            "class A {\n  Item[] items;\n  void f() {\n    for (var it : this.items) { it.use(); }\n  }\n}\n",
            &[("use", "it", "this.items[]")],
        ),
        // A field bound to a parameter of a declared type.
        (
            Lang::Python,
            "class A:\n    def __init__(self, repo: Repo):\n        self.repo = repo\n\n    def f(self):\n        self.repo.find()\n",
            &[("find", "self.repo", "Repo")],
        ),
    ];
    for (lang, src, want) in cases {
        let a = analyze(*lang, src);
        assert_eq!(&receivers(&a), want, "{lang:?}");
    }
}

#[test]
fn type_names_are_last_segments_without_decoration() {
    for (text, want) in [
        ("&mut Vec<T>", Some("Vec")),
        ("&'a Parser<'a>", Some("Parser")),
        ("*pkg.Server", Some("pkg.Server")),
        ("java.util.List<String>", Some("java.util.List")),
        (": Repo | null", Some("Repo")),
        ("const std::string&", Some("std::string")),
        ("\\App\\Models\\User", Some("App\\Models\\User")),
        ("?Service", Some("Service")),
        ("impl Read + Send", Some("Read")),
        ("Optional[tasks.Task]", Some("tasks.Task")),
        ("var", None),
        ("auto", None),
        ("(int, int)", None),
        ("[]int", None),
        ("String[]", None),
        ("List<String>[]", None),
        ("int[,]", None),
        ("list[Item]", Some("list")),
    ] {
        assert_eq!(rules::type_name(text), want, "{text}");
    }
}

/// Ruby: a bare name that the method has not made a local is a call on `self`.
#[test]
fn ruby_calls_without_parentheses() {
    let src = "class Cart\n  private\n  def total(tax, rate: 1, *rest, &blk)\n    a, b = split\n    items.each { |item| item.price + discount }\n    for x in rows do x end\n    begin\n      fetch\n    rescue => e\n      e\n    end\n    sum = subtotal + tax + rate + a + b\n    sum += rest.size\n    blk.call(sum)\n  end\nend\n";
    let a = analyze(Lang::Ruby, src);
    let mut bare: Vec<&str> = a
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls && e.qualifier.is_none())
        .map(|e| &*e.target_name)
        .collect();
    bare.sort();
    assert_eq!(
        bare,
        ["discount", "fetch", "items", "rows", "split", "subtotal"]
    );
}

#[test]
fn java_annotation_elements_keep_their_default() {
    let src = "@interface Route {\n  String value() default \"/\";\n  int weight();\n}\n";
    let a = analyze(Lang::Java, src);
    assert_eq!(
        &*sym(&a, "Route.value").signature,
        "String value() default \"/\";"
    );
    assert_eq!(&*sym(&a, "Route.weight").signature, "int weight();");
}

/// A local is bound after the value that gives its type: in Go's `assert := assert.New(t)`
/// the value's `assert` is still the package (it had been the local, typed by the very call
/// it is the receiver of), and later calls on `assert` are on the call's result.
#[test]
fn a_local_is_not_in_scope_in_its_own_value() {
    let src = "package p\n\nimport \"github.com/stretchr/testify/assert\"\n\nfunc TestX(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(1, 1)\n}\n";
    let a = analyze(Lang::Go, src);
    let calls = call_receivers(&a);
    assert_eq!(calls, [("New", None), ("Equal", Some("assert.New(t)"))]);
}

/// A local bound to a field read that cannot be a type — indexed, or of the instance, or
/// any in Go, whose types are written with their package — has that read as its
/// `receiver_type`, for resolution to follow through the field's type; elsewhere one bound
/// to `a.b` (a type's path too, in Python or Java) has none.
#[test]
fn locals_bound_to_field_reads_keep_the_read() {
    let go = "package p\n\nfunc f(v *ssa.Value, vals []*ssa.Value) {\n\ta := v.Args[0]\n\ta.Reg()\n\tb := v.Block\n\tb.Func()\n\tfor _, w := range vals {\n\t\tw.Reg()\n\t}\n}\n";
    let a = analyze(Lang::Go, go);
    let calls = call_receivers(&a);
    assert_eq!(
        calls,
        [
            ("Reg", Some("v.Args[0]")),
            ("Func", Some("v.Block")),
            // A loop over a parameter of a slice type: its element's.
            ("Reg", Some("ssa.Value")),
        ]
    );
    let rust = "impl Scene {\n    fn f(&self) {\n        let s = &self.shapes[1];\n        s.area();\n        let t = &self.title;\n        t.area();\n    }\n}\n";
    let a = analyze(Lang::Rust, rust);
    let calls = call_receivers(&a);
    assert_eq!(
        calls,
        [
            ("area", Some("self.shapes[1]")),
            ("area", Some("self.title"))
        ]
    );
}

/// Ruby's constants used as values are references (`rescue FooError`, `is_a?(Foo)`,
/// `Foo::BAR` with its path as the qualifier); a class's or constant's own name, a base, a
/// call's receiver (`Foo.new`) and the scope of a longer path are not.
#[test]
fn ruby_constants_used_as_values_are_references() {
    let src = "module App\n  LIMIT = 3\n  class Job < Base::Task\n    def run(x)\n      Worker.new(x)\n      raise ArgumentError unless x.is_a?(Payload)\n      Config::Defaults::RETRIES + LIMIT\n    rescue Net::TimeoutError, IOError => e\n      nil\n    end\n  end\nend\n";
    let a = analyze(Lang::Ruby, src);
    let refs = named(&a, EdgeKind::References);
    assert_eq!(
        refs,
        [
            ("ArgumentError", None),
            ("Payload", None),
            ("RETRIES", Some("Config::Defaults")),
            ("LIMIT", None),
            ("TimeoutError", Some("Net")),
            ("IOError", None),
        ]
    );
}

/// Rust: a path used as a value is a reference to its last name, qualified by the path
/// before it (`Self::one`, `Ordering::Less` in a pattern too); a call's function, an import,
/// a macro's, an attribute's or a visibility's path and a longer path's prefix are not.
/// Java: a method reference, not `Foo::new`. A value declared an array has the array as its
/// receiver type.
#[test]
fn paths_and_method_references_used_as_values_are_references() {
    let src = "use std::cmp::Ordering;\n\n#[derive(serde::Serialize)]\npub(in crate::a) struct P;\n\nimpl P {\n    fn f(&self, o: Ordering) -> u32 {\n        tracing::info!(\"x\");\n        let _ = v.map(Self::one).map(a::b::c);\n        match o {\n            Ordering::Less => u32::MAX,\n            _ => Self::two(),\n        }\n    }\n}\n";
    let a = analyze(Lang::Rust, src);
    let refs = named(&a, EdgeKind::References);
    assert_eq!(
        refs,
        [
            ("Ordering", None),
            ("one", Some("Self")),
            ("c", Some("a::b")),
            ("Less", Some("Ordering")),
            ("MAX", Some("u32")),
        ]
    );
    let src = "class W {\n    void w(java.util.List<String> xs, String[] names) {\n        xs.forEach(this::visit);\n        xs.stream().map(Item::new).map(Util::trim);\n        names.clone();\n    }\n}\n";
    let a = analyze(Lang::Java, src);
    let refs: Vec<_> = named(&a, EdgeKind::References)
        .into_iter()
        .filter(|(n, _)| !matches!(*n, "List" | "String" | "Item"))
        .collect();
    assert_eq!(refs, [("visit", Some("this")), ("trim", Some("Util"))]);
    let clone = a.edges.iter().find(|e| &*e.target_name == "clone").unwrap();
    assert_eq!(clone.receiver_type.as_deref(), Some(rules::ARRAY));
}

/// A field read keeps what it reads from as its qualifier, as a call keeps its receiver —
/// but in Rust, whose qualifiers are paths (`Self::X`), and PHP, whose reads go by their own
/// rules.
#[test]
fn field_reads_keep_what_they_read_from() {
    let cases: &[(Lang, &str, &[(&str, Option<&str>)])] = &[
        (
            Lang::Python,
            "def f(cfg):\n    return os.sep + cfg.opts.name\n",
            &[
                ("sep", Some("os")),
                ("name", Some("cfg.opts")),
                ("opts", Some("cfg")),
            ],
        ),
        (
            Lang::C,
            "int f(struct cfg *c) { return c->size; }\n",
            &[("cfg", None), ("size", Some("c"))],
        ),
        (
            Lang::TypeScript,
            "function f(a: Ctx) { return a.common; }\n",
            &[("Ctx", None), ("common", Some("a"))],
        ),
        (
            Lang::Rust,
            "fn f(p: &P) -> u8 { p.x }\n",
            &[("P", None), ("x", None)],
        ),
    ];
    for (lang, src, want) in cases {
        let a = analyze(*lang, src);
        assert_eq!(&named(&a, EdgeKind::References), want, "{lang:?}");
    }
}

/// A name written alone as a value is a reference when it names a function of the file or
/// an imported name — not a parameter, a local or a built-in.
#[test]
fn functions_named_alone_as_values_are_references() {
    let src = "from util import helper\n\ndef worker():\n    pass\n\ndef main(items, cb):\n    run(worker, items, cb)\n    items.sort(key=helper)\n    print(len)\n\n    def inner():\n        pass\n    return inner\n";
    let a = analyze(Lang::Python, src);
    let refs = named(&a, EdgeKind::References);
    assert_eq!(refs, [("worker", None), ("helper", None), ("inner", None)]);
    let src = "static int rd(int n) { return n; }\nstruct ops { int (*read)(int); };\nstatic struct ops o = { .read = rd };\nint f(int x) { return g(rd, x); }\n";
    let a = analyze(Lang::C, src);
    let values: Vec<_> = named(&a, EdgeKind::References)
        .into_iter()
        .filter(|(n, _)| *n == "rd" || *n == "x")
        .collect();
    assert_eq!(values, [("rd", None), ("rd", None)]);
    let src = "function tick() {}\nfunction run(opts) {\n  return { tick, opts };\n}\n";
    let a = analyze(Lang::JavaScript, src);
    assert_eq!(named(&a, EdgeKind::References), [("tick", None)]);
}

/// Rust, Go and C++: a function of the file passed or stored as a value is referenced; an
/// imported name is not (Rust's and Go's imports name modules and packages, whose names
/// locals share), nor a composite literal's key, nor Go's `_`.
#[test]
fn rust_go_and_cpp_functions_named_as_values_are_references() {
    let values = |lang: Lang, src: &str, names: &[&str]| -> Vec<(String, String)> {
        let a = analyze(lang, src);
        a.edges
            .iter()
            .filter(|e| e.kind == EdgeKind::References && names.contains(&&*e.target_name))
            .map(|e| {
                let source = e.source.as_deref().unwrap_or("<file>").to_string();
                (source, e.target_name.to_string())
            })
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let src = "use tracing::span;\nfn parse_line(s: &str) -> usize { s.len() }\nfn keyed(s: &str) -> usize { 0 }\nstruct Opts { f: fn(&str) -> usize }\nfn a() -> Vec<usize> { [\"a\"].into_iter().map(parse_line).collect() }\nfn b() -> Opts { Opts { f: keyed } }\nfn c() { let g = parse_line; let span = 1; h(span, g); }\n";
    assert_eq!(
        values(Lang::Rust, src, &["parse_line", "keyed", "span", "g"]),
        pairs(&[("a", "parse_line"), ("b", "keyed"), ("c", "parse_line")])
    );
    let src = "package p\n\nimport \"path\"\n\nfunc handle(w int) int { return w }\n\nfunc H() {}\n\ntype S struct{ H func(int) int }\n\nfunc a() { serve(handle, 1) }\n\nfunc b() S { return S{H: handle} }\n\nfunc c() {\n\th := handle\n\t_ = h\n\tpath := 1\n\tuse(path)\n}\n";
    assert_eq!(
        values(Lang::Go, src, &["handle", "H", "h", "_", "path"]),
        pairs(&[("a", "handle"), ("b", "handle"), ("c", "handle")])
    );
    let src = "int cmp(int a, int b) { return a < b; }\nvoid run() { std::sort(v.begin(), v.end(), cmp); }\n";
    assert_eq!(values(Lang::Cpp, src, &["cmp"]), pairs(&[("run", "cmp")]));
}

/// A Go import binds its alias, `*` for a dot import, else the name its path implies.
#[test]
fn go_imports_bind_aliases_and_dot_imports() {
    let src = "package main\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n\t. \"example.com/lib/other\"\n\t_ \"embed\"\n\t\"gopkg.in/yaml.v3\"\n\t\"github.com/pelletier/go-toml/v2\"\n)\n";
    let a = analyze(Lang::Go, src);
    assert_eq!(
        aliased_imports(&a),
        [
            ("fmt", Some("fmt"), None),
            ("strings", Some("strings"), Some("str")),
            ("*", Some("example.com/lib/other"), None),
            ("embed", Some("embed"), None),
            ("yaml", Some("gopkg.in/yaml.v3"), None),
            ("toml", Some("github.com/pelletier/go-toml/v2"), None),
        ]
    );
}

/// A file's calls as (name, receiver type).
fn call_receivers(a: &FileAnalysis) -> Vec<(&str, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .map(|e| (&*e.target_name, e.receiver_type.as_deref()))
        .collect()
}

/// A file's edges of `kind` as (target name, qualifier), in order.
fn named(a: &FileAnalysis, kind: EdgeKind) -> Vec<(&str, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| (&*e.target_name, e.qualifier.as_deref()))
        .collect()
}

/// A file's imports as (name, module, alias).
fn aliased_imports(a: &FileAnalysis) -> Vec<(&str, Option<&str>, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Imports)
        .map(|e| (&*e.target_name, e.qualifier.as_deref(), e.alias.as_deref()))
        .collect()
}

/// An import that renames what it imports keeps the name it binds (`alias`), in every
/// language that can rename; resolution looks the alias up as the imported name.
#[test]
fn imports_keep_their_aliases() {
    let python = analyze(
        Lang::Python,
        "import numpy as np\nimport os.path\nfrom a.b import c as d, e\n",
    );
    assert_eq!(
        aliased_imports(&python),
        [
            ("numpy", None, Some("np")),
            ("os.path", None, None),
            ("c", Some("a.b"), Some("d")),
            ("e", Some("a.b"), None),
        ]
    );
    let js = analyze(
        Lang::JavaScript,
        "import d, { a as b, c } from './m';\nimport * as ns from './n';\nconst { x: y, z } = require('q');\n",
    );
    let mut js_imports = aliased_imports(&js);
    js_imports.sort();
    assert_eq!(
        js_imports,
        [
            ("*", Some("./n"), Some("ns")),
            ("a", Some("./m"), Some("b")),
            ("c", Some("./m"), None),
            ("d", Some("./m"), None),
            ("x", Some("q"), Some("y")),
            ("z", Some("q"), None),
        ]
    );
    let rust = analyze(
        Lang::Rust,
        "use std::collections::{HashMap as Map, BTreeMap};\nuse a::Entry as E;\nuse std::io::Write as _;\n",
    );
    assert_eq!(
        aliased_imports(&rust),
        [
            ("HashMap", Some("std::collections"), Some("Map")),
            ("BTreeMap", Some("std::collections"), None),
            ("Entry", Some("a"), Some("E")),
            ("Write", Some("std::io"), None),
        ]
    );
    let php = analyze(
        Lang::Php,
        "<?php\nuse App\\Models\\User as U;\nuse App\\Http\\Kernel;\n",
    );
    assert_eq!(
        aliased_imports(&php),
        [
            ("User", Some("App\\Models"), Some("U")),
            ("Kernel", Some("App\\Http"), None),
        ]
    );
}

/// A call on a receiver written over many lines keeps the receiver's head, shortened: with
/// no qualifier it would read as a bare call (`build()`), which takes no method.
#[test]
fn long_receivers_are_shortened_not_dropped() {
    let args = (0..40)
        .map(|i| format!("arg_{i}"))
        .collect::<Vec<_>>()
        .join(",\n        ");
    let src = format!(
        "fn f() {{\n    let b = Builder::new(\n        {args},\n    )\n    .with_name(\"é\")\n    .build();\n}}\n"
    );
    let a = analyze(Lang::Rust, &src);
    let build = a
        .edges
        .iter()
        .find(|e| e.kind == EdgeKind::Calls && &*e.target_name == "build")
        .expect("an edge to build");
    let q = build.qualifier.as_deref().expect("a qualifier");
    assert!(q.starts_with("Builder::new( arg_0, arg_1,"), "{q}");
    assert!(
        q.ends_with('…') && q.len() <= MAX_QUALIFIER + '…'.len_utf8(),
        "{q}"
    );
    // A short one is kept whole, whitespace collapsed.
    let a = analyze(Lang::Rust, "fn f() { a\n  .b()\n  .c(); }\n");
    let c = a.edges.iter().find(|e| &*e.target_name == "c").unwrap();
    assert_eq!(c.qualifier.as_deref(), Some("a .b()"));
}

/// Deeply nested references and declarators end the type lookup, not the stack.
#[test]
fn deep_references_and_declarators_are_bounded() {
    let deep = 100_000;
    let rust = format!("fn f() {{ let v = {}x; v.go(); }}\n", "&".repeat(deep));
    let a = analyze(Lang::Rust, &rust);
    assert!(has_edge(&a, EdgeKind::Calls, "f", "go"));
    let cpp = format!("void f() {{ int {}p; p->go(); }}\n", "*".repeat(deep));
    let a = analyze(Lang::Cpp, &cpp);
    assert!(has_edge(&a, EdgeKind::Calls, "f", "go"));
}

#[test]
fn a_parse_past_its_memory_budget_is_given_up_and_the_next_file_parses() {
    let src = "fn f() { g(1); }\n".repeat(2_000);
    // Within the default budget: analysed.
    let a = analyze_within_budget(Lang::Rust, &src).unwrap();
    assert_eq!(a.symbols.len(), 2_000);
    // Below what the tree needs: given up, named with the budget.
    let small = 256 << 10;
    assert_eq!(
        analyze_with_budget(Lang::Rust, &src, small).unwrap_err(),
        ParseGivenUp::Memory(small)
    );
    // Tree-sitter's unbounded error recovery (it held 23 GB on 900 KB of this as Java).
    let ambiguous = format!("{}\n", "a<".repeat(50)).repeat(9_000);
    let why = analyze_within_budget(Lang::Java, &ambiguous).unwrap_err();
    assert_eq!(why, ParseGivenUp::Memory(PARSE_MEMORY_BUDGET));
    assert!(why.to_string().contains("more than 256 MiB"), "{why}");
    assert!(analyze(Lang::Java, &ambiguous).symbols.is_empty());
    // The thread's arena is whole again: the next file parses as before.
    assert_eq!(analyze(Lang::Rust, &src), a);
    assert_eq!(
        analyze(Lang::Java, "class A { void m() {} }").symbols.len(),
        2
    );
}

/// Summaries cut at a character count, not a byte count, whatever the words and scripts:
/// the first sentence's 200 characters with whitespace collapsed, else the kind, name and
/// the signature's first 160 characters — as pushing them one by one gave.
#[test]
fn summaries_cut_at_characters() {
    fn by_chars(kind: &str, qname: &str, doc: Option<&str>, signature: &str) -> String {
        let mut out = String::new();
        if let Some(doc) = doc {
            let para = doc.split("\n\n").next().unwrap_or("");
            let mut words = para.split_whitespace().peekable();
            let mut chars = 0;
            'words: while let Some(word) = words.next() {
                if chars > 0 {
                    if chars == 200 {
                        break;
                    }
                    out.push(' ');
                    chars += 1;
                }
                for c in word.chars() {
                    if chars == 200 {
                        break 'words;
                    }
                    out.push(c);
                    chars += 1;
                }
                if word.ends_with('.') && words.peek().is_some() {
                    break;
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
        format!(
            "{kind} {qname}: {}",
            signature.chars().take(160).collect::<String>()
        )
    }
    // Sentences that end early, and runs of words and single words far past 200 characters.
    let ending = [
        "a",
        "éé",
        "日本語",
        "x.",
        "🦀🦀",
        "word",
        "end.",
        "\t",
        "  ",
    ];
    let running = ["a", "éé", "日本語", "x.y", "🦀🦀", "word", "b"];
    let mut docs = vec![String::new(), "   ".to_string()];
    for words in [&ending[..], &running[..]] {
        for len in [1, 50, 99, 100, 101, 199, 200, 201, 400] {
            for shift in 0..words.len() {
                let doc: Vec<&str> = (0..len).map(|i| words[(i + shift) % words.len()]).collect();
                docs.push(doc.join(" "));
                docs.push(doc.concat());
                docs.push(format!("{}\n\nsecond paragraph", doc.join("\n")));
            }
        }
    }
    let long = |d: &String| by_chars("k", "q", Some(d), "").chars().count() == 200;
    assert!(docs.iter().filter(|d| long(d)).count() > 20);
    let mut summary = String::new();
    for doc in &docs {
        for signature in [doc.as_str(), "fn f()", ""] {
            for doc in [Some(doc.as_str()), None] {
                summary.clear();
                summarize_into(&mut summary, "function", "m.f", doc, signature);
                assert_eq!(summary, by_chars("function", "m.f", doc, signature));
            }
        }
    }
}

/// A Go struct or interface embedding a type of another package keeps that package as the
/// qualifier (`transform.Transformer`): without it the base was any `Transformer` by name.
/// (And a struct's `r, g uint16` declares two fields: only the first had been one.)
#[test]
fn go_embedded_types_keep_their_package() {
    let src = "package p\n\ntype Encoder struct {\n\ttransform.Transformer\n\t*Local\n\tname string\n\tr, g uint16\n}\n\ntype RW interface {\n\tio.Reader\n\tCloser\n}\n";
    let a = analyze(Lang::Go, src);
    // Every name of a field declaration is a field.
    for f in ["Encoder.name", "Encoder.r", "Encoder.g"] {
        assert_eq!(sym(&a, f).kind, "field");
    }
    // A type written with its package is a reference qualified by it.
    let b = analyze(Lang::Go, "package p\n\nfunc f(l *obj.Link, e Encoder) {}\n");
    let refs = named(&b, EdgeKind::References);
    assert_eq!(refs, [("Link", Some("obj")), ("Encoder", None)]);
    let bases: Vec<_> = a
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Inherits)
        .map(|e| (e.source.as_deref(), &*e.target_name, e.qualifier.as_deref()))
        .collect();
    assert_eq!(
        bases,
        [
            (Some("Encoder"), "Transformer", Some("transform")),
            (Some("Encoder"), "Local", None),
            (Some("RW"), "Reader", Some("io")),
            (Some("RW"), "Closer", None),
        ]
    );
}

/// A PHP base or class written fully qualified (`\google\net\ProtocolMessage`) is its last
/// name, its namespace the qualifier: the whole path had been the name, which no definition
/// has.
#[test]
fn php_qualified_names_split_into_name_and_namespace() {
    let src = "<?php\nnamespace app;\nclass PointValue extends \\google\\net\\ProtocolMessage implements \\Iterator {\n  function f() { return new \\google\\net\\Decoder(); }\n}\n";
    let a = analyze(Lang::Php, src);
    let edges: Vec<_> = a
        .edges
        .iter()
        .map(|e| (e.kind, &*e.target_name, e.qualifier.as_deref()))
        .collect();
    assert!(
        edges.contains(&(EdgeKind::Inherits, "ProtocolMessage", Some("google\\net"))),
        "{edges:?}"
    );
    assert!(
        edges.contains(&(EdgeKind::Implements, "Iterator", Some("\\"))),
        "{edges:?}"
    );
    assert!(
        edges.contains(&(EdgeKind::Calls, "Decoder", Some("google\\net"))),
        "{edges:?}"
    );
    // `namespace\f()` is the file's namespace's `f`: looked up as written alone.
    let src = "<?php\nnamespace app;\nfunction local($x) { return $x; }\nfunction run($x) { return namespace\\local($x) + namespace\\sub\\other($x); }\n";
    let a = analyze(Lang::Php, src);
    let calls = named(&a, EdgeKind::Calls);
    assert_eq!(calls, [("local", None)]);
}

/// The name a C `typedef` defines is no reference to itself; its uses are.
#[test]
fn c_typedef_names_are_definitions_not_references() {
    let src = "typedef struct pac_s pac_t;\ntypedef void (*hook_t)(int);\ntypedef pac_t *pac_ptr_t;\nvoid f(pac_t *p, hook_t h) {}\n";
    for lang in [Lang::C, Lang::Cpp] {
        let a = analyze(lang, src);
        assert_eq!(qnames(&a, "type_alias"), ["pac_t", "hook_t", "pac_ptr_t"]);
        let refs: Vec<(Option<&str>, &str)> = a
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::References)
            .map(|e| (e.source.as_deref(), &*e.target_name))
            .collect();
        assert!(
            !refs.iter().any(|(s, t)| *s == Some(*t)),
            "{lang:?}: {refs:?}"
        );
        assert!(
            has_edge(&a, EdgeKind::References, "pac_ptr_t", "pac_t"),
            "{lang:?}: {refs:?}"
        );
        assert!(
            has_edge(&a, EdgeKind::References, "f", "hook_t"),
            "{lang:?}: {refs:?}"
        );
    }
}

/// A field read from a value of a declared type carries that type (`receiver_type` on the
/// reference), as a call on it does; C declares types like C++.
#[test]
fn field_references_carry_their_receivers_declared_types() {
    let cases: &[(Lang, &str, &[(&str, &str)])] = &[
        (
            Lang::Rust,
            "fn f(params: &CrcParams, other: Vec<u8>, n: T) -> u64 {\n    params.width + other.x + n.y + free.z\n}\n",
            &[("width", "CrcParams"), ("x", "Vec"), ("y", "T")],
        ),
        (
            Lang::Python,
            "def f(node: Node, other):\n    return node.name + other.name\n",
            &[("name", "Node")],
        ),
        (
            Lang::C,
            "int f(struct buf *b, hpdata_t *h) {\n    return b->len + h->size;\n}\n",
            &[("len", "buf"), ("size", "hpdata_t")],
        ),
        (
            Lang::Go,
            "package p\n\nfunc (s *Server) Handle(r *Request) string {\n    return r.Path + s.name\n}\n",
            &[("Path", "Request"), ("name", "Server")],
        ),
    ];
    for (lang, src, expected) in cases {
        let a = analyze(*lang, src);
        let typed: Vec<(&str, &str)> = a
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::References)
            .filter_map(|e| Some((&*e.target_name, e.receiver_type.as_deref()?)))
            .collect();
        assert_eq!(&typed, expected, "{lang:?}: {:#?}", a.edges);
    }
}

/// Go: the analysis keeps the file's build constraint (its header's `//go:build` line) for
/// resolution; other languages' comments of that shape are nothing.
#[test]
fn go_analyses_keep_their_build_line() {
    let src = "// Copyright.\n\n//go:build unix && !js\n\npackage net\n\nfunc f() {}\n";
    assert_eq!(
        analyze(Lang::Go, src).go_build.as_deref(),
        Some("unix && !js")
    );
    assert_eq!(analyze(Lang::Go, "package net\n").go_build, None);
    assert_eq!(
        analyze(Lang::Rust, "//go:build linux\nfn f() {}\n").go_build,
        None
    );
    // It survives packing, as resolution reads it.
    let packed = packed::Packed::new(&analyze(Lang::Go, src)).unwrap();
    assert_eq!(packed.names().go_build(), Some("unix && !js"));
    assert_eq!(
        packed.unpack().unwrap().go_build.as_deref(),
        Some("unix && !js")
    );
}

/// A reference is kept once per source, name and qualifier: `a.count` and `b.count` in one
/// function may be two types' fields, and both are edges; `a.count` twice is one.
#[test]
fn references_are_kept_once_per_name_and_qualifier() {
    let src = "package p\n\nfunc f(a *A, b *B) int {\n\treturn a.count + b.count + a.count\n}\n";
    let a = analyze(Lang::Go, src);
    let counts: Vec<Option<&str>> = a
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::References && &*e.target_name == "count")
        .map(|e| e.qualifier.as_deref())
        .collect();
    assert_eq!(counts, vec![Some("a"), Some("b")]);
}

#[test]
fn doc_comments_are_cut_at_4000_characters() {
    // Two-byte characters: 5000 of them are 10 000 bytes; the cut is by characters.
    let long = "é".repeat(5000);
    let src = format!(
        "/// {long}\nfn long() {{}}\n\n/// Short, *kept* whole.\n/// Two lines.\nfn short() {{}}\n"
    );
    let a = analyze(Lang::Rust, &src);
    let doc = sym(&a, "long").doc.as_deref().unwrap();
    assert_eq!(doc.chars().count(), 4000);
    assert_eq!(doc, "é".repeat(4000));
    assert_eq!(
        sym(&a, "short").doc.as_deref(),
        Some("Short, *kept* whole.\nTwo lines.")
    );
}

#[test]
fn a_banner_comment_s_frame_is_not_part_of_the_doc() {
    let c = "/* *************************************\n*  Tool functions\n***************************************/\nsize_t f(void) { return 0; }\n\n/*-**************************************\n*  Tuning parameters\n****************************************/\n#define MINRATIO 4\n";
    let a = analyze(Lang::C, c);
    assert_eq!(sym(&a, "f").doc.as_deref(), Some("Tool functions"));
    assert_eq!(
        sym(&a, "MINRATIO").doc.as_deref(),
        Some("Tuning parameters")
    );
    // A rule within a doc stays (Markdown's).
    let java = "class A {\n  // ------------\n  // private\n  // ------------\n  void g() {}\n  /**\n   * Head.\n   * ---\n   * Tail.\n   */\n  void h() {}\n}\n";
    let a = analyze(Lang::Java, java);
    assert_eq!(sym(&a, "A.g").doc.as_deref(), Some("private"));
    assert_eq!(sym(&a, "A.h").doc.as_deref(), Some("Head.\n---\nTail."));
    // Editors' folding markers are no doc.
    let js = "//#endregion\n//#region src/crawler.ts\n/** Build it. */\nfunction build() {}\n";
    assert_eq!(
        doc_of(Lang::JavaScript, js, "build").as_deref(),
        Some("Build it.")
    );
    // Markdown's bullets and emphasis stay.
    let rust = "/// Head.\n///\n/// * `a` - one\n/// **Warning**\nfn r() {}\n";
    assert_eq!(
        doc_of(Lang::Rust, rust, "r").as_deref(),
        Some("Head.\n\n* `a` - one\n**Warning**")
    );
}

#[test]
fn c_and_cpp_annotation_macros_do_not_break_declarations() {
    // Export macros between `class` and the name, annotations before a declaration, a
    // calling convention, a Qt-style member macro, Lua's parenthesised names.
    let cpp = "namespace geo {\n\
               class API_EXPORT Shape : public Base {\n\
               public:\n  Q_OBJECT\n  int sides;\n  LLVM_NODISCARD Shape copy(Alloc &a) const { return clone(a); }\n\
               \x20 Q_INVOKABLE virtual double area() const OVERRIDE { return 0; }\n};\n\
               }\n";
    let a = analyze(Lang::Cpp, cpp);
    assert_eq!(
        kinds(&a),
        [
            ("geo", "module"),
            ("geo.Shape", "class"),
            ("geo.Shape.sides", "field"),
            ("geo.Shape.copy", "method"),
            ("geo.Shape.area", "method"),
        ]
    );
    assert!(!a.had_errors, "{:#?}", a.symbols);
    let class = sym(&a, "geo.Shape");
    assert_eq!(&*class.signature, "class API_EXPORT Shape : public Base");
    assert_eq!((class.start_line, class.end_line), (2, 8));
    // A declaration starts at the macros before it on its line; its signature keeps them.
    let copy = sym(&a, "geo.Shape.copy");
    assert_eq!((copy.start_line, copy.start_character), (6, 2));
    assert_eq!(
        &*copy.signature,
        "LLVM_NODISCARD Shape copy(Alloc &a) const"
    );
    assert_eq!(
        &*sym(&a, "geo.Shape.sides").signature,
        "int sides;",
        "not `Q_OBJECT`"
    );
    assert!(has_edge(&a, EdgeKind::Calls, "geo.Shape.copy", "clone"));
    assert!(has_edge(&a, EdgeKind::Inherits, "geo.Shape", "Base"));

    let c = "LUA_API lua_Number (lua_tonumberx) (lua_State *L, int idx) {\n  return tonum(L, idx);\n}\n\
             SQLITE_API int sqlite3_close(sqlite3 *db) { return 0; }\n\
             struct PACKED header { int len; };\n\
             int WINAPI WinMain(HINSTANCE h) { return 0; }\n";
    let a = analyze(Lang::C, c);
    assert_eq!(
        kinds(&a),
        [
            ("lua_tonumberx", "function"),
            ("sqlite3_close", "function"),
            ("header", "struct"),
            ("header.len", "field"),
            ("WinMain", "function"),
        ]
    );
    assert!(has_edge(&a, EdgeKind::Calls, "lua_tonumberx", "tonum"));
    let close = sym(&a, "sqlite3_close");
    assert_eq!((close.start_line, close.start_character), (4, 0));
    assert_eq!(
        &*close.signature,
        "SQLITE_API int sqlite3_close(sqlite3 *db)"
    );
}

#[test]
fn javascript_class_expressions_and_names_written_as_strings() {
    // CommonJS's `module.exports = class X {…}`: the class is a symbol with its members.
    let src = "module.exports = class Minipass extends Stream {\n  constructor(o) { super(); this.buffer = [] }\n  get ['async']() { return this.a }\n  write(chunk) { return this.flush(chunk) }\n}\n\
               exports.Parser = class Parser {\n  parse() {}\n}\n\
               const Foo = class Bar {\n  run() {}\n}\n\
               const ops = {\n  '<='({ attr }) { return attr },\n  \"path.mjs\"(exports) {},\n}\n\
               class K {\n  ['x-y']() {}\n  static [Symbol.iterator]() {}\n}\n";
    let a = analyze(Lang::JavaScript, src);
    assert_eq!(
        kinds(&a),
        [
            ("Minipass", "class"),
            ("Minipass.constructor", "method"),
            ("Minipass.buffer", "field"),
            ("Minipass.async", "method"),
            ("Minipass.write", "method"),
            ("Parser", "class"),
            ("Parser.parse", "method"),
            ("Foo", "class"),
            ("Foo.run", "method"),
            ("ops", "variable"),
            ("ops.<=", "function"),
            ("ops.path.mjs", "function"),
            ("K", "class"),
            ("K.x-y", "method"),
            ("K.[Symbol.iterator]", "method"),
        ]
    );
    assert!(has_edge(&a, EdgeKind::Inherits, "Minipass", "Stream"));
    assert!(has_edge(&a, EdgeKind::Calls, "Minipass.write", "flush"));
    assert_eq!(&*sym(&a, "Minipass.async").signature, "get ['async']()");
}

#[test]
fn signatures_end_before_comments_between_head_and_body() {
    let py = "class NNTP:  # the character set\n    # of all commands\n    pass\n\ndef f(x) -> bool:  # why\n    return x\n";
    let a = analyze(Lang::Python, py);
    assert_eq!(&*sym(&a, "NNTP").signature, "class NNTP");
    assert_eq!(&*sym(&a, "f").signature, "def f(x) -> bool");
    let java = "class A {\n  void f() // why\n  {\n  }\n}\n";
    assert_eq!(
        &*sym(&analyze(Lang::Java, java), "A.f").signature,
        "void f()"
    );
    // A value's function: the head runs to its body.
    let js = "const add = (a, b) /* sum */ => a + b;\n";
    assert_eq!(
        &*sym(&analyze(Lang::JavaScript, js), "add").signature,
        "add = (a, b) /* sum */"
    );
}

#[test]
fn go_declarations_carry_their_comments_above_the_keyword() {
    let src = "package p\n\n// T is a thing.\ntype T struct {\n\tname string // the name\n\tsize int\n}\n\n// Kinds of things.\nconst (\n\t// A is the first.\n\tA = iota\n\tB // the second\n\tC\n)\n\n// X counts.\nvar X = 1\n\n// Errors returned.\nvar (\n\tErrA = 1\n)\n\n// I reads.\ntype I interface {\n\tRead() // one read\n}\n";
    let a = analyze(Lang::Go, src);
    let doc = |q: &str| sym(&a, q).doc.as_deref();
    assert_eq!(doc("T"), Some("T is a thing."));
    assert_eq!(doc("I"), Some("I reads."));
    assert_eq!(doc("X"), Some("X counts."));
    // A spec of a group: its own comment above or on its line, else the group's.
    assert_eq!(doc("A"), Some("A is the first."));
    assert_eq!(doc("B"), Some("the second"));
    assert_eq!(doc("C"), Some("Kinds of things."));
    assert_eq!(doc("ErrA"), Some("Errors returned."));
    // A field's comment on its line is its doc, and not the next field's.
    assert_eq!(doc("T.name"), Some("the name"));
    assert_eq!(doc("T.size"), None);
    // Methods keep theirs above only: a trailing comment is a one-line member's.
    assert_eq!(doc("I.Read"), None);
}

#[test]
fn a_comment_after_code_on_its_line_is_not_the_next_definition_s_doc() {
    let java = "class A {\n  static final int X = 1; // one\n  int y;\n  // about z\n  int z; // z itself\n  void f() {} // after f\n  void g() {}\n}\n";
    let a = analyze(Lang::Java, java);
    let doc = |q: &str| sym(&a, q).doc.as_deref();
    assert_eq!(doc("A.X"), Some("one"));
    assert_eq!(doc("A.y"), None);
    // A comment above comes first.
    assert_eq!(doc("A.z"), Some("about z"));
    assert_eq!(doc("A.g"), None);
    let c = "enum color {\n  RED, /* warm */\n  BLUE\n};\nint n; int m; // m only\n";
    let a = analyze(Lang::C, c);
    assert_eq!(sym(&a, "color.RED").doc.as_deref(), Some("warm"));
    assert_eq!(sym(&a, "color.BLUE").doc.as_deref(), None);
    // A comment followed by code on its line documents nothing after it.
    let py = "x = 1  # the x\ny = 2\n";
    let a = analyze(Lang::Python, py);
    assert_eq!(sym(&a, "y").doc.as_deref(), None);
}

#[test]
fn tools_directives_are_no_doc() {
    let rb = "# frozen_string_literal: true\n\nmodule M\n  X = 1 # :nodoc:\n  # Says hi.\n  # rubocop:disable Style/Foo\n  def hi; end\nend\n";
    let a = analyze(Lang::Ruby, rb);
    assert_eq!(sym(&a, "M").doc.as_deref(), None);
    assert_eq!(sym(&a, "M.X").doc.as_deref(), None);
    assert_eq!(sym(&a, "M.hi").doc.as_deref(), Some("Says hi."));
    // RDoc's `##` opening a doc is no text; Markdown headings within stay.
    let rb = "##\n# Greets.\n#\n# ### Usage\ndef greet; end\n";
    assert_eq!(
        doc_of(Lang::Ruby, rb, "greet").as_deref(),
        Some("Greets.\n\n### Usage")
    );
    let go = "package p\n\n// add adds.\n//\n//go:noinline\nfunc add(a, b int) int { return a + b }\n\n//go:linkname now runtime.now\nfunc now() int64\n\n// see: http://x\nfunc see() {}\n";
    let a = analyze(Lang::Go, go);
    assert_eq!(sym(&a, "add").doc.as_deref(), Some("add adds."));
    assert_eq!(sym(&a, "now").doc.as_deref(), None);
    assert_eq!(sym(&a, "see").doc.as_deref(), Some("see: http://x"));
    let js = "// eslint-disable-next-line no-unused-vars\nfunction f() {}\n/* istanbul ignore next */\nfunction g() {}\n";
    let a = analyze(Lang::JavaScript, js);
    assert_eq!(sym(&a, "f").doc.as_deref(), None);
    assert_eq!(sym(&a, "g").doc.as_deref(), None);
}

#[test]
fn ruby_and_python_first_members_keep_their_comments() {
    // The grammars put comments before a body's first statement outside the body.
    let rb = "class Object\n  # Doc of blank.\n  def blank?\n  end\nend\n\nmodule M\n  # Doc of C.\n  class C < E #:nodoc:\n  end\nend\n";
    let a = analyze(Lang::Ruby, rb);
    assert_eq!(
        sym(&a, "Object.blank?").doc.as_deref(),
        Some("Doc of blank.")
    );
    assert_eq!(sym(&a, "M.C").doc.as_deref(), Some("Doc of C."));
    assert_eq!(&*sym(&a, "M.C").signature, "class C < E");
    assert_eq!(sym(&a, "Object").doc.as_deref(), None);
    // A comment within the first line stays in the signature.
    let java = "class A {\n  public /*final*/ byte tag;\n}\n";
    let a = analyze(Lang::Java, java);
    assert_eq!(&*sym(&a, "A.tag").signature, "public /*final*/ byte tag;");
    let py = "class A:\n    # Doc of f.\n    def f(self): pass\n\n    def g(self):\n        # not g's doc: the body's first line\n        return 1\n";
    let a = analyze(Lang::Python, py);
    assert_eq!(sym(&a, "A.f").doc.as_deref(), Some("Doc of f."));
    assert_eq!(sym(&a, "A.g").doc.as_deref(), None);
}

#[test]
fn go_and_rust_blank_names_declare_nothing() {
    let go = "package p\n\ntype T struct {\n\t_ noCopy\n\tv int\n}\n\nvar _ R = (*T)(nil)\n\nfunc _() {\n\tvar x [1]struct{}\n\t_ = x[A-1]\n}\n";
    let a = analyze(Lang::Go, go);
    let names: Vec<&str> = a.symbols.iter().map(|s| &*s.qualified_name).collect();
    assert_eq!(names, vec!["T", "T.v"]);
    // What they use is still used, by the file.
    assert!(a.edges.iter().any(|e| &*e.target_name == "noCopy"));
    assert!(
        a.edges
            .iter()
            .any(|e| &*e.target_name == "R" && e.source.is_none())
    );
    let rs = "const _: () = assert!(A < B);\nconst C: u8 = 1;\n";
    let a = analyze(Lang::Rust, rs);
    let names: Vec<&str> = a.symbols.iter().map(|s| &*s.qualified_name).collect();
    assert_eq!(names, vec!["C"]);
}

/// Ruby: modules mixed in (`include`, `extend`, `prepend` naming constants) are inherits edges
/// of the class, beside its superclass, not calls to `include`; their constants are no
/// references. `include` of anything else (a file list's `include "*.rb"`) stays a call.
#[test]
fn ruby_mixins_are_heritage() {
    let src = "class Robot < Base\n  include Walkable, Sensors::Eyes\n  extend Forwardable\n  prepend Logging\n  include \"*.rb\"\n  extend self\nend\n";
    let a = analyze(Lang::Ruby, src);
    let inherits: Vec<_> = edges_of(&a, EdgeKind::Inherits)
        .map(|e| {
            (
                e.source.as_deref(),
                &*e.target_name,
                e.qualifier.as_deref(),
                e.line,
            )
        })
        .collect();
    assert_eq!(
        inherits,
        vec![
            (Some("Robot"), "Base", None, 1),
            (Some("Robot"), "Walkable", None, 2),
            (Some("Robot"), "Eyes", Some("Sensors"), 2),
            (Some("Robot"), "Forwardable", None, 3),
            (Some("Robot"), "Logging", None, 4),
        ]
    );
    let calls: Vec<_> = edges_of(&a, EdgeKind::Calls)
        .map(|e| (&*e.target_name, e.line))
        .collect();
    assert_eq!(calls, vec![("include", 5), ("extend", 6)]);
    let references: Vec<_> = edges_of(&a, EdgeKind::References)
        .map(|e| &*e.target_name)
        .collect();
    assert!(references.is_empty(), "{references:?}");
}

#[test]
fn whitespace_collapses_as_split_and_joined() {
    // What `collapse_whitespace` returned before it was one pass: the words, one space apart.
    let reference = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "",
        " ",
        "a",
        "a b",
        " a",
        "a ",
        "a  b",
        "a\tb",
        "a\n  .b()\n  .c()",
        "x\u{a0}y",
        "\u{3000}a",
        "é  ü",
    ] {
        assert_eq!(collapse_whitespace(s), reference(s), "{s:?}");
        // Already collapsed: borrowed.
        let r = reference(s);
        assert!(
            matches!(collapse_whitespace(&r), std::borrow::Cow::Borrowed(_)),
            "{r:?}"
        );
    }
    // Bounded: whole when it fits, else a prefix of the whole longer than the bound.
    let long = "a\n    .bb(x)\n    .ccc(y, z)\n    .dddd()".repeat(20);
    let whole = reference(&long);
    for max in [0, 1, 5, 40, 200, whole.len() - 1, whole.len(), usize::MAX] {
        let cut = collapse_whitespace_within(&long, max);
        if whole.len() <= max {
            assert_eq!(cut, whole);
        } else {
            assert!(
                cut.len() > max && whole.starts_with(&*cut),
                "{max}: {cut:?}"
            );
        }
    }
}
