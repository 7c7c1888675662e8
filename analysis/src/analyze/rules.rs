//! Per-language knowledge: which nodes define symbols, what they are called, which nodes are
//! calls, heritage, imports and references. Everything grammar-specific lives here so the
//! walker in `analyze.rs` stays language-neutral.

use tree_sitter::Node;

use super::kind_of;

use super::EdgeKind;
use crate::lang::Lang;

/// Symbol kinds whose bodies hold members (functions inside them become methods).
pub const TYPE_KINDS: &[&str] = &["class", "struct", "interface", "trait", "enum", "impl"];

fn field<'t>(n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    super::field_of(n, name)
}

/// The kind of a node's parent, asked of the tree (for nodes off the walker's path).
fn parent_kind(n: Node) -> &'static str {
    n.parent().map(|p| kind_of(p)).unwrap_or("")
}

/// The ancestors of the node being visited, root first and ending with the node itself, and
/// their siblings. The walker knows them; `Node::parent` searches down from the root on every
/// call (5 % of analysis on the registry), and `Node::prev_sibling` asks for the parent and
/// then goes through its children (quadratic in a file's top-level items for doc comments).
#[derive(Clone, Copy)]
pub struct Up<'a, 't> {
    path: &'a Path<'t>,
}

/// Where a depth-first walk is: the path from the root to the node entered last, and every
/// child (named or not) of each node on it. [`Path::up`] answers the rules from it.
#[derive(Default)]
pub struct Path<'t> {
    nodes: Vec<Node<'t>>,
    /// Where each path node is in `siblings` (the root: 0, it has none).
    at: Vec<usize>,
    /// Where each path node's run of children starts in `siblings`.
    runs: Vec<usize>,
    siblings: Vec<Node<'t>>,
}

impl<'t> Path<'t> {
    /// Enter `node`, at `depth`, found at `place` in [`Self::siblings`] (its parent's run);
    /// nodes must be entered in document order. Lists its children when `list` (none
    /// otherwise); returns where they are.
    pub fn enter(
        &mut self,
        node: Node<'t>,
        depth: usize,
        place: usize,
        list: bool,
    ) -> std::ops::Range<usize> {
        self.nodes.truncate(depth);
        self.nodes.push(node);
        self.at.truncate(depth);
        self.at.push(place);
        // The runs of nodes entered at this depth or deeper before are finished with.
        if let Some(&end) = self.runs.get(depth) {
            self.siblings.truncate(end);
        }
        self.runs.truncate(depth);
        let run = self.siblings.len();
        self.runs.push(run);
        if list {
            // One pass over the children (tree-sitter's `ts_node_children`, patched in): each
            // `child(i)` walks the children from the first, and a cursor's step re-derives its
            // parent's iterator and moves twice (~500 instructions a step).
            node.append_children(&mut self.siblings);
        }
        run..self.siblings.len()
    }

    /// The path, root first, ending with the node entered last.
    pub fn nodes(&self) -> &[Node<'t>] {
        &self.nodes
    }

    /// The children of the path's nodes; [`Self::enter`] says where each node's are.
    pub fn siblings(&self) -> &[Node<'t>] {
        &self.siblings
    }

    /// What the rules ask of the walk: parents and earlier siblings of the path's nodes.
    pub fn up(&self) -> Up<'_, 't> {
        Up { path: self }
    }
}

impl<'a, 't> Up<'a, 't> {
    /// The siblings before `n`, nearest first (named or not), as `Node::prev_sibling`
    /// repeated would give them: from the walker's runs when `n` is on the path.
    pub fn prev_siblings(self, n: Node<'t>) -> impl Iterator<Item = Node<'t>> + 'a {
        let p = self.path;
        let known = match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(0) => Some(&[][..]),
            Some(i) => Some(&p.siblings[p.runs[i - 1]..p.at[i]]),
            None => None,
        };
        let asked = known.is_none().then_some(n);
        known
            .into_iter()
            .flat_map(|run| run.iter().rev().copied())
            .chain(std::iter::successors(
                asked.and_then(|n| n.prev_sibling()),
                |p| p.prev_sibling(),
            ))
    }

    /// The siblings after `n` (named or not), nearest first, when `n` is on the path (the
    /// walker lists each path node's children); none otherwise.
    pub fn next_siblings(self, n: Node<'t>) -> &'a [Node<'t>] {
        let p = self.path;
        match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(i) if i > 0 => p.siblings.get(p.at[i] + 1..p.runs[i]).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The parent of `n`: answered from the path when `n` is on it or a child of a node on
    /// it (the visited node's children mostly: the rules look at what they are about to
    /// resolve), else asked of the tree (`Node::parent` searches down from the root: ~10 000
    /// instructions a call on the registry's files).
    pub fn parent(self, n: Node<'t>) -> Option<Node<'t>> {
        let p = self.path;
        match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(0) => None,
            Some(i) => Some(p.nodes[i - 1]),
            None => match p.siblings.iter().rposition(|s| s.id() == n.id()) {
                // The run it is in is that of the last path node whose run starts at or
                // before it (a node without children has an empty run).
                Some(j) => Some(p.nodes[p.runs.partition_point(|&r| r <= j) - 1]),
                None => n.parent(),
            },
        }
    }

    fn parent_kind(self, n: Node<'t>) -> &'static str {
        self.parent(n).map(|p| kind_of(p)).unwrap_or("")
    }
}

/// Whether nothing under a node of kind `k` is a definition, call, heritage, import,
/// reference or complexity increment, so the walk need not enter it: comments, Rust's
/// string literals (no interpolation) and macro token trees (unparsed tokens).
pub fn opaque(lang: Lang, k: &str) -> bool {
    match lang {
        Lang::Rust => matches!(
            k,
            "token_tree"
                | "line_comment"
                | "block_comment"
                | "string_literal"
                | "raw_string_literal"
        ),
        _ => k == "comment",
    }
}

/// Whether `n` is Python's `self.name = …` (annotated or not) in a method of a class, or
/// JavaScript's `this.name = …` in a class's method (arrow functions there included): how
/// instance attributes are declared (in `__init__` or a constructor mostly, `setUp` in
/// tests), as type checkers read them. The symbol is the class's field (`Cls.name`), not the
/// method's, made once per name, at its first assignment; the walk keeps the method as the
/// scope of what the assignment contains (its calls are the method's).
pub fn instance_attribute<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, src: &str) -> bool {
    let (member, object, method, body) = match (lang, kind_of(n)) {
        (Lang::Python, "assignment") => ("attribute", "self", "function_definition", "block"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => (
            "member_expression",
            "this",
            "method_definition",
            "class_body",
        ),
        _ => return false,
    };
    let Some(left) = field(n, "left").filter(|l| kind_of(*l) == member) else {
        return false;
    };
    let on_instance =
        field(left, "object").is_some_and(|o| src.get(o.byte_range()) == Some(object));
    if !on_instance || up.parent_kind(n) != "expression_statement" {
        return false;
    }
    // The nearest enclosing function is a method, directly in a class body.
    let mut p = up.parent(n);
    while let Some(x) = p {
        let k = kind_of(x);
        if k == method {
            return match up.parent(x) {
                Some(d) if kind_of(d) == "decorated_definition" => up.parent(d),
                other => other,
            }
            .filter(|b| kind_of(*b) == body)
            .is_some_and(|b| {
                lang != Lang::Python
                    || up
                        .parent(b)
                        .is_some_and(|c| kind_of(c) == "class_definition")
            });
        }
        // Another function or class in between: its own `self`/`this`, or not a method's.
        if matches!(
            k,
            "class_definition"
                | "lambda"
                | "class_declaration"
                | "class"
                | "function_declaration"
                | "function_expression"
                | "function"
                | "generator_function"
                | "generator_function_declaration"
        ) {
            return false;
        }
        p = up.parent(x);
    }
    false
}

/// Whether a JavaScript/TypeScript variable is declared at the top of its module.
fn js_module_level<'t>(up: Up<'_, 't>, declarator: Node<'t>) -> bool {
    let Some(decl) = up
        .parent(declarator)
        .filter(|d| matches!(kind_of(*d), "lexical_declaration" | "variable_declaration"))
    else {
        return false;
    };
    match up.parent(decl).map(|p| (kind_of(p), p)) {
        Some(("program", _)) => true,
        Some(("export_statement", e)) => up.parent_kind(e) == "program",
        _ => false,
    }
}

/// A `const` declarator with a plain name at the top of a module, whose value is not a
/// `require(…)` call.
fn js_module_constant<'t>(up: Up<'_, 't>, declarator: Node<'t>, value: Node, src: &str) -> bool {
    let is_const = up
        .parent(declarator)
        .and_then(|d| field(d, "kind"))
        .is_some_and(|k| kind_of(k) == "const");
    let named = field(declarator, "name").is_some_and(|n| kind_of(n) == "identifier");
    let required = kind_of(value) == "call_expression"
        && field(value, "function")
            .and_then(|f| src.get(f.byte_range()))
            .is_some_and(|f| f == "require");
    is_const && named && !required && js_module_level(up, declarator)
}

/// For `X.prototype.m = function …` the type `X` (`Some("X")`); for `exports.m = …` and
/// `module.exports.m = …` nothing to qualify it (`Some("")`); `None` for other assignments.
fn js_assigned_owner<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    let left = field(n, "left").filter(|l| kind_of(*l) == "member_expression")?;
    field(left, "property").filter(|p| kind_of(*p) == "property_identifier")?;
    let object = src.get(field(left, "object")?.byte_range())?;
    match object {
        "exports" | "module.exports" => Some(""),
        o => {
            let owner = o.strip_suffix(".prototype")?;
            let owner = owner.rsplit('.').next().unwrap_or(owner);
            (!owner.is_empty() && !owner.contains(['(', '[', ' '])).then_some(owner)
        }
    }
}

/// JavaScript/TypeScript expressions whose value is a function, making the variable or class
/// field they initialise one.
const JS_FUNCTION_VALUES: &[&str] = &[
    "arrow_function",
    "function_expression",
    "function",
    "generator_function",
];

/// A JavaScript or TypeScript value without what only types or groups it: `class {…}` of
/// `class {…} as any`, `(x) => x` of `((x) => x) satisfies F`, `v` of `(v)!`.
fn js_unwrapped(mut value: Node) -> Node {
    for _ in 0..8 {
        match kind_of(value) {
            "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "parenthesized_expression" => match value.named_child(0) {
                Some(inner) => value = inner,
                None => break,
            },
            _ => break,
        }
    }
    value
}

fn named_children(n: Node) -> Vec<Node> {
    // One pass over the children (a cursor allocates, and its steps cost ~500 instructions).
    let mut all = Vec::new();
    n.append_children(&mut all);
    all.retain(|c| c.is_named());
    all
}

