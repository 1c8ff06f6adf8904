//! The risk explorer's Monte Carlo core: seeded trials of a two-worker lease-lock workload,
//! each run through the real simulator, summarised per axis value (TTL, work time or
//! watchdog interval) with and without fencing.
//! Pure and resumable (the shell calls `advance` in slices); it must not read a clock, and
//! its float maths uses only IEEE-exact operations so one seed gives one result everywhere.
//!
//! A trial: A acquires with the TTL, starts its work, and 50 ms in stops for a pause drawn
//! from a log-normal (median and p99); B asks for the lock every 100 ms (from one poll
//! before A's lease would end), then does the same work; both write and release. The outcome depends on the pause only,
//! so outcomes are memoised by pause length: a million trials cost one simulator run per
//! distinct pause, not per trial.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalogue::load;
use crate::sim::prng::Prng;
use crate::sim::scenario::{
    AcquireHow, Fault, GatewaySetup, Guard, RedisSetup, ReleaseHow, RenewHow, SqlSetup, Step,
    TokenSource, WorkerSetup, WriteHow,
};
use crate::sim::scenario::{Word, words};
use crate::sim::world::{self, Recording};
use crate::sim::{Actor, EventKind, Setup, WorkerId};

/// What the learner sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    pub pause_median_ms: u64,
    pub pause_p99_ms: u64,
    pub work_ms: u64,
    /// The lease TTL, unless the axis varies it.
    pub ttl_ms: u64,
    /// What the x axis varies, and its values (one point per value, in this order).
    pub axis: Axis,
    pub values: Vec<u64>,
    pub watchdog: Watchdog,
    /// Trials per point (each TTL is two points: without and with fencing).
    pub trials: u64,
    pub seed: u64,
}

/// The parameter on the x axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    TtlMs,
    WorkMs,
    /// Needs the watchdog on.
    WatchdogIntervalMs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Watchdog {
    Off,
    On { interval_ms: u64, check: RenewCheck },
}

/// How the watchdog renews: the check-and-extend script, or a bare PEXPIRE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RenewCheck {
    Script,
    BarePexpire,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fencing {
    Off,
    On,
}

impl Default for Params {
    /// The starting form of the page and of `fence explore`.
    fn default() -> Params {
        Params {
            pause_median_ms: 2_000,
            pause_p99_ms: 40_000,
            work_ms: 1_000,
            ttl_ms: 30_000,
            axis: Axis::TtlMs,
            values: vec![2_000, 5_000, 10_000, 20_000, 30_000, 60_000],
            watchdog: Watchdog::Off,
            trials: 100_000,
            seed: 1,
        }
    }
}

/// The messages between the explorer page and its web workers: serde types in postcard,
/// posted as bytes. The page sends a worker its [`Params`] once (after the worker's `ready`,
/// a text message it shares with the search), then a [`Chunk`] at a time; the worker
/// answers each chunk with its [`Done`], or says why it cannot.
pub mod screen;

pub mod wire {
    use serde::{Deserialize, Serialize};

    use super::{Chunk, Done, Params};

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum ToWorker {
        Params(Params),
        Chunk(Chunk),
    }

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum FromWorker {
        Done(Done),
        Error(String),
    }

    /// The byte every message of this protocol starts with. One worker serves the explorer
    /// and the schedule search (`search::wire`, whose messages start with `S`): without it,
    /// postcard bytes of one protocol may read as a message of the other.
    pub const TAG: u8 = b'E';

    pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
        // Writing to a growable buffer fails only for types postcard cannot express (maps
        // of unknown length, for one); these enums have none.
        postcard::to_extend(message, vec![TAG]).unwrap_or_default()
    }

    /// A message from bytes; `None` for bytes no message of this protocol makes (the
    /// search's, another script's, a different build's).
    pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Option<T> {
        let (&TAG, rest) = bytes.split_first()? else { return None };
        postcard::from_bytes(rest).ok()
    }
}

/// A whole number typed into the form or given on the command line; `what` names it.
pub fn parse_number(text: &str, what: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what}: expected a whole number, found “{}”", text.trim()))
}

/// Comma-separated whole numbers (blank items are skipped).
pub fn parse_numbers(text: &str, what: &str) -> Result<Vec<u64>, String> {
    text.split(',').filter(|t| !t.trim().is_empty()).map(|t| parse_number(t, what)).collect()
}

words!(Axis: "ttl" => Axis::TtlMs, "work" => Axis::WorkMs, "interval" => Axis::WatchdogIntervalMs);

