//! The schedule search ("try to break it"): runs a setup under every schedule of a bounded
//! space, smallest change first, and returns the first one that breaks a property, or how
//! many distinct schedules held.
//!
//! Pure and deterministic: no clock, no web crate, no thread of its own. [`Search`] is a
//! state machine in the sans-IO manner: it hands out chunks of schedules ([`Search::next_chunk`]),
//! the caller runs them anywhere (this thread, rayon, web workers) with [`evaluate`] and
//! feeds the results back in the chunk's order ([`Search::feed`]); the answer depends only
//! on the setup, the space and the properties, never on who ran what.
//!
//! The space, in the learner's terms: one of the lesson's own times moved (a fault's moment
//! or length, a worker's start, its work, its backoff), or up to `max_added` faults added
//! from a palette. Only moments that can change the run are tried: 1 ms before and after
//! every event and every lease deadline of the run the change is made to, and, for the
//! first added fault's length, of the run that fault makes (see `docs/search.md` for why
//! this is complete for the model, and where it is not).

use crate::catalogue::lesson::{Expected, Rule, RuleOutcome, RuleVary, Scenario};
use crate::sim::event::{Actor, EventKind, Property};
use crate::sim::id::{NodeId, WorkerId};
use crate::sim::scenario::{CrashKind, Fault, ScenarioId, Setup, Step, Word, words};
use crate::sim::sorted::SortedMap;
use crate::sim::{self, Trace};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A fault the search may add.
#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
pub enum Addition {
    /// A stop-the-world pause of a worker (GC, VM migration).
    Pause,
    /// A worker's process dies.
    Crash,
    /// The reply to one of a worker's requests is lost after the server applied it.
    LostReply,
    /// A worker's request takes long to arrive (sent inside the lease, arriving after it).
    Delay,
    /// The primary dies and Sentinel promotes a replica (only where the setup fails over).
    Failover,
    /// A Redis node crashes and restarts with what its persistence kept.
    Restart,
    /// A Redis node's wall clock jumps forward past a lease's deadline.
    ClockJump,
}

words!(Addition:
    "pause" => Addition::Pause,
    "crash" => Addition::Crash,
    "lost-reply" => Addition::LostReply,
    "delay" => Addition::Delay,
    "failover" => Addition::Failover,
    "restart" => Addition::Restart,
    "clock-jump" => Addition::ClockJump,
);

/// Which of the lesson's own times the search may move.
#[derive(Clone, Copy, Debug, Eq, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Vary {
    /// Keep the lesson's schedule; only add faults.
    Nothing,
    /// Each fault's moment and length, each worker's start, work and backoff times.
    Times,
}

/// The bounds of a search: what may change, and how much.
#[derive(Clone, Debug, Eq, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Space {
    pub vary: Vary,
    /// The palette of faults to add, in the order they are tried.
    pub add: Vec<Addition>,
    /// At most this many faults added (0 to 3).
    pub max_added: usize,
    /// At most this many schedules in one level of the search (the smallest changes are
    /// kept); a search that had to leave some out says so.
    pub level_limit: usize,
}

impl Space {
    /// The space a lesson is searched in by default: its own times, and up to two added
    /// faults from the palette its setup can suffer (failover only with a replica that
    /// Sentinel promotes, restarts only with more than one node or with persistence,
    /// clock jumps only where the lesson already jumps a clock or locks by majority).
    pub fn for_setup(setup: &Setup) -> Space {
        let mut add = vec![Addition::Pause, Addition::Crash, Addition::LostReply, Addition::Delay];
        if can_fail_over(setup) {
            add.push(Addition::Failover);
        }
        let persistent = setup.redis.persistence != sim::scenario::Persistence::None;
        let crashes_nodes = setup.faults.iter().any(|f| matches!(f, Fault::CrashNode { .. }));
        if persistent || crashes_nodes {
            add.push(Addition::Restart);
        }
        let jumps = setup.faults.iter().any(|f| matches!(f, Fault::ClockJump { .. }));
        if jumps || setup.redis.topology == sim::scenario::Topology::Redlock {
            add.push(Addition::ClockJump);
        }
        Space { vary: Vary::Times, add, max_added: 2, level_limit: LEVEL_LIMIT }
    }

    /// The bounds in words: "one of the lesson's times moved, or up to 2 added faults
    /// (pause, crash, lost-reply)".
    pub fn describe(&self) -> String {
        let words: Vec<&str> = self.add.iter().map(|a| a.word()).collect();
        let added = match (self.max_added, words.is_empty()) {
            (0, _) | (_, true) => "no added fault".to_owned(),
            (1, false) => format!("up to 1 added fault ({})", words.join(", ")),
            (n, false) => format!("up to {n} added faults ({})", words.join(", ")),
        };
        match self.vary {
            Vary::Times => format!("one of the lesson's times moved, or {added}"),
            Vary::Nothing => added,
        }
    }
}

/// The default cap on one level's schedules: about ten seconds of the slowest built-in on
/// two browser workers.
pub const LEVEL_LIMIT: usize = 100_000;

/// One of the lesson's own times.
#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
pub enum Knob {
    /// When the setup's fault `i` strikes.
    FaultAt(usize),
    /// How long the setup's fault `i` lasts (a pause, a hang, a delay, a partition, the
    /// time until a crashed node restarts).
    FaultLength(usize),
    /// When a worker starts.
    WorkerStart(WorkerId),
    /// How long step `step` of a worker's program works or sleeps.
    Work { worker: WorkerId, step: usize },
    /// The backoff of a worker's retried write or charge (step `step`).
    Backoff { worker: WorkerId, step: usize },
}

/// One change to the lesson's schedule.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Change {
    Moved { knob: Knob, from_ms: u64, to_ms: u64 },
    Added(Fault),
}

/// What one schedule's run showed: the digest that tells identical runs apart, and the
/// first checked property it broke.
#[derive(Clone, Copy, Debug, Eq, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Evaluated {
    pub digest: u64,
    pub broken: Option<Property>,
}

/// A schedule that breaks a property, as the smallest change the search found.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Counterexample {
    /// The changes from the lesson's schedule (none: the lesson's own run breaks it).
    pub changes: Vec<Change>,
    pub property: Property,
    /// The lesson's setup with the changes made.
    pub setup: Setup,
}

/// How a search ended.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Report {
    pub found: Option<Counterexample>,
    /// Distinct schedules run (identical runs, by their digest, counted once).
    pub schedules: u64,
    /// Schedules run in all.
    pub runs: u64,
    /// The bounds in words.
    pub bounds: String,
    /// Whether a level had more schedules than its limit (the smallest changes were run).
    pub capped: bool,
}

