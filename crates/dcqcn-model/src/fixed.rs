//! Width-generic integer helpers shared by the blocks (spec 4.0).

use num_traits::{PrimInt, Unsigned};

/// spec 4.0: `timer + 1 >= interval`, with one extra bit so that interval 0 behaves as 1 and no
/// timer wraps.
#[inline(always)]
pub fn expired<T: Into<u64>>(timer: T, interval: T) -> bool {
    timer.into() + 1 >= interval.into()
}

/// Cycles until [`expired`] holds for a timer that counts up by one per cycle (0 if it holds now).
#[inline(always)]
pub fn until_expired(timer: u64, interval: u64) -> u64 {
    interval.saturating_sub(timer + 1)
}

/// spec 4.0: `min(x + 1, 2^N - 1)` for the full width of `T`.
#[inline(always)]
pub fn sat_inc<T: PrimInt + Unsigned>(x: T) -> T {
    x.saturating_add(T::one())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expired_treats_zero_as_one() {
        assert!(expired(0u16, 0));
        assert!(expired(0u16, 1));
        assert!(!expired(0u16, 2));
        assert!(expired(0xFFFFu16, 0xFFFF));
        assert!(expired(0xFFFF_FFFEu32, 0xFFFF_FFFF));
        assert!(!expired(0xFFFF_FFFDu32, 0xFFFF_FFFF));
    }

    #[test]
    fn sat_inc_stops_at_max() {
        assert_eq!(sat_inc(254u8), 255);
        assert_eq!(sat_inc(255u8), 255);
        assert_eq!(sat_inc(0xFFFFu16), 0xFFFF);
    }
}
