//! 3. Arithmetic; 6. bypass.

use super::bench::*;

#[test]
fn rmin_floors_and_raises_above_line_rate() {
    for (rmin, expect) in [
        (800_000_000u32, 800_000_000u32),
        (2_000_000_000, 2_000_000_000),
    ] {
        let mut b = Bench::new();
        b.cfg(0x00C, rmin);
        b.cfg(0x014, word14(4, NA_RESET));
        let c = b.cycle + 2;
        b.pulse(c);
        b.run_to(c + 20);
        assert_eq!(b.changes(c, c + 20, rc), vec![(c + 13, expect)]);
        assert_eq!(b.read(0x018), expect);
    }
}

#[test]
fn dec_gain_sets_the_shift() {
    for dg in [0u32, 1, 2, 15] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, dg, 5, false));
        b.cfg(0x014, word14(4, NA_RESET));
        let c = b.cycle + 2;
        b.pulse(c);
        b.run_to(c + 20);
        let want = L.wrapping_sub(((u64::from(L) * 1023) >> (dg + 10)) as u32);
        assert_eq!(b.at(c + 13).rc, want.max(10_000_000), "dec_gain {dg}");
    }
}

/// Rt after each increase following a second CNP that lowered Rt (clamp = 1).
fn stage_deltas(t: u32, incs: u64) -> Vec<i64> {
    let (ni, nd) = (30u64, 5u64);
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, t, true));
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(nd as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    let c1 = c0 + 30;
    b.pulse(c1);
    let first = c1 + ni + 9;
    b.run_to(first + incs * (ni + 3) + 1);
    assert_eq!(
        b.at(first - 1).rt,
        HALVED,
        "clamp = 1: Rt = Rc before the decrease"
    );
    let mut out = Vec::new();
    for k in 0..incs {
        let at = first + k * (ni + 3);
        let (before, after) = (b.at(at - 1), b.at(at));
        assert_eq!(
            after.rc,
            (before.rc >> 1) + (after.rt >> 1),
            "two truncated halves"
        );
        assert_eq!(b.at(at + 1), after);
        out.push(i64::from(after.rt) - i64::from(before.rt));
    }
    out
}

#[test]
fn stage_sequences_for_t_5_1_and_0() {
    let (a, h) = (6_000_000i64, 12_000_000i64);
    assert_eq!(stage_deltas(5, 8), [0, 0, 0, 0, a, h, h, h], "T = 5");
    assert_eq!(stage_deltas(1, 4), [a, h, h, h], "T = 1");
    let t0 = stage_deltas(0, 600);
    let mut want = vec![0i64; 600];
    want[255] = a;
    want[511] = a;
    assert_eq!(t0, want, "T = 0: 255 fast recovery, additive, repeat");
}

#[test]
fn rc_converges_to_l_minus_1_and_stays() {
    let ni = 30u64;
    let mut b = Bench::new();
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 200 * (ni + 3));
    let ch = b.changes(c0, b.cycle, rc);
    let last = *ch.last().unwrap();
    assert_eq!(last.1, L - 1);
    assert!(last.0 < c0 + 60 * (ni + 3), "reached early, then no change");
    assert_eq!(b.read(0x018), 1_249_999_999);
    assert_eq!(b.read(0x01C), L);
}

#[test]
fn rai_0xfffffffb_lowers_rt() {
    let ni = 30u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, 1, false));
    b.cfg(0x004, 0xFFFF_FFFB);
    b.cfg(0x010, ni as u32);
    b.cfg(0x014, word14(60_000, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + ni + 12);
    assert_eq!(
        b.changes(c0, b.cycle, rt),
        vec![(c0 + ni + 9, L - 5)],
        "(L + 0xFFFFFFFB) mod 2^32 = L - 5 < L"
    );
    assert_eq!(b.at(c0 + ni + 9).rc, (L >> 1) + ((L - 5) >> 1));
}

