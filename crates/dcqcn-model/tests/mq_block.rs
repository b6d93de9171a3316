//! `MqBlock` driven through its ports: the worked examples of spec-mq, the hazards of 4.7, the
//! window access protocol (6.1), reset values (6.2) and the nonsense values of section 7.

mod mq_common;

use dcqcn_model::mq::obs::{STATE_FIELDS, STREAMS};
use dcqcn_model::mq::regs::{addr, DECERR, OKAY};
use dcqcn_model::mq::{Credit, MqInputs, MqParams, QpEvent};
use mq_common::{ev, Tb};

const W_RATE: u32 = 0x08;
const W_TARGET: u32 = 0x0C;
const W_ALPHA: u32 = 0x10;
const W_T_BC: u32 = 0x20;
const W_CC_RATE: u32 = 0x28;
const W_CREDIT: u32 = 0x30;
const W_OST: u32 = 0x38;
const W_SENT: u32 = 0x3C;
const W_REQ: u32 = 0x40;
const W_CTRL: u32 = 0x44;

fn req(qp: u16, bytes: u16) -> MqInputs {
    MqInputs {
        req: ev(qp, bytes),
        ..MqInputs::default()
    }
}
fn cnp(qp: u16) -> MqInputs {
    MqInputs {
        cnp: ev(qp, 0),
        ..MqInputs::default()
    }
}
fn rpt(qp: u16, bytes: u16) -> MqInputs {
    MqInputs {
        rpt: ev(qp, bytes),
        ..MqInputs::default()
    }
}

fn rc_of(tb: &Tb, q: usize) -> u32 {
    tb.b.mems().record(q).rc
}

// ---------------------------------------------------------------------------------------------
// Reset values (spec-mq 4.2, 6.2) and the init round (4.3, 6.3).

#[test]
fn reset_values_of_every_register_in_the_obs_state() {
    let tb = Tb::new(1024);
    let p = MqParams::DEFAULT;
    let expect: &[(&str, u64)] = &[
        ("init", 1),
        ("rr", 1023),
        ("pcredit", 67_108_864),
        ("cfg_dcqcn_hw_en", 1),
        ("cfg_hw_rate_throttle_en", 1),
        ("cfg_tx_wqe_ost_limit_en", 1),
        ("cfg_speed_limiter_en", 1),
        ("cfg_cnp_merge_period", 625),
        ("cfg_nocnp_timer_th", 234_375),
        ("cfg_byte_cnt_th", 0),
        ("cfg_max_rate", 0),
        ("cfg_alpha_timer_th", 8594),
        ("cfg_upd_alpha_g", 4),
        ("cfg_alpha_rate_shift", 1),
        ("cfg_alpha_init", 1023),
        ("cfg_rate_ai", 39),
        ("cfg_rate_hai", 79),
        ("cfg_rate_min", 66),
        ("cfg_stage_threshold", 5),
        ("cfg_clamp_tgt", 0),
        ("cfg_cnp_timer_thrd", 15_625),
        ("cfg_ost_limit", 16),
        ("cfg_ost_limit_cnp", 8),
        ("cfg_credit_cap", 65_536),
    ];
    let obs = tb.b.obs_state();
    assert_eq!(obs.state.len(), STATE_FIELDS.len());
    let names: Vec<_> = tb.b.state_fields().iter().map(|f| f.0).collect();
    let spec: Vec<_> = STATE_FIELDS.iter().map(|f| f.0).collect();
    assert_eq!(names, spec, "state_fields follows obs.rs");
    for (k, f) in STATE_FIELDS.iter().enumerate() {
        let want = expect.iter().find(|e| e.0 == f.0).map_or(0, |e| e.1);
        assert_eq!(obs.state[k], want, "{}", f.0);
        assert!(f.1 == 64 || obs.state[k] < 1 << f.1, "{} fits", f.0);
    }
    // Bitmaps: rate_ok, ost_lt_hi, ost_lt_lo are 1, the others 0.
    for (k, map) in obs.bitmaps.iter().enumerate() {
        let one = (1..=3).contains(&k);
        assert_eq!(map.len(), 16);
        assert!(
            map.iter().all(|&w| w == if one { u64::MAX } else { 0 }),
            "bitmap {k}"
        );
    }
    assert!(obs.writes.iter().all(|w| !w.valid));
    assert!(tb.b.mems().rate_mem.iter().all(|&w| w == 0));
    assert_eq!(p.line_win(), 8192);
    // Padding bits above QPS stay 0.
    let small = Tb::new(70);
    assert_eq!(small.b.obs_state().bitmaps[1], vec![u64::MAX, (1 << 6) - 1]);
}

#[test]
fn global_words_read_their_reset_values_after_the_init_round() {
    let mut tb = Tb::ready(1024);
    let words: &[(u32, u32)] = &[
        (addr::ID, 0xDC4D_0100),
        (addr::PARAMS, 1024),
        (addr::LINE_WIN, 8192),
        (addr::STATUS, 0),
        (addr::ENABLES, 0xF),
        (addr::CNP_MERGE_PERIOD, 625),
        (addr::NOCNP_TIMER_TH, 234_375),
        (addr::BYTE_CNT_TH, 0),
        (addr::MAX_RATE, 0),
        (addr::ALPHA_TIMER_TH, 8594),
        (addr::ALPHA_CFG, 4 | (1 << 16) | (1023 << 20)),
        (addr::RATE_AI, 39),
        (addr::RATE_HAI, 79),
        (addr::RATE_MIN, 66),
        (addr::INC_CFG, 5),
        (addr::CNP_TIMER_THRD, 15_625),
        (addr::OST_LIMITS, 16 | (8 << 8)),
        (addr::CREDIT_CAP, 65_536),
        (addr::PORT_CREDIT, 67_108_864),
        (addr::CNT_CTRL, 0),
        (addr::CNT_CNP, 0),
        (addr::CNT_INIT_DROP, 0),
        (addr::DFX_CTRL, 0),
        (addr::DFX_STATUS, 0),
        (addr::DFX_COUNTS, 0),
        (addr::DFX_TIME, 0),
        (addr::DFX_SEL, 0),
        (addr::DFX_ENTRY, 0),
        (addr::DFX_RC, 0),
        (addr::DFX_STAMP, 0),
        (addr::DFX_QP, 0),
    ];
    for &(a, want) in words {
        assert_eq!(tb.read(a), (want, OKAY), "word {a:#x}");
    }
    // `now` reads the cycle count: S(t).now of the accepting cycle t is t - 1.
    let (now, r, acc, _) = tb.read_full(addr::NOW);
    assert_eq!((u64::from(now), r), (acc - 1, OKAY));
    // The window's values after the init round (spec-mq 6.3).
    let win: &[(u32, u32, u32)] = &[
        (5, 0x00, 0xFFFF),
        (5, W_RATE, 8192),
        (5, W_TARGET, 8192),
        (5, W_ALPHA, 1023),
        (5, 0x18, 0),
        (5, 0x1C, 0),
        (5, W_T_BC, 0),
        (5, 0x24, 0),
        (5, W_CC_RATE, 8192),
        (5, W_CREDIT, 67_108_864),
        (5, 0x34, 5),
        (700, 0x34, 700),
        (5, W_OST, 0),
        (5, W_SENT, 0),
        (5, W_REQ, 0),
        (5, W_CTRL, (1 << 8) | (1 << 11) | (1 << 12)),
    ];
    // `cnp_el` counts at every normal visit (spec-mq 5.4 step 1): a whole number of QPS.
    let (cnp_el, _) = tb.read(Tb::win(5, 0x04));
    assert!(cnp_el > 0 && cnp_el % 1024 == 0);
    for &(q, off, want) in win {
        assert_eq!(
            tb.read(Tb::win(q, off)),
            (want, OKAY),
            "QP {q} word {off:#x}"
        );
    }
}

