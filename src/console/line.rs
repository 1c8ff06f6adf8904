//! What a console's input line does besides running: the history that ↑ and ↓ walk
//! (as redis-cli's and psql's readline do) and Tab completion of the words the console
//! knows. Pure: the shell reads the keys and writes the input's value.

/// The lines run so far, and where ↑/↓ have walked to.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct History {
    entries: Vec<String>,
    /// The entry shown, while walking; `None` at the line being typed.
    at: Option<usize>,
    /// What was typed before walking away from it, given back by ↓ at the bottom.
    draft: String,
}

/// At most this many lines are kept (redis-cli keeps its whole history file; a page
/// session does not need more).
const KEPT: usize = 500;

impl History {
    /// A line was run: it becomes the newest entry (not twice in a row), and walking starts
    /// again from the bottom.
    pub fn push(&mut self, line: &str) {
        let line = line.trim();
        if !line.is_empty() && self.entries.last().map(String::as_str) != Some(line) {
            self.entries.push(line.to_owned());
            let excess = self.entries.len().saturating_sub(KEPT);
            self.entries.drain(..excess);
        }
        self.at = None;
        self.draft.clear();
    }

    /// ↑: the previous entry (`current` is what the input holds, kept as the draft when
    /// walking starts); `None` when there is nothing older.
    pub fn up(&mut self, current: &str) -> Option<String> {
        let next = match self.at {
            None => {
                self.draft = current.to_owned();
                self.entries.len().checked_sub(1)?
            }
            Some(i) => i.checked_sub(1)?,
        };
        self.at = Some(next);
        Some(self.entries[next].clone())
    }

    /// ↓: the next entry, or the draft after the newest; `None` when not walking.
    pub fn down(&mut self) -> Option<String> {
        let i = self.at?;
        if i + 1 < self.entries.len() {
            self.at = Some(i + 1);
            Some(self.entries[i + 1].clone())
        } else {
            self.at = None;
            Some(std::mem::take(&mut self.draft))
        }
    }
}

/// What Tab does to a line.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Completion {
    /// The line with its last word completed (one match, or the matches' common prefix).
    Line(String),
    /// Several words fit and nothing more can be added: the console lists them.
    Choices(Vec<&'static str>),
    /// No word fits.
    Nothing,
}

/// The words a console completes: `first` for the line's first word (commands), `rest`
/// after it (options, keywords, names).
#[derive(Clone, Copy, Debug)]
pub struct Words {
    pub first: &'static [&'static str],
    pub rest: &'static [&'static str],
}

/// Completes the line's last word, case-insensitively, keeping the case the learner typed
/// when it already matches (`se` → `set`, `SE` → `SET`).
pub fn complete(line: &str, known: Words) -> Completion {
    let start = line.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let (head, last) = line.split_at(start);
    let words = if head.trim().is_empty() { known.first } else { known.rest };
    if last.is_empty() {
        return Completion::Nothing;
    }
    let lower = last.to_ascii_lowercase();
    let mut matches: Vec<&'static str> =
        words.iter().copied().filter(|w| w.to_ascii_lowercase().starts_with(&lower)).collect();
    matches.dedup();
    let upper = last.chars().all(|c| !c.is_ascii_lowercase())
        && last.chars().any(|c| c.is_ascii_uppercase());
    let cased = |w: &str| if upper { w.to_ascii_uppercase() } else { w.to_ascii_lowercase() };
    match matches.as_slice() {
        [] => Completion::Nothing,
        [one] => Completion::Line(format!("{head}{} ", cased(one))),
        many => {
            let first = many[0].to_ascii_lowercase();
            let common = many.iter().fold(first.len(), |n, w| {
                first
                    .bytes()
                    .zip(w.to_ascii_lowercase().bytes())
                    .take(n)
                    .take_while(|(a, b)| a == b)
                    .count()
            });
            match common > last.len() {
                true => Completion::Line(format!("{head}{}", cased(&first[..common]))),
                false => Completion::Choices(many.to_vec()),
            }
        }
    }
}

