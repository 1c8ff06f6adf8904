//! Conformance: the model against real Redis 7 (and later PostgreSQL 15), line by line.
//! Needs servers: `scripts/test` starts them and sets REDIS_PORT; run alone with
//! `REDIS_PORT=6390 cargo test --test conformance`. Not part of a plain `cargo test`.

mod redis;
mod resp;
mod sql;
