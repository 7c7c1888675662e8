//! The ArtifactQuery grammar, parsed with `nom` into the AST of [`super::ast`].
//!
//! ```text
//! statement := SELECT ( '*' | item (',' item)* ) FROM entity
//!              [WHERE expr] [GROUP BY field (',' field)*]
//!              [ORDER BY value [ASC|DESC] (',' …)*] [LIMIT integer] [';']
//! item      := value [AS name]
//! value     := field | AGG '(' ( '*' | field ) ')'          AGG := COUNT | SUM | AVG | MIN | MAX
//! expr      := and (OR and)*     and := not (AND not)*     not := NOT not | '(' expr ')' | pred
//! pred      := operand op operand | field [NOT] IN '(' literal (',' literal)* ')'
//! op        := = | != | <> | > | >= | < | <=
//! literal   := integer | decimal | 'string' ('' escapes a quote) | TRUE | FALSE | NULL
//! ```
//!
//! Keywords are case-insensitive. Errors keep the furthest position reached and what was
//! expected there, so a diagnostic can point at the exact character.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while};
use nom::character::complete::{char, digit1, multispace0, satisfy};
use nom::combinator::{not, opt, recognize};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::sequence::{pair, preceded, terminated};
use nom::{IResult, Parser};

use super::ast::*;

/// Deepest nesting of parentheses and `NOT` accepted.
pub const MAX_NESTING: usize = 32;
/// Longest statement accepted, in bytes.
pub const MAX_STATEMENT_BYTES: usize = 16 * 1024;

const RESERVED: &[&str] = &[
    "SELECT", "FROM", "WHERE", "GROUP", "ORDER", "BY", "LIMIT", "AND", "OR", "NOT", "IN", "AS",
    "ASC", "DESC",
];

/// A parse failure: where (as remaining input length) and what was expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct PErr {
    pub rem: usize,
    pub expected: Vec<&'static str>,
    /// A specific problem (e.g. an unknown function), with its diagnostic code.
    pub special: Option<(&'static str, String)>,
}

impl ParseError<&str> for PErr {
    fn from_error_kind(input: &str, _: ErrorKind) -> Self {
        PErr {
            rem: input.len(),
            expected: Vec::new(),
            special: None,
        }
    }
    fn append(_: &str, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        // Keep the error that got furthest; merge what was expected at the same place.
        if self.special.is_some() && self.rem <= other.rem {
            return self;
        }
        if other.special.is_some() && other.rem <= self.rem {
            return other;
        }
        match self.rem.cmp(&other.rem) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            std::cmp::Ordering::Equal => {
                let mut expected = self.expected;
                for e in other.expected {
                    if !expected.contains(&e) {
                        expected.push(e);
                    }
                }
                PErr {
                    rem: self.rem,
                    expected,
                    special: None,
                }
            }
        }
    }
}

impl ContextError<&str> for PErr {
    fn add_context(input: &str, ctx: &'static str, other: Self) -> Self {
        if other.special.is_none() && other.rem >= input.trim_start().len() {
            PErr {
                rem: input.trim_start().len(),
                expected: vec![ctx],
                special: None,
            }
        } else {
            other
        }
    }
}

type Res<'a, O> = IResult<&'a str, O, PErr>;

fn fail<O>(rem: usize, expected: &'static str) -> Result<O, nom::Err<PErr>> {
    Err(nom::Err::Error(PErr {
        rem,
        expected: vec![expected],
        special: None,
    }))
}

fn special<O>(rem: usize, code: &'static str, message: String) -> Result<O, nom::Err<PErr>> {
    Err(nom::Err::Failure(PErr {
        rem,
        expected: Vec::new(),
        special: Some((code, message)),
    }))
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A keyword (case-insensitive, not followed by an identifier character).
fn kw<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = PErr> {
    nom::error::context(
        word,
        preceded(
            multispace0,
            terminated(tag_no_case(word), not(satisfy(is_ident_char))),
        ),
    )
}

fn sym<'a>(s: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = PErr> {
    nom::error::context(s, preceded(multispace0, tag(s)))
}

/// Spans are recorded as remaining lengths during parsing and made absolute afterwards.
fn rspan(start_rem: usize, end_rem: usize) -> Span {
    Span {
        start: start_rem,
        end: end_rem,
    }
}

