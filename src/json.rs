//! A small JSON reader and writer: values keep their line and column so that a bad file
//! gets an error pointing at the exact spot, and output is stable byte for byte.
//!
//! Owns JSON syntax only (RFC 8259, with depth and size limits); what the values mean is
//! decided by the readers of each format (`catalogue::codec`, `quiz`, `export`). It never
//! panics on any input. It replaces serde_json in the web build, where serde's generated
//! code cost more download than the whole model.

use std::fmt::Write as _;

/// A parsed value and where it starts (1-based line and column, in characters).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number's text as written (integers are read exactly from it).
    Number(String),
    String(String),
    Array(Vec<Node>),
    /// Members in file order (duplicates are refused by the parser).
    Object(Vec<(String, Node)>),
}

/// A syntax error with its position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// How deep arrays and objects may nest.
pub const DEPTH_MAX: u32 = 64;

pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut parser = Parser { chars: text.chars().collect(), at: 0, line: 1, column: 1 };
    parser.skip_space();
    let node = parser.value(0)?;
    parser.skip_space();
    if parser.at < parser.chars.len() {
        return Err(parser.error("unexpected text after the end of the JSON value"));
    }
    Ok(node)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    line: u32,
    column: u32,
}

impl Parser {
    fn error(&self, message: &str) -> SyntaxError {
        SyntaxError { line: self.line, column: self.column, message: message.to_owned() }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), SyntaxError> {
        if self.peek() == Some(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }

    fn value(&mut self, depth: u32) -> Result<Node, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let node = |value| Node { value, line, column };
        match self.peek() {
            None => Err(self.error("unexpected end of input: the file is truncated")),
            Some('{') => {
                if depth >= DEPTH_MAX {
                    return Err(self.error("nested too deeply"));
                }
                self.bump();
                let mut members: Vec<(String, Node)> = Vec::new();
                self.skip_space();
                if self.peek() == Some('}') {
                    self.bump();
                    return Ok(node(Value::Object(members)));
                }
                loop {
                    self.skip_space();
                    if self.peek() != Some('"') {
                        return Err(self.error("expected a field name in double quotes"));
                    }
                    let key = self.string()?;
                    if members.iter().any(|(k, _)| *k == key) {
                        return Err(self.error(&format!("duplicate field `{key}`")));
                    }
                    self.skip_space();
                    self.expect(':', "`:` after the field name")?;
                    self.skip_space();
                    let value = self.value(depth + 1)?;
                    members.push((key, value));
                    self.skip_space();
                    match self.peek() {
                        Some(',') => {
                            self.bump();
                        }
                        Some('}') => {
                            self.bump();
                            return Ok(node(Value::Object(members)));
                        }
                        None => {
                            return Err(
                                self.error("unexpected end of input: the file is truncated")
                            );
                        }
                        Some(_) => return Err(self.error("expected `,` or `}`")),
                    }
                }
            }
            Some('[') => {
                if depth >= DEPTH_MAX {
                    return Err(self.error("nested too deeply"));
                }
                self.bump();
                let mut items = Vec::new();
                self.skip_space();
                if self.peek() == Some(']') {
                    self.bump();
                    return Ok(node(Value::Array(items)));
                }
                loop {
                    self.skip_space();
                    items.push(self.value(depth + 1)?);
                    self.skip_space();
                    match self.peek() {
                        Some(',') => {
                            self.bump();
                        }
                        Some(']') => {
                            self.bump();
                            return Ok(node(Value::Array(items)));
                        }
                        None => {
                            return Err(
                                self.error("unexpected end of input: the file is truncated")
                            );
                        }
                        Some(_) => return Err(self.error("expected `,` or `]`")),
                    }
                }
            }
            Some('"') => Ok(node(Value::String(self.string()?))),
            Some('t') => self.word("true").map(|()| node(Value::Bool(true))),
            Some('f') => self.word("false").map(|()| node(Value::Bool(false))),
            Some('n') => self.word("null").map(|()| node(Value::Null)),
            Some(c) if c == '-' || c.is_ascii_digit() => Ok(node(Value::Number(self.number()?))),
            Some(_) => {
                Err(self
                    .error("expected a value (object, array, string, number, true, false or null)"))
            }
        }
    }

