//! How a fencing token is shown: a number for counters, a version-4 UUID for random
//! tokens. Display only; tokens stay `i64` inside the model (never a float, never a JS number).

use crate::sim::scenario::TokenSource;

/// The token as a learner reads it: `33`, or a version-4 UUID for a random token, such
/// as `63cbe1e4-5932-40dd-86fa-7a027982440c`; 0, the value a row starts with, is the nil
/// UUID.
pub fn token_text(source: TokenSource, token: i64) -> String {
    match source {
        TokenSource::Uuid if token == 0 => "00000000-0000-0000-0000-000000000000".to_owned(),
        TokenSource::Uuid => {
            // The token is the UUID's 60 leading random bits: 48 before the version digit
            // (4) and 12 after it. PostgreSQL orders uuid values byte by byte from the
            // left, so these bits decide every comparison, and tokens compare as the
            // UUIDs do. The other 62 random bits follow from the token, so one token is
            // always shown as the same UUID; the variant bits are 10.
            let bits = token as u64;
            let tail = mix(bits);
            let variant = (tail >> 48) & 0x3fff | 0x8000;
            format!(
                "{:08x}-{:04x}-4{:03x}-{variant:04x}-{:012x}",
                bits >> 28,
                (bits >> 12) & 0xffff,
                bits & 0xfff,
                tail & 0xffff_ffff_ffff
            )
        }
        _ => token.to_string(),
    }
}

/// A token back from its text (`token_text`'s inverse), as a row's `last_fence` holds it.
pub fn token_from_text(source: TokenSource, text: &str) -> Option<i64> {
    match source {
        TokenSource::Uuid => {
            // The 60 token bits: the 12 digits before the version digit and the 3 after it
            // (`xxxxxxxx-xxxx-4xxx-...`).
            let digits = |range| text.get(range).and_then(|h| u64::from_str_radix(h, 16).ok());
            let bits = (digits(0..8)? << 28) | (digits(9..13)? << 12) | digits(15..18)?;
            i64::try_from(bits).ok()
        }
        _ => text.parse().ok(),
    }
}

/// SplitMix64's finaliser: spreads a token's bits over the rest of its UUID.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The token as a SQL literal.
pub fn token_sql(source: TokenSource, token: i64) -> String {
    match source {
        TokenSource::Uuid => format!("'{}'", token_text(source, token)),
        _ => token.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_token_is_a_version_4_uuid_that_orders_as_the_token_does() {
        let tokens = [1_i64, 0xfff, 0x1000, 449_443_100_055_773_405, (1 << 60) - 1];
        for t in tokens {
            let text = token_text(TokenSource::Uuid, t);
            assert_eq!(text.len(), 36, "{text}");
            let hex: Vec<char> = text.chars().filter(|&c| c != '-').collect();
            assert_eq!(hex.len(), 32, "{text}");
            assert_eq!(hex[12], '4', "version digit of {text}");
            assert!(matches!(hex[16], '8' | '9' | 'a' | 'b'), "variant of {text}");
            assert_eq!(token_from_text(TokenSource::Uuid, &text), Some(t));
        }
        for pair in tokens.windows(2) {
            let (a, b) =
                (token_text(TokenSource::Uuid, pair[0]), token_text(TokenSource::Uuid, pair[1]));
            assert!(a < b, "{a} should sort below {b}");
        }
        let nil = token_text(TokenSource::Uuid, 0);
        assert_eq!(nil, "00000000-0000-0000-0000-000000000000");
        assert_eq!(token_from_text(TokenSource::Uuid, &nil), Some(0));
        assert_eq!(token_text(TokenSource::RedisIncr, 33), "33");
    }
}
