//! Languages and messages: English built in, Bahasa Indonesia and Tiếng Việt as packs.
//!
//! Owns message lookup with `{name}` placeholders, pack parsing and the key inventory that
//! a native test checks across languages. Scenario and quiz texts are keyed by id
//! (`s.<id>.title`, `s.<id>.n.<i>`, `q.<id>.prompt`, ...); English comes from the
//! scenario and quiz files themselves, so the English source is never duplicated.
//! Pure: the shell fetches packs and stores the choice.

use crate::sim::sorted::{SortedMap, SortedSet};

pub use crate::lang::Lang;

// `EN_MAIN`: the English UI strings of the main page's views; `EN_LAB`: those only the lab
// page's views use (keys starting with `sandbox.`, `compare.`, `quiz.`, ...), looked up
// with [`Messages::lab`]; `EN_EXPLORE`: the explorer page's (`explore.`), looked up with
// [`Messages::explore`]. `build.rs` bakes them from `static/i18n/en.json` as Rust data, so
// no page parses English, and each bundle references only the tables its views use.
include!(concat!(env!("OUT_DIR"), "/en_main.rs"));
include!(concat!(env!("OUT_DIR"), "/en_lab.rs"));
include!(concat!(env!("OUT_DIR"), "/en_explore.rs"));

/// A language pack: key to template.
pub type Pack = SortedMap<String, String>;

/// Parses a pack file: one JSON object of strings (nested objects are not used); an error
/// names the line and column. (The web pages read fetched packs with the browser's JSON
/// parser and [`pack_of`].)
pub fn parse_pack(text: &str) -> Result<Pack, String> {
    let members: Vec<(String, String)> = serde_json::from_str::<serde_json::Map<_, _>>(text)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(key, value)| match value {
            serde_json::Value::String(text) => Ok((key, text)),
            _ => Err(format!("the value of `{key}` must be a string")),
        })
        .collect::<Result<_, _>>()?;
    Ok(pack_of(members))
}

/// A pack from its members.
pub fn pack_of(members: impl IntoIterator<Item = (String, String)>) -> Pack {
    let mut pack = Pack::new();
    for (key, text) in members {
        pack.insert(key, text);
    }
    pack
}

/// English baked as `build.rs` wrote it, as a pack.
/// The English messages of one table as build.rs bakes it: `key US text RS`, member after
/// member.
pub fn english(table: &str) -> Pack {
    let members = table.split('\u{1e}').filter_map(|member| member.split_once('\u{1f}'));
    pack_of(members.map(|(key, text)| (key.to_owned(), text.to_owned())))
}

/// Fills `{name}` placeholders; unknown placeholders stay as written.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    crate::sim::event::fill(template, args)
}

/// The placeholder names a template uses.
pub fn placeholders(template: &str) -> SortedSet<String> {
    let mut names = SortedSet::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            names.insert(name.to_owned());
        }
        rest = &after[close + 1..];
    }
    names
}

/// Messages for one language: the UI pack and (for id/vi) the content translations, with
/// English as the fallback for anything missing.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Messages {
    pub lang: Lang,
    pub en: Pack,
    pub pack: Pack,
}

impl Messages {
    pub fn english() -> Messages {
        Messages { lang: Lang::En, en: english(EN_MAIN), pack: Pack::new() }
    }

    pub fn with_pack(lang: Lang, pack: Pack) -> Messages {
        Messages { lang, pack, ..Messages::english() }
    }

    /// A UI string; the key itself if even English lacks it (a native test prevents that).
    pub fn t(&self, key: &str) -> String {
        self.lookup(key, &self.en)
    }

    pub fn tf(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(&self.t(key), args)
    }

    /// A UI string of the lab page (see [`EN_LAB`]): from the pack, else English.
    pub fn lab(&self, key: &str) -> String {
        static ENGLISH: std::sync::OnceLock<Pack> = std::sync::OnceLock::new();
        self.lookup(key, ENGLISH.get_or_init(|| english(EN_LAB)))
    }

    /// A UI string of the explorer page (see [`EN_EXPLORE`]): from the pack, else English.
    pub fn explore(&self, key: &str) -> String {
        static ENGLISH: std::sync::OnceLock<Pack> = std::sync::OnceLock::new();
        self.lookup(key, ENGLISH.get_or_init(|| english(EN_EXPLORE)))
    }

    pub fn exploref(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(&self.explore(key), args)
    }

    /// The pack's text, else `english`'s, else the key itself.
    fn lookup(&self, key: &str, english: &Pack) -> String {
        self.pack.get(key).or_else(|| english.get(key)).cloned().unwrap_or_else(|| key.to_owned())
    }

    pub fn labf(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(&self.lab(key), args)
    }

    /// An event's prose in this language, or what it answered where it has none.
    pub fn prose_or_reply(&self, event: &crate::sim::event::Event) -> String {
        let prose = self.note(&event.note);
        if prose.is_empty() { event.reply.clone() } else { prose }
    }

