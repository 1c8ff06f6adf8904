//! Architecture invariants, written as absences and checked by reading the source.

use std::path::{Path, PathBuf};

/// Paths (and prefixes) that the pure core must never name.
const FORBIDDEN: &[&str] = &[
    "yew",
    "web_sys",
    "js_sys",
    "gloo",
    "wasm_bindgen",
    "std::time",
    "Instant",
    "SystemTime",
    "getrandom",
    "rand::",
    "HashMap",
    "HashSet",
];

/// The offending lines of `source`: any line naming a forbidden item outside a comment.
fn offences(source: &str) -> Vec<String> {
    source
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let code = line.split("//").next().unwrap_or("");
            let hit = FORBIDDEN.iter().find(|word| {
                code.match_indices(*word).any(|(at, _)| {
                    // A whole identifier path, not part of a longer name (`gloo_timers` counts,
                    // `gloom` and `my_yew_tree` do not).
                    let before = code[..at].chars().next_back();
                    let after = code[at + word.len()..].chars().next();
                    before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                        && after.is_none_or(|c| !c.is_alphanumeric())
                })
            })?;
            Some(format!("line {}: `{hit}` in `{}`", i + 1, line.trim()))
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn pure_modules_import_no_web_crate_and_no_clock() {
    // src/sim, the catalogue and the route parser must build and behave the same natively
    // and in wasm; a web crate or a clock there would break determinism or native tests.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    // Every module outside src/ui (the web shell) and src/bin (the CLI, which may read a
    // clock) is pure: every file and every directory, so a new module is scanned unasked.
    for entry in std::fs::read_dir(root.join("src")).expect("src") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "ui" | "bin") {
                rust_files(&path, &mut files);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && !matches!(name.as_str(), "main.rs" | "lib.rs")
        {
            files.push(path);
        }
    }
    for dir in ["src/sim", "src/catalogue", "src/sandbox", "src/timeline"] {
        let scanned = root.join(dir);
        assert!(files.iter().any(|f| f.starts_with(&scanned)), "{dir} is not scanned");
    }
    let mut report = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).expect("readable source");
        for offence in offences(&source) {
            report.push(format!("{}: {offence}", file.display()));
        }
    }
    assert!(report.is_empty(), "forbidden imports in the pure core:\n{}", report.join("\n"));
}

/// The calls that change the address bar.
fn address_changes(source: &str) -> usize {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    [".set_hash(", "location().replace(", ".replace_state_with_url(", ".push_state", ".set_href("]
        .iter()
        .map(|call| code.matches(call).count())
        .sum()
}

#[test]
fn every_address_change_goes_through_nav() {
    // `ui::nav` applies the embed rule (a move inside an embed replaces the history entry)
    // and keeps one place that writes the address; views call it. The crash panel's
    // start-up cleanup (it drops `?reset` before the app runs) is the one exception.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/ui"), &mut files);
    let mut report = Vec::new();
    for file in files {
        let name = file.strip_prefix(root).unwrap_or(&file).display().to_string();
        if name.ends_with("ui/nav.rs") || name.ends_with("ui/crash.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&file).expect("readable source");
        let n = address_changes(&source);
        if n > 0 {
            report.push(format!("{name}: {n}"));
        }
    }
    assert!(report.is_empty(), "the address changed outside ui::nav:\n{}", report.join("\n"));
    // The scan finds what it looks for.
    assert_eq!(address_changes("let _ = window.location().set_hash(&h);"), 1);
    assert_eq!(address_changes("crate::ui::nav::set_hash(&h);"), 0);
    assert_eq!(address_changes("history.replace_state_with_url(&v, \"\", Some(&h))"), 1);
}

#[test]
fn the_scanner_catches_what_it_should() {
    // The check above is only as good as this scanner.
    assert_eq!(offences("use yew::prelude::*;").len(), 1);
    assert_eq!(offences("let t = std::time::Instant::now();").len(), 1);
    assert_eq!(offences("use std::collections::HashMap;").len(), 1);
    assert_eq!(offences("use gloo_timers::callback::Interval;").len(), 1);
    assert_eq!(offences("// yew is only mentioned in a comment").len(), 0);
    assert_eq!(offences("let my_yew_tree = 1; let gloom = 2;").len(), 0);
}

#[test]
fn lib_rs_declares_modules_only() {
    // The crate root stays a table of contents: a doc comment and `pub mod` lines.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("lib.rs");
    for line in lib.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let allowed =
            line.starts_with("//") || line.starts_with("pub mod ") || line.starts_with("#[cfg(");
        assert!(allowed, "src/lib.rs should only declare modules, found: {line}");
    }
}

