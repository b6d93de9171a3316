//! 1. CNP path, counter, first CNP; 2. periods and blind windows.

use super::bench::*;

use dcqcn_model::Inputs;

#[test]
fn first_cnp_changes_rc_at_c_plus_9_plus_nd() {
    for nd in [0u32, 4, 7, 100] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd, NA_RESET));
        let c = b.cycle + 3;
        b.pulse(c);
        let end = c + u64::from(nd) + 20;
        b.run_to(end);
        assert_eq!(
            b.changes(c, end, rc),
            vec![(c + 9 + u64::from(nd), HALVED)],
            "Nd = {nd}"
        );
        assert_eq!(b.read(0x018), HALVED);
        assert_eq!(b.read(0x01C), L, "clampTgtRate = 0 leaves Rt");
    }
    // Reset Nd = 625: 634 cycles.
    let mut b = Bench::new();
    b.pulse(10);
    b.run_to(700);
    assert_eq!(b.changes(10, 700, rc), vec![(644, HALVED)]);
}

#[test]
fn cnp_counter_counts_rising_edges_even_in_bypass() {
    let mut b = Bench::new();
    b.pulse(10);
    b.run_to(20);
    // The counter increments at the end of cycle c + 3 (cnpRe): its own output changes at c + 4,
    // the 0x020 register one cycle later.
    assert_eq!(b.changes(10, 20, cnt), vec![(15, 1)]);
    // A level held high is one CNP.
    let hold = Inputs {
        cnp: true,
        ..Inputs::default()
    };
    for _ in 0..50 {
        b.step(&hold);
    }
    b.idle(10);
    assert_eq!(b.at(b.cycle).cnp_cnt, 2);
    // One-cycle pulses every 2 cycles are each counted.
    let s = b.cycle + 1;
    for k in 0..10 {
        b.pulse(s + 2 * k);
    }
    b.run_to(s + 40);
    assert_eq!(b.at(b.cycle).cnp_cnt, 12);
    assert_eq!(b.read(0x020) >> 11, 12);
    // Bypass: still counted.
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    for k in 0..5 {
        b.pulse(s + 7 * k);
    }
    b.run_to(s + 50);
    assert_eq!(b.read(0x020) >> 11, 17);
}

#[test]
fn cnp_counter_wraps_at_16_bits() {
    let mut b = Bench::new();
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    let pulse = Inputs {
        cnp: true,
        ..Inputs::default()
    };
    for _ in 0..65_537 {
        b.step(&pulse);
        b.idle(1);
    }
    b.idle(6);
    assert_eq!(b.at(b.cycle).cnp_cnt, 1, "65537 CNPs from {s}");
}

#[test]
fn cnp_cnt_rst_is_edge_triggered() {
    let mut b = Bench::new();
    b.cfg(0x024, 1); // no dynamics, only counting
    for k in 0..3 {
        let c = b.cycle + 2 + 4 * k;
        b.pulse(c);
    }
    b.idle(20);
    assert_eq!(b.read(0x020) >> 11, 3);
    // 0 -> 1: clears once. Bit set in cycle k (AWREADY), edge in k+1, counter 0 in k+2, the
    // register 0 in k+3.
    let (resp, k) = b.write_strb(0x020, 0x400, 0xF);
    assert_eq!(resp, 0);
    b.idle(3);
    assert_eq!(b.at(k + 2).cnp_cnt, 3);
    assert_eq!(b.at(k + 3).cnp_cnt, 0);
    assert_eq!(b.read(0x020), 0x400 | 0x3FF, "the bit reads back 1");
    // It keeps counting with the bit at 1.
    let c = b.cycle + 2;
    b.pulse(c);
    b.idle(10);
    assert_eq!(b.read(0x020) >> 11, 1);
    // Writing 1 again does nothing.
    b.cfg(0x020, 0x400);
    b.idle(5);
    assert_eq!(b.read(0x020) >> 11, 1);
    // 0, then 1: clears again.
    b.cfg(0x020, 0);
    assert_eq!(b.read(0x020) >> 11, 1);
    b.cfg(0x020, 0x400);
    b.idle(5);
    assert_eq!(b.read(0x020) >> 11, 0);
}

