//! Annotation macros of C and C++, blanked out of the text tree-sitter parses.
//!
//! Tree-sitter does not preprocess, so a macro that expands to an attribute or to nothing
//! breaks the declaration it annotates: `class API_EXPORT Shape { … }` parses as a function
//! `Shape` returning `class API_EXPORT`, with the class body as its body (Qt's `class
//! Q_CORE_EXPORT QObject`, protobuf's `PROTOBUF_EXPORT`, gtest's `GTEST_API_`), and `LUA_API
//! void (lua_pushnil) (lua_State *L)` as a function named `void`. A compiler sees these
//! macros expanded; here they are replaced by spaces in a copy of the text before it is
//! parsed, where the text can say nothing else:
//!
//! - between `class`, `struct` or `union` and the type's name, when what follows the name
//!   opens a definition (`{`, a base clause `:`, a specialisation's `<`, or `final`): the
//!   names before the type's name, all macro-like (upper case, digits and `_`);
//! - before a keyword that starts a declaration (`void`, `int`, `static`, `virtual`, `class`,
//!   …: `SQLITE_API int f(void)`, `Q_INVOKABLE void f()`, a `Q_OBJECT` line before a member),
//!   with the macro-like names right before it (`API EXPORT_FN int f(void)`): a name before
//!   such a keyword is nothing else in C or C++;
//! - before `const` or `volatile`, a type and a declarator (`OSSL_DEPRECATEDIN_3_0 const
//!   BIGNUM *f(void)`), but not after a type's name (`SIZE const n`);
//! - before a type and a function's name (`LLVM_NODISCARD StringRef copy(Allocator &A)`), or a
//!   parenthesised one (`LUA_API lua_Number (lua_tonumberx) (lua_State *L)`);
//! - a calling convention: between a type and a function's name (`void APIENTRY
//!   glClear(GLbitfield mask)`, `DWORD WINAPI ThreadProc(LPVOID)`), or after `(` before a
//!   function pointer's name (`typedef void (APIENTRYP PFNGLCLEARPROC)(GLbitfield)`);
//! - after a parameter list, before the body (`void f() OVERRIDE {`).
//!
//! Preprocessor lines, strings and comments are left as they are (`#define EXPORT static`
//! names `EXPORT`); comments between a macro and what follows it are passed over. Only whole
//! names become spaces of the same length, so every byte and line keeps its offset: the
//! tree's ranges index the original text, from which the walk reads every name, signature
//! and comment (a declaration starts at the macros before it on its line, which its signature
//! keeps: [`Blanked::annotated_start`]).

use crate::lang::Lang;

/// Keywords other than a type's ([`TYPE_KEYWORDS`]) that start a declaration: a macro-like
/// name before one of them can only be a macro ([`starts_declaration`]).
const DECLARATION_KEYWORDS: &[&[u8]] = &[
    b"static",
    b"extern",
    b"inline",
    b"__inline",
    b"__inline__",
    b"register",
    b"typedef",
    b"struct",
    b"union",
    b"enum",
    b"class",
    b"virtual",
    b"explicit",
    b"friend",
    b"constexpr",
    b"consteval",
    b"constinit",
    b"mutable",
    b"thread_local",
    b"template",
    b"typename",
];

/// Keywords that name a type: a calling convention's macro may follow one (`void APIENTRY
/// glClear(…)`).
const TYPE_KEYWORDS: &[&[u8]] = &[
    b"void",
    b"char",
    b"short",
    b"int",
    b"long",
    b"float",
    b"double",
    b"signed",
    b"unsigned",
    b"bool",
    b"_Bool",
    b"wchar_t",
    b"char8_t",
    b"char16_t",
    b"char32_t",
    b"auto",
];

/// C's and C++'s other keywords: a name before a macro-like name is a type's only when it is
/// none of these (`const FOO f(void)` declares `f` of type `FOO`).
const KEYWORDS: &[&[u8]] = &[
    b"alignas",
    b"alignof",
    b"asm",
    b"break",
    b"case",
    b"catch",
    b"class",
    b"const",
    b"consteval",
    b"constexpr",
    b"constinit",
    b"const_cast",
    b"continue",
    b"co_await",
    b"co_return",
    b"co_yield",
    b"decltype",
    b"default",
    b"delete",
    b"do",
    b"dynamic_cast",
    b"else",
    b"enum",
    b"explicit",
    b"export",
    b"extern",
    b"false",
    b"for",
    b"friend",
    b"goto",
    b"if",
    b"inline",
    b"mutable",
    b"namespace",
    b"new",
    b"noexcept",
    b"nullptr",
    b"operator",
    b"private",
    b"protected",
    b"public",
    b"register",
    b"reinterpret_cast",
    b"restrict",
    b"return",
    b"sizeof",
    b"static",
    b"static_assert",
    b"static_cast",
    b"struct",
    b"switch",
    b"template",
    b"this",
    b"thread_local",
    b"throw",
    b"true",
    b"try",
    b"typedef",
    b"typeid",
    b"typename",
    b"union",
    b"using",
    b"virtual",
    b"volatile",
    b"while",
];

