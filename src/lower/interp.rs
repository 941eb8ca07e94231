//! Symbolic interpretation of a function body: every integer value becomes an index-IR
//! expression over thread, loop-counter and uniform variables, and every access to a
//! shared array is recorded with its byte address, guards and loop context.
//!
//! Values are propagated through straight-line code; a branch that assigns a variable
//! merges into a `select` when its condition is known, loops turn their induction
//! variables into `start + step * k` over a counter `k`, and anything that cannot be
//! resolved becomes `Unknown` with a reason, so the access is reported undecided
//! rather than guessed.

//! This file holds the interpreter's state, grouped by concern, and its entry points; the
//! work is in the files of `interp/`, each an `impl Interp` block on one concern:
//! - [`scopes`]: scopes and local variables, declarations;
//! - [`variables`]: the IR's variables (thread coordinates, warp-uniform unknowns) and
//!   the kernel's parameters that become them;
//! - [`statements`], [`branches`], [`loops`]: statements, `if` (guards and merges), loops
//!   (induction variables, trip counts);
//! - [`expressions`], [`names`]: expressions, and what an identifier denotes;
//! - [`calls`], [`inlining`], [`objects`], [`returns`]: calls (built-ins, macros),
//!   helpers inlined at their call, member functions and local objects, helpers' values;
//! - [`places`], [`access`]: the places in shared memory lvalues reach, and the
//!   [`AccessSite`]s recorded there;
//! - [`budget`]: the work limits; [`preproc`], [`structs`], [`vectors`]: preprocessor
//!   conditionals, struct bodies, vector values;
//! - [`invariant`], [`template_values`]: locals and template parameters the same in
//!   every lane whose value bankcheck cannot evaluate, as warp-uniform unknowns.

use crate::diag::Span;
use crate::extract::ast::{Expr, Function, TypeName};
use crate::extract::types::Layout;
use crate::extract::FileSyntax;
use crate::model::assumption::{Assumption, ShapeSource};
use crate::model::ir::{Axis, BlockShape, Expr as Ir, VarInfo, VarKind};
use crate::model::site::{AccessSite, ArrayInfo, InFunction};
use std::collections::{HashMap, HashSet};

use super::fold::fold;
use super::value::Value;
use budget::Budget;
pub(crate) use budget::{start_file, with_file_budget};

mod access;
mod bits;
mod blanked;
mod branches;
mod budget;
mod builtins;
mod calls;
mod constant_branches;
mod cute;
mod expressions;
mod guarded_steps;
mod inlining;
mod invariant;
mod loop_state;
mod loops;
mod names;
mod objects;
mod places;
mod preproc;
mod ptx;
mod reals;
mod returns;
mod scopes;
mod specialisations;
mod statements;
mod structs;
mod tables;
mod template_values;
mod type_calls;
mod uniform_state;
mod variables;
mod vectors;

/// A place in shared memory reached by an lvalue expression.
#[derive(Debug, Clone)]
struct Place {
    array: usize,
    offset: Ir,
    ty: TypeName,
    layout: Option<Layout>,
    pointer: Option<String>,
    index_spans: Vec<Span>,
    plain: bool,
    /// Logical coordinates, one per dimension, for plain subscripts of the whole array.
    coords: Option<Vec<Ir>>,
}

/// One scope's variables. Looked up for every identifier, so hashed with foldhash.
type Vars = foldhash::HashMap<String, Value>;