fn name(i: &str) -> Res<'_, Spanned<String>> {
    let (i, _) = multispace0(i)?;
    let start = i.len();
    let (rest, s) = recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(is_ident_char),
    ))
    .parse(i)
    .or_else(|_: nom::Err<PErr>| fail(start, "a name"))?;
    if RESERVED.contains(&s.to_ascii_uppercase().as_str()) {
        return fail(start, "a name");
    }
    Ok((rest, Spanned::new(s.to_string(), rspan(start, rest.len()))))
}

fn literal(i: &str) -> Res<'_, Spanned<Literal>> {
    let (i, _) = multispace0(i)?;
    let start = i.len();
    if i.starts_with('"') {
        return special(
            start,
            "syntax_error",
            "strings are written in single quotes ('rust'), not double quotes".into(),
        );
    }
    if let Some(body) = i.strip_prefix('\'') {
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((idx, c)) = chars.next() {
            if c == '\'' {
                if body[idx + 1..].starts_with('\'') {
                    out.push('\'');
                    chars.next();
                    continue;
                }
                let rest = &body[idx + 1..];
                return Ok((
                    rest,
                    Spanned::new(Literal::Str(out), rspan(start, rest.len())),
                ));
            }
            out.push(c);
        }
        return special(
            start,
            "syntax_error",
            "unterminated string: close it with a single quote (')".into(),
        );
    }
    let mut number = recognize(pair(
        opt(char::<&str, PErr>('-')),
        pair(digit1, opt(pair(char('.'), digit1))),
    ));
    if let Ok((rest, num)) = number.parse(i) {
        if satisfy::<_, &str, PErr>(is_ident_char).parse(rest).is_ok() {
            return fail(start, "a value");
        }
        let lit = if num.contains('.') {
            Literal::Float(num.parse().map_err(|_| {
                nom::Err::Error(PErr {
                    rem: start,
                    expected: vec!["a number"],
                    special: None,
                })
            })?)
        } else {
            match num.parse::<i64>() {
                Ok(n) => Literal::Int(n),
                Err(_) => {
                    return special(
                        start,
                        "syntax_error",
                        format!("integer '{num}' is out of range"),
                    );
                }
            }
        };
        return Ok((rest, Spanned::new(lit, rspan(start, rest.len()))));
    }
    for (word, lit) in [
        ("TRUE", Literal::Bool(true)),
        ("FALSE", Literal::Bool(false)),
        ("NULL", Literal::Null),
    ] {
        if let Ok((rest, _)) = kw(word).parse(i) {
            return Ok((rest, Spanned::new(lit, rspan(start, rest.len()))));
        }
    }
    fail(start, "a value ('text', a number, TRUE, FALSE or NULL)")
}

fn value(i: &str) -> Res<'_, Value> {
    let (after, n) = nom::error::context("a field or aggregate", name).parse(i)?;
    let (after_ws, _) = multispace0(after)?;
    if !after_ws.starts_with('(') {
        return Ok((after, Value::Field(n)));
    }
    let Some(func) = Agg::parse(&n.node) else {
        return special(
            n.span.start,
            "unknown_function",
            format!(
                "unknown function '{}'; aggregates are COUNT, SUM, AVG, MIN and MAX",
                n.node
            ),
        );
    };
    let (i, _) = sym("(").parse(after)?;
    let (i, arg) = alt((sym("*").map(|_| None), name.map(Some))).parse(i)?;
    let (i, _) = sym(")").parse(i)?;
    Ok((
        i,
        Value::Agg {
            func: Spanned::new(func, n.span),
            arg,
        },
    ))
}

fn select_item(i: &str) -> Res<'_, SelectItem> {
    let (i, value) = value(i)?;
    let (i, alias) = opt(preceded(kw("AS"), nom::error::context("an alias", name))).parse(i)?;
    Ok((i, SelectItem { value, alias }))
}

fn comma_list<'a, O>(i: &'a str, mut item: impl FnMut(&'a str) -> Res<'a, O>) -> Res<'a, Vec<O>> {
    let (mut i, first) = item(i)?;
    let mut out = vec![first];
    while let Ok((rest, _)) = sym(",").parse(i) {
        let (rest, x) = item(rest)?;
        out.push(x);
        i = rest;
    }
    Ok((i, out))
}

fn cmp_op(i: &str) -> Res<'_, CmpOp> {
    let (i, _) = multispace0(i)?;
    let ops = [
        (">=", CmpOp::GtEq),
        ("<=", CmpOp::LtEq),
        ("!=", CmpOp::NotEq),
        ("<>", CmpOp::NotEq),
        ("=", CmpOp::Eq),
        (">", CmpOp::Gt),
        ("<", CmpOp::Lt),
    ];
    for (s, op) in ops {
        if let Some(rest) = i.strip_prefix(s) {
            return Ok((rest, op));
        }
    }
    fail(i.len(), "a comparison (=, !=, >, >=, <, <=), IN or LIKE")
}

