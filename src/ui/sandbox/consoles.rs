//! The sandbox's two consoles: Redis (redis-cli's syntax and replies on the model's
//! keyspace) and SQL (two psql sessions on the model's database). It renders the pure
//! consoles of `console`; it never evaluates a command itself.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::console::line::{Completion, History, REDIS_WORDS, SQL_WORDS, Words, complete};
use crate::console::redis::RedisConsole;
use crate::console::sql::{Session, SqlConsole};
use crate::sim::scenario::TokenSource;
use crate::ui::i18n::use_i18n;

/// Commands a learner can click to try (the Try Redis anchor).
const REDIS_EXAMPLES: [&str; 7] = [
    "SET fence:order:42 32",
    "EVAL <acquire> 2 lock:order:42 fence:order:42 A 30000",
    "PTTL lock:order:42",
    "ADVANCE 30001",
    "EVAL <acquire> 2 lock:order:42 fence:order:42 B 30000",
    "EVAL <release> 1 lock:order:42 A",
    "GET fence:order:42",
];

/// What a console input does with a key besides typing: ↑/↓ walk the history, Tab
/// completes (listing the choices when several fit), Enter runs. `Some` is the new text of
/// the input; the listed choices go to `show`.
fn console_key(
    e: &KeyboardEvent,
    text: &str,
    history: &mut History,
    words: Words,
    show: impl FnOnce(String),
) -> Option<String> {
    let next = match e.key().as_str() {
        "ArrowUp" => history.up(text),
        "ArrowDown" => history.down(),
        // Tab completes only a word being typed; on a blank or finished word it moves the
        // focus on, as everywhere else (no keyboard trap).
        "Tab" => match complete(text, words) {
            Completion::Line(line) => Some(line),
            Completion::Choices(choices) => {
                show(choices.join("  "));
                Some(text.to_owned())
            }
            Completion::Nothing => return None,
        },
        _ => return None,
    };
    e.prevent_default();
    next
}

/// Keeps a console's log scrolled to its newest line.
#[hook]
fn use_follow(log: NodeRef, len: usize) {
    use_effect_with(len, move |_| {
        if let Some(el) = log.cast::<web_sys::Element>() {
            el.set_scroll_top(el.scroll_height());
        }
        || ()
    });
}

#[component]
pub(super) fn RedisPanel() -> Html {
    let m = use_i18n();
    let console = use_mut_ref(|| RedisConsole::new(0));
    let history = use_mut_ref(History::default);
    let log = use_state(Vec::<(String, String)>::new);
    let line = use_state(String::new);
    let log_ref = use_node_ref();
    use_follow(log_ref.clone(), log.len());
    let push = {
        let log = log.clone();
        Rc::new(move |input: String, reply: String| {
            let mut next = (*log).clone();
            next.push((input, reply));
            // Keep the page light: the last 200 exchanges are plenty to read back.
            let excess = next.len().saturating_sub(200);
            next.drain(..excess);
            log.set(next);
        })
    };
    let run = {
        let console = console.clone();
        let history = history.clone();
        let line = line.clone();
        let push = push.clone();
        Rc::new(move |input: String| {
            if input.trim().is_empty() {
                return;
            }
            history.borrow_mut().push(&input);
            let reply = console.borrow_mut().run_line(&input);
            push(input, reply);
            line.set(String::new());
        })
    };
    let on_key = {
        let run = run.clone();
        let line = line.clone();
        let push = push.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                run((*line).clone());
                return;
            }
            let typed = (*line).clone();
            let shown = typed.clone();
            let push = push.clone();
            let next =
                console_key(&e, &typed, &mut history.borrow_mut(), REDIS_WORDS, move |choices| {
                    push(shown, choices)
                });
            if let Some(next) = next {
                line.set(next);
            }
        })
    };
    let on_input = {
        let line = line.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                line.set(i.value());
            }
        })
    };
    let now_ms = console.borrow().now_ms;
    html! {
        <section class="panel console" aria-labelledby="redis-title" data-testid="redis-console">
            <h2 id="redis-title">{ m.lab("sandbox.redis") }</h2>
            <p class="note">{ m.lab("sandbox.redis_note") }</p>
            <div class="examples">
                { for REDIS_EXAMPLES.iter().map(|ex| {
                    let run = run.clone();
                    let text = (*ex).to_owned();
                    html! { <button class="example code" onclick={Callback::from(move |_| run(text.clone()))}>{ *ex }</button> }
                }) }
            </div>
            <pre class="console-log" aria-live="polite" data-testid="redis-log" ref={log_ref}>
                { for log.iter().map(|(input, reply)| html! { <>{ format!("redis> {input}\n{reply}\n") }</> }) }
            </pre>
            <label class="prompt"><span>{ format!("redis (t = {now_ms} ms)>") }</span>
                <input class="code" data-testid="redis-input" aria-label={m.lab("sandbox.redis_input")} value={(*line).clone()} oninput={on_input} onkeydown={on_key} />
            </label>
        </section>
    }
}

