//! The PostgreSQL-subset engine behind every SQL statement the playground shows: the
//! simulator's order row (its reads, the fenced UPDATE, row locks, transactions) and the
//! consoles run on it, so the fence that decides a write is the code the conformance
//! tests compare with PostgreSQL 15. It parses (CREATE TABLE, INSERT, SELECT ... WHERE ...
//! [ORDER BY] [FOR UPDATE], UPDATE ... SET ... WHERE, BEGIN, COMMIT, ROLLBACK, `$n`
//! parameters), type-checks as PostgreSQL's parse analysis does, and runs READ COMMITTED
//! with row locks for any number of sessions.
//! It must not panic on any input, and it must not pretend: statements outside the subset
//! get "not supported here", never a guess. It prints nothing: psql's text is the
//! console's (`console::sql`), the trace's text is the simulator's.

pub(crate) mod built;
mod expr;
mod lex;
mod parse;
mod prepared;
mod table;

pub(crate) use expr::*;
pub(crate) use lex::*;
pub(crate) use parse::*;
pub use prepared::{Exec, Prepared};
pub use table::Value;
pub(crate) use table::*;

use std::sync::Arc;

/// A connection: the simulator's workers are sessions 0, 1, ...; the console's A and B
/// are sessions 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Session(pub u8);

impl Session {
    pub const A: Session = Session(0);
    pub const B: Session = Session(1);
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// What psql prints for a statement that succeeded, kept as data until it is shown (a
/// simulation that records no text never formats it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A SELECT's rows, as `a|b`.
    Rows(Vec<String>),
    /// A command tag with its row count: `UPDATE 1`, `INSERT 0 2`.
    Count(&'static str, usize),
    /// A command tag alone: `BEGIN`, `CREATE TABLE`.
    Tag(&'static str),
}

impl Reply {
    /// The lines psql prints.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Reply::Rows(rows) => rows.clone(),
            Reply::Count(tag, n) => vec![format!("{tag} {n}")],
            Reply::Tag(tag) => vec![(*tag).to_owned()],
        }
    }
}

/// The parts of a SELECT that `select` reads.
struct Select<'a> {
    items: &'a [SelectItem],
    table: &'a Name,
    filter: Option<&'a Expr>,
    order: Option<&'a (Name, bool)>,
}

/// One database: its tables and what each session is doing.
#[derive(Clone, Debug, Default)]
pub struct Database {
    pub(crate) tables: Vec<Table>,
    pub(crate) next_pos: u64,
    pub(crate) sessions: Vec<SessionState>,
}

impl Database {
    pub fn new() -> Database {
        Database::default()
    }

    /// The session's state; sessions come into being when first used.
    pub(crate) fn state_mut(&mut self, session: Session) -> &mut SessionState {
        if self.sessions.len() <= session.index() {
            self.sessions.resize_with(session.index() + 1, SessionState::default);
        }
        &mut self.sessions[session.index()]
    }

    pub(crate) fn state(&self, session: Session) -> Option<&SessionState> {
        self.sessions.get(session.index())
    }

    /// The row of `table` whose primary key is `key`, as `session` sees it (its own
    /// uncommitted version, else the committed one).
    pub fn row(&self, session: Session, table: &str, key: i64) -> Option<&[Value]> {
        let table = self.tables.iter().find(|t| t.name == table)?;
        let k = table.key()?;
        table.rows.iter().find_map(|row| {
            row.visible(session)
                .filter(|v| v.values.get(k) == Some(&Value::Int(key)))
                .map(|v| v.values.as_slice())
        })
    }

    /// That row as committed: what a session without a transaction sees.
    pub fn committed(&self, table: &str, key: i64) -> Option<&[Value]> {
        self.version(table, key, |row| row.committed.as_ref())
    }

    /// That row's uncommitted version (its lock holder's), if it has one.
    pub fn pending(&self, table: &str, key: i64) -> Option<&[Value]> {
        self.version(table, key, |row| row.pending.as_ref())
    }