#[test]
fn the_views_render_text_never_raw_html() {
    // Learner- and file-supplied strings (scenario titles, console input, link payloads,
    // panic messages) reach the page only as text: no view may build HTML from a string.
    // The one door is `ui::markup`, which takes only a `Markup` (constant names, escaped
    // values and text, see src/markup.rs).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let door = std::fs::read_to_string(root.join("src/ui/mod.rs")).expect("src/ui/mod.rs");
    assert_eq!(door.matches("from_html_unchecked").count(), 1, "one door only");
    assert!(door.contains("pub(crate) fn markup(m: crate::markup::Markup) -> yew::Html {"));
    let mut files = Vec::new();
    rust_files(&root.join("src/ui"), &mut files);
    assert!(files.len() >= 10, "expected the views, found {files:?}");
    let mut report = Vec::new();
    for file in files.into_iter().filter(|f| !f.ends_with("src/ui/mod.rs")) {
        let source = std::fs::read_to_string(&file).expect("readable source");
        for needle in [
            "from_html_unchecked",
            "set_inner_html",
            "set_outer_html",
            "insert_adjacent_html",
            "document.write",
        ] {
            if source.contains(needle) {
                report.push(format!("{}: {needle}", file.display()));
            }
        }
    }
    assert!(report.is_empty(), "raw HTML in the views:\n{}", report.join("\n"));
}

/// The functions of `source` longer than `max_lines`, as (name, lines), unless the doc
/// comment above them says why (a line starting `/// Longer than`).
fn long_functions(source: &str, max_lines: usize) -> Vec<(String, usize)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let Some(rest) = ["pub fn ", "pub(super) fn ", "pub(crate) fn ", "fn "]
            .iter()
            .find_map(|prefix| trimmed.strip_prefix(prefix))
        else {
            continue;
        };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // A declaration without a body (a trait's method), or a body on the same line, is
        // no function to measure.
        if line.trim_end().ends_with(';') || line.trim_end().ends_with('}') {
            continue;
        }
        let closing = format!("{indent}}}");
        let Some(end) = lines[i + 1..].iter().position(|l| *l == closing) else {
            continue;
        };
        let length = end + 2;
        let explained = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("///") || l.trim_start().starts_with("#["))
            .any(|l| l.trim_start().starts_with("/// Longer than"));
        if length > max_lines && !explained {
            long.push((name, length));
        }
    }
    long
}

#[test]
fn the_model_has_no_file_over_800_lines_and_no_unexplained_function_over_100() {
    // A newcomer should find each responsibility in a file of its own (src/sim/world/ is
    // split by what it models), and read any function in one screenful or two.
    let mut problems = Vec::new();
    for (name, source) in model_sources() {
        let n_lines = source.lines().count();
        if n_lines > 800 {
            problems.push(format!("{name}: {n_lines} lines"));
        }
        for (function, length) in long_functions(&source, 100) {
            problems.push(format!("{name}: fn {function} has {length} lines"));
        }
    }
    assert!(problems.is_empty(), "split these up (or say why not):\n{}", problems.join("\n"));
}

/// A view component's lines, at most: a view over this renders several things that can
/// be named and read apart (a bar, a feedback box, a drawing's marks), and a "why" does not
/// excuse it.
const COMPONENT_LINES_MAX: usize = 150;

