//! The author's named drafts, as kept in the browser's storage: which one is open and each
//! one's text, valid or not. Pure: the shell reads and writes the storage. What it reads is
//! untrusted: whatever part of a record can be read is kept, and a record that was not
//! wholly readable is reported as damaged, so that the shell keeps a copy of it aside
//! before writing over it (and says so). Writing reports the drafts it had to leave out.

use serde_json::Value;

/// Drafts kept at most (the oldest beyond it are dropped when a new one is made).
pub const DRAFTS_MAX: usize = 20;

/// Storage holds at most this much text in all (browsers allow about 5 MB per site).
const BYTES_MAX: usize = 2 * 1024 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drafts {
    /// The name of the open draft.
    pub open: String,
    /// Each draft's name and text, the most recently made last.
    pub items: Vec<(String, String)>,
}

/// What a stored record gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The drafts that could be read (none, if the record was not a drafts record).
    pub drafts: Drafts,
    /// Part or all of the record could not be read: keep a copy of it before writing.
    pub damaged: bool,
}

/// The record to store, and the drafts left out of it to fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub text: String,
    /// Names of the drafts left out, oldest first: the shell tells the author, who can
    /// still export them from the page.
    pub evicted: Vec<String>,
}

impl Drafts {
    /// Drafts as stored, with whether anything in the record could not be read.
    pub fn read(stored: &str) -> Read {
        let Ok(Value::Object(members)) = serde_json::from_str::<Value>(stored) else {
            return Read { drafts: Drafts::default(), damaged: true };
        };
        let mut drafts = Drafts::default();
        let mut damaged = false;
        match members.get("open") {
            Some(Value::String(name)) => drafts.open.clone_from(name),
            None => {}
            Some(_) => damaged = true,
        }
        let items = match members.get("drafts") {
            Some(Value::Array(items)) => items.as_slice(),
            None => &[],
            Some(_) => {
                damaged = true;
                &[]
            }
        };
        for item in items {
            let text_of = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
            match (text_of("name"), text_of("text")) {
                (Some(name), Some(text))
                    if !name.trim().is_empty() && !drafts.items.iter().any(|(n, _)| *n == name) =>
                {
                    drafts.items.push((name, text));
                }
                _ => damaged = true,
            }
        }
        if drafts.items.len() > DRAFTS_MAX {
            drafts.items.truncate(DRAFTS_MAX);
            damaged = true;
        }
        if !drafts.items.iter().any(|(n, _)| *n == drafts.open) {
            drafts.open = drafts.items.first().map(|(n, _)| n.clone()).unwrap_or_default();
        }
        Read { drafts, damaged }
    }

    /// The record to store: drafts beyond the size the storage takes are left out, oldest
    /// first, but never the open one.
    pub fn write(&self) -> Record {
        let mut items = self.items.clone();
        let mut evicted = Vec::new();
        while items.iter().map(|(n, t)| n.len() + t.len()).sum::<usize>() > BYTES_MAX {
            let Some(i) = items.iter().position(|(n, _)| *n != self.open) else { break };
            evicted.push(items.remove(i).0);
        }
        let drafts: Vec<Value> = items
            .iter()
            .map(|(name, text)| serde_json::json!({"name": name, "text": text}))
            .collect();
        let text = serde_json::json!({"open": self.open, "drafts": drafts}).to_string();
        Record { text, evicted }
    }

    /// The open draft's text.
    pub fn text(&self) -> Option<&str> {
        self.items.iter().find(|(n, _)| *n == self.open).map(|(_, t)| t.as_str())
    }

    /// Keeps `text` as the open draft's (making it, named `name`, if none is open).
    pub fn keep(&mut self, name: &str, text: &str) {
        if self.open.is_empty() {
            self.open = self.free_name(name);
        }
        match self.items.iter_mut().find(|(n, _)| *n == self.open) {
            Some((_, t)) => *t = text.to_owned(),
            None => self.items.push((self.open.clone(), text.to_owned())),
        }
    }

