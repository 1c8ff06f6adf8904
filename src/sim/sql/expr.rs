//! Expressions and errors: types resolved as PostgreSQL's parse analysis resolves them,
//! evaluation with SQL's three-valued logic, comparisons and literals. It knows no
//! table or session.

use super::*;

// ---- errors -----------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SqlError {
    pub(crate) message: String,
    /// 1-based character position, printed by terse psql as "at character N"; 0 = none.
    pub(crate) pos: usize,
}

impl SqlError {
    pub(crate) fn at(message: impl Into<String>, pos: usize) -> SqlError {
        SqlError { message: message.into(), pos }
    }
    pub(crate) fn plain(message: impl Into<String>) -> SqlError {
        SqlError { message: message.into(), pos: 0 }
    }
    pub(crate) fn render(&self) -> String {
        if self.pos > 0 {
            format!("ERROR:  {} at character {}", self.message, self.pos)
        } else {
            format!("ERROR:  {}", self.message)
        }
    }
}

// ---- expressions --------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Name {
    pub(crate) text: String,
    pub(crate) pos: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    Int {
        text: String,
        pos: usize,
    },
    Str {
        text: String,
        pos: usize,
    },
    Bool {
        value: bool,
        pos: usize,
    },
    Null {
        pos: usize,
    },
    Column(Name),
    Binary {
        op: Op,
        pos: usize,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Not {
        pos: usize,
        inner: Box<Expr>,
    },
    IsNull {
        negated: bool,
        inner: Box<Expr>,
    },
    /// `$n` (1-based), bound to a value when a prepared statement runs.
    Param {
        index: usize,
        pos: usize,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    And,
    Or,
}

impl Op {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "<>",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::And => "AND",
            Op::Or => "OR",
        }
    }
}

impl Expr {
    pub(crate) fn pos(&self) -> usize {
        match self {
            Expr::Int { pos, .. }
            | Expr::Str { pos, .. }
            | Expr::Bool { pos, .. }
            | Expr::Null { pos }
            | Expr::Not { pos, .. }
            | Expr::Param { pos, .. } => *pos,
            Expr::Column(name) => name.pos,
            Expr::Binary { left, .. } => left.pos(),
            Expr::IsNull { inner, .. } => inner.pos(),
        }
    }
}

pub(crate) fn int_literal_kind(text: &str) -> Kind {
    match text.parse::<i64>() {
        Ok(n) if i32::try_from(n).is_ok() => Kind::Int4,
        Ok(_) => Kind::Int8,
        Err(_) => Kind::Numeric,
    }
}

/// Type-checks an expression against the table, as PostgreSQL's parse analysis does
/// before touching any row (so errors come even from an empty table).
pub(crate) fn kind_of(expr: &Expr, columns: &[Column], params: &[Value]) -> Result<Kind, SqlError> {
    match expr {
        Expr::Int { text, .. } => Ok(int_literal_kind(text)),
        Expr::Str { .. } => Ok(Kind::Unknown),
        Expr::Bool { .. } => Ok(Kind::Bool),
        Expr::Null { .. } => Ok(Kind::Null),
        // A parameter takes its value's type; text stays unknown until context types it,
        // as an untyped parameter of a prepared statement does in PostgreSQL.
        Expr::Param { index, pos } => Ok(match param(params, *index, *pos)? {
            Value::Int(_) => Kind::Int8,
            Value::Text(_) => Kind::Unknown,
            Value::Bool(_) => Kind::Bool,
            Value::Null => Kind::Null,
        }),
        Expr::Column(name) => {
            columns.iter().find(|c| c.name == name.text).map(|c| c.ty.kind()).ok_or_else(|| {
                SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
            })
        }
        Expr::Not { inner, .. } => {
            let kind = kind_of(inner, columns, params)?;
            boolean_operand(kind, inner, "NOT")?;
            Ok(Kind::Bool)
        }
        Expr::IsNull { inner, .. } => kind_of(inner, columns, params).map(|_| Kind::Bool),
        Expr::Binary { op, pos, left, right } => {
            let (l, r) = (kind_of(left, columns, params)?, kind_of(right, columns, params)?);
            match op {
                Op::And | Op::Or => {
                    boolean_operand(l, left, op.symbol())?;
                    boolean_operand(r, right, op.symbol())?;
                    Ok(Kind::Bool)
                }
                Op::Add | Op::Sub => {
                    let (l, r) = (resolve_unknown(l, r, left)?, resolve_unknown(r, l, right)?);
                    match (l, r) {
                        (Kind::Int4, Kind::Int4) => Ok(Kind::Int4),
                        (a, b) if a.is_int() && b.is_int() => Ok(Kind::Int8),
                        (Kind::Null, k) | (k, Kind::Null) if k.is_int() => Ok(k),
                        _ => Err(no_operator(*op, l, r, *pos)),
                    }
                }
                _ => {
                    let (l, r) = (resolve_unknown(l, r, left)?, resolve_unknown(r, l, right)?);
                    let comparable = l == r
                        || (l.is_int() && r.is_int())
                        || matches!(l, Kind::Null | Kind::Unknown)
                        || matches!(r, Kind::Null | Kind::Unknown)
                        || (matches!(l, Kind::Numeric) && r.is_int())
                        || (matches!(r, Kind::Numeric) && l.is_int());
                    if comparable { Ok(Kind::Bool) } else { Err(no_operator(*op, l, r, *pos)) }
                }
            }
        }
    }
}

