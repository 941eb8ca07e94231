//! Leaf module: the hardware bank model and exact wavefront counting.
//!
//! This is the ground truth every other analysis is checked against
//! (docs/bank-model.md). It knows nothing of source code or layouts: it gets the
//! byte address each lane of one warp touches and counts wavefronts.

use serde::Serialize;

/// Bank geometry of the target: `bank_count` banks of `bank_width` bytes, `warp_size` lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BankParams {
    pub bank_count: u32,
    pub bank_width: u32,
    pub warp_size: u32,
}

impl Default for BankParams {
    fn default() -> Self {
        BankParams {
            bank_count: 32,
            bank_width: 4,
            warp_size: 32,
        }
    }
}

impl BankParams {
    /// Lanes per phase for an access of `width` bytes per lane:
    /// `min(warp_size, max(1, bank_count * bank_width / width))`.
    pub fn phase_lanes(&self, width: u32) -> u32 {
        let line = self.bank_count * self.bank_width;
        (line / width.max(1)).clamp(1, self.warp_size.max(1))
    }
}

/// Wavefronts of one warp-wide access and the ideal (one per active phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Wavefronts {
    pub wavefronts: u64,
    pub ideal: u64,
}

impl Wavefronts {
    /// The conflict factor `wavefronts / ideal`, 1 when no lane is active.
    pub fn factor(&self) -> f64 {
        if self.ideal == 0 {
            1.0
        } else {
            self.wavefronts as f64 / self.ideal as f64
        }
    }

    /// True when `self` is a worse case than `other`: a larger factor, ties to more wavefronts.
    /// Compares the exact fractions, never floats.
    pub fn is_worse_than(&self, other: &Wavefronts) -> bool {
        let lhs = u128::from(self.wavefronts) * u128::from(other.ideal.max(1));
        let rhs = u128::from(other.wavefronts) * u128::from(self.ideal.max(1));
        lhs > rhs || (lhs == rhs && self.wavefronts > other.wavefronts)
    }

    /// Sums two instructions' costs (used for accesses split into components).
    pub fn add(self, other: Wavefronts) -> Wavefronts {
        Wavefronts {
            wavefronts: self.wavefronts + other.wavefronts,
            ideal: self.ideal + other.ideal,
        }
    }
}

/// Counts the wavefronts of one warp's access.
///
/// `lane_addrs[i]` is lane `i`'s byte address, `None` when the lane is inactive.
/// Each lane touches the bank words `addr / bank_width ..= (addr + width - 1) / bank_width`.
/// Per phase, the cost is the largest number of distinct words in one bank; for atomics,
/// lanes touching the same word are not merged. Exact by definition (docs/bank-model.md §1).
pub fn count_wavefronts(
    params: &BankParams,
    width: u32,
    lane_addrs: &[Option<i64>],
    atomic: bool,
) -> Wavefronts {
    let (phase, bw, banks) = geometry(params, width);
    // The word of a byte: a shift for a power-of-two width (floor division, negative
    // addresses included).
    let shift = (bw & (bw - 1) == 0).then(|| bw.trailing_zeros());
    let word_of = |addr: i64| shift.map_or_else(|| addr.div_euclid(bw), |s| addr >> s);
    let mut total = Wavefronts::default();
    // The words one phase touches. Enumeration counts millions of warps: the buffers are
    // reused, not reallocated, and the words are counted per bank in a table rather than
    // sorted as (bank, word, lane) triples, which took a sixth of a ggml run.
    thread_local! {
        static TABLES: std::cell::RefCell<Tables> = std::cell::RefCell::new(Tables::default());
    }
    // A phase in which no bank holds two distinct words costs one wavefront (the common
    // case of a conflict-free or broadcast access): seen from each bank's first word,
    // without sorting; a second word in a bank sends the phase to the full count. An
    // atomic's lanes are not merged, so its phases always take the full count.
    let one_word_check = !atomic && banks <= TABLE_BANKS;
    TABLES.with_borrow_mut(|t| {
        let Tables {
            words,
            per_bank,
            first,
            phase: stamp,
        } = t;
        if one_word_check && first.len() < banks as usize {
            first.resize(banks as usize, (0, 0));
        }
        for chunk in lane_addrs.chunks(phase) {
            words.clear();
            *stamp = stamp.wrapping_add(1);
            if *stamp == 0 {
                first.fill((0, 0));
                *stamp = 1;
            }
            let mut two_in_a_bank = !one_word_check;
            for &addr in chunk.iter().flatten() {
                let first_word = word_of(addr);
                let last = word_of(addr + i64::from(width.max(1)) - 1);
                words.extend(first_word..=last);
                if two_in_a_bank {
                    continue;
                }
                for w in first_word..=last {
                    let seen = &mut first[bank_of(w, banks)];
                    if seen.0 != *stamp {
                        *seen = (*stamp, w);
                    } else if seen.1 != w {
                        two_in_a_bank = true;
                        break;
                    }
                }
            }
            if words.is_empty() {
                continue;
            }
            total.ideal += 1;
            if !two_in_a_bank {
                total.wavefronts += 1;
                continue;
            }
            // Lanes reading one word share it; an atomic's lanes do not (and one lane's
            // words are distinct, so an atomic phase has no word twice per lane).
            if !atomic {
                // Lanes in order of address (most accesses) need no sort.
                if !words.is_sorted() {
                    words.sort_unstable();
                }
                words.dedup();
            }
            total.wavefronts += most_in_one_bank(words, banks, per_bank);
        }
    });
    total
}

