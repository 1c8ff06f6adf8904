//! Every SQL statement of every built-in's trace, replayed on PostgreSQL 15: one psql
//! session per worker, the run's table created by the simulator's own setup statements,
//! each statement sent in trace order and its reply compared with the one the trace shows
//! (rows as `paid|34`, tags such as `UPDATE 0`). The simulator's statements are run by the
//! same engine as the consoles, so this shows that the fence deciding each write in a
//! lesson decides it as PostgreSQL does.
//!
//! How the trace maps to sessions: a write's event belongs to the database (`db`) and
//! names the worker as its peer. A `write-blocked` event is the statement being sent and
//! PostgreSQL making it wait; the trace shows its outcome later as the same worker's next
//! write (or, for a `SELECT ... FOR UPDATE`, its `locked-row`), which is where the harness
//! reads the waiting session's reply. A worker that ends or crashes inside a transaction is rolled back, as PostgreSQL
//! rolls back a dropped connection; the trace shows no statement for it, so the harness
//! sends ROLLBACK itself.

use std::time::Duration;

use fencing_playground::catalogue;
use fencing_playground::sim::event::{Actor, EventKind};
use fencing_playground::sim::{self, world};

use crate::sql::{Psql, admin, pg_port};

/// A reply this long in coming means the statement waits for a lock.
const WAIT_WINDOW: Duration = Duration::from_millis(400);
/// Long enough for a released statement to finish.
const RELEASE_WINDOW: Duration = Duration::from_millis(3000);

struct Session {
    psql: Psql,
    in_txn: bool,
    /// The statement sent that PostgreSQL made wait.
    waiting: Option<String>,
}

fn replay(port: u16, id: &str) -> Result<usize, String> {
    let Some(scenario) = catalogue::find(id) else { return Err("not a built-in".to_owned()) };
    let trace = sim::run_events_only(&scenario.setup);
    let database = format!("trace_{}", id.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
    admin(port, &format!("DROP DATABASE IF EXISTS {database}"));
    // Byte order for text, as the engine compares it (random tokens are stored as text).
    admin(
        port,
        &format!("CREATE DATABASE {database} TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'"),
    );
    let mut sessions: Vec<Option<Session>> = Vec::new();
    let mut compared = 0;
    let mut setup = Psql::start(port, &database);
    for statement in world::setup_sql(&scenario.setup) {
        setup.send(&format!("{statement};"));
        let mut got = Vec::new();
        if !setup.read(RELEASE_WINDOW, &mut got) || got.iter().any(|l| l.starts_with("ERROR")) {
            return Err(format!("setup {statement}: {got:?}"));
        }
    }
    drop(setup);
    for event in trace.events() {
        let worker = match (event.actor, event.peer) {
            (Actor::Worker(w), _) | (Actor::Db, Some(Actor::Worker(w))) => w.index(),
            _ => continue,
        };
        let sql = matches!(
            event.kind,
            EventKind::Read { .. }
                | EventKind::Wrote { .. }
                | EventKind::WriteBlocked { .. }
                | EventKind::Reread { .. }
                | EventKind::Began
                | EventKind::LockedRow
                | EventKind::Committed
                | EventKind::RolledBack
        );
        let ends =
            matches!(event.kind, EventKind::Finished | EventKind::GaveUp | EventKind::Crashed);
        if !sql && !ends {
            continue;
        }
        if sessions.len() <= worker {
            sessions.resize_with(worker + 1, || None);
        }
        let session = sessions[worker].get_or_insert_with(|| Session {
            psql: Psql::start(port, &database),
            in_txn: false,
            waiting: None,
        });
        let at = format!("#{} {} {}", event.id, event.kind.tag(), event.command);
        if ends {
            if session.in_txn {
                session.psql.send("ROLLBACK;");
                let mut got = Vec::new();
                session.psql.read(RELEASE_WINDOW, &mut got);
                session.in_txn = false;
            }
            continue;
        }
        let mut got = Vec::new();
        if let EventKind::WriteBlocked { .. } = event.kind {
            // The trace abbreviates a waiting write (`UPDATE orders ... WHERE id = 42`); the
            // statement sent is the one it shows when the write goes through. A waiting
            // `SELECT ... FOR UPDATE` is shown whole, and its reply comes as the worker's
            // `locked-row` event.
            let select = event.command.starts_with("SELECT");
            let sent = trace.events()[event.id.index()..]
                .iter()
                .find(|e| {
                    matches!(e.kind, EventKind::Wrote { .. })
                        && e.peer
                            == Some(Actor::Worker(fencing_playground::sim::WorkerId::at(worker)))
                })
                .filter(|_| !select)
                .map_or(event.command.clone(), |e| e.command.clone());
            session.psql.send(&format!("{sent};"));
            if session.psql.read(WAIT_WINDOW, &mut got) {
                return Err(format!("{at}\n  the trace waits; PostgreSQL answered {got:?}"));
            }
            session.waiting = Some(sent);
            continue;
        }
        match session.waiting.take() {
            Some(sent) if sent == event.command => {
                if !session.psql.read(RELEASE_WINDOW, &mut got) {
                    return Err(format!("{at}\n  PostgreSQL still waits"));
                }
            }
            Some(sent) => {
                return Err(format!("{at}\n  the session still waits for: {sent}"));
            }
            None => {
                session.psql.send(&format!("{};", event.command));
                if !session.psql.read(RELEASE_WINDOW, &mut got) {
                    return Err(format!("{at}\n  PostgreSQL waits; the trace does not"));
                }
            }
        }
        let expected: Vec<String> = event.reply.lines().map(str::to_owned).collect();
        if got != expected {
            return Err(format!("{at}\n  trace:      {expected:?}\n  PostgreSQL: {got:?}"));
        }
        compared += 1;
        match event.kind {
            EventKind::Began => session.in_txn = true,
            EventKind::Committed | EventKind::RolledBack => session.in_txn = false,
            _ => {}
        }
    }
    drop(sessions);
    admin(port, &format!("DROP DATABASE IF EXISTS {database}"));
    Ok(compared)
}

#[test]
fn every_builtin_trace_statement_matches_postgresql() {
    let port = pg_port();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut lessons = 0;
    for entry in catalogue::index() {
        match replay(port, &entry.id) {
            Ok(n) => {
                compared += n;
                lessons += usize::from(n > 0);
            }
            Err(diff) => failures.push(format!("{}:\n  {diff}", entry.id)),
        }
    }
    assert!(failures.is_empty(), "{} built-ins differ:\n{}", failures.len(), failures.join("\n"));
    // Every built-in has a database step but a few; a harness that skipped them all
    // would compare nothing.
    assert!(compared >= 60 && lessons >= 30, "only {compared} statements in {lessons} lessons");
    println!("trace statements: {compared} compared with PostgreSQL 15 in {lessons} built-ins");
}
