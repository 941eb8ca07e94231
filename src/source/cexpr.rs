//! The expression language of `#if` and `#elif`: a tokenizer and a precedence-climbing
//! parser that evaluates as it parses, in three values (known, unknown).
//!
//! A name is looked up through [`Env`]: a macro whose value is known evaluates its body
//! (recursively, bounded), `defined(X)` asks whether X is defined, and anything the
//! environment cannot answer (a macro a header may define, `__has_include(...)`, a
//! function-like macro) makes the result unknown unless the operators decide without it
//! (`0 && x`, `1 || x`).

/// What the environment knows of a name.
pub enum Lookup<'a> {
    /// Defined as an object-like macro with this body.
    Object(&'a str),
    /// Defined as a function-like macro.
    Function,
    /// Known to be not defined (`#undef`, or unknown names in device mode).
    Undefined,
    /// Defined, but with a value nobody knows (`__CUDA_ARCH__` without a target).
    DefinedUnknownValue,
    /// Nobody knows whether it is defined.
    Unknown,
}

/// Answers the evaluator's questions about names.
pub trait Env {
    fn lookup(&self, name: &str) -> Lookup<'_>;
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Op(&'static str),
    /// A token the expression language has no use for (a string, a float).
    Other,
}

const OPS: [&str; 26] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "!", "~", "*", "/", "%", "+", "-",
    "<", ">", "&", "^", "|", "?", ":", ",", "#",
];

fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b'\\' {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            break;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(text[s..i].to_string()));
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'\'') {
                i += 1;
            }
            out.push(number(&text[s..i]).map_or(Tok::Other, Tok::Num));
        } else if c == b'\'' {
            // A character literal: its value when it is one plain character.
            let s = i;
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            let inner = text.get(s + 1..i.saturating_sub(1)).unwrap_or("");
            out.push(match inner.as_bytes() {
                [ch] => Tok::Num(i64::from(*ch)),
                _ => Tok::Other,
            });
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Tok::Other);
        } else if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            out.push(Tok::Op(op));
            i += op.len();
        } else {
            out.push(Tok::Other);
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// An integer literal with its suffixes (`0x1Fu`, `0b101`, `017`, `1'000`).
fn number(s: &str) -> Option<i64> {
    let s: String = s.chars().filter(|c| *c != '\'').collect();
    let s = s.trim_end_matches(['u', 'U', 'l', 'L', 'z', 'Z']);
    let lower = s.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower, 10)
    };
    u64::from_str_radix(&digits, radix).ok().map(|v| v as i64)
}

/// The value of `text`, a `#if` condition; `None` when it depends on what is not known.
pub fn eval(text: &str, env: &dyn Env) -> Option<i64> {
    eval_depth(text, env, 0)
}

fn eval_depth(text: &str, env: &dyn Env, depth: u32) -> Option<i64> {
    if depth > 16 {
        return None;
    }
    let toks = tokens(text);
    let mut p = Parser {
        toks: &toks,
        pos: 0,
        env,
        depth,
    };
    let v = p.expr(0);
    if p.pos != toks.len() {
        return None;
    }
    v.ok().flatten()
}

