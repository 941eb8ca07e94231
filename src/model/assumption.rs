//! What a verdict had to take for granted, and where a block shape came from, as data.
//! Stages decide on the variants (a candidate block shape, a macro taken as undefined);
//! only `Display` turns them into the words the reports print.

use crate::model::ir::BlockShape;
use std::fmt;

/// Where a block shape that the code fixes came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ShapeOrigin {
    /// HLSL `[numthreads(x, y, z)]`.
    NumThreads,
    /// A `// bankcheck: block(x, y, z)` comment above the function.
    Annotation,
    /// `lint.toml` (by kernel name or for every kernel).
    Configuration,
    /// A launch in the same file.
    LaunchOnLine(usize),
    /// A launch in another file of the run: the file and where in it (`k.cu (on line 3)`).
    LaunchIn(String),
    /// `__launch_bounds__(n)` of a one-dimensional kernel.
    LaunchBounds,
    /// The shape of the file's single `[numthreads]` entry, given to one of its helpers.
    OfEntry(Box<ShapeOrigin>, String),
}

impl ShapeOrigin {
    /// Where in its file the launch that fixed the shape is, for a kernel launched from
    /// another file (`on line 3`); the origin in words otherwise.
    pub fn place(&self, shape: BlockShape) -> String {
        match self {
            ShapeOrigin::LaunchOnLine(line) => format!("on line {line}"),
            other => other.words(shape),
        }
    }

    fn words(&self, s: BlockShape) -> String {
        let (x, y, z) = (s.x, s.y, s.z);
        match self {
            ShapeOrigin::NumThreads => format!("[numthreads({x}, {y}, {z})]"),
            ShapeOrigin::Annotation => format!("block ({x}, {y}, {z}) from an annotation"),
            ShapeOrigin::Configuration => format!("block ({x}, {y}, {z}) from configuration"),
            ShapeOrigin::LaunchOnLine(line) => {
                format!("block ({x}, {y}, {z}) from the launch on line {line}")
            }
            ShapeOrigin::LaunchIn(place) => {
                format!("block ({x}, {y}, {z}) from the launch in {place}")
            }
            ShapeOrigin::LaunchBounds => format!("block ({x}, 1, 1) from __launch_bounds__"),
            ShapeOrigin::OfEntry(inner, entry) => format!("{} of `{entry}`", inner.words(s)),
        }
    }
}

/// Why nothing fixed the block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShapeGap {
    /// No launch, annotation, setting or `[numthreads]`.
    NothingFixes,
    /// `__launch_bounds__` gives the thread count, not how it splits over the axes.
    ThreadCountOnly,
    /// The launches (`dim3(32, rows)`) or an assertion (`assert(blockDim.x == 32)`) fix
    /// some extents, and run-time values the others.
    SomeExtents,
}

/// One candidate of the block shapes the code allows, when nothing fixes the shape
/// (docs/bank-model.md, "Candidate block shapes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CandidateShape {
    pub shape: BlockShape,
    pub gap: ShapeGap,
    /// How many candidates were analysed, and how many the family has (more when it had
    /// to be sampled).
    pub analysed: usize,
    pub family: usize,
}

impl CandidateShape {
    /// True when only some of the family's candidates were analysed: agreement among
    /// them proves nothing about the others.
    pub fn sampled(&self) -> bool {
        self.family > self.analysed
    }

    /// True when there were several candidates (the verdict is then the same for all).
    pub fn one_of_several(&self) -> bool {
        self.sampled() || self.analysed != 1
    }

    /// `block (32, 8, 1)`.
    pub fn shape_words(&self) -> String {
        let s = self.shape;
        format!("block ({}, {}, {})", s.x, s.y, s.z)
    }
}

impl fmt::Display for CandidateShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.gap {
            ShapeGap::ThreadCountOnly => "`__launch_bounds__` fixes only the thread count",
            ShapeGap::NothingFixes => "nothing in the file fixes the block shape",
            ShapeGap::SomeExtents => {
                "the launches or assertions in the file fix only some of its extents"
            }
        };
        let (n, total) = (self.analysed, self.family);
        let of = if total > n {
            format!("one of {n} sampled of {total} candidate shapes")
        } else if n == 1 {
            "the only candidate shape".to_string()
        } else {
            format!("one of {n} candidate shapes")
        };
        write!(
            f,
            "{} assumed: {why}; {of} (docs/bank-model.md); set it with `// bankcheck: block(x, y, z)` or lint.toml",
            self.shape_words()
        )
    }
}

