//! Template type arguments.
//!
//! - At a call to a templated helper, the helper's type parameters are deduced from the
//!   explicit template arguments and from the argument values (a pointer to, or an array
//!   of, a known element type fixes `T` of a `T*` parameter), per call site.
//! - A kernel's instantiations come from its launches (with the type parameters of a
//!   templated host function replaced by that function's own instantiations and calls),
//!   its explicit instantiations and its defaults; each distinct one is analysed and named.
//! - When nothing fixes a type parameter an access needs, the access is analysed for
//!   every element size from 1 to 16 bytes, and decided only when all sizes agree (the
//!   pipeline compares them; see [`ELEMENT_SIZES`]).

use super::value::Value;
use crate::extract::ast::{Expr, ExprKind, Function, TypeName};
use crate::extract::convert::type_from_text;
use crate::extract::FileSyntax;
use crate::model::site::ArrayInfo;
use std::collections::HashMap;

/// Template type parameters and the types they stand for.
pub type TypeArgs = HashMap<String, TypeName>;

/// Element sizes tried for a type parameter nothing fixes, with a type of each size.
pub const ELEMENT_SIZES: [(u32, &str); 6] = [
    (1, "char"),
    (2, "short"),
    (4, "int"),
    (8, "long long"),
    (12, "float3"),
    (16, "float4"),
];

/// The key under which a lowering at one of [`ELEMENT_SIZES`] records its stand-in type
/// among the type arguments (no name can be spelled so): a specialisation chosen by that
/// type itself, not its size, would rest on the stand-in and is not decided.
pub const STAND_IN: &str = "\u{0}stand-in";

/// `ty` with template type parameters replaced by their arguments.
pub fn resolve(ty: &TypeName, args: &TypeArgs) -> TypeName {
    match args.get(&ty.base) {
        Some(t) if t.base != ty.base => TypeName {
            base: t.base.clone(),
            pointers: t.pointers + ty.pointers,
        },
        _ => ty.clone(),
    }
}

/// The type arguments a helper runs with at one call: the caller's, minus the helper's own
/// parameters, plus what the explicit arguments and the argument values fix. Returns
/// also the explicit arguments of non-type parameters, by parameter name.
pub fn deduce_call(
    f: &Function,
    explicit: &[String],
    values: &[Value],
    arrays: &[ArrayInfo],
    caller: &TypeArgs,
) -> (TypeArgs, Vec<(String, String)>) {
    let mut out = caller.clone();
    let mut non_type = Vec::new();
    for tp in &f.template_params {
        out.remove(&tp.name);
    }
    for (tp, text) in f.template_params.iter().zip(explicit) {
        if tp.is_type {
            out.insert(tp.name.clone(), resolve(&type_from_text(text), caller));
        } else {
            non_type.push((tp.name.clone(), text.trim().to_string()));
        }
    }
    for (p, v) in f.params.iter().zip(values) {
        let is_param = f
            .template_params
            .iter()
            .any(|tp| tp.is_type && tp.name == p.ty.base);
        if !is_param || out.contains_key(&p.ty.base) {
            continue;
        }
        // `T* p` (or `T p[]`) with a pointer to `E`, or with an array of `E`: `T` is `E`.
        let depth = p.ty.pointers + u32::from(p.array_or_ref && p.ty.pointers == 0);
        let pointee = match v {
            Value::Ptr { pointee, .. } => Some(resolve(pointee, caller)),
            Value::Array(a) => arrays.get(*a).map(|info| {
                resolve(
                    &TypeName {
                        base: info.element_type.clone(),
                        pointers: info.element_pointers,
                    },
                    caller,
                )
            }),
            _ => None,
        };
        if let Some(e) = pointee {
            if depth >= 1 && e.pointers + 1 >= depth && !e.base.is_empty() {
                out.insert(
                    p.ty.base.clone(),
                    TypeName {
                        base: e.base,
                        pointers: e.pointers + 1 - depth,
                    },
                );
            }
        }
    }
    (out, non_type)
}

/// One instantiation of a kernel: its type arguments and its non-type arguments that are
/// integer literals or names of file constants with a literal value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Instantiation {
    pub types: TypeArgs,
    pub values: Vec<(String, Expr)>,
    /// Parameters bound to what the launch's host function builds (a CuTe `TiledCopy`
    /// or layout), by name: one launch's ([`super::host_args`]).
    pub host_args: HostArgs,
}

