//! The order table: the workers' reads, the fenced UPDATE, row locks under READ COMMITTED
//! and transactions, every statement run by the SQL engine (`sim::sql`) that the consoles
//! use and the conformance tests compare with PostgreSQL. It keeps the world's copy of the
//! row (`State::order`, what the inspector shows) equal to the engine's. It never talks to
//! Redis, and it decides no statement's outcome itself.

use super::record::Said;
use super::worker::{Rejection, Written};
use super::{Meanwhile, World};
use crate::sim::check::{TxnEnd, WriteFact, secs};
use crate::sim::event::{Actor, EventKind, RowCount};
use crate::sim::id::{EventId, WorkerId};
use crate::sim::scenario::{Compare, Guard, Setup, StatusCheck, TokenSource, WriteHow};
use crate::sim::sql::built::{self, Column, Constraint, Operator};
use crate::sim::sql::{Database, Exec, Prepared, RowLock, Session, Value};
use crate::sim::state::{Activity, OrderRow};
use crate::sim::token::{token_from_text, token_text};
use std::cell::RefCell;
use std::sync::OnceLock;

/// The table every run starts with; `last_fence` is a uuid column where tokens are random
/// UUIDs (PostgreSQL compares uuid values byte by byte).
fn create_orders(last_fence: Column) -> Prepared {
    built::create_table(
        ORDERS,
        &[
            ("id", Column::Bigint, Constraint::PrimaryKey),
            ("status", Column::Text, Constraint::NotNull),
            ("amount", Column::Bigint, Constraint::NotNull),
            ("last_fence", last_fence, Constraint::NotNull),
            ("updated_by", Column::Text, Constraint::None),
        ],
    )
}

/// The columns in `CREATE_ORDERS`' order.
const ID: usize = 0;
const STATUS: usize = 1;
const AMOUNT: usize = 2;
const LAST_FENCE: usize = 3;
const UPDATED_BY: usize = 4;

/// The statements the simulator sends, parsed once per process (a run of the explorer's
/// millions would otherwise spend more time parsing than simulating).
struct Statements {
    tables: [Database; 2],
    insert: Prepared,
    read: Prepared,
    for_update: Prepared,
    reread: Prepared,
    begin: Prepared,
    commit: Prepared,
    rollback: Prepared,
    /// Every UPDATE a write can send, by `UpdateShape::index`.
    updates: Vec<Prepared>,
}

/// What an UPDATE sets and checks: its parameters are always `$1` status, `$2` token,
/// `$3` writer, `$4` id, `$5` the required status; a shape uses some of them.
#[derive(Clone, Copy)]
struct UpdateShape {
    token: bool,
    writer: bool,
    required_status: bool,
    guard: Guard,
}

impl UpdateShape {
    const COUNT: usize = 24;

    fn index(self) -> usize {
        let guard = match self.guard {
            Guard::None => 0,
            Guard::Lt => 1,
            Guard::Le => 2,
        };
        usize::from(self.token)
            | usize::from(self.writer) << 1
            | usize::from(self.required_status) << 2
            | guard << 3
    }

    fn of(index: usize) -> UpdateShape {
        UpdateShape {
            token: index & 1 != 0,
            writer: index & 2 != 0,
            required_status: index & 4 != 0,
            guard: match index >> 3 {
                0 => Guard::None,
                1 => Guard::Lt,
                _ => Guard::Le,
            },
        }
    }

    /// `UPDATE orders SET status = $1[, last_fence = $2][, updated_by = $3] WHERE id = $4
    /// [AND status = $5][AND last_fence < $2 | <= $2]`.
    fn statement(self) -> Prepared {
        let mut sets = vec![("status", 1)];
        if self.token {
            sets.push(("last_fence", 2));
        }
        if self.writer {
            sets.push(("updated_by", 3));
        }
        let mut conditions = vec![("id", Operator::Eq, 4)];
        if self.required_status {
            conditions.push(("status", Operator::Eq, 5));
        }
        match self.guard {
            Guard::Lt => conditions.push(("last_fence", Operator::Lt, 2)),
            Guard::Le => conditions.push(("last_fence", Operator::Le, 2)),
            Guard::None => {}
        }
        built::update(ORDERS, &sets, &conditions)
    }
}

