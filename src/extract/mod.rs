//! Extraction: from a parsed file to the facts lowering needs, with no tree-sitter
//! node left in them: functions (as [`ast`] trees), shared arrays declared at file
//! scope, macros, constants, enums, typedefs, structs, kernel launches, annotation
//! comments and the spans of parse errors.

mod array_declarators;
pub mod asm;
pub mod ast;
pub mod conditions;
pub mod constants;
pub mod convert;
mod heads;
mod relevant;
mod snippet;
mod template_comparisons;

pub mod types;

pub(crate) use snippet::parse_snippet;

use crate::diag::Span;
use crate::source::SourceFile;
use ast::{Expr, Function, Launch, StructDef, TemplateParam, TypeName, VarDecl};
use convert::{span_of, type_from_text, Converter};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

/// A function-like macro: parameter names and the body as an expression.
#[derive(Debug, Clone)]
pub struct FnMacro {
    pub params: Vec<String>,
    pub body: LazyExpr,
}

/// A macro body kept as text and parsed as an expression on first use: most macros of a
/// file are never used in an index, and parsing each one costs a parser run.
#[derive(Debug, Clone)]
pub struct LazyExpr {
    text: String,
    span: Span,
    language: crate::Language,
    parsed: std::sync::OnceLock<Option<Expr>>,
}

impl LazyExpr {
    pub fn new(text: &str, span: Span, language: crate::Language) -> Self {
        LazyExpr {
            text: text.to_string(),
            span,
            language,
            parsed: std::sync::OnceLock::new(),
        }
    }

    /// An expression already parsed.
    pub fn ready(expr: Expr) -> Self {
        LazyExpr {
            text: String::new(),
            span: expr.span,
            language: crate::Language::Cuda,
            parsed: std::sync::OnceLock::from(Some(expr)),
        }
    }

    /// The body as an expression, or `None` when it is not one.
    pub fn get(&self) -> Option<&Expr> {
        self.parsed
            .get_or_init(|| parse_snippet(&self.text, self.language, self.span))
            .as_ref()
    }
}

/// A block shape `(x, y, z)` fixed by a launch in another file, with where that launch is.
pub type ExternalLaunch = ((u32, u32, u32), String);

/// A `// bankcheck: block(x, y, z)` annotation comment.
#[derive(Debug, Clone)]
pub struct Annotation {
    pub span: Span,
    pub shape: (u32, u32, u32),
}

/// Everything extracted from one file.
#[derive(Debug, Default)]
pub struct FileSyntax {
    pub functions: Vec<Function>,
    /// Shared arrays declared outside functions (HLSL `groupshared`, CUDA namespace scope).
    pub global_shared: Vec<VarDecl>,
    /// The names of `global_shared` that another file declares: a header's, added for a
    /// lowering through its includer.
    pub foreign_shared: HashSet<String>,
    /// File-scope constants: `const`/`constexpr` variables, enumerators.
    pub constants: HashMap<String, Expr>,
    /// Which namespaced constants the bare names in `constants` stand for.
    pub bare_names: constants::BareNames,
    /// Constants and object-like macros defined in preprocessor branches, each
    /// definition with its branch, by every key they are looked up under.
    pub constant_alternatives: HashMap<String, Vec<constants::Alternative>>,
    /// Object-like macros, parsed when first used.
    pub macros: HashMap<String, LazyExpr>,
    /// Every name `#define`d, with or without a value (for `#ifdef` requirements).
    pub defined: std::collections::HashSet<String>,
    pub fn_macros: HashMap<String, FnMacro>,
    /// Function-like macros defined in preprocessor branches (`#ifdef __CUDACC__` /
    /// `#define F(...) impl(__VA_ARGS__)` / `#else` / `#define F(...) do {...} while (0)`),
    /// each definition with its branch; `fn_macros` holds the last one.
    pub fn_macro_alternatives: HashMap<String, Vec<(ast::Branch, FnMacro)>>,
    pub typedefs: HashMap<String, TypeName>,
    pub structs: HashMap<String, StructDef>,
    /// Structs defined more than once (each branch of a conditional the front end left
    /// undecided defines its own): `structs` holds one of them, which no analysis may
    /// take for the one compiled.
    pub redefined_structs: std::collections::HashSet<String>,
    /// The values of `static constexpr` members of structs and classes
    /// (`Traits::kThreads`), by struct name then member name: expressions in the struct's
    /// scope (its template parameters are in [`FileSyntax::structs`]).
    pub static_members: HashMap<String, HashMap<String, Expr>>,
    /// Static members defined in conditional groups of a struct body, each definition
    /// with its branch, by struct name then member name.
    pub static_member_alternatives: HashMap<String, HashMap<String, Vec<constants::Alternative>>>,
    /// The text of type aliases (`using SmemLayoutQ = decltype(tile_to_shape(...));`), by
    /// struct name (`""` at file scope) then alias name: CuTe layouts are read from them
    /// in the struct's scope (`lower::cute`). An alias written differently in the
    /// branches of an undecided conditional has each alternative, in source order.
    pub type_aliases: HashMap<String, HashMap<String, Vec<String>>>,
    /// Member aliases of a struct defined only in conditional groups of its body, each
    /// definition with its branch (`#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800` /
    /// `using MMA_Atom_Arch = ...;`), by struct name then alias name: the lowering reads
    /// the one the known macros take, as it does for static members.
    pub type_alias_branches: HashMap<String, HashMap<String, Vec<(constants::Branch, String)>>>,
    pub launches: Vec<Launch>,
    /// `launches` by kernel name, built on first use (after extraction, which alone adds
    /// launches): see [`FileSyntax::launches_of`].
    pub launch_index: std::sync::OnceLock<HashMap<String, Vec<usize>>>,
    pub annotations: Vec<Annotation>,
    pub parse_errors: Vec<Span>,
    /// Function heads written as a macro use that could not be read from its expansion:
    /// the use, the name the function is read under (the macro's), and why.
    pub macro_refusals: Vec<(Span, String, String)>,
    /// Names defined as macros whose body is a shared-memory qualifier.
    pub shared_macros: Vec<String>,
    /// Block shapes of kernels launched in other files of the run, by kernel name,
    /// each with a description of where the launch is.
    pub external_launches: HashMap<String, Vec<ExternalLaunch>>,
    /// Explicit template arguments of calls of the file's host templates written in the
    /// files that include it, by callee (`ProjectIndex::includers_template_calls`).
    pub external_template_calls: HashMap<String, Vec<Vec<String>>>,
    /// HLSL lays out struct members differently from C (see [`types::layout_in`]).
    pub hlsl: bool,
    /// Explicit instantiations `template __global__ void k<float, 4>(...)`: name and arguments.
    pub instantiations: Vec<(String, Vec<String>)>,
    /// Calls with explicit template arguments written inside a lambda (flash-attention's
    /// `BOOL_SWITCH(c, B, [&] { run_flash_fwd<Traits<D, T>, B>(params); })`), which the
    /// expression trees do not hold: the enclosing function, callee, arguments, offset.
    pub lambda_template_calls: Vec<(usize, String, Vec<String>, usize)>,
    /// Byte offsets where the file's lines start, for numbering sites cheaply.
    pub line_starts: Vec<usize>,
    /// By function index (when extracted with [`extract_relevant`]): true when lowering
    /// the function on its own can reach no shared memory (it is kept for its launches, as
    /// a kernel, or as the caller of a kernel), so that it finds no site. Functions past
    /// the end (added later) are lowered.
    pub no_shared_memory: Vec<bool>,
    /// HLSL shader constants: the scalar and vector members of `cbuffer` blocks, by name,
    /// with their types. They hold one value for the whole dispatch.
    pub shader_constants: HashMap<String, TypeName>,
}

