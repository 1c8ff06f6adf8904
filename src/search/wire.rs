//! The search on web workers, as messages: a [`Replica`] of one [`Search`] in each worker,
//! and the page's [`Relay`], which deals chunks to the workers and passes every result to
//! all of them. No schedule crosses a message, only results (a digest and a property per
//! schedule), so each replica builds the same levels and reaches the same answer, whoever
//! ran what. The messages are serde types ([`ToReplica`], [`FromReplica`]) the shell posts
//! as postcard bytes ([`encode`], [`decode`]), as the explorer's are.

use serde::{Deserialize, Serialize};

use super::{Addition, Evaluated, Phrase, Search, Space};
use crate::catalogue::lesson::Scenario;
use crate::sim::event::{EventKind, Property};
use crate::sim::{self, scenario::Word};

/// What one search asks: the space and the properties.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub space: Space,
    pub properties: Vec<Property>,
}

impl Request {
    /// Whether the request is one a replica may run: the bounds the page offers (a
    /// request is data from another thread, checked like any message).
    pub fn check(&self) -> Result<(), String> {
        if self.space.max_added > 3 {
            return Err("faults must be 0 to 3".to_owned());
        }
        if self.space.level_limit == 0 {
            return Err("limit must be a positive number".to_owned());
        }
        if self.space.add.len() > Addition::WORDS.len() {
            return Err("more faults to add than there are kinds".to_owned());
        }
        Ok(())
    }
}

/// What the page tells a replica.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub enum ToReplica {
    /// Start a search on `scenario` (a lesson's JSON).
    Search { request: Request, scenario: String },
    /// Run chunk `chunk` of level `level` and say its results.
    Run { level: usize, chunk: usize },
    /// Chunks' results, in the order they came back (each replica needs them all).
    Feed(Vec<Fed>),
}

/// One chunk's results, passed on to every replica.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Fed {
    pub level: usize,
    pub chunk: usize,
    pub results: Vec<Evaluated>,
}

/// What a replica tells the page.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub enum FromReplica {
    /// The replica moved to `level`, which has `chunks` chunks.
    Level {
        level: usize,
        chunks: usize,
        run: u64,
        known: u64,
        levels: usize,
    },
    /// A chunk's results.
    Done(Fed),
    /// The search's answer.
    Report(Outcome),
    Error(String),
}

/// The byte every message of this protocol starts with (the explorer's start with `E`;
/// one worker serves both, see `explore::wire::TAG`).
pub const TAG: u8 = b'S';

/// A message as bytes.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Writing to a growable buffer fails only for types postcard cannot express (maps of
    // unknown length, for one); these messages have none.
    postcard::to_extend(message, vec![TAG]).unwrap_or_default()
}

/// A message from bytes; `None` for bytes no message of this protocol makes.
pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Option<T> {
    let (&TAG, rest) = bytes.split_first()? else { return None };
    postcard::from_bytes(rest).ok()
}

/// How a search ended, as the worker tells the page.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub found: Option<Found>,
    pub schedules: u64,
    pub runs: u64,
    pub capped: bool,
}

/// The counterexample, ready to show and to open.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Found {
    /// The property broken ([`Property::name`]).
    pub property: String,
    /// What changed from the lesson's schedule, in words.
    pub changes: Vec<Phrase>,
    /// The first finding of that property: its note's key and arguments.
    pub broke_key: String,
    pub broke_args: Vec<(String, String)>,
    /// The counterexample as a scenario file (what `fence search --out` writes).
    pub scenario: String,
}

/// One worker's copy of the search.
#[derive(Default)]
pub struct Replica {
    search: Option<(Search, Scenario)>,
    /// The level last announced, so each move is announced once.
    announced: Option<usize>,
}

impl Replica {
    pub fn new() -> Replica {
        Replica::default()
    }

    /// Answers one message from the page (none, one or more messages to post back).
    pub fn handle(&mut self, message: ToReplica) -> Vec<FromReplica> {
        match self.answer(message) {
            Ok(replies) => replies,
            Err(why) => vec![FromReplica::Error(why)],
        }
    }

    fn answer(&mut self, message: ToReplica) -> Result<Vec<FromReplica>, String> {
        let (level, chunk) = match message {
            ToReplica::Search { request, scenario } => {
                request.check()?;
                let lesson =
                    crate::catalogue::load::parse_scenario(&scenario).map_err(|e| e.to_string())?;
                let search = Search::new(&lesson.setup, request.space, request.properties);
                self.search = Some((search, lesson));
                self.announced = None;
                return Ok(self.news());
            }
            ToReplica::Feed(batch) => {
                let (search, _) =
                    self.search.as_mut().ok_or("a message came before the search request")?;
                for fed in batch {
                    search.feed_chunk(fed.level, fed.chunk, fed.results);
                }
                return Ok(self.news());
            }
            ToReplica::Run { level, chunk } => (level, chunk),
        };
        let (search, _) = self.search.as_mut().ok_or("a message came before the search request")?;
        if search.is_done() {
            return Ok(Vec::new());
        }
        if search.level().0 != level {
            return Err(format!(
                "chunk {chunk} of level {level} came at level {}",
                search.level().0
            ));
        }
        let schedules =
            search.chunk(chunk).ok_or_else(|| format!("level {level} has no chunk {chunk}"))?;
        let results = schedules
            .iter()
            .map(|c| super::evaluate(search.setup(), c, search.properties()))
            .collect();
        Ok(vec![FromReplica::Done(Fed { level, chunk, results })])
    }

