//! The quiz as a learner moves through it: the question on screen, the option chosen, the
//! answer checked, and the progress those answers make. Plain data with a pure `update`,
//! tested natively; it never stores, posts or reads a clock. What the shell must do about
//! an action (keep the progress, tell the host page and the LRS, write the address) comes
//! back as [`Effect`]s in the session's outbox, which a hook carries out once each.

use std::collections::VecDeque;
use std::rc::Rc;

use super::{Progress, passed};
use crate::embed::Answered;

/// What the learner (or the page around the quiz) does.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Action {
    /// Chooses option `j` of the question on screen (ignored once it is checked).
    Choose(usize),
    /// Checks the chosen option.
    Check,
    /// After a wrong answer: chooses again (practice; the score keeps the first answer).
    TryAgain,
    /// Previous (-1) or next (+1) question; the address follows.
    Go(isize),
    /// The link names question `n` (coming back after "Show me", or a new `q=`).
    Open(usize),
    /// Forgets every answer (the learner confirmed).
    Reset,
    /// Progress the host page kept and gives back, already read and checked.
    Restore { progress: Progress, text: String },
    /// Another tab of this quiz stored its progress: its answers join these.
    Arrived(Progress),
}

/// What the shell must do after an action.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Effect {
    /// Keep `progress` (in storage where the page may use it, joined with what another tab
    /// stored there) and offer it to the host.
    Keep(Progress),
    /// The learner reset the quiz: forget the stored progress and tell the host.
    Forget,
    /// Put the host's copy of the progress in storage, as it came.
    Store(String),
    /// Tell the host page and the LRS about an answer to question `index` (position in the
    /// quiz).
    Answered { index: usize, answered: Answered },
    /// The answer that completed the quiz graded it (once).
    Completed { score: usize, total: usize, passed: bool },
    /// Write question `index` into the address, replacing the entry (moving between
    /// questions is not history).
    Address(usize),
}

/// The quiz's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The questions asked, in order: their ids and their right options.
    ids: Rc<Vec<String>>,
    answers: Rc<Vec<usize>>,
    mastery_pct: u8,
    /// The question on screen.
    pub index: usize,
    pub chosen: Option<usize>,
    /// The option checked, while its feedback shows.
    pub checked: Option<usize>,
    pub progress: Progress,
    outbox: VecDeque<(u64, Effect)>,
    next_seq: u64,
}

/// Effects kept for the shell: far more than one action makes, so none is dropped before
/// the hook that runs after each render has seen it.
const OUTBOX_CAP: usize = 32;

impl Session {
    /// `questions` as `(id, right option)`, in the order they are asked.
    pub fn new(questions: Vec<(String, usize)>, progress: Progress, mastery_pct: u8) -> Session {
        let (ids, answers): (Vec<String>, Vec<usize>) = questions.into_iter().unzip();
        Session {
            ids: Rc::new(ids),
            answers: Rc::new(answers),
            mastery_pct,
            index: 0,
            chosen: None,
            checked: None,
            progress,
            outbox: VecDeque::new(),
            next_seq: 0,
        }
    }

    pub fn update(&mut self, action: Action) {
        match action {
            Action::Choose(j) => {
                if self.checked.is_none() {
                    self.chosen = Some(j);
                }
            }
            Action::Check => self.check(),
            Action::TryAgain => self.clear_choice(),
            Action::Go(delta) => {
                let Some(last) = self.ids.len().checked_sub(1) else { return };
                let next = self.index.saturating_add_signed(delta).min(last);
                self.index = next;
                self.clear_choice();
                self.send(Effect::Address(next));
            }
            Action::Open(n) => {
                let next = n.min(self.ids.len().saturating_sub(1));
                if next != self.index {
                    self.index = next;
                    self.clear_choice();
                }
            }
            Action::Reset => {
                self.progress = Progress::default();
                self.clear_choice();
                self.send(Effect::Forget);
            }
            Action::Restore { progress, text } => {
                self.progress = progress;
                self.send(Effect::Store(text));
            }
            Action::Arrived(progress) => self.progress.merge(&progress),
        }
    }