    /// Makes a new draft holding `text`, named after `name` (made unique), and opens it.
    pub fn add(&mut self, name: &str, text: &str) -> String {
        let name = self.free_name(name);
        self.items.push((name.clone(), text.to_owned()));
        let excess = self.items.len().saturating_sub(DRAFTS_MAX);
        self.items.drain(..excess);
        self.open = name.clone();
        name
    }

    /// Renames the open draft; refused (false) when the name is blank or taken.
    pub fn rename(&mut self, name: &str) -> bool {
        let name = name.trim();
        if name.is_empty() || self.items.iter().any(|(n, _)| n == name) {
            return false;
        }
        for (n, _) in &mut self.items {
            if *n == self.open {
                *n = name.to_owned();
            }
        }
        self.open = name.to_owned();
        true
    }

    /// Removes the open draft and opens the one before it; returns what was removed, so the
    /// shell can offer to bring it back.
    pub fn remove_open(&mut self) -> Option<(String, String)> {
        let i = self.items.iter().position(|(n, _)| *n == self.open)?;
        let removed = self.items.remove(i);
        self.open = self.items.get(i.saturating_sub(1)).map(|(n, _)| n.clone()).unwrap_or_default();
        Some(removed)
    }

    /// `name`, or `name 2`, `name 3`, ... when taken.
    fn free_name(&self, name: &str) -> String {
        let base = match name.trim() {
            "" => "draft",
            trimmed => trimmed,
        };
        let taken = |n: &str| self.items.iter().any(|(m, _)| m == n);
        if !taken(base) {
            return base.to_owned();
        }
        (2..).map(|k| format!("{base} {k}")).find(|n| !taken(n)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Drafts;

    #[test]
    fn drafts_round_trip_and_survive_damage() {
        let mut d = Drafts::default();
        d.keep("lesson", "{ half typed");
        let second = d.add("lesson", "{}");
        assert_eq!(second, "lesson 2");
        assert!(d.rename("Three workers"));
        assert!(!d.rename("lesson"), "taken");
        let back = Drafts::read(&d.write().text);
        assert!(!back.damaged);
        let back = back.drafts;
        assert_eq!(back, d);
        assert_eq!(back.text(), Some("{}"));
        let mut gone = back.clone();
        let removed = gone.remove_open().expect("removed");
        assert_eq!(removed.0, "Three workers");
        assert_eq!((gone.open.as_str(), gone.text()), ("lesson", Some("{ half typed")));
        for damaged in ["", "[]", "{\"open\": 5}", "{\"drafts\": [{\"name\": 1}]}", "\u{0}"] {
            let read = Drafts::read(damaged);
            assert!(read.damaged, "{damaged:?}");
            assert!(read.drafts.items.is_empty() && read.drafts.text().is_none(), "{damaged:?}");
        }
    }

    /// Issue 29, item 2: a record that is partly unreadable keeps what can be read and says
    /// it was damaged (the shell keeps a copy aside); an item of the wrong type used to go
    /// without a word.
    #[test]
    fn a_damaged_record_keeps_what_it_can_and_says_so() {
        let stored = r#"{"open": "b", "drafts": [{"name": "a", "text": "{}"}, {"name": 7}, {"name": "b", "text": "x"}]}"#;
        let read = Drafts::read(stored);
        assert!(read.damaged);
        let names: Vec<&str> = read.drafts.items.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(read.drafts.text(), Some("x"));
        assert!(!Drafts::read(r#"{"open": "", "drafts": []}"#).damaged);
    }

    /// Issue 29, item 2: drafts left out of the record to fit are named, so the menu drops
    /// them and the author is told (they used to stay listed after they were gone).
    #[test]
    fn drafts_left_out_to_fit_are_named() {
        let mut d = Drafts::default();
        let big = "x".repeat(900 * 1024);
        d.add("first", &big);
        d.add("second", &big);
        d.add("third", &big);
        let record = d.write();
        assert_eq!(record.evicted, ["first"]);
        let mut kept = d.clone();
        kept.items.remove(0);
        assert_eq!(Drafts::read(&record.text).drafts, kept);
    }
}
