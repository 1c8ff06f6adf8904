//! Redis Cluster's key slots: the model's slot of a key and its `CROSSSLOT` refusal of the
//! acquire script, against a real node started with `cluster-enabled yes` that owns every
//! slot (as the model's cluster does).

use fencing_playground::sim::prng::Prng;
use fencing_playground::sim::redis::Reply;
use fencing_playground::sim::redis::slot::{cross_slot, key_slot};
use fencing_playground::sim::script::Script;

use crate::resp::Conn;

fn port() -> u16 {
    std::env::var("REDIS_CLUSTER_PORT").ok().and_then(|p| p.parse().ok()).expect(
        "REDIS_CLUSTER_PORT is not set: run scripts/test, which starts a cluster node, or set it",
    )
}

fn args(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|p| (*p).to_owned()).collect()
}

#[test]
fn key_slots_match_cluster_keyslot() {
    let mut conn = Conn::connect_cluster(port());
    let mut keys: Vec<String> = [
        "lock:order:42",
        "fence:order:42",
        "lock:{order:42}",
        "fence:{order:42}",
        "order:42",
        "123456789",
        "{}x",
        "{x",
        "x}",
        "a{x}{y}",
        "a{}b{c}",
        "{{x}}",
        "é{ü}",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    // Random keys over an alphabet heavy in braces, where the hash-tag rule has its cases.
    let mut prng = Prng::new(0x5107);
    let alphabet = ['{', '}', 'a', 'b', ':', '4', '2'];
    for _ in 0..300 {
        let len = prng.below(10) as usize;
        keys.push((0..len).map(|_| alphabet[prng.below(alphabet.len() as u64) as usize]).collect());
    }
    let mut differ = Vec::new();
    for key in &keys {
        let real = conn.call(&args(&["CLUSTER", "KEYSLOT", key]));
        if real != Reply::Int(i64::from(key_slot(key))) {
            differ.push(format!("{key:?}: model {}, server {real:?}", key_slot(key)));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} keys differ:\n{}",
        differ.len(),
        keys.len(),
        differ.join("\n")
    );
}

#[test]
fn the_acquire_script_is_refused_across_slots_and_runs_within_one() {
    let mut conn = Conn::connect_cluster(port());
    for (lock, fence) in
        [("lock:order:42", "fence:order:42"), ("lock:{order:42}", "fence:{order:42}")]
    {
        conn.call(&args(&["DEL", lock]));
        let real =
            conn.call(&args(&["EVAL", Script::Acquire.body(), "2", lock, fence, "A-1", "30000"]));
        match cross_slot(&[lock, fence]) {
            Some(refusal) => assert_eq!(real, refusal, "{lock} {fence}"),
            None => {
                assert!(
                    matches!(&real, Reply::Array(items) if items.first() == Some(&Reply::Int(1))),
                    "{lock} {fence}: {real:?}"
                );
                conn.call(&args(&["DEL", lock, fence]));
            }
        }
    }
}