    /// The prose of a simulator event (a fact, a rejection's why, a finding) in this
    /// language; the English wording when the pack lacks it.
    pub fn note(&self, note: &crate::sim::event::Note) -> String {
        if note.key.is_empty() {
            return String::new();
        }
        match self.pack.get(note.key).filter(|_| self.lang != Lang::En) {
            Some(template) => {
                // The model writes times the English way ("40.000 s"); the learner reads
                // them in their own.
                let local: Vec<String> = note
                    .args
                    .iter()
                    .map(|(_, v)| self.local_secs(v).unwrap_or_else(|| v.clone()))
                    .collect();
                let args: Vec<(&str, &str)> =
                    note.args.iter().zip(&local).map(|((k, _), v)| (*k, v.as_str())).collect();
                fill(template, &args)
            }
            None => note.english(),
        }
    }

    /// A time in milliseconds as seconds with three decimals, in this language's number
    /// format and unit: `40.000 s`, `40,000 dtk`, `40,000 giây`.
    ///
    /// Where the decimal separator is a comma (`id`, `vi`), a reader used to English
    /// grouping takes `39,000` for thirty-nine thousand: there the milliseconds show only
    /// when they are not zero, without trailing zeros (`39 dtk`, `1,5 giây`, `30,999 dtk`).
    pub fn secs(&self, ms: u64) -> String {
        let whole = (ms / 1000).to_string();
        let template = self.t("num.secs");
        if !self.decimal_comma() {
            return self.tf("num.secs", &[("s", &whole), ("ms", &format!("{:03}", ms % 1000))]);
        }
        let number = match ms % 1000 {
            0 => whole,
            part => format!("{whole},{}", format!("{part:03}").trim_end_matches('0')),
        };
        fill(&template.replace("{s},{ms}", "{n}"), &[("n", &number)])
    }

    /// A count with its thousands grouped as the reader groups them: `1,000,000` in
    /// English, `1.000.000` where the decimal separator is a comma (`id`, `vi`).
    pub fn count(&self, n: u64) -> String {
        let group = if self.decimal_comma() { '.' } else { ',' };
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(group);
            }
            out.push(c);
        }
        out
    }

    /// The unit `secs` writes after a time (`s`, `dtk`, `giây`), for an axis.
    pub fn secs_unit(&self) -> String {
        self.t("num.secs").rsplit(' ').next().unwrap_or("s").to_owned()
    }

    /// A decimal written the English way (`12.34`) with this language's separator: the one
    /// its time format (`num.secs`) uses, so the two cannot disagree.
    pub fn decimal(&self, text: &str) -> String {
        match self.decimal_comma() {
            true => text.replace('.', ","),
            false => text.to_owned(),
        }
    }

    /// Whether this language writes a decimal comma, as its time format (`num.secs`) does.
    fn decimal_comma(&self) -> bool {
        self.t("num.secs").contains("{s},{ms}")
    }

    /// `text` if it is a time as the model writes it (`40.000 s`), in this language.
    fn local_secs(&self, text: &str) -> Option<String> {
        let (whole, rest) = text.strip_suffix(" s")?.split_once('.')?;
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || rest.len() != 3 || !digits(rest) {
            return None;
        }
        Some(self.secs(
            whole.parse::<u64>().ok()?.saturating_mul(1000).saturating_add(rest.parse().ok()?),
        ))
    }

    /// An event's kind as the timeline, the inspector and the event log name it
    /// (`write rejected`; `ghi bị từ chối` in Vietnamese), from its tag (`write-rejected`).
    pub fn tag(&self, tag: &str) -> String {
        self.content(&format!("tag.{tag}"), &tag.replace('-', " "))
    }

    /// A content string (scenario or quiz text) with its English original as fallback.
    pub fn content(&self, key: &str, english: &str) -> String {
        match self.lang {
            Lang::En => english.to_owned(),
            _ => self.pack.get(key).cloned().unwrap_or_else(|| english.to_owned()),
        }
    }
}