/// The Redis console's words: its commands; then SET's options and the scripts' labels.
pub const REDIS_WORDS: Words = Words {
    first: &[
        "ADVANCE", "DEL", "EVAL", "EVALSHA", "EXISTS", "EXPIRE", "GET", "HELP", "INCR", "PEXPIRE",
        "PING", "PTTL", "SET", "TTL", "WAIT",
    ],
    rest: &[
        "EX",
        "EXAT",
        "GET",
        "KEEPTTL",
        "NX",
        "PX",
        "PXAT",
        "XX",
        "<acquire>",
        "<release>",
        "<renew>",
    ],
};

/// The SQL console's words: statements; then the subset's keywords, types and the table.
pub const SQL_WORDS: Words = Words {
    first: &[
        "BEGIN", "COMMIT", "CREATE", "END", "HELP", "INSERT", "ROLLBACK", "SELECT", "START",
        "UPDATE",
    ],
    rest: &[
        "AND",
        "BIGINT",
        "BOOLEAN",
        "BY",
        "DEFAULT",
        "FOR",
        "FROM",
        "INTEGER",
        "INTO",
        "IS",
        "KEY",
        "NOT",
        "NULL",
        "OR",
        "ORDER",
        "PRIMARY",
        "SET",
        "TABLE",
        "TEXT",
        "TRANSACTION",
        "UPDATE",
        "VALUES",
        "VARCHAR",
        "WHERE",
        "id",
        "last_fence",
        "orders",
        "status",
        "updated_by",
    ],
};

#[cfg(test)]
mod tests {
    use super::{Completion, History, REDIS_WORDS, SQL_WORDS, complete};

    #[test]
    fn up_and_down_walk_the_history_and_give_the_draft_back() {
        let mut h = History::default();
        assert_eq!(h.up("x"), None, "nothing to recall");
        h.push("SET k v");
        h.push("GET k");
        h.push("GET k");
        h.push("  ");
        assert_eq!(h.up("INC"), Some("GET k".into()), "the newest, once");
        assert_eq!(h.up("ignored"), Some("SET k v".into()));
        assert_eq!(h.up("ignored"), None, "nothing older");
        assert_eq!(h.down(), Some("GET k".into()));
        assert_eq!(h.down(), Some("INC".into()), "the half-typed line comes back");
        assert_eq!(h.down(), None);
        h.push("INCR k");
        assert_eq!(h.up(""), Some("INCR k".into()));
    }

    #[test]
    fn tab_completes_the_last_word_in_the_learners_case() {
        assert_eq!(complete("se", REDIS_WORDS), Completion::Line("set ".into()));
        assert_eq!(
            complete("SET k v P", REDIS_WORDS),
            Completion::Line("SET k v PX".into()),
            "options after the command"
        );
        assert_eq!(complete("SET k v PX", REDIS_WORDS), Completion::Choices(vec!["PX", "PXAT"]));
        assert_eq!(
            complete("P", REDIS_WORDS),
            Completion::Choices(vec!["PEXPIRE", "PING", "PTTL"]),
            "commands first"
        );
        assert_eq!(complete("pt", REDIS_WORDS), Completion::Line("pttl ".into()));
        assert_eq!(complete("EVAL <a", REDIS_WORDS), Completion::Line("EVAL <acquire> ".into()));
        assert_eq!(complete("EX", REDIS_WORDS), Completion::Choices(vec!["EXISTS", "EXPIRE"]));
        assert_eq!(complete("EXP", REDIS_WORDS), Completion::Line("EXPIRE ".into()));
        assert_eq!(
            complete("SET k v E", REDIS_WORDS),
            Completion::Line("SET k v EX".into()),
            "EX and EXAT share EX"
        );
        assert_eq!(complete("GET ", REDIS_WORDS), Completion::Nothing);
        assert_eq!(complete("zzz", REDIS_WORDS), Completion::Nothing);
        assert_eq!(
            complete("UPDATE orders SET last", SQL_WORDS),
            Completion::Line("UPDATE orders SET last_fence ".into())
        );
        assert_eq!(complete("sel", SQL_WORDS), Completion::Line("select ".into()));
        assert_eq!(complete("START TR", SQL_WORDS), Completion::Line("START TRANSACTION ".into()));
    }
}