/// The buffers of [`count_wavefronts`], one set per thread.
#[derive(Default)]
struct Tables {
    /// The words of the phase being counted.
    words: Vec<i64>,
    /// Words per bank ([`most_in_one_bank`]).
    per_bank: Vec<u32>,
    /// Per bank, the phase that last wrote it and the first word it saw there.
    first: Vec<(u32, i64)>,
    /// The number of the phase being counted (0 is never one: `first` starts zeroed).
    phase: u32,
}

/// The bank of word `w` among `banks`: its low bits when `banks` is a power of two (the
/// configuration says so), also for a negative word.
fn bank_of(w: i64, banks: i64) -> usize {
    let b = if banks & (banks - 1) == 0 {
        w & (banks - 1)
    } else {
        w.rem_euclid(banks)
    };
    b as usize
}

/// Lanes per phase, bank width and bank count of an access of `width` bytes per lane.
fn geometry(params: &BankParams, width: u32) -> (usize, i64, i64) {
    (
        params.phase_lanes(width) as usize,
        i64::from(params.bank_width.max(1)),
        i64::from(params.bank_count.max(1)),
    )
}

/// Banks counted in a table by [`most_in_one_bank`]; more (a configured geometry far
/// beyond any hardware's) are counted by sorting.
const TABLE_BANKS: i64 = 4096;

/// The largest number of entries of `words` that fall in one bank of `banks`, counted in
/// `per_bank` (left all zero, as found).
fn most_in_one_bank(words: &[i64], banks: i64, per_bank: &mut Vec<u32>) -> u64 {
    let bank = |w: i64| bank_of(w, banks);
    if banks > TABLE_BANKS {
        let mut by_bank: Vec<usize> = words.iter().map(|&w| bank(w)).collect();
        by_bank.sort_unstable();
        return by_bank
            .chunk_by(|a, b| a == b)
            .map(|run| run.len() as u64)
            .max()
            .unwrap_or(0);
    }
    if per_bank.len() < banks as usize {
        per_bank.resize(banks as usize, 0);
    }
    let mut worst = 0u32;
    for &w in words {
        let count = &mut per_bank[bank(w)];
        *count += 1;
        worst = worst.max(*count);
    }
    for &w in words {
        per_bank[bank(w)] = 0;
    }
    u64::from(worst)
}

/// The phase of one warp's access that costs most wavefronts (the first of equals):
/// `(phase index, its wavefronts)`, `None` when no lane is active. Each phase is counted
/// by [`count_wavefronts`] itself.
pub fn worst_phase(
    params: &BankParams,
    width: u32,
    lane_addrs: &[Option<i64>],
    atomic: bool,
) -> Option<(usize, u64)> {
    let phase = params.phase_lanes(width) as usize;
    let mut worst: Option<(usize, u64)> = None;
    for (index, chunk) in lane_addrs.chunks(phase).enumerate() {
        let w = count_wavefronts(params, width, chunk, atomic);
        if w.ideal > 0 && worst.is_none_or(|(_, best)| w.wavefronts > best) {
            worst = Some((index, w.wavefronts));
        }
    }
    worst
}

