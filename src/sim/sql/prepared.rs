//! Prepared statements: parsed (or built) once, run many times with `$n` parameters in a
//! session of a [`Database`], as the simulator runs its own. Owns `Prepared`, what running
//! one did (`Exec`), and the per-thread memory of analyses already passed. It adds no SQL
//! semantics of its own: a run is the engine's `step`.

use super::*;

/// A statement parsed once and run many times with `$n` parameters (the simulator's
/// statements). The trace shows `text`: the template with each parameter written in as a
/// SQL literal, which is what the conformance test sends to PostgreSQL.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub(super) statement: Arc<Statement>,
    pub(super) template: String,
}

/// What running a prepared statement did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exec {
    /// It finished: `count` rows updated, inserted or selected, and what psql prints for it
    /// (a SELECT's rows as `a|b`, or a tag such as `UPDATE 0`).
    Done { count: usize, reply: Reply },
    /// It waits for a row lock this session holds; nothing of it happened.
    Blocked(Session),
    /// It failed with this psql error line; a transaction block is now aborted.
    Failed(String),
}

/// A prepared statement that passed parse analysis against these columns with parameters
/// of these types. It holds both by reference count, so neither address can be reused by
/// another statement or table while the entry lives.
struct Analysed {
    statement: Arc<Statement>,
    columns: Arc<[Column]>,
    kinds: u64,
}

impl Analysed {
    fn same(&self, other: &Analysed) -> bool {
        Arc::ptr_eq(&self.statement, &other.statement)
            && Arc::ptr_eq(&self.columns, &other.columns)
            && self.kinds == other.kinds
    }
}

/// How many analyses a thread remembers before it starts over.
const ANALYSED_MAX: usize = 64;

