//! The lesson builder's state around its editor: the open draft, every draft, what became
//! of their storage, and the line saying what just happened (with the way back for what
//! removed something). Plain data with a pure `update`, tested natively; the shell reads and
//! writes storage, the address and files, and hands what it read to [`Builder::open`] and
//! what it fetched to [`Msg::Arrived`].

use super::drafts::{Drafts, Record};
use super::{Action, BLANK, Editor, Group, Opening};

/// The builder's state: the open draft in the editor, all drafts, and a line saying what
/// just happened (with the way back, for destructive changes).
#[derive(Clone, Debug, PartialEq)]
pub struct Builder {
    pub editor: Editor,
    pub drafts: Drafts,
    /// A built-in to open a copy of once it is loaded (a player's "Edit a copy", or the
    /// lesson a first visit starts from).
    pub fetch: Option<String>,
    pub status: Option<Status>,
    /// What became of the drafts' storage: said until it changes.
    pub storage: Storage,
}

/// Where the author's drafts stand in this browser's storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Storage {
    Kept,
    /// The stored record could not all be read: a copy of it is under the shell's aside key.
    SetAside,
    /// The record could not be read and its copy could not be made: it is left as it is,
    /// and nothing is written over it in this visit.
    Untouched,
    /// This browser refuses storage here (a third-party frame, or storage that is full).
    Blocked,
    /// A save failed (storage full): the latest text is only in this page.
    SaveFailed,
    /// These drafts are no longer kept in storage, to make room; they stay in this page
    /// (and its menu) until the author leaves, so they can still be exported.
    Evicted(Vec<String>),
}

/// What just happened, said on the status line.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// The draft of the last visit came back.
    Restored,
    /// A change that removed something (its message key and name): undo brings it back.
    Removed(&'static str, String),
    /// A draft was deleted: it can be brought back.
    Deleted(String, String),
    /// A file was not a scenario; what was done instead.
    Imported(String),
    /// The link was copied (or, where the clipboard refuses, is shown to copy by hand).
    Copied(String),
}

/// What the author (or the shell, with what it fetched or stored) does.
#[derive(Clone, Debug)]
pub enum Msg {
    Edit(Action, Option<Group>),
    /// A new draft from a template (a copy) or a file (the author's own).
    New {
        name: String,
        action: Action,
    },
    Open(String),
    Rename(String),
    Delete,
    BringBack,
    Say(Status),
    Storage(Storage),
    /// The scenario a link carried: the draft it is (if the author already has it), or a
    /// new draft (a copy, when the link asked for one).
    Arrived {
        text: String,
        copy: bool,
    },
}

impl Builder {
    pub fn update(&mut self, msg: Msg) {
        let before = self.clone();
        match msg {
            Msg::Edit(action, group) => {
                let removing = removal(&action, &before.editor);
                self.editor = before.editor.apply_in(action, group);
                self.status = match removing {
                    Some((key, what)) if self.editor.text != before.editor.text => {
                        Some(Status::Removed(key, what))
                    }
                    _ => None,
                };
            }
            Msg::New { name, action } => {
                self.editor = fresh().apply(action).settled();
                self.drafts.add(&name, &self.editor.text);
                self.status = None;
            }
            Msg::Open(name) => {
                self.drafts.open = name;
                if let Some(text) = self.drafts.text() {
                    self.editor = fresh().apply(Action::Load(text.to_owned())).settled();
                }
                self.status = None;
            }
            Msg::Rename(name) => {
                self.drafts.rename(&name);
            }
            Msg::Delete => {
                if let Some((name, text)) = self.drafts.remove_open() {
                    self.status = Some(Status::Deleted(name, text));
                }
                match self.drafts.text() {
                    Some(text) => {
                        self.editor = fresh().apply(Action::Load(text.to_owned())).settled()
                    }
                    None => {
                        self.editor = fresh().apply(Action::LoadCopy(BLANK.to_owned())).settled();
                        self.drafts.add("draft", &self.editor.text);
                    }
                }
            }
            Msg::BringBack => {
                if let Some(Status::Deleted(name, text)) = &before.status {
                    self.editor = fresh().apply(Action::Load(text.clone())).settled();
                    self.drafts.add(name, text);
                }
                self.status = None;
            }
            Msg::Say(status) => self.status = Some(status),
            Msg::Storage(storage) => self.storage = storage,
            Msg::Arrived { text, copy } => {
                let known =
                    self.drafts.items.iter().find(|(_, t)| *t == text).map(|(n, _)| n.clone());
                match (known, copy) {
                    (Some(name), false) => {
                        self.drafts.open = name;
                        self.editor = fresh().apply(Action::Load(text)).settled();
                    }
                    _ => {
                        let action = if copy { Action::LoadCopy(text) } else { Action::Load(text) };
                        self.editor = fresh().apply(action).settled();
                        self.drafts.add(&self.editor.scenario.id, &self.editor.text);
                    }
                }
                self.status = None;
            }
        }
        // The open draft follows every change (valid or not), so nothing typed is lost.
        self.drafts.keep(&self.editor.scenario.id, &self.editor.text);
    }

