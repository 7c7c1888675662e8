//! Tests of what declarations and call chains tell of types.

use super::*;

#[test]
fn return_types_are_read_from_each_languages_signatures() {
    let cases = [
        (
            "pub fn new(width: f64, height: f64) -> Self",
            "new",
            Some("Self"),
        ),
        (
            "fn load(p: &Path) -> Result<Config, Error>",
            "load",
            Some("Result<Config, Error>"),
        ),
        (
            "fn iter<'a>(&'a self) -> impl Iterator<Item = &'a T> + 'a",
            "iter",
            Some("impl Iterator<Item = &'a T> + 'a"),
        ),
        (
            "fn get<T: Into<String>>(&self, k: T) -> Option<&Entry> where T: Clone",
            "get",
            Some("Option<&Entry>"),
        ),
        ("fn area(&self) -> f64", "area", None),
        ("fn run(&mut self)", "run", None),
        (
            "def build(self, x) -> \"Engine\"",
            "build",
            Some("\"Engine\""),
        ),
        ("def area(self)", "area", None),
        (
            "find(id: string): User | undefined",
            "find",
            Some("User | undefined"),
        ),
        ("async load(): Promise<User>", "load", Some("Promise<User>")),
        ("function internalHelper(): number", "internalHelper", None),
        ("public function repo(): ?Repo", "repo", Some("?Repo")),
        (
            "func NewServer(name string) *Server",
            "NewServer",
            Some("*Server"),
        ),
        (
            "func (s *Server) Open() (*Conn, error)",
            "Open",
            Some("(*Conn, error)"),
        ),
        ("Handle(path string) string", "Handle", None),
        ("func (s *Server) Close()", "Close", None),
        ("func (z *Int) Mul(x, y *Int) *Int", "Mul", Some("*Int")),
        ("public static <T> List<T> of(T x)", "of", Some("List<T>")),
        (
            "@Override public Builder name(String n)",
            "name",
            Some("Builder"),
        ),
        ("public Animal(String name)", "Animal", None),
        (
            "public async Task<User> GetAsync(int id)",
            "GetAsync",
            Some("Task<User>"),
        ),
        ("private string Fallback(int id)", "Fallback", None),
        (
            "struct arena_s *arena_get(tsd_t *tsd, unsigned ind)",
            "arena_get",
            Some("arena_s"),
        ),
        ("static int clamp(int v, int lo, int hi)", "clamp", None),
        (
            "std::string Shape::name() const",
            "name",
            Some("std::string"),
        ),
        ("Builder& Builder::with(int x)", "with", Some("Builder")),
        ("explicit Square(double side) : side_(side)", "Square", None),
        ("Square::~Square()", "Square", None),
        ("auto make() -> Widget", "make", Some("Widget")),
        (
            "fn very_long(a: u32, b: u32, c: u32, d: u…",
            "very_long",
            None,
        ),
    ];
    for (sig, name, want) in cases {
        assert_eq!(declared_return(sig, name), want, "{sig}");
    }
}

