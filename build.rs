//! Build script: bakes what the pages carry compiled in, so no page parses it at run time.
//! It reads the files in `static/` with serde_json and writes into `OUT_DIR`: the English
//! messages as Rust data in three parts, the explorer page's (keys starting with
//! `explore.`, `en_explore.rs`), the lab page's (`sandbox.`, `compare.`, `export.`, `quiz.`,
//! `course.` or `handout.`, `en_lab.rs`) and the rest (`en_main.rs`); the built-in
//! scenarios as compact JSON in the order of `static/scenarios/curriculum.txt`
//! (`builtin_files.rs`, for the native tools, the tests and the lab page) and their
//! catalogue index as Rust data (`index.rs`: what the home page's cards show), so the main
//! page carries only its own; the other JSON files the site serves (language packs, the
//! glossary, the quiz), compact (`fetched.rs`); and the timeline's rules from
//! `static/style.css` with the light theme's colours filled in (`svg-style.css`), which the
//! lab's SVG export puts inside the file. It is the one place the site's JSON loses its
//! whitespace: `fence bake` (a trunk hook) writes the compact scenarios and `fetched.rs`'s
//! files over the indented copies trunk stages. The files in `static/` stay as written for
//! the course authors and translators who read them. Touches nothing outside `OUT_DIR`.

use std::path::Path;

use serde_json::{Map, Value};

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out = Path::new(&out_dir);
    let target = out.join("scenarios");
    std::fs::create_dir_all(&target).expect("OUT_DIR is writable");
    let english = Path::new("static/i18n/en.json");
    println!("cargo::rerun-if-changed={}", english.display());
    let text = std::fs::read_to_string(english).expect("static/i18n/en.json is UTF-8 text");
    // A malformed pack bakes as no messages; the native i18n test names the problem.
    let messages: Map<String, Value> = serde_json::from_str(&text).unwrap_or_default();
    let (explore, rest): (Vec<_>, Vec<_>) = messages
        .iter()
        .filter_map(|(key, value)| Some((key.as_str(), value.as_str()?)))
        .partition(|(key, _)| key.starts_with(EXPLORE_PREFIX));
    let (lab, main): (Vec<_>, Vec<_>) =
        rest.into_iter().partition(|(key, _)| LAB_PREFIXES.iter().any(|p| key.starts_with(p)));
    let tables = [
        ("en_main.rs", "EN_MAIN", main),
        ("en_lab.rs", "EN_LAB", lab),
        ("en_explore.rs", "EN_EXPLORE", explore),
    ];
    // One string per table, each member `key US text RS` (the ASCII unit and record
    // separators, which no message contains): a table of string slices would carry 16
    // bytes of addresses per message, which do not compress (see `i18n::english`).
    for (name, constant, members) in tables {
        let mut table = String::new();
        for (key, value) in members {
            table.push_str(&format!("{key}\u{1f}{value}\u{1e}"));
        }
        let code = format!("pub static {constant}: &str = {table:?};\n");
        std::fs::write(out.join(name), code).expect("OUT_DIR is writable");
    }
    let style = Path::new("static/style.css");
    println!("cargo::rerun-if-changed={}", style.display());
    let css = std::fs::read_to_string(style).expect("static/style.css is UTF-8 text");
    std::fs::write(out.join("svg-style.css"), svg_style(&css)).expect("OUT_DIR is writable");
    let source = Path::new("static/scenarios");
    println!("cargo::rerun-if-changed={}", source.display());
    let curriculum = source.join("curriculum.txt");
    let order = std::fs::read_to_string(&curriculum).expect("static/scenarios/curriculum.txt");
    // A line `* <id>` puts the lesson on the core path ("start here").
    let lines: Vec<(&str, bool)> = order
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.strip_prefix("* ").map_or((l, false), |id| (id.trim(), true)))
        .collect();
    let mut files = String::from("/// The JSON text of each built-in, in curriculum order.\n");
    files.push_str("pub const FILES: &[(&str, &str)] = &[\n");
    let mut index = String::new();
    for (id, core) in &lines {
        let path = source.join(format!("{id}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} (listed in curriculum.txt): {e}", path.display()));
        // Compact JSON with the members in their written order (serde_json's
        // `preserve_order`); a file that does not parse is compiled in as written and gets
        // no card: the native tests name the problem.
        let root: Option<Value> = serde_json::from_str(&text).ok();
        let compact = compact(&text);
        std::fs::write(target.join(format!("{id}.json")), &compact).expect("OUT_DIR is writable");
        files.push_str(&format!(
            "    (\"{id}\", include_str!(concat!(env!(\"OUT_DIR\"), \"/scenarios/{id}.json\"))),\n"
        ));
        if let Some(root) = &root {
            index.push_str(&card(root, *core));
        }
    }
    files.push_str("];\n");
    std::fs::write(out.join("builtin_files.rs"), files).expect("OUT_DIR is writable");
    let index = format!("pub static INDEX: &str = {index:?};\n");
    std::fs::write(out.join("index.rs"), index).expect("OUT_DIR is writable");
    fetched(out);
    challenges(out);
}

