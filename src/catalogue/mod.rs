//! The built-in scenarios (the curriculum), looked up by id.
//!
//! Owns the list and its chapters; it must not simulate (callers run `sim::run`).

use crate::catalogue::lesson::Scenario;
use crate::sim::scenario::ScenarioId;

pub mod anchor;
pub mod builtin;
pub mod codec;
pub mod facts;
pub mod lesson;
pub mod load;
pub mod narration;

/// What the home page shows of one built-in: its card, without the lesson itself. It
/// carries no outcome badge: a card must not give away what its lesson has the learner
/// predict.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    pub id: ScenarioId,
    pub title: String,
    pub chapter: String,
    pub goal: String,
    /// On the short core path the home page marks "start here".
    pub core: bool,
    /// About how long the lesson takes (build.rs: its paragraphs and predictions).
    pub minutes: u32,
}

// `INDEX`: every built-in's card, in curriculum order (build.rs): one string, a card to a
// line, its id, title, chapter and goal separated by a tab. One string rather than a table
// of string slices, because the slices' addresses (8 bytes each, four to a card) do not
// compress and cost the first page more than the text itself.
include!(concat!(env!("OUT_DIR"), "/index.rs"));

/// Every built-in's card, in curriculum order. The main page lists these and fetches a
/// lesson only when it is opened, so it never carries every lesson's text. Made once.
pub fn index() -> &'static [Entry] {
    static ENTRIES: std::sync::OnceLock<Vec<Entry>> = std::sync::OnceLock::new();
    ENTRIES.get_or_init(|| {
        // A lesson whose id breaks the rule gets no card; the native tests name it.
        INDEX
            .lines()
            .filter_map(|line| {
                let mut fields = line.split('\t');
                let mut next = || fields.next().unwrap_or_default().to_owned();
                let (id, title, chapter, goal) = (next(), next(), next(), next());
                let core = next() == "*";
                let minutes = next().parse().unwrap_or(0);
                Some(Entry { id: ScenarioId::parse(&id)?, title, chapter, goal, core, minutes })
            })
            .collect()
    })
}

/// Whether `id` names a built-in (or one that was renamed).
pub fn is_builtin(id: &str) -> bool {
    let id = canonical_id(id);
    index().iter().any(|e| e.id == id)
}

/// The id a built-in goes by now: `id` itself, or the new id of a renamed one.
pub fn canonical_id(id: &str) -> &str {
    RENAMED.iter().find(|(old, _)| *old == id).map_or(id, |(_, new)| *new)
}

/// Every built-in scenario, in curriculum order.
pub fn all() -> Vec<Scenario> {
    builtin::all()
}

/// Built-ins that were renamed, old id first: links and embeds made before keep working.
pub const RENAMED: &[(&str, &str)] = &[("failover-consensus-counter", "consensus-lock-revision")];

/// The built-in scenario with this id (or the one it was renamed to); only its own file is
/// parsed.
pub fn find(id: &str) -> Option<Scenario> {
    builtin::find(canonical_id(id))
}
