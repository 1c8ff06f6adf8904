//! The search on web workers, as messages: a [`Replica`] of one [`Search`] in each worker,
//! and the page's [`Relay`], which deals chunks to the workers and passes every result to
//! all of them. No schedule crosses a message, only results (a digest and a property per
//! schedule), so each replica builds the same levels and reaches the same answer, whoever
//! ran what. Pure text in, text out: the worker and the page only post the strings.
//!
//! Messages, one line each (the request has the scenario's JSON after its first line):
//! - page to worker: `search <space>\n<scenario>`, `run <level> <chunk>`,
//!   `feed <level> <chunk> <results>`;
//! - worker to page: `level <level> <chunks> <run> <known> <levels>` (the replica moved
//!   to a level), `done <level> <chunk> <results>`, `report <json>`, `error <why>`.

use serde::{Deserialize, Serialize};

use super::{Addition, Evaluated, Phrase, Search, Space, Vary};
use crate::catalogue::lesson::Scenario;
use crate::sim::event::{EventKind, Property};
use crate::sim::{self, scenario::Word};

/// What one search asks: the space and the properties, as the request's first line
/// (`vary=times faults=2 limit=100000 add=pause,crash check=no-stale-holder`).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Request {
    pub space: Space,
    pub properties: Vec<Property>,
}

impl Request {
    pub fn to_text(&self) -> String {
        let add: Vec<&str> = self.space.add.iter().map(|a| a.word()).collect();
        let check: Vec<&str> = self.properties.iter().map(|p| p.name()).collect();
        let vary = match self.space.vary {
            Vary::Times => "times",
            Vary::Nothing => "nothing",
        };
        format!(
            "vary={vary} faults={} limit={} add={} check={}",
            self.space.max_added,
            self.space.level_limit,
            add.join(","),
            check.join(",")
        )
    }

    /// Reads [`Request::to_text`]'s line; an error names the part it could not read.
    pub fn from_text(text: &str) -> Result<Request, String> {
        let mut space = Space { vary: Vary::Times, add: Vec::new(), max_added: 0, level_limit: 0 };
        let mut properties = Vec::new();
        for part in text.split_whitespace() {
            let (name, value) =
                part.split_once('=').ok_or_else(|| format!("not name=value: {part:.40}"))?;
            let list = || value.split(',').filter(|w| !w.is_empty());
            match name {
                "vary" if value == "times" => space.vary = Vary::Times,
                "vary" if value == "nothing" => space.vary = Vary::Nothing,
                "faults" => {
                    space.max_added =
                        value.parse().ok().filter(|&k| k <= 3).ok_or("faults must be 0 to 3")?
                }
                "limit" => {
                    space.level_limit = value
                        .parse()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or("limit must be a positive number")?
                }
                "add" => {
                    space.add = list()
                        .map(|w| {
                            Addition::from_word(w).ok_or_else(|| format!("no fault named {w:.20}"))
                        })
                        .collect::<Result<_, _>>()?;
                }
                "check" => {
                    properties = list()
                        .map(|w| {
                            Property::from_name(w)
                                .ok_or_else(|| format!("no property named {w:.30}"))
                        })
                        .collect::<Result<_, _>>()?;
                }
                _ => return Err(format!("unknown part of a search request: {part:.40}")),
            }
        }
        if space.level_limit == 0 {
            return Err("the request has no limit".to_owned());
        }
        Ok(Request { space, properties })
    }
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

    /// Answers one message from the page (none, one or more lines to post back).
    pub fn handle(&mut self, text: &str) -> Vec<String> {
        match self.answer(text) {
            Ok(replies) => replies,
            Err(why) => vec![format!("error {why}")],
        }
    }

    fn answer(&mut self, text: &str) -> Result<Vec<String>, String> {
        // A batch of results: one `feed` a line.
        if text.starts_with("feed ") && text.contains('\n') {
            let mut replies = Vec::new();
            for line in text.lines() {
                replies.extend(self.answer(line)?);
            }
            return Ok(replies);
        }
        if let Some(rest) = text.strip_prefix("search ") {
            let (line, json) =
                rest.split_once('\n').ok_or("a search request without a scenario")?;
            let request = Request::from_text(line)?;
            let lesson = crate::catalogue::load::parse_scenario(json).map_err(|e| e.to_string())?;
            let search = Search::new(&lesson.setup, request.space, request.properties);
            self.search = Some((search, lesson));
            self.announced = None;
            return Ok(self.news());
        }
        let (search, _) = self.search.as_mut().ok_or("a message came before the search request")?;
        let mut words = text.split(' ');
        let verb = words.next().unwrap_or_default();
        let mut number = || words.next().and_then(|w| w.parse::<usize>().ok());
        let (level, j) = number()
            .zip(number())
            .ok_or_else(|| format!("not a message for the search: {text:.40}"))?;
        match verb {
            "run" => {
                if search.is_done() {
                    return Ok(Vec::new());
                }
                if search.level().0 != level {
                    return Err(format!(
                        "chunk {j} of level {level} came at level {}",
                        search.level().0
                    ));
                }
                let chunk =
                    search.chunk(j).ok_or_else(|| format!("level {level} has no chunk {j}"))?;
                let results: Vec<Evaluated> = chunk
                    .iter()
                    .map(|c| super::evaluate(search.setup(), c, search.properties()))
                    .collect();
                Ok(vec![format!("done {level} {j} {}", results_text(&results))])
            }
            "feed" => {
                let rest = text.splitn(4, ' ').nth(3).unwrap_or_default();
                let results = read_results(rest)?;
                search.feed_chunk(level, j, results);
                Ok(self.news())
            }
            _ => Err(format!("not a message for the search: {text:.40}")),
        }
    }