#[test]
fn later_cnp_latency_spans_c_plus_7_to_c_plus_nd_plus_9() {
    let nd = 20u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    // UPDATE1 cycles: c0 + 6 + Nd + k (Nd + 3).
    let u = |k: u64| c0 + 6 + nd + k * (nd + 3);
    // Shortest: cnpRe the cycle before UPDATE1 (pin at u - 4): Rc at pin + 7.
    let p1 = u(1) - 4;
    b.pulse(p1);
    // Longest: cnpRe on an UPDATE1 that consumes nothing (pin at u - 3): Rc at pin + Nd + 9.
    let p2 = u(2) - 3;
    b.pulse(p2);
    b.run_to(u(4));
    let r1 = decreased(HALVED, 1023, 1);
    let r2 = decreased(r1, 1023, 1);
    assert_eq!(
        b.changes(c0, u(4), rc),
        vec![(u(0) + 3, HALVED), (p1 + 7, r1), (p2 + nd + 9, r2)]
    );
}

#[test]
fn decrease_polls_every_nd_plus_3() {
    for nd in [5u64, 20, 61] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        // A CNP every 4 cycles: one is pending at every poll.
        for k in 0..200 {
            b.pulse(c0 + 4 * k);
        }
        b.run_to(c0 + 800);
        let ch = b.changes(c0, c0 + 800, rc);
        assert!(ch.len() >= 5, "Nd = {nd}: {ch:?}");
        for w in ch.windows(2).take(4) {
            assert_eq!(w[1].0 - w[0].0, nd + 3, "Nd = {nd}");
        }
        assert_eq!(ch[0].0, c0 + 9 + nd);
    }
}

#[test]
fn decrease_blind_window_loses_cnps_at_u_to_u_plus_2() {
    let nd = 20u64;
    for j in 0..=3u64 {
        let mut b = Bench::new();
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let u0 = c0 + 6 + nd;
        let u1 = u0 + nd + 3;
        // cnpRe at u0 + j.
        b.pulse(u0 + j - 3);
        b.run_to(u1 + 2 * (nd + 3));
        let ch = b.changes(c0, b.cycle, rc);
        if j <= 2 {
            assert_eq!(ch, vec![(u0 + 3, HALVED)], "cnpRe at u0 + {j} is lost");
        } else {
            assert_eq!(
                ch,
                vec![(u0 + 3, HALVED), (u1 + 3, decreased(HALVED, 1023, 1))],
                "cnpRe at u0 + 3 is applied"
            );
        }
        // Counted all the same.
        assert_eq!(b.at(b.cycle).cnp_cnt, 2);
    }
}

#[test]
fn alpha_updates_every_na_plus_2_and_decays_1023_1019_1015() {
    let na = 30u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(60_000, na as u32));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 10 * (na + 2));
    let ch = b.changes(c0, b.cycle, alpha);
    // The first CNP is not pending for alpha: the first update decays.
    assert_eq!(ch[0], (c0 + 8 + na, 1019));
    assert_eq!(ch[1], (c0 + 8 + na + (na + 2), 1015));
    for w in ch.windows(2) {
        assert_eq!(w[1].0 - w[0].0, na + 2);
        assert_eq!(w[0].1 - w[1].1, 4, "-4 per step at the top");
    }
}

#[test]
fn alpha_floors_at_128_for_g_1020_and_1_for_g_512() {
    for (g, floor) in [(1020u32, 128u32), (512, 1)] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(g, 1, 5, false));
        b.cfg(0x014, word14(60_000, 10));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.run_to(c0 + 3000 * 12);
        let vals: Vec<u32> = (c0..b.cycle).map(|k| alpha(&b.at(k))).collect();
        assert!(vals.windows(2).all(|w| w[1] <= w[0]), "G = {g}: monotone");
        assert_eq!(*vals.last().unwrap(), floor, "G = {g}");
        assert_eq!(*vals.iter().min().unwrap(), floor, "G = {g}: never below");
        assert_eq!(floor, 512 / (1024 - g));
        assert_eq!(b.read(0x020) & 0x3FF, floor);
    }
}