/// The challenges (`static/challenges/*.json`, in the order of `order.txt`), compact, for
/// the pages that grade them (`challenge_files.rs`), and each one's id, kind and the
/// title and the lessons it practises for the pages that link to them
/// (`challenge_index.rs`).
fn challenges(out: &Path) {
    let dir = Path::new("static/challenges");
    println!("cargo::rerun-if-changed={}", dir.display());
    let order =
        std::fs::read_to_string(dir.join("order.txt")).expect("static/challenges/order.txt");
    let ids: Vec<&str> =
        order.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let mut files = String::from("/// Each challenge's file, compact, in the chapter's order.\n");
    files.push_str("pub(super) const FILES: &[(&str, &str)] = &[\n");
    let mut index = String::from(
        "/// Each challenge: its id, its kind, its title, the lessons it practises.\n",
    );
    index.push_str("pub(super) const INDEX: &[(&str, &str, &str, &[&str])] = &[\n");
    for id in ids {
        let path = dir.join(format!("{id}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} (listed in order.txt): {e}", path.display()));
        files.push_str(&format!("    ({id:?}, {:?}),\n", compact(&text)));
        // A file that does not parse gets no entry in the index: the native test names it.
        let root: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let kind = root["kind"].as_str().unwrap_or("");
        let title = root["title"].as_str().unwrap_or("");
        let practises: Vec<String> = root["practises"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(|p| format!("{p:?}")).collect())
            .unwrap_or_default();
        index.push_str(&format!(
            "    ({id:?}, {kind:?}, {title:?}, &[{}]),\n",
            practises.join(", ")
        ));
    }
    files.push_str("];\n");
    index.push_str("];\n");
    std::fs::write(out.join("challenge_files.rs"), files).expect("OUT_DIR is writable");
    std::fs::write(out.join("challenge_index.rs"), index).expect("OUT_DIR is writable");
}

/// JSON text without whitespace, the members in their written order (serde_json's
/// `preserve_order`); a text that does not parse is kept as written, for a test or
/// `fence bake` to name the problem. The one minifier of the built site's JSON: the
/// scenarios compiled in are these texts, and `fence bake` writes them and `fetched`'s.
fn compact(text: &str) -> String {
    serde_json::from_str::<Value>(text).map_or_else(|_| text.to_owned(), |v| v.to_string())
}

/// The other JSON files the main page's build puts in the site (the language packs and
/// the glossary in `i18n/`, the quiz's questions), compacted for `fence bake` to write over
/// the indented copies trunk stages (`fetched.rs`: each path in the site and its text).
fn fetched(out: &Path) {
    let packs = Path::new("static/i18n");
    println!("cargo::rerun-if-changed={}", packs.display());
    println!("cargo::rerun-if-changed=static/quiz.json");
    let mut names: Vec<String> = std::fs::read_dir(packs)
        .expect("static/i18n is a folder")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .map(|name| format!("i18n/{name}"))
        .collect();
    names.sort();
    names.push("quiz.json".to_owned());
    std::fs::create_dir_all(out.join("fetched/i18n")).expect("OUT_DIR is writable");
    let mut list = String::from(
        "/// Each JSON file the pages fetch, by its path in the site, without whitespace.\n",
    );
    list.push_str("const FETCHED: &[(&str, &str)] = &[\n");
    for name in &names {
        let path = Path::new("static").join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        std::fs::write(out.join("fetched").join(name), compact(&text))
            .expect("OUT_DIR is writable");
        list.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/fetched/{name}\"))),\n"
        ));
    }
    list.push_str("];\n");
    std::fs::write(out.join("fetched.rs"), list).expect("OUT_DIR is writable");
}

/// The message keys only the lab page's views use (see `i18n::EN_LAB`).
const LAB_PREFIXES: [&str; 7] =
    ["sandbox.", "compare.", "export.", "quiz.", "course.", "handout.", "challenge."];

/// The message keys only the explorer page's views use (the risk explorer and the schedule
/// search, see `i18n::EN_EXPLORE`): a table of their own, so the lab's bundle, which links
/// to those views but does not show them, does not carry their text.
const EXPLORE_PREFIX: &str = "explore.";

/// The rules between `/* timeline: start */` and `/* timeline: end */` in the stylesheet,
/// with each `var(--name)` replaced by the value the first `:root` block gives it (the
/// light theme), so a saved SVG looks as it does on the page without the page.
fn svg_style(css: &str) -> String {
    let section = css
        .split_once("/* timeline: start */")
        .and_then(|(_, rest)| rest.split_once("/* timeline: end */"))
        .map_or("", |(rules, _)| rules);
    let root = css.split_once(":root {").and_then(|(_, r)| r.split_once('}')).map_or("", |r| r.0);
    let mut out = section.to_owned();
    for declaration in root.split(';') {
        if let Some((name, value)) = declaration.trim().split_once(':')
            && name.starts_with("--")
        {
            out = out.replace(&format!("var({name})"), value.trim());
        }
    }
    out.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

/// One card of the catalogue index (`catalogue::INDEX`), a line: what the home page shows
/// of a scenario without carrying (or parsing) the whole lesson. A tab or a line break in
/// the text would split the card, so each becomes a space. After the goal: `*` for a
/// lesson on the core path, and the minutes it takes (see `minutes`).
fn card(root: &Value, core: bool) -> String {
    let text = |key: &str| {
        let value = root.get(key).and_then(Value::as_str).unwrap_or_default();
        value.replace(['\t', '\n'], " ")
    };
    let core = if core { "*" } else { "" };
    format!(
        "{}\t{}\t{}\t{}\t{core}\t{}\n",
        text("id"),
        text("title"),
        text("chapter"),
        text("goal"),
        minutes(root)
    )
}

/// About how long a lesson takes, in whole minutes: 20 s to read each paragraph of its
/// story against the drawing, 40 s to think over each prediction, and a minute for the
/// summary and a what-if (docs/scenario-format.md says so to authors).
fn minutes(root: &Value) -> u64 {
    let count = |key: &str| root.get(key).and_then(Value::as_array).map_or(0, Vec::len) as u64;
    let seconds = 20 * count("narration") + 40 * count("prompts");
    1 + seconds.div_ceil(60)
}
