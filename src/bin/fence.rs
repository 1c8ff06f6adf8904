//! `fence`: the command-line face of the model: list, check and run scenarios.
//!
//! A thin shell over `catalogue`, `sim` and `export`: clap parses its arguments, it reads
//! files and prints. It must not simulate or format facts itself. Exit codes: 0 done (and
//! `--help`), 1 a check failed, 2 bad usage or bad input. A native tool: on wasm32 it is
//! empty, so no web build compiles its argument parser.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::io::{BufRead, Read};
    use std::process::ExitCode;

    /// `println!` that ends the command quietly when standard output has gone (a closed
    /// pipe, as in `fence redis | head -1`), as any Unix tool does, instead of panicking.
    macro_rules! out {
        ($($arg:tt)*) => {{
            use std::io::Write as _;
            if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
                std::process::exit(0);
            }
        }};
    }

    /// `print!`, the same way.
    macro_rules! out_raw {
        ($($arg:tt)*) => {{
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            if write!(stdout, $($arg)*).and_then(|()| stdout.flush()).is_err() {
                std::process::exit(0);
            }
        }};
    }

    // `FETCHED`: the language packs, glossary and quiz as the site serves them (build.rs).
    include!(concat!(env!("OUT_DIR"), "/fetched.rs"));

    use clap::{Parser, Subcommand, ValueEnum};
    use fencing_playground::catalogue::{self, load};
    use fencing_playground::console::redis::RedisConsole;
    use fencing_playground::console::sql::{self, SqlConsole};
    use fencing_playground::{explore, export, quiz, search, sim};

    /// The model of a Redis lease lock, its fencing token and the SQL fence, on the command line.
    #[derive(Parser)]
    #[command(name = "fence", version, arg_required_else_help = true)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// The built-in scenarios, one per line: id and title.
        List,
        /// Runs a scenario and prints its trace.
        Run {
            /// A built-in's id, or a scenario file (`.json`).
            scenario: String,
            /// Replaces the scenario's seed.
            #[arg(long, value_name = "N")]
            seed: Option<u64>,
            /// One line per event, or the JSON record of the run the web app exports.
            #[arg(long, value_enum, default_value_t = Format::Text)]
            format: Format,
        },
        /// Writes what the main page's build derives from `static/` into a built site: every
        /// built-in lesson as the main page fetches it (`scenarios/<id>.lesson`, the scenario
        /// baked by serde into postcard), and the JSON files the pages fetch without
        /// whitespace, as `build.rs` compacted them (`scenarios/<id>.json`, `i18n/*.json`,
        /// `quiz.json`); the web build's hook.
        Bake {
            /// The site's folder (created if missing).
            folder: String,
        },
        /// Validates a scenario file.
        Check {
            /// The scenario file.
            file: String,
        },
        /// Checks every quiz answer against the simulator.
        Quiz {
            /// Check every answer (the only thing this command does).
            #[arg(long, required = true)]
            verify: bool,
        },
        /// Checks what a lesson says against its run: every declared fact, and numbers or
        /// replies the English states without one.
        Lesson {
            /// A built-in's id, or a scenario file.
            scenario: String,
            /// Prints facts to start from instead, as JSON.
            #[arg(long)]
            suggest: bool,
        },
        /// Searches the schedules near a lesson's for one that breaks a safety property:
        /// the smallest change first (exit 0: none within the bounds, 1: found).
        Search(SearchArgs),
        /// The risk explorer's Monte Carlo, as a table (the page's defaults, with fewer trials).
        Explore(ExploreArgs),
        /// A Redis console on the model: lines from standard input, each answered as it
        /// comes, as `redis-cli --no-raw` prints replies (`ADVANCE <ms>` moves time)
        Redis,
        /// A SQL console on the model: statements from standard input, each answered as it
        /// ends, as `psql -X -A -t -F '|' -v VERBOSITY=terse` prints them; a line starting
        /// with `B:` runs in a second session, and from then on each answer names its session
        Sql,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum Format {
        Text,
        Json,
    }

    #[derive(clap::Args)]
    struct SearchArgs {
        /// A built-in's id, or a scenario file.
        scenario: String,
        /// A property to check (repeat for several; default: every property the lesson's
        /// own run keeps).
        #[arg(long = "property", value_name = "NAME", value_parser = property)]
        properties: Vec<sim::Property>,
        /// At most this many added faults (0 to 3).
        #[arg(long, value_name = "K", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=3))]
        faults: u8,
        /// The faults that may be added, comma-separated (default: the lesson's palette).
        #[arg(long, value_name = "pause,crash,...", value_delimiter = ',', value_parser = addition)]
        add: Option<Vec<search::Addition>>,
        /// Keep the lesson's own times; only add faults.
        #[arg(long)]
        keep_times: bool,
        /// Threads to run schedules on (default: every core). The answer is the same
        /// whatever the number.
        #[arg(long, value_name = "N", value_parser = threads)]
        threads: Option<usize>,
        /// What changed and what broke, or the JSON record (found, property, schedules,
        /// bounds, scenario).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also write the counterexample as a scenario file (for `fence run`).
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    }

    fn property(name: &str) -> Result<sim::Property, String> {
        sim::Property::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = sim::Property::ALL.iter().map(|p| p.name()).collect();
            format!("no property is called '{name}' (properties: {})", names.join(", "))
        })
    }

    fn addition(word: &str) -> Result<search::Addition, String> {
        use sim::scenario::Word;
        search::Addition::from_word(word).ok_or_else(|| {
            let words = search::Addition::words().join(", ");
            format!("no fault is called '{word}' (faults: {words})")
        })
    }

    #[derive(clap::Args)]
    struct ExploreArgs {
        /// Trials per point.
        #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = number("--trials"))]
        trials: u64,
        /// What varies across the points.
        #[arg(long, value_name = "ttl|work|interval", value_parser = explore::Axis::read)]
        vary: Option<explore::Axis>,
        /// The values it takes, comma-separated.
        #[arg(long, alias = "ttls", value_name = "5000,30000", value_parser = numbers("--values"))]
        values: Option<Numbers>,
        /// The lease (ms) where it does not vary.
        #[arg(long, value_name = "MS", value_parser = number("--ttl"))]
        ttl: Option<u64>,
        /// The pauses' median (ms).
        #[arg(long, value_name = "MS", value_parser = number("--median"))]
        median: Option<u64>,
        /// The pauses' 99th percentile (ms).
        #[arg(long, value_name = "MS", value_parser = number("--p99"))]
        p99: Option<u64>,
        /// The work between grant and write (ms) where it does not vary.
        #[arg(long, value_name = "MS", value_parser = number("--work"))]
        work: Option<u64>,
        /// The renewal watchdog: off, a checked script, or a bare PEXPIRE.
        #[arg(long, value_name = "off|script|bare", value_parser = explore::WatchdogKind::read)]
        watchdog: Option<explore::WatchdogKind>,
        /// The watchdog's interval (ms) where it does not vary.
        #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = number("--interval"))]
        interval: u64,
        /// The seed of the trials' pauses.
        #[arg(long, value_name = "N", value_parser = number("--seed"))]
        seed: Option<u64>,
        /// Threads to run the trials on (default: every core). The table is the same
        /// whatever the number.
        #[arg(long, value_name = "N", value_parser = threads)]
        threads: Option<usize>,
    }

    fn threads(text: &str) -> Result<usize, String> {
        match explore::parse_number(text, "--threads")? {
            0 => Err("--threads: at least 1".to_owned()),
            n => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        }
    }

    /// Comma-separated whole numbers, as one option's value.
    #[derive(Clone)]
    struct Numbers(Vec<u64>);

    fn number(what: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone {
        move |text| explore::parse_number(text, what)
    }

    fn numbers(what: &'static str) -> impl Fn(&str) -> Result<Numbers, String> + Clone {
        move |text| explore::parse_numbers(text, what).map(Numbers)
    }

    pub(crate) fn main() -> ExitCode {
        // clap prints usage errors (exit 2) and --help or --version (exit 0) itself.
        let cli = Cli::parse();
        match run(cli.command) {
            Ok(code) => code,
            Err(message) => {
                eprintln!("fence: {message}");
                ExitCode::from(2)
            }
        }
    }

    /// Longer than 100 lines: one arm per subcommand, most a few lines that call the library.
    fn run(command: Command) -> Result<ExitCode, String> {
        match command {
            Command::List => {
                for scenario in catalogue::all() {
                    out!("{:<34} {}", scenario.id, scenario.title);
                }
                Ok(ExitCode::SUCCESS)
            }
            Command::Bake { folder } => {
                let site = std::path::Path::new(&folder);
                let scenarios = site.join("scenarios");
                std::fs::create_dir_all(site.join("i18n"))
                    .and_then(|()| std::fs::create_dir_all(&scenarios))
                    .map_err(|e| format!("{folder}: {e}"))?;
                // build.rs compacted these texts (or kept one as written if it does not
                // parse): a text the page could not parse fails the build here.
                let texts = catalogue::builtin::FILES
                    .iter()
                    .map(|(id, text)| (format!("scenarios/{id}.json"), *text))
                    .chain(FETCHED.iter().map(|(path, text)| ((*path).to_owned(), *text)));
                for (path, text) in texts {
                    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_err() {
                        return Err(format!("{path}: not JSON (see `cargo test`)"));
                    }
                    let path = site.join(path);
                    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
                }
                let lessons = catalogue::all();
                for scenario in &lessons {
                    let bytes = catalogue::codec::lesson_bytes(scenario);
                    // What the page will read must be what the file says.
                    if catalogue::load::read_lesson(&bytes)
                        != Ok(catalogue::codec::page_lesson(scenario))
                    {
                        return Err(format!(
                            "{}: the baked lesson does not read back",
                            scenario.id
                        ));
                    }
                    let path = scenarios.join(format!("{}.lesson", scenario.id));
                    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                }
                if lessons.len() != catalogue::builtin::FILES.len() {
                    return Err("a built-in lesson does not parse (see `cargo test`)".to_owned());
                }
                out!(
                    "fence bake: {} lessons and {} JSON files in {folder}",
                    lessons.len(),
                    catalogue::builtin::FILES.len() + FETCHED.len(),
                );
                Ok(ExitCode::SUCCESS)
            }
            Command::Check { file } => {
                let scenario = read_scenario(&file)?;
                out!("{file}: ok ({}, {} workers)", scenario.id, scenario.setup.workers.len());
                Ok(ExitCode::SUCCESS)
            }
            Command::Run { scenario: source, seed, format } => {
                let mut scenario = match catalogue::find(&source) {
                    Some(scenario) => scenario,
                    None if source.ends_with(".json") || source.contains('/') => {
                        read_scenario(&source)?
                    }
                    None => {
                        return Err(format!("no built-in scenario '{source}' (see `fence list`)"));
                    }
                };
                if let Some(seed) = seed {
                    scenario.setup.seed = seed;
                }
                let trace = sim::run(&scenario.setup);
                match format {
                    Format::Json => out_raw!("{}", export::trace_json(&trace, &scenario.id)),
                    Format::Text => out_raw!("{}", sim::render::render(&trace)),
                }
                Ok(ExitCode::SUCCESS)
            }
            Command::Lesson { scenario: source, suggest } => {
                let scenario = match catalogue::find(&source) {
                    Some(scenario) => scenario,
                    None => read_scenario(&source)?,
                };
                let trace = sim::run(&scenario.setup);
                if suggest {
                    print_suggestions(&trace, &scenario);
                    return Ok(ExitCode::SUCCESS);
                }
                let mut problems = lesson_problems(&trace, &scenario);
                for problem in &problems {
                    out!("{problem}");
                }
                // The rules it teaches, each checked by the schedule search.
                for rule in &scenario.rules {
                    match search::check_rule(&scenario, rule) {
                        Ok(what) => out!("RULE ok     \"{}\": {what}", rule.says),
                        Err(why) => {
                            let problem = format!("RULE WRONG  \"{}\": {why}", rule.says);
                            out!("{problem}");
                            problems.push(problem);
                        }
                    }
                    // The sentence it proves must be the lesson's, word for word.
                    let text = format!("{} {}", scenario.summary, scenario.goal);
                    if rule.backs.is_empty() {
                        continue;
                    }
                    if text.contains(&rule.backs) {
                        out!("            backs \"{}\"", rule.backs);
                    } else {
                        let problem = format!(
                            "RULE WRONG  backs \"{}\", which the summary and goal do not say",
                            rule.backs
                        );
                        out!("{problem}");
                        problems.push(problem);
                    }
                }
                out!("{}: {} problems", scenario.id, problems.len());
                Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
            }
            Command::Quiz { .. } => {
                let bank = quiz::parse_bank(quiz::BANK_JSON)?;
                let mut failed = 0;
                for question in &bank.questions {
                    match quiz::verify(question) {
                        Ok(()) => out!("ok      {} ({})", question.id, question.show.scenario),
                        Err(why) => {
                            failed += 1;
                            out!("FAILED  {}: {why}", question.id);
                        }
                    }
                }
                out!("quiz: {} passed, {failed} failed", bank.questions.len() - failed);
                Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
            }
            Command::Explore(args) => explore_table(args),
            Command::Search(args) => search_schedules(args),
            Command::Redis => {
                let mut console = RedisConsole::new(0);
                let mut input = Input::stdin();
                while let Some(line) = input.line()? {
                    let reply = console.run_line(&line);
                    if !line.trim().is_empty() {
                        out!("{reply}");
                    }
                }
                Ok(ExitCode::SUCCESS)
            }
            Command::Sql => sql_console(),
        }
    }

    fn explore_table(args: ExploreArgs) -> Result<ExitCode, String> {
        let defaults = explore::Params::default();
        let mut params = explore::Params { trials: args.trials, ..defaults };
        params.pause_median_ms = args.median.unwrap_or(params.pause_median_ms);
        params.pause_p99_ms = args.p99.unwrap_or(params.pause_p99_ms);
        params.work_ms = args.work.unwrap_or(params.work_ms);
        params.seed = args.seed.unwrap_or(params.seed);
        params.ttl_ms = args.ttl.unwrap_or(params.ttl_ms);
        params.axis = args.vary.unwrap_or(params.axis);
        if let Some(Numbers(values)) = args.values {
            params.values = values;
        }
        let watchdog = args.watchdog.unwrap_or_else(|| params.watchdog.kind());
        params.watchdog = watchdog.with_interval(args.interval);
        let mut run = explore::Run::new(params)?;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let threads = args.threads.unwrap_or(cores);
        if threads == 1 {
            // In order, as the page's main thread runs it.
            while !run.is_done() {
                run.advance(u64::MAX, u64::MAX);
            }
        } else {
            // One task per thread, each with its own trial runner (and so its own memo of
            // outcomes). A task stays on one point while it has chunks left, so a point's
            // memo lives in one thread, then moves to the point with the most chunks left.
            let dealer = std::sync::Mutex::new(explore::Dealer::new(&run.chunks()));
            let results = std::sync::Mutex::new(Vec::new());
            // A poisoned lock means another task panicked: keep what it left.
            let next_chunk = |current: &mut usize| {
                dealer.lock().unwrap_or_else(|e| e.into_inner()).next(current)
            };
            std::thread::scope(|scope| {
                for task in 0..threads {
                    let next_chunk = &next_chunk;
                    let results = &results;
                    let dealer = &dealer;
                    let run = &run;
                    scope.spawn(move || {
                        let mut trials = run.trials();
                        let mut current =
                            dealer.lock().unwrap_or_else(|e| e.into_inner()).start(task);
                        while let Some(chunk) = next_chunk(&mut current) {
                            let result = trials.run(chunk);
                            results.lock().unwrap_or_else(|e| e.into_inner()).push(result);
                        }
                    });
                }
            });
            let done = results.into_inner().unwrap_or_else(|e| e.into_inner());
            for result in &done {
                run.add(result);
            }
        }
        out!(
            "{:>8}  {:<9} {:>9} {:>12} {:>12} {:>12}",
            "x_ms",
            "writes",
            "trials",
            "two_holders",
            "stale_write",
            "wasted_ms"
        );
        for p in run.points() {
            let t = &p.tally;
            let pct = |c| format!("{}%", explore::percent(c, t.trials, 4));
            let fencing = if p.fencing == explore::Fencing::On { "fenced" } else { "unfenced" };
            out!(
                "{:>8}  {:<9} {:>9} {:>12} {:>12} {:>12}",
                p.x,
                fencing,
                t.trials,
                pct(t.two_holders),
                pct(t.stale_accepted),
                t.wasted_ms.checked_div(t.trials).unwrap_or(0)
            );
        }
        // How many runs the memo saved depends on how the chunks were shared out, so this goes
        // to standard error: the table on standard output is the same for any --threads.
        eprintln!(
            "simulator runs: {} (one per distinct pause per point and thread), {threads} thread(s)",
            run.sim_runs
        );
        Ok(ExitCode::SUCCESS)
    }

    fn search_schedules(args: SearchArgs) -> Result<ExitCode, String> {
        let lesson = match catalogue::find(&args.scenario) {
            Some(scenario) => scenario,
            None => read_scenario(&args.scenario)?,
        };
        let mut space = search::Space::for_setup(&lesson.setup);
        space.max_added = usize::from(args.faults);
        if let Some(add) = args.add {
            space.add = add;
        }
        if args.keep_times {
            space.vary = search::Vary::Nothing;
        }
        let properties = match args.properties.is_empty() {
            true => search::default_properties(&sim::run_facts(&lesson.setup)),
            false => args.properties,
        };
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let threads = args.threads.unwrap_or(cores);
        let report = search_on(&lesson.setup, space, properties, threads)?;
        let counterexample =
            report.found.as_ref().map(|found| search::counterexample_scenario(&lesson, found));
        if let (Some(path), Some(scenario)) = (&args.out, &counterexample) {
            let text = catalogue::codec::write_scenario(scenario).pretty();
            std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
        }
        let changes: Vec<String> = report
            .found
            .iter()
            .flat_map(|f| &f.changes)
            .map(|c| search::describe(c, &lesson.setup))
            .collect();
        let broken = report.found.as_ref().map(|found| {
            let trace = sim::run_events_only(&found.setup);
            let first =
                trace.summary().violations.into_iter().find(|v| v.name == found.property.name());
            first.map_or_else(String::new, |v| v.explanation)
        });
        match args.format {
            Format::Json => {
                let scenario = counterexample.as_ref().map(|s| {
                    let text = catalogue::codec::write_scenario(s).compact();
                    serde_json::from_str::<serde_json::Value>(&text).unwrap_or_default()
                });
                let record = serde_json::json!({
                    "scenario_searched": lesson.id.as_str(),
                    "found": report.found.is_some(),
                    "property": report.found.as_ref().map(|f| f.property.name()),
                    "explanation": broken,
                    "changes": changes,
                    "schedules": report.schedules,
                    "runs": report.runs,
                    "bounds": report.bounds,
                    "capped": report.capped,
                    "scenario": scenario,
                });
                out!("{}", serde_json::to_string_pretty(&record).unwrap_or_default());
            }
            Format::Text => match &report.found {
                None => out!(
                    "{}: no counterexample in {} schedules ({}{})",
                    lesson.id,
                    report.schedules,
                    report.bounds,
                    if report.capped { "; a level was cut to its smallest changes" } else { "" }
                ),
                Some(found) => {
                    out!(
                        "{}: {} broken after {} schedules ({})",
                        lesson.id,
                        found.property.name(),
                        report.schedules,
                        report.bounds
                    );
                    if changes.is_empty() {
                        out!("  the lesson's own schedule");
                    }
                    for change in &changes {
                        out!("  {change}");
                    }
                    out!("  {}", broken.unwrap_or_default());
                    if let Some(path) = &args.out {
                        out!("  replay it: fence run {path}");
                    } else {
                        out!("  write it with --out FILE, then: fence run FILE");
                    }
                }
            },
        }
        Ok(if report.found.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS })
    }

    /// Runs a search with its schedules on `threads` threads; the chunks are fed back in
    /// the order they were handed out, so the answer does not depend on the number.
    fn search_on(
        setup: &sim::Setup,
        space: search::Space,
        properties: Vec<sim::Property>,
        threads: usize,
    ) -> Result<search::Report, String> {
        if threads == 1 {
            return Ok(search::run(setup, space, properties));
        }
        let mut search = search::Search::new(setup, space, properties);
        loop {
            let chunks: Vec<Vec<Vec<search::Change>>> =
                std::iter::from_fn(|| search.next_chunk()).take(threads * 4).collect();
            if chunks.is_empty() {
                if let Some(report) = search.report() {
                    return Ok(report);
                }
                continue;
            }
            let (setup, properties) = (search.setup(), search.properties());
            // Each thread takes every `threads`-th chunk; the results go back in the order
            // the chunks were handed out.
            let mut results: Vec<Vec<search::Evaluated>> = vec![Vec::new(); chunks.len()];
            std::thread::scope(|scope| {
                let chunks = &chunks;
                let lanes: Vec<_> = (0..threads)
                    .map(|lane| {
                        scope.spawn(move || {
                            (lane..chunks.len())
                                .step_by(threads)
                                .map(|i| {
                                    let chunk = &chunks[i];
                                    let evaluated = chunk
                                        .iter()
                                        .map(|c| search::evaluate(setup, c, properties))
                                        .collect::<Vec<_>>();
                                    (i, evaluated)
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                for lane in lanes {
                    // A thread that panicked has a bug to show: pass its panic on.
                    let done = lane.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    for (i, evaluated) in done {
                        results[i] = evaluated;
                    }
                }
            });
            for result in &results {
                search.feed(result);
            }
        }
    }

    fn sql_console() -> Result<ExitCode, String> {
        // Answers say which session gave them once a line has named one (`A:`, `B:`, or
        // `b:`, as `split_session` reads them): the answers before came from A alone.
        let mut prefixed = false;
        let mut console = SqlConsole::new();
        // Like psql, a statement may span lines; it ends at a line ending with `;`.
        let mut pending: Option<(sql::Session, String)> = None;
        let mut input = Input::stdin();
        while let Some(line) = input.line()? {
            let named = sql::split_session(&line).1.len() != line.len();
            prefixed |= pending.is_none() && named;
            let (session, text) = match pending.take() {
                Some((session, mut text)) => {
                    if text.len() + line.len() > Input::LINE_MAX {
                        return Err(too_long());
                    }
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
                out_raw!("{}", sql::render(&console.run(session, &text), prefixed));
            } else {
                pending = Some((session, text));
            }
        }
        if let Some((session, text)) = pending {
            out_raw!("{}", sql::render(&console.run(session, &text), prefixed));
        }
        Ok(ExitCode::SUCCESS)
    }

    /// Standard input, a line at a time (each answered before the next is read), none
    /// longer than `LINE_MAX`: `/dev/zero` or a runaway pipe gets an error, not an abort.
    struct Input {
        reader: std::io::StdinLock<'static>,
    }

    impl Input {
        /// The longest line (or statement spread over lines) a console takes: 1 MiB.
        const LINE_MAX: usize = 1 << 20;

        fn stdin() -> Input {
            Input { reader: std::io::stdin().lock() }
        }

        /// The next line without its line ending, or `None` at the end of the input.
        fn line(&mut self) -> Result<Option<String>, String> {
            let mut bytes = Vec::new();
            let limit = Input::LINE_MAX as u64 + 1;
            (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            if bytes.is_empty() {
                return Ok(None);
            }
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
            } else if bytes.len() > Input::LINE_MAX {
                return Err(too_long());
            }
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| "cannot read standard input: a line is not UTF-8 text".to_owned())
        }
    }

    fn too_long() -> String {
        format!("a line of standard input is longer than {} bytes", Input::LINE_MAX)
    }

    fn read_scenario(path: &str) -> Result<catalogue::lesson::Scenario, String> {
        // Read at most one byte past the limit: a size from the file's metadata can lie
        // (`/dev/zero` says 0 and never ends).
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let mut bytes = Vec::new();
        file.take(load::BYTES_MAX as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {path}: {e}"))?;
        if bytes.len() > load::BYTES_MAX {
            return Err(format!(
                "{path}: the file is over {} bytes, the most a scenario may have",
                load::BYTES_MAX
            ));
        }
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{path}: the file is not UTF-8 text"))?;
        load::parse_scenario(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// Every broken fact and every undeclared claim of `scenario`'s lesson, of which
    /// `trace` is a run.
    fn lesson_problems(trace: &sim::Trace, scenario: &catalogue::lesson::Scenario) -> Vec<String> {
        let mut problems: Vec<String> = catalogue::facts::broken(trace, scenario)
            .into_iter()
            .map(|(place, why)| format!("BROKEN      {place}: {why}"))
            .collect();
        let mut scan = |place: String, text: &str, facts: &[catalogue::lesson::Fact]| {
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
    fn print_suggestions(trace: &sim::Trace, scenario: &catalogue::lesson::Scenario) {
        let or_suggest = |facts: &[catalogue::lesson::Fact], at: &catalogue::lesson::Anchor| {
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
        out!(
            "{{\"claims\":{claims},\"narration\":[{}],\"prompts\":[{}]}}",
            narration.join(","),
            prompts.join(",")
        );
    }
}
