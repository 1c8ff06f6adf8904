//! Redis Cluster's key slots: which of the 16,384 slots a key hashes to, and the
//! `CROSSSLOT` refusal of a request whose keys span more than one. It never routes a
//! request (the model's cluster is one shard that owns every slot), so a slot only decides
//! whether a multi-key request runs at all.

use super::Reply;

/// How many slots a Redis Cluster has.
pub const SLOTS: u16 = 16_384;

/// The slot `key` hashes to, as `CLUSTER KEYSLOT` answers: CRC16 (XMODEM) of the key, or of
/// its hash tag (the text between the first `{` and the next `}` when that is not empty),
/// modulo 16,384.
pub fn key_slot(key: &str) -> u16 {
    let bytes = key.as_bytes();
    let tagged = bytes.iter().position(|&b| b == b'{').and_then(|open| {
        let rest = &bytes[open + 1..];
        // An empty tag (`{}`) hashes the whole key, as Redis does.
        rest.iter().position(|&b| b == b'}').filter(|&len| len > 0).map(|len| &rest[..len])
    });
    crc16(tagged.unwrap_or(bytes)) % SLOTS
}

/// The error a cluster node answers a request whose keys hash to different slots with, or
/// `None` when they share one (or there are fewer than two).
pub fn cross_slot(keys: &[impl AsRef<str>]) -> Option<Reply> {
    let mut slots = keys.iter().map(|k| key_slot(k.as_ref()));
    let first = slots.next()?;
    slots
        .any(|slot| slot != first)
        .then(|| Reply::error("CROSSSLOT Keys in request don't hash to the same slot"))
}

fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &byte in bytes {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc16_matches_the_cluster_specification_check_value() {
        // The Redis Cluster specification gives CRC16("123456789") = 0x31C3.
        assert_eq!(crc16(b"123456789"), 0x31C3);
    }

    #[test]
    fn hash_tags_put_keys_in_one_slot_and_plain_keys_apart() {
        assert_eq!(key_slot("lock:{order:42}"), key_slot("fence:{order:42}"));
        assert_eq!(key_slot("lock:{order:42}"), key_slot("order:42"));
        assert_ne!(key_slot("lock:order:42"), key_slot("fence:order:42"));
        // Only the first `{...}` counts; an empty one hashes the whole key.
        assert_eq!(key_slot("a{x}{y}"), key_slot("x"));
        assert_eq!(key_slot("{}x"), crc16(b"{}x") % SLOTS);
        assert_eq!(key_slot("{x"), crc16(b"{x") % SLOTS);
    }

    #[test]
    fn cross_slot_refuses_only_keys_in_two_slots() {
        assert_eq!(cross_slot(&[] as &[&str]), None);
        assert_eq!(cross_slot(&["lock:order:42"]), None);
        assert_eq!(cross_slot(&["lock:{order:42}", "fence:{order:42}"]), None);
        let refused = cross_slot(&["lock:order:42", "fence:order:42"]);
        assert_eq!(
            refused,
            Some(Reply::error("CROSSSLOT Keys in request don't hash to the same slot"))
        );
    }
}
