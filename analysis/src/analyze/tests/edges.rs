//! Edges: calls, references, imports and heritage, with receivers and their types.

use super::*;

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