/// The watchdog as the form and `--watchdog` choose it, before its interval is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchdogKind {
    Off,
    Script,
    Bare,
}

words!(WatchdogKind: "off" => WatchdogKind::Off, "script" => WatchdogKind::Script, "bare" => WatchdogKind::Bare);

impl Axis {
    /// The axis `word` names, or a message listing the words.
    pub fn read(word: &str) -> Result<Axis, String> {
        word_or_message(word, "the axis")
    }
}

impl WatchdogKind {
    /// The kind `word` names, or a message listing the words.
    pub fn read(word: &str) -> Result<WatchdogKind, String> {
        word_or_message(word, "the watchdog")
    }

    /// The watchdog of this kind renewing every `interval_ms` (unused when it is off).
    pub fn with_interval(self, interval_ms: u64) -> Watchdog {
        match self {
            WatchdogKind::Off => Watchdog::Off,
            WatchdogKind::Script => Watchdog::On { interval_ms, check: RenewCheck::Script },
            WatchdogKind::Bare => Watchdog::On { interval_ms, check: RenewCheck::BarePexpire },
        }
    }
}

impl Watchdog {
    pub fn kind(self) -> WatchdogKind {
        match self {
            Watchdog::Off => WatchdogKind::Off,
            Watchdog::On { check: RenewCheck::Script, .. } => WatchdogKind::Script,
            Watchdog::On { check: RenewCheck::BarePexpire, .. } => WatchdogKind::Bare,
        }
    }
}

/// `word` as one of `T`'s words, or "`what` is a, b or c, not 'word'".
fn word_or_message<T: Word>(word: &str, what: &str) -> Result<T, String> {
    T::from_word(word).ok_or_else(|| {
        let words = T::words();
        let (last, rest) = words.split_last().map_or(("", &[][..]), |(l, r)| (*l, r));
        format!("{what} is {} or {last}, not '{word}'", rest.join(", "))
    })
}

/// A count as a percentage of `trials`, without the sign, with `decimals` places (1 to 4),
/// truncated from integer parts per million so the text is the same everywhere.
pub fn percent(count: u64, trials: u64, decimals: u32) -> String {
    let ppm = Tally::ppm(count, trials);
    let decimals = decimals.clamp(1, 4);
    let fraction = (ppm % 10_000) / 10_u64.pow(4 - decimals);
    format!("{}.{:0width$}", ppm / 10_000, fraction, width = decimals as usize)
}

/// Limits that keep a run bounded (the form says them too).
pub const TRIALS_MAX: u64 = 1_000_000;
pub const VALUES_MAX: usize = 12;
pub const MS_MAX: u64 = 600_000;

/// One point's tallies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub trials: u64,
    /// Trials in which two workers believed they held the lock at once.
    pub two_holders: u64,
    /// Trials in which A's write (older token) was applied after B's (newer token).
    pub stale_accepted: u64,
    /// Milliseconds of work whose result was rejected, summed over trials.
    pub wasted_ms: u64,
}

impl Tally {
    /// A fraction in parts per million (integer, so printing is exact everywhere).
    pub fn ppm(count: u64, trials: u64) -> u64 {
        count.saturating_mul(1_000_000).checked_div(trials).unwrap_or(0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// The axis value of this point.
    pub x: u64,
    pub fencing: Fencing,
    pub tally: Tally,
}

/// Trials per chunk. A point's trials are cut into chunks of this many, and each chunk
/// draws its pauses from a stream of its own (seeded by the run's seed, the axis value and
/// the chunk's number), so chunks can run on any number of threads or workers, finish in
/// any order, and still add up to the same tallies as one thread running them in order.
pub const CHUNK_TRIALS: u64 = 10_000;

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Run {
    params: Params,
    points: Vec<Point>,
    /// What runs the trials when the run advances by itself (`advance`).
    trials: Trials,
    /// The pause stream of the chunk each point is in.
    prngs: Vec<Prng>,
    /// Simulator runs made (memo misses), for the benchmark and the page.
    pub sim_runs: u64,
}

/// One chunk of one point's trials: a unit of work a thread or a web worker can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    pub point: usize,
    /// Its number among the point's chunks (0, 1, ...).
    pub index: u64,
}

/// A chunk's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Done {
    pub chunk: Chunk,
    pub tally: Tally,
    pub sim_runs: u64,
}