fn operand(i: &str) -> Res<'_, Operand> {
    alt((literal.map(Operand::Literal), name.map(Operand::Field))).parse(i)
}

fn predicate(i: &str) -> Res<'_, Expr> {
    let (i, left) = operand(i)?;
    if let Operand::Field(field) = &left {
        let (j, negated) = opt(kw("NOT")).parse(i)?;
        if let Ok((j, _)) = kw("IN").parse(j) {
            let (j, _) = sym("(").parse(j)?;
            let (j, list) = comma_list(j, literal)?;
            let (j, _) = sym(")").parse(j)?;
            return Ok((
                j,
                Expr::In {
                    field: field.clone(),
                    list,
                    negated: negated.is_some(),
                },
            ));
        }
        if let Ok((j, _)) = kw("LIKE").parse(j) {
            let (j, pattern) = literal(j)?;
            return Ok((
                j,
                Expr::Like {
                    field: field.clone(),
                    pattern,
                    negated: negated.is_some(),
                },
            ));
        }
        if negated.is_some() {
            return fail(j.trim_start().len(), "IN or LIKE");
        }
    }
    let (i, op) = cmp_op(i)?;
    let (i, right) = operand(i)?;
    Ok((i, Expr::Cmp { left, op, right }))
}

fn nested_too_deep<O>(i: &str) -> Result<O, nom::Err<PErr>> {
    special(
        i.trim_start().len(),
        "too_deep",
        format!(
            "the condition nests more than {MAX_NESTING} levels of parentheses or NOT; simplify it"
        ),
    )
}

fn unary(i: &str, depth: usize) -> Res<'_, Expr> {
    if depth > MAX_NESTING {
        return nested_too_deep(i);
    }
    if let Ok((j, _)) = kw("NOT").parse(i) {
        let (j, e) = unary(j, depth + 1)?;
        return Ok((j, Expr::Not(Box::new(e))));
    }
    if let Ok((j, _)) = sym("(").parse(i) {
        let (j, e) = or_expr(j, depth + 1)?;
        let (j, _) = sym(")").parse(j)?;
        return Ok((j, e));
    }
    nom::error::context("a condition", predicate).parse(i)
}

fn and_expr(i: &str, depth: usize) -> Res<'_, Expr> {
    let (mut i, mut e) = unary(i, depth)?;
    while let Ok((j, _)) = kw("AND").parse(i) {
        let (j, r) = unary(j, depth)?;
        e = Expr::And(Box::new(e), Box::new(r));
        i = j;
    }
    Ok((i, e))
}

fn or_expr(i: &str, depth: usize) -> Res<'_, Expr> {
    let (mut i, mut e) = and_expr(i, depth)?;
    while let Ok((j, _)) = kw("OR").parse(i) {
        let (j, r) = and_expr(j, depth)?;
        e = Expr::Or(Box::new(e), Box::new(r));
        i = j;
    }
    Ok((i, e))
}

fn order_item(i: &str) -> Res<'_, OrderItem> {
    let (i, value) = value(i)?;
    let (i, dir) = opt(alt((kw("ASC"), kw("DESC")))).parse(i)?;
    Ok((
        i,
        OrderItem {
            value,
            descending: dir.is_some_and(|d| d.eq_ignore_ascii_case("DESC")),
        },
    ))
}

fn limit(i: &str) -> Res<'_, Spanned<u64>> {
    let (i, _) = multispace0(i)?;
    let start = i.len();
    let (rest, digits) = digit1::<_, PErr>(i).or_else(|_| fail(start, "a non-negative integer"))?;
    match digits.parse::<u64>() {
        Ok(n) => Ok((rest, Spanned::new(n, rspan(start, rest.len())))),
        Err(_) => special(
            start,
            "limit_too_large",
            format!("LIMIT {digits} is out of range"),
        ),
    }
}