/// The interpretation context of one function under one block shape.
pub(crate) struct Interp<'a> {
    syn: &'a FileSyntax,
    /// The text the spans being interpreted index into (another file's inside its
    /// helpers).
    text: &'a str,
    arrays: &'a mut Vec<ArrayInfo>,
    /// The accesses recorded so far.
    pub(crate) sites: Vec<AccessSite>,
    /// The IR's variables: the thread coordinates first, then uniforms and counters.
    vars: Vec<VarInfo>,
    block: BlockShape,
    /// What this interpretation asked of `block` (a lowering reused for other shapes):
    /// every read of `block` goes through it.
    pub(crate) shape_reads: super::shape_reads::ShapeReads,
    shape_source: ShapeSource,
    pub(crate) warp_size: u32,
    function: InFunction,
    /// Extra constants (template arguments, `-D` defines).
    extra_constants: &'a HashMap<String, Expr>,
    /// Template type parameters and the types they stand for in this analysis.
    pub(crate) type_args: HashMap<String, TypeName>,
    /// Parameters bound to what the launch's host function builds (a CuTe `TiledCopy`
    /// or layout), read when the parameters are bound.
    pub(crate) host_args: Vec<(String, super::host_args::HostArg)>,
    /// The scopes of local variables, innermost last.
    scopes: Vec<Vars>,
    /// Uniform variables by name (one variable per name).
    uniform_names: foldhash::HashMap<String, usize>,
    /// Local objects of a struct or class type, by name (`Stage st{a};`): their fields
    /// are variables named `st.buf`, and their member functions are inlined with them.
    objects: HashMap<String, (String, Vec<String>)>,
    /// The control flow in force.
    flow: Flow,
    /// How names are resolved.
    names: Names,
    /// The helpers being inlined.
    calls: Calls,
    /// The work limits.
    budget: Budget,
    /// Assumptions made deciding preprocessor conditionals ([`preproc`]).
    pp_assumptions: Vec<Assumption>,
    /// Helpers inlined at least once (the others are lowered on their own).
    pub(crate) inlined: HashSet<String>,
    /// Helpers whose calls give floating-point data without inlining (see `purity`).
    pub(crate) float_only: Option<&'a HashSet<String>>,
    /// Helpers that can hold an access (see `purity::touching_helpers`), when built: a
    /// branch of another configuration that calls none and touches no memory is not
    /// walked.
    pub(crate) touching: Option<&'a HashSet<String>>,
    /// The file's functions by name (indices into `syn.functions`), when built.
    pub(crate) functions_by_name: Option<&'a HashMap<String, Vec<usize>>>,
    /// The structs and classes of the file that own a member function, when built.
    pub(crate) member_owners: Option<&'a HashSet<String>>,
    /// Inside a helper of another file: sites recorded now belong to that file, whose
    /// text this is.
    foreign: Option<std::sync::Arc<str>>,
    /// The text of the file being lowered (`text` changes inside helpers of other files).
    base_text: &'a str,
    /// `arrays` by declaration span, kept by the caller across the functions of a file:
    /// registering an array is a lookup, not a scan of every array of the file.
    pub(crate) array_index: Option<&'a mut foldhash::HashMap<Span, usize>>,
    /// The families of `floor()`s of real values met so far ([`reals`]).
    floors: reals::Floors,
    /// Thread-local arrays that are tables of values only read, by declaration span
    /// ([`tables`]).
    tables: HashMap<crate::diag::Span, Vec<Value>>,
    /// The extents of shared arrays declared in this interpretation that are not
    /// constants but compile-time values it reads as warp-uniform ones (a template
    /// value no instantiation fixes: `float t[N][ROWS][32]`), by array, one per
    /// dimension (`None`: a constant or not known at all). The address over them is
    /// decided for every value, as for any uniform value.
    symbolic_extents: HashMap<usize, Vec<Option<Ir>>>,
}

/// The control flow in force where a statement is interpreted.
#[derive(Default)]
struct Flow {
    /// Conditions every lane reaching here satisfies (`if` conditions, early exits).
    guards: Vec<Ir>,
    /// Nesting of control flow whose condition is not a guard (unknown `if`
    /// conditions, loop bodies, switch cases).
    opaque: u32,
    /// Of those, the `if`s whose condition is data (taken as true for every lane).
    data_ifs: u32,
    /// Why each `if` condition around here that is neither a guard nor data could not be
    /// followed, innermost last: the accesses under one carry it as an assumption.
    unfollowed: Vec<crate::model::reason::Reason>,
    /// A `return`, `break` or `continue` was reached: the rest of the block is skipped.
    returned: bool,
    /// Inductions stepped under a condition that stays false once false, by the span of
    /// that condition, for the loops being interpreted ([`guarded_steps`]).
    guarded: Vec<guarded_steps::GuardedSteps>,
}

