use super::{Au, Launch, LaunchData, Mode, Phase, Request, Stamp};
use serde_json::Value;

const REGISTRATION: &str = "ec531277-b57b-4c15-8d91-d292c5b2b8f7";
const SESSION: &str = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";

fn launch() -> Launch {
    let actor =
        r#"{"objectType":"Agent","account":{"homePage":"https://lms.example","name":"42"}}"#;
    let q = crate::route::percent_encode;
    Launch::parse(&format!(
        "?endpoint={}&fetch={}&actor={}&registration={REGISTRATION}&activityId={}",
        q("https://lrs.example/xapi"),
        q("https://lms.example/fetch/abc"),
        q(actor),
        q("https://courses.example/fencing/quiz"),
    ))
    .expect("a cmi5 launch")
}

fn data(mode: &str, mastery: Option<f64>) -> LaunchData {
    let mastery = mastery.map_or(String::new(), |m| format!(r#","masteryScore":{m}"#));
    LaunchData::read(&format!(
        r#"{{"contextTemplate":{{"contextActivities":{{"grouping":[{{"id":"https://courses.example/fencing"}}]}},"extensions":{{"{SESSION}":"s-1"}}}},"launchMode":"{mode}","moveOn":"CompletedAndPassed","returnURL":"https://lms.example/course"{mastery}}}"#
    ))
    .expect("launch data")
}

fn stamp(n: u8) -> Stamp {
    Stamp { id: crate::xapi::uuid([n; 16]), timestamp: "2026-12-07T05:00:00.000Z".into() }
}

/// The statements in `requests`, parsed.
fn statements(requests: &[Request]) -> Vec<Value> {
    requests
        .iter()
        .map(|r| {
            assert_eq!((r.method, r.url.as_str()), ("POST", "https://lrs.example/xapi/statements"));
            serde_json::from_str(r.body.as_deref().expect("a statement")).expect("JSON")
        })
        .collect()
}

fn verb(statement: &Value) -> &str {
    statement["verb"]["id"].as_str().unwrap().rsplit('/').next().unwrap()
}

fn categories(statement: &Value) -> Vec<&str> {
    statement["context"]["contextActivities"]["category"]
        .as_array()
        .map_or(Vec::new(), |list| list.iter().filter_map(|c| c["id"].as_str()).collect())
}

#[test]
fn the_launch_address_is_read_and_checked() {
    let l = launch();
    assert_eq!(l.endpoint, "https://lrs.example/xapi/", "a / added");
    assert_eq!(l.activity_id, "https://courses.example/fencing/quiz");
    let au = Au::new(l, 80);
    assert_eq!(
        au.token_request(),
        Request { method: "POST", url: "https://lms.example/fetch/abc".into(), body: None }
    );
    let state = au.launch_data_request();
    assert!(state.url.starts_with("https://lrs.example/xapi/activities/state?stateId=LMS.LaunchData&activityId=https%3A%2F%2Fcourses.example"), "{}", state.url);
    assert!(state.url.contains(&format!("&registration={REGISTRATION}")));
    for (query, why) in [
        ("", "no endpoint"),
        ("?endpoint=ftp%3A%2F%2Fx&fetch=x", "not an http(s) address"),
        (
            "?endpoint=https%3A%2F%2Fx&fetch=https%3A%2F%2Fy&actor=%7B%7D&registration=x&activityId=a",
            "not an xAPI agent",
        ),
        (
            "?endpoint=https%3A%2F%2Fx&fetch=https%3A%2F%2Fy&actor=%7B%22mbox%22%3A%22mailto%3Aa%40b%22%7D&registration=nope&activityId=a",
            "not a UUID",
        ),
        ("?endpoint=%ZZ", "percent-encoded"),
    ] {
        let error = Launch::parse(query).expect_err(query);
        assert!(error.contains(why), "{query}: {error}");
    }
    assert_eq!(
        Au::read_token(r#"{"auth-token":"QWxhZGRpbjpvcGVu"}"#).as_deref(),
        Ok("QWxhZGRpbjpvcGVu")
    );
    assert!(
        Au::read_token(r#"{"error-code":"1","error-text":"already fetched"}"#)
            .unwrap_err()
            .contains("already fetched")
    );
    assert!(LaunchData::read("[]").is_err() && LaunchData::read("{}").is_err());
}

#[test]
fn defined_statements_go_in_cmi5s_order_once_each() {
    let mut au = Au::new(launch(), 80);
    assert!(au.complete(&stamp(1), 1_000).is_empty(), "nothing before initialized");
    let first = statements(&au.on_launch_data(data("Normal", Some(0.8)), &stamp(2)));
    assert_eq!(first.len(), 1);
    assert_eq!(verb(&first[0]), "initialized");
    assert_eq!(first[0]["object"]["id"], "https://courses.example/fencing/quiz");
    assert_eq!(first[0]["context"]["registration"], REGISTRATION);
    assert_eq!(first[0]["context"]["extensions"][SESSION], "s-1", "the template's session id");
    assert_eq!(categories(&first[0]), ["https://w3id.org/xapi/cmi5/context/categories/cmi5"]);
    assert!(first[0].get("result").is_none());
    let done = statements(&au.complete(&stamp(3), 61_500));
    assert_eq!(verb(&done[0]), "completed");
    assert_eq!(done[0]["result"]["completion"], true);
    assert_eq!(done[0]["result"]["duration"], "PT61.5S");
    assert!(categories(&done[0]).contains(&"https://w3id.org/xapi/cmi5/context/categories/moveon"));
    assert!(au.complete(&stamp(4), 62_000).is_empty(), "completed once");
    // 3 of 4 is 0.75, under the LMS's 0.8 (the package's 80 % would say the same).
    let graded = statements(&au.grade(&stamp(5), 3, 4, 63_000));
    assert_eq!(verb(&graded[0]), "failed");
    assert_eq!(graded[0]["result"]["score"]["scaled"], 0.75);
    assert_eq!(graded[0]["result"]["success"], false);
    assert_eq!(
        graded[0]["context"]["extensions"]["https://w3id.org/xapi/cmi5/context/extensions/masteryscore"],
        0.8
    );
    assert!(au.grade(&stamp(6), 4, 4, 64_000).is_empty(), "graded once");
    let end = statements(&au.terminate(&stamp(7), 65_000));
    assert_eq!(verb(&end[0]), "terminated");
    assert_eq!(au.phase, Phase::Terminated);
    assert!(au.terminate(&stamp(8), 66_000).is_empty());
    assert!(au.other(r#"{"verb":{}}"#).is_empty(), "nothing after terminated");
}

#[test]
fn the_lms_mastery_score_wins_and_browse_mode_never_completes() {
    let mut au = Au::new(launch(), 80);
    au.on_launch_data(data("Normal", Some(0.5)), &stamp(1));
    let graded = statements(&au.grade(&stamp(2), 2, 4, 1_000));
    assert_eq!(verb(&graded[0]), "passed", "2 of 4 passes the LMS's 0.5, not the package's 80 %");
    let mut browse = Au::new(launch(), 80);
    let opened = browse.on_launch_data(data("Browse", None), &stamp(1));
    assert_eq!(browse.data.mode, Mode::Browse);
    assert_eq!(opened.len(), 1, "initialized still goes");
    assert!(
        browse.complete(&stamp(2), 1).is_empty() && browse.grade(&stamp(3), 4, 4, 1).is_empty()
    );
    assert_eq!(browse.terminate(&stamp(4), 2).len(), 1);
}

#[test]
fn the_playgrounds_own_statements_carry_the_launch_and_the_template() {
    let mut au = Au::new(launch(), 80);
    let answer = r#"{"id":"x","actor":{"objectType":"Agent","account":{"homePage":"https://site/","name":"anonymous"}},"verb":{"id":"http://adlnet.gov/expapi/verbs/answered"},"object":{"id":"https://site/#/quiz?q=a"},"context":{"language":"vi","contextActivities":{"parent":[{"id":"https://site/#/quiz"}]}}}"#;
    assert!(au.other(answer).is_empty(), "nothing before initialized");
    au.on_launch_data(data("Normal", None), &stamp(1));
    let sent = statements(&au.other(answer));
    let context = &sent[0]["context"];
    assert_eq!(sent[0]["actor"]["account"]["name"], "42", "the LMS's learner");
    assert_eq!(context["registration"], REGISTRATION);
    assert_eq!(context["language"], "vi");
    assert_eq!(context["extensions"][SESSION], "s-1");
    assert_eq!(context["contextActivities"]["parent"][0]["id"], "https://site/#/quiz");
    assert_eq!(
        context["contextActivities"]["grouping"][0]["id"],
        "https://courses.example/fencing"
    );
    assert!(categories(&sent[0]).is_empty(), "not a defined statement");
    // The quiz's own completed is the AU's defined one's business: not sent twice.
    let quiz_done = r#"{"id":"y","verb":{"id":"http://adlnet.gov/expapi/verbs/completed"},"object":{"id":"https://site/#/quiz"}}"#;
    assert!(au.other(quiz_done).is_empty());
}
