//! Quiz progress as stored in localStorage (or kept by a host page or an LMS): which
//! questions were answered, how often, and whether the first and the latest answers were
//! right; and what that makes of the quiz (answered, score, passed). Anything unreadable
//! is reported so the shell can reset it with a visible notice; an answer to a question
//! the bank no longer holds (renamed or removed) is dropped and the rest kept. Pure text
//! in, text out; the shell does the storing.

pub mod picker;
pub mod session;

use crate::sim::sorted::SortedMap;

use serde_json::Value;

/// The localStorage key. The format under it grew compatibly: a bare `true`/`false` (the
/// first format) still reads as one answer.
pub const STORAGE_KEY: &str = "fencing-playground/quiz-progress/v1";

/// The localStorage key of one quiz: the site's whole quiz under [`STORAGE_KEY`]; an embed
/// named by `frame=` and a choice of questions (`questions=`) each under their own, so two
/// quizzes on one site (two embeds, a course's selection and the site's quiz) never
/// overwrite each other's answers. Every key starts with [`STORAGE_KEY`], so `?reset`
/// finds them all.
pub fn storage_key(frame: Option<&str>, questions: &[String]) -> String {
    let mut key = STORAGE_KEY.to_owned();
    if let Some(frame) = frame {
        key.push_str(&format!("/frame/{frame}"));
    }
    if !questions.is_empty() {
        key.push_str(&format!("/questions/{}", questions.join(",")));
    }
    key
}

/// The pass mark when nobody set one, in percent.
pub const MASTERY_PCT: u8 = 80;

/// One question's answers.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Answer {
    /// The latest answer was right.
    pub correct: bool,
    /// The first answer was right: what the score counts, so trying again does not raise it.
    pub first_correct: bool,
    pub attempts: u32,
}

/// Question id to its answers.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Progress {
    pub answers: SortedMap<String, Answer>,
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
    /// Reads stored progress; `bank` is the quiz's questions (an answer to a question it
    /// does not hold is dropped: every learner's record holds one once a question is
    /// renamed or removed, and the other answers are still good).
    pub fn read(text: Option<&str>, bank: &[crate::quiz::Question]) -> Stored {
        let Some(text) = text else { return Stored::Nothing };
        match serde_json::from_str(text) {
            Ok(value) => Progress::from_value(value, bank),
            Err(_) => Stored::Corrupt,
        }
    }

    /// The same, from JSON already parsed (an LMS's `suspend_data` carries it inside).
    pub fn from_value(value: Value, bank: &[crate::quiz::Question]) -> Stored {
        let Value::Object(members) = value else { return Stored::Corrupt };
        let mut progress = Progress::default();
        for (key, value) in members {
            // A boolean or {"c", "f", "n"}; kept only for a question the bank holds.
            let known = bank.iter().any(|q| q.id == key);
            let answer = match value {
                Value::Bool(correct) => Answer { correct, first_correct: correct, attempts: 1 },
                Value::Object(fields) if fields.len() == 3 => {
                    let attempts =
                        fields.get("n").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
                    match (fields.get("c"), fields.get("f"), attempts) {
                        (
                            Some(&Value::Bool(correct)),
                            Some(&Value::Bool(first_correct)),
                            Some(attempts),
                        ) if attempts >= 1 => Answer { correct, first_correct, attempts },
                        _ => return Stored::Corrupt,
                    }
                }
                _ => return Stored::Corrupt,
            };
            if known {
                progress.answers.insert(key, answer);
            }
        }
        Stored::Valid(progress)
    }

    /// `{"<question>": {"c": latest right, "f": first right, "n": attempts}, ...}`.
    pub fn to_value(&self) -> Value {
        let answers = self.answers.iter().map(|(id, a)| {
            (id.clone(), serde_json::json!({"c": a.correct, "f": a.first_correct, "n": a.attempts}))
        });
        Value::Object(answers.collect())
    }

    pub fn to_text(&self) -> String {
        self.to_value().to_string()
    }

    /// Records an answer and returns it as it now stands.
    pub fn record(&mut self, question: &str, correct: bool) -> Answer {
        if let Some(a) = self.answers.get_mut(question) {
            a.correct = correct;
            a.attempts = a.attempts.saturating_add(1);
            return *a;
        }
        let answer = Answer { correct, first_correct: correct, attempts: 1 };
        self.answers.insert(question.to_owned(), answer);
        answer
    }

    /// Takes in another copy of this learner's progress (another tab of the same quiz
    /// wrote it): for each question the copy with more attempts wins, so neither tab's
    /// answers are lost and an answer already counted is never replaced by an older one.
    pub fn merge(&mut self, other: &Progress) {
        for (id, theirs) in other.answers.iter() {
            match self.answers.get_mut(id) {
                Some(ours) if ours.attempts >= theirs.attempts => {}
                Some(ours) => *ours = *theirs,
                None => {
                    self.answers.insert(id.clone(), *theirs);
                }
            }
        }
    }

    /// Among `questions`, those right only after trying again (practice: the score never
    /// counts them).
    pub fn correct_after_practice(&self, questions: &[String]) -> usize {
        let practised = |a: &Answer| a.correct && !a.first_correct;
        questions.iter().filter(|q| self.answers.get(*q).is_some_and(practised)).count()
    }

    /// The score: among `questions`, those whose first answer was right.
    pub fn score(&self, questions: &[String]) -> usize {
        questions.iter().filter(|q| self.answers.get(*q).is_some_and(|a| a.first_correct)).count()
    }

    /// Whether every one of `questions` has an answer.
    pub fn complete(&self, questions: &[String]) -> bool {
        questions.iter().all(|q| self.answers.contains_key(q))
    }
}

