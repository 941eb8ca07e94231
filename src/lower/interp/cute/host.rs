//! Kernel parameters bound to a CuTe `TiledCopy` or layout that the launching host
//! function builds (docs/bank-model.md, "CuTe copies"): the argument's spelling is read
//! in the host's scope, its locals declared before the launch first, then the file's
//! names; the kernel's own locals and template arguments are out of sight.

use super::super::{Interp, Value, Vars};
use super::InterpNames;
use crate::lower::cute::reader;
use crate::lower::host_args::{self, HostArg, HostItem};

/// A point of a launching host function: its locals declared before `at` are visible.
#[derive(Debug, Clone, Copy)]
pub(super) struct HostAt {
    function: usize,
    at: usize,
}

/// Deepest chain of host locals followed (`auto sA = make_layout(make_shape(bM, bK));`
/// reads `bM`, which reads its own initialiser ...).
const MAX_HOST_DEPTH: u32 = 16;

impl InterpNames<'_, '_> {
    /// What `name` denotes among the host's locals at `at`: `None` when it is none.
    pub(super) fn host_named(
        &mut self,
        name: &str,
        at: HostAt,
    ) -> Option<Result<reader::Value, String>> {
        let syn = self.interp.syn;
        let host = syn.functions.get(at.function)?;
        let (text, from) = match host_args::visible(host, name, at.at)? {
            HostItem::Local(d) => match &d.init {
                Some(init) => (
                    self.interp.base_text.get(init.span.start..init.span.end)?.to_string(),
                    d.span.start,
                ),
                None => (format!("{}{{}}", d.ty.base), d.span.start),
            },
            HostItem::Alias(text) => (text.to_string(), at.at),
            HostItem::Param => {
                return Some(Err(format!(
                    "`{name}` is a parameter of the host function `{}`, which bankcheck does not follow",
                    host.name
                )))
            }
        };
        if self.depth >= MAX_HOST_DEPTH {
            return Some(Err(format!("`{name}` names host locals too deeply")));
        }
        if !self.interp.budget.spend(text.len() as u64) {
            return Some(Err(super::TOO_MUCH_WORK.into()));
        }
        let mut inner = InterpNames {
            interp: &mut *self.interp,
            scope: None,
            depth: self.depth + 1,
            host: Some(HostAt {
                function: at.function,
                at: from,
            }),
        };
        Some(reader::read(&text, &mut inner))
    }
}

impl Interp<'_> {
    /// The value of kernel parameter `param` when the launch binds it to what its host
    /// function builds; `None` when it does not.
    pub(in crate::lower::interp) fn host_arg_value(&mut self, param: &str) -> Option<Value> {
        let (_, h) = self.host_args.iter().find(|(n, _)| n == param)?.clone();
        // The host is read in its own scope: no local or template argument of the
        // kernel is visible.
        let scopes = std::mem::replace(&mut self.scopes, vec![Vars::default()]);
        let types = std::mem::take(&mut self.type_args);
        let v = self.read_host_arg(param, &h);
        self.scopes = scopes;
        self.type_args = types;
        Some(v)
    }

    fn read_host_arg(&mut self, param: &str, h: &HostArg) -> Value {
        let syn = self.syn;
        let text = self.base_text;
        let line = crate::diag::line_of(&crate::diag::line_starts(text), h.launch.start);
        let unknown = |why: String| {
            Value::Unknown(format!("`{param}` from the launch on line {line}: {why}").into())
        };
        let host = h
            .function
            .and_then(|f| syn.functions.get(f).map(|h| (f, h)));
        let (Some((function, host)), Some(arg)) = (host, &h.arg) else {
            return unknown("no argument bankcheck reads".into());
        };
        let Some((spelled, at)) = host_args::spelling(host, arg, h.launch, text) else {
            let what = text.get(arg.span.start..arg.span.end).unwrap_or("?");
            return unknown(format!(
                "`{what}` is not a local of `{}` that bankcheck reads (a parameter of the host function is not followed)",
                host.name
            ));
        };
        let at = HostAt { function, at };
        let t = spelled.trim().trim_start_matches("cute::");
        let read = if t.starts_with("make_tiled_copy(") {
            match self.tiled_copy_spelled(&format!("decltype({t})"), None, Some(at)) {
                Some(made) => made.map(|tc| reader::Value::TiledCopy(Box::new(tc))),
                None => Err(format!("`{t}` is not a tiled copy bankcheck reads")),
            }
        } else {
            let mut names = InterpNames {
                interp: &mut *self,
                scope: None,
                depth: 0,
                host: Some(at),
            };
            reader::read(&spelled, &mut names)
        };
        match read {
            Ok(v) => Value::Cute(Box::new(v)),
            Err(why) => {
                // A type the host's own template parameter stands for is not deduced.
                let param = host
                    .template_params
                    .iter()
                    .find(|tp| why.contains(&format!("`{}`", tp.name)));
                match param {
                    Some(tp) => unknown(format!(
                        "{why} (`{}` is a template parameter of `{}`, which bankcheck does not deduce)",
                        tp.name, host.name
                    )),
                    None => unknown(why),
                }
            }
        }
    }
}
