use super::lint::{did_you_mean, explain, lint};
use super::story::{self, Place};
use super::timeline::{self, Handle, Scale};
use super::{
    Action, BLANK, Direction, Editor, Field, Group, List, PromptPart, Row, Setting, StepAt, Story,
    fault_kinds, fault_template, fields, step_kinds, step_template, with_field,
};
use crate::catalogue;
use crate::sim;
use crate::sim::scenario::ScenarioId;
use crate::sim::scenario::{FaultKind, StepKind};

fn editor() -> Editor {
    Editor::new(&catalogue::find("gc-pause-fenced").expect("built-in"))
}

fn blank() -> Editor {
    let e = editor().apply(Action::LoadCopy(BLANK.to_owned()));
    assert_eq!(e.error(), None, "the blank template loads");
    e
}

fn program(worker: usize, index: usize) -> StepAt {
    StepAt { worker, list: List::Program, index }
}

#[test]
fn every_template_is_valid_as_it_stands() {
    let e = editor();
    for kind in step_kinds() {
        let next = e.apply(Action::AddStep { worker: 0, list: List::Program, kind, at: None });
        assert_eq!(next.error(), None, "step {kind:?}: {}", step_template(kind));
    }
    for kind in fault_kinds() {
        let next = e.apply(Action::AddFault(kind));
        assert_eq!(
            next.error(),
            None,
            "fault {kind:?}: {}",
            fault_template(kind, "A", "redis", 500)
        );
    }
}

#[test]
fn form_edits_rewrite_the_text_and_round_trip() {
    let e = editor().apply(Action::AddWorker).apply(Action::SetStart(2, "45000".into()));
    assert_eq!(e.error(), None);
    assert_eq!(e.scenario.setup.workers.len(), 3);
    assert_eq!(e.scenario.setup.workers[2].name, "C");
    assert!(e.text.contains("\"start_ms\": 45000"), "{}", e.text);
    let reread = Editor::new(&e.scenario).apply(Action::SetText(e.text.clone()));
    assert_eq!(reread.scenario, e.scenario);
    let moved = e.apply(Action::MoveStep(program(0, 0), Direction::Down));
    assert_eq!(moved.scenario.setup.workers[0].program[1], e.scenario.setup.workers[0].program[0]);
}

#[test]
fn a_refused_field_keeps_what_was_typed_and_the_text() {
    let e = editor();
    let bad = e.apply(Action::SetField(Row::Step(program(0, 0)), "ttl_ms".into(), "soon".into()));
    let error = bad.error().cloned().expect("refused");
    assert_eq!(error.path, "$.workers[0].program[0].ttl_ms");
    assert!(
        matches!(bad.health, crate::sandbox::Health::EditRefused { .. }),
        "a form edit's refusal"
    );
    assert_eq!(bad.rejected_input("$.workers[0].program[0].ttl_ms"), Some("soon"));
    assert_eq!(bad.scenario, e.scenario);
    assert_eq!(bad.text, e.text);
    assert!(bad.runnable().is_some(), "a refused field leaves the text runnable");
    assert!(!bad.can_undo(), "nothing changed, so nothing to undo");
    // The next good edit clears the refusal.
    let good =
        bad.apply(Action::SetField(Row::Step(program(0, 0)), "ttl_ms".into(), "5000".into()));
    assert_eq!((good.error(), good.health.clone()), (None, crate::sandbox::Health::Valid));
    assert!(good.text.contains("\"ttl_ms\": 5000"));
    assert_eq!(
        e.apply(Action::SetSeed("x".into())).rejected_input("$.seed"),
        Some("x"),
        "the seed field keeps its input too"
    );
}

#[test]
fn invalid_text_locks_the_form_instead_of_being_replaced() {
    let half = "{\"format\": 1,\n  \"title\": \"My half-typed paragraph";
    let e = editor().apply(Action::SetText(half.to_owned()));
    let error = e.error().cloned().expect("refused");
    assert!(e.text_error().is_some() && error.line > 0, "{error}");
    assert!(!e.form_open());
    for action in [
        Action::SetSeed("7".into()),
        Action::AddWorker,
        Action::AddFault(FaultKind::Pause),
        Action::SetStory(Story::Title, "x".into()),
    ] {
        let after = e.apply(action.clone());
        assert_eq!(after.text, half, "{action:?} must not replace the author's text");
    }
    // Undo brings back the valid text the author started from.
    let back = e.apply(Action::Undo);
    assert_eq!(back.text, editor().text);
    assert!(back.form_open());
}