/// The symbol kind a node defines, if any.
pub fn def_kind<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    let k = kind_of(n);
    Some(match lang {
        Lang::Rust => match k {
            "function_item" | "function_signature_item" => "function",
            "struct_item" | "union_item" => "struct",
            "enum_item" => "enum",
            "trait_item" => "trait",
            "mod_item" => "module",
            "const_item" | "static_item" => "constant",
            "type_item" => "type_alias",
            "macro_definition" => "macro",
            "field_declaration" => "field",
            "enum_variant" => "variant",
            _ => return None,
        },
        Lang::Python => match k {
            "function_definition" => "function",
            "class_definition" => "class",
            // `self.name = …` in `__init__`: an attribute of the instance, a field of the
            // class (see [`instance_attribute`]).
            "assignment" if instance_attribute(lang, up, n, src) => "field",
            "assignment" if up.parent_kind(n) == "expression_statement" => {
                let left = field(n, "left").filter(|l| kind_of(*l) == "identifier")?;
                let name = src.get(left.byte_range())?;
                let constant = name.len() > 1
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                let statement = up.parent(n)?;
                match up.parent_kind(statement) {
                    "module" if constant => "constant",
                    // `logger = logging.getLogger(…)`, `sep = '/'`, `app = Flask(…)`: what
                    // `os.sep` or `from app import app` names (not search units).
                    "module" => "variable",
                    // A class body's `name: str = ""` (dataclasses, models) or `TABLE = …`.
                    "block"
                        if up
                            .parent(statement)
                            .and_then(|b| up.parent(b))
                            .is_some_and(|c| kind_of(c) == "class_definition") =>
                    {
                        if constant {
                            "constant"
                        } else {
                            "field"
                        }
                    }
                    _ => return None,
                }
            }
            _ => return None,
        },
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => match k {
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                "function"
            }
            "class_declaration" | "abstract_class_declaration" => "class",
            // A named class expression (`module.exports = class Minipass extends Stream {…}`,
            // `exports.Parser = class Parser {…}`) is its class; as a declared value (`const
            // Foo = class Bar {…}`) the declarator names it.
            "class" if field(n, "name").is_some() && up.parent_kind(n) != "variable_declarator" => {
                "class"
            }
            // An object literal's `get(url) {…}` is a function (a class's, a method).
            "method_definition" if up.parent_kind(n) == "object" => "function",
            "method_definition" | "method_signature" | "abstract_method_signature" => "method",
            "interface_declaration" => "interface",
            "type_alias_declaration" => "type_alias",
            "enum_declaration" => "enum",
            "internal_module" | "module" => "module",
            // `handle = (e) => {…}` in a class body is a method bound to the instance.
            "public_field_definition" | "field_definition" => {
                match field(n, "value").map(kind_of) {
                    Some(v) if JS_FUNCTION_VALUES.contains(&v) => "function",
                    _ => "field",
                }
            }
            "property_signature" => "field",
            // `constructor(private db: Db)`: a field of the class (see
            // [`parameter_property`]).
            "required_parameter" | "optional_parameter" if parameter_property(up, n, src) => {
                "field"
            }
            "variable_declarator" => {
                let value = js_unwrapped(field(n, "value")?);
                match kind_of(value) {
                    v if JS_FUNCTION_VALUES.contains(&v) => "function",
                    "class" => "class",
                    // `const api = { get(url) {…}, … }` at the top of a module: its functions
                    // are `api.get`.
                    "object" if js_module_level(up, n) => "variable",
                    // `export const sep = '/'`, `const LIMIT = 10` at the top of a module
                    // (not `const fs = require('fs')`: that is an import).
                    _ if js_module_constant(up, n, value, src) => "constant",
                    _ => return None,
                }
            }
            // `{ post: function (url) {…}, del: (url) => … }`
            "pair"
                if field(n, "key").is_some_and(|k| kind_of(k) == "property_identifier")
                    && field(n, "value")
                        .is_some_and(|v| JS_FUNCTION_VALUES.contains(&kind_of(v))) =>
            {
                "function"
            }
            // `this.name = …` in a class's constructor (see [`instance_attribute`]).
            "assignment_expression" if instance_attribute(lang, up, n, src) => "field",
            // `exports.run = function …`, `Foo.prototype.bar = function …`
            "assignment_expression" => {
                let right = field(n, "right")?;
                if !JS_FUNCTION_VALUES.contains(&kind_of(right)) {
                    return None;
                }
                js_assigned_owner(n, src)?;
                "function"
            }
            _ => return None,
        },
        Lang::Go => match k {
            "function_declaration" => "function",
            "method_declaration" | "method_elem" | "method_spec" => "method",
            "type_spec" => match field(n, "type").map(kind_of) {
                Some("struct_type") => "struct",
                Some("interface_type") => "interface",
                _ => "type_alias",
            },
            "type_alias" => "type_alias",
            "const_spec" => "constant",
            // Package-level `var ErrX = …` (not a function's locals).
            "var_spec"
                if up.parent(n).is_some_and(|d| {
                    let d = if kind_of(d) == "var_spec_list" {
                        up.parent(d)
                    } else {
                        Some(d)
                    };
                    d.and_then(|d| up.parent(d))
                        .is_some_and(|f| kind_of(f) == "source_file")
                }) =>
            {
                "variable"
            }
            "field_declaration" if field(n, "name").is_some() => "field",
            _ => return None,
        },
        Lang::Java => match k {
            "class_declaration" | "record_declaration" => "class",
            "interface_declaration" | "annotation_type_declaration" => "interface",
            "enum_declaration" => "enum",
            "method_declaration" | "annotation_type_element_declaration" => "method",
            "constructor_declaration" | "compact_constructor_declaration" => "constructor",
            "field_declaration" => {
                let m = modifiers_text(lang, n, src);
                if m.contains("static") && m.contains("final") {
                    "constant"
                } else {
                    "field"
                }
            }
            "constant_declaration" => "constant",
            "enum_constant" => "variant",
            // `record Point(int x, int y)`: its components are its fields.
            "formal_parameter"
                if up
                    .parent(n)
                    .and_then(|p| up.parent(p))
                    .is_some_and(|r| kind_of(r) == "record_declaration") =>
            {
                "field"
            }
            _ => return None,
        },
        Lang::C | Lang::Cpp => match k {
            "function_definition" => "function",
            "struct_specifier" | "union_specifier" if field(n, "body").is_some() => "struct",
            "class_specifier" if field(n, "body").is_some() => "class",
            "enum_specifier" if field(n, "body").is_some() => "enum",
            "type_definition" | "alias_declaration" => "type_alias",
            "preproc_def" | "preproc_function_def" => "macro",
            "namespace_definition" if field(n, "name").is_some() => "module",
            "concept_definition" => "type_alias",
            "field_declaration" => {
                if declarator_is_function(n) {
                    "method"
                } else {
                    "field"
                }
            }
            "enumerator" => "variant",
            _ => return None,
        },
        Lang::CSharp => match k {
            "class_declaration" | "record_declaration" => "class",
            "struct_declaration" => "struct",
            "interface_declaration" => "interface",
            "enum_declaration" => "enum",
            "method_declaration" | "operator_declaration" => "method",
            "local_function_statement" => "function",
            "constructor_declaration" => "constructor",
            "property_declaration" | "indexer_declaration" | "event_declaration" => "property",
            "field_declaration" | "event_field_declaration" => {
                if modifiers_text(lang, n, src).contains("const") {
                    "constant"
                } else {
                    "field"
                }
            }
            "namespace_declaration" | "file_scoped_namespace_declaration" => "module",
            "delegate_declaration" => "type_alias",
            "enum_member_declaration" => "variant",
            _ => return None,
        },
        Lang::Ruby => match k {
            "method" | "singleton_method" => "function",
            "class" => "class",
            "module" => "module",
            "assignment" if field(n, "left").map(kind_of) == Some("constant") => "constant",
            // `attr_accessor :name, …` defines the reader and writer methods of each name.
            "call"
                if field(n, "receiver").is_none()
                    && field(n, "method").is_some_and(|m| {
                        matches!(
                            src.get(m.byte_range()),
                            Some("attr_accessor" | "attr_reader" | "attr_writer")
                        )
                    }) =>
            {
                "property"
            }
            _ => return None,
        },
        Lang::Php => match k {
            "function_definition" => "function",
            "class_declaration" => "class",
            "interface_declaration" => "interface",
            "trait_declaration" => "trait",
            "enum_declaration" => "enum",
            "method_declaration" => "method",
            "property_declaration" => "field",
            "const_declaration" => "constant",
            "namespace_definition" if field(n, "name").is_some() => "module",
            "enum_case" => "variant",
            _ => return None,
        },
        Lang::Other(_) => return None,
    })
}

fn declarator_is_function(n: Node) -> bool {
    let mut d = field(n, "declarator");
    while let Some(x) = d {
        if kind_of(x) == "function_declarator" {
            return true;
        }
        d = field(x, "declarator");
    }
    false
}

/// The nodes naming what `n` defines (several for `int a, b;`-style declarations).
pub fn def_names(lang: Lang, n: Node) -> Vec<Node> {
    match (lang, kind_of(n)) {
        (Lang::TypeScript | Lang::Tsx, "required_parameter" | "optional_parameter") => {
            field(n, "pattern")
                .or_else(|| field(n, "name"))
                .filter(|p| kind_of(p) == "identifier")
                .into_iter()
                .collect()
        }
        (Lang::Java, "field_declaration" | "constant_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "variable_declarator")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::CSharp, "field_declaration" | "event_field_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "variable_declaration")
            .flat_map(named_children)
            .filter(|c| kind_of(c) == "variable_declarator")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::Php, "property_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "property_element")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::Php, "const_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "const_element")
            .filter_map(|c| named_children(c).into_iter().find(|x| kind_of(x) == "name"))
            .collect(),
        (Lang::Python, "assignment") => field(n, "left")
            .map(|l| field(l, "attribute").unwrap_or(l))
            .into_iter()
            .collect(),
        (Lang::Ruby, "assignment") => field(n, "left").into_iter().collect(),
        // `const a, b = 1, 2`; a struct's `R, G, B, A uint16`.
        (Lang::Go, "const_spec" | "var_spec" | "field_declaration") => {
            n.children_by_field_name("name", &mut n.walk()).collect()
        }
        (Lang::Ruby, "call") => field(n, "arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|c| kind_of(c) == "simple_symbol")
            .collect(),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "field_definition") => {
            field(n, "property").into_iter().collect()
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "pair") => {
            field(n, "key").into_iter().collect()
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => {
            field(n, "left")
                .and_then(|l| field(l, "property"))
                .into_iter()
                .collect()
        }
        _ => {
            if let Some(name) = field(n, "name") {
                return vec![last_name(name)];
            }
            // C-family: follow the declarator chain to the declared identifier.
            let mut d = field(n, "declarator");
            while let Some(x) = d {
                match kind_of(x) {
                    "identifier" | "field_identifier" | "type_identifier" | "destructor_name"
                    | "operator_name" | "primitive_type" => return vec![x],
                    "qualified_identifier" => return vec![last_name(x)],
                    _ => {
                        // A parenthesized declarator (`(*hook_t)` in `typedef void
                        // (*hook_t)(int);`) holds its declarator as a plain child.
                        d = field(x, "declarator").or_else(|| {
                            named_children(x).into_iter().find(|c| {
                                matches!(
                                    kind_of(c),
                                    "identifier"
                                        | "field_identifier"
                                        | "qualified_identifier"
                                        | "type_identifier"
                                        | "pointer_declarator"
                                        | "function_declarator"
                                        | "array_declarator"
                                        | "parenthesized_declarator"
                                )
                            })
                        })
                    }
                }
            }
            Vec::new()
        }
    }
}

/// The last name component of a possibly qualified name node.
fn last_name(n: Node) -> Node {
    match kind_of(n) {
        "qualified_identifier"
        | "scoped_identifier"
        | "scope_resolution"
        | "qualified_name"
        | "scoped_type_identifier"
        | "nested_type_identifier" => field(n, "name")
            .or_else(|| php_name_part(n, "name"))
            .map(last_name)
            .unwrap_or(n),
        _ => n,
    }
}

/// A PHP `qualified_name`'s (`\google\net\ProtocolMessage`) child of `kind`: `name` for the
/// last name, `namespace_name` for the namespace before it. PHP's grammar gives neither a
/// field (its `prefix` field is the leading `\` and the namespace together).
fn php_name_part<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    if kind_of(n) != "qualified_name" {
        return None;
    }
    named_children(n).into_iter().rfind(|c| kind_of(*c) == kind)
}

/// Clean a name: strip PHP's `$`, Ruby's symbol `:`, generic arguments and surrounding
/// whitespace; a name written as a string is its text (JavaScript's `'='() {…}`,
/// `get ['async']() {…}`: `=`, `async`).
pub fn name_text(raw: &str) -> &str {
    // Most names are a plain identifier, which every step below leaves as it is (the general
    // steps cost ~700 instructions a name, `rsplit("::")`'s searcher most of it).
    if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return raw;
    }
    let t = raw.trim();
    let unbracketed = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .map_or(t, str::trim);
    for quote in ['\'', '"', '`'] {
        if let Some(inner) = unbracketed
            .strip_prefix(quote)
            .and_then(|r| r.strip_suffix(quote))
            .filter(|inner| !inner.trim().is_empty() && !inner.contains(quote))
        {
            return inner;
        }
    }
    let t = t.strip_prefix('$').unwrap_or(t);
    let t = t
        .strip_prefix(':')
        .filter(|r| !r.starts_with(':'))
        .unwrap_or(t);
    let t = t.split('<').next().unwrap_or(t);
    let t = t.rsplit("::").next().unwrap_or(t);
    t.trim()
}

/// For nodes that scope members without being symbols themselves (a Rust `impl` block, a C++
/// out-of-line `Type::method` definition is handled by its qualified declarator), the prefix
/// their members get.
pub fn scope_prefix(lang: Lang, n: Node, src: &str) -> Option<String> {
    if lang == Lang::Rust && kind_of(n) == "impl_item" {
        let ty = field(n, "type")?;
        let base = base_type_name(ty, src);
        return (!base.is_empty()).then_some(base);
    }
    None
}

/// A prefix a definition carries by itself: a Go method's receiver type (`func (s *Server)
/// Handle` → `Server`), a C++ out-of-line definition's scope (`void Foo::bar()` → `Foo`).
pub fn own_prefix(lang: Lang, n: Node, src: &str) -> Option<String> {
    match (lang, kind_of(n)) {
        (Lang::Go, "method_declaration") => {
            let recv = field(n, "receiver")?;
            let mut stack = vec![recv];
            while let Some(x) = stack.pop() {
                if kind_of(x) == "type_identifier" {
                    return Some(name_text(src.get(x.byte_range())?).to_string());
                }
                stack.extend(named_children(x).into_iter().rev());
            }
            None
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => {
            js_assigned_owner(n, src)
                .filter(|o| !o.is_empty())
                .map(str::to_string)
        }
        (Lang::Cpp, "function_definition") => {
            let mut d = field(n, "declarator");
            while let Some(x) = d {
                if kind_of(x) == "qualified_identifier" {
                    let scope = field(x, "scope")?;
                    return Some(name_text(src.get(scope.byte_range())?).to_string());
                }
                d = field(x, "declarator");
            }
            None
        }
        _ => None,
    }
}

/// Names that are language built-ins, not worth a reference edge.
pub fn is_builtin_type(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Go => matches!(
            name,
            "string"
                | "int"
                | "int8"
                | "int16"
                | "int32"
                | "int64"
                | "uint"
                | "uint8"
                | "uint16"
                | "uint32"
                | "uint64"
                | "uintptr"
                | "byte"
                | "rune"
                | "bool"
                | "error"
                | "float32"
                | "float64"
                | "complex64"
                | "complex128"
                | "any"
        ),
        Lang::Rust => matches!(name, "Self" | "_"),
        Lang::Php => matches!(name, "self" | "static" | "parent"),
        Lang::C | Lang::Cpp => matches!(
            name,
            "size_t"
                | "ssize_t"
                | "uint8_t"
                | "uint16_t"
                | "uint32_t"
                | "uint64_t"
                | "int8_t"
                | "int16_t"
                | "int32_t"
                | "int64_t"
        ),
        _ => false,
    }
}

