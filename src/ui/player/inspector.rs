//! The state at the cursor: Redis keys with their TTL at this instant, the order row,
//! charges and idempotency keys, each worker's belief beside the truth, the current
//! command with its reply, the narration and the "why" of a rejection or violation.

use yew::prelude::*;

use crate::catalogue::narration;
use crate::player::{Action, TraceRef};
use crate::sim::check::secs;
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
    let state = trace.state_at(props.cursor);
    let t = props.time_ms;
    // A consensus lock lives in a consensus store, not in Redis: name it so.
    let consensus = trace.scenario().tokens == crate::sim::scenario::TokenSource::Consensus;
    let source = trace.scenario().tokens;
    let lock_key = &trace.scenario().redis.lock_key;
    let current = props.cursor.checked_sub(1).map(|i| &trace.events()[i]);
    let id = &trace.scenario().id;
    // A what-if fork keeps the lesson's paragraphs only while their facts hold in it.
    let narration_text = narration::told_at(trace, props.cursor).map(|told| match told {
        narration::Told::Departed => m.t("player.whatif_differs"),
        narration::Told::Paragraph(i) => {
            m.content(&format!("s.{id}.n.{i}"), &trace.scenario().narration[i].text)
        }
    });
    let seek = |id: u32| {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(Action::SeekCursor(id as usize + 1)))
    };

    // Every applied event of the current instant, oldest first: several things often
    // happen in the same millisecond (a resume, a write, a rejection).
    let instant: Vec<&crate::sim::Event> = match current {
        None => Vec::new(),
        Some(last) => trace.events()[..props.cursor]
            .iter()
            .rev()
            .take_while(|e| e.at_ms == last.at_ms)
            .take(6)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect(),
    };
    let event_box = if instant.is_empty() {
        html! { <p class="muted">{ m.t("player.before") }</p> }
    } else {
        html! { <>{ for instant.iter().map(|event| {
            // The prose in the learner's language: a rejection's why, a finding's explanation.
            let prose = m.note(&event.note);
            let why = match &event.kind {
                EventKind::Violation { explanation, .. } | EventKind::Warning { explanation, .. } => {
                    if prose.is_empty() { explanation.clone() } else { prose.clone() }
                }
                _ if !event.why.is_empty() => if prose.is_empty() { event.why.clone() } else { prose.clone() },
                _ => String::new(),
            };
            let fact = if event.why.is_empty() && !prose.is_empty() { prose.clone() } else { event.reply.clone() };
            let is_current = current.is_some_and(|c| c.id == event.id);
            let violation = crate::timeline::marker_class(&event.kind) == crate::timeline::MarkerClass::Violation;
            html! {
                <div class={classes!("current", violation.then_some("is-violation"), is_current.then_some("is-current"))}>
                    <p class="event-head">
                        <span class="who">{ trace.actor_name(event.actor) }</span>
                        { " " }<span class="tag">{ event.kind.tag().replace('-', " ") }</span>
                        { " " }{ m.t("player.at") }{ " " }{ secs(event.at_ms) }
                    </p>
                    if !event.command.is_empty() {
                        <pre class="command" data-testid="command"><code>{ format!("{}\n-> {}", event.command, event.reply) }</code></pre>
                    } else if !fact.is_empty() {
                        <p class="fact">{ fact }</p>
                    }
                    if !why.is_empty() {
                        <div class="why" data-testid="why">
                            <strong>{ m.t("player.why") }{ " " }</strong>{ why }
                            if !event.causes.is_empty() {
                                <span class="causes">{ " " }{ m.t("player.see") }{ " " }
                                    { for event.causes.iter().map(|&c| {
                                        let cause = &trace.events()[c as usize];
                                        html! { <button class="link" onclick={seek(c)}>{ format!("#{c} {} {} at {}", trace.actor_name(cause.actor), cause.kind.tag().replace('-', " "), secs(cause.at_ms)) }</button> }
                                    }) }
                                </span>
                            }
                        </div>
                    }
                </div>
            }
        }) }</> }
    };

    let nodes = state.nodes.iter().map(|node| {
        let clock = node.clock_ms(t);
        let role = match (node.up, node.role) {
            (false, _) => m.t("node.down"),
            (true, Role::Primary) => m.t("node.primary"),
            (true, Role::Replica { of }) => m.tf("node.replica", &[("name", &state.nodes[usize::from(of)].name)]),
            (true, Role::Peer) => m.t("node.peer"),
        };
        let keys = node.keyspace.iter().map(|(key, entry)| {
            let hidden = entry.expire_at_ms.is_some_and(|d| clock > d);
            let pttl = match entry.expire_at_ms {
                None => m.t("pttl.none"),
                Some(_) if hidden => m.t("pttl.hidden"),
                Some(d) => format!("{} ms", (d - clock).max(0)),
            };
            html! {
                <tr data-testid="redis-key" data-node={node.name.clone()} data-key={key.clone()} class={classes!(hidden.then_some("hidden"))}>
                    <td><code>{ key }</code></td><td><code>{ &entry.value }</code></td><td>{ pttl }</td>
                </tr>
            }
        });
        html! {
            <div class="node">
                <h4>{ &node.name }<span class="muted">{ format!(" {role}, {}", m.tf("node.clock", &[("offset", &format!("{}{}", if node.clock_offset_ms >= 0 { "+" } else { "-" }, secs(node.clock_offset_ms.unsigned_abs())))])) }</span></h4>
                if node.keyspace.is_empty() {
                    <p class="muted">{ m.t("node.no_keys") }</p>
                } else {
                    <table class="keys"><thead><tr><th>{ m.t("col.key") }</th><th>{ m.t("col.value") }</th><th>{ m.t("col.pttl") }</th></tr></thead>
                    <tbody>{ for keys }</tbody></table>
                }
            </div>
        }
    });

    // The truth a worker cannot see: who the current primary (or a majority) says holds it.
    let truth_holder = state.primary.and_then(|p| {
        let node = &state.nodes[usize::from(p)];
        node.keyspace.peek(lock_key, node.clock_ms(t)).map(|e| e.value.clone())
    });
    let workers = state.workers.iter().map(|w| {
        let activity = match w.activity {
            Activity::Waiting => m.t("worker.not_started"),
            Activity::Running => m.t("worker.running"),
            Activity::Paused { until_ms } => m.tf("worker.paused", &[("t", &secs(until_ms))]),
            Activity::Hung { until_ms } => m.tf("worker.hung", &[("t", &secs(until_ms))]),
            Activity::Blocked => m.t("worker.blocked"),
            Activity::Crashed => m.t("worker.crashed"),
            Activity::Done => m.t("worker.done"),
        };
        let token = w.lease.as_ref().and_then(|l| l.token).map_or("-".to_owned(), |tk| token_text(source, tk));
        let belief = match &w.belief {
            Some(b) if t <= b.until_ms => m.tf("belief.holds", &[("t", &secs(b.until_ms))]),
            Some(b) => m.tf("belief.stale", &[("t", &secs(b.until_ms))]),
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
        let gap = w.belief.is_some() && truth_holder.as_deref().is_some_and(|h| Some(h) != own_value);
        html! {
            <tr data-testid="worker" data-name={w.name.clone()} class={classes!(gap.then_some("gap"))}>
                <td><strong>{ &w.name }</strong></td><td>{ activity }</td><td>{ token }</td><td>{ belief }</td><td>{ truth }</td>
            </tr>
        }
    });

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
    html! {
        <div class="inspector" data-testid="inspector">
            <section class="now">
                <h3>{ m.t("player.now") }</h3>
                { event_box }
                <p class="narration" data-testid="narration" aria-live="polite">{ narration_text.unwrap_or_default() }</p>
            </section>
            <section>
                <h3>{ m.t("player.workers") }</h3>
                <table class="workers"><thead><tr><th>{ m.t("col.worker") }</th><th>{ m.t("col.state") }</th><th>{ m.t("col.token") }</th><th>{ m.t("col.believes") }</th><th>{ m.t(if consensus { "col.store_says" } else { "col.redis_says" }) }</th></tr></thead>
                <tbody>{ for workers }</tbody></table>
            </section>
            <section>
                <h3>{ m.t(if consensus { "player.store" } else { "player.redis" }) }</h3>
                { for nodes }
            </section>
            <section>
                <h3>{ m.t("player.database") }</h3>
                <table class="rows"><thead><tr><th>{ "id" }</th><th>{ "status" }</th><th>{ "amount" }</th><th>{ "last_fence" }</th><th>{ "updated_by" }</th></tr></thead>
                <tbody>
                    <tr data-testid="sql-row" data-id={order.id.to_string()}>
                        <td>{ order.id }</td><td>{ &order.status }</td><td>{ order.amount }</td>
                        <td data-testid="last-fence">{ token_text(source, order.last_fence) }</td><td>{ &order.updated_by }</td>
                    </tr>
                </tbody></table>
                if let Some(holder) = state.row_lock {
                    <p>{ m.tf("db.row_lock", &[("name", &state.workers[usize::from(holder)].name)]) }</p>
                }
                <p>{ facts.join(" · ") }</p>
            </section>
        </div>
    }
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
    let bad = !props.trace.summary().violations.is_empty();
    html! {
        <div class={classes!("verdict", bad.then_some("bad"))} data-testid="verdict" role="status">
            <strong>{ if bad { "⚠ " } else { "✓ " } }</strong>
            { text }
            if props.changed { <span class="forked">{ " " }{ m.t("verdict.whatif") }</span> }
        </div>
    }
}