/// Which branch of a definition made per branch is taken (`Err`: why that is not
/// decided), with the assumptions that decided it.
type TakenBranch = (Result<Option<usize>, String>, Vec<Assumption>);

/// What the names being evaluated resolve against.
#[derive(Default)]
struct Names {
    /// Values of file constants already evaluated, by their qualified key.
    const_cache: foldhash::HashMap<String, Value>,
    /// Namespaces of the constant definitions being evaluated, innermost last.
    ns_context: Vec<String>,
    /// Structs whose bodies the expressions being evaluated are written in (member
    /// extents, static members), innermost last: their static members are named bare.
    struct_context: Vec<String>,
    /// Set while evaluating a condition or a loop step: a name defined nowhere
    /// (`NUM_THREADS`, `LIMIT`) is then a run-time value of unknown range, so that the
    /// guard or the loop keeps it (and the verdict names it) instead of dropping it.
    unresolved_as_uniform: bool,
    /// Constants and macros whose preprocessor branch is being decided, innermost last
    /// (`constant_branches.rs`): a test on one of them reads it as not yet defined.
    in_branches: Vec<String>,
    /// Whether each macro defined only in branches is defined, as decided with nothing
    /// being decided around it, and whether that decision rested on an assumption.
    defined_in_branches: foldhash::HashMap<String, (Option<bool>, bool)>,
    /// Counts the preprocessor decisions that rested on an assumption (a name taken as
    /// not defined, a toolchain macro's value): a conditional decided while it grew
    /// may be decided the other way by the build, and its dropped branch is checked.
    assumed_decisions: usize,
    /// Which branch of a definition made per branch (a member function or static member
    /// in a struct body's conditional group, a function-like macro) the known macros
    /// take, decided once per interpretation, with the assumptions deciding it stated.
    taken_branches: foldhash::HashMap<String, TakenBranch>,
    /// The type template parameters of the function being interpreted: their members
    /// read as values are constants ([`template_values`]).
    type_params: Vec<String>,
    /// The variables of template values no instantiation fixed, each with the template
    /// parameters it stands for ([`template_values`]).
    template_vars: Vec<(usize, Vec<String>)>,
}

/// The helper calls being inlined, innermost last, and the context the innermost sets.
#[derive(Default)]
struct Calls {
    /// Names of the helpers being inlined (stops recursion).
    stack: Vec<String>,
    /// The calls being inlined, each with the text it is written in (`None`: the file
    /// being lowered): an access in a helper is reported at the call that supplies its
    /// address.
    spans: Vec<(Span, Option<std::sync::Arc<str>>)>,
    /// For each call of `spans`, its reference parameters bound to places in shared
    /// memory, with the argument that names the place: an access through one is
    /// reported at that argument (`swap(s[a], s[b])`), where the address is formed.
    ref_args: Vec<Vec<(String, Span)>>,
    /// Number of guards in force when the current inlined helper was entered.
    guard_base: usize,
    /// The `return`s reached in the inlined helper ([`returns`]).
    returns: Returns,
    /// The struct whose member function is being inlined: its fields are named bare,
    /// and its other member functions are called without an object.
    owner: Option<String>,
    /// The object in shared memory whose member function is being inlined: `this` and
    /// its fields, named bare, are places in shared memory.
    this_place: Option<Place>,
}

