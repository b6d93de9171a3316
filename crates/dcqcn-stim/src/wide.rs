//! Arithmetic on values of up to 512 bits (a data beat, a golden-vector field), as little-endian
//! 64-bit words: the deltas of the golden format and the ramp payloads of the stimulus.

use dcqcn_model::DATA_WORDS;

/// A value of up to 512 bits, little-endian 64-bit words.
pub type Wide = [u64; DATA_WORDS];

/// `v mod 2^bits`.
pub fn wide_mask(mut v: Wide, bits: u32) -> Wide {
    for (n, w) in v.iter_mut().enumerate() {
        let lo = 64 * n as u32;
        if bits <= lo {
            *w = 0;
        } else if bits < lo + 64 {
            *w &= (1u64 << (bits - lo)) - 1;
        }
    }
    v
}

/// `(a + b) mod 2^bits`, carries across words.
pub fn wide_add(a: &Wide, b: &Wide, bits: u32) -> Wide {
    let mut r = [0; DATA_WORDS];
    let mut carry = 0u64;
    for n in 0..DATA_WORDS {
        let (s1, c1) = a[n].overflowing_add(b[n]);
        let (s2, c2) = s1.overflowing_add(carry);
        r[n] = s2;
        carry = u64::from(c1) + u64::from(c2);
    }
    wide_mask(r, bits)
}

/// `(a - b) mod 2^bits`: a plus the two's complement of b.
pub fn wide_sub(a: &Wide, b: &Wide, bits: u32) -> Wide {
    let mut one = [0; DATA_WORDS];
    one[0] = 1;
    let neg_b = wide_add(&b.map(|w| !w), &one, 512);
    wide_add(a, &neg_b, bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_arithmetic_wraps_at_the_width() {
        let mut five = [0; DATA_WORDS];
        five[0] = 5;
        let mut nine = [0; DATA_WORDS];
        nine[0] = 9;
        let d = wide_sub(&five, &nine, 48);
        assert_eq!(d[0], (1u64 << 48) - 4);
        assert_eq!(d[1..], [0; DATA_WORDS - 1]);
        assert_eq!(wide_add(&nine, &d, 48), five);
        let mut low_ones = [u64::MAX; DATA_WORDS];
        low_ones[DATA_WORDS - 1] = 0;
        let mut one = [0; DATA_WORDS];
        one[0] = 1;
        let s = wide_add(&low_ones, &one, 512);
        assert_eq!(s[..DATA_WORDS - 1], [0; DATA_WORDS - 1]);
        assert_eq!(s[DATA_WORDS - 1], 1);
        assert_eq!(wide_sub(&s, &one, 512), low_ones);
        assert_eq!(wide_mask([u64::MAX; DATA_WORDS], 68)[..2], [u64::MAX, 0xF]);
    }
}
