//! Consoles on the model: a Redis console speaking `redis-cli` syntax and replies. Pure:
//! the clock is an argument (`ADVANCE <ms>` moves it), and every input line is untrusted,
//! so nothing here panics on any text.

pub mod redis;