#[test]
fn no_function_anywhere_is_over_100_lines_unexplained_and_no_view_over_150() {
    // The model's rule, for the whole crate: a function a newcomer reads in a screenful or
    // two, or a line above it saying why it is longer (a match with one short arm per
    // action is one). Views have their own limit, with no excuse.
    let mut problems = Vec::new();
    for (name, source) in sources_under("src") {
        let views = component_names(&source);
        for (function, length) in long_functions(&source, 100) {
            if views.contains(&function) {
                continue;
            }
            problems.push(format!("{name}: fn {function} has {length} lines"));
        }
        for (component, length) in long_components(&source, COMPONENT_LINES_MAX) {
            problems.push(format!("{name}: component {component} has {length} lines"));
        }
    }
    assert!(problems.is_empty(), "split these up (or say why not):\n{}", problems.join("\n"));
}

/// The `#[component]` functions of `source` longer than `max_lines`, explained or not.
fn long_components(source: &str, max_lines: usize) -> Vec<(String, usize)> {
    // Measured as functions whose excuse is never read: the marker cannot occur in code.
    let unexcused = source.replace("/// Longer than", "/// (a component's excuse is not read)");
    let views = component_names(source);
    long_functions(&unexcused, max_lines)
        .into_iter()
        .filter(|(name, _)| views.contains(name))
        .collect()
}

/// The names of the functions marked `#[component]` in `source`.
fn component_names(source: &str) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut names = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("#[component]") {
            continue;
        }
        let signature = lines[i + 1..]
            .iter()
            .map(|l| l.trim_start())
            .find(|l| !l.starts_with("#[") && !l.starts_with("///"));
        if let Some(rest) = signature.and_then(|l| l.split("fn ").nth(1)) {
            names.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
        }
    }
    names
}

#[test]
fn the_view_length_check_sees_a_long_component_even_with_an_excuse() {
    let body = "    html! {}\n".repeat(160);
    let view = format!(
        "/// Longer than 100 lines: a reason.\n#[component]\nfn Big() -> Html {{\n{body}}}\n"
    );
    assert_eq!(long_components(&view, 150), vec![("Big".to_owned(), 162)]);
    assert!(long_functions(&view, 100).is_empty(), "the excuse holds for the 100-line rule");
    let plain = format!(
        "fn big() -> Html {{\n{body}}}\ntrait T {{\n    fn f();\n    fn g() {{}}\n{body}}}\n"
    );
    assert!(long_components(&plain, 150).is_empty(), "not a component");
    assert_eq!(
        long_functions(&plain, 100),
        vec![("big".to_owned(), 162)],
        "f and g have no body to measure"
    );
}

#[test]
fn the_model_is_given_a_setup_and_never_a_lesson() {
    // The simulator takes a `Setup`; the lesson around it (title, narration, prompts, the
    // promised outcome) is the `Scenario` of `catalogue::lesson`, which the layers keep the
    // model from naming. This check adds what the module system cannot see: no model file
    // names a `Scenario` of its own, reads a lesson's members or looks a worker up by name.
    let mut problems = Vec::new();
    for (name, source) in model_sources() {
        problems.extend(lesson_mentions(&source).into_iter().map(|m| format!("{name}: {m}")));
    }
    assert!(problems.is_empty(), "the model reads a lesson:\n{}", problems.join("\n"));
}

/// Every source file of the model, as (its path from the crate root, its text), in order.
fn model_sources() -> Vec<(String, String)> {
    sources_under("src/sim")
}

/// Every source file under `dir` (from the crate's root), as (path, text), in path order.
fn sources_under(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join(dir), &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let name = file.strip_prefix(root).unwrap_or(file).display().to_string();
            (name, std::fs::read_to_string(file).expect("readable source"))
        })
        .collect()
}

/// What in `source` (outside comments) names a lesson: the `Scenario` type, a lesson's
/// members, or a by-name lookup of a worker.
fn lesson_mentions(source: &str) -> Vec<String> {
    const LESSON: &[&str] = &[".narration", ".prompts", ".claims", ".expect", ".title"];
    let mut found = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        if words.into_iter().any(|w| w == "Scenario") {
            found.push(format!("names Scenario: {}", line.trim()));
        }
        for member in LESSON {
            let at = code.find(member);
            let whole = at.is_some_and(|i| {
                // A member, not a longer name or a method (`.expect(`).
                !code[i + member.len()..]
                    .starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '(')
            });
            if whole {
                found.push(format!("reads {member}: {}", line.trim()));
            }
        }
        if code.contains("fn worker_index(") || code.contains("fn node_index(") {
            found.push(format!("looks a name up: {}", line.trim()));
        }
    }
    found
}