    fn version(
        &self,
        table: &str,
        key: i64,
        pick: impl Fn(&Row) -> Option<&Version>,
    ) -> Option<&[Value]> {
        let table = self.tables.iter().find(|t| t.name == table)?;
        let k = table.key()?;
        table.rows.iter().find_map(|row| {
            pick(row)
                .filter(|v| v.values.get(k) == Some(&Value::Int(key)))
                .map(|v| v.values.as_slice())
        })
    }

    /// The session holding the lock on that row, if any.
    pub fn holder(&self, table: &str, key: i64) -> Option<Session> {
        let table = self.tables.iter().find(|t| t.name == table)?;
        let k = table.key()?;
        table.rows.iter().find_map(|row| {
            let mine = [row.committed.as_ref(), row.pending.as_ref()]
                .into_iter()
                .flatten()
                .any(|v| v.values.get(k) == Some(&Value::Int(key)));
            if mine { row.locked_by } else { None }
        })
    }

    /// Whether the conditions of the statement's WHERE clause (its top-level AND terms)
    /// that mention `column` hold on the row `session` sees with primary key `key`:
    /// `Some(true)` when there is none. `None` when that row is not there or a condition
    /// cannot be evaluated. This is how a caller tells which condition turned an UPDATE
    /// away, using the engine's own evaluation.
    pub fn conditions_hold(
        &self,
        session: Session,
        prepared: &Prepared,
        params: &[Value],
        key: i64,
        column: &str,
    ) -> Option<bool> {
        let (table, filter) = match &*prepared.statement {
            Statement::Update { table, filter, .. } | Statement::Select { table, filter, .. } => {
                (table, filter.as_ref())
            }
            _ => return None,
        };
        let Some(filter) = filter else { return Some(true) };
        let t = self.table_index(table).ok()?;
        let row = self.row(session, &table.text, key)?;
        let mut terms = Vec::new();
        conjuncts(filter, &mut terms);
        let mut holds = true;
        for term in terms {
            let mut names = Vec::new();
            column_names(term, &mut names);
            if names.contains(&column) {
                let value = eval(term, row, &self.tables[t].columns, params).ok()?;
                holds &= value == Value::Bool(true);
            }
        }
        Some(holds)
    }

    /// Commits or rolls back the session's changes and releases its row locks.
    pub(crate) fn finish(&mut self, session: Session, commit: bool) {
        // A waiting statement's resume note names the columns this transaction wrote to the
        // row it waits for, whether they are now committed or thrown away.
        for waiter in &mut self.sessions {
            if let Some(Waited { table, row, written, .. }) =
                waiter.waiting.as_mut().and_then(|work| work.waited.as_mut())
                && let Some(held) = self.tables.get(*table).and_then(|t| t.rows.get(*row))
                && held.locked_by == Some(session)
            {
                *written = held.pending.as_ref().map(|v| v.values.clone());
            }
        }
        for table in &mut self.tables {
            for row in &mut table.rows {
                if row.locked_by != Some(session) {
                    continue;
                }
                if let Some(version) = row.pending.take()
                    && commit
                {
                    row.committed = Some(version);
                }
                row.locked_by = None;
            }
        }
        let state = self.state_mut(session);
        state.tx = Tx::Idle;
        state.waiting = None;
    }

    pub(crate) fn step(&mut self, session: Session, work: &mut Work, params: &[Value]) -> Step {
        let statement = Arc::clone(&work.statement);
        match &*statement {
            Statement::Create { table, columns } => self.create(table, columns, session),
            Statement::Insert { table, columns, rows } => {
                self.insert(session, table, columns.as_deref(), rows, params)
            }
            Statement::Select { items, table, filter, order, lock } => {
                let select =
                    Select { items, table, filter: filter.as_ref(), order: order.as_ref() };
                self.select(session, work, params, select, *lock)
            }
            Statement::Update { table, sets, filter } => {
                self.update(session, work, params, (table, sets, filter.as_ref()))
            }
            Statement::Begin(_) | Statement::Commit | Statement::Rollback => {
                Step::Done(Reply::Rows(Vec::new()))
            }
        }
    }

