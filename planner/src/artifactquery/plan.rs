//! Semantic checks and planning: an ArtifactQuery AST becomes a DataFusion `LogicalPlan` built
//! with `LogicalPlanBuilder` (never SQL text), over the session's tables — which hold only the
//! data sources the caller may see.

use std::collections::BTreeSet;

use datafusion::catalog::default_table_source::provider_as_source;
use datafusion::common::Column;
use datafusion::functions_aggregate::count::count_all;
use datafusion::functions_aggregate::expr_fn::{avg, count, max, min, sum};
use datafusion::logical_expr::{Expr as DfExpr, JoinType, LogicalPlan, LogicalPlanBuilder, lit};
use datafusion::prelude::{SessionContext, coalesce};

use super::MAX_LIMIT;
use super::ast::*;
use super::diagnostics::{Diagnostic, did_you_mean, replace};
use super::schema::{ENTITIES, Entity, FieldType, Rel, Source, entity};

/// The shape of a result (`resultShape`, docs/artifactquery.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Rows,
    Aggregate,
    GroupedAggregate,
}

impl Shape {
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Rows => "Rows",
            Shape::Aggregate => "Aggregate",
            Shape::GroupedAggregate => "GroupedAggregate",
        }
    }
}

/// A checked statement, ready to plan.
#[derive(Debug, Clone)]
pub struct Checked {
    pub statement: Statement,
    pub entity: &'static Entity,
    pub columns: Vec<String>,
    pub shape: Shape,
    pub limit: u64,
}

fn c(name: &str) -> DfExpr {
    DfExpr::Column(Column::from_name(name))
}

fn field_type(
    entity: &Entity,
    text: &str,
    name: &Spanned<String>,
) -> Result<FieldType, Diagnostic> {
    entity
        .field(&name.node)
        .map(|f| f.ty)
        .ok_or_else(|| unknown_field(entity, text, name))
}

