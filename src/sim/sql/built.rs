//! Statements built as syntax trees together with their text, for the simulator's fixed
//! statements: the first page runs them on the engine without carrying its SQL parser (the
//! parser is 7.8 KB of its gzip). Each tree is the one the parser makes of the text, to the
//! character positions (`the_built_statements_are_what_the_parser_makes` checks every one),
//! so what runs is what the trace shows.
//!
//! It builds only the shapes the simulator sends; anything else goes through the parser.

use super::Prepared;
use super::expr::{Expr, Name, Op};
use super::parse::{ColumnDef, RowLock, SelectItem, Statement};
use super::table::Type;

/// A column's type in [`create_table`].
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Column {
    Bigint,
    Text,
    Uuid,
}

/// A column's constraint in [`create_table`].
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Constraint {
    None,
    PrimaryKey,
    NotNull,
}

/// A condition's comparison in [`update`] and [`select`].
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Operator {
    Eq,
    Lt,
    Le,
}

/// `CREATE TABLE table (name type constraint, ...)`.
pub(crate) fn create_table(table: &str, columns: &[(&str, Column, Constraint)]) -> Prepared {
    let mut w = Writer::new("CREATE TABLE ");
    let table = w.name(table);
    w.raw(" (");
    let mut defs = Vec::new();
    for (i, &(name, ty, constraint)) in columns.iter().enumerate() {
        if i > 0 {
            w.raw(", ");
        }
        w.raw(name);
        w.raw(match ty {
            Column::Bigint => " bigint",
            Column::Text => " text",
            Column::Uuid => " uuid",
        });
        let mut def = ColumnDef {
            name: name.to_owned(),
            ty: match ty {
                Column::Bigint => Type::Int8,
                Column::Text => Type::Text,
                Column::Uuid => Type::Uuid,
            },
            not_null: false,
            primary_key: false,
            key_pos: 0,
            default: None,
        };
        match constraint {
            Constraint::None => {}
            Constraint::PrimaryKey => {
                w.raw(" ");
                def.key_pos = w.pos();
                w.raw("PRIMARY KEY");
                def.primary_key = true;
            }
            Constraint::NotNull => {
                w.raw(" NOT NULL");
                def.not_null = true;
            }
        }
        defs.push(def);
    }
    w.raw(")");
    w.done(Statement::Create { table, columns: defs })
}

/// `INSERT INTO table (a, b, ...) VALUES ($1, $2, ...)`.
pub(crate) fn insert(table: &str, columns: &[&str]) -> Prepared {
    let mut w = Writer::new("INSERT INTO ");
    let table = w.name(table);
    w.raw(" (");
    let names = w.list(columns, |w, c| w.name(c));
    w.raw(") VALUES (");
    let indices: Vec<usize> = (1..=columns.len()).collect();
    let row = w.list(&indices, |w, &i| w.param(i));
    w.raw(")");
    w.done(Statement::Insert { table, columns: Some(names), rows: vec![row] })
}

/// `SELECT a, b FROM table WHERE key = $n [FOR UPDATE]`.
pub(crate) fn select(
    columns: &[&str],
    table: &str,
    (key, param): (&str, usize),
    lock: RowLock,
) -> Prepared {
    let mut w = Writer::new("SELECT ");
    let items = w.list(columns, |w, c| SelectItem::Column(w.name(c)));
    w.raw(" FROM ");
    let table = w.name(table);
    w.raw(" WHERE ");
    let filter = w.compare(key, Operator::Eq, param);
    if lock == RowLock::ForUpdate {
        w.raw(" FOR UPDATE");
    }
    w.done(Statement::Select { items, table, filter: Some(filter), order: None, lock })
}

/// `UPDATE table SET a = $i, ... WHERE c = $j AND ...`.
pub(crate) fn update(
    table: &str,
    sets: &[(&str, usize)],
    conditions: &[(&str, Operator, usize)],
) -> Prepared {
    let mut w = Writer::new("UPDATE ");
    let table = w.name(table);
    w.raw(" SET ");
    let sets = w.list(sets, |w, &(column, param)| {
        let name = w.name(column);
        w.raw(" = ");
        (name, w.param(param))
    });
    let mut filter = None;
    for (i, &(column, compare, param)) in conditions.iter().enumerate() {
        w.raw(if i == 0 { " WHERE " } else { " " });
        filter = Some(match filter.take() {
            None => w.compare(column, compare, param),
            Some(left) => {
                let pos = w.pos();
                w.raw("AND ");
                let right = w.compare(column, compare, param);
                Expr::Binary { op: Op::And, pos, left: Box::new(left), right: Box::new(right) }
            }
        });
    }
    w.done(Statement::Update { table, sets, filter })
}

/// `BEGIN`, `COMMIT` and `ROLLBACK`.
pub(crate) fn begin() -> Prepared {
    Writer::new("BEGIN").done(Statement::Begin("BEGIN"))
}

pub(crate) fn commit() -> Prepared {
    Writer::new("COMMIT").done(Statement::Commit)
}

pub(crate) fn rollback() -> Prepared {
    Writer::new("ROLLBACK").done(Statement::Rollback)
}

/// The text being written, and the position (1-based, in characters, as the lexer counts)
/// of what comes next.
struct Writer {
    text: String,
}

impl Writer {
    fn new(start: &str) -> Writer {
        Writer { text: start.to_owned() }
    }

    fn pos(&self) -> usize {
        self.text.chars().count() + 1
    }

    fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    fn name(&mut self, name: &str) -> Name {
        let pos = self.pos();
        self.raw(name);
        Name { text: name.to_owned(), pos }
    }

    fn param(&mut self, index: usize) -> Expr {
        let pos = self.pos();
        self.raw("$");
        self.raw(&index.to_string());
        Expr::Param { index, pos }
    }

    fn compare(&mut self, column: &str, compare: Operator, param: usize) -> Expr {
        let left = Expr::Column(self.name(column));
        self.raw(" ");
        let pos = self.pos();
        let op = match compare {
            Operator::Eq => Op::Eq,
            Operator::Lt => Op::Lt,
            Operator::Le => Op::Le,
        };
        self.raw(op.symbol());
        self.raw(" ");
        let right = self.param(param);
        Expr::Binary { op, pos, left: Box::new(left), right: Box::new(right) }
    }

    /// Items separated by `, `.
    fn list<T, U>(&mut self, items: &[T], mut each: impl FnMut(&mut Writer, &T) -> U) -> Vec<U> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.raw(", ");
            }
            out.push(each(self, item));
        }
        out
    }

    fn done(self, statement: Statement) -> Prepared {
        Prepared::from_tree(statement, self.text)
    }
}