fn statements() -> &'static Statements {
    static STATEMENTS: OnceLock<Statements> = OnceLock::new();
    STATEMENTS.get_or_init(|| {
        let table = |last_fence: Column| {
            let mut db = Database::new();
            let outcome = db.exec(Session(0), &create_orders(last_fence), &[]);
            debug_assert!(matches!(outcome, Exec::Done { .. }), "{outcome:?}");
            db
        };
        let select =
            |columns: &[&str], lock: RowLock| built::select(columns, ORDERS, ("id", 4), lock);
        Statements {
            tables: [table(Column::Bigint), table(Column::Uuid)],
            insert: built::insert(ORDERS, &["id", "status", "amount", "last_fence"]),
            read: select(&["status", "last_fence"], RowLock::None),
            for_update: select(&["status", "last_fence"], RowLock::ForUpdate),
            reread: select(&["last_fence", "updated_by"], RowLock::None),
            begin: built::begin(),
            commit: built::commit(),
            rollback: built::rollback(),
            updates: (0..UpdateShape::COUNT).map(|i| UpdateShape::of(i).statement()).collect(),
        }
    })
}

/// The order table of a new run, with its row.
pub(super) fn new_database(row: &OrderRow, tokens: TokenSource) -> Database {
    thread_local! {
        // The explorer starts millions of runs of one scenario: the engine makes the table
        // and its row once, and each run starts from a copy.
        static LAST: RefCell<Option<(RowKey, Database)>> = const { RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        Some(((source, made_for), db)) if *source == tokens && made_for == row => db.clone(),
        _ => {
            let db = create_database(row, tokens);
            *last = Some(((tokens, row.clone()), db.clone()));
            db
        }
    })
}

/// What a new run's table depends on: the token source and the row.
type RowKey = (TokenSource, OrderRow);

fn create_database(row: &OrderRow, tokens: TokenSource) -> Database {
    let sql = statements();
    let mut db = sql.tables[usize::from(tokens == TokenSource::Uuid)].clone();
    let params = [
        Value::Int(row.id),
        Value::Text(row.status.as_str().into()),
        Value::Int(row.amount),
        token_value(tokens, Some(row.last_fence)),
    ];
    let outcome = db.exec(Session(0), &sql.insert, &params);
    debug_assert!(matches!(outcome, Exec::Done { .. }), "{outcome:?}");
    db
}

/// The statements that create a run's order table and its row, as psql would take them
/// (the conformance test starts PostgreSQL's copy of the table with them).
pub fn setup_sql(setup: &Setup) -> [String; 2] {
    let sql = &setup.sql;
    setup_statements(sql.order_id, sql.amount, sql.last_fence, setup.tokens)
}

/// The same for a row with these values (the SQL console's "Create the orders table").
pub fn setup_statements(id: i64, amount: i64, last_fence: i64, tokens: TokenSource) -> [String; 2] {
    let create = create_orders(match tokens {
        TokenSource::Uuid => Column::Uuid,
        _ => Column::Bigint,
    });
    let params = [
        Value::Int(id),
        Value::Text("pending".into()),
        Value::Int(amount),
        token_value(tokens, Some(last_fence)),
    ];
    [create.text(&[]), statements().insert.text(&params)]
}

/// A token as the statement's parameter: a number, or a random token's text.
fn token_value(tokens: TokenSource, token: Option<i64>) -> Value {
    match (token, tokens) {
        (None, _) => Value::Null,
        (Some(t), TokenSource::Uuid) => Value::Text(token_text(tokens, t).into()),
        (Some(t), _) => Value::Int(t),
    }
}

