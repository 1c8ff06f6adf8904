//! A SQL console on a small in-memory engine: exactly the PostgreSQL 15 subset the
//! playground teaches (CREATE TABLE, INSERT, SELECT ... WHERE ... [ORDER BY] [FOR UPDATE],
//! UPDATE ... SET ... WHERE, BEGIN, COMMIT, ROLLBACK), READ COMMITTED with row locks for two
//! sessions, printed as `psql -X -A -t -F '|' -v VERBOSITY=terse` prints it.
//! It must not panic on any input, and it must not pretend: statements outside the subset
//! get "not supported here", never a guess.

use std::fmt::Write as _;

/// One of the two sessions a learner can race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Session {
    A,
    B,
}

impl Session {
    fn index(self) -> usize {
        match self {
            Session::A => 0,
            Session::B => 1,
        }
    }
    fn other(self) -> Session {
        match self {
            Session::A => Session::B,
            Session::B => Session::A,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Session::A => "A",
            Session::B => "B",
        }
    }
}

/// What `help` (or `\\?`) prints in the console: the subset this engine runs.
pub const HELP: &str = "This console runs the playground's own PostgreSQL subset, not a server. It knows:\n\
  CREATE TABLE t (col integer|bigint|text|varchar(n)|boolean [PRIMARY KEY] [NOT NULL] [DEFAULT v], ...)\n\
  INSERT INTO t (cols) VALUES (...), ...\n\
  SELECT cols|* FROM t [WHERE ...] [ORDER BY col [DESC]] [FOR UPDATE]\n\
  UPDATE t SET col = expr, ... [WHERE ...]\n\
  BEGIN | START TRANSACTION, COMMIT | END, ROLLBACK (READ COMMITTED, row locks)\n\
  WHERE: = <> < <= > >=, AND, OR, NOT, IS [NOT] NULL, + and -\n\
Sessions A and B are two connections. Up and Down recall earlier lines; Tab completes keywords.";

/// One line of console output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub session: Session,
    pub text: String,
    /// The line is the console's own note, not something psql prints: either it says the
    /// session's statement now waits for the other session's row lock (only ever for the
    /// session that ran the statement), or it explains how a waiting statement of the
    /// *other* session resumed (`B resumed after A's COMMIT: re-checked ...`). Compare only
    /// the lines without it against psql; `is_waiting` says whether a session waits.
    pub waiting: bool,
}

/// The whole console: one database, two sessions.
#[derive(Clone, Debug, Default)]
pub struct SqlConsole {
    tables: Vec<Table>,
    next_pos: u64,
    sessions: [SessionState; 2],
}

/// Splits a session prefix off a typed line: `B: UPDATE ...` runs in session B; no prefix
/// means session A.
pub fn split_session(line: &str) -> (Session, &str) {
    let trimmed = line.trim_start();
    for (prefix, session) in
        [("A:", Session::A), ("B:", Session::B), ("a:", Session::A), ("b:", Session::B)]
    {
        if let Some(rest) = trimmed.strip_prefix(prefix) {
            return (session, rest);
        }
    }
    (Session::A, line)
}

impl SqlConsole {
    pub fn new() -> SqlConsole {
        SqlConsole::default()
    }

    /// Whether a session's statement is waiting for a row lock.
    pub fn is_waiting(&self, session: Session) -> bool {
        self.sessions[session.index()].waiting.is_some()
    }

    /// Runs every complete statement in `text` (split on `;` outside quotes; a missing
    /// final `;` is supplied) in `session`, and returns what psql would print, including
    /// the output of the other session's statement if this one released its lock.
    pub fn run(&mut self, session: Session, text: &str) -> Vec<Output> {
        let mut out = Vec::new();
        for (statement, terminated) in split_statements(text) {
            if self.is_waiting(session) {
                out.push(Output {
                    session,
                    text: format!(
                        "(session {} is waiting for a row lock held by session {}: finish that transaction first)",
                        session.name(),
                        session.other().name()
                    ),
                    waiting: true,
                });
                break;
            }
            self.statement(session, &statement, terminated, &mut out);
        }
        out
    }

    fn statement(
        &mut self,
        session: Session,
        text: &str,
        terminated: Terminator,
        out: &mut Vec<Output>,
    ) {
        let parsed = parse(text, terminated);
        let tx = self.sessions[session.index()].tx;
        if tx == Tx::Aborted {
            match parsed {
                Ok(Statement::Commit | Statement::Rollback) => {
                    self.sessions[session.index()].tx = Tx::Idle;
                    out.push(line(session, "ROLLBACK"));
                }
                _ => out.push(line(
                    session,
                    "ERROR:  current transaction is aborted, commands ignored until end of transaction block",
                )),
            }
            return;
        }
        let statement = match parsed {
            Ok(statement) => statement,
            Err(error) => return self.fail(session, &error, out),
        };
        match statement {
            Statement::Begin(tag) => {
                if tx == Tx::InBlock {
                    out.push(line(session, "WARNING:  there is already a transaction in progress"));
                }
                self.sessions[session.index()].tx = Tx::InBlock;
                out.push(line(session, tag));
            }
            Statement::Commit | Statement::Rollback => {
                if tx == Tx::Idle {
                    out.push(line(session, "WARNING:  there is no transaction in progress"));
                }
                let tag =
                    if matches!(statement, Statement::Commit) { "COMMIT" } else { "ROLLBACK" };
                let commit = matches!(statement, Statement::Commit);
                self.finish(session, commit);
                out.push(line(session, tag));
                let cause = if commit { Release::Commit } else { Release::Rollback };
                self.resume(session.other(), cause, out);
            }
            other => {
                let work = Work {
                    statement: other,
                    candidates: None,
                    next: 0,
                    count: 0,
                    rows: Vec::new(),
                    waited: None,
                    recheck: None,
                };
                self.execute(session, work, None, out);
            }
        }
    }

    /// Runs (or, after the other session released its locks, resumes) one data statement;
    /// on success in autocommit, commits. A resumed statement's output starts with a note
    /// saying why it resumed and what its re-check found.
    fn execute(
        &mut self,
        session: Session,
        mut work: Work,
        resumed: Option<Release>,
        out: &mut Vec<Output>,
    ) {
        let step = self.step(session, &mut work);
        if let Some(cause) = resumed
            && !matches!(step, Step::Blocked)
        {
            let text = self.resume_note(session, cause, &work, &step);
            out.push(Output { session, text, waiting: true });
        }
        match step {
            Step::Done(lines) => {
                for text in lines {
                    out.push(line(session, &text));
                }
                if self.sessions[session.index()].tx == Tx::Idle {
                    self.finish(session, true);
                    self.resume(session.other(), Release::Statement, out);
                }
            }
            Step::Blocked => {
                if self.is_waiting(session.other()) {
                    // Both would wait for each other: PostgreSQL's deadlock check (after
                    // deadlock_timeout, 1 s) aborts the later waiter.
                    self.fail(session, &SqlError::plain("deadlock detected"), out);
                    return;
                }
                out.push(Output {
                    session,
                    text: format!(
                        "(waiting for a row lock held by session {})",
                        session.other().name()
                    ),
                    waiting: true,
                });
                self.sessions[session.index()].waiting = Some(work);
            }
            Step::Failed(error) => self.fail(session, &error, out),
        }
    }