/// Members of `impl Trait for T` are as public as the trait; inherent impls decide per item.
pub fn impl_members_public(lang: Lang, n: Node) -> Option<bool> {
    (lang == Lang::Rust && kind_of(n) == "impl_item" && field(n, "trait").is_some()).then_some(true)
}

/// Publicity members inherit from their container, where the language implies it.
pub fn members_public(lang: Lang, kind: &str, container_public: bool) -> Option<bool> {
    match (lang, kind) {
        (Lang::Rust, "trait" | "enum") => Some(container_public),
        (Lang::Java | Lang::CSharp | Lang::Go, "interface") => Some(container_public),
        (Lang::TypeScript | Lang::Tsx, "interface" | "enum") => Some(container_public),
        _ => None,
    }
}

/// The name of a type expression without generics, references or paths: `&mut Vec<T>` → `Vec`.
fn base_type_name(ty: Node, src: &str) -> String {
    let mut n = ty;
    loop {
        match kind_of(n) {
            "generic_type" | "reference_type" | "pointer_type" => {
                match field(n, "type").or_else(|| n.named_child(0)) {
                    Some(t) => n = t,
                    None => break,
                }
            }
            "scoped_type_identifier" | "scoped_identifier" => match field(n, "name") {
                Some(t) => n = t,
                None => break,
            },
            _ => break,
        }
    }
    name_text(src.get(n.byte_range()).unwrap_or("")).to_string()
}

fn modifiers_text(lang: Lang, n: Node, src: &str) -> String {
    let mut out = String::new();
    for c in named_children(n) {
        let hit = match lang {
            Lang::Java => kind_of(c) == "modifiers",
            Lang::CSharp => kind_of(c) == "modifier",
            Lang::Php => matches!(kind_of(c), "visibility_modifier" | "static_modifier"),
            Lang::Rust => kind_of(c) == "visibility_modifier",
            Lang::C | Lang::Cpp => kind_of(c) == "storage_class_specifier",
            Lang::TypeScript | Lang::Tsx => kind_of(c) == "accessibility_modifier",
            _ => false,
        };
        if hit {
            out.push_str(src.get(c.byte_range()).unwrap_or(""));
            out.push(' ');
        }
    }
    out
}

/// Whether a definition is part of the public API surface.
pub fn is_public<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, name: &str, src: &str) -> bool {
    match lang {
        Lang::Rust => modifiers_text(lang, n, src).starts_with("pub"),
        Lang::Python => !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__")),
        Lang::Go => name.chars().next().is_some_and(char::is_uppercase),
        Lang::Java => {
            let m = modifiers_text(lang, n, src);
            m.contains("public")
                || (!m.contains("private") && !m.contains("protected") && in_java_interface(up, n))
        }
        Lang::CSharp => {
            modifiers_text(lang, n, src).contains("public")
                || parent_is(up, n, "interface_declaration", 3)
                || matches!(
                    kind_of(n),
                    "namespace_declaration" | "file_scoped_namespace_declaration"
                )
        }
        Lang::Php => {
            let m = modifiers_text(lang, n, src);
            !(m.contains("private") || m.contains("protected"))
        }
        Lang::C | Lang::Cpp => {
            if modifiers_text(lang, n, src).contains("static")
                && !parent_is(up, n, "field_declaration_list", 1)
            {
                return false;
            }
            cpp_member_access(up, n).unwrap_or(true)
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            if name.starts_with('#') || modifiers_text(lang, n, src).contains("private") {
                return false;
            }
            match kind_of(n) {
                "method_definition"
                | "pair"
                | "assignment_expression"
                | "public_field_definition"
                | "field_definition"
                | "method_signature"
                | "property_signature"
                | "abstract_method_signature"
                | "required_parameter"
                | "optional_parameter" => true,
                _ => exported(up, n),
            }
        }
        Lang::Ruby => ruby_visibility(up, n, name, src),
        Lang::Other(_) => false,
    }
}

/// Whether a Ruby method is public: `private def m`, a bare `private` or `protected` earlier
/// in its class body (until a bare `public`), or `private :m` / `private_class_method :m`
/// anywhere in that body make it not. Constants and accessors count as public.
fn ruby_visibility<'t>(up: Up<'_, 't>, n: Node<'t>, name: &str, src: &str) -> bool {
    let kind = kind_of(n);
    if !matches!(kind, "method" | "singleton_method") {
        return true;
    }
    let text = |x: Node| src.get(x.byte_range()).unwrap_or("");
    let hides = |word: &str| match word {
        "private" | "protected" => Some(false),
        "public" => Some(true),
        _ => None,
    };
    let mut at = n;
    if let Some(args) = up.parent(n).filter(|p| kind_of(*p) == "argument_list")
        && let Some(call) = up.parent(args).filter(|c| kind_of(*c) == "call")
    {
        if let Some(public) = field(call, "method").and_then(|m| hides(text(m))) {
            return public;
        }
        at = call;
    }
    let Some(body) = up.parent(at).filter(|b| kind_of(*b) == "body_statement") else {
        return true;
    };
    // `private :m` names it, before or after the definition.
    let named_by = if kind == "singleton_method" {
        &["private_class_method"][..]
    } else {
        &["private", "protected"][..]
    };
    for c in named_children(body) {
        if kind_of(c) == "call"
            && field(c, "receiver").is_none()
            && field(c, "method").is_some_and(|m| named_by.contains(&text(m)))
            && field(c, "arguments").is_some_and(|a| {
                named_children(a)
                    .into_iter()
                    .any(|s| kind_of(s) == "simple_symbol" && name_text(text(s)) == name)
            })
        {
            return false;
        }
    }
    if kind == "singleton_method" {
        return true;
    }
    up.prev_siblings(at)
        .filter(|p| kind_of(*p) == "identifier")
        .find_map(|p| hides(text(p)))
        .unwrap_or(true)
}

fn parent_is<'t>(up: Up<'_, 't>, n: Node<'t>, kind: &str, levels: usize) -> bool {
    let mut p = up.parent(n);
    for _ in 0..levels {
        match p {
            Some(x) if kind_of(x) == kind => return true,
            Some(x) => p = up.parent(x),
            None => return false,
        }
    }
    false
}

fn in_java_interface<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    parent_is(up, n, "interface_declaration", 2)
}

fn exported<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    let mut p = up.parent(n);
    for _ in 0..3 {
        match p {
            Some(x) if kind_of(x) == "export_statement" => return true,
            Some(x) if matches!(kind_of(x), "lexical_declaration" | "variable_declaration") => {
                p = up.parent(x)
            }
            _ => return false,
        }
    }
    false
}

/// C++ access of a class member: the nearest preceding `public:`/`private:` label, else the
/// default of the class kind (`struct` public, `class` private). `None` outside classes.
fn cpp_member_access<'t>(up: Up<'_, 't>, n: Node<'t>) -> Option<bool> {
    let list = up
        .parent(n)
        .filter(|p| kind_of(p) == "field_declaration_list")?;
    for p in up.prev_siblings(n) {
        if kind_of(p) == "access_specifier" {
            return Some(p.child(0).map(|k| kind_of(k) == "public").unwrap_or(false));
        }
    }
    Some(
        up.parent(list)
            .map(|c| kind_of(c) != "class_specifier")
            .unwrap_or(true),
    )
}

/// The declaration head: the text before the body, whitespace collapsed, bounded.
pub fn signature(lang: Lang, n: Node, src: &str) -> String {
    // The first line, without a comment that ends it (`class C < E #:nodoc:`; not
    // `public /*final*/ byte tag;`).
    let first_line_end = || {
        let text = src.get(n.byte_range()).unwrap_or("");
        let end = n.start_byte() + text.find('\n').unwrap_or(text.len());
        let mut children = Vec::new();
        n.append_children(&mut children);
        children
            .iter()
            .find(|c| {
                COMMENT_KINDS.contains(&kind_of(**c))
                    && c.start_byte() < end
                    && src
                        .get(c.end_byte().min(end)..end)
                        .is_some_and(|rest| rest.trim().is_empty())
            })
            .map_or(end, |c| c.start_byte())
    };
    let end = match (lang, kind_of(n)) {
        (Lang::Go, "type_spec" | "const_spec" | "var_spec") => first_line_end(),
        // `String value() default "x";`: its default value is part of the declaration.
        (Lang::Java, "annotation_type_element_declaration") => first_line_end(),
        // `def m(a); …; end` on one line: the head ends with the parameters or the name.
        (Lang::Ruby, "method" | "singleton_method") => field(n, "parameters")
            .or_else(|| field(n, "name"))
            .map_or_else(first_line_end, |x| x.end_byte()),
        (lang, kind) => {
            let body = match kind {
                // `const f = async (a) => …`: the head runs to the function's body.
                "variable_declarator"
                | "field_definition"
                | "public_field_definition"
                | "pair"
                | "assignment_expression"
                    if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) =>
                {
                    field(n, "value")
                        .or_else(|| field(n, "right"))
                        .map(js_unwrapped)
                        .and_then(|v| match kind_of(v) {
                            k if JS_FUNCTION_VALUES.contains(&k) => {
                                Some(field(v, "body").unwrap_or(v))
                            }
                            // `this.size = size`, whole, as Python's `self.size = size`.
                            _ if kind == "assignment_expression" => None,
                            // A constant's first line, value included: `sep = '/'`.
                            k if kind == "variable_declarator"
                                && !matches!(k, "object" | "class") =>
                            {
                                None
                            }
                            _ => Some(v),
                        })
                }
                _ => field(n, "body").or_else(|| field(n, "value").filter(|_| lang != Lang::Rust)),
            };
            match body {
                Some(b) if b.start_byte() > n.start_byte() => head_end(n, b),
                _ => first_line_end(),
            }
        }
    };
    let head = src.get(n.start_byte()..end).unwrap_or("");
    let flat = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = flat.strip_suffix("=>").unwrap_or(&flat);
    let flat = flat
        .trim_end_matches(['{', ':', '='])
        .trim_end()
        .to_string();
    if flat.chars().count() > 240 {
        flat.chars().take(239).chain(['…']).collect()
    } else {
        flat
    }
}

/// Where a definition's head ends before its body `body`: after the last of its children
/// before the body that is no comment (`def f(x):  # why` ends at the `:`, `void f() // why`
/// at the parameters). A body that is not a child of the definition (a JavaScript
/// declarator's function value's) starts where the head ends.
fn head_end(n: Node, body: Node) -> usize {
    let mut end = None;
    let mut children = Vec::new();
    n.append_children(&mut children);
    for child in children {
        if child.id() == body.id() {
            return end.unwrap_or(body.start_byte());
        }
        if !COMMENT_KINDS.contains(&kind_of(child)) {
            end = Some(child.end_byte());
        }
    }
    body.start_byte()
}

const COMMENT_KINDS: &[&str] = &["comment", "line_comment", "block_comment"];
const SKIPPABLE_BEFORE_DEF: &[&str] = &[
    "attribute_item",
    "decorator",
    "attribute_list",
    "annotation",
    "marker_annotation",
];

/// The doc comment of a definition of symbol kind `kind`: a Python docstring, else the comments
/// directly above it, else for a one-line member the comment that ends its line.
pub fn doc_comment<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    kind: &str,
    src: &str,
) -> Option<String> {
    if lang == Lang::Python
        && let Some(body) = field(n, "body")
        && let Some(first) = body.named_child(0)
        && kind_of(first) == "expression_statement"
        && let Some(s) = first.named_child(0)
        && kind_of(s) == "string"
    {
        let raw = src.get(s.byte_range()).unwrap_or("");
        let t = raw.trim_start_matches(['r', 'u', 'b', 'R', 'U', 'B']);
        let t = t.trim_matches('"').trim_matches('\'');
        return clean_doc(t);
    }
    // Definitions wrapped by export/decorator/template nodes carry their comments outside.
    let mut anchor = n;
    while let Some(p) = up.parent(anchor) {
        if matches!(
            kind_of(p),
            "export_statement" | "decorated_definition" | "template_declaration"
        ) {
            anchor = p;
        } else {
            break;
        }
    }
    // Go: a spec declared alone (`type T struct`, `var X = 1`) has its comment above its
    // declaration's keyword; a spec of a group (`const ( … )`) without a comment of its own
    // (above it or after it on its line) takes the group's, as godoc shows it.
    let mut group = None;
    if lang == Lang::Go
        && matches!(
            kind_of(n),
            "type_spec" | "type_alias" | "const_spec" | "var_spec"
        )
        && let Some(p) = up.parent(n)
    {
        if kind_of(p) == "var_spec_list" {
            group = up.parent(p);
        } else if up.prev_siblings(n).any(|s| kind_of(s) == "(") {
            group = Some(p);
        } else {
            anchor = p;
        }
    }
    // Ruby and Python: comments before a body's first statement are the enclosing
    // definition's children, before the body (`class A` / `# Doc of f.` / `def f`).
    if matches!(lang, Lang::Ruby | Lang::Python)
        && up.prev_siblings(anchor).next().is_none()
        && let Some(body) = up.parent(anchor)
        && matches!(kind_of(body), "body_statement" | "block")
    {
        anchor = body;
    }
    // The comments above it; else a one-line member's (or a grouped Go spec's) comment on
    // its line; else its Go group's.
    if let Some(doc) = joined_doc(comments_above(up, anchor, src)) {
        return Some(doc);
    }
    if (group.is_some() || matches!(kind, "field" | "constant" | "variant" | "variable"))
        && let Some(own) = trailing_doc(up, n, src)
    {
        return Some(own);
    }
    joined_doc(comments_above(up, group?, src))
}