#[test]
fn the_lesson_check_sees_a_lesson_in_the_model() {
    assert_eq!(
        lesson_mentions("fn f(s: &Setup) {} // a Scenario in a comment"),
        Vec::<String>::new()
    );
    assert_eq!(lesson_mentions("let t = &s.narration[0];").len(), 1);
    assert_eq!(lesson_mentions("fn run(s: &Scenario) {}").len(), 1);
    assert!(lesson_mentions("let ScenarioId = 1; let e = s.expected;").is_empty());
    assert!(lesson_mentions("let n = text.parse().expect(\"a number\");").is_empty());
    assert_eq!(lesson_mentions("if let Some(e) = &s.expect {").len(), 1);
}

#[test]
fn the_length_check_sees_a_long_function_and_its_excuse() {
    let body = "    let x = 1;\n".repeat(101);
    let plain = format!("fn long() {{\n{body}}}\n");
    assert_eq!(long_functions(&plain, 100), vec![("long".to_owned(), 103)]);
    let excused = format!("/// Longer than 100 lines: a table.\nfn long() {{\n{body}}}\n");
    assert!(long_functions(&excused, 100).is_empty());
}

/// The crate's layers, lowest first: a module may name modules of lower layers only
/// (ARCHITECTURE.md says why each sits where it does).
const LAYERS: &[&[&str]] = &[
    &["markup", "lang"],
    &["sim"],
    &["catalogue", "xapi"],
    // The embed protocol checks a learner's registration as xAPI takes it.
    &["embed"],
    &[
        "quiz", "whatif", "timeline", "verdict", "compare", "explore", "search", "workload",
        "console",
    ],
    // A challenge is graded by the search and the what-if knobs; its text is translated.
    &["challenge"],
    &["i18n", "export", "progress", "player"],
    &["route", "scorm"],
    // A cmi5 AU reads its launch address as links are read.
    &["sandbox", "path", "cmi5"],
    &["ui", "main", "bin"],
];

/// The model's own layers, the same way.
const SIM_LAYERS: &[&[&str]] = &[
    &["sorted", "id"],
    &["prng", "scenario", "redis", "sql"],
    &["token", "script", "event", "state"],
    &["check"],
    &["world"],
    &["trace"],
    &["render"],
];

/// The web shell's own layers, the same way (its views navigate through `nav`, never
/// through the app shell that mounts them).
const UI_LAYERS: &[&[&str]] = &[
    &["i18n", "hooks", "nav", "crash", "browser"],
    // The host channel checks a host's learner as the address bar checks `actor=`.
    &["embed"],
    &["share", "not_found", "home", "explore_pool", "search_pool"],
    &["player", "explore"],
    &["compare", "handout"],
    &["lessons", "picker"],
    &["quiz", "sandbox", "break_it", "cmi5", "challenge"],
    &["course"],
    &["app"],
];

fn layer_of(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|layer| layer.contains(&module))
}

/// The modules a source file names through `prefix` (`crate::` or `crate::sim::`), as
/// single paths or `{a, b}` groups, outside comments.
fn named(source: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let words: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for word in words {
                let name: String =
                    word.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && name != "self" {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// Every import from a module to one of the same or a higher layer: `(file, its module,
/// the module it names)` for each `(file, module, source)`.
fn upward(files: &[(String, String, String)], layers: &[&[&str]], prefix: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (file, module, source) in files {
        let Some(mine) = layer_of(layers, module) else {
            problems.push(format!("{file}: module `{module}` has no layer"));
            continue;
        };
        let mut seen = Vec::new();
        for other in named(source, prefix) {
            if other == *module || seen.contains(&other) {
                continue;
            }
            seen.push(other.clone());
            match layer_of(layers, &other) {
                Some(theirs) if theirs < mine => {}
                Some(_) => problems.push(format!("{file}: `{module}` names `{other}`")),
                None => {}
            }
        }
    }
    problems
}

/// `(file, module, source)` for every file under `dir`, the module being the path's first
/// component under `dir` (`sim/world/order.rs` is `sim` under `src/`, `world` under `src/sim/`).
fn modules_under(dir: &Path) -> Vec<(String, String, String)> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(dir).ok()?;
            let first = relative.components().next()?.as_os_str().to_string_lossy().into_owned();
            let module = first.trim_end_matches(".rs").to_owned();
            let source = std::fs::read_to_string(&file).ok()?;
            Some((relative.display().to_string(), module, source))
        })
        .filter(|(_, module, _)| module != "lib" && module != "mod")
        .collect()
}

