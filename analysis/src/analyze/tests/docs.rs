//! Doc comments, summaries and signatures.

use super::*;

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
