use super::{
    Call, Config, Journal, Performance, Sco, Session, Suspended, Version, back_from, cmi_timespan,
    scaled_to_pct,
};
use crate::progress::Progress;

fn quiz(version: &str, extra: &str) -> Config {
    Config::parse(&format!("scorm={version};quiz;{extra}")).expect("valid")
}

fn fresh() -> [String; 6] {
    let mut read: [String; 6] = Default::default();
    read[0] = "not attempted".into();
    read
}

/// An answer to `question` (right option `answer`), at a fixed time, 4.5 s after it showed.
fn journal(question: &str, choice: usize, answer: usize) -> Journal<'_> {
    Journal {
        question,
        description: "Which write does the database refuse?",
        choice,
        answer,
        at: "2026-12-07T05:01:02.345Z",
        latency_ms: 4_500,
    }
}

fn names(calls: &[Call]) -> Vec<&'static str> {
    calls
        .iter()
        .filter_map(|c| match c {
            Call::Set(name, _) => Some(*name),
            _ => None,
        })
        .collect()
}

fn value<'a>(calls: &'a [Call], name: &str) -> Option<&'a str> {
    calls.iter().rev().find_map(|c| match c {
        Call::Set(n, v) if *n == name => Some(v.as_str()),
        _ => None,
    })
}

/// Answers every question of the SCO, the first `right` of them right at the first try.
fn answer_all(session: &mut Session, right: usize) -> Vec<Call> {
    let Sco::Quiz { questions, .. } = session.config.sco.clone() else { panic!("a quiz") };
    let mut progress = Progress::default();
    let mut calls = Vec::new();
    for (i, q) in questions.iter().enumerate() {
        progress.record(q, i < right);
        calls.extend(session.on_quiz(progress.clone()));
    }
    calls
}

#[test]
fn configs_are_read_and_checked() {
    let all = quiz("1.2", "");
    assert_eq!(all.version, Version::V12);
    let Sco::Quiz { questions, mastery_pct } = &all.sco else { panic!() };
    assert_eq!((questions.len(), *mastery_pct), (crate::quiz::BANK_SIZE, 80));
    let some = quiz("2004", "mastery=70;questions=stale-write-at-the-db,clock-jump");
    assert_eq!(
        some.sco,
        Sco::Quiz {
            questions: vec!["stale-write-at-the-db".into(), "clock-jump".into()],
            mastery_pct: 70
        }
    );
    let chapter = Config::parse(
        "scorm=2004;chapter=1;title=The problem;scenarios=gc-pause-unfenced,gc-pause-fenced",
    )
    .unwrap();
    assert_eq!(
        chapter.sco,
        Sco::Chapter {
            number: 1,
            title: "The problem".into(),
            scenarios: vec!["gc-pause-unfenced".into(), "gc-pause-fenced".into()]
        }
    );
    for (bad, needle) in [
        ("quiz", "no SCORM version"),
        ("scorm=1.3;quiz", "not 1.2 or 2004"),
        ("scorm=1.2", "the quiz, one chapter or the challenges"),
        ("scorm=1.2;quiz;chapter=1;scenarios=gc-pause-fenced", "one chapter or"),
        ("scorm=1.2;quiz;challenges", "one chapter or"),
        ("scorm=1.2;quiz;questions=nope", "not a quiz question"),
        ("scorm=1.2;quiz;mastery=120", "percentage"),
        ("scorm=1.2;chapter=x", "not a number"),
        ("scorm=1.2;chapter=1", "lists no scenarios"),
        ("scorm=1.2;chapter=1;scenarios=nope", "not a built-in"),
        ("scorm=1.2;quiz;colour=red", "not a setting"),
    ] {
        let error = Config::parse(bad).expect_err(bad);
        assert!(error.contains(needle), "{bad}: {error}");
    }
}