fn unknown_field(entity: &Entity, text: &str, name: &Spanned<String>) -> Diagnostic {
    let names = entity.fields.iter().map(|f| f.name);
    let suggestion = did_you_mean(&name.node, names);
    let other = ENTITIES
        .iter()
        .find(|e| e.name != entity.name && e.field(&name.node).is_some())
        .map(|e| format!(" ('{}' is a field of {})", name.node, e.name))
        .unwrap_or_default();
    let message = match suggestion {
        Some(s) => format!(
            "unknown field '{}' of {}; did you mean '{s}'?{other}",
            name.node, entity.name
        ),
        None => format!("unknown field '{}' of {}{other}", name.node, entity.name),
    };
    let try_ = match suggestion {
        Some(s) => replace(text, name.span, s),
        None => format!(
            "use one of: {}",
            entity
                .fields
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new("unknown_field", message, try_)
        .at(text, name.span)
        .expecting(entity.fields.iter().map(|f| f.name.to_string()).collect())
}

fn literal_type(l: &Literal) -> Option<FieldType> {
    match l {
        Literal::Int(_) | Literal::Float(_) => Some(FieldType::Int),
        Literal::Str(_) => Some(FieldType::Text),
        Literal::Bool(_) => Some(FieldType::Bool),
        Literal::Null => None,
    }
}

fn example_literal(ty: FieldType) -> &'static str {
    match ty {
        FieldType::Int => "a number such as 100",
        FieldType::Text => "a quoted string such as 'rust'",
        FieldType::Bool => "TRUE or FALSE",
    }
}

fn check_expr(entity: &Entity, text: &str, e: &Expr) -> Result<(), Diagnostic> {
    match e {
        Expr::Or(a, b) | Expr::And(a, b) => {
            check_expr(entity, text, a)?;
            check_expr(entity, text, b)
        }
        Expr::Not(x) => check_expr(entity, text, x),
        Expr::Cmp { left, op, right } => {
            let ty = |o: &Operand| -> Result<(Option<FieldType>, Span, String), Diagnostic> {
                match o {
                    Operand::Field(f) => Ok((
                        Some(field_type(entity, text, f)?),
                        f.span,
                        format!("field '{}'", f.node),
                    )),
                    Operand::Literal(l) => {
                        Ok((literal_type(&l.node), l.span, format!("{}", l.node)))
                    }
                }
            };
            let (lt, _, ld) = ty(left)?;
            let (rt, rspan, rd) = ty(right)?;
            if let (Some(a), Some(b)) = (lt, rt)
                && a != b
            {
                return Err(Diagnostic::new(
                    "type_mismatch",
                    format!(
                        "cannot compare {ld} ({}) with {rd} ({})",
                        a.name(),
                        b.name()
                    ),
                    format!("compare {ld} with {}", example_literal(a)),
                )
                .at(text, rspan));
            }
            if (lt.is_none() || rt.is_none()) && !matches!(op, CmpOp::Eq | CmpOp::NotEq) {
                return Err(Diagnostic::new(
                    "type_mismatch",
                    "NULL can only be compared with = or !=",
                    "write field = NULL or field != NULL",
                )
                .at(text, rspan));
            }
            if matches!(lt, Some(FieldType::Bool)) && !matches!(op, CmpOp::Eq | CmpOp::NotEq) {
                return Err(Diagnostic::new(
                    "type_mismatch",
                    format!("{ld} is boolean: use = or !="),
                    format!("{ld} = TRUE"),
                ));
            }
            Ok(())
        }
        Expr::Like { field, pattern, .. } => {
            let ft = field_type(entity, text, field)?;
            if ft != FieldType::Text || !matches!(pattern.node, Literal::Str(_)) {
                return Err(Diagnostic::new(
                    "type_mismatch",
                    format!(
                        "LIKE matches a text field with a quoted pattern; field '{}' is {} and the pattern is {}",
                        field.node,
                        ft.name(),
                        pattern.node
                    ),
                    "write a text field LIKE a quoted pattern, e.g. path NOT LIKE '%test%'",
                )
                .at(text, pattern.span));
            }
            Ok(())
        }
        Expr::In { field, list, .. } => {
            let ft = field_type(entity, text, field)?;
            for l in list {
                if let Some(t) = literal_type(&l.node)
                    && t != ft
                {
                    return Err(Diagnostic::new(
                        "type_mismatch",
                        format!(
                            "field '{}' is {} but the IN list holds {} ({})",
                            field.node,
                            ft.name(),
                            l.node,
                            t.name()
                        ),
                        format!("list {} values", example_literal(ft)),
                    )
                    .at(text, l.span));
                }
            }
            Ok(())
        }
    }
}

fn check_value(entity: &Entity, text: &str, v: &Value) -> Result<(), Diagnostic> {
    match v {
        Value::Field(f) => field_type(entity, text, f).map(|_| ()),
        Value::Agg { func, arg: None } => match func.node {
            Agg::Count => Ok(()),
            other => Err(Diagnostic::new(
                "type_mismatch",
                format!(
                    "{}(*) is not defined; {} needs a field",
                    other.name(),
                    other.name()
                ),
                format!("{}(lines)", other.name()),
            )
            .at(text, func.span)),
        },
        Value::Agg { func, arg: Some(a) } => {
            let t = field_type(entity, text, a)?;
            if matches!(func.node, Agg::Sum | Agg::Avg) && t != FieldType::Int {
                return Err(Diagnostic::new(
                    "type_mismatch",
                    format!(
                        "{} needs a numeric field; '{}' is {}",
                        func.node.name(),
                        a.node,
                        t.name()
                    ),
                    format!("{}(lines) or COUNT({})", func.node.name(), a.node),
                )
                .at(text, a.span));
            }
            Ok(())
        }
    }
}

/// Check a parsed statement against the schema and the rules (LIMIT, grouping).
pub fn check(text: &str, st: Statement) -> Result<Checked, Diagnostic> {
    let Some(entity) = entity(&st.entity.node) else {
        let names = ENTITIES.iter().map(|e| e.name);
        let s = did_you_mean(&st.entity.node, names.clone());
        return Err(Diagnostic::new(
            "unknown_entity",
            match s {
                Some(s) => format!("unknown entity '{}'; did you mean '{s}'?", st.entity.node),
                None => format!("unknown entity '{}'", st.entity.node),
            },
            replace(text, st.entity.span, s.unwrap_or("files")),
        )
        .at(text, st.entity.span)
        .expecting(names.map(String::from).collect()));
    };
    for item in &st.select {
        check_value(entity, text, &item.value)?;
    }
    if let Some(e) = &st.filter {
        check_expr(entity, text, e)?;
    }
    for g in &st.group_by {
        field_type(entity, text, g)?;
    }
    let has_agg = st
        .select
        .iter()
        .any(|i| matches!(i.value, Value::Agg { .. }));
    let shape = match (has_agg || !st.group_by.is_empty(), st.group_by.is_empty()) {
        (false, _) => Shape::Rows,
        (true, true) => Shape::Aggregate,
        (true, false) => Shape::GroupedAggregate,
    };
    if shape != Shape::Rows {
        if st.select.is_empty() {
            return Err(Diagnostic::new(
                "ungrouped_field",
                "SELECT * cannot be combined with GROUP BY",
                "select the grouped fields and aggregates, e.g. SELECT language, COUNT(*) FROM files GROUP BY language LIMIT 20",
            ));
        }
        for item in &st.select {
            if let Value::Field(f) = &item.value
                && !st
                    .group_by
                    .iter()
                    .any(|g| g.node.eq_ignore_ascii_case(&f.node))
            {
                let try_ = if st.group_by.is_empty() {
                    format!(
                        "add GROUP BY {} before ORDER BY/LIMIT, or aggregate it (e.g. COUNT({}))",
                        f.node, f.node
                    )
                } else {
                    format!("add {} to GROUP BY, or aggregate it", f.node)
                };
                return Err(Diagnostic::new(
                    "ungrouped_field",
                    format!("'{}' is neither grouped nor aggregated", f.node),
                    try_,
                )
                .at(text, f.span));
            }
        }
    }
    let columns: Vec<String> = if st.select.is_empty() {
        entity.fields.iter().map(|f| f.name.to_string()).collect()
    } else {
        st.select.iter().map(|i| i.column_name()).collect()
    };
    let mut seen = BTreeSet::new();
    for (i, name) in columns.iter().enumerate() {
        if !seen.insert(name.to_ascii_lowercase()) {
            let span = st
                .select
                .get(i)
                .map(|s| s.alias.as_ref().map(|a| a.span).unwrap_or(s.value.span()))
                .unwrap_or_default();
            return Err(Diagnostic::new(
                "duplicate_column",
                format!("the result would have two columns named '{name}'"),
                format!("give one an alias: … AS {name}_2"),
            )
            .at(text, span));
        }
    }
    for o in &st.order_by {
        match &o.value {
            Value::Field(f) => {
                let is_output = columns.iter().any(|c| c.eq_ignore_ascii_case(&f.node));
                if shape != Shape::Rows && !is_output {
                    return Err(Diagnostic::new(
                        "invalid_order_by",
                        format!(
                            "ORDER BY '{}' is not a column of this aggregate result",
                            f.node
                        ),
                        format!("order by one of: {}", columns.join(", ")),
                    )
                    .at(text, f.span));
                }
                if !is_output {
                    field_type(entity, text, f)?;
                }
            }
            agg @ Value::Agg { .. } => {
                check_value(entity, text, agg)?;
                if !st
                    .select
                    .iter()
                    .any(|i| &i.value == agg || i.value.to_string() == agg.to_string())
                {
                    return Err(Diagnostic::new(
                        "invalid_order_by",
                        format!("ORDER BY {agg} must also be selected"),
                        format!("select it with an alias and order by the alias: SELECT …, {agg} AS n … ORDER BY n DESC"),
                    )
                    .at(text, agg.span()));
                }
            }
        }
    }
    let limit = match &st.limit {
        None => {
            let base = text.trim_end().trim_end_matches(';').trim_end();
            return Err(Diagnostic::new(
                "missing_limit",
                format!("every statement must end with LIMIT n (at most {MAX_LIMIT})"),
                format!("{base} LIMIT 50"),
            )
            .at(
                text,
                Span {
                    start: base.len(),
                    end: base.len(),
                },
            ));
        }
        Some(l) if l.node == 0 => {
            return Err(Diagnostic::new(
                "invalid_limit",
                "LIMIT must be at least 1",
                replace(text, l.span, "1"),
            )
            .at(text, l.span));
        }
        Some(l) if l.node > MAX_LIMIT => {
            return Err(Diagnostic::new(
                "limit_too_large",
                format!("LIMIT {} is over the maximum of {MAX_LIMIT}", l.node),
                replace(text, l.span, &MAX_LIMIT.to_string()),
            )
            .at(text, l.span));
        }
        Some(l) => l.node,
    };
    Ok(Checked {
        statement: st,
        entity,
        columns,
        shape,
        limit,
    })
}

fn to_df_literal(l: &Literal) -> DfExpr {
    match l {
        Literal::Int(i) => lit(*i),
        Literal::Float(f) => lit(*f),
        Literal::Str(s) => lit(s.clone()),
        Literal::Bool(b) => lit(*b),
        Literal::Null => lit(datafusion::common::ScalarValue::Null),
    }
}

fn field_name(entity: &Entity, name: &str) -> String {
    entity
        .field(name)
        .map(|f| f.name.to_string())
        .unwrap_or_else(|| name.to_string())
}

fn to_df_expr(entity: &Entity, e: &Expr) -> DfExpr {
    let operand = |o: &Operand| match o {
        Operand::Field(f) => c(&field_name(entity, &f.node)),
        Operand::Literal(l) => to_df_literal(&l.node),
    };
    match e {
        Expr::Or(a, b) => to_df_expr(entity, a).or(to_df_expr(entity, b)),
        Expr::And(a, b) => to_df_expr(entity, a).and(to_df_expr(entity, b)),
        Expr::Not(x) => !to_df_expr(entity, x),
        Expr::Cmp { left, op, right } => {
            let is_null = |o: &Operand| matches!(o, Operand::Literal(l) if l.node == Literal::Null);
            if is_null(right) || is_null(left) {
                let other = if is_null(right) {
                    operand(left)
                } else {
                    operand(right)
                };
                return if *op == CmpOp::Eq {
                    other.is_null()
                } else {
                    other.is_not_null()
                };
            }
            // A string compared with `kind` or `language` is compared in lower case.
            let cased = |o: &Operand, other: &Operand| match (o, other) {
                (Operand::Literal(l), Operand::Field(f)) => {
                    to_df_literal(&enum_cased(&f.node, &l.node))
                }
                _ => operand(o),
            };
            let (l, r) = (cased(left, right), cased(right, left));
            match op {
                CmpOp::Eq => l.eq(r),
                CmpOp::NotEq => l.not_eq(r),
                CmpOp::Gt => l.gt(r),
                CmpOp::GtEq => l.gt_eq(r),
                CmpOp::Lt => l.lt(r),
                CmpOp::LtEq => l.lt_eq(r),
            }
        }
        Expr::In {
            field,
            list,
            negated,
        } => c(&field_name(entity, &field.node)).in_list(
            list.iter()
                .map(|l| to_df_literal(&enum_cased(&field.node, &l.node)))
                .collect(),
            *negated,
        ),
        Expr::Like {
            field,
            pattern,
            negated,
        } => {
            let (f, p) = (
                c(&field_name(entity, &field.node)),
                to_df_literal(&enum_cased(&field.node, &pattern.node)),
            );
            match negated {
                true => f.not_like(p),
                false => f.like(p),
            }
        }
    }
}

/// A literal compared with a field of fixed lower-case values (`kind`, `language`), in lower
/// case: those compare case-insensitively (`kind = 'Class'` is `kind = 'class'`).
fn enum_cased(field: &str, l: &Literal) -> Literal {
    match l {
        Literal::Str(s) if super::schema::is_lowercase_enum(field) => {
            Literal::Str(s.to_lowercase())
        }
        other => other.clone(),
    }
}

fn agg_expr(entity: &Entity, v: &Value) -> Option<DfExpr> {
    let Value::Agg { func, arg } = v else {
        return None;
    };
    let arg = arg.as_ref().map(|a| c(&field_name(entity, &a.node)));
    Some(match (func.node, arg) {
        (Agg::Count, None) => count_all(),
        (Agg::Count, Some(a)) => count(a),
        (Agg::Sum, Some(a)) => sum(a),
        (Agg::Avg, Some(a)) => avg(a),
        (Agg::Min, Some(a)) => min(a),
        (Agg::Max, Some(a)) => max(a),
        (_, None) => return None,
    })
}

fn rels_used(entity: &Entity, st: &Statement) -> BTreeSet<&'static str> {
    let mut names: Vec<String> = Vec::new();
    let value = |v: &Value, names: &mut Vec<String>| match v {
        Value::Field(f) => names.push(f.node.clone()),
        Value::Agg { arg: Some(a), .. } => names.push(a.node.clone()),
        _ => {}
    };
    if st.select.is_empty() {
        names.extend(entity.fields.iter().map(|f| f.name.to_string()));
    }
    for i in &st.select {
        value(&i.value, &mut names);
    }
    for o in &st.order_by {
        value(&o.value, &mut names);
    }
    names.extend(st.group_by.iter().map(|g| g.node.clone()));
    fn walk(e: &Expr, names: &mut Vec<String>) {
        match e {
            Expr::Or(a, b) | Expr::And(a, b) => {
                walk(a, names);
                walk(b, names);
            }
            Expr::Not(x) => walk(x, names),
            Expr::Cmp { left, right, .. } => {
                for o in [left, right] {
                    if let Operand::Field(f) = o {
                        names.push(f.node.clone());
                    }
                }
            }
            Expr::In { field, .. } | Expr::Like { field, .. } => names.push(field.node.clone()),
        }
    }
    if let Some(e) = &st.filter {
        walk(e, &mut names);
    }
    names
        .iter()
        .filter_map(|n| entity.field(n))
        .filter(|f| matches!(f.source, Source::Rel(_)))
        .map(|f| f.name)
        .collect()
}