/// The UPDATE a write sends, and its parameters.
fn update(
    tokens: TokenSource,
    id: i64,
    status: &str,
    token: Option<i64>,
    writer: Option<&str>,
    guard: Guard,
    required_status: Option<&str>,
) -> (&'static Prepared, [Value; 5]) {
    let shape = UpdateShape {
        token: token.is_some(),
        writer: writer.is_some(),
        required_status: required_status.is_some(),
        guard,
    };
    let params = [
        Value::Text(status.into()),
        token_value(tokens, token),
        writer.map_or(Value::Null, |w| Value::Text(w.into())),
        Value::Int(id),
        required_status.map_or(Value::Null, |s| Value::Text(s.into())),
    ];
    (&statements().updates[shape.index()], params)
}

/// The parameters of a statement that names only the row (`$4`).
fn row_params(id: i64) -> [Value; 4] {
    [Value::Null, Value::Null, Value::Null, Value::Int(id)]
}

impl<'s> World<'s> {
    pub(super) fn order_row_for(&self, w: WorkerId) -> &OrderRow {
        self.state.workers[w.index()].txn_row.as_ref().unwrap_or(&self.state.order)
    }

    /// Runs a statement in worker `w`'s session and brings the world's copy of the row up
    /// to date with the engine's.
    fn sql(&mut self, w: WorkerId, statement: &Prepared, params: &[Value]) -> Exec {
        let outcome = self.db.exec(Session(w.0), statement, params);
        self.sync_row(w);
        outcome
    }

    /// The statement as the trace shows it (nothing when events carry no text).
    fn sql_text(&self, statement: &Prepared, params: &[Value]) -> String {
        self.text(|| statement.text(params))
    }

    fn sync_row(&mut self, w: WorkerId) {
        let id = self.state.order.id;
        let tokens = self.setup.tokens;
        if let Some(values) = self.db.committed(ORDERS, id) {
            copy_row(values, &mut self.state.order, tokens);
        }
        let holder = self.db.holder(ORDERS, id).map(|s| WorkerId(s.0));
        self.state.row_lock = holder;
        let mine = match holder == Some(w) {
            true => self.db.pending(ORDERS, id),
            false => None,
        };
        let ws = &mut self.state.workers[w.index()];
        match mine {
            Some(values) => {
                copy_row(values, ws.txn_row.get_or_insert_with(OrderRow::default), tokens)
            }
            None => ws.txn_row = None,
        }
    }

    pub(super) fn step_read(&mut self, w: WorkerId, compare: Compare, done_if: Option<&str>) {
        let sql = statements();
        let params = row_params(self.state.order.id);
        let outcome = self.sql(w, &sql.read, &params);
        let row = self.order_row_for(w);
        let last_fence = row.last_fence;
        let done = done_if.is_some_and(|status| row.status == status);
        let token = self.state.workers[w.index()].lease.as_ref().and_then(|l| l.token);
        let stale = match (compare, token) {
            (Compare::Token, Some(t)) => last_fence >= t,
            (Compare::Token, None) => true,
            (Compare::No, _) => false,
        };
        let etag = self
            .state
            .objects
            .iter()
            .find(|o| o.name == self.object_name())
            .map(|o| o.etag.clone());
        self.state.workers[w.index()].etag_seen = etag;
        let command = self.sql_text(&sql.read, &params);
        let reply = self.text(|| reply_text(&outcome));
        let causes = self.last_write_event.into_iter().collect();
        self.emit(Actor::Worker(w), EventKind::Read { last_fence, stale }, command, reply, causes);
        if stale {
            self.fenced_off(w);
        } else if done {
            self.finish(w, "sim.nothing_left");
        } else {
            self.advance(w);
        }
    }

