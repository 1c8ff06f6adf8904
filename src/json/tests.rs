use super::{Out, Value, parse};

#[test]
fn parses_values_with_positions() {
    let node =
        parse("{\n  \"a\": [1, -2.5e3, true, null],\n  \"b\": \"x\\u00e9\\n\\ud83d\\ude00\"\n}")
            .unwrap();
    let Value::Object(members) = &node.value else { panic!("object") };
    assert_eq!(members[0].0, "a");
    assert_eq!((members[0].1.line, members[0].1.column), (2, 8));
    let Value::Array(items) = &members[0].1.value else { panic!("array") };
    assert_eq!(items[1].value, Value::Number("-2.5e3".into()));
    assert_eq!(members[1].1.value, Value::String("xé\n😀".into()));
}

#[test]
fn refuses_bad_json_with_a_position() {
    for (text, line, column, needle) in [
        ("", 1, 1, "truncated"),
        ("{\"a\": 1", 1, 8, "truncated"),
        ("{\"a\" 1}", 1, 6, "`:`"),
        ("{\"a\": 1,}", 1, 9, "field name"),
        ("[1 2]", 1, 4, "`,` or `]`"),
        ("{\"a\": 1, \"a\": 2}", 1, 13, "duplicate"),
        ("01", 1, 2, "after the end"),
        ("\"\\x\"", 1, 4, "escape"),
        ("tru", 1, 4, "`true`"),
        ("[1]x", 1, 4, "after the end"),
        ("\n\n  @", 3, 3, "expected a value"),
    ] {
        let error = parse(text).expect_err(text);
        assert_eq!((error.line, error.column), (line, column), "{text:?}: {}", error.message);
        assert!(error.message.contains(needle), "{text:?}: {}", error.message);
    }
    let deep = "[".repeat(100) + &"]".repeat(100);
    assert!(parse(&deep).unwrap_err().message.contains("deeply"));
}

#[test]
fn writes_pretty_and_compact_text() {
    let value = Out::Obj(vec![
        ("name", Out::str("a \"b\"\n")),
        ("n", Out::Int(-3)),
        ("list", Out::Arr(vec![Out::Int(1), Out::Null])),
        ("empty", Out::Arr(vec![])),
    ]);
    assert_eq!(
        value.pretty(),
        "{\n  \"name\": \"a \\\"b\\\"\\n\",\n  \"n\": -3,\n  \"list\": [\n    1,\n    null\n  ],\n  \"empty\": []\n}"
    );
    assert_eq!(
        value.compact(),
        "{\"name\":\"a \\\"b\\\"\\n\",\"n\":-3,\"list\":[1,null],\"empty\":[]}"
    );
    // What is written reads back.
    assert!(parse(&value.pretty()).is_ok());
}
