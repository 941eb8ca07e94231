//! Why a value or an access could not be followed: the words shown to the user, and,
//! as data, the names defined nowhere that the failure rests on. Later stages (the
//! project index lowering a header through its includers) act on the names; nothing
//! reads the words.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Reason {
    words: String,
    /// Names no file, header or setting defines, in the order met, without repeats.
    unresolved: Vec<String>,
    /// Types named but not known (a type parameter nothing fixed, a dependent alias):
    /// the lowering may try every element size for one of them.
    unknown_types: Vec<String>,
}

impl Reason {
    pub fn new(words: impl Into<String>) -> Reason {
        Reason {
            words: words.into(),
            unresolved: Vec::new(),
            unknown_types: Vec::new(),
        }
    }

    /// A name defined nowhere.
    pub fn unresolved(name: &str) -> Reason {
        Reason {
            words: format!("`{name}` is not known to bankcheck"),
            unresolved: vec![name.to_string()],
            unknown_types: Vec::new(),
        }
    }

    /// A name whose bare spelling several namespaces define (`candidates`, qualified),
    /// where bankcheck cannot tell which one the use names.
    pub fn ambiguous(name: &str, candidates: &[String]) -> Reason {
        let list = candidates
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        Reason {
            words: format!("`{name}` may name any of {list}, which differ"),
            unresolved: vec![name.to_string()],
            unknown_types: Vec::new(),
        }
    }

    /// A type named but not known: `ty`, in `words`.
    pub fn unknown_type(words: impl Into<String>, ty: &str) -> Reason {
        Reason {
            words: words.into(),
            unresolved: Vec::new(),
            unknown_types: vec![ty.to_string()],
        }
    }

    /// The same failure in other words (a context added around them): the names stay.
    #[must_use]
    pub fn reworded(&self, words: impl Into<String>) -> Reason {
        Reason {
            words: words.into(),
            unresolved: self.unresolved.clone(),
            unknown_types: self.unknown_types.clone(),
        }
    }

    /// This failure's words with `other`'s names added: the reason for a value built
    /// from both.
    #[must_use]
    pub fn with_names_of(mut self, other: &Reason) -> Reason {
        for n in &other.unresolved {
            if !self.unresolved.contains(n) {
                self.unresolved.push(n.clone());
            }
        }
        for t in &other.unknown_types {
            if !self.unknown_types.contains(t) {
                self.unknown_types.push(t.clone());
            }
        }
        self
    }

    pub fn words(&self) -> &str {
        &self.words
    }

    pub fn unresolved_names(&self) -> &[String] {
        &self.unresolved
    }

    pub fn unknown_types(&self) -> &[String] {
        &self.unknown_types
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words)
    }
}

impl From<String> for Reason {
    fn from(words: String) -> Reason {
        Reason::new(words)
    }
}

impl From<&str> for Reason {
    fn from(words: &str) -> Reason {
        Reason::new(words)
    }
}