/// [`comments_above`]'s comments as one doc.
fn joined_doc(mut parts: Vec<&str>) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    clean_doc(&parts.join("\n"))
}

/// The comment after a one-line member (a field, constant, variable or variant) on its line,
/// which documents it when nothing above does: Go's `Name string // the name`, C's `int n; /* count
/// */`, `Red, // the colour`. Only a comment that ends the line (not one code follows).
fn trailing_doc<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<String> {
    let row = n.end_position().row;
    if n.start_position().row != row {
        return None;
    }
    let c = up
        .next_siblings(n)
        .iter()
        .copied()
        .find(|s| !matches!(kind_of(*s), "," | ";"))?;
    if !COMMENT_KINDS.contains(&kind_of(c)) || c.start_position().row != row {
        return None;
    }
    let rest = src.get(c.end_byte()..).unwrap_or("");
    let line_rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
    if !line_rest.trim().is_empty() {
        return None;
    }
    clean_doc(src.get(c.byte_range()).unwrap_or("").trim_end())
}

/// The comments directly above `anchor` (attributes and decorators between them passed
/// over), nearest first. A comment after code on its line (`a = 1 // why`) is that code's,
/// not the next definition's: it ends them.
fn comments_above<'s, 't>(up: Up<'_, 't>, anchor: Node<'t>, src: &'s str) -> Vec<&'s str> {
    let mut parts = Vec::new();
    let mut next_start = anchor.start_position().row;
    for p in up.prev_siblings(anchor) {
        if COMMENT_KINDS.contains(&kind_of(p)) {
            if p.end_position().row + 1 < next_start {
                break;
            }
            let line_start = src
                .get(..p.start_byte())
                .and_then(|before| before.rfind('\n'))
                .map_or(0, |i| i + 1);
            if !src
                .get(line_start..p.start_byte())
                .is_some_and(|before| before.trim().is_empty())
            {
                break;
            }
            // A line comment's node may hold its line's end (Rust's does): trimmed, so that
            // joining the parts puts no blank line between every two lines.
            parts.push(
                src.get(p.byte_range())
                    .unwrap_or("")
                    .trim_end_matches(['\n', '\r']),
            );
            next_start = p.start_position().row;
        } else if !SKIPPABLE_BEFORE_DEF.contains(&kind_of(p)) {
            break;
        }
    }
    parts
}

/// What tools read in comments, not people: lint and formatter switches, coverage marks,
/// RDoc's `:nodoc:`. Such a line is no part of a doc (`x = 1  # noqa: E501` says nothing of
/// `x`). `t` is the line without its comment marker.
fn is_directive(t: &str) -> bool {
    const DIRECTIVES: &[&str] = &[
        "eslint-",
        "eslint ",
        "jshint ",
        "jscs:",
        "tslint:",
        "prettier-ignore",
        "biome-ignore",
        "deno-lint-ignore",
        "istanbul ignore",
        "c8 ignore",
        "@ts-ignore",
        "@ts-expect-error",
        "@ts-nocheck",
        "@ts-check",
        "noqa",
        "type: ignore",
        "pragma: no cover",
        "pylint:",
        "fmt: off",
        "fmt: on",
        "fmt: skip",
        "mypy:",
        "pyright:",
        ":nodoc:",
        ":stopdoc:",
        ":startdoc:",
        "rubocop:",
        "frozen_string_literal:",
        "NOLINT",
        "clang-format ",
        "IWYU pragma",
        "LCOV_EXCL",
        "cppcheck-suppress",
        "nolint",
        "phpcs:",
        "@phpstan-ignore",
        "$NON-NLS-",
        "ReSharper ",
        "CHECKSTYLE",
        "NOPMD",
    ];
    DIRECTIVES.iter().any(|d| t.starts_with(d))
}

/// Go's directive comments (`//go:noinline`, `//lint:ignore`, `//export:x`): `//` then, with
/// no space, a lowercase word, a colon and a letter or digit. Godoc leaves them out of docs.
fn is_go_style_directive(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("//") else {
        return false;
    };
    let word = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        .count();
    word > 0
        && rest.as_bytes().get(word) == Some(&b':')
        && rest
            .as_bytes()
            .get(word + 1)
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn clean_doc(raw: &str) -> Option<String> {
    let mut lines = Vec::new();
    for line in raw.lines() {
        if is_go_style_directive(line.trim()) {
            continue;
        }
        let mut t = line.trim();
        for p in ["///", "//!", "/**", "/*!", "/*", "//", "#", "*/"] {
            if let Some(rest) = t.strip_prefix(p) {
                // RDoc's and Sphinx's `##` that opens a doc is a marker, no text.
                t = match p {
                    "#" => rest.trim_start_matches('#'),
                    _ => rest,
                };
                break;
            }
        }
        let t = t.strip_suffix("*/").unwrap_or(t);
        let t = t.trim_start_matches('*').trim();
        if is_directive(t) {
            continue;
        }
        lines.push(t);
    }
    // A banner's frame (`/*-*****`, `// --------`) and an editor's folding marker (`//#region
    // Parsing`, `// <editor-fold desc="…">`) are no text: dropped with the blank lines around
    // the doc (a rule within it stays: it may be Markdown's).
    let frame = |l: &&str| {
        (l.len() >= 3 && l.bytes().all(|b| b"*-=#/+~_".contains(&b)))
            || ["#region", "#endregion", "<editor-fold", "</editor-fold"]
                .iter()
                .any(|m| l.starts_with(m))
    };
    while lines.first().is_some_and(|l| l.is_empty() || frame(l)) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.is_empty() || frame(l)) {
        lines.pop();
    }
    let mut doc = lines.join("\n");
    // At most 4000 characters (cut at the 4000th's end, not copied a character at a time).
    if doc.len() > 4000
        && let Some((end, _)) = doc.char_indices().nth(4000)
    {
        doc.truncate(end);
    }
    (!doc.is_empty()).then_some(doc)
}

/// For a call node: the node naming the callee, and the qualifier written before it.
pub fn call_target<'t>(lang: Lang, n: Node<'t>) -> Option<(Node<'t>, Option<Node<'t>>)> {
    let callee = match (lang, kind_of(n)) {
        (_, "call_expression") => field(n, "function"),
        (Lang::Python, "call") => field(n, "function"),
        (Lang::Ruby, "call") => {
            // (`require` is an import and `include M` heritage: `imports` and `heritage` are
            // asked first.)
            let m = field(n, "method")?;
            return Some((m, field(n, "receiver")));
        }
        (Lang::Java, "method_invocation") => return Some((field(n, "name")?, field(n, "object"))),
        (Lang::CSharp, "invocation_expression") => field(n, "function"),
        (Lang::Php, "function_call_expression") => field(n, "function"),
        (Lang::Php, "member_call_expression" | "nullsafe_member_call_expression") => {
            return Some((field(n, "name")?, field(n, "object")));
        }
        (Lang::Php, "scoped_call_expression") => {
            return Some((field(n, "name")?, field(n, "scope")));
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "new_expression") => {
            field(n, "constructor")
        }
        (Lang::Cpp, "new_expression") => field(n, "type"),
        (Lang::Java | Lang::CSharp, "object_creation_expression") => field(n, "type"),
        (Lang::Php, "object_creation_expression") => named_children(n)
            .into_iter()
            .find(|c| matches!(kind_of(c), "name" | "qualified_name")),
        _ => None,
    }?;
    split_callee(callee)
}

fn split_callee(c: Node) -> Option<(Node, Option<Node>)> {
    let pair = |name: &'static str, qual: &'static str| Some((field(c, name)?, field(c, qual)));
    match kind_of(c) {
        "identifier"
        | "field_identifier"
        | "property_identifier"
        | "type_identifier"
        | "name"
        | "constant"
        | "simple_identifier" => Some((c, None)),
        "field_expression" => match field(c, "value") {
            Some(_) => pair("field", "value"),
            None => pair("field", "argument"),
        },
        "member_expression" => pair("property", "object"),
        "selector_expression" => pair("field", "operand"),
        "attribute" => pair("attribute", "object"),
        "member_access_expression" => pair("name", "expression"),
        "scoped_identifier" | "scoped_type_identifier" => pair("name", "path"),
        "qualified_identifier" => {
            let (n, _) = split_callee(field(c, "name")?)?;
            Some((n, field(c, "scope")))
        }
        "qualified_name" => Some((
            field(c, "name")
                .or_else(|| php_name_part(c, "name"))
                .unwrap_or(c),
            php_name_part(c, "namespace_name").or_else(|| field(c, "prefix")),
        )),
        // PHP's `namespace\f()`: the file's own namespace's `f`, looked up as `f()` alone is
        // (the file's namespace first). (`namespace\Sub\f()`, rare, stays no edge.)
        "relative_name" => {
            let kids = named_children(c);
            if kids.iter().any(|k| kind_of(*k) == "namespace_name") {
                return None;
            }
            Some((kids.into_iter().rfind(|k| kind_of(*k) == "name")?, None))
        }
        "generic_function" => split_callee(field(c, "function")?),
        "generic_name" | "generic_type" | "template_function" | "template_type" => {
            split_callee(field(c, "name").or_else(|| c.named_child(0))?)
        }
        _ => None,
    }
}

/// Heritage edges: (kind, target name node, its qualifier node, source override) for a
/// heritage clause node (`unittest` in `class T(unittest.TestCase)`, `fmt` in
/// `impl fmt::Display for T`).
pub fn heritage<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    src: &str,
) -> Option<Vec<(EdgeKind, Node<'t>, Option<Node<'t>>, Option<String>)>> {
    let k = kind_of(n);
    let (kind, container) = match lang {
        Lang::Rust => match k {
            "impl_item" => {
                let t = field(n, "trait")?;
                let ty = field(n, "type")?;
                let source = base_type_name(ty, src);
                let target = type_names(t);
                return Some(
                    target
                        .into_iter()
                        .map(|(x, q)| (EdgeKind::Implements, x, q, Some(source.clone())))
                        .collect(),
                );
            }
            "trait_bounds" if up.parent_kind(n) == "trait_item" => (EdgeKind::Inherits, n),
            _ => return None,
        },
        Lang::Python if k == "argument_list" && up.parent_kind(n) == "class_definition" => {
            (EdgeKind::Inherits, n)
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => match k {
            "class_heritage" if lang == Lang::JavaScript => (EdgeKind::Inherits, n),
            "extends_clause" | "extends_type_clause" => (EdgeKind::Inherits, n),
            "implements_clause" => (EdgeKind::Implements, n),
            _ => return None,
        },
        Lang::Go => match k {
            "field_declaration" if field(n, "name").is_none() => (EdgeKind::Inherits, n),
            "type_elem" if up.parent_kind(n) == "interface_type" => (EdgeKind::Inherits, n),
            _ => return None,
        },
        Lang::Java => match k {
            "superclass" | "extends_interfaces" => (EdgeKind::Inherits, n),
            "super_interfaces" => (EdgeKind::Implements, n),
            _ => return None,
        },
        Lang::C | Lang::Cpp if k == "base_class_clause" => (EdgeKind::Inherits, n),
        Lang::CSharp if k == "base_list" => (EdgeKind::Inherits, n),
        Lang::Ruby if k == "superclass" => (EdgeKind::Inherits, n),
        // A module mixed in (`include Comparable`, `extend ActiveSupport::Concern`, `prepend
        // M`): one of the class's or module's ancestors (its singleton class's, for `extend`).
        Lang::Ruby if k == "call" => (EdgeKind::Inherits, ruby_mixin(n, src)?),
        Lang::Php => match k {
            // A trait used in a class body (`use Loggable;`) gives the class its members.
            "base_clause" | "use_declaration" => (EdgeKind::Inherits, n),
            "class_interface_clause" => (EdgeKind::Implements, n),
            _ => return None,
        },
        _ => return None,
    };
    let targets = type_names(container);
    Some(
        targets
            .into_iter()
            .map(|(t, q)| {
                // C#: `I`-prefixed base types are interfaces by convention.
                let text = src.get(t.byte_range()).unwrap_or("");
                let kind = if lang == Lang::CSharp
                    && text.len() > 1
                    && text.starts_with('I')
                    && text[1..].starts_with(|c: char| c.is_ascii_uppercase())
                {
                    EdgeKind::Implements
                } else {
                    kind
                };
                (kind, t, q, None)
            })
            .collect(),
    )
}

/// Ruby: the arguments of a call that mixes modules in — `include`, `extend` or `prepend`
/// without a receiver, naming only constants (`include Enumerable, Mod::Helpers`) — or `None`
/// for any other call (`include "*.rb"` on a file list is a method call).
fn ruby_mixin<'t>(n: Node<'t>, src: &str) -> Option<Node<'t>> {
    if kind_of(n) != "call" || field(n, "receiver").is_some() {
        return None;
    }
    let method = field(n, "method")?;
    if !matches!(
        src.get(method.byte_range())?,
        "include" | "extend" | "prepend"
    ) {
        return None;
    }
    let args = field(n, "arguments")?;
    let names = named_children(args);
    let constants = !names.is_empty()
        && names
            .iter()
            .all(|a| matches!(kind_of(*a), "constant" | "scope_resolution"));
    constants.then_some(args)
}