/// Every name a condition tests (outside nothing: `defined(X)` and bare `X` alike).
pub fn names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens(text) {
        if let Tok::Ident(n) = t {
            if n != "defined" && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    env: &'a dyn Env,
    depth: u32,
}

/// `Err` is a syntax error (the whole condition is unknown); `Ok(None)` an unknown value.
type Val = Result<Option<i64>, ()>;

fn binary_precedence(op: &str) -> Option<u8> {
    Some(match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | ">" | "<=" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A conditional expression whose binary operators bind tighter than `min`.
    fn expr(&mut self, min: u8) -> Val {
        let mut left = self.unary()?;
        while let Some(Tok::Op(op)) = self.peek().cloned() {
            if op == "?" && min == 0 {
                self.pos += 1;
                let then = self.expr(0)?;
                if !self.eat(":") {
                    return Err(());
                }
                let otherwise = self.expr(0)?;
                left = match left {
                    Some(c) if c != 0 => then,
                    Some(_) => otherwise,
                    None if then == otherwise => then,
                    None => None,
                };
                continue;
            }
            let Some(prec) = binary_precedence(op) else {
                break;
            };
            if prec <= min {
                break;
            }
            self.pos += 1;
            let right = self.expr(prec)?;
            left = apply(op, left, right);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Val {
        let Some(tok) = self.peek().cloned() else {
            return Err(());
        };
        self.pos += 1;
        match tok {
            Tok::Num(n) => Ok(Some(n)),
            Tok::Op("(") => {
                let v = self.expr(0)?;
                if self.eat(")") {
                    Ok(v)
                } else {
                    Err(())
                }
            }
            Tok::Op("!") => Ok(self.unary()?.map(|v| i64::from(v == 0))),
            Tok::Op("~") => Ok(self.unary()?.map(|v| !v)),
            Tok::Op("-") => Ok(self.unary()?.map(i64::wrapping_neg)),
            Tok::Op("+") => self.unary(),
            Tok::Ident(name) if name == "defined" => {
                let paren = self.eat("(");
                let Some(Tok::Ident(n)) = self.peek().cloned() else {
                    return Err(());
                };
                self.pos += 1;
                if paren && !self.eat(")") {
                    return Err(());
                }
                Ok(match self.env.lookup(&n) {
                    Lookup::Object(_) | Lookup::Function | Lookup::DefinedUnknownValue => Some(1),
                    Lookup::Undefined => Some(0),
                    Lookup::Unknown => None,
                })
            }
            Tok::Ident(name) if name == "true" => Ok(Some(1)),
            Tok::Ident(name) if name == "false" => Ok(Some(0)),
            Tok::Ident(name) => {
                // A call (a function-like macro, `__has_include(...)`): skip its arguments.
                if self.eat("(") {
                    let mut depth = 1;
                    while depth > 0 {
                        match self.peek() {
                            None => return Err(()),
                            Some(Tok::Op("(")) => depth += 1,
                            Some(Tok::Op(")")) => depth -= 1,
                            _ => {}
                        }
                        self.pos += 1;
                    }
                    // A function-like macro's value or a feature test: not known, unless
                    // names nobody defines count as not defined (a device compilation
                    // with nothing else defined), where it is 0 like any such name.
                    return Ok(match self.env.lookup(&name) {
                        Lookup::Undefined => Some(0),
                        _ => None,
                    });
                }
                Ok(match self.env.lookup(&name) {
                    Lookup::Object(body) => {
                        if body.trim().is_empty() {
                            None
                        } else {
                            eval_depth(body, self.env, self.depth + 1)
                        }
                    }
                    Lookup::Undefined => Some(0),
                    Lookup::Function | Lookup::DefinedUnknownValue | Lookup::Unknown => None,
                })
            }
            _ => Err(()),
        }
    }
}

fn apply(op: &str, l: Option<i64>, r: Option<i64>) -> Option<i64> {
    match (op, l, r) {
        ("&&", Some(0), _) | ("&&", _, Some(0)) => return Some(0),
        ("||", Some(a), _) | ("||", _, Some(a)) if a != 0 => return Some(1),
        _ => {}
    }
    let (a, b) = (l?, r?);
    Some(match op {
        "*" => a.wrapping_mul(b),
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
        ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
        "<" => i64::from(a < b),
        ">" => i64::from(a > b),
        "<=" => i64::from(a <= b),
        ">=" => i64::from(a >= b),
        "==" => i64::from(a == b),
        "!=" => i64::from(a != b),
        "&" => a & b,
        "^" => a ^ b,
        "|" => a | b,
        "&&" => i64::from(a != 0 && b != 0),
        "||" => i64::from(a != 0 || b != 0),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Map(HashMap<&'static str, &'static str>, bool);
    impl Env for Map {
        fn lookup(&self, name: &str) -> Lookup<'_> {
            match self.0.get(name) {
                Some(b) => Lookup::Object(b),
                None if self.1 => Lookup::Undefined,
                None => Lookup::Unknown,
            }
        }
    }

    #[test]
    fn evaluates_with_known_and_unknown_names() {
        let env = Map(
            HashMap::from([("A", "1"), ("B", "A + 2"), ("Z", "0")]),
            false,
        );
        assert_eq!(eval("A && B == 3", &env), Some(1));
        assert_eq!(eval("defined(A) && !defined C", &env), None);
        assert_eq!(eval("Z && UNKNOWN", &env), Some(0));
        assert_eq!(eval("A || UNKNOWN", &env), Some(1));
        assert_eq!(eval("UNKNOWN >= 800", &env), None);
        assert_eq!(eval("(0x10 >> 2) == 4 ? 7 : 8 // comment", &env), Some(7));
        assert_eq!(eval("A /* c */ +", &env), None);
        assert_eq!(eval("HAS(x) || Z", &env), None);
        assert_eq!(
            eval("HAS(x) || Z", &Map(HashMap::from([("Z", "0")]), true)),
            Some(0)
        );
        let device = Map(HashMap::from([("A", "1")]), true);
        assert_eq!(eval("defined(A) && !defined B", &device), Some(1));
        assert_eq!(eval("UNKNOWN >= 800", &device), Some(0));
        assert_eq!(eval("1000000UL > 3 && '0' == 48", &device), Some(1));
    }
}
