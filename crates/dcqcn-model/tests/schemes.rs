//! The control schemes of spec 4.9 on the model: what each scheme does to the rate, the reaction
//! point and the stream, and what survives a switch at run time. The configuration is changed
//! with `set_config`, which acts like a register write (from the next cycle on, spec 4.0).

mod common;

use common::saturating;
use dcqcn_model::{Config, Inputs, Params, RateLimiter};

const P: Params = Params::DEFAULT;
const L: u32 = 1_250_000_000;

/// `n` cycles of `i`; returns the beats loaded.
fn run(m: &mut RateLimiter, i: &Inputs, n: u64) -> u64 {
    (0..n)
        .map(|_| {
            m.step(i);
            u64::from(m.events().load)
        })
        .sum()
}

/// One CNP (a 4-cycle pulse), then `quiet` cycles of saturating traffic.
fn cnp_then(m: &mut RateLimiter, quiet: u64) {
    run(m, &saturating(true), 4);
    run(m, &saturating(false), quiet);
}

fn with_reset_pulse() -> RateLimiter {
    let mut m = RateLimiter::new(P);
    m.step(&Inputs {
        rst: true,
        ..Inputs::default()
    });
    m
}

/// Scheme 1: Rc = Rt = fw_rate one cycle after the configuration, CNPs counted but not acted on,
/// the stream throttled at the firmware rate.
#[test]
fn firmware_rate_sets_rc_and_throttles() {
    let mut m = with_reset_pulse();
    let base = Config::paper_table2(&P);
    m.set_config(Config {
        scheme: 1,
        fw_rate: 250_000_000, // 2 Gb/s = 1.6 B/clk at 156.25 MHz
        ..base
    });
    run(&mut m, &saturating(false), 1);
    assert_eq!((m.state().rc, m.state().rt), (250_000_000, 250_000_000));
    cnp_then(&mut m, 1_000);
    let s = m.state();
    assert_eq!(s.regs.cnt.cnt_cnp, 1, "the CNP is counted");
    assert_eq!(
        (s.regs.cnt.cnt_dec, s.active, s.rc),
        (0, false, 250_000_000),
        "and not acted on"
    );
    // 100,000 cycles at 1.6 B/clk: 20,000 beats of 8 bytes, give or take the first beat.
    let beats = run(&mut m, &saturating(false), 100_000);
    assert!((19_999..=20_001).contains(&beats), "{beats} beats");
}

/// fw_rate 0 and values at or above L mean L; no rmin or rmax applies to the firmware's rate.
#[test]
fn firmware_rate_is_clamped_to_line_rate_only() {
    for (fw_rate, want) in [
        (0, L),
        (L, L),
        (L + 1, L),
        (u32::MAX, L),
        (1, 1),
        (L - 1, L - 1),
    ] {
        let mut m = with_reset_pulse();
        m.set_config(Config {
            scheme: 3,
            fw_rate,
            rmin: 10_000_000,
            rmax: 600_000_000,
            ..Config::reset(&P)
        });
        run(&mut m, &saturating(false), 2);
        assert_eq!(
            (m.state().rc, m.state().rt),
            (want, want),
            "fw_rate {fw_rate}"
        );
    }
}

/// Leaving scheme 1 hands the firmware's rate to hardware DCQCN: inactive (no increase) until the
/// next CNP, whose decrease cuts the firmware's rate with alpha_init.
#[test]
fn hardware_dcqcn_takes_over_the_firmware_rate() {
    let mut m = with_reset_pulse();
    let hw = Config {
        alpha_init: 512,
        ..Config::paper_table2(&P)
    };
    m.set_config(Config {
        scheme: 1,
        fw_rate: 400_000_000,
        ..hw
    });
    run(&mut m, &saturating(false), 10);
    m.set_config(hw);
    // Longer than the 2 ms increase timer: no increase while inactive.
    run(&mut m, &saturating(false), 400_000);
    assert_eq!((m.state().rc, m.state().rt), (400_000_000, 400_000_000));
    cnp_then(&mut m, 10);
    let s = m.state();
    // dec_gain 1: Rc (1 - 512 / 2048) = 0.75 Rc; clamp_tgt keeps Rt at the old Rc.
    assert_eq!((s.rc, s.rt, s.active), (300_000_000, 400_000_000, true));
}

/// Scheme 2: DCQCN runs (decreases happen) while the stream passes at one beat per clock with the
/// credit held at 0.
#[test]
fn observing_scheme_decreases_without_throttling() {
    let mut m = with_reset_pulse();
    m.set_config(Config {
        scheme: 2,
        ..Config::paper_table2(&P)
    });
    cnp_then(&mut m, 100);
    let beats = run(&mut m, &saturating(false), 10_000);
    let s = m.state();
    assert!(s.rc < L && s.regs.cnt.cnt_dec == 1, "DCQCN decreased Rc");
    assert_eq!(beats, 10_000, "one beat per clock");
    assert_eq!((s.gate.credit, s.regs.cnt.cnt_stall), (0, 0));
}

/// The gate mask stops the stream in every scheme and in bypass; a throttled scheme keeps
/// accumulating credit up to the cap while masked, and the beat in the output register leaves.
#[test]
fn gate_mask_blocks_every_scheme() {
    for (scheme, bypass) in [(0, false), (1, false), (2, false), (3, false), (0, true)] {
        let mut m = with_reset_pulse();
        let c = Config {
            scheme,
            bypass,
            credit_cap: 4_096,
            ..Config::reset(&P)
        };
        m.set_config(c);
        run(&mut m, &saturating(false), 100);
        m.set_config(Config {
            gate_mask: true,
            ..c
        });
        let stalls = m.state().regs.cnt.cnt_stall;
        let beats = run(&mut m, &saturating(false), 10_000);
        let s = m.state();
        let tag = format!("scheme {scheme} bypass {bypass}");
        assert_eq!(beats, 0, "{tag}");
        assert!(!s.gate.m_valid, "{tag}: the held beat was handed on");
        assert_eq!(
            s.regs.cnt.cnt_stall - stalls,
            10_000,
            "{tag}: every masked cycle stalls"
        );
        let throttled = scheme & 2 == 0 && !bypass;
        let cap = 4_096u64 << 16;
        assert_eq!(s.gate.credit, if throttled { cap } else { 0 }, "{tag}");
        m.set_config(c);
        assert!(
            run(&mut m, &saturating(false), 10) > 0,
            "{tag}: unmasked again"
        );
    }
}

/// Entering an unthrottled scheme zeroes the credit; leaving it restarts the credit from 0.
#[test]
fn unthrottled_schemes_hold_the_credit_at_zero() {
    let mut m = with_reset_pulse();
    let c = Config {
        credit_cap: 4_096,
        ..Config::reset(&P)
    };
    m.set_config(c);
    run(&mut m, &Inputs::default(), 10_000);
    assert_eq!(
        m.state().gate.credit,
        4_096 << 16,
        "idle: credit at the cap"
    );
    m.set_config(Config { scheme: 2, ..c });
    run(&mut m, &Inputs::default(), 1);
    assert_eq!(m.state().gate.credit, 0);
    m.set_config(c);
    run(&mut m, &Inputs::default(), 1);
    assert_eq!(m.state().gate.credit, u64::from(m.state().gate.bpc));
}