#[test]
fn init_round_writes_every_entry_and_status_shows_it() {
    let mut tb = Tb::new(4);
    for q in 0..4u16 {
        let (_, o) = tb.b.step_obs(&MqInputs::default());
        tb.cycle += 1;
        let wv = &o.writes[0];
        assert!(wv.valid && wv.qp == q);
        assert_eq!(wv.field(&STREAMS[0], 0), 8192, "rc");
        assert_eq!(wv.field(&STREAMS[0], 5), 0xFFFF, "merge_el");
        let wg = &o.writes[1];
        assert!(wg.valid && wg.qp == q);
        assert_eq!(wg.field(&STREAMS[1], 0), 67_108_864);
        assert_eq!(wg.field(&STREAMS[1], 1), u64::from(q), "stamp = now = q");
        assert!(o.writes[2].valid && o.writes[2].qp == q);
        assert_eq!(o.state[2], 1, "init in S(t)");
    }
    assert_eq!(tb.field("init"), 0);
    assert_eq!(tb.cycle, 5, "the init round is cycles 1..QPS");
}

// ---------------------------------------------------------------------------------------------
// spec-mq 5.5, the example at QPS = 4.

#[test]
fn example_5_5_cnp_decrease_decay_lim8_and_timer_increase() {
    let mut tb = Tb::new(4);
    // QP 2 is visited in cycles 7, 11, 15, ...
    tb.idle_until(7);
    let (_, o) = tb.b.step_obs(&MqInputs::default());
    tb.cycle += 1;
    assert!(o.writes[0].valid && o.writes[0].qp == 2);
    tb.idle_until(9);
    tb.step(cnp(2));
    assert!(tb.b.state().bitmaps.cnp_flag.get(2) && tb.b.state().bitmaps.lim8.get(2));
    tb.step(MqInputs::default()); // cycle 10
    assert_eq!(rc_of(&tb, 2), 8192);
    tb.step(MqInputs::default()); // cycle 11: the visit decreases
    let r = tb.b.mems().record(2);
    assert_eq!(
        (r.rc, r.rt, r.alpha, r.active, r.cc_rate),
        (4100, 8192, 1023, true, 4100)
    );
    assert!(!tb.b.state().bitmaps.cnp_flag.get(2));
    assert_eq!(tb.field("cnt_dec"), 1);
    assert_eq!(tb.field("cnt_cnp"), 1);

    tb.idle_until(8607);
    assert_eq!(tb.b.mems().record(2).alpha, 1023);
    tb.step(MqInputs::default());
    assert_eq!(tb.b.mems().record(2).alpha, 1019, "alpha decays at 8607");

    tb.idle_until(15_639);
    assert!(tb.b.state().bitmaps.lim8.get(2));
    tb.step(MqInputs::default());
    assert!(!tb.b.state().bitmaps.lim8.get(2), "lim8 clears at 15639");

    tb.idle_until(234_387);
    assert_eq!(rc_of(&tb, 2), 4100);
    assert_eq!(tb.field("cnt_inc_fr"), 0);
    tb.step(MqInputs::default());
    let r = tb.b.mems().record(2);
    assert_eq!(
        (r.rc, r.rt, r.t_stage),
        (6146, 8192, 1),
        "first timer increase at 234387"
    );
    assert_eq!(tb.field("cnt_inc_fr"), 1);
    assert_eq!(tb.field("cnt_inc_timer"), 1);
    assert_eq!(tb.field("cnt_inc_byte"), 0);
}

#[test]
fn example_5_5_second_cnp_at_12_is_merged_and_served_at_639() {
    let mut tb = Tb::new(4);
    tb.idle_until(9);
    tb.step(cnp(2));
    tb.idle_until(12);
    tb.step(cnp(2));
    tb.idle_until(15);
    tb.step(MqInputs::default()); // cycle 15: consumed, merged (m1 = 4 < 625)
    let r = tb.b.mems().record(2);
    assert!(r.dec_pending);
    assert_eq!((r.merge_el, r.alpha_el, r.cnp_el, r.rc), (4, 0, 0, 4100));
    tb.idle_until(639);
    assert_eq!(tb.field("cnt_dec"), 1);
    assert!(tb.b.mems().record(2).dec_pending);
    tb.step(MqInputs::default());
    assert_eq!(tb.field("cnt_dec"), 2, "served at 639");
    let r = tb.b.mems().record(2);
    assert!(!r.dec_pending);
    assert_eq!(r.rc, 4100 - ((4100 * 1023) >> 11));
}

// ---------------------------------------------------------------------------------------------
// spec-mq 4.5: picker order, grant timing, token bucket, speed limiter.

#[test]
fn picker_order_through_the_block_qps_8_rr_5() {
    let mut tb = Tb::ready(8);
    tb.b.state_mut().grant.rr = 5;
    for q in [1, 3, 6] {
        let mut i = req(q, 10);
        i.grant_pause = true;
        tb.step(i);
    }
    tb.idle(10);
    let order: Vec<u16> = tb.grants.iter().map(|g| g.1).collect();
    assert_eq!(order, [6, 1, 3]);
    // Three QPs sustain one grant per cycle.
    let c: Vec<u64> = tb.grants.iter().map(|g| g.0).collect();
    assert_eq!((c[1] - c[0], c[2] - c[1]), (1, 1));
}

#[test]
fn grant_appears_two_cycles_after_the_pick_and_pause_skids_two() {
    let mut tb = Tb::ready(4);
    let t = tb.cycle;
    tb.step(req(1, 100)); // accepted at t, picked at t + 1
    tb.idle(4);
    assert_eq!(tb.grants, vec![(t + 3, 1, 100)]);
    assert_eq!(tb.field("cnt_grant"), 1);
    assert_eq!(tb.field("cnt_grant_bytes"), 100);
    // grant_pause in cycle u: grants in u and u + 1 only (picks of u - 2, u - 1).
    tb.grants.clear();
    for q in 0..4 {
        tb.step(req(q, 1));
    }
    let u = tb.cycle;
    let pause = MqInputs {
        grant_pause: true,
        ..MqInputs::default()
    };
    for _ in 0..6 {
        tb.step(pause);
    }
    assert!(
        tb.grants.iter().all(|g| g.0 < u + 2),
        "{:?} u {u}",
        tb.grants
    );
    tb.idle(10);
    assert_eq!(tb.grants.len(), 4);
}

