//! The explorer's numbers for one seed, pinned: the browser test `tests/ui/explore.rs`
//! pins the same text, so native and wasm agree bit for bit.

use fencing_playground::explore::{
    CHUNK_TRIALS, Params, Run, fingerprint, maths_fingerprint, pinned_example,
};

#[test]
fn the_explorer_gives_the_pinned_numbers_for_seed_42() {
    let mut run = Run::new(pinned_example()).expect("valid parameters");
    while !run.is_done() {
        run.advance(1_000, 100);
    }
    assert_eq!(fingerprint(run.points()), PINNED);
}

const PINNED: &str =
    "2000/off:500,351,241,0;2000/on:500,351,0,241000;30000/off:500,13,11,0;30000/on:500,13,0,11000";

/// The sampler's `log` and `exp` bit for bit; `tests/ui/explore.rs` pins the same value in
/// the browser.
#[test]
fn the_samplers_maths_give_the_pinned_bits() {
    assert_eq!(format!("{:016x}", maths_fingerprint()), crate::determinism::GOLDEN_MATHS);
}

/// Past the first chunk (each point's second chunk draws from its own stream): the browser
/// test pins the same text, so the chunked path agrees natively and in wasm too.
#[test]
fn the_explorer_gives_the_pinned_numbers_past_the_first_chunk() {
    let mut run = Run::new(Params { trials: CHUNK_TRIALS + 100, ..pinned_example() }).unwrap();
    while !run.is_done() {
        run.advance(1_000, 100);
    }
    assert_eq!(fingerprint(run.points()), CHUNKED);
}

pub(crate) const CHUNKED: &str = "2000/off:10100,6932,4961,0;2000/on:10100,6932,0,4961000;30000/off:10100,195,176,0;30000/on:10100,195,0,176000";
