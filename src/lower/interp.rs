//! Symbolic interpretation of a function body: every integer value becomes an index-IR
//! expression over thread, loop-counter and uniform variables, and every access to a
//! shared array is recorded with its byte address, guards and loop context.
//!
//! Values are propagated through straight-line code; a branch that assigns a variable
//! merges into a `select` when its condition is known, loops turn their induction
//! variables into `start + step * k` over a counter `k`, and anything that cannot be
//! resolved becomes `Unknown` with a reason, so the access is reported undecided
//! rather than guessed.

use super::fold::fold;
use super::steps::{assigned_names, step_of, Step};
pub use super::value::Value;
use crate::diag::{AccessKind, Span};
use crate::extract::ast::{BinaryOp, Expr, ExprKind, Function, Stmt, TypeName, UnaryOp, VarDecl};
use crate::extract::types::Layout;
use crate::extract::FileSyntax;
use crate::model::assumption::{Assumption, ShapeSource};
use crate::model::ir::{
    Axis, BinOp, BlockShape, Expr as Ir, LoweredAccess, UnOp, VarInfo, VarKind,
};
use crate::model::reason::Reason;
use crate::model::site::{AccessSite, ArrayInfo, InFunction, LoweringContext};
use std::collections::{HashMap, HashSet};

mod preproc;
mod returns;
mod structs;
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

/// A member function call being inlined: the struct, the object it is called on (`None`
/// for a static member or a call from another member), and the fields bound in it.
struct Method {
    owner: String,
    object: Option<String>,
    fields: Vec<(String, Value)>,
    /// The object in shared memory the member function is called on (`h.add(b)` with
    /// `__shared__ Hist h`): its fields are places there.
    this: Option<Place>,
}

/// One scope's variables. Looked up for every identifier, so hashed with foldhash.
type Vars = foldhash::HashMap<String, Value>;

/// The interpretation context of one function under one block shape.
pub struct Interp<'a> {
    pub syn: &'a FileSyntax,
    pub text: &'a str,
    pub arrays: &'a mut Vec<ArrayInfo>,
    pub sites: Vec<AccessSite>,
    pub vars: Vec<VarInfo>,
    pub block: BlockShape,
    /// What this interpretation asked of `block` (a lowering reused for other shapes).
    pub shape_reads: super::shape_reads::ShapeReads,
    pub shape_source: ShapeSource,
    pub warp_size: u32,
    pub function: InFunction,
    /// Extra constants (template arguments, `-D` defines).
    pub extra_constants: &'a HashMap<String, Expr>,
    /// Template type parameters and the types they stand for in this analysis.
    pub type_args: HashMap<String, TypeName>,
    scopes: Vec<Vars>,
    guards: Vec<Ir>,
    /// Number of guards in force when the current inlined helper was entered.
    inline_guard_base: usize,
    depth: u32,
    uniform_names: foldhash::HashMap<String, usize>,
    returned: bool,
    /// The `return`s reached in the inlined helper ([`returns`]).
    returns: returns::Returns,
    /// Nesting of control flow whose condition is not a guard (unknown `if`
    /// conditions, loop bodies, switch cases).
    opaque_control: u32,
    /// Set while evaluating a condition or a loop step: a name defined nowhere
    /// (`NUM_THREADS`, `LIMIT`) is then a run-time value of unknown range, so that the
    /// guard or the loop keeps it (and the verdict names it) instead of dropping it.
    unresolved_as_uniform: bool,
    /// Assumptions made deciding preprocessor conditionals ([`preproc`]).
    pp_assumptions: Vec<Assumption>,
    /// Values of file constants already evaluated, by their qualified key.
    const_cache: foldhash::HashMap<String, Value>,
    /// Namespaces of the constant definitions being evaluated, innermost last.
    ns_context: Vec<String>,
    /// Structs whose bodies the expressions being evaluated are written in (member
    /// extents, static members), innermost last: their static members are named bare.
    struct_context: Vec<String>,
    /// Names of the helpers being inlined, innermost last (stops recursion).
    call_stack: Vec<String>,
    /// The calls being inlined, innermost last, each with the text it is written in
    /// (`None`: the file being lowered): an access in a helper is reported at the call
    /// that supplies its address.
    call_spans: Vec<(Span, Option<std::sync::Arc<str>>)>,
    /// Local objects of a struct or class type, by name (`Stage st{a};`): their fields
    /// are variables named `st.buf`, and their member functions are inlined with them.
    objects: HashMap<String, (String, Vec<String>)>,
    /// The struct whose member function is being inlined: its fields are named bare,
    /// and its other member functions are called without an object.
    owner: Option<String>,
    /// The object in shared memory whose member function is being inlined: `this` and
    /// its fields, named bare, are places in shared memory.
    this_place: Option<Place>,
    /// Helpers inlined at least once (the others are lowered on their own).
    pub inlined: HashSet<String>,
    /// Helpers whose calls give floating-point data without inlining (see `purity`).
    pub float_only: Option<&'a HashSet<String>>,
    /// The file's functions by name (indices into `syn.functions`), when built.
    pub functions_by_name: Option<&'a HashMap<String, Vec<usize>>>,
    /// Calls still allowed to be inlined in this function: bounds the cost of deep,
    /// wide call trees.
    inline_budget: u32,
    /// Statements interpreted inside inlined helpers so far.
    inline_work: u32,
    /// Inside a helper of another file: sites recorded now belong to that file, whose
    /// text this is.
    foreign: Option<std::sync::Arc<str>>,
    /// The text of the file being lowered (`text` changes inside helpers of other files).
    base_text: &'a str,
    /// Work left for this function, in steps ([`MAX_STEPS`], less when the file has less).
    pub(super) steps_left: u64,
    /// What `steps_left` started at.
    pub(super) steps_start: u64,
    /// `arrays` by declaration span, kept by the caller across the functions of a file:
    /// registering an array is a lookup, not a scan of every array of the file.
    pub array_index: Option<&'a mut foldhash::HashMap<Span, usize>>,
}

/// Largest index expression (in IR nodes) lowering builds before giving up.
const MAX_IR_NODES: usize = 4000;
/// Helpers nest this deep at most (callback chains of library headers reach 6 or 7).
const MAX_CALL_DEPTH: usize = 8;
/// Calls inlined per lowered function at most.
const MAX_INLINED_CALLS: u32 = 1500;
/// Statements interpreted inside inlined helpers per lowered function at most: many
/// small helpers (bit-field remaps) are cheap, a few huge ones called often are not.
const MAX_INLINED_STATEMENTS: u32 = 6000;
/// Work one function (under one block shape) may cost, in steps: a statement or an
/// expression interpreted is one step, a large index expression built or recorded
/// costs in proportion to its size. Counted, not timed, so verdicts stay deterministic;
/// past it every value is `unknown` ("too much work"). Real kernels of the corpus use
/// a few thousand; a chain of doubling macros or of dereferences would use 2^n.
pub const MAX_STEPS: u64 = 1_000_000;
/// Expression nesting the interpreter follows (the converter already bounds syntax
/// trees at [`crate::extract::convert::MAX_DEPTH`]; macro bodies and inlined helpers
/// nest further).
const MAX_EVAL_DEPTH: u32 = 200;
/// Loop iterations `trip_count` evaluates over all threads before giving up.
const MAX_TRIP_EVALS: u64 = 1 << 20;
/// Steps a whole file may cost: a base and an allowance per byte, so that cost grows
/// linearly with the file (functions lowered more than once, through headers or
/// includers, count each time).
const FILE_BASE_STEPS: u64 = 4_000_000;
const FILE_STEPS_PER_BYTE: u64 = 64;
/// Why a value is unknown once the budget is spent.
pub(crate) const TOO_MUCH_WORK: &str =
    "too much work: bankcheck's budget of interpretation steps for this function or file is spent";