#[test]
fn a_scorm_12_quiz_reports_status_score_and_time_in_12_names_only() {
    let (mut session, opening) = Session::start(quiz("1.2", ""), fresh());
    assert_eq!(opening, [Call::Set("cmi.core.lesson_status", "incomplete".into()), Call::Commit]);
    let total = crate::quiz::BANK_SIZE;
    // The pass mark, 80 %, exactly (the bank's size is a multiple of 5).
    let pass = total * 4 / 5;
    assert_eq!(pass * 5, total * 4, "a bank of {total} has no 80 % mark");
    let calls = answer_all(&mut session, pass);
    assert_eq!(value(&calls, "cmi.core.score.raw"), Some("80"));
    assert_eq!(value(&calls, "cmi.core.score.min"), Some("0"));
    assert_eq!(value(&calls, "cmi.core.score.max"), Some("100"));
    assert_eq!(
        value(&calls, "cmi.core.lesson_status"),
        Some("passed"),
        "{pass} of {total} is 80 %"
    );
    assert!(matches!(calls.last(), Some(Call::Commit)), "every change is committed");
    let suspend = value(&calls, "cmi.suspend_data").unwrap();
    assert!(suspend.len() <= 4_096, "{} characters", suspend.len());
    let end = session.end(3_723_450);
    assert_eq!(value(&end, "cmi.core.session_time"), Some("0001:02:03.45"));
    assert_eq!(value(&end, "cmi.core.exit"), Some(""));
    assert_eq!(end[end.len() - 2..], [Call::Commit, Call::Finish]);
    // Never a 2004 name in a 1.2 package.
    for name in names(&opening).into_iter().chain(names(&calls)).chain(names(&end)) {
        assert!(name.starts_with("cmi.core.") || name == "cmi.suspend_data", "{name}");
    }
    // One fewer right: failed.
    let (mut failing, _) = Session::start(quiz("1.2", ""), fresh());
    assert_eq!(
        value(&answer_all(&mut failing, pass - 1), "cmi.core.lesson_status"),
        Some("failed")
    );
}

#[test]
fn a_scorm_2004_quiz_reports_completion_and_success_separately() {
    let (mut session, opening) = Session::start(
        quiz("2004", "questions=stale-write-at-the-db,clock-jump,uuid-token"),
        fresh(),
    );
    assert_eq!(opening[0], Call::Set("cmi.completion_status", "incomplete".into()));
    let calls = answer_all(&mut session, 2);
    assert_eq!(value(&calls, "cmi.score.scaled"), Some("0.6667"));
    assert_eq!(value(&calls, "cmi.score.raw"), Some("67"));
    assert_eq!(value(&calls, "cmi.success_status"), Some("failed"), "2 of 3 is under 80 %");
    assert_eq!(value(&calls, "cmi.completion_status"), Some("completed"));
    let end = session.end(90_500);
    assert_eq!(value(&end, "cmi.session_time"), Some("PT90.5S"));
    assert_eq!(value(&end, "cmi.exit"), Some("normal"));
    for name in names(&opening).into_iter().chain(names(&calls)).chain(names(&end)) {
        assert!(!name.starts_with("cmi.core.") && !name.starts_with("cmi.student_data"), "{name}");
    }
    // The LMS's pass mark wins over the package's: 0.6 makes 2 of 3 a pass.
    let mut read = fresh();
    (read[0], read[3]) = ("unknown".into(), "0.6".into());
    let (mut lenient, _) =
        Session::start(quiz("2004", "questions=stale-write-at-the-db,clock-jump,uuid-token"), read);
    assert_eq!(value(&answer_all(&mut lenient, 2), "cmi.success_status"), Some("passed"));
}

#[test]
fn an_unfinished_sco_suspends_and_resumes_where_it_was() {
    let (mut session, _) =
        Session::start(quiz("1.2", "questions=stale-write-at-the-db,clock-jump"), fresh());
    let mut progress = Progress::default();
    progress.record("clock-jump", true);
    let calls = session.on_quiz(progress.clone());
    assert_eq!(value(&calls, "cmi.core.lesson_status"), None, "not done yet");
    assert_eq!(
        session.on_location("#/quiz?v=1&q=2"),
        [Call::Set("cmi.core.lesson_location", "#/quiz?v=1&q=2".into())]
    );
    assert!(
        session.on_location(&format!("#/{}", "x".repeat(300))).is_empty(),
        "over 255 characters: not stored"
    );
    let end = session.end(1_000);
    assert_eq!(value(&end, "cmi.core.exit"), Some("suspend"));
    // The LMS hands the same data back on the next launch.
    let suspend = value(&calls, "cmi.suspend_data").unwrap().to_owned();
    let read = [
        "incomplete".into(),
        suspend,
        "#/quiz?v=1&q=2".into(),
        String::new(),
        "1".into(),
        String::new(),
    ];
    let (resumed, opening) =
        Session::start(quiz("1.2", "questions=stale-write-at-the-db,clock-jump"), read);
    assert_eq!(resumed.state.quiz, progress);
    assert_eq!(resumed.resume_at.as_deref(), Some("#/quiz?v=1&q=2"));
    assert_eq!(opening, [Call::Commit], "an attempt in progress keeps its status");
    let mut resumed = resumed;
    let next = resumed.on_answer(&journal("stale-write-at-the-db", 1, 1));
    assert_eq!(
        next[0],
        Call::Interaction { n: 1, field: "id", value: "stale-write-at-the-db".into() },
        "after the one journaled before"
    );
}

