//! The way through the course: the lesson before and after each one, the short core path
//! the home page marks "start here", and the lessons a learner has finished as stored in localStorage. Pure: text in, text out;
//! the shell stores, and it never runs the model.

use crate::catalogue::{self, Entry};
use crate::i18n::Messages;
use crate::markup::Markup;
use crate::route::{Link, View};

/// The localStorage key of the finished lessons: their ids, separated by spaces.
pub const STORAGE_KEY: &str = "fencing-playground/lessons-finished/v1";

/// The lessons a learner has seen to their last step, in the order they were finished.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Finished {
    /// Built-in ids, each once, separated by single spaces: the stored text itself (a
    /// list kept as text costs the first page less code than a vector of ids).
    text: String,
}

impl Finished {
    /// Reads the stored list. Any text reads: a word that names no built-in (a lesson
    /// renamed away, a hand edit, another app's data) is left out, so a damaged record
    /// loses only what it damaged and never stops a page; a long one is read only as far as
    /// twice the catalogue's length in words.
    pub fn read(text: &str) -> Finished {
        let mut finished = Finished::default();
        for word in text.split_ascii_whitespace().take(catalogue::index().len() * 2) {
            finished.add(word);
        }
        finished
    }

    /// The text to store.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn contains(&self, id: &str) -> bool {
        let id = catalogue::canonical_id(id);
        self.text.split(' ').any(|word| word == id)
    }

    /// Marks `id` finished; whether it was not already (a built-in only).
    pub fn add(&mut self, id: &str) -> bool {
        let id = catalogue::canonical_id(id);
        if !catalogue::is_builtin(id) || self.contains(id) {
            return false;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(id);
        true
    }

    pub fn len(&self) -> usize {
        self.text.split(' ').filter(|word| !word.is_empty()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// The lessons before and after `id` (`None` at either end, and both for a lesson that is
/// not a built-in): on the core path, its neighbours there (a newcomer who started there
/// stays on it); off it, in curriculum order.
pub fn neighbours(id: &str) -> (Option<&'static Entry>, Option<&'static Entry>) {
    let index = catalogue::index();
    let on_path = index.iter().any(|e| e.core && e.id.as_str() == id);
    let way: Vec<&Entry> = index.iter().filter(|e| e.core || !on_path).collect();
    match way.iter().position(|e| e.id.as_str() == id) {
        Some(i) => (i.checked_sub(1).and_then(|j| way.get(j)).copied(), way.get(i + 1).copied()),
        None => (None, None),
    }
}

/// The title a learner may read of `entry` now: its setup (before the colon, where the
/// titles state their outcome) until the lesson is finished, then the whole title.
pub fn shown_title(m: &Messages, entry: &Entry, finished: &Finished) -> String {
    let full = m.content(&format!("s.{}.title", entry.id), &entry.title);
    match finished.contains(entry.id.as_str()) {
        true => full,
        false => crate::player::setup_title(&full).to_owned(),
    }
}

/// The lessons before and after `id` within `unit` (a course package's chapter, in its
/// order): a module's links never lead out of it. `None` for either end, and both for a
/// lesson outside the unit (a quiz module's "Show me").
pub fn neighbours_in(
    id: &str,
    unit: &[String],
) -> (Option<&'static Entry>, Option<&'static Entry>) {
    let entry =
        |i: usize| unit.get(i).and_then(|u| catalogue::index().iter().find(|e| e.id.as_str() == u));
    match unit.iter().position(|u| u == id) {
        Some(i) => (i.checked_sub(1).and_then(entry), entry(i + 1)),
        None => (None, None),
    }
}

/// The way on from lesson `id`, below its player: "you have seen it to its end" once the
/// cursor is there (`at_end`), then links to the lessons before and after it (within
/// `unit`, a course package's module, when there is one).
pub fn way_on(
    m: &Messages,
    id: &str,
    finished: &Finished,
    at_end: bool,
    unit: Option<&[String]>,
) -> Markup {
    let mut o = Markup::new();
    let class = if at_end { "way-on at-end" } else { "way-on" };
    let label = m.t("player.way_on");
    o.open("nav", &[("class", class), ("data-testid", "way-on"), ("aria-label", &label)]);
    if at_end {
        o.element("p", &[("data-testid", "lesson-done")], &m.t("player.done"));
    }
    let (previous, next) = match unit {
        Some(unit) => neighbours_in(id, unit),
        None => neighbours(id),
    };
    for (entry, key, testid) in
        [(previous, "player.previous", "previous-lesson"), (next, "player.next", "next-lesson")]
    {
        let Some(entry) = entry else { continue };
        let text = m.tf(key, &[("title", &shown_title(m, entry, finished))]);
        o.element("a", &[("href", &href(entry)), ("data-testid", testid)], &text);
    }
    // The challenges that practise this lesson; not inside a course module, whose way on
    // stays within it.
    let challenges: Vec<_> = crate::challenge::INDEX
        .iter()
        .filter(|(_, _, _, practises)| unit.is_none() && practises.contains(&id))
        .collect();
    if !challenges.is_empty() {
        o.open("p", &[("class", "challenge-link")]).text(&m.t("player.challenge_link"));
        for (challenge, _, title, _) in challenges {
            let href = format!("#/challenge/{challenge}");
            let title = m.content(&format!("c.{challenge}.title"), title);
            o.text(" ").element("a", &[("href", &href), ("data-testid", "challenge-link")], &title);
        }
        o.close("p");
    }
    o.close("nav");
    o
}

/// The home page: its title and lede, the core path with each lesson's time and what is
/// finished, the quiz (`questions` of them), then every lesson's card by chapter.
pub fn home(m: &Messages, finished: &Finished, questions: usize) -> Markup {
    let mut o = Markup::new();
    o.open("section", &[("class", "home"), ("data-testid", "home")]);
    o.element("h1", &[("class", "home-title")], &m.t("home.title"));
    o.element("p", &[("class", "lede")], &m.t("home.lede"));
    let path: Vec<&Entry> = core().collect();
    let minutes: u32 = path.iter().map(|e| e.minutes).sum();
    o.open("section", &[("class", "path"), ("data-testid", "core-path")]);
    o.element("h2", &[], &m.t("home.start"));
    let (n, min) = (path.len().to_string(), minutes.to_string());
    o.element("p", &[], &m.tf("home.start_lede", &[("n", &n), ("min", &min)])).open("ol", &[]);
    for entry in path {
        o.open("li", &[]).element("a", &[("href", &href(entry))], &shown_title(m, entry, finished));
        o.text(" · ");
        time_and_done(&mut o, m, entry, finished);
        o.close("li");
    }
    o.close("ol");
    if !finished.is_empty() {
        let (done, all) = (finished.len().to_string(), catalogue::index().len().to_string());
        let text = m.tf("home.progress", &[("done", &done), ("n", &all)]);
        o.element("p", &[("data-testid", "progress")], &text);
    }
    o.close("section").open("p", &[]);
    let quiz = m.tf("home.quiz", &[("n", &questions.to_string())]);
    o.element("a", &[("href", "#/quiz")], &quiz).close("p");
    let challenges = m.tf("home.challenges", &[("n", &crate::challenge::INDEX.len().to_string())]);
    o.open("p", &[]).element(
        "a",
        &[("href", "#/challenge"), ("data-testid", "home-challenges")],
        &challenges,
    );
    o.close("p");
    let mut chapter = "";
    for entry in catalogue::index() {
        if entry.chapter != chapter {
            if !chapter.is_empty() {
                o.close("ul").close("section");
            }
            chapter = &entry.chapter;
            o.open("section", &[("class", "chapter")]);
            o.element("h2", &[], &m.content(&format!("chapter.{chapter}"), chapter));
            o.open("ul", &[("class", "cards")]);
        }
        let id = entry.id.as_str();
        o.open("li", &[("class", "card"), ("data-testid", "scenario-card"), ("data-id", id)]);
        o.open("a", &[("href", &href(entry))]);
        o.element("h3", &[], &shown_title(m, entry, finished));
        o.element("p", &[], &m.content(&format!("s.{id}.goal"), &entry.goal));
        o.open("p", &[("class", "meta")]);
        time_and_done(&mut o, m, entry, finished);
        o.close("p").close("a").close("li");
    }
    if !chapter.is_empty() {
        o.close("ul").close("section");
    }
    o.close("section");
    o
}

/// "about 5 min", and "✓ finished" once it is.
fn time_and_done(o: &mut Markup, m: &Messages, entry: &Entry, finished: &Finished) {
    o.text(&m.tf("home.minutes", &[("n", &entry.minutes.to_string())]));
    if finished.contains(entry.id.as_str()) {
        o.text(" ");
        o.element("span", &[("class", "done"), ("data-testid", "finished")], &m.t("home.finished"));
    }
}

fn href(entry: &Entry) -> String {
    Link::to(View::Scenario { id: entry.id.clone() }).to_hash()
}

/// The core path, in curriculum order.
pub fn core() -> impl Iterator<Item = &'static Entry> {
    catalogue::index().iter().filter(|e| e.core)
}

#[cfg(test)]
mod tests {
    use super::{Finished, core, neighbours};
    use crate::catalogue;

    #[test]
    fn finished_lessons_survive_any_stored_text() {
        let mut finished = Finished::read(
            "gc-pause-fenced  nonsense\tgc-pause-unfenced \u{0}x gc-pause-fenced\u{0}",
        );
        assert_eq!(finished.text(), "gc-pause-fenced gc-pause-unfenced");
        assert!(!finished.add("gc-pause-fenced"), "already finished");
        assert!(!finished.add("not-a-lesson"));
        assert!(finished.add("failover-duplicate-token"));
        assert_eq!(finished.len(), 3);
        assert_eq!(Finished::read(finished.text()), finished);
        for hostile in ["", "\u{feff}", "{\"a\":1}", &"gc-pause-fenced ".repeat(100_000)] {
            assert!(Finished::read(hostile).len() <= 1, "{:.40}", hostile);
        }
    }

    /// A lesson on the core path links to its neighbours on the path; one off it, to its
    /// neighbours in curriculum order (the learner's walkthrough: "Next lesson" left the
    /// path it had been told to follow).
    #[test]
    fn every_lesson_links_to_its_neighbours_on_its_way() {
        let index = catalogue::index();
        let path: Vec<&catalogue::Entry> = core().collect();
        assert_eq!(neighbours(path[0].id.as_str()).0, None);
        assert_eq!(neighbours(path[path.len() - 1].id.as_str()).1, None);
        for pair in path.windows(2) {
            assert_eq!(neighbours(pair[0].id.as_str()).1, Some(pair[1]));
            assert_eq!(neighbours(pair[1].id.as_str()).0, Some(pair[0]));
        }
        for (i, entry) in index.iter().enumerate().filter(|(_, e)| !e.core) {
            let (before, after) = neighbours(entry.id.as_str());
            assert_eq!(before, i.checked_sub(1).and_then(|j| index.get(j)));
            assert_eq!(after, index.get(i + 1));
        }
        assert_eq!(neighbours("nope"), (None, None));
        // Inside a course package's chapter, its own order, and nothing beyond it.
        let unit = ["gc-pause-fenced".to_owned(), "gc-pause-unfenced".to_owned()];
        let ids = |(a, b): (Option<&catalogue::Entry>, Option<&catalogue::Entry>)| {
            (a.map(|e| e.id.to_string()), b.map(|e| e.id.to_string()))
        };
        assert_eq!(
            ids(super::neighbours_in("gc-pause-fenced", &unit)),
            (None, Some("gc-pause-unfenced".to_owned()))
        );
        assert_eq!(
            ids(super::neighbours_in("gc-pause-unfenced", &unit)),
            (Some("gc-pause-fenced".to_owned()), None)
        );
        assert_eq!(
            ids(super::neighbours_in("clock-jump", &unit)),
            (None, None),
            "outside the unit"
        );
        assert_eq!(
            ids(super::neighbours_in("gc-pause-fenced", &[])),
            (None, None),
            "a quiz module"
        );
    }

    /// The way on names the next lesson by its setup until it is finished, and says the
    /// lesson was seen to its end only there.
    #[test]
    fn the_way_on_links_both_neighbours_without_giving_their_outcome_away() {
        let m = crate::i18n::Messages::english();
        let mut finished = Finished::default();
        let html = super::way_on(&m, "gc-pause-unfenced", &finished, false, None).into_string();
        assert!(!html.contains("previous-lesson"), "the first lesson has none: {html}");
        assert!(!html.contains("lesson-done"), "{html}");
        let next = core().nth(1).expect("a second lesson on the path").clone();
        let setup = crate::player::setup_title(&next.title);
        assert!(html.contains(&format!("Next lesson: {setup} →")), "{html}");
        assert!(
            html.contains(&format!(
                "href=\"{}\"",
                crate::route::Link::to(crate::route::View::Scenario { id: next.id.clone() })
                    .to_hash()
            )),
            "{html}"
        );
        finished.add(next.id.as_str());
        let html = super::way_on(&m, "gc-pause-unfenced", &finished, true, None).into_string();
        assert!(html.contains(&format!("Next lesson: {} →", next.title)), "{html}");
        assert!(html.contains("seen this lesson to its end"), "{html}");
        let html = super::way_on(&m, "gc-pause-fenced", &finished, false, None).into_string();
        assert!(html.contains("← Previous: ") && html.contains("Next lesson: "), "{html}");
    }

    /// The home page: the core path first, every lesson's card once, a finished lesson
    /// marked and its whole title shown, an unfinished one by its setup only.
    #[test]
    fn the_home_page_marks_the_path_and_what_is_finished() {
        let m = crate::i18n::Messages::english();
        let mut finished = Finished::default();
        let html = super::home(&m, &finished, 40).into_string();
        assert_eq!(html.matches("data-testid=\"scenario-card\"").count(), catalogue::index().len());
        assert!(html.find("Start here") < html.find("scenario-card"), "{html:.300}");
        assert!(html.contains(">GC pause, unfenced<"), "the setup only");
        assert!(!html.contains("both writes land"), "the outcome waits");
        assert!(
            !html.contains("data-testid=\"finished\"")
                && !html.contains("data-testid=\"progress\"")
        );
        finished.add("gc-pause-unfenced");
        let html = super::home(&m, &finished, 40).into_string();
        assert_eq!(
            html.matches("GC pause, unfenced: both writes land").count(),
            2,
            "path and card"
        );
        assert_eq!(html.matches("data-testid=\"finished\"").count(), 2);
        assert!(html.contains("You have finished 1 of"), "{html:.300}");
        assert!(html.contains("Test yourself: 40 questions"));
    }

    /// The core path starts with the problem, is short, and every lesson on it has a time.
    #[test]
    fn the_core_path_is_short_and_timed() {
        let path: Vec<_> = core().collect();
        assert_eq!(path.first().map(|e| e.id.as_str()), Some("gc-pause-unfenced"));
        assert!((5..=9).contains(&path.len()), "{} lessons", path.len());
        let minutes: u32 = path.iter().map(|e| e.minutes).sum();
        assert!((15..=60).contains(&minutes), "{minutes} min");
        assert!(catalogue::index().iter().all(|e| e.minutes >= 2), "every lesson has a time");
    }
}
