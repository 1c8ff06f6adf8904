//! Text rendering of a trace: one aligned line per event, used by snapshot tests, the CLI
//! and the UI's event log. Pure formatting; it must not compute facts of its own.

use crate::sim::check::secs;
use crate::sim::event::{Event, EventKind};
use crate::sim::trace::Trace;

/// The whole trace, one line per event, each ending in `\n`.
pub fn render(trace: &Trace) -> String {
    let mut out = String::new();
    for event in trace.events() {
        out.push_str(&line(trace, event));
        out.push('\n');
    }
    if let Some((at, events)) = trace.cut_short() {
        out.push_str(&format!(
            "# CUT SHORT at {at} after {events} events (the model's limit): nothing after that moment was simulated or checked\n"
        ));
    }
    out
}

/// One event: `#3       31.000 s  B        granted         EVAL <acquire> ... -> [1, 34]`.
/// The `#id` comes first so that lines never start with blanks and causes can refer to it.
pub fn line(trace: &Trace, event: &Event) -> String {
    let actor = trace.actor_name(event.actor);
    let body = match &event.kind {
        EventKind::Violation { property, explanation } => {
            format!("VIOLATION {}: {explanation}", property.name())
        }
        EventKind::Warning { kind, explanation } => {
            format!("WARNING {}: {explanation}", kind.name())
        }
        _ if event.command.is_empty() => event.reply.clone(),
        _ if event.reply.is_empty() => event.command.clone(),
        _ => format!("{} -> {}", event.command, event.reply),
    };
    let why = if event.why.is_empty() { String::new() } else { format!("  # {}", event.why) };
    let causes = match event.causes.as_slice() {
        [] => String::new(),
        ids => {
            let ids: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
            format!("  (after {})", ids.join(", "))
        }
    };
    let id = format!("#{}", event.id);
    format!(
        "{id:<5} {:>10}  {:<8} {:<15} {body}{why}{causes}",
        secs(event.at_ms),
        actor,
        event.kind.tag()
    )
    .trim_end()
    .to_owned()
}

impl Trace {
    /// A stable 64-bit FNV-1a digest of the text rendering (the determinism fingerprint).
    pub fn digest(&self) -> u64 {
        let text = render(self);
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }
}
