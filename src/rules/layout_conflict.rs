//! Rule `layout-conflict`: a shared array's accesses cannot all be conflict-free with its current layout.
//!
//! Fires once per array, at its declaration, when at least one access conflicts, a
//! verified layout change (the swizzle advisor's, [`crate::swizzle::suggest`], run before
//! the rules) improves it, and several access patterns share the array.
//!
//! The rule's page, `rules/layout-conflict.md`, is this module's documentation too:
#![doc = include_str!("../../rules/layout-conflict.md")]

use super::rule::RuleMeta;
use crate::diag::{Diagnostic, Label, Severity};
use crate::swizzle::input::ArrayUse;

pub const META: RuleMeta = RuleMeta {
    id: "layout-conflict",
    retired: &[],
    group: "conflict",
    default_severity: Severity::Warning,
    default_enabled: true,
    summary: "a shared array's accesses cannot all be conflict-free with its current layout",
    page: include_str!("../../rules/layout-conflict.md"),
};

/// The rule: once per array with a verified layout fix that several access patterns
/// share (the fix itself is computed before the rules, `pipeline::layouts`).
pub(crate) struct LayoutConflict;

impl super::rule::Rule for LayoutConflict {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &super::facts::FileFacts<'_>, out: &mut Vec<Diagnostic>) {
        for layout in &file.layouts.arrays {
            if layout.several_patterns {
                out.extend(finding(&layout.array, &layout.suggestion));
            }
        }
    }
}

/// The `layout-conflict` finding for a suggestion already computed (and verified) for
/// `array`, when some access conflicts under the current layout.
pub fn finding(array: &ArrayUse, suggestion: &crate::diag::Suggestion) -> Option<Diagnostic> {
    let conflicting = suggestion
        .after
        .iter()
        .any(|a| a.before_wavefronts > a.ideal_wavefronts);
    if !conflicting {
        return None;
    }
    // The worst access under the current layout names the problem.
    let worst = suggestion
        .after
        .iter()
        .max_by_key(|a| (a.before_wavefronts * 1024) / a.ideal_wavefronts.max(1))?;
    let message = format!(
        "accesses of `{}` conflict with its layout: {} wavefronts where {} suffice{}",
        array.name,
        worst.before_wavefronts,
        worst.ideal_wavefronts,
        if worst.ideal_wavefronts == 1 { "s" } else { "" }
    );
    let mut d = Diagnostic::new(META.id, META.default_severity, array.decl_span, message);
    for a in &suggestion.after {
        let helper = a
            .helper_line
            .map(|h| format!(" (in a helper at line {h})"))
            .unwrap_or_default();
        let context = a
            .context
            .as_ref()
            .map(|c| format!(" [{c}]"))
            .unwrap_or_default();
        d.notes.push(format!(
            "{} at line {}{helper}{context}: {} -> {} wavefronts (ideal {})",
            a.kind, a.line, a.before_wavefronts, a.wavefronts, a.ideal_wavefronts
        ));
    }
    // One label per subscript, however many call sites and contexts reach it: it
    // conflicts when any access through it does.
    let conflicting = |site: &crate::swizzle::SiteUse| {
        suggestion.after.iter().any(|a| {
            a.line == site.line
                && a.helper_line == site.helper_line
                && a.kind == site.kind.as_str()
                && a.before_wavefronts > a.ideal_wavefronts
        })
    };
    let span_of = |site: &crate::swizzle::SiteUse| {
        let first = site.index_spans.first()?;
        Some(crate::diag::Span::new(
            first.start,
            site.index_spans.last().map_or(first.end, |s| s.end),
        ))
    };
    for site in &array.accesses {
        let Some(span) = span_of(site) else {
            continue;
        };
        if d.labels.iter().any(|l| l.span == span) {
            continue;
        }
        let conflicts = array
            .accesses
            .iter()
            .filter(|s| span_of(s) == Some(span) && s.kind == site.kind)
            .any(conflicting);
        d.labels.push(Label {
            span,
            message: format!(
                "{} {}",
                site.kind.as_str(),
                if conflicts { "conflicts" } else { "is fine" }
            ),
        });
    }
    d.help = Some(suggestion.message.clone());
    d.suggestion = Some(suggestion.clone());
    Some(d)
}