/// The type names mentioned in a heritage clause, skipping generic arguments, each with the
/// node qualifying it (a module or namespace path), if any.
fn type_names(container: Node) -> Vec<(Node, Option<Node>)> {
    let mut out = Vec::new();
    let mut stack = vec![container];
    while let Some(n) = stack.pop() {
        match kind_of(n) {
            "type_arguments"
            | "type_argument_list"
            | "template_argument_list"
            | "keyword_argument"
            | "arguments"
            | "argument_list"
            // PHP's `use A, B { A::f insteadof B; }`: the traits, not what the block renames.
            | "use_list"
                if n.id() != container.id() => {}
            "identifier" | "type_identifier" | "constant" | "name" | "simple_identifier" => {
                out.push((n, None))
            }
            k @ ("scoped_type_identifier"
            | "scoped_identifier"
            | "qualified_name"
            | "qualified_identifier"
            | "nested_type_identifier"
            | "qualified_type"
            | "scope_resolution"
            | "generic_name") => {
                let qualifier = match k {
                    "scoped_type_identifier" | "scoped_identifier" => field(n, "path"),
                    "qualified_identifier" | "scope_resolution" => field(n, "scope"),
                    "qualified_name" => field(n, "qualifier")
                        .or_else(|| php_name_part(n, "namespace_name"))
                        .or_else(|| field(n, "prefix")),
                    "nested_type_identifier" => field(n, "module"),
                    // Go's `transform.Transformer`.
                    "qualified_type" => field(n, "package"),
                    _ => None,
                };
                out.push((
                    last_name(field(n, "name").map(last_name).unwrap_or(n)),
                    qualifier,
                ));
            }
            "attribute" => out.extend(field(n, "attribute").map(|a| (a, field(n, "object")))),
            "member_expression" => {
                out.extend(field(n, "property").map(|p| (p, field(n, "object"))))
            }
            _ => {
                stack.extend(named_children(n).into_iter().rev());
            }
        }
    }
    out.retain(|(n, _)| kind_of(*n) != "access_specifier");
    out
}

/// An import's names, from one module: each name it binds (with its alias), or the module's
/// last path part when it binds none (`import './polyfill'`, a bare `require('x')`).
fn bound_from(mut names: Vec<(String, Option<String>)>, module: String) -> Vec<Import> {
    if names.is_empty() {
        names.push((
            module.rsplit('/').next().unwrap_or(&module).to_string(),
            None,
        ));
    }
    names
        .into_iter()
        .map(|(x, alias)| (x, Some(module.clone()), alias))
        .collect()
}

/// One name an import binds: (the imported name, the module qualifier, the alias the file
/// binds it to when it renames it — `np` in `import numpy as np`, `E` in `use a::Entry as E`,
/// `ns` in `import * as ns from './m'`).
pub type Import = (String, Option<String>, Option<String>);

/// An import without an alias.
fn plain((name, module): (String, Option<String>)) -> Import {
    (name, module, None)
}

/// Imports declared by a node.
pub fn imports(lang: Lang, n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| src.get(x.byte_range()).unwrap_or("").to_string();
    let unquote = |s: String| s.trim_matches(['"', '\'', '`', '<', '>']).to_string();
    match (lang, kind_of(n)) {
        (Lang::Rust, "use_declaration") => {
            let Some(arg) = field(n, "argument") else {
                return vec![];
            };
            expand_rust_use(&text(arg))
        }
        (Lang::Python, "import_statement") => named_children(n)
            .into_iter()
            .map(|c| match kind_of(c) {
                "aliased_import" => (
                    field(c, "name").map(text).unwrap_or_default(),
                    None,
                    field(c, "alias").map(text),
                ),
                _ => (text(c), None, None),
            })
            .collect(),
        (Lang::Python, "import_from_statement") => {
            let module = field(n, "module_name").map(text);
            let mut c = n.walk();
            let names: Vec<_> = n
                .children_by_field_name("name", &mut c)
                .map(|x| match kind_of(x) {
                    "aliased_import" => (
                        field(x, "name").map(text).unwrap_or_default(),
                        field(x, "alias").map(text),
                    ),
                    _ => (text(x), None),
                })
                .collect();
            if names.is_empty() {
                vec![("*".to_string(), module, None)]
            } else {
                names
                    .into_iter()
                    .map(|(x, alias)| (x, module.clone(), alias))
                    .collect()
            }
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "import_statement") => {
            let Some(source) = field(n, "source").map(|s| unquote(text(s))) else {
                return vec![];
            };
            let mut names = Vec::new();
            let mut stack = named_children(n);
            while let Some(c) = stack.pop() {
                match kind_of(c) {
                    "import_specifier" => names
                        .extend(field(c, "name").map(|x| (text(x), field(c, "alias").map(text)))),
                    "identifier" if parent_kind(c) == "import_clause" => {
                        names.push((text(c), None))
                    }
                    // `* as ns`: the module's names, bound to `ns`.
                    "namespace_import" => names.push((
                        "*".into(),
                        named_children(c)
                            .into_iter()
                            .find(|x| kind_of(*x) == "identifier")
                            .map(text),
                    )),
                    "import_clause" | "named_imports" => stack.extend(named_children(c)),
                    _ => {}
                }
            }
            bound_from(names, source)
        }
        // CommonJS: `const x = require('./x')`, `const { a, b: c } = require('m')`.
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "call_expression") => {
            // Every call comes here: nothing is allocated unless it is a `require`.
            let is_require = field(n, "function").is_some_and(|f| {
                kind_of(f) == "identifier" && src.get(f.byte_range()) == Some("require")
            });
            let module = is_require
                .then(|| field(n, "arguments")?.named_child(0))
                .flatten()
                .filter(|s| kind_of(*s) == "string")
                .map(|s| unquote(text(s)));
            let Some(module) = module else {
                return vec![];
            };
            // The names it binds (asked of the tree only for a `require`, which is rare).
            let mut names = Vec::new();
            if let Some(bound) = n
                .parent()
                .filter(|p| kind_of(*p) == "variable_declarator")
                .and_then(|d| field(d, "name"))
            {
                match kind_of(bound) {
                    "identifier" => names.push((text(bound), None)),
                    "object_pattern" => {
                        for c in named_children(bound) {
                            match kind_of(c) {
                                "shorthand_property_identifier_pattern" => {
                                    names.push((text(c), None))
                                }
                                // `{ a: c }` binds `a` as `c`.
                                "pair_pattern" => names.extend(field(c, "key").map(|k| {
                                    let value = field(c, "value")
                                        .filter(|v| kind_of(*v) == "identifier")
                                        .map(text);
                                    (text(k), value)
                                })),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            bound_from(names, module)
        }
        (Lang::Go, "import_spec") => {
            let Some(path) = field(n, "path").map(|p| unquote(text(p))) else {
                return vec![];
            };
            // The package by the name its path implies (`yaml` of `gopkg.in/yaml.v3`), bound
            // to its alias (`str "strings"`); `*` for a dot import (`. "fmt"`: the package's
            // names unqualified).
            let last = go_package_name(&path).to_string();
            let (name, alias) = match field(n, "name") {
                Some(alias) if kind_of(alias) == "dot" => ("*".to_string(), None),
                Some(alias) if kind_of(alias) == "package_identifier" => (last, Some(text(alias))),
                _ => (last, None),
            };
            vec![(name, Some(path), alias)]
        }
        // `import a.b.C;` is `C` of `a.b`; `import a.b.*;` (on demand) is `*` of `a.b`, the
        // package's types (or, `import static a.b.C.*;`, the class's static members).
        (Lang::Java, "import_declaration") => {
            let children = named_children(n);
            let on_demand = children.iter().any(|c| kind_of(c) == "asterisk");
            children
                .into_iter()
                .filter(|c| matches!(kind_of(c), "scoped_identifier" | "identifier"))
                .map(|c| match on_demand {
                    true => ("*".to_string(), Some(text(c)), None),
                    false => plain(split_path(&text(c), ".")),
                })
                .collect()
        }
        (Lang::C | Lang::Cpp, "preproc_include") => field(n, "path")
            .map(|p| {
                let p = unquote(text(p));
                (
                    p.rsplit('/').next().unwrap_or(&p).to_string(),
                    Some(p),
                    None,
                )
            })
            .into_iter()
            .collect(),
        (Lang::CSharp, "using_directive") => named_children(n)
            .into_iter()
            .rfind(|c| matches!(kind_of(c), "qualified_name" | "identifier"))
            .map(|c| plain(split_path(&text(c), ".")))
            .into_iter()
            .collect(),
        (Lang::Ruby, "call") => {
            let method = field(n, "method").map(text).unwrap_or_default();
            if !matches!(method.as_str(), "require" | "require_relative" | "load")
                || field(n, "receiver").is_some()
            {
                return vec![];
            }
            field(n, "arguments")
                .and_then(|a| a.named_child(0))
                .map(|s| {
                    let p = unquote(text(s));
                    (
                        p.rsplit('/').next().unwrap_or(&p).to_string(),
                        Some(p),
                        None,
                    )
                })
                .into_iter()
                .collect()
        }
        (Lang::Php, "namespace_use_clause") => {
            // In a group (`use App\M\{B, C as D};`) the namespace is written before the
            // braces, once for all of its clauses.
            let group = n
                .parent()
                .filter(|g| kind_of(g) == "namespace_use_group")
                .and_then(|g| g.parent())
                .and_then(|d| {
                    named_children(d)
                        .into_iter()
                        .find(|c| kind_of(c) == "namespace_name")
                })
                .map(|p| text(p).trim_start_matches('\\').to_string());
            named_children(n)
                .into_iter()
                .find(|c| matches!(kind_of(c), "qualified_name" | "name"))
                .map(|c| {
                    let (name, module) = split_path(&text(c), "\\");
                    let module = match (group.clone(), module) {
                        (Some(g), Some(m)) => Some(format!("{g}\\{m}")),
                        (g, m) => g.or(m),
                    };
                    (name, module, field(n, "alias").map(text))
                })
                .into_iter()
                .collect()
        }
        _ => vec![],
    }
}

fn split_path(path: &str, sep: &str) -> (String, Option<String>) {
    let path = path.trim().trim_start_matches(sep);
    match path.rsplit_once(sep) {
        Some((q, name)) => (name.to_string(), Some(q.to_string())),
        None => (path.to_string(), None),
    }
}

/// `a::b::{C, d::E as F}` → [(C, a::b), (E, a::b::d, as F)].
fn expand_rust_use(arg: &str) -> Vec<Import> {
    // Keep `as` renames recognisable: `Entry as E` → `Entry@E`.
    let flat = arg
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" as ", "@")
        .replace(' ', "");
    let mut out = Vec::new();
    expand_use_into(&flat, "", &mut out);
    out
}

fn expand_use_into(s: &str, prefix: &str, out: &mut Vec<Import>) {
    if out.len() > 256 {
        return;
    }
    let join = |p: &str, x: &str| {
        if p.is_empty() {
            x.to_string()
        } else {
            format!("{p}::{x}")
        }
    };
    if let Some(open) = s.find('{') {
        let head = s[..open].trim_end_matches("::");
        let inner = s[open + 1..].strip_suffix('}').unwrap_or(&s[open + 1..]);
        let base = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use_into(&inner[start..i], &base, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use_into(&inner[start..], &base, out);
        return;
    }
    if s.is_empty() {
        return;
    }
    let (s, alias) = match s.split_once('@') {
        // `use a::b as _` imports a trait's methods and binds no name.
        Some((s, alias)) => (s, Some(alias.to_string()).filter(|a| a != "_")),
        None => (s, None),
    };
    let full = join(prefix, s);
    let (name, q) = split_path(&full, "::");
    let name = if name == "self" {
        q.as_deref()
            .and_then(|q| q.rsplit("::").next())
            .unwrap_or("self")
            .to_string()
    } else {
        name
    };
    out.push((name, q, alias));
}

/// A non-call use of a type or field: the node naming it.
pub fn reference_target<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    src: &str,
) -> Option<Node<'t>> {
    if lang == Lang::Php {
        return php_reference(n, src);
    }
    // Only a few node kinds can be references; check the kind before asking for the parent
    // (`Node::parent` is not O(1)).
    if !matches!(
        kind_of(n),
        "type_identifier"
            | "field_expression"
            | "member_expression"
            | "selector_expression"
            | "attribute"
            | "field_access"
            | "member_access_expression"
            | "identifier"
            | "constant"
            | "scope_resolution"
            | "scoped_identifier"
            | "method_reference"
    ) || (kind_of(n) == "identifier" && lang != Lang::Python)
        || (matches!(kind_of(n), "constant" | "scope_resolution") && lang != Lang::Ruby)
    {
        return None;
    }
    let p = up.parent(n)?;
    match kind_of(n) {
        "type_identifier" => {
            // Not the name of a definition, not inside heritage (those are edges already).
            // C's and C++'s `struct buf *b` (a specifier without a body) uses `buf`.
            let used_specifier = matches!(lang, Lang::C | Lang::Cpp)
                && matches!(
                    kind_of(p),
                    "struct_specifier" | "union_specifier" | "enum_specifier"
                )
                && field(p, "body").is_none();
            // (Go's `obj.Link` names its type in a `name` field too.)
            if field(p, "name").is_some_and(|x| x.id() == n.id())
                && !used_specifier
                && kind_of(p) != "qualified_type"
            {
                return None;
            }
            // C and C++: the name a `typedef` defines (`pac_t` in `typedef struct pac_s
            // pac_t;`, `fn_t` in `typedef void (*fn_t)(int);`), under its declarators.
            if matches!(lang, Lang::C | Lang::Cpp) {
                let (mut child, mut at) = (n, Some(p));
                for _ in 0..8 {
                    let Some(x) = at else { break };
                    if kind_of(x) != "parenthesized_declarator"
                        && field(x, "declarator").is_none_or(|d| d.id() != child.id())
                    {
                        break;
                    }
                    if kind_of(x) == "type_definition" {
                        return None;
                    }
                    (child, at) = (x, up.parent(x));
                }
            }
            // Java: a package's segments in a type's full name (`java`, `util` of
            // `java.util.List`) are no types.
            if lang == Lang::Java
                && kind_of(p) == "scoped_type_identifier"
                && src
                    .get(n.byte_range())
                    .is_some_and(|t| t.starts_with(|c: char| c.is_lowercase()))
            {
                return None;
            }
            if matches!(
                kind_of(p),
                "scoped_type_identifier" | "generic_type" | "nested_type_identifier"
            ) && up
                .parent(p)
                .is_some_and(|g| field(g, "name").is_some_and(|x| x.id() == p.id()))
            {
                return None;
            }
            let mut a = Some(p);
            for _ in 0..4 {
                match a {
                    Some(x)
                        if matches!(
                            kind_of(x),
                            "impl_item"
                                | "superclass"
                                | "super_interfaces"
                                | "extends_clause"
                                | "implements_clause"
                                | "extends_type_clause"
                                | "base_class_clause"
                                | "class_heritage"
                                | "trait_bounds"
                                | "extends_interfaces"
                        ) =>
                    {
                        if kind_of(x) != "impl_item"
                            || field(x, "trait").is_some_and(|t| {
                                t.byte_range().contains(&n.start_byte()) || t.id() == n.id()
                            })
                            || field(x, "type").is_some_and(|t| t.id() == n.id())
                        {
                            return None;
                        }
                        a = up.parent(x);
                    }
                    Some(x) => a = up.parent(x),
                    None => break,
                }
            }
            Some(n)
        }
        "field_expression" if lang == Lang::Rust || lang == Lang::C || lang == Lang::Cpp => {
            (!is_call_function(up, n))
                .then(|| field(n, "field"))
                .flatten()
        }
        "member_expression" if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) => {
            (!is_call_function(up, n) && kind_of(p) != "member_expression")
                .then(|| field(n, "property"))
                .flatten()
        }
        "selector_expression" if lang == Lang::Go => (!is_call_function(up, n))
            .then(|| field(n, "field"))
            .flatten(),
        "attribute" if lang == Lang::Python => (!is_call_function(up, n))
            .then(|| field(n, "attribute"))
            .flatten(),
        "field_access" if lang == Lang::Java => field(n, "field"),
        "member_access_expression" if lang == Lang::CSharp => (!is_call_function(up, n))
            .then(|| field(n, "name"))
            .flatten(),
        "identifier" if lang == Lang::Python && kind_of(p) == "type" => Some(n),
        // Rust: a path used as a value — a function or method not called (`.map(Self::parse)`,
        // `.map_err(Error::Io)`), a constant (`u8::MAX`, `Level::DEFAULT`), a unit variant
        // (`Ordering::Less`, also in a pattern) — its last name, qualified by the path before
        // it. Not a call's function, a longer path's prefix, an import, a macro's or an
        // attribute's path, a visibility's scope.
        "scoped_identifier" if lang == Lang::Rust => {
            let prefix = field(p, "path").is_some_and(|x| x.id() == n.id());
            let used = !is_call_function(up, n)
                && !prefix
                && !matches!(
                    kind_of(p),
                    "use_declaration"
                        | "use_as_clause"
                        | "use_list"
                        | "scoped_use_list"
                        | "use_wildcard"
                        | "macro_invocation"
                        | "attribute"
                        | "visibility_modifier"
                        | "generic_function"
                );
            used.then(|| field(n, "name"))
                .flatten()
                .filter(|x| kind_of(*x) == "identifier")
        }
        // Java: a method reference (`this::visit`, `Foo::parse`; not `Foo::new`, which names
        // the class): the method, qualified by what it is looked up on.
        "method_reference" if lang == Lang::Java => {
            let count = n.named_child_count();
            let last = n.named_child(u32::try_from(count.checked_sub(1)?).ok()?)?;
            (count >= 2 && kind_of(last) == "identifier").then_some(last)
        }
        // Ruby: a constant used as a value — `rescue FooError`, `is_a?(Foo)`, `when Foo`,
        // `Foo::BAR` (the last name, qualified by the path before it) — not one a class,
        // module or constant defines, a base, a call's receiver (`Foo.new` is a call) or
        // the scope of a longer path.
        "constant" | "scope_resolution" => {
            let is = |f: &'static str| field(p, f).is_some_and(|x| x.id() == n.id());
            let defined = match kind_of(p) {
                "class" | "module" => is("name"),
                "assignment" | "operator_assignment" => is("left"),
                "call" => is("receiver"),
                "scope_resolution" | "superclass" => true,
                // A module mixed in is an inherits edge already (`heritage`).
                "argument_list" => up
                    .parent(p)
                    .is_some_and(|call| ruby_mixin(call, src).is_some()),
                _ => false,
            };
            if defined {
                return None;
            }
            match kind_of(n) {
                "constant" => Some(n),
                _ => field(n, "name").filter(|x| kind_of(*x) == "constant"),
            }
        }
        _ => None,
    }
}

/// Whether `n` is a name written alone as a value — an argument, a keyword argument's or an
/// object or initializer field's value, an assignment's or declaration's value, an element
/// of a list, what `return` returns, a Python decorator, a shorthand property — in Python,
/// JavaScript, TypeScript, C, C++, Rust and Go: a function passed or stored
/// (`register(handler)`, `sorted(xs, key=by_name)`, `{ onClick: handle }`, `{ tick }`,
/// `.read = my_read`, `.map(parse_line)`), or a local ([`Walker::settle_values`] keeps only
/// the file's functions, and in the first four its imports). (Not PHP, whose functions are
/// named by strings, nor Java and C#, where a name alone may be the instance's member.)
pub fn is_value_name<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>) -> bool {
    // JavaScript's and TypeScript's shorthand property (`{ tick }`) is its value too.
    let shorthand = kind_of(n) == "shorthand_property_identifier"
        && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx);
    if shorthand {
        return up.parent(n).is_some_and(|p| kind_of(p) == "object");
    }
    if kind_of(n) != "identifier"
        || !matches!(
            lang,
            Lang::Python
                | Lang::JavaScript
                | Lang::TypeScript
                | Lang::Tsx
                | Lang::C
                | Lang::Cpp
                | Lang::Rust
                | Lang::Go
        )
    {
        return false;
    }
    let Some(p) = up.parent(n) else {
        return false;
    };
    let is = |f: &'static str| field(p, f).is_some_and(|x| x.id() == n.id());
    match (lang, kind_of(p)) {
        // Rust: `.map(parse_line)`, `let f = parse_line;`, `Opts { f: parse_line }`,
        // `Opts { parse_line }`.
        (
            Lang::Rust,
            "arguments"
            | "array_expression"
            | "tuple_expression"
            | "return_expression"
            | "shorthand_field_initializer",
        ) => true,
        (Lang::Rust, "let_declaration" | "field_initializer") => is("value"),
        (Lang::Rust, "assignment_expression") => is("right"),
        (Lang::Rust, _) => false,
        // Go: `http.HandleFunc("/", handle)`, `h := handle`, `return handle`, a composite
        // literal's element or value (`[]func(){a, b}`, `Handler: handle`; not its key).
        (Lang::Go, "argument_list" | "expression_list") => true,
        (Lang::Go, "literal_element") => match up.parent(p) {
            Some(k) if kind_of(k) == "keyed_element" => {
                k.named_child(0).is_some_and(|key| key.id() != p.id())
            }
            _ => true,
        },
        (Lang::Go, _) => false,
        (Lang::Python, "argument_list" | "list" | "tuple" | "return_statement" | "decorator") => {
            true
        }
        (Lang::Python, "keyword_argument" | "pair") => is("value"),
        (Lang::Python, "assignment") => is("right"),
        (Lang::C | Lang::Cpp, "argument_list" | "initializer_list" | "return_statement") => true,
        (Lang::C | Lang::Cpp, "init_declarator" | "initializer_pair") => is("value"),
        (Lang::C | Lang::Cpp, "assignment_expression") => is("right"),
        (Lang::Cpp, _) => false,
        (_, "arguments" | "array" | "return_statement") => true,
        (_, "variable_declarator" | "pair") => is("value"),
        (_, "assignment_expression") => is("right"),
        _ => false,
    }
}

