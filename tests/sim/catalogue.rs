//! The built-in catalogue: every file parses, ids are unique and match file names.

use fencing_playground::catalogue::{self, builtin::FILES, narration};
use fencing_playground::sim;

#[test]
fn every_builtin_parses_and_runs() {
    // A built-in that fails to parse would silently vanish from the page.
    for (id, text) in FILES {
        let scenario =
            catalogue::load::parse_scenario(text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(&scenario.id, id, "file name and id differ");
        assert_eq!(catalogue::find(id).as_ref(), Some(&scenario), "find parses the same file");
        assert_eq!(scenario.format, 1);
        let trace = sim::run(&scenario.setup);
        assert!(!trace.is_empty(), "{id} produced no events");
        assert!(!trace.truncated(), "{id} hit the event limit");
    }
    assert_eq!(catalogue::all().len(), FILES.len());
    for (old, new) in catalogue::RENAMED {
        assert_eq!(
            catalogue::find(old).map(|s| s.id.to_string()),
            Some((*new).to_owned()),
            "{old}"
        );
    }
    assert_eq!(catalogue::find("no-such-lesson"), None);
}

#[test]
fn the_compiled_in_text_is_the_file_without_indentation() {
    // build.rs strips whitespace between tokens; the scenario must not change.
    for (id, compact) in FILES {
        let path = format!("{}/static/scenarios/{id}.json", env!("CARGO_MANIFEST_DIR"));
        let written = std::fs::read_to_string(&path).expect("the file of a built-in");
        assert!(compact.len() < written.len(), "{id}: nothing was stripped");
        assert!(!compact.contains('\n'), "{id}: line breaks left");
        let parse = |text: &str| catalogue::load::parse_scenario(text).expect("parses");
        assert_eq!(parse(compact), parse(&written), "{id}");
    }
}

#[test]
fn ids_are_unique_and_routable() {
    let mut ids: Vec<&str> = FILES.iter().map(|(id, _)| *id).collect();
    for id in &ids {
        assert!(
            fencing_playground::sim::scenario::is_scenario_id(id),
            "{id} is not a valid route id"
        );
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), FILES.len(), "duplicate ids");
}

#[test]
fn every_builtin_shows_its_promised_outcome() {
    // Each file states its outcome; the simulator must agree, fact by fact.
    for scenario in catalogue::all() {
        let id = &scenario.id;
        let expect = scenario.expect.clone().unwrap_or_else(|| panic!("{id} states no outcome"));
        let trace = sim::run(&scenario.setup);
        let summary = trace.summary();
        let names =
            |v: &[sim::trace::Finding]| v.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        let accepted = summary.writes.iter().filter(|w| w.rows.matched()).count();
        let rejected = summary.writes.len() - accepted;
        let actual = (
            names(&summary.violations),
            names(&summary.warnings),
            accepted as u32,
            rejected as u32,
            summary.charges,
            !summary.overlaps.is_empty(),
        );
        let promised = (
            expect.violations,
            expect.warnings,
            expect.accepted,
            expect.rejected,
            expect.charges,
            expect.overlap,
        );
        assert_eq!(
            actual,
            promised,
            "{id}: (violations, warnings, accepted, rejected, charges, overlap)\n{}",
            sim::render::render(&trace)
        );
        assert!(!expect.badge.is_empty(), "{id} has no badge");
    }
}

#[test]
fn narration_is_anchored_and_covers_every_step_that_matters() {
    // Every paragraph must find its event, and every violation, warning, rejection and
    // grant must be narrated at that event or at another event of the same instant.
    for scenario in catalogue::all() {
        let id = &scenario.id;
        let trace = sim::run(&scenario.setup);
        assert!(scenario.narration.len() >= 3, "{id} has too little narration");
        let resolved = narration::resolve(&trace, &scenario);
        let mut narrated_times = Vec::new();
        for (i, event) in &resolved {
            let event = event.unwrap_or_else(|| {
                panic!("{id}: narration {i} ({:?}) matches no event", scenario.narration[*i].at)
            });
            narrated_times.push(trace.events()[event].at_ms);
        }
        for event in trace.events() {
            let matters = matches!(
                event.kind.tag(),
                "violation" | "warning" | "write-rejected" | "object-rejected"
            );
            if matters {
                assert!(
                    narrated_times.contains(&event.at_ms),
                    "{id}: event #{} ({}) at {} ms has no narration",
                    event.id,
                    event.kind.tag(),
                    event.at_ms
                );
            }
        }
    }
}