fn statement(i: &str) -> Res<'_, Statement> {
    let (i, _) = kw("SELECT").parse(i)?;
    let (i, star) = opt(sym("*")).parse(i)?;
    let (i, select) = match star {
        Some(_) => (i, Vec::new()),
        None => comma_list(i, select_item)?,
    };
    let (i, _) = kw("FROM").parse(i)?;
    let (i, entity) =
        nom::error::context("an entity (files, symbols, functions)", name).parse(i)?;
    let (i, filter) = match kw("WHERE").parse(i) {
        Ok((j, _)) => {
            let (j, e) = or_expr(j, 0)?;
            (j, Some(e))
        }
        Err(_) => (i, None),
    };
    let (i, group_by) = match pair(kw("GROUP"), kw("BY")).parse(i) {
        Ok((j, _)) => comma_list(j, name)?,
        Err(_) => (i, Vec::new()),
    };
    let (i, order_by) = match pair(kw("ORDER"), kw("BY")).parse(i) {
        Ok((j, _)) => comma_list(j, order_item)?,
        Err(_) => (i, Vec::new()),
    };
    let (i, limit) = match kw("LIMIT").parse(i) {
        Ok((j, _)) => {
            let (j, l) = limit(j)?;
            (j, Some(l))
        }
        Err(_) => (i, None),
    };
    let (i, _) = opt(sym(";")).parse(i)?;
    let (i, _) = multispace0(i)?;
    if !i.is_empty() {
        let mut expected = Vec::new();
        if filter.is_none() && group_by.is_empty() && order_by.is_empty() && limit.is_none() {
            expected.push("WHERE");
        }
        if group_by.is_empty() && order_by.is_empty() && limit.is_none() {
            expected.extend(["AND", "OR", "GROUP BY"]);
        }
        if order_by.is_empty() && limit.is_none() {
            expected.push("ORDER BY");
        }
        if limit.is_none() {
            expected.push("LIMIT");
        }
        expected.push("the end of the statement");
        if filter.is_none() || !group_by.is_empty() || !order_by.is_empty() || limit.is_some() {
            expected.retain(|e| !matches!(*e, "AND" | "OR"));
        }
        return Err(nom::Err::Error(PErr {
            rem: i.len(),
            expected,
            special: None,
        }));
    }
    Ok((
        i,
        Statement {
            select,
            entity,
            filter,
            group_by,
            order_by,
            limit,
        },
    ))
}

/// Parse a statement; on failure, the byte offset of the problem and what went wrong.
pub fn parse(input: &str) -> Result<Statement, (usize, PErr)> {
    let total = input.len();
    if total > MAX_STATEMENT_BYTES {
        return Err((
            0,
            PErr {
                rem: total,
                expected: Vec::new(),
                special: Some((
                    "too_long",
                    format!("the statement is {total} bytes; the maximum is {MAX_STATEMENT_BYTES}"),
                )),
            },
        ));
    }
    match statement(input) {
        Ok((_, mut st)) => {
            absolutize(&mut st, total);
            Ok(st)
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err((total - e.rem.min(total), e)),
        Err(nom::Err::Incomplete(_)) => Err((
            total,
            PErr {
                rem: 0,
                expected: vec!["more input"],
                special: None,
            },
        )),
    }
}

fn fix(span: &mut Span, total: usize) {
    *span = Span {
        start: total - span.start,
        end: total - span.end,
    };
}

fn fix_value(v: &mut Value, total: usize) {
    match v {
        Value::Field(f) => fix(&mut f.span, total),
        Value::Agg { func, arg } => {
            fix(&mut func.span, total);
            if let Some(a) = arg {
                fix(&mut a.span, total);
            }
        }
    }
}

fn fix_expr(e: &mut Expr, total: usize) {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => {
            fix_expr(a, total);
            fix_expr(b, total);
        }
        Expr::Not(x) => fix_expr(x, total),
        Expr::Cmp { left, right, .. } => {
            for o in [left, right] {
                match o {
                    Operand::Field(f) => fix(&mut f.span, total),
                    Operand::Literal(l) => fix(&mut l.span, total),
                }
            }
        }
        Expr::In { field, list, .. } => {
            fix(&mut field.span, total);
            for l in list {
                fix(&mut l.span, total);
            }
        }
        Expr::Like { field, pattern, .. } => {
            fix(&mut field.span, total);
            fix(&mut pattern.span, total);
        }
    }
}

fn absolutize(st: &mut Statement, total: usize) {
    for item in &mut st.select {
        fix_value(&mut item.value, total);
        if let Some(a) = &mut item.alias {
            fix(&mut a.span, total);
        }
    }
    fix(&mut st.entity.span, total);
    if let Some(e) = &mut st.filter {
        fix_expr(e, total);
    }
    for g in &mut st.group_by {
        fix(&mut g.span, total);
    }
    for o in &mut st.order_by {
        fix_value(&mut o.value, total);
    }
    if let Some(l) = &mut st.limit {
        fix(&mut l.span, total);
    }
}