    pub(super) fn step_write(
        &mut self,
        w: WorkerId,
        how: WriteHow,
        status: &str,
        from: Option<&str>,
        attempts: u32,
        backoff_ms: u64,
    ) {
        if self.handle_lost_reply_timeout(w, attempts, backoff_ms) {
            return;
        }
        let ws = &self.state.workers[w.index()];
        let name = self.name(w);
        let lease = ws.lease.as_ref().map(|l| l.seq);
        let grant_event = ws.lease.as_ref().map(|l| l.granted_by);
        let (token, guard, status_check) = self.statement_parts(w, how);
        let required_status = match (from, status_check) {
            (Some(from), _) => Some(from),
            (None, StatusCheck::Pending) => Some("pending"),
            (None, StatusCheck::Off) => None,
        };
        // A set-state write records no writer: it only sets the status.
        let writer = (how != WriteHow::SetState).then_some(name);
        let id = self.state.order.id;
        let (statement, params) =
            update(self.setup.tokens, id, status, token, writer, guard, required_status);
        let before = self.order_row_for(w);
        let (last_fence, was_paid) = (before.last_fence, before.status == "paid");
        // Whether a matching UPDATE changes anything (a write that changes nothing is not
        // a stale write, whatever its token).
        let would_change = before.status != status
            || token.is_some_and(|t| t != before.last_fence)
            || writer.is_some_and(|n| n != before.updated_by);
        let outcome = self.sql(w, statement, &params);
        let rows = match &outcome {
            Exec::Done { count, .. } => *count,
            Exec::Blocked(holder) => {
                let command = self.sql_text(statement, &params);
                return self.block_on_row(w, WorkerId(holder.0), command);
            }
            // The statements are the engine's subset with values of their columns' types;
            // a failure would be a defect of this module, shown rather than hidden.
            Exec::Failed(_) => 0,
        };
        let matched = rows > 0;
        let written = match matched {
            true => Written::Accepted,
            false => Written::Rejected(self.rejection(w, guard, statement, &params)),
        };
        let changed = matched && would_change;
        let command = self.sql_text(statement, &params);
        let why = match written {
            Written::Rejected(rejection) if self.texts() => {
                self.rejection_why(w, token, rejection, required_status)
            }
            Written::Accepted | Written::Rejected(_) => Said::default(),
        };
        let mut causes: Vec<EventId> = grant_event.into_iter().collect();
        if !matched {
            causes.extend(self.last_write_event);
        }
        let reply = self.text(|| reply_text(&outcome));
        let rows = RowCount(u32::try_from(rows).unwrap_or(u32::MAX));
        let event = self.emit_because(
            Actor::Db,
            EventKind::Wrote { token, rows },
            command,
            reply,
            why,
            causes,
        );
        if matched {
            self.last_write_event = Some(event);
        }
        let fact = WriteFact {
            worker: w,
            worker_name: name,
            lease,
            token,
            accepted: matched,
            was_paid,
            status_after: status,
            changed,
            event,
            at_ms: self.state.now_ms,
            last_fence,
        };
        self.check_write(&fact);
        self.after_write(w, status, (token, guard), written, event);
        if self.reply_lost(w) {
            return self.after_lost_reply(w);
        }
        match written {
            Written::Accepted => self.advance(w),
            Written::Rejected(why) => self.rejected(w, why),
        }
    }
    /// Which condition turned a write away, as the engine evaluates it (with no guard, only
    /// a status precondition can).
    fn rejection(
        &self,
        w: WorkerId,
        guard: Guard,
        statement: &Prepared,
        params: &[Value],
    ) -> Rejection {
        let id = self.state.order.id;
        let fence_holds = guard == Guard::None
            || self.db.conditions_hold(Session(w.0), statement, params, id, "last_fence")
                == Some(true);
        match fence_holds {
            true => Rejection::Status,
            false => Rejection::Fence,
        }
    }

    /// The checkers' view of a write; one inside a transaction may be rolled back later.
    fn check_write(&mut self, fact: &WriteFact<'_>) {
        if self.state.workers[fact.worker.index()].in_txn {
            self.checker.before_txn_write(fact.worker);
        }
        let findings = self.checker.on_write(fact, &self.names);
        self.record_findings(findings);
    }