#[test]
fn undo_and_redo_walk_form_typing_and_drags_as_the_author_made_them() {
    let e = editor();
    // Typing is one step however many keystrokes it took.
    let typed = e
        .apply(Action::SetText(format!("{} ", e.text)))
        .apply(Action::SetText(format!("{}  ", e.text)))
        .apply(Action::SetText(format!("{}   ", e.text)));
    assert_eq!(typed.apply(Action::Undo).text, e.text);
    // Form edits are one step each.
    let formed = e.apply(Action::SetSeed("7".into())).apply(Action::SetUntil("90000".into()));
    let once = formed.apply(Action::Undo);
    assert_eq!(
        (once.scenario.setup.seed, once.scenario.setup.until_ms),
        (7, e.scenario.setup.until_ms)
    );
    let twice = once.apply(Action::Undo);
    assert_eq!(twice.scenario, e.scenario);
    assert!(!twice.can_undo());
    let again = twice.apply(Action::Redo).apply(Action::Redo);
    assert_eq!(again.scenario, formed.scenario);
    assert!(!again.can_redo());
    // One drag, many moves: one step. A new change after an undo drops the redo.
    let dragged = e
        .apply_in(Action::SetStart(1, "3000".into()), Some(Group::Drag(1)))
        .apply_in(Action::SetStart(1, "3100".into()), Some(Group::Drag(1)))
        .apply_in(Action::SetStart(1, "3200".into()), Some(Group::Drag(1)));
    assert_eq!(dragged.scenario.setup.workers[1].start_ms, 3200);
    let undone = dragged.apply(Action::Undo);
    assert_eq!(undone.scenario, e.scenario);
    assert!(!undone.apply(Action::SetSeed("9".into())).can_redo());
}

#[test]
fn a_template_is_copied_with_a_new_id_and_its_story_flagged_until_edited() {
    let built_in = catalogue::find("gc-pause-fenced").expect("built-in");
    let e = editor().apply(Action::LoadCopy(codec_text(&built_in)));
    assert_eq!(e.scenario.id, "gc-pause-fenced-copy");
    assert!(e.is_inherited(&built_in.title));
    assert!(e.is_inherited(&built_in.narration[0].text));
    let edited = e.apply(Action::SetStory(Story::Title, "Three workers".into()));
    assert!(!edited.is_inherited("Three workers"));
    let confirmed = edited.apply(Action::Confirm(built_in.narration[0].text.clone()));
    assert!(!confirmed.is_inherited(&built_in.narration[0].text));
    assert!(confirmed.is_inherited(&built_in.summary), "only what was confirmed");
    // Undo brings the flag back with the text.
    assert!(confirmed.apply(Action::Undo).is_inherited(&built_in.narration[0].text));
    // A file the author imports is theirs: nothing is flagged.
    let imported = editor().apply(Action::Load(codec_text(&built_in)));
    assert!(imported.inherited.is_empty());
    assert_eq!(imported.scenario.id, "gc-pause-fenced");
}

fn codec_text(s: &catalogue::lesson::Scenario) -> String {
    crate::catalogue::codec::write_scenario(s).pretty()
}