/// Where a search stands, for a progress bar.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Progress {
    /// Schedules run so far, and how many the search knows of (it learns each level's
    /// size when the level starts).
    pub run: u64,
    pub known: u64,
    /// The level being run: 0 the lesson's own run, 1 a time moved, 2.. added faults + 1.
    pub level: usize,
    pub levels: usize,
}

/// The search over one setup: see the module's documentation for how to drive it.
pub struct Search {
    setup: Setup,
    space: Space,
    properties: Vec<Property>,
    levels: Vec<Level>,
    level: usize,
    /// The current level's schedules, smallest change first, and how far they have run.
    queue: Vec<Vec<Change>>,
    next: usize,
    given: usize,
    /// This level's schedules whose run was new: the parents of the next level.
    fresh: Vec<Vec<Change>>,
    /// Digests of the runs so far. A tree, not a sorted vector: it takes hundreds of
    /// thousands of digests in no order, where a vector's inserts would move most of it.
    seen: BTreeSet<u64>,
    runs: u64,
    known: u64,
    capped: bool,
    found: Option<Counterexample>,
    done: bool,
    /// Each moved time already queued, so a later round does not run it again.
    moved: BTreeSet<(Knob, u64)>,
    /// The new runs with the current count of added faults, over its first level and its
    /// refinements: the parents of the next count.
    grown: Vec<Vec<Change>>,
    /// Every schedule queued with one added fault, as a set of changes, so a refinement
    /// does not run again what the first level or an earlier refinement ran.
    queued: BTreeSet<String>,
    /// Results of the current level's chunks that came before an earlier chunk's (see
    /// [`Search::feed_chunk`]), by chunk number.
    pending: SortedMap<usize, Vec<Evaluated>>,
}

/// A schedule of the next level before it is kept: its cost and generation number, the
/// parent it changes, and the change.
struct Candidate {
    key: (Cost, u64),
    parent: usize,
    change: Change,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Level {
    Lesson,
    /// One of the lesson's times moved. Round 0 moves it to the moments of the lesson's
    /// own run; each later round moves the same time to the moments of a run an earlier
    /// round made new (a move can create moments the lesson's run never had: a worker that
    /// now gets the lock has a lease that now expires), until no new value is left.
    Moved(usize),
    /// `n` faults: the first `n - 1` of a new run with `n - 1`, one more at a moment of
    /// that run.
    Added(usize),
    /// One fault, round `r`: the fault of a new run of the level before, at the same moment,
    /// with its length fitted to the moments that fault made. A fault makes moments the
    /// lesson's run never had (a pause that outlives a lease lets another worker in, whose
    /// grant and writes happen only with the pause), and how long it must last to meet
    /// them is known only once it has run. Only the first fault is refined: refining the
    /// second would run every new run with two faults again to learn its moments, which
    /// costs more than the level itself (docs/search.md).
    Refined(usize),
}

/// Rounds of moved times at most (see [`Level::Moved`]): the built-ins and the random
/// scenarios of tests/soundness reach their fixpoint in fewer.
const MOVE_ROUNDS: usize = 4;

/// Rounds of refined lengths at most (see [`Level::Refined`]): most built-ins and random
/// scenarios of tests/soundness reach their fixpoint in fewer.
const ADD_ROUNDS: usize = 3;

/// Schedules per chunk: the unit of work handed out and of the early stop, so the answer
/// and the counts do not depend on how many threads run the chunks.
pub const CHUNK: usize = 64;

impl Search {
    /// A search of `setup` in `space` for a run that breaks one of `properties`.
    pub fn new(setup: &Setup, space: Space, properties: Vec<Property>) -> Search {
        let mut levels = vec![Level::Lesson];
        if space.vary == Vary::Times {
            levels.extend((0..MOVE_ROUNDS).map(Level::Moved));
        }
        if !space.add.is_empty() {
            for n in 1..=space.max_added.min(3) {
                levels.push(Level::Added(n));
                if n == 1 {
                    levels.extend((0..ADD_ROUNDS).map(Level::Refined));
                }
            }
        }
        Search {
            setup: setup.clone(),
            space,
            properties,
            levels,
            level: 0,
            queue: vec![Vec::new()],
            next: 0,
            given: 0,
            fresh: Vec::new(),
            seen: BTreeSet::new(),
            runs: 0,
            known: 1,
            capped: false,
            found: None,
            done: false,
            pending: SortedMap::new(),
            moved: BTreeSet::new(),
            grown: Vec::new(),
            queued: BTreeSet::new(),
        }
    }

    /// The setup the schedules change.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The properties checked.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The next schedules to run, or none when every chunk handed out must be fed back
    /// first (the end of a level) or the search is over.
    pub fn next_chunk(&mut self) -> Option<Vec<Vec<Change>>> {
        if self.done || self.given >= self.queue.len() {
            return None;
        }
        let end = (self.given + CHUNK).min(self.queue.len());
        let chunk = self.queue[self.given..end].to_vec();
        self.given = end;
        Some(chunk)
    }

    /// Takes the results of the chunks handed out, in the order they were handed out (one
    /// result per schedule). Results for a chunk after a counterexample are ignored.
    pub fn feed(&mut self, results: &[Evaluated]) {
        if self.done {
            return;
        }
        for result in results {
            let Some(changes) = self.queue.get(self.next) else { break };
            self.next += 1;
            self.runs += 1;
            let new = self.seen.insert(result.digest);
            if let Some(property) = result.broken {
                let setup = apply(&self.setup, changes);
                self.found = Some(Counterexample { changes: changes.clone(), property, setup });
                self.done = true;
                return;
            }
            if new {
                self.fresh.push(changes.clone());
            }
        }
        if self.next >= self.queue.len() {
            self.next_level();
        }
    }

    /// The level being run and how many chunks it has: with [`Search::chunk`] and
    /// [`Search::feed_chunk`], replicas of one search on several workers each run some of
    /// a level's chunks and all take every result (the browser's way: no schedule crosses
    /// a message, only results do).
    pub fn level(&self) -> (usize, usize) {
        (self.level, self.queue.len().div_ceil(CHUNK))
    }

    /// Chunk `j` of the current level (the same schedules `next_chunk` hands out j-th).
    pub fn chunk(&self, j: usize) -> Option<Vec<Vec<Change>>> {
        let start = j.checked_mul(CHUNK).filter(|&s| s < self.queue.len() && !self.done)?;
        Some(self.queue[start..(start + CHUNK).min(self.queue.len())].to_vec())
    }

