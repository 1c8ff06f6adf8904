//! The state at the cursor: Redis keys with their TTL at this instant, the order row,
//! charges and idempotency keys, each worker's belief beside the truth, the current
//! command with its reply, the narration and the "why" of a rejection or violation.

use yew::prelude::*;

use crate::markup::Markup;
use crate::player::{Action, TraceRef};
use crate::sim::event::EventKind;
use crate::sim::state::{Activity, Role};
use crate::sim::token::token_text;
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct InspectorProps {
    pub(crate) trace: TraceRef,
    pub(crate) cursor: usize,
    pub(crate) time_ms: u64,
    pub(crate) on_action: Callback<Action>,
}

#[component]
pub(crate) fn Inspector(props: &InspectorProps) -> Html {
    let m = use_i18n();
    let trace = &props.trace;
    let mut body = instant(&m, trace, props.cursor);
    body.append(&tables(&m, trace, props.cursor, props.time_ms));
    // A "see #n" link names an earlier event by its index: one listener for all of them.
    let onclick = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(id) = crate::ui::index_at(e.target(), "data-seek") {
                on_action.emit(Action::SeekCursor(id + 1));
            }
        })
    };
    html! {
        <div class="inspector" data-testid="inspector" {onclick}>
            { crate::ui::markup(body) }
        </div>
    }
}

/// Every applied event of the current instant, oldest first (several things often happen
/// in the same millisecond: a resume, a write, a rejection), each with its command and
/// reply and, for a rejection or finding, why, with links to the events it follows from.
fn instant(m: &crate::i18n::Messages, trace: &crate::sim::Trace, cursor: usize) -> Markup {
    let mut o = Markup::new();
    o.open("details", &[("class", "now"), ("open", "")]);
    o.open("summary", &[]).element("h2", &[], &m.t("player.now")).close("summary");
    let Some(last) = cursor.checked_sub(1).map(|i| &trace.events()[i]) else {
        o.element("p", &[("class", "muted")], &m.t("player.before")).close("details");
        return o;
    };
    let mut events: Vec<&crate::sim::Event> = trace.events()[..cursor]
        .iter()
        .rev()
        .take_while(|e| e.at_ms == last.at_ms)
        .take(6)
        .collect();
    events.reverse();
    for event in events {
        // The prose in the learner's language: a rejection's why, a finding's explanation.
        let prose = m.note(&event.note);
        let why = match &event.kind {
            EventKind::Violation { explanation, .. } | EventKind::Warning { explanation, .. } => {
                if prose.is_empty() {
                    explanation.clone()
                } else {
                    prose.clone()
                }
            }
            _ if !event.why.is_empty() => {
                if prose.is_empty() {
                    event.why.clone()
                } else {
                    prose.clone()
                }
            }
            _ => String::new(),
        };
        let fact = if event.why.is_empty() && !prose.is_empty() {
            prose.clone()
        } else {
            event.reply.clone()
        };
        let violation =
            crate::timeline::marker_class(&event.kind) == crate::timeline::MarkerClass::Violation;
        let class = match (violation, event.id == last.id) {
            (true, true) => "current is-violation is-current",
            (true, false) => "current is-violation",
            (false, true) => "current is-current",
            (false, false) => "current",
        };
        o.open("div", &[("class", class)]).open("p", &[("class", "event-head")]);
        o.element("span", &[("class", "who")], &trace.actor_name(event.actor)).text(" ");
        o.element("span", &[("class", "tag")], &m.tag(event.kind.tag()));
        o.text(&format!(" {} {}", m.t("player.at"), m.secs(event.at_ms))).close("p");
        if !event.command.is_empty() {
            o.open("pre", &[("class", "command"), ("data-testid", "command")]);
            o.element("code", &[], &format!("{}\n-> {}", event.command, event.reply)).close("pre");
        } else if !fact.is_empty() {
            o.element("p", &[("class", "fact")], &fact);
        }
        if !why.is_empty() {
            o.open("div", &[("class", "why"), ("data-testid", "why")]);
            o.element("strong", &[], &format!("{} ", m.t("player.why"))).text(&why);
            if !event.causes.is_empty() {
                o.open("span", &[("class", "causes")]).text(&format!(" {} ", m.t("player.see")));
                for &c in &event.causes {
                    let cause = &trace.events()[c.index()];
                    // Numbered as the step counter and the event log number it: from 1.
                    let text = m.tf(
                        "player.cause",
                        &[
                            ("step", &(c.index() + 1).to_string()),
                            ("who", &trace.actor_name(cause.actor)),
                            ("what", &m.tag(cause.kind.tag())),
                            ("at", &m.secs(cause.at_ms)),
                        ],
                    );
                    o.element("button", &[("class", "link"), ("data-seek", &c.to_string())], &text)
                        .text(" ");
                }
                o.close("span");
            }
            o.close("div");
        }
        o.close("div");
    }
    o.close("details");
    o
}