/// A one-line outcome of a whole run, in the learner's language.
pub(crate) fn verdict_text(m: &crate::i18n::Messages, trace: &crate::sim::Trace) -> String {
    let summary = trace.summary();
    let accepted = summary.writes.iter().filter(|w| w.rows > 0).count();
    let rejected = summary.writes.len() - accepted;
    let mut parts = Vec::new();
    if summary.violations.is_empty() {
        parts.push(m.t("verdict.ok"));
    } else {
        // Plain words first, the property's name after them for those who want it.
        let sentences: Vec<String> = crate::verdict::plain(trace)
            .iter()
            .map(|p| {
                let args: Vec<(&str, &str)> =
                    p.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let sentence = m.tf(&p.key, &args);
                m.tf("verdict.property", &[("sentence", &sentence), ("property", p.property)])
            })
            .collect();
        parts.push(m.tf("verdict.violated", &[("list", &sentences.join("; "))]));
    }
    parts.push(m.tf(
        "verdict.writes",
        &[("accepted", &accepted.to_string()), ("rejected", &rejected.to_string())],
    ));
    if summary.charges > 0 {
        parts.push(m.tf("verdict.charges", &[("n", &summary.charges.to_string())]));
    }
    for warning in &summary.warnings {
        parts.push(m.tf("verdict.warning", &[("name", &warning.name)]));
    }
    parts.join("; ")
}