/// A launch's host-built arguments, by parameter name.
pub type HostArgs = Vec<(String, super::host_args::HostArg)>;

/// Most instantiations of one kernel analysed; the rest are named in an assumption.
pub const MAX_INSTANTIATIONS: usize = 32;

/// The distinct instantiations of `f` in the file: from its launches (through templated
/// host functions), its explicit instantiations, its defaults. Type parameters that
/// nothing fixes are left out, and so are non-type arguments that are not literals.
pub fn instantiations(syn: &FileSyntax, f: &Function, text: &str) -> Vec<Instantiation> {
    // Arguments of parameters the function never names cannot change its lowering.
    let body = f.source(text);
    let words: std::collections::HashSet<&str> = body
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    let mut out: Vec<Instantiation> = Vec::new();
    for mut inst in all_instantiations(syn, f, text) {
        inst.types.retain(|k, _| words.contains(k.as_str()));
        inst.values.retain(|(k, _)| words.contains(k.as_str()));
        if !out.contains(&inst) {
            out.push(inst);
        }
    }
    out
}

/// `insts` with each first binding of the type parameters before the instantiations
/// that repeat an earlier one's types (differing in non-type values only), otherwise in
/// order: past [`MAX_INSTANTIATIONS`], the ones left out share their types with one
/// analysed (flash-attention's kernels take each traits struct with `Is_causal` both
/// ways).
pub fn distinct_types_first(insts: Vec<Instantiation>) -> Vec<Instantiation> {
    let mut first: Vec<Instantiation> = Vec::new();
    let mut repeated: Vec<Instantiation> = Vec::new();
    for inst in insts {
        if first.iter().any(|f| f.types == inst.types) {
            repeated.push(inst);
        } else {
            first.push(inst);
        }
    }
    first.extend(repeated);
    first
}

/// A launch's host function and the launch's position in it: its `const` locals may be
/// the launch's template arguments.
type Launched<'a> = Option<(&'a Function, usize)>;

fn all_instantiations(syn: &FileSyntax, f: &Function, text: &str) -> Vec<Instantiation> {
    let bindings = super::host_args::launch_bindings(syn, f, text);
    if f.template_params.is_empty() && bindings.is_empty() {
        return Vec::new();
    }
    // Each list of template arguments with the host-built arguments of its launch, and
    // the launch's host function and position (its `const` locals may be arguments).
    let mut lists: Vec<(Vec<String>, HostArgs, Launched)> = Vec::new();
    for (li, l) in syn.launches_of(&f.name).enumerate() {
        let host_args = bindings.get(li).cloned().unwrap_or_default();
        if l.template_args.is_empty() {
            lists.push((Vec::new(), host_args, None));
            continue;
        }
        let host = l.in_function.and_then(|i| syn.functions.get(i));
        for list in substitute_host(syn, host, &l.template_args, 0, text) {
            lists.push((list, host_args.clone(), host.map(|h| (h, l.span.start))));
        }
    }
    for (k, args) in &syn.instantiations {
        if *k == f.name {
            lists.push((args.clone(), Vec::new(), None));
        }
    }
    if lists.is_empty() {
        lists.push((Vec::new(), Vec::new(), None));
    }
    let mut out: Vec<Instantiation> = Vec::new();
    for (list, host_args, launched) in lists {
        let mut inst = Instantiation {
            host_args,
            ..Instantiation::default()
        };
        for (i, tp) in f.template_params.iter().enumerate() {
            if !tp.is_type {
                let kind = list.get(i).map(|t| t.trim()).and_then(|t| match t {
                    "true" => Some(ExprKind::Int(1)),
                    "false" => Some(ExprKind::Int(0)),
                    // The name of a file constant or macro whose value is a literal.
                    _ if syn.constants.contains_key(t) || syn.macros.contains_key(t) => {
                        let def = syn
                            .constants
                            .get(t)
                            .cloned()
                            .or_else(|| syn.macros.get(t).and_then(|m| m.get().cloned()));
                        match def.map(|d| d.kind) {
                            Some(ExprKind::Int(v)) => Some(ExprKind::Int(v)),
                            _ => None,
                        }
                    }
                    _ => crate::extract::convert::parse_int(t)
                        .or_else(|| {
                            let (host, at) = launched?;
                            super::host_constants::literal_local(host, t, at, text)
                        })
                        .map(ExprKind::Int),
                });
                if let Some(kind) = kind {
                    inst.values.push((
                        tp.name.clone(),
                        Expr {
                            span: crate::diag::Span::default(),
                            kind,
                        },
                    ));
                }
                continue;
            }
            let from_args = list.get(i).map(|t| type_from_text(t));
            let from_default = match tp.default.as_ref().map(|d| &d.kind) {
                Some(ExprKind::Ident(t)) => Some(type_from_text(t)),
                _ => None,
            };
            if let Some(t) = from_args.or(from_default) {
                // A parameter of a host function nothing instantiates stays unknown,
                // also inside the arguments of a type (`Traits<64, T>`).
                let open = list.get(i).map_or(t.base.as_str(), |a| a.as_str());
                if !t.base.is_empty() && !names_template_param(syn, open) {
                    inst.types.insert(tp.name.clone(), t);
                }
            }
        }
        if !out.contains(&inst) {
            out.push(inst);
        }
    }
    out
}