#[test]
fn token_bucket_example_rate_4100_units_of_4096_bytes() {
    let mut tb = Tb::ready(4);
    // Scheme 2 with the outstanding limit off: firmware's rate, hardware throttle.
    assert_eq!(tb.write(addr::ENABLES, 0b1010), OKAY);
    assert_eq!(tb.write(Tb::win(1, W_CC_RATE), 4100), OKAY);
    let mut n = 0;
    while tb.grants.len() < 1200 {
        tb.step(req(1, 4096));
        n += 1;
        assert!(n < 2_000_000);
    }
    let c: Vec<u64> = tb.grants.iter().map(|g| g.0).collect();
    // Past the initial burst of the full bucket (65,536 bytes = 16 units).
    let span = c[1100] - c[100];
    // 1000 units at 4,194,304 / 4,100 = 1,023.001 cycles each, to within the wake jitter.
    assert!(
        (1_023_000 - 8..=1_023_001 + 8).contains(&span),
        "span {span}"
    );
    assert!(
        c[..20].windows(2).take(15).all(|w| w[1] - w[0] <= 4),
        "burst {:?}",
        &c[..20]
    );
}

#[test]
fn speed_limiter_blocks_picks_while_the_port_credit_is_not_positive() {
    let mut tb = Tb::ready(4);
    tb.write(addr::CREDIT_CAP, 0); // acts as 1: CAPQ = 1024
    assert_eq!(tb.field("pcredit"), 1024);
    tb.write(addr::ENABLES, 0b1001); // hw, speed limiter; no throttle, no ost limit
    tb.grants.clear();
    for _ in 0..200 {
        tb.step(req(2, 100));
    }
    // Each grant charges 102,400 units; the port refills 8,192 per cycle: one grant per 13 cycles.
    let c: Vec<u64> = tb.grants.iter().map(|g| g.0).collect();
    assert!(c.len() > 5);
    assert!(c.windows(2).all(|w| w[1] - w[0] >= 12), "{c:?}");
    assert!(tb.field("pcredit") as u32 as i32 <= 1024);
}

// ---------------------------------------------------------------------------------------------
// spec-mq 4.6: outstanding count through the block.

#[test]
fn joint_count_grant_and_report_in_one_cycle_and_spurious_reports() {
    let mut tb = Tb::ready(4);
    tb.step(req(3, 10));
    tb.idle(4); // one grant: count 1
    assert_eq!(tb.b.mems().grant_cnt_mem[3], 1);
    // Request at c: grant executed at c + 2. Report at c + 1: executed at c + 2 as well.
    tb.step(req(3, 20));
    tb.step(rpt(3, 7));
    tb.step(MqInputs::default());
    tb.idle(2);
    let m = tb.b.mems();
    assert_eq!(
        (m.grant_cnt_mem[3], m.done_cnt_mem[3], m.sent_mem[3]),
        (2, 1, 7)
    );
    assert_eq!(tb.field("cnt_rpt_spurious"), 0);
    // Two reports for one outstanding grant: the second is spurious and still adds its bytes.
    tb.step(rpt(3, 5));
    tb.step(rpt(3, 6));
    tb.idle(2);
    let m = tb.b.mems();
    assert_eq!(
        (m.grant_cnt_mem[3], m.done_cnt_mem[3], m.sent_mem[3]),
        (2, 2, 18)
    );
    assert_eq!(tb.field("cnt_rpt_spurious"), 1);
    assert_eq!(tb.field("cnt_rpt"), 3);
    let (ost, _) = tb.read(Tb::win(3, W_OST));
    assert_eq!(ost, 2 | (2 << 8));
}

#[test]
fn outstanding_limit_drops_to_ost_limit_cnp_at_once_after_a_cnp() {
    let mut tb = Tb::ready(4);
    tb.write(addr::ENABLES, 0b0101); // hw and ost limit; no throttle, no speed limiter
    tb.grants.clear();
    for _ in 0..100 {
        tb.step(req(0, 1));
    }
    assert_eq!(tb.grants.len(), 16, "ost_limit 16");
    assert!(!tb.b.state().bitmaps.ost_lt_hi.get(0));
    // A CNP, then retire 8: count 8, below 16 but not below 8. The request waits in its slot.
    tb.step(cnp(0));
    tb.grants.clear();
    for _ in 0..8 {
        tb.step(rpt(0, 1));
    }
    for _ in 0..20 {
        tb.step(req(0, 1));
    }
    assert!(tb.b.state().bitmaps.ost_lt_hi.get(0) && !tb.b.state().bitmaps.ost_lt_lo.get(0));
    assert!(
        tb.grants.is_empty(),
        "lim8 selects ost_lt_lo: 8 is not below 8"
    );
    tb.step(rpt(0, 1));
    for _ in 0..20 {
        tb.step(req(0, 1));
    }
    assert_eq!(tb.grants.len(), 1);
}

#[test]
fn count_saturates_at_255() {
    let mut tb = Tb::ready(4);
    tb.write(addr::ENABLES, 0b0001);
    tb.b.mems_mut().grant_cnt_mem[1] = 255;
    tb.step(req(1, 1));
    tb.idle(4);
    assert_eq!(tb.grants.len(), 1);
    assert_eq!(tb.b.mems().grant_cnt_mem[1], 255, "count stays 255");
}

// ---------------------------------------------------------------------------------------------
// spec-mq 4.7: events meeting on one QP.

#[test]
fn cnp_at_the_visit_of_its_qp_is_consumed_at_the_next_visit() {
    let mut tb = Tb::ready(4);
    let v = tb.visit_at_or_after(1, tb.cycle);
    tb.idle_until(v);
    tb.step(cnp(1));
    assert_eq!(rc_of(&tb, 1), 8192);
    assert!(
        tb.b.state().bitmaps.cnp_flag.get(1),
        "set wins over the visit's clear"
    );
    tb.idle_until(v + 4);
    tb.step(MqInputs::default());
    assert_eq!(rc_of(&tb, 1), 4100);
}

#[test]
fn cnp_in_the_visit_that_clears_lim8_sets_it_again() {
    let mut tb = Tb::ready(4);
    tb.write(addr::CNP_TIMER_THRD, 0);
    let v = tb.visit_at_or_after(2, tb.cycle + 2);
    tb.idle_until(v - 1);
    tb.step(cnp(2));
    tb.step(MqInputs::default()); // v: consumes; cnp_el 0
    assert!(tb.b.state().bitmaps.lim8.get(2));
    tb.idle_until(v + 4);
    tb.step(cnp(2)); // the visit clears lim8 (threshold 0), the CNP sets it: set wins
    assert!(tb.b.state().bitmaps.lim8.get(2));
    tb.idle_until(v + 8);
    tb.step(MqInputs::default()); // consumes the CNP: no clear at this visit
    assert!(tb.b.state().bitmaps.lim8.get(2));
    tb.idle_until(v + 12);
    tb.step(MqInputs::default()); // k = 1 after the last consumed CNP
    assert!(!tb.b.state().bitmaps.lim8.get(2));
}