/// The state at the cursor as text: each worker's belief beside the truth, each node's
/// keys, the order row. Written as one fragment (it has no controls), like the timeline.
/// A consensus lock lives in a consensus store, not in Redis: the headings name it so.
/// Longer than 100 lines: three tables in a row, each a loop over the state.
fn tables(m: &crate::i18n::Messages, trace: &crate::sim::Trace, cursor: usize, t: u64) -> Markup {
    let state = trace.state_at(cursor);
    // The state before this step: rows that differ from it are marked as changed.
    let before = trace.state_at(cursor.saturating_sub(1));
    let consensus = trace.setup().tokens == crate::sim::scenario::TokenSource::Consensus;
    let source = trace.setup().tokens;
    let lock_key = &trace.setup().redis.lock_key;
    let mut o = Markup::new();
    let head = |o: &mut Markup, cells: &[String]| {
        o.open("thead", &[]).open("tr", &[]);
        for cell in cells {
            o.element("th", &[], cell);
        }
        o.close("tr").close("thead").open("tbody", &[]);
    };

    // The truth a worker cannot see: who the current primary (or a majority) says holds it.
    let truth_holder = state.primary.and_then(|p| {
        let node = &state.nodes[p.index()];
        node.keyspace.peek(lock_key, node.clock_ms(t)).map(|e| e.value.clone())
    });
    o.open("section", &[]).element("h2", &[], &m.t("player.workers"));
    o.open("table", &[("class", "workers")]);
    let says = if consensus { "col.store_says" } else { "col.redis_says" };
    head(&mut o, &["col.worker", "col.state", "col.token", "col.believes", says].map(|k| m.t(k)));
    for w in &state.workers {
        let activity = match w.activity {
            Activity::Waiting => m.t("worker.not_started"),
            Activity::Running => m.t("worker.running"),
            Activity::Paused { until_ms } => m.tf("worker.paused", &[("t", &m.secs(until_ms))]),
            Activity::Hung { until_ms } => m.tf("worker.hung", &[("t", &m.secs(until_ms))]),
            Activity::Blocked => m.t("worker.blocked"),
            Activity::Crashed => m.t("worker.crashed"),
            Activity::Done => m.t("worker.done"),
        };
        let token = w
            .lease
            .as_ref()
            .and_then(|l| l.token)
            .map_or("-".to_owned(), |tk| token_text(source, tk));
        let belief = match &w.belief {
            Some(b) if t <= b.until_ms => m.tf("belief.holds", &[("t", &m.secs(b.until_ms))]),
            Some(b) => m.tf("belief.stale", &[("t", &m.secs(b.until_ms))]),
            None => m.t("belief.none"),
        };
        // Values name one acquisition: the worker's own older lock is not the one it holds.
        let own_value = w.lease.as_ref().map(|lease| &*lease.value);
        let truth = match (&truth_holder, state.primary) {
            (Some(h), _) if Some(h.as_str()) == own_value => m.t("truth.self"),
            (Some(h), _) => m.tf("truth.other", &[("name", h)]),
            (None, Some(_)) => m.t("truth.nobody"),
            (None, None) => m.t("truth.nodes"),
        };
        let gap =
            w.belief.is_some() && truth_holder.as_deref().is_some_and(|h| Some(h) != own_value);
        let changed = cursor > 0 && before.workers.iter().find(|b| b.name == w.name) != Some(w);
        let mut row = vec![("data-testid", "worker"), ("data-name", w.name.as_str())];
        match (gap, changed) {
            (true, true) => row.push(("class", "gap just-changed")),
            (true, false) => row.push(("class", "gap")),
            (false, true) => row.push(("class", "just-changed")),
            (false, false) => {}
        }
        o.open("tr", &row).open("td", &[]).element("strong", &[], &w.name).close("td");
        for cell in [activity, token, belief, truth] {
            o.element("td", &[], &cell);
        }
        o.close("tr");
    }
    o.close("tbody").close("table").close("section");

    let store = if consensus { "player.store" } else { "player.redis" };
    o.open("section", &[]).element("h2", &[], &m.t(store));
    for node in &state.nodes {
        let clock = node.clock_ms(t);
        let role = match (node.up, node.role) {
            (false, _) => m.t("node.down"),
            (true, Role::Primary) => m.t("node.primary"),
            (true, Role::Replica { of }) => {
                m.tf("node.replica", &[("name", &state.nodes[of.index()].name)])
            }
            (true, Role::Peer) => m.t("node.peer"),
        };
        let sign = if node.clock_offset_ms >= 0 { "+" } else { "-" };
        let offset = format!("{sign}{}", m.secs(node.clock_offset_ms.unsigned_abs()));
        o.open("div", &[("class", "node")]).open("h3", &[]).text(&node.name);
        let detail = format!(" {role}, {}", m.tf("node.clock", &[("offset", &offset)]));
        o.element("span", &[("class", "muted")], &detail).close("h3");
        if node.keyspace.is_empty() {
            o.element("p", &[("class", "muted")], &m.t("node.no_keys"));
        } else {
            o.open("table", &[("class", "keys")]);
            head(&mut o, &["col.key", "col.value", "col.pttl"].map(|k| m.t(k)));
            for (key, entry) in node.keyspace.iter() {
                let hidden = entry.expire_at_ms.is_some_and(|d| clock > d);
                let pttl = match entry.expire_at_ms {
                    None => m.t("pttl.none"),
                    Some(_) if hidden => m.t("pttl.hidden"),
                    Some(d) => format!("{} ms", (d - clock).max(0)),
                };
                let was = before
                    .nodes
                    .iter()
                    .find(|n| n.name == node.name)
                    .and_then(|n| n.keyspace.raw(key));
                let changed = cursor > 0 && was != Some(entry);
                let mut row = vec![
                    ("data-testid", "redis-key"),
                    ("data-node", node.name.as_str()),
                    ("data-key", key.as_str()),
                ];
                match (hidden, changed) {
                    (true, true) => row.push(("class", "hidden just-changed")),
                    (true, false) => row.push(("class", "hidden")),
                    (false, true) => row.push(("class", "just-changed")),
                    (false, false) => {}
                }
                o.open("tr", &row);
                o.open("td", &[]).element("code", &[], key).close("td");
                o.open("td", &[]).element("code", &[], &entry.value).close("td");
                o.element("td", &[], &pttl).close("tr");
            }
            o.close("tbody").close("table");
        }
        o.close("div");
    }
    o.close("section");

    let order = &state.order;
    let mut facts = vec![m.tf("db.charges", &[("n", &state.charges.len().to_string())])];
    if !state.idempotency_keys.is_empty() {
        facts.push(m.tf("db.keys", &[("list", &state.idempotency_keys.join(", "))]));
    }
    if !state.objects.is_empty() {
        let names: Vec<&str> = state.objects.iter().map(|o| o.name.as_str()).collect();
        facts.push(m.tf("db.objects", &[("list", &names.join(", "))]));
    }
    if !state.dlq.is_empty() {
        facts.push(m.tf("db.dlq", &[("n", &state.dlq.len().to_string())]));
    }
    o.open("section", &[]).element("h2", &[], &m.t("player.database"));
    o.open("table", &[("class", "rows")]);
    head(&mut o, &["id", "status", "amount", "last_fence", "updated_by"].map(str::to_owned));
    let id = order.id.to_string();
    let changed = if cursor > 0 && before.order != *order { "just-changed" } else { "" };
    o.open("tr", &[("data-testid", "sql-row"), ("data-id", &id), ("class", changed)]);
    o.element("td", &[], &id).element("td", &[], &order.status).element(
        "td",
        &[],
        &order.amount.to_string(),
    );
    o.element("td", &[("data-testid", "last-fence")], &token_text(source, order.last_fence));
    o.element("td", &[], &order.updated_by).close("tr").close("tbody").close("table");
    if let Some(holder) = state.row_lock {
        let name = &state.workers[holder.index()].name;
        o.element("p", &[], &m.tf("db.row_lock", &[("name", name)]));
    }
    o.element("p", &[], &facts.join(" · ")).close("section");
    o
}

