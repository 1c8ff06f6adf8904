//! How a fencing token is shown: a number for counters, a UUID-like hex string for random
//! tokens. Display only; tokens stay `i64` inside the model (never a float, never a JS number).

use crate::sim::scenario::TokenSource;

/// The token as a learner reads it: `33`, or `31e5f0f2-2c99-46eb` for a random token.
pub fn token_text(source: TokenSource, token: i64) -> String {
    match source {
        TokenSource::Uuid => {
            // The model keeps the leading 63 bits of a random UUID; PostgreSQL orders uuid
            // values byte by byte from the left, so these bits decide the comparison.
            let hex = format!("{:016x}", token);
            format!("{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16])
        }
        _ => token.to_string(),
    }
}

/// A token back from its text (`token_text`'s inverse), as a row's `last_fence` holds it.
pub fn token_from_text(source: TokenSource, text: &str) -> Option<i64> {
    match source {
        TokenSource::Uuid => {
            let hex: String = text.chars().filter(|&c| c != '-').collect();
            u64::from_str_radix(&hex, 16).ok().and_then(|n| i64::try_from(n).ok())
        }
        _ => text.parse().ok(),
    }
}

/// The token as a SQL literal.
pub fn token_sql(source: TokenSource, token: i64) -> String {
    match source {
        TokenSource::Uuid => format!("'{}'", token_text(source, token)),
        _ => token.to_string(),
    }
}