    /// The console's note before a resumed statement's output, from the re-check `step`
    /// just ran: `B resumed after A's COMMIT: re-checked last_fence 34 < 33 → false →
    /// UPDATE 0`. PostgreSQL's READ COMMITTED re-evaluates the WHERE clause on the newest
    /// committed version of a row it waited for (EvalPlanQual); the note shows the
    /// conditions on the columns the other transaction had written, with the values
    /// re-checked (all of them if it wrote none of those columns: the others cannot have
    /// changed, and they held when the statement matched the row).
    fn resume_note(&self, session: Session, cause: Release, work: &Work, step: &Step) -> String {
        let other = session.other().name();
        let after = match cause {
            Release::Commit => format!("{other}'s COMMIT"),
            Release::Rollback => format!("{other}'s ROLLBACK"),
            Release::Error => format!("{other}'s error aborted its transaction"),
            Release::Statement => format!("{other}'s statement committed"),
        };
        let outcome = match step {
            Step::Done(lines) => match &work.statement {
                // psql -t prints no row count for a SELECT: the note gives it.
                Statement::Select { .. } => format!("SELECT {}", lines.len()),
                _ => lines.first().cloned().unwrap_or_default(),
            },
            Step::Blocked | Step::Failed(_) => "ERROR".to_owned(),
        };
        let check = match &work.statement {
            Statement::Insert { .. } => Some("re-checked the primary key".to_owned()),
            Statement::Update { table, filter, .. } | Statement::Select { table, filter, .. } => {
                self.table_index(table)
                    .ok()
                    .and_then(|t| recheck_text(&self.tables[t].columns, filter.as_ref(), work))
            }
            _ => None,
        };
        // After a ROLLBACK (or an error) the row version the statement matched is still the
        // newest: PostgreSQL does not re-evaluate, the first check stands.
        let check = match (cause, check) {
            (Release::Rollback | Release::Error, Some(check))
                if !matches!(work.statement, Statement::Insert { .. }) =>
            {
                Some(check.replacen(
                    "re-checked ",
                    "the row is unchanged, so its first check stands: ",
                    1,
                ))
            }
            (_, check) => check,
        };
        match check {
            Some(check) => format!("{} resumed after {after}: {check} → {outcome}", session.name()),
            None => format!("{} resumed after {after} → {outcome}", session.name()),
        }
    }

    /// Resumes the session's waiting statement, if any, now that the other session's
    /// transaction ended by `cause`.
    fn resume(&mut self, session: Session, cause: Release, out: &mut Vec<Output>) {
        if let Some(work) = self.sessions[session.index()].waiting.take() {
            self.execute(session, work, Some(cause), out);
        }
    }

    /// An error aborts the transaction: its changes and locks go at once (PostgreSQL
    /// releases them when the error happens); a block then waits for ROLLBACK.
    fn fail(&mut self, session: Session, error: &SqlError, out: &mut Vec<Output>) {
        out.push(line(session, &error.render()));
        let in_block = self.sessions[session.index()].tx == Tx::InBlock;
        self.finish(session, false);
        self.sessions[session.index()].tx = if in_block { Tx::Aborted } else { Tx::Idle };
        self.resume(session.other(), Release::Error, out);
    }