/// The table and row a run starts with, made by the simulator's own statements, so the
/// player's UPDATE runs here as it is.
fn sql_setup() -> String {
    let [create, insert] = crate::sim::world::setup_statements(42, 0, 0, TokenSource::RedisIncr);
    format!("{create}; {insert};")
}

#[component]
pub(super) fn SqlPanel() -> Html {
    let m = use_i18n();
    let console: Rc<RefCell<SqlConsole>> = use_mut_ref(SqlConsole::new);
    let histories = use_mut_ref(|| [History::default(), History::default()]);
    let log = use_state(Vec::<(Session, String)>::new);
    let lines = use_state(|| [String::new(), String::new()]);
    let log_ref = use_node_ref();
    use_follow(log_ref.clone(), log.len());
    let run = {
        let console = console.clone();
        let histories = histories.clone();
        let log = log.clone();
        let lines = lines.clone();
        Rc::new(move |session: Session, input: String| {
            if input.trim().is_empty() {
                return;
            }
            histories.borrow_mut()[usize::from(session == Session::B)].push(&input);
            let trimmed = input.trim();
            // `help` (psql prints its own help for it) and `\?` list what the model runs.
            let outputs = match trimmed.eq_ignore_ascii_case("help") || trimmed == "\\?" {
                true => vec![crate::console::sql::Output {
                    session,
                    text: crate::console::sql::HELP.to_owned(),
                    waiting: false,
                }],
                false => console.borrow_mut().run(session, &input),
            };
            let mut next = (*log).clone();
            next.push((session, format!("{}=> {}", session.name(), input.trim())));
            next.extend(outputs.into_iter().map(|o| (o.session, o.text)));
            let excess = next.len().saturating_sub(400);
            next.drain(..excess);
            log.set(next);
            let mut cleared = (*lines).clone();
            cleared[usize::from(session == Session::B)] = String::new();
            lines.set(cleared);
        })
    };
    let session_input = |session: Session| {
        let index = usize::from(session == Session::B);
        let on_input = {
            let lines = lines.clone();
            Callback::from(move |e: InputEvent| {
                if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                    let mut next = (*lines).clone();
                    next[index] = i.value();
                    lines.set(next);
                }
            })
        };
        let on_key = {
            let run = run.clone();
            let lines = lines.clone();
            let histories = histories.clone();
            let log = log.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    run(session, lines[index].clone());
                    return;
                }
                let typed = lines[index].clone();
                let log = log.clone();
                let shown = format!("{}=> {typed}", session.name());
                let show = move |choices: String| {
                    let mut next = (*log).clone();
                    next.push((session, shown));
                    next.push((session, choices));
                    log.set(next);
                };
                let next =
                    console_key(&e, &typed, &mut histories.borrow_mut()[index], SQL_WORDS, show);
                if let Some(text) = next {
                    let mut all = (*lines).clone();
                    all[index] = text;
                    lines.set(all);
                }
            })
        };
        let waiting = console.borrow().is_waiting(session);
        html! {
            <label class={classes!("prompt", waiting.then_some("waiting"))}>
                <span>{ format!("{}=>", session.name()) }</span>
                <input class="code" data-testid={format!("sql-input-{}", session.name())} aria-label={m.labf("sandbox.sql_input", &[("session", session.name())])}
                    value={lines[index].clone()} oninput={on_input} onkeydown={on_key} />
                if waiting { <span class="badge">{ m.lab("sandbox.waiting") }</span> }
            </label>
        }
    };
    let on_setup = {
        let run = run.clone();
        Callback::from(move |_| run(Session::A, sql_setup()))
    };
    html! {
        <section class="panel console" aria-labelledby="sql-title" data-testid="sql-console">
            <h2 id="sql-title">{ m.lab("sandbox.sql") }</h2>
            <p class="note">{ m.lab("sandbox.sql_note") }</p>
            <div class="examples"><button class="example" data-testid="sql-setup" onclick={on_setup}>{ m.lab("sandbox.sql_setup") }</button></div>
            <pre class="console-log" aria-live="polite" data-testid="sql-log" ref={log_ref}>
                { for log.iter().map(|(session, text)| html! { <span class={classes!("line", format!("s-{}", session.name()))}>{ format!("{text}\n") }</span> }) }
            </pre>
            <div class="sessions">
                { session_input(Session::A) }
                { session_input(Session::B) }
            </div>
        </section>
    }
}
