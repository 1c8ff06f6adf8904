//! A SQL console for two sessions, A and B, over the simulator's engine (`sim::sql`),
//! printed as `psql -X -A -t -F '|' -v VERBOSITY=terse` prints it, with the console's own
//! notes when a statement waits for a row lock and when it resumes.
//! It owns what psql shows and the two-session story (who waits for whom, deadlocks);
//! it must not decide a statement's outcome itself: the engine does.

pub use crate::sim::sql::Session;
use crate::sim::sql::{
    Column, Database, Expr, SqlError, Statement, Step, Terminator, Tx, Value, Work, column_names,
    condition_text, conjuncts, eval, parse, split_statements,
};
use std::fmt::Write as _;

impl Session {
    /// The console's other session.
    fn other(self) -> Session {
        if self == Session::A { Session::B } else { Session::A }
    }
    pub fn name(self) -> &'static str {
        if self == Session::A { "A" } else { "B" }
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
    db: Database,
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
        self.db.state(session).is_some_and(|s| s.waiting.is_some())
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
        let tx = self.db.state(session).map_or(Tx::Idle, |s| s.tx);
        if tx == Tx::Aborted {
            match parsed {
                Ok(Statement::Commit | Statement::Rollback) => {
                    self.db.state_mut(session).tx = Tx::Idle;
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
                self.db.state_mut(session).tx = Tx::InBlock;
                out.push(line(session, tag));
            }
            Statement::Commit | Statement::Rollback => {
                if tx == Tx::Idle {
                    out.push(line(session, "WARNING:  there is no transaction in progress"));
                }
                let tag =
                    if matches!(statement, Statement::Commit) { "COMMIT" } else { "ROLLBACK" };
                let commit = matches!(statement, Statement::Commit);
                self.db.finish(session, commit);
                out.push(line(session, tag));
                let cause = if commit { Release::Commit } else { Release::Rollback };
                self.resume(session.other(), cause, out);
            }
            other => {
                self.execute(session, Work::new(std::sync::Arc::new(other)), None, out);
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
        let step = self.db.step(session, &mut work, &[]);
        if let Some(cause) = resumed
            && !matches!(step, Step::Blocked(_))
        {
            let text = self.resume_note(session, cause, &work, &step);
            out.push(Output { session, text, waiting: true });
        }
        match step {
            Step::Done(reply) => {
                let lines = reply.lines();
                for text in lines {
                    out.push(line(session, &text));
                }
                if self.db.state_mut(session).tx == Tx::Idle {
                    self.db.finish(session, true);
                    self.resume(session.other(), Release::Statement, out);
                }
            }
            Step::Blocked(holder) => {
                if self.is_waiting(holder) {
                    // Both would wait for each other: PostgreSQL's deadlock check (after
                    // deadlock_timeout, 1 s) aborts the later waiter.
                    self.fail(session, &SqlError::plain("deadlock detected"), out);
                    return;
                }
                out.push(Output {
                    session,
                    text: format!("(waiting for a row lock held by session {})", holder.name()),
                    waiting: true,
                });
                self.db.state_mut(session).waiting = Some(work);
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
            Step::Done(reply) => match &*work.statement {
                // psql -t prints no row count for a SELECT: the note gives it.
                Statement::Select { .. } => format!("SELECT {}", reply.lines().len()),
                _ => reply.lines().first().cloned().unwrap_or_default(),
            },
            Step::Blocked(_) | Step::Failed(_) => "ERROR".to_owned(),
        };
        let check = match &*work.statement {
            Statement::Insert { .. } => Some("re-checked the primary key".to_owned()),
            Statement::Update { table, filter, .. } | Statement::Select { table, filter, .. } => {
                self.db
                    .table_index(table)
                    .ok()
                    .and_then(|t| recheck_text(&self.db.tables[t].columns, filter.as_ref(), work))
            }
            _ => None,
        };
        // After a ROLLBACK (or an error) the row version the statement matched is still the
        // newest: PostgreSQL does not re-evaluate, the first check stands.
        let check = match (cause, check) {
            (Release::Rollback | Release::Error, Some(check))
                if !matches!(*work.statement, Statement::Insert { .. }) =>
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
        if let Some(work) = self.db.state_mut(session).waiting.take() {
            self.execute(session, work, Some(cause), out);
        }
    }

    /// An error aborts the transaction: its changes and locks go at once (PostgreSQL
    /// releases them when the error happens); a block then waits for ROLLBACK.
    fn fail(&mut self, session: Session, error: &SqlError, out: &mut Vec<Output>) {
        out.push(line(session, &error.render()));
        let in_block = self.db.state_mut(session).tx == Tx::InBlock;
        self.db.finish(session, false);
        self.db.state_mut(session).tx = if in_block { Tx::Aborted } else { Tx::Idle };
        self.resume(session.other(), Release::Error, out);
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

fn line(session: Session, text: &str) -> Output {
    Output { session, text: text.to_owned(), waiting: false }
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
        Some(false) if eval(filter, values, columns, &[]).ok() == Some(Value::Null) => "NULL",
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

#[cfg(test)]
mod tests;