/// PHP's references: a type named in a declaration (`named_type`: parameter, return,
/// property and `catch` types), after `instanceof`, or before `::` (`Foo::BAR`,
/// `Foo::class`, `Foo::$instance`: the class); a class's own constant or static property
/// (`self::BAR`, `static::$instance`: the member; not `self::class`, the class's name); a
/// property read or written (`$this->email`, `$user?->name`: the property). Heritage
/// clauses (`extends`, `implements`) name their types with `name` nodes directly, not
/// `named_type`, and are edges already; `new Foo()` and `Foo::f()` are calls.
fn php_reference<'t>(n: Node<'t>, src: &str) -> Option<Node<'t>> {
    let class = |c: Node<'t>| {
        matches!(kind_of(c), "name" | "qualified_name" | "relative_name")
            .then(|| last_name(c))
            .filter(|c| kind_of(*c) == "name")
    };
    match kind_of(n) {
        "named_type" => class(n.named_child(0)?),
        "binary_expression" => {
            let op = field(n, "operator")?;
            (kind_of(op) == "instanceof")
                .then(|| field(n, "right"))
                .flatten()
                .and_then(class)
        }
        "class_constant_access_expression" | "scoped_property_access_expression" => {
            let (scope, member) = match kind_of(n) {
                "class_constant_access_expression" => (n.named_child(0)?, n.named_child(1)?),
                _ => (field(n, "scope")?, field(n, "name")?),
            };
            if kind_of(scope) == "relative_scope" {
                let class = src.get(member.byte_range()) == Some("class");
                return (matches!(kind_of(member), "name" | "variable_name") && !class)
                    .then_some(member);
            }
            class(scope)
        }
        // `($this->handler)(…)` calls the value read, which is a read all the same.
        "member_access_expression" | "nullsafe_member_access_expression" => {
            field(n, "name").filter(|m| kind_of(*m) == "name")
        }
        _ => None,
    }
}

/// The namespace a PHP class reference ([`reference_target`]) is written with: `Stmt` in
/// `instanceof Stmt\Class_`, `\PhpParser\Node` in `\PhpParser\Node\Name $n`; looked up
/// as a call's qualifier is, through the file's `use` imports.
pub fn reference_namespace<'t>(lang: Lang, up: Up<'_, 't>, name: Node<'t>) -> Option<Node<'t>> {
    // Go's `obj.Link` in a type: the package.
    if lang == Lang::Go {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "qualified_type")?;
        return field(p, "package");
    }
    // Rust's `Self::parse`, `Ordering::Less`: the path before the name.
    if lang == Lang::Rust {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "scoped_identifier")?;
        return field(p, "path").filter(|_| field(p, "name").is_some_and(|x| x.id() == name.id()));
    }
    // Java's `this::visit`, `Foo::parse`: what the method is looked up on; a type's package
    // or outer type, `java.nio.file` in `java.nio.file.Path`, `Map` in `Map.Entry`.
    if lang == Lang::Java {
        let p = up.parent(name)?;
        return match kind_of(p) {
            "method_reference" => p.named_child(0).filter(|x| x.id() != name.id()),
            "scoped_type_identifier" => {
                let last =
                    p.named_child(u32::try_from(p.named_child_count().checked_sub(1)?).ok()?)?;
                (last.id() == name.id())
                    .then(|| p.named_child(0))
                    .flatten()
                    .filter(|x| x.id() != name.id())
            }
            _ => None,
        };
    }
    // Ruby's `Foo::BAR`: the path before the name.
    if lang == Lang::Ruby {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "scope_resolution")?;
        return field(p, "scope").filter(|_| field(p, "name").is_some_and(|x| x.id() == name.id()));
    }
    if lang != Lang::Php || kind_of(name) != "name" {
        return None;
    }
    let p = up.parent(name)?;
    php_name_part(p, "namespace_name").or_else(|| field(p, "prefix"))
}

/// `self` or `this` when a member access's object ([`member_object`]) is the current
/// instance — `self.url`, `this.state`, `this->size`, PHP's `$this->size` and
/// `self::$count`/`static::$count` — else nothing: its reference then resolves as the
/// caller's own type's member first, as `self.f()` does.
pub fn instance_word(object: &str) -> Option<&'static str> {
    match object {
        "self" | "static" => Some("self"),
        "this" | "$this" => Some("this"),
        _ => None,
    }
}