/// True when `text` names a type template parameter of some function of the file.
fn names_template_param(syn: &FileSyntax, text: &str) -> bool {
    syn.functions.iter().any(|f| {
        f.template_params
            .iter()
            .any(|tp| tp.is_type && names_word(text, &tp.name))
    })
}

/// The argument lists `args` (written inside `host`) stands for: every argument naming a
/// template parameter of `host` is replaced by that parameter's argument in each of
/// `host`'s instantiations (explicit ones and calls with template arguments).
fn substitute_host(
    syn: &FileSyntax,
    host: Option<&Function>,
    args: &[String],
    depth: u32,
    text: &str,
) -> Vec<Vec<String>> {
    let Some(host) = host else {
        return vec![args.to_vec()];
    };
    let uses_param = args.iter().any(|a| {
        host.template_params
            .iter()
            .any(|tp| names_word(a, &tp.name))
    });
    if !uses_param || depth > 3 {
        return vec![args.to_vec()];
    }
    // The host's own instantiations, each with its arguments resolved in turn.
    let mut host_lists: Vec<Vec<String>> = Vec::new();
    for (k, a) in &syn.instantiations {
        if *k == host.name {
            host_lists.push(a.clone());
        }
    }
    // Calls written in the files that include this one (their explicit specialisations).
    for a in syn
        .external_template_calls
        .get(&host.name)
        .into_iter()
        .flatten()
    {
        if !host_lists.contains(a) {
            host_lists.push(a.clone());
        }
    }
    for (caller, a, at) in calls_with_template_args(syn, &host.name) {
        let f = syn.functions.get(caller);
        // `constexpr static int Headdim = 128;` of the caller, where the call is written.
        let a: Vec<String> = match f {
            Some(f) => a.iter().map(|x| literal_locals(f, x, at, text)).collect(),
            None => a,
        };
        for resolved in substitute_host(syn, f, &a, depth + 1, text) {
            host_lists.push(resolved);
        }
    }
    if host_lists.is_empty() {
        return vec![args.to_vec()];
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    for hl in host_lists {
        let list: Vec<String> = args
            .iter()
            .map(|a| substitute_words(a, &host.template_params, &hl))
            .collect();
        if !out.contains(&list) {
            out.push(list);
        }
    }
    out
}

/// `arg` with each word that names a `const` integer local of `caller` in scope at
/// `at` (computed from literals) replaced by its value.
fn literal_locals(caller: &Function, arg: &str, at: usize, text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let starts_name = word.chars().next().is_some_and(|c| !c.is_ascii_digit());
        match starts_name
            .then(|| super::host_constants::literal_local(caller, word, at, text))
            .flatten()
        {
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(word),
        }
        word.clear();
    };
    for_words(arg, &mut out, &mut word, flush);
    out
}

/// Runs `flush` on each identifier of `text` (the rest copied to `out`), except one
/// after `::` or `.`, a member, which is copied as written.
fn for_words(
    text: &str,
    out: &mut String,
    word: &mut String,
    flush: impl Fn(&mut String, &mut String),
) {
    let mut member = false;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if member {
            out.push_str(word);
            word.clear();
        } else {
            flush(word, out);
        }
        member = matches!(c, ':' | '.');
        out.push(c);
    }
    if member {
        out.push_str(word);
        word.clear();
    } else {
        flush(word, out);
    }
}

