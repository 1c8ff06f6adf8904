//! SQL: the curated corpus (tests/conformance/sql/*.sql) through the model's console and
//! two real `psql -X -A -t -F '|' -v VERBOSITY=terse` sessions on PostgreSQL 15.
//!
//! A line `B: ...` runs in session B, anything else in session A. A statement that waits for
//! a row lock shows as no reply within the wait window; the model must say it waits too.
//! Deliberate differences, said rather than hidden: PostgreSQL reports a deadlock after
//! `deadlock_timeout` (1 s) and the model at once, so after a wait the harness pauses
//! 1.2 s so that, as in the model, the later waiter is the one aborted; DETAIL and HINT
//! lines are not modelled (terse verbosity prints neither).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use fencing_playground::console::sql::{Session, SqlConsole, split_session};

const MARK: &str = "@@done@@";
/// How long a statement may take before the harness calls it waiting.
const WAIT_WINDOW: Duration = Duration::from_millis(500);
/// Long enough for a deadlock check (1 s) to report.
const LONG_WAIT: Duration = Duration::from_millis(3000);

pub(crate) fn pg_port() -> u16 {
    std::env::var("PG_PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .expect("PG_PORT is not set: run scripts/test, which starts PostgreSQL, or set it yourself")
}

pub(crate) struct Psql {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Psql {
    pub(crate) fn start(port: u16, database: &str) -> Psql {
        // stderr joins stdout through the shell so errors and rows keep their order.
        let command = format!(
            "exec psql -X -A -t -F '|' -v VERBOSITY=terse -h 127.0.0.1 -p {port} -U postgres -d {database} 2>&1"
        );
        let mut child = Command::new("sh")
            .args(["-c", &command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("psql");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Psql { child, stdin, lines }
    }

    pub(crate) fn send(&mut self, sql: &str) {
        writeln!(self.stdin, "{sql}\n\\echo {MARK}").expect("write to psql");
        self.stdin.flush().expect("flush psql");
    }

    /// Lines up to the marker, or `None` (with what came so far) if the window passes.
    pub(crate) fn read(&self, window: Duration, got: &mut Vec<String>) -> bool {
        loop {
            match self.lines.recv_timeout(window) {
                Ok(line) if line == MARK => return true,
                Ok(line) => got.push(line),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return false,
            }
        }
    }
}

impl Drop for Psql {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn admin(port: u16, sql: &str) {
    let status = Command::new("psql")
        .env("PGOPTIONS", "-c client_min_messages=warning")
        .args([
            "-X",
            "-q",
            "-h",
            "127.0.0.1",
            "-p",
            &port.to_string(),
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-c",
            sql,
        ])
        .stdout(Stdio::null())
        .status()
        .expect("psql");
    assert!(status.success(), "{sql}");
}

/// Runs one script through both; returns the number of output lines compared or the first
/// difference.
fn run_both(port: u16, name: &str, lines: &[String]) -> Result<usize, String> {
    let database = format!("fence_{}", name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
    admin(port, &format!("DROP DATABASE IF EXISTS {database}"));
    admin(port, &format!("CREATE DATABASE {database}"));
    let mut real = [Psql::start(port, &database), Psql::start(port, &database)];
    let mut model = SqlConsole::new();
    let mut waiting = [false, false];
    let mut compared = 0;
    for line in lines {
        let (session, sql) = split_session(line);
        // The console has two sessions, A (0) and B (1).
        let (me, other) = if session == Session::A { (0, 1) } else { (1, 0) };
        let outputs = model.run(session, sql);
        let model_lines = |s: Session| -> Vec<String> {
            outputs
                .iter()
                .filter(|o| o.session == s && !o.waiting)
                .map(|o| o.text.clone())
                .collect()
        };
        let model_waits = outputs.iter().any(|o| o.session == session && o.waiting);
        real[me].send(sql.trim());
        let mut got = Vec::new();
        let window = if waiting[other] { LONG_WAIT } else { WAIT_WINDOW };
        let done = real[me].read(if model_waits { WAIT_WINDOW } else { window }, &mut got);
        if done == model_waits {
            return Err(format!(
                "{line}\n  model {}, server {}",
                if model_waits { "waits" } else { "answers" },
                if done { "answers" } else { "waits" }
            ));
        }
        let expected = model_lines(session);
        if got != expected {
            return Err(format!("{line}\n  model:  {expected:?}\n  server: {got:?}"));
        }
        compared += got.len();
        if model_waits {
            waiting[me] = true;
            std::thread::sleep(Duration::from_millis(1200));
        }
        // The other session may have been released by this statement.
        if waiting[other] {
            let other_session = if other == 0 { Session::A } else { Session::B };
            let expected = model_lines(other_session);
            let still_waits = model.is_waiting(other_session);
            let mut got = Vec::new();
            let done = real[other]
                .read(if still_waits { Duration::from_millis(300) } else { LONG_WAIT }, &mut got);
            if done == still_waits {
                return Err(format!(
                    "{line}\n  then session {}: model {}, server {}",
                    other_session.name(),
                    if still_waits { "still waits" } else { "answers" },
                    if done { "answers" } else { "still waits" }
                ));
            }
            if got != expected {
                return Err(format!(
                    "{line}\n  then session {}:\n  model:  {expected:?}\n  server: {got:?}",
                    other_session.name()
                ));
            }
            compared += got.len();
            waiting[other] = still_waits;
        }
    }
    drop(real);
    admin(port, &format!("DROP DATABASE IF EXISTS {database}"));
    Ok(compared)
}

#[test]
fn the_sql_corpus_matches_postgresql_line_by_line() {
    let port = pg_port();
    let corpus = crate::corpus("sql", "--");
    assert!(corpus.len() >= 25, "only {} scripts", corpus.len());
    let compared = crate::check_corpus(&corpus, |name, lines| run_both(port, name, lines));
    println!("sql corpus: {} scripts, {compared} output lines compared", corpus.len());
}