#[derive(PartialEq, Properties)]
pub(crate) struct VerdictProps {
    pub(crate) trace: TraceRef,
    /// Whether what-if parameters changed the run.
    pub(crate) changed: bool,
}

/// The outcome of the whole run, with the violations spelled out.
#[component]
pub(crate) fn Verdict(props: &VerdictProps) -> Html {
    let m = use_i18n();
    let text = verdict_text(&m, &props.trace);
    // A violation breaks safety; a liveness warning or a worker that gave up is a bad end
    // too (nothing done, or done late), so neither gets the tick.
    let summary = props.trace.summary();
    // A run cut short at the event limit was not checked to its end: never a tick.
    let gave_up = crate::verdict::gave_up(&props.trace) > 0 || props.trace.truncated();
    // Damage is red; a hazard that damaged nothing this time is amber, as a warning is.
    use crate::verdict::Harm;
    let (class, mark) =
        match (crate::verdict::worst(&props.trace), summary.warnings.is_empty() && !gave_up) {
            (Some(Harm::Damage), _) => ("verdict bad", "⚠ "),
            (Some(Harm::Hazard), _) | (None, false) => ("verdict warn", "⚠ "),
            (None, true) => ("verdict", "✓ "),
        };
    // The status element stays (a screen reader announces changes inside it); its text is
    // markup.
    let mut o = crate::markup::Markup::new();
    o.element("strong", &[], mark).text(&text);
    if props.changed {
        o.element("span", &[("class", "forked")], &format!(" {}", m.t("verdict.whatif")));
    }
    html! {
        <div class={class} data-testid="verdict" role="status">{ crate::ui::markup(o) }</div>
    }
}