    /// A new level or the answer, if the search has moved since it last said.
    fn news(&mut self) -> Vec<FromReplica> {
        let Some((search, lesson)) = &self.search else { return Vec::new() };
        if let Some(report) = search.report() {
            if self.announced == Some(usize::MAX) {
                return Vec::new();
            }
            self.announced = Some(usize::MAX);
            return vec![FromReplica::Report(outcome(lesson, &report))];
        }
        let (level, chunks) = search.level();
        if self.announced == Some(level) {
            return Vec::new();
        }
        self.announced = Some(level);
        let p = search.progress();
        vec![FromReplica::Level { level, chunks, run: p.run, known: p.known, levels: p.levels }]
    }
}

/// The report as the page shows it: the changes in words, the first finding, the file.
fn outcome(lesson: &Scenario, report: &super::Report) -> Outcome {
    let found = report.found.as_ref().map(|found| {
        let trace = sim::run_events_only(&found.setup);
        let note = trace.events().iter().find_map(|e| match &e.kind {
            EventKind::Violation { property, .. } if *property == found.property => {
                Some(e.note.clone())
            }
            _ => None,
        });
        let scenario = super::counterexample_scenario(lesson, found);
        Found {
            property: found.property.name().to_owned(),
            changes: found.changes.iter().map(|c| super::phrase(c, &lesson.setup)).collect(),
            broke_key: note.as_ref().map_or_else(String::new, |n| n.key.to_owned()),
            broke_args: note
                .map(|n| n.args.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                .unwrap_or_default(),
            scenario: crate::catalogue::codec::write_scenario(&scenario).compact(),
        }
    });
    Outcome { found, schedules: report.schedules, runs: report.runs, capped: report.capped }
}

/// A message for one worker or for all.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Send {
    To(usize, ToReplica),
    All(ToReplica),
}

/// Where the relay's search stands, for the progress bar.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct Standing {
    pub run: u64,
    pub known: u64,
    pub level: usize,
    pub levels: usize,
}

/// How the page's side of a search ended.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Ending {
    Report(Outcome),
    Failed(String),
}

/// Chunks a worker has out at once: the next is already in its queue when it finishes one,
/// so it never waits for the page to answer (a few milliseconds when the page is busy
/// drawing, against 3 to 5 ms a chunk).
pub const DEPTH: usize = 2;

/// Chunks' results passed on in one message: replicas need them only in order and by the
/// end of the level, and a message a chunk costs the page and every worker more than the
/// chunks it carries.
pub const BATCH: usize = 8;

/// The page's side: deals each level's chunks to the workers, [`DEPTH`] out each at most,
/// and passes every result to every replica. It runs nothing itself.
pub struct Relay {
    workers: usize,
    level: Option<usize>,
    chunks: usize,
    dealt: usize,
    /// How many chunks each worker has out (at most [`DEPTH`]).
    out: Vec<usize>,
    /// How many of the level's chunks came back.
    back: usize,
    /// Results not passed on yet (see [`BATCH`]).
    batch: Vec<Fed>,
    standing: Standing,
    ending: Option<Ending>,
}

impl Relay {
    /// A relay for `workers` workers, and the first message: the request to all.
    pub fn new(workers: usize, request: &Request, lesson_json: &str) -> (Relay, Vec<Send>) {
        let workers = workers.max(1);
        let relay = Relay {
            workers,
            level: None,
            chunks: 0,
            dealt: 0,
            out: vec![0; workers],
            back: 0,
            batch: Vec::new(),
            standing: Standing::default(),
            ending: None,
        };
        let search =
            ToReplica::Search { request: request.clone(), scenario: lesson_json.to_owned() };
        (relay, vec![Send::All(search)])
    }

    pub fn standing(&self) -> Standing {
        self.standing
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Takes worker `from`'s message and says what to send next.
    pub fn on_reply(&mut self, from: usize, message: FromReplica) -> Vec<Send> {
        if self.ending.is_some() || from >= self.workers {
            return Vec::new();
        }
        match message {
            FromReplica::Level { level, chunks, run, known, levels } => {
                if self.level.is_some_and(|l| l >= level) {
                    return Vec::new();
                }
                self.level = Some(level);
                self.chunks = chunks;
                self.dealt = 0;
                self.back = 0;
                self.batch.clear();
                self.standing = Standing { run, known, level, levels };
                (0..self.workers).flat_map(|k| self.deal(k)).collect()
            }
            FromReplica::Done(fed) => {
                self.out[from] = self.out[from].saturating_sub(1);
                let mut out = Vec::new();
                if self.level == Some(fed.level) {
                    self.standing.run += fed.results.len() as u64;
                    self.back += 1;
                    // A broken property ends the search as soon as the replicas have
                    // every chunk before it, and the level's last chunk moves them on:
                    // neither waits for a full batch.
                    let broken = fed.results.iter().any(|r| r.broken.is_some());
                    self.batch.push(fed);
                    if broken || self.batch.len() >= BATCH || self.back >= self.chunks {
                        out.push(Send::All(ToReplica::Feed(std::mem::take(&mut self.batch))));
                    }
                }
                out.extend(self.deal(from));
                out
            }
            FromReplica::Report(outcome) => {
                self.standing.run = outcome.runs;
                self.ending = Some(Ending::Report(outcome));
                Vec::new()
            }
            FromReplica::Error(why) => self.fail(why),
        }
    }

    /// The next chunks for worker `k`, until it has [`DEPTH`] out or none is left.
    fn deal(&mut self, k: usize) -> Vec<Send> {
        let mut sends = Vec::new();
        let Some(level) = self.level else { return sends };
        while self.out[k] < DEPTH && self.dealt < self.chunks {
            self.out[k] += 1;
            sends.push(Send::To(k, ToReplica::Run { level, chunk: self.dealt }));
            self.dealt += 1;
        }
        sends
    }

    fn fail(&mut self, why: String) -> Vec<Send> {
        self.ending = Some(Ending::Failed(why));
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
