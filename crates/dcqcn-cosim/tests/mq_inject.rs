//! State injection and whole-memory comparison of the multi-QP block's lockstep (docs/spec-mq.md
//! 8.2, 8.3): random states (every register, bitmap bit and memory entry within its width, from a
//! seed) loaded into the model and into either HDL run in lockstep without a mismatch at QPS 4 and
//! 64; a memory difference planted in the RTL's dump, or injected into one RTL copy only, is
//! reported under the copy, entry and field; a value that does not fit its field is refused with
//! the field's name.

use dcqcn_cosim::mq_lockstep::{diff_memories, run, MqRunSpec, Plant};
use dcqcn_cosim::mq_rtl::{mq_variants, MqRtl};
use dcqcn_cosim::CosimError;
use dcqcn_model::mq::mem::low_mask;
use dcqcn_model::mq::obs::STATE_FIELDS;
use dcqcn_model::mq::{mem_copies, MqBlock, MqInitial, MqParams, MEMORIES};
use dcqcn_stim::mq::by_name;
use dcqcn_stim::variant::Hdl;
use std::path::Path;

/// Whether the multi-QP variant of `hdl` at `qps` is built (it must be when its RTL exists and
/// DCQCN_MQ_QPS is not set).
fn built(hdl: Hdl, qps: u32) -> bool {
    let dir = match hdl {
        Hdl::Sv => "rtl/mq",
        Hdl::Vhdl => "rtl/vhdl/mq",
    };
    let present = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir)
        .is_dir();
    let has = mq_variants()
        .iter()
        .any(|v| v.hdl == hdl && v.qps == qps && !v.is_mutant());
    if present && std::env::var_os("DCQCN_MQ_QPS").is_none() {
        assert!(has, "{dir} exists but its QPS {qps} variant is not built");
    }
    has
}

/// splitmix64: the test's own deterministic draws.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value of `bits` bits: uniform, or one of the edges 0, 1, max - 1, max.
    fn value(&mut self, bits: u32) -> u64 {
        let m = low_mask(bits);
        match self.next() % 8 {
            0 => 0,
            1 => 1 & m,
            2 => m.wrapping_sub(1) & m,
            3 => m,
            _ => self.next() & m,
        }
    }
}

/// Any state at `qps` from `seed`: every register, bitmap bit and memory entry drawn within its
/// width (spec-mq 8.3: no state is excluded).
fn random_initial(qps: u32, seed: u64) -> MqInitial {
    let p = MqParams::with_qps(qps).unwrap();
    let mut init = MqInitial::reset(&p);
    let mut d = Draw(seed);
    for &(name, bits) in STATE_FIELDS {
        init.state.set_field(name, d.value(bits)).unwrap();
    }
    let b = &mut init.state.bitmaps;
    for map in [
        &mut b.req_valid,
        &mut b.rate_ok,
        &mut b.ost_lt_hi,
        &mut b.ost_lt_lo,
        &mut b.lim8,
        &mut b.cnp_flag,
        &mut b.arb_mask,
    ] {
        for q in 0..qps as usize {
            map.set(q, d.next() & 1 == 1);
        }
    }
    for (m, mem) in MEMORIES.iter().enumerate() {
        for i in 0..init.mems.depth(m) {
            init.mems.set_entry(m, i, d.value(mem.width()));
        }
    }
    init.validate(qps).unwrap();
    init
}

fn spec(scenario: &str, hdl: Hdl, qps: u32, seed: u64, cycles: u64) -> MqRunSpec {
    let sc = by_name(scenario).expect("a built-in scenario");
    MqRunSpec {
        scenario: sc.name.into(),
        stimulus: (sc.stimulus)(qps),
        qps,
        hdl,
        variant: None,
        seed,
        cycles,
        replay: format!("test mq_inject {scenario} seed {seed}"),
        plant: None,
        initial: Some(random_initial(qps, seed)),
    }
}

fn copy_index(name: &str) -> usize {
    mem_copies()
        .iter()
        .position(|c| c.name() == name)
        .unwrap_or_else(|| panic!("no memory copy {name}"))
}