    /// SELECT, and with FOR UPDATE the row locks it takes (waiting where another session
    /// holds one, re-checking the newest version once it may go on).
    fn select(
        &mut self,
        session: Session,
        work: &mut Work,
        params: &[Value],
        Select { items, table, filter, order }: Select<'_>,
        lock: RowLock,
    ) -> Step {
        let t = match self.table_index(table) {
            Ok(t) => t,
            Err(e) => return Step::Failed(e),
        };
        let plan = match self.tables[t].plan_select(items, filter, order, params, work.analysed) {
            Ok(plan) => plan,
            Err(e) => return Step::Failed(e),
        };
        if work.candidates.is_none() {
            match self.tables[t].matching(session, filter, params) {
                Ok(rows) => work.candidates = Some(rows),
                Err(e) => return Step::Failed(e),
            }
        }
        if lock == RowLock::ForUpdate {
            while let Some(&r) = work.candidates.as_ref().and_then(|c| c.get(work.next)) {
                let row = &mut self.tables[t].rows[r];
                if let Some(holder) = row.locked_by.filter(|&h| h != session) {
                    work.wait_for(t, r, row.visible(session));
                    return Step::Blocked(holder);
                }
                // READ COMMITTED re-check: the newest version must still match.
                let current = row.visible(session).cloned();
                let keep = match &current {
                    Some(version) => {
                        let tested = self.tables[t].test(filter, &version.values, params);
                        work.rechecked(r, Some(version), tested.as_ref().ok().copied());
                        match tested {
                            Ok(keep) => keep,
                            Err(e) => return Step::Failed(e),
                        }
                    }
                    None => {
                        work.rechecked(r, None, Some(false));
                        false
                    }
                };
                if keep {
                    self.tables[t].rows[r].locked_by = Some(session);
                    work.rows.push(r);
                }
                work.next += 1;
            }
        } else {
            work.rows = work.candidates.clone().unwrap_or_default();
        }
        Step::Done(Reply::Rows(self.tables[t].render(session, &work.rows, &plan)))
    }

    /// UPDATE: each matching row's new version, written after waiting for another
    /// session's lock and re-checking the WHERE clause on the newest committed version.
    fn update(
        &mut self,
        session: Session,
        work: &mut Work,
        params: &[Value],
        (table, sets, filter): (&Name, &[(Name, Expr)], Option<&Expr>),
    ) -> Step {
        let t = match self.table_index(table) {
            Ok(t) => t,
            Err(e) => return Step::Failed(e),
        };
        let assignments = match self.tables[t].plan_update(sets, filter, params, work.analysed) {
            Ok(a) => a,
            Err(e) => return Step::Failed(e),
        };
        if work.candidates.is_none() {
            match self.tables[t].matching(session, filter, params) {
                Ok(rows) => work.candidates = Some(rows),
                Err(e) => return Step::Failed(e),
            }
        }
        while let Some(&r) = work.candidates.as_ref().and_then(|c| c.get(work.next)) {
            let table = &self.tables[t];
            let row = &table.rows[r];
            if let Some(holder) = row.locked_by.filter(|&h| h != session) {
                work.wait_for(t, r, row.visible(session));
                return Step::Blocked(holder);
            }
            let Some(current) = row.visible(session) else {
                work.rechecked(r, None, Some(false));
                work.next += 1;
                continue;
            };
            // READ COMMITTED re-check after a wait: the newest version must still match.
            // Without a wait nothing ran since the snapshot matched this very version.
            let tested = match work.waited {
                Some(_) => table.test(filter, &current.values, params),
                None => Ok(true),
            };
            work.rechecked(r, Some(current), tested.as_ref().ok().copied());
            match tested {
                Ok(true) => {}
                Ok(false) => {
                    work.next += 1;
                    continue;
                }
                Err(e) => return Step::Failed(e),
            }
            let mut values = current.values.clone();
            for (column, expr) in &assignments {
                let value = match eval(expr, &current.values, &table.columns, params) {
                    Ok(v) => v,
                    Err(e) => return Step::Failed(e),
                };
                match table.store(*column, value) {
                    Ok(v) => values[*column] = v,
                    Err(e) => return Step::Failed(e),
                }
            }
            if let Err(e) = table.not_null_ok(&values) {
                return Step::Failed(e);
            }
            if let Err(e) = table.unique_ok(session, &values, Some(r)) {
                return Step::Failed(e);
            }
            self.next_pos += 1;
            let row = &mut self.tables[t].rows[r];
            row.pending = Some(Version { pos: self.next_pos, values });
            row.locked_by = Some(session);
            work.count += 1;
            work.next += 1;
        }
        Step::Done(Reply::Count("UPDATE", work.count))
    }