    /// Takes the results of chunk `j` of level `level`, in any order: each is held until
    /// every earlier chunk's results are in, then fed as [`Search::feed`] would, so the
    /// answer is the same whichever worker finished first. Results for another level, or
    /// for a chunk already fed, are ignored.
    pub fn feed_chunk(&mut self, level: usize, j: usize, results: Vec<Evaluated>) {
        let expected = self.queue.get(j.saturating_mul(CHUNK)..).map_or(0, |r| r.len().min(CHUNK));
        let stale = j.saturating_mul(CHUNK) < self.next;
        if self.done || level != self.level || stale || expected == 0 || results.len() != expected {
            return;
        }
        self.pending.insert(j, results);
        while let Some(results) = self.pending.remove(&(self.next / CHUNK)) {
            self.feed(&results);
            if self.done || self.level != level {
                self.pending = SortedMap::new();
                break;
            }
        }
    }

    /// Whether the search is over (see [`Search::report`]).
    pub fn is_done(&self) -> bool {
        self.done
    }

    pub fn progress(&self) -> Progress {
        Progress { run: self.runs, known: self.known, level: self.level, levels: self.levels.len() }
    }

    /// The answer, once the search is over.
    pub fn report(&self) -> Option<Report> {
        self.done.then(|| Report {
            found: self.found.clone(),
            schedules: self.seen.len() as u64,
            runs: self.runs,
            bounds: self.space.describe(),
            capped: self.capped,
        })
    }

    /// Moves to the next level, building its schedules from this level's new runs.
    /// Longer than 100 lines: which runs are a level's parents, what it varies and where it
    /// stops depend on the level before; the steps share the search's state throughout.
    fn next_level(&mut self) {
        let fresh = std::mem::take(&mut self.fresh);
        let finished = self.levels.get(self.level).copied();
        self.level += 1;
        let Some(&level) = self.levels.get(self.level) else {
            self.done = true;
            return;
        };
        if matches!(finished, Some(Level::Added(_) | Level::Refined(_))) {
            self.grown.extend(fresh.iter().cloned());
        }
        // The lesson's own run is the parent of the moved times and of the first added
        // fault; each later fault is added to a run with one fault fewer that was new; a
        // refinement changes the runs the level before made new.
        let parents = match (level, finished) {
            (Level::Added(n), _) if n > 1 => std::mem::take(&mut self.grown),
            (Level::Refined(_), _) => fresh,
            (Level::Moved(r), Some(Level::Moved(_))) if r > 0 => fresh,
            _ => vec![Vec::new()],
        };
        if let Level::Added(_) = level {
            self.grown.clear();
            self.queued.clear();
        }
        // Only the `level_limit` smallest changes are kept, so a level of millions is
        // never held: past twice the limit the list is cut back to the limit, and what
        // costs more than the last kept stops being collected. The generation number
        // breaks ties, so what is kept does not depend on when the cuts happen.
        let limit = self.space.level_limit.max(1);
        let mut kept: Vec<Candidate> = Vec::new();
        let mut ceiling: Option<(Cost, u64)> = None;
        let mut generated: u64 = 0;
        let mut cut = false;
        // The run without a refined parent's last fault, for the parents that share it
        // (with one fault, all of them: the lesson's own run).
        let mut unfaulted: Option<(&[Change], Moments)> = None;
        for (p, parent) in parents.iter().enumerate() {
            let setup = apply(&self.setup, parent);
            let trace = sim::run_facts(&setup);
            let moments = Moments::of(&trace, &setup);
            let base = cost(parent);
            let changes: Vec<Change> = match level {
                Level::Moved(0) => moves(&setup, &moments),
                Level::Moved(_) => {
                    // The same time as the parent's move, to this run's moments; as a
                    // move from the lesson's own value.
                    let Some(Change::Moved { knob: moved, .. }) = parent.first() else { continue };
                    let from_ms = knob(&self.setup, *moved).unwrap_or_default();
                    let again = moves(&setup, &moments).into_iter().filter_map(|c| match c {
                        Change::Moved { knob, to_ms, .. } if knob == *moved && to_ms != from_ms => {
                            Some(Change::Moved { knob, from_ms, to_ms })
                        }
                        _ => None,
                    });
                    again.collect()
                }
                Level::Added(_) => {
                    let after = parent.iter().rev().find_map(|c| match c {
                        Change::Added(fault) => Some(strikes_at(fault)),
                        Change::Moved { .. } => None,
                    });
                    // What the ceiling would cut is not made at all: the same queue,
                    // without building the millions of long faults a big level drops.
                    let budget = Budget::under(ceiling.map(|c| c.0), base);
                    let faults = additions(&setup, &moments, &self.space.add, budget);
                    let later =
                        faults.into_iter().filter(|f| after.is_none_or(|a| strikes_at(f) >= a));
                    later.map(Change::Added).collect()
                }
                Level::Refined(_) => {
                    // The parent's last fault, refitted to the moments of the run it made.
                    let Some((Change::Added(last), prefix)) = parent.split_last() else {
                        continue;
                    };
                    if unfaulted.as_ref().is_none_or(|(p, _)| *p != prefix) {
                        let setup = apply(&self.setup, prefix);
                        unfaulted = Some((prefix, Moments::of(&sim::run_facts(&setup), &setup)));
                    }
                    let Some((_, before)) = &unfaulted else { continue };
                    let budget = Budget::under(ceiling.map(|c| c.0), cost(prefix));
                    let refits = refitted(last, &moments, before, budget);
                    refits.into_iter().map(Change::Added).collect()
                }
                Level::Lesson => Vec::new(),
            };
            // A refit replaces its parent's last fault: its cost is the prefix's.
            let base = match (level, parent.split_last()) {
                (Level::Refined(_), Some((_, prefix))) => cost(prefix),
                _ => base,
            };
            for change in changes {
                if let Change::Moved { knob, to_ms, .. } = &change
                    && !self.moved.insert((*knob, *to_ms))
                {
                    continue;
                }
                // A later round's move replaces its parent's: one time moved, not two.
                let base = match level {
                    Level::Moved(_) => (0, 0, 0),
                    _ => base,
                };
                let key = (plus(base, &change), generated);
                generated += 1;
                if ceiling.is_some_and(|c| key > c) {
                    cut = true;
                    continue;
                }
                kept.push(Candidate { key, parent: p, change });
                if kept.len() >= 2 * limit {
                    kept.sort_unstable_by_key(|c| c.key);
                    kept.truncate(limit);
                    ceiling = kept.last().map(|c| c.key);
                    cut = true;
                }
            }
        }
        kept.sort_unstable_by_key(|c| c.key);
        // The same set of faults reached by two orders is one schedule.
        let mut queue: Vec<Vec<Change>> = Vec::with_capacity(kept.len().min(limit));
        let mut keys: BTreeSet<String> = BTreeSet::new();
        for candidate in kept {
            if queue.len() == limit {
                cut = true;
                break;
            }
            let parent = &parents[candidate.parent];
            let mut changes = match level {
                Level::Moved(_) => Vec::new(),
                Level::Refined(_) => parent[..parent.len().saturating_sub(1)].to_vec(),
                _ => parent.clone(),
            };
            changes.push(candidate.change);
            let fresh = match level {
                // A refit may be a schedule the first fault's levels already queued (its
                // parent's own length, or a sibling's).
                Level::Added(1) | Level::Refined(_) => self.queued.insert(canonical(&changes)),
                // Faults are added in the order they strike, so a schedule whose faults all
                // strike at different moments has one order only: only ties need the set.
                _ => !has_tie(&changes) || keys.insert(canonical(&changes)),
            };
            if fresh {
                queue.push(changes);
            }
        }
        self.capped |= cut;
        self.known += queue.len() as u64;
        self.queue = queue;
        self.next = 0;
        self.given = 0;
        if self.queue.is_empty() {
            self.next_level();
        }
    }
}

/// Runs one schedule: the lesson's setup with `changes` made, its digest, and the first of
/// `properties` the run breaks.
pub fn evaluate(setup: &Setup, changes: &[Change], properties: &[Property]) -> Evaluated {
    let changed = apply(setup, changes);
    let trace = sim::run_facts(&changed);
    let broken = trace.events().iter().find_map(|event| match &event.kind {
        EventKind::Violation { property, .. } if properties.contains(property) => Some(*property),
        _ => None,
    });
    Evaluated { digest: digest(&trace), broken }
}

/// Runs a whole search on this thread.
pub fn run(setup: &Setup, space: Space, properties: Vec<Property>) -> Report {
    let mut search = Search::new(setup, space, properties);
    loop {
        if let Some(chunk) = search.next_chunk() {
            let results: Vec<Evaluated> =
                chunk.iter().map(|c| evaluate(search.setup(), c, search.properties())).collect();
            search.feed(&results);
        } else if let Some(report) = search.report() {
            return report;
        }
    }
}

/// The properties a lesson's search checks by default: every safety property its own run
/// keeps (a lesson that shows a violation is searched for the others).
pub fn default_properties(trace: &Trace) -> Vec<Property> {
    let broken: Vec<Property> = trace
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Violation { property, .. } => Some(*property),
            _ => None,
        })
        .collect();
    Property::ALL.into_iter().filter(|p| !broken.contains(p)).collect()
}

