//! The grammar of the subset: statements (`Statement`), expressions and column
//! definitions, parsed from tokens with PostgreSQL's error wording and positions. It
//! evaluates nothing.

use super::*;

// ---- statements and parser ------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowLock {
    None,
    ForUpdate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SelectItem {
    Star,
    Column(Name),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ColumnDef {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) not_null: bool,
    pub(crate) primary_key: bool,
    pub(crate) key_pos: usize,
    pub(crate) default: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Statement {
    Create {
        table: Name,
        columns: Vec<ColumnDef>,
    },
    Insert {
        table: Name,
        columns: Option<Vec<Name>>,
        rows: Vec<Vec<Expr>>,
    },
    Select {
        items: Vec<SelectItem>,
        table: Name,
        filter: Option<Expr>,
        order: Option<(Name, bool)>,
        lock: RowLock,
    },
    Update {
        table: Name,
        sets: Vec<(Name, Expr)>,
        filter: Option<Expr>,
    },
    /// The tag psql prints: BEGIN or START TRANSACTION.
    Begin(&'static str),
    Commit,
    Rollback,
}

/// Statements PostgreSQL has that this console does not model.
pub(crate) const OTHER_STATEMENTS: [&str; 22] = [
    "delete",
    "drop",
    "alter",
    "truncate",
    "with",
    "copy",
    "grant",
    "revoke",
    "vacuum",
    "analyze",
    "explain",
    "lock",
    "set",
    "show",
    "savepoint",
    "release",
    "prepare",
    "execute",
    "merge",
    "values",
    "table",
    "create",
];

pub(crate) fn parse(text: &str, terminated: Terminator) -> Result<Statement, SqlError> {
    let mut tokens = tokenize(text)?;
    if terminated == Terminator::Semicolon
        && let Some(end) = tokens.last_mut()
    {
        end.raw = ";".to_owned();
    }
    let mut p = Parser { tokens, at: 0, depth: 0, operators: 0 };
    let statement = p.statement()?;
    if p.peek().tok != Tok::End {
        return Err(p.unexpected());
    }
    Ok(statement)
}

pub(crate) struct Parser {
    pub(crate) tokens: Vec<Token>,
    pub(crate) at: usize,
    /// Parentheses and NOTs open around the current token: the parser, the type check, the
    /// evaluator and the tree's drop all recurse this deep, and a wasm stack that
    /// overflows is not a panic but a trap that kills the page.
    depth: u32,
    /// Binary operators so far: a chain of them (`OR id = 2 OR ...`) makes a tree as deep.
    operators: u32,
}

/// How deep an expression may nest before the console refuses it as PostgreSQL does
/// (its own limit depends on `max_stack_depth`; this one keeps every recursion over the
/// tree far inside the smallest stack the model runs on).
pub(crate) const MAX_DEPTH: u32 = 100;

/// How many binary operators one statement may have.
pub(crate) const MAX_OPERATORS: u32 = 1_000;

impl Parser {
    pub(crate) fn peek(&self) -> &Token {
        // The last token is always End and `at` never passes it.
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }
    pub(crate) fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if token.tok != Tok::End {
            self.at += 1;
        }
        token
    }
    pub(crate) fn unexpected(&self) -> SqlError {
        let token = self.peek();
        if token.tok == Tok::End && token.raw.is_empty() {
            SqlError::at("syntax error at end of input", token.pos)
        } else {
            SqlError::at(format!("syntax error at or near \"{}\"", token.raw), token.pos)
        }
    }
    pub(crate) fn is_word(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Word(w) if w == word)
    }
    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        if self.is_word(word) {
            self.advance();
            true
        } else {
            false
        }
    }
    pub(crate) fn expect_word(&mut self, word: &str) -> Result<(), SqlError> {
        if self.eat_word(word) { Ok(()) } else { Err(self.unexpected()) }
    }
    pub(crate) fn eat_sym(&mut self, sym: &'static str) -> bool {
        if self.peek().tok == Tok::Sym(sym) {
            self.advance();
            true
        } else {
            false
        }
    }
    pub(crate) fn expect_sym(&mut self, sym: &'static str) -> Result<(), SqlError> {
        if self.eat_sym(sym) { Ok(()) } else { Err(self.unexpected()) }
    }
    pub(crate) fn name(&mut self) -> Result<Name, SqlError> {
        let token = self.peek().clone();
        match token.tok {
            Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                self.advance();
                Ok(Name { text: w, pos: token.pos })
            }
            Tok::Quoted(q) => {
                self.advance();
                Ok(Name { text: q, pos: token.pos })
            }
            _ => Err(self.unexpected()),
        }
    }

    pub(crate) fn statement(&mut self) -> Result<Statement, SqlError> {
        let first = self.peek().clone();
        let Tok::Word(word) = &first.tok else { return Err(self.unexpected()) };
        match word.as_str() {
            "begin" | "start" => {
                self.advance();
                if word == "start" {
                    self.expect_word("transaction")?;
                } else if !self.eat_word("transaction") {
                    self.eat_word("work");
                }
                if self.is_word("isolation") {
                    return Err(SqlError::plain(
                        "isolation levels other than the default READ COMMITTED are not supported here",
                    ));
                }
                Ok(Statement::Begin(if word == "start" { "START TRANSACTION" } else { "BEGIN" }))
            }
            "commit" | "end" => {
                self.advance();
                let _ = self.eat_word("transaction") || self.eat_word("work");
                Ok(Statement::Commit)
            }
            "rollback" | "abort" => {
                self.advance();
                let _ = self.eat_word("transaction") || self.eat_word("work");
                Ok(Statement::Rollback)
            }
            "create" => {
                self.advance();
                if !self.is_word("table") {
                    return Err(SqlError::plain(format!(
                        "CREATE {} is not supported here; this console runs only CREATE TABLE",
                        self.peek().raw.to_ascii_uppercase()
                    )));
                }
                self.advance();
                self.create()
            }
            "insert" => {
                self.advance();
                self.insert()
            }
            "select" => {
                self.advance();
                self.select()
            }
            "update" => {
                self.advance();
                self.update()
            }
            other if OTHER_STATEMENTS.contains(&other) => Err(SqlError::plain(format!(
                "{} is not supported here; this console runs CREATE TABLE, INSERT, SELECT, UPDATE, BEGIN, COMMIT and ROLLBACK",
                first.raw.to_ascii_uppercase()
            ))),
            _ => Err(self.unexpected()),
        }
    }

    pub(crate) fn create(&mut self) -> Result<Statement, SqlError> {
        let table = self.name()?;
        self.expect_sym("(")?;
        let mut columns = Vec::new();
        loop {
            if self.is_word("primary")
                || self.is_word("constraint")
                || self.is_word("unique")
                || self.is_word("check")
            {
                return Err(SqlError::plain(
                    "table constraints are not supported here; write PRIMARY KEY after the column",
                ));
            }
            let name = self.name()?;
            let ty = self.column_type()?;
            let mut def = ColumnDef {
                name: name.text,
                ty,
                not_null: false,
                primary_key: false,
                key_pos: 0,
                default: None,
            };
            loop {
                let pos = self.peek().pos;
                if self.eat_word("primary") {
                    self.expect_word("key")?;
                    def.primary_key = true;
                    def.key_pos = pos;
                } else if self.eat_word("not") {
                    self.expect_word("null")?;
                    def.not_null = true;
                } else if self.eat_word("null") {
                } else if self.eat_word("default") {
                    def.default = Some(self.primary()?);
                } else if self.is_word("unique")
                    || self.is_word("check")
                    || self.is_word("references")
                {
                    return Err(SqlError::plain(format!(
                        "{} is not supported here",
                        self.peek().raw.to_ascii_uppercase()
                    )));
                } else {
                    break;
                }
            }
            columns.push(def);
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(")")?;
        Ok(Statement::Create { table, columns })
    }

    pub(crate) fn column_type(&mut self) -> Result<Type, SqlError> {
        let token = self.peek().clone();
        let Tok::Word(word) = &token.tok else { return Err(self.unexpected()) };
        let ty = match word.as_str() {
            "integer" | "int" | "int4" => Type::Int4,
            "bigint" | "int8" => Type::Int8,
            "text" => Type::Text,
            "boolean" | "bool" => Type::Bool,
            "varchar" | "character" => {
                self.advance();
                if word == "character" {
                    self.expect_word("varying")?;
                }
                if self.eat_sym("(") {
                    let length = match self.advance().tok {
                        Tok::Int(n) => n.parse::<u32>().ok().filter(|n| *n > 0),
                        _ => None,
                    };
                    let Some(length) = length else {
                        return Err(SqlError::at(
                            "length for type varchar must be at least 1",
                            token.pos,
                        ));
                    };
                    self.expect_sym(")")?;
                    return Ok(Type::Varchar(Some(length)));
                }
                return Ok(Type::Varchar(None));
            }
            "uuid" => Type::Uuid,
            "serial" | "bigserial" | "timestamptz" | "timestamp" | "numeric" | "smallint"
            | "real" | "double" | "jsonb" | "json" | "date" => {
                return Err(SqlError::plain(format!(
                    "type {word} is not supported here; use integer, bigint, text, varchar(n), boolean or uuid"
                )));
            }
            _ => return Err(SqlError::at(format!("type \"{word}\" does not exist"), token.pos)),
        };
        self.advance();
        Ok(ty)
    }

    pub(crate) fn insert(&mut self) -> Result<Statement, SqlError> {
        self.expect_word("into")?;
        let table = self.name()?;
        let mut columns = None;
        if self.eat_sym("(") {
            let mut names = vec![self.name()?];
            while self.eat_sym(",") {
                names.push(self.name()?);
            }
            self.expect_sym(")")?;
            columns = Some(names);
        }
        if self.is_word("select") || self.is_word("default") {
            return Err(SqlError::plain(
                "INSERT ... SELECT and DEFAULT VALUES are not supported here; use VALUES (...)",
            ));
        }
        self.expect_word("values")?;
        let mut rows = Vec::new();
        loop {
            self.expect_sym("(")?;
            let mut row = vec![self.expr()?];
            while self.eat_sym(",") {
                row.push(self.expr()?);
            }
            self.expect_sym(")")?;
            rows.push(row);
            if !self.eat_sym(",") {
                break;
            }
        }
        if self.is_word("on") || self.is_word("returning") {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Insert { table, columns, rows })
    }

    pub(crate) fn select(&mut self) -> Result<Statement, SqlError> {
        let mut items = Vec::new();
        loop {
            if self.eat_sym("*") {
                items.push(SelectItem::Star);
            } else {
                let token = self.peek().clone();
                match &token.tok {
                    Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                        items.push(SelectItem::Column(self.name()?))
                    }
                    Tok::Quoted(_) => items.push(SelectItem::Column(self.name()?)),
                    Tok::End => return Err(self.unexpected()),
                    _ if self.is_word("from") => return Err(self.unexpected()),
                    _ => {
                        return Err(SqlError::plain(
                            "only column names and * are supported in SELECT lists here (no expressions or functions)",
                        ));
                    }
                }
            }
            if !self.eat_sym(",") {
                break;
            }
        }
        if self.peek().tok == Tok::End {
            return Err(SqlError::plain("SELECT without FROM is not supported here"));
        }
        self.expect_word("from")?;
        let table = self.name()?;
        let filter = if self.eat_word("where") { Some(self.expr()?) } else { None };
        let mut order = None;
        if self.eat_word("order") {
            self.expect_word("by")?;
            let column = self.name()?;
            let descending = if self.eat_word("desc") {
                true
            } else {
                self.eat_word("asc");
                false
            };
            order = Some((column, descending));
        }
        let mut lock = RowLock::None;
        if self.eat_word("for") {
            if self.eat_word("update") {
                lock = RowLock::ForUpdate;
            } else {
                return Err(SqlError::plain(
                    "only FOR UPDATE is supported here (not FOR SHARE or FOR NO KEY UPDATE)",
                ));
            }
            if self.is_word("nowait") || self.is_word("skip") {
                return Err(SqlError::plain(format!(
                    "{} is not supported here",
                    self.peek().raw.to_ascii_uppercase()
                )));
            }
        }
        if self.is_word("limit")
            || self.is_word("group")
            || self.is_word("join")
            || self.is_word("offset")
        {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Select { items, table, filter, order, lock })
    }

    pub(crate) fn update(&mut self) -> Result<Statement, SqlError> {
        let table = self.name()?;
        self.expect_word("set")?;
        let mut sets = Vec::new();
        loop {
            let column = self.name()?;
            self.expect_sym("=")?;
            sets.push((column, self.expr()?));
            if !self.eat_sym(",") {
                break;
            }
        }
        let filter = if self.eat_word("where") { Some(self.expr()?) } else { None };
        if self.is_word("returning") || self.is_word("from") {
            return Err(SqlError::plain(format!(
                "{} is not supported here",
                self.peek().raw.to_ascii_uppercase()
            )));
        }
        Ok(Statement::Update { table, sets, filter })
    }

    /// Goes one level deeper (a parenthesis or a NOT), or refuses.
    fn enter(&mut self) -> Result<(), SqlError> {
        self.depth += 1;
        match self.depth > MAX_DEPTH {
            true => Err(SqlError::plain("stack depth limit exceeded")),
            false => Ok(()),
        }
    }

    /// Builds `left op right`, counting the operator against the statement's limit.
    fn binary(&mut self, op: Op, pos: usize, left: Expr, right: Expr) -> Result<Expr, SqlError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(SqlError::plain(format!(
                "expression too long: more than {MAX_OPERATORS} operators in one statement (a limit of this console)"
            )));
        }
        Ok(Expr::Binary { op, pos, left: Box::new(left), right: Box::new(right) })
    }

    // Precedence, lowest first: OR, AND, NOT, IS, comparison, + -.
    pub(crate) fn expr(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.and()?;
        loop {
            let pos = self.peek().pos;
            if !self.eat_word("or") {
                return Ok(left);
            }
            let right = self.and()?;
            left = self.binary(Op::Or, pos, left, right)?;
        }
    }
    pub(crate) fn and(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.not()?;
        loop {
            let pos = self.peek().pos;
            if !self.eat_word("and") {
                return Ok(left);
            }
            let right = self.not()?;
            left = self.binary(Op::And, pos, left, right)?;
        }
    }
    pub(crate) fn not(&mut self) -> Result<Expr, SqlError> {
        let pos = self.peek().pos;
        if self.eat_word("not") {
            self.enter()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Expr::Not { pos, inner: Box::new(inner) });
        }
        self.is_null()
    }
    pub(crate) fn is_null(&mut self) -> Result<Expr, SqlError> {
        let inner = self.comparison()?;
        if self.eat_word("is") {
            let negated = self.eat_word("not");
            self.expect_word("null")?;
            return Ok(Expr::IsNull { negated, inner: Box::new(inner) });
        }
        Ok(inner)
    }
    pub(crate) fn comparison(&mut self) -> Result<Expr, SqlError> {
        let left = self.sum()?;
        let token = self.peek().clone();
        let op = match token.tok {
            Tok::Sym("=") => Op::Eq,
            Tok::Sym("<>" | "!=") => Op::Ne,
            Tok::Sym("<") => Op::Lt,
            Tok::Sym("<=") => Op::Le,
            Tok::Sym(">") => Op::Gt,
            Tok::Sym(">=") => Op::Ge,
            _ => return Ok(left),
        };
        self.advance();
        let right = self.sum()?;
        let next = self.peek().tok.clone();
        if matches!(next, Tok::Sym("=" | "<>" | "!=" | "<" | "<=" | ">" | ">=")) {
            // PostgreSQL's comparison operators do not associate.
            return Err(self.unexpected());
        }
        self.binary(op, token.pos, left, right)
    }
    pub(crate) fn sum(&mut self) -> Result<Expr, SqlError> {
        let mut left = self.primary()?;
        loop {
            let token = self.peek().clone();
            let op = match token.tok {
                Tok::Sym("+") => Op::Add,
                Tok::Sym("-") => Op::Sub,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.primary()?;
            left = self.binary(op, token.pos, left, right)?;
        }
    }
    pub(crate) fn primary(&mut self) -> Result<Expr, SqlError> {
        let token = self.peek().clone();
        let pos = token.pos;
        match token.tok {
            Tok::Int(text) => {
                self.advance();
                Ok(Expr::Int { text, pos })
            }
            Tok::Sym("-") => {
                self.advance();
                match self.peek().tok.clone() {
                    Tok::Int(text) => {
                        self.advance();
                        Ok(Expr::Int { text: format!("-{text}"), pos })
                    }
                    _ => Err(SqlError::plain("unary minus is supported here only before a number")),
                }
            }
            Tok::Str(text) => {
                self.advance();
                Ok(Expr::Str { text, pos })
            }
            Tok::Param(index) => {
                self.advance();
                Ok(Expr::Param { index, pos })
            }
            Tok::Sym("(") => {
                self.advance();
                self.enter()?;
                let inner = self.expr()?;
                self.expect_sym(")")?;
                self.depth -= 1;
                Ok(inner)
            }
            Tok::Sym(":") => Err(SqlError::plain(
                "parameters such as :fence are not supported here; type the value (psql would substitute it)",
            )),
            Tok::Word(w) if w == "true" || w == "false" => {
                self.advance();
                Ok(Expr::Bool { value: w == "true", pos })
            }
            Tok::Word(w) if w == "null" => {
                self.advance();
                Ok(Expr::Null { pos })
            }
            Tok::Word(w) if !RESERVED.contains(&w.as_str()) => {
                self.advance();
                if self.peek().tok == Tok::Sym("(") {
                    return Err(SqlError::plain(format!("function {w}() is not supported here")));
                }
                if self.peek().tok == Tok::Sym(".") {
                    return Err(SqlError::plain(
                        "qualified names (table.column) are not supported here",
                    ));
                }
                Ok(Expr::Column(Name { text: w, pos }))
            }
            Tok::Quoted(q) => {
                self.advance();
                Ok(Expr::Column(Name { text: q, pos }))
            }
            _ => Err(self.unexpected()),
        }
    }
}

/// Words PostgreSQL reserves (the ones our grammar meets); they cannot name a column.
pub(crate) const RESERVED: [&str; 30] = [
    "select",
    "from",
    "where",
    "and",
    "or",
    "not",
    "null",
    "true",
    "false",
    "update",
    "set",
    "insert",
    "into",
    "values",
    "for",
    "order",
    "by",
    "create",
    "table",
    "primary",
    "default",
    "is",
    "limit",
    "group",
    "having",
    "as",
    "on",
    "returning",
    "end",
    "desc",
];