    pub(crate) fn table_index(&self, name: &Name) -> Result<usize, SqlError> {
        self.tables.iter().position(|t| t.name == name.text).ok_or_else(|| {
            SqlError::at(format!("relation \"{}\" does not exist", name.text), name.pos)
        })
    }

    pub(crate) fn create(&mut self, name: &Name, columns: &[ColumnDef], session: Session) -> Step {
        if self.state(session).is_some_and(|s| s.tx != Tx::Idle) {
            return Step::Failed(SqlError::plain(
                "CREATE TABLE inside a transaction block is not supported here (this model does not roll back DDL)",
            ));
        }
        if self.tables.iter().any(|t| t.name == name.text) {
            return Step::Failed(SqlError::plain(format!(
                "relation \"{}\" already exists",
                name.text
            )));
        }
        for (i, column) in columns.iter().enumerate() {
            if columns[..i].iter().any(|c| c.name == column.name) {
                return Step::Failed(SqlError::plain(format!(
                    "column \"{}\" specified more than once",
                    column.name
                )));
            }
        }
        if columns.iter().filter(|c| c.primary_key).count() > 1 {
            return Step::Failed(SqlError::at(
                format!("multiple primary keys for table \"{}\" are not allowed", name.text),
                columns.iter().filter(|c| c.primary_key).nth(1).map_or(0, |c| c.key_pos),
            ));
        }
        let mut made = Vec::new();
        for def in columns {
            let default = match &def.default {
                Some(expr) => match eval(expr, &[], &[], &[]).and_then(|v| store(def.ty, v)) {
                    Ok(v) => Some(v),
                    Err(e) => return Step::Failed(e),
                },
                None => None,
            };
            made.push(Column {
                name: def.name.clone(),
                ty: def.ty,
                not_null: def.not_null || def.primary_key,
                primary_key: def.primary_key,
                default,
            });
        }
        self.tables.push(Table { name: name.text.clone(), columns: made.into(), rows: Vec::new() });
        Step::Done(Reply::Tag("CREATE TABLE"))
    }

    pub(crate) fn insert(
        &mut self,
        session: Session,
        name: &Name,
        columns: Option<&[Name]>,
        rows: &[Vec<Expr>],
        params: &[Value],
    ) -> Step {
        let t = match self.table_index(name) {
            Ok(t) => t,
            Err(e) => return Step::Failed(e),
        };
        let table = &self.tables[t];
        let targets: Vec<usize> = match columns {
            None => (0..table.columns.len()).collect(),
            Some(names) => {
                let mut targets = Vec::new();
                for n in names {
                    match table.columns.iter().position(|c| c.name == n.text) {
                        Some(i) => targets.push(i),
                        None => {
                            return Step::Failed(SqlError::at(
                                format!(
                                    "column \"{}\" of relation \"{}\" does not exist",
                                    n.text, table.name
                                ),
                                n.pos,
                            ));
                        }
                    }
                }
                targets
            }
        };
        let mut built = Vec::new();
        for exprs in rows {
            if exprs.len() > targets.len() {
                let pos = exprs.get(targets.len()).map_or(0, Expr::pos);
                return Step::Failed(SqlError::at(
                    "INSERT has more expressions than target columns",
                    pos,
                ));
            }
            if exprs.len() < targets.len() && columns.is_some() {
                let pos = columns.and_then(|c| c.get(exprs.len())).map_or(0, |n| n.pos);
                return Step::Failed(SqlError::at(
                    "INSERT has more target columns than expressions",
                    pos,
                ));
            }
            let mut values: Vec<Value> =
                table.columns.iter().map(|c| c.default.clone().unwrap_or(Value::Null)).collect();
            for (expr, &column) in exprs.iter().zip(&targets) {
                if let Err(e) = table.check_assign(column, expr, params) {
                    return Step::Failed(e);
                }
                match eval(expr, &[], &[], params).and_then(|v| table.store(column, v)) {
                    Ok(v) => values[column] = v,
                    Err(e) => return Step::Failed(e),
                }
            }
            if let Err(e) = table.not_null_ok(&values) {
                return Step::Failed(e);
            }
            built.push(values);
        }
        // Check every row before inserting any, so a wait never leaves half an insert.
        for (i, values) in built.iter().enumerate() {
            if let Some(holder) = table.waits_for_other(session, values) {
                // Resumed, the insert starts over (its candidates stay None).
                return Step::Blocked(holder);
            }
            if let Err(e) = table.unique_ok(session, values, None) {
                return Step::Failed(e);
            }
            if built[..i].iter().any(|earlier| table.same_key(earlier, values)) {
                return Step::Failed(table.duplicate(values));
            }
        }
        let count = built.len();
        for values in built {
            self.next_pos += 1;
            self.tables[t].rows.push(Row {
                committed: None,
                pending: Some(Version { pos: self.next_pos, values }),
                locked_by: Some(session),
            });
        }
        Step::Done(Reply::Count("INSERT 0", count))
    }
}

