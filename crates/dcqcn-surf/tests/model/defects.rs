//! Our block against upstream: the reproducers of docs/surf-upstream.md (tests named `defect_*`),
//! each the same stimulus on both models.

use super::bench::*;

use dcqcn_model::{AxilIn, Inputs};
use dcqcn_surf::model::{SurfLimiter, SurfParams, SurfRate};

/// Cycles from a first CNP's pin pulse to the first change of Rc.
fn first_decrease_latency<D: Dut>(mut b: Bench<D>) -> (u64, u32) {
    let c = b.cycle + 2;
    b.pulse(c);
    b.run_to(c + 700);
    let (at, rc) = b.changes(c, b.cycle, rc)[0];
    (at - c, rc)
}

#[test]
fn defect_first_cnp_latency() {
    let (up, up_rc) = first_decrease_latency(Bench::new());
    let (ours, ours_rc) = first_decrease_latency(Bench::ours());
    assert_eq!((up, up_rc), (634, HALVED));
    assert_eq!(
        (ours, ours_rc),
        (3, HALVED),
        "same decrease arithmetic, c + 3"
    );
    println!(
        "first CNP -> Rc: upstream {up} cycles ({:.2} us), ours {ours} cycles; at line rate \
         upstream sends {} B more before reacting",
        up as f64 / 156.25,
        (up - ours) * 8
    );
}

/// Latency (pin to Rc change) of a second CNP at `c0 + 2000 + j` for every phase j of the
/// upstream poll (Nd + 3 = 628 phases, reset intervals).
fn later_latencies<D: Dut>(make: impl Fn() -> Bench<D>) -> Vec<u64> {
    (0..628)
        .map(|j| {
            let mut b = make();
            let c0 = b.cycle + 2;
            b.pulse(c0);
            let c1 = c0 + 2000 + j;
            b.pulse(c1);
            b.run_to(c1 + 700);
            b.changes(c1, b.cycle, rc)[0].0 - c1
        })
        .collect()
}

#[test]
fn defect_later_cnp_latency_depends_on_the_poll_phase() {
    let up = later_latencies(Bench::new);
    let ours = later_latencies(Bench::ours);
    let (min, max) = (*up.iter().min().unwrap(), *up.iter().max().unwrap());
    assert_eq!((min, max), (7, 634), "c + 7 .. c + Nd + 9");
    assert!(
        ours.iter().all(|&l| l == 3),
        "ours: c + 3 once the cooldown is over"
    );
    let mean = up.iter().sum::<u64>() as f64 / up.len() as f64;
    println!("later CNP -> Rc over all 628 poll phases: upstream {min}..{max} cycles, mean {mean:.1}; ours 3");
}

