//! The ArtifactQuery AST, and its canonical printing (used by round-trip tests and shown to
//! agents as the normalised statement).

use std::fmt;

/// Byte range in the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A value with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    Count,
    Sum,
    Avg,
    Min,
    Max,
}

impl Agg {
    pub const ALL: [&'static str; 5] = ["COUNT", "SUM", "AVG", "MIN", "MAX"];
    pub fn parse(s: &str) -> Option<Agg> {
        Some(match s.to_ascii_uppercase().as_str() {
            "COUNT" => Agg::Count,
            "SUM" => Agg::Sum,
            "AVG" => Agg::Avg,
            "MIN" => Agg::Min,
            "MAX" => Agg::Max,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Agg::Count => "COUNT",
            Agg::Sum => "SUM",
            Agg::Avg => "AVG",
            Agg::Min => "MIN",
            Agg::Max => "MAX",
        }
    }
}

/// `field` or `AGG(field)` / `COUNT(*)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Field(Spanned<String>),
    /// `arg` is `None` for `COUNT(*)`.
    Agg {
        func: Spanned<Agg>,
        arg: Option<Spanned<String>>,
    },
}

impl Value {
    pub fn span(&self) -> Span {
        match self {
            Value::Field(f) => f.span,
            Value::Agg { func, arg } => Span {
                start: func.span.start,
                end: arg
                    .as_ref()
                    .map(|a| a.span.end + 1)
                    .unwrap_or(func.span.end + 3),
            },
        }
    }
    /// The default column name: `path`, `count`, `sum_lines`.
    pub fn default_name(&self) -> String {
        match self {
            Value::Field(f) => f.node.clone(),
            Value::Agg { func, arg: None } => func.node.name().to_ascii_lowercase(),
            Value::Agg { func, arg: Some(a) } => {
                format!("{}_{}", func.node.name().to_ascii_lowercase(), a.node)
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SelectItem {
    pub value: Value,
    pub alias: Option<Spanned<String>>,
}

impl SelectItem {
    pub fn column_name(&self) -> String {
        self.alias
            .as_ref()
            .map(|a| a.node.clone())
            .unwrap_or_else(|| self.value.default_name())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    NotEq,
    Gt,
    GtEq,
    Lt,
    LtEq,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::NotEq => "!=",
            CmpOp::Gt => ">",
            CmpOp::GtEq => ">=",
            CmpOp::Lt => "<",
            CmpOp::LtEq => "<=",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Field(Spanned<String>),
    Literal(Spanned<Literal>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Cmp {
        left: Operand,
        op: CmpOp,
        right: Operand,
    },
    In {
        field: Spanned<String>,
        list: Vec<Spanned<Literal>>,
        negated: bool,
    },
    /// `field [NOT] LIKE 'pattern'`: `%` any run of characters, `_` one character.
    Like {
        field: Spanned<String>,
        pattern: Spanned<Literal>,
        negated: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct OrderItem {
    pub value: Value,
    pub descending: bool,
}

/// One ArtifactQuery statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// Empty means `SELECT *`.
    pub select: Vec<SelectItem>,
    pub entity: Spanned<String>,
    pub filter: Option<Expr>,
    pub group_by: Vec<Spanned<String>>,
    pub order_by: Vec<OrderItem>,
    pub limit: Option<Spanned<u64>>,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Field(x) => write!(f, "{}", x.node),
            Value::Agg { func, arg: None } => write!(f, "{}(*)", func.node.name()),
            Value::Agg { func, arg: Some(a) } => write!(f, "{}({})", func.node.name(), a.node),
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => {
                let s = format!("{x:?}");
                write!(f, "{s}")
            }
            Literal::Str(s) => write!(f, "'{}'", s.replace('\'', "''")),
            Literal::Bool(b) => write!(f, "{}", if *b { "TRUE" } else { "FALSE" }),
            Literal::Null => write!(f, "NULL"),
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Field(x) => write!(f, "{}", x.node),
            Operand::Literal(l) => write!(f, "{}", l.node),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Fully parenthesised compound expressions: unambiguous and re-parseable.
        match self {
            Expr::Or(a, b) => write!(f, "({a} OR {b})"),
            Expr::And(a, b) => write!(f, "({a} AND {b})"),
            Expr::Not(e) => write!(f, "NOT {e}"),
            Expr::Cmp { left, op, right } => write!(f, "{left} {} {right}", op.symbol()),
            Expr::In {
                field,
                list,
                negated,
            } => {
                let items: Vec<String> = list.iter().map(|l| l.node.to_string()).collect();
                write!(
                    f,
                    "{}{} IN ({})",
                    field.node,
                    if *negated { " NOT" } else { "" },
                    items.join(", ")
                )
            }
            Expr::Like {
                field,
                pattern,
                negated,
            } => write!(
                f,
                "{}{} LIKE {}",
                field.node,
                if *negated { " NOT" } else { "" },
                pattern.node
            ),
        }
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SELECT ")?;
        if self.select.is_empty() {
            write!(f, "*")?;
        }
        for (i, item) in self.select.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{}", item.value)?;
            if let Some(a) = &item.alias {
                write!(f, " AS {}", a.node)?;
            }
        }
        write!(f, " FROM {}", self.entity.node)?;
        if let Some(e) = &self.filter {
            write!(f, " WHERE {e}")?;
        }
        if !self.group_by.is_empty() {
            let g: Vec<&str> = self.group_by.iter().map(|g| g.node.as_str()).collect();
            write!(f, " GROUP BY {}", g.join(", "))?;
        }
        if !self.order_by.is_empty() {
            let o: Vec<String> = self
                .order_by
                .iter()
                .map(|o| format!("{}{}", o.value, if o.descending { " DESC" } else { " ASC" }))
                .collect();
            write!(f, " ORDER BY {}", o.join(", "))?;
        }
        if let Some(l) = &self.limit {
            write!(f, " LIMIT {}", l.node)?;
        }
        Ok(())
    }
}