#[test]
fn calls_on_calls_name_the_inner_call() {
    let c = |q| chained(q);
    let call = |qualifier, name, unwrap| {
        Some(Chained {
            qualifier,
            name,
            unwrap,
            new: false,
        })
    };
    assert_eq!(c("a.b()"), call(Some("a"), "b", false));
    assert_eq!(c("Config::load(p)?"), call(Some("Config"), "load", true));
    assert_eq!(
        c("a.b(x.y()).c(1, 2)"),
        call(Some("a.b(x.y())"), "c", false)
    );
    assert_eq!(
        c("client.get(url).send().await?"),
        call(Some("client.get(url)"), "send", true)
    );
    assert_eq!(c("a.b().unwrap()"), call(Some("a"), "b", true));
    assert_eq!(c("a.b().expect(\"x\")"), call(Some("a"), "b", true));
    assert_eq!(
        c("iter.collect::<Vec<_>>()"),
        call(Some("iter"), "collect", false)
    );
    assert_eq!(c("builder()"), call(None, "builder", false));
    assert_eq!(c("await repo.load(id)"), call(Some("repo"), "load", true));
    assert_eq!(
        c("this.repo?.find(id)!"),
        call(Some("this.repo?"), "find", false)
    );
    assert_eq!(
        c("Config::load(p)?.check()"),
        call(Some("Config::load(p)?"), "check", false)
    );
    assert_eq!(c("p->next()"), call(Some("p"), "next", false));
    assert_eq!(
        c("new Foo(1)"),
        Some(Chained {
            qualifier: None,
            name: "Foo",
            unwrap: false,
            new: true
        })
    );
    let go_made = |name| {
        Some(Chained {
            qualifier: None,
            name,
            unwrap: false,
            new: true,
        })
    };
    assert_eq!(go_new("new(big.Int)"), go_made("big.Int"));
    assert_eq!(go_new("new(histogram)"), go_made("histogram"));
    assert_eq!(go_new("new([]int)"), None);
    for (sig, name, want) in [
        ("Ctxt *obj.Link", "Ctxt", Some("obj.Link")),
        ("mu = sync.Mutex{}", "mu", Some("sync.Mutex")),
        (
            "CommandLine = NewFlagSet(os.Args[0], ExitOnError)",
            "CommandLine",
            Some("FlagSet"),
        ),
        ("std = log.New(os.Stderr, \"\", 0)", "std", None),
        ("p = &Pool{n: 1}", "p", Some("Pool")),
        ("b = new(bytes.Buffer)", "b", Some("bytes.Buffer")),
        ("n int = 3", "n", Some("int")),
        ("names = []string{}", "names", None),
        ("Syms struct", "Syms", None),
        ("hooks map[string]Hook", "hooks", None),
        ("f = fmt.Sprintf", "f", None),
    ] {
        assert_eq!(go_var_type(sig, name).as_deref(), want, "{sig}");
    }
    for (sig, name, want) in [
        ("_inst = Random()", "_inst", Some("Random()")),
        (
            "app = web.Application(debug=True)",
            "app",
            Some("web.Application()"),
        ),
        (
            "logger = logging.getLogger(__name__)",
            "logger",
            Some("logging.getLogger()"),
        ),
        ("sep = '/'", "sep", None),
        ("x = y = Foo()", "x", None),
        ("items = [Foo()]", "items", None),
        ("g = (lambda: 1)()", "g", None),
    ] {
        assert_eq!(call_type(sig, name).as_deref(), want, "{sig}");
    }
    assert_eq!(go_new("newer(x)"), None);
    for other in [
        "a",
        "a.b",
        "as_array!(v, 2)",
        "(a ^ b)",
        "x[0]",
        "\"s\".len()…",
        "a.b(…",
        // An arrow's `>` opens nothing (C++'s `operator->`).
        "a<b>->operator->()",
    ] {
        assert_eq!(c(other), None, "{other}");
    }
}

#[test]
fn results_are_unwrapped_and_dereferenced() {
    use Returned::*;
    assert_eq!(returned("Self", false), Some(Own));
    assert_eq!(returned("&mut Self", false), Some(Own));
    assert_eq!(
        returned("Result<Config, Error>", true),
        Some(Type("Config"))
    );
    assert_eq!(
        returned("Result<Config, Error>", false),
        Some(Type("Result"))
    );
    assert_eq!(returned("io::Result<Box<Conn>>", true), Some(Type("Conn")));
    assert_eq!(
        returned("Option<&'a mut Node<T>>", true),
        Some(Type("Node"))
    );
    assert_eq!(returned("Arc<Mutex<State>>", false), Some(Type("Mutex")));
    assert_eq!(
        returned("MutexGuard<'_, State>", false),
        Some(Type("State"))
    );
    assert_eq!(returned("Promise<User>", true), Some(Type("User")));
    assert_eq!(returned("User | undefined", false), Some(Type("User")));
    assert_eq!(returned("(*Conn, error)", false), Some(Type("Conn")));
    assert_eq!(returned("(c *Conn, err error)", false), Some(Type("Conn")));
    assert_eq!(returned("*sql.DB", false), Some(Type("sql.DB")));
    assert_eq!(returned("\"Engine\"", false), Some(Type("Engine")));
    assert_eq!(returned("Self::Item", false), None);
    assert_eq!(returned("struct arena_s", false), Some(Type("arena_s")));
    assert_eq!(returned("?Repo", false), Some(Type("Repo")));
    for useful in [
        "Self",
        "Result<()>",
        "Box<dyn Conn>",
        "*Server",
        "Promise<User>",
    ] {
        assert!(kept(useful), "{useful}");
    }
    for useless in ["Self::Output", "T"] {
        assert!(!kept(useless), "{useless}");
    }
}