impl FileSyntax {
    /// The launches of `kernel`, in file order: a lookup, so that a file of many kernels
    /// and launches is handled in linear time.
    pub fn launches_of<'s>(&'s self, kernel: &str) -> impl Iterator<Item = &'s Launch> + 's {
        let index = self.launch_index.get_or_init(|| {
            let kernels: HashSet<&str> = self
                .functions
                .iter()
                .filter(|f| f.is_kernel)
                .map(|f| f.name.as_str())
                .collect();
            let mut m: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, l) in self.launches.iter().enumerate() {
                m.entry(l.kernel.clone()).or_default().push(i);
                // A launch through a function pointer (`kernel = &copySharedMem; ...
                // kernel<<<grid, threads>>>`) launches every kernel the pointer is set to
                // in the launching function.
                if kernels.contains(l.kernel.as_str()) {
                    continue;
                }
                let Some(f) = l.in_function.and_then(|fi| self.functions.get(fi)) else {
                    continue;
                };
                for k in pointer_targets(&f.body, &l.kernel, &kernels) {
                    let entry = m.entry(k).or_default();
                    if !entry.contains(&i) {
                        entry.push(i);
                    }
                }
            }
            for list in m.values_mut() {
                list.sort_unstable();
            }
            m
        });
        index
            .get(kernel)
            .into_iter()
            .flatten()
            .map(|&i| &self.launches[i])
    }

    /// The file's type definitions under its language's layout rules.
    pub fn types(&self) -> types::Types<'_> {
        types::Types {
            typedefs: &self.typedefs,
            structs: &self.structs,
            hlsl: self.hlsl,
        }
    }

    /// Adds the definitions of an included file; the file's own definitions win.
    pub fn merge_included(&mut self, other: &FileSyntax) {
        self.merge_constants(other);
        for (k, v) in &other.macros {
            self.macros.entry(k.clone()).or_insert_with(|| v.clone());
        }
        self.defined.extend(other.defined.iter().cloned());
        for (k, v) in &other.fn_macro_alternatives {
            if !self.fn_macros.contains_key(k) {
                self.fn_macro_alternatives
                    .entry(k.clone())
                    .or_insert_with(|| v.clone());
            }
        }
        for (k, v) in &other.fn_macros {
            self.fn_macros.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for (k, v) in &other.typedefs {
            self.typedefs.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for (k, v) in &other.static_members {
            self.static_members
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        for (k, v) in &other.static_member_alternatives {
            self.static_member_alternatives
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        for (k, v) in &other.type_alias_branches {
            self.type_alias_branches
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        for k in &other.redefined_structs {
            if !self.structs.contains_key(k) {
                self.redefined_structs.insert(k.clone());
            }
        }
        for (k, v) in &other.structs {
            self.structs.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for (k, v) in &other.type_aliases {
            let mine = self.type_aliases.entry(k.clone()).or_default();
            for (name, text) in v {
                mine.entry(name.clone()).or_insert_with(|| text.clone());
            }
        }
        for (k, v) in &other.shader_constants {
            self.shader_constants
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        // Functions of the header, for helpers called across the include (their spans
        // index into the header's text, which they carry).
        // Overloads differ in arity; a definition of the including file wins. A header's
        // alternatives for different targets are all kept (see `Function::requires`).
        for f in &other.functions {
            if f.foreign_text.is_some()
                && !self.functions.iter().any(|g| {
                    g.name == f.name
                        && g.params.len() == f.params.len()
                        && !g.body.is_empty()
                        && g.owner == f.owner
                        && g.branch == f.branch
                        && (g.foreign_text.is_none() || g.requires == f.requires)
                })
            {
                self.functions.push(f.clone());
            }
        }
        for m in &other.shared_macros {
            if !self.shared_macros.contains(m) {
                self.shared_macros.push(m.clone());
            }
        }
    }
}

/// Extracts the facts of `file` from its syntax tree.
pub fn extract(file: &SourceFile, tree: &tree_sitter::Tree) -> FileSyntax {
    extract_with(file, tree, false)
}

/// Extracts the facts of `file` keeping only the functions that can reach shared memory
/// (see [`relevant::relevant_functions`]): the others are neither converted nor returned. Lowering
/// such a file gives the same sites and arrays as lowering the whole file, as long as no
/// other file's functions are added to it (merged includes, includers): callers use
/// [`extract`] then.
pub fn extract_relevant(file: &SourceFile, tree: &tree_sitter::Tree) -> FileSyntax {
    extract_with(file, tree, true)
}

fn extract_with(file: &SourceFile, tree: &tree_sitter::Tree, only_relevant: bool) -> FileSyntax {
    let src = file.parse_text();
    let mut out = FileSyntax {
        hlsl: file.language == crate::Language::Hlsl,
        line_starts: crate::diag::line_starts(&file.text),
        ..FileSyntax::default()
    };
    // Macros that expand to a shared qualifier must be known before declarations are read.
    let fields = convert::Fields::of(file.language);
    collect_shared_macros(tree.root_node(), src, fields, &mut out.shared_macros);
    let shared_macros = out.shared_macros.clone();
    let conv = Converter {
        src,
        depth: std::cell::Cell::new(0),
        truncated: std::cell::RefCell::default(),
        shared_macros: &shared_macros,
        fields,
        blanked: &file.blanked_statements,
        placed: std::cell::RefCell::new(vec![false; file.blanked_statements.len()]),
        macro_effects: &file.macro_effects,
    };
    let mut walker = Walker {
        namespaces: Vec::new(),
        conv: &conv,
        depth: 0,
        file,
        out: &mut out,
        requires: Vec::new(),
        opaque: 0,
        tests: Vec::new(),
        deferred: only_relevant.then(Vec::new),
    };
    walker.top_level(tree.root_node(), &[]);
    walker.anonymous_types(tree.root_node());
    if let Some(deferred) = walker.deferred.take() {
        let (keep, reaches_shared) = relevant::relevant_functions(&out, src);
        for (index, body, params) in deferred {
            if keep[index] {
                let f = &mut out.functions[index];
                // A head read from a macro's expansion has its parameters already.
                if let Some(p) = params {
                    f.params = conv.params(p);
                }
                f.body = conv.stmts(body);
            }
        }
        // Drop the others; launches point at functions by index.
        let mut new_index = Vec::with_capacity(keep.len());
        let mut next = 0;
        for &k in &keep {
            new_index.push(k.then_some(next));
            next += usize::from(k);
        }
        let mut i = 0;
        out.functions.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        out.no_shared_memory = keep
            .iter()
            .zip(&reaches_shared)
            .filter(|(k, _)| **k)
            .map(|(_, r)| !r)
            .collect();
        for l in &mut out.launches {
            l.in_function = l.in_function.and_then(|f| new_index[f]);
        }
    }
    collect_errors(tree.root_node(), &mut out.parse_errors);
    // Code nested past the converter's depth is not followed: reported like a region
    // that could not be parsed (where shared memory is, else counted), never silent.
    out.parse_errors.extend(conv.truncated.take());
    out.parse_errors.sort_by_key(|s| (s.start, s.end));
    out.parse_errors.dedup();
    out
}

/// `#ifndef GUARD` whose first item is `#define GUARD`: the whole header, once.
fn is_include_guard(node: Node, own: &[conditions::Requirement], src: &str) -> bool {
    let [(name, conditions::Test::Undefined)] = own else {
        return false;
    };
    node.named_children(&mut node.walk())
        .find(|c| c.kind() != "identifier" && c.kind() != "comment")
        .is_some_and(|c| {
            c.kind() == "preproc_def"
                && c.child_by_field_name("name")
                    .and_then(|n| src.get(n.byte_range()))
                    == Some(name.as_str())
        })
}

fn collect_shared_macros(root: Node, src: &str, fields: &convert::Fields, out: &mut Vec<String>) {
    // Iterative: preprocessor blocks may nest arbitrarily deep.
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        collect_shared_macros_in(node, src, fields, out, &mut stack);
    }
}

fn collect_shared_macros_in<'t>(
    node: Node<'t>,
    src: &str,
    fields: &convert::Fields,
    out: &mut Vec<String>,
    stack: &mut Vec<Node<'t>>,
) {
    for c in node.named_children(&mut node.walk()) {
        if c.kind() == "preproc_def" {
            let name = fields
                .child(c, "name")
                .and_then(|n| src.get(n.byte_range()))
                .unwrap_or("");
            let value = fields
                .child(c, "value")
                .and_then(|n| src.get(n.byte_range()))
                .unwrap_or("");
            if value
                .split_whitespace()
                .any(|w| w == "groupshared" || w == "__shared__")
            {
                out.push(name.to_string());
            }
        } else if matches!(
            c.kind(),
            "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "namespace_definition"
                | "declaration_list"
                | "linkage_specification"
        ) {
            stack.push(c);
        }
    }
}

fn collect_errors(root: Node, out: &mut Vec<Span>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            out.push(span_of(node));
            continue;
        }
        if node.has_error() {
            let mut children: Vec<Node> = node.children(&mut node.walk()).collect();
            children.reverse();
            stack.extend(children);
        }
    }
}

struct Walker<'a, 'b, 't> {
    conv: &'a Converter<'a>,
    /// Names of the namespaces around the current item, outermost first.
    namespaces: Vec<String>,
    /// Nesting of namespaces and preprocessor blocks; deeper input is skipped.
    depth: u32,
    file: &'a SourceFile<'a>,
    out: &'b mut FileSyntax,
    /// What the enclosing preprocessor branches require, innermost last.
    requires: Vec<Vec<conditions::Requirement>>,
    /// Enclosing branches whose condition (or its negation) bankcheck cannot read.
    opaque: u32,
    /// The conditions of the enclosing branches as marker calls, each with the value its
    /// branch needs (an `#else` needs every condition of its chain false).
    tests: Vec<(Expr, bool)>,
    /// When only relevant functions are kept: the bodies (and parameter lists) not
    /// converted yet, by function index.
    deferred: Option<Vec<(usize, Node<'t>, Option<Node<'t>>)>>,
}

impl<'t> Walker<'_, '_, 't> {
    /// The qualified name of the namespace around the current item (`A::B`, empty at
    /// file scope; anonymous namespaces add nothing).
    fn namespace(&self) -> String {
        self.namespaces
            .iter()
            .filter(|n| !n.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join("::")
    }

    fn top_level(&mut self, node: Node<'t>, template: &[TemplateParam]) {
        if self.depth > convert::MAX_DEPTH {
            return;
        }
        self.depth += 1;
        for c in node.named_children(&mut node.walk()) {
            self.item(c, template);
        }
        self.depth -= 1;
    }

    fn item(&mut self, c: Node<'t>, template: &[TemplateParam]) {
        match c.kind() {
            "preproc_def" => self.define(c),
            "preproc_function_def" => self.fn_define(c),
            "namespace_definition" => {
                // Constants keep their qualified names too: `Reduce::Group::Width`.
                let name = self
                    .conv
                    .field(c, "name")
                    .map(|n| self.conv.text(n).to_string())
                    .unwrap_or_default();
                self.namespaces.push(name);
                let body = self.conv.field(c, "body").unwrap_or(c);
                self.top_level(body, template);
                self.namespaces.pop();
            }
            "preproc_if" | "preproc_ifdef" | "preproc_elif" => self.branch(c, template, Vec::new()),
            "preproc_else" | "declaration_list" | "linkage_specification" | "ERROR" => {
                let body = self.conv.field(c, "body").unwrap_or(c);
                // `extern "C" __global__ void k(...) { ... }`: the body is the definition.
                if body != c && body.kind() == "function_definition" {
                    self.item(body, template);
                } else {
                    self.top_level(body, template);
                }
            }
            "template_declaration" => {
                let params = self.template_params(c);
                for inner in c.named_children(&mut c.walk()) {
                    if inner.kind() != "template_parameter_list" {
                        self.item(inner, &params);
                    }
                }
            }
            // The grammar reads `cbuffer CB0 { float2 k; }` as a function named `CB0`.
            "function_definition" if self.is_cbuffer(c) => self.cbuffer(c),
            "function_definition" => self.function(c, template),
            "declaration" => {
                // A declaration may carry a struct/enum definition in its type.
                if let Some(t) = self.conv.field(c, "type") {
                    self.type_def(t, &[]);
                }
                for d in self.conv.declaration(c) {
                    if d.shared {
                        self.out.global_shared.push(d);
                    } else if d.extents.is_empty() && d.ty.pointers == 0 {
                        if let Some(init) = d.init {
                            let namespace = self.namespace();
                            let branch = self.branch_here();
                            self.out
                                .define_constant(&d.name, init, &namespace, branch.as_ref());
                        }
                    }
                }
            }
            "type_definition" => {
                let ty = self.conv.field(c, "type");
                if let Some(t) = ty {
                    self.type_def(t, &[]);
                }
                let base = ty
                    .map(|t| type_from_text(self.conv.text(t)))
                    .unwrap_or_default();
                let mut cur = c.walk();
                for d in self.conv.children(c, "declarator", &mut cur) {
                    let name = self.conv.text(d).trim_start_matches('*').trim().to_string();
                    // A built-in type is never renamed for device code: such a typedef
                    // (`typedef Framework::Float2 float2;` in a header shared with host
                    // C++) is the host's.
                    if types::builtin(&name).is_some() {
                        continue;
                    }
                    let pointers = self.conv.text(d).matches('*').count() as u32;
                    let mut t = base.clone();
                    t.pointers += pointers;
                    if t.base.starts_with("struct") || t.base.contains('{') {
                        if let Some(n) = ty.and_then(|t| self.conv.field(t, "name")) {
                            t.base = self.conv.text(n).to_string();
                        } else if let Some(body) = ty.and_then(|t| self.conv.field(t, "body")) {
                            // `typedef struct { ... } Name;`
                            let def = self.struct_def(ty, body, &[]);
                            self.out.structs.insert(name.clone(), def);
                            continue;
                        }
                    }
                    self.out.typedefs.insert(name, t);
                }
            }
            "alias_declaration" => {
                if let (Some(n), Some(t)) = (self.conv.field(c, "name"), self.conv.field(c, "type"))
                {
                    let name = self.conv.text(n).to_string();
                    if types::builtin(&name).is_none() {
                        let text = self.conv.text(t).to_string();
                        let alternatives = self
                            .out
                            .type_aliases
                            .entry(String::new())
                            .or_default()
                            .entry(name.clone())
                            .or_default();
                        if !alternatives.contains(&text) {
                            alternatives.push(text);
                        }
                        self.out.typedefs.insert(name, self.conv.type_descriptor(t));
                    }
                }
            }
            "struct_specifier" | "class_specifier" | "union_specifier" | "enum_specifier" => {
                self.type_def(c, template);
                self.static_members(c);
            }
            "template_instantiation" => self.instantiation(c),
            "expression_statement" => self.find_launches(c, None),
            "comment" => self.annotation(c),
            _ => {
                if c.kind().contains("struct") || c.kind().contains("enum") {
                    self.type_def(c, template);
                }
            }
        }
    }

    /// Whether a function definition is an HLSL `cbuffer`/`tbuffer` block, as the grammar
    /// reads it.
    fn is_cbuffer(&self, c: Node<'t>) -> bool {
        self.out.hlsl
            && self
                .conv
                .field(c, "type")
                .is_some_and(|t| matches!(self.conv.text(t), "cbuffer" | "tbuffer"))
    }

    /// A `cbuffer` block: its members without extents or pointers are shader constants.
    fn cbuffer(&mut self, c: Node<'t>) {
        let Some(body) = self.conv.field(c, "body") else {
            return;
        };
        for d in body.named_children(&mut body.walk()) {
            if d.kind() != "declaration" {
                continue;
            }
            for v in self.conv.declaration(d) {
                if v.extents.is_empty() && v.ty.pointers == 0 && !v.shared {
                    self.out.shader_constants.insert(v.name, v.ty);
                }
            }
        }
    }

    /// The preprocessor branch the current item is in; `None` outside any conditional
    /// block (an include guard does not count).
    fn branch_here(&self) -> Option<constants::Branch> {
        (!self.tests.is_empty()).then(|| constants::Branch {
            tests: self.tests.clone(),
        })
    }

    /// A macro defined outside any conditional block is known to be defined (an
    /// include guard does not count as a condition).
    fn note_defined(&mut self, name: &str) {
        if self.opaque == 0 && self.requires.iter().all(Vec::is_empty) {
            self.out.defined.insert(name.to_string());
        }
    }

    /// A conditional block: its own items under what its condition requires, then its
    /// `#elif`/`#else` under the negation (`inherited`: what an `#elif` inherits).
    fn branch(
        &mut self,
        c: Node<'t>,
        template: &[TemplateParam],
        inherited: Vec<conditions::Requirement>,
    ) {
        if self.depth > convert::MAX_DEPTH {
            return;
        }
        self.depth += 1;
        let alternative = self.conv.field(c, "alternative");
        let parsed = conditions::branch_requires(c, self.conv.src);
        let guard = parsed
            .as_deref()
            .is_some_and(|own| is_include_guard(c, own, self.conv.src));
        let own = parsed.filter(|_| !guard);
        let mut here = inherited.clone();
        here.extend(own.iter().flatten().cloned());
        // A condition bankcheck cannot read still makes what it guards conditional.
        let opaque_then = own.is_none() && !guard;
        self.opaque += u32::from(opaque_then);
        self.requires.push(here);
        let marker = (!guard).then(|| self.conv.preproc_marker(c));
        if let Some(m) = &marker {
            self.tests.push((m.clone(), true));
        }
        for item in c.named_children(&mut c.walk()) {
            if Some(item) != alternative {
                self.item(item, template);
            }
        }
        if marker.is_some() {
            self.tests.pop();
        }
        self.requires.pop();
        self.opaque -= u32::from(opaque_then);
        if let Some(alt) = alternative {
            let mut next = inherited;
            let negated = conditions::negation(own.as_deref());
            let opaque_else = negated.is_empty();
            next.extend(negated);
            self.opaque += u32::from(opaque_else);
            if let Some(m) = &marker {
                self.tests.push((m.clone(), false));
            }
            if alt.kind() == "preproc_elif" {
                self.branch(alt, template, next);
            } else {
                self.requires.push(next);
                self.top_level(alt, template);
                self.requires.pop();
            }
            if marker.is_some() {
                self.tests.pop();
            }
            self.opaque -= u32::from(opaque_else);
        }
        self.depth -= 1;
    }

    fn template_params(&self, node: Node) -> Vec<TemplateParam> {
        heads::template_params(self.conv, node)
    }

    fn define(&mut self, c: Node) {
        let Some(name) = self
            .conv
            .field(c, "name")
            .map(|n| self.conv.text(n).to_string())
        else {
            return;
        };
        self.note_defined(&name);
        let Some(value) = self.conv.field(c, "value") else {
            // `#define HLSL`: defined, with no value (for `#ifdef` in bodies).
            let body = LazyExpr::new("", span_of(c), self.file.language);
            if let Some(branch) = self.branch_here() {
                self.out.add_alternative(&name, branch, body.clone());
            }
            self.out.macros.insert(name, body);
            return;
        };
        let text = self.conv.text(value).trim();
        // A macro that names a type (`#define AU1 uint`) is a typedef.
        let ty = type_from_text(text);
        if ty.pointers == 0 && types::builtin(&ty.base).is_some() {
            self.out.typedefs.insert(name.clone(), ty);
        }
        if text.len() <= 4000 {
            let body = LazyExpr::new(text, span_of(value), self.file.language);
            if let Some(branch) = self.branch_here() {
                self.out.add_alternative(&name, branch, body.clone());
            }
            self.out.macros.insert(name, body);
        }
    }

    fn fn_define(&mut self, c: Node) {
        let Some(name) = self
            .conv
            .field(c, "name")
            .map(|n| self.conv.text(n).to_string())
        else {
            return;
        };
        self.note_defined(&name);
        // A variadic macro's `...`, which the grammar does not name, is its last parameter.
        let params: Vec<String> = self
            .conv
            .field(c, "parameters")
            .map(|p| {
                p.children(&mut p.walk())
                    .filter(|i| i.is_named() || self.conv.text(*i) == "...")
                    .map(|i| self.conv.text(i).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let Some(value) = self.conv.field(c, "value") else {
            return;
        };
        let body = LazyExpr::new(
            self.conv.text(value).trim(),
            span_of(value),
            self.file.language,
        );
        let m = FnMacro { params, body };
        if let Some(branch) = self.branch_here() {
            self.out
                .fn_macro_alternatives
                .entry(name.clone())
                .or_default()
                .push((branch, m.clone()));
        }
        self.out.fn_macros.insert(name, m);
    }

    /// The data members of a struct body, with the struct's template parameters and the
    /// argument of its `alignas` (a child of `spec`, the struct specifier, when given).
    fn struct_def(&self, spec: Option<Node>, body: Node, template: &[TemplateParam]) -> StructDef {
        let mut def = StructDef {
            template_params: template.to_vec(),
            align: spec.and_then(|t| self.alignas(t)),
            opaque: spec.is_some_and(|t| {
                t.named_children(&mut t.walk())
                    .any(|c| c.kind() == "base_class_clause")
            }),
            union: spec.is_some_and(|t| t.kind() == "union_specifier"),
            ..StructDef::default()
        };
        for f in body.named_children(&mut body.walk()) {
            if !matches!(
                f.kind(),
                "function_definition" | "field_declaration" | "declaration"
            ) {
                continue;
            }
            // `virtual` and `static` in one pass over the member's children.
            let (mut is_virtual, mut is_static) = (false, false);
            for c in f.children(&mut f.walk()) {
                match c.kind() {
                    "virtual" => is_virtual = true,
                    "storage_class_specifier" => {
                        is_static |= c.is_named() && self.conv.text(c) == "static";
                    }
                    _ => {}
                }
            }
            def.opaque |= is_virtual;
            if f.kind() == "function_definition" {
                let text = self.conv.text(f);
                if text.contains("__shared__") {
                    for c in shared_decl_regex().captures_iter(text) {
                        if let Some(n) = c.get(1) {
                            def.shared_arrays.push(n.as_str().to_string());
                        }
                    }
                }
            }
            // Static members take no room in the struct.
            if f.kind() != "field_declaration" || is_static {
                continue;
            }
            let ty = self
                .conv
                .field(f, "type")
                .map(|t| self.conv.type_of(t))
                .unwrap_or_default();
            let mut cur = f.walk();
            // A struct or union member with no name (C11 anonymous members): its members
            // are named as the enclosing struct's, at its place (`Field::name` empty).
            if ty.base.starts_with("anonymous ")
                && self
                    .conv
                    .children(f, "declarator", &mut f.walk())
                    .next()
                    .is_none()
            {
                def.fields.push(ast::Field {
                    name: String::new(),
                    ty: ty.clone(),
                    extents: Vec::new(),
                });
                continue;
            }
            for d in self.conv.children(f, "declarator", &mut cur) {
                let mut extents = Vec::new();
                let mut node = d;
                let mut pointers = 0;
                while matches!(node.kind(), "array_declarator" | "pointer_declarator") {
                    if node.kind() == "array_declarator" {
                        extents.push(self.conv.field(node, "size").map(|s| self.conv.expr(s)));
                    } else {
                        pointers += 1;
                    }
                    match self.conv.field(node, "declarator") {
                        Some(n) => node = n,
                        None => break,
                    }
                }
                // A member function declared in the body takes no room either.
                if node.kind() == "function_declarator" {
                    continue;
                }
                def.fields.push(ast::Field {
                    name: self.conv.text(node).to_string(),
                    ty: TypeName {
                        base: ty.base.clone(),
                        pointers: ty.pointers + pointers,
                    },
                    extents,
                });
            }
        }
        def
    }

    /// The argument of `alignas(N)` or `__align__(N)` on a struct specifier (`struct
    /// alignas(16) Pack`): a constant expression, or a type written as a name. Both are
    /// blanked before parsing (see `source::blank`), so they are read from the file's
    /// text between the keyword and the name or body.
    fn alignas(&self, spec: Node) -> Option<Expr> {
        let end = self
            .conv
            .field(spec, "name")
            .or_else(|| self.conv.field(spec, "body"))?
            .start_byte();
        let head = self.file.text.get(spec.start_byte()..end)?;
        let at = head.find("alignas").or_else(|| head.find("__align__"))?;
        let open = at + head[at..].find('(').unwrap_or(head.len() - at);
        // The argument up to the matching parenthesis; one bankcheck cannot read leaves
        // the alignment, and so the layout, unknown.
        let mut depth = 0;
        let close = head[open..].char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(open + i)
        });
        let start = spec.start_byte() + open;
        let Some(close) = close.filter(|&c| c > open) else {
            return Some(Expr {
                span: Span::new(start, end),
                kind: ast::ExprKind::Opaque,
            });
        };
        let arg = head[open + 1..close].trim();
        let span = Span::new(start + 1, spec.start_byte() + close);
        let kind = match convert::parse_int(arg) {
            Some(v) => ast::ExprKind::Int(v),
            None => match parse_snippet(arg, self.file.language, span) {
                Some(e) => return Some(e),
                None => ast::ExprKind::Opaque,
            },
        };
        Some(Expr { span, kind })
    }

    /// `static constexpr T name = value;` members and `using` type aliases of a struct or
    /// class definition.
    fn static_members(&mut self, t: Node<'t>) {
        let (Some(name), Some(body)) = (self.conv.field(t, "name"), self.conv.field(t, "body"))
        else {
            return;
        };
        let mut members = HashMap::new();
        let mut aliases = HashMap::new();
        self.member_aliases(body, &mut aliases);
        let name = self.conv.text(name).to_string();
        // One defined in a conditional group of the body keeps each definition with its
        // branch (`#if defined(AMD_MFMA_AVAILABLE)` / `static constexpr int ne = I * J /
        // 64;` / `#else` / `... / 32;`), picked by the lowering as file constants are.
        let mut alternatives: HashMap<String, Vec<constants::Alternative>> = HashMap::new();
        // Aliases by branch; `None` for one also defined outside every group.
        let mut alias_branches: HashMap<String, Option<Vec<(constants::Branch, String)>>> =
            HashMap::new();
        self.struct_members(body, false, &mut |w, d, grouped| {
            if d.kind() == "alias_declaration" {
                if let (Some(n), Some(t)) = (w.conv.field(d, "name"), w.conv.field(d, "type")) {
                    let entry = alias_branches
                        .entry(w.conv.text(n).to_string())
                        .or_insert_with(|| Some(Vec::new()));
                    match (w.branch_here().filter(|_| grouped), entry.as_mut()) {
                        (Some(branch), Some(list)) => {
                            list.push((branch, w.conv.text(t).to_string()));
                        }
                        _ => *entry = None,
                    }
                }
                return;
            }
            if d.kind() != "field_declaration" || !w.is_static(d) {
                return;
            }
            let (Some(decl), Some(value)) = (
                w.conv.field(d, "declarator"),
                w.conv.field(d, "default_value"),
            ) else {
                return;
            };
            let (member, value) = (w.conv.text(decl).to_string(), w.conv.expr(value));
            match w.branch_here().filter(|_| grouped) {
                Some(branch) => {
                    alternatives
                        .entry(member)
                        .or_default()
                        .push(constants::Alternative {
                            branch,
                            value: LazyExpr::ready(value),
                        });
                }
                None => {
                    members.insert(member, value);
                }
            }
        });
        if !alternatives.is_empty() {
            self.out
                .static_member_alternatives
                .insert(name.clone(), alternatives);
        }
        if !aliases.is_empty() {
            self.out.type_aliases.insert(name.clone(), aliases);
        }
        let alias_branches: HashMap<_, _> = alias_branches
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .collect();
        if !alias_branches.is_empty() {
            self.out
                .type_alias_branches
                .insert(name.clone(), alias_branches);
        }
        if !members.is_empty() {
            self.out.static_members.insert(name, members);
        }
    }

    /// The `using` aliases of a struct body, those in conditional groups included (the
    /// front end has blanked the branches it dropped): an alias the branches of an
    /// undecided group write differently has each spelling, which must agree where used.
    fn member_aliases(&self, body: Node, out: &mut HashMap<String, Vec<String>>) {
        for d in body.named_children(&mut body.walk()) {
            match d.kind() {
                "alias_declaration" => {
                    let (Some(n), Some(t)) =
                        (self.conv.field(d, "name"), self.conv.field(d, "type"))
                    else {
                        continue;
                    };
                    let text = self.conv.text(t).to_string();
                    let alternatives = out.entry(self.conv.text(n).to_string()).or_default();
                    if !alternatives.contains(&text) {
                        alternatives.push(text);
                    }
                }
                k if k.starts_with("preproc_if") || k == "preproc_else" || k == "preproc_elif" => {
                    self.member_aliases(d, out);
                }
                _ => {}
            }
        }
    }

    /// A member declaration with the `static` storage class.
    fn is_static(&self, d: Node) -> bool {
        d.named_children(&mut d.walk())
            .any(|c| c.kind() == "storage_class_specifier" && self.conv.text(c) == "static")
    }

    /// Registers every struct or union defined without a name where it is declared
    /// (`__shared__ union { ... } temp;`, in a body or a struct), under the name the
    /// declaration's type reads as ([`convert::anonymous_type_name`]).
    fn anonymous_types(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            if matches!(
                node.kind(),
                "struct_specifier" | "union_specifier" | "class_specifier"
            ) && self.conv.field(node, "name").is_none()
            {
                if let Some(body) = self.conv.field(node, "body") {
                    let def = self.struct_def(Some(node), body, &[]);
                    self.out
                        .structs
                        .insert(convert::anonymous_type_name(node), def);
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// A struct (with the template parameters it is declared with) or enum definition.
    fn type_def(&mut self, t: Node<'t>, template: &[TemplateParam]) {
        match t.kind() {
            "struct_specifier" | "class_specifier" | "union_specifier" => {
                if let (Some(name), Some(body)) =
                    (self.conv.field(t, "name"), self.conv.field(t, "body"))
                {
                    let def = self.struct_def(Some(t), body, template);
                    let name = self.conv.text(name).to_string();
                    // A specialisation (`SharedMemory<double>`) owns its methods under its
                    // full name, spaces removed; the template under its bare name.
                    let owner: String = name.chars().filter(|c| !c.is_whitespace()).collect();
                    if self.out.structs.contains_key(&name) {
                        self.out.redefined_structs.insert(name.clone());
                    }
                    self.out.structs.insert(name, def);
                    self.methods(&owner, body, template);
                }
            }
            "enum_specifier" => {
                let Some(body) = self.conv.field(t, "body") else {
                    return;
                };
                // Enumerators live in the enclosing namespace, and (`enum class`) in the enum.
                let enum_name = self
                    .conv
                    .field(t, "name")
                    .map(|n| self.conv.text(n).to_string());
                let prefix = self.namespace();
                for (name, value) in self.conv.enumerators(body) {
                    let short = self.conv.text(name).to_string();
                    if let Some(e) = &enum_name {
                        let key = if prefix.is_empty() {
                            format!("{e}::{short}")
                        } else {
                            format!("{prefix}::{e}::{short}")
                        };
                        self.out.constants.insert(key, value.clone());
                    }
                    let branch = self.branch_here();
                    self.out
                        .define_constant(&short, value, &prefix, branch.as_ref());
                }
            }
            _ => {}
        }
    }

    /// `template __global__ void k<float, 4>(float*);`: the kernel and its arguments.
    fn instantiation(&mut self, c: Node) {
        let text = self.conv.text(c);
        let Some(open) = text.find('<') else { return };
        let name: String = text[..open]
            .split_whitespace()
            .last()
            .unwrap_or("")
            .rsplit("::")
            .next()
            .unwrap_or("")
            .to_string();
        let mut depth = 0;
        let mut end = None;
        for (i, ch) in text[open..].char_indices() {
            match ch {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { return };
        let args = text[open + 1..end]
            .split(',')
            .map(|a| a.trim().to_string())
            .collect();
        if !name.is_empty() {
            self.out.instantiations.push((name, args));
        }
    }

    fn annotation(&mut self, c: Node) {
        let text = self.conv.text(c);
        if let Some(shape) = parse_block_annotation(text) {
            self.out.annotations.push(Annotation {
                span: span_of(c),
                shape,
            });
        }
    }

    fn function(&mut self, c: Node<'t>, template: &[TemplateParam]) {
        let Some((decl, name_node)) = heads::declarator(self.conv, c) else {
            return;
        };
        let mut name = self
            .conv
            .text(name_node)
            .rsplit("::")
            .next()
            .unwrap_or("")
            .to_string();
        let mut params_node = self.conv.field(decl, "parameters");
        let body_node = self.conv.field(c, "body");
        // Deferred functions get their parameters with their body, when they are kept.
        let mut params = if self.deferred.is_some() && body_node.is_some() {
            Vec::new()
        } else {
            params_node.map(|p| self.conv.params(p)).unwrap_or_default()
        };
        let mut attributes = heads::attributes(self.conv, c);
        let mut template = template.to_vec();
        // A head written as a macro use: read from its expansion.
        let heads = &self.file.macro_heads;
        let macro_head = heads
            .binary_search_by_key(&name_node.start_byte(), |h| h.name.start)
            .ok()
            .map(|i| &heads[i]);
        if let Some(h) = macro_head {
            match heads::expanded(h, self.file.language) {
                Ok(head) => {
                    name = head.name;
                    params = head.params;
                    params_node = None;
                    template.extend(head.template_params);
                    attributes = head.attributes;
                }
                // A refused expansion is said; one that is no function head only when it
                // would have defined a kernel (a test framework's `TEST_CASE(...)` whose
                // expansion names macros of headers bankcheck does not read is read as
                // before, with nothing lost).
                Err(reason) => {
                    let kernel = |e: &String| {
                        e.contains("__global__") || e.to_ascii_lowercase().contains("numthreads")
                    };
                    if h.expansion.as_ref().is_err() || h.expansion.as_ref().is_ok_and(kernel) {
                        self.out.macro_refusals.push((h.span, name.clone(), reason));
                    }
                }
            }
        }
        let heads::Attributes {
            is_kernel,
            numthreads,
            wave_size,
            launch_bounds,
        } = attributes;
        let index = self.out.functions.len();
        let body = match (&mut self.deferred, body_node) {
            (Some(deferred), Some(b)) => {
                deferred.push((index, b, params_node));
                Vec::new()
            }
            _ => body_node.map(|b| self.conv.stmts(b)).unwrap_or_default(),
        };
        if let Some(b) = body_node {
            // Only a launch (`<<<`), an annotation comment or a call with template
            // arguments inside a lambda (which the expression trees do not hold: a host
            // template's `BOOL_SWITCH(c, B, [&] { run<Traits<B>>(...); })`) is looked for.
            let text = self.conv.text(b);
            let lambda = ["[&", "[=", "[]"].iter().any(|l| text.contains(l));
            if text.contains("<<<") || text.contains("bankcheck:") || lambda {
                self.find_launches(b, Some(index));
            }
        }
        self.out.functions.push(ast::Function {
            name,
            name_span: span_of(name_node),
            span: span_of(c),
            params,
            template_params: template,
            body,
            is_kernel,
            numthreads,
            wave_size,
            launch_bounds,
            foreign_text: None,
            requires: self.requires.iter().flatten().cloned().collect(),
            owner: None,
            captures: false,
            branch: None,
        });
        if let Some(b) = body_node {
            if self.conv.text(b).contains("](") {
                self.lambdas(b);
            }
        }
    }

    /// The lambdas a body binds to locals (`auto put = [&](int i) { ... };`), as functions
    /// named after the local that capture their caller's variables.
    fn lambdas(&mut self, root: Node<'t>) {
        let mut found = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.kind() == "lambda_expression" {
                found.push(n);
            }
            stack.extend(n.named_children(&mut n.walk()));
        }
        for l in found {
            let Some(init) = l.parent().filter(|p| p.kind() == "init_declarator") else {
                continue;
            };
            let (Some(name), Some(body)) = (
                self.conv.field(init, "declarator"),
                self.conv.field(l, "body"),
            ) else {
                continue;
            };
            let params = self
                .conv
                .field(l, "declarator")
                .and_then(|d| self.conv.field(d, "parameters"))
                .map(|p| self.conv.params(p))
                .unwrap_or_default();
            self.out.functions.push(ast::Function {
                name: self.conv.text(name).to_string(),
                name_span: span_of(name),
                span: span_of(l),
                params,
                template_params: Vec::new(),
                body: self.conv.stmts(body),
                is_kernel: false,
                numthreads: None,
                wave_size: None,
                launch_bounds: None,
                foreign_text: None,
                requires: self.requires.iter().flatten().cloned().collect(),
                owner: None,
                captures: true,
                branch: None,
            });
        }
    }

    /// The member functions defined in a struct's body, as functions of the file owned by
    /// the struct (with its template parameters); one defined in a conditional group of
    /// the body keeps the conditions of its branch.
    fn methods(&mut self, owner: &str, body: Node<'t>, template: &[TemplateParam]) {
        self.struct_members(body, false, &mut |w, f, grouped| {
            if f.kind() != "function_definition" {
                return;
            }
            let before = w.out.functions.len();
            w.function(f, template);
            let branch = if grouped { w.branch_here() } else { None };
            for m in &mut w.out.functions[before..] {
                m.owner = Some(owner.to_string());
                m.branch.clone_from(&branch);
            }
        });
    }

    /// Visits the members of a struct body, those in conditional groups of the body
    /// included, each with `self.tests` holding the conditions of its branch and whether
    /// it is in such a group. Groups the front end decided were blanked before parsing.
    fn struct_members(
        &mut self,
        body: Node<'t>,
        grouped: bool,
        visit: &mut dyn FnMut(&mut Self, Node<'t>, bool),
    ) {
        for c in body.named_children(&mut body.walk()) {
            self.struct_member(c, grouped, visit);
        }
    }

    /// One member of a struct body, or a conditional group of members: its own items
    /// under its condition, its `#elif`/`#else` under the condition's negation.
    fn struct_member(
        &mut self,
        c: Node<'t>,
        grouped: bool,
        visit: &mut dyn FnMut(&mut Self, Node<'t>, bool),
    ) {
        if !matches!(c.kind(), "preproc_if" | "preproc_ifdef" | "preproc_elif") {
            visit(self, c, grouped);
            return;
        }
        if self.depth > convert::MAX_DEPTH {
            return;
        }
        self.depth += 1;
        let alternative = self.conv.field(c, "alternative");
        let marker = self.conv.preproc_marker(c);
        self.tests.push((marker.clone(), true));
        for item in c.named_children(&mut c.walk()) {
            if Some(item) != alternative {
                self.struct_member(item, true, visit);
            }
        }
        self.tests.pop();
        if let Some(alt) = alternative {
            self.tests.push((marker, false));
            if alt.kind() == "preproc_elif" {
                self.struct_member(alt, true, visit);
            } else {
                self.struct_members(alt, true, visit);
            }
            self.tests.pop();
        }
        self.depth -= 1;
    }

    /// The launches and annotation comments under `root`, each node visited before its
    /// children and children last to first.
    fn find_launches(&mut self, root: Node, in_function: Option<usize>) {
        // One cursor, iterative (deeply nested input must not exhaust the stack): that
        // order is the reverse of the post-order visiting children first to last.
        let mut found = Vec::new();
        let mut cursor = root.walk();
        'tree: loop {
            while cursor.goto_first_child() {}
            loop {
                let node = cursor.node();
                if matches!(node.kind(), "call_expression" | "comment") {
                    found.push(node);
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'tree;
                }
            }
        }
        for node in found.into_iter().rev() {
            if node.kind() == "call_expression" {
                self.lambda_template_call(node, in_function);
                self.launch(node, in_function);
            } else {
                self.annotation(node);
            }
        }
    }

    fn launch(&mut self, node: Node, in_function: Option<usize>) {
        let Some(k) = node
            .named_children(&mut node.walk())
            .find(|n| n.kind() == "kernel_call_syntax")
        else {
            return;
        };
        let args: Vec<Node> = k
            .named_children(&mut k.walk())
            .filter(|n| n.kind() != "comment")
            .collect();
        let (Some(f), Some(block)) = (self.conv.field(node, "function"), args.get(1)) else {
            return;
        };
        let (kernel, template_args) = if f.kind() == "template_function" {
            let n = self
                .conv
                .field(f, "name")
                .map_or("", |n| self.conv.text(n))
                .to_string();
            let t = self
                .conv
                .field(f, "arguments")
                .map(|a| {
                    a.named_children(&mut a.walk())
                        .map(|c| self.conv.text(c).to_string())
                        .collect()
                })
                .unwrap_or_default();
            (n, t)
        } else if f.kind() == "identifier" {
            // `auto kernel = &k<A, B>; kernel<<<...>>>`: the launch is of that instantiation.
            let name = self.conv.text(f).to_string();
            self.pointer_initialiser(node, &name)
                .unwrap_or((name, Vec::new()))
        } else {
            (self.conv.text(f).to_string(), Vec::new())
        };
        let kernel = kernel.rsplit("::").next().unwrap_or("").to_string();
        let args = self
            .conv
            .field(node, "arguments")
            .map(|a| {
                a.named_children(&mut a.walk())
                    .filter(|n| n.kind() != "comment")
                    .map(|n| self.conv.expr(n))
                    .collect()
            })
            .unwrap_or_default();
        self.out.launches.push(Launch {
            kernel,
            template_args,
            block: self.conv.expr(*block),
            in_function,
            span: span_of(node),
            args,
        });
    }
}

impl Walker<'_, '_, '_> {
    /// The kernel and template arguments a function pointer `name` launched at `launch`
    /// points to, when the innermost block around the launch declares it once as
    /// `auto name = &k<A, B>;` (flash-attention's launchers, inside each `BOOL_SWITCH`
    /// lambda), before the launch, and never assigns it: the launch is of `k<A, B>`
    /// itself. Anything else (a pointer set in branches, assigned, declared twice) is
    /// left to `launches_of`, which binds no template arguments.
    /// The arguments of a `template_function` node, each as written, trimmed.
    fn template_args_of(&self, f: Node) -> Vec<String> {
        self.conv
            .field(f, "arguments")
            .map(|a| {
                a.named_children(&mut a.walk())
                    .map(|c| self.conv.text(c).trim().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Records a call with explicit template arguments written inside a lambda
    /// ([`FileSyntax::lambda_template_calls`]).
    fn lambda_template_call(&mut self, node: Node, in_function: Option<usize>) {
        let (Some(fi), Some(f)) = (in_function, self.conv.field(node, "function")) else {
            return;
        };
        if f.kind() != "template_function" {
            return;
        }
        let mut up = node.parent();
        while let Some(p) = up {
            if p.kind() == "lambda_expression" {
                break;
            }
            up = p.parent();
        }
        if up.is_none() {
            return;
        }
        let Some(name) = self.conv.field(f, "name").map(|n| self.conv.text(n)) else {
            return;
        };
        let args = self.template_args_of(f);
        let name = name.rsplit("::").next().unwrap_or("").to_string();
        self.out
            .lambda_template_calls
            .push((fi, name, args, node.start_byte()));
    }

    fn pointer_initialiser(&self, launch: Node, name: &str) -> Option<(String, Vec<String>)> {
        let mut block = launch.parent()?;
        while block.kind() != "compound_statement" {
            block = block.parent()?;
        }
        let mut found = None;
        let mut stack = vec![block];
        while let Some(n) = stack.pop() {
            if n.kind() == "assignment_expression"
                && self
                    .conv
                    .field(n, "left")
                    .is_some_and(|l| self.conv.text(l).trim() == name)
            {
                return None;
            }
            if n.kind() == "init_declarator"
                && self
                    .conv
                    .field(n, "declarator")
                    .is_some_and(|d| self.conv.text(d).trim() == name)
            {
                // A second declaration (a nested lambda's) or one after the launch
                // (which then reads an outer `name`) is not followed.
                if found.is_some() || n.start_byte() > launch.start_byte() {
                    return None;
                }
                let mut value = self.conv.field(n, "value")?;
                if value.kind() == "pointer_expression" {
                    value = self.conv.field(value, "argument")?;
                }
                if value.kind() != "template_function" {
                    // The grammar reads `&k<A, B && !C, D <= 128>` as comparisons.
                    found = Some(template_id_of_text(self.conv.text(value))?);
                    continue;
                }
                let k = self.conv.field(value, "name").map(|n| self.conv.text(n))?;
                found = Some((k.to_string(), self.template_args_of(value)));
            }
            stack.extend(n.named_children(&mut n.walk()));
        }
        found
    }
}

/// `(k, [A, B])` of the text `&k<A, B>` (or `k<A, B>`), splitting the arguments at the
/// commas outside brackets; `<=` and `>=` are comparisons. `None` when the brackets do
/// not balance or `k` is no name.
fn template_id_of_text(text: &str) -> Option<(String, Vec<String>)> {
    let text = text.trim().trim_start_matches('&').trim_start();
    let open = text.find('<')?;
    let name = text[..open].trim();
    let name = name.rsplit("::").next().unwrap_or("");
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let inner = text[open + 1..].strip_suffix('>')?;
    let bytes = inner.as_bytes();
    let (mut depth, mut start, mut args) = (0i32, 0usize, Vec::new());
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|j| bytes[j]);
        match b {
            b'<' | b'(' | b'[' | b'{'
                if next != Some(b'=') && next != Some(b'<') && prev != Some(b'<') =>
            {
                depth += 1;
            }
            b'>' | b')' | b']' | b'}'
                if next != Some(b'=')
                    && next != Some(b'>')
                    && prev != Some(b'>')
                    && prev != Some(b'-') =>
            {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b',' if depth == 0 => {
                args.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    args.push(inner[start..].trim().to_string());
    Some((name.to_string(), args))
}

/// Parses `// bankcheck: block(32, 8)` (also `/* */` and HLSL comments).
pub fn parse_block_annotation(comment: &str) -> Option<(u32, u32, u32)> {
    let rest = comment.split("bankcheck:").nth(1)?.trim_start();
    let inner = rest.strip_prefix("block")?.trim_start().strip_prefix('(')?;
    let inner = inner.split(')').next()?;
    let dims: Vec<u32> = inner
        .split(',')
        .map(|d| d.trim().parse().ok())
        .collect::<Option<Vec<_>>>()?;
    match dims.as_slice() {
        [x] => Some((*x, 1, 1)),
        [x, y] => Some((*x, *y, 1)),
        [x, y, z] => Some((*x, *y, *z)),
        _ => None,
    }
}

/// A shared array declared in a function body: `extern __shared__ int __smem[]`.
fn shared_decl_regex() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"__shared__[^;\[\]{}()]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\[")
            .expect("valid shared declaration pattern")
    })
}

/// The kernels that the function pointer `name` is set to in `body`: `name = &k;`,
/// `name = k;` or a declaration initialised so.
fn pointer_targets(body: &[ast::Stmt], name: &str, kernels: &HashSet<&str>) -> Vec<String> {
    let target = |e: &ast::Expr| -> Option<String> {
        let e = match &e.kind {
            ast::ExprKind::Unary(ast::UnaryOp::AddrOf, inner) => inner.as_ref(),
            _ => e,
        };
        match &e.kind {
            ast::ExprKind::Ident(k) if kernels.contains(k.as_str()) => Some(k.clone()),
            _ => None,
        }
    };
    let mut out: Vec<String> = Vec::new();
    let mut push = |k: String| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for s in body {
        s.walk_exprs(&mut |e| {
            if let ast::ExprKind::Assign(None, lhs, rhs) = &e.kind {
                if matches!(&lhs.kind, ast::ExprKind::Ident(n) if n == name) {
                    if let Some(k) = target(rhs) {
                        push(k);
                    }
                }
            }
        });
        s.walk_decls(&mut |d| {
            if d.name == name {
                if let Some(k) = d.init.as_ref().and_then(target) {
                    push(k);
                }
            }
        });
    }
    out
}