#[test]
fn a_chapter_completes_when_every_scenario_was_seen_to_its_end() {
    let config = Config::parse(
        "scorm=1.2;chapter=1;title=The problem;scenarios=gc-pause-unfenced,gc-pause-fenced",
    )
    .unwrap();
    let (mut session, _) = Session::start(config, fresh());
    let first = session.on_scenario_done("gc-pause-unfenced");
    assert_eq!(value(&first, "cmi.core.lesson_status"), None);
    assert!(session.on_scenario_done("gc-pause-unfenced").is_empty(), "once per scenario");
    let second = session.on_scenario_done("gc-pause-fenced");
    assert_eq!(value(&second, "cmi.core.lesson_status"), Some("completed"));
    assert_eq!(value(&second, "cmi.core.score.raw"), None, "a chapter has no score");
    let state = Suspended::read(value(&second, "cmi.suspend_data").unwrap());
    assert_eq!(state.done.len(), 2);
}

#[test]
fn whatever_an_lms_hands_back_is_read_without_a_panic() {
    for text in [
        "",
        "{",
        "[]",
        r#"{"q":5,"d":"x"}"#,
        r#"{"q":{"nope":true},"d":[1,"no-such-scenario"]}"#,
        "\u{0}",
    ] {
        assert_eq!(Suspended::read(text), Suspended::default(), "{text:?}");
    }
}

#[test]
fn times_and_pass_marks_in_the_lms_formats() {
    assert_eq!(
        [super::timeinterval(937), super::timeinterval(4_500), super::timeinterval(5)],
        ["PT0.93S", "PT4.5S", "PT0S"],
        "2004: hundredths at most"
    );
    assert_eq!(cmi_timespan(0), "0000:00:00.00");
    assert_eq!(cmi_timespan(59_999), "0000:00:59.99");
    assert!(cmi_timespan(u64::MAX).starts_with("9999:"), "hours stop at four digits");
    assert_eq!(
        [scaled_to_pct("0.8"), scaled_to_pct("1"), scaled_to_pct("0.75"), scaled_to_pct(".5")],
        [Some(80), Some(100), Some(75), Some(50)]
    );
    for bad in ["", "-0.5", "1.5", "abc", "0.8.1", "."] {
        assert_eq!(scaled_to_pct(bad), None, "{bad}");
    }
}

#[test]
fn every_answer_is_journaled_as_an_interaction_in_the_versions_words() {
    let (mut v12, _) = Session::start(quiz("1.2", ""), fresh());
    let first = v12.on_answer(&journal("clock-jump", 2, 1));
    let field = |n, field, value: &str| Call::Interaction { n, field, value: value.into() };
    assert_eq!(
        first,
        [
            field(0, "id", "clock-jump"),
            field(0, "type", "choice"),
            field(0, "time", "05:01:02.34"),
            field(0, "correct_responses.0.pattern", "b"),
            field(0, "student_response", "c"),
            field(0, "result", "wrong"),
            field(0, "latency", "0000:00:04.50"),
            Call::Commit,
        ],
        "1.2: the time of day, option ids, no description"
    );
    let chapter = Config::parse(
        "scorm=2004;chapter=1;title=The problem;scenarios=gc-pause-unfenced,gc-pause-fenced",
    )
    .unwrap();
    let (mut v2004, _) = Session::start(chapter, fresh());
    let prompt = v2004.on_answer(&journal("gc-pause-fenced#prompt-1", 0, 1));
    assert_eq!(
        prompt,
        [
            field(0, "id", "gc-pause-fenced#prompt-1"),
            field(0, "type", "choice"),
            field(0, "timestamp", "2026-12-07T05:01:02.34Z"),
            field(0, "description", "Which write does the database refuse?"),
            field(0, "correct_responses.0.pattern", "b"),
            field(0, "learner_response", "a"),
            field(0, "result", "incorrect"),
            field(0, "latency", "PT4.5S"),
            Call::Commit,
        ]
    );
    // A clock that is not ISO 8601 in UTC leaves the time out rather than send a bad one.
    let odd = v2004.on_answer(&Journal { at: "yesterday", ..journal("clock-jump", 0, 0) });
    assert!(odd.iter().all(|c| !matches!(c, Call::Interaction { field: "timestamp", .. })));
    assert_eq!(odd[0], field(1, "id", "clock-jump"), "the next interaction");
    // The description is at most 250 characters.
    let long = "x".repeat(300);
    let clipped = v2004.on_answer(&Journal { description: &long, ..journal("clock-jump", 0, 0) });
    assert!(clipped.contains(&field(2, "description", &"x".repeat(250))));
    assert_eq!(
        value(&v2004.on_scenario_done("gc-pause-unfenced"), "cmi.progress_measure"),
        Some("0.5")
    );
    // 1.2 has no progress_measure.
    let (mut chapter12, _) = Session::start(
        Config::parse("scorm=1.2;chapter=1;title=T;scenarios=gc-pause-unfenced,gc-pause-fenced")
            .unwrap(),
        fresh(),
    );
    assert_eq!(
        value(&chapter12.on_scenario_done("gc-pause-unfenced"), "cmi.progress_measure"),
        None
    );
}