/// Checks one of a lesson's rules with the search: `Ok` with what the search found when
/// the rule is as declared, `Err` with why not (a word it does not know, or the search's
/// answer against the rule).
pub fn check_rule(lesson: &Scenario, rule: &Rule) -> Result<String, String> {
    let properties = rule
        .properties
        .iter()
        .map(|name| {
            Property::from_name(name).ok_or_else(|| format!("no property is called '{name}'"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut space = Space::for_setup(&lesson.setup);
    if !rule.add.is_empty() {
        space.add = rule
            .add
            .iter()
            .map(|w| Addition::from_word(w).ok_or_else(|| format!("no fault is called '{w}'")))
            .collect::<Result<_, _>>()?;
    }
    space.max_added = usize::try_from(rule.faults).unwrap_or(usize::MAX);
    if space.max_added > 3 {
        return Err("a rule adds at most 3 faults".to_owned());
    }
    space.vary = match rule.vary {
        RuleVary::Times => Vary::Times,
        RuleVary::Nothing => Vary::Nothing,
    };
    let bounds = space.describe();
    let report = run(&lesson.setup, space, properties);
    let capped = if report.capped { ", a level cut to its smallest changes" } else { "" };
    match (&report.found, rule.outcome) {
        (None, RuleOutcome::Holds) => Ok(format!(
            "holds: no counterexample in {} schedules ({bounds}{capped})",
            report.schedules
        )),
        (Some(found), RuleOutcome::Breaks) => {
            let changes: Vec<String> =
                found.changes.iter().map(|c| describe(c, &lesson.setup)).collect();
            Ok(format!("breaks as declared: {} ({})", found.property.name(), changes.join("; ")))
        }
        (Some(found), RuleOutcome::Holds) => {
            let changes: Vec<String> =
                found.changes.iter().map(|c| describe(c, &lesson.setup)).collect();
            let changed = if changes.is_empty() {
                "the lesson's own schedule".to_owned()
            } else {
                changes.join("; ")
            };
            Err(format!("declared to hold, but {} breaks: {changed}", found.property.name()))
        }
        (None, RuleOutcome::Breaks) => Err(format!(
            "declared to break, but no counterexample in {} schedules ({bounds}{capped})",
            report.schedules
        )),
    }
}

/// The lesson's setup with `changes` made.
pub fn apply(setup: &Setup, changes: &[Change]) -> Setup {
    let mut out = setup.clone();
    for change in changes {
        match change {
            Change::Moved { knob, to_ms, .. } => set_knob(&mut out, *knob, *to_ms),
            Change::Added(fault) => out.faults.push(fault.clone()),
        }
    }
    out
}

/// A change in words, for the command line: "A's pause: 39.000 s -> 30.999 s".
pub fn describe(change: &Change, setup: &Setup) -> String {
    phrase(change, setup).english()
}

/// A sentence with its parts, so each page can say it in the learner's language: `key`
/// names its template ([`PHRASES`] in English; `search.*` in the language packs).
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Phrase {
    pub key: String,
    pub args: Vec<(String, Arg)>,
}

/// A part of a [`Phrase`]: a name as written, a time (each language writes it its way), or
/// a phrase of its own ("A's pause").
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arg {
    Text(String),
    Ms(u64),
    Phrase(Phrase),
}

impl Phrase {
    fn new(key: &str, args: Vec<(&str, Arg)>) -> Phrase {
        Phrase {
            key: key.to_owned(),
            args: args.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        }
    }

    /// The sentence, with `template` giving each key's template and `secs` writing times.
    pub fn render(
        &self,
        template: &dyn Fn(&str) -> String,
        secs: &dyn Fn(u64) -> String,
    ) -> String {
        let parts: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| {
                let text = match arg {
                    Arg::Text(text) => text.clone(),
                    Arg::Ms(ms) => secs(*ms),
                    Arg::Phrase(inner) => inner.render(template, secs),
                };
                (name.as_str(), text)
            })
            .collect();
        let args: Vec<(&str, &str)> = parts.iter().map(|(k, v)| (*k, v.as_str())).collect();
        sim::event::fill(&template(&self.key), &args)
    }

    /// The English sentence (the command line's, and the fallback of a pack that lacks it).
    pub fn english(&self) -> String {
        self.render(&|key| english_phrase(key).to_owned(), &sim::check::secs)
    }
}

/// The English template of a phrase key ("" for a key that is not one).
pub fn english_phrase(key: &str) -> &'static str {
    PHRASES.iter().find(|(k, _)| *k == key).map_or("", |(_, t)| *t)
}

/// The search's sentences in English; the language packs translate each key.
pub const PHRASES: &[(&str, &str)] = &[
    ("search.fault.pause", "{who}'s pause"),
    ("search.fault.hang", "{who}'s hang"),
    ("search.fault.crash", "{who}'s crash"),
    ("search.fault.delay", "{who}'s network delay"),
    ("search.fault.partition", "{who}'s partition"),
    ("search.fault.clock_jump", "{who}'s clock jump"),
    ("search.fault.set_counter", "the counter's overwrite"),
    ("search.fault.other", "a fault"),
    ("search.moved.fault_at", "{fault} starts: {from} -> {to}"),
    ("search.moved.fault_length", "{fault}: {from} -> {to}"),
    ("search.moved.start", "{who}'s start: {from} -> {to}"),
    ("search.moved.work", "{who}'s step {step} lasts: {from} -> {to}"),
    ("search.moved.backoff", "{who}'s backoff at step {step}: {from} -> {to}"),
    ("search.added.pause", "added: {who} pauses at {at} for {length}"),
    ("search.added.crash", "added: {who} crashes at {at}"),
    ("search.added.lost_reply", "added: the reply to {who}'s step {step} is lost"),
    ("search.added.delay", "added: {who}'s request at {at} takes {length} to arrive"),
    ("search.added.failover", "added: {who} dies at {at} (failover)"),
    ("search.added.restart", "added: {who} crashes at {at} and restarts {length} later"),
    ("search.added.clock_jump", "added: {who}'s clock jumps {jump} ms forward at {at}"),
    ("search.added.other", "added: a fault"),
];

/// A change as a [`Phrase`].
pub fn phrase(change: &Change, setup: &Setup) -> Phrase {
    let worker = |w: WorkerId| {
        Arg::Text(setup.workers.get(w.index()).map_or("?", |w| w.name.as_str()).to_owned())
    };
    let node = |n: NodeId| {
        Arg::Text(setup.redis.nodes.get(n.index()).map_or("?", |n| n.name.as_str()).to_owned())
    };
    let step = |s: usize| Arg::Text((s + 1).to_string());
    match change {
        Change::Moved { knob, from_ms, to_ms } => {
            let (key, mut args) = match *knob {
                Knob::FaultAt(i) => {
                    ("search.moved.fault_at", vec![("fault", fault_name(setup, i))])
                }
                Knob::FaultLength(i) => {
                    ("search.moved.fault_length", vec![("fault", fault_name(setup, i))])
                }
                Knob::WorkerStart(w) => ("search.moved.start", vec![("who", worker(w))]),
                Knob::Work { worker: w, step: s } => {
                    ("search.moved.work", vec![("who", worker(w)), ("step", step(s))])
                }
                Knob::Backoff { worker: w, step: s } => {
                    ("search.moved.backoff", vec![("who", worker(w)), ("step", step(s))])
                }
            };
            args.extend([("from", Arg::Ms(*from_ms)), ("to", Arg::Ms(*to_ms))]);
            Phrase::new(key, args)
        }
        Change::Added(fault) => match fault {
            Fault::Pause { worker: w, at_ms, pause_ms } => Phrase::new(
                "search.added.pause",
                vec![("who", worker(*w)), ("at", Arg::Ms(*at_ms)), ("length", Arg::Ms(*pause_ms))],
            ),
            Fault::Crash { worker: w, at_ms } => Phrase::new(
                "search.added.crash",
                vec![("who", worker(*w)), ("at", Arg::Ms(*at_ms))],
            ),
            Fault::LoseReply { worker: w, step: s, .. } => Phrase::new(
                "search.added.lost_reply",
                vec![("who", worker(*w)), ("step", step(*s))],
            ),
            Fault::Delay { worker: w, at_ms, delay_ms, .. } => Phrase::new(
                "search.added.delay",
                vec![
                    ("who", worker(*w)),
                    ("at", Arg::Ms(at_ms + 1)),
                    ("length", Arg::Ms(*delay_ms)),
                ],
            ),
            Fault::CrashNode { node: n, at_ms, restart_after_ms: None, .. } => Phrase::new(
                "search.added.failover",
                vec![("who", node(*n)), ("at", Arg::Ms(*at_ms))],
            ),
            Fault::CrashNode { node: n, at_ms, restart_after_ms: Some(after), .. } => Phrase::new(
                "search.added.restart",
                vec![("who", node(*n)), ("at", Arg::Ms(*at_ms)), ("length", Arg::Ms(*after))],
            ),
            Fault::ClockJump { node: n, at_ms, jump_ms } => Phrase::new(
                "search.added.clock_jump",
                vec![
                    ("who", node(*n)),
                    ("jump", Arg::Text(jump_ms.to_string())),
                    ("at", Arg::Ms(*at_ms)),
                ],
            ),
            Fault::Hang { .. } | Fault::Partition { .. } | Fault::SetCounter { .. } => {
                Phrase::new("search.added.other", Vec::new())
            }
        },
    }
}

/// The counterexample as a lesson `fence run` replays: the lesson's id and title marked,
/// its setup changed, its story dropped (its facts were about the other schedule), and
/// the outcome this run has.
pub fn counterexample_scenario(lesson: &Scenario, found: &Counterexample) -> Scenario {
    let trace = sim::run_events_only(&found.setup);
    let summary = trace.summary();
    let changes: Vec<String> = found.changes.iter().map(|c| describe(c, &lesson.setup)).collect();
    let id = format!("{}-broken", lesson.id);
    let id = ScenarioId::parse(&id).unwrap_or_else(|| lesson.id.clone());
    let changed = match changes.is_empty() {
        true => "The lesson's own schedule".to_owned(),
        false => format!("Changed: {}", changes.join("; ")),
    };
    let accepted = summary.writes.iter().filter(|w| w.rows.matched()).count();
    let expect = Expected {
        badge: format!("{} broken", found.property.name()),
        violations: summary.violations.iter().map(|v| v.name.clone()).collect(),
        warnings: summary.warnings.iter().map(|v| v.name.clone()).collect(),
        accepted: u32::try_from(accepted).unwrap_or(u32::MAX),
        rejected: u32::try_from(summary.writes.len() - accepted).unwrap_or(u32::MAX),
        charges: summary.charges,
        overlap: !summary.overlaps.is_empty(),
        bad: Some(true),
    };
    Scenario {
        id,
        title: format!("{}: a counterexample", lesson.title.split(':').next().unwrap_or("")),
        summary: format!("{changed}. This run breaks {}.", found.property.name()),
        goal: lesson.goal.clone(),
        setup: found.setup.clone(),
        narration: Vec::new(),
        expect: Some(expect),
        prompts: Vec::new(),
        claims: Vec::new(),
        rules: Vec::new(),
        ..lesson.clone()
    }
}

// ----------------------------------------------------------------------------------------
// Helpers: knobs, moments, candidates, cost, digest.

fn can_fail_over(setup: &Setup) -> bool {
    setup.redis.failover_after_ms.is_some()
        && setup.redis.nodes.len() > 1
        && setup.redis.topology.has_primary()
}

fn fault_name(setup: &Setup, i: usize) -> Arg {
    let worker = |w: &WorkerId| setup.workers.get(w.index()).map_or("?", |w| w.name.as_str());
    let node = |n: &NodeId| setup.redis.nodes.get(n.index()).map_or("?", |n| n.name.as_str());
    let (key, who) = match setup.faults.get(i) {
        Some(Fault::Pause { worker: w, .. }) => ("search.fault.pause", worker(w)),
        Some(Fault::Hang { worker: w, .. }) => ("search.fault.hang", worker(w)),
        Some(Fault::Crash { worker: w, .. }) => ("search.fault.crash", worker(w)),
        Some(Fault::Delay { worker: w, .. }) => ("search.fault.delay", worker(w)),
        Some(Fault::Partition { worker: w, .. }) => ("search.fault.partition", worker(w)),
        Some(Fault::CrashNode { node: n, .. }) => ("search.fault.crash", node(n)),
        Some(Fault::ClockJump { node: n, .. }) => ("search.fault.clock_jump", node(n)),
        Some(Fault::SetCounter { .. }) => ("search.fault.set_counter", ""),
        Some(Fault::LoseReply { .. }) | None => ("search.fault.other", ""),
    };
    Arg::Phrase(Phrase::new(key, vec![("who", Arg::Text(who.to_owned()))]))
}

fn knob(setup: &Setup, knob: Knob) -> Option<u64> {
    match knob {
        Knob::FaultAt(i) => setup.faults.get(i)?.at_ms(),
        Knob::FaultLength(i) => setup.faults.get(i)?.length_ms(),
        Knob::WorkerStart(w) => setup.workers.get(w.index()).map(|w| w.start_ms),
        Knob::Work { worker, step } => {
            match setup.workers.get(worker.index())?.program.get(step)? {
                Step::Compute { ms } | Step::Sleep { ms } => Some(*ms),
                _ => None,
            }
        }
        Knob::Backoff { worker, step } => {
            match setup.workers.get(worker.index())?.program.get(step)? {
                Step::Write { backoff_ms, attempts, .. }
                | Step::Charge { backoff_ms, attempts, .. }
                    if *attempts > 1 =>
                {
                    Some(*backoff_ms)
                }
                _ => None,
            }
        }
    }
}

fn set_knob(setup: &mut Setup, knob: Knob, value: u64) {
    match knob {
        Knob::FaultAt(i) => {
            if let Some(at_ms) = setup.faults.get_mut(i).and_then(Fault::at_ms_mut) {
                *at_ms = value;
            }
        }
        Knob::FaultLength(i) => {
            if let Some(ms) = setup.faults.get_mut(i).and_then(Fault::length_mut) {
                *ms = value;
            }
        }
        Knob::WorkerStart(w) => {
            if let Some(worker) = setup.workers.get_mut(w.index()) {
                worker.start_ms = value;
            }
        }
        Knob::Work { worker, step } | Knob::Backoff { worker, step } => {
            let program = setup.workers.get_mut(worker.index()).map(|w| &mut w.program);
            match program.and_then(|p| p.get_mut(step)) {
                Some(Step::Compute { ms } | Step::Sleep { ms }) => *ms = value,
                Some(Step::Write { backoff_ms, .. } | Step::Charge { backoff_ms, .. }) => {
                    *backoff_ms = value;
                }
                _ => {}
            }
        }
    }
}

/// The moments of a run at which something happens: its events' times and each lease's
/// deadline (a grant's or renewal's time plus the worker's TTLs). A change matters only
/// when it moves something across one of them.
struct Moments {
    /// Sorted, without repeats.
    all: Vec<u64>,
    /// Each worker's own events' times, sorted.
    of_worker: Vec<Vec<u64>>,
    /// Each worker's requests: the times its commands reached a server.
    requests: Vec<Vec<u64>>,
    /// Each worker's own events' times and its leases' deadlines, sorted: what moves when
    /// its start or one of its steps moves.
    shifting: Vec<Vec<u64>>,
    deadlines: Vec<u64>,
    until_ms: u64,
}

impl Moments {
    fn of(trace: &Trace, setup: &Setup) -> Moments {
        let n = setup.workers.len();
        let mut all = Vec::new();
        let mut of_worker = vec![Vec::new(); n];
        let mut requests = vec![Vec::new(); n];
        let mut deadlines = Vec::new();
        let mut shifting = vec![Vec::new(); n];
        for event in trace.events() {
            all.push(event.at_ms);
            // A gateway that forgets keys: the moment a key stored by this charge is
            // forgotten moves with the worker that charged.
            if let (
                EventKind::Charged { key: Some(_) },
                Some(retention_ms),
                Some(Actor::Worker(w)),
            ) = (&event.kind, setup.gateway.key_retention_ms, event.peer)
            {
                let forgotten = event.at_ms.saturating_add(retention_ms);
                deadlines.push(forgotten);
                if let Some(own) = shifting.get_mut(w.index()) {
                    own.push(forgotten);
                }
            }
            let Actor::Worker(w) = event.actor else { continue };
            let Some(times) = of_worker.get_mut(w.index()) else { continue };
            times.push(event.at_ms);
            if event.peer.is_some() {
                requests[w.index()].push(event.at_ms);
            }
            if matches!(event.kind, EventKind::Granted { .. } | EventKind::Renewed { ok: true }) {
                for ttl_ms in ttls(setup, w) {
                    deadlines.push(event.at_ms.saturating_add(ttl_ms));
                    shifting[w.index()].push(event.at_ms.saturating_add(ttl_ms));
                }
            }
        }
        all.extend(&deadlines);
        let tidy = |v: &mut Vec<u64>| {
            v.sort_unstable();
            v.dedup();
        };
        tidy(&mut all);
        tidy(&mut deadlines);
        for (w, own) in of_worker.iter().enumerate() {
            shifting[w].extend(own);
        }
        of_worker.iter_mut().for_each(tidy);
        requests.iter_mut().for_each(tidy);
        shifting.iter_mut().for_each(tidy);
        Moments { all, of_worker, requests, shifting, deadlines, until_ms: setup.until_ms }
    }

    /// 1 ms before and after every moment, inside the run.
    fn around(&self) -> Vec<u64> {
        around(&self.all, self.until_ms)
    }
}

fn around(times: &[u64], until_ms: u64) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::with_capacity(times.len() * 2);
    for &t in times {
        out.extend(t.checked_sub(1));
        out.push(t + 1);
    }
    out.retain(|&t| t < until_ms);
    out.sort_unstable();
    out.dedup();
    out
}

fn ttls(setup: &Setup, w: WorkerId) -> Vec<u64> {
    let Some(worker) = setup.workers.get(w.index()) else { return Vec::new() };
    let mut out: Vec<u64> = worker
        .program
        .iter()
        .chain(&worker.on_rejected)
        .filter_map(|s| match s {
            Step::Acquire { ttl_ms, .. } => Some(*ttl_ms),
            _ => None,
        })
        .collect();
    out.dedup();
    out
}

/// Lengths that end a stretch begun at `start_ms` just before or after a later moment, or
/// that move the delayed event at `next_ms` there, ascending and without repeats. `ends`
/// is sorted, so each of the two families is already ascending: they are merged, not
/// sorted (a level's faults call this for every moment of every parent); they stop at the
/// first length `budget` refuses.
fn lengths(ends: &[u64], start_ms: u64, next_ms: Option<u64>, budget: Budget) -> Vec<u64> {
    let from = |origin: u64| ends.iter().filter(move |&&e| e > origin).map(move |&e| e - origin);
    let mut a = from(start_ms).peekable();
    let mut b = next_ms.into_iter().flat_map(from).peekable();
    let mut out: Vec<u64> = Vec::with_capacity(ends.len());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) if x <= y => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        let Some(length) = next.filter(|&l| budget.allows(l)) else { break };
        if out.last() != Some(&length) {
            out.push(length);
        }
    }
    out
}

