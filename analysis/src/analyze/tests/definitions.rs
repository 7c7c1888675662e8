//! Definitions: kinds, qualified names, fields and constants per language.

use super::*;

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

#[test]
fn javascript_functions_assigned_to_module_level_objects() {
    let a = analyze(Lang::JavaScript, include_str!("fixtures/assigned.js"));
    let functions: Vec<_> = kinds(&a)
        .into_iter()
        .filter(|(_, k)| matches!(*k, "function" | "method"))
        .map(|(q, _)| q)
        .collect();
    assert_eq!(
        functions,
        [
            "reply.send",
            "reply.json",
            "app.use",
            "utils.path.join",
            "listen",
            "setup",
            "$store.commit",
        ]
    );
    assert_eq!(sym(&a, "reply.send").doc.as_deref(), Some("Send a body."));
    assert!(has_edge(&a, EdgeKind::Calls, "reply.json", "send"));
}

#[test]
fn rust_items_inside_item_macros_are_items() {
    let src = include_str!("fixtures/wrapped.rs");
    let a = analyze(Lang::Rust, src);
    let names: Vec<_> = kinds(&a).into_iter().map(|(q, _)| q).collect();
    for q in [
        "TcpStream",
        "TcpStream.inner",
        "TcpStream.connect",
        "spawn_on",
        "Sleep",
        "Sleep.entry",
        "Sleep.reset",
        "body",
        // `lazy_static!`'s `static ref` parses as the static it defines.
        "TABLE",
    ] {
        assert!(names.contains(&q), "{q} missing from {names:?}");
    }
    // A body that is no items (`bitflags!`'s `struct Ready: u8`) keeps its wrapper.
    assert!(
        !names
            .iter()
            .any(|q| q.contains("READABLE") || q.contains("Ready"))
    );
    let sleep = sym(&a, "Sleep");
    assert_eq!(
        &src[..]
            .lines()
            .nth(sleep.start_line as usize - 1)
            .unwrap()
            .trim(),
        &"pub struct Sleep {"
    );
    assert_eq!(sym(&a, "TcpStream").doc.as_deref(), Some("A TCP stream."));
    assert!(has_edge(&a, EdgeKind::Calls, "TcpStream.connect", "len"));
}

#[test]
fn names_keep_a_leading_dollar_but_in_php() {
    let a = analyze(
        Lang::TypeScript,
        "export function $constructor() {}\nexport class $ZodMemoizer {}\n",
    );
    assert_eq!(qnames(&a, "function"), ["$constructor"]);
    assert_eq!(qnames(&a, "class"), ["$ZodMemoizer"]);
    let php = analyze(Lang::Php, "<?php\nclass User {\n    public $name;\n}\n");
    assert_eq!(qnames(&php, "field"), ["User.name"]);
}

#[test]
fn bundler_annotations_are_no_doc() {
    let src = "/* @__NO_SIDE_EFFECTS__ */\nexport function make() {}\n/** Makes. */\n/* @__PURE__ */\nexport function other() {}\n";
    assert_eq!(doc_of(Lang::TypeScript, src, "make"), None);
    assert_eq!(
        doc_of(Lang::TypeScript, src, "other").as_deref(),
        Some("Makes.")
    );
}

#[test]
fn rust_associated_types_are_type_aliases() {
    let src = "pub trait Decoder {\n    type Item;\n    type Error: From<u8>;\n    fn decode(&mut self) -> Self::Item;\n}\n";
    let a = analyze(Lang::Rust, src);
    assert_eq!(qnames(&a, "type_alias"), ["Decoder.Item", "Decoder.Error"]);
}