#[test]
fn steps_go_where_the_author_puts_them_and_optional_members_are_reachable() {
    let e = blank();
    let with = e.apply(Action::AddStep {
        worker: 0,
        list: List::Program,
        kind: StepKind::Watchdog,
        at: Some(1),
    });
    assert_eq!(with.error(), None);
    let kinds: Vec<String> = with.scenario.setup.workers[0]
        .program
        .iter()
        .map(crate::catalogue::codec::step_text)
        .collect();
    assert!(kinds[1].contains("\"watchdog\""), "{kinds:?}");
    let row = kinds[1].clone();
    assert!(
        fields(&row).iter().any(|(k, f)| k == "interval_ms" && matches!(f, Field::Unset(_))),
        "{:?}",
        fields(&row)
    );
    let at = Row::Step(program(0, 1));
    let set = with.apply(Action::SetField(at, "interval_ms".into(), "10000".into()));
    assert_eq!(set.error(), None);
    assert!(set.text.contains("\"interval_ms\": 10000"), "{}", set.text);
    let unset = set.apply(Action::SetField(at, "interval_ms".into(), " ".into()));
    assert!(!unset.text.contains("interval_ms"));
    // What a rejected write does next is a list of steps like the program.
    let retry = e.apply(Action::AddStep {
        worker: 0,
        list: List::OnRejected,
        kind: StepKind::SendToDlq,
        at: None,
    });
    assert_eq!(retry.scenario.setup.workers[0].on_rejected.len(), 1);
    // The database's check is a setting of its own.
    let unguarded = e.apply(Action::SetSetting(Setting::Guard, "none".into()));
    assert_eq!(unguarded.error(), None);
    assert_eq!(super::setting_words(&unguarded.scenario, Setting::Guard).1, "none");
    let refused = e.apply(Action::SetSetting(Setting::Guard, "maybe".into()));
    assert_eq!(refused.error().map(|e| e.path.clone()), Some("$.sql.guard".to_owned()));
}

#[test]
fn row_fields_edit_one_member_and_keep_the_rest() {
    let row = r#"{"do":"acquire","how":"script","ttl_ms":30000,"attempts":1}"#;
    assert_eq!(
        fields(row),
        vec![
            (
                "how".to_owned(),
                Field::Word(
                    "script".to_owned(),
                    vec!["script", "set-then-incr", "incr-then-set", "redlock"]
                )
            ),
            ("ttl_ms".to_owned(), Field::Number("30000".to_owned())),
            ("attempts".to_owned(), Field::Number("1".to_owned())),
        ]
    );
    assert_eq!(
        with_field(row, "ttl_ms", " 5000 "),
        r#"{"do":"acquire","how":"script","ttl_ms":5000,"attempts":1}"#
    );
    assert_eq!(
        with_field(row, "how", "say \"hi\""),
        r#"{"do":"acquire","how":"say \"hi\"","ttl_ms":30000,"attempts":1}"#
    );
    assert!(fields("not json").is_empty());
}