/// Every single move of one of the setup's own times to a moment that matters.
fn moves(setup: &Setup, moments: &Moments) -> Vec<Change> {
    let around = moments.around();
    let mut knobs: Vec<Knob> = Vec::new();
    for i in 0..setup.faults.len() {
        knobs.extend([Knob::FaultAt(i), Knob::FaultLength(i)]);
    }
    for (w, worker) in setup.workers.iter().enumerate() {
        let w = WorkerId::at(w);
        knobs.push(Knob::WorkerStart(w));
        for step in 0..worker.program.len() {
            knobs.extend([Knob::Work { worker: w, step }, Knob::Backoff { worker: w, step }]);
        }
    }
    let mut out = Vec::new();
    for knob in knobs {
        let Some(from_ms) = self::knob(setup, knob) else { continue };
        let values: Vec<u64> = match knob {
            Knob::FaultAt(_) => around.clone(),
            Knob::FaultLength(i) => {
                let start = self::knob(setup, Knob::FaultAt(i)).unwrap_or(0);
                let next = setup.faults[i]
                    .worker()
                    .and_then(|w| moments.of_worker.get(w.index()))
                    .and_then(|times| times.iter().copied().find(|&t| t >= start));
                lengths(&around, start, next, Budget::Any)
            }
            Knob::WorkerStart(worker)
            | Knob::Work { worker, .. }
            | Knob::Backoff { worker, .. } => {
                // A worker's start, or a step's end, moves every later event of the worker
                // and its leases' deadlines by the same amount: try each shift that brings
                // one of them just before or after a moment (and, for a start, each moment
                // itself, for a worker whose run has no event yet).
                let own = moments.shifting.get(worker.index()).cloned().unwrap_or_default();
                let mut values = match knob {
                    Knob::WorkerStart(_) => around.clone(),
                    _ => Vec::new(),
                };
                for &end in &around {
                    for &e in &own {
                        let shifted = i128::from(from_ms) + i128::from(end) - i128::from(e);
                        if let Ok(v) = u64::try_from(shifted) {
                            values.push(v);
                        }
                    }
                }
                values.sort_unstable();
                values.dedup();
                values
            }
        };
        for to_ms in values {
            if to_ms != from_ms {
                out.push(Change::Moved { knob, from_ms, to_ms });
            }
        }
    }
    out
}