    /// What the services learn from a write: a rejected worker's task (for the dead-letter
    /// queue), and a fenced write for the alert monitor.
    fn after_write(
        &mut self,
        w: WorkerId,
        status: &str,
        (token, guard): (Option<i64>, Guard),
        written: Written,
        event: EventId,
    ) {
        if let Written::Rejected(_) = written {
            self.runtime[w.index()].rejected_write = Some((status.to_owned(), token));
        }
        if token.is_some() && guard != Guard::None {
            self.monitor_write(written, event);
        }
    }

    /// What the statement carries and checks: the scenario's guard for a fenced write, the
    /// token stored but unchecked, or no token at all.
    fn statement_parts(&self, w: WorkerId, how: WriteHow) -> (Option<i64>, Guard, StatusCheck) {
        let token = self.state.workers[w.index()].lease.as_ref().and_then(|l| l.token);
        match how {
            WriteHow::Fenced => (token, self.setup.sql.guard, self.setup.sql.status_check),
            WriteHow::Unchecked => (token, Guard::None, StatusCheck::Off),
            WriteHow::Unfenced | WriteHow::SetState => (None, Guard::None, StatusCheck::Off),
        }
    }

    /// Why a write matched no row, in the learner's words (the fence or the status).
    fn rejection_why(
        &mut self,
        w: WorkerId,
        token: Option<i64>,
        rejection: Rejection,
        required_status: Option<&str>,
    ) -> Said {
        let name = self.name(w);
        let tokens = self.setup.tokens;
        let row = self.order_row_for(w).clone();
        // A miss on the status precondition is not about the token (the fence let it
        // through, or there is none): its sentence names no token.
        let shown = token.map_or_else(String::new, |t| token_text(tokens, t));
        let mut args = vec![("worker", name.to_owned()), ("token", shown)];
        let by = self.last_write_event.map(|id| self.events[id.index()].at_ms);
        let key = match (rejection, by) {
            (Rejection::Status, Some(_)) => "sim.why_status_by",
            (Rejection::Status, None) => "sim.why_status",
            (Rejection::Fence, Some(_)) => "sim.why_fence_by",
            (Rejection::Fence, None) => "sim.why_fence",
        };
        if rejection == Rejection::Status {
            args.push(("status", row.status.clone()));
            args.push(("required", required_status.unwrap_or("").to_owned()));
        } else {
            args.push(("fence", token_text(tokens, row.last_fence)));
        }
        if let Some(at_ms) = by {
            args.push(("by", row.updated_by.clone()));
            args.push(("t", secs(at_ms)));
        }
        self.say(key, args)
    }

    pub(super) fn step_begin(&mut self, w: WorkerId) {
        self.state.workers[w.index()].in_txn = true;
        self.sql(w, &statements().begin, &[]);
        self.transaction_step(w, &statements().begin, EventKind::Began);
    }

    /// COMMIT: the transaction's version of the row becomes the row.
    pub(super) fn step_commit(&mut self, w: WorkerId) {
        self.end_txn(w, &statements().commit, TxnEnd::Commit);
        self.transaction_step(w, &statements().commit, EventKind::Committed);
    }

    pub(super) fn step_rollback(&mut self, w: WorkerId) {
        self.end_txn(w, &statements().rollback, TxnEnd::Rollback);
        self.transaction_step(w, &statements().rollback, EventKind::RolledBack);
    }

    /// The event of BEGIN, COMMIT or ROLLBACK (already run), with the tag psql prints.
    fn transaction_step(&mut self, w: WorkerId, statement: &Prepared, kind: EventKind) {
        let text = self.sql_text(statement, &[]);
        let reply = text.clone();
        self.emit(Actor::Worker(w), kind, text, reply, Vec::new());
        self.advance(w);
    }

    pub(super) fn block_on_row(&mut self, w: WorkerId, holder: WorkerId, command: String) {
        let holder_name = self.names[holder.index()].clone();
        let text = self.say("sim.blocked", vec![("name", holder_name)]);
        self.emit(Actor::Worker(w), EventKind::WriteBlocked { holder }, command, text, Vec::new());
        self.state.workers[w.index()].activity = Activity::Blocked;
        self.cancel_step(w);
        if !self.blocked.contains(&w) {
            self.blocked.push(w);
        }
    }