async fn scan(ctx: &SessionContext, table: &str) -> datafusion::error::Result<LogicalPlanBuilder> {
    let provider = ctx.table_provider(table).await?;
    LogicalPlanBuilder::scan(table, provider_as_source(provider), None)
}

/// Build the logical plan of a checked statement. The plan fetches `limit + 1` rows so the
/// caller can tell whether the result was truncated.
pub async fn plan(ctx: &SessionContext, q: &Checked) -> datafusion::error::Result<LogicalPlan> {
    plan_bounded(ctx, q, None).await
}

/// A lower (or, ascending, upper) bound on the first sort key of a `Rows` statement: rows
/// beyond it cannot be among the first `limit + 1`. NULL keys sort last in both directions,
/// so they are never within a bound. See [`bound_plan`].
#[derive(Debug, Clone)]
pub struct Bound {
    /// The entity field the statement orders by first.
    pub field: String,
    pub descending: bool,
    /// A value of that field at or beyond the `limit + 1`-th row in statement order.
    pub value: datafusion::common::ScalarValue,
}

impl Bound {
    fn expr(&self) -> DfExpr {
        let key = c(&self.field);
        if self.descending {
            key.gt_eq(lit(self.value.clone()))
        } else {
            key.lt_eq(lit(self.value.clone()))
        }
    }
}

