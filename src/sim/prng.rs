//! The one source of randomness in the model: a seeded SplitMix64 stream.
//!
//! Owns every random draw the simulator makes; it must never read OS entropy, a clock or
//! floats, so a seed replays a run bit for bit on every platform.

/// A SplitMix64 generator (Steele, Lea and Flood, 2014): tiny, fast, and good enough to
/// draw schedules and identifiers; it is not cryptographic and does not need to be.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Prng {
    state: u64,
}

impl Prng {
    pub fn new(seed: u64) -> Prng {
        Prng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound`, without modulo bias (Lemire's multiply-shift with rejection).
    /// `bound` must be positive.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "Prng::below needs a positive bound");
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            // The low half below the threshold would over-represent small results.
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// A value in `low..=high` (inclusive); `low` must not exceed `high`.
    pub fn range_inclusive(&mut self, low: u64, high: u64) -> u64 {
        assert!(low <= high, "Prng::range_inclusive needs low <= high");
        match (high - low).checked_add(1) {
            Some(span) => low + self.below(span),
            None => self.next_u64(),
        }
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }

    /// A child stream, so that adding draws to one component does not shift another's.
    pub fn split(&mut self) -> Prng {
        Prng::new(self.next_u64())
    }

    /// Lower-case hexadecimal text of `n_bytes` random bytes (lock values, idempotency keys).
    pub fn hex(&mut self, n_bytes: usize) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(n_bytes * 2);
        let mut word = 0u64;
        for i in 0..n_bytes {
            if i % 8 == 0 {
                word = self.next_u64();
            }
            let byte = (word >> ((i % 8) * 8)) as u8;
            text.push(char::from(DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::Prng;

    #[test]
    fn known_sequence_for_seed_zero() {
        // Reference values of SplitMix64 from seed 0, as published with the algorithm.
        let mut prng = Prng::new(0);
        assert_eq!(prng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(prng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(prng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut prng = Prng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6_000 {
            let v = prng.below(6);
            seen[v as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1_200), "{seen:?}");
        assert_eq!(prng.range_inclusive(5, 5), 5);
        assert_eq!(Prng::new(1).hex(20).len(), 40);
    }
}