/// Which added faults a level can still keep, given the cost of the last change it keeps
/// so far (its ceiling) and of the parent the fault is added to: a candidate costing as
/// much as the ceiling or more is cut, since it was made later than the ceiling.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Budget {
    Any,
    /// Only faults adding fewer milliseconds than this.
    Under(u64),
    Nothing,
}

impl Budget {
    fn under(ceiling: Option<Cost>, (added, moved, ms): Cost) -> Budget {
        let Some((c_added, c_moved, c_ms)) = ceiling else { return Budget::Any };
        match (added + 1, moved).cmp(&(c_added, c_moved)) {
            std::cmp::Ordering::Less => Budget::Any,
            std::cmp::Ordering::Greater => Budget::Nothing,
            std::cmp::Ordering::Equal => match c_ms.checked_sub(ms) {
                Some(room) if room > 0 => Budget::Under(room),
                _ => Budget::Nothing,
            },
        }
    }

    fn allows(self, length_ms: u64) -> bool {
        match self {
            Budget::Any => true,
            Budget::Under(room) => length_ms < room,
            Budget::Nothing => false,
        }
    }
}

/// Every fault of the palette at the moments that matter in `trace` that `budget` allows.
/// The lengths each loop tries are in ascending order, so a loop stops at the first one
/// the budget refuses.
fn additions(setup: &Setup, moments: &Moments, palette: &[Addition], budget: Budget) -> Vec<Fault> {
    let mut out = Vec::new();
    if budget == Budget::Nothing {
        return out;
    }
    let around = moments.around();
    for &addition in palette {
        match addition {
            Addition::Pause => {
                for (w, own) in moments.of_worker.iter().enumerate() {
                    for at_ms in self::around(own, moments.until_ms) {
                        let next = own.iter().copied().find(|&t| t >= at_ms);
                        for pause_ms in lengths(&around, at_ms, next, budget) {
                            out.push(Fault::Pause { worker: WorkerId::at(w), at_ms, pause_ms });
                        }
                    }
                }
            }
            Addition::Crash if budget.allows(0) => {
                for (w, own) in moments.of_worker.iter().enumerate() {
                    for at_ms in self::around(own, moments.until_ms) {
                        out.push(Fault::Crash { worker: WorkerId::at(w), at_ms });
                    }
                }
            }
            Addition::LostReply if budget.allows(0) => {
                for (w, worker) in setup.workers.iter().enumerate() {
                    for (step, s) in worker.program.iter().enumerate() {
                        if talks(s) {
                            out.push(Fault::LoseReply {
                                worker: WorkerId::at(w),
                                step,
                                attempt: 1,
                            });
                        }
                    }
                }
            }
            Addition::Delay => {
                for (w, sent) in moments.requests.iter().enumerate() {
                    for &e in sent {
                        let Some(at_ms) = e.checked_sub(1) else { continue };
                        for delay_ms in lengths(&around, e, None, budget) {
                            let window_ms = 2;
                            let worker = WorkerId::at(w);
                            out.push(Fault::Delay { worker, at_ms, window_ms, delay_ms });
                        }
                    }
                }
            }
            Addition::Failover if budget.allows(0) => {
                if can_fail_over(setup) {
                    for &at_ms in &around {
                        out.push(Fault::CrashNode {
                            node: NodeId::at(0),
                            at_ms,
                            kind: CrashKind::Process,
                            restart_after_ms: None,
                        });
                    }
                }
            }
            Addition::Restart => {
                let after: Vec<u64> = moments.all.iter().map(|t| t + 1).collect();
                for n in 0..setup.redis.nodes.len() {
                    for &at_ms in &around {
                        for restart in lengths(&after, at_ms, None, budget) {
                            out.push(Fault::CrashNode {
                                node: NodeId::at(n),
                                at_ms,
                                kind: CrashKind::Process,
                                restart_after_ms: Some(restart),
                            });
                        }
                    }
                }
            }
            Addition::ClockJump => {
                for n in 0..setup.redis.nodes.len() {
                    for &at_ms in &around {
                        for &deadline in moments.deadlines.iter().filter(|&&d| d > at_ms) {
                            let jump = deadline - at_ms + 1;
                            if !budget.allows(jump) {
                                break;
                            }
                            let jump_ms = i64::try_from(jump).unwrap_or(i64::MAX);
                            out.push(Fault::ClockJump { node: NodeId::at(n), at_ms, jump_ms });
                        }
                    }
                }
            }
            // Crashes, lost replies and failovers add no milliseconds: past a budget
            // of none.
            Addition::Crash | Addition::LostReply | Addition::Failover => {}
        }
    }
    out
}