/// The object a member access `n` (whose member [`reference_target`] named) reads from:
/// `params` in `params.width`, `self.db` in `self.db.conn`.
pub fn member_object<'t>(lang: Lang, n: Node<'t>) -> Option<Node<'t>> {
    match (lang, kind_of(n)) {
        (Lang::Python, "attribute") | (Lang::Java, "field_access") => field(n, "object"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "member_expression") => {
            field(n, "object")
        }
        (Lang::Rust, "field_expression") => field(n, "value"),
        (Lang::C | Lang::Cpp, "field_expression") => field(n, "argument"),
        (Lang::Go, "selector_expression") => field(n, "operand"),
        (Lang::CSharp, "member_access_expression") => field(n, "expression"),
        (Lang::Php, "member_access_expression" | "nullsafe_member_access_expression") => {
            field(n, "object")
        }
        // `self::$count`, `static::MAX`: the class's own member; `Foo::MAX` names the class
        // itself, read from nothing.
        (Lang::Php, "scoped_property_access_expression") => {
            field(n, "scope").filter(|s| kind_of(*s) == "relative_scope")
        }
        (Lang::Php, "class_constant_access_expression") => {
            n.named_child(0).filter(|s| kind_of(*s) == "relative_scope")
        }
        _ => None,
    }
}

fn is_call_function<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    up.parent(n)
        .and_then(|p| field(p, "function"))
        .is_some_and(|f| f.id() == n.id())
}

/// A name a declaration binds to a type: a parameter, a local variable, a field.
pub struct Binding<'t> {
    pub name: Node<'t>,
    /// The declared type, or an initializer to read one from ([`value_type`]).
    pub ty: Node<'t>,
    /// `ty` is an initializer expression (`new Foo()`, `Foo{…}`, `Foo::new()`, `Foo()`).
    pub from_value: bool,
    /// A member of the enclosing type (a field or property), not a local.
    pub field: bool,
    /// `ty` is what a loop takes its elements from (`for x in self.items`, Go's `for _, x :=
    /// range v.Args`): the name is one element.
    pub element: bool,
}

/// The typed names node `n` declares ([`Binding`]): a parameter with a written type, a local
/// variable with a written type or a constructor as its value, a field. Used to resolve
/// calls on a receiver (`sb.append()` after `StringBuilder sb = …`) to the receiver's type.
pub fn typed_bindings<'t>(lang: Lang, n: Node<'t>, src: &str, in_type: bool) -> Vec<Binding<'t>> {
    let mut out = Vec::new();
    let mut bind = |name: Option<Node<'t>>, ty: Option<Node<'t>>, from_value: bool, field: bool| {
        if let (Some(name), Some(ty)) = (name, ty) {
            out.push(Binding {
                name,
                ty,
                from_value,
                field,
                element: false,
            });
        }
    };
    // `Type a = new Type(), b;`: each declarator, with `var`/`auto` typed by its value.
    let declarators = |bind: &mut dyn FnMut(Option<Node<'t>>, Option<Node<'t>>, bool, bool),
                       ty: Node<'t>,
                       decls: Vec<Node<'t>>,
                       is_field: bool| {
        for d in decls {
            if is_var_type(ty, src) {
                let value = field(d, "value").or_else(|| {
                    named_children(d)
                        .into_iter()
                        .find(|c| kind_of(c) != "identifier")
                });
                bind(field(d, "name"), value, true, is_field);
            } else {
                bind(field(d, "name"), Some(ty), false, is_field);
            }
        }
    };
    let k = kind_of(n);
    // A loop's variable, an element of what it goes through: Go's `for _, x := range v.Args`
    // (the second name; the first is an index or key), Python's `for x in self.items`,
    // Rust's `for x in &self.items`, JavaScript's `for (const x of this.items)`, C#'s and
    // Java's with `var`.
    let each = match (lang, k) {
        (Lang::Go, "range_clause") => field(n, "left")
            .map(named_children)
            .filter(|names| names.len() == 2)
            .map(|names| names[1])
            .zip(field(n, "right")),
        (Lang::Python, "for_statement") => field(n, "left").zip(field(n, "right")),
        (Lang::Rust, "for_expression") => field(n, "pattern").zip(field(n, "value")),
        // `foreach (var x in this.items)`, `for (var x : this.items)`: a written type binds
        // as a declaration does, below.
        (Lang::CSharp, "foreach_statement") => field(n, "type")
            .filter(|t| is_var_type(*t, src))
            .and_then(|_| field(n, "left"))
            .zip(field(n, "right")),
        (Lang::Java, "enhanced_for_statement") => field(n, "type")
            .filter(|t| is_var_type(*t, src))
            .and_then(|_| field(n, "name"))
            .zip(field(n, "value")),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "for_in_statement") => {
            field(n, "operator")
                .filter(|o| src.get(o.byte_range()) == Some("of"))
                .and_then(|_| field(n, "left"))
                .zip(field(n, "right"))
        }
        _ => None,
    };
    if let Some((name, items)) = each
        && kind_of(name) == "identifier"
    {
        out.push(Binding {
            name,
            ty: items,
            from_value: true,
            field: false,
            element: true,
        });
        return out;
    }
    match lang {
        Lang::Java => match k {
            "formal_parameter" | "enhanced_for_statement" | "resource" => {
                bind(field(n, "name"), field(n, "type"), false, false)
            }
            "local_variable_declaration" | "field_declaration" => {
                if let Some(ty) = field(n, "type") {
                    let decls = children_by_field(n, "declarator");
                    declarators(&mut bind, ty, decls, k == "field_declaration");
                }
            }
            _ => {}
        },
        Lang::CSharp => match k {
            "parameter" => bind(field(n, "name"), field(n, "type"), false, false),
            "property_declaration" => bind(field(n, "name"), field(n, "type"), false, true),
            "foreach_statement" => bind(
                field(n, "left").filter(|l| kind_of(l) == "identifier"),
                field(n, "type"),
                false,
                false,
            ),
            "variable_declaration" => {
                if let Some(ty) = field(n, "type") {
                    let decls = named_children(n)
                        .into_iter()
                        .filter(|c| kind_of(c) == "variable_declarator")
                        .collect();
                    let is_field = parent_kind(n) == "field_declaration";
                    declarators(&mut bind, ty, decls, is_field);
                }
            }
            _ => {}
        },
        Lang::TypeScript | Lang::Tsx | Lang::JavaScript => match k {
            "required_parameter" | "optional_parameter" => {
                let name = field(n, "pattern")
                    .or_else(|| field(n, "name"))
                    .filter(|p| kind_of(p) == "identifier");
                // `constructor(private db: Db)` declares field `db` too.
                let property = named_children(n)
                    .iter()
                    .any(|c| kind_of(c) == "accessibility_modifier");
                bind(name, field(n, "type"), false, property);
            }
            "variable_declarator" | "public_field_definition" | "field_definition" => {
                let name = field(n, "name")
                    .or_else(|| field(n, "property"))
                    .filter(|p| matches!(kind_of(p), "identifier" | "property_identifier"));
                let is_field = k != "variable_declarator";
                match field(n, "type") {
                    Some(ty) => bind(name, Some(ty), false, is_field),
                    None => bind(name, field(n, "value"), true, is_field),
                }
            }
            // `this.engine = new Engine()` in a method: a field of the class.
            "assignment_expression" => {
                let name = field(n, "left")
                    .filter(|l| kind_of(l) == "member_expression")
                    .filter(|l| field(*l, "object").is_some_and(|o| kind_of(o) == "this"))
                    .and_then(|l| field(l, "property"));
                bind(name, field(n, "right"), true, true);
            }
            _ => {}
        },
        Lang::Go => match k {
            "parameter_declaration" | "var_spec" | "field_declaration" => {
                let is_field = k == "field_declaration";
                let ty = field(n, "type");
                let names = children_by_field(n, "name");
                let values = field(n, "value").map(named_children).unwrap_or_default();
                for (i, name) in names.into_iter().enumerate() {
                    match ty {
                        Some(ty) => bind(Some(name), Some(ty), false, is_field),
                        None => bind(Some(name), values.get(i).copied(), true, is_field),
                    }
                }
            }
            // `switch v := x.(type) { case *T: v.f() }`: in a case of one type, the alias is
            // of that type; in a case of several (or `default`), of `x`'s (its declared type
            // when `x` is a local or parameter of one).
            "type_case" | "default_case" => {
                let switch = n
                    .parent()
                    .filter(|p| kind_of(*p) == "type_switch_statement");
                let alias = switch
                    .and_then(|p| field(p, "alias"))
                    .and_then(|a| a.named_child(0))
                    .filter(|a| kind_of(*a) == "identifier");
                match children_by_field(n, "type")[..] {
                    [ty] => bind(alias, Some(ty), false, false),
                    _ => bind(alias, switch.and_then(|p| field(p, "value")), true, false),
                }
            }
            "short_var_declaration" => {
                let left = field(n, "left").map(named_children).unwrap_or_default();
                let right = field(n, "right").map(named_children).unwrap_or_default();
                // `a, b := x, y` pairs them; `srv, err := NewServer()` gives the call's first
                // result, by convention the value, to the first name.
                if left.len() == right.len() || right.len() == 1 {
                    for (l, r) in left.into_iter().zip(right) {
                        if kind_of(l) == "identifier" {
                            bind(Some(l), Some(r), true, false);
                        }
                    }
                }
            }
            _ => {}
        },
        Lang::Rust => match k {
            "parameter" => bind(
                field(n, "pattern").filter(|p| kind_of(p) == "identifier"),
                field(n, "type"),
                false,
                false,
            ),
            "let_declaration" => {
                let name = field(n, "pattern").filter(|p| kind_of(p) == "identifier");
                match field(n, "type") {
                    Some(ty) => bind(name, Some(ty), false, false),
                    None => bind(name, field(n, "value"), true, false),
                }
            }
            "field_declaration" => bind(field(n, "name"), field(n, "type"), false, true),
            _ => {}
        },
        Lang::Python => match k {
            "typed_parameter" => bind(
                named_children(n)
                    .into_iter()
                    .find(|c| kind_of(c) == "identifier"),
                field(n, "type"),
                false,
                false,
            ),
            "typed_default_parameter" => bind(field(n, "name"), field(n, "type"), false, false),
            "assignment" => {
                let left = field(n, "left");
                // `self.engine = Engine()` in a method: a field of the class.
                let (name, is_field) = match left {
                    Some(l) if kind_of(l) == "identifier" => (Some(l), in_type),
                    Some(l) if kind_of(l) == "attribute" => (
                        field(l, "object")
                            .filter(|o| kind_of(o) == "identifier")
                            .and_then(|_| field(l, "attribute")),
                        true,
                    ),
                    _ => (None, false),
                };
                match field(n, "type") {
                    Some(ty) => bind(name, Some(ty), false, is_field),
                    None => bind(name, field(n, "right"), true, is_field),
                }
            }
            _ => {}
        },
        Lang::C | Lang::Cpp => match k {
            "parameter_declaration" | "optional_parameter_declaration" | "field_declaration" => {
                let is_field = k == "field_declaration";
                bind(
                    field(n, "declarator").and_then(declarator_name),
                    field(n, "type"),
                    false,
                    is_field,
                )
            }
            "declaration" => {
                if let Some(ty) = field(n, "type") {
                    for d in children_by_field(n, "declarator") {
                        if is_var_type(ty, src) {
                            let value = field(d, "value");
                            bind(declarator_name(d), value, true, false);
                        } else {
                            bind(declarator_name(d), Some(ty), false, false);
                        }
                    }
                }
            }
            _ => {}
        },
        Lang::Php => match k {
            "simple_parameter" => bind(field(n, "name"), field(n, "type"), false, false),
            "property_promotion_parameter" => bind(field(n, "name"), field(n, "type"), false, true),
            // `catch (RuntimeException $e)`: one type (a union, `A | B $e`, is none).
            "catch_clause" => {
                let types = field(n, "type").map(named_children).unwrap_or_default();
                let ty = match types.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                };
                bind(field(n, "name"), ty, false, false)
            }
            "property_declaration" => {
                if let Some(ty) = field(n, "type") {
                    for el in named_children(n) {
                        if kind_of(el) == "property_element" {
                            let name = named_children(el)
                                .into_iter()
                                .find(|c| kind_of(c) == "variable_name");
                            bind(name, Some(ty), false, true);
                        }
                    }
                }
            }
            "assignment_expression" => bind(
                field(n, "left").filter(|l| kind_of(l) == "variable_name"),
                field(n, "right"),
                true,
                false,
            ),
            _ => {}
        },
        Lang::Ruby if k == "assignment" => bind(
            field(n, "left").filter(|l| matches!(kind_of(l), "identifier" | "instance_variable")),
            field(n, "right"),
            true,
            false,
        ),
        _ => {}
    }
    out
}