    /// The effects sent after `seen` (a sequence number the shell keeps), and the number to
    /// keep next.
    pub fn effects_after(&self, seen: u64) -> (Vec<Effect>, u64) {
        let fresh = self.outbox.iter().filter(|(seq, _)| *seq >= seen);
        (fresh.map(|(_, effect)| effect.clone()).collect(), self.next_seq)
    }

    /// Changes each time an effect is sent: what the shell's hook depends on.
    pub fn sent(&self) -> u64 {
        self.next_seq
    }

    pub fn total(&self) -> usize {
        self.ids.len()
    }

    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// The score so far: questions whose first answer was right.
    pub fn score(&self) -> usize {
        self.progress.score(&self.ids)
    }
}

impl Session {
    fn check(&mut self) {
        let (Some(choice), None) = (self.chosen, self.checked) else { return };
        let (Some(id), Some(&answer)) = (self.ids.get(self.index), self.answers.get(self.index))
        else {
            return;
        };
        let id = id.clone();
        self.checked = Some(choice);
        let correct = choice == answer;
        let was_complete = self.progress.complete(&self.ids);
        let recorded = self.progress.record(&id, correct);
        self.send(Effect::Keep(self.progress.clone()));
        let answered = Answered {
            question: id,
            correct,
            choice,
            attempt: recorded.attempts,
            first_try: recorded.attempts == 1,
            answered: self.progress.answers.len(),
            correct_count: self.score(),
            practice_count: self.progress.correct_after_practice(&self.ids),
            total: self.ids.len(),
            latency_ms: 0,
        };
        self.send(Effect::Answered { index: self.index, answered });
        // The answer that completes the quiz grades it, once.
        if !was_complete && self.progress.complete(&self.ids) {
            let (score, total) = (self.score(), self.ids.len());
            let passed = passed(score, total, self.mastery_pct);
            self.send(Effect::Completed { score, total, passed });
        }
    }

    fn clear_choice(&mut self) {
        self.chosen = None;
        self.checked = None;
    }

