//! The project's deterministic random stream: xoshiro256** (`rand_xoshiro`) seeded by SplitMix64
//! from a (seed, stream) pair. Golden vectors and saved fuzz cases depend on every value it draws,
//! so the seeding and the derived draws (`range`, `chance`, `run_length`) are fixed here and
//! `tests::stream_is_value_stable` pins the first values of a stream.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256StarStar};

#[derive(Clone, Debug)]
pub struct Rng {
    x: Xoshiro256StarStar,
}

impl Rng {
    /// A generator for `seed`, on an independent `stream` (one per stimulus component, so that
    /// changing one component does not shift the others).
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut mix = SplitMix64::seed_from_u64(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut state = [0u8; 32];
        for word in state.chunks_exact_mut(8) {
            word.copy_from_slice(&mix.next_u64().to_le_bytes());
        }
        Rng {
            x: Xoshiro256StarStar::from_seed(state),
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.x.next_u64()
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        debug_assert!(lo <= hi);
        let span = hi - lo;
        if span == u64::MAX {
            return self.next_u64();
        }
        lo + ((u128::from(self.next_u64()) * u128::from(span + 1)) >> 64) as u64
    }

    /// True with probability `p` (0..=1).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        if p >= 1.0 {
            return true;
        }
        if p <= 0.0 {
            return false;
        }
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }

    /// Geometric-ish run length with the given mean (at least 1).
    pub fn run_length(&mut self, mean: u64) -> u64 {
        if mean <= 1 {
            return 1;
        }
        self.range(1, 2 * mean - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = (0..8)
            .scan(Rng::new(7, 1), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..8)
            .scan(Rng::new(7, 1), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..8)
            .scan(Rng::new(7, 2), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    const STREAM_1_0: [u64; 4] = [
        0xB3F2_AF6D_0FC7_10C5,
        0x853B_5596_4736_4CEA,
        0x92F8_9756_082A_4514,
        0x642E_1C7B_C266_A3A7,
    ];
    const STREAM_7_3_FIRST: u64 = 0xD88D_886B_B833_247C;

    /// The first values of two streams as the project's original hand-written xoshiro256** drew
    /// them: every golden set and saved fuzz case depends on these.
    #[test]
    fn stream_is_value_stable() {
        let mut r = Rng::new(1, 0);
        let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
        assert_eq!(got, STREAM_1_0);
        let mut r = Rng::new(7, 3);
        assert_eq!(r.next_u64(), STREAM_7_3_FIRST);
    }

    #[test]
    fn range_is_inclusive_and_bounded() {
        let mut r = Rng::new(1, 0);
        let mut seen = [false; 4];
        for _ in 0..1000 {
            let x = r.range(3, 6);
            assert!((3..=6).contains(&x));
            seen[(x - 3) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