fn random_states_in_lockstep(hdl: Hdl) {
    let mut failures = vec![];
    for (qps, seeds, cycles) in [(4u32, 1..=6u64, 2_000u64), (64, 1..=3, 3_000)] {
        if !built(hdl, qps) {
            eprintln!("skipped: no {} variant at QPS {qps}", hdl.name());
            continue;
        }
        for seed in seeds {
            for scenario in ["mq-incast", "mq-sw-writes"] {
                let o = run(&spec(scenario, hdl, qps, seed, cycles), None).unwrap();
                assert_eq!(o.stats.cycles, cycles, "{scenario} seed {seed} QPS {qps}");
                if let Some(m) = o.mismatch {
                    failures.push(m.report());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_injected_states_run_in_lockstep_on_the_systemverilog() {
    random_states_in_lockstep(Hdl::Sv);
}

#[test]
fn random_injected_states_run_in_lockstep_on_the_vhdl_twin() {
    random_states_in_lockstep(Hdl::Vhdl);
}

/// The dumps read back what was injected, every copy and entry; then one RTL copy written alone
/// (a wrong injection into the RTL only) is reported under that copy, entry and field, and the
/// other copies of the same memory are not; `REQ_MEM` differs unreported where `req_valid` is 0.
#[test]
fn a_wrong_injection_into_one_rtl_copy_is_reported_at_that_copy() {
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        for qps in [4u32, 64] {
            if !built(hdl, qps) {
                continue;
            }
            let init = random_initial(qps, 99);
            let mut model = MqBlock::new(MqParams::with_qps(qps).unwrap());
            model.load(&init).unwrap();
            let mut rtl = MqRtl::new(hdl, qps).unwrap();
            rtl.inject(&init);
            let dump = rtl.memories();
            for (c, got) in mem_copies().iter().zip(&dump) {
                assert_eq!(
                    got,
                    &init.mems.entries(c.memory),
                    "{} {}",
                    hdl.name(),
                    c.name()
                );
            }
            // cc_rate_mem has copies for the visit and the grant process: change the grant's
            let k = copy_index("cc_rate_mem_grant");
            let e = (qps - 1) as usize;
            let v = init.mems.entry(mem_copies()[k].memory, e);
            rtl.write_mem_entry(k, e, v ^ 0x10);
            // and REQ_MEM of the visit at a QP with req_valid 0 and one with req_valid 1
            let off = (0..qps as usize)
                .find(|&q| !init.state.bitmaps.req_valid.get(q))
                .unwrap();
            let on = (0..qps as usize)
                .find(|&q| init.state.bitmaps.req_valid.get(q))
                .unwrap();
            let rv = copy_index("req_mem_visit");
            rtl.write_mem_entry(rv, off, u64::from(init.mems.req_mem[off] ^ 1));
            rtl.write_mem_entry(rv, on, u64::from(init.mems.req_mem[on] ^ 0x8000));
            let mut d = vec![];
            diff_memories(&model, &rtl.memories(), &mut d);
            let names: Vec<_> = d.iter().map(|f| f.field.clone()).collect();
            assert_eq!(
                names,
                [
                    format!("mem.req_mem_visit[{on}].req_bytes"),
                    format!("mem.cc_rate_mem_grant[{e}].cc_rate"),
                ],
                "{} QPS {qps}",
                hdl.name()
            );
            assert_eq!(d[1].expected ^ d[1].actual, 0x10);
            assert_eq!(d[1].block, "mem");
        }
    }
}

/// A bit flipped in the RTL's dump of one copy is reported at the injection (cycle of the load)
/// and, without an injection, when the init round ends.
#[test]
fn a_planted_memory_difference_is_reported_at_the_comparison() {
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        let qps = 4;
        if !built(hdl, qps) {
            continue;
        }
        let copy = copy_index("rate_mem_visit");
        let mut s = spec("mq-incast", hdl, qps, 5, 500);
        s.plant = Some((
            0,
            Plant::Mem {
                copy,
                entry: 3,
                bit: 30,
            },
        ));
        let m = run(&s, None).unwrap().mismatch.expect("the plant is seen");
        let f = &m.fields[0];
        assert_eq!(
            (f.field.as_str(), f.block),
            ("mem.rate_mem_visit[3].rt", "mem")
        );
        assert_eq!(f.expected ^ f.actual, 1 << 6, "bit 30 is rt's bit 6");
        assert!(m.report().contains("mem.rate_mem_visit[3].rt"));
        assert!(serde_json::to_string(&m)
            .unwrap()
            .contains("\"field\":\"mem.rate_mem_visit[3].rt\""));
        // the load comes before the first cycle with rst low: after the scenario's reset cycles
        assert!(m.cycle > 0 && m.cycle < 10, "{}", m.cycle);

        // no injection: the first whole-memory comparison is at the end of the init round
        s.initial = None;
        let m = run(&s, None).unwrap().mismatch.expect("the plant is seen");
        assert_eq!(m.fields[0].field, "mem.rate_mem_visit[3].rt");
        let mut model = MqBlock::new(MqParams::with_qps(qps).unwrap());
        let mut bench = dcqcn_stim::mq::MqBench::new(&s.stimulus, qps, s.seed);
        let mut out = Default::default();
        let mut end = None;
        for c in 0..s.cycles {
            let was = model.state().scan.init;
            out = model.step(&bench.next(&out));
            if was && !model.state().scan.init {
                end = Some(c + 1);
                break;
            }
        }
        assert_eq!(Some(m.cycle), end, "{}", hdl.name());
    }
}

/// spec-mq 8.3: a value that does not fit its field is refused, naming it; so is a state of
/// another QPS.
#[test]
fn a_value_that_does_not_fit_is_refused_with_its_name() {
    let mut s = spec("mq-incast", Hdl::Sv, 4, 1, 100);
    let init = s.initial.as_mut().unwrap();
    init.state.regs.cfg.alpha_init = 1 << 10;
    let e = run(&s, None).expect_err("refused");
    assert!(matches!(e, CosimError::MqInitial(_)));
    assert_eq!(
        e.to_string(),
        "initial state: state.cfg_alpha_init: 1024 does not fit 10 bits"
    );
    let mut s = spec("mq-incast", Hdl::Sv, 4, 1, 100);
    s.initial.as_mut().unwrap().mems.t_bc_mem[2] = 1 << 41;
    let e = run(&s, None).expect_err("refused").to_string();
    assert!(e.contains("mem.t_bc_mem[2]"), "{e}");
    let mut s = spec("mq-incast", Hdl::Sv, 4, 1, 100);
    s.initial = Some(random_initial(64, 1));
    let e = run(&s, None).expect_err("refused").to_string();
    assert_eq!(
        e,
        "initial state: the initial state is for QPS 64, the run is at QPS 4"
    );
}