/// Keywords that may follow a function's parameter list before its body.
const AFTER_PARAMETERS: &[&[u8]] = &[b"const", b"volatile", b"noexcept", b"override", b"final"];

/// What came before the scanned name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// A name (its range): a type's, unless a keyword other than a type's.
    Name(usize, usize),
    /// `*` or `&`.
    Pointer,
    Open,
    /// `)`, or `)` and keywords that may follow a parameter list.
    Close,
    Other,
}

impl Prev {
    /// Whether a type ends here (decided only when asked: most names are never followed by a
    /// macro-like one).
    fn is_type(self, bytes: &[u8]) -> bool {
        match self {
            Prev::Name(start, end) => {
                let name = &bytes[start..end];
                TYPE_KEYWORDS.contains(&name) || !KEYWORDS.contains(&name)
            }
            Prev::Pointer => true,
            Prev::Open | Prev::Close | Prev::Other => false,
        }
    }
}

fn find(bytes: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(what.len())
        .position(|w| w == what)
        .map(|n| from + n)
}

/// The end of a string or character literal starting at `at` (its closing quote's next
/// byte; the line's end when it is not closed).
fn literal_end(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Whether `name` is a keyword that starts a declaration or its type.
fn starts_declaration(name: &[u8]) -> bool {
    TYPE_KEYWORDS.contains(&name) || DECLARATION_KEYWORDS.contains(&name)
}

/// Whether `name` is any keyword of C or C++.
fn is_keyword(name: &[u8]) -> bool {
    starts_declaration(name) || KEYWORDS.contains(&name)
}

/// The end of a comment starting at `i` (a line comment's up to its newline), if one does.
fn comment_end(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i..i + 2)? {
        b"//" => Some(
            bytes[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |n| i + n),
        ),
        b"/*" => Some(find(bytes, i + 2, b"*/").map_or(bytes.len(), |n| n + 2)),
        _ => None,
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A name spelt like a macro: upper-case letters, digits and `_`, with a letter, at least two
/// characters (`API_EXPORT`, `GTEST_API_`, `Q_OBJECT`; not `T`).
fn macro_like(name: &[u8]) -> bool {
    name.len() >= 2
        && !name[0].is_ascii_digit()
        && name
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && name.iter().any(u8::is_ascii_uppercase)
}

/// A file's text with its annotation macros blanked out.
pub struct Blanked {
    pub text: Vec<u8>,
    /// The blanked names' byte ranges, in order.
    pub ranges: Vec<(usize, usize)>,
}

impl Blanked {
    /// Where a declaration starting at `start` starts with the annotation macros written
    /// right before it on its line (`SQLITE_API int f(void)` starts at `SQLITE_API`): as a
    /// compiler sees it, the macros' expansion is part of the declaration.
    pub fn annotated_start(&self, src: &str, mut start: usize) -> usize {
        loop {
            let i = self.ranges.partition_point(|r| r.1 <= start);
            let Some(&(from, to)) = i.checked_sub(1).and_then(|i| self.ranges.get(i)) else {
                return start;
            };
            if !src.as_bytes()[to..start]
                .iter()
                .all(|&b| b == b' ' || b == b'\t')
            {
                return start;
            }
            start = from;
        }
    }
}

/// The text to parse for a file: `None` when it is the file's own (not C or C++, or no
/// annotation macro found), else a copy with the annotation macros blanked out.
pub fn blanked(lang: Lang, src: &str) -> Option<Blanked> {
    if !matches!(lang, Lang::C | Lang::Cpp) {
        return None;
    }
    let bytes = src.as_bytes();
    let mut blanks: Vec<(usize, usize)> = vec![];
    // The macro-like names just before `i`, with only blanks between them (`API EXPORT_FN`
    // of `API EXPORT_FN int f(void)`): blanked with the last when a keyword follows it.
    let mut run: Vec<(usize, usize)> = vec![];
    // What came before `i`.
    let mut prev = Prev::Other;
    let mut i = 0;
    // Whether `i` is at the start of a line (only blanks before it on the line).
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if b == b' ' || b == b'\t' || b == b'\r' || b == b'\x0c' {
            i += 1;
            continue;
        }
        // Comments are blanks; strings and characters are skipped whole.
        if b == b'/'
            && let Some(end) = comment_end(bytes, i)
        {
            i = end;
            continue;
        }
        if b == b'"' || b == b'\'' {
            i = literal_end(bytes, i);
            run.clear();
            prev = Prev::Other;
            line_start = false;
            continue;
        }
        if b == b'#' && line_start {
            run.clear();
            prev = Prev::Other;
            i = directive_end(bytes, i);
            continue;
        }
        line_start = false;
        if !is_ident_start(b) || (i > 0 && is_ident(bytes[i - 1])) {
            run.clear();
            prev = match b {
                b'(' => Prev::Open,
                b')' => Prev::Close,
                b'*' | b'&' => Prev::Pointer,
                _ => Prev::Other,
            };
            i += 1;
            continue;
        }
        let end = ident_end(bytes, i);
        let name = &bytes[i..end];
        let class_key =
            name == b"struct" || name == b"union" || (lang == Lang::Cpp && name == b"class");
        if class_key {
            type_name_macros(bytes, end, &mut blanks);
        }
        if !macro_like(name) {
            run.clear();
        } else if let Some(next) = next_name(bytes, end)
            && (starts_declaration(&bytes[next.0..next.1])
                || parenthesised_name_follows(bytes, next.1)
                || qualified_type_follows(bytes, next)
                || typed_function_follows(bytes, next))
        {
            blanks.append(&mut run);
            blanks.push((i, end));
        } else if (prev.is_type(bytes)
            && next_name(bytes, end).is_some_and(|next| function_name_follows(bytes, next)))
            || (prev == Prev::Open && pointer_type_name_follows(bytes, end))
            || (prev == Prev::Close && body_follows(bytes, end))
        {
            run.clear();
            blanks.push((i, end));
        } else {
            run.push((i, end));
        }
        prev = if prev == Prev::Close
            && (AFTER_PARAMETERS.contains(&name) || blanks.last() == Some(&(i, end)))
        {
            // `) const`, `) OVERRIDE`: still after a parameter list.
            Prev::Close
        } else {
            Prev::Name(i, end)
        };
        i = end;
    }
    if blanks.is_empty() {
        return None;
    }
    blanks.sort_unstable();
    blanks.dedup();
    let mut text = bytes.to_vec();
    for &(start, end) in &blanks {
        text[start..end].fill(b' ');
    }
    Some(Blanked {
        text,
        ranges: blanks,
    })
}

fn ident_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    while end < bytes.len() && is_ident(bytes[end]) {
        end += 1;
    }
    end
}

