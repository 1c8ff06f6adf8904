//! The builder's undo machine: snapshots of the text (and the story texts still flagged
//! as a template's), a stack each way, and gestures that undo as one. It must not judge a
//! text: restoring one goes through the editor like typing it.

use super::{Editor, Group, Health};

/// How many changes undo remembers.
const UNDO_MAX: usize = 200;

/// The editor as it was: what undo and redo bring back.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Snapshot {
    text: String,
    inherited: Vec<String>,
}

impl Editor {
    /// The same editor with no way back: what was just opened is where undo stops.
    pub fn settled(mut self) -> Editor {
        self.undo.clear();
        self.redo.clear();
        self.last_group = None;
        self
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Keeps the way back to `self` in `next` (an undo step, unless the change continues
    /// the same gesture as the last one), and clears the way forward.
    pub(super) fn record(&self, next: &mut Editor, group: Option<Group>) {
        let changed = next.text != self.text || next.inherited != self.inherited;
        if changed {
            let same_gesture = group.is_some() && group == self.last_group;
            if !same_gesture {
                next.undo.push(self.snapshot());
                let excess = next.undo.len().saturating_sub(UNDO_MAX);
                next.undo.drain(..excess);
            }
            next.redo.clear();
            next.last_group = group;
        } else if next.health == Health::Valid {
            next.last_group = self.last_group;
        }
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot { text: self.text.clone(), inherited: self.inherited.clone() }
    }

    fn restore(&self, snapshot: Snapshot) -> Editor {
        let mut next = self.with_text(snapshot.text);
        next.inherited = snapshot.inherited;
        next.last_group = None;
        next
    }

    pub(super) fn step_back(&self) -> Editor {
        self.travel(|e| &mut e.undo, |e| &mut e.redo)
    }

    pub(super) fn step_forward(&self) -> Editor {
        self.travel(|e| &mut e.redo, |e| &mut e.undo)
    }

    /// Restores the newest snapshot of one stack (`from`) and keeps the present on the
    /// other (`to`): undo and redo are the same move in opposite directions.
    fn travel(
        &self,
        from: fn(&mut Editor) -> &mut Vec<Snapshot>,
        to: fn(&mut Editor) -> &mut Vec<Snapshot>,
    ) -> Editor {
        let mut stacks = self.clone();
        let Some(snapshot) = from(&mut stacks).pop() else { return self.clone() };
        to(&mut stacks).push(self.snapshot());
        let mut next = self.restore(snapshot);
        next.undo = stacks.undo;
        next.redo = stacks.redo;
        next
    }
}