/// The returns reached in the helper being inlined ([`returns`]).
#[derive(Debug, Default)]
struct Returns {
    /// Each return's guard (`None`: every lane reaching the helper's end) and value.
    entries: Vec<(Option<Ir>, Value)>,
    /// A return was reached under control flow that is not a guard.
    opaque: bool,
    /// The nesting of unfollowed control flow when the helper was entered.
    opaque_base: u32,
    /// A return was reached under control flow that is not a guard, all of it `if`s on
    /// data: the helper's value depends on data.
    on_data: bool,
    /// The nesting of `if`s on data when the helper was entered.
    data_base: u32,
}

fn int(c: i64) -> Ir {
    Ir::Const(c)
}

/// Whether `name` is a scalar type whose values bankcheck tracks as integers.
fn is_integer_type(t: &TypeName) -> bool {
    if t.pointers > 0 {
        return false;
    }
    let b = t.base.as_str();
    !(b.contains("float")
        || b.contains("double")
        || b.contains("half")
        || b.contains("bfloat")
        || b == "bool")
}

impl<'a> Interp<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        syn: &'a FileSyntax,
        text: &'a str,
        arrays: &'a mut Vec<ArrayInfo>,
        block: BlockShape,
        shape_source: ShapeSource,
        warp_size: u32,
        function: String,
        extra_constants: &'a HashMap<String, Expr>,
    ) -> Self {
        // Thread coordinates are named as the source language names them.
        let thread = if syn.hlsl {
            "SV_GroupThreadID"
        } else {
            "threadIdx"
        };
        let vars = vec![
            VarInfo {
                name: format!("{thread}.x"),
                kind: VarKind::Thread(Axis::X),
                loop_value: None,
            },
            VarInfo {
                name: format!("{thread}.y"),
                kind: VarKind::Thread(Axis::Y),
                loop_value: None,
            },
            VarInfo {
                name: format!("{thread}.z"),
                kind: VarKind::Thread(Axis::Z),
                loop_value: None,
            },
        ];
        Interp {
            syn,
            text,
            arrays,
            sites: Vec::new(),
            vars,
            block,
            shape_reads: super::shape_reads::ShapeReads::default(),
            shape_source,
            warp_size,
            function: InFunction::new(function),
            extra_constants,
            type_args: HashMap::new(),
            host_args: Vec::new(),
            scopes: vec![Vars::default()],
            uniform_names: foldhash::HashMap::default(),
            objects: HashMap::new(),
            flow: Flow::default(),
            names: Names::default(),
            calls: Calls::default(),
            budget: Budget::new(),
            pp_assumptions: Vec::new(),
            inlined: HashSet::new(),
            float_only: None,
            touching: None,
            functions_by_name: None,
            member_owners: None,
            foreign: None,
            base_text: text,
            array_index: None,
            floors: reals::Floors::default(),
            tables: HashMap::new(),
            symbolic_extents: HashMap::new(),
        }
    }

    /// Charges the steps this interpretation spent to the file's budget.
    /// Steps left for this function, and what its budget started at: a lowering reused
    /// for another block shape is charged what it spent (`lower::lower_function`).
    pub(crate) fn steps_left(&self) -> u64 {
        self.budget.steps_left()
    }

    pub(crate) fn steps_start(&self) -> u64 {
        self.budget.steps_start()
    }

    /// Charges `n` steps at once: the cost of the lowering reused in place of this one.
    pub(crate) fn take_steps(&mut self, n: u64) {
        self.budget.take(n);
    }

    /// True once the function's budget is spent.
    pub(crate) fn out_of_steps(&self) -> bool {
        self.budget.exhausted()
    }

    pub(crate) fn finish(&mut self) {
        self.budget.charge_file();
    }

    /// Lowers `f`, a function of another file, as the root: its spans index into that
    /// file's text, and its sites belong to that file.
    pub(crate) fn enter_foreign(&mut self, f: &'a Function) {
        if let Some(t) = &f.foreign_text {
            self.text = t;
            self.foreign = Some(t.clone());
        }
    }
}