#[test]
fn field_types_are_read_from_each_languages_signatures() {
    let cases = [
        // Rust, TypeScript, Python's annotations.
        ("pub(crate) items: Vec<Item>", "items", Some("Vec<Item>")),
        (
            "page_extras: &'data [U16<E>]",
            "page_extras",
            Some("&'data [U16<E>]"),
        ),
        (
            "tokenCache?: Map<string, Node>",
            "tokenCache",
            Some("Map<string, Node>"),
        ),
        (
            "private users: Map<UserId, User> = new Map()",
            "users",
            Some("Map<UserId, User>"),
        ),
        ("width: f64", "width", None),
        ("readonly focused: boolean", "focused", None),
        // Go.
        ("Args []*Value", "Args", Some("[]*Value")),
        ("Name string `json:\"name\"`", "Name", None),
        ("R, G, B, A uint16", "G", None),
        ("prev, next *Node", "prev", Some("*Node")),
        ("*Block", "Block", Some("*Block")),
        ("sync.Mutex", "Mutex", Some("sync.Mutex")),
        (
            "routes map[string]*Route",
            "routes",
            Some("map[string]*Route"),
        ),
        // Java, C#, C, C++, PHP.
        (
            "private final List<Item> items;",
            "items",
            Some("List<Item>"),
        ),
        ("@Nullable protected Node next;", "next", Some("Node")),
        (
            "[JsonIgnore] public Repo Repo { get; set; }",
            "Repo",
            Some("Repo"),
        ),
        (
            "private readonly Dictionary<int, Shape> shapes = new Dictionary<int, Shape>();",
            "shapes",
            Some("Dictionary<int, Shape>"),
        ),
        ("struct node *next;", "next", Some("struct node *")),
        ("Point corners[4];", "corners", Some("Point[]")),
        ("double side_;", "side_", None),
        ("private ?Parser $parser;", "parser", Some("?Parser")),
        ("private $patch;", "patch", None),
        // A value that constructs a class.
        ("self._state = State()", "_state", Some("State")),
        (
            "this.repo = new repo.Repository(db)",
            "repo",
            Some("repo.Repository"),
        ),
        ("self.size = size", "size", None),
        ("self.data = {}", "data", None),
        ("DomainRFC2965Match = 4", "DomainRFC2965Match", None),
        ("this.size = size", "size", None),
        ("attr_accessor :name", "name", None),
    ];
    for (signature, name, want) in cases {
        assert_eq!(field_type(signature, name).as_deref(), want, "{signature}");
    }
}

#[test]
fn php_docblocks_type_properties() {
    let cases = [
        ("@var Parser", Some("Parser")),
        (
            "The parser.\n@var \\PhpParser\\Parser the one in use",
            Some("\\PhpParser\\Parser"),
        ),
        ("@var Node[]", Some("Node[]")),
        ("@var ?Lexer", Some("Lexer")),
        ("@var null|Lexer", Some("Lexer")),
        ("@var bool", None),
        ("@var array Array of pairs.", None),
        ("@var int[]", None),
        ("@var array<string, Node>", Some("Node[]")),
        ("@var list<Node>", Some("Node[]")),
        ("@var array<string, mixed>", None),
        ("@var Collection<int, Node>", None),
        ("Filters to apply.", None),
    ];
    for (doc, want) in cases {
        assert_eq!(doc_var_type(doc).as_deref(), want, "{doc}");
    }
}