pub(crate) fn boolean_operand(kind: Kind, expr: &Expr, op: &str) -> Result<(), SqlError> {
    if matches!(kind, Kind::Bool | Kind::Null) {
        return Ok(());
    }
    if kind == Kind::Unknown {
        if let Expr::Str { text, pos } = expr {
            return parse_bool_input(text, *pos).map(|_| ());
        }
        return Ok(());
    }
    Err(SqlError::at(
        format!("argument of {op} must be type boolean, not type {}", kind.name()),
        expr.pos(),
    ))
}

/// A quoted literal next to a typed operand takes that type; its text must parse.
pub(crate) fn resolve_unknown(kind: Kind, other: Kind, expr: &Expr) -> Result<Kind, SqlError> {
    if kind != Kind::Unknown {
        return Ok(kind);
    }
    let Expr::Str { text, pos } = expr else { return Ok(kind) };
    match other {
        Kind::Int4 | Kind::Int8 => parse_int_input(text, other, *pos).map(|_| other),
        Kind::Bool => parse_bool_input(text, *pos).map(|_| Kind::Bool),
        Kind::Uuid => parse_uuid_input(text, *pos).map(|_| Kind::Uuid),
        Kind::Unknown => Ok(Kind::Text),
        _ => Ok(Kind::Text),
    }
}

pub(crate) fn no_operator(op: Op, l: Kind, r: Kind, pos: usize) -> SqlError {
    SqlError::at(format!("operator does not exist: {} {} {}", l.name(), op.symbol(), r.name()), pos)
}

pub(crate) fn parse_int_input(text: &str, kind: Kind, pos: usize) -> Result<i64, SqlError> {
    let trimmed = text.trim_ascii();
    let digits = trimmed.strip_prefix(['-', '+']).unwrap_or(trimmed);
    let all_digits = !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit());
    match trimmed.parse::<i64>() {
        Ok(n) if all_digits && (kind != Kind::Int4 || i32::try_from(n).is_ok()) => Ok(n),
        _ if all_digits => Err(SqlError::at(
            format!("value \"{text}\" is out of range for type {}", kind.name()),
            pos,
        )),
        _ => Err(SqlError::at(
            format!("invalid input syntax for type {}: \"{text}\"", kind.name()),
            pos,
        )),
    }
}

/// A uuid's text as PostgreSQL takes it (32 hex digits, either case, hyphens between
/// groups of four or none, optionally in braces), in its canonical lower-case form.
pub(crate) fn parse_uuid_input(text: &str, pos: usize) -> Result<String, SqlError> {
    let inner = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or(text);
    let mut hex = String::with_capacity(36);
    let mut digits = 0;
    let mut after_hyphen = false;
    for c in inner.chars() {
        match c {
            '-' if !after_hyphen && digits > 0 && digits % 4 == 0 => after_hyphen = true,
            c if c.is_ascii_hexdigit() && digits < 32 => {
                hex.push(c.to_ascii_lowercase());
                digits += 1;
                after_hyphen = false;
                if matches!(digits, 8 | 12 | 16 | 20) {
                    hex.push('-');
                }
            }
            _ => digits = 99,
        }
    }
    if digits != 32 || after_hyphen {
        return Err(SqlError::at(format!("invalid input syntax for type uuid: \"{text}\""), pos));
    }
    Ok(hex)
}

pub(crate) fn parse_bool_input(text: &str, pos: usize) -> Result<bool, SqlError> {
    match text.trim_ascii().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "on" | "1" => Ok(true),
        "f" | "false" | "n" | "no" | "off" | "0" => Ok(false),
        _ => Err(SqlError::at(format!("invalid input syntax for type boolean: \"{text}\""), pos)),
    }
}

