//! A lesson: what the learner reads around a scenario's [`Setup`] (title, summary,
//! narration, prediction prompts, the promised outcome, the facts its text states and the
//! rules it teaches), as plain data in the format's vocabulary. The model never sees it
//! (`sim` cannot name this module): it is given the setup alone.
//!
//! Owns the lesson's members and their shape in a file; `file` holds the file's one flat
//! object (the lesson's members and the setup's side by side), `form` the flat shapes of
//! facts and anchors. No behaviour: `catalogue::facts` and `catalogue::narration` check and
//! place these against a trace.

use serde::{Deserialize, Serialize};

use crate::sim::event::RowCount;
use crate::sim::scenario::{ScenarioId, Setup};

mod file;
mod form;

pub use file::ScenarioFile;
pub use form::FactKind;

/// A lesson around a setup: what the learner reads (title, narration, prompts, the
/// promised outcome and the facts they state) and the [`Setup`] the model runs. The
/// catalogue and the builder hold scenarios; the simulator is given only their setup.
///
/// Read through its file form ([`ScenarioFile`], then [`Scenario::from_file`]), which
/// resolves the names its faults give; written as that form.
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(into = "ScenarioFile")]
pub struct Scenario {
    /// The file format version; this build reads 1.
    pub format: u32,
    pub id: ScenarioId,
    pub title: String,
    pub chapter: String,
    pub summary: String,
    pub goal: String,
    /// What the model runs.
    pub setup: Setup,
    /// What the learner reads at each step that matters.
    pub narration: Vec<Narration>,
    /// The outcome the scenario is written to show; a native test runs it and compares.
    pub expect: Option<Expected>,
    /// Prediction questions: playback stops at each and asks the learner.
    pub prompts: Vec<Prompt>,
    /// The facts the title, summary and goal state about the run (checked against the
    /// trace by a native test).
    pub claims: Vec<Fact>,
    /// The rules the lesson teaches, as claims about every schedule near its own (checked
    /// by the schedule search: `tests/soundness`, `fence lesson`).
    pub rules: Vec<Rule>,
    /// "In your code": how the lesson's mechanism is spelled in the libraries people use.
    /// Each name it cites is in backticks and listed with its source in
    /// `docs/library-names.json` (a native test checks). Empty: no panel.
    pub in_code: String,
}

/// A rule a lesson teaches: that some properties hold in every schedule of a space, or
/// that some schedule of it breaks one. Data only; `search::check_rule` checks it.
#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The rule in the lesson's words (for its author and `fence lesson`).
    pub says: String,
    /// Property names (`no-stale-accept`, ...).
    pub properties: Vec<String>,
    pub outcome: RuleOutcome,
    /// Which of the lesson's own times may move.
    #[serde(default)]
    pub vary: RuleVary,
    /// At most this many added faults (0 to 3) ...
    #[serde(default)]
    pub faults: u32,
    /// ... from these (`pause`, `crash`, `lost-reply`, `delay`, `failover`, `restart`,
    /// `clock-jump`); none: the palette the setup can suffer.
    #[serde(default)]
    pub add: Vec<String>,
    /// The sentence of the lesson's summary or goal the rule proves, word for word: where a
    /// lesson's text states a rule, or the condition under which its outcome holds, the
    /// rule that checks it says so (tests/soundness holds the two together). Empty: none.
    /// (Written even when empty: the baked lessons' binary form has no optional fields.)
    #[serde(default)]
    pub backs: String,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleOutcome {
    /// No schedule of the space breaks any of the properties.
    Holds,
    /// Some schedule of the space breaks one of them.
    Breaks,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleVary {
    /// Each fault's moment and length, each worker's start, work and backoff.
    #[default]
    Times,
    /// The lesson's own times stay.
    Nothing,
}

/// "What happens next?": asked when the cursor reaches `at`.
#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Prompt {
    pub at: Anchor,
    pub question: String,
    pub options: Vec<String>,
    /// Index of the correct option.
    pub answer: usize,
    pub explanation: String,
    /// The facts the question and its explanation rest on.
    #[serde(default)]
    pub facts: Vec<Fact>,
}