#[test]
fn indexing_reads_a_containers_element() {
    let cases = [
        ("[]*Value", Some("*Value")),
        ("[3]*Value", Some("*Value")),
        ("map[string]*Route", Some("*Route")),
        ("*[]T", Some("T")),
        ("&'data [U16<E>]", Some("U16<E>")),
        ("[Point; 4]", Some("Point")),
        ("Vec<Item>", Some("Item")),
        ("std::vec::Vec<Item>", Some("Item")),
        ("SmallVec<[Span; 4]>", Some("Span")),
        ("Box<[Entry]>", Some("Entry")),
        ("Arc<Vec<Entry>>", Some("Entry")),
        ("MutexGuard<'_, Vec<Entry>>", Some("Entry")),
        ("HashMap<String, Vec<Rule>>", Some("Vec<Rule>")),
        ("Item[]", Some("Item")),
        ("List<Item>", Some("Item")),
        ("list[Item]", Some("Item")),
        ("dict[str, Handler]", Some("Handler")),
        ("Record<string, Shape>", Some("Shape")),
        ("std::vector<Point>", Some("Point")),
        ("Point[]", Some("Point")),
        ("Item", None),
        ("Map<string, Node>", None),
        ("Option<Vec<T>>", None),
    ];
    for (raw, want) in cases {
        assert_eq!(element(raw), want, "{raw}");
    }
}

#[test]
fn receivers_that_read_a_field_are_told() {
    let read = |of, field, indexed| Some(FieldRead { of, field, indexed });
    assert_eq!(field_read("v.Args[0]"), read("v", "Args", true));
    assert_eq!(field_read("v.Args[len(v.Args)-1]"), read("v", "Args", true));
    assert_eq!(field_read("self.config"), read("self", "config", false));
    assert_eq!(field_read("$this->repo"), read("$this", "repo", false));
    assert_eq!(field_read("p->next"), read("p", "next", false));
    assert_eq!(field_read("v.Block.Stack"), read("v.Block", "Stack", false));
    for other in [
        "v",
        "f().x",
        "a[1].x",
        "x[0]",
        "a.b[0][1]",
        "a.0",
        "\"s\".len",
        "",
    ] {
        assert_eq!(field_read(other), None, "{other}");
    }
}

/// Any cut of real signatures and receivers (every prefix and suffix at a character
/// boundary) is read without a panic: unbalanced brackets, arrows, non-ASCII names.
#[test]
fn no_text_panics() {
    let texts = [
        "pub fn new<'a, T: Fn() -> U>(x: &'a [u8]) -> Result<Box<dyn Fn() -> T>, Érreur>",
        "a<b>->operator->()?.c::<Vec<_>>().await?.d(\"é)\")!",
        "std::vector<int> Foo<T>::~Foo() const -> decltype(x)",
        "func (s *Server) Open() (c *Conn, err error)",
        "new Ünï(1).b(",
        ")(>)<-<]",
        "[Obsolete(\"x\")] @Col(n = 1) private static final Map<K, V> items[4] = new Ü();",
        "R, G, B `json:\"x\"` map[[2]int][]*x.T",
        "self.x = $this->items[map[1]]",
        "Ünï @var array<string, list<?Ñode>>|null $x <<>",
    ];
    for t in texts {
        let cuts = t.char_indices().map(|(i, _)| i).chain([t.len()]);
        for at in cuts {
            for part in [&t[..at], &t[at..]] {
                let _ = chained(part);
                let _ = returned(part, true);
                let _ = returned(part, false);
                let _ = kept(part);
                let _ = element(part);
                let _ = field_read(part);
                let _ = doc_var_type(part);
                for name in ["new", "Open", "Foo", "b", "d", "x", "items"] {
                    let _ = declared_return(part, name);
                    let _ = field_type(part, name);
                }
            }
        }
    }
}