#[test]
fn decrease_wins_a_collision_and_the_stage_still_advances() {
    // Nd = Ni: the first increase lands with the first decrease. T = 2 and Rai = -5 show the
    // stage: the next increase is additive.
    let n = 100u64;
    let mut b = Bench::new();
    b.cfg(0x000, word0(1020, 1, 2, false));
    b.cfg(0x004, 0xFFFF_FFFB);
    b.cfg(0x010, n as u32);
    b.cfg(0x014, word14(n as u32, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + n + 9 + n + 5);
    let next = c0 + n + 9 + n + 3;
    assert_eq!(
        b.changes(c0, b.cycle, rc),
        vec![(c0 + n + 9, HALVED), (next, (HALVED >> 1) + ((L - 5) >> 1))]
    );
    assert_eq!(b.changes(c0, b.cycle, rt), vec![(next, L - 5)]);
}

#[test]
fn clamp_1_sets_rt_to_rc_clamp_0_leaves_it() {
    for clamp in [true, false] {
        let mut b = Bench::new();
        b.cfg(0x000, word0(1020, 1, 5, clamp));
        b.cfg(0x014, word14(5, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.pulse(c0 + 30);
        b.run_to(c0 + 60);
        let want_rt = if clamp { HALVED } else { L };
        assert_eq!(b.at(c0 + 60).rt, want_rt, "clamp {clamp}");
        assert_eq!(b.at(c0 + 60).rc, decreased(HALVED, 1023, 1));
    }
}

#[test]
fn clamp_0_clamps_when_update1_lands_on_c_plus_4() {
    // Stage 1 after the first increase; UPDATE1 at u = c0 + 11 + 8k (Nd = 5).
    let (ni, nd) = (30u64, 5u64);
    let u = |c0: u64| c0 + 6 + nd + 4 * (nd + 3);
    for (lead, clamped) in [(4u64, true), (5, false)] {
        let mut b = Bench::new();
        b.cfg(0x010, ni as u32);
        b.cfg(0x014, word14(nd as u32, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        let u = u(c0);
        assert!(u > c0 + ni + 9);
        b.pulse(u - lead);
        b.run_to(u + 5);
        let rc_u = b.at(u).rc;
        assert_eq!(rc_u, (HALVED >> 1) + (L >> 1), "one fast recovery before");
        let want = if clamped { rc_u } else { L };
        assert_eq!(b.at(u + 3).rt, want, "pin at u - {lead}");
        assert_eq!(b.at(u + 3).rc, decreased(rc_u, 1023, 1));
    }
}

#[test]
fn bypass_from_reset_starts_nothing_and_the_next_cnp_is_a_first_cnp() {
    let nd = 10u64;
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, 30));
    b.cfg(0x024, 1);
    let s = b.cycle + 1;
    for k in 0..5 {
        b.pulse(s + 50 * k);
    }
    b.run_to(s + 400);
    assert!(b.changes(s, b.cycle, rc).is_empty());
    assert!(b.changes(s, b.cycle, alpha).is_empty());
    assert_eq!(b.at(b.cycle).cnp_cnt, 5);
    b.cfg(0x024, 0);
    b.idle(100);
    assert!(b.changes(s, b.cycle, rc).is_empty());
    let c = b.cycle + 3;
    b.pulse(c);
    b.run_to(c + 80);
    assert_eq!(b.changes(c, b.cycle, rc)[0], (c + 9 + nd, HALVED));
    // First CNP: not pending for alpha, so the first alpha update decays.
    assert_eq!(b.changes(c, b.cycle, alpha)[0], (c + 8 + 30, 1019));
}

#[test]
fn bypass_forces_line_rate_one_cycle_after_the_bit_and_the_processes_keep_running() {
    let (nd, na) = (10u64, 30u64);
    let mut b = Bench::new();
    b.cfg(0x014, word14(nd as u32, na as u32));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    // A CNP pending when bypass comes on (cnpRe at c0 + 38, poll at c0 + 42) is consumed but
    // its result is overridden.
    b.pulse(c0 + 35);
    b.run_to(c0 + 40);
    assert_eq!(b.at(b.cycle).rc, HALVED);
    let (_, k) = b.write_strb(0x024, 1, 0xF);
    assert_eq!((b.at(k).rc, b.at(k + 1).rc, b.at(k + 1).rt), (HALVED, L, L));
    let s = b.cycle;
    for j in 0..6 {
        b.pulse(s + 5 + 40 * j);
    }
    b.run_to(s + 400);
    assert!(b.changes(k + 2, b.cycle, rc).is_empty());
    assert!(b.changes(k + 2, b.cycle, rt).is_empty());
    assert!(
        !b.changes(k + 2, b.cycle, alpha).is_empty(),
        "alpha keeps updating"
    );
    // Cleared: Rc = Rt = L, and the decrease poll keeps its phase from the first CNP.
    b.cfg(0x024, 0);
    assert_eq!(b.read(0x018), L);
    let c2 = b.cycle + 2;
    b.pulse(c2);
    b.run_to(c2 + nd + 12);
    let u0 = c0 + 6 + nd;
    let first_u = (c2 + 4..)
        .find(|&u| (u - u0).is_multiple_of(nd + 3))
        .unwrap();
    let ch = b.changes(c2, b.cycle, rc);
    assert_eq!(ch[0].0, first_u + 3);
    assert_eq!(ch[0].1, decreased(L, u32::from(b.at(first_u).alpha), 1));
}
