//! Every message in every language: present, not empty, same placeholders.

use std::collections::BTreeMap;

use fencing_playground::i18n::{self, Lang, content_keys, parse_pack, placeholders};

fn pack(lang: Lang) -> BTreeMap<String, String> {
    let path = format!("{}/static/i18n/{}.json", env!("CARGO_MANIFEST_DIR"), lang.code());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_pack(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_key_is_translated_with_the_same_placeholders() {
    let english_ui = parse_pack(i18n::EN_UI).expect("en.json");
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
        let pack = pack(lang);
        for (key, text) in &english {
            match pack.get(key) {
                None => problems.push(format!("{}: {key} is missing", lang.code())),
                Some(t) if t.trim().is_empty() => {
                    problems.push(format!("{}: {key} is empty", lang.code()))
                }
                Some(t) if placeholders(t) != placeholders(text) => problems.push(format!(
                    "{}: {key} has placeholders {:?}, English has {:?}",
                    lang.code(),
                    placeholders(t),
                    placeholders(text)
                )),
                Some(_) => {}
            }
        }
        for key in pack.keys().filter(|k| !english.contains_key(*k)) {
            problems.push(format!("{}: {key} is not an English key (stale?)", lang.code()));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_check_catches_a_missing_key_and_a_changed_placeholder() {
    // The test above is only as good as these two detections.
    let template = "step {n} of {m}";
    assert_ne!(placeholders(template), placeholders("langkah {n} dari {total}"));
    let broken = parse_pack("{\"player.step_of\": \"\"}").unwrap();
    assert!(broken.get("player.step_of").is_some_and(|t| t.is_empty()));
    assert!(!broken.contains_key("player.play"));
}
