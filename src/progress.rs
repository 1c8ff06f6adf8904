//! Quiz progress as stored in localStorage: which questions were answered, and whether
//! correctly. Versioned key; anything unreadable is reported so the shell can reset it
//! with a visible notice. Pure text in, text out; the shell does the storing.

use std::collections::BTreeMap;

use crate::json::{Out, Value};

/// The localStorage key; a new format gets a new key.
pub const STORAGE_KEY: &str = "fencing-playground/quiz-progress/v1";

/// Question id to "answered correctly".
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Progress {
    pub answers: BTreeMap<String, bool>,
}

/// What was found in storage.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Stored {
    Nothing,
    Valid(Progress),
    /// Present but unreadable or tampered with: reset it and tell the learner.
    Corrupt,
}

impl Progress {
    pub fn read(text: Option<&str>) -> Stored {
        let Some(text) = text else { return Stored::Nothing };
        let Ok(root) = crate::json::parse(text) else { return Stored::Corrupt };
        let Value::Object(members) = root.value else { return Stored::Corrupt };
        let mut progress = Progress::default();
        for (key, node) in members {
            // Only known question ids with a boolean are accepted.
            let known = crate::quiz::bank().iter().any(|q| q.id == key);
            match (known, node.value) {
                (true, Value::Bool(correct)) => {
                    progress.answers.insert(key, correct);
                }
                _ => return Stored::Corrupt,
            }
        }
        Stored::Valid(progress)
    }

    pub fn to_text(&self) -> String {
        // Keys are owned strings, so the object is written by hand (`Out` keys are static).
        let mut text = String::from("{");
        for (i, (id, correct)) in self.answers.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&Out::str(id).compact());
            text.push(':');
            text.push_str(if *correct { "true" } else { "false" });
        }
        text.push('}');
        text
    }

    pub fn record(&mut self, question: &str, correct: bool) {
        self.answers.insert(question.to_owned(), correct);
    }

    pub fn correct(&self) -> usize {
        self.answers.values().filter(|c| **c).count()
    }
}

#[cfg(test)]
mod tests {
    use super::{Progress, Stored};

    #[test]
    fn progress_round_trips_and_bad_storage_is_reported() {
        let mut progress = Progress::default();
        progress.record("clock-jump", true);
        progress.record("aof-always", false);
        let text = progress.to_text();
        assert_eq!(Progress::read(Some(&text)), Stored::Valid(progress.clone()));
        assert_eq!(progress.correct(), 1);
        assert_eq!(Progress::read(None), Stored::Nothing);
        for bad in ["", "{", "[]", "{\"clock-jump\": 1}", "{\"no-such-question\": true}", "\u{0}"] {
            assert_eq!(Progress::read(Some(bad)), Stored::Corrupt, "{bad:?}");
        }
    }
}