#[test]
fn request_in_its_slots_pick_cycle_is_dropped() {
    let mut tb = Tb::ready(4);
    tb.step(req(2, 1)); // accepted
    tb.step(req(2, 2)); // the pick cycle: slot full in S(t)
    tb.step(req(2, 3)); // accepted
    assert_eq!(tb.field("cnt_req"), 2);
    assert_eq!(tb.field("cnt_req_drop"), 1);
    tb.idle(6);
    let b: Vec<u16> = tb.grants.iter().map(|g| g.2).collect();
    assert_eq!(b, [1, 3]);
}

#[test]
fn grant_and_visit_in_one_cycle_the_grants_rate_ok_wins() {
    let mut tb = Tb::ready(4);
    tb.write(addr::CREDIT_CAP, 1);
    tb.write(addr::ENABLES, 0b0011); // hw, throttle
                                     // Spend the bucket: the QP's credit goes negative and rate_ok clears.
    tb.step(req(1, 1000));
    tb.idle(4);
    assert!(!tb.b.state().bitmaps.rate_ok.get(1));
    // Wait for the wake (credit positive at a visit), then post so that the grant executes in
    // the visit's cycle v: request at v - 2.
    let mut n = 0;
    while !tb.b.state().bitmaps.rate_ok.get(1) {
        tb.step(MqInputs::default());
        n += 1;
        assert!(n < 1000);
    }
    let v = tb.visit_at_or_after(1, tb.cycle + 2);
    tb.idle_until(v - 2);
    tb.step(req(1, 1000));
    tb.step(MqInputs::default());
    assert!(tb.b.state().grant.gx_valid && tb.b.state().grant.gx_qp == 1);
    assert!(
        Credit::unpack(tb.b.mems().cc_byte_cnt_mem[1]).credit < 0,
        "not yet charged back"
    );
    let (_, o) = tb.b.step_obs(&MqInputs::default()); // cycle v: grant execution and visit
    tb.cycle += 1;
    assert!(o.writes[0].valid && o.writes[0].qp == 1 && o.writes[1].valid && o.writes[1].qp == 1);
    assert!(
        !tb.b.state().bitmaps.rate_ok.get(1),
        "the grant's value wins over the wake"
    );
}

#[test]
fn arb_mask_written_at_a_visit_does_not_stop_that_cycles_pick() {
    for (post_at, granted) in [(-1i64, true), (0, false)] {
        let mut tb = Tb::ready(8);
        // Issue the window write so that it is pending, then find its completion visit.
        let (r, acc, resp) = tb.write_full(Tb::win(3, W_CTRL), 1, 0xF);
        assert_eq!(r, OKAY);
        let v = resp - 1;
        assert_eq!(v, tb.visit_at_or_after(3, acc + 1));
        // Second round: a fresh block, same timing, with the request around the visit.
        let mut tb2 = Tb::ready(8);
        let mut i = MqInputs::default();
        i.axil.awaddr = Tb::win(3, W_CTRL);
        i.axil.awvalid = true;
        i.axil.wvalid = true;
        i.axil.wdata = 1;
        i.axil.wstrb = 0xF;
        tb2.idle_until(acc);
        tb2.step(i);
        let mut bi = MqInputs::default();
        bi.axil.bready = true;
        let at = (v as i64 + post_at) as u64;
        tb2.idle_until(at - 1);
        tb2.step(bi);
        tb2.step(req(3, 9)); // accepted at `at`, picked at at + 1
        tb2.idle(6);
        assert_eq!(!tb2.grants.is_empty(), granted, "post at v{post_at:+}");
        assert!(tb2.b.state().bitmaps.arb_mask.get(3));
        drop(tb);
    }
}

#[test]
fn window_read_and_write_completing_at_one_visit_read_the_old_value() {
    let mut tb = Tb::ready(8);
    let mut i = MqInputs::default();
    i.axil.awaddr = Tb::win(6, W_TARGET);
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.wdata = 1234;
    i.axil.wstrb = 0xF;
    i.axil.araddr = Tb::win(6, W_TARGET);
    i.axil.arvalid = true;
    let o = tb.step(i);
    assert!(o.s_axil_awready && o.s_axil_arready);
    let mut got_b = None;
    let mut got_r = None;
    let mut idle = MqInputs::default();
    idle.axil.bready = true;
    idle.axil.rready = true;
    for _ in 0..20 {
        let c = tb.cycle;
        let o = tb.step(idle);
        if o.s_axil_bvalid {
            got_b = Some((c, o.s_axil_bresp));
        }
        if o.s_axil_rvalid {
            got_r = Some((c, o.s_axil_rdata, o.s_axil_rresp));
        }
    }
    let (cb, rb) = got_b.unwrap();
    let (cr, d, rr) = got_r.unwrap();
    assert_eq!((cb, rb, rr), (cr, OKAY, OKAY));
    assert_eq!(d, 8192, "the read returns S(t) of the visit");
    assert_eq!(tb.b.mems().record(6).rt, 1234);
}

#[test]
fn request_in_a_qp_clear_cycle_stays_and_the_clear_resets_the_qp() {
    let mut tb = Tb::ready(4);
    // QP 0: a CNP, a decrease, outstanding grants and a request pending; then a clear.
    tb.write(addr::ENABLES, 0b0101);
    tb.step(cnp(0));
    tb.idle(8);
    tb.step(req(0, 5));
    tb.idle(4);
    tb.step(rpt(0, 100));
    tb.idle(2);
    assert_eq!(rc_of(&tb, 0), 4100);
    let sent = tb.b.mems().sent_mem[0];
    // Post the clear; place a request in the completion cycle.
    let mut i = MqInputs::default();
    i.axil.awaddr = Tb::win(0, W_CTRL);
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.wdata = 0b10;
    i.axil.wstrb = 1;
    let acc = tb.cycle;
    tb.step(i);
    let v = tb.visit_at_or_after(0, acc + 1);
    tb.idle_until(v);
    tb.grants.clear();
    tb.step(req(0, 77));
    let m = tb.b.mems();
    let r = m.record(0);
    assert_eq!(
        (r.rc, r.rt, r.alpha, r.merge_el, r.active, r.sent_seen),
        (8192, 8192, 1023, 0xFFFF, false, sent)
    );
    let c = m.credit(0);
    assert_eq!((c.credit, u64::from(c.stamp)), (67_108_864, v - 1));
    assert_eq!(m.grant_cnt_mem[0], m.done_cnt_mem[0], "count 0");
    let bm = &tb.b.state().bitmaps;
    assert!(
        bm.req_valid.get(0),
        "the request accepted in the clear's cycle stays"
    );
    assert!(bm.rate_ok.get(0) && !bm.lim8.get(0) && !bm.cnp_flag.get(0) && !bm.arb_mask.get(0));
    assert_eq!(tb.b.mems().req_mem[0], 77);
    tb.idle(5);
    assert_eq!(tb.grants.iter().map(|g| g.2).collect::<Vec<_>>(), [77]);
}