/// How many keys the optimistic first pass of [`bound_plan`] reads per answer row: the
/// statement's filters are not applied there, so some of those rows will not pass them.
const OPTIMISTIC_FACTOR: usize = 4;

/// The first pass of a top-N statement (`ORDER BY <number field> … LIMIT n`, no aggregates):
/// the first sort key alone, sorted and cut, whose last value bounds the key ([`Bound`]); the
/// second pass adds `key >= bound` (descending) so the scan decodes the other columns — above
/// all the `identifier` every sort breaks ties by — only for the few rows that can still make
/// it.
///
/// * `optimistic`: the key's column over the whole table (not NULL), without the statement's
///   filters, cut at `(limit + 1) × 8` rows — one cheap column. The bound it gives is only a
///   guess: if the bounded statement then returns `limit + 1` rows, they are exactly the
///   answer (every row the filters keep at or beyond the bound precedes every row they keep
///   below it); if fewer, ask again without `optimistic`.
/// * otherwise: the key filtered as the statement filters, cut at `limit + 1` rows; its last
///   value is a sure bound, ties included.
///
/// The answer is always the single-pass answer. `None` when the statement has no such key.
/// Returns the plan, the key's field name and its direction.
pub async fn bound_plan(
    ctx: &SessionContext,
    q: &Checked,
    optimistic: bool,
) -> datafusion::error::Result<Option<(LogicalPlan, String, bool)>> {
    let entity = q.entity;
    let st = &q.statement;
    if q.shape != Shape::Rows {
        return Ok(None);
    }
    let Some(first) = st.order_by.first() else {
        return Ok(None);
    };
    let Value::Field(f) = &first.value else {
        return Ok(None);
    };
    let name = field_name(entity, &rows_order_target(st, &f.node));
    let Some(field) = entity.field(&name) else {
        return Ok(None);
    };
    let precomputed = quarry_engine::exec::counts_precomputed(ctx);
    // Over tables without relationship counts a first pass would repeat the edge joins.
    if field.ty != FieldType::Int || (!precomputed && !rels_used(entity, st).is_empty()) {
        return Ok(None);
    }
    let descending = first.descending;
    let plan = if optimistic {
        let column = match field.source {
            Source::Column(col) => col,
            Source::Rel(rel) if precomputed => rel.column(),
            Source::Rel(_) => return Ok(None),
        };
        scan(ctx, entity.table)
            .await?
            .filter(c(column).is_not_null())?
            .sort(vec![c(column).sort(!descending, false)])?
            .limit(0, Some((q.limit as usize + 1) * OPTIMISTIC_FACTOR))?
            .project(vec![c(column).alias(&name)])?
            .build()?
    } else {
        base(ctx, q)
            .await?
            .sort(vec![c(&name).sort(!descending, false)])?
            .limit(0, Some(q.limit as usize + 1))?
            .project(vec![c(&name)])?
            .build()?
    };
    Ok(Some((plan, name, descending)))
}

