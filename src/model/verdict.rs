//! The result of analysing one lowered access: the worst case and how it was found.

use crate::bank::Wavefronts;
use serde::Serialize;

/// Which analysis produced a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Exact enumeration of lanes (and loop/uniform values) under the bank model.
    Enumeration,
    /// The constant-stride formula `gcd`-style.
    Stride,
    /// The F2 intersection count (Lemma 9.4, exact form).
    F2,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Enumeration => "enumeration",
            Method::Stride => "stride",
            Method::F2 => "f2",
        }
    }
}

/// The worst case of one access over warps, iterations and uniform values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// `None` when undecided; `reason` then says why.
    pub cost: Option<Wavefronts>,
    pub reason: Option<String>,
    pub method: Method,
    /// False when the verdict is a bound or rests on sampled values.
    pub exact: bool,
    /// Why the lanes collide, in words ("lane bits 0-4 map to the same bank").
    pub explanation: Option<String>,
    /// Names of run-time values the worst case hinges on.
    pub depends_on: Vec<String>,
    /// Things the analysis had to assume or sample.
    pub notes: Vec<String>,
    /// The warp index and variable values of the worst case, for messages.
    pub worst_case: Vec<(String, i64)>,
    /// True when the factor is only a lower bound: a conflict witnessed at sampled
    /// values, with values not tried that may conflict more.
    pub lower_bound: bool,
    /// When the factor depends on run-time values and was decided for every one of them:
    /// which values give the worst factor and which are conflict-free, in words.
    pub condition: Option<String>,
}

impl Verdict {
    pub fn unknown(reason: impl Into<String>) -> Verdict {
        Verdict {
            cost: None,
            reason: Some(reason.into()),
            method: Method::Enumeration,
            exact: false,
            explanation: None,
            depends_on: Vec::new(),
            notes: Vec::new(),
            worst_case: Vec::new(),
            lower_bound: false,
            condition: None,
        }
    }
}

/// `16`, `1.5`: a conflict factor in words, without trailing zeros.
pub fn factor_number(f: f64) -> String {
    if (f - f.round()).abs() < 1e-9 {
        format!("{}", f.round() as i64)
    } else {
        let s = format!("{f:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