/// Whether `score` of `total` reaches `mastery_pct` percent.
pub fn passed(score: usize, total: usize, mastery_pct: u8) -> bool {
    score * 100 >= total * usize::from(mastery_pct)
}

#[cfg(test)]
mod tests {
    use super::{Answer, Progress, Stored, passed};

    #[test]
    fn two_tabs_answers_merge_and_embeds_keep_their_own() {
        let mut here = Progress::default();
        here.record("clock-jump", false);
        here.record("clock-jump", true);
        let mut there = Progress::default();
        there.record("clock-jump", true);
        there.record("aof-always", true);
        let mut merged = here.clone();
        merged.merge(&there);
        assert_eq!(merged.answers.len(), 2, "each tab's answers kept");
        assert_eq!(
            merged.answers.get("clock-jump"),
            Some(&Answer { correct: true, first_correct: false, attempts: 2 }),
            "the copy with more attempts wins: its first answer was wrong"
        );
        let mut other_way = there.clone();
        other_way.merge(&here);
        assert_eq!(other_way, merged, "the same whichever tab merges");
        use super::storage_key;
        assert_eq!(storage_key(None, &[]), super::STORAGE_KEY);
        assert_eq!(
            storage_key(Some("week-2"), &[]),
            "fencing-playground/quiz-progress/v1/frame/week-2"
        );
        assert_ne!(storage_key(Some("a"), &[]), storage_key(Some("b"), &[]));
        let chosen = ["clock-jump".to_owned(), "uuid-token".to_owned()];
        assert_eq!(
            storage_key(Some("w"), &chosen),
            "fencing-playground/quiz-progress/v1/frame/w/questions/clock-jump,uuid-token"
        );
        assert_ne!(storage_key(None, &chosen), storage_key(None, &chosen[..1]));
    }

    #[test]
    fn progress_round_trips_and_bad_storage_is_reported() {
        let mut progress = Progress::default();
        progress.record("clock-jump", true);
        progress.record("aof-always", false);
        let again = progress.record("aof-always", true);
        assert_eq!(again, Answer { correct: true, first_correct: false, attempts: 2 });
        let text = progress.to_text();
        assert_eq!(
            text,
            r#"{"aof-always":{"c":true,"f":false,"n":2},"clock-jump":{"c":true,"f":true,"n":1}}"#
        );
        assert_eq!(
            Progress::read(Some(&text), &crate::quiz::bank()),
            Stored::Valid(progress.clone())
        );
        let asked = ["clock-jump".to_owned(), "aof-always".to_owned()];
        assert_eq!(progress.score(&asked), 1, "a second try does not raise the score");
        assert_eq!(progress.correct_after_practice(&asked), 1, "it counts as practice");
        assert!(progress.complete(&asked));
        assert!(!progress.complete(&["uuid-token".to_owned()]));
        // The first format still reads.
        let old = Progress::read(Some(r#"{"clock-jump":true}"#), &crate::quiz::bank());
        assert_eq!(
            old,
            Stored::Valid(Progress {
                answers: [(
                    "clock-jump".to_owned(),
                    Answer { correct: true, first_correct: true, attempts: 1 }
                )]
                .into_iter()
                .collect()
            })
        );
        assert_eq!(Progress::read(None, &crate::quiz::bank()), Stored::Nothing);
        for bad in [
            "",
            "{",
            "[]",
            "{\"clock-jump\": 1}",
            "{\"no-such-question\": 1}",
            "{\"clock-jump\": {\"c\": true, \"f\": true, \"n\": 0}}",
            "{\"clock-jump\": {\"c\": true, \"f\": true}}",
            "{\"clock-jump\": {\"c\": true, \"f\": true, \"n\": 1, \"x\": 1}}",
            "\u{0}",
        ] {
            assert_eq!(Progress::read(Some(bad), &crate::quiz::bank()), Stored::Corrupt, "{bad:?}");
        }
    }

    /// Issue 29, item 3: one renamed or removed question used to reset the whole record.
    #[test]
    fn an_answer_to_a_question_the_bank_no_longer_has_is_dropped_and_the_rest_kept() {
        let stored = r#"{"clock-jump":{"c":true,"f":true,"n":1},"a-removed-question":true,"aof-always":false}"#;
        let Stored::Valid(progress) = Progress::read(Some(stored), &crate::quiz::bank()) else {
            panic!("the record was not kept");
        };
        let kept: Vec<&String> = progress.answers.keys().collect();
        assert_eq!(kept, ["aof-always", "clock-jump"]);
        assert_eq!(
            progress.to_text(),
            r#"{"aof-always":{"c":false,"f":false,"n":1},"clock-jump":{"c":true,"f":true,"n":1}}"#
        );
    }

    #[test]
    fn the_pass_mark_is_inclusive() {
        assert!(passed(24, 30, 80));
        assert!(!passed(23, 30, 80));
        assert!(passed(0, 30, 0));
        assert!(passed(30, 30, 100));
        assert!(!passed(29, 30, 100));
    }
}