    /// Ends `w`'s transaction with COMMIT or ROLLBACK (a crash or a worker's end rolls
    /// back, as PostgreSQL does for a dropped connection). If it held the row's lock, each
    /// waiter runs its statement again against the newest committed row, as READ
    /// COMMITTED re-checks it.
    pub(super) fn end_txn(&mut self, w: WorkerId, how: &Prepared, end: TxnEnd) {
        let held = self.state.row_lock == Some(w);
        self.sql(w, how, &[]);
        self.checker.on_txn_end(w, end);
        self.state.workers[w.index()].in_txn = false;
        if held {
            let waiters = std::mem::take(&mut self.blocked);
            let now = self.state.now_ms;
            for waiter in waiters {
                if self.state.workers[waiter.index()].activity == Activity::Blocked {
                    self.schedule_step(waiter, now, Meanwhile::Waiting);
                }
            }
        }
    }

    /// A crash or a worker's end inside a transaction: PostgreSQL rolls it back.
    pub(super) fn abort_txn(&mut self, w: WorkerId) {
        self.end_txn(w, &statements().rollback, TxnEnd::Rollback);
    }

    pub(super) fn step_select_for_update(&mut self, w: WorkerId) {
        let sql = statements();
        let params = row_params(self.state.order.id);
        let outcome = self.sql(w, &sql.for_update, &params);
        let command = self.sql_text(&sql.for_update, &params);
        if let Exec::Blocked(holder) = outcome {
            return self.block_on_row(w, WorkerId(holder.0), command);
        }
        let reply = self.text(|| reply_text(&outcome));
        self.emit(Actor::Worker(w), EventKind::LockedRow, command, reply, Vec::new());
        self.advance(w);
    }

    pub(super) fn step_reread(&mut self, w: WorkerId) {
        let sql = statements();
        let params = row_params(self.state.order.id);
        let outcome = self.sql(w, &sql.reread, &params);
        let row = self.order_row_for(w);
        let (last_fence, updated_by) = (row.last_fence, row.updated_by.clone());
        let ws = &self.state.workers[w.index()];
        let token = ws.lease.as_ref().and_then(|l| l.token);
        let already_applied = token == Some(last_fence) && updated_by == ws.name;
        let command = self.sql_text(&sql.reread, &params);
        let reply = self.text(|| reply_text(&outcome));
        let causes = self.last_write_event.into_iter().collect();
        let key = if already_applied { "sim.reread_mine" } else { "sim.reread_other" };
        let tokens = self.setup.tokens;
        let why =
            self.say(key, vec![("fence", token_text(tokens, last_fence)), ("by", updated_by)]);
        self.emit_because(
            Actor::Worker(w),
            EventKind::Reread { already_applied, last_fence },
            command,
            reply,
            why,
            causes,
        );
        // The handler's next steps run either way; the event records which case it was.
        self.advance(w);
    }
}

/// The table the simulator's statements name.
const ORDERS: &str = "orders";

/// What psql prints for a statement: its rows (`paid|34`) or its tag (`UPDATE 1`), or
/// its error.
fn reply_text(outcome: &Exec) -> String {
    match outcome {
        Exec::Done { reply, .. } => reply.lines().join("\n"),
        Exec::Blocked(_) => String::new(),
        Exec::Failed(error) => error.clone(),
    }
}