/// The name a Go import path binds when the import does not rename it, as `goimports`
/// assumes it: the path's last element (the one before a major version's `v2`), without a
/// `go-` prefix, up to its first character that cannot be in an identifier — `yaml` of
/// `gopkg.in/yaml.v3`, `toml` of `github.com/pelletier/go-toml`, `cmp` of
/// `github.com/google/go-cmp/cmp`. (The package's own `package` clause may say otherwise; a
/// repository rarely names a package unlike its directory.)
pub fn go_package_name(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let mut base = parts.next().unwrap_or(path);
    if let Some(v) = base.strip_prefix('v')
        && !v.is_empty()
        && v.bytes().all(|b| b.is_ascii_digit())
        && let Some(before) = parts.next()
    {
        base = before;
    }
    let base = base.strip_prefix("go-").unwrap_or(base);
    let end = base
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(base.len());
    match &base[..end] {
        "" => base,
        name => name,
    }
}

/// `var` (Java, C#) and `auto` (C++): the type is the value's.
fn is_var_type(ty: Node, src: &str) -> bool {
    matches!(
        kind_of(ty),
        "implicit_type" | "placeholder_type_specifier" | "auto"
    ) || src.get(ty.byte_range()) == Some("var")
}

/// The children of `n` in field `name`, in order.
fn children_by_field<'t>(n: Node<'t>, name: &'static str) -> Vec<Node<'t>> {
    let mut cursor = n.walk();
    n.children_by_field_name(name, &mut cursor).collect()
}

/// The name a C/C++ declarator declares: `x` of `x`, `*x`, `&x`, `x = 1`, `x[3]`.
fn declarator_name(mut d: Node) -> Option<Node> {
    // Declarators nest (`**x[3]`), possibly deeply: a bounded number of levels.
    for _ in 0..16 {
        d = match kind_of(d) {
            "identifier" | "field_identifier" => return Some(d),
            "pointer_declarator" | "init_declarator" | "array_declarator" => {
                field(d, "declarator")?
            }
            "reference_declarator" => d.named_child(0)?,
            _ => return None,
        };
    }
    None
}

/// The node naming the type an initializer makes: `Foo` of `new Foo(…)`, `Foo{…}`, `&Foo{…}`,
/// `Foo::new(…)`, `Foo(…)` (Python, a capitalised name), `Foo.new` (Ruby), Go's `new(Foo)` and
/// `x.(*Foo)`.
pub fn value_type<'t>(lang: Lang, mut v: Node<'t>, src: &str) -> Option<Node<'t>> {
    // `&T{}`, `&&x`: through the references (a bounded number: `&&&…` may nest deeply).
    for _ in 0..8 {
        match (lang, kind_of(v)) {
            (Lang::Go, "unary_expression") => v = field(v, "operand")?,
            (Lang::Rust, "reference_expression") => v = field(v, "value")?,
            _ => break,
        }
    }
    match (lang, kind_of(v)) {
        (_, "object_creation_expression") if lang != Lang::Php => field(v, "type"),
        (Lang::Php, "object_creation_expression") => named_children(v)
            .into_iter()
            .find(|c| matches!(kind_of(c), "name" | "qualified_name")),
        (_, "new_expression") => field(v, "constructor").or_else(|| field(v, "type")),
        (Lang::Go, "composite_literal") => field(v, "type"),
        // `x.(*T)`, `h, ok := t.(tHelper)`.
        (Lang::Go, "type_assertion_expression") => field(v, "type"),
        // `new(T)`.
        (Lang::Go, "call_expression") => field(v, "function")
            .filter(|f| src.get(f.byte_range()) == Some("new"))
            .and_then(|_| field(v, "arguments"))
            .and_then(|a| a.named_child(0))
            .filter(|t| {
                matches!(
                    kind_of(t),
                    "type_identifier" | "qualified_type" | "generic_type"
                )
            }),
        (Lang::Rust, "struct_expression") => field(v, "name"),
        (Lang::Rust, "call_expression") => {
            // `Foo::new(…)`, `Foo::with_capacity(…)`: a path whose last-but-one is a type.
            let f = field(v, "function")?;
            (kind_of(f) == "scoped_identifier")
                .then(|| field(f, "path"))
                .flatten()
                .filter(|p| starts_upper(p, src))
        }
        (Lang::Python, "call") => field(v, "function")
            .filter(|f| matches!(kind_of(f), "identifier" | "attribute"))
            .filter(|f| {
                let t = src.get(f.byte_range()).unwrap_or("");
                t.rsplit('.')
                    .next()
                    .is_some_and(|l| l.starts_with(|c: char| c.is_uppercase()))
            }),
        (Lang::Ruby, "call") => {
            let new = field(v, "method").is_some_and(|m| src.get(m.byte_range()) == Some("new"));
            field(v, "receiver")
                .filter(|r| new && matches!(kind_of(r), "constant" | "scope_resolution"))
        }
        _ => None,
    }
}

fn starts_upper(n: &Node, src: &str) -> bool {
    src.get(n.byte_range())
        .and_then(|t| t.rsplit("::").next())
        .is_some_and(|l| l.starts_with(|c: char| c.is_uppercase()))
}

/// A declared type's name as resolution looks it up: its path as written, without
/// references, pointers, generic arguments, array brackets or a leading `:` (`&mut Vec<T>` →
/// `Vec`, `*sql.DB` → `sql.DB`, `java.util.List<String>` → `java.util.List`, `: Repo | null`
/// → `Repo`, Python's `Optional[tasks.Task]` → `tasks.Task`). `None` for anything else (a
/// function type, a tuple, `var`).
pub fn type_name(text: &str) -> Option<&str> {
    let mut t = text.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    if let Some(inner) = t
        .strip_prefix("Optional[")
        .or_else(|| t.strip_prefix("typing.Optional["))
    {
        t = inner;
    }
    loop {
        let before = t;
        for prefix in [
            "&",
            "*",
            "mut ",
            "const ",
            "readonly ",
            "?",
            "dyn ",
            "impl ",
            "struct ",
            "class ",
        ] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if let Some(rest) = t.strip_prefix('\'') {
            // A Rust lifetime: `&'a T`.
            t = rest
                .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                .trim_start();
        }
        if t == before {
            break;
        }
    }
    let end = path_end(t);
    // An array of the type (`String[]`, `List<T>[]`, C#'s `int[,]`) is no value of it:
    // `patterns.length` is the array's. (Python's `list[int]` is a list.)
    if is_array_suffix(&t[end..]) {
        return None;
    }
    let path = t[..end]
        .trim_end_matches([':', '.'])
        .trim_start_matches(['\\', ':']);
    let last = path.rsplit(['.', ':', '\\']).next()?;
    let ok = last.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && !matches!(
            last,
            "var" | "auto" | "let" | "const" | "dynamic" | "object" | "Self"
        );
    ok.then_some(path)
}

/// The receiver type ([`crate::analyze::RawEdge::receiver_type`]) of a value declared an
/// array (`String[] names`, `int[,] grid`): its members (`names.length`, `names.clone()`) are
/// the language's, never the element type's.
pub const ARRAY: &str = "[]";

/// Whether a declared type is an array of some type: `String[]`, `List<T>[]`.
pub fn is_array_type(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    let end = path_end(t);
    end > 0 && is_array_suffix(&t[end..])
}

/// Where the type path `t` begins with ends (`java.util.List` of `java.util.List<T>`).
fn path_end(t: &str) -> usize {
    // (`$` of JavaScript's names: `core.$constructor<T>` is no `core`; a name starting
    // with `$`, a PHP variable's too, is no type `type_name` gives.)
    t.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':' | '\\')))
        .unwrap_or(t.len())
}

/// Whether what follows a type's name makes an array of it: `[]`, `[,]` or `[3]`, after any
/// generic arguments (`<T>[]`).
fn is_array_suffix(rest: &str) -> bool {
    let mut rest = rest.trim_start();
    if rest.starts_with('<') {
        let mut depth = 0usize;
        let close = rest.char_indices().find(|&(_, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0
        });
        match close {
            Some((i, _)) => rest = rest[i + 1..].trim_start(),
            None => return false,
        }
    }
    rest.strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .is_some_and(|(inside, _)| {
            inside
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace())
        })
}

/// The last segment of a [`type_name`] path (`Font` of `tkfont.Font`, `string` of
/// `std::string`) and what qualifies it, if anything.
pub fn split_type_path(path: &str) -> (Option<&str>, &str) {
    match path.rfind(['.', ':', '\\']) {
        Some(i) => {
            let q = path[..i].trim_end_matches([':', '.', '\\']);
            (Some(q).filter(|q| !q.is_empty()), &path[i + 1..])
        }
        None => (None, path),
    }
}

/// Types whose methods are mostly the wrapped value's (Rust's smart pointers and cells, C++'s
/// smart pointers): a receiver of such a type is left untyped.
pub fn is_wrapper_type(lang: Lang, ty: &str) -> bool {
    match lang {
        Lang::Rust => matches!(
            split_type_path(ty).1,
            "Box"
                | "Rc"
                | "Arc"
                | "RefCell"
                | "Cell"
                | "Mutex"
                | "RwLock"
                | "Pin"
                | "Cow"
                | "Ref"
                | "RefMut"
                | "MutexGuard"
                | "ManuallyDrop"
                | "Weak"
        ),
        Lang::Cpp => matches!(
            split_type_path(ty).1,
            "unique_ptr" | "shared_ptr" | "weak_ptr" | "optional"
        ),
        _ => false,
    }
}

/// Languages where a bare receiver in a method may name a field of the instance
/// (`engine.run()` for `this.engine.run()`). Ruby's bare names are methods, not fields.
pub fn bare_receiver_may_be_field(lang: Lang) -> bool {
    matches!(lang, Lang::Java | Lang::CSharp | Lang::Cpp)
}

/// What a Ruby `identifier` is where it stands: a local it declares (a parameter, an
/// assignment's target, a block's or `for`'s variable, `rescue => e`), a use that may be a
/// call without parentheses or arguments (`total` in `def price; total * 2; end`), or
/// neither (a method's name, a call's method, a keyword argument's key…). Whether a use is a
/// call depends on whether the method declared that local before ([`Walker`]'s locals).
pub enum RubyName {
    Declares,
    Use,
    Other,
}

pub fn ruby_name<'t>(up: Up<'_, 't>, n: Node<'t>) -> RubyName {
    let Some(parent) = up.parent(n) else {
        return RubyName::Other;
    };
    let is = |name: &'static str| field(parent, name).is_some_and(|f| f.id() == n.id());
    match kind_of(parent) {
        "method_parameters"
        | "block_parameters"
        | "lambda_parameters"
        | "destructured_parameter"
        | "splat_parameter"
        | "hash_splat_parameter"
        | "block_parameter"
        | "left_assignment_list"
        | "rest_assignment"
        | "exception_variable"
        | "destructured_left_assignment" => RubyName::Declares,
        "optional_parameter" | "keyword_parameter" if is("name") => RubyName::Declares,
        "for" if is("pattern") => RubyName::Declares,
        "assignment" | "operator_assignment" if is("left") => RubyName::Declares,
        "assignment" | "operator_assignment" => RubyName::Use,
        "call" if is("receiver") => RubyName::Use,
        "body_statement"
        | "block_body"
        | "then"
        | "else"
        | "begin"
        | "ensure"
        | "program"
        | "argument_list"
        | "binary"
        | "unary"
        | "parenthesized_statements"
        | "return"
        | "array"
        | "pair"
        | "conditional"
        | "interpolation"
        | "element_reference"
        | "if"
        | "unless"
        | "while"
        | "until"
        | "if_modifier"
        | "unless_modifier"
        | "while_modifier"
        | "until_modifier"
        | "rescue_modifier"
        | "elsif"
        | "splat_argument"
        | "hash_splat_argument"
        | "block_argument"
        | "range"
        | "optional_parameter"
        | "keyword_parameter"
        | "in" => RubyName::Use,
        _ => RubyName::Other,
    }
}

/// A TypeScript constructor's parameter with an accessibility or `readonly` modifier
/// (`constructor(private db: Db)`): it declares a field of the class as well.
pub fn parameter_property<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> bool {
    let mut cursor = n.walk();
    let modified = n
        .children(&mut cursor)
        .any(|c| matches!(kind_of(c), "accessibility_modifier" | "readonly"));
    modified
        && up
            .parent(n)
            .and_then(|params| up.parent(params))
            .filter(|m| kind_of(*m) == "method_definition")
            .and_then(|m| field(m, "name"))
            .is_some_and(|name| src.get(name.byte_range()) == Some("constructor"))
}

/// Go's constructor convention: `NewServer(…)` makes a `Server`, `http.NewRequest(…)` an
/// `http.Request` (the function's return type is in another file's signature, which
/// analysis does not see). `New(…)` alone names no type.
pub fn go_constructor_type(lang: Lang, v: Node, src: &str) -> Option<String> {
    if lang != Lang::Go {
        return None;
    }
    let v = match kind_of(v) {
        "unary_expression" => field(v, "operand")?,
        _ => v,
    };
    if kind_of(v) != "call_expression" {
        return None;
    }
    let f = src.get(field(v, "function")?.byte_range())?;
    let (pkg, name) = match f.rsplit_once('.') {
        Some((p, n)) => (Some(p), n),
        None => (None, f),
    };
    let ty = name.strip_prefix("New")?;
    if !ty.starts_with(|c: char| c.is_ascii_uppercase())
        || !ty.chars().all(|c| c.is_alphanumeric() || c == '_')
        || pkg.is_some_and(|p| !p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return None;
    }
    Some(match pkg {
        Some(p) => format!("{p}.{ty}"),
        None => ty.to_string(),
    })
}