thread_local! {
    /// Analyses already passed, per thread (the explorer runs one scenario millions of
    /// times on each): analysis depends on types only, so it need not run again. A cache:
    /// it changes no outcome, and no trace depends on what it holds.
    static ANALYSED: std::cell::RefCell<Vec<Analysed>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Prepared {
    /// A statement built with its text by `built` (no parsing).
    pub(crate) fn from_tree(statement: Statement, template: String) -> Prepared {
        Prepared { statement: Arc::new(statement), template }
    }

    /// Whether both run the same syntax tree (for the test of `built`).
    #[cfg(test)]
    pub(crate) fn same_tree(&self, other: &Prepared) -> bool {
        self.statement == other.statement
    }

    /// Parses `template`; its error is psql's line for it.
    pub fn new(template: &str) -> Result<Prepared, String> {
        let statement = parse(template, Terminator::EndOfInput).map_err(|e| e.render())?;
        Ok(Prepared { statement: Arc::new(statement), template: template.to_owned() })
    }

    /// The statement as it ran with `params`: every `$n` outside quotes replaced by its
    /// value as a SQL literal (`34`, `'paid'`, `NULL`).
    pub fn text(&self, params: &[Value]) -> String {
        // Byte by byte: `$`, digits and quotes are ASCII, so every cut is a char boundary.
        // (Every statement of a trace with text is written here: it is on the hot path.)
        let template = self.template.as_str();
        let bytes = template.as_bytes();
        let mut out = String::with_capacity(template.len() + 16);
        let (mut copied, mut i, mut quoted) = (0, 0, false);
        while i < bytes.len() {
            match bytes[i] {
                b'\'' => quoted = !quoted,
                b'$' if !quoted => {
                    let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let value = template[i + 1..i + 1 + digits]
                        .parse::<usize>()
                        .ok()
                        .and_then(|n| n.checked_sub(1))
                        .and_then(|k| params.get(k));
                    if let Some(value) = value {
                        out.push_str(&template[copied..i]);
                        out.push_str(&literal_text(value));
                        copied = i + 1 + digits;
                    }
                    i += 1 + digits;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        out.push_str(&template[copied..]);
        out
    }
}

impl Database {
    /// Runs a prepared statement in `session` as PostgreSQL would under READ COMMITTED:
    /// outside a transaction block it commits at once; a row locked by another session
    /// makes it wait (`Blocked`, and it leaves no trace: run it again once the holder's
    /// transaction ends, and it re-reads the newest committed row). The simulator's
    /// table has one row, so a statement never waits after changing another.
    pub fn exec(&mut self, session: Session, prepared: &Prepared, params: &[Value]) -> Exec {
        let tx = self.state(session).map_or(Tx::Idle, |s| s.tx);
        if tx == Tx::Aborted
            && !matches!(*prepared.statement, Statement::Commit | Statement::Rollback)
        {
            return Exec::Failed(
                "ERROR:  current transaction is aborted, commands ignored until end of transaction block"
                    .to_owned(),
            );
        }
        let done = |tag: &'static str| Exec::Done { count: 0, reply: Reply::Tag(tag) };
        match &*prepared.statement {
            Statement::Begin(tag) => {
                self.state_mut(session).tx = Tx::InBlock;
                done(tag)
            }
            Statement::Commit => {
                let tag = if tx == Tx::Aborted { "ROLLBACK" } else { "COMMIT" };
                self.finish(session, tx != Tx::Aborted);
                done(tag)
            }
            Statement::Rollback => {
                self.finish(session, false);
                done("ROLLBACK")
            }
            _ => {
                let mut work = Work::new(Arc::clone(&prepared.statement));
                let key = self.analysis_key(prepared, params);
                work.analysed = key.as_ref().is_some_and(|key| {
                    ANALYSED.with_borrow(|done| done.iter().any(|seen| seen.same(key)))
                });
                match self.step(session, &mut work, params) {
                    Step::Done(reply) => {
                        if let Some(key) = key.filter(|_| !work.analysed) {
                            ANALYSED.with_borrow_mut(|done| {
                                // A bound, so a console session cannot grow it without end.
                                if done.len() >= ANALYSED_MAX {
                                    done.clear();
                                }
                                done.push(key);
                            });
                        }
                        if tx == Tx::Idle {
                            self.finish(session, true);
                        }
                        let count = match &reply {
                            Reply::Rows(rows) => rows.len(),
                            Reply::Count(_, n) => *n,
                            Reply::Tag(_) => 0,
                        };
                        Exec::Done { count, reply }
                    }
                    Step::Blocked(holder) => Exec::Blocked(holder),
                    Step::Failed(error) => {
                        self.finish(session, false);
                        if tx == Tx::InBlock {
                            self.state_mut(session).tx = Tx::Aborted;
                        }
                        Exec::Failed(error.render())
                    }
                }
            }
        }
    }

    /// What a prepared SELECT or UPDATE's analysis depends on: the statement, the table's
    /// columns and the types of the parameters (`kind_of` reads no value, only its type).
    fn analysis_key(&self, prepared: &Prepared, params: &[Value]) -> Option<Analysed> {
        let table = match &*prepared.statement {
            Statement::Select { table, .. } | Statement::Update { table, .. } => table,
            _ => return None,
        };
        let t = self.table_index(table).ok()?;
        if params.len() > 30 {
            return None;
        }
        let kinds = params.iter().fold(params.len() as u64, |acc, value| {
            acc << 2
                | match value {
                    Value::Null => 0,
                    Value::Int(_) => 1,
                    Value::Text(_) => 2,
                    Value::Bool(_) => 3,
                }
        });
        Some(Analysed {
            statement: Arc::clone(&prepared.statement),
            columns: Arc::clone(&self.tables[t].columns),
            kinds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Database, Exec, Prepared, Session, Value};

    fn table(column_type: &str) -> Database {
        let mut db = Database::new();
        let create = format!("CREATE TABLE t (id bigint PRIMARY KEY, a {column_type})");
        for text in [create.as_str(), "INSERT INTO t (id, a) VALUES (1, NULL)"] {
            let outcome = db.exec(Session(0), &Prepared::new(text).expect("parses"), &[]);
            assert!(matches!(outcome, Exec::Done { .. }), "{text}: {outcome:?}");
        }
        db
    }

    /// A remembered analysis is reused only for the same statement, the same table and
    /// parameters of the same types: anything else is analysed again and can fail.
    #[test]
    fn an_analysis_is_remembered_only_for_the_same_types() {
        let update = Prepared::new("UPDATE t SET a = $1 WHERE id = $2 AND a IS NULL OR a < $1")
            .expect("parses");
        let mut ints = table("bigint");
        let done = ints.exec(Session(0), &update, &[Value::Int(5), Value::Int(1)]);
        assert!(matches!(done, Exec::Done { count: 1, .. }), "{done:?}");
        let again = ints.exec(Session(0), &update, &[Value::Int(6), Value::Int(1)]);
        assert!(matches!(again, Exec::Done { count: 1, .. }), "{again:?}");
        // Another parameter type: analysed again, and PostgreSQL's error.
        let wrong = ints.exec(Session(0), &update, &[Value::Bool(true), Value::Int(1)]);
        assert_eq!(
            wrong,
            Exec::Failed(
                "ERROR:  column \"a\" is of type bigint but expression is of type boolean at character 18"
                    .to_owned()
            )
        );
        // Another table with the same name and other types: analysed again too.
        let mut texts = table("boolean");
        let refused = texts.exec(Session(0), &update, &[Value::Int(5), Value::Int(1)]);
        assert!(matches!(refused, Exec::Failed(_)), "{refused:?}");
    }
}