#[test]
fn every_scenario_file_is_listed() {
    // A file dropped into static/scenarios must also be compiled in.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/scenarios");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .expect("scenario folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".json").map(str::to_owned))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(id, _)| (*id).to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn every_builtin_survives_a_write_and_read_round_trip() {
    // Exports (files, permalinks) must read back to the same scenario.
    for scenario in catalogue::all() {
        let pretty = catalogue::codec::write_scenario(&scenario).pretty();
        let compact = catalogue::codec::write_scenario(&scenario).compact();
        for text in [pretty, compact] {
            let back = catalogue::load::parse_scenario(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
            assert_eq!(back, scenario, "{}", scenario.id);
        }
        // The first page reads the same lesson baked into postcard: the same scenario but
        // its rules and promised outcome, and smaller than its compact JSON.
        let baked = catalogue::codec::lesson_bytes(&scenario);
        let page = catalogue::codec::page_lesson(&scenario);
        assert!(
            page.rules.is_empty() && page.expect.is_none() && page.narration == scenario.narration
        );
        assert_eq!(catalogue::load::read_lesson(&baked).as_ref(), Ok(&page), "{}", scenario.id);
        let json = catalogue::codec::write_scenario(&scenario).compact();
        assert!(
            baked.len() < json.len(),
            "{}: {} B baked, {} B JSON",
            scenario.id,
            baked.len(),
            json.len()
        );
        // A lesson cut short, or baked by another layout, is refused with a message.
        let cut = catalogue::load::read_lesson(&baked[..baked.len() / 2]).expect_err("cut");
        assert!(cut.message.contains("damaged"), "{}", cut.message);
        let other = catalogue::load::read_lesson(&[b"FTL0".as_slice(), &baked[4..]].concat());
        assert!(other.expect_err("other layout").message.contains("reload the page"));
    }
}

#[test]
fn a_written_file_leaves_out_what_is_not_set() {
    // The flat step, fault and fact shapes carry every kind's members; a file lists only
    // those of its kind, defaults included, and no nulls.
    let scenario = catalogue::find("gc-pause-fenced").expect("built-in");
    let pretty = catalogue::codec::write_scenario(&scenario).pretty();
    assert!(!pretty.contains("null"), "{pretty}");
    let step = catalogue::codec::step_text(&scenario.setup.workers[0].program[0]);
    assert_eq!(
        step,
        r#"{"do":"acquire","how":"script","ttl_ms":30000,"retry_every_ms":1000,"attempts":1}"#
    );
    let fault = catalogue::codec::fault_text(&scenario.setup, &scenario.setup.faults[0]);
    assert!(fault.starts_with(r#"{"fault":"pause","worker":"A""#), "{fault}");
}

#[test]
fn the_index_shows_what_each_lesson_says() {
    // The home page lists the index, not the lessons: it must agree with them card by card.
    let index = catalogue::index();
    let all = catalogue::all();
    assert_eq!(index.len(), all.len());
    for (entry, scenario) in index.iter().zip(&all) {
        assert_eq!(entry.id, scenario.id);
        assert_eq!(entry.title, scenario.title);
        assert_eq!(entry.chapter, scenario.chapter);
        assert_eq!(entry.goal, scenario.goal);
    }
}

#[test]
fn every_scenario_file_is_in_the_curriculum() {
    let dir = format!("{}/static/scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("static/scenarios")
        .filter_map(|e| {
            e.ok()?.file_name().into_string().ok()?.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(id, _)| (*id).to_owned()).collect();
    listed.sort();
    assert_eq!(files, listed, "add new files to static/scenarios/curriculum.txt");
}

#[test]
fn the_benchmark_workload_is_gc_pause_fenced_without_the_pause() {
    // The hand-off workload is built as a value (the explorer's bundle carries no lessons);
    // it must stay the lesson's setup with only A, no pause and no local work, so the
    // benchmark's figures compare across versions.
    let mut lesson = catalogue::find("gc-pause-fenced").expect("built-in");
    let round: Vec<_> = lesson.setup.workers[0]
        .program
        .iter()
        .filter(|s| !matches!(s, fencing_playground::sim::scenario::Step::Compute { .. }))
        .cloned()
        .collect();
    lesson.setup.workers.truncate(1);
    lesson.setup.workers[0].program = round.iter().cycle().take(round.len() * 3).cloned().collect();
    lesson.setup.faults.clear();
    let workload = fencing_playground::workload::handoff_workload(3);
    // The whole setup but the end time (the workload runs until its workers are done).
    let mut lesson = lesson.setup;
    lesson.until_ms = workload.until_ms;
    assert_eq!(workload, lesson);
    let trace = fencing_playground::sim::run(&workload);
    assert_eq!(fencing_playground::workload::grants(&trace), 3);
}