/// Every content key with its English text: what a complete pack must translate.
pub fn content_keys() -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = crate::sim::event::NOTE_TEMPLATES
        .iter()
        .chain(crate::search::PHRASES)
        .map(|(key, template)| ((*key).to_owned(), (*template).to_owned()))
        .collect();
    // Each event kind's name (`Messages::tag`).
    keys.extend(crate::sim::event::TAGS.iter().map(|t| (format!("tag.{t}"), t.replace('-', " "))));
    for s in crate::catalogue::all() {
        let id = &s.id;
        keys.push((format!("s.{id}.title"), s.title.clone()));
        keys.push((format!("s.{id}.summary"), s.summary.clone()));
        keys.push((format!("s.{id}.goal"), s.goal.clone()));
        if !s.in_code.is_empty() {
            keys.push((format!("s.{id}.in_code"), s.in_code.clone()));
        }
        if let Some(expect) = &s.expect {
            keys.push((format!("s.{id}.badge"), expect.badge.clone()));
        }
        for (i, n) in s.narration.iter().enumerate() {
            keys.push((format!("s.{id}.n.{i}"), n.text.clone()));
        }
        for (i, p) in s.prompts.iter().enumerate() {
            keys.push((format!("s.{id}.p.{i}.question"), p.question.clone()));
            for (j, option) in p.options.iter().enumerate() {
                keys.push((format!("s.{id}.p.{i}.o.{j}"), option.clone()));
            }
            keys.push((format!("s.{id}.p.{i}.explanation"), p.explanation.clone()));
        }
    }
    let mut chapters: Vec<String> =
        crate::catalogue::all().into_iter().map(|s| s.chapter).collect();
    chapters.dedup();
    for chapter in chapters {
        keys.push((format!("chapter.{chapter}"), chapter));
    }
    for (id, ..) in crate::challenge::INDEX {
        let Some(c) = crate::challenge::file(id).and_then(|f| crate::challenge::parse(f).ok())
        else {
            continue;
        };
        keys.extend(crate::challenge::content_keys(&c));
    }
    for q in crate::quiz::bank() {
        let id = &q.id;
        keys.push((format!("q.{id}.prompt"), q.prompt.clone()));
        for (j, option) in q.options.iter().enumerate() {
            keys.push((format!("q.{id}.o.{j}"), option.clone()));
        }
        keys.push((format!("q.{id}.explanation"), q.explanation.clone()));
        for (j, why) in q.why.iter().flatten().enumerate() {
            if let Some(why) = why {
                keys.push((format!("q.{id}.why.{j}"), why.text.clone()));
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::{Lang, fill, parse_pack, placeholders};

    /// Each what-if menu label that is a message key has an English text (a missing one
    /// would show the key itself).
    #[test]
    fn every_what_if_menu_label_has_an_english_text() {
        let english = super::Messages::english();
        for (_, menu) in crate::whatif::CHOICES {
            for (_, label) in *menu {
                if let crate::whatif::Label::Key(key) = label {
                    assert_ne!(english.t(key), *key, "{key} has no English text");
                }
            }
        }
    }

    #[test]
    fn placeholders_fill_and_survive_odd_input() {
        assert_eq!(fill("step {n} of {m}", &[("n", "3"), ("m", "11")]), "step 3 of 11");
        assert_eq!(fill("{missing} stays", &[]), "{missing} stays");
        assert_eq!(fill("unclosed {brace", &[("brace", "x")]), "unclosed {brace");
        assert_eq!(
            placeholders("{a} and {b} and {a}").iter().cloned().collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert!(placeholders("{ not a name }").is_empty());
    }

    #[test]
    fn languages_come_from_codes_and_browser_tags() {
        assert_eq!(Lang::from_browser("id-ID"), Lang::Id);
        assert_eq!(Lang::from_browser("vi"), Lang::Vi);
        assert_eq!(Lang::from_browser("fr-FR"), Lang::En);
        assert_eq!(Lang::from_code("xx"), None);
        assert!(parse_pack("{\"a\": 1}").is_err());
        assert!(parse_pack("[]").is_err());
    }

    #[test]
    fn times_read_in_the_learners_number_format() {
        use super::Messages;
        let pack = |code: &str| {
            let path = format!("{}/static/i18n/{code}.json", env!("CARGO_MANIFEST_DIR"));
            parse_pack(&std::fs::read_to_string(path).unwrap()).unwrap()
        };
        let (en, id, vi) = (
            Messages::english(),
            Messages::with_pack(Lang::Id, pack("id")),
            Messages::with_pack(Lang::Vi, pack("vi")),
        );
        assert_eq!(en.secs(39_000), "39.000 s");
        // With a decimal comma, no zero milliseconds that read as thousands.
        assert_eq!(id.secs(39_000), "39 dtk");
        assert_eq!(id.secs(30_999), "30,999 dtk");
        assert_eq!(vi.secs(1_500), "1,5 giây");
        assert_eq!(vi.secs(40), "0,04 giây");
        assert_eq!(
            (en.secs_unit(), id.secs_unit(), vi.secs_unit()),
            ("s".into(), "dtk".into(), "giây".into())
        );
        // The model's own notes carry English times; a translated note shows them locally.
        let note = crate::sim::event::Note::new("sim.paused", vec![("t", "40.000 s".to_owned())]);
        assert!(id.note(&note).contains("40 dtk"), "{}", id.note(&note));
        assert!(en.note(&note).contains("40.000 s"), "{}", en.note(&note));
        // Anything else is left as it is.
        let other = crate::sim::event::Note::new("sim.paused", vec![("t", "4.5 s".to_owned())]);
        assert!(id.note(&other).contains("4.5 s"));
    }
}