/// True when `text` spells the identifier `word` (not as part of a longer name).
fn names_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// `text` with every identifier naming one of `params` replaced by its argument in
/// `list` (`Traits<64, T>` with `T` = `half` is `Traits<64, half>`); a parameter `list`
/// does not reach stays as written, so the result still names it.
fn substitute_words(
    text: &str,
    params: &[crate::extract::ast::TemplateParam],
    list: &[String],
) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let arg = params
            .iter()
            .position(|tp| tp.name == *word)
            .and_then(|i| list.get(i));
        out.push_str(arg.map_or(word.as_str(), |a| a.trim()));
        word.clear();
    };
    for_words(text, &mut out, &mut word, flush);
    out.trim().to_string()
}

/// Calls with explicit template arguments, by callee: the caller's index and the text
/// of the arguments.
type CallsByName = HashMap<String, Vec<(usize, Vec<String>, usize)>>;

thread_local! {
    /// Results of [`calls_with_template_args`] for the file being lowered (a walk of every
    /// function body per query would otherwise repeat for each instantiation).
    static CALLS: std::cell::RefCell<CallsByName> = std::cell::RefCell::new(HashMap::new());
}

/// Forgets the cached calls: a new file is being lowered.
pub fn start_file() {
    CALLS.with(|c| c.borrow_mut().clear());
}

/// Calls `name<...>(...)` with explicit template arguments anywhere in the file's
/// functions: the calling function's index and the arguments' text.
fn calls_with_template_args(syn: &FileSyntax, name: &str) -> Vec<(usize, Vec<String>, usize)> {
    if let Some(hit) = CALLS.with(|c| c.borrow().get(name).cloned()) {
        return hit;
    }
    let found = walk_calls_with_template_args(syn, name);
    CALLS.with(|c| c.borrow_mut().insert(name.to_string(), found.clone()));
    found
}

fn walk_calls_with_template_args(syn: &FileSyntax, name: &str) -> Vec<(usize, Vec<String>, usize)> {
    let mut out: Vec<(usize, Vec<String>, usize)> = syn
        .lambda_template_calls
        .iter()
        .filter(|(_, c, args, _)| c == name && !args.is_empty())
        .map(|(f, _, args, at)| (*f, args.clone(), *at))
        .collect();
    for (i, f) in syn.functions.iter().enumerate() {
        for s in &f.body {
            s.walk_exprs(&mut |e| {
                let ExprKind::Call {
                    callee,
                    template_args,
                    ..
                } = &e.kind
                else {
                    return;
                };
                let written = callee.split_once('<').filter(|_| template_args.is_empty());
                let c = written.map_or(callee.as_str(), |(c, _)| c);
                // The name first: most calls are of other functions.
                if c.rsplit("::").next() != Some(name) {
                    return;
                }
                let targs: Vec<String> = match written {
                    Some((_, rest)) => rest
                        .trim_end_matches('>')
                        .split(',')
                        .map(|a| a.trim().to_string())
                        .collect(),
                    None => template_args.clone(),
                };
                if !targs.is_empty() {
                    out.push((i, targs, e.span.start));
                }
            });
        }
    }
    out
}

/// "`T` = `float`, `N` = 4" for a context's label; "the launch on line 12" when it
/// binds host-built arguments.
pub fn describe(inst: &Instantiation, f: &Function, text: &str) -> String {
    let launch = inst.host_args.first().map(|(_, h)| {
        let line = crate::diag::line_of(&crate::diag::line_starts(text), h.launch.start);
        format!("the launch on line {line}")
    });
    f.template_params
        .iter()
        .filter_map(|tp| {
            if let Some(t) = inst.types.get(&tp.name) {
                return Some(format!(
                    "`{}` = `{}{}`",
                    tp.name,
                    t.base,
                    "*".repeat(t.pointers as usize)
                ));
            }
            let (_, v) = inst.values.iter().find(|(n, _)| *n == tp.name)?;
            match &v.kind {
                ExprKind::Int(v) => Some(format!("`{}` = {v}", tp.name)),
                _ => None,
            }
        })
        .chain(launch)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one type that nothing fixed and that the sites' reasons name as unknown (`the
/// pointee type `T` is not known`), when there is exactly one: a type parameter of `f`
/// with no argument, a local alias of a dependent type (`using Element = typename
/// TensorO::value_type;`), or a type written in terms of `f`'s type parameters
/// (`vec4<T>::Type`).
pub fn unfixed_param_needed<'a>(
    f: &'a Function,
    args: &TypeArgs,
    aliases: &'a [String],
    unknown_types: impl Iterator<Item = &'a str>,
) -> Option<String> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let candidate = |name: &str| {
        let param = f
            .template_params
            .iter()
            .any(|tp| tp.is_type && tp.name == name);
        (param && !args.contains_key(name))
            || aliases.iter().any(|a| a == name)
            || ((name.contains('<') || name.contains("::"))
                && !name.contains(['(', ')', ','])
                && name.split(|c: char| !is_word(c)).any(|w| {
                    f.template_params
                        .iter()
                        .any(|tp| tp.is_type && tp.name == w)
                }))
    };
    let mut needed: Vec<&str> = Vec::new();
    for name in unknown_types {
        if candidate(name) && !needed.contains(&name) {
            needed.push(name);
        }
    }
    match needed.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}

