//! Every message in every language: present, not empty, same placeholders.

use std::collections::BTreeMap;

use fencing_playground::i18n::{self, Lang, content_keys, parse_pack, placeholders};

fn pack(lang: Lang) -> BTreeMap<String, String> {
    let path = format!("{}/static/i18n/{}.json", env!("CARGO_MANIFEST_DIR"), lang.code());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_pack(&text).unwrap_or_else(|e| panic!("{path}: {e}")).into_iter().collect()
}

#[test]
fn every_key_is_translated_with_the_same_placeholders() {
    // The UI strings, as build.rs split them between the two pages.
    let english_ui: BTreeMap<String, String> = i18n::english(i18n::EN_MAIN)
        .into_iter()
        .chain(i18n::english(i18n::EN_LAB))
        .chain(i18n::english(i18n::EN_EXPLORE))
        .collect();
    assert_eq!(english_ui, pack(Lang::En), "the split lost or changed a message");
    // English content lives in the scenario and quiz files themselves.
    let english: BTreeMap<String, String> =
        english_ui.clone().into_iter().chain(content_keys()).collect();
    assert!(english_ui.len() >= 100, "UI strings: {}", english_ui.len());
    let mut problems = Vec::new();
    for (key, text) in &english {
        if text.trim().is_empty() {
            problems.push(format!("en: {key} is empty"));
        }
    }
    for lang in [Lang::Id, Lang::Vi] {
        problems.extend(pack_problems(&english, lang.code(), &pack(lang)));
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// What is wrong with a translated pack against the English messages: missing or empty
/// keys, placeholders that differ, keys English does not have.
fn pack_problems(
    english: &BTreeMap<String, String>,
    code: &str,
    pack: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, text) in english {
        match pack.get(key) {
            None => problems.push(format!("{code}: {key} is missing")),
            Some(t) if t.trim().is_empty() => problems.push(format!("{code}: {key} is empty")),
            Some(t) if placeholders(t) != placeholders(text) => problems.push(format!(
                "{code}: {key} has placeholders {:?}, English has {:?}",
                placeholders(t),
                placeholders(text)
            )),
            Some(_) => {}
        }
    }
    for key in pack.keys().filter(|k| !english.contains_key(*k)) {
        problems.push(format!("{code}: {key} is not an English key (stale?)"));
    }
    problems
}

/// Every literal key a view looks up exists in the English strings of its page: `t`/`tf`
/// in the main page's, `lab`/`labf` in the lab's, `explore`/`exploref` in the explorer's (a
/// wrong one would show the bare key).
#[test]
fn every_key_a_view_uses_is_in_its_pages_english() {
    let main = i18n::english(i18n::EN_MAIN);
    let lab = i18n::english(i18n::EN_LAB);
    let explore = i18n::english(i18n::EN_EXPLORE);
    let mut problems = Vec::new();
    let mut seen = 0;
    let dir = format!("{}/src/ui", env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    for entry in std::fs::read_dir(&dir).expect("src/ui") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).expect("dir").map(|e| e.expect("entry").path()));
        } else {
            files.push(path);
        }
    }
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let source = std::fs::read_to_string(path).expect("source");
        // A literal key may sit on the next line of a long call, as rustfmt breaks it.
        for (call, pack) in [(".t(", &main), (".tf(", &main), (".lab(", &lab), (".labf(", &lab)]
            .into_iter()
            .chain([(".explore(", &explore), (".exploref(", &explore)])
        {
            for piece in source.split(call).skip(1) {
                let Some(piece) = piece.trim_start().strip_prefix('"') else { continue };
                let key = piece.split('"').next().unwrap_or("");
                seen += 1;
                if !pack.contains_key(key) {
                    problems.push(format!(
                        "{}: {call}\"{key}\" is not in its page's English",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(seen > 150, "the scan found only {seen} lookups");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_catches_a_missing_key_a_changed_placeholder_and_a_stale_key() {
    // The check above is only as good as what it sees: break the real Indonesian pack in
    // three ways and each must be named.
    let english: BTreeMap<String, String> = i18n::english(i18n::EN_MAIN)
        .into_iter()
        .chain(i18n::english(i18n::EN_LAB))
        .chain(i18n::english(i18n::EN_EXPLORE))
        .chain(content_keys())
        .collect();
    let mut broken = pack(Lang::Id);
    assert!(pack_problems(&english, "id", &broken).is_empty(), "the real pack is sound");
    broken.remove("player.play").expect("a key to drop");
    let step_of = broken.get_mut("player.step_of").expect("a key with placeholders");
    *step_of = step_of.replace("{m}", "{jumlah}");
    broken.insert("player.gone".to_owned(), "lama".to_owned());
    let problems = pack_problems(&english, "id", &broken);
    for expected in [
        "id: player.play is missing",
        "id: player.step_of has placeholders",
        "id: player.gone is not an English key",
    ] {
        assert!(problems.iter().any(|p| p.starts_with(expected)), "{expected}: {problems:?}");
    }
}

#[test]
fn every_key_the_code_builds_is_in_every_pack() {
    // Keys made at run time (compare headings and changes, plain verdicts) escape the scan
    // of literal keys; each list of them is checked here against English and both packs.
    use fencing_playground::compare::{Change, Protection};
    let mut computed: Vec<&str> = fencing_playground::verdict::KEYS.to_vec();
    computed.extend(Change::ALL.map(Change::key));
    computed.extend(Protection::ALL.map(Protection::heading_key));
    let sandbox = fencing_playground::sandbox::message_keys();
    assert!(sandbox.len() > 100, "the sandbox's keys: {}", sandbox.len());
    computed.extend(sandbox.iter().map(String::as_str));
    let english: BTreeMap<String, String> = i18n::english(i18n::EN_MAIN)
        .into_iter()
        .chain(i18n::english(i18n::EN_LAB))
        .chain(i18n::english(i18n::EN_EXPLORE))
        .collect();
    let mut missing = Vec::new();
    for key in &computed {
        for (name, pack) in [("en", &english), ("id", &pack(Lang::Id)), ("vi", &pack(Lang::Vi))] {
            if !pack.contains_key(*key) {
                missing.push(format!("{name}: {key}"));
            }
        }
    }
    assert!(missing.is_empty(), "computed keys without a message:\n{}", missing.join("\n"));
}

/// Every glossary problem of `pack` (language `code`) against the English `source`.
fn glossary_problems(
    code: &str,
    pack: &BTreeMap<String, String>,
    english: &BTreeMap<String, String>,
) -> Vec<String> {
    let path = format!("{}/static/i18n/glossary.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("glossary");
    let root: serde_json::Value = serde_json::from_str(&text).expect("glossary parses");
    use serde_json::Value;
    let string = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let items =
        |value: Option<&Value>| value.and_then(Value::as_array).cloned().unwrap_or_default();
    let lang = root.get(code).expect("the language in the glossary");
    let mut problems = Vec::new();
    for pair in items(lang.get("keep")) {
        let Value::Array(pair) = &pair else { continue };
        let (source, kept) = (string(&pair[0]).to_lowercase(), string(&pair[1]).to_lowercase());
        for (key, en) in english {
            let translated = pack.get(key).map(|t| t.to_lowercase()).unwrap_or_default();
            if en.to_lowercase().contains(&source) && !translated.contains(&kept) {
                problems.push(format!("{code} {key}: English says \"{source}\", keep \"{kept}\""));
            }
        }
    }
    for avoid in items(lang.get("avoid")) {
        let bad = string(avoid.get("text").expect("text")).to_lowercase();
        let except: Vec<String> = items(avoid.get("except")).iter().map(string).collect();
        for (key, text) in pack {
            let found = match code {
                "id" => contains_inflected(&text.to_lowercase(), &bad),
                _ => contains_word(&text.to_lowercase(), &bad),
            };
            if found && !except.contains(key) {
                problems.push(format!("{code} {key}: avoid \"{bad}\": {text}"));
            }
        }
    }
    problems
}

fn english_everything() -> BTreeMap<String, String> {
    i18n::english(i18n::EN_MAIN)
        .into_iter()
        .chain(i18n::english(i18n::EN_LAB))
        .chain(i18n::english(i18n::EN_EXPLORE))
        .chain(content_keys())
        .collect()
}

#[test]
fn every_pack_follows_the_glossary() {
    let english = english_everything();
    let mut problems = Vec::new();
    for lang in [Lang::Id, Lang::Vi] {
        problems.extend(glossary_problems(lang.code(), &pack(lang), &english));
    }
    assert!(problems.is_empty(), "{} glossary problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_glossary_check_sees_a_term_that_drifted() {
    let english = english_everything();
    let mut id = pack(Lang::Id);
    id.insert("verdict.ok".into(), "tidak ada pelanggaran keamanan".into());
    let problems = glossary_problems("id", &id, &english);
    assert!(problems.iter().any(|p| p.contains("keamanan")), "{problems:?}");
    // An inflected form is caught too; a longer word that starts the same is not.
    id.insert("verdict.ok".into(), "token basinya ditolak".into());
    let problems = glossary_problems("id", &id, &english);
    assert!(problems.iter().any(|p| p.contains("basinya")), "{problems:?}");
    assert!(contains_inflected("ditolak karena basinya", "basi"));
    assert!(contains_inflected("data dibasikan", "basi"));
    assert!(!contains_inflected("basis data", "basi"));
    assert!(!contains_inflected("pekerjaan", "pekerja"));
    let mut vi = pack(Lang::Vi);
    vi.insert("s.efficiency-lock.title".into(), "Lock hiệu suất".into());
    let problems = glossary_problems("vi", &vi, &english);
    assert!(problems.iter().any(|p| p.contains("efficiency lock")), "{problems:?}");
}

/// Whether `text` contains `word` as a word or in an Indonesian inflected form: with the
/// prefix di-, me- or ber- and the suffix -nya, -kan or -i ("basinya", "diakuinya"), but
/// not inside another word ("basi" is not in "basis data").
fn contains_inflected(text: &str, word: &str) -> bool {
    const PREFIXES: [&str; 4] = ["", "di", "me", "ber"];
    const SUFFIXES: [&str; 4] = ["", "nya", "kan", "i"];
    text.match_indices(word).any(|(at, _)| {
        let before = &text[..at];
        let after = &text[at + word.len()..];
        let starts = PREFIXES.iter().any(|p| {
            before
                .strip_suffix(p)
                .is_some_and(|b| b.chars().next_back().is_none_or(|c| !c.is_alphanumeric()))
        });
        let ends = SUFFIXES.iter().any(|s| {
            after
                .strip_prefix(s)
                .is_some_and(|a| a.chars().next().is_none_or(|c| !c.is_alphanumeric()))
        });
        starts && ends
    })
}

/// Whether `text` contains `word` with no letter or digit right before or after it ("basi"
/// is not in "basis data").
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}