/// Copies the engine's row into the world's (the inspector's) without new buffers.
fn copy_row(values: &[Value], row: &mut OrderRow, tokens: TokenSource) {
    let text = |i: usize| match values.get(i) {
        Some(Value::Text(s)) => s,
        _ => "",
    };
    let int = |i: usize| match values.get(i) {
        Some(Value::Int(n)) => Some(*n),
        Some(Value::Text(s)) => token_from_text(tokens, s),
        _ => None,
    };
    row.id = int(ID).unwrap_or(row.id);
    row.status.clear();
    row.status.push_str(text(STATUS));
    row.amount = int(AMOUNT).unwrap_or(row.amount);
    row.last_fence = int(LAST_FENCE).unwrap_or(row.last_fence);
    row.updated_by.clear();
    row.updated_by.push_str(text(UPDATED_BY));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::sql::Reply;

    #[test]
    fn the_order_statements_parse_and_run() {
        let sql = statements();
        for tokens in [TokenSource::RedisIncr, TokenSource::Uuid] {
            let row = OrderRow {
                id: 42,
                status: "pending".to_owned(),
                amount: 100,
                last_fence: 33,
                updated_by: String::new(),
            };
            let mut db = new_database(&row, tokens);
            let shown = db.committed(ORDERS, 42).map(<[Value]>::to_vec);
            let fence = token_value(tokens, Some(33));
            assert_eq!(
                shown,
                Some(vec![
                    Value::Int(42),
                    Value::Text("pending".into()),
                    Value::Int(100),
                    fence,
                    Value::Null
                ])
            );
            for index in 0..UpdateShape::COUNT {
                let params = [
                    Value::Text("paid".into()),
                    token_value(tokens, Some(34)),
                    Value::Text("A".into()),
                    Value::Int(42),
                    Value::Text("pending".into()),
                ];
                let mut copy = db.clone();
                let outcome = copy.exec(Session(0), &sql.updates[index], &params);
                assert_eq!(
                    outcome,
                    Exec::Done { count: 1, reply: Reply::Count("UPDATE", 1) },
                    "shape {index}"
                );
            }
            for statement in [&sql.read, &sql.for_update, &sql.reread, &sql.begin, &sql.commit] {
                assert!(matches!(
                    db.exec(Session(1), statement, &row_params(42)),
                    Exec::Done { .. }
                ));
            }
        }
    }

    /// The simulator's statements are built as trees (the first page carries no parser):
    /// each must be exactly what the parser makes of the text the trace shows, positions
    /// included, and the text must be the statements the conformance test replays.
    #[test]
    fn the_built_statements_are_what_the_parser_makes() {
        let sql = statements();
        let mut all: Vec<Prepared> = vec![
            create_orders(Column::Bigint),
            create_orders(Column::Uuid),
            sql.insert.clone(),
            sql.read.clone(),
            sql.for_update.clone(),
            sql.reread.clone(),
            sql.begin.clone(),
            sql.commit.clone(),
            sql.rollback.clone(),
        ];
        all.extend(sql.updates.iter().cloned());
        for built in &all {
            let text = built.text(&[]);
            let parsed = Prepared::new(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(built.same_tree(&parsed), "{text}");
        }
        assert_eq!(
            sql.updates[UpdateShape {
                token: true,
                writer: true,
                required_status: true,
                guard: Guard::Le
            }
            .index()]
            .text(&[]),
            "UPDATE orders SET status = $1, last_fence = $2, updated_by = $3 WHERE id = $4 AND status = $5 AND last_fence <= $2"
        );
        assert_eq!(
            create_orders(Column::Uuid).text(&[]),
            "CREATE TABLE orders (id bigint PRIMARY KEY, status text NOT NULL, amount bigint NOT NULL, last_fence uuid NOT NULL, updated_by text)"
        );
    }

    #[test]
    fn a_statement_is_shown_with_its_parameters_written_in() {
        let sql = statements();
        let shape =
            UpdateShape { token: true, writer: true, required_status: true, guard: Guard::Lt };
        let params = [
            Value::Text("it's".into()),
            Value::Null,
            Value::Text("A".into()),
            Value::Int(42),
            Value::Text("pending".into()),
        ];
        assert_eq!(
            sql.updates[shape.index()].text(&params),
            "UPDATE orders SET status = 'it''s', last_fence = NULL, updated_by = 'A' WHERE id = 42 AND status = 'pending' AND last_fence < NULL"
        );
    }
}