/// Everything that runs trials, without the tallies: each thread or worker has its own
/// (the setups are changed in place per trial, and each remembers the outcomes it has
/// seen; outcomes depend only on the pause, so what one remembers never changes a number).
#[derive(Clone, Debug)]
pub struct Trials {
    seed: u64,
    trials_per_point: u64,
    median_ms: u64,
    sigma: f64,
    /// Per point: the setup the trials run and the work time.
    templates: Vec<Setup>,
    works_ms: Vec<u64>,
    /// Per point: the outcome of each pause length seen.
    memo: Vec<BTreeMap<u64, Outcome>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Outcome {
    two_holders: bool,
    stale_accepted: bool,
    wasted_ms: u64,
}

impl Run {
    /// Checks the parameters and prepares one setup per point.
    pub fn new(params: Params) -> Result<Run, String> {
        if params.values.is_empty() || params.values.len() > VALUES_MAX {
            return Err(format!("give between 1 and {VALUES_MAX} values for the axis"));
        }
        if params.trials == 0 || params.trials > TRIALS_MAX {
            return Err(format!("trials must be between 1 and {TRIALS_MAX}"));
        }
        let in_range = |v: u64| (1..=MS_MAX).contains(&v);
        if !params.values.iter().all(|t| in_range(*t))
            || !in_range(params.work_ms)
            || !in_range(params.ttl_ms)
        {
            return Err(format!(
                "axis values, TTL and work time must be between 1 and {MS_MAX} ms"
            ));
        }
        if params.axis == Axis::WatchdogIntervalMs && params.watchdog == Watchdog::Off {
            return Err("varying the watchdog interval needs the watchdog on".to_owned());
        }
        if !in_range(params.pause_median_ms) || !in_range(params.pause_p99_ms) {
            return Err(format!("pause median and p99 must be between 1 and {MS_MAX} ms"));
        }
        if params.pause_p99_ms < params.pause_median_ms {
            return Err("the pause p99 cannot be below its median".to_owned());
        }
        if let Watchdog::On { interval_ms, .. } = params.watchdog
            && !in_range(interval_ms)
        {
            return Err(format!("the watchdog interval must be between 1 and {MS_MAX} ms"));
        }
        let mut points = Vec::new();
        let mut templates = Vec::new();
        let mut works_ms = Vec::new();
        for &x in &params.values {
            let mut setting = Setting {
                ttl_ms: params.ttl_ms,
                work_ms: params.work_ms,
                watchdog: params.watchdog,
            };
            match (params.axis, &mut setting.watchdog) {
                (Axis::TtlMs, _) => setting.ttl_ms = x,
                (Axis::WorkMs, _) => setting.work_ms = x,
                (Axis::WatchdogIntervalMs, Watchdog::On { interval_ms, .. }) => *interval_ms = x,
                (Axis::WatchdogIntervalMs, Watchdog::Off) => {}
            }
            for fencing in [Fencing::Off, Fencing::On] {
                templates.push(trial_setup(&setting, fencing)?);
                works_ms.push(setting.work_ms);
                points.push(Point { x, fencing, tally: Tally::default() });
            }
        }
        // log-normal: p99 = median * exp(2.326348 sigma).
        let sigma = libm::log(params.pause_p99_ms as f64 / params.pause_median_ms as f64)
            / 2.326_347_874_040_840_8;
        let trials = Trials {
            seed: params.seed,
            trials_per_point: params.trials,
            median_ms: params.pause_median_ms,
            sigma,
            memo: vec![BTreeMap::new(); templates.len()],
            templates,
            works_ms,
        };
        let prngs = (0..points.len()).map(|i| chunk_prng(params.seed, i, 0)).collect();
        Ok(Run { params, points, trials, prngs, sim_runs: 0 })
    }

    /// Every chunk of the run, point by point: hand them out in any order and give each
    /// result to `add`.
    pub fn chunks(&self) -> Vec<Chunk> {
        let per_point = self.params.trials.div_ceil(CHUNK_TRIALS);
        (0..self.points.len())
            .flat_map(|point| (0..per_point).map(move |index| Chunk { point, index }))
            .collect()
    }

    /// A fresh copy of what runs trials, for another thread or worker.
    pub fn trials(&self) -> Trials {
        Trials { memo: vec![BTreeMap::new(); self.points.len()], ..self.trials.clone() }
    }

    /// Adds a chunk's result (from `Trials::run`) to its point.
    pub fn add(&mut self, done: &Done) {
        if let Some(point) = self.points.get_mut(done.chunk.point) {
            let t = &mut point.tally;
            t.trials += done.tally.trials;
            t.two_holders += done.tally.two_holders;
            t.stale_accepted += done.tally.stale_accepted;
            t.wasted_ms += done.tally.wasted_ms;
        }
        self.sim_runs += done.sim_runs;
    }

