use super::parse_scenario;

/// A small valid file, laid out so the tests can point at its lines.
const GOOD: &str = r#"{
  "format": 1,
  "id": "tiny",
  "title": "Tiny",
  "seed": 1,
  "until_ms": 60000,
  "redis": { "nodes": [{ "name": "redis" }], "lock_key": "lock", "fence_key": "fence" },
  "sql": { "order_id": 42 },
  "workers": [
    {
      "name": "A",
      "program": [
        { "do": "acquire", "ttl_ms": 30000 },
        { "do": "compute", "ms": 1000 },
        { "do": "write" }
      ]
    }
  ],
  "faults": [{ "fault": "pause", "worker": "A", "at_ms": 1000, "pause_ms": 39000 }]
}"#;

fn error_of(text: &str) -> String {
    match parse_scenario(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_built_in_parses() {
    assert_eq!(parse_scenario(GOOD).map(|s| s.id.to_string()), Ok("tiny".to_owned()));
}

#[test]
fn errors_name_the_path_line_and_expectation() {
    let bad = GOOD.replacen("\"ttl_ms\": 30000", "\"ttl_ms\": \"thirty\"", 1);
    let text = error_of(&bad);
    assert_eq!(
        text,
        "$.workers[0].program[0].ttl_ms (line 13, column 45): expected a whole number of 0 or more, found the text \"thirty\""
    );

    let text = error_of(&GOOD.replacen("\"do\": \"compute\"", "\"do\": \"teleport\"", 1));
    assert!(
        text.starts_with("$.workers[0].program[1].do (line 14, ")
            && text.contains("unknown value `teleport`, expected one of: acquire"),
        "{text}"
    );

    let text = error_of(&GOOD.replacen("\"seed\": 1,", "\"seed\": 1, \"colour\": 3,", 1));
    assert!(
        text.starts_with("$.colour (line 5, column ")
            && text.contains("unknown field `colour`, expected one of `format`"),
        "{text}"
    );
    // The id is a type of its own: a file whose id breaks the rule is refused where the id is.
    assert_eq!(
        error_of(&GOOD.replacen("\"id\": \"tiny\"", "\"id\": \"Tiny Lesson\"", 1)),
        "$.id (line 3, column 21): an id is 1 to 64 lower-case letters, digits and dashes"
    );
    let text = error_of(&GOOD.replacen("\"lock_key\": \"lock\", ", "", 1));
    assert!(
        text.starts_with("$.redis (line 7, ") && text.contains("missing field `lock_key`"),
        "{text}"
    );
}

#[test]
fn a_member_the_kind_does_not_take_is_named_and_pointed_at() {
    // serde knows only the end of the step's object (the next step's line in this file);
    // the refusal names the member and its own line.
    let bad = GOOD.replacen("\"ttl_ms\": 30000 }", "\"ttl_ms\": 30000,\n          \"ms\": 5 }", 1);
    assert_eq!(
        error_of(&bad),
        "$.workers[0].program[0].ms (line 14, column 11): unknown field `ms` for `acquire`, expected one of `do`, `how`, `ttl_ms`, `retry_every_ms`, `attempts`"
    );
    let bad =
        GOOD.replacen("{ \"do\": \"write\" }", "{ \"do\": \"write\", \"how\": \"gently\" }", 1);
    let text = error_of(&bad);
    assert!(
        text.starts_with(
            "$.workers[0].program[2].how (line 15, column 26): unknown value `gently`, expected one of: fenced"
        ),
        "{text}"
    );
    // A text cut short says so, without serde's jargon.
    let text = error_of(&GOOD[..GOOD.len() - 40]);
    assert!(
        text.contains("the text ends in the middle of") && text.contains("cut short"),
        "{text}"
    );
    assert!(!text.contains(".?"), "{text}");
}

#[test]
fn truncated_malformed_and_absurd_files_are_refused() {
    for cut in [0, 1, 10, GOOD.len() / 2, GOOD.len() - 3] {
        let text = error_of(&GOOD[..cut]);
        assert!(text.contains("line") || text.starts_with('$'), "{text}");
    }
    assert!(error_of("[1, 2, 3]").starts_with('$'));
    assert!(error_of("null").starts_with('$'));
    assert!(error_of(&" ".repeat(300 * 1024)).contains("at most"));
    let huge = GOOD.replacen("\"until_ms\": 60000", "\"until_ms\": 99999999999", 1);
    assert!(error_of(&huge).starts_with("$.until_ms"));
    let ghost = GOOD.replacen(
        "\"worker\": \"A\", \"at_ms\": 1000",
        "\"worker\": \"Z\", \"at_ms\": 1000",
        1,
    );
    // Where, and which names there are.
    let ghost = error_of(&ghost);
    assert!(ghost.starts_with("$.faults[0].worker"), "{ghost}");
    assert!(ghost.contains("no worker is called \u{201c}Z\u{201d} (workers: A"), "{ghost}");
}

#[test]
fn a_newer_format_gets_a_clear_message() {
    let newer = GOOD.replacen("\"format\": 1", "\"format\": 2", 1);
    let text = error_of(&newer);
    assert!(text.contains("format 2") && text.contains("newer version"), "{text}");
    // Said where the version is, line and column included.
    assert!(text.starts_with("$.format (line 2, column "), "{text}");
    assert!(
        error_of(&GOOD.replacen("\"format\": 1", "\"format\": \"one\"", 1)).starts_with("$.format")
    );
}

#[test]
fn an_alert_rule_needs_a_window_and_a_share_from_1_to_100_percent() {
    let with = |rule: &str| {
        GOOD.replacen("\"workers\":", &format!("\"alert\": {rule},\n  \"workers\":"), 1)
    };
    let good = parse_scenario(&with(r#"{ "window_ms": 15000, "share_pct": 45 }"#));
    assert_eq!(
        good.map(|s| s.setup.alert.map(|r| (r.window_ms, r.share_pct))),
        Ok(Some((15_000, 45)))
    );
    for (rule, path) in [
        (r#"{ "window_ms": 0, "share_pct": 45 }"#, "$.alert.window_ms"),
        (r#"{ "window_ms": 15000, "share_pct": 0 }"#, "$.alert.share_pct"),
        (r#"{ "window_ms": 15000, "share_pct": 101 }"#, "$.alert.share_pct"),
    ] {
        let text = error_of(&with(rule));
        assert!(text.starts_with(path), "{rule}: {text}");
    }
    let text = error_of(&with(r#"{ "share_pct": 45 }"#));
    assert!(text.contains("window_ms"), "{text}");
}
