//! Conformance: the model against real Redis 7 and PostgreSQL 15, line by line.
//! Needs servers: `scripts/test` starts them and sets REDIS_PORT and PG_PORT; run alone with
//! `REDIS_PORT=6390 PG_PORT=5432 cargo test --test conformance`. Not part of a plain
//! `cargo test`.

use std::path::{Path, PathBuf};

mod cluster;
mod redis;
mod resp;
mod sql;
mod trace_sql;

/// The scripts of one corpus folder, sorted by name, each as its non-blank lines without
/// comment lines (those starting with `comment`).
pub(crate) fn corpus(folder: &str, comment: &str) -> Vec<(PathBuf, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance").join(folder);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let lines = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with(comment))
                .map(str::to_owned)
                .collect();
            (path, lines)
        })
        .collect()
}

/// Runs every script of a corpus through `run` (model and server), returns how many lines
/// were compared, and fails listing every script that differs (by file stem).
pub(crate) fn check_corpus(
    corpus: &[(PathBuf, Vec<String>)],
    mut run: impl FnMut(&str, &[String]) -> Result<usize, String>,
) -> usize {
    let mut failures = Vec::new();
    let mut compared = 0;
    for (path, lines) in corpus {
        let name = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match run(&name, lines) {
            Ok(n) => compared += n,
            Err(diff) => failures.push(format!("{name}:\n  {diff}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scripts differ:\n{}",
        failures.len(),
        corpus.len(),
        failures.join("\n")
    );
    compared
}
