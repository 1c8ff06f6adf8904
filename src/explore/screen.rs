//! The risk explorer page's state: the form as typed, the run on screen (its progress and
//! points so far), who runs it (the page's thread or web workers) and what went wrong.
//! Plain data with a pure `update`, tested natively. It starts nothing and reads no clock:
//! a started run is handed to the shell's hook as prepared data ([`Screen::started`]), and
//! the hook reports back with actions tagged by the run's number, so news from a run that
//! was cancelled or replaced is ignored here rather than raced in the shell.

use std::rc::Rc;

use super::{Axis, Params, Point, Run, Watchdog, WatchdogKind, parse_number, parse_numbers};
use crate::sim::scenario::Word;

/// A field of the form.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Field {
    Median,
    P99,
    Work,
    Ttl,
    Axis,
    Values,
    Watchdog,
    Interval,
    Trials,
    Seed,
    Workers,
}

/// The form as typed (text, so a half-typed value is kept); [`Form::params`] reads it with
/// the parsers `fence explore` uses too.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Form {
    pub median: String,
    pub p99: String,
    pub work: String,
    pub ttl: String,
    pub axis: String,
    pub values: String,
    pub watchdog: String,
    pub interval: String,
    pub trials: String,
    pub seed: String,
    /// Web workers to run the trials on; 0 runs them on the page's own thread.
    pub workers: String,
}

/// The interval shown while the watchdog is off (it is used once it is switched on).
pub const INTERVAL_DEFAULT_MS: u64 = 10_000;

/// Who runs the trials of the run on screen.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Runner {
    /// The page's own thread, as asked (0 workers) or because workers could not start.
    Page {
        fallback: Fallback,
    },
    Workers(usize),
}

/// Whether the page runs the trials although workers were asked for.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Fallback {
    AsAsked,
    WorkersRefused,
}

/// Where the run on screen is.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Phase {
    Idle,
    Running,
    Finished,
    Cancelled,
}

/// What went wrong, for the page to say in the learner's language.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Problem {
    /// The form does not make a run (the parsers' and `Run::new`'s own words).
    Form(String),
    /// A worker failed mid-run; the run stopped.
    Worker(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Edit(Field, String),
    /// Run what the form says.
    Start,
    Cancel,
    /// The shell started run `run` on `runner`.
    Started {
        run: u64,
        runner: Runner,
    },
    /// Run `run` has this many trials done, and these points.
    Progress {
        run: u64,
        done: u64,
        points: Vec<Point>,
    },
    Finished {
        run: u64,
    },
    Failed {
        run: u64,
        why: String,
    },
}

/// The page's state.
#[derive(Clone, Debug)]
pub struct Screen {
    pub form: Form,
    pub problem: Option<Problem>,
    pub phase: Phase,
    /// Who runs (or ran) the run on screen.
    pub runner: Runner,
    /// The run on screen, numbered (0 before the first), as prepared when it started.
    pub run: u64,
    started: Option<(Rc<Run>, usize)>,
    pub done: u64,
    pub total: u64,
    pub points: Rc<Vec<Point>>,
}

impl PartialEq for Screen {
    /// A started run is compared by its number, never walked.
    fn eq(&self, other: &Screen) -> bool {
        (&self.form, &self.problem, self.phase, self.runner, self.run, self.done, self.total)
            == (
                &other.form,
                &other.problem,
                other.phase,
                other.runner,
                other.run,
                other.done,
                other.total,
            )
            && Rc::ptr_eq(&self.points, &other.points)
    }
}

impl Screen {
    /// The starting page: the default parameters, and `cores` workers.
    pub fn new(cores: usize) -> Screen {
        Screen {
            form: Form::new(cores),
            problem: None,
            phase: Phase::Idle,
            runner: Runner::Page { fallback: Fallback::AsAsked },
            run: 0,
            started: None,
            done: 0,
            total: 0,
            points: Rc::new(Vec::new()),
        }
    }

    pub fn update(&mut self, action: Action) {
        match action {
            Action::Edit(field, text) => *self.form.field_mut(field) = text,
            Action::Start => self.start(),
            Action::Cancel => {
                if self.running() {
                    self.phase = Phase::Cancelled;
                }
            }
            Action::Started { run, runner } if self.is_current(run) => {
                self.runner = runner;
            }
            Action::Progress { run, done, points } if self.is_current(run) => {
                self.done = done;
                self.points = Rc::new(points);
            }
            Action::Finished { run } if self.is_current(run) => self.phase = Phase::Finished,
            Action::Failed { run, why } if self.is_current(run) => {
                self.problem = Some(Problem::Worker(why));
                self.phase = Phase::Finished;
            }
            // News from a run no longer on screen.
            Action::Started { .. }
            | Action::Progress { .. }
            | Action::Finished { .. }
            | Action::Failed { .. } => {}
        }
    }