#[test]
fn a_module_may_name_its_language() {
    let config = Config::parse("scorm=2004;quiz;lang=vi").unwrap();
    assert_eq!(config.lang, Some(crate::lang::Lang::Vi));
    assert_eq!(quiz("1.2", "").lang, None);
    assert!(Config::parse("scorm=2004;quiz;lang=fr").unwrap_err().contains("lang=fr"));
}

#[test]
fn the_lms_language_opens_the_sco_in_it_when_the_playground_has_it() {
    let with = |language: &str| {
        let mut read = fresh();
        read[5] = language.into();
        Session::start(quiz("2004", ""), read).0.language
    };
    use crate::lang::Lang;
    assert_eq!(with("vi"), Some(Lang::Vi));
    assert_eq!(with("id-ID"), Some(Lang::Id));
    assert_eq!(with("EN_us"), Some(Lang::En));
    for other in ["", "fr", "zz-vi", "\u{0}"] {
        assert_eq!(with(other), None, "{other:?}");
    }
    assert_eq!(
        Version::V12.reads()[5],
        "cmi.student_preference.language",
        "1.2 keeps it under student_preference"
    );
    assert_eq!(Version::V2004.reads()[5], "cmi.learner_preference.language");
}

#[test]
fn every_view_but_the_start_leads_back_to_it() {
    let (mut quiz, _) = Session::start(quiz("1.2", ""), fresh());
    assert_eq!(quiz.back_from("#/quiz"), None, "the start itself");
    assert_eq!(quiz.back_from("#/quiz?q=3"), None);
    assert_eq!(quiz.back_from("#/s/gc-pause-fenced?t=31500").as_deref(), Some("#/quiz"));
    // From a "Show me", back to the question the learner came from.
    let _ = quiz.on_location("#/quiz?q=4");
    let _ = quiz.on_location("#/s/gc-pause-fenced?t=31500");
    assert_eq!(quiz.back_from("#/s/gc-pause-fenced?t=31500").as_deref(), Some("#/quiz?q=4"));
    // A relaunch into a scenario still offers the quiz, at the question saved before it.
    let mut read = fresh();
    read[0] = "incomplete".into();
    read[2] = "#/s/gc-pause-fenced?t=31500".into();
    let (relaunched, _) = Session::start(quiz.config.clone(), read);
    assert_eq!(relaunched.resume_at.as_deref(), Some("#/s/gc-pause-fenced?t=31500"));
    assert_eq!(relaunched.back_from("#/s/gc-pause-fenced?t=31500").as_deref(), Some("#/quiz"));
    let chapter =
        Config::parse("scorm=2004;chapter=2;title=T;scenarios=gc-pause-unfenced").unwrap();
    let (chapter, _) = Session::start(chapter, fresh());
    for start in ["", "#", "#/", "#/?lang=vi"] {
        assert_eq!(chapter.back_from(start), None, "{start:?}");
    }
    for elsewhere in ["#/s/gc-pause-unfenced", "#/quiz", "#/compare/gc-pause-unfenced"] {
        assert_eq!(chapter.back_from(elsewhere).as_deref(), Some("#/"), "{elsewhere}");
    }
}

