//! The round-robin picker (spec-mq 4.5; RTL `dcqcn_mq_rr`, parameter `N` = `QPS`).
//!
//! The rule: the first eligible QP after `rr`, wrapping around, `rr` itself last:
//!
//! ```text
//! up   = { q < N : elig[q] & q > rr }
//! pick = up != {} ? min(up) : min{ q : elig[q] }
//! ```
//!
//! The eligibility vector is given as 64-bit words (QP q is bit q % 64 of word q / 64, bits at and
//! above `N` are 0), so the rule is read a word at a time with `trailing_zeros`. An `rr` >= `N`
//! leaves `up` empty: the search starts at 0 (spec-mq 7). The RTL's two-level chunked form
//! (4.5 "hardware realisation") is [`pick_chunked`], held to the rule by the tests.

/// The lowest set bit at index > `rr` of `elig` (words), else the lowest set bit; `None` if no bit
/// is set. `elig` has `ceil(N / 64)` words with bits >= `N` clear.
#[inline]
pub fn pick(elig: &[u64], rr: u16) -> Option<u16> {
    pick_words(elig.len(), rr, |k| elig[k])
}

/// [`pick`] over `n` eligibility words that `word(k)` computes on demand: the search reads words
/// from `rr`'s word up, then from 0, and stops at the first word with an eligible QP (the same
/// rule, without forming every word in every cycle).
#[inline]
pub fn pick_words(n: usize, rr: u16, word: impl Fn(usize) -> u64) -> Option<u16> {
    let at = |k: usize, w: u64| Some((k * 64 + w.trailing_zeros() as usize) as u16);
    let start = usize::from(rr) + 1;
    let w0 = start / 64;
    // up: the bits > rr.
    if w0 < n {
        let first = word(w0) & (u64::MAX << (start % 64));
        if first != 0 {
            return at(w0, first);
        }
        for k in w0 + 1..n {
            let w = word(k);
            if w != 0 {
                return at(k, w);
            }
        }
    }
    // Wrap: the lowest eligible QP, `rr` itself last.
    for k in 0..=w0.min(n - 1) {
        let w = word(k);
        if w != 0 {
            return at(k, w);
        }
    }
    None
}

/// The picker as the RTL builds it (spec-mq 4.5 "hardware realisation"): per 64-bit chunk, the OR
/// and the lowest index of `elig` and of `elig` with the indices <= `rr` masked off; a priority
/// encoder over the chunk ORs, masked vector first.
pub fn pick_chunked(elig: &[u64], rr: u16) -> Option<u16> {
    let rr = u32::from(rr);
    let rr_chunk = rr / 64;
    let masked: Vec<u64> = elig
        .iter()
        .enumerate()
        .map(|(k, &w)| {
            let k = k as u32;
            if k < rr_chunk {
                0
            } else if k == rr_chunk {
                // Keep the bits above rr % 64.
                let low = rr % 64;
                if low == 63 {
                    0
                } else {
                    w & (u64::MAX << (low + 1))
                }
            } else {
                w
            }
        })
        .collect();
    let encode = |v: &[u64]| -> Option<u16> {
        let ors: Vec<bool> = v.iter().map(|&w| w != 0).collect();
        let chunk = ors.iter().position(|&o| o)?;
        Some((chunk * 64 + v[chunk].trailing_zeros() as usize) as u16)
    };
    encode(&masked).or_else(|| encode(elig))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of spec-mq 4.5, bit by bit.
    fn pick_plain(elig: &[bool], rr: u16) -> Option<u16> {
        let rr = usize::from(rr);
        let up = (0..elig.len()).find(|&q| elig[q] && q > rr);
        up.or_else(|| (0..elig.len()).find(|&q| elig[q]))
            .map(|q| q as u16)
    }

    fn words(elig: &[bool]) -> Vec<u64> {
        let mut w = vec![0u64; elig.len().div_ceil(64)];
        for (q, &e) in elig.iter().enumerate() {
            if e {
                w[q / 64] |= 1 << (q % 64);
            }
        }
        w
    }

    #[test]
    fn spec_example_qps_8_rr_5() {
        let mut elig = [false; 8];
        for q in [1, 3, 6] {
            elig[q] = true;
        }
        let mut rr = 5;
        let mut got = Vec::new();
        for _ in 0..3 {
            let q = pick(&words(&elig), rr).unwrap();
            got.push(q);
            elig[q as usize] = false;
            rr = q;
        }
        assert_eq!(got, [6, 1, 3]);
    }

    #[test]
    fn word_chunked_and_plain_forms_agree() {
        // A small deterministic generator (the model crate draws no random numbers; this is a
        // fixed sequence).
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1usize, 2, 4, 63, 64, 65, 127, 128, 129, 1024, 4096] {
            for _ in 0..300 {
                let density = next() % 5;
                let elig: Vec<bool> = (0..n)
                    .map(|_| match density {
                        0 => false,
                        1 => next() % 997 == 0,
                        2 => next() % 61 == 0,
                        3 => next() % 2 == 0,
                        _ => true,
                    })
                    .collect();
                let w = words(&elig);
                // rr anywhere in 12 bits, including >= N (starts at 0) and chunk edges.
                let rr = match next() % 4 {
                    0 => (next() % 4096) as u16,
                    1 => (n - 1) as u16,
                    2 => ((next() % (n as u64)) as u16 / 64) * 64 + 63,
                    _ => (next() % (n as u64)) as u16,
                };
                let want = pick_plain(&elig, rr);
                assert_eq!(pick(&w, rr), want, "n {n} rr {rr}");
                assert_eq!(pick_chunked(&w, rr), want, "chunked n {n} rr {rr}");
            }
        }
    }

    #[test]
    fn rr_itself_comes_last_and_nothing_eligible_picks_nothing() {
        let elig = [false, false, true, false];
        assert_eq!(pick(&words(&elig), 2), Some(2));
        assert_eq!(pick(&words(&[false; 4]), 1), None);
        assert_eq!(pick(&words(&elig), 4095), Some(2));
    }
}
