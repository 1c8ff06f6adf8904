//! The challenges a learner has solved, with the best score of each, as the browser keeps
//! them (`id=par/spent` pairs joined by `,`), and the seconds a learner types into the
//! pause form. Pure: the shell reads and writes the storage. A stored text is untrusted:
//! anything unreadable in it is dropped, never a panic.

/// The solved challenges: `(id, par, spent)`, in the order first solved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solved(Vec<(String, u32, u32)>);

/// The most a stored list holds (more than there are challenges, fewer than a flood).
const MOST: usize = 200;

impl Solved {
    /// The list a stored text holds; pairs that do not read (an unknown id is kept: a
    /// newer deploy's challenge) are dropped.
    pub fn read(text: &str) -> Solved {
        let pairs = text.split(',').filter_map(|pair| {
            let (id, score) = pair.split_once('=')?;
            let (par, spent) = score.split_once('/')?;
            let (par, spent) = (par.parse().ok()?, spent.parse().ok()?);
            crate::sim::scenario::is_scenario_id(id).then(|| (id.to_owned(), par, spent))
        });
        Solved(pairs.take(MOST).collect())
    }

    pub fn to_text(&self) -> String {
        let pairs: Vec<String> =
            self.0.iter().map(|(id, par, spent)| format!("{id}={par}/{spent}")).collect();
        pairs.join(",")
    }

    /// The best score kept for `id`, `(par, spent)`.
    pub fn best(&self, id: &str) -> Option<(u32, u32)> {
        self.0.iter().find(|(i, ..)| i == id).map(|(_, par, spent)| (*par, *spent))
    }

    /// Keeps `score` for `id` if it is the first or better than the one kept; whether the
    /// list changed.
    pub fn record(&mut self, id: &str, score: (u32, u32)) -> bool {
        let room = self.0.len() < MOST;
        match self.0.iter_mut().find(|(i, ..)| i == id) {
            Some(kept) if super::better(score, (kept.1, kept.2)) => {
                (kept.1, kept.2) = score;
                true
            }
            Some(_) => false,
            None if room => {
                self.0.push((id.to_owned(), score.0, score.1));
                true
            }
            None => false,
        }
    }
}

/// Seconds as a learner types them (`12`, `7.5`, `7,5`) in ms, if they are a time from 0
/// to 600 s: the pause form's bound, so a typed `1e300` cannot make a run that never ends.
pub fn parse_seconds(text: &str) -> Option<u64> {
    let text = text.trim().replace(',', ".");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let whole: u64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = whole.checked_mul(1000)? + format!("{fraction:0<3}").parse::<u64>().ok()?;
    (ms <= 600_000).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::{Solved, parse_seconds};

    #[test]
    fn a_stored_list_reads_back_and_keeps_the_best() {
        let mut s = Solved::read("fence-the-pause=1/1,junk,bad=x/1,=1/1,two=1/2");
        assert_eq!(s.to_text(), "fence-the-pause=1/1,two=1/2");
        assert!(!s.record("fence-the-pause", (1, 3)), "a worse score is not kept");
        assert!(s.record("two", (1, 1)));
        assert!(s.record("new", (2, 3)));
        assert_eq!(s.best("two"), Some((1, 1)));
        assert_eq!(Solved::read(&s.to_text()), s);
        assert_eq!(Solved::read(&"a=1/1,".repeat(1000)).0.len(), 200);
    }

    #[test]
    fn seconds_as_typed() {
        for (text, ms) in [
            ("12", Some(12_000)),
            ("7.5", Some(7_500)),
            ("7,25", Some(7_250)),
            (".5", Some(500)),
            ("0", Some(0)),
            ("600", Some(600_000)),
        ] {
            assert_eq!(parse_seconds(text), ms, "{text}");
        }
        for text in ["", ".", "601", "1e300", "-1", "1.2345", "abc", "99999999999999999999"] {
            assert_eq!(parse_seconds(text), None, "{text}");
        }
    }
}