/// A deterministic stream of CNP pin cycles with exponential gaps of mean `mean` (at least 2).
fn cnp_stream(mean: f64, cycles: u64, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    let mut t = 10u64;
    let mut out = Vec::new();
    loop {
        // xorshift64*
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let u = ((x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        t += ((-u.ln() * mean) as u64).max(2);
        if t >= cycles {
            return out;
        }
        out.push(t);
    }
}

/// CNPs that no decrease serves: a decrease visible at cycle x serves every earlier CNP pulsed at
/// least `min_lat` cycles before x; a CNP not served within `max_lat` cycles is lost.
fn lost_cnps<D: Dut>(
    dut: &mut D,
    pins: &[u64],
    cycles: u64,
    min_lat: u64,
    max_lat: u64,
) -> (u64, u64) {
    let mut pending = std::collections::VecDeque::new();
    let (mut next, mut lost, mut served) = (0usize, 0u64, 0u64);
    let mut prev = dut.probe_regs().rc;
    for t in 0..cycles {
        let cnp = next < pins.len() && pins[next] == t;
        if cnp {
            next += 1;
            pending.push_back(t);
        }
        dut.step_ports(&Inputs {
            cnp,
            ..Inputs::default()
        });
        let rc = dut.probe_regs().rc;
        let x = t + 1;
        if rc < prev {
            while pending.front().is_some_and(|&c| x - c >= min_lat) {
                pending.pop_front();
                served += 1;
            }
        }
        prev = rc;
        while pending.front().is_some_and(|&c| x - c > max_lat) {
            pending.pop_front();
            lost += 1;
        }
    }
    (lost, served)
}

#[test]
fn defect_cnps_lost_in_the_decrease_blind_window() {
    // dec_gain 15: each decrease is small, so Rc never reaches Rmin and every decrease shows.
    let cycles = 20_000_000u64;
    let setup = |b: &mut dyn FnMut(u16, u32)| b(0x000, word0(1020, 15, 5, false));
    for mean in [906.0, 7812.5] {
        let pins = cnp_stream(mean, cycles, 0x5EED);
        let mut up = Bench::with(SurfRate::new(SurfParams::default()));
        setup(&mut |a, d| up.cfg(a, d));
        let mut ours = Bench::ours();
        setup(&mut |a, d| ours.cfg(a, d));
        let (up_lost, up_served) = lost_cnps(&mut up.dut, &pins, cycles, 7, 625 + 9);
        let (ours_lost, ours_served) = lost_cnps(&mut ours.dut, &pins, cycles, 3, 625 + 9);
        let seconds = cycles as f64 / 156.25e6;
        println!(
            "Poisson CNPs, mean gap {mean} cycles ({:.0} CNP/s): upstream lost {up_lost} of {} \
             ({:.0} lost CNP/s), ours lost {ours_lost} of {}",
            pins.len() as f64 / seconds,
            up_lost + up_served,
            up_lost as f64 / seconds,
            ours_lost + ours_served
        );
        assert_eq!(ours_lost, 0, "ours loses none");
        if mean < 1000.0 {
            assert!(up_lost > 0, "upstream loses CNPs at this rate");
        }
    }
}

/// Upstream only (internal signals): CNPs that set the alpha flag inside the 2-cycle window of an
/// update and are not followed by another before the next update. Measured at Na = 100 (period
/// 102) with CNPs every 102 cycles on average, where the loss is frequent enough to count; the
/// expected count is N * 2/102 * P(no further CNP before the next update).
#[test]
fn defect_cnps_lost_for_alpha() {
    let cycles = 5_000_000u64;
    let (na, mean) = (100u32, 102.0);
    let pins = cnp_stream(mean, cycles, 0xA1FA);
    let mut up = Bench::with(SurfRate::new(SurfParams::default()));
    up.cfg(0x000, word0(1020, 15, 5, false));
    up.cfg(0x014, word14(625, na));
    let dut = &mut up.dut;
    let (mut next, mut at_risk, mut lost, mut updates_with_cnp) = (0usize, 0u64, 0u64, 0u64);
    let mut last_update = None;
    for t in 0..cycles {
        let cnp = next < pins.len() && pins[next] == t;
        next += usize::from(cnp);
        // This cycle's registers.
        let cnp_re = dut.cnp.rising && !dut.regs.bypass;
        let updating = dut.alpha.state == dcqcn_surf::model::alpha::AlphaState::Update;
        if updating {
            if at_risk > 0 && !dut.regs.cnp_alpha {
                lost += at_risk;
            }
            updates_with_cnp += u64::from(dut.regs.cnp_alpha);
            at_risk = 0;
            last_update = Some(t);
        }
        if cnp_re {
            if last_update.is_some_and(|a| t - a <= 1) {
                at_risk += 1;
            } else {
                at_risk = 0;
            }
        }
        dut.step_ports(&Inputs {
            cnp,
            ..Inputs::default()
        });
    }
    let seconds = cycles as f64 / 156.25e6;
    // Exponential gaps: P(no CNP in the ~100 cycles after the window) = exp(-100 / mean).
    let expect = pins.len() as f64 * 2.0 / 102.0 * (-100.0 / mean).exp();
    println!(
        "Na = {na}, CNPs every {mean} cycles on average ({:.0} CNP/s): {lost} lost for alpha \
         ({:.0} per second; expected about {expect:.0}), {updates_with_cnp} alpha increases",
        pins.len() as f64 / seconds,
        lost as f64 / seconds
    );
    assert!(lost > 0);
    assert!(
        (lost as f64 - expect).abs() < 0.2 * expect,
        "{lost} vs {expect}"
    );
}

/// Rc at the end of a CNP train (`n` CNPs, `gap` cycles apart) with alphaG = `g`, Na = 100.
fn rc_after_cnps<D: Dut>(mut b: Bench<D>, g: u32, n: u64, gap: u64) -> (u32, u16) {
    b.cfg(0x000, word0(g, 1, 5, false));
    b.cfg(0x014, word14(625, 100));
    let c0 = b.cycle + 2;
    for k in 0..n {
        b.pulse(c0 + gap * k);
    }
    b.run_to(c0 + gap * n + 2000);
    let p = b.at(b.cycle);
    (p.rc, p.alpha)
}

#[test]
fn defect_alpha_wrap_with_g_512_and_no_decrease_with_g_0() {
    // G = 512: two CNPs; the second is pending when alpha = 1023 updates: alpha wraps to 0 and
    // the first decrease (polled later) cuts nothing.
    let (up_rc, up_alpha) = rc_after_cnps(Bench::new(), 512, 2, 10);
    let (ours_rc, ours_alpha) = rc_after_cnps(Bench::ours(), 512, 2, 10);
    println!(
        "G = 512, two CNPs: upstream Rc = {up_rc} (alpha {up_alpha}), ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
    assert_eq!(up_rc, L, "upstream: no cut at all");
    assert!(ours_rc < HALVED);
    // G = 0: a CNP every 50 cycles for 0.2 ms.
    let (up_rc, up_alpha) = rc_after_cnps(Bench::new(), 0, 625, 50);
    let (ours_rc, ours_alpha) = rc_after_cnps(Bench::ours(), 0, 625, 50);
    println!(
        "G = 0, a CNP every 50 cycles for 0.2 ms: upstream Rc = {up_rc} (alpha {up_alpha}), \
         ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
    assert_eq!(up_rc, L, "upstream: alpha is 0 from the first update on");
    assert_eq!(ours_rc, 10_000_000, "ours: cut to Rmin");
}

/// Cycles between the first two alpha changes, and between the first two increases.
fn periods<D: Dut>(mut b: Bench<D>) -> (u64, u64) {
    b.cfg(0x010, 2000);
    b.cfg(0x014, word14(625, 300));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 8000);
    let a = b.changes(c0, b.cycle, alpha);
    let r: Vec<_> = b
        .changes(c0, b.cycle, rc)
        .into_iter()
        .filter(|&(k, v)| v > b.at(k - 1).rc)
        .collect();
    (a[1].0 - a[0].0, r[1].0 - r[0].0)
}

#[test]
fn defect_periods_are_2_and_3_cycles_long() {
    let up = periods(Bench::new());
    let ours = periods(Bench::ours());
    assert_eq!(up, (302, 2003));
    assert_eq!(ours, (300, 2000));
    println!(
        "alpha period for Na = 300: upstream {} ours {}; increase period for Ni = 2000: upstream {} ours {} \
         (at the reset values: +{:.3} % and +{:.1} ppm)",
        up.0,
        ours.0,
        up.1,
        ours.1,
        200.0 / 8594.0,
        3e6 / 234_375.0
    );
}

/// Rt after a second CNP that comes after two increases (clampTgtRate = 0).
fn rt_after_second_cnp<D: Dut>(mut b: Bench<D>) -> (u32, u32) {
    b.cfg(0x010, 1000);
    b.cfg(0x014, word14(20, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.pulse(c0 + 2500);
    b.run_to(c0 + 2600);
    let p = b.at(b.cycle);
    (p.rt, b.at(c0 + 2500).rc)
}

#[test]
fn defect_clamp_tgt_rate_0_never_clamps() {
    let (up_rt, _) = rt_after_second_cnp(Bench::new());
    let (ours_rt, ours_rc_before) = rt_after_second_cnp(Bench::ours());
    assert_eq!(
        up_rt, L,
        "upstream: the stage is zeroed before the decrease reads it"
    );
    assert_eq!(ours_rt, ours_rc_before, "ours: Rt = Rc after an increase");
    assert!(ours_rt < L);
    println!(
        "clampTgtRate = 0, CNP after two increases: upstream Rt = {up_rt}, ours Rt = {ours_rt}"
    );
}

/// Rc after 100 increases following one CNP (Ni = 100).
fn settled_rc<D: Dut>(mut b: Bench<D>) -> u32 {
    b.cfg(0x010, 100);
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 700 + 100 * 103);
    b.read(0x018)
}

#[test]
fn defect_rc_stalls_at_l_minus_1() {
    let up = settled_rc(Bench::new());
    let ours = settled_rc(Bench::ours());
    assert_eq!((up, ours), (L - 1, L));
    // The token rate at the wrapper clock: (Rc * K) >> 32 with K = round(2^48 / f).
    let k = 1_801_440u64;
    let bpc = |r: u32| (u64::from(r) * k) >> 32;
    assert_eq!(bpc(L - 1), bpc(L), "no throughput lost at 156.25 MHz");
    println!(
        "Rc after recovery: upstream {up}, ours {ours}; byte_per_clk {} vs {} (Q16.16)",
        bpc(up),
        bpc(ours)
    );
}

#[test]
fn defect_rai_wraps_and_rmin_raises_rc_above_line_rate() {
    let run = |mut b: Bench<SurfLimiter>| {
        b.cfg(0x000, word0(1020, 1, 1, false));
        b.cfg(0x004, 0xFFFF_FFFB);
        b.cfg(0x010, 100);
        b.cfg(0x014, word14(60_000, NA_RESET));
        let c0 = b.cycle + 2;
        b.pulse(c0);
        b.run_to(c0 + 120);
        b.read(0x01C)
    };
    let up = run(Bench::new());
    let mut ours = Bench::ours();
    ours.cfg(0x000, word0(1020, 1, 1, false));
    ours.cfg(0x004, 0xFFFF_FFFB);
    ours.cfg(0x010, 100);
    ours.cfg(0x014, word14(0, NA_RESET));
    let c0 = ours.cycle + 2;
    ours.pulse(c0);
    ours.run_to(c0 + 120);
    // Ours: the additive step (after the decrease) goes to min(Rt + Rai, L) in 33 bits: L.
    assert_eq!(ours.at(ours.cycle).rt, L);
    assert_eq!(up, L - 5);
    // Rmin above L.
    let rmin_run = |b: &mut dyn FnMut(u16, u32)| {
        b(0x00C, 2_000_000_000);
        b(0x014, word14(4, NA_RESET));
    };
    let mut up = Bench::new();
    rmin_run(&mut |a, d| up.cfg(a, d));
    let mut ours = Bench::ours();
    rmin_run(&mut |a, d| ours.cfg(a, d));
    for b in [up.cycle, ours.cycle] {
        assert!(b > 0);
    }
    let c = up.cycle.max(ours.cycle) + 2;
    up.pulse(c);
    ours.pulse(c);
    up.run_to(c + 30);
    ours.run_to(c + 30);
    let (u, o) = (up.read(0x018), ours.read(0x018));
    assert_eq!((u, o), (2_000_000_000, L));
    let bpc = |r: u32| (u64::from(r) * 1_801_440) >> 32;
    println!(
        "Rai = 0xFFFFFFFB: upstream Rt = {up_rt} after the additive step, ours L; Rmin = 2e9: upstream \
         Rc = {u} ({:.2} B/clk of tokens, line rate is 8), ours Rc = {o}",
        bpc(u) as f64 / 65536.0,
        up_rt = L - 5
    );
}

/// Rt changes over the first `n` increases after a second CNP lowered Rt (clamp = 1), with `t`.
fn rt_steps<D: Dut>(mut b: Bench<D>, t: u32, n: usize) -> Vec<i64> {
    b.cfg(0x000, word0(1020, 1, t, true));
    b.cfg(0x010, 100);
    b.cfg(0x014, word14(5, NA_RESET));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.pulse(c0 + 50);
    b.run_to(c0 + 80 + 110 * n as u64);
    let ch = b.changes(c0 + 80, b.cycle, rc);
    ch.iter()
        .take(n)
        .map(|&(k, _)| i64::from(b.at(k).rt) - i64::from(b.at(k - 1).rt))
        .collect()
}

#[test]
fn defect_t_0_is_255_fast_recovery_steps() {
    let up = rt_steps(Bench::new(), 0, 4);
    let ours = rt_steps(Bench::ours(), 0, 4);
    assert_eq!(up, [0, 0, 0, 0], "upstream: fast recovery");
    assert_eq!(ours, [12_000_000; 4], "ours: hyper from the first increase");
    println!("T = 0, Rt steps of the first 4 increases: upstream {up:?}, ours {ours:?}");
}

/// Rc after a CNP that follows a bypass on/off pulse, which itself followed a first CNP.
fn after_bypass<D: Dut>(mut b: Bench<D>) -> (u32, u16) {
    b.cfg(0x014, word14(10, 30));
    let c0 = b.cycle + 2;
    b.pulse(c0);
    b.run_to(c0 + 500);
    b.cfg(0x024, 1);
    b.idle(500);
    b.cfg(0x024, 0);
    let c1 = b.cycle + 2;
    b.pulse(c1);
    b.run_to(c1 + 30);
    let p = b.at(b.cycle);
    (p.rc, p.alpha)
}

#[test]
fn defect_bypass_does_not_restart_the_reaction_point() {
    let (up_rc, up_alpha) = after_bypass(Bench::new());
    let (ours_rc, ours_alpha) = after_bypass(Bench::ours());
    assert_eq!(
        (ours_rc, ours_alpha),
        (HALVED, 1023),
        "ours: a first CNP again"
    );
    assert!(
        up_rc > HALVED && up_alpha < 1023,
        "upstream: the decayed alpha cuts less"
    );
    println!(
        "CNP after a bypass pulse: upstream Rc = {up_rc} (alpha {up_alpha}), ours Rc = {ours_rc} (alpha {ours_alpha})"
    );
}

/// The CNP count after 3 CNPs and two writes of 1 to cnpCntRst.
fn count_after_two_clears<D: Dut>(mut b: Bench<D>) -> u32 {
    b.cfg(0x024, 1);
    b.cfg(0x020, 0x400);
    for k in 0..3 {
        let c = b.cycle + 2 + 4 * k;
        b.pulse(c);
    }
    b.idle(20);
    b.cfg(0x020, 0x400);
    b.idle(5);
    b.read(0x020) >> 11
}

#[test]
fn defect_cnp_cnt_rst_acts_only_on_a_0_to_1_write() {
    let (up, ours) = (
        count_after_two_clears(Bench::new()),
        count_after_two_clears(Bench::ours()),
    );
    assert_eq!((up, ours), (3, 0));
    println!("count after a second write of 1 to cnpCntRst: upstream {up}, ours {ours}");
}

/// Word 0x000 after a one-byte write (lane 2) meant to set clampTgtRate.
fn config_after_byte_write<D: Dut>(mut b: Bench<D>) -> u32 {
    assert_eq!(b.write_strb(0x000, 0x0040_0000, 0x4).0, 0);
    b.read(0x000)
}

#[test]
fn defect_wstrb_is_ignored_at_the_wrapper() {
    let up = config_after_byte_write(Bench::new());
    let ours = config_after_byte_write(Bench::ours());
    // Upstream: alphaG = 0, dec_gain = 0, T = 0 (then no decrease ever: see G = 0).
    assert_eq!(up, 0x0040_0000);
    // Ours: only lane 2 (bits 23:16): T[7:2] = 0, clamp = 1, the rest kept.
    assert_eq!(ours, 0x0040_0000 | (1 << 14) | (1 << 10) | 0x3FC);
    println!(
        "0x000 after writing 0x00400000 with WSTRB = 0x4: upstream {up:#010x}, ours {ours:#010x}"
    );
}

/// BRESP of a write to Rc (read-only) issued together with a read.
fn ro_write_with_read<D: Dut>(mut b: Bench<D>) -> u8 {
    let both = Inputs {
        axil: AxilIn {
            awaddr: 0x018,
            awvalid: true,
            wdata: 7,
            wstrb: 0xF,
            wvalid: true,
            bready: true,
            araddr: 0x004,
            arvalid: true,
            rready: true,
        },
        ..Inputs::default()
    };
    loop {
        let o = b.step(&both);
        if o.awready {
            break;
        }
    }
    loop {
        let o = b.step(&Inputs {
            axil: AxilIn {
                bready: true,
                rready: true,
                ..AxilIn::default()
            },
            ..Inputs::default()
        });
        if o.bvalid {
            return o.bresp;
        }
    }
}

#[test]
fn defect_read_only_write_answers_okay_during_a_read() {
    let (up, ours) = (
        ro_write_with_read(Bench::new()),
        ro_write_with_read(Bench::ours()),
    );
    assert_eq!((up, ours), (0, 3));
    println!("BRESP of a write to 0x018 taken with a read: upstream {up}, ours {ours} (DECERR)");
}