/// The select item an `ORDER BY` name refers to: an alias maps to its field.
fn rows_order_target(st: &Statement, name: &str) -> String {
    st.select
        .iter()
        .find(|i| {
            i.alias
                .as_ref()
                .is_some_and(|a| a.node.eq_ignore_ascii_case(name))
        })
        .map(|i| i.value.default_name())
        .unwrap_or_else(|| name.to_string())
}

/// [`plan`], with the first sort key bounded (see [`bound_plan`]).
pub async fn plan_bounded(
    ctx: &SessionContext,
    q: &Checked,
    bound: Option<&Bound>,
) -> datafusion::error::Result<LogicalPlan> {
    let entity = q.entity;
    let st = &q.statement;
    let mut b = base(ctx, q).await?;
    if let Some(bound) = bound {
        b = b.filter(bound.expr())?;
    }
    let sort_exprs = |items: &[OrderItem],
                      resolve: &dyn Fn(&Value) -> DfExpr|
     -> Vec<datafusion::logical_expr::SortExpr> {
        items
            .iter()
            .map(|o| resolve(&o.value).sort(!o.descending, false))
            .collect()
    };
    match q.shape {
        Shape::Rows => {
            if !st.order_by.is_empty() {
                // Before projection, so any field can order; aliases map to their fields.
                let resolve = |v: &Value| match v {
                    Value::Field(f) => c(&field_name(entity, &rows_order_target(st, &f.node))),
                    other => c(&other.default_name()),
                };
                // Ties are broken by the identifier, so equal keys come back in a stable order.
                let mut keys = sort_exprs(&st.order_by, &resolve);
                keys.push(c(&field_name(entity, "identifier")).sort(true, false));
                b = b.sort(keys)?;
            }
            let out: Vec<DfExpr> = if st.select.is_empty() {
                entity.fields.iter().map(|f| c(f.name)).collect()
            } else {
                st.select
                    .iter()
                    .map(|i| c(&field_name(entity, &i.value.default_name())).alias(i.column_name()))
                    .collect()
            };
            b = b.project(out)?;
        }
        Shape::Aggregate | Shape::GroupedAggregate => {
            let groups: Vec<DfExpr> = st
                .group_by
                .iter()
                .map(|g| c(&field_name(entity, &g.node)))
                .collect();
            let aggs: Vec<DfExpr> = st
                .select
                .iter()
                .filter_map(|i| agg_expr(entity, &i.value).map(|e| e.alias(i.column_name())))
                .collect();
            b = b.aggregate(groups, aggs)?;
            let out: Vec<DfExpr> = st
                .select
                .iter()
                .map(|i| match &i.value {
                    Value::Field(f) => c(&field_name(entity, &f.node)).alias(i.column_name()),
                    Value::Agg { .. } => c(&i.column_name()),
                })
                .collect();
            b = b.project(out)?;
            if !st.order_by.is_empty() {
                let resolve = |v: &Value| {
                    let name = st
                        .select
                        .iter()
                        .find(|i| match v {
                            Value::Field(f) => i.column_name().eq_ignore_ascii_case(&f.node),
                            agg => i.value.to_string() == agg.to_string(),
                        })
                        .map(|i| i.column_name())
                        .unwrap_or_else(|| v.default_name());
                    c(&name)
                };
                // Ties are broken by the group columns, so equal keys come back in a stable order.
                let mut keys = sort_exprs(&st.order_by, &resolve);
                for i in &st.select {
                    if matches!(i.value, Value::Field(_)) {
                        keys.push(c(&i.column_name()).sort(true, false));
                    }
                }
                b = b.sort(keys)?;
            }
        }
    }
    b.limit(0, Some(q.limit as usize + 1))?.build()
}