// ---- engine data ----------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Tx {
    #[default]
    Idle,
    InBlock,
    Aborted,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SessionState {
    pub(crate) tx: Tx,
    pub(crate) waiting: Option<Work>,
}

/// A data statement in progress: which rows matched its snapshot and how far it got, so a
/// wait resumes where it stopped (rows already updated are not re-tested).
#[derive(Clone, Debug)]
pub(crate) struct Work {
    pub(crate) statement: Arc<Statement>,
    pub(crate) candidates: Option<Vec<usize>>,
    pub(crate) next: usize,
    pub(crate) count: usize,
    pub(crate) rows: Vec<usize>,
    /// The row an UPDATE or SELECT ... FOR UPDATE last waited for (none for an INSERT).
    pub(crate) waited: Option<Waited>,
    /// That row's READ COMMITTED re-check, once the statement resumed and ran it.
    pub(crate) recheck: Option<Recheck>,
    /// Whether this statement already passed parse analysis against this table with
    /// parameters of these types (see `ANALYSED`): the type checks are skipped.
    pub(crate) analysed: bool,
}

/// A row a statement waited for, by table and row index.
#[derive(Clone, Debug)]
pub(crate) struct Waited {
    pub(crate) table: usize,
    pub(crate) row: usize,
    /// The version the statement had matched (the newest committed one when it waited).
    pub(crate) seen: Option<Vec<Value>>,
    /// What the lock holder's transaction had written to the row when it ended (set by
    /// `finish`; `None` if it only locked the row).
    pub(crate) written: Option<Vec<Value>>,
}

/// The re-check of a waited-for row on its newest version, as `step` ran it.
#[derive(Clone, Debug)]
pub(crate) struct Recheck {
    /// The version re-checked; `None` if the row was no longer visible.
    pub(crate) values: Option<Vec<Value>>,
    /// Whether the WHERE clause held; `None` if evaluating it failed.
    pub(crate) matched: Option<bool>,
}

impl Work {
    pub(crate) fn new(statement: Arc<Statement>) -> Work {
        Work {
            statement,
            candidates: None,
            next: 0,
            count: 0,
            rows: Vec::new(),
            waited: None,
            recheck: None,
            analysed: false,
        }
    }

    pub(crate) fn wait_for(&mut self, table: usize, row: usize, seen: Option<&Version>) {
        let seen = seen.map(|v| v.values.clone());
        self.waited = Some(Waited { table, row, seen, written: None });
        self.recheck = None;
    }

    /// Records a row's test when it is the row this statement waited for.
    pub(crate) fn rechecked(
        &mut self,
        row: usize,
        version: Option<&Version>,
        matched: Option<bool>,
    ) {
        if self.waited.as_ref().is_some_and(|w| w.row == row) && self.recheck.is_none() {
            self.recheck = Some(Recheck { values: version.map(|v| v.values.clone()), matched });
        }
    }
}

pub(crate) enum Step {
    Done(Reply),
    /// The statement waits for the row lock this session holds.
    Blocked(Session),
    Failed(SqlError),
}