#[test]
fn removing_a_worker_takes_its_faults_and_renaming_follows_them() {
    let e = editor().apply(Action::AddFault(FaultKind::Pause)).apply(Action::AddFaultAt {
        kind: FaultKind::Crash,
        lane: "B".into(),
        at_ms: 2_000,
    });
    assert_eq!(e.error(), None);
    let renamed = e.apply(Action::RenameWorker(0, "Z".into()));
    assert_eq!(renamed.error(), None, "{:?}", renamed.error());
    assert!(renamed.text.contains("\"worker\": \"Z\""));
    assert!(renamed.apply(Action::RenameWorker(0, "B".into())).error().is_some(), "names differ");
    let removed = renamed.apply(Action::RemoveWorker(0));
    assert_eq!(removed.error(), None);
    // Z's faults went with it; B's crash is still B's, now that B is the first worker.
    assert_eq!(removed.scenario.setup.faults.len(), 1, "{:?}", removed.scenario.setup.faults);
    assert_eq!(removed.scenario.setup.faults[0].worker(), Some(&sim::WorkerId(0)));
    assert_eq!(removed.scenario.setup.workers[0].name, "B");
    assert!(
        removed.text.contains(r#""fault": "crash","#) && removed.text.contains(r#""worker": "B""#)
    );
    let last = Editor::new(&removed.scenario);
    assert!(last.apply(Action::RemoveWorker(0)).error().is_some(), "one worker must remain");
}

/// The lint's findings for a scenario edited by `actions` from the fenced GC-pause lesson.
fn check_lint(actions: Vec<Action>, expect: &[(&str, &str)]) {
    let mut e = editor();
    for action in actions {
        e = e.apply(action);
        assert_eq!(e.error(), None);
    }
    let trace = sim::run(&e.scenario.setup);
    let found: Vec<(String, String)> =
        lint(&e.scenario, &trace).into_iter().map(|w| (w.path, w.message.english())).collect();
    // `{new}`: the paragraph the actions added, after the built-in's.
    let new = editor().scenario.narration.len().to_string();
    for (path, words) in expect {
        let path = &path.replace("{new}", &new);
        assert!(
            found.iter().any(|(p, m)| p == path && m.contains(words)),
            "expected {path}: …{words}… in {found:#?}"
        );
    }
    if expect.is_empty() {
        assert_eq!(found, Vec::<(String, String)>::new());
    }
}

fn anchor(event: &str, actor: Option<&str>) -> crate::catalogue::lesson::Anchor {
    crate::catalogue::lesson::Anchor {
        event: Some(event.to_owned()),
        actor: actor.map(str::to_owned),
        ..Default::default()
    }
}

#[test]
fn lint_names_what_never_happens_in_this_run() {
    check_lint(Vec::new(), &[]);
    check_lint(
        vec![Action::Narrate { at: anchor("granteed", Some("B")), facts: Vec::new() }],
        &[("$.narration[{new}].at", "did you mean `granted`?")],
    );
    check_lint(
        vec![Action::Narrate { at: anchor("write-rejected", Some("A")), facts: Vec::new() }],
        &[("$.narration[{new}].at", "recorded by db, not by A")],
    );
    check_lint(
        vec![Action::Narrate { at: anchor("granted", Some("Bob")), facts: Vec::new() }],
        &[("$.narration[{new}].at", "no actor is called `Bob`")],
    );
    check_lint(
        vec![Action::AddFaultAt { kind: FaultKind::Crash, lane: "A".into(), at_ms: 50_000 }],
        &[],
    );
    check_lint(
        vec![
            Action::AddFaultAt { kind: FaultKind::Crash, lane: "A".into(), at_ms: 50_000 },
            Action::SetUntil("40000".into()),
        ],
        &[("$.faults[1].at_ms", "after the run ends at 40000 ms")],
    );
    check_lint(
        vec![
            Action::AddFault(FaultKind::LoseReply),
            Action::SetField(Row::Fault(1), "step".into(), "9".into()),
        ],
        &[("$.faults[1].step", "beyond A's program")],
    );
}

#[test]
fn a_misspelt_member_is_named_with_what_was_meant() {
    let text = editor().text.replace("\"until_ms\"", "\"until\"");
    let e = editor().apply(Action::SetText(text));
    let message = e.error().expect("refused").message.clone();
    assert!(message.contains("`until`; did you mean `until_ms`?"), "{message}");
    let text = editor().text.replace("\"ttl_ms\"", "\"tll_ms\"");
    let message = editor().apply(Action::SetText(text)).error().expect("refused").message.clone();
    assert!(message.contains("did you mean `ttl_ms`?"), "{message}");
    assert_eq!(did_you_mean("zzz", ["granted"]), None);
    let untouched = explain(
        crate::catalogue::codec::LoadError {
            path: "$".into(),
            line: 1,
            column: 1,
            message: "expected an object".into(),
        },
        "[]",
    );
    assert_eq!(untouched.message, "expected an object");
}

#[test]
fn every_event_kind_of_the_built_ins_is_a_known_tag() {
    let mut seen = std::collections::BTreeSet::new();
    for s in catalogue::all() {
        for event in sim::run(&s.setup).events() {
            assert!(sim::event::TAGS.contains(&event.kind.tag()), "{}", event.kind.tag());
            seen.insert(event.kind.tag());
        }
    }
    let unique: std::collections::BTreeSet<_> = sim::event::TAGS.iter().collect();
    assert_eq!(unique.len(), sim::event::TAGS.len(), "no tag twice");
}

#[test]
fn a_third_worker_marks_the_sentences_it_makes_untrue() {
    let e = editor();
    let trace = sim::run(&e.scenario.setup);
    assert_eq!(story::marks(&trace, &e.scenario), Vec::new(), "the built-in's story holds");
    // C starts before B and takes the lock B used to get: the paragraphs that said B got
    // that token, and the promised outcome, are marked.
    let three = e.apply(Action::AddWorker).apply(Action::SetStart(2, "30500".into()));
    assert_eq!(three.error(), None);
    let marks = story::marks(&sim::run(&three.scenario.setup), &three.scenario);
    assert!(
        marks.iter().any(
            |m| matches!(m.place, Place::Narration(_)) && m.why.english().contains("B's grant")
        ),
        "{marks:#?}"
    );
    // Each mark is said in the reader's language: the same facts, the pack's words.
    let pack = |lang: &str| {
        let path = format!("{}/static/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("a pack");
        crate::i18n::parse_pack(&text).expect("the pack reads")
    };
    let grant = marks.iter().find(|m| m.why.english().contains("B's grant")).expect("a mark");
    let english = grant.why.english();
    assert!(english.contains("the run's grants: A token 33"), "{english}");
    for lang in [crate::lang::Lang::Id, crate::lang::Lang::Vi] {
        let pack = pack(lang.code());
        // The pack's own words for "the run's grants:", followed by the run's grants.
        let template = pack.get("sandbox.why.grants").expect("translated");
        let words = format!("{}A token 33", template.split("{list}").next().unwrap_or(""));
        let m = crate::i18n::Messages::with_pack(lang, pack);
        let said = grant.why.render(&m);
        assert!(said.contains(&words) && !said.contains("grant #"), "{said}");
        // A worker's own fact, recorded in English as its reply, is said in the pack's words;
        // a server's reply stays as the server gave it.
        let at = crate::catalogue::lesson::Anchor {
            event: Some("resumed".to_owned()),
            actor: Some("A".to_owned()),
            nth: None,
            at_ms: None,
        };
        let resumed = story::describe(&crate::catalogue::lesson::Fact::Event {
            at: at.clone(),
            reply: Some("running again".into()),
        });
        let note = crate::sim::event::Note::new("sim.resumed", Vec::new());
        assert!(resumed.render(&m).contains(&m.note(&note)), "{}", resumed.render(&m));
        assert!(!resumed.render(&m).contains("running"));
        let ok = story::describe(&crate::catalogue::lesson::Fact::Event {
            at,
            reply: Some("OK".into()),
        });
        assert!(ok.render(&m).contains("“OK”"), "{}", ok.render(&m));
    }
    // A paragraph the author pins to an event starts with that event's facts, so it is
    // checked like the built-ins' from then on.
    let trace = sim::run(&three.scenario.setup);
    let index = trace.events().iter().position(|ev| ev.kind.tag() == "granted").expect("a grant");
    let at = story::anchor_for(&trace, index).expect("an anchor");
    let facts = story::facts_for(&trace, &at);
    assert!(!facts.is_empty());
    let narrated = three.apply(Action::Narrate { at, facts });
    let last = narrated.scenario.narration.len() - 1;
    let written = narrated.apply(Action::SetNarration(last, "A takes the lock.".into()));
    let marks = story::marks(&sim::run(&written.scenario.setup), &written.scenario);
    assert!(!marks.iter().any(|m| m.place == Place::Narration(last)), "{marks:#?}");
    // The outcome the run had is a promise that holds.
    let promised = written.apply(Action::SetExpect(Some(story::expected_from(&trace))));
    let marks = story::marks(&sim::run(&promised.scenario.setup), &promised.scenario);
    assert!(!marks.iter().any(|m| m.place == Place::Expect), "{marks:#?}");
}

#[test]
fn prompts_are_written_in_the_form() {
    let e = blank();
    let trace = sim::run(&e.scenario.setup);
    let at = story::anchor_for(&trace, 0).expect("an event");
    let asked = e
        .apply(Action::AddPrompt { at, facts: Vec::new() })
        .apply(Action::SetPrompt(0, PromptPart::Question, "Who writes?".into()))
        .apply(Action::SetPrompt(0, PromptPart::Option(0), "A".into()))
        .apply(Action::SetPrompt(0, PromptPart::Option(1), "Nobody".into()))
        .apply(Action::AddOption(0))
        .apply(Action::SetPrompt(0, PromptPart::Option(2), "Both".into()))
        .apply(Action::SetAnswer(0, 2))
        .apply(Action::SetPrompt(0, PromptPart::Explanation, "Because.".into()));
    assert_eq!(asked.error(), None);
    let p = &asked.scenario.prompts[0];
    assert_eq!((p.question.as_str(), p.answer, p.options.len()), ("Who writes?", 2, 3));
}

#[test]
fn the_timeline_turns_drags_and_keys_into_edits() {
    let e = editor();
    let scale = Scale { until_ms: 60_000, width_px: 600.0 };
    assert_eq!(scale.x(30_000), 300.0);
    assert_eq!(scale.ms(123.4), 12_300, "on the 100 ms grid");
    assert_eq!(scale.ms(-5.0), 0);
    assert_eq!(scale.ms(10_000.0), 60_000, "within the run");
    let s = &e.scenario;
    let start = timeline::move_to(&s.setup, Handle::Start(1), 4_000).expect("a change");
    assert_eq!(start, Action::SetStart(1, "4000".into()));
    assert_eq!(timeline::move_to(&s.setup, Handle::Start(1), s.setup.workers[1].start_ms), None);
    let pause =
        timeline::spans(&s.setup).into_iter().find(|sp| sp.kind == "pause").expect("a pause");
    let stretched = e.apply(
        timeline::move_to(&s.setup, Handle::FaultEnd(pause.fault), pause.from_ms + 50_000)
            .expect("edit"),
    );
    assert_eq!(stretched.error(), None);
    let after = timeline::spans(&stretched.scenario.setup);
    assert_eq!(after[0].to_ms - after[0].from_ms, 50_000);
    let nudged =
        e.apply(timeline::nudge(&s.setup, Handle::FaultAt(pause.fault), -100).expect("edit"));
    assert_eq!(
        timeline::position(&nudged.scenario.setup, Handle::FaultAt(pause.fault)),
        Some(pause.from_ms - 100)
    );
    assert_eq!(
        timeline::drop_fault(&s.setup, FaultKind::ClockJump, "A", 1_000),
        None,
        "a node fault on a worker"
    );
    let dropped =
        e.apply(timeline::drop_fault(&s.setup, FaultKind::Hang, "B", 12_345).expect("fits"));
    assert_eq!(dropped.error(), None);
    assert_eq!(timeline::spans(&dropped.scenario.setup).last().map(|sp| sp.from_ms), Some(12_300));
}

#[test]
fn links_and_files_open_what_they_carry() {
    use super::{Import, Opening, copy_hash, link_hash};
    use crate::route::{Payload, View};
    assert_eq!(Opening::of("#/sandbox"), Opening::Nothing);
    assert_eq!(
        Opening::of("#/sandbox?edit=gc-pause-fenced"),
        Opening::Builtin("gc-pause-fenced".into())
    );
    assert_eq!(Opening::of("#/sandbox?edit=../x"), Opening::Nothing, "not an id");
    let text = "{\"half\": typed";
    let hash = link_hash(&None, text);
    assert_eq!(Opening::of(&hash), Opening::Json { text: text.into(), copy: false });
    let zipped = link_hash(&Some(vec![1, 2, 3]), text);
    assert_eq!(Opening::of(&zipped), Opening::Deflated { bytes: vec![1, 2, 3], copy: false });
    assert_eq!(Opening::of("#/sandbox?sz=%%%"), Opening::Nothing, "damaged: the drafts open");
    // A player's "Edit a copy" asks for a copy of what it plays.
    let built_in =
        copy_hash(&View::Scenario { id: ScenarioId::literal("gc-pause-fenced") }).expect("a link");
    assert_eq!(Opening::of(&built_in), Opening::Builtin("gc-pause-fenced".into()));
    let custom =
        copy_hash(&View::Custom { payload: Payload::Deflated(vec![9, 8]) }).expect("a link");
    assert_eq!(Opening::of(&custom), Opening::Deflated { bytes: vec![9, 8], copy: true });
    let json = copy_hash(&View::Custom { payload: Payload::Json("{}".into()) }).expect("a link");
    assert_eq!(Opening::of(&json), Opening::Json { text: "{}".into(), copy: true });
    // The one parser of the address reads them: the sandbox, with what to open (an id
    // that is not one is the route's error page, as any damaged link is).
    assert!(matches!(crate::route::Link::parse("#/sandbox?edit=../x").view, View::Invalid { .. }));
    for hash in [built_in, custom, json, hash] {
        let view = crate::route::Link::parse(&hash).view;
        assert!(matches!(view, View::Sandbox { open: Some(_), .. }), "{hash}");
    }
    // The player's JSON export is a record of a run: the sandbox says so instead of
    // reporting a missing `format`.
    let s = catalogue::find("gc-pause-fenced").expect("built-in");
    let exported = crate::export::trace_json(&sim::run(&s.setup), &s.id);
    assert_eq!(Import::of(&exported), Import::Trace { scenario: "gc-pause-fenced".into() });
    let scenario = codec_text(&s);
    assert_eq!(Import::of(&scenario), Import::Scenario(scenario.clone()));
}

#[test]
fn the_blank_lesson_keeps_its_id_and_warnings_name_their_place_in_words() {
    let e = blank();
    assert_eq!(e.scenario.id, "my-lesson", "the blank lesson is nobody's to copy");
    assert!(e.is_inherited("My lesson"), "its placeholders are flagged");
    let s = &editor().scenario;
    assert_eq!(super::lint::place(s, "$.narration[2].at").english(), "Paragraph 3");
    assert_eq!(super::lint::place(s, "$.prompts[0]").english(), "Prompt 1");
    assert_eq!(super::lint::place(s, "$.faults[0].at_ms").english(), "Fault 1 (pause)");
    assert_eq!(super::lint::place(s, "$.workers[1].start_ms").english(), "Worker B");
    assert_eq!(super::lint::place(s, "$.seed").english(), "$.seed");
}

#[test]
fn a_number_no_fact_covers_is_unchecked_not_untrue() {
    use super::story::MarkKind;
    let e = editor();
    let trace = sim::run(&e.scenario.setup);
    let at = story::anchor_for(&trace, 0).expect("an event");
    let e = e.apply(Action::Narrate { at, facts: Vec::new() });
    let last = e.scenario.narration.len() - 1;
    let e = e.apply(Action::SetNarration(last, "A gets token 33 here.".into()));
    let marks = story::marks(&sim::run(&e.scenario.setup), &e.scenario);
    let here: Vec<_> = marks.iter().filter(|m| m.place == Place::Narration(last)).collect();
    assert!(!here.is_empty(), "{marks:#?}");
    assert!(here.iter().all(|m| m.kind == MarkKind::Unchecked), "{here:#?}");
}

#[test]
fn a_draft_whose_text_never_loaded_shows_no_stand_in() {
    // A stored draft left broken: after a reload the editor opens it from a blank start.
    let good = crate::catalogue::codec::write_scenario(
        &catalogue::find("gc-pause-fenced").expect("built-in"),
    )
    .pretty();
    let broken = good.replacen("\"worker\": \"A\"", "\"worker\": \"Z\"", 1);
    let opened = Editor::new(&catalogue::find("gc-pause-fenced").expect("built-in"))
        .apply(Action::Load(broken.clone()))
        .settled();
    assert!(opened.nothing_loaded(), "the blank start is not this draft's last valid scenario");
    assert!(opened.runnable().is_none() && !opened.can_undo());
    let message = opened.error().map(ToString::to_string).unwrap_or_default();
    assert!(message.contains("no worker is called \u{201c}Z\u{201d}"), "{message}");
    // Once the text loads, its scenario is real, and stays the last valid one when the
    // text breaks again.
    let fixed = opened.apply(Action::SetText(good.clone()));
    assert!(!fixed.nothing_loaded() && fixed.runnable().is_some());
    let again = fixed.apply(Action::SetText(broken));
    assert!(!again.nothing_loaded() && again.runnable().is_none() && again.can_undo());
}

#[test]
fn a_rename_follows_the_worker_through_the_lesson() {
    // The built-in's narration, prompts and claims name A: after A becomes Alpha they name
    // Alpha, so every sentence still holds and no anchor points at nobody.
    let renamed = editor().apply(Action::RenameWorker(0, "Alpha".into()));
    assert_eq!(renamed.error(), None);
    let s = &renamed.scenario;
    let trace = sim::run(&s.setup);
    assert_eq!(story::marks(&trace, s), Vec::new(), "the story still holds");
    assert!(
        lint(s, &trace).iter().all(|w| !w.message.english().contains("no actor")),
        "{:?}",
        lint(s, &trace)
    );
    assert!(!renamed.text.contains("\"A\""), "A is named nowhere any more");
    assert!(renamed.text.contains("\"actor\": \"Alpha\""));
}