    /// The run to start and the workers asked for, while it runs: what the shell's hook
    /// runs (keyed on [`Screen::run`]; it stops when this turns `None`).
    pub fn started(&self) -> Option<(Rc<Run>, usize)> {
        self.running().then(|| self.started.clone()).flatten()
    }

    pub fn running(&self) -> bool {
        self.phase == Phase::Running
    }

    /// Workers running now (0 when the page runs the trials itself, or nothing runs).
    pub fn live_workers(&self) -> usize {
        match (self.phase, self.runner) {
            (Phase::Running, Runner::Workers(n)) => n,
            _ => 0,
        }
    }

    /// The page ran the trials itself although workers were asked for (a strict policy or
    /// an old browser): said until the next run.
    pub fn fallback(&self) -> bool {
        self.runner == Runner::Page { fallback: Fallback::WorkersRefused }
    }

    /// The axis of the run on screen (not of the form being edited).
    pub fn axis(&self) -> Option<Axis> {
        self.started.as_ref().map(|(run, _)| run.params().axis)
    }
}

impl Form {
    pub fn new(cores: usize) -> Form {
        let p = Params::default();
        let join =
            |values: &[u64]| values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let interval_ms = match p.watchdog {
            Watchdog::On { interval_ms, .. } => interval_ms,
            Watchdog::Off => INTERVAL_DEFAULT_MS,
        };
        Form {
            median: p.pause_median_ms.to_string(),
            p99: p.pause_p99_ms.to_string(),
            work: p.work_ms.to_string(),
            ttl: p.ttl_ms.to_string(),
            axis: p.axis.word().to_owned(),
            values: join(&p.values),
            watchdog: p.watchdog.kind().word().to_owned(),
            interval: interval_ms.to_string(),
            trials: p.trials.to_string(),
            seed: p.seed.to_string(),
            workers: cores.to_string(),
        }
    }

    /// The parameters the form gives, or why it gives none.
    pub fn params(&self) -> Result<Params, String> {
        Ok(Params {
            pause_median_ms: parse_number(&self.median, "median")?,
            pause_p99_ms: parse_number(&self.p99, "p99")?,
            work_ms: parse_number(&self.work, "work")?,
            ttl_ms: parse_number(&self.ttl, "TTL")?,
            axis: Axis::read(&self.axis)?,
            values: parse_numbers(&self.values, "values")?,
            watchdog: WatchdogKind::read(&self.watchdog)?
                .with_interval(parse_number(&self.interval, "interval")?),
            trials: parse_number(&self.trials, "trials")?,
            seed: parse_number(&self.seed, "seed")?,
        })
    }

    pub fn field(&self, field: Field) -> &str {
        match field {
            Field::Median => &self.median,
            Field::P99 => &self.p99,
            Field::Work => &self.work,
            Field::Ttl => &self.ttl,
            Field::Axis => &self.axis,
            Field::Values => &self.values,
            Field::Watchdog => &self.watchdog,
            Field::Interval => &self.interval,
            Field::Trials => &self.trials,
            Field::Seed => &self.seed,
            Field::Workers => &self.workers,
        }
    }

    fn field_mut(&mut self, field: Field) -> &mut String {
        match field {
            Field::Median => &mut self.median,
            Field::P99 => &mut self.p99,
            Field::Work => &mut self.work,
            Field::Ttl => &mut self.ttl,
            Field::Axis => &mut self.axis,
            Field::Values => &mut self.values,
            Field::Watchdog => &mut self.watchdog,
            Field::Interval => &mut self.interval,
            Field::Trials => &mut self.trials,
            Field::Seed => &mut self.seed,
            Field::Workers => &mut self.workers,
        }
    }
}

impl Screen {
    fn start(&mut self) {
        if self.running() {
            return;
        }
        let prepared = self.form.params().and_then(Run::new).and_then(|run| {
            let workers = parse_number(&self.form.workers, "workers")?;
            Ok((run, usize::try_from(workers).unwrap_or(usize::MAX)))
        });
        match prepared {
            Ok((run, workers)) => {
                (self.done, self.total) = run.progress();
                self.points = Rc::new(run.points().to_vec());
                self.started = Some((Rc::new(run), workers));
                self.problem = None;
                self.run += 1;
                // Until the shell says otherwise, the page runs it.
                self.runner = Runner::Page { fallback: Fallback::AsAsked };
                self.phase = Phase::Running;
            }
            Err(why) => self.problem = Some(Problem::Form(why)),
        }
    }