/// The entity's rows under its field names, filtered by the statement's `WHERE`.
async fn base(ctx: &SessionContext, q: &Checked) -> datafusion::error::Result<LogicalPlanBuilder> {
    let entity = q.entity;
    let st = &q.statement;
    let mut b = scan(ctx, entity.table).await?;
    if !entity.kinds.is_empty() {
        b = b.filter(c("kind").in_list(entity.kinds.iter().map(|k| lit(*k)).collect(), false))?;
    }
    // Relationship counts: columns of `symbols` since analyzer version 2. Over older tables,
    // aggregate the edges once per relationship used, then left-join.
    let precomputed = quarry_engine::exec::counts_precomputed(ctx);
    let rels = if precomputed {
        BTreeSet::new()
    } else {
        rels_used(entity, st)
    };
    for name in rels.iter().copied() {
        let Some(Source::Rel(rel)) = entity.field(name).map(|f| f.source) else {
            continue;
        };
        // (A target counts only edges resolved at least `likely`, as the columns do.)
        let (kind, key, filter) = match rel {
            Rel::OutgoingCalls => ("calls", "source", lit(true)),
            Rel::IncomingCalls => ("calls", "target", crate::tools::sure()),
            Rel::References => ("references", "target", crate::tools::sure()),
        };
        let (k, v) = (format!("__{name}_key"), format!("__{name}_n"));
        let counts = scan(ctx, "edges")
            .await?
            .filter(
                c("kind")
                    .eq(lit(kind))
                    .and(c(key).is_not_null())
                    .and(filter),
            )?
            .aggregate(vec![c(key).alias(&k)], vec![count_all().alias(&v)])?
            .build()?;
        b = b.join(
            counts,
            JoinType::Left,
            (
                vec![Column::from_name("identifier")],
                vec![Column::from_name(k.clone())],
            ),
            None,
        )?;
    }
    // The entity's fields under their own names (relationship counts default to 0).
    let fields: Vec<DfExpr> = entity
        .fields
        .iter()
        .map(|f| match f.source {
            Source::Column(col) => c(col).alias(f.name),
            Source::Rel(rel) if precomputed => c(rel.column()).alias(f.name),
            Source::Rel(_) if rels.contains(f.name) => {
                coalesce(vec![c(&format!("__{}_n", f.name)), lit(0i64)]).alias(f.name)
            }
            Source::Rel(_) => lit(0i64).alias(f.name),
        })
        .collect();
    b = b.project(fields)?;
    if let Some(e) = &st.filter {
        b = b.filter(to_df_expr(entity, e))?;
    }
    Ok(b)
}
