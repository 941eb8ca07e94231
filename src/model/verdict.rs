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
    pub reason: Option<Undecided>,
    pub method: Method,
    /// False when the verdict is a bound or rests on sampled values.
    pub exact: bool,
    /// Why the lanes collide, in words ("lane bits 0-4 map to the same bank").
    pub explanation: Option<String>,
    /// Names of run-time values the worst case hinges on.
    pub depends_on: Vec<String>,
    /// Things the analysis had to assume or sample.
    pub notes: Vec<String>,
    /// The warp of the worst case, and the values of the run-time variables there, for
    /// messages.
    pub worst_warp: u64,
    pub worst_case: Vec<(String, i64)>,
    /// True when the factor is only a lower bound: a conflict witnessed at sampled
    /// values, with values not tried that may conflict more.
    pub lower_bound: bool,
    /// When the factor depends on run-time values and was decided for every one of them:
    /// which values give the worst factor and which are conflict-free, in words.
    pub condition: Option<String>,
    /// True when `condition` names the candidate block shapes that give each factor.
    pub condition_names_shapes: bool,
}

/// Why a verdict has no cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undecided {
    /// No lane of any warp reaches the access: it does not run in this context, which
    /// then counts only when no context runs it.
    NoLaneActive,
    /// Anything else, in words.
    Because(String),
}

impl std::fmt::Display for Undecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecided::NoLaneActive => f.write_str("no lane of any warp is active"),
            Undecided::Because(words) => f.write_str(words),
        }
    }
}

impl Serialize for Undecided {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Verdict {
    /// No lane of any warp reaches the access.
    pub fn unreached() -> Verdict {
        Verdict {
            reason: Some(Undecided::NoLaneActive),
            ..Verdict::unknown("")
        }
    }

    pub fn unknown(reason: impl Into<String>) -> Verdict {
        Verdict {
            cost: None,
            reason: Some(Undecided::Because(reason.into())),
            method: Method::Enumeration,
            exact: false,
            explanation: None,
            depends_on: Vec::new(),
            notes: Vec::new(),
            worst_warp: 0,
            worst_case: Vec::new(),
            lower_bound: false,
            condition: None,
            condition_names_shapes: false,
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
