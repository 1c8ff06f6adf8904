//! Consoles on the model: a Redis console speaking `redis-cli` syntax and replies, and a
//! SQL console on a small PostgreSQL-subset engine printing what psql prints. Pure:
//! the clock is an argument (`ADVANCE <ms>` moves it), and every input line is untrusted,
//! so nothing here panics on any text.

pub mod line;
pub mod redis;
pub mod sql;