    fn word(&mut self, word: &str) -> Result<(), SyntaxError> {
        for expected in word.chars() {
            if self.peek() != Some(expected) {
                return Err(self.error(&format!("expected `{word}`")));
            }
            self.bump();
        }
        Ok(())
    }

    fn number(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        if self.peek() == Some('-') {
            self.bump();
        }
        let digits = |p: &mut Parser| {
            let mut n = 0;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.bump();
                n += 1;
            }
            n
        };
        match self.peek() {
            Some('0') => {
                self.bump();
            }
            Some(c) if c.is_ascii_digit() => {
                digits(self);
            }
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some('.') {
            self.bump();
            if digits(self) == 0 {
                return Err(self.error("expected a digit after `.`"));
            }
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            self.bump();
            if matches!(self.peek(), Some('+' | '-')) {
                self.bump();
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        Ok(self.chars[start..self.at].iter().collect())
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.expect('"', "`\"`")?;
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error("unexpected end of input inside a string")),
                Some('"') => return Ok(out),
                Some('\\') => {
                    let escaped = match self.bump() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => {
                            let high = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&high) {
                                // A surrogate pair: the low half must follow.
                                if self.bump() != Some('\\') || self.bump() != Some('u') {
                                    return Err(
                                        self.error("expected the second half of a surrogate pair")
                                    );
                                }
                                let low = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&low) {
                                    return Err(self.error("invalid surrogate pair"));
                                }
                                0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                high
                            };
                            char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))?
                        }
                        _ => return Err(self.error("invalid escape in a string")),
                    };
                    out.push(escaped);
                }
                Some(c) if (c as u32) < 0x20 => {
                    return Err(self.error("control character inside a string"));
                }
                Some(c) => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self
                .bump()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| self.error("expected 4 hex digits"))?;
            code = code * 16 + digit;
        }
        Ok(code)
    }
}

impl Node {
    /// A short name of the value's type, for messages.
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

// ----- writing -----

/// A value to write: built by exporters, printed with two-space indentation.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Out>),
    Obj(Vec<(&'static str, Out)>),
    /// JSON text that is already valid (checked by `parse` or written by the program: a
    /// decimal fraction, a checked value from a link), inserted as it is.
    Raw(String),
}

impl Out {
    pub fn str(text: &str) -> Out {
        Out::Str(text.to_owned())
    }

    pub fn opt_int(value: Option<i64>) -> Out {
        value.map_or(Out::Null, Out::Int)
    }

    pub fn uint(value: u64) -> Out {
        Out::Int(i64::try_from(value).unwrap_or(i64::MAX))
    }

    /// Pretty text: objects and arrays one member per line, ending without a newline.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        write_pretty(self, 0, &mut out);
        out
    }

    /// Compact text with no spaces (for URLs).
    pub fn compact(&self) -> String {
        let mut out = String::new();
        write_compact(self, &mut out);
        out
    }
}

fn write_pretty(value: &Out, indent: usize, out: &mut String) {
    let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
    match value {
        Out::Arr(items) if items.is_empty() => out.push_str("[]"),
        Out::Obj(members) if members.is_empty() => out.push_str("{}"),
        Out::Arr(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(indent + 2, out);
                write_pretty(item, indent + 2, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pad(indent, out);
            out.push(']');
        }
        Out::Obj(members) => {
            out.push_str("{\n");
            for (i, (key, item)) in members.iter().enumerate() {
                pad(indent + 2, out);
                write_string(key, out);
                out.push_str(": ");
                write_pretty(item, indent + 2, out);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
            pad(indent, out);
            out.push('}');
        }
        scalar => write_compact(scalar, out),
    }
}

fn write_compact(value: &Out, out: &mut String) {
    match value {
        Out::Null => out.push_str("null"),
        Out::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Out::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Out::Str(s) => write_string(s, out),
        Out::Raw(text) => out.push_str(text),
        Out::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(item, out);
            }
            out.push(']');
        }
        Out::Obj(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_compact(item, out);
            }
            out.push('}');
        }
    }
}

/// `text` as a JSON string literal, quotes included.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    write_string(text, &mut out);
    out
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

// The path is spelled out because build.rs includes this file as a module too.
#[cfg(test)]
#[path = "json/tests.rs"]
mod tests;