#[test]
fn a_challenge_attempt_is_a_performance_interaction_with_the_design_as_response() {
    let field = |n, field, value: &str| Call::Interaction { n, field, value: value.into() };
    let attempt = |solved, response| Performance {
        challenge: "fence-the-pause",
        description: "Fence the paused writer",
        response,
        solved,
        at: "2026-12-07T05:01:02.345Z",
        latency_ms: 61_000,
        score: None,
    };
    let (mut v2004, _) = Session::start(quiz("2004", ""), fresh());
    assert_eq!(
        v2004.on_attempt(&attempt(false, "guard-lt[.]false[,]watchdog[.]true")),
        [
            field(0, "id", "challenge-fence-the-pause"),
            field(0, "type", "performance"),
            field(0, "timestamp", "2026-12-07T05:01:02.34Z"),
            field(0, "description", "Fence the paused writer"),
            field(0, "learner_response", "guard-lt[.]false[,]watchdog[.]true"),
            field(0, "result", "incorrect"),
            field(0, "latency", "PT61S"),
            Call::Commit,
        ]
    );
    let (mut v12, _) = Session::start(quiz("1.2", ""), fresh());
    let long = "pause[.]A@1+1[,]".repeat(40);
    let solved = v12.on_attempt(&attempt(true, &long));
    assert!(solved.contains(&field(0, "type", "performance")));
    assert!(solved.contains(&field(0, "result", "correct")));
    assert!(solved.contains(&field(0, "student_response", &long[..255])), "clipped to 255");
}

/// The challenges SCO: completed once each is solved, scored by how near par the best
/// solutions came, resumed from suspend_data; a better solution replaces a worse one.
#[test]
fn the_challenges_sco_completes_when_each_is_solved_and_scores_against_par() {
    let config = Config::parse("scorm=2004;challenges=fence-the-pause,charge-once").unwrap();
    assert_eq!(config.sco.start(), "#/challenge");
    assert_eq!(Config::parse("scorm=2004;challenges=nope").unwrap_err(), "nope is not a challenge");
    let all = Config::parse("scorm=1.2;challenges").unwrap();
    assert!(
        matches!(&all.sco, Sco::Challenges { ids } if ids.len() == crate::challenge::INDEX.len())
    );
    let (mut session, _) = Session::start(config.clone(), fresh());
    let solve = |id, score| Performance {
        challenge: id,
        description: id,
        response: "x[.]true",
        solved: true,
        at: "",
        latency_ms: 1,
        score: Some(score),
    };
    // Solved at twice the par: the first counts 50.
    let calls = session.on_attempt(&solve("fence-the-pause", (1, 2)));
    assert_eq!(value(&calls, "cmi.progress_measure"), Some("0.5"));
    assert_eq!(value(&calls, "cmi.completion_status"), None);
    assert!(!session.is_done());
    // A failed attempt changes no score.
    let failed = Performance { solved: false, score: None, ..solve("charge-once", (1, 1)) };
    assert_eq!(value(&session.on_attempt(&failed), "cmi.progress_measure"), None);
    let calls = session.on_attempt(&solve("charge-once", (2, 2)));
    assert_eq!(value(&calls, "cmi.completion_status"), Some("completed"));
    assert_eq!(value(&calls, "cmi.success_status"), Some("passed"));
    assert_eq!(value(&calls, "cmi.score.raw"), Some("75"));
    // At par the second time: the best replaces it, and a worse one later does not.
    let better = session.on_attempt(&solve("fence-the-pause", (1, 1)));
    assert!(better.iter().any(|c| matches!(c, Call::Set("cmi.suspend_data", _))));
    assert!(
        !session
            .on_attempt(&solve("fence-the-pause", (1, 3)))
            .iter()
            .any(|c| matches!(c, Call::Set("cmi.suspend_data", _)))
    );
    assert_eq!(session.score(), Some((200, 200)));
    // What the LMS hands back resumes it; unknown challenges and nonsense are dropped.
    let suspend = session.state.to_text();
    let mut read = fresh();
    read[1] = suspend.replace("{\"charge-once\"", "{\"nope\":[1,1],\"x\":\"y\",\"charge-once\"");
    let (resumed, _) = Session::start(config, read);
    assert_eq!(resumed.state.solved.len(), 2, "{}", resumed.state.to_text());
    assert!(resumed.is_done());
    assert_eq!(back_from(&resumed.config.sco, None, "#/challenge"), None);
    assert_eq!(
        back_from(&resumed.config.sco, None, "#/challenge/charge-once").as_deref(),
        Some("#/challenge")
    );
}