    /// A new level or the answer, if the search has moved since it last said.
    fn news(&mut self) -> Vec<String> {
        let Some((search, lesson)) = &self.search else { return Vec::new() };
        if let Some(report) = search.report() {
            if self.announced == Some(usize::MAX) {
                return Vec::new();
            }
            self.announced = Some(usize::MAX);
            let outcome = outcome(lesson, &report);
            return vec![format!("report {}", serde_json::to_string(&outcome).unwrap_or_default())];
        }
        let (level, chunks) = search.level();
        if self.announced == Some(level) {
            return Vec::new();
        }
        self.announced = Some(level);
        let p = search.progress();
        vec![format!("level {level} {chunks} {} {} {}", p.run, p.known, p.levels)]
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

/// Results as text: `digest` in hex, `:` and the broken property's name when one broke.
pub fn results_text(results: &[Evaluated]) -> String {
    let parts: Vec<String> = results
        .iter()
        .map(|r| match r.broken {
            Some(p) => format!("{:x}:{}", r.digest, p.name()),
            None => format!("{:x}", r.digest),
        })
        .collect();
    parts.join(",")
}

/// Reads [`results_text`].
pub fn read_results(text: &str) -> Result<Vec<Evaluated>, String> {
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|part| {
            let (digest, broken) = part.split_once(':').map_or((part, None), |(d, p)| (d, Some(p)));
            let digest = u64::from_str_radix(digest, 16)
                .map_err(|_| format!("not a digest: {digest:.20}"))?;
            let broken = match broken {
                Some(name) => Some(
                    Property::from_name(name)
                        .ok_or_else(|| format!("no property named {name:.30}"))?,
                ),
                None => None,
            };
            Ok(Evaluated { digest, broken })
        })
        .collect()
}

/// A message for one worker or for all.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Send {
    To(usize, String),
    All(String),
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
    /// Results not passed on yet, a `feed` line each (see [`BATCH`]).
    batch: Vec<String>,
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
        (relay, vec![Send::All(format!("search {}\n{lesson_json}", request.to_text()))])
    }

    pub fn standing(&self) -> Standing {
        self.standing
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Takes worker `from`'s message and says what to send next.
    pub fn on_reply(&mut self, from: usize, text: &str) -> Vec<Send> {
        if self.ending.is_some() || from >= self.workers {
            return Vec::new();
        }
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        match verb {
            "level" => {
                let numbers: Vec<u64> = rest.split(' ').filter_map(|w| w.parse().ok()).collect();
                let [level, chunks, run, known, levels] = numbers[..] else {
                    return self.fail(format!("a worker said: {text:.60}"));
                };
                let level = usize::try_from(level).unwrap_or(usize::MAX);
                if self.level.is_some_and(|l| l >= level) {
                    return Vec::new();
                }
                self.level = Some(level);
                self.chunks = usize::try_from(chunks).unwrap_or(0);
                self.dealt = 0;
                self.back = 0;
                self.batch.clear();
                let levels = usize::try_from(levels).unwrap_or(0);
                self.standing = Standing { run, known, level, levels };
                (0..self.workers).flat_map(|k| self.deal(k)).collect()
            }
            "done" => {
                let mut parts = rest.splitn(3, ' ');
                let mut number = || parts.next().and_then(|w| w.parse::<usize>().ok());
                let (Some(level), Some(j)) = (number(), number()) else {
                    return self.fail(format!("a worker said: {text:.60}"));
                };
                self.out[from] = self.out[from].saturating_sub(1);
                let mut out = Vec::new();
                if self.level == Some(level) {
                    let results = rest.splitn(3, ' ').nth(2).unwrap_or_default();
                    let n = results.split(',').filter(|p| !p.is_empty()).count();
                    self.standing.run += n as u64;
                    self.back += 1;
                    self.batch.push(format!("feed {level} {j} {results}"));
                    // A broken property ends the search as soon as the replicas have
                    // every chunk before it, and the level's last chunk moves them on:
                    // neither waits for a full batch.
                    let broken = results.contains(':');
                    if broken || self.batch.len() >= BATCH || self.back >= self.chunks {
                        out.push(Send::All(std::mem::take(&mut self.batch).join("\n")));
                    }
                }
                out.extend(self.deal(from));
                out
            }
            "report" => match serde_json::from_str::<Outcome>(rest) {
                Ok(outcome) => {
                    self.standing.run = outcome.runs;
                    self.ending = Some(Ending::Report(outcome));
                    Vec::new()
                }
                Err(e) => self.fail(format!("a worker's report did not read: {e}")),
            },
            "error" => self.fail(rest.to_owned()),
            _ => self.fail(format!("a worker said: {text:.60}")),
        }
    }

    /// The next chunks for worker `k`, until it has [`DEPTH`] out or none is left.
    fn deal(&mut self, k: usize) -> Vec<Send> {
        let mut sends = Vec::new();
        let Some(level) = self.level else { return sends };
        while self.out[k] < DEPTH && self.dealt < self.chunks {
            self.out[k] += 1;
            sends.push(Send::To(k, format!("run {level} {}", self.dealt)));
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
