//! Build script: writes the built-in scenarios and the English messages into `OUT_DIR`
//! without the whitespace between JSON tokens, for `catalogue::builtin` and `i18n` to
//! compile in, and splits the English messages in two: the lab page's (keys starting with
//! `sandbox.`, `explore.` or `compare.`, in `en-lab.json`) and the rest (`en-main.json`),
//! so the main page carries only its own. The files in `static/` stay as written for the
//! course authors and translators who read them. Touches nothing outside `OUT_DIR`.

use std::path::Path;

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
    let source = Path::new("static/scenarios");
    println!("cargo::rerun-if-changed={}", source.display());
    let entries = std::fs::read_dir(source).expect("static/scenarios exists");
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("a scenario file is UTF-8 text");
            let name = path.file_name().expect("a file has a name");
            std::fs::write(target.join(name), strip_whitespace(&text))
                .expect("OUT_DIR is writable");
        }
    }
}

/// The message keys only the lab page's views use (see `i18n::EN_LAB`).
const LAB_PREFIXES: [&str; 3] = ["sandbox.", "explore.", "compare."];

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