#[test]
fn alpha_blind_window_loses_cnps_at_a_and_a_plus_1() {
    let na = 30u64;
    for j in [-1i64, 0, 1, 2] {
        let mut b = Bench::new();
        b.cfg(0x014, word14(60_000, na as u32));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let a0 = c0 + 6 + na;
        let a1 = a0 + na + 2;
        b.pulse((a0 as i64 + j - 3) as u64);
        b.run_to(a1 + 4);
        let (after_a0, after_a1) = (b.at(a0 + 2).alpha, b.at(a1 + 2).alpha);
        match j {
            -1 => assert_eq!((after_a0, after_a1), (1023, 1019), "counted at a0"),
            0 | 1 => assert_eq!((after_a0, after_a1), (1019, 1015), "lost (j = {j})"),
            _ => assert_eq!((after_a0, after_a1), (1019, 1019), "counted at a1"),
        }
    }
}

#[test]
fn alpha_wraps_to_0_with_g_512() {
    let na = 50u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(512, 1, 5, false));
    b.cfg(0x014, word14(60_000, na as u32));
    let c0 = b.cycle + 2;
    for k in 0..60 {
        b.pulse(c0 + 10 * k);
    }
    let a = |k: u64| c0 + 6 + na + k * (na + 2);
    b.run_to(a(4) + 3);
    let seq: Vec<u16> = (0..4).map(|k| b.at(a(k) + 2).alpha).collect();
    assert_eq!(seq, [0, 512, 768, 896], "1023 -> 0 -> 512 -> 768 ...");
}

#[test]
fn g_0_stops_every_decrease() {
    // Na < Nd: alpha reaches 0 before the first decrease; then no CNP changes Rc.
    let mut b = Bench::new();
    b.cfg(0x000, word0(0, 1, 5, false));
    b.cfg(0x014, word14(100, 10));
    let c0 = b.cycle + 2;
    for k in 0..200 {
        b.pulse(c0 + 37 * k);
    }
    b.run_to(c0 + 8000);
    assert_eq!(b.changes(c0, b.cycle, alpha), vec![(c0 + 18, 0)]);
    assert!(b.changes(c0, b.cycle, rc).is_empty());
    assert!(b.changes(c0, b.cycle, rt).is_empty());
    // The same stimulus with G = 1020 decreases.
    let mut b = Bench::new();
    b.cfg(0x014, word14(100, 10));
    for k in 0..200 {
        b.pulse(c0 + 37 * k);
    }
    b.run_to(c0 + 8000);
    assert!(!b.changes(c0, b.cycle, rc).is_empty());
}

#[test]
fn first_increase_at_c_plus_ni_plus_9_then_every_ni_plus_3() {
    let ni = 100u64;
    let mut b = Bench::new();
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 14 + 6 * (ni + 3));
    let ch = b.changes(c0, b.cycle, rc);
    assert_eq!(ch[0], (c0 + 14, HALVED));
    let mut expect = HALVED;
    for (k, &(cycle, v)) in ch[1..].iter().enumerate() {
        assert_eq!(cycle, c0 + ni + 9 + k as u64 * (ni + 3));
        expect = (expect >> 1) + (L >> 1);
        assert_eq!(v, expect);
    }
    assert_eq!(ch.len(), 7);
}

#[test]
fn a_cnp_restarts_the_increase_only_while_counting_up_to_ni() {
    // T = 2 and Rai = -5 make the stage visible: the second increase after a restart-free run is
    // additive (Rt = L - 5); no decrease in the window (Nd large), so Rc = Rt = L until then.
    let ni = 100u64;
    for (d, restarted) in [(1u64, true), (2, false), (3, false)] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, 1, 2, false));
        b.cfg(0x004, 0xFFFF_FFFB);
        b.cfg(0x010, ni as u32);
        b.cfg(0x014, word14(60_000, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        // The second CNP's incReset is in cycle c1 + 4 = c0 + Ni + 4 + d: d = 1 is the last
        // counting cycle with timer <= Ni, d = 2 the expiry cycle, d = 3 the update cycle.
        let c1 = c0 + ni + d;
        b.pulse(c1);
        b.run_to(c0 + 4 * (ni + 3) + 20);
        let first_rt_change = b.changes(c0, b.cycle, rt)[0];
        let expect = if restarted {
            c1 + ni + 9 + (ni + 3)
        } else {
            c0 + ni + 9 + (ni + 3)
        };
        assert_eq!(first_rt_change, (expect, L - 5), "d = {d}");
    }
}