    fn is_current(&self, run: u64) -> bool {
        run == self.run && self.running()
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Fallback, Field, Phase, Problem, Runner, Screen};

    fn check(actions: &[Action], expect: (Phase, Option<&str>, usize, bool)) -> Screen {
        let mut screen = Screen::new(2);
        for action in actions {
            screen.update(action.clone());
        }
        let problem = screen.problem.as_ref().map(|p| match p {
            Problem::Form(why) | Problem::Worker(why) => why.as_str(),
        });
        assert_eq!(
            (screen.phase, problem, screen.live_workers(), screen.fallback()),
            expect,
            "{actions:?}"
        );
        screen
    }

    fn edit(field: Field, text: &str) -> Action {
        Action::Edit(field, text.to_owned())
    }

    #[test]
    fn a_form_that_makes_no_run_says_why_and_starts_nothing() {
        let screen = check(
            &[edit(Field::Median, "2 s"), Action::Start],
            (Phase::Idle, Some("median: expected a whole number, found “2 s”"), 0, false),
        );
        assert_eq!((screen.run, screen.started().is_none()), (0, true));
        check(
            &[edit(Field::Axis, "interval"), Action::Start],
            (Phase::Idle, Some("varying the watchdog interval needs the watchdog on"), 0, false),
        );
        check(
            &[edit(Field::Workers, "-1"), Action::Start],
            (Phase::Idle, Some("workers: expected a whole number, found “-1”"), 0, false),
        );
    }

    #[test]
    fn a_run_starts_with_its_points_and_reports_from_it_land() {
        let mut screen = check(
            &[edit(Field::Trials, "20"), edit(Field::Values, "1000, 2000"), Action::Start],
            (Phase::Running, None, 0, false),
        );
        let (run, workers) = screen.started().expect("a run to start");
        assert_eq!(
            (workers, run.params().trials, screen.total, screen.points.len()),
            (2, 20, 80, 4)
        );
        assert_eq!(screen.axis(), Some(super::Axis::TtlMs));
        screen.update(Action::Started { run: 1, runner: Runner::Workers(2) });
        assert_eq!(screen.live_workers(), 2);
        screen.update(Action::Progress { run: 1, done: 40, points: Vec::new() });
        assert_eq!((screen.done, screen.points.len()), (40, 0));
        // The form changes while it runs; Run again waits for this run to end.
        screen.update(edit(Field::Trials, "abc"));
        screen.update(Action::Start);
        assert_eq!((screen.run, screen.problem.clone()), (1, None));
        screen.update(Action::Finished { run: 1 });
        assert_eq!(
            (screen.phase, screen.live_workers(), screen.started().is_none()),
            (Phase::Finished, 0, true)
        );
    }

    #[test]
    fn news_from_a_cancelled_or_replaced_run_is_ignored() {
        let mut screen = check(
            &[edit(Field::Trials, "20"), Action::Start, Action::Cancel],
            (Phase::Cancelled, None, 0, false),
        );
        assert!(screen.started().is_none(), "a cancelled run is stopped by the hook");
        for late in [
            Action::Progress { run: 1, done: 20, points: Vec::new() },
            Action::Failed { run: 1, why: "late".to_owned() },
            Action::Finished { run: 1 },
        ] {
            screen.update(late);
        }
        assert_eq!(
            (screen.phase, screen.done, screen.problem.clone()),
            (Phase::Cancelled, 0, None)
        );
        screen.update(Action::Start);
        screen.update(Action::Progress { run: 1, done: 20, points: Vec::new() });
        assert_eq!((screen.run, screen.done), (2, 0), "run 1's news is not run 2's");
    }

    #[test]
    fn workers_that_cannot_start_or_fail_are_said() {
        let mut screen = check(
            &[
                Action::Start,
                Action::Started {
                    run: 1,
                    runner: Runner::Page { fallback: Fallback::WorkersRefused },
                },
            ],
            (Phase::Running, None, 0, true),
        );
        screen.update(Action::Finished { run: 1 });
        assert!(screen.fallback(), "said until the next run");
        screen.update(Action::Start);
        screen.update(Action::Started { run: 2, runner: Runner::Workers(2) });
        screen.update(Action::Failed { run: 2, why: "out of memory".to_owned() });
        assert_eq!(
            (screen.phase, screen.problem.clone(), screen.fallback()),
            (Phase::Finished, Some(Problem::Worker("out of memory".to_owned())), false)
        );
    }
}