/// Evaluates with SQL's three-valued logic (NULL propagates; AND/OR as in the standard).
pub(crate) fn eval(
    expr: &Expr,
    row: &[Value],
    columns: &[Column],
    params: &[Value],
) -> Result<Value, SqlError> {
    Ok(match expr {
        Expr::Int { text, .. } => match text.parse::<i64>() {
            Ok(n) => Value::Int(n),
            Err(_) => return Err(SqlError::plain("bigint out of range")),
        },
        Expr::Str { text, .. } => Value::Text(text.as_str().into()),
        Expr::Bool { value, .. } => Value::Bool(*value),
        Expr::Null { .. } => Value::Null,
        Expr::Param { index, pos } => param(params, *index, *pos)?.clone(),
        Expr::Column(name) => {
            let i = columns.iter().position(|c| c.name == name.text).ok_or_else(|| {
                SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
            })?;
            row.get(i).cloned().unwrap_or(Value::Null)
        }
        Expr::Not { inner, .. } => match truth(&eval(inner, row, columns, params)?) {
            Some(b) => Value::Bool(!b),
            None => Value::Null,
        },
        Expr::IsNull { negated, inner } => {
            Value::Bool((eval(inner, row, columns, params)? == Value::Null) != *negated)
        }
        Expr::Binary { op, left, right, .. } => {
            // A comparison of columns and parameters reads them in place: the fence's
            // check runs for every write of every trial, and copying text would dominate.
            if !matches!(op, Op::And | Op::Or | Op::Add | Op::Sub)
                && let (Some(l), Some(r)) =
                    (in_place(left, row, columns, params), in_place(right, row, columns, params))
            {
                return compare(*op, l, r, left, right, columns, params);
            }
            let l = eval(left, row, columns, params)?;
            let r = eval(right, row, columns, params)?;
            match op {
                Op::And => match (truth(&l), truth(&r)) {
                    (Some(false), _) | (_, Some(false)) => Value::Bool(false),
                    (Some(true), Some(true)) => Value::Bool(true),
                    _ => Value::Null,
                },
                Op::Or => match (truth(&l), truth(&r)) {
                    (Some(true), _) | (_, Some(true)) => Value::Bool(true),
                    (Some(false), Some(false)) => Value::Bool(false),
                    _ => Value::Null,
                },
                Op::Add | Op::Sub => {
                    let kind = kind_of(expr, columns, params)?;
                    match (as_int(&l, kind)?, as_int(&r, kind)?) {
                        (Some(a), Some(b)) => {
                            let result =
                                if *op == Op::Add { a.checked_add(b) } else { a.checked_sub(b) };
                            match result {
                                Some(n) if kind != Kind::Int4 || i32::try_from(n).is_ok() => {
                                    Value::Int(n)
                                }
                                _ => {
                                    let name =
                                        if kind == Kind::Int4 { "integer" } else { "bigint" };
                                    return Err(SqlError::plain(format!("{name} out of range")));
                                }
                            }
                        }
                        _ => Value::Null,
                    }
                }
                _ => compare(*op, &l, &r, left, right, columns, params)?,
            }
        }
    })
}

/// A column's or a parameter's value where it is (`None` for anything else, or a column
/// or parameter that is not there: `eval` reports those).
fn in_place<'a>(
    expr: &Expr,
    row: &'a [Value],
    columns: &[Column],
    params: &'a [Value],
) -> Option<&'a Value> {
    match expr {
        Expr::Column(name) => row.get(columns.iter().position(|c| c.name == name.text)?),
        Expr::Param { index, .. } => params.get(index.checked_sub(1)?),
        _ => None,
    }
}

/// The conditions of a WHERE clause joined by AND at its top level.
pub(crate) fn conjuncts<'a>(expr: &'a Expr, out: &mut Vec<&'a Expr>) {
    match expr {
        Expr::Binary { op: Op::And, left, right, .. } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        other => out.push(other),
    }
}

pub(crate) fn column_names<'a>(expr: &'a Expr, out: &mut Vec<&'a str>) {
    match expr {
        Expr::Column(name) => out.push(&name.text),
        Expr::Binary { left, right, .. } => {
            column_names(left, out);
            column_names(right, out);
        }
        Expr::Not { inner, .. } | Expr::IsNull { inner, .. } => column_names(inner, out),
        Expr::Int { .. }
        | Expr::Str { .. }
        | Expr::Bool { .. }
        | Expr::Null { .. }
        | Expr::Param { .. } => {}
    }
}

