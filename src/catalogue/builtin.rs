//! The built-in scenario files, compiled in from `static/scenarios/` (without indentation,
//! in the order of `curriculum.txt`, see `build.rs`) for the native tools, the tests and the
//! lab page. The main page does not link them: it shows the catalogue index and fetches a
//! lesson when it is opened (see `catalogue::index` and `ui::player::FetchedPlayer`).
//!
//! Owns only the list of files; parsing errors in a built-in are caught by a native test.

use crate::catalogue::lesson::Scenario;

// `FILES`: each built-in's id and JSON text, in the order of curriculum.txt (build.rs).
include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));

pub fn all() -> Vec<Scenario> {
    // A built-in that fails to parse is skipped here and reported by the native test
    // `every_builtin_parses`, so the page never dies on a bad file.
    (0..FILES.len()).filter_map(parsed).collect()
}

/// The built-in with this id, parsing only its own file, once.
pub fn find(id: &str) -> Option<Scenario> {
    FILES.iter().position(|(file_id, _)| *file_id == id).and_then(parsed)
}

/// The `i`th built-in, parsed the first time it is asked for and kept: the lab, the quiz
/// and the CLI look the same lessons up many times.
fn parsed(i: usize) -> Option<Scenario> {
    static PARSED: std::sync::OnceLock<Vec<std::sync::OnceLock<Option<Scenario>>>> =
        std::sync::OnceLock::new();
    let slots = PARSED.get_or_init(|| FILES.iter().map(|_| std::sync::OnceLock::new()).collect());
    let (_, text) = FILES.get(i)?;
    slots.get(i)?.get_or_init(|| crate::catalogue::load::parse_scenario(text).ok()).clone()
}