/// The end of a preprocessor directive starting at `at` (its line, and the lines a `\`
/// continues it on).
fn directive_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'\\' if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') => i += 3,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    i
}

/// Past blanks and comments from `i`.
fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        match comment_end(bytes, i) {
            Some(end) => i = end,
            None => return i,
        }
    }
}

/// The range of the name after blanks from `from`, if a name comes next.
fn next_name(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let start = skip_blanks(bytes, from);
    (start < bytes.len() && is_ident_start(bytes[start])).then(|| (start, ident_end(bytes, start)))
}

/// Whether `(name) (` follows `from`: after `MACRO type`, a function whose name is in
/// parentheses (Lua's `LUA_API lua_Number (lua_tonumberx) (lua_State *L, …)`, which keeps a
/// function-like macro of the same name from expanding). `type (name) (…)` is no expression
/// or declaration after a type's name: the name before it is a macro.
fn parenthesised_name_follows(bytes: &[u8], from: usize) -> bool {
    let open = skip_blanks(bytes, from);
    if bytes.get(open) != Some(&b'(') {
        return false;
    }
    let Some((_, end)) = next_name(bytes, open + 1) else {
        return false;
    };
    let close = skip_blanks(bytes, end);
    bytes.get(close) == Some(&b')') && bytes.get(skip_blanks(bytes, close + 1)) == Some(&b'(')
}

