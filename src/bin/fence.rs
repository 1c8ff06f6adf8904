//! `fence`: the command-line face of the model: list, check and run scenarios.
//!
//! A thin shell over `catalogue`, `sim` and `export`: it parses arguments, reads files and
//! prints. It must not simulate or format facts itself. Exit codes: 0 done, 1 a check
//! failed, 2 bad usage or bad input.

use std::process::ExitCode;

use fencing_playground::catalogue::{self, load};
use fencing_playground::console::redis::RedisConsole;
use fencing_playground::console::sql::{self, SqlConsole};
use fencing_playground::{explore, export, quiz, sim};

const USAGE: &str = "usage:
  fence list                                   the built-in scenarios
  fence run <id | file.json> [--seed N] [--format text|json]
  fence check <file.json>                      validate a scenario file
  fence quiz --verify                          check every quiz answer against the simulator
  fence lesson <id | file.json> [--suggest]    check what the lesson says against its run: every
                                               declared fact, and numbers or replies the English
                                               states without one (--suggest: facts to start from)
  fence explore [--trials N] [--vary ttl|work|interval] [--values 5000,30000] [--ttl MS]
                [--median MS] [--p99 MS] [--work MS] [--watchdog off|script|bare]
                [--interval MS] [--seed N]
                                               the risk explorer's Monte Carlo, as a table
  fence redis                                  a Redis console on the model: lines from stdin,
                                               replies as redis-cli --no-raw (ADVANCE <ms> moves time)
  fence sql                                    a SQL console on the model: statements from stdin,
                                               output as psql -X -A -t -F '|' -v VERBOSITY=terse;
                                               prefix a line with 'B:' to run it in a second session";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("fence: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    match args.first().map(String::as_str) {
        Some("list") => {
            for scenario in catalogue::all() {
                println!("{:<34} {}", scenario.id, scenario.title);
            }
            Ok(ExitCode::SUCCESS)
        }
        Some("check") => {
            let [_, path] = args else { return Err(USAGE.to_owned()) };
            let scenario = read_scenario(path)?;
            println!("{path}: ok ({}, {} workers)", scenario.id, scenario.workers.len());
            Ok(ExitCode::SUCCESS)
        }
        Some("run") => {
            let Some(source) = args.get(1) else { return Err(USAGE.to_owned()) };
            let mut scenario = match catalogue::find(source) {
                Some(scenario) => scenario,
                None if source.ends_with(".json") || source.contains('/') => read_scenario(source)?,
                None => return Err(format!("no built-in scenario '{source}' (see `fence list`)")),
            };
            let mut format = "text";
            let mut rest = args[2..].iter();
            while let Some(flag) = rest.next() {
                let value = rest.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
                match flag.as_str() {
                    "--seed" => {
                        scenario.seed = value
                            .parse()
                            .map_err(|_| format!("--seed takes a whole number, not '{value}'"))?;
                    }
                    "--format" if value == "text" || value == "json" => format = value,
                    _ => return Err(format!("unknown option {flag} {value}\n{USAGE}")),
                }
            }
            let trace = sim::run(&scenario);
            if format == "json" {
                print!("{}", export::trace_json(&trace));
            } else {
                print!("{}", sim::render::render(&trace));
            }
            Ok(ExitCode::SUCCESS)
        }
        Some("lesson") => {
            let (source, suggest) = match args {
                [_, source] => (source, false),
                [_, source, flag] if flag == "--suggest" => (source, true),
                _ => return Err(USAGE.to_owned()),
            };
            let scenario = match catalogue::find(source) {
                Some(scenario) => scenario,
                None => read_scenario(source)?,
            };
            let trace = sim::run(&scenario);
            if suggest {
                print_suggestions(&trace);
                return Ok(ExitCode::SUCCESS);
            }
            let problems = lesson_problems(&trace);
            for problem in &problems {
                println!("{problem}");
            }
            println!("{}: {} problems", scenario.id, problems.len());
            Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Some("quiz") if args.get(1).map(String::as_str) == Some("--verify") => {
            let bank = quiz::parse_bank(quiz::BANK_JSON)?;
            let mut failed = 0;
            for question in &bank.questions {
                match quiz::verify(question) {
                    Ok(()) => println!("ok      {} ({})", question.id, question.show.scenario),
                    Err(why) => {
                        failed += 1;
                        println!("FAILED  {}: {why}", question.id);
                    }
                }
            }
            println!("quiz: {} passed, {failed} failed", bank.questions.len() - failed);
            Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Some("explore") => {
            // The page's defaults, with fewer trials so a bare `fence explore` is quick.
            let mut params = explore::Params { trials: 10_000, ..explore::Params::default() };
            let mut watchdog = params.watchdog.word().to_owned();
            let mut interval_ms = 10_000;
            let mut rest = args[1..].iter();
            while let Some(flag) = rest.next() {
                let value = rest.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
                let number = || explore::parse_number(value, flag);
                match flag.as_str() {
                    "--trials" => params.trials = number()?,
                    "--median" => params.pause_median_ms = number()?,
                    "--p99" => params.pause_p99_ms = number()?,
                    "--work" => params.work_ms = number()?,
                    "--seed" => params.seed = number()?,
                    "--interval" => interval_ms = number()?,
                    "--watchdog" => watchdog.clone_from(value),
                    "--ttl" => params.ttl_ms = number()?,
                    "--vary" => params.axis = explore::Axis::from_word(value)?,
                    "--values" | "--ttls" => params.values = explore::parse_numbers(value, flag)?,
                    _ => return Err(format!("unknown option {flag}\n{USAGE}")),
                }
            }
            params.watchdog = explore::Watchdog::from_word(&watchdog, interval_ms)?;
            let mut run = explore::Run::new(params)?;
            while !run.is_done() {
                run.advance(u64::MAX, u64::MAX);
            }
            println!(
                "{:>8}  {:<9} {:>9} {:>12} {:>12} {:>12}",
                "x_ms", "writes", "trials", "two_holders", "stale_write", "wasted_ms"
            );
            for p in run.points() {
                let t = &p.tally;
                let pct = |c| format!("{}%", explore::percent(c, t.trials, 4));
                let fencing = if p.fencing == explore::Fencing::On { "fenced" } else { "unfenced" };
                println!(
                    "{:>8}  {:<9} {:>9} {:>12} {:>12} {:>12}",
                    p.x,
                    fencing,
                    t.trials,
                    pct(t.two_holders),
                    pct(t.stale_accepted),
                    t.wasted_ms.checked_div(t.trials).unwrap_or(0)
                );
            }
            println!("simulator runs: {} (one per distinct pause per point)", run.sim_runs);
            Ok(ExitCode::SUCCESS)
        }
        Some("redis") if args.len() == 1 => {
            let mut console = RedisConsole::new(0);
            for line in stdin_lines()? {
                let reply = console.run_line(&line);
                if !line.trim().is_empty() {
                    println!("{reply}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some("sql") if args.len() == 1 => {
            let lines = stdin_lines()?;
            // Output says which session answered as soon as any line runs in B (`B:` or
            // `b:`, as `split_session` reads them).
            let prefixed = lines.iter().any(|l| sql::split_session(l).0 == sql::Session::B);
            let mut console = SqlConsole::new();
            // Like psql, a statement may span lines; it ends at a line ending with `;`.
            let mut pending: Option<(sql::Session, String)> = None;
            for line in lines {
                let (session, text) = match pending.take() {
                    Some((session, mut text)) => {
                        text.push('\n');
                        text.push_str(&line);
                        (session, text)
                    }
                    None => {
                        let (session, text) = sql::split_session(&line);
                        (session, text.to_owned())
                    }
                };
                if text.trim().is_empty() {
                    continue;
                }
                if text.trim_end().ends_with(';') {
                    print!("{}", sql::render(&console.run(session, &text), prefixed));
                } else {
                    pending = Some((session, text));
                }
            }
            if let Some((session, text)) = pending {
                print!("{}", sql::render(&console.run(session, &text), prefixed));
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(USAGE.to_owned()),
    }
}

fn stdin_lines() -> Result<Vec<String>, String> {
    std::io::stdin()
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read standard input: {e}"))
}

fn read_scenario(path: &str) -> Result<sim::Scenario, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if metadata.len() > load::BYTES_MAX as u64 {
        return Err(format!(
            "{path}: the file is {} bytes; a scenario may have at most {}",
            metadata.len(),
            load::BYTES_MAX
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    load::parse_scenario(&text).map_err(|e| format!("{path}: {e}"))
}

/// Every broken fact and every undeclared claim of the lesson around `trace`'s scenario.
fn lesson_problems(trace: &sim::Trace) -> Vec<String> {
    let scenario = trace.scenario();
    let mut problems: Vec<String> = catalogue::facts::broken(trace)
        .into_iter()
        .map(|(place, why)| format!("BROKEN      {place}: {why}"))
        .collect();
    let mut scan = |place: String, text: &str, facts: &[sim::scenario::Fact]| {
        for why in catalogue::facts::undeclared(text, facts, trace) {
            problems.push(format!("UNDECLARED  {place}: {why}\n            \"{text}\""));
        }
    };
    let lesson = format!("{} {}", scenario.title, scenario.summary);
    scan("claims".to_owned(), &lesson, &scenario.claims);
    for (i, n) in scenario.narration.iter().enumerate() {
        scan(format!("narration[{i}]"), &n.text, &n.facts);
    }
    for (i, p) in scenario.prompts.iter().enumerate() {
        let text = format!("{} {}", p.question, p.explanation);
        scan(format!("prompts[{i}]"), &text, &p.facts);
    }
    problems
}

/// The lesson's facts as JSON, with suggestions where a paragraph declares none.
fn print_suggestions(trace: &sim::Trace) {
    let scenario = trace.scenario();
    let or_suggest = |facts: &[sim::scenario::Fact], at: &sim::scenario::Anchor| {
        let facts = match facts.is_empty() {
            true => catalogue::facts::suggest(trace, at),
            false => facts.to_vec(),
        };
        catalogue::codec::facts_text(&facts)
    };
    let narration: Vec<String> =
        scenario.narration.iter().map(|n| or_suggest(&n.facts, &n.at)).collect();
    let prompts: Vec<String> =
        scenario.prompts.iter().map(|p| or_suggest(&p.facts, &p.at)).collect();
    let claims = match scenario.claims.is_empty() {
        true => catalogue::facts::suggest_claims(trace),
        false => scenario.claims.clone(),
    };
    let claims = catalogue::codec::facts_text(&claims);
    println!(
        "{{\"claims\":{claims},\"narration\":[{}],\"prompts\":[{}]}}",
        narration.join(","),
        prompts.join(",")
    );
}