/// One paragraph of narration, pinned to an event or a time.
#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Narration {
    pub at: Anchor,
    pub text: String,
    /// The facts the paragraph states about the run; a what-if run that breaks one does
    /// not show the paragraph.
    #[serde(default)]
    pub facts: Vec<Fact>,
}

/// One checkable claim about a run, in the vocabulary shared by narration, prompts,
/// summaries and the quiz (`catalogue::facts` checks it against a trace).
#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "form::FactForm", into = "form::FactForm")]
pub enum Fact {
    /// The `nth` write by `worker` matched `rows` rows (and carried `token`, if given).
    Write { worker: String, nth: usize, rows: RowCount, token: Option<i64> },
    /// The `nth` grant to `worker` carried `token` (none: a lock without a token).
    Grant { worker: String, nth: usize, token: Option<i64> },
    /// This safety property was violated at least once.
    Violation { property: String },
    /// No safety property was violated.
    NoViolations,
    /// This liveness warning was raised.
    Warning { kind: String },
    /// Real charges at the gateway.
    Charges { count: u32 },
    /// Whether two workers ever believed they held the lock at once.
    Overlap { present: bool },
    /// An event matching the anchor exists (and has this reply, if given).
    Event { at: Anchor, reply: Option<String> },
    /// No event matches the anchor.
    NoEvent { at: Anchor },
    /// Right after the anchored event, `key` on `node` (default: the primary, else the
    /// first node) is in this state, as a read there would see it.
    Key { after: Anchor, key: String, node: Option<String>, is: KeyIs },
    /// Right after the anchored event, the order row has these values.
    Row {
        after: Anchor,
        last_fence: Option<i64>,
        status: Option<String>,
        updated_by: Option<String>,
    },
    /// The first anchored event comes before the second.
    Before { first: Anchor, then: Anchor },
    /// Right after the anchored event, `worker` believes (or not) that it holds the lock.
    Belief { after: Anchor, worker: String, holds: bool },
}

/// What a key holds, for [`Fact::Key`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum KeyIs {
    Absent,
    /// A lock value made for this worker (see `state::lock_value`).
    OwnedBy(String),
    Value(String),
}

/// Where a narration or prompt belongs: the `nth` event of kind `event` (by `actor`), or
/// the first event at or after `at_ms`.
#[derive(Clone, Debug, Default, Eq, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "form::AnchorForm", into = "form::AnchorForm")]
pub struct Anchor {
    /// An event tag such as `granted` or `write-rejected`.
    pub event: Option<String>,
    /// A worker or node name, or `db`, `checker`, ...
    pub actor: Option<String>,
    /// 1 for the first matching event (the default), 2 for the second, ...
    pub nth: Option<u32>,
    pub at_ms: Option<u64>,
}

/// The outcome a scenario promises.
#[derive(Clone, Debug, Default, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The short outcome shown on the card, e.g. "stale write rejected".
    pub badge: String,
    /// Violated properties, in trace order (empty: none).
    #[serde(default)]
    pub violations: Vec<String>,
    /// Liveness warnings, in trace order.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Writes to the order row that matched a row, and that matched none.
    pub accepted: u32,
    pub rejected: u32,
    /// Real charges at the gateway (replays excluded).
    #[serde(default)]
    pub charges: u32,
    /// Whether two workers ever believed they held the lock at once.
    pub overlap: bool,
    /// Whether the promised outcome is a bad one (the badge's tone). Without it, a run
    /// with a violation or a liveness warning is bad; an author says so for other bad ends
    /// (every worker gave up and nothing was done).
    pub bad: Option<bool>,
}

impl Expected {
    /// The badge's tone: bad for violations, liveness warnings, or when the author says so.
    pub fn is_bad(&self) -> bool {
        self.bad.unwrap_or(!self.violations.is_empty() || !self.warnings.is_empty())
    }
}