thread_local! {
    /// Steps left for the file being checked on this thread ([`start_file`]).
    static FILE_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Starts the step budget of a file of `bytes` bytes, checked on this thread.
pub fn start_file(bytes: usize) {
    FILE_STEPS
        .set(FILE_BASE_STEPS.saturating_add(FILE_STEPS_PER_BYTE.saturating_mul(bytes as u64)));
}

/// Runs `f` with a budget of its own for a file of `bytes` bytes, then restores the
/// budget of the file being checked: a lowering that the run caches and shares (an
/// includer's) must not depend on which file asked for it first.
pub fn with_file_budget<T>(bytes: usize, f: impl FnOnce() -> T) -> T {
    let saved = FILE_STEPS.get();
    start_file(bytes);
    let out = f();
    FILE_STEPS.set(saved);
    out
}

fn int(c: i64) -> Ir {
    Ir::Const(c)
}

fn map_binop(op: BinaryOp) -> BinOp {
    match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::And => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        BinaryOp::Xor => BinOp::Xor,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::LogicAnd => BinOp::LogicAnd,
        BinaryOp::LogicOr => BinOp::LogicOr,
    }
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
    pub fn new(
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
            },
            VarInfo {
                name: format!("{thread}.y"),
                kind: VarKind::Thread(Axis::Y),
            },
            VarInfo {
                name: format!("{thread}.z"),
                kind: VarKind::Thread(Axis::Z),
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
            scopes: vec![Vars::default()],
            guards: Vec::new(),
            inline_guard_base: 0,
            depth: 0,
            uniform_names: foldhash::HashMap::default(),
            returned: false,
            returns: returns::Returns::default(),
            opaque_control: 0,
            unresolved_as_uniform: false,
            pp_assumptions: Vec::new(),
            const_cache: foldhash::HashMap::default(),
            ns_context: Vec::new(),
            struct_context: Vec::new(),
            call_stack: Vec::new(),
            call_spans: Vec::new(),
            objects: HashMap::new(),
            owner: None,
            this_place: None,
            inlined: HashSet::new(),
            float_only: None,
            functions_by_name: None,
            inline_budget: MAX_INLINED_CALLS,
            inline_work: 0,
            foreign: None,
            base_text: text,
            steps_left: MAX_STEPS.min(FILE_STEPS.get()),
            steps_start: MAX_STEPS.min(FILE_STEPS.get()),
            array_index: None,
        }
    }

    /// Charges the steps this interpretation spent to the file's budget.
    pub fn finish(&mut self) {
        let spent = self.steps_start - self.steps_left;
        FILE_STEPS.set(FILE_STEPS.get().saturating_sub(spent));
        self.steps_start = self.steps_left;
    }

    /// Spends `n` steps of the budget; false once it is exhausted.
    fn spend(&mut self, n: u64) -> bool {
        if self.steps_left == 0 {
            return false;
        }
        self.steps_left = self.steps_left.saturating_sub(n.max(1));
        true
    }

    /// Whether the budget is spent (everything from now on is unknown).
    pub fn exhausted(&self) -> bool {
        self.steps_left == 0
    }

    /// `v`, or `unknown` when an index expression in it is too large to follow; the
    /// size is charged to the budget (building it cost that much).
    fn bounded(&mut self, v: Value) -> Value {
        let size = value_size(&v);
        if size > MAX_IR_NODES {
            return Value::Unknown("the index expression grows too large to follow".into());
        }
        self.spend(size as u64 / 2);
        v
    }

    fn thread(&self, axis: Axis) -> Ir {
        if !self.shape_reads.spans(self.block, axis) {
            return int(0);
        }
        Ir::Var(axis as usize)
    }

    /// The linear thread id `x + y*Dx + z*Dx*Dy`.
    fn linear_tid(&self) -> Ir {
        let b = self.shape_reads.for_linear_id(self.block);
        let y = fold(BinOp::Mul, self.thread(Axis::Y), int(i64::from(b.x)));
        let z = fold(
            BinOp::Mul,
            self.thread(Axis::Z),
            int(i64::from(b.x) * i64::from(b.y)),
        );
        fold(BinOp::Add, fold(BinOp::Add, self.thread(Axis::X), y), z)
    }

    /// A new warp-uniform unknown, distinct from every other (one value read at one place).
    fn fresh_uniform(&mut self, name: &str) -> Ir {
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            kind: VarKind::Uniform { range: None },
        });
        Ir::Var(i)
    }

    fn uniform(&mut self, name: &str, range: Option<(i64, i64)>) -> Ir {
        if let Some(&i) = self.uniform_names.get(name) {
            return Ir::Var(i);
        }
        let i = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            kind: VarKind::Uniform { range },
        });
        self.uniform_names.insert(name.to_string(), i);
        Ir::Var(i)
    }

    /// Opens a scope for [`Interp::bind_value`] (used to evaluate launch arguments).
    pub fn push_scope(&mut self) {
        self.scopes.push(Vars::default());
    }

    /// Closes the scope opened by [`Interp::push_scope`].
    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// Binds `name` to `v` in the innermost scope.
    pub fn bind_value(&mut self, name: &str, v: Value) {
        self.bind(name, v);
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: &str, v: Value) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), v);
        }
    }

    /// Assigns to an existing variable in the scope that holds it (or binds it here).
    fn assign(&mut self, name: &str, v: Value) {
        for s in self.scopes.iter_mut().rev() {
            if let Some(slot) = s.get_mut(name) {
                *slot = v;
                return;
            }
        }
        self.bind(name, v);
    }

    /// Binds the kernel's parameters: HLSL semantics, integers as uniform values.
    /// Lowers `f`, a function of another file, as the root: its spans index into that
    /// file's text, and its sites belong to that file.
    pub fn enter_foreign(&mut self, f: &'a Function) {
        if let Some(t) = &f.foreign_text {
            self.text = t;
            self.foreign = Some(t.clone());
        }
    }

    pub fn bind_params(&mut self, f: &Function) {
        let b = self.block;
        for p in &f.params {
            let v = match p.semantic.as_deref() {
                // `uint gtid : SV_GroupThreadID` (a scalar) is the x component.
                Some("SV_GROUPTHREADID") if is_scalar_type(&p.ty) => {
                    Value::Int(self.thread(Axis::X))
                }
                Some("SV_GROUPTHREADID") => self.vec3_threads(),
                Some("SV_GROUPINDEX") => Value::Int(self.linear_tid()),
                Some("SV_DISPATCHTHREADID") => {
                    let b = self.shape_reads.whole(b);
                    let gx = self.uniform("SV_GroupID.x", Some((0, 65535)));
                    let gy = self.uniform("SV_GroupID.y", Some((0, 65535)));
                    let gz = self.uniform("SV_GroupID.z", Some((0, 65535)));
                    let c = |g: Ir, d: u32, t: Ir| {
                        Value::Int(fold(BinOp::Add, fold(BinOp::Mul, g, int(i64::from(d))), t))
                    };
                    Value::Vector(vec![
                        c(gx, b.x, self.thread(Axis::X)),
                        c(gy, b.y, self.thread(Axis::Y)),
                        c(gz, b.z, self.thread(Axis::Z)),
                    ])
                }
                Some("SV_GROUPID") => {
                    let gx = self.uniform("SV_GroupID.x", Some((0, 65535)));
                    let gy = self.uniform("SV_GroupID.y", Some((0, 65535)));
                    let gz = self.uniform("SV_GroupID.z", Some((0, 65535)));
                    Value::Vector(vec![Value::Int(gx), Value::Int(gy), Value::Int(gz)])
                }
                _ if !f.is_kernel && p.ty.pointers == 0 && !p.array_or_ref => Value::Unknown(
                    format!(
                        "`{}` is a parameter of `{}`, which no kernel in the file calls",
                        p.name, f.name
                    )
                    .into(),
                ),
                _ => {
                    if p.ty.pointers > 0 || p.array_or_ref {
                        Value::Memory
                    } else if is_integer_type(&p.ty)
                        && self.layout(&p.ty).is_some_and(|l| l.size <= 8)
                    {
                        let range = if p.ty.base.contains("unsigned") || p.ty.base.starts_with('u')
                        {
                            Some((0, i64::from(u32::MAX)))
                        } else {
                            None
                        };
                        Value::Int(self.uniform(&p.name, range))
                    } else {
                        Value::Data(format!("`{}` is not an integer parameter", p.name))
                    }
                }
            };
            // A scalar parameter with a vector semantic holds its x component; a
            // `uint2` one its first two.
            let v = match v {
                Value::Vector(mut c) if p.semantic.is_some() && is_scalar_type(&p.ty) => {
                    c.swap_remove(0)
                }
                v @ Value::Vector(_) => super::vector::fit(&p.ty, v, &self.syn.typedefs),
                other => other,
            };
            if !p.name.is_empty() {
                self.bind(&p.name, v);
            }
        }
    }

    fn vec3_threads(&self) -> Value {
        Value::Vector(vec![
            Value::Int(self.thread(Axis::X)),
            Value::Int(self.thread(Axis::Y)),
            Value::Int(self.thread(Axis::Z)),
        ])
    }

    // ----- statements -----

    pub fn block(&mut self, stmts: &[Stmt]) {
        let guard_len = self.guards.len();
        self.scopes.push(Vars::default());
        for s in stmts {
            if self.returned {
                break;
            }
            self.stmt(s);
        }
        self.scopes.pop();
        self.guards.truncate(guard_len);
    }

    fn stmt(&mut self, s: &Stmt) {
        if !self.call_stack.is_empty() {
            self.inline_work += 1;
        }
        self.spend(1);
        match s {
            Stmt::Decl(decls) => {
                for d in decls {
                    self.declare(d);
                }
            }
            Stmt::Expr(e) => {
                self.eval(e);
            }
            Stmt::Block(b) => self.block(b),
            Stmt::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_deref()),
            Stmt::For {
                init,
                cond,
                update,
                body,
                ..
            } => self.for_stmt(init, cond.as_ref(), update, body),
            Stmt::While {
                cond,
                body,
                do_while,
            } => {
                let assigned = assigned_names(body);
                self.invalidate(&assigned, "it changes in a loop");
                if !*do_while {
                    self.eval(cond);
                }
                self.opaque_control += 1;
                self.block(std::slice::from_ref(body));
                self.opaque_control -= 1;
                self.returned = false;
                self.invalidate(&assigned, "it changes in a loop");
            }
            Stmt::Switch { cond, body } => {
                self.eval(cond);
                let assigned = assigned_names(body);
                self.invalidate(&assigned, "it is assigned in a switch");
                // Each case is walked on its own: a `break` ends its case, not the switch.
                let cases: &[Stmt] = match body.as_ref() {
                    Stmt::Block(b) => b,
                    other => std::slice::from_ref(other),
                };
                self.opaque_control += 1;
                for case in cases {
                    self.block(std::slice::from_ref(case));
                    self.returned = false;
                }
                self.opaque_control -= 1;
                self.invalidate(&assigned, "it is assigned in a switch");
            }
            Stmt::Return(e) => {
                let v = e.as_ref().map(|e| self.eval(e));
                if !self.call_stack.is_empty() {
                    self.record_return(v);
                }
                self.returned = true;
            }
            // Lanes that leave the loop body skip the rest of it: like a return, the
            // enclosing `if` turns into a guard on what follows.
            Stmt::Break | Stmt::Continue => self.returned = true,
            Stmt::Other => {}
        }
    }

    fn invalidate(&mut self, names: &[String], why: &str) {
        for n in names {
            if let Some((object, method)) = n.split_once(".*") {
                self.invalidate_fields(object, method, why);
                continue;
            }
            // A shared variable is read from memory, whatever was stored before.
            if matches!(self.lookup(n), Some(Value::Array(_))) {
                continue;
            }
            if self.lookup(n).is_some() {
                self.assign(
                    n,
                    Value::Unknown(
                        format!("`{n}` is assigned where bankcheck cannot follow it ({why})")
                            .into(),
                    ),
                );
            }
        }
    }

    fn declare(&mut self, d: &VarDecl) {
        if d.shared {
            self.register_array(d);
            return;
        }
        if !d.extents.is_empty() {
            self.bind(&d.name, Value::Local);
            if let Some(init) = &d.init {
                self.eval(init);
            }
            return;
        }
        if d.ty.pointers == 0 && self.declare_object(d) {
            return;
        }
        let v = match &d.init {
            Some(init) => {
                let v = self.eval(init);
                self.convert_to(&d.ty, v)
            }
            None => {
                super::vector::undefined(&d.name, &d.ty, &self.syn.typedefs).unwrap_or_else(|| {
                    Value::Unknown(format!("`{}` is declared without a value", d.name).into())
                })
            }
        };
        self.bind(&d.name, v);
    }

    /// Applies a declared type to a value: pointer types retype shared pointers.
    fn convert_to(&self, ty: &TypeName, v: Value) -> Value {
        match v {
            Value::Array(a) if ty.pointers > 0 => Value::Ptr {
                array: a,
                offset: int(0),
                pointee: TypeName {
                    base: ty.base.clone(),
                    pointers: ty.pointers - 1,
                },
                name: None,
            },
            Value::Ptr { array, offset, .. } if ty.pointers > 0 && ty.base != "auto" => {
                Value::Ptr {
                    array,
                    offset,
                    pointee: TypeName {
                        base: ty.base.clone(),
                        pointers: ty.pointers - 1,
                    },
                    name: None,
                }
            }
            other => super::vector::fit(ty, other, &self.syn.typedefs),
        }
    }

    pub fn register_array(&mut self, d: &VarDecl) -> usize {
        let layout = self.layout(&d.ty);
        let extents: Vec<Option<u64>> = d
            .extents
            .iter()
            .map(|e| {
                e.as_ref()
                    .and_then(|e| self.const_eval(e))
                    .and_then(|v| u64::try_from(v).ok())
            })
            .collect();
        let info = ArrayInfo {
            name: d.name.clone(),
            name_span: d.name_span,
            decl_span: d.span,
            element_type: d.ty.base.clone(),
            element_bytes: layout.map_or(0, |l| l.size as u32),
            extent_spans: d
                .extents
                .iter()
                .map(|e| e.as_ref().map(|e| e.span))
                .collect(),
            dynamic: d.extern_ || d.extents.iter().any(Option::is_none),
            extents,
        };
        let found = match &self.array_index {
            Some(index) => index.get(&info.name_span).copied(),
            None => self
                .arrays
                .iter()
                .position(|a| a.name_span == info.name_span),
        };
        let idx = if let Some(i) = found {
            // Another instantiation with another element type or extents: this one's hold
            // for the accesses that follow; no single fix fits them all.
            let a = &mut self.arrays[i];
            if (info.element_bytes != 0 && a.element_bytes != info.element_bytes)
                || a.extents != info.extents
            {
                a.element_bytes = info.element_bytes;
                a.extents = info.extents;
                a.dynamic = true;
            }
            i
        } else {
            if let Some(index) = &mut self.array_index {
                index.insert(info.name_span, self.arrays.len());
            }
            self.arrays.push(info);
            self.arrays.len() - 1
        };
        self.bind(&d.name, Value::Array(idx));
        idx
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Stmt, otherwise: Option<&Stmt>) {
        if self.preproc_if(cond, then, otherwise) {
            return;
        }
        // An early exit (`if (i >= LIMIT) break;`) guards what follows: a name defined
        // nowhere in its condition is a run-time value. Other conditions keep such a name
        // unknown (values merged under them would grow without bound).
        let exits = |s: &Stmt| match s {
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => true,
            Stmt::Block(b) => matches!(
                b.as_slice(),
                [Stmt::Break | Stmt::Continue | Stmt::Return(_)]
            ),
            _ => false,
        };
        let c = if exits(then) && otherwise.is_none() {
            self.eval_control(cond)
        } else {
            self.eval(cond)
        };
        // A constant condition (`if (0)`, a resolved `#ifdef`) takes one branch only.
        if let Some(k) = match &c {
            Value::Int(e) => e.as_const(),
            _ => None,
        } {
            if k != 0 {
                self.block(std::slice::from_ref(then));
            } else if let Some(o) = otherwise {
                self.block(std::slice::from_ref(o));
            }
            return;
        }
        let guard = match &c {
            Value::Int(e) => Some(e.clone()),
            _ => None,
        };
        let before = self.scopes.clone();
        if let Some(g) = &guard {
            self.guards.push(g.clone());
        }
        let opaque = u32::from(guard.is_none());
        self.opaque_control += opaque;
        self.block(std::slice::from_ref(then));
        if guard.is_some() {
            self.guards.pop();
        }
        let then_returned = std::mem::replace(&mut self.returned, false);
        let after_then = std::mem::replace(&mut self.scopes, before);
        let negated = guard
            .as_ref()
            .map(|g| Ir::Unary(UnOp::LogicNot, Box::new(g.clone())));
        if let Some(o) = otherwise {
            if let Some(n) = &negated {
                self.guards.push(n.clone());
            }
            self.block(std::slice::from_ref(o));
            if negated.is_some() {
                self.guards.pop();
            }
        }
        self.opaque_control -= opaque;
        let else_returned = std::mem::replace(&mut self.returned, false);
        // Merge the two environments: equal values stay, different ones select on the condition.
        let mut merged = std::mem::take(&mut self.scopes);
        for (depth, scope) in merged.iter_mut().enumerate() {
            for (name, v) in scope.iter_mut() {
                let t = after_then.get(depth).and_then(|s| s.get(name));
                let Some(t) = t else { continue };
                if t == v {
                    continue;
                }
                *v = if then_returned {
                    v.clone()
                } else if else_returned {
                    t.clone()
                } else {
                    match (&guard, t, &*v) {
                        (Some(g), Value::Int(a), Value::Int(b)) => Value::Int(Ir::Select(
                            Box::new(g.clone()),
                            Box::new(a.clone()),
                            Box::new(b.clone()),
                        )),
                        // Vectors select component by component.
                        (Some(g), t @ Value::Vector(_), v @ Value::Vector(_)) => {
                            super::vector::merge(t, v, |a, b| match (a, b) {
                                (Value::Int(a), Value::Int(b)) => Some(Value::Int(Ir::Select(
                                    Box::new(g.clone()),
                                    Box::new(a.clone()),
                                    Box::new(b.clone()),
                                ))),
                                _ => None,
                            })
                            .unwrap_or_else(|| {
                                Value::Unknown(
                                    format!(
                                        "`{name}` is assigned in a branch bankcheck cannot resolve"
                                    )
                                    .into(),
                                )
                            })
                        }
                        // A branch that assigns data: the merged value depends on data.
                        (_, d @ Value::Data(_), _) | (_, _, d @ Value::Data(_)) => d.clone(),
                        (None, _, _) if matches!(c, Value::Data(_)) => Value::Data(format!(
                            "`{name}` is assigned under a condition that depends on data ({})",
                            c.reason()
                        )),
                        _ => Value::Unknown(
                            format!("`{name}` is assigned in a branch bankcheck cannot resolve")
                                .into(),
                        ),
                    }
                };
            }
        }
        // Merges nest a `select` per branch: bound them as expressions are.
        for scope in &mut merged {
            for v in scope.values_mut() {
                if value_size(v) > MAX_IR_NODES {
                    *v = Value::Unknown("the index expression grows too large to follow".into());
                }
            }
        }
        self.scopes = merged;
        // `if (tid >= n) return;` guards the rest of the block.
        if then_returned && !else_returned {
            if let Some(n) = negated {
                self.guards.push(n);
            }
        } else if else_returned && !then_returned {
            if let Some(g) = guard {
                self.guards.push(g);
            }
        } else if then_returned && else_returned {
            self.returned = true;
        }
    }

    fn for_stmt(&mut self, init: &[Stmt], cond: Option<&Expr>, update: &[Expr], body: &Stmt) {
        self.scopes.push(Vars::default());
        let guard_len = self.guards.len();
        for s in init {
            self.stmt(s);
        }
        // Find the induction variable: the one the update steps.
        let induction = update.iter().find_map(step_of);
        let mut counter = None;
        if let Some((name, step)) = &induction {
            let start = self.lookup(name).cloned();
            let mut step_int = |e: &Expr| match self.eval_control(e) {
                Value::Int(i) => Some(i),
                _ => None,
            };
            let step_value = match step {
                Step::Add(e) => step_int(e).map(|s| (false, s)),
                Step::Sub(e) => step_int(e).map(|s| (false, fold(BinOp::Sub, int(0), s))),
                Step::Shl(e) => step_int(e).map(|s| (true, s)),
                Step::Shr(e) => step_int(e).map(|s| (true, fold(BinOp::Sub, int(0), s))),
            };
            let stepped = step_value.is_some();
            if let (Some(Value::Int(start)), Some((shift, step))) = (start, step_value) {
                let k = self.vars.len();
                self.vars.push(VarInfo {
                    name: format!("{name} (iteration)"),
                    kind: VarKind::Counter { trips: None },
                });
                let kv = Ir::Var(k);
                let value = if shift {
                    match step.as_const() {
                        Some(s) if s > 0 => {
                            fold(BinOp::Shl, start.clone(), fold(BinOp::Mul, kv, int(s)))
                        }
                        Some(s) if s < 0 => {
                            fold(BinOp::Shr, start.clone(), fold(BinOp::Mul, kv, int(-s)))
                        }
                        _ => Ir::Const(0),
                    }
                } else {
                    fold(
                        BinOp::Add,
                        start.clone(),
                        fold(BinOp::Mul, kv, step.clone()),
                    )
                };
                self.assign(name, Value::Int(value));
                counter = Some((k, name.clone()));
            } else if stepped && !super::induction::stmt_mentions(body, name) {
                // The loop variable starts from a value bankcheck cannot follow (it keeps
                // that value's reason) and only counts the iterations: they still count the
                // body's inductions. (A body that reads it, in a guard say, stays unknown.)
                let k = self.vars.len();
                self.vars.push(VarInfo {
                    name: format!("{name} (iteration)"),
                    kind: VarKind::Counter { trips: None },
                });
                counter = Some((k, name.clone()));
            }
        }
        // Other variables assigned in the body: simple `x += c` inductions, else unknown.
        let assigned: Vec<String> = assigned_names(body)
            .into_iter()
            .filter(|n| Some(n) != induction.as_ref().map(|(n, _)| n))
            .collect();
        let mut body_inductions = Vec::new();
        let mut closed_forms = Vec::new();
        for name in &assigned {
            if let (Some((k, _)), Some(Value::Int(x0)), Some(step)) = (
                &counter,
                self.lookup(name).cloned(),
                super::induction::body_step(body, name),
            ) {
                if let Some(s) = super::induction::step_value(&step, &mut |e| self.eval_int(e)) {
                    let value = super::induction::closed_form(x0.clone(), &s, Ir::Var(*k));
                    self.assign(name, Value::Int(value));
                    body_inductions.push(name.clone());
                    closed_forms.push((name.clone(), x0, s));
                }
            }
        }
        let unresolved: Vec<String> = assigned
            .iter()
            .filter(|n| !body_inductions.contains(n))
            .cloned()
            .collect();
        self.invalidate(&unresolved, "it changes across loop iterations");
        let mut uniform_trips = None;
        if let (Some(c), Some((k, _))) = (cond, &counter) {
            if let Value::Int(g) = self.eval_control(c) {
                let trips = self.trip_count(&g, *k);
                uniform_trips = trips.filter(|_| g.var_mask() & 0b111 == 0);
                self.vars[*k].kind = VarKind::Counter { trips };
                // With a known trip count and a condition that is the same for every lane,
                // the counter's range already says everything the condition does.
                if trips.is_none() || g.var_mask() & 0b111 != 0 {
                    self.guards.push(g);
                }
            }
        } else if let Some(c) = cond {
            self.eval(c);
        }
        let saved_returned = self.returned;
        // The body's own induction steps are the loop's, not extra assignments.
        self.opaque_control += 1;
        self.block(std::slice::from_ref(body));
        self.opaque_control -= 1;
        self.returned = saved_returned;
        self.guards.truncate(guard_len);
        self.scopes.pop();
        let mut after = unresolved;
        after.extend(body_inductions);
        self.invalidate(&after, "it changes across loop iterations");
        // Every lane ran the same known number of iterations: the inductions' final values.
        if let Some(t) = uniform_trips.filter(|_| !super::induction::leaves_early(body)) {
            for (name, x0, s) in closed_forms {
                let v = super::induction::closed_form(x0, &s, int(t as i64));
                self.assign(&name, Value::Int(v));
            }
        }
    }

    /// The largest number of iterations any thread runs when `guard` (over counter `k`)
    /// holds for a prefix of `k`; `None` when it depends on uniform values or is huge.
    fn trip_count(&self, guard: &Ir, k: usize) -> Option<u64> {
        let mask = guard.var_mask();
        if mask & !(0b111 | (1u64 << k)) != 0 {
            return None;
        }
        // A condition that does not change with the counter never ends the loop (`t += 0`):
        // not iterated.
        if mask & (1u64 << k) == 0 {
            return None;
        }
        let mut values = vec![0i64; self.vars.len()];
        let mut best = 0u64;
        let mut evals = 0u64;
        // Thread 0 alone when the guard names no thread id: any shape's (0, 0, 0).
        let shape = if mask & 0b111 == 0 {
            self.block
        } else {
            self.shape_reads.whole(self.block)
        };
        let threads = shape.threads().min(4096);
        for t in 0..threads {
            let (x, y, z) = shape.coords(t);
            values[0] = x;
            values[1] = y;
            values[2] = z;
            let mut n = 0u64;
            loop {
                values[k] = n as i64;
                evals += 1;
                if evals > MAX_TRIP_EVALS {
                    return None;
                }
                match guard.eval(&values) {
                    Some(v) if v != 0 => n += 1,
                    Some(_) => break,
                    None => return None,
                }
                if n > 1 << 16 {
                    return None;
                }
            }
            best = best.max(n);
            if mask & 0b111 == 0 {
                break;
            }
        }
        Some(best)
    }

    // ----- expressions -----

    fn eval_int(&mut self, e: &Expr) -> Option<Ir> {
        match self.eval(e) {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// Evaluates a file-level constant expression (extents, `[numthreads]`).
    pub fn const_eval(&mut self, e: &Expr) -> Option<i64> {
        match self.eval(e) {
            Value::Int(i) => i.as_const(),
            _ => None,
        }
    }

    pub fn eval(&mut self, e: &Expr) -> Value {
        // Past the budget, evaluation goes on (what multiplies work, macro expansion and
        // inlining, stops), so that every access is still recorded, as `unknown` when it
        // needed what was cut.
        self.spend(1);
        self.depth += 1;
        let v = if self.depth > MAX_EVAL_DEPTH {
            Value::Unknown("expression nested too deeply".into())
        } else {
            self.eval_inner(e)
        };
        self.depth -= 1;
        self.bounded(v)
    }

    fn eval_inner(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Int(c) => Value::Int(int(*c)),
            ExprKind::Bool(b) => Value::Int(int(i64::from(*b))),
            ExprKind::Float => Value::Data("a floating-point value".into()),
            ExprKind::Ident(name)
                if self.this_place.is_some() && self.this_field(name).is_some() =>
            {
                match self.this_field(name) {
                    Some(p) if name != "this" => match self
                        .this_place
                        .as_ref()
                        .and_then(|t| self.array_member(&t.ty, name, &p))
                    {
                        Some(ptr) => ptr,
                        None => self.access_value(e, AccessKind::Load),
                    },
                    _ => Value::Unknown("`this` of an object in shared memory".into()),
                }
            }
            ExprKind::Ident(name) => match self.ident(name) {
                // Reading a shared scalar (`__shared__ int count;`) is a load.
                Value::Array(a) if self.arrays[a].extents.is_empty() => {
                    self.access_value(e, AccessKind::Load)
                }
                v => v,
            },
            ExprKind::Member(base, field) => self.member(e, base, field),
            ExprKind::Index(..) => self.access_value(e, AccessKind::Load),
            ExprKind::Unary(UnaryOp::Deref, _) => self.access_value(e, AccessKind::Load),
            ExprKind::Unary(UnaryOp::AddrOf, inner) => self.address_of(inner),
            ExprKind::Unary(op, inner) => {
                let v = self.eval(inner);
                let unary = |v: Value| match v {
                    Value::Int(i) => Value::Int(match op {
                        UnaryOp::Neg => fold(BinOp::Sub, int(0), i),
                        UnaryOp::Plus => i,
                        UnaryOp::BitNot => Ir::Unary(UnOp::BitNot, Box::new(i)),
                        _ => Ir::Unary(UnOp::LogicNot, Box::new(i)),
                    }),
                    other => other,
                };
                match v {
                    Value::Vector(c) => Value::Vector(c.into_iter().map(unary).collect()),
                    other => unary(other),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.eval(a);
                let vb = self.eval(b);
                self.binary(*op, va, vb)
            }
            ExprKind::Assign(op, lhs, rhs) => self.assignment(*op, lhs, rhs),
            ExprKind::IncDec(target, delta) => {
                let one = Expr {
                    span: e.span,
                    kind: ExprKind::Int(1),
                };
                let op = if *delta > 0 {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                self.assignment(Some(op), target, &one)
            }
            ExprKind::Cond(c, t, f) => {
                let c = self.eval(c);
                let t = self.eval(t);
                let f = self.eval(f);
                match (c, t, f) {
                    (Value::Int(c), Value::Int(t), Value::Int(f)) => {
                        Value::Int(match c.as_const() {
                            Some(0) => f,
                            Some(_) => t,
                            None => Ir::Select(Box::new(c), Box::new(t), Box::new(f)),
                        })
                    }
                    (Value::Int(c), t, f) => match c.as_const() {
                        Some(0) => f,
                        Some(_) => t,
                        None => super::vector::merge(&t, &f, |a, b| match (a, b) {
                            (Value::Int(a), Value::Int(b)) => Some(Value::Int(Ir::Select(
                                Box::new(c.clone()),
                                Box::new(a.clone()),
                                Box::new(b.clone()),
                            ))),
                            _ => None,
                        })
                        .unwrap_or_else(|| match (t, f) {
                            (d @ Value::Data(_), _) | (_, d @ Value::Data(_)) => d,
                            // A branch bankcheck could not follow says why.
                            (u @ Value::Unknown(_), _) | (_, u @ Value::Unknown(_)) => u,
                            _ => Value::Unknown(
                                "a conditional value bankcheck cannot resolve".into(),
                            ),
                        }),
                    },
                    (d @ Value::Data(_), _, _) => d,
                    (c, _, _) => Value::Unknown(c.reason()),
                }
            }
            ExprKind::Cast(ty, inner) => {
                let v = self.eval(inner);
                self.cast(ty, v)
            }
            ExprKind::SizeofType(ty) => match self.layout(ty) {
                Some(l) if ty.pointers == 0 => Value::Int(int(l.size as i64)),
                _ if ty.pointers > 0 => Value::Int(int(8)),
                _ => Value::Unknown(Reason::unknown_type(
                    format!("sizeof of unknown type `{}`", ty.base),
                    &ty.base,
                )),
            },
            ExprKind::SizeofExpr(inner) => self.sizeof_expr(inner),
            ExprKind::Comma(items) => {
                let mut last = Value::Unknown("empty".into());
                for i in items {
                    last = self.eval(i);
                }
                last
            }
            ExprKind::Call {
                callee,
                template_args,
                args,
            } => {
                let v = self.call(e, callee, template_args, args);
                self.forget_passed_objects(callee, args);
                v
            }
            ExprKind::Opaque => {
                Value::Unknown(format!("`{}` is not understood", self.snippet(e.span)).into())
            }
        }
    }

    fn snippet(&self, span: Span) -> String {
        let t = self.text.get(span.start..span.end).unwrap_or("?");
        let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if t.len() > 40 {
            format!(
                "{}...",
                &t[..t.char_indices().nth(37).map_or(t.len(), |(i, _)| i)]
            )
        } else {
            t
        }
    }

    fn sizeof_expr(&mut self, inner: &Expr) -> Value {
        // `sizeof(T)` parsed as an expression: try the name as a type first.
        if let ExprKind::Ident(n) = &inner.kind {
            if let Some(Value::Array(a)) = self.lookup(n).cloned() {
                let info = &self.arrays[a];
                let total: Option<u64> = info
                    .extents
                    .iter()
                    .try_fold(u64::from(info.element_bytes), |acc, e| e.map(|e| acc * e));
                return total.map_or(Value::Unknown("sizeof a dynamic array".into()), |t| {
                    Value::Int(int(t as i64))
                });
            }
            let ty = TypeName {
                base: n.clone(),
                pointers: 0,
            };
            if let Some(l) = self.layout(&ty) {
                return Value::Int(int(l.size as i64));
            }
        }
        Value::Unknown("sizeof of an expression".into())
    }

    fn ident(&mut self, name: &str) -> Value {
        if let Some(v) = self.lookup(name) {
            return v.clone();
        }
        match name {
            "threadIdx" => return self.vec3_threads(),
            "blockDim" => {
                let b = self.shape_reads.whole(self.block);
                return Value::Vector(vec![
                    Value::Int(int(i64::from(b.x))),
                    Value::Int(int(i64::from(b.y))),
                    Value::Int(int(i64::from(b.z))),
                ]);
            }
            "blockIdx" | "gridDim" | "clusterIdx" => {
                let lo = i64::from(name == "gridDim");
                let c = |s: &mut Self, a: &str| {
                    Value::Int(s.uniform(&format!("{name}.{a}"), Some((lo, 65535))))
                };
                return Value::Vector(vec![c(self, "x"), c(self, "y"), c(self, "z")]);
            }
            "warpSize" => return Value::Int(int(i64::from(self.warp_size))),
            "true" => return Value::Int(int(1)),
            "false" | "nullptr" | "NULL" => return Value::Int(int(0)),
            _ => {}
        }
        if let Some(v) = self.own_static_member(name) {
            return v;
        }
        if let Some(v) = self.static_member(name) {
            return v;
        }
        if let Some((key, def)) = self.find_constant(name) {
            if let Some(v) = self.const_cache.get(&key) {
                return v.clone();
            }
            // Guard against self-referential macros.
            self.const_cache.insert(
                key.clone(),
                Value::Unknown(format!("`{name}` is defined in terms of itself").into()),
            );
            // Names inside the definition resolve from the definition's namespace first.
            let prefix = key.rsplit_once("::").map(|(p, _)| p.to_string());
            if let Some(p) = &prefix {
                self.ns_context.push(p.clone());
            }
            let v = self.eval(def);
            if prefix.is_some() {
                self.ns_context.pop();
            }
            self.const_cache.insert(key, v.clone());
            return v;
        }
        // A shared array declared at file scope.
        if let Some(d) = self
            .syn
            .global_shared
            .iter()
            .find(|d| d.name == name)
            .cloned()
        {
            let saved = std::mem::take(&mut self.scopes);
            self.scopes = vec![Vars::default()];
            let idx = self.register_array(&d);
            self.scopes = saved;
            if let Some(s) = self.scopes.first_mut() {
                s.insert(name.to_string(), Value::Array(idx));
            }
            return Value::Array(idx);
        }
        if self.unresolved_as_uniform && !name.contains("::") {
            return Value::Int(self.uniform(name, None));
        }
        Value::Unknown(Reason::unresolved(name))
    }

    /// Evaluates a condition or a loop step, names defined nowhere being run-time values.
    fn eval_control(&mut self, e: &Expr) -> Value {
        let saved = std::mem::replace(&mut self.unresolved_as_uniform, true);
        let v = self.eval(e);
        self.unresolved_as_uniform = saved;
        v
    }

    fn member(&mut self, whole: &Expr, base: &Expr, field: &str) -> Value {
        // Members of a shared element are loads of that member.
        if self.place(whole).is_some() {
            return self.access_value(whole, AccessKind::Load);
        }
        // A field of a local object or of `this`, when it holds a value.
        if let Some(v) = self
            .field_variable(base, field)
            .and_then(|key| self.lookup(&key).cloned())
        {
            return v;
        }
        match self.eval(base) {
            // A component (`p.x`) or a swizzle (`gtid.xy`, `v.yx`, `s.xx`).
            v @ (Value::Vector(_) | Value::Int(_)) => super::vector::swizzle(&v, field)
                .unwrap_or_else(|| {
                    Value::Unknown(format!("member `{field}` of a scalar or vector").into())
                }),
            Value::Data(r) => Value::Data(r),
            other => {
                let why = other.reason();
                Value::Unknown(why.reworded(format!("member `{field}` of {why}")))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        // Vectors act component-wise, a scalar broadcasting (`Tile * 8 - 8`).
        if let Some(pairs) = super::vector::zip(&a, &b) {
            return Value::Vector(
                pairs
                    .into_iter()
                    .map(|(x, y)| self.binary(op, x, y))
                    .collect(),
            );
        }
        match (a, b) {
            (Value::Int(a), Value::Int(b)) => {
                let e = fold(map_binop(op), a, b);
                // Long chains of reassignments would make deep expressions: give up on them.
                if e.size_up_to(MAX_IR_NODES) > MAX_IR_NODES {
                    return Value::Unknown("the index expression grows too large to follow".into());
                }
                Value::Int(e)
            }
            (
                Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                },
                Value::Int(i),
            )
            | (
                Value::Int(i),
                Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                },
            ) if matches!(op, BinaryOp::Add | BinaryOp::Sub) => {
                let size = self.layout(&pointee).map_or(1, |l| l.size as i64);
                let delta = fold(BinOp::Mul, i, int(size));
                let op = if op == BinaryOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                Value::Ptr {
                    array,
                    offset: fold(op, offset, delta),
                    pointee,
                    name,
                }
            }
            (Value::Array(a), Value::Int(i)) if matches!(op, BinaryOp::Add) => {
                let v = self.decay(a);
                self.binary(op, v, Value::Int(i))
            }
            (Value::Data(r), _) | (_, Value::Data(r)) => Value::Data(r),
            (Value::Unknown(r), _) | (_, Value::Unknown(r)) => Value::Unknown(r),
            (a, _) => Value::Unknown(a.reason()),
        }
    }

    fn decay(&self, a: usize) -> Value {
        let info = &self.arrays[a];
        Value::Ptr {
            array: a,
            offset: int(0),
            pointee: TypeName {
                base: info.element_type.clone(),
                pointers: 0,
            },
            name: None,
        }
    }

    fn cast(&mut self, ty: &TypeName, v: Value) -> Value {
        // `(uint2)v`, `(uint)v`: truncate or broadcast.
        if ty.pointers == 0 && super::vector::vector_type(&ty.base, &self.syn.typedefs).is_some() {
            return super::vector::fit(ty, v, &self.syn.typedefs);
        }
        let v = match v {
            Value::Vector(_) => super::vector::fit(ty, v, &self.syn.typedefs),
            other => other,
        };
        match v {
            Value::Array(a) => {
                let p = self.decay(a);
                self.cast(ty, p)
            }
            Value::Ptr {
                array,
                offset,
                name,
                ..
            } if ty.pointers > 0 => Value::Ptr {
                array,
                offset,
                pointee: TypeName {
                    base: ty.base.clone(),
                    pointers: ty.pointers - 1,
                },
                name,
            },
            Value::Int(i) if ty.pointers == 0 => {
                // Narrowing casts to 8/16-bit types wrap; model unsigned char/short as masks.
                match ty.base.as_str() {
                    "unsigned char" | "uint8_t" | "uchar" => {
                        Value::Int(fold(BinOp::And, i, int(0xff)))
                    }
                    "unsigned short" | "uint16_t" | "ushort" => {
                        Value::Int(fold(BinOp::And, i, int(0xffff)))
                    }
                    b if b.contains("float") || b.contains("double") || b.contains("half") => {
                        Value::Data("a floating-point value".into())
                    }
                    _ => Value::Int(i),
                }
            }
            other => other,
        }
    }

    fn call(&mut self, e: &Expr, callee: &str, template_args: &[String], args: &[Expr]) -> Value {
        if let Some(v) = self.member_call(e, callee, template_args, args) {
            return v;
        }
        // `ns::name<T, 4>` written as one qualified name: split off the template arguments.
        let parsed_args: Vec<String>;
        let (callee, template_args) = match callee.split_once('<') {
            Some((name, rest)) if template_args.is_empty() && !callee.contains('(') => {
                parsed_args = rest
                    .trim_end_matches('>')
                    .split(',')
                    .map(|a| a.trim().to_string())
                    .collect();
                (name, parsed_args.as_slice())
            }
            _ => (callee, template_args),
        };
        let short = callee.rsplit("::").next().unwrap_or(callee);
        // A constructor spelled through a type macro or typedef (`AU2(x, y)`).
        let alias = self.syn.typedefs.get(short).filter(|t| t.pointers == 0);
        let short = alias.map_or(short, |t| t.base.as_str());
        // Atomics: the first argument is the place.
        let lower = short.to_ascii_lowercase();
        if lower.starts_with("atomic") || lower.starts_with("interlocked") {
            if let Some(first) = args.first() {
                let target = match &first.kind {
                    ExprKind::Unary(UnaryOp::AddrOf, inner) => inner.as_ref(),
                    _ => first,
                };
                if self.place(target).is_some() {
                    self.access_value(target, AccessKind::Atomic);
                } else {
                    self.eval(first);
                }
            }
            for a in args.iter().skip(1) {
                self.eval(a);
            }
            // HLSL returns the original value through a last argument:
            // `InterlockedAdd(dest, v, original)`, `InterlockedCompareExchange(dest, c, v, original)`.
            let out_arg = if lower.contains("comparestore") {
                None
            } else if lower.contains("compareexchange") {
                args.get(3)
            } else {
                args.get(2)
            };
            if let (true, Some(out)) = (lower.starts_with("interlocked"), out_arg) {
                let v = Value::Data(format!("the result of `{short}`"));
                self.write_back(out, v);
            }
            return Value::Data(format!("the result of `{short}`"));
        }
        match short {
            "min" | "max" | "umin" | "umax" | "imin" | "imax" | "clamp"
                if args.len() == 2 || (short == "clamp" && args.len() == 3) =>
            {
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                return vectors::min_max(short, values);
            }
            "__lane_id" | "LaneId" | "laneid" | "WaveGetLaneIndex" | "lane_id" | "get_lane_id" => {
                return Value::Int(fold(
                    BinOp::Rem,
                    self.linear_tid(),
                    int(i64::from(self.warp_size)),
                ));
            }
            "WaveGetLaneCount" => return Value::Int(int(i64::from(self.warp_size))),
            // Cooperative groups: the block and its tiles of consecutive threads.
            "this_thread_block" => return Value::Group(0),
            "tiled_partition" => {
                let n = template_args
                    .first()
                    .and_then(|t| crate::extract::convert::parse_int(t.trim()))
                    .or_else(|| args.get(1).and_then(|a| self.const_eval(a)));
                return n.filter(|n| *n > 0).map_or_else(
                    || Value::Unknown("a tile whose size is not a constant".into()),
                    |n| Value::Group(n as u64),
                );
            }
            // The CUDA samples' `SharedMemory<T>` wrapper around `extern __shared__`.
            "SharedMemory" if template_args.len() == 1 => {
                let ty = crate::extract::convert::type_from_text(&template_args[0]);
                // Reported under the array the wrapper declares (`__smem`), the
                // specialisation's for this type first.
                let declared = [format!("SharedMemory<{}>", ty.base), "SharedMemory".into()]
                    .iter()
                    .find_map(|k| self.syn.structs.get(k)?.shared_arrays.first().cloned());
                let decl = VarDecl {
                    name: declared.unwrap_or_else(|| format!("SharedMemory<{}>", ty.base)),
                    name_span: e.span,
                    ty: ty.clone(),
                    extents: vec![None],
                    init: None,
                    shared: true,
                    extern_: true,
                    is_const: false,
                    span: e.span,
                };
                let saved = self.lookup(&decl.name).cloned();
                let a = self.register_array(&decl);
                if let Some(v) = saved {
                    self.bind(&decl.name, v);
                }
                return Value::Ptr {
                    array: a,
                    offset: int(0),
                    pointee: ty,
                    name: None,
                };
            }
            // Powers of two written with floating-point functions, exact on integers:
            // `pow(2, d + 1)`, `exp2(k)`, `log2(256)`.
            "pow" | "exp2" if args.len() == 2 || (short == "exp2" && args.len() == 1) => {
                let (base, exponent) = if args.len() == 2 {
                    (self.const_eval(&args[0]), &args[1])
                } else {
                    (Some(2), &args[0])
                };
                let shift = base
                    .filter(|b| *b > 0 && (*b as u64).is_power_of_two())
                    .map(|b| i64::from((b as u64).trailing_zeros()));
                let e = self.eval(exponent);
                return match (shift, e) {
                    (Some(m), Value::Int(e)) => {
                        Value::Int(fold(BinOp::Shl, int(1), fold(BinOp::Mul, e, int(m))))
                    }
                    _ => Value::Data(format!("the result of `{short}()`")),
                };
            }
            "log2" if args.len() == 1 => {
                return match self.const_eval(&args[0]) {
                    Some(v) if v > 0 && (v as u64).is_power_of_two() => {
                        Value::Int(int(i64::from((v as u64).trailing_zeros())))
                    }
                    _ => {
                        self.eval(&args[0]);
                        Value::Data("the result of `log2()`".into())
                    }
                };
            }
            "__mul24" | "__umul24" | "mul24" if args.len() == 2 => {
                let a = self.eval(&args[0]);
                let b = self.eval(&args[1]);
                return self.binary(BinaryOp::Mul, a, b);
            }
            "uint" | "int" | "unsigned" | "size_t" if args.len() == 1 => {
                let v = self.eval(&args[0]);
                let ty = TypeName {
                    base: short.to_string(),
                    pointers: 0,
                };
                return super::vector::fit(&ty, v, &self.syn.typedefs);
            }
            _ => {}
        }
        if let Some(v) = self.vector_call(callee, args) {
            return v;
        }
        if let Some(v) = self.group_method(callee) {
            return v;
        }
        if let Some(v) = self.preproc_condition(callee, args) {
            return v;
        }
        if let Some(m) = self.syn.fn_macros.get(short) {
            if self.exhausted() {
                return Value::Unknown(TOO_MUCH_WORK.into());
            }
            if let (true, Some(body)) = (m.params.len() == args.len(), m.body.get()) {
                let (params, body) = (m.params.clone(), body.clone());
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                self.scopes.push(Vars::default());
                for (p, v) in params.iter().zip(values) {
                    self.bind(p, v);
                }
                let v = self.eval(&body);
                self.scopes.pop();
                return v;
            }
        }
        if let Some(v) = self.inline_call(e, short, template_args, args) {
            return v;
        }
        for a in args {
            self.eval(a);
        }
        Value::Data(format!("the result of `{short}()`"))
    }

    /// `g.thread_rank()`, `g.size()`, `g.meta_group_rank()` on a cooperative group.
    fn group_method(&mut self, callee: &str) -> Option<Value> {
        let (object, method) = callee
            .rsplit_once('.')
            .or_else(|| callee.rsplit_once("->"))?;
        let Value::Group(n) = self.lookup(object).cloned()? else {
            return None;
        };
        let threads = self.shape_reads.whole(self.block).threads() as i64;
        let tid = self.linear_tid();
        let n = if n == 0 { threads } else { n as i64 };
        Some(Value::Int(match method {
            "thread_rank" => fold(BinOp::Rem, tid, int(n)),
            "size" | "num_threads" => int(n),
            "meta_group_rank" => fold(BinOp::Div, tid, int(n)),
            "meta_group_size" => int(threads / n.max(1)),
            _ => return None,
        }))
    }

    /// The definition of constant `name` and the key it was found under: a `-D` define,
    /// then the name qualified by the namespaces of the definition being evaluated (innermost
    /// first), then the name as written, then with leading qualifiers dropped.
    /// The definition is borrowed from the file's syntax: a cached constant is not cloned.
    fn find_constant(&self, name: &str) -> Option<(String, &'a Expr)> {
        if let Some(d) = self.extra_constants.get(name) {
            return Some((name.to_string(), d));
        }
        let syn = self.syn;
        let def = |k: &str| {
            syn.constants
                .get(k)
                .or_else(|| syn.macros.get(k).and_then(|m| m.get()))
        };
        if let Some(ctx) = self.ns_context.last() {
            let mut prefix = ctx.as_str();
            loop {
                let k = format!("{prefix}::{name}");
                if let Some(d) = def(&k) {
                    return Some((k, d));
                }
                match prefix.rsplit_once("::") {
                    Some((p, _)) => prefix = p,
                    None => break,
                }
            }
        }
        let mut rest = name;
        loop {
            if let Some(d) = def(rest) {
                return Some((rest.to_string(), d));
            }
            match rest.split_once("::") {
                Some((_, r)) => rest = r,
                None => return None,
            }
        }
    }

    /// Interprets a call to a helper defined in the same file with the caller's argument
    /// values bound to its parameters, so its shared accesses are lowered per call site.
    fn inline_call(
        &mut self,
        call: &Expr,
        name: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        // A bare call inside a member function may be another member of its struct.
        let sibling = self.owner.clone().filter(|o| {
            self.syn
                .functions
                .iter()
                .any(|f| f.name == name && f.owner.as_deref() == Some(o.as_str()))
        });
        let method = sibling.map(|owner| Method {
            // On an object in shared memory the fields are places, not variables.
            fields: if self.this_place.is_some() {
                Vec::new()
            } else {
                self.struct_fields(&owner, None)
            },
            owner,
            object: None,
            this: self.this_place.clone(),
        });
        self.inline_function(call, name, template_args, args, method.as_ref())
    }

    /// Inlines a call of `name`: a free function, or with `method` a member function of
    /// that struct, its fields bound to the object's.
    fn inline_function(
        &mut self,
        call: &Expr,
        name: &str,
        template_args: &[String],
        args: &[Expr],
        method: Option<&Method>,
    ) -> Option<Value> {
        let syn = self.syn;
        let owner = method.as_ref().map(|m| m.owner.clone());
        // Kernels are launched, not inlined. Of a header's alternatives for different
        // targets, the one whose `#if` requirements the known macros support best.
        let wanted = |f: &&Function| {
            f.name == name && !f.is_kernel && !f.body.is_empty() && f.owner == owner
        };
        let named: Vec<&Function> = match self.functions_by_name {
            Some(index) => index
                .get(name)
                .into_iter()
                .flatten()
                .filter_map(|&i| syn.functions.get(i))
                .filter(wanted)
                .collect(),
            None => syn.functions.iter().filter(wanted).collect(),
        };
        let mut candidates = named
            .iter()
            .copied()
            .filter(|f| f.params.len() == args.len())
            .peekable();
        // No overload of that arity: the only definition, when it takes more parameters
        // (defaults, or a parameter list cut by `#ifdef`); the missing ones are unknown.
        let sole = match named.as_slice() {
            [f] if f.params.len() > args.len() && candidates.peek().is_none() => Some(*f),
            _ => None,
        };
        let first = candidates.next().or(sole)?;
        // The alternative the known macros support best: none contradicted, most met.
        let mut best: Option<(usize, &Function)> = None;
        for f in std::iter::once(first).chain(candidates) {
            let met = f
                .requires
                .iter()
                .map(|r| self.requirements_hold(std::slice::from_ref(r)))
                .try_fold(0, |n, h| match h {
                    Some(false) => None,
                    Some(true) => Some(n + 1),
                    None => Some(n),
                });
            if let Some(n) = met {
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, f));
                }
            }
        }
        let f = best.map_or(first, |(_, f)| f);
        if self.float_only.is_some_and(|s| s.contains(name)) {
            for a in args {
                self.eval(a);
            }
            return Some(Value::Data("a floating-point value".into()));
        }
        // Overloads share a name: recursion is the same name with the same arity.
        let key = match &owner {
            Some(o) => format!("{o}::{name}/{}", args.len()),
            None => format!("{name}/{}", args.len()),
        };
        if self.call_stack.len() >= MAX_CALL_DEPTH
            || self.inline_budget == 0
            || self.exhausted()
            || self.inline_work > MAX_INLINED_STATEMENTS
            || self.call_stack.contains(&key)
        {
            return None;
        }
        self.inline_budget -= 1;

        self.inlined.insert(name.to_string());
        let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
        // The helper's template arguments, deduced at this call (see `templates`).
        let (types, non_type) =
            super::templates::deduce_call(f, template_args, &values, self.arrays, &self.type_args);
        let values = super::templates::resolve_pointees(values, &self.type_args);
        let non_type: Vec<(String, Value)> = non_type
            .into_iter()
            .map(|(n, t)| (n, self.template_value(&t)))
            .collect();
        let saved_types = std::mem::replace(&mut self.type_args, types);
        // A lambda sees (and may assign) its caller's variables: it gets a scope of its own
        // on top of theirs; any other helper sees only its parameters.
        let saved_scopes = if f.captures {
            self.scopes.push(Vars::default());
            None
        } else {
            Some(std::mem::replace(&mut self.scopes, vec![Vars::default()]))
        };
        let frame = self.scopes.len() - 1;
        for (n, v) in non_type {
            self.bind(&n, v);
        }
        let saved_base = std::mem::replace(&mut self.inline_guard_base, self.guards.len());
        let saved_return = std::mem::take(&mut self.returns);
        self.returns.opaque_base = self.opaque_control;
        let saved_function = self.function.clone();
        let line = if std::ptr::eq(self.text, self.base_text) {
            crate::diag::line_of(&self.syn.line_starts, call.span.start)
        } else {
            self.text
                .get(..call.span.start)
                .map_or(1, |t| t.matches('\n').count() + 1)
        };
        let shown = match &owner {
            Some(o) => format!("{o}::{name}"),
            None => name.to_string(),
        };
        self.function = saved_function.calling(shown, line);
        let saved_owner = std::mem::replace(&mut self.owner, owner.clone());
        let saved_this =
            std::mem::replace(&mut self.this_place, method.and_then(|m| m.this.clone()));
        let saved_objects = if f.captures {
            self.objects.clone()
        } else {
            std::mem::take(&mut self.objects)
        };
        // A helper of another file: its spans index into that file's text.
        let saved_text = self.text;
        let saved_foreign = self.foreign.take();
        self.text = f.foreign_text.as_deref().unwrap_or(self.base_text);
        self.foreign = f.foreign_text.clone();
        // Parameters the call leaves out: their default arguments, evaluated here (they are
        // constants in practice), else unknown.
        let defaults: Vec<(String, Value)> = f
            .params
            .iter()
            .skip(values.len())
            .filter(|p| !p.name.is_empty())
            .map(|p| {
                let v = match &p.default {
                    Some(d) => self.eval(d),
                    None => {
                        Value::Unknown(format!("`{}` has no value at this call", p.name).into())
                    }
                };
                (p.name.clone(), v)
            })
            .collect();
        for (name, v) in defaults {
            self.bind(&name, v);
        }
        if let Some(m) = &method {
            for (field, v) in &m.fields {
                self.bind(field, v.clone());
            }
        }
        for (p, v) in f.params.iter().zip(values) {
            let v = match v {
                Value::Int(i)
                    if !is_integer_type(&p.ty) && p.ty.pointers == 0 && !p.array_or_ref =>
                {
                    if p.ty.base.contains("float")
                        || p.ty.base.contains("half")
                        || p.ty.base.contains("double")
                    {
                        Value::Data("a floating-point value".into())
                    } else {
                        Value::Int(i)
                    }
                }
                other => self.convert_to(&p.ty, other),
            };
            if !p.name.is_empty() {
                self.bind(&p.name, v);
            }
        }
        self.call_stack.push(key);
        self.call_spans.push((call.span, saved_foreign.clone()));
        self.block(&f.body);
        self.call_spans.pop();
        self.call_stack.pop();
        self.returned = false;
        // `out`/`inout` and reference parameters: their final values go back to the
        // caller's arguments (unknown when the helper may return before its end).
        let early = self.returns.returns_early();
        let written: Vec<(&Expr, Value)> = f
            .params
            .iter()
            .zip(args)
            .filter(|(p, _)| p.writes_back && p.ty.pointers == 0 && !p.name.is_empty())
            .map(|(p, a)| {
                let v = match self.scopes.get(frame).and_then(|s| s.get(&p.name)) {
                    Some(_) if early => Value::Unknown(
                        format!(
                            "`{}` is set through a parameter of `{name}`, which may return early",
                            self.snippet(a.span)
                        )
                        .into(),
                    ),
                    Some(v) => v.clone(),
                    None => Value::Unknown(
                        format!("`{}` is set by `{name}`", self.snippet(a.span)).into(),
                    ),
                };
                (a, v)
            })
            .collect();
        // A shared element passed by reference and assigned in the helper
        // (`swap(s[a], s[b])` with `T&` parameters) is read at the call and written back.
        let assigned: HashSet<String> = f.body.iter().flat_map(assigned_names).collect();
        // Fields the member function assigns: their final values go back to the object
        // (unknown when it may return before its end).
        let fields_back: Vec<(String, Value)> = method
            .as_ref()
            .map(|m| {
                m.fields
                    .iter()
                    .filter(|(field, _)| assigned.contains(field))
                    .map(|(field, _)| {
                        let v = match self.scopes.get(frame).and_then(|s| s.get(field)) {
                            Some(_) if early => Value::Unknown(
                                format!(
                                "the field `{field}` is set by `{name}`, which may return early"
                            )
                                .into(),
                            ),
                            Some(v) => v.clone(),
                            None => Value::Unknown(
                                format!("the field `{field}` is set by `{name}`").into(),
                            ),
                        };
                        (field.clone(), v)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let stores: Vec<&Expr> = f
            .params
            .iter()
            .zip(args)
            .filter(|(p, _)| {
                p.writes_back
                    && p.ty.pointers == 0
                    && !p.name.is_empty()
                    && assigned.contains(&p.name)
            })
            .map(|(_, a)| a)
            .collect();
        let result = self
            .helper_value()
            .unwrap_or_else(|| Value::Data(format!("the result of `{name}()`")));
        self.returns = saved_return;
        self.type_args = saved_types;
        self.inline_guard_base = saved_base;
        match saved_scopes {
            Some(scopes) => self.scopes = scopes,
            None => {
                self.scopes.truncate(frame);
            }
        }
        self.function = saved_function;
        self.text = saved_text;
        self.foreign = saved_foreign;
        self.owner = saved_owner;
        self.this_place = saved_this;
        self.objects = saved_objects;
        for (field, v) in fields_back {
            let key = match method.as_ref().and_then(|m| m.object.as_ref()) {
                Some(o) => format!("{o}.{field}"),
                None => field,
            };
            self.assign(&key, v);
        }
        for (a, v) in written {
            self.write_back(a, v);
        }
        for a in stores {
            if self.place(a).is_some() {
                self.access_value(a, AccessKind::Store);
            }
        }
        Some(result)
    }

    /// The variable holding `base.field` when `base` is a local object (`st.buf`) or
    /// `this` inside a member function (the field, named bare).
    fn field_variable(&self, base: &Expr, field: &str) -> Option<String> {
        match &base.kind {
            ExprKind::Ident(o) if o == "this" && self.owner.is_some() => Some(field.to_string()),
            ExprKind::Unary(UnaryOp::Deref, inner)
                if matches!(&inner.kind, ExprKind::Ident(o) if o == "this")
                    && self.owner.is_some() =>
            {
                Some(field.to_string())
            }
            ExprKind::Ident(o) if self.objects.contains_key(o) => Some(format!("{o}.{field}")),
            _ => None,
        }
    }

    /// The fields of struct `owner` and their values: the object's (`object.field`), or
    /// the current member function's (named bare) when no object is given.
    fn struct_fields(&self, owner: &str, object: Option<&str>) -> Vec<(String, Value)> {
        let Some(def) = self.struct_def(owner) else {
            return Vec::new();
        };
        def.fields
            .iter()
            .map(|f| {
                let key = match object {
                    Some(o) => format!("{o}.{}", f.name),
                    None => f.name.clone(),
                };
                let v = self.lookup(&key).cloned().unwrap_or_else(|| {
                    Value::Unknown(format!("the field `{key}` is not set where it is read").into())
                });
                (f.name.clone(), v)
            })
            .collect()
    }

    /// The definition of struct `name` (a template's, for `Pack<float>`).
    fn struct_def(&self, name: &str) -> Option<&'a crate::extract::ast::StructDef> {
        let syn = self.syn;
        syn.structs.get(name).or_else(|| {
            syn.structs
                .get(name.split('<').next().unwrap_or(name).trim())
        })
    }

    /// True when some struct of the file defines a member function `name`, of `owner`
    /// when given.
    fn has_method(&self, owner: Option<&str>, name: &str) -> bool {
        let found = |f: &Function| {
            f.name == name
                && f.owner.is_some()
                && owner.is_none_or(|o| f.owner.as_deref() == Some(o))
        };
        match self.functions_by_name {
            Some(index) => index
                .get(name)
                .into_iter()
                .flatten()
                .any(|&i| self.syn.functions.get(i).is_some_and(found)),
            None => self.syn.functions.iter().any(found),
        }
    }

    /// Declares a local object of a struct or class type: an aggregate initialiser
    /// (`Stage st{a};`) sets its fields in order. False when the type is not one.
    fn declare_object(&mut self, d: &VarDecl) -> bool {
        let (owner, targs) = self.owner_of(&d.ty.base);
        let ty = owner.split('<').next().unwrap_or(&owner).to_string();
        let def = self.struct_def(&owner);
        let methods = self
            .syn
            .functions
            .iter()
            .any(|f| f.owner.as_deref() == Some(owner.as_str()));
        if def.is_none() && !methods {
            return false;
        }
        let fields: Vec<String> = def
            .map(|d| d.fields.iter().map(|f| f.name.clone()).collect())
            .unwrap_or_default();
        match &d.init {
            Some(Expr {
                kind: ExprKind::Call { callee, args, .. },
                ..
            }) if callee.split('<').next().unwrap_or(callee).trim().ends_with(ty.as_str())
                && args.len() <= fields.len()
                // A constructor of its own sets the fields its way, which is not followed.
                && !self.has_method(Some(&owner), &ty) =>
            {
                for (field, a) in fields.iter().zip(args) {
                    let v = self.eval(a);
                    self.bind(&format!("{}.{field}", d.name), v);
                }
            }
            Some(init) => {
                self.eval(init);
            }
            None => {}
        }
        self.objects.insert(d.name.clone(), (owner, targs));
        self.bind(&d.name, Value::Data(format!("the object `{}`", d.name)));
        true
    }

    /// The owner of the member functions of type `text` (`Stage<T>` with `T` = `float`)
    /// and the template arguments they take: a specialisation the file defines
    /// (`SharedMemory<float>`, no arguments), else the template (`Stage`, `["float"]`).
    fn owner_of(&self, text: &str) -> (String, Vec<String>) {
        let (name, args) = crate::extract::types::split_template(text);
        let name = name.rsplit("::").next().unwrap_or(name).trim().to_string();
        let args: Vec<String> = args
            .unwrap_or_default()
            .iter()
            .map(|a| {
                let a = a.trim();
                self.type_args.get(a).map_or_else(
                    || a.to_string(),
                    |t| format!("{}{}", t.base, "*".repeat(t.pointers as usize)),
                )
            })
            .collect();
        if args.is_empty() {
            return (name, args);
        }
        let full: String = format!("{name}<{}>", args.join(","))
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let specialised = self.syn.structs.contains_key(&full)
            || self
                .syn
                .functions
                .iter()
                .any(|f| f.owner.as_deref() == Some(full.as_str()));
        if specialised {
            (full, Vec::new())
        } else {
            (name, args)
        }
    }

    /// A call of a member function: `obj.m(...)` or `obj->m(...)` on a local object,
    /// `Type::m(...)` or `Type<4>::m(...)` (a static member, the qualifier's template
    /// arguments bound to the struct's parameters), `obj(...)` on an object with
    /// `operator()`. `None` when no member function of the file fits.
    fn member_call(
        &mut self,
        call: &Expr,
        callee: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        let (object, owner, method, targs): (Option<String>, String, String, Vec<String>) =
            if let Some((obj, m)) = callee.rsplit_once("->").or_else(|| callee.rsplit_once('.')) {
                let obj = obj.trim();
                if !self.objects.contains_key(obj) {
                    return self.shared_member_call(
                        call,
                        callee,
                        obj,
                        m.trim(),
                        template_args,
                        args,
                    );
                }
                let (owner, mut targs) = self.objects.get(obj)?.clone();
                targs.extend(template_args.iter().cloned());
                (Some(obj.to_string()), owner, m.trim().to_string(), targs)
            } else if let Some((q, m)) = callee.rsplit_once("::") {
                let (owner, mut targs) = self.owner_of(q);
                targs.extend(template_args.iter().cloned());
                (None, owner, m.trim().to_string(), targs)
            } else {
                let (owner, mut targs) = self.objects.get(callee.trim())?.clone();
                targs.extend(template_args.iter().cloned());
                (
                    Some(callee.trim().to_string()),
                    owner,
                    "operator()".to_string(),
                    targs,
                )
            };
        if !self.has_method(Some(&owner), &method) {
            return None;
        }
        let fields = match &object {
            Some(o) => self.struct_fields(&owner, Some(o)),
            None => Vec::new(),
        };
        let m = Method {
            owner,
            object,
            fields,
            this: None,
        };
        Some(
            self.inline_function(call, &method, &targs, args, Some(&m))
                .unwrap_or_else(|| Value::Data(format!("the result of `{callee}()`"))),
        )
    }

    /// `obj.m(...)` (or `obj->m(...)`) where `obj` is an object in shared memory (a
    /// `__shared__` struct, or a pointer to one): the member function is inlined with
    /// `this` at that place. `None` when `obj` is not one or no member function fits.
    fn shared_member_call(
        &mut self,
        call: &Expr,
        callee: &str,
        obj: &str,
        method: &str,
        template_args: &[String],
        args: &[Expr],
    ) -> Option<Value> {
        if !obj.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let ident = Expr {
            span: call.span,
            kind: ExprKind::Ident(obj.to_string()),
        };
        let target = if callee.contains("->") {
            Expr {
                span: call.span,
                kind: ExprKind::Unary(UnaryOp::Deref, Box::new(ident)),
            }
        } else {
            ident
        };
        let Some(Ok(place)) = self.place(&target) else {
            return None;
        };
        let (owner, mut targs) = self.owner_of(&place.ty.base);
        if !self.has_method(Some(&owner), method) {
            return None;
        }
        targs.extend(template_args.iter().cloned());
        let m = Method {
            owner,
            object: None,
            fields: Vec::new(),
            this: Some(place),
        };
        Some(
            self.inline_function(call, method, &targs, args, Some(&m))
                .unwrap_or_else(|| Value::Data(format!("the result of `{callee}()`"))),
        )
    }

    /// Forgets the fields of local object `object` that member function `method` assigns
    /// (every field when `method` is empty: the object is handed to a call).
    fn invalidate_fields(&mut self, object: &str, method: &str, why: &str) {
        let Some((owner, _)) = self.objects.get(object).cloned() else {
            return;
        };
        let assigned: Option<HashSet<String>> = (!method.is_empty()).then(|| {
            self.syn
                .functions
                .iter()
                .filter(|f| f.name == method && f.owner.as_deref() == Some(owner.as_str()))
                .flat_map(|f| f.body.iter().flat_map(assigned_names))
                .collect()
        });
        let prefix = format!("{object}.");
        let fields: Vec<String> = self
            .scopes
            .iter()
            .flat_map(|s| s.keys())
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|f| assigned.as_ref().is_none_or(|a| a.contains(*f)))
            .map(str::to_string)
            .collect();
        for field in fields {
            let key = format!("{prefix}{field}");
            self.assign(
                &key,
                Value::Unknown(
                    format!("`{key}` is assigned where bankcheck cannot follow it ({why})").into(),
                ),
            );
        }
    }

    /// A local object handed to a call (`init(s)`, `f(&s)`) may have its fields changed
    /// there: they are no longer known after it. (A member function called on the object
    /// gives its fields back itself.)
    fn forget_passed_objects(&mut self, callee: &str, args: &[Expr]) {
        if self.objects.is_empty() {
            return;
        }
        for a in args {
            let object = match &a.kind {
                ExprKind::Ident(o) => o,
                ExprKind::Unary(UnaryOp::AddrOf, inner) => match &inner.kind {
                    ExprKind::Ident(o) => o,
                    _ => continue,
                },
                _ => continue,
            };
            let Some((owner, _)) = self.objects.get(object).cloned() else {
                continue;
            };
            let fields: Vec<String> = self
                .struct_def(&owner)
                .map(|d| d.fields.iter().map(|f| f.name.clone()).collect())
                .unwrap_or_default();
            for field in fields {
                let key = format!("{object}.{field}");
                if self.lookup(&key).is_some() {
                    self.assign(
                        &key,
                        Value::Unknown(format!("`{key}` may be changed by `{callee}`").into()),
                    );
                }
            }
        }
    }

    /// A field of the shared object whose member function is being inlined, named bare
    /// (or `this` itself): its place. `None` outside such a function, or for a name the
    /// function binds.
    fn this_field(&mut self, name: &str) -> Option<Place> {
        let this = self.this_place.clone()?;
        if name == "this" {
            return Some(this);
        }
        if self.lookup(name).is_some() {
            return None;
        }
        let m = self.member_layout(&this.ty, name)?;
        let ty = m.ty.unwrap_or_else(|| TypeName {
            base: format!("__bytes{}", m.layout.size),
            pointers: 0,
        });
        Some(Place {
            offset: fold(BinOp::Add, this.offset.clone(), int(m.offset as i64)),
            ty,
            layout: Some(m.layout),
            pointer: None,
            index_spans: Vec::new(),
            plain: false,
            coords: None,
            ..this
        })
    }

    /// A pointer to the first element of `p`, the place of member `field` of a struct of
    /// type `owner` in shared memory, when that member is an array (`h.bins`).
    fn array_member(&self, owner: &TypeName, field: &str, p: &Place) -> Option<Value> {
        let def = self.struct_def(&owner.base)?;
        let f = def.fields.iter().find(|f| f.name == field)?;
        (!f.extents.is_empty() && f.ty.pointers == 0).then(|| Value::Ptr {
            array: p.array,
            offset: p.offset.clone(),
            pointee: p.ty.clone(),
            name: Some(field.to_string()),
        })
    }

    /// Whether the macros known here (the file's, its headers', `-D`) meet `requires`:
    /// `None` when a test needs a macro bankcheck does not know (it may come from the
    /// build's flags) or a value it cannot evaluate.
    fn requirements_hold(
        &mut self,
        requires: &[crate::extract::conditions::Requirement],
    ) -> Option<bool> {
        use crate::extract::conditions::Test;
        let mut all = Some(true);
        for (name, test) in requires {
            let defined =
                self.syn.defined.contains(name) || self.extra_constants.contains_key(name);
            let holds = match test {
                Test::Defined => defined.then_some(true),
                Test::Undefined => defined.then_some(false),
                Test::NonZero | Test::Zero => {
                    let value = if defined {
                        let e = Expr {
                            span: Span::default(),
                            kind: ExprKind::Ident(name.clone()),
                        };
                        self.const_eval(&e)
                    } else {
                        None
                    };
                    value.map(|v| (v != 0) == (*test == Test::NonZero))
                }
            };
            match holds {
                Some(false) => return Some(false),
                None => all = None,
                Some(true) => {}
            }
        }
        all
    }

    /// The value of a non-type template argument written at a call: a literal or a name.
    fn template_value(&mut self, text: &str) -> Value {
        if let Some(v) = crate::extract::convert::parse_int(text) {
            return Value::Int(int(v));
        }
        if !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            return self.ident(text);
        }
        Value::Unknown(format!("the template argument `{text}`").into())
    }

    fn assignment(&mut self, op: Option<BinaryOp>, lhs: &Expr, rhs: &Expr) -> Value {
        if self.place(lhs).is_some() {
            if op.is_some() {
                self.access_value(lhs, AccessKind::Load);
            }
            self.eval(rhs);
            self.access_value(lhs, AccessKind::Store);
            return Value::Data("a value stored to shared memory".into());
        }
        let r = self.eval(rhs);
        let field = match &lhs.kind {
            ExprKind::Member(base, f) => self.field_variable(base, f),
            _ => None,
        };
        if let Some(key) = field {
            let v = match op {
                None => r,
                Some(op) => {
                    let cur = self.lookup(&key).cloned().unwrap_or_else(|| {
                        Value::Unknown(
                            format!("the field `{key}` is not set where it is read").into(),
                        )
                    });
                    self.binary(op, cur, r)
                }
            };
            self.assign(&key, v.clone());
            return v;
        }
        if let ExprKind::Ident(name) = &lhs.kind {
            let v = match op {
                None => r,
                Some(op) => {
                    let cur = self.ident(name);
                    self.binary(op, cur, r)
                }
            };
            self.assign(name, v.clone());
            v
        } else if let Some(v) = self.assign_component(op, lhs, r.clone()) {
            v
        } else {
            // Stores to global memory or fields: evaluate for nested accesses.
            self.eval_lvalue_parts(lhs);
            r
        }
    }

    fn eval_lvalue_parts(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Index(b, i) => {
                self.eval(b);
                self.eval(i);
            }
            ExprKind::Member(b, _) | ExprKind::Unary(_, b) => self.eval_lvalue_parts(b),
            _ => {}
        }
    }

    fn address_of(&mut self, inner: &Expr) -> Value {
        match self.place(inner) {
            Some(Ok(p)) => Value::Ptr {
                array: p.array,
                offset: p.offset,
                pointee: p.ty,
                name: p.pointer,
            },
            Some(Err(v)) => v,
            None => {
                self.eval_lvalue_parts(inner);
                Value::Memory
            }
        }
    }

    /// The shared-memory place an lvalue reaches: `None` when it is not in shared
    /// memory, `Some(Err)` when it is but its address cannot be lowered.
    fn place(&mut self, e: &Expr) -> Option<Result<Place, Value>> {
        match &e.kind {
            ExprKind::Index(base, index) => {
                // Collect the chain of subscripts down to the root.
                let mut indices = vec![index.as_ref()];
                let mut root = base.as_ref();
                while let ExprKind::Index(b, i) = &root.kind {
                    indices.push(i.as_ref());
                    root = b.as_ref();
                }
                indices.reverse();
                let root_value = self.root_value(root)?;
                let index_spans: Vec<Span> = indices.iter().map(|i| i.span).collect();
                let idx_values: Vec<Value> = indices.iter().map(|i| self.eval(i)).collect();
                Some(self.index_place(
                    root_value,
                    &idx_values,
                    index_spans,
                    matches!(root.kind, ExprKind::Ident(_)),
                ))
            }
            ExprKind::Member(base, field) => {
                let p = self.place(base)?;
                Some(p.and_then(|p| {
                    let m = self.member_layout(&p.ty, field).ok_or_else(|| {
                        Value::Unknown(format!("member `{field}` of `{}`", p.ty.base).into())
                    })?;
                    let fty = m.ty.unwrap_or_else(|| TypeName {
                        base: format!("__bytes{}", m.layout.size),
                        pointers: 0,
                    });
                    Ok(Place {
                        offset: fold(BinOp::Add, p.offset, int(m.offset as i64)),
                        ty: fty,
                        layout: Some(m.layout),
                        ..p
                    })
                }))
            }
            ExprKind::Unary(UnaryOp::Deref, inner) => {
                // `*p`, and `*arr` where the array decays to a pointer to its first element.
                let pointer = match self.eval(inner) {
                    Value::Array(a) => self.decay(a),
                    other => other,
                };
                let Value::Ptr {
                    array,
                    offset,
                    pointee,
                    name,
                } = pointer
                else {
                    return None;
                };
                let layout = self.layout(&pointee);
                Some(Ok(Place {
                    array,
                    offset,
                    ty: pointee,
                    layout,
                    pointer: name,
                    index_spans: Vec::new(),
                    plain: false,
                    coords: None,
                }))
            }
            ExprKind::Ident(name)
                if self.this_place.is_some() && self.this_field(name).is_some() =>
            {
                self.this_field(name).map(Ok)
            }
            ExprKind::Ident(name) => match self.lookup(name).cloned().or_else(|| {
                self.syn
                    .global_shared
                    .iter()
                    .any(|d| d.name == *name)
                    .then(|| self.ident(name))
            }) {
                // A scalar shared variable (`__shared__ int count;`).
                Some(Value::Array(a)) if self.arrays[a].extents.is_empty() => {
                    let ty = TypeName {
                        base: self.arrays[a].element_type.clone(),
                        pointers: 0,
                    };
                    let layout = self.layout(&ty);
                    Some(Ok(Place {
                        array: a,
                        offset: int(0),
                        ty,
                        layout,
                        pointer: None,
                        index_spans: Vec::new(),
                        plain: true,
                        coords: None,
                    }))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of the root of a subscript chain when it refers to shared memory.
    fn root_value(&mut self, root: &Expr) -> Option<Value> {
        let v = match &root.kind {
            ExprKind::Ident(_)
            | ExprKind::Cast(..)
            | ExprKind::Member(..)
            | ExprKind::Binary(..)
            | ExprKind::Unary(UnaryOp::AddrOf, _)
            | ExprKind::Call { .. } => {
                if let ExprKind::Member(base, field) = &root.kind {
                    if let Some(p) = self.place(root) {
                        // An array member of a struct in shared memory (`h.bins[i]`):
                        // subscripted through a pointer to its first element.
                        let owner = match self.place(base) {
                            Some(Ok(b)) => Some(b.ty),
                            _ => None,
                        };
                        return match (p, owner) {
                            (Ok(p), Some(owner)) => self.array_member(&owner, field, &p),
                            _ => None,
                        };
                    }
                }
                self.eval(root)
            }
            _ => return None,
        };
        match v {
            Value::Array(_) => Some(v),
            Value::Ptr { .. } => Some(if let ExprKind::Ident(n) = &root.kind {
                match v {
                    Value::Ptr {
                        array,
                        offset,
                        pointee,
                        name: None,
                    } => Value::Ptr {
                        array,
                        offset,
                        pointee,
                        name: Some(n.clone()),
                    },
                    other => other,
                }
            } else {
                v
            }),
            _ => None,
        }
    }

    fn index_place(
        &mut self,
        root: Value,
        idx: &[Value],
        index_spans: Vec<Span>,
        root_is_name: bool,
    ) -> Result<Place, Value> {
        let mut ints = Vec::with_capacity(idx.len());
        for v in idx {
            match v {
                Value::Int(i) => ints.push(i.clone()),
                other => {
                    let why = describe_unknown(other);
                    return Err(Value::Unknown(why.reworded(format!("the index {why}"))));
                }
            }
        }
        match root {
            Value::Array(a) => {
                let info = self.arrays[a].clone();
                let elem_ty = TypeName {
                    base: info.element_type.clone(),
                    pointers: 0,
                };
                let elem = u64::from(info.element_bytes.max(1));
                // Strides of the dimensions, innermost 1.
                let n = info.extents.len();
                let mut offset = int(0);
                for (d, i) in ints.iter().enumerate() {
                    let mut stride = elem;
                    for e in info.extents.iter().skip(d + 1) {
                        match e {
                            Some(e) => stride *= e,
                            None => {
                                return Err(Value::Unknown(
                                    format!("an extent of `{}` is not a constant", info.name)
                                        .into(),
                                ))
                            }
                        }
                    }
                    offset = fold(
                        BinOp::Add,
                        offset,
                        fold(BinOp::Mul, i.clone(), int(stride as i64)),
                    );
                }
                if info.element_bytes == 0 {
                    return Err(Value::Unknown(Reason::unknown_type(
                        format!(
                            "the element type `{}` of `{}` is not known",
                            info.element_type, info.name
                        ),
                        &info.element_type,
                    )));
                }
                if ints.len() < n {
                    // A sub-array: a pointer to its first element.
                    return Ok(Place {
                        array: a,
                        offset,
                        ty: elem_ty.clone(),
                        layout: None,
                        pointer: None,
                        index_spans,
                        plain: false,
                        coords: None,
                    });
                }
                let layout = self.layout(&elem_ty);
                Ok(Place {
                    array: a,
                    offset,
                    ty: elem_ty,
                    layout,
                    pointer: None,
                    index_spans,
                    plain: root_is_name && ints.len() == n,
                    coords: (root_is_name && ints.len() == n).then(|| ints.clone()),
                })
            }
            Value::Ptr {
                array,
                offset,
                pointee,
                name,
            } => {
                let layout = self.layout(&pointee).ok_or_else(|| {
                    Value::Unknown(unknown_type_reason("the pointee type", &pointee.base))
                })?;
                let mut off = offset;
                if let Some(i) = ints.first() {
                    off = fold(
                        BinOp::Add,
                        off,
                        fold(BinOp::Mul, i.clone(), int(layout.size as i64)),
                    );
                }
                if ints.len() > 1 {
                    return Err(Value::Unknown(
                        "a multi-dimensional subscript of a pointer".into(),
                    ));
                }
                Ok(Place {
                    array,
                    offset: off,
                    ty: pointee,
                    layout: Some(layout),
                    pointer: name,
                    index_spans,
                    plain: false,
                    coords: None,
                })
            }
            _ => Err(Value::Unknown("not a shared array".into())),
        }
    }

    /// Records an access of kind `kind` at the place `e` reaches, and returns the loaded value.
    fn access_value(&mut self, e: &Expr, kind: AccessKind) -> Value {
        let Some(place) = self.place(e) else {
            // Not shared memory: evaluate operands for nested accesses; the value is data.
            let mut lane_dependent = false;
            if let ExprKind::Index(b, i) = &e.kind {
                let base = self.eval(b);
                // A component of a local vector, `v[1]`.
                if let Value::Vector(c) = &base {
                    return match self.const_eval(i).and_then(|k| usize::try_from(k).ok()) {
                        Some(k) if k < c.len() => c[k].clone(),
                        _ => Value::Unknown(
                            format!(
                                "`{}` picks a vector component that is not a constant",
                                self.snippet(e.span)
                            )
                            .into(),
                        ),
                    };
                }
                if base == Value::Local {
                    self.eval(i);
                    return Value::Data(format!(
                        "`{}` is an element of a thread-local array",
                        self.snippet(e.span)
                    ));
                }
                if let Value::Int(i) = self.eval(i) {
                    lane_dependent = i.var_mask() & 0b111 != 0;
                    if !lane_dependent && i.var_mask() & !0b111 == 0 {
                        // A load at a warp-uniform constant address is one uniform value.
                        let name = self.snippet(e.span);
                        return Value::Int(self.uniform(&name, None));
                    }
                    if !lane_dependent {
                        let name = self.snippet(e.span);
                        return Value::Int(self.uniform(&name, None));
                    }
                } else {
                    lane_dependent = true;
                }
            } else if let ExprKind::Member(b, _) = &e.kind {
                self.eval(b);
            }
            // (`place` has evaluated the operand of a dereference already: evaluating it
            // again would double the work at each level of `***p`.)
            return Value::Data(if lane_dependent {
                format!("`{}` is loaded per lane from memory", self.snippet(e.span))
            } else {
                format!("`{}` is loaded from memory", self.snippet(e.span))
            });
        };
        let span = e.span;
        let (array, lowered, pointer, index_spans, plain, elem_bytes) = match place {
            Ok(p) => {
                let elem = p.layout.map_or(0, |l| l.size as u32);
                let comps = match p.layout {
                    Some(l) => self.components(&p, l, kind == AccessKind::Atomic),
                    None => Err(unknown_type_reason("the accessed type", &p.ty.base)),
                };
                (p.array, comps, p.pointer, p.index_spans, p.plain, elem)
            }
            Err(v) => {
                let (array, idx_spans) = self.array_of(e);
                let Some(array) = array else {
                    return Value::Data("shared".into());
                };
                let elem = self.arrays[array].element_bytes;
                (array, Err(v.reason()), None, idx_spans, false, elem)
            }
        };
        let index_texts = index_spans
            .iter()
            .map(|s| self.text.get(s.start..s.end).unwrap_or("").to_string())
            .collect();
        let mut assumptions = match &self.shape_source {
            ShapeSource::Assumed(c) => vec![Assumption::BlockShape(*c)],
            ShapeSource::Known(..) | ShapeSource::Unstated => Vec::new(),
        };
        assumptions.extend(self.pp_assumptions.iter().cloned());
        // Every lane reading one word (an address no thread index reaches) reads one value:
        // a warp-uniform unknown, as a kernel parameter is.
        // What a site keeps is charged: the sites of a function stay within the budget.
        let stored: usize = lowered.as_ref().map_or(1, |comps| {
            comps
                .iter()
                .map(|c| {
                    c.address.size_up_to(MAX_IR_NODES)
                        + c.guards
                            .iter()
                            .map(|g| g.size_up_to(MAX_IR_NODES))
                            .sum::<usize>()
                        + c.vars.len()
                })
                .sum()
        });
        if !self.spend(stored as u64) && self.sites.iter().any(|s| s.span == span) {
            // Past the budget a site already recorded is not recorded again.
            return Value::Unknown(TOO_MUCH_WORK.into());
        }
        let uniform_value = match &lowered {
            Ok(comps) => {
                !comps.is_empty() && comps.iter().all(|c| c.address.var_mask() & 0b111 == 0)
            }
            Err(_) => false,
        };
        // The innermost call written in the same file as the access: the line the user
        // edits (a call in another file cannot be pointed at from this file's report).
        let same_text = |t: &Option<std::sync::Arc<str>>| match (t, &self.foreign) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        };
        let call = self
            .call_spans
            .iter()
            .rev()
            .find(|(_, t)| same_text(t))
            .map(|(s, _)| *s);
        self.sites.push(AccessSite {
            span,
            call,
            helper_span: None,
            array,
            pointer,
            kind,
            element_bytes: elem_bytes,
            function: self.function.clone(),
            lowered,
            index_spans,
            index_texts,
            plain_subscript: plain,
            assumptions,
            foreign: self.foreign.clone(),
            type_variant: None,
            instantiation: None,
            context: Some(LoweringContext {
                shape: self.shape_source.clone(),
                through: Vec::new(),
            }),
        });
        if uniform_value {
            let name = self.snippet(span);
            return Value::Int(self.fresh_uniform(&name));
        }
        Value::Data(format!(
            "`{}` is loaded from shared memory",
            self.snippet(span)
        ))
    }

    /// The array an unlowerable access refers to, found syntactically.
    fn array_of(&mut self, e: &Expr) -> (Option<usize>, Vec<Span>) {
        let mut spans = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Index(b, i) => {
                    spans.push(i.span);
                    cur = b;
                }
                ExprKind::Member(b, _) | ExprKind::Unary(_, b) | ExprKind::Cast(_, b) => cur = b,
                ExprKind::Ident(_) => {
                    spans.reverse();
                    return match self.eval(cur) {
                        Value::Array(a) | Value::Ptr { array: a, .. } => (Some(a), spans),
                        _ => (None, spans),
                    };
                }
                _ => return (None, spans),
            }
        }
    }

    /// Splits an access into naturally aligned components (bank-model.md: `float3` is three
    /// 4-byte accesses) and builds the lowered accesses.
    fn components(&self, p: &Place, l: Layout, atomic: bool) -> Result<Vec<LoweredAccess>, Reason> {
        let natural = matches!(l.size, 1 | 2 | 4 | 8 | 16) && l.align >= l.size;
        let (width, count) = if natural {
            (l.size, 1)
        } else {
            (l.align.clamp(1, 16), l.size / l.align.clamp(1, 16))
        };
        if width == 0 || count == 0 || count > 64 {
            return Err(format!("an element of {} bytes", l.size).into());
        }
        Ok((0..count)
            .map(|c| LoweredAccess {
                vars: self.vars.clone(),
                address: fold(BinOp::Add, p.offset.clone(), int((c * width) as i64)),
                width: width as u32,
                atomic,
                guards: self.guards.clone(),
                block: self.block,
                warp_size: self.warp_size,
                coords: if count == 1 { p.coords.clone() } else { None },
                extents: self.arrays[p.array]
                    .extents
                    .iter()
                    .map(|e| e.unwrap_or(0))
                    .collect(),
            })
            .collect())
    }
}