/// One condition with each column followed by its value in `row` (`last_fence 34 < 33`):
/// a comparison or IS [NOT] NULL of columns and constants; `None` for anything else.
pub(crate) fn condition_text(expr: &Expr, row: &[Value], columns: &[Column]) -> Option<String> {
    match expr {
        Expr::Binary { op, left, right, .. }
            if matches!(op, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge) =>
        {
            Some(format!(
                "{} {} {}",
                operand_text(left, row, columns)?,
                op.symbol(),
                operand_text(right, row, columns)?
            ))
        }
        Expr::IsNull { negated, inner } => Some(format!(
            "{} IS {}NULL",
            operand_text(inner, row, columns)?,
            if *negated { "NOT " } else { "" }
        )),
        _ => None,
    }
}

pub(crate) fn operand_text(expr: &Expr, row: &[Value], columns: &[Column]) -> Option<String> {
    Some(match expr {
        Expr::Column(name) => {
            let i = columns.iter().position(|c| c.name == name.text)?;
            format!("{} {}", name.text, literal_text(row.get(i)?))
        }
        Expr::Int { text, .. } => text.clone(),
        Expr::Str { text, .. } => literal_text(&Value::Text(text.as_str().into())),
        Expr::Bool { value, .. } => literal_text(&Value::Bool(*value)),
        Expr::Null { .. } => literal_text(&Value::Null),
        _ => return None,
    })
}

/// A value as SQL would write it: 34, 'paid', true, NULL.
pub(crate) fn literal_text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_owned(),
        Value::Int(n) => n.to_string(),
        Value::Text(s) => format!("'{}'", s.replace('\'', "''")),
        Value::Bool(b) => b.to_string(),
    }
}

pub(crate) fn truth(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Text(s) => parse_bool_input(s, 0).ok(),
        _ => None,
    }
}

pub(crate) fn as_int(value: &Value, kind: Kind) -> Result<Option<i64>, SqlError> {
    match value {
        Value::Null => Ok(None),
        Value::Int(n) => Ok(Some(*n)),
        Value::Text(s) => parse_int_input(s, kind, 0).map(Some),
        Value::Bool(_) => Ok(None),
    }
}

pub(crate) fn compare(
    op: Op,
    l: &Value,
    r: &Value,
    left: &Expr,
    right: &Expr,
    columns: &[Column],
    params: &[Value],
) -> Result<Value, SqlError> {
    use std::cmp::Ordering;
    let ordering = match (l, r) {
        (Value::Null, _) | (_, Value::Null) => return Ok(Value::Null),
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Int(a), Value::Text(s)) => {
            a.cmp(&parse_int_input(s, kind_of(left, columns, params)?, right.pos())?)
        }
        (Value::Text(s), Value::Int(b)) => {
            parse_int_input(s, kind_of(right, columns, params)?, left.pos())?.cmp(b)
        }
        // A uuid orders by its bytes, which is its canonical text's order: a literal
        // written otherwise (upper case, no hyphens) is made canonical first.
        (Value::Text(a), Value::Text(b)) if is_uuid(left, columns) || is_uuid(right, columns) => {
            let canonical = |s: &str, e: &Expr| parse_uuid_input(s, e.pos());
            canonical(a, left)?.cmp(&canonical(b, right)?)
        }
        (Value::Text(a), Value::Text(b)) => a.as_bytes().cmp(b.as_bytes()),
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        (Value::Bool(a), Value::Text(s)) => a.cmp(&parse_bool_input(s, right.pos())?),
        (Value::Text(s), Value::Bool(b)) => parse_bool_input(s, left.pos())?.cmp(b),
        _ => Ordering::Equal,
    };
    Ok(Value::Bool(match op {
        Op::Eq => ordering == Ordering::Equal,
        Op::Ne => ordering != Ordering::Equal,
        Op::Lt => ordering == Ordering::Less,
        Op::Le => ordering != Ordering::Greater,
        Op::Gt => ordering == Ordering::Greater,
        _ => ordering != Ordering::Less,
    }))
}

/// Whether the expression is a column of type uuid.
fn is_uuid(expr: &Expr, columns: &[Column]) -> bool {
    matches!(expr, Expr::Column(name)
        if columns.iter().any(|c| c.name == name.text && c.ty == Type::Uuid))
}

/// The value bound to `$index`, or PostgreSQL's error for a parameter nobody supplied.
fn param(params: &[Value], index: usize, pos: usize) -> Result<&Value, SqlError> {
    index
        .checked_sub(1)
        .and_then(|i| params.get(i))
        .ok_or_else(|| SqlError::at(format!("there is no parameter ${index}"), pos))
}