/// Where the block shape of a lowering came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ShapeSource {
    /// Fixed by the source or the settings.
    Known(BlockShape, ShapeOrigin),
    /// Nothing fixed it: one candidate of the family the code allows.
    Assumed(CandidateShape),
    /// No shape is stated: evaluation of constants, and the analyses' tests and caches,
    /// where the shape in the IR is all that matters.
    Unstated,
}

/// In words, as the analyses' debugging output shows it.
impl serde::Serialize for ShapeSource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for ShapeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeSource::Known(shape, origin) => f.write_str(&origin.words(*shape)),
            ShapeSource::Assumed(c) => c.fmt(f),
            ShapeSource::Unstated => Ok(()),
        }
    }
}

/// Something a verdict rests on that the code does not state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Assumption {
    /// A block shape nothing fixes: the site was lowered under this candidate.
    BlockShape(CandidateShape),
    /// A macro defined nowhere, taken as not defined in a preprocessor condition.
    MacroUndefined(String),
    /// The access is in a preprocessor branch the known macros drop, checked as code of
    /// another configuration.
    OtherConfiguration,
    /// A conditional group the front end resolved as a device compilation, in the front
    /// end's words.
    ResolvedConditional(String),
    /// A toolchain macro (`__CUDA_ARCH__`, `CUDART_VERSION`) a preprocessor condition
    /// needed the value of, taken as the one a typical compilation gives it.
    ToolchainValue {
        name: String,
        value: &'static str,
        why: &'static str,
    },
    /// A template parameter (or a member of a type parameter read as a value) that no
    /// instantiation bankcheck follows fixes, taken as a compile-time constant the same
    /// in every lane, of any value.
    TemplateValue(String),
    /// The access is under an `if` whose condition bankcheck cannot follow (why, in
    /// words): it was analysed with every lane taking the branch. Lanes switched off
    /// cannot make a conflict-free access conflict, so `ok` holds whatever the condition
    /// selects; a conflict does not, and the pipeline leaves it undecided.
    UnfollowedCondition(crate::model::reason::Reason),
    /// Only some instantiations of a template were analysed.
    SomeInstantiations {
        analysed: usize,
        total: usize,
        function: String,
    },
}

impl Assumption {
    /// The macro taken as not defined, for the includers that may define it.
    pub fn macro_taken_undefined(&self) -> Option<&String> {
        match self {
            Assumption::MacroUndefined(name) => Some(name),
            _ => None,
        }
    }

    /// The template value taken as any value, for the includers that may fix it.
    pub fn template_value(&self) -> Option<&String> {
        match self {
            Assumption::TemplateValue(name) => Some(name),
            _ => None,
        }
    }

    /// Why the condition of an `if` around the access could not be followed.
    pub fn unfollowed_condition(&self) -> Option<&crate::model::reason::Reason> {
        match self {
            Assumption::UnfollowedCondition(why) => Some(why),
            _ => None,
        }
    }

    /// The candidate block shape the site was lowered under.
    pub fn candidate_shape(&self) -> Option<&CandidateShape> {
        match self {
            Assumption::BlockShape(c) => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Assumption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Assumption::BlockShape(c) => c.fmt(f),
            Assumption::MacroUndefined(name) => write!(
                f,
                "`{name}` is taken as not defined in a preprocessor condition: neither the file, its headers nor the settings define it"
            ),
            Assumption::OtherConfiguration => f.write_str(
                "in a preprocessor branch the known macros drop: checked as code of another configuration",
            ),
            Assumption::ResolvedConditional(words) => f.write_str(words),
            Assumption::ToolchainValue { name, value, why } => write!(
                f,
                "`{name}` is taken as {value}, {why}, in a preprocessor condition (choose with `-D {name}=VALUE` or lint.toml `defines`)"
            ),
            Assumption::TemplateValue(name) => match name.split_once("::") {
                Some((owner, _)) => write!(
                    f,
                    "`{name}` is a member of the template parameter `{owner}`, which no instantiation bankcheck follows fixes: a compile-time constant, the same in every lane, of any value"
                ),
                None => write!(
                    f,
                    "`{name}` is a template parameter that no instantiation bankcheck follows fixes: a compile-time constant, the same in every lane, of any value its type allows"
                ),
            },
            Assumption::UnfollowedCondition(why) => write!(
                f,
                "under an `if` whose condition bankcheck cannot follow ({}): analysed with every lane taking it, which proves a conflict-free access conflict-free for whatever lanes the condition selects, and no conflict",
                why.words()
            ),
            Assumption::SomeInstantiations {
                analysed,
                total,
                function,
            } => write!(
                f,
                "only {analysed} of the {total} instantiations of `{function}` were analysed"
            ),
        }
    }
}