    pub fn points(&self) -> &[Point] {
        &self.points
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Trials done and trials in all.
    pub fn progress(&self) -> (u64, u64) {
        let done = self.points.iter().map(|p| p.tally.trials).sum();
        (done, self.params.trials * self.points.len() as u64)
    }

    pub fn is_done(&self) -> bool {
        let (done, total) = self.progress();
        done >= total
    }

    /// Runs until `max_trials` more trials are done or `max_sim_runs` simulator runs were
    /// needed, whichever comes first (the shell sizes slices with these, not with a clock).
    pub fn advance(&mut self, max_trials: u64, max_sim_runs: u64) {
        let (mut trials, mut runs) = (0, 0);
        while trials < max_trials && runs < max_sim_runs {
            let Some(i) = self.points.iter().position(|p| p.tally.trials < self.params.trials)
            else {
                return;
            };
            // Each chunk of a point starts its own pause stream (as `Trials::run` does).
            let done = self.points[i].tally.trials;
            if done.is_multiple_of(CHUNK_TRIALS) {
                self.prngs[i] = chunk_prng(self.params.seed, i, done / CHUNK_TRIALS);
            }
            let (outcome, simulated) = self.trials.trial(i, &mut self.prngs[i]);
            self.sim_runs += u64::from(simulated);
            runs += u64::from(simulated);
            self.points[i].tally.count(outcome);
            trials += 1;
        }
    }
}

/// Hands a run's chunks out to several runners (threads, web workers): each runner stays on
/// one point while it has chunks left, so that point's memo of outcomes stays with one
/// runner, then moves to the point with the most chunks left. Which runner gets which chunk
/// changes how many simulations the memos save, never a number of the table.
#[derive(Clone, Debug)]
pub struct Dealer {
    by_point: Vec<Vec<Chunk>>,
    taken: Vec<usize>,
}

impl Dealer {
    pub fn new(chunks: &[Chunk]) -> Dealer {
        let points = chunks.iter().map(|c| c.point + 1).max().unwrap_or(0);
        let by_point: Vec<Vec<Chunk>> = (0..points)
            .map(|p| chunks.iter().copied().filter(|c| c.point == p).collect())
            .collect();
        Dealer { taken: vec![0; by_point.len()], by_point }
    }

    /// Where runner number `runner` starts.
    pub fn start(&self, runner: usize) -> usize {
        runner % self.by_point.len().max(1)
    }

    /// The next chunk for a runner on point `current` (which it may move to another point).
    pub fn next(&mut self, current: &mut usize) -> Option<Chunk> {
        let left = |d: &Dealer, p: usize| d.by_point[p].len() - d.taken[p];
        if self.taken.get(*current).is_none_or(|_| left(self, *current) == 0) {
            *current = (0..self.by_point.len())
                .filter(|&p| left(self, p) > 0)
                .max_by_key(|&p| (left(self, p), std::cmp::Reverse(p)))?;
        }
        let chunk = self.by_point[*current][self.taken[*current]];
        self.taken[*current] += 1;
        Some(chunk)
    }

    /// Chunks not handed out yet.
    pub fn left(&self) -> usize {
        (0..self.by_point.len()).map(|p| self.by_point[p].len() - self.taken[p]).sum()
    }
}

impl Trials {
    /// Runs one chunk's trials.
    pub fn run(&mut self, chunk: Chunk) -> Done {
        let mut prng = chunk_prng(self.seed, chunk.point, chunk.index);
        let first = chunk.index.saturating_mul(CHUNK_TRIALS);
        let n = self.trials_per_point.saturating_sub(first).min(CHUNK_TRIALS);
        let mut tally = Tally::default();
        let mut sim_runs = 0;
        if chunk.point < self.templates.len() {
            for _ in 0..n {
                let (outcome, simulated) = self.trial(chunk.point, &mut prng);
                sim_runs += u64::from(simulated);
                tally.count(outcome);
            }
        }
        Done { chunk, tally, sim_runs }
    }