/// A scalar (not a vector) type: `uint`, `int`, `unsigned int`.
fn is_scalar_type(t: &TypeName) -> bool {
    t.pointers == 0 && !t.base.ends_with(|c: char| c.is_ascii_digit())
}

/// Why a type's size is unknown. Library storage types (CUB's `TempStorage`, CUTLASS's
/// `SharedStorage`, CuTe buffers, barriers) are opaque by design and said to be so, so
/// that they are counted apart from what bankcheck fails to follow.
fn unknown_type_reason(what: &str, ty: &str) -> Reason {
    let opaque = [
        "Storage",
        "storage",
        "barrier",
        "__uninitialized_array",
        "cute::",
    ];
    if opaque.iter().any(|o| ty.contains(o)) {
        // Library storage is opaque by design: not a type to try sizes for.
        Reason::new(format!(
            "opaque library storage: {what} `{ty}` is a library's type"
        ))
    } else {
        Reason::unknown_type(format!("{what} `{ty}` is not known"), ty)
    }
}

fn describe_unknown(v: &Value) -> Reason {
    match v {
        Value::Data(r) => Reason::new(format!("depends on data: {r}")),
        Value::Unknown(r) => r.reworded(format!("cannot be resolved: {r}")),
        other => Reason::new(format!("is not an integer: {}", other.reason())),
    }
}

/// Nodes of the index expressions in `v` (up to just past [`MAX_IR_NODES`]).
fn value_size(v: &Value) -> usize {
    match v {
        Value::Int(e) => e.size_up_to(MAX_IR_NODES),
        Value::Ptr { offset, .. } => offset.size_up_to(MAX_IR_NODES),
        Value::Vector(c) => c.iter().map(value_size).sum(),
        _ => 1,
    }
}