    /// Commits or rolls back the session's changes and releases its row locks.
    fn finish(&mut self, session: Session, commit: bool) {
        // The other session's resume note names the columns this transaction wrote to the
        // row it waits for, whether they are now committed or thrown away.
        if let Some(Waited { table, row, written, .. }) = self.sessions[session.other().index()]
            .waiting
            .as_mut()
            .and_then(|work| work.waited.as_mut())
            && let Some(held) = self.tables.get(*table).and_then(|t| t.rows.get(*row))
            && held.locked_by == Some(session)
        {
            *written = held.pending.as_ref().map(|v| v.values.clone());
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
        self.sessions[session.index()].tx = Tx::Idle;
        self.sessions[session.index()].waiting = None;
    }

    fn step(&mut self, session: Session, work: &mut Work) -> Step {
        let statement = work.statement.clone();
        match &statement {
            Statement::Create { table, columns } => self.create(table, columns, session),
            Statement::Insert { table, columns, rows } => {
                self.insert(session, table, columns.as_deref(), rows)
            }
            Statement::Select { items, table, filter, order, lock } => {
                let t = match self.table_index(table) {
                    Ok(t) => t,
                    Err(e) => return Step::Failed(e),
                };
                let plan = match self.tables[t].plan_select(items, filter.as_ref(), order.as_ref())
                {
                    Ok(plan) => plan,
                    Err(e) => return Step::Failed(e),
                };
                if work.candidates.is_none() {
                    match self.tables[t].matching(session, filter.as_ref()) {
                        Ok(rows) => work.candidates = Some(rows),
                        Err(e) => return Step::Failed(e),
                    }
                }
                if *lock == RowLock::ForUpdate {
                    while let Some(&r) = work.candidates.as_ref().and_then(|c| c.get(work.next)) {
                        let row = &mut self.tables[t].rows[r];
                        if row.locked_by == Some(session.other()) {
                            work.wait_for(t, r, row.visible(session));
                            return Step::Blocked;
                        }
                        // READ COMMITTED re-check: the newest version must still match.
                        let current = row.visible(session).cloned();
                        let keep = match &current {
                            Some(version) => {
                                let tested = self.tables[t].test(filter.as_ref(), &version.values);
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
                Step::Done(self.tables[t].render(session, &work.rows, &plan))
            }
            Statement::Update { table, sets, filter } => {
                let t = match self.table_index(table) {
                    Ok(t) => t,
                    Err(e) => return Step::Failed(e),
                };
                let assignments = match self.tables[t].plan_update(sets, filter.as_ref()) {
                    Ok(a) => a,
                    Err(e) => return Step::Failed(e),
                };
                if work.candidates.is_none() {
                    match self.tables[t].matching(session, filter.as_ref()) {
                        Ok(rows) => work.candidates = Some(rows),
                        Err(e) => return Step::Failed(e),
                    }
                }
                while let Some(&r) = work.candidates.as_ref().and_then(|c| c.get(work.next)) {
                    let row = &self.tables[t].rows[r];
                    if row.locked_by == Some(session.other()) {
                        work.wait_for(t, r, row.visible(session));
                        return Step::Blocked;
                    }
                    // READ COMMITTED re-check: the newest version must still match.
                    let Some(current) = row.visible(session).cloned() else {
                        work.rechecked(r, None, Some(false));
                        work.next += 1;
                        continue;
                    };
                    let tested = self.tables[t].test(filter.as_ref(), &current.values);
                    work.rechecked(r, Some(&current), tested.as_ref().ok().copied());
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
                        let value = match eval(expr, &current.values, &self.tables[t].columns) {
                            Ok(v) => v,
                            Err(e) => return Step::Failed(e),
                        };
                        match self.tables[t].store(*column, value) {
                            Ok(v) => values[*column] = v,
                            Err(e) => return Step::Failed(e),
                        }
                    }
                    if let Err(e) = self.tables[t].not_null_ok(&values) {
                        return Step::Failed(e);
                    }
                    if let Err(e) = self.tables[t].unique_ok(session, &values, Some(r)) {
                        return Step::Failed(e);
                    }
                    self.next_pos += 1;
                    let row = &mut self.tables[t].rows[r];
                    row.pending = Some(Version { pos: self.next_pos, values });
                    row.locked_by = Some(session);
                    work.count += 1;
                    work.next += 1;
                }
                Step::Done(vec![format!("UPDATE {}", work.count)])
            }
            Statement::Begin(_) | Statement::Commit | Statement::Rollback => Step::Done(Vec::new()),
        }
    }

    fn table_index(&self, name: &Name) -> Result<usize, SqlError> {
        self.tables.iter().position(|t| t.name == name.text).ok_or_else(|| {
            SqlError::at(format!("relation \"{}\" does not exist", name.text), name.pos)
        })
    }

    fn create(&mut self, name: &Name, columns: &[ColumnDef], session: Session) -> Step {
        if self.sessions[session.index()].tx != Tx::Idle {
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
        let mut table = Table { name: name.text.clone(), columns: Vec::new(), rows: Vec::new() };
        for def in columns {
            table.columns.push(Column {
                name: def.name.clone(),
                ty: def.ty,
                not_null: def.not_null || def.primary_key,
                primary_key: def.primary_key,
                default: None,
            });
        }
        for (i, def) in columns.iter().enumerate() {
            if let Some(expr) = &def.default {
                let value = match eval(expr, &[], &[]).and_then(|v| table.store(i, v)) {
                    Ok(v) => v,
                    Err(e) => return Step::Failed(e),
                };
                table.columns[i].default = Some(value);
            }
        }
        self.tables.push(table);
        Step::Done(vec!["CREATE TABLE".to_owned()])
    }

    fn insert(
        &mut self,
        session: Session,
        name: &Name,
        columns: Option<&[Name]>,
        rows: &[Vec<Expr>],
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
                if let Err(e) = table.check_assign(column, expr) {
                    return Step::Failed(e);
                }
                match eval(expr, &[], &[]).and_then(|v| table.store(column, v)) {
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
            if table.waits_for_other(session, values) {
                // Resumed, the insert starts over (its candidates stay None).
                return Step::Blocked;
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
        Step::Done(vec![format!("INSERT 0 {count}")])
    }
}

/// The console's text, session by session, for the CLI: one line per output line, with a
/// `B: ` prefix for session B when `prefixed`.
pub fn render(outputs: &[Output], prefixed: bool) -> String {
    let mut text = String::new();
    for output in outputs {
        if prefixed {
            let _ = write!(text, "{}: ", output.session.name());
        }
        text.push_str(&output.text);
        text.push('\n');
    }
    text
}

// ---- engine data ----------------------------------------------------------------------

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tx {
    #[default]
    Idle,
    InBlock,
    Aborted,
}

#[derive(Clone, Debug, Default)]
struct SessionState {
    tx: Tx,
    waiting: Option<Work>,
}

/// A data statement in progress: which rows matched its snapshot and how far it got, so a
/// wait resumes where it stopped (rows already updated are not re-tested).
#[derive(Clone, Debug)]
struct Work {
    statement: Statement,
    candidates: Option<Vec<usize>>,
    next: usize,
    count: usize,
    rows: Vec<usize>,
    /// The row an UPDATE or SELECT ... FOR UPDATE last waited for (none for an INSERT).
    waited: Option<Waited>,
    /// That row's READ COMMITTED re-check, once the statement resumed and ran it.
    recheck: Option<Recheck>,
}

/// A row a statement waited for, by table and row index.
#[derive(Clone, Debug)]
struct Waited {
    table: usize,
    row: usize,
    /// The version the statement had matched (the newest committed one when it waited).
    seen: Option<Vec<Value>>,
    /// What the lock holder's transaction had written to the row when it ended (set by
    /// `finish`; `None` if it only locked the row).
    written: Option<Vec<Value>>,
}

/// The re-check of a waited-for row on its newest version, as `step` ran it.
#[derive(Clone, Debug)]
struct Recheck {
    /// The version re-checked; `None` if the row was no longer visible.
    values: Option<Vec<Value>>,
    /// Whether the WHERE clause held; `None` if evaluating it failed.
    matched: Option<bool>,
}

impl Work {
    fn wait_for(&mut self, table: usize, row: usize, seen: Option<&Version>) {
        let seen = seen.map(|v| v.values.clone());
        self.waited = Some(Waited { table, row, seen, written: None });
        self.recheck = None;
    }

    /// Records a row's test when it is the row this statement waited for.
    fn rechecked(&mut self, row: usize, version: Option<&Version>, matched: Option<bool>) {
        if self.waited.as_ref().is_some_and(|w| w.row == row) && self.recheck.is_none() {
            self.recheck = Some(Recheck { values: version.map(|v| v.values.clone()), matched });
        }
    }
}

enum Step {
    Done(Vec<String>),
    Blocked,
    Failed(SqlError),
}

/// How the other session's transaction ended, releasing the row a statement waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Release {
    Commit,
    Rollback,
    /// An error aborted it (PostgreSQL releases the locks at once, as at ROLLBACK).
    Error,
    /// Its autocommitted statement finished.
    Statement,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Int4,
    Int8,
    Text,
    Varchar(Option<u32>),
    Bool,
}

impl Type {
    fn name(self) -> String {
        match self {
            Type::Int4 => "integer".to_owned(),
            Type::Int8 => "bigint".to_owned(),
            Type::Text => "text".to_owned(),
            Type::Varchar(None) => "character varying".to_owned(),
            Type::Varchar(Some(n)) => format!("character varying({n})"),
            Type::Bool => "boolean".to_owned(),
        }
    }
    fn kind(self) -> Kind {
        match self {
            Type::Int4 => Kind::Int4,
            Type::Int8 => Kind::Int8,
            Type::Text | Type::Varchar(_) => Kind::Text,
            Type::Bool => Kind::Bool,
        }
    }
}

/// Expression types, as PostgreSQL resolves them: quoted literals stay `Unknown` until
/// the other side of a comparison (or the target column) gives them a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int4,
    Int8,
    Numeric,
    Text,
    Bool,
    Unknown,
    Null,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Int4 => "integer",
            Kind::Int8 => "bigint",
            Kind::Numeric => "numeric",
            Kind::Text => "text",
            Kind::Bool => "boolean",
            Kind::Unknown => "unknown",
            Kind::Null => "unknown",
        }
    }
    fn is_int(self) -> bool {
        matches!(self, Kind::Int4 | Kind::Int8)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Null,
    Int(i64),
    Text(String),
    Bool(bool),
}

impl Value {
    fn render(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(n) => n.to_string(),
            Value::Text(s) => s.clone(),
            Value::Bool(b) => if *b { "t" } else { "f" }.to_owned(),
        }
    }
}

#[derive(Clone, Debug)]
struct Column {
    name: String,
    ty: Type,
    not_null: bool,
    primary_key: bool,
    default: Option<Value>,
}

#[derive(Clone, Debug)]
struct Version {
    /// Where this version sits in the heap: a sequential scan returns rows in this order,
    /// and an UPDATE writes a new version at the end, as PostgreSQL does.
    pos: u64,
    values: Vec<Value>,
}

#[derive(Clone, Debug)]
struct Row {
    committed: Option<Version>,
    /// The lock holder's uncommitted version (an insert or an update).
    pending: Option<Version>,
    locked_by: Option<Session>,
}

impl Row {
    fn visible(&self, session: Session) -> Option<&Version> {
        match (&self.pending, self.locked_by) {
            (Some(version), Some(holder)) if holder == session => Some(version),
            _ => self.committed.as_ref(),
        }
    }
}

#[derive(Clone, Debug)]
struct Table {
    name: String,
    columns: Vec<Column>,
    rows: Vec<Row>,
}

struct SelectPlan {
    columns: Vec<usize>,
    order: Option<(usize, bool)>,
}

impl Table {
    fn column(&self, name: &Name) -> Result<usize, SqlError> {
        self.columns.iter().position(|c| c.name == name.text).ok_or_else(|| {
            SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
        })
    }

    fn plan_select(
        &self,
        items: &[SelectItem],
        filter: Option<&Expr>,
        order: Option<&(Name, bool)>,
    ) -> Result<SelectPlan, SqlError> {
        let mut columns = Vec::new();
        for item in items {
            match item {
                SelectItem::Star => columns.extend(0..self.columns.len()),
                SelectItem::Column(name) => columns.push(self.column(name)?),
            }
        }
        self.check_filter(filter)?;
        let order = match order {
            Some((name, descending)) => Some((self.column(name)?, *descending)),
            None => None,
        };
        Ok(SelectPlan { columns, order })
    }

    fn plan_update(
        &self,
        sets: &[(Name, Expr)],
        filter: Option<&Expr>,
    ) -> Result<Vec<(usize, Expr)>, SqlError> {
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
            self.check_assign(column, expr)?;
            out.push((column, expr.clone()));
        }
        self.check_filter(filter)?;
        Ok(out)
    }

    fn check_filter(&self, filter: Option<&Expr>) -> Result<(), SqlError> {
        if let Some(expr) = filter {
            let kind = kind_of(expr, &self.columns)?;
            if !matches!(kind, Kind::Bool | Kind::Null | Kind::Unknown) {
                return Err(SqlError::at(
                    format!("argument of WHERE must be type boolean, not type {}", kind.name()),
                    expr.pos(),
                ));
            }
        }
        Ok(())
    }

    fn check_assign(&self, column: usize, expr: &Expr) -> Result<(), SqlError> {
        let target = self.columns[column].ty.kind();
        let kind = kind_of(expr, &self.columns)?;
        // A quoted constant is converted during analysis, so its error carries its position.
        if let Expr::Str { text, pos } = expr {
            match target {
                Kind::Int4 | Kind::Int8 => {
                    parse_int_input(text, target, *pos)?;
                }
                Kind::Bool => {
                    parse_bool_input(text, *pos)?;
                }
                _ => {}
            }
        }
        let fits = match target {
            Kind::Int4 | Kind::Int8 => {
                kind.is_int() || matches!(kind, Kind::Unknown | Kind::Null | Kind::Numeric)
            }
            Kind::Text => true,
            Kind::Bool => matches!(kind, Kind::Bool | Kind::Unknown | Kind::Null),
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
    fn store(&self, column: usize, value: Value) -> Result<Value, SqlError> {
        let ty = self.columns[column].ty;
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
            (Type::Text, v) => Ok(Value::Text(v.render_as_text())),
            (Type::Varchar(limit), v) => {
                let text = v.render_as_text();
                match limit {
                    Some(n) if text.chars().count() > n as usize => Err(SqlError::plain(format!(
                        "value too long for type character varying({n})"
                    ))),
                    _ => Ok(Value::Text(text)),
                }
            }
            (Type::Bool, Value::Bool(b)) => Ok(Value::Bool(b)),
            (Type::Bool, Value::Text(s)) => parse_bool_input(&s, 0).map(Value::Bool),
            (ty, v) => {
                Err(SqlError::plain(format!("cannot store {v:?} in a {} column", ty.name())))
            }
        }
    }

    /// Rows whose version visible to `session` matches the filter, in heap order: the
    /// statement's snapshot.
    fn matching(&self, session: Session, filter: Option<&Expr>) -> Result<Vec<usize>, SqlError> {
        let mut hits = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            if let Some(version) = row.visible(session)
                && self.test(filter, &version.values)?
            {
                hits.push((version.pos, i));
            }
        }
        hits.sort_unstable();
        Ok(hits.into_iter().map(|(_, i)| i).collect())
    }

    fn test(&self, filter: Option<&Expr>, values: &[Value]) -> Result<bool, SqlError> {
        match filter {
            None => Ok(true),
            Some(expr) => Ok(eval(expr, values, &self.columns)? == Value::Bool(true)),
        }
    }

    fn render(&self, session: Session, rows: &[usize], plan: &SelectPlan) -> Vec<String> {
        let mut picked: Vec<&Version> =
            rows.iter().filter_map(|&r| self.rows[r].visible(session)).collect();
        picked.sort_by_key(|v| v.pos);
        if let Some((column, descending)) = plan.order {
            picked.sort_by(|a, b| {
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

    fn not_null_ok(&self, values: &[Value]) -> Result<(), SqlError> {
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

    fn key(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.primary_key)
    }

    fn same_key(&self, a: &[Value], b: &[Value]) -> bool {
        self.key().is_some_and(|k| a[k] != Value::Null && a[k] == b[k])
    }

    fn duplicate(&self, _values: &[Value]) -> SqlError {
        SqlError::plain(format!(
            "duplicate key value violates unique constraint \"{}_pkey\"",
            self.name
        ))
    }

    /// The other session holds an uncommitted version with the same key: PostgreSQL makes
    /// the insert wait for that transaction.
    fn waits_for_other(&self, session: Session, values: &[Value]) -> bool {
        self.rows.iter().any(|row| match (row.locked_by, &row.pending) {
            (Some(holder), Some(version)) => {
                holder != session && self.same_key(&version.values, values)
            }
            _ => false,
        })
    }

    fn unique_ok(
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
    fn render_as_text(&self) -> String {
        match self {
            Value::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
            other => other.render(),
        }
    }
}

fn compare_for_order(a: &Value, b: &Value) -> std::cmp::Ordering {
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

fn line(session: Session, text: &str) -> Output {
    Output { session, text: text.to_owned(), waiting: false }
}

// ---- errors -----------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
struct SqlError {
    message: String,
    /// 1-based character position, printed by terse psql as "at character N"; 0 = none.
    pos: usize,
}

impl SqlError {
    fn at(message: impl Into<String>, pos: usize) -> SqlError {
        SqlError { message: message.into(), pos }
    }
    fn plain(message: impl Into<String>) -> SqlError {
        SqlError { message: message.into(), pos: 0 }
    }
    fn render(&self) -> String {
        if self.pos > 0 {
            format!("ERROR:  {} at character {}", self.message, self.pos)
        } else {
            format!("ERROR:  {}", self.message)
        }
    }
}

// ---- expressions --------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Name {
    text: String,
    pos: usize,
}

#[derive(Clone, Debug)]
enum Expr {
    Int { text: String, pos: usize },
    Str { text: String, pos: usize },
    Bool { value: bool, pos: usize },
    Null { pos: usize },
    Column(Name),
    Binary { op: Op, pos: usize, left: Box<Expr>, right: Box<Expr> },
    Not { pos: usize, inner: Box<Expr> },
    IsNull { negated: bool, inner: Box<Expr> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
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
    fn symbol(self) -> &'static str {
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
    fn pos(&self) -> usize {
        match self {
            Expr::Int { pos, .. }
            | Expr::Str { pos, .. }
            | Expr::Bool { pos, .. }
            | Expr::Null { pos }
            | Expr::Not { pos, .. } => *pos,
            Expr::Column(name) => name.pos,
            Expr::Binary { left, .. } => left.pos(),
            Expr::IsNull { inner, .. } => inner.pos(),
        }
    }
}

fn int_literal_kind(text: &str) -> Kind {
    match text.parse::<i64>() {
        Ok(n) if i32::try_from(n).is_ok() => Kind::Int4,
        Ok(_) => Kind::Int8,
        Err(_) => Kind::Numeric,
    }
}

/// Type-checks an expression against the table, as PostgreSQL's parse analysis does
/// before touching any row (so errors come even from an empty table).
fn kind_of(expr: &Expr, columns: &[Column]) -> Result<Kind, SqlError> {
    match expr {
        Expr::Int { text, .. } => Ok(int_literal_kind(text)),
        Expr::Str { .. } => Ok(Kind::Unknown),
        Expr::Bool { .. } => Ok(Kind::Bool),
        Expr::Null { .. } => Ok(Kind::Null),
        Expr::Column(name) => {
            columns.iter().find(|c| c.name == name.text).map(|c| c.ty.kind()).ok_or_else(|| {
                SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
            })
        }
        Expr::Not { inner, .. } => {
            let kind = kind_of(inner, columns)?;
            boolean_operand(kind, inner, "NOT")?;
            Ok(Kind::Bool)
        }
        Expr::IsNull { inner, .. } => kind_of(inner, columns).map(|_| Kind::Bool),
        Expr::Binary { op, pos, left, right } => {
            let (l, r) = (kind_of(left, columns)?, kind_of(right, columns)?);
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

fn boolean_operand(kind: Kind, expr: &Expr, op: &str) -> Result<(), SqlError> {
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
fn resolve_unknown(kind: Kind, other: Kind, expr: &Expr) -> Result<Kind, SqlError> {
    if kind != Kind::Unknown {
        return Ok(kind);
    }
    let Expr::Str { text, pos } = expr else { return Ok(kind) };
    match other {
        Kind::Int4 | Kind::Int8 => parse_int_input(text, other, *pos).map(|_| other),
        Kind::Bool => parse_bool_input(text, *pos).map(|_| Kind::Bool),
        Kind::Unknown => Ok(Kind::Text),
        _ => Ok(Kind::Text),
    }
}

fn no_operator(op: Op, l: Kind, r: Kind, pos: usize) -> SqlError {
    SqlError::at(format!("operator does not exist: {} {} {}", l.name(), op.symbol(), r.name()), pos)
}

fn parse_int_input(text: &str, kind: Kind, pos: usize) -> Result<i64, SqlError> {
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

fn parse_bool_input(text: &str, pos: usize) -> Result<bool, SqlError> {
    match text.trim_ascii().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "on" | "1" => Ok(true),
        "f" | "false" | "n" | "no" | "off" | "0" => Ok(false),
        _ => Err(SqlError::at(format!("invalid input syntax for type boolean: \"{text}\""), pos)),
    }
}

/// Evaluates with SQL's three-valued logic (NULL propagates; AND/OR as in the standard).
fn eval(expr: &Expr, row: &[Value], columns: &[Column]) -> Result<Value, SqlError> {
    Ok(match expr {
        Expr::Int { text, .. } => match text.parse::<i64>() {
            Ok(n) => Value::Int(n),
            Err(_) => return Err(SqlError::plain("bigint out of range")),
        },
        Expr::Str { text, .. } => Value::Text(text.clone()),
        Expr::Bool { value, .. } => Value::Bool(*value),
        Expr::Null { .. } => Value::Null,
        Expr::Column(name) => {
            let i = columns.iter().position(|c| c.name == name.text).ok_or_else(|| {
                SqlError::at(format!("column \"{}\" does not exist", name.text), name.pos)
            })?;
            row.get(i).cloned().unwrap_or(Value::Null)
        }
        Expr::Not { inner, .. } => match truth(&eval(inner, row, columns)?) {
            Some(b) => Value::Bool(!b),
            None => Value::Null,
        },
        Expr::IsNull { negated, inner } => {
            Value::Bool((eval(inner, row, columns)? == Value::Null) != *negated)
        }
        Expr::Binary { op, left, right, .. } => {
            let l = eval(left, row, columns)?;
            let r = eval(right, row, columns)?;
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
                    let kind = kind_of(expr, columns)?;
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
                _ => compare(*op, &l, &r, left, right, columns)?,
            }
        }
    })
}

/// The re-check part of a resume note (`re-checked last_fence 34 < 33 → false`), or
/// `None` if the statement recorded no re-check.
fn recheck_text(columns: &[Column], filter: Option<&Expr>, work: &Work) -> Option<String> {
    let (waited, recheck) = (work.waited.as_ref()?, work.recheck.as_ref()?);
    let Some(values) = &recheck.values else {
        return Some("the row it waited for is no longer visible".to_owned());
    };
    let Some(filter) = filter else {
        return Some("no WHERE clause to re-check".to_owned());
    };
    let verdict = match recheck.matched {
        Some(true) => "true",
        // The WHERE clause yields NULL, which does not match either.
        Some(false) if eval(filter, values, columns).ok() == Some(Value::Null) => "NULL",
        Some(false) => "false",
        None => "ERROR",
    };
    // The columns the other transaction wrote to the row, as against what this statement
    // had matched.
    let written: Vec<usize> = match (&waited.seen, &waited.written) {
        (Some(seen), Some(written)) => {
            (0..columns.len()).filter(|&c| seen.get(c) != written.get(c)).collect()
        }
        _ => Vec::new(),
    };
    let mut parts = Vec::new();
    conjuncts(filter, &mut parts);
    let contested: Vec<&Expr> = parts
        .iter()
        .copied()
        .filter(|e| {
            let mut names = Vec::new();
            column_names(e, &mut names);
            names.iter().any(|n| {
                columns.iter().position(|c| c.name == *n).is_some_and(|i| written.contains(&i))
            })
        })
        .collect();
    let shown = if contested.is_empty() { parts } else { contested };
    let rendered: Option<Vec<String>> =
        shown.iter().map(|e| condition_text(e, values, columns)).collect();
    Some(match rendered {
        Some(conditions) => format!("re-checked {} → {verdict}", conditions.join(" AND ")),
        None => format!("re-checked the WHERE clause on the committed row → {verdict}"),
    })
}

/// The conditions of a WHERE clause joined by AND at its top level.
fn conjuncts<'a>(expr: &'a Expr, out: &mut Vec<&'a Expr>) {
    match expr {
        Expr::Binary { op: Op::And, left, right, .. } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        other => out.push(other),
    }
}

fn column_names<'a>(expr: &'a Expr, out: &mut Vec<&'a str>) {
    match expr {
        Expr::Column(name) => out.push(&name.text),
        Expr::Binary { left, right, .. } => {
            column_names(left, out);
            column_names(right, out);
        }
        Expr::Not { inner, .. } | Expr::IsNull { inner, .. } => column_names(inner, out),
        Expr::Int { .. } | Expr::Str { .. } | Expr::Bool { .. } | Expr::Null { .. } => {}
    }
}

/// One condition with each column followed by its value in `row` (`last_fence 34 < 33`):
/// a comparison or IS [NOT] NULL of columns and constants; `None` for anything else.
fn condition_text(expr: &Expr, row: &[Value], columns: &[Column]) -> Option<String> {
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

fn operand_text(expr: &Expr, row: &[Value], columns: &[Column]) -> Option<String> {
    Some(match expr {
        Expr::Column(name) => {
            let i = columns.iter().position(|c| c.name == name.text)?;
            format!("{} {}", name.text, literal_text(row.get(i)?))
        }
        Expr::Int { text, .. } => text.clone(),
        Expr::Str { text, .. } => literal_text(&Value::Text(text.clone())),
        Expr::Bool { value, .. } => literal_text(&Value::Bool(*value)),
        Expr::Null { .. } => literal_text(&Value::Null),
        _ => return None,
    })
}

/// A value as SQL would write it: 34, 'paid', true, NULL.
fn literal_text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_owned(),
        Value::Int(n) => n.to_string(),
        Value::Text(s) => format!("'{}'", s.replace('\'', "''")),
        Value::Bool(b) => b.to_string(),
    }
}

fn truth(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Text(s) => parse_bool_input(s, 0).ok(),
        _ => None,
    }
}

fn as_int(value: &Value, kind: Kind) -> Result<Option<i64>, SqlError> {
    match value {
        Value::Null => Ok(None),
        Value::Int(n) => Ok(Some(*n)),
        Value::Text(s) => parse_int_input(s, kind, 0).map(Some),
        Value::Bool(_) => Ok(None),
    }
}

fn compare(
    op: Op,
    l: &Value,
    r: &Value,
    left: &Expr,
    right: &Expr,
    columns: &[Column],
) -> Result<Value, SqlError> {
    use std::cmp::Ordering;
    let ordering = match (l, r) {
        (Value::Null, _) | (_, Value::Null) => return Ok(Value::Null),
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Int(a), Value::Text(s)) => {
            a.cmp(&parse_int_input(s, kind_of(left, columns)?, right.pos())?)
        }
        (Value::Text(s), Value::Int(b)) => {
            parse_int_input(s, kind_of(right, columns)?, left.pos())?.cmp(b)
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

// ---- statements and parser ------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowLock {
    None,
    ForUpdate,
}

#[derive(Clone, Debug)]
enum SelectItem {
    Star,
    Column(Name),
}

#[derive(Clone, Debug)]
struct ColumnDef {
    name: String,
    ty: Type,
    not_null: bool,
    primary_key: bool,
    key_pos: usize,
    default: Option<Expr>,
}

#[derive(Clone, Debug)]
enum Statement {
    Create {
        table: Name,
        columns: Vec<ColumnDef>,
    },
    Insert {
        table: Name,
        columns: Option<Vec<Name>>,
        rows: Vec<Vec<Expr>>,
    },
    Select {
        items: Vec<SelectItem>,
        table: Name,
        filter: Option<Expr>,
        order: Option<(Name, bool)>,
        lock: RowLock,
    },
    Update {
        table: Name,
        sets: Vec<(Name, Expr)>,
        filter: Option<Expr>,
    },
    /// The tag psql prints: BEGIN or START TRANSACTION.
    Begin(&'static str),
    Commit,
    Rollback,
}

/// Whether a statement ended with `;` (psql sends it along, so a syntax error at the end
/// is "at or near \";\"") or at the end of the input (the console supplies the `;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Terminator {
    Semicolon,
    EndOfInput,
}

/// Splits input into statements on `;` outside quotes; blank pieces are dropped and
/// leading blanks trimmed, as psql does before sending.
fn split_statements(text: &str) -> Vec<(String, Terminator)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '-') if chars.peek() == Some(&'-') => {
                // A comment runs to the end of the line.
                for rest in chars.by_ref() {
                    if rest == '\n' {
                        break;
                    }
                }
                current.push(' ');
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, ';') => {
                if !current.trim_ascii().is_empty() {
                    out.push((current.trim_ascii_start().to_owned(), Terminator::Semicolon));
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim_ascii().is_empty() {
        out.push((current.trim_ascii_start().to_owned(), Terminator::EndOfInput));
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Quoted(String),
    Int(String),
    Str(String),
    Sym(&'static str),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    /// The token as typed, for "syntax error at or near".
    raw: String,
    pos: usize,
}

fn tokenize(text: &str) -> Result<Vec<Token>, SqlError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // PostgreSQL's scanner: identifiers start with a letter, `_` or any non-ASCII
        // character, and fold only ASCII letters to lower case.
        if c.is_ascii_alphabetic() || c == '_' || !c.is_ascii() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || !chars[i].is_ascii()
                    || chars[i] == '_'
                    || chars[i] == '$')
            {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect();
            tokens.push(Token { tok: Tok::Word(raw.to_ascii_lowercase()), raw, pos });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect();
            if i < chars.len() && (chars[i] == '.' || chars[i].is_ascii_alphabetic()) {
                return Err(SqlError::plain(
                    "decimal numbers are not supported here (the playground's columns are integer, bigint, text, varchar and boolean)",
                ));
            }
            tokens.push(Token { tok: Tok::Int(raw.clone()), raw, pos });
        } else if c == '\'' || c == '"' {
            let mut value = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        let what = if c == '\'' { "quoted string" } else { "quoted identifier" };
                        return Err(SqlError::at(
                            format!(
                                "unterminated {what} at or near \"{}\"",
                                chars[pos - 1..].iter().collect::<String>()
                            ),
                            pos,
                        ));
                    }
                    Some(&q) if q == c && chars.get(i + 1) == Some(&c) => {
                        value.push(c);
                        i += 2;
                    }
                    Some(&q) if q == c => {
                        i += 1;
                        break;
                    }
                    Some(&other) => {
                        value.push(other);
                        i += 1;
                    }
                }
            }
            let raw: String = chars[pos - 1..i].iter().collect();
            let tok = if c == '\'' { Tok::Str(value) } else { Tok::Quoted(value) };
            tokens.push(Token { tok, raw, pos });
        } else {
            let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let sym: Option<&'static str> = match two.as_str() {
                "<=" => Some("<="),
                ">=" => Some(">="),
                "<>" => Some("<>"),
                "!=" => Some("!="),
                _ => None,
            };
            if let Some(sym) = sym {
                tokens.push(Token { tok: Tok::Sym(sym), raw: two, pos });
                i += 2;
                continue;
            }
            let sym: &'static str = match c {
                '(' => "(",
                ')' => ")",
                ',' => ",",
                '*' => "*",
                '=' => "=",
                '<' => "<",
                '>' => ">",
                '+' => "+",
                '-' => "-",
                '.' => ".",
                ':' => ":",
                _ => {
                    return Err(SqlError::at(format!("syntax error at or near \"{c}\""), pos));
                }
            };
            tokens.push(Token { tok: Tok::Sym(sym), raw: c.to_string(), pos });
            i += 1;
        }
    }
    tokens.push(Token { tok: Tok::End, raw: String::new(), pos: chars.len() + 1 });
    Ok(tokens)
}

/// Statements PostgreSQL has that this console does not model.
const OTHER_STATEMENTS: [&str; 22] = [
    "delete",
    "drop",
    "alter",
    "truncate",
    "with",
    "copy",
    "grant",
    "revoke",
    "vacuum",
    "analyze",
    "explain",
    "lock",
    "set",
    "show",
    "savepoint",
    "release",
    "prepare",
    "execute",
    "merge",
    "values",
    "table",
    "create",
];

fn parse(text: &str, terminated: Terminator) -> Result<Statement, SqlError> {
    let mut tokens = tokenize(text)?;
    if terminated == Terminator::Semicolon
        && let Some(end) = tokens.last_mut()
    {
        end.raw = ";".to_owned();
    }
    let mut p = Parser { tokens, at: 0 };
    let statement = p.statement()?;
    if p.peek().tok != Tok::End {
        return Err(p.unexpected());
    }
    Ok(statement)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        // The last token is always End and `at` never passes it.
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }
    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if token.tok != Tok::End {
            self.at += 1;
        }
        token
    }
    fn unexpected(&self) -> SqlError {
        let token = self.peek();
        if token.tok == Tok::End && token.raw.is_empty() {
            SqlError::at("syntax error at end of input", token.pos)
        } else {
            SqlError::at(format!("syntax error at or near \"{}\"", token.raw), token.pos)
        }
    }
    fn is_word(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Word(w) if w == word)
    }
    fn eat_word(&mut self, word: &str) -> bool {
        if self.is_word(word) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn expect_word(&mut self, word: &str) -> Result<(), SqlError> {
        if self.eat_word(word) { Ok(()) } else { Err(self.unexpected()) }
    }
    fn eat_sym(&mut self, sym: &'static str) -> bool {
        if self.peek().tok == Tok::Sym(sym) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn expect_sym(&mut self, sym: &'static str) -> Result<(), SqlError> {
        if self.eat_sym(sym) { Ok(()) } else { Err(self.unexpected()) }
    }
    fn name(&mut self) -> Result<Name, SqlError> {
        let token = self.peek().clone();
        match token.tok {
            Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                self.advance();
                Ok(Name { text: w, pos: token.pos })
            }
            Tok::Quoted(q) => {
                self.advance();
                Ok(Name { text: q, pos: token.pos })
            }
            _ => Err(self.unexpected()),
        }
    }

    fn statement(&mut self) -> Result<Statement, SqlError> {
        let first = self.peek().clone();
        let Tok::Word(word) = &first.tok else { return Err(self.unexpected()) };
        match word.as_str() {
            "begin" | "start" => {
                self.advance();
                if word == "start" {
                    self.expect_word("transaction")?;
                } else if !self.eat_word("transaction") {
                    self.eat_word("work");
                }
                if self.is_word("isolation") {
                    return Err(SqlError::plain(
                        "isolation levels other than the default READ COMMITTED are not supported here",
                    ));
                }
                Ok(Statement::Begin(if word == "start" { "START TRANSACTION" } else { "BEGIN" }))
            }
            "commit" | "end" => {
                self.advance();
                let _ = self.eat_word("transaction") || self.eat_word("work");
                Ok(Statement::Commit)
            }
            "rollback" | "abort" => {
                self.advance();
                let _ = self.eat_word("transaction") || self.eat_word("work");
                Ok(Statement::Rollback)
            }
            "create" => {
                self.advance();
                if !self.is_word("table") {
                    return Err(SqlError::plain(format!(
                        "CREATE {} is not supported here; this console runs only CREATE TABLE",
                        self.peek().raw.to_ascii_uppercase()
                    )));
                }
                self.advance();
                self.create()
            }
            "insert" => {
                self.advance();
                self.insert()
            }
            "select" => {
                self.advance();
                self.select()
            }
            "update" => {
                self.advance();
                self.update()
            }
            other if OTHER_STATEMENTS.contains(&other) => Err(SqlError::plain(format!(
                "{} is not supported here; this console runs CREATE TABLE, INSERT, SELECT, UPDATE, BEGIN, COMMIT and ROLLBACK",
                first.raw.to_ascii_uppercase()
            ))),
            _ => Err(self.unexpected()),
        }
    }

    fn create(&mut self) -> Result<Statement, SqlError> {
        let table = self.name()?;
        self.expect_sym("(")?;
        let mut columns = Vec::new();
        loop {
            if self.is_word("primary")
                || self.is_word("constraint")
                || self.is_word("unique")
                || self.is_word("check")
            {
                return Err(SqlError::plain(
                    "table constraints are not supported here; write PRIMARY KEY after the column",
                ));
            }
            let name = self.name()?;
            let ty = self.column_type()?;
            let mut def = ColumnDef {
                name: name.text,
                ty,
                not_null: false,
                primary_key: false,
                key_pos: 0,
                default: None,
            };
            loop {
                let pos = self.peek().pos;
                if self.eat_word("primary") {
                    self.expect_word("key")?;
                    def.primary_key = true;
                    def.key_pos = pos;
                } else if self.eat_word("not") {
                    self.expect_word("null")?;
                    def.not_null = true;
                } else if self.eat_word("null") {
                } else if self.eat_word("default") {
                    def.default = Some(self.primary()?);
                } else if self.is_word("unique")
                    || self.is_word("check")
                    || self.is_word("references")
                {
                    return Err(SqlError::plain(format!(
                        "{} is not supported here",
                        self.peek().raw.to_ascii_uppercase()
                    )));
                } else {
                    break;
                }
            }
            columns.push(def);
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(")")?;
        Ok(Statement::Create { table, columns })
    }

    fn column_type(&mut self) -> Result<Type, SqlError> {
        let token = self.peek().clone();
        let Tok::Word(word) = &token.tok else { return Err(self.unexpected()) };
        let ty = match word.as_str() {
            "integer" | "int" | "int4" => Type::Int4,
            "bigint" | "int8" => Type::Int8,
            "text" => Type::Text,
            "boolean" | "bool" => Type::Bool,
            "varchar" | "character" => {
                self.advance();
                if word == "character" {
                    self.expect_word("varying")?;
                }
                if self.eat_sym("(") {
                    let length = match self.advance().tok {
                        Tok::Int(n) => n.parse::<u32>().ok().filter(|n| *n > 0),
                        _ => None,
                    };
                    let Some(length) = length else {
                        return Err(SqlError::at(
                            "length for type varchar must be at least 1",
                            token.pos,
                        ));
                    };
                    self.expect_sym(")")?;
                    return Ok(Type::Varchar(Some(length)));
                }
                return Ok(Type::Varchar(None));
            }
            "serial" | "bigserial" | "timestamptz" | "timestamp" | "numeric" | "uuid"
            | "smallint" | "real" | "double" | "jsonb" | "json" | "date" => {
                return Err(SqlError::plain(format!(
                    "type {word} is not supported here; use integer, bigint, text, varchar(n) or boolean"
                )));
            }
            _ => return Err(SqlError::at(format!("type \"{word}\" does not exist"), token.pos)),
        };
        self.advance();
        Ok(ty)
    }

    fn insert(&mut self) -> Result<Statement, SqlError> {
        self.expect_word("into")?;
        let table = self.name()?;
        let mut columns = None;
        if self.eat_sym("(") {
            let mut names = vec![self.name()?];
            while self.eat_sym(",") {
                names.push(self.name()?);
            }
            self.expect_sym(")")?;
            columns = Some(names);
        }
        if self.is_word("select") || self.is_word("default") {
            return Err(SqlError::plain(
                "INSERT ... SELECT and DEFAULT VALUES are not supported here; use VALUES (...)",
            ));
        }
        self.expect_word("values")?;
        let mut rows = Vec::new();
        loop {
            self.expect_sym("(")?;
            let mut row = vec![self.expr()?];
            while self.eat_sym(",") {
                row.push(self.expr()?);
            }
            self.expect_sym(")")?;
            rows.push(row);
            if !self.eat_sym(",") {
                break;
            }
        }
        if self.is_word("on") || self.is_word("returning") {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Insert { table, columns, rows })
    }

    fn select(&mut self) -> Result<Statement, SqlError> {
        let mut items = Vec::new();
        loop {
            if self.eat_sym("*") {
                items.push(SelectItem::Star);
            } else {
                let token = self.peek().clone();
                match &token.tok {
                    Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                        items.push(SelectItem::Column(self.name()?))
                    }
                    Tok::Quoted(_) => items.push(SelectItem::Column(self.name()?)),
                    Tok::End => return Err(self.unexpected()),
                    _ if self.is_word("from") => return Err(self.unexpected()),
                    _ => {
                        return Err(SqlError::plain(
                            "only column names and * are supported in SELECT lists here (no expressions or functions)",
                        ));
                    }
                }
            }
            if !self.eat_sym(",") {
                break;
            }
        }
        if self.peek().tok == Tok::End {
            return Err(SqlError::plain("SELECT without FROM is not supported here"));
        }
        self.expect_word("from")?;
        let table = self.name()?;
        let filter = if self.eat_word("where") { Some(self.expr()?) } else { None };
        let mut order = None;
        if self.eat_word("order") {
            self.expect_word("by")?;
            let column = self.name()?;
            let descending = if self.eat_word("desc") {
                true
            } else {
                self.eat_word("asc");
                false
            };
            order = Some((column, descending));
        }
        let mut lock = RowLock::None;
        if self.eat_word("for") {
            if self.eat_word("update") {
                lock = RowLock::ForUpdate;
            } else {
                return Err(SqlError::plain(
                    "only FOR UPDATE is supported here (not FOR SHARE or FOR NO KEY UPDATE)",
                ));
            }
            if self.is_word("nowait") || self.is_word("skip") {
                return Err(SqlError::plain(format!(
                    "{} is not supported here",
                    self.peek().raw.to_ascii_uppercase()
                )));
            }
        }
        if self.is_word("limit")
            || self.is_word("group")
            || self.is_word("join")
            || self.is_word("offset")
        {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Select { items, table, filter, order, lock })
    }

    fn update(&mut self) -> Result<Statement, SqlError> {
        let table = self.name()?;
        self.expect_word("set")?;
        let mut sets = Vec::new();
        loop {
            let column = self.name()?;
            self.expect_sym("=")?;
            sets.push((column, self.expr()?));
            if !self.eat_sym(",") {
                break;
            }
        }
        let filter = if self.eat_word("where") { Some(self.expr()?) } else { None };
        if self.is_word("returning") || self.is_word("from") {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Update { table, sets, filter })
    }

    // Precedence, lowest first: OR, AND, NOT, IS, comparison, + -.
    fn expr(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.and()?;
        loop {
            let pos = self.peek().pos;
            if !self.eat_word("or") {
                return Ok(left);
            }
            let right = self.and()?;
            left = Expr::Binary { op: Op::Or, pos, left: Box::new(left), right: Box::new(right) };
        }
    }
    fn and(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.not()?;
        loop {
            let pos = self.peek().pos;
            if !self.eat_word("and") {
                return Ok(left);
            }
            let right = self.not()?;
            left = Expr::Binary { op: Op::And, pos, left: Box::new(left), right: Box::new(right) };
        }
    }
    fn not(&mut self) -> Result<Expr, SqlError> {
        let pos = self.peek().pos;
        if self.eat_word("not") {
            return Ok(Expr::Not { pos, inner: Box::new(self.not()?) });
        }
        self.is_null()
    }
    fn is_null(&mut self) -> Result<Expr, SqlError> {
        let inner = self.comparison()?;
        if self.eat_word("is") {
            let negated = self.eat_word("not");
            self.expect_word("null")?;
            return Ok(Expr::IsNull { negated, inner: Box::new(inner) });
        }
        Ok(inner)
    }
    fn comparison(&mut self) -> Result<Expr, SqlError> {
        let left = self.sum()?;
        let token = self.peek().clone();
        let op = match token.tok {
            Tok::Sym("=") => Op::Eq,
            Tok::Sym("<>" | "!=") => Op::Ne,
            Tok::Sym("<") => Op::Lt,
            Tok::Sym("<=") => Op::Le,
            Tok::Sym(">") => Op::Gt,
            Tok::Sym(">=") => Op::Ge,
            _ => return Ok(left),
        };
        self.advance();
        let right = self.sum()?;
        let next = self.peek().tok.clone();
        if matches!(next, Tok::Sym("=" | "<>" | "!=" | "<" | "<=" | ">" | ">=")) {
            // PostgreSQL's comparison operators do not associate.
            return Err(self.unexpected());
        }
        Ok(Expr::Binary { op, pos: token.pos, left: Box::new(left), right: Box::new(right) })
    }
    fn sum(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.primary()?;
        loop {
            let token = self.peek().clone();
            let op = match token.tok {
                Tok::Sym("+") => Op::Add,
                Tok::Sym("-") => Op::Sub,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.primary()?;
            left =
                Expr::Binary { op, pos: token.pos, left: Box::new(left), right: Box::new(right) };
        }
    }
    fn primary(&mut self) -> Result<Expr, SqlError> {
        let token = self.peek().clone();
        let pos = token.pos;
        match token.tok {
            Tok::Int(text) => {
                self.advance();
                Ok(Expr::Int { text, pos })
            }
            Tok::Sym("-") => {
                self.advance();
                match self.peek().tok.clone() {
                    Tok::Int(text) => {
                        self.advance();
                        Ok(Expr::Int { text: format!("-{text}"), pos })
                    }
                    _ => Err(SqlError::plain("unary minus is supported here only before a number")),
                }
            }
            Tok::Str(text) => {
                self.advance();
                Ok(Expr::Str { text, pos })
            }
            Tok::Sym("(") => {
                self.advance();
                let inner = self.expr()?;
                self.expect_sym(")")?;
                Ok(inner)
            }
            Tok::Sym(":") => Err(SqlError::plain(
                "parameters such as :fence are not supported here; type the value (psql would substitute it)",
            )),
            Tok::Word(w) if w == "true" || w == "false" => {
                self.advance();
                Ok(Expr::Bool { value: w == "true", pos })
            }
            Tok::Word(w) if w == "null" => {
                self.advance();
                Ok(Expr::Null { pos })
            }
            Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                self.advance();
                if self.peek().tok == Tok::Sym("(") {
                    return Err(SqlError::plain(format!("function {w}() is not supported here")));
                }
                if self.peek().tok == Tok::Sym(".") {
                    return Err(SqlError::plain(
                        "qualified names (table.column) are not supported here",
                    ));
                }
                Ok(Expr::Column(Name { text: w, pos }))
            }
            Tok::Quoted(q) => {
                self.advance();
                Ok(Expr::Column(Name { text: q, pos }))
            }
            _ => Err(self.unexpected()),
        }
    }
}

/// Words PostgreSQL reserves (the ones our grammar meets); they cannot name a column.
const RESERVED: [&str; 30] = [
    "select",
    "from",
    "where",
    "and",
    "or",
    "not",
    "null",
    "true",
    "false",
    "update",
    "set",
    "insert",
    "into",
    "values",
    "for",
    "order",
    "by",
    "create",
    "table",
    "primary",
    "default",
    "is",
    "limit",
    "group",
    "having",
    "as",
    "on",
    "returning",
    "end",
    "desc",
];

#[cfg(test)]
mod tests;