/// The bank words phase `index` of one warp's access touches: `(bank, word, lanes)` for
/// every word, by bank then word, the lanes (numbered in the warp) in order. The words of
/// a lane are those [`count_wavefronts`] counts.
pub fn phase_words(
    params: &BankParams,
    width: u32,
    lane_addrs: &[Option<i64>],
    index: usize,
) -> Vec<(u32, i64, Vec<u32>)> {
    let phase = params.phase_lanes(width) as usize;
    let bw = i64::from(params.bank_width.max(1));
    let banks = i64::from(params.bank_count.max(1));
    let mut touched: Vec<(i64, i64, u32)> = Vec::new();
    let first = index.saturating_mul(phase);
    for (offset, addr) in lane_addrs.iter().enumerate().skip(first).take(phase) {
        let Some(addr) = *addr else { continue };
        let lo = addr.div_euclid(bw);
        let hi = (addr + i64::from(width.max(1)) - 1).div_euclid(bw);
        for word in lo..=hi {
            touched.push((word.rem_euclid(banks), word, offset as u32));
        }
    }
    touched.sort_unstable();
    let mut out: Vec<(u32, i64, Vec<u32>)> = Vec::new();
    for (bank, word, lane) in touched {
        match out.last_mut() {
            Some((b, w, lanes)) if i64::from(*b) == bank && *w == word => lanes.push(lane),
            _ => out.push((bank as u32, word, vec![lane])),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition as first written: per phase, the (bank, word, lane) triples the
    /// lanes touch, sorted and deduplicated, and the longest run of one bank.
    fn count_by_sorting(p: &BankParams, lanes: &[Option<i64>], access: (u32, bool)) -> Wavefronts {
        let (width, atomic) = access;
        let mut total = Wavefronts::default();
        let (phase, bw, banks) = geometry(p, width);
        for (phase_index, chunk) in lanes.chunks(phase).enumerate() {
            let mut touched = Vec::new();
            for (offset, addr) in chunk.iter().enumerate() {
                let Some(addr) = *addr else { continue };
                let first = addr.div_euclid(bw);
                let last = (addr + i64::from(width.max(1)) - 1).div_euclid(bw);
                let lane = if atomic {
                    phase_index * phase + offset
                } else {
                    0
                };
                for word in first..=last {
                    touched.push((word.rem_euclid(banks), word, lane));
                }
            }
            if touched.is_empty() {
                continue;
            }
            touched.sort_unstable();
            touched.dedup();
            let mut worst = 0u64;
            let mut run = 0u64;
            let mut current_bank = None;
            for &(bank, _, _) in &touched {
                if current_bank == Some(bank) {
                    run += 1;
                } else {
                    current_bank = Some(bank);
                    run = 1;
                }
                worst = worst.max(run);
            }
            total.wavefronts += worst;
            total.ideal += 1;
        }
        total
    }

    proptest! {
        #[test]
        fn counting_per_bank_agrees_with_sorting(
            bank_count in prop::sample::select(vec![1u32, 2, 4, 8, 16, 32, 64, 8192, 3, 24]),
            bank_width in prop::sample::select(vec![1u32, 2, 4, 8, 3, 12]),
            warp_size in prop::sample::select(vec![1u32, 8, 32, 64]),
            width in prop::sample::select(vec![1u32, 2, 3, 4, 8, 12, 16, 32]),
            atomic in any::<bool>(),
            scale in prop::sample::select(vec![1i64, 4, 128, 1 << 20]),
            lanes in prop::collection::vec(prop::option::weighted(0.8, -64i64..64), 0..70),
        ) {
            let params = BankParams { bank_count, bank_width, warp_size };
            let addrs: Vec<Option<i64>> = lanes.iter().map(|a| a.map(|a| a * scale)).collect();
            prop_assert_eq!(
                count_wavefronts(&params, width, &addrs, atomic),
                count_by_sorting(&params, &addrs, (width, atomic))
            );
        }
    }

    fn warp(f: impl Fn(i64) -> i64) -> Vec<Option<i64>> {
        (0..32).map(|t| Some(f(t))).collect()
    }

    #[test]
    fn stride_factor_is_gcd() {
        let p = BankParams::default();
        for s in 1..=64i64 {
            let w = count_wavefronts(&p, 4, &warp(|t| 4 * s * t), false);
            let g = (1..=32).rev().find(|g| s % g == 0 && 32 % g == 0).unwrap();
            assert_eq!(
                w,
                Wavefronts {
                    wavefronts: g as u64,
                    ideal: 1
                },
                "stride {s}"
            );
        }
    }

    #[test]
    fn broadcast_is_free() {
        let p = BankParams::default();
        assert_eq!(count_wavefronts(&p, 4, &warp(|_| 0), false).wavefronts, 1);
        assert_eq!(count_wavefronts(&p, 4, &warp(|_| 0), true).wavefronts, 32);
    }

    #[test]
    fn wide_accesses_split_into_phases() {
        let p = BankParams::default();
        assert_eq!(
            count_wavefronts(&p, 8, &warp(|t| 8 * t), false),
            Wavefronts {
                wavefronts: 2,
                ideal: 2
            }
        );
        assert_eq!(
            count_wavefronts(&p, 16, &warp(|t| 16 * t), false),
            Wavefronts {
                wavefronts: 4,
                ideal: 4
            }
        );
        assert_eq!(
            count_wavefronts(&p, 8, &warp(|t| 16 * t), false),
            Wavefronts {
                wavefronts: 4,
                ideal: 2
            }
        );
    }

    #[test]
    fn sub_word_lanes_in_one_word_share_it() {
        let p = BankParams::default();
        assert_eq!(count_wavefronts(&p, 1, &warp(|t| t), false).wavefronts, 1);
        assert_eq!(
            count_wavefronts(&p, 2, &warp(|t| 2 * t), false).wavefronts,
            1
        );
        assert_eq!(
            count_wavefronts(&p, 2, &warp(|t| 128 * t), false).wavefronts,
            32
        );
    }

    #[test]
    fn inactive_lanes_and_phases_do_not_count() {
        let p = BankParams::default();
        let mut lanes = warp(|t| 8 * t);
        for l in lanes.iter_mut().skip(16) {
            *l = None;
        }
        assert_eq!(
            count_wavefronts(&p, 8, &lanes, false),
            Wavefronts {
                wavefronts: 1,
                ideal: 1
            }
        );
    }

    #[test]
    fn worse_compares_fractions_then_wavefronts() {
        let a = Wavefronts {
            wavefronts: 3,
            ideal: 2,
        };
        let b = Wavefronts {
            wavefronts: 2,
            ideal: 1,
        };
        assert!(b.is_worse_than(&a));
        let c = Wavefronts {
            wavefronts: 4,
            ideal: 2,
        };
        assert!(c.is_worse_than(&b));
        assert!(!b.is_worse_than(&c));
    }

    #[test]
    fn phase_words_name_the_lanes_of_each_word() {
        let p = BankParams::default();
        // Stride 2 words: lanes 0 and 16 share bank 0 at words 0 and 32.
        let addrs = warp(|t| 8 * t);
        assert_eq!(worst_phase(&p, 4, &addrs, false), Some((0, 2)));
        let words = phase_words(&p, 4, &addrs, 0);
        assert_eq!(words.len(), 32);
        assert_eq!(words[0], (0, 0, vec![0]));
        assert_eq!(words[1], (0, 32, vec![16]));
        // 8-byte lanes: two phases of 16 lanes, each lane two words.
        let wide = warp(|t| 8 * t);
        assert_eq!(worst_phase(&p, 8, &wide, false), Some((0, 1)));
        let second = phase_words(&p, 8, &wide, 1);
        assert_eq!(second.first(), Some(&(0, 32, vec![16])));
        assert_eq!(second.len(), 32);
    }
}