    /// How the builder opens: the scenario the link (`hash`) carries, else the drafts
    /// `stored` in this browser (with the single draft of the first version, `old_draft`,
    /// made a named one), else a copy of `start` once it is fetched.
    pub fn open(stored: Option<&str>, old_draft: Option<&str>, hash: &str, start: &str) -> Builder {
        let mut drafts = stored.map(|s| Drafts::read(s).drafts).unwrap_or_default();
        // The single draft the first version kept becomes a named one.
        if let Some(old) = old_draft
            && !old.trim().is_empty()
            && old.len() <= crate::catalogue::load::BYTES_MAX
        {
            drafts.add("draft", old);
        }
        match Opening::of(hash) {
            Opening::Builtin(id) => {
                let editor = match drafts.text() {
                    Some(text) => fresh().apply(Action::Load(text.to_owned())).settled(),
                    None => fresh(),
                };
                return Builder {
                    editor,
                    drafts,
                    fetch: Some(id),
                    status: None,
                    storage: Storage::Kept,
                };
            }
            Opening::Json { text, copy } => {
                // A draft's own link (kept as the author types) opens that draft; a link to
                // someone's scenario opens a copy of it.
                let known = drafts.items.iter().find(|(_, t)| *t == text).map(|(n, _)| n.clone());
                if let (Some(name), false) = (known, copy) {
                    drafts.open = name;
                } else {
                    let action = if copy { Action::LoadCopy(text) } else { Action::Load(text) };
                    let editor = fresh().apply(action).settled();
                    drafts.add(&editor.scenario.id, &editor.text);
                    return Builder {
                        editor,
                        drafts,
                        fetch: None,
                        status: None,
                        storage: Storage::Kept,
                    };
                }
            }
            Opening::Deflated { .. } | Opening::Nothing => {}
        }
        match drafts.text() {
            Some(text) => {
                let editor = fresh().apply(Action::Load(text.to_owned())).settled();
                Builder {
                    editor,
                    drafts,
                    fetch: None,
                    status: Some(Status::Restored),
                    storage: Storage::Kept,
                }
            }
            // A first visit starts from a worked lesson (its story flagged as the template's),
            // once it is loaded; the blank one shows meanwhile.
            None => Builder {
                editor: fresh(),
                drafts,
                fetch: Some(start.to_owned()),
                status: None,
                storage: Storage::Kept,
            },
        }
    }
}

impl Storage {
    /// The stored record's state of health when the builder opens: a record that could not
    /// all be read is copied aside (`set_aside`, which says whether it could) before
    /// anything is written over it.
    pub fn of(stored: Option<&str>, set_aside: impl FnOnce(&str) -> bool) -> Storage {
        match stored {
            Some(stored) if Drafts::read(stored).damaged => match set_aside(stored) {
                true => Storage::SetAside,
                false => Storage::Untouched,
            },
            _ => Storage::Kept,
        }
    }

