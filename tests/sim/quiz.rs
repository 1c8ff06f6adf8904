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
