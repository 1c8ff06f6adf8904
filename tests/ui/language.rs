//! No English from code in Indonesian or Vietnamese: every view, rendered in each, is read
//! word by word, outside code, commands and replies, for English words that no sentence of
//! either language uses (function words and the model's past-tense event verbs). Terms the
//! glossary keeps in English (lock, token, lease, write, pause...) are not on the list.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{click, find, find_all, install_packs, mount_at, until_within};

/// English words that never belong in an Indonesian or Vietnamese sentence here.
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "with",
    "at",
    "of",
    "is",
    "was",
    "are",
    "its",
    "their",
    "after",
    "before",
    "then",
    "when",
    "this",
    "that",
    "from",
    "into",
    "again",
    "granted",
    "paused",
    "accepted",
    "rejected",
    "expired",
    "released",
    "denied",
    "resumed",
    "renewed",
    "finished",
    "crashed",
    "delayed",
    "replicated",
    "promoted",
    "charged",
    "carried",
    "running",
    "checked",
    "drawn",
];

/// The views a learner meets, each as a link without its language: the lesson builder on
/// a copy of a built-in too (its facts, anchors, marks and event list are said in the
/// reader's language; the scenario's own texts are the author's, in the form's fields).
const VIEWS: &[&str] = &[
    "#/",
    "#/s/gc-pause-fenced?t=40000",
    "#/s/failover-duplicate-token?t=999999",
    "#/s/watchdog-pauses-too?t=20000",
    "#/quiz",
    "#/compare/gc-pause-fenced",
    "#/handout/gc-pause-fenced",
    "#/challenge",
    "#/challenge/outlast-the-watchdog",
    "#/explore",
    "#/break/gc-pause-fenced",
    "#/sandbox?edit=gc-pause-fenced",
];

/// The English words of `root`'s text outside code, commands and replies, each with the
/// text around it.
fn english_in(root: &web_sys::Element) -> Vec<String> {
    let copy: web_sys::Element = root.clone_node_with_deep(true).unwrap().dyn_into().unwrap();
    // Code, commands, replies, ids and the choices of a language menu stay as they are.
    let skip = "code, pre, kbd, samp, script, style, .reply, .cmd, [data-testid=lang], [lang=en]";
    let found = copy.query_selector_all(skip).unwrap();
    for i in 0..found.length() {
        if let Some(node) = found.get(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            node.remove();
        }
    }
    let text = copy.text_content().unwrap_or_default();
    let mut problems = Vec::new();
    let words: Vec<(usize, &str)> = text
        // A hyphenated term stays one word (`stop-the-world`, `check-and-delete`).
        .split(|c: char| !c.is_alphabetic() && c != '\'' && c != '-')
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for (at, word) in words {
        // A word in capitals is SQL or a command (`WHERE id = 42 AND last_fence < 33`).
        if word.chars().all(|c| !c.is_lowercase()) {
            continue;
        }
        let lower = word.to_lowercase();
        if ENGLISH.contains(&lower.as_str()) || lower.ends_with("'s") {
            let from = text.floor_char_boundary(at.saturating_sub(40));
            let to = text.ceil_char_boundary((at + word.len() + 40).min(text.len()));
            problems.push(format!("\"{word}\" in …{}…", text[from..to].replace('\n', " ")));
        }
    }
    problems
}

#[wasm_bindgen_test]
async fn every_view_in_indonesian_and_vietnamese_is_free_of_english_from_code() {
    install_packs();
    let mut problems = Vec::new();
    for lang in ["id", "vi"] {
        for view in VIEWS {
            let sep = if view.contains('?') { '&' } else { '?' };
            let root = mount_at(&format!("{view}{sep}lang={lang}")).await;
            // A challenge checked once: its verdict and its run are read too.
            if view.starts_with("#/challenge/") {
                click(&root, "challenge-check").await;
                until_within("the grade", 120_000.0, || find(&root, "challenge-held")).await;
            }
            for problem in english_in(&root) {
                problems.push(format!("{lang} {view}: {problem}"));
            }
        }
    }
    assert!(problems.is_empty(), "{} English words:\n{}", problems.len(), problems.join("\n"));
}

/// The check sees English where it is: a sentence left in English fails it.
#[wasm_bindgen_test]
fn the_check_sees_an_english_sentence() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    root.set_inner_html("<p>A menulis <code>SET lock the value</code></p><p>A paused at 1 s</p>");
    let problems = english_in(&root);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("\"paused\""), "{problems:?}");
}

/// The event log (the timeline's text alternative) is read too: each line's time, kind and
/// prose are outside `code`, so the check above sees them; only the command and the reply
/// are code.
#[wasm_bindgen_test]
async fn the_event_log_is_prose_in_the_readers_language_around_its_commands() {
    install_packs();
    for lang in ["id", "vi"] {
        let root = mount_at(&format!("#/s/gc-pause-fenced?t=40000&lang={lang}")).await;
        let lines = find_all(&root, "log-event");
        assert!(lines.len() > 5, "{lang}: the log lists the run");
        for line in &lines {
            let copy: web_sys::Element =
                line.clone_node_with_deep(true).unwrap().dyn_into().unwrap();
            let code = copy.query_selector_all("code").unwrap();
            for i in 0..code.length() {
                if let Some(node) = code.get(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                {
                    node.remove();
                }
            }
            let prose = copy.text_content().unwrap_or_default();
            assert!(
                prose.chars().any(char::is_alphabetic),
                "{lang}: a line with no prose: {prose}"
            );
        }
        // Times the reader's way: no three-decimal English seconds.
        let all: String = lines.iter().map(|l| l.text_content().unwrap_or_default()).collect();
        assert!(!all.contains(".000 s"), "{lang}: {all}");
    }
}
