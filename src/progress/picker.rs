//! The question picker a course author uses on the quiz page: which of the bank's questions
//! a course asks, and what that choice is as a link's `questions=` and as the packaging
//! command. Plain data with a pure `update`; the view renders it and copies its texts.

use crate::sim::sorted::SortedSet;

/// What the author does.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Action {
    /// Adds question `id` to the choice, or takes it out.
    Toggle(String),
    /// Every question of the bank.
    All,
    /// None.
    Clear,
}

/// The author's choice over a bank.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Picker {
    /// The bank's question ids, in the bank's order.
    bank: Vec<String>,
    chosen: SortedSet<String>,
}

impl Picker {
    /// Nothing chosen yet.
    pub fn new(bank: Vec<String>) -> Picker {
        Picker { bank, chosen: SortedSet::default() }
    }

    pub fn update(&mut self, action: Action) {
        match action {
            Action::Toggle(id) if self.bank.contains(&id) => {
                if !self.chosen.remove(&id) {
                    self.chosen.insert(id);
                }
            }
            Action::Toggle(_) => {}
            Action::All => self.chosen = self.bank.iter().cloned().collect(),
            Action::Clear => self.chosen = SortedSet::default(),
        }
    }

    pub fn is_chosen(&self, id: &str) -> bool {
        self.chosen.contains(id)
    }

    /// The chosen ids in the bank's order (the order the quiz asks them).
    pub fn chosen(&self) -> Vec<String> {
        self.bank.iter().filter(|id| self.chosen.contains(*id)).cloned().collect()
    }

    /// The packaging command for this choice (`scripts/package`, with `--questions` unless
    /// every question is chosen).
    pub fn command(&self, kind: &str) -> String {
        let chosen = self.chosen();
        match chosen.len() == self.bank.len() {
            true => format!("scripts/package {kind}"),
            false => format!("scripts/package {kind} --questions {}", chosen.join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Picker};

    #[test]
    fn a_choice_keeps_the_banks_order_and_makes_the_command() {
        let bank = ["a", "b", "c"].map(str::to_owned).to_vec();
        let mut picker = Picker::new(bank);
        for action in
            [Action::Toggle("c".into()), Action::Toggle("a".into()), Action::Toggle("zz".into())]
        {
            picker.update(action);
        }
        assert_eq!(picker.chosen(), ["a", "c"], "the bank's order; an unknown id is ignored");
        assert_eq!(picker.command("scorm12"), "scripts/package scorm12 --questions a,c");
        picker.update(Action::Toggle("a".into()));
        assert_eq!(picker.chosen(), ["c"], "a second toggle takes it out");
        picker.update(Action::All);
        assert_eq!(picker.command("scorm2004"), "scripts/package scorm2004", "all: no --questions");
        picker.update(Action::Clear);
        assert!(picker.chosen().is_empty() && !picker.is_chosen("a"));
    }
}
