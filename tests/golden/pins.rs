// The pinned digests that both the native tests (tests/sim) and the browser tests (tests/ui)
// assert, kept in one place and included by both: native and wasm must agree on each.
// If one changes, the model's output changed: read the per-built-in diff in
// tests/golden/traces/ first (`cargo test --test sim golden`), then update it here.

/// `sim::Trace::digest` of gc-pause-fenced's run.
pub(crate) const GOLDEN_GC_PAUSE_FENCED: &str = "88571ae261000805";
/// FNV-1a over every built-in's JSON export, in catalogue order.
pub(crate) const GOLDEN_ALL_EXPORTS: &str = "f5376797a694c79e";
/// The explorer's log and exp over 10,000 inputs (`explore_fp`).
pub(crate) const GOLDEN_MATHS: &str = "8c2b6b09f8cdefde";
