//! Every sentence true: what a lesson says about its run is declared as facts, and the facts
//! are checked against the run of every built-in.

use fencing_playground::catalogue::{self, facts};
use fencing_playground::i18n::{Lang, content_keys};
use fencing_playground::sim;

use crate::support::flip;

#[test]
fn every_declared_fact_of_every_builtin_holds_in_its_run() {
    let mut problems = Vec::new();
    for scenario in catalogue::all() {
        let trace = sim::run(&scenario.setup);
        for (place, why) in facts::broken(&trace, &scenario) {
            problems.push(format!("{} {place}: {why}", scenario.id));
        }
    }
    assert!(problems.is_empty(), "{} broken facts:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_paragraph_prompt_and_summary_declares_what_it_rests_on() {
    let mut problems = Vec::new();
    for scenario in catalogue::all() {
        let trace = sim::run(&scenario.setup);
        let mut need = |place: String, text: &str, declared: &[catalogue::lesson::Fact]| {
            if declared.is_empty() {
                problems.push(format!("{} {place}: no facts declared", scenario.id));
            }
            for why in facts::undeclared(text, declared, &trace) {
                problems.push(format!("{} {place}: {why}\n    \"{text}\"", scenario.id));
            }
        };
        need(
            "claims".into(),
            &format!("{} {}", scenario.title, scenario.summary),
            &scenario.claims,
        );
        for (i, n) in scenario.narration.iter().enumerate() {
            need(format!("narration[{i}]"), &n.text, &n.facts);
        }
        for (i, p) in scenario.prompts.iter().enumerate() {
            need(format!("prompts[{i}]"), &format!("{} {}", p.question, p.explanation), &p.facts);
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_changed_fact_or_sentence_is_caught() {
    // The checks must bite: every declared fact, flipped, breaks; a token the text names
    // without a fact behind it is reported.
    for scenario in catalogue::all() {
        let trace = sim::run(&scenario.setup);
        for (i, n) in scenario.narration.iter().enumerate() {
            for fact in &n.facts {
                let flipped = flip(fact.clone());
                assert!(
                    facts::check(&trace, &flipped).is_err(),
                    "{} narration[{i}]: {flipped:?} still holds",
                    scenario.id
                );
            }
        }
    }
    let lesson = catalogue::find("gc-pause-fenced").expect("built-in");
    let trace = sim::run(&lesson.setup);
    let n = &lesson.narration[7];
    let changed = n.text.replace("last_fence is 34", "last_fence is 35");
    assert!(!facts::undeclared(&changed, &n.facts, &trace).is_empty() || changed == n.text);
}

#[test]
fn no_sentence_names_a_scenario_id_or_the_seed_articles() {
    // Learners never saw the source articles, and ids are for links, not for reading.
    let ids: Vec<String> = catalogue::all().into_iter().map(|s| s.id.to_string()).collect();
    let mut problems = Vec::new();
    let mut texts: Vec<(String, String)> = content_keys().into_iter().collect();
    for lang in [Lang::Id, Lang::Vi] {
        let path = format!("{}/static/i18n/{}.json", env!("CARGO_MANIFEST_DIR"), lang.code());
        let pack = std::fs::read_to_string(&path).expect("language pack");
        let pack = fencing_playground::i18n::parse_pack(&pack).expect("pack parses");
        texts.extend(pack.into_iter().filter(|(k, _)| k.starts_with("s.") || k.starts_with("q.")));
    }
    for (key, text) in &texts {
        let lower = text.to_lowercase();
        if lower.contains("seed") {
            problems.push(format!("{key}: mentions the seed: {text}"));
        }
        for id in &ids {
            if text.contains(id.as_str()) {
                problems.push(format!("{key}: names {id}: {text}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn prediction_prompts_do_not_give_their_answer_away_by_length_or_place() {
    // As for the quiz: in each language the right option is the longest (ties count) in at
    // most a third of the prompts, and no place holds the answer in more than 40 % of them.
    let all = fencing_playground::catalogue::all();
    let mut prompts: Vec<(String, usize, &fencing_playground::catalogue::lesson::Prompt)> =
        Vec::new();
    for scenario in &all {
        for (i, prompt) in scenario.prompts.iter().enumerate() {
            prompts.push((scenario.id.to_string(), i, prompt));
        }
    }
    assert!(prompts.len() >= 12, "{} prompts", prompts.len());
    let mut places = [0usize; 8];
    for (_, _, prompt) in &prompts {
        places[prompt.answer.min(7)] += 1;
    }
    let busiest = places.into_iter().max().unwrap_or(0);
    assert!(busiest * 10 <= prompts.len() * 4, "one place holds {busiest} answers: {places:?}");
    for code in ["en", "id", "vi"] {
        let pack = crate::support::pack(code);
        let option = |id: &str,
                      i: usize,
                      prompt: &fencing_playground::catalogue::lesson::Prompt,
                      j: usize| match code {
            "en" => prompt.options[j].clone(),
            _ => pack.get(&format!("s.{id}.p.{i}.o.{j}")).cloned().unwrap_or_default(),
        };
        let longest: Vec<String> = prompts
            .iter()
            .filter(|(id, i, prompt)| {
                let lengths: Vec<usize> = (0..prompt.options.len())
                    .map(|j| option(id, *i, prompt, j).chars().count())
                    .collect();
                lengths[prompt.answer] == lengths.iter().copied().max().unwrap_or(0)
            })
            .map(|(id, i, _)| format!("{id} #{i}"))
            .collect();
        assert!(
            longest.len() * 3 <= prompts.len(),
            "{code}: the longest option is right in {longest:?}"
        );
    }
}

/// The names `text` cites: what it puts in backticks.
fn cited(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Every problem of the "In your code" panels: a lesson from the idempotency chapter on
/// without one, a panel or translation citing a name `docs/library-names.json` does not
/// list (or with an unclosed backtick), a translation citing other names than its English.
fn in_code_problems(
    lessons: &[fencing_playground::catalogue::lesson::Scenario],
    packs: &[(&str, std::collections::BTreeMap<String, String>)],
    listed: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    let first = lessons.iter().position(|s| s.chapter == "Idempotency and fencing");
    for (i, lesson) in lessons.iter().enumerate() {
        let id = &lesson.id;
        if first.is_some_and(|f| i >= f) && lesson.in_code.is_empty() {
            problems.push(format!("{id}: no \"In your code\" panel"));
        }
        if lesson.in_code.is_empty() {
            continue;
        }
        let mut texts = vec![("en", lesson.in_code.clone())];
        for (code, pack) in packs {
            match pack.get(&format!("s.{id}.in_code")) {
                Some(text) => texts.push((code, text.clone())),
                None => problems.push(format!("{id}: no {code} panel")),
            }
        }
        let english = cited(&lesson.in_code);
        for (code, text) in &texts {
            if text.matches('`').count() % 2 == 1 {
                problems.push(format!("{id} ({code}): an unclosed backtick"));
            }
            for name in cited(text) {
                if !listed.iter().any(|l| l == name) {
                    problems
                        .push(format!("{id} ({code}): `{name}` is not in docs/library-names.json"));
                }
            }
            let (mut these, mut those) = (cited(text), english.clone());
            // The same names, each any number of times (a sentence may need one twice).
            these.sort_unstable();
            these.dedup();
            those.sort_unstable();
            those.dedup();
            if these != those {
                problems.push(format!("{id} ({code}): cites {these:?}, the English {those:?}"));
            }
        }
    }
    problems
}

fn listed_names() -> Vec<String> {
    let path = format!("{}/docs/library-names.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("docs/library-names.json");
    let root: serde_json::Value = serde_json::from_str(&text).expect("the list parses");
    let entries = root["names"].as_array().expect("a names array");
    entries
        .iter()
        .map(|e| {
            let source = e["source"].as_str().unwrap_or_default();
            assert!(source.starts_with("https://"), "{e}: a name needs its source");
            e["name"].as_str().expect("a name").to_owned()
        })
        .collect()
}

#[test]
fn every_in_your_code_panel_cites_only_listed_names() {
    let lessons = catalogue::all();
    let packs = [("id", crate::support::pack("id")), ("vi", crate::support::pack("vi"))];
    let problems = in_code_problems(&lessons, &packs, &listed_names());
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_in_your_code_check_sees_an_unlisted_name() {
    let mut lessons = catalogue::all();
    let packs = [("id", crate::support::pack("id")), ("vi", crate::support::pack("vi"))];
    let last = lessons.len() - 1;
    lessons[last].in_code.push_str(" `lockAndGetTicket`");
    let problems = in_code_problems(&lessons, &packs, &listed_names());
    assert!(problems.iter().any(|p| p.contains("`lockAndGetTicket` is not")), "{problems:?}");
    lessons[last].in_code.clear();
    let problems = in_code_problems(&lessons, &packs, &listed_names());
    assert!(problems.iter().any(|p| p.contains("no \"In your code\" panel")), "{problems:?}");
}
