//! The author's named drafts, as kept in the browser's storage: which one is open and each
//! one's text, valid or not. Pure: the shell reads and writes the storage; what it reads
//! is untrusted and anything unreadable becomes no drafts rather than an error.

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

impl Drafts {
    /// Drafts as stored; `None` when the text is not a drafts record.
    pub fn read(stored: &str) -> Option<Drafts> {
        let Ok(Value::Object(members)) = serde_json::from_str::<Value>(stored) else {
            return None;
        };
        let mut drafts = Drafts::default();
        if let Some(Value::String(name)) = members.get("open") {
            drafts.open.clone_from(name);
        }
        for item in members.get("drafts").and_then(Value::as_array).into_iter().flatten() {
            let text_of = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
            if let (Some(name), Some(text)) = (text_of("name"), text_of("text"))
                && !name.trim().is_empty()
                && !drafts.items.iter().any(|(n, _)| *n == name)
            {
                drafts.items.push((name, text));
            }
        }
        drafts.items.truncate(DRAFTS_MAX);
        if !drafts.items.iter().any(|(n, _)| *n == drafts.open) {
            drafts.open = drafts.items.first().map(|(n, _)| n.clone()).unwrap_or_default();
        }
        Some(drafts)
    }

    /// The record to store: dropped drafts beyond the size the storage takes, oldest first,
    /// but never the open one.
    pub fn write(&self) -> String {
        let mut items = self.items.clone();
        while items.iter().map(|(n, t)| n.len() + t.len()).sum::<usize>() > BYTES_MAX {
            let Some(i) = items.iter().position(|(n, _)| *n != self.open) else { break };
            items.remove(i);
        }
        let drafts: Vec<Value> = items
            .iter()
            .map(|(name, text)| serde_json::json!({"name": name, "text": text}))
            .collect();
        serde_json::json!({"open": self.open, "drafts": drafts}).to_string()
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
        let back = Drafts::read(&d.write()).expect("a record");
        assert_eq!(back, d);
        assert_eq!(back.text(), Some("{}"));
        let mut gone = back.clone();
        let removed = gone.remove_open().expect("removed");
        assert_eq!(removed.0, "Three workers");
        assert_eq!((gone.open.as_str(), gone.text()), ("lesson", Some("{ half typed")));
        for damaged in ["", "[]", "{\"open\": 5}", "{\"drafts\": [{\"name\": 1}]}", "\u{0}"] {
            let read = Drafts::read(damaged).unwrap_or_default();
            assert!(read.items.is_empty() && read.text().is_none(), "{damaged:?}");
        }
    }
}
