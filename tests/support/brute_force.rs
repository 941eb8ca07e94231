//! The plainest enumeration of an access under the bank model, for the property tests
//! that check `enumerate` against it: every combination of the given values, every
//! warp, every lane, the tree evaluator.

use bankcheck::bank::{count_wavefronts, BankParams, Wavefronts};
use bankcheck::model::ir::LoweredAccess;

/// The worst case over every combination of `domains` (variable index, its values),
/// every warp and every lane: a guard that cannot be evaluated lets the lane run, and a
/// warp in which an active lane's address cannot be evaluated is skipped (such values
/// cannot occur in a program that runs). `None` when no lane is ever active.
pub fn worst_case(
    a: &LoweredAccess,
    domains: &[(usize, Vec<i64>)],
    params: &BankParams,
) -> Option<Wavefronts> {
    let threads = a.block.threads();
    let warp = u64::from(a.warp_size);
    let mut worst: Option<Wavefronts> = None;
    let mut values = vec![0i64; a.vars.len()];
    let lists: Vec<Vec<i64>> = domains.iter().map(|(_, d)| d.clone()).collect();
    bankcheck::analyse::enumerate::for_each_combination(&lists, &mut |combo| {
        for ((i, _), x) in domains.iter().zip(combo) {
            values[*i] = *x;
        }
        for w in 0..threads.div_ceil(warp) {
            let mut lanes = vec![None; a.warp_size as usize];
            let mut failed = false;
            for (lane, slot) in lanes.iter_mut().enumerate() {
                let linear = w * warp + lane as u64;
                if linear >= threads {
                    continue;
                }
                a.bind_thread(&mut values, linear);
                if !a.guards_hold(&values) {
                    continue;
                }
                match a.address.eval(&values) {
                    Some(addr) => *slot = Some(addr),
                    None => failed = true,
                }
            }
            if failed {
                continue;
            }
            let cost = count_wavefronts(params, a.width, &lanes, a.atomic);
            if worst.is_none_or(|best| cost.is_worse_than(&best)) {
                worst = Some(cost);
            }
        }
        true
    });
    worst.filter(|w| w.ideal > 0)
}
