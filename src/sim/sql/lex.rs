//! The SQL text's first pass: statements split as psql splits them, and tokens as
//! PostgreSQL's scanner reads them (identifiers folded, quotes, `$n`, operators). It knows
//! no grammar.

use super::*;

/// Whether a statement ended with `;` (psql sends it along, so a syntax error at the end
/// is "at or near \";\"") or at the end of the input (the console supplies the `;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Terminator {
    Semicolon,
    EndOfInput,
}

/// Splits input into statements on `;` outside quotes; blank pieces are dropped and
/// leading blanks trimmed, as psql does before sending.
pub(crate) fn split_statements(text: &str) -> Vec<(String, Terminator)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '-') if chars.peek() == Some(&'-') => {
                // A comment runs to the end of the line.
                for rest in chars.by_ref() {
                    if rest == '\n' {
                        break;
                    }
                }
                current.push(' ');
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, ';') => {
                if !current.trim_ascii().is_empty() {
                    out.push((current.trim_ascii_start().to_owned(), Terminator::Semicolon));
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim_ascii().is_empty() {
        out.push((current.trim_ascii_start().to_owned(), Terminator::EndOfInput));
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Word(String),
    Quoted(String),
    Int(String),
    Str(String),
    /// `$n`: a prepared statement's parameter.
    Param(usize),
    Sym(&'static str),
    End,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    /// The token as typed, for "syntax error at or near".
    pub(crate) raw: String,
    pub(crate) pos: usize,
}

pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, SqlError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // PostgreSQL's scanner: identifiers start with a letter, `_` or any non-ASCII
        // character, and fold only ASCII letters to lower case.
        if c.is_ascii_alphabetic() || c == '_' || !c.is_ascii() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || !chars[i].is_ascii()
                    || chars[i] == '_'
                    || chars[i] == '$')
            {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect();
            tokens.push(Token { tok: Tok::Word(raw.to_ascii_lowercase()), raw, pos });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect();
            if i < chars.len() && (chars[i] == '.' || chars[i].is_ascii_alphabetic()) {
                return Err(SqlError::plain(
                    "decimal numbers are not supported here (the playground's columns are integer, bigint, text, varchar and boolean)",
                ));
            }
            tokens.push(Token { tok: Tok::Int(raw.clone()), raw, pos });
        } else if c == '$' && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect();
            // A number too long for an index names no parameter anyone supplied.
            let index = raw[1..].parse::<usize>().unwrap_or(usize::MAX);
            tokens.push(Token { tok: Tok::Param(index), raw, pos });
        } else if c == '\'' || c == '"' {
            let (token, end) = quoted(&chars, i)?;
            tokens.push(token);
            i = end;
        } else {
            let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let sym: Option<&'static str> = match two.as_str() {
                "<=" => Some("<="),
                ">=" => Some(">="),
                "<>" => Some("<>"),
                "!=" => Some("!="),
                _ => None,
            };
            if let Some(sym) = sym {
                tokens.push(Token { tok: Tok::Sym(sym), raw: two, pos });
                i += 2;
                continue;
            }
            let sym: &'static str = match c {
                '(' => "(",
                ')' => ")",
                ',' => ",",
                '*' => "*",
                '=' => "=",
                '<' => "<",
                '>' => ">",
                '+' => "+",
                '-' => "-",
                '.' => ".",
                ':' => ":",
                _ => {
                    return Err(SqlError::at(format!("syntax error at or near \"{c}\""), pos));
                }
            };
            tokens.push(Token { tok: Tok::Sym(sym), raw: c.to_string(), pos });
            i += 1;
        }
    }
    tokens.push(Token { tok: Tok::End, raw: String::new(), pos: chars.len() + 1 });
    Ok(tokens)
}

/// The quoted string or identifier starting at `chars[start]` (a doubled quote inside is
/// one quote), and the index after it.
fn quoted(chars: &[char], start: usize) -> Result<(Token, usize), SqlError> {
    let c = chars[start];
    let pos = start + 1;
    let mut value = String::new();
    let mut i = start + 1;
    loop {
        match chars.get(i) {
            None => {
                let what = if c == '\'' { "quoted string" } else { "quoted identifier" };
                return Err(SqlError::at(
                    format!(
                        "unterminated {what} at or near \"{}\"",
                        chars[start..].iter().collect::<String>()
                    ),
                    pos,
                ));
            }
            Some(&q) if q == c && chars.get(i + 1) == Some(&c) => {
                value.push(c);
                i += 2;
            }
            Some(&q) if q == c => {
                i += 1;
                break;
            }
            Some(&other) => {
                value.push(other);
                i += 1;
            }
        }
    }
    let raw: String = chars[start..i].iter().collect();
    let tok = if c == '\'' { Tok::Str(value) } else { Tok::Quoted(value) };
    Ok((Token { tok, raw, pos }, i))
}
