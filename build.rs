//! Build script: writes the built-in scenarios and the English messages into `OUT_DIR`
//! without the whitespace between JSON tokens, for `catalogue::builtin` and `i18n` to
//! compile in, and splits the English messages in two: the lab page's (keys starting with
//! `sandbox.`, `explore.`, `compare.`, `export.`, `quiz.`, `course.` or `handout.`, in `en-lab.json`) and the rest (`en-main.json`),
//! lists the built-ins in the order of `static/scenarios/curriculum.txt` (`builtin_files.rs`)
//! and writes their catalogue index (`index.json`: what the home page's cards show),
//! so the main page carries only its own; and it writes the timeline's rules from
//! `static/style.css` with the light theme's colours filled in (`svg-style.css`), which the
//! lab's SVG export puts inside the file. The files in `static/` stay as written for the
//! course authors and translators who read them. Touches nothing outside `OUT_DIR`.

use std::path::Path;

// The crate's own JSON reader and writer (plain std Rust), shared rather than copied.
#[allow(dead_code, unreachable_pub)]
#[path = "src/json.rs"]
mod json;

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let target = Path::new(&out_dir).join("scenarios");
    std::fs::create_dir_all(&target).expect("OUT_DIR is writable");
    let english = Path::new("static/i18n/en.json");
    println!("cargo::rerun-if-changed={}", english.display());
    let text = std::fs::read_to_string(english).expect("static/i18n/en.json is UTF-8 text");
    let (lab, main): (Vec<_>, Vec<_>) = flat_members(&strip_whitespace(&text))
        .into_iter()
        .partition(|(key, _)| LAB_PREFIXES.iter().any(|p| key.starts_with(&format!("\"{p}"))));
    for (name, members) in [("en-main.json", main), ("en-lab.json", lab)] {
        let object: Vec<String> = members.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        std::fs::write(Path::new(&out_dir).join(name), format!("{{{}}}", object.join(",")))
            .expect("OUT_DIR is writable");
    }
    let style = Path::new("static/style.css");
    println!("cargo::rerun-if-changed={}", style.display());
    let css = std::fs::read_to_string(style).expect("static/style.css is UTF-8 text");
    std::fs::write(Path::new(&out_dir).join("svg-style.css"), svg_style(&css))
        .expect("OUT_DIR is writable");
    let source = Path::new("static/scenarios");
    println!("cargo::rerun-if-changed={}", source.display());
    let curriculum = source.join("curriculum.txt");
    let order = std::fs::read_to_string(&curriculum).expect("static/scenarios/curriculum.txt");
    let ids: Vec<&str> =
        order.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let mut files = String::from("/// The JSON text of each built-in, in curriculum order.\n");
    files.push_str("pub const FILES: &[(&str, &str)] = &[\n");
    let mut index = Vec::new();
    for id in &ids {
        let path = source.join(format!("{id}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} (listed in curriculum.txt): {e}", path.display()));
        let compact = strip_whitespace(&text);
        std::fs::write(target.join(format!("{id}.json")), &compact).expect("OUT_DIR is writable");
        files.push_str(&format!(
            "    (\"{id}\", include_str!(concat!(env!(\"OUT_DIR\"), \"/scenarios/{id}.json\"))),\n"
        ));
        // A file that does not parse gets no card; the native tests name the problem.
        if let Ok(root) = json::parse(&compact) {
            index.push(index_entry(&root));
        }
    }
    files.push_str("];\n");
    std::fs::write(Path::new(&out_dir).join("builtin_files.rs"), files)
        .expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out_dir).join("index.json"), json::Out::Arr(index).compact())
        .expect("OUT_DIR is writable");
}

/// The message keys only the lab page's views use (see `i18n::EN_LAB`).
const LAB_PREFIXES: [&str; 7] =
    ["sandbox.", "explore.", "compare.", "export.", "quiz.", "course.", "handout."];

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

/// The members of a flat JSON object of strings without whitespace, each as its raw key
/// and value text (quotes and escapes kept). A malformed file yields what could be read;
/// the native i18n test parses the result and fails on anything missing.
fn flat_members(json: &str) -> Vec<(String, String)> {
    let mut members = Vec::new();
    let mut rest = json.strip_prefix('{').unwrap_or(json);
    while let Some(key) = string_token(rest) {
        rest = &rest[key.len()..];
        let Some(after_colon) = rest.strip_prefix(':') else { break };
        let Some(value) = string_token(after_colon) else { break };
        members.push((key.to_owned(), value.to_owned()));
        rest = &after_colon[value.len()..];
        rest = rest.strip_prefix(',').unwrap_or(rest);
    }
    members
}

/// The JSON string at the start of `text`, quotes included.
fn string_token(text: &str) -> Option<&str> {
    if !text.starts_with('"') {
        return None;
    }
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return Some(&text[..=i]),
            _ => {}
        }
    }
    None
}

/// Drops whitespace outside JSON strings. The loader sees the same tokens, so a file that
/// is valid (or invalid) stays so, with the same values.
fn strip_whitespace(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_ascii_whitespace() {
            out.push(c);
        }
    }
    out
}

/// One card of the catalogue index: what the home page shows of a scenario without
/// carrying (or parsing) the whole lesson.
fn index_entry(root: &json::Node) -> json::Out {
    let text = |node: &json::Node, key: &str| -> String {
        match &node.value {
            json::Value::Object(members) => members
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| match &v.value {
                    json::Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .unwrap_or_default(),
            _ => String::new(),
        }
    };
    let expect = match &root.value {
        json::Value::Object(members) => members.iter().find(|(k, _)| k == "expect").map(|(_, v)| v),
        _ => None,
    };
    // The badge's tone, as `Expected::is_bad` decides it: the author's `bad`, else a
    // violation or a liveness warning.
    let bad = expect.is_some_and(|e| match &e.value {
        json::Value::Object(members) => {
            let member = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| &v.value);
            let listed = |name: &str| matches!(member(name), Some(json::Value::Array(items)) if !items.is_empty());
            match member("bad") {
                Some(json::Value::Bool(said)) => *said,
                _ => listed("violations") || listed("warnings"),
            }
        }
        _ => false,
    });
    json::Out::Obj(vec![
        ("id", json::Out::Str(text(root, "id"))),
        ("title", json::Out::Str(text(root, "title"))),
        ("chapter", json::Out::Str(text(root, "chapter"))),
        ("goal", json::Out::Str(text(root, "goal"))),
        ("badge", json::Out::Str(expect.map(|e| text(e, "badge")).unwrap_or_default())),
        ("bad", json::Out::Bool(bad)),
    ])
}