/// The assumption stated on a verdict that holds for every element size tried.
pub fn every_size_assumption(param: &str) -> String {
    format!(
        "the type `{param}` is not known in the run (no instantiation fixes it); the verdict holds for every element size of 1 to 16 bytes (1, 2, 4, 8, 12, 16)"
    )
}

/// The assumption stated on a verdict whose factor differs between element sizes.
pub fn each_size_assumption(param: &str) -> String {
    format!(
        "the type `{param}` is not known in the run (no instantiation fixes it); each element size of 1 to 16 bytes (1, 2, 4, 8, 12, 16) was analysed and the worst is reported"
    )
}

/// Argument values with the caller's template parameters in their pointee types replaced,
/// so that the helper's own parameters of the same name do not capture them.
pub fn resolve_pointees(values: Vec<Value>, caller: &TypeArgs) -> Vec<Value> {
    values
        .into_iter()
        .map(|v| match v {
            Value::Ptr {
                array,
                offset,
                pointee,
                name,
            } => Value::Ptr {
                array,
                offset,
                pointee: resolve(&pointee, caller),
                name,
            },
            other => other,
        })
        .collect()
}

/// Names declared in `f`'s body as aliases of a type that depends on its template
/// parameters: `using Element = typename TensorO::value_type;`, `typedef typename T::U V;`.
pub fn dependent_aliases(f: &Function, text: &str) -> Vec<String> {
    if f.template_params.is_empty() {
        return Vec::new();
    }
    let text = f.foreign_text.as_deref().unwrap_or(text);
    let Some(body) = text.get(f.span.start..f.span.end) else {
        return Vec::new();
    };
    let dependent = |target: &str| {
        target.contains("typename")
            || f.template_params.iter().any(|tp| {
                tp.is_type
                    && target
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|w| w == tp.name)
            })
    };
    let mut out = Vec::new();
    for stmt in body.split(';') {
        let words = stmt.rsplit(['{', '}']).next().unwrap_or("").trim();
        let is_word_end = |c: char| !(c.is_alphanumeric() || c == '_');
        if let Some(rest) = words.strip_prefix("using ") {
            if let Some((name, target)) = rest.split_once('=') {
                let name = name.trim();
                if !name.is_empty() && !name.contains(is_word_end) && dependent(target) {
                    out.push(name.to_string());
                }
            }
        } else if let Some(rest) = words.strip_prefix("typedef ") {
            if let Some(name) = rest.rsplit(is_word_end).next() {
                if !name.is_empty() && dependent(&rest[..rest.len() - name.len()]) {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(ty: &str, causal: i64) -> Instantiation {
        let mut types = TypeArgs::new();
        types.insert(
            "K".to_string(),
            TypeName {
                base: ty.to_string(),
                pointers: 0,
            },
        );
        Instantiation {
            types,
            values: vec![(
                "Is_causal".to_string(),
                Expr {
                    span: crate::diag::Span::default(),
                    kind: ExprKind::Int(causal),
                },
            )],
            host_args: Vec::new(),
        }
    }

    #[test]
    fn each_binding_of_the_types_comes_before_the_repeats() {
        let got = distinct_types_first(vec![
            inst("A", 1),
            inst("A", 0),
            inst("B", 1),
            inst("B", 0),
            inst("C", 1),
        ]);
        let want = vec![
            inst("A", 1),
            inst("B", 1),
            inst("C", 1),
            inst("A", 0),
            inst("B", 0),
        ];
        assert_eq!(got, want);
    }
}