#[test]
fn qp_clear_suppresses_the_pick_before_it_and_a_same_cycle_report_is_spurious() {
    let mut tb = Tb::ready(4);
    tb.write(addr::ENABLES, 0b0101);
    tb.step(req(2, 5));
    tb.idle(4); // count 1
    let mut i = MqInputs::default();
    i.axil.awaddr = Tb::win(2, W_CTRL);
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.wdata = 0b10;
    i.axil.wstrb = 1;
    let acc = tb.cycle;
    tb.step(i);
    let v = tb.visit_at_or_after(2, acc + 1);
    // A request to another QP posted at v - 2 would be picked at v - 1: suppressed.
    tb.idle_until(v - 2);
    tb.grants.clear();
    tb.step(req(1, 3));
    tb.step(rpt(2, 9)); // executed at v, with the clear
    assert!(!tb.b.state().grant.gx_valid, "no pick in v - 1");
    tb.step(MqInputs::default()); // v
    assert_eq!(tb.field("cnt_rpt_spurious"), 1);
    let m = tb.b.mems();
    assert_eq!(m.grant_cnt_mem[2], m.done_cnt_mem[2]);
    tb.idle(4);
    assert_eq!(tb.grants.len(), 1, "the other QP is picked one cycle later");
}

/// spec-mq 4.5 clear_next, second term: a qp_clear accepted in the cycle just before its QP's
/// visit is pending at that visit and completes there; the pick of the accepting cycle is
/// suppressed, so no grant execution meets the clear and no picked request is lost. (Without the
/// term the request picked in v - 1 was emptied from its slot and never granted.)
#[test]
fn qp_clear_accepted_just_before_its_visit_suppresses_the_pick_and_loses_no_grant() {
    for qps in [4u32, 64] {
        let mut tb = Tb::ready(qps);
        let (qc, qr) = (2, 1);
        let v = tb.visit_at_or_after(qc, tb.cycle + 4);
        tb.idle_until(v - 2);
        tb.grants.clear();
        tb.step(req(qr, 3)); // v - 2: accepted, eligible in v - 1
        let mut i = MqInputs::default();
        i.axil.awaddr = Tb::win(qc, W_CTRL);
        i.axil.awvalid = true;
        i.axil.wvalid = true;
        i.axil.wdata = 0b10;
        i.axil.wstrb = 1;
        let o = tb.step(i); // v - 1: the clear is accepted
        assert!(o.s_axil_awready, "QPS {qps}: accepted in v - 1");
        assert!(!tb.b.state().grant.gx_valid, "QPS {qps}: no pick in v - 1");
        let mut i = MqInputs::default();
        i.axil.bready = true;
        tb.step(i); // v: the clear completes
        assert_eq!(tb.field("wpend"), 0, "QPS {qps}: the clear completed at v");
        tb.idle(4);
        assert_eq!(
            tb.grants.iter().map(|g| (g.1, g.2)).collect::<Vec<_>>(),
            [(qr, 3)],
            "QPS {qps}: the request is granted once"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// spec-mq 6.1: windows, latency, DECERR.

#[test]
fn window_access_completes_at_the_next_normal_visit_and_answers_next_cycle() {
    let mut tb = Tb::ready(8);
    for (q, pad) in [(0u32, 0u64), (5, 3), (7, 11), (2, 1)] {
        tb.idle(pad);
        let (r, acc, resp) = tb.write_full(Tb::win(q, W_RATE), 5000 + q, 0xF);
        assert_eq!(r, OKAY);
        assert_eq!(resp, tb.visit_at_or_after(q, acc + 1) + 1, "write QP {q}");
        assert!(resp - acc <= 8 + 2);
        let (d, r, acc, resp) = tb.read_full(Tb::win(q, W_RATE));
        assert_eq!(resp, tb.visit_at_or_after(q, acc + 1) + 1, "read QP {q}");
        // hw = 1: the visit ran 5.4 and clamped nothing; the written rc stays until the QP's
        // next visit rewrites it (no event).
        assert_eq!((d, r), (5000 + q, OKAY));
        assert_eq!(
            tb.b.mems().cc_rate_mem[q as usize],
            5000 + q,
            "applied rate = rc'"
        );
    }
    // Status shows the pending write.
    let mut i = MqInputs::default();
    i.axil.awaddr = Tb::win(4, W_TARGET);
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.wstrb = 0xF;
    tb.step(i);
    assert_eq!(tb.field("wpend"), 1);
    let (st, _) = tb.read(addr::STATUS);
    assert_eq!(st & 0b110, 0b010);
}

#[test]
fn window_writes_during_the_init_round_wait_for_the_first_normal_visit() {
    let mut tb = Tb::new(4);
    let (r, acc, resp) = tb.write_full(Tb::win(3, W_TARGET), 100, 0xF);
    assert_eq!((r, acc), (OKAY, 1));
    assert_eq!(resp, 4 + 1 + 3 + 1, "QP 3's first normal visit is cycle 8");
    assert_eq!(tb.b.mems().record(3).rt, 100);
}

#[test]
fn decerr_cases() {
    let mut tb = Tb::ready(8);
    // Window: QP >= QPS, unmapped words, writes to read-only words: answered at once.
    for a in [
        Tb::win(8, W_RATE),
        Tb::win(4095, W_RATE),
        Tb::win(1, 0x14),
        Tb::win(1, 0x2C),
        Tb::win(1, 0x48),
        Tb::win(1, 0xFC),
    ] {
        let (d, r, acc, resp) = tb.read_full(a);
        assert_eq!((d, r, resp), (0, DECERR, acc + 1), "read {a:#x}");
        let (r, acc, resp) = tb.write_full(a, 0xFFFF_FFFF, 0xF);
        assert_eq!((r, resp), (DECERR, acc + 1), "write {a:#x}");
    }
    for off in [W_CREDIT, 0x34, W_OST, W_SENT, W_REQ] {
        let (r, acc, resp) = tb.write_full(Tb::win(1, off), 1, 0xF);
        assert_eq!((r, resp), (DECERR, acc + 1), "RO window word {off:#x}");
    }
    // Global: unmapped words, addr[19:12] != 0, writes to read-only words.
    for a in [0x050, 0x0FC, 0x144, 0x16C, 0x194, 0xFFC, 0x1000, 0x8_0010] {
        assert_eq!(tb.read(a), (0, DECERR), "read {a:#x}");
        assert_eq!(tb.write(a, 1), DECERR, "write {a:#x}");
    }
    for a in [
        addr::ID,
        addr::PARAMS,
        addr::LINE_WIN,
        addr::STATUS,
        addr::PORT_CREDIT,
        addr::NOW,
        addr::CNT_CNP,
        addr::CNT_INIT_DROP,
        addr::DFX_STATUS,
        addr::DFX_ENTRY,
        addr::DFX_STAMP,
    ] {
        assert_eq!(tb.write(a, 0xFFFF_FFFF), DECERR, "RO {a:#x}");
    }
    assert_eq!(tb.read(addr::ID), (0xDC4D_0100, OKAY));
    // No effect anywhere: the record of QP 1 is untouched, the window words still read OKAY.
    assert_eq!(tb.read(Tb::win(1, W_RATE)), (8192, OKAY));
    // addr[1:0] is ignored.
    assert_eq!(tb.read(addr::PARAMS | 3), (8, OKAY));
}

#[test]
fn byte_strobes_apply_lane_by_lane_and_unlisted_bits_read_0() {
    let mut tb = Tb::ready(4);
    let (r, _, _) = tb.write_full(addr::OST_LIMITS, 0xFFFF_FF03, 0b0001);
    assert_eq!(r, OKAY);
    assert_eq!(tb.read(addr::OST_LIMITS).0, 3 | (8 << 8));
    tb.write(addr::ALPHA_CFG, 0xFFFF_FFFF);
    assert_eq!(
        tb.read(addr::ALPHA_CFG).0,
        0x3FF | (0xF << 16) | (0x3FF << 20)
    );
    let (r, _, _) = tb.write_full(Tb::win(2, W_ALPHA), 0xABCD_0155, 0b0011);
    assert_eq!(r, OKAY);
    assert_eq!(tb.b.mems().record(2).alpha, 0x155);
}

#[test]
fn cnt_grant_bytes_lo_latches_the_high_word_and_cnt_clear_wins() {
    let mut tb = Tb::ready(4);
    tb.b.state_mut().regs.cnt.cnt_grant_bytes = 0x1_0000_0005;
    assert_eq!(tb.read(addr::CNT_GRANT_BYTES_HI).0, 0);
    assert_eq!(tb.read(addr::CNT_GRANT_BYTES_LO).0, 5);
    assert_eq!(tb.read(addr::CNT_GRANT_BYTES_HI).0, 1);
    assert_eq!(tb.field("cnt_grant_bytes_latch"), 1);
    // A clear and a read of the low word in one cycle: the clear wins.
    tb.b.state_mut().regs.cnt.cnt_grant_bytes = 0x2_0000_0000;
    let mut i = MqInputs::default();
    i.axil.awaddr = addr::CNT_CTRL;
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.wdata = 1;
    i.axil.wstrb = 1;
    i.axil.araddr = addr::CNT_GRANT_BYTES_LO;
    i.axil.arvalid = true;
    i.req = ev(1, 3); // counted in the same cycle: the clear wins
    tb.step(i);
    assert_eq!(tb.field("cnt_grant_bytes_latch"), 0);
    assert_eq!(tb.field("cnt_grant_bytes"), 0);
    assert_eq!(tb.field("cnt_req"), 0);
}

// ---------------------------------------------------------------------------------------------
// spec-mq 5.9: DFX.

#[test]
fn dfx_records_rate_events_of_the_selected_qp() {
    let mut tb = Tb::ready(4);
    tb.write(addr::DFX_QP, 2);
    tb.write(addr::DFX_CTRL, 1);
    tb.write(addr::NOCNP_TIMER_TH, 1); // an increase at every visit while active
    tb.step(cnp(3)); // another QP: not recorded
    tb.step(cnp(2));
    tb.idle(12);
    let (st, _) = tb.read(addr::DFX_STATUS);
    let count = st & 0x7F;
    assert!(count >= 2, "dec then increases: {st:#x}");
    assert_eq!(
        tb.read(addr::DFX_ENTRY).0,
        0x100,
        "entry 0: valid, decrease"
    );
    assert_eq!(tb.read(addr::DFX_RC).0, 4100);
    tb.write(addr::DFX_SEL, 1);
    assert_eq!(
        tb.read(addr::DFX_ENTRY).0,
        0x100 | 0b101,
        "timer, fast recovery"
    );
    assert_eq!(tb.read(addr::DFX_RC).0, 6146);
    let (counts, _) = tb.read(addr::DFX_COUNTS);
    assert_eq!(counts & 0x3FF, 1);
    assert!(counts >> 20 >= 1);
    // dfx_qp >= QPS is stored and records nothing; a clear empties the window, still armed.
    tb.write(addr::DFX_QP, 4000);
    tb.write(addr::DFX_CTRL, 0x101);
    assert_eq!(
        tb.field("dfx_count") + tb.field("dfx_n_dec") + tb.field("dfx_n_timer"),
        0
    );
    assert_eq!(tb.read(addr::DFX_CTRL).0, 1, "dfx_clear reads 0");
    tb.step(cnp(0));
    tb.idle(20);
    assert_eq!(tb.read(addr::DFX_QP).0, 4000);
    assert_eq!(tb.field("dfx_count"), 0);
    assert!(tb.field("dfx_time") > 20);
}

#[test]
fn dfx_full_without_wrap_sets_lost_and_wrap_keeps_the_last_64() {
    for wrap in [false, true] {
        let mut tb = Tb::ready(1);
        tb.write(addr::NOCNP_TIMER_TH, 1);
        tb.write(addr::CNP_MERGE_PERIOD, 0);
        tb.write(addr::DFX_CTRL, 1 | (u32::from(wrap) << 1));
        tb.step(cnp(0));
        tb.idle(100);
        assert_eq!(tb.field("dfx_count"), 64);
        assert_eq!(tb.field("dfx_lost"), 1);
        let events = tb.field("dfx_n_dec") + tb.field("dfx_n_timer");
        assert!(events > 64);
        let want = if wrap { events % 64 } else { 0 };
        assert_eq!(tb.field("dfx_wptr"), want, "wrap {wrap}");
        // The oldest entry: the decrease without wrap, an increase with it.
        let (e, _) = tb.read(addr::DFX_ENTRY);
        assert_eq!(e, if wrap { 0x100 | 0b110 } else { 0x100 }, "hyper by then");
    }
}

// ---------------------------------------------------------------------------------------------
// spec-mq 7: every nonsense value.

#[test]
fn out_of_range_qps_on_every_port_count_three_and_change_nothing_else() {
    let mut tb = Tb::ready(4);
    let before = tb.b.state().bitmaps.clone();
    let i = MqInputs {
        req: ev(4, 1),
        cnp: ev(4095, 0),
        rpt: ev(100, 1),
        ..MqInputs::default()
    };
    tb.step(i);
    assert_eq!(tb.field("cnt_bad_qp"), 3);
    assert_eq!(tb.b.state().bitmaps, before);
    assert_eq!(tb.field("rx_valid"), 0);
    assert_eq!(tb.field("cnt_req") + tb.field("cnt_cnp"), 0);
}

#[test]
fn cnp_and_report_in_the_init_round_are_dropped_requests_accepted() {
    let mut tb = Tb::new(4);
    tb.step(MqInputs {
        req: ev(1, 8),
        cnp: ev(1, 0),
        rpt: ev(1, 8),
        ..MqInputs::default()
    });
    assert_eq!(tb.field("cnt_init_drop"), 2);
    assert_eq!(tb.field("cnt_req"), 1);
    assert!(!tb.b.state().bitmaps.cnp_flag.get(1));
    tb.idle(10);
    assert_eq!(tb.grants.len(), 1, "granted after the init round");
}

#[test]
fn zero_byte_requests_and_reports_are_legal() {
    let mut tb = Tb::ready(4);
    tb.step(req(0, 0));
    tb.idle(4);
    assert_eq!(tb.grants, vec![(tb.grants[0].0, 0, 0)]);
    assert_eq!(tb.b.mems().credit(0).credit, 67_108_864, "charges nothing");
    tb.step(rpt(0, 0));
    tb.idle(2);
    assert_eq!(tb.b.mems().done_cnt_mem[0], 1);
    assert_eq!(tb.field("cnt_rpt_spurious"), 0);
}

#[test]
fn merge_period_0_decreases_at_every_visit_with_a_cnp() {
    let mut tb = Tb::ready(4);
    tb.write(addr::CNP_MERGE_PERIOD, 0);
    let v = tb.visit_at_or_after(1, tb.cycle + 1);
    tb.idle_until(v - 1);
    tb.step(cnp(1));
    tb.idle_until(v + 3);
    tb.step(cnp(1));
    tb.idle(4);
    assert_eq!(tb.field("cnt_dec"), 2);
}

#[test]
fn thresholds_of_0_fire_at_every_visit_or_switch_the_trigger_off() {
    let mut tb = Tb::ready(4);
    tb.write(addr::ALPHA_TIMER_TH, 0);
    tb.write(addr::NOCNP_TIMER_TH, 0);
    let v = tb.visit_at_or_after(0, tb.cycle + 1);
    tb.idle_until(v - 1);
    tb.step(cnp(0));
    tb.idle_until(v + 1); // after the decrease
    assert_eq!(tb.b.mems().record(0).alpha, 1023);
    tb.idle_until(v + 5); // next visit: alpha decays (k = 1)
    assert_eq!(tb.b.mems().record(0).alpha, 1019);
    tb.idle(100_000);
    assert_eq!(
        rc_of(&tb, 0),
        4100,
        "timer trigger off, byte trigger off: no increase"
    );
    assert_eq!(tb.field("cnt_inc_fr"), 0);
}

#[test]
fn applied_rate_0_stops_the_qp_once_its_credit_is_spent() {
    let mut tb = Tb::ready(4);
    tb.write(addr::ENABLES, 0b1010); // firmware rate, throttle, speed limiter
    tb.write(addr::CREDIT_CAP, 4096);
    tb.write(Tb::win(2, W_CC_RATE), 0);
    tb.grants.clear();
    for _ in 0..3000 {
        tb.step(req(2, 1024));
    }
    assert_eq!(tb.grants.len(), 4, "4 KiB of credit, then nothing refills");
}

#[test]
fn max_rate_and_rate_min_edges() {
    let mut tb = Tb::new(4);
    tb.write(addr::MAX_RATE, 0xFF_FFFF); // above LINE_WIN: LINE_WIN
    tb.idle(10);
    assert_eq!(rc_of(&tb, 3), 8192);
    // A lowered max_rate reaches every QP at its next visit.
    tb.write(addr::MAX_RATE, 5000);
    tb.idle(5);
    for q in 0..4 {
        let r = tb.b.mems().record(q);
        assert_eq!((r.rc, r.rt, r.cc_rate), (5000, 5000, 5000));
    }
    // rate_min above rmax: the ceiling wins.
    tb.write(addr::MAX_RATE, 4000);
    tb.write(addr::RATE_MIN, 6000);
    tb.step(cnp(1));
    tb.idle(8);
    assert_eq!(rc_of(&tb, 1), 4000);
    assert_eq!(tb.field("cnt_dec"), 1);
    // An rc above LINE_WIN written with hw = 0 is applied as LINE_WIN; clamps when hw returns.
    tb.write(addr::MAX_RATE, 0);
    tb.write(addr::ENABLES, 0b1110);
    tb.write(Tb::win(0, W_RATE), 0xFF_FFFF);
    assert_eq!(rc_of(&tb, 0), 0xFF_FFFF);
    tb.write(addr::ENABLES, 0b1111);
    tb.idle(5);
    assert_eq!(rc_of(&tb, 0), 8192);
}

#[test]
fn ost_limit_and_credit_cap_of_0_act_as_1() {
    let mut tb = Tb::ready(4);
    tb.write(addr::OST_LIMITS, 0);
    tb.write(addr::ENABLES, 0b0100);
    tb.grants.clear();
    for _ in 0..50 {
        tb.step(req(1, 1));
    }
    assert_eq!(tb.grants.len(), 1);
    tb.write(addr::CREDIT_CAP, 0);
    tb.write(addr::ENABLES, 0b1000);
    assert_eq!(tb.field("pcredit"), 1024);
}

#[test]
fn injected_out_of_range_registers_do_nothing() {
    let mut tb = Tb::ready(4);
    let mems = tb.b.mems().clone();
    {
        let s = tb.b.state_mut();
        s.scan.scan_q = 4095;
        s.grant.gx_valid = true;
        s.grant.gx_qp = 9;
        s.rpt.rx_valid = true;
        s.rpt.rx_qp = 4;
        s.grant.rr = 4000;
        s.regs.bus.wpend = true;
        s.regs.bus.wq = 7;
        s.regs.bus.rpend = true;
        s.regs.bus.rq = 100;
    }
    let (o, obs) = tb.b.step_obs(&req(2, 1));
    tb.cycle += 1;
    assert!(
        obs.writes[..3].iter().all(|w| !w.valid),
        "no visit, grant or report write"
    );
    assert!(!o.m_grant_valid);
    assert_eq!(tb.field("scan_q"), 0, "the scan restarts at 0");
    assert_eq!(tb.field("g_valid"), 0);
    assert_eq!(tb.field("cnt_grant") + tb.field("cnt_rpt"), 0);
    assert_eq!(tb.b.mems().sent_mem, mems.sent_mem);
    // The pending accesses to QPs >= QPS complete with DECERR in the next cycle.
    let mut i = MqInputs::default();
    i.axil.bready = true;
    i.axil.rready = true;
    let o = tb.step(i);
    assert!(o.s_axil_bvalid && o.s_axil_rvalid);
    assert_eq!(
        (o.s_axil_bresp, o.s_axil_rresp, o.s_axil_rdata),
        (DECERR, DECERR, 0)
    );
    assert_eq!(tb.field("wpend") + tb.field("rpend"), 0);
    // rr >= QPS starts the search at 0: QP 2 was picked in the first cycle.
    tb.idle(3);
    assert_eq!(tb.grants.iter().map(|g| g.1).collect::<Vec<_>>(), [2]);
}

#[test]
fn injected_init_starts_an_init_round_from_scan_q() {
    let mut tb = Tb::ready(8);
    tb.b.state_mut().scan.init = true;
    tb.b.state_mut().scan.scan_q = 5;
    tb.b.mems_mut().rate_mem[6] = 1;
    tb.b.mems_mut().rate_mem[2] = 1;
    tb.idle(3); // visits 5, 6, 7: the round ends at QPS - 1
    assert_eq!(tb.field("init"), 0);
    assert_eq!(rc_of(&tb, 6), 8192);
    assert_eq!(
        tb.b.mems().rate_mem[2],
        1,
        "QP 2 is not initialised by this round"
    );
}

// ---------------------------------------------------------------------------------------------
// spec-mq 4.1: reset.

#[test]
fn reset_mid_run_keeps_memories_and_drives_the_outputs_of_4_1() {
    let mut tb = Tb::ready(4);
    tb.step(req(1, 10));
    tb.step(cnp(1));
    tb.step(MqInputs::default());
    // The grant is driven in the next cycle: reset now.
    let mems = tb.b.mems().clone();
    let mut i = MqInputs {
        rst: true,
        ..MqInputs::default()
    };
    i.axil.awvalid = true;
    i.axil.wvalid = true;
    i.axil.arvalid = true;
    let (o, obs) = tb.b.step_obs(&i);
    assert!(!o.s_axil_awready && !o.s_axil_wready && !o.s_axil_arready);
    assert!(o.m_grant_valid, "a registered output of S(t)");
    assert!(obs.writes.iter().all(|w| !w.valid), "no memory written");
    assert_eq!(tb.b.mems(), &mems);
    let o = tb.b.step(&MqInputs::default());
    assert!(!o.m_grant_valid);
    let fresh = Tb::new(4);
    let mut obs = tb.b.obs_state();
    let mut want = fresh.b.obs_state();
    // `tb` ran one cycle past its reset, `fresh` none: compare all but `now` and `scan_q`.
    obs.state[0] = 0;
    obs.state[1] = 0;
    want.state[0] = 0;
    want.state[1] = 0;
    assert_eq!(obs, want);
}

#[test]
fn observation_is_s_t_and_the_writes_of_t() {
    let mut tb = Tb::ready(4);
    let before = tb.b.obs_state();
    let (_, obs) = tb.b.step_obs(&req(3, 99));
    assert_eq!(obs.state, before.state);
    assert_eq!(obs.bitmaps, before.bitmaps);
    assert!(obs.writes[3].valid && obs.writes[3].qp == 3);
    assert_eq!(obs.writes[3].field(&STREAMS[3], 0), 99);
    let _ = QpEvent::default();
}

// ---------------------------------------------------------------------------------------------
// spec-mq 8.2: the write streams are exactly the memory writes; `step` and `step_obs` agree.

#[test]
fn write_streams_are_the_memory_writes_and_step_obs_equals_step() {
    let p = MqParams::with_qps(8).unwrap();
    let mut a = dcqcn_model::mq::MqBlock::new(p);
    let mut b = dcqcn_model::mq::MqBlock::new(p);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut outstanding: Vec<(u16, u16)> = Vec::new();
    for t in 0..30_000u64 {
        let r = next();
        let mut i = MqInputs {
            rst: t == 0 || t == 17_000,
            ..MqInputs::default()
        };
        if r % 3 == 0 {
            i.req = ev((r >> 8) as u16 % 10, (r >> 16) as u16 % 3000);
        }
        if r % 97 == 0 {
            i.cnp = ev((r >> 24) as u16 % 9, 0);
        }
        if r % 5 == 0 && !outstanding.is_empty() {
            let (q, bytes) = outstanding.remove(0);
            i.rpt = ev(q, bytes);
        }
        if r % 1000 == 1 {
            i.axil.awvalid = true;
            i.axil.wvalid = true;
            i.axil.awaddr = Tb::win(
                (r >> 32) as u32 % 8,
                [W_RATE, W_CTRL, W_ALPHA][(r >> 40) as usize % 3],
            );
            i.axil.wdata = (r >> 20) as u32 & 0x3FFF;
            i.axil.wstrb = 0xF;
        }
        i.axil.bready = r % 2 == 0;
        i.axil.rready = true;
        i.grant_pause = r % 11 == 0;
        let before = a.mems().clone();
        let (oa, obs) = a.step_obs(&i);
        let ob = b.step(&i);
        assert_eq!(oa, ob, "cycle {t}");
        if oa.m_grant_valid {
            outstanding.push((oa.m_grant_qp, oa.m_grant_bytes));
        }
        // Every memory change is in a stream, every stream write is in the memory.
        let after = a.mems();
        let wv = &obs.writes[0];
        let wg = &obs.writes[1];
        let wr = &obs.writes[2];
        let wq = &obs.writes[3];
        for q in 0..8usize {
            let rec_changed = after.record(q) != before.record(q);
            assert!(
                !rec_changed || (wv.valid && usize::from(wv.qp) == q),
                "cycle {t} QP {q}"
            );
            let cg = after.cc_byte_cnt_mem[q] != before.cc_byte_cnt_mem[q]
                || after.grant_cnt_mem[q] != before.grant_cnt_mem[q];
            assert!(
                !cg || (wg.valid && usize::from(wg.qp) == q),
                "cycle {t} wg {q}"
            );
            let cr = after.done_cnt_mem[q] != before.done_cnt_mem[q]
                || after.sent_mem[q] != before.sent_mem[q];
            assert!(
                !cr || (wr.valid && usize::from(wr.qp) == q),
                "cycle {t} wr {q}"
            );
            assert!(after.req_mem[q] == before.req_mem[q] || (wq.valid && usize::from(wq.qp) == q));
        }
        if wv.valid {
            let r = after.record(usize::from(wv.qp));
            let vals: Vec<u64> = (0..14).map(|k| wv.field(&STREAMS[0], k)).collect();
            assert_eq!(vals, r.wv_fields().to_vec(), "cycle {t}");
        }
        if wg.valid {
            let c = after.credit(usize::from(wg.qp));
            assert_eq!(wg.field(&STREAMS[1], 0), u64::from(c.credit as u32));
            assert_eq!(wg.field(&STREAMS[1], 1), u64::from(c.stamp));
            assert_eq!(
                wg.field(&STREAMS[1], 2),
                u64::from(after.grant_cnt_mem[usize::from(wg.qp)])
            );
        }
        if wr.valid {
            let q = usize::from(wr.qp);
            assert_eq!(wr.field(&STREAMS[2], 0), u64::from(after.done_cnt_mem[q]));
            assert_eq!(wr.field(&STREAMS[2], 1), u64::from(after.sent_mem[q]));
        }
    }
    assert_eq!(a.obs_state(), b.obs_state());
    assert_eq!(a.mems(), b.mems());
    assert!(a.state().regs.cnt.cnt_grant > 20);
}
