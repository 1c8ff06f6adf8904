//! The quiz bank: valid, big enough, and every answer key proven by the simulator.

use fencing_playground::quiz;

#[test]
fn the_bank_has_the_questions_the_course_needs() {
    let bank = quiz::parse_bank(quiz::BANK_JSON).expect("valid bank");
    assert!(bank.questions.len() >= 15, "only {} questions", bank.questions.len());
    let mut ids: Vec<&str> = bank.questions.iter().map(|q| q.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), bank.questions.len(), "duplicate question ids");
    for topic in [
        "failover",
        "persistence",
        "replication",
        "clocks",
        "watchdog",
        "idempotency",
        "anti-patterns",
    ] {
        assert!(bank.questions.iter().any(|q| q.topic == topic), "no question on {topic}");
    }
}

#[test]
fn the_home_page_count_matches_the_bank() {
    assert_eq!(quiz::BANK_SIZE, quiz::bank().len(), "update quiz::BANK_SIZE");
}

#[test]
fn every_answer_key_is_true_in_the_simulator() {
    for question in quiz::bank() {
        assert!(!question.facts.is_empty(), "{} checks nothing", question.id);
        if let Err(why) = quiz::verify(&question) {
            panic!("question {}: {why}", question.id);
        }
    }
}

#[test]
fn a_wrong_fact_is_caught() {
    // The verifier must be able to fail: flip each question's first fact and expect an error.
    for mut question in quiz::bank() {
        let flipped = crate::support::flip(question.facts[0].clone());
        question.facts = vec![flipped];
        assert!(quiz::verify(&question).is_err(), "{}: a flipped fact still verified", question.id);
    }
}

/// How many questions give their answer away by form in one language: the right option is
/// the longest (ties count against us), and how often the most common answer position is used.
fn form_cues(
    bank: &[quiz::Question],
    option: impl Fn(&quiz::Question, usize) -> String,
) -> (usize, usize) {
    let longest = bank
        .iter()
        .filter(|q| {
            let lengths: Vec<usize> =
                (0..q.options.len()).map(|j| option(q, j).chars().count()).collect();
            lengths[q.answer] == lengths.iter().copied().max().unwrap_or(0)
        })
        .count();
    let mut positions = [0usize; 8];
    for q in bank {
        positions[q.answer.min(7)] += 1;
    }
    (longest, positions.into_iter().max().unwrap_or(0))
}

#[test]
fn the_right_answer_is_not_given_away_by_its_length_or_its_place() {
    // A learner who picks the longest option, or always the second, must not pass: in each
    // language the longest option is right in at most a third of the questions, and no
    // position holds the answer in more than 40 % of them.
    let bank = quiz::bank();
    assert!(bank.len() >= 30, "the bank has {} questions", bank.len());
    let mut report = Vec::new();
    for code in ["en", "id", "vi"] {
        let pack = crate::support::pack(code);
        let (longest, most_common_place) = form_cues(&bank, |q, j| match code {
            "en" => q.options[j].clone(),
            _ => pack.get(&format!("q.{}.o.{j}", q.id)).cloned().unwrap_or_default(),
        });
        report
            .push(format!("{code}: longest right in {longest}, busiest place {most_common_place}"));
        assert!(longest * 3 <= bank.len(), "{}", report.join("; "));
        assert!(most_common_place * 10 <= bank.len() * 4, "{}", report.join("; "));
    }
    println!("{}", report.join("; "));
}

#[test]
fn the_form_check_sees_a_bank_that_gives_answers_away() {
    let mut bank = quiz::bank();
    for q in &mut bank {
        let longest = q.options.iter().map(String::len).max().unwrap_or(0);
        q.options[q.answer] = format!("{} {}", q.options[q.answer], "x".repeat(longest));
    }
    let (longest, _) = form_cues(&bank, |q, j| q.options[j].clone());
    assert_eq!(longest, bank.len());
}

#[test]
fn every_wrong_option_says_why_it_fails() {
    // Each question explains each wrong option in its own words: present, short, and not the
    // right answer's explanation again (parse_bank already checks the shape).
    let mut problems = Vec::new();
    let mut count = 0;
    for q in quiz::bank() {
        let Some(why) = &q.why else {
            problems.push(format!("{}: no `why`", q.id));
            continue;
        };
        for (j, entry) in why.iter().enumerate() {
            let Some(w) = entry else { continue };
            count += 1;
            let length = w.text.chars().count();
            if length > 240 {
                problems.push(format!("{} option {j}: {length} characters (at most 240)", q.id));
            }
            if w.text == q.explanation || q.explanation.contains(&w.text) {
                problems.push(format!("{} option {j}: repeats the explanation", q.id));
            }
        }
    }
    assert!(count >= 100, "only {count} explanations");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_why_states_only_what_its_facts_and_the_questions_establish() {
    // As for the lessons' sentences: a token, a row count or a reply that a "why" names must
    // come from a declared fact (the question's or its own), checked on the linked run.
    use fencing_playground::catalogue::{self, facts};
    let mut problems = Vec::new();
    for q in quiz::bank() {
        let scenario = catalogue::find(&q.show.scenario).expect("a built-in");
        let trace = fencing_playground::sim::run(&scenario.setup);
        for j in 0..q.options.len() {
            let Some(w) = q.why_not(j) else { continue };
            let declared: Vec<quiz::Fact> = q.facts.iter().chain(&w.facts).cloned().collect();
            for why in facts::undeclared(&w.text, &declared, &trace) {
                problems.push(format!("{} option {j}: {why}\n    \"{}\"", q.id, w.text));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    // And the scan bites: a token the run never stored, said without a fact, is reported.
    let q = quiz::bank().into_iter().next().expect("a question");
    let trace =
        fencing_playground::sim::run(&catalogue::find(&q.show.scenario).expect("a built-in").setup);
    let changed = q.why_not(0).expect("a why").text.replace("34", "35");
    assert!(!facts::undeclared(&changed, &q.facts, &trace).is_empty(), "{changed}");
}

#[test]
fn a_wrong_fact_behind_a_why_is_caught() {
    // verify() checks each option's facts too: flip one and the question no longer verifies.
    let mut flipped_any = 0;
    for question in quiz::bank() {
        let Some(why) = &question.why else { continue };
        for (j, entry) in why.iter().enumerate() {
            let Some(w) = entry else { continue };
            for (k, fact) in w.facts.iter().enumerate() {
                let mut broken = question.clone();
                let slot = broken.why.as_mut().and_then(|why| why[j].as_mut()).expect("entry");
                slot.facts[k] = crate::support::flip(fact.clone());
                let verdict = quiz::verify(&broken);
                assert!(
                    verdict.as_ref().is_err_and(|e| e.contains(&format!("option {j}"))),
                    "{} option {j}: a flipped {fact:?} still verified: {verdict:?}",
                    question.id
                );
                flipped_any += 1;
            }
        }
    }
    assert!(flipped_any >= 30, "only {flipped_any} facts behind the explanations");
}