    /// One trial of a point: its outcome, and whether the simulator had to run for it.
    fn trial(&mut self, point: usize, prng: &mut Prng) -> (Outcome, bool) {
        let pause_ms = sample_pause(prng, self.median_ms, self.sigma);
        match self.memo[point].get(&pause_ms) {
            Some(outcome) => (*outcome, false),
            None => {
                let outcome = simulate(&mut self.templates[point], pause_ms, self.works_ms[point]);
                self.memo[point].insert(pause_ms, outcome);
                (outcome, true)
            }
        }
    }
}

impl Tally {
    fn count(&mut self, outcome: Outcome) {
        self.trials += 1;
        self.two_holders += u64::from(outcome.two_holders);
        self.stale_accepted += u64::from(outcome.stale_accepted);
        self.wasted_ms += outcome.wasted_ms;
    }
}

/// The pause stream of a point's chunk. Both fencing modes at one axis value (points `2k`
/// and `2k + 1`) draw the same pauses (common random numbers), so their difference is the
/// fence's doing, not the dice's. Chunk 0's stream is the one the run had before it was cut
/// into chunks, so runs of up to `CHUNK_TRIALS` trials per point kept their numbers.
fn chunk_prng(seed: u64, point: usize, chunk: u64) -> Prng {
    let value = (point as u64 / 2) + 1;
    Prng::new(
        seed ^ value.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ chunk.wrapping_mul(0xD1B5_4A32_D192_ED03),
    )
}

/// One point's fixed settings.
struct Setting {
    ttl_ms: u64,
    work_ms: u64,
    watchdog: Watchdog,
}

/// One trial's setup, built as a value and checked by the loader's rules like a file.
fn trial_setup(setting: &Setting, fencing: Fencing) -> Result<Setup, String> {
    let ttl_ms = setting.ttl_ms;
    let watchdog = match setting.watchdog {
        Watchdog::Off => None,
        Watchdog::On { interval_ms, check } => Some(Step::Watchdog {
            interval_ms: Some(interval_ms),
            how: match check {
                RenewCheck::Script => RenewHow::Script,
                RenewCheck::BarePexpire => RenewHow::BarePexpire,
            },
        }),
    };
    let (how, guard) = match fencing {
        Fencing::Off => (WriteHow::Unfenced, Guard::None),
        Fencing::On => (WriteHow::Fenced, Guard::Lt),
    };
    let work = setting.work_ms;
    // B polls every 100 ms on the grid 100, 200, 300 ... ms, starting one tick before A's
    // lease would run out: earlier polls are all denied and change nothing but the cost.
    let b_start_ms = 100 * (ttl_ms / 100).saturating_sub(1).max(1);
    // Long enough for the longest pause we draw plus both critical sections.
    let until_ms = MS_MAX * 2 + 4 * (work + ttl_ms);
    let attempts = u32::try_from(until_ms / 100).unwrap_or(u32::MAX);
    let worker = |name: &str, start_ms: u64, acquire: Step, status: &str| WorkerSetup {
        name: name.to_owned(),
        start_ms,
        program: [Some(acquire), watchdog.clone()]
            .into_iter()
            .flatten()
            .chain([
                Step::Compute { ms: work },
                Step::Write {
                    how,
                    status: status.to_owned(),
                    from: None,
                    attempts: 1,
                    backoff_ms: 0,
                },
                Step::Release { how: ReleaseHow::Script },
            ])
            .collect(),
        on_rejected: Vec::new(),
        reply_timeout_ms: 1_000,
    };
    let acquire = |retry_every_ms, attempts| Step::Acquire {
        how: AcquireHow::Script,
        ttl_ms,
        retry_every_ms,
        attempts,
    };
    let setup = Setup {
        seed: 1,
        until_ms,
        redis: RedisSetup::seed_story(),
        tokens: TokenSource::RedisIncr,
        sql: SqlSetup::seed_story(guard),
        gateway: GatewaySetup::default(),
        alert: None,
        workers: vec![
            worker("A", 0, acquire(1_000, 1), "paid"),
            worker("B", b_start_ms, acquire(100, attempts), "shipped"),
        ],
        // A's pause: its length is set for each trial.
        faults: vec![Fault::Pause { worker: WorkerId(0), at_ms: 50, pause_ms: 1 }],
    };
    load::validate_setup(&setup)
        .map_err(|e| format!("internal: the trial setup is invalid: {e}"))?;
    Ok(setup)
}

/// One trial: the point's setup with this pause, run for its facts. The outcome is
/// read from the run's events and belief spans directly (the setup is changed in
/// place and no trace or summary is built: the explorer runs this hundreds of thousands
/// of times, and those copies cost more than the SQL of the run).
fn simulate(template: &mut Setup, pause_ms: u64, work_ms: u64) -> Outcome {
    for fault in &mut template.faults {
        if let Fault::Pause { pause_ms: p, .. } = fault {
            *p = pause_ms;
        }
    }
    let worker = |name: &str| template.workers.iter().position(|w| w.name == name);
    let (a, b) = (worker("A"), worker("B"));
    let output = world::run(template, Recording::Facts);
    // B always holds the newer token (A is granted first), so A's write landing after
    // B's landed is an older token overwriting a newer one: what fencing exists to stop.
    // (A's write between B's grant and B's write is accepted even when fenced, and rightly:
    // the row still holds an older token.)
    let accepted_by = |who: Option<usize>| {
        output.events.iter().filter(move |e| match (&e.kind, e.peer) {
            (EventKind::Wrote { rows, .. }, Some(Actor::Worker(w))) => {
                rows.matched() && Some(w.index()) == who
            }
            _ => false,
        })
    };
    let b_wrote = accepted_by(b).map(|e| e.at_ms).min();
    let stale_accepted = accepted_by(a).any(|e| b_wrote.is_some_and(|b| e.at_ms > b));
    let rejected = output
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Wrote { rows: crate::sim::event::RowCount(0), .. }))
        .count() as u64;
    // Two holders: two workers' belief spans overlap for a while (as the summary counts).
    let spans = &output.belief_spans;
    let two_holders = spans.iter().enumerate().any(|(i, &(x, x_from, x_to))| {
        spans[i + 1..]
            .iter()
            .any(|&(y, y_from, y_to)| x != y && x_from.max(y_from) < x_to.min(y_to))
    });
    Outcome { two_holders, stale_accepted, wasted_ms: rejected * work_ms }
}

