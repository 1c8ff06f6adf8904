//! The order table: reads, the fenced UPDATE, row locks under READ COMMITTED and
//! transactions. It never talks to Redis.

use super::World;
use super::record::Said;
use super::worker::Rejection;
use crate::sim::check::{WriteFact, secs};
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::WorkerId;
use crate::sim::scenario::{Compare, Guard, Scenario, StatusCheck, TokenSource, WriteHow};
use crate::sim::state::{Activity, OrderRow};
use crate::sim::token::{token_sql, token_text};

impl<'s> World<'s> {
    pub(super) fn order_row_for(&self, w: WorkerId) -> &OrderRow {
        self.state.workers[w.index()].txn_row.as_ref().unwrap_or(&self.state.order)
    }

    pub(super) fn step_read(&mut self, w: WorkerId, compare: Compare) {
        let row = self.order_row_for(w).clone();
        let token = self.state.workers[w.index()].lease.as_ref().and_then(|l| l.token);
        let stale = match (compare, token) {
            (Compare::Token, Some(t)) => row.last_fence >= t,
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
        let command = format!("SELECT status, last_fence FROM orders WHERE id = {}", row.id);
        let reply = format!("{}|{}", row.status, row.last_fence);
        let causes = self.last_write_event.into_iter().collect();
        self.emit(
            Actor::Worker(w),
            EventKind::Read { last_fence: row.last_fence, stale },
            command,
            reply,
            causes,
        );
        if stale {
            self.fenced_off(w);
        } else {
            self.advance_after(w, 0, false);
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
        if let Some(holder) = self.state.row_lock.filter(|&h| h != w) {
            self.block_on_row(w, holder);
            return;
        }
        let ws = &self.state.workers[w.index()];
        let name = self.name(w);
        let lease = ws.lease.as_ref().map(|l| l.seq);
        let grant_event = ws.lease.as_ref().map(|l| l.granted_by);
        let in_txn = ws.in_txn;
        let (token, guard, status_check) = self.statement_parts(w, how);
        let row = self.order_row_for(w);
        let required_status = match (from, status_check) {
            (Some(from), _) => Some(from),
            (None, StatusCheck::Pending) => Some("pending"),
            (None, StatusCheck::Off) => None,
        };
        let (fence_ok, status_ok) = conditions(row, guard, token, required_status);
        let matched = fence_ok && status_ok;
        let last_fence = row.last_fence;
        let was_paid = row.status == "paid";
        // A set-state write records no writer: it only sets the status.
        let writer = (how != WriteHow::SetState).then_some(name);
        let changed = matched
            && (row.status != status
                || token.is_some_and(|t| t != row.last_fence)
                || writer.is_some_and(|n| n != row.updated_by));
        let tokens = self.scenario.tokens;
        let command = self.text(|| {
            update_text(
                row,
                guard,
                required_status,
                status,
                token.map(|t| token_sql(tokens, t)),
                writer,
            )
        });
        let rows = u32::from(matched);
        let why = match matched || !self.texts() {
            true => Said::default(),
            false => self.rejection_why(w, token, fence_ok, required_status),
        };
        if matched {
            self.update_row(w, in_txn, status, token, writer.is_some());
        }
        let mut causes: Vec<u32> = grant_event.into_iter().collect();
        if !matched {
            causes.extend(self.last_write_event);
        }
        let event = self.emit_because(
            Actor::Db,
            EventKind::Wrote { token, rows },
            command,
            self.text(|| format!("UPDATE {rows}")),
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
        let findings = self.checker.on_write(&fact, &self.names);
        self.record_findings(findings);
        self.after_write(w, status, (token, guard), (matched, fence_ok), event);
        if self.reply_lost(w) {
            return self.after_lost_reply(w);
        }
        match (matched, fence_ok) {
            (true, _) => self.advance_after(w, 0, false),
            (false, true) => self.rejected(w, Rejection::Status),
            (false, false) => self.rejected(w, Rejection::Fence),
        }
    }

    /// What the services learn from a write: a rejected worker's task (for the dead-letter
    /// queue), and a fenced write for the alert monitor.
    fn after_write(
        &mut self,
        w: WorkerId,
        status: &str,
        (token, guard): (Option<i64>, Guard),
        (matched, fence_ok): (bool, bool),
        event: u32,
    ) {
        if !matched {
            self.runtime[w.index()].rejected_write = Some((status.to_owned(), token));
        }
        if token.is_some() && guard != Guard::None {
            self.monitor_write(!fence_ok, event);
        }
    }

    /// What the statement carries and checks: the scenario's guard for a fenced write, the
    /// token stored but unchecked, or no token at all.
    fn statement_parts(&self, w: WorkerId, how: WriteHow) -> (Option<i64>, Guard, StatusCheck) {
        let token = self.state.workers[w.index()].lease.as_ref().and_then(|l| l.token);
        match how {
            WriteHow::Fenced => (token, self.scenario.sql.guard, self.scenario.sql.status_check),
            WriteHow::Unchecked => (token, Guard::None, StatusCheck::Off),
            WriteHow::Unfenced | WriteHow::SetState => (None, Guard::None, StatusCheck::Off),
        }
    }

    /// Applies a matched UPDATE. Outside a transaction the row changes in place (its
    /// strings keep their buffers); inside one the change stays private until COMMIT.
    fn update_row(
        &mut self,
        w: WorkerId,
        in_txn: bool,
        status: &str,
        token: Option<i64>,
        record_writer: bool,
    ) {
        let name = self.name(w);
        let target = if in_txn {
            let copy = self.order_row_for(w).clone();
            self.state.row_lock = Some(w);
            self.state.workers[w.index()].txn_row.insert(copy)
        } else {
            &mut self.state.order
        };
        target.status.clear();
        target.status.push_str(status);
        if let Some(t) = token {
            target.last_fence = t;
        }
        if record_writer {
            target.updated_by.clear();
            target.updated_by.push_str(name);
        }
    }

    /// Why a write matched no row, in the learner's words (the fence or the status).
    fn rejection_why(
        &mut self,
        w: WorkerId,
        token: Option<i64>,
        fence_ok: bool,
        required_status: Option<&str>,
    ) -> Said {
        let name = self.name(w);
        let tokens = self.scenario.tokens;
        let row = self.order_row_for(w).clone();
        let shown = token.map_or("NULL".to_owned(), |t| token_text(tokens, t));
        let mut args = vec![("worker", name.to_owned()), ("token", shown)];
        let by = self.last_write_event.map(|id| self.events[id as usize].at_ms);
        let key = match (fence_ok, by) {
            (true, Some(_)) => "sim.why_status_by",
            (true, None) => "sim.why_status",
            (false, Some(_)) => "sim.why_fence_by",
            (false, None) => "sim.why_fence",
        };
        if fence_ok {
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
        let ws = &mut self.state.workers[w.index()];
        ws.in_txn = true;
        ws.txn_row = None;
        self.emit(
            Actor::Worker(w),
            EventKind::Began,
            self.text(|| "BEGIN".to_owned()),
            self.text(|| "BEGIN".to_owned()),
            Vec::new(),
        );
        self.advance_after(w, 0, false);
    }

    /// COMMIT: the transaction's private row becomes the row.
    pub(super) fn step_commit(&mut self, w: WorkerId) {
        let changed = self.state.workers[w.index()].txn_row.clone();
        if let Some(row) = changed {
            self.state.order = row;
        }
        self.end_txn(w);
        self.emit(
            Actor::Worker(w),
            EventKind::Committed,
            self.text(|| "COMMIT".to_owned()),
            self.text(|| "COMMIT".to_owned()),
            Vec::new(),
        );
        self.advance_after(w, 0, false);
    }

    pub(super) fn step_rollback(&mut self, w: WorkerId) {
        self.end_txn(w);
        self.emit(
            Actor::Worker(w),
            EventKind::RolledBack,
            self.text(|| "ROLLBACK".to_owned()),
            self.text(|| "ROLLBACK".to_owned()),
            Vec::new(),
        );
        self.advance_after(w, 0, false);
    }

    pub(super) fn block_on_row(&mut self, w: WorkerId, holder: WorkerId) {
        let holder_name = self.names[holder.index()].clone();
        let text = self.say("sim.blocked", vec![("name", holder_name)]);
        let command = format!("UPDATE orders ... WHERE id = {}", self.state.order.id);
        self.emit(Actor::Worker(w), EventKind::WriteBlocked { holder }, command, text, Vec::new());
        self.state.workers[w.index()].activity = Activity::Blocked;
        self.cancel_step(w);
        if !self.blocked.contains(&w) {
            self.blocked.push(w);
        }
    }

    pub(super) fn end_txn(&mut self, w: WorkerId) {
        let ws = &mut self.state.workers[w.index()];
        ws.in_txn = false;
        ws.txn_row = None;
        if self.state.row_lock == Some(w) {
            self.state.row_lock = None;
            // READ COMMITTED: each waiter re-runs its statement against the new row.
            let waiters = std::mem::take(&mut self.blocked);
            let now = self.state.now_ms;
            for waiter in waiters {
                if self.state.workers[waiter.index()].activity == Activity::Blocked {
                    self.schedule_step(waiter, now, false);
                }
            }
        }
    }

    pub(super) fn step_select_for_update(&mut self, w: WorkerId) {
        if let Some(holder) = self.state.row_lock.filter(|&h| h != w) {
            self.block_on_row(w, holder);
            return;
        }
        self.state.row_lock = Some(w);
        let row = self.state.order.clone();
        self.state.workers[w.index()].txn_row = Some(row.clone());
        let command =
            format!("SELECT status, last_fence FROM orders WHERE id = {} FOR UPDATE", row.id);
        let reply = format!("{}|{}", row.status, row.last_fence);
        self.emit(Actor::Worker(w), EventKind::LockedRow, command, reply, Vec::new());
        self.advance_after(w, 0, false);
    }

    pub(super) fn step_reread(&mut self, w: WorkerId) {
        let row = self.state.order.clone();
        let ws = &self.state.workers[w.index()];
        let token = ws.lease.as_ref().and_then(|l| l.token);
        let already_applied = token == Some(row.last_fence) && row.updated_by == ws.name;
        let command = format!("SELECT last_fence, updated_by FROM orders WHERE id = {}", row.id);
        let reply = format!("{}|{}", row.last_fence, row.updated_by);
        let causes = self.last_write_event.into_iter().collect();
        let key = if already_applied { "sim.reread_mine" } else { "sim.reread_other" };
        let why = self
            .say(key, vec![("fence", row.last_fence.to_string()), ("by", row.updated_by.clone())]);
        self.emit_because(
            Actor::Worker(w),
            EventKind::Reread { already_applied, last_fence: row.last_fence },
            command,
            reply,
            why,
            causes,
        );
        // The handler's next steps run either way; the event records which case it was.
        self.advance_after(w, 0, false);
    }
}

fn update_text(
    row: &OrderRow,
    guard: Guard,
    required_status: Option<&str>,
    status: &str,
    token: Option<String>,
    writer: Option<&str>,
) -> String {
    use std::fmt::Write as _;
    // One buffer; writing into a String cannot fail.
    let mut text = String::with_capacity(160);
    let _ = write!(text, "UPDATE orders SET status = '{status}'");
    if let Some(t) = &token {
        let _ = write!(text, ", last_fence = {t}");
    }
    if let Some(name) = writer {
        let _ = write!(text, ", updated_by = '{name}'");
    }
    let _ = write!(text, " WHERE id = {}", row.id);
    if let Some(required) = required_status {
        let _ = write!(text, " AND status = '{required}'");
    }
    let token_sql = token.as_deref().unwrap_or("NULL");
    match guard {
        Guard::Lt => {
            let _ = write!(text, " AND last_fence < {token_sql}");
        }
        Guard::Le => {
            let _ = write!(text, " AND last_fence <= {token_sql}");
        }
        Guard::None => {}
    }
    text
}

/// The UPDATE's two conditions on `row`: the fence (`last_fence < NULL` is never true) and
/// the required status.
fn conditions(
    row: &OrderRow,
    guard: Guard,
    token: Option<i64>,
    required_status: Option<&str>,
) -> (bool, bool) {
    let fence_ok = match (guard, token) {
        (Guard::None, _) => true,
        (Guard::Lt, Some(t)) => row.last_fence < t,
        (Guard::Le, Some(t)) => row.last_fence <= t,
        (_, None) => false,
    };
    let status_ok = required_status.is_none_or(|required| row.status == required);
    (fence_ok, status_ok)
}

/// The table a run's order row lives in, as PostgreSQL creates it (`last_fence` is text
/// where tokens are random: UUID-like text compares byte by byte, as uuid values do).
pub const CREATE_ORDERS: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, status text NOT NULL, amount bigint NOT NULL, last_fence bigint NOT NULL, updated_by text)";
pub const CREATE_ORDERS_UUID: &str = "CREATE TABLE orders (id bigint PRIMARY KEY, status text NOT NULL, amount bigint NOT NULL, last_fence text NOT NULL, updated_by text)";

/// The statements that make a run's table and its row before the run, as psql takes them
/// (the conformance test starts PostgreSQL's copy of the run's table with them).
pub fn setup_sql(scenario: &Scenario) -> [String; 2] {
    let sql = &scenario.sql;
    setup_statements(sql.order_id, sql.amount, sql.last_fence, scenario.tokens)
}

/// The same for a row with these values (the SQL console's "Create the orders table").
pub fn setup_statements(id: i64, amount: i64, last_fence: i64, tokens: TokenSource) -> [String; 2] {
    let create = match tokens {
        TokenSource::Uuid => CREATE_ORDERS_UUID,
        _ => CREATE_ORDERS,
    };
    let fence = token_sql(tokens, last_fence);
    let insert = format!(
        "INSERT INTO orders (id, status, amount, last_fence) VALUES ({id}, 'pending', {amount}, {fence})"
    );
    [create.to_owned(), insert]
}
