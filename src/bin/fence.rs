//! `fence`: the command-line face of the model (list and run scenarios, print traces).
//!
//! A thin shell over `catalogue` and `sim`: it parses arguments, reads files and prints;
//! it must not simulate or format facts itself.

use std::process::ExitCode;

use fencing_playground::{catalogue, sim};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => {
            for scenario in catalogue::all() {
                println!("{:<32} {}", scenario.id, scenario.title);
            }
            ExitCode::SUCCESS
        }
        Some("run") => {
            let Some(id) = args.get(1) else {
                eprintln!("usage: fence run <id>");
                return ExitCode::from(2);
            };
            let Some(scenario) = catalogue::find(id) else {
                eprintln!("fence: no built-in scenario '{id}' (see `fence list`)");
                return ExitCode::from(2);
            };
            let trace = sim::run(&scenario);
            print!("{}", sim::render::render(&trace));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: fence list | fence run <id>");
            ExitCode::from(2)
        }
    }
}
