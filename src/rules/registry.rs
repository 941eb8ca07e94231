//! Every rule bankcheck knows, in one sorted table of rule objects: each gives its id,
//! group, default severity and page ([`RuleMeta`]) and its check ([`Rule`]).

use super::rule::{Rule, RuleMeta};

/// All rules, sorted by id; the driver runs them in this order.
pub const RULES: &[&dyn Rule] = &[
    &super::bank_conflict::RULE,
    &super::internal_error::InternalError,
    &super::layout_conflict::LayoutConflict,
    &super::parse_error::ParseError,
    &super::possible_conflict::RULE,
    &super::retired_rule_id::RetiredRuleId,
    &super::undecided_access::UndecidedAccess,
    &super::unused_suppression::UnusedSuppression,
];

/// What every rule is, in the order of [`RULES`].
pub fn metas() -> impl Iterator<Item = &'static RuleMeta> {
    RULES.iter().map(|r| r.meta())
}

/// The rules of this build as configuration sees them (ids, groups, default severities).
pub fn catalog() -> &'static [crate::config::RuleInfo] {
    static CATALOG: std::sync::OnceLock<Vec<crate::config::RuleInfo>> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| {
        metas()
            .map(|r| crate::config::RuleInfo {
                id: r.id,
                retired: r.retired,
                group: r.group,
                default_severity: r.default_severity,
                default_enabled: r.default_enabled,
            })
            .collect()
    })
}

/// The rule with id `id`, or that answers to the retired id `id`.
pub fn rule(id: &str) -> Option<&'static RuleMeta> {
    metas().find(|r| r.id == id).or_else(|| renamed(id))
}

/// The rule that a retired id now names: `stride-conflict` is `bank-conflict`.
pub fn renamed(name: &str) -> Option<&'static RuleMeta> {
    metas().find(|r| r.retired.contains(&name))
}

/// Rule ids selected by a name that is an id, a retired id or a group.
pub fn expand(name: &str) -> Vec<&'static str> {
    metas()
        .filter(|r| r.id == name || r.retired.contains(&name) || r.group == name || name == "all")
        .map(|r| r.id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sorted_unique_kebab_case() {
        let ids: Vec<&str> = metas().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
        for id in ids {
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{id}"
            );
            assert_eq!(rule(id).map(|r| r.id), Some(id));
        }
    }

    /// A retired id selects its rule and nothing else, and names no rule of its own.
    #[test]
    fn retired_ids_select_their_rule() {
        assert_eq!(expand("stride-conflict"), vec!["bank-conflict"]);
        assert_eq!(rule("stride-conflict").map(|r| r.id), Some("bank-conflict"));
        assert_eq!(
            renamed("stride-conflict").map(|r| r.id),
            Some("bank-conflict")
        );
        assert!(renamed("bank-conflict").is_none());
        for r in metas() {
            for old in r.retired {
                assert!(metas().all(|m| m.id != *old && m.group != *old), "{old}");
            }
        }
    }

    #[test]
    fn every_page_starts_with_its_id_and_has_the_sections() {
        for r in metas() {
            assert!(
                r.page.starts_with(&format!("# {}", r.id)),
                "page of {} must start with its id",
                r.id
            );
            for section in ["## What it flags", "## Why it matters", "## Example"] {
                assert!(r.page.contains(section), "page of {} lacks {section}", r.id);
            }
            assert!(
                !r.summary.ends_with('.')
                    && r.summary.chars().next().is_some_and(char::is_lowercase)
            );
        }
    }
}