    /// Whether the drafts may be written now (not over a record that could not be copied
    /// aside, and not where storage is refused).
    pub fn writable(&self) -> bool {
        !matches!(self, Storage::Untouched | Storage::Blocked)
    }

    /// What became of the storage after `record` was written (`saved` says whether it was).
    pub fn after_save(&self, saved: bool, record: &Record) -> Storage {
        match saved {
            false => Storage::SaveFailed,
            true if !record.evicted.is_empty() => Storage::Evicted(record.evicted.clone()),
            // A note about the record set aside stays until something else happens.
            true if *self == Storage::SetAside => Storage::SetAside,
            true => Storage::Kept,
        }
    }
}

/// An editor with no history, to load a draft into.
pub fn fresh() -> Editor {
    // Invariant: BLANK is a constant the native tests load (`sandbox::tests::blank`).
    let blank = crate::catalogue::load::parse_scenario(BLANK).expect("the blank template loads");
    Editor::new(&blank)
}

/// What an action removes, for the status line (undo brings it back): a message key and
/// the name or number of what went.
fn removal(action: &Action, e: &Editor) -> Option<(&'static str, String)> {
    let s = &e.scenario;
    match action {
        Action::RemoveWorker(i) => {
            s.setup.workers.get(*i).map(|w| ("sandbox.removed_worker", w.name.clone()))
        }
        Action::RemoveStep(at) => Some(("sandbox.removed_step", (at.index + 1).to_string())),
        Action::RemoveFault(k) => Some(("sandbox.removed_fault", (k + 1).to_string())),
        Action::RemoveNarration(i) => Some(("sandbox.removed_paragraph", (i + 1).to_string())),
        Action::RemovePrompt(i) => Some(("sandbox.removed_prompt", (i + 1).to_string())),
        Action::SetExpect(None) => Some(("sandbox.removed_expect", String::new())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Builder, Msg, Status, Storage};
    use crate::sandbox::drafts::{Drafts, Record};
    use crate::sandbox::{Action, BLANK};

    const START: &str = "gc-pause-fenced";

    /// A stored record holding `drafts` (name, text), the first one open.
    fn stored(drafts: &[(&str, &str)]) -> String {
        let mut kept = Drafts::default();
        for (name, text) in drafts {
            kept.add(name, text);
        }
        kept.open = drafts[0].0.to_owned();
        kept.write().text
    }

    fn named(id: &str) -> String {
        BLANK.replace("\"my-lesson\"", &format!("\"{id}\""))
    }

    fn names(b: &Builder) -> Vec<&str> {
        b.drafts.items.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn a_first_visit_shows_the_blank_lesson_and_fetches_the_start() {
        let b = Builder::open(None, None, "#/sandbox", START);
        assert_eq!((b.fetch.as_deref(), &b.status), (Some(START), &None));
        assert_eq!(b.editor.scenario.id.to_string(), "my-lesson");
    }

    #[test]
    fn kept_drafts_come_back_and_say_so_and_the_old_single_draft_joins_them() {
        let record = stored(&[("mine", &named("mine"))]);
        let b = Builder::open(Some(&record), Some(&named("old")), "", START);
        assert_eq!((b.fetch.clone(), b.status.clone()), (None, Some(Status::Restored)));
        // The moved draft is the one opened (it is the newest).
        assert_eq!(b.editor.scenario.id.to_string(), "old");
        assert_eq!(names(&b), ["mine", "draft"]);
        // A blank old draft is not kept.
        assert_eq!(names(&Builder::open(Some(&record), Some("  "), "", START)), ["mine"]);
    }

    #[test]
    fn a_link_opens_its_draft_or_a_copy_and_edit_fetches_a_built_in() {
        let text = named("mine");
        let record = stored(&[("mine", &text), ("other", &named("other"))]);
        let sj = crate::route::base64url_encode(text.as_bytes());
        let own = Builder::open(Some(&record), None, &format!("#/sandbox?sj={sj}"), START);
        assert_eq!((own.drafts.open.as_str(), names(&own).len()), ("mine", 2));
        let copy = Builder::open(Some(&record), None, &format!("#/sandbox?sj={sj}&copy=1"), START);
        assert_eq!(names(&copy).len(), 3, "a copy is a new draft");
        assert_ne!(copy.editor.scenario.id.to_string(), "mine");
        let edit = Builder::open(None, None, "#/sandbox?edit=clock-jump", START);
        assert_eq!(edit.fetch.as_deref(), Some("clock-jump"));
    }

    #[test]
    fn a_removal_says_what_went_and_undo_brings_it_back() {
        let mut b = Builder::open(Some(&stored(&[("mine", &named("mine"))])), None, "", START);
        b.update(Msg::Edit(Action::AddWorker, None));
        let workers = b.editor.scenario.setup.workers.len();
        let name = b.editor.scenario.setup.workers[workers - 1].name.clone();
        b.update(Msg::Edit(Action::RemoveWorker(workers - 1), None));
        assert_eq!(b.status, Some(Status::Removed("sandbox.removed_worker", name)));
        b.update(Msg::Edit(Action::Undo, None));
        assert_eq!((b.editor.scenario.setup.workers.len(), b.status.clone()), (workers, None));
        // The open draft follows every change.
        assert_eq!(b.drafts.text(), Some(b.editor.text.as_str()));
    }

    #[test]
    fn a_deleted_draft_can_be_brought_back_and_deleting_the_last_leaves_a_blank_one() {
        let record = stored(&[("mine", &named("mine")), ("other", &named("other"))]);
        let mut b = Builder::open(Some(&record), None, "", START);
        b.update(Msg::Delete);
        assert!(matches!(&b.status, Some(Status::Deleted(name, _)) if name == "mine"));
        assert_eq!(names(&b), ["other"]);
        b.update(Msg::BringBack);
        assert_eq!((names(&b).len(), b.editor.scenario.id.to_string()), (2, "mine".to_owned()));
        b.update(Msg::Delete);
        b.update(Msg::Delete);
        assert_eq!(names(&b), ["draft"], "the builder never has no draft");
    }

    #[test]
    fn a_fetched_lesson_arrives_as_a_new_draft_and_a_known_text_opens_its_draft() {
        let mut b = Builder::open(Some(&stored(&[("mine", &named("mine"))])), None, "", START);
        b.update(Msg::Arrived { text: named("lesson"), copy: true });
        assert_eq!(names(&b).len(), 2);
        b.update(Msg::Open("mine".to_owned()));
        b.update(Msg::Arrived { text: named("mine"), copy: false });
        assert_eq!((names(&b).len(), b.drafts.open.as_str()), (2, "mine"));
    }

    #[test]
    fn storage_health_is_judged_once_and_after_every_save() {
        assert_eq!(Storage::of(None, |_| unreachable!()), Storage::Kept);
        assert_eq!(Storage::of(Some("{"), |_| true), Storage::SetAside);
        assert_eq!(Storage::of(Some("{"), |_| false), Storage::Untouched);
        assert!(!Storage::Untouched.writable() && !Storage::Blocked.writable());
        let fine = Record { text: String::new(), evicted: Vec::new() };
        let full = Record { text: String::new(), evicted: vec!["big".to_owned()] };
        assert_eq!(Storage::Kept.after_save(false, &fine), Storage::SaveFailed);
        assert_eq!(Storage::Kept.after_save(true, &full), Storage::Evicted(vec!["big".to_owned()]));
        assert_eq!(Storage::SetAside.after_save(true, &fine), Storage::SetAside);
        assert_eq!(Storage::SaveFailed.after_save(true, &fine), Storage::Kept);
    }
}