    fn send(&mut self, effect: Effect) {
        self.outbox.push_back((self.next_seq, effect));
        self.next_seq += 1;
        while self.outbox.len() > OUTBOX_CAP {
            self.outbox.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Effect, Session};
    use crate::progress::Progress;

    fn three() -> Session {
        let questions = [("a", 0), ("b", 1), ("c", 2)];
        Session::new(
            questions.iter().map(|(id, answer)| ((*id).to_owned(), *answer)).collect(),
            Progress::default(),
            80,
        )
    }

    /// Runs `actions` and returns every effect they sent, in order.
    fn run(session: &mut Session, actions: &[Action]) -> Vec<Effect> {
        let seen = session.sent();
        for action in actions {
            session.update(action.clone());
        }
        session.effects_after(seen).0
    }

    /// Each answer's question, right, attempt, first try, and the counts of first tries
    /// right and of practice right.
    fn answered(effects: &[Effect]) -> Vec<(String, bool, u32, bool, usize, usize)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Answered { answered: a, .. } => Some((
                    a.question.clone(),
                    a.correct,
                    a.attempt,
                    a.first_try,
                    a.correct_count,
                    a.practice_count,
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_right_first_answer_is_kept_reported_and_scored() {
        let mut s = three();
        let effects = run(&mut s, &[Action::Choose(0), Action::Check]);
        assert_eq!(s.checked, Some(0));
        assert_eq!(answered(&effects), [("a".to_owned(), true, 1, true, 1, 0)]);
        assert!(matches!(effects[0], Effect::Keep(ref p) if p.answers.len() == 1));
        assert_eq!(s.score(), 1);
    }

    #[test]
    fn trying_again_after_a_wrong_answer_is_practice_the_score_keeps_the_first() {
        let mut s = three();
        let effects = run(
            &mut s,
            &[Action::Choose(2), Action::Check, Action::TryAgain, Action::Choose(0), Action::Check],
        );
        assert_eq!(
            answered(&effects),
            [("a".to_owned(), false, 1, true, 0, 0), ("a".to_owned(), true, 2, false, 0, 1)]
        );
        assert_eq!(s.score(), 0, "the retry does not raise the score");
    }

    #[test]
    fn the_answer_that_completes_the_quiz_grades_it_once() {
        let mut s = three();
        let mut effects = Vec::new();
        for (n, choice) in [(0, 0), (1, 1), (2, 0)] {
            effects.extend(run(&mut s, &[Action::Open(n), Action::Choose(choice), Action::Check]));
        }
        let graded: Vec<&Effect> =
            effects.iter().filter(|e| matches!(e, Effect::Completed { .. })).collect();
        assert_eq!(graded, [&Effect::Completed { score: 2, total: 3, passed: false }]);
        // Answering again (practice) does not grade it a second time.
        let again = run(&mut s, &[Action::TryAgain, Action::Choose(2), Action::Check]);
        assert!(!again.iter().any(|e| matches!(e, Effect::Completed { .. })));
    }

    #[test]
    fn moving_clamps_clears_the_choice_and_writes_the_address() {
        let mut s = three();
        let effects = run(&mut s, &[Action::Choose(1), Action::Go(-1)]);
        assert_eq!((s.index, s.chosen), (0, None));
        assert_eq!(effects, [Effect::Address(0)]);
        let effects = run(&mut s, &[Action::Go(1), Action::Go(1), Action::Go(1)]);
        assert_eq!(s.index, 2);
        assert_eq!(effects, [Effect::Address(1), Effect::Address(2), Effect::Address(2)]);
        // A link's question beyond the quiz opens its last one, and sends nothing.
        assert!(run(&mut s, &[Action::Open(0), Action::Open(99)]).is_empty());
        assert_eq!(s.index, 2);
    }

    #[test]
    fn nothing_is_checked_without_a_choice_and_a_checked_choice_stays() {
        let mut s = three();
        assert!(run(&mut s, &[Action::Check]).is_empty());
        run(&mut s, &[Action::Choose(1), Action::Check, Action::Choose(0), Action::Check]);
        assert_eq!((s.chosen, s.checked), (Some(1), Some(1)));
        assert_eq!(
            s.progress.answers.get("a").map(|a| a.attempts),
            Some(1),
            "a second Check on one answer is not an answer"
        );
    }

    #[test]
    fn reset_and_restore_replace_the_progress_and_say_where_it_goes() {
        let mut s = three();
        run(&mut s, &[Action::Choose(0), Action::Check]);
        let effects = run(&mut s, &[Action::Reset]);
        assert_eq!(effects, [Effect::Forget], "a reset forgets; it does not join the old");
        assert_eq!((s.progress.answers.len(), s.checked), (0, None));
        let mut kept = Progress::default();
        kept.record("b", true);
        let effects =
            run(&mut s, &[Action::Restore { progress: kept.clone(), text: kept.to_text() }]);
        assert_eq!(effects, [Effect::Store(kept.to_text())]);
        assert_eq!(s.score(), 1);
        // Another tab's answers join these, and the tab that wrote them stored them already.
        let mut there = Progress::default();
        there.record("c", true);
        let effects = run(&mut s, &[Action::Arrived(there)]);
        assert!(effects.is_empty());
        assert_eq!((s.progress.answers.len(), s.score()), (2, 2));
    }

    #[test]
    fn an_empty_quiz_does_nothing() {
        let mut s = Session::new(Vec::new(), Progress::default(), 80);
        let effects =
            run(&mut s, &[Action::Go(1), Action::Open(3), Action::Choose(0), Action::Check]);
        assert!(effects.is_empty());
        assert_eq!(s.index, 0);
    }

    #[test]
    fn effects_not_yet_seen_survive_several_actions_before_a_render() {
        let mut s = three();
        let seen = s.sent();
        s.update(Action::Choose(0));
        s.update(Action::Check);
        s.update(Action::Go(1));
        let (effects, next) = s.effects_after(seen);
        assert_eq!(effects.len(), 3, "{effects:?}");
        assert!(s.effects_after(next).0.is_empty());
    }
}
