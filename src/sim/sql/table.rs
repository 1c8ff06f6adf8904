//! Tables, rows and their versions (committed, and the lock holder's uncommitted one),
//! column types and how values are stored in them: what a statement reads and writes.
//! It knows nothing of transactions beyond which session holds a row.

use super::*;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Int4,
    Int8,
    Text,
    Varchar(Option<u32>),
    Bool,
    Uuid,
}

impl Type {
    pub(crate) fn name(self) -> String {
        match self {
            Type::Int4 => "integer".to_owned(),
            Type::Int8 => "bigint".to_owned(),
            Type::Text => "text".to_owned(),
            Type::Varchar(None) => "character varying".to_owned(),
            Type::Varchar(Some(n)) => format!("character varying({n})"),
            Type::Bool => "boolean".to_owned(),
            Type::Uuid => "uuid".to_owned(),
        }
    }
    pub(crate) fn kind(self) -> Kind {
        match self {
            Type::Int4 => Kind::Int4,
            Type::Int8 => Kind::Int8,
            Type::Text | Type::Varchar(_) => Kind::Text,
            Type::Bool => Kind::Bool,
            Type::Uuid => Kind::Uuid,
        }
    }
}

/// Expression types, as PostgreSQL resolves them: quoted literals stay `Unknown` until
/// the other side of a comparison (or the target column) gives them a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Int4,
    Int8,
    Numeric,
    Text,
    Bool,
    Uuid,
    Unknown,
    Null,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Int4 => "integer",
            Kind::Int8 => "bigint",
            Kind::Numeric => "numeric",
            Kind::Text => "text",
            Kind::Bool => "boolean",
            Kind::Uuid => "uuid",
            Kind::Unknown => "unknown",
            Kind::Null => "unknown",
        }
    }
    pub(crate) fn is_int(self) -> bool {
        matches!(self, Kind::Int4 | Kind::Int8)
    }
}

/// A SQL value. Text is shared, not copied: a row's new version, a parameter bound into
/// it and a copy of the database take the same text (every write of every trial makes
/// one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Int(i64),
    Text(Arc<str>),
    Bool(bool),
}