/// A one-line outcome of a whole run, in the learner's language.
pub(crate) fn verdict_text(m: &crate::i18n::Messages, trace: &crate::sim::Trace) -> String {
    let summary = trace.summary();
    let accepted = summary.writes.iter().filter(|w| w.rows.matched()).count();
    let rejected = summary.writes.len() - accepted;
    let mut parts = Vec::new();
    // Where a run cut short at the model's event limit stopped: nothing after it was run.
    let cut = trace.cut_short();
    if let Some((t, events)) = &cut {
        parts.push(m.tf("verdict.truncated", &[("t", t), ("n", &events.to_string())]));
    }
    if summary.violations.is_empty() {
        parts.push(match cut.as_ref().map(|(t, _)| t) {
            Some(t) => m.tf("verdict.ok_until", &[("t", t)]),
            None => m.t("verdict.ok"),
        });
    } else {
        // Plain words first, the property's name after them for those who want it. A run
        // that damaged nothing says so, rather than "VIOLATED" over a hazard.
        let plain = crate::verdict::plain(trace);
        let sentences: Vec<String> = plain
            .iter()
            .map(|p| {
                let args: Vec<(&str, &str)> =
                    p.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let sentence = m.tf(&p.key, &args);
                m.tf("verdict.property", &[("sentence", &sentence), ("property", p.property)])
            })
            .collect();
        let key = if plain.iter().any(|p| p.harm == crate::verdict::Harm::Damage) {
            "verdict.violated"
        } else {
            "verdict.hazard"
        };
        parts.push(m.tf(key, &[("list", &sentences.join("; "))]));
    }
    parts.push(m.tf(
        "verdict.writes",
        &[("accepted", &accepted.to_string()), ("rejected", &rejected.to_string())],
    ));
    if summary.charges > 0 {
        parts.push(m.tf("verdict.charges", &[("n", &summary.charges.to_string())]));
    }
    let gave_up = crate::verdict::gave_up(trace);
    if gave_up > 0 {
        parts.push(m.tf("verdict.gave_up", &[("n", &gave_up.to_string())]));
    }
    for warning in &summary.warnings {
        parts.push(m.tf("verdict.warning", &[("name", &warning.name)]));
    }
    parts.join("; ")
}