/// Whether the name `next` is a function's, a `(` following it, and no keyword: after a type,
/// a macro-like name before it is a calling convention (`void APIENTRY glClear(GLbitfield)`,
/// `DWORD WINAPI ThreadProc(LPVOID)`, `int XMLCALL xmlFoo(void)`). A type, a name and another
/// name is no declaration or expression without it.
fn function_name_follows(bytes: &[u8], next: (usize, usize)) -> bool {
    let name = &bytes[next.0..next.1];
    !is_keyword(name) && bytes.get(skip_blanks(bytes, next.1)) == Some(&b'(')
}

/// Whether `[*] name ) (` follows `from`, after `(` and a macro-like name: a pointer to a
/// function's calling convention (`typedef void (APIENTRYP PFNGLCLEARPROC)(GLbitfield)`, `void
/// (APIENTRY *callback)(void)`). Two names in parentheses before a parameter list are nothing
/// else.
fn pointer_type_name_follows(bytes: &[u8], from: usize) -> bool {
    let mut at = skip_blanks(bytes, from);
    if bytes.get(at) == Some(&b'*') {
        at += 1;
    }
    let Some((_, end)) = next_name(bytes, at) else {
        return false;
    };
    let close = skip_blanks(bytes, end);
    bytes.get(close) == Some(&b')') && bytes.get(skip_blanks(bytes, close + 1)) == Some(&b'(')
}

/// Whether, after a macro-like name, `const` or `volatile`, a type and a declarator follow
/// (`OSSL_DEPRECATEDIN_3_0 const BIGNUM *DH_get0_p(const DH *dh)`): a type's name is
/// followed by `const` and its declarator, not by another type (`SIZE const n = 4;`).
fn qualified_type_follows(bytes: &[u8], next: (usize, usize)) -> bool {
    if !matches!(&bytes[next.0..next.1], b"const" | b"volatile") {
        return false;
    }
    let Some((start, end)) = next_name(bytes, next.1) else {
        return false;
    };
    let ty = &bytes[start..end];
    if KEYWORDS.contains(&ty) && !TYPE_KEYWORDS.contains(&ty) {
        return false;
    }
    let after = skip_blanks(bytes, end);
    bytes
        .get(after)
        .is_some_and(|&b| is_ident_start(b) || b == b'*' || b == b'&')
}

/// Whether, after a macro-like name, a type and a function's name follow (`LLVM_NODISCARD
/// StringRef copy(Allocator &A)`, `PROTOBUF_ALWAYS_INLINE std::pair<uint32_t, bool>
/// ReadTag(…)`, `EXPORT Status *open(…)`): three names before a parameter list are no
/// declaration without a macro. The type is not macro-like itself (`DWORD WINAPI f(…)`: the
/// calling convention is the macro).
fn typed_function_follows(bytes: &[u8], next: (usize, usize)) -> bool {
    let ty = &bytes[next.0..next.1];
    if macro_like(ty) || is_keyword(ty) {
        return false;
    }
    let mut at = next.1;
    while bytes.get(at..at + 2) == Some(b"::")
        && bytes.get(at + 2).is_some_and(|&b| is_ident_start(b))
    {
        at = ident_end(bytes, at + 2);
    }
    at = skip_blanks(bytes, at);
    if bytes.get(at) == Some(&b'<') {
        let Some(end) = template_arguments_end(bytes, at) else {
            return false;
        };
        at = skip_blanks(bytes, end);
    }
    while matches!(bytes.get(at), Some(b'*' | b'&')) {
        at = skip_blanks(bytes, at + 1);
    }
    let Some((start, end)) = next_name(bytes, at).filter(|n| n.0 == at) else {
        return false;
    };
    let name = &bytes[start..end];
    name == b"operator" || (!is_keyword(name) && bytes.get(skip_blanks(bytes, end)) == Some(&b'('))
}