/// A pause in whole ms from log-normal(median, sigma), clamped to the form's range.
fn sample_pause(prng: &mut Prng, median_ms: u64, sigma: f64) -> u64 {
    let z = standard_normal(prng);
    let ms = median_ms as f64 * libm::exp(sigma * z);
    // Rounding a finite, clamped double to an integer is exact and portable.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let rounded = (ms.clamp(0.0, MS_MAX as f64) + 0.5) as u64;
    rounded.min(MS_MAX)
}

/// Marsaglia's polar method: needs only `log` and `sqrt` (IEEE-exact), no trigonometry.
fn standard_normal(prng: &mut Prng) -> f64 {
    loop {
        let u = 2.0 * unit(prng) - 1.0;
        let v = 2.0 * unit(prng) - 1.0;
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            return u * (-2.0 * libm::log(s) / s).sqrt();
        }
    }
}

/// A uniform double in [0, 1) from the top 53 bits.
fn unit(prng: &mut Prng) -> f64 {
    (prng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// The bits of the maths the sampler uses (`libm`'s `log` and `exp`, pure Rust, the same
/// code natively and in wasm) over 10,000 inputs spread as the sampler spreads them: the
/// native and browser tests pin the same value, so a library update or a platform that
/// rounded differently would show.
pub fn maths_fingerprint() -> u64 {
    let mut prng = Prng::new(7);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: f64| {
        hash ^= x.to_bits();
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    for _ in 0..10_000 {
        let s = unit(&mut prng);
        mix(libm::log(s.max(f64::MIN_POSITIVE)));
        mix(libm::exp(8.0 * unit(&mut prng) - 4.0));
    }
    hash
}

/// The parameters whose numbers the determinism tests pin (natively and in the browser).
/// Written out in full rather than derived from `Params::default()`, so that changing the
/// page's starting form never moves a pinned fingerprint.
#[doc(hidden)]
pub fn pinned_example() -> Params {
    Params {
        pause_median_ms: 2_000,
        pause_p99_ms: 40_000,
        work_ms: 1_000,
        ttl_ms: 30_000,
        axis: Axis::TtlMs,
        values: vec![2_000, 30_000],
        watchdog: Watchdog::Off,
        trials: 500,
        seed: 42,
    }
}

/// The tallies as one line (`ttl/fencing:trials,two,stale,wasted;...`): the cross-platform
/// determinism tests compare this text natively and in the browser.
pub fn fingerprint(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| {
            let t = &p.tally;
            let fencing = if p.fencing == Fencing::On { "on" } else { "off" };
            format!(
                "{}/{fencing}:{},{},{},{}",
                p.x, t.trials, t.two_holders, t.stale_accepted, t.wasted_ms
            )
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::{
        Axis, CHUNK_TRIALS, Chunk, Dealer, Done, Fencing, Params, RenewCheck, Run, Watchdog,
        WatchdogKind, sample_pause,
        wire::{self, FromWorker, ToWorker},
    };
    use crate::sim::scenario::Word;

    #[test]
    fn the_pause_sampler_has_the_median_and_p99_it_was_asked_for() {
        // A million draws with the form's defaults (median 2 s, p99 40 s): the sample's
        // median and 99th percentile within 1 % of the requested ones.
        let (median_ms, p99_ms) = (2_000u64, 40_000u64);
        let sigma = libm::log(p99_ms as f64 / median_ms as f64) / 2.326_347_874_040_840_8;
        let mut prng = crate::sim::prng::Prng::new(11);
        let mut draws: Vec<u64> =
            (0..1_000_000).map(|_| sample_pause(&mut prng, median_ms, sigma)).collect();
        draws.sort_unstable();
        let at = |q: f64| draws[(q * (draws.len() - 1) as f64).round() as usize] as f64;
        let (median, p99) = (at(0.5), at(0.99));
        assert!((median / median_ms as f64 - 1.0).abs() < 0.01, "median {median}");
        assert!((p99 / p99_ms as f64 - 1.0).abs() < 0.01, "p99 {p99}");
    }

    fn params(trials: u64) -> Params {
        Params {
            pause_median_ms: 2_000,
            pause_p99_ms: 40_000,
            work_ms: 1_000,
            ttl_ms: 30_000,
            axis: Axis::TtlMs,
            values: vec![5_000, 30_000],
            watchdog: Watchdog::Off,
            trials,
            seed: 7,
        }
    }

    fn finish(mut run: Run) -> Run {
        while !run.is_done() {
            run.advance(10_000, 50);
        }
        run
    }

    #[test]
    fn the_maths_agree_with_std_closely() {
        for x in [1e-9, 0.001, 0.5, 1.0, 2.0, 10.0, 12345.678, 1e300] {
            assert!((libm::log(x) - x.ln()).abs() <= 1e-12 * x.ln().abs().max(1.0), "ln {x}");
        }
        for x in [-50.0, -1.0, 0.0, 0.3, 1.0, 5.5, 100.0] {
            assert!((libm::exp(x) - x.exp()).abs() <= 1e-12 * x.exp(), "exp {x}");
        }
    }

    #[test]
    fn fencing_removes_stale_writes_and_longer_ttls_make_overlap_rarer() {
        let run = finish(Run::new(params(1_500)).unwrap());
        let p = run.points();
        let (short_off, short_on, long_off, long_on) = (&p[0], &p[1], &p[2], &p[3]);
        assert_eq!((short_off.x, short_off.fencing), (5_000, Fencing::Off));
        // Same pauses, same overlaps: fencing does not prevent two holders...
        assert_eq!(short_off.tally.two_holders, short_on.tally.two_holders);
        assert!(short_off.tally.two_holders > 0);
        // ...but without it the stale write lands, and with it none does.
        assert!(short_off.tally.stale_accepted > 0);
        assert_eq!(short_on.tally.stale_accepted, 0);
        assert_eq!(long_on.tally.stale_accepted, 0);
        assert!(short_on.tally.wasted_ms > 0, "a rejected write wastes the work");
        assert!(long_off.tally.two_holders < short_off.tally.two_holders);
        assert!(run.sim_runs < 4 * 1_500, "outcomes are memoised by pause");
    }

    #[test]
    fn one_seed_gives_one_result_however_it_is_sliced() {
        let whole = finish(Run::new(params(800)).unwrap());
        let mut sliced = Run::new(params(800)).unwrap();
        while !sliced.is_done() {
            sliced.advance(7, 1);
        }
        assert_eq!(whole.points(), sliced.points());
        let other = finish(Run::new(Params { seed: 8, ..params(800) }).unwrap());
        assert_ne!(whole.points(), other.points());
    }

    #[test]
    fn chunks_in_any_order_on_any_number_of_runners_add_up_to_the_run_in_order() {
        // Three chunks per point: the last one short.
        let trials = 2 * CHUNK_TRIALS + 345;
        let p = Params { values: vec![2_000, 30_000], ..params(trials) };
        let in_order = finish(Run::new(p.clone()).unwrap());
        let mut shared = Run::new(p.clone()).unwrap();
        let chunks = shared.chunks();
        assert_eq!(chunks.len(), 4 * 3);
        // Three runners, each with its own memo, taking the chunks backwards and in turn.
        let mut runners = [shared.trials(), shared.trials(), shared.trials()];
        let results: Vec<Done> =
            chunks.iter().rev().enumerate().map(|(k, chunk)| runners[k % 3].run(*chunk)).collect();
        for done in &results {
            shared.add(done);
        }
        assert_eq!(in_order.points(), shared.points());
        assert!(shared.is_done());
        // Later chunks draw other pauses than the first: the streams are not one repeated.
        let first = &results.iter().find(|d| d.chunk == Chunk { point: 0, index: 0 }).unwrap();
        let second = &results.iter().find(|d| d.chunk == Chunk { point: 0, index: 1 }).unwrap();
        assert_ne!(first.tally, second.tally);
    }

    #[test]
    fn the_dealer_keeps_runners_on_their_points_and_hands_out_every_chunk_once() {
        let run =
            Run::new(Params { values: vec![2_000, 30_000], ..params(3 * CHUNK_TRIALS) }).unwrap();
        let mut dealer = Dealer::new(&run.chunks());
        let (mut a, mut b) = (dealer.start(0), dealer.start(1));
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push((0, dealer.next(&mut a).unwrap()));
            seen.push((1, dealer.next(&mut b).unwrap()));
        }
        // Three chunks each on points 0 and 1, then both move to the points left.
        assert!(seen.iter().all(|(r, c)| c.point == *r), "{seen:?}");
        while let Some(chunk) = dealer.next(&mut a).or_else(|| dealer.next(&mut b)) {
            seen.push((2, chunk));
        }
        let mut chunks: Vec<Chunk> = seen.iter().map(|(_, c)| *c).collect();
        chunks.sort_by_key(|c| (c.point, c.index));
        assert_eq!(chunks, run.chunks());
        assert_eq!(dealer.left(), 0);
    }

    #[test]
    fn the_workers_messages_carry_parameters_chunks_and_results_whole() {
        let p_watchdog = Watchdog::On { interval_ms: 7_000, check: RenewCheck::BarePexpire };
        let p = Params { watchdog: p_watchdog, axis: Axis::WorkMs, ..params(1_234) };
        let to_params = ToWorker::Params(p.clone());
        assert_eq!(wire::decode::<ToWorker>(&wire::encode(&to_params)), Some(to_params.clone()));
        let mut run = Run::new(p).unwrap();
        let chunk = ToWorker::Chunk(run.chunks()[1]);
        assert_eq!(wire::decode::<ToWorker>(&wire::encode(&chunk)), Some(chunk));
        let done = run.trials().run(run.chunks()[1]);
        let back = FromWorker::Done(done.clone());
        assert_eq!(wire::decode::<FromWorker>(&wire::encode(&back)), Some(back));
        run.add(&done);
        // Bytes no message makes: empty, cut short, an unknown variant.
        let whole = wire::encode(&FromWorker::Done(done));
        for bad in [&[][..], &whole[..whole.len() - 1], &[9, 0], &[wire::TAG, 9, 0]] {
            assert_eq!(wire::decode::<FromWorker>(bad), None, "{bad:?}");
        }
        // The search's messages are not the explorer's: tests/sim/workers.rs.
        // The form's and the command line's words, one table each.
        assert_eq!(Axis::read("work"), Ok(Axis::WorkMs));
        assert_eq!(
            Axis::read("pause").unwrap_err(),
            "the axis is ttl, work or interval, not 'pause'"
        );
        assert_eq!(WatchdogKind::read("bare").map(|k| k.with_interval(7_000)), Ok(p_watchdog));
        assert_eq!(p_watchdog.kind().word(), "bare");
    }

    #[test]
    fn a_checked_watchdog_keeps_the_lease_through_long_work_but_not_through_a_pause() {
        let mut p = params(600);
        p.watchdog = Watchdog::On { interval_ms: 1_000, check: RenewCheck::Script };
        p.work_ms = 20_000;
        p.values = vec![3_000];
        let run = finish(Run::new(p).unwrap());
        let unfenced = &run.points()[0].tally;
        // The watchdog pauses with its process: long pauses still let B in.
        assert!(unfenced.two_holders > 0);
        assert!(unfenced.two_holders < unfenced.trials);
    }

    #[test]
    fn longer_work_under_a_fixed_ttl_makes_overlap_likelier() {
        let mut p = params(600);
        p.axis = Axis::WorkMs;
        p.ttl_ms = 10_000;
        p.values = vec![500, 8_000];
        let run = finish(Run::new(p).unwrap());
        let (short, long) = (&run.points()[0].tally, &run.points()[2].tally);
        assert!(short.two_holders < long.two_holders, "{short:?} {long:?}");
        assert_eq!(run.points()[2].x, 8_000);
    }

    #[test]
    fn bad_parameters_get_a_message() {
        for bad in [
            Params { values: vec![], ..params(10) },
            Params { axis: Axis::WatchdogIntervalMs, ..params(10) },
            Params { trials: 0, ..params(10) },
            Params { trials: 2_000_000, ..params(10) },
            Params { pause_p99_ms: 10, ..params(10) },
            Params { work_ms: 0, ..params(10) },
        ] {
            assert!(Run::new(bad).is_err());
        }
    }
}
