//! A scenario as its file spells it: one flat object, the lesson's members and the
//! setup's side by side (`{"format": 1, "id": ..., "seed": ..., "workers": [...],
//! "narration": [...]}`), converted to and from [`Scenario`]'s two parts. The file names
//! each fault's worker and node; the conversion resolves those names to ids (refusing a
//! name the setup lacks, at its path), so the model is given ids only.
//!
//! Why a form rather than `#[serde(flatten)]`: flatten buffers the object through serde's
//! generic `Content` tree, which the baked lessons' format (postcard) cannot read and which
//! loses the unknown-member refusal. Owns the member names and their order in a written
//! file; no behaviour.

use serde::{Deserialize, Serialize};

use super::{Expected, Fact, Narration, Prompt, Rule, Scenario};
use crate::sim::scenario::{
    AlertRule, GatewaySetup, NamedFault, RedisSetup, ScenarioId, Setup, SqlSetup, TokenSource,
    WorkerSetup,
};

/// The file's object, read before its names are resolved ([`Scenario::from_file`]).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    format: u32,
    id: ScenarioId,
    title: String,
    #[serde(default)]
    chapter: String,
    #[serde(default)]
    summary: String,
    #[serde(default)]
    goal: String,
    seed: u64,
    until_ms: u64,
    redis: RedisSetup,
    #[serde(default)]
    tokens: TokenSource,
    sql: SqlSetup,
    #[serde(default)]
    gateway: GatewaySetup,
    alert: Option<AlertRule>,
    workers: Vec<WorkerSetup>,
    #[serde(default)]
    faults: Vec<NamedFault>,
    #[serde(default)]
    narration: Vec<Narration>,
    expect: Option<Expected>,
    #[serde(default)]
    prompts: Vec<Prompt>,
    #[serde(default)]
    claims: Vec<Fact>,
    #[serde(default)]
    rules: Vec<Rule>,
    /// None rather than "" when empty, so a written file leaves the member out.
    in_code: Option<String>,
}

impl Scenario {
    /// The scenario a file's object describes, with each fault's names resolved; refused
    /// as (path, message) when a fault names a worker or node the setup does not have.
    pub fn from_file(f: ScenarioFile) -> Result<Scenario, (String, String)> {
        let mut setup = Setup {
            seed: f.seed,
            until_ms: f.until_ms,
            redis: f.redis,
            tokens: f.tokens,
            sql: f.sql,
            gateway: f.gateway,
            alert: f.alert,
            workers: f.workers,
            faults: Vec::with_capacity(f.faults.len()),
        };
        for (i, fault) in f.faults.into_iter().enumerate() {
            let fault = fault
                .resolve(&setup)
                .map_err(|(member, why)| (format!("$.faults[{i}].{member}"), why))?;
            setup.faults.push(fault);
        }
        Ok(Scenario {
            format: f.format,
            id: f.id,
            title: f.title,
            chapter: f.chapter,
            summary: f.summary,
            goal: f.goal,
            setup,
            narration: f.narration,
            expect: f.expect,
            prompts: f.prompts,
            claims: f.claims,
            rules: f.rules,
            in_code: f.in_code.unwrap_or_default(),
        })
    }
}

impl From<Scenario> for ScenarioFile {
    fn from(s: Scenario) -> ScenarioFile {
        let faults = s.setup.faults.iter().map(|f| f.named(&s.setup)).collect();
        let Setup { seed, until_ms, redis, tokens, sql, gateway, alert, workers, faults: _ } =
            s.setup;
        ScenarioFile {
            format: s.format,
            id: s.id,
            title: s.title,
            chapter: s.chapter,
            summary: s.summary,
            goal: s.goal,
            seed,
            until_ms,
            redis,
            tokens,
            sql,
            gateway,
            alert,
            workers,
            faults,
            narration: s.narration,
            expect: s.expect,
            prompts: s.prompts,
            claims: s.claims,
            rules: s.rules,
            in_code: (!s.in_code.is_empty()).then_some(s.in_code),
        }
    }
}