#[test]
fn layers_import_only_from_below() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = upward(&modules_under(&root.join("src")), LAYERS, "crate::");
    // Inside the model, `super::x` from a file directly in src/sim names a sibling too.
    let mut sim = modules_under(&root.join("src/sim"));
    for (file, _, source) in &mut sim {
        if !file.contains('/') {
            *source = source.replace("super::", "crate::sim::");
        }
    }
    problems.extend(upward(&sim, SIM_LAYERS, "crate::sim::"));
    let mut ui = modules_under(&root.join("src/ui"));
    for (file, _, source) in &mut ui {
        if !file.contains('/') {
            *source = source.replace("super::", "crate::ui::");
        }
    }
    problems.extend(upward(&ui, UI_LAYERS, "crate::ui::"));
    assert!(problems.is_empty(), "imports from a higher layer:\n{}", problems.join("\n"));
}

/// The cycles among the submodules of each module under `src/` (`catalogue::codec` naming
/// `catalogue::load` and `load` naming `codec`), each as `module: a -> b -> a`. A
/// submodule names a sibling through `crate::<module>::<sibling>` or, from its own file
/// (`x.rs` or `x/mod.rs`), `super::<sibling>`.
fn cycles_inside(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut modules: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("src")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.is_dir())
        .collect();
    modules.sort();
    for dir in modules {
        let module = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let files: Vec<(String, String, String)> = modules_under(&dir)
            .into_iter()
            .map(|(file, sub, source)| {
                let own_file = !file.contains('/') || file.ends_with("/mod.rs");
                let source = match own_file {
                    true => source.replace("super::", &format!("crate::{module}::")),
                    false => source,
                };
                (file, sub, source)
            })
            .collect();
        found.extend(cycles_among(&module, &files));
    }
    found
}

/// The cycles among `files` (as `modules_under` gives them) of `module`.
fn cycles_among(module: &str, files: &[(String, String, String)]) -> Vec<String> {
    let mut subs: Vec<&str> = files.iter().map(|(_, sub, _)| sub.as_str()).collect();
    subs.sort_unstable();
    subs.dedup();
    let prefix = format!("crate::{module}::");
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (_, sub, source) in files {
        let from = subs.iter().position(|s| s == sub).unwrap_or(0);
        for other in named(source, &prefix) {
            if let Some(to) = subs.iter().position(|s| *s == other)
                && to != from
                && !edges.contains(&(from, to))
            {
                edges.push((from, to));
            }
        }
    }
    // A depth-first walk from each submodule; a path that comes back to where it started is
    // a cycle, reported once, from its smallest member.
    let mut cycles = Vec::new();
    for start in 0..subs.len() {
        let mut stack = vec![vec![start]];
        while let Some(path) = stack.pop() {
            let last = path[path.len() - 1];
            for &(_, to) in edges.iter().filter(|(from, _)| *from == last) {
                if to == start {
                    let names: Vec<&str> = path.iter().chain([&start]).map(|&i| subs[i]).collect();
                    cycles.push(format!("{module}: {}", names.join(" -> ")));
                } else if to > start && !path.contains(&to) {
                    let mut longer = path.clone();
                    longer.push(to);
                    stack.push(longer);
                }
            }
        }
    }
    cycles
}

#[test]
fn no_module_s_submodules_name_each_other_in_a_cycle() {
    // The layers order the crate's modules and the model's and the shell's own; inside any
    // other module, two submodules that need each other are one responsibility in two
    // files, or a third module waiting to be named.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cycles = cycles_inside(&root.join("src"));
    assert!(cycles.is_empty(), "cycles inside a module:\n{}", cycles.join("\n"));
}