/// `fault` again at the same moment, with each length that ends it, or delivers what it
/// holds back, just before or after a moment `run` (the run it made) has and `before`
/// (the run without it) has not: the moments the fault itself made, which the level that
/// added it could not aim at. A paused worker's own events are left out, since they
/// move with the pause's length; `before`'s next event of that worker is the one the
/// pause holds back. Faults without a length have nothing to refit.
fn refitted(fault: &Fault, run: &Moments, before: &Moments, budget: Budget) -> Vec<Fault> {
    if budget == Budget::Nothing {
        return Vec::new();
    }
    let own = fault.worker().and_then(|w| run.of_worker.get(w.index()));
    let new: Vec<u64> = run
        .all
        .iter()
        .copied()
        .filter(|t| before.all.binary_search(t).is_err())
        .filter(|t| own.is_none_or(|own| own.binary_search(t).is_err()))
        .collect();
    if new.is_empty() {
        return Vec::new();
    }
    let around = around(&new, run.until_ms);
    match *fault {
        Fault::Pause { worker, at_ms, .. } => {
            let own = before.of_worker.get(worker.index());
            let next = own.and_then(|times| times.iter().copied().find(|&t| t >= at_ms));
            let lengths = lengths(&around, at_ms, next, budget);
            lengths.into_iter().map(|pause_ms| Fault::Pause { worker, at_ms, pause_ms }).collect()
        }
        Fault::Delay { worker, at_ms, window_ms, .. } => {
            let lengths = lengths(&around, at_ms + 1, None, budget);
            let delay = |delay_ms| Fault::Delay { worker, at_ms, window_ms, delay_ms };
            lengths.into_iter().map(delay).collect()
        }
        Fault::CrashNode { node, at_ms, kind, restart_after_ms: Some(_) } => {
            let after: Vec<u64> = new.iter().map(|t| t + 1).collect();
            let restart = |r| Fault::CrashNode { node, at_ms, kind, restart_after_ms: Some(r) };
            lengths(&after, at_ms, None, budget).into_iter().map(restart).collect()
        }
        Fault::ClockJump { node, at_ms, .. } => {
            let made = run.deadlines.iter().filter(|d| before.deadlines.binary_search(d).is_err());
            let jumps = made.filter(|&&d| d > at_ms).map(|d| d - at_ms + 1);
            let allowed = jumps.take_while(|&j| budget.allows(j));
            let jump = |j: u64| i64::try_from(j).unwrap_or(i64::MAX);
            allowed.map(|j| Fault::ClockJump { node, at_ms, jump_ms: jump(j) }).collect()
        }
        _ => Vec::new(),
    }
}

