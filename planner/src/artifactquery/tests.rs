use super::*;

fn reprint(s: &str) -> String {
    parser::parse(s)
        .unwrap_or_else(|e| panic!("{s}: {e:?}"))
        .to_string()
}

#[test]
fn round_trip_print_then_reparse() {
    for s in schema::EXAMPLES.iter().copied().chain([
        "select * from files limit 5",
        "SELECT path FROM files WHERE NOT (language = 'rust' OR language IN ('c', 'cpp')) AND lines >= 10 LIMIT 3;",
        "SELECT name FROM symbols WHERE kind NOT IN ('field') AND complexity != NULL ORDER BY name ASC, lines DESC LIMIT 7",
        "SELECT path FROM files WHERE path = 'it''s' AND bytes < -1 AND lines <= 2.5 LIMIT 1",
        "SELECT MIN(lines) AS lo, MAX(lines) hi FROM files LIMIT 1",
    ]) {
        if s.contains(" hi FROM") {
            assert!(parser::parse(s).is_err(), "aliases need AS");
            continue;
        }
        let once = reprint(s);
        assert_eq!(reprint(&once), once, "not stable: {s}");
    }
}

fn err(s: &str) -> Diagnostic {
    compile(s).expect_err(s)
}

#[test]
fn diagnostics_have_codes_positions_and_repairs() {
    let d = err("SELECT path FORM files LIMIT 5");
    assert_eq!(d.code, "syntax_error");
    assert_eq!(d.position.as_ref().unwrap().column, 13);
    assert_eq!(
        d.caret.as_deref(),
        Some("SELECT path FORM files LIMIT 5\n            ^^^^")
    );
    assert_eq!(d.try_, "SELECT path FROM files LIMIT 5");

    let d = err("SELECT path FROM file LIMIT 5");
    assert_eq!(d.code, "unknown_entity");
    assert_eq!(d.try_, "SELECT path FROM files LIMIT 5");

    let d = err("SELECT pth FROM files LIMIT 5");
    assert_eq!(d.code, "unknown_field");
    assert!(d.message.contains("did you mean 'path'"), "{}", d.message);
    assert_eq!(d.try_, "SELECT path FROM files LIMIT 5");

    let d = err("SELECT complexity FROM files LIMIT 5");
    assert!(d.message.contains("is a field of symbols"), "{}", d.message);

    let d = err("SELECT MEDIAN(lines) FROM files LIMIT 5");
    assert_eq!(d.code, "unknown_function");

    let d = err("SELECT path FROM files");
    assert_eq!(d.code, "missing_limit");
    assert_eq!(d.try_, "SELECT path FROM files LIMIT 50");

    let d = err("SELECT path FROM files LIMIT 5000");
    assert_eq!(d.code, "limit_too_large");
    assert_eq!(d.try_, "SELECT path FROM files LIMIT 1000");

    let d = err("SELECT path FROM files WHERE lines > 'abc' LIMIT 5");
    assert_eq!(d.code, "type_mismatch");
    assert_eq!(d.position.as_ref().unwrap().column, 38);

    let d = err("SELECT language, path, COUNT(*) FROM files GROUP BY language LIMIT 5");
    assert_eq!(d.code, "ungrouped_field");
    assert!(d.message.contains("'path'"));

    let d = err("SELECT language, COUNT(*) FROM files LIMIT 5");
    assert_eq!(d.code, "ungrouped_field");

    let d = err("SELECT SUM(path) FROM files LIMIT 5");
    assert_eq!(d.code, "type_mismatch");

    let d = err("SELECT path FROM files WHERE path = 'x LIMIT 5");
    assert_eq!(d.code, "syntax_error");
    assert!(d.message.contains("unterminated"));

    let d = err("SELECT path FROM files LIMIT 5 extra");
    assert_eq!(d.code, "syntax_error");
    assert!(
        d.message.contains("the end of the statement"),
        "{}",
        d.message
    );

    assert_eq!(err("   ").code, "empty_statement");
}

#[test]
fn nesting_is_bounded() {
    let deep = format!(
        "SELECT path FROM files WHERE {}lines > 1{} LIMIT 1",
        "(".repeat(1_000),
        ")".repeat(1_000)
    );
    assert_eq!(err(&deep).code, "too_deep");
    let nots = format!(
        "SELECT path FROM files WHERE {}lines > 1 LIMIT 1",
        "NOT ".repeat(1_000)
    );
    assert_eq!(err(&nots).code, "too_deep");
    let long = format!(
        "SELECT path FROM files WHERE path IN ({}) LIMIT 1",
        vec!["'x'"; 10_000].join(",")
    );
    assert_eq!(err(&long).code, "too_long");
}

/// Property: arbitrary input never panics (it parses or yields a diagnostic with a valid
/// position). Deterministic xorshift generator over a statement-shaped alphabet.
#[test]
fn arbitrary_input_never_panics() {
    let tokens = [
        "SELECT",
        "FROM",
        "WHERE",
        "GROUP",
        "ORDER",
        "BY",
        "LIMIT",
        "AND",
        "OR",
        "NOT",
        "IN",
        "AS",
        "DESC",
        "files",
        "symbols",
        "functions",
        "path",
        "lines",
        "COUNT",
        "(",
        ")",
        "*",
        ",",
        "=",
        "!=",
        "<",
        ">=",
        "'",
        "'a'",
        "1",
        "-2.5",
        "é",
        "\u{1F600}",
        ";",
        "\n",
        "\t",
        "\0",
        "\\",
        "NULL",
        "TRUE",
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..20_000 {
        let n = (next() % 14) as usize;
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(tokens[(next() % tokens.len() as u64) as usize]);
            if next() % 3 != 0 {
                s.push(' ');
            }
        }
        match compile(&s) {
            Ok(_) => {}
            Err(d) => {
                if let Some(p) = &d.position {
                    assert!(p.offset <= s.len(), "{s:?}");
                }
            }
        }
    }
}
