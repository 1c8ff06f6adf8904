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