/// Whether a step sends a request (and so has a reply to lose).
fn talks(step: &Step) -> bool {
    !matches!(step, Step::Compute { .. } | Step::Sleep { .. } | Step::Watchdog { .. })
}

/// When a fault strikes (a lost reply has no moment of its own: it comes first).
fn strikes_at(fault: &Fault) -> u64 {
    fault.at_ms().unwrap_or(0)
}

/// How big a change is, smallest first: fewer added faults, then fewer moved times, then
/// the milliseconds moved or added (a pause's or delay's length, a restart's wait, a
/// jump); crashes and lost replies add no milliseconds.
type Cost = (usize, usize, u64);

fn cost(changes: &[Change]) -> Cost {
    changes.iter().fold((0, 0, 0), plus)
}

/// `cost` with one more change.
fn plus((added, moved, ms): Cost, change: &Change) -> Cost {
    match change {
        Change::Moved { from_ms, to_ms, .. } => {
            (added, moved + 1, ms.saturating_add(from_ms.abs_diff(*to_ms)))
        }
        Change::Added(fault) => {
            let length = match fault {
                Fault::ClockJump { jump_ms, .. } => jump_ms.unsigned_abs(),
                _ => fault.length_ms().unwrap_or(0),
            };
            (added + 1, moved, ms.saturating_add(length))
        }
    }
}

/// Whether two of the added faults strike at the same moment (a lost reply has none of
/// its own: it counts as 0, see [`strikes_at`]).
fn has_tie(changes: &[Change]) -> bool {
    let times: Vec<u64> = changes
        .iter()
        .filter_map(|c| match c {
            Change::Added(fault) => Some(strikes_at(fault)),
            Change::Moved { .. } => None,
        })
        .collect();
    times.windows(2).any(|w| w[0] == w[1])
}

/// The schedule's faults as a set, so two orders of adding them are one schedule.
fn canonical(changes: &[Change]) -> String {
    let mut parts: Vec<String> = changes.iter().map(|c| format!("{c:?}")).collect();
    parts.sort_unstable();
    parts.join("|")
}

/// A digest of a run's events (time, actor, what happened, the other end): equal for
/// identical runs. FNV-1a over the events' fields, so it needs no hash-ordered map and no
/// seed.
pub fn digest(trace: &Trace) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    for event in trace.events() {
        event.at_ms.hash(&mut hasher);
        event.actor.hash(&mut hasher);
        event.kind.hash(&mut hasher);
        event.peer.hash(&mut hasher);
    }
    hasher.finish()
}

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

pub mod session;
pub mod wire;

#[cfg(test)]
mod tests;
