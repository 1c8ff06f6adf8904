//! The built-in scenarios (the curriculum), looked up by id.
//!
//! Owns the list and its chapters; it must not simulate (callers run `sim::run`).

use crate::sim::Scenario;
use crate::sim::scenario::ScenarioId;

pub mod builtin;
pub mod codec;
pub mod facts;
pub mod load;
pub mod narration;

/// What the home page shows of one built-in: its card, without the lesson itself.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    pub id: ScenarioId,
    pub title: String,
    pub chapter: String,
    pub goal: String,
    pub badge: String,
    /// Whether the promised outcome breaks a safety property (the badge's tone).
    pub bad: bool,
}

/// The catalogue index written by build.rs (`index.json`), compiled in.
pub const INDEX_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/index.json"));

/// Every built-in's card, in curriculum order. The main page lists these and fetches a
/// lesson only when it is opened, so it never carries every lesson's text. Parsed once.
pub fn index() -> &'static [Entry] {
    static INDEX: std::sync::OnceLock<Vec<Entry>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let Ok(root) = crate::json::parse(INDEX_JSON) else { return Vec::new() };
        let crate::json::Value::Array(items) = root.value else { return Vec::new() };
        items.iter().filter_map(entry).collect()
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

fn entry(node: &crate::json::Node) -> Option<Entry> {
    use crate::json::Value;
    let Value::Object(members) = &node.value else { return None };
    let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| &v.value);
    let text = |key: &str| match get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    Some(Entry {
        id: ScenarioId::parse(&text("id")?)?,
        title: text("title")?,
        chapter: text("chapter")?,
        goal: text("goal")?,
        badge: text("badge")?,
        bad: matches!(get("bad"), Some(Value::Bool(true))),
    })
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