#[test]
fn the_cycle_check_sees_a_cycle_inside_a_module() {
    let file = |sub: &str, source: &str| (format!("{sub}.rs"), sub.to_owned(), source.to_owned());
    let files = [
        file("codec", "use crate::catalogue::load::check;"),
        file("load", "fn f() { crate::catalogue::{codec, facts}::x(); }"),
        file("facts", "// crate::catalogue::codec is only a comment"),
    ];
    assert_eq!(cycles_among("catalogue", &files), vec!["catalogue: codec -> load -> codec"]);
    let longer = [
        file("a", "use crate::m::b;"),
        file("b", "use crate::m::c;"),
        file("c", "use crate::m::{a, b};"),
    ];
    assert_eq!(cycles_among("m", &longer), vec!["m: a -> b -> c -> a", "m: b -> c -> b"]);
    assert!(cycles_among("m", &files[2..]).is_empty());
}

#[test]
fn the_layer_check_sees_an_upward_import() {
    let file =
        |module: &str, source: &str| (format!("{module}.rs"), module.to_owned(), source.to_owned());
    let files = [
        file("catalogue", "use crate::{markup, sim::Scenario};\nfn f() { crate::sim::run(); }"),
        file("markup", "// crate::ui is only a comment\nuse crate::sim::Trace;"),
        file("sim", "pub fn id() -> bool { crate::route::ok() }"),
    ];
    assert_eq!(
        upward(&files, LAYERS, "crate::"),
        vec![
            "markup.rs: `markup` names `sim`".to_owned(),
            "sim.rs: `sim` names `route`".to_owned()
        ]
    );
}

#[test]
fn every_note_key_the_code_names_has_an_english_template() {
    // `Note::english` renders an unknown key as an empty string, so a typo in a key would
    // show the learner nothing: every `"sim.…"` literal in the source must be a template.
    use fencing_playground::sim::event::NOTE_TEMPLATES;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut missing = Vec::new();
    let mut named = 0;
    for file in files {
        if file.ends_with("sim/event.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&file).expect("readable source");
        for (at, _) in source.match_indices("\"sim.") {
            let rest = &source[at + 1..];
            let Some(end) = rest.find('"') else { continue };
            let key = &rest[..end];
            named += 1;
            if !NOTE_TEMPLATES.iter().any(|(k, _)| *k == key) {
                missing.push(format!("{}: {key}", file.display()));
            }
        }
    }
    assert!(named >= 40, "only {named} note keys found: is the scan still reading the source?");
    assert!(missing.is_empty(), "note keys with no English template:\n{}", missing.join("\n"));
}

#[test]
fn the_codemap_names_only_paths_that_exist() {
    // ARCHITECTURE.md's codemap is how a newcomer finds things: a path it names that has
    // moved or gone would send them nowhere.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut checked = 0;
    let mut missing = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        // Odd parts are inside backticks.
        let looks_like_a_path = i % 2 == 1
            && (part.contains('/') || part.ends_with(".rs"))
            && !part.contains([' ', '<', '*', '#', '?', '=', '{', ':'])
            && !part.starts_with("http");
        if !looks_like_a_path {
            continue;
        }
        checked += 1;
        let path = part.trim_end_matches('/');
        if !root.join(path).exists() && !root.join("src").join(path).exists() {
            missing.push(part.to_owned());
        }
    }
    assert!(checked >= 20, "only {checked} paths found in ARCHITECTURE.md");
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn the_readme_is_short_and_reads_a_line_at_a_time() {
    // A newcomer's page: under 150 lines, none over 300 characters (the embed snippet that
    // tests/e2e/lms.cjs runs as written is the one exception, as the host page would have it).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let lines = text.lines().count();
    assert!(lines < 150, "README.md has {lines} lines");
    let mut in_snippet = false;
    let mut long = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("<!-- snippet:") {
            in_snippet = true;
        } else if in_snippet && line == "```" {
            in_snippet = false;
        } else if !in_snippet && line.chars().count() > 300 {
            long.push(i + 1);
        }
    }
    assert!(long.is_empty(), "README.md lines over 300 characters: {long:?}");
}
