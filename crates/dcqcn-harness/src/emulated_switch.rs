//! The paper's emulated switch (Sec. VI-A): the bytes leaving the rate limiter are summed over a
//! sliding window of cycles; when the sum is above a threshold and a cooldown has passed since the
//! last trigger, a CNP pulse is raised on the limiter's `cnp` pin.
//!
//! The lockstep's scenarios (`dcqcn-cosim`'s `CnpSpec::Switch`) and the network simulation's
//! Fig. 9 (`dcqcn-net`) drive the same [`Monitor`]; what they count as egress is the caller's
//! choice (every stream byte there, RDMA payload bytes here).

use dcqcn_model::Params;

/// The emulated switch's parameters, in cycles of the limiter's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmulatedSwitch {
    /// Length of the sliding window.
    pub window_cycles: u32,
    /// Bytes in the window above which a CNP is sent.
    pub threshold_bytes: u64,
    /// Cycles after a trigger before the next one.
    pub cooldown_cycles: u64,
    /// Width of the CNP pulse on the pin.
    pub pulse_cycles: u32,
}

impl EmulatedSwitch {
    /// The paper's window: 5000 cycles (32 us at 156.25 MHz).
    pub const PAPER_WINDOW_CYCLES: u32 = 5_000;
    /// The paper's cooldown in nanoseconds (50 us, the DCQCN CNP interval).
    pub const PAPER_COOLDOWN_NS: u64 = 50_000;
    /// The width of a CNP pulse on the pin.
    pub const PAPER_PULSE_CYCLES: u32 = 4;

    /// The paper's switch at `clk_hz`: [`Self::PAPER_WINDOW_CYCLES`], a threshold of
    /// `threshold_gbps` (Gb/s), 50 us of cooldown (rounded half up to cycles: 7813 at
    /// 156.25 MHz), 4-cycle pulses.
    pub fn paper(threshold_gbps: f64, params: &Params) -> EmulatedSwitch {
        let clk_hz = params.clk_hz();
        let window_cycles = Self::PAPER_WINDOW_CYCLES;
        let ns = u64::from(clk_hz) * Self::PAPER_COOLDOWN_NS;
        EmulatedSwitch {
            window_cycles,
            threshold_bytes: threshold_bytes(threshold_gbps, window_cycles, clk_hz),
            cooldown_cycles: (ns + 500_000_000) / 1_000_000_000,
            pulse_cycles: Self::PAPER_PULSE_CYCLES,
        }
    }

    /// The threshold as a rate in Gb/s at `clk_hz`.
    pub fn threshold_gbps(&self, clk_hz: u32) -> f64 {
        window_gbps(self.threshold_bytes, self.window_cycles, clk_hz)
    }
}

/// Bytes in `window_cycles` at `gbps` (Gb/s) on a `clk_hz` clock, rounded to the nearest byte:
/// the threshold of an emulated switch that triggers above `gbps`.
pub fn threshold_bytes(gbps: f64, window_cycles: u32, clk_hz: u32) -> u64 {
    (gbps * 1e9 / 8.0 * f64::from(window_cycles) / f64::from(clk_hz)).round() as u64
}

/// `bytes` in `window_cycles` of a `clk_hz` clock as a rate in Gb/s.
pub fn window_gbps(bytes: u64, window_cycles: u32, clk_hz: u32) -> f64 {
    bytes as f64 * 8.0 / f64::from(window_cycles) * f64::from(clk_hz) / 1e9
}

/// The window and trigger state of an emulated switch.
#[derive(Clone, Debug)]
pub struct Monitor {
    spec: EmulatedSwitch,
    /// Egress bytes of each cycle of the window (a ring), and their sum.
    window: Vec<u8>,
    pos: usize,
    sum: u64,
    last_trigger: Option<u64>,
    /// Cycles left of the current pulse.
    pulse_left: u32,
}

impl Monitor {
    pub fn new(spec: EmulatedSwitch) -> Monitor {
        Monitor {
            window: vec![0; spec.window_cycles.max(1) as usize],
            spec,
            pos: 0,
            sum: 0,
            last_trigger: None,
            pulse_left: 0,
        }
    }

    pub fn spec(&self) -> &EmulatedSwitch {
        &self.spec
    }

    /// Bytes in the window now.
    pub fn window_bytes(&self) -> u64 {
        self.sum
    }

    /// Forgets the window, the last trigger and the pulse in progress (a reset of the bench).
    pub fn reset(&mut self) {
        self.pulse_left = 0;
        self.window.iter_mut().for_each(|b| *b = 0);
        self.sum = 0;
        self.last_trigger = None;
    }

    /// The pin in cycle `now`, given `egress_bytes` (at most 255) that left in the cycle before.
    pub fn next(&mut self, now: u64, egress_bytes: u32) -> bool {
        let old = std::mem::replace(&mut self.window[self.pos], egress_bytes as u8);
        self.sum = self.sum + u64::from(egress_bytes) - u64::from(old);
        self.pos = (self.pos + 1) % self.window.len();
        let cooled = self
            .last_trigger
            .is_none_or(|t| now - t >= self.spec.cooldown_cycles);
        if self.pulse_left == 0 && self.sum > self.spec.threshold_bytes && cooled {
            self.last_trigger = Some(now);
            self.pulse_left = self.spec.pulse_cycles.max(1);
        }
        if self.pulse_left > 0 {
            self.pulse_left -= 1;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params::DEFAULT;

    #[test]
    fn paper_switch_is_5gbps_over_32us_with_a_50us_cooldown() {
        // 5 Gb/s x 32 us = 20,000 bytes; 50 us = 7812.5 cycles, rounded half up.
        let s = EmulatedSwitch::paper(5.0, &P);
        assert_eq!(
            s,
            EmulatedSwitch {
                window_cycles: 5_000,
                threshold_bytes: 20_000,
                cooldown_cycles: 7_813,
                pulse_cycles: 4,
            }
        );
        assert_eq!(s.threshold_gbps(P.clk_hz()), 5.0);
        assert_eq!(threshold_bytes(2.0, 5_000, P.clk_hz()), 8_000);
    }

    #[test]
    fn triggers_above_threshold_once_per_cooldown_with_a_pulse() {
        let spec = EmulatedSwitch {
            window_cycles: 4,
            threshold_bytes: 20,
            cooldown_cycles: 10,
            pulse_cycles: 2,
        };
        let mut m = Monitor::new(spec);
        // 8 bytes a cycle: the window holds 24 > 20 from the third cycle on.
        let pins: Vec<bool> = (0..16).map(|c| m.next(c, 8)).collect();
        let on: Vec<u64> = (0..16).filter(|&c| pins[c as usize]).collect();
        assert_eq!(on, vec![2, 3, 12, 13]);
        assert_eq!(m.window_bytes(), 32);
        m.reset();
        assert_eq!(m.window_bytes(), 0);
        assert!(!m.next(16, 8));
    }
}