impl Value {
    pub(crate) fn render(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(n) => n.to_string(),
            Value::Text(s) => s.to_string(),
            Value::Bool(b) => if *b { "t" } else { "f" }.to_owned(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Column {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) not_null: bool,
    pub(crate) primary_key: bool,
    pub(crate) default: Option<Value>,
}

#[derive(Clone, Debug)]
pub(crate) struct Version {
    /// Where this version sits in the heap: a sequential scan returns rows in this order,
    /// and an UPDATE writes a new version at the end, as PostgreSQL does.
    pub(crate) pos: u64,
    pub(crate) values: Vec<Value>,
}

#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) committed: Option<Version>,
    /// The lock holder's uncommitted version (an insert or an update).
    pub(crate) pending: Option<Version>,
    pub(crate) locked_by: Option<Session>,
}

impl Row {
    pub(crate) fn visible(&self, session: Session) -> Option<&Version> {
        match (&self.pending, self.locked_by) {
            (Some(version), Some(holder)) if holder == session => Some(version),
            _ => self.committed.as_ref(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) name: String,
    /// Shared between copies of the database: a run starts from a copy of a made table.
    pub(crate) columns: Arc<[Column]>,
    pub(crate) rows: Vec<Row>,
}

pub(crate) struct SelectPlan {
    pub(crate) columns: Vec<usize>,
    pub(crate) order: Option<(usize, bool)>,
}

impl Table {
    pub(crate) fn column(&self, name: &Name) -> Result<usize, SqlError> {
        self.columns.iter().position(|c| c.name == name.text).ok_or_else(|| {
            SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
        })
    }

    pub(crate) fn plan_select(
        &self,
        items: &[SelectItem],
        filter: Option<&Expr>,
        order: Option<&(Name, bool)>,
        params: &[Value],
        analysed: bool,
    ) -> Result<SelectPlan, SqlError> {
        let mut columns = Vec::new();
        for item in items {
            match item {
                SelectItem::Star => columns.extend(0..self.columns.len()),
                SelectItem::Column(name) => columns.push(self.column(name)?),
            }
        }
        if !analysed {
            self.check_filter(filter, params)?;
        }
        let order = match order {
            Some((name, descending)) => Some((self.column(name)?, *descending)),
            None => None,
        };
        Ok(SelectPlan { columns, order })
    }

    pub(crate) fn plan_update<'e>(
        &self,
        sets: &'e [(Name, Expr)],
        filter: Option<&Expr>,
        params: &[Value],
        analysed: bool,
    ) -> Result<Vec<(usize, &'e Expr)>, SqlError> {
        let mut out = Vec::new();
        for (name, expr) in sets {
            let column =
                self.columns.iter().position(|c| c.name == name.text).ok_or_else(|| {
                    SqlError::at(
                        format!(
                            "column \"{}\" of relation \"{}\" does not exist",
                            name.text, self.name
                        ),
                        name.pos,
                    )
                })?;
            if !analysed {
                self.check_assign(column, expr, params)?;
            }
            out.push((column, expr));
        }
        if !analysed {
            self.check_filter(filter, params)?;
        }
        Ok(out)
    }

    pub(crate) fn check_filter(
        &self,
        filter: Option<&Expr>,
        params: &[Value],
    ) -> Result<(), SqlError> {
        if let Some(expr) = filter {
            let kind = kind_of(expr, &self.columns, params)?;
            if !matches!(kind, Kind::Bool | Kind::Null | Kind::Unknown) {
                return Err(SqlError::at(
                    format!("argument of WHERE must be type boolean, not type {}", kind.name()),
                    expr.pos(),
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn check_assign(
        &self,
        column: usize,
        expr: &Expr,
        params: &[Value],
    ) -> Result<(), SqlError> {
        let target = self.columns[column].ty.kind();
        let kind = kind_of(expr, &self.columns, params)?;
        // A quoted constant is converted during analysis, so its error carries its position.
        if let Expr::Str { text, pos } = expr {
            match target {
                Kind::Int4 | Kind::Int8 => {
                    parse_int_input(text, target, *pos)?;
                }
                Kind::Bool => {
                    parse_bool_input(text, *pos)?;
                }
                Kind::Uuid => {
                    parse_uuid_input(text, *pos)?;
                }
                _ => {}
            }
        }
        let fits = match target {
            Kind::Int4 | Kind::Int8 => {
                kind.is_int() || matches!(kind, Kind::Unknown | Kind::Null | Kind::Numeric)
            }
            Kind::Text => true,
            Kind::Bool | Kind::Uuid => matches!(kind, Kind::Unknown | Kind::Null) || kind == target,
            _ => true,
        };
        if fits {
            Ok(())
        } else {
            Err(SqlError::at(
                format!(
                    "column \"{}\" is of type {} but expression is of type {}",
                    self.columns[column].name,
                    self.columns[column].ty.name(),
                    kind.name()
                ),
                expr.pos(),
            ))
        }
    }

    /// Coerces a value into a column, with PostgreSQL's range and length errors.
    pub(crate) fn store(&self, column: usize, value: Value) -> Result<Value, SqlError> {
        store(self.columns[column].ty, value)
    }

    /// Rows whose version visible to `session` matches the filter, in heap order: the
    /// statement's snapshot.
    pub(crate) fn matching(
        &self,
        session: Session,
        filter: Option<&Expr>,
        params: &[Value],
    ) -> Result<Vec<usize>, SqlError> {
        let mut hits = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            if let Some(version) = row.visible(session)
                && self.test(filter, &version.values, params)?
            {
                hits.push(i);
            }
        }
        // Rows come back in heap order; each hit is visible, so its position is there.
        crate::sim::sorted::sort_by_key(&mut hits, |&i| {
            self.rows[i].visible(session).map_or(0, |v| v.pos)
        });
        Ok(hits)
    }

    pub(crate) fn test(
        &self,
        filter: Option<&Expr>,
        values: &[Value],
        params: &[Value],
    ) -> Result<bool, SqlError> {
        match filter {
            None => Ok(true),
            Some(expr) => Ok(eval(expr, values, &self.columns, params)? == Value::Bool(true)),
        }
    }

    pub(crate) fn render(
        &self,
        session: Session,
        rows: &[usize],
        plan: &SelectPlan,
    ) -> Vec<String> {
        let mut picked: Vec<&Version> =
            rows.iter().filter_map(|&r| self.rows[r].visible(session)).collect();
        crate::sim::sorted::sort_by_key(&mut picked, |v| v.pos);
        if let Some((column, descending)) = plan.order {
            crate::sim::sorted::sort_by(&mut picked, |a, b| {
                let ordering = compare_for_order(&a.values[column], &b.values[column]);
                if descending { ordering.reverse() } else { ordering }
            });
        }
        picked
            .iter()
            .map(|version| {
                plan.columns
                    .iter()
                    .map(|&c| version.values[c].render())
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect()
    }

    pub(crate) fn not_null_ok(&self, values: &[Value]) -> Result<(), SqlError> {
        for (column, value) in self.columns.iter().zip(values) {
            if column.not_null && *value == Value::Null {
                return Err(SqlError::plain(format!(
                    "null value in column \"{}\" of relation \"{}\" violates not-null constraint",
                    column.name, self.name
                )));
            }
        }
        Ok(())
    }

    pub(crate) fn key(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.primary_key)
    }

    pub(crate) fn same_key(&self, a: &[Value], b: &[Value]) -> bool {
        self.key().is_some_and(|k| a[k] != Value::Null && a[k] == b[k])
    }

    pub(crate) fn duplicate(&self, _values: &[Value]) -> SqlError {
        SqlError::plain(format!(
            "duplicate key value violates unique constraint \"{}_pkey\"",
            self.name
        ))
    }

    /// Another session holds an uncommitted version with the same key: PostgreSQL makes
    /// the insert wait for that transaction.
    pub(crate) fn waits_for_other(&self, session: Session, values: &[Value]) -> Option<Session> {
        self.rows.iter().find_map(|row| match (row.locked_by, &row.pending) {
            (Some(holder), Some(version))
                if holder != session && self.same_key(&version.values, values) =>
            {
                Some(holder)
            }
            _ => None,
        })
    }

    pub(crate) fn unique_ok(
        &self,
        session: Session,
        values: &[Value],
        except: Option<usize>,
    ) -> Result<(), SqlError> {
        for (i, row) in self.rows.iter().enumerate() {
            if Some(i) == except {
                continue;
            }
            if let Some(version) = row.visible(session)
                && self.same_key(&version.values, values)
            {
                return Err(self.duplicate(values));
            }
        }
        Ok(())
    }
}

impl Value {
    pub(crate) fn render_as_text(&self) -> String {
        match self {
            Value::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
            other => other.render(),
        }
    }
}

pub(crate) fn compare_for_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        // NULLs sort last ascending, as in PostgreSQL.
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Greater,
        (_, Value::Null) => Ordering::Less,
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// Coerces a value into a column of type `ty`, with PostgreSQL's range and length errors.
pub(crate) fn store(ty: Type, value: Value) -> Result<Value, SqlError> {
    match (ty, value) {
        (_, Value::Null) => Ok(Value::Null),
        (Type::Int4, Value::Int(n)) => {
            if i32::try_from(n).is_ok() {
                Ok(Value::Int(n))
            } else {
                Err(SqlError::plain("integer out of range"))
            }
        }
        (Type::Int8, Value::Int(n)) => Ok(Value::Int(n)),
        (Type::Int4 | Type::Int8, Value::Text(s)) => {
            parse_int_input(&s, ty.kind(), 0).map(Value::Int)
        }
        (Type::Text, Value::Text(s)) => Ok(Value::Text(s)),
        (Type::Text, v) => Ok(Value::Text(v.render_as_text().into())),
        (Type::Varchar(limit), v) => {
            let text = v.render_as_text();
            match limit {
                Some(n) if text.chars().count() > n as usize => {
                    Err(SqlError::plain(format!("value too long for type character varying({n})")))
                }
                _ => Ok(Value::Text(text.into())),
            }
        }
        (Type::Bool, Value::Bool(b)) => Ok(Value::Bool(b)),
        (Type::Bool, Value::Text(s)) => parse_bool_input(&s, 0).map(Value::Bool),
        (Type::Uuid, Value::Text(s)) => parse_uuid_input(&s, 0).map(|u| Value::Text(u.into())),
        (ty, v) => Err(SqlError::plain(format!(
            "cannot store {} in a {} column",
            super::expr::literal_text(&v),
            ty.name()
        ))),
    }
}