/// The end of template arguments opening at `at` (`<`): after their `>`; `None` when a
/// statement's or block's bound comes first.
fn template_arguments_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        match b {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// Whether macro-like names and then a function's body follow, after a parameter list
/// (`void f() OVERRIDE {`, `~X() _GLIBCXX_NOEXCEPT {`): nothing but a body, `const`,
/// `noexcept`, `override`, `final`, a trailing return type or an initialiser list may.
fn body_follows(bytes: &[u8], from: usize) -> bool {
    let mut at = skip_blanks(bytes, from);
    while let Some((start, end)) = next_name(bytes, at).filter(|n| n.0 == at) {
        if !macro_like(&bytes[start..end]) {
            return false;
        }
        at = skip_blanks(bytes, end);
    }
    bytes.get(at) == Some(&b'{')
}

/// After `class`/`struct`/`union` (ending at `from`): the names up to what opens the
/// definition; when there are several (`API_EXPORT Shape`), and all before the type's name
/// are macro-like, those are blanked.
fn type_name_macros(bytes: &[u8], from: usize, blanks: &mut Vec<(usize, usize)>) {
    // Names separated by blanks; a name may be qualified (`ns::Shape`).
    let mut names: Vec<(usize, usize)> = vec![];
    let mut i = from;
    while let Some((start, mut end)) = next_name(bytes, i) {
        while bytes.get(end..end + 2) == Some(b"::")
            && bytes.get(end + 2).is_some_and(|&b| is_ident_start(b))
        {
            end = ident_end(bytes, end + 2);
        }
        names.push((start, end));
        // Five names is more than any annotated declaration has.
        if names.len() > 5 {
            return;
        }
        i = end;
    }
    let after = skip_blanks(bytes, i);
    let opens = match bytes.get(after) {
        Some(b'{' | b'<') => true,
        Some(b':') => bytes.get(after + 1) != Some(&b':'),
        _ => false,
    };
    if !opens {
        return;
    }
    if names.last().is_some_and(|&(s, e)| &bytes[s..e] == b"final") {
        names.pop();
    }
    let Some((_, before)) = names.split_last() else {
        return;
    };
    if !before.is_empty() && before.iter().all(|&(s, e)| macro_like(&bytes[s..e])) {
        blanks.extend_from_slice(before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(lang: Lang, src: &str) -> String {
        match blanked(lang, src) {
            Some(b) => String::from_utf8(b.text).unwrap(),
            None => src.to_string(),
        }
    }

    #[test]
    fn annotation_macros_are_blanked_where_nothing_else_can_stand() {
        let cases = [
            (
                "class API_EXPORT Shape : public Base {",
                "class            Shape : public Base {",
            ),
            (
                "struct GTEST_API_ TestInfo {",
                "struct            TestInfo {",
            ),
            (
                "template <typename T> class EXPORT Box<T*> {",
                "template <typename T> class        Box<T*> {",
            ),
            (
                "class LLVM_ABI LLVM_NODISCARD ns::Error final : Base {",
                "class                         ns::Error final : Base {",
            ),
            (
                "SQLITE_API int sqlite3_open(void);",
                "           int sqlite3_open(void);",
            ),
            (
                "LUA_API void (lua_pushnil) (lua_State *L) {",
                "        void (lua_pushnil) (lua_State *L) {",
            ),
            (
                "LUA_API lua_Number (lua_tonumberx) (lua_State *L) {",
                "        lua_Number (lua_tonumberx) (lua_State *L) {",
            ),
            (
                "class W {\n  Q_OBJECT\n  int n;\n  Q_INVOKABLE void f();\n};",
                "class W {\n          \n  int n;\n              void f();\n};",
            ),
            (
                "static FORCE_INLINE int add(int a);",
                "static              int add(int a);",
            ),
            (
                "GLAPI void APIENTRY glClear (GLbitfield mask);",
                "      void          glClear (GLbitfield mask);",
            ),
            (
                "DWORD WINAPI ThreadProc(LPVOID p);",
                "DWORD        ThreadProc(LPVOID p);",
            ),
            (
                "typedef void (APIENTRYP PFNGLCLEARPROC) (GLbitfield mask);",
                "typedef void (          PFNGLCLEARPROC) (GLbitfield mask);",
            ),
            ("void (APIENTRY *cb)(void);", "void (         *cb)(void);"),
            (
                "DEPRECATED const BIGNUM *get_p(const DH *dh);",
                "           const BIGNUM *get_p(const DH *dh);",
            ),
            (
                "LLVM_NODISCARD StringRef copy(A &a) const {",
                "               StringRef copy(A &a) const {",
            ),
            (
                "  LLVM_NODISCARD\n  std::pair<int, bool> read() {",
                "                \n  std::pair<int, bool> read() {",
            ),
            (
                "void f() const OVERRIDE FINAL {}",
                "void f() const                {}",
            ),
            (
                "BEGIN_NS VERSION_NS\n\n  /// A doc.\n  template<typename T> struct Base {",
                "                   \n\n  /// A doc.\n  template<typename T> struct Base {",
            ),
            (
                "TEST_END\n/* a comment */\nPOP\nint\nmain(void) {",
                "        \n/* a comment */\n   \nint\nmain(void) {",
            ),
        ];
        for (src, want) in cases {
            assert_eq!(parsed(Lang::Cpp, src), want, "{src}");
        }
        assert_eq!(
            parsed(Lang::C, "typedef struct PACKED hdr { int a; } hdr_t;"),
            "typedef struct        hdr { int a; } hdr_t;"
        );
    }

    #[test]
    fn a_declaration_starts_at_the_macros_before_it_on_its_line() {
        let src = "TEST_END\nAPI EXPORT_FN int f(void);\nstatic FORCE_INLINE int g(void);";
        let b = blanked(Lang::C, src).unwrap();
        let at = |s: &str| src.find(s).unwrap();
        assert_eq!(b.annotated_start(src, at("int f")), at("API"));
        // Not across a line (`TEST_END` ends the previous definition), nor past a keyword.
        assert!(b.ranges.contains(&(0, "TEST_END".len())));
        assert_eq!(b.annotated_start(src, at("API")), at("API"));
        assert_eq!(b.annotated_start(src, at("int g")), at("FORCE_INLINE"));
    }

    /// Random token soup (and cut-off comments, strings and directives): no panic, the same
    /// length, and only whole macro-like names become spaces.
    #[test]
    fn any_text_keeps_its_length_and_loses_only_names() {
        const TOKENS: &[&str] = &[
            "API", "FOO_BAR", "T", "int", "void", "const", "class", "struct", "x", "ns::Y", "(",
            ")", "{", "}", "<", ">", ":", "::", ";", "*", "&", "#define", "\n", " ", "/*", "*/",
            "//", "\"", "'", "\\", "é", "1ULL", "final", "operator", ",", "=",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut changed = 0;
        for _ in 0..3000 {
            let len = next() % 40;
            let src: String = (0..len)
                .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(if next() % 2 == 0 { " " } else { "" });
            for lang in [Lang::C, Lang::Cpp] {
                let Some(b) = blanked(lang, &src) else {
                    continue;
                };
                changed += 1;
                assert_eq!(b.text.len(), src.len(), "{src:?}");
                for (i, (&was, &now)) in src.as_bytes().iter().zip(&b.text).enumerate() {
                    assert!(
                        was == now || (now == b' ' && is_ident(was)),
                        "{src:?} at {i}"
                    );
                }
                for &(start, end) in &b.ranges {
                    assert!(macro_like(&src.as_bytes()[start..end]), "{src:?}");
                    let at = b.annotated_start(&src, end);
                    assert!(at <= end);
                }
            }
        }
        assert!(changed > 100, "only {changed} texts had a macro blanked");
    }

    #[test]
    fn other_text_is_parsed_as_written() {
        let cases = [
            // A type's name before `const`, a variable of a struct type, a forward
            // declaration, a template parameter, a scoped enum's base.
            "SIZE const n = 4;",
            "struct STAT st;",
            "class Q_CORE_EXPORT QObject;",
            "template <class T> class Box {};",
            "enum class Color : int { RED };",
            "HANDLE CreateThing(int n);",
            "FOO(x) (y);",
            // A qualifier or storage class, then a type and a name.
            "const RESULT compute(int n);",
            "static HANDLE open_it(void);",
            "typedef FOO BAR(int);",
            "SIZE const n = 4;\nSIZE const *p;",
            // A type, then a member's qualified name.
            "SIZE Foo::count = 0;\nDWORD CFoo::Method(int n) {}",
            // Casts.
            "(void) UNUSED;\nreturn (int) MAX;",
            // Strings and comments.
            "char *s = \"API int\"; /* FOO int */",
            // One parameter.
            "void f(HANDLE h);",
            "int g(SIZE n) { return n; }",
            // Lower-case names are types, not macros.
            "struct stat buf {};",
            // Preprocessor lines keep their names, continued lines too.
            "#define EXPORT static\n#define DECL(x) \\\n  API int x(void)\n",
        ];
        for src in cases {
            assert_eq!(parsed(Lang::Cpp, src), src);
        }
        // `class` is a name in C.
        assert_eq!(parsed(Lang::C, "int class FOO = 1;"), "int class FOO = 1;");
        assert!(blanked(Lang::Rust, "SQLITE_API int").is_none());
    }
}
